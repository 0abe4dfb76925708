#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml), in the build's staging directory: the console's
# YAML module, then, on a release build, every JS module minified (scripts/minify-js.sh).
set -euo pipefail
source "$(dirname "$0")/env.sh"
dir=${TRUNK_STAGING_DIR:-dist}
bash "$root/scripts/yaml-module.sh"
[ "${TRUNK_PROFILE:-release}" != release ] || bash "$root/scripts/minify-js.sh" "$dir"
# Trunk gives the wasm's `<link rel=preload as=fetch>` an integrity hash, which Chromium
# ignores for that destination and says so in the console of every page load
# (crbug.com/981419); the loader's own fetch of the wasm carries none either way.
perl -0pi -e 's{<link\b[^>]*>}{my $t = $&; $t =~ /\bas="?fetch\b/ ? $t =~ s/\s+integrity=("[^"]*"|[^\s>]*)//r : $t}ge' "$dir/index.html"
