//! Gang fit: whether every replica can be placed at once, and on how few nodes.

use super::{Dimension, Resources};
use crate::messages::{Lang, Message};
use crate::wire;
use serde::de;
use serde::{Deserialize, Deserializer, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
// Read by hand (`crate::wire`): same JSON, a fraction of the derive's code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QueueReason {
    /// No node has room for even one replica now. On nodes of different shapes no one
    /// dimension may be short (one node lacks vCPUs, another memory): then `largest_free`
    /// is not below `need`, and the reason reads as no node having all of it at once. The
    /// same holds for the head's and the never-fit reasons below.
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
    /// An idle task: no idle capacity of this spec is offered at the chosen stability or
    /// above, so none of its pods (the workers, or a head of its own spec) has anywhere
    /// to go until one is.
    NoIdleOffer {
        /// The spec without an offer.
        spec: String,
    },
    /// It would start now, but only in room the queue keeps for a task ahead of it in its
    /// pool, passed over too often, which starts first (`quota::held`). Told by the
    /// server that keeps the queue, and by the console from what it says, which the
    /// validator package does not carry.
    #[cfg(feature = "queue")]
    PassedOver,
}

/// Why a gang can never start on this pool.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
// Read by hand (`crate::wire`): same JSON, a fraction of the derive's code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
/// needs 8" reports. On nodes of different shapes no dimension may be short of the
/// maximum (one node lacks vCPUs, another memory): then the maximum returned is not
/// below the need, which the reasons' messages say as no node having all of it at once.
pub(crate) fn shortest(
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

/// Largest gang the dense tables handle: up to this many workers, nodes are bucketed by
/// their per-node count in an array indexed by it; a larger gang sorts the nodes instead,
/// so a spec with billions of workers cannot make us allocate a table that large.
const DENSE_MAX: u64 = 4096;

/// The nodes that can host the same number of workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Level {
    /// Workers one node of this level can host, capped at the gang's size.
    value: u64,
    /// The node of this level that is best for the head: the workers that still fit
    /// beside the head there, and its index (the first of the best).
    head: Option<(u64, usize)>,
    /// Workers the nodes of this level and of every level above can host together.
    sum: u128,
    /// Nodes at this level and above.
    nodes: u64,
}

/// `k_i = min over dimensions of floor(free_i / need)`, capped at the gang's size: every
/// node divides by the same `need`, so each division is done as a multiply.
struct Copies {
    /// Per dimension, in [`Dimension::ALL`] order: how to divide by its need.
    by: [Divisor; 3],
    /// Whether every divisor is below 2^32, so the exact 32-bit method applies to
    /// amounts below 2^32 too.
    small: bool,
    /// The gang's size: no node needs to host more.
    cap: u64,
}

/// Division by one dimension's need `d`, as a multiply.
#[derive(Clone, Copy)]
struct Divisor {
    /// The divisor `d`.
    d: u64,
    /// `floor((2^64 − 1) / d)`: `n × m / 2^64` is at most `n / d` and more than
    /// `n / d − 1`, so its floor is the quotient or one below it.
    m: u64,
    /// `ceil(2^64 / d)` modulo 2^64 (zero for `d = 1`): for `n` and `d` below 2^32 the
    /// floor of `n × c / 2^64` is exactly `n / d` (Lemire, Kaser and Kurz, "Faster
    /// remainder by direct computation", 2019).
    c: u64,
    /// All ones when `d = 1`, whose `c` (2^64) does not fit: then `n` is added instead.
    one: u64,
    /// All ones when `d = 0`: the dimension does not limit, so its quotient is the most.
    off: u64,
}

impl Copies {
    fn new(need: &Resources, cap: u64) -> Self {
        let by = Dimension::ALL.map(|dim| {
            let d = need.get(dim);
            let m = u64::MAX.checked_div(d).unwrap_or(0);
            Divisor {
                d,
                m,
                c: if d == 0 { 0 } else { m.wrapping_add(1) },
                one: if d == 1 { u64::MAX } else { 0 },
                off: if d == 0 { u64::MAX } else { 0 },
            }
        });
        let small = by.iter().all(|b| b.d >> 32 == 0);
        Copies { by, small, cap }
    }

    /// `free.copies_of(need).min(cap)`, without a branch per dimension.
    #[inline]
    fn of(&self, free: &Resources) -> u64 {
        let n = [free.gpu, free.vcpu, free.memory_gib];
        let mulhi = |a: u64, b: u64| ((u128::from(a) * u128::from(b)) >> 64) as u64;
        let mut k = self.cap;
        if self.small && (n[0] | n[1] | n[2]) >> 32 == 0 {
            for (n, b) in n.into_iter().zip(&self.by) {
                k = k.min((mulhi(n, b.c) + (n & b.one)) | b.off);
            }
        } else {
            for (n, b) in n.into_iter().zip(&self.by) {
                let q = mulhi(n, b.m);
                k = k.min((q + u64::from(n - q * b.d >= b.d)) | b.off);
            }
        }
        k
    }
}

/// Workers one node can host on its free capacity, capped at the gang's size.
#[inline]
fn workers_on(slot: &Slot, copies: &Copies) -> u64 {
    if slot.worker {
        copies.of(&slot.free)
    } else {
        0
    }
}

