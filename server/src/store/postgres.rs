//! [`TaskStore`] on a PostgreSQL database that several server processes share.
//!
//! # Design
//!
//! - The schema is SQLite's, from the same migrations (`server/migrations`): they are
//!   portable SQL (TEXT and BIGINT, JSON as TEXT, no autoincrement).
//! - Sequence numbers are computed in the inserting statement (`MAX(n) + 1`) as in
//!   SQLite, but Postgres runs writers side by side, so what SQLite's single write lock
//!   did is done by locks: every task insert holds the transaction advisory lock
//!   [`SUBMIT_LOCK`], and every write to one task's rows first locks that task's row
//!   (`SELECT … FOR UPDATE`).
//! - [`SUBMIT_LOCK`] is also what serialises quota between processes: a
//!   [`Reservation`] holds it from the read of the quota every unfinished task holds
//!   until the new task is committed.
//! - Leadership ([`TaskStore::lead`]) is the session advisory lock [`LEADER_LOCK`] on a
//!   connection kept apart from the pool: Postgres releases it when that connection
//!   ends, with the process or its network.
//! - Reads that join several tables run in one `REPEATABLE READ` transaction, a
//!   consistent snapshot.
//! - Ids compare byte-wise (`COLLATE "C"`), as in SQLite, whatever the database's
//!   collation, so list pages and cursors order alike in both stores.

use super::rows::{
    attach_details, corrupt, count_phases, db, decode_task, encode, events_of, hidden_values_of,
    list_page, not_found, shares_of, tags_of,
};
use super::{
    ALL_PHASES, EventPage, EventQuery, HiddenValue, Inserted, ListQuery, NewTask, Page,
    Reservation, Result, Share, StoreError, StoredTask, TaskEvent, TaskStore, hidden_of,
    keyed_column, parse_phase, phase_code, storable, task_type_code, without_password,
};
use shared::quota::Placement;
use shared::record::{PhaseChange, TaskId, TaskPhase, Timestamp};
use shared::task::Tag;
use shared::usage::QuotaUse;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions, Postgres};
use sqlx::{ConnectOptions, Connection, QueryBuilder, Row, Transaction};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Mutex;

/// Connections in the pool of one process.
const MAX_CONNECTIONS: u32 = 16;

/// How long a connection attempt may take before the store gives up.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Tries of an event insert that lost a race for its number: each round of racing
/// pushes has one winner, so this many writers to one task at once all succeed.
const EVENT_TRIES: usize = 32;

/// The advisory lock every task insert and every quota reservation holds ("berth"
/// and 1 in ASCII, so another application on the database is unlikely to pick it).
pub const SUBMIT_LOCK: i64 = 0x6265_7274_6801;

/// The advisory lock the leading process holds on its own connection.
pub const LEADER_LOCK: i64 = 0x6265_7274_6802;

/// The task store on a PostgreSQL database.
#[derive(Clone, Debug)]
pub struct PostgresStore {
    pool: PgPool,
    options: PgConnectOptions,
    /// The connection holding [`LEADER_LOCK`], while this process leads, and the term it
    /// last led under.
    leader: Arc<Mutex<Leader>>,
}

/// This process's part in leading.
#[derive(Debug, Default)]
struct Leader {
    /// The connection holding [`LEADER_LOCK`], while this process leads.
    conn: Option<PgConnection>,
    /// The term (`lead_term`) it last led under; none before it first led.
    term: Option<i64>,
    /// Given up for good: the server is stopping ([`TaskStore::resign`]).
    resigned: bool,
}

/// Whether sqlx's pool tries a connection that failed so again until its timeout: a
/// refused one (the database's machine is up, its server not yet), or PostgreSQL's
/// "the database system is starting up" (57P03) and "too many connections" (53300: the
/// connections of servers restarted together, not yet ended; review).
fn tried_again(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(io) => io.kind() == std::io::ErrorKind::ConnectionRefused,
        other => other
            .as_database_error()
            .and_then(|e| e.code())
            .is_some_and(|code| code == "57P03" || code == "53300"),
    }
}

