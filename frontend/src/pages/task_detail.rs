//! One task at `/tasks/ID`: its timeline, why it waits and where it runs, its events,
//! its logs per replica and attempt (followed live), its spec, and the owner's actions.

use super::{ErrorBanner, PhaseBadge, format_task_time, phase_label};
use crate::api::{self, ClientError, EventPage, LogFollow};
use crate::i18n::UiLang;
use crate::nav::{Link, Nav, Route};
use leptos::prelude::*;
use shared::api::{CatalogResponse, LogReplica, MadeHow, ReplicaRole, ShareLink, TaskView};
use shared::record::{PhaseChange, TaskPhase, Timestamp};
use shared::task::Tag;
use shared::{Dimension, TaskSpec, TaskType};
use std::time::Duration;

/// How long after a stop was asked Stop is offered again (the grace period is 10 s).
const STOP_OFFERED_AGAIN_MS: i64 = 60_000;

/// How often a task that has not ended is fetched again.
const REFRESH: Duration = Duration::from_secs(2);
/// An ended task is fetched again every this many refreshes (every 20 s).
const ENDED_EVERY: u32 = 10;

/// Whether the page fetches its task at refresh number `tick`: at every one while the
/// task can change, at every [`ENDED_EVERY`]th once it has ended (it can still be deleted
/// from another tab).
pub fn refresh_now(ended: bool, tick: u32) -> bool {
    !ended || tick.is_multiple_of(ENDED_EVERY)
}

/// Reads a task's page again every [`REFRESH`] while the task can still change; an ended
/// task less often, as it can still be deleted from another tab. Not while the page is
/// hidden, nor while `held` (a read still out, the task gone).
pub(crate) fn poll_task(
    held: impl Fn() -> bool + 'static,
    ended: impl Fn() -> bool + 'static,
    load: impl Fn() + 'static,
) {
    let ticks = StoredValue::new(0u32);
    let poll = move || {
        let hidden = web_sys::window()
            .and_then(|w| w.document())
            .is_some_and(|d| d.hidden());
        if hidden || held() {
            return;
        }
        ticks.update_value(|t| *t = t.wrapping_add(1));
        if refresh_now(ended(), ticks.get_value()) {
            load();
        }
    };
    if let Ok(handle) = set_interval_with_handle(poll, REFRESH) {
        on_cleanup(move || handle.clear());
    }
}

/// The detail page.
#[component]
pub fn TaskDetailPage(
    /// The task's id.
    id: String,
    /// Who is looking (the owner gets the actions).
    session: CatalogResponse,
) -> impl IntoView {
    let lang = UiLang::use_context();
    provide_context(ToFailedLog::default());
    if let Some(list) = super::task_list::ListMemory::use_context() {
        list.showed(&id);
    }
    // Its Clone copies it, a clone of it started over before included.
    crate::form::draft::attach(&crate::form::draft::clone_key(&id));
    let task = RwSignal::new(None::<TaskView>);
    // The tasks made from this one, read once: they are made on other pages (a
    // resubmit's, a clone's), which come back here by a link or Back, reading them again.
    let made_into = RwSignal::new(None::<MadeInto>);
    let read_made_into = {
        let id = id.clone();
        move || {
            let id = id.clone();
            leptos::task::spawn_local(async move {
                let read = match api::tasks_made_from(&id, MADE_INTO_SHOWN).await {
                    Ok(page) => MadeInto::Tasks(
                        page.tasks.into_iter().map(|t| t.task.id.0).collect(),
                        page.next.is_some(),
                    ),
                    Err(_) => MadeInto::Unread,
                };
                made_into.try_set(Some(read));
            });
        }
    };
    read_made_into();
    let read_made_into = StoredValue::new(read_made_into);
    // The events shown: the latest page, and earlier ones the reader asked for (which
    // then stay above new ones), in the language they were fetched in.
    let events = RwSignal::new(EventPage::default());
    // The events have been read once: before, an empty list is not "no events yet" (a
    // first read that failed said so beside the failure; network explorer).
    let events_known = RwSignal::new(false);
    let events_asked = RwSignal::new(false);
    let events_lang = StoredValue::new(None::<shared::Lang>);
    // Which load is the latest, and whether one is out: a poll waits for the last one's
    // answer (on a network slower than the poll, answers would land out of order and an
    // older one cut the events back), and a language's load makes any answer still out
    // stale.
    let loads = StoredValue::new(0u64);
    let loading = StoredValue::new(false);
    // The task's retries (its `retrying` events): the latest few, or all once asked.
    let retries = RwSignal::new(EventPage::default());
    let all_retries = RwSignal::new(false);
    let error = RwSignal::new(None::<ClientError>);
    // The reader pressed Try again on a first read that failed.
    let asked_again = StoredValue::new(false);
    let gone = RwSignal::new(None::<Gone>);
    // A task just made by a resubmit on the page before says what it was made from:
    // the page changed to one named alike, and a second one went unnoticed (explorer).
    let made = Resubmitted::use_context();
    let resubmitted_from = made
        .and_then(|r| r.0.get_untracked())
        .filter(|(new, _)| *new == id)
        .map(|(_, from)| from);
    // Said once: coming back to the task later is no news (review). Kept past the
    // moment its Resubmit is held for (`settling`).
    if let (Some(made), Some(_)) = (made, &resubmitted_from) {
        let here = id.clone();
        set_timeout(
            move || {
                if made
                    .0
                    .try_with_untracked(|r| r.as_ref().is_some_and(|(new, _)| *new == here))
                    == Some(true)
                {
                    made.0.try_set(None);
                }
            },
            std::time::Duration::from_millis(1500),
        );
    }
    let id = StoredValue::new(id);
    // The task runs on until its replicas have ended (SIGTERM, SIGKILL after a grace
    // period) and has no phase for that: a stop answered here, or the task's
    // `stopping_since` (a stop of its current attempt, asked here or elsewhere), says it
    // is under way; either ends with the task. One under way long past the grace period
    // may have failed (a cluster that refused the job's delete): Stop is offered again.
    // Timed by this browser's clock from when the page learnt of the stop, as the
    // server's may differ.
    let stop_asked = RwSignal::new(None::<i64>);
    let stop_since =
        move || task.with(|t| t.as_ref().and_then(|t| t.stopping_since.map(|at| at.0)));
    // The stop's time as the server gives it, and when this page learnt of it.
    let stop_said = RwSignal::new(None::<(i64, i64)>);
    Effect::new(move |_| {
        let said = stop_since();
        match said {
            Some(at) if stop_said.with_untracked(|s| s.is_none_or(|(seen, _)| seen != at)) => {
                stop_said.set(Some((at, js_sys::Date::now() as i64)));
            }
            None if stop_said.with_untracked(Option::is_some) => stop_said.set(None),
            _ => {}
        }
    });
    // Each poll's answer, changed or not: what depends on the clock looks again.
    let polled = RwSignal::new(0u64);
    let stopping = Memo::new(move |_| {
        polled.track();
        let running = task.with(|t| t.as_ref().is_some_and(|t| !t.task.phase.is_finished()));
        let now = js_sys::Date::now() as i64;
        // Read from the task each time it comes (every poll), so the minute is noticed;
        // learnt now if the effect has not yet noted it.
        let learnt = stop_since().map(|at| {
            stop_said
                .get()
                .filter(|(seen, _)| *seen == at)
                .map_or(now, |(_, learnt)| learnt)
        });
        running
            && learnt
                .max(stop_asked.get())
                .is_some_and(|at| now - at < STOP_OFFERED_AGAIN_MS)
    });

    let load = move || {
        let id = id.get_value();
        let l = lang.get_untracked();
        loads.update_value(|n| *n += 1);
        let this = loads.get_value();
        let latest = move || loads.try_get_value() == Some(this);
        loading.set_value(true);
        leptos::task::spawn_local(async move {
            let fetched = api::fetch_task(&id, l).await;
            if !latest() {
                return;
            }
            match fetched {
                Ok(view) => {
                    // Reached again: a lost connection's banner goes (an action's
                    // refusal stays until dismissed).
                    // So does the failure of a first read (a server in trouble, 5xx):
                    // it stayed above the task once it came (review).
                    let first_failed = task.with_untracked(Option::is_none)
                        && error.with_untracked(Option::is_some);
                    if first_failed
                        || error.with_untracked(|e| matches!(e, Some(ClientError::Network(_))))
                    {
                        error.set(None);
                    }
                    if first_failed && asked_again.get_value() {
                        // Try again went with the banner: the keyboard goes on at the
                        // task's actions (recheck explorer: at the page's body), at a
                        // button it can press, else the actions, else the way back; not
                        // when the page's own poll brought the task (review).
                        crate::components::refocus_if_lost(
                            None,
                            &[
                                "[data-testid='actions'] button:not([disabled]):not([aria-disabled='true'])",
                                "[data-testid='actions']",
                                "[data-testid='back']",
                            ],
                        );
                    }
                    // The tasks made from it, unread when the page opened on a server
                    // that was down, are read again once it answers (recheck explorer:
                    // "not read: reload the page" stayed after Try again); once, not at
                    // every poll while that read keeps failing (review).
                    if first_failed && made_into.with_untracked(|m| m == &Some(MadeInto::Unread)) {
                        read_made_into.with_value(|read| read());
                    }
                    let retried = view.task.spec.advanced.fault_tolerance.enabled;
                    // Set only when changed: a panel drawn from the task is drawn anew, and
                    // the focus in it was lost to the page's body at every poll (explorer,
                    // round 13: after Show all, on the retries' list).
                    if task.with_untracked(|t| t.as_ref() != Some(&view)) {
                        task.set(Some(view));
                    }
                    polled.update(|n| *n = n.wrapping_add(1));
                    // Only the page shown: the latest, and any the reader asked for that
                    // a new language must word again, or that more events than a page
                    // since the last poll pushed out of it.
                    let held = events.get_untracked();
                    let reworded = events_lang.get_value() != Some(l);
                    let down_to = match (events_asked.get_untracked(), reworded) {
                        (false, _) => None,
                        (true, true) => Some(held.earlier),
                        (true, false) => Some(held.count()),
                    };
                    let fetched = latest_events(&api::Source::Task(id.clone()), l, down_to).await;
                    if !latest() {
                        return;
                    }
                    match fetched {
                        Ok(latest) => {
                            events_lang.set_value(Some(l));
                            if !events_known.get_untracked() {
                                events_known.set(true);
                            }
                            // Read as the answer lands: earlier events asked for
                            // meanwhile stay, joined to the latest.
                            let kept = events_asked.get_untracked();
                            let now = events.with_untracked(|held| {
                                if kept {
                                    joined(held, &latest).unwrap_or(latest)
                                } else {
                                    latest
                                }
                            });
                            // Set only when changed: every event shown is drawn again.
                            if events.with_untracked(|held| *held != now) {
                                events.set(now);
                            }
                        }
                        Err(err) => error.set(Some(err)),
                    }
                    // Only the retries the panel lists (a task without fault tolerance
                    // has none).
                    if retried {
                        let all = all_retries.get_untracked();
                        let fetched = api::fetch_events(
                            &api::Source::Task(id.clone()),
                            l,
                            retries_wanted(all),
                        )
                        .await;
                        if !latest() {
                            return;
                        }
                        match fetched {
                            // "Show all" asked for meanwhile: its own answer stands.
                            Ok(page) if all == all_retries.get_untracked() => {
                                if retries.with_untracked(|held| *held != page) {
                                    retries.set(page);
                                }
                            }
                            Ok(_) => {}
                            Err(err) => error.set(Some(err)),
                        }
                    }
                }
                // Deleted (by the reader, or one they share it with), shown before or not:
                // a copy's link to its deleted original said it might not be theirs to
                // see (lineage explorer).
                Err(ClientError::Api(body)) if body.code == "task.deleted" => {
                    gone.set(Some(Gone::Deleted));
                    crate::components::refocus_if_lost(None, &["[data-testid='deleted']"]);
                }
                // Shown before and gone now: deleted elsewhere, or no longer the reader's
                // to see. The page says so, as after a delete here, and asks no more.
                Err(ClientError::Api(body))
                    if body.code == "task.not_found" && task.with_untracked(Option::is_some) =>
                {
                    said_gone(gone);
                    // A keyboard user in a panel or a question that went with the task
                    // lands on the line that says why, not on the page's body.
                    crate::components::refocus_if_lost(None, &["[data-testid='deleted']"]);
                }
                Err(err) => error.set(Some(err)),
            }
            loading.try_set_value(false);
        });
    };
    // The server words events and reasons in the page's language: fetch again when it
    // switches (an ended task is polled no more).
    Effect::new(move |_| {
        lang.get();
        load();
    });
    poll_task(
        move || gone.with_untracked(Option::is_some) || loading.get_value(),
        move || task.with_untracked(|t| t.as_ref().is_none_or(|t| t.task.phase.is_finished())),
        load,
    );

    // The page before the first event shown, added above it.
    let show_earlier = Callback::new(move |()| {
        events_asked.set(true);
        let (id, l) = (id.get_value(), lang.get_untracked());
        leptos::task::spawn_local(async move {
            // A poll that lands meanwhile may move the first event shown (more than a
            // page of new ones): the page then no longer meets it, and is asked again
            // from where the events shown now begin.
            for _ in 0..3 {
                let first = events.with_untracked(|e| e.earlier + 1);
                let wanted = api::EventsWanted {
                    limit: Some(EVENTS_SHOWN),
                    before: Some(first),
                    kind: None,
                };
                match api::fetch_events(&api::Source::Task(id.clone()), l, wanted).await {
                    // Worded in a language the page has left: the language's load
                    // words every page it keeps again.
                    Ok(_) if lang.get_untracked() != l => return,
                    Ok(page) => {
                        let more = events.with_untracked(|held| joined(&page, held));
                        if let Some(more) = more {
                            events.set(more);
                            return;
                        }
                    }
                    Err(err) => {
                        error.set(Some(err));
                        return;
                    }
                }
            }
        });
    });
    // Every retry, once asked for: fetched now, and so at each poll after.
    let show_all_retries = Callback::new(move |()| {
        all_retries.set(true);
        let (id, l) = (id.get_value(), lang.get_untracked());
        leptos::task::spawn_local(async move {
            match api::fetch_events(&api::Source::Task(id.clone()), l, retries_wanted(true)).await {
                Ok(page) => retries.set(page),
                Err(err) => error.set(Some(err)),
            }
        });
    });

    // A refused resubmit's finding at a spec of the list names the spec, as the form's
    // plan does: "spec #1" says nothing on a page that shows no list.
    let catalog = StoredValue::new(session.catalog.clone());
    let spec_place = Callback::new(move |(l, path): (shared::Lang, String)| {
        let index: usize = path
            .strip_prefix("compute.specs[")?
            .strip_suffix(']')?
            .parse()
            .ok()?;
        let name = task.with_untracked(|t| {
            let spec = &t.as_ref()?.task.spec;
            let id = spec.compute.specs.get(index)?;
            Some(catalog.with_value(|c| super::spec_name(c, spec, id)))
        })?;
        Some(shared::messages::text(
            l,
            "ui.detail.spec_place",
            &[("name", name)],
        ))
    });
    let user = session.user.name.clone();
    // An owner's action refused as not the owner's: the user signed in may have changed
    // in this tab since the page opened (a proxy's new login), and the page went on
    // offering the owner's actions (team explorer). Asked who is signed in now; when
    // another, the page says so, with a reload, which shows the task as they may see it.
    // A new user of another group is not told the task is there at all (`task.not_found`):
    // the page then said only that it was gone (second review).
    let signed_in_now = RwSignal::new(None::<String>);
    {
        let opened_as = user.clone();
        Effect::new(move |_| {
            let forbidden = error.with(
                |e| matches!(e, Some(ClientError::Api(body)) if body.code == "task.forbidden"),
            ) || gone.with(|g| *g == Some(Gone::NotFound));
            let was_owner =
                task.with_untracked(|t| t.as_ref().is_some_and(|t| t.task.owner == opened_as));
            if !forbidden || !was_owner || signed_in_now.with_untracked(Option::is_some) {
                return;
            }
            let opened_as = opened_as.clone();
            leptos::task::spawn_local(async move {
                if let Ok(now) = api::fetch_catalog(&api::Base::default()).await
                    && now.user.name != opened_as
                {
                    signed_in_now.try_set(Some(now.user.name));
                }
            });
        });
    }
    let opened_as = user.clone();
    // The panels are built once the task has loaded, not at each poll: the log stream,
    // the tag draft and the focus survive a refresh.
    let loaded = Memo::new(move |_| task.with(Option::is_some));
    // The tab says the phase too: a tab left open tells how its task is.
    super::title_page(move |lang| {
        let name = id.get_value();
        // A task deleted says so there too (recheck: the page said it, the tab did not).
        let phase = match gone.get() {
            Some(Gone::Deleted) => Some(lang.text("ui.phase.deleted")),
            Some(Gone::NotFound) => None,
            None => task
                .with(|t| t.as_ref().map(|t| t.task.phase))
                .map(|phase| {
                    if stopping.get() {
                        lang.text("ui.phase.stopping")
                    } else {
                        super::phase_label(lang.get(), phase)
                    }
                }),
        };
        Some(match phase {
            Some(phase) => {
                lang.text_with("ui.detail.title#phase", &[("name", name), ("phase", phase)])
            }
            None => lang.text_with("ui.detail.title", &[("name", name)]),
        })
    });
    view! {
        <section class="task-detail" aria-labelledby="detail-title">
            <p class="back"><Link to=Route::List href=crate::nav::list_href() test_id="back">{crate::i18n::tr("ui.detail.back")}</Link></p>
            <h1 id="detail-title" data-testid="detail-title">
                {move || lang.text_with("ui.detail.title", &[("name", id.get_value())])}
                // Beside the name, on the first screen: at 200 % the status detail's phase
                // was two screens down, under a green "created", and a task that had
                // failed at once read as running (low-vision explorer).
                {move || (loaded.get() && gone.with(Option::is_none)).then(|| view! {
                    " "
                    <span data-testid="title-phase">
                        <PhaseBadge phase=Signal::derive(move || task.with(|t| t.as_ref().map_or(TaskPhase::Queued, |t| t.task.phase))) stopping />
                    </span>
                })}
            </h1>
            // Said into a status line already in the page, a moment after it: a line
            // that comes with the page is not announced, and the focus is on the page.
            {resubmitted_from.map(|from| {
                let said = RwSignal::new(false);
                set_timeout(move || { said.try_set(true); }, std::time::Duration::from_millis(150));
                let (test_id, key) = if from.is_empty() {
                    ("created-here", "ui.form.submitted")
                } else {
                    ("resubmitted-from", "ui.detail.resubmitted_from")
                };
                let here = id.get_value();
                // Gone with its task: "created" stood over "deleted" (keyboard explorer).
                // Not as it ends, which moves nothing on the page.
                let said = move || said.get() && gone.with(Option::is_none);
                // Green no more once the task failed: a task that failed at once read as
                // made and running (low-vision explorer). Kept in its place, in grey.
                let failed = move || task.with(|t| t.as_ref().is_some_and(|t| t.task.phase == TaskPhase::Failed));
                view! {
                    <p class=move || match (said(), failed()) { (false, _) => "visually-hidden", (true, false) => "banner ok", (true, true) => "banner done" } role="status" data-testid=test_id>
                        {move || said().then(|| lang.text_with(key, &[("name", from.clone()), ("id", here.clone())]))}
                    </p>
                }
            })}
            {move || signed_in_now.get().map(|now| {
                let opened_as = opened_as.clone();
                view! {
                    <p class="banner info" role="alert" data-testid="signed-in-as-other">
                        {move || lang.text_with("ui.detail.signed_in_as_other", &[("now", now.clone()), ("then", opened_as.clone())])}
                        " "
                        <button type="button" data-testid="reload-page" on:click=move |_| {
                            if let Some(w) = web_sys::window() {
                                let _ = w.location().reload();
                            }
                        }>{move || lang.text("ui.detail.reload_page")}</button>
                    </p>
                }
            })}
            // Only a resubmit sends a spec from this page.
            // Once the task is read, its poll asks again by itself: "then try again" sent a
            // reader looking for what to try (network explorer).
            <ErrorBanner error refused_spec="ui.detail.resubmit_refused" place=spec_place whole_page=Signal::derive(move || !loaded.get())
                retried=Signal::derive(move || loaded.get())
                try_again=(Callback::new(move |()| {
                    asked_again.set_value(true);
                    load();
                }), "ui.detail.loading") />
            // Deleted before the page could read it: said as when it goes while shown.
            {move || (!loaded.get() && gone.get() == Some(Gone::Deleted)).then(|| view! {
                <p class="banner ok" role="status" data-testid="deleted" tabindex="-1">
                    {move || lang.text_with("ui.detail.deleted", &[("name", id.get_value())])}
                </p>
            })}
            {move || {
                let user = user.clone();
                let session = session.clone();
                loaded.get().then(move || {
                    let view = Signal::derive(move || task.get().expect("loaded"));
                    let owner = view.with_untracked(|v| v.task.owner == user);
                    // The tags as last saved here: the spec shown carries them.
                    let tags = RwSignal::new(view.with_untracked(|v| v.tags.clone()));
                    // Set once, when the task is deleted or not found: the page then says only that.
                    let deleted = Memo::new(move |_| gone.get());
                    let zone = Memo::new(move |_| view.with(|v| v.task.spec.basic.time_zone.clone()));
                    move || if let Some(why) = deleted.get() {
                        let key = match why {
                            Gone::Deleted => "ui.detail.deleted",
                            Gone::NotFound => "ui.detail.not_found",
                        };
                        view! {
                            <p class="banner ok" role="status" data-testid="deleted" tabindex="-1">
                                {move || lang.text_with(key, &[("name", id.get_value())])}
                            </p>
                        }.into_any()
                    } else {
                        view! {
                            <Actions view owner error gone stopping=stopping.into() stop_asked=stop_asked.write_only() on_change=Callback::new(move |()| load()) />
                            <div class="columns">
                                <div>
                                    <TaskSummary view groups=session.catalog.project_groups.clone() catalog=Some(session.catalog.clone()) stopping=stopping made_into=made_into />
                                    <Resilience view retries=retries show_all=show_all_retries />
                                    <Timeline history=Signal::derive(move || view.with(|v| v.task.history.clone())) zone=zone />
                                    <EventList events=events.into() known=events_known zone=zone earlier=show_earlier />
                                </div>
                                <div>
                                    <TagEditor id=id.get_value() view owner session=session.clone() saved_tags=tags gone
                                        reload=Callback::new(move |()| load())
                                        on_saved=Callback::new(move |saved: TaskView| {
                                            // The page's task is what the save answered: a
                                            // poll sent before it (its answer older) is
                                            // dropped by the load that follows.
                                            task.set(Some(saved));
                                            load();
                                        }) />
                                    <Logs source=api::Source::Task(id.get_value()) view polled=polled.into()
                                        page_unreached=Signal::derive(move || error.with(|e| matches!(e, Some(ClientError::Network(_))))) />
                                    <SpecPanel id=id.get_value() owner tags=tags.into() polled=polled.into()
                                        made_from=view.with_untracked(|v| v.made_from.as_ref().map(|m| m.task.0.clone())) />
                                </div>
                            </div>
                        }.into_any()
                    }
                })
            }}
        </section>
    }
}

