//! The environment the platform injects into every pod (SPEC.md section 8).
//!
//! The local backend sets exactly these; the validator warns when a user's variable
//! collides with one of them, because the platform's value wins.

use crate::task::TaskType;

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

#[cfg(test)]
mod tests {
    use super::*;

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
