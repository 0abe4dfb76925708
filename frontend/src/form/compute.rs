//! Compute [计算资源]: resource kind → replicas → instance specs, beside the quota and
//! placement panel. The kind's own fields appear and disappear with the kind.

use super::context::{FormCx, options, unwire, wire};
use super::field::{CheckField, Control, Findings, Lens, SelectField, TextField, number_lens};
use super::section::Section;
use super::specs::SpecsEditor;
use crate::components::PlanView;
use leptos::prelude::*;
use shared::IssueCode;
use shared::catalog::InstanceSpec;
use shared::task::{IdleStability, InstanceType, Priority, ResourceKind};

/// The specs the chosen cluster, pool and instance type offer, as options, tracked.
///
/// Follows only what the offer depends on (the cluster, the kind, the pool and the
/// instance type): a memo of the whole draft was recomputed by every keystroke, a name's
/// too, and resolving the pool copied it out of the catalog each time.
/// `any_type`: GPU and CPU specs both (the RayJob head, which may be a CPU spec beside
/// GPU workers), else the chosen instance type's.
pub(super) fn spec_options(cx: FormCx, any_type: bool) -> Memo<Vec<(String, String)>> {
    let offer = cx.watch(|s| {
        (
            s.compute.kind,
            s.compute.pool.clone(),
            s.compute.instance_type,
        )
    });
    Memo::new(move |_| {
        // Its name, then what one unit holds in the reader's words, as the plan panel
        // says it.
        let lang = cx.lang();
        let shown = |s: &InstanceSpec| {
            let per_unit = crate::components::amount(lang, &s.per_unit);
            (s.id.clone(), format!("{} — {per_unit}", named(s)))
        };
        let Some(cluster) = cx.cluster() else {
            // No cluster chosen (the region changed to one without the draft's): the
            // specs kept until one is are shown by their names, as a cluster of the
            // catalog offers them, not as bare ids.
            let kept = cx.spec.with(|s| {
                s.compute
                    .specs
                    .iter()
                    .chain(&s.compute.head_spec)
                    .cloned()
                    .collect::<Vec<_>>()
            });
            return cx.catalog.with_value(|c| {
                kept.iter()
                    .filter_map(|id| in_any_cluster(c, id).map(shown))
                    .collect()
            });
        };
        // A kind no pool of the cluster serves (reserved on one without a reserved pool)
        // runs none of its specs: the kind's finding says what to switch. Offered, they
        // read as choices that could work.
        if offer.with(|(kind, _, _)| kind.is_some_and(|k| cluster.default_pool_for(k).is_none())) {
            return Vec::new();
        }
        let instance_type = offer.with(|(_, _, t)| *t);
        let typed = |s: &&InstanceSpec| any_type || s.instance_type == instance_type;
        // `resolve_pool` reads the kind and the pool, which `offer` follows.
        cx.spec.with_untracked(|s| {
            let pool = shared::quota::resolve_pool(s, &cluster);
            cluster
                .specs
                .iter()
                .filter(typed)
                .filter(|s| pool.is_none_or(|p| p.nodes.iter().any(|n| n.hosts(s))))
                .map(shown)
                .collect()
        })
    })
}

/// What the form calls a spec: its options start with it, and [`spec_name`] says it
/// wherever else the form names the spec.
pub(super) fn named(s: &InstanceSpec) -> String {
    s.name.clone()
}

/// Spec `id` in the first cluster of `catalog` that has it.
pub(super) fn in_any_cluster<'a>(
    catalog: &'a shared::Catalog,
    id: &str,
) -> Option<&'a InstanceSpec> {
    catalog
        .regions
        .iter()
        .flat_map(|r| &r.clusters)
        .flat_map(|c| &c.specs)
        .find(|s| s.id == id)
}

/// Spec `id` as the spec list's options name it, for what else the form says of it (the
/// plan panel): one name for one thing. Its catalog name, the chosen cluster's, or with
/// none chosen any cluster's, as the list then shows the specs it keeps; an id the
/// catalog does not know stays as written, as the list's select shows it.
pub fn spec_name(cx: FormCx, id: &str) -> String {
    let name = match cx.cluster() {
        Some(cluster) => cluster.spec(id).map(named),
        None => cx.catalog.with_value(|c| in_any_cluster(c, id).map(named)),
    };
    name.unwrap_or_else(|| id.to_owned())
}

