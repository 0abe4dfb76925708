//! The validator exported to JavaScript, so other portals can embed Berth's rules.
//!
//! ```js
//! const check = window.wasmBindings.validateTask(spec, catalog, user, usage, "zh-CN");
//! // { issues: [{ path, code, params, severity, message }], plan }
//! const validator = window.wasmBindings.createValidator(catalog, user, usage);
//! validator.check(spec, "zh-CN"); // the same answer, without reading the catalog again
//! ```
//!
//! Inputs and outputs are plain JSON-shaped values (the same shapes as the HTTP API).
//! These are the validator package's exports (`frontend/validator`): the console's wasm
//! carries them through this re-export, so the console and a portal that loads only the
//! small package run the same code.

pub use berth_validator::{Validator, create_validator, plan_task, validate_task};
