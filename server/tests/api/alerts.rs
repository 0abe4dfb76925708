//! Alert subscriptions (SPEC.md section 5) delivered for real: a task's webhook is
//! called over HTTPS (a local endpoint whose certificate a CA made here signs, given as
//! `alerts_ca`) when its event happens, and every alert is recorded among the task's
//! events, an email one as not sent.

use super::temp_dir;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A CA and a certificate for 127.0.0.1 it signs, made by the `openssl` command:
/// `(ca.pem, leaf.pem, leaf.key)`.
fn certificates(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    let run = |args: &[&str]| {
        let status = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("openssl runs");
        assert!(status.status.success(), "openssl {args:?}: {status:?}");
    };
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    run(&[
        &["req", "-x509"][..],
        &ec,
        &[
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            "/CN=berth-test-ca",
        ],
    ]
    .concat());
    run(&[
        &["req"][..],
        &ec,
        &[
            "-keyout",
            "leaf.key",
            "-out",
            "leaf.csr",
            "-subj",
            "/CN=127.0.0.1",
        ],
    ]
    .concat());
    std::fs::write(
        dir.join("leaf.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .expect("writable");
    run(&[
        "x509",
        "-req",
        "-in",
        "leaf.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "leaf.pem",
        "-days",
        "2",
        "-extfile",
        "leaf.ext",
    ]);
    (
        dir.join("ca.pem"),
        dir.join("leaf.pem"),
        dir.join("leaf.key"),
    )
}

/// An HTTPS endpoint on a free port that answers every request 200 and sends each
/// request's body on the channel.
async fn endpoint(leaf: &Path, key: &Path) -> (u16, tokio::sync::mpsc::UnboundedReceiver<String>) {
    let certs = CertificateDer::pem_file_iter(leaf)
        .expect("readable")
        .collect::<Result<Vec<_>, _>>()
        .expect("PEM");
    let key = PrivateKeyDer::from_pem_file(key).expect("a key");
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("TLS versions")
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .expect("a certificate");
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let port = listener.local_addr().expect("an address").port();
    let (sender, bodies) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                return;
            };
            let (acceptor, sender) = (acceptor.clone(), sender.clone());
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let mut request = Vec::new();
                let mut buf = [0u8; 4096];
                // Headers, then as many bytes as Content-Length says.
                loop {
                    let Ok(n) = tls.read(&mut buf).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    request.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&request).into_owned();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let length = text[..end]
                            .lines()
                            .find_map(|l| {
                                let (name, value) = l.split_once(':')?;
                                name.eq_ignore_ascii_case("content-length")
                                    .then(|| value.trim().parse::<usize>().ok())?
                            })
                            .unwrap_or(0);
                        if request.len() >= end + 4 + length {
                            let _ = sender.send(text[end + 4..end + 4 + length].to_owned());
                            let _ = tls
                                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                                .await;
                            let _ = tls.shutdown().await;
                            return;
                        }
                    }
                }
            });
        }
    });
    (port, bodies)
}

/// The demo state whose webhooks trust a CA made here, and an endpoint with its
/// certificate: `(state, the endpoint's port, the bodies it receives)`.
async fn with_endpoint(
    name: &str,
) -> (
    server::AppState,
    u16,
    tokio::sync::mpsc::UnboundedReceiver<String>,
) {
    let (ca, leaf, key) = certificates(&temp_dir(name));
    let (port, bodies) = endpoint(&leaf, &key).await;
    let state = super::demo_state_with(|config| config.alerts_ca = Some(ca)).await;
    (state, port, bodies)
}