impl PostgresStore {
    /// Connects to the database at `url` and brings the schema up to date (sqlx's
    /// migrator takes its own lock, so servers starting together migrate once).
    ///
    /// # Errors
    ///
    /// [`StoreError::Connect`] or [`StoreError::Migrate`].
    pub async fn connect(url: &str) -> Result<Self> {
        let connect_error = |source| StoreError::Connect {
            url: without_password(url),
            source,
        };
        // Before sqlx reads it: sqlx logs an unknown parameter's value.
        if let Some(key) = super::misspelt_password_key(url) {
            return Err(StoreError::PasswordKey {
                key,
                url: without_password(url),
            });
        }
        let options = PgConnectOptions::from_str(url)
            .map_err(connect_error)?
            .application_name("berth");
        // Said before the wait: a database that does not answer took 10 s with no word.
        tracing::info!("connecting to the task database {}", without_password(url));
        Self::connect_with(options)
            .await
            .map_err(|error| match error {
                StoreError::Database(source) => connect_error(source),
                other => other,
            })
    }

    /// As [`PostgresStore::connect`], with options already read.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] or [`StoreError::Migrate`].
    pub async fn connect_with(options: PgConnectOptions) -> Result<Self> {
        // sqlx's pool tries a refused connection again until its timeout, and then says
        // only "pool timed out while waiting for an open connection": "connection
        // refused" was lost (operator exploration). One connection of our own first
        // keeps the cause.
        let refused = match tokio::time::timeout(CONNECT_TIMEOUT, options.connect()).await {
            Ok(Ok(conn)) => {
                let _ = conn.close().await;
                None
            }
            Ok(Err(error)) if tried_again(&error) => {
                tracing::warn!(
                    %error,
                    "the task database does not take connections; trying again for {} s",
                    CONNECT_TIMEOUT.as_secs()
                );
                Some(error)
            }
            Ok(Err(error)) => return Err(db(error)),
            Err(_) => {
                return Err(db(sqlx::Error::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("no answer within {} s", CONNECT_TIMEOUT.as_secs()),
                ))));
            }
        };
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(CONNECT_TIMEOUT)
            .connect_with(options.clone())
            .await
            .map_err(|error| match (error, refused) {
                (sqlx::Error::PoolTimedOut, Some(refused)) => db(refused),
                (error, _) => db(error),
            })?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(StoreError::Migrate)?;
        Ok(PostgresStore {
            pool,
            options,
            leader: Arc::new(Mutex::new(Leader::default())),
        })
    }

    /// Closes every connection, the leader's too (another process may then lead).
    pub async fn close(&self) {
        if let Some(conn) = self.leader.lock().await.conn.take() {
            let _ = conn.close().await;
        }
        self.pool.close().await;
    }

    /// A write transaction.
    async fn write(&self) -> Result<Transaction<'static, Postgres>> {
        self.pool.begin().await.map_err(db)
    }

    /// A read transaction: one consistent snapshot.
    async fn read(&self) -> Result<Transaction<'static, Postgres>> {
        self.pool
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .await
            .map_err(db)
    }

    /// Moves a task to `change.phase`; `attempts` `None` keeps the count.
    async fn change_phase(
        &self,
        id: &TaskId,
        change: PhaseChange,
        attempts: Option<u32>,
    ) -> Result<()> {
        let mut tx = self.write().await?;
        // The row lock orders concurrent changes of one task (and their history rows).
        let row = sqlx::query("SELECT phase, attempts FROM tasks WHERE id = $1 FOR UPDATE")
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
        sqlx::query("UPDATE tasks SET phase = $1, attempts = $2, updated_at = $3 WHERE id = $4")
            .bind(phase_code(change.phase))
            .bind(attempts)
            .bind(change.at.0)
            .bind(&id.0)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        sqlx::query(
            "INSERT INTO task_history (task_id, n, phase, at, reason, keyed) \
             SELECT $1, COALESCE(MAX(n), 0) + 1, $2, $3, $4, $5 FROM task_history \
             WHERE task_id = $1",
        )
        .bind(&id.0)
        .bind(phase_code(change.phase))
        .bind(change.at.0)
        .bind(storable(&change.reason))
        .bind(keyed_column(change.keyed.as_ref()))
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        tx.commit().await.map_err(db)
    }

    /// A transaction holding [`SUBMIT_LOCK`].
    async fn submit_lock(&self) -> Result<Transaction<'static, Postgres>> {
        let mut tx = self.write().await?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(SUBMIT_LOCK)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        Ok(tx)
    }
}

