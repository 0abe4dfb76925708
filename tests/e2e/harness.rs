//! What every journey needs: the real server on a free port serving the trunk build,
//! a chromedriver, and a headless Chromium session.
//!
//! The console must be built first (`trunk build --release`, which the test script
//! does); a missing `dist/` fails with that instruction rather than a blank page.

use fantoccini::{Client, ClientBuilder};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The workspace root (this crate lives in `tests/`).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A free local port.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

/// Starts the real router on a free port, serving `dist/`; returns its base URL.
pub async fn start_server() -> String {
    let dist = std::env::var_os("BERTH_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("dist"));
    assert!(
        dist.join("index.html").exists(),
        "{} has no console build: run `trunk build --release` first (scripts/test.sh does)",
        dist.display()
    );
    // A task store and runner in a fresh data folder, so a journey can submit.
    let data = std::env::temp_dir().join(format!(
        "berth-e2e-data-{}-{}",
        std::process::id(),
        free_port()
    ));
    std::fs::create_dir_all(&data).expect("the data folder can be made");
    let config = server::Config {
        data_dir: data,
        ..server::Config::demo(dist)
    };
    let state = server::AppState::open(config)
        .await
        .expect("the demo state opens");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free local port");
    let addr = listener.local_addr().expect("a bound address");
    tokio::spawn(async move {
        axum_serve(listener, server::app(state)).await;
    });
    format!("http://{addr}")
}

async fn axum_serve(listener: tokio::net::TcpListener, app: server::Router) {
    server::serve(listener, app).await.expect("the server runs");
}

/// A chromedriver process, killed when dropped.
pub struct Driver {
    child: Child,
    /// Its WebDriver URL.
    pub url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts chromedriver on a free port and waits until it listens.
pub fn start_driver() -> Driver {
    let port = free_port();
    let binary =
        std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".to_owned());
    let mut child = Command::new(&binary)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot start {binary} ({e}): scripts/install-tools.sh installs it")
        });
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Driver {
                child,
                url: format!("http://127.0.0.1:{port}"),
            };
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("chromedriver did not listen on port {port} within 10 s");
}

/// A headless Chromium session with the flags these machines need (../shared/TOOLCHAIN.md).
pub async fn browser(driver: &Driver, lang: &str) -> Client {
    let profile =
        std::env::temp_dir().join(format!("berth-e2e-{}-{}", std::process::id(), free_port()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1400,1000", format!("--lang={lang}"), format!("--user-data-dir={}", profile.display())
            ],
            "prefs": { "intl.accept_languages": lang }
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a Chromium session starts")
}

/// Saves a PNG of the page as `target/e2e-screenshots/<name>.png`, as evidence of a
/// journey's step (CJK text renders with Debian's fonts-noto-cjk installed).
pub async fn screenshot(client: &Client, name: &str) {
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
        .join("e2e-screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshot folder can be made");
    let png = client
        .screenshot()
        .await
        .expect("Chromium takes a screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("the screenshot is saved");
}
