//! Every route through the router, without a socket.

use super::demo_app;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};

/// Sends `request` to a fresh demo app.
pub(crate) async fn call(request: Request<Body>) -> (StatusCode, Value) {
    super::answer(&demo_app().await, request).await
}

pub(crate) fn post(path: &str, body: impl Into<Body>) -> Request<Body> {
    Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.into())
        .expect("a valid request")
}

#[tokio::test]
async fn healthz_answers_ok() {
    for path in ["/healthz", "/readyz"] {
        let (status, body) = call(Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(body["status"], "ok");
    }
}

#[tokio::test]
async fn catalog_shows_only_the_users_view_and_masks_hidden_values() {
    let (status, body) = call(Request::get("/api/v1/catalog").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["user"]["name"], "alice");
    let groups: Vec<&str> = body["catalog"]["project_groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(groups, ["nlp", "vision"], "alice must not see bob's groups");
    let env = body["catalog"]["persistent_env"].as_array().unwrap();
    let secret = env
        .iter()
        .find(|v| v["name"] == "WANDB_API_KEY")
        .expect("alice's hidden variable is listed");
    assert_eq!(secret["value"], "******");
    assert!(body.to_string().find("wandb-demo-secret").is_none());
}

/// The catalog answer gives the use outside Berth beside the live use, so the form can
/// say a task waits for capacity Berth cannot free (as the scheduler's reason does): a
/// task running adds to the live use only.
#[tokio::test]
async fn catalog_gives_the_use_outside_berth_apart_from_berths_own() {
    let app = crate::demo_app().await;
    let outside_nodes = shared::demo::usage().nodes;
    let read = || async {
        let request = Request::get("/api/v1/catalog").body(Body::empty()).unwrap();
        let (status, body) = crate::answer(&app, request).await;
        assert_eq!(status, StatusCode::OK);
        body
    };
    let before = read().await;
    assert_eq!(before["outside"]["nodes"], json!(outside_nodes));
    assert_eq!(before["usage"]["nodes"], before["outside"]["nodes"]);
    let id = crate::submit(&app, &crate::pytorch("sleep 30")).await;
    let after = read().await;
    assert_eq!(after["outside"]["nodes"], json!(outside_nodes));
    assert_ne!(after["usage"]["nodes"], after["outside"]["nodes"]);
    let stop = Request::post(format!("/api/v1/tasks/{id}/stop"))
        .body(Body::empty())
        .unwrap();
    crate::answer(&app, stop).await;
}

#[tokio::test]
async fn validate_answers_findings_and_plan() {
    let (status, body) = call(post("/api/v1/validate", shared::demo::PYTORCH_EXAMPLE)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["issues"], json!([]));
    assert_eq!(body["plan"]["outcome"]["outcome"], "now");
}

#[tokio::test]
async fn a_spec_of_the_wrong_shape_is_422_with_the_field_named() {
    let (status, body) = call(post(
        "/api/v1/validate",
        r#"{"compute": {"workers": "two"}}"#,
    ))
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    // Pinned: the console parses this body.
    assert_eq!(
        body,
        json!({
            "type": "about:blank",
            "title": "Unprocessable Entity",
            "status": 422,
            "code": "spec.invalid",
            "detail": "the spec does not pass Berth's checks; `issues` lists each finding",
            "issues": [{
                "path": "compute.workers",
                "code": "value.invalid",
                "params": { "expected": { "kind": "whole_number" }, "found": { "kind": "text", "value": "two" } },
                "severity": "error",
                "message": "is not valid: expected a whole number, 0 or more, found the text \"two\""
            }]
        })
    );
}

#[tokio::test]
async fn messages_come_in_the_readers_language() {
    let spec = r#"{"compute": {"workers": "two"}}"#;
    let chinese = "格式不正确：应为非负整数，实际为文本 \"two\"";
    let (_, body) = call(post("/api/v1/validate?lang=zh-CN", spec)).await;
    assert_eq!(body["issues"][0]["message"], chinese);
    let mut request = post("/api/v1/validate", spec);
    request.headers_mut().insert(
        header::ACCEPT_LANGUAGE,
        "fr-FR,zh-CN;q=0.9,en;q=0.8".parse().unwrap(),
    );
    let (_, body) = call(request).await;
    assert_eq!(body["issues"][0]["message"], chinese);
    // The query wins over the header.
    let mut request = post("/api/v1/validate?lang=en", spec);
    request
        .headers_mut()
        .insert(header::ACCEPT_LANGUAGE, "zh-CN".parse().unwrap());
    let (_, body) = call(request).await;
    assert!(
        body["issues"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("is not valid")
    );
}

#[tokio::test]
async fn unknown_paths_fall_back_to_the_console() {
    // A path that only starts with `api`, or has it further on, is the console's: only a
    // first segment `api` is the API's (`//api/...` too, problems.rs).
    for path in ["/tasks/new", "/apiary", "/tasks/api", "/api.html"] {
        let (status, body) = call(Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            body.as_str()
                .is_some_and(|html| html.contains("<title>Berth</title>")),
            "{path}"
        );
    }
}

/// The detail of a refused key says "visible characters": a space is not one, between
/// visible ones either (the tester's `a b` was taken).
#[tokio::test]
async fn an_idempotency_key_is_visible_characters_only() {
    let app = demo_app().await;
    let with_key = |key: &str| {
        let mut request = post("/api/v1/tasks", "{}");
        request
            .headers_mut()
            .insert("idempotency-key", key.parse().expect("a header value"));
        request
    };
    for key in ["a b", "a\tb", " ", "a  b"] {
        let (status, body) = super::answer(&app, with_key(key)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{key:?}: {body}");
        // A header's, not a query's (platform explorer).
        assert_eq!(body["code"], "header.invalid", "{key:?}: {body}");
        assert_eq!(
            body["detail"], "Idempotency-Key must be 1 to 255 visible ASCII characters, no spaces",
            "{key:?}"
        );
    }
    // A good key passes on to the spec, which `{}` is not.
    for key in ["a-b", "~!", &"k".repeat(255)] {
        let (status, body) = super::answer(&app, with_key(key)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{key:?}: {body}");
    }
    // Two keys: which was meant cannot be told (the first was taken, and a retry with
    // the second alone made a second task).
    let mut twice = with_key("k1");
    twice
        .headers_mut()
        .append("idempotency-key", "k2".parse().unwrap());
    let (status, body) = super::answer(&app, twice).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "header.invalid", "{body}");
    assert_eq!(
        body["detail"],
        "Idempotency-Key is given more than once; send one"
    );
}

fn get(path: &str) -> Request<Body> {
    Request::get(path)
        .body(Body::empty())
        .expect("a valid request")
}

/// A refused `phase` names the values to ask for instead: each of them is taken, `active`
/// among them, and `deleted`, a 400 itself, is not.
#[tokio::test]
async fn a_refused_phase_lists_exactly_the_phases_a_list_takes() {
    let app = demo_app().await;
    let (status, body) = super::answer(&app, get("/api/v1/tasks?phase=bogus")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "query.invalid", "{body}");
    let detail = body["detail"].as_str().unwrap_or_default();
    let offered: Vec<&str> = detail
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| *word != "bogus" && *word != "phase")
        .collect();
    assert!(offered.len() >= 7, "{detail}");
    assert!(!offered.contains(&"deleted"), "{detail}");
    // Taken too, so named (platform explorer: a script's author could not find it).
    assert!(offered.contains(&"active"), "{detail}");
    for phase in offered {
        let (status, body) =
            super::answer(&app, get(&format!("/api/v1/tasks?phase={phase}"))).await;
        assert_eq!(status, StatusCode::OK, "{phase}: {body}");
    }
    let (status, body) = super::answer(&app, get("/api/v1/tasks?phase=deleted")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "query.invalid", "{body}");
}

/// README: `tag` is `key` or `key=value`. One that is neither, or whose key no tag could
/// have, is a 400 that names the parameter and its syntax: it answered `[]`, as if no
/// task had the tag.
#[tokio::test]
async fn a_tag_filter_that_is_not_key_or_key_value_is_refused() {
    let app = demo_app().await;
    for tag in [
        "",
        "=x",
        "bad%20key!!",
        "a=b=c",
        "-team",
        "team=bad%20value",
    ] {
        let (status, body) = super::answer(&app, get(&format!("/api/v1/tasks?tag={tag}"))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{tag:?}: {body}");
        assert_eq!(body["code"], "query.invalid", "{tag:?}: {body}");
        let detail = body["detail"].as_str().unwrap_or_default();
        assert!(
            detail.contains("tag") && detail.contains("`key` or `key=value`"),
            "{tag:?}: {detail}"
        );
    }
    for tag in ["team", "team=nlp", "team=", "example.com/team=a.b_c-1"] {
        let (status, body) = super::answer(&app, get(&format!("/api/v1/tasks?tag={tag}"))).await;
        assert_eq!(status, StatusCode::OK, "{tag:?}: {body}");
    }
    // Spaces around the key or value are no part of either, as typed (`team = nlp`):
    // the filter is the tag's (newcomer explorer: refused in words a newcomer could not
    // act on).
    let (_, spec) = super::answer(&app, get("/api/v1/examples")).await;
    let (status, made) =
        super::answer(&app, post("/api/v1/tasks", spec["pytorch"].to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let tag = &made["tags"][0];
    let (key, value) = (tag["key"].as_str().unwrap(), tag["value"].as_str().unwrap());
    for typed in [format!("{key}%20=%20{value}"), format!("%20{key}%20")] {
        let (status, body) = super::answer(&app, get(&format!("/api/v1/tasks?tag={typed}"))).await;
        assert_eq!(status, StatusCode::OK, "{typed}: {body}");
        assert!(
            body["tasks"]
                .as_array()
                .is_some_and(|t| t.iter().any(|t| t["id"] == made["id"])),
            "{typed}: {body}"
        );
    }
}

/// README: "any other query parameter is a 400, as on `/tasks` and `/logs`", on every
/// route: a misspelt parameter answered as if it were not there. Each operation of the
/// OpenAPI document (which lists exactly the served routes) is asked with a parameter it
/// does not take, and with each one it documents; the 400 is documented too. Ids and
/// tokens are made up: the query is refused before anything is looked up.
#[tokio::test]
async fn every_route_refuses_a_query_parameter_it_does_not_take() {
    let app = demo_app().await;
    let (status, document) = super::answer(&app, get("/api/v1/openapi.json")).await;
    assert_eq!(status, StatusCode::OK);
    let mut asked = 0;
    for (template, item) in document["paths"].as_object().expect("paths") {
        if !template.starts_with("/api/") {
            continue;
        }
        let path = template
            .replace("{id}", "no-such-task")
            .replace("{token}", "0")
            .replace("{link}", "1");
        for (method, op) in item.as_object().expect("operations") {
            let request = |query: &str| {
                Request::builder()
                    .method(method.to_uppercase().as_str())
                    .uri(format!("{path}?{query}"))
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Body::from("{}"))
                    .expect("a valid request")
            };
            let (status, body) = super::answer(&app, request("x=1")).await;
            assert_eq!(
                (status, &body["code"]),
                (StatusCode::BAD_REQUEST, &json!("query.invalid")),
                "{method} {path}?x=1: {}",
                body["detail"]
            );
            assert!(
                op["responses"].get("400").is_some(),
                "{method} {template} documents its 400"
            );
            let documented = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|p| p["in"] == "query");
            for param in documented {
                let name = param["name"].as_str().expect("a name");
                let value = match name {
                    _ if param["schema"]["enum"][0].is_string() => {
                        param["schema"]["enum"][0].as_str().unwrap()
                    }
                    "lang" => "en",
                    "type" => "pytorch_job",
                    "mine" | "follow" => "true",
                    "limit" | "replica" | "attempt" | "tail_bytes" | "before" => "1",
                    // Refused unless it names a real value (a cursor given, a task
                    // the caller may see): their own tests ask with one.
                    "cursor" | "made_from" => continue,
                    _ => "x",
                };
                let (_, body) = super::answer(&app, request(&format!("{name}={value}"))).await;
                assert_ne!(
                    body["code"], "query.invalid",
                    "{method} {path}?{name}={value}: {}",
                    body["detail"]
                );
            }
            asked += 1;
        }
    }
    assert!(asked >= 16, "every operation was asked ({asked})");
}
