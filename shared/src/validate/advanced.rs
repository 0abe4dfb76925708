//! Advanced option rules (SPEC.md section 5).

use super::{Cx, IssueCode, Report, field_key, field_path, require};
use crate::injected::{MASTER_PORT, RAY_PORTS};
use crate::task::{Alert, AlertChannel, TaskSpec, TaskType};

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
        let port = field_path!(TaskSpec: advanced.monitoring.port);
        if !(1..=65535).contains(&monitoring.port) {
            report.push(port, IssueCode::MonitoringPortOutOfRange);
        } else if task_type == Some(TaskType::PyTorchJob) && monitoring.port == MASTER_PORT {
            report.push(
                port,
                IssueCode::MonitoringPortIsMaster { port: MASTER_PORT },
            );
        } else if task_type == Some(TaskType::RayJob) && RAY_PORTS.contains(&monitoring.port) {
            report.push(
                port,
                IssueCode::MonitoringPortIsRay {
                    port: monitoring.port,
                },
            );
        } else if monitoring.port == 22 && advanced.ssh {
            report.push(port, IssueCode::MonitoringPortIsSsh);
        }
        if !monitoring.path.starts_with('/') {
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
    for (i, alert) in advanced.alerts.iter().enumerate() {
        let item = field_path!(TaskSpec: advanced.alerts).index(i);
        if alert.event.needs_threshold() && alert.threshold.unwrap_or(0) == 0 {
            report.push(
                item.key(field_key!(Alert: threshold)),
                IssueCode::AlertThresholdInvalid,
            );
        }
        let target = item.key(field_key!(Alert: target));
        if !require(report, &alert.target, || target.clone()) {
            continue;
        }
        match alert.channel {
            AlertChannel::Email if !email_address::EmailAddress::is_valid(&alert.target) => {
                report.push(target, IssueCode::AlertEmailInvalid)
            }
            AlertChannel::Webhook if !is_https_url(&alert.target) => {
                report.push(target, IssueCode::AlertUrlInvalid)
            }
            _ => {}
        }
    }
}

fn is_https_url(text: &str) -> bool {
    fluent_uri::Uri::parse(text).is_ok_and(|uri| {
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

    #[test]
    fn webhooks_must_be_https_with_a_host() {
        assert!(is_https_url("https://hooks.example.com/berth?x=1"));
        assert!(!is_https_url("http://hooks.example.com"));
        assert!(!is_https_url("https://"));
        assert!(!is_https_url("hooks.example.com"));
        assert!(is_https_url("https://hooks.example.com:8443/berth"));
        assert!(!is_https_url("https://hooks.example.com:99999/berth"));
    }
}
