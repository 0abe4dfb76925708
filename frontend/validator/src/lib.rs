//! Berth's rules for portals that keep their own UI: a small wasm package with no Leptos
//! in it, built by `scripts/validator.sh` into `dist/validator/`.
//!
//! ```js
//! import init, { createValidator } from "/validator/berth_validator.js";
//! await init();
//! const { catalog, user, usage } = await (await fetch("/api/v1/catalog")).json();
//! const validator = createValidator(catalog, user, usage); // reads the catalog once
//! const { issues, plan } = validator.check(spec, "zh-CN");  // as POST /api/v1/validate answers
//! validator.setUsage(freshUsage);                            // live usage moved on
//! ```
//!
//! RayJob runtime envs are YAML, and the YAML reader is the package's second, optional
//! module (`berth_validator_yaml.js`), loaded only by portals that check them. Until it is
//! given, a runtime env is an error finding, `ray.runtime_env.unread`, which says so:
//!
//! ```js
//! import { useRuntimeEnvReader } from "/validator/berth_validator.js";
//! import initYaml, { readRuntimeEnv } from "/validator/berth_validator_yaml.js";
//! await initYaml();
//! useRuntimeEnvReader(readRuntimeEnv); // from now on every check reads runtime envs
//! ```
//!
//! One difference from the server, for a spec given as JSON text: a key given twice in
//! one object is a finding here (`value.invalid` at the key's path, "appears more than
//! once"), while `POST /api/v1/validate` refuses such a body outright (400,
//! `body.duplicate_key`), as it refuses any JSON that is not strict.
//!
//! A [`Validator`] keeps the typed catalog, so a check reads only the spec: the one-shot
//! `validateTask` reads the whole catalog again on every call.
//!
//! That JavaScript API is the `exports` feature (on by default). The console links this
//! crate without it: it checks through `shared` directly, and carrying the API would
//! cost each of its users about 9 KB (BENCHMARKS.md, the console's bundle); it takes
//! only the runtime-env reader's hand-over below, which both share.

use wasm_bindgen::prelude::*;

#[cfg(feature = "exports")]
mod api;
#[cfg(feature = "exports")]
pub use api::{Validator, create_validator, plan_task, use_runtime_env_reader_js, validate_task};

/// Talc instead of Rust's default dlmalloc for every wasm build that links this crate
/// (the package, and the console): a smaller allocator and no slower per check
/// (BENCHMARKS.md, the validator package's size, third pass). The builds are
/// single-threaded (no `atomics`), which talc's wasm cell requires.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

thread_local! {
    static RUNTIME_ENV_READER: std::cell::RefCell<Option<js_sys::Function>> =
        const { std::cell::RefCell::new(None) };
}

/// Every check from now on reads RayJob runtime envs with `read`, the package's YAML
/// module's `readRuntimeEnv` (`berth_validator_yaml.js`): JavaScript's
/// `useRuntimeEnvReader`. Without it a runtime env is the error `ray.runtime_env.unread`.
/// The console, which links this crate, hands over its own build of that module's reader
/// the same way (`frontend/src/yaml.rs`).
pub fn use_runtime_env_reader(read: js_sys::Function) {
    RUNTIME_ENV_READER.with(|reader| *reader.borrow_mut() = Some(read));
    shared::validate::set_runtime_env_reader(|text| {
        call_reader(
            RUNTIME_ENV_READER.with(|reader| reader.borrow().clone())?,
            text,
        )
    });
}

/// A YAML module's reader called with `text`: its answer, or `None` when it threw or
/// answered with something other than a string.
pub fn call_reader(read: js_sys::Function, text: &str) -> Option<String> {
    // Callers pass a clone out of their cell, not a borrow of it: the reader is JS and
    // may call back in and set another.
    read.call1(&JsValue::NULL, &JsValue::from_str(text))
        .ok()?
        .as_string()
}
