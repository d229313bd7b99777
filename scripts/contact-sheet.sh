# Sourced by the contact-sheet scripts (design-sheets.sh, theme-sheets.sh) after they set
# `default_out`: the output folder (the script's first argument, else `default_out`), the
# bookrender built here, a scratch folder removed on exit, and `sheet`.
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/$default_out}
bin=$root/.build/debug/bookrender
[ -x "$bin" ] || (cd "$root" && swift build --product bookrender >/dev/null)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# sheet NAME BOOK [export options]: its pages at 30 dpi, eight to a row, each labelled with its
# number, as $out/NAME.jpg.
sheet() {
  local name=$1 book=$2; shift 2
  rm -rf "$work/$name"
  "$bin" export "$book" -o "$work/$name.pdf" --png "$work/$name" --dpi 30 --force -q "$@" >/dev/null
  montage -label '%t' "$work/$name"/*.png -tile 8x -geometry +4+4 -pointsize 10 -background '#d8d8d8' \
    -quality 80 "$out/$name.jpg"
}
