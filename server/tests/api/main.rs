//! Server tests: one binary, a module per area.
//!
//! `routes` drives the router in-process with `oneshot`; `over_http` starts the real
//! `berth` binary and talks to it over a socket.

mod access;
mod cli;
mod metrics;
mod openapi;
mod over_http;
mod problems;
mod restart;
mod routes;
mod tasks;

use axum::Router;
use std::path::PathBuf;

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
    let dist = temp_dir("dist");
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><title>Berth</title>",
    )
    .expect("temp dir is writable");
    let config = server::Config {
        data_dir: temp_dir("data"),
        ..server::Config::demo(dist)
    };
    server::AppState::open(config)
        .await
        .expect("the demo state opens")
}

/// The app on the demo catalog (see [`demo_state`]).
pub async fn demo_app() -> Router {
    server::app(demo_state().await)
}
