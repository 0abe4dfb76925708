//! [`TaskStore`] on one SQLite file, through a small sqlx pool.
//!
//! # Design
//!
//! - WAL journal with `synchronous = NORMAL`: readers never block the writer, and a
//!   commit survives a crash of the process (a power cut may lose the last commits).
//! - Every transaction that writes starts with `BEGIN IMMEDIATE`, so it takes the write
//!   lock first and waits for it (busy timeout) instead of failing when a read would
//!   have to upgrade to a write after another writer committed.
//! - Sequence numbers (submit order, history, events) are computed inside the inserting
//!   statement (`MAX(n) + 1`), which SQLite runs under its single write lock; no
//!   autoincrement, so the schema stays portable.
//! - Reads that join several tables run in one read transaction, a consistent snapshot.

use super::rows::{
    TASK_COLUMNS, attach_details, corrupt, count_phases, db, decode_task, encode, events_of,
    hidden_values_of, list_page, not_found, require_task, shares_of, tags_of,
};
use super::{
    ALL_PHASES, EventPage, EventQuery, HiddenValue, Inserted, ListQuery, NewTask, Page, Result,
    Share, StoreError, StoredTask, TaskEvent, TaskStore, hidden_of, keyed_column,
    keyed_from_column, parse_phase, phase_code, storable, task_type_code,
};
use shared::quota::Placement;
use shared::record::{PhaseChange, TaskId, TaskPhase, Timestamp};
use shared::task::Tag;
use shared::usage::QuotaUse;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{QueryBuilder, Row, Sqlite, Transaction};
use std::path::Path;
use std::time::Duration;

/// How long a statement waits for another connection's write lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Connections in the pool: SQLite has one writer, so more only helps readers.
const MAX_CONNECTIONS: u32 = 8;

