//! Alert subscriptions (SPEC.md section 5): a task's webhooks are called with a JSON
//! body, and its email subscriptions are mailed through the configured SMTP relay, when
//! an event they subscribe to happens; each alert is recorded among the task's events
//! (sent, or why not). Without a relay an email subscription is recorded as not sent
//! when it would fire, so its owner learns it from the task's events instead of
//! waiting for mail.

use crate::config::{Mail, SmtpTls};
use crate::store::{TaskEvent, TaskStore, event_kind};
use bytes::Bytes;
use http_body_util::Full;
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use rustls_pki_types::CertificateDer;
use rustls_pki_types::pem::PemObject;
use shared::Lang;
use shared::messages::{Arg, Message};
use shared::record::{Task, TaskId, TaskPhase, Timestamp};
use shared::task::{Alert, AlertEvent};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// How long a webhook, or the mail relay, has to answer.
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
            for cert in extra_roots(path)? {
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
    pub async fn post(&self, url: &str, body: String) -> Result<(), Message> {
        let request = http::Request::post(url)
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::USER_AGENT, "berth")
            .body(Full::new(Bytes::from(body)))
            .map_err(|err| failure(&err))?;
        let response = tokio::time::timeout(TIMEOUT, self.client.request(request))
            .await
            .map_err(|_| no_answer())?
            .map_err(|err| failure(&err))?;
        if response.status().is_success() {
            Ok(())
        } else {
            Err(Message::new("event.alert.error.answered").with("status", response.status()))
        }
    }
}

/// What went wrong with a delivery, in the reader's words where it is one of the common
/// ends (a refused connection, an unknown host, a certificate not trusted): the client's
/// own English ("client error (Connect): tcp connect error: Connection refused (os error
/// 111)") stood in Chinese events (explorer). Anything else is its error's words.
fn failure(err: &(dyn std::error::Error + 'static)) -> Message {
    let mut cause = Some(err);
    while let Some(now) = cause {
        let io = now.downcast_ref::<std::io::Error>();
        if io.is_some_and(|io| io.kind() == std::io::ErrorKind::ConnectionRefused) {
            return Message::new("event.alert.error.refused");
        }
        let tls = tls_error(now);
        if matches!(tls, Some(rustls::Error::InvalidCertificate(_))) {
            return Message::new("event.alert.error.untrusted");
        }
        // What a server that speaks plain HTTP answers a TLS hello looks so to rustls
        // ("received corrupt message of type InvalidContentType": team explorer).
        if matches!(
            tls,
            Some(rustls::Error::InvalidMessage(
                rustls::InvalidMessage::InvalidContentType
            ))
        ) {
            return Message::new("event.alert.error.not_tls");
        }
        // hyper-util's connector says a failed name lookup so, its cause the resolver's.
        if now.to_string() == "dns error" {
            return Message::new("event.alert.error.unknown_host");
        }
        cause = now.source();
    }
    Message::new("event.alert.error.other").with("detail", crate::error_chain(err))
}

/// The TLS error `err` is, or holds as an I/O error's inner error, however deep: an I/O
/// error's `source` is its inner error's source, not the inner error, and hyper-rustls
/// wraps tokio-rustls' I/O error (which holds rustls') in another, so that neither a
/// refused certificate nor a plain-HTTP answer was ever found in a real failure
/// (recheck explorer: the unit test had built the error one level shallower).
fn tls_error<'a>(err: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    if let Some(tls) = err.downcast_ref::<rustls::Error>() {
        return Some(tls);
    }
    let inner = err.downcast_ref::<std::io::Error>()?.get_ref()?;
    tls_error(inner)
}

fn no_answer() -> Message {
    Message::new("event.alert.error.no_answer").with("seconds", TIMEOUT.as_secs())
}

/// The certificates of the alerts CA file.
fn extra_roots(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(Iterator::collect::<Result<Vec<_>, _>>)
        .map_err(|err| format!("cannot read the alerts CA {}: {err}", path.display()))?;
    if certs.is_empty() {
        return Err(format!(
            "the alerts CA {} holds no certificate",
            path.display()
        ));
    }
    Ok(certs)
}

