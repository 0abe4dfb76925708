//! Quota arithmetic and gang-fit placement (SPEC.md section 4): pure integer math.
//!
//! [`plan`] answers "would this task start now, on what, and if not why" for a spec on a
//! catalog. [`crate::validate`] turns the same plan into findings, so the console's
//! preview and the report can never disagree.
//!
//! # Gang fit
//!
//! Every replica must be placed at once, each on one node. For identical replicas this
//! is exact and linear: node `i` hosts `k_i = min over dimensions of floor(free_i /
//! need)` replicas and the gang fits iff `Σ k_i ≥ replicas`. A Ray head with its own
//! spec is placed first: for each node `j` that can take it, `Σ k` changes only in
//! `k_j`, so trying every node stays linear.

use crate::catalog::InstanceSpec;
use crate::resources::{Dimension, Resources};
use serde::{Deserialize, Serialize};

/// Quota arithmetic failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QuotaError {
    /// A product or sum does not fit in 64 bits.
    #[error("resource demand overflows")]
    Overflow,
}

/// A module result with [`QuotaError`].
pub type Result<T, E = QuotaError> = std::result::Result<T, E>;

/// What one replica of `spec` needs with `units` units per node.
///
/// # Errors
///
/// [`QuotaError::Overflow`] when the product does not fit.
pub fn per_replica(spec: &InstanceSpec, units: u32) -> Result<Resources> {
    spec.per_unit
        .checked_mul(u64::from(units))
        .ok_or(QuotaError::Overflow)
}

/// `count` replicas that each need `need`, plus an optional head.
///
/// # Errors
///
/// [`QuotaError::Overflow`] when the total does not fit.
pub fn demand(need: Resources, count: u64, head: Option<Resources>) -> Result<Resources> {
    let workers = need.checked_mul(count).ok_or(QuotaError::Overflow)?;
    workers
        .checked_add(head.unwrap_or(Resources::ZERO))
        .ok_or(QuotaError::Overflow)
}

/// The quota left: `limit − used`, never below zero.
pub fn remaining(limit: Resources, used: Resources) -> Resources {
    limit.saturating_sub(used)
}

/// A dimension where a request is above what is left.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shortfall {
    /// The dimension.
    pub dimension: Dimension,
    /// What is asked.
    pub requested: u64,
    /// What is left.
    pub remaining: u64,
}

/// Whether `request` fits in `left`.
///
/// # Errors
///
/// Every dimension that is short, in [`Dimension::ALL`] order.
pub fn fits(request: Resources, left: Resources) -> std::result::Result<(), Vec<Shortfall>> {
    let short: Vec<Shortfall> = Dimension::ALL
        .iter()
        .filter(|&&d| request.get(d) > left.get(d))
        .map(|&d| Shortfall {
            dimension: d,
            requested: request.get(d),
            remaining: left.get(d),
        })
        .collect();
    if short.is_empty() { Ok(()) } else { Err(short) }
}

mod gang;
mod place;
mod plan;
mod reach;

pub use gang::{Fit, GangPlacement, NeverReason, QueueReason, Slot, gang_fit, gang_place};
pub(crate) use gang::{NEVER_KINDS, QUEUE_KINDS};
pub use place::{HeadPlacement, NodeShare, Placement, place, place_live, place_live_avoiding};
pub use plan::{
    Blocked, Candidate, HeadNeed, IdleInfo, Outcome, Plan, QuotaLine, name_idle_nodes, node_arg,
    node_arg_in, plan, plan_live, resolve_pool,
};
pub use reach::{Reach, nodes_for_one_pod, reach};

/// The key of the words for a task that would queue with none of Berth's tasks running
/// (`queue.outside_berth…`, their `reason` the plan's on that use): a task of a quota
/// kind waits for capacity used outside Berth; an idle task for more idle capacity to be
/// offered, its advice naming only the changes its spec can still make (explorer: fewer
/// units per node was offered at 1, and a lower stability at the lowest).
pub fn outside_berth_key(spec: &crate::TaskSpec) -> &'static str {
    use crate::task::{IdleStability, ResourceKind};
    let compute = &spec.compute;
    if compute.kind != Some(ResourceKind::Idle) {
        return "queue.outside_berth";
    }
    let lower = matches!(
        compute.idle_stability,
        Some(IdleStability::Medium | IdleStability::High)
    );
    match (compute.units_per_node > 1, lower) {
        (true, true) => "queue.outside_berth#idle",
        (true, false) => "queue.outside_berth#idle_lowest",
        (false, true) => "queue.outside_berth#idle_unit",
        (false, false) => "queue.outside_berth#idle_unit_lowest",
    }
}

#[cfg(test)]
mod tests {
    use crate::task::{IdleStability, ResourceKind};

    /// An idle task's advice offers only the changes its spec can still make: no fewer
    /// units per node than 1, no stability lower than low (or than any level).
    #[test]
    fn the_advice_for_a_wait_outside_berth_offers_only_changes_that_remain() {
        let idle = |units, stability| {
            crate::demo::pytorch().with(|s| {
                s.compute.kind = Some(ResourceKind::Idle);
                s.compute.units_per_node = units;
                s.compute.idle_stability = stability;
            })
        };
        let key = |units, stability| super::outside_berth_key(&idle(units, stability));
        assert_eq!(
            key(8, Some(IdleStability::High)),
            "queue.outside_berth#idle"
        );
        assert_eq!(
            key(8, Some(IdleStability::Medium)),
            "queue.outside_berth#idle"
        );
        assert_eq!(
            key(8, Some(IdleStability::Low)),
            "queue.outside_berth#idle_lowest"
        );
        assert_eq!(key(8, None), "queue.outside_berth#idle_lowest");
        assert_eq!(
            key(1, Some(IdleStability::Medium)),
            "queue.outside_berth#idle_unit"
        );
        assert_eq!(
            key(1, Some(IdleStability::Low)),
            "queue.outside_berth#idle_unit_lowest"
        );
        for kind in [
            ResourceKind::Reserved,
            ResourceKind::OnDemand,
            ResourceKind::Spot,
        ] {
            let spec = crate::demo::pytorch().with(|s| s.compute.kind = Some(kind));
            assert_eq!(super::outside_berth_key(&spec), "queue.outside_berth");
        }
    }
}

// Last in the file: lines added above move the panic locations the validator package
// carries, which cost it bytes (BENCHMARKS.md).
#[cfg(feature = "queue")]
mod held;
#[cfg(feature = "queue")]
pub use held::{
    Beside, HeadRoom, Held, HeldRoom, Room, beside_held, check_beside_held, place_beside,
    priority_rank, queue_pool,
};
