//! The runner: what happens to a task between submit and its end. It ties the
//! [`Scheduler`] (queue, live usage, admission), the [`TaskStore`] (durable record) and
//! the [`Backend`] (processes) together.
//!
//! - **Submit**: the spec is checked and its quota held under the scheduler's lock, and
//!   the task is stored before the lock is let go, so concurrent submits never
//!   over-admit and a submit answers only once the task is durable.
//! - **Admission** ([`Runner::pump`]): after every submit and every end, one pass starts
//!   every gang that fits now; each decision is an event in the findings' words.
//! - **Exits**: when a replica fails, the rest of its gang is stopped; when every
//!   replica has ended the task succeeds, fails or, with fault tolerance, runs again as
//!   a whole up to its maximum retries, and fails with the last reason after that.
//! - **Recovery** ([`Runner::recover`]): after a crash, queued tasks queue again in
//!   order with their holds, and tasks that were running are re-run or failed according
//!   to their fault-tolerance setting, with an event saying why, unless the backend
//!   takes their attempt back (a Kubernetes job that ran on): then it runs on, in its
//!   place, as if this server had started it. Nothing is duplicated:
//!   the store is the record and ids are never reused.
//! - **Several servers on one database** ([`Runner::begin`], with a replicated store
//!   such as Postgres): every server accepts submits, and the quota check and the
//!   insert run inside a store [`Reservation`](crate::store::Reservation), so the
//!   database, not one server's memory, decides what quota is free. One server leads
//!   ([`TaskStore::lead`]): only it places tasks on nodes, adopting tasks the others
//!   accepted; another takes over (recovering as after a crash) when it dies.

use crate::backend::{self, Backend, Gang, Replica};
use crate::scheduler::{Decision, Scheduler, Waiting};
use crate::store::{
    EventQuery, Inserted, NewTask, StoreError, StoredTask, TaskEvent, TaskStore, event_kind,
    restore_hidden,
};
use shared::api::MadeFrom;
use shared::injected::{self, Context, Pod};
use shared::messages::{Arg, Message};
use shared::quota::Placement;
use shared::record::{PhaseChange, Task, TaskId, TaskPhase, Timestamp};
use shared::task::{Alert, AlertChannel, AlertEvent};
use shared::usage::QuotaUse;
use shared::{Catalog, Report, TaskSpec, User};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::Mutex;

/// How long stopped replicas get between SIGTERM and SIGKILL.
pub const STOP_GRACE: Duration = Duration::from_secs(10);

/// With a replicated store: how often a server tries to lead, and how often the leader
/// adopts the tasks other servers accepted.
pub const LEAD_INTERVAL: Duration = Duration::from_millis(500);

/// Submits stored in one transaction at most (see [`Runner::submit_grouped`]): a
/// bound on how long the first of them waits for the group's commit.
const MAX_GROUP: usize = 64;

/// Sweeps between looks for folders of tasks deleted through other servers: ten
/// minutes, how long a deleted task's logs may stay on this machine.
const DELETED_EVERY: u64 = 600 / crate::alerts::SWEEP.as_secs();

/// How many of a waiting task's latest events that decide why it waits (its queued,
/// retrying, admitted and started ones) a server that does not lead reads at a time:
/// the latest decides, but for a queued one written without its reason.
const REASON_READ: u32 = 8;

/// The wait before each retry of a failed attempt (`[retries]` of the config), as
/// Kubernetes backs off a Job's failed pods: `base` before the first retry, twice the
/// last wait before each next one, never more than `cap`. A zero `base` retries at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    /// The first retry's wait.
    pub base: Duration,
    /// The longest wait.
    pub cap: Duration,
}

impl Backoff {
    /// No wait: a retry queues as soon as its attempt has failed.
    pub const NONE: Backoff = Backoff {
        base: Duration::ZERO,
        cap: Duration::ZERO,
    };

    /// The wait before retry `retry` (1 for the first).
    pub fn delay(self, retry: u32) -> Duration {
        if self.base.is_zero() {
            return Duration::ZERO;
        }
        let factor = 1u32
            .checked_shl(retry.saturating_sub(1))
            .unwrap_or(u32::MAX);
        self.base
            .checked_mul(factor)
            .unwrap_or(Duration::MAX)
            .min(self.cap.max(self.base))
    }
}

impl Default for Backoff {
    fn default() -> Self {
        crate::config::Retries::default().backoff()
    }
}

/// A submit could not be accepted.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// The spec has errors (over quota included).
    #[error("the spec has errors")]
    Invalid(Report),
    /// The idempotency key was used before for another spec.
    #[error("this Idempotency-Key was used for another spec (task {0})")]
    KeyReused(TaskId),
    /// The store failed.
    #[error("cannot store the task")]
    Store(#[from] StoreError),
}

/// A stop could not be done.
#[derive(Debug, thiserror::Error)]
pub enum StopError {
    /// The task has ended already.
    #[error("task {0} has already ended")]
    Finished(TaskId),
    /// The store failed.
    #[error("cannot update the task")]
    Store(#[from] StoreError),
}

/// What the runner knows of an attempt that is running.
#[derive(Debug, Default)]
struct Attempt {
    attempt: u32,
    /// Replicas whose exit is awaited.
    replicas: u32,
    exited: u32,
    /// The first failure's reason, if any replica failed.
    failure: Option<Message>,
    /// A user asked to stop it.
    stopping: bool,
    /// When Berth began to end it (a stop, a failed replica, the server stopping): a
    /// SIGKILL a grace after is Berth's own.
    ending_since: Option<std::time::Instant>,
    /// What the backend says debug mode keeps of the job, said only once the end is
    /// the task's (a retry deletes the job first).
    kept: Option<Message>,
    /// Its start was told: a replay ([`Backend::replay`]) tells it again.
    started: bool,
    /// The replicas whose end was counted: a replay tells them again.
    heard: HashSet<u32>,
}

/// Asks the event loop of [`Runner::watch`] to read again what the backend says of the
/// attempts that run ([`Runner::resync`]).
#[derive(Debug, Default)]
struct Resync {
    asked: tokio::sync::Notify,
    /// Attempts a stop found the backend no longer runs: their exits were sent, but may
    /// have been lost; ended stopped if a replay does not end them.
    not_running: std::sync::Mutex<Vec<(TaskId, u32)>>,
}

impl Resync {
    /// Notes what a stop of `attempt` answered: one that found nothing running asks the
    /// event loop to read the attempt's ends again, and to end it if that does not.
    fn stopped(&self, task: TaskId, attempt: u32, answer: backend::Result<()>) {
        if let Err(backend::BackendError::NotRunning { .. }) = answer {
            self.not_running
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push((task, attempt));
            self.asked.notify_one();
        }
    }
}

/// The ends a replay told of, kept until the events that were queued when it read
/// them have been received: those may tell the same ends again, after their attempt
/// ended and no longer holds what it heard.
#[derive(Debug, Default)]
struct Replayed {
    ends: HashSet<(TaskId, u32, u32)>,
    /// Events still to receive before `ends` can go.
    left: usize,
}

/// A replica's end as the runner hears it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Exit {
    replica: u32,
    code: Option<i32>,
    signal: Option<i32>,
    /// When it ended.
    at: Timestamp,
    /// Whether its `exited` event is in the store already: a server heard it before it
    /// stopped, and the next one replays it only to count it toward the attempt's end.
    heard: bool,
}

/// See the module docs.
pub struct Runner {
    catalog: Arc<Catalog>,
    store: Arc<dyn TaskStore>,
    backend: Arc<dyn Backend>,
    scheduler: Mutex<Scheduler>,
    attempts: Mutex<HashMap<TaskId, Attempt>>,
    /// Held (to write) by a restart's take-back while the backend takes jobs back:
    /// whatever the backend reports, and a stop's request to it, waits for its read, so
    /// an end it hears at once comes after the event saying the job was taken back, and a
    /// stop reaches a job the backend tracks. Not the attempts' lock, which every stop
    /// and the metrics take, and the backend's calls may take minutes against an API
    /// server that answers slowly.
    taking_back: Arc<tokio::sync::RwLock<()>>,
    /// A lock per task, held by a start from its first look at the task until the
    /// backend has started the gang, and by a stop from its look at the task to its
    /// decision (and, for a task not started, its end): so a stop either finds a gang the
    /// backend runs, or ends the task before its start looks. Without it a stop between
    /// an admission and the gang's start ended the task while its replicas went on
    /// running, unseen and on nodes shown free. Per task, as a start on Kubernetes may
    /// wait minutes for a retried job's deletion.
    launches: std::sync::Mutex<HashMap<TaskId, Arc<Mutex<()>>>>,
    /// The last reason each waiting task was given, so a pass that changes nothing adds
    /// no event.
    reasons: Mutex<HashMap<TaskId, Message>>,
    seq: AtomicU64,
    /// Persistent env var values by user (real values: pods need them).
    persistent: HashMap<String, Vec<(String, String)>>,
    /// Where volumes, datasets and models live on this machine.
    data_dir: PathBuf,
    /// Where the next master port is taken from.
    next_port: AtomicU64,
    /// Gangs admitted: the `berth_admissions` counter when the server registered one.
    admissions: prometheus_client::metrics::counter::Counter,
    /// Usage taken outside Berth: with a replicated store, a submit's quota check adds
    /// what every unfinished task in the database holds to this. Its nodes are read
    /// again while the server runs ([`Runner::set_outside_usage`]).
    base: std::sync::RwLock<shared::Usage>,
    /// Whether this server places tasks on nodes: always, unless the store is
    /// replicated and another server leads.
    leading: AtomicBool,
    /// The lead's term it leads under ([`TaskStore::lead`]), while `leading`.
    term: AtomicU64,
    /// Attempts it let go of with the lead: their ends are the next leader's to record,
    /// even once this server leads again.
    let_go: std::sync::Mutex<HashSet<(TaskId, u32)>>,
    /// Found between turns that it no longer leads under its term: it places nothing
    /// more, and its next turn lets go of what it ran before it may lead again.
    lapsed: AtomicBool,
    /// The server is stopping ([`Runner::shut_down`]): it takes no more turns at
    /// leading. Its turn that let go of the lead took it back 44 ms later and ran again
    /// what it had just ended, and those replicas outlived it (code review).
    stopping: AtomicBool,
    /// Held through each turn at leading, so the stop waits for a turn under way.
    turns: Mutex<()>,
    /// While [`Runner::recover`] ends and re-queues what was running, admission waits
    /// for it: a pass after each end gave the first task's nodes to whatever waited
    /// then, ahead of tasks queued earlier whose room the later ends made.
    recovering: AtomicBool,
    /// What the leader has adopted from the database (see [`Runner::sync`]).
    adopted: Mutex<Adopted>,
    /// Submits waiting for the scheduler's lock, stored together by whichever of them
    /// takes it first (see [`Runner::submit_grouped`]).
    pending: std::sync::Mutex<Vec<Pending>>,
    /// Calls the tasks' alert webhooks; `None` when the client could not be made.
    webhooks: Option<crate::alerts::Webhooks>,
    /// Mails the tasks' email alerts; `None` when no relay is configured.
    mail: Option<Arc<crate::alerts::Mailer>>,
    /// Turns to deliver an alert, shared by every task's (see
    /// [`crate::alerts::record_delivery`]).
    delivering: Arc<crate::alerts::Turns>,
    /// The threshold alerts waiting for a turn or being delivered, by task and
    /// subscription: a sweep while one waits longer than [`crate::alerts::SWEEP`] finds
    /// no record of it yet, and must not fire it again.
    overdue_out: Arc<std::sync::Mutex<HashSet<(TaskId, String)>>>,
    /// The wait before each retry.
    backoff: Backoff,
    /// Told when a retried task starts resting (see [`Scheduler::rest`]), so the one
    /// sleeper [`Runner::watch`] runs wakes for the earliest due time.
    rested: tokio::sync::Notify,
    /// Asks for a replay of the running attempts (see [`Runner::resync`]).
    resync: Arc<Resync>,
    /// What the last replay told (see [`Runner::resync`]).
    replayed: std::sync::Mutex<Replayed>,
}

/// The subscriptions of `alerts` that fire: each but those that repeat an earlier one
/// ([`Alert::identity`]), which would send the same alert again.
fn firing<'a>(alerts: impl Iterator<Item = &'a Alert>) -> impl Iterator<Item = &'a Alert> {
    let mut seen = HashSet::new();
    alerts.filter(move |a| seen.insert(a.identity()))
}

/// A threshold alert out from a sweep: its entry in [`Runner`]'s `overdue_out`, taken
/// out when this is dropped, once its `alert` event is recorded.
struct Out {
    set: Arc<std::sync::Mutex<HashSet<(TaskId, String)>>>,
    key: (TaskId, String),
}

impl Drop for Out {
    fn drop(&mut self) {
        self.set
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&self.key);
    }
}

/// What [`Runner::submit_locked`] stored.
enum Submitted {
    /// A new task, as stored when the store said the number it got.
    New(TaskId, Option<Box<StoredTask>>),
    /// The idempotency key named this earlier task.
    Earlier(TaskId),
}

/// A submit waiting for the next group (see [`Runner::submit_grouped`]).
struct Pending {
    user: User,
    spec: TaskSpec,
    made_from: Option<MadeFrom>,
    answer: tokio::sync::oneshot::Sender<Result<StoredTask, SubmitError>>,
}

/// A task of a group, queued and waiting for the group's insert.
struct Grouped {
    id: TaskId,
    user: User,
    spec: TaskSpec,
    decisions: Vec<Decision>,
    reason: Option<Message>,
    stored: StoredTask,
    answer: tokio::sync::oneshot::Sender<Result<StoredTask, SubmitError>>,
}

/// The leader's view of the tasks other servers accepted.
#[derive(Debug, Default)]
struct Adopted {
    /// The highest submit sequence number the last [`Runner::sync`] read.
    seen: i64,
    /// Tasks this server queued itself since then: never adopted again.
    mine: HashSet<TaskId>,
}

/// How many replicas' exits an attempt waits for: one per replica placed, the head
/// included; a RayJob's one, its entrypoint, which the local backend runs alone (the
/// start and a recovery count alike, or a recovered attempt would never end, or end early).
fn awaited_replicas(spec: &TaskSpec, placement: &Placement) -> u32 {
    if spec.is_ray() {
        return 1;
    }
    let workers: u64 = placement.workers.iter().map(|w| w.replicas).sum();
    u32::try_from(workers).unwrap_or(u32::MAX) + u32::from(placement.head.is_some())
}

/// How a replica ended, in words.
fn how_it_ended(code: Option<i32>, signal: Option<i32>) -> Message {
    match (code, signal) {
        (Some(code), _) => Message::new("event.how.code").with("code", code),
        // With the exit code a shell gives it, which the words say too: the reason is
        // also kept rendered, where no reader fills it in (review).
        (None, Some(signal)) => Message::new("event.how.signal")
            .with("signal", signal)
            .with("code", 128_i32.saturating_add(signal)),
        (None, None) => Message::new("event.how.unknown"),
    }
}

/// The `exited` event's message of a replica's end, which [`heard_exits`] reads back.
fn exited_message(attempt: u32, replica: u32, how: Message) -> Message {
    Message::new("event.exited")
        .with("attempt", attempt)
        .with("replica", replica)
        .with_message("how", how)
}

/// The exits of `attempt` its `exited` events record, by replica: what a server heard.
fn heard_exits(events: &[TaskEvent], attempt: u32) -> Vec<Exit> {
    let text = |message: &Message, name: &str| match message.args.get(name) {
        Some(Arg::Text(text)) => text.parse::<i64>().ok(),
        _ => None,
    };
    let mut heard: Vec<Exit> = Vec::new();
    for event in events.iter().filter(|e| e.kind == event_kind::EXITED) {
        let Some(said) = event.keyed.as_ref().filter(|m| m.key == "event.exited") else {
            continue;
        };
        if text(said, "attempt") != Some(i64::from(attempt)) {
            continue;
        }
        let Some(replica) = text(said, "replica").and_then(|r| u32::try_from(r).ok()) else {
            continue;
        };
        // A signal's end carries its shell's exit code too, for its words: the end is
        // the signal's, as [`how_it_ended`] was told it.
        let number = |key, name| {
            let how = match said.args.get("how") {
                Some(Arg::Message(how)) if how.key == key => how,
                _ => return None,
            };
            text(how, name).and_then(|n| i32::try_from(n).ok())
        };
        if heard.iter().all(|e| e.replica != replica) {
            heard.push(Exit {
                replica,
                code: number("event.how.code", "code"),
                signal: number("event.how.signal", "signal"),
                at: event.at,
                heard: true,
            });
        }
    }
    heard
}

/// Milliseconds since the Unix epoch of `time`.
fn timestamp(time: std::time::SystemTime) -> Timestamp {
    let ms = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    Timestamp(i64::try_from(ms).unwrap_or(i64::MAX))
}

/// The event of a task that keeps waiting, and why.
fn queued(reason: &Message) -> Message {
    Message::new("event.queued").with_message("reason", reason.clone())
}

/// When the retry a `retrying` event records may start: its failure's time plus the
/// wait it names (none for a retry that did not wait: one recorded before backoff was,
/// with backoff off, or a re-run after a restart).
fn retry_due(event: &TaskEvent) -> Timestamp {
    let secs = event
        .keyed
        .as_ref()
        .filter(|m| m.key == RETRYING_BACKOFF || m.key == RETRYING_BACKOFF_RERUNS)
        .and_then(|m| match m.args.get("secs") {
            Some(Arg::Text(secs)) => secs.parse::<i64>().ok(),
            _ => None,
        })
        .unwrap_or(0);
    Timestamp(event.at.0.saturating_add(secs.saturating_mul(1000)))
}

/// What a restart made of the tasks an earlier server left, for its log line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Recovered {
    queued: usize,
    taken_back: usize,
    rerun: usize,
    retrying: usize,
    ended_unheard: usize,
    failed: usize,
    stopped: usize,
}

/// The most re-runs of a task after a server stop ([`shared::Task::runs_again`]): a task
/// whose runs keep stopping the server (using up the machine's memory, say) would
/// otherwise run, and stop it, for ever. Then it fails, as without fault tolerance. Each
/// restart and each change of lead counts, planned or not: enough for a long task's
/// upgrades, few enough to end a loop within a day.
const MAX_RERUNS: u32 = 20;

/// The `retrying` event of a retry that waits before it queues.
const RETRYING_BACKOFF: &str = "event.retrying#backoff";

/// [`RETRYING_BACKOFF`] of a retry whose number is not its attempt's: re-runs after a
/// server stop came between, and are not counted.
const RETRYING_BACKOFF_RERUNS: &str = "event.retrying#backoff_reruns";