/// The tasks made from a task, as its page read them.
#[derive(Clone, Debug, PartialEq)]
pub enum MadeInto {
    /// Their ids, newest first, and whether there are more than those.
    Tasks(Vec<String>, bool),
    /// The server's answer did not come.
    Unread,
}

/// The most tasks made from a task that its page names.
const MADE_INTO_SHOWN: u32 = 10;

/// Phase, type, owner, group, attempts, submit time, why it waits and where it runs.
#[component]
pub fn TaskSummary(
    /// The task.
    view: Signal<TaskView>,
    /// The catalog's project groups, to name the task's group.
    #[prop(optional)]
    groups: Vec<shared::catalog::ProjectGroup>,
    /// The catalog, to name the placement's pool and specs as the form does; their ids
    /// without it, or where it has no entry for them.
    #[prop(default = None)]
    catalog: Option<shared::Catalog>,
    /// A stop is under way (see [`PhaseBadge`]).
    #[prop(optional, into)]
    stopping: Signal<bool>,
    /// The tasks made from this one, once read; none on a shared view, which does not
    /// say what a task was made from or into.
    #[prop(optional, into)]
    made_into: Option<Signal<Option<MadeInto>>>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let catalog = StoredValue::new(catalog);
    // An idle node by its offer's names, as the form shows the offers.
    let node_named = move |node: &str| {
        catalog.with_value(|c| match c {
            Some(c) => shared::quota::node_arg_in(c, node),
            None => shared::quota::node_arg(node),
        })
    };
    // Named as the form names them, where the catalog is at hand.
    let named = move |id: &str, name: fn(&shared::Catalog, &shared::TaskSpec, &str) -> String| {
        catalog.with_value(|c| match c {
            Some(c) => view.with_untracked(|v| name(c, &v.task.spec, id)),
            None => id.to_owned(),
        })
    };
    let row = move |key: &'static str, value: AnyView| {
        view! { <dt>{move || lang.text(key)}</dt><dd>{value}</dd> }
    };
    // Where it ran stays once it has ended: the server says where a task runs only while
    // it holds nodes, and the block went at the end, moving the panels under it up
    // (explorer, layout shift). Only where this page saw it run: the nodes of a task that
    // had ended when the page loaded are in its `admitted` events.
    // Apart from the polls' answers, which would build the link again at each.
    let made_from = Memo::new(move |_| view.with(|v| v.made_from.clone()));
    // A phase reached while the page is open is said to a screen reader (keyboard
    // explorer: a task's end was heard only while its log was followed); the phase it
    // had when the page opened is not, as the page's title and badge say it.
    // Each change is said, back to a phase said before too (running, retrying, running
    // again: review).
    let phase = Memo::new(move |_| view.with(|v| v.task.phase));
    let reached = RwSignal::new(None::<TaskPhase>);
    Effect::new(move |first: Option<()>| {
        let now = phase.get();
        if first.is_some() {
            reached.set(Some(now));
        }
    });
    let placement = Memo::new(move |before: Option<&Option<shared::Placement>>| {
        view.with(|v| match &v.placement {
            Some(now) => Some(now.clone()),
            None if v.task.phase.is_finished() => before.cloned().flatten(),
            None => None,
        })
    });
    view! {
        <section class="panel status-detail" aria-labelledby="status-title">
            <h2 id="status-title">{crate::i18n::tr("ui.detail.status")}</h2>
            <p class="visually-hidden" role="status" data-testid="phase-said">{move || {
                reached.get().map(|now| {
                    let phase = super::phase_label(lang.get(), now);
                    // With why, as the page says it under "Why it failed": the one thing
                    // heard of the end left the reason out (screen-reader explorer).
                    match view.with_untracked(failed_because).filter(|_| now == TaskPhase::Failed) {
                        Some(reason) => lang.text_with("ui.detail.phase_now#failed", &[("phase", phase), ("reason", reason)]),
                        None => lang.text_with("ui.detail.phase_now", &[("phase", phase)]),
                    }
                })
            }}</p>
            <dl>
                {row("ui.detail.phase", view! {
                    <span data-testid="detail-phase"><PhaseBadge phase=Signal::derive(move || view.with(|v| v.task.phase)) stopping /></span>
                }.into_any())}
                {row("ui.detail.type", (move || view.with(|v| v.task.spec.basic.task_type.map(TaskType::as_str).unwrap_or_default())).into_any())}
                // What it asked for, so a reader of a queued task sees what it waits for
                // without opening the spec (explorer: neither the list nor the page said
                // the kind, the priority or the specs).
                {row("ui.detail.resources", view! { <span data-testid="resources">{move || view.with(|v| {
                    catalog.with_value(|c| resources(lang.get(), c.as_ref(), &v.task.spec))
                })}</span> }.into_any())}
                {row("ui.detail.specs", view! { <span data-testid="specs">{move || view.with(|v| {
                    let spec = &v.task.spec;
                    let name = |id: &String| catalog.with_value(|c| c.as_ref().map_or_else(|| id.clone(), |c| c.spec_name(spec, id)));
                    let mut names = spec.compute.specs.iter().map(name).collect::<Vec<_>>();
                    if names.is_empty() {
                        names.push("—".to_owned());
                    }
                    let mut text = names.join(&lang.text("list.sep"));
                    if let Some(head) = spec.compute.head_spec.as_ref().filter(|_| spec.is_ray()) {
                        text.push_str(&lang.text_with("ui.detail.specs#head", &[("spec", name(head))]));
                    }
                    text
                })}</span> }.into_any())}
                {row("ui.detail.owner", (move || view.with(|v| v.task.owner.clone())).into_any())}
                {row("ui.detail.group", (move || view.with(|v| super::group_name(&groups, &v.task.spec.basic.project_group))).into_any())}
                // Beside the retries used below, which leave the re-runs out.
                {row("ui.detail.attempts", (move || view.with(|v| if v.reruns == 0 {
                    v.task.attempts.to_string()
                } else {
                    lang.text_with("ui.detail.attempts#reruns", &[
                        ("attempts", v.task.attempts.to_string()),
                        ("reruns", v.reruns.to_string()),
                    ])
                })).into_any())}
                {row("ui.detail.created", (move || view.with(|v| format_task_time(lang.get(), v.task.created_at, &v.task.spec.basic.time_zone))).into_any())}
                // There before the end, so nothing under it moves as the task ends.
                {row("ui.detail.ended", view! { <span data-testid="ended">{move || view.with(|v| {
                    match v.task.history.last().filter(|_| v.task.phase.is_finished()) {
                        Some(end) => format_task_time(lang.get(), end.at, &v.task.spec.basic.time_zone),
                        None => lang.text("ui.detail.ended#not_yet"),
                    }
                })}</span> }.into_any())}
                // Stored with the task: the page names its original after a reload too.
                {move || made_from.get().map(|from| {
                    let key = match from.how {
                        MadeHow::Resubmit => "ui.detail.made_from#resubmit",
                        MadeHow::Clone => "ui.detail.made_from#clone",
                    };
                    let id = from.task.0;
                    row(key, view! { <Link to=Route::Detail(id.clone()) test_id="made-from">{id}</Link> }.into_any())
                })}
                // Both ways: the original names what was made from it (explorer: only the
                // copies named their original).
                {move || made_into.and_then(|m| m.get()).and_then(|made| match made {
                    MadeInto::Tasks(ids, _) if ids.is_empty() => None,
                    MadeInto::Tasks(ids, more) => Some(row("ui.detail.made_into", {
                        let made_id = view.with_untracked(|v| v.task.id.0.clone());
                        view! {
                        <span data-testid="made-into">
                            {ids.into_iter().enumerate().map(|(i, id)| view! {
                                {(i > 0).then_some(move || lang.text("list.sep"))}
                                <Link to=Route::Detail(id.clone()) test_id="made-into-task">{id}</Link>
                            }).collect_view()}
                            // The rest in the list, filtered to them.
                            {more.then(|| {
                                let href = format!("/?{}", crate::api::ListFilter { made_from: made_id.clone(), ..Default::default() }.to_query());
                                view! {
                                    {move || lang.text("list.sep")}
                                    <Link to=Route::List href=href test_id="made-into-all">{move || lang.text("ui.detail.made_into#more")}</Link>
                                }
                            })}
                        </span>
                    }.into_any()})),
                    MadeInto::Unread => Some(row("ui.detail.made_into", view! {
                        <span data-testid="made-into">{move || lang.text("ui.detail.made_into#unread")}</span>
                    }.into_any())),
                })}
            </dl>
            {move || view.with(why_it_waits).map(|reason| view! {
                <div class="reason" data-testid="reason">
                    <h3>{crate::i18n::tr("ui.detail.reason")}</h3>
                    <p>{move || match &reason {
                        // The server says the time in UTC; the page in the task's zone, as
                        // every time of the task, with the date when it is not today there.
                        Waits::Until(due) => {
                            let now = Timestamp(js_sys::Date::now() as i64);
                            let zone = view.with(|v| v.task.spec.basic.time_zone.clone());
                            let at = super::format_time_from(lang.get(), *due, now, &zone);
                            lang.text_with("event.retrying.waits", &[("at", at)]).into_any()
                        }
                        // The task it waits behind, named in its words, is a way to it.
                        Waits::Because(reason, behind) => {
                            let reason = view.with(|v| of_the_run(lang.get(), v, reason.clone()));
                            match behind
                            .as_ref()
                            .and_then(|id| Some((id.0.clone(), reason.find(&id.0)?)))
                        {
                            Some((id, at)) => {
                                let before = reason[..at].to_owned();
                                let after = reason[at + id.len()..].to_owned();
                                view! {
                                    {before}
                                    <Link to=Route::Detail(id.clone()) test_id="waits-behind">{id}</Link>
                                    {after}
                                }
                                .into_any()
                            }
                            None => reason.into_any(),
                        }},
                    }}</p>
                    // Where it stands, not only why: a wait of an hour read the same with
                    // no one ahead as with twenty (the form's plan speaks of now only).
                    {move || view.with(|v| v.queue_ahead.filter(|_| v.retry_at.is_none())).map(|ahead| view! {
                        <p class="queue-ahead" data-testid="queue-ahead">{move || match ahead {
                            0 => lang.text("ui.detail.queue_ahead#first"),
                            n => shared::messages::count(lang.get(), "ui.detail.queue_ahead", n as usize),
                        }}</p>
                    })}
                    // Passed over too often, it is no longer only waiting its turn: the
                    // room it can start on is its own (the create form's plan says so of
                    // tasks behind it).
                    {move || view.with(|v| v.room_kept && v.retry_at.is_none()).then(|| view! {
                        <p class="room-kept" data-testid="room-kept">{crate::i18n::tr("ui.detail.room_kept")}</p>
                    })}
                </div>
            })}
            // A replica's failure ending the attempt, in the place "Why it failed" then
            // takes: for the grace the page read running, as if nothing had happened
            // (hung-job explorer).
            {move || view.with(|v| v.failing.clone()).filter(|_| view.with(|v| v.task.phase == TaskPhase::Running)).map(|reason| view! {
                // The reason alone, as "Why it failed" then says it, in as many lines, with
                // its way to the log: with more words here the panels under it moved up at
                // the end (recheck).
                <div class="reason" data-testid="failing">
                    <h3>{crate::i18n::tr("ui.detail.failing")}</h3>
                    <p>{reason}</p>
                    <ToLog />
                </div>
            })}
            // The timeline says it too, at its end: a failed task's page says it where the
            // reader looks first, beside the phase.
            {move || view.with(failed_because).map(|reason| view! {
                <div class="reason" data-testid="failed-reason">
                    <h3>{crate::i18n::tr("ui.detail.failed_reason")}</h3>
                    <p>{reason}</p>
                    // The log says what failed, and opens on the replica that failed it,
                    // panels below: five screens down on a phone (phone explorer).
                    <ToLog />
                </div>
            })}
            {move || placement.get().map(|placement| {
                let (ray_head, autoscaling) = view.with_untracked(|v| {
                    let s = &v.task.spec;
                    (
                        s.is_ray() && placement.head.is_some(),
                        s.autoscales().then_some((
                            s.compute.workers,
                            s.ray.autoscaling.min_workers,
                            s.ray.autoscaling.max_workers,
                        )),
                    )
                });
                view! {
                <div class="placement" data-testid="placement">
                    <h3>{crate::i18n::tr("ui.detail.placement")}</h3>
                    <p data-pool=placement.pool.clone()>{
                        let pool = named(&placement.pool, super::pool_name);
                        move || lang.text_with("ui.detail.placement_pool", &[("pool", pool.clone())])
                    }</p>
                    <ul>
                        {placement.head.clone().map(|head| {
                            let units = view.with_untracked(|v| v.task.spec.compute.units_per_node).to_string();
                            let spec = named(&head.spec, super::spec_name);
                            view! {
                                <li data-spec=head.spec.clone()>{move || lang.text_with("ui.detail.placement_head", &[
                                    ("node", node_named(&head.node).render(lang.get())),
                                    ("units", units.clone()),
                                    ("spec", spec.clone()),
                                    ("takes", takes(lang.get(), head.need)),
                                ])}</li>
                            }
                        })}
                        {placement.workers.iter().map(|share| {
                            let units = view.with_untracked(|v| v.task.spec.compute.units_per_node).to_string();
                            let need = placement.need.checked_mul(share.replicas).unwrap_or(placement.need);
                            let (replicas, spec, node) = (share.replicas.to_string(), named(&placement.spec, super::spec_name), share.node.clone());
                            // A RayJob's are its workers, beside its head's line ("6 replicas"
                            // under "Head on …" read as six more heads; Ray explorer). Not
                            // where its head is of the workers' spec, and one of them
                            // (recheck: seven "workers" above "6 workers").
                            let key = if ray_head { "ui.detail.placement_workers" } else { "ui.detail.placement_node" };
                            view! { <li data-spec=placement.spec.clone()>{move || lang.text_with(key, &[
                                ("replicas", replicas.clone()),
                                ("units", units.clone()),
                                ("spec", spec.clone()),
                                ("takes", takes(lang.get(), need)),
                                ("node", node_named(&node).render(lang.get())),
                            ])}</li> }
                        }).collect_view()}
                    </ul>
                    // Placed for its most workers (SPEC.md section 4), which the job does
                    // not start with: 6 placed for a form's 2 read as a fault (Ray explorer).
                    {autoscaling.map(|(workers, min, max)| view! {
                        // Min and max alike scale nothing: "between 2 and 2" (Ray explorer).
                        <p class="help" data-testid="placement-autoscaling">{move || lang.text_with(if min == max {
                            "ui.detail.placement_autoscaling#fixed"
                        } else {
                            "ui.detail.placement_autoscaling"
                        }, &[
                            ("max", max.to_string()),
                            ("workers", workers.to_string()),
                            ("min", min.to_string()),
                        ])}</p>
                    })}
                </div>
                }
            })}
        </section>
    }
}

/// How many of a task's latest retries its page lists until asked for all of them: a
/// task retried sixty times made the panel sixty lines long (explorer, round 10).
pub const RETRIES_SHOWN: usize = 5;

