//! Room kept for tasks passed over too often (SPEC.md section 7's queue, README "Queue
//! order"): once a waiting task has been passed over enough, nothing behind it in its
//! pool takes room it could use until it starts. The scheduler keeps that room; the
//! create form's plan reads the same rule, from the rooms the server lists with its
//! usage ([`HeldRoom`]), so "starts now" is not said of a task the queue would hold back.

use super::{Reach, Result};
use crate::catalog::{Catalog, User};
use crate::resources::Resources;
use crate::task::{Priority, ResourceKind, TaskSpec};
use crate::usage::LiveUsage;
use crate::{Placement, TaskId};
use serde::Serialize;
use std::sync::Arc;

/// The room a waiting task could use ([`super::reach`]).
#[derive(Debug, Default)]
pub struct Room {
    /// The nodes where one of its workers fits: any room taken there is some it could use.
    workers: Vec<String>,
    /// The nodes where its distinct head fits and no worker does: room taken there is
    /// some it could use only when it leaves none of `heads` with room for the head (a
    /// RayJob's CPU head would otherwise keep every CPU node for a GPU gang).
    head_only: Vec<String>,
    /// Every node where its distinct head fits, with its capacity.
    heads: Vec<(String, Resources)>,
    /// What its distinct head takes; `None` without one.
    head: Option<Resources>,
}

impl Room {
    /// The room of a task that reaches `reach`.
    pub fn new(reach: Reach) -> Room {
        let workers = reach.workers;
        Room {
            head_only: reach
                .heads
                .iter()
                .filter(|(name, _)| !workers.contains(name))
                .map(|(name, _)| name.clone())
                .collect(),
            workers,
            heads: reach.heads,
            head: reach.head,
        }
    }

    /// Whether `placement`, reserved on `live`, took room this task could use.
    pub fn taken_by(&self, placement: &Placement, live: &LiveUsage) -> bool {
        takes_from(placement, &self.workers)
            || (takes_from(placement, &self.head_only) && self.head_node(live, &[]).is_none())
    }

    /// The first of its head's nodes with room for its head on `live` with `taken` taken
    /// as well; `None` without a head, or with no such node.
    fn head_node(&self, live: &LiveUsage, taken: &[(&str, Resources)]) -> Option<&str> {
        let head = self.head?;
        self.heads
            .iter()
            .find(|(name, capacity)| {
                let more = taken
                    .iter()
                    .find(|(node, _)| node == name)
                    .map_or(Resources::ZERO, |(_, more)| *more);
                let used = live.usage().allocated(name).saturating_add(more);
                head.fits_within(&capacity.saturating_sub(used))
            })
            .map(|(name, _)| name.as_str())
    }
}

/// Tasks of one pool passed over too often, that the tasks behind them wait for.
#[derive(Clone, Debug, Default)]
pub struct Held {
    /// Each, in queue order, with the room it could use.
    tasks: Vec<(TaskId, Arc<Room>)>,
}

impl Held {
    /// `held`, with task `id`, which could use `room`, held for too.
    pub fn and(held: Option<Held>, id: &TaskId, room: Arc<Room>) -> Held {
        let mut held = held.unwrap_or_default();
        held.tasks.push((id.clone(), room));
        held
    }

    /// The first of them whose room `placement`, not yet reserved on `live`, would take;
    /// `None` when it leaves them all theirs. Each head is kept a node of its own, in
    /// queue order, so two heads are not counted on one node's room for one.
    fn blocked_by(&self, placement: &Placement, live: &LiveUsage) -> Option<&TaskId> {
        let mut taken: Vec<(&str, Resources)> = Vec::new();
        for (node, need) in placement.node_needs() {
            take(&mut taken, node, need);
        }
        for (id, room) in &self.tasks {
            if takes_from(placement, &room.workers) {
                return Some(id);
            }
            match (room.head_node(live, &taken), room.head) {
                (Some(node), Some(head)) => take(&mut taken, node, head),
                _ if takes_from(placement, &room.head_only) => return Some(id),
                _ => {}
            }
        }
        None
    }

