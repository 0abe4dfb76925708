//! Reading tasks back from rows, the same on every SQL store: the columns, their
//! decoding, and the history and tags fetched in bulk beside them.

use super::{
    Cursor, EventPage, EventQuery, HiddenValue, ListQuery, MAX_PAGE, Page, Result, Share,
    StoreError, StoredTask, TaskEvent, keyed_from_column, parse_phase,
};
use shared::api::{MadeFrom, MadeHow};
use shared::record::{PhaseChange, TaskId, Timestamp};
use shared::task::Tag;
use sqlx::{Database, Decode, Encode, Executor, QueryBuilder, Row, Type};
use std::collections::HashMap;

/// Task ids per `IN (…)` list, well under SQLite's bound-variable limit.
const IN_CHUNK: usize = 400;

/// How many columns [`decode_task`] reads: a query's own columns follow them.
pub(super) const TASK_COLUMNS: usize = 15;

/// A task row (`task_columns!`: `t.id, t.seq, t.owner, t.phase, t.attempts,
/// t.created_at, t.updated_at, t.spec, t.quota, t.placement, t.owner_org,
/// t.owner_tenant_id, t.made_from, t.made_how` and when its current attempt's stop was
/// asked), without its
/// history and tags.
pub(super) fn decode_task<R>(row: &R) -> Result<StoredTask>
where
    R: Row,
    usize: sqlx::ColumnIndex<R>,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> Option<String>: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> Option<i64>: Decode<'r, R::Database> + Type<R::Database>,
{
    let id: String = row.try_get(0).map_err(db)?;
    let phase: String = row.try_get(3).map_err(db)?;
    let attempts: i64 = row.try_get(4).map_err(db)?;
    let spec: String = row.try_get(7).map_err(db)?;
    let quota: String = row.try_get(8).map_err(db)?;
    let placement: Option<String> = row.try_get(9).map_err(db)?;
    let task = shared::record::Task {
        phase: parse_phase(&phase).ok_or_else(|| corrupt(&id, "phase", None))?,
        attempts: u32::try_from(attempts).map_err(|_| corrupt(&id, "attempts", None))?,
        owner: row.try_get(2).map_err(db)?,
        created_at: Timestamp(row.try_get(5).map_err(db)?),
        updated_at: Timestamp(row.try_get(6).map_err(db)?),
        spec: serde_json::from_str(&spec).map_err(|e| corrupt(&id, "spec", Some(e)))?,
        history: Vec::new(),
        id: TaskId(id.clone()),
    };
    Ok(StoredTask {
        seq: row.try_get(1).map_err(db)?,
        quota: serde_json::from_str(&quota).map_err(|e| corrupt(&id, "quota", Some(e)))?,
        placement: placement
            .map(|p| serde_json::from_str(&p))
            .transpose()
            .map_err(|e| corrupt(&id, "placement", Some(e)))?,
        tags: Vec::new(),
        owner_org: row.try_get(10).map_err(db)?,
        owner_tenant_id: row.try_get(11).map_err(db)?,
        made_from: made_from(
            &id,
            row.try_get(12).map_err(db)?,
            row.try_get(13).map_err(db)?,
        )?,
        stop_asked_at: row
            .try_get::<Option<i64>, _>(14)
            .map_err(db)?
            .map(Timestamp),
        task,
    })
}

/// The columns `made_from, made_how` of task `id`.
fn made_from(id: &str, task: Option<String>, how: Option<String>) -> Result<Option<MadeFrom>> {
    let Some(task) = task else {
        return Ok(None);
    };
    let how = match how.as_deref() {
        Some("resubmit") => MadeHow::Resubmit,
        Some("clone") => MadeHow::Clone,
        _ => return Err(corrupt(id, "made_how", None)),
    };
    Ok(Some(MadeFrom {
        task: TaskId(task),
        how,
    }))
}

