//! Gang fit: whether every replica can be placed at once, and on how few nodes.

use super::{Dimension, Resources};
use crate::messages::{Lang, text};
use serde::{Deserialize, Serialize};

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

impl QueueReason {
    /// The reason in plain words.
    pub fn message(&self, lang: Lang) -> String {
        let (key, args) = match self {
            QueueReason::NoNodeHostsOne {
                dimension,
                largest_free,
                need,
            } => (
                "queue.no_node_hosts_one",
                vec![
                    ("largest_free", largest_free.to_string()),
                    ("unit", dimension.unit(lang)),
                    ("need", need.to_string()),
                ],
            ),
            QueueReason::NotEnoughAtOnce {
                placeable,
                replicas,
            } => (
                "queue.not_enough_at_once",
                vec![
                    ("placeable", placeable.to_string()),
                    ("replicas", replicas.to_string()),
                ],
            ),
            QueueReason::HeadHasNoRoom {
                dimension,
                largest_free,
                need,
            } => (
                "queue.head_has_no_room",
                vec![
                    ("largest_free", largest_free.to_string()),
                    ("unit", dimension.unit(lang)),
                    ("need", need.to_string()),
                ],
            ),
        };
        text(lang, key, &args)
    }
}

impl NeverReason {
    /// The reason in plain words.
    pub fn message(&self, lang: Lang) -> String {
        let (key, args) = match self {
            NeverReason::NoMatchingNode { gpu_model: Some(m) } => {
                ("never.no_matching_node", vec![("gpu_model", m.clone())])
            }
            NeverReason::NoMatchingNode { gpu_model: None } => {
                ("never.no_matching_node#cpu", vec![])
            }
            NeverReason::ReplicaTooLarge {
                dimension,
                largest_total,
                need,
            } => (
                "never.replica_too_large",
                vec![
                    ("need", need.to_string()),
                    ("unit", dimension.unit(lang)),
                    ("largest_total", largest_total.to_string()),
                ],
            ),
            NeverReason::HeadTooLarge {
                dimension,
                largest_total,
                need,
            } => (
                "never.head_too_large",
                vec![
                    ("need", need.to_string()),
                    ("unit", dimension.unit(lang)),
                    ("largest_total", largest_total.to_string()),
                ],
            ),
            NeverReason::PoolTooSmall { capacity, replicas } => (
                "never.pool_too_small",
                vec![
                    ("capacity", capacity.to_string()),
                    ("replicas", replicas.to_string()),
                ],
            ),
        };
        text(lang, key, &args)
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::quota::{demand, fits, remaining};
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
}
