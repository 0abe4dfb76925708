//! Identity and access: who may see and do what, and a hidden value that never leaves.
//!
//! One server in tokens mode, alice and bob (both in the `nlp` group of the demo
//! catalog) each with a bearer token. Alice runs the whole journey; bob reads what a
//! group member may and is refused the rest. Every body bob receives, every event and
//! log of alice's tasks, every answer alice gets (for the catalog's hidden persistent
//! value) and the server's own log output are scanned for the hidden values.

use super::temp_dir;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::io::Write;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;
use tower::ServiceExt;

/// The hidden env value of alice's tasks.
const SECRET: &str = "s3cr3t-access-test-7f3a9c";
/// The demo catalog's hidden persistent env value (alice's `WANDB_API_KEY`).
const PERSISTENT_SECRET: &str = "wandb-demo-secret";
const ALICE: &str = "alice-token-4c1d7e0b9a";
const BOB: &str = "bob-token-e83f21a6d5";

/// Everything the process logs through `tracing`, at every level.
fn captured_logs() -> &'static Mutex<Vec<u8>> {
    static LOGS: OnceLock<Mutex<Vec<u8>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        struct Capture;
        impl Write for Capture {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                captured_logs()
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        // Global: the runner logs from its own tasks. Other tests of this binary log
        // here too, which only widens the scan.
        let _ = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(|| Capture)
            .try_init();
        Mutex::new(Vec::new())
    })
}

struct Answer {
    status: StatusCode,
    text: String,
    json: Value,
}

/// One user's side of the conversation; keeps every body received.
struct Caller {
    app: Router,
    token: &'static str,
    bodies: Mutex<Vec<String>>,
}

impl Caller {
    fn new(app: &Router, token: &'static str) -> Caller {
        Caller {
            app: app.clone(),
            token,
            bodies: Mutex::new(Vec::new()),
        }
    }

    async fn send(&self, method: &str, path: &str, body: Option<&Value>) -> Answer {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::AUTHORIZATION, format!("Bearer {}", self.token));
        let body = match body {
            Some(value) => {
                request = request.header(header::CONTENT_TYPE, "application/json");
                Body::from(value.to_string())
            }
            None => Body::empty(),
        };
        let response = self
            .app
            .clone()
            .oneshot(request.body(body).expect("a request"))
            .await
            .expect("the router answers");
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("a body")
            .to_bytes();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        self.bodies
            .lock()
            .unwrap()
            .push(format!("{method} {path} -> {status} {headers:?}\n{text}"));
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Answer { status, text, json }
    }

    async fn get(&self, path: &str) -> Answer {
        self.send("GET", path, None).await
    }

    async fn post(&self, path: &str, body: &Value) -> Answer {
        self.send("POST", path, Some(body)).await
    }

    /// Fails naming the response if any body received so far holds `needle`.
    fn assert_never_received(&self, needle: &str) {
        for body in self.bodies.lock().unwrap().iter() {
            assert!(!body.contains(needle), "{needle:?} leaked in:\n{body}");
        }
    }
}

/// The PyTorchJob example in `nlp`, running `command` with `HF_TOKEN` hidden.
fn spec(command: &str, visible_in_group: bool) -> Value {
    let mut spec: Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).expect("JSON");
    spec["basic"]["project_group"] = "nlp".into();
    spec["basic"]["visible_in_group"] = visible_in_group.into();
    spec["environment"]["env"] = json!([
        { "name": "NCCL_DEBUG", "value": "WARN", "hidden": false },
        { "name": "HF_TOKEN", "value": SECRET, "hidden": true }
    ]);
    spec["environment"]["command"] = command.into();
    spec["environment"]["storage"] = json!([]);
    spec["environment"]["datasets"] = json!([]);
    spec["environment"]["models"] = json!([]);
    spec["advanced"]["ssh"] = false.into();
    spec
}

/// A server in tokens mode: `ALICE` is the demo user, `BOB` is bob.
async fn tokens_app() -> Router {
    server::app(tokens_state().await)
}

/// [`tokens_app`]'s state, for a test that reaches its store.
async fn tokens_state() -> server::AppState {
    let dir = temp_dir("tokens");
    let tokens = dir.join("tokens.toml");
    std::fs::write(
        &tokens,
        format!(
            "\"{ALICE}\" = \"alice\"\n\"{BOB}\" = {{ name = \"bob\", org = \"Acme AI\", tenant_id = \"t-acme\" }}\n"
        ),
    )
    .expect("temp dir is writable");
    let dist = temp_dir("dist");
    std::fs::write(dist.join("index.html"), "<!doctype html>").expect("temp dir is writable");
    let config = server::Config {
        data_dir: temp_dir("data"),
        identity: server::config::IdentityConfig::Tokens {
            tokens_file: tokens,
        },
        ..server::Config::demo(dist)
    };
    server::AppState::open(config).await.expect("opens")
}

