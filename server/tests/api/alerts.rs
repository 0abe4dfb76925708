//! Alert subscriptions (SPEC.md section 5) delivered for real: a task's webhook is
//! called over HTTPS (a local endpoint whose certificate a CA made here signs, given as
//! `alerts_ca`), and its email mailed through an SMTP relay (a sink here that keeps
//! what it takes), when its event happens; every alert is recorded among the task's
//! events, an email one as not sent when no relay is configured.

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
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};

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

/// A webhook whose TLS fails is said in plain words, as a real connection's error comes:
/// a port that answers in plain HTTP, and a certificate no root of the server's signs
/// (recheck explorer: both came as the client's English, the words never found).
#[tokio::test]
async fn a_webhooks_tls_failure_is_said_in_plain_words() {
    use shared::Lang;
    let plain = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let port = plain.local_addr().expect("an address").port();
    tokio::spawn(async move {
        while let Ok((mut tcp, _)) = plain.accept().await {
            let mut hello = [0u8; 512];
            let _ = tcp.read(&mut hello).await;
            let _ = tcp
                .write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                .await;
        }
    });
    let hooks = server::alerts::Webhooks::new(None).expect("a client");
    let refused = |port: u16| {
        let hooks = hooks.clone();
        async move {
            hooks
                .post(&format!("https://127.0.0.1:{port}/hook"), "{}".into())
                .await
                .expect_err("refused")
        }
    };
    assert_eq!(
        refused(port).await.render(Lang::En),
        "it answers in plain HTTP at that address and port, not HTTPS: give the port where \
         it takes HTTPS"
    );
    let dir = temp_dir("alerts-untrusted");
    let (_, leaf, key) = certificates(&dir);
    let (port, _) = endpoint(&leaf, &key).await;
    // Without the test CA as `alerts_ca`: signed by no root the server trusts.
    assert_eq!(
        refused(port).await.render(Lang::Zh),
        "其证书不受本服务器信任：公司自有的 CA 请配置在 alerts_ca 中"
    );
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
    let said = events_until(&app, &id, |said| {
        said.contains("sent to https://") && said.contains("not delivered")
    })
    .await;
    assert!(
        said.contains(&format!("\\\"Succeeded\\\" sent to {hook}")),
        "{said}"
    );
    // No relay is configured.
    assert!(
        said.contains(
            "\\\"Succeeded\\\" not sent to alice@example.com: this server has no mail relay configured"
        ),
        "{said}"
    );
    // One that cannot be called says why.
    assert!(
        said.contains("\\\"Succeeded\\\" not delivered to https://127.0.0.1:1/nobody: the connection was refused: nothing takes connections at that address and port"),
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
/// When task `id` started running, once it runs.
async fn running_since(app: &axum::Router, id: &str) -> i64 {
    loop {
        let request = Request::get(format!("/api/v1/tasks/{id}"))
            .body(Body::empty())
            .expect("a request");
        let (_, task) = super::answer(app, request).await;
        if task["phase"] == "running" {
            return task["history"]
                .as_array()
                .and_then(|h| h.last())
                .and_then(|s| s["at"].as_i64())
                .expect("when it started");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

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
    let started = running_since(&app, &id).await;
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
    events_once(&app, &id, "sent to https://").await;
    runner
        .sweep_alerts_at(shared::Timestamp(started + 3 * HOUR))
        .await;
    assert!(
        tokio::time::timeout(Duration::from_millis(500), bodies.recv())
            .await
            .is_err(),
        "fired twice"
    );
    stop(&app, &id).await;
}

/// A mail an SMTP sink took: the envelope's recipients and the message as sent.
#[derive(Debug)]
struct Delivery {
    recipients: Vec<String>,
    data: String,
}

/// What the sink says to a login.
#[derive(Clone, Copy)]
enum Login {
    /// It offers none.
    None,
    /// It offers `AUTH PLAIN` and refuses it, repeating the password it was given, as a
    /// careless relay might.
    RefusedWithThePassword,
}

/// How the sink is spoken to.
#[derive(Clone)]
enum Secure {
    /// Plain SMTP.
    Plain,
    /// TLS from the first byte.
    Tls(tokio_rustls::TlsAcceptor),
    /// Plain SMTP offering STARTTLS.
    Starttls(tokio_rustls::TlsAcceptor),
}

/// A byte stream the sink speaks SMTP over: TCP, or TLS over it.
trait Stream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<S: AsyncRead + AsyncWrite + Unpin + Send> Stream for S {}

/// An SMTP relay on a free port of 127.0.0.1 that takes every mail and sends each on
/// the channel.
async fn relay(
    login: Login,
    secure: Secure,
) -> (u16, tokio::sync::mpsc::UnboundedReceiver<Delivery>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let port = listener.local_addr().expect("an address").port();
    let (sender, deliveries) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                return;
            };
            let (secure, sender) = (secure.clone(), sender.clone());
            tokio::spawn(async move {
                let (stream, starttls): (Box<dyn Stream>, _) = match secure {
                    Secure::Plain => (Box::new(tcp), None),
                    Secure::Starttls(acceptor) => (Box::new(tcp), Some(acceptor)),
                    Secure::Tls(acceptor) => match acceptor.accept(tcp).await {
                        Ok(tls) => (Box::new(tls), None),
                        Err(_) => return,
                    },
                };
                let mut stream = BufReader::new(stream);
                if stream.write_all(b"220 sink ESMTP\r\n").await.is_ok() {
                    smtp(stream, login, starttls, sender).await;
                }
            });
        }
    });
    (port, deliveries)
}

