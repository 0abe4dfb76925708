//! The task pages' pieces, mounted with fixed tasks: the list's table, chips and
//! filters, the detail's summary and timeline, the shared view, errors and links.

use crate::{fresh_page, sleep};
use frontend::api::{ClientError, EventPage, ListFilter};
use frontend::i18n::UiLang;
use frontend::nav::{Link, Nav, Route};
use frontend::pages::ErrorBanner;
use frontend::pages::shared_view::{SharedTask, SharedTaskPage};
use frontend::pages::task_detail::{Resilience, TaskSummary, Timeline, replica_labels};
use frontend::pages::task_list::{Filters, PhaseChips, TaskTable};
use leptos::prelude::*;
use shared::api::{ErrorBody, MadeFrom, MadeHow, TaskView};
use shared::record::{PhaseChange, Task, TaskId, TaskPhase, Timestamp};
use shared::{Lang, TaskType};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

/// Mounts `view` (with the language and route in context) into a fresh element.
fn mount<V: IntoView + 'static>(view: impl Fn() -> V + 'static) -> HtmlElement {
    fresh_page();
    let host = crate::new_host();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        let lang = UiLang::provide();
        // Each test starts in English whatever an earlier one chose.
        lang.set(Lang::En);
        Nav::provide();
        view! { <frontend::i18n::LangSwitch />{view()} }
    });
    handle.forget();
    host
}

/// A task's status detail, mounted, for a view that does not change.
async fn summary_of(view: TaskView) -> HtmlElement {
    let view = Signal::stored(view);
    let host = mount(move || view! { <TaskSummary view /> });
    leptos::task::tick().await;
    host
}

/// The language choice is kept in local storage, which every test of this run shares:
/// a test that switches to 中文 switches back, so the next one starts in English.
/// Holds that `read` says `en` in English and `zh` once the page is in Chinese, and
/// leaves the page in English.
async fn says_in_both(host: &HtmlElement, read: impl Fn() -> String, en: &str, zh: &str) {
    assert_eq!(read(), en);
    find(host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(read(), zh);
    back_to_english(host).await;
}

async fn back_to_english(host: &HtmlElement) {
    find(host, "[data-testid='lang-en']").click();
    leptos::task::tick().await;
    let stored = web_sys::window()
        .unwrap()
        .local_storage()
        .unwrap()
        .unwrap()
        .get_item("berth.lang")
        .unwrap();
    assert_eq!(stored.as_deref(), Some("en"), "the choice is remembered");
}

fn find(host: &HtmlElement, selector: &str) -> HtmlElement {
    host.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
        .unchecked_into()
}

fn all_text(host: &HtmlElement, selector: &str) -> Vec<String> {
    let nodes = host.query_selector_all(selector).unwrap();
    (0..nodes.length())
        .map(|i| nodes.item(i).unwrap().text_content().unwrap_or_default())
        .collect()
}

fn task(id: &str, phase: TaskPhase, task_type: TaskType) -> TaskView {
    let spec = spec_of(task_type);
    let history = vec![
        PhaseChange {
            phase: TaskPhase::Queued,
            at: Timestamp(1_700_000_000_000),
            reason: "the largest free node has 4 GPUs; one replica needs 8".into(),
            keyed: None,
        },
        PhaseChange {
            phase: TaskPhase::Scheduling,
            at: Timestamp(1_700_000_060_000),
            reason: String::new(),
            keyed: None,
        },
        PhaseChange {
            phase,
            at: Timestamp(1_700_000_070_000),
            reason: String::new(),
            keyed: None,
        },
    ];
    TaskView {
        task: Task {
            id: TaskId(id.into()),
            owner: "alice".into(),
            spec,
            phase,
            attempts: 1,
            created_at: Timestamp(1_700_000_000_000),
            updated_at: Timestamp(1_700_000_070_000),
            history,
        },
        tags: vec![shared::task::Tag {
            key: "team".into(),
            value: "nlp".into(),
        }],
        placement: None,
        waits_behind: None,
        made_from: None,
        reason: None,
        retry_at: None,
        // As the local backend lists them (the e2e journeys run on it).
        logs: shared::api::log_replicas(&spec_of(task_type), false),
        stopping_since: None,
        failed_replica: None,
        reruns: 0,
        retries_used: 0,
        last_never_ran: false,
        quiet: Vec::new(),
        attempt_failures: Vec::new(),
        failing: None,
        queue_ahead: None,
        room_kept: false,
    }
}

fn spec_of(task_type: TaskType) -> shared::TaskSpec {
    match task_type {
        TaskType::PyTorchJob => shared::demo::pytorch(),
        TaskType::RayJob => shared::demo::ray(),
    }
}

#[wasm_bindgen_test]
fn list_filters_survive_the_address_bar_both_ways() {
    let filter = ListFilter {
        phase: Some(TaskPhase::Running),
        active: false,
        task_type: Some(TaskType::RayJob),
        tag: "team=nlp x".into(),
        name: "llama".into(),
        owner: String::new(),
        mine: true,
        group: String::new(),
        made_from: String::new(),
    };
    let query = filter.to_query();
    assert_eq!(
        query,
        "phase=running&type=ray_job&tag=team%3Dnlp%20x&name=llama&mine=true"
    );
    assert_eq!(ListFilter::from_query(&format!("?{query}")), filter);
    // One colleague's tasks among the group's (lead explorer: the console said
    // `owner=bob` was no filter it knew).
    let theirs = ListFilter {
        owner: "bob".into(),
        group: "nlp".into(),
        ..ListFilter::default()
    };
    assert_eq!(theirs.to_query(), "owner=bob&group=nlp");
    assert_eq!(ListFilter::from_query("owner=bob&group=nlp"), theirs);
    assert!(ListFilter::ignored("owner=bob&group=nlp").is_empty());
    // The tasks made from one, as its page links to them all.
    let copies = ListFilter {
        made_from: "ok-run-csqdv".into(),
        ..ListFilter::default()
    };
    assert_eq!(copies.to_query(), "made_from=ok-run-csqdv");
    assert_eq!(ListFilter::from_query("made_from=ok-run-csqdv"), copies);
    assert!(ListFilter::ignored("made_from=ok-run-csqdv").is_empty());
    // Mine is one owner: another beside it is said not applied.
    assert_eq!(ListFilter::from_query("owner=bob&mine=true").owner, "");
    assert_eq!(
        ListFilter::ignored("owner=bob&mine=true"),
        [("owner=bob".to_owned(), "ui.list.ignored.owner_beside_mine")]
    );
    // A hand-edited address with an unknown phase or parameter is ignored, not an error.
    assert_eq!(
        ListFilter::from_query("phase=sleeping&colour=red&group=nlp"),
        ListFilter {
            group: "nlp".into(),
            ..ListFilter::default()
        }
    );
    assert_eq!(ListFilter::default().to_query(), "");
    // The tasks not ended, whatever their phase.
    let active = ListFilter {
        active: true,
        ..ListFilter::default()
    };
    assert_eq!(active.to_query(), "phase=active");
    assert_eq!(ListFilter::from_query("phase=active"), active);
    assert!(ListFilter::ignored("phase=active").is_empty());
    // What the filter bar cannot show is not applied, and said so: a group beside
    // `mine=true` (the bar's one choice of whose), and all but the last of a name given
    // twice.
    let query = "mine=true&group=vision&phase=running&phase=failed&tag=stage";
    assert_eq!(
        ListFilter::from_query(query),
        ListFilter {
            phase: Some(TaskPhase::Failed),
            tag: "stage".into(),
            mine: true,
            ..ListFilter::default()
        }
    );
    // Each with why (explorer: a name given twice read "not a filter this list knows").
    assert_eq!(
        ListFilter::ignored(query),
        [
            ("group=vision".to_owned(), "ui.list.ignored.beside_mine"),
            ("phase=running".to_owned(), "ui.list.ignored.repeated")
        ]
    );
    assert!(ListFilter::ignored("group=vision&mine=false").is_empty());
    assert!(ListFilter::ignored("mine=true&group=").is_empty());
    // A bare name is the name with nothing: the last, so the one before is not applied.
    assert_eq!(ListFilter::from_query("name=foo&name").name, "");
    assert_eq!(
        ListFilter::ignored("name=foo&name"),
        [("name=foo".to_owned(), "ui.list.ignored.repeated")]
    );
}

#[wasm_bindgen_test]
async fn the_table_shows_each_task_with_its_phase_and_links_to_its_detail() {
    let tasks = RwSignal::new(vec![
        task(
            "llama-finetune-ab12c",
            TaskPhase::Running,
            TaskType::PyTorchJob,
        ),
        task("ray-etl-zz9q0", TaskPhase::Failed, TaskType::RayJob),
    ]);
    let groups = shared::demo::catalog().project_groups;
    let host = mount(move || view! { <TaskTable tasks=tasks.into() groups=groups.clone() /> });
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "tbody tr th"),
        ["llama-finetune-ab12c", "ray-etl-zz9q0"]
    );
    // The group by its name, as the catalog names it.
    assert!(all_text(&host, "tbody td").contains(&"Vision 视觉".to_owned()));
    assert_eq!(all_text(&host, "tbody .phase"), ["Running", "Failed"]);
    assert_eq!(all_text(&host, "tbody td.tags"), ["team=nlp", "team=nlp"]);
    let link = find(&host, "tbody a");
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("/tasks/llama-finetune-ab12c")
    );
    assert!(all_text(&host, "tbody td").contains(&"RayJob".to_owned()));

    // 中文: the phases in the seeds' words.
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(all_text(&host, "tbody .phase"), ["运行中", "失败"]);
    assert_eq!(all_text(&host, "thead th")[0], "任务名称");
    back_to_english(&host).await;
}

/// Each row says how long its task ran, every attempt's running added up (a retry's
/// wait left out), a running task's to when the rows were read, moving with each read;
/// a task that never ran says so with a dash (lead explorer: no duration to compare
/// runs by, and rows in several zones to work it out from).
#[wasm_bindgen_test]
async fn each_row_says_how_long_its_task_ran() {
    let running = task("t-running", TaskPhase::Running, TaskType::PyTorchJob);
    let mut failed = task("t-failed", TaskPhase::Running, TaskType::PyTorchJob);
    let step = |phase, at: i64| PhaseChange {
        phase,
        at: Timestamp(at),
        reason: String::new(),
        keyed: None,
    };
    // Ran 100 s, waited 1000 s for its retry, ran 3,600 s more, then failed.
    failed.task.history.extend([
        step(TaskPhase::Retrying, 1_700_000_170_000),
        step(TaskPhase::Scheduling, 1_700_001_170_000),
        step(TaskPhase::Running, 1_700_001_180_000),
        step(TaskPhase::Failed, 1_700_004_780_000),
    ]);
    failed.task.phase = TaskPhase::Failed;
    let queued = task("t-queued", TaskPhase::Queued, TaskType::RayJob);
    let tasks = RwSignal::new(vec![running, failed, queued]);
    // The running task began at 1_700_000_070_000.
    let read_at = RwSignal::new(1_700_000_135_000.0);
    let host =
        mount(move || view! { <TaskTable tasks=tasks.into() read_at=Signal::from(read_at) /> });
    leptos::task::tick().await;
    assert_eq!(all_text(&host, "thead th")[6], "Ran for");
    assert_eq!(
        all_text(&host, "tbody td.ran"),
        ["1 min 5 s", "1 h 1 min", "—"]
    );
    read_at.set(1_700_007_270_000.0);
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "tbody td.ran"),
        ["2 h 0 min", "1 h 1 min", "—"]
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(all_text(&host, "thead th")[6], "运行时长");
    back_to_english(&host).await;
}

/// SPEC.md section 7 and the seeds' 监控和容错详情: the task page says whether the task's
/// metrics are scraped and where, whether failed attempts are retried and how many
/// retries are used, and each attempt that ended in a retry with why (the exploratory
/// test found the monitoring only in the spec, and retries only as timeline rows).
#[wasm_bindgen_test]
async fn the_page_says_the_monitoring_and_each_retried_attempt() {
    let mut view = task("t-retried", TaskPhase::Running, TaskType::PyTorchJob);
    let spec = &mut view.task.spec;
    spec.advanced.monitoring.enabled = true;
    spec.advanced.monitoring.port = 9090;
    spec.advanced.monitoring.path = "/metrics".into();
    spec.advanced.fault_tolerance.enabled = true;
    spec.advanced.fault_tolerance.max_retries = 3;
    let step = |phase, at: i64| PhaseChange {
        phase,
        at: Timestamp(at),
        reason: String::new(),
        keyed: None,
    };
    // Attempt 1 failed while it ran (a step into retrying); attempt 2 failed before its
    // replicas ran, while scheduling, which the lifecycle takes back to queued with no
    // such step; attempt 3 runs. Both retries have their event, as the server writes it.
    view.task.history.extend([
        step(TaskPhase::Retrying, 1_700_000_100_000),
        step(TaskPhase::Queued, 1_700_000_100_001),
        step(TaskPhase::Scheduling, 1_700_000_110_000),
        step(TaskPhase::Queued, 1_700_000_200_000),
        step(TaskPhase::Scheduling, 1_700_000_205_000),
        step(TaskPhase::Running, 1_700_000_210_000),
    ]);
    view.task.attempts = 3;
    // As the server counts them from that history (`Task::runs_again`).
    view.retries_used = 2;
    let event = |at: i64, message: &str| shared::api::TaskEventView {
        at: Timestamp(at),
        kind: "retrying".into(),
        message: message.into(),
    };
    let events = RwSignal::new(EventPage {
        events: vec![
            event(
                1_700_000_100_000,
                "attempt 1 failed (exit code 3 from worker-1); retry 1 of 3",
            ),
            event(
                1_700_000_200_000,
                "attempt 2 failed (cannot start: no such image); retry 2 of 3",
            ),
        ],
        earlier: 0,
    });
    let shown = RwSignal::new(view);
    let host = mount(move || view! { <Resilience view=shown.into() retries=events /> });
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "[data-testid='monitoring']"),
        ["On: metrics at port 9090, path /metrics, scraped while the task runs"]
    );
    assert_eq!(
        all_text(&host, "[data-testid='fault-tolerance']"),
        ["On: up to 3 retries, 2 used"]
    );
    let retries = all_text(&host, "[data-testid='retries'] li");
    assert_eq!(retries.len(), 2, "{retries:?}");
    assert!(
        retries[0].ends_with(": attempt 1 failed (exit code 3 from worker-1); retry 1 of 3"),
        "{retries:?}"
    );
    assert!(
        retries[1].ends_with(": attempt 2 failed (cannot start: no such image); retry 2 of 3"),
        "{retries:?}"
    );
    // 中文, in the seeds' words.
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(all_text(&host, "h2"), ["监控和容错详情"]);
    assert_eq!(
        all_text(&host, "[data-testid='fault-tolerance']"),
        ["已开启：最多重试 3 次，已用 2 次"]
    );
    back_to_english(&host).await;
    // Attempt 3 failed too: its retry, counted from when it is asked for, is said to
    // wait, or a stop in its wait reads as a count that went down (quota explorer).
    shown.update(|v| {
        v.task.phase = TaskPhase::Retrying;
        v.task
            .history
            .push(step(TaskPhase::Retrying, 1_700_000_300_000));
        v.retries_used = 3;
    });
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "[data-testid='fault-tolerance']"),
        ["On: up to 3 retries, 3 used (the last waits to run)"]
    );
    shown.update(|v| {
        v.task.phase = TaskPhase::Running;
        v.task.history.pop();
        v.retries_used = 2;
    });
    // Stopped while it waited for its second retry: that retry never ran, so it was
    // not used (explorer: "2 used" beside Attempts 2).
    shown.update(|v| {
        v.task.phase = TaskPhase::Stopped;
        v.task.attempts = 2;
        v.retries_used = 1;
        v.last_never_ran = true;
    });
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "[data-testid='fault-tolerance']"),
        ["On: up to 3 retries, 1 used"]
    );
    // And the list says which of its two never ran (recheck: two rows, "1 used").
    let retries = all_text(&host, "[data-testid='retries'] li");
    assert!(
        !retries[0].contains("never ran")
            && retries[1].ends_with("retry 2 of 3 (it never ran: the task ended first)"),
        "{retries:?}"
    );
    // Neither on, and no retry: said off, and no list.
    shown.update(|v| {
        v.task.spec.advanced.monitoring.enabled = false;
        v.task.spec.advanced.fault_tolerance.enabled = false;
    });
    events.set(EventPage::default());
    leptos::task::tick().await;
    assert_eq!(all_text(&host, "[data-testid='monitoring']"), ["Off"]);
    assert_eq!(all_text(&host, "[data-testid='fault-tolerance']"), ["Off"]);
    assert!(
        host.query_selector("[data-testid='retries']")
            .unwrap()
            .is_none()
    );
}

/// A task retried many times lists its latest retries, numbered as they are among all,
/// and all of them on asking: sixty made the panel sixty lines long (explorer, round 10).
/// The page asks the server for those it lists alone (README, Known gaps: it fetched
/// every event at each poll to find them): the latest five and how many came before,
/// then every retry, and only them, at each poll after.
#[wasm_bindgen_test]
async fn many_retries_are_listed_latest_first_and_all_on_asking() {
    use frontend::pages::task_detail::RETRIES_SHOWN;
    let address = fresh_page();
    let mut view = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    view.task.spec.advanced.fault_tolerance.enabled = true;
    view.task.spec.advanced.fault_tolerance.max_retries = 60;
    view.task.attempts = 13;
    view.retries_used = 12;
    let retries = |from: i64, to: i64| {
        events_json(from..=to, "retrying", 60_000, |n| {
            format!("retry {n} of 60")
        })
    };
    assert_eq!(RETRIES_SHOWN, 5);
    let (host, handle) = mount_detail_page_with(&view, ("[]", 0), (&retries(8, 12), 7)).await;
    until_found(&host, "the retries", "[data-testid='retries'] li").await;
    let retried = all_text(&host, "[data-testid='retries'] li");
    assert_eq!(retried.len(), 5, "{retried:?}");
    assert!(retried[0].ends_with("retry 8 of 60"), "{retried:?}");
    assert!(retried[4].ends_with("retry 12 of 60"), "{retried:?}");
    let list = find(&host, "[data-testid='retries']");
    assert_eq!(list.get_attribute("start").as_deref(), Some("8"));
    assert_eq!(
        all_text(&host, "[data-testid='fault-tolerance']"),
        ["On: up to 60 retries, 12 used"]
    );
    let all = find(&host, "[data-testid='retries-all']");
    assert_eq!(
        all.text_content().as_deref(),
        Some("Show all 12 attempts run again")
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(
        find(&host, "[data-testid='retries-all']")
            .text_content()
            .as_deref(),
        Some("显示全部 12 条重新运行记录")
    );
    back_to_english(&host).await;
    let all = find(&host, "[data-testid='retries-all']");
    all.focus().unwrap();
    all.click();
    answer_events_when_asked("lang=en&kind=retrying", &retries(1, 12), 0).await;
    until("every retry", || {
        all_text(&host, "[data-testid='retries'] li").len() == 12
    })
    .await;
    let retried = all_text(&host, "[data-testid='retries'] li");
    assert!(retried[0].ends_with("retry 1 of 60"), "{retried:?}");
    assert_eq!(
        find(&host, "[data-testid='retries']")
            .get_attribute("start")
            .as_deref(),
        Some("1")
    );
    assert!(
        host.query_selector("[data-testid='retries-all']")
            .unwrap()
            .is_none()
    );
    crate::after_paint().await;
    let active = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element();
    assert_eq!(
        active
            .and_then(|a| a.get_attribute("data-testid"))
            .as_deref(),
        Some("retries"),
        "the focus goes to the list, not the page's body"
    );
    // A refresh that brings nothing new draws nothing anew: the focus stays on the list
    // (explorer, round 13: every poll drew the panel again and dropped it to the body).
    let task_json = serde_json::to_string(&view).unwrap();
    answer_refresh(&task_json).await;
    answer_events_when_asked(&latest_events("en"), "[]", 0).await;
    answer_events_when_asked("lang=en&kind=retrying", &retries(1, 12), 0).await;
    crate::after_paint().await;
    assert_eq!(
        web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .active_element()
            .and_then(|a| a.get_attribute("data-testid"))
            .as_deref(),
        Some("retries"),
        "a refresh with nothing new keeps the focus where it was"
    );
    // The next refresh asks for every retry again, and for no other event but the
    // latest page.
    until("the task asked for again", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("tasks/t1?lang=en"))
    })
    .await;
    // Its 13th retry asked: the server counts it while it waits.
    let mut asked = view.clone();
    asked.retries_used = 13;
    answer_fetch("tasks/t1?lang=en", &serde_json::to_string(&asked).unwrap());
    answer_events_when_asked(&latest_events("en"), "[]", 0).await;
    answer_events_when_asked("lang=en&kind=retrying", &retries(1, 13), 0).await;
    until("the new retry", || {
        all_text(&host, "[data-testid='retries'] li").len() == 13
    })
    .await;
    assert_eq!(
        all_text(&host, "[data-testid='fault-tolerance']"),
        ["On: up to 60 retries, 13 used"]
    );
    finish(handle, &host, &address);
}

/// In a narrow window (the exploratory test's 400 px) a task's name and its time read
/// whole, each on one line, and the table scrolls sideways in its own box: a name broken
/// at each hyphen took four lines.
#[wasm_bindgen_test]
async fn a_narrow_table_keeps_each_name_and_time_on_one_line() {
    let style = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .create_element("style")
        .unwrap();
    style.set_text_content(Some(concat!(
        include_str!("../../../public/berth.css"),
        include_str!("../../../public/pages.css")
    )));
    let head = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .head()
        .unwrap();
    head.append_child(&style).unwrap();
    let tasks = RwSignal::new(vec![task(
        "day-ray-en-rfsqq-llama-finetune",
        TaskPhase::Running,
        TaskType::RayJob,
    )]);
    let host = mount(move || view! { <TaskTable tasks=tasks.into() /> });
    host.style().set_property("width", "368px").unwrap();
    leptos::task::tick().await;
    let lines = |css: &str| {
        let range = web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .create_range()
            .unwrap();
        range.select_node_contents(&find(&host, css)).unwrap();
        // Lines, not boxes: the name is two spans (its stem and its suffix) on one line.
        let rects = range.get_client_rects().unwrap();
        let mut tops: Vec<i64> = (0..rects.length())
            .filter_map(|i| rects.get(i))
            .map(|r| r.top().round() as i64)
            .collect();
        tops.dedup();
        tops.len()
    };
    let scroller = find(&host, ".table-scroll");
    // A region of its own name, not the list page's "Training tasks" a second time
    // (screen-reader explorer).
    assert_eq!(
        scroller.get_attribute("aria-label").as_deref(),
        Some("Task table")
    );
    let overflowed = scroller.scroll_width() > scroller.client_width();
    let (name, when) = (lines("tbody th a"), lines("tbody td.when"));
    assert!(overflowed, "the table scrolls in its box");
    assert_eq!(name, 1, "the name on one line");
    assert_eq!(when, 1, "the time on one line");
    // At a laptop's width, the longest name wraps at its hyphens, its suffix whole, and
    // the table fits its box: Ran for and Tags in view (recheck explorer, 1280 px).
    tasks.set(vec![
        task(
            "r1-bert-large-sweep-lr-0p0001-warmup-cosine-ab-x7k2q",
            TaskPhase::Running,
            TaskType::RayJob,
        ),
        task("t-waits-abcde", TaskPhase::Running, TaskType::RayJob),
        // Of no hyphens: broken where it must (recheck explorer: it alone pushed the
        // columns out of view).
        task(
            "bertlargepretrainingwithwholewordmaskingzhcorpus-dsqpt",
            TaskPhase::Running,
            TaskType::RayJob,
        ),
    ]);
    host.style().set_property("width", "1232px").unwrap();
    leptos::task::tick().await;
    crate::after_paint().await;
    let (scrolled, shown) = (scroller.scroll_width(), scroller.client_width());
    let (name, tail) = (lines("tbody th a"), lines("tbody th .tail"));
    let name_width = || find(&host, "tbody th").get_bounding_client_rect().width();
    let before = name_width();
    // The other row waits for its retry with a long reason, then runs again: the
    // columns stay as they are (recheck explorer: each retry's reason resized them, and
    // names rewrapped).
    let phase_of = |phase: TaskPhase, reason: Option<&str>| {
        tasks.update(|t| {
            let at = t[1].task.history.last().map_or(0, |c| c.at.0) + 60_000;
            t[1].task.phase = phase;
            t[1].task.history.push(PhaseChange {
                phase,
                at: Timestamp(at),
                reason: String::new(),
                keyed: None,
            });
            t[1].reason = reason.map(str::to_owned);
        });
    };
    phase_of(
        TaskPhase::Queued,
        Some(
            "waiting before its retry: the next attempt starts at 12/6/2026, 9:41:07 AM \
             GMT+8 at the earliest",
        ),
    );
    leptos::task::tick().await;
    crate::after_paint().await;
    let with_reason = name_width();
    phase_of(TaskPhase::Running, None);
    leptos::task::tick().await;
    crate::after_paint().await;
    let after = name_width();
    // In Chinese the row keeps its height as its reason comes and goes (recheck
    // explorer: a Chinese line stood 3 px taller than the empty line kept in its place).
    let row_height = || {
        find(&host, "tbody tr:nth-child(2)")
            .get_bounding_client_rect()
            .height()
    };
    find(&host, "[data-testid='lang-zh']").click();
    phase_of(
        TaskPhase::Queued,
        Some("重试前等待中：下次运行最早于 2026/12/6 09:41:07 GMT+8 开始"),
    );
    leptos::task::tick().await;
    crate::after_paint().await;
    let waiting_height = row_height();
    phase_of(TaskPhase::Running, None);
    leptos::task::tick().await;
    crate::after_paint().await;
    let running_height = row_height();
    back_to_english(&host).await;
    head.remove_child(&style).unwrap();
    assert_eq!(
        waiting_height, running_height,
        "the row's height in Chinese"
    );
    assert!(scrolled <= shown, "{scrolled} > {shown}");
    assert!(name > 1, "the long name wraps");
    assert_eq!(tail, 1, "its suffix whole");
    assert_eq!(
        (with_reason, after),
        (before, before),
        "the name column stays"
    );
}

/// On a phone a row that left the list keeps its height as it says so and how its task
/// is now: wrapped in the narrow phase column the note took six lines, and moved every
/// row below it twice (phone recheck). Whole on hover.
#[wasm_bindgen_test]
async fn a_row_that_left_keeps_its_height_on_a_phone() {
    let address = fresh_page();
    let (host, frame) = framed_host(390);
    let tasks = RwSignal::new(vec![
        task("short-aaaaa", TaskPhase::Running, TaskType::PyTorchJob),
        task("short-bbbbb", TaskPhase::Running, TaskType::PyTorchJob),
    ]);
    let left = RwSignal::new(Vec::<String>::new());
    let left_now = RwSignal::new(Vec::<frontend::pages::task_list::LeftNow>::new());
    let handle = leptos::mount::mount_to(host.clone(), move || {
        let lang = UiLang::provide();
        lang.set(Lang::Zh);
        Nav::provide();
        view! { <TaskTable tasks=tasks.into() left=Signal::from(left) left_now=Signal::from(left_now) /> }
    });
    leptos::task::tick().await;
    crate::after_paint().await;
    let height = || {
        find(&host, "tbody tr:nth-child(1)")
            .get_bounding_client_rect()
            .height()
    };
    let before = height();
    left.set(vec!["short-aaaaa".into()]);
    leptos::task::tick().await;
    crate::after_paint().await;
    let leaving = height();
    left_now.set(vec![("short-aaaaa".into(), Some(TaskPhase::Stopped))]);
    leptos::task::tick().await;
    crate::after_paint().await;
    let now = height();
    let note = find(&host, "[data-testid='row-left']");
    let (text, title) = (
        note.text_content().unwrap_or_default(),
        note.get_attribute("title"),
    );
    drop(handle);
    frame.remove();
    restore_address(&address);
    assert_eq!(text, "已不在此列表中，当前状态：已停止");
    assert_eq!(title.as_deref(), Some(text.as_str()));
    assert_eq!((leaving, now), (before, before));
}

/// On a phone (320 px) a long name is whole, wrapped within half the window, its random
/// suffix whole: two rows read `llama-ft-zoom150…` (narrow-screen explorer), and cut before
/// the suffix, a sweep's runs read alike, the part their owner chose cut off (phone
/// explorer). The phase comes next, in view beside the name, not off screen after the
/// type.
#[wasm_bindgen_test]
async fn a_phone_sees_each_names_suffix_and_its_phase() {
    let address = fresh_page();
    let (host, frame) = framed_host(320);
    let tasks = RwSignal::new(vec![
        task(
            "llama-finetune-zoom150-lr3e4-km7x2",
            TaskPhase::Running,
            TaskType::PyTorchJob,
        ),
        task(
            "llama-finetune-zoom150-lr3e4-n68pq",
            TaskPhase::Stopped,
            TaskType::PyTorchJob,
        ),
    ]);
    let handle = leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! { <TaskTable tasks=tasks.into() /> }
    });
    leptos::task::tick().await;
    crate::after_paint().await;
    let rect = |css: &str| find(&host, css).get_bounding_client_rect();
    let mut seen = Vec::new();
    for row in 1..=2 {
        let at = |part: &str| rect(&format!("tbody tr:nth-child({row}) {part}"));
        let (cell, tail, name) = (at("th"), at("th .tail"), at("th a"));
        let cut = {
            let cell = find(&host, &format!("tbody tr:nth-child({row}) th"));
            cell.scroll_width() > cell.client_width()
        };
        seen.push((
            find(&host, &format!("tbody tr:nth-child({row}) th .tail"))
                .text_content()
                .unwrap_or_default(),
            tail.right() <= cell.right() + 0.5,
            tail.height() < 1.5 * 16.0 * 1.4,
            // Whole: nothing of it hidden, on more than one line.
            !cut && name.height() > tail.height() * 1.5,
        ));
    }
    let scroller = rect(".table-scroll");
    let phase = rect("tbody tr:nth-child(1) .phase");
    let phase_text = all_text(&host, "tbody .phase");
    drop(handle);
    frame.remove();
    restore_address(&address);
    assert_eq!(
        seen,
        [
            ("-km7x2".to_owned(), true, true, true),
            ("-n68pq".to_owned(), true, true, true)
        ],
        "(suffix, in its cell, on one line, the name whole on several)"
    );
    assert_eq!(phase_text, ["Running", "Stopped"]);
    assert!(
        phase.right() <= scroller.right() + 0.5,
        "the phase is in view: it ends at {}, the table's box at {}",
        phase.right(),
        scroller.right()
    );
}

#[wasm_bindgen_test]
async fn a_refresh_keeps_the_rows_that_did_not_change() {
    let tasks = RwSignal::new(vec![
        task("a-00001", TaskPhase::Running, TaskType::PyTorchJob),
        task("b-00002", TaskPhase::Queued, TaskType::PyTorchJob),
    ]);
    let host = mount(move || view! { <TaskTable tasks=tasks.into() /> });
    leptos::task::tick().await;
    let first_row = find(&host, "tr[data-id='a-00001']");
    // The second task starts: only its row changes.
    tasks.update(|t| {
        t[1].task.phase = TaskPhase::Running;
        t[1].task.updated_at = Timestamp(1_700_000_090_000);
    });
    leptos::task::tick().await;
    let after = find(&host, "tr[data-id='a-00001']");
    assert!(
        first_row.is_same_node(Some(&after)),
        "an unchanged row was rebuilt"
    );
    assert_eq!(all_text(&host, "tbody .phase"), ["Running", "Running"]);
}

/// README (`/tasks`): a task whose stop is under way runs on until its replicas have
/// ended; its row's phase reads Stopping (停止中, the task page's word) from the answer
/// that says so (`stopping_since`), not Running, though nothing else of the task changed.
/// Its row stays among the running ones: the phase filter is the server's.
#[wasm_bindgen_test]
async fn a_row_whose_stop_is_under_way_reads_stopping() {
    let tasks = RwSignal::new(vec![
        task("a-00001", TaskPhase::Running, TaskType::PyTorchJob),
        task("b-00002", TaskPhase::Running, TaskType::PyTorchJob),
    ]);
    let host = mount(move || view! { <TaskTable tasks=tasks.into() /> });
    leptos::task::tick().await;
    assert_eq!(all_text(&host, "tbody .phase"), ["Running", "Running"]);
    // The next refresh: a stop of the second was asked; its record is as it was.
    tasks.update(|t| t[1].stopping_since = Some(Timestamp(1_700_000_080_000)));
    leptos::task::tick().await;
    assert_eq!(all_text(&host, "tbody .phase"), ["Running", "Stopping"]);
    let row = find(&host, "tr[data-id='b-00002']");
    assert_eq!(row.get_attribute("data-phase").as_deref(), Some("running"));
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(all_text(&host, "tbody .phase"), ["运行中", "停止中"]);
    back_to_english(&host).await;
    // It has stopped.
    tasks.update(|t| {
        t[1].task.phase = TaskPhase::Stopped;
        t[1].task.updated_at = Timestamp(1_700_000_095_000);
        t[1].stopping_since = None;
    });
    leptos::task::tick().await;
    assert_eq!(all_text(&host, "tbody .phase"), ["Running", "Stopped"]);
}

/// Under a dark colour scheme the list and a task's page are drawn dark, and every text
/// on them, phases, reasons, banners and buttons included, stands at 4.5:1 or more
/// against what it is drawn on (low-vision explorer: drawn light under a dark scheme).
#[wasm_bindgen_test]
async fn a_dark_scheme_draws_the_list_and_a_task_dark_and_legible() {
    let address = fresh_page();
    let style = crate::dark_style();
    let mut rows = Vec::new();
    for (n, phase) in [
        TaskPhase::Queued,
        TaskPhase::Running,
        TaskPhase::Retrying,
        TaskPhase::Succeeded,
        TaskPhase::Failed,
        TaskPhase::Stopped,
    ]
    .into_iter()
    .enumerate()
    {
        let mut row = task(&format!("t{n}"), phase, TaskType::PyTorchJob);
        row.reason = Some("waits for 2 nodes of h100-1g".into());
        row.tags = vec![shared::task::Tag {
            key: "team".into(),
            value: "nlp".into(),
        }];
        rows.push(row);
    }
    let tasks = RwSignal::new(rows);
    let list = mount(move || {
        let stop = ("alice".to_owned(), Callback::new(|_: String| {}));
        view! { <TaskTable tasks=tasks.into() stop /> }
    });
    leptos::task::tick().await;
    crate::after_paint().await;
    let in_list = crate::low_contrast(&list, 4.5);
    let table = web_sys::window()
        .unwrap()
        .get_computed_style(&find(&list, "table.tasks"))
        .unwrap()
        .unwrap()
        .get_property_value("background-color")
        .unwrap();
    list.remove();
    let mut failed = task("t1", TaskPhase::Failed, TaskType::PyTorchJob);
    failed.reason = Some("worker 0 exited with code 1".into());
    let (host, handle) = mount_detail_page_with(&failed, ("[]", 0), ("[]", 0)).await;
    crate::after_paint().await;
    let on_page = crate::low_contrast(&host, 4.5);
    let texts = all_text(&host, "button").len();
    finish(handle, &host, &address);
    style.remove();
    assert_eq!(table, "rgb(24, 32, 42)");
    assert_eq!(in_list, Vec::<String>::new());
    assert!(texts > 3, "buttons to read: {texts}");
    assert_eq!(on_page, Vec::<String>::new());
}

/// What the page shows before the console starts, its loading line and the failure
/// that replaces it, and a pressed chip's count kept while new counts come, stand at
/// 4.5:1 or more under the dark scheme too (night explorer: 2.5:1, 2.3:1 and 4.3:1).
#[wasm_bindgen_test]
async fn a_dark_scheme_keeps_the_loading_line_and_a_pressed_chips_old_count_legible() {
    let style = crate::dark_style();
    let page = include_str!("../../index.html");
    let start = page
        .find("<p id=\"berth-loading\"")
        .expect("the loading line");
    let end = start + page[start..].find("</p>").expect("its end") + 4;
    let document = web_sys::window().unwrap().document().unwrap();
    let host = document.create_element("div").unwrap();
    host.set_attribute("style", "background: var(--bg)")
        .unwrap();
    host.set_inner_html(&format!(
        "{}<button class=\"chip\" aria-pressed=\"true\">All <span class=\"count stale\">6</span></button>\
         <div class=\"lang-switch\"><button class=\"active\">English</button></div>",
        &page[start..end]
    ));
    document.body().unwrap().append_child(&host).unwrap();
    // The language chosen is not a white block, the brightest thing of the page at night.
    let chosen = web_sys::window()
        .unwrap()
        .get_computed_style(
            &host
                .query_selector(".lang-switch .active")
                .unwrap()
                .unwrap(),
        )
        .unwrap()
        .unwrap()
        .get_property_value("background-color")
        .unwrap();
    assert_eq!(chosen, "rgb(15, 20, 26)");
    let loading = crate::low_contrast(&host, 4.5);
    host.first_element_child()
        .unwrap()
        .set_attribute("role", "alert")
        .unwrap();
    let failed = crate::low_contrast(&host, 4.5);
    host.remove();
    style.remove();
    assert_eq!(loading, Vec::<String>::new());
    assert_eq!(failed, Vec::<String>::new());
}

/// On a phone the filter boxes fold behind one button, which counts and names those in
/// use, with their values (low-vision recheck: a count alone): open,
/// they filled the first screen (phone explorer). So do they in a short window, a laptop
/// at 200 % (640 × 400 CSS px: low-vision recheck, no row on the first screen). Pressed,
/// it shows them; on a laptop they are always there and the button is not.
#[wasm_bindgen_test]
async fn a_phone_folds_the_filters_behind_one_button() {
    let address = fresh_page();
    let mut seen = Vec::new();
    for (width, height) in [(390, 600), (640, 400), (1366, 600)] {
        let (host, frame) = framed_host(width);
        frame
            .set_attribute(
                "style",
                &format!("width: {width}px; height: {height}px; border: 0"),
            )
            .unwrap();
        let filter = RwSignal::new(ListFilter {
            name: "llama".into(),
            mine: true,
            ..Default::default()
        });
        let tag_refused = RwSignal::new(None);
        let handle = leptos::mount::mount_to(host.clone(), move || {
            UiLang::provide().set(Lang::En);
            Nav::provide();
            view! { <Filters filter session=demo_session() tag_refused /> }
        });
        leptos::task::tick().await;
        crate::after_paint().await;
        let shown = |test_id: &str| {
            find(&host, &format!("[data-testid='{test_id}']"))
                .get_bounding_client_rect()
                .height()
                > 0.0
        };
        let toggle = find(&host, "[data-testid='filters-toggle']");
        let before = (
            shown("filters-toggle"),
            shown("filter-name"),
            toggle.text_content().unwrap(),
        );
        toggle.unchecked_ref::<HtmlElement>().click();
        leptos::task::tick().await;
        crate::after_paint().await;
        let after = (shown("filter-name"), toggle.get_attribute("aria-expanded"));
        drop(handle);
        frame.remove();
        seen.push((width, before, after));
    }
    restore_address(&address);
    assert_eq!(
        seen,
        [
            (
                390,
                (
                    true,
                    false,
                    "Filters (2 on): Name contains: llama; Whose: Mine".to_owned()
                ),
                (true, Some("true".to_owned()))
            ),
            (
                640,
                (
                    true,
                    false,
                    "Filters (2 on): Name contains: llama; Whose: Mine".to_owned()
                ),
                (true, Some("true".to_owned()))
            ),
            (
                1366,
                (
                    false,
                    true,
                    "Filters (2 on): Name contains: llama; Whose: Mine".to_owned()
                ),
                (true, Some("true".to_owned()))
            ),
        ]
    );
}

/// The name and tag filters apply once the user pauses typing, not only on Enter, and
/// not at every keystroke either; Enter or leaving the box applies at once.
#[wasm_bindgen_test]
async fn a_text_filter_applies_as_the_user_pauses_typing() {
    let filter = RwSignal::new(ListFilter::default());
    let tag_refused = RwSignal::new(None);
    let host = mount(move || view! { <Filters filter session=demo_session() tag_refused /> });
    leptos::task::tick().await;
    let name: web_sys::HtmlInputElement =
        find(&host, "[data-testid='filter-name']").unchecked_into();
    let event = |kind: &str| {
        web_sys::Event::new_with_event_init_dict(kind, &{
            let init = web_sys::EventInit::new();
            init.set_bubbles(true);
            init
        })
        .unwrap()
    };
    for text in ["b", "bu", "bulk"] {
        name.set_value(text);
        name.dispatch_event(&event("input")).unwrap();
    }
    leptos::task::tick().await;
    assert_eq!(filter.get_untracked().name, "", "not at every keystroke");
    sleep(700).await;
    assert_eq!(filter.get_untracked().name, "bulk");
    name.set_value("bulk0");
    name.dispatch_event(&event("input")).unwrap();
    name.dispatch_event(&event("change")).unwrap();
    leptos::task::tick().await;
    assert_eq!(
        filter.get_untracked().name,
        "bulk0",
        "Enter applies at once"
    );
    let tag: web_sys::HtmlInputElement = find(&host, "[data-testid='filter-tag']").unchecked_into();
    tag.set_value("team=nlp");
    tag.dispatch_event(&event("input")).unwrap();
    sleep(700).await;
    assert_eq!(filter.get_untracked().tag, "team=nlp");
    // An owner typed is someone else's tasks, not the reader's own.
    filter.update(|f| f.mine = true);
    let owner: web_sys::HtmlInputElement =
        find(&host, "[data-testid='filter-owner']").unchecked_into();
    owner.set_value("bob");
    owner.dispatch_event(&event("input")).unwrap();
    owner.dispatch_event(&event("change")).unwrap();
    leptos::task::tick().await;
    let now = filter.get_untracked();
    assert_eq!((now.owner.as_str(), now.mine), ("bob", false));
    // A chip pressed before the pause: both apply, and the box keeps what was typed.
    name.set_value("bulk1");
    name.dispatch_event(&event("input")).unwrap();
    filter.update(|f| f.phase = Some(TaskPhase::Failed));
    leptos::task::tick().await;
    assert_eq!(name.value(), "bulk1", "the box keeps what was typed");
    sleep(700).await;
    let now = filter.get_untracked();
    assert_eq!(
        (now.name.as_str(), now.phase),
        ("bulk1", Some(TaskPhase::Failed))
    );
    // Back before the pause: the filters it brings stand, the typing is dropped, from
    // the box too, whether Back changed the name or not.
    for back_to in ["bulk0", "bulk0"] {
        name.set_value("bulk2");
        name.dispatch_event(&event("input")).unwrap();
        filter.update(|f| f.name = back_to.into());
        web_sys::window()
            .unwrap()
            .dispatch_event(&web_sys::Event::new("popstate").unwrap())
            .unwrap();
        leptos::task::tick().await;
        assert_eq!(name.value(), back_to);
        sleep(700).await;
        assert_eq!(filter.get_untracked().name, back_to);
    }
}

/// A tag filter no tag could have is said at its box, in the console's language, and not
/// applied: the list keeps the filters it had (newcomer explorer: the server's English
/// refusal in a banner, then "no task matches" a filter never applied). Mended, it applies.
#[wasm_bindgen_test]
async fn a_tag_filter_no_tag_could_match_is_said_at_its_box_and_not_applied() {
    let filter = RwSignal::new(ListFilter::default());
    let tag_refused = RwSignal::new(None);
    let host = mount(move || view! { <Filters filter session=demo_session() tag_refused /> });
    leptos::task::tick().await;
    let tag: web_sys::HtmlInputElement = find(&host, "[data-testid='filter-tag']").unchecked_into();
    let said = || {
        find(&host, "[data-testid='filter-tag-refused']")
            .text_content()
            .unwrap_or_default()
    };
    assert_eq!(said(), "", "nothing to say before");
    assert_eq!(tag.get_attribute("aria-invalid"), None);
    assert_eq!(
        tag.get_attribute("aria-describedby").as_deref(),
        Some("filter-tag-refused")
    );
    let change = web_sys::Event::new_with_event_init_dict("change", &{
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        init
    })
    .unwrap();
    tag.set_value("team=bad value");
    tag.dispatch_event(&change).unwrap();
    leptos::task::tick().await;
    assert_eq!(filter.get_untracked().tag, "", "not applied");
    assert_eq!(tag.value(), "team=bad value", "the text stays to be mended");
    assert_eq!(tag.get_attribute("aria-invalid").as_deref(), Some("true"));
    let text = said();
    assert!(
        text.contains("No tag could match this filter")
            && text.contains("Its value: use at most 63"),
        "{text}"
    );
    // In Chinese, in the seeds' words for key and value.
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    let text = said();
    assert!(
        text.contains("没有标签能匹配此筛选") && text.contains("值："),
        "{text}"
    );
    back_to_english(&host).await;
    // Several tags are said to be several, not a value with a comma (sweep explorer);
    // a value with a blank is still one tag's.
    for several in [
        "project=bert, sweep=lr4",
        "sweep=lr1,project=bert",
        "a=1 b=2",
        "team，stage",
    ] {
        tag.set_value(several);
        tag.dispatch_event(&change).unwrap();
        leptos::task::tick().await;
        assert_eq!(
            said(),
            "error\u{a0}The list filters by one tag at a time (key, or key=value), so it does not apply this filter: keep one tag.",
            "{several}"
        );
        assert_eq!(filter.get_untracked().tag, "", "not applied");
    }
    tag.set_value("team=bad value");
    tag.dispatch_event(&change).unwrap();
    leptos::task::tick().await;
    assert!(said().contains("Its value: use at most 63"), "{}", said());
    tag.set_value("=nlp");
    tag.dispatch_event(&change).unwrap();
    leptos::task::tick().await;
    assert!(said().contains("Its key: is required"), "{}", said());
    tag.set_value("team = nlp");
    tag.dispatch_event(&change).unwrap();
    leptos::task::tick().await;
    assert_eq!(
        filter.get_untracked().tag,
        "team = nlp",
        "mended, it applies"
    );
    assert_eq!(said(), "");
    assert_eq!(tag.get_attribute("aria-invalid"), None);
    // Refused over a tag applied before: the list is filtered by no tag, as said, and
    // the box keeps the text refused (review).
    tag.set_value("team=bad value");
    tag.dispatch_event(&change).unwrap();
    leptos::task::tick().await;
    assert_eq!(filter.get_untracked().tag, "");
    until("the box's text as refused", || {
        tag.value() == "team=bad value"
    })
    .await;
    assert!(said().contains("does not apply it"), "{}", said());
}

/// The list filtered to the tasks made from one (its page's "and more") says so in the
/// filter bar, naming that task as a link, with a way to remove the filter alone.
#[wasm_bindgen_test]
async fn the_tasks_made_from_one_are_a_filter_said_in_the_bar() {
    let filter = RwSignal::new(ListFilter {
        made_from: "ok-run-csqdv".into(),
        tag: "team".into(),
        ..ListFilter::default()
    });
    let tag_refused = RwSignal::new(None);
    let host = mount(move || view! { <Filters filter session=demo_session() tag_refused /> });
    leptos::task::tick().await;
    let said = find(&host, "[data-testid='filter-made-from']")
        .text_content()
        .unwrap();
    assert!(
        said.starts_with("Resubmitted or cloned from ok-run-csqdv"),
        "{said}"
    );
    assert_eq!(
        find(&host, "[data-testid='filter-made-from-task']")
            .get_attribute("href")
            .as_deref(),
        Some("/tasks/ok-run-csqdv")
    );
    let remove = find(&host, "[data-testid='filter-made-from-remove']");
    remove.focus().unwrap();
    remove.click();
    leptos::task::tick().await;
    assert_eq!(filter.get_untracked().made_from, "");
    // The button went with the filter: the keyboard goes on in the bar (review).
    until("the focus in the bar", || {
        focused_test_id().as_deref() == Some("filter-clear")
    })
    .await;
    assert_eq!(filter.get_untracked().tag, "team", "the other filters stay");
    assert!(
        host.query_selector("[data-testid='filter-made-from']")
            .unwrap()
            .is_none()
    );
}

#[wasm_bindgen_test]
async fn a_phase_chip_filters_and_says_it_is_pressed() {
    let filter = RwSignal::new(ListFilter::default());
    let host = mount(move || view! { <PhaseChips filter /> });
    leptos::task::tick().await;
    let chips = all_text(&host, ".chip");
    assert_eq!(
        chips,
        [
            "All",
            "Active",
            "Queued",
            "Scheduling",
            "Running",
            "Retrying",
            "Succeeded",
            "Failed",
            "Stopped"
        ]
    );
    find(&host, ".chip[data-phase='succeeded']").click();
    leptos::task::tick().await;
    assert_eq!(filter.get_untracked().phase, Some(TaskPhase::Succeeded));
    assert_eq!(
        find(&host, ".chip[data-phase='succeeded']")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    assert_eq!(
        find(&host, ".chip[data-phase='all']")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("false")
    );
    // Active: the tasks not ended, a chip of its own (a sweep's runs still going).
    find(&host, ".chip[data-phase='active']").click();
    leptos::task::tick().await;
    assert_eq!(
        (filter.get_untracked().phase, filter.get_untracked().active),
        (None, true)
    );
    let pressed = |phase: &str| {
        find(&host, &format!(".chip[data-phase='{phase}']"))
            .get_attribute("aria-pressed")
            .unwrap()
    };
    assert_eq!(
        (pressed("active"), pressed("all"), pressed("succeeded")),
        ("true".into(), "false".into(), "false".into())
    );
    find(&host, ".chip[data-phase='running']").click();
    leptos::task::tick().await;
    assert_eq!(
        (filter.get_untracked().phase, filter.get_untracked().active),
        (Some(TaskPhase::Running), false)
    );
    find(&host, ".chip[data-phase='all']").click();
    leptos::task::tick().await;
    assert_eq!(filter.get_untracked(), ListFilter::default());
}

#[wasm_bindgen_test]
async fn the_timeline_lists_each_phase_in_order_with_its_reason() {
    let view = task("t-00001", TaskPhase::Succeeded, TaskType::PyTorchJob);
    let history = Signal::stored(view.task.history.clone());
    let host = mount(move || view! { <Timeline history zone="Asia/Shanghai" /> });
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "li .phase-name"),
        ["Queued", "Scheduling", "Succeeded"]
    );
    assert_eq!(
        all_text(&host, "li .why"),
        ["the largest free node has 4 GPUs; one replica needs 8"]
    );
    // In the task's time zone, named (SPEC.md section 2), whatever the browser's.
    for time in all_text(&host, "li time") {
        assert!(time.contains("GMT+8"), "{time}");
    }
    // How long each phase lasted, once the next began; the end has none (failure
    // explorer: the run's length was worked out by subtracting times).
    assert_eq!(all_text(&host, "li .took"), ["for 1 min 0 s", "for 10 s"]);
}

/// A duration in its two largest units, in either language.
#[wasm_bindgen_test]
fn durations_are_said_in_their_two_largest_units() {
    use frontend::pages::format_duration;
    let from = Timestamp(1_700_000_000_000);
    let after = |s: i64| Timestamp(from.0 + s * 1000 + 400);
    assert_eq!(format_duration(Lang::En, from, after(0)), "0 s");
    assert_eq!(format_duration(Lang::En, from, after(59)), "59 s");
    assert_eq!(format_duration(Lang::En, from, after(125)), "2 min 5 s");
    assert_eq!(
        format_duration(Lang::En, from, after(3 * 3600 + 7 * 60 + 9)),
        "3 h 7 min"
    );
    assert_eq!(
        format_duration(Lang::En, from, after(2 * 86_400 + 5 * 3600)),
        "2 d 5 h"
    );
    assert_eq!(format_duration(Lang::Zh, from, after(125)), "2 分 5 秒");
    assert_eq!(
        format_duration(Lang::Zh, from, after(3 * 3600 + 60)),
        "3 小时 1 分"
    );
    // A clock that went back says no time, not a negative one.
    assert_eq!(format_duration(Lang::En, after(5), from), "0 s");
}

/// The status detail says when the task ended, and before it has that it has not: the
/// row is there from the start, so nothing under it moves as the task ends.
#[wasm_bindgen_test]
async fn the_status_detail_says_when_the_task_ended() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Running).await;
    until_found(&host, "the status", "[data-testid='ended']").await;
    assert_eq!(
        find(&host, "[data-testid='ended']").text_content().unwrap(),
        "not yet"
    );
    finish(handle, &host, &address);
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Failed).await;
    until_found(&host, "the status", "[data-testid='ended']").await;
    let ended = find(&host, "[data-testid='ended']").text_content().unwrap();
    // The last step's time (70 s after the submit), in the task's zone.
    assert_eq!(
        ended,
        frontend::pages::format_task_time(Lang::En, Timestamp(1_700_000_070_000), "Asia/Shanghai")
    );
    finish(handle, &host, &address);
}

/// English dates are written as the browser's own English writes them: in en-GB or
/// en-IN, 12/6 reads as 12 June (zone explorer); a browser of another language gets the
/// console language's form, and Chinese is always zh-CN's.
#[wasm_bindgen_test]
fn dates_follow_the_browsers_locale_of_the_consoles_language() {
    use frontend::pages::format_task_time;
    // The browser's languages, first the one it calls its own.
    let set_languages = |tags: &[&str]| {
        let list = tags
            .iter()
            .map(|t| format!("'{t}'"))
            .collect::<Vec<_>>()
            .join(", ");
        js_sys::eval(&format!(
            "Object.defineProperty(navigator, 'language', {{ configurable: true, get: () => '{}' }}); \
             Object.defineProperty(navigator, 'languages', {{ configurable: true, get: () => [{list}] }})",
            tags[0]
        ))
        .unwrap();
    };
    // 6 December 2026, 14:35:38 UTC.
    let at = Timestamp(1_796_567_738_000);
    set_languages(&["en-GB"]);
    let gb = format_task_time(Lang::En, at, "UTC");
    // A French browser whose reader reads English too: that English's.
    set_languages(&["fr-FR", "en-GB"]);
    let fr_gb = format_task_time(Lang::En, at, "UTC");
    set_languages(&["en"]);
    let en = format_task_time(Lang::En, at, "UTC");
    // No English among them: the month by name, as no reader takes 12/6 for 12 June
    // (zone explorer's known gap: US dates in a French browser).
    set_languages(&["fr-FR"]);
    let fr = format_task_time(Lang::En, at, "UTC");
    // Chinese is zh-CN's whatever the browser's: zh-TW writes the zone in brackets, which
    // were left empty (recheck: "下午11:19:35 [] GMT+8").
    set_languages(&["zh-TW"]);
    let tw = format_task_time(Lang::Zh, at, "Asia/Taipei");
    js_sys::eval("delete navigator.language; delete navigator.languages").unwrap();
    assert_eq!(gb, "06/12/2026, 14:35:38 UTC");
    assert_eq!(fr_gb, gb);
    assert_eq!(en, "12/6/2026, 2:35:38 PM UTC");
    assert_eq!(
        fr, "Dec 6, 2026, 2:35:38 PM UTC",
        "English as the console speaks it, its month named"
    );
    assert_eq!(tw, "2026/12/6 22:35:38 GMT+8");
}

/// A task's times are in its own zone and say which; a zone the browser does not know
/// falls back to the browser's, named too, rather than failing the page.
#[wasm_bindgen_test]
fn a_tasks_time_is_shown_in_its_time_zone() {
    use frontend::pages::format_task_time;
    let epoch = Timestamp(0);
    let shanghai = format_task_time(Lang::En, epoch, "Asia/Shanghai");
    assert!(
        shanghai.contains("8:00:00") && shanghai.contains("GMT+8"),
        "{shanghai}"
    );
    let utc = format_task_time(Lang::En, epoch, "UTC");
    assert!(utc.contains("12:00:00") && utc.contains("UTC"), "{utc}");
    // The zone is named last in Chinese too, not between the date and the time.
    let zh = format_task_time(Lang::Zh, epoch, "Asia/Tokyo");
    assert!(zh.starts_with("1970/1/1 9:00:00"), "{zh}");
    assert!(zh.ends_with(" GMT+9"), "{zh}");
    assert_eq!(
        format_task_time(Lang::En, epoch, "Asia/Tokyo"),
        "1/1/1970, 9:00:00 AM GMT+9"
    );
    // The list's "updated" time is the browser's, and named too: beside the tasks'
    // own zones, a bare time would read as any of them.
    let updated = frontend::pages::format_time(Lang::En, epoch);
    assert!(
        updated.contains("12:00:00") && updated.contains("UTC"),
        "{updated}"
    );
    // The browser's zone, named: the test browser runs in UTC.
    let unknown = format_task_time(Lang::En, epoch, "Mars/Olympus");
    assert!(
        unknown.contains("12:00:00") && unknown.contains("UTC"),
        "{unknown}"
    );
}

/// Where the demo PyTorchJob runs on the demo catalog now.
fn demo_placement() -> Option<shared::Placement> {
    shared::place(
        &shared::demo::pytorch(),
        &shared::demo::catalog(),
        &shared::demo::usage(),
        &shared::demo::user(),
    )
    .expect("no overflow")
}

#[wasm_bindgen_test]
async fn the_status_detail_says_why_a_task_waits_and_where_it_runs() {
    let mut view = task("t-00002", TaskPhase::Queued, TaskType::PyTorchJob);
    view.reason = Some("the largest free node has 4 GPUs; one replica needs 8".into());
    view.placement = demo_placement();
    let expected_nodes = view
        .placement
        .as_ref()
        .map(|p| p.workers.len())
        .unwrap_or(0);
    let host = summary_of(view).await;
    assert_eq!(
        find(&host, "[data-testid='detail-phase']")
            .text_content()
            .unwrap(),
        "Queued"
    );
    assert!(
        find(&host, "[data-testid='reason']")
            .text_content()
            .unwrap()
            .contains("one replica needs 8")
    );
    assert!(expected_nodes > 0, "the demo plan places the example");
    assert_eq!(
        all_text(&host, "[data-testid='placement'] li").len(),
        expected_nodes
    );
}

/// A task held back for one passed over too often names it as a link to its page
/// (explorer: the name was plain text, to be copied into the address bar).
#[wasm_bindgen_test]
async fn a_task_waiting_behind_another_links_to_it() {
    let mut view = task("t-small", TaskPhase::Queued, TaskType::PyTorchJob);
    view.reason = Some(
        "waiting for big-abcde, ahead in the queue and passed over too often, to start first"
            .into(),
    );
    view.waits_behind = Some(TaskId("big-abcde".into()));
    let host = summary_of(view).await;
    let link = find(
        &host,
        "[data-testid='reason'] a[data-testid='waits-behind']",
    );
    assert_eq!(link.text_content().as_deref(), Some("big-abcde"));
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("/tasks/big-abcde")
    );
    assert_eq!(
        find(&host, "[data-testid='reason'] p")
            .text_content()
            .unwrap(),
        "waiting for big-abcde, ahead in the queue and passed over too often, to start first"
    );
}

/// A queued task's page says where it stands in its pool's queue, under why it waits,
/// as the server counts it: first, one ahead, several (the singular said as such).
#[wasm_bindgen_test]
async fn a_queued_task_says_how_many_wait_ahead_of_it() {
    for (ahead, said) in [
        (
            0,
            "First in its pool's queue (tasks that wait for capacity used outside Berth are not counted).",
        ),
        (
            1,
            "1 task waits ahead of it in its pool's queue (by priority, then submit time).",
        ),
        (
            3,
            "3 tasks wait ahead of it in its pool's queue (by priority, then submit time).",
        ),
    ] {
        let mut view = task("t-queued", TaskPhase::Queued, TaskType::PyTorchJob);
        view.reason = Some("free nodes can host 1 of 2 replicas at once".into());
        view.queue_ahead = Some(ahead);
        let host = summary_of(view).await;
        assert_eq!(
            find(&host, "[data-testid='reason'] [data-testid='queue-ahead']")
                .text_content()
                .as_deref(),
            Some(said)
        );
    }
    // Not told (another server than the queue's): no line.
    let mut view = task("t-queued", TaskPhase::Queued, TaskType::PyTorchJob);
    view.reason = Some("free nodes can host 1 of 2 replicas at once".into());
    let host = summary_of(view).await;
    assert!(
        host.query_selector("[data-testid='queue-ahead']")
            .unwrap()
            .is_none()
    );
    assert!(
        host.query_selector("[data-testid='room-kept']")
            .unwrap()
            .is_none()
    );
}

/// A task the queue keeps room for, passed over too often, says so under why it waits,
/// in both languages (README's known gap: its own page did not).
#[wasm_bindgen_test]
async fn a_task_the_queue_keeps_room_for_says_so() {
    let mut view = task("t-gang", TaskPhase::Queued, TaskType::PyTorchJob);
    view.reason = Some("free nodes can host 15 of 16 replicas at once".into());
    view.queue_ahead = Some(0);
    view.room_kept = true;
    let host = summary_of(view).await;
    says_in_both(
        &host,
        || find(&host, "[data-testid='reason'] [data-testid='room-kept']").text_content().unwrap(),
        "The queue keeps room for it: passed over too often, it starts before tasks behind it in its pool take the nodes it can use.",
        "队列已为它保留资源：它被跳过的次数过多，在它启动前，同一资源池中排在它后面的任务不会占用它可用的节点。",
    )
    .await;
}

/// A task made by a resubmit or a clone names the task it came from, stored with it, so
/// its page after a reload names it too (explorer: it was said only on the page the
/// resubmit led to), as a link to that task's page.
#[wasm_bindgen_test]
async fn a_task_made_from_another_names_it_as_a_link() {
    for (how, label) in [
        (MadeHow::Resubmit, "Resubmitted from"),
        (MadeHow::Clone, "Cloned from"),
    ] {
        let mut view = task("t-new", TaskPhase::Queued, TaskType::PyTorchJob);
        view.made_from = Some(MadeFrom {
            task: TaskId("t-old".into()),
            how,
        });
        let host = summary_of(view).await;
        let link = find(&host, ".status-detail dd a[data-testid='made-from']");
        assert_eq!(link.text_content().as_deref(), Some("t-old"));
        assert_eq!(link.get_attribute("href").as_deref(), Some("/tasks/t-old"));
        let term = link
            .parent_element()
            .and_then(|dd| dd.previous_element_sibling())
            .and_then(|dt| dt.text_content());
        assert_eq!(term.as_deref(), Some(label));
    }
    // A task of its own spec names none.
    let host = summary_of(task("t-new", TaskPhase::Queued, TaskType::PyTorchJob)).await;
    assert!(
        host.query_selector("[data-testid='made-from']")
            .unwrap()
            .is_none()
    );
}

/// Task t1's page, ended, once it has asked for the tasks made from it.
async fn made_from_asked() -> (
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
) {
    let page = mount_detail_page_in(TaskPhase::Succeeded).await;
    until("the made-from request", || {
        held_fetches().iter().any(|u| u.contains("made_from=t1"))
    })
    .await;
    page
}

/// A task's page names the tasks made from it (resubmitted or cloned), each a link,
/// newest first as the server lists them, "and more" past the page read; in the
/// console's language; nothing when there are none (explorer: only the copies named
/// their original).
#[wasm_bindgen_test]
async fn a_task_names_the_tasks_made_from_it() {
    let address = fresh_page();
    let (host, handle) = made_from_asked().await;
    assert!(
        held_fetches()
            .iter()
            .any(|u| u.contains("/api/v1/tasks?made_from=t1&limit=10"))
    );
    answer_fetch("made_from=t1", &page_of(3, 5, Some("more")));
    until_found(&host, "the tasks made from it", "[data-testid='made-into']").await;
    let links = host
        .query_selector_all("[data-testid='made-into-task']")
        .unwrap();
    let hrefs: Vec<String> = (0..links.length())
        .filter_map(|i| links.item(i))
        .filter_map(|l| l.unchecked_into::<web_sys::Element>().get_attribute("href"))
        .collect();
    assert_eq!(hrefs, ["/tasks/t03", "/tasks/t04"]);
    // The rest are in the list, filtered to them (lineage explorer: "and more" led
    // nowhere).
    assert_eq!(
        find(&host, "[data-testid='made-into-all']")
            .get_attribute("href")
            .as_deref(),
        Some("/?made_from=t1")
    );
    let row = || {
        let made = find(&host, "[data-testid='made-into']");
        let term = made
            .parent_element()
            .and_then(|dd| dd.previous_element_sibling())
            .and_then(|dt| dt.text_content())
            .unwrap_or_default();
        (term, made.text_content().unwrap_or_default())
    };
    assert_eq!(
        row(),
        (
            "Resubmitted or cloned as".to_owned(),
            "t03, t04, and more".to_owned()
        )
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(
        row(),
        ("重提或克隆为".to_owned(), "t03、t04、更多".to_owned())
    );
    back_to_english(&host).await;
    finish(handle, &host, &address);

    let address = fresh_page();
    let (host, handle) = made_from_asked().await;
    // Refused (here a server fault): the row says they were not read, rather than
    // nothing (review: the empty case alone could not fail).
    refuse_fetch(
        "made_from=t1",
        500,
        r#"{"type": "about:blank", "title": "Internal Server Error", "status": 500,
            "code": "internal", "detail": "the task store failed"}"#,
    );
    until_found(&host, "the row said unread", "[data-testid='made-into']").await;
    assert_eq!(
        all_text(&host, "[data-testid='made-into']"),
        ["not read: reload the page to read them"]
    );
    finish(handle, &host, &address);

    // None made from it: no row, once the answer is read (the same wait as the refusal's).
    let address = fresh_page();
    let (host, handle) = made_from_asked().await;
    answer_fetch("made_from=t1", &page_of(0, 0, None));
    sleep(300).await;
    assert!(
        host.query_selector("[data-testid='made-into']")
            .unwrap()
            .is_none()
    );
    finish(handle, &host, &address);
}

/// Re-runs after a server stop are attempts, not retries (the server leaves them out of
/// what fault tolerance counts): the page counts them apart, in both places.
#[wasm_bindgen_test]
async fn re_runs_after_a_server_stop_are_attempts_not_retries() {
    let mut view = task("t-rerun", TaskPhase::Running, TaskType::PyTorchJob);
    view.task.spec.advanced.fault_tolerance.enabled = true;
    view.task.spec.advanced.fault_tolerance.max_retries = 1;
    let step = |phase, at: i64| PhaseChange {
        phase,
        at: Timestamp(at),
        reason: String::new(),
        keyed: None,
    };
    // Two restarts re-ran it, each a step into retrying with its event.
    for at in [1_700_000_100_000, 1_700_000_200_000] {
        view.task.history.extend([
            step(TaskPhase::Retrying, at),
            step(TaskPhase::Queued, at + 1),
            step(TaskPhase::Scheduling, at + 2),
            step(TaskPhase::Running, at + 3),
        ]);
    }
    view.task.attempts = 3;
    view.reruns = 2;
    let said = "the server stopped while it ran; re-running it (fault tolerance is on; this uses none of its retries)";
    let event = |at: i64| shared::api::TaskEventView {
        at: Timestamp(at),
        kind: "retrying".into(),
        message: said.into(),
    };
    let events = RwSignal::new(EventPage {
        events: vec![event(1_700_000_100_000), event(1_700_000_200_000)],
        earlier: 0,
    });
    let shown = Signal::stored(view);
    let host =
        mount(move || view! { <TaskSummary view=shown /><Resilience view=shown retries=events /> });
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "[data-testid='fault-tolerance']"),
        ["On: up to 1 retry, 0 used"]
    );
    let attempts = "3, of which 2 re-ran it after the server stopped";
    assert!(
        all_text(&host, "dd").iter().any(|d| d == attempts),
        "{:?}",
        all_text(&host, "dd")
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    let attempts = "3（其中 2 次为服务器停止后的重新运行）";
    assert!(
        all_text(&host, "dd").iter().any(|d| d == attempts),
        "{:?}",
        all_text(&host, "dd")
    );
    back_to_english(&host).await;
}

/// A phase the task reaches while its page is open is said to a screen reader, once;
/// the phase it had when the page opened is not (keyboard explorer: an end was not
/// heard).
#[wasm_bindgen_test]
async fn a_phase_reached_while_the_page_is_open_is_said() {
    let view = RwSignal::new(task("t1", TaskPhase::Running, TaskType::PyTorchJob));
    let host = mount(move || view! { <TaskSummary view=view.into() /> });
    leptos::task::tick().await;
    let said = || all_text(&host, "[role='status'][data-testid='phase-said']");
    assert_eq!(said(), [""]);
    view.update(|v| v.task.updated_at = Timestamp(1_700_000_080_000));
    leptos::task::tick().await;
    assert_eq!(said(), [""], "a poll that changes no phase says nothing");
    // Each change is said, back to a phase said before too.
    for (phase, words) in [
        (TaskPhase::Retrying, "Phase now: Retrying."),
        (TaskPhase::Running, "Phase now: Running."),
        (TaskPhase::Succeeded, "Phase now: Succeeded."),
    ] {
        view.update(|v| v.task.phase = phase);
        leptos::task::tick().await;
        assert_eq!(said(), [words]);
    }
    // A failure is said with why, as the page says it (screen-reader explorer: "Phase
    // now: Failed." and no more).
    view.update(|v| {
        v.task.phase = TaskPhase::Failed;
        v.task.history.push(PhaseChange {
            phase: TaskPhase::Failed,
            at: Timestamp(1_700_000_090_000),
            reason: "replica 0 (master) ended with exit code 3".into(),
            keyed: None,
        });
    });
    leptos::task::tick().await;
    assert_eq!(
        said(),
        ["Phase now: Failed: replica 0 (master) ended with exit code 3."]
    );
}

/// A retry waiting out its backoff says when it may start in the task's zone, as the
/// task's other times are (the browser's when it names none; the test browser runs in
/// UTC), in the reader's language, with the date when it is not today there (README,
/// Running tasks), not as the server words it for API readers.
#[wasm_bindgen_test]
async fn a_waiting_retry_says_when_it_starts_in_the_tasks_zone() {
    let mut view = task("t-00003", TaskPhase::Retrying, TaskType::PyTorchJob);
    view.reason = Some(
        "waiting before its retry: the next attempt starts at 2020-02-29 14:05:09 UTC at the earliest"
            .into(),
    );
    view.retry_at = Some(Timestamp(1_582_985_109_000)); // 2020-02-29T14:05:09Z
    let host = summary_of(view).await;
    let said = || {
        find(&host, "[data-testid='reason'] p")
            .text_content()
            .unwrap()
    };
    // The demo task's zone is Asia/Shanghai.
    says_in_both(&host, said, "waiting before its retry: the next attempt starts at 2/29/2020, 10:05:09 PM GMT+8 at the earliest", "重试前等待中：下次运行最早于 2020/2/29 22:05:09 GMT+8 开始").await;

    // Today's time of day alone; another day's with its date, also the next day's.
    use frontend::pages::format_time_from;
    let (at, evening, next_day) = (
        Timestamp(1_582_985_109_000),
        Timestamp(1_583_020_740_000), // 2020-02-29T23:59:00Z
        Timestamp(1_583_020_801_000), // 2020-03-01T00:00:01Z
    );
    assert_eq!(
        format_time_from(Lang::En, at, evening, ""),
        "2:05:09 PM UTC"
    );
    assert_eq!(format_time_from(Lang::Zh, at, evening, ""), "14:05:09 UTC");
    assert_eq!(
        format_time_from(Lang::En, at, next_day, ""),
        "2/29/2020, 2:05:09 PM UTC"
    );
    assert_eq!(
        format_time_from(Lang::En, next_day, at, ""),
        "3/1/2020, 12:00:01 AM UTC"
    );
    // In Shanghai's zone 23:59 UTC is the next morning: another day there.
    assert_eq!(
        format_time_from(Lang::En, at, evening, "Asia/Shanghai"),
        "2/29/2020, 10:05:09 PM GMT+8"
    );
    assert_eq!(
        format_time_from(Lang::Zh, at, Timestamp(1_582_980_000_000), "Asia/Shanghai"),
        "22:05:09 GMT+8"
    );
    // A zone the browser does not know: the browser's.
    assert_eq!(
        format_time_from(Lang::En, at, evening, "Mars/Olympus"),
        "2:05:09 PM UTC"
    );
}

#[wasm_bindgen_test]
async fn a_failed_tasks_status_detail_says_why_it_failed() {
    let mut view = task("t-00004", TaskPhase::Failed, TaskType::PyTorchJob);
    view.task.history.last_mut().unwrap().reason =
        "exit code 3 from worker-1 after 2 attempts".into();
    let host = summary_of(view.clone()).await;
    let said = find(&host, "[data-testid='failed-reason']");
    let text = said.text_content().unwrap();
    assert!(text.starts_with("Why it failed"), "{text}");
    assert!(text.contains("exit code 3 from worker-1"), "{text}");
    // Only the step that failed says why: a task that failed without a reason, or one
    // that runs again after a failed attempt, shows no such row.
    view.task.history.last_mut().unwrap().reason.clear();
    let host = summary_of(view.clone()).await;
    assert!(
        host.query_selector("[data-testid='failed-reason']")
            .unwrap()
            .is_none()
    );
    let mut retrying = task("t-00005", TaskPhase::Running, TaskType::PyTorchJob);
    retrying.task.history.insert(
        2,
        PhaseChange {
            phase: TaskPhase::Retrying,
            at: Timestamp(1_700_000_065_000),
            reason: "exit code 3".into(),
            keyed: None,
        },
    );
    let host = summary_of(retrying).await;
    assert!(
        host.query_selector("[data-testid='failed-reason']")
            .unwrap()
            .is_none()
    );
}

/// A failed task's reason leads down to its log, opened on the replica that failed it:
/// on a phone the log was five screens below it (phone explorer). The keyboard lands in
/// the box.
#[wasm_bindgen_test]
async fn a_failed_tasks_reason_leads_to_its_log() {
    let address = fresh_page();
    let mut failed = task("t1", TaskPhase::Failed, TaskType::PyTorchJob);
    failed.task.history.last_mut().unwrap().reason =
        "replica 1 (worker 0) ended with exit code 3".into();
    failed.failed_replica = Some(1);
    let (host, handle) = mount_detail_page_with(&failed, ("[]", 0), ("[]", 0)).await;
    until_found(&host, "the way to the log", "[data-testid='to-log']").await;
    // The reader looked at another replica's log first.
    let picker: web_sys::HtmlSelectElement =
        find(&host, "[data-testid='log-replica']").unchecked_into();
    let opened_on = picker.value();
    picker.set_value("0");
    picker
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    leptos::task::tick().await;
    let button = find(&host, "[data-testid='to-log']");
    let said = button.text_content().unwrap();
    button.click();
    leptos::task::tick().await;
    let back_on = picker.value();
    let focused = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element()
        .and_then(|a| a.get_attribute("data-testid"));
    finish(handle, &host, &address);
    assert_eq!(said, "Read its log");
    assert_eq!(focused.as_deref(), Some("log"));
    // Back on the replica that failed it (phone recheck: the picked one stayed).
    assert_eq!((opened_on.as_str(), back_on.as_str()), ("1", "1"));
}

/// A share link that opens no task (revoked, or cut short) is said as the link's fault,
/// in the reader's language, not as a task that is not theirs to see (console explorer).
#[wasm_bindgen_test]
async fn a_dead_share_link_says_the_link_opens_no_task() {
    let address = fresh_page();
    let host = mount(|| view! { <SharedTaskPage token="tok-gone".to_owned() /> });
    // Before the page's first ask, which waits for its effect to run.
    hold_fetches();
    // The page asks again in the reader's language: each ask is answered 404.
    let refuse = || async {
        until("the shared task's request", || {
            held_fetches()
                .iter()
                .any(|u| u.contains("/shared/tok-gone"))
        })
        .await;
        let body = serde_json::to_string(
            r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"no task","code":"task.not_found"}"#,
        )
        .unwrap();
        js_sys::eval(&format!(
            "window.__held.splice(0, 1)[0].resolve(new Response({body}, \
             {{ status: 404, headers: {{ 'content-type': 'application/problem+json' }} }}))"
        ))
        .unwrap();
        until_found(&host, "the refusal", "[data-testid='error']").await;
        find(&host, "[data-testid='error']").text_content().unwrap()
    };
    assert_eq!(
        refuse().await,
        "This link opens no task: it was revoked, its task was deleted, or it is not whole. Ask the task's owner for a new one."
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(
        refuse().await,
        "此分享链接无法打开任务：链接已被撤销、任务已被删除，或链接不完整。请向任务所有者索取新的链接。"
    );
    back_to_english(&host).await;
    release_fetches();
    host.remove();
    restore_address(&address);
}

#[wasm_bindgen_test]
async fn the_shared_view_is_read_only() {
    let mut view = task("t-00003", TaskPhase::Running, TaskType::PyTorchJob);
    view.task.spec = view.task.spec.masked();
    let groups = shared::demo::catalog().project_groups;
    let group = view.task.spec.basic.project_group.clone();
    let host = mount(move || view! { <SharedTask view=view.clone() groups=groups.clone() /> });
    leptos::task::tick().await;
    // The group by its catalog name, as on the task page (the explorer saw its id).
    let named = shared::demo::catalog()
        .project_groups
        .into_iter()
        .find(|g| g.id == group)
        .expect("the demo task's group is in the catalog")
        .name;
    assert_ne!(named, group);
    assert!(all_text(&host, "dd").contains(&named), "{named}");
    assert_eq!(
        find(&host, "[data-testid='shared-title']")
            .text_content()
            .unwrap(),
        "Shared task t-00003 (read-only) Running"
    );
    // With the phase, as the task's own page (low-vision recheck: at 320 CSS px the first
    // screen said nothing of the task's state).
    assert_eq!(
        web_sys::window().unwrap().document().unwrap().title(),
        "Shared task t-00003 (read-only): Running — Berth"
    );
    assert!(
        host.query_selector("[data-testid^='action-']")
            .unwrap()
            .is_none()
    );
    assert!(
        host.query_selector("input, textarea, select")
            .unwrap()
            .is_none()
    );
    // Focusable for scrolling, it is named by its heading.
    let named = find(&host, "[data-testid='spec-view']")
        .get_attribute("aria-labelledby")
        .unwrap();
    assert_eq!(
        find(&host, &format!("#{named}")).text_content().as_deref(),
        Some("Spec")
    );
    let spec = find(&host, "[data-testid='spec-view']")
        .text_content()
        .unwrap();
    assert!(spec.contains(shared::task::HIDDEN_VALUE_MASK));
    assert!(!spec.contains("hf_demo_secret"));
    // Said of every reader, the owner too (who may open their own link).
    assert!(
        all_text(&host, ".help")
            .iter()
            .any(|t| t.contains("its owner too"))
    );
    // As the form shows and exports a spec: YAML, which reads back as the same spec
    // (the mask quoted, as `*` would start a YAML alias).
    assert!(spec.starts_with("version: 1\nbasic:\n"), "{spec}");
    let back = frontend::form::transfer::from_text(&spec).expect("the YAML reads back");
    assert_eq!(
        back.environment
            .env
            .iter()
            .find(|e| e.hidden)
            .map(|e| e.value.as_str()),
        Some(shared::task::HIDDEN_VALUE_MASK)
    );
}

/// As the owner's page says it: an empty tags panel read as one that failed to load.
#[wasm_bindgen_test]
async fn a_shared_task_without_tags_says_so() {
    let mut view = task("t-00004", TaskPhase::Succeeded, TaskType::PyTorchJob);
    view.tags.clear();
    let host = mount(move || view! { <SharedTask view=view.clone() /> });
    leptos::task::tick().await;
    assert_eq!(all_text(&host, ".tags .empty"), ["No tags."]);
}

/// A share link's reader clones the task from its view: the form opens with a copy of
/// the shared spec, as the link shows it (its hidden values masked, to be typed again),
/// asked of the link, not of the task, which the reader may not read (sweep explorer: a
/// colleague could rerun a shared run only by copying its YAML by hand).
#[wasm_bindgen_test]
async fn a_shared_task_is_cloned_from_its_link() {
    assert_eq!(
        Route::parse("/new", "?shared=tok-1"),
        Route::CloneShared("tok-1".into())
    );
    assert_eq!(
        Route::CloneShared("tok-1".into()).href(),
        "/new?shared=tok-1"
    );
    let mut view = task("t-00006", TaskPhase::Failed, TaskType::PyTorchJob);
    view.task.spec.basic.name_prefix = "shared-src".into();
    let shown = view.clone();
    let host = mount(move || view! { <SharedTask view=shown.clone() token="tok-1".to_owned() /> });
    leptos::task::tick().await;
    let link = find(&host, "[data-testid='shared-clone']");
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("/new?shared=tok-1")
    );
    host.remove();

    let address = fresh_page();
    crate::forget_drafts();
    hold_fetches();
    let (host, handle, _) = mount_page_at(Route::CloneShared("tok-1".into()));
    until("the link's request", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("/api/v1/shared/tok-1"))
    })
    .await;
    assert!(
        !held_fetches().iter().any(|u| u.contains("t-00006")),
        "the task itself is not asked for: {:?}",
        held_fetches()
    );
    answer_fetch(
        "/api/v1/shared/tok-1",
        &serde_json::to_string(&view).unwrap(),
    );
    until("the cloned form", || {
        name_prefix(&host).is_some_and(|p| p.value() == "shared-src")
    })
    .await;
    finish(handle, &host, &address);
    crate::forget_drafts();
}

/// A share link's view shows the task's events and a replica's log, read through the
/// link, not through the task's own routes, which its reader may not read (sweep
/// explorer: a colleague sent the link could not read why the run failed).
#[wasm_bindgen_test]
async fn a_shared_view_shows_the_events_and_the_log_through_its_link() {
    let address = fresh_page();
    hold_fetches();
    let view = task("t-00008", TaskPhase::Failed, TaskType::PyTorchJob);
    // Not `mount`, which puts the real `fetch` back.
    let host = crate::new_host();
    leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! { <SharedTask view=view.clone() token="tok-3".to_owned() /> }
    })
    .forget();
    until("the events' request", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("/api/v1/shared/tok-3/events?"))
    })
    .await;
    answer_events(
        &latest_events("en"),
        &events_json(1..=2, "queued", 1_000, |n| format!("event {n}")),
        0,
    );
    until("the events", || {
        all_text(&host, "[data-testid='events'] li").len() == 2
    })
    .await;
    until("the log's request", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("/api/v1/shared/tok-3/logs?"))
    })
    .await;
    answer_log_end("hello from the run\n", 0);
    until("the log", || {
        find(&host, "[data-testid='log']")
            .text_content()
            .is_some_and(|t| t.contains("hello from the run"))
    })
    .await;
    assert!(
        !held_fetches().iter().any(|u| u.contains("/api/v1/tasks/")),
        "the task's own routes are not asked: {:?}",
        held_fetches()
    );
    // The link revoked while the view is open: a read through it is said as the link's
    // fault, as a link opened then says it, not as a task that does not exist.
    find(&host, "[data-testid='log-reload']").click();
    until("the log asked again", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("/api/v1/shared/tok-3/logs?"))
    })
    .await;
    refuse_fetch(
        "/api/v1/shared/tok-3/logs?",
        404,
        r#"{"type":"about:blank","title":"Not Found","status":404,"code":"task.not_found","detail":"no task (shared link)"}"#,
    );
    until("the link's failure", || {
        all_text(&host, "[data-testid='error']")
            .iter()
            .any(|t| t.contains("This link opens no task: it was revoked"))
    })
    .await;
    release_fetches();
    host.remove();
    restore_address(&address);
}

/// A share link's view follows its task, read again through the link as its own page
/// is: its phase, events and tags as they change; a link revoked meanwhile is said, and
/// what was shown stays (two colleagues debugging through a link saw Running long after
/// the run failed, until a reload).
#[wasm_bindgen_test]
async fn a_shared_view_follows_its_task_through_the_link() {
    let address = fresh_page();
    hold_fetches();
    let running = task("t-00009", TaskPhase::Running, TaskType::PyTorchJob);
    let shown = running.clone();
    // Not `mount`, which puts the real `fetch` back.
    let host = crate::new_host();
    leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! { <SharedTask view=shown.clone() token="tok-9".to_owned() /> }
    })
    .forget();
    answer_events_when_asked(
        &latest_events("en"),
        &events_json(1..=1, "queued", 1_000, |n| format!("event {n}")),
        0,
    )
    .await;
    until("the events", || {
        all_text(&host, "[data-testid='events'] li").len() == 1
    })
    .await;
    assert!(
        all_text(&host, "[data-testid='detail-phase']")
            .concat()
            .contains("Running")
    );
    // The poll, within its 2 s: the run failed meanwhile, and was tagged.
    until("the task read again through the link", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("/api/v1/shared/tok-9?"))
    })
    .await;
    let mut failed = running.clone();
    failed.task.phase = TaskPhase::Failed;
    failed.tags = vec![shared::task::Tag {
        key: "cause".into(),
        value: "oom".into(),
    }];
    answer_fetch(
        "/api/v1/shared/tok-9?",
        &serde_json::to_string(&failed).unwrap(),
    );
    answer_events_when_asked(
        &latest_events("en"),
        &events_json(1..=2, "queued", 1_000, |n| format!("event {n}")),
        0,
    )
    .await;
    until("the new phase", || {
        all_text(&host, "[data-testid='detail-phase']")
            .concat()
            .contains("Failed")
    })
    .await;
    until("the new event", || {
        all_text(&host, "[data-testid='events'] li").len() == 2
    })
    .await;
    assert_eq!(all_text(&host, "[data-testid='tags'] li"), ["cause=oom"]);
    assert!(
        host.query_selector("[data-testid='link-dead']")
            .unwrap()
            .is_none()
    );
    release_fetches();
    host.remove();
    restore_address(&address);
}

/// A share link revoked while its view is open is said at the next poll, over what it
/// showed, which stays.
#[wasm_bindgen_test]
async fn a_shared_view_says_its_link_was_revoked() {
    let address = fresh_page();
    hold_fetches();
    let mut running = task("t-00010", TaskPhase::Running, TaskType::PyTorchJob);
    running.quiet = vec![shared::api::ReplicaQuiet {
        replica: 0,
        secs: 2,
        empty: false,
    }];
    let host = crate::new_host();
    leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! { <SharedTask view=running.clone() token="tok-10".to_owned() /> }
    })
    .forget();
    until("the task read again through the link", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("/api/v1/shared/tok-10?"))
    })
    .await;
    assert_eq!(
        all_text(&host, "[data-testid='log-quiet']").concat(),
        "Every replica wrote to its log in the last minute."
    );
    refuse_fetch(
        "/api/v1/shared/tok-10?",
        404,
        r#"{"type":"about:blank","title":"Not Found","status":404,"code":"task.not_found","detail":"no task (shared link)"}"#,
    );
    until("the link's end said", || {
        all_text(&host, "[data-testid='link-dead']")
            .concat()
            .starts_with("This link no longer opens the task")
    })
    .await;
    assert!(
        all_text(&host, "[data-testid='detail-phase']")
            .concat()
            .contains("Running")
    );
    // Under the name, before the read-only note, and in the tab's title, which no longer
    // says a phase (low-vision recheck: below the first screen of a phone, and the tab
    // still said Running).
    let dead = find(&host, "[data-testid='link-dead']");
    let note = find(&host, "[data-testid='read-only']");
    assert!(
        dead.compare_document_position(&note) & web_sys::Node::DOCUMENT_POSITION_FOLLOWING != 0,
        "the notice first"
    );
    until("the tab's title", || {
        web_sys::window().unwrap().document().unwrap().title()
            == "Shared task t-00010 (read-only): this link no longer opens it — Berth"
    })
    .await;
    // Beside the log too, and the view no longer says it follows the task.
    assert_eq!(
        all_text(&host, "[data-testid='link-dead-logs']"),
        all_text(&host, "[data-testid='link-dead']")
    );
    assert_eq!(
        all_text(&host, "[data-testid='read-only']"),
        ["This is a read-only view shared with you, as it was last read through its link."]
    );
    // The log's own buttons off, no hint to follow it, nothing said of its replicas'
    // output "in the last minute": it can no longer be read.
    assert!(find(&host, "[data-testid='log-follow']").has_attribute("disabled"));
    assert_eq!(all_text(&host, "[data-testid='log-state']").concat(), "");
    assert_eq!(all_text(&host, "[data-testid='log-quiet']").concat(), "");
    release_fetches();
    host.remove();
    restore_address(&address);
}

/// A share link's reader sees a stop under way as the owner does: Stopping, not Running.
#[wasm_bindgen_test]
async fn a_shared_task_whose_stop_is_under_way_reads_stopping() {
    let mut view = task("t-00005", TaskPhase::Running, TaskType::PyTorchJob);
    view.stopping_since = Some(shared::record::Timestamp(1_796_000_000_000));
    let host = mount(move || view! { <SharedTask view=view.clone() /> });
    leptos::task::tick().await;
    let phase = all_text(&host, "[data-testid='detail-phase']").concat();
    assert!(phase.contains("Stopping"), "{phase}");
}

#[wasm_bindgen_test]
async fn a_server_refusal_is_shown_in_the_page_in_the_readers_language() {
    let error = RwSignal::new(None::<ClientError>);
    let host = mount(move || view! { <ErrorBanner error /> });
    error.set(Some(ClientError::Api(ErrorBody {
        kind: "about:blank".into(),
        title: "Conflict".into(),
        status: 409,
        detail: "task t-1 has not ended; stop it first".into(),
        code: "task.conflict".into(),
        issues: Vec::new(),
        truncated: 0,
        line: None,
        column: None,
    })));
    leptos::task::tick().await;
    let banner = find(&host, "[role='alert']");
    assert!(
        banner
            .text_content()
            .unwrap()
            .contains("The server refused: the task has changed since this page showed it")
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert!(
        find(&host, "[role='alert']")
            .text_content()
            .unwrap()
            .starts_with("服务器拒绝了请求：任务已发生变化，请刷新后重新查看（task.conflict）")
    );
    back_to_english(&host).await;
    find(&host, ".dismiss").click();
    leptos::task::tick().await;
    assert!(host.query_selector("[role='alert']").unwrap().is_none());
}

/// README (the error table): a delete while the task's stop is under way is refused as
/// `task.stopping`; the page words it as the console's own, in the reader's language,
/// saying to wait for the stop rather than to look at the task again.
#[wasm_bindgen_test]
async fn a_delete_refused_while_the_stop_is_under_way_says_to_wait_for_it() {
    let error = RwSignal::new(None::<ClientError>);
    let host = mount(move || view! { <ErrorBanner error /> });
    error.set(Some(ClientError::Api(ErrorBody {
        kind: "about:blank".into(),
        title: "Conflict".into(),
        status: 409,
        detail: "task t-1 has not ended: its stop is under way; delete it once it has stopped"
            .into(),
        code: "task.stopping".into(),
        issues: Vec::new(),
        truncated: 0,
        line: None,
        column: None,
    })));
    leptos::task::tick().await;
    let text = || {
        find(&host, "[role='alert'] .message")
            .text_content()
            .unwrap()
    };
    says_in_both(
        &host,
        text,
        "The server refused: its stop is under way: delete it once it has stopped (task.stopping)",
        "服务器拒绝了请求：任务正在停止中：请待其停止后再删除（task.stopping）",
    )
    .await;
}

/// Dismiss goes with its banner: the focus goes to the task's actions, not to the
/// page's body, where a keyboard user would start again from the top.
#[wasm_bindgen_test]
async fn a_dismissed_refusal_leaves_the_focus_at_the_tasks_actions() {
    let error = RwSignal::new(None::<ClientError>);
    let host = mount(move || {
        view! {
            <section data-testid="actions" tabindex="-1"><button>"Stop"</button></section>
            <ErrorBanner error />
        }
    });
    error.set(Some(ClientError::Network("offline".into())));
    leptos::task::tick().await;
    let dismiss = find(&host, ".dismiss");
    dismiss.focus().unwrap();
    dismiss.click();
    leptos::task::tick().await;
    crate::after_paint().await;
    let active = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element()
        .expect("something has the focus");
    assert_eq!(
        active.get_attribute("data-testid").as_deref(),
        Some("actions")
    );
}

#[wasm_bindgen_test]
async fn a_refused_spec_leads_with_the_readers_words_and_names_each_field() {
    let error = RwSignal::new(None::<ClientError>);
    let host = mount(move || view! { <ErrorBanner error /> });
    // As the server answers a tag the rules refuse: its English detail, findings in
    // the request's language (Chinese here).
    let body: ErrorBody = serde_json::from_value(serde_json::json!({
        "type": "about:blank",
        "title": "Unprocessable Entity",
        "status": 422,
        "code": "spec.invalid",
        "detail": "the spec does not pass Berth's checks; `issues` lists each finding",
        "issues": [{
            "path": "environment.storage",
            "code": "storage.none",
            "severity": "info",
            "message": "没有存储卷"
        }, {
            "path": "basic.tags[3].key",
            "code": "basic.tags.key.invalid",
            "severity": "error",
            "message": "键无效"
        }]
    }))
    .expect("an error body");
    error.set(Some(ClientError::Api(body)));
    leptos::task::tick().await;
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    let banner = find(&host, "[role='alert']").text_content().unwrap();
    assert!(
        banner.starts_with("服务器拒绝了任务配置：请修正其列出的问题（spec.invalid）"),
        "{banner}"
    );
    assert!(
        !banner.contains("Berth's checks"),
        "no English lead: {banner}"
    );
    // Each finding in the language shown, read back by its code: the words the server
    // sent were the request's language, and stayed when the reader switched.
    let item = find(&host, "[role='alert'] li[data-path='basic.tags[3].key']")
        .text_content()
        .unwrap();
    let zh = shared::messages::text(Lang::Zh, "basic.tags.key.invalid", &[]);
    assert_eq!(item, format!("错误\u{a0}标签第 4 项 › 标签键：{zh}"));
    back_to_english(&host).await;
    let item = find(&host, "[role='alert'] li[data-path='basic.tags[3].key']")
        .text_content()
        .unwrap();
    let en = shared::messages::text(Lang::En, "basic.tags.key.invalid", &[]);
    assert_eq!(item, format!("error\u{a0}Tags #4 › Tag key: {en}"));
    // Errors first, and a hint the server sent beside them says it is one: it is not a
    // reason for the refusal.
    let items = all_text(&host, "[role='alert'] li .badge");
    assert_eq!(items, ["error", "hint"]);
}

#[wasm_bindgen_test]
fn replicas_are_named_by_what_they_run() {
    use shared::api::{LogReplica, ReplicaRole};
    let at = |replica, role| LogReplica { replica, role };
    let labels = |logs: &[LogReplica]| -> Vec<String> {
        replica_labels(Lang::En, logs)
            .into_iter()
            .map(|(_, label)| label)
            .collect()
    };
    // A PyTorchJob: the master, then workers from 0.
    assert_eq!(
        labels(&[
            at(0, ReplicaRole::Master),
            at(1, ReplicaRole::Worker),
            at(2, ReplicaRole::Worker)
        ]),
        ["0: master", "1: worker 0", "2: worker 1"]
    );
    // A RayJob on KubeRay: the submitter's log is the entrypoint's output; the head's
    // number is 1 and the first worker's 2, and the workers still count from 0.
    assert_eq!(
        labels(&[
            at(0, ReplicaRole::Submitter),
            at(1, ReplicaRole::Head),
            at(2, ReplicaRole::Worker)
        ]),
        [
            "0: submitter (the entrypoint's output)",
            "1: head",
            "2: worker 0"
        ]
    );
    assert_eq!(
        replica_labels(
            Lang::Zh,
            &[at(0, ReplicaRole::Submitter), at(1, ReplicaRole::Head)]
        )[0]
        .1,
        "0：Submitter（启动命令的输出）"
    );
    // Alone, on a server with no Ray cluster (the local backend): said so, as the
    // placement's replicas have no log of their own (failure explorer); short, as an
    // option's text is cut at a laptop's width, and as the seeds name it, Submitter
    // (Ray explorer, in Chinese).
    assert_eq!(
        replica_labels(Lang::En, &[at(0, ReplicaRole::Submitter)])[0].1,
        "0: submitter (the entrypoint's output; no Ray cluster on this server)"
    );
    assert_eq!(
        replica_labels(Lang::Zh, &[at(0, ReplicaRole::Submitter)])[0].1,
        "0：Submitter（启动命令的输出；此服务器不启动 Ray 集群）"
    );
    // In Chinese, a PyTorchJob's roles in the form's words; a RayJob's keep Ray's.
    let zh = |logs: &[LogReplica]| -> Vec<String> {
        replica_labels(Lang::Zh, logs)
            .into_iter()
            .map(|(_, label)| label)
            .collect()
    };
    assert_eq!(
        zh(&[at(0, ReplicaRole::Master), at(1, ReplicaRole::Worker)]),
        ["0：主节点", "1：工作节点 0"]
    );
    assert_eq!(
        zh(&[at(0, ReplicaRole::Head), at(1, ReplicaRole::Worker)]),
        ["0：Head", "1：Worker 0"]
    );
}

#[wasm_bindgen_test]
async fn a_link_moves_without_a_reload_and_keeps_its_address() {
    let window = web_sys::window().unwrap();
    let before = window.location().href().unwrap();
    let host = mount(|| {
        let nav = Nav::use_context();
        view! {
            <Link to=Route::Detail("t-42".into()) test_id="go">"t-42"</Link>
            <span data-testid="route">{move || format!("{:?}", nav.route())}</span>
        }
    });
    leptos::task::tick().await;
    let link = find(&host, "[data-testid='go']");
    assert_eq!(link.get_attribute("href").as_deref(), Some("/tasks/t-42"));
    link.click();
    leptos::task::tick().await;
    assert_eq!(
        find(&host, "[data-testid='route']").text_content().unwrap(),
        "Detail(\"t-42\")"
    );
    assert_eq!(window.location().pathname().unwrap(), "/tasks/t-42");
    // Put the test runner's address back.
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&before))
        .unwrap();
}

#[wasm_bindgen_test]
fn a_refresh_of_a_deep_list_keeps_every_row_below_it() {
    use frontend::pages::task_list::refreshed;
    let ids =
        |rows: &[TaskView]| -> Vec<String> { rows.iter().map(|t| t.task.id.0.clone()).collect() };
    let rows = |names: &[&str]| -> Vec<TaskView> {
        names
            .iter()
            .map(|n| task(n, TaskPhase::Running, TaskType::PyTorchJob))
            .collect()
    };
    // Five shown, three fetched again, two of them new at the top: the old rows the
    // new ones pushed past the page's end (b, c) stay, then the rest (d, e).
    let old = rows(&["a", "b", "c", "d", "e"]);
    let page = rows(&["new2", "new1", "a"]);
    assert_eq!(
        ids(&refreshed(old.clone(), page.clone(), true)),
        ["new2", "new1", "a", "b", "c", "d", "e"]
    );
    // Not deeper than the page: the page is the list.
    assert_eq!(
        ids(&refreshed(old.clone(), page, false)),
        ["new2", "new1", "a"]
    );
    // A row deleted meanwhile (b) leaves; nothing shows twice.
    let page = rows(&["a", "c", "d"]);
    assert_eq!(
        ids(&refreshed(old.clone(), page, true)),
        ["a", "c", "d", "e"]
    );
    // A page of only new tasks: every old row stays below it.
    let page = rows(&["x", "y"]);
    assert_eq!(
        ids(&refreshed(old, page, true)),
        ["x", "y", "a", "b", "c", "d", "e"]
    );
}

/// Holds every `fetch` of the page until the test answers it (`answer_fetch`).
fn hold_fetches() {
    // The list's counts are answered at once as a server before their route answers
    // (404: the chips then say no number), unless a test holds them too
    // (`hold_counts`): the list's tests answer its pages one by one.
    js_sys::eval(
        "window.__held = [];
         window.__holdCounts = false;
         window.__realFetch = window.__realFetch || window.fetch;
         window.fetch = (req) => {
             const url = typeof req === 'string' ? req : req.url;
             if (url.includes('/api/v1/tasks/counts') && !window.__holdCounts)
                 return Promise.resolve(new Response('{\"status\":404}', { status: 404 }));
             return new Promise((resolve, reject) =>
                 window.__held.push({ url, req, resolve, reject }));
         };",
    )
    .unwrap();
}

/// Holds the list's counts too, for a test to answer (see [`hold_fetches`]).
fn hold_counts() {
    js_sys::eval("window.__holdCounts = true;").unwrap();
}

fn release_fetches() {
    js_sys::eval("window.fetch = window.__realFetch; window.__held = [];").unwrap();
}

/// Ends a test that faked `fetch`: the real one back, the view unmounted, and the address
/// the page had before (the pages write their route and filters into it).
fn finish<V>(handle: leptos::mount::UnmountHandle<V>, host: &HtmlElement, address: &str)
where
    V: leptos::tachys::view::Mountable,
{
    release_fetches();
    drop(handle);
    host.remove();
    restore_address(address);
}

/// Puts `address` back in the address bar, as the page found it.
fn restore_address(address: &str) {
    web_sys::window()
        .unwrap()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(address))
        .unwrap();
}

/// The addresses of the requests held and not yet answered, oldest first.
fn held_fetches() -> Vec<String> {
    let urls = js_sys::eval("window.__held.map((h) => h.url).join('\\n')").unwrap();
    urls.as_string()
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Clicks the control with this test id and waits for the request it sends, held, whose
/// address contains `part`.
async fn press_until_asked(host: &HtmlElement, test_id: &str, part: &str) {
    find(host, &format!("[data-testid='{test_id}']")).click();
    until(&format!("the request for {part}"), || {
        held_fetches().iter().any(|u| u.contains(part))
    })
    .await;
}

/// The body of the oldest held request whose address contains `part`, as text.
async fn held_fetch_body(part: &str) -> String {
    let at = held_fetches()
        .iter()
        .position(|url| url.contains(part))
        .unwrap_or_else(|| panic!("no request for {part}: {:?}", held_fetches()));
    let text = js_sys::eval(&format!(
        "(() => {{ const r = window.__held[{at}].req; \
         return typeof r === 'string' ? Promise.resolve('') : r.clone().text(); }})()"
    ))
    .unwrap();
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(text))
        .await
        .unwrap()
        .as_string()
        .unwrap_or_default()
}

/// Answers the oldest held request whose address contains `part` with `body` as JSON.
fn answer_fetch(part: &str, body: &str) {
    let at = held_fetches()
        .iter()
        .position(|url| url.contains(part))
        .unwrap_or_else(|| panic!("no request for {part}: {:?}", held_fetches()));
    let body = serde_json::to_string(body).unwrap();
    js_sys::eval(&format!(
        "window.__held.splice({at}, 1)[0].resolve(new Response({body}, \
         {{ headers: {{ 'content-type': 'application/json' }} }}))"
    ))
    .unwrap();
}

/// Events `numbers` of `kind` as the events route answers them: event `n` happened
/// `step_ms` × n after a fixed time and says `message(n)`.
fn events_json(
    numbers: std::ops::RangeInclusive<i64>,
    kind: &str,
    step_ms: i64,
    message: impl Fn(i64) -> String,
) -> String {
    let list: Vec<shared::api::TaskEventView> = numbers
        .map(|n| shared::api::TaskEventView {
            at: Timestamp(1_700_000_000_000 + n * step_ms),
            kind: kind.into(),
            message: message(n),
        })
        .collect();
    serde_json::to_string(&list).unwrap()
}

/// Waits for the task page's next refresh of task t1 (in English) and answers it with
/// `task_json`.
async fn answer_refresh(task_json: &str) {
    until("a refresh", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("tasks/t1?lang=en"))
    })
    .await;
    answer_fetch("tasks/t1?lang=en", task_json);
}

/// Answers the held request for a task's events whose query is `query` exactly (what
/// follows `/events?`: a console that fetched every event, or another page than the
/// one it shows, finds no answer) with `events`, and the header that says the number of
/// the first of them when `earlier` events come before them.
fn answer_events(query: &str, events: &str, earlier: usize) {
    let at = held_fetches()
        .iter()
        .position(|url| url.ends_with(&format!("/events?{query}")))
        .unwrap_or_else(|| panic!("no request for events?{query}: {:?}", held_fetches()));
    let body = serde_json::to_string(events).unwrap();
    let header = if earlier > 0 {
        format!(", 'berth-events-earlier': '{}'", earlier + 1)
    } else {
        String::new()
    };
    js_sys::eval(&format!(
        "window.__held.splice({at}, 1)[0].resolve(new Response({body}, \
         {{ headers: {{ 'content-type': 'application/json'{header} }} }}))"
    ))
    .unwrap();
}

/// Waits for the held request for a task's events whose query is `query`, and answers it
/// as [`answer_events`] does.
async fn answer_events_when_asked(query: &str, events: &str, earlier: usize) {
    let wanted = format!("/events?{query}");
    until(&format!("the request for events?{query}"), || {
        held_fetches().iter().any(|u| u.ends_with(&wanted))
    })
    .await;
    answer_events(query, events, earlier);
}

/// The page's latest events, as it asks for them at each poll in `lang`.
fn latest_events(lang: &str) -> String {
    format!("lang={lang}&limit=50")
}

/// The page's latest retries, as it asks for them at each poll in `lang`.
fn latest_retries(lang: &str) -> String {
    format!("lang={lang}&kind=retrying&limit=5")
}

/// Answers the oldest held request whose address contains `part` with a refusal: the
/// status and the problem's JSON.
fn refuse_fetch(part: &str, status: u16, body: &str) {
    refuse_fetch_where(|url| url.contains(part), status, body);
}

/// [`refuse_fetch`] for the oldest held request whose address `matches`.
fn refuse_fetch_where(matches: impl Fn(&str) -> bool, status: u16, body: &str) {
    let at = held_fetches()
        .iter()
        .position(|url| matches(url))
        .unwrap_or_else(|| panic!("no such request: {:?}", held_fetches()));
    let body = serde_json::to_string(body).unwrap();
    js_sys::eval(&format!(
        "window.__held.splice({at}, 1)[0].resolve(new Response({body}, \
         {{ status: {status}, headers: {{ 'content-type': 'application/problem+json' }} }}))"
    ))
    .unwrap();
}

/// Answers the request whose address contains `part` with `body` once it is asked.
async fn answer_when_asked(part: &str, body: &str) {
    request_for(part).await;
    answer_fetch(part, body);
}

/// Answers the held request for a log's end with `text` as plain text, and
/// `left_out` bytes before it, as the server's header says them.
fn answer_log_end(text: &str, left_out: u64) {
    let at = held_fetches()
        .iter()
        .position(|url| url.contains("/logs?"))
        .unwrap_or_else(|| panic!("no request for a log: {:?}", held_fetches()));
    let body = serde_json::to_string(text).unwrap();
    js_sys::eval(&format!(
        "window.__held.splice({at}, 1)[0].resolve(new Response({body}, \
         {{ headers: {{ 'content-type': 'text/plain', 'berth-log-left-out': '{left_out}' }} }}))"
    ))
    .unwrap();
}

/// Reads the log again, answered with 300 lines ending in `last`, and waits until `pre`
/// shows it and has been painted twice (where a box scrolls to its end).
async fn read_long_log(host: &HtmlElement, pre: &web_sys::Element, last: &str) {
    reload_log(host).await;
    answer_log_end(&format!("{}{last}\n", "line\n".repeat(300)), 0);
    until("the long log", || {
        pre.text_content()
            .unwrap_or_default()
            .ends_with(&format!("{last}\n"))
    })
    .await;
    crate::after_paint().await;
    crate::after_paint().await;
}

/// Clicks the log's Reload and waits for its request.
async fn reload_log(host: &HtmlElement) {
    find(host, "[data-testid='log-reload']").click();
    until("the log asked for again", || {
        held_fetches().iter().any(|u| u.contains("/logs?"))
    })
    .await;
}

/// Fails the oldest held request whose address contains `part` as a lost connection does.
fn fail_fetch(part: &str) {
    let at = held_fetches()
        .iter()
        .position(|url| url.contains(part))
        .unwrap_or_else(|| panic!("no request for {part}: {:?}", held_fetches()));
    js_sys::eval(&format!(
        "window.__held.splice({at}, 1)[0].reject(new TypeError('Failed to fetch'))"
    ))
    .unwrap();
}

/// Waits (as [`until`]) until `selector` finds an element in `host`.
async fn until_found(host: &HtmlElement, what: &str, selector: &str) {
    until(what, || host.query_selector(selector).unwrap().is_some()).await;
}

/// Waits (in 50 ms steps, at most 10 s) until `ready` holds.
pub(crate) async fn until(what: &str, ready: impl Fn() -> bool) {
    for _ in 0..200 {
        if ready() {
            return;
        }
        sleep(50).await;
    }
    panic!("waited 10 s for {what}");
}

/// The address of the next request held whose address contains `part` (as [`until`]).
async fn request_for(part: &str) -> String {
    until(part, || held_fetches().iter().any(|u| u.contains(part))).await;
    held_fetches()
        .into_iter()
        .find(|u| u.contains(part))
        .expect("held")
}

/// The id of the table row the keyboard's focus is in, if any.
fn focused_row() -> Option<String> {
    document()
        .active_element()
        .and_then(|a| a.closest("tr").ok().flatten())
        .and_then(|tr| tr.get_attribute("data-id"))
}

/// The ids of the table's rows, in order.
fn row_ids(host: &HtmlElement) -> Vec<String> {
    let rows = host.query_selector_all("tbody tr").unwrap();
    (0..rows.length())
        .filter_map(|i| rows.item(i))
        .filter_map(|row| {
            row.unchecked_into::<web_sys::Element>()
                .get_attribute("data-id")
        })
        .collect()
}

/// Tasks `t{from}` to `t{to - 1}` as the server lists them, newest first: each submitted
/// a second before the one listed above it.
fn page_of(from: usize, to: usize, next: Option<&str>) -> String {
    let tasks: Vec<TaskView> = (from..to)
        .map(|i| {
            let mut t = task(
                &format!("t{i:02}"),
                TaskPhase::Running,
                TaskType::PyTorchJob,
            );
            t.task.created_at = Timestamp(1_700_000_000_000 + (10_000 - i as i64) * 1000);
            t
        })
        .collect();
    serde_json::to_string(&shared::api::TaskPage {
        tasks,
        next: next.map(str::to_owned),
    })
    .unwrap()
}

/// [`page_of`], the whole list, its tasks as `edit` leaves them.
fn page_of_edited(from: usize, to: usize, edit: impl FnOnce(&mut Vec<TaskView>)) -> String {
    let mut page: shared::api::TaskPage = serde_json::from_str(&page_of(from, to, None)).unwrap();
    edit(&mut page.tasks);
    serde_json::to_string(&page).unwrap()
}

/// The page size a list request asked for (`limit=`).
fn limit_asked(url: &str) -> usize {
    url.split("limit=")
        .nth(1)
        .and_then(|l| l.split('&').next())
        .and_then(|l| l.parse().ok())
        .expect("the refresh asks with a limit")
}

/// The catalog answer for the demo user.
fn demo_session() -> shared::api::CatalogResponse {
    shared::api::CatalogResponse {
        user: shared::demo::user(),
        catalog: shared::demo::catalog(),
        usage: shared::demo::usage(),
        outside: shared::Usage::default(),
        held: Vec::new(),
        ray_clusters: true,
        email_alerts: true,
    }
}

/// The list page, in English, mounted into a fresh element with the fetches held, once
/// it has asked for its first page.
async fn list_page_asked() -> (
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
) {
    use frontend::pages::task_list::TaskListPage;
    hold_fetches();
    let host = crate::new_host();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! { <TaskListPage session=demo_session() /> }.into_any()
    });
    until("the first page's request", || !held_fetches().is_empty()).await;
    (host, handle)
}

/// A retry queued for room after its backoff is said to be a retry, on the list and on
/// its page, and its page keeps the mark on the replica whose end failed the attempt:
/// it read as a task that never ran (failure explorer).
#[wasm_bindgen_test]
async fn a_retry_queued_for_room_is_said_to_be_a_retry() {
    let address = fresh_page();
    let waits = "the largest free node has 4 GPUs; one replica needs 8";
    let retry = {
        let mut t = task("t1", TaskPhase::Queued, TaskType::PyTorchJob);
        t.reason = Some(waits.into());
        t.failed_replica = Some(1);
        let at = |s: i64| Timestamp(1_700_000_080_000 + s * 1000);
        t.task.history.extend([
            PhaseChange {
                phase: TaskPhase::Retrying,
                at: at(0),
                reason: "attempt 1 failed".into(),
                keyed: None,
            },
            PhaseChange {
                phase: TaskPhase::Queued,
                at: at(10),
                reason: String::new(),
                keyed: None,
            },
        ]);
        t
    };
    let (host, handle) = list_page_asked().await;
    answer_fetch(
        "/api/v1/tasks?",
        &serde_json::to_string(&shared::api::TaskPage {
            tasks: vec![retry.clone()],
            next: None,
        })
        .unwrap(),
    );
    until_found(
        &host,
        "the reason",
        "tr[data-id='t1'] [data-testid='row-reason']",
    )
    .await;
    assert_eq!(
        find(&host, "tr[data-id='t1'] [data-testid='row-reason']")
            .text_content()
            .unwrap(),
        format!("run 2, a retry, waits: {waits}")
    );
    finish(handle, &host, &address);

    let address = fresh_page();
    let (host, handle) = mount_detail_page_with(&retry, ("[]", 0), ("[]", 0)).await;
    until_found(&host, "why it waits", "[data-testid='reason'] p").await;
    assert_eq!(
        find(&host, "[data-testid='reason'] p")
            .text_content()
            .unwrap(),
        format!("run 2, a retry, waits: {waits}")
    );
    until_found(
        &host,
        "the log picker",
        "[data-testid='log-replica'] option",
    )
    .await;
    let picker = find(&host, "[data-testid='log-replica']")
        .text_content()
        .unwrap();
    assert!(
        picker.contains("1: worker 0 — its end failed the attempt"),
        "{picker}"
    );
    finish(handle, &host, &address);
    // A first run queued says only why it waits.
    let address = fresh_page();
    let mut first = task("t1", TaskPhase::Queued, TaskType::PyTorchJob);
    first.reason = Some(waits.into());
    let (host, handle) = mount_detail_page_with(&first, ("[]", 0), ("[]", 0)).await;
    until_found(&host, "why it waits", "[data-testid='reason'] p").await;
    assert_eq!(
        find(&host, "[data-testid='reason'] p")
            .text_content()
            .unwrap(),
        waits
    );
    finish(handle, &host, &address);
}

/// The phase chips say how many tasks each phase has under the other filters, and All
/// how many in all, asked again with each refresh (lead explorer: "20 shown" was the
/// only number); a server that does not count leaves them without numbers.
#[wasm_bindgen_test]
async fn the_phase_chips_say_how_many_tasks_each_phase_has() {
    let address = fresh_page();
    hold_fetches();
    hold_counts();
    let host = crate::new_host();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! { <frontend::pages::task_list::TaskListPage session=demo_session() /> }.into_any()
    });
    let counts_url = request_for("/api/v1/tasks/counts").await;
    assert!(!counts_url.contains("phase="), "{counts_url}");
    let chip = |phase: &str| {
        find(
            &host,
            &format!("[data-testid='phase-chips'] [data-phase='{phase}']"),
        )
        .text_content()
        .unwrap()
    };
    assert_eq!(chip("running"), "Running", "no number before the answer");
    answer_fetch(
        "/api/v1/tasks/counts",
        r#"{"queued":2,"scheduling":0,"running":12,"retrying":1,"succeeded":40,"failed":3,"stopped":0}"#,
    );
    until("the numbers", || chip("running") == "Running 12").await;
    assert_eq!(chip("all"), "All 58");
    assert_eq!(chip("active"), "Active 15", "queued, running and retrying");
    assert_eq!(chip("failed"), "Failed 3");
    answer_fetch("/api/v1/tasks?", &page_of(0, 3, None));
    // A refresh asks again; the numbers follow it.
    let again = request_for("/api/v1/tasks/counts").await;
    assert_eq!(again, counts_url);
    answer_fetch(
        "/api/v1/tasks/counts",
        r#"{"queued":1,"scheduling":0,"running":13,"retrying":1,"succeeded":40,"failed":3,"stopped":0}"#,
    );
    until("the new numbers", || chip("running") == "Running 13").await;
    // The server out of reach at the next refresh: the numbers stay, greyed, until it
    // answers (network explorer: every chip lost its number and shrank).
    answer_fetch("/api/v1/tasks?", &page_of(0, 3, None));
    request_for("/api/v1/tasks/counts").await;
    fail_fetch("/api/v1/tasks/counts");
    until("the numbers greyed", || {
        host.query_selector("[data-phase='running'] .count.stale")
            .unwrap()
            .is_some()
    })
    .await;
    assert_eq!(chip("running"), "Running 13");
    assert_eq!(chip("all"), "All 58");
    fail_fetch("/api/v1/tasks?");
    // A chip pressed filters the list, not the counts: Active's too.
    find(&host, "[data-testid='phase-chips'] [data-phase='active']").click();
    let listed = request_for("phase=active").await;
    assert!(listed.contains("/api/v1/tasks?"), "{listed}");
    let after = request_for("/api/v1/tasks/counts").await;
    assert!(!after.contains("phase="), "{after}");
    answer_fetch(
        "/api/v1/tasks/counts",
        r#"{"queued":1,"scheduling":0,"running":13,"retrying":1,"succeeded":40,"failed":3,"stopped":0}"#,
    );
    answer_fetch("phase=active", &page_of(0, 3, None));
    // Asked again only once this answer is in (one ask of the counts at a time).
    sleep(100).await;
    find(&host, "[data-testid='phase-chips'] [data-phase='failed']").click();
    let after = request_for("/api/v1/tasks/counts").await;
    assert!(!after.contains("phase="), "{after}");
    answer_fetch(
        "/api/v1/tasks/counts",
        r#"{"queued":1,"scheduling":0,"running":13,"retrying":1,"succeeded":40,"failed":3,"stopped":0}"#,
    );
    // Another filter: the numbers before stay, greyed, until the new ones come, so the
    // chips keep their width (slow-laptop explorer: they shrank and grew back).
    let kind: web_sys::HtmlSelectElement =
        find(&host, "[data-testid='filter-type']").unchecked_into();
    kind.set_value("ray_job");
    kind.dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    let of_rays = request_for("type=ray_job").await;
    assert!(of_rays.contains("/api/v1/tasks"), "{of_rays}");
    until("the counts of RayJobs asked for", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("/api/v1/tasks/counts") && u.contains("type=ray_job"))
    })
    .await;
    assert_eq!(chip("running"), "Running 13");
    let stale = || {
        host.query_selector("[data-phase='running'] .count.stale")
            .unwrap()
            .is_some()
    };
    assert!(stale(), "greyed while the new ones come");
    answer_fetch(
        "/api/v1/tasks/counts?",
        r#"{"queued":0,"scheduling":0,"running":2,"retrying":0,"succeeded":5,"failed":1,"stopped":0}"#,
    );
    until("the RayJobs' numbers", || chip("running") == "Running 2").await;
    assert!(!stale());
    finish(handle, &host, &address);
}

/// The owner box offers the names of the reader's groups' members to choose from (lead
/// explorer: it took a whole name, with nothing to choose from).
#[wasm_bindgen_test]
async fn the_owner_filter_offers_the_groups_members() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let owner = find(&host, "[data-testid='filter-owner']");
    let list = owner.get_attribute("list").expect("a list of names");
    let names = all_text_values(&host, &format!("datalist#{list} option"));
    // alice's groups are nlp (alice, bob) and vision (alice); each name once.
    assert_eq!(names, ["alice", "bob"]);
    finish(handle, &host, &address);
}

/// The filter boxes' hints show whole, in either language, at the pages' style (keyboard
/// explorer: the Owner box read "a user's name, whol" at 1280 px).
#[wasm_bindgen_test]
async fn the_filter_boxes_hints_show_whole() {
    use frontend::pages::task_list::TaskListPage;
    let style = page_style();
    for lang in [Lang::En, Lang::Zh] {
        let address = fresh_page();
        hold_fetches();
        let host = crate::new_host();
        let handle = leptos::mount::mount_to(host.clone(), move || {
            UiLang::provide().set(lang);
            Nav::provide();
            view! { <TaskListPage session=demo_session() /> }.into_any()
        });
        for id in ["filter-owner", "filter-tag"] {
            let input: web_sys::HtmlInputElement =
                find(&host, &format!("[data-testid='{id}']")).unchecked_into();
            let computed = web_sys::window()
                .unwrap()
                .get_computed_style(&input)
                .unwrap()
                .unwrap();
            // The hint's width in the box's own font, by a span beside it.
            let document = web_sys::window().unwrap().document().unwrap();
            let span: HtmlElement = document.create_element("span").unwrap().unchecked_into();
            span.set_text_content(Some(&input.placeholder()));
            let font = computed.get_property_value("font").unwrap();
            span.style().set_property("font", &font).unwrap();
            span.style().set_property("white-space", "pre").unwrap();
            document.body().unwrap().append_child(&span).unwrap();
            let hint = span.get_bounding_client_rect().width();
            span.remove();
            let padding: f64 = ["padding-left", "padding-right"]
                .iter()
                .map(|p| {
                    let px = computed.get_property_value(p).unwrap();
                    px.trim_end_matches("px").parse::<f64>().unwrap()
                })
                .sum();
            // Room for the arrow Chromium draws at the end of a box with a list (30 px in
            // the explorer's screenshot).
            let arrow = if input.has_attribute("list") {
                32.0
            } else {
                0.0
            };
            let room = f64::from(input.client_width()) - padding - arrow;
            let text = input.placeholder();
            assert!(
                hint <= room,
                "{lang:?} {id}: {text:?} is {hint} px in {room} px"
            );
        }
        finish(handle, &host, &address);
    }
    style.remove();
}

fn all_text_values(host: &HtmlElement, selector: &str) -> Vec<String> {
    let found = host.query_selector_all(selector).unwrap();
    (0..found.length())
        .filter_map(|i| found.item(i))
        .filter_map(|n| {
            n.unchecked_into::<web_sys::Element>()
                .get_attribute("value")
        })
        .collect()
}

/// A failed task's row says why it failed, as its page does (which replica, its exit
/// code, the attempt): a reader scanning failures opened each task to learn it (failure
/// explorer). A stopped one says nothing more.
#[wasm_bindgen_test]
async fn a_failed_tasks_row_says_why_it_failed() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let why = "ran 3 times; the last: replica 1 (worker 0) ended with exit code 3";
    let mut failed = task("t1", TaskPhase::Failed, TaskType::PyTorchJob);
    failed.task.history.last_mut().unwrap().reason = why.into();
    let mut stopped = task("t2", TaskPhase::Stopped, TaskType::PyTorchJob);
    stopped.task.history.last_mut().unwrap().reason = "stopped by alice".into();
    answer_fetch(
        "/api/v1/tasks?",
        &serde_json::to_string(&shared::api::TaskPage {
            tasks: vec![failed, stopped],
            next: None,
        })
        .unwrap(),
    );
    until_found(
        &host,
        "the failure's reason",
        "tr[data-id='t1'] [data-testid='row-reason']",
    )
    .await;
    let reason = find(&host, "tr[data-id='t1'] [data-testid='row-reason']");
    assert_eq!(reason.text_content().unwrap(), why);
    assert_eq!(reason.get_attribute("title").as_deref(), Some(why));
    // Marked as an end's, which takes two lines, so the exit code after "after 3
    // attempts; the last: …" shows (recheck explorer).
    assert!(reason.class_list().contains("ended"));
    assert!(
        host.query_selector("tr[data-id='t2'] [data-testid='row-reason']")
            .unwrap()
            .is_none()
    );
    finish(handle, &host, &address);
}

/// A queued task's row says why it waits, on one line cut short with the whole reason
/// on hover, as the list API gives it (explorer: the list showed only "排队中"); a live
/// refresh rewords it in place, and a running task's row says nothing more.
#[wasm_bindgen_test]
async fn a_waiting_tasks_row_says_why_it_waits() {
    let address = fresh_page();
    let style = page_style();
    let (host, handle) = list_page_asked().await;
    let page = |reason: &str| {
        let mut queued = task("t1", TaskPhase::Queued, TaskType::PyTorchJob);
        queued.reason = Some(reason.to_owned());
        let running = task("t2", TaskPhase::Running, TaskType::PyTorchJob);
        serde_json::to_string(&shared::api::TaskPage {
            tasks: vec![queued, running],
            next: None,
        })
        .unwrap()
    };
    let first = "the largest free node has 4 GPUs; one replica needs 8";
    answer_fetch("/api/v1/tasks?", &page(first));
    until_found(
        &host,
        "the reason",
        "tr[data-id='t1'] [data-testid='row-reason']",
    )
    .await;
    let reason = find(&host, "tr[data-id='t1'] [data-testid='row-reason']");
    assert_eq!(reason.text_content().unwrap(), first);
    assert_eq!(reason.get_attribute("title").as_deref(), Some(first));
    assert!(
        host.query_selector("tr[data-id='t2'] [data-testid='row-reason']")
            .unwrap()
            .is_none()
    );

    let second = "waiting for t0, passed over many times, to start first";
    until("the live refresh", || !held_fetches().is_empty()).await;
    answer_fetch("/api/v1/tasks?", &page(second));
    until("the new reason", || {
        reason.text_content().unwrap() == second
    })
    .await;
    assert!(reason.is_connected(), "the reason is reworded in place");
    assert_eq!(reason.get_attribute("title").as_deref(), Some(second));

    // It starts: the line stays, empty, and the row keeps its height (a retried task's
    // row grew and shrank at each retry, moving the rows below: explorer).
    let row = find(&host, "tr[data-id='t1']");
    let tall = row.get_bounding_client_rect().height();
    let started = {
        let mut running = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
        running.task.updated_at = Timestamp(1_700_000_090_000);
        serde_json::to_string(&shared::api::TaskPage {
            tasks: vec![
                running,
                task("t2", TaskPhase::Running, TaskType::PyTorchJob),
            ],
            next: None,
        })
        .unwrap()
    };
    until("the live refresh", || !held_fetches().is_empty()).await;
    answer_fetch("/api/v1/tasks?", &started);
    until("the row runs", || {
        row.get_attribute("data-phase").as_deref() == Some("running")
    })
    .await;
    crate::after_paint().await;
    let (said, height) = (
        reason.text_content().unwrap_or_default(),
        row.get_bounding_client_rect().height(),
    );
    finish(handle, &host, &address);
    style.remove();
    assert_eq!(said, "", "nothing said of a running task");
    assert_eq!(height, tall, "the row keeps its height");
}

/// The rows' reasons come in the console's language, and are asked for again at once
/// when it switches: they came in the browser's (explorer: English under a Chinese
/// console, the list API read `Accept-Language`).
#[wasm_bindgen_test]
async fn the_lists_reasons_are_asked_for_in_the_consoles_language() {
    use frontend::pages::task_list::TaskListPage;
    let address = fresh_page();
    hold_fetches();
    let host = crate::new_host();
    let lang = std::rc::Rc::new(std::cell::Cell::new(None::<UiLang>));
    let kept = std::rc::Rc::clone(&lang);
    let handle = leptos::mount::mount_to(host.clone(), move || {
        let lang = UiLang::provide();
        lang.set(Lang::Zh);
        kept.set(Some(lang));
        Nav::provide();
        view! { <TaskListPage session=demo_session() /> }.into_any()
    });
    let asked_in = |tag: &str| {
        let tag = format!("lang={tag}");
        move || {
            held_fetches()
                .iter()
                .any(|u| u.contains("/api/v1/tasks?") && u.contains(&tag))
        }
    };
    until("the first page, in Chinese", asked_in("zh-CN")).await;
    answer_fetch("/api/v1/tasks?", &page_of(0, 2, None));
    until_found(&host, "the rows", "tbody tr").await;
    lang.get().expect("mounted").set(Lang::En);
    // At once, not at the next refresh 4 s later.
    for _ in 0..20 {
        if asked_in("en")() {
            break;
        }
        sleep(50).await;
    }
    let asked = asked_in("en")();
    finish(handle, &host, &address);
    assert!(asked, "asked again in English at once");
}

/// A live refresh asked for before "More" added a page, and answered after it, would
/// put back the first page alone: it is dropped, and the rows "More" added stay.
#[wasm_bindgen_test]
async fn a_refresh_answered_after_more_keeps_the_page_more_added() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let rows = || host.query_selector_all("tbody tr").unwrap().length();
    answer_fetch("/api/v1/tasks?", &page_of(0, 20, Some("c1")));
    until("the first page", || rows() == 20).await;

    // The live refresh asks again (every 4 s) for the 20 rows shown; it is held.
    until("the live refresh", || !held_fetches().is_empty()).await;
    find(&host, "[data-testid='list-more']").click();
    until("More's request", || {
        held_fetches().iter().any(|u| u.contains("cursor=c1"))
    })
    .await;
    answer_fetch("cursor=c1", &page_of(20, 40, None));
    until("the second page", || rows() == 40).await;

    // The refresh answers last, with the first page as it was when asked.
    answer_fetch("/api/v1/tasks?", &page_of(0, 20, Some("c1")));
    // Its body is read after a turn or more of the event loop: watch for a second.
    for _ in 0..20 {
        sleep(50).await;
        assert_eq!(rows(), 40, "the page More added stays");
    }
    finish(handle, &host, &address);
}

/// With every task loaded, tasks submitted since neither push the oldest rows out of
/// the list nor bring "More" back: one task, or more than the page of room the refresh
/// asks for beyond the rows shown.
#[wasm_bindgen_test]
async fn a_refresh_of_a_whole_list_keeps_every_row_when_a_task_arrives() {
    whole_list_refresh(1).await;
}

#[wasm_bindgen_test]
async fn a_refresh_of_a_whole_list_keeps_every_row_when_many_tasks_arrive() {
    whole_list_refresh(25).await;
}

/// A list of more rows than one request of the refresh brings is refreshed whole, page
/// by page: rows past the 200th stayed as loaded, a deleted task and an ended one too
/// (busy explorer).
#[wasm_bindgen_test]
async fn a_refresh_of_a_long_list_asks_page_by_page_and_refreshes_every_row() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let rows = || host.query_selector_all("tbody tr").unwrap().length() as usize;
    let phase_of = |id: &str| {
        host.query_selector(&format!("tr[data-id='{id}'] .phase"))
            .unwrap()
            .and_then(|p| p.get_attribute("data-phase"))
    };
    answer_fetch("/api/v1/tasks?", &page_of(0, 20, Some("c1")));
    until("the first page", || rows() == 20).await;
    find(&host, "[data-testid='list-more']").click();
    until("More's request", || {
        held_fetches().iter().any(|u| u.contains("cursor=c1"))
    })
    .await;
    answer_fetch("cursor=c1", &page_of(20, 230, None));
    until("every row", || rows() == 230).await;
    assert_eq!(phase_of("t210").as_deref(), Some("running"));
    // The reader away from the table (More's last page put the focus in it): a row the
    // refresh no longer lists goes at once.
    until("the focus in the table", || {
        document()
            .active_element()
            .is_some_and(|a| a.tag_name() == "A")
    })
    .await;
    document()
        .active_element()
        .unwrap()
        .unchecked_into::<HtmlElement>()
        .blur()
        .unwrap();
    // The refresh's first request: at most 200 rows.
    let asked = loop {
        if let Some(url) = held_fetches().iter().find(|u| u.contains("/api/v1/tasks?")) {
            break url.clone();
        }
        sleep(50).await;
    };
    assert_eq!(limit_asked(&asked), 200, "{asked}");
    answer_fetch("/api/v1/tasks?", &page_of(0, 200, Some("r1")));
    // Then the rest, from its cursor: task 210 has ended, task 225 was deleted.
    until("the refresh's second request", || {
        held_fetches().iter().any(|u| u.contains("cursor=r1"))
    })
    .await;
    let asked = held_fetches()
        .into_iter()
        .find(|u| u.contains("cursor=r1"))
        .unwrap();
    assert_eq!(
        limit_asked(&asked),
        50,
        "the rows shown and a page of room: {asked}"
    );
    let tasks: Vec<TaskView> = (200..230)
        .filter(|i| *i != 225)
        .map(|i| {
            let phase = if i == 210 {
                TaskPhase::Succeeded
            } else {
                TaskPhase::Running
            };
            task(&format!("t{i:02}"), phase, TaskType::PyTorchJob)
        })
        .collect();
    let rest = serde_json::to_string(&shared::api::TaskPage { tasks, next: None }).unwrap();
    answer_fetch("cursor=r1", &rest);
    until("the rows past the 200th refreshed", || {
        phase_of("t210").as_deref() == Some("succeeded")
    })
    .await;
    assert_eq!(rows(), 229, "the deleted task's row is gone");
    assert!(phase_of("t225").is_none());
    assert!(phase_of("t229").is_some(), "the last row stays");
    finish(handle, &host, &address);
}

#[wasm_bindgen_test]
fn rows_a_refresh_no_longer_lists_can_be_kept_where_they_were() {
    use frontend::pages::task_list::kept_in_place;
    let rows = |names: &[&str]| -> Vec<TaskView> {
        names
            .iter()
            .map(|n| task(n, TaskPhase::Running, TaskType::PyTorchJob))
            .collect()
    };
    let ids =
        |rows: &[TaskView]| -> Vec<String> { rows.iter().map(|t| t.task.id.0.clone()).collect() };
    let old = rows(&["a", "b", "c", "d", "e"]);
    // b and e left, a too, first: each comes back after the row it followed.
    let (now, kept) = kept_in_place(&old, rows(&["c", "d"]));
    assert_eq!(ids(&now), ["a", "b", "c", "d", "e"]);
    assert_eq!(kept, ["a", "b", "e"]);
    // None left: the rows as refreshed.
    let (now, kept) = kept_in_place(&old, rows(&["a", "b", "c", "d", "e", "f"]));
    assert_eq!(ids(&now), ["a", "b", "c", "d", "e", "f"]);
    assert!(kept.is_empty());
}

/// The reader's own task that can still be stopped has a Stop in its row, beside its
/// phase: a sweep's runs were stopped one page at a time (sweep explorer). It asks
/// first, in a dialog over the list, as the task's page does (a waiting task's question
/// says it has not started); Cancel has the focus. Stopped, its row says Stopping at
/// once, the keyboard is on its row, and a screen reader hears it. Others' tasks and
/// ended ones have none.
#[wasm_bindgen_test]
async fn ones_own_task_is_stopped_from_its_row() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let mut theirs = task("t01", TaskPhase::Running, TaskType::PyTorchJob);
    theirs.task.owner = "bob".into();
    let tasks = vec![
        task("t00", TaskPhase::Running, TaskType::PyTorchJob),
        theirs,
        task("t02", TaskPhase::Succeeded, TaskType::PyTorchJob),
        task("t03", TaskPhase::Queued, TaskType::PyTorchJob),
    ];
    answer_fetch(
        "/api/v1/tasks?",
        &serde_json::to_string(&shared::api::TaskPage { tasks, next: None }).unwrap(),
    );
    until("the rows", || row_ids(&host).len() == 4).await;
    let stop_in = |id: &str| {
        host.query_selector(&format!("tr[data-id='{id}'] [data-testid='row-stop']"))
            .unwrap()
            .map(|e| e.unchecked_into::<HtmlElement>())
    };
    assert!(stop_in("t01").is_none(), "bob's task");
    assert!(stop_in("t02").is_none(), "an ended task");
    assert!(stop_in("t03").is_some(), "a waiting task");
    let stop = stop_in("t00").expect("the reader's running task");
    assert_eq!(stop.text_content().unwrap(), "Stop");
    assert_eq!(stop.get_attribute("aria-label").unwrap(), "Stop t00");
    let open = || find(&host, "[data-testid='list-stop-confirm']").has_attribute("open");
    let focused = || {
        document()
            .active_element()
            .and_then(|a| a.get_attribute("data-testid"))
    };
    let question = || find(&host, "#list-stop-text").text_content().unwrap();
    assert!(!open());

    // Asked, then cancelled: nothing is sent.
    stop.click();
    until("the question", || open() && !question().is_empty()).await;
    assert_eq!(
        question(),
        "Stop task t00? Its replicas are ended now, and what they have not saved is lost."
    );
    assert_eq!(focused().as_deref(), Some("list-stop-no"));
    find(&host, "[data-testid='list-stop-no']").click();
    until("the question closed", || !open()).await;
    // A waiting task's question.
    stop_in("t03").unwrap().click();
    until("the question", || open() && question().contains("t03")).await;
    assert_eq!(
        question(),
        "Stop task t03? It has not started: it leaves the queue, and any quota it holds is given back."
    );
    // It starts while asked about (another's stop freed room): the question follows
    // (sweep recheck: "it has not started" stood over a running row).
    let mut started: Vec<TaskView> = ["t00", "t01", "t02", "t03"]
        .iter()
        .map(|id| {
            row_ids(&host);
            task(id, TaskPhase::Running, TaskType::PyTorchJob)
        })
        .collect();
    started[1].task.owner = "bob".into();
    started[2].task.phase = TaskPhase::Succeeded;
    request_for("/api/v1/tasks?").await;
    answer_fetch(
        "/api/v1/tasks?",
        &serde_json::to_string(&shared::api::TaskPage {
            tasks: started,
            next: None,
        })
        .unwrap(),
    );
    until("the question of a running task", || {
        question().starts_with("Stop task t03? Its replicas are ended now")
    })
    .await;
    find(&host, "[data-testid='list-stop-no']").click();
    until("the question closed", || !open()).await;
    assert!(
        !held_fetches().iter().any(|u| u.contains("/stop")),
        "nothing asked: {:?}",
        held_fetches()
    );

    // Asked and answered.
    stop.click();
    until("the question", open).await;
    find(&host, "[data-testid='list-stop-yes']").click();
    let asked = request_for("/api/v1/tasks/t00/stop").await;
    assert!(asked.contains("/api/v1/tasks/t00/stop"), "{asked}");
    let mut stopping = task("t00", TaskPhase::Running, TaskType::PyTorchJob);
    stopping.stopping_since = Some(Timestamp(1_700_000_080_000));
    answer_fetch(
        "/api/v1/tasks/t00/stop",
        &serde_json::to_string(&stopping).unwrap(),
    );
    until("the question closed", || !open()).await;
    until("its row says Stopping", || {
        find(&host, "tr[data-id='t00'] .phase")
            .get_attribute("data-phase")
            .as_deref()
            == Some("stopping")
    })
    .await;
    assert!(stop_in("t00").is_none(), "no second Stop");
    until("the keyboard on its row", || {
        focused_row().as_deref() == Some("t00")
    })
    .await;
    assert_eq!(
        find(&host, "[data-testid='list-stop-said']")
            .text_content()
            .unwrap(),
        "Stop was asked for t00: it ends once its replicas have exited."
    );
    finish(handle, &host, &address);
}

/// A stop the server refuses keeps its question open, saying why in the reader's words;
/// one refused as the task had ended, or whose task a refresh shows ended while it was
/// asked, says there is nothing left to stop, its Stop it off.
#[wasm_bindgen_test]
async fn a_refused_stop_from_the_list_says_why_in_its_question() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    answer_fetch("/api/v1/tasks?", &page_of(0, 3, None));
    until("the rows", || row_ids(&host).len() == 3).await;
    let open = || find(&host, "[data-testid='list-stop-confirm']").has_attribute("open");
    let said = || {
        host.query_selector("[data-testid='list-stop-error']")
            .unwrap()
            .and_then(|e| e.text_content())
    };
    let yes = || find(&host, "[data-testid='list-stop-yes']");
    let question = || find(&host, "#list-stop-text").text_content().unwrap();
    find(&host, "tr[data-id='t01'] [data-testid='row-stop']").click();
    until("the question", || {
        open() && question().starts_with("Stop task t01?")
    })
    .await;
    yes().click();
    request_for("/api/v1/tasks/t01/stop").await;
    refuse_fetch(
        "/api/v1/tasks/t01/stop",
        403,
        r#"{"type":"about:blank","title":"Forbidden","status":403,"code":"task.forbidden","detail":"not yours"}"#,
    );
    until("the refusal said", || said().is_some()).await;
    assert!(open(), "the question stays");
    assert_eq!(
        said().unwrap(),
        "The server refused: only the task's owner can do this (task.forbidden)"
    );
    assert_eq!(
        yes().get_attribute("aria-disabled"),
        None,
        "asked again, it may be"
    );
    // Ended meanwhile: the server's 409.
    yes().click();
    request_for("/api/v1/tasks/t01/stop").await;
    refuse_fetch(
        "/api/v1/tasks/t01/stop",
        409,
        r#"{"type":"about:blank","title":"Conflict","status":409,"code":"task.conflict","detail":"ended"}"#,
    );
    until("nothing left to stop", || {
        said().as_deref()
            == Some("The task ended, or its stop was asked elsewhere, while Stop was being asked: there is nothing left to stop.")
    })
    .await;
    assert_eq!(
        yes().get_attribute("aria-disabled").as_deref(),
        Some("true")
    );
    // The question's first sentence no longer holds: the task alone is named (sweep
    // recheck: "Stop task t01? Its replicas are ended now…" stood above it).
    assert_eq!(question(), "Task t01");
    yes().click();
    sleep(50).await;
    assert!(
        !held_fetches().iter().any(|u| u.contains("/stop")),
        "not asked again"
    );
    find(&host, "[data-testid='list-stop-no']").click();
    until("the question closed", || !open()).await;

    // A refresh shows t02 ended while its question is open.
    find(&host, "tr[data-id='t02'] [data-testid='row-stop']").click();
    until("the question", || {
        open()
            && find(&host, "#list-stop-text")
                .text_content()
                .unwrap()
                .contains("t02")
    })
    .await;
    assert_eq!(said(), None, "a new question says no old refusal");
    let page = page_of_edited(0, 3, |tasks| tasks[2].task.phase = TaskPhase::Succeeded);
    request_for("/api/v1/tasks?").await;
    answer_fetch("/api/v1/tasks?", &page);
    until("nothing left to stop", || {
        said().is_some_and(|s| s.contains("nothing left to stop"))
    })
    .await;
    assert_eq!(
        yes().get_attribute("aria-disabled").as_deref(),
        Some("true")
    );
    assert_eq!(question(), "Task t02");
    // Closed, the keyboard goes on from its row: the Stop that opened it has gone
    // (sweep recheck: the focus fell to the page's top).
    assert!(
        host.query_selector("tr[data-id='t02'] [data-testid='row-stop']")
            .unwrap()
            .is_none()
    );
    find(&host, "[data-testid='list-stop-no']").click();
    until("the focus on its row", || {
        focused_row().as_deref() == Some("t02")
    })
    .await;
    finish(handle, &host, &address);
}

/// A row's Stop sets it no taller than a row without one, in both languages, on a
/// laptop and a phone: the row keeps its height when its task ends and the Stop goes,
/// so the rows below stay where they were.
#[wasm_bindgen_test]
async fn a_rows_stop_makes_it_no_taller() {
    let address = fresh_page();
    for (width, lang) in [
        (1366, Lang::En),
        (1366, Lang::Zh),
        (390, Lang::En),
        (390, Lang::Zh),
    ] {
        let (host, frame) = framed_host(width);
        let tasks = RwSignal::new(vec![
            task("run-aaaaa", TaskPhase::Running, TaskType::PyTorchJob),
            task("run-bbbbb", TaskPhase::Succeeded, TaskType::PyTorchJob),
        ]);
        let handle = leptos::mount::mount_to(host.clone(), move || {
            UiLang::provide().set(lang);
            Nav::provide();
            let stop = ("alice".to_owned(), Callback::new(|_: String| {}));
            view! { <TaskTable tasks=tasks.into() stop /> }
        });
        leptos::task::tick().await;
        crate::after_paint().await;
        let height = |n: u32| {
            find(&host, &format!("tbody tr:nth-child({n})"))
                .get_bounding_client_rect()
                .height()
        };
        let with_stop = host
            .query_selector("tbody tr:nth-child(1) [data-testid='row-stop']")
            .unwrap()
            .is_some();
        let (running, ended) = (height(1), height(2));
        tasks.update(|t| t[0].stopping_since = Some(Timestamp(1_700_000_080_000)));
        leptos::task::tick().await;
        crate::after_paint().await;
        let stopping = height(1);
        drop(handle);
        frame.remove();
        assert!(with_stop, "{width} px, {lang:?}");
        assert_eq!((running, stopping), (ended, ended), "{width} px, {lang:?}");
    }
    restore_address(&address);
}

/// On a phone, which has no hover for its title, a waiting row's reason cut short shows
/// whole when pressed (or by Enter or Space from the keyboard), and cut again when
/// pressed again (phone explorer: "即使 Berth 的任务
/// 全部结束，空闲节点只…" could not be read in the list). Its Stop is a finger's target, 24 px
/// high, though it is drawn no taller than the phase's line (it was 44 × 20 px).
#[wasm_bindgen_test]
async fn a_phone_reads_a_cut_reason_whole_and_taps_a_rows_stop() {
    let address = fresh_page();
    let (host, frame) = framed_host(390);
    let mut queued = task("spot-big-9pk5b", TaskPhase::Queued, TaskType::PyTorchJob);
    let why = "即使 Berth 的任务全部结束，空闲节点只能同时容纳 7 个副本中的 4 个；任务在等待 Berth 之外占用的这些节点资源，它们不一定会释放；请联系集群管理员，或改选其他实例规格或资源池";
    queued.reason = Some(why.into());
    let tasks = RwSignal::new(vec![queued]);
    let handle = leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::Zh);
        Nav::provide();
        let stop = ("alice".to_owned(), Callback::new(|_: String| {}));
        view! { <TaskTable tasks=tasks.into() stop /> }
    });
    leptos::task::tick().await;
    crate::after_paint().await;
    let reason: HtmlElement = find(&host, "[data-testid='row-reason']").unchecked_into();
    let cut = |r: &HtmlElement| {
        r.scroll_width() > r.client_width() || r.scroll_height() > r.client_height()
    };
    let before = cut(&reason);
    reason.click();
    leptos::task::tick().await;
    crate::after_paint().await;
    let pressed = (cut(&reason), reason.get_bounding_client_rect().height());
    reason.click();
    leptos::task::tick().await;
    crate::after_paint().await;
    let again = cut(&reason);
    // The keyboard's too (low-vision recheck: a press or a tap only).
    let key = |key: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(key);
        init.set_bubbles(true);
        init.set_cancelable(true);
        let event =
            web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        reason.dispatch_event(&event).unwrap();
    };
    reason.focus().unwrap();
    let focused = host.owner_document().unwrap().active_element() == Some(reason.clone().into());
    key("Enter");
    leptos::task::tick().await;
    crate::after_paint().await;
    let by_keys = (
        cut(&reason),
        reason.get_attribute("aria-expanded"),
        reason.get_attribute("role"),
    );
    key(" ");
    leptos::task::tick().await;
    crate::after_paint().await;
    let by_keys_again = (cut(&reason), reason.get_attribute("aria-expanded"));
    // The points 12 px above and below the Stop's middle are the Stop's.
    let stop = find(&host, "[data-testid='row-stop']");
    let rect = stop.get_bounding_client_rect();
    let document = host.owner_document().unwrap();
    let (x, middle) = (
        rect.left() + rect.width() / 2.0,
        rect.top() + rect.height() / 2.0,
    );
    let hit = |y: f64| {
        document
            .element_from_point(x as f32, y as f32)
            .is_some_and(|e| e == *stop)
    };
    let (above, below) = (hit(middle - 11.5), hit(middle + 11.5));
    drop(handle);
    frame.remove();
    restore_address(&address);
    assert!(before, "cut on one line");
    assert!(
        !pressed.0 && pressed.1 > 40.0,
        "whole once pressed: {pressed:?}"
    );
    assert!(again, "cut again");
    assert!(focused, "takes the focus");
    assert_eq!(
        by_keys,
        (false, Some("true".into()), Some("button".into())),
        "whole by Enter"
    );
    assert_eq!(by_keys_again, (true, Some("false".into())), "cut by Space");
    assert!(rect.height() < 24.0, "drawn small: {}", rect.height());
    assert!(above && below, "a 24 px target: {above}, {below}");
}

/// On a phone at 400 % (320 CSS px), beside a name as wide as the name column gets, a
/// waiting row's reason stands within the table's box, and pressed it is whole there
/// (low-vision recheck: 16rem wide, its middle and end ran past the table's edge, and
/// pressing it showed nothing more).
#[wasm_bindgen_test]
async fn a_reason_on_a_phone_is_read_whole_within_the_tables_box() {
    let address = fresh_page();
    let (host, frame) = framed_host(320);
    let mut queued = task(
        "llama3-8b-sft-lr1e5-warmup-cosine-cf5vl",
        TaskPhase::Queued,
        TaskType::PyTorchJob,
    );
    queued.reason = Some("即使 Berth 的任务全部结束，空闲节点只能同时容纳 7 个副本中的 4 个；任务在等待 Berth 之外占用的这些节点资源".into());
    let tasks = RwSignal::new(vec![queued]);
    let handle = leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::Zh);
        Nav::provide();
        view! { <TaskTable tasks=tasks.into() /> }
    });
    leptos::task::tick().await;
    crate::after_paint().await;
    let reason: HtmlElement = find(&host, "[data-testid='row-reason']").unchecked_into();
    let table = find(&host, ".table-scroll").get_bounding_client_rect();
    let within = |r: &HtmlElement| {
        let at = r.get_bounding_client_rect();
        at.right() <= table.right() + 0.5 && at.left() >= table.left()
    };
    let before = within(&reason);
    reason.click();
    leptos::task::tick().await;
    crate::after_paint().await;
    let pressed = (
        within(&reason),
        reason.scroll_height() > reason.client_height(),
    );
    drop(handle);
    frame.remove();
    restore_address(&address);
    assert!(before, "within the table's box");
    assert_eq!(pressed, (true, false), "whole once pressed, in the box");
}

/// On a phone the line over the log box keeps room for three lines: its counts and
/// follow state wrapped to another line and back as the log grew, moving the box under
/// the reader (phone explorer and recheck). And the task page's boxes have 16 px text, which iOS
/// does not zoom into on focus (phone explorer: 13.6 px; the list's filters too).
#[wasm_bindgen_test]
async fn a_phones_log_box_stays_put_and_its_boxes_are_not_zoomed_into() {
    let address = fresh_page();
    let (host, frame) = framed_host(390);
    let running = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    let (host, handle) = mount_detail_page_into(host, &running, ("[]", 0), ("[]", 0)).await;
    until_found(&host, "the log box", ".log").await;
    crate::after_paint().await;
    let state = find(&host, "[data-testid='log-state']");
    let log_top = || find(&host, ".log").get_bounding_client_rect().top();
    let mut tops = Vec::new();
    // One line, two, and three: a count and the state of a log read once (recheck).
    for said in [
        "Following the log live…",
        "101 of 102 lines contain it. Following the log live, as it is written…",
        "379 of 379 lines contain it. The log as it was when read: Follow live shows what is written now.",
    ] {
        state.set_text_content(Some(said));
        crate::after_paint().await;
        tops.push(log_top());
    }
    let window = host.owner_document().unwrap().default_view().unwrap();
    let size = |selector: &str| {
        window
            .get_computed_style(&find(&host, selector))
            .unwrap()
            .unwrap()
            .get_property_value("font-size")
            .unwrap()
    };
    let sizes = ["[data-testid='log-filter']", "[data-testid='tag-key']"].map(size);
    finish(handle, &host, &address);
    frame.remove();
    assert!(tops.iter().all(|t| *t == tops[0]), "{tops:?}");
    assert_eq!(sizes, ["16px", "16px"]);
}

/// A reason that comes after a row was drawn, or a failure's that would take a second
/// line, is marked to wait while a pointer rests on the table (pages.css hides it under
/// the list's `pointer-here`): a run that failed under the pointer moved every row below by two lines
/// (sweep recheck). A row drawn failed, or waiting, shows its reason as before.
#[wasm_bindgen_test]
async fn a_reason_that_comes_late_is_marked_to_wait_for_the_pointer() {
    let address = fresh_page();
    let failed = |id: &str| {
        let mut t = task(id, TaskPhase::Failed, TaskType::PyTorchJob);
        t.task.history.last_mut().unwrap().reason =
            "replica 0 (master) ended with exit code 3".into();
        t
    };
    let mut queued = task("q", TaskPhase::Queued, TaskType::PyTorchJob);
    queued.reason = Some("no room".into());
    let tasks = RwSignal::new(vec![
        task("r", TaskPhase::Running, TaskType::PyTorchJob),
        failed("f"),
        queued.clone(),
    ]);
    let host = mount(move || view! { <TaskTable tasks=tasks.into() /> });
    leptos::task::tick().await;
    // Its classes, in order of name.
    let classes = |id: &str| {
        host.query_selector(&format!("tr[data-id='{id}'] [data-testid='row-reason']"))
            .unwrap()
            .map(|e| {
                let mut names: Vec<String> = e
                    .get_attribute("class")
                    .unwrap_or_default()
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect();
                names.sort();
                names.join(" ")
            })
    };
    assert_eq!(classes("r"), None, "a running row has no reason");
    assert_eq!(classes("f").as_deref(), Some("ended waits"));
    assert_eq!(classes("q").as_deref(), Some("failed-late waits"));
    tasks.set(vec![failed("r"), failed("f"), failed("q")]);
    leptos::task::tick().await;
    assert_eq!(
        classes("r").as_deref(),
        Some("appeared ended failed-late waits")
    );
    assert_eq!(classes("f").as_deref(), Some("ended waits"));
    assert_eq!(classes("q").as_deref(), Some("ended failed-late waits"));
    host.remove();
    restore_address(&address);
}

/// Under a pointer resting on the table (the list's `pointer-here`), a row whose
/// task fails keeps its height, its reason held until the pointer leaves; then it shows,
/// a failure's two lines (sweep recheck: the show rule outranked the hold, and the row
/// grew by a line under the pointer).
#[wasm_bindgen_test]
async fn a_row_that_fails_under_a_resting_pointer_keeps_its_height() {
    let address = fresh_page();
    let (host, frame) = framed_host(1366);
    let tasks = RwSignal::new(vec![
        task("run-aaaaa", TaskPhase::Running, TaskType::PyTorchJob),
        task("run-bbbbb", TaskPhase::Running, TaskType::PyTorchJob),
    ]);
    let handle = leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! { <TaskTable tasks=tasks.into() /> }
    });
    leptos::task::tick().await;
    crate::after_paint().await;
    host.class_list().add_1("pointer-here").unwrap();
    let top = |n: u32| {
        find(&host, &format!("tbody tr:nth-child({n})"))
            .get_bounding_client_rect()
            .top()
    };
    let (first, second) = (top(1), top(2));
    tasks.update(|t| {
        t[0].task.phase = TaskPhase::Failed;
        t[0].task.history.last_mut().unwrap().phase = TaskPhase::Failed;
        t[0].task.history.last_mut().unwrap().reason =
            "after 4 attempts; the last: replica 0 (master) ended with exit code 3".into();
    });
    leptos::task::tick().await;
    crate::after_paint().await;
    let (held, reason_there) = (
        top(2),
        host.query_selector("[data-testid='row-reason']")
            .unwrap()
            .is_some(),
    );
    host.class_list().remove_1("pointer-here").unwrap();
    crate::after_paint().await;
    let (after, first_after) = (top(2), top(1));
    drop(handle);
    frame.remove();
    restore_address(&address);
    assert!(reason_there, "the reason is in the row");
    assert_eq!(held, second, "held under the pointer");
    assert_eq!(first_after, first);
    assert!(
        after > second,
        "shown once the pointer left: {after} vs {second}"
    );
}

/// Back at a list from a task stopped on its page, whose row has left the list (a
/// Running list), the keyboard goes on from the row after it, not from the page's top
/// (sweep explorer).
#[wasm_bindgen_test]
async fn back_at_the_list_the_focus_goes_on_from_a_row_that_left() {
    use frontend::pages::task_list::ListMemory;
    let window = web_sys::window().unwrap();
    let address = fresh_page();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/?phase=running"))
        .unwrap();
    hold_fetches();
    let host = crate::new_host();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        ListMemory::provide();
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! { <frontend::Page session=demo_session() /> }.into_any()
    });
    let on_list = || host.query_selector(".task-list").unwrap().is_some();
    until("the first page's request", || {
        held_fetches().iter().any(|u| u.contains("/api/v1/tasks?"))
    })
    .await;
    answer_fetch("/api/v1/tasks?", &page_of(0, 8, None));
    until("the rows", || row_ids(&host).len() == 8).await;
    find(&host, "tr[data-id='t05'] [data-testid='task-link']").click();
    until("the task's page", || !on_list()).await;
    release_fetches();
    hold_fetches();
    find(&host, "[data-testid='back']").click();
    until("the list", on_list).await;
    until("the focus on t05's row", || {
        focused_row().as_deref() == Some("t05")
    })
    .await;
    // The refresh: t05 was stopped on its page, so it is no longer running.
    let asked = request_for("/api/v1/tasks?").await;
    assert!(asked.contains("phase=running"), "{asked}");
    let page = page_of_edited(0, 8, |tasks| tasks.retain(|t| t.task.id.0 != "t05"));
    answer_fetch("/api/v1/tasks?", &page);
    until("t05 gone", || !row_ids(&host).contains(&"t05".to_owned())).await;
    until("the focus on the next row", || {
        focused_row().as_deref() == Some("t06")
    })
    .await;
    finish(handle, &host, &address);
}

/// On a touch screen, a touch on the table (a tap, a scroll) keeps a row that leaves the
/// list in its place as a pointer over it does: a finger has no hover, and rows were
/// never kept there (midday session's known gap).
#[wasm_bindgen_test]
async fn a_touch_on_the_table_keeps_a_row_that_leaves_in_place() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    answer_fetch("/api/v1/tasks?", &page_of(0, 6, None));
    until("the rows", || row_ids(&host).len() == 6).await;
    js_sys::eval(
        "document.querySelector(\"[data-testid='task-table']\").dispatchEvent(\
         new PointerEvent('pointerdown', { pointerType: 'touch', bubbles: true }))",
    )
    .unwrap();
    request_for("/api/v1/tasks?").await;
    let page = page_of_edited(0, 6, |tasks| {
        tasks.remove(2);
    });
    answer_fetch("/api/v1/tasks?", &page);
    until_found(
        &host,
        "the row said to have left",
        "tr[data-id='t02'] [data-testid='row-left']",
    )
    .await;
    assert_eq!(row_ids(&host).len(), 6, "no row moved");
    finish(handle, &host, &address);
}

/// A mouse resting on the table holds late reasons (`pointer-here`); a touch does not:
/// `:hover`, which held them before, stays set after a finger has gone, and a reason
/// that came waited for the next touch elsewhere (evening session's known gap).
#[wasm_bindgen_test]
async fn only_a_resting_mouse_holds_late_reasons_not_a_touch() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    answer_fetch("/api/v1/tasks?", &page_of(0, 3, None));
    until("the rows", || row_ids(&host).len() == 3).await;
    let enter = |kind: &str, event: &str| {
        js_sys::eval(&format!(
            "document.querySelector('.table-scroll').parentElement.dispatchEvent(\
             new PointerEvent('{event}', {{ pointerType: '{kind}' }}))"
        ))
        .unwrap();
    };
    let held = || {
        host.query_selector(".pointer-here [data-testid='task-table']")
            .unwrap()
            .is_some()
    };
    assert!(!held(), "nothing rests on it yet");
    enter("touch", "pointerenter");
    leptos::task::tick().await;
    assert!(!held(), "a finger holds nothing");
    enter("touch", "pointerleave");
    enter("mouse", "pointerenter");
    until("a mouse holds them", held).await;
    enter("mouse", "pointerleave");
    until("let go as it leaves", || !held()).await;
    finish(handle, &host, &address);
}

/// A task that enters the list below its top while the reader is at the table (its
/// phase now the filter's) waits with the new ones behind "Show 1 new", and comes in at
/// its place in the list's order when asked for (sweep explorer: put in at once, it moved
/// every row below it under a still pointer).
#[wasm_bindgen_test]
async fn a_task_entering_below_the_top_waits_while_the_reader_is_at_the_table() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let ids = || row_ids(&host);
    let names: Vec<String> = (0..20).map(|i| format!("t{i:02}")).collect();
    answer_fetch("/api/v1/tasks?", &page_of(0, 20, None));
    until("the rows", || ids().len() == 20).await;
    let link: HtmlElement =
        find(&host, "tr[data-id='t08'] [data-testid='task-link']").unchecked_into();
    link.focus().unwrap();
    // The refresh: tx, submitted between t09 and t10, has entered the list.
    let mut page: shared::api::TaskPage = serde_json::from_str(&page_of(0, 20, None)).unwrap();
    let mut entered = task("tx", TaskPhase::Running, TaskType::PyTorchJob);
    entered.task.created_at = Timestamp(1_700_000_000_000 + (10_000 - 9) * 1000 - 500);
    page.tasks.insert(10, entered);
    until("a refresh", || {
        held_fetches().iter().any(|u| u.contains("/api/v1/tasks?"))
    })
    .await;
    answer_fetch("/api/v1/tasks?", &serde_json::to_string(&page).unwrap());
    until_found(&host, "the new task held", "[data-testid='list-arrived']").await;
    assert_eq!(ids(), names, "no row moved");
    assert_eq!(
        find(&host, "[data-testid='list-arrived']")
            .text_content()
            .unwrap(),
        "Show 1 new"
    );
    find(&host, "[data-testid='list-arrived']").click();
    until("it came in", || ids().len() == 21).await;
    let mut expected = names.clone();
    expected.insert(10, "tx".to_owned());
    assert_eq!(ids(), expected, "in its place");
    finish(handle, &host, &address);
}

/// A row kept in place after its task left the list counts its run to the last read
/// that listed it, not on at each refresh (coordinator explorer: a stopped task's 13 s
/// grew to 25 s while its row stayed, "no longer in this list").
#[wasm_bindgen_test]
async fn a_row_that_left_the_list_stops_counting_its_run() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let started = js_sys::Date::now() as i64 - 10_000;
    let running = |i: usize| {
        let mut view = task(
            &format!("t{i:02}"),
            TaskPhase::Running,
            TaskType::PyTorchJob,
        );
        view.task.history.last_mut().unwrap().at = Timestamp(started);
        view
    };
    let page = |ids: &[usize]| {
        serde_json::to_string(&shared::api::TaskPage {
            tasks: ids.iter().map(|i| running(*i)).collect(),
            next: None,
        })
        .unwrap()
    };
    answer_fetch("/api/v1/tasks?", &page(&[0, 1, 2]));
    until("the rows", || row_ids(&host).len() == 3).await;
    // The reader at the table, so the row that leaves stays.
    let link: HtmlElement =
        find(&host, "tr[data-id='t02'] [data-testid='task-link']").unchecked_into();
    link.focus().unwrap();
    let ran = |id: &str| {
        find(
            &host,
            &format!("tr[data-id='{id}'] [data-testid='row-ran']"),
        )
        .text_content()
        .unwrap()
    };
    let (left_before, listed_before) = (ran("t01"), ran("t00"));
    until("a refresh", || {
        held_fetches().iter().any(|u| u.contains("/api/v1/tasks?"))
    })
    .await;
    answer_fetch("/api/v1/tasks?", &page(&[0, 2]));
    until_found(
        &host,
        "the row said to have left",
        "tr[data-id='t01'] [data-testid='row-left']",
    )
    .await;
    // A refresh comes 4 s after the last: a listed task's run has grown meanwhile.
    assert_ne!(ran("t00"), listed_before, "the clock moved");
    assert_eq!(ran("t01"), left_before, "counted to its last listing");
    release_fetches();
    finish(handle, &host, &address);
}

/// A task that leaves a filtered list while the reader is at the table (here, the
/// keyboard's focus on a row below) stays where it was, saying it left, so no row moves
/// under the pointer (busy explorer: a click opened the next task); the count is the
/// list's. Once the reader has left the table, the next refresh takes it out. On a list
/// with More, whose refreshed page reaches a row not yet shown (review: nothing was kept).
#[wasm_bindgen_test]
async fn a_task_that_leaves_the_list_stays_in_place_while_the_reader_is_at_it() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let ids = || row_ids(&host);
    let names = |range: std::ops::Range<usize>| -> Vec<String> {
        range.map(|i| format!("t{i:02}")).collect()
    };
    answer_fetch("/api/v1/tasks?", &page_of(0, 20, Some("c1")));
    until("the rows", || ids().len() == 20).await;
    let link: HtmlElement =
        find(&host, "tr[data-id='t08'] [data-testid='task-link']").unchecked_into();
    link.focus().unwrap();
    assert!(
        link.matches(":focus-visible").unwrap(),
        "a keyboard's focus"
    );
    // The server's answer without t05, which has ended: its page reaches t20, not shown.
    let refresh = || async {
        until("a refresh", || {
            held_fetches().iter().any(|u| u.contains("/api/v1/tasks?"))
        })
        .await;
        let asked = held_fetches()
            .into_iter()
            .find(|u| u.contains("/api/v1/tasks?"))
            .unwrap();
        assert_eq!(limit_asked(&asked), 20, "the rows of the list: {asked}");
        let tasks: Vec<TaskView> = (0..21)
            .filter(|i| *i != 5)
            .map(|i| {
                task(
                    &format!("t{i:02}"),
                    TaskPhase::Running,
                    TaskType::PyTorchJob,
                )
            })
            .collect();
        answer_fetch(
            "/api/v1/tasks?",
            &serde_json::to_string(&shared::api::TaskPage {
                tasks,
                next: Some("c2".into()),
            })
            .unwrap(),
        );
    };
    refresh().await;
    until_found(
        &host,
        "the row said to have left",
        "tr[data-id='t05'] [data-testid='row-left']",
    )
    .await;
    assert_eq!(ids(), names(0..21), "no row moved");
    assert_eq!(
        find(&host, "tr[data-id='t05'] [data-testid='row-left']")
            .text_content()
            .unwrap(),
        "No longer in this list"
    );
    // How it is now, read as it left: said in its place (sweep explorer).
    until("the task that left asked for", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("/api/v1/tasks/t05?"))
    })
    .await;
    answer_fetch(
        "/api/v1/tasks/t05?",
        &serde_json::to_string(&task("t05", TaskPhase::Failed, TaskType::PyTorchJob)).unwrap(),
    );
    until("how it is now", || {
        find(&host, "tr[data-id='t05'] [data-testid='row-left']")
            .text_content()
            .as_deref()
            == Some("No longer in this list: now Failed")
    })
    .await;
    assert!(
        find(&host, "[data-testid='list-status']")
            .text_content()
            .unwrap()
            .starts_with("20 shown")
    );
    // Still at the table: the next refresh keeps it, and asks how its task is now again:
    // deleted since it left is said so (phone recheck: it still read "now Stopped").
    refresh().await;
    sleep(100).await;
    assert_eq!(ids(), names(0..21));
    until("the task that left asked for again", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("/api/v1/tasks/t05?"))
    })
    .await;
    refuse_fetch(
        "/api/v1/tasks/t05?",
        410,
        r#"{"type":"about:blank","title":"Gone","status":410,"code":"task.deleted","detail":"deleted"}"#,
    );
    until("said deleted now", || {
        find(&host, "tr[data-id='t05'] [data-testid='row-left']")
            .text_content()
            .as_deref()
            == Some("No longer in this list: deleted")
    })
    .await;
    // The reader leaves the table: the next refresh takes the row out.
    link.blur().unwrap();
    refresh().await;
    until("the row gone", || ids().len() == 20).await;
    assert!(!ids().contains(&"t05".to_owned()));
    finish(handle, &host, &address);
}

/// A row kept after it left stays said to have left when tasks new at the top push the
/// refreshed page's end above it (review: it came back as a row of the list below the
/// page, its old phase said as now, and the new tasks were no longer held).
#[wasm_bindgen_test]
async fn a_kept_row_stays_kept_when_new_tasks_push_the_page_above_it() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let ids = || row_ids(&host);
    let answer = |ids: Vec<String>| async move {
        until("a refresh", || {
            held_fetches().iter().any(|u| u.contains("/api/v1/tasks?"))
        })
        .await;
        let tasks: Vec<TaskView> = ids
            .iter()
            .map(|id| task(id, TaskPhase::Running, TaskType::PyTorchJob))
            .collect();
        answer_fetch(
            "/api/v1/tasks?",
            &serde_json::to_string(&shared::api::TaskPage {
                tasks,
                next: Some("c2".into()),
            })
            .unwrap(),
        );
    };
    let named = |range: std::ops::Range<usize>| -> Vec<String> {
        range.map(|i| format!("t{i:02}")).collect()
    };
    answer_fetch("/api/v1/tasks?", &page_of(0, 20, Some("c1")));
    until("the rows", || ids().len() == 20).await;
    let link: HtmlElement =
        find(&host, "tr[data-id='t03'] [data-testid='task-link']").unchecked_into();
    link.focus().unwrap();
    // t18 has ended: kept in its place.
    answer([named(0..18), named(19..21)].concat()).await;
    until_found(
        &host,
        "t18 said to have left",
        "tr[data-id='t18'] [data-testid='row-left']",
    )
    .await;
    // Two new tasks: the page ends at t17, above the kept row.
    answer([vec!["n2".to_owned(), "n1".to_owned()], named(0..18)].concat()).await;
    until_found(&host, "the new tasks held", "[data-testid='list-arrived']").await;
    sleep(100).await;
    assert_eq!(ids(), named(0..21), "no row moved, none came in");
    assert!(
        host.query_selector("tr[data-id='t18'] [data-testid='row-left']")
            .unwrap()
            .is_some(),
        "t18 is still said to have left"
    );
    // Deleted since: said so.
    refuse_fetch(
        "/api/v1/tasks/t18?",
        410,
        r#"{"type":"about:blank","title":"Gone","status":410,"code":"task.deleted","detail":"deleted"}"#,
    );
    until("t18 said deleted", || {
        find(&host, "tr[data-id='t18'] [data-testid='row-left']")
            .text_content()
            .as_deref()
            == Some("No longer in this list: deleted")
    })
    .await;
    finish(handle, &host, &address);
}

/// A first page the server failed to give is asked for again by the live refresh, and
/// the list comes when it answers (the review's guard against refreshing before a
/// filter's first page had stopped it for good).
#[wasm_bindgen_test]
async fn a_list_whose_first_page_failed_comes_with_the_next_refresh() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let rows = || host.query_selector_all("tbody tr").unwrap().length() as usize;
    refuse_fetch(
        "/api/v1/tasks?",
        503,
        r#"{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"busy","code":"server.unavailable"}"#,
    );
    until_found(&host, "the error", "[role='alert']").await;
    until("the refresh's request", || {
        held_fetches().iter().any(|u| u.contains("/api/v1/tasks?"))
    })
    .await;
    answer_fetch("/api/v1/tasks?", &page_of(0, 3, None));
    until("the rows", || rows() == 3).await;
    finish(handle, &host, &address);
}

/// A list with More still to load holds a task new at the top without losing a row at
/// its bottom or moving its cursor (review: the page of 20 asked again held the new one
/// and showed 19, and each arrival took one more).
#[wasm_bindgen_test]
async fn a_refresh_of_a_list_with_more_keeps_its_rows_while_a_task_is_held() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let rows = || host.query_selector_all("tbody tr").unwrap().length() as usize;
    let row = |id: &str| {
        host.query_selector(&format!("tr[data-id='{id}']"))
            .unwrap()
            .is_some()
    };
    // Newest first: t00 is new, t01..t20 the first page shown.
    answer_fetch("/api/v1/tasks?", &page_of(1, 21, Some("c1")));
    until("the first page", || rows() == 20).await;
    for round in 0..2 {
        let asked = loop {
            if let Some(url) = held_fetches().iter().find(|u| u.contains("/api/v1/tasks?")) {
                break url.clone();
            }
            sleep(50).await;
        };
        // The server answers as it would: the newest `limit`, and a cursor.
        let limit = limit_asked(&asked);
        answer_fetch("/api/v1/tasks?", &page_of(0, limit, Some("c9")));
        until("the new task held", || {
            host.query_selector("[data-testid='list-arrived']")
                .unwrap()
                .is_some()
        })
        .await;
        sleep(100).await;
        assert_eq!(rows(), 20, "round {round}: no row lost");
        assert!(row("t20"), "round {round}: the last row stays");
        assert!(!row("t00"), "round {round}: the new task waits");
    }
    // More asks after the last row shown, as before the arrival.
    find(&host, "[data-testid='list-more']").click();
    until("More's request", || {
        held_fetches().iter().any(|u| u.contains("cursor=c1"))
    })
    .await;
    finish(handle, &host, &address);
}

/// A sweep of new tasks, more than the rows shown, over a list with More: they wait
/// above the rows, which keep their place and the focus, and More still leads on from
/// the last row shown (lead explorer: 22 new tasks replaced the 20 rows read).
#[wasm_bindgen_test]
async fn a_sweep_of_new_tasks_over_a_list_with_more_waits_above_its_rows() {
    for new in [22, 45] {
        let address = fresh_page();
        let (host, handle) = list_page_asked().await;
        let rows = || host.query_selector_all("tbody tr").unwrap().length() as usize;
        let row = |id: String| {
            host.query_selector(&format!("tr[data-id='{id}']"))
                .unwrap()
                .is_some()
        };
        // Newest first: t00.. are new; the first page shown is the 20 after them.
        answer_fetch("/api/v1/tasks?", &page_of(new, new + 20, Some("c1")));
        until("the first page", || rows() == 20).await;
        let link: HtmlElement = find(
            &host,
            &format!("tr[data-id='t{:02}'] [data-testid='task-link']", new + 5),
        )
        .unchecked_into();
        link.focus().unwrap();
        // The server answers each ask as it would, from 200 tasks; each ask after a
        // page of new tasks alone goes further.
        let mut before = 0;
        loop {
            let limit = limit_asked(&request_for("/api/v1/tasks?").await);
            assert!(
                limit > before,
                "{new} new: asked for {limit} after {before}"
            );
            answer_fetch("/api/v1/tasks?", &page_of(0, limit, Some("c9")));
            if limit > new {
                break;
            }
            before = limit;
        }
        until("the new tasks held", || {
            host.query_selector("[data-testid='list-arrived']")
                .unwrap()
                .is_some()
        })
        .await;
        sleep(100).await;
        assert_eq!(rows(), 20, "{new} new: the rows shown stay");
        assert!(row(format!("t{new:02}")) && row(format!("t{:02}", new + 19)));
        assert!(!row("t00".into()), "{new} new: they wait");
        assert_eq!(
            find(&host, "[data-testid='list-arrived']")
                .text_content()
                .unwrap(),
            format!("Show {new} new")
        );
        assert!(link.is_connected() && document().active_element() == Some(link.clone().into()));
        // More asks after the last row shown, as before the sweep.
        find(&host, "[data-testid='list-more']").click();
        until("More's request", || {
            held_fetches().iter().any(|u| u.contains("cursor=c1"))
        })
        .await;
        finish(handle, &host, &address);
    }
}

/// A refresh whose page reaches none of the rows shown because they left the filter (a
/// `running` list whose rows all ended), not because new tasks came above them, asks no
/// further (review: it asked for 40, 80… up to a thousand rows).
#[wasm_bindgen_test]
async fn rows_that_all_left_the_filter_are_not_taken_for_a_sweep() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let rows = || host.query_selector_all("tbody tr").unwrap().length() as usize;
    answer_fetch("/api/v1/tasks?", &page_of(10, 30, Some("c1")));
    until("the first page", || rows() == 20).await;
    let limit = limit_asked(&request_for("/api/v1/tasks?").await);
    assert_eq!(limit, 20);
    // Every row shown has ended: the filter's page is of older tasks.
    answer_fetch("/api/v1/tasks?", &page_of(30, 50, Some("c2")));
    let next = limit_asked(&request_for("/api/v1/tasks?").await);
    assert_eq!(next, 20, "asked no further");
    finish(handle, &host, &address);
}

/// So many new tasks that the refreshed page reaches none of the rows shown: the list
/// asks further until it does, and they wait above the rows as fewer do (lead explorer:
/// they replaced every row read, and the focus with them).
#[wasm_bindgen_test]
async fn a_refresh_of_a_whole_list_that_reaches_no_row_shown_asks_further() {
    whole_list_refresh(61).await;
}

/// Forty tasks loaded in two pages, then `new` submitted: each refresh is answered as
/// the server would; the new wait on the status line until asked for, and then every
/// one of the forty and the new shows, with no More.
async fn whole_list_refresh(new: usize) {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let rows = || host.query_selector_all("tbody tr").unwrap().length() as usize;
    let more = || {
        host.query_selector("[data-testid='list-more']")
            .unwrap()
            .is_some()
    };
    // Newest first: the new tasks are t00.., the forty after them.
    let (first, all) = (new, new + 40);
    answer_fetch("/api/v1/tasks?", &page_of(first, first + 20, Some("c1")));
    until("the first page", || rows() == 20).await;
    find(&host, "[data-testid='list-more']").click();
    until("More's request", || {
        held_fetches().iter().any(|u| u.contains("cursor=c1"))
    })
    .await;
    answer_fetch("cursor=c1", &page_of(first + 20, all, None));
    until("the last page", || rows() == 40 && !more()).await;
    // A refresh asked for the 20 rows before "More" answered is dropped whatever it
    // says; the next asks for the 40.
    let asked = loop {
        let urls = held_fetches();
        if urls.iter().any(|u| u.contains("limit=20")) {
            answer_fetch("limit=20", &page_of(first, first + 20, Some("c1")));
        } else if let Some(url) = urls.iter().find(|u| u.contains("/api/v1/tasks?")) {
            break url.clone();
        }
        sleep(50).await;
    };
    // The server answers as it would: at most `limit` rows, and a cursor when more; a
    // page of new tasks alone is asked for further.
    let mut asked = asked;
    loop {
        let limit = limit_asked(&asked);
        let next = (limit < all).then_some("c2");
        answer_fetch("/api/v1/tasks?", &page_of(0, all.min(limit), next));
        if all.min(limit) > new {
            break;
        }
        asked = request_for("/api/v1/tasks?").await;
        assert!(limit_asked(&asked) > limit, "{asked} after {limit}");
    }
    let newest = || host.query_selector("tr[data-id='t00']").unwrap().is_some();
    // The new tasks wait above the rows, on the status line: no row moves.
    let arrived = || host.query_selector("[data-testid='list-arrived']").unwrap();
    until("the new tasks held", || arrived().is_some()).await;
    assert_eq!(rows(), 40, "the rows shown stay where they were");
    assert!(!newest());
    let button: HtmlElement = arrived().unwrap().unchecked_into();
    assert_eq!(button.text_content().unwrap(), format!("Show {new} new"));
    // Pressed as a reader does, by pointer or keyboard: the button has the focus.
    button.focus().unwrap();
    button.click();
    until("the new tasks", newest).await;
    assert!(arrived().is_none());
    // The focus was on the button, which went: it is on the newest task's link.
    until("the focus on the newest task", || {
        document()
            .active_element()
            .and_then(|e| e.closest("tr").ok().flatten())
            .is_some_and(|row| row.get_attribute("data-id").as_deref() == Some("t00"))
    })
    .await;
    assert_eq!(rows(), all, "the oldest rows stay");
    let oldest = format!("tr[data-id='t{:02}']", all - 1);
    assert!(
        host.query_selector(&oldest).unwrap().is_some(),
        "the oldest task is still listed"
    );
    assert!(!more(), "every task is shown: no More");
    finish(handle, &host, &address);
}

/// The whole console mounted in English (the language it starts in is the stored one),
/// its fetches held, once it has asked for its catalog.
async fn console_in_english() -> (
    HtmlElement,
    leptos::mount::UnmountHandle<impl leptos::tachys::view::Mountable>,
    String,
) {
    let address = fresh_page();
    web_sys::window()
        .unwrap()
        .local_storage()
        .unwrap()
        .unwrap()
        .set_item("berth.lang", "en")
        .unwrap();
    hold_fetches();
    let host = crate::new_host();
    let handle = leptos::mount::mount_to(host.clone(), frontend::App);
    until("the catalog's request", || {
        held_fetches().iter().any(|u| u.contains("/api/v1/catalog"))
    })
    .await;
    (host, handle, address)
}

/// The catalog could not be loaded (the server was restarting): "Try again" asks again
/// without a reload, and the page then opens.
#[wasm_bindgen_test]
async fn a_failed_catalog_load_is_tried_again_in_place() {
    let (host, handle, address) = console_in_english().await;
    let failed = || {
        host.query_selector("[data-testid='load-failed']")
            .unwrap()
            .is_some()
    };
    fail_fetch("/api/v1/catalog");
    until("the failure", failed).await;
    // In words, with what to do: not the browser's "TypeError: Failed to fetch".
    assert_eq!(
        find(&host, "[data-testid='load-failed'] .message")
            .text_content()
            .unwrap(),
        "Could not load the catalog: Cannot reach the server: check your connection, or \
         wait for the server to be back, then try again."
    );

    let again = find(&host, "[data-testid='load-again']");
    again.click();
    until("the catalog asked again", || {
        held_fetches().iter().any(|u| u.contains("/api/v1/catalog"))
    })
    .await;
    // Meanwhile the button says it is loading, and a second click asks nothing more.
    assert!(again.has_attribute("disabled"));
    assert_eq!(again.text_content().unwrap(), "Loading the catalog…");
    let answer = demo_session();
    answer_fetch("/api/v1/catalog", &serde_json::to_string(&answer).unwrap());
    until("the page", || {
        !failed() && host.query_selector(".loading").unwrap().is_none()
    })
    .await;
    finish(handle, &host, &address);
}

/// A reader not signed in (a share link opened in another browser) is asked to sign in,
/// not told the catalog failed (the explorer, round 9).
#[wasm_bindgen_test]
async fn a_reader_not_signed_in_is_asked_to_sign_in() {
    let (host, handle, address) = console_in_english().await;
    refuse_fetch(
        "/api/v1/catalog",
        401,
        r#"{"type":"about:blank","title":"Unauthorized","status":401,"detail":"not signed in","code":"auth.required"}"#,
    );
    until("the refusal", || {
        host.query_selector("[data-testid='load-failed']")
            .unwrap()
            .is_some()
    })
    .await;
    assert_eq!(
        find(&host, "[data-testid='load-failed'] .message")
            .text_content()
            .unwrap(),
        "You are not signed in, or your sign-in has expired: sign in, then try again."
    );
    finish(handle, &host, &address);
}

/// The console opened at `/new` asks for the catalog once: the form opens with the use
/// the console has just read, not asking for it again at once (it asked twice).
#[wasm_bindgen_test]
async fn the_first_load_at_the_form_asks_for_the_catalog_once() {
    let address = fresh_page();
    crate::forget_drafts();
    web_sys::window()
        .unwrap()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/new"))
        .unwrap();
    hold_fetches();
    let host = crate::new_host();
    let handle = leptos::mount::mount_to(host.clone(), frontend::App);
    let catalog_asks = || {
        held_fetches()
            .iter()
            .filter(|u| u.contains("/api/v1/catalog"))
            .count()
    };
    until("the catalog's request", || catalog_asks() == 1).await;
    answer_fetch(
        "/api/v1/catalog",
        &serde_json::to_string(&demo_session()).unwrap(),
    );
    until_found(&host, "the create form", "[name='basic.name_prefix']").await;
    sleep(300).await;
    assert_eq!(held_fetches(), Vec::<String>::new());
    // Back in the window, the use is asked for again, as it always is.
    web_sys::window()
        .unwrap()
        .dispatch_event(&web_sys::Event::new("focus").unwrap())
        .unwrap();
    until("the use asked again", || catalog_asks() == 1).await;
    finish(handle, &host, &address);
    crate::forget_drafts();
}

/// A move to another page puts the focus at the page's start (the main region), as a page
/// load does: it fell to the body when the link or button that had it went with its page.
#[wasm_bindgen_test]
async fn a_move_to_another_page_puts_the_focus_at_its_start() {
    let address = fresh_page();
    crate::forget_drafts();
    hold_fetches();
    let host = crate::new_host();
    let handle = leptos::mount::mount_to(host.clone(), frontend::App);
    until("the catalog's request", || {
        held_fetches().iter().any(|u| u.contains("/api/v1/catalog"))
    })
    .await;
    let answer = demo_session();
    answer_fetch("/api/v1/catalog", &serde_json::to_string(&answer).unwrap());
    until("the page", || {
        host.query_selector(".loading").unwrap().is_none()
    })
    .await;
    let focused = || {
        document()
            .active_element()
            .map(|e| e.id())
            .unwrap_or_default()
    };
    // Loading the first page moves nothing.
    assert_ne!(focused(), "content");
    let new = find(&host, "[data-testid='nav-new']");
    new.focus().unwrap();
    new.click();
    until_found(&host, "the create form", "[name='basic.name_prefix']").await;
    assert_eq!(focused(), "content");
    // Named for the page, which a screen reader says as the focus lands (screen-reader
    // explorer: it said only "main").
    assert_eq!(
        find(&host, "main#content")
            .get_attribute("aria-label")
            .as_deref(),
        Some("Create training task")
    );
    finish(handle, &host, &address);
}

/// The console's page at `/new?clone=<id>`, with no draft saved before, once it has
/// asked for the task's spec (held, for the test to answer).
async fn mount_clone_page(
    id: &'static str,
) -> (
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
) {
    crate::forget_drafts();
    hold_fetches();
    let (host, handle, _) = mount_page_at(Route::New {
        clone: Some(id.into()),
    });
    until("the clone's request", || {
        held_fetches().iter().any(|u| u.contains(id))
    })
    .await;
    (host, handle)
}

/// The spec a clone's task is answered with: the demo's, named `source`, with a webhook
/// alert whose token others never read ([`CLONE_HOOK`]).
fn clone_source() -> String {
    let mut spec = shared::demo::pytorch();
    spec.basic.name_prefix = "source".into();
    spec.advanced.alerts.push(shared::task::Alert {
        channel: shared::task::AlertChannel::Webhook,
        target: CLONE_HOOK.into(),
        ..Default::default()
    });
    serde_json::to_string(&spec).unwrap()
}

/// The form's name prefix box, once shown.
fn name_prefix(host: &HtmlElement) -> Option<web_sys::HtmlInputElement> {
    host.query_selector("[name='basic.name_prefix']")
        .unwrap()
        .map(|e| e.unchecked_into())
}

/// The webhook of [`clone_source`]'s alert, its token in its path.
const CLONE_HOOK: &str = "https://hooks.example.com/services/T0/s3cr3t-token";

/// Answers the request for the task `id` a clone copies with [`clone_source`] and waits
/// for the cloned form.
async fn answer_clone(host: &HtmlElement, id: &str) {
    answer_fetch(id, &clone_source());
    until("the cloned form", || {
        name_prefix(host).is_some_and(|p| p.value() == "source")
    })
    .await;
}

/// [`mount_clone_page`] on a fresh page, its task answered ([`answer_clone`]): the
/// cloned form, and the address to put back at the end.
async fn cloned_form(
    id: &'static str,
) -> (
    String,
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
) {
    let address = fresh_page();
    let (host, handle) = mount_clone_page(id).await;
    answer_clone(&host, id).await;
    (address, host, handle)
}

/// [`answer_clone`], then types `my-edit` over the form's name prefix.
async fn edit_clone(host: &HtmlElement, id: &str) {
    answer_clone(host, id).await;
    let input = name_prefix(host).unwrap();
    input.set_value("my-edit");
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    leptos::task::tick().await;
}

/// The console's pages mounted at `route`, in English, with the page's language and
/// navigation to move on with.
fn mount_page_at(
    route: Route,
) -> (
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
    (UiLang, Nav),
) {
    let host = crate::new_host();
    let kept = std::rc::Rc::new(std::cell::Cell::new(None::<(UiLang, Nav)>));
    let handles = std::rc::Rc::clone(&kept);
    let handle = leptos::mount::mount_to(host.clone(), move || {
        let lang = UiLang::provide();
        lang.set(Lang::En);
        let nav = Nav::provide();
        frontend::pages::task_detail::Resubmitted::provide();
        nav.go(route.clone());
        handles.set(Some((lang, nav)));
        view! { <frontend::Page session=demo_session() /> }.into_any()
    });
    (host, handle, kept.get().expect("mounted"))
}

/// The console at `/new?clone=ID`, once it has asked for the task (its fetches held).
async fn clone_page_asked(
    id: &'static str,
) -> (
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
    (UiLang, Nav),
) {
    let page = mount_page_at(Route::New {
        clone: Some(id.into()),
    });
    until("the clone's request", || {
        held_fetches().iter().any(|u| u.contains(id))
    })
    .await;
    page
}

/// A clone of a task that cannot be read (gone, not visible, no connection) says why and
/// offers the create form, which opens in place (blank, with no draft kept).
#[wasm_bindgen_test]
async fn a_clone_that_cannot_load_offers_the_create_form() {
    let address = fresh_page();
    // No draft of an earlier test: the blank form is blank.
    let (host, handle) = mount_clone_page("gone-12345").await;
    fail_fetch("gone-12345");
    let failed = || {
        host.query_selector("[data-testid='clone-failed']")
            .unwrap()
            .is_some()
    };
    until("the failure", failed).await;
    let blank = find(&host, "[data-testid='clone-blank']");
    assert_eq!(
        blank.text_content().unwrap(),
        "Open the create form instead"
    );
    blank.click();
    until("the blank form", || {
        !failed()
            && host
                .query_selector("[name='basic.name_prefix']")
                .unwrap()
                .is_some()
    })
    .await;
    let prefix: web_sys::HtmlInputElement =
        find(&host, "[name='basic.name_prefix']").unchecked_into();
    assert_eq!(prefix.value(), "", "a blank form");
    finish(handle, &host, &address);
}

/// A clone asked while the server was down offers to ask again: the page stayed refused
/// once the server was back, and only a reload found the task (explorer).
#[wasm_bindgen_test]
async fn a_clone_that_could_not_load_is_asked_again() {
    let address = fresh_page();
    let (host, handle) = mount_clone_page("later-12345").await;
    fail_fetch("later-12345");
    until_found(&host, "the failure", "[data-testid='clone-failed']").await;
    let again = find(&host, "[data-testid='clone-again']");
    assert_eq!(again.text_content().unwrap(), "Try again");
    again.click();
    until("the request asked again", || {
        held_fetches().iter().any(|u| u.contains("later-12345"))
    })
    .await;
    // The failure stays while it is asked; the button says so and takes no second click.
    assert!(
        host.query_selector("[data-testid='clone-failed']")
            .unwrap()
            .is_some()
    );
    let again: web_sys::HtmlButtonElement =
        find(&host, "[data-testid='clone-again']").unchecked_into();
    assert!(again.disabled());
    assert_eq!(again.text_content().unwrap(), "Loading the task to copy…");
    answer_fetch("later-12345", &clone_source());
    until("the cloned form", || {
        name_prefix(&host).is_some_and(|p| p.value() == "source")
    })
    .await;
    assert!(
        host.query_selector("[data-testid='clone-failed']")
            .unwrap()
            .is_none()
    );
    finish(handle, &host, &address);
    crate::forget_drafts();
}

/// A read that has no answer is given up: each request carries an abort signal (the
/// console aborts it after `READ_WAIT`), and the abort is said as a wait for nothing,
/// with Try again, not "Loading the task to copy…" for ever (network explorer).
#[wasm_bindgen_test]
async fn a_clone_whose_read_hangs_is_given_up_and_said_so() {
    let address = fresh_page();
    let (host, handle) = mount_clone_page("hung-12345").await;
    let signal = js_sys::eval(
        "(() => { const h = window.__held.find((h) => h.url.includes('hung-12345')); \
         return typeof h.req === 'string' ? 'no request' : \
           (h.req.signal && !h.req.signal.aborted ? 'live' : 'none'); })()",
    )
    .unwrap();
    assert_eq!(signal.as_string().as_deref(), Some("live"));
    assert_eq!(frontend::api::READ_WAIT.as_secs(), 30);
    // What fetch does when its signal aborts.
    let at = held_fetches()
        .iter()
        .position(|u| u.contains("hung-12345"))
        .unwrap();
    js_sys::eval(&format!(
        "window.__held.splice({at}, 1)[0].reject(new DOMException('The operation was aborted.', 'AbortError'))"
    ))
    .unwrap();
    until_found(&host, "the failure", "[data-testid='clone-failed']").await;
    let said = find(&host, "[data-testid='clone-failed']")
        .text_content()
        .unwrap();
    assert!(
        said.contains(
            "The server has not answered in 30 s: check your connection, or try again later."
        ),
        "{said}"
    );
    assert_eq!(
        find(&host, "[data-testid='clone-again']")
            .text_content()
            .unwrap(),
        "Try again"
    );
    finish(handle, &host, &address);
    crate::forget_drafts();
}

/// The plan says when its numbers may be of before: the ask for the use failed (the
/// server down), or the server's catalog is not the one the form opened with (a restart
/// with another file), which a reload takes in (network explorer: "32 left" stood beside
/// the server's refusal for want of quota).
#[wasm_bindgen_test]
async fn the_plan_says_when_its_numbers_may_be_out_of_date() {
    let address = fresh_page();
    crate::forget_drafts();
    // A draft with a plan to grey.
    frontend::form::draft::save(
        frontend::form::draft::DRAFT_KEY,
        &shared::demo::pytorch(),
        &[],
        &[],
    );
    hold_fetches();
    let (host, handle, _) = mount_page_at(Route::New { clone: None });
    let asked = || held_fetches().iter().any(|u| u.contains("/api/v1/catalog"));
    until("the use asked", asked).await;
    assert!(
        host.query_selector("[data-testid='plan-stale']")
            .unwrap()
            .is_none()
    );
    fail_fetch("/api/v1/catalog");
    until_found(&host, "the stale note", "[data-testid='plan-stale']").await;
    assert!(
        find(&host, "[data-testid='plan-stale']")
            .text_content()
            .unwrap()
            .starts_with("The quota and pool use could not be read again just now")
    );
    // Back in the window, the form asks again; the server's catalog has changed.
    web_sys::window()
        .unwrap()
        .dispatch_event(&web_sys::Event::new("focus").unwrap())
        .unwrap();
    until("the use asked again", asked).await;
    let mut changed = demo_session();
    changed.catalog.quotas.clear();
    answer_fetch("/api/v1/catalog", &serde_json::to_string(&changed).unwrap());
    until_found(
        &host,
        "the changed note",
        "[data-testid='plan-catalog-changed']",
    )
    .await;
    assert!(
        host.query_selector("[data-testid='plan-stale']")
            .unwrap()
            .is_none()
    );
    // The verdict below it is of the catalog before: greyed, not green (lab admin
    // explorer: "Starts now" on a quota lowered since).
    let verdict = find(&host, "[data-testid='outcome']");
    assert!(
        verdict.class_list().contains("pending"),
        "{}",
        verdict.class_name()
    );
    assert!(
        find(&host, "[data-testid='plan-body']")
            .class_list()
            .contains("stale")
    );
    // A tab shown again with no focus of the window (switched back to): asked again too
    // (all-day explorer: the quota read minutes before stood for up to 30 s).
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .dispatch_event(
            &web_sys::Event::new_with_event_init_dict("visibilitychange", &init).unwrap(),
        )
        .unwrap();
    until("the use asked on being shown", asked).await;
    finish(handle, &host, &address);
    crate::forget_drafts();
}

/// A clone's submit says which task it copies, which the new task keeps for its page to
/// name after a reload too (explorer: only the page a resubmit led to said it).
#[wasm_bindgen_test]
async fn a_clones_submit_says_which_task_it_copies() {
    let (address, host, handle) = cloned_form("src-67890").await;
    press_until_asked(&host, "submit", "/api/v1/tasks?").await;
    let sent: Vec<String> = held_fetches()
        .into_iter()
        .filter(|u| u.contains("/api/v1/tasks"))
        .collect();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(
        sent[0].ends_with("/api/v1/tasks?from=src-67890"),
        "{sent:?}"
    );
    finish(handle, &host, &address);
    crate::forget_drafts();
}

/// The task page a submit led to says the task was made, into a status line already in
/// the page, as the form's own line did until the page changed (screen-reader explorer:
/// that line went with the form, and nothing said the submit had worked), until the
/// task is deleted.
#[wasm_bindgen_test]
async fn the_page_a_submit_leads_to_says_the_task_was_made() {
    let (address, host, handle) = cloned_form("src-24680").await;
    press_until_asked(&host, "submit", "/api/v1/tasks?").await;
    // Ended already: a delete is offered.
    let made = task("t1", TaskPhase::Succeeded, TaskType::PyTorchJob);
    answer_fetch("/api/v1/tasks?", &serde_json::to_string(&made).unwrap());
    answer_detail_loads(&made, ("[]", 0), ("[]", 0)).await;
    let line = find(&host, "[data-testid='created-here']");
    assert_eq!(line.get_attribute("role").as_deref(), Some("status"));
    until("the line said", || {
        all_text(&host, "[data-testid='created-here']") == ["Submitted: task t1 was created."]
    })
    .await;
    // It goes with its task: "created" stood over "deleted" (keyboard explorer).
    delete_asked(&host).await;
    refuse_fetch_where(|u| u.ends_with("/tasks/t1"), 200, "");
    until("deleted", || {
        all_text(&host, "[data-testid='deleted']").concat() == "Task t1 was deleted."
    })
    .await;
    assert_eq!(all_text(&host, "[data-testid='created-here']").concat(), "");
    finish(handle, &host, &address);
    crate::forget_drafts();
}

/// The line a submit left is no longer green once its task failed: at 200 % it stood
/// green on the first screen over a task that had failed at once (low-vision explorer).
#[wasm_bindgen_test]
async fn the_submits_line_is_grey_once_its_task_failed() {
    let (address, host, handle) = cloned_form("src-97531").await;
    press_until_asked(&host, "submit", "/api/v1/tasks?").await;
    let made = task("t1", TaskPhase::Failed, TaskType::PyTorchJob);
    answer_fetch("/api/v1/tasks?", &serde_json::to_string(&made).unwrap());
    answer_detail_loads(&made, ("[]", 0), ("[]", 0)).await;
    until("the line said", || {
        all_text(&host, "[data-testid='created-here']") == ["Submitted: task t1 was created."]
    })
    .await;
    let line = find(&host, "[data-testid='created-here']");
    assert_eq!(line.class_name(), "banner done");
    let sheet = page_style();
    let style = web_sys::window()
        .unwrap()
        .get_computed_style(&line)
        .unwrap()
        .unwrap();
    assert_ne!(
        style.get_property_value("background-color").unwrap(),
        "rgb(238, 251, 241)",
        "not the green of a success"
    );
    assert_eq!(
        style.get_property_value("background-color").unwrap(),
        "rgb(238, 241, 244)"
    );
    sheet.remove();
    finish(handle, &host, &address);
    crate::forget_drafts();
}

/// A submit that could not reach the server says so until Submit is pressed again: then
/// the press is what is under way, and the old failure no longer stands beside
/// "Submitting…" (network explorer).
#[wasm_bindgen_test]
async fn a_submits_failure_goes_when_it_is_submitted_again() {
    let (address, host, handle) = cloned_form("src-13579").await;
    press_until_asked(&host, "submit", "/api/v1/tasks?").await;
    fail_fetch("/api/v1/tasks?");
    until_found(&host, "the failure", "[data-testid='submit-error']").await;
    // It may have made the task: pressing again is said to be safe (slow-link explorer).
    let said = find(&host, "[data-testid='submit-error']")
        .text_content()
        .unwrap();
    assert!(
        said.ends_with(
            " Submitting again is safe: if the task was made, the server gives it back rather than making a second."
        ),
        "{said}"
    );
    press_until_asked(&host, "submit", "/api/v1/tasks?").await;
    assert!(
        host.query_selector("[data-testid='submit-error']")
            .unwrap()
            .is_none(),
        "the failure stood beside the new press"
    );
    finish(handle, &host, &address);
    crate::forget_drafts();
}

/// A submit answered while the page is being left (a reload pressed while it was out)
/// leaves a note of what it made for the page the reload opens; one answered on a page
/// that stays leaves none, or the next form opened within two minutes said a task was
/// made "while the page reloaded" when none was (review).
#[wasm_bindgen_test]
async fn only_a_submit_answered_as_the_page_is_left_notes_what_it_made() {
    let tab = web_sys::window()
        .unwrap()
        .session_storage()
        .unwrap()
        .unwrap();
    let notes = || {
        (0..tab.length().unwrap())
            .filter_map(|i| tab.key(i).unwrap())
            .filter(|k| k.ends_with(".made"))
            .count()
    };
    for leaving in [false, true] {
        let (address, host, handle) = cloned_form("src-97531").await;
        press_until_asked(&host, "submit", "/api/v1/tasks?").await;
        if leaving {
            web_sys::window()
                .unwrap()
                .dispatch_event(&web_sys::Event::new("beforeunload").unwrap())
                .unwrap();
        }
        let made = task("made-1", TaskPhase::Queued, TaskType::PyTorchJob);
        answer_fetch("/api/v1/tasks?", &serde_json::to_string(&made).unwrap());
        until("the answer taken", || {
            !held_fetches()
                .iter()
                .any(|u| u.contains("/api/v1/tasks?from"))
        })
        .await;
        sleep(50).await;
        assert_eq!(notes(), usize::from(leaving), "leaving: {leaving}");
        finish(handle, &host, &address);
        crate::forget_drafts();
        for key in (0..tab.length().unwrap())
            .filter_map(|i| tab.key(i).unwrap())
            .collect::<Vec<_>>()
        {
            if key.ends_with(".made") {
                tab.remove_item(&key).unwrap();
            }
        }
    }
}

/// A clone started over is a blank form that copies no task: it no longer says it is a
/// copy, and its submit names none (review: a task made from the blank form was stored
/// as a clone).
#[wasm_bindgen_test]
async fn a_clone_started_over_copies_no_task() {
    let (address, host, handle) = cloned_form("src-24680").await;
    assert!(
        host.query_selector("[data-testid='copy-of']")
            .unwrap()
            .is_some()
    );
    press_and_confirm(
        &host,
        "[data-testid='start-over']",
        "[data-testid='confirm-start-over-yes']",
    )
    .await;
    until("the blank form", || {
        name_prefix(&host).is_some_and(|p| p.value().is_empty())
    })
    .await;
    assert!(
        host.query_selector("[data-testid='copy-of']")
            .unwrap()
            .is_none()
    );
    // Typed in, then the address reloaded: still a form of its own, the task not asked
    // for again (review: the reloaded clone's address made it a copy once more).
    let prefix = name_prefix(&host).unwrap();
    prefix.set_value("mine-now");
    prefix
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    sleep(600).await;
    release_fetches();
    drop(handle);
    host.remove();
    hold_fetches();
    let (host, handle, _) = mount_page_at(Route::New {
        clone: Some("src-24680".into()),
    });
    until("the form with what was typed", || {
        name_prefix(&host).is_some_and(|p| p.value() == "mine-now")
    })
    .await;
    assert!(
        host.query_selector("[data-testid='copy-of']")
            .unwrap()
            .is_none()
    );
    assert!(
        !held_fetches().iter().any(|u| u.contains("src-24680")),
        "{:?}",
        held_fetches()
    );
    finish(handle, &host, &address);
    crate::forget_drafts();
}

/// A reload of the clone page of task `id` in `host`: the page goes (its draft written
/// as it does), and the console comes back at the same address, the task answered with
/// [`clone_source`].
async fn reload_clone_page<V: leptos::tachys::view::Mountable>(
    host: &HtmlElement,
    handle: leptos::mount::UnmountHandle<V>,
    id: &str,
) -> leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState> {
    release_fetches();
    drop(handle);
    hold_fetches();
    let again = leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! { <frontend::Page session=demo_session() /> }.into_any()
    });
    until("the clone's request", || {
        held_fetches().iter().any(|u| u.contains(id))
    })
    .await;
    answer_fetch(id, &clone_source());
    again
}

/// Types `text` into the box at `selector` of the clone page of task src-24680 in `host`,
/// edited by [`edit_clone`], then reloads it ([`reload_clone_page`]) and waits for the
/// clone's edits.
async fn type_and_reload_clone<V: leptos::tachys::view::Mountable>(
    host: &HtmlElement,
    handle: leptos::mount::UnmountHandle<V>,
    selector: &str,
    text: &str,
) -> leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState> {
    let input: web_sys::HtmlInputElement = find(host, selector).unchecked_into();
    input.set_value(text);
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    leptos::task::tick().await;
    let again = reload_clone_page(host, handle, "src-24680").await;
    until("the clone's edits", || {
        name_prefix(host).is_some_and(|p| p.value() == "my-edit")
    })
    .await;
    again
}

/// A clone submitted with no answer, the page then reloaded: its edits are said to have
/// been sent, as a new form's draft is, not "unsent" (cloud-console explorer), and a
/// submit again goes with the same key.
#[wasm_bindgen_test]
async fn a_clone_reloaded_after_a_submit_with_no_answer_says_it_was_sent() {
    let address = fresh_page();
    let (host, handle) = mount_clone_page("src-13579").await;
    edit_clone(&host, "src-13579").await;
    let submits = || {
        held_fetches()
            .iter()
            .filter(|u| u.contains("from=src-13579") || u.ends_with("/api/v1/tasks"))
            .count()
    };
    find(&host, "[data-testid='submit']").click();
    until("the submit sent", || submits() == 1).await;
    // Reloaded with the submit still unanswered.
    let again = reload_clone_page(&host, handle, "src-13579").await;
    until_found(&host, "the note", "[data-testid='draft-restored']").await;
    assert_eq!(
        find(&host, "[data-testid='draft-restored']")
            .text_content()
            .unwrap(),
        "Your edits of this clone were restored. They were submitted and no answer came: submitting them again gives the task they made, if they made one, not a second. Start again from the task's spec"
    );
    finish(again, &host, &address);
    crate::forget_drafts();
}

/// A clone of one's own task reloaded puts back the hidden values still the task's,
/// from the task, which the draft names without their values; one the user changed is
/// asked for again, as the draft cannot keep it (Ray explorer: every hidden value came
/// back masked, and only Start again from the task's spec, losing the edits, undid it).
#[wasm_bindgen_test]
async fn a_reloaded_clone_takes_back_its_tasks_hidden_values() {
    use frontend::form::draft::DRAFT_KEY;
    let address = fresh_page();
    let source: shared::TaskSpec = serde_json::from_str(&clone_source()).unwrap();
    let (at, secret) = source
        .environment
        .env
        .iter()
        .enumerate()
        .find(|(_, v)| v.hidden)
        .map(|(i, v)| (i, v.value.clone()))
        .expect("a hidden value in the task");
    let value_box = format!("[name='environment.env[{at}].value']");
    let local = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    let stored = || {
        local
            .get_item(&format!("{DRAFT_KEY}.clone.src-24680"))
            .unwrap()
            .unwrap_or_default()
    };
    let (host, handle) = mount_clone_page("src-24680").await;
    edit_clone(&host, "src-24680").await;
    let again = reload_clone_page(&host, handle, "src-24680").await;
    until("the clone's edits", || {
        name_prefix(&host).is_some_and(|p| p.value() == "my-edit")
    })
    .await;
    let held = || {
        host.query_selector(&value_box)
            .unwrap()
            .map(|e| e.unchecked_into::<web_sys::HtmlInputElement>().value())
    };
    assert_eq!(
        held().as_deref(),
        Some(secret.as_str()),
        "the task's own, back"
    );
    assert!(
        host.query_selector("[data-code='env.value.masked']")
            .unwrap()
            .is_none()
    );
    assert!(!stored().contains(&secret), "never in storage");
    let banner = || {
        find(&host, "[data-testid='draft-restored']")
            .text_content()
            .unwrap_or_default()
    };
    assert!(!banner().contains("hidden value"), "{}", banner());
    // The webhook's target too, masked in the draft (Ray recheck: asked for again).
    let hook_box = format!(
        "[name='advanced.alerts[{}].target']",
        source.advanced.alerts.len() - 1
    );
    let hook = || {
        host.query_selector(&hook_box)
            .unwrap()
            .map(|e| e.unchecked_into::<web_sys::HtmlInputElement>().value())
    };
    assert_eq!(
        hook().as_deref(),
        Some(CLONE_HOOK),
        "the task's own hook, back"
    );
    assert!(!stored().contains("s3cr3t-token"), "never in storage");
    assert!(
        host.query_selector("[data-code='advanced.alerts.target.masked']")
            .unwrap()
            .is_none()
    );
    // Renamed, it is still the task's (recheck: a rename alone asked for it again).
    let name_box = format!("[name='environment.env[{at}].name']");
    let again = type_and_reload_clone(&host, again, &name_box, "RENAMED_TOKEN").await;
    assert_eq!(
        held().as_deref(),
        Some(secret.as_str()),
        "renamed, still the task's"
    );
    assert!(!stored().contains(&secret), "never in storage");
    // Changed, it cannot be kept: asked for again.
    let again = type_and_reload_clone(&host, again, &value_box, "a-new-token").await;
    assert_eq!(
        held().as_deref(),
        Some(shared::task::HIDDEN_VALUE_MASK),
        "a changed value is asked for again"
    );
    // And the note of what was restored says so (recheck: "restored", above a value
    // asked for again).
    assert!(
        banner().contains("were restored. Drafts keep no hidden value or webhook target you typed: type again those marked below."),
        "{}",
        banner()
    );
    assert!(!stored().contains("a-new-token"));
    until_found(&host, "its finding", "[data-code='env.value.masked']").await;
    release_fetches();
    finish(again, &host, &address);
    crate::forget_drafts();
}

/// A clone once edited keeps its edits under a key of its own: a reload of its address
/// opens them, not the task's spec again over them (which lost them), and the user's
/// unsent draft of `/new` stays as it was (editing a clone wrote over it, unasked).
#[wasm_bindgen_test]
async fn an_edited_clone_reloads_with_its_edits_and_keeps_the_users_draft() {
    use frontend::form::draft::DRAFT_KEY;
    let address = fresh_page();
    let mut own = shared::demo::pytorch();
    own.basic.name_prefix = "half-done".into();
    let own = serde_json::to_string(&own).unwrap();
    let (host, handle) = mount_clone_page("src-12345").await;
    // The user's own draft, saved before they cloned.
    let local = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    local.set_item(DRAFT_KEY, &own).unwrap();
    edit_clone(&host, "src-12345").await;
    let prefix = || name_prefix(&host);
    // Which task it copies, under the title: the form alone did not say it was a clone.
    assert_eq!(
        find(&host, "[data-testid='copy-of']")
            .text_content()
            .unwrap(),
        "A copy of task src-12345: a new task is created only when you submit."
    );
    assert_eq!(frontend::nav::current_query(), "clone=src-12345");
    // A reload: the page goes (the clone's edits are written as it does), and the
    // clone's address opens them.
    let again = reload_clone_page(&host, handle, "src-12345").await;
    until("the clone's edits", || {
        prefix().is_some_and(|p| p.value() == "my-edit")
    })
    .await;
    assert_eq!(
        local.get_item(DRAFT_KEY).unwrap().as_deref(),
        Some(own.as_str())
    );
    // With the way back to the task's own spec, which opening the clone no longer gives.
    let clone_key = format!("{DRAFT_KEY}.clone.src-12345");
    assert!(local.get_item(&clone_key).unwrap().is_some());
    until_found(&host, "the way back", "[data-testid='clone-afresh']").await;
    // Asked first, as Start over is (recheck: the edits went at one click); Cancel
    // keeps them.
    find(&host, "[data-testid='clone-afresh']").click();
    until_found(
        &host,
        "the question",
        "[data-testid='confirm-clone-afresh']",
    )
    .await;
    assert_eq!(
        find(&host, "[data-testid='confirm-clone-afresh'] p")
            .text_content()
            .unwrap(),
        "Drop your edits of this clone and start again from the task's spec? Your edits cannot be brought back."
    );
    find(&host, "[data-testid='confirm-clone-afresh-no']").click();
    leptos::task::tick().await;
    assert!(prefix().is_some_and(|p| p.value() == "my-edit"));
    assert!(
        host.query_selector("[data-testid='confirm-clone-afresh']")
            .unwrap()
            .is_none()
    );
    press_and_confirm(
        &host,
        "[data-testid='clone-afresh']",
        "[data-testid='confirm-clone-afresh-yes']",
    )
    .await;
    until("the task's spec again", || {
        prefix().is_some_and(|p| p.value() == "source")
    })
    .await;
    assert!(
        host.query_selector("[data-testid='draft-restored']")
            .unwrap()
            .is_none()
    );
    // Nor written again once the save delay is past: opened again, the clone would say
    // its edits were restored.
    sleep(frontend::form::draft::SAVE_DELAY.as_millis() as i32 + 100).await;
    assert_eq!(local.get_item(&clone_key).unwrap(), None);
    assert_eq!(
        local.get_item(DRAFT_KEY).unwrap().as_deref(),
        Some(own.as_str())
    );
    release_fetches();
    finish(again, &host, &address);
}

/// An empty list with no filter set has no tasks yet, and says where to make one: "No
/// task matches these filters" sent a first-time user looking for filters (explorer).
#[wasm_bindgen_test]
async fn an_empty_list_says_whether_a_filter_or_nothing_yet() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    answer_fetch("/api/v1/tasks?", &page_of(0, 0, None));
    until_found(&host, "the empty list", "[data-testid='list-empty']").await;
    assert_eq!(
        all_text(&host, "[data-testid='list-empty']"),
        ["No tasks yet. Create one with Create task."]
    );
    find(&host, ".chip[data-phase='failed']").click();
    until("the failed filter's request", || {
        held_fetches().iter().any(|u| u.contains("phase=failed"))
    })
    .await;
    answer_fetch("phase=failed", &page_of(0, 0, None));
    until("the filter's words", || {
        all_text(&host, "[data-testid='list-empty']") == ["No task matches these filters."]
    })
    .await;
    finish(handle, &host, &address);
}

/// An owner typed in part finds nothing, the filter taking a whole name: the empty list
/// says so, and offers the names that hold it (low-vision recheck: no word of why).
#[wasm_bindgen_test]
async fn an_owner_typed_in_part_is_told_the_whole_names() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    answer_fetch("/api/v1/tasks?", &page_of(0, 0, None));
    until_found(&host, "the empty list", "[data-testid='list-empty']").await;
    assert!(
        host.query_selector("[data-testid='list-empty-owner']")
            .unwrap()
            .is_none()
    );
    let owner: web_sys::HtmlInputElement =
        find(&host, "[data-testid='filter-owner']").unchecked_into();
    let change = |text: &str| {
        owner.set_value(text);
        owner
            .dispatch_event(
                &web_sys::Event::new_with_event_init_dict("change", &{
                    let init = web_sys::EventInit::new();
                    init.set_bubbles(true);
                    init
                })
                .unwrap(),
            )
            .unwrap();
    };
    change("BO");
    answer_when_asked("owner=BO", &page_of(0, 0, None)).await;
    until("the owner's words", || {
        all_text(&host, "[data-testid='list-empty-owner']")
            == ["No one whose tasks you can see is named “BO”: the owner filter takes a user's whole name. Did you mean: bob"]
    })
    .await;
    find(&host, "[data-testid='list-owner-near']").click();
    answer_when_asked("owner=bob", &page_of(0, 0, None)).await;
    assert_eq!(owner.value(), "bob");
    until("no word for a whole name", || {
        host.query_selector("[data-testid='list-empty-owner']")
            .unwrap()
            .is_none()
            && host
                .query_selector("[data-testid='list-empty']")
                .unwrap()
                .is_some()
    })
    .await;
    change("zed");
    answer_when_asked("owner=zed", &page_of(0, 0, None)).await;
    until("no name near", || {
        all_text(&host, "[data-testid='list-empty-owner']")
            == ["No one whose tasks you can see is named “zed”: the owner filter takes a user's whole name."]
    })
    .await;
    finish(handle, &host, &address);
}

/// The list's times, its rows' and its update time, are in the reader's zone, as one
/// timeline (zone explorer: rows 3 s apart read 13 hours apart in their tasks' zones);
/// each row's time in its task's zone on hover, as the task's page shows it. The test
/// browser runs in UTC, the demo's tasks in Asia/Shanghai. The update time is not spoken
/// at each refresh.
#[wasm_bindgen_test]
async fn the_lists_times_are_in_the_readers_zone() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let rows = || host.query_selector_all("tbody tr").unwrap().length();
    answer_fetch("/api/v1/tasks?", &page_of(0, 2, None));
    until("the first page", || rows() == 2).await;
    let status = || {
        find(&host, "[data-testid='list-status']")
            .text_content()
            .unwrap()
    };
    until("the update time", || status().contains("Updated")).await;
    assert!(status().ends_with("UTC"), "{}", status());
    let row_time = all_text(&host, "tbody tr td.when");
    assert!(row_time.iter().all(|t| t.ends_with("UTC")), "{row_time:?}");
    let cells = host.query_selector_all("tbody tr td.when").unwrap();
    for i in 0..cells.length() {
        let cell: web_sys::Element = cells.item(i).unwrap().unchecked_into();
        let title = cell.get_attribute("title").unwrap_or_default();
        assert!(
            title.starts_with("In the task's time zone: ") && title.ends_with("GMT+8"),
            "{title}"
        );
    }
    // The count is spoken, not the time, new at every refresh: the whole line was read
    // out every 4 s (keyboard explorer).
    let live = all_text(&host, "[data-testid='list-status'] [aria-live]");
    assert!(live.contains(&"2 shown".to_owned()), "{live:?}");
    assert!(live.iter().all(|t| !t.contains("Updated")), "{live:?}");
    assert!(
        host.query_selector("[data-testid='list-status'][aria-live]")
            .unwrap()
            .is_none()
    );
    // Another filter's rows, as many as before: its first page on its way is said, then
    // their count, so a screen reader hears them come (screen-reader explorer: the same
    // count said nothing).
    let live = || all_text(&host, "[data-testid='list-status'] [aria-live]");
    find(&host, ".chip[data-phase='running']").click();
    until("the running filter's request", || {
        held_fetches().iter().any(|u| u.contains("phase=running"))
    })
    .await;
    assert!(
        live().contains(&"Loading tasks…".to_owned()),
        "{:?}",
        live()
    );
    answer_fetch("phase=running", &page_of(0, 2, None));
    until("the count again", || live().contains(&"2 shown".to_owned())).await;
    // A filter that matches nothing keeps it.
    find(&host, ".chip[data-phase='failed']").click();
    until("the failed filter's request", || {
        held_fetches().iter().any(|u| u.contains("phase=failed"))
    })
    .await;
    answer_fetch("phase=failed", &page_of(0, 0, None));
    until("no rows", || rows() == 0).await;
    until("the update time", || status().contains("Updated")).await;
    assert!(status().ends_with("UTC"), "{}", status());
    finish(handle, &host, &address);
}

/// A list whose first page cannot be fetched says the error and counts nothing: "0 shown"
/// beside it read as a list with no tasks in it (explorer).
#[wasm_bindgen_test]
async fn a_first_page_that_cannot_load_counts_no_rows() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    fail_fetch("/api/v1/tasks?");
    until_found(&host, "the error", "[data-testid='error']").await;
    let status = find(&host, "[data-testid='list-status']")
        .text_content()
        .unwrap();
    assert!(!status.contains("shown"), "{status}");
    // The list asks again by itself: the reader is not sent to try again (slow-link
    // explorer).
    assert_eq!(
        banner_message(&host),
        "Cannot reach the server: check your connection, or wait for the server to be back; this page asks again every few seconds by itself."
    );
    finish(handle, &host, &address);
}

/// More that cannot reach the server is not said to be asked again by itself: the live
/// refresh does not fetch the next page (review).
#[wasm_bindgen_test]
async fn more_that_cannot_load_asks_the_reader_to_try_again() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let rows = || host.query_selector_all("tbody tr").unwrap().length();
    answer_fetch("/api/v1/tasks?", &page_of(0, 20, Some("c1")));
    until("the first page", || rows() == 20).await;
    press_until_asked(&host, "list-more", "cursor=c1").await;
    fail_fetch("cursor=c1");
    until_found(&host, "the error", "[data-testid='error']").await;
    assert_eq!(
        banner_message(&host),
        "Cannot reach the server: check your connection, or wait for the server to be back, then try again."
    );
    finish(handle, &host, &address);
}

/// The words of the page's error banner.
fn banner_message(host: &HtmlElement) -> String {
    find(host, "[data-testid='error'] .message")
        .text_content()
        .unwrap_or_default()
}

/// A filter whose tasks cannot be fetched (the server down) shows no rows under its chip:
/// the rows of the filter before would read as its tasks.
#[wasm_bindgen_test]
async fn a_filter_that_cannot_load_shows_no_other_filters_rows() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let rows = || host.query_selector_all("tbody tr").unwrap().length();
    answer_fetch("/api/v1/tasks?", &page_of(0, 20, None));
    until("the first page", || rows() == 20).await;
    assert!(
        find(&host, "[data-testid='list-status']")
            .text_content()
            .unwrap()
            .starts_with("20 shown")
    );
    find(&host, ".chip[data-phase='failed']").click();
    until("the failed filter's request", || {
        held_fetches().iter().any(|u| u.contains("phase=failed"))
    })
    .await;
    fail_fetch("phase=failed");
    until_found(&host, "the error", "[data-testid='error']").await;
    assert_eq!(rows(), 0, "no rows of the filter before");
    assert!(
        host.query_selector("[data-testid='list-empty']")
            .unwrap()
            .is_none(),
        "nor a claim that there are no tasks"
    );
    // Nor a count: "0 shown" beside the error read as an empty list (explorer).
    let status = find(&host, "[data-testid='list-status']")
        .text_content()
        .unwrap();
    assert!(!status.contains("shown"), "{status}");
    finish(handle, &host, &address);
}

/// Follow live replays the log from its start. A stream that cannot connect (the server
/// down, or refusing) leaves the log shown, says the follow stopped, and says why; one
/// that connects replaces the log with its own.
#[wasm_bindgen_test]
async fn a_follow_that_cannot_connect_keeps_the_log_shown() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    let log = || find(&host, "[data-testid='log']").text_content().unwrap();
    let state = || {
        find(&host, "[data-testid='log-state']")
            .text_content()
            .unwrap()
    };
    until("the log", || log() == "No output yet.").await;
    reload_log(&host).await;
    answer_fetch("/logs", "step 1\n");
    until("the log", || log() == "step 1\n").await;
    // Read once while the attempt runs: said to be the log as it was, not a log gone
    // quiet (explorer: the box stayed the same for 15 s while the log grew to 29 MiB).
    assert_eq!(
        state(),
        "The log as it was when read: Follow live shows what is written now."
    );
    // The test server has no such stream: it answers 404, and the browser gives up.
    find(&host, "[data-testid='log-follow']").click();
    until("the task asked for again", || {
        held_fetches().iter().any(|u| u.contains("tasks/t1"))
    })
    .await;
    fail_fetch("tasks/t1");
    until("the reason", || {
        host.text_content()
            .unwrap()
            .contains("Cannot reach the server")
    })
    .await;
    assert_eq!(log(), "step 1\n", "the log shown stays");
    assert!(!state().contains("Following"), "{}", state());
    // A stream that speaks: its text replaces the log, and what follows is added.
    fake_event_source();
    find(&host, "[data-testid='log-follow']").click();
    leptos::task::tick().await;
    let say = |data: &str| {
        js_sys::eval(&format!(
            "window.__source.onmessage(new MessageEvent('message', {{ data: {} }}))",
            serde_json::to_string(data).unwrap()
        ))
        .unwrap();
    };
    assert_eq!(log(), "step 1\n", "nothing said yet");
    say("step 1\n");
    say("step 2\n");
    leptos::task::tick().await;
    assert_eq!(log(), "step 1\nstep 2\n");
    real_event_source();
    finish(handle, &host, &address);
}

/// A task page opened as the connection drops: its events, log and spec could not be
/// read. Meanwhile neither panel says there are no events or no output (they said so
/// beside the failure), and once the server answers a poll again each is read again:
/// the log and spec panels said "cannot reach the server" for good (network explorer).
#[wasm_bindgen_test]
async fn a_page_whose_panels_could_not_be_read_reads_them_once_the_server_answers() {
    use frontend::pages::task_detail::TaskDetailPage;
    let address = fresh_page();
    let mut running = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    running.task.spec.advanced.fault_tolerance.enabled = false;
    hold_fetches();
    let host = crate::new_host();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! { <TaskDetailPage id="t1".to_owned() session=demo_session() /> }.into_any()
    });
    let body = serde_json::to_string(&running).unwrap();
    let panels = ["/events", "/logs", "/spec"];
    // The task answered (the first load, or a poll), then each panel's request.
    let answered_then_asked = |what: &'static str| {
        let body = body.clone();
        async move {
            until("the task's request", || {
                held_fetches().iter().any(|u| u.contains("tasks/t1"))
            })
            .await;
            answer_fetch("tasks/t1", &body);
            until(what, || {
                let held = held_fetches();
                panels
                    .iter()
                    .all(|part| held.iter().any(|u| u.contains(part)))
            })
            .await;
        }
    };
    answered_then_asked("the panels' requests").await;
    for part in panels {
        fail_fetch(part);
    }
    until("the failures said", || {
        host.query_selector_all("[role='alert']").unwrap().length() >= 2
    })
    .await;
    crate::after_paint().await;
    let said = |css: &str| find(&host, css).text_content().unwrap_or_default();
    assert!(
        !said(".panel.events").contains("No events yet"),
        "{}",
        said(".panel.events")
    );
    assert!(
        !said("[data-testid='log']").contains("No output yet"),
        "{}",
        said("[data-testid='log']")
    );
    // The next poll is answered: each panel is read again.
    answered_then_asked("the panels asked again").await;
    answer_events(&latest_events("en"), "[]", 0);
    answer_fetch("/spec", &serde_json::to_string(&running.task.spec).unwrap());
    // The log's read is slow: the poll after does not begin another, which would drop
    // this one (each poll did, and a read slower than a poll never landed: review).
    until("the poll after", || {
        held_fetches().iter().any(|u| u.contains("tasks/t1?"))
    })
    .await;
    answer_fetch("tasks/t1?", &body);
    until("its events", || {
        held_fetches().iter().any(|u| u.contains("/events"))
    })
    .await;
    answer_events(&latest_events("en"), "[]", 0);
    sleep(100).await;
    let reads = held_fetches()
        .iter()
        .filter(|u| u.contains("/logs"))
        .count();
    assert_eq!(reads, 1, "one read of the log at a time");
    answer_fetch("/logs", "step 1\n");
    until("the log and spec", || {
        said("[data-testid='log']").contains("step 1")
            && host
                .query_selector("[data-testid='spec-view']")
                .unwrap()
                .is_some()
    })
    .await;
    crate::after_paint().await;
    let alerts = host.query_selector_all("[role='alert']").unwrap().length();
    let events = said(".panel.events");
    finish(handle, &host, &address);
    assert_eq!(alerts, 0, "no failure is said once all is read");
    assert!(events.contains("No events yet"), "{events}");
}

/// The detail page, in English, mounted into a fresh element, with the task's first
/// requests answered: `t1` running, no events, an empty log.
async fn mount_detail_page() -> (
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
) {
    mount_detail_page_in(TaskPhase::Running).await
}

/// [`mount_detail_page_in`], once the owner's actions show.
async fn owner_actions_in(
    phase: TaskPhase,
) -> (
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
) {
    let (host, handle) = mount_detail_page_in(phase).await;
    until_found(&host, "the actions", "[data-testid='action-resubmit']").await;
    (host, handle)
}

/// [`mount_detail_page`] with the task in `phase`.
async fn mount_detail_page_in(
    phase: TaskPhase,
) -> (
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
) {
    let running = task("t1", phase, TaskType::PyTorchJob);
    mount_detail_page_with(&running, ("[]", 0), ("[]", 0)).await
}

/// [`mount_detail_page`] with the task `running`, the latest page of its events and of
/// its retries as the server answers them (the JSON, and how many come before).
async fn mount_detail_page_with(
    running: &TaskView,
    events: (&str, usize),
    retries: (&str, usize),
) -> (
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
) {
    mount_detail_page_into(crate::new_host(), running, events, retries).await
}

/// [`mount_detail_page_with`] into `host`.
async fn mount_detail_page_into(
    host: HtmlElement,
    running: &TaskView,
    events: (&str, usize),
    retries: (&str, usize),
) -> (
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
) {
    use frontend::pages::task_detail::TaskDetailPage;
    hold_fetches();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! {
            <frontend::i18n::LangSwitch />
            <TaskDetailPage id="t1".to_owned() session=demo_session() />
        }
        .into_any()
    });
    answer_detail_loads(running, events, retries).await;
    (host, handle)
}

/// Answers a task page's first requests: the task `running`, the latest page of its
/// events and of its retries (the JSON, and how many come before), and its log.
async fn answer_detail_loads(running: &TaskView, events: (&str, usize), retries: (&str, usize)) {
    let at = format!("tasks/{}", running.task.id.0);
    until("the task's request", || {
        held_fetches().iter().any(|u| u.contains(&at))
    })
    .await;
    answer_fetch(&at, &serde_json::to_string(running).unwrap());
    // No log is asked for before the first attempt.
    let started = running.task.attempts > 0;
    until("the events' and log's requests", || {
        let held = held_fetches();
        held.iter().any(|u| u.contains("/events"))
            && (!started || held.iter().any(|u| u.contains("/logs")))
    })
    .await;
    answer_events(&latest_events("en"), events.0, events.1);
    if started {
        answer_fetch("/logs", "");
    }
    // A task without fault tolerance has no retries to ask for.
    if running.task.spec.advanced.fault_tolerance.enabled {
        answer_events_when_asked(&latest_retries("en"), retries.0, retries.1).await;
    }
}

/// A double-click on Resubmit makes one task: its second click lands on the new task's
/// page, whose Resubmit is where the first was (explorer: it made two). The new page
/// says which task it was resubmitted from.
#[wasm_bindgen_test]
async fn a_double_click_on_resubmit_makes_one_task_whose_page_says_from_which() {
    let address = fresh_page();
    hold_fetches();
    let (host, handle, _) = mount_page_at(Route::Detail("t1".into()));
    let done = task("t1", TaskPhase::Succeeded, TaskType::PyTorchJob);
    answer_detail_loads(&done, ("[]", 0), ("[]", 0)).await;
    until_found(&host, "the actions", "[data-testid='action-resubmit']").await;
    assert!(
        host.query_selector("[data-testid='resubmitted-from']")
            .unwrap()
            .is_none()
    );
    press_until_asked(&host, "action-resubmit", "/resubmit").await;
    let new = task("t2", TaskPhase::Queued, TaskType::PyTorchJob);
    answer_fetch("/resubmit", &serde_json::to_string(&new).unwrap());
    answer_detail_loads(&new, ("[]", 0), ("[]", 0)).await;
    // Said into its status line a moment after the page came, which is then read out.
    until("the note said", || {
        all_text(&host, "[data-testid='resubmitted-from']")
            == ["Resubmitted from task t1: this is a new task with the same spec."]
    })
    .await;
    // Its Resubmit is held a moment, where the one pressed was (re-test: two clicks
    // 600 ms apart made two tasks)...
    let resubmit_held = || find(&host, "[data-testid='action-resubmit']").has_attribute("disabled");
    assert!(resubmit_held());
    // ... and a double-click's second click is not taken after it either.
    until("Resubmit offered again", || !resubmit_held()).await;
    js_sys::eval(
        "document.querySelector(\"[data-testid='action-resubmit']\")
             .dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 2 }))",
    )
    .unwrap();
    for _ in 0..3 {
        leptos::task::tick().await;
    }
    assert!(
        !held_fetches().iter().any(|u| u.contains("/resubmit")),
        "{:?}",
        held_fetches()
    );
    // A click of its own resubmits it.
    press_until_asked(&host, "action-resubmit", "t2/resubmit").await;
    finish(handle, &host, &address);
}

/// Tags changed elsewhere (another tab, a script) are never silently replaced: a save
/// names the tags it was made from; refused as made from old ones, the page reads the
/// task again; an unedited list then shows the new tags, and over the user's edits the
/// new tags are said beside them, with a way to take them, and the next save names them.
#[wasm_bindgen_test]
async fn tags_changed_elsewhere_are_said_not_silently_replaced() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Succeeded).await;
    until_found(&host, "the tags", "[data-testid='tag-key']").await;
    let shown = || all_text(&host, "[data-testid='tags'] .tag");
    let tag = |key: &str, value: &str| shared::task::Tag {
        key: key.into(),
        value: value.into(),
    };
    let with_tags = |tags: Vec<shared::task::Tag>| {
        let mut view = task("t1", TaskPhase::Succeeded, TaskType::PyTorchJob);
        view.tags = tags;
        serde_json::to_string(&view).unwrap()
    };
    let changed = r#"{"type": "about:blank", "title": "Conflict", "status": 409,
        "code": "task.tags_changed", "detail": "the tags of task t1 were changed since they were read"}"#;
    let read_again = |tags: Vec<shared::task::Tag>| {
        let body = with_tags(tags);
        async move {
            until("the task read again", || {
                held_fetches().iter().any(|u| u.contains("tasks/t1?"))
            })
            .await;
            answer_fetch("tasks/t1?", &body);
        }
    };
    // The note's line stays in the page, empty until it has something to say.
    let elsewhere = || {
        find(&host, "[data-testid='tags-elsewhere']")
            .text_content()
            .unwrap_or_default()
    };

    // Unedited, over tags changed meanwhile: the page shows the new ones, quietly. (An
    // ended task is polled no more: the page reads it again at a language switch.)
    find(&host, "[data-testid='lang-zh']").click();
    let theirs = vec![tag("team", "nlp"), tag("stage", "eval")];
    read_again(theirs.clone()).await;
    until("the new tags", || shown() == ["team=nlp", "stage=eval"]).await;
    assert_eq!(elsewhere(), "");
    find(&host, "[data-testid='lang-en']").click();
    read_again(theirs.clone()).await;
    leptos::task::tick().await;
    assert_eq!(shown(), ["team=nlp", "stage=eval"]);
    assert_eq!(elsewhere(), "");

    // Edited: the user's list stays, and the task's new tags are said beside it.
    find(&host, ".tags li:nth-child(1) .remove").click();
    leptos::task::tick().await;
    // An edit looks like a saved tag: said until saved (explorer).
    assert_eq!(
        all_text(&host, "[data-testid='tags-saved']"),
        ["Not saved yet: Save tags applies these tags to the task."]
    );
    press_until_asked(&host, "tags-save", "/tags").await;
    let body = held_fetch_body("/tags").await;
    assert!(
        body.contains(r#""tags":[{"key":"stage","value":"eval"}]"#)
            && body.contains(
                r#""expected":[{"key":"team","value":"nlp"},{"key":"stage","value":"eval"}]"#
            ),
        "{body}"
    );
    refuse_fetch("/tags", 409, changed);
    let three = vec![
        tag("team", "nlp"),
        tag("stage", "eval"),
        tag("priority", "p0"),
    ];
    read_again(three.clone()).await;
    until("the note", || !elsewhere().is_empty()).await;
    let note = elsewhere();
    assert!(
        note.contains("the task now has team=nlp, stage=eval, priority=p0"),
        "{note}"
    );
    assert_eq!(shown(), ["stage=eval"], "the user's edit is kept");
    assert!(
        host.query_selector(".tags [role='alert']")
            .unwrap()
            .is_none()
    );

    // Taken: the task's tags are the list, the note goes; a save then names them.
    let take = find(&host, "[data-testid='tags-take-theirs']");
    take.focus().unwrap();
    take.click();
    leptos::task::tick().await;
    assert_eq!(shown(), ["team=nlp", "stage=eval", "priority=p0"]);
    assert_eq!(elsewhere(), "");
    // The button went with the note: the keyboard goes on at Save.
    until("the focus at Save", || {
        focused_test_id().as_deref() == Some("tags-save")
    })
    .await;
    find(&host, ".tags li:nth-child(3) .remove").click();
    leptos::task::tick().await;
    press_until_asked(&host, "tags-save", "/tags").await;
    let body = held_fetch_body("/tags").await;
    assert!(
        body.contains(r#""expected":[{"key":"team","value":"nlp"},{"key":"stage","value":"eval"},{"key":"priority","value":"p0"}]"#),
        "{body}"
    );
    answer_fetch("/tags", &with_tags(theirs.clone()));
    until("the save said", || {
        all_text(&host, "[data-testid='tags-saved']") == ["Tags saved."]
    })
    .await;
    assert_eq!(shown(), ["team=nlp", "stage=eval"]);
    // The page reads the task again after a save; the tags set back elsewhere since
    // (the list before it) replace the unedited list, and the line about the save goes.
    read_again(vec![tag("team", "nlp")]).await;
    until("the tags set back", || shown() == ["team=nlp"]).await;
    assert_eq!(all_text(&host, "[data-testid='tags-saved']"), [""]);
    assert_eq!(elsewhere(), "");
    finish(handle, &host, &address);
}

/// With tag validation on, the task page's tag editor offers the maintained tags as the
/// form does: the keys, then the chosen key's values (keyboard explorer: a tag was
/// refused there as not maintained, with none offered).
#[wasm_bindgen_test]
async fn the_task_pages_tag_editor_offers_the_maintained_tags() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Succeeded).await;
    until_found(&host, "the tags", "[data-testid='tag-key']").await;
    let offered = |input: &str| {
        let list = find(&host, &format!("[data-testid='{input}']"))
            .get_attribute("list")
            .expect("a list of suggestions");
        let options = host
            .query_selector_all(&format!("datalist#{list} option"))
            .unwrap();
        crate::attribute_of_each(&options, "value")
    };
    assert_eq!(offered("tag-key"), ["team", "stage", "priority"]);
    assert!(offered("tag-value").is_empty(), "no key chosen yet");
    let key: web_sys::HtmlInputElement = find(&host, "[data-testid='tag-key']").unchecked_into();
    key.set_value("stage");
    key.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    leptos::task::tick().await;
    assert_eq!(offered("tag-value"), ["pretrain", "finetune", "eval"]);
    // Added though not maintained, it is said with the tags that are.
    let value: web_sys::HtmlInputElement =
        find(&host, "[data-testid='tag-value']").unchecked_into();
    value.set_value("exp");
    value
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    find(&host, "[data-testid='tag-add']").click();
    leptos::task::tick().await;
    let said = all_text(&host, "[data-testid='tags-findings'] li").concat();
    assert!(
        said.contains("the maintained tags: team=nlp, team=vision, stage=pretrain"),
        "{said}"
    );
    finish(handle, &host, &address);
}

/// Tag edits not saved are asked about before the page is left, by a link, Back or
/// Resubmit (explorer: they were dropped without a word), or by a reload (the browser's
/// own question); staying keeps the page and the edits.
#[wasm_bindgen_test]
async fn leaving_with_tag_edits_not_saved_asks_first() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Succeeded).await;
    until_found(&host, "the tags", "[data-testid='tag-key']").await;
    let window = web_sys::window().unwrap();
    let path = || web_sys::window().unwrap().location().pathname().unwrap();
    let here = path();
    assert_ne!(here, "/new");
    js_sys::eval(
        "window.__asked = []; window.__stay = true; window.__confirm = window.confirm; \
         window.confirm = (q) => { window.__asked.push(q); return !window.__stay; };",
    )
    .unwrap();
    let asked = || {
        js_sys::eval("window.__asked.join('\\n')")
            .unwrap()
            .as_string()
            .unwrap()
    };
    let clone = || find(&host, "[data-testid='action-clone']").click();

    // A tag typed and not added is an edit too.
    let key: web_sys::HtmlInputElement = find(&host, "[data-testid='tag-key']").unchecked_into();
    key.set_value("stage");
    key.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "[data-testid='tags-saved']"),
        ["Not saved yet: Save tags applies these tags to the task."],
        "a typed tag is said, as leaving asks about it"
    );
    clone();
    leptos::task::tick().await;
    let question = "The tag edits on this page are not saved. Leave the page without saving them?";
    assert_eq!(asked(), question);
    assert_eq!(path(), here, "stayed");
    key.set_value("");
    key.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();

    // Back: the address it moved to is put back.
    find(&host, ".tags li:nth-child(1) .remove").click();
    leptos::task::tick().await;
    window
        .history()
        .unwrap()
        .push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/new"))
        .unwrap();
    window
        .dispatch_event(&web_sys::Event::new("popstate").unwrap())
        .unwrap();
    leptos::task::tick().await;
    assert_eq!(asked(), [question, question].join("\n"));
    assert_eq!(path(), here, "the page's address is back");
    assert_eq!(
        all_text(&host, "[data-testid='tags-saved']"),
        ["Not saved yet: Save tags applies these tags to the task."],
        "the edit is kept"
    );

    // A reload or a closed tab: the browser asks, as the event is cancelled.
    let unload = || {
        let init = web_sys::EventInit::new();
        init.set_cancelable(true);
        let ev = web_sys::Event::new_with_event_init_dict("beforeunload", &init).unwrap();
        web_sys::window().unwrap().dispatch_event(&ev).unwrap();
        ev.default_prevented()
    };
    assert!(unload());

    // Resubmit asks before it makes a task.
    find(&host, "[data-testid='action-resubmit']").click();
    leptos::task::tick().await;
    assert_eq!(asked().lines().count(), 3);
    assert!(
        !held_fetches().iter().any(|u| u.contains("/resubmit")),
        "{:?}",
        held_fetches()
    );

    // Told to leave, the link goes.
    js_sys::eval("window.__stay = false").unwrap();
    clone();
    leptos::task::tick().await;
    assert_eq!(asked().lines().count(), 4);
    assert_eq!(path(), "/new");

    js_sys::eval("window.confirm = window.__confirm").unwrap();
    finish(handle, &host, &address);
    assert!(!unload(), "the page that asked is gone");
}

/// The page of a task in `phase` whose Resubmit the server refuses with these findings
/// (JSON), once the refusal shows.
async fn resubmit_refused(
    phase: TaskPhase,
    issues: &str,
) -> (
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
) {
    let (host, handle) = mount_detail_page_in(phase).await;
    until_found(&host, "the actions", "[data-testid='action-resubmit']").await;
    press_until_asked(&host, "action-resubmit", "/resubmit").await;
    refuse_fetch(
        "/resubmit",
        422,
        &format!(
            r#"{{"type": "about:blank", "title": "Unprocessable Entity", "status": 422,
                "code": "spec.invalid", "detail": "the spec does not pass Berth's checks",
                "issues": {issues}}}"#
        ),
    );
    until("the refusal", || {
        host.query_selector("[role='alert']").unwrap().is_some()
    })
    .await;
    (host, handle)
}

/// A resubmit the rules now refuse (the catalog changed since) cannot be fixed on the
/// task page: its refusal says to clone the task and fix the findings in the form, not
/// "fix the findings it lists" as the form's does.
#[wasm_bindgen_test]
async fn a_refused_resubmit_leads_to_the_clone() {
    let address = fresh_page();
    let (host, handle) = resubmit_refused(
        TaskPhase::Succeeded,
        r#"[{"path": "basic.tags[0].key", "code": "basic.tags.key.invalid",
             "severity": "error", "message": "invalid key"}]"#,
    )
    .await;
    let banner = find(&host, "[role='alert'] .message")
        .text_content()
        .unwrap();
    assert_eq!(
        banner,
        "The server refused to run this spec again as it is: clone the task and fix the \
         findings below in the form (spec.invalid)"
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    let banner = find(&host, "[role='alert'] .message")
        .text_content()
        .unwrap();
    assert!(
        banner.starts_with("服务器拒绝按原配置重新提交：请克隆任务"),
        "{banner}"
    );
    back_to_english(&host).await;
    finish(handle, &host, &address);
}

/// A resubmit refused only because the user's quota is in use now cannot be fixed in a
/// clone's form: the refusal says to stop another task or wait, and names the spec short
/// of quota as the catalog does, not by its row (explorer: "实例规格第 1 项").
#[wasm_bindgen_test]
async fn a_resubmit_refused_for_quota_in_use_says_to_stop_a_task_or_wait() {
    let address = fresh_page();
    let (host, handle) = resubmit_refused(
        TaskPhase::Stopped,
        r#"[{"path": "compute.specs[0]", "code": "compute.quota.exceeded",
             "params": {"dimension": "gpu", "requested": 8, "remaining": 0},
             "severity": "error", "message": "over quota"}]"#,
    )
    .await;
    let banner = || {
        find(&host, "[role='alert'] > .message")
            .text_content()
            .unwrap()
    };
    assert_eq!(
        banner(),
        "Your quota for this spec does not cover the task now: stop one of your other \
         tasks, or resubmit when they have ended; if your quota was lowered below what \
         the task needs, clone it and ask for less (spec.invalid)"
    );
    assert_eq!(
        all_text(&host, "[role='alert'] .issue .path"),
        ["Instance spec A100 single card 单卡"]
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert!(
        banner().starts_with("您在该实例规格上的剩余配额"),
        "{}",
        banner()
    );
    // A stop or a wait first; a clone only if the quota itself was lowered (review: the
    // finding cannot tell a quota in use from one lowered below the task).
    assert!(banner().contains("请停止您的其他任务之一"), "{}", banner());
    assert_eq!(
        all_text(&host, "[role='alert'] .issue .path"),
        ["实例规格 A100 single card 单卡"]
    );
    back_to_english(&host).await;
    finish(handle, &host, &address);
}

/// A task retried a hundred times has hundreds of events: the latest are shown, oldest
/// first, and earlier ones a page at a time on asking, until none is left out. The page
/// asks the server for those it shows alone (README, Known gaps: it fetched every event
/// at each poll): the latest page at each poll, and the page before the first shown on
/// asking, which then stays in view as new events come.
#[wasm_bindgen_test]
async fn the_latest_events_are_shown_and_earlier_ones_on_asking() {
    use frontend::pages::task_detail::EVENTS_SHOWN;
    let address = fresh_page();
    // Event `n` is numbered n + 1.
    let events =
        |from: i64, to: i64| events_json(from..=to, "retrying", 1000, |n| format!("event {n}"));
    let mut view = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    view.task.spec.advanced.fault_tolerance.enabled = false;
    let (host, handle) = mount_detail_page_with(&view, (&events(70, 119), 70), ("[]", 0)).await;
    let task_json = serde_json::to_string(&view).unwrap();
    let messages = || all_text(&host, "[data-testid='events'] .message");
    let earlier = || {
        host.query_selector("[data-testid='events-earlier']")
            .unwrap()
            .map(|b| b.text_content().unwrap_or_default())
    };
    until("the events", || messages().len() == 50).await;
    assert_eq!(EVENTS_SHOWN, 50);
    assert_eq!(messages()[0], "event 70", "the latest, oldest first");
    assert_eq!(messages()[49], "event 119");
    assert_eq!(
        earlier().as_deref(),
        Some("Show earlier events (70 not shown)")
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(
        earlier().as_deref(),
        Some("显示更早的事件（还有 70 条未显示）")
    );
    back_to_english(&host).await;
    // The refreshes the switches asked for: in English again, the latest page.
    until("the task asked for in English", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("tasks/t1?lang=en"))
    })
    .await;
    answer_fetch("tasks/t1?lang=en", &task_json);
    answer_events_when_asked(&latest_events("en"), &events(70, 119), 70).await;
    find(&host, "[data-testid='events-earlier']").click();
    answer_events_when_asked("lang=en&limit=50&before=71", &events(20, 69), 20).await;
    until("the page before", || messages().len() == 100).await;
    assert_eq!(messages()[0], "event 20");
    assert_eq!(
        earlier().as_deref(),
        Some("Show earlier events (20 not shown)")
    );
    // A new event keeps the earlier ones asked for in view: it is added below, and
    // none drops off the top (explorer, round 10: they went as a retried task's came).
    // The poll still asks for the latest page alone.
    answer_refresh(&task_json).await;
    answer_events_when_asked(&latest_events("en"), &events(71, 120), 71).await;
    until("the new event", || messages().len() == 101).await;
    assert_eq!(messages()[0], "event 20");
    assert_eq!(messages()[100], "event 120");
    assert_eq!(
        earlier().as_deref(),
        Some("Show earlier events (20 not shown)")
    );
    // More than a page of new ones between two refreshes: those between the page and
    // what is shown are asked for too, so none is missing.
    answer_refresh(&task_json).await;
    answer_events_when_asked(&latest_events("en"), &events(131, 180), 131).await;
    answer_events_when_asked("lang=en&limit=10&before=132", &events(121, 130), 121).await;
    until("the new events", || messages().len() == 161).await;
    let expected: Vec<String> = (20..=180).map(|n| format!("event {n}")).collect();
    assert_eq!(messages(), expected);
    let button = find(&host, "[data-testid='events-earlier']");
    button.focus().unwrap();
    button.click();
    answer_events_when_asked("lang=en&limit=50&before=21", &events(0, 19), 0).await;
    until("every event", || messages().len() == 181).await;
    assert_eq!(messages()[0], "event 0");
    assert_eq!(earlier(), None, "nothing left out");
    crate::after_paint().await;
    let active = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element();
    assert_eq!(
        active
            .and_then(|a| a.get_attribute("data-testid"))
            .as_deref(),
        Some("events"),
        "the focus goes to the list, not the page's body"
    );
    finish(handle, &host, &address);
}

/// Earlier events the reader asked for are worded again when the page's language
/// changes, as the latest are: the page asks for them again in the new language, and
/// they stay in view.
#[wasm_bindgen_test]
async fn earlier_events_shown_are_worded_again_in_a_new_language() {
    let address = fresh_page();
    let events = |from: i64, to: i64, word: &str| {
        events_json(from..=to, "exited", 1000, |n| format!("{word} {n}"))
    };
    let mut view = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    view.task.spec.advanced.fault_tolerance.enabled = false;
    let task_json = serde_json::to_string(&view).unwrap();
    let (host, handle) =
        mount_detail_page_with(&view, (&events(70, 119, "event"), 70), ("[]", 0)).await;
    let messages = || all_text(&host, "[data-testid='events'] .message");
    until("the events", || messages().len() == 50).await;
    find(&host, "[data-testid='events-earlier']").click();
    answer_events_when_asked("lang=en&limit=50&before=71", &events(20, 69, "event"), 20).await;
    until("the page before", || messages().len() == 100).await;
    find(&host, "[data-testid='lang-zh']").click();
    until("the task asked for in Chinese", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("tasks/t1?lang=zh-CN"))
    })
    .await;
    answer_fetch("tasks/t1?lang=zh-CN", &task_json);
    answer_events_when_asked(&latest_events("zh-CN"), &events(70, 119, "事件"), 70).await;
    answer_events_when_asked("lang=zh-CN&limit=50&before=71", &events(20, 69, "事件"), 20).await;
    let expected: Vec<String> = (20..=119).map(|n| format!("事件 {n}")).collect();
    until("the events in Chinese", || messages() == expected).await;
    assert_eq!(
        find(&host, "[data-testid='events-earlier']")
            .text_content()
            .as_deref(),
        Some("显示更早的事件（还有 20 条未显示）")
    );
    back_to_english(&host).await;
    finish(handle, &host, &address);
}

/// Share link number `n` of task t1, made by alice `n` minutes after a fixed time.
fn share_link(n: u32, token: &str) -> shared::api::ShareLink {
    shared::api::ShareLink {
        token: token.to_owned(),
        path: format!("/api/v1/shared/{token}"),
        link: n,
        created_at: Timestamp(1_700_000_000_000 + i64::from(n) * 60_000),
        created_by: "alice".to_owned(),
    }
}

/// The owner's share links, each numbered, with its Revoke: a revoke asks first, Cancel
/// focused (one tap revoked a link sent to colleagues: phone explorer), says which link
/// it revoked and leaves the focus on that line; a link revoked meanwhile (another tab)
/// is gone too, not refused.
#[wasm_bindgen_test]
async fn the_share_links_are_listed_and_each_revoked_by_its_button() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Succeeded).await;
    until_found(&host, "the actions", "[data-testid='action-share-links']").await;
    press_until_asked(&host, "action-share-links", "/tasks/t1/share").await;

    let links = vec![share_link(1, "tok-one"), share_link(3, "tok-three")];
    answer_fetch("/share", &serde_json::to_string(&links).unwrap());
    until_found(&host, "the links", "[data-testid='share-link-3']").await;
    crate::after_paint().await;
    let active = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element();
    assert_eq!(
        active.map(|a| a.id()).as_deref(),
        Some("share-links-title"),
        "the keyboard goes on from the list asked for, not the actions"
    );
    let items = all_text(&host, "[data-testid='share-links'] li");
    assert_eq!(items.len(), 2, "{items:?}");
    assert!(
        items[0].starts_with("Link 1: ")
            && items[0].contains("/shared/tok-one")
            && items[0].contains("by alice"),
        "{items:?}"
    );
    let revoke_one = find(&host, "[data-testid='share-revoke-1']");
    let label = revoke_one.get_attribute("aria-label").unwrap_or_default();
    assert!(label.starts_with("Revoke link 1, made "), "{label}");
    assert_eq!(
        revoke_one.tag_name(),
        "BUTTON",
        "a keyboard reaches and presses it"
    );

    revoke_one.focus().unwrap();
    revoke_one.click();
    // Asked first; Cancel, focused, and Escape ask nothing of the server.
    until_found(&host, "the question", "[data-testid='confirm-revoke-1']").await;
    crate::after_paint().await;
    let document = web_sys::window().unwrap().document().unwrap();
    let focused = || {
        document
            .active_element()
            .and_then(|a| a.get_attribute("data-testid"))
    };
    assert_eq!(focused().as_deref(), Some("confirm-revoke-1-no"));
    assert_eq!(
        find(&host, "[data-testid='confirm-revoke-1'] p")
            .text_content()
            .unwrap(),
        "Revoke link 1? Anyone who has it can no longer open this task, and a revoked link cannot be brought back."
    );
    find(&host, "[data-testid='confirm-revoke-1-no']").click();
    leptos::task::tick().await;
    assert!(
        host.query_selector("[data-testid='confirm-revoke-1']")
            .unwrap()
            .is_none()
    );
    assert_eq!(
        focused().as_deref(),
        Some("share-revoke-1"),
        "back to its Revoke"
    );
    assert!(held_fetches().iter().all(|u| !u.ends_with("/share/1")));
    revoke_one.click();
    until_found(
        &host,
        "the question again",
        "[data-testid='confirm-revoke-1-yes']",
    )
    .await;
    // Its Yes in the danger colours: the list's white buttons had whitened it, white on
    // white (phone recheck).
    let style = page_style();
    let yes = find(&host, "[data-testid='confirm-revoke-1-yes']");
    let colours = web_sys::window()
        .unwrap()
        .get_computed_style(&yes)
        .unwrap()
        .map(|c| {
            (
                c.get_property_value("background-color").unwrap(),
                c.get_property_value("color").unwrap(),
            )
        })
        .unwrap();
    style.remove();
    assert_ne!(colours.0, colours.1, "{colours:?}");
    assert_ne!(colours.0, "rgb(255, 255, 255)", "{colours:?}");
    yes.click();
    until("the revoke", || {
        held_fetches()
            .iter()
            .any(|u| u.ends_with("/tasks/t1/share/1"))
    })
    .await;
    answer_fetch("/share/1", "");
    until_found(
        &host,
        "the link gone",
        "[data-testid='share-links'] li:only-child",
    )
    .await;
    assert!(
        host.query_selector("[data-testid='share-link-1']")
            .unwrap()
            .is_none()
    );
    let said = find(&host, "[data-testid='share-revoked']")
        .text_content()
        .unwrap();
    assert!(
        said.starts_with("Link 1, made ")
            && said.ends_with("is revoked: it no longer opens this task."),
        "{said}"
    );
    crate::after_paint().await;
    let active = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element();
    assert_eq!(
        active
            .and_then(|a| a.get_attribute("data-testid"))
            .as_deref(),
        Some("share-revoked"),
        "the focus stays where the button was"
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    let said = find(&host, "[data-testid='share-revoked']")
        .text_content()
        .unwrap();
    assert!(
        said.starts_with("链接 1（创建于 ") && said.ends_with("已撤销：它不能再打开此任务。"),
        "{said}"
    );
    back_to_english(&host).await;

    // Revoked from another tab meanwhile: the server's 404 means it is done.
    find(&host, "[data-testid='share-revoke-3']").click();
    until_found(
        &host,
        "the question",
        "[data-testid='confirm-revoke-3-yes']",
    )
    .await;
    find(&host, "[data-testid='confirm-revoke-3-yes']").click();
    until("the second revoke", || {
        held_fetches()
            .iter()
            .any(|u| u.ends_with("/tasks/t1/share/3"))
    })
    .await;
    refuse_fetch(
        "/share/3",
        404,
        r#"{"type": "about:blank", "title": "Not Found", "status": 404,
            "code": "share.not_found", "detail": "task t1 has no share link 3"}"#,
    );
    until_found(&host, "no link left", "[data-testid='share-links-none']").await;
    assert!(
        host.query_selector("[role='alert']").unwrap().is_none(),
        "not refused"
    );
    let said = find(&host, "[data-testid='share-revoked']")
        .text_content()
        .unwrap();
    assert!(said.starts_with("Link 3, made "), "{said}");
    // Escape closes the list, and the keyboard is back at the button that opened it.
    // Pressed where a revoke left the keyboard, on the line that says it, outside the
    // list (recheck explorer: it did nothing there).
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Escape");
    init.set_bubbles(true);
    let escape =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    assert_eq!(focused_test_id().as_deref(), Some("share-revoked"));
    find(&host, "[data-testid='share-revoked']")
        .dispatch_event(&escape)
        .unwrap();
    until("the list closed", || {
        host.query_selector("[data-testid='share-links']")
            .unwrap()
            .is_none()
    })
    .await;
    assert_eq!(focused_test_id().as_deref(), Some("action-share-links"));
    // The next action's answer is not that one: the line goes.
    find(&host, "[data-testid='action-resubmit']").click();
    leptos::task::tick().await;
    assert_eq!(all_text(&host, "[data-testid='share-revoked']"), [""]);
    finish(handle, &host, &address);
}

/// A form whose page moves on to the new task (the console's) leaves saying it was made
/// to that page, which says it: a screen reader heard it twice, 140 ms apart (keyboard
/// recheck); a form that stays (a portal's) says it itself.
#[wasm_bindgen_test]
async fn a_submit_is_said_once_by_the_page_it_moves_on_to() {
    use frontend::form::TaskForm;
    for moves_on in [true, false] {
        let address = fresh_page();
        hold_fetches();
        let host = crate::new_host();
        let made = RwSignal::new(None::<String>);
        let handle = leptos::mount::mount_to(host.clone(), move || {
            UiLang::provide().set(Lang::En);
            Nav::provide();
            let session = demo_session();
            let on_submitted = Callback::new(move |view: TaskView| made.set(Some(view.task.id.0)));
            view! {
                <TaskForm catalog=session.catalog usage=session.usage user=session.user
                    initial=shared::demo::pytorch() on_submitted moves_on />
            }
            .into_any()
        });
        press_until_asked(&host, "submit", "/api/v1/tasks").await;
        let answer = task("made-1", TaskPhase::Queued, TaskType::PyTorchJob);
        answer_fetch("/api/v1/tasks", &serde_json::to_string(&answer).unwrap());
        until("the task made", || made.get_untracked().is_some()).await;
        crate::after_paint().await;
        let said = all_text(&host, "[data-testid='form-submitted']");
        if moves_on {
            assert!(said.is_empty(), "{said:?}");
        } else {
            assert_eq!(said, ["Submitted: task made-1 was created."]);
        }
        finish(handle, &host, &address);
    }
}

/// A failed task's actions say which of Clone and Resubmit runs it changed, and
/// Resubmit is described by it (novice explorer: Resubmit ran the broken command again
/// on 16 GPUs, where Clone was meant); a task that succeeded says nothing of it.
#[wasm_bindgen_test]
async fn a_failed_tasks_actions_tell_clone_from_resubmit() {
    let address = fresh_page();
    let (host, handle) = owner_actions_in(TaskPhase::Failed).await;
    assert_eq!(
        all_text(&host, "[data-testid='failed-next']"),
        [
            "Resubmit runs it again exactly as it was. To change its command, image, mounts or size first, Clone it: the form opens with its spec to edit."
        ]
    );
    let resubmit = find(&host, "[data-testid='action-resubmit']");
    let described = resubmit
        .get_attribute("aria-describedby")
        .unwrap_or_default();
    assert_eq!(
        host.query_selector(&format!("#{described}"))
            .unwrap()
            .and_then(|e| e.get_attribute("data-testid"))
            .as_deref(),
        Some("failed-next")
    );
    finish(handle, &host, &address);

    let address = fresh_page();
    let (host, handle) = owner_actions_in(TaskPhase::Succeeded).await;
    assert!(
        host.query_selector("[data-testid='failed-next']")
            .unwrap()
            .is_none()
    );
    assert_eq!(
        find(&host, "[data-testid='action-resubmit']").get_attribute("aria-describedby"),
        None
    );
    finish(handle, &host, &address);
}

/// Each listed share link has a Copy of its own, named by its number, which copies that
/// link's address and says so; where the browser refuses the clipboard it says to copy
/// by hand (explorer: only the newest link, in Share's panel, could be copied).
#[wasm_bindgen_test]
async fn each_listed_share_link_is_copied_by_its_own_button() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Succeeded).await;
    until_found(&host, "the actions", "[data-testid='action-share-links']").await;
    press_until_asked(&host, "action-share-links", "/tasks/t1/share").await;
    let links = vec![share_link(1, "tok-one"), share_link(3, "tok-three")];
    answer_fetch("/share", &serde_json::to_string(&links).unwrap());
    until_found(&host, "the links", "[data-testid='share-copy-3']").await;

    let copy_three = find(&host, "[data-testid='share-copy-3']");
    assert_eq!(copy_three.tag_name(), "BUTTON");
    assert_eq!(
        copy_three.get_attribute("aria-label").as_deref(),
        Some("Copy link 3")
    );
    // A clipboard that keeps what it is given, in place of the browser's, which a test
    // page without a user's gesture may refuse.
    js_sys::eval(
        "Object.defineProperty(navigator, 'clipboard', { configurable: true, \
           value: { writeText: (text) => { window.__copied = text; return Promise.resolve(); } } })",
    )
    .unwrap();
    copy_three.click();
    until("said copied", || {
        all_text(&host, "[data-testid='share-links-copied']") == ["Link 3 copied."]
    })
    .await;
    let copied = js_sys::eval("window.__copied").unwrap().as_string();
    let origin = web_sys::window().unwrap().location().origin().unwrap();
    assert_eq!(copied, Some(format!("{origin}/shared/tok-three")));
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "[data-testid='share-links-copied']"),
        ["链接 3 已复制。"]
    );
    back_to_english(&host).await;

    // No clipboard (a plain-http address is not a secure context): copy by hand.
    js_sys::eval(
        "Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined })",
    )
    .unwrap();
    find(&host, "[data-testid='share-copy-1']").click();
    until("said refused", || {
        all_text(&host, "[data-testid='share-links-copied']")
            == ["The browser refused the clipboard; copy the link by hand."]
    })
    .await;
    js_sys::eval("delete navigator.clipboard; delete window.__copied").unwrap();
    finish(handle, &host, &address);
}

/// An owner's action refused as not the owner's, once the user signed in in this tab has
/// changed (a proxy's new login), says who is signed in now and offers a reload (team
/// explorer: the page went on offering alice's actions to bob); a refusal while still
/// signed in as the owner says nothing more.
#[wasm_bindgen_test]
async fn an_owners_action_refused_after_another_signed_in_says_so() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Succeeded).await;
    until_found(&host, "the actions", "[data-testid='action-share']").await;
    let refused = || async {
        press_until_asked(&host, "action-share", "/tasks/t1/share").await;
        refuse_fetch(
            "/share",
            403,
            r#"{"type":"about:blank","title":"Forbidden","status":403,"code":"task.forbidden","detail":"only the owner of task t1 can share it"}"#,
        );
        until("who is signed in asked", || {
            held_fetches()
                .iter()
                .any(|u| u.ends_with("/api/v1/catalog"))
        })
        .await;
    };
    // Still alice: the refusal alone.
    refused().await;
    answer_fetch(
        "/api/v1/catalog",
        &serde_json::to_string(&demo_session()).unwrap(),
    );
    sleep(200).await;
    assert!(
        host.query_selector("[data-testid='signed-in-as-other']")
            .unwrap()
            .is_none()
    );
    find(&host, "[data-testid='error'] .dismiss").click();
    leptos::task::tick().await;
    refused().await;
    says_signed_in_as(&host, "bob").await;
    assert!(
        host.query_selector("[data-testid='reload-page']")
            .unwrap()
            .is_some()
    );
    finish(handle, &host, &address);
}

/// Answers the page's question of who is signed in with `name`, and waits for its note
/// that `name`, not alice who opened the page, is signed in now.
async fn says_signed_in_as(host: &HtmlElement, name: &str) {
    let mut now = demo_session();
    now.user.name = name.into();
    answer_fetch("/api/v1/catalog", &serde_json::to_string(&now).unwrap());
    until_found(host, "the note", "[data-testid='signed-in-as-other']").await;
    let said = find(host, "[data-testid='signed-in-as-other']")
        .text_content()
        .unwrap();
    assert!(
        said.starts_with(&format!(
            "You are signed in as {name} now, not alice, who opened this page"
        )),
        "{said}"
    );
}

/// A task gone from the reader's view (`task.not_found`) after another user signed in
/// in this tab, one of another group who may not see it, says who is signed in now as
/// well as that the task is gone (second review: it said only that it was gone).
#[wasm_bindgen_test]
async fn a_task_gone_after_another_signed_in_says_who_is_signed_in() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Succeeded).await;
    until_found(&host, "the actions", "[data-testid='action-share']").await;
    press_until_asked(&host, "action-share", "/tasks/t1/share").await;
    refuse_fetch(
        "/share",
        404,
        r#"{"type":"about:blank","title":"Not Found","status":404,"code":"task.not_found","detail":"no task t1"}"#,
    );
    until_found(&host, "the task said gone", "[data-testid='deleted']").await;
    until("who is signed in asked", || {
        held_fetches()
            .iter()
            .any(|u| u.ends_with("/api/v1/catalog"))
    })
    .await;
    says_signed_in_as(&host, "carol").await;
    finish(handle, &host, &address);
}

/// The `Idempotency-Key` of the oldest held request whose address contains `part`.
fn held_key(part: &str) -> String {
    let at = held_fetches()
        .iter()
        .position(|url| url.contains(part))
        .unwrap_or_else(|| panic!("no request for {part}: {:?}", held_fetches()));
    js_sys::eval(&format!(
        "window.__held[{at}].req.headers.get('idempotency-key')"
    ))
    .unwrap()
    .as_string()
    .expect("a key")
}

/// A resubmit whose answer was lost, pressed again, goes with the key the first went
/// with, so the server answers with the task the first made rather than making a second
/// (slow-link explorer: two tasks); once the server has answered, the next press is a
/// new request.
#[wasm_bindgen_test]
async fn a_resubmit_pressed_again_after_no_answer_is_the_same_request() {
    let address = fresh_page();
    let (host, handle) = owner_actions_in(TaskPhase::Succeeded).await;
    press_until_asked(&host, "action-resubmit", "/resubmit").await;
    let first = held_key("/resubmit");
    // Sent as JSON, as every POST of the console is: a Berth on plain HTTP tells its own
    // pages' changes by it (second review: no test said so).
    let kind = js_sys::eval(
        "window.__held.find((h) => h.url.includes('/resubmit')).req.headers.get('content-type')",
    )
    .unwrap()
    .as_string();
    assert_eq!(kind.as_deref(), Some("application/json"));
    assert_eq!(held_fetch_body("/resubmit").await, "{}");
    // With no answer after a moment, the page says it waits.
    // Said in the buttons' row, by a status line there from the start.
    let waiting = find(
        &host,
        ".toolbar > [data-testid='waiting-answer'][role='status']",
    );
    assert_eq!(waiting.text_content().unwrap(), "");
    until("the wait said", || {
        waiting.text_content().unwrap()
            == "Waiting for the server's answer; the buttons come back when it comes."
    })
    .await;
    fail_fetch("/resubmit");
    // Said beside the actions with what it may have done, not in the page's banner,
    // which the next poll that reaches the server takes away (network explorer).
    until_found(&host, "the loss said", "[data-testid='action-lost']").await;
    assert_eq!(
        find(&host, "[data-testid='action-lost']")
            .text_content()
            .unwrap(),
        "Cannot reach the server: check your connection, or wait for the server to be back, then try again. A new task may have been made: pressing Resubmit again is safe, it gives back the task made rather than making a second. Dismiss"
    );
    assert!(
        host.query_selector("[data-testid='error']")
            .unwrap()
            .is_none()
    );
    assert_eq!(waiting.text_content().unwrap(), "", "the wait unsaid");
    press_until_asked(&host, "action-resubmit", "/resubmit").await;
    assert_eq!(held_key("/resubmit"), first, "the same request");
    assert!(
        host.query_selector("[data-testid='action-lost']")
            .unwrap()
            .is_none(),
        "the loss said goes with the next press"
    );
    refuse_fetch(
        "/resubmit",
        403,
        r#"{"type":"about:blank","title":"Forbidden","status":403,"code":"task.forbidden","detail":"only the owner of task t1 can resubmit it"}"#,
    );
    until("the answer taken", || {
        held_fetches().iter().all(|u| !u.contains("/resubmit"))
    })
    .await;
    sleep(100).await;
    press_until_asked(&host, "action-resubmit", "/resubmit").await;
    assert_ne!(held_key("/resubmit"), first, "a new request");
    finish(handle, &host, &address);
}

/// The share link made closes by its Close, named for what it closes, and the keyboard
/// is back at Share (keyboard explorer: nothing closed it, Escape neither).
#[wasm_bindgen_test]
async fn the_share_link_closes_back_to_share() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Succeeded).await;
    until_found(&host, "the actions", "[data-testid='action-share']").await;
    press_until_asked(&host, "action-share", "/tasks/t1/share").await;
    let link = share_link(1, "tok-new");
    answer_fetch("/share", &serde_json::to_string(&link).unwrap());
    until_found(&host, "the link", "[data-testid='share-close']").await;
    // The link alone: not the list of links too, each with a Close (phone explorer).
    sleep(100).await;
    assert!(
        !held_fetches().iter().any(|u| u.ends_with("/share")),
        "{:?}",
        held_fetches()
    );
    assert!(
        host.query_selector("[data-testid='share-links-close']")
            .unwrap()
            .is_none()
    );
    let close = find(&host, "[data-testid='share-close']");
    assert_eq!(
        close.get_attribute("aria-label").as_deref(),
        Some("Close the share link")
    );
    close.click();
    until("the link closed", || {
        host.query_selector("[data-testid='share']")
            .unwrap()
            .is_none()
    })
    .await;
    assert_eq!(focused_test_id().as_deref(), Some("action-share"));
    // Share with the list of links open: the link alone, the list closed (recheck: the
    // new link stood twice, in two panels).
    press_until_asked(&host, "action-share-links", "/tasks/t1/share").await;
    answer_fetch(
        "/share",
        &serde_json::to_string(&vec![share_link(1, "tok-new")]).unwrap(),
    );
    until_found(&host, "the list", "[data-testid='share-links-close']").await;
    press_until_asked(&host, "action-share", "/tasks/t1/share").await;
    answer_fetch(
        "/share",
        &serde_json::to_string(&share_link(2, "tok-two")).unwrap(),
    );
    until_found(&host, "the link", "[data-testid='share-close']").await;
    let list_open = host
        .query_selector("[data-testid='share-links-close']")
        .unwrap()
        .is_some();
    finish(handle, &host, &address);
    assert!(!list_open, "the list closed");
}

/// A tag is checked by the form's rules as it is added, at the tags; a refused save is
/// said there too, not at the page's top.
#[wasm_bindgen_test]
async fn a_tag_edit_is_checked_and_refused_at_the_tags() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the tags", "[data-testid='tag-key']").await;
    let add = |key: &str, value: &str| {
        for (id, text) in [("tag-key", key), ("tag-value", value)] {
            let input: web_sys::HtmlInputElement =
                find(&host, &format!("[data-testid='{id}']")).unchecked_into();
            input.set_value(text);
            input
                .dispatch_event(&web_sys::Event::new("input").unwrap())
                .unwrap();
        }
        find(&host, "[data-testid='tag-add']").click();
    };
    let save = || find(&host, "[data-testid='tags-save']");
    // Off, not `disabled`: it keeps its place in the keyboard's order and the focus
    // when clicked (lineage explorer).
    let off = || save().get_attribute("aria-disabled").as_deref() == Some("true");
    add("bad key!", "x");
    leptos::task::tick().await;
    let finding = find(
        &host,
        "[data-testid='tags-findings'] li[data-path='basic.tags[1].key']",
    );
    assert!(
        finding
            .text_content()
            .unwrap()
            .starts_with("error\u{a0}Tags #2 › Tag key: "),
        "{:?}",
        finding.text_content()
    );
    assert!(off(), "an error blocks the save");
    assert!(!save().has_attribute("disabled"));
    // The line under Save says to fix them first, not to press it (busy explorer).
    assert_eq!(
        all_text(&host, "[data-testid='tags-saved']"),
        [
            "Not saved yet: fix what is said above first; then Save tags applies the tags to the task."
        ]
    );
    // The tag it is about is marked among the others (lead explorer: the reader counted).
    let refused = |n: usize| {
        find(
            &host,
            &format!(".tags li:nth-child({n}) [data-testid='tag']"),
        )
        .class_list()
        .contains("refused")
    };
    assert!(!refused(1) && refused(2));
    // In words too, with the number the finding gives it, not by its red alone
    // (keyboard explorer).
    assert_eq!(
        all_text(&host, ".tags li:nth-child(2) [data-testid='tag']"),
        ["#2, refused: bad key!=x"]
    );
    assert!(all_text(&host, ".tags li:nth-child(1) [data-testid='tag']")[0].starts_with("team="));
    find(&host, ".tags li:nth-child(2) .remove").click();
    add("stage", "eval");
    leptos::task::tick().await;
    assert!(
        !off(),
        "{:?}",
        all_text(&host, "[data-testid='tags-findings'] li")
    );
    press_until_asked(&host, "tags-save", "/tags").await;
    refuse_fetch(
        "/tags",
        409,
        r#"{"type": "about:blank", "title": "Conflict", "status": 409, "code": "conflict",
            "detail": "the task was deleted meanwhile"}"#,
    );
    until_found(&host, "the refusal", ".tags [role='alert']").await;
    assert!(
        find(&host, ".tags [role='alert']")
            .text_content()
            .unwrap()
            .contains("the task was deleted meanwhile")
    );
    assert_eq!(
        host.query_selector_all("[role='alert']").unwrap().length(),
        1,
        "said once, at the tags"
    );
    // A refusal with findings (a rule the page could not apply: the maintained tags
    // changed since the catalog loaded): each joins the list at its tag, and the save
    // waits for a change of the tags.
    press_until_asked(&host, "tags-save", "/tags").await;
    refuse_fetch(
        "/tags",
        422,
        r#"{"type": "about:blank", "title": "Unprocessable Entity", "status": 422,
            "code": "spec.invalid", "detail": "the spec does not pass Berth's checks",
            "issues": [{"path": "tags[1].key", "code": "basic.tags.not_maintained",
                        "severity": "error", "message": "not a maintained tag"}]}"#,
    );
    let refused = "[data-testid='tags-findings'] li[data-path='basic.tags[1].key'][data-code='basic.tags.not_maintained']";
    until("the finding at its tag", || {
        host.query_selector(refused).unwrap().is_some()
    })
    .await;
    assert!(off(), "the same tags would be refused");
    assert!(
        host.query_selector("[role='alert']").unwrap().is_none(),
        "not said again above or below"
    );
    find(&host, ".tags li:nth-child(2) .remove").click();
    leptos::task::tick().await;
    assert!(host.query_selector(refused).unwrap().is_none());
    // Back at the task's own tags there is nothing to save; another tag is saved.
    assert!(off());
    add("stage", "pretrain");
    leptos::task::tick().await;
    assert!(!off());
    finish(handle, &host, &address);
}

/// Back at the list from a task (the task page's Back, the browser's) finds the rows
/// "More" added and the place scrolled to, then refreshes them all; other filters start
/// afresh. Through the console's own pages, links and history.
#[wasm_bindgen_test]
async fn coming_back_to_the_list_finds_it_as_it_was_left() {
    use frontend::pages::task_list::ListMemory;
    let window = web_sys::window().unwrap();
    let address = fresh_page();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/"))
        .unwrap();
    hold_fetches();
    let host = crate::new_host();
    // Room to scroll whatever the rows' height.
    let spacer = crate::new_host();
    spacer.style().set_property("height", "3000px").unwrap();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        ListMemory::provide();
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! { <frontend::Page session=demo_session() /> }.into_any()
    });
    let rows = || host.query_selector_all("tbody tr").unwrap().length();
    let on_list = || host.query_selector(".task-list").unwrap().is_some();
    until("the first page's request", || !held_fetches().is_empty()).await;
    answer_fetch("/api/v1/tasks?", &page_of(0, 20, Some("c1")));
    until("the first page", || rows() == 20).await;
    find(&host, "[data-testid='list-more']").click();
    until("More's request", || {
        held_fetches().iter().any(|u| u.contains("cursor=c1"))
    })
    .await;
    answer_fetch("cursor=c1", &page_of(20, 40, Some("c2")));
    until("the second page", || rows() == 40).await;
    window.scroll_to_with_x_and_y(0.0, 700.0);
    until("the scroll", || window.scroll_y().unwrap() == 700.0).await;
    sleep(50).await;

    // To a task and back by its Back link, then by the browser's back button.
    for back in ["link", "history"] {
        let row = host
            .query_selector_all("[data-testid='task-link']")
            .unwrap()
            .item(30)
            .unwrap()
            .unchecked_into::<HtmlElement>();
        row.click();
        until("the task's page", || !on_list()).await;
        window.scroll_to_with_x_and_y(0.0, 0.0);
        release_fetches();
        hold_fetches();
        if back == "link" {
            find(&host, "[data-testid='back']").click();
        } else {
            window.history().unwrap().back().unwrap();
        }
        until("the list", on_list).await;
        assert_eq!(rows(), 40, "{back}: the rows at once, before any answer");
        until("the place", || window.scroll_y().unwrap() == 700.0).await;
        // The keyboard is back on the task's row, not at the page's top (lead explorer).
        let opened = row.get_attribute("href").unwrap();
        until("the focus on the row opened", || {
            web_sys::window()
                .unwrap()
                .document()
                .unwrap()
                .active_element()
                .and_then(|a| a.get_attribute("href"))
                == Some(opened.clone())
        })
        .await;
        assert_eq!(window.scroll_y().unwrap(), 700.0, "{back}: not scrolled");
        until("the refresh", || {
            held_fetches().iter().any(|u| u.contains("/api/v1/tasks?"))
        })
        .await;
        let asked: Vec<String> = held_fetches()
            .into_iter()
            .filter(|u| u.contains("/api/v1/tasks?"))
            .collect();
        assert!(
            asked.len() == 1 && asked[0].contains("limit=40") && !asked[0].contains("cursor"),
            "{back}: one refresh of the 40 rows: {asked:?}"
        );
        assert!(
            host.query_selector("[data-testid='list-more']")
                .unwrap()
                .is_some()
        );
    }

    // Another filter's list starts afresh at its first page.
    find(&host, ".chip[data-phase='failed']").click();
    until("the filter's first page", || {
        held_fetches().iter().any(|u| u.contains("phase=failed"))
    })
    .await;
    spacer.remove();
    window.scroll_to_with_x_and_y(0.0, 0.0);
    finish(handle, &host, &address);
}

/// Back from another filter's rows finds the list's rows as they were left, "More"'s
/// pages and the place scrolled to, then refreshes them (lead explorer: they came back at
/// their first page, at the top).
#[wasm_bindgen_test]
async fn back_from_another_filter_finds_the_rows_as_they_were() {
    let window = web_sys::window().unwrap();
    let address = fresh_page();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/"))
        .unwrap();
    let (host, handle) = list_page_asked().await;
    // Room to scroll whatever the rows' height.
    let spacer = crate::new_host();
    spacer.style().set_property("height", "3000px").unwrap();
    let rows = || host.query_selector_all("tbody tr").unwrap().length();
    answer_fetch("/api/v1/tasks?", &page_of(0, 20, Some("c1")));
    until("the first page", || rows() == 20).await;
    find(&host, "[data-testid='list-more']").click();
    until("More's request", || {
        held_fetches().iter().any(|u| u.contains("cursor=c1"))
    })
    .await;
    answer_fetch("cursor=c1", &page_of(20, 40, Some("c2")));
    until("the second page", || rows() == 40).await;
    window.scroll_to_with_x_and_y(0.0, 700.0);
    until("the scroll", || window.scroll_y().unwrap() == 700.0).await;
    find(&host, ".chip[data-phase='failed']").click();
    until("the filter's request", || {
        held_fetches().iter().any(|u| u.contains("phase=failed"))
    })
    .await;
    answer_fetch("phase=failed", &page_of(0, 0, None));
    until("the filter's rows", || rows() == 0).await;
    release_fetches();
    hold_fetches();
    window.history().unwrap().back().unwrap();
    until("the rows as they were", || rows() == 40).await;
    until("the place", || window.scroll_y().unwrap() == 700.0).await;
    until("their refresh", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("/api/v1/tasks?") && u.contains("limit=40"))
    })
    .await;
    assert!(
        !held_fetches().iter().any(|u| u.contains("limit=20")),
        "not loaded again from the first page: {:?}",
        held_fetches()
    );
    spacer.remove();
    window.scroll_to_with_x_and_y(0.0, 0.0);
    finish(handle, &host, &address);
}

/// A form or page talking to another Berth's site follows logs with that site's
/// credentials, as its requests carry them; the console's own origin needs none.
#[wasm_bindgen_test]
fn a_log_stream_to_another_site_carries_its_credentials() {
    fake_event_source();
    let opened = |base: &str| {
        let base = frontend::api::Base::new(base);
        let follow = frontend::api::LogFollow::open(
            &base,
            &frontend::api::Source::Task("t1".into()),
            0,
            None,
            |_| {},
            |_| {},
        );
        assert!(follow.is_ok());
        js_sys::eval(
            "[window.__source.url, !!(window.__source.init || {}).withCredentials].join(' ')",
        )
        .unwrap()
        .as_string()
        .unwrap()
    };
    assert_eq!(
        opened("https://berth.example.com"),
        "https://berth.example.com/api/v1/tasks/t1/logs?replica=0&follow=true true"
    );
    assert_eq!(
        opened(""),
        "/api/v1/tasks/t1/logs?replica=0&follow=true false"
    );
    real_event_source();
}

/// The log is followed (its button pressed), not read once (no log request held).
fn assert_followed(host: &HtmlElement) {
    assert_eq!(
        find(host, "[data-testid='log-follow']")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    assert!(
        held_fetches().iter().all(|u| !u.contains("/logs")),
        "followed, not read once: {:?}",
        held_fetches()
    );
}

/// A log is shown filtered to the lines that contain what the reader types, in either
/// case of ASCII letters, saying how many of how many, or that none do; emptied, the
/// whole log is back (failed-run explorer's known gap: logs had no search).
#[wasm_bindgen_test]
async fn a_log_is_filtered_to_the_lines_containing_what_is_typed() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    let pre = find(&host, "[data-testid='log']");
    let whole = "epoch 1 loss 2.3\nWARNING: slow step\nepoch 2 loss 1.9\nRuntimeError: CUDA out of memory\nepoch 3 未完成 loss nan\n";
    reload_log(&host).await;
    answer_log_end(whole, 0);
    until("the log shown", || {
        pre.text_content().unwrap_or_default() == whole
    })
    .await;
    let input: web_sys::HtmlInputElement =
        find(&host, "[data-testid='log-filter']").unchecked_into();
    let type_in = |text: &str| {
        input.set_value(text);
        input
            .dispatch_event(&web_sys::Event::new("input").unwrap())
            .unwrap();
    };
    let count = || {
        host.query_selector("[data-testid='log-filter-count']")
            .unwrap()
            .and_then(|c| c.text_content())
    };
    type_in("error");
    until("the lines with it", || {
        pre.text_content().unwrap_or_default() == "RuntimeError: CUDA out of memory\n"
    })
    .await;
    assert_eq!(count().as_deref(), Some("1 of 5 lines contain it."));
    // A screen reader hears the count once typing pauses, not at each key nor as the
    // log grows: the line over the box is no live region (screen-reader explorer).
    let heard = || {
        find(&host, "[data-testid='log-heard']")
            .text_content()
            .unwrap_or_default()
    };
    assert_eq!(heard(), "", "not while typing");
    assert_eq!(
        find(&host, "[data-testid='log-state']").get_attribute("role"),
        None
    );
    crate::sleep(800).await;
    assert_eq!(heard(), "1 of 5 lines contain “error”.");
    // Another text matching as many lines is said too, by its text.
    type_in("cuda");
    crate::sleep(800).await;
    assert_eq!(heard(), "1 of 5 lines contain “cuda”.");
    // Heard, then gone from the page: left, it was read as the count now by a reader
    // browsing past it (keyboard recheck).
    crate::sleep(5200).await;
    assert_eq!(heard(), "");
    type_in("LOSS");
    until("the lines with it", || {
        pre.text_content().unwrap_or_default().lines().count() == 3
    })
    .await;
    assert_eq!(
        pre.text_content().unwrap(),
        "epoch 1 loss 2.3\nepoch 2 loss 1.9\nepoch 3 未完成 loss nan\n"
    );
    type_in("未完成");
    until("a line in Chinese", || {
        pre.text_content().unwrap_or_default() == "epoch 3 未完成 loss nan\n"
    })
    .await;
    type_in("nccl");
    until("none", || pre.text_content().unwrap_or_default().is_empty()).await;
    assert_eq!(
        count().as_deref(),
        Some("No line of the log shown contains “nccl”.")
    );
    type_in("");
    until("the whole log back", || {
        pre.text_content().unwrap_or_default() == whole
    })
    .await;
    assert_eq!(count(), None);
    // A box at its end stays there as the filter changes: a followed log emptied of its
    // filter stood at its top, its new lines arriving out of view (recheck).
    pre.set_attribute("style", "max-height: 100px; overflow: auto")
        .unwrap();
    read_long_log(&host, &pre, "the end").await;
    let at_end = || pre.scroll_top() + pre.client_height() + 2 >= pre.scroll_height();
    assert!(at_end(), "opened at its end");
    type_in("the end");
    until("filtered", || {
        pre.text_content().unwrap_or_default() == "the end\n"
    })
    .await;
    type_in("");
    until("the whole log back", || {
        pre.text_content().unwrap_or_default().len() > 1000
    })
    .await;
    crate::after_paint().await;
    assert!(
        at_end(),
        "still at its end: {} + {} of {}",
        pre.scroll_top(),
        pre.client_height(),
        pre.scroll_height()
    );
    // Scrolled up, the reader is not taken to the end, even through a filter whose lines
    // all fit (so at their end whatever the reader did: recheck).
    pre.set_scroll_top(0);
    type_in("line");
    until("filtered", || {
        pre.text_content()
            .unwrap_or_default()
            .starts_with("line\nline")
    })
    .await;
    type_in("the end");
    until("filtered", || {
        pre.text_content().unwrap_or_default() == "the end\n"
    })
    .await;
    type_in("");
    until("the whole log back", || {
        pre.text_content().unwrap_or_default().len() > 1000
    })
    .await;
    crate::after_paint().await;
    assert!(!at_end(), "left where the reader was, not at the end");
    finish(handle, &host, &address);
}

/// A log read (an ended attempt's) opens at its end, where a failure says why, as a
/// followed one does (explorer, round 10: a 2.7 MB log's box opened at its top).
#[wasm_bindgen_test]
async fn a_log_read_opens_at_its_end() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    let pre = find(&host, "[data-testid='log']");
    pre.set_attribute("style", "max-height: 100px; overflow: auto")
        .unwrap();
    read_long_log(&host, &pre, "the failure").await;
    assert!(pre.scroll_top() > 0, "scrolled");
    assert!(
        pre.scroll_top() + pre.client_height() + 2 >= pre.scroll_height(),
        "at the end: {} + {} of {}",
        pre.scroll_top(),
        pre.client_height(),
        pre.scroll_height()
    );
    // A reader who scrolled up to read stays there when the log is read again (review,
    // round 16: its attempt's end reloads it).
    pre.set_scroll_top(0);
    read_long_log(&host, &pre, "the end").await;
    assert_eq!(pre.scroll_top(), 0, "left where the reader was");
    finish(handle, &host, &address);
}

/// A log is read from its end, the end the page shows (the server sends no more), and
/// followed from there; what the server left out before it is said, as a cut the page
/// made itself is.
#[wasm_bindgen_test]
async fn a_log_is_read_and_followed_from_its_end_and_says_what_was_left_out() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    let cut = || {
        host.query_selector("[data-testid='log-cut']")
            .unwrap()
            .and_then(|p| p.text_content())
            .unwrap_or_default()
    };
    let log = || find(&host, "[data-testid='log']").text_content().unwrap();
    reload_log(&host).await;
    let asked = held_fetches()
        .into_iter()
        .find(|u| u.contains("/logs?"))
        .unwrap();
    assert!(
        asked.ends_with("/api/v1/tasks/t1/logs?replica=0&tail_bytes=524288"),
        "{asked}"
    );
    answer_log_end("step 9\n", 1_048_576);
    until("the log's end shown", || log() == "step 9\n").await;
    assert_eq!(
        cut(),
        "Showing the end of this log (about 1.0 MiB in all). Open the whole log"
    );

    // Followed: the stream's first word is how much it left out, then the end.
    js_sys::eval(
        "window.__RealEventSource = window.__RealEventSource || window.EventSource;
         window.EventSource = class {
             constructor(url, init) { this.url = url; this.readyState = 1; window.__source = this; }
             addEventListener(kind, f) { this['on_' + kind] = f; }
             close() { this.readyState = 2; }
         };",
    )
    .unwrap();
    find(&host, "[data-testid='log-follow']").click();
    leptos::task::tick().await;
    let url = js_sys::eval("window.__source.url")
        .unwrap()
        .as_string()
        .unwrap();
    assert_eq!(
        url,
        "/api/v1/tasks/t1/logs?replica=0&follow=true&tail_bytes=524288"
    );
    js_sys::eval(
        "window.__source.on_left_out(new MessageEvent('left_out', { data: '2097152' })); \
         window.__source.onmessage(new MessageEvent('message', { data: 'step 10\\n' }))",
    )
    .unwrap();
    until("the followed end shown", || log() == "step 10\n").await;
    assert_eq!(
        cut(),
        "Showing the end of this log (about 2.0 MiB in all). Open the whole log"
    );
    real_event_source();
    finish(handle, &host, &address);
}

/// A followed log goes on being followed on the replica picked next: the picker does not
/// stop the follow behind the reader's back.
#[wasm_bindgen_test]
async fn a_followed_log_follows_the_replica_picked_next() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    fake_event_source();
    let source = || {
        js_sys::eval("[window.__source.url, window.__source.readyState].join(' ')")
            .unwrap()
            .as_string()
            .unwrap()
    };
    let follow = find(&host, "[data-testid='log-follow']");
    follow.click();
    leptos::task::tick().await;
    assert_eq!(
        source(),
        "/api/v1/tasks/t1/logs?replica=0&follow=true&tail_bytes=524288 1"
    );
    let picker: web_sys::HtmlSelectElement =
        find(&host, "[data-testid='log-replica']").unchecked_into();
    picker.set_value("1");
    picker
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    until("the second replica followed", || {
        source() == "/api/v1/tasks/t1/logs?replica=1&follow=true&tail_bytes=524288 1"
    })
    .await;
    assert_followed(&host);
    real_event_source();
    finish(handle, &host, &address);
}

/// A running attempt's log read while still empty is read again at the page's next
/// answered poll, until it has output: "No output yet." stood for good on the page a
/// submit leads to, while the task printed (cloud-console explorer). Once it has output,
/// the polls read it no more (Follow live does).
#[wasm_bindgen_test]
async fn a_running_tasks_empty_log_is_read_again_until_it_has_output() {
    let address = fresh_page();
    let mut running = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    running.task.spec.advanced.fault_tolerance.enabled = false;
    let (host, handle) = mount_detail_page_with(&running, ("[]", 0), ("[]", 0)).await;
    let log = || find(&host, "[data-testid='log']").text_content().unwrap();
    until("the log", || log() == "No output yet.").await;
    let logs_asked = || {
        held_fetches()
            .iter()
            .filter(|u| u.contains("/logs"))
            .count()
    };
    assert_eq!(logs_asked(), 0);
    answer_poll_until_shown(&host, &running, "Running").await;
    until("the log asked for again", || logs_asked() == 1).await;
    answer_fetch("/logs", "step 1\n");
    until("the output", || log() == "step 1\n").await;
    answer_poll_until_shown(&host, &running, "Running").await;
    sleep(100).await;
    assert_eq!(logs_asked(), 0, "read no more: {:?}", held_fetches());
    finish(handle, &host, &address);
}

/// A task that fails while its page is open goes to the log of the replica whose end
/// failed it, as a page opened after the failure does (cloud-console explorer: the
/// master's healthy log stood under "Why it failed"); not when the reader picked one.
#[wasm_bindgen_test]
async fn a_task_failing_while_watched_goes_to_the_failed_replicas_log() {
    let style = page_style();
    for picked in [false, true] {
        let address = fresh_page();
        let mut running = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
        running.task.spec.advanced.fault_tolerance.enabled = false;
        let (host, handle) = mount_detail_page_with(&running, ("[]", 0), ("[]", 0)).await;
        until_found(&host, "the picker", "[data-testid='log-replica']").await;
        let picker: web_sys::HtmlSelectElement =
            find(&host, "[data-testid='log-replica']").unchecked_into();
        assert_eq!(picker.value(), "0");
        // Where the button stands in the panel (what is above the panel may move).
        let follow_at = || {
            let at = find(&host, "[data-testid='log-follow']").get_bounding_client_rect();
            let panel = find(&host, ".panel.logs").get_bounding_client_rect();
            (at.left() - panel.left(), at.top() - panel.top())
        };
        let follow_before = follow_at();
        if picked {
            // The master's log, chosen: it stays.
            picker
                .dispatch_event(&web_sys::Event::new("change").unwrap())
                .unwrap();
        }
        let mut failed = running.clone();
        failed.task.phase = TaskPhase::Failed;
        failed.failed_replica = Some(1);
        failed.task.history.push(PhaseChange {
            phase: TaskPhase::Failed,
            at: Timestamp(1_700_000_900_000),
            reason: "Replica 1 (worker 0) ended with exit code 3".into(),
            keyed: None,
        });
        answer_poll_until_shown(&host, &failed, "Failed").await;
        sleep(100).await;
        let expected = if picked { "0" } else { "1" };
        assert_eq!(picker.value(), expected, "picked by the reader: {picked}");
        // The buttons beside the picker stay as its label grows (low-vision recheck: they
        // went to a line of their own).
        crate::after_paint().await;
        assert_eq!(follow_at(), follow_before);
        // The move said over the box, the picker being off screen at 200 % (low-vision
        // explorer: the log changed without a word); nothing when the reader picked.
        let moved = all_text(&host, "[data-testid='log-moved']").concat();
        let expected = if picked {
            ""
        } else {
            "Now showing the log of 1: worker 0, whose end failed the task. "
        };
        assert_eq!(moved, expected);
        if !picked {
            // Gone once the reader picks a replica.
            picker.set_value("0");
            picker
                .dispatch_event(&web_sys::Event::new("change").unwrap())
                .unwrap();
            leptos::task::tick().await;
            assert_eq!(all_text(&host, "[data-testid='log-moved']").concat(), "");
        }
        finish(handle, &host, &address);
    }
    style.remove();
}

/// The page of `t1` in `phase`, its end having been replica 1's: the replica its log
/// picker opens on, and that option's words. The page is left mounted for the caller.
async fn picked_after_replica_1_ended(
    phase: TaskPhase,
) -> (
    HtmlElement,
    leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
    String,
    Option<String>,
) {
    let mut view = task("t1", phase, TaskType::PyTorchJob);
    view.failed_replica = Some(1);
    let (host, handle) = mount_detail_page_with(&view, ("[]", 0), ("[]", 0)).await;
    until_found(&host, "the picker", "[data-testid='log-replica']").await;
    let picker: web_sys::HtmlSelectElement =
        find(&host, "[data-testid='log-replica']").unchecked_into();
    let chosen = picker
        .selected_options()
        .item(0)
        .and_then(|o| o.text_content());
    let value = picker.value();
    (host, handle, value, chosen)
}

/// A failed task's logs open on the replica whose end failed it, marked in the picker:
/// the master's log, first in the list, said only that it was stopped (explorer).
#[wasm_bindgen_test]
async fn a_failed_tasks_logs_open_on_the_replica_that_failed_it() {
    let address = fresh_page();
    let (host, handle, value, chosen) = picked_after_replica_1_ended(TaskPhase::Failed).await;
    assert_eq!(value, "1");
    assert_eq!(
        chosen.as_deref(),
        Some("1: worker 0 — its end failed the task")
    );
    // Its log is the one asked for.
    find(&host, "[data-testid='log-reload']").click();
    until("the failed replica's log asked", || {
        held_fetches().iter().any(|u| u.contains("/logs?replica=1"))
    })
    .await;
    finish(handle, &host, &address);
}

/// A task waiting for its retry opens its logs on the replica whose end failed the
/// attempt, marked so: the master's log, which was only stopped, opened (explorer).
#[wasm_bindgen_test]
async fn a_retrying_tasks_logs_open_on_the_replica_that_failed_the_attempt() {
    let address = fresh_page();
    let (host, handle, value, chosen) = picked_after_replica_1_ended(TaskPhase::Retrying).await;
    finish(handle, &host, &address);
    assert_eq!(value, "1");
    assert_eq!(
        chosen.as_deref(),
        Some("1: worker 0 — its end failed the attempt")
    );
}

/// A followed log of a retried task goes on with the next attempt: its stream ends with
/// the first, and the next one's log was read once, early, then stood still while it ran.
#[wasm_bindgen_test]
async fn a_followed_log_goes_on_with_the_next_attempt() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    fake_event_source();
    find(&host, "[data-testid='log-follow']").click();
    leptos::task::tick().await;
    // The first attempt ends: its stream stops, and the page asks how the task is.
    js_sys::eval("window.__source.first = true; window.__source.onerror(new Event('error'))")
        .unwrap();
    until("the task asked after the stream", || {
        held_fetches().iter().any(|u| u.contains("tasks/t1?"))
    })
    .await;
    let mut retried = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    retried.task.attempts = 2;
    answer_fetch("tasks/t1?", &serde_json::to_string(&retried).unwrap());
    // The page's poll brings the second attempt: it is followed, not read once.
    ask_for_the_task_again(&host).await;
    answer_fetch("tasks/t1?", &serde_json::to_string(&retried).unwrap());
    let source = || {
        js_sys::eval("window.__source.first ? 'first' : window.__source.url")
            .unwrap()
            .as_string()
            .unwrap()
    };
    until("the second attempt followed", || {
        source() == "/api/v1/tasks/t1/logs?replica=0&follow=true&tail_bytes=524288"
    })
    .await;
    assert_followed(&host);
    real_event_source();
    back_to_english(&host).await;
    finish(handle, &host, &address);
}

/// A followed log whose attempt ends while its task waits to run again says so, and its
/// follow of the next attempt names that attempt (low-vision explorer: "its log will not
/// grow" read as the task over, then the next attempt's log came in its place without a
/// word, the attempt picker off screen at 200 %).
#[wasm_bindgen_test]
async fn a_followed_log_says_its_task_runs_again_and_which_attempt_it_follows() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    fake_event_source();
    find(&host, "[data-testid='log-follow']").click();
    leptos::task::tick().await;
    let state = || all_text(&host, "[data-testid='log-state'] [role='status']").concat();
    let waiting = task("t1", TaskPhase::Retrying, TaskType::PyTorchJob);
    answer_next_poll_with(&serde_json::to_string(&waiting).unwrap(), "[]").await;
    until("the wait read", || {
        all_text(&host, "[data-testid='title-phase']") == ["Retrying"]
    })
    .await;
    js_sys::eval("window.__source.on_end(new MessageEvent('end', { data: 'ended' }))").unwrap();
    leptos::task::tick().await;
    let ended = state();
    let mut second = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    second.task.attempts = 2;
    answer_next_poll_with(&serde_json::to_string(&second).unwrap(), "[]").await;
    js_sys::eval("window.__source.onopen && window.__source.onopen(new Event('open'))").unwrap();
    until("the second attempt followed", || {
        state() == "Following attempt 2's log live…"
    })
    .await;
    real_event_source();
    finish(handle, &host, &address);
    assert_eq!(
        ended,
        "Attempt 1 has ended. The task runs again: its next attempt's log follows here once it starts."
    );
}

/// A followed log's attempt that ends before the page has read what the task does next
/// says only that it ended, not that the log will not grow; the read that finds the task
/// waiting to run again says its next attempt will be followed, Follow live pressed while
/// it waits, and a press then stops that wait and says how to take it up (low-vision
/// recheck: "will not grow" for a moment, and a press in the wait showed nothing).
#[wasm_bindgen_test]
async fn an_attempts_end_is_said_as_far_as_the_page_knows_and_follow_waits_for_the_next() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    fake_event_source();
    let follow = find(&host, "[data-testid='log-follow']");
    follow.click();
    leptos::task::tick().await;
    let state = || all_text(&host, "[data-testid='log-state'] [role='status']").concat();
    js_sys::eval("window.__source.on_end(new MessageEvent('end', { data: 'ended' }))").unwrap();
    leptos::task::tick().await;
    let before_read = state();
    let waiting = task("t1", TaskPhase::Retrying, TaskType::PyTorchJob);
    answer_next_poll_with(&serde_json::to_string(&waiting).unwrap(), "[]").await;
    until("the wait read", || {
        all_text(&host, "[data-testid='title-phase']") == ["Retrying"]
    })
    .await;
    leptos::task::tick().await;
    let waits = (state(), follow.get_attribute("aria-pressed"));
    follow.click();
    leptos::task::tick().await;
    let stopped = (state(), follow.get_attribute("aria-pressed"));
    // Its end read as the task's: then the log is over.
    let failed = task("t1", TaskPhase::Failed, TaskType::PyTorchJob);
    answer_next_poll_with(&serde_json::to_string(&failed).unwrap(), "[]").await;
    until("the end read", || {
        all_text(&host, "[data-testid='title-phase']") == ["Failed"]
    })
    .await;
    leptos::task::tick().await;
    let over = state();
    real_event_source();
    finish(handle, &host, &address);
    assert_eq!(over, "The attempt has ended: its log will not grow.");
    assert_eq!(before_read, "Attempt 1 has ended.");
    assert_eq!(
        waits,
        (
            "Attempt 1 has ended. The task runs again: its next attempt's log follows here once it starts.".to_owned(),
            Some("true".to_owned())
        )
    );
    assert_eq!(
        stopped,
        (
            "Attempt 1 has ended. The task runs again: press Follow live to follow its next attempt's log once it starts.".to_owned(),
            Some("false".to_owned())
        )
    );
}

/// While a read of the log is out, the empty box says it reads, not that there is no
/// output; the answer says which (security explorer: a slow read said "No output yet."
/// for most of a minute, and then the log came).
#[wasm_bindgen_test]
async fn an_empty_log_box_says_it_reads_until_the_read_answers() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    let said = || all_text(&host, "[data-testid='log']").concat();
    until("the first read's answer", || said() == "No output yet.").await;
    reload_log(&host).await;
    leptos::task::tick().await;
    let reading = said();
    // Nor is the log said to be as it was when read before it is (recheck).
    let state = all_text(&host, "[data-testid='log-state'] [role='status']").concat();
    answer_log_end("", 0);
    until("the answer", || said() == "No output yet.").await;
    let read = all_text(&host, "[data-testid='log-state'] [role='status']").concat();
    finish(handle, &host, &address);
    assert_eq!(reading, "Reading the log…");
    assert_eq!(state, "");
    assert_eq!(
        read,
        "The log as it was when read: Follow live shows what is written now."
    );
}

/// The task's phase stands beside its name in the heading and in the tab's title, on the
/// first screen (low-vision explorer: at 200 % the status detail's phase was two screens
/// down, under a green "created", and a task that had failed at once read as running).
#[wasm_bindgen_test]
async fn the_tasks_phase_stands_beside_its_name_and_in_the_tab() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Failed).await;
    until_found(&host, "the heading's phase", "[data-testid='title-phase']").await;
    let heading = find(&host, "[data-testid='detail-title']")
        .text_content()
        .unwrap();
    let title = web_sys::window().unwrap().document().unwrap().title();
    finish(handle, &host, &address);
    assert_eq!(heading, "Task t1 Failed");
    assert_eq!(title, "Task t1: Failed — Berth");
}

/// While a replica's failure ends its attempt, the page says so where "Why it failed"
/// then stands, and marks the replica, though the task still runs (hung-job explorer: for
/// the grace it read running, as if nothing had happened).
#[wasm_bindgen_test]
async fn a_failure_ending_the_attempt_is_said_while_the_task_runs() {
    let address = fresh_page();
    let mut view = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    view.failing = Some("replica 1 (worker 0) ended with exit code 1".into());
    view.failed_replica = Some(1);
    let (host, handle) = mount_detail_page_with(&view, ("[]", 0), ("[]", 0)).await;
    until_found(&host, "the line", "[data-testid='failing']").await;
    let said = all_text(&host, "[data-testid='failing'] > *");
    let replicas = all_text(&host, "[data-testid='log-replica'] option");
    finish(handle, &host, &address);
    // The reason alone under its heading, as "Why it failed" then says it, in as many
    // lines, with the same way to the log (recheck: the panels under it moved up at the
    // end).
    assert_eq!(
        said,
        [
            "Ending for a failure",
            "replica 1 (worker 0) ended with exit code 1",
            "Read its log"
        ]
    );
    assert_eq!(
        replicas,
        ["0: master", "1: worker 0 — its end failed the attempt"]
    );
}

/// An earlier attempt's log picked, the replica whose end failed that attempt is marked,
/// as the latest's is (hung-job explorer: after a retry succeeded, attempt 1's replicas
/// read alike).
#[wasm_bindgen_test]
async fn an_earlier_attempts_failed_replica_is_marked() {
    let address = fresh_page();
    let mut view = task("t1", TaskPhase::Succeeded, TaskType::PyTorchJob);
    view.task.attempts = 2;
    view.attempt_failures = vec![shared::api::AttemptFailure {
        attempt: 1,
        replica: 1,
    }];
    let (host, handle) = mount_detail_page_with(&view, ("[]", 0), ("[]", 0)).await;
    let replicas = || all_text(&host, "[data-testid='log-replica'] option");
    until("the replicas", || replicas().len() == 2).await;
    assert_eq!(
        replicas(),
        ["0: master", "1: worker 0"],
        "the latest ran well"
    );
    let select =
        find(&host, "[data-testid='log-attempt']").unchecked_into::<web_sys::HtmlSelectElement>();
    select.set_value("1");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    until("the mark", || replicas()[1] != "1: worker 0").await;
    let marked = replicas();
    finish(handle, &host, &address);
    assert_eq!(
        marked,
        ["0: master", "1: worker 0 — its end failed the attempt"]
    );
}

/// The attempt picker names the attempt whose log the box shows as attempts begin: the
/// latest picked again follows the next one, and an earlier one picked stays named (all-
/// day explorer: the options built again for a new attempt showed it over the one picked,
/// whose log the box kept, and picking it again did nothing).
#[wasm_bindgen_test]
async fn the_attempt_picker_names_the_attempt_shown_as_attempts_begin() {
    let address = fresh_page();
    let mut view = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    view.task.attempts = 2;
    let (host, handle) = mount_detail_page_with(&view, ("[]", 0), ("[]", 0)).await;
    let picker = || {
        find(&host, "[data-testid='log-attempt']").unchecked_into::<web_sys::HtmlSelectElement>()
    };
    let pick = |n: &str| {
        let select = picker();
        select.set_value(n);
        select
            .dispatch_event(&web_sys::Event::new("change").unwrap())
            .unwrap();
    };
    let begins = |attempts: u32| {
        let mut next = view.clone();
        next.task.attempts = attempts;
        let host = host.clone();
        async move {
            ask_for_the_task_again(&host).await;
            answer_fetch("tasks/t1?", &serde_json::to_string(&next).unwrap());
            let select = || {
                find(&host, "[data-testid='log-attempt']")
                    .unchecked_into::<web_sys::HtmlSelectElement>()
            };
            until("its option", || select().length() == attempts).await;
        }
    };
    pick("1");
    leptos::task::tick().await;
    // The latest again: the page goes on with the attempts that begin.
    pick("2");
    leptos::task::tick().await;
    begins(3).await;
    assert_eq!(picker().value(), "3");
    // And the box is the third's, running, read once ("the log as it was when read",
    // once its read answers), not the second's, ended, which says nothing more of itself.
    until("the third's log asked", || {
        held_fetches().iter().any(|u| u.contains("/logs?"))
    })
    .await;
    // The reads the picks asked for before it too, which it overtook.
    while held_fetches().iter().any(|u| u.contains("/logs?")) {
        answer_log_end("step 1\n", 0);
    }
    until("the third's log read", || {
        all_text(&host, "[data-testid='log-state']")
            .iter()
            .any(|s| !s.is_empty())
    })
    .await;
    // An earlier one picked stays named while a next one begins.
    pick("1");
    leptos::task::tick().await;
    begins(4).await;
    assert_eq!(picker().value(), "1");
    back_to_english(&host).await;
    finish(handle, &host, &address);
}

/// With the server down, the page says it cannot reach it once: the log's own read,
/// failing too, is not said again in its panel below (ops explorer: twice on one
/// screen). Said there alone when the page has nothing to say.
#[wasm_bindgen_test]
async fn a_server_down_is_said_once_not_again_by_the_log() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    let in_logs = || {
        host.query_selector(".logs [data-testid='error']")
            .unwrap()
            .is_some()
    };
    // The log read again, and failing, while the page's own poll is fine.
    let reload = || async {
        find(&host, "[data-testid='log-reload']").click();
        until("the log asked", || {
            held_fetches().iter().any(|u| u.contains("/logs"))
        })
        .await;
        fail_fetch("/logs");
    };
    reload().await;
    until("the log's failure said", in_logs).await;
    // The page's poll fails too: its banner says it, and the log's goes.
    ask_for_the_task_again(&host).await;
    fail_fetch("tasks/t1?");
    until("the page's failure said", || {
        host.query_selector("[data-testid='error']:not(.logs *)")
            .unwrap()
            .is_some()
    })
    .await;
    assert!(!in_logs(), "said twice");
    finish(handle, &host, &address);
}

/// A follow that failed while the server was down says why in the log's panel; once the
/// server is heard from again (the next attempt's stream speaks or ends, or answers how
/// the task is after the stream broke), the failure is over and goes, as the page's own
/// banner goes on recovery. It stayed beside "Following the log live…", then beside "The
/// attempt has ended: its log will not grow." Until then nothing says the server is back:
/// the failure stays.
#[wasm_bindgen_test]
async fn a_follow_that_works_again_clears_the_failure_it_said() {
    for heard in [
        "its opening",
        "a chunk",
        "its end",
        "the task after a break",
    ] {
        let address = fresh_page();
        let (host, handle) = mount_detail_page().await;
        let failure = || {
            host.query_selector(".logs [data-testid='error']")
                .unwrap()
                .is_some()
        };
        let state = || {
            find(&host, "[data-testid='log-state']")
                .text_content()
                .unwrap()
        };
        fake_event_source();
        // The server is down: the stream breaks, and how the task is cannot be asked.
        find(&host, "[data-testid='log-follow']").click();
        leptos::task::tick().await;
        js_sys::eval("window.__source.onerror(new Event('error'))").unwrap();
        until("the task asked after the stream", || {
            held_fetches().iter().any(|u| u.contains("tasks/t1?"))
        })
        .await;
        fail_fetch("tasks/t1?");
        until("the failure said", failure).await;
        // The server is back, and the task on its next attempt, which is followed.
        let mut retried = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
        retried.task.attempts = 2;
        ask_for_the_task_again(&host).await;
        answer_fetch("tasks/t1?", &serde_json::to_string(&retried).unwrap());
        until("the next attempt followed", || {
            state() == "正在实时跟踪第 2 次运行的日志…"
        })
        .await;
        assert!(failure(), "nothing heard from the server yet");
        match heard {
            // Answered, with nothing to say yet (a replica with no output).
            "its opening" => {
                js_sys::eval("window.__source.onopen(new Event('open'))").unwrap();
                leptos::task::tick().await;
                assert_eq!(state(), "正在实时跟踪第 2 次运行的日志…");
            }
            "a chunk" => {
                js_sys::eval(
                    "window.__source.onmessage(new MessageEvent('message', { data: 'step 1\\n' }))",
                )
                .unwrap();
                leptos::task::tick().await;
                assert_eq!(state(), "正在实时跟踪第 2 次运行的日志…");
            }
            // A replica with no output says nothing until its attempt's end.
            "its end" => {
                js_sys::eval("window.__source.on_end(new MessageEvent('end', { data: 'ended' }))")
                    .unwrap();
                leptos::task::tick().await;
                // As far as the page knows: the task still runs as last read.
                assert_eq!(state(), "第 2 次运行已结束。");
            }
            _ => {
                js_sys::eval("window.__source.onerror(new Event('error'))").unwrap();
                until("the task asked after the stream", || {
                    held_fetches().iter().any(|u| u.contains("tasks/t1?"))
                })
                .await;
                answer_fetch("tasks/t1?", &serde_json::to_string(&retried).unwrap());
                until("the break said", || {
                    state() == "实时日志在本次运行结束前中断。点击“实时跟踪”可继续跟踪，点击“刷新”读取一次。"
                })
                .await;
            }
        }
        assert!(!failure(), "heard from the server: {heard}");
        real_event_source();
        back_to_english(&host).await;
        finish(handle, &host, &address);
    }
}

/// A follow that broke off while its attempt runs, the server answering (a dropped
/// connection), is begun again at the next answered poll: a tab left open all day went
/// quiet for good at the first blip (all-day explorer). Three times in a row at most,
/// none of them speaking: then the break is said and left to the reader.
#[wasm_bindgen_test]
async fn a_follow_that_broke_off_while_its_attempt_runs_is_begun_again() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    fake_event_source();
    find(&host, "[data-testid='log-follow']").click();
    leptos::task::tick().await;
    let running =
        serde_json::to_string(&task("t1", TaskPhase::Running, TaskType::PyTorchJob)).unwrap();
    let sources = || {
        js_sys::eval("window.__sources = (window.__sources || 0) + (window.__source.counted ? 0 : 1); window.__source.counted = true; window.__sources")
            .unwrap()
            .as_f64()
            .unwrap() as u32
    };
    assert_eq!(sources(), 1);
    // The page's poll, without waiting 2 s for it: each switch of language asks.
    let mut zh = false;
    for resumed in 1..=4 {
        js_sys::eval("window.__source.onerror(new Event('error'))").unwrap();
        until("the task asked after the stream", || {
            held_fetches().iter().any(|u| u.contains("tasks/t1?"))
        })
        .await;
        answer_fetch("tasks/t1?", &running);
        let lang = if zh { "lang-en" } else { "lang-zh" };
        zh = !zh;
        find(&host, &format!("[data-testid='{lang}']")).click();
        until("the task asked again", || {
            held_fetches().iter().any(|u| u.contains("tasks/t1?"))
        })
        .await;
        answer_fetch("tasks/t1?", &running);
        sleep(50).await;
        if resumed <= 3 {
            until("followed again", || sources() == resumed + 1).await;
            assert_followed(&host);
        } else {
            assert_eq!(sources(), 4, "not begun a fourth time in a row");
            assert!(
                host.query_selector("[data-testid='log-follow']")
                    .unwrap()
                    .is_some()
            );
        }
    }
    real_event_source();
    back_to_english(&host).await;
    finish(handle, &host, &address);
}

/// A followed log whose stream stops without its `end` event (a pod's log the cluster
/// cut short) when its attempt has ended is not shown as complete: it is read whole.
#[wasm_bindgen_test]
async fn a_followed_log_that_broke_off_as_its_attempt_ended_is_read_whole() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    let log = || find(&host, "[data-testid='log']").text_content().unwrap();
    fake_event_source();
    find(&host, "[data-testid='log-follow']").click();
    leptos::task::tick().await;
    js_sys::eval(
        "window.__source.onmessage(new MessageEvent('message', { data: 'step 1\\n' })); \
         window.__source.onerror(new Event('error'))",
    )
    .unwrap();
    until("the task asked after the stream", || {
        held_fetches().iter().any(|u| u.contains("tasks/t1?"))
    })
    .await;
    let ended = task("t1", TaskPhase::Succeeded, TaskType::PyTorchJob);
    answer_fetch("tasks/t1?", &serde_json::to_string(&ended).unwrap());
    until("the log read whole", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("/logs?") && !u.contains("follow"))
    })
    .await;
    answer_fetch("/logs", "step 1\nstep 2\n");
    until("the whole log shown", || log() == "step 1\nstep 2\n").await;
    real_event_source();
    finish(handle, &host, &address);
}

/// A log read while its attempt ran may be missing its end: when the task ends with the
/// page open, the log is read again. An empty log of an ended attempt says there was no
/// output, not "no output yet".
#[wasm_bindgen_test]
async fn a_task_that_ends_with_its_page_open_has_its_log_read_again() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    let log = || find(&host, "[data-testid='log']").text_content().unwrap();
    until("the log", || log() == "No output yet.").await;
    ask_for_the_task_again(&host).await;
    let ended = task("t1", TaskPhase::Succeeded, TaskType::PyTorchJob);
    answer_fetch("tasks/t1?", &serde_json::to_string(&ended).unwrap());
    until("the log asked for again", || {
        held_fetches().iter().any(|u| u.contains("/logs"))
    })
    .await;
    answer_fetch("/logs", "");
    until("the ended log", || log() == "该副本在本次运行中没有输出。").await;
    back_to_english(&host).await;
    // Its fetch answered, so no request is left for the next test.
    until("the task in English", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("tasks/t1?lang=en"))
    })
    .await;
    answer_fetch("tasks/t1?", &serde_json::to_string(&ended).unwrap());
    answer_events_when_asked(&latest_events("en"), "[]", 0).await;
    answer_events_when_asked(&latest_retries("en"), "[]", 0).await;
    finish(handle, &host, &address);
}

/// The list says it is loading while its first page has not come: the table's headers
/// alone read as no tasks (recheck explorer, on a connection that hung).
#[wasm_bindgen_test]
async fn the_list_says_it_is_loading_until_its_first_page_comes() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let status = || {
        find(&host, "[data-testid='list-status']")
            .text_content()
            .unwrap()
    };
    assert!(status().starts_with("Loading tasks…"), "{}", status());
    let asked = held_fetches()
        .into_iter()
        .find(|u| u.contains("/api/v1/tasks?"))
        .unwrap();
    answer_fetch(&asked, &page_of(0, 0, None));
    until("the page shown", || status().starts_with("0 shown")).await;
    finish(handle, &host, &address);
}

/// An address of many long pairs the list does not know says the first few, cut short,
/// and how many more: all forty pushed the table a screen and a half down (network
/// explorer).
#[wasm_bindgen_test]
async fn many_filters_not_applied_are_said_in_short() {
    let window = web_sys::window().unwrap();
    let address = fresh_page();
    let junk: Vec<String> = (0..40)
        .map(|i| format!("junk{i}={}", "x".repeat(200)))
        .collect();
    window
        .history()
        .unwrap()
        .replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("/?{}", junk.join("&"))),
        )
        .unwrap();
    let (host, handle) = list_page_asked().await;
    let note = find(&host, "[data-testid='ignored-filters']")
        .text_content()
        .unwrap();
    assert!(
        note.starts_with(&format!(
            "Not applied from the address: junk0={}… (not a filter this list knows)",
            "x".repeat(54)
        )),
        "{note}"
    );
    assert!(note.ends_with(" and 35 more."), "{note}");
    assert!(!note.contains("junk5"), "{note}");
    assert!(note.chars().count() < 600, "{note}");
    finish(handle, &host, &address);
}

/// An address whose filters the list does not know says so instead of showing every
/// task as if asked for, and a group the user's groups lack shows in the select that
/// filters by it; a change of filters ends the note.
#[wasm_bindgen_test]
async fn filters_from_the_address_are_shown_or_said_not_applied() {
    let window = web_sys::window().unwrap();
    let address = fresh_page();
    window
        .history()
        .unwrap()
        .replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some("/?phase=bogus&type=foo&group=nosuch&x=1&mine=maybe&mine&tag=-team"),
        )
        .unwrap();
    let (host, handle) = list_page_asked().await;
    let asked = held_fetches();
    assert!(
        asked.iter().any(|u| u.contains("group=nosuch"))
            && asked.iter().all(|u| !u.contains("tag=")),
        "{asked:?}"
    );
    answer_fetch("group=nosuch", &page_of(0, 0, None));
    let note = find(&host, "[data-testid='ignored-filters']")
        .text_content()
        .unwrap();
    assert!(
        note.starts_with(
            "Not applied from the address: phase=bogus (not a phase the list shows; it shows \
             active, queued, scheduling, running, retrying, succeeded, failed and stopped), \
             type=foo (not a task type; the types are pytorch_job and ray_job), "
        ),
        "{note}"
    );
    assert!(
        note.contains("x=1 (not a filter this list knows)"),
        "{note}"
    );
    // A name given twice says so: the last is the one applied (here itself not one).
    assert!(
        note.contains("mine=maybe (given again later: only the last is read) and mine= (mine takes true or false)."),
        "{note}"
    );
    // A tag no tag could have is not asked for: its box keeps it and says why.
    let tag: web_sys::HtmlInputElement = find(&host, "[data-testid='filter-tag']").unchecked_into();
    assert_eq!(tag.value(), "-team");
    assert_eq!(tag.get_attribute("aria-invalid").as_deref(), Some("true"));
    let said = find(&host, "[data-testid='filter-tag-refused']")
        .text_content()
        .unwrap_or_default();
    assert!(said.contains("Its key: use at most 63"), "{said}");
    let scope: web_sys::HtmlSelectElement =
        find(&host, "[data-testid='filter-scope']").unchecked_into();
    assert_eq!(scope.value(), "group:nosuch");
    assert!(
        scope
            .selected_options()
            .item(0)
            .and_then(|o| o.text_content())
            .is_some_and(|t| t.contains("nosuch") && t.contains("not one of yours")),
    );
    find(&host, ".chip[data-phase='failed']").click();
    until("the note gone", || {
        host.query_selector("[data-testid='ignored-filters']")
            .unwrap()
            .is_none()
    })
    .await;
    finish(handle, &host, &address);
}

/// A change of filters is a step in the history: Back brings the filters before, with
/// their tasks, and Forward the ones after; the address the list opened at adds no step.
#[wasm_bindgen_test]
async fn back_and_forward_step_through_the_lists_filters() {
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let address = fresh_page();
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/?type=ray_job"))
        .unwrap();
    let steps = history.length().unwrap();
    let (host, handle) = list_page_asked().await;
    let search = || window.location().search().unwrap();
    let pressed = |phase: &str| {
        find(&host, &format!(".chip[data-phase='{phase}']"))
            .get_attribute("aria-pressed")
            .as_deref()
            == Some("true")
    };
    answer_fetch("type=ray_job", &page_of(0, 3, None));
    assert_eq!(history.length().unwrap(), steps, "opening adds no step");
    find(&host, ".chip[data-phase='failed']").click();
    until("the failed filter's request", || {
        held_fetches().iter().any(|u| u.contains("phase=failed"))
    })
    .await;
    answer_fetch("phase=failed", &page_of(0, 1, None));
    assert_eq!(search(), "?phase=failed&type=ray_job");
    history.back().unwrap();
    until("the filters before", || {
        search() == "?type=ray_job" && pressed("all")
    })
    .await;
    until("their tasks asked for", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("type=ray_job") && !u.contains("phase="))
    })
    .await;
    answer_fetch("type=ray_job", &page_of(0, 3, None));
    history.forward().unwrap();
    until("the filters after", || {
        search() == "?phase=failed&type=ray_job" && pressed("failed")
    })
    .await;
    until("their tasks asked for", || {
        held_fetches().iter().any(|u| u.contains("phase=failed"))
    })
    .await;
    answer_fetch("phase=failed", &page_of(0, 1, None));
    finish(handle, &host, &address);
}

/// A task's spec is compared with another task's, field by field, under the spec: the
/// task it was made from is offered; each field that differs is named in the form's
/// words and by its path, with both values (one a task lacks said as not set); the same
/// specs, the task itself and a task that cannot be read are said so (known gap: two
/// runs were compared in two tabs).
#[wasm_bindgen_test]
async fn a_spec_is_compared_with_another_tasks_field_by_field() {
    let address = fresh_page();
    let mut view = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    view.made_from = Some(MadeFrom {
        task: TaskId("t0".into()),
        how: MadeHow::Clone,
    });
    let (host, handle) = mount_detail_page_with(&view, ("[]", 0), ("[]", 0)).await;
    request_for("/api/v1/tasks/t1/spec").await;
    let mine = view.task.spec.clone();
    answer_fetch(
        "/api/v1/tasks/t1/spec",
        &serde_json::to_string(&mine).unwrap(),
    );
    until_found(&host, "the spec", "[data-testid='spec-view']").await;
    let input: web_sys::HtmlInputElement =
        find(&host, "[data-testid='compare-with']").unchecked_into();
    assert_eq!(input.value(), "t0", "the task it was made from, offered");
    let said = || {
        find(&host, "[data-testid='compared']")
            .text_content()
            .unwrap()
    };
    let compare_with = |id: &str| {
        input.set_value(id);
        input
            .dispatch_event(&web_sys::Event::new("input").unwrap())
            .unwrap();
        find(&host, "[data-testid='compare-go']").click();
    };

    // Three fields apart: the workers, an env var's value, and a tag t0 has more.
    let mut theirs = mine.clone();
    theirs.compute.workers = mine.compute.workers + 2;
    theirs.environment.env[0].value = "other".into();
    theirs.basic.tags = view.tags.clone();
    theirs.basic.tags.push(shared::task::Tag {
        key: "lr".into(),
        value: "0.01".into(),
    });
    compare_with("t0");
    request_for("/api/v1/tasks/t0/spec").await;
    answer_fetch(
        "/api/v1/tasks/t0/spec",
        &serde_json::to_string(&theirs).unwrap(),
    );
    until_found(&host, "what differs", "table.compared").await;
    let rows = host.query_selector_all("table.compared tbody tr").unwrap();
    let row = |i: u32| -> (String, Vec<String>) {
        let tr: web_sys::Element = rows.item(i).unwrap().unchecked_into();
        let cells = tr.query_selector_all("td").unwrap();
        (
            tr.get_attribute("data-path").unwrap(),
            (0..cells.length())
                .map(|c| cells.item(c).unwrap().text_content().unwrap())
                .collect(),
        )
    };
    let workers: Vec<String> = [mine.compute.workers, theirs.compute.workers]
        .iter()
        .map(u32::to_string)
        .collect();
    assert_eq!(rows.length(), 3);
    assert_eq!(
        find(&host, "table.compared caption")
            .text_content()
            .unwrap(),
        "3 fields differ from t0:"
    );
    // t0's second tag, after the first, where its spec has it: one row, the tag whole.
    assert_eq!(
        row(0),
        (
            "basic.tags[1]".to_owned(),
            vec!["not set".to_owned(), "lr=0.01".to_owned()]
        )
    );
    assert_eq!(
        row(1),
        (
            "environment.env[0].value".to_owned(),
            vec![mine.environment.env[0].value.clone(), "other".to_owned()]
        )
    );
    assert_eq!(row(2), ("compute.workers".to_owned(), workers));
    // Named in the form's words, with the path.
    assert!(
        find(&host, "table.compared tbody tr:nth-child(2) th")
            .text_content()
            .unwrap()
            .ends_with("environment.env[0].value"),
    );
    assert!(
        host.query_selector("[data-testid='compared'] .help")
            .unwrap()
            .is_none(),
        "nothing masked"
    );

    // Env vars are paired by name, not by row: one t0 has before the rest is one row,
    // not every later one renamed (recheck). Its hidden value, masked in t0's spec, is
    // not compared, and said so.
    let mut more = mine.clone();
    more.basic.tags = view.tags.clone();
    more.environment.env.insert(
        0,
        shared::task::EnvVar {
            name: "EXTRA".into(),
            value: "1".into(),
            hidden: false,
        },
    );
    for var in more.environment.env.iter_mut().filter(|v| v.hidden) {
        var.value = shared::task::HIDDEN_VALUE_MASK.into();
    }
    assert!(
        mine.environment.env.iter().any(|v| v.hidden),
        "a hidden one to mask"
    );
    compare_with("t0");
    request_for("/api/v1/tasks/t0/spec").await;
    answer_fetch(
        "/api/v1/tasks/t0/spec",
        &serde_json::to_string(&more).unwrap(),
    );
    until("one row", || {
        host.query_selector_all("table.compared tbody tr")
            .unwrap()
            .length()
            == 1
    })
    .await;
    let tr = find(&host, "table.compared tbody tr");
    assert_eq!(
        tr.get_attribute("data-path").as_deref(),
        Some("environment.env[0]")
    );
    assert_eq!(
        all_text(&host, "table.compared tbody td"),
        ["not set", "EXTRA=1"]
    );
    assert_eq!(
        find(&host, "[data-testid='compared'] .help")
            .text_content()
            .unwrap(),
        "Hidden values masked in either spec are not compared."
    );
    // Mounts are paired by their path, alerts by all they say: a dataset and an alert
    // t0 has before the rest are a row each, `id:path` and the alert's words, and a
    // dataset moved to another path of the same id is one row too (known gap: paired by
    // row, one mount added read as every later one changed).
    let mut mounted = mine.clone();
    mounted.basic.tags = view.tags.clone();
    assert!(
        !mine.environment.datasets.is_empty()
            && !mine.environment.models.is_empty()
            && !mine.advanced.alerts.is_empty(),
        "a dataset, a model and an alert to put others before"
    );
    mounted.environment.datasets.insert(
        0,
        shared::task::Mount {
            id: "ds-extra".into(),
            path: "/mnt/extra".into(),
        },
    );
    mounted.advanced.alerts.insert(
        0,
        shared::task::Alert {
            event: shared::task::AlertEvent::QueuedLongerThan,
            threshold: Some(30),
            channel: shared::task::AlertChannel::Email,
            target: "bob@example.com".into(),
        },
    );
    // The same mount twice is two items: the second pairs with none of t1's.
    let model = mine.environment.models[0].clone();
    mounted.environment.models.push(model.clone());
    compare_with("t0");
    request_for("/api/v1/tasks/t0/spec").await;
    answer_fetch(
        "/api/v1/tasks/t0/spec",
        &serde_json::to_string(&mounted).unwrap(),
    );
    until("a row each", || {
        host.query_selector_all("table.compared tbody tr")
            .unwrap()
            .length()
            == 3
    })
    .await;
    let paths: Vec<String> = {
        let rows = host.query_selector_all("table.compared tbody tr").unwrap();
        (0..rows.length())
            .map(|i| {
                let tr: web_sys::Element = rows.item(i).unwrap().unchecked_into();
                tr.get_attribute("data-path").unwrap()
            })
            .collect()
    };
    assert_eq!(
        paths,
        [
            "environment.datasets[0]".to_owned(),
            format!("environment.models[{}]", mine.environment.models.len()),
            "advanced.alerts[0]".to_owned(),
        ]
    );
    assert_eq!(
        all_text(&host, "table.compared tbody td"),
        [
            "not set".to_owned(),
            "ds-extra:/mnt/extra".to_owned(),
            "not set".to_owned(),
            format!("{}:{}", model.id, model.path),
            "not set".to_owned(),
            "queued_longer_than · 30 · email · bob@example.com".to_owned(),
        ]
    );

    // The same spec.
    compare_with("t0");
    request_for("/api/v1/tasks/t0/spec").await;
    let mut same = mine.clone();
    same.basic.tags = view.tags.clone();
    answer_fetch(
        "/api/v1/tasks/t0/spec",
        &serde_json::to_string(&same).unwrap(),
    );
    until("the same", || {
        said() == "Its spec and the spec of t0 are the same."
    })
    .await;
    // Itself, and a task that cannot be read.
    compare_with("t1");
    until("itself", || said() == "That is this task.").await;
    compare_with("t9");
    request_for("/api/v1/tasks/t9/spec").await;
    refuse_fetch(
        "/api/v1/tasks/t9/spec",
        404,
        r#"{"type":"about:blank","title":"Not Found","status":404,"code":"task.not_found","detail":"no task t9"}"#,
    );
    until("refused", || said().contains("(task.not_found)")).await;
    finish(handle, &host, &address);
}

/// Tags saved on the task page are the task's: the spec shown carries them at once, as
/// the server's spec (read by Clone) and Resubmit do.
#[wasm_bindgen_test]
async fn saved_tags_show_in_the_spec_at_once() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until("the spec's request", || {
        held_fetches().iter().any(|u| u.contains("/spec"))
    })
    .await;
    let mut spec = shared::demo::pytorch();
    spec.basic.tags = vec![shared::task::Tag {
        key: "team".into(),
        value: "nlp".into(),
    }];
    answer_fetch("/spec", &serde_json::to_string(&spec).unwrap());
    let shown = || {
        host.query_selector("[data-testid='spec-view']")
            .unwrap()
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    };
    until("the spec", || shown().contains(r#"value: "nlp""#)).await;
    for (id, text) in [("tag-key", "stage"), ("tag-value", "eval")] {
        let input: web_sys::HtmlInputElement =
            find(&host, &format!("[data-testid='{id}']")).unchecked_into();
        input.set_value(text);
        input
            .dispatch_event(&web_sys::Event::new("input").unwrap())
            .unwrap();
    }
    find(&host, "[data-testid='tag-add']").click();
    leptos::task::tick().await;
    find(&host, "[data-testid='tags-save']").click();
    until("the save", || {
        held_fetches().iter().any(|u| u.contains("/tags"))
    })
    .await;
    let mut saved = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    saved.tags.push(shared::task::Tag {
        key: "stage".into(),
        value: "eval".into(),
    });
    answer_fetch("/tags", &serde_json::to_string(&saved).unwrap());
    until("the spec with the saved tags", || {
        shown().contains(r#"value: "nlp""#) && shown().contains(r#"value: "eval""#)
    })
    .await;
    finish(handle, &host, &address);
}

/// A tag typed into the boxes and saved without Add is saved with the rest, not left in
/// its boxes under "Tags saved."; one that breaks a rule is added, said at its tag, and
/// holds the save. Add with nothing typed leads to the key's box.
#[wasm_bindgen_test]
async fn a_tag_typed_and_saved_without_add_is_saved() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the tags", "[data-testid='tag-key']").await;
    let kept = host
        .query_selector_all("[data-testid='tags'] li")
        .unwrap()
        .length();
    let type_tag = |key: &str, value: &str| {
        for (id, text) in [("tag-key", key), ("tag-value", value)] {
            let input: web_sys::HtmlInputElement =
                find(&host, &format!("[data-testid='{id}']")).unchecked_into();
            input.set_value(text);
            input
                .dispatch_event(&web_sys::Event::new("input").unwrap())
                .unwrap();
        }
    };
    let saves = || {
        held_fetches()
            .iter()
            .filter(|u| u.contains("/tags"))
            .count()
    };
    // Save with nothing changed saves nothing and says so; it is marked as having
    // nothing to do.
    let save = find(&host, "[data-testid='tags-save']");
    assert_eq!(save.get_attribute("aria-disabled").as_deref(), Some("true"));
    save.click();
    leptos::task::tick().await;
    assert_eq!(saves(), 0, "nothing to save");
    assert_eq!(
        all_text(&host, "[data-testid='tags-saved']"),
        ["Nothing to save: these are the task's tags."]
    );
    // Said of the tags as they were then: an edit since ends it, undone too (review).
    type_tag("x", "");
    leptos::task::tick().await;
    type_tag("", "");
    until("the line gone", || {
        all_text(&host, "[data-testid='tags-saved']") == [""]
    })
    .await;
    // Add leads to the key's box: with nothing typed, adding nothing; after a tag added,
    // where the next one is typed, not on Add (screen-reader explorer).
    let add = find(&host, "[data-testid='tag-add']");
    let press_add = async || {
        add.focus().unwrap();
        add.click();
        leptos::task::tick().await;
        assert_eq!(focused_test_id().as_deref(), Some("tag-key"));
        host.query_selector_all("[data-testid='tags'] li")
            .unwrap()
            .length()
    };
    assert_eq!(press_add().await, kept);
    type_tag("bad key!", "x");
    assert_eq!(press_add().await, kept + 1);
    find(&host, "[data-testid='tags-save']").click();
    leptos::task::tick().await;
    assert_eq!(saves(), 0, "a tag that breaks a rule holds the save");
    assert_eq!(
        web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .active_element()
            .map(|a| a.id())
            .as_deref(),
        Some("tags-msgs"),
        "the save goes off under the focus: the keyboard goes to what says why"
    );
    assert!(
        host.query_selector("[data-testid='tags-findings'] li[data-path$='.key']")
            .unwrap()
            .is_some(),
        "{:?}",
        all_text(&host, "[data-testid='tags-findings'] li")
    );
    find(&host, "[data-testid='tags'] li:last-child .remove").click();
    leptos::task::tick().await;

    type_tag("stage", "eval");
    find(&host, "[data-testid='tags-save']").click();
    until("the save", || saves() == 1).await;
    let sent = held_fetch_body("/tags").await;
    assert!(
        sent.contains(r#""key":"stage""#) && sent.contains(r#""value":"eval""#),
        "{sent}"
    );
    let boxes: Vec<String> = ["tag-key", "tag-value"]
        .iter()
        .map(|id| {
            find(&host, &format!("[data-testid='{id}']"))
                .unchecked_into::<web_sys::HtmlInputElement>()
                .value()
        })
        .collect();
    assert_eq!(boxes, ["", ""], "the typed tag moved into the list");
    assert_eq!(
        host.query_selector_all("[data-testid='tags'] li")
            .unwrap()
            .length(),
        kept + 1
    );
    finish(handle, &host, &address);
}

/// The stop and delete questions take the keyboard at their safe answer, so a second
/// Enter does not act; Escape or Cancel closes them and puts the keyboard back at the
/// button that asked.
#[wasm_bindgen_test]
async fn the_stop_and_delete_questions_start_at_cancel_and_escape_closes_them() {
    for (phase, what) in [
        (TaskPhase::Succeeded, "delete"),
        (TaskPhase::Running, "stop"),
    ] {
        let address = fresh_page();
        let (host, handle) = mount_detail_page_in(phase).await;
        let focused = || {
            web_sys::window()
                .unwrap()
                .document()
                .unwrap()
                .active_element()
                .and_then(|e| e.get_attribute("data-testid"))
                .unwrap_or_default()
        };
        let question = format!("[data-testid='confirm-{what}']");
        let asked = || host.query_selector(&question).unwrap().is_some();
        let no = format!("[data-testid='confirm-{what}-no']");
        for close in ["escape", "cancel"] {
            find(&host, &format!("[data-testid='action-{what}']")).click();
            until("the question", asked).await;
            until("the keyboard at Cancel", || {
                focused() == format!("confirm-{what}-no")
            })
            .await;
            if close == "escape" {
                let init = web_sys::KeyboardEventInit::new();
                init.set_key("Escape");
                init.set_bubbles(true);
                let escape =
                    web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init)
                        .unwrap();
                find(&host, &no).dispatch_event(&escape).unwrap();
            } else {
                find(&host, &no).click();
            }
            until("the question gone", || !asked()).await;
            assert_eq!(focused(), format!("action-{what}"), "{close}");
        }
        // The focus moved on past the question, by Tab or a click, closes it, and stays
        // where it went.
        find(&host, &format!("[data-testid='action-{what}']")).click();
        until("the question", asked).await;
        until("the keyboard at Cancel", || {
            focused() == format!("confirm-{what}-no")
        })
        .await;
        find(&host, "[data-testid='action-clone']").focus().unwrap();
        until("the question gone as the focus moved on", || !asked()).await;
        assert_eq!(focused(), "action-clone");
        assert!(
            !held_fetches()
                .iter()
                .any(|u| u.ends_with("/tasks/t1") || u.contains("/stop")),
            "nothing {what}: {:?}",
            held_fetches()
        );
        finish(handle, &host, &address);
    }
}

/// The task `t1` in `phase`, as JSON: running, what the server answers a stop with (it
/// runs until its replicas have ended) and a refresh meanwhile.
fn t1_in(phase: TaskPhase) -> String {
    serde_json::to_string(&task("t1", phase, TaskType::PyTorchJob)).unwrap()
}

/// The task `t1` running, its stop asked `ago_ms` ago by this browser's clock, as JSON:
/// what the server answers while the stop is under way.
fn t1_stopping(ago_ms: i64) -> String {
    let mut view = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    view.stopping_since = Some(Timestamp(js_sys::Date::now() as i64 - ago_ms));
    serde_json::to_string(&view).unwrap()
}

/// The events of a running task whose stop was asked, as the server words them in
/// English.
fn stopping_events(ago_ms: i64) -> String {
    let at = js_sys::Date::now() as i64 - ago_ms;
    format!(
        r#"[
    {{"at": {}, "kind": "started", "message": "attempt 1: every replica started"}},
    {{"at": {at}, "kind": "stopping", "message": "a user asked to stop it; its replicas are being ended"}}
]"#,
        at - 10_000
    )
}

/// The detail page's phase, as shown.
fn shown_phase(host: &HtmlElement) -> String {
    find(host, "[data-testid='detail-phase']")
        .text_content()
        .unwrap()
}

fn stop_button(host: &HtmlElement) -> web_sys::HtmlButtonElement {
    find(host, "[data-testid='action-stop']").unchecked_into()
}

/// Stop is off while a stop is under way, and says why where the button does: its
/// description is the line below the actions.
fn assert_stop_off_because_asked(host: &HtmlElement, why: &str) {
    let stop = stop_button(host);
    assert!(stop.disabled(), "a second stop would only signal again");
    let line = find(host, "[data-testid='stop-asked']");
    assert_eq!(line.text_content().unwrap(), why);
    assert_eq!(
        stop.get_attribute("aria-describedby"),
        Some(line.id()),
        "the reason is the button's description"
    );
    // Delete waits for the same end: not "stop it first", which was done.
    let delete = find(host, "[data-testid='action-delete']");
    assert_eq!(delete.get_attribute("aria-describedby"), Some(line.id()));
    assert!(
        host.query_selector("[data-testid='delete-after-end']")
            .unwrap()
            .is_none()
    );
}

/// A proxy's error page is said as the proxy's, each status with its way on, not as "is
/// Berth at this address?" (network explorer: hotel Wi-Fi's 502 sent the reader to check
/// an address that was right); a share it may have let through says a link may be made.
#[wasm_bindgen_test]
async fn a_proxys_error_page_is_said_as_the_proxys() {
    let address = fresh_page();
    let (host, handle) = owner_actions_in(TaskPhase::Succeeded).await;
    let lost = || {
        host.query_selector("[data-testid='action-lost']")
            .unwrap()
            .and_then(|p| p.text_content())
            .unwrap_or_default()
    };
    let page = |status: u16, retry_after: &str| {
        js_sys::eval(&format!(
            "const at = window.__held.findIndex((h) => h.url.includes('/share'));
             window.__held.splice(at, 1)[0].resolve(new Response('<html><body>nginx</body></html>',
               {{ status: {status}, headers: {{ 'content-type': 'text/html', {retry_after} }} }}))"
        ))
        .unwrap();
    };
    press_until_asked(&host, "action-share", "/tasks/t1/share").await;
    page(502, "");
    until_found(&host, "the loss said", "[data-testid='action-lost']").await;
    assert_eq!(
        lost(),
        "A proxy or gateway on the way to Berth answered for it with HTTP 502: Berth may be restarting, or the network busy. Try again in a moment. A link may have been made: look in Manage links before pressing Share again, which makes another. Dismiss"
    );
    press_until_asked(&host, "action-share", "/tasks/t1/share").await;
    page(429, "'retry-after': '20'");
    until("the wait asked said", || lost().contains("HTTP 429")).await;
    assert!(
        lost().starts_with(
            "A proxy on the way to Berth asks to wait (HTTP 429): try again in 20 s. "
        ),
        "{}",
        lost()
    );
    press_until_asked(&host, "action-share", "/tasks/t1/share").await;
    page(413, "");
    until("the size said", || lost().contains("HTTP 413")).await;
    assert!(
        lost().starts_with("A proxy on the way to Berth refused the request as too large (HTTP 413): its limit is below Berth's own; ask your administrator to raise it. "),
        "{}",
        lost()
    );
    finish(handle, &host, &address);
}

/// Stop pressed and its question answered yes, once the stop is asked of the server.
async fn stop_confirmed(host: &HtmlElement) {
    stop_button(host).click();
    until_found(host, "the question", "[data-testid='confirm-stop-yes']").await;
    find(host, "[data-testid='confirm-stop-yes']").click();
    until("the stop", || {
        held_fetches().iter().any(|u| u.contains("/stop"))
    })
    .await;
}

/// A stop whose answer was lost is said beside the actions with what to do, and stays
/// when the page's next poll reaches the server, until dismissed (network explorer: a
/// stop pressed in a tunnel left no trace once the connection was back, the task still
/// running).
#[wasm_bindgen_test]
async fn a_stop_whose_answer_was_lost_stays_said_over_the_polls() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the phase", "[data-testid='detail-phase']").await;
    stop_confirmed(&host).await;
    fail_fetch("/stop");
    until_found(&host, "the loss said", "[data-testid='action-lost']").await;
    let said = "Cannot reach the server: check your connection, or wait for the server to be back, then try again. The stop may not have reached the server: the task's phase says whether it is being stopped; pressing Stop again is safe. Dismiss";
    assert_eq!(
        find(&host, "[data-testid='action-lost']")
            .text_content()
            .unwrap(),
        said
    );
    assert!(!stop_button(&host).disabled(), "Stop may be pressed again");
    // The server is reached again: the task runs on, unstopped, and the loss stays said.
    answer_next_poll_with(&t1_in(TaskPhase::Running), "[]").await;
    sleep(100).await;
    assert_eq!(shown_phase(&host), "Running");
    assert_eq!(
        find(&host, "[data-testid='action-lost']")
            .text_content()
            .unwrap(),
        said
    );
    find(&host, "[data-testid='action-lost-dismiss']").click();
    leptos::task::tick().await;
    let said_lost = || {
        host.query_selector("[data-testid='action-lost']")
            .unwrap()
            .is_some()
    };
    assert!(!said_lost());
    // Lost again, but done: the task read at once says it is being stopped, and the note
    // goes, which said "pressing Stop again is safe" beside a greyed Stop (recheck).
    stop_confirmed(&host).await;
    fail_fetch("/stop");
    until("the loss said", said_lost).await;
    answer_next_poll_with(&t1_stopping(0), &stopping_events(0)).await;
    until("the note gone with the stop seen", || !said_lost()).await;
    assert_eq!(shown_phase(&host), "Stopping");
    finish(handle, &host, &address);
}

/// A running task whose stop was confirmed here runs on until its replicas have ended
/// (SIGTERM, then SIGKILL after 10 s): the exploratory test saw it said to be Running,
/// with Stop on, and each press sent SIGTERM again. Its phase says Stopping (停止中) from
/// the stop's answer until it has stopped, and Stop is off meanwhile, with why.
#[wasm_bindgen_test]
async fn a_task_stopped_here_is_said_to_be_stopping_until_it_has_stopped() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the phase", "[data-testid='detail-phase']").await;
    assert_eq!(shown_phase(&host), "Running");
    assert!(!stop_button(&host).disabled());
    assert!(
        host.query_selector("[data-testid='stop-asked']")
            .unwrap()
            .is_none()
    );
    stop_confirmed(&host).await;
    answer_fetch("/stop", &t1_in(TaskPhase::Running));
    until("the stop's answer taken", || {
        shown_phase(&host) == "Stopping"
    })
    .await;
    let why = "Stop was asked: the task ends once its replicas have exited.";
    assert_stop_off_because_asked(&host, why);
    // The page asks again, and the task still runs: its answer now says its stop is
    // under way.
    answer_next_poll_with(&t1_stopping(0), &stopping_events(0)).await;
    leptos::task::tick().await;
    assert_eq!(shown_phase(&host), "Stopping");
    assert_stop_off_because_asked(&host, why);
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(shown_phase(&host), "停止中");
    assert_stop_off_because_asked(&host, "已请求停止：副本全部退出后任务即结束。");
    // Its replicas have ended: it is stopped, and there is nothing left to say why.
    until("the task asked for again", || {
        held_fetches().iter().any(|u| u.contains("tasks/t1?"))
    })
    .await;
    answer_fetch("tasks/t1?", &t1_in(TaskPhase::Stopped));
    until("the end taken", || shown_phase(&host) == "已停止").await;
    assert!(stop_button(&host).disabled());
    assert!(
        host.query_selector("[data-testid='stop-asked']")
            .unwrap()
            .is_none()
    );
    back_to_english(&host).await;
    finish(handle, &host, &address);
}

/// A stop asked elsewhere (another tab, the API) shows in the task's answer
/// (`stopping_since`, as in the list's rows): the page that polls says Stopping and
/// offers no second stop either. The answer is enough: its events come after it, or not
/// at all.
#[wasm_bindgen_test]
async fn a_task_stopped_elsewhere_is_said_to_be_stopping_by_its_answer() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the phase", "[data-testid='detail-phase']").await;
    assert_eq!(shown_phase(&host), "Running");
    ask_for_the_task_again(&host).await;
    answer_next_poll_with(&t1_stopping(0), "[]").await;
    until("stopping said", || shown_phase(&host) == "停止中").await;
    assert_stop_off_because_asked(&host, "已请求停止：副本全部退出后任务即结束。");
    back_to_english(&host).await;
    assert_eq!(shown_phase(&host), "Stopping");
    finish(handle, &host, &address);
}

/// A stop still under way long past its grace period may have failed (a cluster that
/// refused the delete): a minute after the page learnt of it, it offers Stop again
/// rather than waiting for an end that may not come. A task whose answer says no stop is
/// under way (the server gives none for an earlier attempt's) runs as running, whatever
/// its events hold.
#[wasm_bindgen_test]
async fn a_stop_long_under_way_or_of_an_earlier_attempt_offers_stop_again() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the phase", "[data-testid='detail-phase']").await;
    ask_for_the_task_again(&host).await;
    // Asked a second ago: the page learns of it now.
    let asked = t1_stopping(1000);
    answer_next_poll_with(&asked, &stopping_events(1000)).await;
    until("stopping said", || shown_phase(&host) == "停止中").await;
    assert!(stop_button(&host).disabled());
    // Two minutes on, by this browser's clock.
    let real_now =
        js_sys::eval("window.__realNow = Date.now; Date.now = () => window.__realNow() + 120000;");
    assert!(real_now.is_ok());
    answer_next_poll_with(&asked, &stopping_events(1000)).await;
    until("stop offered again", || shown_phase(&host) == "运行中").await;
    assert!(!stop_button(&host).disabled());
    let _ = js_sys::eval("Date.now = window.__realNow;");
    // A new stop, asked half a second ago: Stopping again, so the answer below has a
    // Stopping to end (without it, the page already read Running and the check that
    // follows could not fail).
    answer_next_poll_with(&t1_stopping(500), &stopping_events(500)).await;
    until("the new stop said", || shown_phase(&host) == "停止中").await;
    assert!(stop_button(&host).disabled());
    let now = js_sys::Date::now() as i64;
    let later_attempt = format!(
        r#"[
    {{"at": {}, "kind": "stopping", "message": "a user asked to stop it"}},
    {{"at": {}, "kind": "retrying", "message": "attempt 1 failed; retry 1 of 3"}},
    {{"at": {now}, "kind": "started", "message": "attempt 2: every replica started"}}
]"#,
        now - 2000,
        now - 1000
    );
    answer_next_poll(TaskPhase::Running, &later_attempt).await;
    until("the earlier attempt's stop left behind", || {
        shown_phase(&host) == "运行中"
    })
    .await;
    assert!(!stop_button(&host).disabled());
    back_to_english(&host).await;
    finish(handle, &host, &address);
}

/// A delete confirmed here of a task the reader lost sight of meanwhile (`task.not_found`:
/// out of its group, or hidden from it, and maybe deleted since): it is gone from their
/// view, which is what was asked for, so the page says so, not that the server refused:
/// "deleted, or no longer yours to see". One deleted meanwhile is said deleted
/// (`a_task_deleted_since_is_said_deleted`).
#[wasm_bindgen_test]
async fn a_delete_of_a_task_lost_sight_of_meanwhile_says_it_is_gone() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Succeeded).await;
    delete_asked(&host).await;
    refuse_fetch_where(|u| u.ends_with("/tasks/t1"), 404, T1_GONE);
    until_found(&host, "the page says so", "[data-testid='deleted']").await;
    assert!(host.query_selector("[role='alert']").unwrap().is_none());
    // The keyboard, on an action that went with the task, lands on the line.
    until("the focus on the line", || {
        focused_test_id().as_deref() == Some("deleted")
    })
    .await;
    back_to_english(&host).await;
    said_gone_in_english(&host).await;
    finish(handle, &host, &address);
}

/// A task deleted here stays said to be deleted when the language is switched: the read
/// the switch asks for finds it gone, and the page said "deleted, or no longer yours to
/// see" (keyboard explorer).
#[wasm_bindgen_test]
async fn a_task_deleted_here_is_still_said_deleted_in_another_language() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Succeeded).await;
    delete_asked(&host).await;
    // Done: the DELETE's answer, not a poll's.
    refuse_fetch_where(|u| u.ends_with("/tasks/t1"), 200, "");
    let line = || all_text(&host, "[data-testid='deleted']").concat();
    until("the line", || line() == "Task t1 was deleted.").await;
    find(&host, "[data-testid='lang-zh']").click();
    until("the read the switch asks for", || {
        held_fetches().iter().any(|u| u.contains("tasks/t1?"))
    })
    .await;
    refuse_fetch("tasks/t1?", 404, T1_GONE);
    sleep(50).await;
    assert_eq!(line(), "任务 t1 已删除。");
    back_to_english(&host).await;
    until("the line in English", || line() == "Task t1 was deleted.").await;
    // The tab says it too (low-vision recheck: it kept the task's name alone).
    assert_eq!(
        web_sys::window().unwrap().document().unwrap().title(),
        "Task t1: Deleted — Berth"
    );
    finish(handle, &host, &address);
}

/// A task the reader could see, deleted since (`task.deleted`), is said deleted when its
/// page opens (a copy's link to its deleted original), not refused as maybe someone
/// else's; and so is one deleted in another tab while its page is open, and a delete
/// here of one deleted meanwhile (lineage explorer).
#[wasm_bindgen_test]
async fn a_task_deleted_since_is_said_deleted() {
    let address = fresh_page();
    hold_fetches();
    let host = crate::new_host();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        UiLang::provide().set(Lang::En);
        Nav::provide();
        view! {
            <frontend::i18n::LangSwitch />
            <frontend::pages::task_detail::TaskDetailPage id="t1".to_owned() session=demo_session() />
        }
        .into_any()
    });
    until("the task's request", || {
        held_fetches().iter().any(|u| u.contains("tasks/t1?"))
    })
    .await;
    refuse_fetch("tasks/t1?", 404, T1_DELETED);
    let line = || all_text(&host, "[data-testid='deleted']").concat();
    until("the line", || line() == "Task t1 was deleted.").await;
    assert!(
        host.query_selector("[role='alert']").unwrap().is_none(),
        "no refusal"
    );
    finish(handle, &host, &address);

    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Succeeded).await;
    delete_asked(&host).await;
    refuse_fetch_where(|u| u.ends_with("/tasks/t1"), 404, T1_DELETED);
    let line = || all_text(&host, "[data-testid='deleted']").concat();
    until("the line", || line() == "Task t1 was deleted.").await;
    finish(handle, &host, &address);

    // Deleted in another tab while the page is open: its next read says so.
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the actions", "[data-testid='action-clone']").await;
    // (Asked again by a switch of language.)
    ask_for_the_task_again(&host).await;
    refuse_fetch("tasks/t1?", 404, T1_DELETED);
    let line = || all_text(&host, "[data-testid='deleted']").concat();
    until("the line", || line() == "任务 t1 已删除。").await;
    assert!(host.query_selector("[role='alert']").unwrap().is_none());
    back_to_english_gone(&host, T1_DELETED).await;
    until("the line in English", || line() == "Task t1 was deleted.").await;
    finish(handle, &host, &address);
}

/// The server's answer for task t1 deleted, to a reader who could see it.
const T1_DELETED: &str = r#"{"type": "about:blank", "title": "Not Found", "status": 404,
    "code": "task.deleted", "detail": "task t1 was deleted"}"#;

/// Switches task t1's page back to English and answers the read the switch asks for
/// with the 404 `gone`.
async fn back_to_english_gone(host: &HtmlElement, gone: &str) {
    back_to_english(host).await;
    until("the task asked for in English", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("tasks/t1?lang=en"))
    })
    .await;
    refuse_fetch("tasks/t1?", 404, gone);
}

/// Presses `button` in `host`, then the Yes of the question it asks, `yes`.
async fn press_and_confirm(host: &HtmlElement, button: &str, yes: &str) {
    find(host, button).click();
    until_found(host, "the question", yes).await;
    find(host, yes).click();
}

/// Presses Delete on task t1's page, confirms it, and waits for the request.
async fn delete_asked(host: &HtmlElement) {
    press_and_confirm(
        host,
        "[data-testid='action-delete']",
        "[data-testid='confirm-delete-yes']",
    )
    .await;
    until("the delete", || {
        held_fetches().iter().any(|u| u.ends_with("/tasks/t1"))
    })
    .await;
}

/// Waits for the page's line to say, in English, that task t1 is gone: deleted, or no
/// longer the reader's to see (the API answers both with one 404).
async fn said_gone_in_english(host: &HtmlElement) {
    until("the line in English", || {
        find(host, "[data-testid='deleted']")
            .text_content()
            .as_deref()
            == Some("Task t1 was deleted, or is no longer yours to see.")
    })
    .await;
}

/// A task page whose task never loaded is its refusal alone: no Dismiss, which left a
/// page with nothing on it (console exploration). Once the task has loaded, a refusal
/// (a stop refused) has its Dismiss.
#[wasm_bindgen_test]
async fn a_task_that_never_loaded_keeps_its_refusal() {
    let address = fresh_page();
    hold_fetches();
    let (host, handle, _) = mount_page_at(Route::Detail("t1".into()));
    until("the task's request", || {
        held_fetches().iter().any(|u| u.contains("tasks/t1"))
    })
    .await;
    refuse_fetch("tasks/t1", 404, T1_GONE);
    until_found(&host, "the refusal", "[data-testid='error']").await;
    assert!(
        host.query_selector("[data-testid='error'] .dismiss")
            .unwrap()
            .is_none()
    );
    // Nor Try again: asked again, a refusal is refused again.
    assert!(
        host.query_selector("[data-testid='error-try-again']")
            .unwrap()
            .is_none()
    );
    finish(handle, &host, &address);
}

/// A task page whose first read failed offers Try again (README known gaps: it said so
/// with no way to ask but a reload), which says it is loading while asked, keeps the
/// keyboard's focus through another failure, and shows the task once answered, the
/// failure gone (a refusal is not offered it:
/// `a_task_that_never_loaded_keeps_its_refusal`).
#[wasm_bindgen_test]
async fn a_task_page_whose_read_failed_is_tried_again_in_place() {
    let address = fresh_page();
    hold_fetches();
    let (host, handle, _) = mount_page_at(Route::Detail("t1".into()));
    let asked = || {
        held_fetches()
            .iter()
            .filter(|u| u.contains("tasks/t1?"))
            .count()
    };
    until("the task's request", || asked() > 0).await;
    // The tasks made from it were not read either.
    until("the tasks made from it asked", || {
        held_fetches().iter().any(|u| u.contains("made_from=t1"))
    })
    .await;
    fail_fetch("made_from=t1");
    refuse_fetch(
        "tasks/t1?",
        503,
        r#"{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"busy","code":"server.unavailable"}"#,
    );
    until_found(&host, "the failure", "[data-testid='error']").await;
    let again = || find(&host, "[data-testid='error-try-again']");
    assert_eq!(again().text_content().unwrap(), "Try again");
    again().focus().unwrap();
    // The page's poll may have asked again meanwhile: the press asks afresh either way.
    let before = asked();
    again().click();
    until("the task asked again", || asked() > before).await;
    // Off while asked, and saying so; still in the keyboard's order.
    assert_eq!(
        again().get_attribute("aria-disabled").as_deref(),
        Some("true")
    );
    assert_eq!(again().text_content().unwrap(), "Loading the task…");
    // Failed again: the banner is built anew, the focus on its button still.
    while asked() > 0 {
        fail_fetch("tasks/t1?");
        leptos::task::tick().await;
    }
    until("the focus back on Try again", || {
        document()
            .active_element()
            .and_then(|a| a.get_attribute("data-testid"))
            .as_deref()
            == Some("error-try-again")
    })
    .await;
    until("Try again offered again", || {
        again().text_content().as_deref() == Some("Try again")
    })
    .await;
    again().click();
    until("the task asked again", || asked() > 0).await;
    let running = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    // Each read out is answered: only the latest one's answer is shown.
    while asked() > 0 {
        answer_fetch("tasks/t1?", &serde_json::to_string(&running).unwrap());
        leptos::task::tick().await;
    }
    until_found(&host, "the task's actions", "[data-testid='actions']").await;
    assert!(
        host.query_selector("[data-testid='error']")
            .unwrap()
            .is_none(),
        "the failure goes with the task's read"
    );
    // The keyboard goes on at the task's actions, not the page's body.
    until("the focus on the actions", || {
        document()
            .active_element()
            .and_then(|a| a.closest("[data-testid='actions']").ok().flatten())
            .is_some()
    })
    .await;
    // What was not read when the page opened is read again (recheck explorer).
    until("the tasks made from it asked again", || {
        held_fetches().iter().any(|u| u.contains("made_from=t1"))
    })
    .await;
    finish(handle, &host, &address);
}

/// The server's answer for task t1 once it is deleted.
const T1_GONE: &str = r#"{"type": "about:blank", "title": "Not Found", "status": 404,
    "code": "task.not_found", "detail": "no task t1"}"#;

/// The `data-testid` of what has the keyboard focus.
fn focused_test_id() -> Option<String> {
    web_sys::window()?
        .document()?
        .active_element()?
        .get_attribute("data-testid")
}

/// Stop asks in the words of the task's phase: a task waiting to run again has run
/// (explorer: it read "It has not started"), a queued one has not.
#[wasm_bindgen_test]
async fn the_stop_question_says_whether_the_task_ran() {
    for (phase, said) in [
        (
            TaskPhase::Retrying,
            "Stop task t1? It is waiting to run again: its next attempt does not start, and any quota it holds is given back.",
        ),
        (
            TaskPhase::Queued,
            "Stop task t1? It has not started: it leaves the queue, and any quota it holds is given back.",
        ),
    ] {
        let address = fresh_page();
        let (host, handle) = mount_detail_page_in(phase).await;
        until_found(&host, "the actions", "[data-testid='action-stop']").await;
        find(&host, "[data-testid='action-stop']").click();
        until_found(&host, "the question", "#confirm-text").await;
        assert_eq!(all_text(&host, "#confirm-text"), [said]);
        // Delete, off until the task ends, says so (explorer: it read as broken).
        assert_delete_off_until_ended(&host);
        finish(handle, &host, &address);
    }
}

/// Delete is off until the task ends, and says why where Stop does: in a line below the
/// actions that is the button's description. Only in its `title`, the reason never
/// reached a keyboard (a disabled button takes no focus) or a screen reader.
fn assert_delete_off_until_ended(host: &HtmlElement) {
    let delete = find(host, "[data-testid='action-delete']");
    assert!(
        delete
            .unchecked_ref::<web_sys::HtmlButtonElement>()
            .disabled()
    );
    let line = find(host, "[data-testid='delete-after-end']");
    assert_eq!(
        line.text_content().as_deref(),
        Some("Only a task that has ended can be deleted: stop it first.")
    );
    assert_eq!(
        delete.get_attribute("aria-describedby"),
        Some(line.id()),
        "the reason is the button's description"
    );
}

/// A running task's Delete says why it is off in words the keyboard and a screen reader
/// reach, in the reader's language; once the task has ended, Delete is on, with nothing
/// left to say.
#[wasm_bindgen_test]
async fn delete_says_why_it_is_off_in_its_description_until_the_task_ends() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the actions", "[data-testid='action-delete']").await;
    assert_delete_off_until_ended(&host);
    let line = || {
        find(&host, "[data-testid='delete-after-end']")
            .text_content()
            .unwrap()
    };
    says_in_both(
        &host,
        line,
        "Only a task that has ended can be deleted: stop it first.",
        "只能删除已结束的任务：请先停止。",
    )
    .await;
    // The page asked for the task again in each language: the English answer is the one
    // it takes.
    answer_refresh(&t1_in(TaskPhase::Succeeded)).await;
    let delete = || find(&host, "[data-testid='action-delete']");
    until("Delete on", || {
        !delete()
            .unchecked_ref::<web_sys::HtmlButtonElement>()
            .disabled()
    })
    .await;
    assert!(
        host.query_selector("[data-testid='delete-after-end']")
            .unwrap()
            .is_none()
    );
    assert_eq!(delete().get_attribute("aria-describedby"), None);
    finish(handle, &host, &address);
}

/// A stop being asked when the task's answer says it is being stopped (asked elsewhere)
/// has nothing left to stop: the question goes, a line says why, and the keyboard, which
/// was on the question, lands on that line, not on the page's body.
#[wasm_bindgen_test]
async fn a_stop_asked_while_stopped_elsewhere_says_so_where_the_focus_was() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the actions", "[data-testid='action-stop']").await;
    find(&host, "[data-testid='action-stop']").click();
    until("the focus on the safe answer", || {
        focused_test_id().as_deref() == Some("confirm-stop-no")
    })
    .await;
    ask_for_the_task_again(&host).await;
    answer_next_poll_with(&t1_stopping(0), "[]").await;
    until("the question gone", || {
        host.query_selector("[data-testid='confirm-stop']")
            .unwrap()
            .is_none()
    })
    .await;
    until("the focus on the line that says why", || {
        focused_test_id().as_deref() == Some("stop-meanwhile")
    })
    .await;
    let said = || {
        find(&host, "[data-testid='stop-meanwhile']")
            .text_content()
            .unwrap_or_default()
    };
    assert!(said().starts_with("确认停止期间"), "{}", said());
    back_to_english(&host).await;
    assert!(
        said().starts_with("The task ended, or its stop was asked elsewhere"),
        "{}",
        said()
    );
    finish(handle, &host, &address);
}

/// A task that ends while the keyboard is on Stop, which is then disabled, leaves the
/// focus in the actions, not on the page's body, where a keyboard user lost their place
/// (keyboard explorer).
#[wasm_bindgen_test]
async fn a_task_ending_under_the_focus_on_stop_keeps_it_in_the_actions() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the actions", "[data-testid='action-stop']").await;
    let stop: HtmlElement = find(&host, "[data-testid='action-stop']").unchecked_into();
    stop.focus().unwrap();
    assert_eq!(focused_test_id().as_deref(), Some("action-stop"));
    // The next poll's answer: it has ended.
    let ended = task("t1", TaskPhase::Succeeded, TaskType::PyTorchJob);
    answer_next_poll_with(&serde_json::to_string(&ended).unwrap(), "[]").await;
    until("Stop off", || stop.has_attribute("disabled")).await;
    until("the focus in the actions", || {
        focused_test_id().as_deref() == Some("actions")
    })
    .await;
    finish(handle, &host, &address);
}

/// An action on a task deleted meanwhile in another tab (share, tags, resubmit) finds it
/// gone: the page says so in its own line, as its refresh would, rather than as a
/// refusal of the action (explorer, round 3).
#[wasm_bindgen_test]
async fn an_action_on_a_task_deleted_meanwhile_says_it_is_gone() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page_in(TaskPhase::Succeeded).await;
    until_found(&host, "the actions", "[data-testid='action-share']").await;
    press_until_asked(&host, "action-share", "/share").await;
    refuse_fetch("/share", 404, T1_GONE);
    until_found(&host, "the page says so", "[data-testid='deleted']").await;
    assert!(host.query_selector("[role='alert']").unwrap().is_none());
    until("the focus on the line", || {
        focused_test_id().as_deref() == Some("deleted")
    })
    .await;
    finish(handle, &host, &address);
}

/// A task the reader lost sight of while its page is open (left its group: the API's
/// `task.not_found`): the page says it is gone, rather than a refusal at every poll, in
/// words that hold whatever happened to it. One deleted is said deleted
/// (`a_task_deleted_since_is_said_deleted`).
#[wasm_bindgen_test]
async fn a_task_lost_sight_of_while_its_page_is_open_is_said_gone() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the actions", "[data-testid='action-clone']").await;
    find(&host, "[data-testid='action-clone']").focus().unwrap();
    ask_for_the_task_again(&host).await;
    refuse_fetch("tasks/t1?", 404, T1_GONE);
    until_found(&host, "the page says so", "[data-testid='deleted']").await;
    assert!(host.query_selector("[role='alert']").unwrap().is_none());
    // The keyboard, on an action that went with the task, lands on the line.
    until("the focus on the line", || {
        focused_test_id().as_deref() == Some("deleted")
    })
    .await;
    back_to_english_gone(&host, T1_GONE).await;
    said_gone_in_english(&host).await;
    finish(handle, &host, &address);
}

/// An ended task's page still asks now and then (every tenth refresh, 20 s), so a
/// delete from another tab is said there too (the page's answer to a 404 is tested with
/// a running task, below); a task that can change, at every refresh.
#[wasm_bindgen_test]
fn an_ended_tasks_page_still_asks_now_and_then() {
    use frontend::pages::task_detail::refresh_now;
    assert!((1..=20).all(|tick| refresh_now(false, tick)));
    let asked: Vec<u32> = (1..=20).filter(|tick| refresh_now(true, *tick)).collect();
    assert_eq!(asked, [10, 20]);
}

/// Puts a fake `EventSource` in the page: each one made is `window.__source`, with its
/// `url`, `init` and `readyState` (open until closed); a test speaks through its
/// `onmessage`, and its named events through `on_<name>` (`on_end`).
fn fake_event_source() {
    js_sys::eval(
        "window.__RealEventSource = window.__RealEventSource || window.EventSource;
         window.EventSource = class {
             constructor(url, init) {
                 this.url = url; this.init = init; this.readyState = 1; window.__source = this;
             }
             addEventListener(kind, f) { this['on_' + kind] = f; }
             close() { this.readyState = 2; }
         };",
    )
    .unwrap();
}

/// The browser's own `EventSource` back.
fn real_event_source() {
    js_sys::eval("window.EventSource = window.__RealEventSource;").unwrap();
}

/// Has the detail page of `t1` fetch its task again, as its poll does, without waiting
/// for the poll: by switching to Chinese, which the page's words follow.
/// Answers the page's next refresh: the task in `phase`, then its `events`.
async fn answer_next_poll(phase: TaskPhase, events: &str) {
    answer_next_poll_with(&t1_in(phase), events).await;
}

/// Answers the page's next refresh: the task as `task` (JSON), then its `events`.
async fn answer_next_poll_with(task: &str, events: &str) {
    until("the task asked for again", || {
        held_fetches().iter().any(|u| u.contains("tasks/t1?"))
    })
    .await;
    answer_fetch("tasks/t1?", task);
    until("the events asked for", || {
        held_fetches().iter().any(|u| u.contains("/events"))
    })
    .await;
    // In the language the page is in now.
    let lang = if held_fetches().iter().any(|u| u.contains("lang=zh-CN")) {
        "zh-CN"
    } else {
        "en"
    };
    answer_events(&latest_events(lang), events, 0);
    answer_events_when_asked(&latest_retries(lang), "[]", 0).await;
}

async fn ask_for_the_task_again(host: &HtmlElement) {
    find(host, "[data-testid='lang-zh']").click();
    until("the task asked for again", || {
        held_fetches().iter().any(|u| u.contains("tasks/t1?"))
    })
    .await;
}

/// Two portal forms on one page, each mounted for its own Berth into its own element:
/// each asks its own Berth and keeps its own draft. The exploratory test saw every form
/// follow the last mount's `apiBase` (a refused mount's too), and one draft for both.
#[wasm_bindgen_test]
async fn two_embedded_forms_keep_their_own_berth_and_draft() {
    use frontend::form::draft::DRAFT_KEY;
    use frontend::widgets::mount_task_form;
    let address = fresh_page();
    hold_fetches();
    let catalog = serde_json::to_string(&demo_session()).unwrap();
    let slots = [format!("{DRAFT_KEY}#form-a"), format!("{DRAFT_KEY}#form-b")];
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    let session = web_sys::window()
        .unwrap()
        .session_storage()
        .unwrap()
        .unwrap();
    let forget = || {
        for slot in &slots {
            storage.remove_item(slot).unwrap();
            session.remove_item(slot).unwrap();
        }
    };
    forget();
    let mount = |id: &'static str, base: &'static str| {
        let host = crate::new_host();
        host.set_id(id);
        let options = format!(r#"{{"catalog": {catalog}, "apiBase": "{base}", "locale": "en"}}"#);
        let options = js_sys::JSON::parse(&options).unwrap();
        async move {
            let form = mount_task_form(host.clone().into(), options)
                .await
                .expect("mounts");
            (host, form)
        }
    };
    let (a, mut form_a) = mount("form-a", "https://a.example").await;
    let (b, mut form_b) = mount("form-b", "https://b.example/").await;
    leptos::task::tick().await;
    // Back in the window, each form asks its own Berth how much is in use.
    js_sys::eval("window.__held = []").unwrap();
    web_sys::window()
        .unwrap()
        .dispatch_event(&web_sys::Event::new("focus").unwrap())
        .unwrap();
    leptos::task::tick().await;
    let mut asked = held_fetches();
    asked.sort();
    assert_eq!(
        asked,
        [
            "https://a.example/api/v1/catalog",
            "https://b.example/api/v1/catalog"
        ]
    );
    // Each draft apart, by its element's id.
    for (host, name) in [(&a, "first-form"), (&b, "second-form")] {
        let input: web_sys::HtmlInputElement = host
            .query_selector("[name='basic.name_prefix']")
            .unwrap()
            .expect("the name box")
            .unchecked_into();
        input.set_value(name);
        input
            .dispatch_event(&web_sys::Event::new("input").unwrap())
            .unwrap();
        leptos::task::tick().await;
    }
    web_sys::window()
        .unwrap()
        .dispatch_event(&web_sys::Event::new("pagehide").unwrap())
        .unwrap();
    for (slot, name) in slots.iter().zip(["first-form", "second-form"]) {
        let saved = storage.get_item(slot).unwrap().unwrap_or_default();
        assert!(saved.contains(&format!("\"{name}\"")), "{slot}: {saved}");
    }
    form_a.unmount();
    form_b.unmount();
    let (again, mut form) = mount("form-a", "https://a.example").await;
    leptos::task::tick().await;
    let name: web_sys::HtmlInputElement = again
        .query_selector("[name='basic.name_prefix']")
        .unwrap()
        .expect("the name box")
        .unchecked_into();
    assert_eq!(name.value(), "first-form");
    form.unmount();
    forget();
    for host in [a, b, again] {
        host.remove();
    }
    release_fetches();
    restore_address(&address);
}

/// React's StrictMode mounts, unmounts and mounts again at once: the unmount came while
/// the first mount fetched its catalog, was lost, and the second mount was refused while
/// the first form appeared (review). An unmount meanwhile cancels the mount.
#[wasm_bindgen_test]
async fn an_unmount_while_the_catalog_is_fetched_cancels_the_mount() {
    use frontend::widgets::{mount_task_form, unmount_task_form};
    use std::cell::RefCell;
    use std::rc::Rc;
    let address = fresh_page();
    hold_fetches();
    crate::forget_drafts();
    let host = crate::new_host();
    let start = |host: &HtmlElement| {
        let answer = Rc::new(RefCell::new(None));
        let kept = Rc::clone(&answer);
        let future = mount_task_form(host.clone().into(), js_sys::Object::new().into());
        wasm_bindgen_futures::spawn_local(async move {
            *kept.borrow_mut() = Some(future.await);
        });
        answer
    };
    let first = start(&host);
    until("the first catalog asked", || {
        held_fetches().iter().any(|u| u.contains("/api/v1/catalog"))
    })
    .await;
    // Held from the start: a second mount meanwhile is refused.
    assert!(host.has_attribute("data-berth-form"));
    unmount_task_form(host.clone().into()).expect("an element");
    assert!(!host.has_attribute("data-berth-form"));
    let second = start(&host);
    until("the second catalog asked", || {
        held_fetches()
            .iter()
            .filter(|u| u.contains("/api/v1/catalog"))
            .count()
            == 2
    })
    .await;
    let session = serde_json::to_string(&demo_session()).unwrap();
    answer_fetch("/api/v1/catalog", &session);
    answer_fetch("/api/v1/catalog", &session);
    until("both answered", || {
        first.borrow().is_some() && second.borrow().is_some()
    })
    .await;
    let refused = first.borrow_mut().take().unwrap().err().expect("cancelled");
    let said = js_sys::Reflect::get(&wasm_bindgen::JsValue::from(refused), &"message".into())
        .unwrap()
        .as_string()
        .unwrap();
    assert_eq!(
        said,
        "mountTaskForm: unmounted while the catalog was fetched, before the form was shown"
    );
    let mut form = second.borrow_mut().take().unwrap().expect("mounts");
    leptos::task::tick().await;
    assert_eq!(host.query_selector_all("h1").unwrap().length(), 1);
    form.unmount();
    host.remove();
    release_fetches();
    restore_address(&address);
}

/// The message of an `Error` a mount was refused with.
fn error_message(error: &wasm_bindgen::JsValue) -> String {
    js_sys::Reflect::get(error, &"message".into())
        .unwrap()
        .as_string()
        .expect("an Error with a message")
}

/// What a future comes to, once it has: spawned, so a test that waits for it fails
/// rather than hangs when it never does.
fn settle<T: 'static>(
    future: impl std::future::Future<Output = T> + 'static,
) -> std::rc::Rc<std::cell::RefCell<Option<T>>> {
    let answer = std::rc::Rc::new(std::cell::RefCell::new(None));
    let kept = std::rc::Rc::clone(&answer);
    wasm_bindgen_futures::spawn_local(async move {
        *kept.borrow_mut() = Some(future.await);
    });
    answer
}

/// React's StrictMode runs an effect, its cleanup and the effect again in one synchronous
/// run: `mountTaskForm`, `unmountTaskForm`, `mountTaskForm`. The unmount found nothing
/// to cancel, the second mount was refused ("it holds a form already") and the first,
/// unmounted, showed its form (embedding test). The first is cancelled, saying so, and
/// asks for no catalog; the second shows the one form, whether its catalog is fetched
/// or given.
#[wasm_bindgen_test]
async fn a_mount_unmount_and_mount_at_once_shows_the_second_form_only() {
    use frontend::widgets::{mount_task_form, mount_task_form_js, unmount_task_form};
    let address = fresh_page();
    hold_fetches();
    crate::forget_drafts();
    let session = serde_json::to_string(&demo_session()).unwrap();
    let given = format!(r#"{{"catalog": {session}}}"#);
    for (options, as_js) in [
        ("{}", true),
        ("{}", false),
        (given.as_str(), true),
        (given.as_str(), false),
    ] {
        let fetched = options == "{}";
        // What the forms before asked (their usage, when shown) is not this mount's.
        js_sys::eval("window.__held = []").unwrap();
        let host = crate::new_host();
        let mount = || {
            let options = js_sys::JSON::parse(options).unwrap();
            if as_js {
                // As a portal calls it: the export, and the promise it answers.
                let promise = mount_task_form_js(host.clone().into(), options);
                settle(async move {
                    wasm_bindgen_futures::JsFuture::from(promise)
                        .await
                        .map(|_| ())
                        .map_err(|e| error_message(&e))
                })
            } else {
                let mounting = mount_task_form(host.clone().into(), options);
                settle(async move {
                    mounting
                        .await
                        .map(|_| ())
                        .map_err(|e| error_message(&e.into()))
                })
            }
        };
        let first = mount();
        unmount_task_form(host.clone().into()).expect("an element");
        let second = mount();
        until("the first mount answered", || first.borrow().is_some()).await;
        assert_eq!(
            first.borrow_mut().take().unwrap(),
            Err("mountTaskForm: unmounted at once, before the form was shown".to_owned()),
            "{options} {as_js}"
        );
        if fetched {
            until("the catalog asked", || {
                held_fetches().iter().any(|u| u.contains("/api/v1/catalog"))
            })
            .await;
            assert_eq!(held_fetches().len(), 1, "the cancelled mount asked nothing");
            answer_fetch("/api/v1/catalog", &session);
        }
        until("the second mount answered", || second.borrow().is_some()).await;
        assert_eq!(
            second.borrow_mut().take().unwrap(),
            Ok(()),
            "{options} {as_js}"
        );
        leptos::task::tick().await;
        assert_eq!(host.query_selector_all("h1").unwrap().length(), 1);
        assert!(host.has_attribute("data-berth-form"));
        unmount_task_form(host.clone().into()).expect("an element");
        assert_eq!(host.query_selector_all("h1").unwrap().length(), 0);
        assert!(!host.has_attribute("data-berth-form"));
        host.remove();
    }
    release_fetches();
    restore_address(&address);
}

/// A Berth on another site that does not let the page's site in (CORS) looks down to
/// the page: the browser hides why. The words said only "check your connection" to a
/// portal's developer whose Berth was up (embedding test); for a request to another
/// origin they add the remedy, the page's site in Berth's `[cors] origins`. A request to
/// the page's own origin (no apiBase, a path, the page's own address) keeps the words
/// it had.
#[wasm_bindgen_test]
async fn a_request_to_another_site_that_fails_names_the_cors_list() {
    use frontend::api::{Base, fetch_catalog};
    use frontend::widgets::mount_task_form;
    let address = fresh_page();
    hold_fetches();
    let page = web_sys::window().unwrap().location().origin().unwrap();
    let unreachable = "Cannot reach the server: check your connection, or wait for the server to be back, then try again.";
    for (base, other) in [
        ("https://berth.example", true),
        ("//berth.example/", true),
        ("", false),
        ("/berth", false),
        (page.as_str(), false),
    ] {
        let target = Base::new(base);
        let asked = settle(async move { fetch_catalog(&target).await });
        until("the catalog asked", || {
            held_fetches().iter().any(|u| u.contains("/api/v1/catalog"))
        })
        .await;
        fail_fetch("/api/v1/catalog");
        until("the catalog refused", || asked.borrow().is_some()).await;
        let err = asked.borrow_mut().take().unwrap().expect_err("refused");
        let (en, zh) = (err.localized(Lang::En), err.localized(Lang::Zh));
        if other {
            assert_eq!(
                en,
                format!(
                    "{}; or Berth does not list this page's site ({page}) in its \
                     `[cors] origins`, and the browser hides its answer from this page",
                    unreachable.trim_end_matches('.')
                )
            );
            assert!(
                zh.contains(&format!("（{page}）")) && zh.contains("`[cors] origins`"),
                "{zh}"
            );
        } else {
            assert_eq!(en, unreachable, "{base:?}");
            assert!(!zh.contains("cors"), "{zh}");
        }
    }
    // As a portal meets it: the mount's refusal.
    let host = crate::new_host();
    let options = js_sys::JSON::parse(r#"{"apiBase": "https://berth.example"}"#).unwrap();
    let mounting = mount_task_form(host.clone().into(), options);
    let refused = settle(async move { mounting.await.err().map(|e| error_message(&e.into())) });
    until("the catalog asked", || {
        held_fetches().iter().any(|u| u.contains("/api/v1/catalog"))
    })
    .await;
    fail_fetch("/api/v1/catalog");
    until("the mount refused", || refused.borrow().is_some()).await;
    let said = refused.borrow_mut().take().unwrap().expect("refused");
    assert!(
        said.contains(&format!(
            "; or Berth does not list this page's site ({page}) in its `[cors] origins`"
        )) && said.ends_with(" (GET https://berth.example/api/v1/catalog)"),
        "{said}"
    );
    host.remove();
    release_fetches();
    restore_address(&address);
}

/// A value that is not an element is named with its article and its kind: `[element]`
/// was "not a object" (embedding test).
#[wasm_bindgen_test]
async fn a_mount_given_no_element_names_what_it_was_given() {
    use frontend::widgets::{mount_task_form, unmount_task_form};
    let host = crate::new_host();
    let document = web_sys::window().unwrap().document().unwrap();
    let given: [(wasm_bindgen::JsValue, &str); 7] = [
        (js_sys::Array::of1(&host).into(), "an array"),
        (
            document.query_selector_all("div").unwrap().into(),
            "a list of elements",
        ),
        (js_sys::Object::new().into(), "an object"),
        // No prototype, so no `constructor` to name it by.
        (
            js_sys::Object::create(wasm_bindgen::JsValue::NULL.unchecked_ref::<js_sys::Object>())
                .into(),
            "an object",
        ),
        (5.into(), "a number"),
        (true.into(), "a boolean"),
        (wasm_bindgen::JsValue::UNDEFINED, "nothing"),
    ];
    for (value, what) in given {
        let said = mount_task_form(value.clone(), js_sys::Object::new().into())
            .await
            .err()
            .map(|e| error_message(&e.into()));
        assert_eq!(
            said.as_deref(),
            Some(
                format!("mountTaskForm: element: must be an element of the page, not {what}")
                    .as_str()
            )
        );
        let said = unmount_task_form(value)
            .err()
            .map(|e| error_message(&e.into()));
        assert_eq!(
            said.as_deref(),
            Some(
                format!("unmountTaskForm: element: must be an element of the page, not {what}")
                    .as_str()
            )
        );
    }
    host.remove();
}

/// Two forms on one page (explorer, round 4): every id in the page once, so each form's
/// labels, descriptions and lists are its own, and its summary sends the focus to its own
/// field; a form mounted without `locale` marks the language it speaks on its element.
#[wasm_bindgen_test]
async fn two_embedded_forms_name_their_own_elements() {
    use frontend::widgets::mount_task_form;
    let address = fresh_page();
    hold_fetches();
    crate::forget_drafts();
    let catalog = serde_json::to_string(&demo_session()).unwrap();
    let mount = |locale: &str| {
        let host = crate::new_host();
        let locale = if locale.is_empty() {
            String::new()
        } else {
            format!(r#", "locale": "{locale}""#)
        };
        let options = format!(r#"{{"catalog": {catalog}{locale}}}"#);
        let options = js_sys::JSON::parse(&options).unwrap();
        async move {
            let form = mount_task_form(host.clone().into(), options)
                .await
                .expect("mounts");
            (host, form)
        }
    };
    let (a, mut form_a) = mount("en").await;
    let (b, mut form_b) = mount("").await;
    leptos::task::tick().await;
    // B speaks the page's stored or the browser's language, and says which.
    let title = find(&b, "h1").text_content().unwrap_or_default();
    let lang = b
        .get_attribute("lang")
        .expect("the form's language is marked");
    let expected = if title == "创建训练任务" {
        "zh-CN"
    } else {
        "en"
    };
    assert_eq!(lang, expected, "{title}");
    assert_eq!(a.get_attribute("lang").as_deref(), Some("en"));
    // A form mounted into an element not yet in the page (a framework that attaches
    // after it mounts) keeps its number while out: a form mounted meanwhile took it, and
    // the two shared 96 ids once it was attached (embedding test).
    let document = web_sys::window().unwrap().document().unwrap();
    let c: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    let options = format!(r#"{{"catalog": {catalog}, "locale": "en"}}"#);
    let mut form_c = mount_task_form(c.clone().into(), js_sys::JSON::parse(&options).unwrap())
        .await
        .expect("mounts");
    leptos::task::tick().await;
    let (d, mut form_d) = mount("en").await;
    document.body().unwrap().append_child(&c).unwrap();
    leptos::task::tick().await;
    // Every id once in the page.
    let ids: Vec<String> = all_elements(
        &web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .body()
            .unwrap(),
        "[id]",
    )
    .iter()
    .map(|e| e.id())
    .collect();
    let mut twice: Vec<&String> = ids
        .iter()
        .filter(|id| ids.iter().filter(|other| other == id).count() > 1)
        .collect();
    twice.sort();
    twice.dedup();
    assert!(twice.is_empty(), "ids given twice: {twice:?}");
    // Each reference of a form is to an element of that form.
    for host in [&a, &b, &c, &d] {
        for attribute in ["for", "aria-describedby", "aria-labelledby", "list"] {
            for element in all_elements(host, &format!("[{attribute}]")) {
                for id in element
                    .get_attribute(attribute)
                    .unwrap_or_default()
                    .split_whitespace()
                {
                    assert!(
                        host.query_selector(&format!("[id='{id}']"))
                            .unwrap()
                            .is_some(),
                        "{attribute}={id} of {} is not in its form",
                        element.outer_html().chars().take(120).collect::<String>()
                    );
                }
            }
        }
    }
    // B's summary sends the focus to B's field.
    find(&b, "li.issue[data-path='basic.name_prefix'] button.goto").click();
    leptos::task::tick().await;
    let focused = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element()
        .expect("a focus");
    assert!(b.contains(Some(&focused)), "{}", focused.outer_html());
    assert_eq!(
        focused.get_attribute("name").as_deref(),
        Some("basic.name_prefix")
    );
    for form in [&mut form_a, &mut form_b, &mut form_c, &mut form_d] {
        form.unmount();
    }
    for host in [a, b, c, d] {
        host.remove();
    }
    release_fetches();
    restore_address(&address);
}

/// The elements under `root` that `selector` finds.
fn all_elements(root: &web_sys::Element, selector: &str) -> Vec<web_sys::Element> {
    let found = root.query_selector_all(selector).unwrap();
    (0..found.length())
        .filter_map(|i| found.item(i))
        .map(|n| n.unchecked_into())
        .collect()
}

#[wasm_bindgen_test]
async fn the_placement_says_replicas_and_what_each_takes_not_units() {
    // SPEC §4: every pod is one replica of `units_per_node` units of its spec. The demo
    // PyTorchJob is a master and 1 worker of 2 × a100-1g each: 4 GPUs on one node.
    let mut view = task("t-00003", TaskPhase::Running, TaskType::PyTorchJob);
    view.placement = demo_placement();
    let placement = view
        .placement
        .clone()
        .expect("the demo plan places the example");
    assert_eq!(placement.workers.len(), 1, "{placement:?}");
    let node = placement.workers[0].node.clone();
    let host = summary_of(view).await;
    assert_eq!(
        all_text(&host, "[data-testid='placement'] li"),
        [format!(
            "2 replicas of 2 × a100-1g (4 GPUs in all) on {node}"
        )]
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "[data-testid='placement'] li"),
        [format!(
            "{node}：2 个副本，每个副本 2 份实例规格 a100-1g（共 4 张 GPU）"
        )]
    );
    back_to_english(&host).await;
}

/// A RayJob's placement names its workers beside its head, and one that autoscales says
/// it was placed for its most workers, which it does not start with (Ray explorer: "6
/// replicas" under "Head on …", for a form of 2 workers, with nothing to say why).
#[wasm_bindgen_test]
async fn a_rayjobs_placement_names_its_workers_and_the_maximum_it_was_placed_for() {
    let spec = shared::demo::ray();
    // The example autoscales, 1 to 4, from 2 workers.
    assert!(spec.autoscales());
    let (workers, min, max) = (
        spec.compute.workers,
        spec.ray.autoscaling.min_workers,
        spec.ray.autoscaling.max_workers,
    );
    assert!(workers < max && min < workers, "{workers} {min} {max}");
    let placement = shared::place(
        &spec,
        &shared::demo::catalog(),
        &shared::demo::usage(),
        &shared::demo::user(),
    )
    .expect("no overflow")
    .expect("placed");
    assert!(placement.head.is_some());
    let placed: u64 = placement.workers.iter().map(|w| w.replicas).sum();
    assert_eq!(placed, u64::from(max), "placed for the maximum");
    let mut view = task("r-00001", TaskPhase::Running, TaskType::RayJob);
    view.task.spec = spec;
    view.placement = Some(placement.clone());
    let host = summary_of(view.clone()).await;
    let lines = all_text(&host, "[data-testid='placement'] li");
    assert!(lines[0].starts_with("Head on "), "{lines:?}");
    for (line, share) in lines[1..].iter().zip(&placement.workers) {
        let start = if share.replicas == 1 {
            "Worker on ".to_owned()
        } else {
            "Workers on ".to_owned()
        };
        assert!(line.starts_with(&start), "{line}");
        assert!(line.contains(&format!("{} repl", share.replicas)), "{line}");
    }
    assert_eq!(
        find(&host, "[data-testid='placement-autoscaling']")
            .text_content()
            .unwrap(),
        format!(
            "Placed for the autoscaling maximum of {max} workers: the job starts with {workers}, and Ray scales it between {min} and {max}."
        )
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    let lines = all_text(&host, "[data-testid='placement'] li");
    assert!(lines[1].starts_with("Worker 位于 "), "{lines:?}");
    assert_eq!(
        find(&host, "[data-testid='placement-autoscaling']")
            .text_content()
            .unwrap(),
        format!(
            "按扩容上限 {max} 个 Worker 调度：任务以 {workers} 个 Worker 启动，由 Ray 在 {min} 到 {max} 个之间扩缩容。"
        )
    );
    back_to_english(&host).await;
    // A head of the workers' spec is one of the replicas on those lines: they are not
    // all workers (recheck: seven "workers" above "6 workers").
    let mut same_spec = view.clone();
    same_spec.task.spec.compute.head_spec = None;
    same_spec.placement = shared::place(
        &same_spec.task.spec,
        &shared::demo::catalog(),
        &shared::demo::usage(),
        &shared::demo::user(),
    )
    .expect("no overflow");
    assert!(
        same_spec
            .placement
            .as_ref()
            .is_some_and(|p| p.head.is_none())
    );
    let host = summary_of(same_spec).await;
    let lines = all_text(&host, "[data-testid='placement'] li");
    assert!(
        lines
            .iter()
            .all(|l| !l.starts_with("Worker") && !l.starts_with("Head")),
        "{lines:?}"
    );
    host.remove();
    // Min and max alike: nothing to scale between (Ray explorer: "between 2 and 2").
    let mut fixed = view.clone();
    let a = &mut fixed.task.spec.ray.autoscaling;
    (a.min_workers, a.max_workers) = (workers, workers);
    let host = summary_of(fixed).await;
    assert_eq!(
        find(&host, "[data-testid='placement-autoscaling']")
            .text_content()
            .unwrap(),
        format!(
            "Autoscaling is on, but Min and Max workers are both {workers}: Ray keeps {workers} workers."
        )
    );
    host.remove();
    // Without autoscaling: no such line.
    view.task.spec.ray.autoscaling.enabled = false;
    let host = summary_of(view).await;
    assert!(
        host.query_selector("[data-testid='placement-autoscaling']")
            .unwrap()
            .is_none()
    );
    host.remove();
}

/// A task on idle capacity says so where it runs: each idle node by its offer's spec,
/// stability and cluster, as the form shows the offers (idle explorer: "node 1 of idle
/// offer 1 in sh-a" matched nothing on the form).
#[wasm_bindgen_test]
async fn an_idle_node_is_named_by_its_offer() {
    let mut view = task("t-00007", TaskPhase::Running, TaskType::PyTorchJob);
    let mut placement = demo_placement().expect("placed");
    placement.workers.truncate(1);
    placement.workers[0].node = "idle/sh-a/0/0".into();
    view.placement = Some(placement);
    let view = Signal::stored(view);
    let host = mount(move || view! { <TaskSummary view catalog=Some(shared::demo::catalog()) /> });
    leptos::task::tick().await;
    let at = all_text(&host, "[data-testid='placement'] li");
    assert!(
        at[0].ends_with(
            " on idle node 1 of A100 single card 单卡, stability Medium, in Shanghai A 上海 A"
        ),
        "{at:?}"
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    let at = all_text(&host, "[data-testid='placement'] li");
    assert!(
        at[0].contains("Shanghai A 上海 A 的 A100 single card 单卡 闲时资源（闲时稳定性等级：中）中的第 1 个节点"),
        "{at:?}"
    );
    back_to_english(&host).await;
}

/// The status detail says what the task asked for, by the catalog's names: its kind
/// with the pool and idle accepted (reserved), the priority (on-demand, spot) or the
/// stability (idle), and its specs in order with a RayJob head's own (explorer: a
/// queued task's page named no spec it waits for, nor its kind or priority).
#[wasm_bindgen_test]
async fn the_status_says_the_kind_and_the_specs_asked_for() {
    let on_demand = task("t-00004", TaskPhase::Queued, TaskType::PyTorchJob);
    let mut reserved = task("t-00005", TaskPhase::Queued, TaskType::RayJob);
    reserved.task.spec.compute.accept_idle = true;
    reserved.task.spec.compute.idle_stability = Some(shared::task::IdleStability::Medium);
    let shown = RwSignal::new(on_demand);
    let host = mount(
        move || view! { <TaskSummary view=shown.into() catalog=Some(shared::demo::catalog()) /> },
    );
    leptos::task::tick().await;
    let said = |id: &str| {
        find(&host, &format!("[data-testid='{id}']"))
            .text_content()
            .unwrap_or_default()
    };
    assert_eq!(said("resources"), "On-demand instances, priority Normal");
    assert_eq!(said("specs"), "A100 single card 单卡");
    // Its pool, chosen, as a reserved task's (verdict explorer: an on-demand task's page
    // named none).
    shown.update(|v| v.task.spec.compute.pool = Some("sh-a-shared".into()));
    leptos::task::tick().await;
    assert_eq!(
        said("resources"),
        "On-demand instances in pool A100 + CPU shared 共享, priority Normal"
    );
    shown.set(reserved.clone());
    leptos::task::tick().await;
    assert_eq!(
        said("resources"),
        "Reserved instances in pool A100 + CPU shared 共享; accepts idle resources, stability Medium"
    );
    assert_eq!(
        said("specs"),
        "A100 single card 单卡; the head: CPU general 通用型"
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(
        said("resources"),
        "预留实例，资源池：A100 + CPU shared 共享；接受闲时资源，闲时稳定性等级：中"
    );
    assert_eq!(
        said("specs"),
        "A100 single card 单卡；Head：CPU general 通用型"
    );
    back_to_english(&host).await;
    // Any level where none is chosen, and idle preferred (verdict explorer: "stability
    // —", and no word of the preference).
    reserved.task.spec.compute.idle_stability = None;
    reserved.task.spec.compute.prefer_idle = true;
    shown.set(reserved);
    leptos::task::tick().await;
    assert_eq!(
        said("resources"),
        "Reserved instances in pool A100 + CPU shared 共享; accepts idle resources, stability any level; prefers idle resources"
    );
    let mut idle = task("t-00006", TaskPhase::Queued, TaskType::PyTorchJob);
    let compute = &mut idle.task.spec.compute;
    compute.kind = Some(shared::task::ResourceKind::Idle);
    compute.priority = None;
    compute.idle_stability = Some(shared::task::IdleStability::High);
    compute.specs = vec!["a100-1g".into(), "cpu-8c".into()];
    shown.set(idle);
    leptos::task::tick().await;
    assert_eq!(said("resources"), "Idle resources, stability High");
    assert_eq!(said("specs"), "A100 single card 单卡, CPU general 通用型");
}

/// With the catalog at hand (the task page's), the placement names its pool and spec as
/// the form does, by their catalog names; their ids stay in data attributes (explorer:
/// "2 × a100-1g" and "Pool sh-a-shared" where the form said their names).
#[wasm_bindgen_test]
async fn the_placement_names_its_pool_and_spec_by_catalog_name() {
    let mut view = task("t-00003", TaskPhase::Running, TaskType::PyTorchJob);
    view.placement = demo_placement();
    let node = view.placement.clone().expect("placed").workers[0]
        .node
        .clone();
    let view = Signal::stored(view);
    let host = mount(move || view! { <TaskSummary view catalog=Some(shared::demo::catalog()) /> });
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "[data-testid='placement'] p"),
        ["Pool A100 + CPU shared 共享"]
    );
    assert_eq!(
        all_text(&host, "[data-testid='placement'] li"),
        [format!(
            "2 replicas of 2 × A100 single card 单卡 (4 GPUs in all) on {node}"
        )]
    );
    let pool = find(&host, "[data-testid='placement'] p");
    assert_eq!(
        pool.get_attribute("data-pool").as_deref(),
        Some("sh-a-shared")
    );
    let worker = find(&host, "[data-testid='placement'] li");
    assert_eq!(
        worker.get_attribute("data-spec").as_deref(),
        Some("a100-1g")
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "[data-testid='placement'] p"),
        ["资源池 A100 + CPU shared 共享"]
    );
    back_to_english(&host).await;
}

/// A placement on idle capacity names its nodes as the reader can find them, by the
/// cluster's idle offer, not by the names Berth keeps their use under (explorer, round 4:
/// "on idle/sh-a/0/0").
#[wasm_bindgen_test]
async fn an_idle_placement_names_its_nodes_by_their_offer() {
    let mut view = task("t-00004", TaskPhase::Running, TaskType::PyTorchJob);
    let mut placement = shared::place(
        &shared::demo::pytorch(),
        &shared::demo::catalog(),
        &shared::demo::usage(),
        &shared::demo::user(),
    )
    .expect("no overflow")
    .expect("the demo plan places the example");
    placement.workers[0].node = "idle/sh-a/0/0".into();
    view.placement = Some(placement);
    let host = summary_of(view).await;
    assert_eq!(
        all_text(&host, "[data-testid='placement'] li"),
        ["2 replicas of 2 × a100-1g (4 GPUs in all) on node 1 of idle offer 1 in sh-a"]
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "[data-testid='placement'] li"),
        [
            "集群 sh-a 第 1 项闲时资源中的第 1 个节点：2 个副本，每个副本 2 份实例规格 a100-1g（共 4 张 GPU）"
        ]
    );
    back_to_english(&host).await;
}

#[wasm_bindgen_test]
async fn a_ray_heads_placement_says_the_units_it_takes() {
    let mut view = task("t-00005", TaskPhase::Running, TaskType::RayJob);
    view.task.spec.compute.units_per_node = 2;
    let need = shared::Resources::new(2, 16, 64);
    view.placement = Some(shared::Placement {
        user: "alice".into(),
        kind: shared::vocab::ResourceKind::Reserved,
        pool: "pool-a".into(),
        index: 0,
        spec: "a100-1g".into(),
        need,
        workers: vec![shared::quota::NodeShare {
            node: "n-1".into(),
            replicas: 1,
        }],
        head: Some(shared::quota::HeadPlacement {
            node: "n-2".into(),
            spec: "cpu-8".into(),
            need: shared::Resources::new(0, 16, 64),
        }),
    });
    let host = summary_of(view).await;
    assert_eq!(
        all_text(&host, "[data-testid='placement'] li"),
        [
            "Head on n-2: 1 replica of 2 × cpu-8 (16 vCPUs · 64 GiB of memory)",
            // Its workers said as such beside the head (Ray explorer).
            "Worker on n-1: 1 replica of 2 × a100-1g (2 GPUs)",
        ]
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    assert_eq!(
        all_text(&host, "[data-testid='placement'] li"),
        [
            "Head 位于 n-2：1 个副本，2 份实例规格 cpu-8（共 16 个 vCPU · 64 GiB 内存）",
            "Worker 位于 n-1：1 个副本，每个副本 2 份实例规格 a100-1g（共 2 张 GPU）",
        ]
    );
    back_to_english(&host).await;
}

/// Removing a tag with its × keeps the keyboard in the tags, as the form's rows do: the
/// focus goes to the × now in its place, else the one before, else the Add button.
#[wasm_bindgen_test]
async fn removing_a_tag_keeps_the_focus_in_the_tags() {
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the tags", "[data-testid='tag-key']").await;
    for (id, text) in [("tag-key", "stage"), ("tag-value", "eval")] {
        let input: web_sys::HtmlInputElement =
            find(&host, &format!("[data-testid='{id}']")).unchecked_into();
        input.set_value(text);
        input
            .dispatch_event(&web_sys::Event::new("input").unwrap())
            .unwrap();
    }
    find(&host, "[data-testid='tag-add']").click();
    leptos::task::tick().await;
    assert_eq!(all_text(&host, ".tags .tag"), ["team=nlp", "stage=eval"]);
    let focused = || {
        web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .active_element()
            .map(|e| {
                (
                    e.tag_name(),
                    e.get_attribute("aria-label").unwrap_or_default(),
                )
            })
    };
    let remove_first = || {
        let remove = find(&host, ".tags li:first-child .remove");
        remove.focus().unwrap();
        remove.click();
    };
    remove_first();
    crate::after_paint().await;
    assert_eq!(all_text(&host, ".tags .tag"), ["stage=eval"]);
    assert_eq!(
        focused(),
        Some(("BUTTON".into(), "Remove tag stage=eval".into())),
        "the × now in its place"
    );
    remove_first();
    crate::after_paint().await;
    let add = find(&host, "[data-testid='tag-add']");
    assert_eq!(
        web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .active_element(),
        Some(add.into()),
        "no tag left: the Add button"
    );
    finish(handle, &host, &address);
}

/// "More" goes when it loads the last page: the focus it held goes to the first row it
/// loaded, not to the page's body.
#[wasm_bindgen_test]
async fn more_that_loads_the_last_page_hands_the_focus_to_its_first_row() {
    let address = fresh_page();
    let (host, handle) = list_page_asked().await;
    let rows = || host.query_selector_all("tbody tr").unwrap().length();
    answer_fetch("/api/v1/tasks?", &page_of(0, 20, Some("c1")));
    until("the first page", || rows() == 20).await;
    let more = find(&host, "[data-testid='list-more']");
    more.focus().unwrap();
    more.click();
    until("More's request", || {
        held_fetches().iter().any(|u| u.contains("cursor=c1"))
    })
    .await;
    answer_fetch("cursor=c1", &page_of(20, 25, None));
    until("the last page", || rows() == 25).await;
    crate::after_paint().await;
    assert!(
        host.query_selector("[data-testid='list-more']")
            .unwrap()
            .is_none()
    );
    let link = find(&host, "tr[data-id='t20'] [data-testid='task-link']");
    assert_eq!(
        web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .active_element(),
        Some(link.into()),
        "the first row More loaded"
    );
    finish(handle, &host, &address);
}

/// A log is shown as a terminal leaves it readable (explorer, round 9): colour codes,
/// character sets and a window title left out, a progress bar's carriage returns new
/// lines as its live stream shows them, NUL bytes dropped, tabs and text kept; a code
/// cut between two chunks of a followed log is left out whole.
#[wasm_bindgen_test]
fn a_log_is_shown_without_its_terminal_codes() {
    use frontend::pages::task_detail::{Readable, readable};
    assert_eq!(readable("\u{1b}[31mRED\u{1b}[0m plain"), "RED plain");
    assert_eq!(readable("\u{1b}[1;32;4mbold\u{1b}[K"), "bold");
    assert_eq!(readable("\u{1b}(Bsgr0 \u{1b}=keypad"), "sgr0 keypad");
    // A code broken off by a letter of another script or a line's end keeps them.
    assert_eq!(readable("\u{1b}(é\u{1b}(\nb\u{1b}中\u{1b}\nc"), "é\nb中\nc");
    assert_eq!(readable("10%\r20%\r100%\n"), "10%\n20%\n100%\n");
    // A bar that writes `\r` before each redraw, as tqdm does, adds no blank line at a
    // line's start (explorer: every bar of a training log had one before it).
    assert_eq!(
        readable("x\n\rbar [ 0%]\rbar [10%]\n\rnext"),
        "x\nbar [ 0%]\nbar [10%]\nnext"
    );
    assert_eq!(readable("\rfirst"), "first");
    assert_eq!(readable("a\r\nb\r\n"), "a\nb\n");
    assert_eq!(readable("nul\0byte\ttab é 中"), "nulbyte\ttab é 中");
    // A direction override or a zero-width character is named, not obeyed or hidden.
    assert_eq!(
        readable("file\u{202e}txt.exe zero\u{200b}width \u{2067}x\u{2069}"),
        "file<U+202E>txt.exe zero<U+200B>width <U+2067>x<U+2069>"
    );
    assert_eq!(readable("\u{1b}]0;title\u{7}text"), "text");
    assert_eq!(readable("\u{1b}]8;;http://x\u{1b}\\link"), "link");
    // A code broken off by a line's end is not taken for text after it.
    assert_eq!(readable("\u{1b}[3\nnext"), "\nnext");
    // An escape that never ends a code is left out alone.
    let long = format!("\u{1b}]{}", "x".repeat(300));
    assert_eq!(readable(&long), format!("]{}", "x".repeat(300)));

    let mut followed = Readable::default();
    let chunks = [
        "red \u{1b}[3",
        "1mRED\u{1b}",
        "[0m and \u{1b}]0;ti",
        "tle\u{7}done",
    ];
    let shown: String = chunks.iter().map(|c| followed.push(c)).collect();
    assert_eq!(shown, "red RED and done");
}

/// A followed log's `\r\n` cut between two chunks is one line's end, as it is within
/// one: not a blank line after it. A `\r` that ends a chunk alone (a progress bar's
/// redraw) is still a line's end, and a later chunk's `\n` a line of its own.
#[wasm_bindgen_test]
fn a_crlf_split_across_two_chunks_ends_one_line() {
    use frontend::pages::task_detail::Readable;
    let shown = |chunks: &[&str]| {
        let mut followed = Readable::default();
        chunks.iter().map(|c| followed.push(c)).collect::<String>()
    };
    assert_eq!(shown(&["a\r", "\nb\r\n"]), "a\nb\n");
    assert_eq!(
        shown(&["step 1\r", "\n", "step 2\r", "\nend"]),
        "step 1\nstep 2\nend"
    );
    assert_eq!(shown(&["10%\r", "20%\r", "\n"]), "10%\n20%\n");
    assert_eq!(shown(&["a\r", "b\n", "\nc"]), "a\nb\n\nc");
    // A code held between the two does not make the `\n` a line of its own either.
    assert_eq!(shown(&["a\r", "\n\u{1b}[3", "1mb"]), "a\nb");
    // A blank line after a whole `\r\n` stays one (review, round 15: it went).
    assert_eq!(shown(&["a\r\n", "\nb"]), "a\n\nb");
    // An empty chunk between the two halves changes nothing (review, round 16).
    assert_eq!(shown(&["a\r", "", "\nb"]), "a\nb");
    // A line's start is known across chunks: a redraw's `\r` there adds no blank line.
    assert_eq!(
        shown(&["x\n", "\rp 0%", "\rp 10%", "\r", "p 20%\n"]),
        "x\np 0%\np 10%\np 20%\n"
    );
    // Wherever a log is cut in two, it reads as it does whole.
    for log in [
        "a\r\n\nb",
        "x\r\r\ny\r\n",
        "p\r\n\r\nq\n\n",
        "10%\r20%\r\n\ndone",
    ] {
        let whole = frontend::pages::task_detail::readable(log);
        for cut in 0..=log.len() {
            assert_eq!(
                shown(&[&log[..cut], &log[cut..]]),
                whole,
                "{log:?} cut at {cut}"
            );
        }
    }
}

/// A cut log's size as its note says it: bytes, whole KiB, then MiB to a tenth.
#[wasm_bindgen_test]
fn a_log_size_is_said_in_bytes_kib_or_tenths_of_a_mib() {
    use frontend::pages::task_detail::byte_size;
    const MIB: usize = 1024 * 1024;
    assert_eq!(byte_size(1023), "1023 B");
    assert_eq!(byte_size(1024), "1 KiB");
    assert_eq!(byte_size(1535), "1 KiB");
    assert_eq!(byte_size(1536), "2 KiB");
    // 1023.5 KiB and up round to 1.0 MiB, not "1024 KiB".
    assert_eq!(byte_size(MIB - 513), "1023 KiB");
    assert_eq!(byte_size(MIB - 512), "1.0 MiB");
    assert_eq!(byte_size(MIB), "1.0 MiB");
    assert_eq!(byte_size(MIB + MIB / 4), "1.3 MiB");
    assert_eq!(byte_size(MIB * 5 / 2), "2.5 MiB");
    assert_eq!(byte_size(MIB * 10 - 1), "10.0 MiB");
    assert_eq!(byte_size(MIB * 1234 + MIB / 10 * 7), "1234.7 MiB");
}

/// A log of megabytes is shown from its end, at most `SHOWN_MAX` bytes starting at a
/// line's start (explorer, round 9: rewritten whole at each chunk it held the page for a
/// minute), and says it was cut; a shorter one whole.
#[wasm_bindgen_test]
fn a_long_log_is_shown_from_its_end_at_a_line_start() {
    use frontend::pages::task_detail::{SHOWN_MAX, shown_end};
    let short = "one\ntwo\n".to_owned();
    assert_eq!(shown_end(short.clone()), (short, false));
    let log: String = (0..60_000)
        .map(|i| format!("line {i:05} of the log\n"))
        .collect();
    assert!(log.len() > SHOWN_MAX);
    let (end, cut) = shown_end(log.clone());
    assert!(cut);
    assert!(
        end.len() <= SHOWN_MAX && end.len() > SHOWN_MAX - 64,
        "{}",
        end.len()
    );
    assert!(log.ends_with(&end));
    assert!(end.starts_with("line "), "{}", &end[..20]);
    assert!(log[..log.len() - end.len()].ends_with('\n'));
    // One line longer than the limit, in two-byte letters: cut inside it, at a letter.
    let (end, _) = shown_end("é".repeat(SHOWN_MAX));
    assert!(end.len() <= SHOWN_MAX && end.len() > SHOWN_MAX - 4 && end.chars().all(|c| c == 'é'));
    // A last line longer than the limit (a JSON dump) is shown from within it, not left
    // out with everything before it.
    let dump = format!("start\n{}\n", "x".repeat(SHOWN_MAX + 100));
    let (end, cut) = shown_end(dump);
    assert!(
        cut && end.len() == SHOWN_MAX && end.ends_with("x\n"),
        "{}",
        end.len()
    );
}

/// A refresh that changes a task keeps the focus of a keyboard reader on its row (the
/// explorer, round 9: the row was built again and the focus fell to the page), and the
/// row says what changed.
#[wasm_bindgen_test]
async fn a_refresh_that_changes_a_row_keeps_the_focus_on_it() {
    let tasks = RwSignal::new(vec![
        task("a-00001", TaskPhase::Running, TaskType::PyTorchJob),
        task("b-00002", TaskPhase::Running, TaskType::PyTorchJob),
    ]);
    let host = mount(move || view! { <TaskTable tasks=tasks.into() /> });
    leptos::task::tick().await;
    let link = find(&host, "tr[data-id='b-00002'] a");
    link.focus().unwrap();
    tasks.update(|t| {
        t[1].task.phase = TaskPhase::Stopped;
        t[1].task.updated_at = Timestamp(1_700_000_095_000);
        t[1].tags = vec![shared::task::Tag {
            key: "stage".to_owned(),
            value: "done".to_owned(),
        }];
    });
    leptos::task::tick().await;
    assert_eq!(all_text(&host, "tbody .phase"), ["Running", "Stopped"]);
    let row = find(&host, "tr[data-id='b-00002']");
    assert_eq!(row.get_attribute("data-phase").as_deref(), Some("stopped"));
    assert_eq!(
        all_text(&host, "tr[data-id='b-00002'] .tag"),
        ["stage=done"]
    );
    let focused = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element();
    assert!(
        focused.is_some_and(|f| link.is_same_node(Some(&f))),
        "the focus stays on the row's link"
    );
    // A task gone from the page takes its row; a new one gets its own.
    tasks.update(|t| {
        t.remove(0);
        t.push(task("c-00003", TaskPhase::Queued, TaskType::RayJob));
    });
    leptos::task::tick().await;
    assert_eq!(all_text(&host, "tbody .phase"), ["Stopped", "Queued"]);
}

/// Rows follow their tasks wherever a refresh puts them (README, `/tasks`): tasks new at
/// the top move every row down, and a list in another order moves them again; each row
/// keeps its elements and says its own task's phase, a changed one too.
#[wasm_bindgen_test]
async fn a_refresh_that_moves_the_rows_keeps_each_on_its_task() {
    let tasks = RwSignal::new(vec![
        task("a-00001", TaskPhase::Running, TaskType::PyTorchJob),
        task("b-00002", TaskPhase::Queued, TaskType::PyTorchJob),
        task("c-00003", TaskPhase::Succeeded, TaskType::RayJob),
    ]);
    let host = mount(move || view! { <TaskTable tasks=tasks.into() /> });
    leptos::task::tick().await;
    let b_row = find(&host, "tr[data-id='b-00002']");
    let ids = || row_ids(&host);
    tasks.update(|t| {
        t[1].task.phase = TaskPhase::Running;
        t[1].task.updated_at = Timestamp(1_700_000_090_000);
        t.insert(0, task("e-00005", TaskPhase::Running, TaskType::RayJob));
        t.insert(0, task("d-00004", TaskPhase::Queued, TaskType::PyTorchJob));
    });
    leptos::task::tick().await;
    assert_eq!(
        ids(),
        ["d-00004", "e-00005", "a-00001", "b-00002", "c-00003"]
    );
    assert_eq!(
        all_text(&host, "tbody .phase"),
        ["Queued", "Running", "Running", "Running", "Succeeded"]
    );
    assert!(
        b_row.is_same_node(Some(&find(&host, "tr[data-id='b-00002']"))),
        "a moved row was rebuilt"
    );
    tasks.update(|t| {
        t.reverse();
        t[0].task.phase = TaskPhase::Failed;
    });
    leptos::task::tick().await;
    assert_eq!(
        ids(),
        ["c-00003", "b-00002", "a-00001", "e-00005", "d-00004"]
    );
    assert_eq!(
        all_text(&host, "tbody .phase"),
        ["Failed", "Running", "Running", "Running", "Queued"]
    );
    assert_eq!(all_text(&host, "tr[data-id='c-00003'] .phase"), ["Failed"]);
}

/// Each page titles the browser's tab after itself, in the reader's language: every page
/// was "Berth", so tabs, the history and a screen reader's window name could not tell
/// them apart.
#[wasm_bindgen_test]
async fn each_page_titles_the_tab_in_the_readers_language() {
    let address = fresh_page();
    hold_fetches();
    let (host, handle, (lang, nav)) = mount_page_at(Route::List);
    let title = || web_sys::window().unwrap().document().unwrap().title();
    leptos::task::tick().await;
    assert_eq!(title(), "Training tasks — Berth");
    nav.go(Route::Detail("t-42".into()));
    leptos::task::tick().await;
    assert_eq!(title(), "Task t-42 — Berth");
    lang.set(Lang::Zh);
    leptos::task::tick().await;
    assert!(
        title().contains("t-42") && title() != "Task t-42 — Berth",
        "{}",
        title()
    );
    nav.go(Route::New { clone: None });
    leptos::task::tick().await;
    assert_eq!(title(), "创建训练任务 — Berth");
    lang.set(Lang::En);
    finish(handle, &host, &address);
}

/// The top bar's Create task, from a clone, opens the user's own draft: the clone's
/// storage key stayed in context, and the clone's edits showed (and were written) at
/// `/new`.
#[wasm_bindgen_test]
async fn create_task_from_a_clone_opens_the_users_own_draft() {
    use frontend::form::draft::DRAFT_KEY;
    let address = fresh_page();
    crate::forget_drafts();
    let mut own = shared::demo::pytorch();
    own.basic.name_prefix = "half-done".into();
    let local = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    local
        .set_item(DRAFT_KEY, &serde_json::to_string(&own).unwrap())
        .unwrap();
    hold_fetches();
    let (host, handle, (_, nav)) = clone_page_asked("src-777").await;
    edit_clone(&host, "src-777").await;
    let prefix = || name_prefix(&host);
    nav.go(Route::New { clone: None });
    until("the user's own draft", || {
        prefix().is_some_and(|p| p.value() == "half-done")
    })
    .await;
    release_fetches();
    finish(handle, &host, &address);
    let saved = local
        .get_item(DRAFT_KEY)
        .unwrap()
        .expect("the user's draft");
    assert!(saved.contains("half-done"), "{saved}");
}

/// The edits kept of a clone whose task can no longer be read (deleted since) still
/// open: they are the user's to send, not the task's.
#[wasm_bindgen_test]
async fn a_clones_kept_edits_open_though_its_task_is_gone() {
    use frontend::form::draft::DRAFT_KEY;
    let address = fresh_page();
    crate::forget_drafts();
    let mut edits = shared::demo::pytorch();
    edits.basic.name_prefix = "kept-edit".into();
    web_sys::window()
        .unwrap()
        .local_storage()
        .unwrap()
        .unwrap()
        .set_item(
            &format!("{DRAFT_KEY}.clone.gone-777"),
            &serde_json::to_string(&edits).unwrap(),
        )
        .unwrap();
    hold_fetches();
    let (host, handle, _) = clone_page_asked("gone-777").await;
    fail_fetch("gone-777");
    until("the kept edits", || {
        host.query_selector("[name='basic.name_prefix']")
            .unwrap()
            .is_some_and(|e| e.unchecked_into::<web_sys::HtmlInputElement>().value() == "kept-edit")
    })
    .await;
    assert!(
        host.query_selector("[data-testid='clone-failed']")
            .unwrap()
            .is_none()
    );
    release_fetches();
    finish(handle, &host, &address);
    crate::forget_drafts();
}

/// Findings are listed errors first, then warnings, then hints, each kind in the order
/// the report gave them.
#[wasm_bindgen_test]
fn findings_are_ordered_errors_first_and_otherwise_kept() {
    use frontend::components::errors_first;
    use shared::Severity::{Error, Info, Warning};
    let items = vec![
        (Info, 1),
        (Warning, 2),
        (Error, 3),
        (Info, 4),
        (Error, 5),
        (Warning, 6),
    ];
    let ordered: Vec<u32> = errors_first(items, |i| i.0)
        .into_iter()
        .map(|i| i.1)
        .collect();
    assert_eq!(ordered, [3, 5, 2, 6, 1, 4]);
    assert!(errors_first(Vec::<(shared::Severity, u32)>::new(), |i| i.0).is_empty());
}

/// The logs panel says which replicas have written nothing for a minute or more while
/// the task runs, with how long, in the picker's names: a hung rank told from ranks that
/// print (hung-job explorer: a stuck master looked as healthy as the rest).
#[wasm_bindgen_test]
async fn the_logs_panel_says_which_replicas_are_quiet() {
    let address = fresh_page();
    let mut running = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    running.task.spec.compute.workers = 2;
    running.logs = shared::api::log_replicas(&running.task.spec, false);
    running.quiet = vec![
        shared::api::ReplicaQuiet {
            replica: 0,
            secs: 130,
            empty: false,
        },
        shared::api::ReplicaQuiet {
            replica: 1,
            secs: 2,
            empty: false,
        },
        shared::api::ReplicaQuiet {
            replica: 2,
            secs: 61,
            empty: false,
        },
    ];
    let (host, handle) = mount_detail_page_with(&running, ("[]", 0), ("[]", 0)).await;
    until_found(&host, "the line", "[data-testid='log-quiet']").await;
    let said = || all_text(&host, "[data-testid='log-quiet']").concat();
    assert_eq!(
        said(),
        "No new log output from 0: master for 2 min 10 s and 2: worker 1 for 1 min 1 s."
    );
    // A PyTorchJob's replica number is its RANK, as its log says it.
    assert_eq!(
        all_text(&host, ".logs .toolbar label > span")[0],
        "Replica (RANK)"
    );
    find(&host, "[data-testid='lang-zh']").click();
    leptos::task::tick().await;
    let zh = said();
    back_to_english(&host).await;
    finish(handle, &host, &address);
    assert!(
        zh.starts_with("没有新的日志输出：0：主节点（已 2 分"),
        "{zh}"
    );
    // A log still empty is said at once, not "every replica wrote"; a RayJob's
    // entrypoint by its name alone (hung-job recheck).
    let mut ray = task("t1", TaskPhase::Running, TaskType::RayJob);
    ray.quiet = vec![shared::api::ReplicaQuiet {
        replica: 0,
        secs: 12,
        empty: true,
    }];
    let address = fresh_page();
    let (host, handle) = mount_detail_page_with(&ray, ("[]", 0), ("[]", 0)).await;
    until_found(&host, "the line", "[data-testid='log-quiet']").await;
    let said = all_text(&host, "[data-testid='log-quiet']").concat();
    let replica = all_text(&host, ".logs .toolbar label > span")[0].clone();
    finish(handle, &host, &address);
    assert_eq!(replica, "Replica");
    // More than two quiet: one named and how many more; all of them: said at once, with
    // the least of their quiet times (eight ranks stuck in one all-reduce took six lines
    // on a phone: recheck).
    let mut more = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    more.task.spec.compute.workers = 4;
    more.logs = shared::api::log_replicas(&more.task.spec, false);
    let quiet = |replica, secs| shared::api::ReplicaQuiet {
        replica,
        secs,
        empty: false,
    };
    let mut lines = Vec::new();
    for secs in [[130, 70, 61, 3, 2], [130, 70, 61, 95, 64]] {
        more.quiet = (0..5).map(|r| quiet(r, secs[r as usize])).collect();
        let address = fresh_page();
        let (host, handle) = mount_detail_page_with(&more, ("[]", 0), ("[]", 0)).await;
        until_found(&host, "the line", "[data-testid='log-quiet']").await;
        lines.push(all_text(&host, "[data-testid='log-quiet']").concat());
        finish(handle, &host, &address);
    }
    assert_eq!(
        lines,
        [
            "No new log output from 0: master for 2 min 10 s and 2 more replicas.",
            "No replica has written to its log for 1 min 1 s or more."
        ]
    );
    assert_eq!(
        said,
        "No new log output from 0: submitter since it started (12 s)."
    );
}

/// A tag's remove button is a finger's target, 24 px at least each way (WCAG 2.5.8; it
/// was 21 × 19 px: phone explorer).
#[wasm_bindgen_test]
async fn a_tags_remove_button_is_a_fingers_target() {
    let style = page_style();
    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the tags", ".tags .remove").await;
    let rect = find(&host, ".tags .remove").get_bounding_client_rect();
    let size = (rect.width(), rect.height());
    finish(handle, &host, &address);
    style.remove();
    assert!(size.0 >= 24.0 && size.1 >= 24.0, "{size:?}");
}

/// The console's page styles (berth.css, then pages.css) in the page, for tests of
/// layout; removed by the test.
fn page_style() -> web_sys::Element {
    let document = web_sys::window().unwrap().document().unwrap();
    let style = document.create_element("style").unwrap();
    style.set_text_content(Some(concat!(
        include_str!("../../../public/berth.css"),
        include_str!("../../../public/pages.css")
    )));
    document.head().unwrap().append_child(&style).unwrap();
    style
}

/// A host for a test of layout in a frame `width` px wide, with the page styles: its
/// media queries read the frame's width, not the test window's (800 px). The host, and
/// the frame for the test to remove.
fn framed_host(width: u32) -> (HtmlElement, web_sys::Element) {
    let document = web_sys::window().unwrap().document().unwrap();
    let frame = document.create_element("iframe").unwrap();
    frame
        .set_attribute(
            "style",
            &format!("width: {width}px; height: 600px; border: 0"),
        )
        .unwrap();
    frame.set_attribute("data-test-host", "").unwrap();
    document.body().unwrap().append_child(&frame).unwrap();
    let inner: web_sys::Document = js_sys::Reflect::get(&frame, &"contentDocument".into())
        .unwrap()
        .unchecked_into();
    let style = inner.create_element("style").unwrap();
    style.set_text_content(Some(concat!(
        include_str!("../../../public/berth.css"),
        include_str!("../../../public/pages.css")
    )));
    inner.head().unwrap().append_child(&style).unwrap();
    let host: HtmlElement = inner.create_element("div").unwrap().unchecked_into();
    inner.body().unwrap().append_child(&host).unwrap();
    (host, frame)
}

/// On a phone's width (320 CSS px, as at 400 % zoom) each value of the status detail stands
/// under its label, whole words on the window's width; wider, beside it (low-vision
/// explorer: beside the widest Chinese label 75 px were left, "PyTorchJo/b" and a time
/// over four lines).
#[wasm_bindgen_test]
async fn the_status_details_values_stand_under_their_labels_on_a_phone() {
    let view = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    let mut seen = Vec::new();
    for width in [320, 640] {
        let address = fresh_page();
        let (host, frame) = framed_host(width);
        let (host, handle) = mount_detail_page_into(host, &view, ("[]", 0), ("[]", 0)).await;
        until_found(&host, "the status", ".status-detail dl").await;
        crate::after_paint().await;
        let dt = find(&host, ".status-detail dt").get_bounding_client_rect();
        let dd = find(&host, ".status-detail dd").get_bounding_client_rect();
        seen.push((width, dd.left() - dt.left(), dd.top() >= dt.bottom() - 0.5));
        finish(handle, &host, &address);
        frame.remove();
    }
    assert_eq!(seen[0].1, 0.0, "under its label: {seen:?}");
    assert!(seen[0].2, "below it: {seen:?}");
    assert!(seen[1].1 > 0.0 && !seen[1].2, "beside it: {seen:?}");
}

/// A word with nowhere to break, a webhook's address in an alert event, wraps in its
/// panel: the task page's left column grew as wide as the word, and its panels ran under
/// the right column with their text cut ("cpu-8c: sl", "ended with exit co"; explorer).
/// In a wide window (two columns) and a narrow one (one).
#[wasm_bindgen_test]
async fn a_long_word_in_an_event_keeps_the_left_column_in_its_track() {
    let hook = format!(
        "https://hooks.example.com/services/{}",
        "T0a1B2c3D4".repeat(27)
    );
    assert!(hook.len() >= 300);
    let events = events_json(1..=1, "alert", 1000, |_| {
        format!("the webhook {hook} answered 500")
    });
    let mut view = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    view.task.spec.advanced.fault_tolerance.enabled = false;
    view.placement = demo_placement();
    for wide in [true, false] {
        let address = fresh_page();
        // The test window is 800 px wide: the page's one column.
        let (host, style) = if wide {
            let (host, frame) = framed_host(1280);
            (host, frame)
        } else {
            (crate::new_host(), page_style())
        };
        let (host, handle) = mount_detail_page_into(host, &view, (&events, 0), ("[]", 0)).await;
        until("the event", || {
            !all_text(&host, "[data-testid='events'] .message").is_empty()
        })
        .await;
        crate::after_paint().await;
        let right = |el: &web_sys::Element| el.get_bounding_client_rect().right();
        let column = find(&host, ".columns > div:first-child");
        let panels = column.query_selector_all(":scope > .panel").unwrap();
        let panel_ends: Vec<(String, f64)> = (0..panels.length())
            .map(|i| {
                let panel: web_sys::Element = panels.item(i).unwrap().unchecked_into();
                (panel.class_name(), right(&panel))
            })
            .collect();
        // The words themselves, which a panel of the right width could still let overflow.
        let range = host.owner_document().unwrap().create_range().unwrap();
        range
            .select_node_contents(&find(&host, "[data-testid='events'] .message"))
            .unwrap();
        let words_end = range.get_bounding_client_rect().right();
        let events_end = right(&find(&host, ".panel.events"));
        let (column_end, columns_end) = (right(&column), right(&find(&host, ".columns")));
        // Side by side in the wide window: the right column starts after the left.
        let second = find(&host, ".columns > div:last-child")
            .get_bounding_client_rect()
            .left();
        finish(handle, &host, &address);
        // The page's styles, or the frame that has them.
        style.remove();
        let layout = if wide { "wide" } else { "narrow" };
        assert!(panel_ends.len() >= 4, "{layout}: {panel_ends:?}");
        for (panel, end) in panel_ends {
            assert!(
                end <= column_end + 0.5,
                "{layout}: {panel} ends at {end}, its column at {column_end}"
            );
        }
        assert!(
            column_end <= columns_end + 0.5,
            "{layout}: the left column ends at {column_end}, the page's columns at {columns_end}"
        );
        if wide {
            assert!(
                column_end <= second + 0.5,
                "the left column ends at {column_end}, the right one starts at {second}"
            );
        }
        assert!(
            words_end <= events_end + 0.5,
            "{layout}: the event's words end at {words_end}, their panel at {events_end}"
        );
    }
}

/// A group member on another's task sees why its actions are not theirs: only Clone was
/// there, with no word of Stop, Delete, Resubmit, Share or the tags' editing (explorer).
/// The owner's page says nothing of it.
#[wasm_bindgen_test]
async fn a_members_page_of_anothers_task_says_only_its_owner_acts_on_it() {
    let address = fresh_page();
    let mut view = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    view.task.spec.advanced.fault_tolerance.enabled = false;
    // The reader is alice (demo_session's user).
    view.task.owner = "bob".into();
    view.tags.clear();
    let (host, handle) = mount_detail_page_with(&view, ("[]", 0), ("[]", 0)).await;
    until_found(&host, "the actions", "[data-testid='action-clone']").await;
    let actions = host
        .query_selector_all("[data-testid^='action-']")
        .unwrap()
        .length();
    assert_eq!(actions, 1, "Clone alone");
    let said = |test_id: &str| {
        host.query_selector(&format!("[data-testid='{test_id}']"))
            .unwrap()
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    };
    says_in_both(
        &host,
        || said("owner-only"),
        "Only its owner, bob, can stop, delete, resubmit, share or tag this task.",
        "只有任务所有者 bob 可以停止、删除、重提、分享此任务或为其打标签。",
    )
    .await;
    says_in_both(
        &host,
        || all_text(&host, ".tags .help").concat(),
        "Only its owner, bob, can change its tags.",
        "只有任务所有者 bob 可以修改其标签。",
    )
    .await;
    finish(handle, &host, &address);

    let address = fresh_page();
    let (host, handle) = mount_detail_page().await;
    until_found(&host, "the owner's actions", "[data-testid='action-stop']").await;
    assert!(
        host.query_selector("[data-testid='owner-only']")
            .unwrap()
            .is_none()
    );
    assert!(all_text(&host, ".tags .help").is_empty());
    finish(handle, &host, &address);
}

/// The shared page once its task is read: `visible` whether the reader may read the
/// task itself (its own request answered), the catalog answered as the demo's.
async fn shared_page_read(token: &'static str, view: &TaskView, visible: bool) -> HtmlElement {
    let host = mount(move || view! { <SharedTaskPage token=token.to_owned() /> });
    // Before the page's first ask, which waits for its effect to run.
    hold_fetches();
    let asked = |part: String| {
        until_owned(format!("the request for {part}"), move || {
            held_fetches().iter().any(|u| u.contains(&part))
        })
    };
    asked(format!("/shared/{token}")).await;
    answer_fetch(
        &format!("/shared/{token}"),
        &serde_json::to_string(view).unwrap(),
    );
    asked("/api/v1/catalog".into()).await;
    answer_fetch(
        "/api/v1/catalog",
        &serde_json::to_string(&demo_session()).unwrap(),
    );
    let own = format!("/api/v1/tasks/{}", view.task.id.0);
    asked(own.clone()).await;
    if visible {
        answer_fetch(&own, &serde_json::to_string(view).unwrap());
    } else {
        refuse_fetch(
            &own,
            404,
            r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"no task","code":"task.not_found"}"#,
        );
    }
    until_found(&host, "the shared task", "[data-testid='shared-title']").await;
    crate::after_paint().await;
    host
}

/// [`until`] for a check that owns what it reads.
async fn until_owned(what: String, ready: impl Fn() -> bool) {
    until(&what, ready).await;
}

/// A share link's reader sees the placement's pool and specs by the catalog's names, as
/// the task's page names them (explorer: "Pool sh-a-shared", "cpu-8c (16 vCPUs…)").
#[wasm_bindgen_test]
async fn a_shared_task_names_its_pool_and_specs_as_its_page_does() {
    let address = fresh_page();
    let mut view = task("t-00006", TaskPhase::Running, TaskType::PyTorchJob);
    view.placement = demo_placement();
    view.task.spec = view.task.spec.for_others();
    let placement = view.placement.clone().expect("the demo task is placed");
    let catalog = shared::demo::catalog();
    let pool = frontend::pages::pool_name(&catalog, &view.task.spec, &placement.pool);
    let spec = frontend::pages::spec_name(&catalog, &view.task.spec, &placement.spec);
    assert_ne!(pool, placement.pool, "the demo pool has a name");
    assert_ne!(spec, placement.spec, "the demo spec has a name");
    let host = shared_page_read("tok-names", &view, false).await;
    let said = all_text(&host, "[data-testid='placement']").concat();
    release_fetches();
    host.remove();
    restore_address(&address);
    assert!(said.contains(&format!("Pool {pool}")), "{said}");
    assert!(said.contains(&spec), "{said}");
    assert!(
        !said.contains(&format!("Pool {}", placement.pool)),
        "{said}"
    );

    // Given the console's catalog, it names from it and asks for none: the task waited
    // for a second answer in series (review).
    let address = fresh_page();
    let shown = view.clone();
    let host = mount(move || {
        view! { <SharedTaskPage token="tok-given".to_owned() catalog=shared::demo::catalog() /> }
    });
    hold_fetches();
    until("the shared task's request", || {
        held_fetches()
            .iter()
            .any(|u| u.contains("/shared/tok-given"))
    })
    .await;
    answer_fetch("/shared/tok-given", &serde_json::to_string(&shown).unwrap());
    let own = format!("/api/v1/tasks/{}", shown.task.id.0);
    until("the task's own request", || {
        held_fetches().iter().any(|u| u.contains(&own))
    })
    .await;
    until_found(&host, "the shared task", "[data-testid='shared-title']").await;
    assert!(
        !held_fetches().iter().any(|u| u.contains("/api/v1/catalog")),
        "{:?}",
        held_fetches()
    );
    let said = all_text(&host, "[data-testid='placement']").concat();
    release_fetches();
    host.remove();
    restore_address(&address);
    assert!(said.contains(&format!("Pool {pool}")), "{said}");
}

/// A share link's reader who may see the task itself (its owner, a member of its group)
/// is led to its page, where its events, logs and actions are; one who may not is not
/// (the link's only way on was "Open the console").
#[wasm_bindgen_test]
async fn a_shared_task_leads_to_its_page_when_the_reader_can_see_it() {
    for visible in [true, false] {
        let address = fresh_page();
        let mut view = task("t-00007", TaskPhase::Running, TaskType::PyTorchJob);
        view.task.spec = view.task.spec.for_others();
        let host = shared_page_read("tok-page", &view, visible).await;
        let link = host
            .query_selector("[data-testid='shared-task-page']")
            .unwrap()
            .map(|a| {
                let a: HtmlElement = a.unchecked_into();
                (a.text_content().unwrap(), a.get_attribute("href").unwrap())
            });
        let zh = if link.is_some() {
            find(&host, "[data-testid='lang-zh']").click();
            leptos::task::tick().await;
            let said = find(&host, "[data-testid='shared-task-page']")
                .text_content()
                .unwrap();
            back_to_english(&host).await;
            Some(said)
        } else {
            None
        };
        release_fetches();
        host.remove();
        restore_address(&address);
        if visible {
            assert_eq!(
                link,
                Some((
                    "Open the task's page".to_owned(),
                    "/tasks/t-00007".to_owned()
                ))
            );
            assert_eq!(zh.as_deref(), Some("打开任务页面"));
        } else {
            assert_eq!(link, None);
        }
    }
}

/// A clone of a task the reader cannot see (404) or may not read (403) offers no Try
/// again, which cannot mend it; a refusal a retry can mend (busy, 429; the server's
/// trouble, 503) keeps it. Either way the create form is offered.
#[wasm_bindgen_test]
async fn a_clone_refused_for_good_offers_no_try_again() {
    for (status, code, mendable) in [
        (404, "task.not_found", false),
        (403, "task.forbidden", false),
        (429, "rate.limited", true),
        (503, "store.unreachable", true),
    ] {
        let address = fresh_page();
        let (host, handle) = mount_clone_page("hidden-12345").await;
        refuse_fetch(
            "hidden-12345",
            status,
            &format!(
                r#"{{"type":"about:blank","title":"Refused","status":{status},"detail":"refused","code":"{code}"}}"#
            ),
        );
        until_found(&host, "the refusal", "[data-testid='clone-failed']").await;
        let again = host
            .query_selector("[data-testid='clone-again']")
            .unwrap()
            .is_some();
        let blank = host
            .query_selector("[data-testid='clone-blank']")
            .unwrap()
            .is_some();
        let said = find(&host, "[data-testid='clone-failed']")
            .text_content()
            .unwrap();
        finish(handle, &host, &address);
        assert_eq!(again, mendable, "{status}: {said}");
        assert!(blank, "{status}: the create form is offered");
    }
    crate::forget_drafts();
}

/// A member who clones another's task never had its hidden value or its webhook's
/// address: the findings on their masks ask for them, not for them "again" (explorer).
#[wasm_bindgen_test]
async fn a_clone_of_anothers_task_asks_for_its_masked_values() {
    use shared::task::{Alert, AlertChannel};
    let address = fresh_page();
    crate::forget_drafts();
    hold_fetches();
    let (host, handle, (lang, _)) = clone_page_asked("bobs-12345").await;
    // As the server answers a reader who is not the task's owner.
    let spec = shared::demo::pytorch()
        .with(|s| {
            s.advanced.alerts = vec![Alert {
                channel: AlertChannel::Webhook,
                target: "https://hooks.example.com/services/T0SECRET".into(),
                ..s.advanced.alerts[0].clone()
            }];
        })
        .for_others();
    answer_fetch("bobs-12345", &serde_json::to_string(&spec).unwrap());
    let said = |code: &str| {
        let found = host
            .query_selector_all(&format!("[data-code='{code}']"))
            .unwrap();
        (0..found.length())
            .map(|i| found.item(i).unwrap().text_content().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    until("the masks' findings", || {
        !said("advanced.alerts.target.masked").is_empty() && !said("env.value.masked").is_empty()
    })
    .await;
    let read = || {
        (
            said("advanced.alerts.target.masked"),
            said("env.value.masked"),
        )
    };
    let en = read();
    lang.set(Lang::Zh);
    leptos::task::tick().await;
    let zh = read();
    lang.set(Lang::En);
    finish(handle, &host, &address);
    crate::forget_drafts();
    let all_end =
        |said: &[String], words: &str| !said.is_empty() && said.iter().all(|s| s.ends_with(words));
    assert!(
        all_end(&en.0, "is the mask of a URL; type it"),
        "{:?}",
        en.0
    );
    assert!(all_end(&en.1, "; type the value"), "{:?}", en.1);
    assert!(all_end(&zh.0, "这是地址的掩码，请填写地址"), "{:?}", zh.0);
    assert!(all_end(&zh.1, "；请填写变量值"), "{:?}", zh.1);
}

/// The tops of the task page's panels, by their class, but its events' (the panel under
/// the timeline, which grows by a step as the task moves on), and of its columns.
fn panel_tops(host: &HtmlElement) -> Vec<(String, f64)> {
    let found = host
        .query_selector_all(".columns, .columns .panel:not(.events)")
        .unwrap();
    (0..found.length())
        .map(|i| {
            let el: web_sys::Element = found.item(i).unwrap().unchecked_into();
            (el.class_name(), el.get_bounding_client_rect().top())
        })
        .collect()
}

/// The panels of `now` that are not where they were `before`.
fn moved(before: &[(String, f64)], now: &[(String, f64)]) -> Vec<String> {
    assert_eq!(before.len(), now.len(), "{before:?} {now:?}");
    before
        .iter()
        .zip(now)
        .filter(|((_, was), (_, is))| (was - is).abs() > 0.5)
        .map(|((panel, was), (_, is))| format!("{panel}: {was} -> {is}"))
        .collect()
}

/// Answers the task page's next poll of `t1` with `view` and no events (a task without
/// fault tolerance has no retries to ask for), and waits for the page to show `phase`.
async fn answer_poll_until_shown(host: &HtmlElement, view: &TaskView, phase: &str) {
    assert!(!view.task.spec.advanced.fault_tolerance.enabled);
    answer_refresh(&serde_json::to_string(view).unwrap()).await;
    until("the events asked for", || {
        held_fetches().iter().any(|u| u.contains("/events"))
    })
    .await;
    answer_events(&latest_events("en"), "[]", 0);
    until(&format!("{phase} shown"), || shown_phase(host) == phase).await;
}

/// The page stands still as its task ends (the brief's calm console): the line under
/// the actions that said Delete waits for the end went, and with it the placement, and
/// everything below moved up 24 to 40 px (explorer, layout shift in Chromium). The end's
/// line takes the first's place, and where the task ran stays. Ended on its own, and
/// stopped (the stop's line then the end's).
#[wasm_bindgen_test]
async fn the_task_page_stands_still_as_its_task_ends() {
    let mut running = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    running.task.spec.advanced.fault_tolerance.enabled = false;
    running.placement = demo_placement();
    let ended = |phase: TaskPhase| {
        let mut view = running.clone();
        view.placement = None;
        view.task.phase = phase;
        view.task.history.push(PhaseChange {
            phase,
            at: Timestamp(1_700_000_900_000),
            reason: String::new(),
            keyed: None,
        });
        view
    };
    let mut stopping = running.clone();
    stopping.stopping_since = Some(Timestamp(js_sys::Date::now() as i64));
    let ends = [
        vec![(ended(TaskPhase::Succeeded), "Succeeded")],
        vec![
            (stopping, "Stopping"),
            (ended(TaskPhase::Stopped), "Stopped"),
        ],
    ];
    for steps in ends {
        let address = fresh_page();
        // Two columns, as the explorer's window.
        let (host, frame) = framed_host(1280);
        let (host, handle) = mount_detail_page_into(host, &running, ("[]", 0), ("[]", 0)).await;
        until_found(&host, "the placement", "[data-testid='placement'] li").await;
        crate::after_paint().await;
        let before = panel_tops(&host);
        let mut shifts = Vec::new();
        for (view, phase) in &steps {
            answer_poll_until_shown(&host, view, phase).await;
            if view.task.phase.is_finished() {
                // The log is read again, whole, once its attempt has ended: longer than
                // the page had it, which grew its box and moved the spec under it 200 px
                // (explorer).
                until("the log asked for again", || {
                    held_fetches().iter().any(|u| u.contains("/logs?"))
                })
                .await;
                let lines: String = (1..=60).map(|n| format!("line {n}\n")).collect();
                answer_log_end(&lines, 0);
            }
            crate::after_paint().await;
            shifts.push((*phase, moved(&before, &panel_tops(&host))));
        }
        let placement_kept = !all_text(&host, "[data-testid='placement'] li").is_empty();
        let end_said = all_text(&host, "[data-testid='delete-ended']");
        finish(handle, &host, &address);
        frame.remove();
        for (phase, moved) in shifts {
            assert!(moved.is_empty(), "{phase}: moved {moved:?}");
        }
        assert!(placement_kept, "where it ran stays once it has ended");
        assert_eq!(
            end_said,
            ["The task has ended: Delete takes it off the lists for good."]
        );
    }
}

/// The panels under the logs stay where they are as a queued task starts: the Logs
/// panel, a line before its first attempt, grew by its pickers, its state line and its
/// box, and the spec under it moved down 84 px (explorer, layout shift in Chromium).
/// It has them from the start, off until there is a log, the box saying why.
#[wasm_bindgen_test]
async fn the_panels_under_the_logs_stay_as_a_queued_task_starts() {
    let address = fresh_page();
    let mut queued = task("t1", TaskPhase::Queued, TaskType::PyTorchJob);
    queued.task.spec.advanced.fault_tolerance.enabled = false;
    queued.task.attempts = 0;
    queued.task.history.truncate(1);
    queued.reason = Some("the largest free node has 4 GPUs; one replica needs 8".into());
    let mut running = task("t1", TaskPhase::Running, TaskType::PyTorchJob);
    running.task.spec.advanced.fault_tolerance.enabled = false;
    running.placement = demo_placement();
    let (host, frame) = framed_host(1280);
    let (host, handle) = mount_detail_page_into(host, &queued, ("[]", 0), ("[]", 0)).await;
    until_found(&host, "the panels", ".panel.spec").await;
    crate::after_paint().await;
    let logs_bottom = |host: &HtmlElement| {
        find(host, ".panel.logs")
            .get_bounding_client_rect()
            .bottom()
    };
    let before = (panel_tops(&host), logs_bottom(&host));
    let none = all_text(&host, "[data-testid='log'] [data-testid='logs-none']");
    let off = |host: &HtmlElement| {
        ["log-replica", "log-attempt", "log-reload", "log-follow"].map(|id| {
            host.query_selector(&format!("[data-testid='{id}']"))
                .unwrap()
                .map(|control| control.has_attribute("disabled"))
        })
    };
    let off_before = off(&host);
    answer_poll_until_shown(&host, &running, "Running").await;
    until("the log asked for", || {
        held_fetches().iter().any(|u| u.contains("/logs?"))
    })
    .await;
    answer_log_end("", 0);
    until("the log read", || {
        all_text(&host, "[data-testid='log']") == ["No output yet."]
    })
    .await;
    crate::after_paint().await;
    let after = (panel_tops(&host), logs_bottom(&host));
    let off_after = off(&host);
    finish(handle, &host, &address);
    frame.remove();
    // The right column's panels: the left one's timeline grows by two steps.
    let right = |tops: &[(String, f64)]| {
        tops.iter()
            .filter(|(panel, _)| {
                ["panel tags", "panel logs", "panel spec"].contains(&panel.as_str())
            })
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(right(&before.0).len(), 3, "{:?}", before.0);
    let moved = moved(&right(&before.0), &right(&after.0));
    assert!(moved.is_empty(), "moved: {moved:?}");
    assert!(
        (before.1 - after.1).abs() <= 0.5,
        "the logs panel ends at {} then {}",
        before.1,
        after.1
    );
    assert_eq!(
        none,
        ["No attempt has started yet, so there is no log."],
        "the box says why there is none"
    );
    assert_eq!(off_before, [Some(true); 4], "nothing to pick or read yet");
    assert_eq!(off_after, [Some(false); 4]);
}

/// A task stopped while it queued never started: its log box says it ended before any
/// attempt, not that none has started yet (explorer).
#[wasm_bindgen_test]
async fn a_task_that_ended_before_it_started_says_it_has_no_log_for_good() {
    let address = fresh_page();
    let mut stopped = task("t1", TaskPhase::Stopped, TaskType::PyTorchJob);
    stopped.task.attempts = 0;
    let (host, handle) = mount_detail_page_with(&stopped, ("[]", 0), ("[]", 0)).await;
    until_found(&host, "the log box's line", "[data-testid='logs-none']").await;
    let said = all_text(&host, "[data-testid='logs-none']");
    finish(handle, &host, &address);
    assert_eq!(
        said,
        ["It ended before any attempt started, so there is no log."]
    );
}

/// A row's cells read on one line: a group named in Chinese ("Vision 视觉") sat about
/// 3 px lower than the rest of its row, its line box as tall as the CJK font's
/// (explorer). Its words stand on the row's baseline.
#[wasm_bindgen_test]
async fn a_group_named_in_chinese_stands_on_its_rows_line() {
    let style = page_style();
    let tasks = RwSignal::new(vec![task(
        "ray-etl-zz9q0",
        TaskPhase::Running,
        TaskType::RayJob,
    )]);
    let groups = shared::demo::catalog().project_groups;
    let host = mount(move || view! { <TaskTable tasks=tasks.into() groups=groups.clone() /> });
    leptos::task::tick().await;
    crate::after_paint().await;
    // Where the first letter of a cell's words ends, below its baseline by the font's
    // descent: the same font in each cell measured.
    let first_letter_bottom = |selector: &str| {
        let cell = find(&host, selector);
        let text = cell.first_child().expect("the cell's text");
        assert_eq!(text.node_type(), web_sys::Node::TEXT_NODE, "{selector}");
        let range = host.owner_document().unwrap().create_range().unwrap();
        range.set_start(&text, 0).unwrap();
        range.set_end(&text, 1).unwrap();
        (
            text.text_content().unwrap_or_default(),
            range.get_bounding_client_rect().bottom(),
        )
    };
    let cells = [
        "tbody td:nth-child(3)",
        "tbody td:nth-child(4)",
        "tbody td:nth-child(5)",
    ]
    .map(first_letter_bottom);
    host.remove();
    style.remove();
    assert_eq!(
        cells.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>(),
        ["RayJob", "alice", "Vision 视觉"]
    );
    let (_, line) = cells[1];
    for (text, bottom) in cells {
        assert!(
            (bottom - line).abs() <= 0.5,
            "{text} ends at {bottom}, the owner at {line}"
        );
    }
}