async fn wait_until(caller: &Caller, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..300 {
        let answer = caller.get(&format!("/api/v1/tasks/{id}")).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        if done(&answer.json) {
            return answer.json;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("task {id} did not get there in 30 s")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_member_sees_a_visible_task_masked_and_cannot_touch_it() {
    captured_logs();
    let app = tokens_app().await;
    let alice = Caller::new(&app, ALICE);
    let bob = Caller::new(&app, BOB);

    // Alice's journey. The command checks the hidden value without printing it.
    let command = "test \"${#HF_TOKEN}\" -gt 0 && echo has-a-hidden-value; sleep 1000";
    let shared_task = alice.post("/api/v1/tasks", &spec(command, true)).await;
    assert_eq!(
        shared_task.status,
        StatusCode::CREATED,
        "{}",
        shared_task.text
    );
    assert!(!shared_task.text.contains(SECRET), "{}", shared_task.text);
    let id = shared_task.json["id"].as_str().expect("an id").to_owned();
    let private = alice
        .post("/api/v1/tasks", &spec("echo private; sleep 1000", false))
        .await;
    assert_eq!(private.status, StatusCode::CREATED, "{}", private.text);
    let private_id = private.json["id"].as_str().expect("an id").to_owned();
    wait_until(&alice, &id, |t| t["phase"] == "running").await;
    let mut log = String::new();
    for _ in 0..100 {
        log = alice
            .get(&format!("/api/v1/tasks/{id}/logs?replica=0"))
            .await
            .text;
        if log.contains("has-a-hidden-value") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(log.contains("has-a-hidden-value"), "{log}");
    let owner_spec = alice.get(&format!("/api/v1/tasks/{id}/spec")).await;
    assert!(
        owner_spec.text.contains(SECRET),
        "the owner clones the real value"
    );
    assert_eq!(
        alice
            .get(&format!("/api/v1/tasks/{id}/events"))
            .await
            .status,
        StatusCode::OK
    );
    let mine = alice.get("/api/v1/tasks").await;
    assert!(mine.text.contains(&id) && mine.text.contains(&private_id));
    let tagged = alice
        .send(
            "PATCH",
            &format!("/api/v1/tasks/{id}/tags"),
            Some(&json!({ "tags": [{ "key": "stage", "value": "eval" }] })),
        )
        .await;
    assert_eq!(tagged.status, StatusCode::OK, "{}", tagged.text);
    let link = alice
        .post(&format!("/api/v1/tasks/{id}/share"), &json!({}))
        .await;
    assert_eq!(link.status, StatusCode::CREATED, "{}", link.text);
    let link = link.json["path"].as_str().expect("a path").to_owned();
    let again = alice
        .post(&format!("/api/v1/tasks/{id}/resubmit"), &json!({}))
        .await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    let again_id = again.json["id"].as_str().expect("an id").to_owned();
    let catalog = alice.get("/api/v1/catalog").await;
    assert!(catalog.text.contains("WANDB_API_KEY"), "{}", catalog.text);

    // Bob reads what a member of nlp may.
    let detail = bob.get(&format!("/api/v1/tasks/{id}")).await;
    assert_eq!(detail.status, StatusCode::OK, "{}", detail.text);
    assert_eq!(detail.json["owner"], "alice");
    let list = bob.get("/api/v1/tasks").await;
    assert_eq!(list.status, StatusCode::OK);
    assert!(list.text.contains(&id), "{}", list.text);
    assert!(!list.text.contains(&private_id), "{}", list.text);
    assert!(
        !bob.get("/api/v1/tasks?owner=alice")
            .await
            .text
            .contains(&private_id)
    );
    assert_eq!(
        bob.get(&format!("/api/v1/tasks/{id}/events")).await.status,
        StatusCode::OK
    );
    let logs = bob.get(&format!("/api/v1/tasks/{id}/logs?replica=0")).await;
    assert_eq!(logs.status, StatusCode::OK);
    assert!(logs.text.contains("has-a-hidden-value"), "{}", logs.text);
    let their_spec = bob.get(&format!("/api/v1/tasks/{id}/spec")).await;
    assert_eq!(their_spec.status, StatusCode::OK);
    let hf = their_spec.json["environment"]["env"]
        .as_array()
        .expect("env")
        .iter()
        .find(|v| v["name"] == "HF_TOKEN")
        .expect("the hidden var is listed")
        .clone();
    assert_eq!(hf["value"], shared::task::HIDDEN_VALUE_MASK, "{hf}");
    // His clone of it carries the mask, which the rules refuse rather than run.
    let cloned = bob.post("/api/v1/tasks", &their_spec.json).await;
    assert_eq!(
        cloned.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        cloned.text
    );
    assert!(cloned.text.contains("env.value.masked"), "{}", cloned.text);
    let viewed = bob.get(&link).await;
    assert_eq!(viewed.status, StatusCode::OK, "{}", viewed.text);
    assert_eq!(viewed.json["id"], id.as_str());
    assert_eq!(bob.get("/api/v1/catalog").await.json["user"]["name"], "bob");

    // Only the owner acts on it.
    for (method, path, body) in [
        ("POST", format!("/api/v1/tasks/{id}/stop"), Some(json!({}))),
        ("DELETE", format!("/api/v1/tasks/{id}"), None),
        (
            "PATCH",
            format!("/api/v1/tasks/{id}/tags"),
            Some(json!({ "tags": [] })),
        ),
        (
            "POST",
            format!("/api/v1/tasks/{id}/resubmit"),
            Some(json!({})),
        ),
        ("POST", format!("/api/v1/tasks/{id}/share"), Some(json!({}))),
    ] {
        let answer = bob.send(method, &path, body.as_ref()).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{method} {path}");
        assert_eq!(answer.json["code"], "task.forbidden", "{}", answer.text);
    }
    // A task not marked visible does not exist for him.
    for path in [
        format!("/api/v1/tasks/{private_id}"),
        format!("/api/v1/tasks/{private_id}/spec"),
        format!("/api/v1/tasks/{private_id}/events"),
        format!("/api/v1/tasks/{private_id}/logs"),
    ] {
        let answer = bob.get(&path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(answer.json["code"], "task.not_found", "{}", answer.text);
    }
    let answer = bob
        .post(&format!("/api/v1/tasks/{private_id}/stop"), &json!({}))
        .await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(
        wait_until(&alice, &id, |_| true).await["phase"],
        "running",
        "bob's stop did nothing"
    );

    // Alice ends her tasks; bob reads the end.
    for task in [&id, &private_id, &again_id] {
        let stopped = alice
            .post(&format!("/api/v1/tasks/{task}/stop"), &json!({}))
            .await;
        assert_eq!(stopped.status, StatusCode::OK, "{}", stopped.text);
    }
    for task in [&id, &private_id, &again_id] {
        wait_until(&alice, task, |t| t["phase"] == "stopped").await;
    }
    // A program that prints its hidden value: the owner reads it, bob the mask, also
    // when the log is followed. Its owner's hidden persistent value is masked for both,
    // as the catalog masks it.
    let command = "echo \"token=$HF_TOKEN.\"; echo \"wandb=$WANDB_API_KEY.\"";
    let printing = alice.post("/api/v1/tasks", &spec(command, true)).await;
    assert_eq!(printing.status, StatusCode::CREATED, "{}", printing.text);
    let printing = printing.json["id"].as_str().expect("an id").to_owned();
    wait_until(&alice, &printing, |t| t["phase"] == "succeeded").await;
    let own = alice
        .get(&format!("/api/v1/tasks/{printing}/logs?replica=0"))
        .await;
    assert!(
        own.text.contains(&format!("token={SECRET}.")),
        "{}",
        own.text
    );
    assert!(own.text.contains("wandb=******."), "{}", own.text);
    for follow in [false, true] {
        let path = format!("/api/v1/tasks/{printing}/logs?replica=0&follow={follow}");
        let theirs = bob.get(&path).await;
        assert_eq!(theirs.status, StatusCode::OK, "{}", theirs.text);
        assert!(theirs.text.contains("token=******."), "{}", theirs.text);
        assert!(theirs.text.contains("wandb=******."), "{}", theirs.text);
    }
    bob.get(&format!("/api/v1/tasks/{id}")).await;
    bob.get(&format!("/api/v1/tasks/{id}/events")).await;
    bob.get(&format!("/api/v1/tasks/{id}/logs?replica=1")).await;
    bob.get(&format!("/api/v1/tasks/{id}/logs?replica=0&follow=true"))
        .await;
    bob.get("/api/v1/tasks").await;
    bob.get(&link).await;
    let deleted = alice
        .send("DELETE", &format!("/api/v1/tasks/{id}"), None)
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    // A deleted task leaves the lists; its resubmit's row still names it as its origin
    // to their owner, and to no one else (a row's may-see of the original would be a
    // read of the store at each refresh: the task's page tells bob).
    for (reader, told) in [(&alice, true), (&bob, false)] {
        let listed = reader.get("/api/v1/tasks").await;
        let rows = listed.json["tasks"].as_array().expect("rows");
        assert!(
            rows.iter().all(|t| t["id"] != id.as_str()),
            "{}",
            listed.text
        );
        assert_eq!(
            rows.iter().any(|t| t["made_from"]["task"] == id.as_str()),
            told,
            "{}",
            listed.text
        );
    }

    // Every event and log line alice's tasks wrote, read by their owner.
    for task in [&private_id, &again_id] {
        let events = alice.get(&format!("/api/v1/tasks/{task}/events")).await;
        assert!(!events.text.contains(SECRET), "{}", events.text);
        for replica in 0..2 {
            let log = alice
                .get(&format!("/api/v1/tasks/{task}/logs?replica={replica}"))
                .await;
            assert!(!log.text.contains(SECRET), "{}", log.text);
        }
    }
    bob.assert_never_received(SECRET);
    bob.assert_never_received(PERSISTENT_SECRET);
    alice.assert_never_received(PERSISTENT_SECRET);
    assert!(
        bob.bodies.lock().unwrap().len() >= 20,
        "every read was recorded"
    );
    let logs = String::from_utf8_lossy(&captured_logs().lock().unwrap()).into_owned();
    // The requests' own log lines (their paths name the task) were captured.
    assert!(logs.contains(&id), "the server's logs were captured");
    assert!(!logs.contains(SECRET), "the server logged the hidden value");
    assert!(!logs.contains(PERSISTENT_SECRET));
    assert!(
        !logs.contains(ALICE) && !logs.contains(BOB),
        "a token was logged"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn share_links_are_listed_and_revoked_by_their_owner_alone() {
    captured_logs();
    let app = tokens_app().await;
    let alice = Caller::new(&app, ALICE);
    let bob = Caller::new(&app, BOB);
    let submitted = alice.post("/api/v1/tasks", &spec("sleep 1000", true)).await;
    assert_eq!(submitted.status, StatusCode::CREATED, "{}", submitted.text);
    let id = submitted.json["id"].as_str().expect("an id").to_owned();
    let private = alice
        .post("/api/v1/tasks", &spec("sleep 1000", false))
        .await;
    let private_id = private.json["id"].as_str().expect("an id").to_owned();
    let links = format!("/api/v1/tasks/{id}/share");
    let mut made = Vec::new();
    for n in 1..=2 {
        let link = alice.post(&links, &json!({})).await;
        assert_eq!(link.status, StatusCode::CREATED, "{}", link.text);
        assert_eq!(link.json["link"], n, "{}", link.text);
        assert_eq!(link.json["created_by"], "alice", "{}", link.text);
        made.push(link.json);
    }
    let token = |n: usize| made[n]["token"].as_str().expect("a token").to_owned();
    let path = |n: usize| made[n]["path"].as_str().expect("a path").to_owned();

    // Her list holds both, as they were made; no one else has one.
    let listed = alice.get(&links).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    assert_eq!(listed.json, json!(made));
    for (method, path) in [("GET", links.clone()), ("DELETE", format!("{links}/1"))] {
        let answer = bob.send(method, &path, None).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{method} {path}");
        assert_eq!(answer.json["code"], "task.forbidden", "{}", answer.text);
        let hidden = bob
            .send(method, &path.replace(&id, &private_id), None)
            .await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND, "{method} {path}");
        assert_eq!(hidden.json["code"], "task.not_found", "{}", hidden.text);
    }
    assert_eq!(bob.get(&path(0)).await.status, StatusCode::OK);

    // Revoked, the first link answers as a link never made; the second still works.
    let revoked = alice.send("DELETE", &format!("{links}/1"), None).await;
    assert_eq!(revoked.status, StatusCode::NO_CONTENT, "{}", revoked.text);
    let unknown = bob
        .get("/api/v1/shared/0123456789abcdef0123456789abcdef")
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    for caller in [&alice, &bob] {
        let gone = caller.get(&path(0)).await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND, "{}", gone.text);
        assert_eq!(gone.json, unknown.json);
        assert_eq!(caller.get(&path(1)).await.status, StatusCode::OK);
    }
    assert_eq!(alice.get(&links).await.json, json!([made[1]]));

    // A link revoked already, or never made, is named in its refusal.
    for n in [1, 7] {
        let again = alice.send("DELETE", &format!("{links}/{n}"), None).await;
        assert_eq!(again.status, StatusCode::NOT_FOUND, "{}", again.text);
        assert_eq!(again.json["code"], "share.not_found", "{}", again.text);
        let detail = again.json["detail"].as_str().expect("a detail");
        assert!(
            detail.contains(&format!("task {id} has no share link {n}")),
            "{detail}"
        );
    }
    let bad = alice.send("DELETE", &format!("{links}/first"), None).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
    // Said in words, naming the parameter, not as axum's words for a Rust type
    // (explorer, round 10).
    assert_eq!(bad.json["code"], "path.invalid", "{}", bad.text);
    let detail = bad.json["detail"].as_str().expect("a detail");
    assert!(
        detail.contains("`link` must be a whole number") && detail.contains("`first`"),
        "{detail}"
    );
    assert!(!detail.contains("u32"), "{detail}");
    assert_eq!(
        alice.get(&format!("{links}?all=true")).await.status,
        StatusCode::BAD_REQUEST
    );

    for task in [&id, &private_id] {
        alice
            .post(&format!("/api/v1/tasks/{task}/stop"), &json!({}))
            .await;
    }
    // Opening a link logs its request, not the token in its address.
    let logs = String::from_utf8_lossy(&captured_logs().lock().unwrap()).into_owned();
    assert!(
        logs.contains("/api/v1/shared/…"),
        "the requests were logged"
    );
    for n in 0..2 {
        assert!(!logs.contains(&token(n)), "a share token was logged");
    }
}

/// A share link's reader reads the task's events and each replica's log through the
/// link, as anyone but the owner reads them (the hidden value masked, for the owner
/// too), though the task is not theirs to see (sweep explorer: a colleague sent the link
/// could not read why the run failed); a revoked link reads nothing, and a reader must
/// be signed in, as for the link's page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_share_links_reader_reads_its_events_and_logs_masked() {
    let app = tokens_app().await;
    let alice = Caller::new(&app, ALICE);
    let bob = Caller::new(&app, BOB);
    let command = "echo \"token $HF_TOKEN\"; exit 3";
    let mut once = spec(command, false);
    once["advanced"]["fault_tolerance"]["enabled"] = false.into();
    let task = alice.post("/api/v1/tasks", &once).await;
    assert_eq!(task.status, StatusCode::CREATED, "{}", task.text);
    let id = task.json["id"].as_str().expect("an id").to_owned();
    wait_until(&alice, &id, |t| t["phase"] == "failed").await;
    // Not bob's to see through its own routes.
    let own = bob.get(&format!("/api/v1/tasks/{id}/logs?replica=0")).await;
    assert_eq!(own.status, StatusCode::NOT_FOUND, "{}", own.text);
    let links = format!("/api/v1/tasks/{id}/share");
    let link = alice.post(&links, &json!({})).await;
    let path = link.json["path"].as_str().expect("a path").to_owned();
    for caller in [&bob, &alice] {
        let log = caller.get(&format!("{path}/logs?replica=0")).await;
        assert_eq!(log.status, StatusCode::OK, "{}", log.text);
        assert_eq!(log.text, "token ******\n");
        let events = caller.get(&format!("{path}/events?limit=50")).await;
        assert_eq!(events.status, StatusCode::OK, "{}", events.text);
        let kinds: Vec<&str> = events
            .json
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|e| e["kind"].as_str())
            .collect();
        assert!(kinds.contains(&"failed"), "{kinds:?}");
        let end = caller
            .get(&format!("{path}/logs?replica=0&tail_bytes=6"))
            .await;
        assert_eq!(end.status, StatusCode::OK, "{}", end.text);
        // From within the last line, where the mask begins: a mask is never cut.
        assert_eq!(end.text, "******\n");
    }
    bob.assert_never_received(SECRET);
    // As the task's own routes refuse them: a replica it does not have.
    let none = bob.get(&format!("{path}/logs?replica=9")).await;
    assert_eq!(none.status, StatusCode::BAD_REQUEST, "{}", none.text);
    // Signed in, as for the link's page.
    for rest in ["/events", "/logs?replica=0"] {
        let request = Request::get(format!("{path}{rest}"))
            .body(Body::empty())
            .unwrap();
        let answer = app.clone().oneshot(request).await.unwrap();
        assert_eq!(answer.status(), StatusCode::UNAUTHORIZED, "{rest}");
    }
    // Revoked: nothing, as a link never made.
    let revoked = alice.send("DELETE", &format!("{links}/1"), None).await;
    assert_eq!(revoked.status, StatusCode::NO_CONTENT, "{}", revoked.text);
    for rest in ["/events", "/logs?replica=0"] {
        let gone = bob.get(&format!("{path}{rest}")).await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND, "{rest}: {}", gone.text);
    }
}

/// A share link's followed log ends soon after the link is revoked: the owner revokes
/// to stop the output reaching the link's readers, and a follow runs as long as its
/// attempt (shared-debugging explorer: it ran on to the attempt's end).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followed_shared_log_ends_when_its_link_is_revoked() {
    let app = tokens_app().await;
    let alice = Caller::new(&app, ALICE);
    let command = "for i in $(seq 1 600); do echo step $i; sleep 0.2; done";
    let task = alice.post("/api/v1/tasks", &spec(command, false)).await;
    assert_eq!(task.status, StatusCode::CREATED, "{}", task.text);
    let id = task.json["id"].as_str().expect("an id").to_owned();
    wait_until(&alice, &id, |t| t["phase"] == "running").await;
    let links = format!("/api/v1/tasks/{id}/share");
    let link = alice.post(&links, &json!({})).await;
    let path = link.json["path"].as_str().expect("a path").to_owned();
    let request = Request::get(format!("{path}/logs?replica=0&follow=true"))
        .header(header::AUTHORIZATION, format!("Bearer {BOB}"))
        .body(Body::empty())
        .unwrap();
    let answer = app.clone().oneshot(request).await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    // Kept by no cache, as every API answer (recheck: `no-cache` let one keep a copy).
    assert_eq!(
        answer
            .headers()
            .get(header::CACHE_CONTROL)
            .map(|v| v.to_str().unwrap()),
        Some("private, no-store")
    );
    let mut body = answer.into_body();
    let mut read = String::new();
    while !read.contains("step 2") {
        let frame = tokio::time::timeout(Duration::from_secs(30), body.frame())
            .await
            .expect("lines come")
            .expect("the stream goes on")
            .expect("a frame");
        if let Ok(data) = frame.into_data() {
            read.push_str(&String::from_utf8_lossy(&data));
        }
    }
    let revoked = alice.send("DELETE", &format!("{links}/1"), None).await;
    assert_eq!(revoked.status, StatusCode::NO_CONTENT, "{}", revoked.text);
    // Ends within a few of its looks (every 2 s), long before the attempt's 2 minutes.
    let ended = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(frame) = body.frame().await {
            frame.expect("a frame");
        }
    })
    .await;
    assert!(ended.is_ok(), "the follow went on after the revoke");
    alice
        .post(&format!("/api/v1/tasks/{id}/stop"), &json!({}))
        .await;
}

