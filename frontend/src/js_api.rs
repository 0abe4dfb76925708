//! The validator exported to JavaScript, so other portals can embed Berth's rules.
//!
//! ```js
//! const check = window.wasmBindings.validateTask(spec, catalog, user, usage, "zh-CN");
//! // { issues: [{ path, code, params, severity, message }], plan }
//! ```
//!
//! Inputs and outputs are plain JSON-shaped values (the same shapes as the HTTP API).

use serde::Serialize;
use shared::{Catalog, User};
use wasm_bindgen::prelude::*;

/// The JSON text of a plain JSON-shaped object. Anything else (a `Map`, an array) is
/// refused: every catalog field has a default, so reading one leniently would check
/// against an empty catalog without a word.
fn plain_json(value: &JsValue, what: &str) -> Result<String, JsValue> {
    let plain = value.is_object()
        && !value.is_instance_of::<js_sys::Map>()
        && !js_sys::Array::is_array(value);
    if !plain {
        return Err(JsValue::from_str(&format!(
            "{what} must be a plain object, as JSON.parse returns"
        )));
    }
    // Through JSON text rather than serde-wasm-bindgen: the console already carries
    // serde_json's deserializers for these types, so this adds no second copy to the wasm.
    js_sys::JSON::stringify(value)
        .map(String::from)
        .map_err(|_| JsValue::from_str(&format!("{what} cannot be written as JSON")))
}

fn from_js<T: serde::de::DeserializeOwned>(value: &JsValue, what: &str) -> Result<T, JsValue> {
    serde_json::from_str(&plain_json(value, what)?)
        .map_err(|e| JsValue::from_str(&format!("{what} is not valid: {e}")))
}

/// Live usage, or none in use when the caller leaves it out.
fn usage_from_js(value: &JsValue) -> Result<shared::usage::Usage, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(shared::usage::Usage::new());
    }
    from_js(value, "usage")
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| JsValue::from_str(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}

/// `validateTask(spec, catalog, user, usage?, lang?)`: the findings and the plan, as
/// `POST /api/v1/validate` answers; `usage` is `GET /api/v1/catalog`'s live usage (none
/// in use when left out), `lang` is `"en"` (the default) or `"zh-CN"`.
///
/// # Errors
///
/// A string when the catalog or user is not of the documented shape.
#[wasm_bindgen(js_name = validateTask)]
pub fn validate_task(
    spec: JsValue,
    catalog: JsValue,
    user: JsValue,
    usage: JsValue,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    let catalog: Catalog = from_js(&catalog, "catalog")?;
    let user: User = from_js(&user, "user")?;
    let usage = usage_from_js(&usage)?;
    let lang = match lang.as_deref() {
        None | Some("en") => shared::Lang::En,
        Some("zh-CN") => shared::Lang::Zh,
        Some(other) => {
            return Err(JsValue::from_str(&format!(
                "lang must be \"en\" or \"zh-CN\", not {other:?}"
            )));
        }
    };
    // A wrong shape gives a check with the shape findings, as on the server.
    let check = shared::check_json(&plain_json(&spec, "spec")?, &catalog, &usage, &user);
    to_js(&check.localized(lang))
}

/// `planTask(spec, catalog, user, usage?)`: only the plan, or `null` while the spec is too incomplete.
///
/// # Errors
///
/// A string when the catalog or user is not of the documented shape.
#[wasm_bindgen(js_name = planTask)]
pub fn plan_task(
    spec: JsValue,
    catalog: JsValue,
    user: JsValue,
    usage: JsValue,
) -> Result<JsValue, JsValue> {
    let catalog: Catalog = from_js(&catalog, "catalog")?;
    let user: User = from_js(&user, "user")?;
    let usage = usage_from_js(&usage)?;
    let check = shared::check_json(&plain_json(&spec, "spec")?, &catalog, &usage, &user);
    to_js(&check.plan)
}
