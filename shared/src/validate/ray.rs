//! RayJob-only rules (SPEC.md section 6).

use super::runtime_env::{self, Refusal, Value};
use super::seen::Seen;
use super::{Cx, FieldPath, IssueCode, Report, field_key, field_path, require};
use crate::catalog::AccessMode;
use crate::injected::CONTEXT;
use crate::task::{Autoscaling, TaskSpec};

/// Top-level runtime-env keys Ray knows.
const RUNTIME_ENV_KEYS: [&str; 14] = [
    "working_dir",
    "py_modules",
    "py_executable",
    "excludes",
    "pip",
    "uv",
    "conda",
    "container",
    "image_uri",
    "env_vars",
    "config",
    "worker_process_setup_hook",
    "nsight",
    "java_jars",
];

pub(super) fn check(cx: &Cx, report: &mut Report) {
    if !cx.spec.is_ray() {
        return;
    }
    let ray = &cx.spec.ray;
    if !ray.runtime_env.trim().is_empty() {
        runtime_env(
            cx,
            &ray.runtime_env,
            field_path!(TaskSpec: ray.runtime_env),
            report,
        );
    }
    let storage = &ray.shared_storage;
    if storage.enabled {
        let path = field_path!(TaskSpec: ray.shared_storage.volume);
        if require(report, &storage.volume, || path.clone())
            && let Some(cluster) = cx.cluster
        {
            match cluster.volume(&storage.volume) {
                None => report.push(path, IssueCode::VolumeUnknown),
                Some(v) if v.access_mode != AccessMode::ReadWriteMany => {
                    report.push(path, IssueCode::SharedStorageNotRwx)
                }
                Some(_) => {}
            }
        }
    }
    if ray.debug.enabled && !(1..=86_400).contains(&ray.debug.keep_secs) {
        report.push(
            field_path!(TaskSpec: ray.debug.keep_secs),
            IssueCode::DebugKeepOutOfRange,
        );
    }
    let scaling = &ray.autoscaling;
    if scaling.enabled {
        let workers = cx.spec.compute.workers;
        let group = field_path!(TaskSpec: ray.autoscaling);
        let max = group.key(field_key!(Autoscaling: max_workers));
        // One push for the range's two codes: each push site is code of its own in the
        // validator package (BENCHMARKS.md, its size).
        let range = if !scaling.holds(workers) {
            Some((
                group,
                IssueCode::AutoscalingRange {
                    min: scaling.min_workers,
                    workers,
                    max: scaling.max_workers,
                },
            ))
        } else if scaling.max_workers == 0 {
            // 0 ≤ 0 ≤ 0 holds, and KubeRay takes maxReplicas 0: the head runs alone with
            // an autoscaler that can never add a worker.
            Some((max.clone(), IssueCode::AutoscalingMaxZero))
        } else {
            None
        };
        if let Some((path, code)) = range {
            report.push(path, code);
        }
        if scaling.max_workers > super::compute::MAX_WORKERS {
            report.push(
                max,
                IssueCode::WorkersOutOfRange {
                    max: super::compute::MAX_WORKERS,
                },
            );
        }
    }
}

/// Longest runtime env, in bytes; Ray's own are a few lines.
pub const MAX_RUNTIME_ENV_BYTES: usize = 64 * 1024;

