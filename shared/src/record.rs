//! The task as the store keeps it and the console shows it: its id, its lifecycle
//! phases (SPEC.md section 7) and the record, shared by the server and the console.
//!
//! Times are passed in ([`Timestamp`]): this crate reads no clock.

use crate::task::TaskSpec;
use crate::validate::Validated;
use serde::{Deserialize, Serialize};

/// A task's id: its final name, `<name prefix>-<5 characters>`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TaskId(pub String);

impl std::fmt::Display for TaskId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Milliseconds since the Unix epoch. The crate reads no clock: callers pass times in.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Timestamp(pub i64);

/// Where a task is in its lifecycle (SPEC.md section 7).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskPhase {
    /// Accepted, quota reserved, waiting for the whole gang to fit [排队中].
    Queued,
    /// Placed; its pods are being created.
    Scheduling,
    /// Every replica runs [运行中].
    Running,
    /// An attempt failed and fault tolerance starts another.
    Retrying,
    /// Finished well [成功].
    Succeeded,
    /// Finished badly, after any retries [失败].
    Failed,
    /// Stopped by a user [已停止].
    Stopped,
    /// Removed from lists; kept for audit.
    Deleted,
}

impl TaskPhase {
    /// Whether the task has ended (its capacity is free again).
    pub fn is_finished(self) -> bool {
        matches!(
            self,
            TaskPhase::Succeeded | TaskPhase::Failed | TaskPhase::Stopped | TaskPhase::Deleted
        )
    }

    /// Whether a task in this phase may move to `next`.
    pub fn can_become(self, next: TaskPhase) -> bool {
        use TaskPhase::*;
        match (self, next) {
            (Queued, Scheduling | Stopped | Failed | Deleted) => true,
            // A placement can be lost before the pods start: back to the queue. An
            // attempt that failed before it ran waits for its retry as one that ran does
            // (review: without the arrow, a retry that waited failed the task).
            (Scheduling, Queued | Running | Retrying | Failed | Stopped) => true,
            // Back to waiting for admission: Kueue evicted the running job and requeued it,
            // the same attempt.
            (Running, Scheduling | Succeeded | Failed | Stopped | Retrying) => true,
            (Retrying, Queued | Scheduling | Failed | Stopped) => true,
            (Succeeded | Failed | Stopped, Deleted) => true,
            _ => false,
        }
    }
}

/// One step of a task's timeline.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseChange {
    /// The phase entered.
    pub phase: TaskPhase,
    /// When.
    pub at: Timestamp,
    /// Why, in the findings' words ("the largest free node has 4 GPUs; one
    /// replica needs 8"); empty when the step explains itself. The API renders it in
    /// the reader's language from `keyed`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// The reason as a catalog message, when Berth wrote it: `reason` is its English
    /// text, and the server renders it in each reader's language. Kept off the wire,
    /// where `reason` is already in the reader's language.
    #[serde(skip)]
    pub keyed: Option<crate::messages::Message>,
}

/// A task as the store keeps it and the console shows it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Task {
    /// Its id, which is also its final name.
    pub id: TaskId,
    /// Who submitted it.
    pub owner: String,
    /// The spec as submitted, normalised.
    pub spec: TaskSpec,
    /// The phase now.
    pub phase: TaskPhase,
    /// Attempts started so far (1 for the first run).
    pub attempts: u32,
    /// When it was submitted.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
    /// Every phase it went through, oldest first.
    pub history: Vec<PhaseChange>,
}

/// A phase change that the lifecycle does not allow.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a {from:?} task cannot become {to:?}")]
pub struct PhaseError {
    /// The phase the task is in.
    pub from: TaskPhase,
    /// The phase asked for.
    pub to: TaskPhase,
}

/// The last step of `history` that is not a wait for a run to start (queued,
/// scheduling): how the last run ended, or that it runs. A retry queued for room after
/// its backoff still has its `Retrying` step here; a task that never ran has none.
pub fn last_outcome(history: &[PhaseChange]) -> Option<&PhaseChange> {
    history
        .iter()
        .rev()
        .find(|change| !matches!(change.phase, TaskPhase::Queued | TaskPhase::Scheduling))
}

