//! Image and env var rules (SPEC.md section 3).

use super::seen::Seen;
use super::syntax::is_env_name;
use super::{Cx, IssueCode, Report, field_key, field_path, require};
use crate::injected::is_injected;
use crate::task::{EnvVar, HIDDEN_VALUE_MASK, ImageSource, TaskSpec, TaskType};

/// Longest single env value, in bytes.
pub const MAX_ENV_VALUE_BYTES: usize = 32 * 1024;
/// Longest total of all env values, in bytes.
pub const MAX_ENV_TOTAL_BYTES: usize = 256 * 1024;

pub(super) fn check(cx: &Cx, report: &mut Report) {
    image(cx, report);
    env(cx, report);
}

fn image(cx: &Cx, report: &mut Report) {
    let choice = &cx.spec.environment.image;
    let path = field_path!(TaskSpec: environment.image.value);
    if !require(report, &choice.value, || path.clone()) {
        return;
    }
    let ray = cx.spec.is_ray();
    // One push for the image's codes: each call site of a push is code of its own in
    // the validator package (BENCHMARKS.md, its size).
    let code = match choice.source {
        ImageSource::Address => {
            if !super::image_ref::is_image_reference(&choice.value) {
                IssueCode::ImageAddressInvalid
            } else if ray {
                IssueCode::ImageRayUnverified
            } else {
                return;
            }
        }
        source @ (ImageSource::BuiltIn | ImageSource::Custom) => {
            let Some(cluster) = cx.cluster else { return };
            match cluster.image(source, &choice.value) {
                None => IssueCode::ImageUnknown,
                Some(image) if ray && !image.has("ray") => IssueCode::ImageRayMissing,
                Some(image) if ray && !image.has("ray-dashboard") => {
                    IssueCode::ImageRayDashboardMissing
                }
                Some(image)
                    if cx.spec.basic.task_type == Some(TaskType::PyTorchJob)
                        && !image.has("pytorch") =>
                {
                    IssueCode::ImagePytorchMissing
                }
                Some(_) => return,
            }
        }
    };
    report.push(path, code);
}

/// The finding for a non-empty env var name, if any: the rules of SPEC.md section 3,
/// shared by the env list and the RayJob runtime env's `env_vars`. `seen` holds the
/// names before it in the same list.
pub(super) fn name_issue<'a>(cx: &Cx, name: &'a str, seen: &mut Seen<'a, ()>) -> Option<IssueCode> {
    if !is_env_name(name) {
        Some(IssueCode::EnvNameInvalid)
    } else if name.starts_with("KUBERNETES_") {
        Some(IssueCode::EnvNameReservedPrefix)
    } else if !seen.insert(name) {
        Some(IssueCode::EnvNameDuplicate)
    } else if is_injected(name, cx.spec.basic.task_type) {
        Some(IssueCode::EnvNamePlatformInjected)
    } else if cx
        .catalog
        .persistent_env_of(&cx.user.name)
        .any(|p| p.name == name)
    {
        Some(IssueCode::EnvNameShadowsPersistent)
    } else {
        None
    }
}

