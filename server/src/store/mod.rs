//! The task store: every task the server accepted, what it holds, its timeline, events,
//! tags and share links, kept durably so the server can recover after a crash.
//!
//! [`TaskStore`] is the interface the server uses (as `Arc<dyn TaskStore>`);
//! [`SqliteStore`] keeps it in one file for one server; [`PostgresStore`] in a
//! PostgreSQL database that several servers share ([`open`] picks one by the database
//! URL). Both pass one conformance suite (`conformance.rs`). The store records what the caller
//! decided: it keeps the lifecycle's allowed steps ([`TaskPhase::can_become`]) but makes
//! no scheduling or quota decision and must not depend on the routes or the backends.
//!
//! # Hidden values
//!
//! A spec's hidden env values ([`shared::task::EnvVar::hidden`]) are stored apart from
//! the spec. Every record the store returns carries the spec with those values replaced
//! by [`HIDDEN_VALUE_MASK`]; only [`TaskStore::hidden_values`] gives the real ones back,
//! for the owner and for the backend ([`restore_hidden`] puts them back in a spec).
//!
//! [`HIDDEN_VALUE_MASK`]: shared::task::HIDDEN_VALUE_MASK

/// The columns [`rows::decode_task`] reads, in its order, the same on every store. The
/// last is when a user asked to stop the task's current attempt: its latest `stopping`
/// event with no `retrying` or `queued` event after it (a new attempt's start, as the
/// task page reads them), NULL when none was asked. The events are the truth: a server
/// that restarts, or another on the same database, knows of the stop as the one that
/// signalled the replicas does.
macro_rules! task_columns {
    () => {
        "t.id, t.seq, t.owner, t.phase, t.attempts, t.created_at, t.updated_at, t.spec, \
         t.quota, t.placement, t.owner_org, t.owner_tenant_id, t.made_from, t.made_how, \
         (SELECT MAX(s.at) FROM task_events s WHERE s.task_id = t.id AND s.kind = 'stopping' \
          AND NOT EXISTS (SELECT 1 FROM task_events r WHERE r.task_id = t.id AND r.n > s.n \
          AND r.kind IN ('retrying', 'queued')))"
    };
}

#[cfg(test)]
mod conformance;
mod postgres;
mod rows;
mod sqlite;

pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

use shared::quota::Placement;
use shared::record::{PhaseChange, PhaseError, Task, TaskId, TaskPhase, Timestamp};
use shared::task::{Tag, TaskSpec, TaskType};
use shared::usage::QuotaUse;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The store's result type.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// A store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No task has this id.
    #[error("task {task} not found")]
    NotFound {
        /// The id asked for.
        task: TaskId,
    },
    /// A new task's id is already taken by another task.
    #[error("task id {task} is already taken")]
    IdTaken {
        /// The id.
        task: TaskId,
    },
    /// The lifecycle does not allow the phase change asked for; nothing was written.
    #[error("task {task} cannot change phase")]
    Phase {
        /// The task.
        task: TaskId,
        /// The step that is not allowed.
        #[source]
        source: PhaseError,
    },
    /// A share token is already in use.
    #[error("share token is already in use")]
    TokenTaken,
    /// The task's tags are not the ones a replacement expected: nothing was written.
    #[error("the tags of task {task} were changed since they were read")]
    TagsChanged {
        /// The task.
        task: TaskId,
    },
    /// A list cursor that this store did not make.
    #[error("list cursor {cursor:?} is not valid")]
    BadCursor {
        /// The cursor as given.
        cursor: String,
    },
    /// A stored value does not read back as what was written (the database was edited
    /// by hand or by an incompatible version).
    #[error("stored {what} of task {task} cannot be read")]
    Corrupt {
        /// The task.
        task: String,
        /// Which value.
        what: &'static str,
        /// Why, when a decoder said.
        #[source]
        source: Option<serde_json::Error>,
    },
    /// A value could not be encoded as JSON to store it.
    #[error("cannot encode the {what} to store")]
    Encode {
        /// Which value.
        what: &'static str,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
    /// The database file or its directory could not be created.
    #[error("cannot create the directory of the task database {path}")]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The database could not be opened.
    #[error("cannot open the task database {path}")]
    Open {
        /// The database file.
        path: PathBuf,
        /// Why.
        #[source]
        source: sqlx::Error,
    },
    /// The database server could not be reached or refused the connection.
    #[error("cannot connect to the task database {url}")]
    Connect {
        /// The URL, without its password.
        url: String,
        /// Why.
        #[source]
        source: sqlx::Error,
    },
    /// A `sqlite://` URL with no path: SQLite took it for a database of its own that is
    /// gone when the server ends, so every task was lost at a restart.
    #[error(
        "the task database URL {url} names no file: give its path, as sqlite:///var/lib/berth/berth.db (an absolute path after the third slash)"
    )]
    NoFile {
        /// The URL.
        url: String,
    },
    /// The database URL sets its password under a name libpq does not read.
    #[error(
        "the task database URL `{url}` gives its password as `{key}`, which is not read: write `password`"
    )]
    PasswordKey {
        /// The parameter's name as written.
        key: String,
        /// The URL, without its password.
        url: String,
    },
    /// The database URL names no store this server has.
    #[error("the task database URL `{url}` is neither postgres:// nor sqlite://")]
    UnknownUrl {
        /// The URL, without its password.
        url: String,
    },
    /// The schema could not be brought up to date.
    #[error("cannot migrate the task database")]
    Migrate(#[source] sqlx::migrate::MigrateError),
    /// The SQLite file opened, but cannot be written: it (or the `-wal` and `-shm` files
    /// beside it) is read-only to the user the server runs as. SQLite then opens it
    /// read-only without a word: the server started, `/readyz` said ok, and every
    /// submit answered 500 (operator exploration).
    #[error(
        "it cannot be written (read-only to the user berth runs as): let that user write it, \
         the -wal and -shm files beside it and its directory (chown, chmod), or name another \
         file"
    )]
    ReadOnly {
        /// The database file.
        path: PathBuf,
        /// What SQLite said (a migration's failure, or the check's).
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Any other database failure. Its words carry the cause's: the runner logs a store
    /// error by its `Display`, and "task database failed" alone said nothing of why
    /// (operator exploration).
    #[error("task database failed: {0}")]
    Database(#[source] sqlx::Error),
}

/// A task to insert: the record as [`Task::queued`] made it (with the real hidden values)
/// and what it holds from the start.
#[derive(Clone, Debug)]
pub struct NewTask {
    /// The record. Its spec's hidden values are stored apart and masked in the record.
    pub task: Task,
    /// The quota reserved for it at submit time.
    pub quota: Vec<QuotaUse>,
    /// The submit request's idempotency key, scoped to `task.owner`: a second insert with
    /// the same owner and key stores nothing and answers [`Inserted::Existing`].
    pub idempotency_key: Option<String>,
    /// The owner's organisation and tenant as the identity gave them at submit (see
    /// [`StoredTask::owner_org`]).
    pub owner_org: String,
    /// See [`NewTask::owner_org`].
    pub owner_tenant_id: String,
    /// The task it was made from, and how (see [`StoredTask::made_from`]).
    pub made_from: Option<shared::api::MadeFrom>,
}

/// What [`TaskStore::insert`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inserted {
    /// The task was stored.
    New,
    /// The owner already used the idempotency key for this task; nothing was stored.
    Existing(TaskId),
}