/// Monitoring and fault tolerance (SPEC.md section 7, the seeds' 监控和容错详情): whether
/// the task's metrics are scraped and where, whether failed attempts are retried and how
/// many retries are used, and each retry, with when and why.
#[component]
pub fn Resilience(
    /// The task.
    view: Signal<TaskView>,
    /// Its attempts run again, the latest or all of them, as fetched: its `retrying`
    /// events (a retry's, or a re-run's after a server stop), and how many came before
    /// those. Without them (the shared view) they are not listed; the count of retries
    /// used is the server's either way.
    #[prop(optional, into)]
    retries: Option<Signal<EventPage>>,
    /// Asks for every retry, when the latest alone are listed.
    #[prop(optional)]
    show_all: Option<Callback<()>>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let retries_list = NodeRef::<leptos::html::Ol>::new();
    // Once every retry has come after Show all, the focus goes to the list, as the
    // button has gone.
    let asked = StoredValue::new(false);
    Effect::new(move |_| {
        let all_here = retries.is_some_and(|r| r.with(|r| r.earlier == 0));
        if all_here && asked.get_value() {
            asked.set_value(false);
            // Once the list drawn with them is in the page.
            request_animation_frame(move || {
                if let Some(list) = retries_list.get_untracked() {
                    let _ = list.focus();
                }
            });
        }
    });
    let monitoring = move || {
        view.with(|v| {
            let m = &v.task.spec.advanced.monitoring;
            if m.enabled {
                lang.text_with(
                    "ui.detail.monitoring_on",
                    &[("port", m.port.to_string()), ("path", m.path.clone())],
                )
            } else {
                lang.text("ui.detail.off")
            }
        })
    };
    let retried = move || retries.map(|r| r.get()).unwrap_or_default();
    let tolerance = move || {
        view.with(|v| {
            let f = &v.task.spec.advanced.fault_tolerance;
            if f.enabled {
                // As the server counts them (`shared::Task::runs_again`): re-runs after a
                // server stop are no retries, and a retry a stop ended in its wait was not
                // used.
                let used = v.retries_used;
                // A retry is counted from when it is asked for: one still waiting to
                // run says so, or a stop in its wait, which takes it back, read as a
                // count that went down (quota explorer).
                let waiting = v.task.runs_again().waiting == Some(shared::record::RunAgain::Retry);
                lang.text_with(
                    if waiting {
                        "ui.detail.fault_tolerance_on#waiting"
                    } else {
                        "ui.detail.fault_tolerance_on"
                    },
                    &[
                        ("max", f.max_retries.to_string()),
                        ("used", used.to_string()),
                    ],
                )
            } else {
                lang.text("ui.detail.off")
            }
        })
    };
    view! {
        <section class="panel resilience" aria-labelledby="resilience-title" data-testid="resilience">
            <h2 id="resilience-title">{crate::i18n::tr("ui.detail.resilience")}</h2>
            <dl>
                <dt>{crate::i18n::tr("ui.detail.monitoring")}</dt>
                <dd data-testid="monitoring">{monitoring}</dd>
                <dt>{crate::i18n::tr("ui.detail.fault_tolerance")}</dt>
                <dd data-testid="fault-tolerance">{tolerance}</dd>
            </dl>
            {move || {
                let retried = retried();
                let zone = view.with(|v| v.task.spec.basic.time_zone.clone());
                let count = retried.count();
                // The latest, numbered as they are among all of them.
                let from = retried.earlier;
                // The latest listed never ran when the task ended in its wait: said at
                // it, or the list read as one more retry than "N used" counts (recheck).
                let latest = retried.events.len();
                let never_ran = view.with(|v| v.last_never_ran);
                let ask_all = move |_| {
                    asked.set_value(true);
                    if let Some(show_all) = show_all {
                        show_all.run(());
                    }
                };
                (count > 0).then(|| view! {
                    <h3 id="retries-title">{crate::i18n::tr("ui.detail.retries")}</h3>
                    <ol class="retries" data-testid="retries" start=from + 1 tabindex="-1"
                        aria-labelledby="retries-title" node_ref=retries_list>
                        {retried.events.into_iter().enumerate().map(|(i, retry)| {
                            let zone = zone.clone();
                            let (at, said) = (retry.at, retry.message);
                            let key = if never_ran && i + 1 == latest {
                                "ui.detail.retry#never_ran"
                            } else {
                                "ui.detail.retry"
                            };
                            view! {
                                <li>{move || lang.text_with(key, &[
                                    ("at", format_task_time(lang.get(), at, &zone)),
                                    ("reason", said.clone()),
                                ])}</li>
                            }
                        }).collect_view()}
                    </ol>
                    {(from > 0 && show_all.is_some()).then(|| view! {
                        <button type="button" data-testid="retries-all" on:click=ask_all>
                            {move || lang.text_with("ui.detail.retries_all", &[("n", count.to_string())])}
                        </button>
                    })}
                })
            }}
        </section>
    }
}

/// What replicas take on a node, in the reader's words: the GPUs of a GPU spec (what a
/// reader counts), else its vCPUs and memory.
/// The task's resource kind with what it asked of it: the pool and any idle accepted
/// for reserved instances, the priority for on-demand and spot, the stability for idle.
fn resources(lang: shared::Lang, catalog: Option<&shared::Catalog>, spec: &TaskSpec) -> String {
    use shared::messages::text;
    use shared::task::ResourceKind;
    let compute = &spec.compute;
    let Some(kind) = compute.kind else {
        return "—".to_owned();
    };
    let named = |key: &str| text(lang, key, &[]);
    // Written to sit inside a finding's sentence ("over the quota of on-demand
    // instances"), it starts the row here.
    let kind_words =
        crate::i18n::line_start(&named(&format!("resource_kind.{}", api::wire_name(&kind))));
    let stability = compute.idle_stability.map(|s| named(s.label_key()));
    match kind {
        ResourceKind::Reserved => {
            let pool = compute.pool.as_deref().unwrap_or_default();
            let pool = catalog.map_or_else(|| pool.to_owned(), |c| super::pool_name(c, spec, pool));
            let mut said = text(
                lang,
                "ui.detail.resources#pool",
                &[("kind", kind_words), ("pool", pool)],
            );
            if compute.accept_idle {
                // None chosen is any level, as the form says it ("—" read as unknown;
                // verdict explorer).
                let stability = stability.unwrap_or_else(|| named("ui.detail.stability_any"));
                said.push_str(&text(
                    lang,
                    "ui.detail.resources#accept_idle",
                    &[("stability", stability)],
                ));
                if compute.prefer_idle {
                    said.push_str(&named("ui.detail.resources#prefer_idle"));
                }
            }
            said
        }
        ResourceKind::Idle => text(
            lang,
            "ui.detail.resources#idle",
            &[
                ("kind", kind_words),
                ("stability", stability.unwrap_or_else(|| "—".to_owned())),
            ],
        ),
        // With the pool chosen, as a reserved task's says its own (verdict explorer: an
        // on-demand task's page named no pool).
        ResourceKind::OnDemand | ResourceKind::Spot => {
            let pool = compute.pool.as_deref().map(|pool| {
                catalog.map_or_else(|| pool.to_owned(), |c| super::pool_name(c, spec, pool))
            });
            let priority = compute
                .priority
                .map(|p| named(&format!("ui.form.option.priority.{}", api::wire_name(&p))));
            match (pool, priority) {
                (Some(pool), Some(priority)) => text(
                    lang,
                    "ui.detail.resources#pool_priority",
                    &[("kind", kind_words), ("pool", pool), ("priority", priority)],
                ),
                (Some(pool), None) => text(
                    lang,
                    "ui.detail.resources#pool",
                    &[("kind", kind_words), ("pool", pool)],
                ),
                (None, Some(priority)) => text(
                    lang,
                    "ui.detail.resources#priority",
                    &[("kind", kind_words), ("priority", priority)],
                ),
                (None, None) => kind_words,
            }
        }
    }
}

fn takes(lang: shared::Lang, need: shared::Resources) -> String {
    let dims: &[Dimension] = if need.gpu > 0 {
        &[Dimension::Gpu]
    } else {
        &[Dimension::Vcpu, Dimension::MemoryGib]
    };
    dims.iter()
        .map(|&d| format!("{} {}", need.get(d), d.unit_for(lang, need.get(d))))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// After tag `index` was removed, moves the focus to the × now in its place, else the
/// one before, else the Add button, as the form's rows do.
fn focus_after_tag_removal(click: &leptos::ev::MouseEvent, index: usize) {
    crate::components::refocus_after_removal(
        click,
        "section.tags",
        index,
        |i| format!(".tag-list > li:nth-child({}) .remove", i + 1),
        "[data-testid='tag-add']".to_owned(),
    );
}

/// Why a task waits, as its page says it.
enum Waits {
    /// Its retry's backoff, until then.
    Until(Timestamp),
    /// Another reason, as the server words it, and the task it waits behind, if any.
    Because(String, Option<shared::TaskId>),
}

fn why_it_waits(view: &TaskView) -> Option<Waits> {
    match (view.retry_at, &view.reason) {
        (Some(due), _) => Some(Waits::Until(due)),
        (None, Some(reason)) => Some(Waits::Because(reason.clone(), view.waits_behind.clone())),
        (None, None) => None,
    }
}

/// The run a waiting task waits to start, when it is a retry: after its backoff a retry
/// waits in the queue for room as a new task does, and read as one that never ran
/// (failure explorer).
///
/// Only right after a retry's wait: a run put back in the queue by a server's restart
/// is a re-run, not a retry (review), as the server's `failed_replica` reads it.
pub(crate) fn retry_run(view: &TaskView) -> Option<u32> {
    let waiting = matches!(view.task.phase, TaskPhase::Queued | TaskPhase::Scheduling);
    let after_retry = shared::record::last_outcome(&view.task.history)
        .is_some_and(|c| c.phase == TaskPhase::Retrying);
    (waiting && after_retry && view.task.attempts > 0).then_some(view.task.attempts + 1)
}

/// `reason`, said of the retry it is for when it is one ([`retry_run`]).
pub(crate) fn of_the_run(lang: shared::Lang, view: &TaskView, reason: String) -> String {
    match retry_run(view) {
        Some(run) => shared::messages::text(
            lang,
            "ui.detail.waits_run",
            &[("run", run.to_string()), ("reason", reason)],
        ),
        None => reason,
    }
}

/// Why a failed task failed: the reason of its last step, which entered the failure.
pub(crate) fn failed_because(view: &TaskView) -> Option<String> {
    let last = view.task.history.last()?;
    (view.task.phase == TaskPhase::Failed
        && last.phase == TaskPhase::Failed
        && !last.reason.is_empty())
    .then(|| last.reason.clone())
}

/// Every phase the task went through, oldest first, with why.
#[component]
pub fn Timeline(
    /// The task's phase history.
    history: Signal<Vec<PhaseChange>>,
    /// The task's time zone, which its times are shown in.
    #[prop(into)]
    zone: Signal<String>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    view! {
        <section class="panel timeline" aria-labelledby="timeline-title">
            <h2 id="timeline-title">{crate::i18n::tr("ui.detail.timeline")}</h2>
            <ol data-testid="timeline">
                {move || {
                    let steps = history.get();
                    // How long each phase lasted, once the next began: how long the task
                    // waited, how long each attempt ran (failure explorer: worked out by
                    // subtracting the times).
                    let ends: Vec<Option<Timestamp>> =
                        steps.iter().skip(1).map(|next| Some(next.at)).chain([None]).collect();
                    steps.into_iter().zip(ends).map(|(step, end)| {
                    let phase = step.phase;
                    view! {
                        <li data-phase=api::wire_name(&phase)>
                            <span class="phase-name">{move || phase_label(lang.get(), phase)}</span>
                            " "
                            <time>{move || format_task_time(lang.get(), step.at, &zone.get())}</time>
                            {end.filter(|_| !phase.is_finished()).map(|end| view! {
                                " "
                                <span class="took" data-testid="took">{move || {
                                    let l = lang.get();
                                    shared::messages::text(l, "ui.detail.took", &[("duration", super::format_duration(l, step.at, end))])
                                }}</span>
                            })}
                            {(!step.reason.is_empty()).then(|| view! { <p class="why">{step.reason.clone()}</p> })}
                        </li>
                    }
                }).collect_view()}}
            </ol>
        </section>
    }
}

/// How many of a task's latest events the page shows at first, and how many more each
/// "Show earlier" adds: a task retried a hundred times has four hundred.
pub const EVENTS_SHOWN: usize = 50;

/// The most events one request asks for: the server's page at most.
const EVENTS_READ_MAX: usize = 500;

/// The kind of a retry's event.
const RETRYING: &str = "retrying";

/// The retries the panel fetches: the latest [`RETRIES_SHOWN`], or `all`.
fn retries_wanted(all: bool) -> api::EventsWanted {
    api::EventsWanted {
        kind: Some(RETRYING),
        limit: (!all).then_some(RETRIES_SHOWN),
        before: None,
    }
}

/// The latest [`EVENTS_SHOWN`] of `source`'s events, and the ones before them down to
/// the number `down_to` (those that many events leave out), fetched a page at a time.
pub(crate) async fn latest_events(
    source: &api::Source,
    lang: shared::Lang,
    down_to: Option<usize>,
) -> api::Result<EventPage> {
    let wanted = api::EventsWanted {
        limit: Some(EVENTS_SHOWN),
        ..api::EventsWanted::default()
    };
    let mut latest = api::fetch_events(source, lang, wanted).await?;
    while let Some(down_to) = down_to.filter(|&d| latest.earlier > d) {
        let wanted = api::EventsWanted {
            limit: Some((latest.earlier - down_to).min(EVENTS_READ_MAX)),
            before: Some(latest.earlier + 1),
            kind: None,
        };
        let before = api::fetch_events(source, lang, wanted).await?;
        match joined(&before, &latest) {
            Some(more) if more.earlier < latest.earlier => latest = more,
            // None came (the server's events cannot shrink): as it is.
            _ => break,
        }
    }
    Ok(latest)
}

/// The events of `above` and then those of `below` after them, when the two meet (the
/// events are numbered for good, so a number names one event): `None` when events
/// between them are missing.
pub fn joined(above: &EventPage, below: &EventPage) -> Option<EventPage> {
    if above.earlier > below.earlier || above.count() < below.earlier {
        return None;
    }
    let mut events = above.events[..below.earlier - above.earlier].to_vec();
    events.extend(below.events.iter().cloned());
    Some(EventPage {
        events,
        earlier: above.earlier,
    })
}

/// What happened, oldest first: scheduling decisions, starts, exits, retries. The latest
/// [`EVENTS_SHOWN`] are shown, and earlier ones a page at a time on asking.
#[component]
pub fn EventList(
    /// The events fetched, and how many came before them.
    events: Signal<EventPage>,
    /// Whether they have been read: until then an empty list says nothing.
    #[prop(into, default = Signal::stored(true))]
    known: Signal<bool>,
    /// The task's time zone, which its times are shown in.
    #[prop(into)]
    zone: Signal<String>,
    /// Asks for the page before the first event shown.
    earlier: Callback<()>,
    /// Why that ask failed, said under its button, where it was pressed (the shared
    /// view's; the task page says it in its banner): under a long list it was off
    /// screen (recheck explorer).
    #[prop(optional)]
    failed: Option<RwSignal<Option<ClientError>>>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let left_out = Memo::new(move |_| events.with(|e| e.earlier));
    let list = NodeRef::<leptos::html::Ol>::new();
    // The button goes once every event is shown: the focus goes to the list, not to the
    // page's body.
    let asked = StoredValue::new(false);
    Effect::new(move |_| {
        if left_out.get() == 0
            && asked.get_value()
            && let Some(list) = list.get_untracked()
        {
            asked.set_value(false);
            let _ = list.focus();
        }
    });
    let show_earlier = move |_| {
        asked.set_value(true);
        earlier.run(());
    };
    view! {
        <section class="panel events" aria-labelledby="events-title">
            <h2 id="events-title">{crate::i18n::tr("ui.detail.events")}</h2>
            {move || (known.get() && events.with(|e| e.count() == 0)).then(|| view! {
                <p class="empty">{crate::i18n::tr("ui.detail.events_empty")}</p>
            })}
            {move || (left_out.get() > 0).then(|| view! {
                <button type="button" data-testid="events-earlier" on:click=show_earlier>
                    {move || lang.text_with("ui.detail.events_earlier", &[("n", left_out.get().to_string())])}
                </button>
            })}
            {failed.map(|error| view! { <ErrorBanner error /> })}
            <ol data-testid="events" tabindex="-1" aria-labelledby="events-title" node_ref=list>
                {move || events.with(|e| e.events.clone()).into_iter().map(|event| {
                    let key = format!("ui.detail.event.{}", event.kind);
                    let kind = event.kind.clone();
                    view! {
                        <li data-kind=event.kind.clone()>
                            <time>{move || format_task_time(lang.get(), event.at, &zone.get())}</time>
                            " "
                            <strong>{move || {
                                // A kind this console does not know yet shows as sent.
                                let text = lang.text(&key);
                                if text == key { kind.clone() } else { text }
                            }}</strong>
                            " "
                            <span class="message">{event.message.clone()}</span>
                        </li>
                    }
                }).collect_view()}
            </ol>
        </section>
    }
}

/// What the actions ask before they act: both end work that cannot be had back.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Question {
    /// Stop a task that runs or waits: its replicas end now, unsaved work is lost.
    Stop,
    /// Delete a finished task for good.
    Delete,
}

impl Question {
    /// Its name in test ids, the question's message key and its answer's.
    fn keys(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Question::Stop => ("stop", "ui.detail.stop_confirm", "ui.detail.stop_yes"),
            Question::Delete => ("delete", "ui.detail.delete_confirm", "ui.detail.delete_yes"),
        }
    }
}

/// The task the last resubmit made, and the task it was made from, for the new task's
/// page to say. Provided by the console.
#[derive(Clone, Copy)]
pub struct Resubmitted(RwSignal<Option<(String, String)>>);

impl Resubmitted {
    /// Provides it to the views below.
    pub fn provide() {
        provide_context(Resubmitted(RwSignal::new(None)));
    }

    fn use_context() -> Option<Self> {
        use_context::<Self>()
    }

    /// The one the views above provided, if any; taken where a view is made (a
    /// callback run later has no views above it).
    pub fn here() -> Option<Self> {
        Self::use_context()
    }

    /// The form just made task `id`: its page says so, as the form's own line did until
    /// the page changed (screen-reader explorer: the line went with the form, unheard).
    pub fn note_created(&self, id: String) {
        self.0.set(Some((id, String::new())));
    }
}

/// Where the key of a resubmit of task `id` that had no answer is kept: the tab's
/// session storage, which a reload keeps.
fn resubmit_slot(id: &str) -> String {
    format!("berth.resubmit.{id}")
}

/// The `Idempotency-Key` of a resubmit of task `id`: the one a resubmit with no answer
/// went with, here or before a reload, else a new one, kept until the server answers. A
/// resubmit whose answer was lost, pressed again as the page then says, made a second
/// task (slow-link explorer); with the key it went with, the server answers with the
/// task the first made, if it made one.
fn resubmit_key(id: &str) -> String {
    let storage = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    let slot = resubmit_slot(id);
    if let Some(key) = storage
        .as_ref()
        .and_then(|s| s.get_item(&slot).ok().flatten())
    {
        return key;
    }
    let key = api::new_idempotency_key();
    if let Some(storage) = storage {
        let _ = storage.set_item(&slot, &key);
    }
    key
}