/// When the head fits on the node: the workers that still fit beside it there.
#[inline]
fn beside_head(slot: &Slot, copies: &Copies, head: &Resources) -> Option<u64> {
    (slot.head && head.fits_within(&slot.free)).then(|| {
        if slot.worker {
            copies.of(&slot.free.saturating_sub(*head))
        } else {
            0
        }
    })
}

/// One count's bucket in the dense table.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    /// Nodes hosting this many workers.
    count: u64,
    /// The best of them for the head, as in [`Level::head`].
    head: Option<(u64, usize)>,
    /// The free capacity of the last of them the head was tried on: a node with the
    /// same free capacity cannot do better (many nodes are alike: empty, or half used).
    tried: Option<Resources>,
}

/// Tables kept between calls, so a call allocates nothing once they have grown (at most
/// 4,097 buckets per thread, about 256 KiB).
#[derive(Default)]
struct Scratch {
    /// The dense table, indexed by per-node count.
    buckets: Vec<Bucket>,
    /// The levels built from it.
    levels: Vec<Level>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// The nodes grouped by how many workers each can host, largest first, with running
/// sums, into `out`. Nodes that can host no worker and not the head are left out.
fn levels(
    slots: &[Slot],
    copies: &Copies,
    head: Option<Resources>,
    dense_max: u64,
    buckets: &mut Vec<Bucket>,
    out: &mut Vec<Level>,
) {
    out.clear();
    let mut push = |value: u64, count: u64, head: Option<(u64, usize)>| {
        let (sum, nodes) = out.last().map_or((0, 0), |l: &Level| (l.sum, l.nodes));
        out.push(Level {
            value,
            head,
            sum: sum + u128::from(value) * u128::from(count),
            nodes: nodes + count,
        });
    };
    // The best head node of a level: most workers beside the head, then the first.
    let better = |best: Option<(u64, usize)>, kh: u64| best.is_none_or(|(b, _)| kh > b);
    let workers = copies.cap;
    if workers <= dense_max {
        buckets.clear();
        buckets.resize(
            workers as usize + 1,
            Bucket {
                count: 0,
                head: None,
                tried: None,
            },
        );
        for (i, s) in slots.iter().enumerate() {
            let k = workers_on(s, copies);
            let bucket = &mut buckets[k as usize];
            bucket.count += 1;
            // What fits beside the head is never more than `k`: once a node of this
            // count keeps all `k`, no later one can beat it, so it is not worked out;
            // nor on a node with the free capacity of the last one tried.
            if let Some(h) = &head
                && s.head
                && bucket.head.is_none_or(|(b, _)| b < k)
                && bucket.tried != Some(s.free)
            {
                bucket.tried = Some(s.free);
                if let Some(kh) = beside_head(s, copies, h)
                    && better(bucket.head, kh)
                {
                    bucket.head = Some((kh, i));
                }
            }
        }
        for k in (0..=workers).rev() {
            let b = buckets[k as usize];
            if (k > 0 && b.count > 0) || b.head.is_some() {
                push(k, b.count, b.head);
            }
        }
    } else {
        // Largest count first, then the first node. A heap's sort: only gangs past
        // `dense_max` come here (none that validation lets through), and the slice
        // sorts' code is about 4 KB of the validator package's wasm, the heap's under 1 KB.
        let nodes: BinaryHeap<(Reverse<u64>, usize, Option<u64>)> = slots
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let kh = head.as_ref().and_then(|h| beside_head(s, copies, h));
                (Reverse(workers_on(s, copies)), i, kh)
            })
            .filter(|&(Reverse(k), _, kh)| k > 0 || kh.is_some())
            .collect();
        for group in nodes.into_sorted_vec().chunk_by(|a, b| a.0 == b.0) {
            let mut h = None;
            for &(_, i, kh) in group {
                if let Some(kh) = kh
                    && better(h, kh)
                {
                    h = Some((kh, i));
                }
            }
            push(group[0].0.0, group.len() as u64, h);
        }
    }
}

/// The workers placed on nodes other than the head's, largest count first: every node
/// hosting more than `value` takes all it can, then nodes hosting exactly `value` take
/// `left` between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rest {
    /// The smallest count used.
    value: u64,
    /// Workers the nodes at that count take.
    left: u64,
}

/// Where the gang goes, in counts: what [`gang_fit`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Solution {
    /// Distinct nodes used.
    nodes: u64,
    /// The head's node and the workers beside it there.
    head: Option<(usize, u64)>,
    /// The other workers, none when every worker is beside the head (or there is none).
    rest: Option<Rest>,
}

