//! `GET /metrics`: requests by route template, submits, admissions, the queue, running
//! tasks and quota in use, scraped after a real submit.

use super::demo_state;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::time::Duration;
use tower::ServiceExt;

async fn call(app: &Router, request: Request<Body>) -> (StatusCode, String) {
    let response = app.clone().oneshot(request).await.expect("answers");
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).unwrap()
}

fn post(path: &str, body: &Value) -> Request<Body> {
    Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

async fn scrape(app: &Router) -> String {
    let response = app.clone().oneshot(get("/metrics")).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("application/openmetrics-text"),
    );
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_submits_admissions_and_quota_after_a_submit() {
    let app = server::app(demo_state().await);
    let mut spec: Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    spec["environment"]["command"] = "sleep 1000".into();
    spec["environment"]["storage"] = json!([]);
    spec["environment"]["datasets"] = json!([]);
    spec["environment"]["models"] = json!([]);
    spec["advanced"]["ssh"] = false.into();
    let (status, body) = call(&app, post("/api/v1/tasks", &spec)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut running = false;
    for _ in 0..300 {
        let (_, task) = call(&app, get(&format!("/api/v1/tasks/{id}"))).await;
        if task.contains(r#""phase":"running""#) {
            running = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(running, "the task runs");
    let (status, _) = call(&app, get("/api/v1/no-such-route")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // A made-up method is counted as `other`, not as a series of its own (operator
    // explorer: one series per name a client sent).
    let made_up = Request::builder()
        .method("BREW")
        .uri("/api/v1/tasks")
        .body(Body::empty())
        .unwrap();
    let (status, _) = call(&app, made_up).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    // Refused by a rule, or for a field of the wrong shape: each a 422, each counted.
    let mut bad = spec.clone();
    bad["basic"]["name_prefix"] = "-Bad".into();
    let (status, body) = call(&app, post("/api/v1/tasks", &bad)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    bad["compute"]["workers"] = "two".into();
    let (status, body) = call(&app, post("/api/v1/tasks", &bad)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let text = scrape(&app).await;
    for series in [
        r#"berth_submits_total{outcome="accepted"} 1"#,
        r#"berth_submits_total{outcome="refused"} 2"#,
        r#"berth_http_requests_total{method="POST",route="/api/v1/tasks",status="201"} 1"#,
        r#"berth_http_requests_total{method="GET",route="/api/v1/tasks/{id}",status="200"}"#,
        r#"berth_http_requests_total{method="GET",route="/api/{*rest}",status="404"} 1"#,
        r#"berth_http_requests_total{method="other",route="/api/v1/tasks",status="405"} 1"#,
        r#"berth_quota_in_use{user="alice",kind="on_demand",pool="sh-a-shared",spec="a100-1g",dimension="gpu"} 4"#,
        "berth_admissions_total 1",
        "berth_running_tasks 1",
        "berth_queue_length 0",
        "# EOF",
    ] {
        assert!(text.contains(series), "{series} missing from:\n{text}");
    }
    // Route templates, never raw paths: no series per task.
    assert!(!text.contains(&id), "{text}");
    assert!(!text.contains("no-such-route"), "{text}");
    assert!(!text.contains("BREW"), "{text}");
    let (status, _) = call(&app, post(&format!("/api/v1/tasks/{id}/stop"), &json!({}))).await;
    assert_eq!(status, StatusCode::OK);
    // A scrape counts itself from the second scrape on.
    let text = scrape(&app).await;
    assert!(
        text.contains(r#"berth_http_requests_total{method="GET",route="/metrics",status="200"}"#),
        "{text}"
    );
}
