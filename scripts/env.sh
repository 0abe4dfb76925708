# Sourced by the run and test scripts: the tool paths and settings both need.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$root/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# wasm-bindgen-test drives Debian's Chromium through chromedriver (../shared/TOOLCHAIN.md).
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER=/usr/bin/chromedriver
# The runner gives the whole suite this long, not each test: the console's 253 component
# tests took 119.6 s of the 120 s this once was, and a slower CI run was killed at it.
export WASM_BINDGEN_TEST_TIMEOUT=900
export WASM_BINDGEN_TEST_WEBDRIVER_JSON="$root/tests/webdriver/chromium.json"
# The wasm builds name crates.io sources in their panic locations by their path in this
# machine's cargo registry (`/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/
# serde_json-1.0.154/src/error.rs`); remapped to the crate's folder, the validator package
# is 107 B smaller in brotli (BENCHMARKS.md). The same flags for every wasm build, whether
# the registry is there yet or not (a fresh machine fetches it later), else builds would
# undo each other's. Cargo adds them to .cargo/config.toml's (a plain cargo build's), so
# `erase_components` is given twice, harmlessly. A cargo home with a space in its path
# cannot be named in this list of flags: its paths stay.
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
wasm_flags="--cfg erase_components"
case "$cargo_home" in
  *[[:space:]]*) ;;
  *) wasm_flags+=" --remap-path-prefix=$cargo_home/registry/src/index.crates.io-1949cf8c6b5b557f=" ;;
esac
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$wasm_flags"
unset wasm_flags cargo_home
cd "$root"
