//! [`ApiError`]: every failure a handler can answer with, in the shape of
//! [`shared::api::ErrorBody`].

use axum::extract::Request;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use shared::api::ErrorBody;
use shared::{Lang, Report};

/// A request failed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not JSON, or not of the expected shape.
    #[error("the request body is not valid JSON: {0}")]
    BadJson(String),
    /// The body is larger than the server accepts.
    #[error("the request body is larger than {max} bytes")]
    TooLarge {
        /// The limit.
        max: usize,
    },
    /// The spec has fields of the wrong shape.
    #[error("the spec has fields of the wrong shape")]
    Spec {
        /// The findings.
        report: Report,
        /// The language their messages are read in.
        lang: Lang,
    },
    /// Something on our side broke; the detail is logged, not sent.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status for this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadJson(_) => StatusCode::BAD_REQUEST,
            ApiError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Spec { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            ApiError::BadJson(_) => "body.invalid_json",
            ApiError::TooLarge { .. } => "body.too_large",
            ApiError::Spec { .. } => "spec.invalid",
            ApiError::Internal(_) => "internal",
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return ApiError::TooLarge {
                max: crate::MAX_BODY_BYTES,
            };
        }
        ApiError::BadJson(rejection.body_text())
    }
}

/// The real cause of a 5xx, kept out of the body and logged by [`log_server_errors`].
#[derive(Clone)]
struct InternalCause(String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let (message, issues) = match &self {
            ApiError::Internal(_) => ("internal error".to_owned(), Vec::new()),
            ApiError::Spec { report, lang } => (self.to_string(), report.localized(*lang)),
            _ => (self.to_string(), Vec::new()),
        };
        let body = ErrorBody {
            code: self.code().to_owned(),
            message,
            issues,
        };
        let mut response = (status, axum::Json(body)).into_response();
        if let ApiError::Internal(cause) = self {
            response.extensions_mut().insert(InternalCause(cause));
        }
        response
    }
}

/// Logs the cause of every 5xx answer, so the conversion itself has no side effects.
pub(crate) async fn log_server_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if let Some(InternalCause(cause)) = response.extensions().get::<InternalCause>() {
        tracing::error!(%cause, "request failed");
    }
    response
}
