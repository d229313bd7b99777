#!/bin/bash
# Contact sheets of every theme for docs/themes.md: the storybook and the memoir sample set in each
# theme of templates/ (export --theme), their first pages at 30 dpi, laid out with ImageMagick's
# montage. Usage: scripts/theme-sheets.sh [OUT_DIR] (default docs/themes).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/themes}
bin=$root/.build/debug/bookrender
[ -x "$bin" ] || (cd "$root" && swift build --product bookrender >/dev/null)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
for theme in $("$bin" themes --json | python3 -c 'import json, sys; print(" ".join(t["name"] for t in json.load(sys.stdin)["themes"]))'); do
  for sample in storybook memoir; do
    name=$theme-$sample
    "$bin" export "$root/samples/$sample/book.json" --theme "$theme" --png "$work/$name" --pages 1-8 --dpi 30 --force -q
    montage -label '%t' "$work/$name"/*.png -tile 8x -geometry +4+4 -pointsize 10 -background '#d8d8d8' \
      -quality 80 "$out/$name.jpg"
  done
done
echo "theme sheets in $out"
