//! Live usage: what is allocated on each node and how much of each quota line is used.
//!
//! The [`Catalog`](crate::Catalog) says what is offered; [`Usage`] says what is taken
//! now. The server owns the live usage and changes it only through [`Usage::reserve`]
//! and [`Usage::release`] of a `Placement` (in [`crate::quota`]), so a gang is taken and
//! given back whole.

use crate::catalog::Node;
use crate::resources::Resources;
use crate::vocab::ResourceKind;
use serde::Serialize;
use std::collections::BTreeMap;

/// Allocations by node name and quota use by line.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Usage {
    /// What is allocated on each node, by node name; a node not listed is empty.
    pub nodes: BTreeMap<String, Resources>,
    /// What each quota line has in use; a line not listed uses nothing.
    pub quota: Vec<QuotaUse>,
}

/// One quota line's use: user × resource kind × pool × spec.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct QuotaUse {
    /// User name.
    pub user: String,
    /// Resource kind (reserved or on-demand).
    pub kind: ResourceKind,
    /// Pool id.
    pub pool: String,
    /// Spec id.
    pub spec: String,
    /// What the user's tasks hold now.
    pub used: Resources,
}

/// A change to usage would break an invariant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsageError {
    /// Reserving would put more on a node than it holds.
    #[error("node {node} has no room for the placement")]
    NodeFull {
        /// The node.
        node: String,
    },
    /// Releasing more than is allocated: the placement was never reserved.
    #[error("node {node} does not hold the placement being released")]
    NotReserved {
        /// The node.
        node: String,
    },
}

impl Usage {
    /// Nothing in use.
    pub fn new() -> Self {
        Usage::default()
    }

    /// What is allocated on the node named `node`.
    pub fn allocated(&self, node: &str) -> Resources {
        self.nodes.get(node).copied().unwrap_or(Resources::ZERO)
    }

    /// What `node` has free now: its capacity less what is allocated on it.
    pub fn free(&self, node: &Node) -> Resources {
        if self.nodes.is_empty() {
            return node.total;
        }
        node.total.saturating_sub(self.allocated(&node.name))
    }

    /// What a quota line has in use.
    pub fn quota_used(&self, user: &str, kind: ResourceKind, pool: &str, spec: &str) -> Resources {
        self.line(user, kind, pool, spec)
            .map_or(Resources::ZERO, |q| q.used)
    }

    pub(crate) fn line(
        &self,
        user: &str,
        kind: ResourceKind,
        pool: &str,
        spec: &str,
    ) -> Option<&QuotaUse> {
        self.quota
            .iter()
            .find(|q| q.user == user && q.kind == kind && q.pool == pool && q.spec == spec)
    }

    /// Takes quota: adds each line's amount to what it has in use.
    pub fn hold(&mut self, lines: &[QuotaUse]) {
        for line in lines {
            match self.quota.iter_mut().find(|q| {
                q.user == line.user
                    && q.kind == line.kind
                    && q.pool == line.pool
                    && q.spec == line.spec
            }) {
                Some(q) => q.used = q.used.saturating_add(line.used),
                None => self.quota.push(line.clone()),
            }
        }
    }

    /// Gives quota back: takes each line's amount off what it has in use (never below
    /// zero), dropping lines that reach zero.
    pub fn unhold(&mut self, lines: &[QuotaUse]) {
        for line in lines {
            if let Some(i) = self.quota.iter().position(|q| {
                q.user == line.user
                    && q.kind == line.kind
                    && q.pool == line.pool
                    && q.spec == line.spec
            }) {
                let used = self.quota[i].used.saturating_sub(line.used);
                if used == Resources::ZERO {
                    self.quota.remove(i);
                } else {
                    self.quota[i].used = used;
                }
            }
        }
    }

    /// The part of usage `user` may see: every node (capacity is not private), only
    /// their own quota lines.
    pub fn for_user(&self, user: &str) -> Usage {
        Usage {
            nodes: self.nodes.clone(),
            quota: self
                .quota
                .iter()
                .filter(|q| q.user == user)
                .cloned()
                .collect(),
        }
    }
}

