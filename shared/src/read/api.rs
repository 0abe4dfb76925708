//! The API's answers as the console reads them: tasks, pages of tasks, events, share
//! links, the catalog answer, the examples and an error's body with its findings.
//!
//! serde's derived readers of these were the console's largest reading code after the
//! spec's (BENCHMARKS.md, the console's bytes): one struct visitor per type, each with
//! serde_json's parser inlined. Here each takes its fields out of the one parsed value.
//! They read what the server writes (the derived `Serialize`) as the derives did:
//! unknown fields ignored (no `deny_unknown_fields`, so an older console reads a newer
//! server's answer), `#[serde(default)]` fields optional, options absent or `null`.

use super::{Json, Object, Read, ReadError};
use crate::api::{
    AttemptFailure, CatalogResponse, ErrorBody, Examples, LogReplica, MadeFrom, MadeHow,
    PhaseCounts, ReplicaQuiet, ReplicaRole, ShareLink, TaskEventView, TaskPage, TaskView,
};
use crate::path::FieldPath;
use crate::quota::{HeadPlacement, NodeShare};
use crate::record::{PhaseChange, TaskId, TaskPhase, Timestamp};
use crate::validate::{IssueCode, LocalizedIssue, Severity};
use crate::{Placement, Task};

read_enum!(TaskPhase {
    "queued" => TaskPhase::Queued,
    "scheduling" => TaskPhase::Scheduling,
    "running" => TaskPhase::Running,
    "retrying" => TaskPhase::Retrying,
    "succeeded" => TaskPhase::Succeeded,
    "failed" => TaskPhase::Failed,
    "stopped" => TaskPhase::Stopped,
    "deleted" => TaskPhase::Deleted,
});

read_enum!(Severity {
    "error" => Severity::Error,
    "warning" => Severity::Warning,
    "info" => Severity::Info,
});

impl Read for TaskId {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        String::read(value).map(TaskId)
    }
}

impl Read for Timestamp {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        i64::read(value).map(Timestamp)
    }
}

impl Read for FieldPath {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        String::read(value).map(|text| FieldPath::parse(&text))
    }
}

impl Read for PhaseChange {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let mut object = Object::loose(value)?;
        Ok(PhaseChange {
            phase: object.field("phase")?,
            at: object.field("at")?,
            reason: object.or("reason", String::new())?,
            keyed: None,
        })
    }
}

/// A struct read from an object whose other fields are ignored: each field by its own
/// name, `field = default` for one that may be absent (`#[serde(default)]`).
macro_rules! read_loose {
    ($ty:ident { $($field:ident $(= $default:expr)?),+ $(,)? }) => {
        impl Read for $ty {
            fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
                let mut object = Object::loose(value)?;
                Ok($ty { $($field: read_loose!(@field object, $field $(, $default)?)),+ })
            }
        }
    };
    (@field $object:ident, $field:ident) => {
        $object.field(stringify!($field))?
    };
    (@field $object:ident, $field:ident, $default:expr) => {
        $object.or(stringify!($field), $default)?
    };
}
pub(crate) use read_loose;

read_loose!(NodeShare { node, replicas });
read_loose!(LogReplica { replica, role });
read_enum!(ReplicaRole {
    "master" => ReplicaRole::Master,
    "worker" => ReplicaRole::Worker,
    "head" => ReplicaRole::Head,
    "submitter" => ReplicaRole::Submitter,
});
read_loose!(HeadPlacement { node, spec, need });
read_loose!(MadeFrom { task, how });
read_enum!(MadeHow {
    "resubmit" => MadeHow::Resubmit,
    "clone" => MadeHow::Clone,
});
read_loose!(Placement {
    user,
    kind,
    pool,
    index,
    spec,
    need,
    workers,
    head = None,
});
read_loose!(TaskPage { tasks, next = None });
read_loose!(PhaseCounts {
    queued = 0,
    scheduling = 0,
    running = 0,
    retrying = 0,
    succeeded = 0,
    failed = 0,
    stopped = 0,
});
read_loose!(TaskEventView { at, kind, message });
read_loose!(ReplicaQuiet {
    replica,
    secs,
    empty = false,
});
read_loose!(AttemptFailure { attempt, replica });
read_loose!(ShareLink {
    token,
    path,
    link,
    created_at,
    created_by,
});
#[cfg(feature = "queue")]
mod held {
    use super::{Json, Object, Read, ReadError};
    use crate::quota::{HeadRoom, HeldRoom};
    read_loose!(HeadRoom { node, capacity });
    read_loose!(HeldRoom {
        pool,
        priority = None,
        workers = Vec::new(),
        heads = Vec::new(),
        head = None,
    });
    deserialize_by_reading!(HeldRoom, HeadRoom);
}
#[cfg(feature = "queue")]
read_loose!(CatalogResponse {
    user,
    catalog,
    usage = crate::Usage::default(),
    outside = crate::Usage::default(),
    held = Vec::new(),
    ray_clusters = true,
    email_alerts = true,
});
#[cfg(not(feature = "queue"))]
read_loose!(CatalogResponse {
    user,
    catalog,
    usage = crate::Usage::default(),
    outside = crate::Usage::default(),
    ray_clusters = true,
    email_alerts = true,
});
read_loose!(Examples { pytorch, ray });

