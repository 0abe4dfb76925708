//! The findings summary: counts by severity, then every finding, errors first; each
//! moves the focus to its field.

use crate::form::control_id;
use crate::i18n::UiLang;
use leptos::prelude::*;
use shared::messages::{count, text};
use shared::{Issue, Report, Severity};
use wasm_bindgen::JsCast;

/// Focuses the control at `path`, or the nearest enclosing one that has a control
/// (a list's findings go to its add button).
pub fn focus_field(path: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let mut path = path.to_owned();
    loop {
        if let Some(el) = document
            .get_element_by_id(&control_id(&path))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
            return;
        }
        match path.rfind(['.', '[']) {
            Some(cut) => path.truncate(cut),
            None => return,
        }
    }
}

/// Lists every finding: errors first, then warnings, then hints.
#[component]
pub fn ReportView(
    /// The findings to show.
    #[prop(into)]
    report: Signal<Report>,
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
    let sorted = move || {
        let mut issues: Vec<Issue> = report.get().into_iter().collect();
        issues.sort_by_key(|i| i.severity);
        issues
    };
    view! {
        <div class="report">
            <p class="summary" data-testid="summary" aria-live="polite">
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
                {move || sorted().into_iter().map(|issue| {
                    let severity = issue.severity.as_str();
                    let path = issue.path.to_string();
                    let code = issue.code.code();
                    let target = path.clone();
                    let shown = if path.is_empty() { "—".to_owned() } else { path.clone() };
                    view! {
                        <li class=format!("issue {severity}") data-code=code data-path=path>
                            <button type="button" class="goto" on:click=move |_| focus_field(&target)>
                                <span class="badge">{move || text(lang.get(), &format!("ui.form.severity.{severity}"), &[])}</span>
                                " "<code class="path">{shown}</code>" "
                                <span class="message">{move || issue.message(lang.get())}</span>
                            </button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </div>
    }
}