/// Fewest nodes that host `wanted` workers, largest count first (optimal for identical
/// replicas), leaving out one node of level `skip` (the head's). `None` when they cannot.
///
/// Leaving out a node of level `p` takes its count off every running sum from `p` down,
/// which keeps them sorted: a binary search over the levels finds where the sum reaches
/// `wanted`.
fn fewest(levels: &[Level], wanted: u64, skip: Option<usize>) -> Option<(u64, Option<Rest>)> {
    if wanted == 0 {
        return Some((0, None));
    }
    let at = |t: usize| {
        let l = &levels[t];
        match skip {
            Some(p) if p <= t => (l.sum - u128::from(levels[p].value), l.nodes - 1),
            _ => (l.sum, l.nodes),
        }
    };
    let (mut lo, mut hi) = (0, levels.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if at(mid).0 >= u128::from(wanted) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    if lo == levels.len() {
        return None;
    }
    let (sum_above, nodes_above) = if lo == 0 { (0, 0) } else { at(lo - 1) };
    // Below `wanted`, so it fits; the level adds to the sum, so its count is not zero.
    let left = wanted - sum_above as u64;
    let value = levels[lo].value;
    Some((
        nodes_above + left.div_ceil(value),
        Some(Rest { value, left }),
    ))
}

/// Why a gang does not fit now, in counts.
enum Short {
    /// No node has room for the head.
    HeadHasNoRoom,
    /// The most workers the nodes can host at once (with the head placed best).
    Placeable(u64),
}

/// The fewest-nodes placement, in counts, or why there is none.
///
/// With a distinct head: for each node `j` that can take it, the head's node hosts the
/// workers that fit beside the head and the fewest other nodes host the rest. Nodes of a
/// level differ only in what fits beside the head, so only each level's best is tried.
fn solve(levels: &[Level], workers: u64, head: bool) -> Result<Solution, Short> {
    let total = levels.last().map_or(0, |l| l.sum);
    let placeable = |n: u128| u64::try_from(n).unwrap_or(u64::MAX);
    if !head {
        return match fewest(levels, workers, None) {
            Some((nodes, rest)) => Ok(Solution {
                nodes,
                head: None,
                rest,
            }),
            None => Err(Short::Placeable(placeable(total))),
        };
    }
    let mut best: Option<Solution> = None;
    let mut most: Option<u128> = None;
    for (p, level) in levels.iter().enumerate() {
        let Some((beside, j)) = level.head else {
            continue;
        };
        let here = total - u128::from(level.value) + u128::from(beside);
        most = Some(most.map_or(here, |m| m.max(here)));
        if let Some((nodes, rest)) = fewest(levels, workers - beside, Some(p))
            && best.is_none_or(|b| nodes + 1 < b.nodes)
        {
            best = Some(Solution {
                nodes: nodes + 1,
                head: Some((j, beside)),
                rest,
            });
        }
    }
    match (best, most) {
        (Some(solution), _) => Ok(solution),
        (None, Some(most)) => Err(Short::Placeable(placeable(most))),
        (None, None) => Err(Short::HeadHasNoRoom),
    }
}

/// Places `workers` identical replicas that each need `need`, after a distinct `head`
/// when there is one, on `slots`.
///
/// `workers` counts every replica of the worker spec: for a PyTorchJob that includes
/// the master, for a RayJob without a distinct head it includes the head.
pub fn gang_fit(slots: &[Slot], need: Resources, workers: u64, head: Option<Resources>) -> Fit {
    // Free capacity never exceeds the total, so a gang that fits now can also fit on
    // empty nodes: the can-never-fit pass (as costly again) runs only when it does not.
    match fit_now(slots, need, workers, head, DENSE_MAX) {
        Ok(solution) => Fit::Now {
            nodes: solution.nodes,
        },
        Err(reason) => match never(slots, need, workers, head) {
            Some(reason) => Fit::Never { reason },
            None => Fit::Queue { reason },
        },
    }
}

/// Where each replica of a gang goes: one assignment on the fewest nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GangPlacement {
    /// The slot index of the distinct head, when there is one.
    pub head: Option<usize>,
    /// Slot index and the worker replicas placed there: only slots with at least one,
    /// in ascending slot order.
    pub workers: Vec<(usize, u64)>,
}

/// The placement [`gang_fit`] counts when it says [`Fit::Now`]: the head's slot and how
/// many workers each slot hosts, on the fewest nodes; `None` when the gang does not fit
/// now.
pub fn gang_place(
    slots: &[Slot],
    need: Resources,
    workers: u64,
    head: Option<Resources>,
) -> Option<GangPlacement> {
    let solution = fit_now(slots, need, workers, head, DENSE_MAX).ok()?;
    Some(spell_out(slots, need, workers, &solution))
}

/// The slots a [`Solution`] uses, read off the same per-node counts it was built from.
fn spell_out(slots: &[Slot], need: Resources, workers: u64, solution: &Solution) -> GangPlacement {
    let head_node = solution.head.map(|(j, _)| j);
    let copies = Copies::new(&need, workers);
    let mut left = solution.rest.map_or(0, |r| r.left);
    let mut placed = Vec::new();
    for (i, s) in slots.iter().enumerate() {
        let here = match (solution.head, solution.rest) {
            (Some((j, beside)), _) if j == i => beside,
            (_, Some(rest)) => {
                let k = workers_on(s, &copies);
                if k > rest.value {
                    k
                } else if k == rest.value {
                    let take = k.min(left);
                    left -= take;
                    take
                } else {
                    0
                }
            }
            _ => 0,
        };
        if here > 0 {
            placed.push((i, here));
        }
    }
    GangPlacement {
        head: head_node,
        workers: placed,
    }
}

