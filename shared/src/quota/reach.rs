//! Where a task could run at all: the nodes one of its pods fits on.

use super::plan::Setup;
use super::{Result, Slot, per_replica};
use crate::catalog::{Catalog, User};
use crate::resources::Resources;
use crate::task::{ResourceKind, TaskSpec};
use crate::usage::Usage;

/// Where a task could run at all, by what it needs there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// The nodes where one of its worker replicas fits (a RayJob's head of the workers'
    /// spec is one of them), sorted.
    pub workers: Vec<String>,
    /// The nodes where its distinct head fits, sorted, each with its capacity: it needs
    /// room for one head on one of them, however many there are.
    pub heads: Vec<(String, Resources)>,
    /// What its distinct head takes; `None` without one.
    pub head: Option<Resources>,
}

/// Where one pod of `spec` fits on what `usage` leaves free: a replica of any spec of its
/// priority list the pool can run, or its distinct head, each sized as the plan sizes it
/// (`units_per_node` units of its spec). The pool's nodes, and for a task that may run on
/// idle capacity (the idle kind, or reserved capacity that accepts idle) the idle
/// fragment nodes, named as placements name them. Empty while the spec does not resolve
/// to a pool and a spec.
///
/// Under the usage taken outside Berth, no placement of the task ever takes a node left
/// out: a scheduler need not keep any other node for it; of the head's nodes, it need
/// keep only room for one head.
///
/// # Errors
///
/// [`super::QuotaError::Overflow`] when a pod's need does not fit in 64 bits.
pub fn reach(spec: &TaskSpec, catalog: &Catalog, usage: &Usage) -> Result<Reach> {
    // Whose quota does not matter: a node hosts a pod or not whoever asks.
    let nobody = User::default();
    let Some(setup) = Setup::new(spec, catalog, usage, &nobody) else {
        return Ok(Reach::default());
    };
    let on_pool = setup.kind != ResourceKind::Idle;
    let on_idle = setup.kind == ResourceKind::Idle
        || (setup.kind == ResourceKind::Reserved && spec.compute.accept_idle);
    let units = spec.compute.units_per_node;
    let mut reach = Reach::default();
    for (_, worker) in setup.workers() {
        let need = per_replica(worker, units)?;
        let head = match setup.head.filter(|h| h.id != worker.id) {
            Some(h) => Some(per_replica(h, units)?),
            None => None,
        };
        reach.head = reach.head.or(head);
        // A RayJob of a head of its own and no workers has no worker to place.
        let workers = spec.replicas() - u64::from(head.is_some());
        let mut add = |slot: &Slot, name: &String| {
            if slot.worker && workers > 0 && need.fits_within(&slot.free) {
                reach.workers.push(name.clone());
            }
            if slot.head && head.is_some_and(|h| h.fits_within(&slot.free)) {
                reach.heads.push((name.clone(), slot.total));
            }
        };
        if on_pool {
            let slots = setup.pool_slots(worker);
            for (slot, node) in slots.iter().zip(&setup.pool.nodes) {
                add(slot, &node.name);
            }
        }
        if on_idle {
            let idle = setup.idle_slots(worker);
            for (slot, name) in idle.slots.iter().zip(&idle.names) {
                add(slot, name);
            }
        }
    }
    reach.workers.sort_unstable();
    reach.workers.dedup();
    reach.heads.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    reach.heads.dedup_by(|a, b| a.0 == b.0);
    Ok(reach)
}

