#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml), in the build's staging directory: the console's
# YAML module, then, on a release build, every JS module minified (scripts/minify-js.sh).
set -euo pipefail
source "$(dirname "$0")/env.sh"
bash "$root/scripts/yaml-module.sh"
[ "${TRUNK_PROFILE:-release}" != release ] || bash "$root/scripts/minify-js.sh" "${TRUNK_STAGING_DIR:-dist}"
