#!/bin/sh
# One command: build bookrender (release), make the corpus, install WeasyPrint and Typst into
# bench/.venv, render everything and print the table (also saved to bench/.work/table.md).
# BENCH_RUNS=N sets the runs per measurement (median; default 3). BOOKRENDER_BIN skips the build.
set -eu
cd "$(dirname "$0")/.."
# What bookrender builds with, and what the benchmark itself runs: GNU time for peak memory, a venv,
# and the book whose paragraphs are the corpus's text (see bench/prose.py).
scripts/install-deps.sh time python3-venv debian-handbook debian-reference-en
if [ -z "${BOOKRENDER_BIN:-}" ]; then
    # As scripts/render-samples.sh builds it: the Swift runtime and Foundation linked in.
    . scripts/release-flags.sh
    # shellcheck disable=SC2086
    swift build -c release --static-swift-stdlib $RELEASE_SWIFT_FLAGS --scratch-path .build-bench --product bookrender >&2
    BOOKRENDER_BIN="$PWD/.build-bench/release/bookrender"
fi
export BOOKRENDER_BIN
if [ ! -x bench/.venv/bin/weasyprint ] || ! bench/.venv/bin/python -c "import typst" 2>/dev/null; then
    python3 -m venv bench/.venv
    bench/.venv/bin/pip install --quiet weasyprint typst >&2
fi
python3 bench/corpus.py >&2
bench/.venv/bin/python bench/bench.py
{
    echo
    echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
} | tee -a bench/.work/table.md
