//! The create form: every section of SPEC.md in order, checked by the shared crate on
//! every change, with the plan, the preview, import/export, the saved draft and submit.

use super::advanced::AdvancedSection;
use super::basic::BasicSection;
use super::compute::ComputeSection;
use super::context::FormCx;
use super::draft;
use super::environment::EnvironmentSection;
use super::field::GroupFindings;
use super::preview::Preview;
use super::pytorch::PyTorchSection;
use super::ray::RaySection;
use crate::api;
use crate::components::ReportView;
use leptos::prelude::*;
use shared::api::TaskView;
use shared::messages::{count, text};
use shared::usage::Usage;
use shared::{Catalog, Report, Severity, TaskSpec, User};

/// The create form.
///
/// Starts from `initial` when given (a clone), else from the draft saved in this
/// browser, else from a blank spec for the catalog. Submits through
/// [`api::submit_task`] and calls `on_submitted` with the created task.
#[component]
pub fn TaskForm(
    /// What the form chooses from.
    catalog: Catalog,
    /// Live usage of the catalog's nodes and the user's quota.
    usage: Usage,
    /// What is used outside Berth on the catalog's nodes (`CatalogResponse::outside`):
    /// a plan that would queue on it alone waits for capacity Berth cannot free.
    #[prop(optional)]
    outside: Usage,
    /// The tasks the queue keeps room for (`CatalogResponse::held`): a plan that would
    /// start on their room waits for them.
    #[prop(optional)]
    held_rooms: Vec<shared::quota::HeldRoom>,
    /// Who is filling it in.
    user: User,
    /// The spec to start from.
    #[prop(optional)]
    initial: Option<TaskSpec>,
    /// Called with the task once the server has created it.
    #[prop(optional)]
    on_submitted: Option<Callback<TaskView>>,
    /// Whether `on_submitted` opens the new task's page, which says what was made: the
    /// form then does not say it too (a screen reader heard it twice, 140 ms apart:
    /// keyboard recheck). A form that stays (a portal's) says it.
    #[prop(optional)]
    moves_on: bool,
    /// Whether the server runs RayJobs on a Ray cluster (`CatalogResponse::ray_clusters`);
    /// by default it does.
    #[prop(optional)]
    ray_clusters: Option<bool>,
    /// Whether the server sends alert emails (`CatalogResponse::email_alerts`); by
    /// default it does.
    #[prop(optional)]
    email_alerts: Option<bool>,
    /// With `initial` (a clone's spec): the draft saved under this form's storage key,
    /// when there is one (the clone's edits), is restored instead, and the form offers
    /// to start again from `initial`.
    #[prop(optional)]
    resume: bool,
    /// The task `initial` is a copy of, said under the title: the form alone did not say
    /// the page was a clone, nor of which task.
    #[prop(default = None)]
    copy_of: Option<String>,
    /// When `usage` was read (`Date.now()`): read just before, it is not asked for again
    /// as the form opens (the first load asked for the catalog twice at once).
    #[prop(default = None)]
    usage_read_at: Option<f64>,
) -> impl IntoView {
    super::anchor::watch();
    provide_context(super::ray::RayClusters(ray_clusters.unwrap_or(true)));
    provide_context(super::advanced::EmailAlerts(email_alerts.unwrap_or(true)));
    let revealed = initial.is_some();
    let slot = draft::Slot::here();
    let blank = StoredValue::new(draft::blank(&catalog, &user));
    // A saved draft that is still the blank form is no one's work: restored, it showed
    // every required field's error to a user who had typed nothing.
    let saved = (initial.is_none() || resume)
        .then(|| draft::load_with_held(&slot.0))
        .flatten()
        .filter(|(d, held)| !held.is_empty() || blank.with_value(|b| d != b));
    let (saved, held) = saved.map_or((None, Vec::new()), |(spec, held)| (Some(spec), held));
    // A restored draft is the user's own work: only a clone's spec counts as given.
    let origin = StoredValue::new(initial.clone().unwrap_or_else(|| blank.get_value()));
    let (start, restored) = match (saved, initial) {
        // A clone's edits, with the hidden values still its task's put back from the
        // task (the draft names them, without their values).
        (Some(mut spec), Some(task)) => {
            draft::restore_secrets(&mut spec, &task, &draft::load_kept(&slot.0));
            (spec, true)
        }
        (Some(spec), None) => (spec, true),
        (None, Some(spec)) => (spec, false),
        (None, None) => (blank.get_value(), false),
    };
    // Hidden values the draft could not keep, said beside "restored": they are asked for
    // again at their fields, which read as the restore having lost them (recheck).
    let masked_kept = restored
        && (start
            .environment
            .env
            .iter()
            .any(|v| v.hidden && v.value == shared::task::HIDDEN_VALUE_MASK)
            || start.advanced.alerts.iter().any(|a| a.target_is_masked()));
    // The key a submit of the restored draft went with, when no answer came for it: of
    // this very draft (an edited one is another spec, its key never used again).
    let sent_before = restored
        .then(|| draft::load_sent(&slot.0))
        .flatten()
        .filter(|(digest, _)| *digest == sent_digest(&start.clone().normalized()));
    let slot_key = StoredValue::new(slot.0.clone());
    let usage = RwSignal::new(usage);
    let outside = RwSignal::new(outside);
    let held_rooms = RwSignal::new(held_rooms);
    let cx = FormCx::provide(
        start,
        catalog,
        usage.into(),
        outside.into(),
        held_rooms.into(),
        user,
    );
    // The note's words, with the hidden values' sentence after them in the language's
    // way ("restored. Drafts keep…", "已恢复。草稿…").
    let restored_words = move |said: &str| {
        let said = cx.text(said);
        if masked_kept {
            shared::messages::text(
                cx.lang(),
                "ui.form.draft_restored.masked",
                &[("said", said)],
            )
        } else {
            said
        }
    };
    let form_ref = NodeRef::<leptos::html::Form>::new();
    // Whether the focus is in one of the spec's fields, which speak their own findings.
    let in_field = RwSignal::new(false);
    let freshness = crate::components::PlanFreshness::default();
    provide_context(freshness);
    provide_context(crate::components::PlanEcho::default());
    let refresh_usage = follow_usage(
        cx,
        (usage, outside, held_rooms),
        form_ref,
        freshness,
        usage_read_at,
    );
    cx.show_all(revealed || restored);
    // Said until the user starts over.
    let restored = RwSignal::new(restored);
    // A submit answered as the page was reloaded: what it made is said on the blank form
    // the reload finds.
    let made_before = RwSignal::new(
        (!restored.get_untracked())
            .then(|| draft::take_made(&slot.0))
            .flatten(),
    );
    // Another tab's draft becomes this tab's own (a reload here finds it), and is said
    // to be another tab's: submitted from both, it makes two tasks.
    let other_tab = restored.get_untracked() && draft::adopt(&slot.0);
    // The draft follows every change, so a reload finds it; nothing is written before
    // the user changes something.
    let loaded = restored
        .get_untracked()
        .then(|| draft::stored_texts(&cx.spec.get_untracked(), &held))
        .flatten()
        .map(|(text, held)| (text, held, draft::load_kept(&slot.0)));
    let autosave = draft::Autosave::follow(
        cx.spec,
        Signal::derive(move || cx.held_texts()),
        slot,
        (loaded, origin),
    );
    // The boxes that held text no number of their field hold it again, once they are in
    // the page and have written the draft's numbers into themselves.
    if !held.is_empty() {
        set_timeout(move || cx.hold_again(&held), std::time::Duration::ZERO);
    }

    // The failure itself, not its text: it is worded in the reader's language, and
    // again when they switch.
    let banner = RwSignal::new(None::<api::ClientError>);
    // The key of the last submit, with the digest of the spec it went with (`sent_digest`).
    let unanswered = sent_before.is_some();
    // That key, while it is the one kept: a server that knows it for another spec made a
    // task of this draft before the reload, which the user is told of (review: a new key
    // made a second task without a word).
    let inherited = StoredValue::new(sent_before.as_ref().map(|(_, key)| key.clone()));
    // Said when such a key made a task of the draft as it was: the key came from before
    // a reload, or from a submit of this page whose answer was lost (`true`).
    let sent_differs = RwSignal::new(None::<bool>);
    let lost_here = StoredValue::new(false);
    let last_key = StoredValue::new(sent_before);
    // One submission at a time (the button is disabled while one is out), so the answer
    // is always the latest request's.
    let submitting = RwSignal::new(false);
    // A submit with no answer after a moment says it waits, and that waiting is safe: a
    // greyed "Submitting…" alone stood for up to 30 s (network explorer).
    let slow = RwSignal::new(false);
    let sends = StoredValue::new(0u32);
    // Started over while a submit was out: a lost answer is then no draft's to submit
    // again, and "submitting again is safe" stood on a blank form (recheck).
    let cleared_while_out = RwSignal::new(false);
    // Focus moved after an answer stays in this form: a portal may hold two.
    // `try_`: the answer may come after the form is gone (the user moved on).
    let this_form = move || form_ref.try_get_untracked().flatten().map(Into::into);
    // The created task's name, said until the draft changes: a form mounted in a portal
    // stays where it is after a submit, and would otherwise look as if nothing happened.
    // With whether it was made by an earlier submit: the same spec sent again carries
    // the same key, and the server answers with the task it made then.
    let submitted = RwSignal::new(None::<(String, bool)>);
    // The key and task of the last answer, to tell such an answer from a new task.
    let created = StoredValue::new(None::<(String, String)>);
    Effect::new(move |_| {
        cx.spec.track();
        if submitted.with_untracked(Option::is_some) {
            submitted.set(None);
        }
    });
    // Said of the blank form the reload found, until it is the user's work (recheck
    // explorer: it stayed over an import and a refused submit).
    Effect::new(move |ran: Option<()>| {
        cx.spec.track();
        if ran.is_some() && made_before.with_untracked(Option::is_some) {
            made_before.set(None);
        }
    });
    // The page is being left: a reload or a link away asked, which the browser says
    // first (`beforeunload`), before the page it opens has come.
    let leaving = StoredValue::new(false);
    let unloading = window_event_listener(leptos::ev::beforeunload, move |_| {
        leaving.try_set_value(true);
    });
    on_cleanup(move || unloading.remove());
    let answered = move |key: String, result: api::Result<TaskView>| {
        submitting.set(false);
        slow.set(false);
        match result {
            Ok(task) => {
                autosave.forget();
                // Answered as the page is left (a reload pressed while it was out): the
                // page the reload opens says what was made (`made_before`).
                if leaving.get_value() {
                    slot_key.with_value(|slot| draft::save_made(slot, &task.task.id.0));
                }
                banner.set(None);
                // The draft it restored is sent: a form that stays (a portal's) no longer
                // said so above the line that says what it made (embedding test).
                restored.set(false);
                let id = task.task.id.0.clone();
                let again = created.with_value(|c| c.as_ref() == Some(&(key.clone(), id.clone())));
                created.set_value(Some((key, id.clone())));
                if again || !moves_on {
                    submitted.set(Some((id, again)));
                    // Submit was disabled while the request was out: the focus goes to
                    // the line that says what it made.
                    crate::components::refocus_if_lost(
                        this_form(),
                        &["[data-testid='form-submitted']"],
                    );
                }
                // Called once a task: a portal counting its submissions counted the
                // same task at each press (embedding test).
                if let Some(done) = on_submitted.filter(|_| !again) {
                    done.run(task);
                }
            }
            Err(api::ClientError::Api(mut body)) if !body.issues.is_empty() => {
                let mut report = Report::new();
                for issue in std::mem::take(&mut body.issues) {
                    report.push_issue(issue.into());
                }
                cx.server.set(Some((cx.spec.get_untracked(), report)));
                banner.set(Some(api::ClientError::Api(body)));
                // Submit is disabled while the request is out, and now by the errors:
                // the focus goes to the findings, each a way to its field.
                crate::components::refocus_if_lost(this_form(), &[".findings-summary"]);
                // The refusal may be quota spent since the plan was drawn: the plan
                // beside it is drawn again from the use now, not in up to 30 s.
                refresh_usage();
            }
            Err(err) => {
                banner.set(Some(err));
                crate::components::refocus_if_lost(this_form(), &["[data-testid='submit-error']"]);
            }
        }
    };
    // Where this form submits (its mount's `apiBase`), read while it is built.
    let base = StoredValue::new(api::Base::here());
    // Until the form is started over: a blank form's task copies nothing (review: it
    // was stored for good as a clone).
    let cloned_from = RwSignal::new(copy_of);
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        cx.show_all(true);
        if submitting.get_untracked() {
            return;
        }
        // Submit is pressable while errors remain, so the keyboard reaches it and hears
        // why it does nothing (it was skipped by Tab, with no word of the errors): a
        // press takes the focus to the findings, each a way to its field.
        if cx.report.with_untracked(Report::has_errors) {
            if let Some(summary) = this_form()
                .and_then(|f| f.query_selector(".findings-summary").ok().flatten())
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
            {
                let _ = summary.focus();
            }
            return;
        }
        let spec = cx.spec.get_untracked().normalized();
        let json = serde_json::to_string(&spec).unwrap_or_default();
        let digest = sent_digest(&spec);
        // The same spec sent again (a retry, also after a reload: the key is kept beside
        // the draft) carries the same key, so the server answers with the first task
        // instead of creating a second.
        // Edited since an unanswered submit before a reload: that submit's key still,
        // once, so a task it made is said (`task.conflict`, below) rather than a second
        // made without a word (recheck: one changed letter made two running tasks).
        let kept = last_key
            .with_value(|last| {
                last.as_ref()
                    .filter(|(sent, _)| *sent == digest)
                    .map(|(_, k)| k.clone())
            })
            .or_else(|| inherited.get_value());
        let fresh = kept.is_none();
        let key = kept.unwrap_or_else(new_key);
        let from_before = inherited.with_value(|k| k.as_deref() == Some(key.as_str()));
        let remember = move |key: &str| {
            last_key.try_set_value(Some((digest, key.to_owned())));
            slot_key.try_with_value(|slot| draft::save_sent(slot, digest, key));
        };
        remember(&key);
        sent_differs.set(None);
        cleared_while_out.set(false);
        submitting.set(true);
        sends.update_value(|n| *n = n.wrapping_add(1));
        let this_send = sends.get_value();
        set_timeout(
            move || {
                if submitting.try_get_untracked() == Some(true)
                    && sends.try_get_value() == Some(this_send)
                {
                    slow.try_set(true);
                }
            },
            std::time::Duration::from_secs(2),
        );
        // The last press's failure is over: kept, "Cannot reach the server" stood beside
        // "Submitting…" once the connection was back (network explorer).
        banner.set(None);
        let base = base.get_value();
        leptos::task::spawn_local(async move {
            let mut key = key;
            let from = cloned_from.get_untracked();
            let mut answer = api::submit_task(&base, json.clone(), &key, from.as_deref()).await;
            let refused_key =
                matches!(&answer, Err(api::ClientError::Api(body)) if body.code == "task.conflict");
            if refused_key && from_before {
                // Sent before the reload as it was then (other hidden values, or edits
                // since): a task was made of it. Said, and the next submit makes another
                // with a new key.
                inherited.try_set_value(None);
                last_key.try_set_value(None);
                slot_key.try_with_value(|slot| draft::clear_sent(slot));
                submitting.try_set(false);
                slow.try_set(false);
                banner.try_set(None);
                sent_differs.try_set(Some(lost_here.get_value()));
                return;
            }
            // A key of this page's the server knows for another spec (the digest does not
            // see a hidden value changed since) or for a task since deleted: a new one,
            // once.
            if refused_key && !fresh {
                key = new_key();
                remember(&key);
                answer = api::submit_task(&base, json, &key, from.as_deref()).await;
            }
            // Any answer but a lost one says what became of the submit: the key kept
            // beside the draft is done with (a task made forgets the draft with it).
            if matches!(answer, Err(api::ClientError::Network(_))) {
                // Lost, it may have made a task: its key goes with the next submit once
                // more, edited or not, as after a reload (network explorer: a typo
                // mended after a lost answer, then Submit, made two tasks).
                inherited.try_set_value(Some(key.clone()));
                lost_here.try_set_value(true);
            } else {
                inherited.try_set_value(None);
                lost_here.try_set_value(false);
                slot_key.try_with_value(|slot| draft::clear_sent(slot));
            }
            answered(key, answer);
        });
    };
    // Start over clears what may be an hour's work: asked first, as Stop and Delete are,
    // at the safe answer; Cancel (or Escape) goes back to the button.
    let asking = RwSignal::new(false);
    let start_button = NodeRef::<leptos::html::Button>::new();
    let keep_button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let Some(keep) = keep_button.get() {
            let _ = keep.focus();
        }
    });
    let back_to_start = move || {
        asking.set(false);
        if let Some(button) = start_button.get_untracked() {
            let _ = button.focus();
        }
    };
    let start_over = move |_| {
        back_to_start();
        if submitting.get_untracked() {
            cleared_while_out.set(true);
        }
        autosave.restart();
        cx.server.set(None);
        cx.show_all(false);
        cx.untouch_all();
        cx.spec.set(blank.get_value());
        origin.set_value(blank.get_value());
        cx.reset_unparsed();
        restored.set(false);
        if cloned_from.get_untracked().is_some() {
            cloned_from.set(None);
            slot_key.with_value(|slot| draft::detach(slot));
        }
    };
    // As Start over, it drops what may be an hour's edits: asked first (recheck: gone at
    // one click, in the banner read first after a reload).
    let asking_afresh = RwSignal::new(false);
    let afresh_button = NodeRef::<leptos::html::Button>::new();
    let afresh_keep = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let Some(keep) = afresh_keep.get() {
            let _ = keep.focus();
        }
    });
    let keep_edits = move || {
        asking_afresh.set(false);
        if let Some(button) = afresh_button.get_untracked() {
            let _ = button.focus();
        }
    };
    let afresh = move |_| {
        asking_afresh.set(false);
        autosave.restart();
        cx.server.set(None);
        cx.spec.set(origin.get_value());
        cx.reset_unparsed();
        restored.set(false);
        // The button goes with the note: the focus goes to the form's first control.
        crate::components::refocus_if_lost(this_form(), &["select", "input"]);
    };
    let is_ray = cx.watch(TaskSpec::is_ray);
    let has_type = cx.watch(move |s| s.task_type().is_some());
    let errors = Memo::new(move |_| {
        cx.report.with(|r| {
            r.issues()
                .iter()
                .filter(|i| i.severity == Severity::Error)
                .count()
        })
    });
    Effect::new(move |_| {
        if let Some(form) = form_ref.get() {
            cx.ids.placed(form.into());
        }
    });
    let (summary_title, start_over_text, submit_why) = (
        cx.id("berth-form-summary-title"),
        cx.id("berth-start-over-text"),
        cx.id("berth-submit-why"),
    );
    let summary_labelled = summary_title.clone();
    view! {
        <form class="task-form" novalidate=true on:submit=on_submit on:keydown=no_enter_submit data-testid="task-form" node_ref=form_ref
            on:focusin=move |ev: web_sys::FocusEvent| in_field.set(is_field(ev.target()))
            on:focusout=move |_| in_field.set(false)>
            <h1>{move || cx.text("ui.form.title")}</h1>
            {move || cloned_from.get().map(|id| view! {
                <p class="help" data-testid="copy-of">
                    {move || shared::messages::text(cx.lang(), "ui.form.copy_of", &[("id", id.clone())])}
                </p>
            })}
            {move || restored.get().then(|| if resume && revealed {
                // A clone's edits: the way back to the task's own spec, which opening the
                // clone again no longer gives.
                // Sent with no answer, they were not unsent (cloud-console explorer).
                let said = if unanswered {
                    "ui.form.clone_restored#sent"
                } else {
                    "ui.form.clone_restored"
                };
                let question = cx.id("berth-clone-afresh-text");
                view! {
                    <p class="banner info" role="status" data-testid="draft-restored">
                        {move || restored_words(said)}
                        " "
                        <button type="button" data-testid="clone-afresh" on:click=move |_| asking_afresh.set(true) node_ref=afresh_button>{move || cx.text("ui.form.clone_afresh")}</button>
                    </p>
                    {move || asking_afresh.get().then(|| {
                        let question_box = NodeRef::new();
                        crate::components::close_when_focus_elsewhere(question_box, move || asking_afresh.set(false));
                        view! {
                        <div class="confirm" role="alertdialog" aria-labelledby=question.clone() data-testid="confirm-clone-afresh"
                            on:keydown=move |ev| if ev.key() == "Escape" { keep_edits() } node_ref=question_box>
                            <p id=question.clone()>{move || cx.text("ui.form.clone_afresh_confirm")}</p>
                            <button type="button" class="danger" data-testid="confirm-clone-afresh-yes" on:click=afresh>{move || cx.text("ui.form.clone_afresh_yes")}</button>
                            <button type="button" data-testid="confirm-clone-afresh-no" on:click=move |_| keep_edits() node_ref=afresh_keep>{move || cx.text("ui.detail.cancel")}</button>
                        </div>
                        }
                    })}
                }.into_any()
            } else {
                // Sent before the page was left, with no answer: a submit again is safe, and
                // the words do not call the draft unsent.
                let said = if unanswered {
                    "ui.form.draft_restored#sent"
                } else if other_tab {
                    "ui.form.draft_restored#other_tab"
                } else {
                    "ui.form.draft_restored"
                };
                view! {
                    <p class="banner info" role="status" data-testid="draft-restored">
                        {move || restored_words(said)}
                    </p>
                }.into_any()
            })}
            {move || made_before.get().map(|id| view! {
                <p class="banner info" role="status" data-testid="made-before">
                    <TaskNamed key="ui.form.made_before" id />
                </p>
            })}
            // The spec's own version has no control: a clone or import of another
            // version says so here, above every section.
            <GroupFindings path="version" />
            <BasicSection />
            <EnvironmentSection />
            <ComputeSection />
            <AdvancedSection />
            {move || match (has_type.get(), is_ray.get()) {
                (false, _) => None,
                (true, false) => Some(view! { <PyTorchSection /> }.into_any()),
                (true, true) => Some(view! { <RaySection /> }.into_any()),
            }}
            <section class="findings-summary" aria-labelledby=summary_labelled tabindex="-1" data-testid="findings-summary">
                <h2 id=summary_title>{move || cx.text("ui.form.summary_title")}</h2>
                <ReportView report=Signal::from(cx.report) quiet=in_field />
            </section>
            <Preview origin refresh_usage=Callback::new(move |()| refresh_usage()) />
            // A submit that came to nothing may have made the task: "try again" alone left
            // a careful user unsure whether that makes a second (slow-link explorer).
            {move || banner.get().map(|err| {
                // A gateway's error may come after Berth made the task (network explorer).
                let lost = matches!(err, api::ClientError::Network(api::Unreached::Silent { from_other_site: None } | api::Unreached::Said(_) | api::Unreached::Gateway(_)));
                let after = lost.then(|| if cleared_while_out.get_untracked() { "ui.form.submit_lost_cleared" } else { "ui.form.submit_again_safe" });
                view! {
                    <p class="banner error" role="alert" data-testid="submit-error" tabindex="-1">
                        {move || err.localized(cx.lang())}
                        {after.map(|key| view! { " " {move || cx.text(key)} })}
                    </p>
                }
            })}
            {move || sent_differs.get().map(|here| view! { <p class="banner info" role="alert" data-testid="sent-differs">{move || cx.text(if here { "ui.form.sent_differs#here" } else { "ui.form.sent_differs" })}</p> })}
            // The region is there before its text, so a screen reader announces it.
            <div role="status">
                {move || submitted.get().map(|(id, again)| view! {
                    <p class="banner info" data-testid="form-submitted" tabindex="-1">
                        <TaskNamed key=if again { "ui.form.submitted#again" } else { "ui.form.submitted" } id />
                    </p>
                })}
            </div>
            <div class="actions">
                <button type="submit" class="primary" data-testid="submit" disabled=move || submitting.get()
                    aria-disabled=move || (errors.get() > 0).then_some("true") aria-describedby=submit_why.clone()>
                    {move || cx.text(if submitting.get() { "ui.form.submitting" } else { "ui.form.submit" })}
                </button>
                <button type="button" data-testid="start-over" on:click=move |_| asking.set(true) node_ref=start_button>{move || cx.text("ui.form.start_over")}</button>
                <span class="submit-why" role="status" data-testid="submit-waiting">
                    {move || slow.get().then(|| cx.text("ui.form.submit_waiting"))}
                </span>
                <span class="submit-why" id=submit_why data-testid="submit-why">
                    {move || match errors.get() {
                        0 => String::new(),
                        n => {
                            let l = cx.lang();
                            text(l, "ui.form.submit_blocked", &[("errors", count(l, "ui.form.count.errors", n))])
                        }
                    }}
                </span>
            </div>
            {move || asking.get().then(|| {
                // Gone when the focus lands past it, as the task page's questions.
                let question_box = NodeRef::new();
                crate::components::close_when_focus_elsewhere(question_box, move || asking.set(false));
                view! {
                <div class="confirm" role="alertdialog" aria-labelledby=start_over_text.clone() data-testid="confirm-start-over"
                    on:keydown=move |ev| if ev.key() == "Escape" { back_to_start() } node_ref=question_box>
                    <p id=start_over_text.clone()>{move || cx.text("ui.form.start_over_confirm")}</p>
                    <button type="button" class="danger" data-testid="confirm-start-over-yes" on:click=start_over>{move || cx.text("ui.form.start_over_yes")}</button>
                    <button type="button" data-testid="confirm-start-over-no" on:click=move |_| back_to_start() node_ref=keep_button>{move || cx.text("ui.detail.cancel")}</button>
                </div>
                }
            })}
        </form>
    }
}

