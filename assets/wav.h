// wav.h -- RIFF WAVE loader: PCM 8-bit unsigned / 16-bit signed, mono or stereo, any rate, Quake's loop points
//
//     wav_info_t info;
//     char err[160];
//     if (wav_parse(bytes, size, &info, err, sizeof(err)) < 0) log_warn("%s: %s", name, err);
//     int16_t *pcm = malloc(wav_s16_bytes(&info));
//     wav_to_s16(bytes, size, &info, pcm);            // interleaved, host-endian
//
// Loop points are read the way Quake's GetWavinfo reads them (Quake II is the
// same): the first "cue " chunk gives the loop start (dwSampleOffset of its first
// cue point); a "LIST" chunk after it whose bytes at +28 are "mark" (an "adtl"
// "ltxt" entry, as Cool Edit writes) gives the loop length at +24, and the sound
// then ends at loop start + length instead of at the end of its data. A sound
// with a cue point loops whenever it plays; one without plays once.
//
// Parsing is bounded by the buffer: chunk walks stop at the end of the bytes,
// never read past them, and fatal errors read "offset N: expected ...". Harmless
// damage that Quake would have tolerated (a data chunk cut short by the end of the
// file, a loop running past the data) is repaired and described in `note`.
#ifndef WAV_H
#define WAV_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int rate;             // frames per second
    int channels;         // 1 or 2
    int width;            // bytes per sample: 1 (unsigned 8-bit) or 2 (signed 16-bit little-endian)
    int frames;           // frames to play: the data, or loop start + loop length ("mark")
    int data_frames;      // frames present in the data chunk
    int loop_start;       // frame a loop returns to; -1 = plays once
    size_t data_offset;   // file offset of the first sample
    char note[128];       // non-fatal repair made, or ""
} wav_info_t;

// Parse the header and chunks of a WAV file held in memory. Returns 0, or -1
// with a message in err ("offset N: expected ...").
int wav_parse(const uint8_t *bytes, size_t size, wav_info_t *info, char *err, size_t errcap);

// Bytes needed for the frames to play as interleaved signed 16-bit samples.
size_t wav_s16_bytes(const wav_info_t *info);

// Convert the frames to play to interleaved signed 16-bit (host byte order).
// `bytes`/`size` must be the buffer wav_parse accepted. Returns frames written.
int wav_to_s16(const uint8_t *bytes, size_t size, const wav_info_t *info, int16_t *out);

#endif
