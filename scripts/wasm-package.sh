# Sourced by scripts/validator.sh and scripts/yaml-module.sh (after scripts/env.sh): one
# wasm package built as trunk builds the console's.
target="${CARGO_TARGET_DIR:-target}"

# package <crate> <wasm name> <out dir> [cargo args]: cargo's `wasm-release` build, then
# wasm-bindgen's ES module and wasm into <out dir>, then wasm-opt on the wasm. Each wasm
# goes through wasm-bindgen before the next build replaces it. BERTH_WASM_OPT=0 leaves
# the wasm unoptimised (a `trunk serve` rebuild).
package() {
  local crate=$1 module=$2 dir=$3; shift 3
  cargo build --locked -p "$crate" --target wasm32-unknown-unknown --profile wasm-release "$@"
  wasm-bindgen --target web --no-typescript --out-dir "$dir" \
    "$target/wasm32-unknown-unknown/wasm-release/$module.wasm"
  if [ "${BERTH_WASM_OPT:-1}" = 0 ]; then
    return
  elif command -v wasm-opt >/dev/null; then
    # The same wasm-opt and passes trunk runs on the console (npm binaryen 132;
    # scripts/install-tools.sh; frontend/index.html says why these passes).
    wasm-opt -O1 --merge-similar-functions -Oz --merge-similar-functions -Oz \
      --merge-similar-functions -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types \
      -o "$dir/${module}_bg.wasm" "$dir/${module}_bg.wasm"
  else
    echo "$module: no wasm-opt on PATH, the package is left unoptimised" >&2
  fi
}
