//! [`ApiError`]: every failure a handler can answer with, as an RFC 9457 problem detail
//! (`application/problem+json`) in the shape of [`shared::api::ErrorBody`].

use crate::AppState;
use crate::json::JsonError;
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use shared::api::ErrorBody;
use shared::task::Tag;
use shared::validate::LocalizedIssue;
use shared::{Lang, Report};

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// A request failed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not JSON, or has an object with a key twice.
    #[error(transparent)]
    BadJson(JsonError),
    /// The body is not UTF-8 text.
    #[error("the request body is not UTF-8 text")]
    NotUtf8,
    /// The body is larger than the server accepts.
    #[error("the request body is larger than {max} bytes")]
    TooLarge {
        /// The limit.
        max: usize,
    },
    /// The body did not arrive whole within the server's read timeout.
    #[error(
        "the request body did not arrive whole within {seconds} s; send it at once, right after the request's head"
    )]
    BodyTimeout {
        /// The timeout, in seconds.
        seconds: u64,
    },
    /// The body is not declared as JSON.
    #[error("the request body must be JSON (content-type application/json), not {found}")]
    UnsupportedMediaType {
        /// The content type sent, or `nothing`.
        found: String,
    },
    /// The spec does not pass the checks: fields of the wrong shape, or errors.
    #[error("the spec does not pass Berth's checks; `issues` lists each finding")]
    Spec {
        /// The findings.
        report: Report,
        /// The language their messages are read in.
        lang: Lang,
        /// The catalog's maintained tags, listed with a finding that a tag is not one.
        maintained: Vec<Tag>,
    },
    /// Tags (`PATCH …/tags`) that break the form's tag rules: the spec's 422, said of the
    /// tags sent (API explorer: "the spec does not pass" for a body of tags).
    #[error("the tags do not pass the form's tag rules; `issues` lists each finding")]
    Tags {
        /// The findings, at their places in the body sent.
        report: Report,
        /// The language their messages are read in.
        lang: Lang,
        /// The catalog's maintained tags, as for [`ApiError::Spec`].
        maintained: Vec<Tag>,
    },
    /// No API route has this path.
    #[error("no API route {path}")]
    NotFound {
        /// The path asked for.
        path: String,
    },
    /// The route exists but not for this method; the `Allow` header lists those it has.
    #[error("{method} is not allowed here")]
    MethodNotAllowed {
        /// The method used.
        method: Method,
    },
    /// No task with this id that the caller may see (the same answer whether it does not
    /// exist or is someone else's, so ids reveal nothing).
    #[error("no task {id}")]
    TaskNotFound {
        /// The id asked for.
        id: String,
    },
    /// A task the caller could see, deleted since: said as deleted, not as possibly
    /// someone else's (lineage explorer: a copy's link to its deleted original told its
    /// owner it might not be theirs to see).
    #[error("task {id} was deleted")]
    TaskDeleted {
        /// The id asked for.
        id: String,
    },
    /// A replica's log that another server keeps: with several servers on one database,
    /// the local backend's logs are files on the machine of the server that ran the
    /// attempt.
    #[error(
        "this server did not run attempt {attempt} of task {id}: its logs are kept by the server that ran it (the one leading then); ask that server"
    )]
    LogElsewhere {
        /// The task.
        id: String,
        /// The attempt asked for.
        attempt: u32,
    },
    /// The task has no share link with this number that works: it was revoked, or
    /// never made.
    #[error(
        "task {id} has no share link {link}: it was revoked or never made; GET /api/v1/tasks/{id}/share lists the links that work"
    )]
    ShareNotFound {
        /// The task.
        id: String,
        /// The link's number asked for.
        link: u32,
    },
    /// The caller may see the task but not do this to it.
    #[error("only the owner of task {id} can {action} it")]
    Forbidden {
        /// The task.
        id: String,
        /// What was asked, as a verb.
        action: &'static str,
    },
    /// The task is in a phase where this cannot be done.
    #[error("{0}")]
    Conflict(String),
    /// The catalog's namespace rule gives the caller no namespace a task's objects could
    /// be rendered in (a tenant the identity gave none of): the detail says which rule,
    /// what it gave and whom to ask.
    #[error("{0}")]
    Unrenderable(String),
    /// A delete of a task whose stop is under way: "stop it first" would ask for what
    /// the user did already.
    #[error("task {id} has not ended: its stop is under way; delete it once it has stopped")]
    Stopping {
        /// The task.
        id: String,
    },
    /// A tags' replacement that expected other tags than the task has now.
    #[error("the tags of task {id} were changed since they were read; read them again")]
    TagsChanged {
        /// The task.
        id: String,
    },
    /// The request is not signed in, or its credentials are wrong.
    #[error("{detail}")]
    Unauthorized {
        /// What the server expects, in plain words.
        detail: String,
        /// The `WWW-Authenticate` challenge, when there is a scheme to name (tokens mode).
        challenge: Option<&'static str>,
    },
    /// Identity headers from an address that is not the configured proxy.
    #[error("identity headers are accepted only from the authenticating proxy")]
    UntrustedProxy,
    /// A change asked by another site's page, which a browser sends with the user's
    /// cookies (cross-site request forgery).
    #[error(
        "a change asked by a page of another site ({origin}) is refused: only this server's pages, and those of the sites in `[cors] origins`, may change tasks"
    )]
    CrossSite {
        /// The page's origin, as its `Origin` header says it (said to be unnamed when it
        /// sent none: "(none)" read as a fault of the server's).
        origin: String,
    },
    /// A POST from a page (it names an `Origin`) that any site's page could send unasked,
    /// to a server its browser sends no `Sec-Fetch-Site` (plain HTTP): which site asked
    /// cannot be told, so it must come as JSON, which only this server's pages and the
    /// listed sites' may send.
    #[error(
        "a change from a page ({origin}) that is not JSON is refused: send it as JSON (`Content-Type: application/json`, `{{}}` for no content); another site's page could send it otherwise, and this server's browsers name no site (plain HTTP); a site that may change tasks goes in `[cors] origins`"
    )]
    NotJsonFromPage {
        /// The page's origin, as its `Origin` header says it.
        origin: String,
    },
    /// A query parameter is not valid.
    #[error("{0}")]
    BadQuery(String),
    /// A request header Berth reads (`Idempotency-Key`) is not valid, or is given twice.
    #[error("{0}")]
    BadHeader(String),
    /// A path parameter (`{id}`, `{token}`) is not valid: not UTF-8 once decoded.
    #[error("{0}")]
    BadPath(String),
    /// A JSON body not of the route's shape (a spec's own shape is `Spec`, by field).
    #[error("{0}")]
    BadBody(String),
    /// The task database did not answer `/readyz` in time.
    #[error("the task database does not answer: this server cannot serve tasks now")]
    StoreUnreachable,
    /// Something on our side broke; the detail is logged, not sent.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status for this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadJson(_) | ApiError::NotUtf8 => StatusCode::BAD_REQUEST,
            ApiError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::BodyTimeout { .. } => StatusCode::REQUEST_TIMEOUT,
            ApiError::UnsupportedMediaType { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Spec { .. } | ApiError::Tags { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::NotFound { .. } => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::TaskNotFound { .. }
            | ApiError::TaskDeleted { .. }
            | ApiError::LogElsewhere { .. }
            | ApiError::ShareNotFound { .. } => StatusCode::NOT_FOUND,
            ApiError::Forbidden { .. } => StatusCode::FORBIDDEN,
            ApiError::Conflict(_)
            | ApiError::Stopping { .. }
            | ApiError::TagsChanged { .. }
            | ApiError::Unrenderable(_) => StatusCode::CONFLICT,
            ApiError::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            ApiError::UntrustedProxy
            | ApiError::CrossSite { .. }
            | ApiError::NotJsonFromPage { .. } => StatusCode::FORBIDDEN,
            ApiError::BadQuery(_)
            | ApiError::BadHeader(_)
            | ApiError::BadPath(_)
            | ApiError::BadBody(_) => StatusCode::BAD_REQUEST,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::StoreUnreachable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            ApiError::BadJson(JsonError::DuplicateKey { .. }) => "body.duplicate_key",
            ApiError::BadJson(JsonError::Syntax { .. }) | ApiError::NotUtf8 => "body.invalid_json",
            ApiError::TooLarge { .. } => "body.too_large",
            ApiError::BodyTimeout { .. } => "body.timeout",
            ApiError::UnsupportedMediaType { .. } => "body.unsupported_media_type",
            ApiError::Spec { .. } | ApiError::Tags { .. } => "spec.invalid",
            ApiError::NotFound { .. } => "route.not_found",
            ApiError::MethodNotAllowed { .. } => "method.not_allowed",
            ApiError::TaskNotFound { .. } => "task.not_found",
            ApiError::TaskDeleted { .. } => "task.deleted",
            ApiError::LogElsewhere { .. } => "log.elsewhere",
            ApiError::ShareNotFound { .. } => "share.not_found",
            ApiError::Forbidden { .. } => "task.forbidden",
            ApiError::Conflict(_) => "task.conflict",
            ApiError::Unrenderable(_) => "render.namespace",
            ApiError::Stopping { .. } => "task.stopping",
            ApiError::TagsChanged { .. } => "task.tags_changed",
            ApiError::Unauthorized { .. } => "auth.required",
            ApiError::UntrustedProxy => "auth.untrusted_proxy",
            ApiError::CrossSite { .. } | ApiError::NotJsonFromPage { .. } => "request.cross_site",
            ApiError::BadQuery(_) => "query.invalid",
            ApiError::BadHeader(_) => "header.invalid",
            ApiError::BadPath(_) => "path.invalid",
            ApiError::BadBody(_) => "body.invalid",
            ApiError::Internal(_) => "internal",
            ApiError::StoreUnreachable => "store.unreachable",
        }
    }

    /// The problem detail this error is answered with.
    pub fn body(&self) -> ErrorBody {
        let status = self.status();
        let (line, column) = match self {
            ApiError::BadJson(err) => {
                let (line, column) = err.position();
                (Some(line), Some(column))
            }
            _ => (None, None),
        };
        let (detail, issues, truncated) = match self {
            ApiError::Internal(_) => ("internal error".to_owned(), Vec::new(), 0),
            ApiError::Spec {
                report,
                lang,
                maintained,
            }
            | ApiError::Tags {
                report,
                lang,
                maintained,
            } => {
                let (mut issues, truncated) = cap_findings(report.localized(*lang));
                shared::messages::with_maintained(&mut issues, *lang, maintained);
                (self.to_string(), issues, truncated)
            }
            _ => (self.to_string(), Vec::new(), 0),
        };
        ErrorBody {
            kind: "about:blank".to_owned(),
            title: status.canonical_reason().unwrap_or("Error").to_owned(),
            status: status.as_u16(),
            detail,
            code: self.code().to_owned(),
            issues,
            truncated,
            line,
            column,
        }
    }
}

