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
    add_shared_answers(&mut doc);
    doc
}

/// The answers every operation of the API can give whatever it does, which no handler's
/// attribute lists: who is asking (401, 403, and the bearer scheme of the tokens mode),
/// a change another site's page asked for (403), a body too slow to arrive (408). A
/// generated client knew none of them (README exploration).
fn add_shared_answers(doc: &mut Value) {
    let problem = |description: &str| {
        serde_json::json!({
            "description": description,
            "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
        })
    };
    doc["components"]["securitySchemes"]["bearer"] = serde_json::json!({
        "type": "http",
        "scheme": "bearer",
        "description": "In the tokens identity mode (`[identity] mode = \"tokens\"`). The default mode asks for nothing; the proxy mode takes the user from the proxy's headers, believed only from its trusted addresses."
    });
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    for (path, item) in paths {
        if !path.starts_with("/api/v1/") || path == "/api/v1/openapi.json" {
            continue;
        }
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for (method, operation) in item {
            let Some(responses) = operation["responses"].as_object_mut() else {
                continue;
            };
            let change = method != "get";
            responses.insert(
                "401".to_owned(),
                problem("`auth.required`: no identity, or a bearer token that is not valid (with `WWW-Authenticate: Bearer` in the tokens mode)"),
            );
            let mut forbidden = "`auth.untrusted_proxy`: identity headers from an address that is not the configured proxy".to_owned();
            if change {
                forbidden.push_str("; `request.cross_site`: a change the browser says another site's page asked for (`Sec-Fetch-Site: cross-site` or `same-site`; without that header, which browsers send only to HTTPS and localhost, a POST that names an `Origin` and is not JSON), from a site not in `[cors] origins`");
            }
            match responses.get_mut("403") {
                Some(own) => {
                    let said = own["description"].as_str().unwrap_or_default();
                    own["description"] = Value::from(format!("{said}; {forbidden}"));
                }
                None => {
                    responses.insert("403".to_owned(), problem(&forbidden));
                }
            }
            if change {
                responses.insert(
                    "408".to_owned(),
                    problem("`body.timeout`: the body did not arrive whole within `[limits] read_seconds` (30 s)"),
                );
            }
            operation["security"] = serde_json::json!([{}, {"bearer": []}]);
        }
    }
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
    paths(super::health::show, super::health::ready),
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
