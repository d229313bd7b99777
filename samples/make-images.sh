#!/usr/bin/env bash
# Regenerates every image under samples/ from shapes drawn with ImageMagick (6.9, `convert`).
#
#   samples/make-images.sh            # writes into the folders beside this script
#
# Deterministic: no random noise, metadata that carries dates is stripped, and the few
# "random" placements (stars) come from a fixed linear congruential generator.
# The same ImageMagick and libjpeg versions give byte-identical files.
#
# Needs: bash, convert and identify (Debian `imagemagick`; written against 6.9.11).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
STORY="$HERE/storybook/images"
MEMOIR="$HERE/memoir/images"
APPS="$HERE/apps/images"
mkdir -p "$STORY" "$MEMOIR" "$APPS"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

export MAGICK_THREAD_LIMIT=1   # one thread: identical output whatever the machine
CONVERT=(convert)

# Options that keep dates and other variable metadata out of the files.
STRIP=(-strip +set date:create +set date:modify +set date:timestamp)
PNGSTRIP=(-define png:exclude-chunks=date,time)

# Every drawing is made on a fixed grid of coordinates (the figures below) and drawn SCALE/100
# times larger, so a picture can be made as large as print needs without changing what it shows.
SCALE=100
sc() { echo $(( ($1 * SCALE + 50) / 100 )); }                                  # a grid length in pixels
scf() { awk -v v="$1" -v s="$SCALE" 'BEGIN { printf "%g", v * s / 100 }'; }   # the same, for a fraction
aff() { printf 'affine %s,0,0,%s,0,0 ' "$(scf 1)" "$(scf 1)"; }               # MVG: draw the grid at SCALE
mvg() { aff; cat "$1"; }                                                        # an MVG file drawn at SCALE

# ---------------------------------------------------------------- helpers

# A fixed pseudo-random sequence (Numerical Recipes LCG), so "scattered" stars are reproducible.
RNG=12345
rand() { # rand MAX -> sets R in [0, MAX)
  RNG=$(( (RNG * 1664525 + 1013904223) % 4294967296 ))
  R=$(( (RNG / 65536) % $1 ))
}

# stars W H COUNT MAXY SEED -> MVG lines of small pale circles
stars() {
  local w=$1 h=$2 n=$3 maxy=$4 i x y r
  RNG=$5
  echo "fill #FFF6D8"
  for ((i = 0; i < n; i++)); do
    rand "$w"; x=$R; rand "$maxy"; y=$R; rand 3; r=$((R + 2))
    echo "circle $x,$y $x,$((y + r))"
  done
}

# lighthouse CX BASEY HEIGHT LIT(0|1) -> MVG of a red-and-white tapered tower with a lamp room
lighthouse() {
  local cx=$1 by=$2 h=$3 lit=$4
  local hb=$((h * 14 / 100)) ht=$((h * 9 / 100)) ty=$((by - h))
  local i y0 y1 w0 w1
  echo "fill #F7F2EA"
  echo "polygon $((cx - hb)),$by $((cx + hb)),$by $((cx + ht)),$ty $((cx - ht)),$ty"
  echo "fill #C8473D"
  for i in 1 3; do # two red bands, each a fifth of the height
    y0=$((by - h * i / 5)); y1=$((by - h * (i + 1) / 5))
    w0=$((hb - (hb - ht) * i / 5)); w1=$((hb - (hb - ht) * (i + 1) / 5))
    echo "polygon $((cx - w0)),$y0 $((cx + w0)),$y0 $((cx + w1)),$y1 $((cx - w1)),$y1"
  done
  # gallery, lamp room, roof
  echo "fill #3D3A40"
  echo "rectangle $((cx - ht - h / 40)),$((ty - h / 40)) $((cx + ht + h / 40)),$ty"
  if [ "$lit" = 1 ]; then echo "fill #FFE27A"; else echo "fill #BFD9E6"; fi
  echo "rectangle $((cx - ht * 7 / 10)),$((ty - h / 7)) $((cx + ht * 7 / 10)),$((ty - h / 40))"
  echo "fill #C8473D"
  echo "polygon $((cx - ht)),$((ty - h / 7)) $((cx + ht)),$((ty - h / 7)) $cx,$((ty - h / 4))"
  echo "fill #3D3A40"
  echo "rectangle $((cx - h / 30)),$((by - h / 7)) $((cx + h / 30)),$by"
}

# owl CX CY SIZE -> MVG of Mossy the owl (grey, round, big eyes)
owl() {
  local x=$1 y=$2 s=$3
  echo "fill #8C8A94"
  echo "ellipse $x,$y $((s * 50 / 100)),$((s * 62 / 100)) 0,360"
  echo "polygon $((x - s * 40 / 100)),$((y - s * 40 / 100)) $((x - s * 30 / 100)),$((y - s * 80 / 100)) $((x - s * 12 / 100)),$((y - s * 50 / 100))"
  echo "polygon $((x + s * 40 / 100)),$((y - s * 40 / 100)) $((x + s * 30 / 100)),$((y - s * 80 / 100)) $((x + s * 12 / 100)),$((y - s * 50 / 100))"
  echo "fill #D9D2C3"
  echo "ellipse $x,$((y + s * 18 / 100)) $((s * 30 / 100)),$((s * 38 / 100)) 0,360"
  echo "fill #FFFFFF"
  echo "circle $((x - s * 20 / 100)),$((y - s * 22 / 100)) $((x - s * 20 / 100)),$((y - s * 4 / 100))"
  echo "circle $((x + s * 20 / 100)),$((y - s * 22 / 100)) $((x + s * 20 / 100)),$((y - s * 4 / 100))"
  echo "fill #E8A33D"
  echo "circle $((x - s * 20 / 100)),$((y - s * 22 / 100)) $((x - s * 20 / 100)),$((y - s * 13 / 100))"
  echo "circle $((x + s * 20 / 100)),$((y - s * 22 / 100)) $((x + s * 20 / 100)),$((y - s * 13 / 100))"
  echo "fill #2B2118"
  echo "circle $((x - s * 20 / 100)),$((y - s * 22 / 100)) $((x - s * 20 / 100)),$((y - s * 17 / 100))"
  echo "circle $((x + s * 20 / 100)),$((y - s * 22 / 100)) $((x + s * 20 / 100)),$((y - s * 17 / 100))"
  echo "fill #E8A33D"
  echo "polygon $((x - s * 6 / 100)),$((y - s * 8 / 100)) $((x + s * 6 / 100)),$((y - s * 8 / 100)) $x,$((y + s * 4 / 100))"
  # a small green scarf, Mossy's own
  echo "fill #5E9C5A"
  echo "roundrectangle $((x - s * 30 / 100)),$((y + s * 2 / 100)) $((x + s * 30 / 100)),$((y + s * 10 / 100)) 8,8"
}