/// A task as stored: the record plus what only the server needs.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTask {
    /// The record; hidden env values in its spec are
    /// [`shared::task::HIDDEN_VALUE_MASK`].
    pub task: Task,
    /// Submit order: larger is later, never reused (1 for the first task).
    pub seq: i64,
    /// The quota it holds now.
    pub quota: Vec<QuotaUse>,
    /// Where it is placed, while it holds nodes.
    pub placement: Option<Placement>,
    /// Its tags now. They start as `task.spec.basic.tags`; [`TaskStore::set_tags`]
    /// changes these and leaves the spec as submitted.
    pub tags: Vec<Tag>,
    /// The owner's organisation at submit (`X_ORG_NAME` of every attempt): the
    /// identity knows it at submit only, and the catalog does not. Empty for tasks
    /// stored before it was kept.
    pub owner_org: String,
    /// The owner's tenant at submit (`X_TENANT_ID`), like [`StoredTask::owner_org`].
    pub owner_tenant_id: String,
    /// The task it was made from by a resubmit or a clone, as its submit said; `None`
    /// for tasks stored before it was kept.
    pub made_from: Option<shared::api::MadeFrom>,
    /// When a user asked to stop its current attempt (its `stopping` event), if one was:
    /// a stop of an earlier attempt does not count. A task that has not ended since is
    /// being stopped.
    pub stop_asked_at: Option<Timestamp>,
}

/// One hidden env value, by its position in `spec.environment.env`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HiddenValue {
    /// Index into `spec.environment.env`.
    pub index: usize,
    /// The real value.
    pub value: String,
}

/// The hidden values of `spec`, for storing apart.
pub fn hidden_of(spec: &TaskSpec) -> Vec<HiddenValue> {
    spec.environment
        .env
        .iter()
        .enumerate()
        .filter(|(_, var)| var.hidden)
        .map(|(index, var)| HiddenValue {
            index,
            value: var.value.clone(),
        })
        .collect()
}

/// `spec` with the real hidden values put back (what the owner and the backend see).
/// An index that no longer names a hidden var is ignored.
pub fn restore_hidden(spec: &TaskSpec, values: &[HiddenValue]) -> TaskSpec {
    let mut spec = spec.clone();
    for hidden in values {
        if let Some(var) = spec.environment.env.get_mut(hidden.index)
            && var.hidden
        {
            var.value.clone_from(&hidden.value);
        }
    }
    spec
}

/// Something that happened to a task, for its events list (SPEC.md section 7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskEvent {
    /// When.
    pub at: Timestamp,
    /// A short stable code, one of [`event_kind`]'s constants or another lowercase word.
    pub kind: String,
    /// What happened, for people ("the largest free node has 4 GPUs"), in
    /// English: what an old event without `keyed` shows in every language.
    pub message: String,
    /// What happened as a catalog message, rendered in each reader's language when
    /// read; `None` for events stored before events were keyed.
    pub keyed: Option<shared::messages::Message>,
}

impl TaskEvent {
    /// An event Berth words itself: its English text is kept beside the message.
    pub fn keyed(at: Timestamp, kind: &str, message: shared::messages::Message) -> Self {
        TaskEvent {
            at,
            kind: kind.to_owned(),
            message: message.render(shared::Lang::En),
            keyed: Some(message),
        }
    }

    /// The text in `lang`: the message rendered, or the stored text of an old event.
    pub fn text(&self, lang: shared::Lang) -> String {
        match &self.keyed {
            Some(message) => message.render(lang),
            None => self.message.clone(),
        }
    }
}

/// Words as a text column holds them: a NUL as U+FFFD (�). PostgreSQL's text cannot hold
/// a NUL, and an event whose message held one (a runtime env key quoted from a spec) was
/// lost; SQLite's is changed the same way, so that both stores read back alike. The
/// keyed column keeps the NUL, escaped in its JSON (`\u0000`).
pub(super) fn storable(text: &str) -> String {
    text.replace('\0', "\u{fffd}")
}

