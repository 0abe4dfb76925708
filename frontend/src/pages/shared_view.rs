//! The read-only view of a shared task at `/shared/TOKEN`: what the link's holder may
//! see (status, timeline, tags, the spec with hidden values masked), and no action.

use super::task_detail::{Resilience, SpecView, TaskSummary, Timeline};
use super::task_list::tag_text;
use crate::api;
use crate::i18n::UiLang;
use crate::nav::{Link, Route};
use leptos::prelude::*;
use shared::api::TaskView;

/// The shared page.
#[component]
pub fn SharedTaskPage(
    /// The share link's token.
    token: String,
    /// The catalog's project groups, to name the task's group.
    #[prop(optional)]
    groups: Vec<shared::catalog::ProjectGroup>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    // Tracks the language: the server words the reasons in it.
    let task = crate::components::load(move || {
        let token = token.clone();
        let l = lang.get();
        async move { api::fetch_shared(&token, l).await }
    });
    view! {
        <section class="shared-view" data-testid="shared-view">
            {move || match task.get() {
                None => view! { <p class="loading">{crate::i18n::tr("ui.app.loading")}</p> }.into_any(),
                Some(Ok(view)) => view! { <SharedTask view groups=groups.clone() /> }.into_any(),
                // The reader holds a link, not a task: an unknown or revoked one (the
                // same answer, 404) is said as the link's fault, not as a permission.
                Some(Err(api::ClientError::Api(body))) if body.code == "task.not_found" => view! {
                    <p class="banner error" role="alert" data-testid="error">{crate::i18n::tr("ui.shared.link_dead")}</p>
                }.into_any(),
                Some(Err(err)) => view! {
                    <p class="banner error" role="alert" data-testid="error">{move || err.localized(lang.get())}</p>
                }.into_any(),
            }}
            <p class="back"><Link to=Route::List test_id="shared-back">{crate::i18n::tr("ui.shared.back")}</Link></p>
        </section>
    }
}

/// A shared task, read-only.
#[component]
pub fn SharedTask(
    /// The task as the link shows it.
    view: TaskView,
    /// The catalog's project groups, to name the task's group.
    #[prop(optional)]
    groups: Vec<shared::catalog::ProjectGroup>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let name = view.task.id.0.clone();
    let spec = view.task.spec.clone();
    let tags = view.tags.clone();
    let history = view.task.history.clone();
    let zone = view.task.spec.basic.time_zone.clone();
    let view = Signal::stored(view);
    let titled = name.clone();
    super::title_page(move |lang| {
        Some(lang.text_with("ui.shared.title", &[("name", titled.clone())]))
    });
    view! {
        <h1 data-testid="shared-title">{move || lang.text_with("ui.shared.title", &[("name", name.clone())])}</h1>
        <p class="banner info" role="note" data-testid="read-only">{crate::i18n::tr("ui.shared.read_only")}</p>
        <div class="columns">
            <div>
                <TaskSummary view groups stopping=Signal::derive(move || view.with(|v| v.stopping_since.is_some())) />
                <Resilience view />
                <Timeline history=Signal::stored(history) zone=Signal::stored(zone) />
            </div>
            <div>
                <section class="panel tags" aria-labelledby="shared-tags-title">
                    <h2 id="shared-tags-title">{crate::i18n::tr("ui.detail.tags")}</h2>
                    {tags.is_empty().then(|| view! {
                        <p class="empty">{crate::i18n::tr("ui.detail.tags_none")}</p>
                    })}
                    <ul class="tag-list" data-testid="tags">
                        {tags.iter().map(|tag| view! { <li><span class="tag">{tag_text(tag)}</span></li> }).collect_view()}
                    </ul>
                </section>
                <section class="panel spec" aria-labelledby="shared-spec-title">
                    <h2 id="shared-spec-title">{crate::i18n::tr("ui.detail.spec")}</h2>
                    <p class="help">{crate::i18n::tr("ui.shared.spec_masked")}</p>
                    <SpecView spec />
                </section>
            </div>
        </div>
    }
}