/// The server answered a resubmit of task `id`: the next press is a new request.
fn resubmit_answered(id: &str) {
    if let Some(storage) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) {
        let _ = storage.remove_item(&resubmit_slot(id));
    }
}

/// Why the page's task is no longer there.
#[derive(Clone, Copy, PartialEq)]
enum Gone {
    /// Deleted: here, in another tab, before the page opened (the API's `task.deleted`,
    /// told to those who could see the task).
    Deleted,
    /// Not found since the page read it: no longer the reader's to see (they left its
    /// group, its owner hid it from the group), or deleted after that (`task.not_found`,
    /// which tells a task's existence to no one who may not see it).
    NotFound,
}

/// Notes that the page's task is not found since the page read it, unless it was
/// deleted here: then it stays said so (the read a language switch asks for found it
/// gone, and the page said it was "deleted, or no longer yours to see": keyboard
/// explorer).
fn said_gone(gone: RwSignal<Option<Gone>>) {
    if gone.get_untracked() != Some(Gone::Deleted) {
        gone.set(Some(Gone::NotFound));
    }
}

/// Says `err` where the page says refusals, unless it is the task's own 404: then the
/// task is gone since the page read it, and the page says that instead.
fn deleted_or(
    err: ClientError,
    gone: RwSignal<Option<Gone>>,
    error: RwSignal<Option<ClientError>>,
) {
    if matches!(&err, ClientError::Api(body) if body.code == "task.deleted") {
        gone.set(Some(Gone::Deleted));
        crate::components::refocus_if_lost(None, &["[data-testid='deleted']"]);
    } else if matches!(&err, ClientError::Api(body) if body.code == "task.not_found") {
        said_gone(gone);
        crate::components::refocus_if_lost(None, &["[data-testid='deleted']"]);
    } else {
        error.set(Some(err));
    }
}

/// The id of the line that says why Stop is off while a stop is under way.
const STOP_ASKED_ID: &str = "stop-asked";

/// The id of the line that says why Delete is off until the task has ended.
const DELETE_AFTER_END_ID: &str = "delete-after-end";
/// The id of the line that tells Clone from Resubmit under a failed task's actions.
const FAILED_NEXT_ID: &str = "failed-next";

/// The actions' panels that open below them.
#[derive(Clone, Copy)]
enum Panel {
    /// The share link just made.
    Link,
    /// The task's links that work.
    Links,
}

/// Stop and delete (each after a confirmation), clone, resubmit, share, and the task's
/// share links, each with its Revoke.
#[component]
fn Actions(
    view: Signal<TaskView>,
    owner: bool,
    error: RwSignal<Option<ClientError>>,
    gone: RwSignal<Option<Gone>>,
    stopping: Signal<bool>,
    stop_asked: WriteSignal<Option<i64>>,
    on_change: Callback<()>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let nav = Nav::use_context();
    let id = move || view.with_untracked(|v| v.task.id.0.clone());
    let finished = move || view.with(|v| v.task.phase.is_finished());
    let failed = move || view.with(|v| v.task.phase == TaskPhase::Failed);
    let confirming = RwSignal::new(None::<Question>);
    // The list, once back at it, does not show the task deleted here.
    let list = super::task_list::ListMemory::use_context();
    // The dialog is built once per question, however often it is asked.
    let asking = Memo::new(move |_| confirming.get());
    // Keyboard users land on the question, at its safe answer: a second Enter must not
    // stop or delete. Cancel (or Escape) puts them back at the button that asked, not at
    // the page's top.
    let confirm_no = NodeRef::<leptos::html::Button>::new();
    let stop_button = NodeRef::<leptos::html::Button>::new();
    let delete_button = NodeRef::<leptos::html::Button>::new();
    let share_button = NodeRef::<leptos::html::Button>::new();
    let links_button = NodeRef::<leptos::html::Button>::new();
    // Where the focus goes when the control that had it goes away or is disabled while
    // its request is out (a confirmed stop, a share): left there, it fell to the page's
    // body, and a keyboard user started again from the top.
    let actions = NodeRef::<leptos::html::Section>::new();
    let share_link = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(link) = share_link.get() {
            let _ = link.focus();
            link.select();
        }
    });
    Effect::new(move |_| {
        if let Some(button) = confirm_no.get() {
            let _ = button.focus();
        }
    });
    // A task that ends, or is being stopped from elsewhere, while Stop is being asked has
    // nothing left to stop: the question goes, a line says why, and the keyboard, which
    // was on the question, goes to that line.
    let stopped_meanwhile = RwSignal::new(false);
    // Stop is disabled as its task ends or is stopped elsewhere, and the browser drops
    // the focus it had to the page's body: a keyboard user on it lost their place, and a
    // screen reader fell silent (keyboard explorer). Whether it had the focus is kept
    // from its own events, as the disabling blurs it before an effect could look.
    let stop_focused = StoredValue::new(false);
    let on_stop_focus = move |_: web_sys::FocusEvent| stop_focused.set_value(true);
    let on_stop_blur = move |_: web_sys::FocusEvent| {
        let disabled = stop_button.get_untracked().is_some_and(|b| b.disabled());
        if !disabled {
            stop_focused.set_value(false);
        }
    };
    Effect::new(move |was_off: Option<bool>| {
        let off = finished() || stopping.get();
        if off && was_off == Some(false) && stop_focused.get_value() {
            stop_focused.set_value(false);
            // On the disabled button still, or on the body once the browser has moved it
            // off (its focus fixup runs with the rendering, before or after this frame).
            request_animation_frame(move || {
                let active = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.active_element());
                let stop: Option<web_sys::Element> = stop_button.get_untracked().map(Into::into);
                let lost = active
                    .as_ref()
                    .is_none_or(|a| a.tag_name() == "BODY" || Some(a) == stop.as_ref());
                if lost && let Some(actions) = actions.get_untracked() {
                    let _ = actions.focus();
                }
            });
        }
        off
    });
    Effect::new(move |_| {
        if (finished() || stopping.get()) && confirming.get_untracked() == Some(Question::Stop) {
            confirming.set(None);
            stopped_meanwhile.set(true);
            crate::components::refocus_if_lost(
                None,
                &["[data-testid='stop-meanwhile']", "[data-testid='actions']"],
            );
        }
    });
    let cancel = move || {
        let asked = confirming.get_untracked();
        confirming.set(None);
        let button = match asked {
            Some(Question::Stop) => stop_button.get_untracked(),
            _ => delete_button.get_untracked(),
        };
        if let Some(button) = button {
            let _ = button.focus();
        }
    };
    let share = RwSignal::new(None::<String>);
    let copied = RwSignal::new(None::<bool>);
    // Which listed link the last Copy in the list was of, and whether it was copied.
    let copied_link = RwSignal::new(None::<(u32, bool)>);
    let busy = RwSignal::new(false);
    // The task's links that work, once asked for (Share or Links); what the last Revoke
    // did, said where the revoked link's button was.
    let links = RwSignal::new(None::<Vec<ShareLink>>);
    let revoked = RwSignal::new(None::<(u32, shared::Timestamp)>);
    let revoked_note = NodeRef::<leptos::html::P>::new();
    let zone = move || view.with_untracked(|v| v.task.spec.basic.time_zone.clone());
    let made_at = move |at: shared::Timestamp| format_task_time(lang.get(), at, &zone());
    let link_address = |token: &str| {
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        format!("{origin}{}", Route::Shared(token.to_owned()).href())
    };
    // Whether the list came.
    let list_links = move |id: String| async move {
        match api::share_links(&id).await {
            Ok(list) => {
                links.set(Some(list));
                true
            }
            Err(err) => {
                deleted_or(err, gone, error);
                false
            }
        }
    };

    // An action on a task deleted meanwhile (another tab, another member of the group):
    // the page says it was deleted, as its refresh would, not that there is no such task
    // or it is not the reader's to see.
    let refused = move |err: ClientError| deleted_or(err, gone, error);
    // An action whose answer was lost (no connection, a gateway's error, no answer in
    // 30 s) may have been done: said beside the actions, with what it may have done,
    // until the next action or Dismiss. Said in the page's banner, it went at the next
    // poll that reached the server, and a stop pressed in a tunnel left no trace
    // (network explorer).
    // With the key of the words for what the action may have done.
    let lost = RwSignal::new(None::<(&'static str, ClientError)>);
    let failed_as = move |may_have: &'static str| {
        move |err: ClientError| match err {
            ClientError::Network(_) => {
                lost.set(Some((may_have, err)));
                // What it did, if anything, read at once, not at the next poll: a
                // delete that was done left the task shown, its actions on (recheck).
                on_change.run(());
            }
            err => refused(err),
        }
    };
    // A lost stop that was done, or a task that ended meanwhile: its note goes, which
    // said "pressing Stop again is safe" beside a greyed Stop (recheck).
    Effect::new(move |_| {
        if (finished() || stopping.get())
            && lost.with_untracked(|l| {
                l.as_ref()
                    .is_some_and(|(key, _)| *key == "ui.detail.lost.stop")
            })
        {
            lost.set(None);
        }
    });
    // An action with no answer after a moment says it waits: the buttons stayed off
    // without a word for as long as the server took (slow-link explorer: 50 s).
    let waiting = RwSignal::new(false);
    let jobs = StoredValue::new(0u32);
    let run = move |job: std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>| {
        busy.set(true);
        lost.set(None);
        jobs.update_value(|n| *n = n.wrapping_add(1));
        let this = jobs.get_value();
        set_timeout(
            move || {
                // The page may be gone (a resubmit moved on, a delete ended it): its
                // signals with it (review: reading them there panicked).
                if busy.try_get_untracked() == Some(true) && jobs.try_get_value() == Some(this) {
                    waiting.try_set(true);
                }
            },
            std::time::Duration::from_secs(2),
        );
        leptos::task::spawn_local(async move {
            job.await;
            busy.set(false);
            waiting.try_set(false);
        });
    };
    let stop = move || {
        let id = id();
        confirming.set(None);
        // A revoke said before is not what this answers.
        revoked.set(None);
        if let Some(section) = actions.get_untracked() {
            let _ = section.focus();
        }
        run(Box::pin(async move {
            match api::stop_task(&id).await {
                Ok(view) => {
                    // Said at once: the events that say it come with the next refresh.
                    if !view.task.phase.is_finished() {
                        stop_asked.set(Some(js_sys::Date::now() as i64));
                    }
                    on_change.run(())
                }
                Err(err) => failed_as("ui.detail.lost.stop")(err),
            }
        }))
    };
    let delete = move || {
        let id = id();
        confirming.set(None);
        // A revoke said before is not what this answers.
        revoked.set(None);
        if let Some(section) = actions.get_untracked() {
            let _ = section.focus();
        }
        run(Box::pin(async move {
            // Deleted meanwhile (another tab: `task.deleted`), or no longer the reader's to
            // see (`task.not_found`); either way it is gone from their view, which is
            // what they asked for, so the page says so rather than refuse it.
            let deleted = match api::delete_task(&id).await {
                Err(ClientError::Api(body)) if body.code == "task.not_found" => Ok(Gone::NotFound),
                Err(ClientError::Api(body)) if body.code == "task.deleted" => Ok(Gone::Deleted),
                other => other.map(|()| Gone::Deleted),
            };
            match deleted {
                Ok(why) => {
                    if let Some(list) = list {
                        list.forget(&id);
                    }
                    gone.set(Some(why));
                    // The actions went with the task: the page's one line says it.
                    crate::components::refocus_if_lost(None, &["[data-testid='deleted']"]);
                }
                Err(err) => failed_as("ui.detail.lost.delete")(err),
            }
        }))
    };
    let resubmitted = Resubmitted::use_context();
    // A page reached by Resubmit holds its own for a moment: it is where the one pressed
    // was, and a second press meant for that one would run this task too (re-test: two
    // clicks 600 ms apart made two tasks).
    let settling = RwSignal::new(
        resubmitted
            .and_then(|r| r.0.get_untracked())
            .is_some_and(|(new, _)| new == id()),
    );
    if settling.get_untracked() {
        set_timeout(
            move || {
                let _ = settling.try_set(false);
            },
            std::time::Duration::from_millis(1000),
        );
    }
    let resubmit = move |ev: web_sys::MouseEvent| {
        // A double-click's second click lands on the new task's page, whose Resubmit is
        // where this one was: it would run the new task again too (explorer).
        if ev.detail() > 1 {
            return;
        }
        // Asked before the new task is made, not after: staying then would leave a task
        // made and its page unseen.
        if !crate::nav::may_leave() {
            return;
        }
        let id = id();
        revoked.set(None);
        let key = resubmit_key(&id);
        let l = lang.get_untracked();
        if let Some(section) = actions.get_untracked() {
            let _ = section.focus();
        }
        run(Box::pin(async move {
            let answer = api::resubmit_task(&id, &key, l).await;
            if !matches!(answer, Err(ClientError::Network(_))) {
                resubmit_answered(&id);
            }
            match answer {
                Ok(new) => {
                    if let Some(resubmitted) = resubmitted {
                        resubmitted.0.set(Some((new.task.id.0.clone(), id)));
                    }
                    let route = Route::Detail(new.task.id.0);
                    let href = route.href();
                    nav.go_unasked(route, &href);
                }
                Err(err) => failed_as("ui.detail.lost.resubmit")(err),
            }
        }))
    };
    let make_share = move |_| {
        let id = id();
        if let Some(section) = actions.get_untracked() {
            let _ = section.focus();
        }
        run(Box::pin(async move {
            match api::share_task(&id).await {
                Ok(link) => {
                    share.set(Some(link_address(&link.token)));
                    copied.set(None);
                    revoked.set(None);
                    // The link alone: an open list of links closes, or the new link
                    // stood twice, in two panels, each with its Close (phone
                    // explorer, and its recheck).
                    links.set(None);
                }
                Err(err) => failed_as("ui.detail.lost.share")(err),
            }
        }))
    };
    let show_links = move |_| {
        let id = id();
        revoked.set(None);
        // The list holds the link Share showed: one panel, not the same link twice, each
        // with its Close (phone recheck).
        share.set(None);
        copied.set(None);
        copied_link.set(None);
        // The buttons are off while the list loads: the focus would fall to the page's
        // body (explorer, round 10), so it waits on the actions, as Share's does.
        let waiting_on = actions.get_untracked();
        if let Some(section) = &waiting_on {
            let _ = section.focus();
        }
        run(Box::pin(async move {
            // The list is what was asked for: the keyboard goes on from its heading,
            // unless the user put the focus elsewhere meanwhile. On a failure the
            // actions, which say what went wrong, keep it (a list shown before is not
            // what this answer brought).
            if list_links(id).await {
                leptos::prelude::request_animation_frame(move || {
                    let document = web_sys::window().and_then(|w| w.document());
                    let waited = document
                        .as_ref()
                        .and_then(|d| d.active_element())
                        .zip(waiting_on)
                        .is_some_and(|(active, section)| {
                            let section: &web_sys::Node = &section;
                            section.is_same_node(Some(&active))
                        });
                    if let Some(heading) = document
                        .filter(|_| waited)
                        .and_then(|d| d.get_element_by_id("share-links-title"))
                        .and_then(|e| {
                            wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok()
                        })
                    {
                        let _ = heading.focus();
                    }
                });
            }
        }))
    };
    // The link whose Revoke is being asked, and the question's Cancel, focused as it
    // opens, as Stop's is.
    let revoking = RwSignal::new(None::<u32>);
    let revoke_no = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let Some(button) = revoke_no.get() {
            let _ = button.focus();
        }
    });
    let revoke = move |link: ShareLink| {
        let id = id();
        let address = link_address(&link.token);
        // Its button goes with it: the focus goes to the line that says it is done.
        if let Some(note) = revoked_note.get_untracked() {
            let _ = note.focus();
        }
        run(Box::pin(async move {
            // Revoked meanwhile (another tab): what was asked for is done.
            let done = match api::revoke_share(&id, link.link).await {
                Err(ClientError::Api(body)) if body.code == "share.not_found" => Ok(()),
                other => other,
            };
            match done {
                Ok(()) => {
                    links.update(|list| {
                        if let Some(list) = list {
                            list.retain(|l| l.link != link.link);
                        }
                    });
                    if share.get_untracked().as_deref() == Some(address.as_str()) {
                        share.set(None);
                    }
                    revoked.set(Some((link.link, link.created_at)));
                    copied_link.set(None);
                }
                Err(err) => {
                    deleted_or(err, gone, error);
                    // Not on the empty line it waited on: back to the actions, which
                    // say what went wrong.
                    if let Some(section) = actions.get_untracked() {
                        let _ = section.focus();
                    }
                }
            }
        }))
    };
    // The share link and the list of links close by their Close or by Escape, and the
    // keyboard goes back to the button that opened them (keyboard explorer: Escape did
    // nothing, and the panels stayed open for good).
    let close = move |panel: Panel| {
        let button = match panel {
            Panel::Link => {
                share.set(None);
                copied.set(None);
                share_button.get_untracked()
            }
            Panel::Links => {
                links.set(None);
                links_button.get_untracked()
            }
        };
        // Share and Links are off while a request is out: the actions keep the focus.
        match button.filter(|b| !b.disabled()) {
            Some(button) => {
                let _ = button.focus();
            }
            None => {
                if let Some(section) = actions.get_untracked() {
                    let _ = section.focus();
                }
            }
        }
    };
    let on_escape = move |panel: Panel| {
        move |ev: web_sys::KeyboardEvent| {
            if ev.key() == "Escape" {
                ev.prevent_default();
                close(panel);
            }
        }
    };
    let copy = move |_| {
        let Some(link) = share.get_untracked() else {
            return;
        };
        leptos::task::spawn_local(async move {
            let done = to_clipboard(&link).await;
            copied.set(Some(done));
        });
    };
    // A listed link copied by its own button: only the newest link had a Copy, in
    // Share's panel, and an older one sent before had to be selected by hand (explorer).
    let copy_listed = move |n: u32, address: String| {
        copied_link.set(None);
        leptos::task::spawn_local(async move {
            let done = to_clipboard(&address).await;
            let _ = copied_link.try_set(Some((n, done)));
        });
    };
    view! {
        <section class="panel actions" aria-labelledby="actions-title" tabindex="-1" node_ref=actions data-testid="actions">
            <h2 id="actions-title" class="visually-hidden">{crate::i18n::tr("ui.detail.actions")}</h2>
            <div class="toolbar">
                {owner.then(|| view! {
                    <button type="button" data-testid="action-stop" disabled=move || finished() || stopping.get() || busy.get()
                        aria-describedby=move || stopping.get().then_some(STOP_ASKED_ID)
                        on:click=move |_| { stopped_meanwhile.set(false); confirming.set(Some(Question::Stop)) } node_ref=stop_button
                        on:focus=on_stop_focus on:blur=on_stop_blur>
                        {crate::i18n::tr("ui.detail.stop")}
                    </button>
                    // Off without a word until the task ends, it read as broken (explorer);
                    // said only in a title, the reason never reached a keyboard or a screen
                    // reader, as a disabled button takes no focus.
                    <button type="button" data-testid="action-delete" disabled=move || !finished() || busy.get()
                        aria-describedby=move || (!finished()).then_some(if stopping.get() { STOP_ASKED_ID } else { DELETE_AFTER_END_ID }) on:click=move |_| { stopped_meanwhile.set(false); confirming.set(Some(Question::Delete)) } node_ref=delete_button>
                        {crate::i18n::tr("ui.detail.delete")}
                    </button>
                })}
                <Link to=Route::New { clone: Some(view.with_untracked(|v| v.task.id.0.clone())) } class="button" test_id="action-clone">
                    {crate::i18n::tr("ui.detail.clone")}
                </Link>
                {owner.then(|| view! {
                    <button type="button" data-testid="action-resubmit" disabled=move || busy.get() || settling.get() on:click=resubmit
                        aria-describedby=move || failed().then_some(FAILED_NEXT_ID)>
                        {crate::i18n::tr("ui.detail.resubmit")}
                    </button>
                    <button type="button" data-testid="action-share" disabled=move || busy.get() on:click=make_share node_ref=share_button>
                        {crate::i18n::tr("ui.detail.share")}
                    </button>
                    <button type="button" data-testid="action-share-links" disabled=move || busy.get() on:click=show_links node_ref=links_button>
                        {crate::i18n::tr("ui.detail.share_list")}
                    </button>
                })}
                // A line of its own kept from the start for the owner's actions: put under
                // them as it came, it pushed the page down (explorer), and a live region
                // made with its words is not always read.
                {owner.then(|| view! {
                    <span class="waiting" data-testid="waiting-answer" role="status">
                        {move || waiting.get().then(|| lang.text("ui.detail.waiting_answer"))}
                    </span>
                })}
            </div>
            // Said, not just left out: a member of the task's group saw Clone alone, and
            // no reason why the rest were missing (explorer).
            {(!owner).then(|| view! {
                <p class="help" data-testid="owner-only">{move || view.with(|v| lang.text_with("ui.detail.owner_only", &[("owner", v.task.owner.clone())]))}</p>
            })}
            {move || (owner && stopping.get()).then(|| view! {
                <p class="help" id=STOP_ASKED_ID data-testid="stop-asked" role="status">{crate::i18n::tr("ui.detail.stop_asked")}</p>
            })}
            // Not while a stop is under way: "stop it first" would ask for what was done,
            // and the stop's own line says why the task has not ended yet.
            {move || (owner && !finished() && !stopping.get()).then(|| view! {
                <p class="help" id=DELETE_AFTER_END_ID data-testid="delete-after-end">{crate::i18n::tr("ui.detail.delete_after_end")}</p>
            })}
            // The end's line in their place: with none, everything under the actions moved
            // up as the task ended (explorer, layout shift).
            {move || (owner && finished()).then(|| view! {
                <p class="help" data-testid="delete-ended">{crate::i18n::tr("ui.detail.delete_ended")}</p>
            })}
            // Which of the two to press to run it again: Resubmit ran a broken command
            // again on 16 GPUs, where Clone was meant (novice explorer).
            {move || failed().then(|| view! {
                <p class="help" id=FAILED_NEXT_ID data-testid="failed-next">
                    {move || lang.text(if owner { "ui.detail.failed_next" } else { "ui.detail.failed_next#clone" })}
                </p>
            })}
            {move || lost.get().map(|(may_have, err)| view! {
                <p class="banner error" role="alert" data-testid="action-lost">
                    {move || err.localized(lang.get())}" "
                    {move || lang.text(may_have)}" "
                    <button type="button" data-testid="action-lost-dismiss" on:click=move |_| {
                        lost.set(None);
                        if let Some(section) = actions.get_untracked() {
                            let _ = section.focus();
                        }
                    }>{move || lang.text("ui.app.dismiss")}</button>
                </p>
            })}
            <p role="status" tabindex="-1" data-testid="stop-meanwhile">
                {move || stopped_meanwhile.get().then(|| lang.text("ui.detail.stop_meanwhile"))}
            </p>
            {move || asking.get().map(|question| {
                let (what, asked, yes) = question.keys();
                let question_box = NodeRef::new();
                crate::components::close_when_focus_elsewhere(question_box, move || confirming.set(None));
                view! {
                    <div class="confirm" role="alertdialog" aria-labelledby="confirm-text" data-testid=format!("confirm-{what}")
                        on:keydown=move |ev| if ev.key() == "Escape" { cancel() }
                        node_ref=question_box>
                        <p id="confirm-text">{move || {
                            let asked = match question {
                                Question::Stop => stop_question(view.with(|v| v.task.phase)),
                                _ => asked,
                            };
                            lang.text_with(asked, &[("name", id())])
                        }}</p>
                        <button type="button" class="danger" data-testid=format!("confirm-{what}-yes")
                            on:click=move |_| if question == Question::Stop { stop() } else { delete() }>
                            {crate::i18n::tr(yes)}
                        </button>
                        <button type="button" data-testid=format!("confirm-{what}-no") on:click=move |_| cancel() node_ref=confirm_no>
                            {crate::i18n::tr("ui.detail.cancel")}
                        </button>
                    </div>
                }
            })}
            {move || share.get().map(|link| view! {
                <div class="share" data-testid="share" on:keydown=on_escape(Panel::Link)>
                    <label for="share-link">{crate::i18n::tr("ui.detail.share_link")}</label>
                    <input id="share-link" type="url" readonly value=link.clone() data-testid="share-link" aria-describedby="share-help" node_ref=share_link />
                    <button type="button" data-testid="share-copy" on:click=copy>{crate::i18n::tr("ui.detail.copy")}</button>
                    <p id="share-help" class="help">{crate::i18n::tr("ui.detail.share_help")}</p>
                    <button type="button" data-testid="share-close" aria-label=move || lang.text("ui.detail.share_close") on:click=move |_| close(Panel::Link)>
                        {crate::i18n::tr("ui.detail.close")}
                    </button>
                    <p role="status" data-testid="share-copied">
                        {move || copied.get().map(|ok| lang.text(if ok { "ui.detail.copied" } else { "ui.detail.copy_failed" }))}
                    </p>
                </div>
            })}
            {move || links.get().map(|list| view! {
                <div class="share-links" data-testid="share-links" on:keydown=on_escape(Panel::Links)>
                    <h3 id="share-links-title" tabindex="-1">{crate::i18n::tr("ui.detail.share_links")}</h3>
                    {if list.is_empty() {
                        view! { <p class="help" data-testid="share-links-none">{crate::i18n::tr("ui.detail.share_links_none")}</p> }.into_any()
                    } else {
                        view! {
                            <ul aria-labelledby="share-links-title">
                                {list.into_iter().map(|link| {
                                    let n = link.link;
                                    let at = made_at(link.created_at);
                                    let made = lang.text_with("ui.detail.share_made", &[("at", at.clone()), ("by", link.created_by.clone())]);
                                    let label = lang.text_with("ui.detail.share_revoke_label", &[("link", n.to_string()), ("at", at)]);
                                    let address = link_address(&link.token);
                                    let revoke_button = NodeRef::<leptos::html::Button>::new();
                                    let back = move || {
                                        revoking.set(None);
                                        if let Some(button) = revoke_button.get_untracked() {
                                            let _ = button.focus();
                                        }
                                    };
                                    // Asked first: a link sent to colleagues cannot be
                                    // brought back, and one tap beside it revoked it on a
                                    // phone (phone explorer).
                                    let question = move || (revoking.get() == Some(n)).then(|| {
                                        let link = link.clone();
                                        let question_box = NodeRef::new();
                                        crate::components::close_when_focus_elsewhere(question_box, move || revoking.set(None));
                                        view! {
                                            <div class="confirm" role="alertdialog" aria-labelledby=format!("revoke-text-{n}") data-testid=format!("confirm-revoke-{n}")
                                                on:keydown=move |ev| if ev.key() == "Escape" { ev.stop_propagation(); back() }
                                                node_ref=question_box>
                                                <p id=format!("revoke-text-{n}")>{move || lang.text_with("ui.detail.share_revoke_question", &[("link", n.to_string())])}</p>
                                                <button type="button" class="danger" data-testid=format!("confirm-revoke-{n}-yes")
                                                    on:click=move |_| { revoking.set(None); revoke(link.clone()) }>
                                                    {crate::i18n::tr("ui.detail.share_revoke_yes")}
                                                </button>
                                                <button type="button" data-testid=format!("confirm-revoke-{n}-no") on:click=move |_| back() node_ref=revoke_no>
                                                    {crate::i18n::tr("ui.detail.cancel")}
                                                </button>
                                            </div>
                                        }
                                    });
                                    let copy_label = lang.text_with("ui.detail.share_copy_label", &[("link", n.to_string())]);
                                    let copy_this = {
                                        let address = address.clone();
                                        move |_| copy_listed(n, address.clone())
                                    };
                                    view! {
                                        // Numbered, as the line a revoke leaves names it.
                                        <li data-testid=format!("share-link-{n}")>
                                            <span class="help">{lang.text_with("ui.detail.share_link_n", &[("link", n.to_string())])}</span>
                                            " "
                                            <code>{address}</code>
                                            " "
                                            <span class="help">{made}</span>
                                            " "
                                            <button type="button" data-testid=format!("share-copy-{n}") aria-label=copy_label on:click=copy_this>
                                                {crate::i18n::tr("ui.detail.copy")}
                                            </button>
                                            " "
                                            <button type="button" data-testid=format!("share-revoke-{n}") aria-label=label
                                                disabled=move || busy.get() on:click=move |_| revoking.set(Some(n)) node_ref=revoke_button>
                                                {crate::i18n::tr("ui.detail.share_revoke")}
                                            </button>
                                            {question}
                                        </li>
                                    }
                                }).collect_view()}
                            </ul>
                        }.into_any()
                    }}
                    // Under the links, above Close: said beside what was pressed (recheck).
                    <p role="status" data-testid="share-links-copied">
                        {move || copied_link.get().map(|(n, ok)| if ok {
                            lang.text_with("ui.detail.share_copied_n", &[("link", n.to_string())])
                        } else {
                            lang.text("ui.detail.copy_failed")
                        })}
                    </p>
                    <button type="button" data-testid="share-links-close" aria-label=move || lang.text("ui.detail.share_links_close") on:click=move |_| close(Panel::Links)>
                        {crate::i18n::tr("ui.detail.close")}
                    </button>
                </div>
            })}
            // A revoke leaves the keyboard here, outside the list, which Escape closes still.
            <p role="status" tabindex="-1" data-testid="share-revoked" node_ref=revoked_note
                on:keydown=move |ev| if links.get_untracked().is_some() { on_escape(Panel::Links)(ev) }>
                {move || revoked.get().map(|(n, at)| lang.text_with("ui.detail.share_revoked", &[("link", n.to_string()), ("at", made_at(at))]))}
            </p>
        </section>
    }
}