#[async_trait::async_trait]
impl TaskStore for PostgresStore {
    async fn insert(&self, new: NewTask) -> Result<Inserted> {
        self.insert_with_events(new, &[]).await
    }

    async fn insert_with_events(&self, new: NewTask, events: &[TaskEvent]) -> Result<Inserted> {
        let mut tx = self.submit_lock().await?;
        let inserted = insert_locked(&mut tx, &new).await?;
        if inserted == Inserted::New {
            insert_first_events(&mut tx, &new.task.id, events).await?;
            tx.commit().await.map_err(db)?;
        }
        Ok(inserted)
    }

    async fn by_key(&self, owner: &str, key: &str) -> Result<Option<TaskId>> {
        by_idempotency_key(&self.pool, owner, key).await
    }

    async fn get(&self, id: &TaskId) -> Result<StoredTask> {
        let mut tx = self.read().await?;
        let row = sqlx::query(concat!(
            "SELECT ",
            task_columns!(),
            " FROM tasks t WHERE t.id = $1"
        ))
        .bind(&id.0)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db)?
        .ok_or_else(|| not_found(id))?;
        let task = decode_task(&row)?;
        let mut tasks = attach_details::<Postgres>(&mut tx, vec![task]).await?;
        tx.commit().await.map_err(db)?;
        tasks.pop().ok_or_else(|| not_found(id))
    }

    async fn hidden_values(&self, id: &TaskId) -> Result<Vec<HiddenValue>> {
        let mut tx = self.read().await?;
        let values = hidden_values_of::<Postgres>(&mut tx, id).await?;
        tx.commit().await.map_err(db)?;
        Ok(values)
    }

    async fn list(&self, query: &ListQuery) -> Result<Page> {
        let mut tx = self.read().await?;
        let page = list_page::<Postgres>(&mut tx, query, "t.id COLLATE \"C\"").await?;
        tx.commit().await.map_err(db)?;
        Ok(page)
    }

    async fn count_phases(&self, query: &ListQuery) -> Result<shared::api::PhaseCounts> {
        let mut tx = self.read().await?;
        let counts = count_phases::<Postgres>(&mut tx, query).await?;
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
        let done = sqlx::query("UPDATE tasks SET quota = $1, placement = $2 WHERE id = $3")
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
        // One statement, no transaction or row lock: events are written often. Two
        // pushes to one task at once may compute the same number; the loser retries.
        for _ in 0..EVENT_TRIES {
            let done = sqlx::query(
                "INSERT INTO task_events (task_id, n, at, kind, message, keyed) \
                 SELECT $1, COALESCE(MAX(n), 0) + 1, $2, $3, $4, $5 FROM task_events \
                 WHERE task_id = $1",
            )
            .bind(&id.0)
            .bind(event.at.0)
            .bind(&event.kind)
            .bind(storable(&event.message))
            .bind(keyed_column(event.keyed.as_ref()))
            .execute(&self.pool)
            .await;
            match done {
                Ok(_) => return Ok(()),
                Err(error) if is_foreign_key_violation(&error) => return Err(not_found(id)),
                Err(error) if is_unique_violation(&error) => continue,
                Err(error) => return Err(db(error)),
            }
        }
        Err(StoreError::Database(sqlx::Error::Protocol(format!(
            "event {} of task {id} lost the race for its number {EVENT_TRIES} times",
            event.kind
        ))))
    }

    async fn events_page(&self, id: &TaskId, query: EventQuery<'_>) -> Result<EventPage> {
        let mut tx = self.read().await?;
        let page = events_of::<Postgres>(&mut tx, id, query).await?;
        tx.commit().await.map_err(db)?;
        Ok(page)
    }

    async fn unfinished(&self) -> Result<Vec<StoredTask>> {
        let mut sql = QueryBuilder::<Postgres>::new(concat!(
            "SELECT ",
            task_columns!(),
            " FROM tasks t WHERE "
        ));
        push_unfinished(&mut sql);
        sql.push(" ORDER BY t.seq");
        let mut tx = self.read().await?;
        let rows = sql.build().fetch_all(&mut *tx).await.map_err(db)?;
        let tasks = rows.iter().map(decode_task).collect::<Result<Vec<_>>>()?;
        let tasks = attach_details::<Postgres>(&mut tx, tasks).await?;
        tx.commit().await.map_err(db)?;
        Ok(tasks)
    }

    async fn set_tags(&self, id: &TaskId, tags: &[Tag], expected: Option<&[Tag]>) -> Result<()> {
        let mut tx = self.write().await?;
        lock_task(&mut tx, id).await?;
        if let Some(expected) = expected
            && tags_of::<Postgres>(&mut tx, id).await? != expected
        {
            return Err(StoreError::TagsChanged { task: id.clone() });
        }
        sqlx::query("DELETE FROM task_tags WHERE task_id = $1")
            .bind(&id.0)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        insert_tags(&mut tx, id, tags).await?;
        tx.commit().await.map_err(db)
    }

    async fn create_share(&self, id: &TaskId, token: &str, by: &str, at: Timestamp) -> Result<u32> {
        // The task's row lock keeps two links made at once from one number. ON CONFLICT
        // keeps a taken token from aborting the transaction: it inserts no row.
        let mut tx = self.write().await?;
        lock_task(&mut tx, id).await?;
        let n: Option<i64> = sqlx::query_scalar(
            "INSERT INTO task_shares (token, task_id, created_at, n, created_by) \
             SELECT $1, $2, $3, COALESCE(MAX(n), 0) + 1, $4 FROM task_shares \
             WHERE task_id = $2 ON CONFLICT (token) DO NOTHING RETURNING n",
        )
        .bind(token)
        .bind(&id.0)
        .bind(at.0)
        .bind(by)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db)?;
        let n = n.ok_or(StoreError::TokenTaken)?;
        tx.commit().await.map_err(db)?;
        u32::try_from(n).map_err(|_| corrupt(&id.0, "share link number", None))
    }

    async fn shares(&self, id: &TaskId) -> Result<Vec<Share>> {
        let mut tx = self.read().await?;
        let shares = shares_of::<Postgres>(&mut tx, id).await?;
        tx.commit().await.map_err(db)?;
        Ok(shares)
    }

    async fn revoke_share(&self, id: &TaskId, link: u32, at: Timestamp) -> Result<bool> {
        let mut tx = self.write().await?;
        lock_task(&mut tx, id).await?;
        let done = sqlx::query(
            "UPDATE task_shares SET revoked_at = $1 \
             WHERE task_id = $2 AND n = $3 AND revoked_at IS NULL",
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
            "SELECT task_id FROM task_shares WHERE token = $1 AND revoked_at IS NULL",
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

    fn replicated(&self) -> bool {
        true
    }

    async fn resign(&self) {
        let mut leader = self.leader.lock().await;
        leader.resigned = true;
        if let Some(conn) = leader.conn.take() {
            let _ = conn.close().await;
        }
    }

    async fn ping(&self) -> Result<()> {
        super::rows::ping(&self.pool).await
    }

    async fn reserve(&self) -> Result<Option<Box<dyn Reservation>>> {
        Ok(Some(Box::new(PgReservation {
            tx: self.submit_lock().await?,
        })))
    }

    async fn lead(&self) -> Result<Option<u64>> {
        let mut leader = self.leader.lock().await;
        if leader.resigned {
            return Ok(None);
        }
        if let Some(conn) = leader.conn.as_mut() {
            if conn.ping().await.is_ok() {
                return Ok(leader.term.map(term));
            }
            // The connection is gone, and with it the lock: another process may lead.
            leader.conn = None;
        }
        let mut conn = self.options.connect().await.map_err(db)?;
        let taken: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)")
            .bind(LEADER_LOCK)
            .fetch_one(&mut conn)
            .await
            .map_err(db)?;
        if !taken {
            let _ = conn.close().await;
            return Ok(None);
        }
        // A new term, unless the lock comes back to the process that last led under the
        // term there: then no other led meanwhile, and what it runs is still its own.
        let raised: Option<i64> = sqlx::query_scalar(
            "UPDATE lead_term SET term = term + 1 WHERE id = 1 AND term <> $1 RETURNING term",
        )
        .bind(leader.term.unwrap_or(-1))
        .fetch_optional(&mut conn)
        .await
        .map_err(db)?;
        if let Some(raised) = raised {
            leader.term = Some(raised);
        }
        leader.conn = Some(conn);
        Ok(leader.term.map(term))
    }
}

