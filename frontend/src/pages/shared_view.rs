//! The read-only view of a shared task at `/shared/TOKEN`: what the link's holder may
//! see (status, timeline, events, logs, tags, the spec with hidden values masked), read
//! through the link, and Clone; no action on the task.

use super::PhaseBadge;
use super::task_detail::{
    EVENTS_SHOWN, EventList, Logs, Resilience, SpecView, TaskSummary, Timeline, joined,
    latest_events, poll_task,
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
    provide_context(super::task_detail::ToFailedLog::default());
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
    let zone = view.task.spec.basic.time_zone.clone();
    // Read again through the link while the task can change, as its own page is (two
    // colleagues debugging through a link saw Running long after it failed).
    let view = RwSignal::new(view);
    let tags = Memo::new(move |_| view.with(|v| v.tags.clone()));
    let history = Memo::new(move |_| view.with(|v| v.task.history.clone()));
    let polled = RwSignal::new(0u64);
    // The link revoked (or its task deleted) while the view is open.
    let dead = RwSignal::new(false);
    let titled = name.clone();
    super::title_page(move |lang| {
        // A dead link's tab no longer says a phase it cannot know (low-vision recheck).
        if dead.get() {
            return Some(lang.text_with("ui.shared.title#dead", &[("name", titled.clone())]));
        }
        let phase = super::phase_label(lang.get(), view.with(|v| v.task.phase));
        Some(lang.text_with(
            "ui.shared.title#phase",
            &[("name", titled.clone()), ("phase", phase)],
        ))
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
    // Earlier events asked for stay, joined to the latest at each poll.
    let events_asked = StoredValue::new(false);
    if let Some(source) = source.clone() {
        let busy = StoredValue::new(false);
        let source = StoredValue::new(source);
        let load = move || {
            let (source, l) = (source.get_value(), lang.get_untracked());
            let api::Source::Shared(token) = source.clone() else {
                return;
            };
            busy.set_value(true);
            leptos::task::spawn_local(async move {
                match api::fetch_shared(&token, l).await {
                    Ok(now) => {
                        // Set only when changed: the panels drawn from it are drawn anew.
                        if view.try_with_untracked(|v| *v != now) == Some(true) {
                            view.set(now);
                        }
                        polled.try_update(|n| *n = n.wrapping_add(1));
                    }
                    Err(api::ClientError::Api(body)) if body.code == "task.not_found" => {
                        dead.try_set(true);
                    }
                    // Unreached: the next poll asks again; what is shown stays.
                    Err(_) => {}
                }
                let held = events.try_get_untracked().unwrap_or_default();
                let down_to = events_asked
                    .try_get_value()
                    .unwrap_or(false)
                    .then(|| held.count());
                if let Ok(latest) = latest_events(&source, l, down_to).await {
                    let now = if events_asked.try_get_value() == Some(true) {
                        joined(&held, &latest).unwrap_or(latest)
                    } else {
                        latest
                    };
                    if events.try_with_untracked(|e| *e != now) == Some(true) {
                        events.set(now);
                        events_known.set(true);
                    }
                }
                busy.try_set_value(false);
            });
        };
        poll_task(
            move || busy.get_value() || dead.get_untracked(),
            move || view.with_untracked(|v| v.task.phase.is_finished()),
            load,
        );
    }
    let show_earlier = Callback::new(move |()| {
        let Some(source) = earlier_source.get_value() else {
            return;
        };
        events_asked.set_value(true);
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
        // The phase beside the name, as on the task's own page (low-vision recheck: at
        // 320 CSS px the first screen said nothing of the task's state).
        <h1 data-testid="shared-title">
            {move || lang.text_with("ui.shared.title", &[("name", name.clone())])}
            " "
            <span data-testid="title-phase"><PhaseBadge phase=Signal::derive(move || view.with(|v| v.task.phase)) /></span>
        </h1>
        // What is shown stays, as it was last read. Under the name, on the first screen
        // of a phone (low-vision recheck: it stood below the read-only note, off it).
        <div role="alert">
            {move || dead.get().then(|| view! {
                <p class="banner error" data-testid="link-dead">{crate::i18n::tr("ui.shared.link_dead#since")}</p>
            })}
        </div>
        <p class="banner info" role="note" data-testid="read-only">
            // No longer followed once its link is dead.
            {move || lang.text(if dead.get() { "ui.shared.read_only#ended" } else { "ui.shared.read_only" })}
            // Its events, logs and (for its owner) actions are there.
            {move || page.get().then(|| view! {
                " "<Link to=own_page.clone() test_id="shared-task-page">{crate::i18n::tr("ui.shared.task_page")}</Link>
            })}
        </p>
        <div class="columns">
            <div>
                <TaskSummary view=view.into() groups catalog stopping=Signal::derive(move || view.with(|v| v.stopping_since.is_some())) />
                <Resilience view=view.into() />
                <Timeline history=history.into() zone=Signal::stored(zone) />
                // The events' failure in their panel, under Show earlier: above the panel,
                // it moved it down under the pointer (shared-debugging explorer).
                {source.is_some().then(|| view! {
                    <EventList events=events.into() known=events_known zone=Signal::stored(zone_of.clone()) earlier=show_earlier failed=events_error />
                })}
            </div>
            <div>
                // Said where the log stops too, far below the page's top on a phone
                // (phone recheck: the log said to follow it again, which would fail).
                {move || dead.get().then(|| view! {
                    <p class="banner error" data-testid="link-dead-logs">{crate::i18n::tr("ui.shared.link_dead#since")}</p>
                })}
                {source.clone().map(|source| view! {
                    <Logs source view=view.into() polled=polled.into() page_unreached=Signal::stored(false) closed=dead />
                })}
                <section class="panel tags" aria-labelledby="shared-tags-title">
                    <h2 id="shared-tags-title">{crate::i18n::tr("ui.detail.tags")}</h2>
                    {move || tags.with(Vec::is_empty).then(|| view! {
                        <p class="empty">{crate::i18n::tr("ui.detail.tags_none")}</p>
                    })}
                    <ul class="tag-list" data-testid="tags">
                        {move || tags.get().iter().map(|tag| view! { <li><span class="tag">{tag.text()}</span></li> }).collect_view()}
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
