#!/usr/bin/env bash
# Regenerates every image of the golden cases (Tests/Goldens/<feature>/<case>/images/) from shapes
# drawn with ImageMagick 6.9 (`convert`), then rewrites the app-format files that embed some of them.
#
#   Tests/Goldens/make-images.sh
#
# Every picture is tiny (at most 300 x 400 px, or 400 x 267 for a spread), JPEGs at quality 70,
# so that the whole suite with its reference renders stays small. Deterministic: flat shapes and
# gradients only, one thread, metadata that carries dates stripped. The same ImageMagick and libjpeg
# versions give byte-identical files.
#
# Needs: bash, convert, identify (Debian `imagemagick`), python3 (for app-formats/make.py).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

export MAGICK_THREAD_LIMIT=1
STRIP=(-strip +set date:create +set date:modify +set date:timestamp)
PNGSTRIP=(-define png:exclude-chunks=date,time)

# jpeg IN OUT [options…] -> baseline JPEG, quality 70, 4:2:0, no metadata
jpeg() {
  local in=$1 out=$2; shift 2
  mkdir -p "$(dirname "$out")"
  convert "$in" "${STRIP[@]}" -sampling-factor 2x2 -quality 70 "$@" "$out"
}

# place SOURCE DEST…: copies one generated file into several case folders (each case is self-contained:
# a book may not reach outside its own folder)
place() {
  local src=$1; shift
  local d
  for d in "$@"; do mkdir -p "$(dirname "$HERE/$d")"; cp "$src" "$HERE/$d"; done
}

# exif_orientation FILE VALUE -> inserts a minimal EXIF APP1 segment (IFD0: Orientation) after SOI
exif_orientation() {
  local f=$1 v=$2
  {
    head -c 2 "$f"
    # FFE1, length 34, "Exif\0\0", big-endian TIFF header, 1 entry: 0x0112 SHORT x1 = v, no next IFD
    printf '\xff\xe1\x00\x22Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01'
    printf "\\x00\\x$(printf '%02x' "$v")\\x00\\x00\\x00\\x00\\x00\\x00"
    tail -c +3 "$f"
  } >"$f.tmp"
  mv "$f.tmp" "$f"
}

# ---------------------------------------------------------------- the drawings (all at final size)

# A fox on a green hill under a morning sun: the picture-book picture (300 x 400, portrait).
convert -size 300x400 gradient:'#9FD3EE-#FFF1CF' \
  -fill '#FFC94D' -draw "circle 225,70 225,105" \
  -fill '#FFFFFF' -draw "ellipse 80,80 40,16 0,360" -draw "ellipse 105,70 30,18 0,360" \
  -fill '#8CC084' -draw "path 'M 0,250 Q 150,200 300,250 L 300,400 L 0,400 Z'" \
  -fill '#6FAE62' -draw "path 'M 0,320 Q 160,280 300,330 L 300,400 L 0,400 Z'" \
  -fill '#E8772E' -draw "ellipse 170,300 55,40 0,360" -draw "ellipse 230,310 30,14 0,360" \
  -draw "circle 125,245 125,280" \
  -draw "polygon 100,230 95,190 120,215" -draw "polygon 150,230 155,190 130,215" \
  -fill '#FFF4E0' -draw "ellipse 125,262 20,14 0,360" -draw "circle 258,310 258,318" \
  -fill '#2B2118' -draw "circle 113,240 113,245" -draw "circle 137,240 137,245" -draw "circle 125,258 125,262" \
  -fill '#5A3A22' -draw "rectangle 135,330 150,350" -draw "rectangle 190,330 205,350" \
  "$WORK/hill.png"

# The same hill at night with the moon (a second, darker illustration).
convert -size 300x400 gradient:'#12203D-#4A5F8A' \
  -fill '#F4EBC8' -draw "circle 80,80 80,115" -fill '#1B2C50' -draw "circle 95,72 95,105" \
  -fill '#FFF6D8' -draw "circle 200,50 200,53" -draw "circle 250,110 250,113" -draw "circle 150,140 150,142" -draw "circle 40,170 40,172" \
  -fill '#2C4A6B' -draw "path 'M 0,260 Q 150,210 300,260 L 300,400 L 0,400 Z'" \
  -fill '#24405A' -draw "path 'M 0,330 Q 160,290 300,340 L 300,400 L 0,400 Z'" \
  -fill '#E8772E' -draw "ellipse 150,330 60,24 0,360" -draw "circle 95,322 95,345" \
  -fill '#FFF4E0' -draw "ellipse 95,336 12,8 0,360" \
  "$WORK/night.png"

