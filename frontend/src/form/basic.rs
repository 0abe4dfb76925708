//! Basic information [基本信息]: where the task runs, who sees it, its name and type.

use super::context::{FormCx, wire};
use super::field::{CheckField, FixOffer, Lens, SelectField, TextField, text_lens};
use super::lists::TagsEditor;
use super::section::Section;
use leptos::prelude::*;
use shared::TaskType;
use shared::names::{NAME_SUFFIX_LEN, max_name_prefix_len, prefix_suggestion};

/// The id of the note said to a user in no project group.
const NO_GROUP_NOTE: &str = "berth-no-project-group";

/// The basic-information section.
#[component]
pub fn BasicSection() -> impl IntoView {
    let cx = FormCx::use_context();
    let regions = Signal::derive(move || {
        cx.catalog.with_value(|c| {
            c.regions
                .iter()
                .map(|r| (r.id.clone(), r.name.clone()))
                .collect()
        })
    });
    let clusters = cx.watch(move |s| {
        cx.catalog.with_value(|c| {
            c.region(&s.basic.region)
                .map(|r| {
                    r.clusters
                        .iter()
                        .map(|c| (c.id.clone(), c.name.clone()))
                        .collect()
                })
                .unwrap_or_default()
        })
    });
    let groups = Signal::derive(move || {
        cx.catalog.with_value(|c| {
            c.project_groups
                .iter()
                .map(|g| (g.id.clone(), g.name.clone()))
                .collect()
        })
    });
    // Only the user's own groups are offered (FormCx::provide): with none, no task of
    // theirs can pass, and an empty choice does not say why or what to do.
    let no_group = cx.catalog.with_value(|c| c.project_groups.is_empty());
    let group = text_lens!(cx, basic.project_group);
    let group_field = if no_group {
        view! {
            <SelectField path="basic.project_group" lens=group options=groups also_described_by=NO_GROUP_NOTE />
            <p class="help note" role="note" id=cx.id(NO_GROUP_NOTE) data-testid="no-project-group">
                {move || cx.text("ui.form.no_project_group")}
            </p>
        }
        .into_any()
    } else {
        view! { <SelectField path="basic.project_group" lens=group options=groups /> }.into_any()
    };
    let zones = Signal::derive(move || {
        cx.catalog.with_value(|c| {
            c.time_zones
                .iter()
                .map(|z| (z.clone(), z.clone()))
                .collect()
        })
    });
    // What a switch of region or cluster left out, said while choosing back brings it
    // back (the draft as the switch left it, [`FormCx::switch`]): it was dropped without
    // a word, a RayJob's head spec becoming "the workers' spec" unseen (reshaping
    // explorer); said after any other change, it promised what choosing back no longer
    // did, and outlived a form started over (recheck).
    let left_out = RwSignal::new(None::<LeftOut>);
    // Choosing another region keeps the cluster only when the new region has it (its
    // own pools and specs), or takes the region's only one. Arrowing on
    // through the regions starts again from the draft before ([`FormCx::switch`]), so
    // the regions passed trim nothing.
    let region = Lens {
        get: cx.watch(move |s| s.basic.region.clone()),
        set: Callback::new(move |v: String| {
            cx.switch("basic.region", |s| {
                let before = cx
                    .catalog
                    .with_value(|c| c.region(&s.basic.region).map(|r| r.name.clone()));
                s.basic.region = v;
                cx.catalog.with_value(|c| {
                    if c.cluster(&s.basic.region, &s.basic.cluster).is_none() {
                        s.basic.cluster =
                            match c.region(&s.basic.region).map(|r| r.clusters.as_slice()) {
                                Some([only]) => only.id.clone(),
                                _ => String::new(),
                            };
                    }
                    let items = keep_what_the_cluster_has(s, c);
                    left_out.set(LeftOut::of(items, before, s));
                });
            });
        }),
    };
    // The cluster filters the pools and specs (SPEC.md section 1): moving the draft to
    // another (a clone's) drops those it does not have, which stayed as errors and hid
    // what the new cluster needs said (no spot instances there, say).
    let cluster = Lens {
        get: cx.watch(move |s| s.basic.cluster.clone()),
        set: Callback::new(move |v: String| {
            cx.switch("basic.cluster", |s| {
                let before = cx.catalog.with_value(|c| {
                    c.cluster(&s.basic.region, &s.basic.cluster)
                        .map(|c| c.name.clone())
                });
                s.basic.cluster = v;
                let items = cx.catalog.with_value(|c| keep_what_the_cluster_has(s, c));
                left_out.set(LeftOut::of(items, before, s));
            });
        }),
    };
    let task_type = Lens {
        get: cx.watch(move |s| s.basic.task_type.map(|t| wire(&t)).unwrap_or_default()),
        set: Callback::new(move |v: String| {
            // The other type's fields go, as the shared crate drops them.
            cx.switch("basic.task_type", |s| {
                s.basic.task_type = super::context::unwire(&v);
                *s = std::mem::take(s).normalized();
            });
        }),
    };
    let types = Signal::derive(|| {
        TaskType::ALL
            .iter()
            .map(|t| (wire(t), t.as_str().to_owned()))
            .collect()
    });
    view! {
        <Section path="basic">
            <SelectField path="basic.region" lens=region options=regions />
            <SelectField path="basic.cluster" lens=cluster options=clusters />
            <LeftOutNote left_out />
            {group_field}
            <SelectField path="basic.task_type" lens=task_type options=types />
            <TextField path="basic.name_prefix" lens=text_lens!(cx, basic.name_prefix) also_described_by=NAME_PATTERN>
                <NamePattern />
            </TextField>
            <CheckField path="basic.visible_in_group"
                get=cx.watch(move |s| s.basic.visible_in_group)
                set=Callback::new(move |v| cx.spec.update(|s| s.basic.visible_in_group = v)) />
            <SelectField path="basic.time_zone" lens=text_lens!(cx, basic.time_zone) options=zones also_described_by=ZONE_NOTE />
            <ZoneNotOffered />
            <TagsEditor />
        </Section>
    }
}

