//! Berth's server: the HTTP API under `/api/v1` and the built console.
//!
//! Handlers are thin: they extract, call `shared` for every domain rule, and answer.
//! The server never trusts the browser: it re-validates every spec with the same code
//! the console runs. It must not depend on the frontend crate.

pub mod backend;
mod error;
mod lang;
mod routes;
mod state;
pub mod store;

pub use error::ApiError;
pub use lang::ReaderLang;
pub use state::{AppState, Config, ConfigError};

pub use axum::Router;
use axum::extract::DefaultBodyLimit;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::TraceLayer;

/// Largest request body accepted: a spec's env values alone may reach 256 KiB.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// The whole application: API routes, then the console's static files with an
/// `index.html` fallback so client-side routes load on refresh.
pub fn app(state: AppState) -> Router {
    let dist = state.config.dist.clone();
    let console = ServeDir::new(&dist).fallback(ServeFile::new(dist.join("index.html")));
    Router::new()
        .merge(routes::health::router())
        .nest("/api/v1", routes::api())
        .fallback_service(console)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(error::log_server_errors))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// Serves `app` on `listener` until the process ends: what `main` does, for tests that
/// run the real server in-process.
///
/// # Errors
///
/// The I/O error that stopped the listener.
pub async fn serve(listener: tokio::net::TcpListener, app: Router) -> std::io::Result<()> {
    axum::serve(listener, app).await
}
