//! One module per resource; [`api`] merges them under `/api/v1`.

pub mod catalog;
pub mod health;
pub mod log_mask;
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
use axum::http::header::{CONTENT_ENCODING, CONTENT_TYPE};
use axum::http::request::Parts;
use axum::http::{StatusCode, Uri};
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
/// it were not there. Refused as `query.invalid`, naming the parameter and what it takes.
pub struct Params<T>(pub T);

/// The query parameters of a route, with what each takes, so that a refusal can say it:
/// the deserializer's own words ("invalid digit found in string", "duplicate field")
/// name neither the parameter's meaning nor its range.
pub trait QueryParams: DeserializeOwned {
    /// Each parameter the route takes, with what its value must be, in words that
    /// follow "must be" ("a whole number from 1 to 500").
    fn takes() -> Vec<(&'static str, String)>;
}

impl<T: QueryParams, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or_default();
        if query.contains('%')
            && let Some(refusal) = not_utf8(query)
        {
            return Err(refusal);
        }
        // A NUL can only come %-escaped. No stored text holds one (PostgreSQL's text
        // cannot; SQLite's LIKE stops at it): refused here for every route and parameter
        // that may reach a store (their schemas say so). `lang` reaches none: a tag with
        // a NUL is one Berth does not speak, passed over as any other.
        if query.contains("%00")
            && let Ok(Query(pairs)) = Query::<Vec<(String, String)>>::try_from_uri(&parts.uri)
            && let Some((name, _)) = pairs.iter().find(|(name, value)| {
                name.contains('\0') || (name != "lang" && value.contains('\0'))
            })
        {
            // Said of the name when the name holds it: "`ta%00g` must not hold" read as
            // said of its value (API explorer).
            let of = if name.contains('\0') {
                format!("the query parameter named `{}`", as_sent(name))
            } else {
                format!("`{}`", as_sent(name))
            };
            return Err(ApiError::BadQuery(format!(
                "{of} must not hold a NUL character (%00): no stored text holds one"
            )));
        }
        match Query::<T>::try_from_uri(&parts.uri) {
            Ok(Query(params)) => Ok(Params(params)),
            Err(rejection) => Err(query_refusal::<T>(
                parts.uri.query().unwrap_or_default(),
                rejection.body_text(),
            )),
        }
    }
}

/// A refusal naming the first parameter of `query` whose name, or value, is not UTF-8 once
/// its %-escapes are decoded. The query's reader reads such bytes as U+FFFD, so
/// `name=%ff` listed no task and `tag=%ff` was refused quoting "\u{FFFD}": a client's
/// encoding bug looked like an answer (exploratory test). `lang`'s value is passed over
/// as one Berth does not speak, as a `lang` holding a NUL is.
fn not_utf8(query: &str) -> Option<ApiError> {
    let decoded = |text: &str| {
        percent_encoding::percent_decode_str(&text.replace('+', " "))
            .decode_utf8()
            .map(std::borrow::Cow::into_owned)
    };
    for piece in query.split('&') {
        let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
        let Ok(name) = decoded(name) else {
            return Some(ApiError::BadQuery(format!(
                "the query parameter named `{name}` must be named in UTF-8 text once its \
                 %-escapes are decoded"
            )));
        };
        if name != "lang" && decoded(value).is_err() {
            return Some(ApiError::BadQuery(format!(
                "`{}` must be UTF-8 text once its %-escapes are decoded",
                as_sent(&name)
            )));
        }
    }
    None
}

/// A parameter's name as a client wrote it in the address: its control characters
/// %-escaped (`a%00b`), not in Rust's escapes (`a\u{0}b`), which no client writes (API
/// explorer).
fn as_sent(name: &str) -> String {
    percent_encoding::utf8_percent_encode(name, percent_encoding::CONTROLS).to_string()
}

/// The most parameters a refused query is read for, one by one, to say which is wrong:
/// many times what any route takes.
const MOST_QUERY_PIECES: usize = 64;

