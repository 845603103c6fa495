#!/bin/sh
# play_xvfb.sh -- `demoplay play` in a virtual X display, driven by synthetic keys; checks the frames it showed
#
#   sh tests/play_xvfb.sh [DEMOPLAY_BIN] [SCREENSHOT.png]
#
# Needs Xvfb (xvfb-run), xdotool and ImageMagick's `import`; exits 77 when one is
# missing (the caller decides whether that is a skip). The play log
# (DEMOPLAY_PLAY_LOG) has one line per shown frame: show N t=T frame=F speed=S paused=P end=E
set -u
BIN=${1:-./demoplay}
SHOT=${2:-build/play_xvfb.png}
DATA=${DEMOPLAY_DATA:-../shared/data}
DEMO="$DATA/quake/demos/qfm_e1m4.dem"
GAMEARGS="--basedir $DATA/quake --game qfm"
if [ ! -f "$DEMO" ] && [ -z "${CI:-}" ] && [ -f build/builtin/id1/demos/builtin.dem ]; then
    # no real data: the built-in demo (1 .. 33 s) has room for the same keys
    echo "play_xvfb: no test data at $DATA: playing the built-in demo"
    DEMO=build/builtin/id1/demos/builtin.dem
    GAMEARGS="--basedir build/builtin"
fi
for tool in xvfb-run xdotool import; do
    command -v $tool >/dev/null 2>&1 || { echo "play_xvfb: $tool not installed"; exit 77; }
done
[ -f "$DEMO" ] || { echo "play_xvfb: no test data at $DATA"; exit 77; }

mkdir -p build
# sanitizer builds: the X11/D-Bus libraries SDL loads keep allocations until exit
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$(pwd)/tests/lsan_sdl.supp:print_suppressions=0"
export LSAN_OPTIONS
# Sanitizer builds (make test-san sets ASAN_OPTIONS): SDL's X11 video loads Mesa's
# swrast_dri.so and unloads it again before exit, so LeakSanitizer reports the
# driver's allocations from an "<unknown module>" that no suppression can name.
# Preloading the driver keeps it mapped: its frames are named, and suppressed.
PRELOAD=""
if [ -n "${ASAN_OPTIONS:-}" ]; then
    for f in /usr/lib/*/dri/swrast_dri.so; do [ -f "$f" ] && PRELOAD=$f; done
fi
LOG=$(mktemp /tmp/demoplay_play_log.XXXXXX)
EVENTS=$(mktemp /tmp/demoplay_play_events.XXXXXX)
trap 'rm -f "$LOG" "$EVENTS"' EXIT

# Inside the virtual display: start play, wait for its window, press keys, screenshot, quit.
xvfb-run -a -s "-screen 0 1024x768x24" sh -c '
    BIN=$1 DEMO=$2 GAMEARGS=$3 LOG=$4 SHOT=$5 EVENTS=$6 PRELOAD=$7
    [ -n "$PRELOAD" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"
    DEMOPLAY_PLAY_LOG=$LOG LD_PRELOAD=$PRELOAD "$BIN" play --nosound --size 320x240 --scale 2 --start 20 \
        $GAMEARGS "$DEMO" &
    pid=$!
    wid=$(xdotool search --sync --name "^demoplay" | head -1)
    [ -n "$wid" ] || { echo "play_xvfb: no window"; kill $pid; exit 1; }
    xdotool windowfocus --sync "$wid" 2>/dev/null
    mark() { echo "$1 $(date +%s.%N)" >> "$EVENTS"; }
    key() { mark "$1"; xdotool key --window "$wid" --clearmodifiers "$1"; }
    sleep 1.5
    key space;  sleep 1        # pause
    key Left;   sleep 0.5      # seek back 5 s (stays paused)
    key period; sleep 0.3      # one server frame on
    key period; sleep 0.3
    key comma;  sleep 0.3      # one back
    key Up; key Up; sleep 0.2  # speed x4
    key space;  sleep 1.5      # resume at x4
    import -window root "$SHOT"
    key q
    i=0; while [ $i -lt 120 ] && kill -0 $pid 2>/dev/null; do sleep 0.5; i=$((i+1)); done   # sanitizer exits take a while
    if kill -0 $pid 2>/dev/null; then echo "play_xvfb: still running after q"; kill $pid; exit 1; fi
    wait $pid
' sh "$BIN" "$DEMO" "$GAMEARGS" "$LOG" "$SHOT" "$EVENTS" "$PRELOAD"
rc=$?
[ $rc -eq 0 ] || { echo "play_xvfb: play exited with $rc"; cat "$LOG"; exit 1; }

# Check what was shown, phase by phase (the log is split at the key lines).
awk '
    BEGIN { phase = 0 }
    function fail(m) { print "play_xvfb: FAIL: " m; bad = 1 }
    /^key / { keys = keys " " $2; phase++; next }
    /^show / {
        split($3, a, "="); t = a[2] + 0
        split($4, b, "="); f = b[2] + 0
        split($5, c, "="); sp = c[2] + 0
        split($6, d, "="); pa = d[2] + 0
        n[phase]++; if (!(phase in first)) first[phase] = t; last[phase] = t
        lastf[phase] = f; if (!(phase in firstf)) firstf[phase] = f
        speed[phase] = sp; paused[phase] = pa
    }
    END {
        # phases: 0 playing, 1 after Space (paused), 2 after Left, 3,4 after ".", 5 after ",",
        #         6,7 after Up Up, 8 after Space (x4), 9 after q
        if (keys != " Space Left . . , Up Up Space Q") fail("keys seen:" keys)
        if (first[0] < 19.9 || first[0] > 20.2) fail("did not start at 20 s: " first[0])
        if (last[0] - first[0] < 0.7) fail("did not play: " first[0] " .. " last[0])
        if (!paused[1] || last[1] != first[1]) fail("pause: clock moved " first[1] " .. " last[1])
        if (last[2] > last[1] - 4.9 || last[2] < last[1] - 5.1) fail("seek back: " last[1] " -> " last[2])
        if (!(lastf[3] == lastf[2] + 1 || (last[3] > last[2] && lastf[3] == lastf[2]))) fail("step: frame " lastf[2] " -> " lastf[3])
        if (!(last[4] > last[3])) fail("second step did not move: " last[3] " -> " last[4])
        if (!(last[5] < last[4] && lastf[5] < lastf[4])) fail("step back: " last[4] "/" lastf[4] " -> " last[5] "/" lastf[5])
        if (speed[7] != 4) fail("speed after Up Up: " speed[7])
        if (paused[8] || last[8] - first[8] < 3.0) fail("x4 playback: " first[8] " .. " last[8] " in ~1.5 s")
        if (!bad) printf "play_xvfb: ok: start %.2f, paused at %.2f, seek to %.2f, steps %.3f %.3f back %.3f, x4 ran %.2f s of demo\n", first[0], last[1], last[2], last[3], last[4], last[5], last[8] - first[8]
        exit bad
    }
' "$LOG" || { echo "--- log:"; grep -v "^show" "$LOG"; exit 1; }
[ -s "$SHOT" ] || { echo "play_xvfb: no screenshot"; exit 1; }
echo "play_xvfb: screenshot $SHOT"
