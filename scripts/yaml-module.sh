#!/usr/bin/env bash
# Builds the console's YAML module into dist/yaml/: the validator package's YAML module
# (frontend/validator/yaml) with its reader of specs imported as YAML, which the console
# fetches when its form first meets a RayJob or a YAML import (frontend/src/yaml.rs).
# Trunk runs it after every build of the console (Trunk.toml's hook, scripts/trunk-hook.sh), into the build's
# staging directory, so `trunk build` and `trunk serve` both serve it; a debug build
# (`trunk serve`'s) skips wasm-opt.
set -euo pipefail
source "$(dirname "$0")/env.sh"
source "$root/scripts/wasm-package.sh"
out="${TRUNK_STAGING_DIR:-dist}/yaml"
[ "${TRUNK_PROFILE:-release}" = release ] || export BERTH_WASM_OPT=0
rm -rf "$out"
package berth-validator-yaml berth_validator_yaml "$out" --features spec
