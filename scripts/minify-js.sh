#!/usr/bin/env bash
# minify-js.sh <dir>: every ES module under <dir> minified in place by terser (npm;
# scripts/install-tools.sh), and the subresource integrity hashes in <dir>/index.html
# that named a module's old bytes rewritten for its new ones, or the browser would refuse
# it. wasm-bindgen writes its modules readable, with the Rust doc comments; the packages
# ship those docs in their `.d.ts` files instead, which browsers never fetch. Trunk's own
# `minify` does the CSS and HTML, and gives up on these modules. Run on release builds only: by scripts/trunk-hook.sh
# on the console's staging directory (after trunk wrote its hashes) and by
# scripts/validator.sh on the validator package.
set -euo pipefail
dir=$1
sri() { printf 'sha384-%s' "$(openssl dgst -sha384 -binary "$1" | openssl base64 -A)"; }
html="$dir/index.html"
while IFS= read -r -d '' js; do
  old=$(sri "$js")
  # --module: an ES module's top-level names are its own (only exports are kept).
  terser "$js" --module --compress --mangle --output "$js.min"
  mv "$js.min" "$js"
  # base64 has no `|`, and its `+` and `/` are plain in a basic regular expression.
  [ ! -f "$html" ] || sed -i "s|$old|$(sri "$js")|g" "$html"
done < <(find "$dir" -name '*.js' -print0)
