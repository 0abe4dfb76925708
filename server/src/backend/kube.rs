//! The Kubernetes backend: a gang is one PyTorchJob or RayJob (plus its Secrets and
//! other objects), and the operators run the pods. Berth only applies the objects,
//! watches what happens to them and deletes them.
//!
//! # What it does
//!
//! - Client: a kubeconfig (a named file and context, or `KUBECONFIG`/`~/.kube/config`),
//!   else the in-cluster service account ([`kube::Client::try_default`]).
//! - Namespace: one per project group, from a template (`berth-{group}` by default).
//! - Start: every object `shared::manifest` rendered is applied with server-side apply
//!   under the field manager [`FIELD_MANAGER`], in the order given (Secrets first, the
//!   job last). The job is labelled with its attempt ([`ATTEMPT_LABEL`]); a job left by
//!   an earlier attempt is deleted first, and the apply waits until it is gone, so the
//!   new attempt never inherits the old one's status.
//! - Watch: three [`kube::runtime::watcher`]s per attempt (the job by name, its pods by
//!   the operators' labels, the namespace's Events), which resume from the last
//!   resource version after a dropped connection and re-list after an expired one.
//!   The job's status is mapped by [`job_phase`]; a running job is reported as
//!   [`Event::Started`], its end as [`Event::Finished`]. Kubernetes Events of the job
//!   and of its pods become [`Event::Note`]s.
//! - Image-pull breaker (SPEC.md section 5): each time a container of a pod enters
//!   `ErrImagePull` (or is first seen in `ImagePullBackOff`), that pod's count of pull
//!   failures grows. With `image_pull_retries` = n ≥ 0 the attempt fails when a pod's
//!   count exceeds n (0: the first failure; n: n failures are retried, the next one
//!   trips), and the job is deleted; −1 never trips.
//! - Logs: the replica's pod log (its first container), followed while it runs.
//!   Replica 0 is a PyTorchJob's master, `i` its worker `i - 1`; a RayJob's replica 0
//!   is the submitter (whose log is the entrypoint's output), 1 the head, `i ≥ 2`
//!   worker `i - 2` in name order.
//! - Stop: delete the job with foreground propagation, so its end is reported once its
//!   pods are gone; with Kueue, suspend it instead (Kueue keeps the workload).
//!
//! # What it does not do
//!
//! - Rendering is `shared::manifest`'s; [`render_objects`] is the one place that calls
//!   it. Live usage of the cluster (Nodes, Kueue ClusterQueues) does not feed the
//!   catalog yet. Logs of an attempt whose pods are gone cannot be read.

use super::{Backend, BackendError, Event, Gang, LogStream, Result, note_kind};
use ::kube::api::{
    Api, ApiResource, DeleteParams, DynamicObject, GroupVersionKind, ListParams, LogParams, Patch,
    PatchParams,
};
use ::kube::runtime::{WatchStreamExt, watcher};
use ::kube::{Client, ResourceExt};
use futures_util::{AsyncReadExt, StreamExt};
use k8s_openapi::api::core::v1::{Event as KubeEvent, Pod};
use serde::Deserialize;
use serde_json::{Value, json};
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
/// Events kept for slow receivers.
const EVENT_CAPACITY: usize = 1024;
/// How long a new attempt waits for the previous attempt's job to be deleted.
const DELETE_WAIT: Duration = Duration::from_secs(120);
/// Kubernetes Events about pods not seen yet, kept until their pod shows up.
const PENDING_EVENTS: usize = 256;
/// The waiting reasons of a failed image pull.
const ERR_IMAGE_PULL: &str = "ErrImagePull";
const IMAGE_PULL_BACK_OFF: &str = "ImagePullBackOff";