/// The fewest-nodes placement on free capacity, else why the gang waits.
fn fit_now(
    slots: &[Slot],
    need: Resources,
    workers: u64,
    head: Option<Resources>,
    dense_max: u64,
) -> std::result::Result<Solution, QueueReason> {
    let copies = Copies::new(&need, workers);
    let solved = SCRATCH.with_borrow_mut(|scratch| {
        let Scratch {
            buckets,
            levels: table,
        } = scratch;
        levels(slots, &copies, head, dense_max, buckets, table);
        solve(table, workers, head.is_some())
    });
    match solved {
        Ok(solution) => Ok(solution),
        Err(Short::HeadHasNoRoom) => {
            let head = head.unwrap_or(Resources::ZERO);
            let (dimension, largest_free, need) = shortest(slots, &head, |s| s.head, |s| s.free);
            Err(QueueReason::HeadHasNoRoom {
                dimension,
                largest_free,
                need,
            })
        }
        // Only a gang with workers falls short of placing them.
        Err(Short::Placeable(0)) => {
            let (dimension, largest_free, need) = shortest(slots, &need, |s| s.worker, |s| s.free);
            Err(QueueReason::NoNodeHostsOne {
                dimension,
                largest_free,
                need,
            })
        }
        Err(Short::Placeable(placeable)) => {
            let head = u64::from(head.is_some());
            Err(QueueReason::NotEnoughAtOnce {
                placeable: placeable + head,
                replicas: workers + head,
            })
        }
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
    // Counted as the replicas are, the distinct head with them: it has its place (it
    // fits a node, above), so "holds 8 of 10" for 8 workers and the head was one short.
    let head = u64::from(head.is_some());
    (empty < workers).then_some(NeverReason::PoolTooSmall {
        capacity: empty + head,
        replicas: workers + head,
    })
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

impl<'de> Deserialize<'de> for QueueReason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (kind, mut f) = wire::tagged(deserializer, "kind")?;
        let mut read = || -> Result<Self, serde_json::Error> {
            Ok(match kind.as_str() {
                "no_node_hosts_one" => QueueReason::NoNodeHostsOne {
                    dimension: f.take("dimension")?,
                    largest_free: f.take("largest_free")?,
                    need: f.take("need")?,
                },
                "not_enough_at_once" => QueueReason::NotEnoughAtOnce {
                    placeable: f.take("placeable")?,
                    replicas: f.take("replicas")?,
                },
                "head_has_no_room" => QueueReason::HeadHasNoRoom {
                    dimension: f.take("dimension")?,
                    largest_free: f.take("largest_free")?,
                    need: f.take("need")?,
                },
                "no_idle_offer" => QueueReason::NoIdleOffer {
                    spec: f.take("spec")?,
                },
                #[cfg(feature = "queue")]
                "passed_over" => QueueReason::PassedOver,
                other => return Err(de::Error::unknown_variant(other, QUEUE_KINDS)),
            })
        };
        read().map_err(de::Error::custom)
    }
}

pub(crate) const QUEUE_KINDS: &[&str] = &[
    "no_node_hosts_one",
    "not_enough_at_once",
    "head_has_no_room",
    "no_idle_offer",
    #[cfg(feature = "queue")]
    "passed_over",
];

impl<'de> Deserialize<'de> for NeverReason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (kind, mut f) = wire::tagged(deserializer, "kind")?;
        let mut read = || -> Result<Self, serde_json::Error> {
            Ok(match kind.as_str() {
                "no_matching_node" => NeverReason::NoMatchingNode {
                    gpu_model: f.take("gpu_model")?,
                },
                "replica_too_large" => NeverReason::ReplicaTooLarge {
                    dimension: f.take("dimension")?,
                    largest_total: f.take("largest_total")?,
                    need: f.take("need")?,
                },
                "head_too_large" => NeverReason::HeadTooLarge {
                    dimension: f.take("dimension")?,
                    largest_total: f.take("largest_total")?,
                    need: f.take("need")?,
                },
                "pool_too_small" => NeverReason::PoolTooSmall {
                    capacity: f.take("capacity")?,
                    replicas: f.take("replicas")?,
                },
                other => return Err(de::Error::unknown_variant(other, NEVER_KINDS)),
            })
        };
        read().map_err(de::Error::custom)
    }
}

pub(crate) const NEVER_KINDS: &[&str] = &[
    "no_matching_node",
    "replica_too_large",
    "head_too_large",
    "pool_too_small",
];

impl QueueReason {
    /// The reason in plain words.
    pub fn message(&self, lang: Lang) -> String {
        self.to_message().render(lang)
    }

    /// The reason as a catalog key and arguments, to be rendered in each reader's
    /// language.
    pub fn to_message(&self) -> Message {
        match self {
            QueueReason::NoNodeHostsOne {
                dimension,
                largest_free,
                need,
            } => no_room("queue.no_node_hosts_one", *dimension, *largest_free, *need),
            QueueReason::NotEnoughAtOnce {
                placeable,
                replicas,
            } => Message::new("queue.not_enough_at_once")
                .with("placeable", placeable)
                .with("replicas", replicas),
            QueueReason::HeadHasNoRoom {
                dimension,
                largest_free,
                need,
            } => no_room("queue.head_has_no_room", *dimension, *largest_free, *need),
            QueueReason::NoIdleOffer { spec } => {
                Message::new("queue.no_idle_offer").with("spec", spec)
            }
            #[cfg(feature = "queue")]
            QueueReason::PassedOver => Message::new("queue.passed_over"),
        }
    }
}

