//! One async function per server endpoint.

use gloo_net::http::{Request, RequestBuilder};
use leptos::prelude::use_context;
use shared::TaskSpec;
use shared::api::{
    CatalogResponse, ErrorBody, Examples, ShareLink, TagsBody, TaskEventView, TaskPage, TaskView,
};
use shared::read::Read;
use shared::record::TaskPhase;
use shared::task::Tag;
use shared::{Lang, TaskType};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// A request to the server failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ClientError {
    /// The request did not reach the server, or its answer could not be read.
    #[error("cannot reach the server: {0}")]
    Network(Unreached),
    /// The server refused the request and said why.
    #[error("{}", .0.detail)]
    Api(ErrorBody),
}

/// Why a request came to nothing, as far as the page can tell.
#[derive(Clone, Debug, PartialEq)]
pub enum Unreached {
    /// The browser said only that the fetch failed: the server down, the network off,
    /// or, for a request to another site than the page's, the server not letting the
    /// page's site in (CORS), which the browser hides from the page.
    Silent {
        /// The page's origin, when the request went to another one.
        from_other_site: Option<String>,
    },
    /// What went wrong, in (English) words: an answer that does not read, or is not
    /// Berth's.
    Said(String),
    /// No answer came in this many seconds, and the request was given up: it may have
    /// reached the server.
    NoAnswer(u32),
    /// A read had no answer in this many seconds and was given up ([`READ_WAIT`]): a
    /// hung connection left a page "Loading…" for ever (network explorer).
    GaveUp(u32),
    /// An answer came with this HTTP status, but not from Berth's API (a web page: a
    /// portal's own, or Berth's console at an address that is not Berth's root).
    NotBerth(u16),
    /// A proxy or gateway on the way answered for Berth with this status (502, 503,
    /// 504, as a page): Berth restarting, or the link busy. Said as "is Berth at this
    /// address?", it sent a user on hotel Wi-Fi to check an address that was right
    /// (network explorer).
    Gateway(u16),
    /// A proxy on the way asked to wait (429, as a page), for this many seconds when its
    /// `Retry-After` said.
    Busy(Option<u32>),
    /// A proxy on the way refused the request as too large (413, as a page): its limit
    /// is below Berth's own.
    TooLarge,
}

impl std::fmt::Display for Unreached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreached::Silent { .. } => f.write_str("the browser gave no reason"),
            Unreached::Said(words) => f.write_str(words),
            Unreached::NoAnswer(seconds) | Unreached::GaveUp(seconds) => {
                write!(f, "no answer in {seconds} s")
            }
            Unreached::NotBerth(status) => write!(f, "HTTP {status} not from Berth's API"),
            Unreached::Gateway(status) => write!(f, "HTTP {status} from a gateway"),
            Unreached::Busy(_) => f.write_str("HTTP 429 from a proxy"),
            Unreached::TooLarge => f.write_str("HTTP 413 from a proxy"),
        }
    }
}

impl From<String> for Unreached {
    fn from(words: String) -> Self {
        Unreached::Said(words)
    }
}

impl From<&str> for Unreached {
    fn from(words: &str) -> Self {
        Unreached::Said(words.to_owned())
    }
}

impl ClientError {
    /// Whether asking again may be answered otherwise: no answer came, the server was in
    /// trouble (5xx), or it asked to wait (429, 408). Not a refusal of the task itself
    /// (404, 403), for which Try again was offered and could not help (explorer).
    pub fn mendable(&self) -> bool {
        let status = match self {
            // An address that answers with a page is the wrong one: asked again, it
            // answers the same, unless its status says to (a proxy's 502 or 429 page:
            // review).
            ClientError::Network(Unreached::NotBerth(status)) => *status,
            ClientError::Network(Unreached::TooLarge) => return false,
            ClientError::Network(_) => return true,
            ClientError::Api(body) => body.status,
        };
        matches!(status, 408 | 429) || !(400..500).contains(&status)
    }

    /// The error in the reader's language, with the stable code beside it. The server's
    /// `detail` is English: the refusals the console knows are worded from their code
    /// instead, any other shows its detail as sent.
    pub fn localized(&self, lang: Lang) -> String {
        match self {
            ClientError::Network(Unreached::Silent {
                from_other_site: None,
            }) => shared::messages::text(lang, "ui.app.unreachable", &[]),
            // A server that refuses the page's site (CORS) looks down to the page; a
            // portal's developer was sent to check the connection to a server that was up
            // (embedding test). The remedy is Berth's `[cors] origins`, as README says.
            ClientError::Network(Unreached::Silent {
                from_other_site: Some(origin),
            }) => shared::messages::text(
                lang,
                "ui.app.unreachable_other_site",
                &[("origin", origin.clone())],
            ),
            ClientError::Network(Unreached::NoAnswer(seconds)) => shared::messages::text(
                lang,
                "ui.app.submit_no_answer",
                &[("seconds", seconds.to_string())],
            ),
            ClientError::Network(Unreached::GaveUp(seconds)) => shared::messages::text(
                lang,
                "ui.app.read_no_answer",
                &[("seconds", seconds.to_string())],
            ),
            ClientError::Network(Unreached::NotBerth(status)) => {
                shared::messages::text(lang, "ui.app.not_berth", &[("status", status.to_string())])
            }
            ClientError::Network(Unreached::Gateway(status)) => {
                shared::messages::text(lang, "ui.app.gateway", &[("status", status.to_string())])
            }
            ClientError::Network(Unreached::Busy(Some(seconds))) => {
                shared::messages::text(lang, "ui.app.busy", &[("seconds", seconds.to_string())])
            }
            ClientError::Network(Unreached::Busy(None)) => {
                shared::messages::text(lang, "ui.app.busy#no_wait", &[])
            }
            ClientError::Network(Unreached::TooLarge) => {
                shared::messages::text(lang, "ui.app.too_large_on_the_way", &[])
            }
            ClientError::Network(Unreached::Said(detail)) => {
                shared::messages::text(lang, "ui.app.network_error", &[("detail", detail.clone())])
            }
            ClientError::Api(body) if body.code == LINK_DEAD => {
                shared::messages::text(lang, "ui.shared.link_dead", &[])
            }
            // The findings come in the reader's language; the lead above them should too.
            ClientError::Api(body) if body.code == "spec.invalid" => {
                shared::messages::text(lang, "ui.app.spec_refused", &[("code", body.code.clone())])
            }
            ClientError::Api(body) => {
                let detail = match refusal_key(&body.code) {
                    Some(key) => shared::messages::text(lang, key, &[]),
                    None => body.detail.clone(),
                };
                shared::messages::text(
                    lang,
                    "ui.app.api_error",
                    &[("detail", detail), ("code", body.code.clone())],
                )
            }
        }
    }
}