/// The PyTorchJob example running `command` here, with `alerts`.
fn spec(command: &str, alerts: Value) -> Value {
    let mut spec = super::pytorch(command);
    spec["advanced"]["alerts"] = alerts;
    spec
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tasks_webhook_is_called_when_its_event_happens_and_every_alert_is_recorded() {
    let (state, port, mut bodies) = with_endpoint("alerts-certs").await;
    let app = server::app(state);
    let hook = format!("https://127.0.0.1:{port}/hook");
    let alerts = json!([
        { "event": "failed", "channel": "webhook", "target": hook },
        { "event": "succeeded", "channel": "webhook", "target": hook },
        { "event": "succeeded", "channel": "email", "target": "alice@example.com" },
        { "event": "succeeded", "channel": "webhook", "target": "https://127.0.0.1:1/nobody" },
    ]);
    let id = super::submit(&app, &spec("true", alerts)).await;

    // The succeeded subscription's webhook is called once, with what happened.
    let body = tokio::time::timeout(Duration::from_secs(30), bodies.recv())
        .await
        .expect("the webhook is called")
        .expect("a body");
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(body["task"], id.as_str(), "{body}");
    assert_eq!(body["event"], "succeeded", "{body}");

    // Each alert is in the task's events: the webhook sent, the email not.
    let mut said = String::new();
    for _ in 0..100 {
        let request = Request::get(format!("/api/v1/tasks/{id}/events"))
            .body(Body::empty())
            .expect("a request");
        let (_, events) = super::answer(&app, request).await;
        said = events.to_string();
        if said.contains("sent to https://") && said.contains("not delivered") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        said.contains(&format!("alert \\\"Succeeded\\\" sent to {hook}")),
        "{said}"
    );
    assert!(
        said.contains(
            "alert \\\"Succeeded\\\" not sent to alice@example.com: this server sends no email"
        ),
        "{said}"
    );
    // One that cannot be called says why.
    assert!(
        said.contains("alert \\\"Succeeded\\\" not delivered to https://127.0.0.1:1/nobody: "),
        "{said}"
    );
    assert!(
        !said.contains("\\\"Failed\\\""),
        "only the event that happened: {said}"
    );
    // Nothing more is called.
    assert!(
        tokio::time::timeout(Duration::from_millis(300), bodies.recv())
            .await
            .is_err()
    );
}

/// A threshold subscription fires once the task has stayed longer than it in its phase,
/// and once only, though the sweep looks again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_longer_than_alert_fires_once_when_due() {
    let (state, port, mut bodies) = with_endpoint("alerts-due-certs").await;
    let runner = state.runner.clone().expect("a runner");
    let app = server::app(state);
    let hook = format!("https://127.0.0.1:{port}/due");
    let alerts = json!([
        { "event": "running_longer_than", "threshold": 2, "channel": "webhook", "target": hook },
    ]);
    let id = super::submit(&app, &spec("sleep 1000", alerts)).await;
    let started = loop {
        let request = Request::get(format!("/api/v1/tasks/{id}"))
            .body(Body::empty())
            .expect("a request");
        let (_, task) = super::answer(&app, request).await;
        if task["phase"] == "running" {
            break task["history"]
                .as_array()
                .and_then(|h| h.last())
                .and_then(|s| s["at"].as_i64())
                .expect("when it started");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    const HOUR: i64 = 3_600_000;
    // Two hours in: not longer yet.
    runner
        .sweep_alerts_at(shared::Timestamp(started + 2 * HOUR))
        .await;
    assert!(
        tokio::time::timeout(Duration::from_millis(500), bodies.recv())
            .await
            .is_err()
    );
    // Past it: once, with what happened.
    runner
        .sweep_alerts_at(shared::Timestamp(started + 2 * HOUR + 1))
        .await;
    let body = tokio::time::timeout(Duration::from_secs(30), bodies.recv())
        .await
        .expect("the webhook is called")
        .expect("a body");
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(body["event"], "running_longer_than", "{body}");
    assert_eq!(body["message"], "running for more than 2 hours", "{body}");
    // Its event is in before the sweep looks again: no second call.
    for _ in 0..100 {
        let request = Request::get(format!("/api/v1/tasks/{id}/events"))
            .body(Body::empty())
            .expect("a request");
        let (_, events) = super::answer(&app, request).await;
        if events.to_string().contains("sent to https://") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    runner
        .sweep_alerts_at(shared::Timestamp(started + 3 * HOUR))
        .await;
    assert!(
        tokio::time::timeout(Duration::from_millis(500), bodies.recv())
            .await
            .is_err(),
        "fired twice"
    );
    let request = Request::post(format!("/api/v1/tasks/{id}/stop"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{}"))
        .expect("a request");
    let (status, _) = super::answer(&app, request).await;
    assert_eq!(status, StatusCode::OK);
}