fn env(cx: &Cx, report: &mut Report) {
    let list = field_path!(TaskSpec: environment.env);
    let mut seen = Seen::new();
    let mut total = 0usize;
    for (i, var) in cx.spec.environment.env.iter().enumerate() {
        let name = || list.index(i).key(field_key!(EnvVar: name));
        if require(report, &var.name, name)
            && let Some(code) = name_issue(cx, &var.name, &mut seen)
        {
            report.push(name(), code);
        }
        // The task's zone reaches its pods as `TZ`, and a var of its own replaces it
        // (`injected::layered`): said, since the form shows the zone as the task's.
        let zone = &cx.spec.basic.time_zone;
        if var.name == "TZ" && !zone.is_empty() && var.value != *zone {
            report.push(
                name(),
                IssueCode::EnvNameOverridesTimeZone { zone: zone.clone() },
            );
        }
        if var.value.len() > MAX_ENV_VALUE_BYTES {
            report.push(
                list.index(i).key(field_key!(EnvVar: value)),
                IssueCode::EnvValueTooLong {
                    max_bytes: MAX_ENV_VALUE_BYTES,
                },
            );
        }
        // A clone of another user's task carries their hidden values as the mask: sent
        // as it is, the task would run with "******" where the secret was.
        if var.value == HIDDEN_VALUE_MASK {
            report.push(
                list.index(i).key(field_key!(EnvVar: value)),
                IssueCode::EnvValueMasked,
            );
        }
        if var.value.contains('\0') {
            report.push(
                list.index(i).key(field_key!(EnvVar: value)),
                IssueCode::EnvValueNul,
            );
        } else if super::syntax::stray_blank(&var.value) || var.value.contains('\r') {
            report.push(
                list.index(i).key(field_key!(EnvVar: value)),
                IssueCode::EnvValueStrayBlank,
            );
        }
        total += var.value.len();
    }
    // A persistent `TZ` replaces the zone the same way, unless the task's own replaces
    // both (said above): said at the zone, as the var is not in the task's list.
    let zone = &cx.spec.basic.time_zone;
    if !zone.is_empty()
        && !cx.spec.environment.env.iter().any(|v| v.name == "TZ")
        && cx
            .catalog
            .persistent_env_of(&cx.user.name)
            .any(|p| p.name == "TZ" && p.value != *zone)
    {
        report.push(
            field_path!(TaskSpec: basic.time_zone),
            IssueCode::EnvNameOverridesTimeZone { zone: zone.clone() },
        );
    }
    if total > MAX_ENV_TOTAL_BYTES {
        report.push(
            list,
            IssueCode::EnvValuesTooLong {
                max_bytes: MAX_ENV_TOTAL_BYTES,
                total,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::IssueCode;
    use crate::task::EnvVar;
    use crate::validate::Lang;

    #[test]
    fn a_tz_var_says_it_overrides_the_task_s_time_zone_and_names_it() {
        let spec = crate::demo::pytorch().with(|s| {
            s.environment.env = vec![EnvVar {
                name: "TZ".into(),
                value: "UTC".into(),
                hidden: false,
            }];
        });
        let said = |lang| -> Vec<(String, IssueCode, String)> {
            crate::validate(
                &spec,
                &crate::demo::catalog(),
                &Default::default(),
                &crate::demo::user(),
            )
            .into_localized(lang)
            .into_iter()
            .map(|i| (i.path.to_string(), i.code, i.message))
            .collect()
        };
        let code = IssueCode::EnvNameOverridesTimeZone {
            zone: "Asia/Shanghai".into(),
        };
        assert_eq!(
            said(Lang::En),
            [(
                "environment.env[0].name".to_owned(),
                code.clone(),
                "a TZ env var (the task's or a persistent one) overrides the time zone Asia/Shanghai; its value wins".to_owned()
            )]
        );
        assert_eq!(
            said(Lang::Zh)[0].2,
            "TZ 环境变量（本任务的或持久环境变量）会覆盖时区 Asia/Shanghai，以该变量的值为准"
        );
        assert_eq!(code.severity(), crate::validate::Severity::Info);
        // The behaviour stays: the pods get the var's value.
        let context = crate::injected::Context {
            user: &crate::demo::user(),
            task: "t",
        };
        let tz: Vec<_> = crate::injected::layered(&spec, context, [])
            .into_iter()
            .filter(|(name, ..)| name == "TZ")
            .map(|(_, value, _)| value)
            .collect();
        assert_eq!(tz, ["UTC"]);
    }

    /// README, known gaps: a persistent env var `TZ` replaces the task's time zone in its
    /// pods (`injected::layered`: the zone, then persistent vars, then the task's own),
    /// as the task's own `TZ` does. Said with the same code, at the time zone field,
    /// unless the task's own `TZ` replaces both (then said at that var).
    #[test]
    fn a_persistent_tz_says_it_overrides_the_time_zone_at_the_zone() {
        let tz = |value: &str| crate::catalog::PersistentEnvVar {
            user: "alice".into(),
            name: "TZ".into(),
            value: value.into(),
            hidden: false,
        };
        let found = |persistent: &str, own: Option<&str>| -> Vec<(String, IssueCode)> {
            let mut catalog = crate::demo::catalog();
            catalog.persistent_env.push(tz(persistent));
            let spec = crate::demo::pytorch().with(|s| {
                s.environment.env = own
                    .map(|value| EnvVar {
                        name: "TZ".into(),
                        value: value.into(),
                        hidden: false,
                    })
                    .into_iter()
                    .collect();
            });
            crate::validate(&spec, &catalog, &Default::default(), &crate::demo::user())
                .issues()
                .iter()
                .map(|i| (i.path.to_string(), i.code.clone()))
                .collect()
        };
        let code = IssueCode::EnvNameOverridesTimeZone {
            zone: "Asia/Shanghai".into(),
        };
        assert_eq!(
            found("UTC", None),
            [("basic.time_zone".to_owned(), code.clone())]
        );
        // The same zone changes nothing.
        assert_eq!(found("Asia/Shanghai", None), []);
        // The task's own TZ wins over both: said there, with its shadowing of the
        // persistent var.
        assert_eq!(
            found("UTC", Some("Europe/Berlin")),
            [
                (
                    "environment.env[0].name".to_owned(),
                    IssueCode::EnvNameShadowsPersistent
                ),
                ("environment.env[0].name".to_owned(), code.clone()),
            ]
        );
        // Read at the zone, the message is true of either var.
        let said =
            crate::validate::Issue::new(crate::path::FieldPath::root(), code).message(Lang::En);
        assert!(said.contains("persistent"), "{said}");
    }
}