/// Why a replica or the head finds no room: the roomiest node's free amount against the
/// need, or, with none free on any node, just that ("the largest free node has 0 GPUs"
/// read as a fault), whoever needs it.
fn no_room(key: &'static str, dimension: Dimension, largest_free: u64, need: u64) -> Message {
    // One message either way: its arguments the none-free text leaves out cost nothing.
    let key = if largest_free >= need {
        mixed(key)
    } else if largest_free == 0 {
        "queue.none_free"
    } else {
        key
    };
    Message::new(key)
        .with("largest_free", largest_free)
        .with_message("unit", dimension.unit_message(largest_free.max(1)))
        .with("need", need)
}

impl NeverReason {
    /// The reason in plain words.
    pub fn message(&self, lang: Lang) -> String {
        self.to_message().render(lang)
    }

    /// The reason as a catalog key and arguments, to be rendered in each reader's
    /// language.
    pub fn to_message(&self) -> Message {
        match self {
            NeverReason::NoMatchingNode { gpu_model: Some(m) } => {
                Message::new("never.no_matching_node").with("gpu_model", m)
            }
            NeverReason::NoMatchingNode { gpu_model: None } => {
                Message::new("never.no_matching_node#cpu")
            }
            NeverReason::ReplicaTooLarge {
                dimension,
                largest_total,
                need,
            } => too_large("never.replica_too_large", *dimension, *largest_total, *need),
            NeverReason::HeadTooLarge {
                dimension,
                largest_total,
                need,
            } => too_large("never.head_too_large", *dimension, *largest_total, *need),
            NeverReason::PoolTooSmall { capacity, replicas } => {
                Message::new("never.pool_too_small")
                    .with("capacity", capacity)
                    .with("replicas", replicas)
            }
        }
    }
}

/// Why a replica or the head can never start: its need against the largest node's total.
/// One body for both (each copy is code of its own in the validator package).
fn too_large(key: &'static str, dimension: Dimension, largest_total: u64, need: u64) -> Message {
    let key = if largest_total >= need {
        mixed(key)
    } else {
        key
    };
    Message::new(key)
        .with("need", need)
        .with_message("unit", dimension.unit_message(need))
        .with("largest_total", largest_total)
}

