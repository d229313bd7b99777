#!/bin/sh
# Do bookrender's print files pass each printer's rules (kdp, lulu, ingramspark)? Makes the sample books'
# and three generated books' interiors and covers, checks them with bookrender's preflight and on their
# own (Ghostscript's CMYK separations, qpdf, pdfimages), and prints one table (also saved to
# bench/.work/print-check/table.md); exits non-zero when a row fails. BOOKRENDER_BIN skips the build;
# arguments go to bench/print-check.py (--books, --printers, --jobs, --dpi).
set -eu
cd "$(dirname "$0")/.."
# GNU time and a venv as bench/run.sh; the prose of the generated books (bench/prose.py); the checkers.
scripts/install-deps.sh time python3-venv debian-handbook ghostscript qpdf poppler-utils imagemagick
if [ -z "${BOOKRENDER_BIN:-}" ]; then
    # As bench/run.sh builds it.
    . scripts/release-flags.sh
    # shellcheck disable=SC2086
    swift build -c release --static-swift-stdlib $RELEASE_SWIFT_FLAGS --scratch-path .build-bench --product bookrender >&2
    BOOKRENDER_BIN="$PWD/.build-bench/release/bookrender"
fi
export BOOKRENDER_BIN
if ! bench/.venv/bin/python -c "import numpy" 2>/dev/null; then
    [ -x bench/.venv/bin/python ] || python3 -m venv bench/.venv
    bench/.venv/bin/pip install --quiet numpy >&2
fi
mkdir -p bench/.work/print-check
exec bench/.venv/bin/python bench/print-check.py "$@"
