//! Berth's server: the HTTP API under `/api/v1`, Prometheus metrics at `/metrics` and
//! the built console.
//!
//! Handlers are thin: they extract, call `shared` for every domain rule, and answer.
//! The server never trusts the browser: it re-validates every spec with the same code
//! the console runs. It must not depend on the frontend crate.

pub mod alerts;
pub mod auth;
pub mod backend;
pub mod cli;
pub mod config;
mod error;
pub mod json;
mod lang;
pub mod metrics;
mod page_policy;
mod routes;

/// The masking of hidden values in logs, for its benchmark (`benches/log_mask.rs`).
pub use routes::log_mask::LogMask;
pub mod runner;
pub mod scheduler;
mod state;
pub mod store;

pub use config::{Config, ConfigError, MAX_BODY_BYTES};
pub use error::{ApiError, PROBLEM_JSON};
pub use lang::ReaderLang;
pub use state::{AppState, StartError, follow_outside_usage};

pub use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::any;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::TraceLayer;

/// The whole application: API routes, then the console's static files with an
/// `index.html` fallback so client-side routes load on refresh. Every API error,
/// including an unknown `/api/...` path (404) and a wrong method (405, with `Allow`),
/// is a problem detail.
pub fn app(state: AppState) -> Router {
    let dist = state.config.dist.clone();
    // The compressed forms `scripts/precompress.sh` writes beside the files, to browsers
    // that take them: the wasm went as it is, 3.5 times its brotli (slow-link explorer).
    let console = ServeDir::new(&dist)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(
            ServeFile::new(dist.join("index.html"))
                .precompressed_br()
                .precompressed_gzip(),
        );
    let api = Router::new()
        .nest("/api/v1", routes::api())
        .route("/api", any(error::api_not_found))
        .route("/api/", any(error::api_not_found))
        .route("/api/{*rest}", any(error::api_not_found))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            error::problem_for_bare_errors,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            error::refuse_cross_site,
        ))
        .layer(axum::middleware::map_response(kept_by_no_cache));
    let cors_origins = state.config.cors_origins.clone();
    let page_policy = std::sync::Arc::new(page_policy::PagePolicy::new(&dist));
    let app = Router::new()
        .merge(routes::health::router())
        .route("/metrics", axum::routing::get(metrics::scrape))
        .merge(api)
        .fallback(move |request: axum::extract::Request| {
            console_or_api(console.clone(), page_policy.clone(), request)
        })
        .layer(DefaultBodyLimit::max(state.config.body_limit))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            metrics::count_requests,
        ))
        .layer(axum::middleware::from_fn(error::log_server_errors))
        .layer(axum::middleware::map_response(guarded(&cors_origins)))
        .layer(TraceLayer::new_for_http().make_span_with(request_span))
        .with_state(state);
    match cors_origins.as_slice() {
        [] => app,
        origins => app.layer(cors(origins)),
    }
}

/// What every answer carries for the browser's sake (security exploration):
/// - the console may be framed only by its own pages and the `[cors] origins` sites
///   (`frame-ancestors`; `X-Frame-Options` too, for older browsers, when no site is
///   listed): another site's page framed a task page, and one click on its Resubmit,
///   under a decoy, started a task;
/// - no type guessed from the content (`nosniff`): a log or a spec is never run as a
///   page or a script;
/// - no address sent to other sites (`Referrer-Policy: same-origin`): a shared view's
///   address holds its link's token.
fn guarded(
    origins: &[String],
) -> impl Fn(axum::response::Response) -> std::future::Ready<axum::response::Response>
+ Clone
+ Send
+ Sync
+ 'static {
    use axum::http::{HeaderValue, header};
    let ancestors = std::iter::once("'self'")
        .chain(origins.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    // Origins are checked at the load (`config::is_origin`): no character a header refuses.
    let policy = HeaderValue::from_str(&format!("frame-ancestors {ancestors}"))
        .unwrap_or(HeaderValue::from_static("frame-ancestors 'self'"));
    let same_origin_only = origins.is_empty();
    move |mut answer: axum::response::Response| {
        let headers = answer.headers_mut();
        // Beside the console page's script policy (page_policy.rs): a browser keeps to both.
        headers.append(header::CONTENT_SECURITY_POLICY, policy.clone());
        if same_origin_only {
            headers
                .entry(header::X_FRAME_OPTIONS)
                .or_insert(HeaderValue::from_static("SAMEORIGIN"));
        }
        headers
            .entry(header::X_CONTENT_TYPE_OPTIONS)
            .or_insert(HeaderValue::from_static("nosniff"));
        headers
            .entry(header::REFERRER_POLICY)
            .or_insert(HeaderValue::from_static("same-origin"));
        std::future::ready(answer)
    }
}

