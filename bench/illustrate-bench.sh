#!/bin/sh
# Benchmark for `bookrender illustrate`: a generated 24-page book against the loopback provider
# server adding 2 s per call; prints time to the cover and total time at concurrency 1 and 4.
# Builds the binary first unless BOOKRENDER_BIN names one.
set -e
cd "$(dirname "$0")/.."
if [ -z "$BOOKRENDER_BIN" ]; then
    swift build --scratch-path .build-illustrate --product bookrender >/dev/null
    BOOKRENDER_BIN=.build-illustrate/debug/bookrender
fi
export BOOKRENDER_BIN
exec python3 bench/illustrate-bench.py "$@"
