//! The server's own accept loop over real sockets: a client that holds a connection
//! without sending its request is cut off after the read timeout, while an answer that
//! streams for longer is not; a stopping server does not wait for such an answer for good.

use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The read timeout these tests serve with.
const READ_TIMEOUT: Duration = Duration::from_secs(1);
/// How long a test waits for what must happen long before; never reached when it passes.
const GIVE_UP: Duration = Duration::from_secs(30);

/// The demo app served on a free loopback port with [`READ_TIMEOUT`]; gives its address.
async fn served() -> std::net::SocketAddr {
    let state = super::demo_state_with(|config| config.read_timeout = READ_TIMEOUT).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(server::serve_until(
        listener,
        server::app(state),
        READ_TIMEOUT,
        std::future::pending(),
    ));
    addr
}

/// Everything the server sends on `stream` until it closes it.
async fn read_until_closed(stream: &mut TcpStream) -> String {
    let mut answer = Vec::new();
    let read = tokio::time::timeout(GIVE_UP, stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the server kept the connection open");
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_sends_no_whole_head_is_cut_off() {
    let addr = served().await;
    let mut silent = TcpStream::connect(addr).await.unwrap();
    let mut partial = TcpStream::connect(addr).await.unwrap();
    partial
        .write_all(b"GET /api/v1/catalog HTTP/1.1\r\nHost: berth\r\nX-Slow: ")
        .await
        .unwrap();
    assert_eq!(read_until_closed(&mut silent).await, "");
    assert_eq!(read_until_closed(&mut partial).await, "");

    // A connection kept alive after an answer is closed once it idles as long.
    let mut kept = TcpStream::connect(addr).await.unwrap();
    kept.write_all(b"GET /api/v1/catalog HTTP/1.1\r\nHost: berth\r\n\r\n")
        .await
        .unwrap();
    let answer = read_until_closed(&mut kept).await;
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_does_not_arrive_whole_is_408_naming_the_limit() {
    let addr = served().await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(
            b"POST /api/v1/validate HTTP/1.1\r\nHost: berth\r\n\
              Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"version\"",
        )
        .await
        .unwrap();
    let answer = read_until_closed(&mut stream).await;
    assert!(
        answer.starts_with("HTTP/1.1 408 Request Timeout\r\n"),
        "{answer}"
    );
    let body = &answer[answer.find("\r\n\r\n").expect("a head") + 4..];
    let problem: serde_json::Value = serde_json::from_str(body).expect("a problem");
    assert_eq!(problem["code"], "body.timeout", "{problem}");
    assert_eq!(
        problem["detail"],
        "the request body did not arrive whole within 1 s; send it at once, right after the request's head"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followed_log_streams_past_the_read_timeout() {
    let addr = served().await;
    let base = format!("http://{addr}/api/v1");
    let mut spec = super::pytorch("echo early; sleep 3; echo late");
    spec["compute"]["workers"] = 1.into();
    let log = tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let mut created = agent
            .post(&format!("{base}/tasks"))
            .header("content-type", "application/json")
            .send(spec.to_string())
            .expect("submits");
        let task: serde_json::Value =
            serde_json::from_str(&created.body_mut().read_to_string().unwrap()).unwrap();
        assert_eq!(created.status().as_u16(), 201, "{task}");
        let id = task["id"].as_str().expect("an id");
        let mut followed = agent
            .get(&format!("{base}/tasks/{id}/logs?replica=0&follow=true"))
            .call()
            .expect("follows");
        assert_eq!(followed.status().as_u16(), 200);
        followed.body_mut().read_to_string().expect("the whole log")
    })
    .await
    .unwrap();
    assert!(log.contains("data: late"), "{log}");
    assert!(log.contains("event: end"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_server_stops_though_a_log_is_followed() {
    let state = super::demo_state_with(|config| config.read_timeout = READ_TIMEOUT).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server::serve_until(
        listener,
        server::app(state),
        READ_TIMEOUT,
        async move {
            let _ = stopped.await;
        },
    ));
    let base = format!("http://{addr}/api/v1");
    let mut spec = super::pytorch("echo started; sleep 120");
    spec["compute"]["workers"] = 1.into();
    let (following, followed) = tokio::sync::oneshot::channel();
    let log = tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let mut created = agent
            .post(&format!("{base}/tasks"))
            .header("content-type", "application/json")
            .send(spec.to_string())
            .expect("submits");
        let task: serde_json::Value =
            serde_json::from_str(&created.body_mut().read_to_string().unwrap()).unwrap();
        let id = task["id"].as_str().expect("an id").to_owned();
        let mut answer = agent
            .get(&format!("{base}/tasks/{id}/logs?replica=0&follow=true"))
            .call()
            .expect("follows");
        let _ = following.send(id.clone());
        // Cut off, not ended: no `end` event.
        let text = answer.body_mut().read_to_string().unwrap_or_default();
        let _ = agent.post(&format!("{base}/tasks/{id}/stop")).send_empty();
        text
    });
    followed.await.expect("the log is followed");
    let _ = stop.send(());
    // The replica runs on (a lone server's do), so the log would stream for two minutes.
    let ended = tokio::time::timeout(server::DRAIN + GIVE_UP, serving).await;
    assert!(ended.is_ok(), "the server still serves");
    assert!(
        TcpStream::connect(addr).await.is_err(),
        "a stopped server takes no connection"
    );
    let _ = tokio::time::timeout(GIVE_UP, log).await;
}