/// Writes `text` to the clipboard; false where the browser refuses it.
async fn to_clipboard(text: &str) -> bool {
    // `navigator.clipboard` is undefined outside a secure context (a plain-http address),
    // where calling it would throw through the page's wasm.
    let clipboard = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w.navigator(), &"clipboard".into()).ok())
        .filter(|c| c.is_object())
        .map(wasm_bindgen::JsCast::unchecked_into::<web_sys::Clipboard>);
    match clipboard {
        Some(clipboard) => wasm_bindgen_futures::JsFuture::from(clipboard.write_text(text))
            .await
            .is_ok(),
        None => false,
    }
}

/// Asked each time a reader goes to the log of the replica that failed the task (Read
/// its log): the page's log panel picks that replica, the latest attempt's, whatever was
/// picked before. Provided by the page, which holds both.
#[derive(Clone, Copy, Default)]
pub(crate) struct ToFailedLog(RwSignal<u64>);

/// Read its log: under why a task failed, or is ending for a failure.
#[component]
fn ToLog() -> impl IntoView {
    let asked = use_context::<ToFailedLog>();
    view! {
        <button type="button" class="link" data-testid="to-log" on:click=move |_| {
            if let Some(ToFailedLog(asked)) = asked {
                asked.update(|n| *n += 1);
            }
            to_log();
        }>
            {crate::i18n::tr("ui.detail.to_log")}
        </button>
    }
}

/// Takes the reader to the page's log box: its panel's heading at the window's top, the
/// keyboard in the box.
fn to_log() {
    use wasm_bindgen::JsCast;
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let found = |css: &str| document.query_selector(css).ok().flatten();
    if let Some(log) =
        found("[data-testid='log']").and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let options = web_sys::FocusOptions::new();
        options.set_prevent_scroll(true);
        let _ = log.focus_with_options(&options);
    }
    if let Some(title) = found("#logs-title") {
        title.scroll_into_view();
    }
}

