//! The pod template every replica of a task shares: image, env, mounts, resources,
//! node selection, ports, and the objects it needs beside it (hidden env values as a
//! Secret, the SSH key and hostfile names).

use super::Job;
use super::object::Map;
use super::shell::kubelet_literal;
use crate::TaskSpec;
use crate::catalog::{InstanceSpec, Node, Scrape};
use crate::injected::PYTORCH_DISTRIBUTED;
use crate::task::RAY_SHARED_STORAGE_PATH;
use crate::task::TaskType;
use serde::Serialize;

fn is_false(b: &bool) -> bool {
    !*b
}

/// Name of the container port that serves the task's metrics. Not `metrics`: KubeRay
/// gives that name to Ray's own port 8080.
pub const METRICS_PORT_NAME: &str = "task-metrics";

/// Where the SSH key Secret is mounted; the set-up copies it into `/root/.ssh`.
pub const SSH_KEY_DIR: &str = "/etc/berth/ssh";

/// Where the hostfile names are mounted.
pub const HOSTS_DIR: &str = "/etc/berth/hosts";

/// A pod template: `metadata` and `spec`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodTemplate {
    /// Labels and annotations of the pods.
    pub metadata: TemplateMeta,
    /// The pod spec.
    pub spec: PodSpec,
}

/// A pod template's metadata.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateMeta {
    /// Labels.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub labels: Map,
    /// Annotations.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub annotations: Map,
}

/// The part of a pod spec Berth writes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    /// Restart policy; the training operator overwrites it from the replica spec, so
    /// only RayJob templates set it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<&'static str>,
    /// Scheduler, when Volcano admits the gang.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduler_name: Option<String>,
    /// Priority class from the resource priority.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_class_name: Option<String>,
    /// Labels the node must carry.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub node_selector: Map,
    /// The containers; index 0 is the one the operator uses.
    pub containers: Vec<Container>,
    /// Volumes the containers mount.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub volumes: Vec<Volume>,
}

/// One container.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    /// DNS-1123 label.
    pub name: String,
    /// Image reference.
    pub image: String,
    /// Command, with every `$` doubled for the kubelet.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// Env vars, one entry per name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<EnvVar>,
    /// Ports.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ContainerPort>,
    /// Requests equal to limits.
    pub resources: ResourceRequirements,
    /// Mounts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub volume_mounts: Vec<VolumeMount>,
    /// Hooks (the RayJob SSH set-up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lifecycle: Option<Lifecycle>,
}

/// An env var: a literal value or a Secret reference.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvVar {
    /// Name.
    pub name: String,
    /// Literal value, `$` doubled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Where a hidden value comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_from: Option<EnvVarSource>,
}

/// `valueFrom`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvVarSource {
    /// A key of a Secret.
    pub secret_key_ref: KeySelector,
}

/// A key of a named Secret.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeySelector {
    /// Secret name.
    pub name: String,
    /// Key.
    pub key: String,
}

/// A container port.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerPort {
    /// IANA service name, ≤ 15 characters.
    pub name: &'static str,
    /// Port number.
    pub container_port: u32,
    /// `TCP`.
    pub protocol: &'static str,
}

/// Requests and limits.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceRequirements {
    /// Limits.
    pub limits: Map,
    /// Requests, equal to the limits.
    pub requests: Map,
}

impl ResourceRequirements {
    /// Requests equal to limits, for `units` units of `spec`. GPUs only when the spec
    /// has some (`nvidia.com/gpu` is an extended resource: whole numbers, requests equal
    /// limits, k8s/RULES.md section 4).
    pub fn of(spec: &InstanceSpec, units: u32) -> Self {
        let units = u64::from(units);
        let mut limits = Map::new();
        let per = spec.per_unit;
        if per.gpu > 0 {
            limits.insert("nvidia.com/gpu".into(), (per.gpu * units).to_string());
        }
        limits.insert("cpu".into(), (per.vcpu * units).to_string());
        limits.insert("memory".into(), format!("{}Gi", per.memory_gib * units));
        ResourceRequirements {
            requests: limits.clone(),
            limits,
        }
    }

