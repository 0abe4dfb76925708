//! The plan: each spec of the priority list worked through, and the overall answer.

use super::{
    Fit, NeverReason, QueueReason, QuotaError, Result, Shortfall, Slot, demand, fits, gang_fit,
    per_replica, remaining,
};
use crate::catalog::{Catalog, Cluster, IdleFragment, IdleOffer, InstanceSpec, Pool, User};
use crate::resources::Resources;
use crate::task::{ResourceKind, TaskSpec};
use crate::usage::{LiveUsage, Usage};
use serde::{Deserialize, Serialize};

/// Quota for one spec of a candidate: what the task asks and what the user has left.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuotaLine {
    /// Spec id the quota is for.
    pub spec: String,
    /// What the task asks of it.
    pub requested: Resources,
    /// The limit, none when the user has no quota row for it.
    pub limit: Option<Resources>,
    /// What is left, none when the user has no quota row for it.
    pub remaining: Option<Resources>,
}

impl QuotaLine {
    /// Dimensions short, empty when it fits (and when there is no quota row at all).
    pub fn shortfalls(&self) -> Vec<Shortfall> {
        match self.remaining {
            Some(left) => fits(self.requested, left).err().unwrap_or_default(),
            None => Vec::new(),
        }
    }

    /// Whether the request fits the quota.
    pub fn is_ok(&self) -> bool {
        self.remaining
            .is_some_and(|left| self.requested.fits_within(&left))
    }
}

/// The head's spec and need, when a RayJob gives it its own spec.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadNeed {
    /// Spec id.
    pub spec: String,
    /// What the head needs.
    pub need: Resources,
}

/// One spec of the priority list, worked through.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    /// Position in `compute.specs`.
    pub index: usize,
    /// Spec id.
    pub spec: String,
    /// What one replica needs.
    pub per_replica: Resources,
    /// The head, when it has a spec of its own (a RayJob head whose spec differs from
    /// this candidate's); otherwise the head or master is one of `workers`.
    pub head: Option<HeadNeed>,
    /// Replicas of this spec: every pod but a distinct head.
    pub workers: u64,
    /// The whole task's demand.
    pub demand: Resources,
    /// Quota per spec; empty when the kind uses no quota (spot, idle).
    pub quota: Vec<QuotaLine>,
    /// Free capacity that can run the spec (and the distinct head's spec): on the pool's
    /// nodes, or for idle resources the idle quantity at or above the chosen stability.
    pub available: Resources,
    /// The gang-fit verdict.
    pub fit: Fit,
    /// A reserved task that accepts idle starts now on idle capacity rather than its
    /// pool's (SPEC.md section 4): `fit` and `available` are the idle offers', and it
    /// holds no quota while there. Left out of the JSON when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_idle: bool,
}

impl Candidate {
    /// Whether every quota line fits (true when the kind uses no quota).
    pub fn quota_ok(&self) -> bool {
        self.quota.iter().all(QuotaLine::is_ok)
    }

    /// Whether the task can use this spec at all: within quota and able to fit some day.
    pub fn usable(&self) -> bool {
        self.quota_ok() && !matches!(self.fit, Fit::Never { .. })
    }
}

/// The overall answer for the task.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// Starts now on the first spec, in priority order, within quota that fits now.
    Now {
        /// The spec's position in `compute.specs`, from 0.
        index: usize,
        /// Fewest nodes it takes.
        nodes: u64,
    },
    /// Queues as a whole until capacity frees; no usable spec fits now.
    Queue {
        /// The first usable spec's position in `compute.specs`.
        index: usize,
        /// Why that spec cannot start now.
        reason: QueueReason,
    },
    /// No spec of the list can be used: each is over quota or can never fit.
    Blocked,
}

/// Idle capacity shown for the spec the task would use: an offer as it is now, its
/// quantity and fragments less the units tasks hold on its nodes.
pub type IdleInfo = IdleOffer;

/// Where and whether the task would start (SPEC.md section 4).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// The resource kind.
    pub kind: ResourceKind,
    /// The pool id used.
    pub pool: String,
    /// Pods that need an instance spec (master or head, plus workers).
    pub replicas: u64,
    /// Every resolvable spec of the priority list, in order.
    pub candidates: Vec<Candidate>,
    /// The overall answer.
    pub outcome: Outcome,
    /// For idle, and for reserved with idle accepted: the idle offers, at or above the
    /// chosen stability, of the spec the task would use (the one that starts now, else
    /// the one it queues for), each with what is free of it now.
    pub idle: Vec<IdleInfo>,
}

impl Plan {
    /// The candidate that starts now, if any.
    pub fn chosen(&self) -> Option<&Candidate> {
        match self.outcome {
            Outcome::Now { index, .. } => self.candidate(index),
            _ => None,
        }
    }

    /// The candidate the task would use: the one that starts now, else the one it queues for.
    pub fn used(&self) -> Option<&Candidate> {
        match self.outcome {
            Outcome::Now { index, .. } | Outcome::Queue { index, .. } => self.candidate(index),
            Outcome::Blocked => None,
        }
    }

    /// The quota the task holds from submit until it starts: what the spec it would use
    /// asks of each quota line (nothing for spot and idle, or when no spec is usable).
    /// Reserved capacity that would start on idle holds it too while it waits: by the
    /// time it is placed, the idle offers may be gone and its pool the way it starts.
    /// Placed on idle, it holds none ([`super::Placement::hold`]).
    pub fn hold(&self, user: &str) -> Vec<crate::usage::QuotaUse> {
        let Some(used) = self.used() else {
            return Vec::new();
        };
        used.quota
            .iter()
            .map(|line| crate::usage::QuotaUse {
                user: user.to_owned(),
                kind: self.kind,
                pool: self.pool.clone(),
                spec: line.spec.clone(),
                used: line.requested,
            })
            .collect()
    }

    /// The candidate for `compute.specs[index]`.
    pub fn candidate(&self, index: usize) -> Option<&Candidate> {
        self.candidates.iter().find(|c| c.index == index)
    }
}

/// The pool a spec's compute section resolves to in `cluster`.
pub fn resolve_pool<'a>(spec: &TaskSpec, cluster: &'a Cluster) -> Option<&'a Pool> {
    let kind = spec.compute.kind?;
    match spec.compute.pool.as_deref().filter(|p| !p.is_empty()) {
        Some(id) => cluster.pool(id).filter(|p| p.kinds.contains(&kind)),
        None if kind == ResourceKind::Reserved => None,
        None => cluster.default_pool_for(kind),
    }
}

/// Slots and the name of the node (or idle fragment) behind each.
pub(super) struct Slots {
    pub slots: Vec<Slot>,
    pub names: Vec<String>,
}

/// What the plan works from once the spec resolves.
pub(super) struct Setup<'a> {
    pub spec: &'a TaskSpec,
    pub catalog: &'a Catalog,
    pub usage: &'a Usage,
    /// What is allocated on each of the pool's nodes, in its order, when the caller
    /// keeps usage by position ([`crate::usage::LiveUsage`]); else nodes are looked up
    /// by name.
    pub alloc: Option<&'a [Resources]>,
    pub user: &'a User,
    pub cluster: &'a Cluster,
    pub kind: ResourceKind,
    pub pool: &'a Pool,
    pub head: Option<&'a InstanceSpec>,
}

