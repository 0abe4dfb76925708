//! Alert subscriptions (SPEC.md section 5): a task's webhooks are called with a JSON
//! body when an event they subscribe to happens, and each call is recorded among the
//! task's events (sent, or why not). This server sends no email: an email subscription
//! is recorded as not sent when it would fire, so its owner learns it from the task's
//! events instead of waiting for mail.

use bytes::Bytes;
use http_body_util::Full;
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use rustls_pki_types::CertificateDer;
use rustls_pki_types::pem::PemObject;
use shared::messages::{Arg, Message};
use shared::record::{Task, TaskPhase, Timestamp};
use shared::task::{Alert, AlertEvent};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// How long a webhook has to answer.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Calls webhooks over HTTPS, trusting the system's roots and, when configured, one
/// more CA (a company's own, for internal endpoints).
#[derive(Clone)]
pub struct Webhooks {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
}

impl std::fmt::Debug for Webhooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Webhooks").finish_non_exhaustive()
    }
}

impl Webhooks {
    /// A client trusting the system's roots and the PEM certificates in `extra_ca`.
    ///
    /// # Errors
    ///
    /// When `extra_ca` cannot be read or holds no certificate.
    pub fn new(extra_ca: Option<&Path>) -> Result<Self, String> {
        let mut roots = rustls::RootCertStore::empty();
        // A root the system lists that rustls refuses is skipped, as browsers do.
        let (_, _) =
            roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
        if let Some(path) = extra_ca {
            let certs = CertificateDer::pem_file_iter(path)
                .and_then(Iterator::collect::<Result<Vec<_>, _>>)
                .map_err(|err| format!("cannot read the alerts CA {}: {err}", path.display()))?;
            if certs.is_empty() {
                return Err(format!(
                    "the alerts CA {} holds no certificate",
                    path.display()
                ));
            }
            for cert in certs {
                roots
                    .add(cert)
                    .map_err(|err| format!("the alerts CA {}: {err}", path.display()))?;
            }
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|err| err.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_only()
            .enable_http1()
            .build();
        Ok(Webhooks {
            client: Client::builder(TokioExecutor::new()).build(https),
        })
    }

    /// POSTs `body` (JSON) to `url`; what went wrong, in words, when it was not taken.
    ///
    /// # Errors
    ///
    /// When the URL is not https, the call fails or times out, or the answer is not 2xx.
    pub async fn post(&self, url: &str, body: String) -> Result<(), String> {
        let request = http::Request::post(url)
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::USER_AGENT, "berth")
            .body(Full::new(Bytes::from(body)))
            .map_err(|err| err.to_string())?;
        let response = tokio::time::timeout(TIMEOUT, self.client.request(request))
            .await
            .map_err(|_| format!("no answer in {} s", TIMEOUT.as_secs()))?
            .map_err(|err| {
                // The client's own words are "client error (Connect)": its source says what.
                let mut text = err.to_string();
                let mut source = std::error::Error::source(&err);
                while let Some(cause) = source {
                    text = format!("{text}: {cause}");
                    source = cause.source();
                }
                text
            })?;
        if response.status().is_success() {
            Ok(())
        } else {
            Err(format!("it answered {}", response.status()))
        }
    }
}

/// How often the threshold subscriptions are looked at.
pub const SWEEP: Duration = Duration::from_secs(30);

/// An alert event's wire name (`queued_longer_than`), as the spec writes it.
pub fn wire(event: AlertEvent) -> &'static str {
    match event {
        AlertEvent::Failed => "failed",
        AlertEvent::Succeeded => "succeeded",
        AlertEvent::Stopped => "stopped",
        AlertEvent::Retried => "retried",
        AlertEvent::QueuedLongerThan => "queued_longer_than",
        AlertEvent::RunningLongerThan => "running_longer_than",
    }
}

/// The message `key` about `subscription`: its event (in the reader's language), its
/// target, and its threshold (not worded: it tells two subscriptions of one event and
/// target apart, an escalation at 10 and at 60 minutes).
pub fn said(key: &str, subscription: &Alert) -> Message {
    let said = Message::new(key)
        .with_arg("event", event_name(subscription.event))
        .with("target", subscription.target.clone());
    match subscription.threshold {
        Some(threshold) => said.with("threshold", threshold),
        None => said,
    }
}

fn event_name(event: AlertEvent) -> Arg {
    Arg::Message(Message::new(format!(
        "ui.form.option.alert_event.{}",
        wire(event)
    )))
}

/// Whether an `alert` event's message is about `subscription` (its event, target and
/// threshold).
pub fn is_about(message: Option<&Message>, subscription: &Alert) -> bool {
    message.is_some_and(|m| {
        m.args.get("event") == Some(&event_name(subscription.event))
            && m.args.get("target") == Some(&Arg::Text(subscription.target.clone()))
            && m.args.get("threshold")
                == subscription
                    .threshold
                    .map(|t| Arg::Text(t.to_string()))
                    .as_ref()
    })
}

