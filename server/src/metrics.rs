//! Prometheus metrics at `/metrics`: requests, submits, the queue, admissions, running
//! tasks and quota in use per line, in the OpenMetrics text format.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use shared::usage::Usage;
use shared::vocab::Dimension;

/// Labels of an HTTP request.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    /// HTTP method.
    pub method: String,
    /// The route template (`/api/v1/tasks/{id}`), never the raw path: ids would make
    /// one series per task.
    pub route: String,
    /// Status code.
    pub status: u16,
}

/// Labels of a submit.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct SubmitLabels {
    /// `accepted`, `refused` (422) or `duplicate` (an idempotency key seen before).
    pub outcome: &'static str,
}

/// Labels of a quota line's use.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct QuotaLabels {
    /// User.
    pub user: String,
    /// Resource kind.
    pub kind: String,
    /// Pool.
    pub pool: String,
    /// Spec.
    pub spec: String,
    /// `gpu`, `vcpu` or `memory_gib`.
    pub dimension: String,
}

/// Every metric the server keeps; cheap to share behind an `Arc`.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    /// HTTP requests answered.
    pub requests: Family<RequestLabels, Counter>,
    /// Submits, by outcome.
    pub submits: Family<SubmitLabels, Counter>,
    /// Tasks waiting in the queue.
    pub queue_length: Gauge,
    /// Gangs admitted since start.
    pub admissions: Counter,
    /// Tasks running now.
    pub running: Gauge,
    /// Quota in use (holds of waiting tasks included), per line and dimension.
    pub quota_in_use: Family<QuotaLabels, Gauge>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// Registers every metric under the `berth` prefix.
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("berth");
        let requests = Family::<RequestLabels, Counter>::default();
        let submits = Family::<SubmitLabels, Counter>::default();
        let queue_length = Gauge::default();
        let admissions = Counter::default();
        let running = Gauge::default();
        let quota_in_use = Family::<QuotaLabels, Gauge>::default();
        registry.register("http_requests", "HTTP requests answered", requests.clone());
        registry.register("submits", "Task submits by outcome", submits.clone());
        registry.register(
            "queue_length",
            "Tasks waiting in the queue",
            queue_length.clone(),
        );
        registry.register("admissions", "Gangs admitted", admissions.clone());
        registry.register("running_tasks", "Tasks running now", running.clone());
        registry.register(
            "quota_in_use",
            "Quota in use per user, kind, pool, spec and dimension, holds of waiting tasks included",
            quota_in_use.clone(),
        );
        Metrics {
            registry,
            requests,
            submits,
            queue_length,
            admissions,
            running,
            quota_in_use,
        }
    }

    /// Sets the quota gauges from live usage; lines no longer in use read 0.
    pub fn observe_usage(&self, usage: &Usage) {
        self.quota_in_use.clear();
        for line in &usage.quota {
            for dimension in Dimension::ALL {
                let labels = QuotaLabels {
                    user: line.user.clone(),
                    kind: serde_json::to_value(line.kind)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default(),
                    pool: line.pool.clone(),
                    spec: line.spec.clone(),
                    dimension: dimension.to_string(),
                };
                let value = i64::try_from(line.used.get(dimension)).unwrap_or(i64::MAX);
                self.quota_in_use.get_or_create(&labels).set(value);
            }
        }
    }

    /// The OpenMetrics text exposition.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }
}

/// The media type of the exposition.
pub const OPENMETRICS_TEXT: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The `route` label of a request no route matched (the console's files, unknown
/// paths): one series for all of them, never the raw path.
pub const UNMATCHED_ROUTE: &str = "unmatched";

/// The `method` label of a request whose method is not a standard one.
pub const OTHER_METHOD: &str = "other";

/// Middleware: counts every request by method, route template and status.
pub(crate) async fn count_requests(
    axum::extract::State(state): axum::extract::State<crate::AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    // The standard methods by name, any other as `other`: a client sending made-up
    // methods made a series of its own for each (operator explorer).
    let method = match *request.method() {
        axum::http::Method::GET
        | axum::http::Method::HEAD
        | axum::http::Method::POST
        | axum::http::Method::PUT
        | axum::http::Method::PATCH
        | axum::http::Method::DELETE
        | axum::http::Method::OPTIONS
        | axum::http::Method::CONNECT
        | axum::http::Method::TRACE => request.method().as_str().to_owned(),
        _ => OTHER_METHOD.to_owned(),
    };
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or_else(|| UNMATCHED_ROUTE.to_owned(), |p| p.as_str().to_owned());
    let response = next.run(request).await;
    state
        .metrics
        .requests
        .get_or_create(&RequestLabels {
            method,
            route,
            status: response.status().as_u16(),
        })
        .inc();
    response
}

/// `GET /metrics`: the gauges are read from the runner now, then every series is
/// rendered.
pub(crate) async fn scrape(
    axum::extract::State(state): axum::extract::State<crate::AppState>,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let metrics = &state.metrics;
    if let Some(runner) = &state.runner {
        let gauge = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        metrics.queue_length.set(gauge(runner.queue_length().await));
        metrics.running.set(gauge(runner.running_count().await));
    }
    // Without the store's answer the gauges keep their last values.
    if let Ok(usage) = state.live_usage().await {
        metrics.observe_usage(&usage);
    }
    (
        [(axum::http::header::CONTENT_TYPE, OPENMETRICS_TEXT)],
        metrics.render(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::Resources;
    use shared::task::ResourceKind;
    use shared::usage::QuotaUse;

    #[test]
    fn quota_in_use_is_exposed_per_line_and_dimension() {
        let metrics = Metrics::new();
        let mut usage = Usage::new();
        usage.hold(&[QuotaUse {
            user: "alice".into(),
            kind: ResourceKind::OnDemand,
            pool: "p".into(),
            spec: "a100-1g".into(),
            used: Resources::new(4, 48, 480),
        }]);
        metrics.observe_usage(&usage);
        metrics
            .submits
            .get_or_create(&SubmitLabels {
                outcome: "accepted",
            })
            .inc();
        let text = metrics.render();
        assert!(
            text.contains(r#"berth_quota_in_use{user="alice",kind="on_demand",pool="p",spec="a100-1g",dimension="gpu"} 4"#),
            "{text}"
        );
        assert!(
            text.contains(r#"berth_submits_total{outcome="accepted"} 1"#),
            "{text}"
        );
        usage.unhold(&usage.quota.clone());
        metrics.observe_usage(&usage);
        assert!(!metrics.render().contains("a100-1g"));
    }
}
