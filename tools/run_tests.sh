#!/bin/sh
# run_tests.sh VARIANT DEMOPLAY_BIN TEST... -- run each test binary, summarise, fail if any failed
variant=$1; bin=$2; shift 2
export DEMOPLAY_BIN="$bin"
fail=0; n=0
for t in "$@"; do
    n=$((n+1))
    if ! "$t"; then
        echo "FAILED ($variant): $t" >&2
        fail=$((fail+1))
    fi
done
echo "== $variant: $n test programs, $fail failed"
[ $fail -eq 0 ]
