#!/usr/bin/env bash
# Draws the pictures of the compliant books (kdp-compliant, lulu-compliant, ingramspark-compliant)
# with ImageMagick 6.9 `convert`: flat shapes on a 1000 × 1000 grid scaled to each book's page with
# bleed at 310 pixels per inch, so every picture prints above the printers' 300 ppi. Flat colours
# keep the JPEGs small. Deterministic: one thread, no dated metadata.
#
#   Tests/PrintRuleBooks/make-compliant-images.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export MAGICK_THREAD_LIMIT=1
STRIP=(-strip +set date:create +set date:modify +set date:timestamp)

# scene NAME -> MVG on the 1000 × 1000 grid
scene() {
  case $1 in
    meadow)
      echo "fill #9FD3EE rectangle 0,0 1000,1000"
      echo "fill #FFC94D circle 760,200 760,280"
      echo "fill #FFFFFF ellipse 250,180 110,40 0,360 ellipse 320,160 80,45 0,360"
      echo "fill #8CC084 polygon 0,620 300,520 640,600 1000,540 1000,1000 0,1000"
      echo "fill #6FAE62 polygon 0,780 420,690 1000,800 1000,1000 0,1000"
      echo "fill #7A5236 rectangle 190,520 230,700"
      echo "fill #4E8A4A circle 210,470 210,570"
      echo "fill #E86A5B circle 600,860 600,880 circle 700,900 700,920 circle 820,850 820,870"
      ;;
    harbour)
      echo "fill #BFE3F2 rectangle 0,0 1000,1000"
      echo "fill #F4EBC8 circle 200,220 200,290"
      echo "fill #3F7FA6 rectangle 0,560 1000,1000"
      echo "fill #6FA4C2 rectangle 0,560 1000,590 rectangle 100,700 900,708 rectangle 200,820 800,828"
      echo "fill #7C8A8A polygon 620,560 760,470 900,560"
      echo "fill #F7F2EA polygon 730,560 790,560 775,300 745,300"
      echo "fill #C8473D polygon 736,460 784,460 780,400 740,400 polygon 740,300 780,300 760,260"
      echo "fill #7A5236 polygon 260,650 460,650 430,700 290,700"
      echo "fill #F7F2EA polygon 360,640 360,500 440,640"
      ;;
    night)
      echo "fill #1B2A4A rectangle 0,0 1000,1000"
      echo "fill #F4EBC8 circle 720,220 720,300"
      echo "fill #1B2A4A circle 750,200 750,280"
      echo "fill #FFF6D8 circle 120,120 120,126 circle 300,240 300,245 circle 480,90 480,96 circle 560,330 560,335 circle 880,420 880,425 circle 90,380 90,385"
      echo "fill #2C4A6B polygon 0,640 380,560 760,640 1000,600 1000,1000 0,1000"
      echo "fill #24405A polygon 0,800 500,720 1000,820 1000,1000 0,1000"
      echo "fill #3A2E26 rectangle 420,600 560,700"
      echo "fill #FFE27A rectangle 470,630 510,670"
      echo "fill #6B4A33 polygon 400,600 580,600 490,540"
      ;;
  esac
}

# picture BOOK NAME SCENE WIDTH_IN HEIGHT_IN -> BOOK/images/NAME.jpg at 310 px per inch
picture() {
  local dir="$HERE/$1/images" w h
  mkdir -p "$dir"
  w=$(awk -v x="$4" 'BEGIN { printf "%d", x * 310 + 0.999 }')
  h=$(awk -v x="$5" 'BEGIN { printf "%d", x * 310 + 0.999 }')
  convert -size "${w}x${h}" xc:white \
    -draw "affine $(awk -v w="$w" -v h="$h" 'BEGIN { printf "%.6f,0,0,%.6f,0,0", w / 1000, h / 1000 }') $(scene "$3")" \
    "${STRIP[@]}" -units PixelsPerInch -density 310 -sampling-factor 2x2 -quality 80 "$dir/$2.jpg"
}

# Each book's page with bleed on every side: trim + 0.25 in.
for s in meadow harbour night; do
  picture kdp-compliant "$s" "$s" 8.75 8.75
  picture lulu-compliant "$s" "$s" 8.75 11.25
  picture ingramspark-compliant "$s" "$s" 8.25 10.25
done
ls -l "$HERE"/*-compliant/images/*.jpg
