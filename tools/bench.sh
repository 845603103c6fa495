#!/bin/sh
# bench.sh -- `make bench`: decode speed (MB/s) over the real demos; timedemo fps when the renderer lands
DATA=${DEMOPLAY_DATA:-../shared/data}
if [ ! -d "$DATA" ]; then echo "bench: SKIPPED, no test data at $DATA"; exit 0; fi
./demoplay info --quiet "$DATA"/quake/demos/*.dem >/dev/null 2>&1  # warm the file cache
start=$(date +%s.%N)
bytes=0
for f in "$DATA"/quake/demos/*.dem; do
    ./demoplay info --json --quiet "$f" >/dev/null 2>&1
    bytes=$((bytes + $(stat -c %s "$f")))
done
end=$(date +%s.%N)
echo "decode quake: $bytes bytes in $(echo "$end - $start" | bc) s (includes process start-up per file)"