/// Keeps the findings an answer sends, in order ([`shared::validate::cap_findings`]:
/// at most [`shared::api::MAX_FINDINGS_PER_CODE`] of one code at one field); returns them and how
/// many were left out.
pub fn cap_findings(issues: Vec<LocalizedIssue>) -> (Vec<LocalizedIssue>, usize) {
    shared::validate::cap_findings(issues, |i| (i.code.code(), &i.path))
}

/// The real cause of a 5xx, kept out of the body and logged by [`log_server_errors`].
#[derive(Clone)]
struct InternalCause(String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = self.body();
        let mut response = (
            status,
            [(CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON))],
            axum::Json(body),
        )
            .into_response();
        match self {
            ApiError::Internal(cause) => {
                response.extensions_mut().insert(InternalCause(cause));
            }
            ApiError::Unauthorized {
                challenge: Some(challenge),
                ..
            } => {
                response.headers_mut().insert(
                    axum::http::header::WWW_AUTHENTICATE,
                    HeaderValue::from_static(challenge),
                );
            }
            _ => {}
        }
        response
    }
}

impl ApiError {
    /// A 500 for `err`: the log gets its words and every cause's
    /// ([`crate::error_chain`]); the answer says only `internal error`.
    pub fn internal(err: &dyn std::error::Error) -> ApiError {
        ApiError::Internal(crate::error_chain(err))
    }