    /// Fixed requests equal to limits.
    pub fn fixed(cpu: &str, memory: &str) -> Self {
        let limits: Map = [("cpu", cpu), ("memory", memory)]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        ResourceRequirements {
            requests: limits.clone(),
            limits,
        }
    }
}

/// A mount.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeMount {
    /// Volume name.
    pub name: String,
    /// Absolute path.
    pub mount_path: String,
    /// Read-only (datasets, models, keys).
    #[serde(skip_serializing_if = "is_false")]
    pub read_only: bool,
    /// Directory of the volume to mount.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sub_path: Option<String>,
}

/// A volume: exactly one source is set.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Volume {
    /// DNS-1123 label, unique in the pod.
    pub name: String,
    /// A PersistentVolumeClaim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub persistent_volume_claim: Option<ClaimSource>,
    /// A Secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<SecretSource>,
    /// A ConfigMap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config_map: Option<ConfigMapSource>,
    /// A directory of the pod's own: the PyTorchJob's shared memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empty_dir: Option<EmptyDirSource>,
}

/// `emptyDir`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EmptyDirSource {
    /// `Memory`: a tmpfs, counted in the container's memory.
    pub medium: String,
    /// The most it may hold, a quantity.
    pub size_limit: String,
}

/// Where a PyTorchJob's shared memory is mounted.
pub const SHM_PATH: &str = "/dev/shm";

/// A PyTorchJob's shared memory: a memory-backed `emptyDir` at `/dev/shm`, up to the
/// container's memory (`memory`, its limit). A container's own is 64 MiB, too small for
/// NCCL between its GPUs and for a DataLoader's workers, which fail with a bus error;
/// the Training Operator adds none, where KubeRay adds one of its own (`shared-mem`) to
/// Ray's pods (platform explorer).
pub fn shared_memory(memory: &str) -> (Volume, VolumeMount) {
    (
        Volume {
            name: "dshm".to_owned(),
            persistent_volume_claim: None,
            secret: None,
            config_map: None,
            empty_dir: Some(EmptyDirSource {
                medium: "Memory".to_owned(),
                size_limit: memory.to_owned(),
            }),
        },
        VolumeMount {
            name: "dshm".to_owned(),
            mount_path: SHM_PATH.to_owned(),
            read_only: false,
            sub_path: None,
        },
    )
}

/// `persistentVolumeClaim`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimSource {
    /// Claim name: the catalog id of the volume, dataset or model.
    pub claim_name: String,
    /// Attach read-only.
    #[serde(skip_serializing_if = "is_false")]
    pub read_only: bool,
}

/// `secret`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SecretSource {
    /// Secret name.
    pub secret_name: String,
    /// File mode of the keys (0400: ssh refuses readable private keys).
    pub default_mode: u32,
}

/// `configMap`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigMapSource {
    /// ConfigMap name.
    pub name: String,
}

/// Container hooks.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Lifecycle {
    /// Run after the container starts.
    pub post_start: LifecycleHandler,
}

/// A hook that runs a command.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LifecycleHandler {
    /// The command.
    pub exec: ExecAction,
}

/// `exec`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecAction {
    /// The command.
    pub command: Vec<String>,
}

/// The name of the Secret holding a task's hidden env values.
pub fn env_secret_name(task: &str) -> String {
    format!("{task}-env")
}

/// The name of the Secret holding a task's SSH key.
pub fn ssh_secret_name(task: &str) -> String {
    format!("{task}-ssh")
}

/// The name of the ConfigMap holding a task's hostfile names.
pub fn hosts_config_map_name(task: &str) -> String {
    format!("{task}-hosts")
}

/// What the training operator sets in every replica of a PyTorchJob (k8s/RULES.md 3.3,
/// 7.2), besides [`PYTORCH_DISTRIBUTED`]. Berth writes no `elasticPolicy`, so none of the
/// elastic `PET_RDZV_*`, `PET_MAX_RESTARTS` or `PET_STANDALONE` is set.
pub const PYTORCH_OPERATOR_ENV: [&str; 6] = [
    "PYTHONUNBUFFERED",
    "PET_MASTER_ADDR",
    "PET_MASTER_PORT",
    "PET_NODE_RANK",
    "PET_NNODES",
    "PET_NPROC_PER_NODE",
];