/// A keyed message as its column holds it: JSON, NULL for none.
fn keyed_column(keyed: Option<&shared::messages::Message>) -> Option<String> {
    // A message is strings in maps: serializing it cannot fail.
    keyed.and_then(|m| serde_json::to_string(m).ok())
}

/// A keyed message read back from its column; a row written before messages were
/// keyed has none.
fn keyed_from_column(
    task: &str,
    column: Option<&str>,
) -> Result<Option<shared::messages::Message>> {
    column
        .map(|json| {
            serde_json::from_str(json).map_err(|source| StoreError::Corrupt {
                task: task.to_owned(),
                what: "keyed message",
                source: Some(source),
            })
        })
        .transpose()
}

/// Stable event codes.
pub mod event_kind {
    /// Accepted and queued.
    pub const QUEUED: &str = "queued";
    /// Placed: its gang fits now.
    pub const ADMITTED: &str = "admitted";
    /// An attempt's pods started.
    pub const STARTED: &str = "started";
    /// A replica exited.
    pub const EXITED: &str = "exited";
    /// Fault tolerance starts another attempt.
    pub const RETRYING: &str = "retrying";
    /// Finished badly.
    pub const FAILED: &str = "failed";
    /// A user asked to stop it while it ran: its replicas are being ended. Kept so a
    /// server that restarts meanwhile ends the task as stopped, not runs it again.
    pub const STOPPING: &str = "stopping";
    /// Stopped by a user.
    pub const STOPPED: &str = "stopped";
    /// Finished well.
    pub const SUCCEEDED: &str = "succeeded";
    /// What debug mode keeps after the end.
    pub const DEBUG: &str = "debug";
    /// An alert subscription fired: sent, or why not.
    pub const ALERT: &str = "alert";
}

/// A share link of a task, as its owner lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Share {
    /// Its number on the task, from 1 in the order the links were made, never reused.
    pub link: u32,
    /// The token that names the task.
    pub token: String,
    /// When it was made.
    pub created_at: Timestamp,
    /// Who made it.
    pub created_by: String,
}

/// A list's tag filter, read and held to the tag rules by the shared crate.
pub use shared::validate::TagFilter;

/// Who is looking: a user and the project groups they belong to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Viewer {
    /// The user name.
    pub user: String,
    /// Ids of the project groups the user is in.
    pub groups: Vec<String>,
}

/// Where a list page starts: just after the last task of the previous page.
///
/// Pages are ordered newest first by `(created_at, id)`, so tasks inserted while paging
/// come before the first page and never shift later pages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    created_at: Timestamp,
    id: TaskId,
}

impl Cursor {
    /// The cursor just after `task`.
    pub fn after(task: &Task) -> Cursor {
        Cursor {
            created_at: task.created_at,
            id: task.id.clone(),
        }
    }

    /// The opaque text form, for an API response.
    pub fn encode(&self) -> String {
        let plain = format!("{}/{}", self.created_at.0, self.id.0);
        plain.bytes().map(|b| format!("{b:02x}")).collect()
    }

    /// Reads what [`Cursor::encode`] wrote.
    ///
    /// # Errors
    ///
    /// [`StoreError::BadCursor`] for any other text.
    pub fn decode(text: &str) -> Result<Cursor> {
        let bad = || StoreError::BadCursor {
            cursor: text.to_owned(),
        };
        if !text.len().is_multiple_of(2) || !text.is_ascii() {
            return Err(bad());
        }
        let bytes = (0..text.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&text[i..i + 2], 16))
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|_| bad())?;
        let plain = String::from_utf8(bytes).map_err(|_| bad())?;
        let (at, id) = plain.split_once('/').ok_or_else(bad)?;
        // No task id holds a control character (nor can PostgreSQL's text hold a NUL).
        if id.chars().any(char::is_control) {
            return Err(bad());
        }
        let at = at.parse::<i64>().map_err(|_| bad())?;
        Ok(Cursor {
            created_at: Timestamp(at),
            id: TaskId(id.to_owned()),
        })
    }
}

/// The most tasks one list page holds.
pub const MAX_PAGE: u32 = 500;

/// Which tasks to list. Every filter that is set must match; deleted tasks are listed
/// only when `phase` asks for [`TaskPhase::Deleted`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListQuery {
    /// Only tasks in this phase.
    pub phase: Option<TaskPhase>,
    /// Only tasks that have not ended (queued, scheduling, running, retrying), when
    /// `phase` is `None`.
    pub active: bool,
    /// Only tasks of this type.
    pub task_type: Option<TaskType>,
    /// Only tasks with this tag (now, see [`StoredTask::tags`]).
    pub tag: Option<TagFilter>,
    /// Only tasks of this owner.
    pub owner: Option<String>,
    /// Only tasks of this project group.
    pub project_group: Option<String>,
    /// Only tasks whose id (their name) contains this text, ignoring ASCII case.
    pub name_contains: Option<String>,
    /// Only tasks made from this one (resubmitted or cloned from it).
    pub made_from: Option<TaskId>,
    /// Only tasks this viewer may see: their own, and tasks visible in one of their
    /// groups.
    pub visible_to: Option<Viewer>,
    /// Start after this cursor; `None` for the first page.
    pub after: Option<Cursor>,
    /// Page size, 1 to [`MAX_PAGE`] (0 is read as 1, more as [`MAX_PAGE`]).
    pub limit: u32,
}