    /// The nodes a task behind them is placed as if full: each one's workers' nodes, and
    /// for a head one node kept with room for it (every node of its head's when none has
    /// room now). A placement beside them may still fit on a head's node other than the
    /// one kept: it is tried first ([`place_beside`]).
    fn avoid(&self, live: &LiveUsage) -> Vec<String> {
        let mut avoid = Vec::new();
        let mut taken: Vec<(&str, Resources)> = Vec::new();
        for (_, room) in &self.tasks {
            avoid.extend(room.workers.iter().cloned());
            match (room.head_node(live, &taken), room.head) {
                (Some(node), Some(head)) => {
                    avoid.push(node.to_owned());
                    take(&mut taken, node, head);
                }
                _ => avoid.extend(room.head_only.iter().cloned()),
            }
        }
        avoid
    }
}

/// Where a task starts beside the tasks held for ahead of it in its pool.
#[derive(Clone, Debug, PartialEq)]
pub enum Beside {
    /// There, taking none of their room.
    At(Placement),
    /// Nowhere without taking room this one of them could use, though it would start
    /// were that room not kept: it waits for that one.
    HeldFor(TaskId),
    /// Nowhere, held for or not: it waits for its own reason.
    Nowhere,
}

/// Where `spec` starts for `user` on `live` without taking room the `held` tasks could
/// use: where it would start anyway when that is elsewhere (a placement is planned
/// once, as any), else as if their nodes were full. It waits for one of them only when
/// it would start were that one not held for: else its own reason stands, which that
/// one starting would not change.
///
/// # Errors
///
/// [`super::QuotaError::Overflow`] when the demand does not fit in 64 bits.
pub fn place_beside(
    spec: &TaskSpec,
    live: &LiveUsage,
    user: &User,
    held: Option<&Held>,
) -> Result<Beside> {
    let Some(placement) = super::place_live(spec, live, user)? else {
        return Ok(Beside::Nowhere);
    };
    let Some(held) = held else {
        return Ok(Beside::At(placement));
    };
    let Some(ahead) = held.blocked_by(&placement, live) else {
        return Ok(Beside::At(placement));
    };
    let avoid = held.avoid(live);
    let placed = super::place_live_avoiding(spec, live, user, &avoid)?;
    Ok(
        match placed.filter(|p| held.blocked_by(p, live).is_none()) {
            Some(placed) => Beside::At(placed),
            None => Beside::HeldFor(ahead.clone()),
        },
    )
}

/// Whether `placement` takes room on any of `nodes`.
fn takes_from(placement: &Placement, nodes: &[String]) -> bool {
    placement
        .node_needs()
        .any(|(node, need)| need != Resources::ZERO && nodes.iter().any(|n| n == node))
}

/// `need` added to what `taken` says is taken on `node`. A list, not a map: a few nodes,
/// and a hash map's code here moved the validator package's own (BENCHMARKS.md).
fn take<'a>(taken: &mut Vec<(&'a str, Resources)>, node: &'a str, need: Resources) {
    match taken.iter_mut().find(|(n, _)| *n == node) {
        Some((_, sum)) => *sum = sum.saturating_add(need),
        None => taken.push((node, need)),
    }
}

/// What `spec` is placed on in `catalog`, the queue's pools: its pool's id (ids are
/// unique across it), or for the idle kind its cluster's idle offers (`idle/<cluster>`),
/// which every idle pool of the cluster shares and no other kind takes. `None` while it
/// resolves to none (it cannot start then, and takes nothing from anyone).
pub fn queue_pool(catalog: &Catalog, spec: &TaskSpec) -> Option<String> {
    let cluster = catalog.cluster(&spec.basic.region, &spec.basic.cluster)?;
    let pool = super::resolve_pool(spec, cluster)?;
    Some(if spec.compute.kind == Some(ResourceKind::Idle) {
        format!("idle/{}", cluster.id)
    } else {
        pool.id.clone()
    })
}

