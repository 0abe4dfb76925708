//! The package's JavaScript API: a [`Validator`] made once from the catalog, user and
//! usage, and the one-shot `validateTask` and `planTask`.

use serde::Serialize;
use shared::usage::Usage;
use shared::{Catalog, Check, Lang, User};
use wasm_bindgen::prelude::*;

// The results' types for TypeScript (`berth_validator.d.ts`; stripped from the wasm): a
// portal had `any` for every result. The plan's parts are the `Plan` schema of
// `GET /api/v1/openapi.json`, typed there in full.
#[wasm_bindgen(typescript_custom_section)]
const RESULTS: &str = r#"
/** A finding, as `POST /api/v1/validate` answers it. */
export interface Issue {
  /** The field it is about, as its control is named (`environment.env[2].name`); empty for the whole spec. */
  path: string;
  /** The rule's stable code (`env.name.invalid`). */
  code: string;
  /** What the message names, by name; only when the code has any. */
  params?: Record<string, unknown>;
  /** An error blocks submitting; a warning or info does not. */
  severity: "error" | "warning" | "info";
  /** What is wrong and how to fix it, in the language asked for. */
  message: string;
}

/** Whether and where the task would start now: the `Plan` schema of `GET /api/v1/openapi.json`. */
export interface Plan {
  kind: "reserved" | "on_demand" | "spot" | "idle";
  /** The pool's id. */
  pool: string;
  /** Pods that need a spec: the master or head, and the workers. */
  replicas: number;
  /** Every spec of the priority list the catalog has, in order, with its verdict. */
  candidates: Record<string, unknown>[];
  /** `{ outcome: "now", index, nodes }`, `{ outcome: "queue", index, reason }` or `{ outcome: "blocked" }`. */
  outcome: { outcome: "now" | "queue" | "blocked"; [part: string]: unknown };
  /** Idle offers of the spec the task would use, for idle and reserved tasks that accept idle. */
  idle: Record<string, unknown>[];
}

/** What `check` answers: every finding, and the plan (`null` while the spec is too incomplete). */
export interface CheckResult {
  issues: Issue[];
  plan: Plan | null;
}
"#;

/// Checks task specs against one catalog, for one user, with the live usage last set.
#[wasm_bindgen]
pub struct Validator {
    catalog: Catalog,
    user: User,
    usage: Usage,
}

#[wasm_bindgen]
impl Validator {
    /// `new Validator(catalog, user, usage?)`: the catalog, user and usage as
    /// `GET /api/v1/catalog` answers them (none in use when `usage` is left out).
    ///
    /// # Errors
    ///
    /// A string when the catalog, user or usage is not of the documented shape, or the
    /// catalog has no regions or the user no name (an empty object reads as either).
    #[wasm_bindgen(constructor)]
    pub fn new(
        catalog: &JsValue,
        user: &JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "any")] usage: &JsValue,
    ) -> Result<Validator, JsValue> {
        // The form's `mountTaskForm` takes the whole answer: given here, it was refused
        // for its `user` with no word of the mix-up (portal explorer).
        let catalog: Catalog = from_js(catalog, "catalog").map_err(|e| {
            JsValue::from_str(&format!(
                "{}; is it the `catalog` of GET /api/v1/catalog, not the whole answer?",
                e.as_string().unwrap_or_default()
            ))
        })?;
        let user: User = from_js(user, "user")?;
        // Every field has a default, so `{}` reads as a catalog or a user: then every
        // spec would be refused for its region or its group, blamed on the spec.
        if catalog.regions.is_empty() {
            return Err(JsValue::from_str(
                "catalog has no regions: is it the `catalog` of GET /api/v1/catalog?",
            ));
        }
        if user.name.is_empty() {
            return Err(JsValue::from_str(
                "user has no name: is it the `user` of GET /api/v1/catalog?",
            ));
        }
        Ok(Self::from_parts(catalog, user, usage_from_js(usage)?))
    }

    /// `setUsage(usage)`: checks from now on see this live usage (`undefined` for none).
    ///
    /// # Errors
    ///
    /// A string when `usage` is not of the documented shape; the usage before stays.
    #[wasm_bindgen(js_name = setUsage)]
    pub fn set_usage(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "any")] usage: &JsValue,
    ) -> Result<(), JsValue> {
        self.usage = usage_from_js(usage)?;
        Ok(())
    }

    /// `check(spec, lang?)`: `{ issues, plan }` as `POST /api/v1/validate` answers, with
    /// messages in `lang` (`"en"`, the default, or `"zh-CN"`; any tag of either, `"en-US"`,
    /// `"zh"`, reads as it, another language's as English). `spec` is a plain object
    /// or its JSON text; a spec of the wrong shape gives its shape finding and no plan.
    ///
    /// # Errors
    ///
    /// A string when `spec` is neither a plain object nor a string, or `lang` is no string.
    #[wasm_bindgen(unchecked_return_type = "CheckResult")]
    pub fn check(
        &self,
        spec: &JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] lang: JsValue,
    ) -> Result<JsValue, JsValue> {
        let lang = lang_from_js(&lang)?;
        to_js(&self.check_text(&spec_text(spec)?).localized(lang))
    }

    /// `plan(spec)`: only the plan, or `null` while the spec is too incomplete.
    ///
    /// # Errors
    ///
    /// As [`Validator::check`].
    #[wasm_bindgen(unchecked_return_type = "Plan | null")]
    pub fn plan(&self, spec: &JsValue) -> Result<JsValue, JsValue> {
        to_js(&self.check_text(&spec_text(spec)?).plan)
    }
}

