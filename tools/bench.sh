#!/bin/sh
# bench.sh -- `make bench`: decode speed per format, seek times, timedemo fps (Quake's own line) and peak memory
#
# Timedemo: every server frame drawn once, headless, no sound, as TARGETS.md
# measures the old engines (qfm_e1m3 at 320x200 .. 1920x1080, qfm_e1m4 at 320x200
# and 1920x1080; Quake II's q2demo1 at 320x240 .. 1920x1080 against ref_soft's figures;
# GoldSrc's two demos). The machines are noisy: compare figures from one run.
DATA=${DEMOPLAY_DATA:-../shared/data}
B=build/builtin
td() {   # td LABEL SIZE ARGS...: one timedemo line with its peak memory
    label=$1; size=$2; shift 2
    out=$(./demoplay timedemo --size "$size" "$@" 2>/dev/null) || { echo "timedemo $label $size: FAILED"; return; }
    printf 'timedemo %-28s %-9s %s, %s\n' "$label" "$size" "$(echo "$out" | head -1 | tr -s ' ')" \
        "$(echo "$out" | sed -n 's/^peak memory: /peak /p')"
}

echo "== decode speed (in memory, whole files, repeated >= 0.2 s each)"
if [ -d "$DATA" ]; then
    ./build/rel/bench_decode $(find "$DATA" -path '*/demos/*' -type f | sort) tests/data/forsaken_sample.dmo $B/id1/demos/builtin.dem
else
    echo "bench: SKIPPED the real demos: no test data at $DATA"
    ./build/rel/bench_decode tests/data/forsaken_sample.dmo $B/id1/demos/builtin.dem
fi

echo "== seek (100 seeks to random times of every shared demo, each restored, replayed and drawn at 320x200; target p99 < 50 ms)"
if [ -d "$DATA" ]; then
    set --
    for f in $(find "$DATA" -path '*/demos/*' -type f ! -path '*/invalid/*' | sort); do
        case $f in
            */quake/demos/qfm_*) set -- "$@" "$f@$DATA/quake@qfm" ;;
            */quake/demos/*) set -- "$@" "$f@$DATA/quake" ;;
            */quake2/demos/*) set -- "$@" "$f@$DATA/quake2" ;;
            */goldsrc/demos/*) set -- "$@" "$f@$DATA/goldsrc" ;;
        esac
    done
    ./build/rel/bench_seek "$@" "tests/data/forsaken_sample.dmo@$DATA/forsaken" "$B/id1/demos/builtin.dem@$B" 2>/dev/null
else
    ./build/rel/bench_seek "tests/data/forsaken_sample.dmo" "$B/id1/demos/builtin.dem@$B" 2>/dev/null
fi

echo "== timedemo (every server frame drawn once, headless, no sound)"
td builtin 320x200 --basedir $B $B/id1/demos/builtin.dem
td builtin 1920x1080 --basedir $B $B/id1/demos/builtin.dem
if [ -d "$DATA" ]; then
    Q="--basedir $DATA/quake --game qfm"
    for s in 320x200 640x480 1280x720 1920x1080; do
        td qfm_e1m3 $s $Q "$DATA/quake/demos/qfm_e1m3.dem"
    done
    for s in 320x200 1920x1080; do
        td qfm_e1m4 $s $Q "$DATA/quake/demos/qfm_e1m4.dem"
    done
    # Quake II (TARGETS.md: Yamagi's ref_soft at 320x240 .. 1920x1080) and GoldSrc
    for s in 320x240 640x480 1280x720 1920x1080; do
        td q2demo1_p31 $s --basedir "$DATA/quake2" "$DATA/quake2/demos/q2demo1_p31.dm2"
    done
    td opentdm_koldduel1 320x240 --basedir "$DATA/quake2" "$DATA/quake2/demos/opentdm_koldduel1.dm2"
    for s in 320x200 1920x1080; do
        td valve_c1a0 $s --basedir "$DATA/goldsrc" "$DATA/goldsrc/demos/valve_c1a0.dem"
        td cstrike_crossfire $s --basedir "$DATA/goldsrc" "$DATA/goldsrc/demos/cstrike_crossfire.dem"
    done
    # Forsaken: the sample (tests/data, 106 frames: a short run, noisy) on the shared level data
    for s in 320x200 1920x1080; do
        td forsaken_sample $s --basedir "$DATA/forsaken" tests/data/forsaken_sample.dmo
    done
    # both cores (issue 17: two threads >= 1.8x one at 1920x1080); compare with the one-thread rows above
    td "qfm_e1m3 --threads 2" 1920x1080 $Q --threads 2 "$DATA/quake/demos/qfm_e1m3.dem"
    td "q2demo1_p31 --threads 2" 1920x1080 --basedir "$DATA/quake2" --threads 2 "$DATA/quake2/demos/q2demo1_p31.dm2"
    td "valve_c1a0 --threads 2" 1920x1080 --basedir "$DATA/goldsrc" --threads 2 "$DATA/goldsrc/demos/valve_c1a0.dem"
else
    echo "bench: SKIPPED the real demos: no test data at $DATA"
fi

# The Pentium-class build (make pentium: 32-bit, x87, no MMX/SSE) next to the 64-bit one:
# callgrind instructions of the whole timedemo run divided by its frames (as TARGETS.md's
# 3.68 M), at 320x200. BENCH_CALLGRIND=0 skips it (two runs under callgrind take minutes).
ipf() {   # ipf BIN ARGS...: "N M instructions a frame (T M in F frames)"
    bin=$1; shift
    out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" timedemo --size 320x200 "$@" 2>&1) ||
        { echo "FAILED"; return; }
    ir=$(echo "$out" | sed -n 's/.*Collected : *//p' | tail -1)
    fr=$(echo "$out" | sed -n 's/^\([0-9][0-9]*\) frames .*/\1/p' | head -1)
    [ -n "$ir" ] && [ -n "$fr" ] && [ "$fr" -gt 0 ] || { echo "FAILED (no count)"; return; }
    awk -v ir="$ir" -v fr="$fr" 'BEGIN { printf "%.2f M instructions a frame (%.1f M in %d frames)\n", ir / fr / 1e6, ir / 1e6, fr }'
}
if [ "${BENCH_CALLGRIND:-1}" != 0 ]; then
    echo "== instructions per frame, 64-bit and Pentium (32-bit, x87) builds (callgrind, 320x200, whole run / frames)"
    if ! command -v valgrind >/dev/null; then
        echo "bench: SKIPPED: no valgrind"
    elif ! ${MAKE:-make} --no-print-directory build/pentium/demoplay >/dev/null 2>&1; then
        echo "bench: SKIPPED the Pentium build: it does not build (tools/deps.sh pentium installs what it needs)"
    else
        if [ -d "$DATA" ]; then
            set -- qfm_e1m3 --basedir "$DATA/quake" --game qfm "$DATA/quake/demos/qfm_e1m3.dem"
        else
            echo "bench: no test data at $DATA: the built-in demo instead of qfm_e1m3"
            set -- builtin --basedir $B $B/id1/demos/builtin.dem
        fi
        label=$1; shift
        printf 'callgrind %-10s 64-bit   %s\n' "$label" "$(ipf ./demoplay "$@")"
        printf 'callgrind %-10s pentium  %s\n' "$label" "$(ipf build/pentium/demoplay "$@")"
    fi
fi