/// Why a retried task waits: when its next attempt may start, in UTC with the date
/// (`2026-12-02 14:05:09 UTC`), so an API reader in any zone, on any day, reads it
/// right. The console says it in its reader's own zone, from [`WhyItWaits::retry_at`].
fn backing_off(due: Timestamp) -> Message {
    let at = k8s_openapi::jiff::Timestamp::from_millisecond(due.0).map_or_else(
        |_| format!("{} ms after 1970-01-01 00:00:00 UTC", due.0),
        |at| at.strftime("%Y-%m-%d %H:%M:%S UTC").to_string(),
    );
    Message::new("event.retrying.waits").with("at", at)
}

/// Why a waiting task waits ([`Runner::reason`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhyItWaits {
    /// In the findings' words, rendered in each reader's language.
    pub reason: Message,
    /// When its next attempt may start, while it waits out a retry's backoff.
    pub retry_at: Option<Timestamp>,
}

impl WhyItWaits {
    fn backing_off(due: Timestamp) -> Self {
        WhyItWaits {
            reason: backing_off(due),
            retry_at: Some(due),
        }
    }

    fn queued(reason: Message) -> Self {
        WhyItWaits {
            reason,
            retry_at: None,
        }
    }
}

/// Nodes an `admitted` event names at most; the rest are counted.
const NAMED_NODES: usize = 8;

/// Where a placement's replicas run, for its `admitted` event: the task's page shows
/// its placement only while it holds it, and the event keeps it after the end. Each
/// node with its replicas (`gpu-a1 ×2, gpu-a2 ×2`), a distinct head apart; past
/// [`NAMED_NODES`] the rest are counted, so a large gang's event stays short.
fn where_it_runs(placement: &Placement) -> Message {
    // An idle fragment node is named as the reader finds it (`shared::quota::node_arg`),
    // not by the name Berth keeps its use under.
    let named: Vec<Arg> = placement
        .workers
        .iter()
        .take(NAMED_NODES)
        .map(|share| {
            Arg::Message(
                Message::new("event.admitted.on.share")
                    .with_arg("node", shared::quota::node_arg(&share.node))
                    .with("replicas", share.replicas),
            )
        })
        .collect();
    let more = placement.workers.len().saturating_sub(NAMED_NODES);
    let (head, workers) = (placement.head.as_ref(), node_list(named));
    let said = match (head, workers.is_none(), more > 0) {
        (Some(_), true, _) => Message::new("event.admitted.on#head_only"),
        (Some(_), false, false) => Message::new("event.admitted.on#head"),
        (Some(_), false, true) => Message::new("event.admitted.on#head_more"),
        (None, _, false) => Message::new("event.admitted.on"),
        (None, _, true) => Message::new("event.admitted.on#more"),
    };
    let said = match head {
        Some(head) => said.with_arg("head", shared::quota::node_arg(&head.node)),
        None => said,
    };
    let said = match workers {
        Some(workers) => said.with_arg("workers", workers),
        None => said,
    };
    if more > 0 {
        said.with("more", more)
    } else {
        said
    }
}

/// The nodes an `admitted` event names, each joined to the rest as the reader's language
/// joins a list (`n0 ×2, n1 ×1`; `n0 ×2、n1 ×1`): one `event.admitted.on.nodes` for
/// each but the last. `None` for none. Events stored before hold the list as text,
/// joined with `, `, and read so still.
fn node_list(named: Vec<Arg>) -> Option<Arg> {
    let mut named = named.into_iter().rev();
    let last = named.next()?;
    Some(named.fold(last, |rest, node| {
        Arg::Message(
            Message::new("event.admitted.on.nodes")
                .with_arg("node", node)
                .with_arg("rest", rest),
        )
    }))
}

/// Milliseconds since the Unix epoch.
pub fn now() -> Timestamp {
    timestamp(std::time::SystemTime::now())
}

impl Runner {
    /// A runner over `catalog` with `usage` already taken outside Berth.
    pub fn new(
        catalog: Arc<Catalog>,
        usage: shared::Usage,
        store: Arc<dyn TaskStore>,
        backend: Arc<dyn Backend>,
        data_dir: PathBuf,
    ) -> Self {
        let mut persistent: HashMap<String, Vec<(String, String)>> = HashMap::new();
        for var in &catalog.persistent_env {
            persistent
                .entry(var.user.clone())
                .or_default()
                .push((var.name.clone(), var.value.clone()));
        }
        Runner {
            base: std::sync::RwLock::new(usage.clone()),
            leading: AtomicBool::new(true),
            term: AtomicU64::new(0),
            let_go: std::sync::Mutex::default(),
            lapsed: AtomicBool::new(false),
            stopping: AtomicBool::new(false),
            turns: Mutex::new(()),
            recovering: AtomicBool::new(false),
            taking_back: Arc::default(),
            adopted: Mutex::new(Adopted::default()),
            pending: std::sync::Mutex::new(Vec::new()),
            webhooks: crate::alerts::Webhooks::new(None).ok(),
            mail: None,
            delivering: crate::alerts::delivering(),
            overdue_out: Arc::default(),
            backoff: Backoff::default(),
            rested: tokio::sync::Notify::new(),
            resync: Arc::default(),
            replayed: std::sync::Mutex::default(),
            scheduler: Mutex::new(Scheduler::new(Arc::clone(&catalog), usage)),
            catalog,
            store,
            backend,
            attempts: Mutex::new(HashMap::new()),
            launches: std::sync::Mutex::default(),
            reasons: Mutex::new(HashMap::new()),
            seq: AtomicU64::new(1),
            persistent,
            data_dir,
            // Each server on the machine starts at its own place in the range.
            next_port: AtomicU64::new(
                std::collections::hash_map::RandomState::new().hash_one(now()) % PORTS,
            ),
            admissions: prometheus_client::metrics::counter::Counter::default(),
        }
    }

    /// Counts admissions on `counter` (a shared handle, such as the server's metric).
    #[must_use]
    pub fn with_admissions(
        mut self,
        counter: prometheus_client::metrics::counter::Counter,
    ) -> Self {
        self.admissions = counter;
        self
    }

    /// Waits `backoff` before each retry of a failed attempt.
    #[must_use]
    pub fn with_backoff(mut self, backoff: Backoff) -> Self {
        self.backoff = backoff;
        self
    }

    /// Tasks with an attempt running now.
    pub async fn running_count(&self) -> usize {
        self.attempts.lock().await.len()
    }

    /// The store, for reads.
    pub fn store(&self) -> &Arc<dyn TaskStore> {
        &self.store
    }

    /// The backend, for logs.
    pub fn backend(&self) -> &Arc<dyn Backend> {
        &self.backend
    }

    /// Usage taken outside Berth, as last read.
    pub fn base(&self) -> shared::Usage {
        self.base
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// What pods outside Berth take on each node now (the Kubernetes backend reads it
    /// again every `usage_refresh_seconds`): it replaces what was known, Berth's own
    /// placements and holds stay on top of it, and when it gives room back an admission
    /// pass runs, so a task waiting for that room starts by itself.
    pub async fn set_outside_usage(
        &self,
        nodes: std::collections::BTreeMap<String, shared::Resources>,
    ) {
        self.base
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .nodes
            .clone_from(&nodes);
        let freed = self.scheduler.lock().await.set_outside(nodes);
        if freed {
            self.pump().await;
        }
    }

    /// Live usage now.
    ///
    /// # Errors
    ///
    /// A server that does not lead reads it from the store, and fails as the store does:
    /// it answered with its own queue's usage, which holds none of Berth's tasks, as if
    /// live (multi-server exploration).
    pub async fn usage(&self) -> Result<shared::Usage, StoreError> {
        if !self.leading() {
            // Only the leader holds live usage in memory; the others read what every
            // unfinished task holds from the shared store.
            return self.usage_in_store().await;
        }
        Ok(self.scheduler.lock().await.usage().clone())
    }

    /// Usage as the store records it: the catalog's, plus every unfinished task's
    /// placement or quota hold.
    async fn usage_in_store(&self) -> Result<shared::Usage, StoreError> {
        let mut scheduler = Scheduler::new(Arc::clone(&self.catalog), self.base());
        for stored in self.store.unfinished().await? {
            let user = Self::user_of(&stored);
            let placed = stored
                .placement
                .map(|p| scheduler.restore_running(stored.task.id.clone(), p));
            // Waiting, or placed where the catalog has no room now: its quota still counts.
            if !matches!(placed, Some(Ok(()))) {
                scheduler.restore_waiting(Waiting {
                    id: stored.task.id.clone(),
                    spec: stored.task.spec,
                    user,
                    seq: u64::try_from(stored.seq).unwrap_or(0),
                    hold: stored.quota,
                    passed_over: 0,
                });
            }
        }
        Ok(scheduler.usage().clone())
    }

    /// Live usage now, shared (see [`Scheduler::usage_snapshot`]); a server that does not
    /// lead reads it from the store, as [`Runner::usage`] does.
    ///
    /// # Errors
    ///
    /// As [`Runner::usage`].
    pub async fn usage_snapshot(&self) -> Result<Arc<shared::Usage>, StoreError> {
        if !self.leading() {
            return self.usage().await.map(Arc::new);
        }
        Ok(self.scheduler.lock().await.usage_snapshot())
    }

    /// Tasks waiting now.
    pub async fn queue_length(&self) -> usize {
        self.scheduler.lock().await.queue().len()
    }

    /// The tasks the queue keeps room for ([`Scheduler::held_rooms`]), known to the
    /// server that leads; empty elsewhere.
    pub async fn held_rooms(&self) -> Vec<shared::quota::HeldRoom> {
        if !self.leading() {
            return Vec::new();
        }
        self.scheduler.lock().await.held_rooms()
    }

    /// How many tasks wait ahead of queued task `id` in its pool's queue order
    /// ([`Scheduler::ahead`]). Known to the server that leads, which keeps the queue;
    /// `None` elsewhere.
    pub async fn queue_ahead(&self, id: &TaskId) -> Option<u32> {
        if !self.leading() {
            return None;
        }
        self.scheduler.lock().await.ahead(id)
    }

    /// Whether the queue keeps room for queued task `id` ([`Scheduler::room_kept`]).
    /// Known to the server that leads; `false` elsewhere.
    pub async fn room_kept(&self, id: &TaskId) -> bool {
        self.leading() && self.scheduler.lock().await.room_kept(id)
    }

    /// While a replica's failure ends the running attempt (the others being stopped, up
    /// to the grace), that failure: the task still reads running until they have ended.
    /// Known to the server that runs the attempt.
    pub async fn failing(&self, id: &TaskId) -> Option<Message> {
        self.attempts
            .lock()
            .await
            .get(id)
            .and_then(|a| a.failure.clone())
    }

    /// Why a waiting task waits, as the last admission pass said; the API renders it
    /// in the reader's language.
    pub async fn reason(&self, id: &TaskId) -> Option<WhyItWaits> {
        if self.leading() {
            if let Some(due) = self.scheduler.lock().await.due(id) {
                return Some(WhyItWaits::backing_off(Timestamp(due)));
            }
            return self
                .reasons
                .lock()
                .await
                .get(id)
                .cloned()
                .map(WhyItWaits::queued);
        }
        // A server that does not lead makes no passes: the reason is the last one the
        // leader recorded since the task last left the queue.
        // Read from the latest, a few at a time and only of the kinds that decide it (a
        // poll of a waiting task's page asks for it): not all of a long run's events.
        let kinds = [
            event_kind::QUEUED,
            event_kind::RETRYING,
            event_kind::ADMITTED,
            event_kind::STARTED,
        ];
        let mut before = None;
        loop {
            let query = EventQuery {
                kinds: &kinds,
                before,
                limit: Some(REASON_READ),
            };
            let page = self.store.events_page(id, query).await.ok()?;
            for event in page.events.iter().rev() {
                match event.kind.as_str() {
                    event_kind::QUEUED => {
                        let reason = event
                            .keyed
                            .as_ref()
                            .filter(|m| m.key == "event.queued")
                            .and_then(|m| m.args.get("reason"));
                        if let Some(Arg::Message(reason)) = reason {
                            return Some(WhyItWaits::queued(reason.clone()));
                        }
                    }
                    event_kind::RETRYING => {
                        let due = retry_due(event);
                        return (due > now()).then(|| WhyItWaits::backing_off(due));
                    }
                    _ => return None,
                }
            }
            if page.first <= 1 {
                return None;
            }
            before = Some(page.first);
        }
    }

    /// The id a submit gets: `<prefix>-<5 characters>`. With an idempotency key the
    /// suffix comes from the owner and the key, so a retried submit names the same task.
    fn task_id(spec: &TaskSpec, owner: &str, key: Option<&str>, attempt: u64) -> TaskId {
        let seed = match key {
            // A fixed hasher: the same owner and key give the same id after a restart.
            Some(key) => {
                let mut h = std::hash::DefaultHasher::new();
                h.write(owner.as_bytes());
                h.write_u8(0);
                h.write(key.as_bytes());
                h.write_u64(attempt);
                h.finish()
            }
            None => std::collections::hash_map::RandomState::new().hash_one((now(), attempt)),
        };
        TaskId(shared::names::final_name(
            &spec.basic.name_prefix,
            &shared::names::suffix_from(seed),
        ))
    }

    /// Checks, holds quota for, stores and queues a task; then runs an admission pass.
    /// Returns the stored task and whether it is new (false: the idempotency key named
    /// an earlier submit, which is returned as it is).
    ///
    /// # Errors
    ///
    /// [`SubmitError::Invalid`] with every finding when the spec has errors.
    pub async fn submit(
        self: &Arc<Self>,
        user: &User,
        spec: TaskSpec,
        key: Option<&str>,
        made_from: Option<MadeFrom>,
    ) -> Result<(StoredTask, bool), SubmitError> {
        if let Some(earlier) = self.earlier(user, &spec, key).await {
            return earlier;
        }
        if key.is_none() && !self.store.replicated() {
            return self
                .submit_grouped(user, spec, made_from)
                .await
                .map(|stored| (stored, true));
        }
        // Used by a submit still under way, the key is found at the insert: the store
        // answers with that task, checked the same.
        let sent = key.is_some().then(|| spec.clone().normalized());
        let (submitted, decisions) = {
            let mut scheduler = self.scheduler.lock().await;
            // Looked up again under the lock: a retry sent before the first try was
            // answered missed it above, and would be checked against the quota its
            // first try holds, and queued under that try's id.
            if let Some(earlier) = self.earlier(user, &spec, key).await {
                return earlier;
            }
            // Boxed, here and below: a future holds the state of every future it awaits
            // inline, and a large one is copied whenever it moves (into a spawned task,
            // into the handler's box): boxing them cut a sixth of a submit's instructions.
            match Box::pin(self.submit_locked(&mut scheduler, user, spec, key, made_from)).await {
                Ok(submitted) => submitted,
                Err((err, others)) => {
                    drop(scheduler);
                    self.apply(others).await;
                    return Err(err);
                }
            }
        };
        // The answer is the task as it was queued, before the admission is applied. A
        // store that could not say the number it gave is read back, outside the lock
        // (other submits go on meanwhile).
        let (stored, new) = match submitted {
            Submitted::New(_, Some(stored)) => (Ok(*stored), true),
            Submitted::New(id, None) => (self.store.get(&id).await, true),
            Submitted::Earlier(id) => (self.store.get(&id).await, false),
        };
        self.apply(decisions).await;
        let stored = stored?;
        if !new
            && let Some(sent) = sent
            && !self.same_spec(&stored, &sent).await?
        {
            return Err(SubmitError::KeyReused(stored.task.id));
        }
        Ok((stored, new))
    }

    /// The task an earlier submit with idempotency key `key` made, when the store has
    /// it by the id the key gives: the answer to a retry (the same spec), else a
    /// [`SubmitError::KeyReused`].
    async fn earlier(
        &self,
        user: &User,
        spec: &TaskSpec,
        key: Option<&str>,
    ) -> Option<Result<(StoredTask, bool), SubmitError>> {
        // By the key, not the id it gives: a spec of another name prefix is another id.
        let id = self.store.by_key(&user.name, key?).await.ok()??;
        let earlier = self
            .store
            .get(&id)
            .await
            .ok()
            .filter(|earlier| earlier.task.owner == user.name)?;
        // A retry sends the same spec; another spec under the same key is a mistake
        // the caller should hear about, not a silent answer about another task.
        let same = self.same_spec(&earlier, &spec.clone().normalized()).await;
        Some(match same {
            Ok(false) => Err(SubmitError::KeyReused(earlier.task.id)),
            Ok(true) => Ok((earlier, false)),
            Err(err) => Err(err.into()),
        })
    }

    /// Whether `stored` was submitted with `sent` (normalized), hidden values included:
    /// the stored spec has them masked, so a spec that differs only in a hidden value
    /// would pass for the same. They are compared with the store's real ones, read
    /// only when the rest is equal.
    async fn same_spec(&self, stored: &StoredTask, sent: &TaskSpec) -> Result<bool, StoreError> {
        if stored.task.spec != sent.masked() {
            return Ok(false);
        }
        if !sent.environment.env.iter().any(|var| var.hidden) {
            return Ok(true);
        }
        let hidden = self.store.hidden_values(&stored.task.id).await?;
        Ok(&restore_hidden(&stored.task.spec, &hidden) == sent)
    }

    /// Checks, holds quota for, queues, admits and stores one task, under the
    /// scheduler's lock. With the outcome come the decisions to apply once the lock is
    /// let go; with an error, the decisions about other tasks, which stand.
    async fn submit_locked(
        &self,
        scheduler: &mut Scheduler,
        user: &User,
        spec: TaskSpec,
        key: Option<&str>,
        made_from: Option<MadeFrom>,
    ) -> Result<(Submitted, Vec<Decision>), (SubmitError, Vec<Decision>)> {
        // Other servers may hold quota in a replicated store: the check reads it from
        // the database, inside a reservation that lasts until the insert commits.
        let mut reservation = self
            .store
            .reserve()
            .await
            .map_err(|e| (e.into(), Vec::new()))?;
        // A retry sent to another server than its first try waited here for that try's
        // commit: it is answered with that task, not checked against the quota it holds.
        if reservation.is_some()
            && let Some(key) = key
            && let Ok(Some(earlier)) = self.store.by_key(&user.name, key).await
        {
            return Ok((Submitted::Earlier(earlier), Vec::new()));
        }
        let shared_usage = match reservation.as_mut() {
            Some(reservation) => {
                let mut usage = shared::Usage {
                    nodes: scheduler.usage().nodes.clone(),
                    quota: self
                        .base
                        .read()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .quota
                        .clone(),
                };
                usage.hold(
                    &reservation
                        .held(&user.name)
                        .await
                        .map_err(|e| (e.into(), Vec::new()))?,
                );
                Some(usage)
            }
            None => None,
        };
        // Checked once, against live usage under the lock: the hold is its plan's.
        let usage = shared_usage.as_ref().unwrap_or(scheduler.usage());
        let (validated, check) = shared::validated(spec, &self.catalog, usage, user)
            .map_err(|report| (SubmitError::Invalid(report), Vec::new()))?;
        let hold = check
            .plan
            .map(|plan| plan.hold(&user.name))
            .unwrap_or_default();
        let mut tries = 0;
        // Decisions about other tasks, made by passes whose submit then failed:
        // they stand, and are applied whatever happens to this one.
        let mut others: Vec<Decision> = Vec::new();
        let leading = self.leading.load(Ordering::SeqCst);
        let stored = loop {
            let id = Self::task_id(&validated, &user.name, key, tries);
            // A live task of this name (a suffix drawn twice): queued under its id, this
            // submit would take that task's place in the queue, and giving it back when
            // the store refuses the id would free the other's nodes.
            if scheduler.knows(&id) && tries < 8 {
                tries += 1;
                continue;
            }
            let (decisions, reason, events) =
                self.queue_and_try(scheduler, &id, &validated, user, &hold, leading);
            let at = events[0].at;
            let task = Task::queued(id.clone(), user.name.clone(), validated.clone(), at);
            // The answer is the task as stored, as a read would give it: hidden
            // values masked, its tags the spec's, no placement yet.
            let mut answer = task.clone();
            answer.spec = answer.spec.masked();
            let new = NewTask {
                task,
                quota: hold.clone(),
                idempotency_key: key.map(str::to_owned),
                owner_org: user.org.clone(),
                owner_tenant_id: user.tenant_id.clone(),
                made_from: made_from.clone(),
            };
            let (inserted, seq) = match reservation.as_mut() {
                Some(reservation) => (reservation.insert(new, &events).await, None),
                None => match self.store.insert_numbered(new, &events).await {
                    Ok((inserted, seq)) => (Ok(inserted), seq),
                    Err(err) => (Err(err), None),
                },
            };
            if let Ok(Inserted::New) = inserted {
                // In a replicated store other servers see the task, with its first
                // events, once the reservation commits.
                if let Some(reservation) = reservation.take()
                    && let Err(err) = reservation.commit().await
                {
                    Self::unqueue(scheduler, &id, decisions, &mut others);
                    return Err((err.into(), others));
                }
                if let Some(reason) = reason {
                    // Recorded above: the pass's answer adds no second event.
                    self.reasons.lock().await.insert(id.clone(), reason);
                }
                if !leading {
                    scheduler.cancel(&id);
                }
                others.extend(decisions);
                let stored = seq.map(|seq| {
                    Box::new(StoredTask {
                        tags: answer.spec.basic.tags.clone(),
                        task: answer,
                        seq,
                        quota: hold,
                        placement: None,
                        owner_org: user.org.clone(),
                        owner_tenant_id: user.tenant_id.clone(),
                        made_from,
                        stop_asked_at: None,
                    })
                });
                break Submitted::New(id, stored);
            }
            Self::unqueue(scheduler, &id, decisions, &mut others);
            match inserted {
                Ok(Inserted::New) => unreachable!("handled above"),
                Ok(Inserted::Existing(earlier)) => {
                    return Ok((Submitted::Earlier(earlier), others));
                }
                // Another task has this name: draw another suffix.
                Err(StoreError::IdTaken { .. }) if tries < 8 => tries += 1,
                Err(err) => return Err((err.into(), others)),
            }
        };
        if self.store.replicated()
            && let Submitted::New(id, _) = &stored
        {
            self.adopted.lock().await.mine.insert(id.clone());
        }
        Ok((stored, others))
    }

    /// A submit without idempotency key to a store of this server's own, stored with
    /// the submits that arrive meanwhile: group commit. Each submit joins the pending
    /// ones and waits for the scheduler's lock; whoever takes it checks, queues and
    /// admits every pending submit in arrival order, as one submit at a time would,
    /// and stores them in one transaction while holding it. So quota is never held
    /// twice and every answer comes after its task's commit, while the writes that
    /// waited for one commit share the next.
    ///
    /// The group is taken, stored and applied by a task of its own: a submit whose
    /// caller goes away (its client hung up) must not leave the others of its group
    /// without their answer, nor a task queued that was never stored.
    async fn submit_grouped(
        self: &Arc<Self>,
        user: &User,
        spec: TaskSpec,
        made_from: Option<MadeFrom>,
    ) -> Result<StoredTask, SubmitError> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(Pending {
                user: user.clone(),
                spec,
                made_from,
                answer,
            });
        let runner = Arc::clone(self);
        let group = tokio::spawn(async move {
            let mut scheduler = runner.scheduler.lock().await;
            let group: Vec<Pending> = {
                let mut pending = runner
                    .pending
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                let n = pending.len().min(MAX_GROUP);
                pending.drain(..n).collect()
            };
            // Empty when earlier holders of the lock took this submit with their group;
            // what is left past a full group goes with the next holder's (every submit
            // that joins takes the lock once, after joining).
            if !group.is_empty() {
                let decisions = Box::pin(runner.submit_group(&mut scheduler, group)).await;
                drop(scheduler);
                runner.apply(decisions).await;
            }
        });
        // As a submit alone, it returns once the decisions of the group it took (if
        // any) are applied.
        let _ = group.await;
        answered.await.map_err(|_| {
            SubmitError::Store(StoreError::Database(sqlx::Error::Protocol(
                "the submit's group ended without an answer".into(),
            )))
        })?
    }

