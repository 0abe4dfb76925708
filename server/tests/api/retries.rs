//! Fault tolerance's retries wait before they start (README, Running tasks): a command
//! that fails at once does not spend all its retries within seconds. The next attempt
//! starts no sooner than `[retries] backoff_seconds` after the failure, twice that after
//! the next failure, and so on; meanwhile the task is `retrying` with its quota held and
//! its nodes free, and a stop ends it at once.

use super::pytorch;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use std::time::Duration;

fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).expect("a request")
}

fn post(path: &str, body: &Value) -> Request<Body> {
    Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("a request")
}

/// The demo app whose retries wait `base` seconds, doubling (up to the default cap).
async fn app_backing_off(base: u64) -> Router {
    let state = super::demo_state_with(|config| {
        config.retry_backoff = server::runner::Backoff {
            base: Duration::from_secs(base),
            cap: Duration::from_secs(300),
        };
    })
    .await;
    server::app(state)
}

/// A gang whose every attempt fails at once, retried up to `retries` times.
fn failing(retries: u32) -> Value {
    // Replica 1 fails first, every time (replica 0 ends well, or stopped after it).
    let mut spec = pytorch("if [ \"$RANK\" = 1 ]; then exit 3; fi; sleep 0.2");
    spec["advanced"]["fault_tolerance"] = json!({ "enabled": true, "max_retries": retries });
    spec["advanced"]["alerts"] = json!([]);
    spec
}

async fn task(app: &Router, id: &str, lang: &str) -> Value {
    let (status, task) = super::answer(app, get(&format!("/api/v1/tasks/{id}?lang={lang}"))).await;
    assert_eq!(status, StatusCode::OK, "{task}");
    task
}

async fn events(app: &Router, id: &str, lang: &str) -> Vec<Value> {
    let path = format!("/api/v1/tasks/{id}/events?lang={lang}");
    let (status, events) = super::answer(app, get(&path)).await;
    assert_eq!(status, StatusCode::OK, "{events}");
    events.as_array().expect("events").clone()
}

async fn wait_for(app: &Router, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..600 {
        let task = task(app, id, "en").await;
        if done(&task) {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("task {id} did not get there in 30 s")
}

/// GPUs the quota lines have in use, and GPUs allocated on nodes, over the catalog.
async fn gpus_in_use(app: &Router) -> (u64, u64) {
    let (_, catalog) = super::answer(app, get("/api/v1/catalog")).await;
    let quota = catalog["usage"]["quota"]
        .as_array()
        .expect("quota lines")
        .iter()
        .map(|q| q["used"]["gpu"].as_u64().expect("a number"))
        .sum();
    let nodes = catalog["usage"]["nodes"]
        .as_object()
        .expect("node allocations")
        .values()
        .map(|n| n["gpu"].as_u64().expect("a number"))
        .sum();
    (quota, nodes)
}

/// The messages of the events of `kind`, oldest first.
fn said<'a>(events: &'a [Value], kind: &str) -> Vec<&'a str> {
    events
        .iter()
        .filter(|e| e["kind"] == kind)
        .map(|e| e["message"].as_str().expect("a message"))
        .collect()
}

