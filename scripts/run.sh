#!/usr/bin/env bash
# Runs Berth: installs what is missing, builds the console, starts the server on the
# demo catalog and prints its URL. BERTH_ADDR (default 127.0.0.1:8080) picks the address;
# other settings are flags, BERTH_* variables or a --config file (see README.md).
set -euo pipefail
source "$(dirname "$0")/env.sh"
BERTH_NEED_CHROMIUM=0 bash scripts/install-tools.sh
cargo fetch --locked
trunk build --release
bash scripts/validator.sh
cargo build --release --locked -p berth-server --bin berth
exec ./target/release/berth serve
