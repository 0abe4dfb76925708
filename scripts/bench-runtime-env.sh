#!/usr/bin/env bash
# Times what reading RayJob runtime envs in the validator package's second module costs a
# check: the package as shipped (scripts/validator.sh: the main module and its YAML
# module) against its one-module build with the YAML reader inside (full/), in Node (V8,
# as Chromium). Prints µs per call and the same-run ratios; BENCH_RUNS runs (default 3).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$(dirname "$0")/.."
runs="${BENCH_RUNS:-3}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
BERTH_VALIDATOR_OUT="$dir/split" bash scripts/validator.sh
mv "$dir/split/full" "$dir/whole"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$runs"); do
  node frontend/validator/bench/runtime-env.mjs "$dir" "$PWD"
  echo
done
