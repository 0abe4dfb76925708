# Sourced by the run and test scripts: the tool paths and settings both need.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$root/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# wasm-bindgen-test drives Debian's Chromium through chromedriver (../shared/TOOLCHAIN.md).
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER=/usr/bin/chromedriver
# The whole suite must finish within it: its 82 component tests took 40 s here.
export WASM_BINDGEN_TEST_TIMEOUT=120
export WASM_BINDGEN_TEST_WEBDRIVER_JSON="$root/tests/webdriver/chromium.json"
cd "$root"
