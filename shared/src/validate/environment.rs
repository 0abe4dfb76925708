//! Image and env var rules (SPEC.md section 3).

use super::syntax::is_env_name;
use super::{Cx, FieldPath, IssueCode, Report, require};
use crate::injected::is_injected;
use crate::task::ImageSource;
use std::collections::HashSet;

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
    let path = FieldPath::of(&["environment", "image", "value"]);
    if !require(report, &choice.value, || path.clone()) {
        return;
    }
    let ray = cx.spec.is_ray();
    match choice.source {
        ImageSource::Address => {
            if !super::image_ref::is_image_reference(&choice.value) {
                report.push(path, IssueCode::ImageAddressInvalid);
            } else if ray {
                report.push(path, IssueCode::ImageRayUnverified);
            }
        }
        source @ (ImageSource::BuiltIn | ImageSource::Custom) => {
            let Some(cluster) = cx.cluster else { return };
            match cluster.image(source, &choice.value) {
                None => report.push(path, IssueCode::ImageUnknown),
                Some(image) if ray && !image.has("ray") => {
                    report.push(path, IssueCode::ImageRayMissing)
                }
                Some(image) if ray && !image.has("ray-dashboard") => {
                    report.push(path, IssueCode::ImageRayDashboardMissing)
                }
                Some(_) => {}
            }
        }
    }
}

fn env(cx: &Cx, report: &mut Report) {
    let list = FieldPath::of(&["environment", "env"]);
    let mut seen = HashSet::new();
    let mut total = 0usize;
    for (i, var) in cx.spec.environment.env.iter().enumerate() {
        let name = || list.index(i).key("name");
        if require(report, &var.name, name) {
            if !is_env_name(&var.name) {
                report.push(name(), IssueCode::EnvNameInvalid);
            } else if var.name.starts_with("KUBERNETES_") {
                report.push(name(), IssueCode::EnvNameReservedPrefix);
            } else if !seen.insert(var.name.as_str()) {
                report.push(name(), IssueCode::EnvNameDuplicate);
            } else if is_injected(&var.name, cx.spec.basic.task_type) {
                report.push(name(), IssueCode::EnvNamePlatformInjected);
            } else if cx
                .catalog
                .persistent_env_of(&cx.user.name)
                .any(|p| p.name == var.name)
            {
                report.push(name(), IssueCode::EnvNameShadowsPersistent);
            }
        }
        if var.value.len() > MAX_ENV_VALUE_BYTES {
            report.push(
                list.index(i).key("value"),
                IssueCode::EnvValueTooLong {
                    max_bytes: MAX_ENV_VALUE_BYTES,
                },
            );
        }
        total += var.value.len();
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
