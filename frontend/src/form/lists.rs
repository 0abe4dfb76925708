//! The list editors: tags, env vars and mounts. Each row's controls are named by the
//! row's path (`environment.env[2].value`); a list re-renders only when its length
//! changes, so typing in a row keeps the focus.

use super::context::{FormCx, field_key};
use super::field::{
    CheckField, Control, Findings, GroupFindings, Lens, SelectField, TextField, pasted,
};
use leptos::prelude::*;
use shared::TaskSpec;
use shared::task::{EnvVar, Mount, Tag};

/// Accessors for one list of the draft.
struct List<T: 'static> {
    path: &'static str,
    get: fn(&TaskSpec) -> &Vec<T>,
    get_mut: fn(&mut TaskSpec) -> &mut Vec<T>,
}

impl<T> Clone for List<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for List<T> {}

impl<T: Clone + Default + Send + Sync + 'static> List<T> {
    fn len(self, cx: FormCx) -> Signal<usize> {
        cx.watch(move |s| (self.get)(s).len())
    }

    /// A lens on one text of row `i`.
    fn text(self, cx: FormCx, i: usize, read: fn(&T) -> String, write: fn(&mut T, String)) -> Lens {
        Lens {
            get: cx.watch(move |s| (self.get)(s).get(i).map(read).unwrap_or_default()),
            set: Callback::new(move |v: String| {
                cx.spec.update(|s| {
                    if let Some(row) = (self.get_mut)(s).get_mut(i) {
                        write(row, v);
                    }
                });
            }),
        }
    }

    fn add(self, cx: FormCx) {
        cx.edit(self.path, |s| (self.get_mut)(s).push(T::default()));
        let row = format!(
            "{}[{}]",
            self.path,
            cx.spec.with_untracked(|s| (self.get)(s).len()) - 1
        );
        cx.added_row(&row);
        focus_first_in(&cx.control_id(&row));
    }

    fn remove(self, cx: FormCx, i: usize) {
        cx.edit(self.path, |s| {
            let list = (self.get_mut)(s);
            if i < list.len() {
                list.remove(i);
            }
        });
    }
}

/// Focuses the control with id `prefix`, or the first one inside the row of that id
/// (`f-environment-env-0-name`), once the DOM has it (the view updates on the
/// executor's next turn).
pub(super) fn focus_first_in(prefix: &str) {
    let selector = format!(
        ":is(input, select, textarea)[id='{prefix}'], :is(input, select, textarea)[id^='{prefix}-']"
    );
    leptos::task::spawn_local(async move {
        // A new row is built a few effect rounds after the change (the watched length
        // follows the draft, then the list renders): wait for it, boundedly.
        for _ in 0..8 {
            leptos::task::tick().await;
            let found = document().query_selector(&selector).ok().flatten();
            if let Some(el) =
                found.and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
            {
                let _ = el.focus();
                return;
            }
        }
    });
}

/// The list's own header: label, help, findings at the list's path, add button.
#[component]
fn ListShell(
    /// The list's path.
    path: &'static str,
    /// Adds a row.
    on_add: Callback<()>,
    /// The rows.
    children: Children,
) -> impl IntoView {
    let cx = FormCx::use_context();
    let id = cx.control_id(path);
    let (label_id, help_id, msgs_id) = (
        format!("{id}-label"),
        format!("{id}-help"),
        format!("{id}-msgs"),
    );
    let described = format!("{msgs_id} {help_id}");
    let labelled = label_id.clone();
    let findings = cx.findings_at(path, false);
    let (label, help) = (field_key(path, "label"), field_key(path, "help"));
    view! {
        <div class="list" data-field=path role="group" aria-labelledby=labelled
            aria-describedby=described>
            <h3 id=label_id>{move || cx.text(&label)}</h3>
            <p class="help" id=help_id>{move || cx.text(&help)}</p>
            <Findings id=msgs_id findings=findings />
            {children()}
            <p class="visually-hidden removed-said" aria-live="polite" data-testid=format!("removed-{path}")></p>
            <button type="button" class="add" data-testid=format!("add-{path}") id=id
                on:click=move |_| on_add.run(())>
                {move || cx.text(&format!("ui.form.add.{path}"))}
            </button>
        </div>
    }
}

