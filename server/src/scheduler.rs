//! The embedded scheduler: the queue, the live usage of the catalog's nodes and quota
//! lines, and the admission of whole gangs (SPEC.md section 7).
//!
//! Everything about fit and quota comes from `shared`: a submit is checked with
//! [`shared::check`] against live usage and holds the quota of the spec it would use
//! ([`shared::Plan::hold`]); admission asks [`shared::place`] for a placement of the
//! whole gang and reserves it ([`shared::Usage::reserve`]). This module adds the order.
//!
//! # Queue order
//!
//! Priority first (high, normal, low; none counts as normal), then submit order. Each
//! pass walks the queue in that order and starts every task that fits now. A task that
//! does not fit does not block the ones behind it, so a small task can start ahead of a
//! larger one: that is backfill.
//!
//! To keep a large task from starving, each time a task behind it in its pool starts
//! taking room it could use, it is "passed over" once. The room it could use is on the
//! nodes where one of its pods fits with none of Berth's tasks running
//! ([`shared::quota::reach`] under the usage taken outside Berth): room taken on any
//! other node is none it could ever have, so a start there neither passes it over nor
//! waits for it (the exploratory test's pool had 10 GPUs idle for five minutes on nodes
//! a held task of 8 per replica could never use). A RayJob's head of its own spec needs
//! room for one head on one node: a start on a node only its head fits on takes room it
//! could use only when it leaves no node with room for the head (else a CPU head kept
//! every CPU node of the pool for a gang waiting for GPUs). Once it has been passed over
//! [`MAX_PASSED_OVER`] times, nothing behind it in its pool takes room on those nodes
//! until it starts, so the capacity that frees up there is left for it: a task behind it
//! starts only where it takes none of that room (where the plan would start it anyway,
//! else placed as if those nodes were full, of a head's nodes only one kept with room
//! for the head: [`shared::quota::place_live_avoiding`]), or waits. It is told it
//! waits for that task only when it would start on that room (of several held for, the
//! first whose room it would take); one that would not start even there (its quota in
//! use, no room anywhere) is told its own reason, which that task starting would not
//! change. Tasks of other pools take none of its pool's nodes (a waiting task's quota is
//! held already), so they neither pass it over nor wait for it; nor does its pool wait
//! for it when Berth's own tasks ending would not make room for it (it waits for
//! capacity taken outside Berth): holding the pool back would keep everything there
//! waiting for nothing Berth can free.
//!
//! Idle fragment nodes are the exception to pools sharing no nodes: idle tasks (filed
//! under their cluster's idle offers, [`shared::quota::queue_pool`]) and reserved tasks that accept idle
//! (filed under their reserved pool) both take them, and neither kind passes the other
//! over or waits for it, so on those fragments a task can be starved by tasks of the
//! other kind (README, known gaps).

use shared::messages::Message;
use shared::quota::{Beside, Held, Outcome, Placement, Room};
use shared::usage::{LiveUsage, QuotaUse, Usage};
use shared::vocab::ResourceKind;
use shared::{Catalog, Report, Resources, TaskId, TaskSpec, User};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// How often a waiting task may be overtaken on room it could use before the queue keeps
/// that room for it.
pub const MAX_PASSED_OVER: u32 = 8;

/// Why a task waits behind `ahead`, passed over too often: it starts first.
fn passed_over_too_often(ahead: &TaskId) -> Message {
    Message::new("queue.passed_over#named").with("task", &ahead.0)
}

/// A task in the queue.
#[derive(Clone, Debug)]
pub struct Waiting {
    /// The task.
    pub id: TaskId,
    /// Its spec (hidden values may be masked: placement does not read them).
    pub spec: TaskSpec,
    /// Whose quota it draws on.
    pub user: User,
    /// Submit order.
    pub seq: u64,
    /// The quota it holds while it waits.
    pub hold: Vec<QuotaUse>,
    /// Times a task behind it started first, taking room it could use.
    pub passed_over: u32,
}

impl Waiting {
    fn rank(&self) -> (u8, u64) {
        (
            shared::quota::priority_rank(self.spec.compute.priority),
            self.seq,
        )
    }
}

/// What one admission pass decided for a task.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// It starts now on this placement, which is reserved.
    Admit {
        /// The task.
        id: TaskId,
        /// Where every replica goes.
        placement: Placement,
    },
    /// It keeps waiting, and why (in the findings' words).
    Wait {
        /// The task.
        id: TaskId,
        /// Why it cannot start now, rendered in each reader's language.
        reason: Message,
    },
    /// A task that was not tried waits for something else now (another took room it
    /// waits for): what its page says, not a line of its events, which would grow by one
    /// at every task started past it.
    Reason {
        /// The task.
        id: TaskId,
        /// Why it cannot start now.
        reason: Message,
    },
}

/// The queue and live usage. Not thread-safe by itself: the server keeps it behind one
/// lock, so a submit's check and its hold, and an admission's placement and reservation,
/// each happen at once (concurrent submits never over-admit).
#[derive(Debug)]
pub struct Scheduler {
    catalog: Arc<Catalog>,
    /// Usage taken outside Berth: what is left with none of Berth's tasks running.
    base: Usage,
    /// [`Scheduler::berth_can_free`] by waiting task: its answer changes only with the
    /// base usage ([`Scheduler::set_outside`] clears it; the catalog and the spec are
    /// fixed), and it is a whole plan.
    can_free: std::cell::RefCell<HashMap<TaskId, bool>>,
    /// [`Scheduler::reach`] by waiting task: as `can_free`, it changes only with the base
    /// usage, and it is a pass over its pool's nodes for each spec of its list.
    reach: std::cell::RefCell<HashMap<TaskId, Arc<Room>>>,
    /// Kept by node position as well as by name: a pass plans every waiting gang
    /// against it, and looking each node of the pool up by name was most of a pass.
    live: LiveUsage,
    queue: Vec<Waiting>,
    /// Tasks waiting out a retry's backoff, with when (ms since the epoch) they may
    /// queue again: their quota is held, as a queued task's, but no pass tries them.
    resting: HashMap<TaskId, (Waiting, i64)>,
    running: HashMap<TaskId, Placement>,
    /// Capacity or quota was given back since the last full pass, so a waiting task
    /// may fit now: [`Scheduler::admit_one`] then makes a full pass.
    freed: bool,
    /// Waiting tasks passed over [`MAX_PASSED_OVER`] times or more, in any pool: while
    /// there is none, a submit need not look through the queue for one (a scan of a
    /// long queue on every submit, under the server's lock).
    held: usize,
}

impl Scheduler {
    /// A scheduler over `catalog` with `usage` already taken (capacity outside Berth).
    pub fn new(catalog: Arc<Catalog>, usage: Usage) -> Self {
        Scheduler {
            base: usage.clone(),
            can_free: std::cell::RefCell::default(),
            reach: std::cell::RefCell::default(),
            live: LiveUsage::new(Arc::clone(&catalog), usage),
            catalog,
            queue: Vec::new(),
            resting: HashMap::new(),
            running: HashMap::new(),
            freed: false,
            held: 0,
        }
    }

    /// Live usage: node allocations and quota in use, holds included.
    pub fn usage(&self) -> &Usage {
        self.live.usage()
    }

    /// Live usage, shared: copied only when it changed since the last call.
    pub fn usage_snapshot(&mut self) -> Arc<Usage> {
        self.live.snapshot()
    }

    /// Tasks waiting, in queue order.
    pub fn queue(&self) -> &[Waiting] {
        &self.queue
    }

    /// How many tasks wait ahead of queued task `id` in its pool (by priority, then
    /// submit order); `None` when it is not in the queue (running, or waiting out a
    /// retry's backoff). Tasks of other pools take none of its room, so they are not
    /// counted, nor one that waits for capacity used outside Berth; one ahead need not
    /// start first (a task that fits starts past one that does not), so this is the
    /// order, not a promise.
    pub fn ahead(&self, id: &TaskId) -> Option<u32> {
        let at = self.queue.iter().position(|w| &w.id == id)?;
        let pool = self.pool_of(&self.queue[at].spec);
        // One that waits for capacity used outside Berth holds up no one behind it.
        let ahead = self.queue[..at]
            .iter()
            .filter(|w| self.pool_of(&w.spec) == pool && self.berth_can_free(w))
            .count();
        Some(u32::try_from(ahead).unwrap_or(u32::MAX))
    }

    /// The tasks the queue keeps room for now, in queue order, as the create form's plan
    /// reads them ([`shared::quota::HeldRoom`]): those passed over [`MAX_PASSED_OVER`]
    /// times that Berth's own tasks ending could start, as a pass holds room for them.
    pub fn held_rooms(&self) -> Vec<shared::quota::HeldRoom> {
        if self.held == 0 {
            return Vec::new();
        }
        self.queue
            .iter()
            .filter(|w| self.keeps_room_for(w))
            .filter_map(|w| {
                let pool = self.pool_of(&w.spec)?;
                let reach =
                    shared::quota::reach(&w.spec, &self.catalog, &self.base).unwrap_or_default();
                Some(shared::quota::HeldRoom::new(
                    pool,
                    w.spec.compute.priority,
                    &reach,
                ))
            })
            .collect()
    }

    /// Whether the queue keeps room for waiting task `id` now ([`Scheduler::held_rooms`]
    /// lists that room): it was passed over too often, and Berth's own tasks ending could
    /// start it.
    pub fn room_kept(&self, id: &TaskId) -> bool {
        self.held > 0
            && self
                .queue
                .iter()
                .find(|w| &w.id == id)
                .is_some_and(|w| self.keeps_room_for(w))
    }

    fn keeps_room_for(&self, waiting: &Waiting) -> bool {
        waiting.passed_over >= MAX_PASSED_OVER && self.berth_can_free(waiting)
    }

    /// Whether `id` waits in the queue, waits out a retry's backoff, or runs.
    pub fn knows(&self, id: &TaskId) -> bool {
        self.running.contains_key(id)
            || self.resting.contains_key(id)
            || self.queue.iter().any(|w| &w.id == id)
    }

    /// Holds a retried task's quota until `due` (ms since the epoch), when
    /// [`Scheduler::wake`] queues it: before then no pass starts it, and it blocks no
    /// one (its nodes are given back; only its quota stays held, as a queued task's).
    pub fn rest(&mut self, waiting: Waiting, due: i64) {
        self.live.hold(&waiting.hold);
        // Rested twice, it would hold twice and give one hold back.
        if let Some((before, _)) = self.resting.insert(waiting.id.clone(), (waiting, due)) {
            self.live.unhold(&before.hold);
        }
    }

    /// When the earliest resting task may queue again.
    pub fn next_due(&self) -> Option<i64> {
        self.resting.values().map(|(_, due)| *due).min()
    }

    /// When resting task `id` may queue again.
    pub fn due(&self, id: &TaskId) -> Option<i64> {
        self.resting.get(id).map(|(_, due)| *due)
    }

