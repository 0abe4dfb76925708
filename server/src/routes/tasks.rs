//! Tasks: submit, list, detail, stop, delete, spec, resubmit, share, tags, events and
//! logs (`/api/v1/tasks…` and `/api/v1/shared/{token}`).
//!
//! A task is visible to its owner, and to the members of its project group when it is
//! marked visible there; to anyone else it does not exist (404, the same as an unknown
//! id). Only the owner may change it. Hidden env values are masked in every answer but
//! the owner's own spec; webhook targets, whose path or query often holds a token, for
//! anyone but the owner and in a share ([`TaskSpec::for_others`]).

use super::log_mask::{LogMask, LogTail, LogText};
use super::{JsonText, LANG_TAKES, LangParam, NoBody, NoParams, Params, Path, QueryParams};
use crate::auth::CurrentUser;
use crate::runner::{Runner, StopError, SubmitError, now};
use crate::store::{ListQuery, StoreError, StoredTask, TagFilter, Viewer, restore_hidden};
use crate::{ApiError, AppState, ReaderLang};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{self, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use shared::api::{
    ErrorBody, MadeFrom, MadeHow, ShareLink, TagsBody, TaskEventView, TaskPage, TaskView,
};
use shared::record::{TaskId, TaskPhase};
use shared::task::AlertChannel;
use shared::{Lang, TaskSpec, User};
use std::sync::Arc;

/// Task routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tasks", post(submit).get(list))
        .route("/tasks/counts", get(counts))
        .route("/tasks/{id}", get(detail).delete(delete))
        .route("/tasks/{id}/stop", post(stop))
        .route("/tasks/{id}/spec", get(spec))
        .route("/tasks/{id}/resubmit", post(resubmit))
        .route("/tasks/{id}/share", post(share).get(share_links))
        .route("/tasks/{id}/share/{link}", routing::delete(revoke_share))
        .route("/tasks/{id}/tags", axum::routing::patch(tags))
        .route("/tasks/{id}/events", get(events))
        .route("/tasks/{id}/logs", get(logs))
        .route("/shared/{token}", get(shared_view))
        .route("/shared/{token}/events", get(shared_events))
        .route("/shared/{token}/logs", get(shared_logs))
}

/// The task routes, for the OpenAPI document.
#[derive(utoipa::OpenApi)]
#[openapi(paths(
    submit,
    list,
    counts,
    detail,
    stop,
    delete,
    spec,
    resubmit,
    share,
    share_links,
    revoke_share,
    tags,
    events,
    logs,
    shared_view,
    shared_events,
    shared_logs
))]
pub(super) struct TasksApi;

/// The media type of error answers, for the OpenAPI attributes.
const PROBLEM: &str = crate::error::PROBLEM_JSON;

/// One server-sent event of `GET /tasks/{id}/logs?follow=true`, as a client reads it;
/// for the OpenAPI document only.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
struct LogEvent {
    /// `message` for a chunk of the log; `end`, with the data `ended`, once the attempt
    /// has ended (`not started` when the task has had no attempt yet: ask again once it
    /// runs); with `tail_bytes`, `left_out` first, its data how many bytes of the log
    /// were left out before its end.
    event: LogEventKind,
    /// The chunk of the log.
    data: String,
}

/// The kinds of a followed log's server-sent events.
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "snake_case")]
#[allow(dead_code)]
enum LogEventKind {
    /// A chunk of the log.
    Message,
    /// The attempt has ended; the stream closes.
    End,
    /// With `tail_bytes`: how many bytes of the log were left out before the end sent.
    LeftOut,
}

fn runner(state: &AppState) -> Result<&Arc<Runner>, ApiError> {
    state
        .runner
        .as_ref()
        .ok_or_else(|| ApiError::Internal("the server was started without a task runner".into()))
}

/// The caller's project groups, from the catalog.
fn groups(state: &AppState, user: &User) -> Vec<String> {
    state
        .catalog
        .project_groups
        .iter()
        .filter(|g| g.members.contains(&user.name))
        .map(|g| g.id.clone())
        .collect()
}

fn may_see(state: &AppState, user: &User, stored: &StoredTask) -> bool {
    let basic = &stored.task.spec.basic;
    stored.task.owner == user.name
        || (basic.visible_in_group && groups(state, user).contains(&basic.project_group))
}

/// The task if `user` may see it; otherwise the answer for an unknown id. A deleted task
/// is gone for everyone (the store keeps its rows for audit), and said deleted to those
/// who could see it.
async fn visible(state: &AppState, user: &User, id: &str) -> Result<StoredTask, ApiError> {
    let stored = runner(state)?.store().get(&TaskId(id.to_owned())).await?;
    match (stored.task.phase, may_see(state, user, &stored)) {
        (TaskPhase::Deleted, true) => Err(ApiError::TaskDeleted { id: id.to_owned() }),
        (_, true) => Ok(stored),
        (_, false) => Err(ApiError::TaskNotFound { id: id.to_owned() }),
    }
}

/// The task if `user` owns it.
async fn owned(
    state: &AppState,
    user: &User,
    id: &str,
    action: &'static str,
) -> Result<StoredTask, ApiError> {
    let stored = visible(state, user, id).await?;
    if stored.task.owner == user.name {
        Ok(stored)
    } else {
        Err(ApiError::Forbidden {
            id: id.to_owned(),
            action,
        })
    }
}

/// The task as the API shows it to `reader` (`None`: a share link's, which reads it as
/// anyone but the owner does), its reasons in `lang` (a reason stored before reasons
/// were keyed keeps its text).
async fn view(state: &AppState, stored: StoredTask, lang: Lang, reader: Option<&User>) -> TaskView {
    view_as(state, stored, lang, reader, false, &mut Seen::new()).await
}

/// [`view`], as a list's `row` when set: its `made_from` told to its owner only, as a
/// reader's may-see of the original is a read of the store for each row of every
/// refresh (review); the task's page, whose read looks it up, tells others.
async fn view_as(
    state: &AppState,
    stored: StoredTask,
    lang: Lang,
    reader: Option<&User>,
    row: bool,
    seen: &mut Seen,
) -> TaskView {
    let reason = match stored.task.phase {
        TaskPhase::Queued | TaskPhase::Retrying => match &state.runner {
            Some(runner) => runner.reason(&stored.task.id).await,
            None => None,
        },
        _ => None,
    };
    let mut task = stored.task;
    let runs = task.runs_again();
    if reader.is_none_or(|r| r.name != task.owner) {
        task.spec = task.spec.for_others();
    }
    let made_from = match (stored.made_from, reader) {
        // Its owner made it from that task, and knows it.
        (Some(from), Some(reader)) if reader.name == task.owner => Some(from),
        // Anyone else learns the original's name only if they may see it: a private
        // task cloned into one the group sees would be named to the group (review).
        (Some(_), Some(_)) if row => None,
        (Some(from), Some(reader)) => may_have_seen(state, reader, &from.task)
            .await
            .unwrap_or(false)
            .then_some(from),
        // A share link's reader sees no other task.
        _ => None,
    };
    // Tags edited on the task are the task's (as `/spec` gives them): the spec shown
    // beside them says the same, not the tags it was submitted with.
    task.spec.basic.tags.clone_from(&stored.tags);
    let ray_cluster = state
        .runner
        .as_ref()
        .is_some_and(|r| r.backend().runs_ray_clusters());
    let logs = shared::api::log_replicas(&task.spec, ray_cluster);
    let hidden = hidden_behind(
        state,
        reader,
        task.history
            .iter()
            .filter_map(|c| c.keyed.as_ref())
            .chain(reason.as_ref().map(|r| &r.reason)),
        seen,
    )
    .await;
    for change in &mut task.history {
        if let Some(keyed) = &mut change.keyed {
            if !hidden.is_empty() {
                *keyed = unnamed(keyed, &hidden);
            }
            change.reason = shared::api::as_read(keyed, &logs).render(lang);
        }
    }
    let reason = reason.map(|mut r| {
        if !hidden.is_empty() {
            r.reason = unnamed(&r.reason, &hidden);
        }
        r
    });
    // From the store, not the runner's memory: another server on the database, or one
    // started since, knows of the stop too.
    let stopping_since = stored.stop_asked_at.filter(|_| !task.phase.is_finished());
    // A replica's failure ending the attempt: said, and its replica named, before the
    // phase changes (hung-job explorer: for the grace it read running, Stop offered, the
    // crashed replica unmarked).
    let failing = match (&state.runner, task.phase) {
        (Some(runner), TaskPhase::Running) if !row => runner.failing(&task.id).await,
        _ => None,
    };
    let failed_replica =
        failed_replica(&task.history).or_else(|| failing.as_ref().and_then(ended_replica));
    let failing = failing.map(|f| shared::api::as_read(&f, &logs).render(lang));
    let attempt_failures = if row {
        Vec::new()
    } else {
        attempt_failures(&task.history)
    };
    let (queue_ahead, room_kept) = match (&state.runner, task.phase) {
        (Some(runner), TaskPhase::Queued) if !row => (
            runner.queue_ahead(&task.id).await,
            runner.room_kept(&task.id).await,
        ),
        _ => (None, false),
    };
    let quiet = if row || task.phase != TaskPhase::Running {
        Vec::new()
    } else {
        quiet_replicas(state, &task, &logs).await
    };
    TaskView {
        task,
        tags: stored.tags,
        placement: stored.placement,
        waits_behind: reason.as_ref().and_then(|r| waits_behind(&r.reason)),
        reason: reason
            .as_ref()
            .map(|r| shared::api::as_read(&r.reason, &logs).render(lang)),
        retry_at: reason.and_then(|r| r.retry_at),
        logs,
        stopping_since,
        failed_replica,
        made_from,
        reruns: runs.reruns,
        retries_used: runs.retries,
        last_never_ran: runs.never_begun,
        quiet,
        attempt_failures,
        failing,
        queue_ahead,
        room_kept,
    }
}

/// Each attempt a replica's end failed, and that replica: the steps into retrying or
/// failed whose reason names one, each after the attempt begun last before it (counted
/// as `Task::runs_again` counts them).
fn attempt_failures(history: &[shared::record::PhaseChange]) -> Vec<shared::api::AttemptFailure> {
    let mut failures = Vec::new();
    let (mut begun, mut before) = (0_u32, None);
    for change in history {
        match change.phase {
            TaskPhase::Scheduling if shared::record::begins_attempt(before) => begun += 1,
            TaskPhase::Retrying | TaskPhase::Failed if begun > 0 => {
                if let Some(replica) = change.keyed.as_ref().and_then(ended_replica) {
                    failures.push(shared::api::AttemptFailure {
                        attempt: begun,
                        replica,
                    });
                }
            }
            _ => {}
        }
        before = Some(change.phase);
    }
    failures
}

/// How long each replica of a running task's attempt has written nothing to its log:
/// since the log file was last written, where the backend keeps one here (a hung rank is
/// told from ranks that print; hung-job explorer). None where there is no such file.
async fn quiet_replicas(
    state: &AppState,
    task: &shared::Task,
    logs: &[shared::api::LogReplica],
) -> Vec<shared::api::ReplicaQuiet> {
    let Some(runner) = &state.runner else {
        return Vec::new();
    };
    let now = std::time::SystemTime::now();
    let mut quiet = Vec::new();
    for log in logs {
        let path = runner
            .backend()
            .log_path(&task.id, task.attempts, log.replica);
        let Ok(meta) = tokio::fs::metadata(&path).await else {
            continue;
        };
        let Ok(written) = meta.modified() else {
            continue;
        };
        quiet.push(shared::api::ReplicaQuiet {
            replica: log.replica,
            secs: now.duration_since(written).map_or(0, |d| d.as_secs()),
            empty: meta.len() == 0,
        });
    }
    quiet
}

/// The replica whose end failed the task, or the attempt a retry waits to follow, for
/// its backoff or then for room (queued, scheduling): the failure is what the page is
/// about while it waits (failure explorer: the mark went as the retry queued).
fn failed_replica(history: &[shared::record::PhaseChange]) -> Option<u32> {
    shared::record::last_outcome(history)
        .filter(|change| matches!(change.phase, TaskPhase::Failed | TaskPhase::Retrying))
        .and_then(|change| change.keyed.as_ref())
        .and_then(ended_replica)
}

/// The replica a failure's reason says ended the attempt (`event.replica_ended`, also
/// within "after N attempts; the last: …").
fn ended_replica(reason: &shared::messages::Message) -> Option<u32> {
    if reason.key == "event.replica_ended" {
        return match reason.args.get("replica") {
            Some(shared::messages::Arg::Text(n)) => n.parse().ok(),
            _ => None,
        };
    }
    reason.args.values().find_map(|arg| match arg {
        shared::messages::Arg::Message(inner) => ended_replica(inner),
        shared::messages::Arg::Text(_) | shared::messages::Arg::List(_) => None,
    })
}

/// The tasks a message names as ones a waiting task waits behind
/// (`queue.passed_over#named`), within its arguments too (an event's reason).
fn named_behind(message: &shared::messages::Message, found: &mut Vec<TaskId>) {
    if let Some(id) = waits_behind(message) {
        found.push(id);
    }
    for arg in message.args.values() {
        if let shared::messages::Arg::Message(inner) = arg {
            named_behind(inner, found);
        }
    }
}

/// `message` with each task it waits behind that is in `hidden` left unnamed
/// (`queue.passed_over`).
fn unnamed(message: &shared::messages::Message, hidden: &[TaskId]) -> shared::messages::Message {
    if waits_behind(message).is_some_and(|id| hidden.contains(&id)) {
        return shared::messages::Message::new("queue.passed_over");
    }
    let mut out = message.clone();
    for arg in out.args.values_mut() {
        if let shared::messages::Arg::Message(inner) = arg {
            *inner = unnamed(inner, hidden);
        }
    }
    out
}