/// A term as the store's API gives it (the column is a `BIGINT` from 0 up).
fn term(stored: i64) -> u64 {
    u64::try_from(stored).unwrap_or_default()
}

/// [`TaskStore::reserve`]'s reservation: a transaction holding [`SUBMIT_LOCK`].
struct PgReservation {
    tx: Transaction<'static, Postgres>,
}

#[async_trait::async_trait]
impl Reservation for PgReservation {
    async fn held(&mut self, owner: &str) -> Result<Vec<QuotaUse>> {
        let mut sql =
            QueryBuilder::<Postgres>::new("SELECT t.id, t.quota FROM tasks t WHERE t.owner = ");
        sql.push_bind(owner.to_owned()).push(" AND ");
        push_unfinished(&mut sql);
        let rows = sql.build().fetch_all(&mut *self.tx).await.map_err(db)?;
        let mut held = Vec::new();
        for row in rows {
            let id: String = row.try_get(0).map_err(db)?;
            let quota: String = row.try_get(1).map_err(db)?;
            let lines: Vec<QuotaUse> =
                serde_json::from_str(&quota).map_err(|e| corrupt(&id, "quota", Some(e)))?;
            held.extend(lines);
        }
        Ok(held)
    }

    async fn insert(&mut self, new: NewTask, events: &[TaskEvent]) -> Result<Inserted> {
        let inserted = insert_locked(&mut self.tx, &new).await?;
        if inserted == Inserted::New {
            insert_first_events(&mut self.tx, &new.task.id, events).await?;
        }
        Ok(inserted)
    }