/// Sends alert emails through one SMTP relay, trusting the system's roots and the
/// alerts CA as the webhooks do. Each mail is a connection of its own (no pool): one
/// try, as a webhook gets.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    /// Kept only to blank it out of a relay's answer before that is recorded.
    password: Option<String>,
    /// Mails sent at once: relays refuse a client many connections (with no second try,
    /// a burst of alerts, a catalog change failing hundreds of tasks, went unsent).
    sending: tokio::sync::Semaphore,
}

/// At most this many connections to the relay at once.
const SENDING_AT_ONCE: usize = 3;

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer")
            .field("from", &self.from)
            .finish_non_exhaustive()
    }
}

/// A mail's subject and plain-text body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Letter {
    /// The subject line.
    pub subject: String,
    /// The text.
    pub body: String,
}

/// The mail `subscription` gets when `what` happened to task `id`, in English then in
/// Chinese: the server does not know which language its owner reads. It has no link to
/// the task's page, as the server is not told the address people reach it at.
pub fn letter(id: &TaskId, subscription: &Alert, what: &Message) -> Letter {
    let text = |key: &str, lang: Lang| {
        said(key, subscription)
            .with("task", &id.0)
            .with_message("message", what.clone())
            .render(lang)
    };
    Letter {
        subject: format!(
            "{} / {}",
            text("event.alert.mail.subject", Lang::En),
            text("event.alert.mail.subject", Lang::Zh)
        ),
        body: format!(
            "{}\n\n{}\n",
            text("event.alert.mail.body", Lang::En),
            text("event.alert.mail.body", Lang::Zh)
        ),
    }
}

impl Mailer {
    /// The mailer `mail` describes, trusting the PEM certificates in `extra_ca` too;
    /// `None` when no relay is configured.
    ///
    /// # Errors
    ///
    /// When the settings cannot work: no sender, a login without a password (or a
    /// password without a login), an unreadable password file or alerts CA. The words
    /// never hold the password.
    pub fn new(mail: &Mail, extra_ca: Option<&Path>) -> Result<Option<Self>, String> {
        let Some(host) = &mail.smtp_host else {
            let set = mail.smtp_port.is_some()
                || mail.smtp_user.is_some()
                || mail.smtp_password.is_some()
                || mail.smtp_password_file.is_some()
                || mail.mail_from.is_some();
            return if set {
                Err(
                    "the mail settings need a relay: set --smtp-host (BERTH_SMTP_HOST, smtp_host)"
                        .to_owned(),
                )
            } else {
                Ok(None)
            };
        };
        let from = mail
            .mail_from
            .as_deref()
            .ok_or("alert emails need a sender: set --mail-from (BERTH_MAIL_FROM, mail_from)")?;
        let from: Mailbox = from
            .parse()
            .map_err(|err| format!("the sender {from:?} (--mail-from) is not an address: {err}"))?;
        let password = match (&mail.smtp_password, &mail.smtp_password_file) {
            (Some(_), Some(file)) => {
                return Err(format!(
                    "the relay's password is given twice: in BERTH_SMTP_PASSWORD and in {}",
                    file.display()
                ));
            }
            (Some(secret), None) => Some(secret.expose().to_owned()),
            (None, Some(file)) => {
                let text = std::fs::read_to_string(file).map_err(|err| {
                    format!(
                        "cannot read the relay's password file {}: {err}",
                        file.display()
                    )
                })?;
                // The first line: editors end a file with a newline.
                Some(text.lines().next().unwrap_or_default().to_owned())
            }
            (None, None) => None,
        };
        // "Dangerous" only in that it starts without TLS: the TLS mode is set below.
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
            .port(mail.smtp_port.unwrap_or(mail.smtp_tls.default_port()))
            .timeout(Some(TIMEOUT));
        // A login is sent as it is typed (base64): without TLS, only to this machine.
        let local = host == "localhost"
            || host
                .trim_matches(['[', ']'])
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        if mail.smtp_tls == SmtpTls::None && password.is_some() && !local {
            return Err(format!(
                "the relay's login would cross the network unencrypted to {host}: set --smtp-tls starttls or tls (a login without TLS is for a relay on this machine only)"
            ));
        }
        builder = match (&mail.smtp_user, &password) {
            (Some(user), Some(password)) => {
                builder.credentials(Credentials::new(user.clone(), password.clone()))
            }
            (None, None) => builder,
            (Some(_), None) => {
                return Err("the relay's login has no password: set BERTH_SMTP_PASSWORD or --smtp-password-file".to_owned());
            }
            (None, Some(_)) => {
                return Err("the relay's password has no login: set --smtp-user (BERTH_SMTP_USER, smtp_user)".to_owned());
            }
        };
        let tls = || {
            let mut params = TlsParameters::builder(host.clone());
            if let Some(path) = extra_ca {
                for cert in extra_roots(path)? {
                    let cert = Certificate::from_der(cert.to_vec())
                        .map_err(|err| format!("the alerts CA {}: {err}", path.display()))?;
                    params = params.add_root_certificate(cert);
                }
            }
            params
                .build_rustls()
                .map_err(|err| format!("the relay's TLS settings: {err}"))
        };
        builder = match mail.smtp_tls {
            SmtpTls::Starttls => builder.tls(Tls::Required(tls()?)),
            SmtpTls::Tls => builder.tls(Tls::Wrapper(tls()?)),
            SmtpTls::None => builder.tls(Tls::None),
        };
        Ok(Some(Mailer {
            transport: builder.build(),
            from,
            password,
            sending: tokio::sync::Semaphore::new(SENDING_AT_ONCE),
        }))
    }