/// The task store on a SQLite file.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating when missing) the database at `path` and its parent directory,
    /// and brings the schema up to date.
    ///
    /// # Errors
    ///
    /// [`StoreError::CreateDir`], [`StoreError::Open`], [`StoreError::Migrate`], or
    /// [`StoreError::ReadOnly`] when the file cannot be written.
    pub async fn open(path: &Path) -> Result<Self> {
        Self::open_with(path, SqliteConnectOptions::new()).await
    }

    /// [`SqliteStore::open`] with `options` to start from (a test's read-only open).
    async fn open_with(path: &Path, options: SqliteConnectOptions) -> Result<Self> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            tokio::fs::create_dir_all(dir)
                .await
                .map_err(|source| StoreError::CreateDir {
                    path: dir.to_owned(),
                    source,
                })?;
        }
        let options = options
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT);
        let pool = SqlitePoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .connect_with(options)
            .await
            // A file that may not be switched to WAL, or whose -wal and -shm files may
            // not be made, fails here (review).
            .map_err(|source| {
                read_only_or(path, source, |source| StoreError::Open {
                    path: path.to_owned(),
                    source,
                })
            })?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|error| read_only_or(path, error, StoreError::Migrate))?;
        let store = SqliteStore { pool };
        store.check_writable(path).await?;
        Ok(store)
    }

    /// Refuses a file this process can only read. SQLite opens a file it may not write
    /// read-only, and the migrations of a file already migrated write nothing: the
    /// server started, and every write failed. An update of no row needs a write
    /// transaction, so it fails on such a file and changes nothing on any other.
    async fn check_writable(&self, path: &Path) -> Result<()> {
        match sqlx::query("UPDATE tasks SET id = id WHERE 0")
            .execute(&self.pool)
            .await
        {
            Ok(_) => Ok(()),
            Err(error) => Err(read_only_or(path, error, |source| StoreError::Open {
                path: path.to_owned(),
                source,
            })),
        }
    }

    /// Closes every connection, waiting for those in use (a clean shutdown).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// A transaction that holds the write lock from its start.
    async fn write(&self) -> Result<Transaction<'static, Sqlite>> {
        self.pool.begin_with("BEGIN IMMEDIATE").await.map_err(db)
    }

    /// Runs `sql`, a whole transaction from `BEGIN IMMEDIATE` to `COMMIT`, in one round
    /// trip; when a statement fails the transaction is rolled back. The outer error is
    /// the pool's or the rollback's, the inner one the statement's.
    ///
    /// It runs in a task of its own: a caller dropped halfway (its client gone) would
    /// stop the batch between its `BEGIN` and `COMMIT` and leave the pooled connection
    /// inside a transaction that holds the write lock.
    async fn batch(
        &self,
        mut sql: QueryBuilder<Sqlite>,
    ) -> Result<std::result::Result<Vec<sqlx::sqlite::SqliteRow>, sqlx::Error>> {
        let pool = self.pool.clone();
        tokio::spawn(async move {
            let mut conn = pool.acquire().await.map_err(db)?;
            let rows = sql.build().fetch_all(&mut *conn).await;
            if rows.is_err() {
                // BEGIN may have failed too (no transaction then): SQLite answers that
                // error for the ROLLBACK, after which the connection is as it should be.
                if let Err(error) = sqlx::raw_sql("ROLLBACK").execute(&mut *conn).await
                    && !error.to_string().contains("no transaction is active")
                {
                    conn.close_on_drop();
                    return Err(db(error));
                }
            }
            Ok(rows)
        })
        .await
        .map_err(|join| StoreError::Database(sqlx::Error::Protocol(join.to_string())))?
    }

    /// A read transaction: one consistent snapshot.
    async fn read(&self) -> Result<Transaction<'static, Sqlite>> {
        self.pool.begin().await.map_err(db)
    }

    /// Moves a task to `change.phase`; `attempts` `None` keeps the count.
    async fn change_phase(
        &self,
        id: &TaskId,
        change: PhaseChange,
        attempts: Option<u32>,
    ) -> Result<()> {
        let mut tx = self.write().await?;
        let row = sqlx::query("SELECT phase, attempts FROM tasks WHERE id = ?")
            .bind(&id.0)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db)?
            .ok_or_else(|| not_found(id))?;
        let code: String = row.try_get(0).map_err(db)?;
        let now = parse_phase(&code).ok_or_else(|| corrupt(&id.0, "phase", None))?;
        if !now.can_become(change.phase) {
            return Err(StoreError::Phase {
                task: id.clone(),
                source: shared::record::PhaseError {
                    from: now,
                    to: change.phase,
                },
            });
        }
        let attempts = match attempts {
            Some(a) => i64::from(a),
            None => row.try_get(1).map_err(db)?,
        };
        sqlx::query("UPDATE tasks SET phase = ?, attempts = ?, updated_at = ? WHERE id = ?")
            .bind(phase_code(change.phase))
            .bind(attempts)
            .bind(change.at.0)
            .bind(&id.0)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        sqlx::query(
            "INSERT INTO task_history (task_id, n, phase, at, reason, keyed) \
             SELECT ?, COALESCE(MAX(n), 0) + 1, ?, ?, ?, ? FROM task_history WHERE task_id = ?",
        )
        .bind(&id.0)
        .bind(phase_code(change.phase))
        .bind(change.at.0)
        .bind(storable(&change.reason))
        .bind(keyed_column(change.keyed.as_ref()))
        .bind(&id.0)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        tx.commit().await.map_err(db)
    }
}

#[async_trait::async_trait]
impl TaskStore for SqliteStore {
    async fn insert(&self, new: NewTask) -> Result<Inserted> {
        self.insert_with_events(new, &[]).await
    }

    async fn ping(&self) -> Result<()> {
        super::rows::ping(&self.pool).await
    }

    async fn insert_with_events(&self, new: NewTask, events: &[TaskEvent]) -> Result<Inserted> {
        Ok(self.insert_numbered(new, events).await?.0)
    }