    async fn commit(self: Box<Self>) -> Result<()> {
        self.tx.commit().await.map_err(db)
    }
}

/// Inserts a task in a transaction that holds [`SUBMIT_LOCK`]: no other insert runs
/// meanwhile, so looking before inserting cannot race and no statement fails (which
/// would abort the transaction of a reservation).
/// The task `owner` submitted with idempotency key `key`, if any.
async fn by_idempotency_key<'e>(
    executor: impl sqlx::PgExecutor<'e>,
    owner: &str,
    key: &str,
) -> Result<Option<TaskId>> {
    let id: Option<String> =
        sqlx::query_scalar("SELECT id FROM tasks WHERE owner = $1 AND idempotency_key = $2")
            .bind(owner)
            .bind(key)
            .fetch_optional(executor)
            .await
            .map_err(db)?;
    Ok(id.map(TaskId))
}

/// The first events of a task inserted in this transaction, numbered from 1: no other
/// writer sees the task before the transaction commits.
async fn insert_first_events(
    conn: &mut PgConnection,
    id: &TaskId,
    events: &[TaskEvent],
) -> Result<()> {
    for (n, event) in (1_i64..).zip(events) {
        sqlx::query(
            "INSERT INTO task_events (task_id, n, at, kind, message, keyed) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id.0)
        .bind(n)
        .bind(event.at.0)
        .bind(&event.kind)
        .bind(storable(&event.message))
        .bind(keyed_column(event.keyed.as_ref()))
        .execute(&mut *conn)
        .await
        .map_err(db)?;
    }
    Ok(())
}

async fn insert_locked(conn: &mut PgConnection, new: &NewTask) -> Result<Inserted> {
    let task = &new.task;
    let spec = encode("spec", &task.spec.masked())?;
    let quota = encode("quota", &new.quota)?;
    if let Some(key) = &new.idempotency_key
        && let Some(existing) = by_idempotency_key(&mut *conn, &task.owner, key).await?
    {
        return Ok(Inserted::Existing(existing));
    }
    let taken: Option<i32> = sqlx::query_scalar("SELECT 1 FROM tasks WHERE id = $1")
        .bind(&task.id.0)
        .fetch_optional(&mut *conn)
        .await
        .map_err(db)?;
    if taken.is_some() {
        return Err(StoreError::IdTaken {
            task: task.id.clone(),
        });
    }
    sqlx::query(
        "INSERT INTO tasks (id, seq, owner, project_group, task_type, visible_in_group, \
         phase, attempts, created_at, updated_at, spec, quota, placement, idempotency_key, \
         owner_org, owner_tenant_id, made_from, made_how) \
         SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL, $12, \
         $13, $14, $15, $16 FROM tasks",
    )
    .bind(&task.id.0)
    .bind(&task.owner)
    .bind(&task.spec.basic.project_group)
    .bind(task_type_code(task.spec.task_type()))
    .bind(i64::from(task.spec.basic.visible_in_group))
    .bind(phase_code(task.phase))
    .bind(i64::from(task.attempts))
    .bind(task.created_at.0)
    .bind(task.updated_at.0)
    .bind(spec)
    .bind(quota)
    .bind(new.idempotency_key.as_deref())
    .bind(&new.owner_org)
    .bind(&new.owner_tenant_id)
    .bind(new.made_from.as_ref().map(|from| from.task.0.as_str()))
    .bind(
        new.made_from
            .as_ref()
            .map(|from| super::rows::made_how_code(from.how)),
    )
    .execute(&mut *conn)
    .await
    .map_err(db)?;
    for (n, change) in (1_i64..).zip(&task.history) {
        sqlx::query(
            "INSERT INTO task_history (task_id, n, phase, at, reason, keyed) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&task.id.0)
        .bind(n)
        .bind(phase_code(change.phase))
        .bind(change.at.0)
        .bind(storable(&change.reason))
        .bind(keyed_column(change.keyed.as_ref()))
        .execute(&mut *conn)
        .await
        .map_err(db)?;
    }
    for hidden in hidden_of(&task.spec) {
        sqlx::query("INSERT INTO task_hidden_env (task_id, env_index, value) VALUES ($1, $2, $3)")
            .bind(&task.id.0)
            .bind(to_i64(hidden.index))
            .bind(&hidden.value)
            .execute(&mut *conn)
            .await
            .map_err(db)?;
    }
    insert_tags(conn, &task.id, &task.spec.basic.tags).await?;
    Ok(Inserted::New)
}

/// `t.phase NOT IN (<finished phases>)`.
fn push_unfinished(sql: &mut QueryBuilder<Postgres>) {
    sql.push("t.phase NOT IN (");
    let mut finished = sql.separated(", ");
    for phase in ALL_PHASES.into_iter().filter(|p| p.is_finished()) {
        finished.push_bind(phase_code(phase));
    }
    sql.push(")");
}

/// Locks the task's row until the transaction ends; [`StoreError::NotFound`] when no
/// task has `id`.
async fn lock_task(conn: &mut PgConnection, id: &TaskId) -> Result<()> {
    let found: Option<i32> = sqlx::query_scalar("SELECT 1 FROM tasks WHERE id = $1 FOR UPDATE")
        .bind(&id.0)
        .fetch_optional(conn)
        .await
        .map_err(db)?;
    found.map(|_| ()).ok_or_else(|| not_found(id))
}

/// [`StoreError::NotFound`] unless a task has `id`.
async fn insert_tags(conn: &mut PgConnection, id: &TaskId, tags: &[Tag]) -> Result<()> {
    for (n, tag) in (1_i64..).zip(tags) {
        sqlx::query(
            "INSERT INTO task_tags (task_id, n, tag_key, tag_value) VALUES ($1, $2, $3, $4)",
        )
        .bind(&id.0)
        .bind(n)
        .bind(&tag.key)
        .bind(&tag.value)
        .execute(&mut *conn)
        .await
        .map_err(db)?;
    }
    Ok(())
}

fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn is_unique_violation(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|e| e.is_unique_violation())
}

fn is_foreign_key_violation(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|e| e.is_foreign_key_violation())
}