    /// Mails `letter` to `to`; what went wrong, in words, when the relay did not take it.
    ///
    /// # Errors
    ///
    /// When `to` is not an address, the relay cannot be reached, does not answer in
    /// time, or refuses the login, the sender, the recipient or the mail.
    pub async fn send(&self, to: &str, letter: &Letter) -> Result<(), Message> {
        let other = |detail: String| Message::new("event.alert.error.other").with("detail", detail);
        // Never closed: a turn always comes. The time to answer counts from it.
        let _turn = self.sending.acquire().await;
        let to: Mailbox = to
            .parse()
            .map_err(|err| other(format!("{to:?} is not an address: {err}")))?;
        let mail = lettre::Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(letter.subject.clone())
            .header(ContentType::TEXT_PLAIN)
            .body(letter.body.clone())
            .map_err(|err| other(err.to_string()))?;
        let sent = tokio::time::timeout(TIMEOUT, self.transport.send(mail))
            .await
            .map_err(|_| no_answer())?;
        sent.map(drop).map_err(|err| match failure(&err) {
            // lettre's words already end with its cause's: no chain, or the relay's
            // answer would be said twice.
            said if said.key == "event.alert.error.other" => other(self.blank(&err.to_string())),
            said => said,
        })
    }

    /// `text` without the password, should a relay have repeated it.
    fn blank(&self, text: &str) -> String {
        match &self.password {
            Some(password) if !password.is_empty() => text.replace(password, "(hidden)"),
            _ => text.to_owned(),
        }
    }
}

/// Alerts a server delivers at once, of all its tasks and both channels: a task with
/// many subscriptions to one event, or many tasks failing together, wait their turn
/// instead of opening a connection each at the same moment.
pub const DELIVERING_AT_ONCE: usize = 4;

/// Of those turns, the most one task, or one webhook host, holds at once: a task whose
/// subscriptions all go to a dead webhook (each call waiting out its 10 s), or a host
/// that many tasks call and that no longer answers (the mail relay counting as one),
/// leaves the other turns to the rest of the server's alerts.
pub const SHARE: usize = 2;

/// The server's turns to deliver alerts: [`DELIVERING_AT_ONCE`] in all, of which a task
/// or a host holds at most [`SHARE`].
#[derive(Debug, Default)]
pub struct Turns {
    /// Turns out, in all and by task or host.
    out: std::sync::Mutex<Out>,
    /// Told when a turn ends.
    ended: tokio::sync::Notify,
}

/// The turns out, counted.
#[derive(Debug, Default)]
struct Out {
    all: usize,
    /// By task or host, only while it has a turn out.
    by: std::collections::HashMap<String, usize>,
}

/// A delivery's turn: one of the server's, and one of its task's and its host's shares.
struct Turn {
    turns: Arc<Turns>,
    keys: Vec<String>,
}

impl Drop for Turn {
    fn drop(&mut self) {
        {
            let mut out = self.turns.out.lock().unwrap_or_else(|e| e.into_inner());
            out.all -= 1;
            for key in &self.keys {
                if let Some(n) = out.by.get_mut(key) {
                    *n -= 1;
                    if *n == 0 {
                        out.by.remove(key);
                    }
                }
            }
        }
        self.turns.ended.notify_waiters();
    }
}