    /// Queues a checked task under the scheduler's lock and, on the leading server,
    /// tries it at once: admitted before it is stored (so tasks are tried in the order
    /// they queue), so that why it waits is written with it, in one write. The caller
    /// undoes both if the task cannot be stored; a server that does not lead leaves the
    /// task to the leader. Returns the decisions, why the task waits, if it does, and
    /// the events to store with it.
    fn queue_and_try(
        &self,
        scheduler: &mut Scheduler,
        id: &TaskId,
        spec: &TaskSpec,
        user: &User,
        hold: &[QuotaUse],
        leading: bool,
    ) -> (Vec<Decision>, Option<Message>, Vec<TaskEvent>) {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        scheduler.queue_checked(id.clone(), spec.clone(), user.clone(), seq, hold.to_vec());
        // While a recovery rebuilds the queue and the nodes' use, a submit only queues:
        // the pass at the recovery's end tries it with everything else.
        let decisions = if leading && !self.recovering.load(Ordering::SeqCst) {
            scheduler.admit_one(id)
        } else {
            Vec::new()
        };
        let reason = decisions.iter().find_map(|d| match d {
            Decision::Wait { id: w, reason } if w == id => Some(reason.clone()),
            _ => None,
        });
        let at = now();
        // Spot and idle tasks hold no quota (SPEC.md section 4): saying they do would
        // send their owners looking for it. Nor does a reserved task that accepts idle
        // capacity and starts on it now (team-lead explorer: "quota held" above it).
        let on_idle = decisions.iter().any(|d| {
            matches!(d, Decision::Admit { id: a, placement } if a == id && !placement.kind.uses_quota())
        });
        let accepted = if !spec.compute.kind.is_some_and(|k| k.uses_quota()) {
            "event.accepted#no_quota"
        } else if on_idle {
            "event.accepted#idle"
        } else {
            "event.accepted"
        };
        let mut events = vec![TaskEvent::keyed(
            at,
            event_kind::QUEUED,
            Message::new(accepted),
        )];
        if let Some(reason) = &reason {
            events.push(TaskEvent::keyed(at, event_kind::QUEUED, queued(reason)));
        }
        (decisions, reason, events)
    }

    /// Checks, queues and admits each submit of `group` in order, stores the new tasks
    /// in one transaction and answers each; returns the decisions to apply once the
    /// lock is let go. A task the group could not store is taken back and submitted
    /// alone, as [`Runner::submit_locked`] does.
    async fn submit_group(&self, scheduler: &mut Scheduler, group: Vec<Pending>) -> Vec<Decision> {
        let leading = self.leading.load(Ordering::SeqCst);
        let mut tasks: Vec<Grouped> = Vec::with_capacity(group.len());
        let mut rows = Vec::with_capacity(group.len());
        for pending in group {
            // Checked against live usage with the earlier tasks of the group held.
            let (validated, check) = match shared::validated(
                pending.spec,
                &self.catalog,
                scheduler.usage(),
                &pending.user,
            ) {
                Ok(checked) => checked,
                Err(report) => {
                    let _ = pending.answer.send(Err(SubmitError::Invalid(report)));
                    continue;
                }
            };
            let hold = check
                .plan
                .map(|plan| plan.hold(&pending.user.name))
                .unwrap_or_default();
            // Never the id of a live task (as in `submit_locked`): a group the store
            // refuses is taken back from the scheduler by id.
            let id = (0..8)
                .map(|tries| Self::task_id(&validated, &pending.user.name, None, tries))
                .find(|id| !scheduler.knows(id))
                .unwrap_or_else(|| Self::task_id(&validated, &pending.user.name, None, 8));
            let (decisions, reason, events) =
                self.queue_and_try(scheduler, &id, &validated, &pending.user, &hold, leading);
            let at = events[0].at;
            let task = Task::queued(id.clone(), pending.user.name.clone(), validated, at);
            let mut masked = task.clone();
            masked.spec = masked.spec.masked();
            let spec = task.spec.clone();
            let (owner_org, owner_tenant_id) =
                (pending.user.org.clone(), pending.user.tenant_id.clone());
            rows.push((
                NewTask {
                    task,
                    quota: hold.clone(),
                    idempotency_key: None,
                    owner_org: owner_org.clone(),
                    owner_tenant_id: owner_tenant_id.clone(),
                    made_from: pending.made_from.clone(),
                },
                events,
            ));
            tasks.push(Grouped {
                id,
                user: pending.user,
                spec,
                decisions,
                reason,
                stored: StoredTask {
                    tags: masked.spec.basic.tags.clone(),
                    task: masked,
                    seq: 0,
                    quota: hold,
                    placement: None,
                    owner_org,
                    owner_tenant_id,
                    made_from: pending.made_from,
                    stop_asked_at: None,
                },
                answer: pending.answer,
            });
        }
        if tasks.is_empty() {
            return Vec::new();
        }
        let inserted = self.store.insert_group(rows).await;
        let stored_all = inserted.iter().all(|r| matches!(r, Ok((Inserted::New, _))));
        let mut decisions = Vec::new();
        let mut again = Vec::new();
        if !stored_all {
            // Take back every task the group could not store, and every decision about
            // them (a later task's pass may have admitted an earlier one).
            let failed: HashSet<TaskId> = tasks
                .iter()
                .zip(&inserted)
                .filter(|(_, r)| !matches!(r, Ok((Inserted::New, _))))
                .map(|(t, _)| t.id.clone())
                .collect();
            for id in &failed {
                scheduler.cancel(id);
                scheduler.finish(id);
            }
            for task in &mut tasks {
                task.decisions.retain(|d| match d {
                    Decision::Admit { id, .. }
                    | Decision::Wait { id, .. }
                    | Decision::Reason { id, .. } => !failed.contains(id),
                });
            }
        }
        for (mut task, inserted) in tasks.into_iter().zip(inserted) {
            match inserted {
                Ok((Inserted::New, seq)) => {
                    if let Some(reason) = task.reason.take() {
                        // Recorded with the task: the pass's answer adds no second event.
                        self.reasons.lock().await.insert(task.id.clone(), reason);
                    }
                    decisions.append(&mut task.decisions);
                    let stored = match seq {
                        Some(seq) => Ok(StoredTask { seq, ..task.stored }),
                        None => self.store.get(&task.id).await.map_err(SubmitError::from),
                    };
                    let _ = task.answer.send(stored);
                }
                _ => again.push(task),
            }
        }
        for mut task in again {
            decisions.append(&mut task.decisions);
            let answer = match Box::pin(self.submit_locked(
                scheduler,
                &task.user,
                task.spec,
                None,
                task.stored.made_from,
            ))
            .await
            {
                Ok((Submitted::New(id, stored), mut more)) => {
                    decisions.append(&mut more);
                    match stored {
                        Some(stored) => Ok(*stored),
                        None => self.store.get(&id).await.map_err(SubmitError::from),
                    }
                }
                Ok((Submitted::Earlier(id), mut more)) => {
                    decisions.append(&mut more);
                    self.store.get(&id).await.map_err(SubmitError::from)
                }
                Err((err, mut more)) => {
                    decisions.append(&mut more);
                    Err(err)
                }
            };
            let _ = task.answer.send(answer);
        }
        decisions
    }

    /// Takes back a task queued (and maybe admitted) by a submit that could not store
    /// it; the decisions about other tasks are kept in `others`.
    fn unqueue(
        scheduler: &mut Scheduler,
        id: &TaskId,
        decisions: Vec<Decision>,
        others: &mut Vec<Decision>,
    ) {
        for decision in decisions {
            match decision {
                Decision::Admit { id: a, .. } if a == *id => {
                    scheduler.finish(id);
                }
                Decision::Wait { id: w, .. } if w == *id => {
                    scheduler.cancel(id);
                }
                other => others.push(other),
            }
        }
    }

    /// One admission pass: starts every gang that fits now.
    pub async fn pump(&self) {
        if !self.leading.load(Ordering::SeqCst) || self.recovering.load(Ordering::SeqCst) {
            return;
        }
        let decisions = self.scheduler.lock().await.admit();
        self.apply(decisions).await;
    }

    /// Starts the admitted gangs and records why the others wait.
    async fn apply(&self, decisions: Vec<Decision>) {
        // A place given back (a task that ended before its start, or failed to start) is
        // offered again once, after this pass's decisions are applied: a pass run in the
        // middle of them would be followed by this one's older waits.
        let mut freed = false;
        for decision in decisions {
            match decision {
                Decision::Admit { id, placement } => {
                    self.admissions.inc();
                    self.reasons.lock().await.remove(&id);
                    match self.start(&id, &placement).await {
                        Ok(true) => {}
                        // Ended before its start: its place is free for the next.
                        Ok(false) => freed = true,
                        Err(err) => {
                            tracing::error!(task = %id, error = %err, "cannot start an admitted task");
                            let why = Message::new("event.cannot_start").with("error", err);
                            self.end_quietly(&id, TaskPhase::Failed, Some(why)).await;
                            freed = true;
                        }
                    }
                }
                Decision::Wait { id, reason } => {
                    let mut reasons = self.reasons.lock().await;
                    if reasons.get(&id) != Some(&reason) {
                        reasons.insert(id.clone(), reason.clone());
                        drop(reasons);
                        // The reason in memory may be one only shown (passed over, below),
                        // or none yet (a server that starts or takes the lead): the line
                        // is written when its events do not say it last already.
                        let said = queued(&reason);
                        if !self.said_last_of_its_stay(&id, &said).await {
                            self.event(&id, event_kind::QUEUED, said).await;
                        }
                    }
                }
                Decision::Reason { id, reason } => {
                    self.reasons.lock().await.insert(id, reason);
                }
            }
        }
        if freed {
            Box::pin(self.pump()).await;
        }
    }

    /// Whether `said` is what task `id`'s events last said of why it waits, in the stay
    /// it is in (no admission or retry since): a server that starts, or takes the lead,
    /// knows no reason yet, and would write the same line again at each change of lead.
    async fn said_last_of_its_stay(&self, id: &TaskId, said: &Message) -> bool {
        let query = EventQuery {
            kinds: &[
                event_kind::QUEUED,
                event_kind::ADMITTED,
                event_kind::RETRYING,
            ],
            before: None,
            limit: Some(1),
        };
        self.store.events_page(id, query).await.is_ok_and(|page| {
            page.events.last().is_some_and(|last| {
                last.kind == event_kind::QUEUED && last.keyed.as_ref() == Some(said)
            })
        })
    }

    /// The lock of task `id` (see [`Runner::launches`]).
    fn launch_lock(&self, id: &TaskId) -> Arc<Mutex<()>> {
        let mut launches = self
            .launches
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Arc::clone(launches.entry(id.clone()).or_default())
    }

    /// Records the admission and starts the gang; `false` when the task had ended
    /// meanwhile and nothing was started.
    async fn start(&self, id: &TaskId, placement: &Placement) -> Result<bool, String> {
        let term = self.term.load(Ordering::SeqCst);
        let launch = self.launch_lock(id);
        let _launch = launch.lock().await;
        let stored = self.store.get(id).await.map_err(|e| e.to_string())?;
        // Stopped since the scheduler chose it, here or through another server: the
        // place the scheduler gave it goes back.
        if stored.task.phase.is_finished() {
            self.end_quietly(id, stored.task.phase, None).await;
            return Ok(false);
        }
        // The lead lost since this pass: nothing is written, and the next leader starts it.
        if !self.still_leads(term).await {
            return Ok(false);
        }
        let attempt = stored.task.attempts + 1;
        self.store
            .set_hold(id, &placement.hold(), Some(placement))
            .await
            .map_err(|e| e.to_string())?;
        let scheduling = PhaseChange {
            phase: TaskPhase::Scheduling,
            at: now(),
            reason: String::new(),
            keyed: None,
        };
        match self.store.advance(id, scheduling, attempt).await {
            Ok(()) => {}
            // Stopped through another server since the look above (its lock is not this
            // one): as stopped before it, not a failure to start.
            Err(err @ StoreError::Phase { .. }) => {
                let ended = self
                    .store
                    .get(id)
                    .await
                    .is_ok_and(|now| now.task.phase.is_finished());
                if !ended {
                    return Err(err.to_string());
                }
                self.end_quietly(id, TaskPhase::Stopped, None).await;
                return Ok(false);
            }
            Err(err) => return Err(err.to_string()),
        }
        // A reserved task that waited holding its quota, and starts on idle capacity,
        // holds none from now: said, unless its acceptance already said it starts there.
        let released = !stored.quota.is_empty()
            && placement.hold().is_empty()
            && !self
                .said_last_of_its_stay(id, &Message::new("event.accepted#idle"))
                .await;
        let nodes = placement.nodes();
        // A Ray head of its own spec is said too: the workers' spec alone hides it. With
        // no workers the head is the one pod, and the workers' spec none of them.
        let admitted = match placement.head.as_ref().filter(|h| h.spec != placement.spec) {
            Some(head) if placement.workers.is_empty() => {
                Message::new("event.admitted#head_only").with("head", &head.spec)
            }
            Some(head) => Message::new("event.admitted#head_placed").with("head", &head.spec),
            None => Message::new("event.admitted#placed"),
        };
        self.event(
            id,
            event_kind::ADMITTED,
            admitted
                .with("attempt", attempt)
                .with("nodes", nodes)
                .with("spec", &placement.spec)
                .with_message("on", where_it_runs(placement)),
        )
        .await;
        if released {
            let said = Message::new("event.admitted.quota_released#idle");
            self.event(id, event_kind::ADMITTED, said).await;
        }
        let hidden = self
            .store
            .hidden_values(id)
            .await
            .map_err(|e| e.to_string())?;
        let spec = restore_hidden(&stored.task.spec, &hidden);
        let gang = self.gang(
            &stored.task,
            Self::user_of(&stored),
            &spec,
            placement,
            attempt,
        );
        {
            let mut attempts = self.attempts.lock().await;
            // The lead lost since the look above: the next leader takes the task up.
            if !self.leading() {
                return Ok(false);
            }
            attempts.insert(
                id.clone(),
                Attempt {
                    attempt,
                    replicas: awaited_replicas(&spec, placement),
                    ..Attempt::default()
                },
            );
        }
        self.backend.start(gang).await.map_err(|e| e.to_string())?;
        // The lead lost while it started: the attempts the loss ended may not have held
        // this one yet.
        if !self.leading() {
            self.attempts.lock().await.remove(id);
            let (backend, task) = (Arc::clone(&self.backend), id.clone());
            tokio::spawn(async move {
                let _ = backend.stop(&task, attempt, Duration::ZERO).await;
            });
        }
        Ok(true)
    }

