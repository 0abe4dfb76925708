#!/usr/bin/env bash
# Builds the validator package for other portals (frontend/validator, no Leptos) into
# dist/validator/: berth_validator.js (an ES module) and berth_validator_bg.wasm, its
# optional YAML module for RayJob runtime envs (frontend/validator/yaml:
# berth_validator_yaml.js and berth_validator_yaml_bg.wasm), the main module with that
# reader inside for portals that always check runtime envs (full/), the console's YAML
# module into dist/yaml/, and
# copies the example page public/validator.html to dist/. Run it after
# `trunk build --release`, which empties dist/.
# BERTH_VALIDATOR_FEATURES=bench adds the boundary routes scripts/bench-validator.sh measures.
set -euo pipefail
source "$(dirname "$0")/env.sh"
out="${BERTH_VALIDATOR_OUT:-dist/validator}"
features="${BERTH_VALIDATOR_FEATURES:-}"
target="${CARGO_TARGET_DIR:-target}"
# Separate builds: one would unify `shared`'s features, and the main module would carry
# the YAML reader its optional module is for. Each wasm goes through wasm-bindgen (and
# wasm-opt) before the next build replaces it.
package() { # <crate> <wasm name> <out dir> [cargo args]
  local crate=$1 module=$2 dir=$3; shift 3
  cargo build --locked -p "$crate" --target wasm32-unknown-unknown --profile wasm-release "$@"
  wasm-bindgen --target web --no-typescript --out-dir "$dir" \
    "$target/wasm32-unknown-unknown/wasm-release/$module.wasm"
  if command -v wasm-opt >/dev/null; then
    # The same wasm-opt trunk runs on the console (npm binaryen 132; scripts/install-tools.sh).
    wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types \
      -o "$dir/${module}_bg.wasm" "$dir/${module}_bg.wasm"
  else
    echo "validator.sh: no wasm-opt on PATH, the package is left unoptimised" >&2
  fi
}
rm -rf "$out" "$(dirname "$out")/yaml"
mkdir -p "$out"
# The one-module build (full/), for portals that always check runtime envs: the main
# module with the YAML reader inside, less than the two modules together.
package berth-validator berth_validator "$out/full" --features shared/yaml
package berth-validator-yaml berth_validator_yaml "$out"
# The console's YAML module (dist/yaml/): the same, and its reader of specs imported as
# YAML (frontend/src/yaml.rs fetches it).
package berth-validator-yaml berth_validator_yaml "$(dirname "$out")/yaml" --features spec
# Last, so the next incremental build of the main module starts from it.
package berth-validator berth_validator "$out" ${features:+--features "$features"}
cp public/validator.html public/embed.html "$(dirname "$out")/"
