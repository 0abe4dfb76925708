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

use crate::catalog::{Catalog, Cluster, IdleOffer, InstanceSpec, Pool, User};
use crate::resources::{Dimension, Resources};
use crate::task::{ResourceKind, TaskSpec};
use crate::validate::Lang;
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

/// One node as placement sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// Free now.
    pub free: Resources,
    /// Capacity when empty.
    pub total: Resources,
    /// Whether a worker replica may run here.
    pub worker: bool,
    /// Whether the distinct head may run here.
    pub head: bool,
}

/// Why a gang waits in the queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QueueReason {
    /// No node has room for even one replica now.
    NoNodeHostsOne {
        /// The dimension that is short on the roomiest node.
        dimension: Dimension,
        /// The most any node has free in it.
        largest_free: u64,
        /// What one replica needs in it.
        need: u64,
    },
    /// Some replicas fit, not all at once.
    NotEnoughAtOnce {
        /// Replicas the free nodes could host together.
        placeable: u64,
        /// Replicas the task needs.
        replicas: u64,
    },
    /// No node has room for the head now.
    HeadHasNoRoom {
        /// The dimension that is short on the roomiest node.
        dimension: Dimension,
        /// The most any node has free in it.
        largest_free: u64,
        /// What the head needs in it.
        need: u64,
    },
}

/// Why a gang can never start on this pool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NeverReason {
    /// No node of the pool has this GPU model (or is a CPU node, for CPU specs).
    NoMatchingNode {
        /// The model, none for CPU specs.
        gpu_model: Option<String>,
    },
    /// One replica is larger than any node.
    ReplicaTooLarge {
        /// The dimension that is too large.
        dimension: Dimension,
        /// The largest node's capacity in it.
        largest_total: u64,
        /// What one replica needs in it.
        need: u64,
    },
    /// The head is larger than any node.
    HeadTooLarge {
        /// The dimension that is too large.
        dimension: Dimension,
        /// The largest node's capacity in it.
        largest_total: u64,
        /// What the head needs in it.
        need: u64,
    },
    /// Even an empty pool cannot hold every replica at once.
    PoolTooSmall {
        /// Replicas the empty pool could host together.
        capacity: u64,
        /// Replicas the task needs.
        replicas: u64,
    },
}

/// The gang-fit verdict for one spec.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Fit {
    /// Every replica can start now.
    Now {
        /// Fewest nodes the replicas take.
        nodes: u64,
    },
    /// The task queues until capacity frees.
    Queue {
        /// Why.
        reason: QueueReason,
    },
    /// The task can never start here.
    Never {
        /// Why.
        reason: NeverReason,
    },
}

impl Fit {
    /// Whether the gang starts now.
    pub fn is_now(&self) -> bool {
        matches!(self, Fit::Now { .. })
    }
}

/// Where `need` falls short on the slots that pass `filter`, measured by `pick` (free
/// or total): the first dimension in which it is above the per-dimension maximum, that
/// maximum, and the need. This is what "the largest free node has 4 GPUs; one replica
/// needs 8" reports.
fn shortest(
    slots: &[Slot],
    need: &Resources,
    filter: impl Fn(&Slot) -> bool,
    pick: impl Fn(&Slot) -> Resources,
) -> (Dimension, u64, u64) {
    let largest = slots
        .iter()
        .filter(|s| filter(s))
        .map(pick)
        .fold(Resources::ZERO, |m, r| Resources {
            gpu: m.gpu.max(r.gpu),
            vcpu: m.vcpu.max(r.vcpu),
            memory_gib: m.memory_gib.max(r.memory_gib),
        });
    let d = Dimension::ALL
        .into_iter()
        .find(|&d| need.get(d) > largest.get(d))
        .unwrap_or(Dimension::Gpu);
    (d, largest.get(d), need.get(d))
}

/// Largest per-node count the histogram in [`nodes_needed`] handles.
const HISTOGRAM_MAX: u64 = 4096;

