//! `POST /api/v1/validate`: the findings and the plan for a posted spec.
//!
//! The same `shared::check` the console runs, on the server's catalog; a spec with
//! fields of the wrong shape is answered 422 with those fields named.

use super::ApiJson;
use crate::{ApiError, AppState, ReaderLang};
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use shared::api::ValidateResponse;
use shared::check;

/// Validation routes.
pub fn router() -> Router<AppState> {
    Router::new().route("/validate", post(validate))
}

async fn validate(
    State(state): State<AppState>,
    ReaderLang(lang): ReaderLang,
    ApiJson(body): ApiJson<serde_json::Value>,
) -> Result<Json<ValidateResponse>, ApiError> {
    let spec = shared::parse_value(body).map_err(|report| ApiError::Spec { report, lang })?;
    Ok(Json(
        check(&spec, &state.catalog, &state.usage, &state.user()).localized(lang),
    ))
}