fn runtime_env(cx: &Cx, text: &str, path: FieldPath, report: &mut Report) {
    if text.len() > MAX_RUNTIME_ENV_BYTES {
        report.push(
            path,
            IssueCode::RuntimeEnvTooLong {
                max_bytes: MAX_RUNTIME_ENV_BYTES,
            },
        );
        return;
    }
    // Read as Ray reads it, with PyYAML's safe loader. Aliases are refused while the
    // parser streams, before anything is copied: a few kilobytes of nested aliases
    // ("billion laughs") would otherwise take all the server's memory, and runtime envs
    // need none.
    let docs = match runtime_env::load(text) {
        Ok(docs) => docs,
        Err(refusal) => {
            let code = match refusal {
                Refusal::Syntax(syntax) => IssueCode::RuntimeEnvInvalidYaml {
                    line: syntax.line,
                    column: syntax.column,
                    fault: syntax.fault,
                    open_line: syntax.open_line,
                    detail: syntax.detail,
                },
                Refusal::Alias => IssueCode::RuntimeEnvAlias,
                Refusal::Tag(tag) => IssueCode::RuntimeEnvTag { tag },
                Refusal::UnhashableKey => IssueCode::RuntimeEnvKeyNotString,
                Refusal::Unread => IssueCode::RuntimeEnvUnread,
            };
            report.push(path, code);
            return;
        }
    };
    let map = match docs.as_slice() {
        // Only comments: PyYAML reads None, and Ray takes no runtime env.
        [] => return,
        [map @ Value::Map(entries)] => {
            // A key given twice is said once; through an index, as a runtime env may
            // hold thousands of keys and is read at every keystroke.
            let (mut seen, mut said): (Seen<()>, Seen<()>) = (Seen::new(), Seen::new());
            for (key, _) in entries {
                if let Value::Str(k) = key
                    && !seen.insert(k.as_str())
                    && said.insert(k.as_str())
                {
                    report.push(
                        path.clone(),
                        IssueCode::RuntimeEnvDuplicateKey { key: k.clone() },
                    );
                }
                match key {
                    Value::Str(k) if RUNTIME_ENV_KEYS.contains(&k.as_str()) => {}
                    Value::Str(k) => report.push(
                        path.clone(),
                        IssueCode::RuntimeEnvUnknownKey { key: k.clone() },
                    ),
                    // Ray passes the mapping as keyword arguments: keys must be strings.
                    _ => report.push(path.clone(), IssueCode::RuntimeEnvKeyNotString),
                }
            }
            map
        }
        _ => {
            report.push(path, IssueCode::RuntimeEnvNotMapping);
            return;
        }
    };
    // `env_vars:` with its entries commented out is None, which Ray leaves unset.
    if let Some(vars) = map.get("env_vars").filter(|v| !matches!(v, Value::Null)) {
        env_vars(cx, vars, path.key("env_vars"), report);
    }
    // Ray refuses both only when both are set: `pip: []` or `conda: {}` is ignored.
    if map.get("pip").is_some_and(Value::is_truthy)
        && map.get("conda").is_some_and(Value::is_truthy)
    {
        report.push(path, IssueCode::RuntimeEnvPipAndConda);
    }
}