    /// The gang for a placement: replica 0 is the master (or the Ray head), then the
    /// workers, in the placement's node order.
    fn gang(
        &self,
        task: &Task,
        user: User,
        spec: &TaskSpec,
        placement: &Placement,
        attempt: u32,
    ) -> Gang {
        let mut nodes: Vec<(String, u64)> = Vec::new();
        if let Some(head) = &placement.head {
            nodes.push((head.node.clone(), head.need.gpu));
        }
        for share in &placement.workers {
            for _ in 0..share.replicas {
                nodes.push((share.node.clone(), placement.need.gpu));
            }
        }
        let world_size = nodes.len() as u64;
        let port = master_port(&self.next_port);
        let persistent = self
            .persistent
            .get(&task.owner)
            .cloned()
            .unwrap_or_default();
        let replicas = nodes
            .into_iter()
            .enumerate()
            .map(|(rank, (node, gpus))| Replica {
                index: rank as u32,
                node,
                gpus,
                env: injected::pod_env(
                    spec,
                    Context {
                        user: &user,
                        task: &task.id.0,
                    },
                    persistent.iter().map(|(n, v)| (n.as_str(), v.as_str())),
                    Pod {
                        rank: rank as u64,
                        world_size,
                        master_addr: "127.0.0.1",
                        master_port: port,
                    },
                ),
            })
            .collect();
        Gang {
            task: task.id.clone(),
            attempt,
            command: spec.environment.command.clone(),
            ray: spec.is_ray(),
            replicas,
            mounts: self.mounts(&task.id, spec),
            ssh: spec.advanced.ssh,
            // Ray sets them for the entrypoint too; the local backend runs it itself.
            runtime_env: if spec.is_ray() {
                shared::validate::runtime_env_vars(&spec.ray.runtime_env)
            } else {
                Vec::new()
            },
            source: Some(Arc::new(backend::GangSource {
                spec: backend::kube::as_placed(spec, placement),
                owner: user,
            })),
        }
    }

    /// The owner of a stored task as the identity named them at submit: org and tenant
    /// are not in the catalog, so they come from the record, whoever starts the attempt
    /// (this server, a retry, or another server after a restart).
    fn user_of(stored: &StoredTask) -> User {
        User {
            name: stored.task.owner.clone(),
            org: stored.owner_org.clone(),
            tenant_id: stored.owner_tenant_id.clone(),
        }
    }

    /// The spec's mounts as host directories: volumes, datasets and models live under
    /// `<data dir>/volumes|datasets|models/<id>` on this machine.
    fn mounts(&self, id: &TaskId, spec: &TaskSpec) -> Vec<backend::Mount> {
        let env = &spec.environment;
        let dir = |kind: &str, id: &str| self.data_dir.join(kind).join(id);
        let mut mounts: Vec<backend::Mount> = Vec::new();
        for m in &env.storage {
            mounts.push(backend::Mount {
                source: dir("volumes", &m.id),
                target: m.path.clone(),
                read_only: false,
            });
        }
        for (kind, list) in [("datasets", &env.datasets), ("models", &env.models)] {
            for m in list {
                mounts.push(backend::Mount {
                    source: dir(kind, &m.id),
                    target: m.path.clone(),
                    read_only: true,
                });
            }
        }
        if let Some(source) = self.ray_shared_dir(id, spec) {
            mounts.push(backend::Mount {
                source,
                target: shared::task::RAY_SHARED_STORAGE_PATH.to_owned(),
                read_only: false,
            });
        }
        for m in &mounts {
            // The catalog's items exist on this machine once something mounts them.
            let _ = std::fs::create_dir_all(&m.source);
        }
        mounts
    }

    /// A RayJob's shared storage: the task's own directory of its volume, as the
    /// Kubernetes manifests mount the task's `subPath` of it, so the volume can be shared
    /// by tasks and one task's data removed at its end.
    fn ray_shared_dir(&self, id: &TaskId, spec: &TaskSpec) -> Option<PathBuf> {
        let storage = &spec.ray.shared_storage;
        (spec.is_ray() && storage.enabled).then(|| {
            self.data_dir
                .join("volumes")
                .join(&storage.volume)
                .join(&id.0)
        })
    }

