#!/bin/bash
# Contact sheets of what the page design does, for docs/design.md: the samples and the books
# scripts/design-books.py writes, rendered by the bookrender built here and laid out with
# ImageMagick's montage. Usage: scripts/design-sheets.sh [OUT_DIR] (default docs/design).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/design}
bin=$root/.build/debug/bookrender
[ -x "$bin" ] || (cd "$root" && swift build --product bookrender >/dev/null)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
python3 "$root/scripts/design-books.py" "$root/samples" "$work/books"

# sheet NAME BOOK [export options]: every page at 30 dpi, eight to a row, each labelled with its number.
sheet() {
  local name=$1 book=$2; shift 2
  rm -rf "$work/$name"
  "$bin" export "$book" -o "$work/$name.pdf" --png "$work/$name" --dpi 30 --force "$@" >/dev/null
  montage -label '%t' "$work/$name"/*.png -tile 8x -geometry +4+4 -pointsize 10 -background '#d8d8d8' \
    -quality 80 "$out/$name.jpg"
}
sheet picture-book "$root/samples/storybook/book.json"
sheet memoir-print "$root/samples/memoir/book.json" --profile kdp
sheet memoir-long "$work/books/memoir-long/book.json" --profile kdp
sheet arabic "$work/books/arabic/book.json" --profile kdp
sheet japanese "$work/books/japanese/book.json"
echo "contact sheets in $out"
