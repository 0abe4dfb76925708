//! `POST /api/v1/validate`: the findings and the plan for a posted spec.
//!
//! The same `shared::check_json` the console runs, on the server's catalog, after the
//! strict read of [`JsonText`]; a spec with fields of the wrong shape is answered 422
//! with those fields named. At most [`MAX_FINDINGS_PER_CODE`] findings of one code are
//! sent; `truncated` counts the rest.
//!
//! [`MAX_FINDINGS_PER_CODE`]: shared::api::MAX_FINDINGS_PER_CODE

use super::JsonText;
use crate::auth::CurrentUser;
use crate::error::cap_findings;
use crate::{ApiError, AppState, ReaderLang};
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use shared::api::ValidateResponse;

/// Validation routes.
pub fn router() -> Router<AppState> {
    Router::new().route("/validate", post(validate))
}

async fn validate(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ReaderLang(lang): ReaderLang,
    JsonText(text): JsonText,
) -> Result<Json<ValidateResponse>, ApiError> {
    let usage = state.live_usage().await;
    let check = shared::check_json(&text, &state.catalog, &usage, &user);
    if check.plan.is_none() && check.issues.has_errors() && is_shape_error(&check.issues) {
        return Err(ApiError::Spec {
            report: check.issues,
            lang,
        });
    }
    let mut answer = check.localized(lang);
    (answer.issues, answer.truncated) = cap_findings(answer.issues);
    Ok(Json(answer))
}

/// Whether the report is `check_json`'s answer for a spec of the wrong shape: its one
/// `value.invalid` finding, with no plan.
fn is_shape_error(report: &shared::Report) -> bool {
    matches!(report.issues(), [only] if only.code.code() == "value.invalid")
}
