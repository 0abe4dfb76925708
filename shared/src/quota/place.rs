//! Placement: which node hosts each replica and the head, for a scheduler to reserve.

use super::plan::{Outcome, Setup};
use super::{GangPlacement, Result, gang_place};
use crate::catalog::{Catalog, User};
use crate::resources::Resources;
use crate::task::TaskSpec;
use crate::usage::{LiveUsage, QuotaUse, Usage, UsageError};
use crate::vocab::ResourceKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Replicas of the workers' spec on one node.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeShare {
    /// Node name (an idle fragment's node is named `idle/<cluster>/<offer>/<n>`).
    pub node: String,
    /// Replicas on it.
    pub replicas: u64,
}

/// Where a distinct head runs.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadPlacement {
    /// Node name.
    pub node: String,
    /// The head's spec id.
    pub spec: String,
    /// What it takes there.
    pub need: Resources,
}

/// A whole gang placed: what the scheduler reserves on the nodes when the task starts,
/// and gives back when it ends.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// Whose quota it draws on.
    pub user: String,
    /// The resource kind.
    pub kind: ResourceKind,
    /// The pool.
    pub pool: String,
    /// The spec's position in `compute.specs`.
    pub index: usize,
    /// The workers' spec id.
    pub spec: String,
    /// What one replica of `spec` takes.
    pub need: Resources,
    /// Replicas of `spec` per node, in the pool's node order. For a PyTorchJob the first
    /// replica is the master; for a RayJob without a distinct head, the head.
    pub workers: Vec<NodeShare>,
    /// The head, when it has a spec of its own.
    pub head: Option<HeadPlacement>,
}

impl Placement {
    /// What each node takes: the head's need and each share's replicas × need.
    pub fn node_needs(&self) -> impl Iterator<Item = (&str, Resources)> {
        let head = self.head.iter().map(|h| (h.node.as_str(), h.need));
        let workers = self.workers.iter().map(|w| {
            let need = self.need.checked_mul(w.replicas).unwrap_or(Resources::new(
                u64::MAX,
                u64::MAX,
                u64::MAX,
            ));
            (w.node.as_str(), need)
        });
        head.chain(workers)
    }

    /// What each quota line is charged, by spec; nothing for spot and idle.
    pub fn quota_lines(&self) -> Vec<(&str, Resources)> {
        if !self.kind.uses_quota() {
            return Vec::new();
        }
        let replicas: u64 = self.workers.iter().map(|w| w.replicas).sum();
        let mut lines = Vec::new();
        if replicas > 0 {
            lines.push((
                self.spec.as_str(),
                self.need.checked_mul(replicas).unwrap_or(Resources::ZERO),
            ));
        }
        if let Some(h) = &self.head {
            lines.push((h.spec.as_str(), h.need));
        }
        lines
    }

    /// The quota it holds, as usage lines.
    pub fn hold(&self) -> Vec<QuotaUse> {
        self.quota_lines()
            .into_iter()
            .map(|(spec, used)| QuotaUse {
                user: self.user.clone(),
                kind: self.kind,
                pool: self.pool.clone(),
                spec: spec.to_owned(),
                used,
            })
            .collect()
    }

    /// Distinct nodes the gang takes.
    pub fn nodes(&self) -> u64 {
        let mut names: Vec<&str> = self.node_needs().map(|(n, _)| n).collect();
        names.sort_unstable();
        names.dedup();
        names.len() as u64
    }
}

/// Places the whole gang now, on the spec the plan chooses: `Some` exactly when the
/// plan's outcome is [`Outcome::Now`], on as few nodes as it says.
///
/// # Errors
///
/// [`super::QuotaError::Overflow`] when the demand does not fit in 64 bits.
pub fn place(
    spec: &TaskSpec,
    catalog: &Catalog,
    usage: &Usage,
    user: &User,
) -> Result<Option<Placement>> {
    match Setup::new(spec, catalog, usage, user) {
        Some(setup) => place_on(&setup),
        None => Ok(None),
    }
}

/// [`place`] on live usage kept by node position: the same placement, without looking
/// every node of the pool up by name.
///
/// # Errors
///
/// [`super::QuotaError::Overflow`] when the demand does not fit in 64 bits.
pub fn place_live(spec: &TaskSpec, live: &LiveUsage, user: &User) -> Result<Option<Placement>> {
    match Setup::live(spec, live, user) {
        Some(setup) => place_on(&setup),
        None => Ok(None),
    }
}

