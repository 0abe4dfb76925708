#!/usr/bin/env bash
# Times what reading RayJob runtime envs in the validator package's second module costs a
# check: the package as shipped (scripts/validator.sh: the main module and its YAML
# module) against the main module built with the YAML reader inside, in Node (V8, as
# Chromium). Prints µs per call and the same-run ratios; BENCH_RUNS runs (default 3).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$(dirname "$0")/.."
runs="${BENCH_RUNS:-3}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
target="${CARGO_TARGET_DIR:-target}"
BERTH_VALIDATOR_OUT="$dir/split" bash scripts/validator.sh
cargo build --locked -p berth-validator --target wasm32-unknown-unknown --profile wasm-release \
  --features shared/yaml
wasm-bindgen --target web --no-typescript --out-dir "$dir/whole" \
  "$target/wasm32-unknown-unknown/wasm-release/berth_validator.wasm"
wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types \
  -o "$dir/whole/berth_validator_bg.wasm" "$dir/whole/berth_validator_bg.wasm"
# Leave the package's build as shipped for whoever builds next.
cargo build --locked -p berth-validator --target wasm32-unknown-unknown --profile wasm-release
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$runs"); do
  node frontend/validator/bench/runtime-env.mjs "$dir" "$PWD"
  echo
done