/// A queue's rank of `priority`: high first, then normal (or none), then low.
pub fn priority_rank(priority: Option<Priority>) -> u8 {
    match priority {
        Some(Priority::High) => 0,
        Some(Priority::Normal) | None => 1,
        Some(Priority::Low) => 2,
    }
}

/// A task the queue holds room for, as the server lists it with its usage (`GET
/// /api/v1/catalog`'s `held`), in queue order: for the create form's plan to say that a
/// task starting on that room would wait for it, as the scheduler will. Its id is not
/// told (a reader may not see the task). Read by this crate's own reader.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HeldRoom {
    /// Its queue's pool: a pool's id, or `idle/<cluster>` for its cluster's idle offers.
    pub pool: String,
    /// Its priority: a new task of a higher one goes ahead of it, and takes its room.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<Priority>,
    /// The nodes where one of its worker replicas fits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub workers: Vec<String>,
    /// The nodes where its distinct head fits, with their capacity.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heads: Vec<HeadRoom>,
    /// What its distinct head takes; absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<Resources>,
}

/// A node where a held task's head fits, and its capacity.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HeadRoom {
    /// The node, as placements name it.
    pub node: String,
    /// Its capacity.
    pub capacity: Resources,
}

impl HeldRoom {
    /// The room of a task of `pool` and `priority` that reaches `reach`.
    pub fn new(pool: String, priority: Option<Priority>, reach: &Reach) -> HeldRoom {
        HeldRoom {
            pool,
            priority,
            workers: reach.workers.clone(),
            heads: reach
                .heads
                .iter()
                .map(|(node, capacity)| HeadRoom {
                    node: node.clone(),
                    capacity: *capacity,
                })
                .collect(),
            head: reach.head,
        }
    }

    fn room(&self) -> Room {
        Room::new(Reach {
            workers: self.workers.clone(),
            heads: self
                .heads
                .iter()
                .map(|h| (h.node.clone(), h.capacity))
                .collect(),
            head: self.head,
        })
    }
}

/// What the rooms `held` make of `spec` submitted now by `user` on `live`: `None` when
/// none is kept ahead of it in its pool (of its priority or a higher one: a new task goes
/// behind those), else where it starts beside them, or whether it waits for one
/// ([`place_beside`]; the id of one waited for is left empty, as the list names none).
///
/// # Errors
///
/// [`super::QuotaError::Overflow`] when the demand does not fit in 64 bits.
pub fn beside_held(
    spec: &TaskSpec,
    live: &LiveUsage,
    user: &User,
    held: &[HeldRoom],
) -> Result<Option<Beside>> {
    // As the server queues it: a priority its kind does not use (reserved) is dropped.
    let spec = &spec.clone().normalized();
    let Some(pool) = queue_pool(live.catalog(), spec) else {
        return Ok(None);
    };
    let rank = priority_rank(spec.compute.priority);
    let unnamed = TaskId(String::new());
    let mut ahead: Option<Held> = None;
    for room in held
        .iter()
        .filter(|r| r.pool == pool && priority_rank(r.priority) <= rank)
    {
        ahead = Some(Held::and(ahead, &unnamed, Arc::new(room.room())));
    }
    match ahead {
        Some(ahead) => place_beside(spec, live, user, Some(&ahead)).map(Some),
        None => Ok(None),
    }
}