    /// Removes a RayJob's shared-storage directory when its spec asks for it, off the
    /// async workers (a Ray session's logs and spilled objects may be large).
    async fn clean_shared_storage(&self, id: &TaskId, spec: &TaskSpec) {
        if !spec.ray.shared_storage.clean_on_exit {
            return;
        }
        let Some(dir) = self.ray_shared_dir(id, spec) else {
            return;
        };
        let removed = tokio::task::spawn_blocking(move || std::fs::remove_dir_all(&dir)).await;
        if let Ok(Err(err)) = removed
            && err.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!(task = %id, error = %err, "cannot clean up a RayJob's shared storage");
        }
    }

    /// Adds an event to a task's list. A store failure is logged, not fatal: the task's
    /// own state is what decides what happens next.
    async fn event(&self, id: &TaskId, kind: &str, message: Message) {
        self.event_at(id, kind, message, now()).await;
    }

    /// [`Runner::event`] of something that happened at `at`: an end heard late.
    async fn event_at(&self, id: &TaskId, kind: &str, message: Message, at: Timestamp) {
        let event = TaskEvent::keyed(at, kind, message);
        if let Err(err) = self.store.push_event(id, &event).await {
            tracing::error!(task = %id, error = %err, "cannot record an event");
        }
    }

    /// Moves a task to `phase` in the store, recording why (nothing when the step
    /// explains itself); false when it was not written (the lifecycle refused it: an
    /// end that lost the race with another end of the task).
    async fn step(
        &self,
        id: &TaskId,
        phase: TaskPhase,
        reason: Option<Message>,
        attempts: u32,
    ) -> bool {
        self.step_at(id, phase, reason, attempts, now()).await
    }

    /// [`Runner::step`] taken at `at`: an attempt's end heard late.
    async fn step_at(
        &self,
        id: &TaskId,
        phase: TaskPhase,
        reason: Option<Message>,
        attempts: u32,
        at: Timestamp,
    ) -> bool {
        let change = PhaseChange {
            phase,
            at,
            reason: reason
                .as_ref()
                .map(|m| m.render(shared::Lang::En))
                .unwrap_or_default(),
            keyed: reason,
        };
        match self.store.advance(id, change, attempts).await {
            Ok(()) => true,
            Err(err @ StoreError::Phase { .. }) => {
                tracing::debug!(task = %id, error = %err, "a phase change came too late");
                false
            }
            Err(err) => {
                tracing::error!(task = %id, error = %err, "cannot record a phase change");
                false
            }
        }
    }

    /// Handles one backend event.
    pub async fn on_event(&self, event: backend::Event) {
        drop(self.taking_back.read().await);
        match event {
            backend::Event::Started { task, attempt } => {
                let term = self.term.load(Ordering::SeqCst);
                // Once: a replay tells it again.
                let first = self
                    .attempts
                    .lock()
                    .await
                    .get_mut(&task)
                    .filter(|a| a.attempt == attempt)
                    .is_some_and(|a| !std::mem::replace(&mut a.started, true));
                if !first || !self.still_leads(term).await {
                    return;
                }
                self.step(&task, TaskPhase::Running, None, attempt).await;
                self.event(
                    &task,
                    event_kind::STARTED,
                    Message::new("event.started").with("attempt", attempt),
                )
                .await;
                self.say_runtime_env_unapplied(&task).await;
            }
            backend::Event::Exited {
                task,
                attempt,
                replica,
                code,
                signal,
                at,
            } => {
                let at = at.map_or_else(now, timestamp);
                self.on_exit(task, attempt, replica, code, signal, at).await;
            }
            backend::Event::Finished {
                task,
                attempt,
                failure,
            } => self.on_finished(task, attempt, failure).await,
            backend::Event::Requeued { task, attempt, why } => {
                // A stop under way ends it stopped: waiting for admission again would
                // say what is not so, a moment before.
                let current = self
                    .attempts
                    .lock()
                    .await
                    .get_mut(&task)
                    .filter(|a| !a.stopping && a.attempt == attempt)
                    // Its start is told again once it is re-admitted.
                    .map(|a| a.started = false);
                if current.is_none() {
                    return;
                }
                // Its place stays held: the same attempt runs again once re-admitted.
                self.step(&task, TaskPhase::Scheduling, Some(why.clone()), attempt)
                    .await;
                let note = Message::new("event.note")
                    .with("attempt", attempt)
                    .with_message("note", why);
                self.event(&task, backend::note_kind::JOB, note).await;
            }
            backend::Event::Note {
                task,
                attempt,
                kind,
                message,
            } => {
                let mut attempts = self.attempts.lock().await;
                let Some(current) = attempts.get_mut(&task).filter(|a| a.attempt == attempt) else {
                    return;
                };
                if kind == backend::note_kind::DEBUG {
                    // Held until the end is known to be the task's.
                    current.kept = Some(message);
                    return;
                }
                drop(attempts);
                let note = Message::new("event.note")
                    .with("attempt", attempt)
                    .with_message("note", message);
                self.event(&task, kind, note).await;
            }
        }
    }

    /// A job-level backend (Kubernetes) reports the whole attempt's end at once.
    async fn on_finished(&self, task: TaskId, attempt: u32, failure: Option<Arg>) {
        let term = self.term.load(Ordering::SeqCst);
        if self.was_let_go(&task, attempt) || !self.still_leads(term).await {
            return;
        }
        let ended = {
            let mut attempts = self.attempts.lock().await;
            if attempts.get(&task).map(|a| a.attempt) != Some(attempt) {
                return;
            }
            attempts.remove(&task).unwrap_or_default()
        };
        self.attempt_ended(&task, attempt, ended.stopping, failure, ended.kept, now())
            .await;
    }

    /// Ends an attempt whose replicas have all ended, the last at `at`: stopped,
    /// succeeded, or failed.
    async fn attempt_ended(
        &self,
        task: &TaskId,
        attempt: u32,
        stopping: bool,
        failure: Option<Arg>,
        kept: Option<Message>,
        at: Timestamp,
    ) {
        match (stopping, failure) {
            (true, _) => {
                // After the stop's own line: a stop marks the attempt, then writes that
                // it is under way, holding the task's lock, and the last replica may end
                // (by itself, say) in between.
                let lock = self.launch_lock(task);
                let _stop_said = lock.lock().await;
                let why = Message::new("event.stopped");
                self.end_at(task, TaskPhase::Stopped, Some(why), at).await;
            }
            (false, None) => {
                if self.end_at(task, TaskPhase::Succeeded, None, at).await {
                    self.say_kept(task, attempt, kept).await;
                }
            }
            (false, Some(reason)) => self.failed(task, attempt, reason, kept, at, true).await,
        }
    }

    /// Where the backend runs no Ray cluster (the local one), what of a RayJob's runtime
    /// env it does not apply: only `env_vars` reach the job's processes; `working_dir`,
    /// `pip` and the rest would otherwise be dropped without a word.
    async fn say_runtime_env_unapplied(&self, id: &TaskId) {
        if self.backend.runs_ray_clusters() {
            return;
        }
        let Ok(stored) = self.store.get(id).await else {
            return;
        };
        let spec = &stored.task.spec;
        // Once, at the task's first run (an attempt may have failed before it ran).
        let runs = stored
            .task
            .history
            .iter()
            .filter(|c| c.phase == TaskPhase::Running)
            .count();
        if spec.basic.task_type != Some(shared::TaskType::RayJob) || runs != 1 {
            return;
        }
        let keys = shared::validate::runtime_env_other_keys(&spec.ray.runtime_env);
        if !keys.is_empty() {
            let said = Message::new("event.runtime_env.unapplied").with_list("keys", keys);
            self.event(id, backend::note_kind::JOB, said).await;
        }
    }

    /// What debug mode keeps of a RayJob that ran to its own end, the task's end: what
    /// the backend noted (KubeRay keeps the cluster for its TTL), or, where the backend
    /// runs no Ray cluster (the local one), that none is kept, where the user would look
    /// for it.
    async fn say_kept(&self, id: &TaskId, attempt: u32, kept: Option<Message>) {
        if let Some(kept) = kept {
            let note = Message::new("event.note")
                .with("attempt", attempt)
                .with_message("note", kept);
            self.event(id, event_kind::DEBUG, note).await;
            return;
        }
        if self.backend.runs_ray_clusters() {
            return;
        }
        let Ok(stored) = self.store.get(id).await else {
            return;
        };
        let spec = &stored.task.spec;
        if spec.basic.task_type == Some(shared::TaskType::RayJob) && spec.ray.debug.enabled {
            let said = Message::new("event.debug.no_cluster");
            self.event(id, event_kind::DEBUG, said).await;
        }
    }

    async fn on_exit(
        &self,
        task: TaskId,
        attempt: u32,
        replica: u32,
        code: Option<i32>,
        signal: Option<i32>,
        at: Timestamp,
    ) {
        let exit = Exit {
            replica,
            code,
            signal,
            at,
            heard: false,
        };
        self.exited(task, attempt, exit).await;
    }

    /// Counts a replica's end toward its attempt's, recording it as an `exited` event
    /// unless that is in already, and ends the attempt once every replica has ended, at
    /// the time the last one did.
    async fn exited(&self, task: TaskId, attempt: u32, exit: Exit) {
        let Exit {
            replica,
            code,
            signal,
            at,
            heard,
        } = exit;
        // The term first: one the lead moves to while this end is looked at is not the
        // term the attempt ran under.
        let term = self.term.load(Ordering::SeqCst);
        // An attempt this server gave up with the lead: its end is not its to record.
        if self.was_let_go(&task, attempt)
            || (!self.leading()
                && self
                    .attempts
                    .lock()
                    .await
                    .get(&task)
                    .is_none_or(|a| a.attempt != attempt))
        {
            return;
        }
        // Nor is it once the lead moved, though this server has not taken its turn since.
        if self.lapsed.load(Ordering::SeqCst) || (self.leading() && !self.still_leads(term).await) {
            return;
        }
        if self.counted_before(&task, attempt, replica).await {
            return;
        }
        let how = how_it_ended(code, signal);
        // A SIGKILL a grace after Berth began to end the attempt (a stop, a failed
        // replica, a server stopping) is Berth's own: said so, not "most often out of
        // memory" first (hung-job explorer). One sooner (the replica's own `kill -9`, the
        // kernel's out-of-memory killer) is not (hung-job recheck).
        let ending = self
            .attempts
            .lock()
            .await
            .get(&task)
            .filter(|a| a.attempt == attempt)
            .and_then(|a| a.ending_since)
            .is_some_and(|since| since.elapsed() + Duration::from_millis(250) >= STOP_GRACE);
        let how = if ending && code.is_none() && signal == Some(9) {
            how.with("after", "grace")
        } else {
            how
        };
        if !heard {
            let said = exited_message(attempt, replica, how.clone());
            self.event_at(&task, event_kind::EXITED, said, at).await;
        }
        let (done, failure, stopping, stop_rest) = {
            let mut attempts = self.attempts.lock().await;
            let Some(state) = attempts.get_mut(&task).filter(|a| a.attempt == attempt) else {
                return;
            };
            state.exited += 1;
            let failed = code != Some(0);
            let first_failure = failed && state.failure.is_none() && !state.stopping;
            if first_failure {
                state
                    .ending_since
                    .get_or_insert_with(std::time::Instant::now);
                state.failure = Some(
                    Message::new("event.replica_ended")
                        .with("replica", replica)
                        .with_message("how", how),
                );
            }
            let done = state.exited >= state.replicas;
            let result = (
                done,
                state.failure.clone(),
                state.stopping,
                first_failure && !done,
            );
            if done {
                attempts.remove(&task);
            }
            result
        };
        if stop_rest {
            // A gang runs whole: one failed replica ends the attempt.
            let backend = Arc::clone(&self.backend);
            let (t, grace) = (task.clone(), STOP_GRACE);
            tokio::spawn(async move {
                let _ = backend.stop(&t, attempt, grace).await;
            });
        }
        if !done {
            return;
        }
        // The local backend notes nothing of what debug mode keeps.
        let failure = failure.map(Arg::Message);
        // A failure is noted only while no stop is asked: one noted under a stop came
        // first, and the attempt was ending for it. Where it ends the task it stands (hung-
        // job explorer: a crash read "stopped by a user", its failed alert never sent,
        // when Stop was pressed as the others were ended); where it would have been
        // retried, the stop ends the task instead.
        if let (true, Some(reason)) = (stopping, &failure) {
            let lock = self.launch_lock(&task);
            let _stop_said = lock.lock().await;
            self.failed(&task, attempt, reason.clone(), None, at, false)
                .await;
            return;
        }
        self.attempt_ended(&task, attempt, stopping, failure, None, at)
            .await;
    }

    /// Whether the end of `replica` was counted already (a replay told it, then its
    /// event came, or the other way round); marks it counted.
    async fn counted_before(&self, task: &TaskId, attempt: u32, replica: u32) -> bool {
        if let Some(state) = self
            .attempts
            .lock()
            .await
            .get_mut(task)
            .filter(|a| a.attempt == attempt)
        {
            return !state.heard.insert(replica);
        }
        lock_replayed(&self.replayed)
            .ends
            .contains(&(task.clone(), attempt, replica))
    }

    /// Reads again from the backend what became of every attempt that runs, and hears
    /// what it tells ([`Backend::replay`]): after events were lost (a receiver that falls
    /// behind loses the oldest), an exit never heard left its task running for ever,
    /// holding its quota and nodes, its stop and delete refused. Then ends stopped each
    /// attempt a stop found the backend no longer runs, if the replay did not end it.
    /// `queued` gives how many events wait in the receiver now: until they have been
    /// received, the ends told here are remembered, as they may come again.
    async fn resync(&self, queued: impl Fn() -> usize) {
        // Taken before the replays: a stop that finds nothing running after them waits
        // for the next resync's replay, or its attempt's ends, still queued, would come
        // after the attempt was ended without them.
        let not_running = std::mem::take(
            &mut *self
                .resync
                .not_running
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        // A backend that cannot replay cannot say whether an attempt's ends are lost or
        // still on their way: its stops that found nothing running wait for them, as a
        // stopped attempt ended here would be told its queued ends after its end.
        if !self.backend.replays() {
            return;
        }
        let running: Vec<(TaskId, u32)> = self
            .attempts
            .lock()
            .await
            .iter()
            .map(|(task, a)| (task.clone(), a.attempt))
            .collect();
        let mut told = Vec::new();
        for (task, attempt) in running {
            // Not while its start is under way: the backend has not all of it yet. No
            // lock: the task has ended (its end drops it).
            let launch = self
                .launches
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get(&task)
                .cloned();
            let Some(launch) = launch else {
                continue;
            };
            let events = {
                let _launch = launch.lock().await;
                self.backend.replay(&task, attempt).await
            };
            told.extend(events);
        }
        {
            let mut replayed = lock_replayed(&self.replayed);
            replayed
                .ends
                .extend(told.iter().filter_map(|event| match event {
                    backend::Event::Exited {
                        task,
                        attempt,
                        replica,
                        ..
                    } => Some((task.clone(), *attempt, *replica)),
                    _ => None,
                }));
            // Counted after the reads: every end read was sent before them.
            replayed.left = queued();
            if replayed.left == 0 {
                replayed.ends.clear();
            }
        }
        if !told.is_empty() {
            tracing::warn!(
                events = told.len(),
                "told again what the backend says of the running attempts"
            );
        }
        for event in told {
            self.on_event(event).await;
        }
        for (task, attempt) in not_running {
            let ended = {
                let mut attempts = self.attempts.lock().await;
                match attempts.get(&task) {
                    Some(a) if a.attempt == attempt && a.stopping => attempts.remove(&task),
                    _ => None,
                }
            };
            if let Some(ended) = ended {
                tracing::warn!(%task, attempt, "a stopped attempt's end was not heard; it ends stopped");
                self.attempt_ended(&task, attempt, true, None, ended.kept, now())
                    .await;
            }
        }
    }

    /// Counts a received event against what a replay remembers ([`Replayed::left`]).
    fn received(&self) {
        let mut replayed = lock_replayed(&self.replayed);
        if replayed.left > 0 {
            replayed.left -= 1;
            if replayed.left == 0 {
                replayed.ends.clear();
            }
        }
    }

    /// An attempt failed (its end at `at`): run the gang again while fault tolerance
    /// allows, else fail.
    /// `may_retry`: false when a stop was asked as the attempt ended for its failure,
    /// which then ends the task stopped rather than retried.
    async fn failed(
        &self,
        id: &TaskId,
        attempt: u32,
        reason: Arg,
        kept: Option<Message>,
        at: Timestamp,
        may_retry: bool,
    ) {
        let Ok(stored) = self.store.get(id).await else {
            return;
        };
        let tolerance = &stored.task.spec.advanced.fault_tolerance;
        // Attempts after the first are retries, but for the re-runs after a server
        // stop: the task's own failures are what `max_retries` counts.
        let retry = stored.task.runs_again().retries + 1;
        let retries_left = tolerance.enabled && retry <= tolerance.max_retries;
        // A failure that would run the task again does not end it: the stop does, as a
        // stop in a retry's wait does.
        if retries_left && !may_retry {
            let why = Message::new("event.stopped");
            self.end_at(id, TaskPhase::Stopped, Some(why), at).await;
            return;
        }
        if retries_left {
            // Retry n waits as README's table says of it, whatever re-runs came between
            // (restarts explorer: the first retry after two re-runs waited 40 s, not 10).
            let delay = self.backoff.delay(retry);
            // Retry n follows attempt n unless a re-run came between: then the words
            // say both numbers, and that re-runs are not counted.
            let reruns = retry != attempt;
            let why = if delay.is_zero() {
                Message::new(if reruns {
                    "event.retrying#reruns"
                } else {
                    "event.retrying"
                })
            } else {
                // Whole seconds, as configured: what the event says is what a restart
                // waits for (see `retry_due`).
                let key = if reruns {
                    RETRYING_BACKOFF_RERUNS
                } else {
                    RETRYING_BACKOFF
                };
                Message::new(key).with("secs", delay.as_secs())
            };
            let why = why
                .with("attempt", attempt)
                .with("retry", retry)
                .with_arg("reason", reason)
                .with("max_retries", tolerance.max_retries);
            self.retry(&stored, why, at, delay).await;
        } else {
            let why = if tolerance.enabled {
                Message::new("event.failed#after_retries")
                    .with("attempts", attempt)
                    .with_arg("reason", reason)
            } else {
                Message::new("event.failed").with_arg("reason", reason)
            };
            if self.end_at(id, TaskPhase::Failed, Some(why), at).await {
                self.say_kept(id, attempt, kept).await;
            }
        }
    }

    /// Queues the retried tasks whose wait is over, in their places by priority and
    /// submit time, and runs a pass.
    async fn wake_due(&self) {
        // Only the leader queues: a server that lost the lead leaves its tasks to the
        // next leader, which rests them again from their events. Taken out here, or the
        // sleeper would find them due at every turn.
        if !self.leading() {
            let mut scheduler = self.scheduler.lock().await;
            for id in scheduler.due_by(now().0) {
                scheduler.cancel(&id);
            }
            return;
        }
        let due = self.scheduler.lock().await.due_by(now().0);
        if due.is_empty() {
            return;
        }
        for id in due {
            // Under the task's lock: a stop sees it retrying (and ends it, which takes it
            // out of the scheduler) or queued, never in between.
            let launch = self.launch_lock(&id);
            let launched = launch.lock().await;
            if !self.leading() {
                return;
            }
            match self.store.get(&id).await {
                // Stopped through another server before the leader's sync saw it.
                Ok(stored) if stored.task.phase.is_finished() => {
                    self.scheduler.lock().await.cancel(&id);
                    drop(launched);
                    self.forget_lock(&id);
                    continue;
                }
                Ok(stored) if stored.task.phase == TaskPhase::Retrying => {
                    // A step refused lost to an end (a stop through another server):
                    // nothing more starts for it. One the store failed to write is
                    // queued all the same, as below: the start looks at it again.
                    if !self
                        .step(&id, TaskPhase::Queued, None, stored.task.attempts)
                        .await
                        && self
                            .store
                            .get(&id)
                            .await
                            .is_ok_and(|now| now.task.phase.is_finished())
                    {
                        self.scheduler.lock().await.cancel(&id);
                        drop(launched);
                        self.forget_lock(&id);
                        continue;
                    }
                }
                Ok(_) => {}
                // Queued all the same: the start looks at the task again.
                Err(err) => {
                    tracing::error!(task = %id, error = %err, "cannot read a retried task; queuing it");
                }
            }
            self.scheduler.lock().await.wake(&id);
        }
        self.pump().await;
    }

    /// Frees the task's nodes and queues it again with its quota held; its attempt ended
    /// at `at`, when it entered retrying. With a `delay` it stays retrying until `at` +
    /// `delay`, resting ([`Scheduler::rest`]): its quota held, as a queued task's, its
    /// nodes free for others; the sleeper of [`Runner::watch`] queues it then.
    async fn retry(&self, stored: &StoredTask, why: Message, at: Timestamp, delay: Duration) {
        let id = &stored.task.id;
        // A stop decides on what it sees under the task's lock: held until the task is
        // queued again, so it sees the task running (and ended it first: nothing is
        // queued again) or queued (and takes it out of the queue), never in between with
        // a hold taken again for a task it ended.
        let launch = self.launch_lock(id);
        let launched = launch.lock().await;
        let retrying = self
            .step_at(
                id,
                TaskPhase::Retrying,
                Some(why.clone()),
                stored.task.attempts,
                at,
            )
            .await;
        // Not written: ended meanwhile (by a stop), and nothing more starts for it; or a
        // step the lifecycle has no arrow for (a task found retrying after a crash),
        // which goes on to the queue all the same.
        if !retrying
            && self
                .store
                .get(id)
                .await
                .is_ok_and(|now| now.task.phase.is_finished())
        {
            drop(launched);
            self.forget_lock(id);
            return;
        }
        self.event_at(id, event_kind::RETRYING, why.clone(), at)
            .await;
        // A re-run after a server stop is no retry of the task's (README "Alerts").
        if why.key != shared::record::RERUN {
            self.alert(id, &stored.task.spec, AlertEvent::Retried, &why)
                .await;
        }
        {
            let mut scheduler = self.scheduler.lock().await;
            let held = scheduler
                .finish(id)
                .map_or_else(|| stored.quota.clone(), |p| p.hold());
            let user = Self::user_of(stored);
            let hold = scheduler.waiting_hold(held, &stored.task.spec, &user);
            let _ = self.store.set_hold(id, &hold, None).await;
            let waiting = Waiting {
                id: id.clone(),
                spec: stored.task.spec.clone(),
                user,
                seq: u64::try_from(stored.seq).unwrap_or(0),
                hold,
                passed_over: 0,
            };
            if delay.is_zero() {
                scheduler.restore_waiting(waiting);
            } else {
                let millis = i64::try_from(delay.as_millis()).unwrap_or(i64::MAX);
                scheduler.rest(waiting, at.0.saturating_add(millis));
            }
        }
        if delay.is_zero() {
            self.step(id, TaskPhase::Queued, None, stored.task.attempts)
                .await;
        } else {
            self.rested.notify_one();
        }
        // The pass may start it, which takes the lock.
        drop(launched);
        Box::pin(self.pump()).await;
    }

    /// Ends a task in `phase`: frees what it holds, records why, admits what now fits.
    /// Whether it recorded the end (not when another server had).
    async fn end(&self, id: &TaskId, phase: TaskPhase, why: Option<Message>) -> bool {
        self.end_at(id, phase, why, now()).await
    }

    /// [`Runner::end`] of a task whose end came at `at` (its last replica's).
    async fn end_at(
        &self,
        id: &TaskId,
        phase: TaskPhase,
        why: Option<Message>,
        at: Timestamp,
    ) -> bool {
        let ended = self.end_quietly_at(id, phase, why, at).await;
        Box::pin(self.pump()).await;
        ended
    }

    /// [`Runner::end`] without the admission pass after it, for a caller that holds the
    /// task's lock ([`Runner::launches`]), which a start of it in that pass would take.
    async fn end_quietly(&self, id: &TaskId, phase: TaskPhase, why: Option<Message>) -> bool {
        self.end_quietly_at(id, phase, why, now()).await
    }

    /// [`Runner::end_quietly`] of a task whose end came at `at`.
    async fn end_quietly_at(
        &self,
        id: &TaskId,
        phase: TaskPhase,
        why: Option<Message>,
        at: Timestamp,
    ) -> bool {
        let ended = self.end_recorded(id, phase, why, at).await;
        // Once the end is in the store: a start that takes a new lock finds it ended.
        self.forget_lock(id);
        ended
    }

    /// Drops the lock of a task that has ended (a holder keeps its handle).
    fn forget_lock(&self, id: &TaskId) {
        self.launches
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(id);
    }

    /// Frees the task's place and records its end, which came at `at` (see
    /// [`Runner::end`]).
    async fn end_recorded(
        &self,
        id: &TaskId,
        phase: TaskPhase,
        why: Option<Message>,
        at: Timestamp,
    ) -> bool {
        {
            let mut scheduler = self.scheduler.lock().await;
            if scheduler.finish(id).is_none() {
                scheduler.cancel(id);
            }
        }
        self.attempts.lock().await.remove(id);
        self.reasons.lock().await.remove(id);
        let stored = self.store.get(id).await;
        // Ended already, through another server on the same store: its record is whole,
        // but for a placement a start here may have written since (an ended task has none).
        // "Clean up shared storage on exit" (SPEC.md section 6): at the task's end, not
        // between its attempts, which may read what the last one left; here, where its
        // replicas ran, though the end was recorded through another server; and before
        // the end is told, so a reader who sees the task ended finds it done (on this
        // machine: a backend's own storage is cleaned below, once the end is recorded).
        if let Ok(stored) = &stored {
            self.clean_shared_storage(id, &stored.task.spec).await;
        }
        if let Ok(stored) = &stored
            && stored.task.phase.is_finished()
        {
            if stored.placement.is_some() {
                let _ = self.store.set_hold(id, &[], None).await;
            }
            return false;
        }
        let attempts = stored.as_ref().map_or(0, |s| s.task.attempts);
        let _ = self.store.set_hold(id, &[], None).await;
        // Two ends may race past the look above (a stop, and the exit it caused): the
        // store takes one, and only that one is told.
        if !self.step_at(id, phase, why.clone(), attempts, at).await {
            return false;
        }
        let (kind, alert) = match phase {
            TaskPhase::Failed => (event_kind::FAILED, AlertEvent::Failed),
            TaskPhase::Stopped => (event_kind::STOPPED, AlertEvent::Stopped),
            _ => (event_kind::SUCCEEDED, AlertEvent::Succeeded),
        };
        let message = why.unwrap_or_else(|| Message::new("event.succeeded"));
        self.event_at(id, kind, message.clone(), at).await;
        if let Ok(stored) = &stored {
            self.alert(id, &stored.task.spec, alert, &message).await;
            // Where the backend keeps it (a cluster's volume): in the background, as it
            // asks the cluster, and only for a task that ran (an attempt wrote there).
            if stored.task.attempts > 0 {
                let (backend, store, id, spec, attempt) = (
                    Arc::clone(&self.backend),
                    Arc::clone(&self.store),
                    id.clone(),
                    stored.task.spec.clone(),
                    stored.task.attempts,
                );
                tokio::spawn(async move {
                    // The cleanup is followed to its end: its owner hears that it is under
                    // way, then whether the directory went, and why not.
                    let (notes, mut told) = tokio::sync::mpsc::unbounded_channel();
                    let clean = backend.clean_shared_storage(&id, &spec, phase, notes);
                    let record = async {
                        while let Some(note) = told.recv().await {
                            record_cleanup_note(&*backend, &*store, &id, attempt, note).await;
                        }
                    };
                    tokio::join!(clean, record);
                });
            }
        }
        true
    }

    /// Stops a task: a waiting one ends at once, a running one is signalled and ends
    /// when its replicas have.
    ///
    /// # Errors
    ///
    /// [`StopError::Finished`] when it has ended already.
    pub async fn stop(&self, id: &TaskId) -> Result<StoredTask, StopError> {
        let lock = self.launch_lock(id);
        let launch = lock.lock().await;
        let stored = match self.store.get(id).await {
            Ok(stored) => stored,
            Err(err) => {
                self.forget_lock(id);
                return Err(err.into());
            }
        };
        match stored.task.phase {
            phase if phase.is_finished() => {
                // Nothing more starts or stops for it: its lock goes.
                self.forget_lock(id);
                Err(StopError::Finished(id.clone()))
            }
            TaskPhase::Queued | TaskPhase::Retrying => {
                // An attempt ran already: "before it started" would deny it.
                // Counted by its history, not its attempts: a start a crash cut short
                // counts an attempt that never ran.
                let ran = stored
                    .task
                    .history
                    .iter()
                    .any(|step| step.phase == TaskPhase::Running);
                let why = Message::new(if ran {
                    "event.stopped#before_rerun"
                } else {
                    "event.stopped#before_start"
                });
                self.end_quietly(id, TaskPhase::Stopped, Some(why)).await;
                drop(launch);
                self.pump().await;
                Ok(self.store.get(id).await?)
            }
            _ => {
                let attempt = {
                    let mut attempts = self.attempts.lock().await;
                    attempts.get_mut(id).map(|a| {
                        a.ending_since.get_or_insert_with(std::time::Instant::now);
                        (a.attempt, std::mem::replace(&mut a.stopping, true))
                    })
                };
                match attempt {
                    // Started (a start in progress held the task's lock until the
                    // backend had the gang): the backend stops it, and its exit ends
                    // the task.
                    Some((attempt, asked_before)) => {
                        if !asked_before {
                            // In the store before the signal: a server that restarts
                            // before the exits are in ends the task as stopped.
                            let asked = Message::new("event.stopping");
                            self.event(id, event_kind::STOPPING, asked).await;
                        }
                        let backend = Arc::clone(&self.backend);
                        let task = id.clone();
                        let taking_back = Arc::clone(&self.taking_back);
                        let resync = Arc::clone(&self.resync);
                        tokio::spawn(async move {
                            // A job a restart is taking back: the backend stops it once
                            // it tracks it (one not taken back ends stopped then).
                            drop(taking_back.read().await);
                            let stopped = backend.stop(&task, attempt, STOP_GRACE).await;
                            // Its replicas have all ended, and their exits were sent, or
                            // lost: the event loop reads them again, and the stop ends
                            // the task if that does not.
                            resync.stopped(task, attempt, stopped);
                        });
                    }
                    // Another server leads and runs it: the stop is asked in the store,
                    // and the leader, which reads it at its next turn, signals the
                    // replicas, whose exits end the task, as a stop through it does (the
                    // task was ended at once here, while its replicas ran on for up to
                    // the grace, its delete allowed and its alert sent early).
                    None if !self.leading() => {
                        if stored.stop_asked_at.is_none() {
                            let asked = Message::new("event.stopping");
                            self.event(id, event_kind::STOPPING, asked).await;
                        }
                    }
                    // Nothing runs for it here (its processes ended with a crash).
                    None => {
                        let why = Message::new("event.stopped");
                        self.end_quietly(id, TaskPhase::Stopped, Some(why)).await;
                        drop(launch);
                        self.pump().await;
                    }
                }
                Ok(self.store.get(id).await?)
            }
        }
    }

    /// Rebuilds the queue and live usage from the store after a start or a crash.
    ///
    /// Every queued task and every placement is restored first; then what the previous
    /// server left running is ended (its replicas outlive it) but for the attempts the
    /// backend takes back (Kubernetes jobs of the tasks' current attempts), which run on
    /// in their places; only then are the other tasks that were running re-run or
    /// failed. One admission pass follows, which sees the whole queue (its order) and
    /// every node and quota line as they are once all of that is done.
    ///
    /// # Errors
    ///
    /// The store's error when it cannot be read.
    pub async fn recover(&self) -> Result<(), StoreError> {
        /// Lowers the flag however the restore ends (an error, a panic, a dropped future):
        /// left up, no pass would ever run again.
        struct Recovering<'a>(&'a AtomicBool);
        impl Drop for Recovering<'_> {
            fn drop(&mut self) {
                self.0.store(false, Ordering::SeqCst);
            }
        }
        self.recovering.store(true, Ordering::SeqCst);
        self.follow_cleanups();
        let guard = Recovering(&self.recovering);
        let restored = self.restore().await;
        drop(guard);
        if restored.is_ok() {
            self.pump().await;
        }
        restored
    }

    /// Follows again, in the background, the cleanups of shared storage an earlier server
    /// began and did not see end (its task's events say it is under way, and no more):
    /// their ends are told once. Only the leader recovers, so only it follows them.
    fn follow_cleanups(&self) {
        let (backend, store) = (Arc::clone(&self.backend), Arc::clone(&self.store));
        tokio::spawn(async move {
            for cleanup in backend.cleanups().await {
                let Ok(stored) = store.get(&cleanup.task).await else {
                    continue;
                };
                // Followed unless its end was told: a Job an older server applied, or
                // one whose note was lost, has no note that it is under way either.
                let told = store.events(&cleanup.task).await.unwrap_or_else(|err| {
                    tracing::warn!(task = %cleanup.task, error = %err, "cannot read a task's events; its shared storage's cleanup is followed, its end told unless told by then");
                    Vec::new()
                });
                if cleanup_told(&*backend, &told, &cleanup.job) == Some(true) {
                    continue;
                }
                let (backend, store) = (Arc::clone(&backend), Arc::clone(&store));
                tokio::spawn(async move {
                    if let Some(note) = backend.follow_cleanup(&cleanup).await {
                        let attempt = stored.task.attempts;
                        record_cleanup_note(&*backend, &*store, &cleanup.task, attempt, note).await;
                    }
                });
            }
        });
    }

    /// [`Runner::recover`] but its admission pass.
    async fn restore(&self) -> Result<(), StoreError> {
        let unfinished = self.store.unfinished().await?;
        let next_seq = unfinished.iter().map(|s| s.seq).max().unwrap_or(0) + 1;
        self.seq.store(
            u64::try_from(next_seq).unwrap_or(1).max(1),
            Ordering::Relaxed,
        );
        let mut interrupted = Vec::new();
        let mut retrying = Vec::new();
        let mut unrunnable = Vec::new();
        let mut unplaced = HashSet::new();
        let mut told = Recovered::default();
        {
            let mut scheduler = self.scheduler.lock().await;
            for stored in unfinished {
                // Queued by a submit to this server since it took the lead (a takeover
                // recovers while it serves): already here, and not interrupted.
                if scheduler.knows(&stored.task.id) {
                    continue;
                }
                if stored.task.phase == TaskPhase::Queued {
                    if let Some(why) = self.cannot_run(&stored) {
                        unrunnable.push((stored.task.id.clone(), why));
                        continue;
                    }
                    scheduler.restore_waiting(Waiting {
                        id: stored.task.id.clone(),
                        spec: stored.task.spec.clone(),
                        user: Self::user_of(&stored),
                        seq: u64::try_from(stored.seq).unwrap_or(0),
                        hold: stored.quota.clone(),
                        passed_over: 0,
                    });
                    told.queued += 1;
                } else if stored.task.phase == TaskPhase::Retrying {
                    // Its attempt has ended; its wait goes on below, from when it failed.
                    retrying.push(stored);
                } else {
                    // Its processes ended with the server. Hold what it held until the
                    // retry or the end below gives it back.
                    if let Some(placement) = stored.placement.clone()
                        && let Err(err) =
                            scheduler.restore_running(stored.task.id.clone(), placement)
                    {
                        tracing::warn!(task = %stored.task.id, error = %err, "cannot restore a placement");
                        unplaced.insert(stored.task.id.clone());
                    }
                    interrupted.push(stored);
                }
            }
        }
        // After the placements are held again: an end heard from a job taken back frees
        // its place.
        let left = interrupted.len();
        let interrupted = self.take_back(interrupted, &unplaced).await;
        told.taken_back = left - interrupted.len();
        for stored in retrying {
            if let Some(why) = self.cannot_run(&stored) {
                unrunnable.push((stored.task.id.clone(), why));
                continue;
            }
            self.rest_again(stored).await;
            told.retrying += 1;
        }
        told.failed += unrunnable.len();
        for (id, why) in unrunnable {
            self.end(&id, TaskPhase::Failed, Some(why)).await;
        }
        for stored in interrupted {
            let id = stored.task.id.clone();
            let reason = |variant: &str| Message::new(format!("event.server_stopped{variant}"));
            let tolerance = &stored.task.spec.advanced.fault_tolerance;
            let stop_asked = self.stop_asked(&id).await;
            // A task still starting had not run: it goes back to the queue whatever its
            // fault tolerance, as a queued task does (restarts explorer: failed with
            // "the server stopped while it ran" when it never had).
            let scheduling = stored.task.phase == TaskPhase::Scheduling;
            // Not one Kueue evicted while it ran, waiting for admission again.
            let starting = stored.task.starting();
            // Whatever retries it has used: the stop was the server's, not the task's
            // failure, and re-runs are not counted as retries (`Task::runs_again`); but
            // not for ever, in case the task is what stops the server.
            let reruns = stored.task.runs_again().reruns;
            let rerun = (tolerance.enabled || starting) && reruns < MAX_RERUNS;
            if stop_asked {
                self.end(&id, TaskPhase::Stopped, Some(Message::new("event.stopped")))
                    .await;
                told.stopped += 1;
            } else if let Some(exits) = self.ended_unheard(&stored).await {
                self.hear_late(&stored, exits).await;
                told.ended_unheard += 1;
            } else if let Some(why) = rerun.then(|| self.cannot_run(&stored)).flatten() {
                self.end(&id, TaskPhase::Failed, Some(why)).await;
                told.failed += 1;
            } else if rerun {
                told.rerun += 1;
                if scheduling {
                    // Straight back to the queue, as a re-run waits for nothing: its
                    // placement, held for a start that did not come, is given back.
                    let why = Message::new(if starting {
                        shared::record::REQUEUED
                    } else {
                        shared::record::RERUN
                    });
                    self.step(
                        &id,
                        TaskPhase::Queued,
                        Some(why.clone()),
                        stored.task.attempts,
                    )
                    .await;
                    self.event(&id, event_kind::QUEUED, queued(&why)).await;
                    let mut scheduler = self.scheduler.lock().await;
                    let user = Self::user_of(&stored);
                    let held = scheduler
                        .finish(&id)
                        .map_or_else(|| stored.quota.clone(), |p| p.hold());
                    let hold = scheduler.waiting_hold(held, &stored.task.spec, &user);
                    // Queued again: no placement, and (after a run on idle) a hold the
                    // store does not have yet, which other servers read.
                    if stored.placement.is_some() || hold != stored.quota {
                        let _ = self.store.set_hold(&id, &hold, None).await;
                    }
                    scheduler.restore_waiting(Waiting {
                        id: id.clone(),
                        spec: stored.task.spec.clone(),
                        user,
                        seq: u64::try_from(stored.seq).unwrap_or(0),
                        hold,
                        passed_over: 0,
                    });
                } else {
                    let fresh = self.store.get(&id).await?;
                    // Not its command's failure: run again at once.
                    let why = Message::new(shared::record::RERUN);
                    self.retry(&fresh, why, now(), Duration::ZERO).await;
                }
            } else if tolerance.enabled || starting {
                let why = reason("#reruns_used").with("reruns", reruns);
                self.end(&id, TaskPhase::Failed, Some(why)).await;
                told.failed += 1;
            } else {
                self.end(&id, TaskPhase::Failed, Some(reason("#no_tolerance")))
                    .await;
                told.failed += 1;
            }
        }
        // What became of the tasks an earlier server left, in one line (lab admin
        // explorer: a restart ended or re-ran tasks, and the log said nothing of them).
        if told != Recovered::default() {
            tracing::info!(
                queued = told.queued,
                taken_back = told.taken_back,
                rerun = told.rerun,
                retrying = told.retrying,
                ended_while_down = told.ended_unheard,
                failed = told.failed,
                stopped = told.stopped,
                "took over the tasks an earlier server left: queued again, taken back \
                 running, re-run, waiting to retry, ended while it was down, failed, stopped"
            );
        }
        let given_back = self.scheduler.lock().await.give_back_holds_over_quota();
        for id in given_back {
            // Other servers check submits against the holds the store has.
            if let Err(err) = self.store.set_hold(&id, &[], None).await {
                tracing::error!(task = %id, error = %err, "cannot record a hold given back");
            }
            let said = queued(&Message::new("event.hold_given_back"));
            self.event(&id, event_kind::QUEUED, said).await;
        }
        Ok(())
    }

    /// Puts back a task an earlier server left retrying: resting until the time its
    /// `retrying` event says (a restart neither starts it at once nor makes it wait
    /// afresh), or queued when that has passed; its nodes given back if a crash came
    /// before they were.
    async fn rest_again(&self, stored: StoredTask) {
        let id = stored.task.id.clone();
        let events = events_of(&*self.store, &id, &[event_kind::RETRYING])
            .await
            .unwrap_or_else(|err| {
            tracing::warn!(task = %id, error = %err, "cannot read a retried task's events; it waits its backoff from its retrying step");
            Vec::new()
        });
        let attempt = stored.task.attempts;
        // Left retrying by a restart's re-run (a crash before its step to the queue):
        // a re-run does not wait (review: it waited a retry's backoff). A retry is
        // counted while it waits: the wait of that retry.
        let runs = stored.task.runs_again();
        let delay = if runs.waiting == Some(shared::record::RunAgain::Rerun) {
            Duration::ZERO
        } else {
            self.backoff.delay(runs.retries.max(1))
        };
        let millis = i64::try_from(delay.as_millis()).unwrap_or(i64::MAX);
        // The event of this attempt's failure: an earlier retry's names a shorter wait.
        let told = events.iter().rev().find(|e| {
            e.kind == event_kind::RETRYING
                && e.keyed
                    .as_ref()
                    .and_then(|m| m.args.get("attempt"))
                    .is_some_and(|a| matches!(a, Arg::Text(n) if *n == attempt.to_string()))
        });
        let due = match told {
            Some(event) => retry_due(event),
            // A crash between the step and its event: the wait this server would give.
            None => {
                let failed = stored
                    .task
                    .history
                    .iter()
                    .rev()
                    .find(|c| c.phase == TaskPhase::Retrying)
                    .map_or_else(now, |c| c.at);
                Timestamp(failed.0.saturating_add(millis))
            }
        };
        // Never longer than its wait from now: another server's clock, or this one's
        // set back, would stretch it without end.
        let due = Timestamp(due.0.min(now().0.saturating_add(millis)));
        let held = stored
            .placement
            .as_ref()
            .map_or_else(|| stored.quota.clone(), Placement::hold);
        let user = Self::user_of(&stored);
        let mut scheduler = self.scheduler.lock().await;
        let hold = scheduler.waiting_hold(held, &stored.task.spec, &user);
        if stored.placement.is_some() || hold != stored.quota {
            let _ = self.store.set_hold(&id, &hold, None).await;
        }
        let waiting = Waiting {
            id: id.clone(),
            spec: stored.task.spec,
            user,
            seq: u64::try_from(stored.seq).unwrap_or(0),
            hold,
            passed_over: 0,
        };
        scheduler.rest(waiting, due.0);
        drop(scheduler);
        self.rested.notify_one();
    }

    /// Whether a user asked to stop the task before the server stopped: carried out
    /// then, the user's word standing over fault tolerance (an unfinished task was never
    /// stopped since, as a stop ends the task).
    async fn stop_asked(&self, id: &TaskId) -> bool {
        // Counted, not read.
        let stops = EventQuery {
            kinds: &[event_kind::STOPPING],
            limit: Some(0),
            ..EventQuery::default()
        };
        match self.store.events_page(id, stops).await {
            Ok(stops) => stops.total > 0,
            Err(err) => {
                tracing::error!(task = %id, error = %err, "cannot read a task's events; a stop it was asked may be lost");
                false
            }
        }
    }

    /// Has the backend end what an earlier server left running, but for the attempts
    /// it can take back (Kubernetes jobs run on without their server): those go on as
    /// if this server had started them, their places still held, with an event saying
    /// so. Returns the tasks that were not taken back, to re-run or fail.
    async fn take_back(
        &self,
        interrupted: Vec<StoredTask>,
        unplaced: &HashSet<TaskId>,
    ) -> Vec<StoredTask> {
        let mut resumable = Vec::new();
        for stored in &interrupted {
            let task = &stored.task;
            // One whose place the catalog no longer has would run on holding nothing,
            // its node and quota handed out again: it is re-run or failed instead.
            if !matches!(task.phase, TaskPhase::Scheduling | TaskPhase::Running)
                || stored.placement.is_none()
                || unplaced.contains(&task.id)
                || task.attempts == 0
                || self.stop_asked(&task.id).await
            {
                continue;
            }
            let last_event = match self.store.events(&task.id).await {
                Ok(events) => events.iter().map(|e| e.at).max(),
                Err(err) => {
                    tracing::warn!(task = %task.id, error = %err, "cannot read a task's events; what its job's cluster said while the server was down is not told");
                    Some(now())
                }
            };
            resumable.push(backend::Resumable {
                task: task.id.clone(),
                attempt: task.attempts,
                spec: task.spec.clone(),
                started: task.phase == TaskPhase::Running,
                last_event,
            });
        }
        // Held until the attempts taken back are known and said: the backend may report
        // one's end at once, which must come after the event.
        let taking_back = self.taking_back.write().await;
        // In place before the backend is asked, so its report of an end finds the
        // attempt, and before the wait for the API server, so a stop meanwhile finds it
        // too (and is carried out once the job is taken back, or ends the task stopped
        // when it is not) rather than ending the task while the job is taken back.
        {
            let mut attempts = self.attempts.lock().await;
            for resumable in &resumable {
                self.take_up(&resumable.task, resumable.attempt);
                attempts.insert(
                    resumable.task.clone(),
                    Attempt {
                        attempt: resumable.attempt,
                        ..Attempt::default()
                    },
                );
            }
        }
        // A stop asked after the check above and before the insert found no attempt and
        // ended the task (with no `stopping` event): its job is not taken back (the
        // backend ends it as left over). One asked after the insert found the attempt,
        // and is asked here too: its job is not taken back either, and the restore ends
        // the task stopped.
        let mut late = HashSet::new();
        for resumable in &resumable {
            let ended = self
                .store
                .get(&resumable.task)
                .await
                .is_ok_and(|s| s.task.phase.is_finished());
            if ended || self.stop_asked(&resumable.task).await {
                late.insert(resumable.task.clone());
            }
        }
        if !late.is_empty() {
            let mut attempts = self.attempts.lock().await;
            for task in &late {
                attempts.remove(task);
            }
            resumable.retain(|r| !late.contains(&r.task));
        }
        // An API server that does not answer yet may take minutes.
        if !resumable.is_empty() {
            self.backend.await_reachable().await;
        }
        let back = self.backend.take_back(&resumable).await;
        if back.ended > 0 {
            tracing::warn!(
                ended = back.ended,
                "ended replicas an earlier server left running; their tasks are re-run or failed"
            );
        }
        {
            let mut attempts = self.attempts.lock().await;
            for resumable in &resumable {
                if !back.taken.contains(&resumable.task) {
                    attempts.remove(&resumable.task);
                }
            }
        }
        for resumable in resumable.iter().filter(|r| back.taken.contains(&r.task)) {
            tracing::info!(task = %resumable.task, attempt = resumable.attempt, "took back a job an earlier server started");
            let said =
                Message::new("event.server_stopped#taken_back").with("attempt", resumable.attempt);
            self.event(&resumable.task, backend::note_kind::JOB, said)
                .await;
        }
        drop(taking_back);
        interrupted
            .into_iter()
            .filter(|stored| !back.taken.contains(&stored.task.id))
            .collect()
    }

    /// How every replica of a task's running attempt ended, earliest first: as a server
    /// heard it before it stopped (its `exited` event), or else as the local backend's
    /// replica recorded it beside its log while no server watched
    /// ([`backend::local::recorded_exit`]), at the time it recorded it. `None` when one
    /// of them ended neither way (it still ran when the restart ended it: the attempt was
    /// interrupted), when the attempt never reached running, or when the backend runs no
    /// processes here.
    ///
    /// # Design
    ///
    /// What was heard is read from the events, not marked in the exit-status files: the
    /// `exited` event is the one write that records an exit as heard, so no crash can
    /// come between the record and its mark. (Marking the file after the event, a crash
    /// between the two replayed the exit again; marking it first, a crash lost it.)
    async fn ended_unheard(&self, stored: &StoredTask) -> Option<Vec<Exit>> {
        if !self.backend.leftovers_are_local() || stored.task.phase != TaskPhase::Running {
            return None;
        }
        let (id, attempt) = (&stored.task.id, stored.task.attempts);
        // As many as the start awaited.
        let replicas = awaited_replicas(&stored.task.spec, stored.placement.as_ref()?);
        if replicas == 0 {
            return None;
        }
        let heard = match events_of(&*self.store, id, &[event_kind::EXITED]).await {
            Ok(events) => heard_exits(&events, attempt),
            Err(err) => {
                tracing::error!(task = %id, error = %err, "cannot read a task's events; its attempt counts as interrupted");
                return None;
            }
        };
        // Not before the attempt's start (a replica that ends at once may record its end
        // a moment before the server records it running), nor after now (a clock set back).
        let began = stored.task.history.last().map_or(Timestamp(0), |s| s.at);
        let (now, mut exits) = (now(), Vec::new());
        for replica in 0..replicas {
            if let Some(exit) = heard.iter().find(|e| e.replica == replica) {
                exits.push(exit.clone());
                continue;
            }
            let log = self.backend.log_path(id, attempt, replica);
            let recorded = backend::local::recorded_exit(&log)?;
            // A SIGTERM no live server sent (a reboot, a service manager stopping every
            // process) ended the command, or cut it short: not the command's own end.
            // After a failure the server heard, it sent one itself, to the rest of the
            // gang: the attempt failed with that replica's reason.
            if recorded.terminated && !heard.iter().any(|exit| exit.code != Some(0)) {
                return None;
            }
            exits.push(Exit {
                replica,
                code: recorded.code,
                signal: recorded.signal,
                // `max` then `min`: with the clock set back past `began`, `clamp` panics.
                at: timestamp(recorded.at).max(began).min(now),
                heard: false,
            });
        }
        exits.sort_by_key(|exit| (exit.at, exit.replica));
        Some(exits)
    }

    /// Ends an attempt whose replicas all ended, some of them while the server was down,
    /// as it would have ended with the server up: each exit not heard yet is heard now,
    /// at the time it came, and those heard before are counted, in the order they all
    /// came, so the task succeeds, or fails (or runs again, per its fault tolerance) with
    /// the first failed replica's reason, with the same events and alerts.
    async fn hear_late(&self, stored: &StoredTask, exits: Vec<Exit>) {
        let (id, attempt) = (&stored.task.id, stored.task.attempts);
        // "Every replica" only if none was heard to end before the server stopped.
        let key = if exits.iter().any(|e| e.heard) {
            "event.server_stopped#ended_rest"
        } else {
            "event.server_stopped#ended"
        };
        let said = Message::new(key).with("attempt", attempt);
        // Dated with the first end it tells of, which follows it: dated at the restart,
        // it was listed before ends that came earlier, and the times ran backwards. None
        // when every end was heard before the stop (a crash before the attempt's end was
        // written): nothing ended meanwhile (review).
        if let Some(first) = exits.iter().filter(|e| !e.heard).map(|e| e.at).min() {
            self.event_at(id, event_kind::EXITED, said, first).await;
        }
        self.take_up(id, attempt);
        self.attempts.lock().await.insert(
            id.clone(),
            Attempt {
                attempt,
                replicas: exits.len() as u32,
                ..Attempt::default()
            },
        );
        for exit in exits {
            self.exited(id.clone(), attempt, exit).await;
        }
        // Queued again by its fault tolerance (or waiting for its retry, with a backoff)
        // on a catalog that changed so that it can never start: it fails, as a task
        // found queued does.
        if let Ok(now) = self.store.get(id).await
            && matches!(now.task.phase, TaskPhase::Queued | TaskPhase::Retrying)
            && let Some(why) = self.cannot_run(&now)
        {
            self.end(id, TaskPhase::Failed, Some(why)).await;
        }
    }

    /// Why a task the store holds can never start on this server's catalog, which
    /// changed since the task was accepted: where it runs is gone, or no spec of it fits
    /// its pool or quota even with nothing else running. Queued again, it waited for ever.
    fn cannot_run(&self, stored: &StoredTask) -> Option<Message> {
        let (spec, user) = (&stored.task.spec, Self::user_of(stored));
        match shared::quota::plan(spec, &self.catalog, &shared::Usage::new(), &user) {
            Ok(None) => Some(gone_from(spec, &self.catalog)),
            Ok(Some(plan)) if plan.outcome == shared::quota::Outcome::Blocked => {
                Some(Message::new("event.catalog_changed#never"))
            }
            _ => None,
        }
    }

    /// Uses `webhooks` to call the tasks' alert webhooks.
    #[must_use]
    pub fn with_webhooks(mut self, webhooks: crate::alerts::Webhooks) -> Self {
        self.webhooks = Some(webhooks);
        self
    }

    /// Uses `mail` to send the tasks' email alerts.
    #[must_use]
    pub fn with_mail(mut self, mail: crate::alerts::Mailer) -> Self {
        self.mail = Some(Arc::new(mail));
        self
    }

    /// Fires the task's subscriptions to `which` (`what` says what happened): a
    /// subscription that repeats an earlier one ([`Alert::identity`]) fires with it,
    /// once, and gets no event of its own.
    async fn alert(&self, id: &TaskId, spec: &TaskSpec, which: AlertEvent, what: &Message) {
        // A replica named as the task's page names it ("replica 1 (worker 0)"): a mail
        // read away from the page has no log picker to count it out on.
        let logs = shared::api::log_replicas(spec, self.backend.runs_ray_clusters());
        let what = &shared::api::as_read(what, &logs);
        for subscription in firing(spec.advanced.alerts.iter().filter(|a| a.event == which)) {
            self.fire(id, subscription, what, ()).await;
        }
    }

    /// Fires one subscription: a webhook is called, or an email mailed, in the
    /// background, in its turn of the server's [`crate::alerts::DELIVERING_AT_ONCE`]
    /// (within its task's and its host's share, [`crate::alerts::SHARE`]), and its
    /// outcome recorded as an `alert` event; without a mail relay an email is
    /// recorded as not sent, so its owner learns it from the task's events. `keep` is
    /// dropped once the event is in.
    async fn fire(
        &self,
        id: &TaskId,
        subscription: &Alert,
        what: &Message,
        keep: impl Send + 'static,
    ) {
        let said = |key: &str| crate::alerts::said(key, subscription);
        match subscription.channel {
            AlertChannel::Email => match &self.mail {
                Some(mail) => {
                    let (mail, letter) = (
                        Arc::clone(mail),
                        crate::alerts::letter(id, subscription, what),
                    );
                    let to = subscription.target.clone();
                    crate::alerts::record_delivery(
                        Arc::clone(&self.store),
                        Arc::clone(&self.delivering),
                        id.clone(),
                        subscription,
                        async move { mail.send(&to, &letter).await },
                        keep,
                    );
                }
                None => {
                    self.event(id, event_kind::ALERT, said("event.alert.no_relay"))
                        .await;
                    drop(keep);
                }
            },
            AlertChannel::Webhook => {
                let body = serde_json::json!({
                    "task": id.0,
                    "event": crate::alerts::wire(subscription.event),
                    "threshold": crate::alerts::threshold(subscription),
                    "message": what.render(shared::Lang::En),
                    "at": now().0,
                })
                .to_string();
                let (webhooks, url) = (self.webhooks.clone(), subscription.target.clone());
                crate::alerts::record_delivery(
                    Arc::clone(&self.store),
                    Arc::clone(&self.delivering),
                    id.clone(),
                    subscription,
                    async move {
                        match webhooks {
                            Some(webhooks) => webhooks.post(&url, body).await,
                            None => Err(Message::new("event.alert.error.other")
                                .with("detail", "this server has no HTTPS client")),
                        }
                    },
                    keep,
                );
            }
        }
    }

    /// Fires the threshold subscriptions that are due: a task queued longer than its
    /// minutes, or running longer than its hours, once per stay in that phase (the
    /// `alert` events say which have fired, so a restart fires none twice).
    pub async fn sweep_alerts(&self) {
        self.sweep_alerts_at(now()).await;
    }

    /// [`Runner::sweep_alerts`] as at `at`.
    pub async fn sweep_alerts_at(&self, at: Timestamp) {
        // Only the server that places tasks, and not while it rebuilds what ran.
        if !self.leading() || self.recovering.load(Ordering::SeqCst) {
            return;
        }
        let Ok(unfinished) = self.store.unfinished().await else {
            return;
        };
        for stored in unfinished {
            let due: Vec<(&Alert, Timestamp)> = firing(stored.task.spec.advanced.alerts.iter())
                .filter_map(|a| crate::alerts::due(a, &stored.task, at).map(|since| (a, since)))
                .collect();
            if due.is_empty() {
                continue;
            }
            // Taken before the events are read, not after: an earlier sweep's alert lets
            // go of its entry only once its event is recorded, so an entry free here has
            // its event in the read below. Taken after, an alert recorded between the
            // read and the look was fired again (review, round 17).
            let taken: Vec<(&Alert, Timestamp, Out)> = due
                .into_iter()
                .filter_map(|(subscription, since)| {
                    let out = (
                        stored.task.id.clone(),
                        format!("{:?}", subscription.identity()),
                    );
                    // Still waiting for its turn (or its answer) from an earlier sweep.
                    let free = self
                        .overdue_out
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .insert(out.clone());
                    free.then(|| {
                        let keep = Out {
                            set: Arc::clone(&self.overdue_out),
                            key: out,
                        };
                        (subscription, since, keep)
                    })
                })
                .collect();
            if taken.is_empty() {
                continue;
            }
            let Ok(events) = events_of(&*self.store, &stored.task.id, &[event_kind::ALERT]).await
            else {
                continue;
            };
            for (subscription, since, keep) in taken {
                let fired = events.iter().any(|e| {
                    e.kind == event_kind::ALERT
                        && e.at >= since
                        && crate::alerts::is_about(e.keyed.as_ref(), subscription)
                });
                if fired {
                    continue;
                }
                let what = crate::alerts::overdue(subscription);
                self.fire(&stored.task.id, subscription, &what, keep).await;
            }
        }
    }

    /// Removes what the backend keeps on this machine of every deleted task
    /// ([`Backend::remove_task`]), after the start and every [`DELETED_EVERY`] sweeps: a
    /// delete through this server removes its task's folder at once, but one through
    /// another server, or while this one was down, is only the store's. A task the store
    /// does not know is left alone: its folder may be another database's. Not on every
    /// sweep: it reads every task kept on the machine from the store.
    pub async fn sweep_deleted(&self) {
        // Off the runtime's threads, as a delete's removal is: folders may be large.
        let backend = Arc::clone(&self.backend);
        let folders = tokio::task::spawn_blocking(move || backend.task_folders())
            .await
            .unwrap_or_default();
        let mut deleted = Vec::new();
        for task in folders {
            if self
                .store
                .get(&task)
                .await
                .is_ok_and(|s| s.task.phase == TaskPhase::Deleted)
            {
                deleted.push(task);
            }
        }
        let backend = Arc::clone(&self.backend);
        let _ = tokio::task::spawn_blocking(move || {
            for task in &deleted {
                backend.remove_task(task);
            }
        })
        .await;
    }

    /// Feeds backend events to [`Runner::on_event`] until the backend goes away.
    pub fn watch(self: &Arc<Self>) {
        let sweeper = Arc::clone(self);
        tokio::spawn(async move {
            // The first look a sweep after the start, once `begin` has settled whether
            // this server leads (it starts out leading, until a replicated store says).
            let first = tokio::time::Instant::now() + crate::alerts::SWEEP;
            let mut every = tokio::time::interval_at(first, crate::alerts::SWEEP);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            every.tick().await;
            sweeper.sweep_alerts().await;
            let mut deleting = {
                let sweeper = Arc::clone(&sweeper);
                tokio::spawn(async move { sweeper.sweep_deleted().await })
            };
            for sweep in 1_u64.. {
                every.tick().await;
                sweeper.sweep_alerts().await;
                // Apart from the alerts' sweeps, which it would hold up: it reads each
                // task kept on this machine from the store, one by one. One at a time.
                if sweep.is_multiple_of(DELETED_EVERY) && deleting.is_finished() {
                    let sweeper = Arc::clone(&sweeper);
                    deleting = tokio::spawn(async move { sweeper.sweep_deleted().await });
                }
            }
        });
        // One sleeper for every retry's wait: it sleeps until the earliest is due, and
        // is woken to look again when a task starts resting (perhaps due sooner).
        let sleeper = Arc::clone(self);
        tokio::spawn(async move {
            loop {
                let next = sleeper.scheduler.lock().await.next_due();
                let rested = sleeper.rested.notified();
                match next {
                    None => rested.await,
                    Some(due) => {
                        let wait = u64::try_from(due.saturating_sub(now().0)).unwrap_or(0);
                        if tokio::time::timeout(Duration::from_millis(wait), rested)
                            .await
                            .is_err()
                        {
                            // In a task of its own: a panic in a pass must not end the
                            // sleeper, or nothing resting would wake until a restart.
                            let waker = Arc::clone(&sleeper);
                            if let Err(err) =
                                tokio::spawn(async move { waker.wake_due().await }).await
                            {
                                tracing::error!(error = %err, "waking the retries that were due failed");
                                // Not at once again: a pass that fails fails the same way.
                                tokio::time::sleep(Duration::from_secs(1)).await;
                            }
                        }
                    }
                }
            }
        });
        let runner = Arc::clone(self);
        let mut events = runner.backend.events();
        tokio::spawn(async move {
            loop {
                let received = tokio::select! {
                    received = events.recv() => received,
                    () = runner.resync.asked.notified() => {
                        runner.resync(|| events.len()).await;
                        continue;
                    }
                };
                match received {
                    Ok(event) => {
                        runner.on_event(event).await;
                        runner.received();
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(missed)) => {
                        tracing::error!(
                            missed,
                            "backend events were missed; reading the running attempts again"
                        );
                        runner.resync(|| events.len()).await;
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                }
            }
        });
    }
}

