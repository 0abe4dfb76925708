//! Backends run a placed gang: the embedded local backend (every replica a process on
//! this machine) and Kubernetes (the operators run the rendered job). The scheduler
//! decides what runs where; a backend only starts, stops, reports exits and serves logs.

pub mod kube;
pub mod local;

use shared::{TaskId, TaskSpec, User};
use std::path::PathBuf;
use std::sync::Arc;

/// A backend failed to do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    /// Starting a replica failed (the command could not be spawned, a mount is missing).
    #[error("cannot start replica {replica} of task {task}: {reason}")]
    Start {
        /// The task.
        task: TaskId,
        /// The replica index.
        replica: u32,
        /// Why, in plain words.
        reason: String,
    },
    /// The task has no attempt running here.
    #[error("task {task} attempt {attempt} is not running")]
    NotRunning {
        /// The task.
        task: TaskId,
        /// The attempt.
        attempt: u32,
    },
    /// Reading or writing the backend's files failed.
    #[error("backend I/O for task {task}")]
    Io {
        /// The task.
        task: TaskId,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The Kubernetes API refused or failed a request (classified once, in `kube.rs`).
    /// The cause is in the text, as a task's failure reason shows only the text.
    #[error("kubernetes: cannot {action} for task {task}: {cause}")]
    Kube {
        /// The task.
        task: TaskId,
        /// What was asked, e.g. "apply PyTorchJob train-x2b4c".
        action: String,
        /// The classified cause.
        cause: kube::KubeError,
    },
}

impl BackendError {
    /// Whether the cluster (not the request) is at fault, so an API answers 503: the
    /// Kubernetes API could not be reached or failed in a way other than not-found,
    /// conflict or already-exists.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            BackendError::Kube {
                cause: kube::KubeError::Unavailable(_),
                ..
            }
        )
    }
}

/// A module result with [`BackendError`].
pub type Result<T, E = BackendError> = std::result::Result<T, E>;

/// A directory mounted into every replica of a gang.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mount {
    /// The directory on this machine (the catalog maps volume, dataset and model ids to
    /// host directories).
    pub source: PathBuf,
    /// Where the replica sees it (the spec's mount path, or `/tmp/ray`).
    pub target: String,
    /// Datasets and models are read-only.
    pub read_only: bool,
}

/// One replica of a placed gang.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replica {
    /// Its index: the master (or Ray head) is 0, worker `i` is `i + 1`.
    pub index: u32,
    /// The node the placement put it on.
    pub node: String,
    /// GPUs it takes on that node; the local backend hands out device indices for
    /// `CUDA_VISIBLE_DEVICES`.
    pub gpus: u64,
    /// Its whole environment (`shared::injected::pod_env`), hidden values included.
    pub env: Vec<(String, String)>,
}

/// A whole gang to start at once (SPEC.md section 7: all replicas or none).
#[derive(Clone, Debug, PartialEq)]
pub struct Gang {
    /// The task.
    pub task: TaskId,
    /// Which attempt this is, from 1.
    pub attempt: u32,
    /// Run as `bash -c <command>` in every replica (a RayJob's entrypoint runs once, as
    /// the submitter).
    pub command: String,
    /// Whether it is a RayJob (the local backend then runs the entrypoint once, with the
    /// Ray address variables set, instead of one process per replica).
    pub ray: bool,
    /// The replicas, in index order.
    pub replicas: Vec<Replica>,
    /// Directories mounted into every replica.
    pub mounts: Vec<Mount>,
    /// Pod SSH: write `/root/hostfile` and `/root/hostfile.hostname` in every replica.
    pub ssh: bool,
    /// A RayJob's runtime env `env_vars`, in order, which Ray sets for the entrypoint,
    /// each expanding `$NAME` and `${NAME}` against the environment so far. The local
    /// backend does the same; KubeRay reads the runtime env from the manifest.
    pub runtime_env: Vec<(String, String)>,
    /// The spec (hidden values restored) and its owner, for backends that render their
    /// own objects from it (Kubernetes); the local backend runs the fields above.
    pub source: Option<Arc<GangSource>>,
}

