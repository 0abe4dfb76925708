//! `POST /api/v1/render`: the Kubernetes objects a posted spec becomes, for review.
//!
//! The spec is read and validated as `POST /api/v1/tasks` reads it; a spec with errors
//! is answered 422 with its findings, as there. A valid one is rendered with
//! `shared::manifest::preview` on the server's catalog: the name ends in `xxxxx`, hidden
//! values are masked and the SSH key is a placeholder, since nothing is submitted.

use super::{JsonText, LangParam, Params};
use crate::auth::CurrentUser;
use crate::{ApiError, AppState, ReaderLang};
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde::Serialize;

/// Render routes.
pub fn router() -> Router<AppState> {
    Router::new().route("/render", post(render))
}

/// The render route, for the OpenAPI document.
#[derive(utoipa::OpenApi)]
#[openapi(paths(render), components(schemas(RenderResponse)))]
pub(super) struct RenderApi;

/// What a spec becomes.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RenderResponse {
    /// The Kubernetes objects in apply order (Secrets first, the job last), each
    /// exactly as it would be applied, with the preview's placeholders.
    #[schema(value_type = Vec<Object>)]
    pub objects: Vec<shared::manifest::Object>,
}

/// `POST /render`.
#[utoipa::path(
    post,
    path = "/render",
    tag = "validate",
    params(
        ("lang" = Option<String>, Query, description = "Language of finding messages: `en` or `zh-CN` (any `en…` or `zh…` tag); others are ignored"),
        ("Accept-Language" = Option<String>, Header, description = "Used for the messages' language when `lang` is absent; English otherwise")
    ),
    request_body(content = shared::TaskSpec, content_type = "application/json", description = "The spec to render, as for POST /tasks"),
    responses(
        (status = 200, description = "The objects the spec becomes (name suffix `xxxxx`, hidden values masked)", body = RenderResponse),
        (status = 400, description = "The body is not strict JSON (malformed, not UTF-8, or an object with a key twice; `line` and `column` say where), or a query parameter other than `lang` is given", body = shared::api::ErrorBody, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts", body = shared::api::ErrorBody, content_type = "application/problem+json"),
        (status = 415, description = "The body is not declared as JSON (`application/json` or `application/…+json`)", body = shared::api::ErrorBody, content_type = "application/problem+json"),
        (status = 422, description = "The spec has errors (or fields of the wrong shape); `issues` lists them", body = shared::api::ErrorBody, content_type = "application/problem+json"),
        (status = 409, description = "`render.namespace`: the cluster's namespace rule gives the caller no valid namespace (a tenant the identity gives none of, or one that is no DNS label); `detail` names the rule, what it gave and whom to ask", body = shared::api::ErrorBody, content_type = "application/problem+json"),
        (status = 500, description = "The catalog cannot render a valid spec otherwise; the cause is logged, not sent", body = shared::api::ErrorBody, content_type = "application/problem+json"),
    )
)]
async fn render(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ReaderLang(lang): ReaderLang,
    _query: Params<LangParam>,
    JsonText(text): JsonText,
) -> Result<Json<RenderResponse>, ApiError> {
    let spec =
        shared::parse_spec(&text).map_err(|report| ApiError::shape(&text, report, lang, &[]))?;
    let usage = state.live_usage().await?;
    let (spec, check) =
        shared::validated(spec, &state.catalog, &usage, &user).map_err(|report| {
            ApiError::Spec {
                report,
                lang,
                maintained: state.catalog.tags.maintained.clone(),
            }
        })?;
    // With the Kubernetes backend, the namespace this server applies to, not the
    // catalog's rule: the preview shows the objects as they will be applied.
    let catalog = match state.config.backend {
        crate::config::Backend::Kubernetes => {
            let namespace = state
                .config
                .kubernetes
                .namespace_for(&spec.basic.project_group)
                .map_err(|err| {
                    ApiError::Internal(format!(
                        "cannot choose the namespace: {}",
                        crate::error_chain(&err)
                    ))
                })?;
            std::borrow::Cow::Owned(crate::backend::kube::in_namespace(
                &state.catalog,
                &spec,
                &namespace,
            ))
        }
        crate::config::Backend::Local => std::borrow::Cow::Borrowed(&*state.catalog),
    };
    let spec = as_it_would_run(&spec, check.plan.as_ref());
    let objects = shared::manifest::preview(&spec, &catalog, &user).map_err(|err| match err {
        // The user's identity, not the spec: a tenant the identity gave none of (a proxy
        // sending no tenant header) made `{tenant}-{project_group}` "-vision", a 500
        // that said nothing (API explorer).
        shared::manifest::RenderError::Namespace { namespace } => {
            ApiError::Unrenderable(unrenderable(&catalog, &spec, &user, &namespace))
        }
        err => ApiError::Internal(format!(
            "cannot render a valid spec: {}",
            crate::error_chain(&err)
        )),
    })?;
    Ok(Json(RenderResponse { objects }))
}

/// Why `namespace`, which the cluster's namespace rule gave, names no namespace for
/// `user`, and whom to ask.
fn unrenderable(
    catalog: &shared::Catalog,
    spec: &shared::TaskSpec,
    user: &shared::User,
    namespace: &str,
) -> String {
    let rule = catalog
        .cluster(&spec.basic.region, &spec.basic.cluster)
        .map(|c| c.kubernetes.namespace.clone())
        .unwrap_or_default();
    let tenant = if user.tenant_id.is_empty() {
        "your identity gives no tenant".to_owned()
    } else {
        format!("your tenant is `{}`", user.tenant_id)
    };
    // Only the local backend renders by the catalog's rule (Kubernetes by the server's
    // own namespace), and runs its tasks in none: their submits go on (review).
    format!(
        "the cluster's namespace rule `{rule}` gives `{namespace}` for you, which is not a \
         Kubernetes namespace (lowercase letters, digits and '-', starting and ending with a \
         letter or digit, at most 63): {tenant}; this server runs tasks in no namespace, so \
         your submits go on, but a cluster using this rule would refuse them: ask the \
         platform team for a tenant that is such a name, or for another namespace rule"
    )
}

/// `spec` with the spec its plan would use first in its priority list, as the backend
/// applies it ([`crate::backend::kube::chosen_first`]): the renderer sizes the replicas
/// from the list's first spec, and a preview of `[h100-1g, a100-1g]` on a pool of A100s
/// was sized for H100s with no node selector, where the task would run on A100s
/// (Kubernetes explorer).
pub fn as_it_would_run(
    spec: &shared::TaskSpec,
    plan: Option<&shared::quota::Plan>,
) -> shared::TaskSpec {
    let used = plan.and_then(|plan| match plan.outcome {
        shared::quota::Outcome::Now { index, .. } | shared::quota::Outcome::Queue { index, .. } => {
            plan.candidate(index)
        }
        shared::quota::Outcome::Blocked => None,
    });
    match used {
        Some(candidate) => crate::backend::kube::chosen_first(spec, &candidate.spec),
        None => spec.clone(),
    }
}