impl Task {
    /// A task just accepted: queued, no attempt yet.
    pub fn queued(id: TaskId, owner: String, spec: Validated<TaskSpec>, at: Timestamp) -> Self {
        Task {
            id,
            owner,
            spec: spec.into_inner(),
            phase: TaskPhase::Queued,
            attempts: 0,
            created_at: at,
            updated_at: at,
            history: vec![PhaseChange {
                phase: TaskPhase::Queued,
                at,
                reason: String::new(),
                keyed: None,
            }],
        }
    }

    /// Moves the task to `next`, recording when and why; starting to schedule counts
    /// an attempt.
    ///
    /// # Errors
    ///
    /// [`PhaseError`] when the lifecycle does not allow the step; the task is unchanged.
    pub fn advance(
        &mut self,
        next: TaskPhase,
        at: Timestamp,
        reason: impl Into<String>,
    ) -> Result<(), PhaseError> {
        if !self.phase.can_become(next) {
            return Err(PhaseError {
                from: self.phase,
                to: next,
            });
        }
        if next == TaskPhase::Scheduling {
            self.attempts += 1;
        }
        self.phase = next;
        self.updated_at = at;
        self.history.push(PhaseChange {
            phase: next,
            at,
            reason: reason.into(),
            keyed: None,
        });
        Ok(())
    }

    /// How long its replicas have run, every attempt's run added up (from each step
    /// into running to the step after it, the run going on counted to `now`): what a
    /// reader comparing tasks means by how long one took, its waits in the queue and
    /// between retries left out. `None` for a task that has not run.
    pub fn ran_for(&self, now: Timestamp) -> Option<i64> {
        let mut ran = None;
        for (i, change) in self.history.iter().enumerate() {
            if change.phase != TaskPhase::Running {
                continue;
            }
            let end = match self.history.get(i + 1) {
                Some(next) => next.at,
                None if self.phase == TaskPhase::Running => now,
                None => continue,
            };
            *ran.get_or_insert(0) += (end.0 - change.at.0).max(0);
        }
        ran
    }

    /// How its attempts after the first came about, read from its history: the retries
    /// of its own failures and the re-runs after a server stop (a step into retrying, or
    /// back to the queue, keyed [`RERUN`] or [`REQUEUED`]). SPEC's retries are for the
    /// task's own failures: re-runs count as attempts, not retries. Each is counted once
    /// its attempt has begun; a retry its step asked for is counted while it waits too,
    /// unless the task has ended meanwhile (stopped in its wait: it never ran). Tasks
    /// stored before an attempt that failed before it ran could step into retrying have
    /// no such step for it: its retry counts once it begins.
    pub fn runs_again(&self) -> RunsAgain {
        let mut runs = RunsAgain::default();
        let mut begun = 0_u32;
        let mut before = None;
        for change in &self.history {
            let restart = change
                .keyed
                .as_ref()
                .is_some_and(|m| m.key == RERUN || m.key == REQUEUED || m.key == REQUEUED_BEFORE);
            match change.phase {
                TaskPhase::Retrying | TaskPhase::Queued if restart => {
                    runs.waiting = Some(RunAgain::Rerun);
                }
                TaskPhase::Retrying => runs.waiting = Some(RunAgain::Retry),
                TaskPhase::Scheduling if begins_attempt(before) => {
                    begun += 1;
                    match runs.waiting.take() {
                        _ if begun == 1 => {}
                        Some(RunAgain::Rerun) => runs.reruns += 1,
                        _ => runs.retries += 1,
                    }
                }
                _ => {}
            }
            before = Some(change.phase);
        }
        if self.phase.is_finished() {
            runs.never_begun = runs.waiting.take().is_some();
        }
        if runs.waiting == Some(RunAgain::Retry) {
            runs.retries += 1;
        }
        runs
    }

