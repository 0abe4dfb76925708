//! Validation: one entry point, [`check`], that both the console and the server call.
//!
//! Rules live in one file per form section. Each returns findings in rule order and
//! never stops at the first one. Compute findings are derived from the same
//! [`Plan`](crate::quota::Plan) the console shows, so they always agree.

mod advanced;
mod basic;
mod code;
pub mod command;
mod compute;
#[cfg(test)]
mod derived;
mod environment;
mod image_ref;
mod issue;
mod mounts;
mod parse;
#[cfg(feature = "yaml")]
mod pyyaml;
mod ray;
mod runtime_env;
mod seen;
mod shape;
mod syntax;

pub use crate::path::{FieldPath, Segment};
pub(crate) use crate::path::{field_key, field_path};
pub use basic::{TagFilter, TagPart};
pub use code::{IssueCode, YamlFault};
pub use issue::{Issue, Lang, LocalizedIssue, Report, Severity, cap_findings};
pub use parse::{check_json, parse_spec, parse_value};
#[cfg(feature = "yaml")]
pub(crate) use pyyaml::tab_place;
pub use runtime_env::{RuntimeEnvReader, set_runtime_env_reader};
#[cfg(feature = "yaml")]
pub use runtime_env::{read_runtime_env, runtime_env_other_keys, runtime_env_vars};
pub(crate) use shape::{EXPECTED_KINDS, describe_text};
pub use shape::{Expected, Found};
pub use syntax::{ZERO_WIDTH, is_dns_subdomain, is_label_value, max_name_prefix_len};

/// The findings of `spec` on the demo catalog, with nothing in use, for the demo user:
/// (path, code), for the rules' tests.
#[cfg(test)]
pub(crate) fn demo_findings(spec: &crate::TaskSpec) -> Vec<(String, &'static str)> {
    crate::validate(
        spec,
        &crate::demo::catalog(),
        &Default::default(),
        &crate::demo::user(),
    )
    .issues()
    .iter()
    .map(|i| (i.path.to_string(), i.code.code()))
    .collect()
}

use crate::catalog::{Catalog, Cluster, User};
use crate::quota::Plan;
use crate::task::{SPEC_VERSION, TaskSpec};
use crate::usage::Usage;
use serde::{Deserialize, Serialize};
use std::ops::Deref;

impl Check {
    /// The check as `POST /validate` answers it, with messages in `lang`.
    pub fn localized(self, lang: Lang) -> LocalizedCheck {
        LocalizedCheck {
            issues: self.issues.into_localized(lang),
            plan: self.plan,
            truncated: 0,
        }
    }

    /// [`Check::localized`] with the findings an answer keeps ([`cap_findings`]):
    /// the messages of those left out are never rendered.
    pub fn localized_capped(self, lang: Lang) -> LocalizedCheck {
        let (kept, truncated) = self.issues.capped();
        LocalizedCheck {
            issues: kept.into_localized(lang),
            plan: self.plan,
            truncated,
        }
    }
}

/// The findings and plan for a spec as the API sends them: each finding with its
/// message in one language.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LocalizedCheck {
    /// Every finding.
    pub issues: Vec<LocalizedIssue>,
    /// Whether and where the task would start.
    pub plan: Option<Plan>,
    /// How many findings the server left out of `issues`: it keeps at most 20 of one
    /// code at one field.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub truncated: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl From<LocalizedCheck> for Check {
    fn from(check: LocalizedCheck) -> Self {
        let mut issues = Report::new();
        for issue in check.issues {
            issues.push_issue(issue.into());
        }
        Check {
            issues,
            plan: check.plan,
        }
    }
}

/// What the validator knows while it checks one spec.
pub(crate) struct Cx<'a> {
    pub spec: &'a TaskSpec,
    pub catalog: &'a Catalog,
    pub usage: &'a Usage,
    pub user: &'a User,
    /// The chosen cluster, once region and cluster resolve.
    pub cluster: Option<&'a Cluster>,
}

/// The report and the plan for one spec: what the form shows.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// Every finding.
    pub issues: Report,
    /// Whether and where the task would start; absent while the compute section is
    /// too incomplete to work out.
    pub plan: Option<Plan>,
}

