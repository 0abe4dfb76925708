//! Advanced option rules (SPEC.md section 5).

use super::{Cx, IssueCode, Report, field_key, field_path, require};
use crate::injected::{MASTER_PORT, RAY_PORTS};
use crate::task::{Alert, AlertChannel, TaskSpec, TaskType};

/// Most alert subscriptions on one task: each event may call every one of them.
pub const MAX_ALERTS: usize = 20;

pub(super) fn check(cx: &Cx, report: &mut Report) {
    let advanced = &cx.spec.advanced;
    if advanced.fault_tolerance.enabled
        && !(1..=100).contains(&advanced.fault_tolerance.max_retries)
    {
        report.push(
            field_path!(TaskSpec: advanced.fault_tolerance.max_retries),
            IssueCode::MaxRetriesOutOfRange,
        );
    }
    let monitoring = &advanced.monitoring;
    let task_type = cx.spec.basic.task_type;
    if monitoring.enabled {
        // One push for the port's codes, as for an alert's target below.
        let port = if !(1..=65535).contains(&monitoring.port) {
            Some(IssueCode::MonitoringPortOutOfRange)
        } else if task_type == Some(TaskType::PyTorchJob) && monitoring.port == MASTER_PORT {
            Some(IssueCode::MonitoringPortIsMaster { port: MASTER_PORT })
        } else if task_type == Some(TaskType::RayJob) && RAY_PORTS.contains(&monitoring.port) {
            Some(IssueCode::MonitoringPortIsRay {
                port: monitoring.port,
            })
        } else if monitoring.port == 22 && advanced.ssh {
            Some(IssueCode::MonitoringPortIsSsh)
        } else {
            None
        };
        if let Some(code) = port {
            report.push(field_path!(TaskSpec: advanced.monitoring.port), code);
        }
        // A URL path Prometheus requests as written: a query, a fragment, a space or a
        // `%` (Prometheus escapes the path again: `%7E` is asked as `%257E`) would be
        // escaped into the path and the scrape find nothing. Past 1024 characters it is no
        // path a metrics endpoint has, and it is rendered into a pod annotation, which
        // Kubernetes refuses past 256 KiB (security exploration: 300 KB was accepted).
        if !monitoring.path.starts_with('/')
            || monitoring.path.len() > 1024
            || !monitoring
                .path
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b))
        {
            report.push(
                field_path!(TaskSpec: advanced.monitoring.path),
                IssueCode::MonitoringPathInvalid,
            );
        }
    }
    if advanced.image_pull_retries.is_some_and(|n| n < -1) {
        report.push(
            field_path!(TaskSpec: advanced.image_pull_retries),
            IssueCode::ImagePullRetriesOutOfRange,
        );
    }
    if advanced.ssh && cx.spec.replicas() == 1 {
        report.push(field_path!(TaskSpec: advanced.ssh), IssueCode::SshSinglePod);
    }
    let alerts = &advanced.alerts;
    let list = field_path!(TaskSpec: advanced.alerts);
    if alerts.len() > MAX_ALERTS {
        report.push(list.clone(), IssueCode::AlertsTooMany { max: MAX_ALERTS });
    }
    for (i, alert) in alerts.iter().enumerate() {
        let item = list.index(i);
        // SPEC section 5: only the two "longer than N" events take N; on another it
        // is ignored: a warning, as an error would refuse the resubmit of a task an
        // older client stored so. One push for both codes.
        let threshold = match (alert.event.needs_threshold(), alert.threshold) {
            (true, None | Some(0)) => Some(IssueCode::AlertThresholdInvalid),
            (false, Some(_)) => Some(IssueCode::AlertThresholdUnused),
            _ => None,
        };
        if let Some(code) = threshold {
            report.push(item.key(field_key!(Alert: threshold)), code);
        }
        let target = item.key(field_key!(Alert: target));
        if !require(report, &alert.target, || target.clone()) {
            continue;
        }
        // A target its channel refuses with a blank at an end is told so: "not an email
        // address" would not say what to fix. One the channel takes with a blank (an
        // address with its display name) stays taken.
        let refused = |code| {
            if alert.target.trim().len() != alert.target.len() {
                IssueCode::AlertTargetSpaces
            } else {
                code
            }
        };
        // One push for the five codes: each push site is code of its own in the
        // validator package (BENCHMARKS.md, its size).
        let code = match alert.channel {
            AlertChannel::Email if !email_address::EmailAddress::is_valid(&alert.target) => {
                refused(IssueCode::AlertEmailInvalid)
            }
            // Before the URL's own rule: the mask keeps a valid https site.
            AlertChannel::Webhook if alert.target_is_masked() => IssueCode::AlertTargetMasked,
            AlertChannel::Webhook if !is_https_url(&alert.target) => {
                refused(IssueCode::AlertUrlInvalid)
            }
            // A repeat of an earlier subscription, field for field: the server sends
            // it once. Within the limit only: past it the list is refused anyway, and
            // comparing each with every earlier one would cost the square of its length.
            _ if i < MAX_ALERTS && alerts[..i].contains(alert) => IssueCode::AlertDuplicate,
            _ => continue,
        };
        report.push(target, code);
    }
}

