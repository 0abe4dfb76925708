//! The validator package's optional second module: the YAML reader for RayJob runtime
//! envs, which the package's main module leaves out (about a fifth of its bytes, and only
//! a RayJob with a runtime env needs it). Built by `scripts/validator.sh` beside it, and
//! again with the feature `spec` into `dist/yaml/` for the console (`scripts/yaml-module.sh`), which fetches it when
//! it first meets a runtime env or a spec imported as YAML.
//!
//! ```js
//! import initYaml, { readRuntimeEnv } from "/validator/berth_validator_yaml.js";
//! await initYaml();
//! useRuntimeEnvReader(readRuntimeEnv); // from berth_validator.js
//! ```

use wasm_bindgen::prelude::*;

/// As in the main module: talc is smaller than Rust's default dlmalloc.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// `readYamlSpec(text)`: a spec written as YAML, read for the console's import, in the
/// form `shared::yaml_spec::set_yaml_spec_reader` takes. Only in the console's build
/// (feature `spec`).
#[cfg(feature = "spec")]
#[wasm_bindgen(js_name = readYamlSpec)]
#[must_use]
pub fn read_yaml_spec(text: &str) -> String {
    shared::yaml_spec::read_yaml_spec(text)
}

/// `readRuntimeEnv(text)`: the runtime env read as Ray reads it (PyYAML's safe loader),
/// in the form the main module's `useRuntimeEnvReader` takes.
#[wasm_bindgen(js_name = readRuntimeEnv)]
#[must_use]
pub fn read_runtime_env(text: &str) -> String {
    shared::validate::read_runtime_env(text)
}
