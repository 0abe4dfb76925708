#!/usr/bin/env bash
# A throwaway PostgreSQL 15 for tests: initdb in a temporary directory, a free port on
# 127.0.0.1, trust authentication. Two ways to use it:
#
#   bash scripts/postgres.sh -- cargo test ...   runs the command with BERTH_TEST_POSTGRES
#                                                set, then stops the server and removes
#                                                its directory (also on failure);
#   source scripts/postgres.sh; postgres_start   in a script: sets BERTH_TEST_POSTGRES
#                                                and stops the server on exit.
#
# Postgres refuses to run as root, so as root the server runs as the `postgres` user
# Debian's package creates (../shared/TOOLCHAIN.md).
set -euo pipefail

postgres_bin=/usr/lib/postgresql/15/bin

# A TCP port nothing listens on now.
postgres_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

postgres_stop() {
  if [ -n "${postgres_dir:-}" ] && [ -d "$postgres_dir" ]; then
    postgres_as "$postgres_bin/pg_ctl" -D "$postgres_dir/db" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$postgres_dir"
  fi
}

postgres_as() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

postgres_start() {
  if [ ! -x "$postgres_bin/initdb" ]; then
    echo "PostgreSQL 15 is not installed: run scripts/install-tools.sh" >&2
    return 1
  fi
  postgres_dir="$(mktemp -d -t berth-postgres.XXXXXX)"
  trap postgres_stop EXIT
  [ "$(id -u)" = 0 ] && chown postgres "$postgres_dir"
  local port
  port="$(postgres_free_port)"
  postgres_as "$postgres_bin/initdb" -D "$postgres_dir/db" -A trust -U berth --encoding UTF8 --no-locale >"$postgres_dir/initdb.log"
  # TLS offered, as a database across a network does: a certificate of its own, which
  # clients asking for `sslmode=require` take unverified (the store's TLS test).
  postgres_as openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
    -keyout "$postgres_dir/db/server.key" -out "$postgres_dir/db/server.crt" 2>/dev/null
  chmod 600 "$postgres_dir/db/server.key"
  # fsync off: the data is thrown away, and the tests then do not wait on the disk.
  postgres_as "$postgres_bin/pg_ctl" -D "$postgres_dir/db" -w -l "$postgres_dir/log" \
    -o "-p $port -k $postgres_dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300 -c ssl=on" start >/dev/null
  export BERTH_TEST_POSTGRES="postgres://berth@127.0.0.1:$port/postgres"
  echo "PostgreSQL 15 at $BERTH_TEST_POSTGRES (data in $postgres_dir)" >&2
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  [ "${1:-}" = "--" ] && shift
  postgres_start
  if [ "$#" -eq 0 ]; then
    echo "$BERTH_TEST_POSTGRES"
    echo "press Ctrl-C to stop it" >&2
    sleep infinity &
    sleeper=$!
    trap 'kill "$sleeper" 2>/dev/null; postgres_stop' EXIT
    wait "$sleeper" || true
  else
    "$@"
  fi
fi