/// Checks `spec` against `catalog` and its live `usage` for `user`: every rule of
/// SPEC.md sections 2–6, and the quota and gang-fit plan of section 4.
pub fn check(spec: &TaskSpec, catalog: &Catalog, usage: &Usage, user: &User) -> Check {
    let cx = Cx {
        spec,
        catalog,
        usage,
        user,
        cluster: catalog.cluster(&spec.basic.region, &spec.basic.cluster),
    };
    let mut report = Report::new();
    if spec.version != SPEC_VERSION {
        report.push(
            field_path!(TaskSpec: version),
            IssueCode::SpecVersionUnsupported {
                found: spec.version,
                supported: SPEC_VERSION,
            },
        );
    }
    basic::check(&cx, &mut report);
    environment::check(&cx, &mut report);
    mounts::check(&cx, &mut report);
    // The torchrun lint reads the spec the plan uses; the compute findings still follow
    // the command's, in the form's order.
    let mut compute = Report::new();
    let plan = compute::check(&cx, &mut compute);
    command::check(&cx, plan.as_ref(), &mut report);
    report.extend(compute);
    advanced::check(&cx, &mut report);
    ray::check(&cx, &mut report);
    Check {
        issues: report,
        plan,
    }
}

/// The findings for `spec` (see [`check`]).
pub fn validate(spec: &TaskSpec, catalog: &Catalog, usage: &Usage, user: &User) -> Report {
    check(spec, catalog, usage, user).issues
}

/// The spec, normalised and marked valid, when it has no errors.
///
/// # Errors
///
/// The whole report when any finding is an error.
pub fn validated(
    spec: TaskSpec,
    catalog: &Catalog,
    usage: &Usage,
    user: &User,
) -> Result<(Validated<TaskSpec>, Check), Report> {
    let result = check(&spec, catalog, usage, user);
    // Normalised after the check, so the findings still name the fields it drops.
    let spec = spec.normalized();
    if result.issues.has_errors() {
        return Err(result.issues);
    }
    Ok((Validated::new(spec), result))
}

/// Whether a required text field is blank; pushes `value.required` when it is.
///
/// The path is built only when it is needed: building paths for fields that pass was
/// half the cost of checking a valid spec.
pub(crate) fn require(report: &mut Report, value: &str, path: impl FnOnce() -> FieldPath) -> bool {
    if value.trim().is_empty() {
        report.push(path(), IssueCode::ValueRequired);
        false
    } else {
        true
    }
}

/// Whether a field must hold a value: the rules say `value.required` of it when it is
/// blank ([`require`] and the choices' own). For the console, which marks its control
/// `aria-required` before anything is typed; `path` is the field's place without list
/// indices (`environment.env.name` for `environment.env[2].name`). A test blanks each
/// field of complete specs and holds this to what the rules then say.
pub fn required(path: &str) -> Option<Required> {
    REQUIRED
        .iter()
        .find(|(name, _)| *name == path)
        .map(|(_, when)| *when)
}

/// The fields [`required`] names, by their places without list indices.
pub(crate) const REQUIRED: &[(&str, Required)] = {
    use crate::vocab::ResourceKind;
    use Required::{Always, When};
    &[
        ("basic.region", Always),
        ("basic.cluster", Always),
        ("basic.project_group", Always),
        ("basic.name_prefix", Always),
        ("basic.task_type", Always),
        ("basic.time_zone", Always),
        ("basic.tags.key", Always),
        ("environment.image.value", Always),
        ("environment.env.name", Always),
        ("environment.storage.id", Always),
        ("environment.storage.path", Always),
        ("environment.datasets.id", Always),
        ("environment.datasets.path", Always),
        ("environment.models.id", Always),
        ("environment.models.path", Always),
        ("environment.command", Always),
        ("compute.kind", Always),
        ("compute.specs", Always),
        ("advanced.alerts.target", Always),
        (
            "compute.idle_stability",
            When(|s| s.compute.kind == Some(ResourceKind::Idle)),
        ),
        (
            "compute.pool",
            When(|s| s.compute.kind == Some(ResourceKind::Reserved)),
        ),
        (
            "ray.shared_storage.volume",
            When(|s| s.ray.shared_storage.enabled),
        ),
    ]
};

/// When a field must hold a value ([`required`]).
#[derive(Clone, Copy, Debug)]
pub enum Required {
    /// Whatever else the spec says.
    Always,
    /// While the spec is so (the pool, for reserved instances).
    When(fn(&TaskSpec) -> bool),
}

impl Required {
    /// Whether the field must hold a value in `spec`.
    pub fn of(self, spec: &TaskSpec) -> bool {
        match self {
            Required::Always => true,
            Required::When(holds) => holds(spec),
        }
    }
}

