#!/bin/bash
# Contact sheets of every theme for docs/themes.md: the storybook and the memoir sample set in each
# theme of templates/ (export --theme), their first pages at 30 dpi, laid out with ImageMagick's
# montage. Usage: scripts/theme-sheets.sh [OUT_DIR] (default docs/themes).
set -euo pipefail
default_out=docs/themes
# shellcheck source=contact-sheet.sh
source "$(dirname "$0")/contact-sheet.sh"
for theme in $("$bin" themes --json | python3 -c 'import json, sys; print(" ".join(t["name"] for t in json.load(sys.stdin)["themes"]))'); do
  for sample in storybook memoir; do
    sheet "$theme-$sample" "$root/samples/$sample/book.json" --theme "$theme" --pages 1-8
  done
done
echo "theme sheets in $out"
