//! `GET /api/v1/openapi.json`: the API described as OpenAPI 3.1, generated from the
//! handlers' `#[utoipa::path]` attributes and the wire types' schemas (the `openapi`
//! feature of the shared crate).
//!
//! Every error answer is a problem detail ([`ErrorBody`], `application/problem+json`);
//! each operation lists the statuses it can answer with.

use crate::AppState;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::Value;
use shared::api::ErrorBody;
use std::sync::LazyLock;
use utoipa::OpenApi;

/// The OpenAPI route.
pub fn router() -> Router<AppState> {
    Router::new().route("/openapi.json", get(document))
}

/// The whole document as served; built once.
static DOCUMENT: LazyLock<Value> = LazyLock::new(openapi);

/// The document the server serves: utoipa's, with the unsigned integers' ranges made
/// explicit (see [`bound_unsigned`]).
pub fn openapi() -> Value {
    let mut doc = serde_json::to_value(ApiDoc::openapi()).expect("the document serialises");
    bound_unsigned(&mut doc);
    doc
}

/// utoipa marks `u8`…`u64` with a format and `minimum: 0` but no `maximum`; validators
/// (and fuzzers) ignore formats on integers, so the upper bound the Rust type enforces
/// is added as `maximum`.
fn bound_unsigned(value: &mut Value) {
    match value {
        Value::Object(map) => {
            // utoipa 6 spells these formats `u-int8`…`u-int64`; the registry's are
            // `uint8`…`uint64`.
            let bound = match map.get("format").and_then(Value::as_str) {
                Some("uint8" | "u-int8") => Some(("uint8", u64::from(u8::MAX))),
                Some("uint16" | "u-int16") => Some(("uint16", u64::from(u16::MAX))),
                Some("uint32" | "u-int32") => Some(("uint32", u64::from(u32::MAX))),
                Some("uint64" | "u-int64") => Some(("uint64", u64::MAX)),
                _ => None,
            };
            if let Some((format, max)) = bound {
                map.insert("format".to_owned(), Value::from(format));
                map.insert("minimum".to_owned(), Value::from(0));
                map.insert("maximum".to_owned(), Value::from(max));
            }
            map.values_mut().for_each(bound_unsigned);
        }
        Value::Array(items) => items.iter_mut().for_each(bound_unsigned),
        _ => {}
    }
}

/// `GET /api/v1/openapi.json`.
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "meta",
    responses(
        (status = 200, description = "This document (OpenAPI 3.1)", body = Object),
        (status = 400, description = "A query parameter is given: this route takes none", body = ErrorBody, content_type = "application/problem+json"),
    )
)]
async fn document(_query: super::Params<super::NoParams>) -> Json<&'static Value> {
    Json(&DOCUMENT)
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Berth",
        description = "Console and API for distributed GPU training tasks. Every 4xx and 5xx \
                       answer is an RFC 9457 problem detail (`application/problem+json`).",
        license(name = "Apache-2.0", identifier = "Apache-2.0")
    ),
    paths(super::health::show),
    nest(
        (path = "/api/v1", api = OpenApiDoc),
        (path = "/api/v1", api = super::catalog::CatalogApi),
        (path = "/api/v1", api = super::validate::ValidateApi),
        (path = "/api/v1", api = super::render::RenderApi),
        (path = "/api/v1", api = super::tasks::TasksApi),
    ),
    components(schemas(ErrorBody)),
    tags(
        (name = "meta", description = "Health and this document"),
        (name = "catalog", description = "What the create form chooses from"),
        (name = "validate", description = "Findings and plan for a spec, without submitting"),
        (name = "tasks", description = "Submitted tasks"),
    )
)]
struct ApiDoc;

#[derive(OpenApi)]
#[openapi(paths(document))]
struct OpenApiDoc;
