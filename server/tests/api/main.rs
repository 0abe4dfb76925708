//! Server tests: one binary, a module per area.
//!
//! `routes` drives the router in-process with `oneshot`; `over_http` starts the real
//! `berth` binary and talks to it over a socket.

mod access;
mod alerts;
mod cli;
mod connections;
mod cors;
mod deploy;
mod kube;
mod local_backend;
mod metrics;
mod openapi;
mod over_http;
mod postgres;
mod problems;
mod render;
mod restart;
mod retries;
mod routes;
mod storage;
mod tasks;

use axum::Router;
use std::path::PathBuf;

/// The times of a task's events of `kind`, oldest first, from its events' answer.
pub fn event_times(events: &serde_json::Value, kind: &str) -> Vec<i64> {
    events
        .as_array()
        .expect("a list of events")
        .iter()
        .filter(|e| e["kind"] == kind)
        .map(|e| e["at"].as_i64().expect("a time"))
        .collect()
}

/// A fresh, empty folder under the system's temp folder.
pub fn temp_dir(what: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "berth-test-{what}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir is writable");
    dir
}

/// The full state on the demo catalog, with its task store and local backend in a fresh
/// data directory, serving a console from an empty temp folder.
pub async fn demo_state() -> server::AppState {
    demo_state_with(|_| {}).await
}

/// [`demo_state`] with its configuration changed first (a data directory the test reads,
/// a setting).
pub async fn demo_state_with(change: impl FnOnce(&mut server::Config)) -> server::AppState {
    let dist = temp_dir("dist");
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><title>Berth</title>",
    )
    .expect("temp dir is writable");
    let mut config = server::Config {
        data_dir: temp_dir("data"),
        // Retries at once, as the tests of other things expect of the example's fault
        // tolerance; the backoff's own tests set it.
        retry_backoff: server::runner::Backoff::NONE,
        ..server::Config::demo(dist)
    };
    change(&mut config);
    server::AppState::open(config)
        .await
        .expect("the demo state opens")
}

/// The PyTorchJob example with `command`, no mounts and no pod SSH (those need
/// bubblewrap, which the local backend's own tests cover).
pub fn pytorch(command: &str) -> serde_json::Value {
    let mut spec: serde_json::Value =
        serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).expect("JSON");
    spec["environment"]["command"] = command.into();
    spec["environment"]["storage"] = serde_json::json!([]);
    spec["environment"]["datasets"] = serde_json::json!([]);
    spec["environment"]["models"] = serde_json::json!([]);
    spec["advanced"]["ssh"] = false.into();
    spec
}

/// Makes `spec` reserved capacity of a100-1g on sh-a's shared pool that accepts idle
/// capacity and prefers it: on the demo catalog it starts on sh-a's idle offers.
pub fn preferring_idle(spec: &mut serde_json::Value) {
    let compute = &mut spec["compute"];
    compute["kind"] = "reserved".into();
    compute["pool"] = "sh-a-shared".into();
    compute["specs"] = serde_json::json!(["a100-1g"]);
    compute["accept_idle"] = true.into();
    compute["prefer_idle"] = true.into();
}

/// Submits `spec` to `app` and returns the new task's id.
pub async fn submit(app: &Router, spec: &serde_json::Value) -> String {
    let request = axum::http::Request::post("/api/v1/tasks")
        .header(axum::http::header::CONTENT_TYPE, "application/json")
        .body(axum::body::Body::from(spec.to_string()))
        .expect("a request");
    let (status, task) = answer(app, request).await;
    assert_eq!(status, axum::http::StatusCode::CREATED, "{task}");
    task["id"].as_str().expect("an id").to_owned()
}

/// The app on the demo catalog (see [`demo_state`]).
pub async fn demo_app() -> Router {
    server::app(demo_state().await)
}

/// The real `berth` binary serving on a free loopback port, with `BERTH_*` settings
/// from `env` over a temp dist folder; killed when dropped.
pub struct Berth {
    child: std::process::Child,
    /// Its base URL, without a trailing `/`.
    pub url: String,
}

impl Berth {
    /// Starts it and waits for the line that says where it runs.
    pub fn start(env: &[(&str, &std::ffi::OsStr)]) -> Berth {
        Berth::start_logging(env, None)
    }

    /// [`Berth::start`], its log (at `info`) written to `log` when given.
    pub fn start_logging(env: &[(&str, &std::ffi::OsStr)], log: Option<&std::path::Path>) -> Berth {
        use std::io::{BufRead, BufReader};
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_berth"));
        command
            .env("BERTH_ADDR", "127.0.0.1:0")
            .env("BERTH_DIST", std::env::temp_dir())
            .env("RUST_LOG", if log.is_some() { "info" } else { "warn" })
            .stdout(std::process::Stdio::piped());
        if let Some(log) = log {
            command.stderr(std::fs::File::create(log).expect("the log can be written"));
        }
        for (name, value) in env {
            command.env(name, value);
        }
        let mut child = command.spawn().expect("the berth binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let line = BufReader::new(stdout)
            .lines()
            .map(|l| l.expect("stdout is readable"))
            .find(|l| l.starts_with("Berth is running at"))
            .expect("berth prints its URL");
        let url = line
            .rsplit(' ')
            .next()
            .expect("the line ends with the URL")
            .trim_end_matches('/')
            .to_owned();
        Berth { child, url }
    }

    /// SIGKILL: no shutdown code runs, as in a crash.
    pub fn crash(&mut self) {
        self.child.kill().expect("the server can be killed");
        self.child.wait().expect("the server is reaped");
    }

    /// Waits up to `within` for it to exit by itself: its status, or `None` if it still
    /// runs then.
    pub fn exits_within(
        &mut self,
        within: std::time::Duration,
    ) -> Option<std::process::ExitStatus> {
        let until = std::time::Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().expect("the server can be waited for") {
                return Some(status);
            }
            if std::time::Instant::now() >= until {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// Sends it `signal` (`STOP` freezes it, `CONT` lets it go on).
    pub fn signal(&self, signal: &str) {
        let sent = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill -{signal}");
    }
}

impl Drop for Berth {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `request` to `app` and reads the answer's body as it came.
pub async fn answer_bytes(
    app: &Router,
    request: axum::http::Request<axum::body::Body>,
) -> (axum::http::StatusCode, axum::body::Bytes) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let response = app
        .clone()
        .oneshot(request)
        .await
        .expect("the router answers");
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("the body is readable")
        .to_bytes();
    (status, bytes)
}

/// Sends `request` to `app` and reads the answer: JSON, or the body as a JSON string.
pub async fn answer(
    app: &Router,
    request: axum::http::Request<axum::body::Body>,
) -> (axum::http::StatusCode, serde_json::Value) {
    let (status, bytes) = answer_bytes(app, request).await;
    let body = serde_json::from_slice(&bytes).unwrap_or_else(|_| {
        serde_json::Value::String(String::from_utf8_lossy(&bytes).into_owned())
    });
    (status, body)
}