impl<'a> Setup<'a> {
    /// Resolves what the math needs; `None` while the spec lacks it.
    pub fn new(
        spec: &'a TaskSpec,
        catalog: &'a Catalog,
        usage: &'a Usage,
        user: &'a User,
    ) -> Option<Self> {
        let cluster = catalog.cluster(&spec.basic.region, &spec.basic.cluster)?;
        let kind = spec.compute.kind?;
        let pool = resolve_pool(spec, cluster)?;
        let head = match spec.head_spec() {
            Some(id) => Some(cluster.spec(id)?),
            None => None,
        };
        Some(Setup {
            spec,
            catalog,
            usage,
            alloc: None,
            user,
            cluster,
            kind,
            pool,
            head,
        })
    }

    /// The stability idle capacity must have; `None` takes any.
    fn idle_level(&self) -> Option<crate::vocab::IdleStability> {
        self.spec.compute.idle_stability
    }

    /// Whether idle offers matter for this task.
    fn uses_idle(&self) -> bool {
        self.kind == ResourceKind::Idle
            || (self.kind == ResourceKind::Reserved && self.spec.compute.accept_idle)
    }

    /// The specs of the priority list the pool can run, with their positions.
    pub fn workers(&self) -> impl Iterator<Item = (usize, &'a InstanceSpec)> + '_ {
        let compute = &self.spec.compute;
        let units = compute.units_per_node;
        compute
            .specs
            .iter()
            .enumerate()
            .filter_map(move |(index, id)| {
                let worker = self.cluster.spec(id)?;
                let usable = worker.instance_type == compute.instance_type
                    && units >= 1
                    && units <= worker.max_units_per_node
                    && !compute.specs[..index].contains(id)
                    && self.pool.nodes.iter().any(|n| n.hosts(worker));
                usable.then_some((index, worker))
            })
    }

    /// The head's spec when it differs from `worker`.
    fn distinct_head(&self, worker: &InstanceSpec) -> Option<&'a InstanceSpec> {
        self.head.filter(|h| h.id != worker.id)
    }

    /// The pool's nodes as slots for `worker` (and a distinct head), in the pool's order.
    pub(crate) fn pool_slots(&self, worker: &InstanceSpec) -> Vec<Slot> {
        let head = self.distinct_head(worker);
        let slot = |n: &crate::catalog::Node, free| Slot {
            free,
            total: n.total,
            worker: n.hosts(worker),
            head: head.is_some_and(|h| n.hosts(h)),
        };
        match self.alloc {
            Some(alloc) => self
                .pool
                .nodes
                .iter()
                .zip(alloc)
                .map(|(n, used)| slot(n, n.total.saturating_sub(*used)))
                .collect(),
            None => self
                .pool
                .nodes
                .iter()
                .map(|n| slot(n, self.usage.free(n)))
                .collect(),
        }
    }

    /// Idle fragments as slots: workers on `worker`'s offers, a distinct head on its own
    /// spec's offers.
    pub(super) fn idle_slots(&self, worker: &InstanceSpec) -> Slots {
        let mut out = Slots {
            slots: Vec::new(),
            names: Vec::new(),
        };
        let head = self.distinct_head(worker);
        for (spec, is_head) in [(Some(worker), false), (head, true)] {
            let Some(spec) = spec else { continue };
            for (offer, _) in self.cluster.idle_offers(&spec.id, self.idle_level()) {
                for (name, capacity) in idle_nodes(self.cluster, offer, spec) {
                    out.slots.push(Slot {
                        free: capacity.saturating_sub(self.usage.allocated(&name)),
                        total: capacity,
                        worker: !is_head,
                        head: is_head,
                    });
                    out.names.push(name);
                }
            }
        }
        out
    }

    /// Works one spec of the priority list through; with the pool's slots it was
    /// worked out on, for a placement to reuse.
    pub fn candidate(&self, index: usize, worker: &InstanceSpec) -> Result<(Candidate, Vec<Slot>)> {
        let units = self.spec.compute.units_per_node;
        let need = per_replica(worker, units)?;
        let head_spec = self.distinct_head(worker);
        // Every pod is one replica of `units` units of its spec (SPEC.md section 4): a
        // distinct head too, so it is sized by the same rule as the workers.
        let head = match head_spec {
            Some(h) => Some(HeadNeed {
                spec: h.id.clone(),
                need: per_replica(h, units)?,
            }),
            None => None,
        };
        let replicas = self.spec.replicas();
        let workers = replicas - u64::from(head.is_some());
        let head_need = head.as_ref().map(|h| h.need);
        let demand = demand(need, workers, head_need)?;
        let mut quota = Vec::new();
        if self.kind.uses_quota() {
            // One line per spec: a head of another spec draws on its own line, and a RayJob
            // with no workers asks nothing of the workers' line.
            if workers > 0 {
                let asked = need.checked_mul(workers).ok_or(QuotaError::Overflow)?;
                quota.push(self.quota_line(&worker.id, asked));
            }
            if let Some(h) = &head {
                quota.push(self.quota_line(&h.spec, h.need));
            }
        }
        let pool = self.pool_slots(worker);
        let fit = gang_fit(&pool, need, workers, head_need);
        let mut on_idle = false;
        let (fit, available) = if self.kind == ResourceKind::Idle {
            let idle = self.idle_slots(worker);
            let fit = idle_fit(fit, &idle.slots, need, workers, head_need);
            (
                no_offer(fit, &idle.slots, workers, &worker.id, head_spec),
                free_sum(idle.slots.iter()),
            )
        } else {
            // Free capacity of the nodes that can run the spec, and the head's nodes when
            // its spec is another GPU model: read off the slots just built.
            let head_elsewhere = head_spec.is_some_and(|h| h.gpu_model != worker.gpu_model);
            let available = free_sum(
                pool.iter()
                    .filter(|s| s.worker || (head_elsewhere && s.head)),
            );
            // Reserved capacity that accepts idle (the seeds' 闲时补充): the gang starts on
            // idle offers at or above the chosen level when the pool cannot start it
            // now, or before the pool when idle is preferred. Otherwise its verdict is
            // the pool's: idle capacity comes and goes, so a gang the pool could never
            // hold is refused whatever idle is free at the moment, as for the idle kind.
            let compute = &self.spec.compute;
            let try_idle = match fit {
                Fit::Now { .. } => compute.prefer_idle,
                Fit::Queue { .. } => true,
                Fit::Never { .. } => false,
            };
            if self.kind == ResourceKind::Reserved && compute.accept_idle && try_idle {
                let idle = self.idle_slots(worker);
                match gang_fit(&idle.slots, need, workers, head_need) {
                    now @ Fit::Now { .. } => {
                        on_idle = true;
                        (now, free_sum(idle.slots.iter()))
                    }
                    _ => (fit, available),
                }
            } else {
                (fit, available)
            }
        };
        // Candidates are specs the pool can run, so a missing node is the head's.
        let fit = match fit {
            Fit::Never {
                reason: NeverReason::NoMatchingNode { .. },
            } => Fit::Never {
                reason: NeverReason::NoMatchingNode {
                    gpu_model: head_spec.and_then(|h| h.gpu_model.clone()),
                },
            },
            other => other,
        };
        let candidate = Candidate {
            index,
            spec: worker.id.clone(),
            per_replica: need,
            head,
            workers,
            demand,
            quota,
            available,
            fit,
            on_idle,
        };
        Ok((candidate, pool))
    }

    fn quota_line(&self, spec: &str, requested: Resources) -> QuotaLine {
        let limit = self
            .catalog
            .quota(&self.user.name, self.kind, &self.pool.id, spec)
            .map(|q| q.limit);
        let used = self
            .usage
            .quota_used(&self.user.name, self.kind, &self.pool.id, spec);
        QuotaLine {
            spec: spec.to_owned(),
            requested,
            limit,
            remaining: limit.map(|l| remaining(l, used)),
        }
    }

