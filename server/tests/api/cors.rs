//! Other sites' pages calling the API (`[cors] origins`): a portal embedding the form.

use super::temp_dir;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response, StatusCode, header};
use tower::ServiceExt;

const PORTAL: &str = "https://portal.example.com";

async fn app(origins: &[&str]) -> Router {
    let dist = temp_dir("dist");
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><script type=module src=/a.js></script><script>start()</script>",
    )
    .expect("temp dir is writable");
    std::fs::write(
        dist.join("embed.html"),
        "<!doctype html><script>portal()</script>",
    )
    .expect("temp dir is writable");
    let config = server::Config {
        data_dir: temp_dir("data"),
        cors_origins: origins.iter().map(|o| (*o).to_owned()).collect(),
        ..server::Config::demo(dist)
    };
    server::app(server::AppState::open(config).await.expect("opens"))
}

async fn send(app: &Router, request: Request<Body>) -> Response<Body> {
    app.clone()
        .oneshot(request)
        .await
        .expect("the router answers")
}

/// The `detail` of a `request.cross_site` refusal, which it must be.
async fn cross_site_detail(answer: Response<Body>) -> String {
    let body = axum::body::to_bytes(answer.into_body(), usize::MAX)
        .await
        .unwrap();
    let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(body["code"], "request.cross_site", "{body}");
    body["detail"].as_str().unwrap_or_default().to_owned()
}

fn header<'a>(response: &'a Response<Body>, name: &str) -> Option<&'a str> {
    response.headers().get(name).and_then(|v| v.to_str().ok())
}

/// Every value of a header sent more than once (a browser keeps to each policy).
fn headers<'a>(response: &'a Response<Body>, name: &str) -> Vec<&'a str> {
    let values = response.headers().get_all(name).iter();
    values.filter_map(|v| v.to_str().ok()).collect()
}

/// What a browser sends before the form's submit from the portal's page.
fn preflight(origin: &str) -> Request<Body> {
    Request::options("/api/v1/tasks")
        .header(header::ORIGIN, origin)
        .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
        .header(
            header::ACCESS_CONTROL_REQUEST_HEADERS,
            "content-type,idempotency-key",
        )
        .body(Body::empty())
        .unwrap()
}

