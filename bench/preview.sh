#!/usr/bin/env bash
# `export --preview` (one page, its PNG at 96 dpi and the small PDF) of every sample, with a release
# build, timed by hyperfine: what an app's paywall asks of bookrender on each request.
# Usage: bench/preview.sh [RUNS]   (hyperfine from Debian's package)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
. scripts/release-flags.sh
# shellcheck disable=SC2086
swift build -c release $RELEASE_SWIFT_FLAGS --product bookrender >&2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for sample in storybook/book.json memoir/book.json apps/memoirai/storybook.json apps/roger/story.json apps/infinitestories/story.json; do
    hyperfine --style basic --warmup 3 --runs "$runs" -N --command-name "$sample" \
        ".build/release/bookrender export samples/$sample --preview -o $out/preview.pdf --png $out/preview -q"
done