    /// Idle offers of the spec the task would use, for the form to show: what is free of
    /// each now, as the gang fit sees it (an offer's nodes less what tasks hold on them),
    /// so the line agrees with the bars and the verdict beside it. A fragment of nodes
    /// whose units are all taken is left out; the rest are grouped by the units each node
    /// still has, in the order the catalog lists them. The quantity is no more than the
    /// units free on the offer's nodes (none for an offer that lists no fragments).
    fn idle_info(&self, spec: &str) -> Vec<IdleInfo> {
        if !self.uses_idle() {
            return Vec::new();
        }
        let Some(instance) = self.cluster.spec(spec) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (index, offer) in self.cluster.idle_offers(spec, self.idle_level()) {
            let (mut taken, mut units_free) = (0u64, 0u64);
            let mut fragments: Vec<IdleFragment> = Vec::new();
            for (name, capacity) in idle_nodes(self.cluster, index, instance) {
                let free = capacity.saturating_sub(self.usage.allocated(&name));
                let units = capacity.copies_of(&instance.per_unit);
                let left = free.copies_of(&instance.per_unit).min(units);
                taken += units - left;
                units_free += left;
                let Ok(left) = u32::try_from(left) else {
                    continue;
                };
                if left == 0 {
                    continue;
                }
                match fragments.iter_mut().find(|f| f.units == left) {
                    Some(f) => f.nodes += 1,
                    None => fragments.push(IdleFragment {
                        nodes: 1,
                        units: left,
                    }),
                }
            }
            // No more than its nodes have free: an offer that lists no fragments has no
            // nodes the gang could take, and a quantity the catalog states above its
            // fragments' units is none the gang could take either.
            let quantity = u64::from(offer.quantity)
                .saturating_sub(taken)
                .min(units_free);
            out.push(IdleInfo {
                spec: offer.spec.clone(),
                stability: offer.stability,
                quantity: u32::try_from(quantity).unwrap_or(u32::MAX),
                fragments,
            });
        }
        out
    }
}

/// The nodes of an idle offer: `(name, capacity)` for each node of each fragment, named
/// `idle/<cluster>/<offer>/<n>` (the offer's position in the cluster's list).
fn idle_nodes<'a>(
    cluster: &'a Cluster,
    offer: usize,
    spec: &'a InstanceSpec,
) -> impl Iterator<Item = (String, Resources)> + 'a {
    cluster.idle[offer]
        .fragments
        .iter()
        .flat_map(|f| std::iter::repeat_n(f.units, f.nodes as usize))
        .enumerate()
        .map(move |(n, units)| {
            let capacity = spec
                .per_unit
                .checked_mul(u64::from(units))
                .unwrap_or(Resources::ZERO);
            (format!("idle/{}/{offer}/{n}", cluster.id), capacity)
        })
}

/// A node of a placement as a reader can find it: a pool's node by its name; an idle
/// fragment node, whose name (`idle/<cluster>/<offer>/<n>`, see [`idle_nodes`]) is
/// Berth's and no machine's, as its cluster's idle offer and node, each counted from 1
/// in the catalog's order ("node 1 of idle offer 1 in sh-a"), rendered in the reader's
/// language.
pub fn node_arg(name: &str) -> crate::messages::Arg {
    use crate::messages::{Arg, Message};
    match idle_place(name) {
        Some((cluster, offer, node)) => Arg::Message(
            Message::new("node.idle")
                .with("cluster", cluster)
                .with("offer", offer.saturating_add(1))
                .with("node", node.saturating_add(1)),
        ),
        None => Arg::Text(name.to_owned()),
    }
}

/// [`node_arg`] with the catalog at hand (the server's events, the task page): an idle
/// fragment node by its cluster's and spec's catalog names and its offer's stability,
/// as the form shows the offers (explorer: "node 1 of idle offer 1 in sh-a" matched
/// nothing the reader had seen, nor said the task ran on idle capacity).
pub fn node_arg_in(catalog: &Catalog, name: &str) -> crate::messages::Arg {
    use crate::messages::{Arg, Message};
    let named = idle_place(name).and_then(|(cluster, offer, node)| {
        let cluster = catalog
            .regions
            .iter()
            .flat_map(|r| &r.clusters)
            .find(|c| c.id == cluster)?;
        let offer = cluster.idle.get(offer)?;
        let spec = cluster.spec(&offer.spec)?;
        let stability = match offer.stability {
            crate::task::IdleStability::Low => "ui.form.option.stability.low",
            crate::task::IdleStability::Medium => "ui.form.option.stability.medium",
            crate::task::IdleStability::High => "ui.form.option.stability.high",
        };
        Some(Arg::Message(
            Message::new("event.idle_node")
                .with("cluster", &cluster.name)
                .with("spec", &spec.name)
                .with_message("stability", Message::new(stability))
                .with("node", node.saturating_add(1)),
        ))
    });
    named.unwrap_or_else(|| node_arg(name))
}

/// `message` with every idle node [`node_arg`] named in it, however deep, named as
/// [`node_arg_in`] names it: events are stored with the positions, and named for the
/// reader with the catalog of the day.
pub fn name_idle_nodes(catalog: &Catalog, message: &mut crate::messages::Message) {
    use crate::messages::Arg;
    for arg in message.args.values_mut() {
        let Arg::Message(inner) = arg else {
            continue;
        };
        if inner.key != "node.idle" {
            name_idle_nodes(catalog, inner);
            continue;
        }
        let position = |name: &str| match inner.args.get(name) {
            Some(Arg::Text(n)) => n.parse::<usize>().ok()?.checked_sub(1),
            _ => None,
        };
        if let (Some(Arg::Text(cluster)), Some(offer), Some(node)) = (
            inner.args.get("cluster"),
            position("offer"),
            position("node"),
        ) {
            *arg = node_arg_in(catalog, &format!("idle/{cluster}/{offer}/{node}"));
        }
    }
}

/// The cluster, offer and node positions an idle fragment node's name holds (see
/// [`idle_nodes`]); `None` for any other name.
fn idle_place(name: &str) -> Option<(&str, usize, usize)> {
    let mut parts = name.strip_prefix("idle/")?.split('/');
    let cluster = parts.next()?;
    let offer = parts.next()?.parse::<usize>().ok()?;
    let node = parts.next()?.parse::<usize>().ok()?;
    parts.next().is_none().then_some((cluster, offer, node))
}

/// The capacity of an idle fragment node named by [`idle_nodes`].
pub(crate) fn idle_node_capacity(catalog: &Catalog, name: &str) -> Option<Resources> {
    let (cluster, offer, _) = idle_place(name)?;
    let cluster = catalog
        .regions
        .iter()
        .flat_map(|r| &r.clusters)
        .find(|c| c.id == cluster)?;
    let spec = cluster.spec(&cluster.idle.get(offer)?.spec)?;
    idle_nodes(cluster, offer, spec)
        .find(|(n, _)| n == name)
        .map(|(_, capacity)| capacity)
}

fn free_sum<'s>(slots: impl Iterator<Item = &'s Slot>) -> Resources {
    slots.fold(Resources::ZERO, |sum, s| sum.saturating_add(s.free))
}