    async fn insert_numbered(
        &self,
        new: NewTask,
        events: &[TaskEvent],
    ) -> Result<(Inserted, Option<i64>)> {
        let task = &new.task;
        // Without an idempotency key there is nothing to look up first, so the whole
        // transaction (begin, every row, commit) is one batch: one round trip to the
        // connection's thread, made while the scheduler's lock is held, instead of three.
        let one_batch = new.idempotency_key.is_none();
        let mut sql = QueryBuilder::<Sqlite>::new(if one_batch { "BEGIN IMMEDIATE" } else { "" });
        push_task(&mut sql, &new, events)?;
        let inserted = if one_batch {
            sql.push("; COMMIT");
            self.batch(sql).await?
        } else {
            let mut tx = self.write().await?;
            if let Some(existing) =
                by_idempotency_key(&mut tx, &task.owner, new.idempotency_key.as_deref()).await?
            {
                return Ok((Inserted::Existing(existing), None));
            }
            match sql.build().fetch_all(&mut *tx).await {
                Ok(rows) => {
                    tx.commit().await.map_err(db)?;
                    Ok(rows)
                }
                Err(error) => {
                    tx.rollback().await.map_err(db)?;
                    Err(error)
                }
            }
        };
        match inserted {
            Ok(rows) => {
                let seq = rows.first().map(|r| r.try_get::<i64, _>(0)).transpose();
                Ok((Inserted::New, seq.map_err(db)?))
            }
            Err(error) if is_unique_violation(&error) => {
                // Another insert won a race this store's write lock does not exclude
                // (another process on the file): answer with its task if the key is why.
                let mut conn = self.pool.acquire().await.map_err(db)?;
                match by_idempotency_key(&mut conn, &task.owner, new.idempotency_key.as_deref())
                    .await?
                {
                    Some(existing) => Ok((Inserted::Existing(existing), None)),
                    None => Err(StoreError::IdTaken {
                        task: task.id.clone(),
                    }),
                }
            }
            Err(error) => Err(db(error)),
        }
    }

    async fn insert_group(
        &self,
        tasks: Vec<(NewTask, Vec<TaskEvent>)>,
    ) -> Vec<Result<(Inserted, Option<i64>)>> {
        let mut sql = QueryBuilder::<Sqlite>::new("BEGIN IMMEDIATE");
        let mut built =
            tasks.len() > 1 && tasks.iter().all(|(new, _)| new.idempotency_key.is_none());
        for (new, events) in &tasks {
            built = built && push_task(&mut sql, new, events).is_ok();
        }
        if built {
            sql.push("; COMMIT");
            // One transaction for all: each commit writes every page it changed (the
            // tasks table, its indexes, each child table) to the WAL, so tasks that
            // share a commit share those pages.
            if let Ok(Ok(rows)) = self.batch(sql).await {
                // Committed: every task answers its number, or (were a row missing)
                // every one the same error, never a second insert.
                let numbers = rows
                    .iter()
                    .map(|row| row.try_get::<i64, _>(0))
                    .collect::<std::result::Result<Vec<_>, _>>();
                return match numbers {
                    Ok(numbers) if numbers.len() == tasks.len() => numbers
                        .into_iter()
                        .map(|seq| Ok((Inserted::New, Some(seq))))
                        .collect(),
                    _ => tasks
                        .iter()
                        .map(|_| {
                            Err(db(sqlx::Error::Protocol(
                                "a group insert did not answer one number per task".into(),
                            )))
                        })
                        .collect(),
                };
            }
        }
        // Nothing of the group was stored: one by one, each with its own answer (a
        // task whose id was taken, say, does not keep the others out).
        let mut answers = Vec::with_capacity(tasks.len());
        for (new, events) in tasks {
            answers.push(self.insert_numbered(new, &events).await);
        }
        answers
    }

    async fn by_key(&self, owner: &str, key: &str) -> Result<Option<TaskId>> {
        let mut conn = self.pool.acquire().await.map_err(db)?;
        by_idempotency_key(&mut conn, owner, Some(key)).await
    }

    async fn get(&self, id: &TaskId) -> Result<StoredTask> {
        // One statement, so one round trip and one snapshot: the history and tags come
        // as JSON arrays from subqueries (a submit reads its task back this way).
        let row = sqlx::query(concat!(
            "SELECT ",
            task_columns!(),
            ", (SELECT json_group_array(json_array(h.phase, h.at, h.reason, h.keyed) ORDER BY h.n) \
                FROM task_history h WHERE h.task_id = t.id), \
               (SELECT json_group_array(json_array(g.tag_key, g.tag_value) ORDER BY g.n) \
                FROM task_tags g WHERE g.task_id = t.id) \
             FROM tasks t WHERE t.id = ?"
        ))
        .bind(&id.0)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?
        .ok_or_else(|| not_found(id))?;
        let mut stored = decode_task(&row)?;
        let history: String = row.try_get(TASK_COLUMNS).map_err(db)?;
        let history: Vec<(String, i64, String, Option<String>)> =
            serde_json::from_str(&history).map_err(|e| corrupt(&id.0, "history", Some(e)))?;
        stored.task.history = history
            .into_iter()
            .map(|(phase, at, reason, keyed)| {
                Ok(PhaseChange {
                    phase: parse_phase(&phase).ok_or_else(|| corrupt(&id.0, "history", None))?,
                    at: Timestamp(at),
                    reason,
                    keyed: keyed_from_column(&id.0, keyed.as_deref())?,
                })
            })
            .collect::<Result<_>>()?;
        let tags: String = row.try_get(TASK_COLUMNS + 1).map_err(db)?;
        let tags: Vec<(String, String)> =
            serde_json::from_str(&tags).map_err(|e| corrupt(&id.0, "tags", Some(e)))?;
        stored.tags = tags
            .into_iter()
            .map(|(key, value)| Tag { key, value })
            .collect();
        Ok(stored)
    }