/// The `made_how` column's word for `how`.
pub(super) fn made_how_code(how: MadeHow) -> &'static str {
    match how {
        MadeHow::Resubmit => "resubmit",
        MadeHow::Clone => "clone",
    }
}

/// A row of `task_hidden_env` (`env_index, value`) of task `id`.
pub(super) fn decode_hidden<R>(id: &TaskId, row: &R) -> Result<HiddenValue>
where
    R: Row,
    usize: sqlx::ColumnIndex<R>,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
{
    let index: i64 = row.try_get(0).map_err(db)?;
    Ok(HiddenValue {
        index: usize::try_from(index).map_err(|_| corrupt(&id.0, "hidden value index", None))?,
        value: row.try_get(1).map_err(db)?,
    })
}

/// `Ok` when task `id` exists, [`StoreError::NotFound`] otherwise.
pub(super) async fn require_task<DB>(conn: &mut DB::Connection, id: &TaskId) -> Result<()>
where
    DB: Database,
    DB::Arguments: Default + sqlx::IntoArguments<DB>,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'r> String: Encode<'r, DB> + Type<DB>,
{
    let mut sql = QueryBuilder::<DB>::new("SELECT id FROM tasks WHERE id = ");
    sql.push_bind(id.0.clone());
    let found = sql.build().fetch_optional(&mut *conn).await.map_err(db)?;
    found.map(|_| ()).ok_or_else(|| not_found(id))
}

/// The hidden values of task `id`, in the order of its env vars.
pub(super) async fn hidden_values_of<DB>(
    conn: &mut DB::Connection,
    id: &TaskId,
) -> Result<Vec<HiddenValue>>
where
    DB: Database,
    DB::Arguments: Default + sqlx::IntoArguments<DB>,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    usize: sqlx::ColumnIndex<DB::Row>,
    for<'r> String: Encode<'r, DB> + Decode<'r, DB> + Type<DB>,
    for<'r> i64: Decode<'r, DB> + Type<DB>,
{
    require_task::<DB>(conn, id).await?;
    let mut sql =
        QueryBuilder::<DB>::new("SELECT env_index, value FROM task_hidden_env WHERE task_id = ");
    sql.push_bind(id.0.clone());
    sql.push(" ORDER BY env_index");
    let rows = sql.build().fetch_all(&mut *conn).await.map_err(db)?;
    rows.iter().map(|row| decode_hidden(id, row)).collect()
}

/// The tags of task `id`, in their order.
pub(super) async fn tags_of<DB>(conn: &mut DB::Connection, id: &TaskId) -> Result<Vec<Tag>>
where
    DB: Database,
    DB::Arguments: Default + sqlx::IntoArguments<DB>,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    usize: sqlx::ColumnIndex<DB::Row>,
    for<'r> String: Encode<'r, DB> + Decode<'r, DB> + Type<DB>,
{
    let mut sql =
        QueryBuilder::<DB>::new("SELECT tag_key, tag_value FROM task_tags WHERE task_id = ");
    sql.push_bind(id.0.clone());
    sql.push(" ORDER BY n");
    let rows = sql.build().fetch_all(&mut *conn).await.map_err(db)?;
    rows.iter()
        .map(|row| {
            Ok(Tag {
                key: row.try_get(0).map_err(db)?,
                value: row.try_get(1).map_err(db)?,
            })
        })
        .collect()
}

/// The share links of task `id` not revoked, oldest first.
pub(super) async fn shares_of<DB>(conn: &mut DB::Connection, id: &TaskId) -> Result<Vec<Share>>
where
    DB: Database,
    DB::Arguments: Default + sqlx::IntoArguments<DB>,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    usize: sqlx::ColumnIndex<DB::Row>,
    for<'r> String: Encode<'r, DB> + Decode<'r, DB> + Type<DB>,
    for<'r> i64: Decode<'r, DB> + Type<DB>,
{
    require_task::<DB>(conn, id).await?;
    let mut sql = QueryBuilder::<DB>::new(
        "SELECT n, token, created_at, created_by FROM task_shares WHERE task_id = ",
    );
    sql.push_bind(id.0.clone());
    sql.push(" AND revoked_at IS NULL ORDER BY n");
    let rows = sql.build().fetch_all(&mut *conn).await.map_err(db)?;
    rows.iter()
        .map(|row| {
            let n: i64 = row.try_get(0).map_err(db)?;
            Ok(Share {
                link: u32::try_from(n).map_err(|_| corrupt(&id.0, "share link number", None))?,
                token: row.try_get(1).map_err(db)?,
                created_at: Timestamp(row.try_get(2).map_err(db)?),
                created_by: row.try_get(3).map_err(db)?,
            })
        })
        .collect()
}

