#!/usr/bin/env bash
# Installs what is missing and runs the whole test suite (unit, golden-free rendering checks with
# poppler and qpdf, and CLI tests against the built binary).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --product bookrender
swift test --disable-xctest "$@"
