#!/usr/bin/env bash
# Runs every test once, against one build: format and lints, the domain crate natively
# and in headless Chromium, the server over oneshot and real HTTP, schemathesis against
# the live server's OpenAPI document, the console's component tests, and the end-to-end
# browser journey against the real server.
set -euo pipefail
source "$(dirname "$0")/env.sh"
log="$(mktemp)"
# What the tests leave in the temp folder goes into one folder of this run, removed at
# the end: chromedriver leaves each Chromium profile behind (about 150 MB a test binary),
# and the server tests leave their data folders. Open to all like /tmp, for the
# PostgreSQL that scripts/postgres.sh runs as its own user.
TMPDIR="$(mktemp -d -t berth-test.XXXXXX)"
chmod 1777 "$TMPDIR"
export TMPDIR
# `|| true`: a failed clean-up (a straggling browser still writing) must not fail a run
# whose tests passed; the run's own status stands either way.
trap 'rm -rf "$log" "$TMPDIR" || true' EXIT
step() { printf '\n== %s\n' "$*"; }
# Runs a test command, keeping its output for the closing count.
tests() { "$@" 2>&1 | tee -a "$log"; }

step "tools"
bash scripts/install-tools.sh
cargo fetch --locked

step "format and lints"
cargo fmt --all -- --check
cargo clippy --locked --workspace --exclude berth-frontend --all-targets --features berth-shared/demo -- -D warnings
# Benchmarks are native only (criterion), hence --lib --tests here.
cargo clippy --locked -p berth-frontend -p berth-validator -p berth-shared --target wasm32-unknown-unknown --lib --tests --features berth-shared/demo -- -D warnings
# The validator package's modules and the console's YAML module as scripts/validator.sh
# and scripts/yaml-module.sh build them: `shared` without and with its YAML reader.
cargo clippy --locked -p berth-validator --target wasm32-unknown-unknown --lib -- -D warnings
cargo clippy --locked -p berth-validator-yaml --target wasm32-unknown-unknown --lib -- -D warnings
cargo clippy --locked -p berth-validator-yaml --features spec --target wasm32-unknown-unknown --lib -- -D warnings
# The console as trunk builds it: without `shared`'s YAML reader, which the tests bring,
# and with the validator crate without its JavaScript API (linted on its own: clippy
# lints only the packages named).
cargo clippy --locked -p berth-frontend --features app --target wasm32-unknown-unknown --lib -- -D warnings
cargo clippy --locked -p berth-validator --no-default-features --target wasm32-unknown-unknown --lib -- -D warnings

step "console build (trunk, release) and its size"
trunk build --release
bash scripts/validator.sh
bash scripts/bundle-size.sh

step "native tests: shared (unit, property, corpus, doc), server (oneshot, real HTTP, on SQLite and PostgreSQL 15), end-to-end (Chromium)"
# scripts/postgres.sh starts a throwaway PostgreSQL 15, sets BERTH_TEST_POSTGRES for the
# Postgres store and two-server suites, and stops it when the tests end.
# --no-fail-fast: one failing test binary must not hide what the others would say.
tests bash scripts/postgres.sh -- cargo test --locked --no-fail-fast --workspace --exclude berth-frontend --features berth-shared/demo

step "schemathesis: the live server against its OpenAPI document"
# A failure here is counted in the closing line (and fails the script there).
tests bash scripts/schemathesis.sh || true

step "wasm tests in headless Chromium: shared corpus, console components"
tests cargo test --locked -p berth-shared --features demo --target wasm32-unknown-unknown --test corpus
tests cargo test --locked -p berth-frontend --target wasm32-unknown-unknown --test web
tests cargo test --locked -p berth-validator --target wasm32-unknown-unknown --test web

passed=$(grep -oE 'test result: ok\. [0-9]+ passed' "$log" | awk '{s += $4} END {print s + 0}')
failed=$(grep -oE '[0-9]+ failed' "$log" | awk '{s += $1} END {print s + 0}')
printf '\ntests: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
