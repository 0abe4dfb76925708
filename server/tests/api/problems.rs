//! Every error answer is an RFC 9457 problem detail (`application/problem+json`).

use super::demo_app;
use super::routes::post;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use shared::api::MAX_FINDINGS_PER_CODE;
use std::collections::HashMap;
use tower::ServiceExt;

/// Status, headers and the parsed problem body; checks the problem's own members.
async fn problem(request: Request<Body>) -> (StatusCode, HeaderMap, Value) {
    let response = demo_app()
        .await
        .oneshot(request)
        .await
        .expect("the router answers");
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.expect("readable").to_bytes();
    let body: Value = serde_json::from_slice(&bytes).expect("the problem is JSON");
    assert_eq!(
        parts.headers[header::CONTENT_TYPE],
        server::PROBLEM_JSON,
        "{body}"
    );
    assert_eq!(body["status"], parts.status.as_u16(), "{body}");
    assert_eq!(body["type"], "about:blank");
    assert_eq!(
        body["title"],
        parts.status.canonical_reason().unwrap(),
        "{body}"
    );
    assert!(body["detail"].is_string(), "{body}");
    (parts.status, parts.headers, body)
}

#[tokio::test]
async fn malformed_json_is_400_with_line_and_column() {
    let (status, _, body) =
        problem(post("/api/v1/validate", "{\n  \"version\": 1,\n  oops\n}")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["code"], "body.invalid_json");
    assert_eq!(
        (body["line"].clone(), body["column"].clone()),
        (json!(3), json!(3))
    );
    let detail = body["detail"].as_str().unwrap();
    assert!(detail.contains("line 3 column 3"), "{detail}");
}

