//! `GET /healthz` (the process answers: liveness) and `GET /readyz` (it can serve: its
//! task database answers too).

use crate::AppState;
use axum::routing::get;
use axum::{Json, Router};
use shared::api::Health;

/// Health routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(show))
        .route("/readyz", get(ready))
}

/// `GET /healthz`: the server answers.
#[utoipa::path(
    get,
    path = "/healthz",
    operation_id = "health",
    tag = "meta",
    responses((status = 200, description = "The server is up", body = Health))
)]
pub(super) async fn show() -> Json<Health> {
    Json(Health {
        status: "ok".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    })
}

/// How long `/readyz` waits for the database: a probe's own timeout is about as short.
const READY_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// `GET /readyz`: the server answers and its task database does, within 2 s. A server cut
/// off from its database answered `/healthz` ok while every request failed after 10 s
/// (multi-server exploration): a load balancer's readiness probe asks this instead, and
/// a liveness probe keeps `/healthz`, which restarting would not mend.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "meta",
    responses(
        (status = 200, description = "The server and its task database answer", body = Health),
        (status = 503, description = "`store.unreachable`: the task database did not answer within 2 s", body = shared::api::ErrorBody, content_type = "application/problem+json"),
    )
)]
pub(super) async fn ready(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> Result<Json<Health>, crate::ApiError> {
    if let Some(runner) = &state.runner {
        let answered = tokio::time::timeout(READY_WAIT, runner.store().ping()).await;
        if !matches!(answered, Ok(Ok(()))) {
            return Err(crate::ApiError::StoreUnreachable);
        }
    }
    Ok(show().await)
}
