//! The Kubernetes backend: a gang is one PyTorchJob or RayJob (plus its Secrets and
//! other objects), and the operators run the pods. Berth only applies the objects,
//! watches what happens to them and deletes them.
//!
//! # What it does
//!
//! - Client: a kubeconfig (a named file and context, or `KUBECONFIG`/`~/.kube/config`),
//!   else the in-cluster service account ([`kube::Client::try_default`]).
//! - Namespace: one per project group, from a template (`berth-{group}` by default).
//! - Start: every object `shared::manifest` rendered ([`render_objects`]: the plan's spec
//!   first, a fresh SSH key pair when pod SSH is on) is applied with server-side apply
//!   under the field manager [`FIELD_MANAGER`], in the order given (Secrets first, the
//!   job last; Kueue ResourceFlavors cluster-wide, the rest in the group's namespace). The job is labelled with its attempt ([`ATTEMPT_LABEL`]); a job left by
//!   an earlier attempt is deleted first, and the apply waits until it is gone, so the
//!   new attempt never inherits the old one's status.
//! - Watch: [`kube::runtime::watcher`]s of the job (by name) and its pods (by the
//!   operators' labels) per attempt, and one of Events per namespace shared by the
//!   attempts there; they resume from the last resource version after a dropped
//!   connection and re-list after an expired one.
//!   The job's status is mapped by [`job_phase`]; a running job is reported as
//!   [`Event::Started`], its end as [`Event::Finished`]. Kubernetes Events of the job
//!   and of its pods become [`Event::Note`]s. A job taken back after a restart tells
//!   those after the task's last recorded event, which came while no server watched:
//!   that moment is on the servers' clock, the Events' times on the cluster's, so it is
//!   moved by how far the API server's `Date` is ahead of this server's clock.
//! - Kueue: a job held suspended until admission is noted; one suspended again after
//!   its admission was evicted (preempted, or its pods not ready in time) and requeued:
//!   noted as an eviction (Kueue's reason is its `Stopped` Event on the job), the
//!   attempt going on, and reported started again when re-admitted. An eviction ends
//!   no attempt, so it is never a failure or a retry. A deactivation does: Kueue
//!   deactivates a Workload (`spec.active: false`: `waitForPodsReady`'s requeue limit,
//!   its maximum execution time, a rejecting admission check, an admin) for good, and
//!   only the Workload says so, so a queued job's Workload (`kueue.x-k8s.io/v1beta2`,
//!   found by Kueue's `kueue.x-k8s.io/job-uid` label) is watched too: its deactivation
//!   fails the attempt with Kueue's reason and the evictions before it, and deletes
//!   the job.
//! - Image-pull breaker (SPEC.md section 5): each time a container of a pod enters
//!   `ErrImagePull` (or is first seen in `ImagePullBackOff`), that pod's count of pull
//!   failures grows. With `image_pull_retries` = n ≥ 0 the attempt fails when a pod's
//!   count exceeds n (0: the first failure; n: n failures are retried, the next one
//!   trips), and the job is deleted; −1 never trips.
//! - Logs: the replica's pod log (its first container), followed while it runs, from its
//!   start or from its last lines (`tailLines`: the route counts them for a log's end).
//!   Replica 0 is a PyTorchJob's master, `i` its worker `i - 1`; a RayJob's replica 0
//!   is the submitter (whose log is the entrypoint's output), 1 the head, `i ≥ 2`
//!   worker `i - 2` in name order.
//! - Stop: delete the job with foreground propagation, so its end is reported once its
//!   pods are gone; under Kueue too: Kueue sets `suspend: false` on admission whatever
//!   its value (k8s/RULES.md section 9), so a suspended job would run again, and the
//!   job's Workload is deleted with it (owner reference).
//! - Cleanup: the task's Secrets, ConfigMaps and PodMonitor have no ownerReferences;
//!   they are deleted by the `berth.dev/task` label when an attempt ends, before the end
//!   is reported (so a retry's apply never races the delete), and when a start fails
//!   after its first apply.
//!
//! # What it does not do
//!
//! - Rendering is `shared::manifest`'s; [`render_objects`] is the one place that calls
//!   it. Node capacity and Kueue ClusterQueues do not feed the catalog yet (others'
//!   pods' requests do: [`KubeBackend::outside_usage`]). Logs of an attempt whose pods are gone cannot be read.

use super::{Backend, BackendError, Event, Gang, LogStream, Result, note_kind};
use ::kube::api::{
    Api, ApiResource, DeleteParams, DynamicObject, GroupVersionKind, ListParams, LogParams, Patch,
    PatchParams,
};
use ::kube::runtime::{WatchStreamExt, watcher};
use ::kube::{Client, ResourceExt};
use futures_util::{AsyncReadExt, StreamExt};
use k8s_openapi::api::core::v1::{ConfigMap, Event as KubeEvent, Pod, Secret};
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use serde::Deserialize;
use serde_json::{Value, json};
use shared::messages::{Arg, Message};
use shared::{Catalog, TaskId, TaskSpec, User};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::broadcast;

/// The field manager of every server-side apply.
pub const FIELD_MANAGER: &str = "berth";
/// The label naming the attempt a job belongs to.
pub const ATTEMPT_LABEL: &str = "berth.io/attempt";
/// How many Kubernetes Events from while no server watched a job taken back reports.
const CATCH_UP_EVENTS: usize = 20;
/// Events kept for slow receivers.
const EVENT_CAPACITY: usize = 1024;
/// How long a new attempt waits for the previous attempt's job to be deleted.
const DELETE_WAIT: Duration = Duration::from_secs(120);
/// Kubernetes Events about pods not seen yet, kept until their pod shows up.
const PENDING_EVENTS: usize = 256;
/// The waiting reasons of a failed image pull.
const ERR_IMAGE_PULL: &str = "ErrImagePull";
const IMAGE_PULL_BACK_OFF: &str = "ImagePullBackOff";
/// The label Kueue puts on a job's Workload, naming the job's uid (KQ
/// `controller/constants`).
const KUEUE_JOB_UID_LABEL: &str = "kueue.x-k8s.io/job-uid";

/// A Kubernetes API failure, classified once (STYLE.md section 3). The API's own words
/// are in the text (kube's error repeats them in its source, so it is not a source here):
/// a task's failure reason is this text.
#[derive(Debug, thiserror::Error)]
pub enum KubeError {
    /// The object (or its kind: a CRD that is not installed) does not exist.
    #[error("not found: {0}")]
    NotFound(::kube::Error),
    /// Another writer changed the object first, or it is being deleted.
    #[error("conflict: {0}")]
    Conflict(::kube::Error),
    /// An object of that name exists already.
    #[error("already exists: {0}")]
    AlreadyExists(::kube::Error),
    /// Anything else: the API is unreachable, refuses us, or fails (an API answers 503).
    #[error("the kubernetes API is unavailable: {0}")]
    Unavailable(::kube::Error),
    /// A rendered object lacks what applying it needs (a bug of the renderer).
    #[error("object {index} has no {missing}")]
    BadObject {
        /// Its position in the rendered list.
        index: usize,
        /// `apiVersion`, `kind` or `metadata.name`.
        missing: &'static str,
    },
    /// The namespace template gave a name Kubernetes refuses.
    #[error("namespace {0:?} is not a DNS-1123 label")]
    BadNamespace(String),
    /// The previous attempt's job was still there after the wait.
    #[error("the previous job {0} is still being deleted")]
    StillDeleting(String),
}

/// How long a restart with jobs to take back waits for an API server it cannot reach:
/// an API server restarting with Berth (a control plane's upgrade) is back within it.
/// Meanwhile Berth does not serve (it serves once it has recovered).
const TAKE_BACK_PATIENCE: Duration = Duration::from_secs(120);

/// How long the restart's lists of jobs to take back are asked again, once the API
/// server has answered [`Backend::await_reachable`]'s probe.
const TAKE_BACK_LIST_PATIENCE: Duration = Duration::from_secs(20);

/// Lists `api`'s objects until it answers, or gives an answer that asking again would not
/// change (it refuses us or the request), or `patience` has passed: asked again after
/// 1, 2, 4… (at most 15) seconds while the API server cannot be reached, is overloaded
/// (429) or fails (5xx). No one try outlasts the patience either (a connection that
/// hangs would wait for the client's read timeout, minutes).
async fn list_patiently<K>(
    api: &Api<K>,
    params: &ListParams,
    patience: Duration,
) -> ::kube::Result<::kube::core::ObjectList<K>>
where
    K: Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    let until = tokio::time::Instant::now() + patience;
    let mut wait = Duration::from_secs(1);
    loop {
        let left = until.saturating_duration_since(tokio::time::Instant::now());
        // No patience: one plain try, as long as the client gives it.
        let answer = if patience.is_zero() {
            Ok(api.list(params).await)
        } else {
            tokio::time::timeout(left, api.list(params)).await
        };
        let error = match answer {
            Ok(Ok(list)) => return Ok(list),
            Ok(Err(error)) => error,
            Err(_) => ::kube::Error::Service(Box::new(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "no answer in time",
            ))),
        };
        let passing = match &error {
            ::kube::Error::Api(status) => status.code >= 500 || status.code == 429,
            _ => true,
        };
        if !passing || tokio::time::Instant::now() + wait >= until {
            return Err(error);
        }
        tracing::warn!(%error, "the Kubernetes API does not answer; asking again in {}s", wait.as_secs());
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(Duration::from_secs(15));
    }
}

impl From<::kube::Error> for KubeError {
    fn from(error: ::kube::Error) -> Self {
        match &error {
            ::kube::Error::Api(status) if status.is_not_found() => KubeError::NotFound(error),
            ::kube::Error::Api(status) if status.is_already_exists() => {
                KubeError::AlreadyExists(error)
            }
            ::kube::Error::Api(status) if status.is_conflict() => KubeError::Conflict(error),
            _ => KubeError::Unavailable(error),
        }
    }
}

/// `[kubernetes]` of the config file.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct KubeSettings {
    /// The namespace of a project group's jobs; `{group}` is replaced by the group id
    /// [default: `berth-{group}`].
    pub namespace: String,
    /// A kubeconfig file; without it `KUBECONFIG`, `~/.kube/config`, then the
    /// in-cluster service account.
    pub kubeconfig: Option<PathBuf>,
    /// A context of the kubeconfig other than its current one.
    pub context: Option<String>,
    /// Kueue admits the jobs. Accepted for existing config files; it changes nothing: a
    /// stop deletes the job under Kueue as elsewhere (Kueue would unsuspend a suspended
    /// one on admission, k8s/RULES.md section 9).
    pub kueue: bool,
    /// The image of the Job that removes a RayJob's shared-storage directory at its end
    /// ("clean up on exit"): any image with `sh`, `date`, `sleep` and `rm` [default:
    /// `busybox:1.37`]. Name a mirror where the cluster cannot pull from Docker Hub.
    #[serde(deserialize_with = "cleanup_image")]
    pub cleanup_image: String,
    /// How often, in seconds, what pods outside Berth's namespaces request on the
    /// catalog's nodes is read again (it is read at startup, and others' pods come and
    /// go); 0 reads it at startup only [default: 60].
    #[serde(deserialize_with = "seconds")]
    pub usage_refresh_seconds: u64,
}

/// Reads a number of seconds, said in words when it is not one (not "expected u64").
fn seconds<'de, D: serde::Deserializer<'de>>(de: D) -> Result<u64, D::Error> {
    crate::config::whole_number(de, 0, u64::MAX)
}

/// Reads `[kubernetes] cleanup_image`, refusing an empty one: the Job would be applied
/// with no image, refused by the API server at every RayJob's end, long after the start.
fn cleanup_image<'de, D: serde::Deserializer<'de>>(de: D) -> Result<String, D::Error> {
    let image = String::deserialize(de)?;
    if image.trim().is_empty() {
        return Err(serde::de::Error::custom(
            "[kubernetes] cleanup_image is empty: name an image with sh, date, sleep and rm, \
             like \"busybox:1.37\" or its mirror, or leave the key out for busybox:1.37",
        ));
    }
    Ok(image)
}

impl Default for KubeSettings {
    fn default() -> Self {
        KubeSettings {
            namespace: "berth-{group}".to_owned(),
            kubeconfig: None,
            context: None,
            kueue: false,
            cleanup_image: "busybox:1.37".to_owned(),
            usage_refresh_seconds: 60,
        }
    }
}

impl KubeSettings {
    /// The namespace of `group`'s jobs.
    ///
    /// # Errors
    ///
    /// [`KubeError::BadNamespace`] when the result is not a DNS-1123 label.
    pub fn namespace_for(&self, group: &str) -> Result<String, KubeError> {
        let name = self.namespace.replace("{group}", group);
        let valid = !name.is_empty()
            && name.len() <= 63
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !name.starts_with('-')
            && !name.ends_with('-');
        if valid {
            Ok(name)
        } else {
            Err(KubeError::BadNamespace(name))
        }
    }
}

/// The job kinds Berth renders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// `kubeflow.org/v1` PyTorchJob.
    PyTorch,
    /// `ray.io/v1` RayJob.
    Ray,
}

impl JobKind {
    /// The kind of an object, if it is a job Berth knows.
    pub fn of(api_version: &str, kind: &str) -> Option<JobKind> {
        match (api_version, kind) {
            ("kubeflow.org/v1", "PyTorchJob") => Some(JobKind::PyTorch),
            ("ray.io/v1", "RayJob") => Some(JobKind::Ray),
            _ => None,
        }
    }

    /// Label selectors that together find every pod of job `name`.
    fn pod_selectors(self, name: &str) -> Vec<String> {
        match self {
            JobKind::PyTorch => vec![format!("training.kubeflow.org/job-name={name}")],
            // The RayCluster's pods carry the RayJob's name; the submitter is a
            // Kubernetes Job of the RayJob's name.
            JobKind::Ray => vec![
                format!("ray.io/originated-from-cr-name={name}"),
                format!("batch.kubernetes.io/job-name={name}"),
            ],
        }
    }

    /// The label selector of a replica's pods, and which of the matches (in name order)
    /// is the replica.
    fn replica_selector(self, name: &str, replica: u32) -> (String, usize) {
        match (self, replica) {
            (JobKind::PyTorch, 0) => (
                format!(
                    "training.kubeflow.org/job-name={name},training.kubeflow.org/replica-type=master"
                ),
                0,
            ),
            (JobKind::PyTorch, i) => (
                format!(
                    "training.kubeflow.org/job-name={name},training.kubeflow.org/replica-type=worker,training.kubeflow.org/replica-index={}",
                    i - 1
                ),
                0,
            ),
            (JobKind::Ray, 0) => (format!("batch.kubernetes.io/job-name={name}"), 0),
            (JobKind::Ray, 1) => (
                format!("ray.io/originated-from-cr-name={name},ray.io/node-type=head"),
                0,
            ),
            (JobKind::Ray, i) => (
                format!("ray.io/originated-from-cr-name={name},ray.io/node-type=worker"),
                (i - 2) as usize,
            ),
        }
    }
}

/// Where a job stands, read from its status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobPhase {
    /// Created, pods not all running yet.
    Pending,
    /// Suspended (by Kueue until admission, or again when it evicts an admitted job:
    /// k8s/RULES.md section 9), with the operator's message.
    Suspended(String),
    /// Running; a PyTorchJob restarting its pods is still running.
    Running,
    /// Finished well.
    Succeeded,
    /// Finished badly, with the operator's reason.
    Failed(String),
}

/// Maps a job's status to a phase (`/work/shared/k8s/RULES.md`): a PyTorchJob's
/// `status.conditions` (the operator keeps one per type; `Succeeded`/`Failed` end it,
/// `Suspended` and `Running` are current when `True`), a RayJob's
/// `status.jobDeploymentStatus` with `status.jobStatus` for how a complete job ended.
pub fn job_phase(kind: JobKind, object: &Value) -> JobPhase {
    let status = &object["status"];
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    match kind {
        JobKind::PyTorch => {
            let conditions = status["conditions"].as_array().cloned().unwrap_or_default();
            let active = |kind: &str| {
                conditions
                    .iter()
                    .find(|c| c["type"] == kind && c["status"] == "True")
            };
            if active("Succeeded").is_some() {
                JobPhase::Succeeded
            } else if let Some(failed) = active("Failed") {
                JobPhase::Failed(reason_text(
                    &text(&failed["reason"]),
                    &text(&failed["message"]),
                ))
            } else if let Some(suspended) = active("Suspended") {
                JobPhase::Suspended(text(&suspended["message"]))
            } else if active("Running").is_some() || active("Restarting").is_some() {
                JobPhase::Running
            } else {
                JobPhase::Pending
            }
        }
        JobKind::Ray => {
            let job_status = text(&status["jobStatus"]);
            let message = without_logs(&text(&status["message"])).to_owned();
            match status["jobDeploymentStatus"].as_str().unwrap_or_default() {
                "Complete" if job_status == "SUCCEEDED" => JobPhase::Succeeded,
                "Complete" => JobPhase::Failed(reason_text(
                    &format!("the Ray job ended {job_status}"),
                    &message,
                )),
                "Failed" | "ValidationFailed" => JobPhase::Failed(reason_text(
                    &text(&status["reason"])
                        .if_empty(status["jobDeploymentStatus"].as_str().unwrap_or_default()),
                    &message,
                )),
                "Suspended" => JobPhase::Suspended(message),
                // KubeRay keeps the last run's message until the cluster is gone
                // ("Job is currently running."): not about the suspension.
                "Suspending" => JobPhase::Suspended(String::new()),
                "Running" => JobPhase::Running,
                _ => JobPhase::Pending,
            }
        }
    }
}

/// `reason: message`, or whichever of them is set.
/// A Ray job's message without the program output Ray appends to a failure ("…, last
/// available logs (truncated to 20,000 chars): …"): a reason is shown to everyone who
/// sees the task, shares included, where a printed secret must not go. The log itself
/// is one click away, masked for anyone but the owner.
fn without_logs(message: &str) -> &str {
    match message.find("last available logs") {
        Some(at) => message[..at].trim_end_matches([' ', ',', ';', ':', '\n']),
        None => message,
    }
}

fn reason_text(reason: &str, message: &str) -> String {
    match (reason.is_empty(), message.is_empty()) {
        (false, false) => format!("{reason}: {message}"),
        (false, true) => reason.to_owned(),
        (true, _) => message.to_owned(),
    }
}

trait IfEmpty {
    fn if_empty(self, other: &str) -> String;
}

impl IfEmpty for String {
    fn if_empty(self, other: &str) -> String {
        if self.is_empty() {
            other.to_owned()
        } else {
            self
        }
    }
}

/// The catalog with the spec's cluster rendering into `namespace`: where this server
/// applies a task's objects (the `[kubernetes] namespace` template), so the preview of
/// `POST /api/v1/render` and the applied objects agree.
pub fn in_namespace(catalog: &Catalog, spec: &TaskSpec, namespace: &str) -> Catalog {
    let mut catalog = catalog.clone();
    if let Some(cluster) = catalog
        .regions
        .iter_mut()
        .filter(|r| r.id == spec.basic.region)
        .flat_map(|r| r.clusters.iter_mut())
        .find(|c| c.id == spec.basic.cluster)
    {
        cluster.kubernetes.namespace = namespace.to_owned();
    }
    catalog
}

/// The objects to apply for a gang, as JSON, in apply order: the one place that calls
/// the renderer. The task id is both the job's name and `TASK_UUID` (as in
/// `shared::injected`); with pod SSH on, a fresh key pair is drawn for the task here
/// (`shared` draws no random numbers).
///
/// Replica resources come from the first spec of `spec.compute.specs`: the runner puts
/// the plan's chosen spec first ([`chosen_first`]).
///
/// The objects name `namespace`, where [`KubeBackend::submit`] applies them (the
/// `[kubernetes] namespace` template), in place of the catalog cluster's own rule: one
/// namespace for the objects, their watches and the RBAC; and the runner's owner record
/// carries no tenant for a `{tenant}` rule.
///
/// # Errors
///
/// [`BackendError::Start`] when the spec does not render on the catalog or no key pair
/// can be drawn.
pub fn render_objects(
    task: &TaskId,
    spec: &TaskSpec,
    catalog: &Catalog,
    owner: &User,
    namespace: &str,
) -> Result<Vec<Value>> {
    let start = |reason: String| BackendError::Start {
        task: task.clone(),
        replica: 0,
        reason,
    };
    let catalog = in_namespace(catalog, spec, namespace);
    let key = if spec.advanced.ssh {
        Some(
            ssh_key_pair(&task.0)
                .map_err(|e| start(format!("cannot draw the pod SSH key: {e}")))?,
        )
    } else {
        None
    };
    shared::manifest::render(spec, &task.0, &task.0, &catalog, owner, key.as_ref())
        .map_err(|e| start(format!("cannot render the Kubernetes objects: {e}")))?
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<_, _>>()
        .map_err(|e| start(e.to_string()))
}

/// A new ed25519 key pair in OpenSSH format from the OS's random source, commented with
/// the task's name so a key found in a pod names its task.
///
/// # Errors
///
/// When the OS gives no randomness or encoding fails.
pub fn ssh_key_pair(task: &str) -> Result<shared::manifest::SshKeyPair, ssh_key::Error> {
    let mut key =
        ssh_key::PrivateKey::random(&mut ssh_key::rand_core::OsRng, ssh_key::Algorithm::Ed25519)?;
    key.set_comment(format!("berth-{task}"));
    Ok(shared::manifest::SshKeyPair {
        private_key: key.to_openssh(ssh_key::LineEnding::LF)?.to_string(),
        public_key: key.public_key().to_openssh()?,
    })
}

/// `spec` as `placement` runs it: the placement's spec first ([`chosen_first`]), and
/// reserved capacity placed on idle offers (it accepts idle) sent as an idle job (no
/// priority or guarantee), so the cluster counts no reserved quota for it. Its pool
/// stays: its nodes' labels are the node selector, and the cluster's pool for idle may
/// host no node of the spec's model (sh-a's idle H100s come from its H100 pool).
pub fn as_placed(spec: &TaskSpec, placement: &shared::quota::Placement) -> TaskSpec {
    use shared::task::ResourceKind;
    let mut spec = chosen_first(spec, &placement.spec);
    if placement.kind == ResourceKind::Idle && spec.compute.kind != Some(ResourceKind::Idle) {
        let compute = &mut spec.compute;
        compute.kind = Some(ResourceKind::Idle);
        compute.priority = None;
        compute.guarantee = None;
        compute.accept_idle = false;
        compute.prefer_idle = false;
    }
    spec
}

/// `spec` with `chosen` (the plan's spec id) moved to the front of its priority list, the
/// rest in their order: the renderer sizes the replicas from the first spec, and under
/// Kueue the flavors are tried in list order. An unknown id leaves the list as it is.
pub fn chosen_first(spec: &TaskSpec, chosen: &str) -> TaskSpec {
    let mut spec = spec.clone();
    let specs = &mut spec.compute.specs;
    if let Some(index) = specs.iter().position(|id| id == chosen) {
        let id = specs.remove(index);
        specs.insert(0, id);
    }
    spec
}

/// Deletes the task's Secrets, ConfigMaps and PodMonitor (found by the renderer's
/// `berth.dev/task` label; they carry no ownerReferences) once its attempt ended: hidden
/// env values and the SSH private key do not outlive the run, nor does a scrape of pods
/// that are gone. Called before the end is reported, so a retry's apply never races it.
async fn delete_task_objects(client: &Client, namespace: &str, selector: &str) {
    let params = ListParams::default().labels(selector);
    let secrets: Api<Secret> = Api::namespaced(client.clone(), namespace);
    if let Err(error) = secrets
        .delete_collection(&DeleteParams::default(), &params)
        .await
    {
        tracing::warn!(%namespace, %selector, %error, "cannot delete the task's Secrets");
    }
    let config_maps: Api<ConfigMap> = Api::namespaced(client.clone(), namespace);
    if let Err(error) = config_maps
        .delete_collection(&DeleteParams::default(), &params)
        .await
    {
        tracing::warn!(%namespace, %selector, %error, "cannot delete the task's ConfigMaps");
    }
    let monitors: Api<DynamicObject> =
        Api::namespaced_with(client.clone(), namespace, &pod_monitor_resource());
    if let Err(error) = monitors
        .delete_collection(&DeleteParams::default(), &params)
        .await
    {
        // A cluster without the Prometheus Operator has no PodMonitors to delete.
        match KubeError::from(error) {
            KubeError::NotFound(_) => {}
            error => {
                tracing::warn!(%namespace, %selector, %error, "cannot delete the task's PodMonitors");
            }
        }
    }
}

/// The Prometheus Operator's PodMonitor, which the renderer makes when the cluster
/// scrapes that way.
fn pod_monitor_resource() -> ApiResource {
    ApiResource::from_gvk(&GroupVersionKind::gvk(
        "monitoring.coreos.com",
        "v1",
        "PodMonitor",
    ))
}

/// The selector of one task's objects.
/// Kueue's Workloads, in the version `shared::manifest` renders Kueue objects in
/// (k8s/crds/SOURCES.md: v1beta2 is stored, v1beta1 deprecated).
fn workload_resource() -> ApiResource {
    ApiResource::from_gvk(&GroupVersionKind::gvk(
        "kueue.x-k8s.io",
        "v1beta2",
        "Workload",
    ))
}

/// Whether a job waits for Kueue's admission (it names a LocalQueue), so it has a
/// Workload to watch.
fn queued(job: &DynamicObject) -> bool {
    job.labels()
        .contains_key(shared::manifest::admission::KUEUE_QUEUE_LABEL)
}

fn task_selector(name: &str) -> String {
    format!("{}={name}", shared::manifest::TASK_LABEL)
}

/// Whether objects of this kind live outside namespaces (the renderer's Kueue
/// ResourceFlavors do).
fn cluster_scoped(resource: &ApiResource) -> bool {
    resource.group == "kueue.x-k8s.io" && resource.kind == "ResourceFlavor"
}

/// What applying an attempt's objects gives: the job's kind, resource, name and stored
/// object, and the namespace's Events, subscribed to before the job was created.
type Applied = (
    JobKind,
    ApiResource,
    String,
    DynamicObject,
    (broadcast::Receiver<Arc<KubeEvent>>, HubLease),
);

/// One attempt to run on the cluster: the rendered objects, job last.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The task.
    pub task: TaskId,
    /// Which attempt, from 1.
    pub attempt: u32,
    /// Where its objects go.
    pub namespace: String,
    /// The objects, applied in order; the last one is the job.
    pub objects: Vec<Value>,
    /// SPEC.md section 5: −1 never trips the breaker, n ≥ 0 fails on failure n + 1.
    pub image_pull_retries: i64,
}

/// The job of a task's latest attempt. It stays after the attempt ended, so its logs
/// can still be read while its pods exist; the next attempt replaces it.
struct Tracked {
    attempt: u32,
    namespace: String,
    kind: JobKind,
    resource: ApiResource,
    name: String,
    stopping: Arc<AtomicBool>,
    watch: tokio::task::AbortHandle,
}

/// Runs gangs as PyTorchJobs and RayJobs (see the module docs).
pub struct KubeBackend {
    client: Client,
    settings: KubeSettings,
    catalog: Arc<Catalog>,
    events: broadcast::Sender<Event>,
    jobs: Arc<Mutex<HashMap<TaskId, Tracked>>>,
    hubs: Arc<EventHubs>,
    /// The cleanup Jobs this server follows, by namespace and name: a restart's look
    /// (`cleanups`) finds those a task's end has just applied too, and a lead taken
    /// again lists them again.
    following: Arc<std::sync::Mutex<HashSet<(String, String)>>>,
}

/// A cleanup Job this server follows, until dropped.
struct Following(
    Arc<std::sync::Mutex<HashSet<(String, String)>>>,
    (String, String),
);

impl Following {
    /// The Job taken to follow; `None` when this server follows it already.
    fn take(
        all: &Arc<std::sync::Mutex<HashSet<(String, String)>>>,
        namespace: &str,
        name: &str,
    ) -> Option<Following> {
        let key = (namespace.to_owned(), name.to_owned());
        let mut set = all
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        set.insert(key.clone())
            .then(|| Following(Arc::clone(all), key))
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&self.1);
    }
}

impl KubeBackend {
    /// A backend over `client` (tests pass one over a mocked API server).
    pub fn new(client: Client, settings: KubeSettings, catalog: Arc<Catalog>) -> Self {
        KubeBackend {
            client,
            settings,
            catalog,
            events: broadcast::channel(EVENT_CAPACITY).0,
            jobs: Arc::default(),
            hubs: Arc::default(),
            following: Arc::default(),
        }
    }

    /// Connects as the settings say: their kubeconfig file and context, else the
    /// default kubeconfig, else in-cluster.
    ///
    /// # Errors
    ///
    /// When no configuration is found or it is not valid.
    pub async fn connect(
        settings: KubeSettings,
        catalog: Arc<Catalog>,
    ) -> Result<Self, ::kube::Error> {
        let options = ::kube::config::KubeConfigOptions {
            context: settings.context.clone(),
            ..Default::default()
        };
        let client = match (&settings.kubeconfig, &settings.context) {
            (Some(path), _) => {
                let file = ::kube::config::Kubeconfig::read_from(path)
                    .map_err(::kube::Error::InferKubeconfig)?;
                let config = ::kube::Config::from_custom_kubeconfig(file, &options)
                    .await
                    .map_err(::kube::Error::InferKubeconfig)?;
                Client::try_from(config)?
            }
            (None, Some(_)) => {
                let config = ::kube::Config::from_kubeconfig(&options)
                    .await
                    .map_err(::kube::Error::InferKubeconfig)?;
                Client::try_from(config)?
            }
            (None, None) => Client::try_default().await?,
        };
        Ok(Self::new(client, settings, catalog))
    }