/// Locks what a replay told; a panic while holding it leaves consistent data.
fn lock_replayed(replayed: &std::sync::Mutex<Replayed>) -> std::sync::MutexGuard<'_, Replayed> {
    replayed
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What the task's events tell of the cleanup `job` ([`Backend::clean_shared_storage`]):
/// `Some(true)` its end, `Some(false)` only that it is under way, `None` nothing.
fn cleanup_told(backend: &dyn Backend, events: &[TaskEvent], job: &str) -> Option<bool> {
    events
        .iter()
        .filter_map(|e| match e.keyed.as_ref()?.args.get("note")? {
            Arg::Message(note) => backend.cleanup_note(note),
            Arg::Text(_) | Arg::List(_) => None,
        })
        .filter(|(of, _)| of == job)
        .map(|(_, end)| end)
        .reduce(|a, b| a || b)
}

/// The task's events of `kinds`, oldest first, read by the store's query: not the
/// task's other events.
async fn events_of(
    store: &dyn TaskStore,
    id: &TaskId,
    kinds: &[&str],
) -> Result<Vec<TaskEvent>, StoreError> {
    let query = EventQuery {
        kinds,
        ..EventQuery::default()
    };
    Ok(store.events_page(id, query).await?.events)
}

/// Records a note of a task's cleanup of shared storage (of attempt `attempt`), but an
/// end already told: after a restart or a change of leader, two servers may follow the
/// same cleanup.
async fn record_cleanup_note(
    backend: &dyn Backend,
    store: &dyn TaskStore,
    id: &TaskId,
    attempt: u32,
    note: Message,
) {
    if let Some((job, true)) = backend.cleanup_note(&note)
        && let Ok(events) = store.events(id).await
        && cleanup_told(backend, &events, &job) == Some(true)
    {
        return;
    }
    let note = Message::new("event.note")
        .with("attempt", attempt)
        .with_message("note", note);
    let event = TaskEvent::keyed(now(), backend::note_kind::CLUSTER, note);
    if let Err(err) = store.push_event(id, &event).await {
        tracing::warn!(task = %id, error = %err, "cannot record what became of the shared storage's cleanup");
    }
}

