#!/usr/bin/env bash
# Installs the Debian packages bookrender builds, renders and tests with (and any named as
# arguments), only when one is missing.
set -euo pipefail

packages=(
  pkg-config
  libcairo2-dev libpango1.0-dev libpng-dev libjpeg-dev libfontconfig-dev
  nettle-dev  # SHA-256 of inputs (batch fingerprints, the generation cache)
  libxxhash-dev xxhash  # XXH3-128 of images and PDF content; xxhsum for its test
  libhyphen-dev hyphen-en-us hyphen-en-gb hyphen-de hyphen-fr
  libqrencode-dev
  libicu-dev  # word boundaries in titles of scripts written without spaces (Japanese, Chinese, Thai)
  libsqlite3-dev  # the render service's job queue (bookrender serve)
  libqpdf-dev  # PDF finishing (boxes, outline, PDF/X keys, content colours)
  liblcms2-dev  # colour management: pictures and colours converted to the printer's CMYK
  ghostscript  # its SWOP-like CMYK profile (the press profile), and the tests' independent ink checks
  libdeflate-dev  # the artifact-marked page contents, inflated and compressed again
  libstdc++-12-dev  # the C++ standard headers qpdf's C++ API (content stream filters) needs
  # the private font set (see fonts/fonts.json)
  fonts-sil-andika fonts-linuxlibertine fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji fonts-urw-base35 fonts-yanone-kaffeesatz
  # PDF readers and image tools the tests check output with
  poppler-utils qpdf libjpeg-turbo-progs imagemagick
  fonts-dejavu-core  # a face outside the font set, for the book-fonts tests
  python3-jsonschema python3-yaml  # schema checks (python3-yaml: the service's OpenAPI document)
  python3-pip  # the Python packages of scripts/test-requirements.txt (below)
  strace  # the test that a hostile book folder opens nothing outside it
  openssl  # a self-signed certificate for the loopback provider server, which a run must refuse
  util-linux e2fsprogs  # setpriv, mount and chattr: the write-failure tests' unwritable folders and full disks
  epubcheck default-jre-headless  # the e-book tests: every EPUB must pass the reference checker (a Java program)
  chromium  # the e-book tests: a page opened in a real browser engine at its viewport, compared with the PNG page
  espeak-ng lame ffmpeg  # the narration tests: speech recorded to MP3 (lame) and M4A (ffmpeg)
)
# A caller's own extras, e.g. bench/run.sh's.
packages+=("$@")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# PyMuPDF for the text-layer tests (MuPDF reads a PDF's text otherwise than poppler); Debian's
# python3-fitz is older than the MuPDF readers use, so it comes from PyPI, pinned.
requirements="$(dirname "$0")/test-requirements.txt"
if ! /usr/bin/python3 -c 'import pymupdf' 2>/dev/null; then
  echo "installing: $(grep -v '^#' "$requirements" | tr '\n' ' ')" >&2
  $sudo /usr/bin/python3 -m pip install --quiet --break-system-packages --root-user-action=ignore -r "$requirements"
fi
