//! Wire types of the HTTP API (`/api/v1`), shared by the server and the console.

use crate::messages::{Arg, Message};
use crate::record::TaskPhase;
use crate::validate::LocalizedIssue;
use serde::{Deserialize, Serialize};

/// The body of every 4xx and 5xx answer: an RFC 9457 problem detail, sent as
/// `application/problem+json`, with Berth's own members.
///
/// `code` is stable (`spec.invalid`, `body.too_large`, `internal`, …); `issues` lists
/// field findings when the request had any.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// The problem type: a URI, or `about:blank` when `title` is the HTTP status phrase.
    #[serde(rename = "type", default = "about_blank")]
    pub kind: String,
    /// Short summary: the HTTP status phrase (`Unprocessable Entity`).
    #[serde(default)]
    pub title: String,
    /// The HTTP status code, repeated.
    #[serde(default)]
    pub status: u16,
    /// What went wrong and what to do, in English.
    pub detail: String,
    /// Stable error code.
    pub code: String,
    /// Findings by field, when the error is about the spec, with messages in the
    /// reader's language.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub issues: Vec<LocalizedIssue>,
    /// How many findings were left out of `issues`: at most 20 of one code at one field
    /// are kept.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub truncated: usize,
    /// Where in the body the problem is (malformed JSON, duplicate key): 1-based line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Where in the body the problem is: 1-based column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

/// An answer keeps at most this many findings of one code at one field (list positions
/// aside, see [`crate::validate::cap_findings`]); the rest are counted in `truncated`,
/// so an answer never grows far beyond its request.
pub const MAX_FINDINGS_PER_CODE: usize = 20;

fn about_blank() -> String {
    "about:blank".to_owned()
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn none(n: &u32) -> bool {
    *n == 0
}

/// `GET /healthz`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    /// Always `ok` when the server answers.
    pub status: String,
    /// Server version.
    pub version: String,
}

/// `POST /api/v1/validate` answers with the findings, in the reader's language, and the plan.
pub type ValidateResponse = crate::validate::LocalizedCheck;

/// `GET /api/v1/catalog`: the catalog as the user may see it, and who they are.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatalogResponse {
    /// The signed-in user.
    pub user: crate::User,
    /// The catalog as this user may see it: their project groups, their quotas and their
    /// persistent env vars.
    pub catalog: crate::Catalog,
    /// Live usage: node allocations and the user's own quota lines.
    #[serde(default)]
    pub usage: crate::usage::Usage,
    /// What is used on the catalog's nodes outside Berth (other pods of the cluster), and
    /// of the user's quota lines outside Berth's tasks: what would be taken with none of
    /// Berth's tasks running. A plan that would queue on it alone waits for capacity
    /// Berth cannot free.
    #[serde(default)]
    pub outside: crate::usage::Usage,
    /// The tasks the queue keeps room for, passed over too often, in queue order, by
    /// their pool and the room they could use (not their ids): a task behind one that would start on its room waits for
    /// it (README, "Queue order"), as the create form's plan says before the submit.
    /// Told by the server that keeps the queue (the one that leads); empty otherwise.
    #[cfg(feature = "queue")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<crate::quota::HeldRoom>,
    /// Whether a RayJob runs on a Ray cluster here (KubeRay). The local backend runs its
    /// entrypoint alone, so debug mode keeps nothing; absent means a cluster.
    #[serde(default = "offered")]
    pub ray_clusters: bool,
    /// Whether this server sends alert emails (a mail relay is set up); absent means it
    /// does. Without one an email subscription is recorded as not sent.
    #[serde(default = "offered")]
    pub email_alerts: bool,
}

/// The default of the server's capabilities: a server that does not say has them.
fn offered() -> bool {
    true
}

/// `GET /api/v1/examples`: complete specs that pass every rule on the server's catalog,
/// for the console's "start from an example".
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Examples {
    /// A PyTorchJob.
    pub pytorch: crate::TaskSpec,
    /// A RayJob.
    pub ray: crate::TaskSpec,
}