/// After row `index` of the list at `list` was removed, moves the focus to the remove
/// button now in its place (the next row), else the one before, else the add button:
/// a keyboard user keeps their place instead of falling back to the top of the page.
/// Within the form the button was in: a page may hold two.
pub(crate) fn focus_after_removal(
    click: &leptos::ev::MouseEvent,
    list: &'static str,
    index: usize,
) {
    crate::components::refocus_after_removal(
        click,
        "form",
        index,
        move |i| format!("[data-testid=\"remove-{list}[{i}]\"]"),
        format!("[data-testid=\"add-{list}\"]"),
    );
}

/// What is said as a row goes: its place and its first box's text, read before it goes
/// ("Removed Environment variables #1: LR_SCALE"): the focus lands on the next row's
/// button, named as the one pressed, and nothing said the row had gone (screen-reader
/// explorer).
fn removed_words(cx: FormCx, click: &leptos::ev::MouseEvent, row: &str) -> String {
    let first = click
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        .and_then(|button| button.parent_element())
        .and_then(|r| r.query_selector("input, select").ok().flatten())
        .map(|e| {
            use wasm_bindgen::JsCast;
            match e.dyn_ref::<web_sys::HtmlInputElement>() {
                Some(input) => input.value(),
                // A volume, dataset or model by the words its select shows, not its
                // catalog id (recheck explorer: "Removed Datasets #1: ds-c4").
                None => e
                    .dyn_ref::<web_sys::HtmlSelectElement>()
                    .filter(|s| !s.value().is_empty())
                    .and_then(|s| s.selected_options().item(0))
                    .map(|o| o.text_content().unwrap_or_default())
                    .unwrap_or_default(),
            }
        })
        .unwrap_or_default();
    let l = cx.lang();
    let row = crate::components::field_place(l, row);
    let what = first.trim();
    if what.is_empty() {
        shared::messages::text(l, "ui.form.row_removed", &[("row", row)])
    } else {
        shared::messages::text(
            l,
            "ui.form.row_removed#named",
            &[("row", row), ("what", what.to_owned())],
        )
    }
}

/// Puts `said` in the live line of the list the pressed button was in.
fn say_removed(click: &leptos::ev::MouseEvent, said: String) {
    if let Some(line) = click
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        .and_then(|b| b.closest(".list").ok().flatten())
        .and_then(|l| l.query_selector(".removed-said").ok().flatten())
    {
        line.set_text_content(Some(&said));
    }
}

/// A row's remove button, named in words ("Remove Tags #2"); after the removal the
/// focus stays in the list ([`focus_after_removal`]) and the removal is said.
#[component]
pub(super) fn Remove(
    /// The list's path.
    list: &'static str,
    /// The row's index.
    index: usize,
    /// Removes the row.
    on_remove: Callback<()>,
) -> impl IntoView {
    let cx = FormCx::use_context();
    let row = format!("{list}[{index}]");
    let test_id = format!("remove-{row}");
    let row_place = row.clone();
    view! {
        <button type="button" class="remove" data-testid=test_id
            aria-label=move || {
                let row = crate::components::field_place(cx.lang(), &row);
                shared::messages::text(cx.lang(), "ui.form.remove_row", &[("row", row)])
            }
            on:click=move |ev| {
                let said = removed_words(cx, &ev, &row_place);
                on_remove.run(());
                focus_after_removal(&ev, list, index);
                say_removed(&ev, said);
            }>"×"</button>
    }
}