/// The nodes where one pod of `spec` fits on what `usage` leaves free, by name, sorted,
/// each once: [`reach`]'s workers' and head's nodes together.
///
/// # Errors
///
/// [`super::QuotaError::Overflow`] when a pod's need does not fit in 64 bits.
pub fn nodes_for_one_pod(spec: &TaskSpec, catalog: &Catalog, usage: &Usage) -> Result<Vec<String>> {
    let Reach {
        mut workers, heads, ..
    } = reach(spec, catalog, usage)?;
    workers.extend(heads.into_iter().map(|(name, _)| name));
    workers.sort_unstable();
    workers.dedup();
    Ok(workers)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::demo;
    use crate::quota::place::tests::a100s;

    fn names(prefix: &str, numbers: impl IntoIterator<Item = u32>) -> Vec<String> {
        numbers
            .into_iter()
            .map(|n| format!("{prefix}{n:02}"))
            .collect()
    }

    /// The demo's sh-a A100 nodes 00 to 04 have 6 of 8 GPUs taken outside Berth: a pod
    /// of 8 fits only on 05 to 07, one of 2 on every A100 node, and no GPU pod on the
    /// pool's CPU nodes.
    #[test]
    fn a_pod_fits_the_nodes_with_room_for_it_of_its_gpu_model() {
        let catalog = demo::catalog();
        let outside = demo::usage();
        let whole = a100s(ResourceKind::Spot, 8);
        assert_eq!(
            nodes_for_one_pod(&whole, &catalog, &outside),
            Ok(names("sh-a-a100-", 5..8))
        );
        assert_eq!(
            nodes_for_one_pod(&whole, &catalog, &Usage::new()),
            Ok(names("sh-a-a100-", 0..8))
        );
        let two = a100s(ResourceKind::Spot, 2);
        assert_eq!(
            nodes_for_one_pod(&two, &catalog, &outside),
            Ok(names("sh-a-a100-", 0..8))
        );
        // Three replicas of 8: still the nodes one of them fits on.
        let gang = whole.with(|s| s.compute.workers = 2);
        assert_eq!(
            nodes_for_one_pod(&gang, &catalog, &outside),
            Ok(names("sh-a-a100-", 5..8))
        );
    }

    /// A RayJob's head of its own spec fits where a pod of that spec does: CPU nodes
    /// with room for 3 units of `cpu-8c` (the demo's sh-a-cpu-00 has 16 vCPUs free),
    /// beside the A100 nodes with room for a worker of 3 GPUs. Without workers, the
    /// head's nodes only.
    #[test]
    fn a_distinct_head_adds_the_nodes_of_its_own_spec() {
        let catalog = demo::catalog();
        let outside = demo::usage();
        let ray = demo::ray_with_cpu_head_on_sh_a("sh-a-shared").with(|s| {
            s.compute.units_per_node = 3;
        });
        let mut expected = names("sh-a-a100-", 5..8);
        expected.extend(names("sh-a-cpu-", 1..4));
        assert_eq!(nodes_for_one_pod(&ray, &catalog, &outside), Ok(expected));
        let head_only = ray.with(|s| s.compute.workers = 0);
        assert_eq!(head_only.replicas(), 1);
        assert_eq!(
            nodes_for_one_pod(&head_only, &catalog, &outside),
            Ok(names("sh-a-cpu-", 1..4))
        );
    }

    /// Of a RayJob's nodes, those its head of its own spec fits on are told apart from
    /// its workers', with their capacity and the head's need (3 units of `cpu-8c`); a
    /// head of the workers' spec is one of the workers.
    #[test]
    fn a_distinct_heads_nodes_are_told_apart_from_the_workers() {
        let catalog = demo::catalog();
        let outside = demo::usage();
        let ray = demo::ray_with_cpu_head_on_sh_a("sh-a-shared").with(|s| {
            s.compute.units_per_node = 3;
        });
        let found = reach(&ray, &catalog, &outside).expect("no overflow");
        assert_eq!(found.workers, names("sh-a-a100-", 5..8));
        let heads: Vec<(String, Resources)> = names("sh-a-cpu-", 1..4)
            .into_iter()
            .map(|name| (name, Resources::new(0, 96, 384)))
            .collect();
        assert_eq!(found.heads, heads);
        assert_eq!(found.head, Some(Resources::new(0, 24, 96)));
        let same = ray.with(|s| s.compute.head_spec = None);
        let found = reach(&same, &catalog, &outside).expect("no overflow");
        assert_eq!(found.workers, names("sh-a-a100-", 5..8));
        assert_eq!((found.heads, found.head), (Vec::new(), None));
    }

    /// Idle capacity is placed on the idle offers' fragment nodes (sh-a's A100 offer: a
    /// node of 8 units and two of 2), named as placements name them; reserved capacity
    /// that accepts idle may take them as well as its pool's nodes.
    #[test]
    fn idle_capacity_adds_the_fragment_nodes_a_pod_fits_on() {
        let catalog = demo::catalog();
        let outside = demo::usage();
        let idle = a100s(ResourceKind::Idle, 2);
        assert_eq!(
            nodes_for_one_pod(&idle, &catalog, &outside),
            Ok(vec![
                "idle/sh-a/0/0".to_owned(),
                "idle/sh-a/0/1".to_owned(),
                "idle/sh-a/0/2".to_owned()
            ])
        );
        let four = a100s(ResourceKind::Idle, 4);
        assert_eq!(
            nodes_for_one_pod(&four, &catalog, &outside),
            Ok(vec!["idle/sh-a/0/0".to_owned()])
        );
        let reserved = a100s(ResourceKind::Reserved, 8).with(|s| s.compute.accept_idle = true);
        let mut expected = vec!["idle/sh-a/0/0".to_owned()];
        expected.extend(names("sh-a-a100-", 5..8));
        assert_eq!(
            nodes_for_one_pod(&reserved, &catalog, &outside),
            Ok(expected)
        );
    }

    #[test]
    fn a_spec_that_does_not_resolve_fits_nowhere() {
        let catalog = demo::catalog();
        let unknown =
            a100s(ResourceKind::Spot, 1).with(|s| s.compute.specs = vec!["h100-1g".into()]);
        assert_eq!(
            nodes_for_one_pod(&unknown, &catalog, &Usage::new()),
            Ok(Vec::new())
        );
    }
}