/// What KubeRay sets in a RayJob's head and worker pods (k8s/RULES.md 3.3), and
/// [`KUBERAY_ENV_PREFIX`]. Its submitter pod's own (`PYTHONUNBUFFERED`,
/// `RAY_DASHBOARD_ADDRESS`, `RAY_JOB_SUBMISSION_ID`) are not in these pods, and the TLS
/// and auth ones come only with features Berth does not turn on.
pub const KUBERAY_ENV: [&str; 8] = [
    "RAY_CLUSTER_NAME",
    "RAY_CLUSTER_NAMESPACE",
    "RAY_IP",
    "RAY_PORT",
    "RAY_ADDRESS",
    "RAY_NODE_TYPE_NAME",
    "RAY_CLOUD_INSTANCE_ID",
    "KUBERAY_GEN_RAY_START_CMD",
];

/// KubeRay's usage-statistics variables, `RAY_USAGE_STATS_*`.
pub const KUBERAY_ENV_PREFIX: &str = "RAY_USAGE_STATS_";

/// Whether the operator of `task_type` sets `name` in the task's pods itself, so a
/// value of the task's would be overridden or clash: exactly the names k8s/RULES.md 3.3
/// lists, not whole prefixes (the validator's warning on `RAY_*` and `PET_*` is broader).
pub fn set_by_operator(name: &str, task_type: Option<TaskType>) -> bool {
    match task_type {
        Some(TaskType::PyTorchJob) => {
            PYTORCH_DISTRIBUTED.contains(&name) || PYTORCH_OPERATOR_ENV.contains(&name)
        }
        Some(TaskType::RayJob) => {
            KUBERAY_ENV.contains(&name) || name.starts_with(KUBERAY_ENV_PREFIX)
        }
        None => false,
    }
}

/// The env of every container of the task, and the hidden values that go into the
/// env Secret.
///
/// Order and precedence: `TZ` from the task's time zone, the user's persistent vars,
/// the task's own (this task's value wins, SPEC.md section 3), then the context vars
/// (the platform wins, section 8), one entry per name because the CRDs key `env` by
/// name (k8s/RULES.md 3.1). The names the operator sets in these pods itself
/// ([`set_by_operator`]) are left out, its values win; any other name, `RAY_*` and
/// `PET_*` ones too, reaches the pods.
pub fn env(job: &Job<'_>) -> (Vec<EnvVar>, Vec<(String, String)>) {
    let task_type = job.spec.task_type();
    let vars = crate::injected::layered(
        job.spec,
        crate::injected::Context {
            user: job.user,
            task: job.task_uuid,
        },
        job.catalog
            .persistent_env_of(&job.user.name)
            .map(|v| (v.name.as_str(), v.value.as_str(), v.hidden)),
    );
    let secret = env_secret_name(job.name);
    let mut hidden = Vec::new();
    let env = vars
        .into_iter()
        .filter(|(name, _, _)| !set_by_operator(name, task_type))
        .map(|(name, value, is_hidden)| {
            if is_hidden {
                let var = EnvVar {
                    value: None,
                    value_from: Some(EnvVarSource {
                        secret_key_ref: KeySelector {
                            name: secret.clone(),
                            key: name.clone(),
                        },
                    }),
                    name: name.clone(),
                };
                hidden.push((name, value));
                var
            } else {
                EnvVar {
                    name,
                    value: Some(kubelet_literal(&value)),
                    value_from: None,
                }
            }
        })
        .collect();
    (env, hidden)
}

/// A RayJob's shared storage, when it has one: the claim of its volume, and the
/// directory of it that the task's pods mount at `/tmp/ray` (its `subPath`), which "clean
/// up on exit" removes. Every task gets its own directory, named as its job, so two
/// RayJobs on one volume never share Ray's session files.
pub fn ray_shared_storage<'a>(spec: &'a TaskSpec, job_name: &str) -> Option<(&'a str, String)> {
    let shared = &spec.ray.shared_storage;
    (spec.is_ray() && shared.enabled).then(|| (shared.volume.as_str(), job_name.to_owned()))
}

