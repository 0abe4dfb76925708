//! The quota and placement panel: the task's demand against the remaining quota and the
//! pool's free capacity, the verdict for every spec of the priority list, and the idle
//! capacity of the spec the task would use.

use crate::i18n::UiLang;
use leptos::prelude::*;
use shared::messages::{Arg, Message, list, text};
use shared::quota::{Blocked, Candidate, Fit, Outcome, QueueReason};
use shared::{Dimension, Lang, Plan, Resources};

/// What the panel calls spec `id`: the name the form's spec list gives it
/// ([`crate::form::compute::spec_name`]), so a researcher who picked "A100 single card"
/// does not read of "a100-1g"; outside a form, which has no catalog, the id.
type Name<'a> = &'a dyn Fn(&str) -> String;

/// A reason from the shared crate in words, with a spec it names called as the panel
/// calls it: the reason's own text, which task events and the validator package also
/// say, names it by its id.
fn reason(mut said: Message, lang: Lang, name: Name<'_>) -> String {
    if let Some(Arg::Text(spec)) = said.args.get_mut("spec") {
        *spec = name(spec);
    }
    said.render(lang)
}

/// Resources in the reader's words: "1 GPU · 12 vCPUs · 120 GiB of memory".
pub fn amount(lang: Lang, r: &Resources) -> String {
    Dimension::ALL
        .iter()
        // A CPU spec's "0 GPUs" reads as a fault, as the bars found.
        .filter(|&&d| r.get(d) > 0 || *r == Resources::default())
        .map(|&d| format!("{} {}", r.get(d), d.unit_for(lang, r.get(d))))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// What a spec of the list comes to, in words. `used`: the position of the spec the task
/// would use. While one is used, a spec it cannot use is skipped, before or after it, as
/// its field's finding says (`compute.quota.skipped`: were the used spec's room gone at
/// admission, the scheduler would pass over it too); when none can be used each is
/// refused, and reads what stops it.
fn verdict(c: &Candidate, used: Option<usize>, lang: Lang, name: Name<'_>) -> String {
    let refused = |key: &'static str| {
        if used.is_some() {
            key
        } else {
            key.trim_end_matches("#skipped")
        }
    };
    // A spec that can never fit says so first, short of quota or not: more quota would
    // not start it, and the headline says "no spec can ever fit" (quota explorer: the
    // line said "no quota" under that headline).
    if !c.quota_ok() && !matches!(c.fit, Fit::Never { .. }) {
        // A Ray head of another spec draws on that spec's line: a shortfall there is
        // named by its spec, or it would read as the workers' spec's.
        let short_lines: Vec<_> = c.quota.iter().filter(|l| !l.is_ok()).collect();
        let name_specs = short_lines.iter().any(|l| l.spec != c.spec);
        let mut short = Vec::new();
        for line in short_lines {
            if line.remaining.is_none() {
                return text(
                    lang,
                    refused("ui.form.plan.verdict.no_quota#skipped"),
                    &[("spec", name(&line.spec))],
                );
            }
            let amounts: Vec<String> = line
                .shortfalls()
                .iter()
                .map(|s| {
                    let over = s.requested - s.remaining;
                    format!("{over} {}", s.dimension.unit_for(lang, over))
                })
                .collect();
            short.push(if name_specs {
                text(
                    lang,
                    "ui.form.plan.short_of",
                    &[("amount", list(lang, &amounts)), ("spec", name(&line.spec))],
                )
            } else {
                list(lang, &amounts)
            });
        }
        return text(
            lang,
            refused("ui.form.plan.verdict.over_quota#skipped"),
            &[("shortfall", list(lang, &short))],
        );
    }
    // A RayJob of no workers places its head alone: "fits on" the workers' spec read as
    // placing a worker (explorer).
    let placed = match &c.head {
        Some(head) if c.workers == 0 => &head.spec,
        _ => &c.spec,
    };
    match &c.fit {
        Fit::Now { nodes } => text(
            lang,
            if c.on_idle {
                "ui.form.plan.verdict.now#idle"
            } else {
                "ui.form.plan.verdict.now"
            },
            &[("spec", name(placed)), ("nodes", nodes.to_string())],
        ),
        // Passed over for a later spec of the list that is used: it does not queue, as
        // "will queue" said under a headline that starts the task (verdict explorer).
        Fit::Queue { reason: why } => text(
            lang,
            if used.is_some_and(|u| c.index < u) {
                "ui.form.plan.verdict.queue#skipped"
            } else {
                "ui.form.plan.verdict.queue"
            },
            &[("reason", reason(why.to_message(), lang, name))],
        ),
        Fit::Never { reason: why } => text(
            lang,
            "ui.form.plan.verdict.never",
            &[("reason", reason(why.to_message(), lang, name))],
        ),
    }
}

/// The spec the task's pods would take: a RayJob of no workers is its head alone.
fn pods_spec(plan: &Plan, index: usize) -> String {
    plan.candidate(index)
        .map(|c| match &c.head {
            Some(head) if c.workers == 0 => head.spec.clone(),
            _ => c.spec.clone(),
        })
        .unwrap_or_default()
}

