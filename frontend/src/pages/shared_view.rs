//! The read-only view of a shared task at `/shared/TOKEN`: what the link's holder may
//! see (status, timeline, events, logs, tags, the spec with hidden values masked), read
//! through the link, and Clone; no action on the task.

use super::task_detail::{
    EVENTS_SHOWN, EventList, Logs, Resilience, SpecView, TaskSummary, Timeline, joined,
    latest_events,
};
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
    /// The catalog's project groups, to name the task's group until the catalog is read.
    #[prop(optional)]
    groups: Vec<shared::catalog::ProjectGroup>,
    /// The catalog, when the page has it (the console's, read at its start): then it is
    /// not asked for again, and the task waits for no second answer (review).
    #[prop(optional)]
    catalog: Option<shared::Catalog>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    // Tracks the language: the server words the reasons in it.
    let asked = token.clone();
    let task = crate::components::load(move || {
        let token = asked.clone();
        let l = lang.get();
        async move { api::fetch_shared(&token, l).await }
    });
    // Once the task is read (not again when the language changes): the catalog, to name
    // its pool and specs as its own page does (the view named them by id, explorer), and
    // whether the reader may read the task itself, to be led to its page. The task is
    // shown once the catalog has answered; by ids if it failed.
    let read_id = Memo::new(move |_| {
        task.with(|t| match t {
            Some(Ok(view)) => Some(view.task.id.0.clone()),
            _ => None,
        })
    });
    let given = catalog.is_some();
    let catalog = RwSignal::new(catalog.map(Some));
    let visible = RwSignal::new(false);
    Effect::new(move |_| {
        let Some(id) = read_id.get() else {
            return;
        };
        if !given {
            leptos::task::spawn_local(async move {
                let answer = api::fetch_catalog(&api::Base::default()).await;
                catalog.try_set(Some(answer.ok().map(|session| session.catalog)));
            });
        }
        let l = lang.get_untracked();
        leptos::task::spawn_local(async move {
            let seen = api::fetch_task(&id, l).await.is_ok();
            visible.try_set(seen);
        });
    });
    view! {
        <section class="shared-view" data-testid="shared-view">
            {move || match (task.get(), catalog.get()) {
                (None, _) | (Some(Ok(_)), None) => view! { <p class="loading">{crate::i18n::tr("ui.app.loading")}</p> }.into_any(),
                (Some(Ok(view)), Some(catalog)) => {
                    let groups = catalog.as_ref().map_or_else(|| groups.clone(), |c| c.project_groups.clone());
                    view! { <SharedTask view groups catalog page=visible token=token.clone() /> }.into_any()
                }
                // The reader holds a link, not a task: an unknown or revoked one (the
                // same answer, 404) is said as the link's fault, not as a permission.
                (Some(Err(api::ClientError::Api(body))), _) if body.code == "task.not_found" => view! {
                    <p class="banner error" role="alert" data-testid="error">{crate::i18n::tr("ui.shared.link_dead")}</p>
                }.into_any(),
                (Some(Err(err)), _) => view! {
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
    /// The catalog, to name the placement's pool and specs; their ids without it.
    #[prop(default = None)]
    catalog: Option<shared::Catalog>,
    /// The reader may read the task itself: its page is offered.
    #[prop(optional, into)]
    page: Signal<bool>,
    /// The link's token, to clone the task from it.
    #[prop(optional)]
    token: Option<String>,
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
    let own_page = Route::Detail(name.clone());
    // The events and logs, read through the link (sweep explorer: a colleague sent the
    // link to say why a run failed saw neither). As the page loaded; a log is followed.
    let events = RwSignal::new(api::EventPage::default());
    let events_known = RwSignal::new(false);
    let events_error = RwSignal::new(None::<api::ClientError>);
    let source = token.clone().map(api::Source::Shared);
    if let Some(source) = source.clone() {
        let l = lang.get_untracked();
        leptos::task::spawn_local(async move {
            match latest_events(&source, l, None).await {
                Ok(page) => {
                    events.try_set(page);
                    events_known.try_set(true);
                }
                Err(err) => {
                    events_error.try_set(Some(err));
                }
            }
        });
    }
    let earlier_source = StoredValue::new(source.clone());
    let show_earlier = Callback::new(move |()| {
        let Some(source) = earlier_source.get_value() else {
            return;
        };
        let l = lang.get_untracked();
        let first = events.with_untracked(|e| e.earlier + 1);
        leptos::task::spawn_local(async move {
            let wanted = api::EventsWanted {
                limit: Some(EVENTS_SHOWN),
                before: Some(first),
                kind: None,
            };
            match api::fetch_events(&source, l, wanted).await {
                Ok(page) => {
                    if let Some(more) = events.with_untracked(|held| joined(&page, held)) {
                        events.try_set(more);
                    }
                }
                Err(err) => {
                    events_error.try_set(Some(err));
                }
            }
        });
    });
    let zone_of = view.with_untracked(|v| v.task.spec.basic.time_zone.clone());
    view! {
        <h1 data-testid="shared-title">{move || lang.text_with("ui.shared.title", &[("name", name.clone())])}</h1>
        <p class="banner info" role="note" data-testid="read-only">
            {crate::i18n::tr("ui.shared.read_only")}
            // Its events, logs and (for its owner) actions are there.
            {move || page.get().then(|| view! {
                " "<Link to=own_page.clone() test_id="shared-task-page">{crate::i18n::tr("ui.shared.task_page")}</Link>
            })}
        </p>
        <div class="columns">
            <div>
                <TaskSummary view groups catalog stopping=Signal::derive(move || view.with(|v| v.stopping_since.is_some())) />
                <Resilience view />
                <Timeline history=Signal::stored(history) zone=Signal::stored(zone) />
                // The events' failure in their panel, under Show earlier: above the panel,
                // it moved it down under the pointer (shared-debugging explorer).
                {source.is_some().then(|| view! {
                    <EventList events=events.into() known=events_known zone=Signal::stored(zone_of.clone()) earlier=show_earlier failed=events_error />
                })}
            </div>
            <div>
                {source.clone().map(|source| view! {
                    <Logs source view polled=Signal::stored(0) page_unreached=Signal::stored(false) />
                })}
                <section class="panel tags" aria-labelledby="shared-tags-title">
                    <h2 id="shared-tags-title">{crate::i18n::tr("ui.detail.tags")}</h2>
                    {tags.is_empty().then(|| view! {
                        <p class="empty">{crate::i18n::tr("ui.detail.tags_none")}</p>
                    })}
                    <ul class="tag-list" data-testid="tags">
                        {tags.iter().map(|tag| view! { <li><span class="tag">{tag.text()}</span></li> }).collect_view()}
                    </ul>
                </section>
                <section class="panel spec" aria-labelledby="shared-spec-title">
                    <h2 id="shared-spec-title">{crate::i18n::tr("ui.detail.spec")}</h2>
                    <p class="help">{crate::i18n::tr("ui.shared.spec_masked")}</p>
                    <SpecView spec labelled_by="shared-spec-title" />
                    // A run to reproduce: its hidden values are typed again in the form.
                    {token.map(|token| view! {
                        <p class="actions">
                            <Link to=Route::CloneShared(token) class="button" test_id="shared-clone">
                                {crate::i18n::tr("ui.detail.clone")}
                            </Link>
                            " "<span class="help">{crate::i18n::tr("ui.shared.clone_help")}</span>
                        </p>
                    })}
                </section>
            </div>
        </div>
    }
}
