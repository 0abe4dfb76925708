//! The task editor: the spec as JSON, checked as you type with the same rules the server
//! runs, beside the scheduling preview. (The full form builds on this page.)

use crate::api;
use crate::components::{PlanView, ReportView};
use crate::i18n::{UiLang, t};
use leptos::prelude::*;
use shared::api::Examples;
use shared::usage::Usage;
use shared::{Catalog, Check, TaskSpec, User};

/// Spec editor with live findings and plan.
#[component]
pub fn TaskEditor(
    /// The catalog to check against.
    catalog: Catalog,
    /// Live usage of the catalog's nodes and the user's quota lines.
    usage: Usage,
    /// Who is editing.
    user: User,
    /// The example specs the server offers.
    examples: Examples,
    /// The starting spec, as JSON; default the PyTorchJob example.
    #[prop(default = None)]
    initial: Option<String>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let pretty = |spec: &TaskSpec| serde_json::to_string_pretty(spec).unwrap_or_default();
    let (pytorch, ray) = (pretty(&examples.pytorch), pretty(&examples.ray));
    let text = RwSignal::new(initial.unwrap_or_else(|| pytorch.clone()));
    let check = Memo::new(move |_| shared::check_json(&text.get(), &catalog, &usage, &user));
    let server = Action::new_local(|spec: &String| api::validate(spec.clone()));
    // The text the server last checked: an answer is only compared with the check of
    // that same text, never with later edits.
    let sent = RwSignal::new(None::<String>);
    let server_note = move || {
        let l = lang.get();
        let result = server.value().get()?;
        if sent.get().as_deref() != Some(text.get().as_str()) {
            return Some(
                t(
                    l,
                    "Edited since the server check; check again.",
                    "服务端校验后已修改，请重新校验。",
                )
                .to_owned(),
            );
        }
        let local = check.get();
        let theirs = match result {
            Ok(answer) => Check::from(answer),
            // A spec of the wrong shape is a 422 whose findings the page shows too.
            Err(api::ClientError::Api(body)) if local.plan.is_none() => {
                Check::from(shared::validate::LocalizedCheck {
                    issues: body.issues,
                    plan: None,
                    truncated: body.truncated,
                })
            }
            Err(err) => return Some(err.to_string()),
        };
        Some(if theirs == local {
            t(
                l,
                "The server agrees with this check.",
                "服务端校验结果与此一致。",
            )
            .to_owned()
        } else {
            match l {
                shared::Lang::En => format!(
                    "The server found {} findings; this page shows {}.",
                    theirs.issues.issues().len(),
                    local.issues.issues().len()
                ),
                shared::Lang::Zh => format!(
                    "服务端发现 {} 项，本页显示 {} 项。",
                    theirs.issues.issues().len(),
                    local.issues.issues().len()
                ),
            }
        })
    };
    view! {
        <div class="editor">
            <section class="source">
                <div class="toolbar">
                    <button on:click=move |_| text.set(pytorch.clone()) data-testid="load-pytorch">
                        {move || t(lang.get(), "PyTorchJob example", "PyTorchJob 示例")}
                    </button>
                    <button on:click=move |_| text.set(ray.clone()) data-testid="load-ray">
                        {move || t(lang.get(), "RayJob example", "RayJob 示例")}
                    </button>
                    <button on:click=move |_| {
                        let spec = text.get_untracked();
                        sent.set(Some(spec.clone()));
                        server.dispatch(spec);
                    } data-testid="check-server">
                        {move || t(lang.get(), "Check on the server", "在服务端校验")}
                    </button>
                </div>
                <label for="spec-json">{move || t(lang.get(), "Task spec (JSON)", "任务规格（JSON）")}</label>
                <textarea
                    id="spec-json"
                    data-testid="spec"
                    spellcheck="false"
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                ></textarea>
                <p class="server-note" data-testid="server-note" aria-live="polite">{server_note}</p>
            </section>
            <section class="results">
                <PlanView plan=Signal::derive(move || check.get().plan) />
                <ReportView report=Signal::derive(move || check.get().issues) />
            </section>
        </div>
    }
}

/// The create page at `/new` (or `/new?clone=ID`): the editor, prefilled with a copy of
/// a task's spec when cloning.
#[component]
pub fn NewTaskPage(
    /// The catalog, usage and user the console loaded.
    session: shared::api::CatalogResponse,
    /// The task whose spec prefills the form.
    #[prop(default = None)]
    clone: Option<String>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let start = LocalResource::new(move || {
        let clone = clone.clone();
        async move {
            let examples = api::fetch_examples().await?;
            let initial = match clone {
                Some(id) => Some(
                    serde_json::to_string_pretty(&api::fetch_spec(&id).await?).unwrap_or_default(),
                ),
                None => None,
            };
            Ok::<_, api::ClientError>((examples, initial))
        }
    });
    view! {
        <Suspense fallback=move || view! { <p class="loading">{move || shared::messages::text(lang.get(), "ui.app.loading", &[])}</p> }>
            {move || start.get().map(|result| match result {
                Ok((examples, initial)) => {
                    let session = session.clone();
                    view! {
                        <TaskEditor catalog=session.catalog usage=session.usage user=session.user examples initial />
                    }.into_any()
                }
                Err(err) => view! { <p class="banner error" role="alert">{err.to_string()}</p> }.into_any(),
            })}
        </Suspense>
    }
}