/// [`super::TaskStore::events_page`] read through `conn` (a read transaction of the
/// store's). A task's events are numbered in `n` from 1 as they are written (the
/// inserting statement takes the next number, and none is removed), so every event's
/// number is its `n`: a page of them is a range of the primary key. Those of some kinds
/// are counted and numbered among themselves in the `task_events_kind` index, the page
/// the latest below `before` (newest first, skipping those at or after it), so a poll
/// of the latest reads only them.
pub(super) async fn events_of<DB>(
    conn: &mut DB::Connection,
    id: &TaskId,
    query: EventQuery<'_>,
) -> Result<EventPage>
where
    DB: Database,
    DB::Arguments: Default + sqlx::IntoArguments<DB>,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    usize: sqlx::ColumnIndex<DB::Row>,
    for<'r> String: Encode<'r, DB> + Decode<'r, DB> + Type<DB>,
    for<'r> Option<String>: Decode<'r, DB> + Type<DB>,
    for<'r> i64: Encode<'r, DB> + Decode<'r, DB> + Type<DB>,
{
    require_task::<DB>(conn, id).await?;
    let filtered = !query.kinds.is_empty();
    let mut sql = QueryBuilder::<DB>::new(if filtered {
        "SELECT COUNT(*) FROM task_events WHERE task_id = "
    } else {
        "SELECT COALESCE(MAX(n), 0) FROM task_events WHERE task_id = "
    });
    sql.push_bind(id.0.clone());
    push_kinds(&mut sql, query.kinds);
    let total: i64 = sql
        .build()
        .fetch_one(&mut *conn)
        .await
        .map_err(db)?
        .try_get(0)
        .map_err(db)?;
    let total = u64::try_from(total).unwrap_or(0);
    // The page: numbers `start + 1` to `end`.
    let end = query
        .before
        .map_or(total, |before| before.saturating_sub(1).min(total));
    let start = query
        .limit
        .map_or(0, |limit| end.saturating_sub(u64::from(limit)));
    let mut sql = QueryBuilder::<DB>::new("");
    push_events_page(&mut sql, id, query.kinds, (start, end, total));
    let rows = sql.build().fetch_all(&mut *conn).await.map_err(db)?;
    let mut events = rows
        .iter()
        .map(|row| {
            Ok(TaskEvent {
                at: Timestamp(row.try_get(0).map_err(db)?),
                kind: row.try_get(1).map_err(db)?,
                message: row.try_get(2).map_err(db)?,
                keyed: keyed_from_column(
                    &id.0,
                    row.try_get::<Option<String>, _>(3).map_err(db)?.as_deref(),
                )?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    events.reverse();
    Ok(EventPage {
        events,
        first: start + 1,
        total,
    })
}

/// Pushes the query of the events of task `id` (of `kinds`) numbered `start + 1` to
/// `end` of `total`, newest first: a range of the primary key, or of those kinds the
/// latest below `end` in the `task_events_kind` index.
pub(super) fn push_events_page<DB>(
    sql: &mut QueryBuilder<DB>,
    id: &TaskId,
    kinds: &[&str],
    (start, end, total): (u64, u64, u64),
) where
    DB: Database,
    for<'r> String: Encode<'r, DB> + Type<DB>,
    for<'r> i64: Encode<'r, DB> + Type<DB>,
{
    let as_i64 = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    sql.push("SELECT at, kind, message, keyed FROM task_events WHERE task_id = ")
        .push_bind(id.0.clone());
    push_kinds(sql, kinds);
    if kinds.is_empty() {
        sql.push(" AND n > ")
            .push_bind(as_i64(start))
            .push(" AND n <= ")
            .push_bind(as_i64(end))
            .push(" ORDER BY n DESC");
    } else {
        sql.push(" ORDER BY n DESC LIMIT ")
            .push_bind(as_i64(end - start))
            .push(" OFFSET ")
            .push_bind(as_i64(total - end));
    }
}

fn push_kinds<DB>(sql: &mut QueryBuilder<DB>, kinds: &[&str])
where
    DB: Database,
    for<'r> String: Encode<'r, DB> + Type<DB>,
{
    if kinds.is_empty() {
        return;
    }
    sql.push(" AND kind IN (");
    let mut list = sql.separated(", ");
    for kind in kinds {
        list.push_bind((*kind).to_owned());
    }
    sql.push(")");
}

/// One page of [`super::TaskStore::list`], read through `conn` (a read transaction of
/// the store's): `id` is how the store orders ids (a collation where it needs one).
pub(super) async fn list_page<DB>(
    conn: &mut DB::Connection,
    query: &ListQuery,
    id: &str,
) -> Result<Page>
where
    DB: Database,
    DB::Arguments: Default + sqlx::IntoArguments<DB>,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    usize: sqlx::ColumnIndex<DB::Row>,
    for<'r> &'static str: Encode<'r, DB> + Type<DB>,
    for<'r> String: Encode<'r, DB> + Decode<'r, DB> + Type<DB>,
    for<'r> Option<String>: Decode<'r, DB> + Type<DB>,
    for<'r> i64: Encode<'r, DB> + Decode<'r, DB> + Type<DB>,
    for<'r> Option<i64>: Decode<'r, DB> + Type<DB>,
{
    let limit = query.limit.clamp(1, MAX_PAGE);
    let mut sql = super::list_sql::<DB>(query, limit, id);
    let rows = sql.build().fetch_all(&mut *conn).await.map_err(db)?;
    let mut tasks = rows.iter().map(decode_task).collect::<Result<Vec<_>>>()?;
    // One row past the page says whether there is a next one.
    let more = tasks.len() > limit as usize;
    tasks.truncate(limit as usize);
    let tasks = attach_details::<DB>(conn, tasks).await?;
    let next = if more {
        tasks.last().map(|t| Cursor::after(&t.task))
    } else {
        None
    };
    Ok(Page { tasks, next })
}

/// How many tasks of each phase `query` selects ([`super::TaskStore::count_phases`]).
pub(super) async fn count_phases<DB>(
    conn: &mut DB::Connection,
    query: &ListQuery,
) -> Result<shared::api::PhaseCounts>
where
    DB: Database,
    DB::Arguments: Default + sqlx::IntoArguments<DB>,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    usize: sqlx::ColumnIndex<DB::Row>,
    for<'r> &'static str: Encode<'r, DB> + Type<DB>,
    for<'r> String: Encode<'r, DB> + Decode<'r, DB> + Type<DB>,
    for<'r> i64: Encode<'r, DB> + Decode<'r, DB> + Type<DB>,
{
    let mut sql = super::count_sql::<DB>(query);
    let mut counts = shared::api::PhaseCounts::default();
    for row in sql.build().fetch_all(&mut *conn).await.map_err(db)? {
        let phase: String = row.try_get(0).map_err(db)?;
        let n: i64 = row.try_get(1).map_err(db)?;
        let phase = parse_phase(&phase).ok_or_else(|| corrupt("(a count)", "phase", None))?;
        counts.add(phase, u64::try_from(n).unwrap_or(0));
    }
    Ok(counts)
}

/// Fills in the history and tags of `tasks`, two bulk queries per [`IN_CHUNK`] tasks.
pub(super) async fn attach_details<DB>(
    conn: &mut DB::Connection,
    mut tasks: Vec<StoredTask>,
) -> Result<Vec<StoredTask>>
where
    DB: Database,
    DB::Arguments: Default + sqlx::IntoArguments<DB>,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    usize: sqlx::ColumnIndex<DB::Row>,
    for<'r> String: Encode<'r, DB> + Decode<'r, DB> + Type<DB>,
    for<'r> Option<String>: Decode<'r, DB> + Type<DB>,
    for<'r> i64: Decode<'r, DB> + Type<DB>,
{
    let mut history: HashMap<String, Vec<PhaseChange>> = HashMap::new();
    let mut tags: HashMap<String, Vec<Tag>> = HashMap::new();
    for chunk in tasks.chunks(IN_CHUNK) {
        let mut sql = QueryBuilder::<DB>::new(
            "SELECT task_id, phase, at, reason, keyed FROM task_history WHERE task_id IN (",
        );
        push_ids(&mut sql, chunk);
        sql.push(") ORDER BY task_id, n");
        for row in sql.build().fetch_all(&mut *conn).await.map_err(db)? {
            let id: String = row.try_get(0).map_err(db)?;
            let phase: String = row.try_get(1).map_err(db)?;
            let change = PhaseChange {
                phase: parse_phase(&phase).ok_or_else(|| corrupt(&id, "history", None))?,
                at: Timestamp(row.try_get(2).map_err(db)?),
                reason: row.try_get(3).map_err(db)?,
                keyed: keyed_from_column(
                    &id,
                    row.try_get::<Option<String>, _>(4).map_err(db)?.as_deref(),
                )?,
            };
            history.entry(id).or_default().push(change);
        }
        let mut sql = QueryBuilder::<DB>::new(
            "SELECT task_id, tag_key, tag_value FROM task_tags WHERE task_id IN (",
        );
        push_ids(&mut sql, chunk);
        sql.push(") ORDER BY task_id, n");
        for row in sql.build().fetch_all(&mut *conn).await.map_err(db)? {
            let id: String = row.try_get(0).map_err(db)?;
            let tag = Tag {
                key: row.try_get(1).map_err(db)?,
                value: row.try_get(2).map_err(db)?,
            };
            tags.entry(id).or_default().push(tag);
        }
    }
    for stored in &mut tasks {
        stored.task.history = history.remove(&stored.task.id.0).unwrap_or_default();
        stored.tags = tags.remove(&stored.task.id.0).unwrap_or_default();
    }
    Ok(tasks)
}

fn push_ids<DB>(sql: &mut QueryBuilder<DB>, tasks: &[StoredTask])
where
    DB: Database,
    for<'r> String: Encode<'r, DB> + Type<DB>,
{
    let mut ids = sql.separated(", ");
    for stored in tasks {
        ids.push_bind(stored.task.id.0.clone());
    }
}

pub(super) fn encode<T: serde::Serialize + ?Sized>(
    what: &'static str,
    value: &T,
) -> Result<String> {
    serde_json::to_string(value).map_err(|source| StoreError::Encode { what, source })
}

/// Whether a pool's database answers now ([`super::TaskStore::ping`] of both stores): a
/// connection taken from it, or made, answers a ping.
pub(super) async fn ping<DB: sqlx::Database>(pool: &sqlx::Pool<DB>) -> Result<(), StoreError> {
    use sqlx::Connection;
    pool.acquire().await.map_err(db)?.ping().await.map_err(db)
}

pub(super) fn db(source: sqlx::Error) -> StoreError {
    StoreError::Database(source)
}

pub(super) fn not_found(id: &TaskId) -> StoreError {
    StoreError::NotFound { task: id.clone() }
}

pub(super) fn corrupt(
    task: &str,
    what: &'static str,
    source: Option<serde_json::Error>,
) -> StoreError {
    StoreError::Corrupt {
        task: task.to_owned(),
        what,
        source,
    }
}
