#!/usr/bin/env bash
# Runs schemathesis against the live server: starts the built `berth` binary on a free
# loopback port with a fresh data directory, fuzzes every operation of its
# /api/v1/openapi.json (settings and their reasons in scripts/schemathesis.toml), stops it.
#
# Ends with one cargo-style line, `test result: ok. 1 passed; 0 failed` or `FAILED. 0
# passed; 1 failed`, that scripts/test.sh counts; exits non-zero on any failure.
# BERTH_SCHEMATHESIS_EXAMPLES sets the examples per operation (default 100: about half a
# minute on 2 cores).
set -euo pipefail
source "$(dirname "$0")/env.sh"

examples="${BERTH_SCHEMATHESIS_EXAMPLES:-100}"
schemathesis="$root/.tools/venv/bin/schemathesis"
bin="${CARGO_TARGET_DIR:-$root/target}/debug/berth"
tmp="$(mktemp -d)"
pid=""
result=1

finish() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
  if [ "$result" = 0 ]; then
    echo "schemathesis: test result: ok. 1 passed; 0 failed"
  else
    echo "schemathesis: test result: FAILED. 0 passed; 1 failed"
  fi
}
trap finish EXIT

if [ ! -x "$schemathesis" ]; then
  echo "schemathesis is not installed: run scripts/install-tools.sh" >&2
  exit 1
fi
cargo build --locked --quiet -p berth-server --bin berth

mkdir -p "$tmp/dist" "$tmp/data"
printf '<!doctype html><title>Berth</title>\n' >"$tmp/dist/index.html"
# Only these settings: a config file or catalog from the caller's environment would change
# what is tested.
# Made before the server starts: the shell opens a background job's redirection in the
# job, so the first read below could find no file, and under `set -e` that ended the run.
: >"$tmp/server.out"
env -u BERTH_CONFIG -u BERTH_CATALOG -u BERTH_USER \
  BERTH_ADDR=127.0.0.1:0 BERTH_DATA_DIR="$tmp/data" BERTH_DIST="$tmp/dist" \
  "$bin" >"$tmp/server.out" 2>"$tmp/server.err" &
pid=$!

url=""
for _ in $(seq 300); do
  url="$(sed -n 's|^Berth is running at \(http://[^ ]*/\)$|\1|p' "$tmp/server.out")"
  [ -n "$url" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "berth stopped before it was ready:" >&2
    cat "$tmp/server.err" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "berth did not say it was running within 30 seconds" >&2
  exit 1
fi
echo "berth is running at $url"

# Real tasks, so the /tasks/{id}… and /shared/{token} operations reach more than 404:
# the two example specs (their commands fail at once here: no torchrun, no tune.py), one
# of them shared. Schemathesis uses these ids and that token for the path parameters.
submit() {
  curl -sS --fail-with-body -X POST "${url}api/v1/tasks" \
    -H 'content-type: application/json' -d @"$root/shared/examples/$1.json" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])'
}
pytorch="$(submit pytorch)"
ray="$(submit ray)"
token="$(curl -sS --fail-with-body -X POST "${url}api/v1/tasks/$pytorch/share" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')"
cp "$root/scripts/schemathesis.toml" "$tmp/schemathesis.toml"
cat >>"$tmp/schemathesis.toml" <<TOML

[parameters]
"path.id" = "$pytorch"
"path.token" = "$token"
TOML
echo "tasks $pytorch and $ray, share token $token"

# CI runs one fixed seed with one worker, so a red run replays exactly
# (BERTH_SCHEMATHESIS_SEED picks another seed); elsewhere each run draws its own seed and
# uses two workers, which explores further but lets two scenarios race on one task (ids
# come from idempotency keys, which workers may draw alike).
seed=()
workers=2
if [ -n "${BERTH_SCHEMATHESIS_SEED:-}" ]; then
  seed=(--seed "$BERTH_SCHEMATHESIS_SEED")
  workers=1
elif [ "${CI:-}" = true ]; then
  seed=(--seed 20261129)
  workers=1
fi

# From the temp folder: schemathesis keeps its replay files in the working directory.
# "N failed" in its own output is reworded so the closing count sees only our line.
status=0
(cd "$tmp" && "$schemathesis" --config-file "$tmp/schemathesis.toml" \
  run "${url}api/v1/openapi.json" \
  --max-examples "$examples" --workers "$workers" --request-timeout 10 --no-color "${seed[@]}") 2>&1 |
  sed -E 's/([0-9]+) failed/\1 failing/g' || status=$?
if [ "$status" = 0 ] && kill -0 "$pid" 2>/dev/null; then
  result=0
else
  [ "$status" = 0 ] && echo "berth exited during the run:" >&2 && cat "$tmp/server.err" >&2
  exit 1
fi