/// Several servers on one replicated store (see the module docs). Tasks that were
/// running on the nodes of a leader that died are recovered by the next leader as
/// after a crash: re-run or failed per their fault tolerance.
impl Runner {
    /// Starts serving: recovers from the store, and with a replicated store takes part
    /// in leading (recovering only when this server leads, now or later).
    ///
    /// # Errors
    ///
    /// The store's error when it cannot be read.
    pub async fn begin(self: &Arc<Self>) -> Result<(), StoreError> {
        if !self.store.replicated() {
            return self.recover().await;
        }
        self.leading.store(false, Ordering::SeqCst);
        // Replicas an earlier life of this server left here: ended whether or not it
        // leads now (the leader ran them again or failed them when it took the lead).
        if self.backend.leftovers_are_local() {
            let ended = self.backend.end_leftovers().await;
            if ended > 0 {
                tracing::warn!(ended, "ended replicas an earlier server here left running");
            }
        }
        self.take_turn().await?;
        let runner = Arc::clone(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(LEAD_INTERVAL).await;
                if let Err(err) = runner.take_turn().await {
                    tracing::error!(error = %err, "cannot take part in leading");
                }
            }
        });
        Ok(())
    }

    /// Whether this server places tasks on nodes now.
    pub fn leading(&self) -> bool {
        self.leading.load(Ordering::SeqCst)
    }

    /// One turn: take the lead when it is free (recovering what the last leader left),
    /// or, leading, adopt what other servers accepted.
    async fn take_turn(&self) -> Result<(), StoreError> {
        let _turn = self.turns.lock().await;
        if self.stopping.load(Ordering::SeqCst) {
            return Ok(());
        }
        let lead = self.store.lead().await?;
        // Found since the last turn that it no longer led under its term: what it ran
        // goes (its ends may have gone unrecorded), whoever leads now.
        if self.lapsed.swap(false, Ordering::SeqCst) {
            self.lose_lead().await;
        }
        match (self.leading(), lead) {
            (true, Some(term)) if term == self.term.load(Ordering::SeqCst) => self.sync().await,
            (true, Some(term)) => {
                // Its lock came back to it after another server led, which ran again (or
                // failed) what ran here: as a leader that lost the lead, then as a new one.
                self.lose_lead().await;
                self.take_lead(term).await
            }
            (false, Some(term)) => self.take_lead(term).await,
            (true, None) => {
                self.lose_lead().await;
                Ok(())
            }
            (false, None) => Ok(()),
        }
    }

    /// Whether this server still leads under the term it took the lead in, asked of the
    /// store again before it records an attempt's start or end: the lead may have moved
    /// since its last turn (a process paused, or cut from the store, for longer than a
    /// turn), and the next leader records those itself. `term` is the term the caller
    /// began under: one the lead moved to meanwhile is not it. Where the store cannot be
    /// asked, the write goes ahead, and fails as any write to it does. Finding that the
    /// lead moved, it stops placing at once, and its next turn lets go of what it ran.
    async fn still_leads(&self, term: u64) -> bool {
        if !self.store.replicated() {
            return self.leading();
        }
        if self.lapsed.load(Ordering::SeqCst) || !self.leading() {
            return false;
        }
        match self.store.lead().await {
            // Still its lead, though perhaps taken again since the caller began.
            Ok(Some(now)) if now == self.term.load(Ordering::SeqCst) => now == term,
            Ok(_) => {
                self.lapsed.store(true, Ordering::SeqCst);
                self.leading.store(false, Ordering::SeqCst);
                false
            }
            Err(_) => self.leading(),
        }
    }

    /// Takes up `attempt` of `task` again (a cluster's job taken back, an end heard
    /// late): its end is this server's to record once more.
    fn take_up(&self, task: &TaskId, attempt: u32) {
        self.let_go
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&(task.clone(), attempt));
    }

    /// Whether this server let go of `attempt` of `task` with the lead.
    fn was_let_go(&self, task: &TaskId, attempt: u32) -> bool {
        self.let_go
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(&(task.clone(), attempt))
    }

    /// Takes the lead under `term`, recovering what the last leader left.
    async fn take_lead(&self, term: u64) -> Result<(), StoreError> {
        tracing::info!("this server leads now: recovering the tasks in the store");
        // What this server knew as a follower is stale: start from the store.
        // The lock first, then the base: a refresh of the base between the two
        // would be lost until the next one.
        let mut scheduler = self.scheduler.lock().await;
        *scheduler = Scheduler::new(Arc::clone(&self.catalog), self.base());
        drop(scheduler);
        self.reasons.lock().await.clear();
        *self.adopted.lock().await = Adopted::default();
        self.term.store(term, Ordering::SeqCst);
        self.leading.store(true, Ordering::SeqCst);
        let recovered = self.recover().await;
        // Not recovered (the store failed again): the next turn leads afresh.
        if recovered.is_err() {
            self.leading.store(false, Ordering::SeqCst);
        }
        recovered
    }

    /// Lets go of the lead and of the attempts this server ran, whose ends it does not
    /// record: its lock went with its connection, and another server may lead already
    /// and run again (or fail) what ran here, as after a crash.
    async fn lose_lead(&self) {
        tracing::error!(
            "this server lost the lead; it places no more tasks and lets go of the attempts it ran"
        );
        for (task, attempt) in self.let_go_of_all().await {
            let backend = Arc::clone(&self.backend);
            tokio::spawn(async move { backend.release(&task, attempt).await });
        }
    }

    /// Before the server stops (SIGINT, SIGTERM): with several servers on one store, what
    /// it runs as processes here is ended and left unrecorded, as when it loses the lead,
    /// so the next leader runs those tasks again alone. They outlived it before, and the
    /// next leader's second run went beside them (multi-server exploration). It takes
    /// no more turns at leading and, once those have ended, gives up its lock, so the
    /// next leader takes over at once. A lone server's replicas go on: its next start
    /// records how they ended.
    pub async fn shut_down(&self) {
        if !self.store.replicated() {
            return;
        }
        {
            let _turn = self.turns.lock().await;
            self.stopping.store(true, Ordering::SeqCst);
        }
        let attempts = self.let_go_of_all().await;
        if !self.backend.leftovers_are_local() {
            // A cluster's jobs go on; the next leader takes them back, as soon as the
            // lock is free.
            self.store.resign().await;
            return;
        }
        if !attempts.is_empty() {
            tracing::warn!(
                count = attempts.len(),
                "stopping: ending the attempts this server runs, for the next leader to run again"
            );
        }
        // SIGTERM first, as a stop does, so a command may save its work; within the 30 s
        // a service manager (and Kubernetes) gives a stopping server.
        futures_util::future::join_all(attempts.iter().map(|(task, attempt)| {
            self.backend
                .stop(task, *attempt, std::time::Duration::from_secs(10))
        }))
        .await;
        // Only once they have ended: the next leader runs them again at once.
        self.store.resign().await;
    }

    /// Stops leading and forgets every attempt it runs, which the caller releases: their
    /// ends are not this server's to record.
    async fn let_go_of_all(&self) -> Vec<(TaskId, u32)> {
        self.leading.store(false, Ordering::SeqCst);
        // Its queue and placements are the new leader's now.
        // The lock first, then the base: a refresh of the base between the two
        // would be lost until the next one.
        let mut scheduler = self.scheduler.lock().await;
        *scheduler = Scheduler::new(Arc::clone(&self.catalog), self.base());
        drop(scheduler);
        self.reasons.lock().await.clear();
        let abandoned: Vec<(TaskId, u32)> = self
            .attempts
            .lock()
            .await
            .drain()
            .map(|(id, a)| (id, a.attempt))
            .collect();
        self.let_go
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend(abandoned.iter().cloned());
        // Let go: this server's processes are killed (the next leader runs them
        // again, perhaps here, soon); a cluster's jobs are left to the next
        // leader, which takes them back or deletes them.
        abandoned
    }

    /// The leader catches up with the store: queues the tasks other servers accepted,
    /// drops from its queue the tasks they ended, and stops the attempts they ended or
    /// were asked to stop.
    async fn sync(&self) -> Result<(), StoreError> {
        // Read before taking the scheduler lock, so submits go on meanwhile; what this
        // server queued after the read is in `mine`, and is neither dropped nor adopted.
        let unfinished = self.store.unfinished().await?;
        let live: HashSet<&TaskId> = unfinished.iter().map(|s| &s.task.id).collect();
        // Asked to stop through another server (`Runner::stop`).
        let asked: HashSet<&TaskId> = unfinished
            .iter()
            .filter(|s| s.stop_asked_at.is_some())
            .map(|s| &s.task.id)
            .collect();
        let stop = {
            let mut scheduler = self.scheduler.lock().await;
            let mut adopted = self.adopted.lock().await;
            // Resting ones too: one stopped through another server gives its hold back.
            let queued: HashSet<TaskId> = scheduler
                .queue()
                .iter()
                .map(|w| w.id.clone())
                .chain(scheduler.resting())
                .collect();
            for id in queued
                .iter()
                .filter(|id| !live.contains(id) && !adopted.mine.contains(*id))
            {
                scheduler.cancel(id);
            }
            for stored in &unfinished {
                let id = &stored.task.id;
                if stored.seq > adopted.seen
                    && stored.task.phase == TaskPhase::Queued
                    && !adopted.mine.contains(id)
                    && !queued.contains(id)
                    && scheduler.placement(id).is_none()
                {
                    scheduler.restore_waiting(Waiting {
                        id: id.clone(),
                        spec: stored.task.spec.clone(),
                        user: Self::user_of(stored),
                        seq: u64::try_from(stored.seq).unwrap_or(0),
                        hold: stored.quota.clone(),
                        passed_over: 0,
                    });
                }
            }
            adopted.seen = unfinished
                .iter()
                .map(|s| s.seq)
                .max()
                .unwrap_or(0)
                .max(adopted.seen);
            // This server's own submits queue after what the others accepted before.
            self.seq.fetch_max(
                u64::try_from(adopted.seen + 1).unwrap_or(1),
                Ordering::Relaxed,
            );
            let mut attempts = self.attempts.lock().await;
            let stop = attempts
                .iter_mut()
                .filter(|(id, a)| {
                    !a.stopping
                        && (!live.contains(id) || asked.contains(id))
                        && !adopted.mine.contains(*id)
                })
                .map(|(id, a)| {
                    a.stopping = true;
                    a.ending_since.get_or_insert_with(std::time::Instant::now);
                    (id.clone(), a.attempt)
                })
                .collect::<Vec<_>>();
            adopted.mine.clear();
            stop
        };
        for (task, attempt) in stop {
            let backend = Arc::clone(&self.backend);
            // A stop asked through another server finds what this one's does (review).
            let resync = Arc::clone(&self.resync);
            tokio::spawn(async move {
                let stopped = backend.stop(&task, attempt, STOP_GRACE).await;
                resync.stopped(task, attempt, stopped);
            });
        }
        self.pump().await;
        Ok(())
    }
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner").finish_non_exhaustive()
    }
}

