#!/bin/sh
# run_tests.sh VARIANT DEMOPLAY_BIN TEST... -- run each test binary, summarise, fail if any failed
variant=$1; bin=$2; shift 2
export DEMOPLAY_BIN="$bin"
fail=0; n=0
for t in "$@"; do
    n=$((n+1))
    # a test's files go to /tmp/demoplay_test_PID (tests/testutil.c tu_tmpdir): kept when it fails
    "$t" &
    pid=$!
    if wait $pid; then
        rm -rf "/tmp/demoplay_test_$pid"
    else
        echo "FAILED ($variant): $t (its files, if any: /tmp/demoplay_test_$pid)" >&2
        fail=$((fail+1))
    fi
done
echo "== $variant: $n test programs, $fail failed"
[ $fail -eq 0 ]