/// A task: its record's fields flattened beside the view's, as the server writes it.
impl Read for TaskView {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let mut object = Object::loose(value)?;
        Ok(TaskView {
            task: Task {
                id: object.field("id")?,
                owner: object.field("owner")?,
                spec: object.field("spec")?,
                phase: object.field("phase")?,
                attempts: object.field("attempts")?,
                created_at: object.field("created_at")?,
                updated_at: object.field("updated_at")?,
                history: object.field("history")?,
            },
            tags: object.field("tags")?,
            placement: object.or("placement", None)?,
            reason: object.or("reason", None)?,
            retry_at: object.or("retry_at", None)?,
            logs: object.or("logs", Vec::new())?,
            stopping_since: object.or("stopping_since", None)?,
            failed_replica: object.or("failed_replica", None)?,
            waits_behind: object.or("waits_behind", None)?,
            made_from: object.or("made_from", None)?,
            reruns: object.or("reruns", 0)?,
            retries_used: object.or("retries_used", 0)?,
            last_never_ran: object.or("last_never_ran", false)?,
            quiet: object.or("quiet", Vec::new())?,
            attempt_failures: object.or("attempt_failures", Vec::new())?,
            failing: object.or("failing", None)?,
            queue_ahead: object.or("queue_ahead", None)?,
            room_kept: object.or("room_kept", false)?,
        })
    }
}

/// A finding as the API sends it: `code` and `params` side by side with the finding's
/// fields, the code's fields taken out of `params` (`IssueCode::read_wire`).
impl Read for LocalizedIssue {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let mut object = Object::loose(value)?;
        let path = object.field("path")?;
        let name: String = object.field("code")?;
        let code = IssueCode::read_wire(&name, object.take("params"))?;
        Ok(LocalizedIssue {
            path,
            code,
            severity: object.field("severity")?,
            message: object.field("message")?,
        })
    }
}

