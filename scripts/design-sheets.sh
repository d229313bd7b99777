#!/bin/bash
# Contact sheets of what the page design does, for docs/design.md: the samples and the books
# scripts/design-books.py writes, rendered by the bookrender built here and laid out with
# ImageMagick's montage. Usage: scripts/design-sheets.sh [OUT_DIR] (default docs/design).
set -euo pipefail
default_out=docs/design
# shellcheck source=contact-sheet.sh
source "$(dirname "$0")/contact-sheet.sh"
python3 "$root/scripts/design-books.py" "$root/samples" "$work/books"

sheet picture-book "$root/samples/storybook/book.json"
sheet memoir-print "$root/samples/memoir/book.json" --profile kdp
sheet memoir-long "$work/books/memoir-long/book.json" --profile kdp
sheet arabic "$work/books/arabic/book.json" --profile kdp
sheet japanese "$work/books/japanese/book.json"
echo "contact sheets in $out"