/// Whether `target` is a control of the spec ([`super::field::names_a_field`]).
fn is_field(target: Option<web_sys::EventTarget>) -> bool {
    target
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        .is_some_and(|e| super::field::names_a_field(&e))
}

/// How often the form asks for the pools' and the quota's use while it is open.
pub const USAGE_REFRESH: std::time::Duration = std::time::Duration::from_secs(30);

/// Use read this recently is current enough for a form opening with it.
const USAGE_FRESH_MS: f64 = 5_000.0;

/// When the console last read the catalog and use it gives its pages (`Date.now()`), so
/// a create form opened with them at once does not ask again.
#[derive(Clone, Copy)]
pub struct UsageReadAt(StoredValue<f64>);

impl UsageReadAt {
    /// Provides it, not yet read.
    pub fn provide() -> Self {
        let at = Self(StoredValue::new(f64::NEG_INFINITY));
        provide_context(at);
        at
    }

    /// Notes a read at `at`.
    pub fn set(self, at: f64) {
        self.0.try_set_value(at);
    }

    /// The last read, when there was one, taken: only the first form opened with it
    /// is spared its ask (review: a clone opened seconds after a submit planned on the
    /// use from before the submit).
    pub fn take() -> Option<f64> {
        use_context::<Self>()
            .and_then(|at| {
                at.0.try_update_value(|at| std::mem::replace(at, f64::NEG_INFINITY))
            })
            .filter(|at| at.is_finite())
    }
}