/// One SMTP session after the greeting (RFC 5321's EHLO, MAIL, RCPT, DATA, QUIT, with
/// RFC 3207's STARTTLS and RFC 4954's AUTH), as far as the client goes.
async fn smtp(
    mut stream: BufReader<Box<dyn Stream>>,
    login: Login,
    starttls: Option<tokio_rustls::TlsAcceptor>,
    sender: tokio::sync::mpsc::UnboundedSender<Delivery>,
) {
    use base64::Engine;
    let mut recipients = Vec::new();
    loop {
        let mut line = String::new();
        if stream.read_line(&mut line).await.unwrap_or(0) == 0 {
            return;
        }
        let verb = line
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_uppercase();
        let reply = match verb.as_str() {
            "EHLO" => {
                let mut offers = vec!["sink", "8BITMIME"];
                if starttls.is_some() {
                    offers.push("STARTTLS");
                }
                if let Login::RefusedWithThePassword = login {
                    offers.push("AUTH PLAIN");
                }
                let last = offers.len() - 1;
                offers
                    .iter()
                    .enumerate()
                    .map(|(i, offer)| {
                        format!("250{}{offer}\r\n", if i == last { ' ' } else { '-' })
                    })
                    .collect()
            }
            "STARTTLS" => {
                let Some(acceptor) = starttls else {
                    return;
                };
                if stream.write_all(b"220 go ahead\r\n").await.is_err() {
                    return;
                }
                // The session starts again over TLS, without a greeting (RFC 3207).
                if let Ok(tls) = acceptor.accept(stream.into_inner()).await {
                    let tls: Box<dyn Stream> = Box::new(tls);
                    Box::pin(smtp(BufReader::new(tls), login, None, sender)).await;
                }
                return;
            }
            "AUTH" => {
                // `AUTH PLAIN base64(authzid NUL user NUL password)`.
                let given = line.split_whitespace().nth(2).unwrap_or_default();
                let plain = base64::engine::general_purpose::STANDARD
                    .decode(given)
                    .unwrap_or_default();
                let password = String::from_utf8_lossy(&plain)
                    .rsplit('\0')
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                format!("535 5.7.8 no login has the password {password}\r\n")
            }
            "MAIL" | "RSET" | "NOOP" => "250 ok\r\n".to_owned(),
            "RCPT" => {
                recipients.push(
                    line[line.find(':').map_or(0, |at| at + 1)..]
                        .trim()
                        .to_owned(),
                );
                "250 ok\r\n".to_owned()
            }
            "DATA" => {
                if stream.write_all(b"354 go on\r\n").await.is_err() {
                    return;
                }
                let mut data = String::new();
                loop {
                    let mut line = String::new();
                    if stream.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    if line == ".\r\n" {
                        break;
                    }
                    data.push_str(&line);
                }
                let _ = sender.send(Delivery {
                    recipients: std::mem::take(&mut recipients),
                    data,
                });
                "250 taken\r\n".to_owned()
            }
            "QUIT" => {
                let _ = stream.write_all(b"221 bye\r\n").await;
                return;
            }
            _ => "502 not here\r\n".to_owned(),
        };
        if stream.write_all(reply.as_bytes()).await.is_err() {
            return;
        }
    }
}

