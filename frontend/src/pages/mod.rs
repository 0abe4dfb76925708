//! One module per route, and the pieces the task pages share.

pub mod shared_view;
pub mod task_detail;
pub mod task_list;
pub mod task_new;

use crate::i18n::UiLang;
use leptos::prelude::*;
use shared::Lang;
use shared::record::{TaskPhase, Timestamp};

/// Every phase a listed task can be in, in lifecycle order (deleted tasks leave the
/// lists).
pub const LISTED_PHASES: [TaskPhase; 7] = [
    TaskPhase::Queued,
    TaskPhase::Scheduling,
    TaskPhase::Running,
    TaskPhase::Retrying,
    TaskPhase::Succeeded,
    TaskPhase::Failed,
    TaskPhase::Stopped,
];

/// A phase's name in `lang` (`ui.phase.*`).
pub fn phase_label(lang: Lang, phase: TaskPhase) -> String {
    shared::messages::text(
        lang,
        &format!("ui.phase.{}", crate::api::wire_name(&phase)),
        &[],
    )
}

/// A time as the reader's locale writes it, in the browser's time zone.
pub fn format_time(lang: Lang, at: Timestamp) -> String {
    // Named, as every task's time is beside it: a reader compares them.
    in_zone(at.0 as f64, lang.tag(), "", true)
}

/// A task's time to come (or just gone) as the reader's locale writes it, in the task's
/// time zone as its other times are (the browser's when it names none the browser
/// knows), named: the time of day alone when it falls on `now`'s day there, with the
/// date when not.
pub fn format_time_from(lang: Lang, at: Timestamp, now: Timestamp, zone: &str) -> String {
    let day = |ms: i64| day_in(ms as f64, zone);
    in_zone(at.0 as f64, lang.tag(), zone, day(at.0) != day(now.0))
}

// The zone's name goes last in every language: zh-CN's own layout puts it between the
// date and the time ("2026/12/1 UTC 16:51:18"), where it reads as part of the date.
// In English, written as the browser's own English writes it (en-GB, en-IN: 6/12/2026,
// not the US's 12/6/2026, which reads as 12 June there; zone explorer): the first English
// of the browser's languages. With none (an English console in a French browser), the
// month by its name, "Dec 6, 2026", which no reader takes for 12 June. Chinese is
// zh-CN's, as the console's words are: zh-TW and zh-HK write the zone in brackets, which
// were left empty ("下午11:19:35 [] GMT+8", recheck).
// Without `dated`, the time of day alone.
#[wasm_bindgen::prelude::wasm_bindgen(
    inline_js = "export function in_zone(ms, locale, zone, dated) { \
    const date = new Date(ms); \
    let month = 'numeric'; \
    if (locale === 'en') { \
      const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || '']; \
      const en = langs.find((l) => /^en(-|$)/i.test(l)); \
      if (en) locale = en; else month = 'short'; } \
    const day = dated ? { year: 'numeric', month, day: 'numeric' } : {}; \
    const parts = (timeZone) => new Intl.DateTimeFormat(locale, { ...day, hour: 'numeric', \
      minute: 'numeric', second: 'numeric', timeZone, timeZoneName: 'short' }).formatToParts(date); \
    let all; \
    if (zone) { try { all = parts(zone); } catch (e) {} } \
    all = all || parts(undefined); \
    const name = all.filter((p) => p.type === 'timeZoneName').map((p) => p.value).join(''); \
    const rest = all.filter((p) => p.type !== 'timeZoneName').map((p) => p.value).join(''); \
    return (rest.replace(/\\s+/g, ' ').trim() + ' ' + name).trim(); } \
    export function day_in(ms, zone) { \
    const day = (timeZone) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(ms)); \
    if (zone) { try { return day(zone); } catch (e) {} } \
    return day(undefined); }"
)]
extern "C" {
    fn in_zone(ms: f64, locale: &str, zone: &str, dated: bool) -> String;
    fn day_in(ms: f64, zone: &str) -> String;
}

/// A task's time as the reader's locale writes it, in the task's time zone (SPEC.md
/// section 2: the zone its times are shown in), named, so a reader in another zone is
/// not misled; the browser's zone when the task names none the browser knows.
pub fn format_task_time(lang: Lang, at: Timestamp, zone: &str) -> String {
    if zone.is_empty() {
        return format_time(lang, at);
    }
    in_zone(at.0 as f64, lang.tag(), zone, true)
}