    /// Follows the cleanup Job `name` until it ends, looking every `every`, for at most
    /// `limit`: what became of it, for the task's events. One still not ended then (Kueue
    /// never admitted it, and a suspended Job's deadline does not run; its pod never
    /// placed) is deleted with its pods, as nothing else would delete it, and told as not
    /// ended after `allowed` (since its apply: a server that follows it again after a
    /// restart has less than that left).
    async fn follow_cleanup_job(
        &self,
        namespace: &str,
        name: &str,
        place: &Message,
        (limit, allowed): (Duration, Duration),
        every: Duration,
    ) -> Message {
        let api: Api<k8s_openapi::api::batch::v1::Job> =
            Api::namespaced(self.client.clone(), namespace);
        let until = tokio::time::Instant::now() + limit;
        let mut suspended = false;
        loop {
            match api.get_opt(name).await {
                Ok(None) => {
                    return cleanup_note("event.kube.cleanup.gone", name, place);
                }
                Ok(Some(job)) => {
                    let status = job.status.unwrap_or_default();
                    let condition = |kind: &str| {
                        status
                            .conditions
                            .iter()
                            .flatten()
                            .find(|c| c.type_ == kind && c.status == "True")
                            .cloned()
                    };
                    if condition("Complete").is_some() {
                        return cleanup_note("event.kube.cleanup.removed", name, place);
                    }
                    if let Some(failed) = condition("Failed") {
                        let why = reason_text(
                            failed.reason.as_deref().unwrap_or_default(),
                            failed.message.as_deref().unwrap_or_default(),
                        );
                        let pod = self.cleanup_pod_end(namespace, name).await;
                        let pod = pod.map(|p| format!("; {p}")).unwrap_or_default();
                        return cleanup_note("event.kube.cleanup.failed", name, place)
                            .with("why", format!("{why}{pod}"));
                    }
                    suspended = job.spec.and_then(|s| s.suspend).unwrap_or(false)
                        || condition("Suspended").is_some();
                }
                Err(error) => {
                    tracing::debug!(%namespace, job = name, %error, "cannot look at the cleanup Job; looking again");
                }
            }
            let now = tokio::time::Instant::now();
            if now >= until {
                break;
            }
            tokio::time::sleep(every.min(until - now)).await;
        }
        let waited = allowed.as_secs();
        let state = Message::new(if suspended {
            "event.kube.cleanup.unadmitted"
        } else {
            "event.kube.cleanup.unended"
        })
        .with("secs", waited.to_string());
        let note = match api.delete(name, &DeleteParams::background()).await {
            Ok(_) => cleanup_note("event.kube.cleanup.deleted", name, place),
            Err(::kube::Error::Api(status)) if status.code == 404 => {
                cleanup_note("event.kube.cleanup.gone_since", name, place)
            }
            Err(error) => {
                tracing::warn!(%namespace, job = name, %error, "cannot delete a cleanup Job that did not end");
                cleanup_note("event.kube.cleanup.undeletable", name, place)
                    .with("error", error.to_string())
            }
        };
        note.with_message("state", state)
    }

    /// [`Backend::clean_shared_storage`]: sends the note that the cleanup is under way
    /// and returns what became of it.
    async fn clean_told(
        &self,
        task: &TaskId,
        spec: &TaskSpec,
        ended: shared::record::TaskPhase,
        notes: &super::Notes,
    ) -> Option<Message> {
        // A stop deletes the job and its cluster: nothing is kept to wait for.
        let kept = ended != shared::record::TaskPhase::Stopped;
        let queue = self
            .catalog
            .cluster(&spec.basic.region, &spec.basic.cluster)
            .and_then(|c| match &c.kubernetes.admission {
                shared::catalog::Admission::Kueue { local_queue } => Some(local_queue.clone()),
                _ => None,
            });
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let job = cleanup_job(task, spec, &self.settings.cleanup_image, kept, queue, now)?;
        let namespace = match self.settings.namespace_for(&spec.basic.project_group) {
            Ok(namespace) => namespace,
            Err(error) => {
                tracing::warn!(task = %task, %error, "cannot clean up a RayJob's shared storage");
                return None;
            }
        };
        let (claim, dir) = shared::manifest::pod::ray_shared_storage(spec, &task.0)?;
        let place = Message::new("event.kube.cleanup.place")
            .with("dir", dir.as_str())
            .with("claim", claim)
            .with("namespace", namespace.as_str());
        let rayjob = |key: &str| {
            Message::new(key)
                .with("task", task.0.as_str())
                .with_message("place", place.clone())
        };
        // Only under a job that has ended or is gone: a task can end while its job runs
        // on (one not taken back at a restart), and its Ray session lives there. A job
        // Berth ends itself (the image-pull breaker, a Kueue deactivation) is deleted just
        // after its end is told: it is given a while.
        let resource = ApiResource::from_gvk(&GroupVersionKind::gvk("ray.io", "v1", "RayJob"));
        let jobs: Api<DynamicObject> =
            Api::namespaced_with(self.client.clone(), &namespace, &resource);
        let mut tries = CLEANUP_JOB_LOOKS;
        loop {
            match jobs.get_opt(&task.0).await {
                Ok(None) => break,
                Ok(Some(job))
                    if job.metadata.deletion_timestamp.is_some()
                        || matches!(
                            job_phase(JobKind::Ray, &to_value(&job)),
                            JobPhase::Succeeded | JobPhase::Failed(_)
                        ) =>
                {
                    break;
                }
                Ok(Some(_)) if tries > 1 => {
                    tries -= 1;
                    tokio::time::sleep(CLEANUP_JOB_LOOK_EVERY).await;
                }
                Ok(Some(_)) => {
                    tracing::warn!(task = %task, %namespace, "the task's RayJob still runs; its shared storage is not cleaned up");
                    return Some(rayjob("event.kube.cleanup.still_runs"));
                }
                Err(error) => {
                    tracing::warn!(task = %task, %namespace, %error, "cannot tell whether the task's RayJob still runs; its shared storage is not cleaned up");
                    return Some(
                        rayjob("event.kube.cleanup.unknown").with("error", error.to_string()),
                    );
                }
            }
        }
        let name = job.metadata.name.clone().unwrap_or_default();
        let api: Api<k8s_openapi::api::batch::v1::Job> =
            Api::namespaced(self.client.clone(), &namespace);
        if let Err(error) = api.patch(&name, &apply_params(), &Patch::Apply(&job)).await {
            tracing::warn!(task = %task, %namespace, %error, "cannot start the job that cleans up a RayJob's shared storage; its directory stays");
            return Some(
                cleanup_note("event.kube.cleanup.not_created", &name, &place)
                    .with("error", error.to_string()),
            );
        }
        // Applied again over a Job a restart's look follows already: that one tells, and
        // an "under way" said now could come after its end.
        let _following = Following::take(&self.following, &namespace, &name)?;
        // Said at once: the end may be an hour away (debug mode's kept cluster, Kueue).
        let _ = notes.send(cleanup_note("event.kube.cleanup.under_way", &name, &place));
        let deadline = follow_limit(job.spec.as_ref());
        Some(
            self.follow_cleanup_job(
                &namespace,
                &name,
                &place,
                (deadline, deadline),
                CLEANUP_FOLLOW_EVERY,
            )
            .await,
        )
    }

    /// How the last pod of a failed cleanup Job ended or why it never ran (its
    /// container's termination, with `rm`'s complaint, or what it waits for), if any pod
    /// says.
    async fn cleanup_pod_end(&self, namespace: &str, job: &str) -> Option<String> {
        let api: Api<Pod> = Api::namespaced(self.client.clone(), namespace);
        let params = ListParams::default().labels(&format!("job-name={job}"));
        let pods = match api.list(&params).await {
            Ok(pods) => pods.items,
            Err(error) => {
                tracing::debug!(%namespace, job, %error, "cannot list a failed cleanup Job's pods");
                return None;
            }
        };
        let mut pods: Vec<Pod> = pods;
        pods.sort_by(|a, b| {
            a.metadata
                .creation_timestamp
                .cmp(&b.metadata.creation_timestamp)
        });
        pods.iter().rev().find_map(|pod| {
            let state = pod
                .status
                .as_ref()?
                .container_statuses
                .as_ref()?
                .first()?
                .state
                .as_ref()?;
            let name = pod.metadata.name.as_deref().unwrap_or_default();
            if let Some(end) = &state.terminated {
                // A long `rm` complains once a file: its first line says enough.
                let message = end.message.as_deref().unwrap_or_default().trim();
                let mut lines = message.lines();
                let first = lines.next().unwrap_or_default();
                let more = match lines.count() {
                    0 => String::new(),
                    1 => " (and 1 more line)".to_owned(),
                    n => format!(" (and {n} more lines)"),
                };
                let why = reason_text(end.reason.as_deref().unwrap_or_default(), first) + &more;
                return Some(format!("pod {name} exit code {}: {why}", end.exit_code));
            }
            let waiting = state.waiting.as_ref()?;
            Some(format!(
                "pod {name} waiting: {}",
                reason_text(
                    waiting.reason.as_deref().unwrap_or_default(),
                    waiting.message.as_deref().unwrap_or_default(),
                )
            ))
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<TaskId, Tracked>> {
        self.jobs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Applies an attempt's objects and starts watching its job.
    ///
    /// # Errors
    ///
    /// [`BackendError::Kube`] when an object cannot be applied. Nothing is watched then,
    /// and the task's objects applied before it (Secrets, ConfigMaps: found by the task
    /// label) are deleted before the error is returned: hidden env values and the SSH
    /// private key do not outlive a start that failed partway.
    pub async fn submit(&self, submission: Submission) -> Result<()> {
        let Submission {
            task,
            attempt,
            namespace,
            mut objects,
            image_pull_retries,
        } = submission;
        // The renderer labels every object of the task with the job's name.
        let selector = task_selector(
            objects
                .last()
                .and_then(|job| job["metadata"]["name"].as_str())
                .unwrap_or(&task.0),
        );
        let mut sent = false;
        let applied = self
            .apply_all(&task, attempt, &namespace, &mut objects, &mut sent)
            .await;
        let (kind, resource, name, object, cluster_events) = match applied {
            Ok(applied) => applied,
            Err(error) => {
                if sent {
                    delete_task_objects(&self.client, &namespace, &selector).await;
                }
                return Err(error);
            }
        };
        let stopping = Arc::new(AtomicBool::new(false));
        let mut tracker = Tracker::new(
            task.clone(),
            attempt,
            kind,
            name.clone(),
            object.uid().unwrap_or_default(),
            image_pull_retries,
            Arc::clone(&stopping),
        );
        tracker.queued = queued(&object);
        let watch = tokio::spawn(follow(
            self.client.clone(),
            self.events.clone(),
            cluster_events,
            namespace.clone(),
            resource.clone(),
            tracker,
        ))
        .abort_handle();
        self.lock().insert(
            task,
            Tracked {
                attempt,
                namespace,
                kind,
                resource,
                name,
                stopping,
                watch,
            },
        );
        Ok(())
    }

    /// Applies the objects in order, the job last (an earlier attempt's job deleted
    /// first); `sent` turns true before the first write, so the caller knows whether
    /// anything may be there to clean up.
    async fn apply_all(
        &self,
        task: &TaskId,
        attempt: u32,
        namespace: &str,
        objects: &mut [Value],
        sent: &mut bool,
    ) -> Result<Applied> {
        let fail = |action: String, source: KubeError| BackendError::Kube {
            task: task.clone(),
            action,
            cause: source,
        };
        let Some((job, others)) = objects.split_last_mut() else {
            return Err(fail(
                "apply the job".to_owned(),
                KubeError::BadObject {
                    index: 0,
                    missing: "kind",
                },
            ));
        };
        job["metadata"]["labels"][ATTEMPT_LABEL] = json!(attempt.to_string());
        // Where an object goes: its API (cluster-wide or the namespace), and its name.
        let target = |object: &mut Value, index: usize| {
            let (resource, name) =
                identify(object, index).map_err(|e| fail(format!("apply object {index}"), e))?;
            let api: Api<DynamicObject> = if cluster_scoped(&resource) {
                if let Some(meta) = object["metadata"].as_object_mut() {
                    meta.remove("namespace");
                }
                Api::all_with(self.client.clone(), &resource)
            } else {
                // The API refuses a body whose namespace differs from the request's.
                object["metadata"]["namespace"] = json!(namespace);
                Api::namespaced_with(self.client.clone(), namespace, &resource)
            };
            Ok::<_, BackendError>((api, resource, name))
        };
        for (index, object) in others.iter_mut().enumerate() {
            let (api, resource, name) = target(object, index)?;
            *sent = true;
            api.patch(&name, &apply_params(), &Patch::Apply(&*object))
                .await
                .map_err(|e| fail(format!("apply {} {name}", resource.kind), e.into()))?;
        }
        let index = others.len();
        let (api, resource, name) = target(job, index)?;
        let action = format!("apply {} {name}", resource.kind);
        let kind = JobKind::of(&resource.api_version, &resource.kind).ok_or_else(|| {
            fail(
                action.clone(),
                KubeError::BadObject {
                    index,
                    missing: "PyTorchJob or RayJob kind",
                },
            )
        })?;
        self.forget(task);
        // Before the job exists, so none of its first Events is missed.
        let cluster_events = self.hubs.subscribe(&self.client, namespace);
        *sent = true;
        self.clear_previous(&api, &name, attempt)
            .await
            .map_err(|e| fail(format!("delete the previous {} {name}", resource.kind), e))?;
        let object = api
            .patch(&name, &apply_params(), &Patch::Apply(&*job))
            .await
            .map_err(|e| fail(action, e.into()))?;
        Ok((kind, resource, name, object, cluster_events))
    }

    /// Watches again a job an earlier server started (see [`Backend::take_back`]): from
    /// now on, with what the store knew of it, so nothing said before is said again,
    /// and what was not (the job's and its pods' Events after the task's last recorded
    /// event, moved onto the cluster's clock by `cluster_ahead`) is said now.
    fn resume(
        &self,
        resumable: &super::Resumable,
        namespace: &str,
        (kind, resource): (JobKind, ApiResource),
        job: &DynamicObject,
        cluster_ahead: SignedDuration,
    ) {
        let name = job.name_any();
        let stopping = Arc::new(AtomicBool::new(false));
        let image_pull_retries = resumable
            .spec
            .advanced
            .image_pull_retries
            .unwrap_or(self.catalog.image_pull_retries_default);
        let mut tracker = Tracker::new(
            resumable.task.clone(),
            resumable.attempt,
            kind,
            name.clone(),
            job.uid().unwrap_or_default(),
            image_pull_retries,
            Arc::clone(&stopping),
        );
        tracker.started = resumable.started;
        tracker.queued = queued(job);
        // Not started: it waited for admission, and that was said when it began to.
        tracker.suspended = !resumable.started;
        // The earlier servers told the job's Events up to the task's last recorded event,
        // on their clock; the Events' times are the cluster's, so that moment is moved
        // onto the cluster's clock. Those after it came while no server watched.
        tracker.since = resumable.last_event.map(|at| {
            let at = Timestamp::from_millisecond(at.0).unwrap_or_else(|_| Timestamp::now());
            at.checked_add(cluster_ahead).unwrap_or(at)
        });
        tracker.taken_back_at = Timestamp::now().checked_add(cluster_ahead).ok();
        tracker.catch_up = CATCH_UP_EVENTS;
        tracker.resumed = true;
        self.forget(&resumable.task);
        let cluster_events = self.hubs.subscribe(&self.client, namespace);
        let watch = tokio::spawn(follow(
            self.client.clone(),
            self.events.clone(),
            cluster_events,
            namespace.to_owned(),
            resource.clone(),
            tracker,
        ))
        .abort_handle();
        self.lock().insert(
            resumable.task.clone(),
            Tracked {
                attempt: resumable.attempt,
                namespace: namespace.to_owned(),
                kind,
                resource,
                name,
                stopping,
                watch,
            },
        );
    }

    /// How far the cluster's clock is ahead of this server's (negative: behind), from
    /// the API server's `Date` header; zero when it sends none. The header has whole
    /// seconds, cut down: half a second is added, and the request's midpoint is taken
    /// as when it was written.
    async fn cluster_ahead(&self, namespace: &str) -> SignedDuration {
        // Asked while the take-back holds the attempts: an API server that does not answer
        // must not hold them for kube's own minutes.
        tokio::time::timeout(
            std::time::Duration::from_secs(5),
            self.clock_offset(namespace),
        )
        .await
        .unwrap_or(SignedDuration::ZERO)
    }

    async fn clock_offset(&self, namespace: &str) -> SignedDuration {
        let request = ::kube::core::Request::new(format!("/api/v1/namespaces/{namespace}/events"))
            .list(&ListParams::default().limit(1));
        let Ok(request) = request else {
            return SignedDuration::ZERO;
        };
        let before = Timestamp::now();
        let response = self
            .client
            .send(request.map(::kube::client::Body::from))
            .await;
        let after = Timestamp::now();
        let date = response.ok().and_then(|r| {
            let date = r.headers().get(http::header::DATE)?.to_str().ok()?;
            k8s_openapi::jiff::fmt::rfc2822::DateTimeParser::new()
                .parse_timestamp(date)
                .ok()
        });
        match date {
            Some(date) => {
                let midpoint = before
                    .checked_add(after.duration_since(before) / 2)
                    .unwrap_or(before);
                let date = date
                    .checked_add(SignedDuration::from_millis(500))
                    .unwrap_or(date);
                date.duration_since(midpoint)
            }
            None => {
                tracing::info!(
                    "the Kubernetes API sends no Date: its clock is taken to be this server's"
                );
                SignedDuration::ZERO
            }
        }
    }

    /// Stops watching a task's earlier attempt.
    fn forget(&self, task: &TaskId) {
        if let Some(old) = self.lock().remove(task) {
            old.watch.abort();
        }
    }

    /// Deletes a job an earlier attempt left (foreground, so its pods go first) and
    /// waits until it is gone.
    async fn clear_previous(
        &self,
        api: &Api<DynamicObject>,
        name: &str,
        attempt: u32,
    ) -> Result<(), KubeError> {
        let existing = match api.get_opt(name).await? {
            Some(existing) => existing,
            None => return Ok(()),
        };
        if existing.labels().get(ATTEMPT_LABEL) == Some(&attempt.to_string()) {
            // The same attempt applied again (a retried start): keep it.
            return Ok(());
        }
        let uid = existing.uid().unwrap_or_default();
        match api.delete(name, &DeleteParams::foreground()).await {
            Ok(_) => {}
            Err(error) => match KubeError::from(error) {
                KubeError::NotFound(_) => return Ok(()),
                other => return Err(other),
            },
        }
        let gone = ::kube::runtime::wait::await_condition(
            api.clone(),
            name,
            ::kube::runtime::conditions::is_deleted(&uid),
        );
        match tokio::time::timeout(DELETE_WAIT, gone).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(::kube::runtime::wait::Error::ProbeFailed(error))) => {
                Err(KubeError::Unavailable(match error {
                    watcher::Error::InitialListFailed(e)
                    | watcher::Error::WatchStartFailed(e)
                    | watcher::Error::WatchFailed(e) => e,
                    other => ::kube::Error::Service(Box::new(other)),
                }))
            }
            Err(_) => Err(KubeError::StillDeleting(name.to_owned())),
        }
    }
}

/// How many times, [`CLEANUP_JOB_LOOK_EVERY`] apart, the cleanup looks for the task's
/// RayJob to have ended or gone before it leaves the storage alone (half a minute).
const CLEANUP_JOB_LOOKS: u32 = 15;
const CLEANUP_JOB_LOOK_EVERY: Duration = Duration::from_secs(2);

/// How long the Job that cleans up a RayJob's shared storage waits before it removes
/// the task's directory, besides the time debug mode keeps the cluster: KubeRay deletes
/// the cluster when the job ends, and its pods may write Ray's session files until they
/// are gone (30 s of grace by default).
const CLEANUP_DELAY_SECS: u32 = 60;

/// How often Berth looks at the cleanup Job it follows.
const CLEANUP_FOLLOW_EVERY: Duration = Duration::from_secs(15);

/// How long past the cleanup Job's own deadline (`activeDeadlineSeconds`) Berth waits for
/// it to end before deleting it: that deadline counts from the Job's start, which comes
/// after the apply (its pod placed, its image pulled), and not while Kueue holds it.
const CLEANUP_FOLLOW_MARGIN: Duration = Duration::from_secs(300);

/// The batch Job that removes a RayJob's directory of its shared storage ("clean up on
/// exit", SPEC.md section 6), or `None` when the spec does not ask for it. On a cluster
/// the directory is the task's `subPath` of the volume's claim
/// ([`shared::manifest::pod::ray_shared_storage`]): only a pod that mounts the claim can
/// remove it. It waits out debug mode's kept cluster first, which still uses it, and is
/// deleted by Kubernetes an hour after it ends. Its pod carries none of the task's labels,
/// so the task's PodMonitor never selects it.
/// `now` is the time of the apply, in seconds since the Unix epoch: the pod removes the
/// directory once the wait past it is over, so a pod the Job runs again (its `rm` failed)
/// does not wait the whole time again, and its complaint is told rather than the Job's
/// deadline.
fn cleanup_job(
    task: &TaskId,
    spec: &TaskSpec,
    image: &str,
    kept: bool,
    queue: Option<String>,
    now: u64,
) -> Option<k8s_openapi::api::batch::v1::Job> {
    use k8s_openapi::api::batch::v1::{Job, JobSpec};
    use k8s_openapi::api::core::v1::{
        Container, PersistentVolumeClaimVolumeSource, PodSpec, PodTemplateSpec,
        ResourceRequirements, Volume, VolumeMount,
    };
    use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta as Meta;
    if !spec.ray.shared_storage.clean_on_exit {
        return None;
    }
    let (claim, dir) = shared::manifest::pod::ray_shared_storage(spec, &task.0)?;
    let wait = CLEANUP_DELAY_SECS
        + if kept && spec.ray.debug.enabled {
            spec.ray.debug.keep_secs
        } else {
            0
        };
    // At most 53 characters: a RayJob's name (the task id) is at most 47.
    let name = format!("{}-clean", task.0);
    let mut labels: std::collections::BTreeMap<String, String> =
        [(CLEANS_LABEL.to_owned(), task.0.clone())].into();
    // Under Kueue, in the task's queue: a Kueue that manages Jobs without a queue label
    // would hold it for ever.
    if let Some(queue) = queue {
        labels.insert(
            shared::manifest::admission::KUEUE_QUEUE_LABEL.to_owned(),
            queue,
        );
    }
    let amount = |cpu: &str, memory: &str| {
        [
            ("cpu".to_owned(), Quantity(cpu.to_owned())),
            ("memory".to_owned(), Quantity(memory.to_owned())),
        ]
        .into()
    };
    Some(Job {
        metadata: Meta {
            name: Some(name),
            labels: Some(labels),
            ..Meta::default()
        },
        spec: Some(JobSpec {
            backoff_limit: Some(3),
            // A Job that cannot run (its image not pulled, its pod refused or never
            // placed) fails then, and its TTL removes it too.
            active_deadline_seconds: Some(i64::from(wait) + 1800),
            ttl_seconds_after_finished: Some(3600),
            template: PodTemplateSpec {
                metadata: None,
                spec: Some(PodSpec {
                    restart_policy: Some("Never".to_owned()),
                    automount_service_account_token: Some(false),
                    containers: vec![Container {
                        name: "clean".to_owned(),
                        image: Some(image.to_owned()),
                        // `rm`'s complaint (a `root_squash` share's "Permission denied")
                        // becomes the pod's termination message, which Berth reports.
                        termination_message_policy: Some("FallbackToLogsOnError".to_owned()),
                        // The time to remove at and the directory as arguments, not in
                        // the script.
                        command: Some(
                            [
                                "sh",
                                "-c",
                                CLEANUP_SCRIPT,
                                "clean",
                                &(now + u64::from(wait)).to_string(),
                                &dir,
                            ]
                            .map(str::to_owned)
                            .to_vec(),
                        ),
                        volume_mounts: Some(vec![VolumeMount {
                            name: "shared".to_owned(),
                            mount_path: "/shared".to_owned(),
                            ..VolumeMount::default()
                        }]),
                        resources: Some(ResourceRequirements {
                            requests: Some(amount("10m", "16Mi")),
                            limits: Some(amount("100m", "64Mi")),
                            ..ResourceRequirements::default()
                        }),
                        ..Container::default()
                    }],
                    volumes: Some(vec![Volume {
                        name: "shared".to_owned(),
                        persistent_volume_claim: Some(PersistentVolumeClaimVolumeSource {
                            claim_name: claim.to_owned(),
                            read_only: None,
                        }),
                        ..Volume::default()
                    }]),
                    ..PodSpec::default()
                }),
            },
            ..JobSpec::default()
        }),
        status: None,
    })
}

/// The label of a cleanup Job: the task whose directory it removes.
const CLEANS_LABEL: &str = "berth.dev/cleans";

/// How long Berth follows a cleanup Job from its apply: its own deadline and a margin.
fn follow_limit(spec: Option<&k8s_openapi::api::batch::v1::JobSpec>) -> Duration {
    spec.and_then(|s| s.active_deadline_seconds)
        .and_then(|secs| u64::try_from(secs).ok())
        .map_or(Duration::ZERO, Duration::from_secs)
        + CLEANUP_FOLLOW_MARGIN
}

/// A cleanup Job as listed ([`cleanup_job`] made it): its task, what it removes and
/// when Berth gives up on it. `None` for one not as Berth makes them.
fn found_cleanup(job: &k8s_openapi::api::batch::v1::Job) -> Option<super::Cleanup> {
    let meta = &job.metadata;
    let task = TaskId(meta.labels.as_ref()?.get(CLEANS_LABEL)?.clone());
    let spec = job.spec.as_ref()?;
    let pod = spec.template.spec.as_ref()?;
    let claim = pod
        .volumes
        .iter()
        .flatten()
        .find_map(|v| v.persistent_volume_claim.as_ref())?
        .claim_name
        .clone();
    let dir = pod.containers.first()?.command.as_ref()?.last()?.clone();
    let namespace = meta.namespace.clone()?;
    let allowed = follow_limit(Some(spec));
    // Counted from its creation, as the server that applied it counted from the apply.
    let created = meta.creation_timestamp.as_ref()?.0;
    let created = std::time::UNIX_EPOCH
        + Duration::from_millis(u64::try_from(created.as_millisecond()).ok()?);
    let place = Message::new("event.kube.cleanup.place")
        .with("dir", dir)
        .with("claim", claim)
        .with("namespace", namespace.as_str());
    Some(super::Cleanup {
        task,
        job: meta.name.clone()?,
        namespace,
        place,
        give_up_at: created + allowed,
        allowed,
    })
}

/// What the cleanup Job's pod runs: wait until `$1` (seconds since the epoch), then
/// remove `$2` beneath the shared volume. POSIX `sh` and `date +%s` (busybox has both).
const CLEANUP_SCRIPT: &str =
    r#"w=$(( $1 - $(date +%s) )); if [ "$w" -gt 0 ]; then sleep "$w"; fi; rm -rf -- "/shared/$2""#;

/// A line of the task's events about its cleanup Job `job` (`key`, in the reader's
/// language), about the directory `place` says.
fn cleanup_note(key: &str, job: &str, place: &Message) -> Message {
    Message::new(key)
        .with("job", job)
        .with_message("place", place.clone())
}

fn apply_params() -> PatchParams {
    // Berth owns these objects: a field another manager took is taken back.
    PatchParams::apply(FIELD_MANAGER).force()
}

/// The resource and name of a rendered object.
fn identify(object: &Value, index: usize) -> Result<(ApiResource, String), KubeError> {
    let field = |value: &Value, missing: &'static str| {
        value
            .as_str()
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .ok_or(KubeError::BadObject { index, missing })
    };
    let api_version = field(&object["apiVersion"], "apiVersion")?;
    let kind = field(&object["kind"], "kind")?;
    let name = field(&object["metadata"]["name"], "metadata.name")?;
    let (group, version) = match api_version.split_once('/') {
        Some((group, version)) => (group, version),
        None => ("", api_version.as_str()),
    };
    let gvk = GroupVersionKind::gvk(group, version, &kind);
    Ok((ApiResource::from_gvk(&gvk), name))
}

#[async_trait::async_trait]
impl Backend for KubeBackend {
    async fn await_reachable(&self) {
        let namespace = self
            .catalog
            .project_groups
            .iter()
            .find_map(|g| self.settings.namespace_for(&g.id).ok());
        let Some(namespace) = namespace else {
            return;
        };
        // Events: served by every API server (no operator's CRD to wait for), and listed
        // by the backend anyway.
        let api: Api<KubeEvent> = Api::namespaced(self.client.clone(), &namespace);
        let one = ListParams::default().limit(1);
        if let Err(error) = list_patiently(&api, &one, TAKE_BACK_PATIENCE).await {
            tracing::warn!(%error, "the Kubernetes API did not answer in time; the jobs it runs are not taken back");
        }
    }

    async fn clean_shared_storage(
        &self,
        task: &TaskId,
        spec: &TaskSpec,
        ended: shared::record::TaskPhase,
        notes: super::Notes,
    ) {
        // The receiver goes only with its runner's task: nobody is left to hear.
        if let Some(note) = self.clean_told(task, spec, ended, &notes).await {
            let _ = notes.send(note);
        }
    }

    async fn cleanups(&self) -> Vec<super::Cleanup> {
        let namespaces: std::collections::BTreeSet<String> = self
            .catalog
            .project_groups
            .iter()
            .filter_map(|g| self.settings.namespace_for(&g.id).ok())
            .collect();
        let params = ListParams::default().labels(CLEANS_LABEL);
        let mut found = Vec::new();
        for namespace in namespaces {
            let api: Api<k8s_openapi::api::batch::v1::Job> =
                Api::namespaced(self.client.clone(), &namespace);
            // In the background of a restart: an API server restarting with Berth is
            // waited for, as for the jobs taken back.
            match list_patiently(&api, &params, TAKE_BACK_PATIENCE).await {
                Ok(jobs) => found.extend(jobs.items.iter().filter_map(found_cleanup)),
                Err(error) => {
                    tracing::warn!(%namespace, %error, "cannot list the Jobs that clean up RayJobs' shared storage; those an earlier server began are not followed");
                }
            }
        }
        found
    }

    async fn follow_cleanup(&self, cleanup: &super::Cleanup) -> Option<Message> {
        let _following = Following::take(&self.following, &cleanup.namespace, &cleanup.job)?;
        let left = cleanup
            .give_up_at
            .duration_since(std::time::SystemTime::now())
            .unwrap_or_default();
        Some(
            self.follow_cleanup_job(
                &cleanup.namespace,
                &cleanup.job,
                &cleanup.place,
                (left, cleanup.allowed),
                CLEANUP_FOLLOW_EVERY,
            )
            .await,
        )
    }

    fn cleanup_note(&self, note: &Message) -> Option<(String, bool)> {
        let end = note.key.strip_prefix("event.kube.cleanup.")? != "under_way";
        match note.args.get("job")? {
            Arg::Text(job) => Some((job.clone(), end)),
            Arg::Message(_) | Arg::List(_) => None,
        }
    }

    fn runs_ray_clusters(&self) -> bool {
        // A finished job is left to KubeRay (only a stop deletes it), which deletes
        // the cluster `ttlSecondsAfterFinished` after the end (`shared::manifest`).
        true
    }

    async fn start(&self, gang: Gang) -> Result<()> {
        let Some(source) = gang.source.as_deref() else {
            return Err(BackendError::Start {
                task: gang.task.clone(),
                replica: 0,
                reason: "the gang carries no spec to render".to_owned(),
            });
        };
        let namespace = self
            .settings
            .namespace_for(&source.spec.basic.project_group)
            .map_err(|cause| BackendError::Kube {
                task: gang.task.clone(),
                action: "choose the namespace".to_owned(),
                cause,
            })?;
        let objects = render_objects(
            &gang.task,
            &source.spec,
            &self.catalog,
            &source.owner,
            &namespace,
        )?;
        let image_pull_retries = source
            .spec
            .advanced
            .image_pull_retries
            .unwrap_or(self.catalog.image_pull_retries_default);
        self.submit(Submission {
            task: gang.task.clone(),
            attempt: gang.attempt,
            namespace,
            objects,
            image_pull_retries,
        })
        .await
    }