    /// The resting tasks whose time has come by `now`.
    pub fn due_by(&self, now: i64) -> Vec<TaskId> {
        self.resting
            .iter()
            .filter(|(_, (_, due))| *due <= now)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// The tasks resting now.
    pub fn resting(&self) -> Vec<TaskId> {
        self.resting.keys().cloned().collect()
    }

    /// Queues resting task `id` in its place by priority and submit time (its hold
    /// stays taken); false when it does not rest here.
    pub fn wake(&mut self, id: &TaskId) -> bool {
        let Some((waiting, _)) = self.resting.remove(id) else {
            return false;
        };
        self.enqueue(waiting);
        // Not tried since it was queued again: the next pass is a full one.
        self.freed = true;
        true
    }

    /// The placement of a task that was admitted and has not finished.
    pub fn placement(&self, id: &TaskId) -> Option<&Placement> {
        self.running.get(id)
    }

    /// Checks `spec` against the catalog and live usage for `user` and, when it has no
    /// errors, holds its quota and queues it.
    ///
    /// # Errors
    ///
    /// Every finding, when any is an error (over quota included: others' holds count).
    pub fn submit(
        &mut self,
        id: TaskId,
        spec: TaskSpec,
        user: User,
        seq: u64,
    ) -> Result<Vec<QuotaUse>, Report> {
        let check = shared::check(&spec, &self.catalog, self.live.usage(), &user);
        if check.issues.has_errors() {
            return Err(check.issues);
        }
        let hold = check
            .plan
            .map(|plan| plan.hold(&user.name))
            .unwrap_or_default();
        self.queue_checked(id, spec, user, seq, hold.clone());
        Ok(hold)
    }

    /// Holds `hold` and queues a task whose spec the caller checked against
    /// [`Scheduler::usage`] under the same lock, with no error; `hold` is what its
    /// plan holds ([`shared::Plan::hold`]).
    pub fn queue_checked(
        &mut self,
        id: TaskId,
        spec: TaskSpec,
        user: User,
        seq: u64,
        hold: Vec<QuotaUse>,
    ) {
        self.live.hold(&hold);
        self.enqueue(Waiting {
            id,
            spec,
            user,
            seq,
            hold,
            passed_over: 0,
        });
    }

    /// Puts a task back in the queue with the quota it holds (after a restart, or a
    /// retry); the hold is taken again.
    pub fn restore_waiting(&mut self, waiting: Waiting) {
        self.live.hold(&waiting.hold);
        self.enqueue(waiting);
        // Not tried since it was queued again: the next pass is a full one.
        self.freed = true;
    }

    /// Records a task that runs on `placement` (after a restart); its capacity is
    /// taken again.
    ///
    /// # Errors
    ///
    /// When the placement no longer fits the nodes (the catalog changed).
    pub fn restore_running(
        &mut self,
        id: TaskId,
        placement: Placement,
    ) -> Result<(), shared::usage::UsageError> {
        self.live.reserve(&placement)?;
        self.running.insert(id, placement);
        Ok(())
    }

    /// Gives back the holds the quota no longer has room for: in queue order (resting
    /// tasks in their places too), each waiting task keeps its hold while that fits its
    /// lines' limits on top of what runs and the holds kept ahead of it. After the
    /// catalog lowered a line below what its waiting tasks held (a restart on a changed
    /// catalog), each judged the others' holds over its quota and none ever started,
    /// the first in the queue too (lifecycle exploration). A task whose hold is given
    /// back waits holding none, and starts once its quota has room. Returns those tasks.
    pub fn give_back_holds_over_quota(&mut self) -> Vec<TaskId> {
        let mut order: Vec<(usize, Option<TaskId>)> =
            (0..self.queue.len()).map(|i| (i, None)).collect();
        order.extend(self.resting.keys().map(|id| (0, Some(id.clone()))));
        let rank = |this: &Self, (i, id): &(usize, Option<TaskId>)| match id {
            Some(id) => this.resting[id].0.rank(),
            None => this.queue[*i].rank(),
        };
        order.sort_by_key(|entry| rank(self, entry));
        let mut kept = self.live.usage().clone();
        for waiting in self
            .queue
            .iter()
            .chain(self.resting.values().map(|(w, _)| w))
        {
            kept.unhold(&waiting.hold);
        }
        let mut over = Vec::new();
        for (i, id) in order {
            let waiting = match &id {
                Some(id) => &self.resting[id].0,
                None => &self.queue[i],
            };
            let mut with = kept.clone();
            with.hold(&waiting.hold);
            let fits = waiting.hold.iter().all(|line| {
                self.catalog
                    .quota(&line.user, line.kind, &line.pool, &line.spec)
                    .is_none_or(|quota| {
                        with.quota_used(&line.user, line.kind, &line.pool, &line.spec)
                            .fits_within(&quota.limit)
                    })
            });
            if fits {
                kept = with;
            } else {
                over.push((i, id));
            }
        }
        let mut given_back = Vec::new();
        for (i, id) in over {
            let waiting = match &id {
                Some(id) => &mut self.resting.get_mut(id).expect("listed above").0,
                None => &mut self.queue[i],
            };
            let hold = std::mem::take(&mut waiting.hold);
            given_back.push(waiting.id.clone());
            self.live.unhold(&hold);
            self.freed = true;
        }
        given_back
    }

    fn enqueue(&mut self, waiting: Waiting) {
        self.held += usize::from(waiting.passed_over >= MAX_PASSED_OVER);
        let at = self.queue.partition_point(|w| w.rank() <= waiting.rank());
        self.queue.insert(at, waiting);
    }

    /// Takes a waiting task out of the queue (stopped or deleted before it started) and
    /// gives its quota back.
    pub fn cancel(&mut self, id: &TaskId) -> Option<Waiting> {
        if let Some((waiting, _)) = self.resting.remove(id) {
            self.live.unhold(&waiting.hold);
            self.freed = true;
            return Some(waiting);
        }
        let at = self.queue.iter().position(|w| &w.id == id)?;
        let waiting = self.queue.remove(at);
        self.can_free.borrow_mut().remove(id);
        self.reach.borrow_mut().remove(id);
        self.held -= usize::from(waiting.passed_over >= MAX_PASSED_OVER);
        self.live.unhold(&waiting.hold);
        self.freed = true;
        Some(waiting)
    }

    /// A running task ended: its nodes and quota are free again.
    pub fn finish(&mut self, id: &TaskId) -> Option<Placement> {
        let placement = self.running.remove(id)?;
        // It was reserved by this scheduler, so releasing it cannot fail; if usage was
        // rebuilt differently, keep what is there rather than go below zero.
        let _ = self.live.release(&placement);
        self.freed = true;
        Some(placement)
    }

    /// What a task about to wait again holds, from what it `held` last (its placement's
    /// hold, or the store's): the same, except for reserved capacity that ran on idle,
    /// which held none there (an idle placement holds no quota) and waits as it did
    /// before its first start, holding what its plan holds ([`shared::Plan::hold`]): by
    /// its next start the idle offers may be gone.
    pub fn waiting_hold(&self, held: Vec<QuotaUse>, spec: &TaskSpec, user: &User) -> Vec<QuotaUse> {
        if !held.is_empty() || spec.compute.kind != Some(ResourceKind::Reserved) {
            return held;
        }
        shared::quota::plan_live(spec, &self.live, user)
            .ok()
            .flatten()
            .map(|plan| plan.hold(&user.name))
            .unwrap_or_default()
    }

    /// What pods outside Berth take on each node now (`nodes`, by node name; a node not
    /// listed takes nothing), replacing what was known: live usage keeps Berth's own
    /// placements and holds on top of it. Returns whether some node has more room than
    /// before, when a waiting task may fit now (the next [`Scheduler::admit_one`] is then
    /// a full pass).
    pub fn set_outside(&mut self, nodes: BTreeMap<String, Resources>) -> bool {
        if nodes == self.base.nodes {
            return false;
        }
        let freed = self
            .base
            .nodes
            .iter()
            .any(|(node, was)| !was.fits_within(&nodes.get(node).copied().unwrap_or_default()));
        // Berth's own allocation on each node: what live usage has above the old base.
        let mut live = self.live.usage().clone();
        let names: std::collections::BTreeSet<String> =
            live.nodes.keys().chain(nodes.keys()).cloned().collect();
        let old = std::mem::replace(&mut self.base.nodes, nodes);
        for name in names {
            let was = old.get(&name).copied().unwrap_or_default();
            let ours = live
                .nodes
                .get(&name)
                .copied()
                .unwrap_or_default()
                .saturating_sub(was);
            let now = self
                .base
                .nodes
                .get(&name)
                .copied()
                .unwrap_or_default()
                .saturating_add(ours);
            if now == Resources::default() {
                live.nodes.remove(&name);
            } else {
                live.nodes.insert(name, now);
            }
        }
        self.live = LiveUsage::new(Arc::clone(&self.catalog), live);
        // Whether a task could start with none of Berth's running, and where, depend on
        // the base.
        self.can_free.borrow_mut().clear();
        self.reach.borrow_mut().clear();
        self.freed |= freed;
        freed
    }

    /// The admission pass after `id` was queued. Queuing a task frees nothing, so the
    /// tasks that waited after the last full pass still wait: only `id` can start, when
    /// nothing ahead of it has been passed over too often. When something was freed
    /// since the last full pass, this is a full pass ([`Scheduler::admit`]).
    pub fn admit_one(&mut self, id: &TaskId) -> Vec<Decision> {
        if self.freed {
            return self.admit();
        }
        let Some(i) = self.queue.iter().rposition(|w| &w.id == id) else {
            return Vec::new();
        };
        let pool = self.pool_of(&self.queue[i].spec);
        let mut held: Option<Held> = None;
        if self.held > 0 {
            for ahead in &self.queue[..i] {
                if ahead.passed_over >= MAX_PASSED_OVER
                    && self.pool_of(&ahead.spec) == pool
                    && self.berth_can_free(ahead)
                {
                    held = Some(Held::and(held, &ahead.id, self.reach(ahead)));
                }
            }
        }
        let waiting = self.queue.remove(i);
        match self.try_place(&waiting, held.as_ref()) {
            Ok(placement) => {
                self.held -= usize::from(waiting.passed_over >= MAX_PASSED_OVER);
                // Every task ahead of it in its pool: what it waits for may have changed
                // (the room this one took), and it is passed over when that room was
                // some it could use.
                let ahead: Vec<(usize, bool)> = self.queue[..i]
                    .iter()
                    .enumerate()
                    .filter(|(_, ahead)| self.pool_of(&ahead.spec) == pool)
                    .map(|(k, ahead)| (k, self.reach(ahead).taken_by(&placement, &self.live)))
                    .collect();
                for &(k, passed) in &ahead {
                    if passed {
                        let ahead = &mut self.queue[k];
                        ahead.passed_over += 1;
                        self.held += usize::from(ahead.passed_over == MAX_PASSED_OVER);
                    }
                }
                self.running.insert(waiting.id.clone(), placement.clone());
                let mut decisions = vec![Decision::Admit {
                    id: waiting.id,
                    placement,
                }];
                // Said again, or their reason stayed that of the last full pass: as a full
                // pass says it, behind the tasks ahead of each that are held for.
                let mut held: Option<Held> = None;
                for (k, _) in ahead {
                    let ahead = self.queue[k].clone();
                    let reason = self.reason_behind(&ahead, held.as_ref());
                    if ahead.passed_over >= MAX_PASSED_OVER && self.berth_can_free(&ahead) {
                        held = Some(Held::and(held, &ahead.id, self.reach(&ahead)));
                    }
                    decisions.push(Decision::Reason {
                        reason,
                        id: ahead.id,
                    });
                }
                decisions
            }
            Err(reason) => {
                self.queue.insert(i, waiting);
                vec![Decision::Wait {
                    id: id.clone(),
                    reason,
                }]
            }
        }
    }

    /// One admission pass over the queue (see the module docs for the order).
    pub fn admit(&mut self) -> Vec<Decision> {
        self.freed = false;
        let mut decisions = Vec::new();
        // The queue is rebuilt from the tasks that keep waiting, in order: taking each
        // started task out of the middle moved the whole rest of the queue.
        let queue = std::mem::take(&mut self.queue);
        let mut waiting: Vec<Waiting> = Vec::with_capacity(queue.len());
        // Each waiting task's pool, by its position in `waiting`.
        let mut pools: Vec<Option<String>> = Vec::with_capacity(queue.len());
        // The pools where a task waits in this pass that has been passed over too
        // often, with those tasks: nothing behind them there takes room they could use.
        let mut held_back: Vec<(Option<String>, Held)> = Vec::new();
        // By position in `waiting`: where its wait is among `decisions`, and whether a
        // task behind it in its pool started after it was judged (its reason then spoke
        // of room since taken, or of fewer tasks held for).
        let mut judged: Vec<(usize, bool)> = Vec::with_capacity(queue.len());
        for task in queue {
            let pool = self.pool_of(&task.spec);
            let held = held_back.iter().find(|(p, _)| *p == pool).map(|(_, h)| h);
            match self.try_place(&task, held) {
                Ok(placement) => {
                    // Every task that waits ahead of it in its pool in this pass: what it
                    // waits for may have changed, and it is passed over when the room
                    // taken was some it could use.
                    for ((ahead, _), (_, stale)) in waiting
                        .iter_mut()
                        .zip(&pools)
                        .zip(judged.iter_mut())
                        .filter(|((_, p), _)| **p == pool)
                    {
                        *stale = true;
                        if !self.reach(ahead).taken_by(&placement, &self.live) {
                            continue;
                        }
                        ahead.passed_over += 1;
                        if ahead.passed_over == MAX_PASSED_OVER && self.berth_can_free(ahead) {
                            hold_back(&mut held_back, &pool, ahead, self.reach(ahead));
                        }
                    }
                    self.running.insert(task.id.clone(), placement.clone());
                    decisions.push(Decision::Admit {
                        id: task.id,
                        placement,
                    });
                }
                Err(reason) => {
                    judged.push((decisions.len(), false));
                    decisions.push(Decision::Wait {
                        id: task.id.clone(),
                        reason,
                    });
                    if task.passed_over >= MAX_PASSED_OVER && self.berth_can_free(&task) {
                        hold_back(&mut held_back, &pool, &task, self.reach(&task));
                    }
                    waiting.push(task);
                    pools.push(pool);
                }
            }
        }
        // Said as the pass leaves the room and the tasks held for, so its line of events
        // is not of room gone, and reads as a submit's pass would say it
        // ([`Scheduler::admit_one`]): behind the tasks held for ahead of it.
        let mut held_ahead: Vec<(&Option<String>, Held)> = Vec::new();
        for ((task, pool), (at, stale)) in waiting.iter().zip(&pools).zip(judged) {
            let at_pool = held_ahead.iter().position(|(p, _)| *p == pool);
            if stale {
                let held = at_pool.map(|k| &held_ahead[k].1);
                decisions[at] = Decision::Wait {
                    id: task.id.clone(),
                    reason: self.reason_behind(task, held),
                };
            }
            if task.passed_over >= MAX_PASSED_OVER && self.berth_can_free(task) {
                let nodes = self.reach(task);
                match at_pool {
                    Some(k) => {
                        let held = std::mem::take(&mut held_ahead[k].1);
                        held_ahead[k].1 = Held::and(Some(held), &task.id, nodes);
                    }
                    None => held_ahead.push((pool, Held::and(None, &task.id, nodes))),
                }
            }
        }
        self.held = waiting
            .iter()
            .filter(|w| w.passed_over >= MAX_PASSED_OVER)
            .count();
        // Only waiting tasks keep an answer (a retried task is asked again: cheap once).
        let (can_free, reach) = (self.can_free.get_mut(), self.reach.get_mut());
        if !can_free.is_empty() || !reach.is_empty() {
            let ids: HashSet<&TaskId> = waiting.iter().map(|w| &w.id).collect();
            can_free.retain(|id, _| ids.contains(id));
            reach.retain(|id, _| ids.contains(id));
        }
        self.queue = waiting;
        decisions
    }

    /// The pool `spec` draws nodes from; `None` while it resolves to none (it cannot
    /// start then, and takes nothing from anyone).
    fn pool_of(&self, spec: &TaskSpec) -> Option<String> {
        shared::quota::queue_pool(&self.catalog, spec)
    }

    /// Whether the task would start with none of Berth's tasks running: only then can
    /// what Berth's tasks give back make room for it.
    fn berth_can_free(&self, waiting: &Waiting) -> bool {
        *self
            .can_free
            .borrow_mut()
            .entry(waiting.id.clone())
            .or_insert_with(|| {
                matches!(
                    shared::quota::plan(&waiting.spec, &self.catalog, &self.base, &waiting.user),
                    Ok(Some(plan)) if matches!(plan.outcome, Outcome::Now { .. })
                )
            })
    }

    /// The room a waiting task could ever take: on the nodes where one of its pods fits
    /// with none of Berth's tasks running. Room taken anywhere else is none it could use.
    fn reach(&self, waiting: &Waiting) -> Arc<Room> {
        let mut reach = self.reach.borrow_mut();
        let room = reach.entry(waiting.id.clone()).or_insert_with(|| {
            // A pod whose need overflows is placed nowhere: the task never starts.
            let reach =
                shared::quota::reach(&waiting.spec, &self.catalog, &self.base).unwrap_or_default();
            Arc::new(Room::new(reach))
        });
        Arc::clone(room)
    }

    /// Places a waiting task on live capacity: its own hold is set aside while it is
    /// placed, and replaced by what the placement reserves. Behind tasks `held` for in
    /// its pool, only on room none of them could use; it waits for them when there is
    /// none.
    fn try_place(&mut self, waiting: &Waiting, held: Option<&Held>) -> Result<Placement, Message> {
        self.live.unhold(&waiting.hold);
        let result =
            match shared::quota::place_beside(&waiting.spec, &self.live, &waiting.user, held) {
                Ok(Beside::At(placement)) => match self.live.reserve(&placement) {
                    Ok(()) => return Ok(placement),
                    Err(err) => Err(Message::new("queue.error").with("error", err)),
                },
                Ok(Beside::HeldFor(ahead)) => Err(passed_over_too_often(&ahead)),
                Ok(Beside::Nowhere) => Err(self.reason_unheld(waiting)),
                Err(err) => Err(Message::new("queue.error").with("error", err)),
            };
        self.live.hold(&waiting.hold);
        result
    }

    /// Why a waiting task cannot start now, behind the tasks `held` for ahead of it in
    /// its pool: the rule [`Scheduler::try_place`] judges by, so that a reason said
    /// again reads as one said when the task was tried.
    fn reason_behind(&mut self, waiting: &Waiting, held: Option<&Held>) -> Message {
        if held.is_none() {
            return self.reason(waiting);
        }
        self.live.unhold(&waiting.hold);
        let reason =
            match shared::quota::place_beside(&waiting.spec, &self.live, &waiting.user, held) {
                Ok(Beside::HeldFor(ahead)) => passed_over_too_often(&ahead),
                Ok(Beside::At(_) | Beside::Nowhere) => self.reason_unheld(waiting),
                Err(err) => Message::new("queue.error").with("error", err),
            };
        self.live.hold(&waiting.hold);
        reason
    }

    /// Why a waiting task cannot start now: its own hold set aside, or its quota would
    /// count it twice and read as over ("no spec of the list can be used now").
    fn reason(&mut self, waiting: &Waiting) -> Message {
        self.live.unhold(&waiting.hold);
        let reason = self.reason_unheld(waiting);
        self.live.hold(&waiting.hold);
        reason
    }

    /// The stability, below the one idle task `waiting` chose, that would start it now,
    /// the highest first (as a message key): the form offered it, and a reason without
    /// it left the owner to guess.
    fn lower_level_starting(&self, waiting: &Waiting) -> Option<&'static str> {
        let chosen = waiting.spec.compute.idle_stability?;
        chosen
            .lower()
            .find(|level| {
                let mut spec = waiting.spec.clone();
                spec.compute.idle_stability = Some(*level);
                matches!(
                    shared::quota::plan_live(&spec, &self.live, &waiting.user),
                    Ok(Some(plan)) if matches!(plan.outcome, Outcome::Now { .. })
                )
            })
            .map(|level| level.label_key())
    }

