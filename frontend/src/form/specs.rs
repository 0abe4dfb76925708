//! The spec-priority list [实例规格]: specs tried high to low. Rows are added, removed
//! and reordered with the buttons, with Alt+↑/Alt+↓ on a row, or by dragging a row.

use super::compute::spec_options;
use super::context::{FormCx, field_key};
use super::field::{Findings, Lens, SelectField};
use super::lists::focus_first_in;
use leptos::prelude::*;

const PATH: &str = "compute.specs";

/// Moves row `from` to `to` and keeps the focus on the moved spec; `moved` says where
/// it went (a live region reads it out: the focus alone does not tell a screen reader
/// that the order changed).
/// Moves the spec at `from` to `to`; the keyboard goes with it, to its select, or with
/// `arrow` to that arrow of the row's (`".up"`, `".down"`), or the other when the row
/// reached the list's end (keyboard explorer: a press of ↓ left the keyboard on the
/// select, to Tab back for the next).
fn move_row(
    cx: FormCx,
    from: usize,
    to: usize,
    moved: RwSignal<String>,
    arrow: Option<&'static str>,
) {
    let len = cx.spec.with_untracked(|s| s.compute.specs.len());
    if from >= len || to >= len || from == to {
        return;
    }
    let mut spec = String::new();
    cx.edit(PATH, |s| {
        spec = s.compute.specs.remove(from);
        s.compute.specs.insert(to, spec.clone());
    });
    moved.set(shared::messages::text(
        cx.lang.get_untracked(),
        "ui.form.specs.moved",
        &[
            // Named as its option is: the id is no word the list shows.
            ("spec", super::compute::spec_name(cx, &spec)),
            ("rank", (to + 1).to_string()),
            ("count", len.to_string()),
        ],
    ));
    let select = cx.control_id(&format!("{PATH}[{to}]"));
    let Some(arrow) = arrow else {
        focus_first_in(&select);
        return;
    };
    leptos::task::spawn_local(async move {
        // The rows are drawn again a few effect rounds after the change.
        for _ in 0..8 {
            leptos::task::tick().await;
        }
        let row = document()
            .get_element_by_id(&select)
            .and_then(|el| el.closest("li").ok().flatten());
        let button = |selector: &str| {
            row.as_ref()
                .and_then(|row| row.query_selector(selector).ok().flatten())
                .and_then(|el| {
                    wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlButtonElement>(el).ok()
                })
                .filter(|b| !b.disabled())
        };
        let other = if arrow == ".up" { ".down" } else { ".up" };
        if let Some(button) = button(arrow).or_else(|| button(other)) {
            let _ = button.focus();
        }
    });
}