/// An API answer is the asker's alone, and is kept by no cache: the same address answers
/// each user otherwise (the owner's spec holds their hidden values in clear, Share lists
/// live links), and a cache in front of Berth that keyed on the address alone would hand
/// one user's answer to the next (security explorer: no `Cache-Control`). A followed
/// log's stream too, whose `no-cache` (axum's for server-sent events) lets a cache keep a
/// copy of what the owner's stream holds in clear (recheck).
async fn kept_by_no_cache(mut answer: axum::response::Response) -> axum::response::Response {
    use axum::http::{HeaderValue, header};
    answer.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    answer
}

/// The console's file or page for `request`; but an API path the router could not match
/// for an empty segment (`//api/v1/catalog`, from a portal's `${base}/api/...` with a base
/// that ends in `/`) is a 404 problem, as any unknown API path: it got the console's page
/// with a 200, which a client then failed to read as JSON (embedding test).
async fn console_or_api<S>(
    console: S,
    page_policy: std::sync::Arc<page_policy::PagePolicy>,
    mut request: axum::extract::Request,
) -> axum::response::Response
where
    S: tower::Service<axum::extract::Request, Error = std::convert::Infallible>,
    S::Response: axum::response::IntoResponse,
{
    use axum::response::IntoResponse;
    use tower::ServiceExt;
    if request.uri().path().split('/').find(|s| !s.is_empty()) == Some("api") {
        return error::api_not_found(request).await.into_response();
    }
    let page = page_policy.answers_with_page(request.uri().path());
    if page {
        // As it is on disk, which its policy's hashes are of (page_policy.rs).
        request
            .headers_mut()
            .remove(axum::http::header::ACCEPT_ENCODING);
    }
    match console.oneshot(request).await {
        // Every form of a console file, plain ones too, varies with what the browser
        // takes: a cache that kept the plain wasm (a health check's) gave it to every
        // browser (second review).
        Ok(answer) => {
            let mut answer = answer.into_response();
            answer.headers_mut().append(
                axum::http::header::VARY,
                axum::http::HeaderValue::from_static("accept-encoding"),
            );
            let html = answer
                .headers()
                .get(axum::http::header::CONTENT_TYPE)
                .is_some_and(|t| t.as_bytes().starts_with(b"text/html"));
            // A revalidation's `304` too: a browser keeps the policies it carries, and
            // only those, for the page it has (policy explorer: the policy went on reload).
            if page && (html || answer.status() == axum::http::StatusCode::NOT_MODIFIED) {
                answer.headers_mut().append(
                    axum::http::header::CONTENT_SECURITY_POLICY,
                    page_policy.current(),
                );
            }
            answer
        }
        Err(never) => match never {},
    }
}

/// The span each request is traced in: tower-http's default (`method`, `uri`,
/// `version`), with a share link's token left out of the address (the API's
/// `/api/v1/shared/{token}` and the console's `/shared/{token}`): whoever reads the
/// server's log must not be able to open the task through it.
fn request_span<B>(request: &axum::http::Request<B>) -> tracing::Span {
    let uri = request.uri().to_string();
    let shown = without_share_token(&uri);
    tracing::debug_span!(
        "request",
        method = %request.method(),
        uri = %shown,
        version = ?request.version(),
    )
}

/// `uri` with what follows a `/shared/` (a share link's token, up to the next `/`, `?`
/// or `#`) replaced by `…`.
fn without_share_token(uri: &str) -> std::borrow::Cow<'_, str> {
    const MARK: &str = "/shared/";
    let Some(at) = uri.find(MARK) else {
        return std::borrow::Cow::Borrowed(uri);
    };
    let start = at + MARK.len();
    let end = uri[start..]
        .find(['/', '?', '#'])
        .map_or(uri.len(), |i| start + i);
    std::borrow::Cow::Owned(format!("{}…{}", &uri[..start], &uri[end..]))
}

/// The answer to other sites' pages (`[cors] origins`): a listed site's page may load the
/// console's package (its module and wasm are fetched in CORS mode) and call every API
/// route with the browser's credentials for this server, and read the answer, errors
/// included; any other site's may not (no CORS header). Preflights are answered here,
/// before the routes and their identity check.
fn cors(origins: &[String]) -> tower_http::cors::CorsLayer {
    use axum::http::{HeaderName, HeaderValue, Method, header};
    let origins: Vec<HeaderValue> = origins
        .iter()
        // Checked when the config was read (`config::Cors`).
        .filter_map(|o| HeaderValue::from_str(o).ok())
        .collect();
    tower_http::cors::CorsLayer::new()
        .allow_origin(origins)
        .allow_credentials(true)
        .allow_methods([Method::GET, Method::POST, Method::PATCH, Method::DELETE])
        .allow_headers([
            header::CONTENT_TYPE,
            header::AUTHORIZATION,
            header::ACCEPT_LANGUAGE,
            HeaderName::from_static("idempotency-key"),
        ])
        // A log's end says in a header how much of the log it left out, a page of events
        // where the page before ends.
        .expose_headers([
            HeaderName::from_static(routes::tasks::LOG_LEFT_OUT),
            HeaderName::from_static(routes::tasks::EVENTS_EARLIER),
        ])
        .max_age(std::time::Duration::from_secs(600))
}