/// The times of the events of `kind`, oldest first.
fn times(events: &[Value], kind: &str) -> Vec<i64> {
    super::event_times(&Value::from(events.to_vec()), kind)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_retry_waits_the_backoff_after_its_failure_doubling_per_retry() {
    // Lower bounds only: a loaded machine makes every step later, never earlier.
    let app = app_backing_off(1).await;
    let before = gpus_in_use(&app).await;
    let id = super::submit(&app, &failing(2)).await;

    let done = wait_for(&app, &id, |t| t["phase"] == "failed").await;
    assert_eq!(done["attempts"], 3, "{done}");
    assert_eq!(gpus_in_use(&app).await, before, "everything given back");
    let events = events(&app, &id, "en").await;
    let failures = times(&events, "retrying");
    let admissions = times(&events, "admitted");
    assert_eq!((failures.len(), admissions.len()), (2, 3), "{events:?}");
    // Retry n starts no sooner than 1 s × 2^(n-1) after attempt n failed.
    assert!(admissions[1] - failures[0] >= 1000, "{events:?}");
    assert!(admissions[2] - failures[1] >= 2000, "{events:?}");
    let said = said(&events, "retrying");
    assert_eq!(
        said,
        [
            "attempt 1 failed (replica 1 (worker 0) ended with exit code 3); retry 1 of 2 starts 1 s after it at the earliest",
            "attempt 2 failed (replica 1 (worker 0) ended with exit code 3); retry 2 of 2 starts 2 s after it at the earliest",
        ]
    );
    let zh = events_zh(&app, &id).await;
    assert!(
        zh.contains(
            "第 1 次运行失败（副本 1（工作节点 0）已结束，退出码 3），最早 1 秒后开始第 1 次重试，最多 2 次"
        ),
        "{zh}"
    );
}

async fn events_zh(app: &Router, id: &str) -> String {
    events(app, id, "zh-CN")
        .await
        .iter()
        .map(|e| e["message"].as_str().unwrap_or_default().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_while_a_retry_waits_ends_the_task_at_once_and_nothing_starts_later() {
    // Long enough for the looks and the stop below to come within the wait on a loaded
    // machine.
    let app = app_backing_off(6).await;
    let before = gpus_in_use(&app).await;
    let id = super::submit(&app, &failing(3)).await;

    // While the first retry waits: retrying, its nodes given back and its quota held
    // (the example's 2 replicas of 2 A100s), and its page says until when. The step is
    // written a moment before the nodes are given back: waited for together.
    let waiting = wait_for(&app, &id, |t| {
        t["phase"] == "retrying" && t["placement"].is_null() && t["reason"].is_string()
    })
    .await;
    assert_eq!(gpus_in_use(&app).await, (before.0 + 4, before.1));
    let reason = waiting["reason"].as_str().expect("a reason while it waits");
    // The log to read first while it waits: the replica whose end failed the attempt
    // (its page opened on the master's, which was only stopped: explorer).
    assert_eq!(waiting["failed_replica"], 1, "{waiting}");
    // Its retry is used while it waits.
    assert_eq!(waiting["retries_used"], 1, "{waiting}");
    // Until the failure's time and its 6 s (README, Running tasks): in `retry_at`, for
    // a reader to say in its own zone, and in the reason, in UTC with the date.
    let failed = times(&events(&app, &id, "en").await, "retrying");
    assert_eq!(failed.len(), 1, "{waiting}");
    let due = waiting["retry_at"].as_i64().expect("the time it may start");
    assert_eq!(due, failed[0] + 6000, "{waiting}");
    let utc = k8s_openapi::jiff::Timestamp::from_millisecond(due)
        .expect("a time")
        .strftime("%Y-%m-%d %H:%M:%S");
    assert_eq!(
        reason,
        format!("waiting before its retry: the next attempt starts at {utc} UTC at the earliest")
    );
    let zh = task(&app, &id, "zh-CN").await;
    assert!(
        zh["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("重试前等待中：下次运行最早于 ")),
        "{zh}"
    );

    let path = format!("/api/v1/tasks/{id}/stop");
    let (status, stopped) = super::answer(&app, post(&path, &json!({}))).await;
    assert_eq!(status, StatusCode::OK, "{stopped}");
    assert_eq!(stopped["phase"], "stopped", "at once: {stopped}");
    assert!(
        stopped.get("retry_at").is_none(),
        "it waits no more: {stopped}"
    );
    // The retry it asked for never ran: not used, and said so at its `retrying` event.
    assert!(stopped.get("retries_used").is_none(), "{stopped}");
    assert_eq!(stopped["last_never_ran"], true, "{stopped}");
    assert_eq!(gpus_in_use(&app).await, before, "its hold given back");

    // Past the time the retry would have started.
    tokio::time::sleep(Duration::from_secs(7)).await;
    let after = task(&app, &id, "en").await;
    assert_eq!(
        (&after["phase"], &after["attempts"]),
        (&json!("stopped"), &json!(1))
    );
    let events = events(&app, &id, "en").await;
    assert_eq!(times(&events, "admitted").len(), 1, "{events:?}");
    let last = events.last().expect("events");
    assert_eq!(last["kind"], "stopped", "{events:?}");
}

/// Reserved capacity that ran on idle holds none of its quota there; waiting for its
/// retry it holds it again, as it did before its first start (README, the plan), since
/// by then the idle offers may be gone and its pool the way it starts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reserved_capacity_that_ran_on_idle_holds_its_quota_while_its_retry_waits() {
    let app = app_backing_off(6).await;
    let mut spec = failing(2);
    super::preferring_idle(&mut spec);
    let before = gpus_in_use(&app).await;
    let id = super::submit(&app, &spec).await;
    let waiting = wait_for(&app, &id, |t| {
        t["phase"] == "retrying" && t["placement"].is_null() && t["reason"].is_string()
    })
    .await;
    // Its attempt ran on idle capacity (read from its event: the run lasts a moment).
    let admitted = said(&events(&app, &id, "en").await, "admitted").join("\n");
    assert!(
        admitted.contains("of A100 single card 单卡, stability Medium, in Shanghai A 上海 A"),
        "{admitted}"
    );
    // The example's 2 replicas of 2 A100s, held on its reserved line; no node taken.
    assert_eq!(
        gpus_in_use(&app).await,
        (before.0 + 4, before.1),
        "{waiting}"
    );
    let path = format!("/api/v1/tasks/{id}/stop");
    let (status, stopped) = super::answer(&app, post(&path, &json!({}))).await;
    assert_eq!(status, StatusCode::OK, "{stopped}");
    assert_eq!(gpus_in_use(&app).await, before, "its hold given back");
}

/// A reserved task waiting with its quota held, that then starts on idle capacity,
/// is told its hold went: idle capacity holds no quota (SPEC.md section 4). Its first
/// start said so when accepted, and is not told twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reserved_capacity_back_on_idle_after_a_wait_is_told_its_quota_hold_went() {
    let app = app_backing_off(0).await;
    let mut spec = failing(1);
    super::preferring_idle(&mut spec);
    let id = super::submit(&app, &spec).await;
    wait_for(&app, &id, |t| t["phase"] == "failed").await;
    let released = "quota hold given back: it runs on idle capacity, which holds no quota";
    for (lang, said_now) in [
        ("en", released),
        (
            "zh-CN",
            "预留的配额已释放：任务运行在闲时资源上，不占用配额",
        ),
    ] {
        let events = events(&app, &id, lang).await;
        // Attempt 1, attempt 2, and the hold's going after attempt 2 alone.
        let admitted = said(&events, "admitted");
        assert_eq!(admitted.len(), 3, "{events:?}");
        assert_eq!(admitted[2], said_now, "{events:?}");
    }
}

/// A backoff of 0 retries at once, with the event it always had.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_backoff_retries_at_once_with_the_event_it_always_had() {
    let app = app_backing_off(0).await;
    let id = super::submit(&app, &failing(1)).await;
    wait_for(&app, &id, |t| t["phase"] == "failed").await;
    let events = events(&app, &id, "en").await;
    let said = said(&events, "retrying");
    assert_eq!(
        said,
        ["attempt 1 failed (replica 1 (worker 0) ended with exit code 3); retry 1 of 1"]
    );
}

/// The task page's retries panel reads only a task's retries (README, Task page):
/// `kind=retrying` answers them alone, numbered among themselves, the latest `limit`
/// with `Berth-Events-Earlier` saying how many came before (one less than it), and
/// earlier ones by `before`; a kind no event has is refused, not answered empty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tasks_retries_are_read_alone_a_page_at_a_time() {
    use super::tasks::events_page;
    let app = app_backing_off(0).await;
    let id = super::submit(&app, &failing(4)).await;
    wait_for(&app, &id, |t| t["phase"] == "failed").await;
    let all = events(&app, &id, "en").await;
    let retries: Vec<Value> = all
        .iter()
        .filter(|e| e["kind"] == "retrying")
        .cloned()
        .collect();
    assert_eq!(retries.len(), 4, "{all:?}");
    assert!(all.len() > retries.len() + 4, "{all:?}");
    let (alone, earlier) = events_page(&app, &id, "kind=retrying").await;
    assert_eq!((&alone, earlier), (&retries, None));
    let (latest, earlier) = events_page(&app, &id, "kind=retrying&limit=3").await;
    assert_eq!(
        (latest.as_slice(), earlier.as_deref()),
        (&retries[1..], Some("2"))
    );
    let (first, earlier) = events_page(&app, &id, "kind=retrying&limit=3&before=2").await;
    assert_eq!((first.as_slice(), earlier), (&retries[..1], None));
    // One past the last retry is where the latest end; past it is no page of them,
    // though the task has that many events.
    let (upto, _) = events_page(&app, &id, "kind=retrying&before=5").await;
    assert_eq!(upto, retries);
    for bad in [
        "kind=retrying&before=6",
        "kind=nope",
        "kind=Retrying",
        "kind=",
    ] {
        let path = format!("/api/v1/tasks/{id}/events?{bad}");
        let (status, body) = super::answer(&app, get(&path)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert_eq!(body["code"], "query.invalid", "{body}");
    }
    // Every event, paged: the latest, numbered among all.
    let (latest, earlier) = events_page(&app, &id, "limit=3").await;
    let left_out = all.len() - 3;
    assert_eq!(latest.as_slice(), &all[left_out..]);
    assert_eq!(earlier, Some((left_out + 1).to_string()));
}
