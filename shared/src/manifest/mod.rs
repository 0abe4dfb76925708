//! Rendering a validated spec into the Kubernetes objects the server applies, so the
//! console previews exactly what is submitted (STYLE.md section 1).
//!
//! Pure, like the rest of the crate: the caller passes the final name, the task's UUID,
//! the catalog and, when pod SSH is on, a freshly generated key pair. The objects use
//! this module's own small serde types ([`object`], [`pod`]), not k8s-openapi, which is
//! too big for wasm.
//!
//! # Targets
//!
//! The job object comes from a [`Target`] chosen by task type: [`pytorch::PyTorchJobTarget`]
//! (`kubeflow.org/v1`) and [`ray::RayJobTarget`] (`ray.io/v1`). Kueue marks its
//! Training Operator v1 integration deprecated in favour of Kubeflow Trainer v2
//! (`TrainJob`); a `TrainJob` target can be added beside them without touching the
//! pod template, admission or the other objects.
//!
//! # Traps (k8s/RULES.md), each with a test
//!
//! - PyTorchJob: `nprocPerNode` is left unset, so `WORLD_SIZE` counts machines;
//!   `Master.replicas: 1` is written; a single machine has no `Worker` entry; the
//!   container is named `pytorch`.
//! - One env entry per name; every `$` in command and env values doubled.
//! - The RayJob entrypoint survives the submitter's `bash -ce`, `ray job submit`'s
//!   `list2cmdline` and the job's `/bin/sh` ([`ray::entrypoint`]); the runtime env
//!   reaches Ray as written, through Berth's own submitter command rather than
//!   KubeRay's double-quoted one ([`ray::submitter_command`]); no volume takes
//!   KubeRay's own names; a RayJob name is at most 47 characters.

pub mod admission;
pub mod object;
pub mod pod;
pub mod pytorch;
pub mod ray;
pub mod shell;

pub use object::{Map, Object, ObjectMeta};

use crate::catalog::{Catalog, Cluster, InstanceSpec, KubeSettings, Pool, User};
use crate::task::{TaskSpec, TaskType};
use crate::vocab::wire_name;
use object::{ConfigMap, PodMonitor, Secret};
use std::fmt;

/// Why a spec could not be rendered. A validated spec on the catalog it was validated
/// against renders; these are inconsistencies between the two, or a bad catalog.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The spec has no task type.
    #[error("the spec has no task type")]
    NoTaskType,
    /// The region or cluster is not in the catalog.
    #[error("cluster `{cluster}` of region `{region}` is not in the catalog")]
    UnknownCluster {
        /// Region id.
        region: String,
        /// Cluster id.
        cluster: String,
    },
    /// No pool serves the task.
    #[error("no pool of cluster `{cluster}` serves the task")]
    NoPool {
        /// Cluster id.
        cluster: String,
    },
    /// A spec id of the priority list (or the head spec) is not in the cluster.
    #[error("instance spec `{spec}` is not in the cluster")]
    UnknownSpec {
        /// Spec id; empty when the list is empty.
        spec: String,
    },
    /// The catalog image is not in the cluster.
    #[error("image `{image}` is not in the cluster")]
    UnknownImage {
        /// Image id.
        image: String,
    },
    /// The cluster's namespace rule gives something that is not a DNS-1123 label.
    #[error("namespace `{namespace}` from the cluster's rule is not a DNS-1123 label")]
    Namespace {
        /// The namespace after substitution.
        namespace: String,
    },
    /// The task name, or a name derived from it, breaks a Kubernetes limit.
    #[error("name `{name}` is not valid: {reason}")]
    Name {
        /// The offending name.
        name: String,
        /// Which rule it breaks.
        reason: &'static str,
    },
    /// Pod SSH is on and no key pair was passed.
    #[error("pod SSH is on but no SSH key pair was given")]
    NoSshKey,
}