/// Mail settings for a relay on 127.0.0.1 at `port`, spoken to as `tls` says.
fn mail(port: u16, tls: server::config::SmtpTls) -> server::config::Mail {
    server::config::Mail {
        smtp_host: Some("127.0.0.1".into()),
        smtp_port: Some(port),
        smtp_tls: tls,
        mail_from: Some("Berth <berth@example.com>".into()),
        ..server::config::Mail::default()
    }
}

/// The task's events as the API answers them (English), once they hold `until`
/// (or after 10 s).
async fn events_once(app: &axum::Router, id: &str, until: &str) -> String {
    events_until(app, id, |said| said.contains(until)).await
}

/// The task's events as JSON text once `done` holds of them, or after 10 s.
async fn events_until(app: &axum::Router, id: &str, done: impl Fn(&str) -> bool) -> String {
    let mut said = String::new();
    for _ in 0..100 {
        let request = Request::get(format!("/api/v1/tasks/{id}/events"))
            .body(Body::empty())
            .expect("a request");
        let (_, events) = super::answer(app, request).await;
        said = events.to_string();
        if done(&said) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    said
}

/// Stops task `id`, which the server accepts.
async fn stop(app: &axum::Router, id: &str) {
    let request = Request::post(format!("/api/v1/tasks/{id}/stop"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{}"))
        .expect("a request");
    let (status, _) = super::answer(app, request).await;
    assert_eq!(status, StatusCode::OK);
}

/// The next mail the relay takes, within 30 s.
async fn next_mail(deliveries: &mut tokio::sync::mpsc::UnboundedReceiver<Delivery>) -> Delivery {
    tokio::time::timeout(Duration::from_secs(30), deliveries.recv())
        .await
        .expect("a mail arrives")
        .expect("a mail")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_email_alert_is_mailed_through_the_relay_and_recorded_as_sent() {
    let (port, mut deliveries) = relay(Login::None, Secure::Plain).await;
    let state = super::demo_state_with(|config| {
        config.mail = mail(port, server::config::SmtpTls::None);
    })
    .await;
    let app = server::app(state);
    // The form's email rows read it: with a relay, nothing to warn of.
    let request = Request::get("/api/v1/catalog")
        .body(Body::empty())
        .expect("a request");
    let (_, catalog) = super::answer(&app, request).await;
    assert_eq!(catalog["email_alerts"], true);
    let alerts = json!([
        { "event": "failed", "channel": "email", "target": "bob@example.com" },
        { "event": "succeeded", "channel": "email", "target": "bob@example.com" },
    ]);
    let id = super::submit(&app, &spec("true", alerts)).await;

    // The succeeded subscription's mail, to its address, saying which task and what
    // happened, in English and in Chinese.
    let delivery = next_mail(&mut deliveries).await;
    assert_eq!(delivery.recipients, ["<bob@example.com>"], "{delivery:?}");
    let parsed = mail_parser::MessageParser::default()
        .parse(delivery.data.as_bytes())
        .expect("a mail");
    let to = parsed
        .to()
        .and_then(|to| to.first())
        .and_then(|a| a.address());
    assert_eq!(to, Some("bob@example.com"), "{}", delivery.data);
    let from = parsed
        .from()
        .and_then(|f| f.first())
        .and_then(|a| a.address());
    assert_eq!(from, Some("berth@example.com"), "{}", delivery.data);
    let subject = parsed.subject().expect("a subject");
    assert!(subject.contains(&id), "{subject}");
    assert!(
        subject.contains("Succeeded") && subject.contains("任务成功"),
        "{subject}"
    );
    let body = parsed.body_text(0).expect("a text body");
    assert!(body.contains(&id), "{body}");
    assert!(body.contains("every replica ended well"), "{body}");
    assert!(body.contains("所有副本均已正常结束"), "{body}");

    // Recorded as sent; the failed subscription did not fire, and nothing more is mailed.
    let said = events_once(&app, &id, "sent to bob@example.com").await;
    assert!(
        said.contains("\\\"Succeeded\\\" sent to bob@example.com"),
        "{said}"
    );
    assert!(!said.contains("\\\"Failed\\\""), "{said}");
    assert!(
        tokio::time::timeout(Duration::from_millis(300), deliveries.recv())
            .await
            .is_err()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_email_alert_through_an_unreachable_relay_is_recorded_as_not_delivered() {
    // A port nothing listens on: bound, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a port")
        .port();
    let state = super::demo_state_with(|config| {
        config.mail = mail(port, server::config::SmtpTls::None);
    })
    .await;
    let app = server::app(state);
    let alerts = json!([
        { "event": "succeeded", "channel": "email", "target": "bob@example.com" },
    ]);
    let id = super::submit(&app, &spec("true", alerts)).await;
    let said = events_once(&app, &id, "not delivered to bob@example.com").await;
    assert!(
        said.contains("\\\"Succeeded\\\" not delivered to bob@example.com: the connection was refused: nothing takes connections at that address and port"),
        "{said}"
    );
}

/// The relay's password is sent to the relay only: a relay repeating it in its refusal
/// does not put it in the task's events, and no answer of the API shows it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_relays_password_never_shows_in_the_tasks_events_or_answers() {
    const PASSWORD: &str = "Pa55-w0rd-of-the-relay";
    let (port, _deliveries) = relay(Login::RefusedWithThePassword, Secure::Plain).await;
    let dir = temp_dir("smtp-password");
    let file = dir.join("password");
    std::fs::write(&file, format!("{PASSWORD}\n")).expect("writable");
    let state = super::demo_state_with(|config| {
        config.mail = server::config::Mail {
            smtp_user: Some("berth".into()),
            smtp_password_file: Some(file),
            ..mail(port, server::config::SmtpTls::None)
        };
    })
    .await;
    assert!(
        !format!("{:?}", state.config).contains(PASSWORD),
        "the settings print the password"
    );
    let app = server::app(state);
    let alerts = json!([
        { "event": "succeeded", "channel": "email", "target": "bob@example.com" },
    ]);
    let id = super::submit(&app, &spec("true", alerts)).await;
    let said = events_once(&app, &id, "not delivered to bob@example.com").await;
    // The relay's refusal is recorded (so it did get the password), without it.
    assert!(said.contains("no login has the password"), "{said}");
    assert!(!said.contains(PASSWORD), "{said}");
    for path in [
        format!("/api/v1/tasks/{id}"),
        format!("/api/v1/tasks/{id}/events?lang=zh-CN"),
        "/api/v1/tasks".to_owned(),
    ] {
        let request = Request::get(&path).body(Body::empty()).expect("a request");
        let (status, answer) = super::answer(&app, request).await;
        assert_eq!(status, StatusCode::OK, "{path}: {answer}");
        assert!(!answer.to_string().contains(PASSWORD), "{path}: {answer}");
    }
}

/// A TLS acceptor with a certificate for 127.0.0.1 that a CA made here signs, and that
/// CA's file.
fn tls_acceptor(name: &str) -> (tokio_rustls::TlsAcceptor, std::path::PathBuf) {
    let (ca, leaf, key) = certificates(&temp_dir(name));
    let certs = CertificateDer::pem_file_iter(&leaf)
        .expect("readable")
        .collect::<Result<Vec<_>, _>>()
        .expect("PEM");
    let key = PrivateKeyDer::from_pem_file(&key).expect("a key");
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("TLS versions")
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .expect("a certificate");
    (tokio_rustls::TlsAcceptor::from(Arc::new(config)), ca)
}

/// Over TLS, from the first byte or after STARTTLS, the relay's certificate is trusted
/// when the alerts CA signs it, as a webhook's is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_email_alert_goes_over_tls_to_a_relay_the_alerts_ca_signs() {
    for (mode, name) in [
        (server::config::SmtpTls::Tls, "smtps-certs"),
        (server::config::SmtpTls::Starttls, "starttls-certs"),
    ] {
        let (acceptor, ca) = tls_acceptor(name);
        let secure = match mode {
            server::config::SmtpTls::Tls => Secure::Tls(acceptor),
            _ => Secure::Starttls(acceptor),
        };
        let (port, mut deliveries) = relay(Login::None, secure).await;
        let state = super::demo_state_with(|config| {
            config.mail = mail(port, mode);
            config.alerts_ca = Some(ca);
        })
        .await;
        let app = server::app(state);
        let alerts = json!([
            { "event": "failed", "channel": "email", "target": "bob@example.com" },
        ]);
        // Its worker fails (the master waits to be ended), at once, without retries.
        let mut failing = spec(r#"[ "$RANK" = 1 ] && exit 3; sleep 60"#, alerts);
        failing["advanced"]["fault_tolerance"] = json!({ "enabled": false, "max_retries": 3 });
        let id = super::submit(&app, &failing).await;
        let delivery = next_mail(&mut deliveries).await;
        assert_eq!(
            delivery.recipients,
            ["<bob@example.com>"],
            "{mode:?}: {delivery:?}"
        );
        // The replica that ended it named as the task's page names it, in both
        // languages.
        let parsed = mail_parser::MessageParser::default()
            .parse(delivery.data.as_bytes())
            .expect("a mail");
        let body = parsed.body_text(0).expect("a text body");
        assert!(
            body.contains("replica 1 (worker 0) ended with exit code 3"),
            "{mode:?}: {body}"
        );
        assert!(
            body.contains("副本 1（工作节点 0）已结束，退出码 3"),
            "{mode:?}: {body}"
        );
        let said = events_once(&app, &id, "sent to bob@example.com").await;
        assert!(
            said.contains("\\\"Failed\\\" sent to bob@example.com"),
            "{mode:?}: {said}"
        );
    }
}

/// A threshold subscription by email fires once the task has stayed longer than it in
/// its phase, and once only: its mail says how long.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_longer_than_email_is_mailed_once_when_due() {
    let (port, mut deliveries) = relay(Login::None, Secure::Plain).await;
    let state = super::demo_state_with(|config| {
        config.mail = mail(port, server::config::SmtpTls::None);
    })
    .await;
    let runner = state.runner.clone().expect("a runner");
    let app = server::app(state);
    let alerts = json!([
        { "event": "running_longer_than", "threshold": 2, "channel": "email", "target": "bob@example.com" },
    ]);
    let id = super::submit(&app, &spec("sleep 1000", alerts)).await;
    let started = running_since(&app, &id).await;
    const HOUR: i64 = 3_600_000;
    runner
        .sweep_alerts_at(shared::Timestamp(started + 2 * HOUR + 1))
        .await;
    let delivery = next_mail(&mut deliveries).await;
    let parsed = mail_parser::MessageParser::default()
        .parse(delivery.data.as_bytes())
        .expect("a mail");
    let body = parsed.body_text(0).expect("a text body");
    assert!(body.contains("running for more than 2 hours"), "{body}");
    assert!(body.contains("运行超过 2 小时"), "{body}");
    // Its event is in before the sweep looks again: no second mail.
    let said = events_once(&app, &id, "sent to bob@example.com").await;
    assert!(said.contains("sent to bob@example.com"), "{said}");
    runner
        .sweep_alerts_at(shared::Timestamp(started + 3 * HOUR))
        .await;
    assert!(
        tokio::time::timeout(Duration::from_millis(500), deliveries.recv())
            .await
            .is_err(),
        "mailed twice"
    );
    stop(&app, &id).await;
}

/// A TCP listener on a free port of 127.0.0.1 that holds every connection it takes,
/// never answering (a webhook's TLS never starts), until the test lets them go: the
/// held connections, and the most ever held at once.
struct Holder {
    port: u16,
    held: Arc<std::sync::Mutex<Vec<tokio::net::TcpStream>>>,
    most: Arc<std::sync::atomic::AtomicUsize>,
    taken: Arc<std::sync::atomic::AtomicUsize>,
}

impl Holder {
    async fn new() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let port = listener.local_addr().expect("an address").port();
        let held: Arc<std::sync::Mutex<Vec<tokio::net::TcpStream>>> = Arc::default();
        let most = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let taken = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (into, highest, counted) = (Arc::clone(&held), Arc::clone(&most), Arc::clone(&taken));
        tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let mut held = into.lock().expect("not poisoned");
                held.push(tcp);
                highest.fetch_max(held.len(), std::sync::atomic::Ordering::SeqCst);
                counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        });
        Holder {
            port,
            held,
            most,
            taken,
        }
    }

    /// Connections held now.
    fn holding(&self) -> usize {
        self.held.lock().expect("not poisoned").len()
    }

    /// Connections taken so far.
    fn taken(&self) -> usize {
        self.taken.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Waits (up to 10 s) until `done` holds of the listener, then as long again as
    /// more connections would take to come, were they let through.
    async fn settle(&self, done: impl Fn(&Self) -> bool) {
        for _ in 0..200 {
            if done(self) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }

    /// Closes every connection held: their calls fail, and their alerts' turns end.
    fn let_go(&self) {
        self.held.lock().expect("not poisoned").clear();
    }
}

/// An event of a task with many webhooks to one host opens a few connections at a time
/// (its share of the server's turns, `SHARE`, 2), not one for each at the same moment;
/// every one is still called in its turn and recorded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tasks_many_webhooks_are_called_a_few_at_a_time() {
    const HOOKS: usize = 10;
    const SHARE: usize = 2;
    let holder = Holder::new().await;
    let app = server::app(super::demo_state().await);
    let id = super::submit(&app, &failing_with_hooks(&holder, HOOKS)).await;
    // Each round: as many as the bound come, and no more while they are held.
    while holder.taken() < HOOKS {
        holder.settle(|h| h.holding() >= SHARE).await;
        let holding = holder.holding();
        assert!(
            holding == SHARE || holder.taken() == HOOKS,
            "held {holding} at once, {} taken",
            holder.taken()
        );
        holder.let_go();
    }
    assert_eq!(holder.most.load(std::sync::atomic::Ordering::SeqCst), SHARE);
    // Every alert is recorded, not delivered: each call was cut off.
    let said = events_until(&app, &id, |said| {
        said.matches("not delivered to https://").count() == HOOKS
    })
    .await;
    for i in 0..HOOKS {
        let hook = format!("https://127.0.0.1:{}/h{i}: ", holder.port);
        assert!(said.contains(&hook), "{hook}: {said}");
    }
}

/// A spec that fails at once, with no retry, calling `hooks` webhooks at `holder` when
/// it does.
fn failing_with_hooks(holder: &Holder, hooks: usize) -> Value {
    let hooks: Vec<Value> = (0..hooks)
        .map(|i| {
            json!({
                "event": "failed",
                "channel": "webhook",
                "target": format!("https://127.0.0.1:{}/h{i}", holder.port),
            })
        })
        .collect();
    let mut failing = spec("exit 1", Value::Array(hooks));
    failing["advanced"]["fault_tolerance"] = json!({ "enabled": false, "max_retries": 3 });
    failing
}

/// Tasks calling webhooks of three hosts that never answer hold at most the server's
/// `DELIVERING_AT_ONCE` (4) connections in all, though their shares would allow six.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_alerts_are_delivered_four_at_a_time_in_all() {
    const HOOKS: usize = 3;
    let holders = [
        Holder::new().await,
        Holder::new().await,
        Holder::new().await,
    ];
    let app = server::app(super::demo_state().await);
    for holder in &holders {
        super::submit(&app, &failing_with_hooks(holder, HOOKS)).await;
    }
    let holding = || holders.iter().map(Holder::holding).sum::<usize>();
    let taken = || holders.iter().map(Holder::taken).sum::<usize>();
    while taken() < 3 * HOOKS {
        holders[0]
            .settle(|_| holding() >= 4 || taken() == 3 * HOOKS)
            .await;
        assert!(
            holding() == 4 || taken() == 3 * HOOKS,
            "held {} at once, {} taken",
            holding(),
            taken()
        );
        for holder in &holders {
            holder.let_go();
        }
    }
}

/// Two tasks calling one host that never answers hold its share (2) of the server's
/// turns between them, not a share each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tasks_calling_one_dead_host_share_its_turns() {
    let holder = Holder::new().await;
    let app = server::app(super::demo_state().await);
    for _ in 0..2 {
        super::submit(&app, &failing_with_hooks(&holder, 3)).await;
    }
    // Within the calls' 10 s: a turn that ends with a timeout lets the next one in.
    holder.settle(|h| h.holding() >= 2).await;
    assert_eq!(holder.holding(), 2);
    while holder.taken() < 6 {
        holder.let_go();
        holder.settle(|h| h.holding() >= 2 || h.taken() == 6).await;
    }
    assert_eq!(holder.most.load(std::sync::atomic::Ordering::SeqCst), 2);
}