/// Tags [标签]: key and value rows.
#[component]
pub fn TagsEditor() -> impl IntoView {
    let cx = FormCx::use_context();
    let list = List::<Tag> {
        path: "basic.tags",
        get: |s| &s.basic.tags,
        get_mut: |s| &mut s.basic.tags,
    };
    let len = list.len(cx);
    let (maintained, keys) = cx.catalog.with_value(suggested_tags);
    let maintained = StoredValue::new(maintained);
    let has_suggestions = !keys.is_empty();
    // Checked against the maintained tags: each row keeps the line its finding takes.
    let row_class = if cx.catalog.with_value(|c| c.tags.validation) {
        "row checked-tag"
    } else {
        "row"
    };
    let values_list =
        move |i: usize| has_suggestions.then(|| cx.id(&format!("berth-tags-value-{i}")));
    let keys_list = cx.id("berth-tags-key-suggested");
    view! {
        <ListShell path=list.path on_add=Callback::new(move |()| list.add(cx))>
            {has_suggestions.then(|| view! {
                <datalist id=keys_list.clone()>
                    {keys.into_iter().map(|k| view! { <option value=k></option> }).collect_view()}
                </datalist>
            })}
            {move || (0..len.get()).map(|i| {
                let row = format!("{}[{i}]", list.path);
                let row_attr = row.clone();
                let key = cx.watch(move |s| s.basic.tags.get(i).map(|t| t.key.clone()));
                let values = move || {
                    let key = key.get();
                    maintained.with_value(|m| {
                        m.iter()
                            .filter(|t| Some(&t.key) == key.as_ref())
                            .map(|t| view! { <option value=t.value.clone()></option> })
                            .collect_view()
                    })
                };
                // The focus in this row: its "not a maintained tag" finding waits until
                // the pair is typed and the row left (phone recheck: at 390 px it came
                // with the key's first letter on five lines, moving the form below).
                let in_row = RwSignal::new(false);
                let left = move |ev: leptos::ev::FocusEvent| {
                    use wasm_bindgen::JsCast;
                    let row = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Node>().ok());
                    let to = ev.related_target().and_then(|t| t.dyn_into::<web_sys::Node>().ok());
                    if row.is_some_and(|row| row.contains(to.as_ref())) {
                        return;
                    }
                    if super::pointer::pressed() {
                        super::pointer::after_press(move || {
                            in_row.try_set(false);
                        });
                    } else {
                        in_row.set(false);
                    }
                };
                view! {
                    <div class=row_class data-row=row_attr
                        on:focusin=move |_| if !in_row.get_untracked() { in_row.set(true) }
                        on:focusout=left>
                        <span class="name-box" on:paste=move |ev| paste_tags(ev, cx, list, i)>
                        <TextField path=format!("{row}.key") no_help=true group=row.clone()
                            suggest=has_suggestions.then(|| keys_list.clone())
                            lens=list.text(cx, i, |t| t.key.clone(), |t, v| t.key = v) />
                        </span>
                        <TextField path=format!("{row}.value") no_help=true suggest=values_list(i)
                            lens=list.text(cx, i, |t| t.value.clone(), |t, v| t.value = v) />
                        {values_list(i).map(|id| view! { <datalist id=id>{values}</datalist> })}
                        <Remove list=list.path index=i on_remove=Callback::new(move |()| list.remove(cx, i)) />
                        <GroupFindings path=row held_while_in=in_row />
                    </div>
                }
            }).collect_view()}
        </ListShell>
    }
}

/// With tag validation on, a tag must be one of the maintained ones: offered as
/// suggestions (the form's tags, the task page's), the keys for the key and that key's
/// values for the value. The maintained tags, and their keys in the catalog's order, each
/// once (no sort: a stable sort's code is 3 KB of wasm); none with validation off.
pub fn suggested_tags(catalog: &shared::Catalog) -> (Vec<shared::task::Tag>, Vec<String>) {
    if !catalog.tags.validation {
        return (Vec::new(), Vec::new());
    }
    let maintained = catalog.tags.maintained.clone();
    let mut keys: Vec<String> = Vec::new();
    for tag in &maintained {
        if !keys.contains(&tag.key) {
            keys.push(tag.key.clone());
        }
    }
    (maintained, keys)
}