impl Turns {
    /// The turn of a delivery of the alerts of `keys` (its task, its host), once one of
    /// the server's turns and each key's share are free together: taken all at once, so
    /// a delivery waiting for a dead host's share holds no turn of its task's or the
    /// server's meanwhile.
    async fn take(self: &Arc<Self>, keys: Vec<String>) -> Turn {
        loop {
            // Listening before looking: a turn that ends in between still wakes this.
            let ended = self.ended.notified();
            tokio::pin!(ended);
            ended.as_mut().enable();
            {
                let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
                let free = |key: &String| out.by.get(key).is_none_or(|&n| n < SHARE);
                if out.all < DELIVERING_AT_ONCE && keys.iter().all(free) {
                    out.all += 1;
                    for key in &keys {
                        *out.by.entry(key.clone()).or_default() += 1;
                    }
                    return Turn {
                        turns: Arc::clone(self),
                        keys,
                    };
                }
            }
            ended.await;
        }
    }
}

/// The turns [`record_delivery`] takes: one set a server.
pub fn delivering() -> Arc<Turns> {
    Arc::default()
}

/// What a delivery shares its turns with besides its task: a webhook's host and port
/// (the scheme's when the URL gives none; without the URL's login, which a key must not
/// hold), which other tasks may call too; for an email, the server's mail relay.
pub fn host_of(subscription: &Alert) -> String {
    match subscription.channel {
        shared::task::AlertChannel::Email => "the mail relay".to_owned(),
        shared::task::AlertChannel::Webhook => subscription
            .target
            .parse::<http::Uri>()
            .ok()
            .and_then(|uri| {
                let host = uri.host()?.trim_end_matches('.').to_ascii_lowercase();
                Some(format!("{host}:{}", uri.port_u16().unwrap_or(443)))
            })
            .unwrap_or_else(|| subscription.target.clone()),
    }
}

/// Runs `delivery` (an alert's webhook call or mail) in the background once it has a
/// turn of `turns` (the server's [`delivering`]; its time to answer counts from then),
/// then records it as an `alert` event of task `id`: sent, or not delivered and why.
/// Both channels record alike, as [`is_about`] reads these events to fire a threshold
/// alert once. `keep` is dropped once the record is in (or could not be made).
pub fn record_delivery(
    store: Arc<dyn TaskStore>,
    turns: Arc<Turns>,
    id: TaskId,
    subscription: &Alert,
    delivery: impl std::future::Future<Output = Result<(), Message>> + Send + 'static,
    keep: impl Send + 'static,
) {
    let (sent, failed) = (
        said("event.alert.sent", subscription),
        said("event.alert.failed", subscription),
    );
    let keys = vec![
        format!("task {}", id.0),
        format!("host {}", host_of(subscription)),
    ];
    tokio::spawn(async move {
        let turn = turns.take(keys).await;
        let done = delivery.await;
        drop(turn);
        let message = match done {
            Ok(()) => sent,
            Err(error) => failed.with_message("error", error),
        };
        let event = TaskEvent::keyed(crate::runner::now(), event_kind::ALERT, message);
        if let Err(err) = store.push_event(&id, &event).await {
            tracing::error!(task = %id, error = %crate::error_chain(&err), "cannot record an alert");
        }
        drop(keep);
    });
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
        .with_arg("event", event_name(subscription))
        .with("target", subscription.target.clone());
    match threshold(subscription) {
        Some(threshold) => said.with("threshold", threshold),
        None => said,
    }
}

/// The subscription's threshold, if its event takes one: on another event it is ignored
/// (`advanced.alerts.threshold.unused`, a warning), in its alerts as in when they fire.
pub fn threshold(subscription: &Alert) -> Option<u32> {
    subscription
        .threshold
        .filter(|_| subscription.event.needs_threshold())
}

/// The subscription's event as its alert names it: a threshold's with its number
/// ("queued for more than 30 minutes"), so two subscriptions at different thresholds
/// read apart; the others by the form's option.
fn event_name(subscription: &Alert) -> Arg {
    if subscription.event.needs_threshold() {
        return Arg::Message(overdue(subscription));
    }
    option_name(subscription.event)
}

/// The form's option for `event`; a threshold's says "N", which is how alerts named
/// their event before they gave the number (and how events stored then still read).
fn option_name(event: AlertEvent) -> Arg {
    Arg::Message(Message::new(format!(
        "ui.form.option.alert_event.{}",
        wire(event)
    )))
}

