//! Compute rules (SPEC.md section 4), and the findings the quota and gang-fit plan implies.

use super::{Cx, FieldPath, IssueCode, Report};
use crate::quota::{self, Fit, Outcome, Plan, resolve_pool};
use crate::task::{InstanceType, ResourceKind};
use std::collections::HashSet;

/// Most worker replicas.
pub const MAX_WORKERS: u32 = 1024;

pub(super) fn check(cx: &Cx, report: &mut Report) -> Option<Plan> {
    let compute = &cx.spec.compute;
    let at = |key| FieldPath::of(&["compute", key]);

    let Some(kind) = compute.kind else {
        report.push(at("kind"), IssueCode::ValueRequired);
        specs(cx, report, None);
        return None;
    };
    if compute.workers > MAX_WORKERS {
        report.push(
            at("workers"),
            IssueCode::WorkersOutOfRange { max: MAX_WORKERS },
        );
    }
    match kind {
        ResourceKind::Idle => {
            if compute.idle_stability.is_none() {
                report.push(at("idle_stability"), IssueCode::ValueRequired);
            }
            if compute.priority.is_some() {
                report.push(at("priority"), IssueCode::IdlePriorityNotAllowed);
            }
            if compute.guarantee.is_some() {
                report.push(at("guarantee"), IssueCode::IdleGuaranteeNotAllowed);
            }
        }
        ResourceKind::Reserved if compute.accept_idle && compute.idle_stability.is_none() => {
            report.push(at("idle_stability"), IssueCode::ValueRequired);
        }
        _ => {}
    }

    // The pool: chosen for reserved, else the cluster's pool for the kind.
    let pool = cx.cluster.and_then(|cluster| {
        match compute.pool.as_deref().filter(|p| !p.is_empty()) {
            Some(id) => match cluster.pool(id) {
                None => report.push(at("pool"), IssueCode::PoolUnknown),
                Some(p) if !p.kinds.contains(&kind) => {
                    report.push(at("pool"), IssueCode::PoolKindMismatch)
                }
                Some(_) => {}
            },
            None if kind == ResourceKind::Reserved => {
                report.push(at("pool"), IssueCode::ValueRequired)
            }
            None if cluster.default_pool_for(kind).is_none() => {
                let code = if kind == ResourceKind::Spot {
                    IssueCode::SpotUnavailable
                } else {
                    IssueCode::PoolNoneForKind
                };
                report.push(at("kind"), code);
            }
            None => {}
        }
        resolve_pool(cx.spec, cluster)
    });
    if kind == ResourceKind::Spot
        && let (Some(cluster), Some(pool)) = (cx.cluster, pool)
        && cluster
            .specs_in(pool, compute.instance_type)
            .next()
            .is_none()
    {
        report.push(at("specs"), IssueCode::SpotUnavailable);
    }
    specs(cx, report, pool);

    let plan = match cx
        .cluster
        .map(|_| quota::plan(cx.spec, cx.catalog, cx.user))
    {
        Some(Ok(plan)) => plan?,
        Some(Err(_)) => {
            report.push(at("specs"), IssueCode::DemandOverflow);
            return None;
        }
        None => return None,
    };
    plan_findings(&plan, report);
    Some(plan)
}

fn specs(cx: &Cx, report: &mut Report, pool: Option<&crate::catalog::Pool>) {
    let compute = &cx.spec.compute;
    let list = FieldPath::of(&["compute", "specs"]);
    if compute.specs.is_empty() {
        report.push(list.clone(), IssueCode::ValueRequired);
    }
    let mut seen = HashSet::new();
    let mut models = HashSet::new();
    let mut max_units: Option<u32> = None;
    for (i, id) in compute.specs.iter().enumerate() {
        let at = list.index(i);
        if !super::require(report, id, || at.clone()) {
            continue;
        }
        if !seen.insert(id.as_str()) {
            report.push(at, IssueCode::SpecDuplicate);
            continue;
        }
        let Some(cluster) = cx.cluster else { continue };
        let Some(spec) = cluster.spec(id) else {
            report.push(at, IssueCode::SpecUnknown);
            continue;
        };
        if spec.instance_type != compute.instance_type {
            report.push(
                at,
                IssueCode::SpecTypeMismatch {
                    expected: compute.instance_type,
                },
            );
            continue;
        }
        if pool.is_some_and(|p| !p.nodes.iter().any(|n| n.hosts(spec))) {
            report.push(at, IssueCode::SpecNotInPool);
        }
        if compute.instance_type == InstanceType::Gpu {
            models.insert(spec.gpu_model.clone());
        }
        max_units =
            Some(max_units.map_or(spec.max_units_per_node, |m| m.min(spec.max_units_per_node)));
    }
    if models.len() > 1 {
        report.push(list, IssueCode::SpecsMixedGpuModels);
    }
    let units = compute.units_per_node;
    if units == 0 || max_units.is_some_and(|max| units > max) {
        report.push(
            FieldPath::of(&["compute", "units_per_node"]),
            IssueCode::UnitsOutOfRange {
                max: max_units.unwrap_or(1).max(1),
            },
        );
    }
    if let Some(head) = cx.spec.distinct_head_spec() {
        let at = FieldPath::of(&["compute", "head_spec"]);
        match cx.cluster.map(|c| c.spec(head)) {
            Some(None) => report.push(at, IssueCode::SpecUnknown),
            Some(Some(spec)) if pool.is_some_and(|p| !p.nodes.iter().any(|n| n.hosts(spec))) => {
                report.push(at, IssueCode::SpecNotInPool)
            }
            _ => {}
        }
    }
}

/// Quota errors, availability warnings and the gang verdict, read off the plan.
fn plan_findings(plan: &Plan, report: &mut Report) {
    let list = FieldPath::of(&["compute", "specs"]);
    for candidate in &plan.candidates {
        for (line_no, line) in candidate.quota.iter().enumerate() {
            // The first line is the workers' spec, a second one the distinct head's.
            let at = if line_no == 0 {
                list.index(candidate.index)
            } else {
                FieldPath::of(&["compute", "head_spec"])
            };
            if line.remaining.is_none() {
                report.push(at, IssueCode::QuotaNone);
                continue;
            }
            for short in line.shortfalls() {
                report.push(
                    at.clone(),
                    IssueCode::QuotaExceeded {
                        dimension: short.dimension,
                        requested: short.requested,
                        remaining: short.remaining,
                    },
                );
            }
        }
        if let Fit::Never { reason } = &candidate.fit {
            report.push(
                list.index(candidate.index),
                IssueCode::GangNeverFits {
                    reason: reason.clone(),
                },
            );
        }
    }
    if let Outcome::Queue { reason } = &plan.outcome {
        // The spec that would be used once capacity frees: the first within quota that can ever fit.
        if let Some(first) = plan
            .candidates
            .iter()
            .find(|c| c.quota_ok() && matches!(c.fit, Fit::Queue { .. }))
            && let Err(short) = quota::fits(first.demand, first.available)
        {
            report.push(list.clone(), IssueCode::PoolAvailabilityExceeded { short });
        }
        report.push(
            list,
            IssueCode::GangWillQueue {
                reason: reason.clone(),
            },
        );
    }
}