/// The console's own words for a refusal's stable code.
fn refusal_key(code: &str) -> Option<&'static str> {
    Some(match code {
        "auth.required" => "ui.app.refused.auth_required",
        "body.too_large" => "ui.app.refused.body_too_large",
        "internal" => "ui.app.refused.internal",
        "log.elsewhere" => "ui.app.refused.log_elsewhere",
        "task.conflict" => "ui.app.refused.task_conflict",
        "task.deleted" => "ui.app.refused.task_deleted",
        "task.forbidden" => "ui.app.refused.task_forbidden",
        "task.not_found" => "ui.app.refused.task_not_found",
        "task.stopping" => "ui.app.refused.task_stopping",
        "task.tags_changed" => "ui.app.refused.tags_changed",
        _ => return None,
    })
}

/// A module result with [`ClientError`].
pub type Result<T, E = ClientError> = std::result::Result<T, E>;

/// Where a form's requests go: the page's own origin (the console), or the Berth a
/// portal mounted the form for (`apiBase`), provided to the form by its mount. Each
/// form keeps its own: two forms on one page may submit to two Berths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Base(String);

impl Base {
    /// The API at `base` (`https://berth.example.com`); empty: the page's own origin.
    pub fn new(base: &str) -> Self {
        Base(base.trim_end_matches('/').to_owned())
    }

    /// The base the form being built was mounted with, else the page's own origin.
    pub fn here() -> Self {
        use_context::<Base>().unwrap_or_default()
    }

    /// The address of an API path (`/api/v1/...`).
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.0)
    }

    /// Whether the API is at another address than the page's own (perhaps a path of
    /// the page's site).
    fn elsewhere(&self) -> bool {
        !self.0.is_empty()
    }

    /// The page's origin when the API is on another origin, where the browser asks the
    /// server's leave (CORS) for each request; `None` on the page's own.
    fn page_origin_if_other(&self) -> Option<String> {
        if !self.elsewhere() {
            return None;
        }
        let location = web_sys::window()?.location();
        let page = location.origin().ok()?;
        // Resolved as the browser resolves it: `/berth` and `//host` are no origins by
        // their text, and `https://host:443` is `https://host`.
        let api = Url::new(&self.url("/"), &location.href().ok()?)
            .ok()?
            .origin();
        (api != page).then_some(page)
    }
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The browser's `URL`.
    #[wasm_bindgen(js_name = URL)]
    type Url;
    #[wasm_bindgen(constructor, js_class = "URL", catch)]
    fn new(url: &str, base: &str) -> std::result::Result<Url, wasm_bindgen::JsValue>;
    #[wasm_bindgen(method, getter, js_class = "URL")]
    fn origin(this: &Url) -> String;
}

/// A request to an API path. To the Berth at another address (a form embedded with
/// `apiBase`) it carries the browser's credentials for that site, which a Berth behind
/// an authenticating proxy needs; that Berth lists the page's site in `[cors] origins`.
fn to_at(base: &Base, method: fn(&str) -> RequestBuilder, path: &str) -> RequestBuilder {
    let request = method(&base.url(path));
    if base.elsewhere() {
        request.credentials(web_sys::RequestCredentials::Include)
    } else {
        request
    }
}

/// A request to an API path of the page's own origin (the console's pages).
fn to(method: fn(&str) -> RequestBuilder, path: &str) -> RequestBuilder {
    to_at(&Base::default(), method, path)
}

/// Sends a read, given up when the head of its answer has not come in [`READ_WAIT`]: a
/// hung connection left a page "Loading…" for ever (network explorer). A POST given up
/// may have reached the server: only those whose second press does no work twice are
/// ([`send_post`]; a resubmit keeps its key until answered, as it made two tasks
/// before: review). Not a log's read, whose server may read a long
/// pod log whole before it answers; and the body, once its head has come, may take as
/// long as it takes (a log of 512 KiB on a slow link).
async fn read_sent(
    request: RequestBuilder,
) -> std::result::Result<gloo_net::http::Response, gloo_net::Error> {
    let deadline = Deadline::after(READ_WAIT);
    let sent = request
        .abort_signal(deadline.signal().as_ref())
        .send()
        .await;
    deadline.stop();
    sent
}

