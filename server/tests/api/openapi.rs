//! `GET /api/v1/openapi.json`: a valid OpenAPI 3 document that lists every route the
//! router serves, with the methods it serves, and nothing else.

use super::demo_app;
use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;
use utoipa::openapi::OpenApi;
use utoipa::openapi::path::{Operation, PathItem};

/// The route modules merged under `/api/v1` (routes/mod.rs), read as text: every
/// `.route("…"` in them is a path the router serves.
const API_MODULES: [&str; 5] = [
    include_str!("../../src/routes/catalog.rs"),
    include_str!("../../src/routes/validate.rs"),
    include_str!("../../src/routes/render.rs"),
    include_str!("../../src/routes/tasks.rs"),
    include_str!("../../src/routes/openapi.rs"),
];

/// Every path template the router serves: `/healthz`, `/readyz` and the `/api/v1` routes.
fn served_templates() -> Vec<String> {
    let mut templates = vec!["/healthz".to_owned(), "/readyz".to_owned()];
    for module in API_MODULES {
        for piece in module.split(".route(\"").skip(1) {
            let path = piece.split('"').next().unwrap();
            templates.push(format!("/api/v1{path}"));
        }
    }
    templates
}

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

async fn document(app: &Router) -> (Value, OpenApi) {
    let response = app
        .clone()
        .oneshot(
            Request::get("/api/v1/openapi.json")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .expect("the router answers");
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"],
        "application/json",
        "the document is JSON"
    );
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value: Value = serde_json::from_slice(&bytes).expect("the document is JSON");
    let doc: OpenApi = serde_json::from_value(value.clone()).expect("it reads as OpenAPI");
    (value, doc)
}

fn operation<'a>(item: &'a PathItem, method: &str) -> Option<&'a Operation> {
    match method {
        "GET" => item.get.as_ref(),
        "POST" => item.post.as_ref(),
        "PUT" => item.put.as_ref(),
        "PATCH" => item.patch.as_ref(),
        "DELETE" => item.delete.as_ref(),
        other => panic!("no method {other} in this test"),
    }
}

/// What the router answers `method` on `template` with its parameters filled in:
/// whether it has such a route (not a 404 `route.not_found` nor a 405).
async fn served(app: &Router, method: &str, template: &str) -> bool {
    let path = template
        .replace("{id}", "t-nothing")
        .replace("{token}", "nothing");
    let response = app
        .clone()
        .oneshot(
            Request::builder()
                .method(Method::from_bytes(method.as_bytes()).unwrap())
                .uri(&path)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .expect("the router answers");
    let status = response.status();
    if status == StatusCode::METHOD_NOT_ALLOWED {
        return false;
    }
    if status != StatusCode::NOT_FOUND {
        return true;
    }
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap_or_default();
    // An unknown task or share token is a 404 of a route that exists.
    body["code"] != "route.not_found" && !template.starts_with("/healthz")
}

#[tokio::test]
async fn the_document_is_openapi_3_and_lists_exactly_the_served_routes() {
    let app = demo_app().await;
    let (value, doc) = document(&app).await;
    assert!(
        value["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.")),
        "an OpenAPI 3 document: {}",
        value["openapi"]
    );
    let templates = served_templates();
    assert!(
        templates.len() >= 15,
        "the route modules were read: {templates:?}"
    );
    let merged: Vec<&str> = include_str!("../../src/routes/mod.rs")
        .split(".merge(")
        .skip(1)
        .map(|m| m.split("::").next().unwrap())
        .collect();
    assert_eq!(
        merged,
        ["catalog", "validate", "render", "tasks", "openapi"],
        "API_MODULES lists every module routes::api merges"
    );
    // Every route the router serves is documented, with exactly the methods it serves.
    for template in &templates {
        let item = doc
            .paths
            .paths
            .get(template)
            .unwrap_or_else(|| panic!("{template} is documented"));
        for method in METHODS {
            assert_eq!(
                operation(item, method).is_some(),
                served(&app, method, template).await,
                "{method} {template}: documented exactly when the router serves it"
            );
        }
    }
    // And nothing else is documented.
    for template in doc.paths.paths.keys() {
        assert!(templates.contains(template), "{template} is served");
    }
    // Each operation has an id of its own, as OpenAPI requires: a client generator
    // refused the document with `show` twice (API explorer).
    let mut ids: Vec<&str> = Vec::new();
    for item in doc.paths.paths.values() {
        for method in METHODS {
            if let Some(id) = operation(item, method).and_then(|o| o.operation_id.as_deref()) {
                assert!(!ids.contains(&id), "operationId {id} is used twice");
                ids.push(id);
            }
        }
    }
    assert!(ids.len() >= templates.len(), "{ids:?}");
}