/// Env vars [环境变量]: name, value and whether the value is hidden.
#[component]
pub fn EnvEditor() -> impl IntoView {
    let cx = FormCx::use_context();
    let list = List::<EnvVar> {
        path: "environment.env",
        get: |s| &s.environment.env,
        get_mut: |s| &mut s.environment.env,
    };
    let len = list.len(cx);
    view! {
        <ListShell path=list.path on_add=Callback::new(move |()| list.add(cx))>
            {move || (0..len.get()).map(|i| {
                let row = format!("{}[{i}]", list.path);
                let row_attr = row.clone();
                // A memo, so typing a value does not touch its control's type.
                let hidden = cx.watch(move |s| s.environment.env.get(i).is_some_and(|v| v.hidden));
                // A shown value of several lines (imported, cloned, restored) gets a box
                // of several lines: a one-line box drops the line breaks, and the next
                // keystroke saved the value joined (explorer). Kept while the user is in
                // it, or deleting its last break would rebuild the box under the cursor;
                // a value of one line put there otherwise (an import) gets a one-line box,
                // where Enter adds no break to a token.
                let lines = {
                    let kept = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                    let id = cx.control_id(&format!("{row}.value"));
                    cx.watch(move |s| {
                        use std::sync::atomic::Ordering::Relaxed;
                        let now = s.environment.env.get(i).is_some_and(|v| {
                            !v.hidden
                                && (v.value.contains('\n')
                                    || (kept.load(Relaxed) && focused(&id)))
                        });
                        kept.store(now, Relaxed);
                        now
                    })
                };
                let value = move || {
                    let (path, lens) = (
                        format!("{}[{i}].value", list.path),
                        list.text(cx, i, |v| v.value.clone(), |v, t| v.value = t),
                    );
                    if lines.get() {
                        view! { <TextField path lens no_help=true control=Control::Area /> }.into_any()
                    } else {
                        view! { <TextField path lens no_help=true masked=hidden /> }.into_any()
                    }
                };
                let start_over = move |ev| start_over_unseen(ev, cx, i);
                // Said, as its box cannot show it: typing in it starts it over (recheck
                // explorer: a pasted key lost to the next keystroke, unseen).
                let hidden_lines = cx.watch(move |s| {
                    s.environment.env.get(i).filter(|v| v.hidden).map_or(0, |v| {
                        v.value.lines().count()
                    })
                });
                let hidden_lines = move || {
                    let lines = hidden_lines.get();
                    (lines > 1).then(|| {
                        let said = shared::messages::text(
                            cx.lang(),
                            "ui.form.env.hidden_lines",
                            &[("lines", lines.to_string())],
                        );
                        view! { <p class="note" data-testid="hidden-lines">{said}</p> }
                    })
                };
                let vars = move |ev| paste_vars(ev, cx, list, i);
                let lines_in = move |ev| paste_lines(ev, cx, i);
                view! {
                    <div class="row" data-row=row_attr>
                        <span class="name-box" on:paste=vars>
                            <TextField path=format!("{row}.name") no_help=true
                                lens=list.text(cx, i, |v| v.name.clone(), |v, t| v.name = t) />
                        </span>
                        <span class="value-box" on:beforeinput=start_over on:paste=lines_in>{value}</span>
                        <CheckField path=format!("{row}.hidden") no_help=true get=hidden
                            set=Callback::new(move |on| cx.spec.update(|s| {
                                if let Some(v) = s.environment.env.get_mut(i) {
                                    v.hidden = on;
                                }
                            })) />
                        <Remove list=list.path index=i on_remove=Callback::new(move |()| list.remove(cx, i)) />
                        {hidden_lines}
                    </div>
                }
            }).collect_view()}
        </ListShell>
    }
}

/// `key=value` pairs pasted into a tag's key box (`team=nlp`, `team=nlp,stage=sft` as a
/// selector writes them) are tags, the first in that row and the rest as rows below it:
/// the pair stayed in the key box, refused as a key (pasting researcher). Label keys and
/// values hold no comma.
fn paste_tags(ev: leptos::ev::ClipboardEvent, cx: FormCx, list: List<Tag>, i: usize) {
    let pairs = pasted(&ev).and_then(|text| env_lines(&text.replace(',', "\n")));
    paste_rows(ev, cx, list, i, pairs, ["key", "value"], |key, value, _| {
        Tag { key, value }
    });
}

/// `NAME=value` lines pasted into a name box (a `.env` file, a line of a chat) are
/// variables: the first fills the row, the rest come as rows below it. They stayed one
/// name that no rule takes, with a token in a box that is never hidden and in the draft
/// (pasting researcher). A name like a secret's (`HF_TOKEN`) has its value hidden.
fn paste_vars(ev: leptos::ev::ClipboardEvent, cx: FormCx, list: List<EnvVar>, i: usize) {
    let pairs = pasted(&ev).and_then(|text| env_lines(&text));
    paste_rows(
        ev,
        cx,
        list,
        i,
        pairs,
        ["name", "value"],
        |name, value, was| EnvVar {
            hidden: secret_like(&name) || was.is_some_and(|v| v.hidden),
            name,
            value,
        },
    );
}