/// Of the tasks `messages` say waiting tasks wait behind, those `reader` may not see (a
/// share link's reader, `None`, sees none): named to them as "a task ahead in the
/// queue", as a private task is to anyone else no task at all (lineage explorer: a
/// private task's name reached the group and a share link, as a link that led nowhere).
///
/// `seen` keeps what was looked up for this reader: a list's rows, every one of which
/// may wait behind the same task, look it up once (review: a read of the store per row
/// at every refresh).
async fn hidden_behind<'m>(
    state: &AppState,
    reader: Option<&User>,
    messages: impl Iterator<Item = &'m shared::messages::Message>,
    seen: &mut Seen,
) -> Vec<TaskId> {
    let mut named = Vec::new();
    for message in messages {
        named_behind(message, &mut named);
    }
    named.sort_by(|a, b| a.0.cmp(&b.0));
    named.dedup();
    let mut hidden = Vec::new();
    for id in named {
        let visible = match (reader, seen.get(&id)) {
            (None, _) => false,
            (Some(_), Some(known)) => *known,
            (Some(reader), None) => {
                let known = may_have_seen(state, reader, &id).await.unwrap_or(false);
                seen.insert(id.clone(), known);
                known
            }
        };
        if !visible {
            hidden.push(id);
        }
    }
    hidden
}

/// Whether the reader of one answer may see each task looked up for it.
type Seen = std::collections::HashMap<TaskId, bool>;

/// `message` with the specs an admission names by id (`a100-1g`) named as the catalog
/// names them in `spec`'s cluster ("A100 single card 单卡"), as the task page's status
/// detail and the form name them (Chinese newcomer: the id was nowhere on the page).
fn specs_named(state: &AppState, spec: &TaskSpec, message: &mut shared::messages::Message) {
    if !message.key.starts_with("event.admitted") {
        return;
    }
    // Its idle nodes too (stored by their positions), as the task page names them.
    shared::quota::name_idle_nodes(&state.catalog, message);
    for name in ["spec", "head"] {
        if let Some(shared::messages::Arg::Text(id)) = message.args.get_mut(name) {
            *id = state.catalog.spec_name(spec, id);
        }
    }
}

/// The task a waiting task's reason says it waits behind (`queue.passed_over#named`).
fn waits_behind(reason: &shared::messages::Message) -> Option<TaskId> {
    match reason.args.get("task") {
        Some(shared::messages::Arg::Text(id)) if reason.key == "queue.passed_over#named" => {
            Some(TaskId(id.clone()))
        }
        _ => None,
    }
}

fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    // Two keys: which one the client meant cannot be told, and taking the first made a
    // retry that sent only the second a new task.
    if headers.get_all("idempotency-key").iter().nth(1).is_some() {
        return Err(ApiError::BadHeader(
            "Idempotency-Key is given more than once; send one".into(),
        ));
    }
    match headers.get("idempotency-key") {
        None => Ok(None),
        Some(value) => value
            .to_str()
            .ok()
            .map(str::trim)
            // `to_str` lets spaces and tabs through; the detail and the documented pattern say
            // visible ASCII only.
            .filter(|k| (1..=255).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_graphic()))
            .map(|k| Some(k.to_owned()))
            .ok_or_else(|| {
                ApiError::BadHeader(
                    "Idempotency-Key must be 1 to 255 visible ASCII characters, no spaces".into(),
                )
            }),
    }
}

async fn submit_spec(
    state: &AppState,
    user: &User,
    spec: TaskSpec,
    key: Option<String>,
    made_from: Option<MadeFrom>,
    lang: Lang,
) -> Result<Response, ApiError> {
    match runner(state)?
        .submit(user, spec, key.as_deref(), made_from)
        .await
    {
        Ok((stored, false)) if stored.task.phase == TaskPhase::Deleted => {
            // A retry must not make a second task, and the first is gone: say so.
            Err(ApiError::Conflict(format!(
                "the task submitted with this Idempotency-Key, {}, was deleted; \
                 use a new key to submit again",
                stored.task.id
            )))
        }
        Ok((stored, new)) => {
            let status = if new {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            };
            state
                .metrics
                .submits
                .get_or_create(&crate::metrics::SubmitLabels {
                    outcome: if new { "accepted" } else { "duplicate" },
                })
                .inc();
            // Where the task is read, as a script that follows `Location` expects.
            let location = format!("/api/v1/tasks/{}", stored.task.id.0);
            Ok((
                status,
                [(axum::http::header::LOCATION, location)],
                Json(view(state, stored, lang, Some(user)).await),
            )
                .into_response())
        }
        Err(SubmitError::Invalid(report)) => {
            state
                .metrics
                .submits
                .get_or_create(&crate::metrics::SubmitLabels { outcome: "refused" })
                .inc();
            Err(ApiError::Spec {
                report,
                lang,
                maintained: state.catalog.tags.maintained.clone(),
            })
        }
        Err(SubmitError::KeyReused(id)) => Err(ApiError::Conflict(format!(
            "this Idempotency-Key was used for another spec (task {id}); use a new key"
        ))),
        Err(SubmitError::Store(err)) => Err(err.into()),
    }
}