/// Fewest slots whose counts add up to `wanted`, taking the largest first.
///
/// Callers ask only when the counts reach `wanted`; otherwise the answer is every slot.
fn nodes_needed(mut counts: Vec<u64>, wanted: u64) -> u64 {
    if wanted == 0 {
        return 0;
    }
    // Counts are capped at `wanted`, so for usual sizes a histogram replaces the sort
    // (the sort was most of the time on 5,000 nodes). A huge `wanted` keeps the sort, so
    // a spec with billions of workers cannot make us allocate a histogram that large.
    let largest = counts.iter().copied().max().unwrap_or(0).min(wanted);
    if largest <= HISTOGRAM_MAX {
        let mut histogram = vec![0u64; largest as usize + 1];
        for &k in &counts {
            histogram[k.min(largest) as usize] += 1;
        }
        let (mut sum, mut nodes) = (0u64, 0u64);
        for k in (1..=largest).rev() {
            let n = histogram[k as usize];
            if n == 0 {
                continue;
            }
            let short = wanted - sum;
            if n.saturating_mul(k) >= short {
                return nodes + short.div_ceil(k);
            }
            sum += n * k;
            nodes += n;
        }
        // Only when the caller's precondition fails; agree with the sort below.
        return counts.len() as u64;
    }
    counts.sort_unstable_by(|a, b| b.cmp(a));
    let mut sum = 0u64;
    for (i, k) in counts.iter().enumerate() {
        sum = sum.saturating_add(*k);
        if sum >= wanted {
            return i as u64 + 1;
        }
    }
    counts.len() as u64
}

/// Places `workers` identical replicas that each need `need`, after a distinct `head`
/// when there is one, on `slots`.
///
/// `workers` counts every replica of the worker spec: for a PyTorchJob that includes
/// the master, for a RayJob without a distinct head it includes the head.
pub fn gang_fit(slots: &[Slot], need: Resources, workers: u64, head: Option<Resources>) -> Fit {
    // Free capacity never exceeds the total, so a gang that fits now can also fit on
    // empty nodes: the can-never-fit pass (as costly again) runs only when it does not.
    match fit_now(slots, need, workers, head) {
        Ok(nodes) => Fit::Now { nodes },
        Err(reason) => match never(slots, need, workers, head) {
            Some(reason) => Fit::Never { reason },
            None => Fit::Queue { reason },
        },
    }
}

/// Whether the gang can never start here: judged on empty nodes.
fn never(
    slots: &[Slot],
    need: Resources,
    workers: u64,
    head: Option<Resources>,
) -> Option<NeverReason> {
    if workers > 0 && !slots.iter().any(|s| s.worker) {
        return Some(NeverReason::NoMatchingNode { gpu_model: None });
    }
    if workers > 0
        && !slots
            .iter()
            .any(|s| s.worker && s.total.copies_of(&need) > 0)
    {
        let (dimension, largest_total, need) = shortest(slots, &need, |s| s.worker, |s| s.total);
        return Some(NeverReason::ReplicaTooLarge {
            dimension,
            largest_total,
            need,
        });
    }
    if let Some(head) = head {
        if !slots.iter().any(|s| s.head) {
            return Some(NeverReason::NoMatchingNode { gpu_model: None });
        }
        if !slots.iter().any(|s| s.head && head.fits_within(&s.total)) {
            let (dimension, largest_total, need) = shortest(slots, &head, |s| s.head, |s| s.total);
            return Some(NeverReason::HeadTooLarge {
                dimension,
                largest_total,
                need,
            });
        }
    }
    let empty = best_total(slots, need, head, |s| s.total);
    (empty < workers).then_some(NeverReason::PoolTooSmall {
        capacity: empty,
        replicas: workers + u64::from(head.is_some()),
    })
}

