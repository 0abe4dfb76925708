//! `GET /api/v1/catalog`: the catalog as the current user may see it.

use super::{NoParams, Params};
use crate::AppState;
use crate::auth::CurrentUser;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use shared::api::{CatalogResponse, Examples};

/// Catalog routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/catalog", get(show))
        .route("/examples", get(examples))
}

/// The catalog routes, for the OpenAPI document.
#[derive(utoipa::OpenApi)]
#[openapi(paths(show, examples))]
pub(super) struct CatalogApi;

/// `GET /catalog`.
#[utoipa::path(
    get,
    path = "/catalog",
    operation_id = "catalog",
    tag = "catalog",
    responses(
        (
            status = 200,
            description = "The catalog as the caller may see it (hidden persistent values \
                           masked), who the caller is, live usage, and the usage outside \
                           Berth",
            body = CatalogResponse
        ),
        (status = 400, description = "A query parameter is given: this route takes none", body = shared::api::ErrorBody, content_type = "application/problem+json"),
        (status = 503, description = "`store.unreachable`: a server that does not lead could not read live usage from the task database", body = shared::api::ErrorBody, content_type = "application/problem+json"),
    )
)]
async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    _query: Params<NoParams>,
) -> Result<Json<CatalogResponse>, crate::ApiError> {
    let mut view = state.catalog.for_user(&user);
    // Hidden persistent values are secrets: the form needs only their names.
    for var in view.persistent_env.iter_mut().filter(|v| v.hidden) {
        var.value = shared::task::HIDDEN_VALUE_MASK.to_owned();
    }
    // No ids: the reader may not see those tasks.
    let held = match &state.runner {
        Some(runner) => runner.held_rooms().await,
        None => Vec::new(),
    };
    Ok(Json(CatalogResponse {
        usage: state.live_usage().await?.for_user(&user.name),
        held,
        outside: state.outside_usage().for_user(&user.name),
        user,
        catalog: view,
        ray_clusters: state
            .runner
            .as_ref()
            .is_none_or(|r| r.backend().runs_ray_clusters()),
        email_alerts: state.config.mail.smtp_host.is_some(),
    }))
}

/// The example specs; they pass every rule on the demo catalog.
#[utoipa::path(
    get,
    path = "/examples",
    tag = "catalog",
    responses(
        (
            status = 200,
            description = "Complete example specs that pass every rule on the demo catalog",
            body = Examples
        ),
        (status = 400, description = "A query parameter is given: this route takes none", body = shared::api::ErrorBody, content_type = "application/problem+json"),
    )
)]
async fn examples(_signed_in: CurrentUser, _query: Params<NoParams>) -> Json<Examples> {
    let parse = |text| shared::parse_spec(text).expect("the examples parse");
    Json(Examples {
        pytorch: parse(shared::demo::PYTORCH_EXAMPLE),
        ray: parse(shared::demo::RAY_EXAMPLE),
    })
}
