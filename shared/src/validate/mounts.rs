//! Storage, dataset and model mounts, and the mount-path rules they share (SPEC.md section 3).

use super::seen::Seen;
use super::syntax::{is_normalized, is_within, stray_blank};
use super::{Cx, FieldPath, IssueCode, Report, field_key, field_path, require};
use crate::catalog::AccessMode;
use crate::manifest::pod::{HOSTS_DIR, SSH_KEY_DIR};
use crate::task::{Environment, Mount, RAY_SHARED_STORAGE_PATH, TaskSpec};

/// Mounting over these breaks the container.
const SYSTEM_DIRS: [&str; 3] = ["/proc", "/sys", "/dev"];
/// Mounting over these hides the image's own files.
const IMAGE_DIRS: [&str; 6] = ["/opt", "/workspace", "/usr", "/bin", "/lib", "/etc"];
/// Where pod SSH writes `hostfile` and `hostfile.hostname` (SPEC.md section 5).
const SSH_HOSTFILE_DIR: &str = "/root";
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
        (
            Source::Storage,
            field_key!(Environment: storage),
            &env.storage,
        ),
        (
            Source::Dataset,
            field_key!(Environment: datasets),
            &env.datasets,
        ),
        (Source::Model, field_key!(Environment: models), &env.models),
    ];
    let ray_storage = cx.spec.is_ray() && cx.spec.ray.shared_storage.enabled;
    // With pod SSH: whether its node lists are mounted too (a PyTorchJob's).
    let ssh = cx.spec.advanced.ssh.then_some(!cx.spec.is_ray());
    // A RayJob's shared storage is a volume too, the one its help says is for
    // checkpoints: advising one more would contradict it.
    if env.storage.is_empty() && !ray_storage {
        report.push(
            field_path!(TaskSpec: environment.storage),
            IssueCode::StorageNone,
        );
    }
    // Mounts with a usable path, for the pairwise checks.
    let mut placed: Vec<(Source, &'static str, usize, &Mount)> = Vec::new();
    for (source, key, mounts) in lists {
        for (i, mount) in mounts.iter().enumerate() {
            let at = || FieldPath::of(&[field_key!(TaskSpec: environment), key]).index(i);
            if require(report, &mount.id, || at().key(field_key!(Mount: id)))
                && let Some(cluster) = cx.cluster
            {
                let known = match source {
                    Source::Storage => match cluster.volume(&mount.id) {
                        None => false,
                        Some(volume) => {
                            let pods = cx.spec.replicas();
                            if volume.access_mode == AccessMode::ReadWriteOnce && pods > 1 {
                                report.push(
                                    at().key(field_key!(Mount: id)),
                                    IssueCode::StorageRwoMultiPod { pods },
                                );
                            }
                            true
                        }
                    },
                    Source::Dataset => cluster.datasets.iter().any(|d| d.id == mount.id),
                    Source::Model => cluster.models.iter().any(|m| m.id == mount.id),
                };
                if !known {
                    let code = match source {
                        Source::Storage => IssueCode::VolumeUnknown,
                        Source::Dataset => IssueCode::DatasetUnknown,
                        Source::Model => IssueCode::ModelUnknown,
                    };
                    report.push(at().key(field_key!(Mount: id)), code);
                }
            }
            if path_ok(
                report,
                || at().key(field_key!(Mount: path)),
                &mount.path,
                ray_storage,
                ssh,
                source != Source::Storage,
            ) {
                placed.push((source, key, i, mount));
            }
        }
    }
    let at = |key: &'static str, i: usize| {
        FieldPath::of(&[field_key!(TaskSpec: environment), key])
            .index(i)
            .key(field_key!(Mount: path))
    };
    // One map from path to its first mount, so a body with thousands of mounts costs
    // time linear in the paths' length, not quadratic in their number.
    let mut first: Seen<(Source, &'static str, usize, &Mount)> = Seen::new();
    for &(source, key, i, mount) in &placed {
        match first.first(&mount.path, (source, key, i, mount)) {
            None => {}
            Some((earlier_source, earlier_key, earlier_i, earlier)) => {
                let code = if source == Source::Storage
                    && earlier_source == Source::Storage
                    && earlier.id == mount.id
                {
                    IssueCode::StorageDuplicate
                } else {
                    IssueCode::MountPathConflict {
                        other: FieldPath::of(&[field_key!(TaskSpec: environment), earlier_key])
                            .index(earlier_i)
                            .to_string(),
                    }
                };
                report.push(at(key, i), code);
            }
        }
    }
    // RayJob shared storage is one more mount, at `/tmp/ray` in every pod. A user mount
    // there is `mount.path.ray_reserved` (and not placed); one beneath it is nested in it.
    let mounted = |p: &str| first.contains(p) || (ray_storage && p == RAY_SHARED_STORAGE_PATH);
    for &(_, key, i, mount) in &placed {
        if let Some(parent) = outermost_mounted_ancestor(&mount.path, mounted) {
            report.push(
                at(key, i),
                IssueCode::MountPathNested {
                    parent: parent.to_owned(),
                },
            );
        }
    }
    // A user mount that encloses `/tmp/ray` (say `/tmp`) hides part of it or is hidden.
    if ray_storage
        && let Some(parent) =
            outermost_mounted_ancestor(RAY_SHARED_STORAGE_PATH, |p| first.contains(p))
    {
        report.push(
            field_path!(TaskSpec: ray.shared_storage.volume),
            IssueCode::MountPathNested {
                parent: parent.to_owned(),
            },
        );
    }
}