/// Idle tasks never fail for lack of idle capacity, which comes and goes: they wait.
/// They can never start only when the pool's nodes, whose idle capacity is offered, could
/// not hold the gang even empty (`pool` is the verdict on them): a replica or the head
/// larger than any node, or more replicas than the empty pool holds (SPEC.md section 4).
fn idle_fit(
    pool: Fit,
    idle: &[Slot],
    need: Resources,
    workers: u64,
    head: Option<Resources>,
) -> Fit {
    if let Fit::Never {
        reason:
            reason @ (NeverReason::NoMatchingNode { .. }
            | NeverReason::ReplicaTooLarge { .. }
            | NeverReason::HeadTooLarge { .. }
            | NeverReason::PoolTooSmall { .. }),
    } = pool
    {
        return Fit::Never { reason };
    }
    match gang_fit(idle, need, workers, head) {
        // The head is what no idle offer can take: that is the reason, not a count of
        // the workers that would fit.
        Fit::Never { .. }
            if let Some(h) = head
                && !idle.iter().any(|s| s.head && h.fits_within(&s.free)) =>
        {
            let (dimension, largest_free, need) =
                super::gang::shortest(idle, &h, |s| s.head, |s| s.free);
            Fit::Queue {
                reason: QueueReason::HeadHasNoRoom {
                    dimension,
                    largest_free,
                    need,
                },
            }
        }
        Fit::Never { .. } => Fit::Queue {
            reason: QueueReason::NotEnoughAtOnce {
                placeable: idle
                    .iter()
                    .filter(|s| s.worker)
                    .fold(0u64, |a, s| a.saturating_add(s.free.copies_of(&need)))
                    .min(workers),
                replicas: workers + u64::from(head.is_some()),
            },
        },
        other => other,
    }
}

/// An idle task that waits while its workers' spec, or its head's, has no idle offer at
/// the chosen stability at all waits for an offer: that is the reason, not the free
/// capacity of fragments of the other spec (the panel's bars show those).
fn no_offer(
    fit: Fit,
    idle: &[Slot],
    workers: u64,
    worker: &str,
    head: Option<&InstanceSpec>,
) -> Fit {
    if !matches!(fit, Fit::Queue { .. }) {
        return fit;
    }
    let missing = if workers > 0 && !idle.iter().any(|s| s.worker) {
        worker
    } else if let Some(h) = head
        && !idle.iter().any(|s| s.head)
    {
        &h.id
    } else {
        return fit;
    };
    Fit::Queue {
        reason: QueueReason::NoIdleOffer {
            spec: missing.to_owned(),
        },
    }
}

/// Works out the plan for `spec` on `catalog` with `usage` for `user`.
///
/// Returns `None` while the spec lacks what the math needs: a known cluster, a resource
/// kind, a pool, and at least one known spec of the chosen instance type that the pool
/// can run. Validation reports those gaps.
///
/// # Errors
///
/// [`QuotaError::Overflow`] when the demand does not fit in 64 bits.
pub fn plan(
    spec: &TaskSpec,
    catalog: &Catalog,
    usage: &Usage,
    user: &User,
) -> Result<Option<Plan>> {
    let Some(setup) = Setup::new(spec, catalog, usage, user) else {
        return Ok(None);
    };
    Ok(setup.plan()?.map(|(plan, _)| plan))
}

/// [`plan`] on live usage kept by node position: the same answer, without looking
/// every node of the pool up by name.
///
/// # Errors
///
/// [`QuotaError::Overflow`] when the demand does not fit in 64 bits.
pub fn plan_live(spec: &TaskSpec, live: &LiveUsage, user: &User) -> Result<Option<Plan>> {
    let Some(setup) = Setup::live(spec, live, user) else {
        return Ok(None);
    };
    Ok(setup.plan()?.map(|(plan, _)| plan))
}

impl<'a> Setup<'a> {
    /// [`Setup::new`] on live usage, reading the pool's allocations by position.
    pub fn live(spec: &'a TaskSpec, live: &'a LiveUsage, user: &'a User) -> Option<Self> {
        let mut setup = Setup::new(spec, live.catalog(), live.usage(), user)?;
        setup.alloc = live.pool_allocations(setup.pool);
        Some(setup)
    }

    /// The plan, with the pool's slots of the candidate that starts now (if one does),
    /// so that placing it does not build them again.
    pub fn plan(&self) -> Result<Option<(Plan, Option<Vec<Slot>>)>> {
        let mut candidates = Vec::new();
        let mut chosen = None;
        for (index, worker) in self.workers() {
            let (candidate, slots) = self.candidate(index, worker)?;
            // The outcome's spec is the first within quota that fits now.
            if chosen.is_none() && candidate.quota_ok() && candidate.fit.is_now() {
                chosen = Some(slots);
            }
            candidates.push(candidate);
        }
        if candidates.is_empty() {
            return Ok(None);
        }
        let outcome = match candidates.iter().find(|c| c.quota_ok() && c.fit.is_now()) {
            Some(c) => Outcome::Now {
                index: c.index,
                nodes: match c.fit {
                    Fit::Now { nodes } => nodes,
                    _ => 0,
                },
            },
            // No usable spec fits now, so the first usable one queues.
            None => match candidates.iter().find(|c| c.usable()) {
                Some(Candidate {
                    index,
                    fit: Fit::Queue { reason },
                    ..
                }) => Outcome::Queue {
                    index: *index,
                    reason: reason.clone(),
                },
                _ => Outcome::Blocked,
            },
        };
        let mut plan = Plan {
            kind: self.kind,
            pool: self.pool.id.clone(),
            replicas: self.spec.replicas(),
            candidates,
            outcome,
            idle: Vec::new(),
        };
        if let Some(used) = plan.used() {
            plan.idle = self.idle_info(&used.spec);
        }
        Ok(Some((plan, chosen)))
    }
}

// Here, after the planning code, so that its panic locations keep their lines: the
// validator package, which does not use this, changed by 101 B of brotli with them.

/// What stops every spec of a blocked plan ([`Plan::blocked_by`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// No spec could ever fit in the pool.
    NeverFits,
    /// No quota at all for any spec.
    NoQuota,
    /// Every spec over the remaining quota.
    OverQuota,
    /// Each spec by one or the other, or no spec at all.
    Mixed,
}

