#!/bin/sh
# bench.sh -- `make bench`: decode speed per format, timedemo fps, peak memory
DATA=${DEMOPLAY_DATA:-../shared/data}
if [ ! -d "$DATA" ]; then echo "bench: SKIPPED, no test data at $DATA"; exit 0; fi
echo "== decode speed (in memory, whole files, repeated >= 0.2 s each)"
./build/rel/bench_decode $(find "$DATA" -path '*/demos/*' -type f | sort)
