#!/bin/sh
# Paragraph quality of bookrender's memoirs next to Typst's setting of the same text on the same
# measure, in one run: the sample memoir and the benchmark memoir (real prose, bench/corpus.py).
# Prints one table per book (also saved to bench/.work/typeset-quality.md). BOOKRENDER_BIN skips the build.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh python3-venv debian-handbook
if [ -z "${BOOKRENDER_BIN:-}" ]; then
    . scripts/release-flags.sh
    # shellcheck disable=SC2086
    swift build -c release --static-swift-stdlib $RELEASE_SWIFT_FLAGS --scratch-path .build-bench --product bookrender >&2
    BOOKRENDER_BIN="$PWD/.build-bench/release/bookrender"
fi
if ! bench/.venv/bin/python -c "import typst, pdfminer" 2>/dev/null; then
    python3 -m venv bench/.venv
    bench/.venv/bin/pip install --quiet weasyprint typst pdfminer.six >&2
fi
python3 bench/corpus.py >&2
out=bench/.work/quality
mkdir -p "$out"
: > bench/.work/typeset-quality.md
for book in samples/memoir/book.json bench/.work/corpus/memoir/book.json; do
    name=$(basename "$(dirname "$book")")
    [ "$book" = samples/memoir/book.json ] && name=sample-memoir
    "$BOOKRENDER_BIN" export "$book" -o "$out/$name.pdf" 2>/dev/null
    echo "## $name" | tee -a bench/.work/typeset-quality.md
    bench/.venv/bin/python bench/typeset-quality.py "$out/$name.pdf" --typst "$book" | tee -a bench/.work/typeset-quality.md
done
echo "typst-py $(bench/.venv/bin/python -c 'import importlib.metadata as m; print(m.version("typst"))')" | tee -a bench/.work/typeset-quality.md