/// `check`, made of `spec` for `user` on `live`, told as the queue will start it beside
/// the room it keeps for `held` tasks ([`beside_held`]): a start that would take that
/// room waits for them (its plan queues, `passed_over`, with the warning any wait has at
/// the specs), and a start beside it on another spec or more nodes is planned there.
/// Each spec's own verdict says it too: one that fits now only in that room waits for
/// it (recheck: the outcome said 2 nodes, the spec's own fit 1). The server's
/// `/validate` and the create form say this alike, so neither says "starts now" of a
/// task the queue holds back (verdict explorer: the API said it, and the task queued at
/// its submit).
///
/// # Errors
///
/// [`super::QuotaError::Overflow`] when the demand does not fit in 64 bits.
pub fn check_beside_held(
    check: &mut crate::validate::Check,
    spec: &TaskSpec,
    live: &LiveUsage,
    user: &User,
    held: &[HeldRoom],
) -> Result<()> {
    use super::{Fit, Outcome, QueueReason};
    let Some(plan) = check.plan.as_mut() else {
        return Ok(());
    };
    let Outcome::Now { index, nodes } = plan.outcome else {
        return Ok(());
    };
    if held.is_empty() {
        return Ok(());
    }
    let passed_over = || Fit::Queue {
        reason: QueueReason::PassedOver,
    };
    match beside_held(spec, live, user, held)? {
        Some(Beside::HeldFor(_)) => {
            // No spec starts without that room.
            for candidate in plan.candidates.iter_mut().filter(|c| c.fit.is_now()) {
                candidate.fit = passed_over();
            }
            plan.outcome = Outcome::Queue {
                index,
                reason: QueueReason::PassedOver,
            };
            check.issues.push(
                crate::validate::field_path!(TaskSpec: compute.specs),
                crate::IssueCode::GangWillQueue {
                    reason: QueueReason::PassedOver,
                },
            );
        }
        Some(Beside::At(placement)) => {
            // Counted without `Placement::nodes`, whose sort would bring the standard
            // library's into the console.
            let mut names: Vec<&str> = Vec::new();
            for (name, _) in placement.node_needs() {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            let on = names.len() as u64;
            if placement.index != index || on != nodes {
                // The specs before it fit now only in that room.
                for candidate in plan.candidates.iter_mut() {
                    if candidate.index < placement.index && candidate.fit.is_now() {
                        candidate.fit = passed_over();
                    } else if candidate.index == placement.index {
                        candidate.fit = Fit::Now { nodes: on };
                    }
                }
                plan.outcome = Outcome::Now {
                    index: placement.index,
                    nodes: on,
                };
            }
        }
        Some(Beside::Nowhere) | None => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo;

    /// Room kept on every GPU node of the example's pool.
    fn kept(catalog: &Catalog, spec: &TaskSpec, priority: Option<Priority>) -> HeldRoom {
        let pool = queue_pool(catalog, spec).expect("the example's pool");
        let workers = catalog
            .regions
            .iter()
            .flat_map(|r| &r.clusters)
            .flat_map(|c| &c.pools)
            .filter(|p| p.id == pool)
            .flat_map(|p| &p.nodes)
            .filter(|n| n.total.gpu > 0)
            .map(|n| n.name.clone())
            .collect();
        HeldRoom {
            pool,
            priority,
            workers,
            ..HeldRoom::default()
        }
    }

    /// A task behind room kept for a task of its priority or a higher one waits for it;
    /// of a higher priority than the held task, or in another pool, nothing is kept from
    /// it; with none kept, nothing is said.
    #[test]
    fn room_kept_ahead_in_its_pool_holds_a_new_task_back() {
        let catalog = Arc::new(demo::catalog());
        let live = LiveUsage::new(Arc::clone(&catalog), demo::usage());
        let (spec, user) = (demo::pytorch(), demo::user());
        let said = |held: &[HeldRoom]| beside_held(&spec, &live, &user, held).expect("plans");
        assert_eq!(said(&[]), None);
        assert!(matches!(
            said(&[kept(&catalog, &spec, None)]),
            Some(Beside::HeldFor(_))
        ));
        assert!(matches!(
            said(&[kept(&catalog, &spec, Some(Priority::High))]),
            Some(Beside::HeldFor(_))
        ));
        assert_eq!(said(&[kept(&catalog, &spec, Some(Priority::Low))]), None);
        let elsewhere = HeldRoom {
            pool: "bj-a-shared".into(),
            ..kept(&catalog, &spec, None)
        };
        assert_eq!(said(&[elsewhere]), None);
    }

    /// A check's start on room kept ahead is told as the queue will do it: its plan
    /// waits, `passed_over`, with the warning any wait has at the specs, written and
    /// read back as the API sends it; a check kept from nothing is left as it was.
    #[test]
    fn a_checks_start_on_kept_room_waits_as_the_queue_will() {
        use crate::quota::{Outcome, QueueReason};
        let catalog = Arc::new(demo::catalog());
        let live = LiveUsage::new(Arc::clone(&catalog), demo::usage());
        let (spec, user) = (demo::pytorch(), demo::user());
        let checked = |held: &[HeldRoom]| {
            let mut check = crate::check(&spec, &catalog, &demo::usage(), &user);
            check_beside_held(&mut check, &spec, &live, &user, held).expect("plans");
            check
        };
        let free = checked(&[]);
        let Some(Outcome::Now { index, .. }) = free.plan.as_ref().map(|p| p.outcome.clone()) else {
            panic!("the example starts now: {:?}", free.plan);
        };
        let low = kept(&catalog, &spec, Some(Priority::Low));
        assert_eq!(checked(&[low]), free, "ahead of a lower priority's room");
        let held = checked(&[kept(&catalog, &spec, None)]);
        assert_eq!(
            held.plan.as_ref().map(|p| p.outcome.clone()),
            Some(Outcome::Queue {
                index,
                reason: QueueReason::PassedOver
            })
        );
        let waits: Vec<_> = held
            .issues
            .issues()
            .iter()
            .filter(|i| !free.issues.issues().contains(i))
            .collect();
        assert_eq!(waits.len(), 1, "{waits:?}");
        assert_eq!(waits[0].path.to_string(), "compute.specs");
        assert_eq!(
            waits[0].code,
            crate::IssueCode::GangWillQueue {
                reason: QueueReason::PassedOver
            }
        );
        // The spec's own verdict says it too (recheck: the outcome queued, its fit said
        // "now").
        assert!(
            held.plan
                .as_ref()
                .unwrap()
                .candidates
                .iter()
                .all(|c| !c.fit.is_now()),
            "{:?}",
            held.plan
        );
        // Room kept on one node at a time: where the task starts beside it, its outcome
        // and its spec's own fit say the same nodes, and no spec before it says "now"
        // (recheck: the outcome said 2 nodes, the spec's fit 1).
        let one_at_a_time = kept(&catalog, &spec, None);
        for node in &one_at_a_time.workers {
            let room = HeldRoom {
                workers: vec![node.clone()],
                ..one_at_a_time.clone()
            };
            let check = checked(&[room]);
            let plan = check.plan.as_ref().unwrap();
            match &plan.outcome {
                Outcome::Now { index, nodes } => {
                    let fit = &plan.candidate(*index).unwrap().fit;
                    assert_eq!(*fit, crate::quota::Fit::Now { nodes: *nodes }, "{node}");
                    assert!(
                        plan.candidates
                            .iter()
                            .filter(|c| c.index < *index)
                            .all(|c| !c.fit.is_now()),
                        "{node}: {plan:?}"
                    );
                }
                Outcome::Queue { .. } => {
                    assert!(plan.candidates.iter().all(|c| !c.fit.is_now()), "{node}");
                }
                Outcome::Blocked => panic!("{node}: {plan:?}"),
            }
        }
        let json = serde_json::to_string(&QueueReason::PassedOver).unwrap();
        assert_eq!(json, r#"{"kind":"passed_over"}"#);
        let read: QueueReason = serde_json::from_str(&json).unwrap();
        assert_eq!(read, QueueReason::PassedOver);
        assert_eq!(
            QueueReason::PassedOver.message(crate::Lang::En),
            "waiting for a task ahead in the queue that has been passed over too often"
        );
    }

    /// An idle task's queue is its cluster's idle offers; another kind's, its pool.
    #[test]
    fn the_queues_pool_is_the_pool_or_the_clusters_idle_offers() {
        let catalog = demo::catalog();
        let mut spec = demo::pytorch();
        let pool = queue_pool(&catalog, &spec).expect("a pool");
        assert!(!pool.starts_with("idle/"), "{pool}");
        spec.compute.kind = Some(ResourceKind::Idle);
        assert_eq!(
            queue_pool(&catalog, &spec).as_deref(),
            Some(format!("idle/{}", spec.basic.cluster).as_str())
        );
    }
}