    /// The 422 for a spec of the wrong shape read from `text`, with what its finding
    /// found at a hidden env var's value said by its kind only (`found the number
    /// ******`): a hidden value is masked in every answer. Whether it is hidden is read
    /// from the whole body, as `hidden` may come after the value; when the body does
    /// not say `false` (or leaves it out), the value is taken to be hidden. With the
    /// catalog's maintained tags, for a report that holds the rules' findings of the rest
    /// of the spec (`check_json`'s), which may say a tag is not one of them.
    pub fn shape(text: &str, report: Report, lang: Lang, maintained: &[Tag]) -> ApiError {
        ApiError::Spec {
            report: hidden_values_masked(text, report),
            lang,
            maintained: maintained.to_vec(),
        }
    }
}

fn hidden_values_masked(text: &str, report: Report) -> Report {
    use shared::validate::Found;
    // Read only when a finding is at an env var's value: most shape findings are not.
    let mut body: Option<Option<serde_json::Value>> = None;
    let mut masked = Report::new();
    for issue in report.issues() {
        let mut issue = issue.clone();
        let path = issue.path.to_string();
        let index = path
            .strip_prefix("environment.env[")
            .and_then(|rest| rest.strip_suffix("].value"))
            .and_then(|index| index.parse::<usize>().ok());
        if let Some(index) = index
            && let shared::IssueCode::ValueInvalid {
                found: Some(Found::Text(value) | Found::Number(value) | Found::Boolean(value)),
                ..
            } = &mut issue.code
        {
            let body = body.get_or_insert_with(|| serde_json::from_str(text).ok());
            let hidden = body
                .as_ref()
                .and_then(|body| body.pointer(&format!("/environment/env/{index}")))
                .and_then(serde_json::Value::as_object)
                .is_none_or(|var| {
                    var.get("hidden")
                        .is_some_and(|hidden| hidden != &serde_json::Value::Bool(false))
                });
            if hidden {
                shared::task::HIDDEN_VALUE_MASK.clone_into(value);
            }
        }
        masked.push_issue(issue);
    }
    masked
}