#[cfg(test)]
mod tests {
    //! What only the shared database has; what every store does is in `conformance.rs`.
    use super::*;
    use crate::store::conformance::Fixture;
    use shared::Resources;
    use shared::record::Task;
    use shared::vocab::ResourceKind;

    /// Two stores on one fresh database, as two server processes would have.
    async fn two_servers() -> Option<(PostgresStore, PostgresStore)> {
        let Fixture::Postgres(options) = Fixture::postgres().await? else {
            unreachable!("a postgres fixture");
        };
        let a = PostgresStore::connect_with((*options).clone())
            .await
            .expect("connects");
        let b = PostgresStore::connect_with(*options)
            .await
            .expect("connects");
        Some((a, b))
    }

    fn new_task(id: &str, owner: &str, gpu: u64) -> NewTask {
        NewTask {
            task: Task::queued(
                TaskId(id.into()),
                owner.into(),
                shared::validated(
                    shared::demo::pytorch(),
                    &shared::demo::catalog(),
                    &shared::Usage::new(),
                    &shared::demo::user(),
                )
                .expect("the demo spec is valid")
                .0,
                Timestamp(1),
            ),
            quota: vec![QuotaUse {
                user: owner.into(),
                kind: ResourceKind::Reserved,
                pool: "a100".into(),
                spec: "a100x8".into(),
                used: Resources::new(gpu, 12 * gpu, 96 * gpu),
            }],
            idempotency_key: None,
            owner_org: String::new(),
            owner_tenant_id: String::new(),
            made_from: None,
        }
    }