    async fn hidden_values(&self, id: &TaskId) -> Result<Vec<HiddenValue>> {
        let mut tx = self.read().await?;
        let values = hidden_values_of::<Sqlite>(&mut tx, id).await?;
        tx.commit().await.map_err(db)?;
        Ok(values)
    }

    async fn list(&self, query: &ListQuery) -> Result<Page> {
        let mut tx = self.read().await?;
        let page = list_page::<Sqlite>(&mut tx, query, "t.id").await?;
        tx.commit().await.map_err(db)?;
        Ok(page)
    }

    async fn count_phases(&self, query: &ListQuery) -> Result<shared::api::PhaseCounts> {
        let mut tx = self.read().await?;
        let counts = count_phases::<Sqlite>(&mut tx, query).await?;
        tx.commit().await.map_err(db)?;
        Ok(counts)
    }

    async fn advance(&self, id: &TaskId, change: PhaseChange, attempts: u32) -> Result<()> {
        self.change_phase(id, change, Some(attempts)).await
    }

    async fn set_hold(
        &self,
        id: &TaskId,
        quota: &[QuotaUse],
        placement: Option<&Placement>,
    ) -> Result<()> {
        let quota = encode("quota", &quota)?;
        let placement = placement.map(|p| encode("placement", p)).transpose()?;
        let done = sqlx::query("UPDATE tasks SET quota = ?, placement = ? WHERE id = ?")
            .bind(quota)
            .bind(placement)
            .bind(&id.0)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        if done.rows_affected() == 0 {
            return Err(not_found(id));
        }
        Ok(())
    }

    async fn push_event(&self, id: &TaskId, event: &TaskEvent) -> Result<()> {
        let done = sqlx::query(
            "INSERT INTO task_events (task_id, n, at, kind, message, keyed) \
             SELECT t.id, \
                    (SELECT COALESCE(MAX(e.n), 0) + 1 FROM task_events e WHERE e.task_id = t.id), \
                    ?, ?, ?, ? \
             FROM tasks t WHERE t.id = ?",
        )
        .bind(event.at.0)
        .bind(&event.kind)
        .bind(storable(&event.message))
        .bind(keyed_column(event.keyed.as_ref()))
        .bind(&id.0)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        if done.rows_affected() == 0 {
            return Err(not_found(id));
        }
        Ok(())
    }

    async fn events_page(&self, id: &TaskId, query: EventQuery<'_>) -> Result<EventPage> {
        let mut tx = self.read().await?;
        let page = events_of::<Sqlite>(&mut tx, id, query).await?;
        tx.commit().await.map_err(db)?;
        Ok(page)
    }

    async fn unfinished(&self) -> Result<Vec<StoredTask>> {
        let mut sql = QueryBuilder::<Sqlite>::new(concat!(
            "SELECT ",
            task_columns!(),
            " FROM tasks t WHERE t.phase NOT IN ("
        ));
        let mut finished = sql.separated(", ");
        for phase in ALL_PHASES.into_iter().filter(|p| p.is_finished()) {
            finished.push_bind(phase_code(phase));
        }
        sql.push(") ORDER BY t.seq");
        let mut tx = self.read().await?;
        let rows = sql.build().fetch_all(&mut *tx).await.map_err(db)?;
        let tasks = rows.iter().map(decode_task).collect::<Result<Vec<_>>>()?;
        let tasks = attach_details::<Sqlite>(&mut tx, tasks).await?;
        tx.commit().await.map_err(db)?;
        Ok(tasks)
    }