/// A chat hook's URL: its path and query are the credential.
const HOOK: &str = "https://127.0.0.1:9/hooks/T0B0/XyZ-hook-path-7c1e?token=q-hook-token-2b9d";
/// The hook as anyone but its owner reads it: where it goes, not how to post to it.
const HOOK_SHOWN: &str = "https://127.0.0.1:9/******";

/// The events of task `id` as `caller` reads them, once an `alert` one is among them.
async fn events_with_an_alert(caller: &Caller, id: &str) -> Value {
    for _ in 0..300 {
        let events = caller.get(&format!("/api/v1/tasks/{id}/events")).await;
        assert_eq!(events.status, StatusCode::OK, "{}", events.text);
        let alerts = events.json.as_array().expect("a list");
        if alerts.iter().any(|e| e["kind"] == "alert") {
            return events.json;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("task {id} recorded no alert in 30 s")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_target_is_whole_for_its_owner_only_and_its_mask_is_refused_in_a_clone() {
    let app = tokens_app().await;
    let alice = Caller::new(&app, ALICE);
    let bob = Caller::new(&app, BOB);
    let mut task = spec("sleep 1000", true);
    task["advanced"]["alerts"] = json!([
        { "event": "stopped", "channel": "webhook", "target": HOOK },
        { "event": "failed", "channel": "email", "target": "alice@example.com" }
    ]);
    let submitted = alice.post("/api/v1/tasks", &task).await;
    assert_eq!(submitted.status, StatusCode::CREATED, "{}", submitted.text);
    assert_eq!(
        submitted.json["spec"]["advanced"]["alerts"][0]["target"],
        HOOK
    );
    let id = submitted.json["id"].as_str().expect("an id").to_owned();
    let link = alice
        .post(&format!("/api/v1/tasks/{id}/share"), &json!({}))
        .await;
    let link = link.json["path"].as_str().expect("a path").to_owned();

    // The owner's own answers carry the hook whole: her clone and resubmit need it.
    for path in [
        format!("/api/v1/tasks/{id}/spec"),
        format!("/api/v1/tasks/{id}"),
    ] {
        let answer = alice.get(&path).await;
        let spec = if path.ends_with("/spec") {
            &answer.json
        } else {
            &answer.json["spec"]
        };
        assert_eq!(spec["advanced"]["alerts"][0]["target"], HOOK, "{path}");
    }
    // A group member reads where it goes, not how to post to it; an email stays.
    for path in [
        format!("/api/v1/tasks/{id}/spec"),
        format!("/api/v1/tasks/{id}"),
    ] {
        let answer = bob.get(&path).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        let spec = if path.ends_with("/spec") {
            &answer.json
        } else {
            &answer.json["spec"]
        };
        assert_eq!(
            spec["advanced"]["alerts"][0]["target"], HOOK_SHOWN,
            "{path}"
        );
        assert_eq!(spec["advanced"]["alerts"][1]["target"], "alice@example.com");
    }
    let row = bob.get("/api/v1/tasks").await.json["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .find(|t| t["id"] == id.as_str())
        .expect("bob lists it")
        .clone();
    assert_eq!(row["spec"]["advanced"]["alerts"][0]["target"], HOOK_SHOWN);
    // A share masks it for whoever opens the link, its owner too.
    for caller in [&alice, &bob] {
        let viewed = caller.get(&link).await;
        assert_eq!(viewed.status, StatusCode::OK, "{}", viewed.text);
        assert_eq!(
            viewed.json["spec"]["advanced"]["alerts"][0]["target"],
            HOOK_SHOWN
        );
    }

    // Bob's clone, his own token typed in for the hidden one: the masked hook is refused
    // at its field rather than called. (Bob has no quota of his own: that finding is
    // his, not the hook's.)
    let mut clone = bob.get(&format!("/api/v1/tasks/{id}/spec")).await.json;
    clone["environment"]["env"][1]["value"] = "bobs-own-token".into();
    let about_alerts = |answer: &Answer| -> Vec<(String, String, String)> {
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text
        );
        answer.json["issues"]
            .as_array()
            .expect("issues")
            .iter()
            .map(|i| {
                let text = |k: &str| i[k].as_str().unwrap_or_default().to_owned();
                (text("path"), text("code"), text("severity"))
            })
            .filter(|(path, _, _)| path.starts_with("advanced.alerts"))
            .collect()
    };
    let refused = bob.post("/api/v1/tasks", &clone).await;
    assert_eq!(
        about_alerts(&refused),
        [(
            "advanced.alerts[0].target".to_owned(),
            "advanced.alerts.target.masked".to_owned(),
            "error".to_owned()
        )],
        "{}",
        refused.text
    );
    // With a URL typed in, the hook is taken.
    clone["advanced"]["alerts"][0]["target"] = "https://127.0.0.1:9/hooks/bobs-own".into();
    assert_eq!(about_alerts(&bob.post("/api/v1/tasks", &clone).await), []);

    // The stop's alert (not delivered: nothing listens there) names the hook in the
    // task's events: whole for its owner, masked for the group.
    let stopped = alice
        .post(&format!("/api/v1/tasks/{id}/stop"), &json!({}))
        .await;
    assert_eq!(stopped.status, StatusCode::OK, "{}", stopped.text);
    let own = events_with_an_alert(&alice, &id).await.to_string();
    assert!(own.contains(HOOK), "{own}");
    let theirs = events_with_an_alert(&bob, &id).await.to_string();
    assert!(theirs.contains(HOOK_SHOWN), "{theirs}");

    for secret in ["XyZ-hook-path-7c1e", "q-hook-token-2b9d"] {
        bob.assert_never_received(secret);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_share_link_names_a_group_its_reader_is_not_in_by_its_display_name() {
    let app = tokens_app().await;
    let alice = Caller::new(&app, ALICE);
    let bob = Caller::new(&app, BOB);
    // Vision's only member is alice: bob, in nlp, is not in it.
    let mut task = spec("sleep 1000", false);
    task["basic"]["project_group"] = "vision".into();
    let submitted = alice.post("/api/v1/tasks", &task).await;
    assert_eq!(submitted.status, StatusCode::CREATED, "{}", submitted.text);
    let id = submitted.json["id"].as_str().expect("an id").to_owned();
    let link = alice
        .post(&format!("/api/v1/tasks/{id}/share"), &json!({}))
        .await;
    let link = link.json["path"].as_str().expect("a path").to_owned();

    let own = alice.get(&link).await;
    assert_eq!(own.json["spec"]["basic"]["project_group"], "vision");
    let theirs = bob.get(&link).await;
    assert_eq!(theirs.status, StatusCode::OK, "{}", theirs.text);
    assert_eq!(theirs.json["spec"]["basic"]["project_group"], "Vision 视觉");
    assert!(!theirs.text.contains("\"vision\""), "{}", theirs.text);
    alice
        .post(&format!("/api/v1/tasks/{id}/stop"), &json!({}))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_mode_refuses_a_request_without_a_valid_token() {
    let app = tokens_app().await;
    for request in [
        Request::get("/api/v1/catalog").body(Body::empty()).unwrap(),
        Request::get("/api/v1/tasks")
            .header(header::AUTHORIZATION, "Bearer not-a-token")
            .body(Body::empty())
            .unwrap(),
        Request::get("/api/v1/tasks")
            .header(header::AUTHORIZATION, format!("Basic {ALICE}"))
            .body(Body::empty())
            .unwrap(),
        Request::post("/api/v1/tasks")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(spec("true", true).to_string()))
            .unwrap(),
    ] {
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        let challenge = response.headers()[header::WWW_AUTHENTICATE]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(challenge.starts_with("Bearer"), "{challenge}");
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            server::PROBLEM_JSON
        );
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let body: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body["code"], "auth.required", "{body}");
        assert_eq!(body["status"], 401);
    }
    // Health, metrics and the console need no sign-in.
    for path in ["/healthz", "/readyz", "/metrics", "/"] {
        let response = app
            .clone()
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
}

fn proxy_config(trusted: &str) -> server::Config {
    server::Config {
        data_dir: temp_dir("data"),
        identity: server::config::IdentityConfig::Proxy {
            user_header: "X-Remote-User".into(),
            org_header: Some("X-Remote-Org".into()),
            tenant_header: None,
            trusted: vec![trusted.parse().unwrap()],
        },
        ..server::Config::demo(temp_dir("dist"))
    }
}

async fn catalog_as(app: Router, user: Option<&str>) -> (StatusCode, Value) {
    let mut request = Request::get("/api/v1/catalog");
    if let Some(user) = user {
        request = request
            .header("x-remote-user", user)
            .header("x-remote-org", "Acme AI");
    }
    let response = app
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

#[tokio::test]
async fn proxy_headers_are_believed_only_from_the_proxy() {
    use axum::extract::connect_info::MockConnectInfo;
    use std::net::SocketAddr;
    let app = server::app(server::AppState::new(proxy_config("10.0.0.5")).expect("loads"));
    let from = |ip: &str| MockConnectInfo(SocketAddr::new(ip.parse().unwrap(), 40000));
    let (status, body) = catalog_as(app.clone().layer(from("10.0.0.5")), Some("bob")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["user"]["name"], "bob");
    assert_eq!(body["user"]["org"], "Acme AI");
    // Anyone else naming a user is refused, as is a request with no peer at all.
    let (status, body) = catalog_as(app.clone().layer(from("10.0.0.6")), Some("bob")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["code"], "auth.untrusted_proxy");
    let (status, body) = catalog_as(app.clone(), Some("bob")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    // The proxy itself must name someone.
    let (status, body) = catalog_as(app.layer(from("10.0.0.5")), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["code"], "auth.required");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_a_socket_the_peer_address_reaches_the_proxy_check() {
    let app = server::app(server::AppState::new(proxy_config("127.0.0.1")).expect("loads"));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(server::serve(listener, app));
    let (status, name) = tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let mut response = agent
            .get(&format!("http://{addr}/api/v1/catalog"))
            .header("X-Remote-User", "bob")
            .call()
            .expect("answers");
        let body: Value =
            serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
        (response.status().as_u16(), body["user"]["name"].clone())
    })
    .await
    .unwrap();
    assert_eq!((status, name), (200, json!("bob")));
}

/// README: a header given twice (a proxy that appends its own to the client's) is refused
/// with 401. A proxy that appends to the client's line rather than adding one sends
/// `X-Remote-User: mallory, bob`, which was believed as a user of that whole name.
#[tokio::test]
async fn an_identity_header_holding_a_list_is_refused_as_one_given_twice() {
    use axum::extract::connect_info::MockConnectInfo;
    use std::net::SocketAddr;
    let app = server::app(server::AppState::new(proxy_config("10.0.0.5")).expect("loads")).layer(
        MockConnectInfo(SocketAddr::new("10.0.0.5".parse().unwrap(), 40000)),
    );
    for (user, org) in [
        ("mallory, bob", "Acme AI"),
        ("bob,alice", "Acme AI"),
        ("bob", "Evil, Acme AI"),
    ] {
        let request = Request::get("/api/v1/catalog")
            .header("x-remote-user", user)
            .header("x-remote-org", org)
            .body(Body::empty())
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let body: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            status,
            StatusCode::UNAUTHORIZED,
            "{user:?} {org:?}: {}",
            body["user"]
        );
        assert_eq!(body["code"], "auth.required", "{body}");
    }
    let (status, body) = catalog_as(app, Some("bob")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_value_half_printed_shows_no_part_of_it_to_the_group() {
    let app = tokens_app().await;
    let alice = Caller::new(&app, ALICE);
    let bob = Caller::new(&app, BOB);
    // The program prints the start of its value and has not finished the line: a read
    // then must not show that start, nor one after the program died there.
    let command = "printf 'start\\npart1 %s' \"${HF_TOKEN%?????}\"; sleep 1000";
    let task = alice.post("/api/v1/tasks", &spec(command, true)).await;
    assert_eq!(task.status, StatusCode::CREATED, "{}", task.text);
    let id = task.json["id"].as_str().expect("an id").to_owned();
    wait_until(&alice, &id, |t| t["phase"] == "running").await;
    let logs = format!("/api/v1/tasks/{id}/logs?replica=0");
    let mut read = String::new();
    for _ in 0..100 {
        read = bob.get(&logs).await.text;
        if read.starts_with("start\n") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Once the first line is there, the second's start has been written too (one printf).
    assert_eq!(read, "start\npart1 ");
    let stopped = alice
        .post(&format!("/api/v1/tasks/{id}/stop"), &json!({}))
        .await;
    assert_eq!(stopped.status, StatusCode::OK, "{}", stopped.text);
    wait_until(&alice, &id, |t| t["phase"] == "stopped").await;
    assert_eq!(bob.get(&logs).await.text, "start\npart1 ******");
    bob.assert_never_received(&SECRET[..SECRET.len() - 5]);
    bob.assert_never_received(&SECRET[..8]);
}

/// A hidden value printed by the escapers that write bytes is masked for the group: a
/// replica of the local backend runs without LANG, so bash's `printf %q` writes what is
/// not ASCII in octal, and Python's bytes repr writes it in hex; `shlex.quote` writes a
/// `'` as `'"'"'` (exploratory test: each was shown in full).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_value_escaped_byte_by_byte_is_masked_for_the_group() {
    const NOT_ASCII: &str = "pässwörd-秘密-123";
    const QUOTED: &str = r#"ab c'd"e$f\g!h&i<j"#;
    let app = tokens_app().await;
    let alice = Caller::new(&app, ALICE);
    let bob = Caller::new(&app, BOB);
    let command = r#"printf '%q\n' "$HF_TOKEN"; python3 -c 'import os, shlex; print(os.environb[b"HF_TOKEN"]); print(shlex.quote(os.environ["QUOTED_TOKEN"]))'"#;
    let mut spec = spec(command, true);
    spec["environment"]["env"] = json!([
        { "name": "HF_TOKEN", "value": NOT_ASCII, "hidden": true },
        { "name": "QUOTED_TOKEN", "value": QUOTED, "hidden": true }
    ]);
    let task = alice.post("/api/v1/tasks", &spec).await;
    assert_eq!(task.status, StatusCode::CREATED, "{}", task.text);
    let id = task.json["id"].as_str().expect("an id").to_owned();
    wait_until(&alice, &id, |t| t["phase"] == "succeeded").await;
    let logs = format!("/api/v1/tasks/{id}/logs?replica=0");
    // The owner reads what the printers wrote, so the test knows they wrote these forms.
    assert_eq!(
        alice.get(&logs).await.text,
        "$'p\\303\\244ssw\\303\\266rd-\\347\\247\\230\\345\\257\\206-123'\n\
         b'p\\xc3\\xa4ssw\\xc3\\xb6rd-\\xe7\\xa7\\x98\\xe5\\xaf\\x86-123'\n\
         'ab c'\"'\"'d\"e$f\\g!h&i<j'\n"
    );
    assert_eq!(
        bob.get(&logs).await.text,
        "$'******'\nb'******'\n'******'\n"
    );
    let followed = bob.get(&format!("{logs}&follow=true")).await.text;
    assert!(
        !followed.contains("303") && !followed.contains("xc3"),
        "{followed}"
    );
    assert!(!followed.contains("i<j"), "{followed}");
}

/// A task made by a resubmit or a clone links back to the task it was made from, in every
/// read of it (its page after a reload, the group's), even once that task is deleted;
/// and a clone's link is kept only to a task its submitter may see, the submit going on
/// without it otherwise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resubmit_or_clone_links_back_to_a_task_its_submitter_may_see() {
    let app = tokens_app().await;
    let alice = Caller::new(&app, ALICE);
    let bob = Caller::new(&app, BOB);
    let submitted = |answer: Answer| {
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        (
            answer.json["id"].as_str().expect("an id").to_owned(),
            answer.json["made_from"].clone(),
        )
    };
    let (id, none) = submitted(alice.post("/api/v1/tasks", &spec("true", true)).await);
    assert_eq!(none, Value::Null, "a task of its own spec names none");
    let (private, _) = submitted(alice.post("/api/v1/tasks", &spec("true", false)).await);
    // Bob has no quota of his own: his clones run on spot capacity, which holds none.
    let bobs = || {
        let mut spec = spec("true", true);
        spec["compute"]["kind"] = "spot".into();
        spec
    };

    let (again, from) = submitted(
        alice
            .post(&format!("/api/v1/tasks/{id}/resubmit"), &json!({}))
            .await,
    );
    let resubmitted = json!({ "task": id, "how": "resubmit" });
    assert_eq!(from, resubmitted);
    let (clone, from) = submitted(
        bob.post(&format!("/api/v1/tasks?lang=zh-CN&from={id}"), &bobs())
            .await,
    );
    let cloned = json!({ "task": id, "how": "clone" });
    assert_eq!(from, cloned);
    for unseen in [private.as_str(), "no-such-task-x7k2q"] {
        let (_, from) = submitted(
            bob.post(&format!("/api/v1/tasks?from={unseen}"), &bobs())
                .await,
        );
        assert_eq!(from, Value::Null, "bob may not see {unseen}");
    }

    wait_until(&alice, &id, |t| t["phase"] == "succeeded").await;
    let deleted = alice
        .send("DELETE", &format!("/api/v1/tasks/{id}"), None)
        .await;
    assert!(deleted.status.is_success(), "{}", deleted.text);
    // A copy's link to its deleted original says it was deleted, to those who could
    // see it, not that it may be someone else's (lineage explorer).
    for reader in [&alice, &bob] {
        let gone = reader.get(&format!("/api/v1/tasks/{id}")).await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND, "{}", gone.text);
        assert_eq!(gone.json["code"], "task.deleted", "{}", gone.text);
    }
    for (reader, task, from) in [
        (&alice, &again, &resubmitted),
        (&bob, &again, &resubmitted),
        (&bob, &clone, &cloned),
        (&alice, &clone, &cloned),
    ] {
        let read = reader.get(&format!("/api/v1/tasks/{task}")).await;
        assert_eq!(read.status, StatusCode::OK, "{}", read.text);
        assert_eq!(&read.json["made_from"], from, "{task}");
    }
    // Alice's clone of her private task, which the group sees: she is told what it was
    // made from; bob, who may not see the original, is not told its name, nor is a share
    // link's reader (review).
    let (of_private, from) = submitted(
        alice
            .post(
                &format!("/api/v1/tasks?from={private}"),
                &spec("true", true),
            )
            .await,
    );
    let from_private = json!({ "task": private, "how": "clone" });
    assert_eq!(from, from_private);
    let read = alice.get(&format!("/api/v1/tasks/{of_private}")).await;
    assert_eq!(read.json["made_from"], from_private);
    let read = bob.get(&format!("/api/v1/tasks/{of_private}")).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.text);
    assert_eq!(read.json["made_from"], Value::Null, "{}", read.text);
    let listed = bob.get("/api/v1/tasks").await;
    assert!(!listed.text.contains(&private), "{}", listed.text);
    let link = alice
        .post(&format!("/api/v1/tasks/{again}/share"), &json!({}))
        .await;
    let path = link.json["path"].as_str().expect("a path").to_owned();
    let shared = bob.get(&path).await;
    assert_eq!(shared.status, StatusCode::OK, "{}", shared.text);
    assert_eq!(shared.json["made_from"], Value::Null, "{}", shared.text);
    // A clone sent after its task was deleted (its edits kept in the console) names it
    // too: the name still says where the spec came from.
    let (late, from) = submitted(bob.post(&format!("/api/v1/tasks?from={id}"), &bobs()).await);
    assert_eq!(from, cloned);

    // What was made from a task, listed (`made_from=`): to each reader the copies they
    // may see, newest first, deleted original and all; of a task they may not see, or
    // none, a 400 that names the parameter, which tells nothing of it.
    async fn made(reader: &Caller, of: &str) -> Vec<String> {
        let listed = reader.get(&format!("/api/v1/tasks?made_from={of}")).await;
        assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
        listed.json["tasks"]
            .as_array()
            .expect("tasks")
            .iter()
            .map(|t| t["id"].as_str().unwrap_or_default().to_owned())
            .collect()
    }
    assert_eq!(
        made(&alice, &id).await,
        [late.clone(), clone.clone(), again.clone()]
    );
    assert_eq!(made(&bob, &id).await, [late, clone, again]);
    assert_eq!(made(&alice, &private).await, [of_private]);
    for (reader, of) in [(&bob, private.as_str()), (&alice, "no-such-task-x7k2q")] {
        let refused = reader.get(&format!("/api/v1/tasks?made_from={of}")).await;
        assert_eq!(
            refused.status,
            StatusCode::BAD_REQUEST,
            "{of}: {}",
            refused.text
        );
        assert!(refused.text.contains("made_from"), "{}", refused.text);
    }
    // Empty, as an empty owner or group is: to give one or leave it out.
    let refused = alice.get("/api/v1/tasks?made_from=").await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.text);
    assert!(
        refused
            .text
            .contains("`made_from` is empty: give a task's id or leave it out"),
        "{}",
        refused.text
    );
    // Deleted, a task bob could never see is still no task to him: only its owner is
    // told it was deleted.
    wait_until(&alice, &private, |t| t["phase"] == "succeeded").await;
    let deleted = alice
        .send("DELETE", &format!("/api/v1/tasks/{private}"), None)
        .await;
    assert!(deleted.status.is_success(), "{}", deleted.text);
    for (reader, code) in [(&alice, "task.deleted"), (&bob, "task.not_found")] {
        let gone = reader.get(&format!("/api/v1/tasks/{private}")).await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND, "{}", gone.text);
        assert_eq!(gone.json["code"], code, "{}", gone.text);
    }
}

/// A waiting task's reason names the task it waits behind only to readers who may see
/// that task: to anyone else a private task is no task at all, so it is "a task ahead in
/// the queue" (lineage explorer: a private task's name reached the group, as a link that
/// led nowhere). The scheduler's reason is stored in the waiting task's events.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_waited_behind_is_named_only_to_readers_who_may_see_it() {
    use shared::messages::Message;
    let state = tokens_state().await;
    let app = server::app(state.clone());
    let alice = Caller::new(&app, ALICE);
    let bob = Caller::new(&app, BOB);
    let made = |answer: Answer| {
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        answer.json["id"].as_str().expect("an id").to_owned()
    };
    let private = made(alice.post("/api/v1/tasks", &spec("sleep 30", false)).await);
    let open = made(alice.post("/api/v1/tasks", &spec("sleep 30", true)).await);
    let mut bobs = spec("true", true);
    bobs["compute"]["kind"] = "spot".into();
    let waiting = made(bob.post("/api/v1/tasks", &bobs).await);
    let store = state.runner.as_ref().expect("a runner").store();
    for ahead in [&private, &open] {
        let reason = Message::new("event.queued").with_message(
            "reason",
            Message::new("queue.passed_over#named").with("task", ahead),
        );
        store
            .push_event(
                &shared::TaskId(waiting.clone()),
                &server::store::TaskEvent::keyed(shared::Timestamp(1), "queued", reason),
            )
            .await
            .expect("pushes");
    }
    async fn said(caller: &Caller, waiting: &str) -> String {
        let events = caller.get(&format!("/api/v1/tasks/{waiting}/events")).await;
        assert_eq!(events.status, StatusCode::OK, "{}", events.text);
        events.text
    }
    let to_bob = said(&bob, &waiting).await;
    assert!(!to_bob.contains(&private), "{to_bob}");
    assert!(
        to_bob.contains("waiting for a task ahead in the queue"),
        "{to_bob}"
    );
    assert!(
        to_bob.contains(&open),
        "a task bob may see is named: {to_bob}"
    );
    let to_alice = said(&alice, &waiting).await;
    assert!(
        to_alice.contains(&private) && to_alice.contains(&open),
        "{to_alice}"
    );
    for id in [&private, &open, &waiting] {
        let owner = if *id == waiting { &bob } else { &alice };
        owner
            .post(&format!("/api/v1/tasks/{id}/stop"), &json!({}))
            .await;
    }
}

/// A user whose identity gives no tenant (a proxy that sends none) gets the render
/// route's reason, not a 500: the demo cluster's namespace rule,
/// `{tenant}-{project_group}`, gives no namespace for them (API explorer).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_render_for_a_user_with_no_tenant_says_why_it_has_no_namespace() {
    use axum::extract::connect_info::MockConnectInfo;
    use std::net::SocketAddr;
    let app = server::app(server::AppState::new(proxy_config("10.0.0.5")).expect("loads")).layer(
        MockConnectInfo(SocketAddr::new("10.0.0.5".parse().unwrap(), 40000)),
    );
    let request = Request::post("/api/v1/render")
        .header("x-remote-user", "alice")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(spec("true", true).to_string()))
        .unwrap();
    let response = app.oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "render.namespace");
    let detail = body["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("`{tenant}-{project_group}` gives `-nlp`")
            && detail.contains("your identity gives no tenant"),
        "{detail}"
    );
}
