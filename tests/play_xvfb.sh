#!/bin/sh
# play_xvfb.sh -- `demoplay play` in a virtual X display, driven by synthetic keys and mouse; checks the frames it showed
#
#   sh tests/play_xvfb.sh [DEMOPLAY_BIN] [SCREENSHOT.png]
#
# Needs Xvfb, xdotool and ImageMagick's `import` and `identify`; exits 77
# when one is missing (the caller decides whether that is a skip). The play log
# (DEMOPLAY_PLAY_LOG, see engine/cmd_play.c) has one line per shown frame:
#     show N t=T frame=F speed=S paused=P end=E cam=MODE player=SLOT origin=X,Y,Z angles=P,Y,R tl=0|1 help=0|1
# and one per key, seek, screenshot, keyframe. Every wait below polls that log for
# the line the action must produce (with a timeout), never a fixed sleep.
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
for tool in Xvfb xdotool import identify; do
    command -v $tool >/dev/null 2>&1 || { echo "play_xvfb: $tool not installed"; exit 77; }
done
# tools/xdnd_drop.c (make build/xdnd_drop): drops a file on the window through XDND
XDND=build/xdnd_drop
if [ ! -x "$XDND" ]; then
    [ -n "${CI:-}" ] && { echo "play_xvfb: FAIL: $XDND not built (make build/xdnd_drop)"; exit 1; }
    echo "play_xvfb: SKIPPED the file drop: $XDND not built (make build/xdnd_drop)"
    XDND=""