/// Pairs pasted into row `i` of `list`, in place of the browser's paste: the first fills
/// that row, the rest come as rows below it, each made by `row` (from the row it
/// replaces, if any), and each of their `parts` shows its findings.
fn paste_rows<T: Clone + Default + Send + Sync + 'static>(
    ev: leptos::ev::ClipboardEvent,
    cx: FormCx,
    list: List<T>,
    i: usize,
    pairs: Option<Vec<(String, String)>>,
    parts: [&str; 2],
    row: fn(String, String, Option<&T>) -> T,
) {
    let Some(pairs) = pairs else {
        return;
    };
    ev.prevent_default();
    let count = pairs.len();
    cx.edit(list.path, |s| {
        let rows = (list.get_mut)(s);
        for (k, (a, b)) in pairs.into_iter().enumerate() {
            match rows.get_mut(i).filter(|_| k == 0) {
                Some(was) => *was = row(a, b, Some(was)),
                None => rows.insert((i + k).min(rows.len()), row(a, b, None)),
            }
        }
    });
    for k in 0..count {
        let at = format!("{}[{}]", list.path, i + k);
        for part in parts {
            cx.touch(&format!("{at}.{part}"));
        }
        cx.touch(&at);
    }
}

/// The variables of `NAME=value` lines: blank lines and `#` comments left out (a
/// value's own too), an `export ` taken off, one pair of quotes around a value too. `None` unless every other
/// line is one (a value pasted into a name box is the browser's to insert).
fn env_lines(text: &str) -> Option<Vec<(String, String)>> {
    let mut vars = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("export ").map_or(line, str::trim_start);
        let (name, value) = line.split_once('=')?;
        let value = value.trim();
        // Quoted, what the quotes hold; else up to a ` #` comment, as `.env` readers do.
        let value = match value.chars().next() {
            Some(q @ ('"' | '\'')) => value[1..].split_once(q).map_or(value, |(inside, _)| inside),
            _ => value.split_once(" #").map_or(value, |(v, _)| v.trim_end()),
        };
        vars.push((name.trim().to_owned(), value.to_owned()));
    }
    (!vars.is_empty()).then_some(vars)
}

/// Whether a variable's name says it holds a secret.
fn secret_like(name: &str) -> bool {
    let name = name.to_ascii_uppercase();
    [
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "API_KEY",
        "ACCESS_KEY",
        "PRIVATE_KEY",
    ]
    .iter()
    .any(|word| name.contains(word))
}

/// Text of several lines pasted into a one-line value box (a key, a JSON config) is the
/// value with its line breaks, in a box of several lines: the box dropped them, and the
/// value went joined by spaces, unsaid (pasting researcher).
fn paste_lines(ev: leptos::ev::ClipboardEvent, cx: FormCx, i: usize) {
    use wasm_bindgen::JsCast;
    let Some(text) = pasted(&ev) else {
        return;
    };
    let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    else {
        return;
    };
    if !text.contains('\n') {
        return;
    }
    ev.prevent_default();
    let text = text.replace("\r\n", "\n");
    // Over the mask, or over a hidden value of several lines, the paste starts the value
    // over, as typing there does (`start_over_unseen`).
    let now = if unseen(&input, cx, i) {
        String::new()
    } else {
        input.value()
    };
    // The selection's ends count UTF-16 units, as JavaScript's strings do.
    let cut = |at: Result<Option<u32>, wasm_bindgen::JsValue>, or: usize| {
        let Some(at) = at.ok().flatten() else {
            return or;
        };
        let mut units = 0;
        now.char_indices()
            .find(|(_, c)| {
                let past = units >= at as usize;
                units += c.len_utf16();
                past
            })
            .map_or(now.len(), |(b, _)| b)
    };
    let (start, end) = (
        cut(input.selection_start(), now.len()),
        cut(input.selection_end(), now.len()),
    );
    let value = format!("{}{text}{}", &now[..start], &now[end.max(start)..]);
    let path = format!("environment.env[{i}].value");
    cx.touch(&path);
    cx.spec.update(|s| {
        if let Some(row) = s.environment.env.get_mut(i) {
            row.value = value;
        }
    });
    focus_first_in(&cx.control_id(&path));
}