    async fn stop(&self, task: &TaskId, attempt: u32, _grace: Duration) -> Result<()> {
        let (namespace, resource, name, stopping) = {
            let jobs = self.lock();
            let tracked = jobs
                .get(task)
                .filter(|t| t.attempt == attempt)
                .ok_or_else(|| BackendError::NotRunning {
                    task: task.clone(),
                    attempt,
                })?;
            (
                tracked.namespace.clone(),
                tracked.resource.clone(),
                tracked.name.clone(),
                Arc::clone(&tracked.stopping),
            )
        };
        stopping.store(true, Ordering::SeqCst);
        let api: Api<DynamicObject> =
            Api::namespaced_with(self.client.clone(), &namespace, &resource);
        // Deleted under Kueue too: a suspended job would not stay stopped, since Kueue
        // sets `suspend: false` on admission whatever its value (k8s/RULES.md section 9);
        // the job's Workload goes with it by its owner reference.
        match api.delete(&name, &DeleteParams::foreground()).await {
            Ok(_) => {}
            Err(error) => match KubeError::from(error) {
                // Gone already: the watcher reports the end.
                KubeError::NotFound(_) => {}
                cause => {
                    return Err(BackendError::Kube {
                        task: task.clone(),
                        action: format!("delete {} {name}", resource.kind),
                        cause,
                    });
                }
            },
        }
        Ok(())
    }

    fn events(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    /// Deletes (foreground) every Berth job in the project groups' namespaces, and every
    /// task's Secrets, ConfigMaps and PodMonitors there: after a restart the runner re-runs or fails
    /// the tasks that were running, and a failed task's job must not keep its GPUs. Each delete is conditional on the job's uid,
    /// so a new attempt's job of the same name is never hit. This assumes one Berth per
    /// set of namespaces.
    async fn end_leftovers(&self) -> usize {
        self.take_back(&[]).await.ended
    }

    /// [`Backend::end_leftovers`], but a job of a task's current attempt that still
    /// exists and is not being deleted is kept with its Secrets, ConfigMaps and
    /// PodMonitor, and watched again (from its status now: one that ended while no
    /// server watched ends the attempt as it would have live). A job of an older
    /// attempt, of a task not running, or of another kind than the task's, is deleted.
    async fn release(&self, task: &TaskId, attempt: u32) {
        let ours = self.lock().get(task).is_some_and(|t| t.attempt == attempt);
        if ours {
            self.forget(task);
        }
    }

    async fn take_back(&self, running: &[super::Resumable]) -> super::TakenBack {
        let mut back = super::TakenBack::default();
        let namespaces: HashSet<String> = self
            .catalog
            .project_groups
            .iter()
            .filter_map(|g| self.settings.namespace_for(&g.id).ok())
            .collect();
        let mut cluster_ahead = SignedDuration::ZERO;
        if let (false, Some(namespace)) = (running.is_empty(), namespaces.iter().next()) {
            cluster_ahead = self.cluster_ahead(namespace).await;
        }
        for namespace in &namespaces {
            let mut kept = Vec::new();
            for kind in [JobKind::PyTorch, JobKind::Ray] {
                let (group, version, kind_name) = match kind {
                    JobKind::PyTorch => ("kubeflow.org", "v1", "PyTorchJob"),
                    JobKind::Ray => ("ray.io", "v1", "RayJob"),
                };
                let resource =
                    ApiResource::from_gvk(&GroupVersionKind::gvk(group, version, kind_name));
                let api: Api<DynamicObject> =
                    Api::namespaced_with(self.client.clone(), namespace, &resource);
                let params = ListParams::default().labels(ATTEMPT_LABEL);
                // Patient only with jobs to take back: leftovers alone can wait for the
                // next restart, and the server for no API server.
                let patience = if running.is_empty() {
                    Duration::ZERO
                } else {
                    TAKE_BACK_LIST_PATIENCE
                };
                let jobs = match list_patiently(&api, &params, patience).await {
                    Ok(jobs) => jobs.items,
                    Err(error) => {
                        // A kind whose operator is not installed has nothing to end.
                        if !matches!(KubeError::from(error), KubeError::NotFound(_)) {
                            tracing::warn!(%namespace, kind = kind_name, "cannot list leftover jobs");
                        }
                        continue;
                    }
                };
                for job in jobs {
                    let name = job.name_any();
                    let resumable = running.iter().find(|r| {
                        r.task.0 == name
                            && job.labels().get(ATTEMPT_LABEL) == Some(&r.attempt.to_string())
                            && r.spec.is_ray() == (kind == JobKind::Ray)
                            && self
                                .settings
                                .namespace_for(&r.spec.basic.project_group)
                                .is_ok_and(|ns| &ns == namespace)
                    });
                    // A job being deleted (a stop, or a lost lead) is going: not taken back.
                    if let Some(resumable) =
                        resumable.filter(|_| job.metadata.deletion_timestamp.is_none())
                    {
                        self.resume(
                            resumable,
                            namespace,
                            (kind, resource.clone()),
                            &job,
                            cluster_ahead,
                        );
                        back.taken.push(resumable.task.clone());
                        kept.push(name);
                        continue;
                    }
                    let params = DeleteParams {
                        preconditions: Some(::kube::api::Preconditions {
                            uid: job.uid(),
                            resource_version: None,
                        }),
                        ..DeleteParams::foreground()
                    };
                    match api.delete(&name, &params).await {
                        Ok(_) => back.ended += 1,
                        Err(error) => {
                            tracing::warn!(%namespace, kind = kind_name, %name, %error, "cannot end a leftover job");
                        }
                    }
                }
            }
            // Every other task's Secrets, ConfigMaps and PodMonitors: a task re-run
            // applies its own again; a job taken back still needs its own.
            let mut selector = shared::manifest::TASK_LABEL.to_owned();
            if !kept.is_empty() {
                kept.sort();
                selector = format!(
                    "{selector},{} notin ({})",
                    shared::manifest::TASK_LABEL,
                    kept.join(",")
                );
            }
            delete_task_objects(&self.client, namespace, &selector).await;
        }
        back
    }

    fn log_path(&self, _task: &TaskId, _attempt: u32, _replica: u32) -> PathBuf {
        // No log files here: logs are streamed from the pods (`log_stream`).
        PathBuf::new()
    }

    async fn log_stream(
        &self,
        task: &TaskId,
        attempt: u32,
        replica: u32,
        follow: bool,
    ) -> Result<Option<LogStream>> {
        self.pod_log(task, attempt, replica, follow, None).await
    }

    async fn log_stream_from_end(
        &self,
        task: &TaskId,
        attempt: u32,
        replica: u32,
        lines: u64,
    ) -> Result<Option<LogStream>> {
        // More lines than `i64` holds is the whole log, as no `tailLines` at all.
        let lines = i64::try_from(lines).ok();
        self.pod_log(task, attempt, replica, true, lines).await
    }
}

impl KubeBackend {
    /// The log of a replica's pod, its first container's: to its end, or followed; from
    /// its last `tail_lines` lines, or from its start.
    async fn pod_log(
        &self,
        task: &TaskId,
        attempt: u32,
        replica: u32,
        follow: bool,
        tail_lines: Option<i64>,
    ) -> Result<Option<LogStream>> {
        let (namespace, kind, name) = {
            let jobs = self.lock();
            let tracked = jobs
                .get(task)
                .filter(|t| t.attempt == attempt)
                .ok_or_else(|| BackendError::NotRunning {
                    task: task.clone(),
                    attempt,
                })?;
            (
                tracked.namespace.clone(),
                tracked.kind,
                tracked.name.clone(),
            )
        };
        let fail = |action: String, error: ::kube::Error| BackendError::Kube {
            task: task.clone(),
            action,
            cause: error.into(),
        };
        let pods: Api<Pod> = Api::namespaced(self.client.clone(), &namespace);
        let (selector, nth) = kind.replica_selector(&name, replica);
        let mut found = pods
            .list(&ListParams::default().labels(&selector))
            .await
            .map_err(|e| fail(format!("list the pods of replica {replica}"), e))?
            .items;
        found.sort_by_key(ResourceExt::name_any);
        let Some(pod) = found.get(nth) else {
            // Not created yet (or gone): nothing to read.
            return Ok(Some(futures_util::stream::empty().boxed()));
        };
        let pod_name = pod.name_any();
        let container = pod
            .spec
            .as_ref()
            .and_then(|s| s.containers.first())
            .map(|c| c.name.clone());
        let params = LogParams {
            container,
            follow,
            tail_lines,
            ..LogParams::default()
        };
        let reader = match pods.log_stream(&pod_name, &params).await {
            Ok(reader) => reader,
            // "container … is waiting to start": nothing to read yet, as for a pod not
            // created; not a log that broke off.
            Err(::kube::Error::Api(status)) if status.code == 400 => {
                return Ok(Some(futures_util::stream::empty().boxed()));
            }
            Err(e) => return Err(fail(format!("read the log of pod {pod_name}"), e)),
        };
        let chunks = futures_util::stream::unfold(Box::pin(reader), |mut reader| async move {
            let mut buffer = vec![0u8; 16 * 1024];
            match reader.read(&mut buffer).await {
                Ok(0) => None,
                Ok(n) => {
                    buffer.truncate(n);
                    Some((Ok(buffer), reader))
                }
                Err(error) => Some((Err(error), reader)),
            }
        });
        Ok(Some(chunks.boxed()))
    }
}

impl KubeBackend {
    /// What pods outside Berth's namespaces request on each catalog node now: the
    /// capacity taken outside Berth, so the fit check and the scheduler see the cluster
    /// as it is. Berth's own pods (in the namespaces the template gives the catalog's
    /// project groups) are left out: the scheduler holds their capacity itself.
    ///
    /// # Errors
    ///
    /// [`KubeError`] when the pods cannot be listed.
    pub async fn outside_usage(
        &self,
    ) -> Result<std::collections::BTreeMap<String, shared::Resources>, KubeError> {
        let ours: HashSet<String> = self
            .catalog
            .project_groups
            .iter()
            .filter_map(|g| self.settings.namespace_for(&g.id).ok())
            .collect();
        let nodes: HashSet<&str> = self.catalog.nodes().map(|n| n.name.as_str()).collect();
        let pods: Api<Pod> = Api::all(self.client.clone());
        // Finished pods hold nothing; pending ones on a node already do. From the API
        // server's watch cache (any recent version), as an informer's first list is:
        // read every minute by every server (`usage_refresh_seconds`), a list of every
        // pod from etcd would load a large cluster's control plane. The cache answers
        // in one page (a limit would send the list to etcd); a continue token is still
        // followed should a server page it.
        let mut params = ListParams::default()
            .fields("status.phase!=Succeeded,status.phase!=Failed")
            .match_any();
        let mut totals: HashMap<String, [i128; 3]> = HashMap::new();
        loop {
            let page = pods.list(&params).await?;
            for pod in &page.items {
                let Some(node) = pod.spec.as_ref().and_then(|s| s.node_name.as_deref()) else {
                    continue;
                };
                if !nodes.contains(node) || pod.namespace().is_some_and(|ns| ours.contains(&ns)) {
                    continue;
                }
                let request = pod_request(pod);
                let total = totals.entry(node.to_owned()).or_default();
                for (sum, add) in total.iter_mut().zip(request) {
                    *sum += add;
                }
            }
            match page.metadata.continue_.filter(|c| !c.is_empty()) {
                Some(token) => params = params.continue_token(&token),
                None => break,
            }
        }
        const GIB_MILLI: i128 = 1000 * (1 << 30);
        Ok(totals
            .into_iter()
            .map(|(node, [gpu, cpu, memory])| {
                let up = |milli: i128, unit: i128| {
                    u64::try_from((milli + unit - 1) / unit).unwrap_or(u64::MAX)
                };
                (
                    node,
                    shared::Resources {
                        gpu: up(gpu, 1000),
                        vcpu: up(cpu, 1000),
                        memory_gib: up(memory, GIB_MILLI),
                    },
                )
            })
            .collect())
    }
}

/// The GPU resource name Berth's catalog counts.
const GPU_RESOURCE: &str = "nvidia.com/gpu";

/// What a pod requests, in thousandths of a GPU, of a CPU and of a byte: the larger of
/// its containers' sum and its largest init container (init containers run one at a
/// time, before the others), plus its overhead. A missing request falls back to the
/// limit, as the API server defaults it.
fn pod_request(pod: &Pod) -> [i128; 3] {
    let Some(spec) = pod.spec.as_ref() else {
        return [0; 3];
    };
    let of = |resources: Option<&k8s_openapi::api::core::v1::ResourceRequirements>| {
        let get = |name: &str| {
            resources
                .and_then(|r| {
                    r.requests
                        .as_ref()
                        .and_then(|q| q.get(name))
                        .or_else(|| r.limits.as_ref().and_then(|q| q.get(name)))
                })
                .and_then(|q| quantity_milli(&q.0))
                .unwrap_or(0)
        };
        [get(GPU_RESOURCE), get("cpu"), get("memory")]
    };
    let mut sum = [0i128; 3];
    for container in &spec.containers {
        for (total, add) in sum.iter_mut().zip(of(container.resources.as_ref())) {
            *total += add;
        }
    }
    for init in spec.init_containers.iter().flatten() {
        for (total, each) in sum.iter_mut().zip(of(init.resources.as_ref())) {
            *total = (*total).max(each);
        }
    }
    if let Some(overhead) = &spec.overhead {
        for (total, name) in sum.iter_mut().zip([GPU_RESOURCE, "cpu", "memory"]) {
            *total += overhead
                .get(name)
                .and_then(|q| quantity_milli(&q.0))
                .unwrap_or(0);
        }
    }
    sum
}

/// A Kubernetes quantity ("500m", "1.5", "16Gi", "1e3") in thousandths of its unit,
/// rounded up; `None` when it is not a quantity.
fn quantity_milli(text: &str) -> Option<i128> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(text.len());
    let (number, suffix) = text.split_at(split);
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let digits = format!("{whole}{fraction}");
    let mantissa: i128 = digits.parse().ok()?;
    let scale = 10i128.checked_pow(u32::try_from(fraction.len()).ok()?)?;
    let (num, den): (i128, i128) = match suffix {
        "" => (1, 1),
        "n" => (1, 1_000_000_000),
        "u" => (1, 1_000_000),
        "m" => (1, 1000),
        "k" => (1000, 1),
        "M" => (1_000_000, 1),
        "G" => (1_000_000_000, 1),
        "T" => (1_000_000_000_000, 1),
        "P" => (1_000_000_000_000_000, 1),
        "E" => (1_000_000_000_000_000_000, 1),
        "Ki" => (1 << 10, 1),
        "Mi" => (1 << 20, 1),
        "Gi" => (1 << 30, 1),
        "Ti" => (1 << 40, 1),
        "Pi" => (1 << 50, 1),
        "Ei" => (1 << 60, 1),
        exponent if exponent.starts_with(['e', 'E']) => {
            let power: u32 = exponent[1..].parse().ok()?;
            (10i128.checked_pow(power)?, 1)
        }
        _ => return None,
    };
    let top = mantissa.checked_mul(num)?.checked_mul(1000)?;
    let bottom = scale.checked_mul(den)?;
    Some((top + bottom - 1).div_euclid(bottom))
}

/// One Events watcher per namespace, shared by every attempt watched there: Events can
/// only be selected by one object, and a job's pods are many.
#[derive(Default)]
struct EventHubs {
    by_namespace: Mutex<HashMap<String, Hub>>,
}

struct Hub {
    sender: broadcast::Sender<Arc<KubeEvent>>,
    leases: usize,
    watch: tokio::task::AbortHandle,
}

/// Keeps a namespace's Events watched; the last lease dropped stops the watch.
struct HubLease {
    hubs: Arc<EventHubs>,
    namespace: String,
}

impl EventHubs {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Hub>> {
        self.by_namespace
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The namespace's Events from now on (from its first list, for a new watch).
    fn subscribe(
        self: &Arc<Self>,
        client: &Client,
        namespace: &str,
    ) -> (broadcast::Receiver<Arc<KubeEvent>>, HubLease) {
        let mut hubs = self.lock();
        let hub = hubs.entry(namespace.to_owned()).or_insert_with(|| {
            let sender = broadcast::channel(EVENT_CAPACITY).0;
            let feed = sender.clone();
            let api: Api<KubeEvent> = Api::namespaced(client.clone(), namespace);
            let ns = namespace.to_owned();
            let watch = tokio::spawn(async move {
                let stream = watcher(api, watcher::Config::default()).default_backoff();
                let mut stream = std::pin::pin!(stream);
                while let Some(next) = stream.next().await {
                    match next {
                        Ok(watcher::Event::Apply(event) | watcher::Event::InitApply(event)) => {
                            // No receiver now is fine: nobody is watching a job here.
                            let _ = feed.send(Arc::new(event));
                        }
                        Ok(_) => {}
                        Err(error) => {
                            tracing::warn!(namespace = %ns, %error, "watching the events failed; retrying");
                        }
                    }
                }
            })
            .abort_handle();
            Hub {
                sender,
                leases: 0,
                watch,
            }
        });
        hub.leases += 1;
        let receiver = hub.sender.subscribe();
        (
            receiver,
            HubLease {
                hubs: Arc::clone(self),
                namespace: namespace.to_owned(),
            },
        )
    }
}

impl Drop for HubLease {
    fn drop(&mut self) {
        let mut hubs = self.hubs.lock();
        if let Some(hub) = hubs.get_mut(&self.namespace) {
            hub.leases -= 1;
            if hub.leases == 0 {
                hub.watch.abort();
                hubs.remove(&self.namespace);
            }
        }
    }
}

/// What watching an attempt asks of the loop in [`follow`].
#[derive(Debug, PartialEq)]
enum Step {
    /// Report this.
    Emit(Event),
    /// The attempt failed while its job stays (the image-pull breaker tripped, Kueue
    /// deactivated it): delete the job (the `Finished` was emitted).
    DeleteJob,
}

/// Pull failures of one pod.
#[derive(Default)]
struct PodPulls {
    failures: i64,
    /// The last waiting reason seen per container.
    waiting: HashMap<String, String>,
}

/// The state of one watched attempt; pure, so tests feed it objects directly.
struct Tracker {
    task: TaskId,
    attempt: u32,
    kind: JobKind,
    job: String,
    job_uid: String,
    image_pull_retries: i64,
    stopping: Arc<AtomicBool>,
    /// Pods of the job seen so far: uid → name.
    pods: HashMap<String, String>,
    pulls: HashMap<String, PodPulls>,
    /// Events about pods not seen yet.
    pending: Vec<KubeEvent>,
    /// Kubernetes Events reported: (uid, count), since a re-list repeats them.
    seen: HashSet<(String, i32)>,
    /// The job is suspended and that was noted; each suspension is noted once.
    suspended: bool,
    /// Kueue admitted the job since it was last suspended (it left the suspension), so
    /// a new suspension is an eviction even before its pods ran.
    admitted: bool,
    started: bool,
    done: bool,
    /// Kubernetes Events last seen before this (by the cluster's clock, as the Events'
    /// own times are) are not reported: a job taken back after a restart had them
    /// reported by the servers before.
    since: Option<Timestamp>,
    /// A job taken back: Events last seen before this moment (the take-back, on the
    /// cluster's clock) came while no server watched, and at most `catch_up` more of them
    /// are reported. An hour of a busy job's Events, for every job taken back at once,
    /// would fill the runner's channel and push out what it must hear (a job's end).
    taken_back_at: Option<Timestamp>,
    catch_up: usize,
    /// Taken back after a restart: the job was found, so a list of the watch without it
    /// means it is gone (a new attempt's first list may come before the job shows).
    resumed: bool,
    /// The job waits for Kueue's admission: its Workload is watched too.
    queued: bool,
    /// Its Workload was seen deactivated (`spec.active: false`), its reason maybe not
    /// written yet: a suspension now is that deactivation, not a requeue.
    deactivating: bool,
}

impl Tracker {
    fn new(
        task: TaskId,
        attempt: u32,
        kind: JobKind,
        job: String,
        job_uid: String,
        image_pull_retries: i64,
        stopping: Arc<AtomicBool>,
    ) -> Self {
        Tracker {
            task,
            attempt,
            kind,
            job,
            job_uid,
            image_pull_retries,
            stopping,
            pods: HashMap::new(),
            pulls: HashMap::new(),
            pending: Vec::new(),
            seen: HashSet::new(),
            suspended: false,
            admitted: false,
            started: false,
            done: false,
            since: None,
            taken_back_at: None,
            catch_up: 0,
            resumed: false,
            queued: false,
            deactivating: false,
        }
    }

    fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    fn note(&self, kind: &'static str, message: Message) -> Step {
        Step::Emit(Event::Note {
            task: self.task.clone(),
            attempt: self.attempt,
            kind,
            message,
        })
    }

    fn finish(&mut self, failure: Option<Arg>) -> Vec<Step> {
        self.done = true;
        let mut steps = Vec::new();
        if !self.started && failure.is_none() {
            // A job can end between two watch events: it ran.
            steps.push(self.start_step());
        }
        steps.push(Step::Emit(Event::Finished {
            task: self.task.clone(),
            attempt: self.attempt,
            failure,
        }));
        steps
    }

    fn start_step(&mut self) -> Step {
        self.started = true;
        Step::Emit(Event::Started {
            task: self.task.clone(),
            attempt: self.attempt,
        })
    }

    /// The job was added or changed.
    fn on_job(&mut self, object: &Value) -> Vec<Step> {
        if self.done || object["metadata"]["uid"].as_str() != Some(&self.job_uid) {
            return Vec::new();
        }
        let phase = job_phase(self.kind, object);
        if !matches!(phase, JobPhase::Suspended(_)) && std::mem::take(&mut self.suspended) {
            self.admitted = true;
        }
        match phase {
            JobPhase::Pending => Vec::new(),
            JobPhase::Running if self.started => Vec::new(),
            // Also after an eviction: re-admitted, the same attempt runs again.
            JobPhase::Running => vec![self.start_step()],
            JobPhase::Succeeded => self.end_of_job(object, None),
            // The operator's words: they stay as they came.
            JobPhase::Failed(reason) => self.end_of_job(object, Some(Arg::Text(reason))),
            // Held by Kueue while the stop deletes it: it has no pods to wait for.
            JobPhase::Suspended(_) if self.stopping() => {
                self.finish(Some(Arg::Message(Message::new("event.stopped"))))
            }
            JobPhase::Suspended(_) if self.suspended => Vec::new(),
            JobPhase::Suspended(message) => {
                self.suspended = true;
                // Suspended after an admission: Kueue evicted the job (preempted it,
                // or its pods were not ready in time) and requeued it; the operator
                // deleted the pods. The attempt goes on, so this is neither an end
                // nor a failure: the job runs again once Kueue re-admits it, and is
                // reported started again then. Kueue's reason comes as its `Stopped`
                // Event on the job, a cluster note. Both marks are cleared (`|`, not
                // `||`): the next suspension is an eviction only after a new admission.
                let evicted =
                    std::mem::take(&mut self.admitted) | std::mem::take(&mut self.started);
                if evicted && self.deactivating {
                    // Never re-admitted: the Workload's eviction ends the attempt.
                    return Vec::new();
                }
                let key = match (evicted, message.is_empty()) {
                    (true, true) => "event.kube.evicted",
                    (true, false) => "event.kube.evicted#detail",
                    (false, true) => "event.kube.suspended",
                    (false, false) => "event.kube.suspended#detail",
                };
                let mut note = Message::new(key);
                if !message.is_empty() {
                    note = note.with("detail", &message);
                }
                if evicted {
                    return vec![Step::Emit(Event::Requeued {
                        task: self.task.clone(),
                        attempt: self.attempt,
                        why: note,
                    })];
                }
                vec![self.note(note_kind::JOB, note)]
            }
        }
    }

    /// The job ended on its own. A RayJob in debug mode (`ttlSecondsAfterFinished`, as
    /// `shared::manifest` sets it) leaves its cluster to KubeRay for that long: noted
    /// just before the end, which the runner says only if the end is the task's (a
    /// retry deletes the job). A job being stopped, or deleted by the image-pull
    /// breaker, ends otherwise and keeps nothing.
    fn end_of_job(&mut self, object: &Value, failure: Option<Arg>) -> Vec<Step> {
        let spec = &object["spec"];
        let kept = spec["ttlSecondsAfterFinished"]
            .as_u64()
            .filter(|secs| *secs > 0);
        let mut steps = self.finish(failure);
        if let (JobKind::Ray, Some(secs), Some(true), false) = (
            self.kind,
            kept,
            spec["shutdownAfterJobFinishes"].as_bool(),
            self.stopping(),
        ) {
            let kept = Message::new("event.debug.cluster_kept").with("secs", secs);
            let end = steps.len() - 1;
            steps.insert(end, self.note(note_kind::DEBUG, kept));
        }
        steps
    }

    /// The job was deleted.
    fn on_job_deleted(&mut self, object: &Value) -> Vec<Step> {
        if self.done || object["metadata"]["uid"].as_str() != Some(&self.job_uid) {
            return Vec::new();
        }
        let why = if self.stopping() {
            Message::new("event.stopped")
        } else {
            Message::new("event.kube.job_deleted").with("job", &self.job)
        };
        self.finish(Some(Arg::Message(why)))
    }

    /// The job was not in a list of the watch: deleted while nothing watched it (a job
    /// taken back can go between the look that found it and its watch's first list).
    fn on_job_missing(&mut self) -> Vec<Step> {
        let uid = self.job_uid.clone();
        self.on_job_deleted(&json!({ "metadata": { "uid": uid } }))
    }

    /// The job's Kueue Workload was added or changed. One Kueue deactivated is never
    /// admitted again (unless someone re-activates it), so its job would wait suspended
    /// for good: the attempt fails with Kueue's reason, as any failure (fault tolerance,
    /// alerts), and the job is deleted, since re-activated later it would run with no
    /// one watching it and its Secrets gone. A stop under way ends it as the stop.
    fn on_workload(&mut self, workload: &Value) -> Vec<Step> {
        if self.done || self.stopping() {
            return Vec::new();
        }
        self.deactivating = workload["spec"]["active"] == Value::Bool(false);
        let Some(what) = deactivation(workload) else {
            return Vec::new();
        };
        let name = workload["metadata"]["name"].as_str().unwrap_or_default();
        let why = Message::new("event.kube.cluster")
            .with("object", format!("Kueue workload {name}"))
            .with("what", what);
        let mut steps = self.finish(Some(Arg::Message(why)));
        steps.push(Step::DeleteJob);
        steps
    }

