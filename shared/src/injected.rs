//! The environment the platform injects into every pod (SPEC.md section 8).
//!
//! The local backend sets exactly these; the validator warns when a user's variable
//! collides with one of them, because the platform's value wins.

use crate::catalog::User;
use crate::task::{TaskSpec, TaskType};

/// Port the master (or Ray head) listens on for the distributed rendezvous; the
/// training operator's default.
pub const MASTER_PORT: u32 = 23456;

/// Ports Ray itself listens on in every RayJob pod: GCS, dashboard, client, metrics
/// export and dashboard agent (SPEC.md section 5).
pub const RAY_PORTS: [u32; 5] = [6379, 8265, 10001, 8080, 52365];

/// PyTorch distributed variables, set per replica.
pub const PYTORCH_DISTRIBUTED: [&str; 4] = ["MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK"];

/// Context variables set for every task type.
pub const CONTEXT: [&str; 6] = [
    "X_USER_NAME",
    "X_ORG_NAME",
    "X_TENANT_ID",
    "X_REGION",
    "X_CLUSTER",
    "TASK_UUID",
];

/// Whether the platform (or its operator) sets `name` for this task type.
///
/// [`CONTEXT`] for both types. PyTorchJob: [`PYTORCH_DISTRIBUTED`], and the training
/// operator's `PET_*` and `PYTHONUNBUFFERED`. RayJob: KubeRay's `RAY_*` and
/// `KUBERAY_GEN_RAY_START_CMD` (k8s/RULES.md section 3.3). KubeRay sets
/// `PYTHONUNBUFFERED` only on the submitter pod, which runs `ray job submit` and not the
/// user's environment, so in a RayJob the user's value holds where the code runs.
pub fn is_injected(name: &str, task_type: Option<TaskType>) -> bool {
    if CONTEXT.contains(&name) {
        return true;
    }
    match task_type {
        Some(TaskType::PyTorchJob) => {
            PYTORCH_DISTRIBUTED.contains(&name)
                || name.starts_with("PET_")
                || name == "PYTHONUNBUFFERED"
        }
        Some(TaskType::RayJob) => name.starts_with("RAY_") || name == "KUBERAY_GEN_RAY_START_CMD",
        None => false,
    }
}

/// Where one pod sits in its gang, for the variables that differ per pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pod<'a> {
    /// This replica's index: the master (or head) 0, worker i is i + 1.
    pub rank: u64,
    /// Machines in the gang (SPEC.md section 8: replicas, not processes).
    pub world_size: u64,
    /// Where the master (or Ray head) listens.
    pub master_addr: &'a str,
    /// Its rendezvous port.
    pub master_port: u32,
}

/// Who runs the task and where: the context variables every pod gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context<'a> {
    /// The submitter.
    pub user: &'a User,
    /// The task's id, as `TASK_UUID`.
    pub task: &'a str,
}

/// One variable of a task's environment: name, value, and whether the value is hidden.
pub type Var = (String, String, bool);

/// The variables every pod of a task gets, in the order they are applied: `TZ` from the
/// task's time zone, the user's persistent env vars, then the task's own (this task's
/// value wins, SPEC.md section 3), then the context the platform injects (the
/// platform's value wins, section 8). One entry per name, in first-set order.
///
/// Both what the local backend runs ([`pod_env`]) and the rendered pods
/// (`manifest::pod::env`) are this, so the two cannot disagree on which value wins.
pub fn layered<'p>(
    spec: &TaskSpec,
    context: Context<'_>,
    persistent: impl IntoIterator<Item = (&'p str, &'p str, bool)>,
) -> Vec<Var> {
    let mut vars: Vec<Var> = Vec::new();
    let mut set =
        |name: &str, value: &str, hidden: bool| match vars.iter_mut().find(|(n, _, _)| n == name) {
            Some(entry) => {
                entry.1 = value.to_owned();
                entry.2 = hidden;
            }
            None => vars.push((name.to_owned(), value.to_owned(), hidden)),
        };
    // The zone the task's logs and times are in (SPEC.md section 2); a var of the
    // task's own may still set it.
    if !spec.basic.time_zone.is_empty() {
        set("TZ", &spec.basic.time_zone, false);
    }
    for (name, value, hidden) in persistent {
        set(name, value, hidden);
    }
    for var in &spec.environment.env {
        set(&var.name, &var.value, var.hidden);
    }
    let user = context.user;
    let values = [
        user.name.as_str(),
        user.org.as_str(),
        user.tenant_id.as_str(),
        spec.basic.region.as_str(),
        spec.basic.cluster.as_str(),
        context.task,
    ];
    for (name, value) in CONTEXT.iter().zip(values) {
        set(name, value, false);
    }
    vars
}

