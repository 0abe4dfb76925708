//! One module per resource; [`api`] merges them under `/api/v1`.

pub mod catalog;
pub mod health;
mod log_mask;
pub mod openapi;
pub mod render;
pub mod tasks;
pub mod validate;

use crate::AppState;
use crate::error::ApiError;
use crate::json::check_strict;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use serde::Deserialize;
use serde::de::DeserializeOwned;

/// The `/api/v1` routes.
pub fn api() -> Router<AppState> {
    Router::new()
        .merge(catalog::router())
        .merge(validate::router())
        .merge(render::router())
        .merge(tasks::router())
        .merge(openapi::router())
}

/// A route's query parameters, the fields of `T`, which refuses any other
/// (`deny_unknown_fields`): a misspelt filter or option would otherwise be answered as if
/// it were not there. Refused as `query.invalid`, naming the parameter.
pub struct Params<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(params)| Params(params))
            .map_err(|rejection| ApiError::BadQuery(rejection.body_text()))
    }
}

/// The query of a route that takes no parameter.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

/// The query of a route whose one parameter is `lang`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LangParam {
    /// Read by [`ReaderLang`](crate::ReaderLang), which ignores a language Berth does not
    /// speak; listed here so that it is not refused as unknown.
    #[allow(dead_code)]
    lang: Option<String>,
}

/// A JSON body as text, refused in our error shape unless it is declared JSON (415),
/// within the body limit (413), UTF-8 and strict JSON: well formed, and no object with
/// a key twice (400, with line and column). The body extractor always comes last.
pub struct JsonText(pub String);

impl FromRequest<AppState> for JsonText {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        let JsonTextUnchecked(text) = JsonTextUnchecked::from_request(request, state).await?;
        check_strict(&text).map_err(ApiError::BadJson)?;
        Ok(JsonText(text))
    }
}

/// [`JsonText`] before its strict read: for a handler whose own read of the body
/// already refuses everything the strict read does when it succeeds, and which calls
/// [`check_strict`] itself otherwise (`POST /validate`).
pub struct JsonTextUnchecked(pub String);

impl FromRequest<AppState> for JsonTextUnchecked {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        let content_type = request
            .headers()
            .get(CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        if !content_type.as_deref().is_some_and(is_json) {
            return Err(ApiError::UnsupportedMediaType {
                found: content_type.unwrap_or_else(|| "nothing".to_owned()),
            });
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::TooLarge {
                        max: state.config.body_limit,
                    }
                } else {
                    ApiError::Internal(format!("cannot read the request body: {rejection}"))
                }
            })?;
        let text = String::from_utf8(bytes.into()).map_err(|_| ApiError::NotUtf8)?;
        Ok(JsonTextUnchecked(text))
    }
}

/// `application/json` or `application/<anything>+json`, with any parameters.
fn is_json(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || essence
            .strip_prefix("application/")
            .is_some_and(|sub| sub.ends_with("+json"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn json_content_types_are_recognised() {
        assert!(super::is_json("application/json"));
        assert!(super::is_json("Application/JSON; charset=utf-8"));
        assert!(super::is_json("application/merge-patch+json"));
        assert!(!super::is_json("text/plain"));
        assert!(!super::is_json("application/x-www-form-urlencoded"));
    }
}