/// A task's webhooks to a host that never answers hold only their share of the server's
/// turns: another task's alert to a host that answers is delivered meanwhile, not after
/// the first task's ten calls have timed out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_webhook_does_not_hold_back_other_alerts() {
    let (state, port, mut bodies) = with_endpoint("alerts-share-certs").await;
    let holder = Holder::new().await;
    let app = server::app(state);
    let stuck = super::submit(&app, &failing_with_hooks(&holder, 10)).await;
    holder.settle(|h| h.holding() >= 2).await;
    assert_eq!(holder.holding(), 2, "the task's share of the turns");
    let hook = format!("https://127.0.0.1:{port}/live");
    // Its worker fails; the master waits to be ended.
    let mut other = spec(
        r#"[ "$RANK" = 1 ] && exit 1; sleep 60"#,
        json!([{ "event": "failed", "channel": "webhook", "target": hook }]),
    );
    other["advanced"]["fault_tolerance"] = json!({ "enabled": false, "max_retries": 3 });
    let other = super::submit(&app, &other).await;
    let body = tokio::time::timeout(Duration::from_secs(30), bodies.recv())
        .await
        .expect("the live webhook is called while the dead one holds its share")
        .expect("a body");
    assert!(body.contains(&other), "{body}");
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(
        body["message"], "replica 1 (worker 0) ended with exit code 1",
        "named as the task's page names it: {body}"
    );
    events_once(&app, &other, "sent to https://").await;
    // Still held: the live call did not wait for them, nor did they get more turns.
    assert_eq!(holder.holding(), 2);
    assert_eq!(holder.taken(), 2);
    let said = events_until(&app, &stuck, |_| true).await;
    assert!(!said.contains("not delivered"), "{said}");
    // The rest in their turns, two at a time.
    while holder.taken() < 10 {
        holder.let_go();
        holder.settle(|h| h.holding() >= 2 || h.taken() == 10).await;
    }
    holder.let_go();
    let said = events_until(&app, &stuck, |said| {
        said.matches("not delivered to https://").count() == 10
    })
    .await;
    assert_eq!(
        said.matches("not delivered to https://").count(),
        10,
        "{said}"
    );
}