/// The key pair pod SSH installs in every pod of one task. The caller generates it
/// (this crate draws no random numbers), once per task.
#[derive(Clone, PartialEq, Eq)]
pub struct SshKeyPair {
    /// OpenSSH private key (`-----BEGIN OPENSSH PRIVATE KEY-----` …).
    pub private_key: String,
    /// The public key line (`ssh-ed25519 AAAA… comment`).
    pub public_key: String,
}

impl SshKeyPair {
    /// A stand-in for previews (`berth render`, `POST /api/v1/render`): shows where the
    /// key goes without generating one. Never apply it.
    pub fn placeholder() -> Self {
        SshKeyPair {
            private_key: "<generated when the task is submitted>".to_owned(),
            public_key: "<generated when the task is submitted>".to_owned(),
        }
    }
}

impl fmt::Debug for SshKeyPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never print the private key.
        f.debug_struct("SshKeyPair")
            .field("public_key", &self.public_key)
            .finish_non_exhaustive()
    }
}

/// Renders the objects a validated spec becomes, in apply order: Secrets and the
/// ConfigMap first, then Kueue ResourceFlavors, then the PodMonitor, the job last.
///
/// `name` is the task's final name ([`crate::TaskId`]), `task_uuid` goes into
/// `TASK_UUID`; `ssh_key` is needed when `spec.advanced.ssh` is on.
///
/// # Errors
///
/// A [`RenderError`] when the spec and the catalog disagree (a spec validated against
/// this catalog never does), the cluster's namespace rule gives a bad namespace, or the
/// name breaks a Kubernetes limit.
///
/// # Example
///
/// ```
/// let spec = shared::demo::ray();
/// let objects = shared::manifest::render(
///     &spec, "ray-tune-bcdfg", "0b6f…", &shared::demo::catalog(), &shared::demo::user(), None,
/// )?;
/// let job = objects.last().expect("the job comes last");
/// assert_eq!((job.api_version(), job.kind()), ("ray.io/v1", "RayJob"));
/// Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render(
    spec: &TaskSpec,
    name: &str,
    task_uuid: &str,
    catalog: &Catalog,
    user: &User,
    ssh_key: Option<&SshKeyPair>,
) -> Result<Vec<Object>, RenderError> {
    let job = Job::new(spec, name, task_uuid, catalog, user)?;
    let target = target_for(job.task_type);
    target.check_name(name)?;
    let mut objects = Vec::new();
    let template = job.template(target)?;
    if !template.hidden.is_empty() {
        objects.push(Object::Secret(Secret::new(
            job.meta(pod::env_secret_name(name)),
            template
                .hidden
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str())),
        )));
    }
    if spec.advanced.ssh {
        let key = ssh_key.ok_or(RenderError::NoSshKey)?;
        objects.push(Object::Secret(Secret::new(
            job.meta(pod::ssh_secret_name(name)),
            [
                ("id_ed25519", key.private_key.as_str()),
                ("id_ed25519.pub", key.public_key.as_str()),
                ("authorized_keys", key.public_key.as_str()),
            ],
        )));
        if let Some(hosts) = job.hostfile() {
            let mut data = Map::new();
            data.insert("hostfile.hostname".to_owned(), hosts);
            objects.push(Object::ConfigMap(ConfigMap {
                api_version: "v1",
                kind: "ConfigMap",
                metadata: job.meta(pod::hosts_config_map_name(name)),
                data,
            }));
        }
    }
    objects.extend(admission::flavors(&job)?);
    let monitoring = &spec.advanced.monitoring;
    if monitoring.enabled && job.kube.monitoring == crate::catalog::Scrape::PodMonitor {
        objects.push(Object::PodMonitor(PodMonitor {
            api_version: "monitoring.coreos.com/v1",
            kind: "PodMonitor",
            metadata: job.meta(name.to_owned()),
            spec: object::PodMonitorSpec {
                selector: object::LabelSelector {
                    match_labels: job.task_labels(),
                },
                pod_metrics_endpoints: vec![object::MetricsEndpoint {
                    port: pod::METRICS_PORT_NAME.to_owned(),
                    path: monitoring.path.clone(),
                }],
            },
        }));
    }
    objects.push(target.job(&job, template.pod)?);
    Ok(objects)
}

