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
    printf 'timedemo %-22s %-9s %s, %s\n' "$label" "$size" "$(echo "$out" | head -1 | tr -s ' ')" \
        "$(echo "$out" | sed -n 's/^peak memory: /peak /p')"
}

echo "== decode speed (in memory, whole files, repeated >= 0.2 s each)"
if [ -d "$DATA" ]; then
    ./build/rel/bench_decode $(find "$DATA" -path '*/demos/*' -type f | sort) tests/data/forsaken_sample.dmo $B/id1/demos/builtin.dem
else
    echo "bench: SKIPPED the real demos: no test data at $DATA"
    ./build/rel/bench_decode tests/data/forsaken_sample.dmo $B/id1/demos/builtin.dem
fi

echo "== seek (100 seeks to random times, each restored, replayed and drawn at 320x200; target p99 < 50 ms)"
if [ -d "$DATA" ]; then
    ./build/rel/bench_seek "$DATA/quake/demos/qfm_e1m3.dem@$DATA/quake@qfm" "$DATA/quake/demos/lq_demo1.dem@$DATA/quake" \
        "$DATA/quake2/demos/opentdm_koldduel1.dm2@$DATA/quake2" "$DATA/quake2/demos/q2demo1_p31.dm2@$DATA/quake2" \
        "$DATA/goldsrc/demos/valve_c1a0.dem@$DATA/goldsrc" "$DATA/goldsrc/demos/cstrike_crossfire.dem@$DATA/goldsrc" \
        "tests/data/forsaken_sample.dmo@$DATA/forsaken" "$B/id1/demos/builtin.dem@$B" 2>/dev/null
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
else
    echo "bench: SKIPPED the real demos: no test data at $DATA"
fi
