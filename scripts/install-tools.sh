#!/usr/bin/env bash
# Installs the tools Berth's build and tests need, skipping any already present.
# Everything comes from the package registries (rustup, crates.io, Debian, npm):
# prebuilt-binary downloads are not reachable on our machines (see ../shared/TOOLCHAIN.md).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
tools="$root/.tools"
TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
BINARYEN_VERSION=132.0.0

need_chromium=${BERTH_NEED_CHROMIUM:-1}

say() { printf '[install-tools] %s\n' "$*" >&2; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The local backend mounts volumes and writes pod SSH hostfiles through bubblewrap.
if ! command -v bwrap >/dev/null; then
  say "installing bubblewrap from Debian (the local backend's mounts)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq bubblewrap >/dev/null
fi

if [ "$need_chromium" = 1 ]; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null || ! command -v brotli >/dev/null; then
    say "installing chromium, chromium-driver and brotli from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium chromium-driver brotli >/dev/null
  fi
fi

# The Postgres store's suites run against Debian's PostgreSQL 15 (scripts/postgres.sh).
if [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then
  say "installing PostgreSQL 15 from Debian (the Postgres store's tests)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi

# The journeys' screenshots show Chinese text; without a CJK font Chromium draws boxes.
if [ "$need_chromium" = 1 ] && ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then
  say "installing fonts-noto-cjk from Debian (Chinese in the test browser's screenshots)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq fonts-noto-cjk >/dev/null
fi

if ! command -v wrk >/dev/null; then
  say "installing wrk from Debian (for scripts/bench-server.sh)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq wrk >/dev/null
fi

if ! command -v trunk >/dev/null || ! trunk --version | grep -q "$TRUNK_VERSION"; then
  say "installing trunk $TRUNK_VERSION (takes about 11 minutes on 2 cores)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if ! command -v wasm-bindgen >/dev/null || ! wasm-bindgen --version | grep -q "$WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # Not --locked: its lockfile names a crate version the registry no longer serves.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if [ ! -x "$tools/node_modules/.bin/wasm-opt" ]; then
  say "installing wasm-opt (npm binaryen $BINARYEN_VERSION); Debian's binaryen 108 breaks Leptos builds"
  mkdir -p "$tools"
  npm install --silent --no-audit --no-fund --prefix "$tools" "binaryen@$BINARYEN_VERSION" >/dev/null
fi
AXE_CORE_VERSION=4.14.1
if [ ! -f "$tools/node_modules/axe-core/axe.min.js" ] || ! grep -q "\"version\": \"$AXE_CORE_VERSION\"" "$tools/node_modules/axe-core/package.json"; then
  say "installing axe-core $AXE_CORE_VERSION (npm) for the journeys' accessibility checks"
  mkdir -p "$tools"
  npm install --silent --no-audit --no-fund --prefix "$tools" "axe-core@$AXE_CORE_VERSION" >/dev/null
fi
TERSER_VERSION=5.51.4
if [ ! -f "$tools/node_modules/terser/package.json" ] || ! grep -q "\"version\": \"$TERSER_VERSION\"" "$tools/node_modules/terser/package.json"; then
  say "installing terser $TERSER_VERSION (npm) to minify the release builds' JS modules"
  mkdir -p "$tools"
  npm install --silent --no-audit --no-fund --prefix "$tools" "terser@$TERSER_VERSION" >/dev/null
fi
if [ ! -x "$tools/venv/bin/schemathesis" ]; then
  say "installing schemathesis (PyPI) into .tools/venv"
  mkdir -p "$tools"
  python3 -m venv "$tools/venv"
  "$tools/venv/bin/pip" install --quiet --disable-pip-version-check schemathesis
fi
# PyYAML, the reader Ray reads runtime envs with: the oracle of shared/tests/pyyaml_oracle.rs.
if ! "$tools/venv/bin/python" -c 'import yaml' 2>/dev/null; then
  say "installing PyYAML (PyPI) into .tools/venv"
  "$tools/venv/bin/pip" install --quiet --disable-pip-version-check "pyyaml>=6,<7"
fi
say "tools ready"