#[tokio::test]
async fn every_error_answer_is_a_documented_problem_detail() {
    let app = demo_app().await;
    let (value, _) = document(&app).await;
    let paths = value["paths"].as_object().expect("paths");
    let mut errors = 0;
    for (template, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().expect("responses");
            assert!(!responses.is_empty(), "{method} {template} has answers");
            for (status, response) in responses {
                if !(status.starts_with('4') || status.starts_with('5')) {
                    continue;
                }
                errors += 1;
                let schema = &response["content"]["application/problem+json"]["schema"];
                assert_eq!(
                    schema["$ref"], "#/components/schemas/ErrorBody",
                    "{method} {template} {status} is a problem detail"
                );
            }
            if let Some(body) = op.get("requestBody") {
                assert!(
                    body["content"].get("application/json").is_some(),
                    "{method} {template} takes JSON"
                );
            }
        }
    }
    assert!(errors > 40, "the error answers are documented ({errors})");
}

/// Who is asking, a change from another site and a body too slow are answers of every
/// API operation but this document's, as the server gives them; the tokens mode's bearer
/// scheme is named, beside no scheme at all (README exploration: none was listed).
#[tokio::test]
async fn every_operation_lists_the_answers_every_request_may_get() {
    let app = demo_app().await;
    let (value, _) = document(&app).await;
    assert_eq!(
        value["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    let mut operations = 0;
    for (template, item) in value["paths"].as_object().unwrap() {
        if !template.starts_with("/api/v1/") || template == "/api/v1/openapi.json" {
            continue;
        }
        for (method, op) in item.as_object().unwrap() {
            operations += 1;
            let responses = &op["responses"];
            let described = |status: &str| responses[status]["description"].as_str().unwrap_or("");
            assert!(
                described("401").contains("auth.required"),
                "{method} {template}"
            );
            assert!(
                described("403").contains("auth.untrusted_proxy"),
                "{method} {template}"
            );
            let change = method != "get";
            assert_eq!(
                described("403").contains("request.cross_site"),
                change,
                "{method} {template}"
            );
            assert_eq!(
                described("408").contains("body.timeout"),
                change,
                "{method} {template}"
            );
            assert_eq!(op["security"], serde_json::json!([{}, {"bearer": []}]));
        }
    }
    assert!(operations > 15, "{operations}");
    // A task's own 403 keeps its words beside them.
    let stop = &value["paths"]["/api/v1/tasks/{id}/stop"]["post"]["responses"]["403"];
    assert!(
        stop["description"]
            .as_str()
            .unwrap()
            .contains("auth.untrusted_proxy"),
        "{stop}"
    );
}

#[tokio::test]
async fn the_wire_shapes_are_described_as_serde_sends_them() {
    let app = demo_app().await;
    let (value, _) = document(&app).await;
    let schemas = &value["components"]["schemas"];
    // IssueCode: adjacently tagged, `code` is the frozen dotted code.
    let codes: Vec<&str> = schemas["IssueCode"]["oneOf"]
        .as_array()
        .expect("one schema per code")
        .iter()
        .map(|v| v["properties"]["code"]["enum"][0].as_str().unwrap())
        .collect();
    assert_eq!(codes, shared::validate::IssueCode::ALL);
    // A finding's path is a string, and its code and params are flattened into it.
    let issue = &schemas["LocalizedIssue"]["allOf"];
    assert_eq!(issue[0]["$ref"], "#/components/schemas/IssueCode");
    assert_eq!(issue[1]["properties"]["path"]["type"], "string");
    // A task view flattens the record.
    assert_eq!(
        schemas["TaskView"]["allOf"][0]["$ref"],
        "#/components/schemas/Task"
    );
    // Members left out when empty are not required.
    let required = schemas["ErrorBody"]["required"].as_array().unwrap();
    assert!(!required.contains(&"issues".into()) && !required.contains(&"line".into()));
    assert_eq!(schemas["ErrorBody"]["properties"]["type"]["type"], "string");
    // The outcome of a plan is internally tagged.
    assert_eq!(
        schemas["Outcome"]["oneOf"][0]["properties"]["outcome"]["enum"][0],
        "now"
    );
    // A u32 has its real range.
    let workers = &schemas["Compute"]["properties"]["workers"];
    assert_eq!(workers["minimum"], 0);
    assert_eq!(workers["maximum"], u32::MAX);
}

/// Found by schemathesis: a key with a tab broke the documented pattern and was taken.
#[tokio::test]
async fn an_idempotency_key_with_a_tab_is_refused_as_documented() {
    let app = demo_app().await;
    let mut request = super::routes::post("/api/v1/tasks", "{}");
    request
        .headers_mut()
        .insert("idempotency-key", "a\tb".parse().unwrap());
    let response = app.oneshot(request).await.expect("the router answers");
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(body["code"], "header.invalid");
}

/// Found by schemathesis: serde reads a struct from a list, so `[[]]` set no tags.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tags_given_as_lists_are_refused_as_documented() {
    let app = demo_app().await;
    let spec = shared::demo::PYTORCH_EXAMPLE;
    let response = app
        .clone()
        .oneshot(super::routes::post("/api/v1/tasks", spec))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let task: Value = serde_json::from_slice(&bytes).unwrap();
    let id = task["id"].as_str().unwrap();
    for body in ["[[]]", r#"{"tags": [["team", "nlp"]]}"#] {
        let request = Request::patch(format!("/api/v1/tasks/{id}/tags"))
            .header("content-type", "application/json")
            .body(Body::from(body))
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let problem: Value = serde_json::from_slice(&bytes).unwrap();
        // A body's fault, named as one (it was `query.invalid`).
        assert_eq!(problem["code"], "body.invalid", "{problem}");
        assert!(
            problem["detail"]
                .as_str()
                .unwrap_or_default()
                .starts_with("the body must be {\"tags\": [...]}"),
            "{problem}"
        );
    }
}

/// Every text of `value` under a `description` member, with where it is.
fn descriptions<'a>(value: &'a Value, at: &str, out: &mut Vec<(String, &'a str)>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                let here = format!("{at}/{key}");
                match value {
                    Value::String(text) if key == "description" => out.push((here, text)),
                    _ => descriptions(value, &here, out),
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                descriptions(item, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// The descriptions are the API's documentation for its users, written from doc
/// comments: a rustdoc link (`` [`ReaderLang`] ``, `` [`crate::Catalog::for_user`] ``)
/// names code they cannot see. The tester found 17.
#[tokio::test]
async fn no_description_carries_a_rustdoc_link() {
    let (json, _) = document(&demo_app().await).await;
    let mut all = Vec::new();
    descriptions(&json, "", &mut all);
    assert!(all.len() > 100, "descriptions were found ({})", all.len());
    let linked: Vec<String> = all
        .iter()
        .filter(|(_, text)| has_rustdoc_link(text) || text.contains("crate::"))
        .map(|(at, text)| format!("{at}: {text}"))
        .collect();
    assert!(linked.is_empty(), "{}", linked.join("\n"));
}

/// Whether `text` has a rustdoc link, `` [`Name`] `` or `` [`a::b`](path) ``: a backticked
/// word in brackets. A bracket in code (`` `[` or `{` ``) is not one.
fn has_rustdoc_link(text: &str) -> bool {
    text.match_indices("[`").any(|(at, _)| {
        let rest = &text[at + 2..];
        rest.find("`]")
            .is_some_and(|end| end > 0 && !rest[..end].contains(char::is_whitespace))
    })
}

#[test]
fn a_rustdoc_link_is_told_from_a_bracket_in_code() {
    assert!(has_rustdoc_link("read by [`ReaderLang`], listed"));
    assert!(has_rustdoc_link("see [`crate::Catalog::for_user`])"));
    assert!(has_rustdoc_link("[`Usage`](crate::usage::Usage)"));
    assert!(!has_rustdoc_link(
        "The line of the `[` or `{` still open there"
    ));
    assert!(!has_rustdoc_link("`[1, 2]` and `{}`"));
}