    async fn set_tags(&self, id: &TaskId, tags: &[Tag], expected: Option<&[Tag]>) -> Result<()> {
        let mut tx = self.write().await?;
        require_task::<Sqlite>(&mut tx, id).await?;
        if let Some(expected) = expected
            && tags_of::<Sqlite>(&mut tx, id).await? != expected
        {
            return Err(StoreError::TagsChanged { task: id.clone() });
        }
        sqlx::query("DELETE FROM task_tags WHERE task_id = ?")
            .bind(&id.0)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        insert_tags(&mut tx, id, tags).await?;
        tx.commit().await.map_err(db)
    }

    async fn create_share(&self, id: &TaskId, token: &str, by: &str, at: Timestamp) -> Result<u32> {
        // One statement: SQLite's write lock keeps two links of a task from one number.
        let done: std::result::Result<Option<i64>, _> = sqlx::query_scalar(
            "INSERT INTO task_shares (token, task_id, created_at, n, created_by) \
             SELECT ?, t.id, ?, \
                    (SELECT COALESCE(MAX(s.n), 0) + 1 FROM task_shares s WHERE s.task_id = t.id), \
                    ? \
             FROM tasks t WHERE t.id = ? RETURNING n",
        )
        .bind(token)
        .bind(at.0)
        .bind(by)
        .bind(&id.0)
        .fetch_optional(&self.pool)
        .await;
        match done {
            Ok(None) => Err(not_found(id)),
            Ok(Some(n)) => u32::try_from(n).map_err(|_| corrupt(&id.0, "share link number", None)),
            Err(error) if is_unique_violation(&error) => Err(StoreError::TokenTaken),
            Err(error) => Err(db(error)),
        }
    }

    async fn shares(&self, id: &TaskId) -> Result<Vec<Share>> {
        let mut tx = self.read().await?;
        let shares = shares_of::<Sqlite>(&mut tx, id).await?;
        tx.commit().await.map_err(db)?;
        Ok(shares)
    }

    async fn revoke_share(&self, id: &TaskId, link: u32, at: Timestamp) -> Result<bool> {
        let mut tx = self.write().await?;
        require_task::<Sqlite>(&mut tx, id).await?;
        let done = sqlx::query(
            "UPDATE task_shares SET revoked_at = ? \
             WHERE task_id = ? AND n = ? AND revoked_at IS NULL",
        )
        .bind(at.0)
        .bind(&id.0)
        .bind(i64::from(link))
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        tx.commit().await.map_err(db)?;
        Ok(done.rows_affected() == 1)
    }

    async fn shared(&self, token: &str) -> Result<Option<TaskId>> {
        let id: Option<String> = sqlx::query_scalar(
            "SELECT task_id FROM task_shares WHERE token = ? AND revoked_at IS NULL",
        )
        .bind(token)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        Ok(id.map(TaskId))
    }

    async fn delete(&self, id: &TaskId, at: Timestamp) -> Result<()> {
        let change = PhaseChange {
            phase: TaskPhase::Deleted,
            at,
            reason: String::new(),
            keyed: None,
        };
        self.change_phase(id, change, None).await
    }
}

/// The task the owner submitted with `key`, if any.
async fn by_idempotency_key(
    conn: &mut SqliteConnection,
    owner: &str,
    key: Option<&str>,
) -> Result<Option<TaskId>> {
    let Some(key) = key else {
        return Ok(None);
    };
    let id: Option<String> =
        sqlx::query_scalar("SELECT id FROM tasks WHERE owner = ? AND idempotency_key = ?")
            .bind(owner)
            .bind(key)
            .fetch_optional(conn)
            .await
            .map_err(db)?;
    Ok(id.map(TaskId))
}

/// [`StoreError::NotFound`] unless a task has `id`.
async fn insert_tags(conn: &mut SqliteConnection, id: &TaskId, tags: &[Tag]) -> Result<()> {
    let mut sql = QueryBuilder::<Sqlite>::new("");
    push_tags(&mut sql, id, tags);
    if tags.is_empty() {
        return Ok(());
    }
    sql.build().execute(&mut *conn).await.map_err(db)?;
    Ok(())
}

