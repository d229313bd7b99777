#!/usr/bin/env bash
# The pictures of the art-direction cases: a figure on a plain sky, placed where a crop or a text
# box would hide it unless the subject is looked for. Run by make-images.sh; deterministic in
# the same way (flat shapes and gradients, one thread, no dated metadata, JPEG quality 70).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export MAGICK_THREAD_LIMIT=1
STRIP=(-strip +set date:create +set date:modify +set date:timestamp)

# jpeg IN OUT -> baseline JPEG, quality 70, 4:2:0, no metadata
jpeg() {
  mkdir -p "$(dirname "$2")"
  convert "$1" "${STRIP[@]}" -sampling-factor 2x2 -quality 70 "$2"
}

# fox CX FOOTY -> MVG of a sitting fox 80 px tall whose feet rest on FOOTY
fox() {
  local x=$1 y=$2
  cat <<MVG
fill #E0702A
ellipse $x,$((y - 28)) 22,28 0,360
circle $x,$((y - 62)) $x,$((y - 44))
polygon $((x - 16)),$((y - 70)) $((x - 12)),$((y - 92)) $((x - 2)),$((y - 76))
polygon $((x + 16)),$((y - 70)) $((x + 12)),$((y - 92)) $((x + 2)),$((y - 76))
ellipse $((x + 26)),$((y - 10)) 14,7 0,360
fill #FFF4E0
ellipse $x,$((y - 24)) 11,17 0,360
circle $((x + 38)),$((y - 10)) $((x + 38)),$((y - 5))
fill #2B2118
circle $((x - 7)),$((y - 64)) $((x - 7)),$((y - 61))
circle $((x + 7)),$((y - 64)) $((x + 7)),$((y - 61))
fill #5A3A22
ellipse $((x - 10)),$y 8,4 0,360
ellipse $((x + 10)),$y 8,4 0,360
MVG
}

# A fox at the foot of a 3:4 picture: a centred crop above a band would cut its legs.
convert -size 300x400 gradient:'#BFE3F5-#F6EAD0' -draw "$(fox 150 388)" "$WORK/fox-low.png"
jpeg "$WORK/fox-low.png" "$HERE/art-direction/subject-low-under-band/images/fox-low.jpg"

# A lighthouse whose lamp is near the top of the cover, where a title card goes first.
convert -size 300x400 gradient:'#F3B27A-#8FB3D0' \
  -fill '#3F7FA6' -draw "rectangle 0,250 300,400" \
  -fill '#8FA3A3' -draw "path 'M 100,252 Q 150,215 200,252 Z'" \
  -fill '#F7F2EA' -draw "polygon 137,232 163,232 159,70 141,70" \
  -fill '#C8473D' -draw "polygon 138,205 162,205 161,180 139,180" -draw "polygon 140,140 160,140 159,115 141,115" \
  -fill '#FFE27A' -draw "rectangle 139,44 161,70" -fill '#C8473D' -draw "polygon 135,44 165,44 150,24" \
  "$WORK/lamp-high.png"
jpeg "$WORK/lamp-high.png" "$HERE/art-direction/subject-high-under-cover-card/images/lamp-high.jpg"

# A fox in the middle of a spread, on a strip of sand by the sea.
convert -size 400x267 gradient:'#8CC6E6-#FBEBC8' \
  -fill '#3F7FA6' -draw "rectangle 0,150 400,267" \
  -fill '#E8D2A0' -draw "path 'M 0,200 Q 200,180 400,200 L 400,267 L 0,267 Z'" \
  -draw "$(fox 200 215)" "$WORK/fox-middle.png"
jpeg "$WORK/fox-middle.png" "$HERE/art-direction/subject-middle-of-spread/images/fox-middle.jpg"

# A wide meadow with the fox on the left and a small tree on the right: the estimate follows the
# fox, a given focus the tree.
convert -size 400x200 gradient:'#BFE3F5-#F6EAD0' \
  -fill '#8CC084' -draw "rectangle 0,165 400,200" \
  -fill '#6B4A33' -draw "rectangle 346,110 354,168" -fill '#5E8C4E' -draw "circle 350,100 350,122" \
  -draw "$(fox 60 165)" "$WORK/fox-left.png"
jpeg "$WORK/fox-left.png" "$HERE/art-direction/focus-given-vs-estimated/images/meadow.jpg"
