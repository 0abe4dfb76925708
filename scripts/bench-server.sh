#!/usr/bin/env bash
# Load test of the server over HTTP: builds the release `berth`, starts it on a free
# loopback port over a temp data directory and a catalog with ample quota, and runs
# wrk against
#   GET  /healthz            (the baseline: routing and HTTP only)
#   POST /api/v1/validate    (the PyTorch example: parse + check)
#   POST /api/v1/tasks       (durable submits of a task that runs `true` and ends)
#   POST /api/v1/tasks       (durable submits of a gang that queues: too large to fit
#                             now, within quota, so no process starts)
# printing requests/s and the ratio to /healthz measured in the same run.
# Settings: WRK_THREADS (2), WRK_CONNECTIONS (32), WRK_DURATION (10s); BERTH_BIN runs
# that binary instead of building one (to compare with an older build in the same run).
# WRK_ROUNDS (1): /healthz and validate are measured alternately that many times, and
# each is the median of its rounds, so that a change in the machine's load (other
# work on the same cores) weighs on both alike.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
threads="${WRK_THREADS:-2}"
connections="${WRK_CONNECTIONS:-32}"
duration="${WRK_DURATION:-10s}"
rounds="${WRK_ROUNDS:-1}"

if ! command -v wrk >/dev/null; then
  echo "wrk is missing: run scripts/install-tools.sh" >&2
  exit 1
fi
berth="${BERTH_BIN:-}"
if [ -z "$berth" ]; then
  cargo build --release -p berth-server --bin berth >&2
  berth="$target/release/berth"
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
  stop
  rm -rf "$work"
}
trap cleanup EXIT

# The demo catalog, with room for every submit: alice's reserved A100 quota in
# Beijing is made huge, and one of the pool's 16 A100 nodes is marked busy so that a
# gang of 16 whole nodes waits.
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
file = json.load(open("shared/demo/catalog.json"))
for q in file["catalog"]["quotas"]:
    if q["pool"] == "bj-a-shared" and q["spec"] == "a100-1g" and q["kind"] == "reserved":
        q["limit"] = {"gpu": 10**9, "vcpu": 12 * 10**9, "memory_gib": 120 * 10**9}
file["usage"]["nodes"]["bj-a-a100-00"] = {"gpu": 8, "vcpu": 96, "memory_gib": 960}
json.dump(file, open(f"{work}/catalog.json", "w"))

example = json.load(open("shared/examples/pytorch.json"))
json.dump(example, open(f"{work}/validate.json", "w"))

def task(command, units, workers):
    spec = json.loads(json.dumps(example))
    spec["basic"].update(region="cn-north", cluster="bj-a")
    spec["compute"] = {"kind": "reserved", "pool": "bj-a-shared", "workers": workers,
                       "instance_type": "gpu", "specs": ["a100-1g"], "units_per_node": units}
    spec["environment"].update(command=command, storage=[], datasets=[], models=[])
    spec["advanced"]["ssh"] = False
    spec["advanced"]["fault_tolerance"] = {"enabled": False, "max_retries": 0}
    return spec

json.dump(task("true", 1, 0), open(f"{work}/runs.json", "w"))
json.dump(task("true", 8, 15), open(f"{work}/queues.json", "w"))
PY

for name in validate runs queues; do
  cat > "$work/$name.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = io.open("$work/$name.json")
wrk.body = file:read("*a")
file:close()
LUA
done

mkdir -p "$work/dist"
# Starts a server on a fresh data directory ($1) and sets url.
start() {
  stop
  mkdir -p "$work/$1"
  # Made before the server starts: the loop below reads it at once (a race otherwise).
  : > "$work/out"
  BERTH_ADDR=127.0.0.1:0 BERTH_DATA_DIR="$work/$1" BERTH_DIST="$work/dist" \
    BERTH_CATALOG="$work/catalog.json" RUST_LOG=error \
    "$berth" > "$work/out" 2> "$work/err" &
  server_pid=$!
  url=""
  for _ in $(seq 100); do
    url="$(sed -n 's/^Berth is running at \(.*\)\/$/\1/p' "$work/out")"
    [ -n "$url" ] && break
    sleep 0.1
  done
  [ -n "$url" ] || { cat "$work/err" >&2; exit 1; }
}
stop() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}

# Requests/s from a wrk run, failing when any answer was not 2xx.
run() {
  local out
  out="$(wrk -t"$threads" -c"$connections" -d"$duration" "$@")"
  if grep -q "Non-2xx" <<<"$out"; then
    echo "$out" >&2
    echo "some answers were not 2xx" >&2
    exit 1
  fi
  awk '/^Requests\/sec:/ { print $2 }' <<<"$out"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; wrk -t$threads -c$connections -d$duration, $rounds round(s)" >&2
# Each submit run starts on an empty store, so neither sees the other's tasks (the
# tasks that run end and trigger admission passes for a while after their run).
start data-1
median() { tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
healthzs=""
validates=""
for _ in $(seq "$rounds"); do
  healthzs="$healthzs $(run "$url/healthz")"
  validates="$validates $(run -s "$work/validate.lua" "$url/api/v1/validate")"
done
[ "$rounds" -gt 1 ] && echo "rounds: /healthz$healthzs; validate$validates" >&2
healthz="$(median <<<"${healthzs# }")"
validate="$(median <<<"${validates# }")"
runs="$(run -s "$work/runs.lua" "$url/api/v1/tasks")"
start data-2
queues="$(run -s "$work/queues.lua" "$url/api/v1/tasks")"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

printf '%-44s %12s %10s\n' "endpoint" "requests/s" "/ healthz"
for row in "GET /healthz:$healthz" "POST /api/v1/validate (PyTorch example):$validate" \
  "POST /api/v1/tasks (runs true):$runs" "POST /api/v1/tasks (queues):$queues"; do
  name="${row%:*}"
  rate="${row##*:}"
  printf '%-44s %12.0f %10.4f\n' "$name" "$rate" "$(awk -v a="$rate" -v b="$healthz" 'BEGIN { print a / b }')"
done
