//! The findings summary: counts by severity, then every finding, errors first; each
//! moves the focus to its field.

use crate::form::context::{Ids, control_id, field_key};
use crate::i18n::UiLang;
use leptos::prelude::*;
use shared::messages::{count, text};
use shared::{Issue, Lang, Report, Severity};
use std::collections::HashMap;
use wasm_bindgen::JsCast;

/// Focuses the control at `path` of the form `ids` names; for a group (a tag row, the
/// autoscaling settings), its first control; else the nearest enclosing one that has a
/// control (a list's findings go to its add button).
pub fn focus_field(ids: Ids, path: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // Controls are named by their paths in every form: looked for in this one.
    let Some(form) = ids.form() else {
        return;
    };
    // A group that marks where its fields are (the autoscaling range, after the switch
    // that shows them) leads to the first of those.
    let first_inside = |path: &str| {
        let marked = format!("[data-group=\"{path}\"] [name]");
        let named = format!("[name^=\"{path}.\"], [name^=\"{path}[\"]");
        [marked, named]
            .iter()
            .find_map(|selector| form.query_selector(selector).ok().flatten())
    };
    // A finding about the spec as a whole (its version) has no control: its list is
    // brought into view instead.
    let list = document.get_element_by_id(&format!("{}-msgs", ids.of(&control_id(path))));
    let mut path = path.to_owned();
    loop {
        if let Some(el) = document
            .get_element_by_id(&ids.of(&control_id(&path)))
            .or_else(|| first_inside(&path))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
            return;
        }
        match path.rfind(['.', '[']) {
            Some(cut) => path.truncate(cut),
            None => {
                if let Some(list) = list {
                    list.scroll_into_view();
                }
                return;
            }
        }
    }
}

/// Where a finding puts the caret in its text box.
enum Caret {
    /// A line and column (from 1).
    At(usize, usize),
    /// The line of a key, within the keys before it (`env_vars`, then `A`).
    Key(Vec<String>),
}

/// The keys inside the runtime env a finding's path names, if it names some.
fn runtime_env_keys(path: &shared::FieldPath) -> Option<Vec<String>> {
    use shared::validate::Segment;
    let steps = path.segments();
    let inside = match steps {
        [Segment::Key(ray), Segment::Key(env), rest @ ..]
            if ray == "ray" && env == "runtime_env" =>
        {
            rest
        }
        _ => return None,
    };
    let keys: Vec<String> = inside
        .iter()
        .filter_map(|s| match s {
            Segment::Key(k) => Some(k.to_string()),
            Segment::Index(_) => None,
        })
        .collect();
    (!keys.is_empty()).then_some(keys)
}

/// The line and column (from 1) of the key `keys` ends with in YAML `text`: each key is
/// looked for on a line after the one before it, written plain or quoted, at a line's
/// start or after a list's `- `. A reading of the text's lines, not of YAML: enough to
/// find a key a finding names, which the reader has already found there.
pub fn key_place(text: &str, keys: &[String]) -> Option<(usize, usize)> {
    let mut from = 0;
    let mut found = None;
    for key in keys {
        let (line, column) = text
            .split('\n')
            .enumerate()
            .skip(from)
            .find_map(|(i, line)| {
                let body = line.trim_start();
                let body = body.strip_prefix("- ").map_or(body, str::trim_start);
                let column = line.chars().count() - body.chars().count() + 1;
                let named = [key.clone(), format!("\"{key}\""), format!("'{key}'")]
                    .iter()
                    .any(|written| {
                        body.strip_prefix(written.as_str())
                            .is_some_and(|rest| rest.trim_start().starts_with(':'))
                    });
                named.then_some((i + 1, column))
            })?;
        from = line;
        found = Some((line, column));
    }
    found
}

/// Puts the caret of the focused text box, if the focus is in one, at the line and
/// column (from 1, in characters) `place` finds in its text.
fn caret_to(place: impl FnOnce(&str) -> Option<(usize, usize)>) {
    let Some(area) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    else {
        return;
    };
    let text = area.value();
    if let Some((line, column)) = place(&text) {
        let at = caret_offset(&text, line, column);
        let _ = area.set_selection_range(at, at);
    }
}

/// The offset in UTF-16 code units, as a text box counts, of `line` and `column` (from 1,
/// in characters) of `text`; its end when the text is shorter.
pub fn caret_offset(text: &str, line: usize, column: usize) -> u32 {
    let mut offset = 0usize;
    for (i, this) in text.split('\n').enumerate() {
        if i + 1 == line {
            let into: usize = this
                .chars()
                .take(column.saturating_sub(1))
                .map(char::len_utf16)
                .sum();
            return u32::try_from(offset + into).unwrap_or(u32::MAX);
        }
        offset += this.encode_utf16().count() + 1;
    }
    u32::try_from(text.encode_utf16().count()).unwrap_or(u32::MAX)
}