/// One page of a list, newest first.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// The tasks.
    pub tasks: Vec<StoredTask>,
    /// Where the next page starts, when there is one.
    pub next: Option<Cursor>,
}

/// Which of a task's events [`TaskStore::events_page`] reads. The events it reads from
/// (those of `kinds`, or every one) are numbered from 1 in the order they happened,
/// among themselves; events are only ever added, so a number names the same event for
/// good.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventQuery<'a> {
    /// Only events of these kinds; every one when empty.
    pub kinds: &'a [&'a str],
    /// Only those numbered below this; one past the last, or more, reads as none left
    /// out.
    pub before: Option<u64>,
    /// Only the latest this many of them (0: none); every one when `None`.
    pub limit: Option<u32>,
}

/// A page of a task's events: what [`TaskStore::events_page`] answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventPage {
    /// The events, oldest first.
    pub events: Vec<TaskEvent>,
    /// The number of the first of them (that of `before` when the page is empty): how
    /// many come before the page, plus one.
    pub first: u64,
    /// How many events there are to read from in all (of the query's kinds).
    pub total: u64,
}

/// Durable task storage (see the module docs).
///
/// Every method that names a task answers [`StoreError::NotFound`] when no task has
/// that id, unless it says otherwise.
#[async_trait::async_trait]
pub trait TaskStore: Send + Sync {
    /// Stores a new task, its hidden values, the quota it holds and the next submit
    /// sequence number, all in one transaction.
    ///
    /// When `new.idempotency_key` was already used by the same owner, stores nothing and
    /// answers [`Inserted::Existing`] with that task's id, also when the two inserts race.
    ///
    /// # Errors
    ///
    /// [`StoreError::IdTaken`] when another task has the id; database failures.
    async fn insert(&self, new: NewTask) -> Result<Inserted>;

    /// [`TaskStore::insert`] with the task's first events, oldest first, stored in the
    /// same transaction when the task is: a submit records the task and why it waits
    /// in one write. Nothing of `events` is stored unless the answer is
    /// [`Inserted::New`].
    ///
    /// The default inserts, then pushes each event: a store that can do it in one
    /// transaction should.
    ///
    /// # Errors
    ///
    /// As [`TaskStore::insert`].
    async fn insert_with_events(&self, new: NewTask, events: &[TaskEvent]) -> Result<Inserted> {
        let id = new.task.id.clone();
        let inserted = self.insert(new).await?;
        if inserted == Inserted::New {
            for event in events {
                self.push_event(&id, event).await?;
            }
        }
        Ok(inserted)
    }

    /// [`TaskStore::insert_with_events`], answering also the submit sequence number a
    /// new task got (`None` with [`Inserted::Existing`]): with it a submit answers with
    /// the task it stored instead of reading it back. The default reads the number back.
    ///
    /// # Errors
    ///
    /// As [`TaskStore::insert`].
    async fn insert_numbered(
        &self,
        new: NewTask,
        events: &[TaskEvent],
    ) -> Result<(Inserted, Option<i64>)> {
        let id = new.task.id.clone();
        let inserted = self.insert_with_events(new, events).await?;
        let seq = match inserted {
            Inserted::New => Some(self.get(&id).await?.seq),
            Inserted::Existing(_) => None,
        };
        Ok((inserted, seq))
    }

    /// [`TaskStore::insert_numbered`] for several tasks, without idempotency keys: one
    /// answer per task, in order. A store that can should store them in one
    /// transaction (group commit), and insert them one by one when that fails, so that
    /// each answer is the one its own insert would give. The default inserts them one
    /// by one.
    async fn insert_group(
        &self,
        tasks: Vec<(NewTask, Vec<TaskEvent>)>,
    ) -> Vec<Result<(Inserted, Option<i64>)>> {
        let mut answers = Vec::with_capacity(tasks.len());
        for (new, events) in tasks {
            answers.push(self.insert_numbered(new, &events).await);
        }
        answers
    }

    /// The task with `id`, deleted ones included, hidden values masked.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`]; database failures.
    async fn get(&self, id: &TaskId) -> Result<StoredTask>;

    /// The task `owner` submitted with idempotency key `key`, if any, whatever its name.
    ///
    /// # Errors
    ///
    /// Database failures.
    async fn by_key(&self, owner: &str, key: &str) -> Result<Option<TaskId>>;