#[tokio::test]
async fn a_listed_site_may_submit_with_credentials_and_read_every_answer() {
    let app = app(&[PORTAL, "http://localhost:3000"]).await;

    let answer = send(&app, preflight(PORTAL)).await;
    assert!(answer.status().is_success(), "{}", answer.status());
    assert_eq!(header(&answer, "access-control-allow-origin"), Some(PORTAL));
    assert_eq!(
        header(&answer, "access-control-allow-credentials"),
        Some("true")
    );
    let methods = header(&answer, "access-control-allow-methods").unwrap_or_default();
    assert!(methods.contains("POST"), "{methods}");
    let headers = header(&answer, "access-control-allow-headers")
        .unwrap_or_default()
        .to_ascii_lowercase();
    assert!(
        headers.contains("content-type") && headers.contains("idempotency-key"),
        "{headers}"
    );

    let catalog = Request::get("/api/v1/catalog")
        .header(header::ORIGIN, PORTAL)
        .body(Body::empty())
        .unwrap();
    let answer = send(&app, catalog).await;
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(header(&answer, "access-control-allow-origin"), Some(PORTAL));

    // A refusal too, so the portal's form can show the findings at their fields.
    let refused = Request::post("/api/v1/tasks")
        .header(header::ORIGIN, PORTAL)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{}"))
        .unwrap();
    let answer = send(&app, refused).await;
    assert_eq!(answer.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(header(&answer, "access-control-allow-origin"), Some(PORTAL));
}

#[tokio::test]
async fn any_other_site_gets_no_permission() {
    let app = app(&[PORTAL]).await;
    for origin in [
        "https://evil.example.com",
        "https://portal.example.com.evil.io",
    ] {
        let answer = send(&app, preflight(origin)).await;
        assert_eq!(
            header(&answer, "access-control-allow-origin"),
            None,
            "{origin}"
        );
        let catalog = Request::get("/api/v1/catalog")
            .header(header::ORIGIN, origin)
            .body(Body::empty())
            .unwrap();
        let answer = send(&app, catalog).await;
        assert_eq!(
            header(&answer, "access-control-allow-origin"),
            None,
            "{origin}"
        );
    }
}

#[tokio::test]
async fn without_origins_the_api_speaks_to_its_own_site_only() {
    let app = app(&[]).await;
    let answer = send(&app, preflight(PORTAL)).await;
    assert_eq!(answer.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(header(&answer, "access-control-allow-origin"), None);
}

/// A change asked by another site's page is refused unless the site is listed: with a
/// proxy's session cookie, a form on any page could stop, resubmit or share the user's
/// tasks (security exploration). The server's own pages, listed sites and clients that
/// are not browsers (no `Sec-Fetch-Site`) go on; reading is not a change.
#[tokio::test]
async fn a_change_asked_by_another_sites_page_is_refused_unless_listed() {
    let app = app(&[PORTAL]).await;
    let validate = |site: &str, origin: &str| {
        let mut request = Request::post("/api/v1/validate")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header("sec-fetch-site", site);
        if !origin.is_empty() {
            request = request.header(header::ORIGIN, origin);
        }
        request.body(Body::from("{}")).unwrap()
    };
    for (site, origin) in [
        ("cross-site", "https://evil.example"),
        ("same-site", "https://other.example.com"),
        ("cross-site", ""),
    ] {
        let answer = send(&app, validate(site, origin)).await;
        assert_eq!(answer.status(), StatusCode::FORBIDDEN, "{site} {origin}");
        let detail = cross_site_detail(answer).await;
        assert!(detail.contains("[cors] origins"), "{detail}");
        // A page's origin is named; a request that named none says so in words ("(none)"
        // read as the server's fault: team explorer).
        let named = if origin.is_empty() {
            "(its browser named none)"
        } else {
            origin
        };
        assert!(detail.contains(named), "{detail}");
    }
    // Past the check: the route's own answer (here its 415 for a form's body).
    for (site, origin) in [("same-origin", ""), ("cross-site", PORTAL), ("none", "")] {
        let answer = send(&app, validate(site, origin)).await;
        assert_eq!(
            answer.status(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{site} {origin}"
        );
    }
    // A browser sends no `Sec-Fetch-Site` to a Berth on plain HTTP: a POST any page may
    // send unasked (not JSON) that names an unlisted `Origin` is refused there too; JSON,
    // which the console sends, needs the server's leave from another site's page.
    let unmarked = |origin: &str, kind: &str| {
        let mut request = Request::post("/api/v1/validate").header(header::CONTENT_TYPE, kind);
        if !origin.is_empty() {
            request = request.header(header::ORIGIN, origin);
        }
        request.body(Body::from("{}")).unwrap()
    };
    let answer = send(&app, unmarked("http://evil.example", "text/plain")).await;
    let detail = cross_site_detail(answer).await;
    assert!(
        detail.contains("that is not JSON is refused: send it as JSON"),
        "{detail}"
    );
    for (origin, kind, refused) in [
        ("http://evil.example", "text/plain", true),
        ("http://evil.example", "application/merge-patch+json", false),
        (
            "http://evil.example",
            "application/x-www-form-urlencoded",
            true,
        ),
        ("null", "multipart/form-data; boundary=x", true),
        ("http://evil.example", "application/json", false),
        (PORTAL, "text/plain", false),
        ("", "text/plain", false),
    ] {
        let status = send(&app, unmarked(origin, kind)).await.status();
        assert_eq!(
            status == StatusCode::FORBIDDEN,
            refused,
            "{origin} {kind}: {status}"
        );
    }
    let read = Request::get("/api/v1/tasks")
        .header("sec-fetch-site", "cross-site")
        .header(header::ORIGIN, "https://evil.example")
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&app, read).await.status(), StatusCode::OK);
}

/// Every answer, a page, an API answer or a refusal, may be framed only by Berth's own
/// pages and the listed sites, is never read as another type than it says, and sends no
/// address to other sites (security explorer: another site's page framed a task page,
/// and a click on its Resubmit under a decoy started a task).
#[tokio::test]
async fn answers_may_be_framed_only_by_berth_and_the_listed_sites() {
    let get = |path: &str| Request::get(path).body(Body::empty()).unwrap();
    let alone = app(&[]).await;
    for path in [
        "/",
        "/tasks/t-1",
        "/api/v1/catalog",
        "/api/v1/tasks/nope",
        "/healthz",
    ] {
        let answer = send(&alone, get(path)).await;
        let policies = headers(&answer, "content-security-policy");
        assert!(
            policies.contains(&"frame-ancestors 'self'"),
            "{path} {policies:?}"
        );
        for (name, value) in [
            ("x-frame-options", "SAMEORIGIN"),
            ("x-content-type-options", "nosniff"),
            ("referrer-policy", "same-origin"),
        ] {
            assert_eq!(header(&answer, name), Some(value), "{path} {name}");
        }
    }
    // A portal listed may frame it too; the older header, which cannot name it, is left
    // out: a browser that knows only that one would refuse the portal.
    let shared = app(&[PORTAL]).await;
    let answer = send(&shared, get("/")).await;
    let policies = headers(&answer, "content-security-policy");
    assert!(
        policies.contains(&"frame-ancestors 'self' https://portal.example.com"),
        "{policies:?}"
    );
    assert_eq!(header(&answer, "x-frame-options"), None);
    assert_eq!(answer.status(), StatusCode::OK);
}

/// The console's page runs its own site's scripts, its WebAssembly and its own inline
/// script (by the hash a browser computes of `start()`), and nothing else: a user's text
/// put into a task page as markup would never run (security review: no script policy).
/// The example portal page gets none, as it loads the packages from the site it names.
/// Every address the page answers has it (`/foo.html` ran the console without it), and so
/// has a revalidation's `304`, whose policies a browser keeps for the page it holds (policy
/// explorer: a reload dropped it).
#[tokio::test]
async fn the_console_page_runs_only_its_own_scripts() {
    let get = |path: &str| Request::get(path).body(Body::empty()).unwrap();
    let app = app(&[]).await;
    let policy = "script-src 'self' 'wasm-unsafe-eval' \
                  'sha256-DIm7WJS6ZKDYe5qFLPy+h4JFI9Bol5QmYC57mt3Fb00='; \
                  object-src 'none'; base-uri 'none'";
    for path in [
        "/",
        "/tasks/t-1",
        "/shared/abc",
        "/index.html",
        "/foo.html",
        "/tasks/x.html",
    ] {
        let answer = send(&app, get(path)).await;
        assert_eq!(answer.status(), StatusCode::OK, "{path}");
        let policies = headers(&answer, "content-security-policy");
        assert_eq!(policies, [policy, "frame-ancestors 'self'"], "{path}");
        let modified = header(&answer, "last-modified").expect("a date to revalidate by");
        let again = Request::get(path)
            .header(header::IF_MODIFIED_SINCE, modified)
            .body(Body::empty())
            .unwrap();
        let answer = send(&app, again).await;
        assert_eq!(answer.status(), StatusCode::NOT_MODIFIED, "{path}");
        let policies = headers(&answer, "content-security-policy");
        assert_eq!(
            policies,
            [policy, "frame-ancestors 'self'"],
            "{path} revalidated"
        );
    }
    for path in ["/embed.html", "/api/v1/catalog", "/healthz"] {
        let answer = send(&app, get(path)).await;
        let policies = headers(&answer, "content-security-policy");
        assert_eq!(policies, ["frame-ancestors 'self'"], "{path}");
    }
}

/// Every API answer, a refusal and an unknown path too, is the asker's alone and kept by
/// no cache: the same address answers each user otherwise (security explorer: the owner's
/// spec with its hidden values, and Share's live links, went with no `Cache-Control`). The
/// console's files may be cached.
#[tokio::test]
async fn api_answers_are_kept_by_no_cache() {
    let get = |path: &str| Request::get(path).body(Body::empty()).unwrap();
    let alone = app(&[]).await;
    for path in [
        "/api/v1/catalog",
        "/api/v1/tasks",
        "/api/v1/tasks/nope",
        "/api/v1/nothing-here",
    ] {
        let answer = send(&alone, get(path)).await;
        assert_eq!(
            header(&answer, "cache-control"),
            Some("private, no-store"),
            "{path}"
        );
    }
    let page = send(&alone, get("/")).await;
    assert_eq!(header(&page, "cache-control"), None);
}

/// The console's files go in the compressed form written beside them to a browser that
/// takes it, typed as the file itself, and as they are to one that does not (slow-link
/// explorer: 1.7 MB of wasm sent as it is, 37 s of blank page at 400 kbit/s).
#[tokio::test]
async fn the_consoles_files_go_compressed_to_browsers_that_take_it() {
    let dist = temp_dir("dist-compressed");
    for (name, text) in [
        ("index.html", "<!doctype html>"),
        ("index.html.br", "brotli page"),
        ("app_bg.wasm", "\0asm plain"),
        ("app_bg.wasm.br", "brotli wasm"),
        ("app_bg.wasm.gz", "gzip wasm"),
    ] {
        std::fs::write(dist.join(name), text).expect("temp dir is writable");
    }
    let config = server::Config {
        data_dir: temp_dir("data"),
        ..server::Config::demo(dist)
    };
    let app = server::app(server::AppState::open(config).await.expect("opens"));
    let get = |path: &str, accepts: Option<&str>| {
        let mut request = Request::get(path);
        if let Some(accepts) = accepts {
            request = request.header(header::ACCEPT_ENCODING, accepts);
        }
        request.body(Body::empty()).unwrap()
    };
    for (path, accepts, encoding, body, kind) in [
        (
            "/app_bg.wasm",
            Some("gzip, deflate, br, zstd"),
            Some("br"),
            "brotli wasm",
            "application/wasm",
        ),
        (
            "/app_bg.wasm",
            Some("gzip"),
            Some("gzip"),
            "gzip wasm",
            "application/wasm",
        ),
        (
            "/app_bg.wasm",
            None,
            None,
            "\0asm plain",
            "application/wasm",
        ),
        // A page of the console's own routes is its index, as it is on disk: a copy
        // left from before its inline script changed would be refused by the page's
        // script policy, made from the file (policy explorer: the console never started).
        (
            "/tasks/t-1",
            Some("br"),
            None,
            "<!doctype html>",
            "text/html",
        ),
    ] {
        let answer = send(&app, get(path, accepts)).await;
        assert_eq!(answer.status(), StatusCode::OK, "{path} {accepts:?}");
        assert_eq!(
            header(&answer, "content-encoding"),
            encoding,
            "{path} {accepts:?}"
        );
        // A cache between keeps the forms apart, the plain one too (reviews).
        let vary: Vec<String> = answer
            .headers()
            .get_all("vary")
            .iter()
            .map(|v| v.to_str().unwrap_or_default().to_ascii_lowercase())
            .collect();
        assert!(
            vary.iter().any(|v| v.contains("accept-encoding")),
            "{path} {vary:?}"
        );
        assert!(
            header(&answer, "content-type").is_some_and(|t| t.starts_with(kind)),
            "{path} {accepts:?}"
        );
        let bytes = axum::body::to_bytes(answer.into_body(), usize::MAX)
            .await
            .unwrap();
        assert_eq!(bytes, body.as_bytes(), "{path} {accepts:?}");
    }
}