/// [`place_live`] as if the nodes `avoid` names (pool nodes, or idle fragment nodes as
/// placements name them) had no room: where the plan would start the gang without them,
/// on the first spec of its priority list that fits there. A pod that needs nothing may
/// still be placed on one of them: it takes nothing there.
///
/// # Errors
///
/// [`super::QuotaError::Overflow`] when the demand does not fit in 64 bits.
pub fn place_live_avoiding(
    spec: &TaskSpec,
    live: &LiveUsage,
    user: &User,
    avoid: &[String],
) -> Result<Option<Placement>> {
    let Some(setup) = Setup::live(spec, live, user) else {
        return Ok(None);
    };
    let alloc: Vec<Resources> = setup
        .pool
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            if avoid.contains(&node.name) {
                node.total
            } else {
                match setup.alloc.and_then(|alloc| alloc.get(i)) {
                    Some(used) => *used,
                    None => setup.usage.allocated(&node.name),
                }
            }
        })
        .collect();
    // Idle fragment nodes are read by name: the usage is copied only when one is avoided.
    let full: Vec<(&String, Resources)> = avoid
        .iter()
        .filter(|name| name.starts_with("idle/"))
        .filter_map(|name| Some((name, super::plan::idle_node_capacity(setup.catalog, name)?)))
        .collect();
    let copied;
    let usage = if full.is_empty() {
        setup.usage
    } else {
        let mut usage = setup.usage.clone();
        for (name, capacity) in full {
            usage.nodes.insert(name.clone(), capacity);
        }
        copied = usage;
        &copied
    };
    place_on(&Setup {
        alloc: Some(&alloc),
        usage,
        ..setup
    })
}

fn place_on(setup: &Setup<'_>) -> Result<Option<Placement>> {
    let Some((plan, pool_slots)) = setup.plan()? else {
        return Ok(None);
    };
    let Outcome::Now { index, .. } = plan.outcome else {
        return Ok(None);
    };
    let Some((_, worker)) = setup.workers().find(|(i, _)| *i == index) else {
        return Ok(None);
    };
    // The plan worked this candidate out on the same inputs, on these slots: use them
    // rather than work them out again (each costs a pass over the pool's nodes).
    let Some(candidate) = plan.candidates.into_iter().find(|c| c.index == index) else {
        return Ok(None);
    };
    // On a pool, a slot's name is its node's, taken only for the nodes used: copying
    // every name cost as much as building the slots.
    let (slots, idle_names) = if setup.kind == ResourceKind::Idle || candidate.on_idle {
        let idle = setup.idle_slots(worker);
        (idle.slots, Some(idle.names))
    } else {
        match pool_slots {
            Some(slots) => (slots, None),
            None => (setup.pool_slots(worker), None),
        }
    };
    let name = |slot: usize| match &idle_names {
        Some(names) => names[slot].clone(),
        None => setup.pool.nodes[slot].name.clone(),
    };
    let head_need = candidate.head.as_ref().map(|h| h.need);
    let Some(GangPlacement { head, workers }) =
        gang_place(&slots, candidate.per_replica, candidate.workers, head_need)
    else {
        return Ok(None);
    };
    Ok(Some(Placement {
        user: setup.user.name.clone(),
        // Reserved capacity placed on idle runs as idle: it holds no quota there.
        kind: if candidate.on_idle {
            ResourceKind::Idle
        } else {
            setup.kind
        },
        pool: setup.pool.id.clone(),
        index,
        spec: candidate.spec.clone(),
        need: candidate.per_replica,
        workers: workers
            .into_iter()
            .map(|(slot, replicas)| NodeShare {
                node: name(slot),
                replicas,
            })
            .collect(),
        head: match (head, candidate.head) {
            (Some(slot), Some(h)) => Some(HeadPlacement {
                node: name(slot),
                spec: h.spec,
                need: h.need,
            }),
            _ => None,
        },
    }))
}

impl Catalog {
    /// A node's capacity by name, idle fragment nodes included: what
    /// [`Usage::reserve`] checks a placement against.
    pub fn capacity(&self, node: &str) -> Option<Resources> {
        self.nodes()
            .find(|n| n.name == node)
            .map(|n| n.total)
            .or_else(|| super::plan::idle_node_capacity(self, node))
    }
}

/// Reserving and releasing placements: the only way the scheduler changes usage.
impl Usage {
    /// Takes what `placement` holds: node capacity and quota, all or nothing.
    ///
    /// `capacity` gives a node's total by name. Quota is not checked here: the plan that
    /// made the placement did, and the caller reserves under the same lock.
    ///
    /// # Errors
    ///
    /// [`UsageError::NodeFull`] when a node would hold more than its capacity; usage is
    /// then unchanged.
    pub fn reserve(
        &mut self,
        placement: &Placement,
        capacity: impl Fn(&str) -> Option<Resources>,
    ) -> Result<(), UsageError> {
        let mut taken: BTreeMap<&str, Resources> = BTreeMap::new();
        for (node, need) in placement.node_needs() {
            let sum = taken.entry(node).or_insert(self.allocated(node));
            *sum = sum.saturating_add(need);
            if !capacity(node).is_some_and(|total| sum.fits_within(&total)) {
                return Err(UsageError::NodeFull {
                    node: node.to_owned(),
                });
            }
        }
        for (node, sum) in taken {
            self.nodes.insert(node.to_owned(), sum);
        }
        self.hold(&placement.hold());
        Ok(())
    }