/// An abort signal that fires `wait` after it is made, unless stopped first: a request
/// that carries it is given up when no answer has come by then (reads, a submit).
struct Deadline {
    abort: Option<web_sys::AbortController>,
    timer: Option<leptos::prelude::TimeoutHandle>,
}

impl Deadline {
    fn after(wait: std::time::Duration) -> Deadline {
        let abort = web_sys::AbortController::new().ok();
        let timer = abort.clone().and_then(|abort| {
            leptos::prelude::set_timeout_with_handle(move || abort.abort(), wait).ok()
        });
        Deadline { abort, timer }
    }

    fn signal(&self) -> Option<web_sys::AbortSignal> {
        self.abort.as_ref().map(web_sys::AbortController::signal)
    }

    /// Stops the clock; whether it had run out (the request was given up).
    fn stop(self) -> bool {
        if let Some(timer) = self.timer {
            timer.clear();
        }
        self.abort.is_some_and(|a| a.signal().aborted())
    }
}

/// A request that did not reach the server. The browser says only "TypeError: Failed to
/// fetch", which tells a reader nothing: it is worded by `localized` instead (no detail).
fn network(err: gloo_net::Error) -> ClientError {
    match err {
        gloo_net::Error::JsError(err) if err.name == "AbortError" => {
            ClientError::Network(Unreached::GaveUp(READ_WAIT.as_secs() as u32))
        }
        gloo_net::Error::JsError(_) => ClientError::Network(Unreached::Silent {
            from_other_site: None,
        }),
        other => ClientError::Network(other.to_string().into()),
    }
}

/// [`network`] for a request to `base`, which may be on another origin than the page.
fn network_at(base: &Base) -> impl Fn(gloo_net::Error) -> ClientError + '_ {
    move |err| match network(err) {
        ClientError::Network(Unreached::Silent { .. }) => ClientError::Network(Unreached::Silent {
            from_other_site: base.page_origin_if_other(),
        }),
        other => other,
    }
}

// Answers are read by `shared::read`, the reader the form carries for specs and the
// catalog anyway, not by serde's derived readers: those were a struct visitor per type
// with serde_json's parser inlined into each, some 20 KB of the console's wasm after
// brotli (BENCHMARKS.md).

/// An answer's body read as `T`: a server and console that disagree say where.
fn read<T: Read>(text: &str) -> Result<T> {
    shared::read::from_json(text).map_err(|err| {
        ClientError::Network(format!("the server's answer does not read: {err}").into())
    })
}

async fn answer<T: Read>(response: gloo_net::http::Response) -> Result<T> {
    if response.ok() {
        // Berth's console answers every path outside `/api/` with its page (a 200), so
        // an `apiBase` that is not Berth's root reaches it: said as a wrong address, not
        // as "cannot reach the server" and the JSON reader's words (embedding test).
        let json = response
            .headers()
            .get("content-type")
            .is_some_and(|t| t.contains("json"));
        if !json {
            return Err(ClientError::Network(Unreached::NotBerth(response.status())));
        }
        read(&response.text().await.map_err(network)?)
    } else {
        Err(refusal(response).await)
    }
}

async fn refusal(response: gloo_net::http::Response) -> ClientError {
    let status = response.status();
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|seconds| seconds.trim().parse::<u32>().ok());
    let body = match response.text().await {
        Ok(text) => shared::read::from_json::<ErrorBody>(&text).map_err(|err| err.to_string()),
        Err(err) => Err(err.to_string()),
    };
    match body {
        Ok(body) => ClientError::Api(body),
        // Not Berth's answer (a portal's own 404 page, a proxy's error): said as such,
        // not as the JSON reader's "expected value at line 1 column 1".
        Err(_) => ClientError::Network(match status {
            502..=504 => Unreached::Gateway(status),
            429 => Unreached::Busy(retry_after),
            413 => Unreached::TooLarge,
            _ => Unreached::NotBerth(status),
        }),
    }
}

/// `GET /api/v1/catalog`.
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses.
pub async fn fetch_catalog(base: &Base) -> Result<CatalogResponse> {
    answer(
        read_sent(to_at(base, Request::get, "/api/v1/catalog"))
            .await
            .map_err(network_at(base))?,
    )
    .await
}

/// `POST /api/v1/render`: the Kubernetes objects a spec becomes (hidden values masked,
/// the name's random suffix shown as `xxxxx`), in apply order.
///
/// # Errors
///
/// [`ClientError::Api`] with the findings (422) when the spec has errors.
pub async fn render(base: &Base, spec_json: String) -> Result<Vec<serde_json::Value>> {
    let request = to_at(base, Request::post, "/api/v1/render")
        .header("content-type", "application/json")
        .body(spec_json)
        .map_err(network)?;
    let mut rendered: serde_json::Value =
        answer(request.send().await.map_err(network_at(base))?).await?;
    match rendered.get_mut("objects").map(serde_json::Value::take) {
        Some(serde_json::Value::Array(objects)) => Ok(objects),
        _ => Err(ClientError::Network(
            "the server's answer does not read: objects: expected a list".into(),
        )),
    }
}