/// A threshold alert still waiting for its turn (or its answer) when the sweep looks
/// again has not been recorded yet, and is not fired a second time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_threshold_alert_still_out_is_not_fired_again_by_the_next_sweep() {
    let holder = Holder::new().await;
    let state = super::demo_state().await;
    let runner = state.runner.clone().expect("a runner");
    let app = server::app(state);
    let hook = format!("https://127.0.0.1:{}/due", holder.port);
    let alerts = json!([
        { "event": "running_longer_than", "threshold": 2, "channel": "webhook", "target": hook },
    ]);
    let id = super::submit(&app, &spec("sleep 1000", alerts)).await;
    let started = running_since(&app, &id).await;
    const HOUR: i64 = 3_600_000;
    runner
        .sweep_alerts_at(shared::Timestamp(started + 2 * HOUR + 1))
        .await;
    holder.settle(|h| h.taken() >= 1).await;
    assert_eq!(holder.taken(), 1);
    // Held: its event is not in, and the next sweep sends it no second time.
    runner
        .sweep_alerts_at(shared::Timestamp(started + 3 * HOUR))
        .await;
    holder.settle(|h| h.taken() >= 2).await;
    assert_eq!(holder.taken(), 1, "fired again while out");
    holder.let_go();
    events_once(&app, &id, "not delivered to https://").await;
    stop(&app, &id).await;
}