/// Pool `id` as the pool select names it: its catalog name in the chosen cluster, else
/// its id.
pub fn pool_name(cx: FormCx, id: &str) -> String {
    cx.cluster()
        .and_then(|c| c.pool(id).map(|p| p.name.clone()))
        .unwrap_or_else(|| id.to_owned())
}

/// What is said of the chosen kind under its select: what it is for, and the findings
/// about the fields it does not use.
const KIND_ABOUT: &str = "berth-compute-kind-about";
/// The findings about fields the chosen kind does not use, within it.
const UNUSED_LIST: &str = "berth-compute-kind-unused-msgs";

/// The compute section and the plan panel beside it.
#[component]
pub fn ComputeSection() -> impl IntoView {
    let cx = FormCx::use_context();
    let kind = cx.watch(move |s| s.compute.kind);
    let accept_idle = cx.watch(move |s| s.compute.accept_idle);
    let is_ray = cx.watch(move |s| s.is_ray());
    let priority_set = cx.watch(move |s| s.compute.priority.is_some());
    let guarantee_set = cx.watch(move |s| s.compute.guarantee.is_some());
    let kind_lens = Lens {
        get: Signal::derive(move || kind.get().map(|k| wire(&k)).unwrap_or_default()),
        set: Callback::new(move |v: String| {
            // The old kind's fields go, as the shared crate drops them.
            let cluster = cx.cluster();
            cx.switch("compute.kind", |s| {
                let spec = std::mem::take(s);
                *s = match &cluster {
                    Some(cluster) => spec.with_kind_in(unwire(&v), cluster),
                    None => spec.with_kind(unwire(&v)),
                };
            });
        }),
    };
    let kinds = Signal::derive(move || {
        [
            ResourceKind::Reserved,
            ResourceKind::OnDemand,
            ResourceKind::Spot,
            ResourceKind::Idle,
        ]
        .iter()
        .map(|k| {
            let name = wire(k);
            // The kind's words are written to sit inside a finding's sentence ("over the
            // quota of on-demand instances"); as an option of its own it starts a line, as
            // every other option does.
            let shown = crate::i18n::line_start(&cx.text(&format!("resource_kind.{name}")));
            (name, shown)
        })
        .collect()
    });
    let pools = Signal::derive(move || {
        let kind = kind.get();
        let shown = |p: &shared::catalog::Pool| {
            let sharing = cx.text(&format!("ui.form.option.sharing.{}", wire(&p.sharing)));
            // A name that says its sharing already is not followed by it again
            // (explorer: "L40S shared 共享（共享）").
            // ASCII case only: `to_lowercase` brought Unicode's case tables, 17 KB of the
            // console's wasm, for the catalog's English and Chinese words.
            if p.name
                .to_ascii_lowercase()
                .contains(&sharing.to_ascii_lowercase())
            {
                return (p.id.clone(), p.name.clone());
            }
            let args = [("name", p.name.clone()), ("sharing", sharing)];
            let words = shared::messages::text(cx.lang(), "ui.form.option.pool", &args);
            (p.id.clone(), words)
        };
        match cx.cluster() {
            Some(c) => c
                .pools
                .iter()
                .filter(|p| kind.is_none_or(|k| p.kinds.contains(&k)))
                .map(shown)
                .collect(),
            // No cluster chosen: the pool kept until one is, by its name, as the specs.
            None => {
                let kept = cx.spec.with(|s| s.compute.pool.clone());
                cx.catalog.with_value(|c| {
                    kept.and_then(|id| {
                        c.regions
                            .iter()
                            .flat_map(|r| &r.clusters)
                            .flat_map(|c| &c.pools)
                            .find(|p| p.id == id)
                            .map(shown)
                    })
                    .into_iter()
                    .collect()
                })
            }
        }
    });
    // Left empty, a task of any kind but reserved runs in the cluster's first pool for
    // its kind (`shared::quota::resolve_pool`): the empty choice says which.
    let automatic_pool = Signal::derive(move || {
        let kind = kind.get().filter(|k| *k != ResourceKind::Reserved);
        match kind.and_then(|k| {
            cx.cluster()
                .and_then(|c| c.default_pool_for(k).map(|p| p.name.clone()))
        }) {
            Some(name) => {
                shared::messages::text(cx.lang(), "ui.form.pool_automatic", &[("pool", name)])
            }
            None => cx.text("ui.form.choose"),
        }
    });
    let pool = Lens {
        get: cx.watch(move |s| s.compute.pool.clone().unwrap_or_default()),
        set: Callback::new(move |v: String| {
            cx.spec
                .update(|s| s.compute.pool = (!v.is_empty()).then_some(v));
        }),
    };
    let stability = Lens {
        get: cx.watch(move |s| {
            s.compute
                .idle_stability
                .map(|v| wire(&v))
                .unwrap_or_default()
        }),
        set: Callback::new(move |v: String| {
            cx.spec.update(|s| s.compute.idle_stability = unwire(&v))
        }),
    };
    let stabilities = Signal::derive(move || {
        options(
            cx.lang(),
            "stability",
            &[
                IdleStability::High,
                IdleStability::Medium,
                IdleStability::Low,
            ],
        )
    });
    let priority = Lens {
        get: cx.watch(move |s| s.compute.priority.map(|v| wire(&v)).unwrap_or_default()),
        set: Callback::new(move |v: String| cx.spec.update(|s| s.compute.priority = unwire(&v))),
    };
    let priorities = Signal::derive(move || {
        options(
            cx.lang(),
            "priority",
            &[Priority::High, Priority::Normal, Priority::Low],
        )
    });
    let guarantee = Lens {
        get: cx.watch(move |s| {
            s.compute
                .guarantee
                .map(|v| v.to_string())
                .unwrap_or_default()
        }),
        set: Callback::new(move |v: String| {
            cx.spec.update(|s| s.compute.guarantee = v.parse().ok())
        }),
    };
    let guarantees = Signal::derive(move || {
        ["true", "false"]
            .map(|v| {
                (
                    v.to_owned(),
                    cx.text(&format!("ui.form.option.guarantee.{v}")),
                )
            })
            .to_vec()
    });
    let instance_type = Lens {
        get: cx.watch(move |s| wire(&s.compute.instance_type)),
        set: Callback::new(move |v: String| {
            cx.spec
                .update(|s| s.compute.instance_type = unwire(&v).unwrap_or_default());
        }),
    };
    let instance_types = Signal::derive(move || {
        options(
            cx.lang(),
            "instance_type",
            &[InstanceType::Gpu, InstanceType::Cpu],
        )
    });
    let head = Lens {
        get: cx.watch(move |s| s.compute.head_spec.clone().unwrap_or_default()),
        set: Callback::new(move |v: String| {
            cx.spec
                .update(|s| s.compute.head_spec = (!v.is_empty()).then_some(v));
        }),
    };
    let heads = spec_options(cx, true);
    // The kind's fields that it does not use (a clone's priority on a reserved task) have
    // no control while that kind is chosen, so their findings show under the kind.
    let beneath = cx.findings_at("compute", true);
    // A memo: other compute findings change as the user types (the plan's), and these
    // lines, in a live region, would be read out again with each.
    let unused = Memo::new(move |_| {
        beneath.with(|all| {
            all.iter()
                .filter(|i| matches!(i.code, IssueCode::KindFieldUnused { .. }))
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    let idle_fields = move || {
        let k = kind.get();
        let reserved = k == Some(ResourceKind::Reserved);
        let stability_shown = k == Some(ResourceKind::Idle) || (reserved && accept_idle.get());
        // Idle refuses a priority or guarantee that a spec brings (a clone, an import: an
        // error, not dropped), so a set one stays visible there until the user clears it;
        // switching to idle drops them.
        let takes_priority = matches!(k, Some(ResourceKind::OnDemand | ResourceKind::Spot));
        // On a cluster with no reserved pool the kind's finding says to switch: idle
        // accepted there would read as a way out (explorer: it is none). Once ticked it
        // stays, so it can be cleared.
        let served = cx
            .cluster()
            .is_none_or(|c| c.default_pool_for(ResourceKind::Reserved).is_some());
        view! {
            {(reserved && (served || accept_idle.get())).then(|| view! {
                <CheckField path="compute.accept_idle"
                    get=accept_idle
                    set=Callback::new(move |on| cx.spec.update(|s| {
                        s.compute.accept_idle = on;
                        *s = std::mem::take(s).normalized();
                    })) />
            })}
            {(reserved && accept_idle.get()).then(|| view! {
                <CheckField path="compute.prefer_idle"
                    get=cx.watch(move |s| s.compute.prefer_idle)
                    set=Callback::new(move |on| cx.spec.update(|s| s.compute.prefer_idle = on)) />
            })}
            // Reserved capacity that accepts idle takes an offer at any level when none is
            // chosen: said so, not "choose…", which read as required (keyboard explorer).
            {(stability_shown && reserved).then(|| view! {
                <SelectField path="compute.idle_stability" lens=stability options=stabilities
                    empty_text=Signal::derive(move || cx.text("ui.form.stability_any")) />
            })}
            {(stability_shown && !reserved).then(|| view! {
                <SelectField path="compute.idle_stability" lens=stability options=stabilities />
            })}
            {(takes_priority || (k == Some(ResourceKind::Idle) && priority_set.get())).then(|| view! {
                <SelectField path="compute.priority" lens=priority options=priorities />
            })}
            {(takes_priority || (k == Some(ResourceKind::Idle) && guarantee_set.get())).then(|| view! {
                <SelectField path="compute.guarantee" lens=guarantee options=guarantees />
            })}
        }
    };
    let range = cx.findings_at("ray.autoscaling", false);
    let outside_range = Memo::new(move |_| {
        range.with(|found| {
            found.iter().find_map(|i| match i.code {
                // Only where the workers are what is out of it.
                IssueCode::AutoscalingRange { min, workers, max }
                    if min <= max && !(min..=max).contains(&workers) =>
                {
                    Some((min, max))
                }
                _ => None,
            })
        })
    });
    view! {
        <div class="compute-row">
            <Section path="compute">
                <SelectField path="compute.kind" lens=kind_lens options=kinds also_described_by=KIND_ABOUT />
                // Read out with the kind's select, as its description.
                <div id=cx.id(KIND_ABOUT)>
                    // What the kind chosen is for and what it risks, in the seeds' words:
                    // a newcomer took spot on the plan's word that it uses no quota, with
                    // no word that it may be interrupted (novice explorer). Under its
                    // select, apart from the pool's label (recheck).
                    {move || kind.get().map(|k| view! {
                        <p class="note field-note" data-testid="kind-note">{move || cx.text(&format!("ui.form.kind_note.{}", wire(&k)))}</p>
                    })}
                    <Findings id=cx.id(UNUSED_LIST) findings=unused named=true />
                </div>
                <SelectField path="compute.pool" lens=pool options=pools empty_text=automatic_pool />
                {idle_fields}
                // Marked by the autoscaling range it breaks too, which is said a section
                // below: a workers box above a greyed plan, unmarked, read as fine (recheck).
                <TextField path="compute.workers" control=Control::Number lens=number_lens!(cx, compute.workers) group="ray.autoscaling">
                    {move || outside_range.get().map(|(min, max)| view! {
                        <p class="note out-of-range" data-testid="workers-out-of-range">{move || shared::messages::text(cx.lang(), "ui.form.workers_out_of_range", &[
                            ("min", min.to_string()),
                            ("max", max.to_string()),
                        ])}</p>
                    })}
                </TextField>
                <SelectField path="compute.instance_type" lens=instance_type options=instance_types required=true />
                <SpecsEditor />
                <TextField path="compute.units_per_node" control=Control::Number lens=number_lens!(cx, compute.units_per_node) />
                {move || is_ray.get().then(|| view! {
                    <SelectField path="compute.head_spec" lens=head options=heads kept_name=spec_name
                        empty_text=Signal::derive(move || cx.text("ui.form.head_spec.same")) />
                })}
            </Section>
            <PlanView plan=cx.plan waits_outside=cx.waits_outside accepts_idle=Signal::derive(move || {
                kind.get() == Some(ResourceKind::Reserved) && accept_idle.get()
            })
            // Read when the plan is drawn, which a change of the list redraws: not
            // watched, which would copy the list at every keystroke anywhere.
            specs=Signal::derive(move || cx.spec.with_untracked(|s| s.compute.specs.clone())) />
        </div>
    }
}