/// The fewest nodes the gang takes if it can start now, else why it waits.
fn fit_now(
    slots: &[Slot],
    need: Resources,
    workers: u64,
    head: Option<Resources>,
) -> std::result::Result<u64, QueueReason> {
    let k: Vec<u64> = slots
        .iter()
        .map(|s| {
            if s.worker {
                s.free.copies_of(&need).min(workers)
            } else {
                0
            }
        })
        .collect();
    let sum: u64 = k.iter().fold(0u64, |a, &b| a.saturating_add(b));
    let no_room_for_one = || {
        let (dimension, largest_free, need) = shortest(slots, &need, |s| s.worker, |s| s.free);
        QueueReason::NoNodeHostsOne {
            dimension,
            largest_free,
            need,
        }
    };
    let Some(head) = head else {
        return match sum {
            s if s >= workers => Ok(nodes_needed(k, workers)),
            0 => Err(no_room_for_one()),
            placeable => Err(QueueReason::NotEnoughAtOnce {
                placeable,
                replicas: workers,
            }),
        };
    };
    // Put the head where it costs the fewest worker places.
    let mut best: Option<(usize, u64)> = None;
    for (j, s) in slots.iter().enumerate() {
        if !s.head || !head.fits_within(&s.free) {
            continue;
        }
        let kj = if s.worker {
            s.free.saturating_sub(head).copies_of(&need).min(workers)
        } else {
            0
        };
        let with_head = sum - k[j] + kj;
        if best.is_none_or(|(_, b)| with_head > b) {
            best = Some((j, with_head));
        }
    }
    let Some((j, placeable)) = best else {
        let (dimension, largest_free, need) = shortest(slots, &head, |s| s.head, |s| s.free);
        return Err(QueueReason::HeadHasNoRoom {
            dimension,
            largest_free,
            need,
        });
    };
    if placeable >= workers {
        let mut counts = k;
        counts[j] = 0;
        // Workers sharing the head's node cost no extra node: it is used anyway.
        let on_head = if slots[j].worker {
            slots[j]
                .free
                .saturating_sub(head)
                .copies_of(&need)
                .min(workers)
        } else {
            0
        };
        counts.push(on_head);
        return Ok(nodes_needed_excluding_last(counts, workers) + 1);
    }
    if placeable == 0 && workers > 0 {
        return Err(no_room_for_one());
    }
    Err(QueueReason::NotEnoughAtOnce {
        placeable: placeable + 1,
        replicas: workers + 1,
    })
}

/// Like [`nodes_needed`], where the last count sits on the head's node, which is used anyway.
fn nodes_needed_excluding_last(mut counts: Vec<u64>, wanted: u64) -> u64 {
    let on_head = counts.pop().unwrap_or(0);
    nodes_needed(counts, wanted.saturating_sub(on_head))
}

/// Most workers the slots could hold, measured by `capacity`, with the head placed best.
fn best_total(
    slots: &[Slot],
    need: Resources,
    head: Option<Resources>,
    capacity: impl Fn(&Slot) -> Resources,
) -> u64 {
    let k = |s: &Slot, cap: Resources| if s.worker { cap.copies_of(&need) } else { 0 };
    let sum = slots
        .iter()
        .fold(0u64, |a, s| a.saturating_add(k(s, capacity(s))));
    match head {
        None => sum,
        Some(head) => slots
            .iter()
            .filter(|s| s.head && head.fits_within(&capacity(s)))
            .map(|s| sum - k(s, capacity(s)) + k(s, capacity(s).saturating_sub(head)))
            .max()
            .unwrap_or(0),
    }
}

/// Quota for one spec of a candidate: what the task asks and what the user has left.
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadNeed {
    /// Spec id.
    pub spec: String,
    /// What the head needs.
    pub need: Resources,
}

/// One spec of the priority list, worked through.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    /// Position in `compute.specs`.
    pub index: usize,
    /// Spec id.
    pub spec: String,
    /// What one replica needs.
    pub per_replica: Resources,
    /// The distinct head, if any.
    pub head: Option<HeadNeed>,
    /// The whole task's demand.
    pub demand: Resources,
    /// Quota per spec; empty when the kind uses no quota (spot, idle).
    pub quota: Vec<QuotaLine>,
    /// Free capacity on the pool's nodes that can run the spec.
    pub available: Resources,
    /// The gang-fit verdict.
    pub fit: Fit,
}

impl Candidate {
    /// Whether every quota line fits (true when the kind uses no quota).
    pub fn quota_ok(&self) -> bool {
        self.quota.iter().all(QuotaLine::is_ok)
    }
}

/// The overall answer for the task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// Starts now with this candidate.
    Now {
        /// Index into [`Plan::candidates`].
        candidate: usize,
        /// Fewest nodes it takes.
        nodes: u64,
    },
    /// Queues as a whole until capacity frees.
    Queue {
        /// Why the first usable spec cannot start now.
        reason: QueueReason,
    },
    /// No spec can ever start, or none is within quota.
    Blocked,
}

/// Idle capacity shown for the chosen spec.
pub type IdleInfo = IdleOffer;