    /// Whether it is starting an attempt: scheduling, and not a running attempt that
    /// Kueue evicted and waits to admit again.
    pub fn starting(&self) -> bool {
        let mut steps = self.history.iter().rev();
        self.phase == TaskPhase::Scheduling
            && steps.next().is_some()
            && begins_attempt(steps.next().map(|c| c.phase))
    }
}

/// Whether a step into scheduling from `before` begins an attempt: not when Kueue
/// admits again a running attempt it evicted, which goes on as the same attempt.
pub fn begins_attempt(before: Option<TaskPhase>) -> bool {
    before != Some(TaskPhase::Running)
}

/// An attempt a task waits to begin ([`RunsAgain::waiting`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunAgain {
    /// A retry of its own failure.
    Retry,
    /// A re-run after the server stopped while one ran or started.
    Rerun,
}

/// How a task's attempts after its first came about ([`Task::runs_again`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunsAgain {
    /// Retries of its own failures, begun or waiting.
    pub retries: u32,
    /// Attempts begun again after the server stopped while one ran or started.
    pub reruns: u32,
    /// The attempt asked for and not yet begun, while the task has not ended.
    pub waiting: Option<RunAgain>,
    /// The task ended while an attempt it had asked for waited to begin (a stop in a
    /// retry's wait): that attempt never ran.
    pub never_begun: bool,
}

/// The reason of a running task's step into retrying when the server stopped while it
/// ran and fault tolerance runs it again (or back to the queue: one Kueue evicted, which
/// waited for admission again).
pub const RERUN: &str = "event.server_stopped#rerun";

/// The reason of a scheduling task's step back to the queue when the server stopped
/// while it started.
pub const REQUEUED: &str = "event.server_stopped#requeued";