/// `GET /api/v1/examples`.
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses.
pub async fn fetch_examples() -> Result<Examples> {
    answer(
        read_sent(to(Request::get, "/api/v1/examples"))
            .await
            .map_err(network)?,
    )
    .await
}

/// `POST /api/v1/tasks`: submits a spec, a clone's with the task it was `cloned_from`
/// (for the new task's page to link back to). The key makes a retry of the same click
/// return the first task rather than a second one.
///
/// # Errors
///
/// [`ClientError::Api`] with the findings (422) when the server refuses the spec;
/// [`Unreached::NoAnswer`] when no answer came in [`SUBMIT_WAIT`].
pub async fn submit_task(
    base: &Base,
    spec_json: String,
    idempotency_key: &str,
    cloned_from: Option<&str>,
) -> Result<TaskView> {
    submit_within(base, spec_json, idempotency_key, cloned_from, SUBMIT_WAIT).await
}

/// [`submit_task`], given up after `wait` without an answer, the answer's body read too:
/// a connection that hung said "Submitting…" for ever, with the button off (network
/// explorer). The key makes a submit again safe, which the words then say.
///
/// # Errors
///
/// As [`submit_task`].
pub async fn submit_within(
    base: &Base,
    spec_json: String,
    idempotency_key: &str,
    cloned_from: Option<&str>,
    wait: std::time::Duration,
) -> Result<TaskView> {
    let deadline = Deadline::after(wait);
    let path = match cloned_from {
        Some(id) => format!("/api/v1/tasks?from={}", encode(id)),
        None => "/api/v1/tasks".to_owned(),
    };
    let request = to_at(base, Request::post, &path)
        .header("content-type", "application/json")
        .header("idempotency-key", idempotency_key)
        .abort_signal(deadline.signal().as_ref())
        .body(spec_json)
        .map_err(network)?;
    let sent = match request.send().await.map_err(network_at(base)) {
        Ok(response) => answer(response).await,
        Err(err) => Err(err),
    };
    let ran_out = deadline.stop();
    match sent {
        Err(ClientError::Network(_)) if ran_out => Err(
            // In whole seconds, rounded up: a wait under one is not "0 s".
            ClientError::Network(Unreached::NoAnswer(
                (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)) as u32,
            )),
        ),
        sent => sent,
    }
}

/// How long a read waits for the head of its answer before it is given up
/// ([`read_sent`]).
pub const READ_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// How long a submit waits for its answer before it is given up.
pub const SUBMIT_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// `GET /api/v1/tasks/{id}/spec`: a task's spec, for clone and export (hidden values
/// masked unless the caller owns the task).
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses (404: not visible).
pub async fn fetch_spec(id: &str) -> Result<TaskSpec> {
    let path = format!(
        "/api/v1/tasks/{}/spec",
        String::from(js_sys::encode_uri_component(id))
    );
    answer(read_sent(to(Request::get, &path)).await.map_err(network)?).await
}

fn encode(text: &str) -> String {
    js_sys::encode_uri_component(text).into()
}

fn task_path(id: &str, rest: &str) -> String {
    format!("/api/v1/tasks/{}{rest}", encode(id))
}

/// Whose events and logs are read: a task's, by its id, or a share link's task's, by
/// the link's token (`/api/v1/shared/{token}/…`), for a reader who may not read the task
/// itself, who reads them as anyone but the owner does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// `/api/v1/tasks/{id}/…`.
    Task(String),
    /// `/api/v1/shared/{token}/…`.
    Shared(String),
}

impl Source {
    fn path(&self, rest: &str) -> String {
        match self {
            Source::Task(id) => task_path(id, rest),
            Source::Shared(token) => format!("/api/v1/shared/{}{rest}", encode(token)),
        }
    }

    /// `err` as this source's reader should read it: through a link that opens no task
    /// now (revoked while the view was open), the link's fault, as a link opened then
    /// says it, not "the task does not exist, or you may not see it" (shared-debugging
    /// explorer).
    fn refusal(&self, err: ClientError) -> ClientError {
        match (self, err) {
            (Source::Shared(_), ClientError::Api(mut body)) if body.code == "task.not_found" => {
                body.code = LINK_DEAD.to_owned();
                ClientError::Api(body)
            }
            (_, err) => err,
        }
    }
}

/// The console's own code for a share link that opens no task.
const LINK_DEAD: &str = "share.link_dead";

/// The task as `source` reads it: [`fetch_task`] or [`fetch_shared`].
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses.
pub async fn fetch_view(source: &Source, lang: Lang) -> Result<TaskView> {
    match source {
        Source::Task(id) => fetch_task(id, lang).await,
        Source::Shared(token) => fetch_shared(token, lang)
            .await
            .map_err(|e| source.refusal(e)),
    }
}

/// A fresh key for one click of submit or resubmit, so a retried request does not make
/// a second task.
pub fn new_idempotency_key() -> String {
    let random = (js_sys::Math::random() * 1e15) as u64;
    format!("console-{}-{random:x}", js_sys::Date::now() as u64)
}

