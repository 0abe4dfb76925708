#!/usr/bin/env bash
# Runs every test once, against one build: format and lints, the domain crate natively
# and in headless Chromium, the server over oneshot and real HTTP, the console's
# component tests, and the end-to-end browser journeys against the real server.
set -euo pipefail
source "$(dirname "$0")/env.sh"
step() { printf '\n== %s\n' "$*"; }

step "tools"
bash scripts/install-tools.sh
cargo fetch --locked

step "format and lints"
cargo fmt --all -- --check
cargo clippy --locked --workspace --exclude berth-frontend --all-targets --features berth-shared/demo -- -D warnings
# Benchmarks are native only (criterion), hence --lib --tests here.
cargo clippy --locked -p berth-frontend -p berth-shared --target wasm32-unknown-unknown --lib --tests --features berth-shared/demo -- -D warnings

step "console build (trunk, release)"
trunk build --release

step "native tests: shared (unit, property, corpus, doc), server, end-to-end"
cargo test --locked --workspace --exclude berth-frontend --features berth-shared/demo

step "wasm tests in headless Chromium: shared corpus, console components"
cargo test --locked -p berth-shared --features demo --target wasm32-unknown-unknown --test corpus
cargo test --locked -p berth-frontend --target wasm32-unknown-unknown --test web
