//! The runner over the local backend when what it hears goes wrong: backend events lost
//! to a receiver that fell behind, a stop that finds nothing running.

use super::kube::{app_on, get, stop, wait_for_phase};
use super::{pytorch, submit, temp_dir};
use axum::Router;
use axum::body::Body;
use axum::http::Request;
use server::backend::local::LocalBackend;
use server::backend::{Backend, BackendError, Event, Gang};
use shared::TaskId;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::broadcast;

/// How [`Lossy`] passes on the local backend's exits.
#[derive(Clone, Copy)]
enum Loss {
    /// Held until `n` have come, then sent at once into a channel of one: the runner's
    /// receiver falls behind and loses all but the last, as it lost 171 of 1,001 exits.
    Burst(usize),
    /// Never passed on, with nothing to say so (only a stop can find it out).
    Silent,
}

/// The local backend, its events passed on to the runner through a channel of
/// capacity one, its exits as [`Loss`] says.
struct Lossy {
    inner: Arc<LocalBackend>,
    out: broadcast::Sender<Event>,
    dropped: Arc<AtomicUsize>,
}

impl Lossy {
    fn new(data: PathBuf, loss: Loss) -> Self {
        let inner = Arc::new(LocalBackend::new(data, |_| 8));
        let out = broadcast::channel(1).0;
        let dropped = Arc::new(AtomicUsize::new(0));
        let mut from = inner.events();
        let (to, gone) = (out.clone(), Arc::clone(&dropped));
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok(event) = from.recv().await {
                match (event, loss) {
                    (exit @ Event::Exited { .. }, Loss::Burst(n)) => {
                        held.push(exit);
                        if held.len() == n {
                            // No await between the sends: the runner reads none of them
                            // in between.
                            for exit in held.drain(..) {
                                let _ = to.send(exit);
                            }
                        }
                    }
                    (Event::Exited { .. }, Loss::Silent) => {
                        gone.fetch_add(1, Ordering::SeqCst);
                    }
                    (other, _) => {
                        let _ = to.send(other);
                    }
                }
            }
        });
        Self {
            inner,
            out,
            dropped,
        }
    }
}

#[async_trait::async_trait]
impl Backend for Lossy {
    async fn start(&self, gang: Gang) -> Result<(), BackendError> {
        self.inner.start(gang).await
    }

    async fn stop(&self, task: &TaskId, attempt: u32, grace: Duration) -> Result<(), BackendError> {
        self.inner.stop(task, attempt, grace).await
    }

    fn events(&self) -> broadcast::Receiver<Event> {
        self.out.subscribe()
    }

    fn replays(&self) -> bool {
        self.inner.replays()
    }

    async fn replay(&self, task: &TaskId, attempt: u32) -> Vec<Event> {
        self.inner.replay(task, attempt).await
    }

    fn leftovers_are_local(&self) -> bool {
        true
    }

    fn log_path(&self, task: &TaskId, attempt: u32, replica: u32) -> PathBuf {
        self.inner.log_path(task, attempt, replica)
    }
}

/// The `exited` events of a task.
async fn exits(app: &Router, id: &str) -> usize {
    let (_, events) = get(app, &format!("/api/v1/tasks/{id}/events")).await;
    events
        .as_array()
        .expect("a list of events")
        .iter()
        .filter(|e| e["kind"] == "exited")
        .count()
}

/// Issue: a task stayed `running` for ever with 830 of its 1,001 exits heard, its stop
/// doing nothing and its delete refused, when the runner fell behind the local
/// backend's events and lost some. It reads the attempts again from the backend.
/// (On a runtime of one thread, so the burst is never read in between.)
#[tokio::test]
async fn exits_lost_to_a_receiver_that_fell_behind_still_end_the_task() {
    let data = temp_dir("lost-exits");
    let backend = Arc::new(Lossy::new(data.clone(), Loss::Burst(2)));
    let app = app_on(&data, backend).await;
    let id = submit(&app, &pytorch("true")).await;
    wait_for_phase(&app, &id, "succeeded").await;
    // Each exit once: the one the runner received is not told again by the replay.
    assert_eq!(exits(&app, &id).await, 2);
}

/// A stop of a task whose replicas the backend no longer runs (their exits lost)
/// still ends it: it stayed `running`, the backend saying "not running" to every stop.
#[tokio::test]
async fn a_stop_that_finds_nothing_running_still_ends_the_task() {
    let data = temp_dir("lost-exits-stop");
    let backend = Arc::new(Lossy::new(data.clone(), Loss::Silent));
    let dropped = Arc::clone(&backend.dropped);
    let app = app_on(&data, backend).await;
    let id = submit(&app, &pytorch("true")).await;
    wait_for_phase(&app, &id, "running").await;
    for _ in 0..200 {
        if dropped.load(Ordering::SeqCst) == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(dropped.load(Ordering::SeqCst), 2, "both replicas ended");
    // A while after they ended: their ends are dated when they were, not at the stop.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let asked = server::runner::now().0 - 1000;
    stop(&app, &id).await;
    // Their ends are told, as they came.
    assert_eq!(exits(&app, &id).await, 2);
    let (_, events) = get(&app, &format!("/api/v1/tasks/{id}/events")).await;
    let ended = super::event_times(&events, "exited");
    assert!(
        ended.iter().all(|at| *at < asked),
        "{ended:?} before {asked}"
    );
}

/// Issue: a deleted task's folder (its logs, which may have printed a secret, and its
/// replicas' folders) stayed on disk for ever. A delete removes it; a task not deleted
/// keeps its logs; a folder left by a delete this server did not make (another server's,
/// or one while it was down) goes at the sweep after a start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_tasks_folder_is_removed_and_a_kept_tasks_logs_stay() {
    let data = temp_dir("deleted-folders");
    let state = super::demo_state_with(|config| config.data_dir = data.clone()).await;
    let runner = state.runner.clone().expect("a runner");
    let app = server::app(state);
    let deleted = submit(&app, &pytorch("echo secret")).await;
    let kept = submit(&app, &pytorch("echo kept")).await;
    for id in [&deleted, &kept] {
        wait_for_phase(&app, id, "succeeded").await;
    }
    let folder = data.join("tasks").join(&deleted);
    let log = folder.join("attempt-1/replica-0.log");
    let secret = std::fs::read_to_string(&log).expect("its log");
    let request = Request::delete(format!("/api/v1/tasks/{deleted}"))
        .body(Body::empty())
        .expect("a request");
    let (status, answer) = super::answer(&app, request).await;
    assert!(status.is_success(), "{status}: {answer}");
    // Removed off the request's thread: soon after the answer.
    for _ in 0..200 {
        if !folder.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(!folder.exists());
    let kept_log = data
        .join("tasks")
        .join(&kept)
        .join("attempt-1/replica-0.log");
    assert_eq!(
        std::fs::read_to_string(&kept_log).expect("its log"),
        "kept\n"
    );
    // As another server's delete would leave it here.
    std::fs::create_dir_all(log.parent().expect("its attempt")).expect("a folder");
    std::fs::write(&log, secret).expect("a log");
    runner.sweep_deleted().await;
    assert!(!folder.exists());
    assert_eq!(
        std::fs::read_to_string(&kept_log).expect("its log"),
        "kept\n"
    );
}