/// What a gang was made from.
#[derive(Clone, Debug, PartialEq)]
pub struct GangSource {
    /// The task's spec with its hidden values restored (pods need the real values).
    pub spec: TaskSpec,
    /// Who submitted it.
    pub owner: User,
}

/// Chunks of a replica's log (stdout and stderr together), as they come.
pub type LogStream = futures_util::stream::BoxStream<'static, std::io::Result<Vec<u8>>>;

/// What happened to a replica, as the backend saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Every replica of the attempt was started.
    Started {
        /// The task.
        task: TaskId,
        /// The attempt.
        attempt: u32,
    },
    /// A replica's process ended.
    Exited {
        /// The task.
        task: TaskId,
        /// The attempt.
        attempt: u32,
        /// The replica index.
        replica: u32,
        /// Its exit code; `None` when a signal ended it.
        code: Option<i32>,
        /// The signal that ended it, if one did.
        signal: Option<i32>,
        /// When it ended, told later than it happened ([`Backend::replay`]); `None`: now.
        at: Option<std::time::SystemTime>,
    },
    /// The whole attempt ended, as a backend that sees jobs rather than processes
    /// reports it (Kubernetes: the job's status, or the image-pull breaker). No
    /// [`Event::Exited`] comes for such an attempt.
    Finished {
        /// The task.
        task: TaskId,
        /// The attempt.
        attempt: u32,
        /// `None` when it succeeded, else why it failed (`event.stopped` after a stop):
        /// the cluster's own words as text, Berth's as a catalog message.
        failure: Option<shared::messages::Arg>,
    },
    /// The attempt waits for admission again, its pods gone (Kubernetes: Kueue evicted
    /// the job and requeued it). The attempt goes on: [`Event::Started`] comes again
    /// once it is re-admitted. Neither an end nor a failure.
    Requeued {
        /// The task.
        task: TaskId,
        /// The attempt.
        attempt: u32,
        /// Why, for people, as a catalog message (the cluster's own words inside it).
        why: shared::messages::Message,
    },
    /// Something worth a line in the task's events (a Kubernetes Event of the job or its
    /// pods, an image-pull failure).
    Note {
        /// The task.
        task: TaskId,
        /// The attempt.
        attempt: u32,
        /// A short stable code: one of [`note_kind`]'s constants.
        kind: &'static str,
        /// What happened, for people, as a catalog message (the cluster's own words
        /// inside it as text).
        message: shared::messages::Message,
    },
}

/// Codes of [`Event::Note`].
pub mod note_kind {
    /// A Kubernetes Event of the job or one of its pods.
    pub const CLUSTER: &str = "cluster";
    /// An image pull failed (the image-pull breaker counts these).
    pub const PULL: &str = "pull";
    /// The job changed state without ending (Kueue suspended it, its pods restart).
    pub const JOB: &str = "job";
    /// What debug mode keeps after the end: the runner's own kind for it.
    pub const DEBUG: &str = crate::store::event_kind::DEBUG;
}

/// An attempt the store says runs, which a restarted server may take back
/// ([`Backend::take_back`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Resumable {
    /// The task.
    pub task: TaskId,
    /// Its current attempt: only a job of that attempt is taken back.
    pub attempt: u32,
    /// Its spec (where it runs, its kind, its image-pull retries).
    pub spec: TaskSpec,
    /// Whether its start was reported (the task is running, not scheduling), so a job
    /// found running is not reported started again.
    pub started: bool,
    /// When the store recorded the task's last event (by the recording server's clock):
    /// what the cluster says happened after it (Kubernetes Events that came while no
    /// server watched) was not told yet. `None`: nothing of the attempt was told.
    pub last_event: Option<shared::record::Timestamp>,
}

/// Where [`Backend::clean_shared_storage`] sends its notes, in order.
pub type Notes = tokio::sync::mpsc::UnboundedSender<shared::messages::Message>;

