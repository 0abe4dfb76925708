//! One async function per server endpoint.

use gloo_net::http::Request;
use shared::api::{CatalogResponse, ErrorBody, Examples, ValidateResponse};

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
        Request::get("/api/v1/catalog")
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
    let request = Request::post("/api/v1/validate")
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
        Request::get("/api/v1/examples")
            .send()
            .await
            .map_err(network)?,
    )
    .await
}
