//! The plan: each spec of the priority list worked through, and the overall answer.

use super::{
    Fit, NeverReason, QueueReason, QuotaError, Result, Shortfall, Slot, demand, fits, gang_fit,
    per_replica, remaining,
};
use crate::catalog::{Catalog, Cluster, IdleOffer, InstanceSpec, Pool, User};
use crate::resources::Resources;
use crate::task::{ResourceKind, TaskSpec};
use serde::{Deserialize, Serialize};

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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::catalog::User;
    use proptest::prelude::*;

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
