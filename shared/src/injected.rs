//! The environment the platform injects into every pod (SPEC.md section 8).
//!
//! The local backend sets exactly these; the validator warns when a user's variable
//! collides with one of them, because the platform's value wins.

use crate::task::TaskType;

/// Port the master (or Ray head) listens on for the distributed rendezvous; the
/// training operator's default.
pub const MASTER_PORT: u32 = 23456;

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
/// Besides [`PYTORCH_DISTRIBUTED`] and [`CONTEXT`]: the training operator adds
/// `PYTHONUNBUFFERED` and `PET_*`, KubeRay adds `RAY_*` (k8s/RULES.md section 3.3).
pub fn is_injected(name: &str, task_type: Option<TaskType>) -> bool {
    if CONTEXT.contains(&name) || name == "PYTHONUNBUFFERED" {
        return true;
    }
    match task_type {
        Some(TaskType::PyTorchJob) => {
            PYTORCH_DISTRIBUTED.contains(&name) || name.starts_with("PET_")
        }
        Some(TaskType::RayJob) => name.starts_with("RAY_"),
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
    }
}