    /// Why a waiting task whose hold is set aside cannot start now, as the plan says it.
    fn reason_unheld(&self, waiting: &Waiting) -> Message {
        match shared::quota::plan_live(&waiting.spec, &self.live, &waiting.user) {
            Ok(Some(plan)) => match &plan.outcome {
                Outcome::Queue { reason, .. } => {
                    let said = self.reason_queued(waiting, reason.clone());
                    self.nor_on_idle(waiting, &plan, said)
                }
                // As the form's verdict says it: "no spec of the list can be used now"
                // told nothing of a quota lowered since (lab admin explorer).
                Outcome::Blocked => Message::new(match plan.blocked_by() {
                    Some(shared::quota::Blocked::NeverFits) => "queue.blocked#never",
                    Some(shared::quota::Blocked::NoQuota) => "queue.blocked#no_quota",
                    Some(shared::quota::Blocked::OverQuota) => "queue.blocked#quota",
                    Some(shared::quota::Blocked::Mixed) | None => "queue.blocked",
                }),
                Outcome::Now { .. } => Message::new("queue.capacity_changed"),
            },
            Ok(None) => Message::new("queue.spec_unresolved"),
            Err(err) => Message::new("queue.error").with("error", err),
        }
    }

    /// `said` of reserved capacity that accepts idle capacity, which waits for both:
    /// with why the idle capacity cannot start it either, as the form tells it beside
    /// the pool's reason (the task page told the pool's alone).
    fn nor_on_idle(&self, waiting: &Waiting, plan: &shared::quota::Plan, said: Message) -> Message {
        let compute = &waiting.spec.compute;
        if plan.kind != ResourceKind::Reserved || !compute.accept_idle {
            return said;
        }
        let Some(used) = plan.used() else {
            return said;
        };
        // Free, not offered: an offer whose every unit is taken is no more use to it.
        let (key, level) = if plan.idle.iter().any(|offer| offer.quantity > 0) {
            ("queue.no_idle_offer#also_short", None)
        } else if let Some(level) = compute.idle_stability {
            ("queue.no_idle_offer#also", Some(level))
        } else {
            ("queue.no_idle_offer#also_any", None)
        };
        let said = Message::new(key)
            .with_message("reason", said)
            .with("spec", self.catalog.spec_name(&waiting.spec, &used.spec));
        match level {
            Some(level) => said.with_message("level", Message::new(level.label_key())),
            None => said,
        }
    }

    /// Why a waiting task whose plan queues it for `reason` cannot start now.
    fn reason_queued(&self, waiting: &Waiting, reason: shared::quota::QueueReason) -> Message {
        // That no idle capacity is offered says already what it waits for.
        let no_offer = matches!(reason, shared::quota::QueueReason::NoIdleOffer { .. });
        let mut said = named(reason.to_message(), &self.catalog, &waiting.spec);
        if no_offer && let Some(level) = self.lower_level_starting(waiting) {
            said.key = "queue.no_idle_offer#lower".into();
            said = said.with_message("level", Message::new(level));
        }
        // It would wait with none of Berth's tasks running too: for capacity
        // used outside Berth, which "will queue" alone read as waiting for
        // the user's own tasks (scheduler explorer); an idle task, for more
        // idle capacity to be offered (recheck explorer).
        if no_offer || self.berth_can_free(waiting) {
            return said;
        }
        // Said by the plan on that use: what is free now says nothing of
        // what would be (explorer: "0 of 13 replicas fit, even if all of
        // Berth's tasks end", where 12 would).
        let alone =
            match shared::quota::plan(&waiting.spec, &self.catalog, &self.base, &waiting.user) {
                Ok(Some(shared::quota::Plan {
                    outcome: Outcome::Queue { reason, .. },
                    ..
                })) => named(reason.to_message(), &self.catalog, &waiting.spec),
                _ => said,
            };
        Message::new(shared::quota::outside_berth_key(&waiting.spec)).with_message("reason", alone)
    }
}

/// `said` with its spec named as people know it ([`Catalog::spec_name`]), as the form's
/// plan names it: the task page read "no idle capacity of a100-1g" where the form had
/// said "A100 single card" (scheduler explorer).
fn named(mut said: Message, catalog: &Catalog, spec: &TaskSpec) -> Message {
    if let Some(shared::messages::Arg::Text(id)) = said.args.get_mut("spec") {
        *id = catalog.spec_name(spec, id);
    }
    said
}

