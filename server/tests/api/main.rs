//! Server tests: one binary, a module per area.
//!
//! `routes` drives the router in-process with `oneshot`; `over_http` starts the real
//! `berth` binary and talks to it over a socket.

mod cli;
mod over_http;
mod problems;
mod routes;

use axum::Router;
use std::path::PathBuf;

/// The app on the demo catalog, serving a console from an empty temp folder.
pub fn demo_app() -> Router {
    let dist = std::env::temp_dir().join(format!("berth-test-dist-{}", std::process::id()));
    std::fs::create_dir_all(&dist).expect("temp dir is writable");
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><title>Berth</title>",
    )
    .expect("temp dir is writable");
    server::app(
        server::AppState::new(server::Config::demo(PathBuf::from(&dist)))
            .expect("the demo catalog loads"),
    )
}
