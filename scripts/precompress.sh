#!/usr/bin/env bash
# Writes beside each of the console's files in the folder given (dist/ by default) its
# brotli (.br, when the brotli tool is here) and gzip (.gz) forms, which the server sends
# to browsers that take them (`ServeDir::precompressed_*`): it sent the console's 1.7 MB
# of wasm as it is, 37 s of blank page on a 400 kbit/s link (slow-link explorer).
set -euo pipefail
dir=${1:-dist}
have_brotli=$(command -v brotli >/dev/null && echo 1 || echo 0)
find "$dir" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name '*.html' \
  -o -name '*.svg' -o -name '*.json' \) -print0 |
  while IFS= read -r -d '' f; do
    gzip -9 -n -k -f "$f"
    [ "$have_brotli" = 0 ] || brotli -q 11 -f -k "$f"
  done
