#!/usr/bin/env bash
# Keystroke to paint on the create form (/new) against a bare <input> injected on the same
# page, in headless Debian Chromium, unthrottled and with the CPU throttled 4x through the
# DevTools protocol (Emulation.setCPUThrottlingRate). Builds the console
# (`trunk build --release`) and a debug `berth` (it only serves files and the demo
# catalog), starts both on free loopback ports with a temp data directory, starts
# chromedriver, and runs scripts/bench-form.py (Python's standard library only), which
# restores the PyTorch example as the form's draft and prints the figures as a
# Markdown table: the median over the runs, ratios to the bare input in the same run.
# Settings: BENCH_RUNS (3), BENCH_SAMPLES (200 per target), BENCH_WARMUP (30);
# BENCH_NO_BUILD=1 uses the dist/ and berth already built.
# Not part of scripts/test.sh: speed is measured here, never asserted in tests.
set -euo pipefail
source "$(dirname "$0")/env.sh"
target="${CARGO_TARGET_DIR:-$root/target}"
runs="${BENCH_RUNS:-3}"
samples="${BENCH_SAMPLES:-200}"
warmup="${BENCH_WARMUP:-30}"

if [ "${BENCH_NO_BUILD:-0}" != 1 ]; then
  trunk build --release >&2
  cargo build --locked -p berth-server --bin berth >&2
fi
[ -f dist/index.html ] || { echo "no dist/: run trunk build --release" >&2; exit 1; }

work="$(mktemp -d)"
server_pid=""
driver_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  # chromedriver runs in its own process group, with the Chromium it started.
  if [ -n "$driver_pid" ]; then
    kill -TERM -- "-$driver_pid" 2>/dev/null || true
    wait "$driver_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

BERTH_ADDR=127.0.0.1:0 BERTH_DATA_DIR="$work/data" BERTH_DIST="$root/dist" RUST_LOG=error \
  "$target/debug/berth" > "$work/out" 2> "$work/err" &
server_pid=$!
url=""
for _ in $(seq 100); do
  url="$(sed -n 's/^Berth is running at \(.*\)\/$/\1/p' "$work/out")"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$work/err" >&2; exit 1; }

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
setsid "${CHROMEDRIVER:-/usr/bin/chromedriver}" --port="$port" > "$work/driver.log" 2>&1 &
driver_pid=$!
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/status" > /dev/null && break
  sleep 0.1
done

echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(chromium --version 2>/dev/null | tail -1)" >&2
python3 "$root/scripts/bench-form.py" "$url" "http://127.0.0.1:$port" \
  "$root/shared/examples/pytorch.json" "$runs" "$samples" "$warmup"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
