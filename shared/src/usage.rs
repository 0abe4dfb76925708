//! Live usage: what is allocated on each node and how much of each quota line is used.
//!
//! The [`Catalog`](crate::Catalog) says what is offered; [`Usage`] says what is taken
//! now. The server owns the live usage and changes it only through [`Usage::reserve`]
//! and [`Usage::release`] of a `Placement` (in [`crate::quota`]), so a gang is taken and
//! given back whole.

use crate::catalog::Node;
use crate::resources::Resources;
use crate::vocab::ResourceKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Allocations by node name and quota use by line.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Usage {
    /// What is allocated on each node, by node name; a node not listed is empty.
    pub nodes: BTreeMap<String, Resources>,
    /// What each quota line has in use; a line not listed uses nothing.
    pub quota: Vec<QuotaUse>,
}

/// One quota line's use: user × resource kind × pool × spec.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