/// A query parameter whose value or name is not UTF-8 once its %-escapes are decoded is a
/// 400 naming it, as a path parameter's is (exploratory test: read as U+FFFD, `name=%ff`
/// listed no task, as if there were none).
#[tokio::test]
async fn a_query_parameter_that_is_not_utf8_is_a_400_naming_it() {
    for (path, detail) in [
        ("/api/v1/tasks?name=%ff", "`name` must be UTF-8 text"),
        ("/api/v1/tasks?owner=a%ff", "`owner` must be UTF-8 text"),
        (
            "/api/v1/tasks?limit=5&group=%c3",
            "`group` must be UTF-8 text",
        ),
        ("/api/v1/tasks?tag=%ff", "`tag` must be UTF-8 text"),
        ("/api/v1/tasks?tag=team=%ff", "`tag` must be UTF-8 text"),
        (
            "/api/v1/tasks/x/events?kind=%ff",
            "`kind` must be UTF-8 text",
        ),
        ("/api/v1/catalog?%ff=1", "the query parameter named `%ff`"),
        ("/api/v1/tasks?a%ffb", "the query parameter named `a%ffb`"),
    ] {
        let (status, _, body) = problem(Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        assert_eq!(body["code"], "query.invalid", "{path}: {body}");
        let said = body["detail"].as_str().unwrap();
        assert!(said.starts_with(detail), "{path}: {said}");
        assert!(said.contains("UTF-8"), "{path}: {said}");
    }
    // UTF-8 %-escaped is read; a `lang` Berth cannot read is passed over, as any it does
    // not speak.
    for path in [
        "/api/v1/tasks?name=%C3%A4+x",
        "/api/v1/tasks?lang=%ff",
        "/api/v1/tasks?limit=5&lang=zh%ff",
    ] {
        let (status, body) =
            super::routes::call(Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
    }
}

/// A number JSON allows but the reader cannot hold is a 400 naming its field, not one
/// saying the JSON is not valid (exploratory test: "the request body is not valid JSON:
/// number out of range at line 1 column 39", for checks and submits alike).
#[tokio::test]
async fn a_number_too_large_to_read_is_400_naming_its_field() {
    let digits = "1".repeat(5000);
    for (path, spec, field, column) in [
        (
            "/api/v1/validate",
            r#"{"version":1,"compute":{"workers":1e400}}"#.to_owned(),
            "compute.workers",
            39,
        ),
        (
            "/api/v1/tasks",
            r#"{"version":1,"compute":{"workers":1e400}}"#.to_owned(),
            "compute.workers",
            39,
        ),
        (
            "/api/v1/validate",
            format!(r#"{{"version":1,"compute":{{"workers":{digits}}}}}"#),
            "compute.workers",
            5034,
        ),
    ] {
        let (status, _, body) = problem(post(path, spec)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["code"], "body.invalid_json", "{body}");
        assert_eq!(
            body["detail"],
            format!(
                "the request body holds a number too large to read at `{field}` (line 1, \
                 column {column}): no field takes a number that large"
            ),
            "{path}"
        );
        assert_eq!(body["column"], column, "{body}");
    }
}

#[tokio::test]
async fn a_duplicate_key_anywhere_is_400_naming_it() {
    let spec = "{\"environment\": {\"env\": [\n  {\"name\": \"A\", \"value\": \"1\", \"name\": \"B\"}\n]}}";
    let (status, _, body) = problem(post("/api/v1/validate", spec)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["code"], "body.duplicate_key");
    assert_eq!(
        body["detail"],
        "the key `name` appears twice in environment.env[0] (line 2, column 36)"
    );
    assert_eq!(
        (body["line"].clone(), body["column"].clone()),
        (json!(2), json!(36))
    );
    // At the top level too.
    let (status, _, body) =
        problem(post("/api/v1/validate", r#"{"version": 1, "version": 1}"#)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["code"], "body.duplicate_key");
}

#[tokio::test]
async fn oversized_bodies_are_413() {
    let big = format!(
        "{{\"environment\": {{\"command\": \"{}\"}}}}",
        "x".repeat(server::MAX_BODY_BYTES)
    );
    let (status, _, body) = problem(post("/api/v1/validate", big)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(body["code"], "body.too_large");
    assert_eq!(
        body["detail"],
        format!(
            "the request body is larger than {} bytes",
            server::MAX_BODY_BYTES
        )
    );
}

#[tokio::test]
async fn a_body_not_declared_json_is_415() {
    let request = Request::post("/api/v1/validate")
        .header(header::CONTENT_TYPE, "text/plain")
        .body(Body::from(shared::demo::PYTORCH_EXAMPLE))
        .unwrap();
    let (status, _, body) = problem(request).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(body["code"], "body.unsupported_media_type");
    assert!(body["detail"].as_str().unwrap().contains("text/plain"));
    let request = Request::post("/api/v1/validate")
        .body(Body::from("{}"))
        .unwrap();
    let (status, _, _) = problem(request).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

/// A compressed body says which header to leave out; a body the client broke (a bad
/// chunk, a body cut off) is its fault, a 400, not the server's 500 (security
/// exploration: operators' alerts on 5xx fired on it).
#[tokio::test]
async fn a_compressed_or_broken_body_is_a_400_that_says_what_to_send() {
    let request = Request::post("/api/v1/validate")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_ENCODING, "gzip")
        .body(Body::from(vec![0x1f, 0x8b, 0x08, 0x00]))
        .unwrap();
    let (status, _, body) = problem(request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "body.invalid");
    let detail = body["detail"].as_str().unwrap();
    assert!(detail.contains("Content-Encoding `gzip`"), "{detail}");
    assert!(detail.contains("send it uncompressed"), "{detail}");
    let broken = futures_util::stream::iter([
        Ok::<_, std::io::Error>(axum::body::Bytes::from_static(b"{\"ver")),
        Err(std::io::Error::other("the client went away")),
    ]);
    let request = Request::post("/api/v1/validate")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from_stream(broken))
        .unwrap();
    let (status, _, body) = problem(request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "body.invalid");
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("could not be read to its end"),
        "{body}"
    );
}

#[tokio::test]
async fn a_spec_of_the_wrong_shape_is_422_in_the_readers_language() {
    let (status, _, body) = problem(post(
        "/api/v1/validate?lang=zh-CN",
        r#"{"compute": {"workers": "two"}}"#,
    ))
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["code"], "spec.invalid");
    assert_eq!(body["issues"][0]["path"], "compute.workers");
    assert_eq!(
        body["issues"][0]["message"],
        "格式不正确：应为非负整数，实际为文本 \"two\""
    );
}

/// A spec with several unknown fields (one written for another tool) is a 422 that
/// names each at its place; validate also says what the rules find in the rest, which
/// reads without them.
#[tokio::test]
async fn every_unknown_field_is_named_and_the_rest_validated() {
    let mut spec: Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    spec["foo"] = 1.into();
    spec["bar"] = 2.into();
    spec["basic"]["baz"] = 3.into();
    spec["basic"]["name_prefix"] = "Bad_Name".into();
    let unknown = |body: &Value| -> Vec<String> {
        let issues = body["issues"].as_array().expect("issues");
        issues
            .iter()
            .filter(|i| i["code"] == "value.invalid")
            .map(|i| {
                assert_eq!(i["severity"], "error", "{i}");
                assert_eq!(i["params"]["expected"]["kind"], "known_field", "{i}");
                assert!(
                    i["message"]
                        .as_str()
                        .is_some_and(|m| m.starts_with("is not a known field; fields here: ")),
                    "{i}"
                );
                i["path"].as_str().unwrap().to_owned()
            })
            .collect()
    };
    // The keys in the text's order (serde_json's object sorts them).
    let paths = ["bar", "basic.baz", "foo"];
    let (status, _, body) = problem(post("/api/v1/validate", spec.to_string())).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "spec.invalid");
    assert_eq!(unknown(&body), paths, "{body}");
    let codes: Vec<&str> = body["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes[3..],
        ["basic.name_prefix.invalid_chars"],
        "the rules' findings after the unknown fields': {body}"
    );
    // A submit is refused with the same findings: each unknown field named, then the
    // rules' (it named the unknown fields alone: migrant explorer).
    let validated = body;
    let (status, _, body) = problem(post("/api/v1/tasks", spec.to_string())).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(unknown(&body), paths, "{body}");
    assert_eq!(body["issues"], validated["issues"], "{body}");
}

/// An env var's value of the wrong shape is named by its kind, not echoed: it may be a
/// hidden one, whose `hidden` the body gives after it.
#[tokio::test]
async fn a_hidden_value_of_the_wrong_shape_is_not_echoed() {
    for path in ["/api/v1/validate", "/api/v1/tasks"] {
        let (status, _, body) = problem(post(
            path,
            r#"{"version":1,"environment":{"env":[{"name":"X","value":987654321,"hidden":true}]}}"#,
        ))
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{path}");
        assert_eq!(body["issues"][0]["path"], "environment.env[0].value");
        assert!(!body.to_string().contains("987654321"), "{path}: {body}");
        assert!(
            body["issues"][0]["message"]
                .as_str()
                .is_some_and(|m| m.contains("found the number ******")),
            "{body}"
        );
    }
}

/// Only hidden values are masked (README): a value of the wrong shape in an env var
/// that is not hidden is the caller's own text, echoed as any other finding's is. When
/// the body does not say the var is not hidden, its value stays masked.
#[tokio::test]
async fn a_value_of_the_wrong_shape_is_echoed_unless_it_may_be_hidden() {
    for path in ["/api/v1/validate", "/api/v1/tasks", "/api/v1/render"] {
        for (var, echoed) in [
            (r#"{"name":"X","value":987654321}"#, true),
            (r#"{"name":"X","value":987654321,"hidden":false}"#, true),
            (r#"{"hidden":false,"name":"X","value":987654321}"#, true),
            (r#"{"name":"X","value":987654321,"hidden":true}"#, false),
            (r#"{"name":"X","value":987654321,"hidden":"no"}"#, false),
        ] {
            let spec = format!(
                r#"{{"version":1,"environment":{{"env":[{{"name":"A","value":"1"}},{var}]}}}}"#
            );
            let (status, _, body) = problem(post(path, spec)).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{path} {var}");
            assert_eq!(body["issues"][0]["path"], "environment.env[1].value");
            let message = body["issues"][0]["message"].as_str().unwrap_or_default();
            let shown = if echoed { "987654321" } else { "******" };
            assert!(
                message.contains(&format!("found the number {shown}")),
                "{path} {var}: {body}"
            );
            assert_eq!(
                body.to_string().contains("987654321"),
                echoed,
                "{path} {var}: {body}"
            );
        }
    }
}

/// `method path` answers a 400 `path.invalid` whose detail names the parameter `name`
/// and says `what` is wrong with it.
async fn path_refused(method: &str, path: &str, name: &str, what: &str) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .body(Body::empty())
        .unwrap();
    let (status, _, body) = problem(request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{method} {path}: {body}");
    assert_eq!(body["code"], "path.invalid", "{method} {path}: {body}");
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains(&format!("`{name}`")) && detail.contains(what),
        "{method} {path}: {detail}"
    );
}

/// README: every `/api` error is a problem detail whose `detail` names the parameter.
/// A task id or share token that is not UTF-8 once decoded was axum's plain-text 400
/// ("Invalid URL: Invalid UTF-8 in `id`").
#[tokio::test]
async fn a_path_parameter_that_is_not_utf8_is_a_problem_naming_it() {
    for (method, path, name) in [
        ("GET", "/api/v1/tasks/%ff", "id"),
        ("POST", "/api/v1/tasks/%ff/stop", "id"),
        ("DELETE", "/api/v1/tasks/%ff", "id"),
        ("GET", "/api/v1/tasks/%ff/logs", "id"),
        ("GET", "/api/v1/shared/%ff", "token"),
    ] {
        path_refused(method, path, name, "UTF-8").await;
    }
    // Escapes of UTF-8 text are an id like any other: no such task.
    let request = Request::get("/api/v1/tasks/%E4%B8%AD")
        .body(Body::empty())
        .unwrap();
    let (status, _, body) = problem(request).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
}

/// README: a query parameter that is not valid is a 400 whose `detail` names it and
/// what it takes. These gave the deserializer's words ("Failed to deserialize query
/// string: limit: invalid digit found in string", "duplicate field `phase`").
#[tokio::test]
async fn a_query_value_that_does_not_read_names_its_parameter_and_what_it_takes() {
    for (query, expected) in [
        (
            "/api/v1/tasks?limit=-1",
            "`limit` must be a whole number from 0 to 4294967295 (a page holds 1 to 500 tasks: 0 is read as 1, more than 500 as 500)",
        ),
        (
            "/api/v1/tasks?limit=abc",
            "`limit` must be a whole number from 0 to 4294967295 (a page holds 1 to 500 tasks: 0 is read as 1, more than 500 as 500)",
        ),
        (
            "/api/v1/tasks?limit=1.5",
            "`limit` must be a whole number from 0 to 4294967295 (a page holds 1 to 500 tasks: 0 is read as 1, more than 500 as 500)",
        ),
        ("/api/v1/tasks?mine=yes", "`mine` must be `true` or `false`"),
        (
            "/api/v1/tasks?type=tf_job",
            "`type` must be `pytorch_job` or `ray_job`",
        ),
        (
            "/api/v1/tasks?phase=running&phase=failed",
            "`phase` may be given once",
        ),
        (
            "/api/v1/tasks?limit=5&name=a&limit=5",
            "`limit` may be given once",
        ),
        (
            "/api/v1/tasks?lang=en&lang=zh-CN",
            "`lang` may be given once",
        ),
        (
            "/api/v1/tasks/no-such/logs?replica=x",
            "`replica` must be a whole number, 0 or more",
        ),
        (
            "/api/v1/tasks/no-such/logs?replica=-1",
            "`replica` must be a whole number, 0 or more",
        ),
        (
            "/api/v1/tasks/no-such/logs?attempt=x",
            "`attempt` must be a whole number from 1",
        ),
        (
            "/api/v1/tasks/no-such/logs?follow=maybe",
            "`follow` must be `true` or `false`",
        ),
        (
            "/api/v1/tasks?limt=5",
            "`limt` is not a query parameter of this route, which takes `phase`",
        ),
        (
            "/api/v1/catalog?x=1",
            "`x` is not a query parameter of this route, which takes none",
        ),
        (
            "/api/v1/tasks/no-such/events?since=0",
            "`since` is not a query parameter of this route, which takes `lang`",
        ),
    ] {
        let (status, _, body) = problem(Request::get(query).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert_eq!(body["code"], "query.invalid", "{query}: {body}");
        let detail = body["detail"].as_str().unwrap();
        assert!(detail.starts_with(expected), "{query}: {detail}");
        assert!(!detail.contains("deserialize"), "{query}: {detail}");
    }
}

#[tokio::test]
async fn an_unknown_api_path_is_a_404_problem_not_the_console() {
    // `//api/...` too, which no route matches for its empty segment (a portal's base
    // ending in `/`): it was the console's page, with a 200.
    for path in [
        "/api/v1/nope",
        "/api/v2/catalog",
        "/api",
        "/api/",
        "//api/v1/catalog",
        "///api/v1/examples",
    ] {
        let (status, _, body) = problem(Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(body["code"], "route.not_found");
        assert_eq!(body["detail"], format!("no API route {path}"));
    }
}

#[tokio::test]
async fn a_wrong_method_is_405_with_allow() {
    let (status, headers, body) = problem(
        Request::get("/api/v1/validate")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(headers[header::ALLOW], "POST");
    assert_eq!(body["code"], "method.not_allowed");
    assert_eq!(body["detail"], "GET is not allowed here");
    let (status, headers, _) = problem(
        Request::delete("/api/v1/catalog")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(headers[header::ALLOW].to_str().unwrap().contains("GET"));
}

#[tokio::test]
async fn ten_thousand_identical_env_vars_give_a_bounded_answer() {
    let mut spec: Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    spec["environment"]["env"] = Value::Array(vec![json!({"name": "FOO", "value": "x"}); 10_000]);
    let text = spec.to_string();
    let response = demo_app()
        .await
        .oneshot(post("/api/v1/validate", text.clone()))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    assert!(
        bytes.len() < 64 * 1024,
        "{} bytes answered for {} sent",
        bytes.len(),
        text.len()
    );
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    let issues = body["issues"].as_array().unwrap();
    let mut per_code: HashMap<&str, usize> = HashMap::new();
    for issue in issues {
        *per_code.entry(issue["code"].as_str().unwrap()).or_default() += 1;
    }
    assert!(
        per_code.values().all(|&n| n <= MAX_FINDINGS_PER_CODE),
        "{per_code:?}"
    );
    assert_eq!(
        per_code.get("env.name.duplicate"),
        Some(&MAX_FINDINGS_PER_CODE),
        "{per_code:?}"
    );
    // The first findings are kept, in order.
    assert_eq!(issues[0]["path"], "environment.env[1].name");
    let full = shared::check_json(
        &text,
        &shared::demo::catalog(),
        &shared::demo::usage(),
        &shared::demo::user(),
    );
    assert_eq!(
        body["truncated"],
        full.issues.issues().len() - issues.len(),
        "truncated counts what was left out"
    );
}

#[tokio::test]
async fn a_valid_spec_has_no_truncated_member() {
    let response = demo_app()
        .await
        .oneshot(post("/api/v1/validate", shared::demo::PYTORCH_EXAMPLE))
        .await
        .unwrap();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(body.get("truncated").is_none(), "{body}");
}

/// A query of thousands of parameters is refused at once, not read one by one to find
/// the wrong one.
#[tokio::test]
async fn a_query_of_too_many_parameters_is_refused_as_such() {
    let query: Vec<String> = (0..5000).map(|i| format!("p{i}")).collect();
    let path = format!("/api/v1/tasks?{}", query.join("&"));
    let (status, _, body) = problem(Request::get(path).body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body["detail"], "a query takes at most 64 parameters; this one has 5000",
        "{body}"
    );
}

/// An empty owner or group is refused naming it, as an empty tag is: a script's unset
/// variable (`owner=$USER`) listed nothing without a word (API explorer).
#[tokio::test]
async fn an_empty_owner_or_group_is_a_400_naming_it() {
    for (path, name) in [
        ("/api/v1/tasks?owner=", "owner"),
        ("/api/v1/tasks?group=&limit=5", "group"),
    ] {
        let (status, _, body) = problem(Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        assert_eq!(body["code"], "query.invalid", "{path}: {body}");
        let detail = body["detail"].as_str().unwrap();
        assert!(
            detail.starts_with(&format!("`{name}` is empty")) && detail.contains("leave it out"),
            "{path}: {detail}"
        );
    }
}

/// README: a query parameter that is not valid is a 400 naming it. A NUL reached the
/// store: a 500 on PostgreSQL (whose text cannot hold one) and on SQLite a `name` filter
/// that stopped at it (`name=%00zzz` listed every task).
#[tokio::test]
async fn a_nul_in_a_query_value_is_a_400_naming_its_parameter() {
    for (path, name) in [
        ("/api/v1/tasks?name=%00", "name"),
        ("/api/v1/tasks?name=%00zzz", "name"),
        ("/api/v1/tasks?owner=%00", "owner"),
        ("/api/v1/tasks?group=a%00", "group"),
        ("/api/v1/tasks?tag=team=%00", "tag"),
    ] {
        let (status, _, body) = problem(Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        assert_eq!(body["code"], "query.invalid", "{path}: {body}");
        let detail = body["detail"].as_str().unwrap();
        assert!(
            detail.contains(&format!("`{name}`")) && detail.contains("NUL"),
            "{path}: {detail}"
        );
    }
    // A NUL in a parameter's name is named as the address wrote it.
    let path = "/api/v1/tasks?na%00me=x";
    let (status, _, body) = problem(Request::get(path).body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains("the query parameter named `na%00me` must not hold a NUL"),
        "{detail}"
    );
    // A parameter with no name is named by what was sent, not by empty quotes.
    let (status, _, body) = problem(
        Request::get("/api/v1/tasks?=x")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("a parameter with no name (`=x`) is not a query parameter"),
        "{detail}"
    );
    // `lang` reaches no store: a tag with a NUL is one Berth does not speak, passed over
    // for `Accept-Language` as any other (its schema, a string, allows it).
    for path in [
        "/api/v1/tasks?limit=5&lang=%00",
        "/api/v1/tasks?lang=en%00zh",
    ] {
        let (status, body) =
            super::routes::call(Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
    }
    // A list cursor whose task id holds a NUL (`1796228048608/\0`) is no cursor this
    // server gave.
    let path = "/api/v1/tasks?cursor=313739363232383034383630382f00";
    let (status, _, body) = problem(Request::get(path).body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "query.invalid", "{body}");
    assert!(
        body["detail"].as_str().unwrap().contains("cursor"),
        "{body}"
    );
}

/// As a path parameter that is not UTF-8 (above): a task id or token with a NUL can
/// name nothing a store holds, and was a 500 on PostgreSQL.
#[tokio::test]
async fn a_nul_in_a_path_parameter_is_a_400_naming_it() {
    for (method, path, name) in [
        ("GET", "/api/v1/tasks/%00", "id"),
        ("GET", "/api/v1/tasks/a%00/events", "id"),
        ("GET", "/api/v1/tasks/a%00b/spec", "id"),
        ("POST", "/api/v1/tasks/%00/stop", "id"),
        ("DELETE", "/api/v1/tasks/%00", "id"),
        ("DELETE", "/api/v1/tasks/a%00/share/1", "id"),
        ("GET", "/api/v1/shared/%00", "token"),
    ] {
        path_refused(method, path, name, "NUL").await;
    }
}

/// `GET /tasks`' `name` (OpenAPI): text longer than any task name can be (54
/// characters) matches none. 50,000 characters were SQLite's LIKE pattern limit: a 500.
#[tokio::test]
async fn a_name_filter_longer_than_any_name_lists_nothing() {
    let app = demo_app().await;
    let id = super::submit(&app, &super::pytorch("true")).await;
    let list = |name: String| {
        Request::get(format!("/api/v1/tasks?name={name}"))
            .body(Body::empty())
            .unwrap()
    };
    let (status, page) = super::answer(&app, list(id.clone())).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["tasks"].as_array().map(Vec::len), Some(1), "{page}");
    for name in [format!("{id}{}", "x".repeat(54)), "a".repeat(50_000)] {
        let (status, page) = super::answer(&app, list(name)).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert_eq!(page["tasks"], json!([]), "{page}");
        assert!(page["next"].is_null(), "{page}");
    }
}

/// A number too large for the parameter's type is refused, as its OpenAPI schema says
/// (schemathesis sends one), in words that give the range rather than "not a whole
/// number" (exploratory test, round 11).
#[tokio::test]
async fn a_limit_too_large_to_read_is_refused_with_its_range() {
    for path in [
        "/api/v1/tasks?name=x&limit=99999999999999999999",
        "/api/v1/tasks?limit=4294967296",
    ] {
        let (status, _, body) = problem(Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        let detail = body["detail"].as_str().unwrap_or_default();
        assert!(
            detail.starts_with("`limit` must be a whole number from 0 to 4294967295"),
            "{path}: {detail}"
        );
    }
}

/// RFC 8259 section 8.1 lets a reader ignore a byte order mark, which editors and
/// Windows PowerShell write: it was "expected value at line 1 column 1".
#[tokio::test]
async fn a_json_body_may_start_with_a_byte_order_mark() {
    let spec = format!("\u{feff}{}", shared::demo::PYTORCH_EXAMPLE);
    let (status, body) = super::routes::call(post("/api/v1/validate", spec.clone())).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let app = demo_app().await;
    let (status, task) = super::answer(&app, post("/api/v1/tasks", spec)).await;
    assert_eq!(status, StatusCode::CREATED, "{task}");
    // Only at the start: elsewhere it is no JSON whitespace.
    let (status, _, body) = problem(post("/api/v1/validate", "{\u{feff}}")).await;
    assert_eq!(
        (status, body["code"].clone()),
        (StatusCode::BAD_REQUEST, json!("body.invalid_json"))
    );
}

/// README's error table (`body.invalid`: "`detail` says what is wrong"): a tag of the
/// wrong shape is named by its place in the list.
#[tokio::test]
async fn a_tag_of_the_wrong_shape_is_named_by_its_place() {
    let app = demo_app().await;
    let id = super::submit(&app, &super::pytorch("true")).await;
    let request = Request::patch(format!("/api/v1/tasks/{id}/tags"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(
            r#"{"tags":[{"key":"a","value":"b"},{"key":"team","value":5}]}"#,
        ))
        .unwrap();
    let (status, body) = super::answer(&app, request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "body.invalid", "{body}");
    let detail = body["detail"].as_str().unwrap();
    assert!(detail.contains("tags[1]: value: invalid type"), "{detail}");
    // A tag that is no object is named by its index too.
    let request = Request::patch(format!("/api/v1/tasks/{id}/tags"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(
            r#"{"tags":[{"key":"a","value":"b"},"team=nlp"]}"#,
        ))
        .unwrap();
    let (status, body) = super::answer(&app, request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let detail = body["detail"].as_str().unwrap();
    assert!(detail.contains("tags[1] is not an object"), "{detail}");
    // A body that is no object (the list sent without `{"tags": …}`) says so.
    for sent in [r#"[{"key":"team","value":"nlp"}]"#, "5", "null"] {
        let request = Request::patch(format!("/api/v1/tasks/{id}/tags"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(sent))
            .unwrap();
        let (status, body) = super::answer(&app, request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        let detail = body["detail"].as_str().unwrap();
        assert!(
            detail.ends_with("the body is not an object"),
            "{sent}: {detail}"
        );
    }
}

/// README's API table: stop, resubmit, share, delete and revoke take no body. One sent
/// anyway (an edited spec to resubmit) was ignored: the resubmit answered 201 with the
/// old spec. Refused, saying the route takes none; an empty body, what the console
/// sends, still works.
#[tokio::test]
async fn a_body_sent_to_a_route_that_takes_none_is_refused() {
    let app = demo_app().await;
    let id = super::submit(&app, &super::pytorch("sleep 30")).await;
    let spec = super::pytorch("echo edited").to_string();
    for (method, path, body) in [
        (
            "POST",
            format!("/api/v1/tasks/{id}/resubmit"),
            "garbage".to_owned(),
        ),
        ("POST", format!("/api/v1/tasks/{id}/resubmit"), spec.clone()),
        (
            "POST",
            format!("/api/v1/tasks/{id}/resubmit"),
            r#"{"spec": {}}"#.to_owned(),
        ),
        (
            "POST",
            format!("/api/v1/tasks/{id}/stop"),
            "garbage".to_owned(),
        ),
        ("POST", format!("/api/v1/tasks/{id}/stop"), "[]".to_owned()),
        (
            "POST",
            format!("/api/v1/tasks/{id}/share"),
            "x".repeat(3 << 20),
        ),
        (
            "DELETE",
            format!("/api/v1/tasks/{id}"),
            r#"{"force": true}"#.to_owned(),
        ),
        (
            "DELETE",
            format!("/api/v1/tasks/{id}/share/1"),
            "null".to_owned(),
        ),
    ] {
        let request = Request::builder()
            .method(method)
            .uri(&path)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .unwrap();
        let (status, answer) = super::answer(&app, request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{method} {path}: {answer}");
        assert_eq!(answer["code"], "body.invalid", "{method} {path}: {answer}");
        let detail = answer["detail"].as_str().unwrap();
        assert!(
            detail.contains("takes no request body"),
            "{method} {path}: {detail}"
        );
        assert_eq!(
            detail.contains("POST /api/v1/tasks"),
            path.ends_with("/resubmit"),
            "{method} {path}: {detail}"
        );
    }
    // Nothing was resubmitted, stopped or shared.
    let (_, page) = super::answer(
        &app,
        Request::get("/api/v1/tasks").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(page["tasks"].as_array().map(Vec::len), Some(1), "{page}");
    let (_, links) = super::answer(
        &app,
        Request::get(format!("/api/v1/tasks/{id}/share"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(links, json!([]));
    // As the console sends them, no body; or an empty JSON object, which says nothing.
    for (path, body) in [
        ("share", ""),
        ("share", " { }\n"),
        // A leading byte order mark is read past, as on every JSON route (review, round 17).
        ("share", "\u{feff}{}"),
        ("resubmit", ""),
        ("stop", "{}"),
    ] {
        let request = Request::post(format!("/api/v1/tasks/{id}/{path}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .unwrap();
        let (status, answer) = super::answer(&app, request).await;
        assert!(status.is_success(), "{path} {body:?}: {answer}");
    }
}
