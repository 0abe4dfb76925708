//! What every journey needs: the real server on a free port serving the trunk build,
//! a chromedriver, and a headless Chromium session.
//!
//! The console must be built first (`trunk build --release`, which the test script
//! does); a missing `dist/` fails with that instruction rather than a blank page.

use fantoccini::{Client, ClientBuilder, error::NewSessionError};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The workspace root (this crate lives in `tests/`).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The console build the journeys serve: `BERTH_DIST`, else the workspace's `dist/`.
pub fn dist() -> PathBuf {
    std::env::var_os("BERTH_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("dist"))
}

/// A free local port.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

/// A portal on one site and Berth on another: the same real router on two free ports
/// (two origins), Berth listing the portal's site in `[cors] origins`. Returns the
/// portal's base URL and Berth's.
pub async fn start_portal_and_berth() -> (String, String) {
    let dist = dist();
    let portal = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free local port");
    let berth = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free local port");
    let portal_url = format!("http://{}", portal.local_addr().expect("a bound address"));
    let berth_url = format!("http://{}", berth.local_addr().expect("a bound address"));
    let config = server::Config {
        data_dir: temp_dir("data"),
        cors_origins: vec![portal_url.clone()],
        ..server::Config::demo(dist)
    };
    let app = server::app(
        server::AppState::open(config)
            .await
            .expect("the demo state opens"),
    );
    let portal_app = app.clone();
    tokio::spawn(async move { axum_serve(portal, portal_app).await });
    tokio::spawn(async move { axum_serve(berth, app).await });
    (portal_url, berth_url)
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
        // The browsers it started are in its process group: a journey that failed before
        // closing its session would otherwise leave Chromium running.
        let _ = Command::new("kill")
            .args(["-TERM", "--", &format!("-{}", self.child.id())])
            .stderr(Stdio::null())
            .status();
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
        .process_group(0)
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
    let profile = std::env::temp_dir().join(unique_name("profile"));
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
    caps.insert(
        "goog:loggingPrefs".into(),
        serde_json::json!({ "browser": "ALL" }),
    );
    // ChromeDriver, busy starting another journey's Chromium on a loaded machine, has
    // once reset the connection of a session request (a CI rehearsal), and a Chromium
    // has once exited as it started ("Chrome instance exited", another); neither says
    // anything about Berth, so such a request is asked again, and only that.
    let mut tries = 0;
    loop {
        tries += 1;
        match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps.clone())
            .connect(&driver.url)
            .await
        {
            Ok(client) => return client,
            Err(
                e @ (NewSessionError::Failed(_)
                | NewSessionError::FailedC(_)
                | NewSessionError::Lost(_)
                | NewSessionError::SessionNotCreated(_)),
            ) if tries < 3 => {
                eprintln!("ChromeDriver dropped a session request ({e}); asking again");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(e) => panic!("a Chromium session starts: {e:?}"),
        }
    }
}

/// ChromeDriver's log of the browser's console since the last read: the page's own
/// messages and Chromium's notes about it (a preload it ignores, a failed request).
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(r#"{"type":"browser"}"#.to_owned()))
    }
}

/// What the browser's console said since the last read, one `LEVEL message` a line.
pub async fn browser_log(client: &Client) -> Vec<String> {
    let log = client
        .issue_cmd(BrowserLog)
        .await
        .expect("ChromeDriver gives the browser's log");
    log.as_array()
        .expect("the browser's log is a list")
        .iter()
        .map(|entry| {
            format!(
                "{} {}",
                entry["level"].as_str().unwrap_or("?"),
                entry["message"]
            )
        })
        .collect()
}

/// Saves a PNG of the page as `target/e2e-screenshots/<name>.png`, as evidence of a
/// journey's step (CJK text renders with Debian's fonts-noto-cjk installed).
/// Whether the page has fetched a file whose address contains `name` (the YAML module
/// is fetched only when it is needed).
pub async fn fetched(client: &Client, name: &str) -> bool {
    client
        .execute(
            "return performance.getEntriesByType('resource').some((e) => e.name.includes(arguments[0]))",
            vec![name.into()],
        )
        .await
        .expect("the page answers")
        .as_bool()
        .expect("a boolean")
}

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

