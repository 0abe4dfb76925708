//! Compute rules (SPEC.md section 4), and the findings the quota and gang-fit plan implies.

use super::seen::Seen;
use super::{Cx, FieldPath, IssueCode, Report, field_key, field_path};
use crate::quota::{self, Fit, NeverReason, Outcome, Plan, resolve_pool};
use crate::task::{Compute, InstanceType, ResourceKind, TaskSpec};

/// Most worker replicas.
pub const MAX_WORKERS: u32 = 1024;

pub(super) fn check(cx: &Cx, report: &mut Report) -> Option<Plan> {
    let compute = &cx.spec.compute;
    let at = |key| FieldPath::of(&[field_key!(TaskSpec: compute), key]);
    let errors = |report: &Report| {
        report
            .issues()
            .iter()
            .filter(|i| i.severity == super::Severity::Error)
            .count()
    };
    let errors_before = errors(report);

    // Whatever the kind, or before one is chosen: a count typed first was said nothing
    // until then.
    if compute.workers > MAX_WORKERS {
        report.push(
            at(field_key!(Compute: workers)),
            IssueCode::WorkersOutOfRange { max: MAX_WORKERS },
        );
    }
    let Some(kind) = compute.kind else {
        report.push(at(field_key!(Compute: kind)), IssueCode::ValueRequired);
        specs(cx, report, None);
        return None;
    };
    // Reserved with idle accepted may leave the level open: any idle capacity will do.
    if kind == ResourceKind::Idle {
        if compute.idle_stability.is_none() {
            report.push(
                at(field_key!(Compute: idle_stability)),
                IssueCode::ValueRequired,
            );
        }
        if compute.priority.is_some() {
            report.push(
                at(field_key!(Compute: priority)),
                IssueCode::IdlePriorityNotAllowed,
            );
        }
        if compute.guarantee.is_some() {
            report.push(
                at(field_key!(Compute: guarantee)),
                IssueCode::IdleGuaranteeNotAllowed,
            );
        }
    }
    for field in compute.unused_fields() {
        report.push(
            field_path!(TaskSpec: compute).key(field),
            IssueCode::KindFieldUnused { kind },
        );
    }

    // The pool: chosen for reserved, else the cluster's pool for the kind.
    let pool = cx.cluster.and_then(|cluster| {
        match compute.pool.as_deref().filter(|p| !p.is_empty()) {
            Some(id) => match cluster.pool(id) {
                None => report.push(at(field_key!(Compute: pool)), IssueCode::PoolUnknown),
                Some(p) if !p.kinds.contains(&kind) => {
                    report.push(at(field_key!(Compute: pool)), IssueCode::PoolKindMismatch)
                }
                Some(_) => {}
            },
            // A cluster with no pool of the kind says so at the kind, reserved too: "the
            // pool is required" beside an empty choice was a dead end.
            None if cluster.default_pool_for(kind).is_none() => {
                let code = if kind == ResourceKind::Spot {
                    IssueCode::SpotUnavailable
                } else {
                    IssueCode::PoolNoneForKind
                };
                report.push(at(field_key!(Compute: kind)), code);
            }
            None if kind == ResourceKind::Reserved => {
                report.push(at(field_key!(Compute: pool)), IssueCode::ValueRequired)
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
        report.push(at(field_key!(Compute: specs)), IssueCode::SpotUnavailable);
    }
    let (unhosted, hosted) = specs(cx, report, pool);
    // A RayJob that autoscales outside its own range, or past the most workers, has no
    // demand to plan with (the plan counts the maximum, which may be below the workers
    // it starts with): no plan until `ray.autoscaling` is fixed, rather than a verdict
    // on a wrong count (explorer: 2000 read as four quota and fit errors).
    //
    // Likewise while the compute section has an error of its own (units over a spec's
    // bound, an unknown pool or spec): a plan drawn around it, on the specs left, said
    // "starts now" beside a report that refused the task (SPEC.md section 4: the two
    // agree).
    let scaling = &cx.spec.ray.autoscaling;
    if errors(report) > errors_before
        || cx.spec.is_ray()
            && scaling.enabled
            && (!scaling.holds(compute.workers) || scaling.max_workers > MAX_WORKERS)
    {
        // Skipped only beside a spec the pool hosts: a lone spec read "another spec of
        // the list is used" while the head's error stopped the plan (explorer).
        for (at, gpu_model) in unhosted {
            let reason = NeverReason::NoMatchingNode { gpu_model };
            report.push(at, never_or_skipped(hosted, reason));
        }
        return None;
    }

    let plan = match cx
        .cluster
        .map(|_| quota::plan(cx.spec, cx.catalog, cx.usage, cx.user))
    {
        Some(Ok(plan)) => plan,
        Some(Err(_)) => {
            report.push(at(field_key!(Compute: specs)), IssueCode::DemandOverflow);
            return None;
        }
        None => return None,
    };
    // Specs no node of the pool hosts can never start there, and the plan leaves them
    // out: skipped with a warning while the plan can use another spec, errors when it
    // can use none (SPEC.md section 4), as for any spec that can never fit.
    let usable = plan.as_ref().is_some_and(|p| p.outcome != Outcome::Blocked);
    for (at, gpu_model) in unhosted {
        let reason = NeverReason::NoMatchingNode { gpu_model };
        report.push(at, never_or_skipped(usable, reason));
    }
    let plan = plan?;
    plan_findings(&plan, report);
    Some(plan)
}

/// A spec that can never start: skipped with a warning while another can be used.
fn never_or_skipped(other_usable: bool, reason: NeverReason) -> IssueCode {
    if other_usable {
        IssueCode::GangSkipped { reason }
    } else {
        IssueCode::GangNeverFits { reason }
    }
}

/// The spec list's own findings; returns the specs no node of the pool hosts, each with
/// its GPU model, for the plan's findings to judge, and whether any spec of the list is
/// one the pool hosts.
fn specs(
    cx: &Cx,
    report: &mut Report,
    pool: Option<&crate::catalog::Pool>,
) -> (Vec<(FieldPath, Option<String>)>, bool) {
    let compute = &cx.spec.compute;
    let list = field_path!(TaskSpec: compute.specs);
    if compute.specs.is_empty() {
        report.push(list.clone(), IssueCode::ValueRequired);
    }
    let mut seen: Seen<()> = Seen::new();
    let mut models: Vec<Option<&str>> = Vec::new();
    // The fewest units a chosen spec's node takes, and the first spec that says so.
    let mut bound: Option<(u32, &str)> = None;
    let mut unhosted: Vec<(FieldPath, Option<String>)> = Vec::new();
    let mut hosted = false;
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
            unhosted.push((at, spec.gpu_model.clone()));
        } else {
            hosted = true;
        }
        if compute.instance_type == InstanceType::Gpu {
            let model = spec.gpu_model.as_deref();
            if !models.contains(&model) {
                models.push(model);
            }
        }
        bound_by(&mut bound, spec);
    }
    if models.len() > 1 {
        report.push(list, IssueCode::SpecsMixedGpuModels);
    }
    if let Some(head) = cx.spec.head_spec() {
        let at = field_path!(TaskSpec: compute.head_spec);
        match cx.cluster.map(|c| c.spec(head)) {
            Some(None) => report.push(at, IssueCode::SpecUnknown),
            Some(Some(spec)) => {
                if pool.is_some_and(|p| !p.nodes.iter().any(|n| n.hosts(spec))) {
                    report.push(at, IssueCode::SpecNotInPool);
                }
                // The head is a replica of `units_per_node` units too, so its spec bounds them.
                bound_by(&mut bound, spec);
            }
            None => {}
        }
    }
    let units = compute.units_per_node;
    if units == 0 || bound.is_some_and(|(max, _)| units > max) {
        // 0 and no spec: none known bounds them (a catalog's specs host at least 1).
        let (max, spec) = bound.unwrap_or_default();
        report.push(
            field_path!(TaskSpec: compute.units_per_node),
            IssueCode::UnitsOutOfRange {
                max,
                spec: spec.to_owned(),
            },
        );
    }
    (unhosted, hosted)
}

/// `spec` as the bound of units per node when it takes fewer than the bound so far.
fn bound_by<'s>(bound: &mut Option<(u32, &'s str)>, spec: &'s crate::catalog::InstanceSpec) {
    if bound.is_none_or(|(max, _)| spec.max_units_per_node < max) {
        *bound = Some((spec.max_units_per_node, &spec.id));
    }
}