/// Holds `pool` back for `task` as well, which could use `room`.
fn hold_back(
    held_back: &mut Vec<(Option<String>, Held)>,
    pool: &Option<String>,
    task: &Waiting,
    room: Arc<Room>,
) {
    match held_back.iter_mut().find(|(p, _)| p == pool) {
        Some((_, held)) => *held = Held::and(Some(std::mem::take(held)), &task.id, room),
        None => held_back.push((pool.clone(), Held::and(None, &task.id, room))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::task::{InstanceType, Priority, ResourceKind};
    use shared::{Resources, demo};

    /// One replica of `gpus` A100s on the Beijing pool (16 empty A100 nodes of 8 GPUs),
    /// reserved instances with a quota of `quota_gpus`.
    fn world(quota_gpus: u64) -> (Arc<Catalog>, Usage) {
        let mut catalog = demo::catalog();
        for q in catalog.quotas.iter_mut() {
            if q.pool == "bj-a-shared"
                && q.spec == "a100-1g"
                && q.kind == Some(ResourceKind::Reserved)
            {
                q.limit = Resources::new(quota_gpus, quota_gpus * 12, quota_gpus * 120);
            }
        }
        (Arc::new(catalog), Usage::new())
    }

    /// `s` on bj-a's reserved A100 pool: `workers` replicas of `units` cards each, no
    /// volume.
    fn on_bj_a(s: &mut TaskSpec, units: u32, workers: u32) {
        s.basic.region = "cn-north".into();
        s.basic.cluster = "bj-a".into();
        s.compute.kind = Some(ResourceKind::Reserved);
        s.compute.pool = Some("bj-a-shared".into());
        s.compute.priority = None;
        s.compute.guarantee = None;
        s.compute.instance_type = InstanceType::Gpu;
        s.compute.specs = vec!["a100-1g".into()];
        s.compute.units_per_node = units;
        s.compute.workers = workers;
        s.environment.storage.clear();
    }

    fn task(units: u32, workers: u32) -> TaskSpec {
        demo::pytorch().with(|s| {
            on_bj_a(s, units, workers);
            s.environment.command =
                "torchrun --nnodes \"$WORLD_SIZE\" --node_rank \"$RANK\" train.py".into();
        })
    }

    fn id(n: u64) -> TaskId {
        TaskId(format!("t-{n}"))
    }

    /// Why `who` waits, as each of `decisions` says it (a wait, or a passed-over reason).
    fn said_to(decisions: &[Decision], who: &TaskId) -> Vec<String> {
        said_to_in(decisions, who, shared::Lang::En)
    }

    /// [`said_to`] in `lang`.
    fn said_to_in(decisions: &[Decision], who: &TaskId, lang: shared::Lang) -> Vec<String> {
        decisions
            .iter()
            .filter_map(|d| match d {
                Decision::Wait { id, reason } | Decision::Reason { id, reason } if id == who => {
                    Some(reason.render(lang))
                }
                _ => None,
            })
            .collect()
    }

    fn admitted(decisions: &[Decision]) -> Vec<TaskId> {
        decisions
            .iter()
            .filter_map(|d| match d {
                Decision::Admit { id, .. } => Some(id.clone()),
                Decision::Wait { .. } | Decision::Reason { .. } => None,
            })
            .collect()
    }

    /// Submits `spec` as `id(n)`, `n`th in submit order, and runs that submit's pass
    /// ([`Scheduler::admit_one`]): what it decided.
    fn submit_pass(scheduler: &mut Scheduler, n: u64, spec: TaskSpec) -> Vec<Decision> {
        scheduler
            .submit(id(n), spec, demo::user(), n)
            .expect("valid");
        scheduler.admit_one(&id(n))
    }

    /// What the pass of [`submit_pass`] started.
    fn submit_now(scheduler: &mut Scheduler, n: u64, spec: TaskSpec) -> Vec<TaskId> {
        admitted(&submit_pass(scheduler, n, spec))
    }

    fn nodes_within_capacity(scheduler: &Scheduler, catalog: &Catalog) -> bool {
        catalog
            .nodes()
            .all(|n| scheduler.usage().allocated(&n.name).fits_within(&n.total))
    }

    #[test]
    fn a_task_is_known_while_it_waits_or_runs() {
        let (catalog, usage) = world(16);
        let mut scheduler = Scheduler::new(catalog, usage);
        scheduler
            .submit(id(1), task(8, 1), demo::user(), 1)
            .unwrap();
        assert!(scheduler.knows(&id(1)));
        assert!(!scheduler.knows(&id(2)));
        assert_eq!(admitted(&scheduler.admit()), vec![id(1)]);
        assert!(scheduler.knows(&id(1)));
        scheduler
            .submit(id(2), task(8, 15), demo::user(), 2)
            .unwrap_err();
        scheduler.finish(&id(1));
        assert!(!scheduler.knows(&id(1)));
    }

    /// A restart on a catalog that lowered a quota line below what its waiting tasks
    /// held: each judged the others' holds over its quota, and none ever started
    /// (lifecycle exploration). The first in the queue keeps its hold and starts; the
    /// next holds none and starts once the quota has room.
    #[test]
    fn holds_a_lowered_quota_has_no_room_for_are_given_back_in_queue_order() {
        let (catalog, usage) = world(16);
        let mut before = Scheduler::new(catalog, usage);
        for n in 1..=2 {
            before
                .submit(id(n), task(8, 0), demo::user(), n)
                .expect("within 16 GPUs");
        }
        let holds: Vec<Vec<QuotaUse>> = before.queue().iter().map(|w| w.hold.clone()).collect();
        assert!(
            holds.iter().all(|h| h.len() == 1 && h[0].used.gpu == 8),
            "{holds:?}"
        );

        let (lowered, usage) = world(8);
        let restart = || {
            let mut scheduler = Scheduler::new(Arc::clone(&lowered), usage.clone());
            for (n, hold) in (1..=2).zip(&holds) {
                scheduler.restore_waiting(Waiting {
                    id: id(n),
                    spec: task(8, 0),
                    user: demo::user(),
                    seq: n,
                    hold: hold.clone(),
                    passed_over: 0,
                });
            }
            scheduler
        };
        // As it was: the nodes are empty, and nothing starts.
        assert_eq!(admitted(&restart().admit()), Vec::<TaskId>::new());

        let mut scheduler = restart();
        assert_eq!(scheduler.give_back_holds_over_quota(), [id(2)]);
        let decisions = scheduler.admit();
        assert_eq!(admitted(&decisions), [id(1)]);
        // The queue's word for a task its quota has no room for now: named as quota
        // ("no spec of the list can be used now" told nothing of it: lab admin explorer).
        assert_eq!(
            said_to(&decisions, &id(2)),
            [
                "every spec of the list is over the remaining quota now; it waits until other \
              tasks free enough or the quota is raised"
            ]
        );
        assert!(scheduler.queue().iter().all(|w| w.hold.is_empty()));
        scheduler.finish(&id(1));
        assert_eq!(admitted(&scheduler.admit()), [id(2)]);
        // Holds that fit are kept.
        let (_, usage) = world(16);
        let mut roomy = Scheduler::new(Arc::clone(&lowered), usage);
        roomy.restore_waiting(before.queue()[0].clone());
        assert_eq!(roomy.give_back_holds_over_quota(), Vec::<TaskId>::new());
    }

    #[test]
    fn quota_for_ten_admits_exactly_ten_of_fifty_submits() {
        let (catalog, usage) = world(10);
        let mut scheduler = Scheduler::new(catalog, usage);
        let results: Vec<_> = (0..50)
            .map(|n| scheduler.submit(id(n), task(1, 0), demo::user(), n))
            .collect();
        assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 10);
        for refused in results.iter().filter_map(|r| r.as_ref().err()) {
            assert!(
                refused.codes().contains(&"compute.quota.exceeded"),
                "{refused}"
            );
        }
    }

    #[test]
    fn a_gang_starts_whole_or_waits_with_the_reason() {
        let (catalog, usage) = world(1024);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        // 16 nodes of 8 GPUs: 15 whole-node replicas fit, then one of 16 does not.
        scheduler
            .submit(id(1), task(8, 14), demo::user(), 1)
            .expect("valid");
        scheduler
            .submit(id(2), task(8, 1), demo::user(), 2)
            .expect("valid");
        let decisions = scheduler.admit();
        assert_eq!(admitted(&decisions), [id(1)]);
        let Some(Decision::Wait { reason, .. }) = decisions.last() else {
            panic!("the second gang waits: {decisions:?}")
        };
        let reason = reason.render(shared::Lang::En);
        assert!(reason.contains("1 of 2 replicas"), "{reason}");
        assert!(nodes_within_capacity(&scheduler, &catalog));
        // The first ends: the second starts by itself on the next pass.
        scheduler.finish(&id(1)).expect("it ran");
        assert_eq!(admitted(&scheduler.admit()), [id(2)]);
    }

    /// A scheduler on a quota of 16 GPUs whose task `id(1)` (8 GPUs) has run and ended
    /// its attempt, and that task as it would rest for its retry, holding what it ran on.
    fn ran_once() -> (Scheduler, Waiting) {
        let (catalog, usage) = world(16);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        scheduler
            .submit(id(1), task(8, 0), demo::user(), 1)
            .expect("valid");
        assert_eq!(admitted(&scheduler.admit()), [id(1)]);
        let placement = scheduler.finish(&id(1)).expect("it ran");
        let resting = Waiting {
            id: id(1),
            spec: task(8, 0),
            user: demo::user(),
            seq: 1,
            hold: placement.hold(),
            passed_over: 0,
        };
        (scheduler, resting)
    }

    /// Reserved capacity that ran on idle held nothing there: waiting again, it holds
    /// what its plan holds, as before its first start. A hold it had keeps, and an idle
    /// task waits holding nothing, as it ran.
    #[test]
    fn a_reserved_task_back_from_idle_waits_holding_its_plans_quota() {
        let (catalog, usage) = world(16);
        let scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        let user = demo::user();
        let reserved = task(8, 0);
        let planned = shared::quota::plan(&reserved, &catalog, scheduler.usage(), &user)
            .expect("no overflow")
            .expect("a plan")
            .hold(&user.name);
        assert_eq!(planned.len(), 1, "{planned:?}");
        assert_eq!(
            scheduler.waiting_hold(Vec::new(), &reserved, &user),
            planned
        );
        let mut held = planned.clone();
        held[0].used = Resources::new(1, 1, 1);
        assert_eq!(scheduler.waiting_hold(held.clone(), &reserved, &user), held);
        let idle = reserved.with(|s| {
            s.compute.kind = Some(ResourceKind::Idle);
            s.compute.idle_stability = Some(shared::task::IdleStability::Low);
        });
        assert_eq!(scheduler.waiting_hold(Vec::new(), &idle, &user), []);
    }

    /// A task rested twice (a restart's recovery over a retry already resting) holds
    /// its quota once: cancelled, all of it is given back.
    #[test]
    fn a_task_rested_twice_holds_its_quota_once() {
        let (mut scheduler, resting) = ran_once();
        scheduler.rest(resting.clone(), 5_000);
        scheduler.rest(resting, 6_000);
        assert_eq!(scheduler.due(&id(1)), Some(6_000));
        scheduler
            .submit(id(2), task(8, 0), demo::user(), 2)
            .expect("8 held once: 8 more fit the quota of 16");
        scheduler.cancel(&id(2)).expect("queued");
        scheduler.cancel(&id(1)).expect("it rested");
        scheduler
            .submit(id(3), task(8, 1), demo::user(), 3)
            .expect("everything given back: 16 GPUs fit the quota of 16");
    }

    /// A retried task waiting out its backoff (README, Running tasks) holds its quota,
    /// as a queued task does, but takes no node, is never admitted and blocks no one;
    /// woken, it queues in its place by priority and submit time, behind what ranks
    /// before it; stopped, it gives its hold back.
    #[test]
    fn a_resting_task_holds_its_quota_blocks_no_one_and_rejoins_in_its_place() {
        let (mut scheduler, resting) = ran_once();
        scheduler.rest(resting.clone(), 5_000);
        assert!(scheduler.knows(&id(1)));
        assert_eq!(scheduler.next_due(), Some(5_000));
        assert_eq!(scheduler.due_by(4_999), Vec::<TaskId>::new());
        assert_eq!(scheduler.due_by(5_000), [id(1)]);
        // Its 8 GPUs stay held: 8 more fit the quota of 16, and start (it is not tried).
        assert!(
            scheduler
                .submit(id(9), task(8, 1), demo::user(), 9)
                .is_err(),
            "16 more GPUs are over quota beside its hold"
        );
        scheduler
            .submit(id(2), task(8, 0), demo::user(), 2)
            .expect("8 more fit beside its hold");
        assert_eq!(admitted(&scheduler.admit()), [id(2)]);
        assert!(
            scheduler
                .submit(id(3), task(8, 0), demo::user(), 3)
                .is_err(),
            "the quota is full: 8 held, 8 running"
        );
        scheduler.cancel(&id(1)).expect("it rested");
        assert!(!scheduler.knows(&id(1)));
        scheduler
            .submit(id(3), task(8, 0), demo::user(), 3)
            .expect("its hold given back");

        // Woken, it ranks by priority, then by its submit, as when it first queued.
        let (catalog, usage) = world(1024);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        scheduler.rest(resting, 5_000);
        let urgent = task(8, 0).with(|s| s.compute.priority = Some(Priority::High));
        scheduler
            .submit(id(3), urgent, demo::user(), 3)
            .expect("valid");
        scheduler
            .submit(id(4), task(8, 0), demo::user(), 4)
            .expect("valid");
        assert!(scheduler.wake(&id(1)));
        let order: Vec<TaskId> = scheduler.queue().iter().map(|w| w.id.clone()).collect();
        assert_eq!(order, [id(3), id(1), id(4)]);
        assert_eq!(scheduler.next_due(), None);
    }

    /// Pods outside Berth come and go on the cluster (README, Kubernetes: usage is read
    /// again while the server runs). What they take replaces what was known; Berth's own
    /// placements stay counted on top of it, a task that did not fit starts once outside
    /// pods give room back, and a check after they take more sees less room.
    #[test]
    fn outside_usage_read_again_keeps_berths_own_and_frees_or_takes_room() {
        let (catalog, usage) = world(1024);
        let nodes: Vec<String> = catalog
            .nodes()
            .filter(|n| n.name.starts_with("bj-a-a100-"))
            .map(|n| n.name.clone())
            .collect();
        assert_eq!(
            nodes.len(),
            16,
            "the Beijing pool's 16 A100 nodes: {nodes:?}"
        );
        let full = Resources::new(8, 96, 960);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        // Outside pods take 14 nodes whole.
        let outside: BTreeMap<String, Resources> =
            nodes.iter().take(14).map(|n| (n.clone(), full)).collect();
        assert!(!scheduler.set_outside(outside.clone()), "nothing freed");
        // Two whole-node replicas fit on the two nodes left; a third task of one waits.
        scheduler
            .submit(id(1), task(8, 1), demo::user(), 1)
            .unwrap();
        scheduler
            .submit(id(2), task(8, 0), demo::user(), 2)
            .unwrap();
        let decisions = scheduler.admit();
        assert_eq!(admitted(&decisions), [id(1)], "{decisions:?}");
        let ran_on: Vec<String> = scheduler
            .placement(&id(1))
            .unwrap()
            .node_needs()
            .map(|(n, _)| n.to_owned())
            .collect();
        assert!(ran_on.iter().all(|n| nodes[14..].contains(n)), "{ran_on:?}");
        // Read again, unchanged: nothing moves, and Berth's task is still counted.
        assert!(!scheduler.set_outside(outside.clone()));
        let quota = scheduler.usage().quota.clone();
        assert!(!quota.is_empty(), "the two tasks hold quota");
        for n in &ran_on {
            assert_eq!(scheduler.usage().allocated(n), full, "{n}");
        }
        // An outside pod on node 0 ended: the waiting task starts there by itself.
        let mut less = outside.clone();
        less.remove(&nodes[0]);
        assert!(scheduler.set_outside(less.clone()), "room freed");
        assert_eq!(scheduler.usage().quota, quota, "the holds kept");
        assert_eq!(admitted(&scheduler.admit_one(&id(99))), [id(2)]);
        assert_eq!(
            scheduler
                .placement(&id(2))
                .unwrap()
                .node_needs()
                .next()
                .unwrap()
                .0,
            nodes[0]
        );
        assert!(nodes_within_capacity(&scheduler, &catalog));
        // Berth's two tasks end; outside pods take every node: a new task waits.
        scheduler.finish(&id(1));
        scheduler.finish(&id(2));
        let all: BTreeMap<String, Resources> = nodes.iter().map(|n| (n.clone(), full)).collect();
        assert!(!scheduler.set_outside(all));
        for n in &nodes {
            assert_eq!(scheduler.usage().allocated(n), full, "{n}");
        }
        scheduler
            .submit(id(3), task(8, 0), demo::user(), 3)
            .unwrap();
        assert!(admitted(&scheduler.admit()).is_empty());
        // And none at all: every node empty again, the task starts.
        assert!(scheduler.set_outside(BTreeMap::new()));
        assert_eq!(admitted(&scheduler.admit()), [id(3)]);
        let used: u64 = nodes
            .iter()
            .map(|n| scheduler.usage().allocated(n).gpu)
            .sum();
        assert_eq!(used, 8, "only the task's own node");
    }

    #[test]
    fn high_priority_goes_first_then_submit_order() {
        let (catalog, usage) = world(1024);
        let mut scheduler = Scheduler::new(catalog, usage);
        let high = task(8, 15).with(|s| s.compute.priority = Some(Priority::High));
        scheduler
            .submit(id(1), task(8, 15), demo::user(), 1)
            .expect("valid");
        scheduler
            .submit(id(2), high, demo::user(), 2)
            .expect("valid");
        let order: Vec<&TaskId> = scheduler.queue().iter().map(|w| &w.id).collect();
        assert_eq!(order, [&id(2), &id(1)]);
        // Both want the whole pool: the high-priority one gets it.
        assert_eq!(admitted(&scheduler.admit()), [id(2)]);
    }

    /// A queued task is told how many wait ahead of it in its own pool: higher
    /// priority first, then those submitted before it; another pool's queue is not its.
    #[test]
    fn a_queued_task_is_told_how_many_wait_ahead_of_it_in_its_pool() {
        let (catalog, usage) = world(4096);
        let mut scheduler = Scheduler::new(catalog, usage);
        // The whole pool taken: everything after waits.
        scheduler
            .submit(id(0), task(8, 15), demo::user(), 0)
            .expect("valid");
        assert_eq!(admitted(&scheduler.admit()), [id(0)]);
        assert_eq!(scheduler.ahead(&id(0)), None, "it runs");
        for n in 1..=3 {
            scheduler
                .submit(id(n), task(8, 0), demo::user(), n)
                .expect("valid");
        }
        scheduler
            .submit(id(4), elsewhere(), demo::user(), 4)
            .expect("valid");
        let high = task(8, 0).with(|s| s.compute.priority = Some(Priority::High));
        scheduler
            .submit(id(5), high, demo::user(), 5)
            .expect("valid");
        let low = task(8, 0).with(|s| s.compute.priority = Some(Priority::Low));
        scheduler
            .submit(id(6), low, demo::user(), 6)
            .expect("valid");
        scheduler.admit();
        let ahead = |s: &Scheduler, n| s.ahead(&id(n));
        // The high-priority task is first though submitted fifth; the low one last.
        assert_eq!(ahead(&scheduler, 5), Some(0));
        assert_eq!(
            [1, 2, 3].map(|n| ahead(&scheduler, n)),
            [Some(1), Some(2), Some(3)]
        );
        assert_eq!(ahead(&scheduler, 6), Some(4));
        // The other pool's task started on its own pool's room, past them all.
        assert_eq!(ahead(&scheduler, 4), None);
        assert_eq!(scheduler.ahead(&id(99)), None, "not queued");
        // One ahead leaves: everything behind it moves up.
        scheduler.cancel(&id(5));
        assert_eq!(
            (ahead(&scheduler, 1), ahead(&scheduler, 6)),
            (Some(0), Some(3))
        );
    }

    /// A task ahead that would not start even with none of Berth's tasks running waits
    /// for capacity used outside Berth; the pool does not wait for it, and a task behind
    /// it is not told it waits behind it (coordinator explorer: "1 ahead", that one
    /// waiting for outside pods, while the task waited only for a Berth task's end).
    #[test]
    fn a_task_waiting_for_capacity_outside_berth_is_not_counted_ahead() {
        let (catalog, usage) = world(4096);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        let full = Resources::new(8, 96, 960);
        let outside: BTreeMap<String, Resources> = catalog
            .nodes()
            .filter(|n| n.name.starts_with("bj-a-a100-"))
            .take(14)
            .map(|n| (n.name.clone(), full))
            .collect();
        scheduler.set_outside(outside);
        // Berth's task takes the two nodes outside pods leave.
        scheduler
            .submit(id(1), task(8, 1), demo::user(), 1)
            .expect("valid");
        assert_eq!(admitted(&scheduler.admit()), [id(1)]);
        // Four whole nodes: more than outside pods leave, whatever Berth's tasks do.
        scheduler
            .submit(id(2), task(8, 3), demo::user(), 2)
            .expect("valid");
        // One whole node: it starts when Berth's task ends.
        scheduler
            .submit(id(3), task(8, 0), demo::user(), 3)
            .expect("valid");
        assert_eq!(admitted(&scheduler.admit()), [] as [TaskId; 0]);
        assert_eq!([2, 3].map(|n| scheduler.ahead(&id(n))), [Some(0), Some(0)]);
        // Outside pods gone, it is a task the pool waits for again.
        scheduler.set_outside(BTreeMap::new());
        scheduler.admit();
        assert_eq!(scheduler.ahead(&id(2)), None, "it started");
    }

    #[test]
    fn small_tasks_start_ahead_of_a_large_one_until_it_has_waited_enough() {
        let (catalog, usage) = world(4096);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        // Take 15 of 16 nodes, then queue a task that needs all 16, then small ones.
        scheduler
            .submit(id(0), task(8, 14), demo::user(), 0)
            .expect("valid");
        assert_eq!(admitted(&scheduler.admit()), [id(0)]);
        scheduler
            .submit(id(1), task(8, 15), demo::user(), 1)
            .expect("valid");
        for n in 2..20 {
            scheduler
                .submit(id(n), task(1, 0), demo::user(), n)
                .expect("valid");
        }
        let started = admitted(&scheduler.admit());
        // The free node holds 8 one-GPU tasks: they backfill past the large one.
        assert_eq!(started.len(), 8, "{started:?}");
        assert!(!started.contains(&id(1)));
        assert_eq!(scheduler.queue()[0].passed_over, MAX_PASSED_OVER);
        // Capacity frees up, but the large task has been passed over enough: the small
        // ones behind it wait, and once the first gang ends the large one starts.
        for n in &started {
            scheduler.finish(n);
        }
        assert!(admitted(&scheduler.admit()).is_empty());
        scheduler.finish(&id(0));
        assert_eq!(admitted(&scheduler.admit())[0], id(1));
        assert!(nodes_within_capacity(&scheduler, &catalog));
    }

    /// One replica of one A100 GPU on the Shanghai pool, on demand: another pool than
    /// [`task`]'s.
    fn elsewhere() -> TaskSpec {
        task(1, 0).with(|s| {
            s.basic.region = "cn-east".into();
            s.basic.cluster = "sh-a".into();
            s.compute.kind = Some(ResourceKind::OnDemand);
            s.compute.pool = Some("sh-a-shared".into());
        })
    }

    /// An idle task the idle capacity offered could not hold even with none of Berth's
    /// tasks running is told that it waits for more to be offered (recheck explorer: it
    /// read as waiting for the user's own tasks).
    #[test]
    fn an_idle_task_too_large_for_the_offers_is_told_so() {
        let (catalog, usage) = world(16);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        // sh-a offers a100-1g at medium stability in fragments of 8 and 2 × 2 units:
        // two replicas of 8 can never be held.
        let idle = elsewhere().with(|s| {
            s.compute.kind = Some(ResourceKind::Idle);
            s.compute.pool = None;
            s.compute.idle_stability = Some(shared::task::IdleStability::Medium);
            s.compute.units_per_node = 8;
            s.compute.workers = 1;
        });
        let idle_on = |s: &mut TaskSpec| {
            s.compute.kind = Some(ResourceKind::Idle);
            s.compute.pool = None;
            s.compute.idle_stability = Some(shared::task::IdleStability::Medium);
            s.compute.units_per_node = 8;
        };
        // Berth's own idle task of 8 units takes the fragment of 8 first: now none of
        // the two replicas fits, and with none of Berth's tasks running one would. The
        // reason says the one (explorer: "0 of 13 replicas, even if all Berth's tasks
        // end", where 12 would).
        let one = elsewhere().with(|s| idle_on(s));
        assert_eq!(submit_now(&mut scheduler, 1, one), [id(1)]);
        let decisions = submit_pass(&mut scheduler, 0, idle);
        assert!(admitted(&decisions).is_empty());
        let said = said_to(&decisions, &id(0));
        assert_eq!(
            said,
            [
                "even with none of Berth's tasks running, free nodes can host 1 of 2 replicas at once; the idle capacity offered now cannot hold it, and it waits for more to be offered, which may never come; fewer workers or units per node, a lower stability or another kind may start it"
            ]
        );
    }

    /// A reason that names a spec names it as the catalog does, as the form's plan does;
    /// an idle task with no offer at its stability is told the highest lower one that
    /// would start it now, as the form told it (coordinator explorer: the advice was gone
    /// once the task was queued, and it waited 13 minutes).
    #[test]
    fn a_reason_names_its_spec_as_people_know_it() {
        let (catalog, usage) = world(16);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        let idle = elsewhere().with(|s| {
            s.compute.kind = Some(ResourceKind::Idle);
            s.compute.pool = None;
            s.compute.idle_stability = Some(shared::task::IdleStability::High);
        });
        let decisions = submit_pass(&mut scheduler, 0, idle);
        assert!(admitted(&decisions).is_empty());
        assert_eq!(
            said_to(&decisions, &id(0)),
            [
                "no idle capacity of A100 single card 单卡 is offered at the chosen stability or above; it would start now at a lower one: Medium"
            ]
        );
        let zh = said_to_in(&decisions, &id(0), shared::Lang::Zh);
        assert_eq!(
            zh,
            [
                "所选稳定性等级及以上没有 A100 single card 单卡 的闲时资源；选择较低的稳定性等级即可立即启动：中"
            ]
        );
    }

    /// Reserved capacity that accepts idle capacity waits for both, and is told why
    /// neither starts it, as the form tells it (the task page told the pool's reason
    /// alone).
    #[test]
    fn a_reserved_task_accepting_idle_is_told_why_idle_capacity_cannot_start_it_either() {
        let (catalog, usage) = world(1024);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        // bj-a's pool of 16 nodes full, and the 8 it offers as idle at high stability.
        assert_eq!(submit_now(&mut scheduler, 1, task(8, 15)), [id(1)]);
        let idle = task(8, 7).with(|s| {
            s.compute.kind = Some(ResourceKind::Idle);
            s.compute.pool = None;
            s.compute.idle_stability = Some(shared::task::IdleStability::High);
        });
        assert_eq!(submit_now(&mut scheduler, 5, idle), [id(5)]);
        let accepting = |level| {
            task(8, 1).with(|s| {
                s.compute.accept_idle = true;
                s.compute.idle_stability = level;
            })
        };
        let at_high = submit_pass(
            &mut scheduler,
            2,
            accepting(Some(shared::task::IdleStability::High)),
        );
        assert!(admitted(&at_high).is_empty());
        let said = said_to(&at_high, &id(2));
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].ends_with(
                "; nor is idle capacity of A100 single card 单卡 free now at stability High or above"
            ) && said[0].starts_with("no node has a free GPU"),
            "{said:?}"
        );
        let zh = said_to_in(&at_high, &id(2), shared::Lang::Zh);
        assert!(
            zh[0].ends_with("；稳定性等级“高”及以上也没有空闲的 A100 single card 单卡 闲时资源"),
            "{zh:?}"
        );
        let at_any = submit_pass(&mut scheduler, 3, accepting(None));
        let said = said_to(&at_any, &id(3));
        assert!(
            said[0].ends_with(
                "; nor is idle capacity of A100 single card 单卡 free now at any stability"
            ),
            "{said:?}"
        );
        let zh = said_to_in(&at_any, &id(3), shared::Lang::Zh);
        assert!(
            zh[0].ends_with("；任何稳定性等级也都没有空闲的 A100 single card 单卡 闲时资源"),
            "{zh:?}"
        );
        // Without idle accepted, the pool's reason alone.
        let pool_only = submit_pass(&mut scheduler, 4, task(8, 1));
        let said = said_to(&pool_only, &id(4));
        assert!(!said[0].contains("idle"), "{said:?}");
    }

    /// Idle tasks are placed on their cluster's idle offers, not on the pool's nodes:
    /// they pass over, and wait for, one another, not the pool's other kinds.
    #[test]
    fn idle_tasks_compete_on_their_clusters_idle_offers_not_the_pools_nodes() {
        let (catalog, _) = world(16);
        let on_demand = elsewhere();
        let idle = elsewhere().with(|s| s.compute.kind = Some(ResourceKind::Idle));
        assert_eq!(
            shared::quota::queue_pool(&catalog, &on_demand).as_deref(),
            Some("sh-a-shared")
        );
        assert_eq!(
            shared::quota::queue_pool(&catalog, &idle).as_deref(),
            Some("idle/sh-a")
        );
    }

    #[test]
    fn a_task_passed_over_too_often_holds_back_its_own_pool_only() {
        let (catalog, usage) = world(4096);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        scheduler
            .submit(id(0), task(8, 14), demo::user(), 0)
            .expect("valid");
        assert_eq!(admitted(&scheduler.admit()), [id(0)]);
        scheduler
            .submit(id(1), task(8, 15), demo::user(), 1)
            .expect("valid");
        // Tasks of another pool start, and pass nothing over: they take none of its nodes.
        for n in 2..12 {
            assert_eq!(submit_now(&mut scheduler, n, elsewhere()), [id(n)]);
        }
        assert_eq!(scheduler.queue()[0].passed_over, 0);
        // Eight small tasks of its own pool backfill past it: it is held now. Each one
        // that starts says again why it waits (the room it took), rather than leaving
        // the reason of the last full pass.
        let waits_for = |decisions: &[Decision]| {
            decisions
                .iter()
                .find_map(|d| match d {
                    Decision::Reason { id: w, reason } if *w == id(1) => {
                        Some(reason.render(shared::Lang::En))
                    }
                    _ => None,
                })
                .expect("the task passed over is told why it waits")
        };
        for n in 12..20 {
            let decisions = submit_pass(&mut scheduler, n, task(1, 0));
            assert_eq!(admitted(&decisions), [id(n)]);
            // The one node id(0) left free loses a GPU to each, the last its last.
            let free = 19 - n;
            let unit = if free == 1 { "GPU" } else { "GPUs" };
            let said = if free == 0 {
                "no node has a free GPU".to_owned()
            } else {
                format!("the largest free node has {free} {unit}; one replica needs 8")
            };
            assert_eq!(waits_for(&decisions), said);
        }
        assert_eq!(scheduler.queue()[0].passed_over, MAX_PASSED_OVER);
        // With no room anywhere, a task of its pool waits for room: it starting would
        // not start that one.
        let decisions = submit_pass(&mut scheduler, 20, task(1, 0));
        assert!(admitted(&decisions).is_empty());
        assert_eq!(said_to(&decisions, &id(20)), ["no node has a free GPU"]);
        // A GPU frees on its node: its pool waits for it, named; the other pool does not,
        // by a submit or a full pass.
        scheduler.finish(&id(12)).expect("it ran");
        let decisions = scheduler.admit();
        assert!(admitted(&decisions).is_empty());
        assert_eq!(
            said_to(&decisions, &id(20)),
            ["waiting for t-1, ahead in the queue and passed over too often, to start first"]
        );
        assert_eq!(submit_now(&mut scheduler, 21, elsewhere()), [id(21)]);
        scheduler.finish(&id(2));
        scheduler
            .submit(id(22), elsewhere(), demo::user(), 22)
            .expect("valid");
        assert_eq!(admitted(&scheduler.admit()), [id(22)]);
        assert!(nodes_within_capacity(&scheduler, &catalog));
    }

    /// A scheduler on a quota of 12 GPUs whose pool has one node with 4 GPUs free (the
    /// rest taken outside Berth), and on it a task of 8 GPUs that waits, holding 8 of
    /// them.
    fn waiting_for_room() -> Scheduler {
        let (catalog, usage) = world(12);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        let outside: BTreeMap<String, Resources> = catalog
            .nodes()
            .filter(|n| n.name.starts_with("bj-a-a100-"))
            .enumerate()
            .map(|(i, n)| {
                let taken = if i == 0 { 4 } else { 8 };
                (
                    n.name.clone(),
                    Resources::new(taken, taken * 12, taken * 120),
                )
            })
            .collect();
        scheduler.set_outside(outside);
        assert!(submit_now(&mut scheduler, 1, task(8, 0)).is_empty());
        scheduler
    }

    /// The reason a task passed over is told is about room, as it is: its own hold is
    /// not counted against its quota a second time (explorer: 8 held of 12, one more
    /// started, and it read "no spec of the list can be used now").
    #[test]
    fn a_task_passed_over_by_a_submit_waits_for_room_not_quota() {
        let mut scheduler = waiting_for_room();
        scheduler
            .submit(id(2), task(1, 0), demo::user(), 2)
            .expect("within quota: 9 of 12");
        let decisions = scheduler.admit_one(&id(2));
        assert_eq!(admitted(&decisions), [id(2)]);
        // Outside Berth, 4 GPUs of one node are all it leaves: with none of Berth's
        // tasks running the task would wait too, and is told so.
        assert_eq!(
            said_to(&decisions, &id(1)),
            // Said of the room it would have then (4 GPUs), not of the room now (3).
            [outside_berth(
                "the largest free node has 4 GPUs; one replica needs 8"
            )]
        );
    }

    /// A full pass says why a task waits as the pass leaves the room: tasks behind it
    /// that start after it was judged take room its first reason spoke of (explorer: "the
    /// largest free node has 3 GPUs" while none was free).
    #[test]
    fn a_full_pass_says_why_a_task_waits_after_those_behind_it_start() {
        let mut scheduler = waiting_for_room();
        // Two tasks of 2 GPUs queue behind it, then a full pass (something was freed)
        // judges it first, on 4 free GPUs, and starts them on those.
        for n in [2, 3] {
            scheduler
                .submit(id(n), task(2, 0), demo::user(), n)
                .expect("within quota");
        }
        let decisions = scheduler.admit();
        assert_eq!(admitted(&decisions), [id(2), id(3)]);
        assert_eq!(
            said_to(&decisions, &id(1)),
            // Said of the room it would have then, not "no node has a free GPU" now.
            [outside_berth(
                "the largest free node has 4 GPUs; one replica needs 8"
            )]
        );
    }

    /// The reason of a task that would wait with none of Berth's tasks running, whose
    /// plan on that use says `alone`.
    fn outside_berth(alone: &str) -> String {
        format!(
            "even with none of Berth's tasks running, {alone}; it waits for capacity used \
             outside Berth on these nodes, which may never be given back; ask the cluster's \
             administrators, or choose another spec or pool"
        )
    }

    /// A task that waits for capacity taken outside Berth holds nothing back: no end of
    /// Berth's tasks would make room for it, so its pool would wait for nothing.
    #[test]
    fn a_task_only_capacity_outside_berth_keeps_waiting_holds_nothing_back() {
        let (catalog, mut usage) = world(4096);
        usage
            .nodes
            .insert("bj-a-a100-00".into(), Resources::new(4, 0, 0));
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        // Every A100 node whole: one of them is half taken outside Berth.
        scheduler
            .submit(id(0), task(8, 15), demo::user(), 0)
            .expect("valid");
        assert!(admitted(&scheduler.admit()).is_empty());
        for n in 1..=12 {
            assert_eq!(submit_now(&mut scheduler, n, task(1, 0)), [id(n)], "{n}");
        }
        assert!(scheduler.queue()[0].passed_over >= MAX_PASSED_OVER);
        // A full pass after an end does not hold the pool back for it either.
        scheduler.finish(&id(1));
        scheduler
            .submit(id(13), task(1, 0), demo::user(), 13)
            .expect("valid");
        assert_eq!(admitted(&scheduler.admit()), [id(13)]);
    }

    /// What `gpus` A100 GPUs of a Beijing node take, with their share of its CPUs and
    /// memory.
    fn a100s(gpus: u64) -> Resources {
        Resources::new(gpus, gpus * 12, gpus * 120)
    }

    /// The Beijing pool with `outside[i]` GPUs of node `bj-a-a100-<i>` taken outside
    /// Berth (the catalog's `usage`): what is left with none of Berth's tasks running.
    fn outside(outside: [u64; 16]) -> (Arc<Catalog>, Usage) {
        let (catalog, mut usage) = world(4096);
        for (i, gpus) in outside.into_iter().enumerate() {
            if gpus > 0 {
                usage.nodes.insert(format!("bj-a-a100-{i:02}"), a100s(gpus));
            }
        }
        (catalog, usage)
    }

    /// The nodes `id` runs on.
    fn runs_on(scheduler: &Scheduler, id: &TaskId) -> Vec<String> {
        scheduler
            .placement(id)
            .expect("it runs")
            .node_needs()
            .map(|(n, _)| n.to_owned())
            .collect()
    }

    /// The exploratory test's pool in miniature: a task of a whole node waits while
    /// Berth's tasks fill the two empty nodes; six nodes have 2 GPUs free, the rest
    /// taken outside Berth. Those 12 GPUs are no room it could ever use: small tasks
    /// that start there take nothing from it, so they do not pass it over and are not
    /// held back for it (before: the ninth waited for it five minutes, 10 GPUs idle).
    #[test]
    fn starts_on_nodes_a_waiting_task_can_never_use_do_not_pass_it_over() {
        let (catalog, usage) = outside([8, 8, 8, 8, 8, 8, 8, 8, 6, 6, 6, 6, 6, 6, 0, 0]);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        assert_eq!(submit_now(&mut scheduler, 0, task(8, 1)), [id(0)]);
        let decisions = submit_pass(&mut scheduler, 1, task(8, 0));
        assert_eq!(
            said_to(&decisions, &id(1)),
            ["the largest free node has 2 GPUs; one replica needs 8"]
        );
        for n in 2..14 {
            assert_eq!(submit_now(&mut scheduler, n, task(1, 0)), [id(n)], "{n}");
            let on = runs_on(&scheduler, &id(n));
            assert!(
                on.iter()
                    .all(|node| !node.ends_with("-14") && !node.ends_with("-15")),
                "{on:?}"
            );
            assert_eq!(scheduler.queue()[0].passed_over, 0, "{n}");
        }
        // No room left: the next waits for room, not for the large task.
        let decisions = submit_pass(&mut scheduler, 14, task(1, 0));
        assert_eq!(said_to(&decisions, &id(14)), ["no node has a free GPU"]);
        // Berth's task ends: the large task starts first, in queue order.
        scheduler.finish(&id(0)).expect("it ran");
        assert_eq!(admitted(&scheduler.admit()), [id(1), id(14)]);
        assert!(nodes_within_capacity(&scheduler, &catalog));
    }

    /// Nodes 12 and 13 empty, 14 and 15 each with `taken` of their 8 GPUs taken outside
    /// Berth, the rest taken whole: a task of one whole node (`id(0)`) fills node 12, and a
    /// task of two (`id(1)`) waits; it could use nodes 12 and 13 only.
    fn node_12_taken_and_a_gang_waiting(taken: u64) -> (Arc<Catalog>, Scheduler) {
        let (catalog, usage) = outside([8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 0, 0, taken, taken]);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        assert_eq!(submit_now(&mut scheduler, 0, task(8, 0)), [id(0)]);
        assert_eq!(runs_on(&scheduler, &id(0)), ["bj-a-a100-12"]);
        assert!(submit_now(&mut scheduler, 1, task(8, 1)).is_empty());
        (catalog, scheduler)
    }

    /// Eight tasks of one GPU, `id(first)` on, each started by its submit on node 13.
    fn fill_node_13(scheduler: &mut Scheduler, first: u64) {
        for n in first..first + 8 {
            assert_eq!(submit_now(scheduler, n, task(1, 0)), [id(n)], "{n}");
            assert_eq!(runs_on(scheduler, &id(n)), ["bj-a-a100-13"]);
        }
    }

    /// Held back, a task passed over too often still keeps the room it could use: a task
    /// behind it starts only where it takes none of that room, even when its first
    /// choice of node was such room, and one that fits nowhere else waits for it, named.
    /// Nor does a start on other nodes pass it over again.
    #[test]
    fn a_task_held_for_keeps_the_nodes_it_could_use_and_only_those() {
        // Nodes 14 and 15 with 2 GPUs free; a task of two whole nodes waits, and it could
        // use nodes 12 and 13 only.
        let (catalog, mut scheduler) = node_12_taken_and_a_gang_waiting(6);
        // Eight small tasks take node 13, one GPU each: each passes it over.
        fill_node_13(&mut scheduler, 2);
        assert_eq!(scheduler.queue()[0].passed_over, MAX_PASSED_OVER);
        for n in 2..6 {
            scheduler.finish(&id(n)).expect("it ran");
        }
        // Node 13 has 4 GPUs free and comes first, but it is held: a small task goes to
        // node 14 instead, and passes nothing over.
        let waits_for_it =
            "waiting for t-1, ahead in the queue and passed over too often, to start first";
        assert_eq!(submit_now(&mut scheduler, 10, task(1, 0)), [id(10)]);
        assert_eq!(runs_on(&scheduler, &id(10)), ["bj-a-a100-14"]);
        // Four GPUs fit node 13 only: it waits for the held task.
        let decisions = submit_pass(&mut scheduler, 11, task(4, 0));
        assert!(admitted(&decisions).is_empty());
        assert_eq!(said_to(&decisions, &id(11)), [waits_for_it]);
        // Two GPUs: node 15 has them. The task ahead that waits for the held one is
        // still said to: the room taken is none it waits for.
        let decisions = submit_pass(&mut scheduler, 12, task(2, 0));
        assert_eq!(admitted(&decisions), [id(12)]);
        assert_eq!(runs_on(&scheduler, &id(12)), ["bj-a-a100-15"]);
        assert_eq!(said_to(&decisions, &id(11)), [waits_for_it]);
        // Two more: only node 13 has them now.
        let decisions = submit_pass(&mut scheduler, 13, task(2, 0));
        assert!(admitted(&decisions).is_empty());
        assert_eq!(said_to(&decisions, &id(13)), [waits_for_it]);
        assert_eq!(scheduler.queue()[0].passed_over, MAX_PASSED_OVER);
        // A full pass keeps it so.
        let decisions = scheduler.admit();
        assert!(admitted(&decisions).is_empty(), "{decisions:?}");
        assert_eq!(said_to(&decisions, &id(11)), [waits_for_it]);
        // Node 14 has 2 GPUs free again: in a full pass the last starts there, and the
        // one before it, judged first, still waits for the held task.
        scheduler.finish(&id(10)).expect("it ran");
        let decisions = scheduler.admit();
        assert_eq!(admitted(&decisions), [id(13)]);
        assert_eq!(runs_on(&scheduler, &id(13)), ["bj-a-a100-14"]);
        assert_eq!(said_to(&decisions, &id(11)), [waits_for_it]);
        assert_eq!(scheduler.queue()[0].passed_over, MAX_PASSED_OVER);
        // Its two nodes empty: it starts there, and leaves no room for the one that
        // waited for it.
        scheduler.finish(&id(0)).expect("it ran");
        for n in 6..10 {
            scheduler.finish(&id(n)).expect("it ran");
        }
        assert_eq!(admitted(&scheduler.admit()), [id(1)]);
        assert!(nodes_within_capacity(&scheduler, &catalog));
    }

    /// Two whole nodes (14 and 15) and nothing else: a task of one fills node 14, a task
    /// of two waits for both, and eight tasks of one GPU pass it over on node 15 until it
    /// is held for. Returns the scheduler, with node 15 full.
    fn held_on_two_nodes() -> Scheduler {
        let (catalog, usage) = outside([8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 0, 0]);
        let mut scheduler = Scheduler::new(catalog, usage);
        assert_eq!(submit_now(&mut scheduler, 0, task(8, 0)), [id(0)]);
        assert!(submit_now(&mut scheduler, 1, task(8, 1)).is_empty());
        for n in 2..10 {
            assert_eq!(submit_now(&mut scheduler, n, task(1, 0)), [id(n)], "{n}");
        }
        assert_eq!(scheduler.queue()[0].passed_over, MAX_PASSED_OVER);
        scheduler
    }

    /// Behind a task held for, one that would not start even if it were not held for (no
    /// node has a free GPU) is told that, not that it waits for the held task: that one
    /// starting would not start it. Said alike by a submit's pass and a full one.
    #[test]
    fn behind_a_task_held_for_one_that_fits_nowhere_says_why_itself() {
        let mut scheduler = held_on_two_nodes();
        let decisions = submit_pass(&mut scheduler, 10, task(1, 0));
        assert!(admitted(&decisions).is_empty());
        assert_eq!(said_to(&decisions, &id(10)), ["no node has a free GPU"]);
        let decisions = scheduler.admit();
        assert!(admitted(&decisions).is_empty());
        assert_eq!(said_to(&decisions, &id(10)), ["no node has a free GPU"]);
    }

    /// With two tasks held for in a pool, a task kept off room only the second could use
    /// is told it waits for the second, not the first.
    #[test]
    fn a_task_kept_off_one_held_tasks_room_names_that_task() {
        // Nodes 14 and 15 with 4 GPUs free; a task of two whole nodes waits, and it could
        // use nodes 12 and 13. Five replicas of 4 could use nodes 12 to 15. Neither fits
        // beside the first.
        let (_, mut scheduler) = node_12_taken_and_a_gang_waiting(4);
        assert!(submit_now(&mut scheduler, 2, task(4, 4)).is_empty());
        // Eight tasks of one GPU fill node 13, passing both over.
        fill_node_13(&mut scheduler, 3);
        let passed: Vec<u32> = scheduler.queue().iter().map(|w| w.passed_over).collect();
        assert_eq!(passed, [MAX_PASSED_OVER, MAX_PASSED_OVER]);
        // Four GPUs fit node 14, which only the second could use.
        let decisions = submit_pass(&mut scheduler, 11, task(4, 0));
        assert!(admitted(&decisions).is_empty());
        let waits_for_second =
            "waiting for t-2, ahead in the queue and passed over too often, to start first";
        assert_eq!(said_to(&decisions, &id(11)), [waits_for_second]);
        let decisions = scheduler.admit();
        assert_eq!(said_to(&decisions, &id(11)), [waits_for_second]);
    }

    /// A task that waits for room is told the same after a task behind it starts and the
    /// one ahead of it is held for, whether that start was a submit's or in a full pass
    /// (the full pass said its room reason, a submit's that it waits for the held task).
    #[test]
    fn a_start_that_holds_the_queue_restates_the_same_reason_in_either_pass() {
        let build = || {
            let (catalog, usage) = outside([8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 0, 0]);
            let mut scheduler = Scheduler::new(catalog, usage);
            assert_eq!(submit_now(&mut scheduler, 0, task(8, 0)), [id(0)]);
            assert!(submit_now(&mut scheduler, 1, task(8, 1)).is_empty());
            // Seven of one GPU on node 15: passed over seven times, one GPU left.
            for n in 2..9 {
                assert_eq!(submit_now(&mut scheduler, n, task(1, 0)), [id(n)], "{n}");
            }
            // Two GPUs fit nowhere.
            assert!(submit_now(&mut scheduler, 9, task(2, 0)).is_empty());
            // One more takes the last GPU: the eighth pass-over.
            scheduler
                .submit(id(10), task(1, 0), demo::user(), 10)
                .expect("valid");
            scheduler
        };
        let mut by_submit = build();
        let decisions = by_submit.admit_one(&id(10));
        assert_eq!(admitted(&decisions), [id(10)]);
        let said_by_submit = said_to(&decisions, &id(9));
        let mut by_pass = build();
        let decisions = by_pass.admit();
        assert_eq!(admitted(&decisions), [id(10)]);
        let said_by_pass = said_to(&decisions, &id(9));
        assert_eq!(by_submit.queue()[0].passed_over, MAX_PASSED_OVER);
        assert_eq!(by_pass.queue()[0].passed_over, MAX_PASSED_OVER);
        assert_eq!(said_by_submit, ["no node has a free GPU"]);
        assert_eq!(said_by_pass, said_by_submit);
    }

    /// The Beijing pool with A100 nodes 14 and 15 and CPU nodes 00 and 01 free, the rest
    /// taken outside Berth; quotas large enough never to matter.
    fn two_gpu_and_two_cpu_nodes() -> (Arc<Catalog>, Usage) {
        let mut catalog = demo::catalog();
        for q in catalog.quotas.iter_mut() {
            if q.pool == "bj-a-shared" {
                q.limit = Resources::new(4096, 4096 * 12, 4096 * 120);
            }
        }
        let mut usage = Usage::new();
        for i in 0..14 {
            usage
                .nodes
                .insert(format!("bj-a-a100-{i:02}"), Resources::new(8, 96, 960));
        }
        for i in 2..8 {
            usage
                .nodes
                .insert(format!("bj-a-cpu-{i:02}"), Resources::new(0, 96, 384));
        }
        (Arc::new(catalog), usage)
    }

    /// A RayJob of two workers of a whole A100 node each and a head of its own spec: 8
    /// units of `cpu-8c`, 64 of a CPU node's 96 vCPUs.
    fn ray_with_cpu_head() -> TaskSpec {
        demo::ray().with(|s| {
            on_bj_a(s, 8, 2);
            s.compute.head_spec = Some("cpu-8c".into());
            s.ray.autoscaling.enabled = false;
        })
    }

    /// One pod of 8 vCPUs.
    fn cpu_task() -> TaskSpec {
        task(1, 0).with(|s| {
            s.compute.instance_type = InstanceType::Cpu;
            s.compute.specs = vec!["cpu-8c".into()];
        })
    }

    /// A RayJob's head of its own spec needs room for one head on one of its CPU nodes,
    /// not all of them: CPU tasks that start there leaving one node with room for it do
    /// not pass it over, nor, once it is held for, are they kept off every CPU node
    /// (before: eight CPU tasks held it, and the ninth waited for it, with a CPU node
    /// and a half free). A start that leaves no node with room for the head does pass it
    /// over, and once it is held for, such a start waits for it.
    #[test]
    fn a_distinct_head_needs_room_for_one_head_not_its_every_node() {
        let (catalog, usage) = two_gpu_and_two_cpu_nodes();
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        assert_eq!(submit_now(&mut scheduler, 0, task(8, 0)), [id(0)]);
        assert!(submit_now(&mut scheduler, 1, ray_with_cpu_head()).is_empty());
        // Sixteen CPU tasks: twelve fill CPU node 00, four leave 64 vCPUs on 01.
        for n in 2..18 {
            assert_eq!(submit_now(&mut scheduler, n, cpu_task()), [id(n)], "{n}");
            assert_eq!(scheduler.queue()[0].passed_over, 0, "{n}");
        }
        assert_eq!(runs_on(&scheduler, &id(17)), ["bj-a-cpu-01"]);
        // The next leaves no room for the head: it passes the RayJob over.
        assert_eq!(submit_now(&mut scheduler, 18, cpu_task()), [id(18)]);
        assert_eq!(scheduler.queue()[0].passed_over, 1);
        // Seven tasks of one GPU on node 15: held for.
        for n in 19..26 {
            assert_eq!(submit_now(&mut scheduler, n, task(1, 0)), [id(n)], "{n}");
        }
        assert_eq!(scheduler.queue()[0].passed_over, MAX_PASSED_OVER);
        // Room for the head again on node 01: a CPU task that would take it waits.
        scheduler.finish(&id(18)).expect("it ran");
        assert!(admitted(&scheduler.admit()).is_empty());
        let decisions = submit_pass(&mut scheduler, 26, cpu_task());
        assert!(admitted(&decisions).is_empty());
        assert_eq!(
            said_to(&decisions, &id(26)),
            ["waiting for t-1, ahead in the queue and passed over too often, to start first"]
        );
        // Room on node 00: it starts there, and node 01 keeps room for the head.
        scheduler.finish(&id(2)).expect("it ran");
        assert_eq!(admitted(&scheduler.admit()), [id(26)]);
        assert_eq!(runs_on(&scheduler, &id(26)), ["bj-a-cpu-00"]);
        assert_eq!(scheduler.queue()[0].passed_over, MAX_PASSED_OVER);
        // Its GPU nodes empty: it starts, its head on node 01.
        scheduler.finish(&id(0)).expect("it ran");
        for n in 19..26 {
            scheduler.finish(&id(n)).expect("it ran");
        }
        assert_eq!(admitted(&scheduler.admit()), [id(1)]);
        assert!(runs_on(&scheduler, &id(1)).contains(&"bj-a-cpu-01".to_owned()));
        assert!(nodes_within_capacity(&scheduler, &catalog));
    }

    #[test]
    fn after_a_submit_only_the_new_task_is_tried_unless_something_was_freed() {
        let (catalog, usage) = world(4096);
        let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
        // The whole pool runs one gang; a second whole-pool gang waits.
        assert_eq!(submit_now(&mut scheduler, 0, task(8, 15)), [id(0)]);
        let decisions = submit_pass(&mut scheduler, 1, task(8, 15));
        assert!(matches!(&decisions[..], [Decision::Wait { id: w, .. }] if *w == id(1)));
        // The first ends; a small task queued now must not start ahead of the large
        // one that fits again: the pass after a free is a full one, in queue order.
        scheduler.finish(&id(0)).expect("it ran");
        assert_eq!(submit_now(&mut scheduler, 2, task(1, 0)), [id(1)]);
        assert_eq!(scheduler.queue()[0].id, id(2));
        assert!(nodes_within_capacity(&scheduler, &catalog));
    }

    #[test]
    fn the_shared_usage_follows_every_change() {
        let (catalog, usage) = world(4);
        let mut scheduler = Scheduler::new(catalog, usage);
        let before = scheduler.usage_snapshot();
        scheduler
            .submit(id(1), task(1, 0), demo::user(), 1)
            .expect("valid");
        let held = scheduler.usage_snapshot();
        assert_ne!(*held, *before, "the hold shows");
        assert_eq!(*held, *scheduler.usage());
        assert!(
            Arc::ptr_eq(&held, &scheduler.usage_snapshot()),
            "unchanged: not copied"
        );
        assert_eq!(admitted(&scheduler.admit()), [id(1)]);
        assert_eq!(*scheduler.usage_snapshot(), *scheduler.usage());
        assert_ne!(*scheduler.usage_snapshot(), *held, "the reservation shows");
        scheduler.finish(&id(1)).expect("it ran");
        assert_eq!(*scheduler.usage_snapshot(), *before);
    }

    #[test]
    fn cancelling_a_waiting_task_gives_its_quota_back() {
        let (catalog, usage) = world(1);
        let mut scheduler = Scheduler::new(catalog, usage);
        scheduler
            .submit(id(1), task(1, 0), demo::user(), 1)
            .expect("valid");
        assert!(
            scheduler
                .submit(id(2), task(1, 0), demo::user(), 2)
                .is_err()
        );
        scheduler.cancel(&id(1)).expect("it waited");
        assert!(scheduler.submit(id(3), task(1, 0), demo::user(), 3).is_ok());
    }

    mod property {
        use super::*;
        use proptest::prelude::*;

        #[derive(Clone, Debug)]
        enum Step {
            Submit { units: u32, workers: u32 },
            Admit,
            AdmitOne(usize),
            Finish(usize),
            Cancel(usize),
        }

        fn step() -> impl Strategy<Value = Step> {
            prop_oneof![
                (1u32..=8, 0u32..=4).prop_map(|(units, workers)| Step::Submit { units, workers }),
                Just(Step::Admit),
                (0usize..40).prop_map(Step::AdmitOne),
                (0usize..40).prop_map(Step::Finish),
                (0usize..40).prop_map(Step::Cancel),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            /// Whatever happens, no node holds more than it has, quota in use never
            /// passes a limit, and ending everything gives every resource back.
            #[test]
            fn no_node_or_quota_line_is_ever_over_committed(steps in prop::collection::vec(step(), 1..60)) {
                let (catalog, usage) = world(40);
                let before = usage.clone();
                let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
                let mut ids: Vec<TaskId> = Vec::new();
                for (n, step) in steps.into_iter().enumerate() {
                    match step {
                        Step::Submit { units, workers } => {
                            let id = id(n as u64);
                            if scheduler.submit(id.clone(), task(units, workers), demo::user(), n as u64).is_ok() {
                                ids.push(id);
                            }
                        }
                        Step::Admit => {
                            scheduler.admit();
                        }
                        Step::AdmitOne(i) => {
                            if let Some(id) = ids.get(i % ids.len().max(1)) {
                                scheduler.admit_one(&id.clone());
                            }
                        }
                        Step::Finish(i) => {
                            if let Some(id) = ids.get(i % ids.len().max(1)) {
                                scheduler.finish(&id.clone());
                            }
                        }
                        Step::Cancel(i) => {
                            if let Some(id) = ids.get(i % ids.len().max(1)) {
                                scheduler.cancel(&id.clone());
                            }
                        }
                    }
                    prop_assert!(nodes_within_capacity(&scheduler, &catalog));
                    let held = scheduler.queue.iter().filter(|w| w.passed_over >= MAX_PASSED_OVER).count();
                    prop_assert_eq!(scheduler.held, held);
                    for line in &scheduler.usage().quota {
                        let limit = catalog
                            .quota(&line.user, line.kind, &line.pool, &line.spec)
                            .map(|q| q.limit);
                        prop_assert!(limit.is_some_and(|l| line.used.fits_within(&l)), "{line:?}");
                    }
                }
                for id in &ids {
                    scheduler.finish(id);
                    scheduler.cancel(id);
                }
                prop_assert_eq!(scheduler.usage(), &before);
            }
        }

        #[derive(Clone, Debug)]
        enum Later {
            /// A task of `units` GPUs queues behind the large one.
            Small(u32),
            /// The `n`th task that ran ends (the first fills the empty nodes).
            End(usize),
        }

        fn later() -> impl Strategy<Value = Later> {
            prop_oneof![
                3 => (1u32..=8).prop_map(Later::Small),
                1 => (0usize..40).prop_map(Later::End),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            /// With any capacity taken outside Berth, a task of two whole nodes is passed
            /// over only by starts on the nodes it could ever use (those nothing outside
            /// Berth takes from), held for once that has happened too often (when it
            /// could start at all: on two of them) so that no start behind it takes
            /// room there, and starts once Berth's other tasks end.
            #[test]
            fn only_starts_on_room_a_task_could_use_pass_it_over(
                taken in prop::array::uniform16(prop_oneof![Just(0u64), Just(2), Just(6), Just(8)]),
                steps in prop::collection::vec(later(), 1..60),
            ) {
                let (catalog, usage) = outside(taken);
                let usable: Vec<String> = (0..16)
                    .filter(|&i| taken[i] == 0)
                    .map(|i| format!("bj-a-a100-{i:02}"))
                    .collect();
                let mut scheduler = Scheduler::new(Arc::clone(&catalog), usage);
                // Berth's tasks fill the empty nodes, one each, ahead of it.
                let mut ran: Vec<TaskId> = Vec::new();
                for k in 0..usable.len() as u64 {
                    let fill = TaskId(format!("fill-{k}"));
                    scheduler.submit(fill.clone(), task(8, 0), demo::user(), 0).expect("valid");
                    prop_assert_eq!(admitted(&scheduler.admit_one(&fill)), [fill.clone()]);
                    ran.push(fill);
                }
                let large = id(1);
                scheduler.submit(large.clone(), task(8, 1), demo::user(), 1).expect("valid");
                prop_assert!(admitted(&scheduler.admit_one(&large)).is_empty());
                let can_start = usable.len() >= 2;
                let mut passed = 0;
                let waiting = |s: &Scheduler| s.queue().iter().any(|w| w.id == large);
                for (n, step) in (2..).zip(steps) {
                    let decisions = match step {
                        Later::Small(units) => {
                            scheduler.submit(id(n), task(units, 0), demo::user(), n).expect("valid");
                            scheduler.admit_one(&id(n))
                        }
                        Later::End(k) if !ran.is_empty() => {
                            scheduler.finish(&ran.remove(k % ran.len()));
                            scheduler.admit()
                        }
                        Later::End(_) => continue,
                    };
                    for started in admitted(&decisions) {
                        if started == large {
                            break;
                        }
                        let on = runs_on(&scheduler, &started);
                        let took = on.iter().any(|node| usable.contains(node));
                        prop_assert!(
                            !(took && can_start && passed >= MAX_PASSED_OVER),
                            "{:?} on {:?}, held for", started, on
                        );
                        passed += u32::from(took);
                        ran.push(started);
                    }
                    if !waiting(&scheduler) {
                        break;
                    }
                    prop_assert_eq!(scheduler.queue()[0].passed_over, passed);
                }
                prop_assert!(nodes_within_capacity(&scheduler, &catalog));
                for done in ran {
                    scheduler.finish(&done);
                }
                let decisions = scheduler.admit();
                prop_assert_eq!(!waiting(&scheduler), can_start, "{:?}", decisions);
            }
        }
    }
}