/// The filters of the task list, as `GET /tasks` takes them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListFilter {
    /// Only this phase.
    pub phase: Option<TaskPhase>,
    /// Only the tasks that have not ended (`phase=active`), when `phase` is none: a
    /// sweep's runs still going, whatever their phase.
    pub active: bool,
    /// Only this type.
    pub task_type: Option<TaskType>,
    /// `key` or `key=value`.
    pub tag: String,
    /// Name contains.
    pub name: String,
    /// Only this user's tasks (a lead reviewing one colleague's among the group's).
    pub owner: String,
    /// Only the caller's own tasks.
    pub mine: bool,
    /// Only this project group's tasks.
    pub group: String,
    /// Only the tasks resubmitted or cloned from this one (its id).
    pub made_from: String,
}

/// The wire name of a serde unit enum variant (`running`, `ray_job`).
pub fn wire_name<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

impl ListFilter {
    /// The filter as query pairs, the empty ones left out, in a fixed order.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(phase) = self.phase {
            pairs.push(("phase", wire_name(&phase)));
        } else if self.active {
            pairs.push(("phase", "active".to_owned()));
        }
        if let Some(task_type) = self.task_type {
            pairs.push(("type", wire_name(&task_type)));
        }
        if !self.tag.trim().is_empty() {
            pairs.push(("tag", self.tag.trim().to_owned()));
        }
        if !self.name.trim().is_empty() {
            pairs.push(("name", self.name.trim().to_owned()));
        }
        if !self.owner.trim().is_empty() {
            pairs.push(("owner", self.owner.trim().to_owned()));
        }
        if self.mine {
            pairs.push(("mine", "true".to_owned()));
        }
        if !self.group.is_empty() {
            pairs.push(("group", self.group.clone()));
        }
        if !self.made_from.is_empty() {
            pairs.push(("made_from", self.made_from.clone()));
        }
        pairs
    }

    /// The filter as a query string without `?` (empty when nothing is set): the list's
    /// address keeps it, so a reload or a shared address shows the same tasks.
    pub fn to_query(&self) -> String {
        query(&self.pairs())
    }

    /// The pairs of the address's query that [`ListFilter::from_query`] does not apply
    /// (`phase=bogus`, `foo=1`), as written: the page says so, rather than show every
    /// task as if nothing had been asked.
    /// A name given twice is applied once, as its last value (the filter bar shows one),
    /// and `group` not beside `mine=true` (the bar's one "whose" choice): the others are
    /// not applied either.
    ///
    /// Each with the key of the message that says why (explorer: a name given twice read
    /// "not a filter this list knows").
    pub fn ignored(text: &str) -> Vec<(String, &'static str)> {
        let pairs: Vec<(&str, String)> = text
            .trim_start_matches('?')
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                let value = js_sys::decode_uri_component(&value.replace('+', " "))
                    .map(String::from)
                    .unwrap_or_else(|_| value.to_owned());
                (key, value)
            })
            .collect();
        let mine = Self::from_query(text).mine;
        pairs
            .iter()
            .enumerate()
            .filter_map(|(i, (key, value))| {
                let (key, value) = (*key, value);
                let later = pairs[i + 1..].iter().any(|(k, _)| *k == key);
                if later {
                    return Some((format!("{key}={value}"), "ui.list.ignored.repeated"));
                }
                if key == "group" && mine && !value.is_empty() {
                    return Some((format!("{key}={value}"), "ui.list.ignored.beside_mine"));
                }
                if key == "owner" && mine && !value.is_empty() {
                    return Some((
                        format!("{key}={value}"),
                        "ui.list.ignored.owner_beside_mine",
                    ));
                }
                // A filter the list knows with a value it does not take says which it
                // takes: "not a filter this list knows" blamed the name (lead explorer).
                let refused = match key {
                    // `deleted` is a phase, not one a list shows.
                    "phase" => (!value.is_empty()
                        && value != "active"
                        && crate::form::context::unwire::<TaskPhase>(value)
                            .is_none_or(|p| p == TaskPhase::Deleted))
                    .then_some("ui.list.ignored.phase"),
                    "type" => (!value.is_empty()
                        && crate::form::context::unwire::<TaskType>(value).is_none())
                    .then_some("ui.list.ignored.type"),
                    // `mine=maybe` (or a bare `mine`) read as not mine, silently, showed
                    // everyone's.
                    "mine" => (!matches!(value.as_str(), "true" | "false"))
                        .then_some("ui.list.ignored.mine"),
                    "group" | "tag" | "name" | "owner" | "made_from" => None,
                    _ => Some("ui.list.ignored.unknown"),
                };
                refused.map(|why| (format!("{key}={value}"), why))
            })
            .collect()
    }

    /// The filter in a query string (with or without `?`); unknown names and values are
    /// ignored (see [`ListFilter::ignored`]), as a hand-edited address should not break
    /// the page.
    pub fn from_query(text: &str) -> ListFilter {
        let mut filter = ListFilter::default();
        for pair in text.trim_start_matches('?').split('&') {
            // A bare name is the name with no value, as `ignored` reads it.
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = js_sys::decode_uri_component(&value.replace('+', " "))
                .map(String::from)
                .unwrap_or_else(|_| value.to_owned());
            match key {
                "phase" => {
                    filter.phase = crate::form::context::unwire(&value)
                        .filter(|p: &TaskPhase| *p != TaskPhase::Deleted);
                    filter.active = value == "active";
                }
                "type" => filter.task_type = crate::form::context::unwire(&value),
                "tag" => filter.tag = value,
                "name" => filter.name = value,
                "owner" => filter.owner = value,
                "mine" => filter.mine = value == "true",
                "group" => filter.group = value,
                "made_from" => filter.made_from = value,
                _ => {}
            }
        }
        // The filter bar offers mine or a group, not both: mine, and the group is said
        // not applied.
        if filter.mine {
            filter.group.clear();
            filter.owner.clear();
        }
        filter
    }
}