/// Appends the statements that insert `tags`, numbered from 1, to `sql`.
/// Appends the statements that insert `new` and its `events` (after a `;` unless `sql`
/// is empty): the task row, which answers the submit number it got, then every child
/// row. One batch of statements: each statement was a round trip to the connection's
/// thread.
fn push_task(sql: &mut QueryBuilder<Sqlite>, new: &NewTask, events: &[TaskEvent]) -> Result<()> {
    let task = &new.task;
    let spec = encode("spec", &task.spec.masked())?;
    let quota = encode("quota", &new.quota)?;
    if !sql.sql().as_str().is_empty() {
        sql.push("; ");
    }
    sql.push(
        "INSERT INTO tasks (id, seq, owner, project_group, task_type, visible_in_group, \
         phase, attempts, created_at, updated_at, spec, quota, placement, idempotency_key, \
         owner_org, owner_tenant_id, made_from, made_how) SELECT ",
    );
    let mut row = sql.separated(", ");
    row.push_bind(task.id.0.clone())
        .push_unseparated(", COALESCE(MAX(seq), 0) + 1, ")
        .push_bind_unseparated(task.owner.clone())
        .push_bind(task.spec.basic.project_group.clone())
        .push_bind(task_type_code(task.spec.task_type()))
        .push_bind(i64::from(task.spec.basic.visible_in_group))
        .push_bind(phase_code(task.phase))
        .push_bind(i64::from(task.attempts))
        .push_bind(task.created_at.0)
        .push_bind(task.updated_at.0)
        .push_bind(spec)
        .push_bind(quota)
        .push("NULL")
        .push_bind(new.idempotency_key.clone())
        .push_bind(new.owner_org.clone())
        .push_bind(new.owner_tenant_id.clone())
        .push_bind(new.made_from.as_ref().map(|from| from.task.0.clone()))
        .push_bind(
            new.made_from
                .as_ref()
                .map(|from| super::rows::made_how_code(from.how)),
        );
    // The task's number: the only row its statements answer.
    sql.push(" FROM tasks RETURNING seq");
    let id = &task.id.0;
    push_rows(
        sql,
        "task_history (task_id, n, phase, at, reason, keyed)",
        (1_i64..).zip(&task.history),
        |mut b, (n, change)| {
            b.push_bind(id.clone())
                .push_bind(n)
                .push_bind(phase_code(change.phase))
                .push_bind(change.at.0)
                .push_bind(storable(&change.reason))
                .push_bind(keyed_column(change.keyed.as_ref()));
        },
    );
    push_rows(
        sql,
        "task_hidden_env (task_id, env_index, value)",
        hidden_of(&task.spec),
        |mut b, hidden| {
            b.push_bind(id.clone())
                .push_bind(to_i64(hidden.index))
                .push_bind(hidden.value);
        },
    );
    push_tags(sql, &task.id, &task.spec.basic.tags);
    // A new task has no events yet, so they are numbered from 1.
    push_rows(
        sql,
        "task_events (task_id, n, at, kind, message, keyed)",
        (1_i64..).zip(events),
        |mut b, (n, event)| {
            b.push_bind(id.clone())
                .push_bind(n)
                .push_bind(event.at.0)
                .push_bind(event.kind.clone())
                .push_bind(storable(&event.message))
                .push_bind(keyed_column(event.keyed.as_ref()));
        },
    );
    Ok(())
}

fn push_tags(sql: &mut QueryBuilder<Sqlite>, id: &TaskId, tags: &[Tag]) {
    push_rows(
        sql,
        "task_tags (task_id, n, tag_key, tag_value)",
        (1_i64..).zip(tags),
        |mut b, (n, tag)| {
            b.push_bind(id.0.clone())
                .push_bind(n)
                .push_bind(tag.key.clone())
                .push_bind(tag.value.clone());
        },
    );
}

/// Rows per multi-row `INSERT`: at five columns, well under SQLite's bound-variable
/// limit.
const ROWS_PER_INSERT: usize = 400;

/// Appends multi-row `INSERT INTO <table> VALUES ...` statements for `rows` to `sql`
/// (none when there is no row), each after a `;` unless `sql` is empty.
fn push_rows<T>(
    sql: &mut QueryBuilder<Sqlite>,
    table: &str,
    rows: impl IntoIterator<Item = T>,
    mut row: impl FnMut(sqlx::query_builder::Separated<'_, Sqlite, &'static str>, T),
) {
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        if !sql.sql().as_str().is_empty() {
            sql.push("; ");
        }
        sql.push("INSERT INTO ");
        sql.push(table);
        sql.push(" ");
        sql.push_values(rows.by_ref().take(ROWS_PER_INSERT), &mut row);
    }
}

