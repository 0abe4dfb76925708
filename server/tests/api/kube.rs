//! The runner and the routes with a backend that reports whole jobs, as the Kubernetes
//! backend does (`Finished` and `Note` events, logs as a stream). The backend here is a
//! scripted stand-in: the Kubernetes backend's own requests are tested against a mocked
//! API server in `server/src/backend/kube.rs`. No live cluster is used.

use super::temp_dir;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use server::backend::{Backend, BackendError, Event, Gang, LogStream, note_kind};
use shared::TaskId;
use shared::messages::{Arg, Message};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// Acts on the gang's command: `succeed`, `fail` (an image-pull breaker trip) or `hold`
/// (runs until stopped). Every attempt starts and notes a pull first. With a `debug-`
/// prefix the attempt also notes, before its end, what the Kubernetes backend's watcher
/// notes of a finished RayJob in debug mode: how long KubeRay keeps its cluster.
struct JobBackend {
    events: broadcast::Sender<Event>,
    stops: Mutex<Vec<(TaskId, u32)>>,
    starts: Mutex<Vec<(TaskId, u32)>>,
    /// The line counts a followed log's end was asked from, as Kubernetes' `tailLines`.
    tails: Mutex<Vec<u64>>,
    /// Tasks whose replica 1 wrote a line longer than the kubelet keeps in one piece.
    long_lines: Mutex<Vec<TaskId>>,
}

impl JobBackend {
    fn new() -> Arc<Self> {
        Arc::new(JobBackend {
            events: broadcast::channel(64).0,
            stops: Mutex::default(),
            starts: Mutex::default(),
            tails: Mutex::default(),
            long_lines: Mutex::default(),
        })
    }
}

#[async_trait::async_trait]
impl Backend for JobBackend {
    async fn start(&self, gang: Gang) -> Result<(), BackendError> {
        let (task, attempt) = (gang.task.clone(), gang.attempt);
        self.starts.lock().unwrap().push((task.clone(), attempt));
        // Its pods never start: the task stays scheduling.
        if gang.command == "pending" {
            return Ok(());
        }
        // The first attempt's job fails before any pod of it ran; the next ones run.
        if gang.command == "fail-unstarted" && attempt == 1 {
            let _ = self.events.send(Event::Finished {
                task,
                attempt,
                failure: Some(Arg::Text("the job failed before its pods ran".to_owned())),
            });
            return Ok(());
        }
        let _ = self.events.send(Event::Started {
            task: task.clone(),
            attempt,
        });
        let _ = self.events.send(Event::Note {
            task: task.clone(),
            attempt,
            kind: note_kind::CLUSTER,
            message: Message::new("event.kube.cluster")
                .with("object", "pod x-master-0")
                .with("what", "Pulled: Successfully pulled image"),
        });
        let command = match gang.command.strip_prefix("debug-") {
            Some(command) => {
                let _ = self.events.send(Event::Note {
                    task: task.clone(),
                    attempt,
                    kind: note_kind::DEBUG,
                    message: Message::new("event.debug.cluster_kept").with("secs", 600),
                });
                command
            }
            None => gang.command.as_str(),
        };
        // Kueue evicts the running job; unless it is to `hold` there, it is re-admitted.
        let command = match command.strip_prefix("evict-") {
            Some(rest) => {
                let _ = self.events.send(Event::Requeued {
                    task: task.clone(),
                    attempt,
                    why: Message::new("event.kube.evicted"),
                });
                if rest != "hold" {
                    let _ = self.events.send(Event::Started {
                        task: task.clone(),
                        attempt,
                    });
                }
                rest
            }
            None => command,
        };
        // The first attempt fails, the next ones run until stopped.
        let command = match command {
            "fail-then-hold" if attempt == 1 => "fail",
            "fail-then-hold" => "hold",
            other => other,
        };
        let failure = match command {
            "succeed" => None,
            // An operator's words: text from outside Berth.
            "fail" => Some(Arg::Text("the image could not be pulled once".to_owned())),
            _ => return Ok(()),
        };
        let _ = self.events.send(Event::Finished {
            task,
            attempt,
            failure,
        });
        Ok(())
    }

    async fn stop(
        &self,
        task: &TaskId,
        attempt: u32,
        _grace: Duration,
    ) -> Result<(), BackendError> {
        self.stops.lock().unwrap().push((task.clone(), attempt));
        let _ = self.events.send(Event::Finished {
            task: task.clone(),
            attempt,
            failure: Some(Arg::Message(Message::new("event.stopped"))),
        });
        Ok(())
    }

    fn runs_ray_clusters(&self) -> bool {
        true
    }

    fn events(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    fn log_path(&self, _task: &TaskId, _attempt: u32, _replica: u32) -> PathBuf {
        PathBuf::from("/nonexistent/berth/log")
    }

    async fn log_stream(
        &self,
        _task: &TaskId,
        attempt: u32,
        replica: u32,
        _follow: bool,
    ) -> Result<Option<LogStream>, BackendError> {
        // Replica 3's cannot be opened: the cluster does not answer.
        if replica == 3 {
            return Err(BackendError::Kube {
                task: _task.clone(),
                action: "read the log of pod x-worker-2".to_owned(),
                cause: server::backend::kube::KubeError::StillDeleting("x".to_owned()),
            });
        }
        // Replica 2's stream breaks off (the API server's connection drops) after a
        // line and the start of a second.
        let chunks = if replica == 2 {
            vec![
                Ok(b"first line\nsecond".to_vec()),
                Err(std::io::Error::from(std::io::ErrorKind::ConnectionReset)),
            ]
        } else if self.long_lines.lock().unwrap().contains(_task) {
            vec![
                Ok(format!("attempt {attempt} replica {replica}\n").into_bytes()),
                Ok(format!("{}\n", "x".repeat(17 * 1024)).into_bytes()),
                Ok(b"second line\n".to_vec()),
            ]
        } else {
            vec![
                Ok(format!("attempt {attempt} replica {replica}\n").into_bytes()),
                Ok(b"second line\n".to_vec()),
            ]
        };
        Ok(Some(futures_util::StreamExt::boxed(
            futures_util::stream::iter(chunks),
        )))
    }

    /// As Kubernetes follows a pod's log from its last `lines` lines: replica 1's log's
    /// last lines, then what its pod wrote since, a `\r\n` falling across two chunks.
    async fn log_stream_from_end(
        &self,
        _task: &TaskId,
        attempt: u32,
        replica: u32,
        lines: u64,
    ) -> Result<Option<LogStream>, BackendError> {
        if replica != 1 {
            return Ok(None);
        }
        self.tails.lock().unwrap().push(lines);
        let log = [
            format!("attempt {attempt} replica {replica}\n"),
            "second line\n".to_owned(),
        ];
        let from = log
            .len()
            .saturating_sub(usize::try_from(lines).unwrap_or(usize::MAX));
        let chunks = log[from..]
            .iter()
            .map(|line| line.clone().into_bytes())
            .chain([b"written since\r".to_vec(), b"\nlast\n".to_vec()])
            .map(Ok);
        Ok(Some(futures_util::StreamExt::boxed(
            futures_util::stream::iter(chunks.collect::<Vec<_>>()),
        )))
    }
}

async fn app() -> (Router, Arc<JobBackend>) {
    let backend = JobBackend::new();
    let app = app_on(&temp_dir("data"), Arc::clone(&backend) as Arc<dyn Backend>).await;
    (app, backend)
}

/// The routes over a runner on `data` (its store there) with `backend`, recovered from
/// what the store holds, as a server starts.
pub(super) async fn app_on(data: &std::path::Path, backend: Arc<dyn Backend>) -> Router {
    app_on_with(data, backend, |_| {}).await
}

/// [`app_on`] with what runs outside Berth changed first.
async fn app_on_with(
    data: &std::path::Path,
    backend: Arc<dyn Backend>,
    outside: impl FnOnce(&mut shared::Usage),
) -> Router {
    served(data, backend, outside).await.0
}

/// [`app_on_with`] and its runner, for what only the runner does (the alert sweep).
async fn served(
    data: &std::path::Path,
    backend: Arc<dyn Backend>,
    outside: impl FnOnce(&mut shared::Usage),
) -> (Router, Arc<server::runner::Runner>) {
    // Retries at once: these tests are of the cluster's side.
    served_with(data, backend, outside, server::runner::Backoff::NONE).await
}

/// [`served`] with retries waiting `backoff`.
async fn served_with(
    data: &std::path::Path,
    backend: Arc<dyn Backend>,
    outside: impl FnOnce(&mut shared::Usage),
    backoff: server::runner::Backoff,
) -> (Router, Arc<server::runner::Runner>) {
    let dist = temp_dir("dist");
    let data = data.to_owned();
    let config = server::Config {
        data_dir: data.clone(),
        ..server::Config::demo(dist)
    };
    let mut state = server::AppState::new(config).expect("the demo state");
    let mut usage = (*state.usage).clone();
    outside(&mut usage);
    state.usage = Arc::new(usage);
    let store = server::store::SqliteStore::open(&data.join("berth.db"))
        .await
        .expect("the store opens");
    let runner = Arc::new(
        server::runner::Runner::new(
            Arc::clone(&state.catalog),
            (*state.usage).clone(),
            Arc::new(store),
            backend,
            data,
        )
        .with_backoff(backoff),
    );
    runner.watch();
    runner.begin().await.expect("the store is read");
    state.runner = Some(Arc::clone(&runner));
    (server::app(state), runner)
}

fn spec(command: &str) -> Value {
    let mut spec: Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).expect("JSON");
    spec["environment"]["command"] = command.into();
    spec
}