impl Validator {
    /// A validator over typed values, for Rust callers.
    pub fn from_parts(catalog: Catalog, user: User, usage: Usage) -> Self {
        Self {
            catalog,
            user,
            usage,
        }
    }

    /// Every finding and the plan for a spec given as JSON text.
    pub fn check_text(&self, text: &str) -> Check {
        shared::check_json(text, &self.catalog, &self.usage, &self.user)
    }
}

/// `createValidator(catalog, user, usage?)`: as `new Validator(...)`.
///
/// # Errors
///
/// As [`Validator::new`].
#[wasm_bindgen(js_name = createValidator)]
pub fn create_validator(
    catalog: &JsValue,
    user: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "any")] usage: &JsValue,
) -> Result<Validator, JsValue> {
    Validator::new(catalog, user, usage)
}

/// `validateTask(spec, catalog, user, usage?, lang?)`: one check with a validator made for
/// it; a [`Validator`] made once is much cheaper per check.
///
/// # Errors
///
/// As [`Validator::new`] and [`Validator::check`].
#[wasm_bindgen(js_name = validateTask, unchecked_return_type = "CheckResult")]
pub fn validate_task(
    spec: JsValue,
    catalog: JsValue,
    user: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "any")] usage: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] lang: JsValue,
) -> Result<JsValue, JsValue> {
    Validator::new(&catalog, &user, &usage)?.check(&spec, lang)
}

/// `planTask(spec, catalog, user, usage?)`: only the plan, or `null` while the spec is too
/// incomplete (see [`validate_task`]).
///
/// # Errors
///
/// As [`Validator::new`] and [`Validator::check`].
#[wasm_bindgen(js_name = planTask, unchecked_return_type = "Plan | null")]
pub fn plan_task(
    spec: JsValue,
    catalog: JsValue,
    user: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "any")] usage: JsValue,
) -> Result<JsValue, JsValue> {
    Validator::new(&catalog, &user, &usage)?.plan(&spec)
}

/// `useRuntimeEnvReader(readRuntimeEnv)`: every check from now on reads RayJob runtime
/// envs with `readRuntimeEnv` from the package's YAML module (`berth_validator_yaml.js`).
#[cfg_attr(
    not(feature = "yaml"),
    doc = "Without it a runtime env is the error `ray.runtime_env.unread`."
)]
#[cfg_attr(
    feature = "yaml",
    doc = "Not needed in this build (`full/`), which reads runtime envs itself: a reader given is used instead of its own."
)]
///
/// # Errors
///
/// A string when `read` is not a function: a reader that cannot be called would have
/// every runtime env said to be unread, blamed on the spec.
#[wasm_bindgen(js_name = useRuntimeEnvReader)]
pub fn use_runtime_env_reader_js(
    #[wasm_bindgen(unchecked_param_type = "(text: string) => string")] read: JsValue,
) -> Result<(), JsValue> {
    use wasm_bindgen::JsCast;
    let read = read.dyn_into::<js_sys::Function>().map_err(|_| {
        JsValue::from_str(
            "useRuntimeEnvReader takes a function: readRuntimeEnv from berth_validator_yaml.js",
        )
    })?;
    crate::use_runtime_env_reader(read);
    Ok(())
}

/// The language of a check's messages: English for a tag of neither language, as the
/// API passes one over (portal explorer: a portal passing `navigator.language` broke for
/// every reader whose browser speaks neither). A lang that is no string is refused, and
/// not named: a spec passed for the lang would have put its hidden values in the error.
fn lang_from_js(lang: &JsValue) -> Result<Lang, JsValue> {
    if lang.is_undefined() || lang.is_null() {
        return Ok(Lang::En);
    }
    let tag = lang
        .as_string()
        .ok_or_else(|| JsValue::from_str("lang must be a string, such as \"en\" or \"zh-CN\""))?;
    Ok(Lang::from_tag(&tag).unwrap_or(Lang::En))
}