/// Lists every finding: errors first, then warnings, then hints.
#[component]
pub fn ReportView(
    /// The findings to show.
    #[prop(into)]
    report: Signal<Report>,
    /// Whether the counts go unspoken as they change: while the focus is in a field,
    /// whose own findings are spoken (keyboard explorer: one keystroke in the compute
    /// fields spoke its findings, these counts and the plan's verdict).
    #[prop(optional, into)]
    quiet: Signal<bool>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let counts = move || {
        report.with(|r| {
            let count = |s| r.issues().iter().filter(|i| i.severity == s).count();
            (
                count(Severity::Error),
                count(Severity::Warning),
                count(Severity::Info),
            )
        })
    };
    // Keyed, so a finding that appears or clears adds or removes its own item: as a
    // plain list, an error appearing at the top shifted every item below it by one
    // place, and each was rewritten (its attributes and texts) on every keystroke.
    //
    // The items follow the report just after the frame a change paints in, as the
    // browser's next task: a keystroke's frame holds the field's own findings, the counts
    // and the submit button, and the whole list (below every section, a sixth of a
    // keystroke's script) comes one frame later rather than delaying them.
    let shown = RwSignal::new(report.get_untracked());
    let asked = StoredValue::new(false);
    Effect::new(move |first: Option<()>| {
        report.track();
        if first.is_none() || asked.get_value() {
            return;
        }
        asked.set_value(true);
        request_animation_frame(move || {
            let _ = set_timeout_with_handle(
                move || {
                    asked.try_set_value(false);
                    if let Some(now) = report.try_get_untracked() {
                        shown.try_set(now);
                    }
                },
                std::time::Duration::ZERO,
            );
        });
    });
    let sorted = move || shown.with(keyed);
    let list = issue_list(sorted, lang);
    view! {
        <div class="report">
            <p class="summary" data-testid="summary" aria-live=move || if quiet.get() { "off" } else { "polite" }>
                {move || {
                    let (errors, warnings, hints) = counts();
                    let l = lang.get();
                    let counts = text(l, "ui.form.summary", &[
                        ("errors", count(l, "ui.form.count.errors", errors)),
                        ("warnings", count(l, "ui.form.count.warnings", warnings)),
                        ("hints", count(l, "ui.form.count.hints", hints)),
                    ]);
                    let verdict = text(l, if errors == 0 { "ui.form.ready" } else { "ui.form.fix_errors" }, &[]);
                    format!("{counts} — {verdict}")
                }}
            </p>
            <ul class="issues">
                {list}
            </ul>
        </div>
    }
}

/// The summary's items, keyed, in an owner of their own.
///
/// `For` keeps the owner it is built in alive from its own rows' closure; built in the
/// form's owner, that cycle kept the form's owner, and so its cleanups (the draft's last
/// write when the form goes away), from ever running. Its own owner is disposed with the
/// form's.
fn issue_list(
    sorted: impl Fn() -> Vec<(String, Issue)> + Send + 'static,
    lang: UiLang,
) -> impl IntoView {
    let form = use_context::<crate::form::FormCx>();
    let owner = Owner::new();
    let list = owner.with(|| view! {
                <For each=sorted key=|(key, _)| key.clone() children=move |(_, issue)| {
                    let issue_severity = issue.severity;
                    let severity = issue_severity.as_str();
                    let path = issue.path.to_string();
                    let code = issue.code.code();
                    let target = path.clone();
                    let place = path.clone();
                    // A runtime env that is not YAML: the caret goes to where the reader
                    // stopped, not to the box's end (keyboard explorer).
                    let at = match &issue.code {
                        shared::IssueCode::RuntimeEnvInvalidYaml { line, column, .. } => Some(Caret::At(*line, *column)),
                        // A key inside it (`env_vars.KUBERNETES_X`): at that key's line.
                        _ => runtime_env_keys(&issue.path).map(Caret::Key),
                    };
                    view! {
                        <li class=format!("issue {severity}") data-code=code data-path=path>
                            <button type="button" class="goto" on:click=move |_| {
                                // In the form, the field then shows the finding it was sent to.
                                if let Some(cx) = form {
                                    cx.touch(&target);
                                }
                                focus_field(form.map(|cx| cx.ids).unwrap_or_default(), &target);
                                match &at {
                                    Some(Caret::At(line, column)) => caret_to(|_| Some((*line, *column))),
                                    Some(Caret::Key(keys)) => caret_to(|text| key_place(text, keys)),
                                    None => {}
                                }
                            }>
                                {crate::components::severity_badge(move || lang.get(), issue_severity)}
                                <span class="path" title=path.clone()>{move || field_place(lang.get(), &place)}</span>
                                {move || text(lang.get(), "ui.form.summary.after_place", &[])}
                                <span class="message">{move || issue_text(&issue, lang.get())}</span>
                            </button>
                        </li>
                    }
                } />
    });
    on_cleanup(move || owner.cleanup());
    list
}

