//! Storage, dataset and model mounts, and the mount-path rules they share (SPEC.md section 3).

use super::syntax::{is_normalized, is_within};
use super::{Cx, FieldPath, IssueCode, Report, require};
use crate::task::{Mount, RAY_SHARED_STORAGE_PATH};
use std::collections::HashMap;

/// Mounting over these breaks the container.
const SYSTEM_DIRS: [&str; 3] = ["/proc", "/sys", "/dev"];
/// Mounting over these hides the image's own files.
const IMAGE_DIRS: [&str; 6] = ["/opt", "/workspace", "/usr", "/bin", "/lib", "/etc"];
/// Where mounts are recommended.
const RECOMMENDED_DIRS: [&str; 2] = ["/volume", "/mnt"];

#[derive(Clone, Copy, PartialEq)]
enum Source {
    Storage,
    Dataset,
    Model,
}

pub(super) fn check(cx: &Cx, report: &mut Report) {
    let env = &cx.spec.environment;
    let lists: [(Source, &'static str, &[Mount]); 3] = [
        (Source::Storage, "storage", &env.storage),
        (Source::Dataset, "datasets", &env.datasets),
        (Source::Model, "models", &env.models),
    ];
    let ray_storage = cx.spec.is_ray() && cx.spec.ray.shared_storage.enabled;
    // Mounts with a usable path, for the pairwise checks.
    let mut placed: Vec<(Source, &'static str, usize, &Mount)> = Vec::new();
    for (source, key, mounts) in lists {
        for (i, mount) in mounts.iter().enumerate() {
            let at = || FieldPath::of(&["environment", key]).index(i);
            if require(report, &mount.id, || at().key("id"))
                && let Some(cluster) = cx.cluster
            {
                let known = match source {
                    Source::Storage => cluster.volume(&mount.id).is_some(),
                    Source::Dataset => cluster.datasets.iter().any(|d| d.id == mount.id),
                    Source::Model => cluster.models.iter().any(|m| m.id == mount.id),
                };
                if !known {
                    let code = match source {
                        Source::Storage => IssueCode::VolumeUnknown,
                        Source::Dataset => IssueCode::DatasetUnknown,
                        Source::Model => IssueCode::ModelUnknown,
                    };
                    report.push(at().key("id"), code);
                }
            }
            if path_ok(report, || at().key("path"), &mount.path, ray_storage) {
                placed.push((source, key, i, mount));
            }
        }
    }
    let at =
        |key: &'static str, i: usize| FieldPath::of(&["environment", key]).index(i).key("path");
    // One map from path to its first mount, so a body with thousands of mounts costs
    // time linear in the paths' length, not quadratic in their number.
    let mut first: HashMap<&str, (Source, &'static str, usize, &Mount)> =
        HashMap::with_capacity(placed.len());
    for &(source, key, i, mount) in &placed {
        match first.get(mount.path.as_str()) {
            None => {
                first.insert(&mount.path, (source, key, i, mount));
            }
            Some(&(earlier_source, earlier_key, earlier_i, earlier)) => {
                let code = if source == Source::Storage
                    && earlier_source == Source::Storage
                    && earlier.id == mount.id
                {
                    IssueCode::StorageDuplicate
                } else {
                    IssueCode::MountPathConflict {
                        other: FieldPath::of(&["environment", earlier_key])
                            .index(earlier_i)
                            .to_string(),
                    }
                };
                report.push(at(key, i), code);
            }
        }
    }
    for &(_, key, i, mount) in &placed {
        // The outermost mounted ancestor, found by walking the path's own prefixes.
        let parent = mount
            .path
            .match_indices('/')
            .skip(1)
            .map(|(end, _)| &mount.path[..end])
            .find(|p| first.contains_key(p));
        if let Some(parent) = parent {
            report.push(
                at(key, i),
                IssueCode::MountPathNested {
                    parent: parent.to_owned(),
                },
            );
        }
    }
}

/// Single-path rules; true when the path is well formed enough to compare with others.
fn path_ok(report: &mut Report, at: impl Fn() -> FieldPath, path: &str, ray_storage: bool) -> bool {
    if !require(report, path, &at) {
        return false;
    }
    if !path.starts_with('/') {
        report.push(at(), IssueCode::MountPathNotAbsolute);
        return false;
    }
    if path == "/" {
        report.push(at(), IssueCode::MountPathRoot);
        return false;
    }
    if !is_normalized(path) {
        report.push(at(), IssueCode::MountPathNotNormalized);
        return false;
    }
    if SYSTEM_DIRS.iter().any(|d| is_within(path, d)) {
        report.push(at(), IssueCode::MountPathSystem);
        return false;
    }
    if ray_storage && is_within(path, RAY_SHARED_STORAGE_PATH) {
        report.push(at(), IssueCode::MountPathRayReserved);
    } else if let Some(dir) = IMAGE_DIRS.iter().find(|d| is_within(path, d)) {
        report.push(
            at(),
            IssueCode::MountPathShadowsImage {
                dir: (*dir).to_owned(),
            },
        );
    } else if !RECOMMENDED_DIRS.iter().any(|d| is_within(path, d)) {
        report.push(at(), IssueCode::MountPathOutsideRecommended);
    }
    true
}