/// What of where `spec` runs the catalog no longer has, named: its region, its cluster,
/// its pool (for its resource kind), its head's spec or every spec of its list (an
/// operator's exploratory test: "where this task runs" left the reader to guess which).
fn gone_from(spec: &shared::TaskSpec, catalog: &shared::Catalog) -> Message {
    let basic = &spec.basic;
    let Some(region) = catalog.region(&basic.region) else {
        return Message::new("event.catalog_changed#region").with("region", &basic.region);
    };
    let Some(cluster) = region.clusters.iter().find(|c| c.id == basic.cluster) else {
        return Message::new("event.catalog_changed#cluster").with("cluster", &basic.cluster);
    };
    if shared::quota::resolve_pool(spec, cluster).is_none() {
        if let Some(pool) = spec.compute.pool.as_deref().filter(|p| !p.is_empty()) {
            return Message::new("event.catalog_changed#pool").with("pool", pool);
        }
    } else if let Some(head) = spec.head_spec().filter(|id| cluster.spec(id).is_none()) {
        return Message::new("event.catalog_changed#spec").with("spec", head);
    } else if !spec.compute.specs.is_empty()
        && spec
            .compute
            .specs
            .iter()
            .all(|id| cluster.spec(id).is_none())
    {
        return Message::new("event.catalog_changed#spec")
            .with_list("spec", spec.compute.specs.clone());
    }
    Message::new("event.catalog_changed")
}

/// How many ports, from [`FIRST_PORT`], the local backend gives tasks' masters.
const PORTS: u64 = 10_000;
const FIRST_PORT: u64 = 20_000;

/// A port for a task's master that nothing on this machine holds now (another program,
/// another server's task): the next of the range after `next` that binds on every
/// address, IPv4's and IPv6's (a wildcard bind fails where any one address holds the
/// port; a machine without IPv6 refuses that one otherwise). A master that cannot bind
/// its port fails its task through no fault of its own.
fn master_port(next: &AtomicU64) -> u32 {
    use std::net::{Ipv4Addr, Ipv6Addr, TcpListener};
    let free = |port: u16| {
        // One at a time: IPv6's wildcard also takes IPv4's on a dual-stack machine.
        let v4 = TcpListener::bind((Ipv4Addr::UNSPECIFIED, port)).is_ok();
        v4 && match TcpListener::bind((Ipv6Addr::UNSPECIFIED, port)) {
            Ok(_) => true,
            Err(err) => err.kind() != std::io::ErrorKind::AddrInUse,
        }
    };
    let mut port = 0;
    for _ in 0..PORTS {
        port = FIRST_PORT + next.fetch_add(1, Ordering::Relaxed) % PORTS;
        if free(port as u16) {
            break;
        }
    }
    // Every port held: the last one tried, and the master says it cannot bind.
    port as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A task the changed catalog cannot run is told what is gone, by its id.
    #[test]
    fn what_the_catalog_no_longer_has_is_named() {
        let catalog = shared::demo::catalog();
        let said = |change: &dyn Fn(&mut shared::TaskSpec)| {
            let mut spec = shared::demo::pytorch();
            change(&mut spec);
            gone_from(&spec, &catalog).render(shared::Lang::En)
        };
        let spec = shared::demo::pytorch();
        assert!(
            said(&|s| s.basic.region = "mars".into())
                .starts_with("the catalog no longer has region mars,")
        );
        assert!(
            said(&|s| s.basic.cluster = "gone".into())
                .starts_with("the catalog no longer has cluster gone,")
        );
        assert!(
            said(&|s| s.compute.pool = Some("old-pool".into()))
                .starts_with("the catalog no longer has pool old-pool ")
        );
        assert_eq!(
            said(&|s| s.compute.specs = vec!["x1".into(), "x2".into()]),
            "this task's cluster no longer sells instance spec x1 and x2, so it can no longer run"
        );
        // One spec of the list still sold: not what stops it, so not named.
        let mut kept = spec.compute.specs.clone();
        kept.insert(0, "x1".into());
        assert!(said(&|s| s.compute.specs.clone_from(&kept)).contains("(its region, cluster"));
    }

    /// A port another program listens on is not given to a task's master (explorer: a
    /// task on 20000, held by another server's task, failed "Address already in use"),
    /// whichever address holds it (re-test: one held on ::1 only was given).
    #[test]
    fn a_master_port_held_on_the_machine_is_passed_by() {
        let next = AtomicU64::new(4_321);
        for address in ["127.0.0.1", "0.0.0.0", "::1", "::"] {
            // A port of the range that this test can hold: free now, then held.
            let held_port = master_port(&next);
            let Ok(held) = std::net::TcpListener::bind((address, held_port as u16)) else {
                // No IPv6 here.
                continue;
            };
            next.store(u64::from(held_port) - FIRST_PORT, Ordering::Relaxed);
            let given = master_port(&next);
            assert_ne!(given, held_port, "{address}");
            assert!((20_000..30_000).contains(&given), "{given}");
            std::net::TcpListener::bind(("0.0.0.0", given as u16)).expect("the port given is free");
            drop(held);
        }
        // The range wraps at its end.
        next.store(PORTS - 1, Ordering::Relaxed);
        let last = master_port(&next);
        assert!(last == 29_999 || last < 21_000, "{last}");
    }

    /// A placement of `workers` one-replica nodes `n0`, `n1`, … (two replicas on `n0`),
    /// with a head on `h` when `head`.
    fn placed(workers: usize, head: bool) -> Placement {
        Placement {
            user: "alice".into(),
            kind: shared::task::ResourceKind::OnDemand,
            pool: "p".into(),
            index: 0,
            spec: "a100-1g".into(),
            need: shared::Resources::new(1, 12, 120),
            workers: (0..workers)
                .map(|n| shared::quota::NodeShare {
                    node: format!("n{n}"),
                    replicas: if n == 0 { 2 } else { 1 },
                })
                .collect(),
            head: head.then(|| shared::quota::HeadPlacement {
                node: "h".into(),
                spec: "cpu-4c".into(),
                need: shared::Resources::new(0, 4, 16),
            }),
        }
    }

    /// Why a retry waits names the time it may start in UTC with its date (README, Running
    /// tasks): an API reader on another day or in another zone reads it right.
    #[test]
    fn a_retry_waits_until_a_utc_time_with_its_date() {
        let due = Timestamp(1_796_220_309_000); // 2026-12-02T14:05:09Z
        let waits = WhyItWaits::backing_off(due);
        assert_eq!(waits.retry_at, Some(due));
        assert_eq!(
            waits.reason.render(shared::Lang::En),
            "waiting before its retry: the next attempt starts at 2026-12-02 14:05:09 UTC at the earliest"
        );
        assert_eq!(
            waits.reason.render(shared::Lang::Zh),
            "重试前等待中：下次运行最早于 2026-12-02 14:05:09 UTC 开始"
        );
        // Just after midnight, the day after.
        assert_eq!(
            backing_off(Timestamp(1_796_256_000_999)).render(shared::Lang::En),
            "waiting before its retry: the next attempt starts at 2026-12-03 00:00:00 UTC at the earliest"
        );
    }

    /// The `admitted` event names where each replica runs (README, Running tasks): each
    /// node with its replicas, a distinct head apart, and past eight nodes a count, so a
    /// 256-node gang's event stays short; an event stored before names nothing, as then.
    #[test]
    fn the_admitted_event_names_the_nodes_a_head_apart_and_counts_past_eight() {
        let en = |m: &Message| m.render(shared::Lang::En);
        let zh = |m: &Message| m.render(shared::Lang::Zh);
        let two = where_it_runs(&placed(2, false));
        assert_eq!(en(&two), "n0 ×2, n1 ×1");
        let event = Message::new("event.admitted#placed")
            .with("attempt", 1)
            .with("nodes", 2)
            .with("spec", "a100-1g")
            .with_message("on", two);
        assert_eq!(
            en(&event),
            "attempt 1 on 2 nodes with a100-1g: n0 ×2, n1 ×1"
        );
        // Chinese joins the nodes as it joins a list, with 、 (README, Running tasks).
        assert_eq!(
            zh(&event),
            "第 1 次运行，使用 2 个节点，实例规格 a100-1g：n0 ×2、n1 ×1"
        );
        let one = Message::new("event.admitted#placed")
            .with("attempt", 2)
            .with("nodes", 1)
            .with("spec", "a100-1g")
            .with_message("on", where_it_runs(&placed(1, false)));
        assert_eq!(en(&one), "attempt 2 on 1 node with a100-1g: n0 ×2");
        // Idle capacity's nodes by their offer, not by the names Berth keeps their use
        // under (explorer, round 4: `idle/sh-a/0/0`).
        let mut idle = placed(2, true);
        idle.workers[0].node = "idle/sh-a/0/0".into();
        idle.workers[1].node = "idle/sh-a/0/2".into();
        if let Some(head) = idle.head.as_mut() {
            head.node = "idle/sh-a/1/0".into();
        }
        assert_eq!(
            en(&where_it_runs(&idle)),
            "the head on node 1 of idle offer 2 in sh-a; workers on node 1 of idle offer 1 in sh-a ×2, node 3 of idle offer 1 in sh-a ×1"
        );
        assert_eq!(
            zh(&where_it_runs(&idle)),
            "Head 位于 集群 sh-a 第 2 项闲时资源中的第 1 个节点；Worker 位于 集群 sh-a 第 1 项闲时资源中的第 1 个节点 ×2、集群 sh-a 第 1 项闲时资源中的第 3 个节点 ×1"
        );

        // As the store keeps it: its nested list reads back.
        let json = serde_json::to_string(&event).expect("a message is strings in maps");
        let kept: Message = serde_json::from_str(&json).expect("reads back");
        assert_eq!(kept, event);

        let big = where_it_runs(&placed(256, true));
        assert_eq!(
            en(&big),
            "the head on h; workers on n0 ×2, n1 ×1, n2 ×1, n3 ×1, n4 ×1, n5 ×1, n6 ×1, n7 ×1 and 248 more nodes"
        );
        assert_eq!(
            zh(&big),
            "Head 位于 h；Worker 位于 n0 ×2、n1 ×1、n2 ×1、n3 ×1、n4 ×1、n5 ×1、n6 ×1、n7 ×1，另有 248 个节点"
        );
        assert!(en(&where_it_runs(&placed(9, false))).ends_with("n7 ×1 and 1 more node"));
        assert_eq!(en(&where_it_runs(&placed(0, true))), "the head on h");
        assert_eq!(
            en(&where_it_runs(&placed(1, true))),
            "the head on h; workers on n0 ×2"
        );

        let stored_before = Message::new("event.admitted")
            .with("attempt", 1)
            .with("nodes", 2)
            .with("spec", "a100-1g");
        assert_eq!(en(&stored_before), "attempt 1 on 2 nodes with a100-1g");
        // One stored with its nodes joined as text reads as it was written, in Chinese too.
        let joined_before = Message::new("event.admitted#placed")
            .with("attempt", 1)
            .with("nodes", 2)
            .with("spec", "a100-1g")
            .with_message(
                "on",
                Message::new("event.admitted.on").with("workers", "n0 ×2, n1 ×1"),
            );
        assert_eq!(
            zh(&joined_before),
            "第 1 次运行，使用 2 个节点，实例规格 a100-1g：n0 ×2, n1 ×1"
        );
        assert_eq!(
            en(&joined_before),
            "attempt 1 on 2 nodes with a100-1g: n0 ×2, n1 ×1"
        );
    }

    /// What a server heard is read back from the `exited` events it wrote: each
    /// replica's first of the attempt asked for, with how and when it ended; not the
    /// note that every replica ended while the server was stopped, nor another attempt's.
    #[test]
    fn heard_exits_read_back_what_the_exited_events_say() {
        let exited = |at, attempt, replica, code, signal| {
            let said = exited_message(attempt, replica, how_it_ended(code, signal));
            TaskEvent::keyed(Timestamp(at), event_kind::EXITED, said)
        };
        let ended = Message::new("event.server_stopped#ended").with("attempt", 2);
        let events = [
            exited(1, 1, 0, Some(3), None),
            exited(2, 2, 1, None, Some(9)),
            TaskEvent::keyed(Timestamp(3), event_kind::EXITED, ended),
            exited(4, 2, 0, Some(0), None),
            exited(5, 2, 2, None, None),
            exited(6, 2, 0, Some(1), None),
        ];
        let heard = |replica, code, signal, at| Exit {
            replica,
            code,
            signal,
            at: Timestamp(at),
            heard: true,
        };
        assert_eq!(
            heard_exits(&events, 2),
            [
                heard(1, None, Some(9), 2),
                heard(0, Some(0), None, 4),
                heard(2, None, None, 5),
            ]
        );
        assert_eq!(heard_exits(&events, 3), []);
    }
}
