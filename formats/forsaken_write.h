// forsaken_write.h -- a Forsaken .DMO writer: the header and one writer per message type
//
// Builds a demo in memory from the same structs the decoder parses into
// (formats/forsaken.h), in exactly the layouts the decoder reads. Used by the
// tests to make synthetic demos covering every event type (no real Forsaken
// recording exists publicly) and to make tests/data/forsaken_sample.dmo.
//
//     fs_writer_t wr;
//     fs_writer_init(&wr);
//     fs_write_header(&wr, &hdr);
//     fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "kim" });
//     fs_write_ship(&wr, fs_ticks(0.5), 7, FS_MSG_VERYSHORTUPDATE, &ship);
//     if (wr.failed) ... out of memory
//     write wr.data[0 .. wr.size) to a file; fs_writer_free(&wr);
//
// Every writer returns 0, or -1 (and sets failed) when out of memory or when the
// struct cannot be written (unknown message code for fs_write_event).
#ifndef FORSAKEN_WRITE_H
#define FORSAKEN_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "forsaken.h"

typedef struct {
    uint8_t *data;
    size_t size, cap;
    int failed;
} fs_writer_t;

void fs_writer_init(fs_writer_t *wr);
void fs_writer_free(fs_writer_t *wr);

// Seconds to timestamp ticks (FS_TICKS_PER_SECOND), rounded.
uint64_t fs_ticks(double seconds);

int fs_write_header(fs_writer_t *wr, const fs_header_t *h);
// Any payload (unknown message types too): the 16-byte event header, then the bytes.
int fs_write_raw_event(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const uint8_t *payload, size_t n);

int fs_write_name(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_name_t *m);
int fs_write_bikenum(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_bikenum_t *m);
int fs_write_hereiam(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_hereiam_t *m);
int fs_write_playernum(fs_writer_t *wr, uint64_t ticks, uint32_t sender, uint8_t player);
// type: FS_MSG_UPDATE, FS_MSG_FUPDATE, FS_MSG_VERYSHORTUPDATE, FS_MSG_VERYSHORTFUPDATE
// or FS_MSG_GROUPONLY_VERYSHORTFUPDATE (no movement).
// The very short forms round the position to integers and scale the rest to 16 bits.
int fs_write_ship(fs_writer_t *wr, uint64_t ticks, uint32_t sender, uint8_t type, const fs_ship_t *m);
int fs_write_secbull(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_secbull_t *m);
int fs_write_titanbits(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_titanbits_t *m);
int fs_write_shockwave(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_shockwave_t *m);
int fs_write_status(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_status_t *m);
int fs_write_shipdied(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_shipdied_t *m);
int fs_write_droppickup(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_droppickup_t *m);
int fs_write_killpickup(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_killpickup_t *m);
int fs_write_text(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_text_t *m);
// Messages beyond the spec (layouts from the game's structs).
int fs_write_primbull(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_primbull_t *m);
int fs_write_expsecondary(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_expsecondary_t *m);
int fs_write_serverkillpickup(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_killpickup_t *m);
int fs_write_serverdied(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_serverdied_t *m);
int fs_write_pings(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_pings_t *m);
int fs_write_explodeship(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_explodeship_t *m);
// MSG_BGOUPDATE: background object `object` is in `state` at animation time `time` (60ths of a second).
int fs_write_bgoupdate(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_bgoupdate_t *m);
int fs_write_shieldhull(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_shieldhull_t *m);
// type: FS_MSG_SHIPHIT or FS_MSG_SHORTSHIPHIT (recoil, point and dir as int16 values).
int fs_write_shiphit(fs_writer_t *wr, uint64_t ticks, uint32_t sender, uint8_t type, const fs_shiphit_t *m);
// MSG_SHORTSTATS, MSG_TEAMGOALS, MSG_SERVERSCORED (shown in dump; they change nothing drawn).
int fs_write_shortstats(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_shortstats_t *m);
int fs_write_teamgoals(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_teamgoals_t *m);
int fs_write_serverscored(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_serverscored_t *m);

// A parsed event back to bytes (uses ev->type, ev->timestamp, ev->sender, ev->u). Every
// code fs_msg_name names but MSG_GUARANTEEDMSG and MSG_BIGPACKET (built with the encoders below).
int fs_write_event(fs_writer_t *wr, const fs_event_t *ev);

// A message's payload bytes into out[0..cap): its length, 0 when it has no writer or does not fit.
size_t fs_encode(const fs_event_t *ev, uint8_t *out, size_t cap);
// MSG_GUARANTEEDMSG around an encoded message msg[0..n) (at 21; 23 + n bytes, as the game sends it).
size_t fs_encode_guaranteed(const fs_guaranteed_t *g, const uint8_t *msg, size_t n, uint8_t *out, size_t cap);
// MSG_BIGPACKET: each message, then its f32 frame lag (framelag NULL: 0), then a 0 byte.
size_t fs_encode_bigpacket(uint8_t player, const uint8_t *const *msgs, const size_t *lens, const float *framelag,
                           int count, uint8_t *out, size_t cap);

#endif