/// A cleanup of a task's shared storage found in the cluster ([`Backend::cleanups`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Cleanup {
    /// The task whose storage it removes.
    pub task: TaskId,
    /// Its name (a Kubernetes Job's).
    pub job: String,
    /// Where it runs (a namespace).
    pub namespace: String,
    /// What it removes, as its notes name it.
    pub place: shared::messages::Message,
    /// When the server that began it would give up on it (it is then deleted).
    pub give_up_at: std::time::SystemTime,
    /// How long that is after its start.
    pub allowed: std::time::Duration,
}

/// What [`Backend::take_back`] did.
#[derive(Debug, Default, PartialEq)]
pub struct TakenBack {
    /// Leftovers ended (processes or jobs).
    pub ended: usize,
    /// The tasks whose attempts are watched again.
    pub taken: Vec<TaskId>,
}

/// Runs gangs. Implementations are cheap to share (`Arc<dyn Backend>`).
#[async_trait::async_trait]
pub trait Backend: Send + Sync {
    /// Starts every replica of `gang`; on failure, none is left running.
    async fn start(&self, gang: Gang) -> Result<()>;

    /// Stops an attempt: SIGTERM to every replica's process group, SIGKILL after
    /// `grace`. Exits are still reported as [`Event::Exited`].
    async fn stop(&self, task: &TaskId, attempt: u32, grace: std::time::Duration) -> Result<()>;

    /// Events from now on, oldest first. Each call returns a new receiver.
    fn events(&self) -> tokio::sync::broadcast::Receiver<Event>;

    /// What became of an attempt this backend started, told again as events
    /// ([`Event::Started`], then an [`Event::Exited`] per replica that has ended), for a
    /// receiver of [`Backend::events`] that fell behind and lost some: an exit lost left
    /// its task running for ever. Events it had are told again too; the receiver drops
    /// those. Empty when the backend cannot tell (by default).
    async fn replay(&self, task: &TaskId, attempt: u32) -> Vec<Event> {
        let _ = (task, attempt);
        Vec::new()
    }

    /// Whether [`Backend::replay`] can tell anything: a receiver that fell behind asks
    /// only then, as it waits for each running attempt's start to finish first (on
    /// Kubernetes a start can take minutes, while its events go unread).
    fn replays(&self) -> bool {
        false
    }

    /// The tasks whose folders this backend keeps on this machine (logs, replicas' work
    /// folders); none by default.
    fn task_folders(&self) -> Vec<TaskId> {
        Vec::new()
    }

    /// Removes what this backend keeps on this machine of a task that was deleted: its
    /// logs (which may have printed a secret) and its replicas' folders, which would
    /// otherwise fill the disk for ever. Nothing by default.
    fn remove_task(&self, task: &TaskId) {
        let _ = task;
    }

    /// Ends whatever an earlier server left running (its replicas outlive it when it
    /// crashes), before tasks are recovered: the store says which tasks ran, and they
    /// are re-run or failed, so nothing of theirs may keep running beside a new attempt.
    /// Returns how many processes (or Kubernetes jobs) were ended.
    async fn end_leftovers(&self) -> usize {
        0
    }

    /// Waits a while until what runs the jobs answers: called before a restart takes
    /// jobs back ([`Backend::take_back`]), which counts a job it cannot ask about as gone
    /// and its task as interrupted. Nothing to wait for by default.
    async fn await_reachable(&self) {}

    /// [`Backend::end_leftovers`], but for the attempts of `running` (what the store
    /// says runs) that still run here, which are taken back: watched again from now as
    /// if this server had started them, their ends (also one that came while no server
    /// watched) reported as [`Event::Finished`]. Returns how many leftovers were ended
    /// and which tasks were taken back. A backend whose replicas die with their server
    /// (the local one: they are its children) takes back nothing.
    async fn take_back(&self, running: &[Resumable]) -> TakenBack {
        let _ = running;
        TakenBack {
            ended: self.end_leftovers().await,
            taken: Vec::new(),
        }
    }

