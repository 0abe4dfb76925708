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
    Candidate, HeadNeed, IdleInfo, Outcome, Plan, QuotaLine, node_arg, plan, plan_live,
    resolve_pool,
};
pub use reach::{Reach, nodes_for_one_pod, reach};