fn query(pairs: &[(&str, String)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

async fn get<T: Read>(path: &str) -> Result<T> {
    answer(send_get(path).await?).await
}

async fn send_get(path: &str) -> Result<gloo_net::http::Response> {
    read_sent(to(Request::get, path)).await.map_err(network)
}

/// A POST of no content, sent as an empty JSON object: a Berth on plain HTTP, to which
/// browsers send no `Sec-Fetch-Site`, tells its own pages' changes from another site's by
/// their JSON, which no other site's page may send it unasked.
/// Given up, as a read is, when no answer has come in [`READ_WAIT`]: a task page's
/// action on a dead connection kept every button off for minutes, Stop among them
/// (network explorer). Pressed again, each is safe (a stop, a resubmit with its key) or
/// said by its page (a share may have made a link).
async fn send_post(path: &str, key: Option<&str>) -> Result<gloo_net::http::Response> {
    let mut request = to(Request::post, path).header("content-type", "application/json");
    if let Some(key) = key {
        request = request.header("idempotency-key", key);
    }
    let deadline = Deadline::after(READ_WAIT);
    let sent = request
        .abort_signal(deadline.signal().as_ref())
        .body("{}")
        .map_err(network)?
        .send()
        .await;
    deadline.stop();
    sent.map_err(network)
}

/// `GET /api/v1/tasks?…`: one page of the tasks the caller may see, newest first.
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses (400: a bad filter).
pub async fn list_tasks(
    filter: &ListFilter,
    cursor: Option<&str>,
    limit: u32,
    lang: Lang,
) -> Result<TaskPage> {
    let mut pairs = filter.pairs();
    // The rows' reasons in the console's language: without it they came in the
    // browser's (`Accept-Language`), English under a Chinese console (explorer).
    pairs.push(("lang", wire_name(&lang)));
    if let Some(cursor) = cursor {
        pairs.push(("cursor", cursor.to_owned()));
    }
    pairs.push(("limit", limit.to_string()));
    get(&format!("/api/v1/tasks?{}", query(&pairs))).await
}

/// `GET /api/v1/tasks/counts`: how many tasks of each phase `filter` selects, its phase
/// aside (the phase chips' numbers).
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses (a server before the
/// route answers 404).
pub async fn phase_counts(filter: &ListFilter) -> Result<shared::api::PhaseCounts> {
    let all = ListFilter {
        phase: None,
        active: false,
        ..filter.clone()
    };
    get(&format!("/api/v1/tasks/counts?{}", query(&all.pairs()))).await
}

/// `GET /api/v1/tasks?made_from={id}`: the first `limit` tasks resubmitted or cloned
/// from task `id` that the reader may see, newest first.
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses (400: a task the reader
/// may not see).
pub async fn tasks_made_from(id: &str, limit: u32) -> Result<TaskPage> {
    let pairs = [("made_from", id.to_owned()), ("limit", limit.to_string())];
    get(&format!("/api/v1/tasks?{}", query(&pairs))).await
}

/// `GET /api/v1/tasks/{id}`, its reasons in `lang`.
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses (404: not visible).
pub async fn fetch_task(id: &str, lang: Lang) -> Result<TaskView> {
    answer(send_get(&task_path(id, &format!("?lang={}", wire_name(&lang)))).await?).await
}

/// Which of a task's events to fetch: `GET …/events` numbers them (those of `kind`,
/// when it is set, among themselves) from 1 in the order they happened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventsWanted {
    /// Only events of this kind (`retrying`).
    pub kind: Option<&'static str>,
    /// Only the latest this many; every one when `None`.
    pub limit: Option<usize>,
    /// Only those numbered below this.
    pub before: Option<usize>,
}

/// Some of a task's events, as `GET …/events` answers them: oldest first, and how many
/// (of the kind asked) come before them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventPage {
    /// The events, oldest first.
    pub events: Vec<TaskEventView>,
    /// How many come before the first of them (0: none is left out).
    pub earlier: usize,
}

impl EventPage {
    /// How many there are, up to the last of these.
    pub fn count(&self) -> usize {
        self.earlier + self.events.len()
    }
}

/// The header of a page of events that says earlier ones are left out: the number of
/// its first event, which as `before` asks for the page before.
const EVENTS_EARLIER: &str = "berth-events-earlier";

/// `GET /api/v1/tasks/{id}/events`, oldest first, in `lang`: those `wanted`.
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses.
pub async fn fetch_events(source: &Source, lang: Lang, wanted: EventsWanted) -> Result<EventPage> {
    let mut pairs = vec![("lang", wire_name(&lang))];
    if let Some(kind) = wanted.kind {
        pairs.push(("kind", kind.to_owned()));
    }
    if let Some(limit) = wanted.limit {
        pairs.push(("limit", limit.to_string()));
    }
    if let Some(before) = wanted.before {
        pairs.push(("before", before.to_string()));
    }
    let response = send_get(&source.path(&format!("/events?{}", query(&pairs))))
        .await
        .map_err(|e| source.refusal(e))?;
    let earlier = response
        .headers()
        .get(EVENTS_EARLIER)
        .and_then(|n| n.trim().parse::<usize>().ok())
        .map_or(0, |first| first.saturating_sub(1));
    Ok(EventPage {
        events: answer(response).await.map_err(|e| source.refusal(e))?,
        earlier,
    })
}

/// The address of a replica's whole log of `attempt` (default the latest), as plain
/// text: the task page links to it when it shows only the log's end.
pub fn log_url(base: &Base, source: &Source, replica: u32, attempt: Option<u32>) -> String {
    base.url(&logs_path(source, replica, attempt, false, None))
}

fn logs_path(
    source: &Source,
    replica: u32,
    attempt: Option<u32>,
    follow: bool,
    tail: Option<usize>,
) -> String {
    let mut pairs = vec![("replica", replica.to_string())];
    if let Some(attempt) = attempt {
        pairs.push(("attempt", attempt.to_string()));
    }
    if follow {
        pairs.push(("follow", "true".to_owned()));
    }
    if let Some(tail) = tail {
        pairs.push(("tail_bytes", tail.to_string()));
    }
    source.path(&format!("/logs?{}", query(&pairs)))
}

/// The header of a log's end that says how many bytes of the log came before it.
const LOG_LEFT_OUT: &str = "berth-log-left-out";

/// `GET /api/v1/tasks/{id}/logs`: a replica's log so far, of `attempt` (default the
/// latest).
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses (400: no such attempt).
pub async fn fetch_logs(source: &Source, replica: u32, attempt: Option<u32>) -> Result<String> {
    let response = to(
        Request::get,
        &logs_path(source, replica, attempt, false, None),
    )
    .send()
    .await
    .map_err(network)?;
    if response.ok() {
        response.text().await.map_err(network)
    } else {
        Err(source.refusal(refusal(response).await))
    }
}

/// `GET /api/v1/tasks/{id}/logs?tail_bytes=`: the end of a replica's log so far, at most
/// `tail` bytes from a line's start, and how many bytes before it were left out (0 from
/// a server that sends the whole log).
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses (400: no such attempt).
pub async fn fetch_log_end(
    source: &Source,
    replica: u32,
    attempt: Option<u32>,
    tail: usize,
) -> Result<(String, u64)> {
    let response = to(
        Request::get,
        &logs_path(source, replica, attempt, false, Some(tail)),
    )
    .send()
    .await
    .map_err(network)?;
    if !response.ok() {
        return Err(source.refusal(refusal(response).await));
    }
    let left_out = response
        .headers()
        .get(LOG_LEFT_OUT)
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    Ok((response.text().await.map_err(network)?, left_out))
}

/// A live log: `GET …/logs?follow=true` read as server-sent events. Closed when
/// dropped, so a page that goes away stops the stream.
pub struct LogFollow {
    source: web_sys::EventSource,
    // Kept alive as long as the source calls them.
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_end: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
    _on_left_out: Option<Closure<dyn FnMut(web_sys::MessageEvent)>>,
    _on_open: Option<Closure<dyn FnMut(web_sys::Event)>>,
}

impl LogFollow {
    /// Follows a replica's log: `on_chunk` gets each appended piece of text, `on_end`
    /// is called once, when the attempt has ended (`true`) or the stream broke (`false`).
    ///
    /// # Errors
    ///
    /// [`ClientError::Network`] when the browser cannot open the stream.
    pub fn open(
        base: &Base,
        source: &Source,
        replica: u32,
        attempt: Option<u32>,
        on_chunk: impl Fn(String) + 'static,
        on_end: impl Fn(bool) + 'static,
    ) -> Result<LogFollow> {
        Self::open_at(
            base,
            &logs_path(source, replica, attempt, true, None),
            on_chunk,
            on_end,
        )
    }

    /// [`LogFollow::open`] from the log's end: the end of what is written so far, at
    /// most `tail` bytes from a line's start, comes as the first chunk, then what is
    /// appended. Before it, [`LogFollow::on_left_out`] is told how many bytes were left
    /// out.
    ///
    /// # Errors
    ///
    /// [`ClientError::Network`] when the browser cannot open the stream.
    pub fn open_end(
        base: &Base,
        source: &Source,
        replica: u32,
        attempt: Option<u32>,
        tail: usize,
        on_chunk: impl Fn(String) + 'static,
        on_end: impl Fn(bool) + 'static,
    ) -> Result<LogFollow> {
        Self::open_at(
            base,
            &logs_path(source, replica, attempt, true, Some(tail)),
            on_chunk,
            on_end,
        )
    }

    /// Calls `told` with how many bytes of the log were left out before its end (sent
    /// once, before the first chunk, by a stream opened with [`LogFollow::open_end`]).
    pub fn on_left_out(&mut self, told: impl Fn(u64) + 'static) {
        let said = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                if let Some(n) = event.data().as_string().and_then(|n| n.parse().ok()) {
                    told(n);
                }
            },
        );
        let _ = self
            .source
            .add_event_listener_with_callback("left_out", said.as_ref().unchecked_ref());
        self._on_left_out = Some(said);
    }

    /// Calls `opened` when the server has answered the stream.
    pub fn on_open(&mut self, opened: impl Fn() + 'static) {
        let said = Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| opened());
        self.source.set_onopen(Some(said.as_ref().unchecked_ref()));
        self._on_open = Some(said);
    }

    fn open_at(
        base: &Base,
        path: &str,
        on_chunk: impl Fn(String) + 'static,
        on_end: impl Fn(bool) + 'static,
    ) -> Result<LogFollow> {
        let address = base.url(path);
        // Credentials to another Berth's site, as `to_at` sends them with every request.
        let init = web_sys::EventSourceInit::new();
        init.set_with_credentials(base.elsewhere());
        let source = web_sys::EventSource::new_with_event_source_init_dict(&address, &init)
            .map_err(|e| ClientError::Network(format!("{e:?}").into()))?;
        let on_end = std::rc::Rc::new(on_end);
        let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                if let Some(text) = event.data().as_string() {
                    on_chunk(text);
                }
            },
        );
        let ended = {
            let source = source.clone();
            let on_end = on_end.clone();
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |_: web_sys::MessageEvent| {
                source.close();
                on_end(true);
            })
        };
        let broken = {
            let source = source.clone();
            Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
                // A lost stream reconnects by itself and would replay the whole log; a
                // refused one (an HTTP error) is closed already, and says so only here.
                // Either way it has stopped, and the reader is told.
                source.close();
                on_end(false);
            })
        };
        source.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        let _ = source.add_event_listener_with_callback("end", ended.as_ref().unchecked_ref());
        source.set_onerror(Some(broken.as_ref().unchecked_ref()));
        Ok(LogFollow {
            source,
            _on_message: on_message,
            _on_end: ended,
            _on_error: broken,
            _on_left_out: None,
            _on_open: None,
        })
    }
}