/// The whole environment of one pod on the local backend: [`layered`], then the
/// variables the training operator would set per replica for a PyTorchJob. One entry
/// per name.
///
/// `persistent` and the spec's env carry real values: hidden ones included, since the
/// pod needs them. Never log the result.
pub fn pod_env<'p>(
    spec: &TaskSpec,
    context: Context<'_>,
    persistent: impl IntoIterator<Item = (&'p str, &'p str)>,
    pod: Pod<'_>,
) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = layered(
        spec,
        context,
        persistent.into_iter().map(|(n, v)| (n, v, false)),
    )
    .into_iter()
    .map(|(name, value, _)| (name, value))
    .collect();
    if spec.task_type() == Some(TaskType::PyTorchJob) {
        let mut set = |name: &str, value: String| match env.iter_mut().find(|(n, _)| n == name) {
            Some(entry) => entry.1 = value,
            None => env.push((name.to_owned(), value)),
        };
        // As the operator sets them (k8s/RULES.md 7.2), the `PET_*` ones too: torchrun
        // reads them as its flags' defaults, so a user's `PET_NNODES` would make a run
        // here unlike one on the cluster, which the form's warning says it replaces.
        for (names, value) in [
            (
                ["MASTER_ADDR", "PET_MASTER_ADDR"],
                pod.master_addr.to_owned(),
            ),
            (
                ["MASTER_PORT", "PET_MASTER_PORT"],
                pod.master_port.to_string(),
            ),
            (["WORLD_SIZE", "PET_NNODES"], pod.world_size.to_string()),
            (["RANK", "PET_NODE_RANK"], pod.rank.to_string()),
        ] {
            for name in names {
                set(name, value.clone());
            }
        }
        // Berth leaves `nprocPerNode` unset, which the operator defaults to `auto`.
        set("PET_NPROC_PER_NODE", "auto".to_owned());
        set("PYTHONUNBUFFERED", "1".to_owned());
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_platform_wins_over_the_task_and_the_task_over_persistent_vars() {
        let spec = crate::parse_spec(
            r#"{"basic": {"task_type": "pytorch_job", "region": "r", "cluster": "c",
                          "time_zone": "Asia/Shanghai"},
                "environment": {"env": [
                    {"name": "HF_HOME", "value": "/task"},
                    {"name": "RANK", "value": "99"},
                    {"name": "PET_NNODES", "value": "9"},
                    {"name": "SECRET", "value": "s3cret", "hidden": true}]}}"#,
        )
        .expect("parses");
        let user = User {
            name: "alice".into(),
            org: "Acme".into(),
            tenant_id: "t".into(),
        };
        let env = pod_env(
            &spec,
            Context {
                user: &user,
                task: "job-bcdfg",
            },
            [("HF_HOME", "/persistent"), ("KEEP", "k")],
            Pod {
                rank: 2,
                world_size: 3,
                master_addr: "10.0.0.1",
                master_port: 23456,
            },
        );
        let get = |name: &str| {
            let values: Vec<&str> = env
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
                .collect();
            assert!(values.len() <= 1, "{name} is set once");
            values.first().copied()
        };
        assert_eq!(get("HF_HOME"), Some("/task"));
        assert_eq!(get("KEEP"), Some("k"));
        assert_eq!(get("RANK"), Some("2"));
        assert_eq!(get("WORLD_SIZE"), Some("3"));
        // The operator's `PET_*`, whatever the task says (RULES.md 7.2).
        assert_eq!(get("PET_NNODES"), Some("3"));
        assert_eq!(get("PET_NODE_RANK"), Some("2"));
        assert_eq!(get("PET_MASTER_ADDR"), Some("10.0.0.1"));
        assert_eq!(get("PET_MASTER_PORT"), Some("23456"));
        assert_eq!(get("PET_NPROC_PER_NODE"), Some("auto"));
        assert_eq!(get("SECRET"), Some("s3cret"));
        assert_eq!(get("TASK_UUID"), Some("job-bcdfg"));
        assert_eq!(get("X_REGION"), Some("r"));
        assert_eq!(get("X_ORG_NAME"), Some("Acme"));
        assert_eq!(get("TZ"), Some("Asia/Shanghai"));
    }

    #[test]
    fn injected_names_depend_on_the_task_type() {
        assert!(is_injected("RANK", Some(TaskType::PyTorchJob)));
        assert!(!is_injected("RANK", Some(TaskType::RayJob)));
        assert!(is_injected("RAY_ADDRESS", Some(TaskType::RayJob)));
        assert!(is_injected("TASK_UUID", Some(TaskType::RayJob)));
        assert!(!is_injected("MY_VAR", Some(TaskType::PyTorchJob)));
        assert!(is_injected("PET_NNODES", Some(TaskType::PyTorchJob)));
        assert!(!is_injected("PET_NNODES", Some(TaskType::RayJob)));
        assert!(is_injected("PYTHONUNBUFFERED", Some(TaskType::PyTorchJob)));
        assert!(!is_injected("PYTHONUNBUFFERED", Some(TaskType::RayJob)));
        assert!(is_injected(
            "KUBERAY_GEN_RAY_START_CMD",
            Some(TaskType::RayJob)
        ));
        assert!(!is_injected(
            "KUBERAY_GEN_RAY_START_CMD",
            Some(TaskType::PyTorchJob)
        ));
        assert!(!is_injected("RAY_ADDRESS", Some(TaskType::PyTorchJob)));
        assert!(is_injected("X_CLUSTER", None));
    }
}