/// An https URL with a host and a port a request can use, of at most 2048 characters:
/// each alert carries it, and a URL of 900 KB was accepted (security exploration).
fn is_https_url(text: &str) -> bool {
    text.len() <= 2048
        && fluent_uri::Uri::parse(text).is_ok_and(|uri| {
            uri.scheme().as_str().eq_ignore_ascii_case("https")
            // A port past 65535 parses as digits, and no request could ever use it.
            && uri
                .authority()
                .is_some_and(|a| !a.host().is_empty() && a.port_to_u16().is_ok())
        })
}

#[cfg(test)]
mod tests {
    use super::is_https_url;
    use crate::task::{Alert, AlertChannel};

    #[test]
    fn a_webhook_still_masked_as_others_read_it_is_refused_at_its_target() {
        let hook = |target: &str| Alert {
            channel: AlertChannel::Webhook,
            target: target.into(),
            ..Alert::default()
        };
        let owner = crate::demo::pytorch().with(|s| {
            s.advanced.alerts = vec![hook("https://hooks.example.com/services/T0?token=abc")];
        });
        let findings = crate::validate::demo_findings;
        assert_eq!(findings(&owner), []);
        // The example's hidden env value is refused as well, by its own rule.
        let clone = owner.for_others();
        assert_eq!(
            findings(&clone),
            [
                ("environment.env[1].value".to_owned(), "env.value.masked"),
                (
                    "advanced.alerts[0].target".to_owned(),
                    "advanced.alerts.target.masked"
                )
            ]
        );
        assert_eq!(
            crate::IssueCode::AlertTargetMasked.severity(),
            crate::validate::Severity::Error
        );
    }

    /// SPEC section 5: only "queued longer than N minutes" and "running longer than N
    /// hours" take N. A threshold on another event is ignored: a warning at the
    /// threshold, whose message says to remove it. The events that take one keep their
    /// own rule (at least 1).
    #[test]
    fn a_threshold_on_an_event_that_takes_none_is_warned_of_at_the_threshold() {
        use crate::task::AlertEvent::*;
        use crate::validate::Severity;
        let alert = |event, threshold| Alert {
            event,
            threshold,
            target: "alice@example.com".into(),
            ..Alert::default()
        };
        let spec = crate::demo::pytorch().with(|s| {
            s.advanced.alerts = vec![
                alert(Failed, Some(5)),
                alert(Succeeded, Some(0)),
                alert(Stopped, None),
                alert(Retried, Some(1)),
                alert(QueuedLongerThan, Some(30)),
                alert(RunningLongerThan, Some(0)),
            ];
        });
        let report = crate::validate(
            &spec,
            &crate::demo::catalog(),
            &Default::default(),
            &crate::demo::user(),
        );
        let found: Vec<(String, &str, Severity)> = report
            .issues()
            .iter()
            .map(|i| (i.path.to_string(), i.code.code(), i.severity))
            .collect();
        let unused = |i: usize| {
            (
                format!("advanced.alerts[{i}].threshold"),
                "advanced.alerts.threshold.unused",
                Severity::Warning,
            )
        };
        assert_eq!(
            found,
            [
                unused(0),
                unused(1),
                unused(3),
                (
                    "advanced.alerts[5].threshold".to_owned(),
                    "advanced.alerts.threshold.invalid",
                    Severity::Error
                ),
            ]
        );
        let said = report.issues()[0].message(crate::Lang::En);
        assert!(said.contains("remove the threshold"), "{said}");
        let said = report.issues()[0].message(crate::Lang::Zh);
        assert!(said.contains("删除阈值"), "{said}");
    }

