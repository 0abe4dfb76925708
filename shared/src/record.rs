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
            // A placement can be lost before the pods start: back to the queue.
            (Scheduling, Queued | Running | Failed | Stopped) => true,
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

    /// The attempts re-run because the server stopped while they ran or started (a step
    /// into retrying, or from scheduling back to the queue, with [`RERUN`] or
    /// [`REQUEUED`] as its keyed reason). SPEC's retries are for the task's own failures: these
    /// count as attempts, not as retries.
    pub fn reruns(&self) -> u32 {
        let reruns = self.history.iter().filter(|change| {
            change.keyed.as_ref().is_some_and(|m| {
                (change.phase == TaskPhase::Retrying && m.key == RERUN)
                    || (change.phase == TaskPhase::Queued
                        && [RERUN, REQUEUED, REQUEUED_BEFORE].contains(&m.key.as_str()))
            })
        });
        u32::try_from(reruns.count()).unwrap_or(u32::MAX)
    }

    /// The retries used once attempt `attempt` (1 for the first, at most `attempts`)
    /// has started: the attempts after the first less the re-runs after a server stop
    /// ([`Task::reruns`]).
    pub fn retries_used(&self, attempt: u32) -> u32 {
        attempt.saturating_sub(1).saturating_sub(self.reruns())
    }
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

    /// Only a step into retrying keyed as a restart's re-run, or back to the queue from
    /// scheduling keyed as a restart's, counts; the task's own retries do not.
    #[test]
    fn reruns_are_the_restarts_steps_only() {
        use TaskPhase::*;
        let spec = crate::validate::Validated::new(TaskSpec::default());
        let mut task = Task::queued(TaskId("t-bcdfg".into()), "alice".into(), spec, Timestamp(1));
        let keyed = |key: &str| Some(crate::messages::Message::new(key));
        for (next, key) in [
            (Scheduling, None),
            (Running, None),
            // Its own failure: a retry.
            (Retrying, keyed("event.retrying")),
            (Scheduling, None),
            // The server stopped while it started.
            (Queued, keyed(REQUEUED)),
            (Scheduling, None),
            (Running, None),
            // The server stopped while it ran.
            (Retrying, keyed(RERUN)),
            (Scheduling, None),
            (Running, None),
        ] {
            task.advance(next, Timestamp(2), "").expect("allowed");
            task.history.last_mut().expect("a step").keyed = key;
        }
        assert_eq!(task.attempts, 4);
        assert_eq!(task.reruns(), 2);
        // Attempts 2 to 4: one retry of the task's own, two re-runs.
        assert_eq!(task.retries_used(4), 1);
        // A restart's key on another step is not a re-run.
        task.history[1].keyed = keyed(RERUN);
        assert_eq!(task.reruns(), 2);
        // The step back to the queue as servers wrote it before.
        task.history[5].keyed = keyed(REQUEUED_BEFORE);
        assert_eq!(task.reruns(), 2);
    }
}