/// What a switch of region or cluster dropped from the draft, by catalog names, the
/// region or cluster chosen before it, and the draft it left, which it is said of.
#[derive(Clone, PartialEq)]
struct LeftOut {
    /// `(message key, name)`: a spec, the head's spec, the pool.
    items: Vec<(&'static str, String)>,
    /// The region's or cluster's name before the switch, which brings them back (none
    /// when no cluster was chosen).
    before: Option<String>,
    /// The draft as the switch left it.
    after: shared::TaskSpec,
}

impl LeftOut {
    fn of(
        items: Vec<(&'static str, String)>,
        before: Option<String>,
        after: &shared::TaskSpec,
    ) -> Option<LeftOut> {
        (!items.is_empty()).then(|| LeftOut {
            items,
            before,
            after: after.clone(),
        })
    }
}

/// Drops the pool and the specs (the head's too) the draft's cluster does not have; with
/// no cluster chosen yet (a region of several), those no cluster of its region has: the
/// old cluster's stayed, shown by their names, until a cluster was picked. Returns what
/// it dropped, by catalog names.
fn keep_what_the_cluster_has(
    s: &mut shared::TaskSpec,
    catalog: &shared::Catalog,
) -> Vec<(&'static str, String)> {
    let mut items = Vec::new();
    let clusters = match catalog.cluster(&s.basic.region, &s.basic.cluster) {
        Some(cluster) => std::slice::from_ref(cluster),
        None => match catalog.region(&s.basic.region) {
            Some(region) => region.clusters.as_slice(),
            None => return items,
        },
    };
    // Named as the spec list names a spec no cluster chosen offers.
    let spec_name = |id: &str| {
        super::compute::in_any_cluster(catalog, id)
            .map_or_else(|| id.to_owned(), super::compute::named)
    };
    let has_spec = |id: &String| clusters.iter().any(|c| c.specs.iter().any(|x| &x.id == id));
    if let Some(pool) = s
        .compute
        .pool
        .take_if(|p| !clusters.iter().any(|c| c.pools.iter().any(|x| &x.id == p)))
    {
        let name = catalog
            .regions
            .iter()
            .flat_map(|r| &r.clusters)
            .flat_map(|c| &c.pools)
            .find(|x| x.id == pool)
            .map_or(pool.clone(), |x| x.name.clone());
        items.push(("ui.form.left_out.pool", name));
    }
    for spec in s.compute.specs.extract_if(.., |id| !has_spec(id)) {
        items.push(("ui.form.left_out.spec", spec_name(&spec)));
    }
    if let Some(head) = s.compute.head_spec.take_if(|h| !has_spec(h)) {
        items.push(("ui.form.left_out.head", spec_name(&head)));
    }
    items
}

/// Says what a switch of region or cluster left out, while the draft is as it left it;
/// in the page from the start, so that it is read as it fills.
#[component]
fn LeftOutNote(left_out: RwSignal<Option<LeftOut>>) -> impl IntoView {
    let cx = FormCx::use_context();
    let said = move || {
        left_out.with(|l| {
            // The draft is compared only while there is a note: no keystroke pays for it.
            let l = l.as_ref().filter(|l| cx.spec.with(|s| *s == l.after))?;
            let lang = cx.lang();
            let items: Vec<String> = l
                .items
                .iter()
                .map(|(key, name)| shared::messages::text(lang, key, &[("name", name.clone())]))
                .collect();
            let key = match l.before {
                Some(_) => "ui.form.left_out",
                None => "ui.form.left_out#none",
            };
            Some(shared::messages::text(
                lang,
                key,
                &[
                    ("items", shared::messages::list(lang, &items)),
                    ("before", l.before.clone().unwrap_or_default()),
                ],
            ))
        })
    };
    view! {
        <p class="note left-out" role="status" data-testid="left-out">{said}</p>
    }
}

/// The id of [`ZoneNotOffered`]'s note, read out with the time zone's choice.
const ZONE_NOTE: &str = "f-basic-time_zone-note";

/// Said when the browser's time zone is not one the catalog offers and the form holds
/// the zone a blank form falls back to then (the catalog's first, which may be hours
/// off), so that choice does not pass unseen; a zone a clone or draft brings is its own.
///
/// When another zone than the browser's is chosen (a colleague's clone keeps theirs:
/// zone explorer), says that the task's times and its pods' clock will be in it.
#[component]
fn ZoneNotOffered() -> impl IntoView {
    let cx = FormCx::use_context();
    let own = super::draft::browser_time_zone();
    let mine = own
        .as_deref()
        .and_then(|zone| cx.catalog.with_value(|c| super::draft::offered_as(c, zone)));
    let browser = own.clone().filter(|_| mine.is_none());
    let fallback = cx
        .catalog
        .with_value(|c| super::draft::time_zone_for(c, browser.as_deref()));
    let at_fallback = cx.watch(move |s| s.basic.time_zone == fallback);
    // Named as the list names it when it is offered, else as the browser does (a clone
    // of another zone from a browser the list leaves out said nothing: recheck).
    let not_offered = browser.is_some();
    let not_mine = mine.or(own).map(|mine| {
        // A `TZ` env var of the spec's or the user's sets the pods' clock instead: then
        // only the times are said to be in the zone (recheck).
        let tz_set = cx.catalog.with_value(|c| c.persistent_env.iter().any(|v| v.name == "TZ"));
        let chosen = cx.watch(move |s| {
            let own_tz = tz_set || s.environment.env.iter().any(|v| v.name == "TZ");
            (s.basic.time_zone.clone(), own_tz)
        });
        move || {
            let (zone, own_tz) = chosen.get();
            // The note that the browser's zone is not offered says it then.
            if not_offered && at_fallback.get() {
                return None;
            }
            // The browser's zone named as the list names it (`Asia/Kolkata`, not
            // Chromium's `Asia/Calcutta`: recheck).
            let mine = mine.clone();
            (!zone.is_empty() && zone != mine && !super::draft::same_zone(&zone, &mine)).then(|| {
                let key = if own_tz {
                    "ui.form.time_zone_not_browsers#times"
                } else {
                    "ui.form.time_zone_not_browsers"
                };
                view! {
                    <p class="help note" role="note" data-testid="zone-not-browsers">
                        {move || shared::messages::text(cx.lang(), key, &[("browser", mine.clone()), ("zone", zone.clone())])}
                    </p>
                }
            })
        }
    });
    let note = browser.map(|zone| {
        move || {
            let zone = zone.clone();
            at_fallback.get().then(|| view! {
                <p class="help note" role="note" data-testid="zone-not-offered">
                    {move || shared::messages::text(cx.lang(), "ui.form.time_zone_not_offered", &[("zone", zone.clone())])}
                </p>
            })
        }
    });
    // Always in the page, empty while there is nothing to say: the choice's
    // `aria-describedby` names it.
    view! { <div id=cx.id(ZONE_NOTE)>{note}{not_mine}</div> }
}

/// Beside a name prefix its findings refuse, one made of it by the rules, and a press
/// that takes it ("My Run_2" → "my-run-2"; novice explorer: told the rule, left to apply
/// it, letter by letter).
#[component]
fn NameFix() -> impl IntoView {
    let cx = FormCx::use_context();
    let found = cx.findings_at("basic.name_prefix", false);
    let moves = cx.watch(move |s| {
        (
            s.basic.name_prefix.clone(),
            s.basic.task_type,
            s.scheduled_workers(),
        )
    });
    let made = Memo::new(move |_| {
        let broken = found.with(|f| {
            f.iter().any(|i| {
                matches!(
                    i.code.code(),
                    "basic.name_prefix.invalid_chars"
                        | "basic.name_prefix.bad_start"
                        | "basic.name_prefix.bad_end"
                        | "basic.name_prefix.too_long"
                )
            })
        });
        let (prefix, task_type, workers) = moves.get();
        // With no type yet, the shorter limit, a RayJob's: fits either.
        let max = max_name_prefix_len(task_type.unwrap_or(TaskType::RayJob), workers);
        broken
            .then(|| prefix_suggestion(&prefix, max))
            .flatten()
            .filter(|made| *made != prefix)
    });
    // A fix that drops a zero-width character reads as the text typed: it says so
    // (pasting researcher: "Use “bert-ft”" beside `bert-ft`).
    let key = Signal::derive(move || {
        if moves.with(|(prefix, ..)| prefix.contains(shared::validate::ZERO_WIDTH)) {
            "ui.form.name_fix#invisible"
        } else {
            "ui.form.name_fix"
        }
    });
    view! {
        <FixOffer path="basic.name_prefix" test_id="name-fix" made=made.into() key arg="prefix"
            set=|s, take| s.basic.name_prefix = take />
    }
}

/// The id of the final name pattern's line.
const NAME_PATTERN: &str = "berth-name-pattern";

/// The final name the task gets and the prefix's live maximum length, which depends on
/// the type and the replica count.
#[component]
fn NamePattern() -> impl IntoView {
    let cx = FormCx::use_context();
    // Only the name, the type and the replica count move the line.
    let moves = cx.watch(move |s| {
        (
            s.basic.name_prefix.clone(),
            s.basic.task_type,
            s.scheduled_workers(),
        )
    });
    let line = Memo::new(move |_| {
        let (prefix, task_type, workers) = moves.get();
        let length = prefix.chars().count();
        let prefix = if prefix.is_empty() {
            cx.text("ui.form.prefix_placeholder")
        } else {
            prefix
        };
        let pattern = format!("{prefix}-{}", "x".repeat(NAME_SUFFIX_LEN - 1));
        match task_type {
            Some(t) => shared::messages::text(
                cx.lang(),
                "ui.form.name_pattern",
                &[
                    ("pattern", pattern),
                    ("max", max_name_prefix_len(t, workers).to_string()),
                    ("length", length.to_string()),
                ],
            ),
            None => shared::messages::text(
                cx.lang(),
                "ui.form.name_pattern#no_type",
                &[("pattern", pattern)],
            ),
        }
    });
    // Read with the name box, not spoken at each letter typed in it or each change of
    // the workers it counts with (keyboard explorer: four live regions spoke at once).
    // The offer of a prefix that keeps the rules on the same line, beside the name it
    // makes: a line of its own came and went with each invalid name, and moved the form
    // below it (keystroke bench: 2.4 to 3.0 times a bare input's time at CPU 4×).
    view! {
        <p class="name-pattern">
            <span id=cx.id(NAME_PATTERN) data-testid="name-pattern">{move || line.get()}</span>
            <NameFix />
        </p>
    }
}