/// A task as the API shows it: the record (its spec with hidden values masked unless
/// the caller owns it), its tags now, where it runs and why it waits.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskView {
    /// The record.
    #[serde(flatten)]
    pub task: crate::Task,
    /// Its tags now (editable after submit).
    pub tags: Vec<crate::task::Tag>,
    /// Where its replicas run, while it holds nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<crate::Placement>,
    /// Why it waits, in the findings' words and the reader's language (`?lang=` or
    /// `Accept-Language`), while it is queued, or retrying and waiting for its next
    /// attempt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// While it waits out the backoff before a retry, when its next attempt may start at
    /// the earliest (`reason` says it too, in UTC), for a reader to show in its own zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_at: Option<crate::Timestamp>,
    /// The replicas whose logs `GET /tasks/{id}/logs` reads on this server, by what
    /// they run; in a task's own answers, not in the list's rows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub logs: Vec<LogReplica>,
    /// While a stop is under way, when it was asked: a user asked to stop the current
    /// attempt (its `stopping` event) and the task runs on until its replicas have ended
    /// (SIGTERM, then SIGKILL after the grace period; on Kubernetes, the job's delete).
    /// Absent otherwise: a stop of an earlier attempt does not count, and it goes when
    /// the task ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopping_since: Option<crate::Timestamp>,
    /// While it is failed, or waits for its retry, the replica whose end failed its last
    /// attempt (its `reason` names it): the log to read first. Absent for other ends (a deadline, a start
    /// that failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_replica: Option<u32>,
    /// While it waits for an earlier task that was passed over too often to start first,
    /// that task (its `reason` names it): for a reader to go to it. Only to a reader who
    /// may see that task: absent otherwise, and in a share link's view, whose `reason`
    /// then says "a task ahead in the queue".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waits_behind: Option<crate::TaskId>,
    /// The task it was made from by a resubmit or a clone, as its submit said: for a
    /// reader to go back to it (which may have been deleted since). Told to the task's
    /// owner and, in the task's own answers, to readers who may see that task; not to
    /// others, in a list's rows or a share link's view; absent too for a task made from a
    /// spec of its own, and for tasks stored before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made_from: Option<MadeFrom>,
    /// Of its `attempts`, those begun again because the server stopped while one ran or
    /// started: not the task's own failures, so not among the retries its fault
    /// tolerance allows. Absent when none.
    #[serde(default, skip_serializing_if = "none")]
    pub reruns: u32,
    /// The retries of its own failures its fault tolerance has made: begun, or asked and
    /// waiting (not one the task ended in). Absent when none.
    #[serde(default, skip_serializing_if = "none")]
    pub retries_used: u32,
    /// It ended while the last attempt it asked for (its latest `retrying` event) waited
    /// to begin, a stop in a retry's wait: that attempt never ran. Absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub last_never_ran: bool,
    /// While it runs, how long each replica of its running attempt has written nothing
    /// to its log, as the server read it: a hung rank told from ranks that print. Where
    /// the logs are the server's own files (the local backend); absent elsewhere, and in
    /// a list's rows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quiet: Vec<ReplicaQuiet>,
    /// Each attempt a replica's end failed, and that replica, from its history: the log
    /// to read first of an earlier attempt too (`failed_replica` is the last's). In a
    /// task's own answers, not in the list's rows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attempt_failures: Vec<AttemptFailure>,
    /// While a replica's failure ends its running attempt, the others being stopped (for
    /// up to the grace period), that failure in the reader's language: the phase reads
    /// running until they have ended, and `failed_replica` names the replica. Told by the
    /// server that runs the attempt; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failing: Option<String>,
    /// While it waits in the queue (not out a retry's backoff), how many tasks wait ahead
    /// of it in its pool: higher priority, then submitted before it; other pools' tasks
    /// take none of its room. The queue's order, not a promise: a task behind that fits
    /// may start first. Told by the server that keeps the queue (the one that leads);
    /// absent otherwise, and in a list's rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_ahead: Option<u32>,
    /// While it waits in the queue, passed over too often: the queue keeps the room it
    /// can start on, and tasks behind it in its pool do not take it (the catalog's `held`
    /// lists that room). Told as `queue_ahead` is; absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub room_kept: bool,
}

/// The replica whose end failed an attempt.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttemptFailure {
    /// The attempt, from 1.
    pub attempt: u32,
    /// The replica, as `logs` numbers it.
    pub replica: u32,
}