/// The spec's JSON text: a string is taken as that text already, which spares the
/// portal a `JSON.stringify` when it holds the text (an editor, a file).
fn spec_text(spec: &JsValue) -> Result<String, JsValue> {
    match spec.as_string() {
        Some(text) => Ok(text),
        None => plain_json(spec, "spec"),
    }
}

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
    // Through JSON text: the engine's JSON.stringify and serde_json's reader beat walking
    // the object field by field across the boundary (BENCHMARKS.md, Console), and the
    // spec's shape findings come from the same reader as the server's.
    js_sys::JSON::stringify(value)
        .map(String::from)
        .map_err(|_| JsValue::from_str(&format!("{what} cannot be written as JSON")))
}

fn from_js<T: serde::de::DeserializeOwned>(value: &JsValue, what: &str) -> Result<T, JsValue> {
    serde_json::from_str(&plain_json(value, what)?)
        .map_err(|e| JsValue::from_str(&format!("{what} is not valid: {e}")))
}

/// Live usage, or none in use when the caller leaves it out.
fn usage_from_js(value: &JsValue) -> Result<Usage, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Usage::new());
    }
    from_js(value, "usage")
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| JsValue::from_str(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}

/// The routes across the boundary that the JSON text route was chosen over, kept to
/// measure them again (`scripts/bench-validator.sh`).
#[cfg(feature = "bench")]
#[wasm_bindgen]
impl Validator {
    /// `checkVia(spec, route)`: as `check(spec)` in English, by `route`: `"text"` (what
    /// `check` does), `"swb-in"` (the spec read by serde-wasm-bindgen into a JSON value),
    /// `"swb-out"` (the answer written by serde-wasm-bindgen), `"swb"` (both) or
    /// `"no-out"` (as `"text"`, but only the number of findings crosses back: what the
    /// answer's way out costs).
    ///
    /// # Errors
    ///
    /// As [`Validator::check`], or an unknown route.
    #[wasm_bindgen(js_name = checkVia)]
    pub fn check_via(&self, spec: &JsValue, route: &str) -> Result<JsValue, JsValue> {
        let swb_in = matches!(route, "swb-in" | "swb");
        let swb_out = matches!(route, "swb-out" | "swb");
        if !swb_in && !swb_out && !matches!(route, "text" | "no-out") {
            return Err(JsValue::from_str(&format!("unknown route {route:?}")));
        }
        let check = if swb_in {
            let value: serde_json::Value = serde_wasm_bindgen::from_value(spec.clone())?;
            match shared::parse_value(value) {
                Ok(spec) => shared::check(&spec, &self.catalog, &self.usage, &self.user),
                Err(issues) => Check { issues, plan: None },
            }
        } else {
            self.check_text(&spec_text(spec)?)
        };
        let answer = check.localized(Lang::En);
        if route == "no-out" {
            #[allow(clippy::cast_precision_loss)] // a handful of findings
            return Ok(JsValue::from_f64(answer.issues.len() as f64));
        }
        if swb_out {
            Ok(answer.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?)
        } else {
            to_js(&answer)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_validator_checks_like_the_crate_and_keeps_nothing_between_checks() {
        let validator = Validator::from_parts(
            shared::demo::catalog(),
            shared::demo::user(),
            shared::demo::usage(),
        );
        let good = validator.check_text(shared::demo::PYTORCH_EXAMPLE);
        assert!(!good.issues.has_errors(), "{}", good.issues);
        let bad = validator.check_text(r#"{"compute": {"workers": "two"}}"#);
        assert_eq!(bad.issues.codes(), ["value.invalid"]);
        assert_eq!(bad.plan, None);
        // The bad spec left no trace: the good one checks as before.
        assert_eq!(validator.check_text(shared::demo::PYTORCH_EXAMPLE), good);
    }

    #[test]
    fn usage_is_what_the_plan_sees() {
        let idle =
            Validator::from_parts(shared::demo::catalog(), shared::demo::user(), Usage::new());
        let busy = Validator::from_parts(
            shared::demo::catalog(),
            shared::demo::user(),
            shared::demo::usage(),
        );
        let spec = shared::demo::PYTORCH_EXAMPLE;
        let expected = shared::check_json(
            spec,
            &shared::demo::catalog(),
            &shared::demo::usage(),
            &shared::demo::user(),
        );
        assert_eq!(busy.check_text(spec), expected);
        assert_ne!(
            idle.check_text(spec).plan,
            expected.plan,
            "the demo usage takes nodes and quota, so the plan with none in use differs"
        );
    }
}