/// A Kubernetes API failure, classified once (STYLE.md section 3).
#[derive(Debug, thiserror::Error)]
pub enum KubeError {
    /// The object (or its kind: a CRD that is not installed) does not exist.
    #[error("not found")]
    NotFound(#[source] ::kube::Error),
    /// Another writer changed the object first, or it is being deleted.
    #[error("conflict")]
    Conflict(#[source] ::kube::Error),
    /// An object of that name exists already.
    #[error("already exists")]
    AlreadyExists(#[source] ::kube::Error),
    /// Anything else: the API is unreachable, refuses us, or fails (an API answers 503).
    #[error("the kubernetes API is unavailable")]
    Unavailable(#[source] ::kube::Error),
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
    /// Kueue admits the jobs: stop suspends a job instead of deleting it.
    pub kueue: bool,
}

impl Default for KubeSettings {
    fn default() -> Self {
        KubeSettings {
            namespace: "berth-{group}".to_owned(),
            kubeconfig: None,
            context: None,
            kueue: false,
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

    /// The merge patch that suspends a job (how Kueue holds it back).
    fn suspend_patch(self) -> Value {
        match self {
            JobKind::PyTorch => json!({ "spec": { "runPolicy": { "suspend": true } } }),
            JobKind::Ray => json!({ "spec": { "suspend": true } }),
        }
    }
}

/// Where a job stands, read from its status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobPhase {
    /// Created, pods not all running yet.
    Pending,
    /// Suspended (by Kueue until admission, or by a stop), with the operator's message.
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
            let message = text(&status["message"]);
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
                "Suspended" | "Suspending" => JobPhase::Suspended(message),
                "Running" => JobPhase::Running,
                _ => JobPhase::Pending,
            }
        }
    }
}

/// `reason: message`, or whichever of them is set.
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

/// The objects to apply for a gang. The one place that calls the renderer
/// (`shared::manifest::render(spec, name, task_uuid, catalog, user)`, which lands with
/// the manifest work): until it is wired, a gang cannot start on Kubernetes.
///
/// # Errors
///
/// [`BackendError::Start`] naming what is missing.
pub fn render_objects(
    task: &TaskId,
    _spec: &TaskSpec,
    _catalog: &Catalog,
    _owner: &User,
) -> Result<Vec<Value>> {
    Err(BackendError::Start {
        task: task.clone(),
        replica: 0,
        reason: "this build cannot render Kubernetes objects (shared::manifest is not wired)"
            .to_owned(),
    })
}

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

    fn lock(&self) -> MutexGuard<'_, HashMap<TaskId, Tracked>> {
        self.jobs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Applies an attempt's objects and starts watching its job.
    ///
    /// # Errors
    ///
    /// [`BackendError::Kube`] when an object cannot be applied (nothing is watched then;
    /// objects applied before it stay, and the next attempt's apply updates them).
    pub async fn submit(&self, submission: Submission) -> Result<()> {
        let Submission {
            task,
            attempt,
            namespace,
            mut objects,
            image_pull_retries,
        } = submission;
        let fail = |action: String, source: KubeError| BackendError::Kube {
            task: task.clone(),
            action,
            source,
        };
        let count = objects.len();
        let Some(job) = objects.last_mut() else {
            return Err(fail(
                "apply the job".to_owned(),
                KubeError::BadObject {
                    index: 0,
                    missing: "kind",
                },
            ));
        };
        job["metadata"]["labels"][ATTEMPT_LABEL] = json!(attempt.to_string());
        let mut applied = None;
        for (index, object) in objects.into_iter().enumerate() {
            let (resource, name) =
                identify(&object, index).map_err(|e| fail(format!("apply object {index}"), e))?;
            let action = format!("apply {} {name}", resource.kind);
            let api: Api<DynamicObject> =
                Api::namespaced_with(self.client.clone(), &namespace, &resource);
            if index + 1 == count {
                let kind = JobKind::of(&resource.api_version, &resource.kind).ok_or_else(|| {
                    fail(
                        action.clone(),
                        KubeError::BadObject {
                            index,
                            missing: "PyTorchJob or RayJob kind",
                        },
                    )
                })?;
                self.forget(&task);
                self.clear_previous(&api, &name, attempt)
                    .await
                    .map_err(|e| {
                        fail(format!("delete the previous {} {name}", resource.kind), e)
                    })?;
                let object = api
                    .patch(&name, &apply_params(), &Patch::Apply(&object))
                    .await
                    .map_err(|e| fail(action, e.into()))?;
                applied = Some((kind, resource, name, object));
            } else {
                api.patch(&name, &apply_params(), &Patch::Apply(&object))
                    .await
                    .map_err(|e| fail(action, e.into()))?;
            }
        }
        let (kind, resource, name, object) = applied.expect("the last object is the job");
        let stopping = Arc::new(AtomicBool::new(false));
        let tracker = Tracker::new(
            task.clone(),
            attempt,
            kind,
            name.clone(),
            object.uid().unwrap_or_default(),
            image_pull_retries,
            Arc::clone(&stopping),
        );
        let watch = tokio::spawn(follow(
            self.client.clone(),
            self.events.clone(),
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
            .map_err(|source| BackendError::Kube {
                task: gang.task.clone(),
                action: "choose the namespace".to_owned(),
                source,
            })?;
        let objects = render_objects(&gang.task, &source.spec, &self.catalog, &source.owner)?;
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
        let (namespace, kind, resource, name, stopping) = {
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
                tracked.resource.clone(),
                tracked.name.clone(),
                Arc::clone(&tracked.stopping),
            )
        };
        stopping.store(true, Ordering::SeqCst);
        let api: Api<DynamicObject> =
            Api::namespaced_with(self.client.clone(), &namespace, &resource);
        let fail = |action: String, error: ::kube::Error| BackendError::Kube {
            task: task.clone(),
            action,
            source: error.into(),
        };
        if self.settings.kueue {
            api.patch(
                &name,
                &PatchParams::default(),
                &Patch::Merge(kind.suspend_patch()),
            )
            .await
            .map_err(|e| fail(format!("suspend {} {name}", resource.kind), e))?;
        } else {
            match api.delete(&name, &DeleteParams::foreground()).await {
                Ok(_) => {}
                Err(error) => match KubeError::from(error) {
                    // Gone already: the watcher reports the end.
                    KubeError::NotFound(_) => {}
                    source => {
                        return Err(BackendError::Kube {
                            task: task.clone(),
                            action: format!("delete {} {name}", resource.kind),
                            source,
                        });
                    }
                },
            }
        }
        Ok(())
    }

    fn events(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
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
            source: error.into(),
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
            ..LogParams::default()
        };
        let reader = pods
            .log_stream(&pod_name, &params)
            .await
            .map_err(|e| fail(format!("read the log of pod {pod_name}"), e))?;
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

/// What watching an attempt asks of the loop in [`follow`].
#[derive(Debug, PartialEq)]
enum Step {
    /// Report this.
    Emit(Event),
    /// The image-pull breaker tripped: delete the job (the `Finished` was emitted).
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
    last_note: Option<String>,
    started: bool,
    done: bool,
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
            last_note: None,
            started: false,
            done: false,
        }
    }

    fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    fn note(&self, kind: &'static str, message: String) -> Step {
        Step::Emit(Event::Note {
            task: self.task.clone(),
            attempt: self.attempt,
            kind,
            message,
        })
    }

    fn finish(&mut self, failure: Option<String>) -> Vec<Step> {
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
        match job_phase(self.kind, object) {
            JobPhase::Pending => Vec::new(),
            JobPhase::Running if self.started => Vec::new(),
            JobPhase::Running => vec![self.start_step()],
            JobPhase::Succeeded => self.finish(None),
            JobPhase::Failed(reason) => self.finish(Some(reason)),
            JobPhase::Suspended(_) if self.stopping() => self.finish(Some("stopped".to_owned())),
            JobPhase::Suspended(message) => {
                let text = reason_text("the job is suspended (waiting for admission)", &message);
                if self.last_note.as_deref() == Some(text.as_str()) {
                    return Vec::new();
                }
                self.last_note = Some(text.clone());
                vec![self.note(note_kind::JOB, text)]
            }
        }
    }

    /// The job was deleted.
    fn on_job_deleted(&mut self, object: &Value) -> Vec<Step> {
        if self.done || object["metadata"]["uid"].as_str() != Some(&self.job_uid) {
            return Vec::new();
        }
        let why = if self.stopping() {
            "stopped".to_owned()
        } else {
            format!("the job {} was deleted outside Berth", self.job)
        };
        self.finish(Some(why))
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
            steps.push(self.note(
                note_kind::PULL,
                format!("pod {name} container {container}: image pull failure {count}: {what}"),
            ));
            if self.image_pull_retries >= 0 && count > self.image_pull_retries {
                let failure = format!(
                    "the image of pod {name} container {container} could not be pulled \
                     {count} time(s), more than the {} retries allowed: {what}",
                    self.image_pull_retries
                );
                steps.extend(self.finish(Some(failure)));
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
        let object = format!(
            "{} {}",
            involved.kind.as_deref().unwrap_or("object").to_lowercase(),
            involved.name.as_deref().unwrap_or_default()
        );
        let what = reason_text(
            event.reason.as_deref().unwrap_or_default(),
            event.message.as_deref().unwrap_or_default(),
        );
        vec![self.note(note_kind::CLUSTER, format!("{object}: {what}"))]
    }
}

/// Watches one attempt until it ends (or a new attempt replaces it).
async fn follow(
    client: Client,
    events: broadcast::Sender<Event>,
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
    let event_api: Api<KubeEvent> = Api::namespaced(client, &namespace);
    let event_watch = watcher(event_api, watcher::Config::default()).default_backoff();
    let mut job_watch = std::pin::pin!(job_watch);
    let mut pod_watch = std::pin::pin!(pod_watch);
    let mut event_watch = std::pin::pin!(event_watch);
    while !tracker.done {
        let steps = tokio::select! {
            Some(next) = job_watch.next() => match next {
                Ok(watcher::Event::Apply(job) | watcher::Event::InitApply(job)) => {
                    tracker.on_job(&to_value(&job))
                }
                Ok(watcher::Event::Delete(job)) => tracker.on_job_deleted(&to_value(&job)),
                Ok(watcher::Event::Init | watcher::Event::InitDone) => Vec::new(),
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
            Some(next) = event_watch.next() => match next {
                Ok(watcher::Event::Apply(event) | watcher::Event::InitApply(event)) => {
                    tracker.on_kube_event(&event)
                }
                Ok(_) => Vec::new(),
                Err(error) => {
                    tracing::warn!(task = %tracker.task, %error, "watching the events failed; retrying");
                    Vec::new()
                }
            },
            else => break,
        };
        for step in steps {
            match step {
                Step::Emit(event) => {
                    let _ = events.send(event);
                }
                Step::DeleteJob => {
                    if let Err(error) = job_api
                        .delete(&tracker.job, &DeleteParams::foreground())
                        .await
                    {
                        tracing::warn!(task = %tracker.task, %error, "cannot delete a job whose image cannot be pulled");
                    }
                }
            }
        }
    }
}

fn to_value(object: &DynamicObject) -> Value {
    serde_json::to_value(object).unwrap_or(Value::Null)
}