/// Why `query` does not read as `T`: a parameter given twice, one the route does not
/// take, or the first whose value it cannot read, found by reading each parameter
/// alone (every parameter is optional). Only refused requests take this path.
fn query_refusal<T: QueryParams>(query: &str, fallback: String) -> ApiError {
    let pieces: Vec<&str> = query.split('&').filter(|p| !p.is_empty()).collect();
    // Each piece is read alone below: thousands of them in a long address would hold a
    // worker for a request anyone may send.
    if pieces.len() > MOST_QUERY_PIECES {
        return ApiError::BadQuery(format!(
            "a query takes at most {MOST_QUERY_PIECES} parameters; this one has {}",
            pieces.len()
        ));
    }
    let names: Vec<String> = pieces.iter().map(|piece| name_of(piece)).collect();
    let mut seen = std::collections::HashSet::new();
    if let Some(name) = names.iter().find(|name| !seen.insert(name.as_str())) {
        return ApiError::BadQuery(format!("`{name}` may be given once"));
    }
    let takes = T::takes();
    let refused = pieces.iter().zip(&names).find(|(piece, _)| {
        !format!("/?{piece}")
            .parse::<Uri>()
            .is_ok_and(|uri| Query::<T>::try_from_uri(&uri).is_ok())
    });
    let Some((_, name)) = refused else {
        return ApiError::BadQuery(fallback);
    };
    // A piece with no name (`?=x`) is named by the piece: "``" named nothing.
    let name = if name.is_empty() {
        format!(
            "a parameter with no name (`{}`)",
            refused.map_or("", |(p, _)| p)
        )
    } else {
        format!("`{name}`")
    };
    ApiError::BadQuery(
        match takes.iter().find(|(taken, _)| format!("`{taken}`") == name) {
            Some((_, what)) => format!("{name} must be {what}"),
            None if takes.is_empty() => {
                format!("{name} is not a query parameter of this route, which takes none")
            }
            None => format!(
                "{name} is not a query parameter of this route, which takes {}",
                takes
                    .iter()
                    .map(|(taken, _)| format!("`{taken}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        },
    )
}

/// The name of one `name=value` piece of a query, percent-decoded as the query's reader
/// decodes it.
fn name_of(piece: &str) -> String {
    format!("/?{piece}")
        .parse::<Uri>()
        .ok()
        .and_then(|uri| Query::<Vec<(String, String)>>::try_from_uri(&uri).ok())
        .and_then(|Query(pairs)| pairs.into_iter().next())
        .map_or_else(|| piece.to_owned(), |(name, _)| name)
}

/// The query of a route that takes no parameter.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

impl QueryParams for NoParams {
    fn takes() -> Vec<(&'static str, String)> {
        Vec::new()
    }
}

/// The query of a route whose one parameter is `lang`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LangParam {
    /// Read by [`ReaderLang`](crate::ReaderLang), which ignores a language Berth does not
    /// speak; listed here so that it is not refused as unknown.
    #[allow(dead_code)]
    lang: Option<String>,
}

impl QueryParams for LangParam {
    fn takes() -> Vec<(&'static str, String)> {
        vec![("lang", LANG_TAKES.to_owned())]
    }
}

/// What `lang` takes, on every route that has it.
pub const LANG_TAKES: &str = "a language tag (`en`, `zh-CN`)";

/// A route's path parameters (`{id}`, `{token}`), refused as `path.invalid` in our error
/// shape, naming the parameter, rather than as axum's plain-text 400.
pub struct Path<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        use axum::extract::path::ErrorKind;
        use axum::extract::rejection::PathRejection;
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => {
                // No task id or token holds a NUL, and no store can look one up
                // (PostgreSQL's text cannot hold it): refused as a path that is not
                // UTF-8 is, naming the parameter.
                if parts.uri.path().contains("%00") {
                    let raw = axum::extract::RawPathParams::from_request_parts(parts, state)
                        .await
                        .map_err(|rejection| ApiError::Internal(rejection.body_text()))?;
                    if let Some((key, _)) = raw.iter().find(|(_, value)| value.contains('\0')) {
                        return Err(ApiError::BadPath(format!(
                            "the path parameter `{key}` must not hold a NUL character (%00)"
                        )));
                    }
                }
                Ok(Path(value))
            }
            Err(PathRejection::FailedToDeserializePathParams(err)) => {
                Err(ApiError::BadPath(match err.kind() {
                    ErrorKind::InvalidUtf8InPathParam { key } => format!(
                        "the path parameter `{key}` must be UTF-8 text once its %-escapes \
                         are decoded"
                    ),
                    // A number (a share link's): said in words, not as a Rust type.
                    ErrorKind::ParseErrorAtKey {
                        key,
                        value,
                        expected_type,
                    } if matches!(*expected_type, "u8" | "u16" | "u32" | "u64" | "usize") => {
                        format!(
                            "the path parameter `{key}` must be a whole number, 0 or more \
                         (`{value}` is not one, or is too large)"
                        )
                    }
                    _ => err.body_text(),
                }))
            }
            // The route's own path has no such parameter: a mistake of ours.
            Err(other) => Err(ApiError::Internal(other.body_text())),
        }
    }
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
        // A compressed body read as text was "not UTF-8 text", which named neither the
        // header nor the fix (security exploration).
        if let Some(coding) = request
            .headers()
            .get(CONTENT_ENCODING)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_owned())
            .filter(|c| !c.eq_ignore_ascii_case("identity"))
        {
            return Err(ApiError::BadBody(format!(
                "the body is sent with Content-Encoding `{coding}`, which this server does not read; send it uncompressed, without the header"
            )));
        }
        let bytes = read_body(request, state).await?.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::TooLarge {
                    max: state.config.body_limit,
                }
            } else {
                // The client's fault (a broken chunked encoding, a body cut off when
                // it went away), not the server's: a 500 set off operators' alerts.
                ApiError::BadBody(format!(
                    "the request body could not be read to its end ({rejection}); send it whole"
                ))
            }
        })?;
        let mut text = String::from_utf8(bytes.into()).map_err(|_| ApiError::NotUtf8)?;
        // A byte order mark is no part of JSON, but editors and Windows PowerShell's
        // `Set-Content -Encoding UTF8` write one; RFC 8259 (section 8.1) lets a reader
        // ignore it, and nothing is gained by refusing a body for an invisible character.
        if text.starts_with('\u{feff}') {
            text.drain(..'\u{feff}'.len_utf8());
        }
        Ok(JsonTextUnchecked(text))
    }
}