# A red-roofed house with a path (landscape, 400 x 300): the memoir photo.
convert -size 400x300 gradient:'#A8C4DA-#F4E8D0' \
  -fill '#8A9A6E' -draw "rectangle 0,190 400,300" \
  -fill '#C9B79A' -draw "rectangle 100,110 300,215" \
  -fill '#A8442E' -draw "polygon 85,118 315,118 200,45" \
  -fill '#F2EBDD' -draw "rectangle 120,135 155,170" -draw "rectangle 245,135 280,170" \
  -fill '#5A4232' -draw "rectangle 183,160 217,215" \
  -fill '#A89A80' -draw "polygon 188,215 212,215 250,300 150,300" \
  -fill '#5E6B48' -draw "circle 45,150 45,205" -draw "circle 355,140 355,195" \
  -fill '#FFFFFF' -draw "ellipse 80,40 40,12 0,360" -draw "ellipse 330,55 34,10 0,360" \
  "$WORK/house.png"

# The house again, portrait and warm, for the memoir cover (300 x 400).
convert -size 300x400 gradient:'#8FA6C0-#F2D2A8' \
  -fill '#7C8C6A' -draw "rectangle 0,290 300,400" \
  -fill '#B7A58A' -draw "rectangle 60,190 240,300" \
  -fill '#6B4A33' -draw "polygon 45,195 255,195 150,110" \
  -fill '#FFE2A0' -draw "rectangle 85,215 120,250" \
  -fill '#4A4038' -draw "rectangle 180,215 215,250" -draw "rectangle 135,235 165,300" \
  -fill '#3A2A1A' -draw "rectangle 258,250 266,290" -fill '#4E5A3E' -draw "circle 262,235 262,262" \
  -sepia-tone 82% -modulate 104,80 -fill '#F3E6CC' -colorize 12% "$WORK/house-portrait.png"

# A bay with a lighthouse and a sailing boat, across two pages (400 x 267, i.e. 3:2 for two 3:4 pages).
convert -size 400x267 gradient:'#7DB9DE-#FCE7C0' \
  -fill '#3F7FA6' -draw "rectangle 0,150 400,267" \
  -fill '#8FA3A3' -draw "path 'M 280,155 Q 320,125 400,130 L 400,155 Z'" \
  -fill '#F7F2EA' -draw "polygon 325,135 345,135 341,70 329,70" \
  -fill '#C8473D' -draw "polygon 326,120 344,120 343,105 327,105" -draw "polygon 328,90 342,90 341,80 329,80" \
  -fill '#FFE27A' -draw "rectangle 329,60 341,70" -fill '#C8473D' -draw "polygon 326,60 344,60 335,50" \
  -fill '#FFFFFF' -draw "polygon 100,170 125,170 112,135" \
  -fill '#B5582F' -draw "polygon 92,172 133,172 128,180 97,180" \
  -fill '#E8D2A0' -draw "path 'M 0,215 Q 100,190 200,230 Q 230,250 215,267 L 0,267 Z'" \
  -fill '#FFFFFF' -draw "ellipse 80,45 40,12 0,360" -draw "ellipse 260,60 34,10 0,360" \
  -fill '#E8772E' -draw "ellipse 60,235 20,12 0,360" -draw "circle 40,225 40,235" \
  "$WORK/bay.png"

# A father in profile, cut paper on a pale oval (for the greyscale JPEG).
convert -size 300x400 radial-gradient:'#D8D0C4-#6A625A' \
  -fill '#EDE6DA' -draw "ellipse 150,200 120,166 0,360" \
  -fill '#2A2622' -draw "path 'M 83,400 C 87,337 110,310 133,300 L 135,273 C 107,263 97,217 103,173 C 110,127 157,110 187,123 C 208,133 215,155 213,175 L 223,200 L 214,204 L 217,214 L 212,219 L 214,228 C 211,241 202,244 195,245 L 193,273 C 217,300 243,320 253,400 Z'" \
  "$WORK/portrait.png"