/// Quota, never-fit and queue findings, read off the plan. A spec the task cannot use
/// is skipped with a warning at that spec while another spec of the list can be used;
/// only when none can are those findings errors (SPEC.md section 4).
fn plan_findings(plan: &Plan, report: &mut Report) {
    let list = field_path!(TaskSpec: compute.specs);
    let blocked = plan.outcome == Outcome::Blocked;
    // A distinct head's line is the same with every worker spec: said once.
    let mut head_said = false;
    let mut head_never_said = false;
    for candidate in &plan.candidates {
        let at_spec = list.index(candidate.index);
        for line in &candidate.quota {
            // A line of the head's own spec is the head's.
            let head = candidate.head.as_ref().is_some_and(|h| h.spec == line.spec);
            if line.is_ok() || (head && head_said) {
                continue;
            }
            head_said |= head;
            let at = if head {
                field_path!(TaskSpec: compute.head_spec)
            } else {
                at_spec.clone()
            };
            if !blocked {
                report.push(
                    at,
                    IssueCode::QuotaSkipped {
                        spec: line.spec.clone(),
                        short: line.shortfalls(),
                    },
                );
            } else if line.remaining.is_none() {
                report.push(at, IssueCode::QuotaNone);
            } else {
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
        }
        // The head's own never-fit (too large, or no node of its model: the pool runs
        // every candidate's workers) is the head's field's, and said once, as its quota.
        if let Fit::Never { reason } = &candidate.fit
            && let head = matches!(
                reason,
                NeverReason::HeadTooLarge { .. } | NeverReason::NoMatchingNode { .. }
            )
            && !(head && head_never_said)
        {
            head_never_said |= head;
            let at = if head {
                field_path!(TaskSpec: compute.head_spec)
            } else {
                at_spec
            };
            let code = if blocked {
                IssueCode::GangNeverFits {
                    reason: reason.clone(),
                }
            } else {
                IssueCode::GangSkipped {
                    reason: reason.clone(),
                }
            };
            report.push(at, code);
        }
    }
    if let Outcome::Queue { index, reason } = &plan.outcome {
        if let Some(used) = plan.candidate(*index)
            && let Err(short) = quota::fits(used.demand, used.available)
        {
            report.push(
                list.clone(),
                IssueCode::PoolAvailabilityExceeded {
                    short,
                    idle: plan.kind == ResourceKind::Idle,
                },
            );
        }
        // Waiting for an idle offer of the head's own spec is the head's (keyboard
        // explorer: the summary sent the reader to add a worker spec).
        let head = plan.candidate(*index).and_then(|c| c.head.as_ref());
        let at = match reason {
            quota::QueueReason::NoIdleOffer { spec } if head.is_some_and(|h| h.spec == *spec) => {
                field_path!(TaskSpec: compute.head_spec)
            }
            _ => list,
        };
        report.push(
            at,
            IssueCode::GangWillQueue {
                reason: reason.clone(),
            },
        );
    }
}

#[cfg(test)]
mod units_tests {
    use crate::IssueCode;
    use crate::task::TaskSpec;
    use crate::validate::Lang;

    /// The units finding of `spec` and its English message.
    fn units(spec: &TaskSpec) -> Vec<(IssueCode, String)> {
        crate::validate(
            spec,
            &crate::demo::catalog(),
            &Default::default(),
            &crate::demo::user(),
        )
        .into_localized(Lang::En)
        .into_iter()
        .filter(|i| i.path.to_string() == "compute.units_per_node")
        .map(|i| (i.code, i.message))
        .collect()
    }

    #[test]
    fn units_over_the_maximum_name_the_spec_that_bounds_them() {
        // The second spec of the list takes fewer units per node than the first.
        let listed = crate::demo::pytorch().with(|s| {
            s.compute.specs = vec!["h100-1g".into(), "h100-8g".into()];
            s.compute.units_per_node = 2;
        });
        assert_eq!(
            units(&listed),
            [(
                IssueCode::UnitsOutOfRange {
                    max: 1,
                    spec: "h100-8g".into()
                },
                // One unit the most: "between 1 and 1" read as a fault.
                "must be 1, the most h100-8g takes per node".into()
            )]
        );
        // A RayJob's head spec bounds them too.
        let head = crate::demo::ray().with(|s| {
            // On the demo cluster whose specs take 4 and 1 units.
            s.basic.region = "cn-east".into();
            s.basic.cluster = "sh-b".into();
            s.compute = crate::demo::pytorch().compute;
            s.compute.specs = vec!["l40s-1g".into()];
            s.compute.head_spec = Some("l40s-8g".into());
            s.compute.units_per_node = 2;
        });
        assert_eq!(
            units(&head),
            [(
                IssueCode::UnitsOutOfRange {
                    max: 1,
                    spec: "l40s-8g".into()
                },
                "must be 1, the most l40s-8g takes per node".into()
            )]
        );
        // Two specs of the same maximum: the first is named.
        let tie = crate::demo::pytorch().with(|s| {
            s.compute.specs = vec!["a100-1g".into(), "h100-1g".into()];
            s.compute.units_per_node = 9;
        });
        assert_eq!(
            units(&tie)[0].0,
            IssueCode::UnitsOutOfRange {
                max: 8,
                spec: "a100-1g".into()
            }
        );
    }
}

#[cfg(test)]
mod head_tests {
    use crate::catalog::{Catalog, Quota};
    use crate::quota::NeverReason;
    use crate::resources::Resources;
    use crate::task::{ResourceKind, TaskSpec};
    use crate::vocab::Dimension;
    use crate::{FieldPath, IssueCode, Report};

    /// A RayJob on the demo's H100 pool with both H100 specs and a cpu-8c head, checked
    /// on the demo catalog with one CPU node of `cpu` added to that pool and a reserved
    /// cpu-8c quota of `quota` there for alice.
    fn checked(cpu: Resources, quota: Resources) -> Report {
        let mut catalog: Catalog = crate::demo::catalog();
        let cluster = &mut catalog.regions[0].clusters[0];
        let mut node = cluster.pools[1]
            .nodes
            .iter()
            .find(|n| n.gpu_model.is_none())
            .expect("a CPU node in sh-a-shared")
            .clone();
        node.total = cpu;
        cluster.pools[0].nodes.push(node);
        catalog.quotas.push(Quota {
            user: "alice".into(),
            kind: Some(ResourceKind::Reserved),
            pool: "sh-a-h100".into(),
            spec: "cpu-8c".into(),
            limit: quota,
        });
        let spec: TaskSpec = crate::demo::ray().with(|s| {
            s.basic.region = "cn-east".into();
            s.basic.cluster = "sh-a".into();
            s.compute.pool = Some("sh-a-h100".into());
            s.compute.specs = vec!["h100-1g".into(), "h100-8g".into()];
            s.compute.units_per_node = 1;
            s.compute.head_spec = Some("cpu-8c".into());
        });
        crate::validate(&spec, &catalog, &Default::default(), &crate::demo::user())
    }

    fn at(report: &Report, path: &[&'static str]) -> Vec<IssueCode> {
        let path = FieldPath::of(path);
        report.at(&path).map(|i| i.code.clone()).collect()
    }

    #[test]
    fn a_distinct_heads_shortfall_is_said_once_whatever_the_worker_specs() {
        // SPEC.md section 4: when no spec passes quota, the error names each spec's
        // shortfall; the head's line is one line, whichever worker spec it goes with.
        // One unit of cpu-8c: 8 vCPUs and 32 GiB, against 4 and 16 left.
        let report = checked(Resources::new(0, 96, 384), Resources::new(0, 4, 16));
        assert_eq!(
            at(&report, &["compute", "head_spec"]),
            [
                IssueCode::QuotaExceeded {
                    dimension: Dimension::Vcpu,
                    requested: 8,
                    remaining: 4
                },
                IssueCode::QuotaExceeded {
                    dimension: Dimension::MemoryGib,
                    requested: 32,
                    remaining: 16
                },
            ],
            "{report}"
        );
    }

    #[test]
    fn a_head_that_can_never_fit_is_said_once_at_the_heads_field() {
        // The H100 pool's one CPU node is too small for a cpu-8c head: whichever worker
        // spec, the head is what can never start, at its own field, as its quota is
        // (explorer).
        let report = checked(Resources::new(0, 4, 16), Resources::new(0, 1000, 4000));
        let never = IssueCode::GangNeverFits {
            reason: NeverReason::HeadTooLarge {
                dimension: Dimension::Vcpu,
                largest_total: 4,
                need: 8,
            },
        };
        assert_eq!(at(&report, &["compute", "head_spec"]), [never], "{report}");
        let specs = FieldPath::of(&["compute", "specs"]);
        assert_eq!(report.at(&specs.index(0)).count(), 0, "{report}");
        assert_eq!(report.at(&specs.index(1)).count(), 0, "{report}");
    }
}

#[cfg(test)]
mod availability_tests {
    use crate::IssueCode;
    use crate::task::{IdleStability, ResourceKind};
    use crate::validate::Lang;

    /// The availability finding of `spec` on the demo, in both languages.
    fn availability(spec: &crate::task::TaskSpec) -> Vec<(IssueCode, String, String)> {
        let report = crate::validate(
            spec,
            &crate::demo::catalog(),
            &crate::demo::usage(),
            &crate::demo::user(),
        );
        report
            .issues()
            .iter()
            .filter(|i| matches!(i.code, IssueCode::PoolAvailabilityExceeded { .. }))
            .map(|i| (i.code.clone(), i.message(Lang::En), i.message(Lang::Zh)))
            .collect()
    }

    #[test]
    fn an_idle_tasks_availability_is_the_idle_capacity_and_says_so() {
        // SPEC.md section 4: for idle, the available amount is the idle quantity of offers
        // at or above the chosen stability, not the pool's free capacity.
        let spec = crate::demo::pytorch().with(|s| {
            s.compute.kind = Some(ResourceKind::Idle);
            s.compute.idle_stability = Some(IdleStability::Low);
            s.compute.pool = None;
            s.compute.priority = None;
            s.compute.guarantee = None;
            s.compute.specs = vec!["a100-1g".into()];
            s.compute.units_per_node = 8;
            s.compute.workers = 1;
        });
        let said = availability(&spec);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            matches!(
                &said[0].0,
                IssueCode::PoolAvailabilityExceeded { idle: true, .. }
            ),
            "{said:?}"
        );
        assert!(
            said[0].1.contains("idle capacity at the chosen stability"),
            "{}",
            said[0].1
        );
        assert!(!said[0].1.contains("the pool"), "{}", said[0].1);
        assert!(said[0].2.contains("闲时资源"), "{}", said[0].2);
        // A pool's own: the pool's free capacity, as before.
        let pool = spec.clone().with(|s| {
            s.basic.region = "cn-east".into();
            s.basic.cluster = "sh-b".into();
            s.compute.kind = Some(ResourceKind::OnDemand);
            s.compute.idle_stability = None;
            s.compute.specs = vec!["l40s-1g".into()];
            s.compute.units_per_node = 2;
            s.compute.workers = 3;
        });
        let said = availability(&pool);
        assert!(
            matches!(&said[..], [(IssueCode::PoolAvailabilityExceeded { idle: false, .. }, en, _)] if en.contains("the pool has")),
            "{said:?}"
        );
    }
}

#[cfg(test)]
mod kind_tests {
    use crate::task::ResourceKind;
    use crate::validate::demo_findings as found;

    /// SPEC.md section 3: a kind with nothing to offer says so and what to switch. The
    /// demo's sh-b has one pool, for on-demand and spot: reserved capacity there was
    /// "the pool is required", beside a pool list with nothing in it.
    #[test]
    fn reserved_capacity_on_a_cluster_without_a_reserved_pool_says_so_at_the_kind() {
        let spec = crate::demo::pytorch().with(|s| {
            s.basic.region = "cn-east".into();
            s.basic.cluster = "sh-b".into();
            s.compute.kind = Some(ResourceKind::Reserved);
            s.compute.pool = None;
            s.compute.specs = vec!["l40s-1g".into()];
        });
        let found = found(&spec);
        assert!(
            found.contains(&("compute.kind".into(), "compute.pool.none_for_kind")),
            "{found:?}"
        );
        assert!(
            !found.iter().any(|(path, _)| path == "compute.pool"),
            "{found:?}"
        );
        // Where the cluster has one, the pool is still the user's to choose.
        let sh_a = crate::demo::pytorch().with(|s| {
            s.compute.kind = Some(ResourceKind::Reserved);
            s.compute.pool = None;
        });
        let found = self::found(&sh_a);
        assert!(
            found.contains(&("compute.pool".into(), "value.required")),
            "{found:?}"
        );
        assert!(
            !found
                .iter()
                .any(|(_, c)| *c == "compute.pool.none_for_kind"),
            "{found:?}"
        );
    }

    /// SPEC.md section 4: a spec that can never fit is skipped with a warning only while
    /// another spec of the list can be used. A lone spec the pool does not host is an
    /// error, also while the head's own error stops the plan (explorer: it read "another
    /// spec of the list is used").
    #[test]
    fn a_lone_spec_the_pool_does_not_host_is_an_error_beside_a_head_error() {
        let spec = crate::demo::ray_with_cpu_head_on_sh_a("sh-a-h100");
        let found = found(&spec);
        assert!(
            found.contains(&("compute.specs[0]".into(), "compute.gang.never_fits")),
            "{found:?}"
        );
        assert!(
            found.contains(&("compute.head_spec".into(), "compute.spec.not_in_pool")),
            "{found:?}"
        );
        assert!(
            !found.iter().any(|(_, c)| *c == "compute.gang.skipped"),
            "{found:?}"
        );
        // Beside a spec the pool hosts, it is skipped, as the plan would use the other.
        let two = spec.with(|s| s.compute.specs.push("h100-1g".into()));
        let found = self::found(&two);
        assert!(
            found.contains(&("compute.specs[0]".into(), "compute.gang.skipped")),
            "{found:?}"
        );
    }

    /// A worker count past the limit is said before a kind is chosen, as after.
    #[test]
    fn too_many_workers_are_said_before_a_kind_is_chosen() {
        let spec = crate::demo::pytorch().with(|s| {
            s.compute.kind = None;
            s.compute.workers = 2000;
        });
        let found = found(&spec);
        assert!(
            found.contains(&("compute.workers".into(), "compute.workers.out_of_range")),
            "{found:?}"
        );
    }
}