    /// Lets go of an attempt this server ran when it loses the lead: the next leader
    /// takes it up. Replicas that are this server's processes are killed (they cannot
    /// outlive it usefully); a job in a cluster is only no longer watched, as the next
    /// leader may already have taken it back, and deleting it then would end it under
    /// that leader ("deleted outside Berth").
    async fn release(&self, task: &TaskId, attempt: u32) {
        let _ = self.stop(task, attempt, std::time::Duration::ZERO).await;
    }

    /// Whether what [`Backend::end_leftovers`] ends is this server's own (replicas it ran
    /// as processes here), not shared with the other servers of a replicated store (jobs
    /// in a cluster, which only the leader may end): such leftovers are ended when the
    /// server starts, leader or not.
    fn leftovers_are_local(&self) -> bool {
        false
    }

    /// Removes a RayJob's data from its shared storage once the task has ended (in
    /// `ended`), when its spec asks for it ("clean up on exit"), where the backend keeps
    /// that storage. The local backend's is a directory of this machine, which the runner
    /// removes itself. Sends through `notes` what the task's owner should hear, as it
    /// happens (notes for the task's events, of kind [`note_kind::CLUSTER`]): that the
    /// cluster's cleanup is under way, then, once it has succeeded, failed or been given
    /// up, what became of it ([`Backend::cleanup_note`] tells which note is which).
    async fn clean_shared_storage(
        &self,
        task: &TaskId,
        spec: &TaskSpec,
        ended: shared::record::TaskPhase,
        notes: Notes,
    ) {
        let _ = (task, spec, ended, notes);
    }

    /// The cleanups of shared storage ([`Backend::clean_shared_storage`]) still in the
    /// cluster, whichever server began them: a server that starts leading follows again
    /// those whose end its task's events do not tell yet ([`Backend::follow_cleanup`]).
    async fn cleanups(&self) -> Vec<Cleanup> {
        Vec::new()
    }

    /// Follows a cleanup found by [`Backend::cleanups`] to its end, as the server that
    /// began it would have (its deadline counted from its start, not from now): what
    /// became of it, for the task's events.
    async fn follow_cleanup(&self, cleanup: &Cleanup) -> Option<shared::messages::Message> {
        let _ = cleanup;
        None
    }

    /// Which cleanup a note of [`Backend::clean_shared_storage`] is about, and whether it
    /// tells its end (else that it is under way); `None` for another note.
    fn cleanup_note(&self, note: &shared::messages::Message) -> Option<(String, bool)> {
        let _ = note;
        None
    }

    /// Whether a RayJob runs on a Ray cluster (KubeRay): a submitter, a head and workers,
    /// each with its log ([`shared::api::log_replicas`]), the cluster outliving the job
    /// in debug mode (for `ttlSecondsAfterFinished`). The local backend runs the
    /// entrypoint alone, so it has no cluster to keep.
    fn runs_ray_clusters(&self) -> bool {
        false
    }

    /// The log file of one replica of one attempt (stdout and stderr together), which
    /// exists once the replica started and grows while it runs. Backends that keep no
    /// log files here serve [`Backend::log_stream`] instead.
    fn log_path(&self, task: &TaskId, attempt: u32, replica: u32) -> PathBuf;

    /// One replica's log as a stream, to its end (or, with `follow`, until the replica
    /// ends). `Ok(None)`: this backend writes log files; read [`Backend::log_path`].
    async fn log_stream(
        &self,
        _task: &TaskId,
        _attempt: u32,
        _replica: u32,
        _follow: bool,
    ) -> Result<Option<LogStream>> {
        Ok(None)
    }

    /// One replica's log followed from its last `lines` lines on (lines end at `\n`, as
    /// Kubernetes' `tailLines` counts them; 0: only what is written from now), until the
    /// replica ends: a followed log's end without its whole start. `Ok(None)`: this
    /// backend cannot start a followed log there (it writes log files, which are read
    /// from any byte).
    async fn log_stream_from_end(
        &self,
        _task: &TaskId,
        _attempt: u32,
        _replica: u32,
        _lines: u64,
    ) -> Result<Option<LogStream>> {
        Ok(None)
    }
}