# A lake with a dock and a rowboat (landscape, for the progressive JPEG).
convert -size 400x300 gradient:'#C7D6E0-#F4E8D0' \
  -fill '#6E7F66' -draw "path 'M 0,150 Q 85,95 175,135 T 400,120 L 400,180 L 0,180 Z'" \
  -fill '#8FB0C0' -draw "rectangle 0,180 400,300" \
  -fill '#A5C2CE' -draw "rectangle 30,200 370,202" -draw "rectangle 30,230 370,232" -draw "rectangle 30,260 370,262" \
  -fill '#6B4A33' -draw "polygon 0,240 185,225 185,235 0,255" \
  -draw "rectangle 30,235 35,285" -draw "rectangle 100,232 105,282" -draw "rectangle 170,228 175,278" \
  -fill '#7A5236' -draw "path 'M 250,240 L 335,240 Q 328,258 293,260 Q 262,258 250,240 Z'" \
  -fill '#F7EFD8' -draw "circle 300,60 300,80" \
  "$WORK/lake.png"

# An apple tree with a girl beneath it; "up" is unmistakable (sky above, grass below).
convert -size 300x400 gradient:'#B8CCD8-#F4E8D0' \
  -fill '#8A9A6E' -draw "rectangle 0,295 300,400" \
  -fill '#6B4A33' -draw "polygon 185,335 220,335 213,175 197,175" \
  -fill '#5E6B48' -draw "circle 205,125 205,212" -draw "circle 140,160 140,213" -draw "circle 260,165 260,220" \
  -fill '#A8442E' -draw "circle 165,125 165,131" -draw "circle 213,100 213,106" -draw "circle 240,153 240,159" \
  -draw "circle 127,173 127,179" -draw "circle 187,187 187,193" -draw "circle 267,187 267,193" \
  -fill '#C9B79A' -draw "polygon 83,347 137,347 127,280 93,280" \
  -fill '#F2C9A5' -draw "circle 110,267 110,285" \
  -fill '#4A3A30' -draw "ellipse 110,257 21,13 180,360" \
  -fill '#3A2A1A' -draw "rectangle 97,347 103,370" -draw "rectangle 117,347 123,370" \
  "$WORK/tree.png"

# A red barn in a field: strong red and green, so a CMYK JPEG printed with the wrong polarity shows.
convert -size 400x300 gradient:'#9FD3EE-#FFF1CF' \
  -fill '#5E9C5A' -draw "rectangle 0,210 400,300" \
  -fill '#C8271D' -draw "polygon 110,240 290,240 290,130 200,70 110,130" \
  -fill '#F7F2EA' -draw "rectangle 170,165 230,240" -fill '#7A1E18' -draw "rectangle 175,170 225,240" \
  -stroke '#F7F2EA' -strokewidth 4 -draw "line 175,170 225,240" -draw "line 225,170 175,240" -stroke none \
  -fill '#FFD35C' -draw "circle 340,60 340,85" \
  -fill '#1F5FA8' -draw "rectangle 20,190 80,240" \
  "$WORK/barn.png"

# A round badge with a star, on transparency, with a half-transparent ring (PNG with alpha).
convert -size 300x300 xc:none \
  -fill 'rgba(62,124,177,0.45)' -draw "circle 150,150 150,10" \
  -fill '#3E7CB1' -draw "circle 150,150 150,40" \
  -fill '#FFD35C' -draw "polygon 150,62 175,122 240,122 188,162 207,225 150,187 93,225 112,162 60,122 125,122" \
  -depth 8 "${STRIP[@]}" "${PNGSTRIP[@]}" PNG32:"$WORK/badge.png"

# A garden: smooth sky gradient (where 16 bits per channel matter), flat flowers (16-bit PNG).
convert -size 240x320 gradient:'#6FA8DC-#FFF1CF' -depth 16 \
  -fill '#6FAE62' -draw "rectangle 0,220 240,320" \
  -fill '#D9B382' -draw "rectangle 0,200 240,210" -draw "rectangle 0,180 240,186" \
  -draw "rectangle 20,170 30,220" -draw "rectangle 80,170 90,220" -draw "rectangle 140,170 150,220" -draw "rectangle 200,170 210,220" \
  -fill '#E86A5B' -draw "circle 50,260 50,272" -fill '#F2A7C8' -draw "circle 120,280 120,292" \
  -fill '#8E7CC3' -draw "circle 190,255 190,267" -fill '#FFD35C' -draw "circle 60,60 60,90" \
  "${STRIP[@]}" "${PNGSTRIP[@]}" PNG48:"$WORK/garden16.png"