/// A folder name no other test of this run is given: the process's id and a count. (It
/// was a free port: two tests running at once were given the same port, and so one data
/// folder, which the second emptied under the first server, whose task was then gone.)
fn unique_name(what: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("berth-e2e-{what}-{}-{n}", std::process::id())
}

/// A fresh, empty folder under the system's temp folder.
fn temp_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(unique_name(what));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temp folder is writable");
    dir
}

/// Starts the real server as `berth serve` runs it (task store, scheduler and local
/// backend in a fresh data folder) on a free port, serving `dist/`; returns its base URL.
pub async fn start_server() -> String {
    start_server_of(dist()).await
}

/// [`start_server`] serving the console built in `dist`.
pub async fn start_server_of(dist: PathBuf) -> String {
    assert!(
        dist.join("index.html").exists(),
        "{} has no console build: run `trunk build --release` first (scripts/test.sh does)",
        dist.display()
    );
    let config = server::Config {
        data_dir: temp_dir("data"),
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

/// One accessibility finding of axe-core that blocks someone: its rule, impact and the
/// elements it found.
#[derive(Debug)]
pub struct Violation {
    /// The axe rule (`color-contrast`, `label`, …).
    pub id: String,
    /// `critical` or `serious`.
    pub impact: String,
    /// What the rule asks for.
    pub help: String,
    /// CSS selectors of the offending elements.
    pub targets: Vec<String>,
}

/// Runs axe-core (npm `axe-core`, installed into `.tools/node_modules` by
/// scripts/install-tools.sh) in the page as it is now and returns its critical and
/// serious violations.
pub async fn axe_violations(client: &Client) -> Vec<Violation> {
    let path = std::env::var_os("AXE_CORE")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(".tools/node_modules/axe-core/axe.min.js"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}): scripts/install-tools.sh installs axe-core",
            path.display()
        )
    });
    // Run by the driver, once per page: a script element of its own would be refused by
    // the console page's script policy, as any script the page did not bring is.
    client
        .execute(&format!("if (!window.axe) {{\n{source}\n}}"), vec![])
        .await
        .expect("axe-core loads into the page");
    let found = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] })
               .then(r => done(r.violations
                 .filter(v => v.impact === 'critical' || v.impact === 'serious')
                 .map(v => ({ id: v.id, impact: v.impact, help: v.help,
                              targets: v.nodes.map(n => n.target.join(' ')) }))))
               .catch(e => done([{ id: 'axe-error', impact: 'critical', help: String(e), targets: [] }]));",
            vec![],
        )
        .await
        .expect("axe-core runs");
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_owned();
    found
        .as_array()
        .expect("axe-core answers with a list")
        .iter()
        .map(|v| Violation {
            id: text(&v["id"]),
            impact: text(&v["impact"]),
            help: text(&v["help"]),
            targets: v["targets"]
                .as_array()
                .map(|t| t.iter().map(text).collect())
                .unwrap_or_default(),
        })
        .collect()
}

/// Fails with the list when axe-core finds a critical or serious violation on `page`.
pub async fn assert_accessible(client: &Client, page: &str) {
    let violations = axe_violations(client).await;
    assert!(
        violations.is_empty(),
        "axe-core on the {page} page: {violations:#?}"
    );
}

/// Calls the API from inside the page (same origin, same identity as the console) and
/// returns the status and the JSON answer (`null` for an empty body).
pub async fn api_call(
    client: &Client,
    method: &str,
    path: &str,
    body: Option<&serde_json::Value>,
) -> (u16, serde_json::Value) {
    let answer = client
        .execute_async(
            "const [method, path, body] = arguments; const done = arguments[arguments.length - 1];
             const init = { method, headers: {} };
             if (body !== null) { init.body = JSON.stringify(body); init.headers['content-type'] = 'application/json'; }
             fetch(path, init).then(async r => { const t = await r.text(); done([r.status, t ? JSON.parse(t) : null]); })
               .catch(e => done([0, String(e)]));",
            vec![
                method.into(),
                path.into(),
                body.cloned().unwrap_or(serde_json::Value::Null),
            ],
        )
        .await
        .expect("the page calls the API");
    let status = answer[0].as_u64().unwrap_or(0) as u16;
    (status, answer[1].clone())
}