/// A request's body, within the server's read timeout: a client that sends a body slowly,
/// or not at all after its head, would otherwise hold its connection for good (the
/// head's own timeout is the connection's, [`crate::serve_until`]).
async fn read_body(
    request: Request,
    state: &AppState,
) -> Result<Result<Bytes, axum::extract::rejection::BytesRejection>, ApiError> {
    let limit = state.config.read_timeout;
    tokio::time::timeout(limit, Bytes::from_request(request, state))
        .await
        .map_err(|_| ApiError::BodyTimeout {
            seconds: limit.as_secs(),
        })
}

/// The body of a route that takes none (stop, resubmit, share, delete, revoke): empty,
/// or an empty JSON object (`{}`, which scripts and HTTP clients often send with a POST
/// and which says nothing). Anything else sent (an edited spec to resubmit) would
/// otherwise be ignored without a word; refused as `body.invalid` saying the route takes
/// none. The body extractor always comes last.
pub struct NoBody;

/// The longest body [`NoBody`] reads to see whether it is `{}`: room for whitespace.
const MOST_NO_BODY_BYTES: u64 = 64;

impl FromRequest<AppState> for NoBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        let path = request.uri().path().to_owned();
        let refused = || {
            let mut detail =
                format!("{path} takes no request body; send none (or an empty JSON object, {{}})");
            if path.ends_with("/resubmit") {
                detail.push_str(
                    ": a resubmit runs the task's own spec again; to run an edited spec, \
                     submit it with POST /api/v1/tasks (the console's Clone starts from \
                     this one)",
                );
            }
            ApiError::BadBody(detail)
        };
        let declared = request
            .headers()
            .get(axum::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        if declared.is_some_and(|length| length > MOST_NO_BODY_BYTES) {
            return Err(refused());
        }
        // Without a length (chunked): read it, within the body limit.
        let bytes = read_body(request, state).await?.map_err(|_| refused())?;
        let empty_object = || {
            // A leading byte order mark is read past, as on every JSON route.
            let json = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
            serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(json)
                .is_ok_and(|object| object.is_empty())
        };
        if bytes.is_empty() || empty_object() {
            Ok(NoBody)
        } else {
            Err(refused())
        }
    }
}

/// `application/json` or `application/<anything>+json`, with any parameters.
pub(crate) fn is_json(content_type: &str) -> bool {
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