async fn submit(app: &Router, spec: &Value) -> String {
    let request = Request::post("/api/v1/tasks")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(spec.to_string()))
        .expect("a request");
    let (status, task) = super::answer(app, request).await;
    assert_eq!(status, StatusCode::CREATED, "{task}");
    task["id"].as_str().expect("an id").to_owned()
}

pub(super) async fn get(app: &Router, path: &str) -> (StatusCode, Value) {
    super::answer(
        app,
        Request::get(path).body(Body::empty()).expect("a request"),
    )
    .await
}

/// Stops the task through the API and waits until it has stopped.
pub(super) async fn stop(app: &Router, id: &str) {
    let request = Request::post(format!("/api/v1/tasks/{id}/stop"))
        .body(Body::empty())
        .expect("a request");
    let (status, answer) = super::answer(app, request).await;
    assert!(status.is_success(), "{status}: {answer}");
    wait_for_phase(app, id, "stopped").await;
}

pub(super) async fn wait_for_phase(app: &Router, id: &str, phase: &str) -> Value {
    for _ in 0..300 {
        let (_, task) = get(app, &format!("/api/v1/tasks/{id}")).await;
        if task["phase"] == phase {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("task {id} did not reach {phase} in 30 s")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_job_succeeds_the_task_with_its_cluster_events_and_streamed_logs() {
    let (app, _) = app().await;
    let id = submit(&app, &spec("succeed")).await;
    let done = wait_for_phase(&app, &id, "succeeded").await;
    let phases: Vec<&str> = done["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["phase"].as_str().unwrap())
        .collect();
    assert_eq!(phases, ["queued", "scheduling", "running", "succeeded"]);
    let (_, events) = get(&app, &format!("/api/v1/tasks/{id}/events")).await;
    let cluster: Vec<&Value> = events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "cluster")
        .collect();
    assert_eq!(cluster.len(), 1, "{events}");
    assert_eq!(
        cluster[0]["message"],
        "attempt 1: pod x-master-0: Pulled: Successfully pulled image"
    );

    let (status, log) = get(&app, &format!("/api/v1/tasks/{id}/logs?replica=1")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(log, json!("attempt 1 replica 1\nsecond line\n"));
    let (status, sse) = get(
        &app,
        &format!("/api/v1/tasks/{id}/logs?replica=0&follow=true"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let sse = sse.as_str().expect("text").to_owned();
    assert!(sse.contains("data: attempt 1 replica 0\n"), "{sse}");
    assert!(sse.contains("data: second line\n"), "{sse}");
    let end = sse.find("event: end").expect("an end event");
    assert!(
        end > sse.find("data: second line").unwrap(),
        "the end comes last: {sse}"
    );
    // Browsers drop an event without data, so the end carries some.
    assert!(sse[end..].starts_with("event: end\ndata: ended\n"), "{sse}");
}

/// The text a browser reads from server-sent events, as `(event name, data)` pairs: a
/// line ends at `\r\n`, `\r` or `\n`, an event at an empty line, and an event's `data:`
/// lines are joined by `\n` (the HTML standard's event stream).
fn as_a_browser_reads(sse: &str) -> Vec<(String, String)> {
    let mut events = Vec::new();
    let (mut name, mut data) = (String::new(), Vec::<String>::new());
    for line in sse.replace("\r\n", "\n").replace('\r', "\n").split('\n') {
        if line.is_empty() {
            if !data.is_empty() {
                events.push((std::mem::take(&mut name), data.join("\n")));
            }
            (name, data) = (String::new(), Vec::new());
        } else if let Some(value) = line.strip_prefix("data:") {
            data.push(value.strip_prefix(' ').unwrap_or(value).to_owned());
        } else if let Some(value) = line.strip_prefix("event:") {
            name = value.trim_start().to_owned();
        }
    }
    events
}

/// Replica 1's log of task `id` followed from its last `tail_bytes`: the server-sent
/// events as sent, and as a browser reads them.
async fn followed_end(
    app: &Router,
    id: &str,
    tail_bytes: usize,
) -> (String, Vec<(String, String)>) {
    let (status, sse) = get(
        app,
        &format!("/api/v1/tasks/{id}/logs?replica=1&follow=true&tail_bytes={tail_bytes}"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{sse}");
    let sse = sse.as_str().expect("text").to_owned();
    let events = as_a_browser_reads(&sse);
    (sse, events)
}

/// A pod's log followed from its end (`tail_bytes`, as the task page follows it): the
/// server finds where the end begins, asks Kubernetes for the pod's log from as many
/// lines from its end, and says first how many bytes were left out; it is not sent whole
/// from its start. What the pod writes on follows, a `\r\n` falling across two chunks
/// ending one line (no blank line after it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pod_log_is_followed_from_its_end() {
    let (app, backend) = app().await;
    let id = submit(&app, &spec("succeed")).await;
    wait_for_phase(&app, &id, "succeeded").await;

    // "attempt 1 replica 1\n" (20 bytes) left out, "second line\n" (12) kept.
    let (sse, events) = followed_end(&app, &id, 15).await;
    assert_eq!(
        events[0],
        ("left_out".to_owned(), "20".to_owned()),
        "{sse:?}"
    );
    let text: String = events[1..]
        .iter()
        .filter(|(name, _)| name.is_empty())
        .map(|(_, data)| data.as_str())
        .collect();
    assert_eq!(text, "second line\nwritten since\nlast\n", "{sse:?}");
    assert_eq!(
        events.last(),
        Some(&("end".to_owned(), "ended".to_owned())),
        "{sse:?}"
    );
    assert_eq!(*backend.tails.lock().unwrap(), [1]);

    // A log shorter than the end asked for is followed whole, from its first line:
    // nothing said left out, no count of lines asked for.
    let (sse, events) = followed_end(&app, &id, 4096).await;
    assert!(events.iter().all(|(name, _)| name != "left_out"), "{sse:?}");
    assert!(events[0].1.starts_with("attempt 1 replica 1\n"), "{sse:?}");
    assert_eq!(*backend.tails.lock().unwrap(), [1]);
}

/// A pod's log with a line the kubelet keeps in pieces (16 KiB and longer), while there
/// are values to mask (the demo user's hidden persistent env): a follow counted in lines
/// could start within that line, and within a hidden value there, whose rest no mask
/// would know (review, round 17). It is followed whole, from its start, nothing asked
/// from its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pod_log_with_a_line_kept_in_pieces_is_followed_whole() {
    let (app, backend) = app().await;
    let id = submit(&app, &spec("succeed")).await;
    backend.long_lines.lock().unwrap().push(TaskId(id.clone()));
    wait_for_phase(&app, &id, "succeeded").await;
    let (sse, events) = followed_end(&app, &id, 15).await;
    assert!(
        events.iter().all(|(name, _)| name != "left_out"),
        "{sse:.200}"
    );
    assert!(
        events[0].1.starts_with("attempt 1 replica 1\n"),
        "{sse:.200}"
    );
    assert!(backend.tails.lock().unwrap().is_empty());
}

/// A pod's log whose stream breaks off is not shown as whole: followed, it ends without
/// its `end` event (the page says the log broke off, as for a local log that cannot be
/// read); read plain, the answer's body fails instead of ending, so a client knows it is
/// cut. What came before the break is shown, a line cut short included only as far as it
/// goes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pod_log_that_breaks_off_is_not_shown_as_whole() {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let (app, _) = app().await;
    let mut four = spec("succeed");
    four["compute"]["workers"] = 3.into();
    let id = submit(&app, &four).await;
    wait_for_phase(&app, &id, "succeeded").await;

    let (status, sse) = get(
        &app,
        &format!("/api/v1/tasks/{id}/logs?replica=2&follow=true"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let sse = sse.as_str().expect("text").to_owned();
    assert!(sse.contains("data: first line\n"), "{sse}");
    assert!(
        !sse.contains("event: end"),
        "a broken log is not ended: {sse}"
    );

    let request = Request::get(format!("/api/v1/tasks/{id}/logs?replica=2"))
        .body(Body::empty())
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let mut read = Vec::new();
    let broke = loop {
        match body.frame().await {
            Some(Ok(frame)) => read.extend_from_slice(frame.data_ref().map_or(&[][..], |d| d)),
            Some(Err(_)) => break true,
            None => break false,
        }
    };
    assert!(
        broke,
        "the body ends as if whole: {:?}",
        String::from_utf8_lossy(&read)
    );
    // All that came, to the break (the owner's read: nothing is masked).
    assert_eq!(String::from_utf8_lossy(&read), "first line\nsecond");

    // One that cannot even be opened (the cluster does not answer) is not an empty log.
    let (status, sse) = get(
        &app,
        &format!("/api/v1/tasks/{id}/logs?replica=3&follow=true"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(!sse.to_string().contains("event: end"), "{sse}");
    let request = Request::get(format!("/api/v1/tasks/{id}/logs?replica=3"))
        .body(Body::empty())
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    assert!(
        response.into_body().collect().await.is_err(),
        "an unreadable log is not passed off as empty"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_job_is_retried_per_fault_tolerance_then_fails_with_its_reason() {
    let (app, _) = app().await;
    let mut spec = spec("fail");
    spec["advanced"]["fault_tolerance"] = json!({ "enabled": true, "max_retries": 1 });
    let id = submit(&app, &spec).await;
    let done = wait_for_phase(&app, &id, "failed").await;
    assert_eq!(done["attempts"], 2, "{done}");
    let last = done["history"].as_array().unwrap().last().unwrap().clone();
    assert!(
        last["reason"]
            .as_str()
            .unwrap()
            .contains("the image could not be pulled"),
        "{last}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_a_running_job_asks_the_backend_and_ends_the_task_stopped() {
    let (app, backend) = app().await;
    let id = submit(&app, &spec("hold")).await;
    wait_for_phase(&app, &id, "running").await;
    stop(&app, &id).await;
    assert_eq!(
        backend.stops.lock().unwrap().as_slice(),
        [(TaskId(id.clone()), 1)]
    );
}

fn phases(task: &Value) -> Vec<&str> {
    task["history"]
        .as_array()
        .expect("a history")
        .iter()
        .map(|h| h["phase"].as_str().expect("a phase"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_kueue_evicts_waits_for_admission_again_then_runs_on_as_the_same_attempt() {
    let (app, backend) = app().await;
    let mut spec = spec("evict-succeed");
    spec["advanced"]["fault_tolerance"] = json!({ "enabled": true, "max_retries": 1 });
    let id = submit(&app, &spec).await;
    let done = wait_for_phase(&app, &id, "succeeded").await;
    assert_eq!(
        phases(&done),
        [
            "queued",
            "scheduling",
            "running",
            "scheduling",
            "running",
            "succeeded"
        ]
    );
    assert_eq!(done["attempts"], 1, "an eviction is no retry: {done}");
    assert_eq!(
        done["history"][3]["reason"],
        "evicted by Kueue: the job is suspended (waiting for admission again)"
    );
    assert_eq!(
        events_of(&app, &id, "job").await,
        ["attempt 1: evicted by Kueue: the job is suspended (waiting for admission again)"]
    );
    assert_eq!(events_of(&app, &id, "retrying").await, Vec::<String>::new());
    assert_eq!(
        backend.starts.lock().unwrap().as_slice(),
        [(TaskId(id.clone()), 1)],
        "the gang was started once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_a_job_kueue_evicted_ends_the_task_stopped() {
    let (app, backend) = app().await;
    let id = submit(&app, &spec("evict-hold")).await;
    for _ in 0..300 {
        let (_, task) = get(&app, &format!("/api/v1/tasks/{id}")).await;
        if phases(&task) == ["queued", "scheduling", "running", "scheduling"] {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (_, task) = get(&app, &format!("/api/v1/tasks/{id}")).await;
    assert_eq!(task["phase"], "scheduling", "{task}");
    stop(&app, &id).await;
    assert_eq!(
        backend.stops.lock().unwrap().as_slice(),
        [(TaskId(id.clone()), 1)]
    );
    let stopped = wait_for_phase(&app, &id, "stopped").await;
    assert_eq!(stopped["attempts"], 1, "{stopped}");
}

/// The task's events of `kind`, as the API words them in English.
async fn events_of(app: &Router, id: &str, kind: &str) -> Vec<String> {
    let (_, events) = get(app, &format!("/api/v1/tasks/{id}/events")).await;
    events
        .as_array()
        .expect("a list of events")
        .iter()
        .filter(|e| e["kind"] == kind)
        .map(|e| e["message"].as_str().expect("words").to_owned())
        .collect()
}

/// The events of `kind` once `count` of them are there; the runner says what debug mode
/// kept just after the task's end, so they may come a moment after the phase.
async fn wait_for_events(app: &Router, id: &str, kind: &str, count: usize) -> Vec<String> {
    for _ in 0..50 {
        let found = events_of(app, id, kind).await;
        if found.len() >= count {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    events_of(app, id, kind).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_debug_mode_keeps_is_said_once_when_the_job_ends_the_task() {
    let (app, _) = app().await;
    let id = submit(&app, &spec("debug-succeed")).await;
    wait_for_phase(&app, &id, "succeeded").await;
    let said = wait_for_events(&app, &id, "debug", 1).await;
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].starts_with("attempt 1: "), "{said:?}");
    assert!(said[0].contains("600 s"), "{said:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_attempt_keeps_nothing_and_only_the_last_attempts_end_says_what_is_kept() {
    let (app, _) = app().await;
    let mut spec = spec("debug-fail");
    spec["advanced"]["fault_tolerance"] = json!({ "enabled": true, "max_retries": 1 });
    let id = submit(&app, &spec).await;
    let done = wait_for_phase(&app, &id, "failed").await;
    assert_eq!(done["attempts"], 2, "{done}");
    // A retry deletes the first attempt's job, and its cluster with it: only the
    // second attempt's end keeps one.
    let said = wait_for_events(&app, &id, "debug", 1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let said_after = events_of(&app, &id, "debug").await;
    assert_eq!(said, said_after, "nothing more is said later");
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].starts_with("attempt 2: "), "{said:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_job_keeps_nothing_and_says_nothing_of_debug_mode() {
    let (app, _) = app().await;
    let id = submit(&app, &spec("debug-hold")).await;
    wait_for_phase(&app, &id, "running").await;
    stop(&app, &id).await;
    // Said, it would come just after the phase: give it that moment.
    let said = wait_for_events(&app, &id, "debug", 1).await;
    assert!(said.is_empty(), "{said:?}");
}

/// A kubeconfig for an API server nobody listens on (TLS, so the client's TLS setup
/// runs too).
fn unreachable_kubeconfig(dir: &std::path::Path) -> PathBuf {
    let path = dir.join("kubeconfig");
    std::fs::write(
        &path,
        "apiVersion: v1\nkind: Config\ncurrent-context: nowhere\n\
         clusters:\n- name: nowhere\n  cluster:\n    server: https://127.0.0.1:9\n    insecure-skip-tls-verify: true\n\
         contexts:\n- name: nowhere\n  context:\n    cluster: nowhere\n    user: nobody\n\
         users:\n- name: nobody\n  user:\n    token: not-a-real-token\n",
    )
    .expect("temp dir is writable");
    path
}

#[test]
fn berth_serves_on_the_kubernetes_backend_and_a_task_is_rendered_then_fails_on_an_unreachable_api()
{
    let dir = temp_dir("kube-serve");
    let config = dir.join("berth.toml");
    std::fs::write(
        &config,
        format!(
            "[kubernetes]\nkubeconfig = {:?}\n",
            unreachable_kubeconfig(&dir)
        ),
    )
    .expect("temp dir is writable");
    let data = dir.join("data");
    let server = super::Berth::start(&[
        ("BERTH_DATA_DIR", data.as_os_str()),
        ("BERTH_CONFIG", config.as_os_str()),
        ("BERTH_BACKEND", std::ffi::OsStr::new("kubernetes")),
    ]);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut response = agent
        .post(&format!("{}/api/v1/tasks", server.url))
        .header("content-type", "application/json")
        .send(spec("succeed").to_string())
        .expect("the server answers");
    assert_eq!(response.status(), 201);
    let task: Value = serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
    let id = task["id"].as_str().expect("an id").to_owned();
    for _ in 0..300 {
        let mut response = agent
            .get(&format!("{}/api/v1/tasks/{id}", server.url))
            .call()
            .expect("the server answers");
        let task: Value =
            serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
        if task["phase"] == "failed" {
            let last = task["history"].as_array().unwrap().last().unwrap().clone();
            let reason = last["reason"].as_str().unwrap();
            // Rendered: the first object applied is the Secret of the hidden HF_TOKEN,
            // named after the task; the API nobody serves refuses it.
            assert!(
                reason.contains(&format!("cannot apply Secret {id}-env")),
                "{last}"
            );
            assert!(
                reason.contains("the kubernetes API is unavailable"),
                "{last}"
            );
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("the task did not fail to start");
}

#[test]
fn berth_refuses_to_start_when_the_kubeconfig_cannot_be_read() {
    let dir = temp_dir("kube-missing");
    let config = dir.join("berth.toml");
    std::fs::write(
        &config,
        "backend = \"kubernetes\"\n[kubernetes]\nkubeconfig = \"/nonexistent/kubeconfig\"\n",
    )
    .expect("temp dir is writable");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_berth"))
        .env("BERTH_ADDR", "127.0.0.1:0")
        .env("BERTH_DATA_DIR", dir.join("data"))
        .env("BERTH_CONFIG", &config)
        .output()
        .expect("the berth binary runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot connect to Kubernetes"), "{stderr}");
    assert!(stderr.contains("/nonexistent/kubeconfig"), "{stderr}");
}

/// A stop of a queued task that comes as another's stop frees its place, so while the
/// runner starts it: the task ends stopped with no gang of it left running. A stop
/// between the admission and the backend's start used to end the task while its gang
/// was started after all, running unseen on nodes the catalog showed free.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_that_races_the_start_leaves_no_gang_running() {
    let (app, backend) = app().await;
    // The demo's H100 pool has 3 free whole nodes: a gang of 2 holds 2 of them, and a
    // second gang of 2 (on another quota line) waits for room.
    let h100 = |spec_id: &str, units: u64| {
        let mut spec = spec("hold");
        spec["compute"] = json!({ "kind": "reserved", "pool": "sh-a-h100", "workers": 1,
            "instance_type": "gpu", "specs": [spec_id], "units_per_node": units });
        spec
    };
    let stop_now = |id: String| {
        let app = app.clone();
        async move {
            let request = Request::post(format!("/api/v1/tasks/{id}/stop"))
                .body(Body::empty())
                .expect("a request");
            super::answer(&app, request).await
        }
    };
    for round in 0..40 {
        let holder = submit(&app, &h100("h100-8g", 1)).await;
        wait_for_phase(&app, &holder, "running").await;
        let waiting = submit(&app, &h100("h100-1g", 8)).await;
        let (_, task) = get(&app, &format!("/api/v1/tasks/{waiting}")).await;
        assert_eq!(task["phase"], "queued", "{task}");
        // The holder's stop admits the waiting task; the waiting task's stop comes a
        // little later each round, so some rounds find it queued, some being started
        // (before this fix 40 rounds hit that window every time), some running.
        let (status, freed) = stop_now(holder.clone()).await;
        assert!(status.is_success(), "{freed}");
        for _ in 0..round * 3 {
            tokio::task::yield_now().await;
        }
        let (status, stopped) = stop_now(waiting.clone()).await;
        assert!(status.is_success(), "{stopped}");
        wait_for_phase(&app, &holder, "stopped").await;
        wait_for_phase(&app, &waiting, "stopped").await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stops = backend.stops.lock().unwrap().clone();
    let starts = backend.starts.lock().unwrap().clone();
    let (_, page) = get(&app, "/api/v1/tasks?phase=stopped&limit=500").await;
    let stopped: Vec<&str> = page["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .map(|t| t["id"].as_str().expect("an id"))
        .collect();
    // A task shows where it ran only if it was started: one stopped before its start has
    // no placement (and holds nothing).
    for task in page["tasks"].as_array().expect("tasks") {
        let id = task["id"].as_str().expect("an id");
        if !task["placement"].is_null() {
            assert!(
                starts.iter().any(|(t, _)| t.0 == id),
                "{id} was never started, yet shows a placement: {task}"
            );
        }
    }
    for (task, attempt) in &starts {
        if stopped.contains(&task.0.as_str()) {
            assert!(
                stops.contains(&(task.clone(), *attempt)),
                "{task} attempt {attempt} was started and never stopped, yet is shown stopped"
            );
        }
    }
}

/// A mocked Kubernetes API server (tower-test behind `kube::Client::new`, as the
/// backend's own tests do): its PyTorchJobs are `jobs` in every list (the backend's
/// look for leftovers, its watch's list), a job by name is not found, applies are
/// echoed, deletes succeed, and watches stay open to push events on.
struct Cluster {
    seen: Arc<Mutex<Vec<(String, String)>>>,
    watches: Watches,
    /// The pods of every namespace (`GET /api/v1/pods`): none until a test sets some.
    pods: Arc<Mutex<Vec<Value>>>,
    /// The batch Jobs (cleanups), when a test sets them: listed in their namespace and
    /// found by name. Unset, none is listed and every one looked up has completed.
    batch: Arc<Mutex<Option<Vec<Value>>>>,
}

/// Open watches by path, each fed by its sender.
type Watches = Arc<Mutex<Vec<(String, tokio::sync::mpsc::UnboundedSender<Value>)>>>;

type ClusterBody = http_body_util::combinators::UnsyncBoxBody<bytes::Bytes, std::io::Error>;

impl Cluster {
    fn start(jobs: Vec<Value>) -> (kube::Client, Cluster) {
        Self::start_failing(jobs, &[])
    }

    /// [`Cluster::start`], whose first lists of each of these resources (`events`,
    /// `pytorchjobs`) answer 503, as many as given, as an API server does while it
    /// starts.
    fn start_failing(jobs: Vec<Value>, failing: &[(&str, usize)]) -> (kube::Client, Cluster) {
        use http_body_util::BodyExt;
        let mut failing: std::collections::HashMap<String, usize> =
            failing.iter().map(|(r, n)| ((*r).to_owned(), *n)).collect();
        let (service, handle) = tower_test::mock::pair::<
            http::Request<kube::client::Body>,
            http::Response<ClusterBody>,
        >();
        let cluster = Cluster {
            seen: Arc::default(),
            watches: Arc::default(),
            pods: Arc::default(),
            batch: Arc::default(),
        };
        let (seen, watches) = (Arc::clone(&cluster.seen), Arc::clone(&cluster.watches));
        let pods = Arc::clone(&cluster.pods);
        let batch = Arc::clone(&cluster.batch);
        tokio::spawn(async move {
            let mut handle = std::pin::pin!(handle);
            while let Some((request, send)) = handle.next_request().await {
                let (method, path) = (
                    request.method().to_string(),
                    request.uri().path().to_owned(),
                );
                let query = request.uri().query().unwrap_or_default().to_owned();
                let body = request.into_body().collect_bytes().await.expect("a body");
                seen.lock().unwrap().push((method.clone(), path.clone()));
                if query.contains("watch=true") {
                    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Value>();
                    watches.lock().unwrap().push((path, tx));
                    let lines = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)).map(
                        |event: Value| {
                            let mut line = serde_json::to_vec(&event).expect("json");
                            line.push(b'\n');
                            Ok::<_, std::io::Error>(http_body::Frame::data(bytes::Bytes::from(
                                line,
                            )))
                        },
                    );
                    let body = http_body_util::StreamBody::new(lines);
                    send.send_response(http::Response::new(BodyExt::boxed_unsync(body)));
                    continue;
                }
                let list = |items: Vec<Value>| json!({ "apiVersion": "v1", "kind": "List", "metadata": { "resourceVersion": "3" }, "items": items });
                let last = path.rsplit('/').next().unwrap_or_default();
                let named = !matches!(
                    last,
                    "pytorchjobs"
                        | "rayjobs"
                        | "pods"
                        | "events"
                        | "secrets"
                        | "configmaps"
                        | "podmonitors"
                        | "jobs"
                );
                let batch_jobs = batch.lock().unwrap().clone().map(|jobs| {
                    jobs.into_iter()
                        .filter(|j| {
                            let namespace = j["metadata"]["namespace"].as_str().unwrap_or_default();
                            path.contains(&format!("/namespaces/{namespace}/"))
                        })
                        .collect::<Vec<Value>>()
                });
                let fails = failing.get_mut(last).filter(|n| **n > 0);
                let (status, answer) = match (method.as_str(), named) {
                    ("GET", false) if fails.is_some() => {
                        if let Some(n) = fails {
                            *n -= 1;
                        }
                        (
                            503,
                            json!({ "apiVersion": "v1", "kind": "Status", "metadata": {},
                            "status": "Failure", "reason": "ServiceUnavailable", "code": 503 }),
                        )
                    }
                    ("GET", false) if last == "pytorchjobs" => (200, list(jobs.clone())),
                    ("GET", false) if path == "/api/v1/pods" => {
                        (200, list(pods.lock().unwrap().clone()))
                    }
                    ("GET", false) if last == "jobs" => (200, list(batch_jobs.unwrap_or_default())),
                    ("GET", false) => (200, list(Vec::new())),
                    ("GET", true)
                        if path.starts_with("/apis/batch/v1/") && batch_jobs.is_some() =>
                    {
                        match batch_jobs
                            .unwrap_or_default()
                            .into_iter()
                            .find(|j| j["metadata"]["name"] == last)
                        {
                            Some(job) => (200, job),
                            None => (
                                404,
                                json!({ "apiVersion": "v1", "kind": "Status", "metadata": {},
                                "status": "Failure", "reason": "NotFound", "code": 404 }),
                            ),
                        }
                    }
                    // A cleanup Job (the only batch Job Berth makes) has done its work.
                    ("GET", true) if path.starts_with("/apis/batch/v1/") => (
                        200,
                        json!({ "apiVersion": "batch/v1", "kind": "Job",
                            "metadata": { "name": last, "namespace": NAMESPACE, "resourceVersion": "8" },
                            "spec": { "template": { "spec": { "containers": [] } } },
                            "status": { "conditions": [{ "type": "Complete", "status": "True" }] } }),
                    ),
                    ("GET", true) => (
                        404,
                        json!({ "apiVersion": "v1", "kind": "Status", "metadata": {},
                        "status": "Failure", "reason": "NotFound", "code": 404 }),
                    ),
                    ("PATCH", true) => {
                        let mut object: Value = serde_json::from_slice(&body).expect("JSON");
                        object["metadata"]["uid"] = json!(format!("uid-{last}-new"));
                        object["metadata"]["resourceVersion"] = json!("4");
                        (200, object)
                    }
                    ("DELETE", true) => (
                        200,
                        json!({ "apiVersion": "v1", "kind": "Status", "metadata": {}, "status": "Success" }),
                    ),
                    _ => (200, list(Vec::new())),
                };
                let body = http_body_util::Full::new(bytes::Bytes::from(
                    serde_json::to_vec(&answer).expect("json"),
                ))
                .map_err(|never| match never {});
                send.send_response(
                    http::Response::builder()
                        .status(status)
                        .body(BodyExt::boxed_unsync(body))
                        .expect("a response"),
                );
            }
        });
        (kube::Client::new(service, "default"), cluster)
    }

    /// The deletes of one object, by its path.
    fn deletes(&self, path: &str) -> usize {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .filter(|(method, p)| method == "DELETE" && p == path)
            .count()
    }

    /// Sends a watch event to every watch of `path`, once one is open.
    async fn push(&self, path: &str, kind: &str, object: Value) {
        for _ in 0..300 {
            let open: Vec<_> = self
                .watches
                .lock()
                .unwrap()
                .iter()
                .filter(|(p, _)| p == path)
                .map(|(_, tx)| tx.clone())
                .collect();
            if !open.is_empty() {
                for tx in open {
                    let _ = tx.send(json!({ "type": kind, "object": object }));
                }
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("nothing watches {path}");
    }
}

use futures_util::StreamExt as _;

/// The job of `id`'s attempt `attempt` as the cluster holds it, with these conditions.
fn job(id: &str, attempt: u32, conditions: &[(&str, &str)]) -> Value {
    json!({
        "apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob",
        "metadata": { "name": id, "namespace": NAMESPACE, "uid": format!("uid-{id}"), "resourceVersion": "3",
            "labels": { "berth.io/attempt": attempt.to_string(), "berth.dev/task": id } },
        "spec": { "pytorchReplicaSpecs": {} },
        "status": { "conditions": conditions.iter().map(|(kind, status)| json!({
            "type": kind, "status": status, "reason": format!("PyTorchJob{kind}"), "message": format!("job is {kind}")
        })).collect::<Vec<_>>() }
    })
}

/// Where the demo PyTorchJob's group (`nlp`) runs.
const NAMESPACE: &str = "berth-nlp";

fn job_path(id: &str) -> String {
    format!("/apis/kubeflow.org/v1/namespaces/{NAMESPACE}/pytorchjobs/{id}")
}

/// A task run to `phase` by a first server (the scripted backend), on `data`.
async fn ran_before(data: &std::path::Path, spec: &Value, attempt: u64) -> (String, Value) {
    let backend = JobBackend::new();
    let first = app_on(data, backend).await;
    let id = submit(&first, spec).await;
    // Running in that attempt: `fail-then-hold`'s first attempt runs a moment too, and
    // a restart read then would find another task than the test means.
    let mut task = wait_for_phase(&first, &id, "running").await;
    for _ in 0..300 {
        if task["attempts"] == attempt && task["phase"] == "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        task = get(&first, &format!("/api/v1/tasks/{id}")).await.1;
    }
    assert_eq!(task["attempts"], attempt, "{task}");
    let (_, catalog) = get(&first, "/api/v1/catalog").await;
    assert_eq!(task["spec"]["basic"]["project_group"], "nlp", "{task}");
    (id, catalog["usage"].clone())
}

/// The server restarted on `data` with the Kubernetes backend over `cluster`'s client.
async fn restarted(data: &std::path::Path, client: kube::Client) -> Router {
    restarted_with(data, client, |_| {}).await
}

/// [`restarted`] with what runs outside Berth changed first.
async fn restarted_with(
    data: &std::path::Path,
    client: kube::Client,
    outside: impl FnOnce(&mut shared::Usage),
) -> Router {
    let catalog = Arc::new(shared::demo::catalog());
    let backend = server::backend::kube::KubeBackend::new(
        client,
        server::backend::kube::KubeSettings::default(),
        catalog,
    );
    app_on_with(data, Arc::new(backend), outside).await
}

/// A pod outside Berth's namespaces holding a whole A100 node of the demo's `sh-a`.
fn outside_pod(node: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": { "name": format!("other-{node}"), "namespace": "someone-else" },
        "spec": { "nodeName": node, "containers": [{ "name": "main", "resources": {
            "requests": { "nvidia.com/gpu": "8", "cpu": "96", "memory": "960Gi" } } }] },
        "status": { "phase": "Running" }
    })
}

/// README (Kubernetes, usage): what pods outside Berth request is read again while the
/// server runs, not only at its start. Others' pods fill the 8 A100 nodes of `sh-a`: the
/// catalog's usage says so, and a task submitted then queues; once they are gone, the
/// next read gives the room back and the task starts by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usage_outside_berth_is_read_again_and_a_task_starts_when_it_frees() {
    let data = temp_dir("data");
    let (client, cluster) = Cluster::start(Vec::new());
    let catalog = shared::demo::catalog();
    let nodes: Vec<String> = catalog
        .nodes()
        .filter(|n| n.name.starts_with("sh-a-a100-"))
        .map(|n| n.name.clone())
        .collect();
    assert_eq!(nodes.len(), 8, "{nodes:?}");
    *cluster.pods.lock().unwrap() = nodes.iter().map(|n| outside_pod(n)).collect();
    let kube = Arc::new(server::backend::kube::KubeBackend::new(
        client,
        server::backend::kube::KubeSettings::default(),
        Arc::new(catalog),
    ));
    let (app, runner) = served(&data, Arc::clone(&kube) as Arc<dyn Backend>, |_| {}).await;
    server::follow_outside_usage(
        kube,
        Arc::downgrade(&runner),
        Duration::from_millis(100),
        false,
    );
    let gpus_taken = |usage: &Value| -> u64 {
        nodes
            .iter()
            .map(|n| usage["nodes"][n]["gpu"].as_u64().unwrap_or(0))
            .sum()
    };
    let mut usage = Value::Null;
    for _ in 0..100 {
        usage = get(&app, "/api/v1/catalog").await.1["usage"].clone();
        if gpus_taken(&usage) == 64 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(gpus_taken(&usage), 64, "{usage}");
    let id = submit(&app, &spec("python train.py")).await;
    let task = wait_for_phase(&app, &id, "queued").await;
    assert_eq!(task["phase"], "queued", "{task}");
    // The others' pods end.
    cluster.pods.lock().unwrap().clear();
    let mut task = task;
    for _ in 0..100 {
        task = get(&app, &format!("/api/v1/tasks/{id}")).await.1;
        if task["phase"] != "queued" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_ne!(task["phase"], "queued", "{task}");
    let usage = get(&app, "/api/v1/catalog").await.1["usage"].clone();
    // What is taken now is the task's own: its two replicas of two GPUs.
    assert_eq!(gpus_taken(&usage), 4, "{usage}");
}

/// A job whose place is taken meanwhile (the cluster's other work now fills its node)
/// is not taken back: it would run on holding nothing, its node and quota handed out
/// again. It is deleted, and its task re-run or failed as after a crash.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_whose_place_is_gone_is_not_taken_back() {
    let data = temp_dir("data");
    let (id, _) = ran_before(&data, &spec("hold"), 1).await;
    let (client, cluster) = Cluster::start(vec![job(&id, 1, &[("Running", "True")])]);
    let catalog = shared::demo::catalog();
    let app = restarted_with(&data, client, |usage| {
        for node in catalog.nodes() {
            usage.nodes.insert(node.name.clone(), node.total);
        }
    })
    .await;
    // The example re-runs per its fault tolerance: it waits for room again.
    let rerun = wait_for_events(&app, &id, "retrying", 1).await;
    assert_eq!(
        rerun,
        [
            "the server stopped while it ran; re-running it (fault tolerance is on; this uses none of its retries)"
        ]
    );
    assert_eq!(cluster.deletes(&job_path(&id)), 1, "the job is not kept");
    assert_eq!(events_of(&app, &id, "job").await, Vec::<String>::new());
}

/// README, the Kubernetes backend, Restart: a job of a running task's attempt that
/// still runs is taken back: not deleted, the task running on in its place, no retry
/// and no "interrupted", one event saying so, and its end reported when it comes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_takes_back_a_running_job_and_hears_its_end() {
    let data = temp_dir("data");
    let (id, usage) = ran_before(&data, &spec("hold"), 1).await;
    let (client, cluster) = Cluster::start(vec![job(&id, 1, &[("Running", "True")])]);
    let app = restarted(&data, client).await;

    let task = wait_for_phase(&app, &id, "running").await;
    assert_eq!(task["attempts"], 1, "{task}");
    assert_eq!(cluster.deletes(&job_path(&id)), 0, "the job is kept");
    let (_, catalog) = get(&app, "/api/v1/catalog").await;
    assert_eq!(catalog["usage"], usage, "its place is still held");
    assert_eq!(
        events_of(&app, &id, "job").await,
        [
            "attempt 1: the restarted server took its job back; the job ran on while the server was stopped"
        ]
    );
    assert_eq!(events_of(&app, &id, "retrying").await, Vec::<String>::new());
    let (_, events) = get(&app, &format!("/api/v1/tasks/{id}/events")).await;
    assert!(
        !events.to_string().contains("the server stopped"),
        "{events}"
    );

    cluster
        .push(
            &format!("/apis/kubeflow.org/v1/namespaces/{NAMESPACE}/pytorchjobs"),
            "MODIFIED",
            job(&id, 1, &[("Running", "False"), ("Succeeded", "True")]),
        )
        .await;
    let done = wait_for_phase(&app, &id, "succeeded").await;
    assert_eq!(
        phases(&done),
        ["queued", "scheduling", "running", "succeeded"]
    );
}

/// README, the Kubernetes backend, Restart: an API server that does not answer yet when
/// Berth restarts (503 while it starts) is asked again, its probe and then its list of
/// jobs, and the job is taken back as when it answered at once: not deleted, no re-run
/// beside it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_waits_for_an_api_server_that_is_starting_and_takes_the_job_back() {
    let data = temp_dir("data");
    let (id, _) = ran_before(&data, &spec("hold"), 1).await;
    let (client, cluster) = Cluster::start_failing(
        vec![job(&id, 1, &[("Running", "True")])],
        &[("events", 2), ("pytorchjobs", 1)],
    );
    let app = restarted(&data, client).await;

    let task = wait_for_phase(&app, &id, "running").await;
    assert_eq!(task["attempts"], 1, "{task}");
    assert_eq!(cluster.deletes(&job_path(&id)), 0, "the job is kept");
    assert_eq!(
        events_of(&app, &id, "job").await,
        [
            "attempt 1: the restarted server took its job back; the job ran on while the server was stopped"
        ]
    );
    assert_eq!(events_of(&app, &id, "retrying").await, Vec::<String>::new());
}

/// SPEC.md section 6, "clean up on exit", on a cluster (README, the Kubernetes backend):
/// a RayJob whose spec asks for it gets, at its end, the Job that removes its directory
/// of the shared volume; Berth follows that Job, and the task's events say the
/// directory was removed once it has completed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rayjob_that_ends_gets_the_job_that_cleans_its_shared_storage() {
    let data = temp_dir("data");
    let (client, cluster) = Cluster::start(Vec::new());
    let backend = server::backend::kube::KubeBackend::new(
        client,
        server::backend::kube::KubeSettings::default(),
        Arc::new(shared::demo::catalog()),
    );
    let app = app_on(&data, Arc::new(backend)).await;
    let spec: Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).expect("JSON");
    assert_eq!(spec["ray"]["shared_storage"]["clean_on_exit"], true);
    let id = submit(&app, &spec).await;
    let namespace = server::backend::kube::KubeSettings::default()
        .namespace_for(spec["basic"]["project_group"].as_str().expect("a group"))
        .expect("a namespace");
    let jobs = format!("/apis/ray.io/v1/namespaces/{namespace}/rayjobs");
    let cleanup = format!("/apis/batch/v1/namespaces/{namespace}/jobs/{id}-clean");
    let patched = |path: &str| {
        cluster
            .seen
            .lock()
            .unwrap()
            .iter()
            .filter(|(method, p)| method == "PATCH" && p == path)
            .count()
    };
    // Applied, not ended: nothing is cleaned while it runs.
    for _ in 0..300 {
        if patched(&format!("{jobs}/{id}")) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(patched(&format!("{jobs}/{id}")), 1, "the RayJob is applied");
    assert_eq!(patched(&cleanup), 0);

    cluster
        .push(
            &jobs,
            "MODIFIED",
            json!({
                "apiVersion": "ray.io/v1", "kind": "RayJob",
                "metadata": { "name": id, "namespace": namespace, "uid": format!("uid-{id}-new"),
                    "resourceVersion": "5", "labels": { "berth.io/attempt": "1" } },
                "spec": {},
                "status": { "jobDeploymentStatus": "Complete", "jobStatus": "SUCCEEDED" }
            }),
        )
        .await;
    wait_for_phase(&app, &id, "succeeded").await;
    for _ in 0..100 {
        if patched(&cleanup) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(patched(&cleanup), 1, "the cleanup Job is applied once");
    let told = wait_for_events(&app, &id, "cluster", 2).await;
    assert_eq!(told.len(), 2, "{told:?}");
    let (_, task) = get(&app, &format!("/api/v1/tasks/{id}")).await;
    let storage = &task["spec"]["ray"]["shared_storage"];
    let volume = storage["volume"].as_str().expect("a volume");
    // The task's directory of the volume's claim (its pods' `subPath`): the cleanup is
    // said under way once applied, then its end.
    assert_eq!(
        told,
        [
            format!(
                "attempt 1: Job {id}-clean removes the directory {id} of volume claim {volume} in namespace {namespace}; its end is told here"
            ),
            format!(
                "attempt 1: Job {id}-clean: removed the directory {id} of volume claim {volume} in namespace {namespace}"
            ),
        ]
    );
}

/// The cleanup Job of the RayJob `id` as the cluster lists it (as Berth applies it),
/// created a minute ago, with these conditions.
fn cleanup_job(id: &str, namespace: &str, volume: &str, conditions: &[&str]) -> Value {
    let created =
        k8s_openapi::jiff::Timestamp::now() - k8s_openapi::jiff::SignedDuration::from_secs(60);
    json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": { "name": format!("{id}-clean"), "namespace": namespace, "resourceVersion": "8",
            "creationTimestamp": created.to_string(), "labels": { "berth.dev/cleans": id } },
        "spec": { "activeDeadlineSeconds": 1860, "template": { "spec": {
            "containers": [{ "name": "clean", "image": "busybox:1.37",
                "command": ["sh", "-c", "rm", "clean", "0", id] }],
            "volumes": [{ "name": "shared", "persistentVolumeClaim": { "claimName": volume } }] } } },
        "status": { "conditions": conditions.iter().map(|kind| json!({ "type": kind, "status": "True" })).collect::<Vec<_>>() }
    })
}

/// Brief kube9 item 2 (README, the Kubernetes backend): a server that restarts while
/// the cleanup Job of a RayJob's shared storage runs follows it again and tells its end
/// once; one that restarts after that end was told tells nothing more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cleanup_under_way_at_a_restart_is_followed_and_its_end_told_once() {
    let data = temp_dir("data");
    let spec: Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).expect("JSON");
    let namespace = server::backend::kube::KubeSettings::default()
        .namespace_for(spec["basic"]["project_group"].as_str().expect("a group"))
        .expect("a namespace");
    let volume = spec["ray"]["shared_storage"]["volume"]
        .as_str()
        .expect("a volume")
        .to_owned();
    // The first server: its cleanup Job runs on past its life.
    let (client, first) = Cluster::start(Vec::new());
    *first.batch.lock().unwrap() = Some(Vec::new());
    let app = restarted(&data, client).await;
    let id = submit(&app, &spec).await;
    let jobs = format!("/apis/ray.io/v1/namespaces/{namespace}/rayjobs");
    *first.batch.lock().unwrap() = Some(vec![cleanup_job(&id, &namespace, &volume, &[])]);
    first
        .push(
            &jobs,
            "MODIFIED",
            json!({
                "apiVersion": "ray.io/v1", "kind": "RayJob",
                "metadata": { "name": id, "namespace": namespace, "uid": format!("uid-{id}-new"),
                    "resourceVersion": "5", "labels": { "berth.io/attempt": "1" } },
                "spec": {},
                "status": { "jobDeploymentStatus": "Complete", "jobStatus": "SUCCEEDED" }
            }),
        )
        .await;
    wait_for_phase(&app, &id, "succeeded").await;
    let under_way = format!(
        "attempt 1: Job {id}-clean removes the directory {id} of volume claim {volume} in namespace {namespace}; its end is told here"
    );
    assert_eq!(
        wait_for_events(&app, &id, "cluster", 1).await,
        std::slice::from_ref(&under_way)
    );
    drop(app);

    // Restarted while it runs; it completes: its end is told, once.
    let (client, second) = Cluster::start(Vec::new());
    *second.batch.lock().unwrap() =
        Some(vec![cleanup_job(&id, &namespace, &volume, &["Complete"])]);
    let app = restarted(&data, client).await;
    let removed = format!(
        "attempt 1: Job {id}-clean: removed the directory {id} of volume claim {volume} in namespace {namespace}"
    );
    let told = wait_for_events(&app, &id, "cluster", 2).await;
    assert_eq!(told, [under_way.clone(), removed.clone()]);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(events_of(&app, &id, "cluster").await.len(), 2);
    drop(app);

    // Restarted again, the Job still there (its TTL not run out): nothing more is told,
    // nor is it looked at.
    let (client, third) = Cluster::start(Vec::new());
    *third.batch.lock().unwrap() = Some(vec![cleanup_job(&id, &namespace, &volume, &["Complete"])]);
    let app = restarted(&data, client).await;
    let listed = || {
        third.seen.lock().unwrap().iter().any(|(method, p)| {
            method == "GET" && p == &format!("/apis/batch/v1/namespaces/{namespace}/jobs")
        })
    };
    for _ in 0..100 {
        if listed() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(listed(), "the restart looks for cleanup Jobs");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(events_of(&app, &id, "cluster").await, [under_way, removed]);
    let looked = third
        .seen
        .lock()
        .unwrap()
        .iter()
        .filter(|(method, p)| method == "GET" && p.ends_with(&format!("/jobs/{id}-clean")))
        .count();
    assert_eq!(
        looked, 0,
        "a cleanup whose end was told is not followed again"
    );
}

/// A stop after the restart deletes the job taken back; the task is stopped once the
/// job is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_taken_back_is_deleted_by_a_stop() {
    let data = temp_dir("data");
    let (id, _) = ran_before(&data, &spec("hold"), 1).await;
    let (client, cluster) = Cluster::start(vec![job(&id, 1, &[("Running", "True")])]);
    let app = restarted(&data, client).await;
    wait_for_phase(&app, &id, "running").await;
    assert_eq!(cluster.deletes(&job_path(&id)), 0);

    let request = Request::post(format!("/api/v1/tasks/{id}/stop"))
        .body(Body::empty())
        .expect("a request");
    let (status, answer) = super::answer(&app, request).await;
    assert!(status.is_success(), "{status}: {answer}");
    for _ in 0..100 {
        if cluster.deletes(&job_path(&id)) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        cluster.deletes(&job_path(&id)),
        1,
        "the stop deletes the job"
    );
    cluster
        .push(
            &format!("/apis/kubeflow.org/v1/namespaces/{NAMESPACE}/pytorchjobs"),
            "DELETED",
            job(&id, 1, &[("Running", "True")]),
        )
        .await;
    let stopped = wait_for_phase(&app, &id, "stopped").await;
    assert_eq!(
        stopped["history"].as_array().unwrap().last().unwrap()["reason"],
        "by a user"
    );
}

/// A job that failed while the server was down fails its attempt as it would have
/// live: fault tolerance re-runs the task as attempt 2, with the operator's reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_that_failed_while_the_server_was_down_is_retried_per_fault_tolerance() {
    let data = temp_dir("data");
    let mut spec = spec("hold");
    spec["advanced"]["fault_tolerance"] = json!({ "enabled": true, "max_retries": 1 });
    let (id, _) = ran_before(&data, &spec, 1).await;
    let (client, _cluster) = Cluster::start(vec![job(&id, 1, &[("Failed", "True")])]);
    let app = restarted(&data, client).await;

    let mut task = Value::Null;
    for _ in 0..300 {
        (_, task) = get(&app, &format!("/api/v1/tasks/{id}")).await;
        if task["attempts"] == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(task["attempts"], 2, "{task}");
    let retried = events_of(&app, &id, "retrying").await;
    assert_eq!(retried.len(), 1, "{retried:?}");
    assert!(retried[0].contains("job is Failed"), "{retried:?}");
    let (_, events) = get(&app, &format!("/api/v1/tasks/{id}/events")).await;
    assert!(
        !events
            .to_string()
            .contains("the server stopped while it ran"),
        "{events}"
    );
}

/// A job of an older attempt than the store's is deleted (by uid), and the task is
/// re-run as after any restart that found its attempt gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_of_an_older_attempt_is_deleted_at_the_restart() {
    let data = temp_dir("data");
    let mut spec = spec("fail-then-hold");
    spec["advanced"]["fault_tolerance"] = json!({ "enabled": true, "max_retries": 3 });
    let (id, _) = ran_before(&data, &spec, 2).await;
    let (client, cluster) = Cluster::start(vec![job(&id, 1, &[("Running", "True")])]);
    let app = restarted(&data, client).await;

    assert_eq!(
        cluster.deletes(&job_path(&id)),
        1,
        "the older attempt's job goes"
    );
    let rerun = events_of(&app, &id, "retrying").await;
    assert_eq!(rerun.len(), 2, "{rerun:?}");
    assert_eq!(
        rerun[1],
        "the server stopped while it ran; re-running it (fault tolerance is on; this uses none of its retries)"
    );
    assert_eq!(events_of(&app, &id, "job").await, Vec::<String>::new());
}

/// A job that failed before any pod of it ran is retried after its wait as any failed
/// attempt is: the task waits retrying, its retry counted meanwhile, then runs again
/// (review: with a wait, the task stayed "scheduling", and its retry's start failed it
/// as a scheduling task that cannot become scheduling).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_that_failed_before_it_ran_is_retried_after_its_wait() {
    let backoff = server::runner::Backoff {
        base: Duration::from_secs(1),
        cap: Duration::from_secs(1),
    };
    let (app, _) = served_with(
        &temp_dir("unstarted-data"),
        JobBackend::new(),
        |_| {},
        backoff,
    )
    .await;
    let mut spec = spec("fail-unstarted");
    spec["advanced"]["fault_tolerance"] = json!({ "enabled": true, "max_retries": 1 });
    let id = submit(&app, &spec).await;
    let waiting = wait_for_phase(&app, &id, "retrying").await;
    assert_eq!(
        waiting["retries_used"], 1,
        "counted while it waits: {waiting}"
    );
    let running = wait_for_phase(&app, &id, "running").await;
    assert_eq!(
        phases(&running),
        [
            "queued",
            "scheduling",
            "retrying",
            "queued",
            "scheduling",
            "running"
        ]
    );
    assert_eq!(running["attempts"], 2, "{running}");
    assert_eq!(running["retries_used"], 1, "{running}");
}

/// A task the server stopped while it was starting (scheduling, its pods not yet up)
/// had not run: it goes back to the queue whatever its fault tolerance, its step and an
/// event saying so, and counts as a re-run, not a retry (restarts explorer: it was failed
/// as one that "ran").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_still_starting_at_a_restart_queues_again_even_without_fault_tolerance() {
    let data = temp_dir("starting-data");
    let backend = JobBackend::new();
    let first = app_on(&data, backend).await;
    let mut pending = spec("pending");
    pending["advanced"]["fault_tolerance"] = json!({ "enabled": false, "max_retries": 1 });
    let id = submit(&first, &pending).await;
    wait_for_phase(&first, &id, "scheduling").await;
    let (client, _cluster) = Cluster::start(Vec::new());
    let app = restarted(&data, client).await;
    let (_, task) = get(&app, &format!("/api/v1/tasks/{id}")).await;
    assert_ne!(task["phase"], "failed", "{task}");
    // Counted as a re-run once its next attempt begins.
    let mut again = task.clone();
    for _ in 0..300 {
        if again["attempts"] == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        again = get(&app, &format!("/api/v1/tasks/{id}")).await.1;
    }
    assert_eq!(again["reruns"], 1, "{again}");
    assert_eq!(again["retries_used"], Value::Null, "{again}");
    let said = "the server stopped while the task was starting; it goes back to the queue \
                (this uses none of its retries)";
    let steps = task["history"].as_array().expect("a history");
    assert_eq!(steps[2]["phase"], "queued", "{task}");
    assert_eq!(steps[2]["reason"], said, "{task}");
    let queued = events_of(&app, &id, "queued").await;
    assert!(queued.iter().any(|e| e.contains(said)), "{queued:?}");
}

/// A "running longer than" alert sent before Kueue evicted the job is not sent again
/// once the job is re-admitted and runs on as the same attempt: the attempt's time
/// running counts from its first start (README "Alerts").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_longer_than_alert_is_not_sent_again_after_an_eviction() {
    let backend = JobBackend::new();
    let data = temp_dir("evicted-alert-data");
    let (app, runner) = served(&data, Arc::clone(&backend) as Arc<dyn Backend>, |_| {}).await;
    let mut spec = spec("hold");
    // No mail relay: the alert is recorded as not sent, which counts as fired.
    spec["advanced"]["alerts"] = json!([
        { "event": "running_longer_than", "threshold": 2, "channel": "email", "target": "bob@example.com" },
    ]);
    let id = submit(&app, &spec).await;
    let running = wait_for_phase(&app, &id, "running").await;
    let started = running["history"][2]["at"]
        .as_i64()
        .expect("when it started");
    const HOUR: i64 = 3_600_000;
    runner
        .sweep_alerts_at(shared::Timestamp(started + 2 * HOUR + 1))
        .await;
    assert_eq!(events_of(&app, &id, "alert").await.len(), 1);

    let task = TaskId(id.clone());
    let evicted = Event::Requeued {
        task: task.clone(),
        attempt: 1,
        why: Message::new("event.kube.evicted"),
    };
    let _ = backend.events.send(evicted);
    wait_for_phase(&app, &id, "scheduling").await;
    let _ = backend.events.send(Event::Started { task, attempt: 1 });
    for _ in 0..300 {
        let (_, task) = get(&app, &format!("/api/v1/tasks/{id}")).await;
        if phases(&task).len() == 5 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (_, task) = get(&app, &format!("/api/v1/tasks/{id}")).await;
    assert_eq!(
        phases(&task),
        ["queued", "scheduling", "running", "scheduling", "running"]
    );
    runner
        .sweep_alerts_at(shared::Timestamp(started + 10 * HOUR))
        .await;
    assert_eq!(
        events_of(&app, &id, "alert").await.len(),
        1,
        "sent again after the eviction"
    );
    stop(&app, &id).await;
}

/// Takes back every attempt it is given once the test lets it, as a Kubernetes backend
/// whose API server answers slowly; a stop ends the attempt stopped, and records whether
/// the job had been taken back by then.
struct SlowTakeBack {
    events: broadcast::Sender<Event>,
    release: tokio::sync::Semaphore,
    asked: std::sync::atomic::AtomicBool,
    taken: Mutex<Vec<TaskId>>,
    stops: Mutex<Vec<(TaskId, u32, bool)>>,
}

#[async_trait::async_trait]
impl Backend for SlowTakeBack {
    async fn start(&self, gang: Gang) -> Result<(), BackendError> {
        panic!(
            "nothing starts while the restart takes jobs back: {}",
            gang.task
        );
    }

    async fn stop(
        &self,
        task: &TaskId,
        attempt: u32,
        _grace: Duration,
    ) -> Result<(), BackendError> {
        let taken = self.taken.lock().unwrap().contains(task);
        self.stops
            .lock()
            .unwrap()
            .push((task.clone(), attempt, taken));
        let _ = self.events.send(Event::Finished {
            task: task.clone(),
            attempt,
            failure: Some(Arg::Message(Message::new("event.stopped"))),
        });
        Ok(())
    }

    async fn take_back(
        &self,
        running: &[server::backend::Resumable],
    ) -> server::backend::TakenBack {
        self.asked.store(true, std::sync::atomic::Ordering::SeqCst);
        let _ = self.release.acquire().await.expect("open");
        let taken: Vec<TaskId> = running.iter().map(|r| r.task.clone()).collect();
        self.taken.lock().unwrap().clone_from(&taken);
        server::backend::TakenBack { ended: 0, taken }
    }

    fn events(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    fn log_path(&self, _task: &TaskId, _attempt: u32, _replica: u32) -> PathBuf {
        PathBuf::from("/nonexistent/berth/log")
    }
}

/// Brief srv8 item 4 (README, the Kubernetes backend, Restart): while a restart's
/// take-back waits on a slow API server, a stop of the task it takes back is answered
/// at once (Stopping), as is the running count the metrics read; the stop reaches the
/// backend only once it has taken the job back, after the event saying so, and ends
/// the task stopped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_take_back_holds_up_neither_a_stop_nor_the_running_count() {
    let data = temp_dir("data");
    let (id, _) = ran_before(&data, &spec("hold"), 1).await;
    let backend = Arc::new(SlowTakeBack {
        events: broadcast::channel(64).0,
        release: tokio::sync::Semaphore::new(0),
        asked: std::sync::atomic::AtomicBool::new(false),
        taken: Mutex::default(),
        stops: Mutex::default(),
    });
    let config = server::Config {
        data_dir: data.clone(),
        ..server::Config::demo(temp_dir("dist"))
    };
    let state = server::AppState::new(config).expect("the demo state");
    let store = server::store::SqliteStore::open(&data.join("berth.db"))
        .await
        .expect("the store opens");
    let runner = Arc::new(
        server::runner::Runner::new(
            Arc::clone(&state.catalog),
            (*state.usage).clone(),
            Arc::new(store),
            Arc::clone(&backend) as Arc<dyn Backend>,
            data.clone(),
        )
        .with_backoff(server::runner::Backoff::NONE),
    );
    runner.watch();
    let recovering = tokio::spawn({
        let runner = Arc::clone(&runner);
        async move { runner.recover().await }
    });
    for _ in 0..300 {
        if backend.asked.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(backend.asked.load(std::sync::atomic::Ordering::SeqCst));

    let soon = Duration::from_secs(2);
    let running = tokio::time::timeout(soon, runner.running_count())
        .await
        .expect("the running count is not held up by the take-back");
    assert_eq!(running, 1, "the attempt being taken back");
    let task = TaskId(id.clone());
    let stopping = tokio::time::timeout(soon, runner.stop(&task))
        .await
        .expect("a stop is not held up by the take-back")
        .expect("a running task stops");
    assert_eq!(
        stopping.task.phase,
        shared::record::TaskPhase::Running,
        "{stopping:?}"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        backend.stops.lock().unwrap().is_empty(),
        "the backend is asked to stop a job it tracks, after the take-back"
    );

    backend.release.add_permits(1);
    recovering
        .await
        .expect("the recovery ends")
        .expect("the store is read");
    let mut phase = None;
    for _ in 0..300 {
        phase = Some(
            runner
                .store()
                .get(&task)
                .await
                .expect("the task")
                .task
                .phase,
        );
        if phase == Some(shared::record::TaskPhase::Stopped) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(phase, Some(shared::record::TaskPhase::Stopped));
    assert_eq!(*backend.stops.lock().unwrap(), [(task.clone(), 1, true)]);
    let kinds: Vec<String> = runner
        .store()
        .events(&task)
        .await
        .expect("events")
        .into_iter()
        .map(|e| e.kind)
        .filter(|k| ["job", "stopping", "stopped", "retrying"].contains(&k.as_str()))
        .collect();
    assert_eq!(kinds, ["stopping", "job", "stopped"]);
}