    /// The real hidden env values of the task, by env index (empty when it has none).
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`]; database failures.
    async fn hidden_values(&self, id: &TaskId) -> Result<Vec<HiddenValue>>;

    /// One page of the tasks that `query` selects, newest first.
    ///
    /// # Errors
    ///
    /// Database failures.
    async fn list(&self, query: &ListQuery) -> Result<Page>;

    /// How many tasks of each phase `query` selects, its phase, cursor and limit left
    /// out: the numbers of the list's phase chips.
    ///
    /// # Errors
    ///
    /// Database failures.
    async fn count_phases(&self, query: &ListQuery) -> Result<shared::api::PhaseCounts>;

    /// Moves the task to `change.phase`: appends `change` to its history, sets its phase,
    /// its attempts and its `updated_at` (to `change.at`).
    ///
    /// # Errors
    ///
    /// [`StoreError::Phase`] when the lifecycle does not allow the step (nothing is
    /// written); [`StoreError::NotFound`]; database failures.
    async fn advance(&self, id: &TaskId, change: PhaseChange, attempts: u32) -> Result<()>;

    /// Replaces what the task holds: its quota lines and its placement (`None` when it
    /// holds no nodes).
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`]; database failures.
    async fn set_hold(
        &self,
        id: &TaskId,
        quota: &[QuotaUse],
        placement: Option<&Placement>,
    ) -> Result<()>;

    /// Appends an event to the task's events.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`]; database failures.
    async fn push_event(&self, id: &TaskId, event: &TaskEvent) -> Result<()>;

    /// The task's events, oldest first (in the order they were pushed).
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`]; database failures.
    async fn events(&self, id: &TaskId) -> Result<Vec<TaskEvent>> {
        Ok(self.events_page(id, EventQuery::default()).await?.events)
    }

    /// A page of the task's events, read in the database's query: only those the query
    /// asks for are read, with how many there are (see [`EventQuery`]).
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`]; database failures.
    async fn events_page(&self, id: &TaskId, query: EventQuery<'_>) -> Result<EventPage>;

    /// Every task not finished ([`TaskPhase::is_finished`]), in submit order: what
    /// recovery requeues and what live usage is rebuilt from.
    ///
    /// # Errors
    ///
    /// Database failures.
    async fn unfinished(&self) -> Result<Vec<StoredTask>>;

    /// Replaces the task's tags ([`StoredTask::tags`]); with `expected`, only if they are
    /// those now, checked in the same transaction.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`]; [`StoreError::TagsChanged`]; database failures.
    async fn set_tags(&self, id: &TaskId, tags: &[Tag], expected: Option<&[Tag]>) -> Result<()>;

    /// Records a share link that `by` made: `token` now names the task. Answers the
    /// link's number on the task ([`Share::link`]).
    ///
    /// # Errors
    ///
    /// [`StoreError::TokenTaken`] when the token names a share already (a revoked one
    /// too); [`StoreError::NotFound`]; database failures.
    async fn create_share(&self, id: &TaskId, token: &str, by: &str, at: Timestamp) -> Result<u32>;

    /// The task's share links not revoked, oldest first.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`]; database failures.
    async fn shares(&self, id: &TaskId) -> Result<Vec<Share>>;

    /// Revokes the task's share link numbered `link` at `at`: its token names nothing
    /// from then on ([`TaskStore::shared`]). `false` when the task has no such link not
    /// revoked already.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`]; database failures.
    async fn revoke_share(&self, id: &TaskId, link: u32, at: Timestamp) -> Result<bool>;

    /// The task a share token names, if any and not revoked (deleted tasks included:
    /// the caller decides what a link to one shows).
    ///
    /// # Errors
    ///
    /// Database failures.
    async fn shared(&self, token: &str) -> Result<Option<TaskId>>;

    /// Marks the task deleted at `at` (a phase change to [`TaskPhase::Deleted`]); its
    /// rows stay, for audit.
    ///
    /// # Errors
    ///
    /// [`StoreError::Phase`] when the task may not be deleted now (it is still running);
    /// [`StoreError::NotFound`]; database failures.
    async fn delete(&self, id: &TaskId, at: Timestamp) -> Result<()>;

    /// Whether other server processes may write to this database too. They then take
    /// turns to lead ([`TaskStore::lead`]) and reserve quota through
    /// [`TaskStore::reserve`]; a store only this process writes keeps the defaults.
    fn replicated(&self) -> bool {
        false
    }

    /// Whether the database answers a query now: what `/readyz` asks.
    ///
    /// # Errors
    ///
    /// The database's failure.
    async fn ping(&self) -> Result<()>;

    /// Starts a quota reservation when other processes may hold quota in this database:
    /// until it ends, no other reservation (and no insert) on the database starts, so a
    /// quota check against [`Reservation::held`] and the insert that takes the quota
    /// cannot interleave with another process's. `None` when this process's memory is
    /// the whole truth.
    ///
    /// # Errors
    ///
    /// Database failures.
    async fn reserve(&self) -> Result<Option<Box<dyn Reservation>>> {
        Ok(None)
    }

    /// The term this process leads under, or `None` when it does not lead now: only the
    /// leader places tasks on nodes. A store one process uses always answers term 0; a
    /// replicated one holds a lock on a connection of its own, which another process
    /// takes when that connection ends, and each process that takes the lead from
    /// another raises the term. A process that lost its lock and takes it back keeps its
    /// term only when no other led meanwhile.
    ///
    /// # Errors
    ///
    /// Database failures.
    async fn lead(&self) -> Result<Option<u64>> {
        Ok(Some(0))
    }

    /// Gives up leading for good, at once, the lock too (the server is stopping): the
    /// next leader need not wait for this process's connection to end, and [`lead`]
    /// answers `None` from now on. A store one process uses has nothing to give up.
    ///
    /// [`lead`]: TaskStore::lead
    async fn resign(&self) {}
}

/// A quota reservation ([`TaskStore::reserve`]); dropping it without
/// [`Reservation::commit`] stores nothing.
#[async_trait::async_trait]
pub trait Reservation: Send {
    /// The quota lines `owner`'s unfinished tasks hold now, one entry per task and line
    /// (not summed). Quota lines are per user, so a user's submit is checked against
    /// these alone.
    ///
    /// # Errors
    ///
    /// Database failures.
    async fn held(&mut self, owner: &str) -> Result<Vec<QuotaUse>>;

    /// [`TaskStore::insert_with_events`] inside the reservation; other processes see the
    /// task and its first events once the reservation commits, together: pushed after
    /// the commit, a leader could adopt and run the task first, and its `queued` event
    /// came after its end (multi-server exploration).
    ///
    /// # Errors
    ///
    /// As [`TaskStore::insert`]; after an error other than [`StoreError::IdTaken`] the
    /// reservation can only be dropped.
    async fn insert(&mut self, new: NewTask, events: &[TaskEvent]) -> Result<Inserted>;

