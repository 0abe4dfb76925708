# Sourced by scripts/validator.sh and scripts/yaml-module.sh (after scripts/env.sh): one
# wasm package built as trunk builds the console's.
target="${CARGO_TARGET_DIR:-target}"

# package <crate> <wasm name> <out dir> [cargo args]: cargo's `wasm-release` build, then
# wasm-bindgen's ES module, its TypeScript declarations (the API's docs for a portal's
# editor) and wasm into <out dir>, then wasm-opt on the wasm. Each wasm
# goes through wasm-bindgen before the next build replaces it. BERTH_WASM_OPT=0 leaves
# the wasm unoptimised (a `trunk serve` rebuild).
package() {
  local crate=$1 module=$2 dir=$3; shift 3
  cargo build --locked -p "$crate" --target wasm32-unknown-unknown --profile wasm-release "$@"
  wasm-bindgen --target web --out-dir "$dir" \
    "$target/wasm32-unknown-unknown/wasm-release/$module.wasm"
  # The wasm's own declarations are for bundlers, not portals.
  rm -f "$dir/${module}_bg.wasm.d.ts"
  if [ "${BERTH_WASM_OPT:-1}" = 0 ]; then
    return
  elif command -v wasm-opt >/dev/null; then
    # The same wasm-opt (npm binaryen 132; scripts/install-tools.sh) and the passes trunk
    # runs on the console, read from frontend/index.html (which says why these passes):
    # `-O<data-wasm-opt>`, then its `data-wasm-opt-params`.
    local passes
    passes=$(sed -n 's/.*data-wasm-opt="\([^"]*\)" data-wasm-opt-params="\([^"]*\)".*/-O\1 \2/p' "$root/frontend/index.html")
    [ -n "$passes" ] || { echo "no wasm-opt passes in frontend/index.html" >&2; return 1; }
    # shellcheck disable=SC2086 # the passes are words
    wasm-opt $passes --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types \
      -o "$dir/${module}_bg.wasm" "$dir/${module}_bg.wasm"
  else
    echo "$module: no wasm-opt on PATH, the package is left unoptimised" >&2
  fi
}
