//! The words every module shares: task type, resource kind, instance type, idle
//! stability, priority and resource dimension.
//!
//! A leaf: it depends on nothing else in the crate but the message catalog, so the spec, the catalog, the quota
//! math and validation can all use it without depending on each other.

use crate::messages::{Lang, text};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The two kinds of distributed task Berth runs.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
pub enum TaskType {
    /// Kubeflow PyTorchJob: a master and workers, with the distributed env injected.
    #[serde(rename = "pytorch_job")]
    PyTorchJob,
    /// KubeRay RayJob: a head, workers and a submitter pod.
    #[serde(rename = "ray_job")]
    RayJob,
}

/// A word of the spec's vocabulary as the spec and the catalog write it (`on_demand`): a
/// label value, or a name in a message about the catalog file.
pub(crate) fn wire_name(word: &impl Serialize) -> Option<String> {
    match serde_json::to_value(word) {
        Ok(serde_json::Value::String(name)) => Some(name),
        _ => None,
    }
}

impl TaskType {
    /// Every task type, in the form's order.
    pub const ALL: [TaskType; 2] = [TaskType::PyTorchJob, TaskType::RayJob];

    /// The Kubernetes kind name, as users know it.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskType::PyTorchJob => "PyTorchJob",
            TaskType::RayJob => "RayJob",
        }
    }
}

/// How the task gets its resources [资源类型].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    /// Reserved instances, paid in advance [预留实例].
    Reserved,
    /// On-demand instances [按量实例].
    OnDemand,
    /// Spot instances: cheap, may be interrupted, no quota.
    Spot,
    /// Idle capacity: cheap, may be preempted, no quota [闲时资源].
    Idle,
}

impl ResourceKind {
    /// Whether this kind is counted against the user's quota (SPEC.md section 4).
    pub fn uses_quota(self) -> bool {
        matches!(self, ResourceKind::Reserved | ResourceKind::OnDemand)
    }
}

/// GPU or CPU instances [实例类型].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum InstanceType {
    /// Specs with accelerators.
    #[default]
    Gpu,
    /// CPU-only specs.
    Cpu,
}

/// Idle stability level [闲时稳定性等级]: how long idle capacity is expected to stay.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum IdleStability {
    /// May be reclaimed at any time.
    Low,
    /// Usually stays for hours.
    Medium,
    /// Usually stays for a day or more.
    High,
}

impl IdleStability {
    /// The levels below this one, highest first: those a task at this level could choose
    /// to start sooner. The form lists them and the scheduler's reason names the first.
    /// Walked, not sorted: a sort brought the standard library's, 4 KB of the wasm.
    pub fn lower(self) -> impl Iterator<Item = IdleStability> {
        [Self::High, Self::Medium, Self::Low]
            .into_iter()
            .filter(move |level| *level < self)
    }

    /// The key of this level's name in the message catalog.
    pub fn label_key(self) -> &'static str {
        match self {
            Self::Low => "ui.form.option.stability.low",
            Self::Medium => "ui.form.option.stability.medium",
            Self::High => "ui.form.option.stability.high",
        }
    }
}

/// Resource priority [资源优先级]; queue order is priority, then submit time.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Yields to everything else.
    Low,
    /// The default.
    Normal,
    /// Goes first in the queue.
    High,
}

/// One dimension of an amount of resources: GPUs, vCPUs or memory.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    /// Accelerators, counted as whole cards.
    Gpu,
    /// Virtual CPUs.
    Vcpu,
    /// Memory in GiB.
    MemoryGib,
}

impl Dimension {
    /// Every dimension, in the order reports list them.
    pub const ALL: [Dimension; 3] = [Dimension::Gpu, Dimension::Vcpu, Dimension::MemoryGib];

    /// The unit as users read it after `count`: "1 GPU" but "8 GPUs".
    pub fn unit_for(self, lang: Lang, count: u64) -> String {
        text(lang, self.unit_key(), &[("count", count.to_string())])
    }

    /// The unit after `count` as a message, for a [`crate::messages::Message`]'s
    /// argument.
    pub fn unit_message(self, count: u64) -> crate::messages::Message {
        crate::messages::Message::new(self.unit_key()).with("count", count)
    }

    fn unit_key(self) -> &'static str {
        match self {
            Dimension::Gpu => "unit.gpu",
            Dimension::Vcpu => "unit.vcpu",
            Dimension::MemoryGib => "unit.memory_gib",
        }
    }
}

impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dimension::Gpu => "gpu",
            Dimension::Vcpu => "vcpu",
            Dimension::MemoryGib => "memory_gib",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::IdleStability::{self, High, Low, Medium};

    #[test]
    fn the_levels_below_a_stability_come_highest_first() {
        let lower = |level: IdleStability| level.lower().collect::<Vec<_>>();
        assert_eq!(lower(High), [Medium, Low]);
        assert_eq!(lower(Medium), [Low]);
        assert_eq!(lower(Low), []);
    }

    #[test]
    fn each_stability_is_named_in_both_languages() {
        for level in [Low, Medium, High] {
            for lang in [crate::messages::Lang::En, crate::messages::Lang::Zh] {
                let said = crate::messages::text(lang, level.label_key(), &[]);
                assert_ne!(said, level.label_key(), "{level:?} has no name in {lang:?}");
            }
        }
    }
}
