//! RayJob-only rules (SPEC.md section 6).

use super::{Cx, FieldPath, IssueCode, Report, require};
use crate::catalog::AccessMode;
use yaml_rust2::parser::{Event, EventReceiver, Parser};
use yaml_rust2::{Yaml, YamlLoader};

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
    let at = |keys: &[&'static str]| {
        let mut path = FieldPath::of(&["ray"]);
        for key in keys {
            path = path.key(key);
        }
        path
    };
    if !ray.runtime_env.trim().is_empty() {
        runtime_env(&ray.runtime_env, at(&["runtime_env"]), report);
    }
    let storage = &ray.shared_storage;
    if storage.enabled {
        let path = at(&["shared_storage", "volume"]);
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
        report.push(at(&["debug", "keep_secs"]), IssueCode::DebugKeepOutOfRange);
    }
    let scaling = &ray.autoscaling;
    if scaling.enabled {
        let workers = cx.spec.compute.workers;
        if !(scaling.min_workers <= workers && workers <= scaling.max_workers) {
            report.push(
                at(&["autoscaling"]),
                IssueCode::AutoscalingRange {
                    min: scaling.min_workers,
                    workers,
                    max: scaling.max_workers,
                },
            );
        }
        if scaling.max_workers > super::compute::MAX_WORKERS {
            report.push(
                at(&["autoscaling", "max_workers"]),
                IssueCode::WorkersOutOfRange {
                    max: super::compute::MAX_WORKERS,
                },
            );
        }
    }
}

/// Longest runtime env, in bytes; Ray's own are a few lines.
pub const MAX_RUNTIME_ENV_BYTES: usize = 64 * 1024;

/// Counts alias events (`*name`) while the parser reads the text.
struct Aliases(usize);

impl EventReceiver for Aliases {
    fn on_event(&mut self, event: Event) {
        if matches!(event, Event::Alias(_)) {
            self.0 += 1;
        }
    }
}

fn runtime_env(text: &str, path: FieldPath, report: &mut Report) {
    if text.len() > MAX_RUNTIME_ENV_BYTES {
        report.push(
            path,
            IssueCode::RuntimeEnvTooLong {
                max_bytes: MAX_RUNTIME_ENV_BYTES,
            },
        );
        return;
    }
    // The loader copies the anchored node at every alias, so a few kilobytes of nested
    // aliases ("billion laughs") would take all the server's memory. Runtime envs need
    // none: count them in one streaming pass and refuse before loading.
    let mut aliases = Aliases(0);
    if let Err(err) = Parser::new_from_str(text).load(&mut aliases, true) {
        report.push(
            path,
            IssueCode::RuntimeEnvInvalidYaml {
                detail: err.to_string(),
            },
        );
        return;
    }
    if aliases.0 > 0 {
        report.push(path, IssueCode::RuntimeEnvAlias);
        return;
    }
    let docs = match YamlLoader::load_from_str(text) {
        Ok(docs) => docs,
        Err(err) => {
            report.push(
                path,
                IssueCode::RuntimeEnvInvalidYaml {
                    detail: err.to_string(),
                },
            );
            return;
        }
    };
    let Some(Yaml::Hash(map)) = docs.first() else {
        report.push(path, IssueCode::RuntimeEnvNotMapping);
        return;
    };
    if docs.len() > 1 {
        report.push(path, IssueCode::RuntimeEnvNotMapping);
        return;
    }
    for key in map.keys() {
        match key.as_str() {
            Some(k) if RUNTIME_ENV_KEYS.contains(&k) => {}
            Some(k) => report.push(
                path.clone(),
                IssueCode::RuntimeEnvUnknownKey { key: k.to_owned() },
            ),
            None => report.push(
                path.clone(),
                IssueCode::RuntimeEnvUnknownKey {
                    key: format!("{key:?}"),
                },
            ),
        }
    }
    let get = |k: &str| map.get(&Yaml::String(k.to_owned()));
    if let Some(vars) = get("env_vars") {
        let ok = matches!(vars, Yaml::Hash(m) if m.iter().all(|(k, v)| matches!(k, Yaml::String(_)) && matches!(v, Yaml::String(_))));
        if !ok {
            report.push(path.clone(), IssueCode::RuntimeEnvEnvVars);
        }
    }
    if get("pip").is_some() && get("conda").is_some() {
        report.push(path, IssueCode::RuntimeEnvPipAndConda);
    }
}