# keeper CX FEETY SIZE -> MVG of Grandpa Otto: navy coat, white beard, flat cap, round glasses
keeper() {
  local x=$1 y=$2 s=$3
  local hy=$((y - s * 82 / 100))
  echo "fill #2F3E5C"
  echo "roundrectangle $((x - s * 22 / 100)),$((y - s * 62 / 100)) $((x + s * 22 / 100)),$((y - s * 4 / 100)) 40,40"
  echo "fill #3B2A20"
  echo "ellipse $((x - s * 10 / 100)),$y $((s * 10 / 100)),$((s * 4 / 100)) 0,360"
  echo "ellipse $((x + s * 10 / 100)),$y $((s * 10 / 100)),$((s * 4 / 100)) 0,360"
  echo "fill #F2C9A5"
  echo "circle $x,$hy $x,$((hy + s * 15 / 100))"
  echo "fill #F4F1EA"
  echo "ellipse $x,$((hy + s * 10 / 100)) $((s * 14 / 100)),$((s * 12 / 100)) 0,360"
  echo "fill #F2C9A5"
  echo "ellipse $x,$((hy + s * 1 / 100)) $((s * 4 / 100)),$((s * 3 / 100)) 0,360"
  echo "fill none"
  echo "stroke #3D3A40"
  echo "stroke-width $((s / 120 + 2))"
  echo "circle $((x - s * 6 / 100)),$((hy - s * 3 / 100)) $((x - s * 6 / 100)),$((hy))"
  echo "circle $((x + s * 6 / 100)),$((hy - s * 3 / 100)) $((x + s * 6 / 100)),$((hy))"
  echo "stroke none"
  echo "fill #4A5A78"
  echo "ellipse $x,$((hy - s * 12 / 100)) $((s * 17 / 100)),$((s * 6 / 100)) 180,360"
  echo "rectangle $((x - s * 17 / 100)),$((hy - s * 13 / 100)) $((x + s * 20 / 100)),$((hy - s * 10 / 100))"
  echo "fill #E8C547"
  echo "circle $x,$((y - s * 48 / 100)) $x,$((y - s * 46 / 100))"
  echo "circle $x,$((y - s * 34 / 100)) $x,$((y - s * 32 / 100))"
  echo "circle $x,$((y - s * 20 / 100)) $x,$((y - s * 18 / 100))"
}

# flower X Y SIZE PETALCOLOUR -> MVG of a stem and five round petals
flower() {
  local x=$1 y=$2 s=$3 c=$4
  echo "stroke #4E8A4A"
  echo "stroke-width $((s / 6 + 2))"
  echo "line $x,$y $x,$((y + s * 4))"
  echo "stroke none"
  echo "fill $c"
  echo "circle $x,$((y - s)) $x,$((y - s / 2))"
  echo "circle $((x + s)),$((y - s / 3)) $((x + s)),$((y + s / 6))"
  echo "circle $((x - s)),$((y - s / 3)) $((x - s)),$((y + s / 6))"
  echo "circle $((x + s * 6 / 10)),$((y + s * 8 / 10)) $((x + s * 6 / 10)),$((y + s * 13 / 10))"
  echo "circle $((x - s * 6 / 10)),$((y + s * 8 / 10)) $((x - s * 6 / 10)),$((y + s * 13 / 10))"
  echo "fill #FFD35C"
  echo "circle $x,$y $x,$((y + s / 2))"
}

# glow W H CX CY R COLOUR OPACITY -> GLOWARGS: composite arguments laying a soft disc of COLOUR
# (sun halo, lamp glow). Only the alpha mask is blurred, so the fringe keeps the colour.
# The mask is blurred on the grid and then enlarged: as smooth, and far quicker than a blur at SCALE.
glow() {
  GLOWARGS=(\( -size "$(sc "$1")x$(sc "$2")" xc:"$6"
    \( -size "$1x$2" xc:black -fill white -draw "circle $3,$4 $3,$(($4 + $5))"
       -blur "0x$(($5 / 2))" -evaluate multiply "$7" -resize "$(sc "$1")x$(sc "$2")!" \)
    -alpha off -compose CopyOpacity -composite \) -compose Over -composite)
}