/// The outermost proper ancestor of `path` that is mounted, found by walking the
/// path's own prefixes: linear in the path's length, whatever the number of mounts.
fn outermost_mounted_ancestor(path: &str, mounted: impl Fn(&str) -> bool) -> Option<&str> {
    path.match_indices('/')
        .skip(1)
        .map(|(end, _)| &path[..end])
        .find(|p| mounted(p))
}

/// Single-path rules; true when the path is well formed enough to compare with others.
fn path_ok(
    report: &mut Report,
    at: impl Fn() -> FieldPath,
    path: &str,
    ray_storage: bool,
    ssh: Option<bool>,
    read_only: bool,
) -> bool {
    if !require(report, path, &at) {
        return false;
    }
    // First: ` /mnt/ckpt`, pasted, was said not to begin with `/` (recheck explorer).
    if path.split('/').any(stray_blank) {
        report.push(at(), IssueCode::MountPathStrayBlank);
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
    // The container runtime splits volume specs at ':' and refuses control characters.
    if path.chars().any(|c| c == ':' || c.is_control()) {
        report.push(at(), IssueCode::MountPathInvalidChars);
        return false;
    }
    // Linux refuses a name over NAME_MAX (255 bytes) and a path of PATH_MAX (4,096 bytes,
    // its terminating NUL included) or more: the task would fail as its container starts.
    if path.len() >= 4096 || path.split('/').any(|name| name.len() > 255) {
        report.push(at(), IssueCode::MountPathTooLong);
        return false;
    }
    if SYSTEM_DIRS.iter().any(|d| is_within(path, d)) {
        report.push(at(), IssueCode::MountPathSystem);
        return false;
    }
    if ray_storage && path == RAY_SHARED_STORAGE_PATH {
        // Taken by the shared storage: reported here, never again as a conflict.
        report.push(at(), IssueCode::MountPathRayReserved);
        return false;
    }
    // Pod SSH mounts its key there (and a PyTorchJob's node lists): the API server
    // refuses two mounts at one path.
    let ssh_dirs = match ssh {
        Some(hosts) => &[SSH_KEY_DIR, HOSTS_DIR][..1 + usize::from(hosts)],
        None => &[],
    };
    if ssh_dirs.contains(&path) {
        report.push(
            at(),
            IssueCode::MountPathConflict {
                other: field_path!(TaskSpec: advanced.ssh).to_string(),
            },
        );
        return false;
    }
    // Pod SSH's mounts are read-only, and the runtime makes a mount's mount point inside
    // the mount enclosing it: beneath one of them, or above one in a read-only dataset or
    // model, that fails and the pod never starts.
    if let Some(dir) = ssh_dirs.iter().find(|d| is_within(path, d)) {
        report.push(
            at(),
            IssueCode::MountPathSshReadOnly {
                dir: (*dir).to_owned(),
                above: false,
            },
        );
        return false;
    }
    if read_only && let Some(dir) = ssh_dirs.iter().find(|d| is_within(d, path)) {
        report.push(
            at(),
            IssueCode::MountPathSshReadOnly {
                dir: (*dir).to_owned(),
                above: true,
            },
        );
    }
    // Pod SSH writes its keys into /root/.ssh and (with node lists) /root/hostfile: a
    // mount there or above takes their place, and a volume there would keep the task's
    // private key (SPEC audit: beneath /root it was only an info).
    if ssh.is_some()
        && (is_within(SSH_HOSTFILE_DIR, path)
            || is_within(path, "/root/.ssh")
            || (ssh == Some(true)
                && ["/root/hostfile", "/root/hostfile.hostname"]
                    .iter()
                    .any(|file| is_within(path, file))))
    {
        report.push(at(), IssueCode::MountPathHidesSshHostfile);
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

#[cfg(test)]
mod tests {
    use crate::IssueCode;
    use crate::task::{Mount, TaskSpec};
    use crate::validate::Lang;

    /// The findings at the first dataset's path and their messages in both languages.
    fn at_dataset(spec: &TaskSpec) -> Vec<(IssueCode, String, String)> {
        let check = |lang| {
            crate::validate(
                spec,
                &crate::demo::catalog(),
                &Default::default(),
                &crate::demo::user(),
            )
            .into_localized(lang)
            .into_iter()
            .filter(|i| i.path.to_string() == "environment.datasets[0].path")
            .map(|i| (i.code, i.message))
            .collect::<Vec<_>>()
        };
        check(Lang::En)
            .into_iter()
            .zip(check(Lang::Zh))
            .map(|((code, en), (_, zh))| (code, en, zh))
            .collect()
    }

    fn dataset_at(path: &str) -> TaskSpec {
        crate::demo::pytorch().with(|s| {
            s.environment.datasets = vec![Mount {
                id: "ds-c4".into(),
                path: path.into(),
            }];
        })
    }

    #[test]
    fn pod_ssh_read_only_mounts_take_no_mount_inside_or_above_them() {
        // Beneath the node lists' directory of a PyTorchJob with pod SSH.
        let inside = at_dataset(&dataset_at("/etc/berth/hosts/c4"));
        assert_eq!(
            inside,
            [(
                IssueCode::MountPathSshReadOnly {
                    dir: "/etc/berth/hosts".into(),
                    above: false
                },
                "lies inside /etc/berth/hosts, which pod SSH mounts read-only: the pod cannot \
                 start; choose another path"
                    .into(),
                "位于 Pod 间免密登录只读挂载的 /etc/berth/hosts 之内，Pod 将无法启动，请更换路径"
                    .into(),
            )]
        );
        assert_eq!(inside[0].0.severity(), crate::validate::Severity::Error);
        // A dataset is read-only: above the key's directory it leaves no mount point.
        let above = at_dataset(&dataset_at("/etc/berth"));
        assert_eq!(
            above[0],
            (
                IssueCode::MountPathSshReadOnly {
                    dir: "/etc/berth/ssh".into(),
                    above: true
                },
                "is read-only and holds /etc/berth/ssh, where pod SSH mounts: the pod cannot \
                 start; choose another path"
                    .into(),
                "为只读挂载且包含 Pod 间免密登录挂载的 /etc/berth/ssh，Pod 将无法启动，请更换路径"
                    .into(),
            )
        );
        // Beside them, or without pod SSH, nothing of the kind.
        for spec in [
            dataset_at("/etc/berth/sshd"),
            dataset_at("/etc/berth").with(|s| s.advanced.ssh = false),
        ] {
            assert!(
                at_dataset(&spec)
                    .iter()
                    .all(|(code, ..)| code.code() != "mount.path.ssh_read_only"),
                "{:?}",
                spec.environment.datasets
            );
        }
    }
}