/// Where a finding is, in the form's own words: each field's label from the message
/// catalog, a list's row by its number (`environment.env[2].name` is "Environment
/// variables #3 › Name"). The section is left out, as the form's own headings show it,
/// unless the finding is about the section itself; a key the form has no label for (an
/// unknown field in an import) is shown as written.
pub fn field_place(lang: shared::Lang, path: &str) -> String {
    if path.is_empty() {
        return text(lang, "ui.form.summary.whole", &[]);
    }
    let mut bare = String::new();
    let mut words: Vec<String> = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let close = after.find(']').unwrap_or(after.len());
            let number = after[..close]
                .parse::<usize>()
                .map_or_else(|_| after[..close].to_owned(), |i| (i + 1).to_string());
            let list = words.pop().unwrap_or_default();
            words.push(text(
                lang,
                "ui.form.summary.row",
                &[("list", list), ("number", number)],
            ));
            rest = after.get(close + 1..).unwrap_or("");
            continue;
        }
        let rest_key = rest.strip_prefix('.').unwrap_or(rest);
        let end = rest_key.find(['.', '[']).unwrap_or(rest_key.len());
        let key = &rest_key[..end];
        if !bare.is_empty() {
            bare.push('.');
        }
        bare.push_str(key);
        let label_key = field_key(&bare, "label");
        let label = text(lang, &label_key, &[]);
        let word = if label == label_key {
            key.to_owned()
        } else {
            label
        };
        // A group and its one field of the same label (the image and its box) are
        // named once: "Image › Image" read as a stutter.
        if words.last() != Some(&word) {
            words.push(word);
        }
        rest = &rest_key[end..];
    }
    if words.len() > 1 {
        words.remove(0);
    }
    words.join(" › ")
}

/// A finding's words in `lang`, with a field it names by path (the mount at the same
/// path, `environment.storage[0]`) named as the summary names places ("Storage #1"), and
/// in a form, a spec it names by id (`a100-1g`) named as the form's spec list names it
/// (Chinese newcomer: "a100-1g" was nowhere on the page).
pub fn issue_text(issue: &Issue, lang: shared::Lang) -> String {
    use shared::IssueCode::{
        GangWillQueue, MountPathConflict, QuotaSkipped, TagNotMaintained, UnitsOutOfRange,
    };
    use shared::quota::QueueReason::NoIdleOffer;
    let spec = |id: &str| match use_context::<crate::form::FormCx>() {
        Some(cx) if !id.is_empty() => crate::form::compute::spec_name(cx, id),
        _ => id.to_owned(),
    };
    let code = match &issue.code {
        MountPathConflict { other } => MountPathConflict {
            other: field_place(lang, other),
        },
        UnitsOutOfRange { max, spec: id } => UnitsOutOfRange {
            max: *max,
            spec: spec(id),
        },
        QuotaSkipped { spec: id, short } => QuotaSkipped {
            spec: spec(id),
            short: short.clone(),
        },
        GangWillQueue {
            reason: NoIdleOffer { spec: id },
        } => GangWillQueue {
            reason: NoIdleOffer { spec: spec(id) },
        },
        // The tags it may be are said with it: they were offered only as the boxes'
        // suggestions, which a reader who does not open them never sees (Chinese
        // newcomer).
        TagNotMaintained => {
            let maintained = match use_context::<crate::form::FormCx>() {
                Some(cx) => cx.catalog.with_value(|c| c.tags.maintained.clone()),
                None => use_context::<MaintainedTags>()
                    .map(|m| m.0)
                    .unwrap_or_default(),
            };
            return shared::messages::not_maintained(lang, issue.message(lang), &maintained);
        }
        _ => return issue.message(lang),
    };
    let mut named = issue.clone();
    named.code = code;
    named.message(lang)
}

/// The catalog's maintained tags, for a finding outside the form that a tag is not one
/// of them (the task page's tag editor provides them).
#[derive(Clone)]
pub struct MaintainedTags(pub Vec<shared::task::Tag>);

/// `items` with errors first, then warnings, then the rest, each kind in its order.
///
/// Three passes, not a sort: each `sort_by_key` brought its own copy of the standard
/// library's stable sort into the wasm (about 3 KB each), to order three kinds.
pub fn errors_first<T>(items: Vec<T>, severity: impl Fn(&T) -> Severity) -> Vec<T> {
    let mut out = Vec::with_capacity(items.len());
    let mut rest = items;
    for kind in [Severity::Error, Severity::Warning] {
        let (these, others) = rest.into_iter().partition(|i| severity(i) == kind);
        out.extend::<Vec<T>>(these);
        rest = others;
    }
    out.extend(rest);
    out
}

/// The findings, errors first, each with a key that is the same for the same finding
/// from one report to the next: its path, severity, code and English words (its
/// parameters written out, so a finding whose wording changes is a new item), and its
/// place among equal ones. Not the code's `Debug` form, which would bring a derived
/// `Debug` of every code into the bundle for this alone.
fn keyed(report: &Report) -> Vec<(String, Issue)> {
    let issues = errors_first(report.issues().iter().collect(), |i: &&Issue| i.severity);
    let mut seen = HashMap::<String, usize>::new();
    issues
        .into_iter()
        .map(|issue| {
            let key = format!(
                "{}|{}|{}|{}",
                issue.path,
                issue.severity.as_str(),
                issue.code.code(),
                issue.code.message(Lang::En)
            );
            let n = seen.entry(key.clone()).or_default();
            *n += 1;
            (format!("{key}|{n}"), issue.clone())
        })
        .collect()
}