/// Whether SQLite said, somewhere in `error`'s chain, that the database is read-only
/// (`SQLITE_READONLY`, or one of its extended codes, `8 | n << 8`).
/// `error` as [`StoreError::ReadOnly`] where SQLite said the file may not be written,
/// with how to mend it; else as `otherwise` makes it.
fn read_only_or<E>(path: &Path, error: E, otherwise: impl FnOnce(E) -> StoreError) -> StoreError
where
    E: std::error::Error + Send + Sync + 'static,
{
    if is_read_only(&error) {
        StoreError::ReadOnly {
            path: path.to_owned(),
            source: Box::new(error),
        }
    } else {
        otherwise(error)
    }
}

fn is_read_only(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(error) = cause {
        let code = error
            .downcast_ref::<sqlx::Error>()
            .and_then(sqlx::Error::as_database_error)
            .and_then(|e| e.code())
            .and_then(|code| code.parse::<i32>().ok());
        if code.is_some_and(|code| code & 0xff == 8) {
            return true;
        }
        cause = error.source();
    }
    false
}

fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn is_unique_violation(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|e| e.is_unique_violation())
}

#[cfg(test)]
mod tests {
    //! What only SQLite has; what every store does is in `conformance.rs`.
    use super::*;

    /// A store on a fresh file, in a directory `open` must create.
    async fn store() -> (tempfile::TempDir, SqliteStore) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SqliteStore::open(&dir.path().join("data/tasks.db"))
            .await
            .expect("opens");
        (dir, store)
    }

    /// The file at `path` opened as SQLite opens one its user may not write: refused as
    /// read-only; what it says.
    async fn refused_read_only(path: &Path) -> String {
        let err = SqliteStore::open_with(path, SqliteConnectOptions::new().read_only(true))
            .await
            .expect_err("refused");
        assert!(
            matches!(err, StoreError::ReadOnly { .. }),
            "{}",
            crate::error_chain(&err)
        );
        crate::error_chain(&err)
    }

    /// A file this process may only read is refused at the start, saying so and how to
    /// mend it: opened read-only without a word, it served reads while every submit
    /// answered 500 (operator exploration). Opened read-only here, as SQLite opens a
    /// file its user may not write (a test run as root may write any file).
    #[tokio::test]
    async fn a_database_that_cannot_be_written_is_refused_at_the_start() {
        let (dir, store) = store().await;
        store.close().await;
        let path = dir.path().join("data/tasks.db");
        let said = refused_read_only(&path).await;
        assert!(
            said.contains("cannot be written") && said.contains("readonly database"),
            "{said}"
        );
        // The same file, writable, opens.
        SqliteStore::open(&path).await.expect("opens");
    }

    /// A read-only file still in SQLite's default journal fails at the connection, as
    /// the switch to WAL needs a write: said as any read-only file is (review).
    #[tokio::test]
    async fn a_read_only_file_not_in_wal_mode_is_refused_as_read_only() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("tasks.db");
        let made = sqlx::SqlitePool::connect_with(
            SqliteConnectOptions::new()
                .filename(&path)
                .create_if_missing(true),
        )
        .await
        .expect("made");
        sqlx::query("CREATE TABLE other (x)")
            .execute(&made)
            .await
            .expect("written");
        made.close().await;
        refused_read_only(&path).await;
    }

    /// Links made before they could be listed are numbered by when they were made, each
    /// task's from 1, and credited to their task's owner, the only one who could make
    /// them; they work until revoked.
    #[tokio::test]
    async fn share_links_made_before_they_were_numbered_read_back_numbered() {
        let pool = sqlx::SqlitePool::connect("sqlite::memory:")
            .await
            .expect("opens");
        for schema in [
            include_str!("../../migrations/0001_tasks.sql"),
            include_str!("../../migrations/0002_keyed_messages.sql"),
            include_str!("../../migrations/0003_owner_org_tenant.sql"),
            include_str!("../../migrations/0004_task_events_kind.sql"),
        ] {
            sqlx::raw_sql(schema)
                .execute(&pool)
                .await
                .expect("migrates");
        }
        sqlx::raw_sql(
            "INSERT INTO tasks (id, seq, owner, project_group, task_type, visible_in_group, \
             phase, attempts, created_at, updated_at, spec, quota) VALUES \
             ('a-1', 1, 'alice', 'nlp', 'pytorch_job', 0, 'running', 1, 1, 1, '{}', '[]'), \
             ('b-1', 2, 'bob', 'nlp', 'pytorch_job', 0, 'running', 1, 1, 1, '{}', '[]'); \
             INSERT INTO task_shares (token, task_id, created_at) VALUES \
             ('t-late', 'a-1', 30), ('t-early', 'a-1', 10), ('t-b', 'a-1', 20), \
             ('t-a', 'a-1', 20), ('t-bob', 'b-1', 5);",
        )
        .execute(&pool)
        .await
        .expect("inserts");
        sqlx::raw_sql(include_str!("../../migrations/0005_share_links.sql"))
            .execute(&pool)
            .await
            .expect("migrates");
        let rows: Vec<(String, i64, String, Option<i64>)> = sqlx::query_as(
            "SELECT token, n, created_by, revoked_at FROM task_shares ORDER BY task_id, n",
        )
        .fetch_all(&pool)
        .await
        .expect("reads");
        let row = |token: &str, n: i64, by: &str| (token.to_owned(), n, by.to_owned(), None);
        assert_eq!(
            rows,
            [
                row("t-early", 1, "alice"),
                row("t-a", 2, "alice"),
                row("t-b", 3, "alice"),
                row("t-late", 4, "alice"),
                row("t-bob", 1, "bob"),
            ]
        );
    }

    #[tokio::test]
    async fn the_file_is_opened_in_wal_mode_with_foreign_keys_on() {
        let (dir, store) = store().await;
        assert!(dir.path().join("data/tasks.db").is_file());
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&store.pool)
            .await
            .expect("reads");
        assert_eq!(mode, "wal");
        let foreign_keys: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
            .fetch_one(&store.pool)
            .await
            .expect("reads");
        assert_eq!(foreign_keys, 1);
        let synchronous: i64 = sqlx::query_scalar("PRAGMA synchronous")
            .fetch_one(&store.pool)
            .await
            .expect("reads");
        assert_eq!(synchronous, 1, "NORMAL");
    }

    /// A page of a task's events is read as a range of an index (README, Known gaps:
    /// they were all read and the page cut from them): every kind's by number in the
    /// primary key, one kind's newest first in `task_events_kind`, with no sort.
    #[tokio::test]
    async fn a_page_of_events_is_a_range_of_an_index() {
        let (_dir, store) = store().await;
        let t = TaskId("train-x2b4c".into());
        for (kinds, index) in [
            (
                &[][..],
                "INDEX sqlite_autoindex_task_events_1 (task_id=? AND n>? AND n<?)",
            ),
            (
                &["retrying"][..],
                "USING INDEX task_events_kind (task_id=? AND kind=?)",
            ),
        ] {
            let mut sql = QueryBuilder::<Sqlite>::new("EXPLAIN QUERY PLAN ");
            super::super::rows::push_events_page(&mut sql, &t, kinds, (10, 60, 80));
            let plan: Vec<(i64, i64, i64, String)> = sql
                .build_query_as()
                .fetch_all(&store.pool)
                .await
                .expect("a plan");
            let details: Vec<&str> = plan.iter().map(|(_, _, _, d)| d.as_str()).collect();
            assert_eq!(details.len(), 1, "{kinds:?}: {details:#?}");
            assert!(details[0].contains(index), "{kinds:?}: {details:#?}");
        }
    }

    /// Brief srv8 item 3: `stopping_since` (in every read of a task and of the list)
    /// seeks a task's events by kind in the `task_events_kind` index, both its `stopping`
    /// events and a `retrying` or `queued` one after each, rather than reading all the
    /// task's events through the primary key.
    #[tokio::test]
    async fn stopping_since_seeks_the_task_s_events_by_kind() {
        let (_dir, store) = store().await;
        let plan: Vec<(i64, i64, i64, String)> = sqlx::query_as(concat!(
            "EXPLAIN QUERY PLAN SELECT ",
            task_columns!(),
            " FROM tasks t WHERE t.id = ?"
        ))
        .bind("train-x2b4c")
        .fetch_all(&store.pool)
        .await
        .expect("a plan");
        let events: Vec<&str> = plan
            .iter()
            .map(|(_, _, _, detail)| detail.as_str())
            .filter(|detail| detail.contains(" s ") || detail.contains(" r "))
            .collect();
        assert_eq!(events.len(), 2, "{plan:#?}");
        for detail in events {
            assert!(
                detail.contains("INDEX task_events_kind (task_id=? AND kind=?"),
                "{detail} in {plan:#?}"
            );
        }
    }
}