impl Read for ErrorBody {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let mut object = Object::loose(value)?;
        Ok(ErrorBody {
            kind: object.or("type", "about:blank".to_owned())?,
            title: object.or("title", String::new())?,
            status: object.or("status", 0)?,
            detail: object.field("detail")?,
            code: object.field("code")?,
            issues: object.or("issues", Vec::new())?,
            truncated: object.or("truncated", 0)?,
            line: object.or("line", None)?,
            column: object.or("column", None)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::from_json;
    use crate::resources::Resources;
    use crate::task::Tag;
    use crate::vocab::ResourceKind;
    use crate::{TaskSpec, parse_spec};
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use std::fmt::Debug;

    const PYTORCH: &str = include_str!("../../examples/pytorch.json");
    const RAY: &str = include_str!("../../examples/ray.json");

    /// Reads `json` here and through the derived `Deserialize` (the oracle: what the
    /// console read before), and holds the two equal.
    fn same<T: Read + DeserializeOwned + PartialEq + Debug>(json: &str) -> T {
        let derived: T = serde_json::from_str(json).expect("the derive reads it");
        let read: T = from_json(json).expect("this reader reads it");
        assert_eq!(read, derived, "{json}");
        read
    }

    /// `value` as the server writes it reads back whole.
    fn round_trip<T: Read + Serialize + PartialEq + Debug>(value: &T) {
        let json = serde_json::to_string(value).expect("writes");
        let read: T = from_json(&json).expect("reads back");
        assert_eq!(&read, value, "{json}");
    }

    fn spec(text: &str) -> TaskSpec {
        parse_spec(text).expect("the example reads")
    }

    fn task(spec: TaskSpec, placement: Option<Placement>) -> TaskView {
        let logs = crate::api::log_replicas(&spec, true);
        let placement_some = placement.is_some();
        let change = |phase, at, reason: &str| PhaseChange {
            phase,
            at: Timestamp(at),
            reason: reason.to_owned(),
            keyed: None,
        };
        TaskView {
            task: Task {
                id: TaskId("t-0001".to_owned()),
                owner: "alice".to_owned(),
                spec,
                phase: TaskPhase::Running,
                attempts: 2,
                created_at: Timestamp(1_764_000_000_000),
                updated_at: Timestamp(1_764_000_360_000),
                history: vec![
                    change(TaskPhase::Queued, 1_764_000_000_000, ""),
                    change(TaskPhase::Retrying, 1_764_000_100_000, "exit code 137"),
                    change(TaskPhase::Running, 1_764_000_360_000, ""),
                ],
            },
            tags: vec![Tag {
                key: "team".to_owned(),
                value: "vision".to_owned(),
            }],
            // One with a stop under way, one without: both read back.
            stopping_since: placement.as_ref().map(|_| Timestamp(1_764_000_400_000)),
            failed_replica: placement.as_ref().map(|_| 1),
            waits_behind: placement
                .is_none()
                .then(|| crate::TaskId("big-abcde".to_owned())),
            // Either way a task is made from another reads back.
            made_from: Some(MadeFrom {
                task: crate::TaskId("t-0000".to_owned()),
                how: if placement.is_some() {
                    MadeHow::Clone
                } else {
                    MadeHow::Resubmit
                },
            }),
            // One waiting out a retry's backoff, one not: both read back.
            retry_at: placement.is_none().then_some(Timestamp(1_764_000_500_000)),
            placement,
            reason: Some("waiting for 2 GPUs".to_owned()),
            logs,
            // One re-run after a server stop, and none: both read back.
            reruns: u32::from(placement_some),
            retries_used: 2,
            last_never_ran: placement_some,
            // A quiet replica, and none: both read back.
            quiet: if placement_some {
                vec![crate::api::ReplicaQuiet {
                    replica: 0,
                    secs: 75,
                    empty: true,
                }]
            } else {
                Vec::new()
            },
            attempt_failures: vec![crate::api::AttemptFailure {
                attempt: 1,
                replica: 1,
            }],
            failing: placement_some.then(|| "replica 1 ended with exit code 1".to_owned()),
            // Queued (no placement) with some ahead; running, none.
            queue_ahead: (!placement_some).then_some(3),
            room_kept: !placement_some,
        }
    }

    fn placement(head: bool) -> Placement {
        let need = Resources {
            gpu: 1,
            vcpu: 12,
            memory_gib: 120,
        };
        Placement {
            user: "alice".to_owned(),
            kind: ResourceKind::Reserved,
            pool: "a100-pool".to_owned(),
            index: 1,
            spec: "a100-1".to_owned(),
            need,
            workers: vec![
                NodeShare {
                    node: "gpu-node-1".to_owned(),
                    replicas: 3,
                },
                NodeShare {
                    node: "idle/c1/o1/0".to_owned(),
                    replicas: 1,
                },
            ],
            head: head.then(|| HeadPlacement {
                node: "cpu-node-1".to_owned(),
                spec: "cpu-8".to_owned(),
                need,
            }),
        }
    }

    #[test]
    fn tasks_read_back_as_the_server_writes_them() {
        for (text, head) in [(PYTORCH, false), (RAY, true)] {
            let view = task(spec(text), Some(placement(head)));
            round_trip(&view);
            same::<TaskView>(&serde_json::to_string(&view).unwrap());
            round_trip(&task(spec(text), None));
        }
    }

    #[test]
    fn pages_events_links_examples_and_the_catalog_read_as_the_derives_read_them() {
        let page = TaskPage {
            tasks: vec![
                task(spec(PYTORCH), Some(placement(false))),
                task(spec(RAY), None),
            ],
            next: Some("cursor-2".to_owned()),
        };
        same::<TaskPage>(&serde_json::to_string(&page).unwrap());
        // The last page says no `next` at all.
        assert_eq!(same::<TaskPage>(r#"{"tasks": []}"#).next, None);
        same::<Vec<TaskEventView>>(
            r#"[{"at": 5, "kind": "queued", "message": "Queued"},
                {"at": 9, "kind": "exited", "message": "进程退出，退出码 1"}]"#,
        );
        same::<ShareLink>(
            r#"{"token": "s-1", "path": "/api/v1/shared/s-1", "link": 2,
                "created_at": 7, "created_by": "alice"}"#,
        );
        same::<Examples>(&format!(r#"{{"pytorch": {PYTORCH}, "ray": {RAY}}}"#));
        let catalog = include_str!("../../demo/catalog.json");
        let file: serde_json::Value = serde_json::from_str(catalog).unwrap();
        let answer = serde_json::json!({
            "user": {"name": "alice", "org": "ml", "tenant_id": "t1"},
            "catalog": file["catalog"],
            "usage": file["usage"],
            // Room kept for two tasks: one with a head of its own, one without.
            "held": [
                {"pool": "bj-a-shared", "priority": "high", "workers": ["bj-a-a100-01"],
                 "heads": [{"node": "bj-a-cpu-00", "capacity": {"gpu": 0, "vcpu": 64, "memory_gib": 256}}],
                 "head": {"gpu": 0, "vcpu": 8, "memory_gib": 32}},
                {"pool": "idle/sh-a"},
            ],
        });
        let read = same::<CatalogResponse>(&answer.to_string());
        assert!(!read.catalog.regions.is_empty());
        assert_eq!(read.held.len(), 2);
        assert_eq!(read.held[0].heads[0].node, "bj-a-cpu-00");
        assert_eq!(read.held[1].priority, None);
        round_trip(&read.held[0]);
        // Usage is optional: an answer without it has none in use.
        let mut without = answer;
        without.as_object_mut().unwrap().remove("usage");
        assert_eq!(
            same::<CatalogResponse>(&without.to_string()).usage,
            crate::Usage::default()
        );
    }

    #[test]
    fn fields_a_newer_server_adds_are_ignored() {
        let json = r#"{"token": "s-1", "path": "/p", "link": 1, "created_at": 5,
            "created_by": "alice", "expires_at": 99, "extra": {"a": [1]}}"#;
        assert_eq!(
            same::<ShareLink>(json),
            ShareLink {
                token: "s-1".to_owned(),
                path: "/p".to_owned(),
                link: 1,
                created_at: Timestamp(5),
                created_by: "alice".to_owned(),
            }
        );
        let mut view = serde_json::to_value(task(spec(PYTORCH), None)).unwrap();
        view["queue_position"] = 3.into();
        view["history"][0]["by"] = "scheduler".into();
        same::<TaskView>(&view.to_string());
    }

    #[test]
    fn an_answer_that_does_not_read_says_where_and_what() {
        let error = |json: &str| from_json::<TaskPage>(json).unwrap_err().to_string();
        let mut view = serde_json::to_value(task(spec(PYTORCH), None)).unwrap();
        view.as_object_mut().unwrap().remove("owner");
        let page = serde_json::json!({"tasks": [view]}).to_string();
        assert_eq!(error(&page), "tasks[0]: missing field `owner`");
        view["owner"] = "bob".into();
        view["phase"] = "paused".into();
        let page = serde_json::json!({"tasks": [view]}).to_string();
        assert!(
            error(&page).starts_with("tasks[0].phase: unknown variant `paused`, expected one of"),
            "{}",
            error(&page)
        );
        view["phase"] = "running".into();
        view["spec"]["compute"]["workers"] = "two".into();
        let page = serde_json::json!({"tasks": [view]}).to_string();
        assert!(
            error(&page).starts_with("tasks[0].spec.compute.workers: invalid type: a string"),
            "{}",
            error(&page)
        );
        assert_eq!(error("[]"), "invalid type: a list, expected an object");
    }

    #[test]
    fn an_error_body_reads_with_its_findings() {
        // A 422 as the server writes it: problem details with the findings in the
        // reader's language.
        let json = r#"{
            "type": "about:blank", "title": "Unprocessable Entity", "status": 422,
            "detail": "the spec has 2 errors", "code": "spec.invalid",
            "issues": [
                {"path": "basic.name_prefix", "code": "basic.name_prefix.too_long",
                 "params": {"max": 40, "len": 45}, "severity": "error", "message": "太长"},
                {"path": "basic.name_prefix", "code": "basic.name_prefix.bad_end",
                 "params": null, "severity": "error", "message": "ends badly"}
            ],
            "truncated": 3
        }"#;
        let body = same::<ErrorBody>(json);
        assert_eq!(body.issues.len(), 2);
        assert_eq!(body.issues[0].path.to_string(), "basic.name_prefix");
        // What an older server or a proxy sends: only the required fields.
        let body = same::<ErrorBody>(r#"{"detail": "no such task", "code": "task.not_found"}"#);
        assert_eq!(body.kind, "about:blank");
        assert!(body.issues.is_empty());
        // A code this console does not know is refused, not guessed.
        let unknown = r#"{"detail": "d", "code": "c", "issues": [
            {"path": "a", "code": "no.such.code", "severity": "info", "message": "m"}]}"#;
        let error = from_json::<ErrorBody>(unknown).unwrap_err().to_string();
        assert!(
            error.starts_with("issues[0].code: unknown variant `no.such.code`"),
            "{error}"
        );
    }
}