/// Volumes and mounts for storage (read-write), datasets and models (read-only) and,
/// for a RayJob, the shared storage at `/tmp/ray`. One volume per catalog item, even
/// when it is mounted at several paths; names are `storage-<i>`, `dataset-<i>`,
/// `model-<i>` and `ray-shared`, never KubeRay's own `shared-mem` or `ray-logs`.
pub fn volumes(job: &Job<'_>) -> (Vec<Volume>, Vec<VolumeMount>) {
    mounted(job, false)
}

/// What a RayJob's submitter pod mounts: the task's datasets and models, and its
/// volumes many nodes may mount (RWX), each read-only at its path, so that a runtime
/// env's `working_dir` or `py_modules` on one of them is there for `ray job submit` to
/// package (Ray explorer: the submitter mounted nothing, and a job with its code on a
/// volume failed before it started). An RWO volume is left out: the submitter may be
/// placed on another node than the pod that has it, and would wait for it for ever.
pub fn submitter_volumes(job: &Job<'_>) -> (Vec<Volume>, Vec<VolumeMount>) {
    mounted(job, true)
}

/// [`volumes`], or [`submitter_volumes`] when `submitter`.
fn mounted(job: &Job<'_>, submitter: bool) -> (Vec<Volume>, Vec<VolumeMount>) {
    let env = &job.spec.environment;
    let mut volumes: Vec<Volume> = Vec::new();
    let mut mounts = Vec::new();
    for (kind, items, read_only) in [
        ("storage", &env.storage, submitter),
        ("dataset", &env.datasets, true),
        ("model", &env.models, true),
    ] {
        let mut ids: Vec<&str> = Vec::new();
        for item in items.iter() {
            // Not `Cluster::volume`, whose second caller changed how the validator
            // package, which has the first, was laid out (136 B more brotli, at its
            // 100 KB goal).
            let rwo = || {
                !job.cluster.volumes.iter().any(|v| {
                    v.id == item.id
                        && matches!(v.access_mode, crate::catalog::AccessMode::ReadWriteMany)
                })
            };
            if submitter && kind == "storage" && rwo() {
                continue;
            }
            let index = match ids.iter().position(|id| *id == item.id) {
                Some(index) => index,
                None => {
                    ids.push(&item.id);
                    volumes.push(claim(
                        format!("{kind}-{}", ids.len() - 1),
                        &item.id,
                        read_only,
                    ));
                    ids.len() - 1
                }
            };
            mounts.push(VolumeMount {
                name: format!("{kind}-{index}"),
                mount_path: item.path.clone(),
                read_only,
                sub_path: None,
            });
        }
    }
    if submitter {
        return (volumes, mounts);
    }
    if let Some((claim_name, sub_path)) = ray_shared_storage(job.spec, job.name) {
        volumes.push(claim("ray-shared".to_owned(), claim_name, false));
        mounts.push(VolumeMount {
            name: "ray-shared".to_owned(),
            mount_path: RAY_SHARED_STORAGE_PATH.to_owned(),
            read_only: false,
            sub_path: Some(sub_path),
        });
    }
    if job.spec.advanced.ssh {
        volumes.push(Volume {
            name: "ssh-key".to_owned(),
            persistent_volume_claim: None,
            secret: Some(SecretSource {
                secret_name: ssh_secret_name(job.name),
                default_mode: 0o400,
            }),
            config_map: None,
            empty_dir: None,
        });
        mounts.push(VolumeMount {
            name: "ssh-key".to_owned(),
            mount_path: SSH_KEY_DIR.to_owned(),
            read_only: true,
            sub_path: None,
        });
        if job.has_hostfile() {
            volumes.push(Volume {
                name: "ssh-hosts".to_owned(),
                persistent_volume_claim: None,
                secret: None,
                config_map: Some(ConfigMapSource {
                    name: hosts_config_map_name(job.name),
                }),
                empty_dir: None,
            });
            mounts.push(VolumeMount {
                name: "ssh-hosts".to_owned(),
                mount_path: HOSTS_DIR.to_owned(),
                read_only: true,
                sub_path: None,
            });
        }
    }
    (volumes, mounts)
}

fn claim(name: String, claim_name: &str, read_only: bool) -> Volume {
    Volume {
        name,
        persistent_volume_claim: Some(ClaimSource {
            claim_name: claim_name.to_owned(),
            read_only,
        }),
        secret: None,
        config_map: None,
        empty_dir: None,
    }
}