/// `env_vars`: strings to strings, and names by the env var rules of SPEC.md section 3.
fn env_vars(cx: &Cx, vars: &Value, path: FieldPath, report: &mut Report) {
    let Value::Map(entries) = vars else {
        report.push(path, IssueCode::RuntimeEnvEnvVars);
        return;
    };
    let mut seen = Seen::new();
    for (name, value) in entries {
        let Value::Str(name) = name else {
            report.push(path.clone(), IssueCode::RuntimeEnvEnvVars);
            continue;
        };
        let at = || path.name(name);
        // Of the names the platform sets, its context (`TASK_UUID`, `X_*`) is taken out
        // of `env_vars` before the submit, and Ray's job supervisor sets the entrypoint's
        // `RAY_ADDRESS` to the cluster over any other: those are the platform's. Ray gives
        // the job's processes the user's value of the others (KubeRay's `RAY_*`).
        if let Some(code) = super::environment::name_issue(cx, name, &mut seen).filter(|c| {
            !matches!(c, IssueCode::EnvNamePlatformInjected)
                || CONTEXT.contains(&name.as_str())
                || name == "RAY_ADDRESS"
        }) {
            report.push(at(), code);
        }
        match value {
            Value::Str(value) if value.contains('\0') => report.push(at(), IssueCode::EnvValueNul),
            Value::Str(value) => {
                // Ray gives the job's processes this `TZ` over the task's zone, as a task
                // env var replaces it in the pods (`environment::env`).
                let zone = &cx.spec.basic.time_zone;
                if name == "TZ" && !zone.is_empty() && value != zone {
                    report.push(
                        at(),
                        IssueCode::EnvNameOverridesTimeZone { zone: zone.clone() },
                    );
                }
            }
            _ => report.push(at(), IssueCode::RuntimeEnvEnvVars),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::validate::Severity;

    fn findings(
        change: impl FnOnce(&mut crate::TaskSpec),
    ) -> Vec<(String, &'static str, Severity)> {
        crate::validate(
            &crate::demo::ray().with(change),
            &crate::demo::catalog(),
            &Default::default(),
            &crate::demo::user(),
        )
        .issues()
        .iter()
        .map(|i| (i.path.to_string(), i.code.code(), i.severity))
        .collect()
    }

    /// SPEC section 6 (min ≤ workers ≤ max) holds for 0 ≤ 0 ≤ 0, but such a range can
    /// never add a worker: KubeRay runs the head alone (maxReplicas 0 is valid) with an
    /// autoscaler that has nothing to do. A warning at max, where it is raised; the task
    /// may still run. A max above 0 says nothing, nor does autoscaling turned off.
    #[test]
    fn an_autoscaling_range_with_max_0_says_it_can_never_add_a_worker() {
        let zero = |s: &mut crate::TaskSpec| {
            s.compute.workers = 0;
            s.ray.autoscaling.min_workers = 0;
            s.ray.autoscaling.max_workers = 0;
        };
        assert_eq!(
            findings(zero),
            [(
                "ray.autoscaling.max_workers".to_owned(),
                "ray.autoscaling.max_workers.zero",
                Severity::Warning
            )]
        );
        assert_eq!(
            findings(|s| {
                zero(s);
                s.ray.autoscaling.max_workers = 1;
            }),
            []
        );
        assert_eq!(
            findings(|s| {
                zero(s);
                s.ray.autoscaling.enabled = false;
            }),
            []
        );
        // Workers above a max of 0: the range is broken, and that is the one finding.
        assert_eq!(
            findings(|s| {
                zero(s);
                s.compute.workers = 2;
            }),
            [(
                "ray.autoscaling".to_owned(),
                "ray.autoscaling.range",
                Severity::Error
            )]
        );
    }

    /// A max past the most workers is the one finding, as workers past it are: the plan
    /// waits (explorer: 2000 also read as four quota and fit errors on 2001 replicas).
    #[test]
    fn a_max_past_the_most_workers_is_said_alone() {
        assert_eq!(
            findings(|s| s.ray.autoscaling.max_workers = 2000),
            [(
                "ray.autoscaling.max_workers".to_owned(),
                "compute.workers.out_of_range",
                Severity::Error
            )]
        );
        let check = crate::check(
            &crate::demo::ray().with(|s| s.ray.autoscaling.max_workers = 2000),
            &crate::demo::catalog(),
            &Default::default(),
            &crate::demo::user(),
        );
        assert!(check.plan.is_none(), "{:?}", check.plan);
    }

    /// `env_vars:` whose entries are all commented out is None to PyYAML, and Ray leaves
    /// a None `env_vars` unset (`RuntimeEnv`), as it does a None `pip`.
    #[test]
    fn env_vars_commented_out_is_no_env_vars() {
        assert_eq!(
            findings(|s| {
                s.ray.runtime_env =
                    "pip:\n  - ray[tune]==2.40.0\nenv_vars:\n  # OMP_NUM_THREADS: \"8\"\n".into()
            }),
            []
        );
        // Another value that is no mapping is still refused.
        assert_eq!(
            findings(|s| s.ray.runtime_env = "env_vars: 8\n".into()),
            [(
                "ray.runtime_env.env_vars".to_owned(),
                "ray.runtime_env.env_vars",
                Severity::Error
            )]
        );
    }
}