/// What an overdue threshold subscription says happened (`queued for more than 30
/// minutes`).
pub fn overdue(subscription: &Alert) -> Message {
    // `{n}` of 1 reads in the singular where the language has one (`_one` texts).
    Message::new(format!("event.alert.overdue.{}", wire(subscription.event)))
        .with("n", subscription.threshold.unwrap_or_default())
}

/// When the task entered the phase a threshold subscription watches, if it is in it
/// now and has been longer than the threshold at `now`; `None` for the other events.
pub fn due(subscription: &Alert, task: &Task, now: Timestamp) -> Option<Timestamp> {
    let (phase, unit_ms) = match subscription.event {
        AlertEvent::QueuedLongerThan => (TaskPhase::Queued, 60_000),
        AlertEvent::RunningLongerThan => (TaskPhase::Running, 3_600_000),
        _ => return None,
    };
    if task.phase != phase {
        return None;
    }
    let since = task
        .history
        .iter()
        .rev()
        .find(|step| step.phase == phase)?
        .at;
    let threshold = i64::from(subscription.threshold?) * unit_ms;
    (now.0 - since.0 > threshold).then_some(since)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::record::PhaseChange;
    use shared::task::AlertChannel;

    fn task(steps: &[(TaskPhase, i64)]) -> Task {
        let mut task = Task::queued(
            shared::TaskId("t".into()),
            "alice".into(),
            shared::validated(
                shared::demo::pytorch(),
                &shared::demo::catalog(),
                &shared::Usage::new(),
                &shared::demo::user(),
            )
            .expect("the example is valid")
            .0,
            Timestamp(steps[0].1),
        );
        task.history = steps
            .iter()
            .map(|&(phase, at)| PhaseChange {
                phase,
                at: Timestamp(at),
                reason: String::new(),
                keyed: None,
            })
            .collect();
        task.phase = steps.last().expect("a step").0;
        task
    }

    fn subscription(event: AlertEvent, threshold: u32) -> Alert {
        Alert {
            event,
            threshold: Some(threshold),
            channel: AlertChannel::Webhook,
            target: "https://hooks.example.com".into(),
        }
    }

    const MINUTE: i64 = 60_000;
    const HOUR: i64 = 60 * MINUTE;

    #[test]
    fn a_threshold_is_due_once_the_task_has_stayed_longer_in_its_phase() {
        let queued = subscription(AlertEvent::QueuedLongerThan, 30);
        let waiting = task(&[(TaskPhase::Queued, 0)]);
        assert_eq!(
            due(&queued, &waiting, Timestamp(30 * MINUTE)),
            None,
            "not longer yet"
        );
        assert_eq!(
            due(&queued, &waiting, Timestamp(30 * MINUTE + 1)),
            Some(Timestamp(0))
        );
        // Counted from its last entry into the phase: a retry queues it afresh.
        let again = task(&[
            (TaskPhase::Queued, 0),
            (TaskPhase::Scheduling, MINUTE),
            (TaskPhase::Running, MINUTE),
            (TaskPhase::Retrying, 2 * MINUTE),
            (TaskPhase::Queued, 2 * MINUTE),
        ]);
        assert_eq!(due(&queued, &again, Timestamp(31 * MINUTE)), None);
        assert_eq!(
            due(&queued, &again, Timestamp(33 * MINUTE)),
            Some(Timestamp(2 * MINUTE))
        );
        // Hours for running; nothing for a task in another phase or another event.
        let running = subscription(AlertEvent::RunningLongerThan, 2);
        let runs = task(&[(TaskPhase::Queued, 0), (TaskPhase::Running, HOUR)]);
        assert_eq!(due(&running, &runs, Timestamp(3 * HOUR)), None);
        assert_eq!(
            due(&running, &runs, Timestamp(3 * HOUR + 1)),
            Some(Timestamp(HOUR))
        );
        assert_eq!(due(&queued, &runs, Timestamp(10 * HOUR)), None);
        let failed = subscription(AlertEvent::Failed, 1);
        assert_eq!(due(&failed, &waiting, Timestamp(10 * HOUR)), None);
    }
}

#[cfg(test)]
mod dedupe {
    use super::*;
    use shared::task::AlertChannel;

    /// An escalation, at 10 and at 60 minutes to one address: the first's record is not
    /// taken for the second's.
    #[test]
    fn two_thresholds_of_one_event_and_target_are_told_apart() {
        let at = |threshold| Alert {
            event: AlertEvent::QueuedLongerThan,
            threshold: Some(threshold),
            channel: AlertChannel::Webhook,
            target: "https://hooks.example.com".into(),
        };
        let sent = said("event.alert.sent", &at(10));
        assert!(is_about(Some(&sent), &at(10)));
        assert!(!is_about(Some(&sent), &at(60)));
        assert_eq!(
            overdue(&at(1)).render(shared::Lang::En),
            "queued for more than a minute"
        );
    }
}
