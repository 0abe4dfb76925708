//! The findings of a check, grouped by severity, each with its field and reason.

use crate::i18n::{UiLang, t};
use leptos::prelude::*;
use shared::{Issue, Report, Severity};

fn badge(severity: Severity, lang: shared::Lang) -> &'static str {
    match severity {
        Severity::Error => t(lang, "error", "错误"),
        Severity::Warning => t(lang, "warning", "警告"),
        Severity::Info => t(lang, "hint", "提示"),
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
        let report = report.get();
        let count = |s| report.issues().iter().filter(|i| i.severity == s).count();
        (
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Info),
        )
    };
    let sorted = move || {
        let mut issues: Vec<Issue> = report.get().into_iter().collect();
        issues.sort_by_key(|i| i.severity);
        issues
    };
    view! {
        <section class="report" aria-label="Findings">
            <p class="summary" data-testid="summary">
                {move || {
                    let (errors, warnings, infos) = counts();
                    match lang.get() {
                        shared::Lang::En => format!("{errors} errors · {warnings} warnings · {infos} hints"),
                        shared::Lang::Zh => format!("{errors} 个错误 · {warnings} 个警告 · {infos} 个提示"),
                    }
                }}
                " — "
                {move || if counts().0 == 0 {
                    t(lang.get(), "ready to submit", "可以提交")
                } else {
                    t(lang.get(), "fix the errors to submit", "请先修正错误再提交")
                }}
            </p>
            <ul class="issues">
                {move || sorted().into_iter().map(|issue| {
                    let severity = issue.severity.as_str();
                    let path = if issue.path.is_root() { "spec".to_owned() } else { issue.path.to_string() };
                    let code = issue.code.code();
                    let shown = path.clone();
                    view! {
                        <li class=format!("issue {severity}") data-code=code data-path=path>
                            <span class="badge">{move || badge(issue.severity, lang.get())}</span>
                            <code class="path">{shown}</code>
                            <span class="message">{move || issue.message(lang.get())}</span>
                            <span class="code">{code}</span>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}