/// A subscription that repeats an earlier one of the task (the same event, channel and
/// target, and a threshold its event ignores) fires once, with one event; another
/// target of the same event is called too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_subscription_is_called_once() {
    let (state, port, mut bodies) = with_endpoint("alerts-repeat-certs").await;
    let app = server::app(state);
    let (a, b) = (
        format!("https://127.0.0.1:{port}/a"),
        format!("https://127.0.0.1:{port}/b"),
    );
    let alerts = json!([
        { "event": "succeeded", "channel": "webhook", "target": a },
        { "event": "succeeded", "channel": "webhook", "target": b },
        { "event": "succeeded", "channel": "webhook", "target": a },
        { "event": "succeeded", "threshold": 3, "channel": "webhook", "target": a },
    ]);
    let id = super::submit(&app, &spec("true", alerts)).await;
    for _ in 0..2 {
        tokio::time::timeout(Duration::from_secs(30), bodies.recv())
            .await
            .expect("a webhook is called")
            .expect("a body");
    }
    let said = events_until(&app, &id, |said| {
        said.matches("sent to https://").count() >= 2
    })
    .await;
    assert!(
        tokio::time::timeout(Duration::from_millis(500), bodies.recv())
            .await
            .is_err(),
        "called again"
    );
    // A message ends with its target: the JSON string's quote follows.
    assert_eq!(said.matches(&format!("sent to {a}\"")).count(), 1, "{said}");
    assert_eq!(said.matches(&format!("sent to {b}\"")).count(), 1, "{said}");
}

/// The server checks the count as the form does: the exploratory tester's spec of
/// 10,000 webhooks gets `advanced.alerts.too_many` from `/validate` (with no more than
/// a repeat warning for each of the first 20 but the first) and is refused on submit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spec_with_more_subscriptions_than_allowed_is_refused() {
    let app = super::demo_app().await;
    let hook =
        json!({ "event": "failed", "channel": "webhook", "target": "https://hooks.example.com/h" });
    let flood = spec("true", Value::Array(vec![hook; 10_000]));
    let post = |path: &str| {
        Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(flood.to_string()))
            .expect("a request")
    };
    let (status, answer) = super::answer(&app, post("/api/v1/validate")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let codes: Vec<&str> = answer["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .filter_map(|i| i["code"].as_str())
        .collect();
    assert!(codes.contains(&"advanced.alerts.too_many"), "{codes:?}");
    assert_eq!(
        codes
            .iter()
            .filter(|c| **c == "advanced.alerts.duplicate")
            .count(),
        19,
        "{codes:?}"
    );
    let (status, answer) = super::answer(&app, post("/api/v1/tasks")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert!(
        answer.to_string().contains("advanced.alerts.too_many"),
        "{answer}"
    );
}