/// The priority list editor.
#[component]
pub fn SpecsEditor() -> impl IntoView {
    let cx = FormCx::use_context();
    let len = cx.watch(move |s| s.compute.specs.len());
    // The spec the task would use is one it waits for: marked as the verdict is, not in
    // the green of a start.
    let queues = Memo::new(move |_| {
        cx.plan.with(|p| {
            p.as_ref()
                .is_some_and(|p| matches!(p.outcome, shared::quota::Outcome::Queue { .. }))
        })
    });
    // One list for every row, recomputed only when it changes.
    let offered = spec_options(cx, false);
    let findings = cx.findings_at(PATH, false);
    // Nothing to choose from: said here, or the list would only look broken. Spot has a
    // finding of its own for it (`compute.spot.unavailable`), and a kind not yet chosen
    // offers nothing by design.
    let kind = cx.watch(|s| s.compute.kind);
    let none_offered = move || {
        offered.with(Vec::is_empty)
            && kind
                .get()
                .is_some_and(|k| k != shared::task::ResourceKind::Spot)
    };
    let id = cx.control_id(PATH);
    let (label_id, help_id, msgs_id) = (
        format!("{id}-label"),
        format!("{id}-help"),
        format!("{id}-msgs"),
    );
    let described = format!("{msgs_id} {help_id}");
    let labelled = label_id.clone();
    let dragged = RwSignal::new(None::<usize>);
    // The row a dragged row is over: it is marked where the dragged one would land (a
    // line above it when moving up, below when moving down), and the dragged row is
    // dimmed. The list itself moves only on the drop: moved at each row passed, the
    // specs would be checked and the plan redrawn under the pointer.
    let over = RwSignal::new(None::<usize>);
    let lands = move |i: usize| {
        dragged
            .get()
            .zip(over.get())
            .filter(|&(from, at)| at == i && from != i)
            .map(|(from, _)| from < i)
    };
    let moved = RwSignal::new(String::new());
    let add = move |_| {
        cx.edit(PATH, |s| s.compute.specs.push(String::new()));
        // The draft's length, not the watched one: that follows only after the change.
        let last = cx.spec.with_untracked(|s| s.compute.specs.len()) - 1;
        let row = format!("{PATH}[{last}]");
        cx.added_row(&row);
        focus_first_in(&cx.control_id(&row));
    };
    view! {
        <div class="list specs" data-field=PATH role="group" aria-labelledby=labelled
            aria-describedby=described>
            <h3 id=label_id>{move || cx.text(&field_key(PATH, "label"))}</h3>
            <p class="help" id=help_id>
                {move || cx.text(&field_key(PATH, "help"))}
                // Chinese sentences join with no space.
                {move || (cx.lang() != shared::Lang::Zh).then_some(" ")}
                {move || cx.text("ui.form.specs.reorder_help")}
            </p>
            <Findings id=msgs_id findings=findings />
            {move || none_offered().then(|| view! {
                <p class="note" data-testid="specs-none">{move || cx.text("ui.form.specs.none_offered")}</p>
            })}
            // Dragged out of the list, it would land nowhere: no row stays marked.
            <ol class="spec-list" on:dragleave=move |ev| {
                let node = |t: Option<web_sys::EventTarget>| {
                    t.and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Node>(t).ok())
                };
                let inside = node(ev.related_target())
                    .zip(node(ev.current_target()))
                    .is_some_and(|(to, list)| list.contains(Some(&to)));
                if !inside && over.get_untracked().is_some() {
                    over.set(None);
                }
            }>
                {move || (0..len.get()).map(|i| {
                    let row = format!("{PATH}[{i}]");
                    let lens = Lens {
                        get: cx.watch(move |s| s.compute.specs.get(i).cloned().unwrap_or_default()),
                        set: Callback::new(move |v: String| cx.spec.update(|s| {
                            if let Some(spec) = s.compute.specs.get_mut(i) {
                                *spec = v;
                            }
                        })),
                    };
                    let used = move || cx.used_spec.get() == Some(i);
                    let label = move |key: &'static str| {
                        move || shared::messages::text(cx.lang(), key, &[("rank", (i + 1).to_string())])
                    };
                    view! {
                        <li class="row" class:used=used class:queued=move || used() && queues.get()
                            data-row=row.clone() draggable="true"
                            class:dragging=move || dragged.get() == Some(i)
                            class:drop-above=move || lands(i) == Some(false)
                            class:drop-below=move || lands(i) == Some(true)
                            on:dragstart=move |ev| {
                                // Firefox starts a drag only with data set.
                                if let Some(data) = ev.data_transfer() {
                                    let _ = data.set_data("text/plain", &(i + 1).to_string());
                                }
                                dragged.set(Some(i));
                            }
                            on:dragover=move |ev| {
                                ev.prevent_default();
                                if over.get_untracked() != Some(i) {
                                    over.set(Some(i));
                                }
                            }
                            on:drop=move |ev| {
                                ev.prevent_default();
                                if let Some(from) = dragged.get_untracked() {
                                    move_row(cx, from, i, moved, None);
                                }
                                dragged.set(None);
                                over.set(None);
                            }
                            // Dropped elsewhere, or Escape: nothing moves, nothing stays marked.
                            on:dragend=move |_| {
                                dragged.set(None);
                                over.set(None);
                            }
                            on:keydown=move |ev| {
                                if ev.alt_key() {
                                    match ev.key().as_str() {
                                        // At the top there is nowhere to go, but the select's
                                        // own Alt+↑ (open its list) would still take the key.
                                        "ArrowUp" => {
                                            ev.prevent_default();
                                            if i > 0 {
                                                move_row(cx, i, i - 1, moved, None);
                                            }
                                        }
                                        "ArrowDown" => { ev.prevent_default(); move_row(cx, i, i + 1, moved, None); }
                                        _ => {}
                                    }
                                }
                            }>
                            // The spec used is marked by a sign too, not by its colour alone,
                            // which forced colours take away (low-vision explorer); in room kept
                            // for it, so no row moves as the plan's choice does. Said in the
                            // select's name (keyboard explorer: heard nowhere in the list).
                            <span class="rank" aria-hidden="true">{i + 1}<span class="used-tick" data-testid="spec-used"
                                title=move || used().then(|| cx.text("ui.form.specs.used_mark"))>{move || used().then_some("✓")}</span></span>
                            // Each row's label repeats the list's: its name says which row, after
                            // the label's own words (the name a voice user speaks).
                            // A spec a switch of pool or instance type left here is named as
                            // the plan names it, not by its id (reshaping explorer).
                            <SelectField path=row.clone() no_help=true lens options=offered
                                aria_label=Signal::derive(move || label(if used() { "ui.form.specs.row#used" } else { "ui.form.specs.row" })())
                                kept_name=super::compute::spec_name />
                            <button type="button" class="up" data-testid=format!("up-{row}") disabled={ i == 0 }
                                aria-label=label("ui.form.specs.up") on:click=move |_| move_row(cx, i, i.saturating_sub(1), moved, Some(".up"))>"↑"</button>
                            <button type="button" class="down" data-testid=format!("down-{row}")
                                disabled=move || { i + 1 >= len.get() }
                                aria-label=label("ui.form.specs.down") on:click=move |_| move_row(cx, i, i + 1, moved, Some(".down"))>"↓"</button>
                            <button type="button" class="remove" data-testid=format!("remove-{row}")
                                aria-label=label("ui.form.specs.remove")
                                on:click=move |ev| {
                                    cx.edit(PATH, |s| {
                                        if i < s.compute.specs.len() {
                                            s.compute.specs.remove(i);
                                        }
                                    });
                                    super::lists::focus_after_removal(&ev, PATH, i);
                                }>"×"</button>
                        </li>
                    }
                }).collect_view()}
            </ol>
            // The mark said in words under the list, for the eye that cannot hover: its
            // tooltip was the keyboard's nowhere (low-vision recheck). Heard in each
            // select's name already.
            <p class="note" aria-hidden="true" data-testid="specs-used-legend" hidden=move || len.get() == 0>
                {move || cx.text("ui.form.specs.used_mark")}
            </p>
            <p class="visually-hidden" aria-live="polite" data-testid="specs-moved">{move || moved.get()}</p>
            // Worded as a switch of region or cluster says what it left out.
            <p class="note left-out" role="status" data-testid="specs-dropped">{move || cx.specs_dropped.with(|dropped| {
                // The draft is compared only while there is a note: no keystroke pays
                // for it.
                let super::context::SpecsLeftOut { kind, specs: ids, .. } =
                    dropped.as_ref().filter(|d| cx.spec.with(|s| *s == d.after))?;
                let lang = cx.lang();
                let items: Vec<String> = ids.iter()
                    .map(|id| shared::messages::text(lang, "ui.form.left_out.spec", &[("name", super::compute::spec_name(cx, id))]))
                    .collect();
                let before = kind.map(|k| crate::i18n::line_start(&cx.text(&format!("resource_kind.{}", super::context::wire(&k)))));
                Some(shared::messages::text(
                    lang,
                    if before.is_some() { "ui.form.left_out" } else { "ui.form.left_out#none" },
                    &[("items", shared::messages::list(lang, &items)), ("before", before.unwrap_or_default())],
                ))
            })}</p>
            <button type="button" class="add" id=id data-testid="add-compute.specs" on:click=add>
                {move || cx.text("ui.form.add.compute.specs")}
            </button>
        </div>
    }
}