# Emma, Roger's main character, and her first page (the app file embeds both).
convert -size 300x400 gradient:'#9FD3EE-#FFF1CF' \
  -fill '#8CC084' -draw "path 'M 0,300 Q 150,260 300,300 L 300,400 L 0,400 Z'" \
  -fill '#E8574A' -draw "roundrectangle 100,210 200,330 30,30" \
  -fill '#2F3E5C' -draw "rectangle 112,325 142,370" -draw "rectangle 158,325 188,370" \
  -fill '#F2C9A5' -draw "circle 150,160 150,215" \
  -fill '#7A4A2A' -draw "ellipse 150,135 59,40 180,360" \
  -fill '#2B2118' -draw "circle 131,160 131,167" -draw "circle 169,160 169,167" \
  "$WORK/emma.png"
convert -size 300x400 gradient:'#9FD3EE-#FFF1CF' \
  -fill '#8CC084' -draw "path 'M 0,300 Q 150,260 300,300 L 300,400 L 0,400 Z'" \
  -fill '#B5413A' -draw "polygon 100,310 280,310 280,190 190,130 100,190" \
  -fill '#F7F2EA' -draw "rectangle 160,235 220,310" \
  \( "$WORK/emma.png" -crop 120x280+90+95 +repage -resize 50% \) -geometry +20+240 -composite \
  "$WORK/barnyard.png"

# ---------------------------------------------------------------- into the cases

# cover/
jpeg "$WORK/hill.png" "$WORK/hill.jpg"
jpeg "$WORK/night.png" "$WORK/night.jpg"
jpeg "$WORK/house.png" "$WORK/house.jpg"
jpeg "$WORK/house-portrait.png" "$WORK/house-portrait.jpg"
jpeg "$WORK/bay.png" "$WORK/bay.jpg"
place "$WORK/hill.jpg" cover/picture-book-photo/images/cover.jpg cover/long-title/images/cover.jpg
place "$WORK/house-portrait.jpg" cover/memoir-photo/images/cover.jpg

# spreads/, chapters/, themes/
place "$WORK/bay.jpg" spreads/starts-left/images/bay.jpg spreads/blank-before/images/bay.jpg
place "$WORK/hill.jpg" spreads/blank-before/images/hill.jpg \
  chapters/second-on-left/images/hill.jpg chapters/subtitle-and-text/images/hill.jpg \
  themes/picture-book/images/hill.jpg themes/memoir/images/hill.jpg themes/token-overrides/images/hill.jpg
place "$WORK/night.jpg" chapters/second-on-left/images/night.jpg
place "$WORK/house.jpg" themes/picture-book/images/house.jpg themes/memoir/images/house.jpg \
  themes/token-overrides/images/house.jpg tricky-characters/empty-captions/images/house.jpg

# images/: one colour model or encoding per case
jpeg "$WORK/portrait.png" "$HERE/images/grey-jpeg/images/portrait.jpg" -colorspace Gray -type Grayscale
jpeg "$WORK/lake.png" "$HERE/images/progressive-jpeg/images/lake.jpg" -interlace JPEG
jpeg "$WORK/barn.png" "$HERE/images/cmyk-jpeg/images/barn.jpg" -colorspace CMYK
# pixels stored turned 90° anticlockwise (400 x 300); Orientation 6 says: turn them back clockwise
jpeg "$WORK/tree.png" "$HERE/images/exif-orientation-6/images/tree.jpg" -rotate -90
exif_orientation "$HERE/images/exif-orientation-6/images/tree.jpg" 6
place "$WORK/badge.png" images/png-alpha/images/badge.png
place "$WORK/garden16.png" images/png-16bit/images/garden.png

# app-formats/: the pictures the app files embed as base64 (kept so that make.py needs no ImageMagick)
jpeg "$WORK/house-portrait.png" "$HERE/app-formats/memoirai/images/cover.jpg" -resize 150x200
jpeg "$WORK/lake.png" "$HERE/app-formats/memoirai/images/lake.jpg" -resize 200x150
jpeg "$WORK/emma.png" "$HERE/app-formats/roger/images/emma.jpg" -resize 150x200
jpeg "$WORK/barnyard.png" "$HERE/app-formats/roger/images/page1.jpg" -resize 150x200
python3 "$HERE/app-formats/make.py"
"$HERE/make-art-images.sh"

echo "images written:"
( cd "$HERE" && find . \( -name '*.jpg' -o -name '*.png' \) -not -path '*/expected/*' | sort | while read -r f; do
    printf '  %-58s %s %sB\n' "${f#./}" \
      "$(identify -format '%m %wx%h %[colorspace] %[depth]-bit %[orientation] %[interlace]' "$f[0]")" "$(wc -c <"$f")"
  done )