/// Refuses a change (any method but GET, HEAD and OPTIONS) that a browser says another
/// site's page asked for (`Sec-Fetch-Site: cross-site` or `same-site`), unless that site
/// is one of `[cors] origins`: with a proxy's session cookie, a form on any page could
/// stop, resubmit or share the user's tasks (security exploration). Told by the
/// browser's own header rather than by `Origin` against `Host`, which a proxy in front
/// may rewrite; clients that are not browsers send none, and are not pages.
///
/// A browser sends `Sec-Fetch-Site` only to HTTPS and `localhost`: to a Berth on plain
/// HTTP elsewhere it sent none, and the check let everything through (security
/// exploration). Without it, a POST a page of any site may send without asking first
/// (one with no JSON content type: a form, or `text/plain`) is refused when a browser
/// sent it (it names an `Origin`) for a site not listed; the console sends every POST as
/// JSON, which another site's page cannot without the server's leave (CORS).
pub(crate) async fn refuse_cross_site(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    use axum::http::{Method, header};
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let headers = request.headers();
    let fetch_site = headers.get("sec-fetch-site");
    let other_site = fetch_site.is_some_and(|site| site == "cross-site" || site == "same-site");
    let unasked = fetch_site.is_none()
        && *request.method() == Method::POST
        && headers.contains_key(header::ORIGIN)
        && !headers
            .get(header::CONTENT_TYPE)
            .and_then(|t| t.to_str().ok())
            .is_some_and(crate::routes::is_json);
    if !safe && (other_site || unasked) {
        let origin = headers
            .get(header::ORIGIN)
            .and_then(|o| o.to_str().ok())
            .map(str::to_owned);
        if !origin
            .as_ref()
            .is_some_and(|o| state.config.cors_origins.contains(o))
        {
            let origin = origin.unwrap_or_else(|| "its browser named none".to_owned());
            if !other_site {
                return ApiError::NotJsonFromPage { origin }.into_response();
            }
            return ApiError::CrossSite { origin }.into_response();
        }
    }
    next.run(request).await
}

