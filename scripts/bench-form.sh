#!/usr/bin/env bash
# Keystroke to paint on the create form (/new) against a bare <input> injected on the same
# page, in headless Debian Chromium, unthrottled and with the CPU throttled 4x through the
# DevTools protocol (Emulation.setCPUThrottlingRate; a fixed JS loop timed before and
# after the samples must run about 4x slower, else the throttle is applied again, and
# the run fails if it never takes or lapses). Builds the console
# (`trunk build --release`) and a debug `berth` (it only serves files and the demo
# catalog), starts both on free loopback ports with a temp data directory, starts
# chromedriver, and runs scripts/bench-form.py (Python's standard library only), which
# restores the PyTorch example as the form's draft and prints the figures as a
# Markdown table: the median over the runs, ratios to the bare input in the same run.
# Settings: BENCH_RUNS (3), BENCH_SAMPLES (200 per target), BENCH_WARMUP (30);
# Each target is scrolled into view before its samples (outside the timed part), as a
# typist's field is, and each sample starts two frames after the previous one's, from a
# quiet page; BENCH_SCROLL=0 does neither (the first two passes).
# BENCH_NO_BUILD=1 uses the dist/ and berth already built; BENCH_DIST serves another
# built console (a baseline kept aside) instead of dist/.
# BENCH_PROFILE=1 profiles instead of timing: it builds the console (unless
# BENCH_NO_BUILD=1) and makes a copy of it whose wasm keeps Rust's function names
# (wasm-bindgen --keep-debug on cargo's output, before wasm-opt), serves that, and prints
# per keystroke the DevTools CPU profile's top functions and Chromium's style/layout
# metrics (BENCH_SAMPLES keystrokes per target). BENCH_WASM profiles another cargo wasm
# (a baseline's, kept aside with its dist/) instead of the one cargo built last.
# BENCH_PROFILE_OUT=<dir> also saves each target's raw profile there (<target>.cpuprofile,
# which DevTools' Performance panel opens).
# BENCH_TRACE=1 traces instead of timing: a Chromium trace (devtools.timeline, through
# chromedriver's performance log) of BENCH_SAMPLES keystrokes per target on the release
# console, and per keystroke the main thread's time in style recalculation, layout,
# paint and the rest, with how many elements and layout objects each touched.
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
dist="${BENCH_DIST:-$root/dist}"
[ -f "$dist/index.html" ] || { echo "no $dist/: run trunk build --release" >&2; exit 1; }

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
# Chromium's profiles (chromedriver's and scripts/bench-form.py's) in the run's folder:
# chromedriver leaves its own behind.
export TMPDIR="$work"

if [ "${BENCH_PROFILE:-0}" = 1 ]; then
  # The console's own wasm as trunk builds it (with `app`, which mounts it): cargo's
  # last build of the crate may have been another (a test's, a size measurement's), and
  # then the page never starts. Nothing to do when trunk's build is the last.
  [ -n "${BENCH_WASM:-}" ] || cargo build --locked -p berth-frontend --features app \
    --profile wasm-release --target wasm32-unknown-unknown >&2
  # Unoptimized by wasm-opt, so slower than the release console; proportions hold.
  mkdir "$work/dist"
  wasm-bindgen --target web --keep-debug --no-typescript --out-dir "$work/dist" --out-name berth-frontend \
    "${BENCH_WASM:-$target/wasm32-unknown-unknown/wasm-release/frontend.wasm}"
  cp "$dist"/*.css "$dist"/*.svg "$work/dist/"
  # The integrity hashes are the optimized files' (quoted or not: trunk's release
  # build minifies the page and drops the quotes).
  sed -E 's/ integrity=("[^"]*"|[^ >]*)//g' "$dist/index.html" > "$work/dist/index.html"
  dist="$work/dist"
fi

# Made before the server starts: the shell opens a background job's redirection in the
# job, so the first read below could find no file, and under `set -e` that ended the run.
: > "$work/out"
BERTH_ADDR=127.0.0.1:0 BERTH_DATA_DIR="$work/data" BERTH_DIST="$dist" RUST_LOG=error \
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
if [ "${BENCH_TRACE:-0}" = 1 ]; then
  python3 "$root/scripts/bench-form.py" --trace "$url" "http://127.0.0.1:$port" \
    "$root/shared/examples/pytorch.json" "$samples"
elif [ "${BENCH_PROFILE:-0}" = 1 ]; then
  python3 "$root/scripts/bench-form.py" --profile "$url" "http://127.0.0.1:$port" \
    "$root/shared/examples/pytorch.json" "$samples"
else
  python3 "$root/scripts/bench-form.py" "$url" "http://127.0.0.1:$port" \
    "$root/shared/examples/pytorch.json" "$runs" "$samples" "$warmup"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