/// How long from `from` to `to`, in its two largest units ("2 min 5 s", "1 h 3 min").
pub fn format_duration(lang: Lang, from: Timestamp, to: Timestamp) -> String {
    let s = (to.0 - from.0).max(0) / 1000;
    let (m, h, d) = (s / 60, s / 3600, s / 86_400);
    let n = |v: i64| v.to_string();
    let (key, args) = if d > 0 {
        ("ui.duration.dh", [("d", n(d)), ("h", n(h % 24))])
    } else if h > 0 {
        ("ui.duration.hm", [("h", n(h)), ("m", n(m % 60))])
    } else if m > 0 {
        ("ui.duration.ms", [("m", n(m)), ("s", n(s % 60))])
    } else {
        ("ui.duration.s", [("s", n(s)), ("m", String::new())])
    };
    shared::messages::text(lang, key, &args)
}

/// A phase as a coloured badge; the colour only repeats the word.
#[component]
pub fn PhaseBadge(
    /// The phase.
    #[prop(into)]
    phase: Signal<TaskPhase>,
    /// A stop was asked and the replicas are still ending: no phase of its own on the
    /// server (the task runs until they have), but what the reader must see instead of
    /// "running" while a second stop would only signal them again.
    #[prop(optional, into)]
    stopping: Signal<bool>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let name = move || {
        if stopping.get() {
            "stopping".to_owned()
        } else {
            crate::api::wire_name(&phase.get())
        }
    };
    view! {
        <span class=move || format!("phase phase-{}", name()) data-phase=name>
            {move || shared::messages::text(lang.get(), &format!("ui.phase.{}", name()), &[])}
        </span>
    }
}

