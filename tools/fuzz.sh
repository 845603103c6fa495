#!/bin/sh
# fuzz.sh -- `make fuzz`: build a libFuzzer harness per decoder and asset loader, run each for
# FUZZ_SECONDS (default 60), report executions and findings. Seeds come from the real data and
# the built-in content; findings (crash-*, timeout-*, oom-*) are left in build/fuzz/<name>/.
# FUZZ_ONLY="bsp wad" runs only the named targets.
set -u
SECONDS_EACH=${FUZZ_SECONDS:-60}
DATA=${DEMOPLAY_DATA:-../shared/data}
# absolute, and exported: harnesses run in build/fuzz/<name>/ and may read the data (fuzz_effects' level)
[ -d "$DATA" ] && DATA=$(cd "$DATA" && pwd)
export DEMOPLAY_DATA="$DATA"
CFLAGS="-std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I. $(pkg-config --cflags sdl2 openal stb)"
LIBS="$(pkg-config --libs sdl2 openal zlib libpng stb) -pthread -lm"
LIB_SRC=$(ls engine/*.c formats/*.c assets/*.c render/*.c audio/*.c 2>/dev/null | grep -v engine/main.c)
mkdir -p build/fuzz

# name | harness | -D define | seed glob (under $DATA) | max input bytes (optional, default 16384)
TARGETS=$(cat <<'T'
quake|tests/fuzz/fuzz_demo.c|-DFUZZ_DECODER=q1_decoder|quake/demos/*.dem quake/id1/demos/*.dem
quake2|tests/fuzz/fuzz_demo.c|-DFUZZ_DECODER=q2_decoder|quake2/demos/*.dm2
goldsrc|tests/fuzz/fuzz_demo.c|-DFUZZ_DECODER=hl_decoder|goldsrc/demos/*.dem goldsrc/demos/invalid/*.dem
forsaken|tests/fuzz/fuzz_demo.c|-DFUZZ_DECODER=fs_decoder|
q2fx|tests/fuzz/fuzz_effects.c|-DFUZZ_DECODER=q2_decoder|quake2/demos/q2dm1_short.dm2 quake2/demos/q2test_demo1_p25.dm2
q1fx|tests/fuzz/fuzz_effects.c|-DFUZZ_DECODER=q1_decoder|quake/demos/dosquake101_e4m2.dem
hlfx|tests/fuzz/fuzz_effects.c|-DFUZZ_DECODER=hl_decoder|goldsrc/demos/*.dem|65536
T
)
[ -f tests/fuzz/targets.txt ] && TARGETS="$TARGETS
$(grep -v '^#' tests/fuzz/targets.txt)"

# --syntax: every harness compiled (not linked, not run) with -Wall -Wextra -Werror, so a harness
# that no longer matches the code it calls fails `make check-warnings` instead of fuzzing garbage
if [ "${1:-}" = "--syntax" ]; then
    fail=0
    for line in $(echo "$TARGETS" | cut -d'|' -f1-3 | tr ' ' '#'); do
        harness=$(echo "$line" | cut -d'|' -f2); define=$(echo "$line" | cut -d'|' -f3 | tr '#' ' ')
        [ -z "$harness" ] && continue
        sym=$(echo "$define" | sed -n 's/.*=\(.*\)/\1/p')
        if [ -n "$sym" ] && ! grep -q "$sym" $LIB_SRC 2>/dev/null; then continue; fi
        clang -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -I. $(pkg-config --cflags sdl2 openal stb) \
            -fsyntax-only -Wall -Wextra -Werror $define "$harness" || { echo "fuzz harness $harness ($define): warnings"; fail=1; }
    done
    [ "$fail" = 0 ] && echo "fuzz harnesses: every one compiles without warnings (clang)"
    exit "$fail"
fi

start=$(date +%s)
echo "$TARGETS" | while IFS='|' read -r name harness define seeds maxlen; do
    [ -z "$name" ] && continue
    maxlen=${maxlen:-16384}
    if [ -n "${FUZZ_ONLY:-}" ] && ! echo " $FUZZ_ONLY " | grep -q " $name "; then continue; fi
    # skip decoders/loaders that are not in this build yet
    sym=$(echo "$define" | sed -n 's/.*=\(.*\)/\1/p')
    if [ -n "$sym" ] && ! grep -q "$sym" $LIB_SRC 2>/dev/null; then echo "fuzz $name: not built (no $sym)"; continue; fi
    out=build/fuzz/$name; mkdir -p "$out/corpus"
    # findings of earlier runs move aside, so the count below is this run's
    if ls "$out" | grep -qE '^(crash|timeout|oom|leak)-'; then
        mkdir -p "$out/previous" && (cd "$out" && mv crash-* timeout-* oom-* leak-* previous/ 2>/dev/null)
    fi
    for g in $seeds; do for f in $DATA/$g; do [ -f "$f" ] && head -c "$maxlen" "$f" > "$out/corpus/$(basename "$f")"; done; done
    for f in tests/corpus/$name/*; do [ -f "$f" ] && cp "$f" "$out/corpus/"; done
    # the built-in content (make builtin): the same globs under its game folder
    for g in $seeds; do for f in build/builtin/${g#quake/}; do
        [ -f "$f" ] && head -c "$maxlen" "$f" > "$out/corpus/builtin_$(basename "$f")"; done; done
    if ! clang $CFLAGS $define -o "$out/fuzz" "$harness" $LIB_SRC $LIBS 2>"$out/build.log"; then
        echo "fuzz $name: BUILD FAILED (see $out/build.log)"; continue
    fi
    (cd "$out" && ./fuzz -max_total_time="$SECONDS_EACH" -max_len="$maxlen" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 corpus > run.log 2>&1)
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/run.log" | grep -o '[0-9]*$')
    found=$(ls "$out" | grep -cE '^(crash|timeout|oom|leak)-')
    echo "fuzz $name: ${execs:-?} executions in ${SECONDS_EACH}s, $found findings"
    [ "$found" -gt 0 ] && ls "$out" | grep -E '^(crash|timeout|oom|leak)-' | sed "s|^|    $out/|"
done
echo "fuzz: done in $(( $(date +%s) - start ))s"