/// How long a replica has written nothing to its log.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplicaQuiet {
    /// The replica, as `logs` numbers it.
    pub replica: u32,
    /// Seconds since its log last grew (since it started, for a log still empty).
    pub secs: u64,
    /// Its log is empty: it has written nothing since it started.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub empty: bool,
}

/// The task a task was made from, and how.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MadeFrom {
    /// Its id (its final name).
    pub task: crate::TaskId,
    /// How it was made.
    pub how: MadeHow,
}

/// How a task was made from another.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MadeHow {
    /// `POST /tasks/{id}/resubmit`: the same spec, submitted again by its owner.
    Resubmit,
    /// `POST /tasks?from={id}`: a spec its submitter started from the task's (the
    /// console's Clone), edited or not.
    Clone,
}

/// What a replica runs, for the task page's log picker.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplicaRole {
    /// A PyTorchJob's master.
    Master,
    /// A worker (of either type).
    Worker,
    /// A RayJob's head.
    Head,
    /// A RayJob's submitter: its log is the entrypoint's output.
    Submitter,
}

/// A replica whose log can be read: `replica` of `GET /tasks/{id}/logs`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogReplica {
    /// The number to ask for.
    pub replica: u32,
    /// What it runs.
    pub role: ReplicaRole,
}

/// The replicas whose logs a server keeps for a task, in the order the task page lists
/// them. A PyTorchJob: its master (0), then its workers. A RayJob on a Ray cluster
/// (`ray_cluster`: KubeRay): its submitter (0), whose log is the entrypoint's output,
/// its head (1), then its workers, as many as autoscaling may start. A RayJob where no
/// cluster runs (the local backend): the entrypoint alone (0), run as the submitter.
pub fn log_replicas(spec: &crate::TaskSpec, ray_cluster: bool) -> Vec<LogReplica> {
    let at = |replica: u32, role| LogReplica { replica, role };
    if spec.basic.task_type != Some(crate::TaskType::RayJob) {
        let workers = (1..=spec.compute.workers).map(|i| at(i, ReplicaRole::Worker));
        return std::iter::once(at(0, ReplicaRole::Master))
            .chain(workers)
            .collect();
    }
    if !ray_cluster {
        return vec![at(0, ReplicaRole::Submitter)];
    }
    let autoscaling = &spec.ray.autoscaling;
    let workers = if autoscaling.enabled {
        spec.compute.workers.max(autoscaling.max_workers)
    } else {
        spec.compute.workers
    };
    [at(0, ReplicaRole::Submitter), at(1, ReplicaRole::Head)]
        .into_iter()
        .chain((0..workers).map(|i| at(i + 2, ReplicaRole::Worker)))
        .collect()
}

/// `message` as a reader is told it: each replica an end names by number (`event.exited`,
/// `event.replica_ended`, also within "attempt 1 failed (…)") named by its role too, in
/// their `#role` forms, as the task page's log picker names it: "replica 1 (worker 0)",
/// not a number to count out; and an exit code a shell or the kernel gives a meaning
/// (126, 127, 137, 139; signals 6, 9, 11, 15) said with it: "exit code 127 (command not found)" (explorer: a
/// failure gave no hint of what to do next). Done as it is read: the stored message keeps
/// the number alone, which the runner reads back, as the server's `ended_replica` does. A
/// replica `logs` does not list stays a number.
pub fn as_read(message: &Message, logs: &[LogReplica]) -> Message {
    let mut shown = message.clone();
    explain(&mut shown, logs);
    shown
}

