#!/bin/sh
# run.sh -- what `make run` does: play the built-in demo in a window; with no
# display, export a few seconds of it to PNGs + WAV and say where they are.
BASE=build/builtin
DEMO=$BASE/id1/demos/builtin.dem
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "run: playing the built-in demo (Space pause, Left/Right seek, Up/Down speed, Esc quit)"
    exec ./demoplay play --basedir "$BASE" "$DEMO"
fi
OUT=out/builtin
echo "run: no display (\$DISPLAY and \$WAYLAND_DISPLAY are unset): exporting 8 seconds of the built-in demo instead"
rm -rf "$OUT" && mkdir -p "$(dirname "$OUT")"
./demoplay export --basedir "$BASE" --fps 25 --from 1 --to 9 --size 640x400 -o "$OUT" "$DEMO" || exit $?
n=$(ls "$OUT" | grep -c '^frame_.*\.png$')
cat <<MSG
run: wrote $n frames and the sound track:
    $OUT/frame_000000.png ... and $OUT/audio.wav
  make a video of them:   ffmpeg -framerate 25 -i $OUT/frame_%06d.png -i $OUT/audio.wav -c:v libx264 -pix_fmt yuv420p builtin.mp4
  watch a real demo:      ./demoplay play --basedir /path/to/quake [--game MOD] demo1.dem
MSG
