#!/bin/sh
# run.sh -- what `make run` does: play the built-in demo (until the built-in content lands: usage)
exec ./demoplay --help