/// Live usage that also keeps each node's allocation by its position in the catalog, so
/// a plan reads a pool's allocations as a slice instead of looking every node up by
/// name: a scheduler plans against the same usage thousands of times between changes,
/// and the name lookups were most of an admission pass on a large pool.
///
/// The usage inside is changed only through these methods, so both views always agree.
#[derive(Clone, Debug)]
pub struct LiveUsage {
    catalog: std::sync::Arc<crate::Catalog>,
    usage: Usage,
    /// Allocated, by node position in [`crate::Catalog::nodes`] order.
    alloc: Vec<Resources>,
    /// Capacity, in the same order.
    total: Vec<Resources>,
    /// Positions of each node name (a name listed in two pools has two).
    at: std::collections::HashMap<String, Vec<usize>>,
    /// Each pool's address in the catalog this holds and where its nodes start.
    pools: Vec<(usize, usize)>,
    /// A copy of `usage` handed out since its last change ([`LiveUsage::snapshot`]).
    snapshot: Option<std::sync::Arc<Usage>>,
}

impl LiveUsage {
    /// `usage` on `catalog`, indexed by node position.
    pub fn new(catalog: std::sync::Arc<crate::Catalog>, usage: Usage) -> Self {
        let mut pools = Vec::new();
        let mut at: std::collections::HashMap<String, Vec<usize>> =
            std::collections::HashMap::new();
        let (mut alloc, mut total) = (Vec::new(), Vec::new());
        for pool in catalog
            .regions
            .iter()
            .flat_map(|r| &r.clusters)
            .flat_map(|c| &c.pools)
        {
            pools.push((std::ptr::from_ref(pool) as usize, alloc.len()));
            for node in &pool.nodes {
                at.entry(node.name.clone()).or_default().push(alloc.len());
                alloc.push(usage.allocated(&node.name));
                total.push(node.total);
            }
        }
        LiveUsage {
            catalog,
            usage,
            alloc,
            total,
            at,
            pools,
            snapshot: None,
        }
    }

    /// The usage now, shared: copied once after each change rather than for every
    /// reader (each check of a spec reads it).
    pub fn snapshot(&mut self) -> std::sync::Arc<Usage> {
        std::sync::Arc::clone(
            self.snapshot
                .get_or_insert_with(|| std::sync::Arc::new(self.usage.clone())),
        )
    }

    /// The catalog the positions are of.
    pub fn catalog(&self) -> &std::sync::Arc<crate::Catalog> {
        &self.catalog
    }

    /// The usage by name.
    pub fn usage(&self) -> &Usage {
        &self.usage
    }

    /// What is allocated on each node of `pool`, in its order; `None` when `pool` is not
    /// one of this catalog's pools (then callers look nodes up by name).
    pub fn pool_allocations(&self, pool: &crate::catalog::Pool) -> Option<&[Resources]> {
        let address = std::ptr::from_ref(pool) as usize;
        let &(_, start) = self.pools.iter().find(|(p, _)| *p == address)?;
        self.alloc.get(start..start + pool.nodes.len())
    }

    /// Takes quota (see [`Usage::hold`]).
    pub fn hold(&mut self, lines: &[QuotaUse]) {
        self.snapshot = None;
        self.usage.hold(lines);
    }

    /// Gives quota back (see [`Usage::unhold`]).
    pub fn unhold(&mut self, lines: &[QuotaUse]) {
        self.snapshot = None;
        self.usage.unhold(lines);
    }

    /// Reserves a placement (see [`Usage::reserve`]), against the capacity of the
    /// catalog's nodes and idle fragments.
    ///
    /// # Errors
    ///
    /// [`UsageError::NodeFull`]; usage is then unchanged.
    pub fn reserve(&mut self, placement: &crate::quota::Placement) -> Result<(), UsageError> {
        let (at, total, catalog) = (&self.at, &self.total, &self.catalog);
        self.usage.reserve(placement, |node| match at.get(node) {
            Some(positions) => positions.first().map(|&i| total[i]),
            None => catalog.capacity(node),
        })?;
        self.sync(placement);
        Ok(())
    }

    /// Releases a placement (see [`Usage::release`]).
    ///
    /// # Errors
    ///
    /// [`UsageError::NotReserved`]; usage is then unchanged.
    pub fn release(&mut self, placement: &crate::quota::Placement) -> Result<(), UsageError> {
        self.usage.release(placement)?;
        self.sync(placement);
        Ok(())
    }

    /// Copies the allocations of the placement's nodes into the positional view.
    fn sync(&mut self, placement: &crate::quota::Placement) {
        self.snapshot = None;
        for (node, _) in placement.node_needs() {
            if let Some(positions) = self.at.get(node) {
                let now = self.usage.allocated(node);
                for &i in positions {
                    self.alloc[i] = now;
                }
            }
        }
    }
}