impl Plan {
    /// Why no spec can be used, as what the specs have in common (`None` unless the
    /// plan is [`Outcome::Blocked`]): fit only when no spec could ever fit (a kind that
    /// uses no quota is always that), quota only when it stops every spec, and no quota
    /// at all apart, where asking for less cannot help. The form's verdict and a queued
    /// task's reason say it alike.
    pub fn blocked_by(&self) -> Option<Blocked> {
        let specs = &self.candidates;
        Some(match self.outcome {
            Outcome::Blocked if specs.is_empty() => Blocked::Mixed,
            Outcome::Blocked if specs.iter().all(|c| matches!(c.fit, Fit::Never { .. })) => {
                Blocked::NeverFits
            }
            Outcome::Blocked if specs.iter().all(|c| !c.quota_ok()) => {
                if specs
                    .iter()
                    .all(|c| c.quota.iter().all(|line| line.limit.is_none()))
                {
                    Blocked::NoQuota
                } else {
                    Blocked::OverQuota
                }
            }
            Outcome::Blocked => Blocked::Mixed,
            _ => return None,
        })
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::catalog::{IdleFragment, Node, Quota, Region};
    use crate::quota::place;
    use crate::vocab::{IdleStability, InstanceType, TaskType};
    use proptest::prelude::*;

    #[test]
    fn overflowing_demand_is_an_error_not_a_wrap() {
        let mut catalog = crate::demo::catalog();
        let cluster = &mut catalog.regions[0].clusters[0];
        cluster.specs[2].per_unit = Resources::new(u64::MAX / 2, 1, 1);
        let spec = crate::demo::pytorch().with(|s| s.compute.workers = 3);
        let usage = crate::demo::usage();
        let user = crate::demo::user();
        assert_eq!(
            plan(&spec, &catalog, &usage, &user),
            Err(QuotaError::Overflow)
        );
        let report = crate::validate(&spec, &catalog, &usage, &user);
        assert!(
            report.codes().contains(&"compute.demand.overflow"),
            "{report}"
        );
    }

    #[test]
    fn a_spec_over_quota_is_skipped_with_a_warning_when_the_next_one_fits() {
        // Issue 5: [h100-8g, h100-1g] with quota for only the second.
        let mut catalog = crate::demo::catalog();
        catalog.quotas.retain(|q| q.spec != "h100-8g");
        let spec = crate::demo::pytorch().with(|s| {
            s.compute.kind = Some(ResourceKind::Reserved);
            s.compute.pool = Some("sh-a-h100".into());
            s.compute.priority = None;
            s.compute.guarantee = None;
            s.compute.specs = vec!["h100-8g".into(), "h100-1g".into()];
            s.compute.units_per_node = 1;
            s.environment.command = "torchrun --nproc_per_node 1 --nnodes \"$WORLD_SIZE\" \
                                     --node_rank \"$RANK\" train.py"
                .into();
        });
        let check = crate::check(&spec, &catalog, &crate::demo::usage(), &crate::demo::user());
        let plan = check.plan.expect("complete");
        assert_eq!(plan.chosen().map(|c| c.spec.as_str()), Some("h100-1g"));
        assert!(
            matches!(plan.outcome, Outcome::Now { index: 1, .. }),
            "{:?}",
            plan.outcome
        );
        assert!(!check.issues.has_errors(), "{}", check.issues);
        let at = crate::FieldPath::of(&["compute", "specs"]).index(0);
        assert_eq!(
            check
                .issues
                .at(&at)
                .map(|i| i.code.code())
                .collect::<Vec<_>>(),
            ["compute.quota.skipped"]
        );
    }

    // A small world to draw catalogs from: one cluster, one pool of G nodes, three specs.
    fn world(
        nodes: Vec<(Resources, Resources)>,
        quotas: Vec<(ResourceKind, usize, Resources, Resources)>,
        idle: Vec<(usize, IdleStability, u32, u32)>,
    ) -> (Catalog, Usage) {
        let specs = [(1, 2, 4, 8), (2, 4, 8, 4), (4, 8, 16, 2)];
        let mut usage = Usage::new();
        let cluster = Cluster {
            id: "c".into(),
            pools: vec![Pool {
                id: "p".into(),
                kinds: vec![
                    ResourceKind::Reserved,
                    ResourceKind::OnDemand,
                    ResourceKind::Spot,
                    ResourceKind::Idle,
                ],
                nodes: nodes
                    .iter()
                    .enumerate()
                    .map(|(i, (total, used))| {
                        let name = format!("n{i}");
                        let used = Resources::new(
                            used.gpu.min(total.gpu),
                            used.vcpu.min(total.vcpu),
                            used.memory_gib.min(total.memory_gib),
                        );
                        if used != Resources::ZERO {
                            usage.nodes.insert(name.clone(), used);
                        }
                        Node {
                            name,
                            gpu_model: Some("G".into()),
                            total: *total,
                            ..Node::default()
                        }
                    })
                    .collect(),
                ..Pool::default()
            }],
            specs: specs
                .iter()
                .enumerate()
                .map(|(i, &(g, c, m, max))| InstanceSpec {
                    id: format!("s{i}"),
                    instance_type: InstanceType::Gpu,
                    gpu_model: Some("G".into()),
                    per_unit: Resources::new(g, c, m),
                    max_units_per_node: max,
                    ..InstanceSpec::default()
                })
                .collect(),
            idle: idle
                .into_iter()
                .map(|(s, stability, nodes, units)| IdleOffer {
                    spec: format!("s{s}"),
                    stability,
                    quantity: nodes * units,
                    fragments: vec![IdleFragment { nodes, units }],
                })
                .collect(),
            ..Cluster::default()
        };
        let mut catalog = Catalog {
            regions: vec![Region {
                id: "r".into(),
                clusters: vec![cluster],
                ..Region::default()
            }],
            ..Catalog::default()
        };
        for (kind, s, limit, used) in quotas {
            let spec = format!("s{s}");
            if catalog.quota("u", kind, "p", &spec).is_some() {
                continue;
            }
            catalog.quotas.push(Quota {
                user: "u".into(),
                kind: Some(kind),
                pool: "p".into(),
                spec: spec.clone(),
                limit,
            });
            // A line that uses nothing is left out, as a node with nothing allocated is
            // (and as releasing a placement leaves it): the usage after a reserve and its
            // release is then the same value as before.
            if used != Resources::ZERO {
                usage.quota.push(crate::usage::QuotaUse {
                    user: "u".into(),
                    kind,
                    pool: "p".into(),
                    spec,
                    used,
                });
            }
        }
        (catalog, usage)
    }

    fn res(max: u64) -> impl Strategy<Value = Resources> {
        (0..=max, 0..=max * 2, 0..=max * 4).prop_map(|(g, c, m)| Resources::new(g, c, m))
    }

    fn kind() -> impl Strategy<Value = ResourceKind> {
        prop::sample::select(vec![
            ResourceKind::Reserved,
            ResourceKind::OnDemand,
            ResourceKind::Spot,
            ResourceKind::Idle,
        ])
    }

    fn stability() -> impl Strategy<Value = IdleStability> {
        prop::sample::select(vec![
            IdleStability::Low,
            IdleStability::Medium,
            IdleStability::High,
        ])
    }

    fn arbitrary_world() -> impl Strategy<Value = (Catalog, Usage)> {
        (
            prop::collection::vec((res(8), res(8)), 1..=5),
            prop::collection::vec((kind(), 0usize..3, res(16), res(8)), 0..=6),
            prop::collection::vec((0usize..3, stability(), 1u32..=3, 1u32..=4), 0..=3),
        )
            .prop_map(|(nodes, quotas, idle)| world(nodes, quotas, idle))
    }

    fn arbitrary_task() -> impl Strategy<Value = TaskSpec> {
        (
            any::<bool>(),
            kind(),
            prop::collection::vec(0usize..3, 1..=3),
            prop::option::of(0usize..3),
            0u32..=5,
            1u32..=2,
            prop::option::of(stability()),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(
                |(ray, kind, specs, head, workers, units, level, accept_idle, prefer_idle)| {
                    let mut spec = TaskSpec::default();
                    spec.basic.region = "r".into();
                    spec.basic.cluster = "c".into();
                    spec.basic.task_type = Some(if ray {
                        TaskType::RayJob
                    } else {
                        TaskType::PyTorchJob
                    });
                    spec.compute.kind = Some(kind);
                    spec.compute.pool = Some("p".into());
                    let mut ids: Vec<String> = specs.into_iter().map(|s| format!("s{s}")).collect();
                    ids.dedup();
                    spec.compute.specs = ids;
                    spec.compute.head_spec = head.map(|h| format!("s{h}"));
                    spec.compute.workers = workers;
                    spec.compute.units_per_node = units;
                    spec.compute.idle_stability = level;
                    spec.compute.accept_idle = accept_idle;
                    spec.compute.prefer_idle = prefer_idle;
                    spec
                },
            )
    }

    /// What each quota line is charged if the task runs on `compute.specs[index]`,
    /// counted pod by pod from the spec, independently of the plan.
    fn charged(spec: &TaskSpec, catalog: &Catalog, index: usize) -> Vec<(String, Resources)> {
        let cluster = &catalog.regions[0].clusters[0];
        let units = u64::from(spec.compute.units_per_node);
        let worker = &spec.compute.specs[index];
        let mut pods: Vec<&str> = Vec::new();
        pods.push(spec.head_spec().unwrap_or(worker));
        for _ in 0..spec.scheduled_workers() {
            pods.push(worker);
        }
        let mut lines: Vec<(String, Resources)> = Vec::new();
        for pod in pods {
            let need = cluster
                .spec(pod)
                .expect("known")
                .per_unit
                .checked_mul(units)
                .expect("small");
            match lines.iter_mut().find(|(s, _)| s == pod) {
                Some((_, sum)) => *sum = sum.saturating_add(need),
                None => lines.push((pod.to_owned(), need)),
            }
        }
        lines
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        #[test]
        fn what_the_plan_admits_never_exceeds_a_quota_line_or_a_node(
            (catalog, usage) in arbitrary_world(),
            spec in arbitrary_task(),
        ) {
            let user = User { name: "u".into(), ..User::default() };
            let Some(plan) = plan(&spec, &catalog, &usage, &user).expect("small numbers") else {
                return Ok(());
            };
            let placement = place(&spec, &catalog, &usage, &user).expect("small numbers");
            prop_assert_eq!(placement.is_some(), plan.chosen().is_some(), "{:?}", plan.outcome);
            let Some(placement) = placement else { return Ok(()) };
            let Outcome::Now { index, nodes } = plan.outcome else { unreachable!("checked above") };
            prop_assert_eq!(placement.index, index);
            // What the task held while it waited is what it holds once placed, but on
            // idle capacity, where reserved capacity that accepts idle holds none.
            if plan.chosen().is_some_and(|c| c.on_idle) {
                prop_assert_eq!(plan.kind, ResourceKind::Reserved);
                prop_assert!(spec.compute.accept_idle);
                prop_assert_eq!(placement.kind, ResourceKind::Idle);
                prop_assert!(placement.hold().is_empty());
                prop_assert!(placement.workers.iter().all(|w| w.node.starts_with("idle/")));
            } else {
                prop_assert_eq!(plan.hold("u"), placement.hold());
            }
            prop_assert_eq!(placement.nodes(), nodes);
            if plan.kind.uses_quota() {
                for (line, amount) in charged(&spec, &catalog, index) {
                    let limit = catalog.quota("u", plan.kind, "p", &line).map(|q| q.limit);
                    prop_assert!(limit.is_some(), "admitted with no quota for {}", line);
                    let left = remaining(limit.expect("checked"), usage.quota_used("u", plan.kind, "p", &line));
                    prop_assert!(amount.fits_within(&left), "{} asks {} of {} left", line, amount, left);
                }
            }
            let mut after = usage.clone();
            after.reserve(&placement, |n| catalog.capacity(n)).expect("a placement fits the nodes it names");
            for node in catalog.nodes() {
                prop_assert!(after.allocated(&node.name).fits_within(&node.total));
            }
            after.release(&placement).expect("it was reserved");
            prop_assert_eq!(after, usage);
        }

        #[test]
        fn the_report_and_the_plan_agree(
            (catalog, usage) in arbitrary_world(),
            spec in arbitrary_task(),
        ) {
            let user = User { name: "u".into(), ..User::default() };
            let check = crate::check(&spec, &catalog, &usage, &user);
            let Some(plan) = check.plan else { return Ok(()) };
            let refusals = ["compute.quota.exceeded", "compute.quota.none", "compute.gang.never_fits"];
            let refused = check.issues.issues().iter().any(|i| refusals.contains(&i.code.code()));
            prop_assert_eq!(refused, plan.outcome == Outcome::Blocked, "{}", check.issues);
            if let Some(used) = plan.used() {
                let at = crate::FieldPath::of(&["compute", "specs"]).index(used.index);
                prop_assert!(check.issues.at(&at).all(|i| !i.code.code().ends_with(".skipped")));
                prop_assert!(used.usable());
                // No usable spec comes before the one used unless it queues while this fits now.
                for earlier in plan.candidates.iter().filter(|c| c.index < used.index) {
                    prop_assert!(!(earlier.usable() && earlier.fit.is_now()));
                }
            }
        }

        #[test]
        fn plan_demand_is_monotone_in_workers(spec in arbitrary_task(), (catalog, usage) in arbitrary_world()) {
            let user = User { name: "u".into(), ..User::default() };
            let mut more = spec.clone();
            more.compute.workers += 1;
            if spec.is_ray() { more.ray.autoscaling.enabled = false; }
            if let (Ok(Some(a)), Ok(Some(b))) = (plan(&spec, &catalog, &usage, &user), plan(&more, &catalog, &usage, &user)) {
                for (x, y) in a.candidates.iter().zip(&b.candidates) {
                    prop_assert!(x.demand.fits_within(&y.demand));
                }
            }
        }

        /// Usage kept by node position answers as usage by name, before and after a
        /// placement is reserved and released through it.
        #[test]
        fn live_usage_plans_and_places_as_usage_by_name(
            (catalog, usage) in arbitrary_world(),
            spec in arbitrary_task(),
        ) {
            let user = User { name: "u".into(), ..User::default() };
            let catalog = std::sync::Arc::new(catalog);
            let mut live = LiveUsage::new(std::sync::Arc::clone(&catalog), usage.clone());
            prop_assert_eq!(plan_live(&spec, &live, &user), plan(&spec, &catalog, &usage, &user));
            let placement = place(&spec, &catalog, &usage, &user).expect("small numbers");
            prop_assert_eq!(
                &crate::quota::place_live(&spec, &live, &user).expect("small numbers"),
                &placement
            );
            let Some(placement) = placement else { return Ok(()) };
            let mut after = usage.clone();
            after.reserve(&placement, |n| catalog.capacity(n)).expect("fits");
            live.reserve(&placement).expect("fits");
            prop_assert_eq!(live.usage(), &after);
            prop_assert_eq!(plan_live(&spec, &live, &user), plan(&spec, &catalog, &after, &user));
            live.release(&placement).expect("reserved");
            prop_assert_eq!(live.usage(), &usage);
            prop_assert_eq!(plan_live(&spec, &live, &user), plan(&spec, &catalog, &usage, &user));
        }

        #[test]
        fn specs_round_trip_through_json(spec in arbitrary_task()) {
            let json = serde_json::to_string(&spec).expect("serialises");
            prop_assert_eq!(crate::parse_spec(&json).expect("parses"), spec);
        }
    }

    /// Reserved capacity that accepts idle (SPEC.md section 4, the seeds' 闲时补充):
    /// the gang starts on idle offers when its pool cannot start it now, or before the
    /// pool with "prefer idle", holding no quota there (it holds it while it waits); the
    /// spec must still be within its quota; with neither free it queues for its pool; a
    /// gang its pool could never hold is refused, whatever idle is free at the moment.
    #[test]
    fn reserved_capacity_that_accepts_idle_starts_on_idle_when_its_pool_cannot() {
        let quota = Resources::new(64, 128, 256);
        let world_with = |pool_used: Resources, idle_nodes: u32, quota_used: Resources| {
            world(
                vec![(Resources::new(8, 16, 32), pool_used)],
                vec![(ResourceKind::Reserved, 0, quota, quota_used)],
                vec![(0, IdleStability::Medium, idle_nodes, 4)],
            )
        };
        let taken = |(catalog, mut usage): (Catalog, Usage), nodes: u32| {
            for n in 0..nodes {
                usage
                    .nodes
                    .insert(format!("idle/c/0/{n}"), Resources::new(4, 8, 16));
            }
            (catalog, usage)
        };
        let full = Resources::new(8, 16, 32);
        let mut spec = TaskSpec::default();
        spec.basic.region = "r".into();
        spec.basic.cluster = "c".into();
        spec.basic.task_type = Some(TaskType::PyTorchJob);
        spec.compute.kind = Some(ResourceKind::Reserved);
        spec.compute.pool = Some("p".into());
        spec.compute.specs = vec!["s0".into()];
        spec.compute.workers = 1;
        spec.compute.units_per_node = 4;
        let user = User {
            name: "u".into(),
            ..User::default()
        };
        // The outcome, whether on idle, whether it holds its quota while it waits, and
        // where it is placed now.
        let outcome = |spec: &TaskSpec, (catalog, usage): &(Catalog, Usage)| {
            let p = plan(spec, catalog, usage, &user).unwrap().unwrap();
            let placed = place(spec, catalog, usage, &user).unwrap();
            let on_idle = p.candidates[0].on_idle;
            (p.outcome.clone(), on_idle, !p.hold("u").is_empty(), placed)
        };

        // The pool is full: without accepting idle, the task queues, holding its quota.
        let busy = world_with(full, 2, Resources::ZERO);
        let (o, on_idle, holds, placed) = outcome(&spec, &busy);
        assert!(matches!(o, Outcome::Queue { .. }), "{o:?}");
        assert!(!on_idle && holds && placed.is_none());
        // Accepting idle, it starts now on the idle offer's two nodes, holding no quota
        // there (waiting to be placed, it holds it: the offer may be gone by then).
        spec.compute.accept_idle = true;
        let (o, on_idle, holds, placed) = outcome(&spec, &busy);
        assert_eq!(o, Outcome::Now { index: 0, nodes: 2 });
        assert!(on_idle && holds);
        let placed = placed.expect("placed");
        assert_eq!(placed.kind, ResourceKind::Idle);
        assert!(placed.hold().is_empty());
        let mut nodes: Vec<&str> = placed.workers.iter().map(|w| w.node.as_str()).collect();
        nodes.sort_unstable();
        assert_eq!(nodes, ["idle/c/0/0", "idle/c/0/1"]);
        // The idle offers too are taken: it queues for its pool, as without idle.
        let (o, on_idle, holds, placed) =
            outcome(&spec, &taken(world_with(full, 2, Resources::ZERO), 2));
        assert!(matches!(o, Outcome::Queue { .. }), "{o:?}");
        assert!(!on_idle && holds && placed.is_none());
        // Over its quota, idle does not make the spec usable.
        let (o, _, _, placed) = outcome(&spec, &world_with(full, 2, quota));
        assert_eq!(o, Outcome::Blocked);
        assert!(placed.is_none());
        // The pool free: its own capacity first, holding its quota, unless idle is
        // preferred.
        let free = world_with(Resources::ZERO, 2, Resources::ZERO);
        let (o, on_idle, _, placed) = outcome(&spec, &free);
        assert_eq!(o, Outcome::Now { index: 0, nodes: 1 });
        assert!(!on_idle);
        let placed = placed.expect("placed");
        assert_eq!(placed.workers[0].node, "n0");
        assert!(!placed.hold().is_empty());
        spec.compute.prefer_idle = true;
        let (_, on_idle, _, placed) = outcome(&spec, &free);
        assert!(on_idle);
        assert_eq!(placed.expect("placed").kind, ResourceKind::Idle);
        // Preferred but taken, the pool's capacity is used.
        let (o, on_idle, _, placed) = outcome(
            &spec,
            &taken(world_with(Resources::ZERO, 2, Resources::ZERO), 2),
        );
        assert_eq!(o, Outcome::Now { index: 0, nodes: 1 });
        assert!(!on_idle);
        assert_eq!(placed.expect("placed").workers[0].node, "n0");
        // Four replicas of 4 units: more than the pool's one node could hold even empty.
        // Refused, though four idle nodes are free now.
        spec.compute.workers = 3;
        let (o, on_idle, _, placed) =
            outcome(&spec, &world_with(Resources::ZERO, 4, Resources::ZERO));
        assert_eq!(o, Outcome::Blocked);
        assert!(!on_idle && placed.is_none());
    }

    /// SPEC.md section 4: the idle quantity and fragments shown are what the gang fit
    /// sees: an offer's nodes less what tasks hold on them (explorer, round 4: the line
    /// showed the catalog's 1 node with 8 free beside bars of 4 free and a verdict of 0
    /// of 3 replicas placed).
    #[test]
    fn the_idle_offer_shown_is_what_is_free_now() {
        let (mut catalog, mut usage) = world(
            vec![(Resources::new(8, 16, 32), Resources::ZERO)],
            vec![],
            vec![],
        );
        catalog.regions[0].clusters[0].idle.push(IdleOffer {
            spec: "s0".into(),
            stability: IdleStability::Medium,
            quantity: 12,
            fragments: vec![
                IdleFragment { nodes: 1, units: 8 },
                IdleFragment { nodes: 2, units: 2 },
            ],
        });
        let mut spec = TaskSpec::default();
        spec.basic.region = "r".into();
        spec.basic.cluster = "c".into();
        spec.basic.task_type = Some(TaskType::PyTorchJob);
        spec.compute.kind = Some(ResourceKind::Idle);
        spec.compute.idle_stability = Some(IdleStability::Medium);
        spec.compute.specs = vec!["s0".into()];
        spec.compute.workers = 1;
        spec.compute.units_per_node = 2;
        let user = User::default();
        let shown = |usage: &Usage| {
            let p = plan(&spec, &catalog, usage, &user).unwrap().unwrap();
            p.idle
                .iter()
                .map(|o| {
                    let f: Vec<(u32, u32)> =
                        o.fragments.iter().map(|f| (f.nodes, f.units)).collect();
                    (o.quantity, f)
                })
                .collect::<Vec<_>>()
        };
        // Nothing held: as the catalog offers it.
        assert_eq!(shown(&usage), [(12, vec![(1, 8), (2, 2)])]);
        // Another task holds all 8 units of the large node (s0 is 1 GPU, 2 vCPUs, 4 GiB).
        usage
            .nodes
            .insert("idle/c/0/0".into(), Resources::new(8, 16, 32));
        assert_eq!(shown(&usage), [(4, vec![(2, 2)])]);
        // And 1 of one small node's: the nodes are grouped by what each has left.
        usage
            .nodes
            .insert("idle/c/0/1".into(), Resources::new(1, 2, 4));
        assert_eq!(shown(&usage), [(3, vec![(1, 1), (1, 2)])]);
        // Every unit held: the offer is still named, with nothing free.
        usage
            .nodes
            .insert("idle/c/0/1".into(), Resources::new(2, 4, 8));
        usage
            .nodes
            .insert("idle/c/0/2".into(), Resources::new(2, 4, 8));
        assert_eq!(shown(&usage), [(0, vec![])]);
        // An offer that lists no nodes has none free for the gang (its verdict says no
        // idle capacity is offered).
        let mut bare = catalog.clone();
        bare.regions[0].clusters[0].idle[0].fragments.clear();
        let p = plan(&spec, &bare, &Usage::new(), &user).unwrap().unwrap();
        let listed: Vec<(u32, usize)> = p
            .idle
            .iter()
            .map(|o| (o.quantity, o.fragments.len()))
            .collect();
        assert_eq!(listed, [(0, 0)]);
    }

    /// An idle fragment node is named for the reader by its cluster's offer and node,
    /// counted from 1; a pool's node by its own name, as is anything else.
    #[test]
    fn a_node_is_named_as_a_reader_can_find_it() {
        use crate::Lang;
        assert_eq!(
            node_arg("idle/sh-a/0/2").render(Lang::En),
            "node 3 of idle offer 1 in sh-a"
        );
        assert_eq!(
            node_arg("idle/sh-a/1/0").render(Lang::Zh),
            "集群 sh-a 第 2 项闲时资源中的第 1 个节点"
        );
        for name in [
            "sh-a-a100-00",
            "idle/sh-a/x/0",
            "idle/sh-a/0",
            "idle/sh-a/0/1/2",
        ] {
            assert_eq!(node_arg(name).render(Lang::En), name);
        }
    }

    /// With the catalog, an idle node is named by the catalog's names for its cluster
    /// and spec, with its offer's stability, as the form shows the offers; an offer the
    /// catalog lacks falls back to the positions, any other node to its own name.
    #[test]
    fn with_the_catalog_an_idle_node_is_named_as_the_form_shows_its_offer() {
        use crate::Lang;
        let catalog = crate::demo::catalog();
        let cluster = catalog
            .cluster("cn-east", "sh-a")
            .expect("the demo has sh-a");
        let offer = &cluster.idle[0];
        let spec = cluster
            .spec(&offer.spec)
            .expect("offered specs are the cluster's");
        let stability = match offer.stability {
            crate::task::IdleStability::Low => ("Low", "低"),
            crate::task::IdleStability::Medium => ("Medium", "中"),
            crate::task::IdleStability::High => ("High", "高"),
        };
        assert_eq!(
            node_arg_in(&catalog, "idle/sh-a/0/2").render(Lang::En),
            format!(
                "idle node 3 of {}, stability {}, in {}",
                spec.name, stability.0, cluster.name
            )
        );
        assert_eq!(
            node_arg_in(&catalog, "idle/sh-a/0/0").render(Lang::Zh),
            format!(
                "{} 的 {} 闲时资源（闲时稳定性等级：{}）中的第 1 个节点",
                cluster.name, spec.name, stability.1
            )
        );
        let past = cluster.idle.len();
        assert_eq!(
            node_arg_in(&catalog, &format!("idle/sh-a/{past}/0")).render(Lang::En),
            format!("node 1 of idle offer {} in sh-a", past + 1)
        );
        assert_eq!(
            node_arg_in(&catalog, "sh-a-a100-00").render(Lang::En),
            "sh-a-a100-00"
        );
        // As an event keeps them, nested: each named.
        let mut kept = crate::messages::Message::new("event.admitted.on.nodes")
            .with_arg("node", node_arg("idle/sh-a/0/2"))
            .with_arg("rest", node_arg("sh-a-a100-00"));
        name_idle_nodes(&catalog, &mut kept);
        assert_eq!(
            kept.args["node"].render(Lang::En),
            node_arg_in(&catalog, "idle/sh-a/0/2").render(Lang::En)
        );
        assert_eq!(kept.args["rest"].render(Lang::En), "sh-a-a100-00");
    }

    #[test]
    fn a_distinct_head_is_placed_on_idle_capacity_too() {
        let (catalog, usage) = world(
            vec![(Resources::new(8, 16, 32), Resources::ZERO)],
            vec![],
            vec![(0, IdleStability::High, 2, 2)],
        );
        let mut spec = TaskSpec::default();
        spec.basic.region = "r".into();
        spec.basic.cluster = "c".into();
        spec.basic.task_type = Some(TaskType::RayJob);
        spec.compute.kind = Some(ResourceKind::Idle);
        spec.compute.idle_stability = Some(IdleStability::Medium);
        spec.compute.specs = vec!["s0".into()];
        spec.compute.head_spec = Some("s1".into());
        spec.compute.workers = 2;
        let user = User::default();
        // No idle offer of the head's spec: the head has nowhere to go, so the task queues
        // for one (the workers' offer has free vCPUs: "none free" would misread it).
        let no_offer = |spec: &str| Outcome::Queue {
            index: 0,
            reason: QueueReason::NoIdleOffer { spec: spec.into() },
        };
        let p = plan(&spec, &catalog, &usage, &user).unwrap().unwrap();
        assert_eq!(p.outcome, no_offer("s1"));
        // Nor of the workers': they are said first.
        let mut no_workers_offer = catalog.clone();
        no_workers_offer.regions[0].clusters[0].idle.clear();
        let p = plan(&spec, &no_workers_offer, &usage, &user)
            .unwrap()
            .unwrap();
        assert_eq!(p.outcome, no_offer("s0"));
        // A low-stability offer of the head's spec does not count at medium.
        let mut with_low = catalog.clone();
        with_low.regions[0].clusters[0].idle.push(IdleOffer {
            spec: "s1".into(),
            stability: IdleStability::Low,
            quantity: 1,
            fragments: vec![IdleFragment { nodes: 1, units: 1 }],
        });
        let p = plan(&spec, &with_low, &usage, &user).unwrap().unwrap();
        assert_eq!(p.outcome, no_offer("s1"));
        spec.compute.idle_stability = Some(IdleStability::Low);
        let p = plan(&spec, &with_low, &usage, &user).unwrap().unwrap();
        assert!(matches!(p.outcome, Outcome::Now { .. }), "{:?}", p.outcome);
        assert_eq!(p.idle.len(), 1, "idle info is the chosen spec's offers");
        let placement = place(&spec, &with_low, &usage, &user).unwrap().unwrap();
        assert_eq!(
            placement.head.as_ref().map(|h| h.node.as_str()),
            Some("idle/c/1/0")
        );
    }

    #[test]
    fn an_idle_head_larger_than_any_node_can_never_start() {
        let (catalog, usage) = world(
            vec![(Resources::new(4, 8, 16), Resources::ZERO)],
            vec![],
            vec![
                (0, IdleStability::High, 4, 4),
                (2, IdleStability::High, 4, 1),
            ],
        );
        let spec = TaskSpec::default().with(|s| {
            s.basic.region = "r".into();
            s.basic.cluster = "c".into();
            s.basic.task_type = Some(TaskType::RayJob);
            s.compute.kind = Some(ResourceKind::Idle);
            s.compute.idle_stability = Some(IdleStability::High);
            s.compute.specs = vec!["s0".into()];
            // Two units of s2 are 8 GPUs: the head is sized like every replica.
            s.compute.head_spec = Some("s2".into());
            s.compute.units_per_node = 2;
            s.compute.workers = 1;
        });
        let p = plan(&spec, &catalog, &usage, &User::default())
            .unwrap()
            .unwrap();
        assert_eq!(
            p.candidates[0].fit,
            Fit::Never {
                reason: NeverReason::HeadTooLarge {
                    dimension: crate::vocab::Dimension::Gpu,
                    largest_total: 4,
                    need: 8
                }
            }
        );
        assert_eq!(p.outcome, Outcome::Blocked);
    }
}