/// Keeps `usage` current while the form is open, so the plan says what would happen now:
/// tasks start and end, and the console's copy may predate the user's own last submit.
/// Asked at once (unless read just before), when the user comes back to the window, and every [`USAGE_REFRESH`]
/// while the page is visible; a failed ask keeps the last answer (the server checks
/// again at submit).
///
/// Returns the ask, for a refusal that may be about quota spent since.
fn follow_usage(
    cx: FormCx,
    (usage, outside, held): (
        RwSignal<Usage>,
        RwSignal<Usage>,
        RwSignal<Vec<shared::quota::HeldRoom>>,
    ),
    form: NodeRef<leptos::html::Form>,
    freshness: crate::components::PlanFreshness,
    read_at: Option<f64>,
) -> impl Fn() + Copy + 'static {
    let base = StoredValue::new(api::Base::here());
    let refresh = move || {
        // Nor while the form is out of the page: a portal's form lives until it is
        // unmounted, and one whose element was dropped without would ask every 30 s.
        let out = form
            .try_get_untracked()
            .flatten()
            .is_some_and(|f| !f.is_connected());
        if document().hidden() || out {
            return;
        }
        let Some(base) = base.try_get_value() else {
            return;
        };
        leptos::task::spawn_local(async move {
            let Ok(fresh) = api::fetch_catalog(&base).await else {
                // Kept, and said to be of before: the server checks again at submit.
                freshness.stale.try_set(true);
                return;
            };
            if freshness.stale.try_get_untracked() == Some(true) {
                freshness.stale.try_set(false);
            }
            // A catalog changed on the server (a restart with another file) is said,
            // not taken in: the form's choices and findings were made against the one
            // it opened with, and a reload, which keeps the draft, checks them again.
            let changed = cx.catalog.try_with_value(|c| *c != fresh.catalog) == Some(true);
            if changed && freshness.catalog_changed.try_get_untracked() == Some(false) {
                freshness.catalog_changed.try_set(true);
            }
            if outside.try_with_untracked(|now| *now != fresh.outside) == Some(true) {
                outside.try_set(fresh.outside);
            }
            if held.try_with_untracked(|now| *now != fresh.held) == Some(true) {
                held.try_set(fresh.held);
            }
            if usage.try_with_untracked(|now| *now != fresh.usage) == Some(true) {
                usage.try_set(fresh.usage);
            }
        });
    };
    if read_at.is_none_or(|at| js_sys::Date::now() - at > USAGE_FRESH_MS) {
        refresh();
    }
    let interval = set_interval_with_handle(refresh, USAGE_REFRESH).ok();
    let back = window_event_listener(leptos::ev::focus, move |_| refresh());
    // A tab shown again may get no `focus` of the window (switched back to within it):
    // the plan showed quota read minutes before (all-day explorer). The document's
    // event comes up to the window.
    let shown = window_event_listener(leptos::ev::visibilitychange, move |_| refresh());
    on_cleanup(move || {
        back.remove();
        shown.remove();
        if let Some(interval) = interval {
            interval.clear();
        }
    });
    refresh
}

