//! The create page at `/new` (or `/new?clone=ID`): the form, prefilled with a copy of a
//! task's spec when cloning (or the clone's edits, kept apart from the user's draft of
//! `/new`); after the submit it goes to the new task's page.

use crate::api;
use crate::form::{TaskForm, draft};
use crate::nav::{Link, Nav, Route};
use leptos::prelude::*;

/// The create page.
#[component]
pub fn NewTaskPage(
    /// The catalog, usage and user the console loaded.
    session: shared::api::CatalogResponse,
    /// The task whose spec prefills the form.
    #[prop(default = None)]
    clone: Option<String>,
    /// Or the share link whose task's spec does, its hidden values masked (to be typed
    /// again): a colleague asked to look at a run could not rerun it but by copying its
    /// YAML by hand (sweep explorer). The new task names no task it was made from.
    #[prop(default = None)]
    shared: Option<String>,
) -> impl IntoView {
    let lang = crate::i18n::UiLang::use_context();
    let nav = Nav::use_context();
    // A clone's edits are kept under a key of their own, the cloned task's: editing a
    // clone wrote over the user's unsent draft of `/new`, unasked, and lost it. Opened
    // again (a reload, Clone again), the clone finds its edits there, with a way back to
    // the task's spec (which is fetched for it).
    let clone_slot = clone
        .as_ref()
        .map(|id| draft::clone_key(id))
        .or_else(|| {
            shared
                .as_ref()
                .map(|token| draft::clone_key(&format!("shared.{token}")))
        })
        .map(draft::Slot);
    // Edits of a clone whose task can no longer be read (deleted since) are still shown.
    let edits_kept = clone_slot
        .as_ref()
        .is_some_and(|slot| draft::load(&slot.0).is_some());
    // A clone started over copies its task no more: its edits are a form of its own.
    let detached = clone_slot.as_ref().is_some_and(|s| draft::detached(&s.0));
    let clone = clone.filter(|_| !detached);
    let shared = shared.filter(|_| !detached);
    // Provided for `/new` too: the page before (a clone's) left its key in context, and
    // the top bar's Create task showed the clone's edits at `/new`, and wrote them there.
    provide_context(clone_slot.unwrap_or_else(|| draft::Slot(draft::DRAFT_KEY.to_owned())));
    let copy_of = clone.clone();
    let cloning = clone.is_some() || shared.is_some();
    // With Try again: a clone asked while the server was down stayed refused after it
    // was back, and only a reload found the task (explorer).
    let (start, again) = crate::components::load_again(move || {
        let (clone, shared) = (clone.clone(), shared.clone());
        async move {
            match (clone, shared) {
                (Some(id), _) => api::fetch_spec(&id).await.map(Some),
                (None, Some(token)) => {
                    api::fetch_view(&api::Source::Shared(token), lang.get_untracked())
                        .await
                        .map(|view| Some(view.task.spec))
                }
                (None, None) => Ok(None),
            }
        }
    });
    let made = super::task_detail::Resubmitted::here();
    let usage_read_at = crate::form::UsageReadAt::take();
    let on_submitted = Callback::new(move |view: shared::api::TaskView| {
        let id = view.task.id.to_string();
        if let Some(made) = made {
            made.note_created(id.clone());
        }
        nav.go(Route::Detail(id));
    });
    let plain = move |session: shared::api::CatalogResponse| {
        view! {
            <TaskForm catalog=session.catalog usage=session.usage outside=session.outside held_rooms=session.held user=session.user
                ray_clusters=session.ray_clusters email_alerts=session.email_alerts
                on_submitted moves_on=true usage_read_at />
        }
        .into_any()
    };
    view! {
        {move || match start.get() {
            // The task's spec, not the catalog (which the console has): "Loading the catalog…"
            // read as the console starting again.
            None => view! { <p class="loading">{move || shared::messages::text(lang.get(), if cloning { "ui.form.clone_loading" } else { "ui.app.loading" }, &[])}</p> }.into_any(),
            Some(Ok(Some(initial))) => {
                let session = session.clone();
                view! {
                    <TaskForm catalog=session.catalog usage=session.usage outside=session.outside held_rooms=session.held user=session.user
                        ray_clusters=session.ray_clusters email_alerts=session.email_alerts
                        initial on_submitted moves_on=true resume=true copy_of=copy_of.clone() usage_read_at />
                }.into_any()
            }
            // The user's draft; or the edits kept of a clone whose task can no longer be
            // read (deleted since), which are still theirs to send.
            Some(Ok(None)) => plain(session.clone()),
            Some(Err(_)) if edits_kept => plain(session.clone()),
            // The task may be gone or not visible: the way on is the create form (blank, or
            // the user's draft).
            Some(Err(err)) => {
                let mendable = err.mendable();
                view! {
                    <div class="banner error" role="alert" data-testid="clone-failed">
                        <span class="message">{move || err.localized(lang.get())}</span>
                        {mendable.then(|| view! {
                            <crate::components::TryAgain again loading="ui.form.clone_loading" test_id="clone-again" />
                        })}
                        <Link to=Route::New { clone: None } test_id="clone-blank">
                            {crate::i18n::tr("ui.form.clone_failed.blank")}
                        </Link>
                    </div>
                }.into_any()
            }
        }}
    }
}