/// The plan's verdict, its class and words; `any_level`: no idle stability is chosen, so
/// an idle offer is waited for at any level (not "the chosen level", which there is none
/// of: newcomer explorer); `outside`: it would queue with none of Berth's tasks running
/// ([`crate::form::FormCx::waits_outside`]); `autoscales`: a RayJob counted at its most
/// workers; `advice`: the changes the draft can make, which the words name.
fn outcome(
    plan: &Plan,
    lang: Lang,
    name: Name<'_>,
    (any_level, outside, autoscales): (bool, Option<(QueueReason, &'static str)>, bool),
    advice: Advice,
) -> (&'static str, String) {
    match &plan.outcome {
        // Room kept ahead of it in the queue: the scheduler waits for that task first.
        Outcome::Queue {
            reason: QueueReason::PassedOver,
            ..
        } => (
            "outcome queue",
            text(lang, "ui.form.plan.outcome.queue#held", &[]),
        ),
        Outcome::Now { index, nodes } => {
            let spec = name(&pods_spec(plan, *index));
            let on_idle = plan.candidate(*index).is_some_and(|c| c.on_idle);
            (
                "outcome now",
                text(
                    lang,
                    if on_idle {
                        "ui.form.plan.outcome.now#idle"
                    } else {
                        "ui.form.plan.outcome.now"
                    },
                    &[("spec", spec), ("nodes", nodes.to_string())],
                ),
            )
        }
        // An idle task waits for an offer of the spec that has none at its level, which
        // is the head's when the head has a spec of its own and the workers' is offered:
        // said as the head's, not as "for" the workers' spec with the head's reason.
        Outcome::Queue {
            index,
            reason: QueueReason::NoIdleOffer { spec },
        } => {
            let head = plan
                .candidate(*index)
                .and_then(|c| c.head.as_ref())
                .is_some_and(|head| head.spec == *spec);
            let key = match (head, any_level) {
                (true, false) => "ui.form.plan.outcome.queue#no_idle_head",
                (true, true) => "ui.form.plan.outcome.queue#no_idle_head_any",
                (false, false) => "ui.form.plan.outcome.queue#no_idle",
                (false, true) => "ui.form.plan.outcome.queue#no_idle_any",
            };
            ("outcome queue", text(lang, key, &[("spec", name(spec))]))
        }
        Outcome::Queue { index, reason: why } => {
            let spec = name(&pods_spec(plan, *index));
            // Not all its replicas at once, counted at its most workers: fewer might
            // start it, which the workers box does not show (Ray recheck: "35 of 41
            // replicas" beside a workers box of 2).
            let key = if autoscales && matches!(why, QueueReason::NotEnoughAtOnce { .. }) {
                "ui.form.plan.outcome.queue#autoscaling"
            } else {
                "ui.form.plan.outcome.queue"
            };
            // As the server's reason will say once it is submitted: "will queue" alone
            // read as waiting for Berth's tasks, which may never free what it needs.
            let why = match outside {
                Some((alone, key)) => {
                    let why = reason(alone.to_message(), lang, name);
                    text(lang, advice.outside_key(key), &[("reason", why)])
                }
                None => reason(why.to_message(), lang, name),
            };
            (
                "outcome queue",
                text(lang, key, &[("spec", spec), ("reason", why)]),
            )
        }
        Outcome::Blocked => {
            // Only a distinct head's own spec short of quota: said of the head, or the
            // spec list, which is fine, reads as the fault (explorer).
            // Unless no spec could ever fit: quota asked for to run it would never help
            // (scheduler explorer: a head no node can host was said to be over quota).
            let never = blocked_key(plan) == "ui.form.plan.outcome.blocked#never";
            let head = plan
                .candidates
                .iter()
                .find_map(|c| c.head.as_ref())
                .filter(|_| !never);
            let head_short = head.filter(|head| {
                plan.candidates.iter().all(|c| {
                    !c.quota_ok() && c.quota.iter().all(|l| l.is_ok() || l.spec == head.spec)
                })
            });
            let said = match head_short {
                Some(head) => text(
                    lang,
                    "ui.form.plan.outcome.blocked#head_quota",
                    &[("spec", name(&head.spec))],
                ),
                None => {
                    let key = match blocked_key(plan) {
                        // Counted at its most workers, which the form's workers box does
                        // not show: "fewer workers" named the box that was fine, and not
                        // Max workers, just raised (Ray explorer).
                        "ui.form.plan.outcome.blocked#quota" if autoscales => {
                            "ui.form.plan.outcome.blocked#quota_autoscaling"
                        }
                        // Only where the gang is too large for the pool: a head or a
                        // replica larger than any node is none of Max workers' doing.
                        "ui.form.plan.outcome.blocked#never"
                            if autoscales
                                && plan.candidates.iter().all(|c| {
                                    matches!(
                                        c.fit,
                                        Fit::Never {
                                            reason: shared::quota::NeverReason::PoolTooSmall { .. }
                                        }
                                    )
                                }) =>
                        {
                            "ui.form.plan.outcome.blocked#never_autoscaling"
                        }
                        key => key,
                    };
                    advice.after(lang, key, text(lang, key, &[]))
                }
            };
            ("outcome blocked", said)
        }
    }
}

/// The changes a draft can make that the verdict's advice may name: only those (novice
/// explorer: "fewer units per node" for a whole-node spec, which takes 1, and spot or
/// idle resources where the cluster offers the spec as neither).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Advice {
    /// More than one unit per node: fewer is a change to make.
    units: bool,
    /// The cluster offers one of the task's specs as spot instances.
    spot: bool,
    /// The cluster offers idle capacity of one of the task's specs now.
    idle: bool,
    /// Fewer workers would start now (offered below the verdict).
    fewer: bool,
}

impl Advice {
    /// What the draft in `cx` can change, on its cluster.
    fn of(cx: crate::form::FormCx, fewer: bool) -> Advice {
        let Some(cluster) = cx.cluster() else {
            return Advice::default();
        };
        cx.spec.with_untracked(|s| {
            let specs: Vec<_> = s
                .compute
                .specs
                .iter()
                .filter_map(|id| cluster.spec(id))
                .collect();
            Advice {
                units: s.compute.units_per_node > 1,
                spot: cluster.pools.iter().any(|pool| {
                    pool.kinds.contains(&shared::task::ResourceKind::Spot)
                        && specs
                            .iter()
                            .any(|spec| pool.nodes.iter().any(|n| n.hosts(spec)))
                }),
                idle: specs.iter().any(|spec| {
                    cluster
                        .idle_offers(&spec.id, None)
                        .any(|(_, o)| o.quantity > 0)
                }),
                fewer,
            }
        })
    }

    /// The words `key` of a wait for capacity outside Berth, where fewer workers would
    /// start it now (offered below): those that name them before the administrators
    /// (novice explorer: "ask the cluster's administrators" stood above a one-press fix).
    fn outside_key(self, key: &'static str) -> &'static str {
        match key {
            "queue.outside_berth" if self.fewer => "queue.outside_berth#fewer",
            key => key,
        }
    }

    /// `said`, the words of the blocked verdict `key`, with the ways out it names.
    fn after(self, lang: Lang, key: &str, said: String) -> String {
        let less = match (key, self.units) {
            ("ui.form.plan.outcome.blocked#quota", false) => "ui.form.plan.advice.less#workers",
            ("ui.form.plan.outcome.blocked#quota", true) => "ui.form.plan.advice.less#units",
            ("ui.form.plan.outcome.blocked#quota_autoscaling", false) => {
                "ui.form.plan.advice.less#max"
            }
            ("ui.form.plan.outcome.blocked#quota_autoscaling", true) => {
                "ui.form.plan.advice.less#max_units"
            }
            ("ui.form.plan.outcome.blocked#no_quota", _) => "ui.form.plan.advice.elsewhere",
            _ => return said,
        };
        let mut said = vec![said, text(lang, less, &[])];
        let kinds = match (self.spot, self.idle) {
            (true, true) => Some("ui.form.plan.advice.kinds#spot_idle"),
            (true, false) => Some("ui.form.plan.advice.kinds#spot"),
            (false, true) => Some("ui.form.plan.advice.kinds#idle"),
            (false, false) => None,
        };
        said.extend(kinds.map(|key| text(lang, key, &[])));
        if key == "ui.form.plan.outcome.blocked#no_quota" {
            said.push(text(lang, "ui.form.plan.advice.ask_quota", &[]));
        }
        // Chinese sentences, each ended by its "。", are run on with no space.
        said.join(if lang == Lang::Zh { "" } else { " " })
    }
}

/// Why no spec can be used, in the form's words ([`Plan::blocked_by`]).
fn blocked_key(plan: &Plan) -> &'static str {
    match plan.blocked_by() {
        Some(Blocked::NeverFits) => "ui.form.plan.outcome.blocked#never",
        // No quota at all for any of them: asking for less cannot help (sweep explorer:
        // "ask for less" at 0 workers, still refused).
        Some(Blocked::NoQuota) => "ui.form.plan.outcome.blocked#no_quota",
        Some(Blocked::OverQuota) => "ui.form.plan.outcome.blocked#quota",
        Some(Blocked::Mixed) | None => "ui.form.plan.outcome.blocked",
    }
}

/// One bar per dimension: `demand` against `limit`, labelled by `key` with `spec`.
fn bars(
    lang: Lang,
    key: &'static str,
    spec: String,
    demand: Resources,
    limit: Resources,
) -> impl IntoView {
    Dimension::ALL
        .iter()
        // A dimension neither asked for nor offered (GPUs of a CPU spec) says nothing:
        // "needs 0 of the 0 GPUs left" read as a fault.
        .filter(|&&d| demand.get(d) > 0 || limit.get(d) > 0)
        .map(|&d| {
            let (need, left) = (demand.get(d), limit.get(d));
            // Nothing left: any demand fills the bar.
            let percent = need
                .saturating_mul(100)
                .checked_div(left)
                .unwrap_or(if need == 0 { 0 } else { 100 })
                .min(100);
            let over = need > left;
            // Over its limit, the bar stands for the demand: what the limit covers is
            // drawn apart from the rest, so "by how much" shows too (a full bar read as
            // "just at the limit").
            let style = if over {
                format!(
                    "width: 100%; --within: {}%",
                    left.saturating_mul(100) / need
                )
            } else {
                format!("width: {percent}%")
            };
            let label = text(
                lang,
                key,
                &[
                    ("demand", need.to_string()),
                    ("left", left.to_string()),
                    // English names the unit with the demand ("needs 1 GPU; 64 left").
                    ("unit", d.unit_for(lang, need)),
                    ("spec", spec.clone()),
                ],
            );
            // The bar draws what its label says: hidden from screen readers, which read
            // the label once (explorer, round 4: each bar's sentence was read twice).
            view! {
                <div class="bar-row" class:over=over data-dimension=d.to_string()>
                    <span class="bar-label">{label}</span>
                    <span class="bar" aria-hidden="true">
                        <span class="fill" style=style></span>
                    </span>
                </div>
            }
        })
        .collect_view()
}

/// How current the numbers the form plans with are, which the form's refreshes of the
/// catalog's use learn (provided by the form): a panel that went on saying "32 left"
/// while the server could not be asked, or after its catalog changed, misled (network
/// explorer).
#[derive(Clone, Copy, Default)]
pub struct PlanFreshness {
    /// The last ask for the use failed: what the panel shows may be out of date.
    pub stale: RwSignal<bool>,
    /// The server's catalog is not the one the form opened with.
    pub catalog_changed: RwSignal<bool>,
}

/// The panel's verdict line, for a field far from the panel whose number the plan
/// counts (provided by the form, set by the panel once): a RayJob's Max workers is a
/// section below, where the panel was out of sight while it was typed (Ray explorer).
#[derive(Clone, Copy, Default)]
pub struct PlanEcho(pub RwSignal<Option<Memo<(&'static str, String)>>>);

impl PlanEcho {
    /// The verdict's class and words, once the panel is in the page.
    pub fn said(self) -> Option<(&'static str, String)> {
        self.0.get()?.try_get()
    }
}

/// The panel; `plan` is `None` while the compute section is incomplete.
#[component]
pub fn PlanView(
    /// The plan.
    #[prop(into)]
    plan: Signal<Option<Plan>>,
    /// Whether the task takes idle resources besides its kind's (reserved instances that
    /// accept idle): then, as for the idle kind, no offer at its level is said.
    #[prop(into, default = Signal::stored(false))]
    accepts_idle: Signal<bool>,
    /// The spec list as written: a spec the pool does not offer has no verdict of the
    /// plan's, and gets a row saying so (the numbering skipped it).
    #[prop(into, default = Signal::stored(Vec::new()))]
    specs: Signal<Vec<String>>,
    /// Why a queue would be so with none of Berth's tasks running, and the key of the
    /// words for it; none when Berth's tasks could free the room.
    #[prop(into, default = Signal::stored(None))]
    waits_outside: Signal<Option<(QueueReason, &'static str)>>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let form = use_context::<crate::form::FormCx>();
    let name = move |id: &str| match form {
        Some(cx) => crate::form::compute::spec_name(cx, id),
        None => id.to_owned(),
    };
    // The pool as its select names it, beside the panel.
    let pool_name = move |id: &str| match form {
        Some(cx) => crate::form::compute::pool_name(cx, id),
        None => id.to_owned(),
    };
    // The outcome, for screen readers, when it changes: the panel is drawn anew with each
    // plan, and a live region is heard only while it stays in the page (explorer, round
    // 19: "starts now" and "will queue" went unsaid). The drawn line is hidden from them,
    // so it is not read twice.
    // No idle stability chosen: any level serves (reserved capacity that accepts idle).
    // Watched, not read off the draft: the panel is drawn anew only when what it shows
    // changes, not at every keystroke.
    let any_level = match form {
        Some(cx) => cx.watch(|s| s.compute.idle_stability.is_none()),
        None => Signal::stored(false),
    };
    // A RayJob that autoscales counts its most workers (SPEC.md, section 4): said beside
    // the replicas, or "7 replicas" beside a workers box of 1 read as a fault (quota
    // explorer).
    let autoscaling_max = match form {
        Some(cx) => cx.watch(|s| {
            s.autoscales()
                .then(|| s.scheduled_workers())
                .filter(|max| *max > 0)
        }),
        None => Signal::stored(None),
    };
    // Whether the replicas are a Ray head's and workers (else a master's), in a form.
    let ray = match form {
        Some(cx) => cx.watch(|s| s.task_type().map(|t| t == shared::TaskType::RayJob)),
        None => Signal::stored(None),
    };
    let chosen_level = match form {
        Some(cx) => cx.watch(|s| s.compute.idle_stability),
        None => Signal::stored(None),
    };
    // With no plan, what it waits for: the choices it needs, or, once they are made, the
    // compute section's errors (newcomer explorer: asked to choose what was chosen).
    let pending = match form {
        Some(cx) => cx.watch(|s| {
            let chosen = !s.basic.cluster.is_empty()
                && s.compute.kind.is_some()
                && !s.compute.specs.is_empty();
            if chosen {
                "ui.form.plan.pending#chosen"
            } else {
                "ui.form.plan.pending"
            }
        }),
        None => Signal::stored("ui.form.plan.pending"),
    };
    // The fields whose errors hold the plan back, by name: "the errors in the compute
    // section" sent a newcomer looking for a red field there, and the one error, an
    // untouched stability level, showed only in the summary far below (novice explorer).
    let blocking = match form {
        Some(cx) => Memo::new(move |_| {
            // The form's findings: a number box's text that is no number is one.
            cx.report.with(|report| {
                let mut paths: Vec<String> = Vec::new();
                for issue in report.issues() {
                    let path = issue.path.to_string();
                    if issue.severity == shared::Severity::Error
                        && (path.starts_with("compute") || path.starts_with("ray.autoscaling"))
                        && !paths.contains(&path)
                    {
                        paths.push(path);
                    }
                }
                paths
            })
        }),
        None => Memo::new(|_| Vec::new()),
    };
    let waiting_for = move |l: Lang, key: &'static str| {
        let named = match key {
            "ui.form.plan.pending#chosen" => "ui.form.plan.pending#fields",
            "ui.form.plan.pending#kept" => "ui.form.plan.pending#kept_fields",
            _ => key,
        };
        blocking.with(|paths| {
            if named == key || paths.is_empty() {
                return text(l, key, &[]);
            }
            let places: Vec<String> = paths
                .iter()
                .map(|p| crate::components::field_place(l, p))
                .collect();
            text(l, named, &[("fields", list(l, &places))])
        })
    };
    // A draft that would not start now, to be offered a smaller size that would. Not an
    // autoscaling RayJob, whose range is counted at its maximum.
    let offered = Memo::new(move |_| {
        autoscaling_max.get().is_none()
            && plan.with(|p| {
                p.as_ref()
                    .is_some_and(|p| !matches!(p.outcome, Outcome::Now { .. }))
            })
    });
    // The most workers that would start it: offered below the verdict, which names them
    // before other ways.
    let fewer_found = match form {
        Some(cx) => Memo::new(move |_| offered.get().then(|| cx.most_workers_now()).flatten()),
        None => Memo::new(|_| None),
    };
    // Where no count of workers starts it (one replica larger than what is free now), the
    // most units per node that would (novice recheck: the offer was of workers only).
    let fewer_units = match form {
        Some(cx) => Memo::new(move |_| {
            (offered.get() && fewer_found.with(Option::is_none))
                .then(|| cx.most_units_now())
                .flatten()
        }),
        None => Memo::new(|_| None),
    };
    let advice = match form {
        Some(cx) => Memo::new(move |_| {
            // Read again with the plan: the specs and units are what it was made for.
            plan.track();
            Advice::of(cx, fewer_found.with(Option::is_some))
        }),
        None => Memo::new(|_| Advice::default()),
    };
    let headline = Memo::new(move |_| {
        let l = lang.get();
        plan.with(|p| match p {
            Some(p) => outcome(
                p,
                l,
                &name,
                (
                    any_level.get(),
                    waits_outside.get(),
                    autoscaling_max.get().is_some(),
                ),
                advice.get(),
            ),
            None => ("outcome pending", waiting_for(l, pending.get())),
        })
    });
    if let Some(echo) = use_context::<PlanEcho>() {
        echo.0.set(Some(headline));
    }
    let said = move || headline.with(|(_, said)| said.clone());
    // What a screen reader hears: while a field is typed in, the verdict once typing
    // pauses, as the field's own findings are; each key spoke it, a wrong "Starts now"
    // for the half-typed 4 of 40 among them (keyboard recheck). At once otherwise.
    let heard = RwSignal::new(headline.with_untracked(|(_, said)| said.clone()));
    let pause = super::Pause::new();
    Effect::new(move |_| {
        let now = said();
        let typing = document().active_element().is_some_and(|el| {
            matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                && el.closest("form").ok().flatten().is_some()
        });
        if typing {
            pause.then(move || {
                heard.try_set(now);
            });
        } else {
            pause.cancel();
            heard.set(now);
        }
    });
    // The last plan, kept greyed under the pending line while an error holds the plan: a
    // number box emptied to type another number shrank the panel to one line and grew it
    // back, moving the page at each retyped digit (idle explorer). Only while the place
    // and specs it was made for stay chosen: kept over a switch of pool, it showed the
    // old pool's verdict beside the new pool's errors (low-vision recheck).
    let shape = match form {
        Some(cx) => cx.watch(|s| {
            (
                s.basic.cluster.clone(),
                s.compute.kind,
                s.compute.instance_type,
                s.compute.pool.clone(),
                s.compute.specs.clone(),
                s.compute.head_spec.clone(),
            )
        }),
        None => Signal::stored(Default::default()),
    };
    let drawn = Memo::new(move |last: Option<&(Option<Plan>, _)>| {
        let shape = shape.get();
        let plan = plan.get().or_else(|| {
            last.filter(|(_, was)| *was == shape && pending.get() == "ui.form.plan.pending#chosen")
                .and_then(|(plan, _)| plan.clone())
        });
        (plan, shape)
    });
    // Its title's id is the form's, when it is in one (two forms may share a page).
    let title = form
        .map(|cx| cx.ids)
        .unwrap_or_default()
        .of("berth-plan-title");
    let labelled = title.clone();
    let heading = NodeRef::<leptos::html::H2>::new();
    let panel = NodeRef::<leptos::html::Section>::new();
    view! {
        // The verdict again, in a form too narrow for the panel beside the fields
        // (form.css): kept in sight at the window's foot while the compute fields are,
        // where the panel stands below them (at 150% zoom on a laptop, two screens below
        // the workers box: narrow-screen explorer). Unheard: the live region says it.
        // Whole on hover, where two lines cut it short (form.css).
        // Pressed, it brings the panel, where the verdict is whole (low-vision explorer:
        // cut to a line at 200 %, whole only in a title a mouse must rest on).
        <p class=move || headline.with(|(class, _)| format!("plan-bar {class}")) aria-hidden="true" data-testid="plan-bar" title=said
            on:click=move |_| {
                if let Some(panel) = panel.get_untracked() {
                    let _ = panel.focus();
                }
            }>{said}</p>
        // A stop of the keyboard's: where it stands below the fields (200% zoom), Tab
        // from the last compute field brought nothing of it into view, and no control
        // in it is there to take the focus (keyboard explorer); beside them, it is a box
        // that scrolls, which a keyboard scrolls only once it has the focus.
        <section class="plan" tabindex="0" aria-labelledby=labelled data-testid="plan" node_ref=panel
            on:focus=move |_| heading_in_view(heading)>
            <h2 id=title node_ref=heading>{move || text(lang.get(), "ui.form.plan.title", &[])}</h2>
            <p class="visually-hidden" aria-live="polite" data-testid="outcome-said">{move || heard.get()}</p>
            {use_context::<PlanFreshness>().map(|fresh| view! {
                <div role="status">
                    {move || fresh.catalog_changed.get().then(|| view! {
                        <p class="plan-note" data-testid="plan-catalog-changed">{move || text(lang.get(), "ui.form.plan.catalog_changed", &[])}</p>
                    })}
                    {move || (fresh.stale.get() && !fresh.catalog_changed.get()).then(|| view! {
                        <p class="plan-note" data-testid="plan-stale">{move || text(lang.get(), "ui.form.plan.stale", &[])}</p>
                    })}
                </div>
            })}
            {move || {
                let l = lang.get();
                // The plan was for a value since emptied or made wrong.
                let stale = plan.with(Option::is_none);
                let Some(plan) = drawn.with(|(plan, _)| plan.clone()) else {
                    return view! { <p class="outcome pending" data-testid="outcome" aria-hidden="true">{waiting_for(l, pending.get())}</p> }.into_any();
                };
                let (class, said) = if stale {
                    ("outcome pending", waiting_for(l, "ui.form.plan.pending#kept"))
                } else {
                    outcome(&plan, l, &name, (any_level.get(), waits_outside.get(), autoscaling_max.get().is_some()), advice.get())
                };
                // Made on a catalog the server has since changed, which the note above
                // says: greyed, not a green "Starts now" on a quota lowered since (lab
                // admin explorer).
                let outdated = use_context::<PlanFreshness>().is_some_and(|f| f.catalog_changed.get());
                let class = if outdated { "outcome pending" } else { class };
                let used = plan.used().map(|c| c.index);
                // The bars show the spec the task would use, else the first one.
                let shown = used
                    .and_then(|i| plan.candidate(i))
                    .or(plan.candidates.first())
                    .cloned();
                // Every quota line the spec draws on: the workers' and, for a Ray head of
                // another spec, the head's (a RayJob with no workers draws on the head's only).
                let quota_bars = shown.as_ref().map(|c| {
                    if c.quota.is_empty() {
                        return view! { <p class="meta">{text(l, "ui.form.plan.no_quota_needed", &[])}</p> }.into_any();
                    }
                    c.quota.iter().map(|q| match q.remaining {
                        Some(left) => view! {
                            <div class="bars quota" data-testid="quota-bars" data-spec=q.spec.clone()>
                                {bars(l, "ui.form.plan.bar.quota", name(&q.spec), q.requested, left)}
                            </div>
                        }.into_any(),
                        // The spec shown is the one used, or the first when none can be: never one skipped.
                        None => view! { <p class="meta">{text(l, "ui.form.plan.verdict.no_quota", &[("spec", name(&q.spec))])}</p> }.into_any(),
                    }).collect_view().into_any()
                });
                // Idle tasks run on the idle capacity at their stability level, not on the
                // pool's free capacity.
                let idle_kind = plan.kind == shared::task::ResourceKind::Idle;
                // Reserved capacity that starts on idle is measured against the idle offers,
                // of any stability when it chose none.
                let on_idle = shown.as_ref().is_some_and(|c| c.on_idle);
                let pool_key = if on_idle && any_level.get() {
                    "ui.form.plan.bar.idle#any"
                } else if idle_kind || on_idle {
                    "ui.form.plan.bar.idle"
                } else {
                    "ui.form.plan.bar.pool"
                };
                // Short of quota, how much of it is in use now: the advice to ask for less
                // did not fit a request already at its least (quota explorer). Parted
                // into the user's tasks in Berth and the use the platform counts outside
                // them, which Berth cannot end (novice explorer: whose use it was).
                let held: Vec<String> = shown.iter().flat_map(|c| c.quota.iter())
                    .filter(|q| !q.is_ok())
                    .filter_map(|q| {
                        let held = q.limit?.saturating_sub(q.remaining?);
                        if held == Resources::default() {
                            return None;
                        }
                        let outside = form.map(|cx| cx.quota_used_outside(plan.kind, &plan.pool, &q.spec))
                            .unwrap_or_default();
                        let berth = held.saturating_sub(outside);
                        let none = Resources::default();
                        let key = match (form, berth == none, outside == none) {
                            (None, _, _) => "ui.form.plan.quota_held",
                            (_, _, true) => "ui.form.plan.quota_held#berth",
                            (_, true, false) => "ui.form.plan.quota_held#outside",
                            (_, false, false) => "ui.form.plan.quota_held#both",
                        };
                        Some(text(l, key, &[
                            ("held", amount(l, &held)),
                            ("berth", amount(l, &berth)),
                            ("outside", amount(l, &outside)),
                            ("spec", name(&q.spec)),
                        ]))
                    })
                    .collect();
                let held = (!held.is_empty()).then(|| view! {
                    <p class="meta" data-testid="quota-held">{held.join(" ")}</p>
                });
                let quota_note = on_idle.then(|| view! {
                    <p class="meta" data-testid="on-idle-quota">{text(l, "ui.form.plan.on_idle_quota", &[])}</p>
                });
                // An idle task with no offer at its level would otherwise show nothing of
                // idle capacity at all. The offers are read for the spec the task would
                // use: with none usable there are none to tell of, offered or not.
                let no_idle = ((idle_kind || accepts_idle.get()) && used.is_some() && plan.idle.is_empty()).then(|| shown.as_ref().map(|c| {
                    // The levels below the chosen one that offer the spec now: what
                    // to choose to start sooner (quota explorer: left to guess).
                    let lower = form.and_then(|cx| {
                        let (cluster, chosen) = (cx.cluster()?, chosen_level.get()?);
                        // From the highest down. Only levels with an offer of their own:
                        // a lower one takes the same offers (at or above it), and would be
                        // named beside it for nothing.
                        let levels: Vec<_> = chosen
                            .lower()
                            .filter(|level| {
                                cluster.idle_offers(&c.spec, None).any(|(_, o)| o.stability == *level && o.quantity > 0)
                            })
                            .filter(|level| {
                                cx.plan_at_level(*level)
                                    .is_some_and(|p| matches!(p.outcome, Outcome::Now { .. }))
                            })
                            .collect();
                        let levels: Vec<String> = levels.iter()
                            .map(|level| text(l, level.label_key(), &[]))
                            .collect();
                        (!levels.is_empty()).then(|| text(l, "ui.form.plan.idle_lower", &[("levels", list(l, &levels))]))
                    });
                    view! {
                        <p class="idle" data-testid="idle">{text(l, if any_level.get() { "ui.form.plan.idle_none#any" } else { "ui.form.plan.idle_none" }, &[("spec", name(&c.spec))])}</p>
                        {lower.map(|said| view! { <p class="idle" data-testid="idle-lower">{said}</p> })}
                    }
                }));
                // Enough in all but no start now (a gang for want of whole nodes): the
                // bars take the wait's colour, not green beside "will queue" (explorer).
                let pool_bars = shown.as_ref().map(|c| view! {
                    <div class="bars pool" class:waits=c.quota_ok() && !c.fit.is_now() data-testid="pool-bars">{bars(l, pool_key, name(&c.spec), c.demand, c.available)}</div>
                });
                let idle = plan.idle.iter().map(|offer| {
                    let fragments = offer.fragments.iter()
                        .map(|f| text(l, "ui.form.plan.fragment", &[("nodes", f.nodes.to_string()), ("units", f.units.to_string())]))
                        .collect::<Vec<_>>();
                    let stability = text(l, offer.stability.label_key(), &[]);
                    // Every unit of the offer held by tasks now.
                    let said = if offer.quantity == 0 && fragments.is_empty() {
                        text(l, "ui.form.plan.idle#none_free", &[("spec", name(&offer.spec)), ("stability", stability)])
                    } else {
                        text(l, "ui.form.plan.idle", &[
                            ("spec", name(&offer.spec)),
                            ("quantity", offer.quantity.to_string()),
                            ("stability", stability),
                            ("fragments", list(l, &fragments)),
                        ])
                    };
                    view! {
                        <p class="idle" data-testid="idle">{said}</p>
                    }
                }).collect_view();
                // Would not start: the most workers that would, and a press to take them
                // (novice explorer: the smaller size that starts today was found by trial).
                let fewer = form
                    .filter(|_| !stale)
                    .and_then(|cx| fewer_found.get().map(|found| (cx, found)))
                    .map(|(cx, (workers, fits))| {
                        let spec = fits.used().map(|c| name(&c.spec)).unwrap_or_default();
                        let said = if workers == 0 {
                            text(l, "ui.form.plan.fewer#none", &[("spec", spec)])
                        } else {
                            text(l, "ui.form.plan.fewer", &[
                                ("workers", workers.to_string()),
                                ("replicas", fits.replicas.to_string()),
                                ("spec", spec),
                            ])
                        };
                        let take = move |_| {
                            cx.edit("compute.workers", |s| s.compute.workers = workers);
                            // The button goes with the wait it was for.
                            cx.focus_control("compute.workers");
                        };
                        view! {
                            <p class="fewer" data-testid="fewer-workers">
                                {said}" "
                                <button type="button" data-testid="fewer-workers-use" on:click=take>
                                    {text(l, "ui.form.plan.fewer_use", &[("workers", workers.to_string())])}
                                </button>
                            </p>
                        }
                    });
                let fewer_units = form
                    .filter(|_| !stale)
                    .and_then(|cx| fewer_units.get().map(|found| (cx, found)))
                    .map(|(cx, (units, fits))| {
                        let spec = fits.used().map(|c| name(&c.spec)).unwrap_or_default();
                        let take = move |_| {
                            cx.edit("compute.units_per_node", |s| s.compute.units_per_node = units);
                            cx.focus_control("compute.units_per_node");
                        };
                        view! {
                            <p class="fewer" data-testid="fewer-units">
                                {text(l, "ui.form.plan.fewer_units", &[("units", units.to_string()), ("spec", spec)])}" "
                                <button type="button" data-testid="fewer-units-use" on:click=take>
                                    {text(l, "ui.form.plan.fewer_units_use", &[("units", units.to_string())])}
                                </button>
                            </p>
                        }
                    });
                view! {
                    <p class=class data-testid="outcome" aria-hidden="true">{said}</p>
                    {fewer}
                    {fewer_units}
                    // Unheard while stale: the live region says it waits.
                    <div class="plan-body" class:stale=stale || outdated aria-hidden=stale.then_some("true") data-testid="plan-body">
                    // The maximum the plan was made for, the head aside: a plan kept from
                    // before the errors was headed by the range typed since (platform
                    // explorer: "5 replicas: the head and up to 1 worker").
                    <p class="meta" data-pool=plan.pool.clone() data-testid="replicas">{match autoscaling_max.get() {
                        Some(_) => text(l, "ui.form.plan.replicas#autoscaling", &[("replicas", plan.replicas.to_string()), ("max", plan.replicas.saturating_sub(1).to_string()), ("pool", pool_name(&plan.pool))]),
                        // Who they are, where a form says the task's type: "3 replicas"
                        // beside a workers box of 2 read as a fault (novice explorer).
                        None => {
                            let workers = plan.replicas.saturating_sub(1);
                            let key = match (ray.get(), workers) {
                                (None, _) => "ui.form.plan.replicas",
                                (Some(false), 0) => "ui.form.plan.replicas#master_alone",
                                (Some(false), _) => "ui.form.plan.replicas#master",
                                (Some(true), 0) => "ui.form.plan.replicas#head_alone",
                                (Some(true), _) => "ui.form.plan.replicas#head",
                            };
                            text(l, key, &[("replicas", plan.replicas.to_string()), ("workers", workers.to_string()), ("pool", pool_name(&plan.pool))])
                        }
                    }}</p>
                    {quota_bars}
                    {held}
                    {quota_note}
                    {pool_bars}
                    // What the seeds say of the pool's availability: a reference.
                    {(!idle_kind && !on_idle).then(|| view! { <p class="meta">{text(l, "ui.form.plan.pool_reference", &[])}</p> })}
                    {idle}
                    {no_idle}
                    <ol class="verdicts" data-testid="verdicts">
                        {
                            // By the list's order: the plan's verdicts, and a row for each
                            // spec it has none for (not hosted by the pool's nodes, too
                            // many units for it, another instance type, a repeat), so the
                            // numbering skips none.
                            // Walked in the list's order rather than sorted: a sort by
                            // index brought a copy of the standard library's stable sort.
                            let mut rows: Vec<(usize, Option<Candidate>, String)> = Vec::new();
                            specs.with(|specs| {
                                let end = plan.candidates.iter().map(|c| c.index + 1).max().unwrap_or(0);
                                for index in 0..end.max(specs.len()) {
                                    let before = rows.len();
                                    for c in plan.candidates.iter().filter(|c| c.index == index) {
                                        rows.push((index, Some(c.clone()), c.spec.clone()));
                                    }
                                    if let Some(spec) = specs.get(index)
                                        && rows.len() == before
                                        && !spec.is_empty()
                                    {
                                        rows.push((index, None, spec.clone()));
                                    }
                                }
                            });
                            let outside = waits_outside.get();
                            rows.into_iter().map(|(index, c, spec)| {
                                let is_used = used == Some(index);
                                // The spec it waits for, marked as the verdict is: green
                                // read as "fine" beside "will queue".
                                let queued = is_used && matches!(plan.outcome, Outcome::Queue { .. });
                                let said = match (&c, outside.as_ref().filter(|_| queued)) {
                                    // The wait the headline says, with none of Berth's
                                    // tasks running: the row said another cause below it
                                    // (coordinator explorer).
                                    (Some(_), Some((alone, key))) => {
                                        let why = text(l, advice.get().outside_key(key), &[("reason", reason(alone.to_message(), l, &name))]);
                                        text(l, "ui.form.plan.verdict.queue", &[("reason", why)])
                                    }
                                    (Some(c), None) => verdict(c, used, l, &name),
                                    (None, _) => text(l, "ui.form.plan.verdict.unusable", &[("pool", pool_name(&plan.pool))]),
                                };
                                let aside = c.as_ref().map(|c| {
                                    // A RayJob of no workers is its head alone: what one
                                    // worker would take is no pod's (explorer, round 19).
                                    let each = match &c.head {
                                        Some(head) if c.workers == 0 => text(l, "ui.form.plan.head_only", &[("spec", name(&head.spec)), ("amount", amount(l, &head.need))]),
                                        // A head of its own spec is a pod the list's spec
                                        // does not say: where it goes, and what it takes.
                                        Some(head) => text(l, "ui.form.plan.with_head", &[("amount", amount(l, &c.per_replica)), ("spec", name(&head.spec)), ("head", amount(l, &head.need))]),
                                        _ => text(l, "ui.form.plan.per_replica", &[("amount", amount(l, &c.per_replica))]),
                                    };
                                    view! {
                                        <span class="meta">{text(l, "ui.form.plan.aside", &[("text", each)])}</span>
                                    }
                                });
                                view! {
                                    <li class="verdict" class:used=is_used class:queued=queued data-spec=spec.clone()
                                        aria-current=is_used.then_some("true")>
                                        // The rank the spec list numbers its rows with, so a
                                        // verdict finds its row.
                                        <strong>{format!("{}. {}", index + 1, name(&spec))}</strong>
                                        {is_used.then(|| view! {
                                            // A full-width bracket brings its own space.
                                            {(l != Lang::Zh).then_some(" ")}
                                            <span class="used-mark">{text(l, "ui.form.plan.used", &[])}</span> })}
                                        {text(l, "ui.form.summary.after_place", &[])}{said}
                                        {aside}
                                    </li>
                                }
                            }).collect_view()
                        }
                    </ol>
                    </div>
                }.into_any()
            }}
        </section>
    }
}

/// Brings the plan's heading into view as the panel takes the focus: the browser centres
/// a focused box taller than the window, which hid the heading and the verdict under it.
fn heading_in_view(heading: NodeRef<leptos::html::H2>) {
    let Some(heading) = heading.get_untracked() else {
        return;
    };
    let height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let at = heading.get_bounding_client_rect();
    if at.top() < 0.0 || at.bottom() > height {
        // At the window's top, the verdict below it, with room above for the panel's
        // focus ring (recheck: at 200% zoom the ring was off the window).
        heading.scroll_into_view_with_bool(true);
        if let Some(window) = web_sys::window() {
            window.scroll_by_with_x_and_y(0.0, -16.0);
        }
    }
}