/// The suffix a preview's name takes in place of the one drawn at submit.
pub const PREVIEW_SUFFIX: &str = "xxxxx";

/// What a spec becomes, for review before submitting (`berth render`,
/// `POST /api/v1/render`, the console): the name ends in [`PREVIEW_SUFFIX`] and is its
/// `TASK_UUID` too, as a submitted task's id is both (a zero UUID there told scripts to
/// parse a UUID, which the running task's is not: platform explorer), hidden env
/// values (the task's and the user's persistent ones) are masked, the SSH key is
/// [`SshKeyPair::placeholder`]. Never apply a preview.
///
/// # Errors
///
/// As [`render`].
pub fn preview(
    spec: &TaskSpec,
    catalog: &Catalog,
    user: &User,
) -> Result<Vec<Object>, RenderError> {
    let spec = spec.masked();
    let mut masked = catalog.clone();
    for var in masked.persistent_env.iter_mut().filter(|v| v.hidden) {
        var.value = crate::task::HIDDEN_VALUE_MASK.to_owned();
    }
    let name = crate::names::final_name(&spec.basic.name_prefix, PREVIEW_SUFFIX);
    render(
        &spec,
        &name,
        &name,
        &masked,
        user,
        Some(&SshKeyPair::placeholder()),
    )
}

/// A kind of job object: how a task type becomes its operator's custom resource.
pub trait Target {
    /// Refuses a task name the operator would reject or overflow.
    ///
    /// # Errors
    ///
    /// [`RenderError::Name`].
    fn check_name(&self, name: &str) -> Result<(), RenderError>;

    /// The main container's name (index 0 of the template).
    fn container_name(&self) -> &'static str;

    /// The job object around the shared pod template.
    ///
    /// # Errors
    ///
    /// When the catalog lacks something the job needs.
    fn job(&self, job: &Job<'_>, template: pod::PodTemplate) -> Result<Object, RenderError>;
}

/// The target for a task type.
pub fn target_for(task_type: TaskType) -> &'static dyn Target {
    match task_type {
        TaskType::PyTorchJob => &pytorch::PyTorchJobTarget,
        TaskType::RayJob => &ray::RayJobTarget,
    }
}

/// Label every object and pod of a task carries; selectors find the task by it.
pub const TASK_LABEL: &str = "berth.dev/task";

/// Everything rendering needs, looked up once.
#[derive(Debug)]
pub struct Job<'a> {
    /// The spec.
    pub spec: &'a TaskSpec,
    /// The task's final name.
    pub name: &'a str,
    /// `TASK_UUID`.
    pub task_uuid: &'a str,
    /// The catalog.
    pub catalog: &'a Catalog,
    /// The submitter.
    pub user: &'a User,
    /// The task type.
    pub task_type: TaskType,
    /// The task's cluster.
    pub cluster: &'a Cluster,
    /// Its Kubernetes settings.
    pub kube: &'a KubeSettings,
    /// The task's pool.
    pub pool: &'a Pool,
    /// The specs of the priority list, highest first; never empty.
    pub specs: Vec<&'a InstanceSpec>,
    /// The namespace of every namespaced object.
    pub namespace: String,
    /// The image reference.
    pub image: String,
}

