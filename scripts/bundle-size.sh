#!/usr/bin/env bash
# Prints the console's bundle sizes from dist/ (run after `trunk build --release`):
# raw bytes and brotli -q 11 bytes, as browsers fetch them compressed.
set -euo pipefail
cd "$(dirname "$0")/.."
total_raw=0; total_br=0
for f in dist/*.wasm dist/*.js dist/*.css; do
  raw=$(wc -c < "$f"); br=$(brotli -q 11 -c "$f" | wc -c)
  total_raw=$((total_raw + raw)); total_br=$((total_br + br))
  printf '%-12s %9d bytes raw %8d bytes brotli\n' "${f##*.}" "$raw" "$br"
done
printf '%-12s %9d bytes raw %8d bytes brotli\n' total "$total_raw" "$total_br"