/// A request's failure, shown in the page (never only in the browser's console), in
/// the reader's language, until dismissed or replaced.
#[component]
pub fn ErrorBanner(
    /// The failure, if any.
    error: RwSignal<Option<crate::api::ClientError>>,
    /// The words for a refused spec (`spec.invalid`, with its `{code}`) on a page without
    /// the form: "fix the findings" there would ask for what the page cannot do.
    #[prop(optional)]
    refused_spec: Option<&'static str>,
    /// A finding's place in the page's own words, where it has better ones than the
    /// form's labels (a spec of the list by its catalog name, not its row); the form's
    /// labels otherwise.
    #[prop(optional, into)]
    place: Option<Callback<(shared::Lang, String), Option<String>>>,
    /// While true, the banner is all the page has to say (a task that never loaded):
    /// it has no Dismiss, which left an empty page (console exploration).
    #[prop(optional, into)]
    whole_page: Option<Signal<bool>>,
    /// Asks again for what the page could not read, offered while the banner is the
    /// whole page and asking again may help ([`ClientError::mendable`]): a task page whose
    /// read was given up said so with no way to ask again but a reload (its poll asks a
    /// task it has not read only as often as an ended one's). With the message key said
    /// while it is asked.
    #[prop(optional)]
    try_again: Option<(Callback<()>, &'static str)>,
    /// The page asks again by itself (the list's live refresh): a server out of reach is
    /// said with that, not with "then try again", which sent the reader to reload (slow-
    /// link explorer).
    #[prop(optional, into)]
    retried: Option<Signal<bool>>,
) -> impl IntoView {
    let retried = move || retried.is_some_and(|r| r.get());
    let lang = UiLang::use_context();
    let named_place = place;
    // Asked again, not yet answered: the button says so, and the failure stays until the
    // answer replaces it (any answer sets the error, a failure too).
    let trying = RwSignal::new(false);
    // The banner is built again at each failure, its button too: the keyboard's focus
    // on it went down to the page's body at each failed read (review).
    let on_again = StoredValue::new(false);
    Effect::new(move |_| {
        let failed = error.with(Option::is_some);
        trying.set(false);
        if failed && on_again.get_value() {
            crate::components::refocus_if_lost(None, &["[data-testid='error-try-again']"]);
        }
    });
    move || {
        error.get().map(|err| {
            // Read back by their codes, so each is worded in the language shown now, and
            // errors first with their severity said: a hint the server sent beside them
            // is not a reason for the refusal.
            let issues: Vec<shared::Issue> = match &err {
                crate::api::ClientError::Api(body) => {
                    body.issues.iter().cloned().map(Into::into).collect()
                }
                crate::api::ClientError::Network(_) => Vec::new(),
            };
            let issues = crate::components::errors_first(issues, |i| i.severity);
            view! {
                <div class="banner error" role="alert" data-testid="error">
                    <span class="message">{match (&err, refused_spec) {
                        (crate::api::ClientError::Api(body), Some(key)) if body.code == "spec.invalid" => {
                            // Refused only for quota other tasks hold now: no edit of a
                            // clone fixes that, a stop or a wait does.
                            let mut errors = issues.iter().filter(|i| i.severity == shared::Severity::Error).peekable();
                            let quota = errors.peek().is_some()
                                && errors.all(|i| matches!(i.code, shared::IssueCode::QuotaExceeded { .. }));
                            let key = if quota { format!("{key}#quota") } else { key.to_owned() };
                            lang.text_with(&key, &[("code", body.code.clone())])
                        }
                        (crate::api::ClientError::Network(crate::api::Unreached::Silent { from_other_site: None }), _) if retried() => {
                            lang.text("ui.app.unreachable#retried")
                        }
                        (crate::api::ClientError::Network(crate::api::Unreached::GaveUp(seconds)), _) if retried() => {
                            lang.text_with("ui.app.read_no_answer#retried", &[("seconds", seconds.to_string())])
                        }
                        _ => err.localized(lang.get()),
                    }}</span>
                    <ul class="issues">
                        {issues.into_iter().map(|issue| {
                            let path = issue.path.to_string();
                            let (place, title) = (path.clone(), path.clone());
                            let (severity, code) = (issue.severity.as_str(), issue.code.code());
                            view! {
                                <li class=format!("issue {severity}") data-code=code data-path=path>
                                    {crate::components::severity_badge(move || lang.get(), issue.severity)}
                                    <span>
                                        <span class="path" title=title>{move || {
                                            let l = lang.get();
                                            named_place
                                                .and_then(|named| named.run((l, place.clone())))
                                                .unwrap_or_else(|| crate::components::field_place(l, &place))
                                        }}</span>
                                        {move || lang.text("ui.form.summary.after_place")}
                                        <span class="message">{move || crate::components::issue_text(&issue, lang.get())}</span>
                                    </span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                    // Not for a refusal: asked again, it is refused again. Off while
                    // asked by `aria-disabled`, not `disabled`, which dropped the
                    // keyboard's focus to the page's body.
                    {(whole_page.is_some_and(|w| w.get()) && err.mendable())
                        .then(|| try_again.map(|(again, asking)| view! {
                        <button type="button" data-testid="error-try-again"
                            aria-disabled=move || trying.get().then_some("true")
                            on:focus=move |_| on_again.set_value(true)
                            on:blur=move |_| on_again.set_value(false)
                            on:click=move |_| {
                                if trying.get_untracked() {
                                    return;
                                }
                                trying.set(true);
                                again.run(());
                            }>
                            {move || lang.text(if trying.get() { asking } else { "ui.app.try_again" })}
                        </button>
                    }))}
                    {(!whole_page.is_some_and(|w| w.get())).then(|| view! {
                        <button type="button" class="dismiss" on:click=move |_| {
                            error.set(None);
                            // The button goes with the banner: the focus goes to the task's
                            // actions, else to the page's start.
                            crate::components::refocus_if_lost(None, &["[data-testid='actions']", "main#content"]);
                        }>
                            {crate::i18n::tr("ui.app.dismiss")}
                        </button>
                    })}
                </div>
            }
        })
    }
}

/// Titles the browser's tab after the page, in the reader's language (`Task x — Berth`):
/// every page was "Berth", so tabs, the history and a screen reader's window name could
/// not tell them apart.
pub fn title_page(heading: impl Fn(&UiLang) -> Option<String> + Send + Sync + 'static) {
    let lang = UiLang::use_context();
    Effect::new(move |_| {
        let brand = lang.text("ui.app.brand");
        let title = match heading(&lang) {
            Some(heading) => format!("{heading} — {brand}"),
            None => brand,
        };
        document().set_title(&title);
    });
}

/// A project group as people know it: its name from the catalog, else its id (a group
/// since removed, or a page shown without the catalog).
pub fn group_name(groups: &[shared::catalog::ProjectGroup], id: &str) -> String {
    groups
        .iter()
        .find(|g| g.id == id)
        .map_or_else(|| id.to_owned(), |g| g.name.clone())
}

/// A spec of `task`'s cluster as people know it: its catalog name, else its id (a spec
/// since removed).
pub fn spec_name(catalog: &shared::Catalog, task: &shared::TaskSpec, id: &str) -> String {
    catalog.spec_name(task, id)
}

/// A pool of `task`'s cluster as people know it: its catalog name, else its id.
pub fn pool_name(catalog: &shared::Catalog, task: &shared::TaskSpec, id: &str) -> String {
    catalog
        .cluster(&task.basic.region, &task.basic.cluster)
        .and_then(|c| c.pool(id))
        .map_or_else(|| id.to_owned(), |p| p.name.clone())
}
