#!/bin/sh
# pentium_compare.sh -- shots of ./demoplay (64-bit) and build/pentium/demoplay (make pentium)
# at ten times of a demo of each game; prints the pixels that differ (of 64000, 320x200).
# Needs both builds and ImageMagick's compare. docs/pentium.md has the figures.
DATA=${DEMOPLAY_DATA:-../shared/data}
P=build/pentium/demoplay
for b in ./demoplay $P; do [ -x $b ] || { echo "pentium_compare: $b is missing (make demoplay; make pentium)" >&2; exit 1; }; done
command -v compare >/dev/null || { echo "pentium_compare: needs ImageMagick's compare" >&2; exit 1; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
total=0 shots=0 worst=0
run() {   # run LABEL "BASEARGS" DEMO TIME...
    label=$1; base=$2; demo=$3; shift 3
    [ -f "$demo" ] || { echo "$label: SKIPPED ($demo not found)"; return; }
    line=""
    for t in "$@"; do
        ./demoplay shot -q $base "$demo" --at $t -o "$tmp/a.png" 2>/dev/null &&
            $P shot -q $base "$demo" --at $t -o "$tmp/b.png" 2>/dev/null || { line="$line $t:FAILED"; continue; }
        n=$(compare -metric AE "$tmp/a.png" "$tmp/b.png" null: 2>&1)
        line="$line $t:$n"
        total=$((total + n)); shots=$((shots + 1)); [ "$n" -gt "$worst" ] && worst=$n
    done
    echo "$label$line"
}
run qfm_e1m3 "--basedir $DATA/quake --game qfm" "$DATA/quake/demos/qfm_e1m3.dem" 5 15 25 35 45 55 65 75 85 95
run koldduel1 "--basedir $DATA/quake2" "$DATA/quake2/demos/opentdm_koldduel1.dm2" 10 30 50 70 90 110 130 150 168.2 190
run q2demo1 "--basedir $DATA/quake2" "$DATA/quake2/demos/q2demo1_p31.dm2" 5 15 25 35 45 55 65 75 85 95
run c1a0 "--basedir $DATA/goldsrc" "$DATA/goldsrc/demos/valve_c1a0.dem" 2 6 10 14 18 22 26 30 34 38
run crossfire "--basedir $DATA/goldsrc" "$DATA/goldsrc/demos/cstrike_crossfire.dem" 2 6 10 14 18 22 26 30 34 38
run forsaken "--basedir $DATA/forsaken" tests/data/forsaken_sample.dmo 1 2 3 4 5 6 7 8 9 10
run builtin "--basedir build/builtin" build/builtin/id1/demos/builtin.dem 3 6 9 12 15 18 21 24 27 30
echo "pentium_compare: $shots shots, $total pixels differ in all, at most $worst in one (of 64000)"