fn explain(message: &mut Message, logs: &[LogReplica]) {
    for arg in message.args.values_mut() {
        if let Arg::Message(inner) = arg {
            explain(inner, logs);
        }
    }
    if message.key == "event.how.code" {
        if let Some(Arg::Text(code)) = message.args.get("code")
            && matches!(code.as_str(), "126" | "127" | "137" | "139")
        {
            message.key = format!("event.how.code#{code}");
        }
        return;
    }
    // The same ends as the local backend hears them, from the signal (ops explorer: an
    // out-of-memory kill read "signal 9" with no word of what it means), said with the
    // exit code a shell and Kubernetes give for it, which is what people search for
    // (failure explorer: "137" was nowhere).
    if message.key == "event.how.signal" {
        if let Some(Arg::Text(signal)) = message.args.get("signal") {
            if signal == "9" && message.args.contains_key("after") {
                // Berth's own, after a stop's grace.
                message.key = "event.how.signal#9_berth".to_owned();
            } else if matches!(signal.as_str(), "6" | "9" | "11" | "15") {
                message.key = format!("event.how.signal#{signal}");
            }
            // Said by the runner since; filled in for ends recorded before.
            if !message.args.contains_key("code") {
                let code = signal
                    .parse::<u32>()
                    .ok()
                    .and_then(|n| n.checked_add(128))
                    .map_or_else(|| "?".to_owned(), |n| n.to_string());
                message.args.insert("code".to_owned(), Arg::Text(code));
            }
        }
        return;
    }
    if !matches!(message.key.as_str(), "event.exited" | "event.replica_ended") {
        return;
    }
    let role = match message.args.get("replica") {
        Some(Arg::Text(n)) => n.parse().ok().and_then(|n| replica_role(n, logs)),
        _ => None,
    };
    if let Some(role) = role {
        // Its own key rather than "{n} ({role})" in the number's place: Chinese spaces
        // 已结束 from a number, not from a full-width bracket (副本 1（工作节点 0）已结束).
        message.key.push_str("#role");
        message.args.insert("role".to_owned(), Arg::Message(role));
    }
}

/// The role of `replica` in the words of the log picker (`replica_labels` in the
/// console): workers counted from 0 in the order `logs` lists them, a RayJob's in Ray's
/// words.
fn replica_role(replica: u32, logs: &[LogReplica]) -> Option<Message> {
    let at = logs.iter().position(|l| l.replica == replica)?;
    Some(match logs[at].role {
        ReplicaRole::Master => Message::new("event.replica_role.master"),
        ReplicaRole::Head => Message::new("event.replica_role.head"),
        // Alone, run by a server without a Ray cluster: the entrypoint, as the log
        // picker says it (recheck: "submitter" there, "the entrypoint's output" here).
        ReplicaRole::Submitter if logs.len() == 1 => {
            Message::new("event.replica_role.submitter#alone")
        }
        ReplicaRole::Submitter => Message::new("event.replica_role.submitter"),
        ReplicaRole::Worker => {
            let pytorch = logs.iter().any(|l| l.role == ReplicaRole::Master);
            let key = if pytorch {
                "event.replica_role.worker"
            } else {
                "event.replica_role.worker#ray"
            };
            let before = logs[..at]
                .iter()
                .filter(|l| l.role == ReplicaRole::Worker)
                .count();
            Message::new(key).with("i", before)
        }
    })
}

/// `GET /api/v1/tasks`: one page, newest first.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskPage {
    /// The tasks.
    pub tasks: Vec<TaskView>,
    /// Pass as `cursor` for the next page; absent on the last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// `GET /api/v1/tasks/counts`: how many tasks of each phase the list's filters select
/// (the phase aside), for the numbers of its phase chips.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseCounts {
    /// Queued.
    pub queued: u64,
    /// Scheduling.
    pub scheduling: u64,
    /// Running.
    pub running: u64,
    /// Waiting to run again.
    pub retrying: u64,
    /// Succeeded.
    pub succeeded: u64,
    /// Failed.
    pub failed: u64,
    /// Stopped.
    pub stopped: u64,
}

impl PhaseCounts {
    /// The count of `phase` (none are listed deleted).
    pub fn of(&self, phase: TaskPhase) -> u64 {
        match phase {
            TaskPhase::Queued => self.queued,
            TaskPhase::Scheduling => self.scheduling,
            TaskPhase::Running => self.running,
            TaskPhase::Retrying => self.retrying,
            TaskPhase::Succeeded => self.succeeded,
            TaskPhase::Failed => self.failed,
            TaskPhase::Stopped => self.stopped,
            TaskPhase::Deleted => 0,
        }
    }

    /// Counts `n` more of `phase`.
    pub fn add(&mut self, phase: TaskPhase, n: u64) {
        let count = match phase {
            TaskPhase::Queued => &mut self.queued,
            TaskPhase::Scheduling => &mut self.scheduling,
            TaskPhase::Running => &mut self.running,
            TaskPhase::Retrying => &mut self.retrying,
            TaskPhase::Succeeded => &mut self.succeeded,
            TaskPhase::Failed => &mut self.failed,
            TaskPhase::Stopped => &mut self.stopped,
            TaskPhase::Deleted => return,
        };
        *count += n;
    }