/// Whether the element `id` has the focus.
fn focused(id: &str) -> bool {
    document().active_element().is_some_and(|e| e.id() == id)
}

/// Before an edit of a hidden value's box that shows the mask (a restored draft, another
/// user's clone), the box is emptied, so the edit starts from nothing: typed or pasted
/// text is the value, and a deletion leaves nothing. The box is a password box, and an
/// edit left around the mask's stars (`******newtoken`) was saved unseen; guessing the
/// typed part afterwards cut a secret's own stars. So is the box of a hidden value of
/// several lines (row `i`): a password box shows it without its line breaks, and an edit
/// there would save the value joined, unseen.
fn start_over_unseen(ev: leptos::ev::InputEvent, cx: FormCx, i: usize) {
    use wasm_bindgen::JsCast;
    if let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        && unseen(&input, cx, i)
    {
        input.set_value("");
    }
}

/// Whether row `i`'s value box hides what its value is: a password box showing the mask,
/// or a hidden value of several lines, shown without its line breaks.
fn unseen(input: &web_sys::HtmlInputElement, cx: FormCx, i: usize) -> bool {
    input.type_() == "password"
        && (input.value() == shared::task::HIDDEN_VALUE_MASK
            || cx.spec.with_untracked(|s| {
                s.environment
                    .env
                    .get(i)
                    .is_some_and(|v| v.value.contains('\n'))
            }))
}

/// Which catalog list a mount row chooses from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MountKind {
    /// Volumes [存储].
    Storage,
    /// Datasets [数据集].
    Datasets,
    /// Models [模型].
    Models,
}

/// Mount rows [存储/数据集/模型]: a catalog item of the cluster and its mount path.
#[component]
pub fn MountsEditor(
    /// Volumes, datasets or models.
    kind: MountKind,
) -> impl IntoView {
    let cx = FormCx::use_context();
    let list = match kind {
        MountKind::Storage => List::<Mount> {
            path: "environment.storage",
            get: |s| &s.environment.storage,
            get_mut: |s| &mut s.environment.storage,
        },
        MountKind::Datasets => List::<Mount> {
            path: "environment.datasets",
            get: |s| &s.environment.datasets,
            get_mut: |s| &mut s.environment.datasets,
        },
        MountKind::Models => List::<Mount> {
            path: "environment.models",
            get: |s| &s.environment.models,
            get_mut: |s| &mut s.environment.models,
        },
    };
    let items = Signal::derive(move || {
        let Some(cluster) = cx.cluster() else {
            return Vec::new();
        };
        match kind {
            MountKind::Storage => cluster
                .volumes
                .iter()
                .map(|v| {
                    // In words, the mode's letters kept: "RWX" alone meant nothing to a
                    // newcomer (novice explorer).
                    let access = cx.text(match v.access_mode {
                        shared::catalog::AccessMode::ReadWriteMany => "ui.form.volume.rwx",
                        shared::catalog::AccessMode::ReadWriteOnce => "ui.form.volume.rwo",
                    });
                    (
                        v.id.clone(),
                        format!("{} ({access}, {} GiB)", v.name, v.capacity_gib),
                    )
                })
                .collect(),
            MountKind::Datasets => versioned(&cluster.datasets),
            MountKind::Models => versioned(&cluster.models),
        }
    });
    let len = list.len(cx);
    view! {
        <ListShell path=list.path on_add=Callback::new(move |()| list.add(cx))>
            {move || (0..len.get()).map(|i| {
                let row = format!("{}[{i}]", list.path);
                let row_attr = row.clone();
                view! {
                    <div class="row" data-row=row_attr>
                        <SelectField path=format!("{row}.id") no_help=true options=items
                            lens=list.text(cx, i, |m| m.id.clone(), |m, v| m.id = v) />
                        <TextField path=format!("{row}.path") no_help=true
                            lens=list.text(cx, i, |m| m.path.clone(), |m, v| m.path = v) />
                        <Remove list=list.path index=i on_remove=Callback::new(move |()| list.remove(cx, i)) />
                    </div>
                }
            }).collect_view()}
        </ListShell>
    }
}

fn versioned(items: &[shared::catalog::DataItem]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|d| (d.id.clone(), format!("{} {}", d.name, d.version)))
        .collect()
}