    /// Gives back what `placement` holds.
    ///
    /// # Errors
    ///
    /// [`UsageError::NotReserved`] when a node holds less than the placement; usage is
    /// then unchanged.
    pub fn release(&mut self, placement: &Placement) -> Result<(), UsageError> {
        let mut left: BTreeMap<&str, Resources> = BTreeMap::new();
        for (node, need) in placement.node_needs() {
            let sum = left.entry(node).or_insert(self.allocated(node));
            if !need.fits_within(sum) {
                return Err(UsageError::NotReserved {
                    node: node.to_owned(),
                });
            }
            *sum = sum.saturating_sub(need);
        }
        for (node, sum) in left {
            if sum == Resources::ZERO {
                self.nodes.remove(node);
            } else {
                self.nodes.insert(node.to_owned(), sum);
            }
        }
        self.unhold(&placement.hold());
        Ok(())
    }
}

// Not private: `reach`'s tests build their tasks with `a100s` too.
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(super) mod tests {
    use super::*;
    use crate::demo;
    use crate::task::InstanceType;
    use std::sync::Arc;

    /// One replica of `units` A100s on sh-a's shared pool, of `kind`.
    pub(crate) fn a100s(kind: ResourceKind, units: u32) -> TaskSpec {
        demo::pytorch().with(|s| {
            s.basic.region = "cn-east".into();
            s.basic.cluster = "sh-a".into();
            s.compute.kind = Some(kind);
            s.compute.pool = Some("sh-a-shared".into());
            s.compute.guarantee = None;
            s.compute.instance_type = InstanceType::Gpu;
            s.compute.specs = vec!["a100-1g".into()];
            s.compute.units_per_node = units;
            s.compute.workers = 0;
        })
    }

    fn nodes(placement: Option<Placement>) -> Vec<String> {
        placement
            .map(|p| p.node_needs().map(|(n, _)| n.to_owned()).collect())
            .unwrap_or_default()
    }

    fn set(names: &[&str]) -> Vec<String> {
        names.iter().map(|&n| n.to_owned()).collect()
    }

    /// On the demo's usage (sh-a's A100 nodes 00 to 04 have 2 GPUs free), a pod of 2
    /// goes to the first node with room; nodes avoided are passed by as if full, and with
    /// every node that has room avoided it does not start.
    #[test]
    fn a_placement_avoiding_nodes_takes_the_next_with_room_or_none() {
        let live = LiveUsage::new(Arc::new(demo::catalog()), demo::usage());
        let user = demo::user();
        let two = a100s(ResourceKind::Spot, 2);
        assert_eq!(
            nodes(place_live(&two, &live, &user).unwrap()),
            ["sh-a-a100-00"]
        );
        assert_eq!(
            place_live_avoiding(&two, &live, &user, &[]).unwrap(),
            place_live(&two, &live, &user).unwrap()
        );
        let avoid = set(&["sh-a-a100-00", "sh-a-a100-01", "sh-a-a100-05"]);
        assert_eq!(
            nodes(place_live_avoiding(&two, &live, &user, &avoid).unwrap()),
            ["sh-a-a100-02"]
        );
        let all: Vec<String> = (0..8).map(|n| format!("sh-a-a100-{n:02}")).collect();
        assert_eq!(place_live_avoiding(&two, &live, &user, &all).unwrap(), None);
        // A whole node's pod fits 05 to 07 only.
        let whole = a100s(ResourceKind::Spot, 8);
        let avoid = set(&["sh-a-a100-05", "sh-a-a100-06"]);
        assert_eq!(
            nodes(place_live_avoiding(&whole, &live, &user, &avoid).unwrap()),
            ["sh-a-a100-07"]
        );
    }

    /// Idle fragment nodes avoided are passed by too (sh-a's A100 offer: a node of 8
    /// units, then two of 2).
    #[test]
    fn idle_fragment_nodes_are_avoided_by_name() {
        let live = LiveUsage::new(Arc::new(demo::catalog()), demo::usage());
        let user = demo::user();
        let idle = a100s(ResourceKind::Idle, 2);
        assert_eq!(
            nodes(place_live(&idle, &live, &user).unwrap()),
            ["idle/sh-a/0/0"]
        );
        let avoid = set(&["idle/sh-a/0/0", "sh-a-a100-00"]);
        assert_eq!(
            nodes(place_live_avoiding(&idle, &live, &user, &avoid).unwrap()),
            ["idle/sh-a/0/1"]
        );
        let avoid = set(&["idle/sh-a/0/0", "idle/sh-a/0/1", "idle/sh-a/0/2"]);
        assert_eq!(
            place_live_avoiding(&idle, &live, &user, &avoid).unwrap(),
            None
        );
    }
}
