//! One module per resource; [`api`] merges them under `/api/v1`.

pub mod catalog;
pub mod health;
pub mod validate;

use crate::AppState;
use crate::error::ApiError;
use axum::Router;
use axum::extract::FromRequest;

/// The `/api/v1` routes.
pub fn api() -> Router<AppState> {
    Router::new()
        .merge(catalog::router())
        .merge(validate::router())
}

/// JSON body extractor whose rejections answer in our error shape.
#[derive(FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct ApiJson<T>(pub T);