/// Serves `app` on `listener` until the process ends: what `main` does, for tests that
/// run the real server in-process, with the default read timeout
/// ([`config::READ_TIMEOUT`]).
///
/// # Errors
///
/// None: a failed accept is logged and waited out ([`serve_until`]); the `Result` is
/// kept for callers written against `axum::serve`'s.
pub async fn serve(listener: tokio::net::TcpListener, app: Router) -> std::io::Result<()> {
    serve_until(listener, app, config::READ_TIMEOUT, std::future::pending()).await;
    Ok(())
}

/// Serves `app` on `listener` over HTTP/1.1 until `shutdown` completes, then waits for
/// the connections' requests under way. Each request carries its peer address
/// (`ConnectInfo`), which the proxy identity mode checks.
///
/// A client has `read_timeout` to send a request's head, counted from when the server
/// waits for it: a new connection and a kept-alive one between requests alike. Without
/// it (`axum::serve` sets none) a client that sent part of a head, or nothing, and
/// waited held its connection for good, and some 20,000 such connections used up the
/// process's file descriptors and locked every user out. A body has as long again
/// ([`routes`]' body readers).
pub async fn serve_until(
    listener: tokio::net::TcpListener,
    app: Router,
    read_timeout: std::time::Duration,
    shutdown: impl std::future::Future<Output = ()>,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::{Service, ServiceExt};

    let mut make_service = app.into_make_service_with_connect_info::<std::net::SocketAddr>();
    // Each connection holds a receiver; the sender's `closed` is when all have ended.
    let (signal, connections) = tokio::sync::watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                tokio::select! {
                    () = accept_failed(&error) => continue,
                    () = &mut shutdown => break,
                }
            }
        };
        let Ok(service) = make_service.call(peer).await;
        let service = hyper_util::service::TowerToHyperService::new(service.map_request(
            |request: axum::http::Request<hyper::body::Incoming>| {
                request.map(axum::body::Body::new)
            },
        ));
        let mut stop = connections.clone();
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(read_timeout);
            let connection = builder.serve_connection(TokioIo::new(stream), service);
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => return,
                _ = stop.changed() => {}
            }
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        });
    }
    // New clients are refused at once rather than left waiting for an answer.
    drop(listener);
    drop(connections);
    let _ = signal.send(());
    // A followed log of a task that goes on never ends, and a client that stops
    // reading holds its answer: waiting for every connection, the server never stopped
    // (code review).
    if tokio::time::timeout(DRAIN, signal.closed()).await.is_err() {
        tracing::warn!(
            "stopping: connections still open after {} s are cut (followed logs, clients not reading)",
            DRAIN.as_secs()
        );
    }
}

/// How long a stopping server waits for its connections to end: each answers the
/// request it has, and then closes. Within the 30 s a service manager (and Kubernetes)
/// gives a stopping server, with the local replicas' 10 s grace before it.
pub const DRAIN: std::time::Duration = std::time::Duration::from_secs(10);

/// What the accept loop does when an accept fails: a connection reset before it was
/// taken is the client's business; anything else (out of file descriptors) is logged
/// and waited out for a second rather than spun on, as `axum::serve` does.
async fn accept_failed(error: &std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::error!("cannot accept a connection: {error}");
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
}

/// An error with its causes: a client's own words are often only "connection error",
/// and "cannot read the catalog file x" needs its cause beside it.
pub fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        // A wrapper that prints its cause's words as its own (sqlx's database errors)
        // would say them twice.
        let said = cause.to_string();
        if !text.ends_with(&said) {
            text = format!("{text}: {said}");
        }
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::without_share_token;

    /// A cause is said once, also where its wrapper says its words itself (sqlx's
    /// database errors: "password authentication failed …" came twice).
    #[test]
    fn a_chain_says_each_cause_once() {
        #[derive(Debug, thiserror::Error)]
        #[error("password authentication failed")]
        struct Database;
        #[derive(Debug, thiserror::Error)]
        #[error("{0}")]
        struct Wrapper(#[source] Database);
        #[derive(Debug, thiserror::Error)]
        #[error("cannot connect")]
        struct Connect(#[source] Wrapper);
        assert_eq!(
            super::error_chain(&Connect(Wrapper(Database))),
            "cannot connect: password authentication failed"
        );
    }

    #[test]
    fn a_share_token_is_left_out_of_a_traced_address() {
        for (uri, shown) in [
            (
                "/api/v1/shared/0123abcd?lang=zh",
                "/api/v1/shared/…?lang=zh",
            ),
            ("/shared/0123abcd", "/shared/…"),
            ("/shared/0123abcd/x#y", "/shared/…/x#y"),
            ("/api/v1/tasks/t-1/share/2", "/api/v1/tasks/t-1/share/2"),
        ] {
            assert_eq!(without_share_token(uri), shown, "{uri}");
        }
    }
}