/// Where and whether the task would start (SPEC.md section 4).
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
    /// Idle capacity of the first spec, for idle and for reserved with idle accepted.
    pub idle: Option<IdleInfo>,
}

impl Plan {
    /// The candidate that starts now, if any.
    pub fn chosen(&self) -> Option<&Candidate> {
        match self.outcome {
            Outcome::Now { candidate, .. } => self.candidates.get(candidate),
            _ => None,
        }
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

fn slots_for(pool: &Pool, worker: &InstanceSpec, head: Option<&InstanceSpec>) -> Vec<Slot> {
    pool.nodes
        .iter()
        .map(|n| Slot {
            free: n.free,
            total: n.total,
            worker: n.hosts(worker),
            head: head.is_some_and(|h| n.hosts(h)),
        })
        .collect()
}

/// Idle fragments as slots: each idle node offers `units` units of the spec.
fn idle_slots(offer: &IdleOffer, spec: &InstanceSpec) -> Vec<Slot> {
    let full = spec
        .per_unit
        .checked_mul(u64::from(spec.max_units_per_node))
        .unwrap_or(spec.per_unit);
    offer
        .fragments
        .iter()
        .flat_map(|f| {
            let free = spec
                .per_unit
                .checked_mul(u64::from(f.units))
                .unwrap_or(Resources::ZERO);
            std::iter::repeat_n(
                Slot {
                    free,
                    total: full,
                    worker: true,
                    head: false,
                },
                f.nodes as usize,
            )
        })
        .collect()
}

/// Works out the plan for `spec` on `catalog` for `user`.
///
/// Returns `None` while the spec lacks what the math needs: a known cluster, a resource
/// kind, a pool, and at least one known spec of the chosen instance type that the pool
/// can run. Validation reports those gaps.
///
/// # Errors
///
/// [`QuotaError::Overflow`] when the demand does not fit in 64 bits.
pub fn plan(spec: &TaskSpec, catalog: &Catalog, user: &User) -> Result<Option<Plan>> {
    let Some(cluster) = catalog.cluster(&spec.basic.region, &spec.basic.cluster) else {
        return Ok(None);
    };
    let Some(kind) = spec.compute.kind else {
        return Ok(None);
    };
    let Some(pool) = resolve_pool(spec, cluster) else {
        return Ok(None);
    };
    let units = spec.compute.units_per_node;
    let head_spec = match spec.distinct_head_spec() {
        Some(id) => match cluster.spec(id) {
            Some(s) => Some(s),
            None => return Ok(None),
        },
        None => None,
    };
    let replicas = spec.replicas();
    let mut candidates = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (index, id) in spec.compute.specs.iter().enumerate() {
        let Some(worker) = cluster.spec(id) else {
            continue;
        };
        if worker.instance_type != spec.compute.instance_type
            || units == 0
            || units > worker.max_units_per_node
            || seen.contains(&id.as_str())
            || !pool.nodes.iter().any(|n| n.hosts(worker))
        {
            continue;
        }
        seen.push(id);
        let need = per_replica(worker, units)?;
        let head = match head_spec {
            // A distinct head is one unit of its own spec; units per node sizes the workers.
            Some(h) => Some(HeadNeed {
                spec: h.id.clone(),
                need: per_replica(h, 1)?,
            }),
            None => None,
        };
        let worker_count = if head.is_some() {
            replicas - 1
        } else {
            replicas
        };
        let demand = demand(need, worker_count, head.as_ref().map(|h| h.need))?;
        let quota = if kind.uses_quota() {
            let mut lines = vec![quota_line(
                catalog,
                user,
                kind,
                pool,
                &worker.id,
                need.checked_mul(worker_count).ok_or(QuotaError::Overflow)?,
            )];
            if let Some(h) = &head {
                lines.push(quota_line(catalog, user, kind, pool, &h.spec, h.need));
            }
            lines
        } else {
            Vec::new()
        };
        let fit = if kind == ResourceKind::Idle {
            idle_fit(cluster, pool, worker, need, worker_count)
        } else {
            gang_fit(
                &slots_for(pool, worker, head_spec),
                need,
                worker_count,
                head.as_ref().map(|h| h.need),
            )
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
        let mut available = pool.available_for(worker);
        if let Some(h) = head_spec.filter(|h| h.gpu_model != worker.gpu_model) {
            available = available
                .checked_add(pool.available_for(h))
                .ok_or(QuotaError::Overflow)?;
        }
        candidates.push(Candidate {
            index,
            spec: worker.id.clone(),
            per_replica: need,
            head,
            demand,
            quota,
            available,
            fit,
        });
    }
    if candidates.is_empty() {
        return Ok(None);
    }
    let starts_now = candidates
        .iter()
        .enumerate()
        .find_map(|(i, c)| match c.fit {
            Fit::Now { nodes } if c.quota_ok() => Some(Outcome::Now {
                candidate: i,
                nodes,
            }),
            _ => None,
        });
    let outcome = match starts_now {
        Some(now) => now,
        None => match candidates
            .iter()
            .filter(|c| c.quota_ok())
            .find_map(|c| match &c.fit {
                Fit::Queue { reason } => Some(reason.clone()),
                _ => None,
            }) {
            Some(reason) => Outcome::Queue { reason },
            None => Outcome::Blocked,
        },
    };
    let idle = (kind == ResourceKind::Idle
        || (kind == ResourceKind::Reserved && spec.compute.accept_idle))
        .then(|| cluster.idle_for(&candidates[0].spec).cloned())
        .flatten();
    Ok(Some(Plan {
        kind,
        pool: pool.id.clone(),
        replicas,
        candidates,
        outcome,
        idle,
    }))
}

fn quota_line(
    catalog: &Catalog,
    user: &User,
    kind: ResourceKind,
    pool: &Pool,
    spec: &str,
    requested: Resources,
) -> QuotaLine {
    let row = catalog.quota(&user.name, kind, &pool.id, spec);
    QuotaLine {
        spec: spec.to_owned(),
        requested,
        limit: row.map(|q| q.limit),
        remaining: row.map(|q| remaining(q.limit, q.used)),
    }
}

/// Idle tasks run on idle fragments; they never fail for lack of idle capacity, they wait.
fn idle_fit(
    cluster: &Cluster,
    pool: &Pool,
    spec: &InstanceSpec,
    need: Resources,
    count: u64,
) -> Fit {
    if let Fit::Never {
        reason: reason @ (NeverReason::NoMatchingNode { .. } | NeverReason::ReplicaTooLarge { .. }),
    } = gang_fit(&slots_for(pool, spec, None), need, count, None)
    {
        return Fit::Never { reason };
    }
    let Some(offer) = cluster.idle_for(&spec.id) else {
        return Fit::Queue {
            reason: QueueReason::NotEnoughAtOnce {
                placeable: 0,
                replicas: count,
            },
        };
    };
    match gang_fit(&idle_slots(offer, spec), need, count, None) {
        Fit::Now { nodes } => Fit::Now { nodes },
        Fit::Queue { reason } => Fit::Queue { reason },
        Fit::Never { .. } => {
            let placeable = idle_slots(offer, spec)
                .iter()
                .fold(0u64, |a, s| a.saturating_add(s.free.copies_of(&need)));
            Fit::Queue {
                reason: QueueReason::NotEnoughAtOnce {
                    placeable,
                    replicas: count,
                },
            }
        }
    }
}

impl QueueReason {
    /// The reason in plain words.
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (
                QueueReason::NoNodeHostsOne {
                    dimension,
                    largest_free,
                    need,
                },
                Lang::En,
            ) => {
                format!(
                    "the largest free node has {largest_free} {u}; one replica needs {need}",
                    u = dimension.unit_en()
                )
            }
            (
                QueueReason::NoNodeHostsOne {
                    dimension,
                    largest_free,
                    need,
                },
                Lang::Zh,
            ) => {
                format!(
                    "空闲最多的节点只有 {largest_free} {u}，单个副本需要 {need}",
                    u = dimension.unit_zh()
                )
            }
            (
                QueueReason::NotEnoughAtOnce {
                    placeable,
                    replicas,
                },
                Lang::En,
            ) => {
                format!("free nodes can host {placeable} of {replicas} replicas at once")
            }
            (
                QueueReason::NotEnoughAtOnce {
                    placeable,
                    replicas,
                },
                Lang::Zh,
            ) => {
                format!("空闲节点只能同时容纳 {replicas} 个副本中的 {placeable} 个")
            }
            (
                QueueReason::HeadHasNoRoom {
                    dimension,
                    largest_free,
                    need,
                },
                Lang::En,
            ) => {
                format!(
                    "the largest free node has {largest_free} {u}; the head needs {need}",
                    u = dimension.unit_en()
                )
            }
            (
                QueueReason::HeadHasNoRoom {
                    dimension,
                    largest_free,
                    need,
                },
                Lang::Zh,
            ) => {
                format!(
                    "空闲最多的节点只有 {largest_free} {u}，Head 需要 {need}",
                    u = dimension.unit_zh()
                )
            }
        }
    }
}

impl NeverReason {
    /// The reason in plain words.
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (NeverReason::NoMatchingNode { gpu_model: Some(m) }, Lang::En) => {
                format!("no node of the pool has {m} GPUs")
            }
            (NeverReason::NoMatchingNode { gpu_model: Some(m) }, Lang::Zh) => {
                format!("资源池中没有 {m} GPU 节点")
            }
            (NeverReason::NoMatchingNode { gpu_model: None }, Lang::En) => {
                "no node of the pool is a CPU node".to_owned()
            }
            (NeverReason::NoMatchingNode { gpu_model: None }, Lang::Zh) => {
                "资源池中没有 CPU 节点".to_owned()
            }
            (
                NeverReason::ReplicaTooLarge {
                    dimension,
                    largest_total,
                    need,
                },
                Lang::En,
            ) => {
                format!(
                    "one replica needs {need} {u}; the largest node has {largest_total}",
                    u = dimension.unit_en()
                )
            }
            (
                NeverReason::ReplicaTooLarge {
                    dimension,
                    largest_total,
                    need,
                },
                Lang::Zh,
            ) => {
                format!(
                    "单个副本需要 {need} {u}，最大的节点只有 {largest_total}",
                    u = dimension.unit_zh()
                )
            }
            (
                NeverReason::HeadTooLarge {
                    dimension,
                    largest_total,
                    need,
                },
                Lang::En,
            ) => {
                format!(
                    "the head needs {need} {u}; the largest node has {largest_total}",
                    u = dimension.unit_en()
                )
            }
            (
                NeverReason::HeadTooLarge {
                    dimension,
                    largest_total,
                    need,
                },
                Lang::Zh,
            ) => {
                format!(
                    "Head 需要 {need} {u}，最大的节点只有 {largest_total}",
                    u = dimension.unit_zh()
                )
            }
            (NeverReason::PoolTooSmall { capacity, replicas }, Lang::En) => {
                format!("even when empty the pool holds {capacity} of {replicas} replicas at once")
            }
            (NeverReason::PoolTooSmall { capacity, replicas }, Lang::Zh) => {
                format!("即使资源池全部空闲，也只能同时容纳 {replicas} 个副本中的 {capacity} 个")
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::catalog::User;
    use proptest::prelude::*;

    /// Tries every placement of the head, then of each worker, one node at a time.
    fn brute_force(
        capacity: &[Resources],
        slots: &[Slot],
        need: Resources,
        workers: u64,
        head: Option<Resources>,
    ) -> bool {
        fn place(left: &mut [Resources], slots: &[Slot], need: Resources, workers: u64) -> bool {
            if workers == 0 {
                return true;
            }
            for i in 0..left.len() {
                if slots[i].worker && need.fits_within(&left[i]) {
                    left[i] = left[i].saturating_sub(need);
                    let ok = place(left, slots, need, workers - 1);
                    left[i] = left[i].checked_add(need).expect("small numbers");
                    if ok {
                        return true;
                    }
                }
            }
            false
        }
        let mut left = capacity.to_vec();
        match head {
            None => place(&mut left, slots, need, workers),
            Some(h) => (0..left.len()).any(|j| {
                if !slots[j].head || !h.fits_within(&left[j]) {
                    return false;
                }
                let mut left = left.clone();
                left[j] = left[j].saturating_sub(h);
                place(&mut left, slots, need, workers)
            }),
        }
    }

    fn small_resources() -> impl Strategy<Value = Resources> {
        (0u64..=8, 0u64..=8, 0u64..=8).prop_map(|(g, c, m)| Resources::new(g, c, m))
    }

    fn small_cluster() -> impl Strategy<Value = Vec<Slot>> {
        prop::collection::vec(
            (
                small_resources(),
                small_resources(),
                any::<bool>(),
                any::<bool>(),
            ),
            1..=4,
        )
        .prop_map(|nodes| {
            nodes
                .into_iter()
                .map(|(total, used, worker, head)| Slot {
                    free: total.saturating_sub(used),
                    total,
                    worker,
                    head,
                })
                .collect()
        })
    }

    fn need() -> impl Strategy<Value = Resources> {
        (0u64..=4, 0u64..=4, 1u64..=4).prop_map(|(g, c, m)| Resources::new(g, c, m))
    }

    proptest! {
        // The head branch is only wrong on rare layouts; 256 cases missed a planted bug.
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn fast_gang_fit_equals_brute_force(slots in small_cluster(), need in need(), workers in 0u64..=5, head in prop::option::of(need())) {
            let fit = gang_fit(&slots, need, workers, head);
            let free: Vec<Resources> = slots.iter().map(|s| s.free).collect();
            let total: Vec<Resources> = slots.iter().map(|s| s.total).collect();
            prop_assert_eq!(fit.is_now(), brute_force(&free, &slots, need, workers, head), "{:?}", fit);
            prop_assert_eq!(matches!(fit, Fit::Never { .. }), !brute_force(&total, &slots, need, workers, head), "{:?}", fit);
            if let Fit::Now { nodes } = fit {
                prop_assert!(nodes <= slots.len() as u64);
                prop_assert!(nodes >= u64::from(workers > 0 || head.is_some()));
            }
        }

        #[test]
        fn nodes_needed_matches_the_sorted_greedy(counts in prop::collection::vec(0u64..6000, 0..40), wanted in 0u64..8000) {
            let mut sorted = counts.clone();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            let mut expected = if wanted == 0 { 0 } else { sorted.len() as u64 };
            let mut sum = 0u64;
            for (i, k) in sorted.iter().enumerate() {
                sum += (*k).min(wanted);
                if wanted > 0 && sum >= wanted {
                    expected = i as u64 + 1;
                    break;
                }
            }
            prop_assert_eq!(nodes_needed(counts, wanted), expected);
        }

        #[test]
        fn demand_is_monotone_in_replicas(need in small_resources(), n in 0u64..1000, head in prop::option::of(small_resources())) {
            let fewer = demand(need, n, head).expect("small");
            let more = demand(need, n + 1, head).expect("small");
            prop_assert!(fewer.fits_within(&more));
        }

        #[test]
        fn fits_is_monotone_and_admit_then_release_is_identity(limit in small_resources(), used in small_resources(), request in small_resources(), smaller in small_resources()) {
            let left = remaining(limit, used);
            if fits(request, left).is_ok() {
                let smaller = Resources::new(smaller.gpu.min(request.gpu), smaller.vcpu.min(request.vcpu), smaller.memory_gib.min(request.memory_gib));
                prop_assert!(fits(smaller, left).is_ok());
                let admitted = used.checked_add(request).expect("small");
                let after = remaining(limit, admitted);
                prop_assert_eq!(after.checked_add(request).expect("small"), left);
            }
        }
    }

    #[test]
    fn both_node_counts_agree_when_the_counts_fall_short() {
        // Found by the property below on CI: the histogram said 0, the sort said 1.
        assert_eq!(nodes_needed(vec![0], 1), 1);
        assert_eq!(nodes_needed(vec![5_000, 0], 6_000), 2);
    }

    #[test]
    fn the_head_is_placed_where_it_costs_the_fewest_workers() {
        let node = |g| Slot {
            free: Resources::new(g, 8, 8),
            total: Resources::new(8, 8, 8),
            worker: true,
            head: true,
        };
        // Head on the 4-GPU node leaves room for 2 + 4 workers of 2 GPUs; elsewhere only 5.
        let slots = [node(4), node(8)];
        assert_eq!(
            gang_fit(
                &slots,
                Resources::new(2, 1, 1),
                6,
                Some(Resources::new(0, 1, 1))
            ),
            Fit::Now { nodes: 2 }
        );
    }

    #[test]
    fn queue_reason_names_the_short_dimension() {
        let slots = [Slot {
            free: Resources::new(4, 64, 512),
            total: Resources::new(8, 64, 512),
            worker: true,
            head: false,
        }];
        let fit = gang_fit(&slots, Resources::new(8, 8, 8), 1, None);
        let Fit::Queue { reason } = fit else {
            panic!("expected a queue verdict, got {fit:?}")
        };
        assert_eq!(
            reason,
            QueueReason::NoNodeHostsOne {
                dimension: Dimension::Gpu,
                largest_free: 4,
                need: 8
            }
        );
        assert_eq!(
            reason.message(Lang::En),
            "the largest free node has 4 GPUs; one replica needs 8"
        );
    }

    #[test]
    fn overflowing_demand_is_an_error_not_a_wrap() {
        let mut catalog = crate::demo::catalog();
        let cluster = &mut catalog.regions[0].clusters[0];
        cluster.specs[2].per_unit = Resources::new(u64::MAX / 2, 1, 1);
        let mut spec: TaskSpec =
            TaskSpec::from_json(crate::demo::PYTORCH_EXAMPLE).expect("example parses");
        spec.compute.workers = 3;
        assert_eq!(
            plan(&spec, &catalog, &crate::demo::user()),
            Err(QuotaError::Overflow)
        );
        let report = crate::validate(&spec, &catalog, &crate::demo::user());
        assert!(
            report.codes().contains(&"compute.demand.overflow"),
            "{report}"
        );
    }

    fn arbitrary_compute() -> impl Strategy<Value = TaskSpec> {
        let kinds = prop::sample::select(vec![
            ResourceKind::Reserved,
            ResourceKind::OnDemand,
            ResourceKind::Spot,
            ResourceKind::Idle,
        ]);
        let pools = prop::option::of(prop::sample::select(vec![
            "sh-a-h100".to_owned(),
            "sh-a-shared".to_owned(),
        ]));
        let specs = prop::collection::vec(
            prop::sample::select(vec!["h100-1g", "h100-8g", "a100-1g"]),
            1..=3,
        );
        (kinds, pools, specs, 1u32..=8, 0u32..=40).prop_map(
            |(kind, pool, specs, units, workers)| {
                let mut spec: TaskSpec =
                    TaskSpec::from_json(crate::demo::PYTORCH_EXAMPLE).expect("example parses");
                spec.compute.kind = Some(kind);
                spec.compute.pool = pool;
                spec.compute.specs = specs.into_iter().map(str::to_owned).collect();
                spec.compute.units_per_node = units;
                spec.compute.workers = workers;
                spec
            },
        )
    }

    proptest! {
        #[test]
        fn plan_and_report_agree_on_quota(spec in arbitrary_compute()) {
            let user: User = crate::demo::user();
            let check = crate::check(&spec, &crate::demo::catalog(), &user);
            let Some(plan) = check.plan else { return Ok(()) };
            for candidate in &plan.candidates {
                let path = crate::FieldPath::of(&["compute", "specs"]).index(candidate.index);
                let quota_errors = check.issues.at(&path).filter(|i| i.code.code().starts_with("compute.quota.")).count();
                prop_assert_eq!(quota_errors == 0, candidate.quota_ok(), "{:?}", candidate);
            }
            if let Some(chosen) = plan.chosen() {
                let path = crate::FieldPath::of(&["compute", "specs"]).index(chosen.index);
                prop_assert!(check.issues.at(&path).all(|i| !i.code.code().starts_with("compute.quota.")));
                prop_assert!(check.issues.issues().iter().all(|i| i.code.code() != "compute.gang.will_queue"));
            }
        }

        #[test]
        fn plan_demand_is_monotone_in_workers(spec in arbitrary_compute()) {
            let catalog = crate::demo::catalog();
            let user = crate::demo::user();
            let mut more = spec.clone();
            more.compute.workers += 1;
            if let (Ok(Some(a)), Ok(Some(b))) = (plan(&spec, &catalog, &user), plan(&more, &catalog, &user)) {
                for (x, y) in a.candidates.iter().zip(&b.candidates) {
                    prop_assert!(x.demand.fits_within(&y.demand));
                }
            }
        }

        #[test]
        fn specs_round_trip_through_json(spec in arbitrary_compute()) {
            let json = serde_json::to_string(&spec).expect("serialises");
            prop_assert_eq!(TaskSpec::from_json(&json).expect("parses"), spec);
        }
    }
}
