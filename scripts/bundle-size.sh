#!/usr/bin/env bash
# Prints the bundle sizes from dist/ (run after `trunk build --release` and
# scripts/validator.sh): raw bytes and brotli -q 11 bytes, as browsers fetch them
# compressed. The console (wasm + js + css) against its goal of <= 250 KB brotli, its YAML
# module apart (fetched only for RayJobs and YAML imports), and the
# validator package for other portals (dist/validator/) against <= 100 KB; its optional
# YAML module (fetched only to check RayJob runtime envs) apart, then both together, and
# the one-module build with the YAML reader inside (full/) for portals that always need it.
set -euo pipefail
cd "$(dirname "$0")/.."
# Prints one row per file and a total row against the goal (in KB of 1,000 bytes; 0 for none).
sizes() {
  local name=$1 goal_kb=$2; shift 2
  if [ $# -eq 0 ]; then echo "$name: not built"; return; fi
  local total_raw=0 total_br=0 f raw br
  for f in "$@"; do
    raw=$(wc -c < "$f"); br=$(brotli -q 11 -c "$f" | wc -c)
    total_raw=$((total_raw + raw)); total_br=$((total_br + br))
    printf '%-10s %-5s %9d bytes raw %8d bytes brotli\n' "$name" "${f##*.}" "$raw" "$br"
  done
  if [ "$goal_kb" -eq 0 ]; then
    printf '%-10s %-5s %9d bytes raw %8d bytes brotli\n' "$name" total "$total_raw" "$total_br"
    return
  fi
  local verdict=met; [ "$total_br" -le $((goal_kb * 1000)) ] || verdict="not met"
  printf '%-10s %-5s %9d bytes raw %8d bytes brotli (goal <= %d KB: %s)\n' \
    "$name" total "$total_raw" "$total_br" "$goal_kb" "$verdict"
}
shopt -s nullglob
sizes console 250 dist/*.wasm dist/*.js dist/snippets/*/*.js dist/*.css
# The console's YAML module, fetched only when the form first meets a RayJob or a YAML import.
sizes "con. yaml" 0 dist/yaml/*.wasm dist/yaml/*.js
sizes validator 100 dist/validator/berth_validator_bg.wasm dist/validator/berth_validator.js
sizes yaml 0 dist/validator/berth_validator_yaml_bg.wasm dist/validator/berth_validator_yaml.js
sizes "val.+yaml" 0 dist/validator/*.wasm dist/validator/*.js | tail -n 1
sizes "val. full" 0 dist/validator/full/*.wasm dist/validator/full/*.js | tail -n 1