/// The task's tags, editable by its owner: checked as they change by the form's tag
/// rules, which the server checks again on saving.
#[component]
fn TagEditor(
    id: String,
    view: Signal<TaskView>,
    owner: bool,
    session: CatalogResponse,
    saved_tags: RwSignal<Vec<Tag>>,
    /// Reads the task again.
    reload: Callback<()>,
    /// Takes the task as a save answered it.
    on_saved: Callback<TaskView>,
    /// Set when the task turns out to be deleted.
    gone: RwSignal<Option<Gone>>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    // With tag validation on, a tag must be one of the maintained ones: offered as the
    // form offers them, the keys for the key and that key's values for the value (it
    // was refused here with none offered: keyboard explorer).
    let (maintained, keys) = crate::form::lists::suggested_tags(&session.catalog);
    let suggest = !keys.is_empty();
    // A tag refused as not maintained is said with the tags that are.
    provide_context(crate::components::MaintainedTags(maintained.clone()));
    let maintained = StoredValue::new(maintained);
    // The save's refusal is said here, beside the tags, not at the page's top.
    let error = RwSignal::new(None::<ClientError>);
    let draft = RwSignal::new(view.with_untracked(|v| v.tags.clone()));
    // The task's tags as this page last read them, which a save names as the ones it
    // replaces. Newer ones read by the poll (set elsewhere: another tab, a script)
    // replace an unedited list; over the user's edits they are said, and a save then
    // replaces them knowingly. A save made from tags changed since is refused by the
    // server, which this page then reads again.
    let base = RwSignal::new(view.with_untracked(|v| v.tags.clone()));
    let elsewhere = RwSignal::new(None::<Vec<Tag>>);
    // Whether the line under Save says the last save: the effect below clears it.
    let saved = RwSignal::new(false);
    Effect::new(move |_| {
        let now = view.with(|v| v.tags.clone());
        if base.with_untracked(|b| *b == now) {
            return;
        }
        saved_tags.set(now.clone());
        // What the page said of the last save is about other tags now.
        saved.set(false);
        error.set(None);
        if draft.with_untracked(|d| base.with_untracked(|b| d == b)) {
            draft.set(now.clone());
            elsewhere.set(None);
        } else {
            elsewhere.set(Some(now.clone()));
        }
        base.set(now);
    });
    // The server's findings on a refused save, for the tags it refused: they join the
    // list below, each at its tag, until the tags change.
    let refused = RwSignal::new(None::<(Vec<Tag>, Vec<shared::Issue>)>);
    let findings = Memo::new(move |_| {
        if !owner {
            return Vec::new();
        }
        // The spec does not change while the page is open; the poll's copies of it would
        // only run the check again.
        let mut spec = view.with_untracked(|v| v.task.spec.clone());
        spec.basic.tags = draft.get();
        let at = shared::FieldPath::parse("basic.tags");
        let mut found = shared::check(&spec, &session.catalog, &session.usage, &session.user)
            .issues
            .under(&at)
            .cloned()
            .collect::<Vec<_>>();
        refused.with(|r| {
            if let Some((_, issues)) = r.as_ref().filter(|(tags, _)| *tags == spec.basic.tags) {
                for issue in issues {
                    if !found
                        .iter()
                        .any(|f| f.path == issue.path && f.code == issue.code)
                    {
                        found.push(issue.clone());
                    }
                }
            }
        });
        found
    });
    let blocked =
        move || findings.with(|f| f.iter().any(|i| i.severity == shared::Severity::Error));
    // The task's tags changed elsewhere while the user's differ: said, with a way to take them.
    let theirs = move || {
        elsewhere
            .get()
            .filter(|_| draft.with(|d| base.with(|b| d != b)))
    };
    let new_key = RwSignal::new(String::new());
    let new_value = RwSignal::new(String::new());
    // Edits not saved, a tag typed and not added too, are asked about before the page is
    // left (explorer: they were dropped without a word).
    let edited = move || {
        let typed = |text: RwSignal<String>| text.with(|t| !t.trim().is_empty());
        draft.with(|d| base.with(|b| d != b)) || typed(new_key) || typed(new_value)
    };
    if owner {
        crate::nav::ask_before_leaving(Signal::derive(move || {
            (edited() && gone.with(Option::is_none)).then(|| lang.text("ui.detail.tags_leave"))
        }));
    }
    let id = StoredValue::new(id);
    // A value typed without its key is added too, and the tag rules then ask for the
    // key: nothing typed is dropped unsaid.
    let key_input = NodeRef::<leptos::html::Input>::new();
    let add = move || {
        let key = new_key.get_untracked().trim().to_owned();
        let value = new_value.get_untracked().trim().to_owned();
        if key.is_empty() && value.is_empty() {
            return;
        }
        draft.update(|tags| tags.push(Tag { key, value }));
        new_key.set(String::new());
        new_value.set(String::new());
        saved.set(false);
    };
    // Save with nothing changed says so, rather than saving the same tags (newcomer
    // explorer: it was offered, and said "Tags saved.", with nothing to save).
    let nothing = RwSignal::new(false);
    // Said of the tags as they were when Save was pressed: any edit since ends it, an
    // edit undone too (review: typing a key and clearing it brought it back).
    Effect::new(move |first: Option<()>| {
        draft.track();
        new_key.track();
        new_value.track();
        if first.is_some() {
            nothing.set(false);
        }
    });
    let save = move |_| {
        // A tag typed and not yet added is what the user means to save with the rest
        // (explorer, round 11: "Tags saved." while the typed tag stayed in its boxes).
        add();
        if !edited() {
            saved.set(false);
            nothing.set(true);
            return;
        }
        nothing.set(false);
        if blocked() {
            // The keyboard goes to what says why.
            if let Some(list) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("tags-msgs"))
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
            {
                let _ = list.focus();
            }
            return;
        }
        let tags = draft.get_untracked();
        let expected = base.get_untracked();
        let l = lang.get_untracked();
        leptos::task::spawn_local(async move {
            match api::set_tags(&id.get_value(), tags.clone(), expected, l).await {
                Ok(updated) => {
                    saved_tags.set(updated.tags.clone());
                    base.set(updated.tags.clone());
                    draft.set(updated.tags.clone());
                    elsewhere.set(None);
                    saved.set(true);
                    refused.set(None);
                    error.set(None);
                    on_saved.run(updated);
                }
                // Changed elsewhere since this page read them: said, and read again; the
                // newer tags, once here, are said beside the user's, which are kept.
                Err(err @ ClientError::Api(_)) if matches!(&err, ClientError::Api(body) if body.code == "task.tags_changed") =>
                {
                    saved.set(false);
                    error.set(Some(err));
                    reload.run(());
                }
                Err(ClientError::Api(body)) if !body.issues.is_empty() => {
                    saved.set(false);
                    // The server names each at its place in the body sent (`tags[0]`),
                    // which is the spec's `basic.tags[0]` here.
                    let issues = body
                        .issues
                        .into_iter()
                        .map(|issue| {
                            let mut issue = shared::Issue::from(issue);
                            issue.path = shared::FieldPath::parse(&format!("basic.{}", issue.path));
                            issue
                        })
                        .collect();
                    refused.set(Some((tags, issues)));
                    error.set(None);
                }
                Err(err) => {
                    saved.set(false);
                    deleted_or(err, gone, error);
                }
            }
        });
    };
    view! {
        <section class="panel tags" aria-labelledby="tags-title">
            <h2 id="tags-title">{crate::i18n::tr("ui.detail.tags")}</h2>
            {move || draft.with(Vec::is_empty).then(|| view! {
                <p class="empty">{crate::i18n::tr("ui.detail.tags_none")}</p>
            })}
            <ul class="tag-list" data-testid="tags">
                {move || draft.get().into_iter().enumerate().map(|(i, tag)| {
                    let text = tag.text();
                    let label = text.clone();
                    // The tag an error is about is marked among the others: "Tags #3"
                    // alone had the reader count chips (lead explorer).
                    let row = format!("basic.tags[{i}]");
                    let refused = move || findings.with(|f| {
                        f.iter().any(|issue| {
                            let path = issue.path.to_string();
                            issue.severity == shared::Severity::Error
                                && path.strip_prefix(&row).is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
                        })
                    });
                    // Its number in words too, as the finding names it: a red chip
                    // alone is lost on a reader who cannot tell red, or hears the page
                    // (keyboard explorer).
                    let marked = refused.clone();
                    let mark = move || marked().then(|| view! {
                        <span class="tag-refused" data-testid="tag-refused">
                            {move || lang.text_with("ui.detail.tag_refused", &[("number", (i + 1).to_string())])}
                        </span>
                        " "
                    });
                    view! {
                        <li>
                            <span class="tag" class:refused=refused data-testid="tag">{mark}{text}</span>
                            {owner.then(|| view! {
                                <button
                                    type="button"
                                    class="remove"
                                    aria-label=move || lang.text_with("ui.detail.tag_remove", &[("tag", label.clone())])
                                    on:click=move |ev| {
                                        draft.update(|tags| { tags.remove(i); });
                                        saved.set(false);
                                        focus_after_tag_removal(&ev, i);
                                    }
                                >"×"</button>
                            })}
                        </li>
                    }
                }).collect_view()}
            </ul>
            {(!owner).then(|| view! {
                <p class="help" data-testid="tags-owner-only">{move || view.with(|v| lang.text_with("ui.detail.tags_owner_only", &[("owner", v.task.owner.clone())]))}</p>
            })}
            {owner.then(|| view! {
                <form class="tag-add" on:submit=move |ev| {
                    ev.prevent_default();
                    // The keyboard goes to where the next tag is typed: with nothing
                    // typed, Add leads there; after an add, it stayed on Add (explorer).
                    add();
                    if let Some(input) = key_input.get_untracked() {
                        let _ = input.focus();
                    }
                }>
                    <label>
                        <span>{crate::i18n::tr("field.basic.tags.key.label")}</span>
                        <input data-testid="tag-key" node_ref=key_input list=suggest.then_some("tag-keys-suggested")
                            prop:value=move || new_key.get() on:input=move |ev| new_key.set(event_target_value(&ev)) />
                    </label>
                    <label>
                        <span>{crate::i18n::tr("field.basic.tags.value.label")}</span>
                        <input data-testid="tag-value" list=suggest.then_some("tag-values-suggested")
                            prop:value=move || new_value.get() on:input=move |ev| new_value.set(event_target_value(&ev)) />
                    </label>
                    {suggest.then(|| view! {
                        <datalist id="tag-keys-suggested">
                            {keys.into_iter().map(|k| view! { <option value=k></option> }).collect_view()}
                        </datalist>
                        <datalist id="tag-values-suggested">
                            {move || {
                                let key = new_key.get();
                                maintained.with_value(|m| {
                                    m.iter()
                                        .filter(|t| t.key == key.trim())
                                        .map(|t| view! { <option value=t.value.clone()></option> })
                                        .collect_view()
                                })
                            }}
                        </datalist>
                    })}
                    <button type="submit" data-testid="tag-add">{crate::i18n::tr("ui.detail.tag_add")}</button>
                </form>
                <ul class="findings" id="tags-msgs" data-testid="tags-findings" aria-live="polite" tabindex="-1">
                    {move || findings.get().into_iter().map(|issue| {
                        let class = format!("finding {}", issue.severity.as_str());
                        let path = issue.path.to_string();
                        let (place, code) = (path.clone(), issue.code.code());
                        let severity = issue.severity;
                        view! {
                            <li class=class data-code=code data-path=path>
                                {crate::components::severity_badge(move || lang.get(), severity)}
                                {move || crate::components::field_place(lang.get(), &place)}
                                {move || lang.text("ui.form.summary.after_place")}
                                {move || crate::components::issue_text(&issue, lang.get())}
                            </li>
                        }
                    }).collect_view()}
                </ul>
                // Kept in the page, empty until there is something to say, so a screen
                // reader hears it when it fills.
                <p role="status" data-testid="tags-elsewhere" class:banner=move || theirs().is_some() class:info=move || theirs().is_some()>
                    {move || theirs().map(|theirs| {
                        let listed = theirs.iter().map(shared::task::Tag::text).collect::<Vec<_>>();
                        if listed.is_empty() {
                            lang.text("ui.detail.tags_elsewhere#none")
                        } else {
                            lang.text_with("ui.detail.tags_elsewhere", &[("tags", listed.join(", "))])
                        }
                    })}
                </p>
                {move || theirs().map(|take| view! {
                    <button type="button" data-testid="tags-take-theirs" on:click=move |_| {
                        draft.set(take.clone());
                        elsewhere.set(None);
                        // The button goes with the note: the keyboard goes on at Save.
                        crate::components::refocus_if_lost(None, &["[data-testid='tags-save']"]);
                    }>{crate::i18n::tr("ui.detail.tags_take_theirs")}</button>
                })}
                // Never `disabled`: a click on a disabled button dropped the focus to the
                // page's top (lineage explorer). Off, it says so, and pressed it says why.
                <button type="button" class="primary" data-testid="tags-save" aria-describedby="tags-msgs" on:click=save
                    aria-disabled=move || (blocked() || !edited()).then_some("true")>
                    {crate::i18n::tr("ui.detail.tags_save")}
                </button>
                <ErrorBanner error />
                // Edits look like saved tags: said until saved (explorer: an added tag was
                // taken as added, and dropped unsaid on leaving the page).
                <p role="status" data-testid="tags-saved">{move || {
                    // Said of a tag typed and not added too (Save takes it), which
                    // leaving asks about (console exploration: asked, never said), also
                    // once typed after a save.
                    // With errors, Save is off: the line said to press it (busy explorer).
                    if edited() && blocked() {
                        Some(lang.text("ui.detail.tags_unsaved#blocked"))
                    } else if edited() {
                        Some(lang.text("ui.detail.tags_unsaved"))
                    } else if nothing.get() {
                        Some(lang.text("ui.detail.tags_nothing"))
                    } else {
                        saved.get().then(|| lang.text("ui.detail.tags_saved"))
                    }
                }}</p>
            })}
        </section>
    }
}

/// The replicas whose logs the server keeps, as it lists them; a view without the list
/// (an older server) has the master's or the entrypoint's.
fn log_replicas(view: &TaskView) -> Vec<LogReplica> {
    if view.logs.is_empty() {
        return vec![LogReplica {
            replica: 0,
            role: match view.task.spec.basic.task_type {
                Some(TaskType::RayJob) => ReplicaRole::Submitter,
                _ => ReplicaRole::Master,
            },
        }];
    }
    view.logs.clone()
}

/// Each replica's name in the log picker, by what it runs; workers are counted from 0
/// in the list's order.
pub fn replica_labels(lang: shared::Lang, logs: &[LogReplica]) -> Vec<(u32, String)> {
    let mut workers = 0;
    // The form's words for the roles: a PyTorchJob's master and workers are 主节点 and
    // 工作节点, a RayJob's Head and Worker keep Ray's names (as the seeds write them).
    let worker = if logs.iter().any(|l| l.role == ReplicaRole::Master) {
        "ui.detail.replica_worker"
    } else {
        "ui.detail.replica_worker#ray"
    };
    logs.iter()
        .map(|log| {
            let n = ("n", log.replica.to_string());
            let text = match log.role {
                ReplicaRole::Master => {
                    shared::messages::text(lang, "ui.detail.replica_master", &[n])
                }
                ReplicaRole::Head => shared::messages::text(lang, "ui.detail.replica_head", &[n]),
                // Alone: the server runs the entrypoint without a Ray cluster, which
                // the placement's replicas did not say (failure explorer: "3 replicas"
                // and one log).
                ReplicaRole::Submitter if logs.len() == 1 => {
                    shared::messages::text(lang, "ui.detail.replica_submitter#alone", &[n])
                }
                ReplicaRole::Submitter => {
                    shared::messages::text(lang, "ui.detail.replica_submitter", &[n])
                }
                ReplicaRole::Worker => {
                    workers += 1;
                    let i = ("i", (workers - 1).to_string());
                    shared::messages::text(lang, worker, &[n, i])
                }
            };
            (log.replica, text)
        })
        .collect()
}

/// A replica is said to be quiet after this many seconds without a line.
const QUIET_SECS: u64 = 60;

/// What the logs panel says of the replicas that have written nothing for a minute or
/// more while the task runs; nothing where the server cannot tell (Kubernetes).
fn quiet_said(lang: shared::Lang, view: &TaskView) -> String {
    if view.task.phase != TaskPhase::Running || view.quiet.is_empty() {
        return String::new();
    }
    let labels = replica_labels(lang, &view.logs);
    // A count of seconds in the words the page says durations in.
    let lasting = |secs: u64| {
        let ms = i64::try_from(secs).unwrap_or(i64::MAX / 1000) * 1000;
        super::format_duration(lang, Timestamp(0), Timestamp(ms))
    };
    let quiet: Vec<String> = view
        .quiet
        .iter()
        // A log still empty is said at once: "every replica wrote" was false of a rank
        // hung from its start (hung-job recheck).
        .filter(|q| q.secs >= QUIET_SECS || q.empty)
        .filter_map(|q| {
            let (_, label) = labels.iter().find(|(r, _)| *r == q.replica)?;
            // Its name, without the words the picker adds after it (a RayJob's "the
            // entrypoint's output (…)" took four lines on a phone).
            let cut = label.find(" (").or_else(|| label.find('（'));
            let label = label[..cut.unwrap_or(label.len())].to_owned();
            let quiet_for = lasting(q.secs);
            let key = if q.empty {
                "ui.detail.log_quiet.replica#empty"
            } else {
                "ui.detail.log_quiet.replica"
            };
            Some(shared::messages::text(
                lang,
                key,
                &[("replica", label), ("for", quiet_for)],
            ))
        })
        .collect();
    // At most two named, so the line keeps to the room it has (eight ranks stuck in one
    // all-reduce took six lines on a phone, moving the log box: recheck).
    let all = quiet.len() == view.quiet.len() && quiet.len() > 2;
    match quiet.len() {
        0 => shared::messages::text(lang, "ui.detail.log_quiet#none", &[]),
        _ if all => {
            let least = view.quiet.iter().map(|q| q.secs).min().unwrap_or(0);
            let quiet_for = lasting(least);
            shared::messages::text(lang, "ui.detail.log_quiet#all", &[("for", quiet_for)])
        }
        n => {
            let mut named = quiet;
            if n > 2 {
                named.truncate(1);
                named.push(shared::messages::text(
                    lang,
                    "ui.detail.log_quiet.more",
                    &[("n", (n - 1).to_string())],
                ));
            }
            shared::messages::text(
                lang,
                "ui.detail.log_quiet",
                &[("replicas", shared::messages::list(lang, &named))],
            )
        }
    }
}