    /// Advisory locks other sessions wait for now.
    async fn waiting_for_locks(store: &PostgresStore) -> i64 {
        sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
        )
        .fetch_one(&store.pool)
        .await
        .expect("reads")
    }

    /// Brief srv8 item 3: `stopping_since` (in every read of a task and of the list)
    /// can seek a task's events by kind in `task_events_kind` rather than reading all of
    /// them through the primary key. The tables are empty here, where any plan reads
    /// nothing and the planner would scan: sequential scans are priced out, so the plan
    /// shows which index the query can use.
    #[tokio::test]
    async fn stopping_since_can_seek_the_task_s_events_by_kind() {
        let Some((store, _)) = two_servers().await else {
            return;
        };
        let mut tx = store.pool.begin().await.expect("a transaction");
        sqlx::query("SET LOCAL enable_seqscan = off")
            .execute(&mut *tx)
            .await
            .expect("set");
        let plan: Vec<String> = sqlx::query_scalar(concat!(
            "EXPLAIN SELECT ",
            task_columns!(),
            " FROM tasks t WHERE t.id = 'train-x2b4c'"
        ))
        .fetch_all(&mut *tx)
        .await
        .expect("a plan");
        // One seek per subquery (the `stopping` events, a `retrying` or `queued` after
        // one), and none through the primary key.
        let seeks = |index: &str| plan.iter().filter(|line| line.contains(index)).count();
        assert_eq!(seeks("task_events_kind"), 2, "{plan:#?}");
        assert_eq!(seeks("task_events_pkey"), 0, "{plan:#?}");
        // Each seeks by the task and the kind, not a walk of the index with a filter.
        let by_task_and_kind = plan
            .iter()
            .filter(|line| {
                line.contains("Index Cond:") && line.contains("task_id") && line.contains("kind")
            })
            .count();
        assert_eq!(by_task_and_kind, 2, "{plan:#?}");
        tx.rollback().await.expect("rolled back");
        store.close().await;
    }

    /// `sslmode=require` in the URL speaks TLS to the database (the test server offers
    /// it): without a TLS feature the store refused such a URL, and spoke in clear to a
    /// server that offered TLS (multi-server exploration).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_url_that_requires_tls_gets_it() {
        let Some(Fixture::Postgres(options)) = Fixture::postgres().await else {
            return;
        };
        let url = format!(
            "postgres://{}@{}:{}/{}?sslmode=require",
            options.get_username(),
            options.get_host(),
            options.get_port(),
            options.get_database().expect("a database")
        );
        let store = PostgresStore::connect(&url)
            .await
            .expect("connects over TLS");
        let ssl: bool =
            sqlx::query_scalar("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
                .fetch_one(&store.pool)
                .await
                .expect("asks");
        assert!(ssl);
        store.close().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_reservation_waits_for_the_other_servers_and_sees_what_they_took() {
        let Some((a, b)) = two_servers().await else {
            return;
        };
        let mut first = a.reserve().await.expect("reserves").expect("replicated");
        assert_eq!(first.held("alice").await.expect("reads"), Vec::new());
        let queued = TaskEvent {
            at: Timestamp(1),
            kind: "queued".into(),
            message: "waiting for its turn".into(),
            keyed: None,
        };
        first
            .insert(
                new_task("one-aaaaa", "alice", 4),
                std::slice::from_ref(&queued),
            )
            .await
            .expect("inserts");
        first
            .insert(new_task("bob-ccccc", "bob", 2), &[])
            .await
            .expect("inserts");

        let b = Arc::new(b);
        let waiting = {
            let b = Arc::clone(&b);
            tokio::spawn(async move {
                let mut second = b.reserve().await.expect("reserves").expect("replicated");
                second.held("alice").await.expect("reads")
            })
        };
        // The second server waits on the lock until the first commits.
        while waiting_for_locks(&a).await == 0 {
            tokio::task::yield_now().await;
        }
        assert!(!waiting.is_finished());
        first.commit().await.expect("commits");
        let held = waiting.await.expect("joins");
        assert_eq!(held.len(), 1, "alice's holds, not bob's: {held:?}");
        assert_eq!(held[0].used.gpu, 4, "it sees the first server's hold");
        // Its first event came with it, in the one commit, numbered first: pushed after
        // the commit, a leader could run the task before it (multi-server exploration).
        let page = b
            .events_page(&TaskId("one-aaaaa".into()), EventQuery::default())
            .await
            .expect("found");
        assert_eq!((page.events, page.first), (vec![queued], 1));

        // A task that ended holds nothing; a reservation dropped stores nothing.
        b.advance(
            &TaskId("one-aaaaa".into()),
            PhaseChange {
                phase: TaskPhase::Stopped,
                at: Timestamp(2),
                reason: String::new(),
                keyed: None,
            },
            0,
        )
        .await
        .expect("stops");
        let mut third = a.reserve().await.expect("reserves").expect("replicated");
        assert_eq!(third.held("alice").await.expect("reads"), Vec::new());
        third
            .insert(new_task("two-bbbbb", "alice", 1), &[])
            .await
            .expect("inserts");
        drop(third);
        assert!(matches!(
            b.get(&TaskId("two-bbbbb".into())).await,
            Err(StoreError::NotFound { .. })
        ));
    }

    /// Asks `store` to lead until it does (a closed or cut connection's backend releases
    /// its lock a moment after), for up to 10 s.
    async fn leads_soon(store: &PostgresStore) -> u64 {
        for _ in 0..200 {
            if let Some(term) = store.lead().await.expect("asks") {
                return term;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("the lock went with the connection (within 10 s)");
    }

    /// Cuts the connection that holds the leader's lock, as a network or database
    /// restart does.
    async fn cut_the_leader(store: &PostgresStore) {
        sqlx::query(
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' \
             AND granted AND pid <> pg_backend_pid() \
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        )
        .execute(&store.pool)
        .await
        .expect("terminates");
    }

    #[tokio::test]
    async fn one_server_leads_until_its_connection_ends() {
        let Some((a, b)) = two_servers().await else {
            return;
        };
        let first = a.lead().await.expect("asks").expect("a leads");
        assert_eq!(b.lead().await.expect("asks"), None);
        assert_eq!(
            a.lead().await.expect("asks"),
            Some(first),
            "it keeps the lead"
        );
        a.close().await;
        // Closing sends the server a goodbye and returns: its backend releases the lock
        // as it exits, a moment later. A follower asks again on its next round; so here.
        let second = leads_soon(&b).await;
        assert!(second > first, "another server's lead is a new term");
        assert!(b.replicated());
    }

    /// A leader cut from its lock that takes it back keeps its term while no other server
    /// led meanwhile (what it runs is still its own), and gets a new one when another did.
    #[tokio::test]
    async fn a_lead_taken_back_keeps_its_term_only_if_no_other_led_meanwhile() {
        let Some((a, b)) = two_servers().await else {
            return;
        };
        let first = a.lead().await.expect("asks").expect("a leads");
        cut_the_leader(&b).await;
        assert_eq!(leads_soon(&a).await, first, "no other led");
        cut_the_leader(&b).await;
        let second = leads_soon(&b).await;
        assert!(second > first);
        cut_the_leader(&a).await;
        let third = leads_soon(&a).await;
        assert!(third > second, "b led meanwhile: {first} {second} {third}");
    }
}