/// A spec that passed validation with no errors; only [`validated`] makes one.
///
/// The store and scheduler take this type, so code that skips validation does not compile.
#[derive(Clone, Debug, PartialEq)]
pub struct Validated<T>(T);

impl<T> Validated<T> {
    pub(crate) fn new(inner: T) -> Self {
        Validated(inner)
    }

    /// The validated value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Validated<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

#[cfg(test)]
mod required_tests {
    use super::*;
    use serde_json::{Value, json};

    /// Complete specs of each kind of field [`required`] names: both examples (every
    /// list with an item, an alert, Ray's shared storage on), reserved, idle and with
    /// the storage off.
    fn complete() -> Vec<Value> {
        let read = |text| serde_json::from_str::<Value>(text).expect("the example reads");
        let pytorch = read(crate::demo::PYTORCH_EXAMPLE);
        let mut ray = read(crate::demo::RAY_EXAMPLE);
        ray["environment"]["models"] = pytorch["environment"]["models"].clone();
        ray["environment"]["env"][0]["hidden"] = json!(false);
        ray["advanced"] = pytorch["advanced"].clone();
        ray["advanced"]["ssh"] = json!(false);
        let mut idle = ray.clone();
        idle["compute"]["kind"] = json!("idle");
        idle["compute"]["idle_stability"] = json!("high");
        let mut reserved = pytorch.clone();
        reserved["compute"] = json!({"kind": "reserved", "pool": "sh-a-shared", "workers": 1,
            "instance_type": "gpu", "specs": ["a100-1g"], "units_per_node": 2});
        let mut no_storage = ray.clone();
        no_storage["ray"]["shared_storage"]["enabled"] = json!(false);
        vec![pytorch, ray, idle, reserved, no_storage]
    }

    /// Every place in `value` that holds text or a list, as a JSON pointer and the
    /// field path the findings give it.
    fn places(value: &Value, pointer: &str, path: &str, out: &mut Vec<(String, String)>) {
        let join = |sep: &str, key: &str| {
            if path.is_empty() {
                key.to_owned()
            } else {
                format!("{path}{sep}{key}")
            }
        };
        match value {
            Value::String(_) => out.push((pointer.to_owned(), path.to_owned())),
            Value::Array(items) => {
                out.push((pointer.to_owned(), path.to_owned()));
                for (i, item) in items.iter().enumerate() {
                    places(
                        item,
                        &format!("{pointer}/{i}"),
                        &format!("{path}[{i}]"),
                        out,
                    );
                }
            }
            Value::Object(fields) => {
                for (key, item) in fields {
                    places(item, &format!("{pointer}/{key}"), &join(".", key), out);
                }
            }
            _ => {}
        }
    }

    fn required_at(spec: &TaskSpec) -> Vec<String> {
        demo_findings(spec)
            .into_iter()
            .filter(|(_, code)| *code == "value.required")
            .map(|(path, _)| path)
            .collect()
    }

    #[test]
    fn a_field_is_required_exactly_when_the_rules_say_so_of_it_blank() {
        let mut checked = std::collections::BTreeSet::new();
        for whole in complete() {
            let spec = crate::parse_spec(&whole.to_string()).expect("the spec reads");
            assert_eq!(required_at(&spec), Vec::<String>::new(), "{whole}");
            let mut all = Vec::new();
            places(&whole, "", "", &mut all);
            for (pointer, path) in all {
                // Blank as the form leaves it: empty text, no choice, an empty list.
                let blank = match whole.pointer(&pointer) {
                    Some(Value::Array(_)) => vec![json!([])],
                    _ => vec![json!(""), Value::Null],
                };
                let Some(spec) = blank.into_iter().find_map(|b| {
                    let mut v = whole.clone();
                    *v.pointer_mut(&pointer).expect("the place is there") = b;
                    crate::parse_spec(&v.to_string()).ok()
                }) else {
                    continue; // a choice that cannot be blank (the image's source)
                };
                let bare: String = path
                    .split('[')
                    .map(|s| s.split_once(']').map_or(s, |(_, r)| r))
                    .collect();
                let says = required(&bare).is_some_and(|r| r.of(&spec));
                let rules = required_at(&spec);
                let expected = if says { vec![path.clone()] } else { Vec::new() };
                assert_eq!(rules, expected, "{path} blank in {whole}");
                if says {
                    checked.insert(bare);
                }
            }
        }
        // Each name `required` gives was met blank and held to the rules.
        for (name, _) in REQUIRED {
            assert!(checked.contains(*name), "{name} was never met blank");
        }
    }
}