/// `POST /tasks`: `201` with the task once it is durable; `422` with the findings
/// `check` gives. With `Idempotency-Key`, a retry answers `200` with the first task.
#[utoipa::path(
    post,
    path = "/tasks",
    tag = "tasks",
    params(
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 255, pattern = "^[!-~]+$", description = "1 to 255 visible ASCII characters, no spaces; a retry with the same key answers 200 with the first task instead of submitting again"),
        ("lang" = Option<String>, Query, description = "Language of finding messages: `en` or `zh-CN` (any `en…` or `zh…` tag); others are ignored"),
        ("from" = Option<String>, Query, pattern = "^[^\\x00]*$", description = "The task the spec was cloned from, kept as the new task's `made_from` for its page to link back to; kept only when the caller may see that task (or could before it was deleted), and otherwise left out, the submit going on without it. A retry with a known `Idempotency-Key` answers with the first task as it was made, whatever its `from`"),
        ("Accept-Language" = Option<String>, Header, description = "Used for the messages' language when `lang` is absent; English otherwise")
    ),
    request_body(content = TaskSpec, content_type = "application/json", description = "The spec to run"),
    responses(
        (status = 201, description = "The task, once it is durable (queued)", body = TaskView),
        (status = 200, description = "A retry with a known `Idempotency-Key`: the first task", body = TaskView),
        (status = 409, description = "A known `Idempotency-Key` sent with another spec, or whose task was deleted since", body = ErrorBody, content_type = PROBLEM),
        (status = 400, description = "The body is not strict JSON (malformed, not UTF-8, or an object with a key twice; `line` and `column` say where), `Idempotency-Key` is not 1 to 255 visible ASCII characters (no spaces), or a query parameter other than `lang` and `from` is given", body = ErrorBody, content_type = PROBLEM),
        (status = 413, description = "The body is larger than the server accepts", body = ErrorBody, content_type = PROBLEM),
        (status = 415, description = "The body is not declared as JSON (`application/json` or `application/…+json`)", body = ErrorBody, content_type = PROBLEM),
        (status = 422, description = "The spec has errors (or fields of the wrong shape); `issues` lists them", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn submit(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ReaderLang(lang): ReaderLang,
    Params(query): Params<SubmitParams>,
    headers: HeaderMap,
    JsonText(text): JsonText,
) -> Result<Response, ApiError> {
    let key = idempotency_key(&headers)?;
    // A field of the wrong shape is a 422 like the rules' findings, and counted with them.
    let spec = match shared::parse_spec(&text) {
        Ok(spec) => spec,
        Err(_) => {
            // The findings `/validate` gives the same text: each unknown field, then what
            // the rules find in the rest, which reads without them. The submit named the
            // unknown fields alone, and a script that submitted found its spec's other
            // errors one round trip later (migrant explorer).
            let usage = state.shared_usage().await?;
            let check = shared::check_json(&text, &state.catalog, &usage, &user);
            state
                .metrics
                .submits
                .get_or_create(&crate::metrics::SubmitLabels { outcome: "refused" })
                .inc();
            return Err(ApiError::shape(
                &text,
                check.issues,
                lang,
                &state.catalog.tags.maintained,
            ));
        }
    };
    let made_from = match query.from {
        Some(from) => cloned_from(&state, &user, from).await?,
        None => None,
    };
    submit_spec(&state, &user, spec, key, made_from, lang).await
}

/// The query of `POST /tasks`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SubmitParams {
    /// Read by [`ReaderLang`](crate::ReaderLang), as [`LangParam`]'s.
    #[allow(dead_code)]
    lang: Option<String>,
    /// The task the spec was cloned from.
    from: Option<String>,
}

impl QueryParams for SubmitParams {
    fn takes() -> Vec<(&'static str, String)> {
        vec![
            ("lang", LANG_TAKES.to_owned()),
            ("from", "a task id".to_owned()),
        ]
    }
}

/// The link a clone's submit keeps to the task `from`: only to a task the submitter may
/// see, so that a task's page never names one its owner could not have cloned. A task
/// deleted since it was cloned is still linked (its page then says it is gone); one the
/// submitter may not see, or that never was, is left out rather than refused, as the
/// link is the page's help and the spec is what was sent.
async fn cloned_from(
    state: &AppState,
    user: &User,
    from: String,
) -> Result<Option<MadeFrom>, ApiError> {
    let task = TaskId(from);
    Ok(may_have_seen(state, user, &task)
        .await?
        .then_some(MadeFrom {
            task,
            how: MadeHow::Clone,
        }))
}

/// Whether `user` may see task `id`, or could before it was deleted: the one rule for
/// which task a clone's submit may name as its origin, and to whom a task's origin is
/// named.
async fn may_have_seen(state: &AppState, user: &User, id: &TaskId) -> Result<bool, ApiError> {
    match runner(state)?.store().get(id).await {
        Ok(stored) => Ok(may_see(state, user, &stored)),
        Err(StoreError::NotFound { .. }) => Ok(false),
        Err(err) => Err(err.into()),
    }
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
struct ListParams {
    /// Only tasks in this phase (not `deleted`: deleted tasks are gone); `active`: those
    /// that have not ended (queued, scheduling, running, retrying).
    #[serde(default, deserialize_with = "listed_phase")]
    #[param(value_type = Option<ListedPhase>, inline)]
    phase: Option<ListedPhase>,
    /// Only tasks of this type.
    #[serde(rename = "type")]
    task_type: Option<shared::TaskType>,
    /// Only tasks with this tag: `key` (any value) or `key=value`, each as a task's tags
    /// take it (spaces around them left out).
    #[param(pattern = "^[^\\x00]*$")]
    tag: Option<String>,
    /// Only tasks of this owner.
    #[param(pattern = "^[^\\x00]*$")]
    owner: Option<String>,
    /// Only tasks of this project group.
    #[param(pattern = "^[^\\x00]*$")]
    group: Option<String>,
    /// Only tasks whose name contains this text, ignoring ASCII case. Text longer than
    /// any task name can be (54 characters) matches none: the page is empty.
    #[param(pattern = "^[^\\x00]*$")]
    name: Option<String>,
    /// `true`: only the caller's own tasks (overrides `owner`).
    #[serde(default)]
    mine: bool,
    /// Only tasks resubmitted or cloned from this task (its id), which the caller may
    /// see, or could before its delete.
    #[param(pattern = "^[^\\x00]*$")]
    made_from: Option<String>,
    /// The `next` of the previous page.
    #[param(pattern = "^[^\\x00]*$")]
    cursor: Option<String>,
    /// Tasks per page (default 50; clamped to 1 to the server's maximum).
    limit: Option<u32>,
    /// Language of the reasons: `en` or `zh-CN` (any `en…` or `zh…` tag); another is
    /// passed over for the `Accept-Language` header.
    // Read by `ReaderLang`; a field here so that it is not refused as unknown.
    #[allow(dead_code)]
    lang: Option<String>,
}

impl QueryParams for ListParams {
    fn takes() -> Vec<(&'static str, String)> {
        vec![
            (
                "phase",
                "one of `queued`, `scheduling`, `running`, `retrying`, `succeeded`, `failed` \
                 or `stopped`, or `active` for every task that has not ended (a deleted task \
                 is gone for everyone, so none is listed)"
                    .to_owned(),
            ),
            ("type", "`pytorch_job` or `ray_job`".to_owned()),
            ("tag", "`key` or `key=value`".to_owned()),
            ("owner", "a user name".to_owned()),
            ("group", "a project group".to_owned()),
            ("name", "text".to_owned()),
            ("mine", "`true` or `false`".to_owned()),
            ("made_from", "a task id".to_owned()),
            ("cursor", "the `next` of the previous page".to_owned()),
            (
                "limit",
                format!(
                    "a whole number from 0 to {1} (a page holds 1 to {0} tasks: 0 is read \
                     as 1, more than {0} as {0})",
                    crate::store::MAX_PAGE,
                    u32::MAX
                ),
            ),
            ("lang", LANG_TAKES.to_owned()),
        ]
    }
}

/// The longest final name a task can have: the longest name prefix of any task type,
/// with its `-xxxxx` suffix.
fn longest_task_name() -> usize {
    use shared::names::{NAME_SUFFIX_LEN, max_name_prefix_len};
    [shared::TaskType::PyTorchJob, shared::TaskType::RayJob]
        .into_iter()
        .map(|task_type| max_name_prefix_len(task_type, 1))
        .max()
        .unwrap_or_default()
        + NAME_SUFFIX_LEN
}

// Its own type, not `TaskPhase`, so that a refusal's "expected one of" and the OpenAPI
// document offer only the phases a list takes.
/// A phase a list may ask for: any but `deleted`; or `active`, every phase before an end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
enum ListedPhase {
    Active,
    Queued,
    Scheduling,
    Running,
    Retrying,
    Succeeded,
    Failed,
    Stopped,
}

impl ListedPhase {
    /// The one phase it is; none for `active`.
    fn phase(self) -> Option<TaskPhase> {
        Some(match self {
            ListedPhase::Active => return None,
            ListedPhase::Queued => TaskPhase::Queued,
            ListedPhase::Scheduling => TaskPhase::Scheduling,
            ListedPhase::Running => TaskPhase::Running,
            ListedPhase::Retrying => TaskPhase::Retrying,
            ListedPhase::Succeeded => TaskPhase::Succeeded,
            ListedPhase::Failed => TaskPhase::Failed,
            ListedPhase::Stopped => TaskPhase::Stopped,
        })
    }
}

/// `phase` as a [`ListedPhase`]; `deleted` is refused with its reason, not as unknown.
fn listed_phase<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<ListedPhase>, D::Error> {
    use serde::de::{Error, IntoDeserializer};
    let text = String::deserialize(deserializer)?;
    // A deleted task is gone for everyone, as its own page says (404): listed, it would
    // still show its spec to its group.
    if text == "deleted" {
        return Err(D::Error::custom(
            "deleted tasks are not listed: a deleted task is gone for everyone; \
             ask for another phase",
        ));
    }
    let listed: Result<ListedPhase, serde::de::value::Error> =
        ListedPhase::deserialize(text.into_deserializer());
    listed.map(Some).map_err(D::Error::custom)
}

/// `GET /tasks`: the tasks the caller may see, newest first, filtered, a page at a time.
#[utoipa::path(
    get,
    path = "/tasks",
    tag = "tasks",
    params(
        ListParams
    ),
    responses(
        (status = 200, description = "One page of the tasks the caller may see, newest first", body = TaskPage),
        (status = 400, description = "A query parameter is unknown or not valid (`cursor` not one this server gave; an empty `owner`, `group` or `tag`; a `tag` no tag could match; a `made_from` that is no task the caller may see)", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn list(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ReaderLang(lang): ReaderLang,
    Params(params): Params<ListParams>,
) -> Result<Json<TaskPage>, ApiError> {
    let after = params
        .cursor
        .as_deref()
        .map(crate::store::Cursor::decode)
        .transpose()?;
    let filters = Filters {
        task_type: params.task_type,
        tag: params.tag,
        owner: params.owner,
        group: params.group,
        name: params.name,
        mine: params.mine,
        made_from: params.made_from,
    };
    let Some(query) = list_query(&state, &user, filters).await? else {
        return Ok(Json(TaskPage {
            tasks: Vec::new(),
            next: None,
        }));
    };
    let page = runner(&state)?
        .store()
        .list(&ListQuery {
            phase: params.phase.and_then(ListedPhase::phase),
            active: params.phase == Some(ListedPhase::Active),
            after,
            limit: params.limit.unwrap_or(50),
            ..query
        })
        .await?;
    let mut tasks = Vec::with_capacity(page.tasks.len());
    let mut seen = Seen::new();
    for stored in page.tasks {
        let mut row = view_as(&state, stored, lang, Some(&user), true, &mut seen).await;
        // The log picker is the task page's: a page of autoscaling RayJobs would carry
        // hundreds of replicas a row, at every refresh.
        row.logs.clear();
        tasks.push(row);
    }
    Ok(Json(TaskPage {
        tasks,
        next: page.next.map(|c| c.encode()),
    }))
}

/// The list's filters but its phase and paging, as `GET /tasks` and `GET /tasks/counts`
/// take them.
struct Filters {
    task_type: Option<shared::TaskType>,
    tag: Option<String>,
    owner: Option<String>,
    group: Option<String>,
    name: Option<String>,
    mine: bool,
    made_from: Option<String>,
}

/// The store's query for `filters`, checked, for `user`; `None` when they select no
/// task whatever the store holds (a name longer than any task's).
async fn list_query(
    state: &AppState,
    user: &User,
    params: Filters,
) -> Result<Option<ListQuery>, ApiError> {
    let tag = params
        .tag
        .as_deref()
        .map(|text| tag_filter(state, user, text))
        .transpose()?;
    // An empty owner or group is no one's and none: a script's unset variable
    // (`owner=$USER`) listed nothing, silently, where `tag=` is refused (API explorer).
    for (name, value) in [
        ("owner", &params.owner),
        ("group", &params.group),
        ("made_from", &params.made_from),
    ] {
        if value.as_deref().is_some_and(str::is_empty) {
            return Err(ApiError::BadQuery(format!(
                "`{name}` is empty: give a {} or leave it out",
                match name {
                    "owner" => "user's name",
                    "group" => "project group's id",
                    _ => "task's id",
                }
            )));
        }
    }
    let owner = if params.mine {
        Some(user.name.clone())
    } else {
        params.owner
    };
    // What was made from a task is told to those who may see it (the rule for its
    // `made_from`): of another, even that it exists is not.
    let made_from = match params.made_from {
        Some(id) => {
            let id = TaskId(id);
            if !may_have_seen(state, user, &id).await? {
                return Err(ApiError::BadQuery(format!(
                    "`made_from`: no task {:?} that you may see; give the id of one",
                    id.0
                )));
            }
            Some(id)
        }
        None => None,
    };
    // No task name is longer: such text matches none, and is not sent to the store
    // (SQLite refuses a LIKE pattern over 50,000 bytes).
    if params
        .name
        .as_ref()
        .is_some_and(|name| name.chars().count() > longest_task_name())
    {
        return Ok(None);
    }
    Ok(Some(ListQuery {
        phase: None,
        active: false,
        task_type: params.task_type,
        tag,
        owner,
        project_group: params.group,
        name_contains: params.name,
        made_from,
        visible_to: Some(Viewer {
            user: user.name.clone(),
            groups: groups(state, user),
        }),
        after: None,
        limit: 0,
    }))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
struct CountParams {
    /// Only tasks of this type.
    #[serde(rename = "type")]
    task_type: Option<shared::TaskType>,
    /// Only tasks with this tag: `key` (any value) or `key=value`, as for the list.
    #[param(pattern = "^[^\\x00]*$")]
    tag: Option<String>,
    /// Only tasks of this owner.
    #[param(pattern = "^[^\\x00]*$")]
    owner: Option<String>,
    /// Only tasks of this project group.
    #[param(pattern = "^[^\\x00]*$")]
    group: Option<String>,
    /// Only tasks whose name contains this text, ignoring ASCII case.
    #[param(pattern = "^[^\\x00]*$")]
    name: Option<String>,
    /// `true`: only the caller's own tasks (overrides `owner`).
    #[serde(default)]
    mine: bool,
    /// Only tasks resubmitted or cloned from this task (its id).
    #[param(pattern = "^[^\\x00]*$")]
    made_from: Option<String>,
}

impl QueryParams for CountParams {
    fn takes() -> Vec<(&'static str, String)> {
        ListParams::takes()
            .into_iter()
            .filter(|(name, _)| !matches!(*name, "phase" | "cursor" | "limit" | "lang"))
            .collect()
    }
}

/// `GET /tasks/counts`: how many of the tasks the caller may see are in each phase,
/// under the list's filters but its phase.
#[utoipa::path(
    get,
    path = "/tasks/counts",
    tag = "tasks",
    params(
        CountParams
    ),
    responses(
        (status = 200, description = "How many tasks the list's filters select in each phase, of those the caller may see (the numbers of the console's phase chips)", body = shared::api::PhaseCounts),
        (status = 400, description = "A query parameter is unknown or not valid, as for `GET /tasks`", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn counts(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Params(params): Params<CountParams>,
) -> Result<Json<shared::api::PhaseCounts>, ApiError> {
    let filters = Filters {
        task_type: params.task_type,
        tag: params.tag,
        owner: params.owner,
        group: params.group,
        name: params.name,
        mine: params.mine,
        made_from: params.made_from,
    };
    let Some(query) = list_query(&state, &user, filters).await? else {
        return Ok(Json(shared::api::PhaseCounts::default()));
    };
    Ok(Json(runner(&state)?.store().count_phases(&query).await?))
}

/// A list's `tag`, `key` or `key=value`, held to the key and value rules a task's tags
/// are held to: a filter no tag could match is a mistake to say, not an empty page.
fn tag_filter(state: &AppState, user: &User, text: &str) -> Result<TagFilter, ApiError> {
    let filter = TagFilter::parse(text);
    match filter.refusal(&state.catalog, user) {
        None => Ok(filter),
        Some((part, issue)) => Err(ApiError::BadQuery(format!(
            "tag {text:?} is not a tag filter: give `key` or `key=value`, as a task's \
             tags are written; its {}: {}",
            part.as_str(),
            issue.message(Lang::En)
        ))),
    }
}

/// `GET /tasks/{id}`: the record, its timeline and why it waits.
#[utoipa::path(
    get,
    path = "/tasks/{id}",
    tag = "tasks",
    params(
        ("id" = String, Path, description = "The task id (its final name)"),
        ("lang" = Option<String>, Query, description = "Language of reasons and event messages: `en` or `zh-CN` (any `en…` or `zh…` tag); others are ignored"),
        ("Accept-Language" = Option<String>, Header, description = "Used for the messages' language when `lang` is absent; English otherwise")
    ),
    responses(
        (status = 200, description = "The task, its timeline and why it waits", body = TaskView),
        (status = 400, description = "A query parameter other than `lang` is given", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No task with this id that the caller may see (`task.not_found`), or one they could see, deleted since (`task.deleted`)", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn detail(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ReaderLang(lang): ReaderLang,
    _query: Params<LangParam>,
    Path(id): Path<String>,
) -> Result<Json<TaskView>, ApiError> {
    let stored = visible(&state, &user, &id).await?;
    Ok(Json(view(&state, stored, lang, Some(&user)).await))
}

/// `POST /tasks/{id}/stop`: a waiting task stops at once; a running one is signalled
/// and reaches `stopped` when its replicas have ended. `409` once it has ended.
#[utoipa::path(
    post,
    path = "/tasks/{id}/stop",
    tag = "tasks",
    params(
        ("id" = String, Path, description = "The task id (its final name)"),
        ("lang" = Option<String>, Query, description = "Language of reasons and event messages: `en` or `zh-CN` (any `en…` or `zh…` tag); others are ignored"),
        ("Accept-Language" = Option<String>, Header, description = "Used for the messages' language when `lang` is absent; English otherwise")
    ),
    responses(
        (status = 200, description = "The task, stopped or stopping", body = TaskView),
        (status = 400, description = "A query parameter other than `lang` is given, or a body is sent (this route takes none; an empty JSON object, `{}`, is accepted)", body = ErrorBody, content_type = PROBLEM),
        (status = 403, description = "The caller may see the task but does not own it", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No task with this id that the caller may see (`task.not_found`), or one they could see, deleted since (`task.deleted`)", body = ErrorBody, content_type = PROBLEM),
        (status = 409, description = "The task has already ended", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn stop(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ReaderLang(lang): ReaderLang,
    _query: Params<LangParam>,
    Path(id): Path<String>,
    _body: NoBody,
) -> Result<Json<TaskView>, ApiError> {
    owned(&state, &user, &id, "stop").await?;
    match runner(&state)?.stop(&TaskId(id)).await {
        Ok(stored) => Ok(Json(view(&state, stored, lang, Some(&user)).await)),
        Err(StopError::Finished(id)) => Err(ApiError::Conflict(format!(
            "task {id} has already ended; there is nothing to stop"
        ))),
        Err(StopError::Store(err)) => Err(err.into()),
    }
}

/// `DELETE /tasks/{id}`: an ended task leaves the lists (`409` while it runs or its stop
/// is under way).
#[utoipa::path(
    delete,
    path = "/tasks/{id}",
    tag = "tasks",
    params(
        ("id" = String, Path, description = "The task id (its final name)")
    ),
    responses(
        (status = 204, description = "The task left the lists"),
        (status = 400, description = "A query parameter is given (this route takes none), or a body is sent (nor does it take one; an empty JSON object, `{}`, is accepted)", body = ErrorBody, content_type = PROBLEM),
        (status = 403, description = "The caller may see the task but does not own it", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No task with this id that the caller may see (`task.not_found`), or one they could see, deleted since (`task.deleted`)", body = ErrorBody, content_type = PROBLEM),
        (status = 409, description = "The task has not ended: stop it first (`task.conflict`), or, when its stop is under way, delete it once it has stopped (`task.stopping`)", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn delete(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    _query: Params<NoParams>,
    Path(id): Path<String>,
    _body: NoBody,
) -> Result<StatusCode, ApiError> {
    let stored = owned(&state, &user, &id, "delete").await?;
    if !stored.task.phase.is_finished() {
        return Err(match stored.stop_asked_at {
            Some(_) => ApiError::Stopping { id },
            None => ApiError::Conflict(format!("task {id} has not ended; stop it first")),
        });
    }
    let runner = runner(&state)?;
    match runner.store().delete(&stored.task.id, now()).await {
        Ok(()) => {
            // Its logs (which may have printed a secret) and its replicas' folders go
            // with it, off the request's thread: a folder may be large.
            let backend = Arc::clone(runner.backend());
            let task = stored.task.id.clone();
            tokio::task::spawn_blocking(move || backend.remove_task(&task));
            Ok(StatusCode::NO_CONTENT)
        }
        // An ended task changes phase only to deleted: another delete (a client's retry)
        // took it since the read above, and it is gone, as to any later request.
        Err(StoreError::Phase { .. }) => Err(ApiError::TaskDeleted { id }),
        Err(err) => Err(err.into()),
    }
}

/// The spec as the caller may see it: real hidden values for the owner only, and the
/// task's tags as they are now. Tags edited on the task are the task's, so its spec,
/// a clone of it and a resubmit carry them, not the tags it was submitted with.
async fn spec_for(
    state: &AppState,
    user: &User,
    stored: &StoredTask,
) -> Result<TaskSpec, ApiError> {
    let mut spec = if stored.task.owner == user.name {
        let hidden = runner(state)?
            .store()
            .hidden_values(&stored.task.id)
            .await?;
        restore_hidden(&stored.task.spec, &hidden)
    } else {
        stored.task.spec.for_others()
    };
    spec.basic.tags.clone_from(&stored.tags);
    Ok(spec)
}

/// `GET /tasks/{id}/spec`: for clone and export.
#[utoipa::path(
    get,
    path = "/tasks/{id}/spec",
    tag = "tasks",
    params(
        ("id" = String, Path, description = "The task id (its final name)")
    ),
    responses(
        (status = 200, description = "The spec, with the task's tags as they are now; hidden env values and webhook targets are real for the owner only, masked for anyone else (a webhook keeps its scheme and host: `https://hooks.example.com/******`)", body = TaskSpec),
        (status = 400, description = "A query parameter is given: this route takes none", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No task with this id that the caller may see (`task.not_found`), or one they could see, deleted since (`task.deleted`)", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn spec(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    _query: Params<NoParams>,
    Path(id): Path<String>,
) -> Result<Json<TaskSpec>, ApiError> {
    let stored = visible(&state, &user, &id).await?;
    Ok(Json(spec_for(&state, &user, &stored).await?))
}

/// `POST /tasks/{id}/resubmit`: a new task from the same spec, checked against today's
/// catalog and quota.
#[utoipa::path(
    post,
    path = "/tasks/{id}/resubmit",
    tag = "tasks",
    params(
        ("id" = String, Path, description = "The task id (its final name)"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 255, pattern = "^[!-~]+$", description = "1 to 255 visible ASCII characters, no spaces; a retry with the same key answers 200 with the first task instead of submitting again"),
        ("lang" = Option<String>, Query, description = "Language of finding messages: `en` or `zh-CN` (any `en…` or `zh…` tag); others are ignored"),
        ("Accept-Language" = Option<String>, Header, description = "Used for the messages' language when `lang` is absent; English otherwise")
    ),
    responses(
        (status = 201, description = "The new task, once it is durable", body = TaskView),
        (status = 200, description = "A retry with a known `Idempotency-Key`: the first task", body = TaskView),
        (status = 409, description = "A known `Idempotency-Key` sent with another spec, or whose task was deleted since", body = ErrorBody, content_type = PROBLEM),
        (status = 400, description = "`Idempotency-Key` is not 1 to 255 visible ASCII characters (no spaces), a query parameter other than `lang` is given, or a body is sent (this route takes none; an empty JSON object, `{}`, is accepted): an edited spec is submitted with `POST /tasks`", body = ErrorBody, content_type = PROBLEM),
        (status = 403, description = "The caller may see the task but does not own it", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No task with this id that the caller may see (`task.not_found`), or one they could see, deleted since (`task.deleted`)", body = ErrorBody, content_type = PROBLEM),
        (status = 422, description = "The spec no longer passes today's catalog and quota; `issues` lists why", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn resubmit(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ReaderLang(lang): ReaderLang,
    _query: Params<LangParam>,
    headers: HeaderMap,
    Path(id): Path<String>,
    _body: NoBody,
) -> Result<Response, ApiError> {
    // Only the owner: anyone else would resubmit masked secrets as values.
    let stored = owned(&state, &user, &id, "resubmit").await?;
    let spec = spec_for(&state, &user, &stored).await?;
    let made_from = MadeFrom {
        task: stored.task.id.clone(),
        how: MadeHow::Resubmit,
    };
    submit_spec(
        &state,
        &user,
        spec,
        idempotency_key(&headers)?,
        Some(made_from),
        lang,
    )
    .await
}

/// `POST /tasks/{id}/share`: a read-only link, until it is revoked or the task deleted.
#[utoipa::path(
    post,
    path = "/tasks/{id}/share",
    tag = "tasks",
    params(
        ("id" = String, Path, description = "The task id (its final name)")
    ),
    responses(
        (status = 201, description = "A read-only link", body = ShareLink),
        (status = 400, description = "A query parameter is given (this route takes none), or a body is sent (nor does it take one; an empty JSON object, `{}`, is accepted)", body = ErrorBody, content_type = PROBLEM),
        (status = 403, description = "The caller may see the task but does not own it", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No task with this id that the caller may see (`task.not_found`), or one they could see, deleted since (`task.deleted`)", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn share(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    _query: Params<NoParams>,
    Path(id): Path<String>,
    _body: NoBody,
) -> Result<
    (
        StatusCode,
        [(axum::http::HeaderName, String); 1],
        Json<ShareLink>,
    ),
    ApiError,
> {
    let stored = owned(&state, &user, &id, "share").await?;
    let token = share_token();
    let at = now();
    let link = runner(&state)?
        .store()
        .create_share(&stored.task.id, &token, &user.name, at)
        .await?;
    // What the link opens.
    let location = format!("/api/v1/shared/{token}");
    Ok((
        StatusCode::CREATED,
        [(axum::http::header::LOCATION, location)],
        Json(share_link(crate::store::Share {
            link,
            token,
            created_at: at,
            created_by: user.name,
        })),
    ))
}

fn share_link(share: crate::store::Share) -> ShareLink {
    ShareLink {
        path: format!("/api/v1/shared/{}", share.token),
        token: share.token,
        link: share.link,
        created_at: share.created_at,
        created_by: share.created_by,
    }
}

/// `GET /tasks/{id}/share`: the task's share links that work (not revoked), oldest
/// first; for its owner only.
#[utoipa::path(
    get,
    path = "/tasks/{id}/share",
    tag = "tasks",
    params(
        ("id" = String, Path, description = "The task id (its final name)")
    ),
    responses(
        (status = 200, description = "The task's share links not revoked, oldest first", body = Vec<ShareLink>),
        (status = 400, description = "A query parameter is given: this route takes none", body = ErrorBody, content_type = PROBLEM),
        (status = 403, description = "The caller may see the task but does not own it", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No task with this id that the caller may see (`task.not_found`), or one they could see, deleted since (`task.deleted`)", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn share_links(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    _query: Params<NoParams>,
    Path(id): Path<String>,
) -> Result<Json<Vec<ShareLink>>, ApiError> {
    let stored = owned(&state, &user, &id, "list the links that share").await?;
    let shares = runner(&state)?.store().shares(&stored.task.id).await?;
    Ok(Json(shares.into_iter().map(share_link).collect()))
}

/// `/tasks/{id}/share/{link}`, by name, so a link that is no number is refused naming
/// `link`.
#[derive(serde::Deserialize)]
struct ShareLinkPath {
    id: String,
    link: u32,
}

/// `DELETE /tasks/{id}/share/{link}`: revokes a share link; opening it answers from then
/// on as a link never made does (404). Named by its number, not its token, so that the
/// token stays out of request paths and the logs that keep them.
#[utoipa::path(
    delete,
    path = "/tasks/{id}/share/{link}",
    tag = "tasks",
    params(
        ("id" = String, Path, description = "The task id (its final name)"),
        ("link" = u32, Path, description = "The link's number on the task (`link` of its `ShareLink`)")
    ),
    responses(
        (status = 204, description = "The link is revoked"),
        (status = 400, description = "`link` is not a whole number, a query parameter is given (this route takes none), or a body is sent (nor does it take one; an empty JSON object, `{}`, is accepted)", body = ErrorBody, content_type = PROBLEM),
        (status = 403, description = "The caller may see the task but does not own it", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No task with this id that the caller may see (`task.not_found`), one they could see, deleted since (`task.deleted`), or the task has no such link that works: revoked already, or never made (`share.not_found`)", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn revoke_share(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    _query: Params<NoParams>,
    Path(ShareLinkPath { id, link }): Path<ShareLinkPath>,
    _body: NoBody,
) -> Result<StatusCode, ApiError> {
    let stored = owned(&state, &user, &id, "revoke a link that shares").await?;
    let revoked = runner(&state)?
        .store()
        .revoke_share(&stored.task.id, link, now())
        .await?;
    if revoked {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::ShareNotFound { id, link })
    }
}

/// 128 random bits as hex, from the process's random hasher keys.
fn share_token() -> String {
    use std::hash::BuildHasher;
    let state = std::collections::hash_map::RandomState::new();
    let a = state.hash_one(now());
    let b = std::collections::hash_map::RandomState::new().hash_one(a);
    format!("{a:016x}{b:016x}")
}

/// `GET /shared/{token}`: the shared task, read-only, hidden values and webhook targets
/// masked, for its owner too. A reader outside the task's project group reads the group
/// by its display name: its id is for the group's members (the catalog shows a user only
/// their own groups).
#[utoipa::path(
    get,
    path = "/shared/{token}",
    tag = "tasks",
    params(
        ("token" = String, Path, description = "The token of a share link"),
        ("lang" = Option<String>, Query, description = "Language of reasons and event messages: `en` or `zh-CN` (any `en…` or `zh…` tag); others are ignored"),
        ("Accept-Language" = Option<String>, Header, description = "Used for the messages' language when `lang` is absent; English otherwise")
    ),
    responses(
        (status = 200, description = "The shared task, read-only, hidden values and webhook targets masked; to a reader outside its project group, `project_group` is the group's display name, not its id (empty for a group the catalog no longer has)", body = TaskView),
        (status = 400, description = "A query parameter other than `lang` is given", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No share link with this token", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn shared_view(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ReaderLang(lang): ReaderLang,
    _query: Params<LangParam>,
    Path(token): Path<String>,
) -> Result<Json<TaskView>, ApiError> {
    let stored = shared_task(&state, &token).await?;
    let mut shown = view(&state, stored, lang, None).await;
    let group = &mut shown.task.spec.basic.project_group;
    if !groups(&state, &user).contains(group) {
        *group = state
            .catalog
            .project_groups
            .iter()
            .find(|g| g.id == *group)
            .map(|g| g.name.clone())
            .unwrap_or_default();
    }
    Ok(Json(shown))
}

/// The task a share link opens: an unknown or revoked link and a deleted task are the
/// same 404, which tells nothing of the task.
async fn shared_task(state: &AppState, token: &str) -> Result<StoredTask, ApiError> {
    let gone = || ApiError::TaskNotFound {
        id: "(shared link)".to_owned(),
    };
    let runner = runner(state)?;
    let id = runner.store().shared(token).await?.ok_or_else(gone)?;
    let stored = runner.store().get(&id).await?;
    if stored.task.phase == TaskPhase::Deleted {
        return Err(gone());
    }
    Ok(stored)
}

/// `GET /shared/{token}/events`: the shared task's events, as `GET /tasks/{id}/events`
/// gives them to anyone but the owner (webhook targets masked, a task ahead in the queue
/// unnamed), for the owner too.
#[utoipa::path(
    get,
    path = "/shared/{token}/events",
    tag = "tasks",
    params(
        ("token" = String, Path, description = "The token of a share link"),
        EventParams,
        ("Accept-Language" = Option<String>, Header, description = "Used for the messages' language when `lang` is absent; English otherwise")
    ),
    responses(
        (status = 200, description = "What happened to the shared task, as `GET /tasks/{id}/events` answers anyone but its owner", body = Vec<TaskEventView>, headers(("Berth-Events-Earlier" = String, description = "Sent when events before this page are left out: give it as `before` (with `limit`, and the same `kind`) for the page before"))),
        (status = 400, description = "A query parameter other than `lang`, `limit`, `before` and `kind` is given, or one is not valid", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No share link with this token (or its task was deleted)", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn shared_events(
    State(state): State<AppState>,
    // Signed in, as for the link's page: a link is for the users of this Berth.
    CurrentUser(_reader): CurrentUser,
    ReaderLang(lang): ReaderLang,
    Params(params): Params<EventParams>,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let stored = shared_task(&state, &token).await?;
    events_of(&state, stored, None, lang, params).await
}

/// `GET /shared/{token}/logs`: a replica's log of the shared task, as
/// `GET /tasks/{id}/logs` gives it to anyone but the owner (the task's hidden values
/// masked), for the owner too: a colleague sent the link can read why a run failed.
#[utoipa::path(
    get,
    path = "/shared/{token}/logs",
    tag = "tasks",
    params(
        ("token" = String, Path, description = "The token of a share link"),
        LogParams
    ),
    responses(
        (status = 200, description = "The replica's log as `GET /tasks/{id}/logs` answers anyone but the task's owner (its hidden env values masked): plain text, or with `follow=true` server-sent events", headers(("Berth-Log-Left-Out" = u64, description = "With `tail_bytes`, not followed: how many bytes of the log came before the end sent (0: none)")), content((String = "text/plain"), (LogEvent = "text/event-stream"))),
        (status = 400, description = "A query parameter is unknown or not valid, the task has no such replica, or the attempt was not run", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No share link with this token (or its task was deleted), or, with several servers on one database, an attempt this server did not run (`log.elsewhere`)", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn shared_logs(
    State(state): State<AppState>,
    CurrentUser(_reader): CurrentUser,
    Params(params): Params<LogParams>,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let stored = shared_task(&state, &token).await?;
    let follow = params.follow;
    let answer = logs_of(&state, stored, None, params).await?;
    if !follow {
        return Ok(answer);
    }
    // A follow ends soon after its link is revoked (or its task deleted): the owner
    // revokes to stop the output reaching the link's readers, and a followed log runs as
    // long as its attempt, days for a training job (shared-debugging explorer).
    Ok(ended_with_the_link(answer, state, token))
}

/// How often a followed shared log looks whether its link still opens the task.
const SHARED_FOLLOW_CHECK: std::time::Duration = std::time::Duration::from_secs(2);

/// `answer`, a followed log's stream, cut off once `token` no longer opens a task: it
/// ends as a broken stream does, with no `end`, and a reader asking again is answered
/// as for a link never made.
fn ended_with_the_link(answer: Response, state: AppState, token: String) -> Response {
    use futures_util::StreamExt;
    enum Piece {
        Data(Result<axum::body::Bytes, axum::Error>),
        Over,
    }
    let (parts, body) = answer.into_parts();
    let data = body
        .into_data_stream()
        .map(Piece::Data)
        .chain(futures_util::stream::once(async { Piece::Over }));
    let revoked = futures_util::stream::unfold((state, token), |(state, token)| async move {
        loop {
            tokio::time::sleep(SHARED_FOLLOW_CHECK).await;
            // Only a link that opens nothing: a store's hiccup does not cut the log.
            if matches!(
                shared_task(&state, &token).await,
                Err(ApiError::TaskNotFound { .. })
            ) {
                return Some((Piece::Over, (state, token)));
            }
        }
    });
    let cut = futures_util::stream::select(data, revoked)
        .take_while(|piece| std::future::ready(matches!(piece, Piece::Data(_))))
        .filter_map(|piece| {
            std::future::ready(match piece {
                Piece::Data(data) => Some(data),
                Piece::Over => None,
            })
        });
    Response::from_parts(parts, axum::body::Body::from_stream(cut))
}

/// `PATCH /tasks/{id}/tags`: the tag rules of the form apply (SPEC.md section 2).
#[utoipa::path(
    patch,
    path = "/tasks/{id}/tags",
    tag = "tasks",
    params(
        ("id" = String, Path, description = "The task id (its final name)"),
        ("lang" = Option<String>, Query, description = "Language of finding messages: `en` or `zh-CN` (any `en…` or `zh…` tag); others are ignored"),
        ("Accept-Language" = Option<String>, Header, description = "Used for the messages' language when `lang` is absent; English otherwise")
    ),
    request_body(content = TagsBody, content_type = "application/json", description = "The tags the task should have"),
    responses(
        (status = 200, description = "The task with its new tags", body = TaskView),
        (status = 400, description = "The body is not strict JSON, or not `{\"tags\": [...]}`, or a query parameter other than `lang` is given", body = ErrorBody, content_type = PROBLEM),
        (status = 403, description = "The caller may see the task but does not own it", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No task with this id that the caller may see (`task.not_found`), or one they could see, deleted since (`task.deleted`)", body = ErrorBody, content_type = PROBLEM),
        (status = 409, description = "`expected` was given and the task's tags are no longer those (`task.tags_changed`); nothing changed", body = ErrorBody, content_type = PROBLEM),
        (status = 413, description = "The body is larger than the server accepts", body = ErrorBody, content_type = PROBLEM),
        (status = 415, description = "The body is not declared as JSON (`application/json` or `application/…+json`)", body = ErrorBody, content_type = PROBLEM),
        (status = 422, description = "A tag breaks the form's tag rules; `issues` lists them, each at its place in the body (`tags[0].key`, `tags` for the list)", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn tags(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ReaderLang(lang): ReaderLang,
    _query: Params<LangParam>,
    Path(id): Path<String>,
    JsonText(text): JsonText,
) -> Result<Json<TaskView>, ApiError> {
    let stored = owned(&state, &user, &id, "tag").await?;
    let bad = |e: &dyn std::fmt::Display| {
        ApiError::BadBody(format!("the body must be {{\"tags\": [...]}}: {e}"))
    };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(&e))?;
    // serde reads a struct from a list as well (`[[]]`): the body and each tag must be
    // objects, as documented (schemathesis found `[[]]` taken).
    if !value.is_object() {
        return Err(bad(&"the body is not an object"));
    }
    // Named by its place, as a tag of the wrong type is (API explorer: "each tag is an
    // object" left the script to find which).
    if let Some(i) = value["tags"]
        .as_array()
        .and_then(|tags| tags.iter().position(|t| !t.is_object()))
    {
        return Err(bad(&format_args!(
            "tags[{i}] is not an object: write each tag as {{\"key\": ..., \"value\": ...}}"
        )));
    }
    // Each tag read alone, so that a refusal names it (`tags[0]`): serde names only the
    // field within it (`value: invalid type`).
    if let Some(tags) = value["tags"].as_array() {
        for (i, tag) in tags.iter().enumerate() {
            serde_json::from_value::<shared::task::Tag>(tag.clone())
                .map_err(|e| bad(&format_args!("tags[{i}]: {e}")))?;
        }
    }
    let body: TagsBody = serde_json::from_value(value).map_err(|e| bad(&e))?;
    // The same rules as on the form: check the spec with the new tags and keep the
    // findings about them.
    let mut spec = stored.task.spec.clone();
    spec.basic.tags.clone_from(&body.tags);
    let usage = state.live_usage().await?;
    let report = shared::check(&spec, &state.catalog, &usage, &user).issues;
    let at = shared::FieldPath::parse("basic.tags");
    let mut about_tags = shared::Report::new();
    // Each finding at its place in this body (`tags[0].key`), not the spec's
    // (`basic.tags[0].key`), which the body has no `basic` of (API explorer).
    for issue in report.under(&at) {
        let mut issue = issue.clone();
        let path = issue.path.to_string();
        issue.path = shared::FieldPath::parse(path.strip_prefix("basic.").unwrap_or(&path));
        about_tags.push_issue(issue);
    }
    if about_tags.has_errors() {
        return Err(ApiError::Tags {
            report: about_tags,
            lang,
            maintained: state.catalog.tags.maintained.clone(),
        });
    }
    let runner = runner(&state)?;
    runner
        .store()
        .set_tags(&stored.task.id, &body.tags, body.expected.as_deref())
        .await?;
    let stored = runner.store().get(&stored.task.id).await?;
    Ok(Json(view(&state, stored, lang, Some(&user)).await))
}

/// The events' parameters; any other is refused, as `/tasks` and `/logs` refuse theirs,
/// rather than a misspelt filter silently answering everything.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
struct EventParams {
    /// Language of reasons and event messages: `en` or `zh-CN` (any `en…` or `zh…`
    /// tag); another is passed over for the `Accept-Language` header.
    // Read by `ReaderLang`; a field here so that it is not refused as unknown.
    #[allow(dead_code)]
    lang: Option<String>,
    /// Only the latest this many events (before `before`), still oldest first; `0` is
    /// read as 1, more than the server's maximum as its maximum. Without it, every one.
    limit: Option<u32>,
    /// Only events before this one: the `Berth-Events-Earlier` of the page after.
    before: Option<u64>,
    /// Only events of this kind, numbered among themselves (`before`, `limit` and
    /// `Berth-Events-Earlier` count only them): `kind=retrying` lists a task's retries.
    #[param(inline)]
    kind: Option<EventKind>,
}

/// A kind of event the server writes, as `kind` filters by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
enum EventKind {
    Queued,
    Admitted,
    Started,
    Exited,
    Retrying,
    Stopping,
    Failed,
    Stopped,
    Succeeded,
    Debug,
    Alert,
    Cluster,
    Pull,
    Job,
}

impl EventKind {
    /// Its code, as the store keeps it.
    fn code(self) -> &'static str {
        use crate::backend::note_kind;
        use crate::store::event_kind;
        match self {
            EventKind::Queued => event_kind::QUEUED,
            EventKind::Admitted => event_kind::ADMITTED,
            EventKind::Started => event_kind::STARTED,
            EventKind::Exited => event_kind::EXITED,
            EventKind::Retrying => event_kind::RETRYING,
            EventKind::Stopping => event_kind::STOPPING,
            EventKind::Failed => event_kind::FAILED,
            EventKind::Stopped => event_kind::STOPPED,
            EventKind::Succeeded => event_kind::SUCCEEDED,
            EventKind::Debug => event_kind::DEBUG,
            EventKind::Alert => event_kind::ALERT,
            EventKind::Cluster => note_kind::CLUSTER,
            EventKind::Pull => note_kind::PULL,
            EventKind::Job => note_kind::JOB,
        }
    }
}

impl QueryParams for EventParams {
    fn takes() -> Vec<(&'static str, String)> {
        vec![
            ("lang", LANG_TAKES.to_owned()),
            (
                "limit",
                format!(
                    "a whole number from 0 to {1} (a page holds 1 to {0} events: 0 is read \
                     as 1, more than {0} as {0})",
                    crate::store::MAX_PAGE,
                    u32::MAX
                ),
            ),
            (
                "before",
                "the `Berth-Events-Earlier` header of a page of this task's events".to_owned(),
            ),
            (
                "kind",
                "one of `queued`, `admitted`, `started`, `exited`, `retrying`, `stopping`, \
                 `failed`, `stopped`, `succeeded`, `debug`, `alert`, `cluster`, `pull` or `job`"
                    .to_owned(),
            ),
        ]
    }
}

/// The header of a page of events that says earlier ones are left out: its value, as
/// `before`, asks for the page before.
pub const EVENTS_EARLIER: &str = "berth-events-earlier";

/// `GET /tasks/{id}/events`: oldest first; with `limit`, a page of the latest, and
/// `Berth-Events-Earlier` to ask for the page before; with `kind`, only that kind's.
#[utoipa::path(
    get,
    path = "/tasks/{id}/events",
    tag = "tasks",
    params(
        ("id" = String, Path, description = "The task id (its final name)"),
        EventParams,
        ("Accept-Language" = Option<String>, Header, description = "Used for the messages' language when `lang` is absent; English otherwise")
    ),
    responses(
        (status = 200, description = "What happened to the task, oldest first, in the reader's language; an alert's webhook target masked for anyone but the owner. With `kind`, only the events of that kind, numbered among themselves. With `limit`, only the latest that many (before `before`); when earlier ones are left out, `Berth-Events-Earlier` says where the page before ends, and one less than it is how many there are before the page", body = Vec<TaskEventView>, headers(("Berth-Events-Earlier" = String, description = "Sent when events before this page are left out: give it as `before` (with `limit`, and the same `kind`) for the page before; less one, it is how many come before the page"))),
        (status = 400, description = "A query parameter other than `lang`, `limit`, `before` and `kind` is given, or one is not valid (`kind` not a kind of event, `before` not a `Berth-Events-Earlier` of this task's events of that kind)", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No task with this id that the caller may see (`task.not_found`), or one they could see, deleted since (`task.deleted`)", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn events(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ReaderLang(lang): ReaderLang,
    Params(params): Params<EventParams>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let stored = visible(&state, &user, &id).await?;
    events_of(&state, stored, Some(&user), lang, params).await
}

/// The events of `stored` as `reader` reads them (`None`: a share link's reader, who
/// reads them as anyone but the owner does).
async fn events_of(
    state: &AppState,
    stored: StoredTask,
    reader: Option<&User>,
    lang: Lang,
    params: EventParams,
) -> Result<Response, ApiError> {
    let id = &stored.task.id;
    let owner_reads = reader.is_some_and(|u| u.name == stored.task.owner);
    // A page, read in the store's query: the events (of `kind`) numbered (from 1, in the
    // order they happened) below `before`, the latest `limit` of them. Events are only
    // ever added, so a number names the same event for good.
    let kinds = params.kind.map(EventKind::code);
    let query = crate::store::EventQuery {
        kinds: kinds.as_slice(),
        before: params.before,
        limit: params
            .limit
            .map(|limit| limit.clamp(1, crate::store::MAX_PAGE)),
    };
    let page = runner(state)?
        .store()
        .events_page(&stored.task.id, query)
        .await?;
    // Valid from 1 to one past the last, read in the same transaction as the page.
    if let Some(before) = params.before
        && !(1..=page.total + 1).contains(&before)
    {
        return Err(ApiError::BadQuery(format!(
            "before={before} is not where a page of task {id}'s events ends: give the \
             Berth-Events-Earlier header of the page after"
        )));
    }
    let hooks = if owner_reads {
        Vec::new()
    } else {
        webhooks_shown(&stored.task.spec)
    };
    let logs = shared::api::log_replicas(
        &stored.task.spec,
        runner(state)?.backend().runs_ray_clusters(),
    );
    let first = page.first;
    let hidden = hidden_behind(
        state,
        reader,
        page.events.iter().filter_map(|e| e.keyed.as_ref()),
        &mut Seen::new(),
    )
    .await;
    let page: Vec<TaskEventView> = page
        .events
        .into_iter()
        .map(|mut e| {
            if let Some(keyed) = e.keyed.as_mut() {
                if !hidden.is_empty() {
                    *keyed = unnamed(keyed, &hidden);
                }
                specs_named(state, &stored.task.spec, keyed);
            }
            e
        })
        .map(|e| TaskEventView {
            at: e.at,
            // An alert's event names its target, and may repeat it in the error.
            message: masked_hooks(
                &e.keyed.as_ref().map_or_else(
                    || e.text(lang),
                    |m| shared::api::as_read(m, &logs).render(lang),
                ),
                &hooks,
            ),
            kind: e.kind,
        })
        .collect();
    let mut answer = Json(page).into_response();
    if first > 1 {
        answer.headers_mut().insert(
            axum::http::HeaderName::from_static(EVENTS_EARLIER),
            axum::http::HeaderValue::from(first),
        );
    }
    Ok(answer)
}

/// `text` with each webhook target in `hooks` (longest first) replaced by its shown
/// form, in one pass: at each place the longest target that starts there is replaced
/// whole, and a shown form is never read again. Replacing one target after another
/// garbled a target that begins another (`https://h.example` inside the masked
/// `https://h.example:8443/******` became `https://h.example/******:8443/******`).
fn masked_hooks(text: &str, hooks: &[(&str, String)]) -> String {
    if hooks.is_empty() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some((hook, shown)) = hooks.iter().find(|(hook, _)| rest.starts_with(hook)) {
            out.push_str(shown);
            rest = &rest[hook.len()..];
        } else {
            let mut chars = rest.chars();
            if let Some(c) = chars.next() {
                out.push(c);
            }
            rest = chars.as_str();
        }
    }
    out
}

/// Each webhook target of `spec` with its form for anyone but the owner, longest first,
/// so that where a hook's URL begins another's, the longer is masked whole.
fn webhooks_shown(spec: &TaskSpec) -> Vec<(&str, String)> {
    let mut hooks: Vec<(&str, String)> = spec
        .advanced
        .alerts
        .iter()
        .filter(|a| a.channel == AlertChannel::Webhook && !a.target.is_empty())
        .map(|a| (a.target.as_str(), a.shown_target()))
        .collect();
    hooks.sort_by_key(|(hook, _)| std::cmp::Reverse(hook.len()));
    hooks
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
struct LogParams {
    /// The replica, as the task's `logs` list them: 0 is a PyTorchJob's master or a
    /// RayJob's submitter (its entrypoint's output).
    #[serde(default)]
    replica: u32,
    /// The attempt, from 1; default the latest.
    attempt: Option<u32>,
    /// `true`: stream the log as server-sent events until the attempt ends.
    #[serde(default)]
    follow: bool,
    /// Only the log's end: at most this many bytes of it (as this reader reads it,
    /// masked), from a line's start.
    tail_bytes: Option<u64>,
}

impl QueryParams for LogParams {
    fn takes() -> Vec<(&'static str, String)> {
        vec![
            (
                "replica",
                "a whole number, 0 or more: one of the task's `logs`".to_owned(),
            ),
            (
                "attempt",
                "a whole number from 1: an attempt the task has run".to_owned(),
            ),
            ("follow", "`true` or `false`".to_owned()),
            (
                "tail_bytes",
                format!("a whole number from 0 to {}", u64::MAX),
            ),
        ]
    }
}

/// `GET /tasks/{id}/logs?replica=&attempt=&follow=&tail_bytes=`: a replica's log (stdout
/// and stderr), of the latest attempt unless one is named (empty before the first has
/// started). `follow=true` streams it as server-sent events (`data:` lines, one event per
/// chunk) until the attempt has ended (at once before the first). `tail_bytes` asks for
/// its end only. Anyone but the owner reads the task's hidden env values in it masked.
#[utoipa::path(
    get,
    path = "/tasks/{id}/logs",
    tag = "tasks",
    params(
        ("id" = String, Path, description = "The task id (its final name)"),
        LogParams
    ),
    responses(
        (status = 200, description = "The replica's log (the task's hidden env values masked for anyone but its owner): plain text, or with `follow=true` server-sent events (one `data:` event per chunk, a line's `\\r\\n` sent as `\\n` and a bare `\\r` at a line's start left out, as each would be a line end of its own on the wire; then an `end` event with the data `ended` once the attempt has ended, or at once with the data `not started` while the task has had no attempt: follow again once it runs; `ended` for one that ended before any). With `tail_bytes=N`, only its end: at most N bytes of the log as this reader reads it (masked; a mask is never cut apart from what it hides, nor cut itself: an end that would begin within asterisks begins where they do, or within a run of over 64 where it ends, unless the log ends in it), from a line's start (a last line longer than N from within); the `Berth-Log-Left-Out` header says how many bytes came before it (0: the log is whole). Followed, the end of what is written so far comes as one `data:` event, after a `left_out` event whose data is that count (sent only when something was left out), then the log as it is appended (a pod's log that Kubernetes streams: read to its end once to find where the end begins, then followed from as many lines from its end; lines written between the two reads move its start on, and the count is the first read's; followed whole, where there are values to mask, when one spans lines or a line of the log is 16 KiB or longer)", headers(("Berth-Log-Left-Out" = u64, description = "With `tail_bytes`, not followed: how many bytes of the log came before the end sent (0: none)")), content((String = "text/plain"), (LogEvent = "text/event-stream"))),
        (status = 400, description = "A query parameter is unknown or not valid, the task has no such replica, or the attempt was not run (any attempt named, before the first has started)", body = ErrorBody, content_type = PROBLEM),
        (status = 404, description = "No task with this id that the caller may see (`task.not_found`), one they could see, deleted since (`task.deleted`), or, with several servers on one database, an attempt this server did not run, whose log files are on the machine of the server that did (`log.elsewhere`)", body = ErrorBody, content_type = PROBLEM),
        (status = 500, description = "The task store failed; the cause is logged, not sent", body = ErrorBody, content_type = PROBLEM),
    )
)]
async fn logs(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Params(params): Params<LogParams>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let stored = visible(&state, &user, &id).await?;
    logs_of(&state, stored, Some(&user), params).await
}

/// A replica's log of `stored` as `reader` reads it (`None`: a share link's reader, who
/// reads the task's hidden values masked, as anyone but the owner does).
async fn logs_of(
    state: &AppState,
    stored: StoredTask,
    reader: Option<&User>,
    params: LogParams,
) -> Result<Response, ApiError> {
    let id = stored.task.id.0.clone();
    let owner_reads = reader.is_some_and(|u| u.name == stored.task.owner);
    let runner = Arc::clone(runner(state)?);
    // A replica the task does not have has no log, and never will: followed, it would
    // wait for the attempt's end to say nothing.
    let replicas =
        shared::api::log_replicas(&stored.task.spec, runner.backend().runs_ray_clusters());
    if !replicas.iter().any(|r| r.replica == params.replica) {
        let last = replicas.iter().map(|r| r.replica).max().unwrap_or(0);
        return Err(ApiError::BadQuery(format!(
            "task {id} has {} replica(s); ask for replica 0 to {last}",
            replicas.len()
        )));
    }
    if stored.task.attempts == 0 {
        if params.attempt.is_some() {
            return Err(ApiError::BadQuery(format!(
                "task {id} has not started yet; it has no attempt to ask for"
            )));
        }
        // The latest attempt of a task that has none has no output yet. A follow ends
        // at once, as one ends when its task goes back to the queue: the console
        // follows the attempt that starts once it sees it. Its data says why: a script
        // that submits then follows read `ended` as the job over before it ran (API
        // explorer).
        return Ok(if params.follow {
            // One that ended without an attempt (stopped while queued) never runs.
            let why = if stored.task.phase.is_finished() {
                "ended"
            } else {
                "not started"
            };
            let end = Event::default().event("end").data(why);
            Sse::new(futures_util::stream::iter([Ok::<
                _,
                std::convert::Infallible,
            >(end)]))
            .into_response()
        } else {
            plain_text(String::new())
        });
    }
    let attempt = params.attempt.unwrap_or(stored.task.attempts);
    if attempt == 0 || attempt > stored.task.attempts {
        return Err(ApiError::BadQuery(format!(
            "task {id} has run {} attempt(s); ask for attempt 1 to {0}",
            stored.task.attempts
        )));
    }
    // The owner's hidden persistent env vars, which every task of theirs runs with, are
    // masked for everyone, as the catalog masks them; the task's own hidden values for
    // anyone but its owner.
    let persistent = state
        .catalog
        .persistent_env_of(&stored.task.owner)
        .filter(|v| v.hidden)
        .map(|v| v.value.clone());
    let own = if owner_reads {
        Vec::new()
    } else {
        runner.store().hidden_values(&stored.task.id).await?
    };
    let hidden: Vec<String> = own.into_iter().map(|h| h.value).chain(persistent).collect();
    let mask = LogMask::new(hidden.iter().cloned());
    let tail = params
        .tail_bytes
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    if params.follow
        && let Some(max) = tail
        && let Some((left_out, stream)) = followed_end(
            &runner,
            &stored.task.id,
            attempt,
            params.replica,
            &hidden,
            max,
        )
        .await
    {
        return Ok(streamed_log(stream, true, true, mask, None, left_out).await);
    }
    // Kubernetes streams pod logs; the local backend answers `None` and keeps files.
    let streamed = runner
        .backend()
        .log_stream(&stored.task.id, attempt, params.replica, params.follow)
        .await
        .unwrap_or_else(|error| {
            tracing::warn!(task = %stored.task.id, %error, "cannot read a replica's log");
            // An attempt no longer watched: as a missing log file, nothing to show (its
            // pods are gone). The cluster failing to answer: a log that broke off at its
            // start, not an empty one.
            let broken = matches!(error, crate::backend::BackendError::Kube { .. });
            let start = futures_util::stream::iter(
                broken.then(|| Err(std::io::Error::other("the pod's log cannot be read"))),
            );
            Some(futures_util::StreamExt::boxed(start))
        });
    // Read before the end of a log still being written, what may begin a hidden value
    // is left out (`LogMask::cut`).
    let complete = attempt_ended(&stored.task, attempt);
    if let Some(stream) = streamed {
        let tail = tail.filter(|_| !params.follow);
        return Ok(streamed_log(
            stream,
            params.follow || complete,
            params.follow,
            mask,
            tail,
            0,
        )
        .await);
    }
    let path = runner
        .backend()
        .log_path(&stored.task.id, attempt, params.replica);
    // Several servers on one database: the attempt's folder is made by the server that
    // starts it, on its machine. Without it here, an empty log would pass for a replica
    // that printed nothing; but the leader starting the latest attempt makes it soon.
    let starting_here = runner.leading()
        && attempt == stored.task.attempts
        && stored.task.phase == TaskPhase::Scheduling;
    if runner.store().replicated()
        && !starting_here
        && path.parent().is_some_and(|dir| !dir.exists())
    {
        return Err(ApiError::LogElsewhere { id, attempt });
    }
    if !params.follow {
        return match tail {
            Some(max) => file_tail(&path, mask, complete, max).await,
            None => Ok(plain_text(file_text(path, mask, complete))),
        };
    }
    let task = stored.task.id.clone();
    let stream = async_stream(runner, task, attempt, path, mask, tail);
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// A piece of a followed log as a server-sent event. A line's `\r\n` is sent as `\n`:
/// each of its two bytes ends a `data:` line, and the reader's browser joined them with
/// an empty line between, which the log read whole does not have.
fn log_event(text: &str) -> Event {
    if text.contains("\r\n") {
        Event::default().data(text.replace("\r\n", "\n"))
    } else {
        Event::default().data(text)
    }
}

/// A followed log's text as server-sent events. An event's data is cut into lines at
/// each `\r`, `\n` or `\r\n` on the wire, so a `\r\n` that falls across two chunks
/// would reach the reader as two line ends (a blank line after it): a chunk's last `\r`
/// waits for the next chunk, or for the end.
///
/// A bare `\r` at a line's start (a progress bar's redraw after a line's end, or after
/// nothing but terminal codes since, `\x1b[0m\r`) is left out: the wire makes it a line
/// end, a blank line the log read whole does not have, where the console shows such a
/// `\r` as nothing (ops explorer: "done" then a blank line, live only). One within a line
/// stays, as the line end the console makes of it. A terminal code a chunk ends in the
/// middle of waits for the next, as the console reads it ([`shared::terminal`]).
#[derive(Default)]
struct LogEvents {
    /// What the last chunk ended with that the next one says how to read: a `\r`, or a
    /// code begun.
    held: String,
    /// Something other than a terminal code was sent since the last line's end (a follow
    /// starts at a line's start).
    mid_line: bool,
}

impl LogEvents {
    /// The event of the next chunk, if it has anything to send yet.
    fn next(&mut self, chunk: &str) -> Option<Event> {
        let text = if self.held.is_empty() {
            self.redraws_left_out(chunk)
        } else {
            let mut joined = std::mem::take(&mut self.held);
            joined.push_str(chunk);
            self.redraws_left_out(&joined)
        };
        (!text.is_empty()).then(|| log_event(&text))
    }

    /// `text` without a bare `\r` at a line's start, less what it ends with that waits.
    /// Read piece by piece whatever it holds: a control byte at a chunk's end (a bell) is
    /// no text to the console, so the line has not begun (review).
    fn redraws_left_out(&mut self, text: &str) -> String {
        use shared::terminal::Piece;
        let mut out = String::with_capacity(text.len());
        for piece in shared::terminal::pieces(text) {
            match piece {
                // An escape alone is nothing to the console, but sent, it would begin a
                // code with what follows once a `\r` between is left out (review).
                Piece::Code("\u{1b}") => {}
                Piece::Code(code) => out.push_str(code),
                Piece::Unended(rest) => self.held = rest.to_owned(),
                Piece::CrBeforeLf => out.push('\r'),
                Piece::Cr if !self.mid_line => {}
                Piece::Cr => {
                    out.push('\r');
                    self.mid_line = false;
                }
                Piece::Char('\n') => {
                    out.push('\n');
                    self.mid_line = false;
                }
                // Shown as nothing by the console, as terminal codes are.
                Piece::Char(c) if c.is_control() && c != '\t' => out.push(c),
                Piece::Char(c) => {
                    out.push(c);
                    self.mid_line = true;
                }
            }
        }
        out
    }

    /// What is still held, once nothing follows it: a `\r` that ends a line, or a code
    /// the log ended in the middle of.
    fn finish(&mut self) -> Option<Event> {
        let held = std::mem::take(&mut self.held);
        match held.as_str() {
            "" => None,
            "\r" => self.mid_line.then(|| log_event("\r")),
            _ => Some(log_event(&held)),
        }
    }
}

/// The header of a log's end (`tail_bytes`) that says how many bytes of the log (as the
/// reader reads it, masked) came before it and were left out.
pub const LOG_LEFT_OUT: &str = "berth-log-left-out";

/// The server-sent event of a followed log's end (`tail_bytes`) that says, before it,
/// how many bytes were left out.
const LEFT_OUT_EVENT: &str = "left_out";

/// A log's end as the answer: its text, and [`LOG_LEFT_OUT`].
fn tail_answer(left_out: u64, text: String) -> Response {
    let mut answer = plain_text(text);
    answer.headers_mut().insert(
        axum::http::HeaderName::from_static(LOG_LEFT_OUT),
        axum::http::HeaderValue::from(left_out),
    );
    answer
}

/// The end of a log file, at most `max` bytes from a line's start ([`LogTail`]). Cut
/// from the masked text: with values to mask, the file is read through from its start
/// (a value is masked only when read whole), and only its end is kept; with none, the
/// read starts near the end. `complete`: as [`file_text`]'s.
async fn file_tail(
    path: &std::path::Path,
    mask: LogMask,
    complete: bool,
    max: usize,
) -> Result<Response, ApiError> {
    use tokio::io::AsyncSeekExt;
    let cannot = |error: std::io::Error| {
        ApiError::Internal(format!(
            "cannot read the replica's log {}: {}",
            path.display(),
            crate::error_chain(&error)
        ))
    };
    let mut file = match tokio::fs::File::open(path).await {
        Ok(file) => file,
        // Not written yet: the replica has not started, an empty log.
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(tail_answer(0, String::new()));
        }
        Err(error) => return Err(cannot(error)),
    };
    // Nothing to mask: the read starts a few bytes before the end's, so that the tail
    // sees whether its first byte starts a line, after the rest of a character the seek
    // cut (left out, not shown as U+FFFD).
    let mut skipped = 0;
    let len = file.metadata().await.map_err(cannot)?.len();
    let max_bytes = u64::try_from(max).unwrap_or(u64::MAX);
    let mut sought = mask.is_empty() && len > max_bytes.saturating_add(4);
    if sought {
        skipped = len - max_bytes - 4;
        file.seek(std::io::SeekFrom::Start(skipped))
            .await
            .map_err(cannot)?;
    }
    let mut tail = LogTail::new(max, !mask.is_empty());
    let mut text = LogText::new(mask);
    loop {
        let mut piece = read_piece(&mut file).await.map_err(cannot)?;
        if piece.is_empty() {
            break;
        }
        if std::mem::take(&mut sought) {
            let rest_of_char = piece
                .iter()
                .take(3)
                .take_while(|b| **b & 0xC0 == 0x80)
                .count();
            piece.drain(..rest_of_char);
            skipped += rest_of_char as u64;
        }
        tail.push(&text.push(&piece));
    }
    if complete {
        tail.push(&text.finish());
    } else {
        text.cut();
    }
    let (left_out, end) = tail.finish();
    Ok(tail_answer(skipped + left_out, end))
}

/// A log read whole, as the answer's text.
fn plain_text(text: impl IntoResponse) -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

/// Whether `attempt` of `task` has ended (its log is complete): a later one began, the
/// task ended, or it went back to the queue.
fn attempt_ended(task: &shared::record::Task, attempt: u32) -> bool {
    task.attempts != attempt
        || task.phase.is_finished()
        || matches!(task.phase, TaskPhase::Retrying | TaskPhase::Queued)
}

/// A log file read to its end as the answer's body, a piece at a time: read whole first,
/// a log of hundreds of megabytes took the server's memory and seconds before its first
/// byte. A file not there (the replica has not started) is an empty log. `complete`: the
/// replica has ended, so the file's end is the log's.
fn file_text(path: std::path::PathBuf, mask: LogMask, complete: bool) -> axum::body::Body {
    struct Reading {
        file: Option<tokio::fs::File>,
        text: LogText,
        done: bool,
    }
    let start = Reading {
        file: None,
        text: LogText::new(mask),
        done: false,
    };
    let pieces =
        futures_util::stream::unfold((start, Some(path)), move |(mut reading, path)| async move {
            if reading.done {
                return None;
            }
            if let Some(path) = &path {
                match tokio::fs::File::open(path).await {
                    Ok(file) => reading.file = Some(file),
                    // Not written yet: the replica has not started, an empty log.
                    Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                    Err(error) => {
                        tracing::warn!(%error, "cannot open a replica's log");
                        reading.done = true;
                        return Some((Err(error), (reading, None)));
                    }
                }
            }
            let read = match reading.file.as_mut() {
                Some(file) => match read_piece(file).await {
                    Ok(bytes) => bytes,
                    // Cut short, the answer fails rather than passing for the whole log.
                    Err(error) => {
                        tracing::warn!(%error, "cannot read a replica's log");
                        reading.done = true;
                        return Some((Err(error), (reading, None)));
                    }
                },
                None => Vec::new(),
            };
            let piece = if read.is_empty() {
                reading.done = true;
                if complete {
                    reading.text.finish()
                } else {
                    reading.text.cut();
                    String::new()
                }
            } else {
                reading.text.push(&read)
            };
            Some((Ok(piece), (reading, None)))
        });
    axum::body::Body::from_stream(pieces)
}

/// How much of a log file one read takes.
const LOG_PIECE: usize = 256 * 1024;

/// The next piece of an open log file, at most [`LOG_PIECE`] bytes; empty at its end.
async fn read_piece(file: &mut tokio::fs::File) -> std::io::Result<Vec<u8>> {
    use tokio::io::AsyncReadExt;
    let mut piece = Vec::new();
    file.take(LOG_PIECE as u64).read_to_end(&mut piece).await?;
    Ok(piece)
}

/// The longest piece of a line a kubelet keeps in a container's log file (the CRI's and
/// docker's 16 KiB); a longer line is several pieces, each a line to `tailLines`.
const KUBELET_LOG_PIECE: usize = 16 * 1024;

/// A streamed log's end, followed: read once to its end to find where its last `max`
/// bytes (masked, as [`LogTail`] cuts them) begin, then followed from as many lines from
/// its end, as Kubernetes starts a followed log at a count of lines, not of bytes. With
/// how many bytes were left out before that end, as the plain read counted them (lines
/// written between the two reads move the start on by as many lines).
///
/// `None`, to follow the log whole: the backend writes log files (read from any byte)
/// or cannot start a followed log at a line; its plain read broke off; a line of it is
/// long enough for the kubelet to keep it in pieces while there are values to mask
/// ([`KUBELET_LOG_PIECE`]); nothing was left
/// out (its whole start is its end, and a count of lines taken from a log still empty
/// would miss what is written before the follow begins); or a hidden value spans
/// lines, since a log followed from within one would show its short lines, which only
/// the whole value's mask hides.
async fn followed_end(
    runner: &Runner,
    task: &TaskId,
    attempt: u32,
    replica: u32,
    hidden: &[String],
    max: usize,
) -> Option<(u64, crate::backend::LogStream)> {
    use futures_util::StreamExt;
    if hidden.iter().any(|v| v.contains(['\n', '\r'])) {
        return None;
    }
    let mut plain = runner
        .backend()
        .log_stream(task, attempt, replica, false)
        .await
        .ok()??;
    let mask = LogMask::new(hidden.iter().cloned());
    let mut kept = LogTail::new(max, !mask.is_empty());
    let mut text = LogText::new(mask);
    // The longest line written, in file bytes: the kubelet stores a line longer than
    // 16 KiB as pieces and counts each as a line, so a follow counted in lines could
    // start within one, and within a hidden value there, whose rest no mask would know.
    let (mut longest, mut line) = (0usize, 0usize);
    while let Some(chunk) = plain.next().await {
        let chunk = chunk.ok()?;
        for piece in chunk.split_inclusive(|b| *b == b'\n') {
            line += piece.len();
            longest = longest.max(line);
            if piece.ends_with(b"\n") {
                line = 0;
            }
        }
        kept.push(&text.push(&chunk));
    }
    kept.push(&text.finish());
    let (left_out, end) = kept.finish();
    let masked = hidden.iter().any(|v| !v.is_empty());
    if left_out == 0 || (masked && longest >= KUBELET_LOG_PIECE) {
        return None;
    }
    // Its last line counts, ended or not; one begun at a lone `\r` is part of the line
    // Kubernetes counts from the `\n` before it.
    let lines = end.matches('\n').count() + usize::from(!end.is_empty() && !end.ends_with('\n'));
    let stream = runner
        .backend()
        .log_stream_from_end(task, attempt, replica, lines as u64)
        .await
        .ok()??;
    Some((left_out, stream))
}

/// A log a backend streams: all of it as text, or with `follow` as server-sent events
/// (one per chunk, then `end` when the stream ends with the replica). `complete`: the
/// stream's end is the log's (followed, or the replica has ended).
async fn streamed_log(
    stream: crate::backend::LogStream,
    complete: bool,
    follow: bool,
    mask: LogMask,
    end_only: Option<usize>,
    left_out: u64,
) -> Response {
    use futures_util::StreamExt;
    use std::sync::atomic::{AtomicBool, Ordering};
    // A read error ends the log: what came before it is still worth showing, but not as
    // the whole log (below).
    let broke = Arc::new(AtomicBool::new(false));
    let breaking = Arc::clone(&broke);
    let chunks = stream.take_while(move |chunk| {
        if chunk.is_err() {
            breaking.store(true, Ordering::SeqCst);
        }
        std::future::ready(chunk.is_ok())
    });
    let chunks = chunks.filter_map(|chunk| std::future::ready(chunk.ok()));
    let masked_any = !mask.is_empty();
    // Masked a piece at a time, the held tail after the last: a pod's log may be hundreds
    // of megabytes.
    let text = Arc::new(std::sync::Mutex::new(LogText::new(mask)));
    let tail = Arc::clone(&text);
    let ended = Arc::clone(&broke);
    let masked = chunks
        .map(move |chunk| lock(&text).push(&chunk))
        .chain(futures_util::stream::once(async move {
            let mut tail = lock(&tail);
            // Cut short, its last line may be the start of a hidden value.
            if complete && !ended.load(Ordering::SeqCst) {
                tail.finish()
            } else {
                tail.cut();
                String::new()
            }
        }))
        .filter(|text| std::future::ready(!text.is_empty()));
    // After the log, what tells a reader whether it is whole: a plain read's body fails
    // (the connection is cut, not ended), a followed log's `end` event is left out (the
    // page says the log broke off, as for a local log that cannot be read).
    let whole = move || !broke.load(Ordering::SeqCst);
    if let Some(max) = end_only {
        // Read to its end here, only the end kept: what the answer's header says is known
        // before its body.
        let mut kept = LogTail::new(max, masked_any);
        let mut masked = std::pin::pin!(masked);
        while let Some(text) = masked.next().await {
            kept.push(&text);
        }
        let (left_out, end) = kept.finish();
        if whole() {
            return tail_answer(left_out, end);
        }
        let pieces = futures_util::stream::iter([
            Ok(end),
            Err(std::io::Error::other("the pod's log broke off")),
        ]);
        let mut answer = tail_answer(left_out, String::new());
        *answer.body_mut() = axum::body::Body::from_stream(pieces);
        return answer;
    }
    if !follow {
        let pieces = masked.map(Ok::<_, std::io::Error>).chain(
            futures_util::stream::once(async move {
                Err(std::io::Error::other("the pod's log broke off"))
            })
            .filter(move |_| std::future::ready(!whole())),
        );
        return plain_text(axum::body::Body::from_stream(pieces));
    }
    // A chunk's last `\r` waits for the next chunk ([`LogEvents`]).
    let held = Arc::new(std::sync::Mutex::new(LogEvents::default()));
    let last = Arc::clone(&held);
    let said = (left_out > 0).then(|| {
        Event::default()
            .event(LEFT_OUT_EVENT)
            .data(left_out.to_string())
    });
    let events = futures_util::stream::iter(said)
        .chain(masked.filter_map(move |text| {
            let event = held.lock().unwrap_or_else(|e| e.into_inner()).next(&text);
            std::future::ready(event)
        }))
        .chain(futures_util::stream::iter(std::iter::from_fn(move || {
            last.lock().unwrap_or_else(|e| e.into_inner()).finish()
        })))
        .map(Ok::<_, std::convert::Infallible>)
        .chain(
            futures_util::stream::once(std::future::ready(Ok(Event::default()
                .event("end")
                .data("ended"))))
            .filter(move |_| std::future::ready(whole())),
        );
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// Polls the log file and sends what was appended, until the attempt has ended and the
/// file has been read to its end, or the reader has gone.
fn async_stream(
    runner: Arc<Runner>,
    task: TaskId,
    attempt: u32,
    path: std::path::PathBuf,
    mask: LogMask,
    tail: Option<usize>,
) -> impl futures_core::Stream<Item = Result<Event, std::convert::Infallible>> {
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(16);
    let masked = !mask.is_empty();
    let mut log = LogText::new(mask);
    let mut events = LogEvents::default();
    tokio::spawn(async move {
        // Opened once it exists, then read from where the last read stopped: the whole
        // file read again at every poll cost a long log's size per poll.
        // A piece at a time, so a long log already written is neither held whole nor
        // sent as one event.
        let mut file = None::<tokio::fs::File>;
        // A read that fails ends the stream without its `end` event, so the reader is
        // told the log broke off rather than shown it as whole.
        let read_on = async |file: &mut Option<tokio::fs::File>| -> std::io::Result<Vec<u8>> {
            if file.is_none() {
                *file = tokio::fs::File::open(&path).await.ok();
            }
            match file {
                Some(open) => read_piece(open).await,
                None => Ok(Vec::new()),
            }
        };
        // Asked for its end only: what is written so far is read through (masked, as a
        // value is masked only when read whole) and its end sent as one chunk, after an
        // event that says how much was left out; what follows is sent as it comes.
        if let Some(max) = tail {
            let mut kept = LogTail::new(max, masked);
            loop {
                if tx.is_closed() {
                    return;
                }
                let Ok(appended) = read_on(&mut file).await else {
                    return;
                };
                kept.push(&log.push(&appended));
                if appended.len() < LOG_PIECE {
                    break;
                }
            }
            let (left_out, end) = kept.finish();
            if left_out > 0 {
                let said = Event::default()
                    .event(LEFT_OUT_EVENT)
                    .data(left_out.to_string());
                if tx.send(said).await.is_err() {
                    return;
                }
            }
            if let Some(event) = events.next(&end)
                && tx.send(event).await.is_err()
            {
                return;
            }
        }
        loop {
            // A reader that has gone is noticed here, not only at the next send: a
            // quiet log would otherwise be polled until the attempt ends.
            if tx.is_closed() {
                return;
            }
            let Ok(appended) = read_on(&mut file).await else {
                return;
            };
            if !appended.is_empty() {
                let chunk = log.push(&appended);
                if let Some(event) = events.next(&chunk)
                    && tx.send(event).await.is_err()
                {
                    return;
                }
                // More may be written already: read on before looking at the task.
                if appended.len() == LOG_PIECE {
                    continue;
                }
            }
            let ended = match runner.store().get(&task).await {
                Ok(stored) => attempt_ended(&stored.task, attempt),
                Err(_) => true,
            };
            if ended {
                // The rest: the replica may have written before it ended.
                loop {
                    let Ok(appended) = read_on(&mut file).await else {
                        return;
                    };
                    let mut chunk = log.push(&appended);
                    if appended.is_empty() {
                        chunk.push_str(&log.finish());
                    }
                    if let Some(event) = events.next(&chunk)
                        && tx.send(event).await.is_err()
                    {
                        return;
                    }
                    if appended.is_empty() {
                        if let Some(event) = events.finish()
                            && tx.send(event).await.is_err()
                        {
                            return;
                        }
                        break;
                    }
                }
                let _ = tx.send(Event::default().event("end").data("ended")).await;
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    });
    tokio_stream_from(rx)
}

/// The log's text, even if a holder panicked (it holds bytes, not an invariant).
fn lock(text: &std::sync::Mutex<LogText>) -> std::sync::MutexGuard<'_, LogText> {
    text.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn tokio_stream_from(
    mut rx: tokio::sync::mpsc::Receiver<Event>,
) -> impl futures_core::Stream<Item = Result<Event, std::convert::Infallible>> {
    futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx).map(|e| e.map(Ok)))
}

#[cfg(test)]
mod tests {
    use super::{ListedPhase, LogMask, file_tail};
    use shared::TaskPhase;

    /// The replica whose end failed the attempt is named while its retry waits, for its
    /// backoff and then in the queue; not once the retry runs, nor before any failure.
    #[test]
    fn the_failed_replica_is_named_until_the_retry_runs() {
        use shared::messages::Message;
        use shared::record::{PhaseChange, Timestamp};
        let step = |phase, keyed: Option<Message>| PhaseChange {
            phase,
            at: Timestamp(0),
            reason: String::new(),
            keyed,
        };
        let ended = Message::new("event.replica_ended").with("replica", 1);
        let failure = Message::new("event.failed").with_message("reason", ended);
        let mut history = vec![
            step(TaskPhase::Queued, None),
            step(TaskPhase::Scheduling, None),
            step(TaskPhase::Running, None),
        ];
        assert_eq!(super::failed_replica(&history), None);
        history.push(step(TaskPhase::Retrying, Some(failure.clone())));
        assert_eq!(super::failed_replica(&history), Some(1));
        history.push(step(TaskPhase::Queued, None));
        assert_eq!(super::failed_replica(&history), Some(1), "queued for room");
        history.push(step(TaskPhase::Scheduling, None));
        assert_eq!(super::failed_replica(&history), Some(1));
        history.push(step(TaskPhase::Running, None));
        assert_eq!(super::failed_replica(&history), None, "the retry runs");
        history.push(step(TaskPhase::Failed, Some(failure)));
        assert_eq!(super::failed_replica(&history), Some(1));
    }

    /// Each attempt a replica's end failed is told with that replica, the earlier ones
    /// too: an attempt's log read after the task moved on marks the replica to read
    /// (hung-job explorer); a start that failed names none, and a restart's requeue from
    /// running begins no attempt.
    #[test]
    fn each_attempt_a_replica_failed_is_told() {
        use shared::api::AttemptFailure;
        use shared::messages::Message;
        use shared::record::{PhaseChange, Timestamp};
        let step = |phase, keyed: Option<Message>| PhaseChange {
            phase,
            at: Timestamp(0),
            reason: String::new(),
            keyed,
        };
        let ended = |replica: u32| {
            let ended = Message::new("event.replica_ended").with("replica", replica);
            Message::new("event.retrying").with_message("reason", ended)
        };
        let history = vec![
            step(TaskPhase::Queued, None),
            step(TaskPhase::Scheduling, None),
            step(TaskPhase::Running, None),
            step(TaskPhase::Retrying, Some(ended(1))),
            step(TaskPhase::Queued, None),
            // Attempt 2 could not start.
            step(TaskPhase::Scheduling, None),
            step(
                TaskPhase::Retrying,
                Some(Message::new("event.start_failed")),
            ),
            step(TaskPhase::Queued, None),
            step(TaskPhase::Scheduling, None),
            step(TaskPhase::Running, None),
            // Re-admitted: the same attempt.
            step(TaskPhase::Scheduling, None),
            step(TaskPhase::Running, None),
            step(TaskPhase::Failed, Some(ended(2))),
        ];
        assert_eq!(
            super::attempt_failures(&history),
            [
                AttemptFailure {
                    attempt: 1,
                    replica: 1
                },
                AttemptFailure {
                    attempt: 3,
                    replica: 2
                },
            ]
        );
    }

    /// A task held back for one passed over too often is given that task, to link it;
    /// no other reason names a task to go to.
    #[test]
    fn the_task_a_waiting_task_waits_behind_is_given() {
        use shared::messages::Message;
        let named = Message::new("queue.passed_over#named").with("task", "big-abcde");
        assert_eq!(
            super::waits_behind(&named),
            Some(shared::TaskId("big-abcde".to_owned()))
        );
        let other = Message::new("queue.capacity_changed").with("task", "big-abcde");
        assert_eq!(super::waits_behind(&other), None);
    }

    /// A task waited behind that the reader may not see is left unnamed wherever a
    /// message names it, inside an event's reason too; another message, or a task they
    /// may see, is left as it is.
    #[test]
    fn a_task_waited_behind_is_unnamed_where_it_is_hidden() {
        use shared::messages::Message;
        let behind = |id: &str| Message::new("queue.passed_over#named").with("task", id);
        let event = Message::new("event.queued").with_message("reason", behind("secret-aaaaa"));
        let mut named = Vec::new();
        super::named_behind(&event, &mut named);
        assert_eq!(named, [shared::TaskId("secret-aaaaa".to_owned())]);
        let hidden = [shared::TaskId("secret-aaaaa".to_owned())];
        assert_eq!(
            super::unnamed(&event, &hidden),
            Message::new("event.queued").with_message("reason", Message::new("queue.passed_over"))
        );
        assert_eq!(
            super::unnamed(&behind("open-bbbbb"), &hidden),
            behind("open-bbbbb")
        );
        let other = Message::new("event.queued").with("task", "secret-aaaaa");
        assert_eq!(super::unnamed(&other, &hidden), other);
    }

    /// What is stored keeps the replica's number, which the runner and `failed_replica`
    /// read, also within "after N attempts; the last: …" (the words a reader gets are
    /// `shared::api::as_read`'s, tested beside it).
    #[test]
    fn the_replica_an_end_names_is_read_back_from_its_stored_reason() {
        use shared::messages::Message;
        let ended = Message::new("event.replica_ended")
            .with("replica", 2)
            .with_message("how", Message::new("event.how.code").with("code", 3));
        let last = Message::new("event.failed#after_retries")
            .with("attempts", 2)
            .with_message("reason", ended);
        assert_eq!(super::ended_replica(&last), Some(2));
    }

    /// A log file's end read from near it (nothing to mask) is the end read through from
    /// its start (with a value to mask that the log does not hold): the same text, at a
    /// line's start, and the same count left out, whatever the seek cuts.
    #[tokio::test]
    async fn a_files_end_read_from_near_it_is_the_end_read_through() {
        use http_body_util::BodyExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("0.log");
        let mut log = String::new();
        for n in 0..3000_usize {
            log.push_str(&"é中".repeat(n % 5));
            log.push_str(&n.to_string());
            log.push('\n');
        }
        log.push_str(&"中".repeat(40));
        std::fs::write(&path, &log).expect("written");
        let end = async |mask: LogMask, max: usize| {
            let answer = file_tail(&path, mask, true, max).await.expect("reads");
            let left_out: u64 = answer.headers()[super::LOG_LEFT_OUT]
                .to_str()
                .expect("text")
                .parse()
                .expect("a number");
            let body = answer
                .into_body()
                .collect()
                .await
                .expect("a body")
                .to_bytes();
            (left_out, String::from_utf8(body.to_vec()).expect("UTF-8"))
        };
        let mut sizes: Vec<usize> = (0..200).collect();
        sizes.extend([1000, 4096, 70_000, log.len() - 1, log.len(), log.len() + 9]);
        for max in sizes {
            let near = end(LogMask::default(), max).await;
            let through = end(LogMask::new(["not-in-the-log"]), max).await;
            assert_eq!(near, through, "{max}");
            assert_eq!(near.0 as usize + near.1.len(), log.len(), "{max}");
            assert!(log.ends_with(&near.1), "{max}");
        }
    }

    #[test]
    fn every_phase_but_deleted_can_be_listed() {
        // No wildcard: a phase added to `TaskPhase` stops this from compiling until it is
        // listed or refused.
        let listed = |phase: TaskPhase| match phase {
            TaskPhase::Queued => Some(ListedPhase::Queued),
            TaskPhase::Scheduling => Some(ListedPhase::Scheduling),
            TaskPhase::Running => Some(ListedPhase::Running),
            TaskPhase::Retrying => Some(ListedPhase::Retrying),
            TaskPhase::Succeeded => Some(ListedPhase::Succeeded),
            TaskPhase::Failed => Some(ListedPhase::Failed),
            TaskPhase::Stopped => Some(ListedPhase::Stopped),
            TaskPhase::Deleted => None,
        };
        for phase in [
            ListedPhase::Queued,
            ListedPhase::Scheduling,
            ListedPhase::Running,
            ListedPhase::Retrying,
            ListedPhase::Succeeded,
            ListedPhase::Failed,
            ListedPhase::Stopped,
        ] {
            assert_eq!(phase.phase().and_then(listed), Some(phase));
        }
        assert_eq!(ListedPhase::Active.phase(), None);
    }

    /// Brief (exploratory test): with the targets `https://hooks.example.com` and
    /// `https://hooks.example.com:8443/SEKRIT3`, a group member read
    /// `https://hooks.example.com/******:8443/******`: the shorter target was masked
    /// again inside the longer's masked form. Each target is masked whole, wherever the
    /// two meet in a message.
    #[test]
    fn a_webhook_target_that_begins_another_is_masked_whole_beside_it() {
        use shared::task::{Alert, AlertChannel, AlertEvent};
        let hook = |target: &str| Alert {
            event: AlertEvent::Failed,
            threshold: None,
            channel: AlertChannel::Webhook,
            target: target.to_owned(),
        };
        let spec = shared::demo::pytorch().with(|s| {
            s.advanced.alerts = vec![
                hook("https://hooks.example.com"),
                hook("https://hooks.example.com:8443/SEKRIT3"),
            ];
        });
        let hooks = super::webhooks_shown(&spec);
        for (text, shown) in [
            (
                "webhook https://hooks.example.com:8443/SEKRIT3 answered 500",
                "webhook https://hooks.example.com:8443/****** answered 500",
            ),
            (
                "webhook https://hooks.example.com answered 500",
                "webhook https://hooks.example.com/****** answered 500",
            ),
            (
                "https://hooks.example.com:8443/SEKRIT3https://hooks.example.com, é",
                "https://hooks.example.com:8443/******https://hooks.example.com/******, é",
            ),
            ("no target here", "no target here"),
        ] {
            assert_eq!(super::masked_hooks(text, &hooks), shown, "{text}");
        }
    }
}