    /// Ends the reservation, keeping what it inserted.
    ///
    /// # Errors
    ///
    /// Database failures.
    async fn commit(self: Box<Self>) -> Result<()>;
}

/// Opens the store `database_url` names: `postgres://…` (or `postgresql://…`) for
/// [`PostgresStore`], `sqlite://PATH` for [`SqliteStore`] on PATH, and with no URL
/// `berth.db` in `data_dir`.
///
/// # Errors
///
/// [`StoreError::UnknownUrl`], or the store's own errors when it cannot be opened.
pub async fn open(database_url: Option<&str>, data_dir: &Path) -> Result<Arc<dyn TaskStore>> {
    match database_url {
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            Ok(Arc::new(PostgresStore::connect(url).await?))
        }
        _ => match sqlite_path(database_url, data_dir) {
            Some(path) => Ok(Arc::new(SqliteStore::open(&path).await?)),
            None if database_url.is_some_and(|url| url.starts_with("sqlite://")) => {
                Err(StoreError::NoFile {
                    url: database_url.unwrap_or_default().to_owned(),
                })
            }
            None => Err(StoreError::UnknownUrl {
                url: without_password(database_url.unwrap_or_default()),
            }),
        },
    }
}

/// The database `database_url` names, for messages: its SQLite file, or its URL without
/// the password.
pub fn described(database_url: Option<&str>, data_dir: &Path) -> String {
    match sqlite_path(database_url, data_dir) {
        Some(path) => path.display().to_string(),
        None => without_password(database_url.unwrap_or_default()),
    }
}

/// The SQLite file [`open`] opens for `database_url` (none: `berth.db` in `data_dir`);
/// `None` for a URL of another store, or `sqlite://` with no path.
pub fn sqlite_path(database_url: Option<&str>, data_dir: &Path) -> Option<PathBuf> {
    match database_url {
        None => Some(data_dir.join("berth.db")),
        Some(url) => url
            .strip_prefix("sqlite://")
            .filter(|path| !path.is_empty())
            .map(PathBuf::from),
    }
}

/// `url` with its passwords replaced, for messages: the `user:password@` part's (up to
/// the URL's last `@`, as an unencoded `/`, `?` or `@` in the password leaves it), also
/// of a URL whose scheme lost its colon or a slash (`postgres//…`, `postgres:/…`); any
/// query parameter whose name, decoded, holds `pass` (`?password=…`, `?pass%77ord=…`,
/// which libpq and sqlx read too); and a libpq key=value string's (`host=db
/// password=…`). README exploration and code review: each was printed in clear.
pub(crate) fn without_password(url: &str) -> String {
    let start = ["://", ":/", "//"]
        .iter()
        .find_map(|sep| url.find(sep).map(|i| i + sep.len()));
    let Some(at) = url[start.unwrap_or(0)..]
        .rfind('@')
        .map(|at| at + start.unwrap_or(0))
    else {
        return match start {
            // No user part: only the query can hold a password.
            Some(start) => format!("{}{}", &url[..start], masked_query(&url[start..])),
            None => masked_pairs(url),
        };
    };
    let start = start.unwrap_or(0);
    let userinfo = &url[start..at];
    let user = userinfo.split_once(':').map_or(userinfo, |(user, _)| user);
    let password = if user.len() == userinfo.len() {
        ""
    } else {
        ":***"
    };
    format!(
        "{}{user}{password}@{}",
        &url[..start],
        masked_query(&url[at + 1..])
    )
}

/// Whether a connection parameter's name, percent-decoded, names a password.
fn is_password_key(key: &str) -> bool {
    percent_encoding::percent_decode_str(key)
        .decode_utf8_lossy()
        .to_ascii_lowercase()
        .contains("pass")
}

/// `rest` (a URL's host, path and query) with its password parameters' values masked.
fn masked_query(rest: &str) -> String {
    let Some((head, query)) = rest.split_once('?') else {
        return rest.to_owned();
    };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, _)) if is_password_key(key) => format!("{key}=***"),
            _ => pair.to_owned(),
        })
        .collect();
    format!("{head}?{}", pairs.join("&"))
}

/// A libpq key=value string with its password's value masked, quoted or not.
fn masked_pairs(text: &str) -> String {
    let mut shown = Vec::new();
    let mut quoted = false;
    for word in text.split(' ') {
        if quoted {
            // A quote escaped with a backslash does not close the value.
            quoted = !word.ends_with('\'') || word.ends_with("\\'");
            continue;
        }
        match word.split_once('=') {
            Some((key, value)) if is_password_key(key.trim()) => {
                quoted = value.starts_with('\'') && (value.len() == 1 || !value.ends_with('\''));
                shown.push(format!("{key}=***"));
            }
            _ => shown.push(word.to_owned()),
        }
    }
    shown.join(" ")
}

/// The query parameter of `url` that sets its password under another spelling than
/// libpq's `password` (`PASSWORD`, `Password`, `pass%77ord`): sqlx ignores it, and
/// logs its value in clear as it does.
pub(crate) fn misspelt_password_key(url: &str) -> Option<String> {
    let (_, query) = url.split_once('?')?;
    query
        .split('&')
        .filter_map(|pair| pair.split_once('=').map(|(key, _)| key))
        .find(|key| *key != "password" && is_password_key(key))
        .map(str::to_owned)
}