    /// At most `MAX_ALERTS` (20) subscriptions a task, an error at the list; one that
    /// repeats an earlier one field for field (event, threshold, channel, target) is a
    /// warning at the repeat's target, as the server fires it once.
    #[test]
    fn too_many_subscriptions_are_refused_and_a_repeat_is_warned_of() {
        use crate::task::AlertEvent::*;
        use crate::validate::Severity;
        let hook = |event, threshold, target: &str| Alert {
            event,
            threshold,
            channel: AlertChannel::Webhook,
            target: target.into(),
        };
        let findings = |alerts: Vec<Alert>| -> Vec<(String, &'static str, Severity)> {
            let spec = crate::demo::pytorch().with(|s| s.advanced.alerts = alerts);
            crate::validate(
                &spec,
                &crate::demo::catalog(),
                &Default::default(),
                &crate::demo::user(),
            )
            .issues()
            .iter()
            .map(|i| (i.path.to_string(), i.code.code(), i.severity))
            .collect()
        };
        let many = |n: usize| -> Vec<Alert> {
            (0..n)
                .map(|i| hook(Failed, None, &format!("https://hooks.example.com/h{i}")))
                .collect()
        };
        assert_eq!(findings(many(20)), []);
        let too_many = (
            "advanced.alerts".to_owned(),
            "advanced.alerts.too_many",
            Severity::Error,
        );
        assert_eq!(findings(many(21)), std::slice::from_ref(&too_many));
        // Ten thousand, the same: the list's finding, and a repeat for each of the
        // first 20 but the first, not for all of them.
        let same = vec![hook(Failed, None, "https://hooks.example.com/h"); 10_000];
        let found = findings(same);
        assert_eq!(found[0], too_many);
        assert_eq!(found.len(), 1 + (super::MAX_ALERTS - 1), "{found:?}");

        let (a, b) = ("https://hooks.example.com/a", "https://hooks.example.com/b");
        let email = Alert {
            channel: AlertChannel::Email,
            target: "alice@example.com".into(),
            ..hook(Failed, None, "")
        };
        let found = findings(vec![
            hook(Failed, None, a),
            email.clone(),
            hook(Failed, None, a),
            // Its threshold is ignored: the server sends it once with the first.
            hook(Failed, Some(5), a),
            hook(QueuedLongerThan, Some(10), a),
            hook(QueuedLongerThan, Some(60), a),
            hook(QueuedLongerThan, Some(10), a),
            hook(Succeeded, None, a),
            hook(Failed, None, b),
            email,
        ]);
        let repeat = |i: usize| {
            (
                format!("advanced.alerts[{i}].target"),
                "advanced.alerts.duplicate",
                Severity::Warning,
            )
        };
        assert_eq!(
            found,
            [
                repeat(2),
                // Not the first field for field: its threshold is warned of instead.
                (
                    "advanced.alerts[3].threshold".to_owned(),
                    "advanced.alerts.threshold.unused",
                    Severity::Warning
                ),
                repeat(6),
                repeat(9),
            ]
        );
        let spec = crate::demo::pytorch().with(|s| s.advanced.alerts = many(21));
        let report = crate::validate(
            &spec,
            &crate::demo::catalog(),
            &Default::default(),
            &crate::demo::user(),
        );
        let said = report.issues()[0].message(crate::Lang::En);
        assert_eq!(said, "at most 20 alert subscriptions; remove some");
        let said = report.issues()[0].message(crate::Lang::Zh);
        assert_eq!(said, "最多 20 个告警订阅，请删除多余告警订阅");
    }

    #[test]
    fn webhooks_must_be_https_with_a_host() {
        assert!(is_https_url("https://hooks.example.com/berth?x=1"));
        assert!(!is_https_url("http://hooks.example.com"));
        assert!(!is_https_url("https://"));
        assert!(!is_https_url("hooks.example.com"));
        assert!(is_https_url("https://hooks.example.com:8443/berth"));
        assert!(!is_https_url("https://hooks.example.com:99999/berth"));
        let long = |n: usize| format!("https://hooks.example.com/{}", "a".repeat(n - 26));
        assert_eq!(long(2048).len(), 2048);
        assert!(is_https_url(&long(2048)));
        assert!(!is_https_url(&long(2049)));
    }

    /// A host or path that is not ASCII is refused (the hook and the scrape go out as
    /// written), and the words say how to write it: they named only https, or spaces,
    /// `?`, `#` and `%`, which such a target does not hold (explorer).
    #[test]
    fn a_target_or_path_not_in_ascii_is_told_how_to_write_it() {
        assert!(!is_https_url("https://钉钉.中国/robot/send"));
        assert!(is_https_url("https://xn--5tza.xn--fiqs8s/robot/send"));
        let spec = crate::demo::pytorch().with(|s| {
            s.advanced.alerts = vec![crate::task::Alert {
                channel: crate::task::AlertChannel::Webhook,
                target: "https://hooks.example.com/a?x=中".into(),
                ..s.advanced.alerts[0].clone()
            }];
            s.advanced.monitoring.path = "/metrics/指标".into();
        });
        let report = crate::validate(
            &spec,
            &crate::demo::catalog(),
            &Default::default(),
            &crate::demo::user(),
        );
        let said = |code: &str, lang| {
            let issue = report.issues().iter().find(|i| i.code.code() == code);
            issue.expect(code).message(lang)
        };
        let url = said("advanced.alerts.target.url", crate::Lang::En);
        assert!(
            url.contains("in ASCII (a host as xn--…, other text %-escaped)"),
            "{url}"
        );
        let url = said("advanced.alerts.target.url", crate::Lang::Zh);
        assert!(url.contains("非 ASCII 主机名写作 xn--…"), "{url}");
        let path = said("advanced.monitoring.path.invalid", crate::Lang::En);
        assert!(path.contains("of ASCII letters, digits and"), "{path}");
        let path = said("advanced.monitoring.path.invalid", crate::Lang::Zh);
        assert!(path.contains("只能含 ASCII 字母、数字和"), "{path}");
    }
}