fi
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
TMP=$(mktemp -d /tmp/demoplay_play.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
LOG=$TMP/play.log
# a shelf of two demos (links), and a cache of its own
mkdir -p "$TMP/shelf/sub" "$TMP/shots" "$TMP/cache"
ln -s "$(cd "$(dirname "$DEMO")" && pwd)/$(basename "$DEMO")" "$TMP/shelf/a_$(basename "$DEMO")"
ln -s "$(cd "$(dirname "$DEMO")" && pwd)/$(basename "$DEMO")" "$TMP/shelf/sub/b_$(basename "$DEMO")"

# A virtual display of our own, started with -noreset: by default an X server resets when its
# last client leaves, and a client connecting meanwhile is refused (here, 10 of 1500 xdotool
# calls one after another failed without it, 0 with it). The shelf's demoplay, started as the
# first one quits, met that in CI runs: SDL fell back from X11 ("XDG_RUNTIME_DIR is invalid"),
# then "no window named /^demoplay - shelf/", and since play refuses to run without a display,
# "no display reachable (DISPLAY=:0 ...)" right after the first play had used :0. Not
# `xvfb-run -a` (it could pass -noreset too): it picks a display number by lock files, which two
# runs started together can share; Xvfb -displayfd picks a free one itself and writes it once it
# is listening.
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp -noreset 3>"$TMP/display" >"$TMP/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$TMP"' EXIT
i=0
until [ -s "$TMP/display" ] && grep -q "^[0-9]" "$TMP/display"; do
    i=$((i + 1))
    kill -0 $xvfb 2>/dev/null && [ $i -le 1200 ] || { echo "play_xvfb: FAIL: Xvfb did not start"; cat "$TMP/xvfb.log"; exit 1; }
    sleep 0.05
done
DISPLAY=:$(head -1 "$TMP/display")
export DISPLAY
unset WAYLAND_DISPLAY

# Inside the virtual display: play, drive it, quit; then the shelf.
sh -c '
    BIN=$1 DEMO=$2 GAMEARGS=$3 LOG=$4 SHOT=$5 TMP=$6 PRELOAD=$7 XDND=$8
    [ -n "$PRELOAD" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"
    export XDG_CACHE_HOME=$TMP/cache
    fail() { echo "play_xvfb: $*" | tee "$TMP/fail.txt"; kill $pid 2>/dev/null; exit 1; }
    count() { grep -c "$1" "$LOG" 2>/dev/null || true; }
    # wait_for REGEX N: until the log has N lines matching REGEX (timeout 60 s: sanitizer builds are slow)
    wait_for() {
        i=0
        while [ "$(count "$1")" -lt "$2" ]; do
            i=$((i + 1)); [ $i -gt 1200 ] && fail "timed out waiting for $2 lines of /$1/"
            kill -0 $pid 2>/dev/null || fail "demoplay exited while waiting for /$1/"
            sleep 0.05
        done
    }
    # find_window TITLE-REGEX: the window id of the playing process, looked for until it shows (60 s).
    # Not `xdotool search --sync` once: it returned nothing in one run under load ("no shelf
    # window", likely a search meeting the run before as its window went away), so search again.
    find_window() {
        i=0; wid=""
        while [ -z "$wid" ]; do
            i=$((i + 1)); [ $i -gt 1200 ] && fail "no window named /$1/"
            kill -0 $pid 2>/dev/null || fail "demoplay exited before its window /$1/ showed"
            wid=$(xdotool search --name "$1" 2>/dev/null | head -1)
            [ -n "$wid" ] || sleep 0.05
        done
    }
    # wait_shown: one more frame shown after everything logged so far
    wait_shown() { wait_for "^show" $(($(count "^show") + 1)); }
    # wait_shown_after REGEX: until a frame is shown after the last line matching REGEX (60 s).
    # The next key must not be sent before: in one batch of events the program would take
    # both keys before drawing a frame, and the checks below want a frame between them.
    wait_shown_after() {
        i=0
        while [ "$(awk -v re="$1" "\$0 ~ re { n = 0; next } /^show/ { n++ } END { print n + 0 }" "$LOG")" -lt 1 ]; do
            i=$((i + 1)); [ $i -gt 1200 ] && fail "timed out waiting for a frame shown after /$1/"
            kill -0 $pid 2>/dev/null || fail "demoplay exited while waiting for a frame after /$1/"
            sleep 0.05
        done
    }
    # key NAME [LOGNAME]: press, wait for the key line, then for a frame drawn after it
    key() {
        n=$(count "^key ${2:-$1} ")
        xdotool key --window "$wid" --clearmodifiers "$1"
        wait_for "^key ${2:-$1} " $((n + 1))
        wait_shown_after "^key ${2:-$1} "
    }
    # wait_t T: until a shown frame is at playback time >= T
    wait_t() {
        i=0
        while :; do
            t=$(grep "^show" "$LOG" | tail -1 | sed "s/.* t=\([0-9.]*\) .*/\1/")
            awk -v a="$t" -v b="$1" "BEGIN { exit !(a + 0 >= b + 0) }" && break
            i=$((i + 1)); [ $i -gt 1200 ] && fail "timed out waiting for t >= $1 (at $t)"
            kill -0 $pid 2>/dev/null || fail "demoplay exited while waiting for t >= $1"
            sleep 0.05
        done
    }
    field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

    DEMOPLAY_PLAY_LOG=$LOG LD_PRELOAD=$PRELOAD "$BIN" play --nosound --size 320x240 --scale 2 --start 20 \
        --shots "$TMP/shots" --camera-save "$TMP/path.txt" $GAMEARGS "$DEMO" &
    pid=$!
    find_window "^demoplay - "
    [ -n "$wid" ] || fail "no window"
    xdotool windowfocus --sync "$wid" 2>/dev/null
    wait_for "^layout" 1
    wait_t 21.0                        # played a second from 20 s
    key space Space                    # pause
    xdotool mousemove --window "$wid" 300 300   # the timeline shows; the clock must not move
    wait_for "^show.* paused=1 .* tl=1" 1
    key Left                           # seek back 5 s (stays paused)
    key period .                       # one server frame on
    key period .
    key comma ,                        # one back
    key Up; key Up                     # speed x4
    key space Space                    # resume at x4
    t0=$(grep "^show" "$LOG" | tail -1 | field t)
    wait_t $(awk -v t="$t0" "BEGIN { print t + 3.0 }")
    key space Space                    # pause again: the clicks below land exactly
    # the timeline: click at 75 % (the layout line gives its ends in window pixels)
    x0=$(grep "^layout" "$LOG" | tail -1 | field tl_x0)
    x1=$(grep "^layout" "$LOG" | tail -1 | field tl_x1)
    ty=$(grep "^layout" "$LOG" | tail -1 | field tl_y)
    cx=$(awk -v a="$x0" -v b="$x1" "BEGIN { printf \"%d\", a + 0.75 * (b - a) + 0.5 }")   # the nearest pixel
    cy=$(awk -v y="$ty" "BEGIN { printf \"%d\", y }")
    echo "click $cx $cy" >> "$LOG"
    xdotool mousemove --window "$wid" "$cx" "$cy"
    wait_for "^show.* tl=1" 2
    n=$(count "^seek"); xdotool click 1; wait_for "^seek" $((n + 1)); wait_shown
    # drag from 25 % to 50 %
    dx0=$(awk -v a="$x0" -v b="$x1" "BEGIN { printf \"%d\", a + 0.25 * (b - a) }")
    dx1=$(awk -v a="$x0" -v b="$x1" "BEGIN { printf \"%d\", a + 0.50 * (b - a) }")
    echo "drag $dx0 $dx1 $cy" >> "$LOG"
    xdotool mousemove --window "$wid" "$dx0" "$cy"
    n=$(count "^seek"); xdotool mousedown 1; wait_for "^seek" $((n + 1))
    xdotool mousemove --window "$wid" "$dx1" "$cy"; wait_for "^seek" $((n + 2))
    xdotool mouseup 1
    echo "dragged" >> "$LOG"
    wait_shown
    # the free camera: C twice (eyes > chase > free), then W held flies forward
    key c C; key c C
    wait_for "^show.* cam=free" 1
    echo "fly" >> "$LOG"
    o0=$(grep "^show" "$LOG" | tail -1 | field origin)
    xdotool keydown --window "$wid" w
    i=0
    while :; do
        o=$(grep "^show" "$LOG" | tail -1 | field origin)
        awk -v a="$o0" -v b="$o" "BEGIN { split(a, p, \",\"); split(b, q, \",\");
            exit !((q[1]-p[1])^2 + (q[2]-p[2])^2 + (q[3]-p[3])^2 > 200^2) }" && break
        i=$((i + 1)); [ $i -gt 1200 ] && { xdotool keyup --window "$wid" w; fail "W did not fly: $o0 -> $o"; }
        sleep 0.05
    done
    xdotool keyup --window "$wid" w
    wait_for "^keyup W" 1
    echo "flown" >> "$LOG"
    # mouse look (the mouse is captured in the free camera): 100 counts right turn the view right
    echo "look" >> "$LOG"
    a0=$(grep "^show" "$LOG" | tail -1 | field angles)
    xdotool mousemove_relative 100 0
    i=0
    until [ "$(grep "^show" "$LOG" | tail -1 | field angles)" != "$a0" ]; do
        i=$((i + 1)); [ $i -gt 1200 ] && fail "the mouse did not turn the free camera"
        sleep 0.05
    done
    key k K                            # a keyframe there (written by --camera-save at exit)
    n=$(count "^shot"); xdotool key --window "$wid" F12; wait_for "^shot" $((n + 1)); wait_shown_after "^shot"
    n=$(count "^shot"); xdotool key --window "$wid" p; wait_for "^shot" $((n + 1)); wait_shown_after "^shot"
    key F1
    wait_for "^show.* help=1" 1
    import -window root "$SHOT"
    key c C                            # back to the eyes: in the free camera Q flies down
    xdotool key --window "$wid" q 2>/dev/null   # the window may be gone before the key is up
    i=0; while [ $i -lt 1200 ] && kill -0 $pid 2>/dev/null; do sleep 0.05; i=$((i+1)); done   # sanitizer exits take a while
    kill -0 $pid 2>/dev/null && fail "still running after q"
    wait $pid || fail "play exited with $?"

    # the shelf: both demos read, Enter plays the first, Esc comes back, Esc quits
    echo "=== shelf" >> "$LOG.shelf"
    LOG=$LOG.shelf
    DEMOPLAY_PLAY_LOG=$LOG LD_PRELOAD=$PRELOAD "$BIN" play --nosound --size 320x240 --scale 2 $GAMEARGS "$TMP/shelf" &
    pid=$!
    find_window "^demoplay - shelf"
    wait_for "^shelf-read 2" 1
    xdotool key --window "$wid" Down Return
    wait_for "^open .*/sub/b_" 1
    wait_shown
    if [ -n "$XDND" ]; then
        # a file manager drops the other demo on the window: it plays that one
        a="$TMP/shelf/a_$(basename "$DEMO")"
        "$XDND" "$wid" "$a" || fail "xdnd_drop $a failed"
        wait_for "^drop $a\$" 1
        wait_for "^open .*/a_" 1
        wait_shown
        echo "dropped" >> "$LOG"
    fi
    xdotool key --window "$wid" Escape
    wait_for "^shelf 2" 2
    xdotool key --window "$wid" Escape 2>/dev/null   # the window may be gone before the key is up
    i=0; while [ $i -lt 1200 ] && kill -0 $pid 2>/dev/null; do sleep 0.05; i=$((i+1)); done
    kill -0 $pid 2>/dev/null && fail "shelf still running after Esc"
    wait $pid || fail "shelf exited with $?"
' sh "$BIN" "$DEMO" "$GAMEARGS" "$LOG" "$SHOT" "$TMP" "$PRELOAD" "$XDND"
rc=$?
# a failure prints the logs (play's without its frame lines), then its reason last, where a
# reader of a truncated CI log sees it
failed() {
    echo "--- log:"; grep -v "^show" "$LOG"; echo "--- its last frame:"; grep "^show" "$LOG" | tail -1
    [ -f "$LOG.shelf" ] && { echo "--- shelf log:"; grep -v "^show" "$LOG.shelf"; }
    echo "play_xvfb: FAILED: $1"
    exit 1
}
[ $rc -eq 0 ] || failed "$(cat "$TMP/fail.txt" 2>/dev/null || echo "play exited with $rc")"

# Check what was shown, phase by phase (the log is split at the key and marker lines).
awk '
    BEGIN { phase = 0 }
    function fail(m) { print "play_xvfb: FAIL: " m; bad = 1 }
    function val(s) { sub(/^[a-z_0-9]*=/, "", s); return s + 0 }
    /^open / { start = val($3); end = val($4); frames = val($5) }
    /^layout / { x0 = val($2); x1 = val($3) }
    /^click / { cx = $2; phase++; mark["click"] = phase; next }
    /^drag / { dx1 = $3; phase++; mark["drag"] = phase; next }
    /^dragged/ { phase++; next }
    /^fly/ { phase++; mark["fly"] = phase; next }
    /^flown/ { phase++; next }
    /^look/ { phase++; mark["look"] = phase; next }
    /^seek / { lastseek = val($2); seeks[phase] = lastseek; next }
    /^shot / { shots = shots " " $2; next }
    /^key W / { next }   # the key held to fly (not a phase)
    /^key / {
        keys = keys " " $2; phase++
        next
    }
    /^show / {
        t = val($3); f = val($4); sp = val($5); pa = val($6)
        n[phase]++; if (!(phase in first)) first[phase] = t; last[phase] = t
        lastf[phase] = f; speed[phase] = sp; paused[phase] = pa
        split($10, o, "="); split(o[2], org, ","); split($11, a, "="); split(a[2], ang, ",")
        if (!(phase in ox)) { ox[phase] = org[1]; oy[phase] = org[2]; oz[phase] = org[3]; yaw[phase] = ang[2]; pitch[phase] = ang[1] }
        lx[phase] = org[1]; ly[phase] = org[2]; lz[phase] = org[3]; cam[phase] = $8
        lyaw[phase] = ang[2]; lpitch[phase] = ang[1]
    }
    END {
        # phases: 0 playing, 1 Space (paused, timeline shown), 2 Left, 3,4 ".", 5 ",", 6,7 Up Up,
        #         8 Space (x4), 9 Space (paused), 10 click, 11 drag, 12 dragged, 13,14 C C, 15 fly,
        #         16 flown, 17 look, 18 K, 19 F12, 20 p, 21 F1, 22 C, 23 Q
        want = " Space Left . . , Up Up Space Space C C K F12 P F1 C Q"
        if (keys != want) fail("keys seen:" keys " (want" want ")")
        # the first frame is the moment asked for, however long the seek to it took
        if (first[0] != 20) fail("did not start at 20 s: " first[0])
        if (last[0] - first[0] < 0.9) fail("did not play: " first[0] " .. " last[0])
        if (!paused[1] || last[1] != first[1] || n[1] < 2) fail("pause: clock moved " first[1] " .. " last[1] " in " n[1] " frames")
        if (last[2] > last[1] - 4.9 || last[2] < last[1] - 5.1) fail("seek back: " last[1] " -> " last[2])
        if (!(lastf[3] == lastf[2] + 1 || (last[3] > last[2] && lastf[3] == lastf[2]))) fail("step: frame " lastf[2] " -> " lastf[3])
        if (!(last[4] > last[3])) fail("second step did not move: " last[3] " -> " last[4])
        if (!(last[5] < last[4] && lastf[5] < lastf[4])) fail("step back: " last[4] "/" lastf[4] " -> " last[5] "/" lastf[5])
        if (speed[7] != 4) fail("speed after Up Up: " speed[7])
        if (paused[8] || last[8] - first[8] < 3.0) fail("x4 playback: " first[8] " .. " last[8])
        # the click: the time at the clicked coordinate (x maps to the timeline as (x - x0) / (x1 - x0),
        # as SDL maps window to render coordinates), and 75 % of the demo: one pixel of the timeline
        # is (end - start) / (x1 - x0) seconds, so a click is as exact as the nearest pixel
        frame_dt = (end - start) / frames
        p = mark["click"]
        tpx = start + (cx - x0) / (x1 - x0) * (end - start)
        t75 = start + 0.75 * (end - start)
        halfpx = 0.5 / (x1 - x0) * (end - start)
        if (!(p in seeks)) fail("the click did not seek")
        else {
            if (seeks[p] - tpx > frame_dt || tpx - seeks[p] > frame_dt) fail("click: seek to " seeks[p] ", the pixel is at " tpx)
            if (last[p] - seeks[p] > frame_dt || seeks[p] - last[p] > frame_dt) fail("click: shown " last[p] " after a seek to " seeks[p])
            if (last[p] - t75 > frame_dt + halfpx || t75 - last[p] > frame_dt + halfpx) fail("click: shown " last[p] ", 75 % is " t75)
        }
        d = mark["drag"]
        t50 = start + (dx1 - x0) / (x1 - x0) * (end - start)
        if (last[d + 1] - t50 > frame_dt || t50 - last[d + 1] > frame_dt) fail("drag: ended at " last[d + 1] ", the pixel is at " t50)
        # the free camera: the origin moved along the view direction, and only while W was held
        f = mark["fly"]
        if (cam[f] != "cam=free") fail("camera after C C: " cam[f])
        pr = pitch[f] * 3.14159265 / 180; yr = yaw[f] * 3.14159265 / 180
        ddx = lx[f] - ox[f]; ddy = ly[f] - oy[f]; ddz = lz[f] - oz[f]
        len = sqrt(ddx * ddx + ddy * ddy + ddz * ddz)
        dot = len > 0 ? (ddx * cos(pr) * cos(yr) + ddy * cos(pr) * sin(yr) - ddz * sin(pr)) / len : 0
        if (len < 150 || dot < 0.999) fail("free camera: moved " len " units, along the view " dot)
        for (q = f + 3; q <= f + 6; q++)
            if (!(q in n) || lx[q] != lx[f + 2] || ly[q] != ly[f + 2] || lz[q] != lz[f + 2])
                fail("free camera moved after W was released: phase " q " at " lx[q] "," ly[q] "," lz[q])
        # mouse look: 100 counts to the right at 0.066 degrees a count turn the yaw 6.6 degrees down
        lk = mark["look"]
        turn = lyaw[f] - lyaw[lk]
        while (turn > 180) turn -= 360
        while (turn < -180) turn += 360
        if (turn < 3 || turn > 15 || lpitch[lk] != lpitch[f]) fail("mouse look: yaw " lyaw[f] " -> " lyaw[lk] ", pitch " lpitch[f] " -> " lpitch[lk])
        if (split(shots, sh, " ") != 2 || sh[1] !~ /_0001\.png$/ || sh[2] !~ /_t[0-9.]+\.png$/) fail("screenshots:" shots)
        if (!bad) printf "play_xvfb: ok: start %.2f, paused at %.2f, seek to %.2f, steps %.3f %.3f back %.3f, x4 ran %.2f s; click at 75%% (%.3f s) showed %.3f (server frame %.4f s, pixel %.3f s); drag to %.3f; free camera flew %.0f units along the view (cos %.5f), mouse turned it %.2f degrees\n", first[0], last[1], last[2], last[3], last[4], last[5], last[8] - first[8], t75, last[p], frame_dt, 2 * halfpx, last[d + 1], len, dot, turn
        exit bad
    }
' "$LOG" > "$TMP/check.txt" || { cat "$TMP/check.txt"; failed "$(grep FAIL "$TMP/check.txt")"; }
cat "$TMP/check.txt"
for f in $(sed -n "s/^shot //p" "$LOG"); do
    size=$(identify -format "%m %wx%h" "$f" 2>/dev/null)
    [ "$size" = "PNG 320x240" ] || { echo "play_xvfb: FAIL: $f is '$size', not a 320x240 PNG"; exit 1; }
done
lines=$(grep -vc "^#" "$TMP/path.txt" 2>/dev/null || echo 0)
[ "$lines" = 1 ] || { echo "play_xvfb: FAIL: --camera-save wrote $lines keyframes, not 1"; cat "$TMP/path.txt"; exit 1; }
grep -q "^shelf-read 2" "$LOG.shelf" && [ "$(grep -c "^shelf 2" "$LOG.shelf")" = 2 ] ||
    { echo "play_xvfb: FAIL: shelf"; cat "$LOG.shelf"; exit 1; }
if [ -n "$XDND" ]; then
    grep -q "^dropped" "$LOG.shelf" && [ "$(grep -c "^open " "$LOG.shelf")" = 2 ] ||
        { echo "play_xvfb: FAIL: the dropped demo did not play"; cat "$LOG.shelf"; exit 1; }
    echo "play_xvfb: ok: a demo dropped on the window (XDND) played"
fi
echo "play_xvfb: ok: F12 and p wrote 320x240 PNGs, K saved 1 keyframe, the shelf read 2 demos, played one and came back"
[ -s "$SHOT" ] || { echo "play_xvfb: no screenshot"; exit 1; }
echo "play_xvfb: screenshot $SHOT"
