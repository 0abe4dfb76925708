//! `GET /healthz`.

use crate::AppState;
use axum::routing::get;
use axum::{Json, Router};
use shared::api::Health;

/// Health routes.
pub fn router() -> Router<AppState> {
    Router::new().route("/healthz", get(show))
}

/// `GET /healthz`: the server answers.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "meta",
    responses((status = 200, description = "The server is up", body = Health))
)]
pub(super) async fn show() -> Json<Health> {
    Json(Health {
        status: "ok".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    })
}