/// The wording of `key` for nodes of different shapes, none short of the need in any one
/// dimension of the largest, yet none with all of it ([`shortest`]).
fn mixed(key: &'static str) -> &'static str {
    match key {
        "queue.no_node_hosts_one" => "queue.no_node_hosts_one#mixed",
        "queue.head_has_no_room" => "queue.head_has_no_room#mixed",
        "never.replica_too_large" => "never.replica_too_large#mixed",
        _ => "never.head_too_large#mixed",
    }
}

#[cfg(test)]
mod wire_tests {
    use super::*;

    #[test]
    fn every_reason_reads_back_from_its_wire_json() {
        let queue = [
            (
                QueueReason::NoNodeHostsOne {
                    dimension: Dimension::Gpu,
                    largest_free: 4,
                    need: 8,
                },
                r#"{"kind":"no_node_hosts_one","dimension":"gpu","largest_free":4,"need":8}"#,
            ),
            (
                QueueReason::NotEnoughAtOnce {
                    placeable: 2,
                    replicas: 3,
                },
                r#"{"kind":"not_enough_at_once","placeable":2,"replicas":3}"#,
            ),
            (
                QueueReason::HeadHasNoRoom {
                    dimension: Dimension::Vcpu,
                    largest_free: 4,
                    need: 8,
                },
                r#"{"kind":"head_has_no_room","dimension":"vcpu","largest_free":4,"need":8}"#,
            ),
            (
                QueueReason::NoIdleOffer {
                    spec: "cpu-8c".into(),
                },
                r#"{"kind":"no_idle_offer","spec":"cpu-8c"}"#,
            ),
        ];
        for (reason, json) in queue {
            assert_eq!(serde_json::to_string(&reason).unwrap(), json);
            assert_eq!(serde_json::from_str::<QueueReason>(json).unwrap(), reason);
        }
        let never = [
            (
                NeverReason::NoMatchingNode {
                    gpu_model: Some("H100".into()),
                },
                r#"{"kind":"no_matching_node","gpu_model":"H100"}"#,
            ),
            (
                NeverReason::NoMatchingNode { gpu_model: None },
                r#"{"kind":"no_matching_node","gpu_model":null}"#,
            ),
            (
                NeverReason::ReplicaTooLarge {
                    dimension: Dimension::MemoryGib,
                    largest_total: 512,
                    need: 960,
                },
                r#"{"kind":"replica_too_large","dimension":"memory_gib","largest_total":512,"need":960}"#,
            ),
            (
                NeverReason::HeadTooLarge {
                    dimension: Dimension::Gpu,
                    largest_total: 8,
                    need: 16,
                },
                r#"{"kind":"head_too_large","dimension":"gpu","largest_total":8,"need":16}"#,
            ),
            (
                NeverReason::PoolTooSmall {
                    capacity: 2,
                    replicas: 3,
                },
                r#"{"kind":"pool_too_small","capacity":2,"replicas":3}"#,
            ),
        ];
        for (reason, json) in never {
            assert_eq!(serde_json::to_string(&reason).unwrap(), json);
            assert_eq!(serde_json::from_str::<NeverReason>(json).unwrap(), reason);
        }
        // Absent, the model is none, as the derive read it.
        assert_eq!(
            serde_json::from_str::<NeverReason>(r#"{"kind":"no_matching_node"}"#).unwrap(),
            NeverReason::NoMatchingNode { gpu_model: None }
        );
        let err = serde_json::from_str::<NeverReason>(r#"{"kind":"too_big"}"#).unwrap_err();
        assert!(
            err.to_string().contains("unknown variant `too_big`"),
            "{err}"
        );
        let err =
            serde_json::from_str::<QueueReason>(r#"{"kind":"not_enough_at_once"}"#).unwrap_err();
        assert!(
            err.to_string().contains("missing field `placeable`"),
            "{err}"
        );
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::quota::{demand, fits, remaining};
    use proptest::prelude::*;

    /// Fewest distinct nodes over every assignment: each head node, then every way to
    /// split the workers into per-node counts. A node is used when it hosts the head or a
    /// worker. `None` when no assignment fits in `capacity`. Independent of the fast path:
    /// it checks `count × need (+ head)` against the capacity, never divides.
    fn oracle(
        capacity: &[Resources],
        slots: &[Slot],
        need: Resources,
        workers: u64,
        head: Option<Resources>,
    ) -> Option<u64> {
        fn split(
            i: usize,
            left: u64,
            capacity: &[Resources],
            slots: &[Slot],
            need: Resources,
            head: Option<(usize, Resources)>,
        ) -> Option<u64> {
            if i == capacity.len() {
                return (left == 0).then_some(0);
            }
            let here = head.filter(|&(j, _)| j == i).map(|(_, h)| h);
            (0..=left)
                .filter(|&c| c == 0 || slots[i].worker)
                .filter(|&c| {
                    need.checked_mul(c)
                        .and_then(|w| w.checked_add(here.unwrap_or(Resources::ZERO)))
                        .is_some_and(|d| d.fits_within(&capacity[i]))
                })
                .filter_map(|c| {
                    let used = u64::from(c > 0 || here.is_some());
                    split(i + 1, left - c, capacity, slots, need, head).map(|n| n + used)
                })
                .min()
        }
        match head {
            None => split(0, workers, capacity, slots, need, None),
            Some(h) => (0..slots.len())
                .filter(|&j| slots[j].head)
                .filter_map(|j| split(0, workers, capacity, slots, need, Some((j, h))))
                .min(),
        }
    }

    fn small_resources() -> impl Strategy<Value = Resources> {
        (0u64..=8, 0u64..=8, 0u64..=8).prop_map(|(g, c, m)| Resources::new(g, c, m))
    }

    fn small_cluster() -> impl Strategy<Value = Vec<Slot>> {
        // Mostly roomy nodes that take workers and the head: where to put the head matters
        // only when several nodes could take it along with a few workers.
        let node = (
            (0u64..=9, 0u64..=9, 0u64..=9).prop_map(|(g, c, m)| Resources::new(g, c, m)),
            (0u64..=3, 0u64..=3, 0u64..=3).prop_map(|(g, c, m)| Resources::new(g, c, m)),
            prop::bool::weighted(0.8),
            prop::bool::weighted(0.8),
        );
        prop::collection::vec(node, 1..=5).prop_map(|nodes| {
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

    /// Zero, small, 32 bits, around 2^32, near the top, or anything.
    fn amount() -> impl Strategy<Value = u64> {
        prop_oneof![
            Just(0u64),
            1u64..=64,
            (u64::MAX - 64)..=u64::MAX,
            any::<u64>()
        ]
    }

    fn need() -> impl Strategy<Value = Resources> {
        (0u64..=3, 0u64..=3, 1u64..=3).prop_map(|(g, c, m)| Resources::new(g, c, m))
    }

    proptest! {
        // Where the head goes is only wrong on rare layouts: planted back, the old
        // tie-breaking was not always caught in 4,096 cases; in 16,384 it was, 5 runs of 5.
        #![proptest_config(ProptestConfig::with_cases(16_384))]

        #[test]
        fn fast_gang_fit_equals_brute_force(slots in small_cluster(), need in need(), workers in 0u64..=6, head in prop::option::of(need())) {
            let fit = gang_fit(&slots, need, workers, head);
            let free: Vec<Resources> = slots.iter().map(|s| s.free).collect();
            let total: Vec<Resources> = slots.iter().map(|s| s.total).collect();
            let fewest = oracle(&free, &slots, need, workers, head);
            match fewest {
                Some(nodes) => prop_assert_eq!(&fit, &Fit::Now { nodes }),
                None => prop_assert!(!fit.is_now(), "{:?}", fit),
            }
            prop_assert_eq!(matches!(fit, Fit::Never { .. }), oracle(&total, &slots, need, workers, head).is_none(), "{:?}", fit);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn the_placement_is_the_one_gang_fit_counts(slots in small_cluster(), need in need(), workers in 0u64..=6, head in prop::option::of(need())) {
            let fit = gang_fit(&slots, need, workers, head);
            let placement = gang_place(&slots, need, workers, head);
            prop_assert_eq!(placement.is_some(), fit.is_now(), "{:?} {:?}", fit, placement);
            let (Fit::Now { nodes }, Some(placement)) = (fit, placement) else {
                return Ok(());
            };
            prop_assert_eq!(placement.head.is_some(), head.is_some());
            let mut used: Vec<usize> = placement.workers.iter().map(|&(i, _)| i).collect();
            prop_assert!(used.windows(2).all(|w| w[0] < w[1]), "{:?}", placement);
            prop_assert!(placement.workers.iter().all(|&(_, n)| n > 0), "{:?}", placement);
            prop_assert_eq!(placement.workers.iter().map(|&(_, n)| n).sum::<u64>(), workers);
            for (i, s) in slots.iter().enumerate() {
                let count = placement.workers.iter().find(|&&(j, _)| j == i).map_or(0, |&(_, n)| n);
                let has_head = placement.head == Some(i);
                prop_assert!(count == 0 || s.worker, "workers on a slot that takes none: {:?}", placement);
                prop_assert!(!has_head || s.head, "the head on a slot that takes none: {:?}", placement);
                let here = need
                    .checked_mul(count)
                    .and_then(|w| w.checked_add(if has_head { head.unwrap_or(Resources::ZERO) } else { Resources::ZERO }))
                    .expect("small numbers");
                prop_assert!(here.fits_within(&s.free), "slot {} over its free capacity: {:?}", i, placement);
            }
            used.extend(placement.head);
            used.sort_unstable();
            used.dedup();
            prop_assert_eq!(used.len() as u64, nodes, "{:?}", placement);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        #[test]
        fn copies_by_multiplying_equal_copies_by_dividing(free in prop::array::uniform3(amount()), need in prop::array::uniform3(amount()), cap in amount()) {
            let free = Resources::new(free[0], free[1], free[2]);
            let need = Resources::new(need[0], need[1], need[2]);
            prop_assert_eq!(Copies::new(&need, cap).of(&free), free.copies_of(&need).min(cap));
        }

        #[test]
        fn dense_and_sorted_tables_agree(counts in prop::collection::vec((0u64..6000, 0u64..6000, any::<bool>(), any::<bool>()), 0..40), workers in 0u64..8000, with_head in any::<bool>()) {
            // A worker takes one GPU and one vCPU, the head one vCPU: beside the head a
            // node hosts one worker fewer when it is short of vCPUs, else as many.
            let slots: Vec<Slot> = counts
                .iter()
                .map(|&(g, c, worker, head)| Slot {
                    free: Resources::new(g, c, 10_000),
                    total: Resources::new(g, c, 10_000),
                    worker,
                    head,
                })
                .collect();
            let need = Resources::new(1, 1, 0);
            let head = with_head.then_some(Resources::new(0, 1, 0));
            let dense = fit_now(&slots, need, workers, head, u64::MAX);
            let sorted = fit_now(&slots, need, workers, head, 0);
            prop_assert_eq!(&dense, &sorted);
            if let Ok(solution) = &dense {
                let placed = spell_out(&slots, need, workers, solution);
                prop_assert_eq!(placed.workers.iter().map(|&(_, n)| n).sum::<u64>(), workers);
            }
            if head.is_none() {
                // The largest-first greedy, by sorting.
                let mut k: Vec<u64> = slots.iter().map(|s| if s.worker { s.free.gpu.min(s.free.vcpu).min(workers) } else { 0 }).collect();
                k.sort_unstable_by(|a, b| b.cmp(a));
                let mut sum = 0;
                let greedy = if workers == 0 { Some(0) } else {
                    k.iter().position(|&x| { sum += x; sum >= workers }).map(|i| i as u64 + 1)
                };
                prop_assert_eq!(dense.ok().map(|s| s.nodes), greedy);
            }
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
    fn copies_by_multiplying_at_the_edges() {
        let edges = [
            0,
            1,
            2,
            3,
            7,
            (1 << 32) - 1,
            1 << 32,
            (1 << 32) + 1,
            u64::MAX - 1,
            u64::MAX,
        ];
        for n in edges {
            for d in edges {
                let free = Resources::new(n, n, n);
                let need = Resources::new(d, 0, d);
                assert_eq!(
                    Copies::new(&need, u64::MAX).of(&free),
                    free.copies_of(&need),
                    "{n} / {d}"
                );
            }
        }
    }

    #[test]
    fn the_head_goes_where_the_gang_takes_the_fewest_nodes() {
        // Both nodes leave room for 5 replicas with the head; only on the second do the
        // head and all 4 workers share one node. It used to report 2.
        let node = |free| Slot {
            free,
            total: free,
            worker: true,
            head: true,
        };
        let slots = [node(Resources::new(3, 8, 8)), node(Resources::new(9, 9, 9))];
        assert_eq!(
            gang_fit(
                &slots,
                Resources::new(2, 1, 1),
                4,
                Some(Resources::new(1, 1, 1))
            ),
            Fit::Now { nodes: 1 }
        );
        assert_eq!(
            gang_place(
                &slots,
                Resources::new(2, 1, 1),
                4,
                Some(Resources::new(1, 1, 1))
            ),
            Some(GangPlacement {
                head: Some(1),
                workers: vec![(1, 4)]
            })
        );
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
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod reason_tests {
    use super::*;
    use proptest::prelude::*;

    fn slot(free: (u64, u64, u64), total: (u64, u64, u64)) -> Slot {
        Slot {
            free: Resources::new(free.0, free.1, free.2),
            total: Resources::new(total.0, total.1, total.2),
            worker: true,
            head: true,
        }
    }

    #[test]
    fn nodes_of_different_shapes_none_with_room_say_so_not_a_dimension_that_is_there() {
        // SPEC.md section 4: "will queue and why". One node lacks vCPUs, the other memory
        // and GPUs: no dimension is short of the largest node's, yet neither hosts one.
        let slots = [
            slot((8, 10, 900), (8, 96, 960)),
            slot((2, 96, 100), (8, 96, 960)),
        ];
        let need = Resources::new(4, 24, 200);
        let fit = gang_fit(&slots, need, 1, None);
        let Fit::Queue { reason } = &fit else {
            panic!("{fit:?}")
        };
        assert_eq!(
            reason.message(Lang::En),
            "no node has all one replica needs free at once"
        );
        assert_eq!(
            reason.message(Lang::Zh),
            "没有节点能同时空出单个副本所需的全部资源"
        );
        // Their totals of the same shapes: it can never start.
        let empty = [
            slot((8, 10, 900), (8, 10, 900)),
            slot((2, 96, 100), (2, 96, 100)),
        ];
        let fit = gang_fit(&empty, need, 1, None);
        let Fit::Never { reason } = &fit else {
            panic!("{fit:?}")
        };
        assert_eq!(
            reason.message(Lang::En),
            "no node of the pool has all one replica needs at once, even empty"
        );
        // A head the same way.
        let fit = gang_fit(&empty, Resources::new(1, 1, 1), 1, Some(need));
        let Fit::Never { reason } = &fit else {
            panic!("{fit:?}")
        };
        assert_eq!(
            reason.message(Lang::En),
            "no node of the pool has all the head needs at once, even empty"
        );
        // A CPU task is never told of GPUs.
        let cpu = Resources::new(0, 24, 200);
        let fit = gang_fit(&slots, cpu, 1, None);
        let Fit::Queue { reason } = &fit else {
            panic!("{fit:?}")
        };
        assert!(!reason.message(Lang::En).contains("GPU"), "{reason:?}");
    }

    /// The largest of `d` on the slots that may host a worker, read by `pick`.
    fn largest(slots: &[Slot], d: Dimension, pick: fn(&Slot) -> Resources) -> u64 {
        slots
            .iter()
            .filter(|s| s.worker)
            .map(|s| pick(s).get(d))
            .max()
            .unwrap_or(0)
    }

    /// A replica's no-room reason is true: the dimension it names is short of the need on
    /// every node that may host one, by the amount it says; or, where none is, it says
    /// that no node has all of the need at once, and no node does.
    fn holds(
        slots: &[Slot],
        need: Resources,
        said: (Dimension, u64, u64),
        text: String,
        pick: fn(&Slot) -> Resources,
    ) -> Result<(), TestCaseError> {
        let (d, most, n) = said;
        prop_assert_eq!(n, need.get(d));
        prop_assert_eq!(most, largest(slots, d, pick));
        let short = Dimension::ALL
            .into_iter()
            .any(|e| largest(slots, e, pick) < need.get(e));
        if short {
            prop_assert!(most < n, "{:?} {} of {}", d, most, n);
        } else {
            prop_assert!(text.starts_with("no node"), "{}", text);
            prop_assert!(text.contains("all"), "{}", text);
            prop_assert!(
                !slots.iter().any(|s| s.worker && need.fits_within(&pick(s))),
                "a node has room"
            );
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn a_no_room_reason_says_what_is_short_or_that_no_node_has_it_all(
            nodes in prop::collection::vec(
                ((0u64..=6, 0u64..=6, 0u64..=6), (0u64..=3, 0u64..=3, 0u64..=3), prop::bool::weighted(0.8)),
                1..=4,
            ),
            need in (0u64..=4, 0u64..=4, 1u64..=4),
            workers in 1u64..=3,
        ) {
            let slots: Vec<Slot> = nodes
                .into_iter()
                .map(|((g, c, m), (ug, uc, um), worker)| {
                    let total = Resources::new(g, c, m);
                    Slot {
                        free: total.saturating_sub(Resources::new(ug, uc, um)),
                        total,
                        worker,
                        head: false,
                    }
                })
                .collect();
            let need = Resources::new(need.0, need.1, need.2);
            match gang_fit(&slots, need, workers, None) {
                Fit::Queue { reason: reason @ QueueReason::NoNodeHostsOne { dimension, largest_free, need: n } } => {
                    holds(&slots, need, (dimension, largest_free, n), reason.message(Lang::En), |s| s.free)?;
                }
                Fit::Never { reason: reason @ NeverReason::ReplicaTooLarge { dimension, largest_total, need: n } } => {
                    holds(&slots, need, (dimension, largest_total, n), reason.message(Lang::En), |s| s.total)?;
                }
                _ => {}
            }
        }
    }
}