impl Drop for LogFollow {
    fn drop(&mut self) {
        self.source.close();
    }
}

/// `POST /api/v1/tasks/{id}/stop`.
///
/// # Errors
///
/// [`ClientError::Api`]: 403 not the owner, 409 already ended.
pub async fn stop_task(id: &str) -> Result<TaskView> {
    answer(send_post(&task_path(id, "/stop"), None).await?).await
}

/// `DELETE /api/v1/tasks/{id}`.
///
/// # Errors
///
/// [`ClientError::Api`]: 403 not the owner, 409 still running.
pub async fn delete_task(id: &str) -> Result<()> {
    send_delete(&task_path(id, "")).await
}

/// A `DELETE` whose answer has no body: done, or the server's refusal.
async fn send_delete(path: &str) -> Result<()> {
    // Given up as a read is: deleting again is safe.
    let response = read_sent(to(Request::delete, path))
        .await
        .map_err(network)?;
    if response.ok() {
        Ok(())
    } else {
        Err(refusal(response).await)
    }
}

/// `POST /api/v1/tasks/{id}/resubmit`: a new task from the same spec.
///
/// # Errors
///
/// [`ClientError::Api`]: 403 not the owner, 422 the spec no longer passes.
pub async fn resubmit_task(id: &str, idempotency_key: &str, lang: Lang) -> Result<TaskView> {
    let path = task_path(id, &format!("/resubmit?lang={}", wire_name(&lang)));
    answer(send_post(&path, Some(idempotency_key)).await?).await
}