/// The labels the nodes hosting `spec` in the task's pool all carry: the node selector
/// for that spec (the pool's labels plus what sets the spec's nodes apart).
pub fn node_labels(job: &Job<'_>, spec: &InstanceSpec) -> Map {
    common_labels(job.pool.nodes.iter(), spec)
}

/// The labels every node hosting `spec` in the task's cluster carries, whatever its
/// pool: a Kueue ResourceFlavor's node labels. Each pool's [`node_labels`] for the spec
/// holds them with the same values, so a pod sized for the spec matches its flavor
/// from any pool (Kueue compares only the flavor's own keys), and every task writes the
/// flavor alike.
pub fn cluster_node_labels(job: &Job<'_>, spec: &InstanceSpec) -> Map {
    common_labels(job.cluster.pools.iter().flat_map(|p| &p.nodes), spec)
}

fn common_labels<'a>(nodes: impl Iterator<Item = &'a Node>, spec: &InstanceSpec) -> Map {
    let mut hosts = nodes.filter(|n| n.hosts(spec));
    let Some(first) = hosts.next() else {
        return Map::new();
    };
    let mut common = first.labels.clone();
    for node in hosts {
        common.retain(|k, v| node.labels.get(k) == Some(v));
    }
    common
}

/// The container port for metrics, when monitoring is on.
pub fn metrics_port(job: &Job<'_>) -> Option<ContainerPort> {
    let monitoring = &job.spec.advanced.monitoring;
    monitoring.enabled.then_some(ContainerPort {
        name: METRICS_PORT_NAME,
        container_port: monitoring.port,
        protocol: "TCP",
    })
}

/// Labels and annotations of every pod: the task label (the PodMonitor selects on it)
/// and, when the cluster scrapes by annotation, the `prometheus.io/*` ones.
pub fn template_meta(job: &Job<'_>) -> TemplateMeta {
    let mut meta = TemplateMeta {
        labels: job.task_labels(),
        annotations: Map::new(),
    };
    let monitoring = &job.spec.advanced.monitoring;
    if monitoring.enabled && job.kube.monitoring == Scrape::Annotations {
        for (k, v) in [
            ("prometheus.io/scrape", "true".to_owned()),
            ("prometheus.io/port", monitoring.port.to_string()),
            ("prometheus.io/path", monitoring.path.clone()),
        ] {
            meta.annotations.insert(k.to_owned(), v);
        }
    }
    meta
}

/// The shell lines that install the SSH key, start `sshd` when the image has it, and
/// write `/root/hostfile.hostname` and `/root/hostfile` (SPEC.md section 5). Each host
/// is resolved for up to 10 minutes (a pod's Service gets its address once the pod
/// runs); a host that never resolves is written by name.
pub fn ssh_setup(with_hostfile: bool) -> String {
    let mut script = format!(
        "mkdir -p /root/.ssh && chmod 700 /root/.ssh\n\
         cp {SSH_KEY_DIR}/id_ed25519 {SSH_KEY_DIR}/id_ed25519.pub {SSH_KEY_DIR}/authorized_keys /root/.ssh/\n\
         chmod 600 /root/.ssh/id_ed25519 /root/.ssh/authorized_keys\n\
         printf 'Host *\\n  StrictHostKeyChecking no\\n  UserKnownHostsFile /dev/null\\n' > /root/.ssh/config\n\
         if [ -x /usr/sbin/sshd ]; then mkdir -p /run/sshd && ssh-keygen -A >/dev/null 2>&1; /usr/sbin/sshd; fi\n"
    );
    if with_hostfile {
        script.push_str(&format!(
            "cp {HOSTS_DIR}/hostfile.hostname /root/hostfile.hostname\n\
             : > /root/hostfile\n\
             while read -r host; do\n  \
               addr=\"\"; tries=0\n  \
               while [ -z \"$addr\" ] && [ \"$tries\" -lt 600 ]; do\n    \
                 addr=\"$(getent hosts \"$host\" | awk '{{print $1; exit}}')\"\n    \
                 [ -n \"$addr\" ] || {{ tries=$((tries + 1)); sleep 1; }}\n  \
               done\n  \
               echo \"${{addr:-$host}}\" >> /root/hostfile\n\
             done < /root/hostfile.hostname\n"
        ));
    }
    script
}
