#!/usr/bin/env bash
# Builds the validator package for other portals (frontend/validator, no Leptos) into
# dist/validator/: berth_validator.js (an ES module) and berth_validator_bg.wasm, its
# optional YAML module for RayJob runtime envs (frontend/validator/yaml:
# berth_validator_yaml.js and berth_validator_yaml_bg.wasm), and
# copies the example page public/validator.html to dist/. Run it after
# `trunk build --release`, which empties dist/.
# BERTH_VALIDATOR_FEATURES=bench adds the boundary routes scripts/bench-validator.sh measures.
set -euo pipefail
source "$(dirname "$0")/env.sh"
out="${BERTH_VALIDATOR_OUT:-dist/validator}"
features="${BERTH_VALIDATOR_FEATURES:-}"
target="${CARGO_TARGET_DIR:-target}"
# Two builds: one would unify `shared`'s features, and the main module would carry the
# YAML reader its optional module is for.
cargo build --locked -p berth-validator --target wasm32-unknown-unknown --profile wasm-release \
  ${features:+--features "$features"}
cargo build --locked -p berth-validator-yaml --target wasm32-unknown-unknown --profile wasm-release
rm -rf "$out"
mkdir -p "$out"
for module in berth_validator berth_validator_yaml; do
  wasm-bindgen --target web --no-typescript --out-dir "$out" \
    "$target/wasm32-unknown-unknown/wasm-release/$module.wasm"
  if command -v wasm-opt >/dev/null; then
    # The same wasm-opt trunk runs on the console (npm binaryen 132; scripts/install-tools.sh).
    wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types \
      -o "$out/${module}_bg.wasm" "$out/${module}_bg.wasm"
  else
    echo "validator.sh: no wasm-opt on PATH, the package is left unoptimised" >&2
  fi
done
cp public/validator.html public/embed.html "$(dirname "$out")/"