/// Logs the cause of every 5xx answer, so the conversion itself has no side effects.
pub(crate) async fn log_server_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if let Some(InternalCause(cause)) = response.extensions().get::<InternalCause>() {
        tracing::error!(%cause, "request failed");
    }
    response
}

/// Gives a problem body to the API's bodiless error answers (axum's own 405 and 404,
/// tower-http's 413), keeping their headers (`Allow`).
pub(crate) async fn problem_for_bare_errors(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error())
        || response.headers().contains_key(CONTENT_TYPE)
    {
        return response;
    }
    let error = match status {
        StatusCode::METHOD_NOT_ALLOWED => ApiError::MethodNotAllowed { method },
        StatusCode::NOT_FOUND => ApiError::NotFound { path },
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge {
            max: state.config.body_limit,
        },
        _ => ApiError::Internal(format!("{status} without a body")),
    };
    let (mut parts, _) = response.into_parts();
    let problem = error.into_response();
    parts.status = problem.status();
    parts.extensions.extend(problem.extensions().clone());
    let (problem_parts, body) = problem.into_parts();
    parts.headers.extend(problem_parts.headers);
    Response::from_parts(parts, body)
}

/// `/api/...` paths no route has: a 404 problem, never the console's page.
pub(crate) async fn api_not_found(request: Request) -> ApiError {
    ApiError::NotFound {
        path: request.uri().path().to_owned(),
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(err: crate::store::StoreError) -> Self {
        use crate::store::StoreError;
        match err {
            StoreError::NotFound { task } => ApiError::TaskNotFound { id: task.0 },
            StoreError::TagsChanged { task } => ApiError::TagsChanged { id: task.0 },
            StoreError::Phase { task, source } => {
                ApiError::Conflict(format!("task {task}: {source}; stop it first"))
            }
            StoreError::BadCursor { cursor } => {
                ApiError::BadQuery(format!("cursor {cursor:?} is not one this server gave"))
            }
            // The whole chain: `{:#}` does not walk a thiserror type's sources, and the
            // log said only "task database failed" (operator exploration).
            other => ApiError::internal(&other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// A store failure's 500 logs every cause, down to the database's own words, and
    /// answers only `internal error`: with a read-only SQLite file every submit
    /// answered 500 while the log said only "task database failed" (operator
    /// exploration).
    #[test]
    fn a_store_failure_logs_its_whole_cause_and_answers_internal_error() {
        let cause = sqlx::Error::Io(std::io::Error::other(
            "attempt to write a readonly database",
        ));
        let err = ApiError::from(crate::store::StoreError::Database(cause));
        let response = err.into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let InternalCause(logged) = response
            .extensions()
            .get::<InternalCause>()
            .expect("the cause is kept for the log")
            .clone();
        assert!(
            logged.starts_with("task database failed")
                && logged.contains("attempt to write a readonly database"),
            "{logged}"
        );
        let again = ApiError::from(crate::store::StoreError::Database(sqlx::Error::Io(
            std::io::Error::other("attempt to write a readonly database"),
        )));
        assert_eq!(again.body().detail, "internal error");
        // Any failure's causes, not only the database's.
        let json = serde_json::from_str::<Value>("{").expect_err("not JSON");
        let ApiError::Internal(logged) = ApiError::from(crate::store::StoreError::Corrupt {
            task: "t-1".into(),
            what: "spec",
            source: Some(json),
        }) else {
            panic!("a corrupt row is a 500");
        };
        assert!(
            logged.contains("stored spec of task t-1 cannot be read: EOF while parsing"),
            "{logged}"
        );
    }
}