# jpeg IN OUT [extra options…] -> baseline JPEG, quality 80, no metadata
jpeg() {
  local in=$1 out=$2; shift 2
  "${CONVERT[@]}" "$in" "${STRIP[@]}" -units PixelsPerInch -density "$(sc 150)" -sampling-factor 2x2 -quality 80 "$@" "$out"
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

# sepia_photo IN OUT -> the soft, warm, slightly faded look of an old print
sepia_photo() {
  "${CONVERT[@]}" "$1" -blur "0x$(scf 2.5)" -sepia-tone 82% -modulate 104,80 \
    -fill '#F3E6CC' -colorize 12% \
    -background '#3A2A1A' -vignette "0x$(sc 120)+0+0" "$2"
}

# ---------------------------------------------------------------- storybook (8.25 x 11 in, 330 ppi)

W=1240 H=1650

# pip OUT -> Pip the fox at SCALE, a cut-out with alpha (the main character's reference image at 100).
pip() {
  "${CONVERT[@]}" -size "$(sc 600)x$(sc 800)" xc:none \
    -fill '#E8772E' -draw "$(aff)ellipse 455,640 115,70 0,360" \
    -fill '#FFF4E0' -draw "$(aff)ellipse 545,610 45,38 0,360" \
    -fill '#E8772E' -draw "$(aff)ellipse 300,560 150,185 0,360" \
    -fill '#FFF4E0' -draw "$(aff)ellipse 300,600 82,125 0,360" \
    -fill '#5A3A22' -draw "$(aff)ellipse 235,745 52,30 0,360" -draw "$(aff)ellipse 365,745 52,30 0,360" \
    -fill '#E8772E' -draw "$(aff)polygon 175,250 150,70 280,175" -draw "$(aff)polygon 425,250 450,70 320,175" \
    -fill '#5A3A22' -draw "$(aff)polygon 188,215 170,110 245,178" -draw "$(aff)polygon 412,215 430,110 355,178" \
    -fill '#E8772E' -draw "$(aff)circle 300,300 300,155" \
    -fill '#FFF4E0' -draw "$(aff)ellipse 248,360 72,58 0,360" -draw "$(aff)ellipse 352,360 72,58 0,360" \
    -fill '#2B2118' -draw "$(aff)circle 248,292 248,274" -draw "$(aff)circle 352,292 352,274" \
    -fill white -draw "$(aff)circle 254,286 254,280" -draw "$(aff)circle 358,286 358,280" \
    -fill '#2B2118' -draw "$(aff)ellipse 300,345 17,13 0,360" \
    -fill none -stroke '#2B2118' -strokewidth 5 -draw "$(aff)path 'M 282,372 Q 300,390 318,372'" -stroke none \
    -fill '#F2A7A0' -draw "$(aff)ellipse 210,345 20,12 0,360" -draw "$(aff)ellipse 390,345 20,12 0,360" \
    -fill '#3B6EA5' -draw "$(aff)roundrectangle 180,430 420,480 25,25" -draw "$(aff)polygon 350,470 400,470 410,560 360,555" \
    -depth 8 "${STRIP[@]}" "${PNGSTRIP[@]}" PNG32:"$1"
}
pip "$STORY/pip.png"
# The pages' pictures: big enough for 300 ppi across the page with bleed (8.5 in) and the spread (16.75 in).
SCALE=220
FOX="$WORK/pip.png"
pip "$FOX"

# fox SIZE X Y [flop] -> composite arguments placing Pip (height SIZE) with its top-left at X,Y
fox() {
  local extra=()
  [ "${4:-}" = flop ] && extra=(-flop)
  FOXARGS=(\( "$FOX" "${extra[@]}" -resize "x$(sc "$1")" \) -geometry "+$(sc "$2")+$(sc "$3")" -composite)
}

# Cover: evening sea, the lighthouse on its hill, Pip in the foreground. Upper third kept calm for the title.
{
  echo "fill #3F7FA6"; echo "rectangle 0,1000 $W,$H"
  echo "fill #6FA4C2"; echo "rectangle 0,1000 $W,1030"
  lighthouse 930 1010 560 1
  echo "fill #4E8A4A"; echo "path 'M 0,1250 Q 360,1080 760,1210 T $W,1180 L $W,$H L 0,$H Z'"
  echo "fill #6FAE62"; echo "path 'M 0,1400 Q 500,1260 $W,1420 L $W,$H L 0,$H Z'"
  echo "fill #7C8A8A"; echo "path 'M 700,1020 Q 930,930 1160,1020 Z'"
} >"$WORK/cover.mvg"
fox 520 250 1080
"${CONVERT[@]}" -size $(sc $W)x$(sc $H) gradient:'#F6C177-#F7E3C4' \
  \( -size $(sc $W)x$(sc 1000) gradient:'#2E4A7A-#F4A76A' \) -geometry +0+0 -composite \
  \( -size $(sc $W)x$(sc $H) xc:none -fill 'rgba(255,226,122,0.35)' \
     -draw "$(aff)polygon 930,380 0,160 0,520" -draw "$(aff)polygon 930,380 $W,250 $W,470" -blur 0x$(sc 6) \) -composite \
  -draw "$(mvg "$WORK/cover.mvg")" "${FOXARGS[@]}" "$WORK/cover.png"
jpeg "$WORK/cover.png" "$STORY/cover.jpg"

# Page 1: morning, rolling hills, the den, a big sun.
{
  echo "fill #8CC084"; echo "path 'M 0,980 Q 320,820 700,960 T $W,900 L $W,$H L 0,$H Z'"
  echo "fill #6FAE62"; echo "path 'M 0,1150 Q 420,1000 860,1140 T $W,1100 L $W,$H L 0,$H Z'"
  echo "fill #4E8A4A"; echo "path 'M 0,1420 Q 600,1260 $W,1400 L $W,$H L 0,$H Z'"
  echo "fill #3A2E26"; echo "ellipse 300,1210 140,110 180,360"
  echo "fill #6FAE62"; echo "rectangle 150,1210 450,1230"
  echo "fill #FFFFFF"
  echo "ellipse 300,330 110,45 0,360"; echo "ellipse 380,300 90,55 0,360"; echo "ellipse 220,310 70,40 0,360"
  echo "ellipse 1000,520 90,35 0,360"; echo "ellipse 1060,495 70,45 0,360"
} >"$WORK/p01.mvg"
fox 460 640 860
glow $W $H 930 260 200 '#FFD666' 0.6
"${CONVERT[@]}" -size $(sc $W)x$(sc $H) gradient:'#9FD3EE-#FFF1CF' \
  "${GLOWARGS[@]}" \
  -fill '#FFC94D' -draw "$(aff)circle 930,260 930,380" \
  -draw "$(mvg "$WORK/p01.mvg")" "${FOXARGS[@]}" "$WORK/p01.png"
jpeg "$WORK/p01.png" "$STORY/p01-morning.jpg"

# Page 2: the garden, in flat colours, saved as a 16-bit PNG.
{
  echo "fill #6FAE62"; echo "rectangle 0,1000 $W,$H"
  echo "fill #D9B382"
  for x in 40 160 280 400 520 640 760 880 1000 1120; do
    echo "polygon $x,1040 $((x + 80)),1040 $((x + 80)),880 $((x + 40)),840 $x,880"
  done
  echo "rectangle 0,910 $W,940"; echo "rectangle 0,990 $W,1020"
  flower 120 1180 34 '#E86A5B'; flower 330 1260 40 '#F2A7C8'; flower 900 1200 36 '#8E7CC3'
  flower 1100 1290 42 '#E86A5B'; flower 560 1440 38 '#F2A7C8'; flower 200 1480 44 '#8E7CC3'
  flower 1040 1500 40 '#FFFFFF'; flower 760 1320 30 '#E8A33D'
  echo "fill #5E9C5A"
  echo "ellipse 980,600 150,150 0,360"; echo "ellipse 1120,650 120,120 0,360"
  echo "fill #7A5236"; echo "rectangle 1020,700 1070,880"
  echo "fill #E8574A"; echo "circle 940,560 940,580"; echo "circle 1030,640 1030,660"; echo "circle 1130,600 1130,620"
} >"$WORK/p02.mvg"
fox 520 420 1000 flop
"${CONVERT[@]}" -size $(sc $W)x$(sc $H) xc:'#BFE3F2' -fill '#FFE9A8' -draw "$(aff)circle 200,220 200,320" \
  -draw "$(mvg "$WORK/p02.mvg")" "${FOXARGS[@]}" -depth 16 "${STRIP[@]}" "${PNGSTRIP[@]}" PNG48:"$STORY/p02-garden.png"

# Page 3: Mossy the owl on a branch of the old oak; Pip looks up.
{
  echo "fill #8CC084"; echo "path 'M 0,1200 Q 620,1080 $W,1220 L $W,$H L 0,$H Z'"
  echo "fill #6FAE62"; echo "path 'M 0,1380 Q 600,1300 $W,1400 L $W,$H L 0,$H Z'"
  echo "fill #6B4A33"; echo "polygon 760,1320 900,1320 880,500 790,500"
  echo "polygon 830,760 560,610 560,570 850,700"
  echo "fill #4E8A4A"
  echo "circle 720,420 720,640"; echo "circle 930,360 930,590"; echo "circle 1080,520 1080,700"; echo "circle 560,560 560,700"
  echo "fill #5E9C5A"
  echo "circle 820,300 820,470"; echo "circle 1000,620 1000,760"
  owl 600 470 170
} >"$WORK/p03.mvg"
fox 480 160 980
"${CONVERT[@]}" -size $(sc $W)x$(sc $H) gradient:'#BFE3F2-#FFF1CF' -draw "$(mvg "$WORK/p03.mvg")" "${FOXARGS[@]}" "$WORK/p03.png"
jpeg "$WORK/p03.png" "$STORY/p03-owl.jpg"

# Spread (2 pages, 2400 x 1680, about 2 : 1.4): the bay, the lighthouse far across the water.
SW=2400 SH=1680
{
  echo "fill #3F7FA6"; echo "rectangle 0,900 $SW,$SH"
  echo "fill #5B96B8"; echo "rectangle 0,900 $SW,960"
  echo "fill #8FA3A3"; echo "path 'M 1650,930 Q 1900,760 2400,800 L 2400,930 Z'"
  lighthouse 2020 820 380 0
  echo "fill #FFFFFF"
  echo "polygon 1200,1000 1300,1000 1250,900"; echo "fill #B5582F"; echo "polygon 1180,1000 1320,1000 1300,1030 1200,1030"
  echo "stroke #3D3A40"; echo "stroke-width 6"; echo "fill none"
  echo "path 'M 800,400 Q 830,370 860,400 Q 890,370 920,400'"
  echo "path 'M 1000,330 Q 1025,305 1050,330 Q 1075,305 1100,330'"
  echo "stroke none"
  echo "fill #E8D2A0"; echo "path 'M 0,1180 Q 500,1000 1050,1240 Q 1200,1320 1100,$SH L 0,$SH Z'"
  echo "fill #6FAE62"; echo "path 'M 0,1300 Q 420,1150 860,1380 Q 960,1450 900,$SH L 0,$SH Z'"
  echo "fill #FFFFFF"
  echo "ellipse 500,260 140,50 0,360"; echo "ellipse 600,230 110,60 0,360"
  echo "ellipse 1700,380 130,45 0,360"; echo "ellipse 1790,350 100,55 0,360"
  owl 620 1220 120
} >"$WORK/spread.mvg"
fox 420 250 1190
"${CONVERT[@]}" -size $(sc $SW)x$(sc $SH) gradient:'#7DB9DE-#FCE7C0' -draw "$(mvg "$WORK/spread.mvg")" "${FOXARGS[@]}" "$WORK/spread.png"
jpeg "$WORK/spread.png" "$STORY/spread-bay.jpg"

# Page 6 (after the missing page 5): Grandpa Otto at the lighthouse door.
{
  echo "fill #E8D2A0"; echo "rectangle 0,1250 $W,$H"
  echo "fill #F7F2EA"; echo "polygon 200,1260 1040,1260 960,-10 280,-10"
  echo "fill #C8473D"; echo "polygon 236,700 1004,700 985,400 255,400"
  echo "fill #6B4A33"; echo "roundrectangle 500,780 740,1260 110,110"
  echo "fill #E8C547"; echo "circle 700,1030 700,1045"
  echo "fill #BFD9E6"; echo "circle 620,520 620,590"
  echo "stroke #3D3A40"; echo "stroke-width 10"; echo "fill none"; echo "circle 620,520 620,590"; echo "stroke none"
  keeper 880 1420 760
  echo "fill #9BA7A8"; echo "ellipse 120,1560 120,50 0,360"; echo "ellipse 1150,1600 90,40 0,360"
} >"$WORK/p06.mvg"
fox 470 150 1120
"${CONVERT[@]}" -size $(sc $W)x$(sc $H) gradient:'#9FD3EE-#FCE7C0' -draw "$(mvg "$WORK/p06.mvg")" "${FOXARGS[@]}" "$WORK/p06.png"
jpeg "$WORK/p06.png" "$STORY/p06-keeper.jpg"

# Page 8: up the spiral stairs, a round window on the sea.
{
  echo "fill #E9DFCF"; echo "rectangle 0,0 $W,$H"
  echo "fill #D8CBB6"; echo "rectangle 0,0 160,$H"; echo "rectangle 1080,0 $W,$H"
  echo "fill #3F7FA6"; echo "circle 620,380 620,560"
  echo "fill #9FD3EE"; echo "ellipse 620,380 180,180 180,360"
  echo "stroke #6B4A33"; echo "stroke-width 24"; echo "fill none"; echo "circle 620,380 620,560"
  echo "line 620,200 620,560"; echo "line 440,380 800,380"; echo "stroke none"
  for i in 0 1 2 3 4 5 6 7 8; do
    x=$((160 + i * 100)); y=$((1600 - i * 90))
    echo "fill #8A6A4E"; echo "rectangle $x,$y $((x + 160)),$((y + 40))"
    echo "fill #6B4A33"; echo "rectangle $x,$((y + 40)) $((x + 160)),$((y + 56))"
  done
  echo "stroke #3D3A40"; echo "stroke-width 12"; echo "line 170,1480 1010,700"; echo "stroke none"
} >"$WORK/p08.mvg"
fox 380 520 880
"${CONVERT[@]}" -size $(sc $W)x$(sc $H) xc:white -draw "$(mvg "$WORK/p08.mvg")" "${FOXARGS[@]}" "$WORK/p08.png"
jpeg "$WORK/p08.png" "$STORY/p08-stairs.jpg"

# Page 9: night, the lamp is lit; beams, moon and stars.
{
  stars $W 900 70 900 4242
  echo "fill #F4EBC8"; echo "circle 230,250 230,340"
  echo "fill #14213D"; echo "circle 270,230 270,320"
  echo "fill #1E3F5C"; echo "rectangle 0,1150 $W,$H"
  echo "fill #2E5573"; echo "path 'M 0,1220 Q 300,1190 600,1220 T $W,1220 L $W,1240 L 0,1240 Z'"
  lighthouse 620 1300 820 1
  echo "fill #26402C"; echo "path 'M 0,1380 Q 620,1240 $W,1380 L $W,$H L 0,$H Z'"
} >"$WORK/p09.mvg"
fox 300 840 1230 flop
glow $W $H 620 420 120 '#FFE27A' 0.7
"${CONVERT[@]}" -size $(sc $W)x$(sc $H) gradient:'#0E1A33-#3A4F7A' \
  \( -size $(sc $W)x$(sc $H) xc:none -fill 'rgba(255,226,122,0.42)' \
     -draw "$(aff)polygon 620,355 0,150 0,560" -draw "$(aff)polygon 620,355 $W,120 $W,600" -blur 0x$(sc 8) \) -composite \
  -draw "$(mvg "$WORK/p09.mvg")" \
  "${GLOWARGS[@]}" \
  "${FOXARGS[@]}" "$WORK/p09.png"
jpeg "$WORK/p09.png" "$STORY/p09-light.jpg"

# Page 10: the walk home under the stars, Mossy flying ahead.
{
  stars $W 1000 90 1000 777
  echo "fill #F4EBC8"; echo "circle 1000,240 1000,320"
  echo "fill #2C4A6B"; echo "path 'M 0,1050 Q 400,900 820,1040 T $W,980 L $W,$H L 0,$H Z'"
  echo "fill #24405A"; echo "path 'M 0,1250 Q 500,1120 $W,1260 L $W,$H L 0,$H Z'"
  echo "fill #E8C99A"; echo "path 'M 520,$H Q 640,1400 900,1250 L 960,1260 Q 720,1420 700,$H Z'"
  owl 880 640 130
  echo "fill #8C8A94"
  echo "path 'M 835,640 Q 740,560 700,660 Q 760,630 835,680 Z'"
  echo "path 'M 925,640 Q 1020,560 1060,660 Q 1000,630 925,680 Z'"
} >"$WORK/p10.mvg"
fox 420 360 1150
"${CONVERT[@]}" -size $(sc $W)x$(sc $H) gradient:'#12203D-#4A5F8A' -draw "$(mvg "$WORK/p10.mvg")" "${FOXARGS[@]}" \
  -fill '#1B2A4A' -colorize 18% "$WORK/p10.png"
jpeg "$WORK/p10.png" "$STORY/p10-home.jpg"

# Page 11: asleep in the den, the moon at the doorway.
{
  echo "fill #5A4232"; echo "rectangle 0,0 $W,$H"
  echo "fill #6E5240"; echo "ellipse 620,900 700,760 0,360"
  echo "fill #1B2A4A"; echo "ellipse 620,420 260,230 180,360"; echo "rectangle 360,420 880,470"
  echo "push graphic-context"; echo "translate 400,220"
  stars 440 200 16 200 99
  echo "pop graphic-context"
  echo "fill #F4EBC8"; echo "circle 720,300 720,350"
  echo "fill #C9A77C"; echo "ellipse 620,1280 430,130 0,360"
  echo "fill #E8772E"; echo "ellipse 680,1190 250,130 0,360"
  echo "fill #3B6EA5"; echo "roundrectangle 470,1120 560,1250 24,24"
  echo "fill #E8772E"; echo "circle 430,1150 430,1250"
  echo "polygon 350,1090 335,975 425,1062"; echo "polygon 470,1066 505,960 515,1092"
  echo "fill #5A3A22"; echo "polygon 360,1075 350,1005 408,1058"; echo "polygon 478,1062 500,995 506,1080"
  echo "fill #FFF4E0"; echo "ellipse 395,1205 75,42 0,360"
  echo "fill #2B2118"; echo "ellipse 335,1195 11,9 0,360"
  echo "fill none"; echo "stroke #2B2118"; echo "stroke-width 6"
  echo "path 'M 380,1150 Q 395,1164 410,1150'"; echo "path 'M 445,1150 Q 460,1164 475,1150'"
  echo "stroke none"
  echo "fill #E8772E"; echo "ellipse 640,1280 260,64 0,360"
  echo "fill #FFF4E0"; echo "ellipse 400,1280 70,52 0,360"
  echo "fill #F2A7A0"; echo "ellipse 455,1190 16,9 0,360"
} >"$WORK/p11.mvg"
"${CONVERT[@]}" -size $(sc $W)x$(sc $H) xc:'#5A4232' -draw "$(mvg "$WORK/p11.mvg")" "$WORK/p11.png"
jpeg "$WORK/p11.png" "$STORY/p11-sleep.jpg"

# ---------------------------------------------------------------- memoir (6 x 9 in), old prints

# Photos print up to 4.5 in wide on the 6 × 9 in page: 1.6 × the grid is 320 ppi there.
SCALE=160

# Cover photo: the house at dusk, one window lit (baseline JPEG).
{
  echo "fill #7C8C6A"; echo "rectangle 0,880 900,1200"
  echo "fill #B7A58A"; echo "polygon 180,900 720,900 720,560 180,560"
  echo "fill #6B4A33"; echo "polygon 140,580 760,580 450,330"
  echo "fill #5A4232"; echo "rectangle 600,360 650,480"
  echo "fill #FFE2A0"; echo "rectangle 250,640 360,760"
  echo "fill #4A4038"; echo "rectangle 540,640 650,760"; echo "rectangle 400,700 500,900"
  echo "fill #8A7A66"; echo "rectangle 380,900 520,930"
  echo "fill #4E5A3E"; echo "circle 820,620 820,860"; echo "circle 90,700 90,860"
  echo "fill #3A2A1A"; echo "rectangle 800,800 840,920"
} >"$WORK/mcover.mvg"
glow 900 1200 300 700 180 '#FFDC96' 0.45
"${CONVERT[@]}" -size $(sc 900)x$(sc 1200) gradient:'#8FA6C0-#F2D2A8' \
  "${GLOWARGS[@]}" \
  -draw "$(mvg "$WORK/mcover.mvg")" "$WORK/mcover.png"
sepia_photo "$WORK/mcover.png" "$WORK/mcover-s.png"
jpeg "$WORK/mcover-s.png" "$MEMOIR/cover.jpg"

# The house on Linden Street, full daylight (CMYK JPEG, Adobe-style inverted values from ImageMagick).
{
  echo "fill #8A9A6E"; echo "rectangle 0,520 1200,900"
  echo "fill #C9B79A"; echo "rectangle 300,300 900,640"
  echo "fill #7A5A40"; echo "polygon 260,320 940,320 600,120"
  echo "fill #F2EBDD"; echo "rectangle 360,380 470,480"; echo "rectangle 730,380 840,480"; echo "rectangle 545,380 655,480"
  echo "fill #5A4232"; echo "rectangle 550,500 650,640"
  echo "fill #EDE3CF"; echo "rectangle 300,630 900,660"
  echo "fill #A89A80"; echo "polygon 560,660 640,660 760,900 440,900"
  echo "fill #F2EBDD"
  for x in 40 100 160 220 960 1020 1080 1140; do echo "rectangle $x,600 $((x + 22)),700"; done
  echo "rectangle 20,620 260,636"; echo "rectangle 940,620 1200,636"
  echo "fill #5E6B48"; echo "circle 140,420 140,600"; echo "circle 1060,380 1060,560"
  echo "fill #FFFFFF"; echo "ellipse 250,120 120,35 0,360"; echo "ellipse 1000,160 100,30 0,360"
} >"$WORK/house.mvg"
"${CONVERT[@]}" -size $(sc 1200)x$(sc 900) gradient:'#A8C4DA-#F4E8D0' -draw "$(mvg "$WORK/house.mvg")" "$WORK/house.png"
sepia_photo "$WORK/house.png" "$WORK/house-s.png"
jpeg "$WORK/house-s.png" "$MEMOIR/house-cmyk.jpg" -colorspace CMYK

# Portrait of my father in profile, a cut-paper silhouette on a pale oval (greyscale JPEG).
{
  echo "fill #EDE6DA"; echo "ellipse 450,600 360,500 0,360"
  echo "fill #2A2622"
  echo "path 'M 250,1200 C 260,1010 330,930 400,900 L 405,820 C 320,790 290,650 310,520 C 330,380 470,330 560,370 C 625,400 645,465 640,525 L 668,600 L 642,612 L 650,642 L 636,656 L 643,684 C 632,722 605,732 585,736 L 580,820 C 650,900 730,960 760,1200 Z'"
} >"$WORK/portrait.mvg"
"${CONVERT[@]}" -size $(sc 900)x$(sc 1200) radial-gradient:'#D8D0C4-#6A625A' -draw "$(mvg "$WORK/portrait.mvg")" \
  -blur "0x$(scf 1.5)" -background '#2A2622' -vignette "0x$(sc 140)+0+0" "$WORK/portrait.png"
jpeg "$WORK/portrait.png" "$MEMOIR/portrait-grey.jpg" -colorspace Gray -type Grayscale

# The lake: hills, water, a dock and a rowboat (progressive JPEG).
{
  echo "fill #6E7F66"; echo "path 'M 0,420 Q 250,260 520,380 T 1200,330 L 1200,480 L 0,480 Z'"
  echo "fill #56664E"; echo "path 'M 0,470 Q 400,390 800,460 T 1200,450 L 1200,490 L 0,490 Z'"
  echo "fill #8FB0C0"; echo "rectangle 0,480 1200,800"
  echo "fill #A5C2CE"; for y in 520 580 650 720; do echo "rectangle 100,$y 1100,$((y + 4))"; done
  echo "fill #6B4A33"; echo "polygon 0,640 560,600 560,625 0,680"
  for x in 80 200 320 440 540; do echo "rectangle $x,620 $((x + 14)),760"; done
  echo "fill #7A5236"; echo "path 'M 760,640 L 1000,640 Q 980,690 880,695 Q 790,690 760,640 Z'"
  echo "fill #EDE3CF"; echo "circle 880,600 880,625"
  echo "fill #5A4232"; echo "rectangle 860,620 900,650"
  echo "fill #F7EFD8"; echo "circle 900,160 900,220"
} >"$WORK/lake.mvg"
"${CONVERT[@]}" -size $(sc 1200)x$(sc 800) gradient:'#C7D6E0-#F4E8D0' -draw "$(mvg "$WORK/lake.mvg")" "$WORK/lake.png"
sepia_photo "$WORK/lake.png" "$WORK/lake-s.png"
jpeg "$WORK/lake-s.png" "$MEMOIR/lake-progressive.jpg" -interlace JPEG

# A girl under the apple tree, portrait, stored turned on its side with EXIF Orientation 6.
{
  echo "fill #8A9A6E"; echo "rectangle 0,880 900,1200"
  echo "fill #6B4A33"; echo "polygon 560,1000 660,1000 640,520 590,520"
  echo "fill #5E6B48"; echo "circle 610,380 610,640"; echo "circle 420,480 420,640"; echo "circle 780,500 780,660"
  echo "fill #A8442E"
  for p in 500,380 640,300 720,460 380,520 560,560 800,560 660,620 450,420; do echo "circle $p ${p%,*},$(( ${p#*,} + 18 ))"; done
  echo "fill #4A3A30"; echo "circle 330,760 330,830"
  echo "fill #C9B79A"; echo "polygon 250,1040 410,1040 380,840 280,840"
  echo "fill #F2C9A5"; echo "circle 330,800 330,855"
  echo "fill #4A3A30"; echo "ellipse 330,770 62,40 180,360"
  echo "fill #3A2A1A"; echo "rectangle 290,1040 310,1110"; echo "rectangle 350,1040 370,1110"
  echo "fill #A89A80"; echo "ellipse 470,1080 60,30 0,360"
  echo "fill #A8442E"; echo "circle 450,1060 450,1074"; echo "circle 490,1062 490,1076"
} >"$WORK/apple.mvg"
"${CONVERT[@]}" -size $(sc 900)x$(sc 1200) gradient:'#B8CCD8-#F4E8D0' -draw "$(mvg "$WORK/apple.mvg")" "$WORK/apple.png"
sepia_photo "$WORK/apple.png" "$WORK/apple-s.png"
# The pixels are turned 90° anticlockwise; Orientation 6 (RightTop) tells a viewer to turn them back clockwise.
jpeg "$WORK/apple-s.png" "$MEMOIR/apple-tree-exif6.jpg" -rotate -90
exif_orientation "$MEMOIR/apple-tree-exif6.jpg" 6

# Grandma's kitchen window: a teapot, two cups, a geranium (baseline JPEG).
{
  echo "fill #D8CBB6"; echo "rectangle 0,0 1200,900"
  echo "fill #DCE6EA"; echo "rectangle 330,90 870,520"
  echo "fill #8A9A6E"; echo "rectangle 330,400 870,520"
  echo "stroke #EDE3CF"; echo "stroke-width 22"; echo "fill none"; echo "rectangle 330,90 870,520"
  echo "line 600,90 600,520"; echo "line 330,300 870,300"; echo "stroke none"
  echo "fill #B7A58A"; echo "rectangle 0,560 1200,900"
  echo "fill #9A8A70"; echo "rectangle 0,560 1200,585"
  echo "fill #F2EBDD"; echo "ellipse 560,650 130,110 0,360"; echo "rectangle 520,520 600,550"
  echo "path 'M 430,630 Q 360,600 370,560 L 390,560 Q 390,600 440,610 Z'"
  echo "fill none"; echo "stroke #F2EBDD"; echo "stroke-width 18"; echo "path 'M 680,610 Q 760,620 700,700'"; echo "stroke none"
  echo "fill #EDE3CF"; echo "rectangle 800,640 880,720"; echo "rectangle 920,650 1000,730"
  echo "fill #8A5A40"; echo "polygon 160,520 280,520 260,640 180,640"
  echo "fill #5E6B48"; echo "circle 220,440 220,500"; echo "circle 170,470 170,510"; echo "circle 270,470 270,510"
  echo "fill #A8442E"; echo "circle 220,410 220,440"; echo "circle 180,450 180,472"
} >"$WORK/kitchen.mvg"
"${CONVERT[@]}" -size $(sc 1200)x$(sc 900) xc:'#D8CBB6' -draw "$(mvg "$WORK/kitchen.mvg")" "$WORK/kitchen.png"
sepia_photo "$WORK/kitchen.png" "$WORK/kitchen-s.png"
jpeg "$WORK/kitchen-s.png" "$MEMOIR/kitchen.jpg"

# ---------------------------------------------------------------- small JPEGs embedded by apps/make-app-samples.py

SCALE=100

small() { # small IN OUT -> 300 x 400 (or 400 x 300) JPEG, quality 70
  "${CONVERT[@]}" "$1" -resize '300x400^' -gravity center -extent 300x400 "${STRIP[@]}" -sampling-factor 2x2 -quality 70 "$2"
}
smallwide() {
  "${CONVERT[@]}" "$1" -resize '400x300^' -gravity center -extent 400x300 "${STRIP[@]}" -sampling-factor 2x2 -quality 70 "$2"
}
# MemoirAI: a cover photo and illustrations from the memoir prints.
small "$WORK/mcover-s.png" "$APPS/memoirai-cover.jpg"
smallwide "$WORK/lake-s.png" "$APPS/memoirai-lake.jpg"
smallwide "$WORK/kitchen-s.png" "$APPS/memoirai-kitchen.jpg"

# Roger: Emma, a child made of circles (cut-out), and four page pictures on her visit to Farmer
# Jeremy's farm (the fifth page is not illustrated yet). Drawn at 600 x 800, then made small.
"${CONVERT[@]}" -size 600x800 xc:none \
  -fill '#E8574A' -draw "roundrectangle 200,420 400,660 60,60" \
  -fill '#2F3E5C' -draw "rectangle 225,650 285,740" -draw "rectangle 315,650 375,740" \
  -fill '#3B2A20' -draw "ellipse 250,745 40,18 0,360" -draw "ellipse 350,745 40,18 0,360" \
  -fill '#F2C9A5' -draw "circle 300,320 300,430" -draw "circle 175,500 175,535" -draw "circle 425,500 425,535" \
  -fill '#7A4A2A' -draw "ellipse 300,270 118,80 180,360" -draw "circle 190,330 190,380" -draw "circle 410,330 410,380" \
  -fill '#2B2118' -draw "circle 262,320 262,334" -draw "circle 338,320 338,334" \
  -fill '#F2A7A0' -draw "ellipse 238,360 18,10 0,360" -draw "ellipse 362,360 18,10 0,360" \
  -fill none -stroke '#2B2118' -strokewidth 6 -draw "path 'M 275,372 Q 300,392 325,372'" -stroke none \
  -fill '#FFD35C' -draw "polygon 300,180 315,215 352,215 322,236 333,272 300,250 267,272 278,236 248,215 285,215" \
  "$WORK/emma.png"
FARMSKY=(-size 600x800 gradient:'#9FD3EE-#FFF1CF')
FIELD="fill #8CC084 path 'M 0,600 Q 300,520 600,600 L 600,800 L 0,800 Z'"
# the character reference: Emma on a plain background
"${CONVERT[@]}" "${FARMSKY[@]}" -draw "$FIELD" "$WORK/emma.png" -composite "$WORK/roger-emma.png"
small "$WORK/roger-emma.png" "$APPS/roger-emma.jpg"
# page 1: Emma sets off down the lane, sun up
"${CONVERT[@]}" "${FARMSKY[@]}" -fill '#FFC94D' -draw "circle 470,140 470,210" -draw "$FIELD" \
  -fill '#E8D2A0' -draw "path 'M 250,800 Q 330,680 520,600 L 560,610 Q 400,690 380,800 Z'" \
  \( "$WORK/emma.png" -resize x420 \) -geometry +60+370 -composite "$WORK/roger-1.png"
small "$WORK/roger-1.png" "$APPS/roger-page1.jpg"
# page 2: the red barn
"${CONVERT[@]}" "${FARMSKY[@]}" -draw "$FIELD" \
  -fill '#B5413A' -draw "polygon 200,620 560,620 560,380 380,260 200,380" \
  -fill '#F7F2EA' -draw "rectangle 320,470 440,620" -fill '#7A2E28' -draw "rectangle 330,480 430,620" \
  -stroke '#F7F2EA' -strokewidth 8 -draw "line 330,480 430,620" -draw "line 430,480 330,620" -stroke none \
  \( "$WORK/emma.png" -resize x300 \) -geometry +20+480 -composite "$WORK/roger-2.png"
small "$WORK/roger-2.png" "$APPS/roger-page2.jpg"
# page 3: Farmer Jeremy, tall and lean, straw hat, checkered shirt, overalls
"${CONVERT[@]}" "${FARMSKY[@]}" -draw "$FIELD" \
  -fill '#4F6F9A' -draw "rectangle 385,470 495,760" \
  -fill '#C8473D' -draw "roundrectangle 370,330 510,520 30,30" \
  -fill '#F7F2EA' -draw "rectangle 395,330 410,520" -draw "rectangle 440,330 455,520" -draw "rectangle 370,380 510,395" -draw "rectangle 370,440 510,455" \
  -fill '#4F6F9A' -draw "rectangle 400,420 480,520" \
  -fill '#F2C9A5' -draw "circle 440,270 440,330" \
  -fill '#E3C77A' -draw "ellipse 440,225 95,18 0,360" -draw "ellipse 440,205 50,35 180,360" \
  -fill '#C8473D' -draw "rectangle 392,200 488,212" \
  -fill '#F7F2EA' -draw "rectangle 408,250 428,256" -draw "rectangle 452,250 472,256" \
  -fill '#2B2118' -draw "circle 420,268 420,274" -draw "circle 460,268 460,274" \
  \( "$WORK/emma.png" -resize x340 \) -geometry +40+440 -composite "$WORK/roger-3.png"
small "$WORK/roger-3.png" "$APPS/roger-page3.jpg"
# page 4: Biscuit the goat
"${CONVERT[@]}" "${FARMSKY[@]}" -draw "$FIELD" \
  -fill '#F4F1EA' -draw "ellipse 400,600 120,70 0,360" -draw "circle 500,520 500,570" \
  -fill '#D9D2C3' -draw "rectangle 320,640 345,740" -draw "rectangle 450,640 475,740" \
  -fill '#8A7F74' -draw "polygon 480,480 470,420 495,470" -draw "polygon 515,478 530,420 505,470" \
  -fill '#2B2118' -draw "circle 512,515 512,523" \
  -fill '#E8C547' -draw "circle 470,575 470,590" \
  \( "$WORK/emma.png" -resize x340 \) -geometry +20+440 -composite "$WORK/roger-4.png"
small "$WORK/roger-4.png" "$APPS/roger-page4.jpg"

echo "images written:"
( cd "$HERE" && find storybook/images memoir/images apps/images -type f | sort | while read -r f; do
    printf '  %-40s %s\n' "$f" "$(identify -format '%m %wx%h %[colorspace] %[depth]-bit %[orientation] %[interlace]' "$f[0]") $(wc -c <"$f")B"
  done )