    /// A pod of the job was added or changed: count its image-pull failures.
    fn on_pod(&mut self, pod: &Pod) -> Vec<Step> {
        let (Some(uid), name) = (pod.uid(), pod.name_any()) else {
            return Vec::new();
        };
        let mut steps = Vec::new();
        if self.pods.insert(uid.clone(), name.clone()).is_none() {
            let (mine, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
                .into_iter()
                .partition(|e| e.involved_object.uid.as_deref() == Some(uid.as_str()));
            self.pending = rest;
            for event in mine {
                steps.extend(self.on_kube_event(&event));
            }
        }
        if self.done {
            return steps;
        }
        let statuses = pod.status.iter().flat_map(|s| {
            s.init_container_statuses
                .iter()
                .flatten()
                .chain(s.container_statuses.iter().flatten())
        });
        let mut failures = Vec::new();
        let pulls = self.pulls.entry(uid).or_default();
        for status in statuses {
            let waiting = status.state.as_ref().and_then(|s| s.waiting.as_ref());
            let reason = waiting.and_then(|w| w.reason.clone()).unwrap_or_default();
            let before = pulls.waiting.insert(status.name.clone(), reason.clone());
            let failed_pull = match reason.as_str() {
                ERR_IMAGE_PULL => before.as_deref() != Some(ERR_IMAGE_PULL),
                // Back-off follows a failed pull we may not have seen.
                IMAGE_PULL_BACK_OFF => !matches!(
                    before.as_deref(),
                    Some(ERR_IMAGE_PULL | IMAGE_PULL_BACK_OFF)
                ),
                _ => false,
            };
            if failed_pull {
                pulls.failures += 1;
                let message = waiting.and_then(|w| w.message.clone()).unwrap_or_default();
                failures.push((status.name.clone(), reason, message, pulls.failures));
            }
        }
        for (container, reason, message, count) in failures {
            let what = reason_text(&reason, &message);
            steps.push(
                self.note(
                    note_kind::PULL,
                    Message::new("event.kube.pull_failure")
                        .with("pod", &name)
                        .with("container", &container)
                        .with("count", count)
                        .with("what", &what),
                ),
            );
            if self.image_pull_retries >= 0 && count > self.image_pull_retries {
                let failure = Message::new("event.kube.pull_breaker")
                    .with("pod", &name)
                    .with("container", &container)
                    .with("count", count)
                    .with("retries", self.image_pull_retries)
                    .with("what", &what);
                steps.extend(self.finish(Some(Arg::Message(failure))));
                steps.push(Step::DeleteJob);
                break;
            }
        }
        steps
    }

    /// A Kubernetes Event in the job's namespace.
    fn on_kube_event(&mut self, event: &KubeEvent) -> Vec<Step> {
        let involved = &event.involved_object;
        let Some(uid) = involved.uid.as_deref() else {
            return Vec::new();
        };
        let last = event
            .last_timestamp
            .as_ref()
            .map(|t| t.0)
            .or(event.event_time.as_ref().map(|t| t.0))
            .or(event.metadata.creation_timestamp.as_ref().map(|t| t.0));
        if let (Some(since), Some(last)) = (self.since, last)
            && last < since
        {
            return Vec::new();
        }
        let about_job = uid == self.job_uid;
        if !about_job && !self.pods.contains_key(uid) {
            if involved.kind.as_deref() == Some("Pod") && self.pending.len() < PENDING_EVENTS {
                self.pending.push(event.clone());
            }
            return Vec::new();
        }
        let key = (
            event.metadata.uid.clone().unwrap_or_default(),
            event.count.unwrap_or(1),
        );
        if !self.seen.insert(key) {
            return Vec::new();
        }
        if let (Some(taken_back), Some(last)) = (self.taken_back_at, last)
            && last < taken_back
        {
            if self.catch_up == 0 {
                return Vec::new();
            }
            self.catch_up -= 1;
        }
        let object = format!(
            "{} {}",
            involved.kind.as_deref().unwrap_or("object").to_lowercase(),
            involved.name.as_deref().unwrap_or_default()
        );
        let what = reason_text(
            event.reason.as_deref().unwrap_or_default(),
            event.message.as_deref().unwrap_or_default(),
        );
        // The cluster's own words: the object and its event stay as they came.
        vec![
            self.note(
                note_kind::CLUSTER,
                Message::new("event.kube.cluster")
                    .with("object", object)
                    .with("what", what),
            ),
        ]
    }
}

/// Why Kueue deactivated a Workload, in its own words, if it did (KQ v0.20
/// `workload_controller.go`, `workload/evict`): `spec.active` is false, set by Kueue
/// when `waitForPodsReady`'s requeue limit or `maximumExecutionTimeSeconds` is reached or
/// an admission check rejects it, or by an admin. Kueue then evicts an admitted one with
/// an `Evicted` condition whose reason is `Deactivated` or `DeactivatedDueTo<cause>`
/// (v0.10 renamed it from `InactiveWorkload`; the v1beta2 API read here is from v0.15).
/// An admitted Workload counts only once that eviction is written, so its message is
/// the whole story; one holding no quota (pending, or evicted before, which keeps that
/// earlier `Evicted` reason) counts at once. The evictions before it
/// (`status.schedulingStats`: pods not ready in time, preemptions) follow, with their
/// counts: they are why a requeue limit was reached.
fn deactivation(workload: &Value) -> Option<String> {
    if workload["spec"]["active"] != Value::Bool(false) {
        return None;
    }
    let status = &workload["status"];
    let condition = |kind: &str| {
        status["conditions"]
            .as_array()?
            .iter()
            .find(|c| c["type"] == kind && c["status"] == "True")
    };
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    let evicted = condition("Evicted").filter(|c| {
        c["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("Deactivated"))
    });
    let mut what = match (evicted, condition("QuotaReserved")) {
        (Some(evicted), _) => reason_text(&text(&evicted["reason"]), &text(&evicted["message"])),
        // Admitted: Kueue is about to evict it and say why.
        (None, Some(_)) => return None,
        (None, None) => match condition("DeactivationTarget") {
            Some(target) => reason_text(&text(&target["reason"]), &text(&target["message"])),
            None => "Deactivated: The workload is deactivated".to_owned(),
        },
    };
    let before: Vec<String> = status["schedulingStats"]["evictions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["reason"] != "Deactivated")
        .map(|e| {
            let cause = text(&e["underlyingCause"]);
            let reason = text(&e["reason"]);
            let count = e["count"].as_u64().unwrap_or(0);
            if cause.is_empty() {
                format!("{count}× {reason}")
            } else {
                format!("{count}× {reason}/{cause}")
            }
        })
        .collect();
    if !before.is_empty() {
        what = format!("{what} (evicted before: {})", before.join(", "));
    }
    Some(what)
}

/// Watches one attempt until it ends (or a new attempt replaces it).
async fn follow(
    client: Client,
    events: broadcast::Sender<Event>,
    (mut cluster_events, _lease): (broadcast::Receiver<Arc<KubeEvent>>, HubLease),
    namespace: String,
    resource: ApiResource,
    mut tracker: Tracker,
) {
    let job_api: Api<DynamicObject> = Api::namespaced_with(client.clone(), &namespace, &resource);
    let job_watch = watcher(
        job_api.clone(),
        watcher::Config::default().fields(&format!("metadata.name={}", tracker.job)),
    )
    .default_backoff();
    let pod_api: Api<Pod> = Api::namespaced(client.clone(), &namespace);
    let pod_watch =
        futures_util::stream::select_all(tracker.kind.pod_selectors(&tracker.job).into_iter().map(
            |selector| {
                watcher(
                    pod_api.clone(),
                    watcher::Config::default().labels(&selector),
                )
                .default_backoff()
                .boxed()
            },
        ));
    // Kueue keeps a deactivation on the job's Workload only: the job just stays
    // suspended, as for an eviction it will be re-admitted after.
    let workload_watch = if tracker.queued {
        let api: Api<DynamicObject> =
            Api::namespaced_with(client.clone(), &namespace, &workload_resource());
        let selector = format!("{KUEUE_JOB_UID_LABEL}={}", tracker.job_uid);
        watcher(api, watcher::Config::default().labels(&selector))
            .default_backoff()
            .boxed()
    } else {
        futures_util::stream::pending().boxed()
    };
    let mut job_watch = std::pin::pin!(job_watch);
    let mut pod_watch = std::pin::pin!(pod_watch);
    let mut workload_watch = std::pin::pin!(workload_watch);
    // Whether the job was in the watch's last list.
    let mut listed = false;
    while !tracker.done {
        let steps = tokio::select! {
            Some(next) = job_watch.next() => match next {
                Ok(watcher::Event::Apply(job)) => tracker.on_job(&to_value(&job)),
                Ok(watcher::Event::InitApply(job)) => {
                    let job = to_value(&job);
                    listed |= job["metadata"]["uid"].as_str() == Some(&tracker.job_uid);
                    tracker.on_job(&job)
                }
                Ok(watcher::Event::Delete(job)) => tracker.on_job_deleted(&to_value(&job)),
                Ok(watcher::Event::Init) => {
                    listed = false;
                    Vec::new()
                }
                Ok(watcher::Event::InitDone) if !listed && tracker.resumed => {
                    tracker.on_job_missing()
                }
                Ok(watcher::Event::InitDone) => Vec::new(),
                Err(error) => {
                    tracing::warn!(task = %tracker.task, %error, "watching the job failed; retrying");
                    Vec::new()
                }
            },
            Some(next) = pod_watch.next() => match next {
                Ok(watcher::Event::Apply(pod) | watcher::Event::InitApply(pod)) => tracker.on_pod(&pod),
                Ok(_) => Vec::new(),
                Err(error) => {
                    tracing::warn!(task = %tracker.task, %error, "watching the pods failed; retrying");
                    Vec::new()
                }
            },
            Some(next) = workload_watch.next() => match next {
                Ok(watcher::Event::Apply(workload) | watcher::Event::InitApply(workload)) => {
                    tracker.on_workload(&to_value(&workload))
                }
                Ok(_) => Vec::new(),
                Err(error) => {
                    tracing::warn!(task = %tracker.task, %error, "watching the job's Kueue workload failed; retrying");
                    Vec::new()
                }
            },
            next = cluster_events.recv() => match next {
                Ok(event) => tracker.on_kube_event(&event),
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    tracing::warn!(task = %tracker.task, missed, "cluster events were missed");
                    Vec::new()
                }
                // The hub lives while this lease does.
                Err(broadcast::error::RecvError::Closed) => break,
            },
            else => break,
        };
        for step in steps {
            match step {
                Step::Emit(event) => {
                    if matches!(event, Event::Finished { .. }) {
                        delete_task_objects(&client, &namespace, &task_selector(&tracker.job))
                            .await;
                    }
                    let _ = events.send(event);
                }
                Step::DeleteJob => {
                    if let Err(error) = job_api
                        .delete(&tracker.job, &DeleteParams::foreground())
                        .await
                    {
                        tracing::warn!(task = %tracker.task, %error, "cannot delete a job whose attempt failed");
                    }
                }
            }
        }
    }
}

fn to_value(object: &DynamicObject) -> Value {
    serde_json::to_value(object).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use http::{Request, Response, StatusCode};
    use http_body::Frame;
    use http_body_util::combinators::UnsyncBoxBody;
    use http_body_util::{BodyExt, StreamBody};
    use shared::Lang;
    use tokio::sync::mpsc;

    type MockBody = UnsyncBoxBody<Bytes, std::io::Error>;
    /// Open watches by resource, each fed by its sender.
    type Watches = Arc<Mutex<Vec<(String, mpsc::UnboundedSender<Value>)>>>;
    const NS: &str = "berth-vision";
    const JOB: &str = "train-x2b4c";
    const WAIT: Duration = Duration::from_secs(10);

    /// A request the mocked API server received.
    #[derive(Clone, Debug)]
    struct Seen {
        method: String,
        path: String,
        query: HashMap<String, String>,
        content_type: String,
        body: Value,
    }

    impl Seen {
        /// The resource segment after `namespaces/<ns>/` (or `v1/` for all namespaces),
        /// and the object name if any.
        fn resource(&self) -> (String, Option<String>) {
            let rest = match self.path.split_once("/namespaces/") {
                Some((_, rest)) => rest.split_once('/').map(|(_, r)| r).unwrap_or_default(),
                // `/api/v1/<resource>…` or `/apis/<group>/<version>/<resource>…`.
                None => {
                    let skip = if self.path.starts_with("/apis/") {
                        3
                    } else {
                        2
                    };
                    self.path
                        .trim_start_matches('/')
                        .splitn(skip + 1, '/')
                        .nth(skip)
                        .unwrap_or_default()
                }
            };
            let mut parts = rest.split('/');
            let resource = parts.next().unwrap_or_default().to_owned();
            (resource, parts.next().map(str::to_owned))
        }

        /// The API group of the request (`""` for the core API).
        fn group(&self) -> String {
            match self.path.strip_prefix("/apis/") {
                Some(rest) => rest.split('/').next().unwrap_or_default().to_owned(),
                None => String::new(),
            }
        }

        fn is_watch(&self) -> bool {
            self.query.get("watch").map(String::as_str) == Some("true")
        }
    }

    /// What a route answers: JSON with a status, or `None` for the default answer.
    type Route = Box<dyn FnMut(&Seen) -> Option<(StatusCode, Value)> + Send>;

    /// A mocked API server behind `kube::Client::new` (tower-test's mock pair). Every
    /// request is recorded. Unless the route answers: a list is empty, a get is 404, an
    /// apply echoes the object with `uid-<name>` as its uid, a delete succeeds, and a
    /// watch stays open until the test pushes events into it or drops it.
    struct MockApi {
        seen: Arc<Mutex<Vec<Seen>>>,
        watches: Watches,
        /// How far the API server's clock is ahead of the test's: its answers carry a
        /// `Date` by it once set.
        clock: Arc<Mutex<Option<SignedDuration>>>,
    }

    impl MockApi {
        fn start(mut route: Route) -> (Client, MockApi) {
            let (service, handle) =
                tower_test::mock::pair::<Request<::kube::client::Body>, Response<MockBody>>();
            let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
            let watches: Watches = Arc::default();
            let clock: Arc<Mutex<Option<SignedDuration>>> = Arc::default();
            let (seen_in, watches_in, clock_in) =
                (Arc::clone(&seen), Arc::clone(&watches), Arc::clone(&clock));
            tokio::spawn(async move {
                let mut handle = std::pin::pin!(handle);
                while let Some((request, send)) = handle.next_request().await {
                    let (parts, body) = request.into_parts();
                    let bytes = body.collect_bytes().await.expect("a request body");
                    let request = Seen {
                        method: parts.method.to_string(),
                        path: parts.uri.path().to_owned(),
                        query: parse_query(parts.uri.query().unwrap_or_default()),
                        content_type: parts
                            .headers
                            .get(http::header::CONTENT_TYPE)
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or_default()
                            .to_owned(),
                        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
                    };
                    seen_in.lock().unwrap().push(request.clone());
                    if request.is_watch() {
                        let (tx, mut rx) = mpsc::unbounded_channel::<Value>();
                        watches_in.lock().unwrap().push((request.resource().0, tx));
                        let lines = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)).map(
                            |event| {
                                let mut line = serde_json::to_vec(&event).expect("json");
                                line.push(b'\n');
                                Ok::<_, std::io::Error>(Frame::data(Bytes::from(line)))
                            },
                        );
                        send.send_response(Response::new(BodyExt::boxed_unsync(StreamBody::new(
                            lines,
                        ))));
                        continue;
                    }
                    let (status, json) =
                        route(&request).unwrap_or_else(|| default_answer(&request));
                    // A bare string is sent as text (a pod log); the API never answers one.
                    let bytes = match json {
                        Value::String(text) => text.into_bytes(),
                        other => serde_json::to_vec(&other).expect("json"),
                    };
                    let body = http_body_util::Full::new(Bytes::from(bytes))
                        .map_err(|never| match never {});
                    let mut response = Response::builder().status(status);
                    if let Some(ahead) = *clock_in.lock().unwrap() {
                        let date = k8s_openapi::jiff::fmt::rfc2822::DateTimePrinter::new()
                            .timestamp_to_rfc9110_string(&(Timestamp::now() + ahead))
                            .expect("a date");
                        response = response.header(http::header::DATE, date);
                    }
                    send.send_response(
                        response
                            .body(BodyExt::boxed_unsync(body))
                            .expect("a response"),
                    );
                }
            });
            let client = Client::new(service, NS);
            (
                client,
                MockApi {
                    seen,
                    watches,
                    clock,
                },
            )
        }

        /// Sets the API server's clock `ahead` of the test's.
        fn clock_ahead(&self, ahead: SignedDuration) {
            *self.clock.lock().unwrap() = Some(ahead);
        }

        fn seen(&self) -> Vec<Seen> {
            self.seen.lock().unwrap().clone()
        }

        /// Waits until `count` watches of `resource` were opened.
        async fn watching(&self, resource: &str, count: usize) {
            tokio::time::timeout(WAIT, async {
                while self
                    .watches
                    .lock()
                    .unwrap()
                    .iter()
                    .filter(|(r, _)| r == resource)
                    .count()
                    < count
                {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            })
            .await
            .unwrap_or_else(|_| panic!("{count} watch(es) of {resource} are opened"));
        }

        /// Sends a watch event on the latest watch of `resource`.
        async fn push(&self, resource: &str, kind: &str, object: Value) {
            self.watching(resource, 1).await;
            let watches = self.watches.lock().unwrap();
            let (_, tx) = watches
                .iter()
                .rev()
                .find(|(r, _)| r == resource)
                .expect("a watch");
            tx.send(json!({ "type": kind, "object": object }))
                .expect("the watch is open");
        }

        /// How many watches of `resource` the client still reads.
        fn open_watches(&self, resource: &str) -> usize {
            self.watches
                .lock()
                .unwrap()
                .iter()
                .filter(|(r, tx)| r == resource && !tx.is_closed())
                .count()
        }

        /// Ends every open watch of `resource`, as a dropped connection would.
        fn drop_watches(&self, resource: &str) {
            self.watches.lock().unwrap().retain(|(r, _)| r != resource);
        }
    }

    fn parse_query(query: &str) -> HashMap<String, String> {
        let decode = |text: &str| {
            let bytes = text.as_bytes();
            let mut out = Vec::with_capacity(bytes.len());
            let mut i = 0;
            while i < bytes.len() {
                match bytes[i] {
                    b'+' => out.push(b' '),
                    b'%' if i + 2 < bytes.len() => {
                        let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).expect("ascii");
                        out.push(u8::from_str_radix(hex, 16).expect("hex"));
                        i += 2;
                    }
                    b => out.push(b),
                }
                i += 1;
            }
            String::from_utf8(out).expect("utf-8")
        };
        query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                (decode(key), decode(value))
            })
            .collect()
    }

    fn status(code: u16, reason: &str) -> Value {
        json!({
            "apiVersion": "v1", "kind": "Status", "metadata": {}, "status": "Failure",
            "message": reason, "reason": reason, "code": code
        })
    }

    fn default_answer(request: &Seen) -> (StatusCode, Value) {
        let (_, name) = request.resource();
        match (request.method.as_str(), name) {
            ("GET", None) => (
                StatusCode::OK,
                json!({ "apiVersion": "v1", "kind": "List", "metadata": { "resourceVersion": "1" }, "items": [] }),
            ),
            ("GET", Some(_)) => (StatusCode::NOT_FOUND, status(404, "NotFound")),
            ("PATCH", Some(name)) => {
                let mut object = request.body.clone();
                object["metadata"]["uid"] = json!(format!("uid-{name}"));
                object["metadata"]["resourceVersion"] = json!("2");
                (StatusCode::OK, object)
            }
            ("DELETE", Some(_)) => (
                StatusCode::OK,
                json!({ "apiVersion": "v1", "kind": "Status", "metadata": {}, "status": "Success" }),
            ),
            // A delete-collection answers the list of what it deleted.
            ("DELETE", None) => (
                StatusCode::OK,
                json!({ "apiVersion": "v1", "kind": "List", "metadata": { "resourceVersion": "9" }, "items": [] }),
            ),
            _ => (
                StatusCode::METHOD_NOT_ALLOWED,
                status(405, "MethodNotAllowed"),
            ),
        }
    }

    fn defaults() -> Route {
        Box::new(|_| None)
    }

    fn secret() -> Value {
        json!({
            "apiVersion": "v1", "kind": "Secret",
            "metadata": { "name": format!("{JOB}-env"), "namespace": NS },
            "type": "Opaque", "stringData": { "HF_TOKEN": "hf_x" }
        })
    }

    fn pytorch_job() -> Value {
        json!({
            "apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob",
            "metadata": { "name": JOB, "namespace": NS, "labels": { "berth.io/task": JOB } },
            "spec": {
                "pytorchReplicaSpecs": {
                    "Master": { "replicas": 1, "restartPolicy": "OnFailure", "template": { "spec": {
                        "containers": [{ "name": "pytorch", "image": "pytorch:2.4", "command": ["bash", "-c", "python train.py"] }]
                    } } },
                    "Worker": { "replicas": 2, "restartPolicy": "OnFailure", "template": { "spec": {
                        "containers": [{ "name": "pytorch", "image": "pytorch:2.4", "command": ["bash", "-c", "python train.py"] }]
                    } } }
                },
                "runPolicy": { "backoffLimit": 0 }
            }
        })
    }

    fn ray_job() -> Value {
        json!({
            "apiVersion": "ray.io/v1", "kind": "RayJob",
            "metadata": { "name": JOB, "namespace": NS },
            "spec": {
                "entrypoint": "python main.py",
                "shutdownAfterJobFinishes": true,
                "rayClusterSpec": {
                    "headGroupSpec": { "rayStartParams": {}, "template": { "spec": { "containers": [{ "name": "ray-head", "image": "rayproject/ray:2.40.0" }] } } },
                    "workerGroupSpecs": [{ "groupName": "workers", "replicas": 2, "minReplicas": 2, "maxReplicas": 2, "rayStartParams": {},
                        "template": { "spec": { "containers": [{ "name": "ray-worker", "image": "rayproject/ray:2.40.0" }] } } }]
                }
            }
        })
    }

    /// The job as the API server holds it: uid from the mocked apply, a resource
    /// version and a status.
    fn stored(mut job: Value, resource_version: &str, status: Value) -> Value {
        job["metadata"]["uid"] = json!(format!("uid-{JOB}"));
        job["metadata"]["resourceVersion"] = json!(resource_version);
        job["status"] = status;
        job
    }

    fn conditions(list: &[(&str, &str)]) -> Value {
        json!({ "conditions": list.iter().map(|(kind, status)| json!({
            "type": kind, "status": status, "reason": format!("PyTorchJob{kind}"), "message": format!("job is {kind}")
        })).collect::<Vec<_>>() })
    }

    fn submission(objects: Vec<Value>, image_pull_retries: i64) -> Submission {
        Submission {
            task: TaskId(JOB.to_owned()),
            attempt: 1,
            namespace: NS.to_owned(),
            objects,
            image_pull_retries,
        }
    }

    fn backend(client: Client, kueue: bool) -> KubeBackend {
        KubeBackend::new(
            client,
            KubeSettings {
                kueue,
                ..KubeSettings::default()
            },
            Arc::new(shared::demo::catalog()),
        )
    }

    async fn next(events: &mut broadcast::Receiver<Event>) -> Event {
        tokio::time::timeout(WAIT, events.recv())
            .await
            .expect("an event comes in time")
            .expect("the backend keeps sending")
    }

    fn task() -> TaskId {
        TaskId(JOB.to_owned())
    }

