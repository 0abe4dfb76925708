//! A section of the form (SPEC.md's sections): a fieldset whose legend counts the
//! findings inside it.

use super::context::FormCx;
use leptos::prelude::*;

/// One section; `path` is its key in the spec (`basic`), which names its legend
/// (`field.basic.label`) and the findings it counts.
#[component]
pub fn Section(
    /// The section's key in the spec.
    #[prop(into)]
    path: String,
    /// The legend's message key, when it is not `field.<path>.label`.
    #[prop(optional, into)]
    legend: Option<String>,
    /// The section's fields.
    children: Children,
) -> impl IntoView {
    let cx = FormCx::use_context();
    let legend = legend.unwrap_or_else(|| format!("field.{path}.label"));
    let prefix = path.clone();
    let counts = Memo::new(move |_| cx.counts_under(&prefix));
    let count = move |i: usize, key: &'static str| {
        move || {
            let n = counts.get()[i];
            (n > 0).then(|| {
                let class = ["count error", "count warning", "count info", "count todo"][i];
                view! {
                    <span class=class>
                        {shared::messages::count(cx.lang(), key, n)}
                    </span>
                }
            })
        }
    };
    view! {
        <fieldset class="section" data-section=path.clone()>
            <legend>
                <span class="title">{move || cx.text(&legend)}</span>
                <span class="counts" data-testid=format!("counts-{path}")>
                    {count(0, "ui.form.count.errors")}
                    {count(1, "ui.form.count.warnings")}
                    {count(2, "ui.form.count.hints")}
                    // What is left to fill in, unmarked as a fault until its field is.
                    {count(3, "ui.form.count.todo")}
                </span>
            </legend>
            {children()}
        </fieldset>
    }
}