/// A replica's log of one attempt, loaded or followed live.
#[component]
pub(crate) fn Logs(
    /// Whose log: the task's, or a share link's task's.
    source: api::Source,
    view: Signal<TaskView>,
    /// Bumped by each answer of the page's poll: a log that could not be read (the
    /// connection lost) is read again once the server answers, not left failed.
    polled: Signal<u64>,
    /// The page says it cannot reach the server: the log's failure to is not said again
    /// under it (ops explorer: "Cannot reach the server" twice on one screen).
    page_unreached: Signal<bool>,
    /// The log can no longer be read (a share link revoked, said by the page): its
    /// buttons off, nor its hint to follow it or its own failure said (shared-view
    /// recheck: three red boxes, one blaming a link "not whole").
    #[prop(optional, into)]
    closed: Signal<bool>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let id = StoredValue::new(source);
    // A failed task opens on the replica whose end failed it: the master's log, first in
    // the list, said only that it was stopped (explorer).
    let failed = move || {
        view.with_untracked(|v| {
            v.failed_replica
                .filter(|r| log_replicas(v).iter().any(|l| l.replica == *r))
        })
    };
    let replica = RwSignal::new(failed().unwrap_or(0));
    // None: the latest attempt.
    let attempt = RwSignal::new(None::<u32>);
    // The reader picked a replica: the page no longer picks one for them.
    let picked = StoredValue::new(false);
    // The page moved the box to the replica that failed the task, which the box's line
    // says until the reader picks one (low-vision explorer: the log changed without a
    // word, the picker off screen at 200 %).
    let moved_to_failed = RwSignal::new(false);
    // A task that fails while its page is open goes to the replica whose end failed it,
    // as a page opened after the failure does, unless the reader picked one: under "Why
    // it failed" the master's healthy log stood (cloud-console explorer).
    Effect::new(move |before: Option<Option<u32>>| {
        let now = view.with(|v| {
            (v.task.phase == TaskPhase::Failed)
                .then_some(v.failed_replica)
                .flatten()
        });
        let latest = attempt.get_untracked().is_none();
        if before.is_some_and(|b| b.is_none())
            && !picked.get_value()
            && latest
            && let Some(r) = now.filter(|r| failed() == Some(*r))
            && replica.get_untracked() != r
        {
            replica.set(r);
            moved_to_failed.set(true);
        }
        now
    });
    // Read its log, under why the task failed or is ending: the replica that failed it,
    // though another was picked, or the page opened before the failure (phone recheck:
    // it went to the master's healthy log).
    if let Some(ToFailedLog(asked)) = use_context::<ToFailedLog>() {
        Effect::new(move |before: Option<u64>| {
            let now = asked.get();
            if before.is_some_and(|b| b != now)
                && let Some(r) = failed()
            {
                attempt.set(None);
                replica.set(r);
            }
            now
        });
    }
    // The log's end as shown (at most `SHOWN_MAX` bytes read, `SHOWN_MAX` + `CUT_SLACK`
    // followed), and the bytes read in all.
    let text = RwSignal::new(String::new());
    let total = RwSignal::new(0usize);
    // The log's start was left out of the box.
    let cut = RwSignal::new(false);
    let error = RwSignal::new(None::<ClientError>);
    let log_box = NodeRef::<leptos::html::Pre>::new();
    // The box's text, written by [`Painted`] as it grows, not by Leptos: a text node
    // of the whole log set again at each chunk was laid out again whole, a tenth of a
    // second a chunk at 9,000 lines (ops explorer).
    let log_text = NodeRef::<leptos::html::Span>::new();
    let has_text = Memo::new(move |_| text.with(|t| !t.is_empty()));
    let painted = StoredValue::new_local(Painted::default());
    // The lines shown are those containing this (ASCII letters in either case), as grep
    // would: a failed run's error was looked for by scrolling (debugging explorer).
    let filter = RwSignal::new(String::new());
    // With a filter: how many lines contain it, of how many.
    let matched = RwSignal::new(None::<(usize, usize)>);
    let filtered_by = StoredValue::new(String::new());
    // Whether the box was at its end when last it could be scrolled: a filter whose
    // lines all fit is at its end whatever the reader had done, and a scroll up before
    // it was forgotten (recheck).
    let was_at_end = StoredValue::new(true);
    Effect::new(move |_| {
        let el = log_text.get();
        let by = filter.get();
        let mut counted = None;
        // A box at its end stays there as the filter changes (a followed log emptied of
        // its filter stood at its top, its new lines arriving out of view: recheck).
        let changed = filtered_by.with_value(|was| *was != by);
        let at_end = changed
            && log_box.get_untracked().is_some_and(|pre| {
                if pre.scroll_height() > pre.client_height() {
                    was_at_end.set_value(
                        pre.scroll_top() + pre.client_height() + 24 >= pre.scroll_height(),
                    );
                }
                was_at_end.get_value()
            });
        text.with(|t| {
            painted.update_value(|p| match &el {
                Some(el) if by.is_empty() => p.show(el, t),
                Some(el) => {
                    let (lines, found, all) = lines_containing(t, &by);
                    counted = Some((found, all));
                    p.show(el, &lines);
                }
                None => *p = Painted::default(),
            })
        });
        if matched.get_untracked() != counted {
            matched.set(counted);
        }
        if changed {
            filtered_by.set_value(by);
            if at_end && let Some(pre) = log_box.get_untracked() {
                pre.set_scroll_top(pre.scroll_height());
            }
        }
    });
    // A scroll to the log's end is asked for once per frame, however many chunks come.
    let scroll_asked = StoredValue::new(false);
    // The live stream, closed when replaced or when the page goes.
    let follow = StoredValue::new_local(None::<LogFollow>);
    let following = RwSignal::new(false);
    // The reader asked to follow, and has not asked to stop: a stream that ends with its
    // attempt is opened again on the next attempt of a retried task, which the picker
    // moves to (it was read once, early, and then stood still while the attempt ran).
    let wants_follow = RwSignal::new(false);
    let ended = RwSignal::new(false);
    // The stream stopped before the attempt ended.
    let broken = RwSignal::new(false);
    let attempts = Memo::new(move |_| view.with(|v| v.task.attempts));
    // The latest attempt's log has ended, and the task waits to run again.
    let waits_next = Memo::new(move |_| {
        ended.get()
            && attempt.get().is_none()
            && view.with(|v| matches!(v.task.phase, TaskPhase::Retrying | TaskPhase::Queued))
    });
    // The picked attempt has ended: its log is all there will be.
    let over = Memo::new(move |_| {
        view.with(|v| {
            let phase = v.task.phase;
            attempt.get().is_some_and(|a| a < v.task.attempts)
                || phase.is_finished()
                || matches!(phase, TaskPhase::Retrying | TaskPhase::Queued)
        })
    });
    // The log shown was read after its attempt ended: an empty one means no output.
    let complete = RwSignal::new(false);
    let replicas = Memo::new(move |_| view.with(log_replicas));
    // Bumped by every load and follow: a load answered after a later one began (a follow
    // whose stream has spoken) would put back an older log.
    let asked = StoredValue::new(0u64);
    // A read is out and has not answered yet: the empty box says it reads, not that
    // there is no output (security explorer: a slow read said "No output yet." for most
    // of a minute, and then the log came). Over with any read or follow asked after it,
    // whose answer it no longer is.
    let read_out = RwSignal::new(false);
    let stop_follow = move || {
        asked.update_value(|a| *a += 1);
        read_out.set(false);
        follow.set_value(None);
        following.set(false);
    };
    on_cleanup(move || follow.set_value(None));
    // The follow being begun is one the page began again after a lost connection.
    let resumed = StoredValue::new(false);
    // Follows begun again in a row after one broke off, none of which has spoken or
    // stayed open a minute (a silent replica's).
    let resumes = StoredValue::new(0u32);
    // When the last follow's stream opened (the browser's clock, ms).
    let opened_at = StoredValue::new(None::<f64>);

    // A read is out.
    let reading = StoredValue::new(false);
    let reload = move || {
        stop_follow();
        ended.set(false);
        complete.set(false);
        broken.set(false);
        if attempts.get_untracked() == 0 {
            text.set(String::new());
            total.set(0);
            return;
        }
        let (r, a) = (replica.get_untracked(), attempt.get_untracked());
        let mine = asked.get_value();
        let whole = over.get_untracked();
        // A reader who has scrolled up to read stays where they are when the log is read
        // again (its attempt ended); one at its end, or new to it, is taken to the end.
        let at_end = log_box
            .get_untracked()
            .is_none_or(|pre| pre.scroll_top() + pre.client_height() + 24 >= pre.scroll_height());
        reading.set_value(true);
        read_out.set(true);
        leptos::task::spawn_local(async move {
            // Only the end that is shown: a log of megabytes read whole took seconds to
            // arrive.
            let answer = api::fetch_log_end(&id.get_value(), r, a, SHOWN_MAX).await;
            reading.try_set_value(false);
            if asked.try_get_value() == Some(mine) {
                read_out.try_set(false);
            }
            if asked.try_get_value() != Some(mine) {
                return;
            }
            match answer {
                Ok((log, skipped)) => {
                    let (shown, left_out) = shown_end(readable(&log));
                    total.set(
                        usize::try_from(skipped)
                            .unwrap_or(usize::MAX)
                            .saturating_add(log.len()),
                    );
                    cut.set(left_out || skipped > 0);
                    text.set(shown);
                    complete.set(whole);
                    error.set(None);
                    // Read, a log opens at its end, where a failure says why, as a
                    // followed one does: after Leptos has written it, in a microtask.
                    if at_end {
                        request_animation_frame(move || {
                            if let Some(pre) = log_box.try_get_untracked().flatten() {
                                pre.set_scroll_top(pre.scroll_height());
                            }
                        });
                    }
                }
                Err(err) => error.set(Some(err)),
            }
        });
    };
    let start_follow = move || {
        follow.set_value(None);
        asked.update_value(|a| *a += 1);
        let mine = asked.get_value();
        // A read out is dropped (its answer is not taken); the stream says the rest.
        read_out.set(false);
        ended.set(false);
        complete.set(false);
        broken.set(false);
        // The stream sends the end of the log written so far (what is shown), then what
        // is appended: it replaces the log shown once it speaks, so a stream that cannot
        // connect leaves the log as it was.
        let first = std::cell::Cell::new(true);
        let reader = std::cell::RefCell::new(Readable::default());
        // Bytes left out before the end the stream began with, as it says first.
        let skipped = std::rc::Rc::new(std::cell::Cell::new(0usize));
        let told = skipped.clone();
        let opened = LogFollow::open_end(
            // The task page is the console's own, on its origin.
            &crate::api::Base::default(),
            &id.get_value(),
            replica.get_untracked(),
            attempt.get_untracked(),
            SHOWN_MAX,
            move |chunk| {
                // A followed log is tailed: its box stays at the newest line, unless the
                // reader has scrolled up to read, when it stays where they are.
                let first = first.replace(false);
                // The first chunk takes the box to the end, unless the follow is one begun
                // again after a lost connection, not asked for: a reader who had scrolled
                // up stays where they are (review).
                let again = first && resumed.get_value();
                if again {
                    resumed.set_value(false);
                }
                if first {
                    resumes.set_value(0);
                }
                let tail = log_box.get_untracked().is_some_and(|pre| {
                    (first && !again)
                        || pre.scroll_top() + pre.client_height() + 24 >= pre.scroll_height()
                });
                // Only the end is kept: rewritten whole at each chunk, a log of
                // megabytes held the page for a minute.
                let more = reader.borrow_mut().push(&chunk);
                if first {
                    // The stream speaks: a failure said before (a follow or load while
                    // the server was down) is over, as the page's own banner goes.
                    error.set(None);
                    let (shown, left_out) = shown_end(more);
                    total.set(skipped.get().saturating_add(chunk.len()));
                    cut.set(left_out || skipped.get() > 0);
                    text.set(shown);
                } else {
                    total.update(|n| *n += chunk.len());
                    let mut left_out = false;
                    text.update(|t| {
                        t.push_str(&more);
                        // Cut back by a slack at a time, not at each chunk: a cut
                        // rewrites the box whole, where a chunk is added to it.
                        if t.len() > SHOWN_MAX + CUT_SLACK {
                            let (shown, left) = shown_end(std::mem::take(t));
                            (*t, left_out) = (shown, left);
                        }
                    });
                    if left_out && !cut.get_untracked() {
                        cut.set(true);
                    }
                }
                if tail && !scroll_asked.get_value() {
                    scroll_asked.set_value(true);
                    // After the text is in the box: Leptos writes it in a microtask.
                    request_animation_frame(move || {
                        scroll_asked.try_set_value(false);
                        if let Some(pre) = log_box.try_get_untracked().flatten() {
                            pre.set_scroll_top(pre.scroll_height());
                        }
                    });
                }
            },
            move |done| {
                following.set(false);
                if done {
                    // Heard from the server, as a chunk is: a replica with no output
                    // says nothing else.
                    error.set(None);
                    ended.set(true);
                    complete.set(true);
                    return;
                }
                // The stream stopped without its `end`: it broke off (a lost connection,
                // a pod's log the cluster cut short). Ask how the attempt is.
                let followed = attempt.get_untracked().unwrap_or(attempts.get_untracked());
                leptos::task::spawn_local(async move {
                    let answer = api::fetch_view(&id.get_value(), lang.get_untracked()).await;
                    // A load or follow begun meanwhile says how the log is now, and
                    // whether its failure still holds.
                    if asked.try_get_value() != Some(mine) {
                        return;
                    }
                    match answer {
                        Ok(now) => {
                            // The server answered: a failure said before is over, and
                            // what follows says how the log is.
                            error.set(None);
                            let phase = now.task.phase;
                            let over = phase.is_finished()
                                || now.task.attempts != followed
                                || matches!(phase, TaskPhase::Retrying | TaskPhase::Queued);
                            // The latest attempt followed, and a next one began: it
                            // is followed as the page's poll brings it.
                            let moved_on =
                                attempt.get_untracked().is_none() && now.task.attempts != followed;
                            if moved_on {
                                ended.set(true);
                                complete.set(true);
                            } else if over {
                                // Ended meanwhile: what the stream showed may lack the
                                // rest, so the log is read whole (an unreadable one says
                                // so in the page), not shown as complete.
                                reload();
                            } else {
                                ended.set(false);
                                complete.set(false);
                                broken.set(true);
                            }
                        }
                        Err(err) => error.set(Some(err)),
                    }
                });
            },
        );
        match opened {
            Ok(mut stream) => {
                stream.on_left_out(move |n| told.set(usize::try_from(n).unwrap_or(usize::MAX)));
                // Answered, though a replica with no output sends nothing yet: a failure
                // said before is over.
                stream.on_open(move || {
                    opened_at.try_set_value(Some(js_sys::Date::now()));
                    error.set(None);
                });
                follow.set_value(Some(stream));
                following.set(true);
            }
            Err(err) => error.set(Some(err)),
        }
    };
    // The log of the picked replica and attempt, once there is one. Unpicked, the attempt
    // is the latest, which a retry moves on: its log is loaded then, as the picker shows.
    // A followed log goes on being followed on the replica or attempt picked next, and an
    // unfollowed one is read again when its attempt ends, so it shows the whole output.
    let started = Memo::new(move |_| attempts.get() > 0);
    // What a screen reader hears of the filter: how many lines match, once typing has
    // paused for a moment, and again only when that number or the text changes, not as
    // the log grows.
    let heard = RwSignal::new(String::new());
    let heard_of = StoredValue::new(None::<(usize, String)>);
    // What is put off, so a line the log writes meanwhile does not put it off again.
    let to_hear = StoredValue::new(None::<(usize, String)>);
    let pause = crate::components::Pause::new();
    Effect::new(move |_| {
        let now = matched
            .get()
            .filter(|_| started.get())
            .map(|(found, _)| (found, filter.get()));
        if to_hear.with_value(|pending| pending.is_some() && *pending == now) {
            return;
        }
        pause.cancel();
        to_hear.set_value(None);
        if heard_of.with_value(|was| *was == now) {
            return;
        }
        let Some(at) = now else {
            heard_of.set_value(None);
            heard.set(String::new());
            return;
        };
        to_hear.set_value(Some(at.clone()));
        pause.then(move || {
            let Some(all) = matched.try_get_untracked() else {
                return;
            };
            let all = all.map_or(0, |(_, all)| all);
            to_hear.try_set_value(None);
            let (found, text) = at.clone();
            heard_of.try_set_value(Some(at));
            // With the text: a new filter matching as many lines as the last was said
            // as nothing new (keyboard recheck).
            let lang = lang.get_untracked();
            let said = if found == 0 {
                shared::messages::text(lang, "ui.detail.log_filter_none", &[("text", text)])
            } else {
                let args = [
                    ("found", found.to_string()),
                    ("all", all.to_string()),
                    ("text", text),
                ];
                shared::messages::text(lang, "ui.detail.log_filter_heard", &args)
            };
            heard.try_set(said.clone());
            // Heard, then gone: left in the page, it was read as the count now by a
            // reader browsing past it, while the log grew (keyboard recheck).
            set_timeout(
                move || {
                    if heard.try_get_untracked().as_ref() == Some(&said) {
                        heard.set(String::new());
                    }
                },
                Duration::from_secs(5),
            );
        });
    });
    let shown = Memo::new(move |_| attempt.get().unwrap_or(attempts.get()));
    // The quiet replicas' line, once the task has been seen not ended.
    let quiet_room = Memo::new(move |before: Option<&bool>| {
        before.copied().unwrap_or(false) || view.with(|v| !v.task.phase.is_finished())
    });
    Effect::new(move |before: Option<(u32, u32)>| {
        let now = (replica.get(), shown.get());
        over.track();
        if !started.get() {
            return now;
        }
        // Another replica or attempt: its log, or none, not the last one's meanwhile
        // (a followed stream of a replica with no output never speaks).
        if before.is_some_and(|b| b != now) {
            text.set(String::new());
            total.set(0);
            cut.set(false);
        }
        if before == Some(now) {
            // Only the attempt's end: a followed log ends with its stream, and one read
            // whole stays as it is.
            if !following.get_untracked() && !complete.get_untracked() {
                reload();
            }
        } else if following.get_untracked() || wants_follow.get_untracked() {
            start_follow();
        } else {
            reload();
        }
        now
    });
    // Read again, or followed again, at the first poll the server answers after a read
    // or follow it could not answer: the panel said "cannot reach the server" for good,
    // beside "no output yet" (network explorer).
    // One at a time: every answered poll (2 s) began another, which dropped the one
    // before, so a read slower than that never landed (review). Over when the panel next
    // says how the log is, read or failed.
    let retry_out = StoredValue::new(false);
    Effect::new(move |_| {
        error.track();
        retry_out.set_value(false);
    });
    Effect::new(move |_| {
        polled.track();
        let lost = error.with_untracked(|e| matches!(e, Some(ClientError::Network(_))));
        if lost && started.get_untracked() && !retry_out.get_value() {
            retry_out.set_value(true);
            if following.get_untracked() || wants_follow.get_untracked() {
                resumed.set_value(true);
                start_follow();
            } else {
                reload();
            }
        }
    });
    // A running attempt's log read while it was empty is read again at each answered
    // poll until it has output, one read at a time: "No output yet." stood for good under
    // the quiet line's "every replica wrote to its log in the last minute" on the page a
    // submit leads to (cloud-console explorer).
    Effect::new(move |_| {
        polled.track();
        let running = view.with_untracked(|v| v.task.phase == TaskPhase::Running);
        let idle = !following.get_untracked()
            && !wants_follow.get_untracked()
            && !complete.get_untracked()
            && !reading.get_value()
            && !closed.get_untracked()
            && error.with_untracked(Option::is_none);
        if running && started.get_untracked() && idle && !has_text.get_untracked() {
            reload();
        }
    });
    // A follow that broke off while its attempt runs, the server answering (a dropped
    // connection: a laptop's sleep, a proxy's restart), is begun again at the next
    // answered poll, from the log's end: a tab left open all day went quiet for good at
    // the first blip (all-day explorer). A few times in a row at most, as a proxy that
    // cuts every stream would have it begun again every 2 s; a stream that speaks again,
    // or stayed open a minute, counts afresh.
    Effect::new(move |_| {
        polled.track();
        if !broken.get_untracked() || !started.get_untracked() {
            return;
        }
        if opened_at
            .get_value()
            .is_some_and(|at| js_sys::Date::now() - at > OPEN_WORKED_MS)
        {
            resumes.set_value(0);
        }
        opened_at.set_value(None);
        if resumes.get_value() < FOLLOW_RESUMES {
            resumes.update_value(|n| *n += 1);
            resumed.set_value(true);
            start_follow();
        }
    });
    // The controls, off before the first attempt, are described by the box's line that
    // says why.
    let not_yet = move || (!started.get()).then_some(LOGS_NONE_ID);
    view! {
        <section class="panel logs" aria-labelledby="logs-title">
            <h2 id="logs-title">{crate::i18n::tr("ui.detail.logs")}</h2>
            // The same controls and box before the first attempt, off and saying there is
            // no log yet: the panel kept its room, and the panels under it did not move
            // down as the task started (explorer, layout shift).
            <div class="toolbar">
                <label>
                    // A PyTorchJob's replica number is its RANK, which its log and a
                    // search of it name (hung-job explorer: "rank 1" is "1: worker 0").
                    <span>{move || lang.text(if view.with(|v| v.task.spec.basic.task_type == Some(TaskType::PyTorchJob)) { "ui.detail.replica#rank" } else { "ui.detail.replica" })}</span>
                    <select data-testid="log-replica" disabled=move || !started.get() aria-describedby=not_yet on:change=move |ev| {
                        picked.set_value(true);
                        moved_to_failed.set(false);
                        replica.set(event_target_value(&ev).parse().unwrap_or(0));
                    }>
                        {move || replicas.with(|logs| replica_labels(lang.get(), logs)).into_iter().map(|(r, label)| {
                            // The replica whose end failed the attempt shown: the latest's
                            // as the task says it, an earlier one's from its history (an
                            // earlier attempt's log was read with none marked: hung-job
                            // explorer).
                            let failed = view.with(|v| {
                                let at = shown.get();
                                if at == v.task.attempts {
                                    // Waiting for its retry, it failed the attempt, not the task.
                                    v.failed_replica.map(|f| (f, v.task.phase != TaskPhase::Failed))
                                } else {
                                    v.attempt_failures.iter().find(|f| f.attempt == at).map(|f| (f.replica, true))
                                }
                            });
                            let label = match failed {
                                Some((f, of_attempt)) if f == r => {
                                    let key = if of_attempt { "ui.detail.replica_failed#attempt" } else { "ui.detail.replica_failed" };
                                    lang.text_with(key, &[("label", label)])
                                }
                                _ => label,
                            };
                            view! { <option value=r.to_string() selected=move || replica.get() == r>{label}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label>
                    <span>{crate::i18n::tr("ui.detail.attempt")}</span>
                    // The latest picked is the latest whichever it is: the page moves on to
                    // the next attempt with it. And the box says the attempt whose log it
                    // shows: the options built again as one began showed the first, the
                    // new attempt, over the one picked before (all-day explorer).
                    <select data-testid="log-attempt" disabled=move || !started.get() aria-describedby=not_yet
                        prop:value=move || if started.get() { shown.get().to_string() } else { String::new() }
                        on:change=move |ev| attempt.set(event_target_value(&ev).parse().ok().filter(|&n| n != attempts.get_untracked()))>
                        // Not empty before the first attempt: an empty select read as broken.
                        {move || (!started.get()).then(|| view! { <option value="">"—"</option> })}
                        {move || (1..=attempts.get()).rev().map(|a| view! {
                            <option value=a.to_string() selected=move || attempt.get().unwrap_or(attempts.get()) == a>
                                {move || lang.text_with("ui.detail.attempt_n", &[("n", a.to_string())])}
                            </option>
                        }).collect_view()}
                    </select>
                </label>
                <label>
                    <span>{crate::i18n::tr("ui.detail.log_filter")}</span>
                    <input type="search" data-testid="log-filter" disabled=move || !started.get()
                        aria-describedby=move || if started.get() { "log-state" } else { LOGS_NONE_ID }
                        prop:value=move || filter.get() on:input=move |ev| filter.set(event_target_value(&ev)) />
                </label>
                <button type="button" data-testid="log-reload" disabled=move || !started.get() || closed.get() aria-describedby=not_yet on:click=move |_| {
                    // Read once is what was asked: no follow comes back with the next pick.
                    wants_follow.set(false);
                    reload();
                }>{crate::i18n::tr("ui.detail.logs_reload")}</button>
                <button
                    type="button"
                    data-testid="log-follow"
                    disabled=move || !started.get() || closed.get()
                    aria-describedby=not_yet
                    // Pressed too while it waits for the next attempt to follow it
                    // (low-vision recheck: pressed in a retry's wait, it showed nothing).
                    aria-pressed=move || (following.get() || (wants_follow.get() && waits_next.get())).to_string()
                    on:click=move |_| {
                        let follow = !(following.get_untracked() || (wants_follow.get_untracked() && waits_next.get_untracked()));
                        wants_follow.set(follow);
                        // Asked for: the log goes to its end.
                        resumed.set_value(false);
                        if follow { start_follow() } else { stop_follow() }
                    }
                >
                    // One name, pressed or not: a toggle that also renamed itself was read
                    // as "Stop following, pressed" (screen-reader explorer).
                    {crate::i18n::tr("ui.detail.follow")}
                </button>
            </div>
            // How long each replica has written nothing, while the task runs: a hung rank
            // told from ranks that print (hung-job explorer: a stuck master looked as
            // healthy as the rest). Its line is there from before the start, and stays,
            // empty, once the task has ended: the panel neither grows as the task starts
            // nor shrinks as it ends.
            {move || quiet_room.get().then(|| view! {
                // Empty once the log can no longer be read: "in the last minute" read as
                // now on a view frozen by a revoked link (recheck).
                <p class="log-quiet" data-testid="log-quiet">{move || if closed.get() { String::new() } else { { let l = lang.get(); view.with(|v| quiet_said(l, v)) } }}</p>
            })}
            // No live region as a whole: its total grows with each line a followed log
            // writes, and was heard at every line and keystroke (screen-reader explorer:
            // six times in 5 s). The follow's state is heard as it changes, the count
            // below once typing pauses.
            <p class="log-state" id="log-state" data-testid="log-state">
                {move || matched.get().filter(|_| started.get()).map(|(found, all)| {
                    let said = if found == 0 {
                        lang.text_with("ui.detail.log_filter_none", &[("text", filter.get())])
                    } else {
                        lang.text_with("ui.detail.log_filter_count", &[
                            ("found", found.to_string()),
                            ("all", all.to_string()),
                        ])
                    };
                    view! { <span data-testid="log-filter-count">{said}</span> " " }
                })}
                <span role="status" data-testid="log-moved">{move || moved_to_failed.get().then(|| {
                    let shown = replica.get();
                    let label = replicas.with(|logs| replica_labels(lang.get(), logs))
                        .into_iter()
                        .find_map(|(r, label)| (r == shown).then_some(label))
                        .unwrap_or_else(|| shown.to_string());
                    format!("{} ", lang.text_with("ui.detail.log_moved_to_failed", &[("replica", label)]))
                })}</span>
                <span role="status">{move || if !started.get() || closed.get() {
                    None
                } else if following.get() {
                    // Which attempt, once there are several: the box goes on to the next
                    // by itself, its picker off screen at 200 % (low-vision explorer: the
                    // log was swapped without a word).
                    Some(match attempts.get() {
                        n if n > 1 => lang.text_with("ui.detail.following#attempt", &[
                            ("attempt", attempt.get().unwrap_or(n).to_string()),
                        ]),
                        _ => lang.text("ui.detail.following"),
                    })
                } else if ended.get() {
                    // The latest attempt's end is not the task's while it waits to run
                    // again: "its log will not grow" read as the task over (same explorer).
                    let latest = attempts.get().to_string();
                    Some(if waits_next.get() {
                        lang.text_with(if wants_follow.get() { "ui.detail.follow_ended#again" } else { "ui.detail.follow_ended#again_idle" }, &[("attempt", latest)])
                    } else if attempt.get().is_none() && view.with(|v| !v.task.phase.is_finished()) {
                        // Before the page's next read says what the task does next: no
                        // word that the log is over, as it may go on (recheck).
                        lang.text_with("ui.detail.follow_ended#attempt", &[("attempt", latest)])
                    } else {
                        lang.text("ui.detail.follow_ended")
                    })
                } else if broken.get() {
                    Some(lang.text("ui.detail.follow_broken"))
                } else if !over.get() && !read_out.get() {
                    // Read once while it runs, the box does not change as the log
                    // grows: said, or it reads as a log gone quiet (explorer). Once
                    // read: said while the read was out, it came early (recheck).
                    Some(lang.text("ui.detail.log_snapshot"))
                } else {
                    None
                }}</span>
            </p>
            <p class="visually-hidden" role="status" data-testid="log-heard">{move || heard.get()}</p>
            {move || {
                let said_above = closed.get()
                    || (page_unreached.get()
                        && error.with(|e| matches!(e, Some(ClientError::Network(_)))));
                (!said_above).then(|| view! { <ErrorBanner error /> })
            }}
            {move || {
                // The box's text is the log made readable (codes left out), and a
                // followed log's line ends come as `\n`: its size in the box is
                // not the log's, so only the log's is said, and as "about".
                let all = total.get();
                cut.get().then(|| {
                    let href = api::log_url(
                        &crate::api::Base::default(),
                        &id.get_value(),
                        replica.get(),
                        Some(shown.get()),
                    );
                    view! {
                        <p class="log-cut" data-testid="log-cut">
                            {lang.text_with("ui.detail.logs_cut", &[
                                ("total", byte_size(all)),
                            ])}
                            " "
                            <a href=href target="_blank" rel="noopener" data-testid="log-whole">
                                {lang.text("ui.detail.logs_whole")}
                            </a>
                        </p>
                    }
                })
            }}
            <pre class="log" data-testid="log" tabindex="0" aria-labelledby="logs-title" node_ref=log_box>
                {move || (!started.get()).then(|| view! {
                    // A task stopped while it queued never will start (explorer: it said
                    // "not yet").
                    <span id=LOGS_NONE_ID data-testid="logs-none">{move || lang.text(if view.with(|v| v.task.phase.is_finished()) { "ui.detail.logs_none#ended" } else { "ui.detail.logs_none" })}</span>
                })}
                // Nothing said of the output while it could not be read: the failure is.
                {move || (started.get() && (has_text.get() || error.with(Option::is_none))).then(|| if has_text.get() {
                    view! { <span class="log-text" node_ref=log_text></span> }.into_any()
                } else {
                    lang.text(if read_out.get() { "ui.detail.logs_reading" } else if complete.get() { "ui.detail.logs_empty_ended" } else { "ui.detail.logs_empty" }).into_any()
                })}
            </pre>
        </section>
    }
}

/// The lines of `text` that contain `part`, ASCII letters matched in either case (no
/// Unicode case tables in the console for this), each with its line end; with how many
/// there are and how many lines `text` has.
fn lines_containing(text: &str, part: &str) -> (String, usize, usize) {
    let part = part.as_bytes();
    let (mut out, mut found, mut all) = (String::new(), 0, 0);
    for line in text.split_inclusive('\n') {
        all += 1;
        if line
            .as_bytes()
            .windows(part.len())
            .any(|w| w.eq_ignore_ascii_case(part))
        {
            found += 1;
            out.push_str(line);
        }
    }
    (out, found, all)
}

/// The question before a stop of a task in `phase`, the task's page's and the list's: a
/// task that waits has no replicas to end; one waiting to run again has run (explorer:
/// "it has not started").
pub(crate) fn stop_question(phase: TaskPhase) -> &'static str {
    match phase {
        TaskPhase::Queued => "ui.detail.stop_confirm#waiting",
        TaskPhase::Retrying => "ui.detail.stop_confirm#retrying",
        _ => "ui.detail.stop_confirm",
    }
}

/// The id of the log box's line that says no attempt has started.
const LOGS_NONE_ID: &str = "logs-none";

/// How far past [`SHOWN_MAX`] a followed log grows before its start is cut.
const CUT_SLACK: usize = 64 * 1024;

/// About how much of the log one part of the box holds: a part ends at a line's end,
/// and a part of its own is laid out alone, so a chunk added lays out its part only.
const PART: usize = 16 * 1024;

/// The log box's text as it was written: its parts, each a block of whole lines (the
/// last may end within one), so that text added to the end is added to the last part.
#[derive(Default)]
struct Painted {
    /// The element the parts are in.
    host: Option<web_sys::HtmlElement>,
    /// The text written.
    text: String,
    /// Each part's text node and how many bytes it holds.
    parts: Vec<(web_sys::Text, usize)>,
}

impl Painted {
    /// Makes `host` show `text`: the part past what it shows added, when `text` only
    /// grew; else all of it written again.
    fn show(&mut self, host: &web_sys::HtmlElement, text: &str) {
        let grew = self.host.as_ref() == Some(host)
            && text.len() >= self.text.len()
            && text.as_bytes()[..self.text.len()] == *self.text.as_bytes();
        if !grew {
            host.set_text_content(None);
            self.host = Some(host.clone());
            self.text.clear();
            self.parts.clear();
        }
        let mut rest = &text[self.text.len()..];
        while !rest.is_empty() {
            // The last part takes more while it is under its size, and always the rest
            // of a line it ends within: a line is never split between two blocks.
            let last = self.parts.last().map(|(_, len)| *len);
            let open = last.is_some_and(|len| len < PART || !self.text.ends_with('\n'));
            let room = if open {
                PART.saturating_sub(last.unwrap_or(0))
            } else {
                PART
            };
            let take = if room >= rest.len() {
                rest.len()
            } else {
                let mut at = room;
                while !rest.is_char_boundary(at) {
                    at += 1;
                }
                rest[at..].find('\n').map_or(rest.len(), |n| at + n + 1)
            };
            let piece = &rest[..take];
            match self.parts.last_mut().filter(|_| open) {
                Some((node, len)) => {
                    node.append_data(piece).ok();
                    *len += piece.len();
                }
                None => {
                    let document = document();
                    let Ok(part) = document.create_element("span") else {
                        return;
                    };
                    part.set_class_name("log-part");
                    let node = document.create_text_node(piece);
                    part.append_child(&node).ok();
                    host.append_child(&part).ok();
                    self.parts.push((node, piece.len()));
                }
            }
            self.text.push_str(piece);
            rest = &rest[take..];
        }
    }
}

/// The most of a log's end the page reads (a followed log grows past it by up to
/// [`CUT_SLACK`] before its start is cut back to it): a `<pre>` of megabytes takes seconds to lay
/// out again at each chunk of a followed log, and the whole log is a link away.
pub const SHOWN_MAX: usize = 512 * 1024;

/// The end of `log`, at most [`SHOWN_MAX`] bytes, from the start of a line (unless its
/// last line alone is longer), and whether anything was left out.
pub fn shown_end(mut log: String) -> (String, bool) {
    if log.len() <= SHOWN_MAX {
        return (log, false);
    }
    let mut cut = log.len() - SHOWN_MAX;
    while !log.is_char_boundary(cut) {
        cut += 1;
    }
    // From the next line's start, when a line starts after it: a last line longer than
    // the limit is shown from within, not left out whole.
    if let Some(at) = log[cut..].find('\n')
        && cut + at + 1 < log.len()
    {
        cut += at + 1;
    }
    log.drain(..cut);
    (log, true)
}

/// A log as a terminal would leave it readable in a box of text: colour and cursor
/// codes (`ESC [ … m`, `ESC ( B`) and window titles left out, a carriage return (a
/// progress bar's redraw) a new line as the live stream's events make it (none at a
/// line's start), and other control bytes (NUL) dropped.
pub fn readable(log: &str) -> String {
    Readable::default().push(log)
}

/// [`readable`] over a log that comes in chunks cut anywhere: a code begun at one's end
/// is held until the next one ends it, so its rest does not show as text.
#[derive(Default)]
pub struct Readable {
    /// What the last chunk ended with that the next one says how to read: a code begun,
    /// or a `\r` (the start of a `\r\n`, or a redraw).
    held: String,
    /// What was shown last ended within a line: a `\r` there starts a new one, where at a
    /// line's start it adds no blank line (a tqdm bar writes `\r` before each redraw).
    mid_line: bool,
}

impl Readable {
    /// The readable text of `chunk`, after what the last one held.
    pub fn push(&mut self, chunk: &str) -> String {
        if chunk.is_empty() {
            // Nothing to read: what the last chunk ended with waits on.
            return String::new();
        }
        let text = if self.held.is_empty() {
            std::borrow::Cow::Borrowed(chunk)
        } else {
            let mut joined = std::mem::take(&mut self.held);
            joined.push_str(chunk);
            std::borrow::Cow::Owned(joined)
        };
        use shared::terminal::Piece;
        let mut out = String::with_capacity(text.len());
        for piece in shared::terminal::pieces(&text) {
            match piece {
                // A code begun, or a `\r` that may start a `\r\n`, cut between two
                // chunks: the next says how to read it.
                Piece::Unended(rest) => self.held = rest.to_owned(),
                // Left out; a `\r\n` ends its line at its `\n`.
                Piece::Code(_) | Piece::CrBeforeLf => {}
                Piece::Cr => {
                    let at_start = if out.is_empty() {
                        !self.mid_line
                    } else {
                        out.ends_with('\n')
                    };
                    if !at_start {
                        out.push('\n');
                    }
                }
                Piece::Char(c @ ('\n' | '\t')) => out.push(c),
                Piece::Char(c) if c.is_control() => {}
                // Shown by name, not obeyed: a direction override turned a line around
                // (`file\u{202e}txt.exe` read `fileexe.txt`), and a zero-width space made
                // two texts read alike (security explorer).
                Piece::Char(c) if shared::terminal::is_invisible_mark(c) => {
                    let _ = std::fmt::Write::write_fmt(
                        &mut out,
                        format_args!("<U+{:04X}>", u32::from(c)),
                    );
                }
                Piece::Char(c) => out.push(c),
            }
        }
        if !out.is_empty() {
            self.mid_line = !out.ends_with('\n');
        }
        out
    }
}

/// The most follows begun again in a row after one broke off while its attempt ran.
const FOLLOW_RESUMES: u32 = 3;

/// How long a follow's stream stays open to count as one that worked, ms.
const OPEN_WORKED_MS: f64 = 60_000.0;

/// A log's size as its cut note says it: KiB under a MiB, then MiB to a tenth (bytes
/// under a KiB, which a cut log is not, for a caller that passes one). Whole numbers
/// only: formatting an `f64` brings core's float printing into the wasm, 14 KB raw.
pub fn byte_size(bytes: usize) -> String {
    const KIB: usize = 1024;
    const MIB: u64 = 1024 * 1024;
    if bytes < KIB {
        format!("{bytes} B")
    } else if bytes < KIB * KIB - KIB / 2 {
        format!("{} KiB", (bytes + KIB / 2) / KIB)
    } else {
        // Tenths of a MiB, rounded half up.
        // `u64`, not `u128`, whose printing is code of its own (1.3 KB of wasm).
        let tenths = (bytes as u64).saturating_mul(10).saturating_add(MIB / 2) / MIB;
        format!("{}.{} MiB", tenths / 10, tenths % 10)
    }
}

/// The spec as YAML: the owner's with real hidden values, anyone else's masked.
#[component]
fn SpecPanel(
    id: String,
    owner: bool,
    tags: Signal<Vec<Tag>>,
    /// Bumped by each answer of the page's poll: a spec that could not be read (the
    /// connection lost) is read again once the server answers.
    polled: Signal<u64>,
    /// The task it was made from, offered to compare it with.
    made_from: Option<String>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let this = StoredValue::new(id.clone());
    let (spec, again) = crate::components::load_again(move || {
        let id = id.clone();
        async move { api::fetch_spec(&id).await }
    });
    // Compared with another task's spec, field by field: a run that failed was told from
    // the one that worked by reading two specs in two tabs (known gap).
    let other = RwSignal::new(made_from.unwrap_or_default());
    let compared = RwSignal::new(None::<Comparison>);
    let comparing = RwSignal::new(false);
    let compare = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let with = other.get_untracked().trim().to_owned();
        if with.is_empty() || comparing.get_untracked() {
            return;
        }
        if this.with_value(|id| *id == with) {
            compared.set(Some(Comparison::Itself));
            return;
        }
        let Some(Ok(mut mine)) = spec.get_untracked() else {
            return;
        };
        mine.basic.tags = tags.get_untracked();
        comparing.set(true);
        leptos::task::spawn_local(async move {
            let answer = api::fetch_spec(&with).await;
            if comparing.try_set(false).is_some() {
                return;
            }
            compared.set(Some(match answer {
                Ok(theirs) => {
                    Comparison::With(with, crate::form::transfer::differences(&mine, &theirs))
                }
                Err(err) => Comparison::Failed(err),
            }));
        });
    };
    // Read once, it said "cannot reach the server" until the page was reloaded, after
    // the server had long answered again (network explorer). One ask at a time.
    Effect::new(move |_| {
        polled.track();
        let lost = spec.with_untracked(|s| matches!(s, Some(Err(ClientError::Network(_)))));
        if lost && !again.asking() {
            again.ask();
        }
    });
    view! {
        <section class="panel spec" aria-labelledby="spec-title">
            <h2 id="spec-title">{crate::i18n::tr("ui.detail.spec")}</h2>
            <p class="help">{move || lang.text(if owner { "ui.detail.spec_own" } else { "ui.detail.spec_masked" })}</p>
            {move || spec.get().map(|result| match result {
                Ok(mut spec) => {
                    spec.basic.tags = tags.get();
                    view! { <SpecView spec labelled_by="spec-title" /> }.into_any()
                }
                Err(err) => view! { <p class="banner error" role="alert">{move || err.localized(lang.get())}</p> }.into_any(),
            })}
            <form class="compare" data-testid="compare" on:submit=compare>
                <label for="compare-with">{crate::i18n::tr("ui.detail.compare_with")}</label>
                <input id="compare-with" data-testid="compare-with" prop:value=move || other.get()
                    on:input=move |ev| other.set(event_target_value(&ev)) />
                <button type="submit" data-testid="compare-go" aria-disabled=move || comparing.get().then_some("true")>
                    {crate::i18n::tr("ui.detail.compare")}
                </button>
            </form>
            <div role="status" data-testid="compared">
                {move || compared.get().map(|result| match result {
                    Comparison::Itself => view! { <p>{move || lang.text("ui.detail.compare_itself")}</p> }.into_any(),
                    Comparison::Failed(err) => view! { <p class="banner error">{move || err.localized(lang.get())}</p> }.into_any(),
                    Comparison::With(with, found) if found.fields.is_empty() => view! {
                        <p>{move || lang.text_with("ui.detail.compare_same", &[("other", with.clone())])}</p>
                        {found.masked.then(|| view! { <p class="help">{move || lang.text("ui.detail.compare_masked")}</p> })}
                    }.into_any(),
                    Comparison::With(with, found) => {
                        let (named, count) = (with.clone(), found.fields.len());
                        let said = |value: Option<String>| match value {
                            Some(v) if v.is_empty() => "\"\"".into_any(),
                            Some(v) => v.into_any(),
                            None => view! { <em>{move || lang.text("ui.detail.compare_none")}</em> }.into_any(),
                        };
                        view! {
                            <table class="compared">
                                <caption>{move || lang.text_with("ui.detail.compare_differs", &[("count", count.to_string()), ("other", named.clone())])}</caption>
                                <thead><tr>
                                    <th scope="col">{crate::i18n::tr("ui.detail.compare_field")}</th>
                                    <th scope="col">{crate::i18n::tr("ui.detail.compare_this")}</th>
                                    <th scope="col">{with.clone()}</th>
                                </tr></thead>
                                <tbody>
                                    {found.fields.iter().cloned().map(|crate::form::transfer::Difference { path, mine, theirs }| {
                                        let place = path.clone();
                                        view! {
                                            <tr data-path=path.clone()>
                                                <th scope="row">{move || crate::components::field_place(lang.get(), &place)}" "<code>{path.clone()}</code></th>
                                                <td>{said(mine)}</td>
                                                <td>{said(theirs)}</td>
                                            </tr>
                                        }
                                    }).collect_view()}
                                </tbody>
                            </table>
                            // A hidden value is compared only where both specs show it.
                            {found.masked.then(|| view! { <p class="help">{move || lang.text("ui.detail.compare_masked")}</p> })}
                        }.into_any()
                    }
                })}
            </div>
        </section>
    }
}

/// What comparing the spec with another task's found.
#[derive(Clone)]
enum Comparison {
    /// The task asked for is this one.
    Itself,
    /// The other task, and where the specs differ (`form::transfer::differences`).
    With(String, crate::form::transfer::Compared),
    /// Its spec could not be read.
    Failed(ClientError),
}

/// A spec as YAML, as the form previews and exports it (and imports it back), so the
/// spec of a task reads as the one that was written.
#[component]
pub fn SpecView(
    /// The spec.
    spec: TaskSpec,
    /// The id of the heading that names the box: focusable, for scrolling by keyboard,
    /// it is read by that name (reflow explorer: it had none).
    labelled_by: &'static str,
) -> impl IntoView {
    let text = crate::form::transfer::to_yaml(&spec);
    view! { <pre class="spec-text" data-testid="spec-view" tabindex="0" aria-labelledby=labelled_by>{text}</pre> }
}