    /// Every task counted.
    pub fn total(&self) -> u64 {
        self.queued
            + self.scheduling
            + self.running
            + self.retrying
            + self.succeeded
            + self.failed
            + self.stopped
    }
}

/// Something that happened to a task.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskEventView {
    /// When.
    pub at: crate::Timestamp,
    /// A short stable code (`queued`, `admitted`, `started`, `exited`, `retrying`,
    /// `failed`, `stopped`, `succeeded`).
    pub kind: String,
    /// What happened, in the reader's language (`?lang=` or `Accept-Language`); an
    /// event recorded before events were keyed keeps its English text.
    pub message: String,
}

/// A read-only link to a task: what `POST /api/v1/tasks/{id}/share` makes, and each of
/// the links `GET /api/v1/tasks/{id}/share` lists for the task's owner.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareLink {
    /// The token.
    pub token: String,
    /// Where the shared view is, `/api/v1/shared/{token}`.
    pub path: String,
    /// Its number on the task, from 1 in the order the task's links were made, never
    /// reused: what `DELETE /api/v1/tasks/{id}/share/{link}` revokes it by.
    pub link: u32,
    /// When it was made.
    pub created_at: crate::Timestamp,
    /// Who made it.
    pub created_by: String,
}

/// `PATCH /api/v1/tasks/{id}/tags`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TagsBody {
    /// The tags the task should have.
    pub tags: Vec<crate::task::Tag>,
    /// The tags the caller last read: when given, the tags are replaced only if the task
    /// still has these (in this order), else nothing changes and the answer is 409
    /// `task.tags_changed`, so a save never drops tags set elsewhere unseen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Vec<crate::task::Tag>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::parse_spec;

    /// Replica `replica`'s end, by exit code `code`, as the runner stores it.
    fn ended(replica: u32, code: u32) -> Message {
        Message::new("event.replica_ended")
            .with("replica", replica)
            .with_message("how", Message::new("event.how.code").with("code", code))
    }

    fn example(text: &str, workers: u32) -> crate::TaskSpec {
        let mut spec = parse_spec(text).expect("reads");
        spec.compute.workers = workers;
        spec.ray.autoscaling.enabled = false;
        spec
    }

    /// Brief (exploratory test): an end named its replica by number alone ("replica 1
    /// ended with exit code 3") where the log picker names it "1: worker 0", and a reader
    /// counted to tell which role failed. It names the role too, in the picker's words,
    /// inside the reasons that quote it as well.
    #[test]
    fn an_end_names_its_replicas_role_as_the_log_picker_does() {
        use crate::Lang;
        let exited = |replica: u32| {
            Message::new("event.exited")
                .with("attempt", 1)
                .with("replica", replica)
                .with_message("how", Message::new("event.how.code").with("code", 3))
        };
        let pytorch = example(include_str!("../examples/pytorch.json"), 2);
        let logs = log_replicas(&pytorch, false);
        let said = |message: &Message, lang| as_read(message, &logs).render(lang);
        let last = Message::new("event.failed#after_retries")
            .with("attempts", 2)
            .with_message("reason", ended(2, 3));
        assert_eq!(
            said(&last, Lang::En),
            "after 2 attempts; the last: replica 2 (worker 1) ended with exit code 3"
        );
        assert_eq!(
            said(&last, Lang::Zh),
            "共运行 2 次，最后一次：副本 2（工作节点 1）已结束，退出码 3"
        );
        assert_eq!(
            said(&exited(0), Lang::En),
            "attempt 1: replica 0 (master) ended with exit code 3"
        );
        assert_eq!(
            said(&exited(0), Lang::Zh),
            "第 1 次运行：副本 0（主节点）已结束，退出码 3"
        );
        // A number past the task's replicas is not given a role it does not have.
        assert_eq!(
            said(&ended(3, 3), Lang::En),
            "replica 3 ended with exit code 3"
        );
        // A RayJob on a Ray cluster: the submitter, the head, then workers from 0, in
        // Ray's words as the seeds keep them.
        let ray = example(include_str!("../examples/ray.json"), 2);
        let logs = log_replicas(&ray, true);
        let said = |message: &Message, lang| as_read(message, &logs).render(lang);
        for (replica, en, zh) in [
            (0, "submitter", "Submitter"),
            (1, "head", "Head"),
            (2, "worker 0", "Worker 0"),
            (3, "worker 1", "Worker 1"),
        ] {
            assert_eq!(
                said(&ended(replica, 3), Lang::En),
                format!("replica {replica} ({en}) ended with exit code 3")
            );
            assert_eq!(
                said(&ended(replica, 3), Lang::Zh),
                format!("副本 {replica}（{zh}）已结束，退出码 3")
            );
        }
    }

    /// An exit code with a meaning is said with it, wherever an end is quoted; another is
    /// its number alone (explorer: "exit code 127" gave no hint of what to do next).
    #[test]
    fn an_exit_code_with_a_meaning_is_said_with_it() {
        use crate::Lang;
        let pytorch = parse_spec(include_str!("../examples/pytorch.json")).expect("reads");
        let logs = log_replicas(&pytorch, false);
        let said = |message: &Message, lang| as_read(message, &logs).render(lang);
        assert_eq!(
            said(&ended(1, 127), Lang::En),
            "replica 1 (worker 0) ended with exit code 127 (command not found)"
        );
        assert_eq!(
            said(&ended(1, 127), Lang::Zh),
            "副本 1（工作节点 0）已结束，退出码 127（找不到命令）"
        );
        let retried = Message::new("event.failed").with_message("reason", ended(1, 137));
        assert_eq!(
            said(&retried, Lang::En),
            "replica 1 (worker 0) ended with exit code 137 (killed, most often for running out of memory)"
        );
        // The same ends heard as signals, as the local backend hears them.
        let signal = |n: u32| {
            Message::new("event.replica_ended")
                .with("replica", 1)
                .with_message("how", Message::new("event.how.signal").with("signal", n))
        };
        assert_eq!(
            said(&signal(9), Lang::En),
            "replica 1 (worker 0) ended with exit code 137 (signal 9, killed: most often for running out of memory)"
        );
        assert_eq!(
            said(&signal(11), Lang::Zh),
            "副本 1（工作节点 0）已结束，退出码 139（信号 11，段错误）"
        );
        assert_eq!(
            said(&signal(1), Lang::En),
            "replica 1 (worker 0) ended with exit code 129 (signal 1)"
        );
        assert_eq!(
            said(&ended(1, 3), Lang::En),
            "replica 1 (worker 0) ended with exit code 3"
        );
    }

    fn roles(logs: &[LogReplica]) -> Vec<(u32, ReplicaRole)> {
        logs.iter().map(|l| (l.replica, l.role)).collect()
    }

    #[test]
    fn the_logs_are_listed_as_each_backend_numbers_its_replicas() {
        use ReplicaRole::*;
        // A PyTorchJob: the master, then its workers (`workers` counts those beside
        // the master).
        let pytorch = parse_spec(include_str!("../examples/pytorch.json")).expect("reads");
        let expected: Vec<(u32, ReplicaRole)> = std::iter::once((0, Master))
            .chain((1..=pytorch.compute.workers).map(|i| (i, Worker)))
            .collect();
        assert_eq!(roles(&log_replicas(&pytorch, true)), expected);
        assert_eq!(roles(&log_replicas(&pytorch, false)), expected);

        // The Ray example: 2 workers, autoscaling up to 4. KubeRay's pods: the
        // submitter, the head, then up to 4 workers (kube.rs numbers them so).
        let mut ray = parse_spec(include_str!("../examples/ray.json")).expect("reads");
        assert_eq!(
            roles(&log_replicas(&ray, true)),
            [
                (0, Submitter),
                (1, Head),
                (2, Worker),
                (3, Worker),
                (4, Worker),
                (5, Worker)
            ]
        );
        ray.ray.autoscaling.enabled = false;
        assert_eq!(
            roles(&log_replicas(&ray, true)),
            [(0, Submitter), (1, Head), (2, Worker), (3, Worker)]
        );
        // The local backend runs the entrypoint alone.
        assert_eq!(roles(&log_replicas(&ray, false)), [(0, Submitter)]);
    }
}