/// `POST /api/v1/tasks/{id}/share`: a read-only link.
///
/// # Errors
///
/// [`ClientError::Api`]: 403 not the owner.
pub async fn share_task(id: &str) -> Result<ShareLink> {
    answer(send_post(&task_path(id, "/share"), None).await?).await
}

/// `GET /api/v1/tasks/{id}/share`: the task's share links that work, oldest first.
///
/// # Errors
///
/// [`ClientError::Api`]: 403 not the owner.
pub async fn share_links(id: &str) -> Result<Vec<ShareLink>> {
    answer(send_get(&task_path(id, "/share")).await?).await
}

/// `DELETE /api/v1/tasks/{id}/share/{link}`: revokes a share link.
///
/// # Errors
///
/// [`ClientError::Api`]: 403 not the owner, 404 `share.not_found` when it was revoked
/// already.
pub async fn revoke_share(id: &str, link: u32) -> Result<()> {
    send_delete(&task_path(id, &format!("/share/{link}"))).await
}

/// `PATCH /api/v1/tasks/{id}/tags`: `tags` in place of `expected`, the tags they were
/// made from.
///
/// # Errors
///
/// [`ClientError::Api`]: 422 with the findings when a tag breaks the form's rules; 409
/// `task.tags_changed` when the task's tags are no longer `expected`.
pub async fn set_tags(
    id: &str,
    tags: Vec<Tag>,
    expected: Vec<Tag>,
    lang: Lang,
) -> Result<TaskView> {
    let body = serde_json::to_string(&TagsBody {
        tags,
        expected: Some(expected),
    })
    .unwrap_or_default();
    let path = task_path(id, &format!("/tags?lang={}", wire_name(&lang)));
    let request = to(Request::patch, &path)
        .header("content-type", "application/json")
        .body(body)
        .map_err(network)?;
    answer(request.send().await.map_err(network)?).await
}

/// `GET /api/v1/shared/{token}`: a shared task, read-only, hidden values masked, its
/// reasons in `lang`.
///
/// # Errors
///
/// [`ClientError::Api`]: 404 when the link is unknown or its task was deleted.
pub async fn fetch_shared(token: &str, lang: Lang) -> Result<TaskView> {
    answer(
        send_get(&format!(
            "/api/v1/shared/{}?lang={}",
            encode(token),
            wire_name(&lang)
        ))
        .await?,
    )
    .await
}