/// The words of `key` with their `{id}` a link to that task's page: in the console, a
/// move within it; in a portal, the page of the Berth the form submits to (its own
/// origin when it was given no `apiBase`: review, the console's move changed only the
/// portal's address).
#[component]
fn TaskNamed(key: &'static str, id: String) -> impl IntoView {
    let cx = FormCx::use_context();
    let route = crate::nav::Route::Detail(id.clone());
    let base = api::Base::here();
    let link = if use_context::<crate::widgets::Embedded>().is_none() {
        view! { <crate::nav::Link to=route test_id="made-task">{id.clone()}</crate::nav::Link> }
            .into_any()
    } else {
        view! { <a href=base.url(&route.href()) data-testid="made-task">{id.clone()}</a> }
            .into_any()
    };
    // Split at the id's place, which each language puts where its words need it.
    let part = move |after: bool| {
        let said = shared::messages::text(cx.lang(), key, &[("id", "\u{1}".to_owned())]);
        let (before, rest) = said.split_once('\u{1}').unwrap_or((&said, ""));
        (if after { rest } else { before }).to_owned()
    };
    view! { {move || part(false)}{link}{move || part(true)} }
}

/// What tells one submitted spec from another beside its key: a digest (FNV-1a) of the
/// spec as others read it, so that what is kept in the browser's storage holds nothing
/// of a hidden value, as the draft does not.
fn sent_digest(spec: &TaskSpec) -> u64 {
    serde_json::to_string(&spec.for_others())
        .unwrap_or_default()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        })
}

/// A fresh idempotency key.
fn new_key() -> String {
    let random = (js_sys::Math::random() * 1e15) as u64;
    format!("form-{:x}-{random:x}", js_sys::Date::now() as u64)
}

/// Enter in a one-line field does not submit the task, as it would in a plain HTML form:
/// on a form this long, an Enter after typing a name would send a task that holds GPUs,
/// or, with errors left, light up every finding at once. The submit button takes Enter.
fn no_enter_submit(ev: leptos::ev::KeyboardEvent) {
    use wasm_bindgen::JsCast;
    let in_field = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|e| e.tag_name() == "INPUT");
    if ev.key() == "Enter" && in_field {
        ev.prevent_default();
    }
}