/// The task list's query, the same SQL on every store: the filters of `query`, newest
/// first, one row more than `limit` (so the page knows whether another follows). `id`
/// is how the dialect compares ids byte-wise, as cursors need (`t.id`, or
/// `t.id COLLATE "C"` on PostgreSQL).
pub(super) fn list_sql<DB>(query: &ListQuery, limit: u32, id: &str) -> sqlx::QueryBuilder<DB>
where
    DB: sqlx::Database,
    DB::Arguments: Default,
    for<'t> &'static str: sqlx::Encode<'t, DB> + sqlx::Type<DB>,
    for<'t> String: sqlx::Encode<'t, DB> + sqlx::Type<DB>,
    for<'t> i64: sqlx::Encode<'t, DB> + sqlx::Type<DB>,
{
    let mut sql =
        sqlx::QueryBuilder::<DB>::new(concat!("SELECT ", task_columns!(), " FROM tasks t WHERE "));
    match query.phase {
        Some(phase) => sql.push("t.phase = ").push_bind(phase_code(phase)),
        None if query.active => {
            sql.push("t.phase IN (");
            let mut phases = sql.separated(", ");
            for phase in ALL_PHASES.into_iter().filter(|p| !p.is_finished()) {
                phases.push_bind(phase_code(phase));
            }
            sql.push(")")
        }
        None => sql
            .push("t.phase <> ")
            .push_bind(phase_code(TaskPhase::Deleted)),
    };
    push_filters(&mut sql, query);
    if let Some(after) = &query.after {
        sql.push(" AND (t.created_at < ")
            .push_bind(after.created_at.0)
            .push(" OR (t.created_at = ")
            .push_bind(after.created_at.0)
            .push(format!(" AND {id} < "))
            .push_bind(after.id.0.clone())
            .push("))");
    }
    sql.push(format!(" ORDER BY t.created_at DESC, {id} DESC LIMIT "))
        .push_bind(i64::from(limit) + 1);
    sql
}

/// The count of each phase `query` selects ([`TaskStore::count_phases`]): one row per
/// phase, `(phase, count)`.
pub(super) fn count_sql<DB>(query: &ListQuery) -> sqlx::QueryBuilder<DB>
where
    DB: sqlx::Database,
    DB::Arguments: Default,
    for<'t> &'static str: sqlx::Encode<'t, DB> + sqlx::Type<DB>,
    for<'t> String: sqlx::Encode<'t, DB> + sqlx::Type<DB>,
    for<'t> i64: sqlx::Encode<'t, DB> + sqlx::Type<DB>,
{
    let mut sql =
        sqlx::QueryBuilder::<DB>::new("SELECT t.phase, COUNT(*) FROM tasks t WHERE t.phase <> ");
    sql.push_bind(phase_code(TaskPhase::Deleted));
    push_filters(&mut sql, query);
    sql.push(" GROUP BY t.phase");
    sql
}

