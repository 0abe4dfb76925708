//! One async function per server endpoint.

use gloo_net::http::Request;
use shared::TaskSpec;
use shared::api::{CatalogResponse, ErrorBody, Examples, TaskView, ValidateResponse};

/// A request to the server failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ClientError {
    /// The request did not reach the server, or its answer could not be read.
    #[error("cannot reach the server: {0}")]
    Network(String),
    /// The server refused the request and said why.
    #[error("{}", .0.detail)]
    Api(ErrorBody),
}

/// A module result with [`ClientError`].
pub type Result<T, E = ClientError> = std::result::Result<T, E>;

thread_local! {
    /// Where the API lives: empty for the console's own origin, or another server's
    /// address for a form embedded in another portal.
    static BASE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Sends every later request to the API at `base` (`https://berth.example.com`), for a
/// form embedded in another site. Empty: the page's own origin.
pub fn set_base(base: &str) {
    BASE.with(|b| *b.borrow_mut() = base.trim_end_matches('/').to_owned());
}

/// The address of an API path (`/api/v1/...`).
pub fn url(path: &str) -> String {
    BASE.with(|b| format!("{}{path}", b.borrow()))
}

fn network(err: gloo_net::Error) -> ClientError {
    ClientError::Network(err.to_string())
}

async fn answer<T: serde::de::DeserializeOwned>(response: gloo_net::http::Response) -> Result<T> {
    if response.ok() {
        response.json().await.map_err(network)
    } else {
        match response.json::<ErrorBody>().await {
            Ok(body) => Err(ClientError::Api(body)),
            Err(err) => Err(ClientError::Network(format!(
                "HTTP {}: {err}",
                response.status()
            ))),
        }
    }
}

/// `GET /api/v1/catalog`.
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses.
pub async fn fetch_catalog() -> Result<CatalogResponse> {
    answer(
        Request::get(&url("/api/v1/catalog"))
            .send()
            .await
            .map_err(network)?,
    )
    .await
}

/// `POST /api/v1/validate` with the spec exactly as typed.
///
/// # Errors
///
/// [`ClientError::Api`] with the named fields when the spec has the wrong shape.
pub async fn validate(spec_json: String) -> Result<ValidateResponse> {
    let request = Request::post(&url("/api/v1/validate"))
        .header("content-type", "application/json")
        .body(spec_json)
        .map_err(network)?;
    answer(request.send().await.map_err(network)?).await
}

/// `GET /api/v1/examples`.
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses.
pub async fn fetch_examples() -> Result<Examples> {
    answer(
        Request::get(&url("/api/v1/examples"))
            .send()
            .await
            .map_err(network)?,
    )
    .await
}

/// `POST /api/v1/tasks`: submits a spec. The key makes a retry of the same click return
/// the first task rather than a second one.
///
/// # Errors
///
/// [`ClientError::Api`] with the findings (422) when the server refuses the spec.
pub async fn submit_task(spec_json: String, idempotency_key: &str) -> Result<TaskView> {
    let request = Request::post(&url("/api/v1/tasks"))
        .header("content-type", "application/json")
        .header("idempotency-key", idempotency_key)
        .body(spec_json)
        .map_err(network)?;
    answer(request.send().await.map_err(network)?).await
}

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
    answer(Request::get(&url(&path)).send().await.map_err(network)?).await
}