impl<'a> Job<'a> {
    fn new(
        spec: &'a TaskSpec,
        name: &'a str,
        task_uuid: &'a str,
        catalog: &'a Catalog,
        user: &'a User,
    ) -> Result<Self, RenderError> {
        let task_type = spec.task_type().ok_or(RenderError::NoTaskType)?;
        let basic = &spec.basic;
        let cluster = catalog
            .cluster(&basic.region, &basic.cluster)
            .ok_or_else(|| RenderError::UnknownCluster {
                region: basic.region.clone(),
                cluster: basic.cluster.clone(),
            })?;
        let no_pool = || RenderError::NoPool {
            cluster: cluster.id.clone(),
        };
        let pool = match (&spec.compute.pool, spec.compute.kind) {
            (Some(id), _) => cluster.pool(id).ok_or_else(no_pool)?,
            (None, Some(kind)) => cluster.default_pool_for(kind).ok_or_else(no_pool)?,
            (None, None) => return Err(no_pool()),
        };
        let specs = spec
            .compute
            .specs
            .iter()
            .map(|id| {
                cluster
                    .spec(id)
                    .ok_or_else(|| RenderError::UnknownSpec { spec: id.clone() })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if specs.is_empty() {
            return Err(RenderError::UnknownSpec {
                spec: String::new(),
            });
        }
        let image = match spec.environment.image.source {
            crate::task::ImageSource::Address => spec.environment.image.value.clone(),
            source => cluster
                .image(source, &spec.environment.image.value)
                .map(|i| i.address.clone())
                .ok_or_else(|| RenderError::UnknownImage {
                    image: spec.environment.image.value.clone(),
                })?,
        };
        let kube = &cluster.kubernetes;
        let namespace = kube
            .namespace
            .replace("{tenant}", &user.tenant_id)
            .replace("{project_group}", &basic.project_group)
            .replace("{user}", &user.name);
        if !is_dns_label(&namespace) {
            return Err(RenderError::Namespace { namespace });
        }
        Ok(Job {
            spec,
            name,
            task_uuid,
            catalog,
            user,
            task_type,
            cluster,
            kube,
            pool,
            specs,
            namespace,
            image,
        })
    }

    /// Metadata of a namespaced object of the task.
    pub fn meta(&self, name: String) -> ObjectMeta {
        ObjectMeta {
            name,
            namespace: Some(self.namespace.clone()),
            labels: self.task_labels(),
            annotations: Map::new(),
        }
    }

    /// The task label alone.
    pub fn task_labels(&self) -> Map {
        let mut labels = Map::new();
        labels.insert(TASK_LABEL.to_owned(), self.name.to_owned());
        labels
    }

    /// The job object's labels: the task label and the task's tags (validated
    /// label-like, outside the prefixes the platform and operators own).
    ///
    /// With the resource kind and an idle task's stability, by their names in the spec,
    /// which an administrator selects on (`kubectl get pytorchjobs -l
    /// berth.dev/resource-kind=idle`): the objects did not say which jobs may be
    /// preempted.
    pub fn job_labels(&self) -> Map {
        let mut labels = self.task_labels();
        for tag in &self.spec.basic.tags {
            labels.insert(tag.key.clone(), tag.value.clone());
        }
        let compute = &self.spec.compute;
        let kind = compute.kind.and_then(|k| wire_name(&k));
        let stability = compute
            .idle_stability
            .filter(|_| compute.kind == Some(crate::task::ResourceKind::Idle))
            .and_then(|s| wire_name(&s));
        for (key, value) in [
            ("berth.dev/resource-kind", kind),
            ("berth.dev/idle-stability", stability),
        ] {
            if let Some(value) = value {
                labels.insert(key.to_owned(), value);
            }
        }
        labels
    }

    /// The job object's annotations: who and what, in values labels cannot hold.
    pub fn job_annotations(&self) -> Map {
        let mut annotations = Map::new();
        annotations.insert("berth.dev/task-uuid".to_owned(), self.task_uuid.to_owned());
        annotations.insert("berth.dev/user".to_owned(), self.user.name.clone());
        annotations.insert(
            "berth.dev/project-group".to_owned(),
            self.spec.basic.project_group.clone(),
        );
        // An annotation: a catalog's pool id need not be a label value.
        annotations.insert("berth.dev/pool".to_owned(), self.pool.id.clone());
        let retries = self
            .spec
            .advanced
            .image_pull_retries
            .unwrap_or(self.catalog.image_pull_retries_default);
        annotations.insert(
            "berth.dev/image-pull-retries".to_owned(),
            retries.to_string(),
        );
        // Berth's retries make a new job each; the operator's own stay off
        // (`backoffLimit: 0`), which read as retries dropped (platform explorer).
        let tolerance = &self.spec.advanced.fault_tolerance;
        if tolerance.enabled {
            annotations.insert(
                "berth.dev/max-retries".to_owned(),
                tolerance.max_retries.to_string(),
            );
        }
        annotations
    }

    /// The spec the replicas run on: the first of the priority list (the server puts
    /// the plan's choice first when it submits).
    pub fn worker_spec(&self) -> &'a InstanceSpec {
        self.specs[0]
    }

    /// Whether the pod host names are known before the pods exist: a PyTorchJob's
    /// replica Services are; a RayJob's pods get generated names.
    pub fn has_hostfile(&self) -> bool {
        self.task_type == TaskType::PyTorchJob
    }

    /// The SSH hostfile's host names, one per line, master first, when
    /// [`Job::has_hostfile`].
    pub fn hostfile(&self) -> Option<String> {
        use std::fmt::Write;
        if !self.has_hostfile() {
            return None;
        }
        let workers = self.spec.compute.workers;
        // One buffer for up to 1,025 lines: this is most of a large job's render time.
        let mut text = String::with_capacity((self.name.len() + 14) * (workers as usize + 1));
        text.push_str(&crate::names::pytorch_master(self.name));
        text.push('\n');
        for i in 0..workers {
            // Writing into a String cannot fail.
            let _ = writeln!(text, "{}-worker-{i}", self.name);
        }
        Some(text)
    }

    fn template(&self, target: &dyn Target) -> Result<Template, RenderError> {
        let (env, hidden) = pod::env(self);
        let (mut volumes, mut volume_mounts) = pod::volumes(self);
        let spec = self.worker_spec();
        let resources = pod::ResourceRequirements::of(spec, self.spec.compute.units_per_node);
        if self.task_type == TaskType::PyTorchJob
            && let Some(memory) = resources.limits.get("memory")
        {
            let (volume, mount) = pod::shared_memory(memory);
            volumes.push(volume);
            volume_mounts.push(mount);
        }
        let container = pod::Container {
            name: target.container_name().to_owned(),
            image: self.image.clone(),
            command: Vec::new(),
            env,
            ports: pod::metrics_port(self).into_iter().collect(),
            resources,
            volume_mounts,
            lifecycle: None,
        };
        let mut pod = pod::PodTemplate {
            metadata: pod::template_meta(self),
            spec: pod::PodSpec {
                restart_policy: None,
                scheduler_name: None,
                priority_class_name: self.priority_class(),
                node_selector: pod::node_labels(self, spec),
                containers: vec![container],
                volumes,
            },
        };
        admission::apply_to_pod(self, &mut pod);
        Ok(Template { pod, hidden })
    }

    /// The pod priority class for the task's resource priority; a task with none
    /// (reserved and idle ones) is normal, as in Berth's own queue order.
    pub fn priority_class(&self) -> Option<String> {
        let classes = &self.kube.priority_classes;
        match self
            .spec
            .compute
            .priority
            .unwrap_or(crate::vocab::Priority::Normal)
        {
            crate::vocab::Priority::Low => classes.low.clone(),
            crate::vocab::Priority::Normal => classes.normal.clone(),
            crate::vocab::Priority::High => classes.high.clone(),
        }
    }
}

struct Template {
    pod: pod::PodTemplate,
    hidden: Vec<(String, String)>,
}

/// Whether `name` is a DNS-1123 label: `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, at most 63.
pub fn is_dns_label(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= crate::names::DNS_LABEL_MAX
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        && bytes[0] != b'-'
        && bytes[bytes.len() - 1] != b'-'
}

/// Whether `name` is a DNS-1035 label: a DNS-1123 label that starts with a letter
/// (Service names must be).
pub fn is_dns1035_label(name: &str) -> bool {
    is_dns_label(name) && name.as_bytes()[0].is_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_masks_every_hidden_value_and_names_its_placeholders() {
        let objects = preview(
            &crate::demo::pytorch(),
            &crate::demo::catalog(),
            &crate::demo::user(),
        )
        .expect("renders");
        let text = serde_json::to_string(&objects).expect("JSON");
        for secret in ["hf_demo_secret", "wandb-demo-secret"] {
            assert!(
                !text.contains(&shell::base64(secret.as_bytes())),
                "{secret}"
            );
        }
        let job = objects.last().expect("job");
        assert_eq!(job.name(), "llama-finetune-xxxxx");
        assert!(
            text.contains(r#"{"name":"TASK_UUID","value":"llama-finetune-xxxxx"}"#),
            "its TASK_UUID is its name, as a submitted task's is"
        );
    }

    /// A PyTorchJob's every replica has shared memory at /dev/shm up to its memory, as a
    /// hand-written one does; a RayJob's pods get KubeRay's own, so Berth adds none.
    #[test]
    fn a_pytorchjob_mounts_shared_memory_up_to_its_memory_and_a_rayjob_leaves_it_to_kuberay() {
        let (catalog, user) = (crate::demo::catalog(), crate::demo::user());
        let shm = |spec: &TaskSpec| {
            let objects = preview(spec, &catalog, &user).expect("renders");
            let text = serde_json::to_string(objects.last().expect("job")).expect("JSON");
            (
                text.matches(r#"{"name":"dshm","mountPath":"/dev/shm"}"#)
                    .count(),
                text.matches(r#""emptyDir":{"medium":"Memory","sizeLimit":"#)
                    .count(),
            )
        };
        let pytorch = crate::demo::pytorch();
        let text = serde_json::to_string(&preview(&pytorch, &catalog, &user).expect("renders"))
            .expect("JSON");
        assert!(text.contains(r#""emptyDir":{"medium":"Memory","sizeLimit":"240Gi"}"#));
        assert!(text.contains(r#""limits":{"cpu":"#) && text.contains(r#""memory":"240Gi""#));
        assert_eq!(shm(&pytorch), (2, 2), "the master's and the workers'");
        assert_eq!(shm(&crate::demo::ray()), (0, 0));
    }

    #[test]
    fn the_hostfile_lists_the_names_module_s_replica_names() {
        let spec = crate::demo::pytorch().with(|s| s.compute.workers = 1024);
        let catalog = crate::demo::catalog();
        let user = crate::demo::user();
        let job = Job::new(&spec, "job-bcdfg", "u", &catalog, &user).expect("job");
        let hostfile = job.hostfile().expect("a PyTorchJob has one");
        let lines: Vec<&str> = hostfile.lines().collect();
        assert_eq!(lines.len(), 1025);
        assert_eq!(lines[0], crate::names::pytorch_master("job-bcdfg"));
        for (i, line) in lines[1..].iter().enumerate() {
            assert_eq!(*line, crate::names::pytorch_worker("job-bcdfg", i as u32));
        }
    }

    #[test]
    fn names_follow_the_dns_rules() {
        assert!(is_dns_label("a-1"));
        assert!(!is_dns_label("-a") && !is_dns_label("a-") && !is_dns_label("A"));
        assert!(!is_dns_label(&"a".repeat(64)));
        assert!(is_dns1035_label("a1") && !is_dns1035_label("1a"));
    }
}
