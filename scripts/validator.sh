#!/usr/bin/env bash
# Builds the validator package for other portals (frontend/validator, no Leptos) into
# dist/validator/: berth_validator.js (an ES module, minified, its API documented in
# berth_validator.d.ts) and berth_validator_bg.wasm, its
# optional YAML module for RayJob runtime envs (frontend/validator/yaml:
# berth_validator_yaml.js and berth_validator_yaml_bg.wasm), the main module with that
# reader inside for portals that always check runtime envs (full/), and copies the
# example pages public/validator.html and public/embed.html to dist/. Run it after
# `trunk build --release`, which empties dist/ (and builds the console's YAML module,
# scripts/yaml-module.sh).
# BERTH_VALIDATOR_FEATURES=bench adds the boundary routes scripts/bench-validator.sh measures.
set -euo pipefail
source "$(dirname "$0")/env.sh"
out="${BERTH_VALIDATOR_OUT:-dist/validator}"
features="${BERTH_VALIDATOR_FEATURES:-}"
source "$root/scripts/wasm-package.sh"
# Separate builds: one would unify `shared`'s features, and the main module would carry
# the YAML reader its optional module is for.
rm -rf "$out"
mkdir -p "$out"
# The one-module build (full/), for portals that always check runtime envs: the main
# module with the YAML reader inside, less than the two modules together.
package berth-validator berth_validator "$out/full" --features yaml
package berth-validator-yaml berth_validator_yaml "$out"
# Last, so the next incremental build of the main module starts from it.
package berth-validator berth_validator "$out" ${features:+--features "$features"}
# Their docs and types are in the .d.ts files wasm-bindgen writes beside them.
[ "${BERTH_WASM_OPT:-1}" = 0 ] || bash "$root/scripts/minify-js.sh" "$out"
cp public/validator.html public/embed.html "$(dirname "$out")/"
# Last: every file of the console and the packages compressed beside it, for the server.
bash "$root/scripts/precompress.sh" "$(dirname "$out")"
