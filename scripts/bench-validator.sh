#!/usr/bin/env bash
# Times the validator package in headless Chromium: a validator made once
# (`createValidator(...).check(spec)`, by several routes across the boundary) against
# the one-shot `validateTask(spec, catalog, user, usage)` in the same page, on the demo
# catalog and the PyTorch example. Prints µs per call and the same-run ratios; repeats
# the run BENCH_RUNS times (default 3) and prints the median of the ratios.
# The package is built with `wasm-release` (as shipped) plus the `bench` routes.
set -euo pipefail
source "$(dirname "$0")/env.sh"
runs="${BENCH_RUNS:-3}"; calls="${BENCH_CALLS:-2000}"; rounds="${BENCH_ROUNDS:-7}"
dir="$(mktemp -d)"
# Chromium's profiles (chromedriver's and drive.py's) in the run's folder, removed at
# the end: chromedriver leaves its own behind.
export TMPDIR="$dir"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$dir"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

BERTH_VALIDATOR_FEATURES=bench BERTH_VALIDATOR_OUT="$dir/validator" bash scripts/validator.sh
cp frontend/validator/bench/bench.html "$dir/index.html"
cp shared/demo/catalog.json shared/examples/pytorch.json "$dir/"

web=$(free_port)
python3 -m http.server --bind 127.0.0.1 --directory "$dir" "$web" >/dev/null 2>&1 &
pids+=($!)
drv=$(free_port)
"${CHROMEDRIVER:-/usr/bin/chromedriver}" --port="$drv" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  if python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$drv/status'); u.urlopen('http://127.0.0.1:$web/')" 2>/dev/null; then break; fi
  sleep 0.1
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 frontend/validator/bench/drive.py "http://127.0.0.1:$drv" "http://127.0.0.1:$web/index.html" "$runs" "$calls" "$rounds"
