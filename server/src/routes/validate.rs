//! `POST /api/v1/validate`: the findings and the plan for a posted spec.
//!
//! The same parse and check the console runs (`shared::check_json`), on the server's
//! catalog; the strict read of [`JsonText`](super::JsonText) is made only when the spec
//! does not read. A spec with fields of the wrong shape is answered 422 with those
//! fields named (and the rules' findings on the rest when its only wrong shapes are
//! unknown fields). At most [`MAX_FINDINGS_PER_CODE`] findings of one code at
//! one field (list positions aside) are sent; `truncated` counts the rest
//! ([`shared::validate::cap_findings`]).
//!
//! [`MAX_FINDINGS_PER_CODE`]: shared::api::MAX_FINDINGS_PER_CODE

use super::{JsonTextUnchecked, LangParam, Params};
use crate::auth::CurrentUser;
use crate::json::check_strict;
use crate::{ApiError, AppState, ReaderLang};
#[cfg(doc)]
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use shared::api::ValidateResponse;
use std::sync::Arc;

/// Validation routes.
pub fn router() -> Router<AppState> {
    Router::new().route("/validate", post(validate))
}

/// The validation route, for the OpenAPI document.
#[derive(utoipa::OpenApi)]
#[openapi(paths(validate))]
pub(super) struct ValidateApi;

/// `POST /validate`.
#[utoipa::path(
    post,
    path = "/validate",
    tag = "validate",
    params(
        ("lang" = Option<String>, Query, description = "Language of finding messages: `en` or `zh-CN` (any `en…` or `zh…` tag); others are ignored"),
        ("Accept-Language" = Option<String>, Header, description = "Used for the messages' language when `lang` is absent; English otherwise")
    ),
    request_body(
        content = shared::TaskSpec,
        content_type = "application/json",
        description = "A spec, possibly half filled: every field has a default"
    ),
    responses(
        (status = 200, description = "Every finding (at most 20 of one code at one field; `truncated` counts the rest) and the plan", body = ValidateResponse),
        (status = 400, description = "The body is not strict JSON (malformed, not UTF-8, or an object with a key twice; `line` and `column` say where), or a query parameter other than `lang` is given", body = shared::api::ErrorBody, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts", body = shared::api::ErrorBody, content_type = "application/problem+json"),
        (status = 415, description = "The body is not declared as JSON (`application/json` or `application/…+json`)", body = shared::api::ErrorBody, content_type = "application/problem+json"),
        (status = 422, description = "The spec has fields of the wrong shape; `issues` names them", body = shared::api::ErrorBody, content_type = "application/problem+json"),
    )
)]
async fn validate(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ReaderLang(lang): ReaderLang,
    _query: Params<LangParam>,
    JsonTextUnchecked(text): JsonTextUnchecked,
) -> Result<Response, ApiError> {
    let usage = state.shared_usage().await?;
    // The strict read (well formed, no key twice) is a second pass over the text, a
    // sixth of this request's instructions, and it has nothing to add when the spec
    // reads: every object of a spec is a struct that refuses unknown keys and a key
    // twice, and every value is read, so such a text is strict JSON (a test in
    // `json.rs` holds to this). Only a spec that does not read may be what the strict
    // read refuses, and then its 400 comes first, as [`JsonText`](super::JsonText) gives it.
    // A spec whose only wrong shapes are unknown fields is checked still: its 422 names
    // each of them, then what the rules find in the rest.
    let mut check = shared::check_json(&text, &state.catalog, &usage, &user);
    if is_shape_error(&check.issues) {
        check_strict(&text).map_err(ApiError::BadJson)?;
        return Err(ApiError::shape(
            &text,
            check.issues,
            lang,
            &state.catalog.tags.maintained,
        ));
    }
    // As the queue will start it, beside the room it keeps for tasks passed over too
    // often, as the create form says it: "now" was answered for a task that then
    // queued behind such a task (verdict explorer).
    if let Some(runner) = &state.runner {
        let held = runner.held_rooms().await;
        if !held.is_empty()
            && let Ok(spec) = shared::parse_spec(&text)
        {
            let live = shared::usage::LiveUsage::new(Arc::clone(&state.catalog), (*usage).clone());
            // An overflow is already a finding of the check's own.
            let _ = shared::quota::check_beside_held(&mut check, &spec, &live, &user, &held);
        }
    }
    let mut check = check.localized_capped(lang);
    shared::messages::with_maintained(&mut check.issues, lang, &state.catalog.tags.maintained);
    Ok(answer(&check))
}

/// The answer as JSON, what [`Json`] sends, but written into a buffer sized for a
/// whole answer: `Json` writes through `bytes`' writer into a buffer that starts at 128
/// bytes, a call and a capacity check per token, and grows it several times.
fn answer(check: &ValidateResponse) -> Response {
    let mut body = Vec::with_capacity(1024);
    match serde_json::to_writer(&mut body, check) {
        Ok(()) => (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            body,
        )
            .into_response(),
        // As `Json` answers a value it cannot write (none of ours: every map key is a string).
        Err(err) => ApiError::Internal(format!(
            "cannot write the answer: {}",
            crate::error_chain(&err)
        ))
        .into_response(),
    }
}

/// Whether the report is `check_json`'s answer for a spec of the wrong shape: it has a
/// `value.invalid` finding, which no rule gives.
fn is_shape_error(report: &shared::Report) -> bool {
    report
        .issues()
        .iter()
        .any(|issue| issue.code.code() == "value.invalid")
}