/// Whether an `alert` event's message is about `subscription` (its event, target and
/// threshold).
pub fn is_about(message: Option<&Message>, subscription: &Alert) -> bool {
    message.is_some_and(|m| {
        let event = m.args.get("event");
        (event == Some(&event_name(subscription))
            || event == Some(&option_name(subscription.event)))
            && m.args.get("target") == Some(&Arg::Text(subscription.target.clone()))
            && m.args.get("threshold")
                == threshold(subscription)
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

/// When the stay a threshold subscription watches began, if the task is in its phase
/// now and has been longer than the threshold at `now`; `None` for the other events.
/// An alert of the subscription recorded since then has fired for this stay.
///
/// Queued counts from the task's last entry into the queue: a retry queues it afresh.
/// Running counts the attempt's time running, from its first start: a Kueue eviction
/// sends the attempt back to scheduling and, re-admitted, it runs on as the same
/// attempt, so the count neither starts again (nor an alert sent before fires again)
/// nor counts the wait for re-admission, which is not running. A retry is a new attempt
/// (it goes through the queue), counted afresh.
pub fn due(subscription: &Alert, task: &Task, now: Timestamp) -> Option<Timestamp> {
    let (phase, unit_ms) = match subscription.event {
        AlertEvent::QueuedLongerThan => (TaskPhase::Queued, 60_000),
        AlertEvent::RunningLongerThan => (TaskPhase::Running, 3_600_000),
        _ => return None,
    };
    if task.phase != phase {
        return None;
    }
    let threshold = i64::from(subscription.threshold?) * unit_ms;
    // The steps since the stay began: the last entry into the queue, and for running
    // the attempt that followed it.
    let start = task
        .history
        .iter()
        .rposition(|step| matches!(step.phase, TaskPhase::Queued | TaskPhase::Retrying))
        .unwrap_or(0);
    let steps = &task.history[start..];
    let since = steps.iter().find(|step| step.phase == phase)?.at;
    let ends = steps.iter().skip(1).map(|step| step.at).chain([now]);
    let stayed: i64 = steps
        .iter()
        .zip(ends)
        .filter(|(step, _)| step.phase == phase)
        .map(|(step, end)| end.0 - step.at.0)
        .sum();
    (stayed > threshold).then_some(since)
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

    /// A Kueue eviction sends a running attempt back to scheduling, and re-admitted it
    /// runs on as the same attempt (README, Kubernetes "Status"): its running stays add
    /// up from its first start, so an alert sent before the eviction is found (its time
    /// is after the stay's start) and the wait for re-admission is not counted.
    #[test]
    fn running_longer_counts_the_attempts_time_running_across_an_eviction() {
        let running = subscription(AlertEvent::RunningLongerThan, 2);
        let evicted = task(&[
            (TaskPhase::Queued, 0),
            (TaskPhase::Scheduling, 0),
            (TaskPhase::Running, HOUR),
            (TaskPhase::Scheduling, 2 * HOUR),
        ]);
        assert_eq!(due(&running, &evicted, Timestamp(10 * HOUR)), None);
        let again = task(&[
            (TaskPhase::Queued, 0),
            (TaskPhase::Scheduling, 0),
            (TaskPhase::Running, HOUR),
            (TaskPhase::Scheduling, 2 * HOUR),
            (TaskPhase::Running, 5 * HOUR),
        ]);
        // An hour before the eviction and an hour since: not longer yet.
        assert_eq!(due(&running, &again, Timestamp(6 * HOUR)), None);
        assert_eq!(
            due(&running, &again, Timestamp(6 * HOUR + 1)),
            Some(Timestamp(HOUR))
        );
        // A retry is another attempt: counted afresh from its start.
        let retried = task(&[
            (TaskPhase::Queued, 0),
            (TaskPhase::Scheduling, 0),
            (TaskPhase::Running, 0),
            (TaskPhase::Retrying, 3 * HOUR),
            (TaskPhase::Queued, 3 * HOUR),
            (TaskPhase::Scheduling, 4 * HOUR),
            (TaskPhase::Running, 4 * HOUR),
        ]);
        assert_eq!(due(&running, &retried, Timestamp(6 * HOUR)), None);
        assert_eq!(
            due(&running, &retried, Timestamp(6 * HOUR + 1)),
            Some(Timestamp(4 * HOUR))
        );
    }
}

#[cfg(test)]
mod mail {
    use super::*;
    use crate::config::Secret;
    use shared::task::AlertChannel;

    pub(super) fn to_bob(event: AlertEvent, threshold: Option<u32>) -> Alert {
        Alert {
            event,
            threshold,
            channel: AlertChannel::Email,
            target: "bob@example.com".into(),
        }
    }

    #[test]
    fn a_mail_names_the_task_the_event_and_what_happened_in_english_and_chinese() {
        let id = TaskId("train-ab12c".into());
        let failed =
            Message::new("event.failed").with("reason", "replica 0 ended with exit code 3");
        let mail = letter(&id, &to_bob(AlertEvent::Failed, None), &failed);
        for word in ["train-ab12c", "Failed", "任务失败"] {
            assert!(mail.subject.contains(word), "{word}: {}", mail.subject);
        }
        for word in [
            "train-ab12c",
            "Failed",
            "任务失败",
            "replica 0 ended with exit code 3",
            "bob@example.com",
        ] {
            assert!(mail.body.contains(word), "{word}: {}", mail.body);
        }
        // What happened is in each language's words where Berth has them.
        let overdue = overdue(&to_bob(AlertEvent::RunningLongerThan, Some(2)));
        let mail = letter(
            &id,
            &to_bob(AlertEvent::RunningLongerThan, Some(2)),
            &overdue,
        );
        assert!(
            mail.body.contains("running for more than 2 hours"),
            "{}",
            mail.body
        );
        assert!(mail.body.contains("运行超过 2 小时"), "{}", mail.body);
        assert!(!mail.subject.contains('\n'), "{}", mail.subject);
    }

    fn relay() -> Mail {
        Mail {
            smtp_host: Some("relay.example.com".into()),
            mail_from: Some("Berth <berth@example.com>".into()),
            ..Mail::default()
        }
    }

    /// A burst of alerts reaches the relay a few connections at a time, as relays allow
    /// a client, not all at once.
    #[tokio::test]
    async fn a_burst_of_mails_opens_a_few_connections_at_a_time() {
        // A relay that takes connections and never greets: each send holds its own.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let port = listener.local_addr().expect("an address").port();
        let accepted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = Arc::clone(&accepted);
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((tcp, _)) = listener.accept().await {
                counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                held.push(tcp);
            }
        });
        let mail = Mail {
            smtp_host: Some("127.0.0.1".into()),
            smtp_port: Some(port),
            smtp_tls: SmtpTls::None,
            ..relay()
        };
        let mailer = Arc::new(
            Mailer::new(&mail, None)
                .expect("settings that work")
                .expect("a relay"),
        );
        let letter = Letter {
            subject: "s".into(),
            body: "b".into(),
        };
        let sends: Vec<_> = (0..8)
            .map(|_| {
                let (mailer, letter) = (Arc::clone(&mailer), letter.clone());
                tokio::spawn(async move { mailer.send("bob@example.com", &letter).await })
            })
            .collect();
        let count = || accepted.load(std::sync::atomic::Ordering::SeqCst);
        for _ in 0..100 {
            if count() >= SENDING_AT_ONCE {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Time for any more to come, were they let through.
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(count(), SENDING_AT_ONCE);
        for send in sends {
            send.abort();
        }
    }

    #[test]
    fn no_relay_means_no_mailer_and_a_relay_makes_one() {
        assert!(matches!(Mailer::new(&Mail::default(), None), Ok(None)));
        let login = Mail {
            smtp_user: Some("berth".into()),
            smtp_password: Some(Secret::new("hunter2-of-the-relay")),
            ..relay()
        };
        for (tls, host) in [
            (SmtpTls::Starttls, "relay.example.com"),
            (SmtpTls::Tls, "relay.example.com"),
            (SmtpTls::None, "127.0.0.1"),
            (SmtpTls::None, "localhost"),
        ] {
            let mail = Mail {
                smtp_tls: tls,
                smtp_host: Some(host.into()),
                ..login.clone()
            };
            let mailer = Mailer::new(&mail, None).expect("settings that work");
            let printed = format!("{mailer:?}");
            assert!(mailer.is_some(), "{tls:?}");
            assert!(!printed.contains("hunter2"), "{printed}");
        }
    }

    #[test]
    fn mail_settings_that_cannot_work_are_refused_without_showing_the_password() {
        const PASSWORD: &str = "hunter2-of-the-relay";
        let secret = Some(Secret::new(PASSWORD));
        let missing = std::env::temp_dir().join("berth-no-such-password-file");
        let cases = [
            (
                Mail {
                    smtp_host: None,
                    ..relay()
                },
                "--smtp-host",
            ),
            (
                Mail {
                    mail_from: None,
                    ..relay()
                },
                "--mail-from",
            ),
            (
                Mail {
                    mail_from: Some("not an address".into()),
                    ..relay()
                },
                "not an address",
            ),
            (
                Mail {
                    smtp_user: Some("berth".into()),
                    ..relay()
                },
                "has no password",
            ),
            (
                Mail {
                    smtp_password: secret.clone(),
                    ..relay()
                },
                "--smtp-user",
            ),
            (
                Mail {
                    smtp_user: Some("berth".into()),
                    smtp_password: secret.clone(),
                    smtp_password_file: Some(missing.clone()),
                    ..relay()
                },
                "given twice",
            ),
            (
                Mail {
                    smtp_user: Some("berth".into()),
                    smtp_password_file: Some(missing.clone()),
                    ..relay()
                },
                "berth-no-such-password-file",
            ),
            (
                Mail {
                    smtp_user: Some("berth".into()),
                    smtp_password: secret.clone(),
                    smtp_tls: SmtpTls::None,
                    ..relay()
                },
                "unencrypted to relay.example.com",
            ),
        ];
        for (mail, says) in cases {
            let refused = Mailer::new(&mail, None).expect_err("refused");
            assert!(refused.contains(says), "{says}: {refused}");
            assert!(!refused.contains(PASSWORD), "{refused}");
        }
    }
}

#[cfg(test)]
mod dedupe {
    use super::*;
    use shared::task::AlertChannel;

    /// A threshold on an event that takes none is ignored (README, Alerts): its alerts
    /// neither carry it nor are told apart by it.
    #[test]
    fn a_threshold_on_an_event_that_takes_none_is_ignored_in_its_alert() {
        let failed = |threshold| Alert {
            event: AlertEvent::Failed,
            threshold,
            channel: AlertChannel::Webhook,
            target: "https://hooks.example.com".into(),
        };
        let said = said("event.alert.sent", &failed(Some(5)));
        assert_eq!(said, super::said("event.alert.sent", &failed(None)));
        assert!(!said.args.contains_key("threshold"), "{said:?}");
        assert!(is_about(Some(&said), &failed(Some(7))));
        assert_eq!(threshold(&failed(Some(5))), None);
        let queued = Alert {
            event: AlertEvent::QueuedLongerThan,
            ..failed(Some(5))
        };
        assert_eq!(threshold(&queued), Some(5));
    }

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
        // The event read names its threshold: "N" could not tell the two apart.
        assert_eq!(
            sent.render(shared::Lang::En),
            "\"queued for more than 10 minutes\" sent to https://hooks.example.com"
        );
        assert_eq!(
            said("event.alert.sent", &at(1)).render(shared::Lang::Zh),
            "“排队超过 1 分钟”已发送至 https://hooks.example.com"
        );
        // One recorded before alerts named the number still counts as sent, so an
        // upgrade sends nothing twice.
        let before = Message::new("event.alert.sent")
            .with_arg("event", option_name(AlertEvent::QueuedLongerThan))
            .with("target", "https://hooks.example.com")
            .with("threshold", 10);
        assert!(is_about(Some(&before), &at(10)));
        assert!(!is_about(Some(&before), &at(60)));
    }
}

#[cfg(test)]
mod turns {
    use super::*;
    use shared::task::AlertChannel;

    /// A delivery's common failures are said in the reader's words, not the client's
    /// English (explorer: "tcp connect error: Connection refused (os error 111)" in a
    /// Chinese page); others keep their error's words.
    #[test]
    fn a_deliverys_failure_is_said_in_plain_words_in_either_language() {
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let untrusted = std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer),
        );
        let other = std::io::Error::other("the relay hung up");
        let said = |err: &std::io::Error, lang| failure(err).render(lang);
        let plain_http = std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType),
        );
        assert_eq!(
            said(&plain_http, Lang::En),
            "it answers in plain HTTP at that address and port, not HTTPS: give the port \
             where it takes HTTPS"
        );
        assert_eq!(
            said(&plain_http, Lang::Zh),
            "该地址和端口以普通 HTTP 应答，而非 HTTPS：请改用接受 HTTPS 的端口"
        );
        assert_eq!(
            said(&refused, Lang::En),
            "the connection was refused: nothing takes connections at that address and port"
        );
        assert_eq!(
            said(&refused, Lang::Zh),
            "连接被拒绝：该地址和端口上没有服务接受连接"
        );
        assert_eq!(
            said(&untrusted, Lang::Zh),
            "其证书不受本服务器信任：公司自有的 CA 请配置在 alerts_ca 中"
        );
        assert_eq!(said(&other, Lang::Zh), "the relay hung up");
        let failed = super::said(
            "event.alert.failed",
            &super::mail::to_bob(AlertEvent::Failed, None),
        )
        .with_message("error", failure(&refused));
        assert_eq!(
            failed.render(Lang::Zh),
            "“任务失败”未能送达 bob@example.com：连接被拒绝：该地址和端口上没有服务接受连接"
        );
    }

    /// One webhook host is one share, however its URL writes it; a login is no part of
    /// its key; every email shares the relay's.
    #[test]
    fn a_webhooks_host_is_its_name_and_port() {
        let hook = |target: &str| {
            host_of(&Alert {
                event: AlertEvent::Failed,
                threshold: None,
                channel: AlertChannel::Webhook,
                target: target.into(),
            })
        };
        for same in [
            "https://hooks.example.com/a",
            "https://Hooks.Example.com:443/b?c=d",
            "https://hooks.example.com./e",
            "https://user:secret@hooks.example.com/f",
        ] {
            assert_eq!(hook(same), "hooks.example.com:443", "{same}");
        }
        assert_eq!(
            hook("https://hooks.example.com:8443/"),
            "hooks.example.com:8443"
        );
        assert_eq!(hook("https://[::1]:9/"), "[::1]:9");
        let mail = |target: &str| {
            host_of(&Alert {
                event: AlertEvent::Failed,
                threshold: None,
                channel: AlertChannel::Email,
                target: target.into(),
            })
        };
        assert_eq!(mail("a@example.com"), mail("b@example.org"));
    }

    /// A delivery takes its turn only when its task's and its host's shares and one of
    /// the server's turns are free together, and holds none while it waits: another of
    /// its task's alerts, to a host with room, goes ahead of those waiting for a full
    /// host. Every count is gone once the turns end.
    #[tokio::test]
    async fn a_turn_waiting_for_its_host_holds_nothing_of_its_tasks() {
        let turns = delivering();
        let keys = |task: &str, host: &str| vec![format!("task {task}"), format!("host {host}")];
        let dead = [
            turns.take(keys("a", "dead")).await,
            turns.take(keys("b", "dead")).await,
        ];
        // Task c's two alerts to the full host wait, holding nothing.
        let waiting: Vec<_> = (0..2)
            .map(|_| {
                let (turns, keys) = (Arc::clone(&turns), keys("c", "dead"));
                tokio::spawn(async move { turns.take(keys).await })
            })
            .collect();
        tokio::task::yield_now().await;
        let live = tokio::time::timeout(Duration::from_secs(5), turns.take(keys("c", "live")))
            .await
            .expect("task c's alert to a live host is not held back by its others");
        // The server's four turns: two out for the dead host, one for the live one.
        let another = tokio::time::timeout(Duration::from_secs(5), turns.take(keys("d", "other")))
            .await
            .expect("a fourth turn");
        let fifth = turns.take(keys("e", "more"));
        tokio::pin!(fifth);
        assert!(
            tokio::time::timeout(Duration::from_millis(100), fifth.as_mut())
                .await
                .is_err(),
            "no fifth turn"
        );
        drop(dead);
        drop((live, another));
        let rest: Vec<Turn> = futures_util::future::join_all(waiting)
            .await
            .into_iter()
            .map(|t| t.expect("taken"))
            .collect();
        let fifth = fifth.await;
        drop((rest, fifth));
        let out = turns.out.lock().expect("not poisoned");
        assert_eq!(out.all, 0);
        assert!(out.by.is_empty(), "{:?}", out.by);
    }
}