    #[tokio::test]
    async fn apply_sends_every_object_by_server_side_apply_with_the_field_manager_in_order() {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, false);
        backend
            .submit(submission(
                vec![
                    {
                        // Rendered without a namespace: it goes to the group's.
                        let mut secret = secret();
                        secret["metadata"]
                            .as_object_mut()
                            .expect("metadata")
                            .remove("namespace");
                        secret
                    },
                    pytorch_job(),
                ],
                3,
            ))
            .await
            .expect("applied");
        let writes: Vec<Seen> = api
            .seen()
            .into_iter()
            .filter(|s| !s.is_watch() && s.method != "GET")
            .collect();
        assert_eq!(writes.len(), 2, "{writes:#?}");
        assert_eq!(
            writes[0].path,
            format!("/api/v1/namespaces/{NS}/secrets/{JOB}-env")
        );
        assert_eq!(
            writes[1].path,
            format!("/apis/kubeflow.org/v1/namespaces/{NS}/pytorchjobs/{JOB}")
        );
        for write in &writes {
            assert_eq!(write.method, "PATCH");
            assert_eq!(write.content_type, "application/apply-patch+yaml");
            assert_eq!(
                write.query.get("fieldManager").map(String::as_str),
                Some("berth")
            );
            assert_eq!(write.query.get("force").map(String::as_str), Some("true"));
        }
        assert_eq!(writes[0].body, secret());
        assert_eq!(writes[0].body["metadata"]["namespace"], NS);
        let mut expected = pytorch_job();
        expected["metadata"]["labels"][ATTEMPT_LABEL] = json!("1");
        assert_eq!(
            writes[1].body, expected,
            "the job is sent as rendered, labelled with its attempt"
        );
        // Before the job, its name was looked up for a job an earlier attempt left.
        let get = api
            .seen()
            .into_iter()
            .position(|s| {
                s.method == "GET"
                    && s.resource() == ("pytorchjobs".to_owned(), Some(JOB.to_owned()))
            })
            .expect("the previous job is looked up");
        let apply = api
            .seen()
            .iter()
            .position(|s| s.method == "PATCH" && s.path.ends_with(&format!("pytorchjobs/{JOB}")))
            .unwrap();
        assert!(get < apply);
    }

    /// The directory of the shared volume a RayJob's pods mount at `/tmp/ray` (its
    /// `subPath`), and the claim, read from the rendered RayJob.
    fn mounted_shared_dir(spec: &TaskSpec, task: &TaskId) -> (String, String) {
        let objects = shared::manifest::render(
            spec,
            &task.0,
            &task.0,
            &shared::demo::catalog(),
            &shared::demo::user(),
            None,
        )
        .expect("rendered");
        let job = serde_json::to_value(objects.last().expect("the job")).expect("json");
        let head = &job["spec"]["rayClusterSpec"]["headGroupSpec"]["template"]["spec"];
        let mount = head["containers"][0]["volumeMounts"]
            .as_array()
            .expect("mounts")
            .iter()
            .find(|m| m["mountPath"] == "/tmp/ray")
            .expect("the shared storage's mount");
        let volume = head["volumes"]
            .as_array()
            .expect("volumes")
            .iter()
            .find(|v| v["name"] == mount["name"])
            .expect("its volume");
        (
            volume["persistentVolumeClaim"]["claimName"]
                .as_str()
                .expect("a claim")
                .to_owned(),
            mount["subPath"].as_str().expect("a subPath").to_owned(),
        )
    }

    /// SPEC.md section 6, "clean up on exit"; README, the Kubernetes backend: at a
    /// RayJob's end a Job that mounts the shared volume's claim removes the directory the
    /// task's pods mounted, after the time debug mode keeps the cluster and a minute more.
    #[tokio::test]
    async fn a_rayjobs_shared_storage_is_removed_by_a_job_that_mounts_its_claim() {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, false);
        let ray = TaskId("tune-x2b4c".to_owned());
        let mut spec = shared::demo::ray();
        assert!(spec.ray.shared_storage.enabled && spec.ray.shared_storage.clean_on_exit);
        spec.ray.debug.enabled = true;
        spec.ray.debug.keep_secs = 600;
        cleanup_notes(&backend, &ray, &spec, shared::record::TaskPhase::Succeeded).await;

        // The RayJob is looked up first (gone here), then the Job applied.
        let seen = api.seen();
        assert_eq!(seen[0].method, "GET", "{seen:#?}");
        assert_eq!(
            seen[0].resource(),
            ("rayjobs".to_owned(), Some("tune-x2b4c".to_owned()))
        );
        let writes: Vec<Seen> = seen.into_iter().filter(|s| s.method != "GET").collect();
        assert_eq!(writes.len(), 1, "{writes:#?}");
        let namespace = KubeSettings::default()
            .namespace_for(&spec.basic.project_group)
            .expect("a namespace");
        assert_eq!(
            writes[0].path,
            format!("/apis/batch/v1/namespaces/{namespace}/jobs/tune-x2b4c-clean")
        );
        assert_eq!(writes[0].method, "PATCH");
        assert_eq!(writes[0].content_type, "application/apply-patch+yaml");
        assert_eq!(
            writes[0].query.get("fieldManager").map(String::as_str),
            Some("berth")
        );
        let job = &writes[0].body;
        assert_eq!(job["apiVersion"], "batch/v1");
        assert_eq!(job["kind"], "Job");
        let pod = &job["spec"]["template"]["spec"];
        assert_eq!(pod["restartPolicy"], "Never");
        assert_eq!(pod["automountServiceAccountToken"], false);
        let (claim, dir) = mounted_shared_dir(&spec, &ray);
        assert_eq!(
            pod["volumes"][0]["persistentVolumeClaim"]["claimName"],
            claim
        );
        let container = &pod["containers"][0];
        assert_eq!(container["image"], "busybox:1.37");
        // What `rm` says when it fails is the pod's termination message, which is told.
        assert_eq!(
            container["terminationMessagePolicy"],
            "FallbackToLogsOnError"
        );
        let mount_path = container["volumeMounts"][0]["mountPath"]
            .as_str()
            .expect("mounted");
        assert_eq!(
            container["volumeMounts"][0]["name"],
            pod["volumes"][0]["name"]
        );
        // `sh -c <script> clean <wait> <dir>`: the script removes `<mount>/$2` after
        // sleeping `$1` seconds.
        let command: Vec<&str> = container["command"]
            .as_array()
            .expect("a command")
            .iter()
            .map(|a| a.as_str().expect("text"))
            .collect();
        assert_eq!(command.len(), 6, "{command:?}");
        assert_eq!(command[..2], ["sh", "-c"]);
        assert!(
            command[2].contains(&format!("rm -rf -- \"{mount_path}/$2\"")),
            "{command:?}"
        );
        assert_eq!(command[2], CLEANUP_SCRIPT);
        // Removed at the apply's time plus the debug cluster's 600 s and a minute.
        let at: u64 = command[4].parse().expect("seconds since the epoch");
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after the epoch")
            .as_secs();
        assert!(
            (now + 660 - 600..=now + 660).contains(&at),
            "{at} against {now}"
        );
        assert_eq!(command[5], dir);
        // Its pods carry none of the task's labels: the task's PodMonitor selects by them.
        assert!(job["spec"]["template"]["metadata"].is_null(), "{job}");
        assert_eq!(job["spec"]["ttlSecondsAfterFinished"], 3600);
        // One that cannot run fails after half an hour past its wait, and goes too.
        assert_eq!(job["spec"]["activeDeadlineSeconds"], 660 + 1800);
        // Not a Kueue cluster's task: no queue.
        assert!(
            job["metadata"]["labels"]
                .get(shared::manifest::admission::KUEUE_QUEUE_LABEL)
                .is_none()
        );

        let wait = |kept: bool, debug: bool| {
            let mut spec = spec.clone();
            spec.ray.debug.enabled = debug;
            let job =
                cleanup_job(&ray, &spec, "busybox:1.37", kept, None, 1_000_000).expect("a job");
            serde_json::to_value(job).expect("json")["spec"]["template"]["spec"]["containers"]
                [0]["command"][4]
                .clone()
        };
        // Without debug mode, or after a stop (which deletes the cluster), the minute only.
        assert_eq!(wait(true, false), "1000060");
        assert_eq!(wait(false, true), "1000060");
        assert_eq!(wait(true, true), "1000660");
        // Under Kueue, in the task's queue.
        let queued = cleanup_job(
            &ray,
            &spec,
            "busybox:1.37",
            true,
            Some("lq-nlp".to_owned()),
            0,
        )
        .expect("a job");
        assert_eq!(
            queued.metadata.labels.expect("labels")[shared::manifest::admission::KUEUE_QUEUE_LABEL],
            "lq-nlp"
        );
    }

    /// The cleanup pod's script, run by `sh` over a directory standing for the volume:
    /// past its time it removes the task's directory at once (a pod the Job runs again
    /// after a failed `rm` does not wait again), and only that directory; `rm`'s failure
    /// is the script's.
    #[test]
    fn the_cleanup_script_removes_the_directory_once_its_time_has_come() {
        let volume = tempfile::tempdir().expect("a directory");
        let root = volume.path().to_str().expect("UTF-8");
        let script = CLEANUP_SCRIPT.replace("/shared/", &format!("{root}/"));
        for dir in ["task-a/session", "task-b"] {
            std::fs::create_dir_all(volume.path().join(dir)).expect("made");
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after the epoch")
            .as_secs();
        let run = |at: u64, dir: &str| {
            std::process::Command::new("sh")
                .args(["-c", &script, "clean", &at.to_string(), dir])
                .status()
                .expect("sh runs")
        };
        // Its time comes in five seconds: it waits for it, then removes.
        let mut waiting = std::process::Command::new("sh")
            .args(["-c", &script, "clean", &(now + 5).to_string(), "task-a"])
            .spawn()
            .expect("sh runs");
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(
            waiting.try_wait().expect("asked").is_none(),
            "it waits for its time"
        );
        assert!(volume.path().join("task-a").exists());
        assert!(waiting.wait().expect("ended").success());
        assert!(!volume.path().join("task-a").exists());
        // Its time came an hour ago (a pod run again): removed now, the other task's
        // directory kept.
        std::fs::create_dir_all(volume.path().join("task-a")).expect("made");
        assert!(run(now - 3600, "task-a").success());
        assert!(!volume.path().join("task-a").exists());
        assert!(volume.path().join("task-b").exists());
        // A failing `rm` fails the pod (the Job then runs it again, and tells why).
        let refused = std::process::Command::new("sh")
            .args([
                "-c",
                &script.replace("rm -rf", "false"),
                "clean",
                "0",
                "task-b",
            ])
            .status()
            .expect("sh runs");
        assert!(!refused.success());
    }

    /// Nothing is removed when the spec keeps its data, has no shared storage, or is a
    /// PyTorchJob.
    #[tokio::test]
    async fn only_a_rayjob_that_asks_has_its_shared_storage_removed() {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, false);
        let ray = TaskId("tune-x2b4c".to_owned());
        let ended = shared::record::TaskPhase::Failed;
        let mut kept = shared::demo::ray();
        kept.ray.shared_storage.clean_on_exit = false;
        assert!(cleanup_notes(&backend, &ray, &kept, ended).await.is_empty());
        let mut none = shared::demo::ray();
        none.ray.shared_storage.enabled = false;
        assert!(cleanup_notes(&backend, &ray, &none, ended).await.is_empty());
        let pytorch = shared::demo::pytorch();
        assert!(
            cleanup_notes(&backend, &task(), &pytorch, ended)
                .await
                .is_empty()
        );
        assert!(api.seen().is_empty(), "{:#?}", api.seen());
    }

    /// A task can end while its RayJob runs on (a job a restart could not take back):
    /// its Ray session lives in the shared storage, which is left alone, after half a
    /// minute of looks (a job Berth deletes itself goes just after its end is told). A
    /// RayJob that has ended (Complete) is cleaned up after.
    #[tokio::test(start_paused = true)]
    async fn the_shared_storage_of_a_rayjob_that_runs_on_is_left_alone() {
        let status = Arc::new(Mutex::new(json!({ "jobDeploymentStatus": "Running" })));
        let answer = Arc::clone(&status);
        let (client, api) = MockApi::start(Box::new(move |request| {
            let (resource, name) = request.resource();
            (request.method == "GET" && resource == "rayjobs" && name.is_some()).then(|| {
                let status = answer.lock().unwrap().clone();
                (StatusCode::OK, stored(ray_job(), "5", status))
            })
        }));
        let backend = backend(client, false);
        let ray = TaskId(JOB.to_owned());
        let spec = shared::demo::ray();
        let ended = shared::record::TaskPhase::Failed;
        let applied = |api: &MockApi| api.seen().iter().filter(|s| s.method == "PATCH").count();
        let began = tokio::time::Instant::now();
        cleanup_notes(&backend, &ray, &spec, ended).await;
        assert_eq!(applied(&api), 0, "a running RayJob's storage stays");
        let looked = api
            .seen()
            .iter()
            .filter(|s| s.method == "GET" && s.resource().0 == "rayjobs")
            .count();
        assert_eq!(looked, 15, "looked at for half a minute");
        assert!(began.elapsed() >= Duration::from_secs(28));
        *status.lock().unwrap() =
            json!({ "jobDeploymentStatus": "Complete", "jobStatus": "FAILED" });
        cleanup_notes(&backend, &ray, &spec, ended).await;
        assert_eq!(applied(&api), 1, "an ended one's is cleaned up");
    }

    /// The cleanup Job as the API server holds it: `spec.suspend` and these conditions.
    fn cleanup_status(name: &str, suspend: bool, conditions: &[(&str, &str, &str)]) -> Value {
        json!({
            "apiVersion": "batch/v1", "kind": "Job",
            "metadata": { "name": name, "namespace": "berth-nlp", "uid": "uid-clean", "resourceVersion": "7" },
            "spec": { "suspend": suspend, "template": { "spec": { "containers": [] } } },
            "status": { "conditions": conditions.iter().map(|(kind, reason, message)| json!({
                "type": kind, "status": "True", "reason": reason, "message": message
            })).collect::<Vec<_>>() }
        })
    }

    /// A mocked API whose RayJobs are gone and whose cleanup Job answers what `job`
    /// gives at each look (counted from 0), and whose pods list is `pods`.
    fn cleanup_api(
        job: impl Fn(usize) -> Option<Value> + Send + 'static,
        pods: Value,
    ) -> (Client, MockApi) {
        let mut looks = 0;
        MockApi::start(Box::new(move |request| {
            let (resource, name) = request.resource();
            match (request.method.as_str(), resource.as_str(), name) {
                ("GET", "jobs", Some(_)) => {
                    let answer = job(looks);
                    looks += 1;
                    Some(answer.map_or_else(
                        || (StatusCode::NOT_FOUND, status(404, "NotFound")),
                        |job| (StatusCode::OK, job),
                    ))
                }
                ("GET", "pods", None) => Some((
                    StatusCode::OK,
                    json!({ "apiVersion": "v1", "kind": "PodList", "metadata": { "resourceVersion": "3" }, "items": pods.clone() }),
                )),
                _ => None,
            }
        }))
    }

    /// Every note the cleanup of `spec`'s RayJob `task`, ended in `ended`, sends, in order.
    async fn cleanup_notes(
        backend: &KubeBackend,
        task: &TaskId,
        spec: &TaskSpec,
        ended: shared::record::TaskPhase,
    ) -> Vec<Message> {
        let (notes, mut told) = mpsc::unbounded_channel();
        backend.clean_shared_storage(task, spec, ended, notes).await;
        let mut all = Vec::new();
        while let Some(note) = told.recv().await {
            all.push(note);
        }
        all
    }

    /// What the cleanup of the demo RayJob `task`, ended in `ended`, tells at its end.
    async fn cleanup_told(
        backend: &KubeBackend,
        task: &TaskId,
        ended: shared::record::TaskPhase,
    ) -> Message {
        cleanup_notes(backend, task, &shared::demo::ray(), ended)
            .await
            .pop()
            .expect("what became of it")
    }

    /// The directory the cleanup removes, as its events name it.
    fn cleanup_place(spec: &TaskSpec, task: &TaskId) -> String {
        let (claim, dir) = mounted_shared_dir(spec, task);
        let namespace = KubeSettings::default()
            .namespace_for(&spec.basic.project_group)
            .expect("a namespace");
        format!("directory {dir} of volume claim {claim} in namespace {namespace}")
    }

    fn deletes_of(api: &MockApi, resource: &str) -> Vec<Seen> {
        api.seen()
            .into_iter()
            .filter(|s| s.method == "DELETE" && s.resource().0 == resource)
            .collect()
    }

    /// Brief srv8 item 1 (README, the Kubernetes backend): the cleanup Job is followed
    /// until it ends, and its task's events say that the directory was removed.
    #[tokio::test(start_paused = true)]
    async fn a_cleanup_job_that_completes_is_told_as_the_directory_removed() {
        let ray = TaskId("tune-x2b4c".to_owned());
        let name = "tune-x2b4c-clean";
        let (client, api) = cleanup_api(
            move |look| {
                Some(match look {
                    0 => cleanup_status(name, false, &[]),
                    _ => cleanup_status(name, false, &[("Complete", "", "")]),
                })
            },
            json!([]),
        );
        let backend = backend(client, false);
        let spec = shared::demo::ray();
        let note = cleanup_told(&backend, &ray, shared::record::TaskPhase::Succeeded).await;
        assert_eq!(
            note.render(shared::Lang::En),
            format!("Job {name}: removed the {}", cleanup_place(&spec, &ray))
        );
        // In the reader's language: a Chinese reader's events are in Chinese.
        let (claim, dir) = mounted_shared_dir(&spec, &ray);
        let namespace = KubeSettings::default()
            .namespace_for(&spec.basic.project_group)
            .expect("a namespace");
        assert_eq!(
            note.render(shared::Lang::Zh),
            format!("Job {name}：已删除命名空间 {namespace} 中 PVC {claim} 的目录 {dir}")
        );
        let looks = api
            .seen()
            .iter()
            .filter(|s| {
                s.method == "GET" && s.resource() == ("jobs".to_owned(), Some(name.to_owned()))
            })
            .count();
        assert_eq!(looks, 2, "looked at until it completed");
        assert!(
            deletes_of(&api, "jobs").is_empty(),
            "a finished Job is left to its TTL"
        );
    }

    /// Brief kube9 item 1: once the cleanup Job is applied, the task's events hear at once
    /// that it is under way (which Job, what it removes, that its end comes here), in
    /// the reader's language, long before its end is told.
    #[tokio::test(start_paused = true)]
    async fn a_cleanup_job_is_said_under_way_once_applied_and_its_end_after() {
        let ray = TaskId("tune-x2b4c".to_owned());
        let name = "tune-x2b4c-clean";
        // Running for its first three looks (three quarters of a minute), then complete.
        let (client, api) = cleanup_api(
            move |look| {
                Some(if look < 3 {
                    cleanup_status(name, false, &[])
                } else {
                    cleanup_status(name, false, &[("Complete", "", "")])
                })
            },
            json!([]),
        );
        let backend = backend(client, false);
        let spec = shared::demo::ray();
        let (notes, mut told) = mpsc::unbounded_channel();
        let began = tokio::time::Instant::now();
        let clean =
            backend.clean_shared_storage(&ray, &spec, shared::record::TaskPhase::Succeeded, notes);
        let heard = async {
            let first = told.recv().await.expect("a note");
            let applied = api.seen().iter().any(|s| s.method == "PATCH");
            let when = began.elapsed();
            let mut rest = Vec::new();
            while let Some(note) = told.recv().await {
                rest.push(note);
            }
            (first, applied, when, rest)
        };
        let ((), (first, applied, when, rest)) = tokio::join!(clean, heard);
        assert!(applied, "said once the Job is applied");
        assert!(when < Duration::from_secs(1), "said at once: {when:?}");
        assert_eq!(
            first.render(shared::Lang::En),
            format!(
                "Job {name} removes the {}; its end is told here",
                cleanup_place(&spec, &ray)
            )
        );
        let (claim, dir) = mounted_shared_dir(&spec, &ray);
        let namespace = KubeSettings::default()
            .namespace_for(&spec.basic.project_group)
            .expect("a namespace");
        assert_eq!(
            first.render(shared::Lang::Zh),
            format!(
                "Job {name} 正在删除命名空间 {namespace} 中 PVC {claim} 的目录 {dir}；结束时将在此告知"
            )
        );
        assert_eq!(backend.cleanup_note(&first), Some((name.to_owned(), false)));
        // Then its end, and nothing more.
        assert_eq!(rest.len(), 1, "{rest:?}");
        assert_eq!(
            rest[0].render(shared::Lang::En),
            format!("Job {name}: removed the {}", cleanup_place(&spec, &ray))
        );
        assert_eq!(
            backend.cleanup_note(&rest[0]),
            Some((name.to_owned(), true))
        );
        assert!(began.elapsed() >= Duration::from_secs(45));
    }

    /// The cleanup Job of `task` as the API server lists it: as Berth applies it, created
    /// `ago` before now, in its namespace, with these conditions.
    fn listed_cleanup(task: &TaskId, ago: Duration, conditions: &[(&str, &str, &str)]) -> Value {
        let job =
            cleanup_job(task, &shared::demo::ray(), "busybox:1.37", true, None, 0).expect("a job");
        let mut job = serde_json::to_value(job).expect("json");
        let created = Timestamp::now() - SignedDuration::try_from(ago).expect("a duration");
        job["apiVersion"] = json!("batch/v1");
        job["kind"] = json!("Job");
        let namespace = KubeSettings::default()
            .namespace_for(&shared::demo::ray().basic.project_group)
            .expect("a namespace");
        job["metadata"]["namespace"] = json!(namespace);
        job["metadata"]["creationTimestamp"] = json!(created.to_string());
        job["metadata"]["resourceVersion"] = json!("7");
        job["status"] = json!({ "conditions": conditions.iter().map(|(kind, reason, message)| json!({
            "type": kind, "status": "True", "reason": reason, "message": message
        })).collect::<Vec<_>>() });
        job
    }

    /// A mocked API whose cleanup Jobs (lists and looks by name, each in its namespace)
    /// are what `jobs` gives.
    fn listing_api(jobs: Arc<Mutex<Vec<Value>>>) -> (Client, MockApi) {
        MockApi::start(Box::new(move |request| {
            let (resource, name) = request.resource();
            let mut jobs = jobs.lock().unwrap().clone();
            jobs.retain(|j| {
                let namespace = j["metadata"]["namespace"].as_str().unwrap_or_default();
                request.path.contains(&format!("/namespaces/{namespace}/"))
            });
            match (request.method.as_str(), resource.as_str(), name) {
                ("GET", "jobs", None) => Some((
                    StatusCode::OK,
                    json!({ "apiVersion": "batch/v1", "kind": "JobList", "metadata": { "resourceVersion": "7" }, "items": jobs }),
                )),
                ("GET", "jobs", Some(name)) => Some(
                    jobs.into_iter()
                        .find(|j| j["metadata"]["name"] == name.as_str())
                        .map_or_else(
                            || (StatusCode::NOT_FOUND, status(404, "NotFound")),
                            |job| (StatusCode::OK, job),
                        ),
                ),
                _ => None,
            }
        }))
    }

    /// Brief kube9 item 2: a restarted server finds the cleanup Jobs by their label in
    /// each project group's namespace, with what they remove (as their first note named
    /// it) and when Berth gives up on them: counted from their creation, not from now.
    #[tokio::test(start_paused = true)]
    async fn a_restart_finds_the_cleanup_jobs_and_follows_each_to_its_own_deadline() {
        let ray = TaskId("tune-x2b4c".to_owned());
        let spec = shared::demo::ray();
        let created = Duration::from_secs(100);
        let jobs = Arc::new(Mutex::new(vec![listed_cleanup(&ray, created, &[])]));
        let (client, api) = listing_api(Arc::clone(&jobs));
        let backend = backend(client, false);
        let found = backend.cleanups().await;
        let lists: Vec<Seen> = api
            .seen()
            .into_iter()
            .filter(|s| s.method == "GET" && s.resource() == ("jobs".to_owned(), None))
            .collect();
        let mut namespaces: Vec<String> = shared::demo::catalog()
            .project_groups
            .iter()
            .map(|g| {
                KubeSettings::default()
                    .namespace_for(&g.id)
                    .expect("a namespace")
            })
            .collect();
        namespaces.sort();
        namespaces.dedup();
        assert_eq!(lists.len(), namespaces.len(), "{lists:#?}");
        for list in &lists {
            assert_eq!(
                list.query.get("labelSelector").map(String::as_str),
                Some("berth.dev/cleans")
            );
        }
        assert_eq!(found.len(), 1, "{found:#?}");
        let cleanup = found[0].clone();
        assert_eq!(cleanup.task, ray);
        assert_eq!(cleanup.job, "tune-x2b4c-clean");
        let namespace = KubeSettings::default()
            .namespace_for(&spec.basic.project_group)
            .expect("a namespace");
        assert_eq!(cleanup.namespace, namespace);
        assert_eq!(
            cleanup.place.render(shared::Lang::En),
            cleanup_place(&spec, &ray)
        );
        // Kept (a debug cluster is not, in the demo): a minute, half an hour, five more.
        assert_eq!(cleanup.allowed, Duration::from_secs(2160));

        // Still running: followed until 2160 s after its creation, 2060 s from now.
        let began = tokio::time::Instant::now();
        let note = backend.follow_cleanup(&cleanup).await.expect("its end");
        let waited = began.elapsed();
        assert!(
            waited >= Duration::from_secs(2050) && waited <= Duration::from_secs(2065),
            "{waited:?}"
        );
        assert_eq!(
            note.render(shared::Lang::En),
            format!(
                "Job tune-x2b4c-clean: not ended after 2160 s: deleted; the {} may remain",
                cleanup_place(&spec, &ray)
            )
        );
        assert_eq!(deletes_of(&api, "jobs").len(), 1);

        // Created three hours ago and still held: past its deadline, deleted at once.
        *jobs.lock().unwrap() = vec![listed_cleanup(&ray, Duration::from_secs(3 * 3600), &[])];
        let cleanup = backend.cleanups().await.remove(0);
        let began = tokio::time::Instant::now();
        backend.follow_cleanup(&cleanup).await.expect("its end");
        assert!(began.elapsed() < Duration::from_secs(1));
        assert_eq!(deletes_of(&api, "jobs").len(), 2);

        // Complete while no server watched: its end is told as it is.
        *jobs.lock().unwrap() = vec![listed_cleanup(&ray, created, &[("Complete", "", "")])];
        let cleanup = backend.cleanups().await.remove(0);
        let note = backend.follow_cleanup(&cleanup).await.expect("its end");
        assert_eq!(
            note.render(shared::Lang::En),
            format!(
                "Job tune-x2b4c-clean: removed the {}",
                cleanup_place(&spec, &ray)
            )
        );
        // Gone since the list: said so.
        jobs.lock().unwrap().clear();
        let note = backend.follow_cleanup(&cleanup).await.expect("its end");
        assert_eq!(
            note.render(shared::Lang::En),
            format!(
                "Job tune-x2b4c-clean: deleted before it ended: the {} may remain",
                cleanup_place(&spec, &ray)
            )
        );
        assert_eq!(deletes_of(&api, "jobs").len(), 2);
    }

    /// A cleanup that fails (`rm` refused on an NFS share with `root_squash`) is told
    /// with the Job's reason and its last pod's termination message: the directory stays.
    #[tokio::test(start_paused = true)]
    async fn a_cleanup_job_that_fails_is_told_with_its_reason_and_the_pod_s_message() {
        let ray = TaskId("tune-x2b4c".to_owned());
        let name = "tune-x2b4c-clean";
        let pod = |pod: &str, created: &str, message: &str| {
            json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": { "name": pod, "namespace": "berth-nlp", "creationTimestamp": created },
                "status": { "containerStatuses": [{
                    "name": "clean", "image": "busybox:1.37", "imageID": "", "ready": false, "restartCount": 0,
                    "state": { "terminated": { "exitCode": 1, "reason": "Error", "message": message } }
                }] }
            })
        };
        let (client, api) = cleanup_api(
            move |_| {
                Some(cleanup_status(
                    name,
                    false,
                    &[(
                        "Failed",
                        "BackoffLimitExceeded",
                        "Job has reached the specified backoff limit",
                    )],
                ))
            },
            json!([
                pod(
                    "tune-x2b4c-clean-b",
                    "2026-01-01T10:05:00Z",
                    "rm: can't remove '/shared/b/f': Permission denied\nrm: can't remove '/shared/b/g': Permission denied\n"
                ),
                pod("tune-x2b4c-clean-a", "2026-01-01T10:00:00Z", "rm: earlier"),
            ]),
        );
        let backend = backend(client, false);
        let spec = shared::demo::ray();
        let note = cleanup_told(&backend, &ray, shared::record::TaskPhase::Failed).await;
        assert_eq!(
            note.render(shared::Lang::En),
            format!(
                "Job {name}: failed: BackoffLimitExceeded: Job has reached the specified backoff limit; \
                 pod tune-x2b4c-clean-b exit code 1: Error: rm: can't remove '/shared/b/f': Permission denied \
                 (and 1 more line): the {} remains",
                cleanup_place(&spec, &ray)
            )
        );
        let listed = api
            .seen()
            .into_iter()
            .find(|s| s.method == "GET" && s.resource() == ("pods".to_owned(), None))
            .expect("its pods are listed");
        assert_eq!(
            listed.query.get("labelSelector").map(String::as_str),
            Some("job-name=tune-x2b4c-clean")
        );
        assert!(deletes_of(&api, "jobs").is_empty());
    }

    /// A cleanup Job Kueue never admits stays suspended, its own deadline stopped: Berth
    /// deletes it (with its pods) at that deadline plus a margin, and says the directory
    /// may remain, and where.
    #[tokio::test(start_paused = true)]
    async fn a_cleanup_job_kueue_never_admits_is_deleted_at_its_deadline_and_told() {
        let ray = TaskId("tune-x2b4c".to_owned());
        let name = "tune-x2b4c-clean";
        let (client, api) = cleanup_api(
            move |_| {
                Some(cleanup_status(
                    name,
                    true,
                    &[("Suspended", "JobSuspended", "Job suspended")],
                ))
            },
            json!([]),
        );
        let backend = backend(client, true);
        let spec = shared::demo::ray();
        let began = tokio::time::Instant::now();
        let note = cleanup_told(&backend, &ray, shared::record::TaskPhase::Stopped).await;
        // A stopped task's Job waits a minute, then has half an hour (1860 s), and Berth
        // five minutes more.
        let waited = began.elapsed();
        assert!(
            waited >= Duration::from_secs(2160) && waited < Duration::from_secs(2200),
            "{waited:?}"
        );
        assert_eq!(
            note.render(shared::Lang::En),
            format!(
                "Job {name}: not admitted by Kueue after 2160 s (still suspended): deleted; the {} may remain",
                cleanup_place(&spec, &ray)
            )
        );
        let deletes = deletes_of(&api, "jobs");
        assert_eq!(deletes.len(), 1, "{deletes:#?}");
        assert!(deletes[0].path.ends_with(&format!("/jobs/{name}")));
        // A Job's pods are orphaned by a delete that does not say otherwise.
        assert_eq!(deletes[0].body["propagationPolicy"], "Background");
    }

    /// One admitted but still not ended at the deadline (its pod never placed) is
    /// deleted too, and one deleted by someone else is told as gone.
    #[tokio::test(start_paused = true)]
    async fn a_cleanup_job_not_ended_by_its_deadline_is_deleted_and_one_gone_is_told() {
        let ray = TaskId("tune-x2b4c".to_owned());
        let name = "tune-x2b4c-clean";
        let spec = shared::demo::ray();
        let (client, api) = cleanup_api(move |_| Some(cleanup_status(name, false, &[])), json!([]));
        let note = cleanup_told(
            &backend(client, false),
            &ray,
            shared::record::TaskPhase::Stopped,
        )
        .await;
        assert_eq!(
            note.render(shared::Lang::En),
            format!(
                "Job {name}: not ended after 2160 s: deleted; the {} may remain",
                cleanup_place(&spec, &ray)
            )
        );
        assert_eq!(deletes_of(&api, "jobs").len(), 1);

        let (client, api) = cleanup_api(
            move |look| (look < 3).then(|| cleanup_status(name, false, &[])),
            json!([]),
        );
        let note = cleanup_told(
            &backend(client, false),
            &ray,
            shared::record::TaskPhase::Stopped,
        )
        .await;
        assert_eq!(
            note.render(shared::Lang::En),
            format!(
                "Job {name}: deleted before it ended: the {} may remain",
                cleanup_place(&spec, &ray)
            )
        );
        assert!(deletes_of(&api, "jobs").is_empty());
    }

    #[tokio::test]
    async fn a_new_attempt_deletes_the_previous_job_in_the_foreground_before_applying() {
        let gone = Arc::new(AtomicBool::new(false));
        let deleted = Arc::clone(&gone);
        let (client, api) = MockApi::start(Box::new(move |request| {
            let (resource, name) = request.resource();
            if resource != "pytorchjobs" {
                return None;
            }
            match (request.method.as_str(), name.is_some()) {
                ("GET", true) if !deleted.load(Ordering::SeqCst) => {
                    let mut old = stored(pytorch_job(), "4", conditions(&[("Failed", "True")]));
                    old["metadata"]["uid"] = json!("uid-old");
                    old["metadata"]["labels"][ATTEMPT_LABEL] = json!("1");
                    Some((StatusCode::OK, old))
                }
                ("DELETE", true) => {
                    deleted.store(true, Ordering::SeqCst);
                    None
                }
                _ => None,
            }
        }));
        let backend = backend(client, false);
        let mut second = submission(vec![pytorch_job()], 3);
        second.attempt = 2;
        backend.submit(second).await.expect("applied");
        let seen = api.seen();
        let delete = seen
            .iter()
            .position(|s| s.method == "DELETE")
            .expect("the old job is deleted");
        assert_eq!(seen[delete].body["propagationPolicy"], "Foreground");
        let apply = seen
            .iter()
            .position(|s| s.method == "PATCH")
            .expect("applied");
        assert!(delete < apply, "deleted, then applied");
        assert_eq!(seen[apply].body["metadata"]["labels"][ATTEMPT_LABEL], "2");
    }

    #[tokio::test]
    async fn an_apply_the_api_fails_is_unavailable_and_a_conflict_is_not() {
        let (client, _api) = MockApi::start(Box::new(|request| {
            (request.method == "PATCH").then(|| {
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    status(500, "InternalError"),
                )
            })
        }));
        let error = backend(client, false)
            .submit(submission(vec![pytorch_job()], 3))
            .await
            .expect_err("refused");
        assert!(error.is_unavailable(), "{error:?}");
        // The API's words reach the task's failure reason, which is this text.
        let text = error.to_string();
        assert!(text.contains(&format!("apply PyTorchJob {JOB}")), "{text}");
        assert!(text.contains("InternalError"), "{text}");

        let (client, _api) = MockApi::start(Box::new(|request| {
            (request.method == "PATCH").then(|| (StatusCode::CONFLICT, status(409, "Conflict")))
        }));
        let error = backend(client, false)
            .submit(submission(vec![pytorch_job()], 3))
            .await
            .expect_err("refused");
        assert!(
            matches!(
                error,
                BackendError::Kube {
                    cause: KubeError::Conflict(_),
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(!error.is_unavailable());
    }

    #[tokio::test]
    async fn a_start_refused_partway_deletes_the_task_s_secrets_and_config_maps_it_applied() {
        // README: hidden env values and the SSH private key do not outlive the run. The
        // Secret is applied, then the API refuses the job: the start fails, and nothing
        // of the task stays until the next restart's sweep.
        let (client, api) = MockApi::start(Box::new(|request| {
            (request.method == "PATCH" && request.resource().0 == "pytorchjobs")
                .then(|| (StatusCode::UNPROCESSABLE_ENTITY, status(422, "Invalid")))
        }));
        let backend = backend(client, false);
        let error = backend
            .submit(submission(vec![secret(), pytorch_job()], 3))
            .await
            .expect_err("the job is refused");
        assert!(
            error
                .to_string()
                .contains(&format!("apply PyTorchJob {JOB}")),
            "{error}"
        );
        let seen = api.seen();
        assert!(
            seen.iter()
                .any(|s| s.method == "PATCH" && s.resource().0 == "secrets"),
            "the Secret went first"
        );
        assert_eq!(
            cleanups(&seen, &format!("berth.dev/task={JOB}")),
            task_objects(NS)
        );
        // Nothing is watched: a stop finds no attempt running.
        assert!(matches!(
            backend.stop(&task(), 1, Duration::from_secs(5)).await,
            Err(BackendError::NotRunning { attempt: 1, .. })
        ));
    }

    #[test]
    fn kube_errors_are_classified_by_their_status() {
        let api = |code: u16, reason: &str| {
            let status: ::kube::core::Status =
                serde_json::from_value(status(code, reason)).unwrap();
            KubeError::from(::kube::Error::Api(Box::new(status)))
        };
        assert!(matches!(api(404, "NotFound"), KubeError::NotFound(_)));
        assert!(matches!(
            api(409, "AlreadyExists"),
            KubeError::AlreadyExists(_)
        ));
        assert!(matches!(api(409, "Conflict"), KubeError::Conflict(_)));
        assert!(matches!(api(403, "Forbidden"), KubeError::Unavailable(_)));
        assert!(matches!(
            api(503, "ServiceUnavailable"),
            KubeError::Unavailable(_)
        ));
    }

    #[test]
    fn a_pytorchjob_status_maps_to_phases() {
        let phase = |list: &[(&str, &str)]| {
            job_phase(
                JobKind::PyTorch,
                &stored(pytorch_job(), "1", conditions(list)),
            )
        };
        assert_eq!(
            job_phase(JobKind::PyTorch, &pytorch_job()),
            JobPhase::Pending
        );
        assert_eq!(phase(&[("Created", "True")]), JobPhase::Pending);
        assert_eq!(
            phase(&[("Created", "True"), ("Running", "True")]),
            JobPhase::Running
        );
        assert_eq!(
            phase(&[("Created", "True"), ("Restarting", "True")]),
            JobPhase::Running
        );
        assert_eq!(
            phase(&[
                ("Created", "True"),
                ("Running", "False"),
                ("Succeeded", "True")
            ]),
            JobPhase::Succeeded
        );
        assert_eq!(
            phase(&[
                ("Created", "True"),
                ("Running", "False"),
                ("Failed", "True")
            ]),
            JobPhase::Failed("PyTorchJobFailed: job is Failed".to_owned())
        );
        assert_eq!(
            phase(&[("Created", "True"), ("Suspended", "True")]),
            JobPhase::Suspended("job is Suspended".to_owned())
        );
        // A condition that is no longer true does not count.
        assert_eq!(
            phase(&[
                ("Created", "True"),
                ("Suspended", "False"),
                ("Running", "True")
            ]),
            JobPhase::Running
        );
    }

    #[test]
    fn a_rayjob_status_maps_to_phases() {
        let phase = |status: Value| job_phase(JobKind::Ray, &stored(ray_job(), "1", status));
        assert_eq!(
            phase(json!({ "jobDeploymentStatus": "Initializing" })),
            JobPhase::Pending
        );
        assert_eq!(
            phase(json!({ "jobDeploymentStatus": "Running", "jobStatus": "PENDING" })),
            JobPhase::Running
        );
        assert_eq!(
            phase(json!({ "jobDeploymentStatus": "Complete", "jobStatus": "SUCCEEDED" })),
            JobPhase::Succeeded
        );
        assert_eq!(
            phase(
                json!({ "jobDeploymentStatus": "Complete", "jobStatus": "FAILED", "message": "exit 1" })
            ),
            JobPhase::Failed("the Ray job ended FAILED: exit 1".to_owned())
        );
        // Ray appends the entrypoint's last output to a failure: not into the reason,
        // which group members and share links read.
        assert_eq!(
            phase(json!({
                "jobDeploymentStatus": "Complete",
                "jobStatus": "FAILED",
                "message": "Job entrypoint command failed with exit code 1, last available logs \
                            (truncated to 20,000 chars):\ntoken=hf_demo_secret\nTraceback ..."
            })),
            JobPhase::Failed(
                "the Ray job ended FAILED: Job entrypoint command failed with exit code 1"
                    .to_owned()
            )
        );
        assert_eq!(
            phase(
                json!({ "jobDeploymentStatus": "Failed", "reason": "DeadlineExceeded", "message": "too slow" })
            ),
            JobPhase::Failed("DeadlineExceeded: too slow".to_owned())
        );
        assert_eq!(
            phase(json!({ "jobDeploymentStatus": "ValidationFailed", "message": "name too long" })),
            JobPhase::Failed("ValidationFailed: name too long".to_owned())
        );
        assert_eq!(
            phase(json!({ "jobDeploymentStatus": "Suspended" })),
            JobPhase::Suspended(String::new())
        );
    }

    #[tokio::test]
    async fn a_watched_job_reports_started_and_finished_and_the_watch_resumes_after_a_drop() {
        let (client, api) =
            MockApi::start(Box::new(|request| {
                let (resource, name) = request.resource();
                (request.method == "GET" && resource == "pytorchjobs" && name.is_none()).then(|| {
                (StatusCode::OK, json!({
                    "apiVersion": "kubeflow.org/v1", "kind": "PyTorchJobList",
                    "metadata": { "resourceVersion": "5" },
                    "items": [stored(pytorch_job(), "5", conditions(&[("Created", "True")]))]
                }))
            })
            }));
        let backend = backend(client, false);
        let mut events = backend.events();
        backend
            .submit(submission(vec![pytorch_job()], 3))
            .await
            .expect("applied");

        api.push(
            "pytorchjobs",
            "MODIFIED",
            stored(
                pytorch_job(),
                "6",
                conditions(&[("Created", "True"), ("Running", "True")]),
            ),
        )
        .await;
        assert_eq!(
            next(&mut events).await,
            Event::Started {
                task: task(),
                attempt: 1
            }
        );

        // The connection drops; the watcher watches again from the last version seen.
        api.drop_watches("pytorchjobs");
        api.watching("pytorchjobs", 1).await;
        api.push(
            "pytorchjobs",
            "MODIFIED",
            stored(
                pytorch_job(),
                "7",
                conditions(&[
                    ("Created", "True"),
                    ("Running", "False"),
                    ("Succeeded", "True"),
                ]),
            ),
        )
        .await;
        assert_eq!(
            next(&mut events).await,
            Event::Finished {
                task: task(),
                attempt: 1,
                failure: None
            }
        );

        let watches: Vec<Seen> = api
            .seen()
            .into_iter()
            .filter(|s| s.is_watch() && s.resource().0 == "pytorchjobs")
            .collect();
        assert_eq!(watches.len(), 2, "watched twice: {watches:#?}");
        assert_eq!(
            watches[0].query["resourceVersion"], "5",
            "the first watch starts from the list"
        );
        assert_eq!(
            watches[1].query["resourceVersion"], "6",
            "the second resumes after the last event"
        );
        assert_eq!(
            watches[1].query["fieldSelector"],
            format!("metadata.name={JOB}")
        );
    }

    #[tokio::test]
    async fn a_failed_rayjob_fails_the_attempt_with_its_reason() {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, false);
        let mut events = backend.events();
        backend
            .submit(submission(vec![ray_job()], 3))
            .await
            .expect("applied");
        api.push(
            "rayjobs",
            "MODIFIED",
            stored(
                ray_job(),
                "3",
                json!({ "jobDeploymentStatus": "Running", "jobStatus": "RUNNING" }),
            ),
        )
        .await;
        assert_eq!(
            next(&mut events).await,
            Event::Started {
                task: task(),
                attempt: 1
            }
        );
        api.push("rayjobs", "MODIFIED", stored(ray_job(), "4", json!({ "jobDeploymentStatus": "Complete", "jobStatus": "FAILED", "message": "Job entrypoint command failed with exit code 1" }))).await;
        assert_eq!(
            next(&mut events).await,
            Event::Finished {
                task: task(),
                attempt: 1,
                failure: Some(Arg::Text(
                    "the Ray job ended FAILED: Job entrypoint command failed with exit code 1"
                        .to_owned()
                ))
            }
        );
        // A RayJob's pods are found by the RayCluster's and the submitter's labels.
        let selectors: HashSet<String> = api
            .seen()
            .into_iter()
            .filter(|s| s.resource().0 == "pods")
            .filter_map(|s| s.query.get("labelSelector").cloned())
            .collect();
        assert!(
            selectors.contains(&format!("ray.io/originated-from-cr-name={JOB}")),
            "{selectors:?}"
        );
        assert!(
            selectors.contains(&format!("batch.kubernetes.io/job-name={JOB}")),
            "{selectors:?}"
        );
    }

    fn kube_event(
        uid: &str,
        count: i32,
        kind: &str,
        name: &str,
        object_uid: &str,
        reason: &str,
        message: &str,
    ) -> Value {
        json!({
            "apiVersion": "v1", "kind": "Event",
            "metadata": { "name": format!("{name}.{uid}"), "namespace": NS, "uid": uid, "resourceVersion": "9" },
            "involvedObject": { "kind": kind, "name": name, "namespace": NS, "uid": object_uid },
            "reason": reason, "message": message, "count": count, "type": "Normal"
        })
    }

    fn pod(name: &str, uid: &str, waiting: &[(&str, &str)]) -> Value {
        json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": { "name": name, "namespace": NS, "uid": uid, "resourceVersion": "8",
                "labels": { "training.kubeflow.org/job-name": JOB } },
            "spec": { "containers": [{ "name": "pytorch", "image": "registry.example/missing:1" }] },
            "status": { "phase": "Pending", "containerStatuses": waiting.iter().map(|(container, reason)| json!({
                "name": container, "image": "registry.example/missing:1", "imageID": "", "ready": false, "restartCount": 0,
                "state": if reason.is_empty() { json!({ "running": {} }) } else {
                    json!({ "waiting": { "reason": reason, "message": format!("{reason} for registry.example/missing:1") } })
                }
            })).collect::<Vec<_>>() }
        })
    }

    #[tokio::test]
    async fn kubernetes_events_of_the_job_and_its_pods_become_task_events() {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, false);
        let mut events = backend.events();
        backend
            .submit(submission(vec![pytorch_job()], 3))
            .await
            .expect("applied");
        let job_uid = format!("uid-{JOB}");
        api.push(
            "events",
            "ADDED",
            kube_event(
                "e1",
                1,
                "PyTorchJob",
                JOB,
                &job_uid,
                "SuccessfulCreatePod",
                "Created pod: train-x2b4c-master-0",
            ),
        )
        .await;
        assert_eq!(
            next(&mut events).await,
            Event::Note {
                task: task(),
                attempt: 1,
                kind: note_kind::CLUSTER,
                message: Message::new("event.kube.cluster")
                    .with("object", format!("pytorchjob {JOB}"))
                    .with(
                        "what",
                        "SuccessfulCreatePod: Created pod: train-x2b4c-master-0"
                    ),
            }
        );
        // Another task's object: not ours. A pod not seen yet: held until its pod shows.
        api.push(
            "events",
            "ADDED",
            kube_event(
                "e2",
                1,
                "PyTorchJob",
                "other",
                "uid-other",
                "SuccessfulCreatePod",
                "x",
            ),
        )
        .await;
        api.push(
            "events",
            "ADDED",
            kube_event(
                "e3",
                1,
                "Pod",
                "train-x2b4c-master-0",
                "uid-pod-0",
                "Pulling",
                "Pulling image \"pytorch:2.4\"",
            ),
        )
        .await;
        api.push(
            "pods",
            "ADDED",
            pod(
                "train-x2b4c-master-0",
                "uid-pod-0",
                &[("pytorch", "ContainerCreating")],
            ),
        )
        .await;
        let Event::Note { kind, message, .. } = next(&mut events).await else {
            panic!("a note")
        };
        assert_eq!(
            (kind, message.render(Lang::En).as_str()),
            (
                note_kind::CLUSTER,
                "pod train-x2b4c-master-0: Pulling: Pulling image \"pytorch:2.4\""
            )
        );
        // The same event again (a re-list) is not repeated; a new occurrence is.
        api.push(
            "events",
            "MODIFIED",
            kube_event(
                "e1",
                1,
                "PyTorchJob",
                JOB,
                &job_uid,
                "SuccessfulCreatePod",
                "Created pod: train-x2b4c-master-0",
            ),
        )
        .await;
        api.push(
            "events",
            "MODIFIED",
            kube_event(
                "e1",
                2,
                "PyTorchJob",
                JOB,
                &job_uid,
                "SuccessfulCreatePod",
                "Created pod: train-x2b4c-master-0",
            ),
        )
        .await;
        let Event::Note { message, .. } = next(&mut events).await else {
            panic!("a note")
        };
        let message = message.render(Lang::En);
        assert!(
            message.starts_with("pytorchjob train-x2b4c: SuccessfulCreatePod"),
            "{message}"
        );
        assert!(
            events.try_recv().is_err(),
            "nothing else: the other task's event and the repeat are dropped"
        );
    }

    #[tokio::test]
    async fn attempts_in_one_namespace_share_one_events_watch_until_the_last_ends() {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, false);
        let mut events = backend.events();
        let other = "eval-k3m9p";
        let mut second = pytorch_job();
        second["metadata"]["name"] = json!(other);
        backend
            .submit(submission(vec![pytorch_job()], 3))
            .await
            .expect("applied");
        backend
            .submit(Submission {
                task: TaskId(other.to_owned()),
                ..submission(vec![second.clone()], 3)
            })
            .await
            .expect("applied");
        api.push(
            "events",
            "ADDED",
            kube_event(
                "e1",
                1,
                "PyTorchJob",
                other,
                &format!("uid-{other}"),
                "SuccessfulCreatePod",
                "Created pod: eval-k3m9p-master-0",
            ),
        )
        .await;
        let Event::Note { task: whose, .. } = next(&mut events).await else {
            panic!("a note")
        };
        assert_eq!(
            whose,
            TaskId(other.to_owned()),
            "only the job's own task notes it"
        );
        assert_eq!(api.open_watches("events"), 1);

        // Both end: the events watch is closed with the last.
        let done = |name: &str, job: Value| {
            let mut job = stored(job, "9", conditions(&[("Succeeded", "True")]));
            job["metadata"]["uid"] = json!(format!("uid-{name}"));
            job
        };
        api.watching("pytorchjobs", 2).await;
        {
            // Each job has its own watch (by name): each is sent both, and takes its own.
            let list = api.watches.lock().unwrap();
            for (_, tx) in list.iter().filter(|(r, _)| r == "pytorchjobs") {
                for job in [done(JOB, pytorch_job()), done(other, second.clone())] {
                    tx.send(json!({ "type": "MODIFIED", "object": job }))
                        .expect("open");
                }
            }
        }
        let mut finished = HashSet::new();
        while finished.len() < 2 {
            if let Event::Finished {
                task,
                failure: None,
                ..
            } = next(&mut events).await
            {
                finished.insert(task);
            }
        }
        tokio::time::timeout(WAIT, async {
            while api.open_watches("events") > 0 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the events watch is closed");
        assert_eq!(
            api.seen()
                .iter()
                .filter(|s| s.is_watch() && s.resource().0 == "events")
                .count(),
            1,
            "one events watch for both"
        );
    }

    #[tokio::test]
    async fn the_image_pull_breaker_fails_the_attempt_after_the_allowed_retries_and_deletes_the_job()
     {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, false);
        let mut events = backend.events();
        backend
            .submit(submission(vec![pytorch_job()], 1))
            .await
            .expect("applied");
        let master = "train-x2b4c-master-0";
        api.push(
            "pods",
            "ADDED",
            pod(master, "uid-pod-0", &[("pytorch", "ErrImagePull")]),
        )
        .await;
        let Event::Note { kind, message, .. } = next(&mut events).await else {
            panic!("a note")
        };
        assert_eq!(kind, note_kind::PULL);
        // Berth's words in the reader's language, the cluster's reason as it came.
        let chinese = message.render(Lang::Zh);
        assert!(chinese.contains("第 1 次镜像拉取失败"), "{chinese}");
        assert!(chinese.contains("ErrImagePull"), "{chinese}");
        let message = message.render(Lang::En);
        assert!(message.contains("image pull failure 1"), "{message}");
        // Back-off after the failure, and the same state again, are not new failures.
        api.push(
            "pods",
            "MODIFIED",
            pod(master, "uid-pod-0", &[("pytorch", "ImagePullBackOff")]),
        )
        .await;
        api.push(
            "pods",
            "MODIFIED",
            pod(master, "uid-pod-0", &[("pytorch", "ImagePullBackOff")]),
        )
        .await;
        api.push(
            "pods",
            "MODIFIED",
            pod(master, "uid-pod-0", &[("pytorch", "ErrImagePull")]),
        )
        .await;
        let Event::Note { message, .. } = next(&mut events).await else {
            panic!("a note")
        };
        let message = message.render(Lang::En);
        assert!(message.contains("image pull failure 2"), "{message}");
        let Event::Finished {
            failure: Some(failure),
            ..
        } = next(&mut events).await
        else {
            panic!("the attempt fails")
        };
        let failure = failure.render(Lang::En);
        assert!(
            failure.contains("pulled 2 times, more than the retries allowed (1)"),
            "{failure}"
        );
        tokio::time::timeout(WAIT, async {
            while !api
                .seen()
                .iter()
                .any(|s| s.method == "DELETE" && s.resource().1.is_some())
            {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the job is deleted");
        let delete = api
            .seen()
            .into_iter()
            .find(|s| s.method == "DELETE" && s.resource().1.is_some())
            .unwrap();
        assert_eq!(
            delete.resource(),
            ("pytorchjobs".to_owned(), Some(JOB.to_owned()))
        );
        assert_eq!(delete.body["propagationPolicy"], "Foreground");
    }

    fn tracker(retries: i64) -> Tracker {
        Tracker::new(
            task(),
            1,
            JobKind::PyTorch,
            JOB.to_owned(),
            format!("uid-{JOB}"),
            retries,
            Arc::default(),
        )
    }

    /// Debug mode: KubeRay keeps the cluster `ttlSecondsAfterFinished` after the job's
    /// own end, noted just before the end; without it, or for a job Berth is stopping
    /// (and deletes), nothing is noted.
    #[test]
    fn a_rayjob_in_debug_mode_notes_at_its_end_how_long_its_cluster_is_kept() {
        let ray = || {
            Tracker::new(
                task(),
                1,
                JobKind::Ray,
                JOB.to_owned(),
                format!("uid-{JOB}"),
                -1,
                Arc::default(),
            )
        };
        let ended = |ttl: Option<u64>| {
            let mut job = ray_job();
            if let Some(ttl) = ttl {
                job["spec"]["ttlSecondsAfterFinished"] = json!(ttl);
            }
            stored(
                job,
                "2",
                json!({ "jobDeploymentStatus": "Complete", "jobStatus": "FAILED", "message": "exit 1" }),
            )
        };
        let steps = ray().on_job(&ended(Some(600)));
        match steps.as_slice() {
            [
                Step::Emit(Event::Note { kind, message, .. }),
                Step::Emit(Event::Finished { .. }),
            ] => {
                assert_eq!(*kind, note_kind::DEBUG);
                assert_eq!(
                    message.render(shared::Lang::En),
                    "the Ray cluster is kept for 600 s after the job's end, to look into the \
                     head pod; KubeRay deletes it then"
                );
            }
            other => panic!("a note, then the end: {other:?}"),
        }
        for steps in [ray().on_job(&ended(Some(0))), ray().on_job(&ended(None))] {
            assert!(
                matches!(steps.as_slice(), [Step::Emit(Event::Finished { .. })]),
                "{steps:?}"
            );
        }
        // Being stopped: Berth deletes the job, and KubeRay keeps nothing of it.
        let mut stopping = ray();
        stopping.stopping.store(true, Ordering::SeqCst);
        let steps = stopping.on_job(&ended(Some(600)));
        assert!(
            !steps
                .iter()
                .any(|s| matches!(s, Step::Emit(Event::Note { .. }))),
            "{steps:?}"
        );
    }

    fn pod_object(waiting: &[(&str, &str)]) -> Pod {
        serde_json::from_value(pod("p-0", "uid-p-0", waiting)).expect("a pod")
    }

    fn trips(steps: &[Step]) -> bool {
        steps.contains(&Step::DeleteJob)
    }

    #[test]
    fn zero_retries_trip_on_the_first_failure_and_minus_one_never() {
        let mut at_once = tracker(0);
        assert!(trips(
            &at_once.on_pod(&pod_object(&[("pytorch", "ErrImagePull")]))
        ));

        let mut never = tracker(-1);
        for round in 0..50 {
            let reason = if round % 2 == 0 {
                "ErrImagePull"
            } else {
                "ImagePullBackOff"
            };
            assert!(!trips(&never.on_pod(&pod_object(&[("pytorch", reason)]))));
        }
        assert_eq!(never.pulls["uid-p-0"].failures, 25);
    }

    #[test]
    fn failures_are_counted_per_pod_over_its_containers_and_a_backoff_first_seen_counts() {
        let mut two = tracker(2);
        // Seen first in back-off: a pull failed before the watch saw it.
        assert!(!trips(&two.on_pod(&pod_object(&[
            ("pytorch", "ImagePullBackOff"),
            ("sidecar", "")
        ]))));
        assert!(!trips(&two.on_pod(&pod_object(&[
            ("pytorch", "ImagePullBackOff"),
            ("sidecar", "ErrImagePull")
        ]))));
        // Pulled at last, then failing again (a restart on a node without the image).
        assert!(!trips(&two.on_pod(&pod_object(&[
            ("pytorch", ""),
            ("sidecar", "ImagePullBackOff")
        ]))));
        assert!(trips(&two.on_pod(&pod_object(&[
            ("pytorch", "ErrImagePull"),
            ("sidecar", "ImagePullBackOff")
        ]))));
        // Once failed, nothing more is reported.
        assert!(
            two.on_pod(&pod_object(&[("pytorch", "ErrImagePull")]))
                .is_empty()
        );
    }

    /// A leader that lost the lead lets go of its jobs without deleting them: the next
    /// leader may have taken them back already, and a delete would end them under it.
    #[tokio::test]
    async fn a_released_job_is_no_longer_watched_and_not_deleted() {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, false);
        backend
            .submit(submission(vec![pytorch_job()], 3))
            .await
            .expect("applied");
        backend.release(&task(), 1).await;
        assert!(
            api.seen().iter().all(|s| s.method != "DELETE"),
            "{:#?}",
            api.seen()
        );
        assert!(matches!(
            backend.stop(&task(), 1, Duration::from_secs(5)).await,
            Err(BackendError::NotRunning { .. })
        ));
    }

    #[tokio::test]
    async fn stop_deletes_the_job_with_foreground_propagation_and_reports_the_end_when_it_is_gone()
    {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, false);
        let mut events = backend.events();
        backend
            .submit(submission(vec![pytorch_job()], 3))
            .await
            .expect("applied");
        backend
            .stop(&task(), 1, Duration::from_secs(5))
            .await
            .expect("stopped");
        let delete = api
            .seen()
            .into_iter()
            .find(|s| s.method == "DELETE")
            .expect("a delete");
        assert_eq!(
            delete.path,
            format!("/apis/kubeflow.org/v1/namespaces/{NS}/pytorchjobs/{JOB}")
        );
        assert_eq!(delete.body["propagationPolicy"], "Foreground");
        // Foreground: the job lingers with a deletion timestamp until its pods are gone.
        let mut going = stored(pytorch_job(), "8", conditions(&[("Running", "True")]));
        going["metadata"]["deletionTimestamp"] = json!("2026-11-29T12:00:00Z");
        api.push("pytorchjobs", "MODIFIED", going.clone()).await;
        assert_eq!(
            next(&mut events).await,
            Event::Started {
                task: task(),
                attempt: 1
            }
        );
        api.push("pytorchjobs", "DELETED", going).await;
        assert_eq!(
            next(&mut events).await,
            Event::Finished {
                task: task(),
                attempt: 1,
                failure: Some(Arg::Message(Message::new("event.stopped")))
            }
        );
        // Another attempt is not running here.
        assert!(matches!(
            backend.stop(&task(), 2, Duration::from_secs(5)).await,
            Err(BackendError::NotRunning { attempt: 2, .. })
        ));
    }

    /// The job's foreground delete, and that no merge patch (a suspend) was sent.
    fn the_stop_s_delete(api: &MockApi, path: &str) -> Seen {
        assert!(
            !api.seen()
                .iter()
                .any(|s| s.content_type == "application/merge-patch+json"),
            "not suspended: Kueue unsuspends an admitted job whatever its value"
        );
        let delete = api
            .seen()
            .into_iter()
            .find(|s| s.method == "DELETE" && s.resource().1.is_some())
            .expect("the job is deleted");
        assert_eq!(delete.path, path);
        assert_eq!(delete.body["propagationPolicy"], "Foreground");
        delete
    }

    #[tokio::test]
    async fn with_kueue_stop_deletes_the_job_in_the_foreground() {
        // k8s/RULES.md 9: on admission Kueue sets `suspend: false` "regardless of its
        // previous value", so a suspended job would run again while Berth reports the
        // task stopped. The job is deleted, and its Workload with it (owner reference).
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, true);
        let mut events = backend.events();
        backend
            .submit(submission(vec![ray_job()], 3))
            .await
            .expect("applied");
        // Kueue holds a new job suspended: a note, not an end.
        api.push(
            "rayjobs",
            "MODIFIED",
            stored(
                ray_job(),
                "3",
                json!({ "jobDeploymentStatus": "Suspended" }),
            ),
        )
        .await;
        let Event::Note { kind, .. } = next(&mut events).await else {
            panic!("a note")
        };
        assert_eq!(kind, note_kind::JOB);
        backend
            .stop(&task(), 1, Duration::from_secs(5))
            .await
            .expect("stopped");
        the_stop_s_delete(
            &api,
            &format!("/apis/ray.io/v1/namespaces/{NS}/rayjobs/{JOB}"),
        );
        api.push(
            "rayjobs",
            "DELETED",
            stored(ray_job(), "4", json!({ "jobDeploymentStatus": "Running" })),
        )
        .await;
        assert_eq!(
            next(&mut events).await,
            Event::Finished {
                task: task(),
                attempt: 1,
                failure: Some(Arg::Message(Message::new("event.stopped")))
            }
        );
    }

    #[tokio::test]
    async fn a_job_in_a_kueue_local_queue_is_deleted_to_stop_it_whatever_the_setting() {
        // The catalog puts this cluster's jobs in a LocalQueue: the renderer labels the
        // job. A stop deletes it as anywhere else, on a server whose `kueue` setting is
        // off too.
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, false);
        let mut job = ray_job();
        job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] = json!("berth");
        backend
            .submit(submission(vec![job], 3))
            .await
            .expect("applied");
        backend
            .stop(&task(), 1, Duration::from_secs(5))
            .await
            .expect("stopped");
        the_stop_s_delete(
            &api,
            &format!("/apis/ray.io/v1/namespaces/{NS}/rayjobs/{JOB}"),
        );
    }

    #[tokio::test]
    async fn with_kueue_stopping_a_job_kueue_still_holds_ends_it_once_it_is_deleted() {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, true);
        let mut events = backend.events();
        backend
            .submit(submission(vec![pytorch_job()], 3))
            .await
            .expect("applied");
        let held = stored(
            pytorch_job(),
            "5",
            conditions(&[("Created", "True"), ("Suspended", "True")]),
        );
        api.push("pytorchjobs", "MODIFIED", held.clone()).await;
        assert!(matches!(next(&mut events).await, Event::Note { .. }));
        backend
            .stop(&task(), 1, Duration::from_secs(5))
            .await
            .expect("stopped");
        the_stop_s_delete(
            &api,
            &format!("/apis/kubeflow.org/v1/namespaces/{NS}/pytorchjobs/{JOB}"),
        );
        api.push("pytorchjobs", "DELETED", held).await;
        assert_eq!(
            next(&mut events).await,
            Event::Finished {
                task: task(),
                attempt: 1,
                failure: Some(Arg::Message(Message::new("event.stopped")))
            }
        );
        assert_eq!(
            cleanups(&api.seen(), &format!("berth.dev/task={JOB}")),
            task_objects(NS),
            "its Secrets, ConfigMaps and PodMonitor went before the end was reported"
        );
    }

    /// A PyTorchJob's conditions as Training Operator v1.9 writes them around a
    /// suspension (`common/job.go`, `util/status.go`): suspending turns `Running` false
    /// and `Suspended` true, both with reason `PyTorchJobSuspended`; resuming turns
    /// `Suspended` false (`PyTorchJobResumed`) and `Running` comes back once the pods run.
    fn pytorch_status(running: Option<bool>, suspended: Option<bool>) -> Value {
        let suspended_message = format!("PyTorchJob {JOB} is suspended.");
        let mut list = vec![
            json!({ "type": "Created", "status": "True", "reason": "PyTorchJobCreated", "message": "created" }),
        ];
        if let Some(running) = running {
            list.push(if running {
                json!({ "type": "Running", "status": "True", "reason": "PyTorchJobRunning", "message": "running" })
            } else {
                json!({ "type": "Running", "status": "False", "reason": "PyTorchJobSuspended", "message": suspended_message })
            });
        }
        if let Some(suspended) = suspended {
            list.push(if suspended {
                json!({ "type": "Suspended", "status": "True", "reason": "PyTorchJobSuspended", "message": suspended_message })
            } else {
                json!({ "type": "Suspended", "status": "False", "reason": "PyTorchJobResumed", "message": format!("PyTorchJob {JOB} is resumed.") })
            });
        }
        json!({ "conditions": list })
    }

    /// What the tracker reports, as (event, English text of a note).
    fn reported(steps: Vec<Step>) -> Vec<String> {
        steps
            .into_iter()
            .map(|step| match step {
                Step::Emit(Event::Started { attempt, .. }) => format!("started {attempt}"),
                Step::Emit(Event::Note { kind, message, .. }) => {
                    format!("{kind}: {}", message.render(Lang::En))
                }
                Step::Emit(Event::Requeued { attempt, why, .. }) => {
                    format!("requeued {attempt}: {}", why.render(Lang::En))
                }
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_running_pytorchjob_kueue_evicts_waits_for_admission_again_and_runs_again_in_the_same_attempt()
     {
        // k8s/RULES.md 9: Kueue evicts an admitted job (preemption, waitForPodsReady) by
        // setting `runPolicy.suspend` again; the operator deletes the pods and marks it
        // suspended; on re-admission Kueue unsuspends it. None of it ends the attempt.
        let mut tracker = tracker(3);
        let mut step =
            |status: Value| reported(tracker.on_job(&stored(pytorch_job(), "2", status)));
        let suspended = format!("PyTorchJob {JOB} is suspended.");
        assert_eq!(
            step(pytorch_status(None, Some(true))),
            [format!(
                "job: the job is suspended (waiting for admission): {suspended}"
            )],
            "created suspended: waiting for admission"
        );
        assert_eq!(
            step(pytorch_status(None, Some(false))),
            Vec::<String>::new()
        );
        assert_eq!(step(pytorch_status(Some(true), Some(false))), ["started 1"]);
        let evicted = format!(
            "requeued 1: evicted by Kueue: the job is suspended (waiting for admission again): {suspended}"
        );
        assert_eq!(
            step(pytorch_status(Some(false), Some(true))),
            std::slice::from_ref(&evicted)
        );
        // The same suspension seen again (a re-list, another status write) is noted once.
        assert_eq!(
            step(pytorch_status(Some(false), Some(true))),
            Vec::<String>::new()
        );
        // Re-admitted: pending until its pods run, then started again, attempt 1 still.
        assert_eq!(
            step(pytorch_status(Some(false), Some(false))),
            Vec::<String>::new()
        );
        assert_eq!(step(pytorch_status(Some(true), Some(false))), ["started 1"]);
        // A second eviction is noted again.
        assert_eq!(step(pytorch_status(Some(false), Some(true))), [evicted]);
        assert!(!tracker.done, "an eviction ends nothing");
    }

    #[test]
    fn an_admitted_job_evicted_before_its_pods_ran_is_noted_as_evicted() {
        // waitForPodsReady: an admitted job whose pods are not ready in time is evicted
        // before it ever ran.
        let mut tracker = tracker(3);
        let mut step =
            |status: Value| reported(tracker.on_job(&stored(pytorch_job(), "2", status)));
        step(pytorch_status(None, Some(true)));
        assert_eq!(
            step(pytorch_status(None, Some(false))),
            Vec::<String>::new()
        );
        let notes = step(pytorch_status(None, Some(true)));
        assert!(
            matches!(notes.as_slice(), [note] if note.starts_with("requeued 1: evicted by Kueue")),
            "{notes:?}"
        );
    }

    #[test]
    fn a_running_rayjob_kueue_evicts_is_noted_once_and_started_again_when_readmitted() {
        // KubeRay v1.7 (`rayjob_controller.go`): `suspend` on a Running job goes
        // Suspending (the old run's message kept) → Suspended (message reset) → New once
        // unsuspended → Initializing → Running on a new cluster.
        let mut tracker = Tracker::new(
            task(),
            1,
            JobKind::Ray,
            JOB.to_owned(),
            format!("uid-{JOB}"),
            3,
            Arc::default(),
        );
        let mut step = |status: Value| reported(tracker.on_job(&stored(ray_job(), "2", status)));
        assert_eq!(
            step(
                json!({ "jobDeploymentStatus": "Running", "jobStatus": "RUNNING", "message": "Job is currently running." })
            ),
            ["started 1"]
        );
        assert_eq!(
            step(
                json!({ "jobDeploymentStatus": "Suspending", "jobStatus": "RUNNING", "message": "Job is currently running." })
            ),
            ["requeued 1: evicted by Kueue: the job is suspended (waiting for admission again)"],
            "the last run's message says nothing about the eviction"
        );
        assert_eq!(
            step(json!({ "jobDeploymentStatus": "Suspended", "jobStatus": "" })),
            Vec::<String>::new()
        );
        assert_eq!(
            step(json!({ "jobDeploymentStatus": "New", "jobStatus": "" })),
            Vec::<String>::new()
        );
        assert_eq!(
            step(json!({ "jobDeploymentStatus": "Initializing", "jobStatus": "" })),
            Vec::<String>::new()
        );
        assert_eq!(
            step(json!({ "jobDeploymentStatus": "Running", "jobStatus": "RUNNING" })),
            ["started 1"]
        );
    }

    #[tokio::test]
    async fn with_kueue_an_evicted_job_waits_says_why_and_a_stop_still_ends_it() {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, true);
        let mut events = backend.events();
        backend
            .submit(submission(vec![pytorch_job()], 3))
            .await
            .expect("applied");
        api.push(
            "pytorchjobs",
            "MODIFIED",
            stored(pytorch_job(), "5", pytorch_status(Some(true), Some(false))),
        )
        .await;
        assert_eq!(
            next(&mut events).await,
            Event::Started {
                task: task(),
                attempt: 1
            }
        );
        // Kueue suspends the job and says why in a `Stopped` Event on it
        // (jobframework `stopJob`: the Workload's `Evicted` message).
        api.push(
            "pytorchjobs",
            "MODIFIED",
            stored(pytorch_job(), "6", pytorch_status(Some(false), Some(true))),
        )
        .await;
        let Event::Requeued { why, attempt, .. } = next(&mut events).await else {
            panic!("requeued, not an end")
        };
        assert_eq!(attempt, 1);
        assert_eq!(why.key, "event.kube.evicted#detail");
        let why = "Preempted to accommodate a workload (UID: w-2, JobUID: j-2) due to prioritization in the ClusterQueue";
        api.push(
            "events",
            "ADDED",
            kube_event(
                "k1",
                1,
                "PyTorchJob",
                JOB,
                &format!("uid-{JOB}"),
                "Stopped",
                why,
            ),
        )
        .await;
        assert_eq!(
            next(&mut events).await,
            Event::Note {
                task: task(),
                attempt: 1,
                kind: note_kind::CLUSTER,
                message: Message::new("event.kube.cluster")
                    .with("object", format!("pytorchjob {JOB}"))
                    .with("what", format!("Stopped: {why}")),
            }
        );
        // Stopped while evicted: the job is deleted, and its end is the stop's.
        backend
            .stop(&task(), 1, Duration::from_secs(5))
            .await
            .expect("stopped");
        the_stop_s_delete(
            &api,
            &format!("/apis/kubeflow.org/v1/namespaces/{NS}/pytorchjobs/{JOB}"),
        );
        let mut going = stored(pytorch_job(), "7", pytorch_status(Some(false), Some(true)));
        going["metadata"]["deletionTimestamp"] = json!("2026-11-29T12:00:00Z");
        api.push("pytorchjobs", "MODIFIED", going).await;
        assert_eq!(
            next(&mut events).await,
            Event::Finished {
                task: task(),
                attempt: 1,
                failure: Some(Arg::Message(Message::new("event.stopped")))
            }
        );
    }

    /// A Workload as Kueue v0.20 keeps it for the test job: owned by it, labelled with
    /// its uid, `spec.active` as given, these conditions (type, reason, message; all
    /// `True`) and `schedulingStats.evictions` (reason, underlying cause, count).
    fn workload(
        active: bool,
        conditions: &[(&str, &str, &str)],
        evictions: &[(&str, &str, u32)],
    ) -> Value {
        json!({
            "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
            "metadata": {
                "name": format!("pytorchjob-{JOB}-3c0f1"), "namespace": NS, "uid": "uid-wl",
                "resourceVersion": "4",
                "labels": { KUEUE_JOB_UID_LABEL: format!("uid-{JOB}") },
                "ownerReferences": [{ "apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob",
                    "name": JOB, "uid": format!("uid-{JOB}"), "controller": true }]
            },
            "spec": { "active": active, "queueName": "berth", "podSets": [] },
            "status": {
                "conditions": conditions.iter().map(|(kind, reason, message)| json!({
                    "type": kind, "status": "True", "reason": reason, "message": message,
                    "lastTransitionTime": "2026-11-29T12:00:00Z"
                })).collect::<Vec<_>>(),
                "schedulingStats": { "evictions": evictions.iter().map(|(reason, cause, count)| json!({
                    "reason": reason, "underlyingCause": cause, "count": count
                })).collect::<Vec<_>>() }
            }
        })
    }

    /// The failure an attempt ends with when Kueue deactivated the test job's Workload.
    fn deactivated(what: &str) -> Vec<Step> {
        vec![
            Step::Emit(Event::Finished {
                task: task(),
                attempt: 1,
                failure: Some(Arg::Message(
                    Message::new("event.kube.cluster")
                        .with("object", format!("Kueue workload pytorchjob-{JOB}-3c0f1"))
                        .with("what", what),
                )),
            }),
            Step::DeleteJob,
        ]
    }

    #[test]
    fn a_job_kueue_deactivates_after_its_requeue_limit_fails_with_kueue_s_reason_and_is_deleted() {
        // KQ v0.20 `workload_controller.go`: at the PodsReady timeout after
        // `backoffLimitCount` requeues, Kueue sets `DeactivationTarget`, then
        // `spec.active: false`, then evicts the still admitted Workload with reason
        // `DeactivatedDueToRequeuingLimitExceeded`; the earlier evictions are counted in
        // `schedulingStats`. The job itself only turns suspended, as for an eviction.
        let mut tracker = tracker(3);
        tracker.on_job(&stored(
            pytorch_job(),
            "2",
            pytorch_status(Some(true), Some(false)),
        ));
        let reserved = (
            "QuotaReserved",
            "QuotaReserved",
            "Quota reserved in ClusterQueue berth",
        );
        let readiness = [("PodsReadyTimeout", "WaitForStart", 3)];
        assert_eq!(
            tracker.on_workload(&workload(true, &[reserved], &readiness)),
            [],
            "an active Workload"
        );
        let target = (
            "DeactivationTarget",
            "RequeuingLimitExceeded",
            "exceeding the maximum number of re-queuing retries",
        );
        assert_eq!(
            tracker.on_workload(&workload(false, &[reserved, target], &readiness)),
            [],
            "admitted still: Kueue has yet to evict it and say why"
        );
        // The job suspended before the Workload's eviction is seen: no requeue to wait for.
        assert_eq!(
            reported(tracker.on_job(&stored(
                pytorch_job(),
                "3",
                pytorch_status(Some(false), Some(true)),
            ))),
            Vec::<String>::new()
        );
        let evicted = (
            "Evicted",
            "DeactivatedDueToRequeuingLimitExceeded",
            "The workload is deactivated due to exceeding the maximum number of re-queuing retries",
        );
        let evictions = [
            ("PodsReadyTimeout", "WaitForStart", 3),
            ("Deactivated", "RequeuingLimitExceeded", 1),
        ];
        assert_eq!(
            tracker.on_workload(&workload(false, &[evicted], &evictions)),
            deactivated(
                "DeactivatedDueToRequeuingLimitExceeded: The workload is deactivated due to exceeding the maximum number of re-queuing retries (evicted before: 3× PodsReadyTimeout/WaitForStart)"
            )
        );
        assert!(tracker.done);
        assert_eq!(
            tracker.on_workload(&workload(false, &[evicted], &evictions)),
            [],
            "said once"
        );
    }

    #[test]
    fn a_waiting_job_an_admin_deactivates_fails_at_once_and_a_stopped_one_ends_as_stopped() {
        // `spec.active: false` on a Workload that holds no quota: evicted before (its
        // `Evicted` reason stays the earlier one) or never admitted, Kueue will never
        // admit it again.
        let requeued = (
            "Evicted",
            "PodsReadyTimeout",
            "Exceeded the PodsReady timeout berth-vision/pytorchjob-train-x2b4c-3c0f1",
        );
        let mut waiting = tracker(3);
        assert_eq!(
            waiting.on_workload(&workload(
                false,
                &[requeued],
                &[("PodsReadyTimeout", "WaitForStart", 1)]
            )),
            deactivated(
                "Deactivated: The workload is deactivated (evicted before: 1× PodsReadyTimeout/WaitForStart)"
            )
        );
        let mut pending = tracker(3);
        assert_eq!(
            pending.on_workload(&workload(false, &[], &[])),
            deactivated("Deactivated: The workload is deactivated")
        );
        // Being stopped: the stop deletes the job and ends the attempt as stopped.
        let mut stopping = tracker(3);
        stopping.stopping.store(true, Ordering::SeqCst);
        assert_eq!(stopping.on_workload(&workload(false, &[], &[])), []);
        assert!(!stopping.done);
    }

    #[tokio::test]
    async fn a_queued_job_s_workload_is_watched_by_the_job_s_uid_and_its_deactivation_ends_the_attempt()
     {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, true);
        let mut events = backend.events();
        let mut queued = pytorch_job();
        queued["metadata"]["labels"][shared::manifest::admission::KUEUE_QUEUE_LABEL] =
            json!("berth");
        backend
            .submit(submission(vec![queued.clone()], 3))
            .await
            .expect("applied");
        api.push(
            "workloads",
            "ADDED",
            workload(
                false,
                &[(
                    "Evicted",
                    "DeactivatedDueToRequeuingLimitExceeded",
                    "The workload is deactivated due to exceeding the maximum number of re-queuing retries",
                )],
                &[("PodsReadyTimeout", "WaitForStart", 2)],
            ),
        )
        .await;
        let Event::Finished {
            failure: Some(Arg::Message(why)),
            attempt: 1,
            ..
        } = next(&mut events).await
        else {
            panic!("the attempt fails")
        };
        assert_eq!(
            why.render(Lang::En),
            format!(
                "Kueue workload pytorchjob-{JOB}-3c0f1: DeactivatedDueToRequeuingLimitExceeded: The workload is deactivated due to exceeding the maximum number of re-queuing retries (evicted before: 2× PodsReadyTimeout/WaitForStart)"
            )
        );
        let seen = api.seen();
        let watch = seen
            .iter()
            .find(|s| s.is_watch() && s.resource().0 == "workloads")
            .expect("the Workload is watched");
        assert_eq!(
            watch.path,
            format!("/apis/kueue.x-k8s.io/v1beta2/namespaces/{NS}/workloads")
        );
        assert_eq!(
            watch.query["labelSelector"],
            format!("{KUEUE_JOB_UID_LABEL}=uid-{JOB}")
        );
        // The job is deleted: re-activated, it would run unwatched.
        tokio::time::timeout(WAIT, async {
            while !api.seen().iter().any(|s| {
                s.method == "DELETE"
                    && s.path == format!("/apis/kubeflow.org/v1/namespaces/{NS}/pytorchjobs/{JOB}")
            }) {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the job is deleted");

        // A job in no Kueue queue has no Workload to watch.
        let (client, api) = MockApi::start(defaults());
        let backend = super::KubeBackend::new(
            client,
            KubeSettings::default(),
            Arc::new(shared::demo::catalog()),
        );
        backend
            .submit(submission(vec![pytorch_job()], 3))
            .await
            .expect("applied");
        api.watching("pods", 1).await;
        api.watching("events", 1).await;
        assert!(
            !api.seen().iter().any(|s| s.path.contains("/workloads")),
            "{:?}",
            api.seen()
        );
    }

    #[tokio::test]
    async fn leftover_jobs_in_the_groups_namespaces_are_deleted_by_uid() {
        let catalog = shared::demo::catalog();
        let namespaces: Vec<String> = catalog
            .project_groups
            .iter()
            .map(|g| {
                format!(
                    "/apis/kubeflow.org/v1/namespaces/berth-{}/pytorchjobs",
                    g.id
                )
            })
            .collect();
        let first = namespaces[0].clone();
        let (client, api) = MockApi::start(Box::new(move |request| {
            if request.method != "GET" {
                return None;
            }
            if request.path.starts_with("/apis/ray.io/") {
                // KubeRay is not installed.
                return Some((StatusCode::NOT_FOUND, status(404, "NotFound")));
            }
            let items = if request.path == first {
                vec![stored(
                    pytorch_job(),
                    "3",
                    conditions(&[("Running", "True")]),
                )]
            } else {
                Vec::new()
            };
            Some((
                StatusCode::OK,
                json!({ "apiVersion": "kubeflow.org/v1", "kind": "PyTorchJobList", "metadata": { "resourceVersion": "3" }, "items": items }),
            ))
        }));
        let ended = backend(client, false).end_leftovers().await;
        assert_eq!(ended, 1, "{:#?}", api.seen());
        let seen = api.seen();
        let lists: Vec<&Seen> = seen
            .iter()
            .filter(|s| s.method == "GET" && s.path.contains("pytorchjobs"))
            .collect();
        assert_eq!(
            lists.len(),
            namespaces.len(),
            "every group's namespace is looked at"
        );
        assert!(
            lists
                .iter()
                .all(|l| l.query["labelSelector"] == ATTEMPT_LABEL)
        );
        let deletes: Vec<&Seen> = seen
            .iter()
            .filter(|s| s.method == "DELETE" && s.resource().1.is_some())
            .collect();
        assert_eq!(deletes.len(), 1);
        assert_eq!(deletes[0].path, format!("{}/{JOB}", namespaces[0]));
        assert_eq!(deletes[0].body["propagationPolicy"], "Foreground");
        assert_eq!(
            deletes[0].body["preconditions"]["uid"],
            format!("uid-{JOB}")
        );
        // Every task's Secrets, ConfigMaps and PodMonitors in each namespace go too.
        let mut swept = cleanups(&seen, shared::manifest::TASK_LABEL);
        swept.sort();
        let mut expected: Vec<String> = catalog
            .project_groups
            .iter()
            .flat_map(|g| task_objects(&format!("berth-{}", g.id)))
            .collect();
        expected.sort();
        assert_eq!(swept, expected);
    }

    /// A stored PyTorchJob of `name`, its attempt label and uid, in the test namespace.
    fn job_of_attempt(name: &str, attempt: u32, status: Value) -> Value {
        let mut job = stored(pytorch_job(), "3", status);
        job["metadata"]["name"] = json!(name);
        job["metadata"]["uid"] = json!(format!("uid-{name}"));
        job["metadata"]["labels"][ATTEMPT_LABEL] = json!(attempt.to_string());
        job
    }

    /// A mocked API server whose `berth-vision` PyTorchJobs are `jobs` (a watch of one
    /// by name lists that one), with no other namespace's jobs and no KubeRay.
    fn holding(jobs: Vec<Value>) -> (Client, MockApi) {
        MockApi::start(Box::new(move |request| {
            if request.method != "GET" {
                return None;
            }
            if request.path.starts_with("/apis/ray.io/") {
                return Some((StatusCode::NOT_FOUND, status(404, "NotFound")));
            }
            if request.resource() != ("pytorchjobs".to_owned(), None) {
                return None;
            }
            let named = request
                .query
                .get("fieldSelector")
                .and_then(|f| f.strip_prefix("metadata.name="));
            let items: Vec<Value> = if request.path.contains(&format!("/namespaces/{NS}/")) {
                jobs.iter()
                    .filter(|j| named.is_none_or(|n| j["metadata"]["name"] == n))
                    .cloned()
                    .collect()
            } else {
                Vec::new()
            };
            Some((
                StatusCode::OK,
                json!({ "apiVersion": "kubeflow.org/v1", "kind": "PyTorchJobList", "metadata": { "resourceVersion": "3" }, "items": items }),
            ))
        }))
    }

    /// What the store says runs: `name`'s attempt `attempt`, a PyTorchJob of the
    /// `vision` group (whose namespace is `berth-vision`).
    fn resumable(name: &str, attempt: u32, started: bool) -> super::super::Resumable {
        super::super::Resumable {
            task: TaskId(name.to_owned()),
            attempt,
            spec: shared::demo::pytorch().with(|s| s.basic.project_group = "vision".into()),
            started,
            last_event: Some(crate::runner::now()),
        }
    }

    /// README, the Kubernetes backend, Restart: a job of a running task's current
    /// attempt is taken back (not deleted, its Secrets, ConfigMaps and PodMonitor kept)
    /// and watched from now, its end reported as live; a job of an older attempt is
    /// deleted by uid as before; a stop deletes the job taken back.
    #[tokio::test]
    async fn a_running_task_s_job_is_taken_back_and_an_older_attempt_s_is_deleted() {
        let (client, api) = holding(vec![
            job_of_attempt(JOB, 2, conditions(&[("Running", "True")])),
            job_of_attempt("eval-y7k3p", 1, conditions(&[("Running", "True")])),
        ]);
        let backend = backend(client, false);
        let mut events = backend.events();
        let back = backend
            .take_back(&[resumable(JOB, 2, true), resumable("eval-y7k3p", 2, true)])
            .await;
        assert_eq!(back.taken, vec![task()], "{:#?}", api.seen());
        assert_eq!(back.ended, 1, "the older attempt's job is ended");
        let seen = api.seen();
        let deletes: Vec<&Seen> = seen
            .iter()
            .filter(|s| s.method == "DELETE" && s.resource().1.is_some())
            .collect();
        assert_eq!(deletes.len(), 1, "{deletes:#?}");
        assert_eq!(
            deletes[0].path,
            format!("/apis/kubeflow.org/v1/namespaces/{NS}/pytorchjobs/eval-y7k3p")
        );
        assert_eq!(deletes[0].body["preconditions"]["uid"], "uid-eval-y7k3p");
        // The job taken back keeps its own objects; every other task's go.
        let kept = format!(
            "{label},{label} notin ({JOB})",
            label = shared::manifest::TASK_LABEL
        );
        assert_eq!(cleanups(&seen, &kept), task_objects(NS));
        assert!(!cleanups(&seen, shared::manifest::TASK_LABEL).contains(&task_objects(NS)[0]));

        // Running already, and known so: nothing is reported until it ends.
        api.watching("pytorchjobs", 1).await;
        api.push(
            "pytorchjobs",
            "MODIFIED",
            job_of_attempt(
                JOB,
                2,
                conditions(&[("Running", "False"), ("Succeeded", "True")]),
            ),
        )
        .await;
        assert_eq!(
            next(&mut events).await,
            Event::Finished {
                task: task(),
                attempt: 2,
                failure: None
            }
        );
        assert_eq!(
            cleanups(&api.seen(), &task_selector(JOB)),
            task_objects(NS),
            "its objects go at its end"
        );

        // Taken back, it is this server's to stop.
        backend
            .stop(&task(), 2, Duration::from_secs(5))
            .await
            .expect("stopped");
        let delete = api
            .seen()
            .into_iter()
            .rfind(|s| s.method == "DELETE" && s.resource().1.is_some())
            .expect("a delete");
        assert_eq!(
            delete.path,
            format!("/apis/kubeflow.org/v1/namespaces/{NS}/pytorchjobs/{JOB}")
        );
        assert_eq!(delete.body["propagationPolicy"], "Foreground");
    }

    /// A job that failed while no server watched ends its attempt as it would have
    /// live; one still scheduling that runs now is reported started; a job being
    /// deleted, or of a task not running, is not taken back.
    #[tokio::test]
    async fn a_job_that_ended_while_the_server_was_down_is_reported_ended() {
        let mut going = job_of_attempt("going-a1b2c", 1, conditions(&[("Running", "True")]));
        going["metadata"]["deletionTimestamp"] = json!("2026-11-29T12:00:00Z");
        let (client, api) = holding(vec![
            job_of_attempt(JOB, 1, conditions(&[("Failed", "True")])),
            job_of_attempt("late-q9w8e", 3, conditions(&[("Running", "True")])),
            going,
            job_of_attempt("other-z5x4c", 1, conditions(&[("Running", "True")])),
        ]);
        let backend = backend(client, false);
        let mut events = backend.events();
        let back = backend
            .take_back(&[
                resumable(JOB, 1, true),
                resumable("late-q9w8e", 3, false),
                resumable("going-a1b2c", 1, true),
            ])
            .await;
        let mut taken = back.taken.clone();
        taken.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            taken,
            vec![TaskId("late-q9w8e".to_owned()), task()],
            "{:#?}",
            api.seen()
        );
        assert_eq!(back.ended, 2, "the job being deleted and the other task's");
        let mut heard = vec![next(&mut events).await, next(&mut events).await];
        heard.sort_by_key(|e| format!("{e:?}"));
        assert!(
            matches!(&heard[0], Event::Finished { task: t, attempt: 1, failure: Some(Arg::Text(_)) } if *t == task()),
            "{heard:?}"
        );
        assert_eq!(
            heard[1],
            Event::Started {
                task: TaskId("late-q9w8e".to_owned()),
                attempt: 3
            }
        );
    }

    /// A job taken back is this server's as one it started: its replicas' logs are
    /// read from its pods, and the image-pull breaker counts its pods' failures with
    /// the task's retries (0: the first failure trips it) and deletes it.
    #[tokio::test]
    async fn a_job_taken_back_serves_logs_and_trips_the_image_pull_breaker() {
        let (client, api) = holding(vec![job_of_attempt(
            JOB,
            1,
            conditions(&[("Running", "True")]),
        )]);
        let backend = backend(client, false);
        let mut events = backend.events();
        let mut resumable = resumable(JOB, 1, true);
        resumable.spec.advanced.image_pull_retries = Some(0);
        let back = backend.take_back(&[resumable]).await;
        assert_eq!(back.taken, vec![task()]);

        let log = backend.log_stream(&task(), 1, 0, false).await;
        assert!(matches!(log, Ok(Some(_))), "the log is served");
        assert!(
            api.seen().iter().any(|s| s.method == "GET"
                && s.resource() == ("pods".to_owned(), None)
                && s.query
                    .get("labelSelector")
                    .is_some_and(|l| l.contains(JOB))),
            "its pods are looked up: {:#?}",
            api.seen()
        );

        api.push(
            "pods",
            "ADDED",
            pod(
                "train-x2b4c-master-0",
                "uid-pod-0",
                &[("pytorch", "ErrImagePull")],
            ),
        )
        .await;
        let Event::Note { kind, .. } = next(&mut events).await else {
            panic!("a note")
        };
        assert_eq!(kind, note_kind::PULL);
        let Event::Finished {
            attempt: 1,
            failure: Some(failure),
            ..
        } = next(&mut events).await
        else {
            panic!("the attempt fails")
        };
        assert!(
            failure
                .render(Lang::En)
                .contains("more than the retries allowed (0)"),
            "{failure:?}"
        );
        tokio::time::timeout(WAIT, async {
            while !api.seen().iter().any(|s| {
                s.method == "DELETE"
                    && s.path == format!("/apis/kubeflow.org/v1/namespaces/{NS}/pytorchjobs/{JOB}")
            }) {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the breaker deletes the job");
    }

    /// A job taken back that is gone by its watch's first list (deleted in between)
    /// ends its attempt as a job deleted outside Berth, not left running for ever.
    #[tokio::test]
    async fn a_job_taken_back_that_is_gone_by_its_watch_ends_its_attempt() {
        let (client, _api) = MockApi::start(Box::new(|request| {
            if request.method != "GET" {
                return None;
            }
            if request.path.starts_with("/apis/ray.io/") {
                return Some((StatusCode::NOT_FOUND, status(404, "NotFound")));
            }
            if request.resource() != ("pytorchjobs".to_owned(), None) {
                return None;
            }
            // Found by the look for leftovers; gone when its watch lists it by name.
            let found = request.path.contains(&format!("/namespaces/{NS}/"))
                && !request.query.contains_key("fieldSelector");
            let items = if found {
                vec![job_of_attempt(JOB, 1, conditions(&[("Running", "True")]))]
            } else {
                Vec::new()
            };
            Some((
                StatusCode::OK,
                json!({ "apiVersion": "kubeflow.org/v1", "kind": "PyTorchJobList", "metadata": { "resourceVersion": "3" }, "items": items }),
            ))
        }));
        let backend = backend(client, false);
        let mut events = backend.events();
        let back = backend.take_back(&[resumable(JOB, 1, true)]).await;
        assert_eq!(back.taken, vec![task()]);
        assert_eq!(
            next(&mut events).await,
            Event::Finished {
                task: task(),
                attempt: 1,
                failure: Some(Arg::Message(
                    Message::new("event.kube.job_deleted").with("job", JOB)
                ))
            }
        );
    }

    /// A queued job taken back whose Workload Kueue deactivated while no server watched
    /// (the job only suspended): its attempt fails as it would have live.
    #[tokio::test]
    async fn a_queued_job_taken_back_whose_workload_was_deactivated_meanwhile_fails() {
        let mut job = job_of_attempt(JOB, 1, pytorch_status(Some(false), Some(true)));
        job["metadata"]["labels"][shared::manifest::admission::KUEUE_QUEUE_LABEL] = json!("berth");
        let (client, _api) = MockApi::start(Box::new(move |request| {
            if request.method != "GET" {
                return None;
            }
            if request.path.starts_with("/apis/ray.io/") {
                return Some((StatusCode::NOT_FOUND, status(404, "NotFound")));
            }
            let in_ns = request.path.contains(&format!("/namespaces/{NS}/"));
            let items = match request.resource() {
                (resource, None) if resource == "pytorchjobs" && in_ns => vec![job.clone()],
                (resource, None) if resource == "workloads" && in_ns => vec![workload(
                    false,
                    &[(
                        "Evicted",
                        "DeactivatedDueToRequeuingLimitExceeded",
                        "The workload is deactivated due to exceeding the maximum number of re-queuing retries",
                    )],
                    &[("PodsReadyTimeout", "WaitForStart", 2)],
                )],
                (_, None) => Vec::new(),
                _ => return None,
            };
            Some((
                StatusCode::OK,
                json!({ "apiVersion": "v1", "kind": "List", "metadata": { "resourceVersion": "3" }, "items": items }),
            ))
        }));
        let backend = backend(client, false);
        let mut events = backend.events();
        let back = backend.take_back(&[resumable(JOB, 1, true)]).await;
        assert_eq!(back.taken, vec![task()]);
        let mut ended = None;
        while ended.is_none() {
            if let Event::Finished { failure, .. } = next(&mut events).await {
                ended = failure;
            }
        }
        let Some(Arg::Message(why)) = ended else {
            panic!("failed with a reason")
        };
        assert!(
            why.render(Lang::En).starts_with(&format!(
                "Kueue workload pytorchjob-{JOB}-3c0f1: DeactivatedDueToRequeuingLimitExceeded"
            )),
            "{why:?}"
        );
    }

    /// README, Restart: the job's Events that came while no server watched are told
    /// after a take-back, those told before are not. What was told ends with the task's
    /// last recorded event, by the server's clock; the Events carry the cluster's, here
    /// ten minutes behind: the cut is made on the cluster's clock.
    #[tokio::test]
    async fn a_job_taken_back_tells_the_events_that_came_while_no_server_watched() {
        let behind = SignedDuration::from_mins(10);
        let cluster = |ago_mins: i64| {
            (Timestamp::now() - behind - SignedDuration::from_mins(ago_mins))
                .strftime("%Y-%m-%dT%H:%M:%SZ")
                .to_string()
        };
        let job_event = |uid: &str, reason: &str, at: String| {
            let mut event = kube_event(
                uid,
                1,
                "PyTorchJob",
                JOB,
                &format!("uid-{JOB}"),
                reason,
                "-",
            );
            event["lastTimestamp"] = json!(at);
            event
        };
        let mut pod_event = kube_event(
            "k-pod",
            4,
            "Pod",
            "train-x2b4c-worker-0",
            "uid-w0",
            "BackOff",
            "Back-off pulling image \"pytorch:2.4\"",
        );
        pod_event["lastTimestamp"] = json!(cluster(3));
        let listed = vec![
            // Told by the earlier server before its last recorded event, 5 minutes ago.
            job_event("k-before", "SuccessfulCreatePod", cluster(8)),
            // While no server watched, and at the take-back.
            job_event("k-down", "PyTorchJobRestarting", cluster(3)),
            pod_event,
            job_event("k-now", "SuccessfulCreatePod", cluster(0)),
        ];
        let job = job_of_attempt(JOB, 1, conditions(&[("Running", "True")]));
        let (client, api) = MockApi::start(Box::new(move |request| {
            if request.method != "GET" {
                return None;
            }
            if request.path.starts_with("/apis/ray.io/") {
                return Some((StatusCode::NOT_FOUND, status(404, "NotFound")));
            }
            let in_ns = request.path.contains(&format!("/namespaces/{NS}/"));
            let items = match request.resource() {
                (resource, None) if resource == "pytorchjobs" && in_ns => vec![job.clone()],
                (resource, None) if resource == "events" && in_ns => listed.clone(),
                (resource, None) if resource == "pods" && in_ns => {
                    vec![pod("train-x2b4c-worker-0", "uid-w0", &[("pytorch", "")])]
                }
                (_, None) => Vec::new(),
                _ => return None,
            };
            Some((
                StatusCode::OK,
                json!({ "apiVersion": "v1", "kind": "List", "metadata": { "resourceVersion": "3" }, "items": items }),
            ))
        }));
        api.clock_ahead(-behind);
        let backend = backend(client, false);
        let mut events = backend.events();
        let mut resumable = resumable(JOB, 1, true);
        resumable.last_event = Some(shared::record::Timestamp(
            (Timestamp::now() - SignedDuration::from_mins(5)).as_millisecond(),
        ));
        let back = backend.take_back(&[resumable]).await;
        assert_eq!(back.taken, vec![task()]);
        let mut told = Vec::new();
        while told.len() < 3 {
            if let Event::Note { message, .. } = next(&mut events).await {
                told.push(message.render(Lang::En));
            }
        }
        // A pod's Events wait for the pod to show, so the order is the watches'.
        told.sort();
        assert_eq!(
            told,
            [
                "pod train-x2b4c-worker-0: BackOff: Back-off pulling image \"pytorch:2.4\""
                    .to_owned(),
                format!("pytorchjob {JOB}: PyTorchJobRestarting: -"),
                format!("pytorchjob {JOB}: SuccessfulCreatePod: -"),
            ]
        );
        assert!(
            tokio::time::timeout(Duration::from_millis(300), events.recv())
                .await
                .is_err(),
            "nothing else is told"
        );
    }

    /// A job taken back: the namespace's Events from before are the earlier server's
    /// (told already); those after are told.
    #[test]
    fn a_job_taken_back_reports_only_the_events_after_it() {
        let mut tracker = tracker(3);
        tracker.since = Some(k8s_openapi::jiff::Timestamp::now());
        let at = |value: Value, time: &str| {
            let mut value = value;
            value["lastTimestamp"] = json!(time);
            serde_json::from_value::<KubeEvent>(value).expect("an Event")
        };
        let job_uid = format!("uid-{JOB}");
        let old = at(
            kube_event("e1", 1, "PyTorchJob", JOB, &job_uid, "Created", "old"),
            "2020-01-01T00:00:00Z",
        );
        assert!(tracker.on_kube_event(&old).is_empty());
        let new = at(
            kube_event("e2", 1, "PyTorchJob", JOB, &job_uid, "Restarted", "new"),
            "2999-01-01T00:00:00Z",
        );
        assert_eq!(tracker.on_kube_event(&new).len(), 1);
    }

    /// Of the Events from while no server watched, a job taken back reports a few; those
    /// after the take-back, all.
    #[test]
    fn a_job_taken_back_reports_a_few_events_from_the_downtime() {
        let mut tracker = tracker(3);
        tracker.since = Some("2020-01-01T00:00:00Z".parse().expect("a time"));
        tracker.taken_back_at = Some("2020-01-02T00:00:00Z".parse().expect("a time"));
        tracker.catch_up = CATCH_UP_EVENTS;
        let job_uid = format!("uid-{JOB}");
        let event = |n: usize, time: &str| {
            let mut value = kube_event(
                &format!("e{n}"),
                1,
                "PyTorchJob",
                JOB,
                &job_uid,
                "Restarted",
                "down",
            );
            value["lastTimestamp"] = json!(time);
            serde_json::from_value::<KubeEvent>(value).expect("an Event")
        };
        let told = (0..CATCH_UP_EVENTS + 5)
            .filter(|n| {
                !tracker
                    .on_kube_event(&event(*n, "2020-01-01T12:00:00Z"))
                    .is_empty()
            })
            .count();
        assert_eq!(told, CATCH_UP_EVENTS);
        let after = (100..110)
            .filter(|n| {
                !tracker
                    .on_kube_event(&event(*n, "2020-01-03T00:00:00Z"))
                    .is_empty()
            })
            .count();
        assert_eq!(after, 10);
    }

    /// The test job's worker 0 pod, whose log request gets `log` as the answer; the job
    /// submitted, so its log can be asked for.
    async fn with_worker_log(log: (StatusCode, Value)) -> (KubeBackend, MockApi) {
        let (client, api) = MockApi::start(Box::new(move |request| {
            let (resource, name) = request.resource();
            match (resource.as_str(), name, request.query.get("labelSelector")) {
                ("pods", None, Some(selector)) if selector.contains("replica-type=worker") => {
                    Some((
                        StatusCode::OK,
                        json!({ "apiVersion": "v1", "kind": "PodList", "metadata": { "resourceVersion": "3" },
                        "items": [pod("train-x2b4c-worker-0", "uid-w0", &[("pytorch", "")])] }),
                    ))
                }
                ("pods", Some(_), _) if request.path.ends_with("/log") => Some(log.clone()),
                _ => None,
            }
        }));
        let backend = backend(client, false);
        backend
            .submit(submission(vec![pytorch_job()], 3))
            .await
            .expect("applied");
        (backend, api)
    }

    #[tokio::test]
    async fn a_replica_log_is_streamed_from_its_pod() {
        let (backend, api) = with_worker_log((
            StatusCode::OK,
            json!("epoch 1 loss 0.5\nepoch 2 loss 0.4\n"),
        ))
        .await;
        let stream = backend
            .log_stream(&task(), 1, 1, true)
            .await
            .expect("read")
            .expect("a stream");
        let chunks: Vec<Vec<u8>> = stream.map(|c| c.expect("a chunk")).collect().await;
        assert_eq!(
            String::from_utf8(chunks.concat()).unwrap(),
            "epoch 1 loss 0.5\nepoch 2 loss 0.4\n"
        );
        let seen = api.seen();
        let list = seen
            .iter()
            .find(|s| {
                s.resource().0 == "pods"
                    && !s.is_watch()
                    && s.query
                        .get("labelSelector")
                        .is_some_and(|l| l.contains("replica-index"))
            })
            .expect("listed");
        assert_eq!(
            list.query["labelSelector"],
            format!(
                "training.kubeflow.org/job-name={JOB},training.kubeflow.org/replica-type=worker,training.kubeflow.org/replica-index=0"
            )
        );
        let log = seen
            .iter()
            .find(|s| s.path.ends_with("/log"))
            .expect("the log is read");
        assert_eq!(
            log.path,
            format!("/api/v1/namespaces/{NS}/pods/train-x2b4c-worker-0/log")
        );
        assert_eq!(log.query["container"], "pytorch");
        assert_eq!(log.query["follow"], "true");
        // Another attempt's log is not here.
        assert!(backend.log_stream(&task(), 2, 0, false).await.is_err());
    }

    /// A followed log's end: the pod's log asked for from as many lines from its end as
    /// the route counted, followed; a plain read asks for no `tailLines`.
    #[tokio::test]
    async fn a_replica_log_is_followed_from_its_last_lines() {
        let (backend, api) = with_worker_log((StatusCode::OK, json!("epoch 2 loss 0.4\n"))).await;
        let stream = backend
            .log_stream_from_end(&task(), 1, 1, 1)
            .await
            .expect("read")
            .expect("a stream");
        let chunks: Vec<Vec<u8>> = stream.map(|c| c.expect("a chunk")).collect().await;
        assert_eq!(
            String::from_utf8(chunks.concat()).unwrap(),
            "epoch 2 loss 0.4\n"
        );
        let logs: Vec<Seen> = api
            .seen()
            .into_iter()
            .filter(|s| s.path.ends_with("/log"))
            .collect();
        assert_eq!(logs.len(), 1, "{logs:?}");
        assert_eq!(logs[0].query["tailLines"], "1");
        assert_eq!(logs[0].query["follow"], "true");
        assert_eq!(logs[0].query["container"], "pytorch");

        let _plain = backend
            .log_stream(&task(), 1, 1, false)
            .await
            .expect("read")
            .expect("a stream");
        let plain = api
            .seen()
            .into_iter()
            .filter(|s| s.path.ends_with("/log"))
            .nth(1)
            .expect("read again");
        assert!(!plain.query.contains_key("tailLines"), "{plain:?}");
        assert!(!plain.query.contains_key("follow"), "{plain:?}");
    }

    /// A pod whose container is waiting to start answers its log with a 400 ("container
    /// … is waiting to start: ContainerCreating"): nothing to read yet, an empty log, not
    /// one that broke off (the route says a log that cannot be opened broke off).
    #[tokio::test]
    async fn the_log_of_a_container_waiting_to_start_is_empty() {
        let (backend, _api) = with_worker_log((
            StatusCode::BAD_REQUEST,
            json!({ "apiVersion": "v1", "kind": "Status", "metadata": {}, "status": "Failure",
                "message": "container \"pytorch\" in pod \"train-x2b4c-worker-0\" is waiting to start: ContainerCreating",
                "reason": "BadRequest", "code": 400 }),
        ))
        .await;
        let stream = backend
            .log_stream(&task(), 1, 1, false)
            .await
            .expect("not an error")
            .expect("a stream");
        let chunks: Vec<_> = stream.collect().await;
        assert!(chunks.is_empty(), "{chunks:?}");
    }

    #[test]
    fn replicas_map_to_the_operators_pods() {
        assert_eq!(
            JobKind::PyTorch.replica_selector(JOB, 0),
            (
                format!(
                    "training.kubeflow.org/job-name={JOB},training.kubeflow.org/replica-type=master"
                ),
                0
            )
        );
        assert_eq!(
            JobKind::Ray.replica_selector(JOB, 0),
            (format!("batch.kubernetes.io/job-name={JOB}"), 0)
        );
        assert_eq!(
            JobKind::Ray.replica_selector(JOB, 1),
            (
                format!("ray.io/originated-from-cr-name={JOB},ray.io/node-type=head"),
                0
            )
        );
        assert_eq!(
            JobKind::Ray.replica_selector(JOB, 4),
            (
                format!("ray.io/originated-from-cr-name={JOB},ray.io/node-type=worker"),
                2
            )
        );
    }

    #[test]
    fn the_namespace_comes_from_the_template_and_must_be_a_label() {
        let settings = KubeSettings::default();
        assert_eq!(settings.namespace_for("vision").unwrap(), "berth-vision");
        assert!(matches!(
            settings.namespace_for("Vision Team"),
            Err(KubeError::BadNamespace(_))
        ));
        let fixed = KubeSettings {
            namespace: "training".to_owned(),
            ..KubeSettings::default()
        };
        assert_eq!(fixed.namespace_for("vision").unwrap(), "training");
        assert!(
            KubeSettings {
                namespace: "{group}-".to_owned(),
                ..KubeSettings::default()
            }
            .namespace_for("a")
            .is_err()
        );
    }

    #[test]
    fn quantities_are_read_in_thousandths_rounded_up() {
        assert_eq!(quantity_milli("500m"), Some(500));
        assert_eq!(quantity_milli("2"), Some(2000));
        assert_eq!(quantity_milli("1.5"), Some(1500));
        assert_eq!(quantity_milli("0.1"), Some(100));
        assert_eq!(quantity_milli("16Gi"), Some(16 * (1 << 30) * 1000));
        assert_eq!(quantity_milli("1G"), Some(1_000_000_000 * 1000));
        assert_eq!(quantity_milli("1e3"), Some(1_000_000));
        assert_eq!(
            quantity_milli("1n"),
            Some(1),
            "a nano-unit rounds up to one thousandth"
        );
        assert_eq!(quantity_milli("Gi"), None);
        assert_eq!(quantity_milli("12x"), None);
    }

    fn running_pod(namespace: &str, node: &str, containers: Value, init: Value) -> Value {
        json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": { "name": format!("{namespace}-{node}"), "namespace": namespace },
            "spec": { "nodeName": node, "containers": containers, "initContainers": init },
            "status": { "phase": "Running" }
        })
    }

    #[tokio::test]
    async fn outside_usage_sums_other_pods_requests_per_catalog_node() {
        let catalog = shared::demo::catalog();
        let node = catalog.nodes().next().expect("a node").name.clone();
        let group = catalog.project_groups[0].id.clone();
        let (ours, node_in) = (format!("berth-{group}"), node.clone());
        let (client, api) = MockApi::start(Box::new(move |request| {
            (request.method == "GET" && request.path == "/api/v1/pods").then(|| {
                let page = request.query.get("continue").cloned().unwrap_or_default();
                let (items, next) = if page.is_empty() {
                    (
                        vec![
                            running_pod(
                                "team-a",
                                &node_in,
                                json!([
                                    { "name": "a", "resources": { "requests": { "cpu": "1500m", "memory": "3Gi", "nvidia.com/gpu": "1" } } },
                                    { "name": "b", "resources": { "limits": { "cpu": "1", "memory": "512Mi", "nvidia.com/gpu": "1" } } }
                                ]),
                                // Larger than the containers' sum in CPU only.
                                json!([{ "name": "init", "resources": { "requests": { "cpu": "4" } } }]),
                            ),
                            // Berth's own pod: the scheduler holds its capacity already.
                            running_pod(&ours, &node_in, json!([{ "name": "x", "resources": { "requests": { "nvidia.com/gpu": "8" } } }]), json!([])),
                        ],
                        "page-2",
                    )
                } else {
                    (
                        vec![
                            running_pod("team-b", &node_in, json!([{ "name": "c", "resources": { "requests": { "cpu": "100m", "memory": "100Mi" } } }]), json!([])),
                            // Not a catalog node.
                            running_pod("team-b", "elsewhere", json!([{ "name": "d", "resources": { "requests": { "nvidia.com/gpu": "2" } } }]), json!([])),
                        ],
                        "",
                    )
                };
                (StatusCode::OK, json!({ "apiVersion": "v1", "kind": "PodList", "metadata": { "resourceVersion": "5", "continue": next }, "items": items }))
            })
        }));
        let usage = backend(client, false)
            .outside_usage()
            .await
            .expect("listed");
        assert_eq!(usage.len(), 1, "{usage:?}");
        assert_eq!(
            usage[&node],
            shared::Resources {
                gpu: 2,
                vcpu: 5,
                memory_gib: 4
            },
            "cpu max(2.5, 4) + 0.1 = 4.1 rounds up to 5; 3 GiB + 512 MiB + 100 MiB rounds up to 4"
        );
        let lists: Vec<Seen> = api.seen();
        assert_eq!(lists.len(), 2, "two pages");
        assert_eq!(
            lists[0].query["fieldSelector"],
            "status.phase!=Succeeded,status.phase!=Failed"
        );
        // The first page from the watch cache; the next by its token alone.
        assert_eq!(lists[0].query["resourceVersion"], "0");
        assert_eq!(lists[0].query["resourceVersionMatch"], "NotOlderThan");
        assert_eq!(lists[1].query["continue"], "page-2");
        assert!(!lists[1].query.contains_key("resourceVersion"));
    }

    #[tokio::test]
    async fn a_gang_without_rendered_objects_does_not_start() {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, false);
        let gang = Gang {
            task: task(),
            attempt: 1,
            command: "true".to_owned(),
            ray: false,
            replicas: Vec::new(),
            mounts: Vec::new(),
            ssh: false,
            runtime_env: Vec::new(),
            source: None,
        };
        assert!(matches!(
            backend.start(gang).await,
            Err(BackendError::Start { .. })
        ));
        assert!(api.seen().is_empty(), "nothing was sent");
    }

    #[test]
    fn each_ssh_key_pair_is_a_fresh_ed25519_key_in_openssh_format() {
        let one = ssh_key_pair("train-x2b4c").expect("a key pair");
        let private =
            ssh_key::PrivateKey::from_openssh(&one.private_key).expect("an OpenSSH private key");
        assert_eq!(private.algorithm(), ssh_key::Algorithm::Ed25519);
        assert!(!private.is_encrypted(), "pods read it without a passphrase");
        let public = ssh_key::PublicKey::from_openssh(&one.public_key).expect("a public key line");
        assert_eq!(
            public.key_data(),
            private.public_key().key_data(),
            "one pair"
        );
        assert!(
            one.public_key.starts_with("ssh-ed25519 AAAA"),
            "{}",
            one.public_key
        );
        assert!(
            one.public_key.ends_with(" berth-train-x2b4c"),
            "{}",
            one.public_key
        );
        let two = ssh_key_pair("train-x2b4c").expect("a key pair");
        assert_ne!(one.public_key, two.public_key, "drawn anew for each task");
        assert!(!format!("{one:?}").contains("PRIVATE"), "never printed");
    }

    #[test]
    fn the_plans_spec_goes_first_and_the_rest_keep_their_order() {
        let spec = shared::demo::pytorch()
            .with(|s| s.compute.specs = vec!["h100-1g".into(), "h100-8g".into(), "a100-1g".into()]);
        assert_eq!(
            chosen_first(&spec, "a100-1g").compute.specs,
            ["a100-1g", "h100-1g", "h100-8g"]
        );
        assert_eq!(
            chosen_first(&spec, "h100-1g").compute.specs,
            ["h100-1g", "h100-8g", "a100-1g"]
        );
        assert_eq!(
            chosen_first(&spec, "nowhere").compute.specs,
            spec.compute.specs,
            "an unknown id changes nothing"
        );
    }

    /// Reserved capacity placed on idle runs as the idle job of its spec; placed on its
    /// pool it runs as it was written.
    #[test]
    fn reserved_capacity_placed_on_idle_is_sent_as_an_idle_job() {
        use shared::task::ResourceKind;
        let catalog = shared::demo::catalog();
        let user = shared::demo::user();
        let spec = shared::demo::pytorch().with(|s| {
            s.compute.kind = Some(ResourceKind::Reserved);
            s.compute.pool = Some("sh-a-shared".into());
            s.compute.accept_idle = true;
        });
        let mut placement = shared::place(&spec, &catalog, &shared::demo::usage(), &user)
            .expect("no overflow")
            .expect("placed");
        let on_pool = as_placed(&spec, &placement);
        assert_eq!(on_pool.compute.kind, Some(ResourceKind::Reserved));
        assert_eq!(on_pool.compute.pool.as_deref(), Some("sh-a-shared"));
        placement.kind = ResourceKind::Idle;
        let on_idle = as_placed(&spec, &placement);
        assert_eq!(on_idle.compute.kind, Some(ResourceKind::Idle));
        assert_eq!(on_idle.compute.pool.as_deref(), Some("sh-a-shared"));
        assert!(!on_idle.compute.accept_idle && on_idle.compute.priority.is_none());
        assert_eq!(on_idle.compute.specs[0], placement.spec);
        // It renders as the idle job of its spec would.
        let idle = shared::demo::pytorch().with(|s| {
            s.compute.kind = Some(ResourceKind::Idle);
            s.compute.pool = Some("sh-a-shared".into());
            s.compute.priority = None;
            s.compute.guarantee = None;
            s.compute.specs = on_idle.compute.specs.clone();
        });
        let job = |spec: &TaskSpec| {
            let objects = render_objects(&task(), spec, &catalog, &user, "berth").expect("renders");
            objects.last().expect("the job").clone()
        };
        assert_eq!(job(&on_idle), job(&idle));
        // sh-a's idle H100s come from its H100 pool, which serves no idle task: sent as
        // an idle job, its pods still select H100 nodes.
        let h100 = spec.with(|s| {
            s.compute.pool = Some("sh-a-h100".into());
            s.compute.specs = vec!["h100-1g".into()];
        });
        let mut on_h100 = placement.clone();
        on_h100.spec = "h100-1g".into();
        let job = job(&as_placed(&h100, &on_h100)).to_string();
        assert!(
            job.contains(r#""nodeSelector":{"berth.dev/gpu-model":"h100"}"#),
            "{job}"
        );
    }

    /// A gang made from a demo spec, as the runner makes it.
    fn gang_of(spec: TaskSpec) -> Gang {
        Gang {
            task: task(),
            attempt: 1,
            command: spec.environment.command.clone(),
            ray: spec.is_ray(),
            replicas: Vec::new(),
            mounts: Vec::new(),
            ssh: spec.advanced.ssh,
            runtime_env: Vec::new(),
            source: Some(Arc::new(super::super::GangSource {
                spec,
                // As the runner makes it: a name, no org or tenant.
                owner: User {
                    name: "alice".to_owned(),
                    ..User::default()
                },
            })),
        }
    }

    /// The decoded `data` of an applied Secret.
    fn secret_data(body: &Value) -> std::collections::BTreeMap<String, String> {
        let secret: k8s_openapi::api::core::v1::Secret =
            serde_json::from_value(body.clone()).expect("a Secret");
        secret
            .data
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| (k, String::from_utf8(v.0).expect("text")))
            .collect()
    }

    #[tokio::test]
    async fn a_demo_pytorchjob_on_the_kueue_cluster_is_rendered_and_applied_in_order() {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, true);
        // The plan chose the second spec of the list: it goes first.
        let spec = shared::demo::pytorch()
            .with(|s| s.compute.specs = vec!["h100-1g".into(), "a100-1g".into()]);
        assert!(spec.advanced.ssh && spec.basic.cluster == "sh-a");
        let spec = chosen_first(&spec, "a100-1g");
        backend.start(gang_of(spec)).await.expect("started");
        let writes: Vec<Seen> = api
            .seen()
            .into_iter()
            .filter(|s| s.method == "PATCH")
            .collect();
        let paths: Vec<&str> = writes.iter().map(|w| w.path.as_str()).collect();
        let ns = "/api/v1/namespaces/berth-nlp";
        assert_eq!(
            paths,
            [
                format!("{ns}/secrets/{JOB}-env"),
                format!("{ns}/secrets/{JOB}-ssh"),
                format!("{ns}/configmaps/{JOB}-hosts"),
                // Cluster-scoped, in the plan's order.
                "/apis/kueue.x-k8s.io/v1beta2/resourceflavors/berth-a100-1g".to_owned(),
                "/apis/kueue.x-k8s.io/v1beta2/resourceflavors/berth-h100-1g".to_owned(),
                format!("/apis/monitoring.coreos.com/v1/namespaces/berth-nlp/podmonitors/{JOB}"),
                format!("/apis/kubeflow.org/v1/namespaces/berth-nlp/pytorchjobs/{JOB}"),
            ]
        );
        assert!(
            writes
                .iter()
                .all(|w| w.content_type == "application/apply-patch+yaml")
        );
        // Rendered for the namespace it is applied to: the catalog's rule would give
        // `t-acme-nlp`, and needs a tenant the runner does not know.
        assert_eq!(writes[6].body["metadata"]["namespace"], "berth-nlp");
        assert!(!writes[6].body.to_string().contains("t-acme"));
        assert!(writes[3].body["metadata"].get("namespace").is_none());
        assert!(writes[4].body["metadata"].get("namespace").is_none());

        // The hidden value is in the Secret, and only there.
        assert_eq!(
            secret_data(&writes[0].body)
                .get("HF_TOKEN")
                .map(String::as_str),
            Some("hf_demo_secret")
        );
        let job = &writes[6].body;
        assert!(!job.to_string().contains("hf_demo_secret"));
        let master = &job["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"];
        let container = &master["containers"][0];
        let hf = container["env"]
            .as_array()
            .expect("env")
            .iter()
            .find(|e| e["name"] == "HF_TOKEN")
            .expect("HF_TOKEN is set");
        assert_eq!(
            hf["valueFrom"]["secretKeyRef"],
            json!({ "name": format!("{JOB}-env"), "key": "HF_TOKEN" })
        );
        // TASK_UUID is the task id.
        let uuid = container["env"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == "TASK_UUID")
            .expect("TASK_UUID is set");
        assert_eq!(uuid["value"], JOB);

        // The SSH Secret holds one fresh pair, authorised in every pod.
        let ssh = secret_data(&writes[1].body);
        let private = ssh_key::PrivateKey::from_openssh(&ssh["id_ed25519"]).expect("private key");
        assert_eq!(
            private.public_key().to_openssh().expect("encodes"),
            ssh["id_ed25519.pub"]
        );
        assert_eq!(ssh["authorized_keys"], ssh["id_ed25519.pub"]);
        assert!(
            master["volumes"]
                .as_array()
                .expect("volumes")
                .iter()
                .any(|v| v["secret"]["secretName"] == format!("{JOB}-ssh")),
            "{master}"
        );
        assert_eq!(
            writes[2].body["data"]["hostfile.hostname"],
            format!("{JOB}-master-0\n{JOB}-worker-0\n")
        );

        // Kueue: the queue label, created suspended, sized by the chosen spec (2 × A100).
        assert_eq!(
            job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"],
            "berth"
        );
        assert_eq!(job["metadata"]["labels"][shared::manifest::TASK_LABEL], JOB);
        assert_eq!(job["metadata"]["labels"][ATTEMPT_LABEL], "1");
        assert_eq!(job["spec"]["runPolicy"]["suspend"], true);
        assert_eq!(
            container["resources"]["limits"],
            json!({ "nvidia.com/gpu": "2", "cpu": "24", "memory": "240Gi" })
        );
    }

    #[tokio::test]
    async fn a_spec_that_does_not_render_fails_the_start_and_sends_nothing() {
        let (client, api) = MockApi::start(defaults());
        let spec = shared::demo::pytorch().with(|s| s.basic.cluster = "nowhere".into());
        let error = backend(client, false)
            .start(gang_of(spec))
            .await
            .expect_err("not rendered");
        assert!(
            error.to_string().contains("cluster `nowhere`"),
            "the renderer's reason: {error}"
        );
        assert!(api.seen().is_empty());
    }

    /// Where the task's objects without an owner are deleted by their label, in order:
    /// its Secrets, its ConfigMaps and its PodMonitor (RBAC grants PodMonitors'
    /// `deletecollection` for this).
    fn task_objects(namespace: &str) -> Vec<String> {
        vec![
            format!("/api/v1/namespaces/{namespace}/secrets"),
            format!("/api/v1/namespaces/{namespace}/configmaps"),
            format!("/apis/monitoring.coreos.com/v1/namespaces/{namespace}/podmonitors"),
        ]
    }

    /// The requests that delete one task's Secrets, ConfigMaps and PodMonitor.
    fn cleanups(seen: &[Seen], selector: &str) -> Vec<String> {
        seen.iter()
            .filter(|s| {
                s.method == "DELETE"
                    && s.resource().1.is_none()
                    && s.query.get("labelSelector").map(String::as_str) == Some(selector)
            })
            .map(|s| s.path.clone())
            .collect()
    }

    #[tokio::test]
    async fn the_task_s_secrets_config_maps_and_pod_monitor_are_deleted_before_its_end_is_reported()
    {
        let (client, api) = MockApi::start(defaults());
        let backend = backend(client, false);
        let mut events = backend.events();
        backend
            .submit(submission(vec![secret(), pytorch_job()], 3))
            .await
            .expect("applied");
        api.push(
            "pytorchjobs",
            "MODIFIED",
            stored(pytorch_job(), "5", conditions(&[("Running", "True")])),
        )
        .await;
        assert!(matches!(next(&mut events).await, Event::Started { .. }));
        let selector = format!("berth.dev/task={JOB}");
        assert!(
            cleanups(&api.seen(), &selector).is_empty(),
            "kept while it runs"
        );
        api.push(
            "pytorchjobs",
            "MODIFIED",
            stored(pytorch_job(), "6", conditions(&[("Succeeded", "True")])),
        )
        .await;
        assert!(matches!(
            next(&mut events).await,
            Event::Finished { failure: None, .. }
        ));
        assert_eq!(cleanups(&api.seen(), &selector), task_objects(NS));
    }

    /// What one recorded request needs of RBAC: (API group, resource, verb), and the
    /// namespace it is in (`None`: cluster-wide). A server-side apply may create the
    /// object, so it needs `create` as well as `patch`.
    fn permissions(seen: &Seen) -> Vec<(String, String, String, Option<String>)> {
        let (resource, name) = seen.resource();
        let after_name = name.as_ref().and_then(|n| {
            let tail = seen.path.rsplit_once(&format!("/{resource}/{n}"))?.1;
            tail.strip_prefix('/').map(str::to_owned)
        });
        let resource = match after_name {
            Some(sub) => format!("{resource}/{sub}"),
            None => resource,
        };
        let verbs: &[&str] = match (seen.method.as_str(), name.is_some()) {
            ("GET", true) => &["get"],
            ("GET", false) if seen.is_watch() => &["watch"],
            ("GET", false) => &["list"],
            ("PATCH", _) if seen.content_type == "application/apply-patch+yaml" => {
                &["patch", "create"]
            }
            ("PATCH", _) => &["patch"],
            ("DELETE", true) => &["delete"],
            ("DELETE", false) => &["deletecollection"],
            ("POST", _) => &["create"],
            other => panic!("an unexpected request {other:?}"),
        };
        let namespace = seen
            .path
            .split_once("/namespaces/")
            .map(|(_, rest)| rest.split('/').next().unwrap_or_default().to_owned());
        verbs
            .iter()
            .map(|verb| {
                (
                    seen.group(),
                    resource.clone(),
                    (*verb).to_owned(),
                    namespace.clone(),
                )
            })
            .collect()
    }

    /// deploy/rbac.yaml's grants: cluster-wide ones, and those per namespace.
    type Grant = (String, String, String);
    fn deployed_grants() -> (HashSet<Grant>, HashMap<String, HashSet<Grant>>) {
        use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, RoleBinding};
        let text = include_str!("../../../deploy/rbac.yaml");
        let documents: Vec<Value> = serde_yaml_ng::Deserializer::from_str(text)
            .map(|doc| Value::deserialize(doc).expect("YAML"))
            .collect();
        let of_kind =
            |kind: &'static str| documents.iter().filter(move |d| d["kind"] == kind).cloned();
        let roles: HashMap<String, HashSet<Grant>> = of_kind("ClusterRole")
            .map(|d| {
                let role: ClusterRole = serde_json::from_value(d).expect("a ClusterRole");
                let grants = role
                    .rules
                    .unwrap_or_default()
                    .into_iter()
                    .flat_map(|rule| {
                        let mut grants = Vec::new();
                        for group in rule.api_groups.clone().unwrap_or_default() {
                            for resource in rule.resources.clone().unwrap_or_default() {
                                for verb in &rule.verbs {
                                    grants.push((group.clone(), resource.clone(), verb.clone()));
                                }
                            }
                        }
                        grants
                    })
                    .collect();
                (role.metadata.name.expect("named"), grants)
            })
            .collect();
        let is_berth = |subjects: Option<Vec<k8s_openapi::api::rbac::v1::Subject>>| {
            subjects.unwrap_or_default().iter().any(|s| {
                s.kind == "ServiceAccount"
                    && s.name == "berth"
                    && s.namespace.as_deref() == Some("berth")
            })
        };
        let mut cluster = HashSet::new();
        for d in of_kind("ClusterRoleBinding") {
            let binding: ClusterRoleBinding = serde_json::from_value(d).expect("a binding");
            assert!(is_berth(binding.subjects));
            cluster.extend(roles[&binding.role_ref.name].iter().cloned());
        }
        let mut namespaced: HashMap<String, HashSet<Grant>> = HashMap::new();
        for d in of_kind("RoleBinding") {
            let binding: RoleBinding = serde_json::from_value(d).expect("a binding");
            assert!(is_berth(binding.subjects));
            assert_eq!(binding.role_ref.kind, "ClusterRole");
            namespaced
                .entry(binding.metadata.namespace.expect("namespaced"))
                .or_default()
                .extend(roles[&binding.role_ref.name].iter().cloned());
        }
        (cluster, namespaced)
    }

    /// Drives every request the backend makes (apply of a rendered PyTorchJob on the
    /// Kueue cluster and of a RayJob, watches, the end's cleanup, a log, stop, leftovers,
    /// outside usage) and checks that deploy/rbac.yaml grants exactly what they need.
    #[tokio::test]
    async fn the_deployed_rbac_grants_exactly_what_the_backend_asks_for() {
        let (client, api) = MockApi::start(Box::new(|request| {
            let (resource, name) = request.resource();
            let selector = request
                .query
                .get("labelSelector")
                .cloned()
                .unwrap_or_default();
            match (request.method.as_str(), resource.as_str(), name) {
                ("GET", "pods", None) if selector.contains("replica-type=master") => Some((
                    StatusCode::OK,
                    json!({ "apiVersion": "v1", "kind": "PodList", "metadata": { "resourceVersion": "3" },
                        "items": [pod("train-x2b4c-master-0", "uid-m0", &[("pytorch", "")])] }),
                )),
                ("GET", "pods", Some(_)) if request.path.ends_with("/log") => {
                    Some((StatusCode::OK, json!("step 1\n")))
                }
                // A cleanup Job Kueue holds, deleted once Berth gives up on it.
                ("GET", "jobs", Some(name)) if name == "held-clean" => {
                    Some((StatusCode::OK, cleanup_status("held-clean", true, &[])))
                }
                // A job an earlier server left, for the restart's sweep.
                ("GET", "pytorchjobs", None) if selector == ATTEMPT_LABEL => Some((
                    StatusCode::OK,
                    json!({ "apiVersion": "kubeflow.org/v1", "kind": "PyTorchJobList", "metadata": { "resourceVersion": "3" },
                        "items": [stored(pytorch_job(), "3", conditions(&[("Running", "True")]))] }),
                )),
                _ => None,
            }
        }));
        let backend = backend(client, false);
        let mut events = backend.events();
        backend
            .start(gang_of(shared::demo::pytorch()))
            .await
            .expect("the PyTorchJob starts");
        let ray = TaskId("tune-x2b4c".to_owned());
        backend
            .start(Gang {
                task: ray.clone(),
                ..gang_of(shared::demo::ray())
            })
            .await
            .expect("the RayJob starts");
        api.watching("pods", 3).await;
        api.watching("events", 2).await;
        api.watching("rayjobs", 1).await;
        api.push(
            "pytorchjobs",
            "MODIFIED",
            stored(pytorch_job(), "6", conditions(&[("Succeeded", "True")])),
        )
        .await;
        loop {
            if let Event::Finished { task, .. } = next(&mut events).await
                && task == self::task()
            {
                break;
            }
        }
        let log = backend
            .log_stream(&task(), 1, 0, false)
            .await
            .expect("a log")
            .expect("a stream");
        assert_eq!(log.collect::<Vec<_>>().await.len(), 1);
        backend
            .stop(&ray, 1, Duration::from_secs(5))
            .await
            .expect("stopped");
        cleanup_notes(
            &backend,
            &ray,
            &shared::demo::ray(),
            shared::record::TaskPhase::Stopped,
        )
        .await;
        let namespace = KubeSettings::default()
            .namespace_for(&shared::demo::ray().basic.project_group)
            .expect("a namespace");
        backend
            .follow_cleanup_job(
                &namespace,
                "held-clean",
                &Message::new("event.kube.cleanup.place"),
                (Duration::ZERO, Duration::ZERO),
                Duration::ZERO,
            )
            .await;
        // A restart's look for the cleanups an earlier server began.
        backend.cleanups().await;
        backend.end_leftovers().await;
        backend.outside_usage().await.expect("usage");

        let used: HashSet<(String, String, String, Option<String>)> =
            api.seen().iter().flat_map(permissions).collect();
        let (cluster, namespaced) = deployed_grants();
        for (group, resource, verb, namespace) in &used {
            let grant = (group.clone(), resource.clone(), verb.clone());
            let granted = cluster.contains(&grant)
                || namespace
                    .as_ref()
                    .is_some_and(|ns| namespaced.get(ns).is_some_and(|g| g.contains(&grant)));
            assert!(
                granted,
                "{verb} {group}/{resource} in {namespace:?} is not granted"
            );
        }
        for grant in &cluster {
            assert!(
                used.iter().any(
                    |(g, r, v, ns)| (g, r, v) == (&grant.0, &grant.1, &grant.2) && ns.is_none()
                ),
                "{grant:?} is granted cluster-wide but only needed in namespaces, or not at all"
            );
        }
        for grants in namespaced.values() {
            for grant in grants {
                assert!(!cluster.contains(grant), "{grant:?} is granted twice");
                assert!(
                    used.iter().any(|(g, r, v, ns)| {
                        (g, r, v) == (&grant.0, &grant.1, &grant.2) && ns.is_some()
                    }),
                    "{grant:?} is granted but never used"
                );
            }
        }
        // One binding per project group's namespace, and no other.
        let mut expected: Vec<String> = shared::demo::catalog()
            .project_groups
            .iter()
            .map(|g| {
                KubeSettings::default()
                    .namespace_for(&g.id)
                    .expect("a label")
            })
            .collect();
        expected.sort();
        let mut bound: Vec<String> = namespaced.keys().cloned().collect();
        bound.sort();
        assert_eq!(bound, expected);
    }
}