/// The conditions of `query` but its phase and cursor, each after ` AND `.
fn push_filters<DB>(sql: &mut sqlx::QueryBuilder<DB>, query: &ListQuery)
where
    DB: sqlx::Database,
    for<'t> &'static str: sqlx::Encode<'t, DB> + sqlx::Type<DB>,
    for<'t> String: sqlx::Encode<'t, DB> + sqlx::Type<DB>,
    for<'t> i64: sqlx::Encode<'t, DB> + sqlx::Type<DB>,
{
    if let Some(task_type) = query.task_type {
        sql.push(" AND t.task_type = ")
            .push_bind(task_type_code(Some(task_type)));
    }
    if let Some(owner) = &query.owner {
        sql.push(" AND t.owner = ").push_bind(owner.clone());
    }
    if let Some(group) = &query.project_group {
        sql.push(" AND t.project_group = ").push_bind(group.clone());
    }
    if let Some(text) = &query.name_contains {
        sql.push(" AND LOWER(t.id) LIKE ")
            .push_bind(contains_pattern(text))
            .push(" ESCAPE '\\'");
    }
    if let Some(from) = &query.made_from {
        sql.push(" AND t.made_from = ").push_bind(from.0.clone());
    }
    if let Some(tag) = &query.tag {
        sql.push(" AND EXISTS (SELECT 1 FROM task_tags g WHERE g.task_id = t.id AND g.tag_key = ")
            .push_bind(tag.key.clone());
        if let Some(value) = &tag.value {
            sql.push(" AND g.tag_value = ").push_bind(value.clone());
        }
        sql.push(")");
    }
    if let Some(viewer) = &query.visible_to {
        sql.push(" AND (t.owner = ").push_bind(viewer.user.clone());
        if !viewer.groups.is_empty() {
            sql.push(" OR (t.visible_in_group = 1 AND t.project_group IN (");
            let mut groups = sql.separated(", ");
            for group in &viewer.groups {
                groups.push_bind(group.clone());
            }
            sql.push("))");
        }
        sql.push(")");
    }
}
/// A `LIKE` pattern matching text that contains `text`, ignoring ASCII case, with
/// `\` escaping the pattern's own wildcards.
fn contains_pattern(text: &str) -> String {
    let mut pattern = String::from("%");
    for c in text.chars().map(|c| c.to_ascii_lowercase()) {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

/// The stable text of a phase in the database.
fn phase_code(phase: TaskPhase) -> &'static str {
    match phase {
        TaskPhase::Queued => "queued",
        TaskPhase::Scheduling => "scheduling",
        TaskPhase::Running => "running",
        TaskPhase::Retrying => "retrying",
        TaskPhase::Succeeded => "succeeded",
        TaskPhase::Failed => "failed",
        TaskPhase::Stopped => "stopped",
        TaskPhase::Deleted => "deleted",
    }
}

/// Reads [`phase_code`]'s text.
fn parse_phase(code: &str) -> Option<TaskPhase> {
    ALL_PHASES.into_iter().find(|p| phase_code(*p) == code)
}

const ALL_PHASES: [TaskPhase; 8] = [
    TaskPhase::Queued,
    TaskPhase::Scheduling,
    TaskPhase::Running,
    TaskPhase::Retrying,
    TaskPhase::Succeeded,
    TaskPhase::Failed,
    TaskPhase::Stopped,
    TaskPhase::Deleted,
];

/// The stable text of a task type in the database ("" when unset).
fn task_type_code(task_type: Option<TaskType>) -> &'static str {
    match task_type {
        Some(TaskType::PyTorchJob) => "pytorch_job",
        Some(TaskType::RayJob) => "ray_job",
        None => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The task page names each event by its kind in the reader's language: a kind
    /// without a label showed as its code ("alert alert …").
    #[test]
    fn every_event_kind_has_a_label_in_both_languages() {
        use crate::backend::note_kind;
        let kinds = [
            event_kind::QUEUED,
            event_kind::ADMITTED,
            event_kind::STARTED,
            event_kind::EXITED,
            event_kind::RETRYING,
            event_kind::FAILED,
            event_kind::STOPPING,
            event_kind::STOPPED,
            event_kind::SUCCEEDED,
            event_kind::DEBUG,
            event_kind::ALERT,
            note_kind::CLUSTER,
            note_kind::PULL,
            note_kind::JOB,
        ];
        for kind in kinds {
            let key = format!("ui.detail.event.{kind}");
            for lang in [shared::messages::Lang::En, shared::messages::Lang::Zh] {
                assert_ne!(shared::messages::text(lang, &key, &[]), key, "{lang:?}");
            }
        }
    }

    #[test]
    fn cursors_round_trip_and_reject_other_text() {
        let cursor = Cursor {
            created_at: Timestamp(1_700_000_000_123),
            id: TaskId("bert-base-x7k2q".into()),
        };
        assert_eq!(Cursor::decode(&cursor.encode()).expect("decodes"), cursor);
        for bad in ["", "zz", "abc", "2f", "é"] {
            assert!(Cursor::decode(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn passwords_are_left_out_of_database_urls_in_messages() {
        assert_eq!(
            without_password("postgres://berth:s3cret@db:5432/berth?sslmode=off"),
            "postgres://berth:***@db:5432/berth?sslmode=off"
        );
        assert_eq!(
            without_password("postgres://berth@db/berth"),
            "postgres://berth@db/berth"
        );
        assert_eq!(without_password("sqlite://a@b.db"), "sqlite://a@b.db");
        assert_eq!(
            without_password("postgres//postgres:secretpw@127.0.0.1/berth"),
            "postgres//postgres:***@127.0.0.1/berth"
        );
        assert_eq!(
            without_password("postgres://u@h:5432/berth?user=u&Password=QueryPass999&sslmode=off"),
            "postgres://u@h:5432/berth?user=u&Password=***&sslmode=off"
        );
        assert_eq!(without_password("u:pw@h/db"), "u:***@h/db");
        // Code review: each printed its password in clear.
        for (url, shown) in [
            ("postgres://u:pa/ss@h/db", "postgres://u:***@h/db"),
            (
                "postgres://u:pa?ss@h/db?sslmode=off",
                "postgres://u:***@h/db?sslmode=off",
            ),
            ("postgres://u:pa@ss@h/db", "postgres://u:***@h/db"),
            ("postgres:/u:secret@h/db", "postgres:/u:***@h/db"),
            (
                "postgres://h/db?pass%77ord=secret",
                "postgres://h/db?pass%77ord=***",
            ),
            (
                "postgres://h/db?PASSWORD=secret&x=1",
                "postgres://h/db?PASSWORD=***&x=1",
            ),
            (
                "host=db user=u password=secret dbname=b",
                "host=db user=u password=*** dbname=b",
            ),
            (
                "host=db password='se cret' dbname=b",
                "host=db password=*** dbname=b",
            ),
            (
                "host=db password='secret' dbname=b",
                "host=db password=*** dbname=b",
            ),
        ] {
            assert_eq!(without_password(url), shown, "{url}");
            assert!(!without_password(url).contains("secret"), "{url}");
        }
    }

    #[test]
    fn a_password_parameter_spelt_otherwise_than_libpq_is_named() {
        assert_eq!(misspelt_password_key("postgres://h/db?password=x"), None);
        assert_eq!(misspelt_password_key("postgres://u:x@h/db"), None);
        assert_eq!(
            misspelt_password_key("postgres://h/db?sslmode=off&PASSWORD=x").as_deref(),
            Some("PASSWORD")
        );
        assert_eq!(
            misspelt_password_key("postgres://h/db?pass%77ord=x").as_deref(),
            Some("pass%77ord")
        );
    }

    #[tokio::test]
    async fn the_url_picks_the_store() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = open(None, dir.path()).await.expect("opens");
        assert!(!store.replicated());
        assert!(dir.path().join("berth.db").is_file());
        let path = dir.path().join("other.db");
        let url = format!("sqlite://{}", path.display());
        open(Some(&url), dir.path()).await.expect("opens");
        assert!(path.is_file());
        assert!(matches!(
            open(Some("mysql://u:pw@h/db"), dir.path()).await.err(),
            Some(StoreError::UnknownUrl { url }) if url == "mysql://u:***@h/db"
        ));
        // No file named: SQLite's own database of the moment, lost at every restart.
        assert!(matches!(
            open(Some("sqlite://"), dir.path()).await.err(),
            Some(StoreError::NoFile { url }) if url == "sqlite://"
        ));
    }

    #[test]
    fn phase_codes_read_back() {
        for phase in ALL_PHASES {
            assert_eq!(parse_phase(phase_code(phase)), Some(phase));
        }
    }
}