/// [`REQUEUED`] as servers before it wrote it, for tasks stored then.
const REQUEUED_BEFORE: &str = "event.server_stopped";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lifecycle_allows_only_its_steps() {
        use TaskPhase::*;
        let spec = crate::validate::Validated::new(TaskSpec::default());
        let mut task = Task::queued(TaskId("t-bcdfg".into()), "alice".into(), spec, Timestamp(1));
        for (next, at) in [
            (Scheduling, 2),
            (Running, 3),
            (Retrying, 4),
            (Scheduling, 5),
            (Running, 6),
        ] {
            task.advance(next, Timestamp(at), "").expect("allowed");
        }
        assert_eq!(task.attempts, 2);
        assert_eq!(
            task.advance(Queued, Timestamp(7), ""),
            Err(PhaseError {
                from: Running,
                to: Queued
            })
        );
        task.advance(Succeeded, Timestamp(8), "").expect("allowed");
        assert!(task.phase.is_finished());
        assert!(
            !Succeeded.can_become(Running),
            "a finished task stays finished"
        );
        assert_eq!(task.history.len(), 7);
        assert_eq!(task.updated_at, Timestamp(8));
        let json = serde_json::to_string(&task).expect("serialises");
        assert_eq!(serde_json::from_str::<Task>(&json).expect("parses"), task);
    }

    /// The time run is each attempt's running, to its next step (a retry's wait and
    /// the queue left out), and the run going on to now; nothing for a task that never
    /// ran, or was stopped in the queue.
    #[test]
    fn the_time_run_adds_each_attempts_running() {
        use TaskPhase::*;
        let spec = crate::validate::Validated::new(TaskSpec::default());
        let mut task = Task::queued(TaskId("t-bcdfg".into()), "alice".into(), spec, Timestamp(0));
        assert_eq!(task.ran_for(Timestamp(50)), None);
        task.advance(Scheduling, Timestamp(1_000), "").unwrap();
        assert_eq!(task.ran_for(Timestamp(50_000)), None, "not yet running");
        task.advance(Running, Timestamp(2_000), "").unwrap();
        assert_eq!(
            task.ran_for(Timestamp(7_000)),
            Some(5_000),
            "running, to now"
        );
        task.advance(Retrying, Timestamp(12_000), "").unwrap();
        assert_eq!(
            task.ran_for(Timestamp(99_000)),
            Some(10_000),
            "the wait is not run"
        );
        task.advance(Scheduling, Timestamp(40_000), "").unwrap();
        task.advance(Running, Timestamp(41_000), "").unwrap();
        assert_eq!(task.ran_for(Timestamp(44_000)), Some(13_000));
        task.advance(Failed, Timestamp(45_000), "").unwrap();
        assert_eq!(
            task.ran_for(Timestamp(1_000_000)),
            Some(14_000),
            "ended: now is past"
        );
        let mut stopped = Task::queued(
            TaskId("t-cdfgh".into()),
            "alice".into(),
            crate::validate::Validated::new(TaskSpec::default()),
            Timestamp(0),
        );
        stopped.advance(Stopped, Timestamp(9), "").unwrap();
        assert_eq!(stopped.ran_for(Timestamp(100)), None);
    }

    /// Each attempt after the first is a retry or a re-run by what came before it: a
    /// restart's step (into retrying, or back to the queue) or not; Kueue's re-admission
    /// of a running attempt is none; a retry asked counts while it waits, not once the
    /// task has ended in its wait; a re-run asked counts once it begins (review: "1, of
    /// which 1 re-ran" for a task still queued).
    #[test]
    fn attempts_after_the_first_are_retries_or_reruns_once_begun() {
        use TaskPhase::*;
        let spec = crate::validate::Validated::new(TaskSpec::default());
        let mut task = Task::queued(TaskId("t-bcdfg".into()), "alice".into(), spec, Timestamp(1));
        let keyed = |key: &str| Some(crate::messages::Message::new(key));
        fn step(
            task: &mut Task,
            next: TaskPhase,
            key: Option<crate::messages::Message>,
        ) -> RunsAgain {
            task.advance(next, Timestamp(2), "").expect("allowed");
            task.history.last_mut().expect("a step").keyed = key;
            task.runs_again()
        }
        let runs = |retries, reruns| RunsAgain {
            retries,
            reruns,
            ..RunsAgain::default()
        };
        let waits = |retries, reruns, next| RunsAgain {
            retries,
            reruns,
            waiting: Some(next),
            never_begun: false,
        };
        step(&mut task, Scheduling, None);
        step(&mut task, Running, None);
        // Its own failure: a retry, counted as it waits.
        let asked = step(&mut task, Retrying, keyed("event.retrying"));
        assert_eq!(asked, waits(1, 0, RunAgain::Retry));
        assert_eq!(step(&mut task, Scheduling, None), runs(1, 0));
        // The server stopped while it started: a re-run once the next attempt begins.
        assert_eq!(
            step(&mut task, Queued, keyed(REQUEUED)),
            waits(1, 0, RunAgain::Rerun)
        );
        assert!(!task.starting());
        assert_eq!(step(&mut task, Scheduling, None), runs(1, 1));
        assert!(task.starting());
        step(&mut task, Running, None);
        // Kueue evicted it and admits it again: the same attempt.
        step(&mut task, Scheduling, keyed("event.kube.evicted"));
        assert!(!task.starting());
        assert_eq!(step(&mut task, Running, None), runs(1, 1));
        // The server stopped while it ran; and as servers wrote it before.
        assert_eq!(
            step(&mut task, Retrying, keyed(RERUN)),
            waits(1, 1, RunAgain::Rerun)
        );
        step(&mut task, Queued, None);
        assert_eq!(step(&mut task, Scheduling, None), runs(1, 2));
        step(&mut task, Queued, keyed(REQUEUED_BEFORE));
        assert_eq!(step(&mut task, Scheduling, None), runs(1, 3));
        // A retry asked and not begun when the task ended: it never ran.
        step(&mut task, Running, None);
        let asked = step(&mut task, Retrying, keyed("event.retrying"));
        assert_eq!(asked, waits(2, 3, RunAgain::Retry));
        let ended = step(&mut task, Stopped, None);
        assert_eq!(
            ended,
            RunsAgain {
                never_begun: true,
                ..runs(1, 3)
            }
        );
    }
}
