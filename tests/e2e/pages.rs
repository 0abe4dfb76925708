//! The task pages' object (list, detail, shared view), split into find, act and check,
//! and the journeys through them: tasks are submitted over the API (the form's journeys
//! submit theirs through the form), then followed in the console as a researcher would.

use berth_e2e::{api_call, assert_accessible, browser, screenshot, start_driver, start_server};
use fantoccini::{Client, Locator, elements::Element, key::Key};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Long enough for a task to be scheduled, run a few seconds and end on 2 busy cores.
const WAIT: Duration = Duration::from_secs(60);

/// The console's task pages in one browser tab.
pub struct Pages {
    client: Client,
    base: String,
}

// find
impl Pages {
    async fn find(&self, css: &str) -> Element {
        self.client
            .wait()
            .at_most(WAIT)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("nothing matches {css}: {e}"))
    }

    async fn by_id(&self, test_id: &str) -> Element {
        self.find(&format!("[data-testid='{test_id}']")).await
    }

    /// Polls until `pred` holds for the text of the element `css` (which may be
    /// re-rendered meanwhile), then returns that text.
    async fn text_until(&self, css: &str, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        let mut last = String::new();
        loop {
            if let Ok(element) = self.client.find(Locator::Css(css)).await
                && let Ok(text) = element.text().await
            {
                if pred(&text) {
                    return text;
                }
                last = text;
            }
            if Instant::now() >= deadline {
                // The whole page's text says more than the one element.
                let page = match self.client.find(Locator::Css("main")).await {
                    Ok(main) => main.text().await.unwrap_or_default(),
                    Err(_) => String::new(),
                };
                panic!("{css} never showed {what:?}; it shows {last:?}; the page reads:\n{page}");
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// The text of the element `css` matches now (empty when there is none).
    async fn text_of(&self, css: &str) -> String {
        match self.client.find(Locator::Css(css)).await {
            Ok(element) => element.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    /// The path and query of the address bar.
    pub async fn address(&self) -> String {
        let url = self.client.current_url().await.expect("an address");
        match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_owned(),
        }
    }

    /// The id of the task whose page the console went to from task `from`'s (a
    /// resubmit's, a clone's submit).
    pub async fn next_task_page(&self, from: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let address = self.address().await;
            if let Some(new) = address.strip_prefix("/tasks/").filter(|new| *new != from) {
                return new.to_owned();
            }
            assert!(Instant::now() < deadline, "stayed at {address}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The value of the share link's field.
    pub async fn share_link(&self) -> String {
        let field = self.by_id("share-link").await;
        field
            .prop("value")
            .await
            .expect("the field has a value")
            .unwrap_or_default()
    }
}

// act
impl Pages {
    /// Opens `path` of the console in a new session and waits for the shell.
    pub async fn open(client: Client, base: &str, path: &str) -> Pages {
        client
            .goto(&format!("{base}{path}"))
            .await
            .expect("the console loads");
        let pages = Pages::of(client, base);
        pages.by_id("nav-list").await;
        pages
    }

    /// The pages of a session already in the console: a form journey's, once its task is
    /// submitted.
    pub fn of(client: Client, base: &str) -> Pages {
        Pages {
            client,
            base: base.to_owned(),
        }
    }

    /// Picks a replica's log, by the keyboard-operable select (`0` is the first).
    pub async fn pick_replica(&self, replica: &str) {
        self.by_id("log-replica")
            .await
            .select_by_value(replica)
            .await
            .expect("the replica picker takes a choice");
    }

    /// Clones the task whose page is shown: the form at `/new?clone=<id>`, holding each of
    /// `values` (a control's name and value), and checked with no error.
    pub async fn clone_it(&self, id: &str, values: &[(&str, &str)], shot: &str) {
        self.click("action-clone").await;
        self.check_address(&format!("/new?clone={id}")).await;
        for (name, value) in values {
            self.check_control_value(name, value).await;
        }
        self.check_text("summary", "0 errors").await;
        self.screenshot(shot).await;
    }

    /// Goes to `path` by the address bar (a reload).
    pub async fn goto(&self, path: &str) {
        self.client
            .goto(&format!("{}{path}", self.base))
            .await
            .expect("the page loads");
        self.by_id("nav-list").await;
    }

    /// Submits a spec over the API from inside the page; returns the new task's id.
    pub async fn submit(&self, spec: &Value) -> String {
        let (status, task) = api_call(&self.client, "POST", "/api/v1/tasks", Some(spec)).await;
        assert_eq!(status, 201, "submit: {task}");
        task["id"].as_str().expect("an id").to_owned()
    }

    /// Clicks the element with this test id.
    pub async fn click(&self, test_id: &str) {
        self.by_id(test_id)
            .await
            .click()
            .await
            .unwrap_or_else(|e| panic!("{test_id} does not click: {e}"));
    }

    /// Focuses the element `css` and presses Enter on it, as a keyboard user does.
    pub async fn press_enter_on(&self, css: &str) {
        let element = self.find(css).await;
        element
            .send_keys(&Key::Enter.to_string())
            .await
            .unwrap_or_else(|e| panic!("{css} does not take Enter: {e}"));
    }

    /// Types `text` into the field with this test id.
    pub async fn type_into(&self, test_id: &str, text: &str) {
        self.by_id(test_id)
            .await
            .send_keys(text)
            .await
            .unwrap_or_else(|e| panic!("{test_id} does not take keys: {e}"));
    }

    /// Picks a phase chip by keyboard (focus, Enter).
    pub async fn choose_phase(&self, phase: &str) {
        self.press_enter_on(&format!(".chip[data-phase='{phase}']"))
            .await;
    }

    /// Picks a task type in the list's filter.
    pub async fn choose_type(&self, label: &str) {
        self.by_id("filter-type")
            .await
            .select_by_label(label)
            .await
            .expect("the type filter takes the choice");
    }

    /// Saves a screenshot of this step.
    pub async fn screenshot(&self, name: &str) {
        screenshot(&self.client, name).await;
    }

    /// Runs axe-core on the page as it is and fails on a critical or serious violation.
    pub async fn check_accessible(&self, page: &str) {
        assert_accessible(&self.client, page).await;
    }

    /// Ends the session.
    pub async fn close(self) {
        self.client.close().await.expect("the session closes");
    }
}

// check
impl Pages {
    /// Nothing was said in the browser's console since it was last read: no error of the
    /// console's, no note of Chromium's about the page.
    pub async fn check_console_quiet(&self) {
        assert_eq!(
            berth_e2e::browser_log(&self.client).await,
            Vec::<String>::new()
        );
    }

    /// The list shows a row for this task, in this phase (waits for the live refresh).
    pub async fn check_row(&self, id: &str, phase: &str) {
        let css = format!("tr[data-id='{id}'][data-phase='{phase}']");
        self.find(&css).await;
    }

    /// The form's control named `name` (its field path) holds `value`.
    pub async fn check_control_value(&self, name: &str, value: &str) {
        let deadline = Instant::now() + WAIT;
        loop {
            let now = match self
                .client
                .find(Locator::Css(&format!("[name='{name}']")))
                .await
            {
                Ok(control) => control.prop("value").await.ok().flatten(),
                Err(_) => None,
            };
            if now.as_deref() == Some(value) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{name} holds {now:?}, not {value:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The list has no row for this task, after its refresh.
    pub async fn check_no_row(&self, id: &str) {
        self.by_id("list-status").await;
        let deadline = Instant::now() + WAIT;
        while self
            .client
            .find(Locator::Css(&format!("tr[data-id='{id}']")))
            .await
            .is_ok()
        {
            assert!(Instant::now() < deadline, "{id} stays in the list");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// The rows shown, by id.
    pub async fn row_ids(&self) -> Vec<String> {
        let mut ids = Vec::new();
        for row in self
            .client
            .find_all(Locator::Css("tr[data-testid='task-row']"))
            .await
            .expect("rows")
        {
            ids.push(row.attr("data-id").await.ok().flatten().unwrap_or_default());
        }
        ids
    }

    /// The detail page shows this phase (in the current language).
    pub async fn check_phase(&self, label: &str) {
        self.text_until("[data-testid='detail-phase']", label, |t| t == label)
            .await;
    }

    /// The log shows `text`.
    pub async fn check_log_contains(&self, text: &str) {
        self.text_until("[data-testid='log']", text, |t| t.contains(text))
            .await;
    }

    /// The log box is scrolled to its last line (a followed log is tailed).
    pub async fn check_log_at_its_end(&self) {
        let script = "const log = document.querySelector(\"[data-testid='log']\"); \
                      return [log.scrollHeight - log.clientHeight - log.scrollTop, \
                      log.scrollHeight > log.clientHeight];";
        let deadline = Instant::now() + WAIT;
        loop {
            let answer = self
                .client
                .execute(script, vec![])
                .await
                .expect("the script runs");
            let (below, overflows) = (answer[0].as_f64().unwrap_or(f64::MAX), answer[1] == true);
            assert!(overflows, "the log is longer than its box");
            if below <= 2.0 {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the log box is {below} px above its end"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The status line under the log toolbar shows `text`.
    pub async fn check_log_state(&self, text: &str) {
        self.text_until("[data-testid='log-state']", text, |t| t.contains(text))
            .await;
    }

    /// The element with this test id shows `text`.
    pub async fn check_text(&self, test_id: &str, text: &str) {
        self.text_until(&format!("[data-testid='{test_id}']"), text, |t| {
            t.contains(text)
        })
        .await;
    }

    /// The element with this test id has the keyboard focus.
    pub async fn check_focus(&self, test_id: &str) {
        let deadline = Instant::now() + WAIT;
        loop {
            let active = self
                .client
                .active_element()
                .await
                .expect("an active element");
            let id = active.attr("data-testid").await.ok().flatten();
            if id.as_deref() == Some(test_id) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the focus is on {id:?}, not {test_id}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The control with this test id is marked off (`aria-disabled`), keeping its place
    /// in the keyboard's order and the focus when pressed (waits for it).
    pub async fn check_marked_off(&self, test_id: &str) {
        self.find(&format!("[data-testid='{test_id}'][aria-disabled='true']"))
            .await;
    }

    /// No element matches `css`.
    pub async fn check_absent(&self, css: &str) {
        assert!(
            self.client.find(Locator::Css(css)).await.is_err(),
            "{css} should not be on this page"
        );
    }

    /// The address bar shows `path` (waits for the in-page navigation).
    pub async fn check_address(&self, path: &str) {
        let deadline = Instant::now() + WAIT;
        loop {
            let now = self.address().await;
            if now == path {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the address is {now}, not {path}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// The PyTorchJob example running `command`, without mounts or pod SSH (those need
/// bubblewrap, which the backend's own tests cover).
fn pytorch(command: &str) -> Value {
    let mut spec: Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).expect("JSON");
    spec["environment"]["command"] = command.into();
    spec["environment"]["storage"] = json!([]);
    spec["environment"]["datasets"] = json!([]);
    spec["environment"]["models"] = json!([]);
    spec["advanced"]["ssh"] = false.into();
    spec
}

/// The RayJob example running `entrypoint`, without mounts or shared storage.
fn ray(entrypoint: &str) -> Value {
    let mut spec: Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).expect("JSON");
    spec["environment"]["command"] = entrypoint.into();
    spec["environment"]["storage"] = json!([]);
    spec["environment"]["datasets"] = json!([]);
    spec["ray"]["shared_storage"] = json!({ "enabled": false });
    spec
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_researcher_follows_a_pytorchjob_from_the_list_to_its_logs_then_shares_clones_and_deletes_it()
 {
    let server = start_server().await;
    let driver = start_driver();
    let pages = Pages::open(browser(&driver, "en-US").await, &server, "/").await;

    // Longer than the log's box: a followed log shows its end.
    let command = "echo \"rank $RANK of $WORLD_SIZE\"; sleep 3; seq 1 150; \
                   echo 'epoch 1 loss 0.42'; sleep 1; echo done";
    let id = pages.submit(&pytorch(command)).await;

    // The list finds it by itself (live refresh), running, then succeeded.
    pages.check_row(&id, "running").await;
    pages.screenshot("pages-1-list-running").await;
    pages.check_accessible("list").await;

    // By keyboard alone: Enter on the task's link opens its detail without a reload.
    pages.press_enter_on(&format!("tr[data-id='{id}'] a")).await;
    pages.check_address(&format!("/tasks/{id}")).await;
    pages.check_text("detail-title", &id).await;

    // Follow the master's log live until the attempt ends.
    pages.click("log-follow").await;
    pages.check_log_contains("rank 0 of 2").await;
    pages.check_log_contains("epoch 1 loss 0.42").await;
    pages.check_log_state("The attempt has ended").await;
    pages.check_log_contains("done").await;
    pages.check_log_at_its_end().await;
    pages.check_phase("Succeeded").await;
    pages.check_text("timeline", "Running").await;
    pages.check_text("events", "Succeeded").await;
    // The owner sees the real hidden value in the spec.
    pages.check_text("spec-view", "hf_demo_secret").await;
    pages.screenshot("pages-2-detail-succeeded-log").await;
    pages.check_accessible("detail").await;

    // The worker's log, picked by keyboard-operable select.
    pages.pick_replica("1").await;
    pages.check_log_contains("rank 1 of 2").await;
    // Filtered to the lines with a word, as grep would; emptied, whole again.
    pages.type_into("log-filter", "LOSS").await;
    pages.check_log_state("lines contain it.").await;
    pages
        .text_until("[data-testid='log']", "only the loss lines", |t| {
            !t.contains("rank 1 of 2") && t.contains("loss")
        })
        .await;
    pages.screenshot("pages-2b-log-filtered").await;
    pages.check_accessible("filtered log").await;
    pages
        .type_into("log-filter", "\u{E003}\u{E003}\u{E003}\u{E003}")
        .await;
    pages.check_log_contains("rank 1 of 2").await;

    // Share: the link opens in a fresh session as a read-only view, secrets masked.
    pages.click("action-share").await;
    // The focus goes to the new link, ready to copy, not to the page's body.
    pages.check_focus("share-link").await;
    let link = pages.share_link().await;
    assert!(link.starts_with(&format!("{server}/shared/")), "{link}");
    pages.screenshot("pages-3-share-link").await;
    // Where the browser has no clipboard (a plain-http address is not a secure context),
    // Copy says so, and the page goes on working.
    pages
        .client
        .execute(
            "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined })",
            vec![],
        )
        .await
        .expect("the script runs");
    pages.click("share-copy").await;
    pages
        .check_text("share-copied", "copy the link by hand")
        .await;
    let other = Pages::open(
        browser(&driver, "en-US").await,
        &server,
        link.trim_start_matches(&server),
    )
    .await;
    other
        .check_text("shared-title", &format!("Shared task {id} (read-only)"))
        .await;
    other.check_text("read-only", "read-only").await;
    other.check_text("spec-view", "******").await;
    other.check_absent("[data-testid^='action-']").await;
    // Its events and the master's log, read through the link; and a way to rerun it.
    other.check_text("events", "Succeeded").await;
    other.check_log_contains("rank 0 of 2").await;
    other.check_log_contains("epoch 1 loss 0.42").await;
    other.check_text("shared-clone", "Clone").await;
    other.screenshot("pages-4-shared-read-only").await;
    other.check_accessible("shared").await;
    other.close().await;

    // The link is listed by Manage links, and revoked by keyboard alone: the page says
    // which, and the link opens nothing from then on.
    pages
        .press_enter_on("[data-testid='action-share-links']")
        .await;
    pages.check_text("share-link-1", "by alice").await;
    pages.press_enter_on("[data-testid='share-revoke-1']").await;
    // Asked first, with Cancel focused; then its Yes pressed.
    pages.check_focus("confirm-revoke-1-no").await;
    pages
        .press_enter_on("[data-testid='confirm-revoke-1-yes']")
        .await;
    pages.check_text("share-revoked", "Link 1, made ").await;
    pages.check_focus("share-revoked").await;
    pages.check_text("share-links-none", "No share link").await;
    pages.check_absent("[data-testid='share-link']").await;
    pages.check_accessible("detail").await;
    let revoked = Pages::open(
        browser(&driver, "en-US").await,
        &server,
        link.trim_start_matches(&server),
    )
    .await;
    revoked
        .check_text("error", "This link opens no task: it was revoked")
        .await;
    revoked.close().await;

    // Switch language: the same page in the seeds' words.
    pages.click("lang-zh").await;
    pages.check_phase("成功").await;
    pages.check_text("detail-title", "任务").await;
    pages.screenshot("pages-5-detail-zh").await;
    pages.click("lang-en").await;

    // Clone: the form, at /new?clone=<id>, prefilled with the task's spec, the owner's
    // hidden value real, and checked.
    let prefilled = [
        ("basic.name_prefix", "llama-finetune"),
        ("environment.command", command),
        ("environment.env[1].value", "hf_demo_secret"),
    ];
    pages.clone_it(&id, &prefilled, "pages-6-clone").await;

    // Resubmit: the same spec again, a new task whose page opens and which runs.
    pages.goto(&format!("/tasks/{id}")).await;
    pages.check_phase("Succeeded").await;
    pages.click("action-resubmit").await;
    let again = pages.next_task_page(&id).await;
    assert!(again.starts_with("llama-finetune-"), "{again}");
    pages.check_text("detail-title", &again).await;
    pages.check_phase("Succeeded").await;
    // Its page names the task it was resubmitted from, after a reload too.
    pages.goto(&format!("/tasks/{again}")).await;
    pages.check_text("made-from", &id).await;
    // Its spec compared with that task's: the same, then a tag apart.
    pages.click("compare-go").await;
    pages
        .check_text(
            "compared",
            &format!("Its spec and the spec of {id} are the same."),
        )
        .await;
    pages.type_into("tag-key", "priority").await;
    pages.type_into("tag-value", "p0").await;
    pages.click("tag-add").await;
    pages.click("tags-save").await;
    pages.check_text("tags-saved", "Tags saved.").await;
    pages.click("compare-go").await;
    pages
        .check_text("compared", &format!("1 field differs from {id}:"))
        .await;
    pages.check_text("compared", "priority=p0").await;
    pages.screenshot("pages-6b-compared").await;
    pages.check_accessible("compared specs").await;

    // Delete, with a confirmation that Cancel leaves alone.
    pages.goto(&format!("/tasks/{id}")).await;
    pages.check_phase("Succeeded").await;
    pages.click("action-delete").await;
    pages
        .check_text("confirm-delete", &format!("Delete task {id}?"))
        .await;
    // The question takes the focus at its safe answer; Cancel puts it back at Delete.
    pages.check_focus("confirm-delete-no").await;
    pages.click("confirm-delete-no").await;
    pages.check_absent("[data-testid='confirm-delete']").await;
    pages.check_focus("action-delete").await;
    pages.click("action-delete").await;
    pages.screenshot("pages-7-delete-confirm").await;
    // Enter on the question's Delete answers it.
    pages
        .press_enter_on("[data-testid='confirm-delete-yes']")
        .await;
    pages
        .check_text("deleted", &format!("Task {id} was deleted."))
        .await;
    // The actions went with the task: the focus is on what the page says now.
    pages.check_focus("deleted").await;
    pages.click("nav-list").await;
    pages.check_no_row(&id).await;

    pages.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rayjob_runs_to_success_a_long_task_is_stopped_and_filters_survive_a_reload() {
    let server = start_server().await;
    let driver = start_driver();
    let pages = Pages::open(browser(&driver, "en-US").await, &server, "/").await;

    let ray_id = pages
        .submit(&ray(
            "echo \"ray at $RAY_ADDRESS\"; sleep 2; echo 'tune finished'",
        ))
        .await;
    let long_id = pages.submit(&pytorch("echo started; sleep 600")).await;

    // The RayJob: detail, success, its log read after the end.
    pages.goto(&format!("/tasks/{ray_id}")).await;
    pages.check_phase("Succeeded").await;
    pages.click("log-reload").await;
    pages.check_log_contains("ray at 127.0.0.1:6379").await;
    pages.check_log_contains("tune finished").await;
    pages.screenshot("pages-8-rayjob-succeeded").await;

    // The long one: running, then stopped from its page.
    pages.goto(&format!("/tasks/{long_id}")).await;
    pages.check_phase("Running").await;
    pages.check_log_contains("started").await;
    pages.click("action-stop").await;
    // Asked first, at the safe answer; Cancel leaves it running.
    pages.check_focus("confirm-stop-no").await;
    pages.click("confirm-stop-no").await;
    pages.check_absent("[data-testid='confirm-stop']").await;
    pages.check_phase("Running").await;
    pages.click("action-stop").await;
    pages.click("confirm-stop-yes").await;
    // The question goes, and the focus stays with the actions rather than the body.
    pages.check_focus("actions").await;
    pages.check_phase("Stopped").await;
    pages.screenshot("pages-9-stopped").await;

    // A third, stopped from its row in the list: asked first, at Cancel, over the list.
    let mut sweep = pytorch("echo started; sleep 600");
    sweep["basic"]["name_prefix"] = "sweep".into();
    let sweep_id = pages.submit(&sweep).await;
    pages.click("nav-list").await;
    pages
        .find(&format!(
            "tr[data-id='{sweep_id}'] [data-testid='row-stop']"
        ))
        .await
        .click()
        .await
        .expect("the row's Stop takes a click");
    pages.check_focus("list-stop-no").await;
    pages.check_accessible("the list's stop question").await;
    pages.screenshot("pages-9b-list-stop-question").await;
    pages.click("list-stop-yes").await;
    // The keyboard goes on from its row.
    pages.check_focus("task-link").await;
    pages.check_row(&sweep_id, "stopped").await;

    // Filters: the chips and the type are kept in the address, and a reload keeps them.
    pages.click("nav-list").await;
    pages.check_row(&ray_id, "succeeded").await;
    pages.check_row(&long_id, "stopped").await;
    // Active: the tasks that have not ended; none has not, now.
    pages.choose_phase("active").await;
    pages.check_address("/?phase=active").await;
    pages.check_no_row(&ray_id).await;
    pages.check_no_row(&long_id).await;
    pages.choose_phase("succeeded").await;
    pages.choose_type("RayJob").await;
    pages.check_address("/?phase=succeeded&type=ray_job").await;
    pages.goto("/?phase=succeeded&type=ray_job").await;
    pages.check_row(&ray_id, "succeeded").await;
    assert_eq!(pages.row_ids().await, std::slice::from_ref(&ray_id));
    pages.screenshot("pages-10-list-filtered").await;
    pages.check_accessible("filtered list").await;
    // A task's page and back by its "Back to the task list" link: the filters are still there.
    pages
        .press_enter_on(&format!("tr[data-id='{ray_id}'] a"))
        .await;
    pages.check_address(&format!("/tasks/{ray_id}")).await;
    pages.click("back").await;
    pages.check_address("/?phase=succeeded&type=ray_job").await;
    pages.check_row(&ray_id, "succeeded").await;
    assert_eq!(pages.row_ids().await, std::slice::from_ref(&ray_id));

    // The tag, name and whose filters reach the server too (Enter applies a text).
    pages.click("filter-clear").await;
    pages.check_row(&long_id, "stopped").await;
    pages.type_into("filter-tag", "team=vision\u{E007}").await;
    pages.check_no_row(&long_id).await;
    assert_eq!(pages.row_ids().await, std::slice::from_ref(&ray_id));
    pages.click("filter-clear").await;
    pages.type_into("filter-name", "finetune\u{E007}").await;
    pages.check_no_row(&ray_id).await;
    assert_eq!(pages.row_ids().await, std::slice::from_ref(&long_id));
    pages.click("filter-clear").await;
    pages
        .by_id("filter-scope")
        .await
        .select_by_value("group:vision")
        .await
        .expect("the scope takes the choice");
    pages.check_no_row(&long_id).await;
    assert_eq!(pages.row_ids().await, std::slice::from_ref(&ray_id));
    pages.click("filter-clear").await;

    // An unknown task and an unknown page say so in the page.
    pages.goto("/tasks/no-such-task").await;
    pages.check_text("error", "(task.not_found)").await;
    pages.goto("/nowhere").await;
    pages
        .check_text("not-found", "There is no page at /nowhere.")
        .await;

    // Tags: a maintained one is saved; a key the rules refuse is shown in the page, with the
    // rule's words in the reader's language.
    pages.goto(&format!("/tasks/{long_id}")).await;
    pages.check_phase("Stopped").await;
    pages.type_into("tag-key", "priority").await;
    pages.type_into("tag-value", "p0").await;
    pages.click("tag-add").await;
    pages.click("tags-save").await;
    pages.check_text("tags-saved", "Tags saved.").await;
    pages.check_text("tags", "priority=p0").await;
    pages.click("lang-zh").await;
    pages.type_into("tag-key", "-bad key-").await;
    pages.click("tag-add").await;
    // Checked by the form's rules as it is added, at the tags: the field by its labels,
    // the rule in the reader's language, and no save while it stands.
    pages
        .check_text(
            "tags-findings",
            "标签第 4 项 › 标签键：连同前缀最多 63 个字符",
        )
        .await;
    pages.check_marked_off("tags-save").await;
    pages.screenshot("pages-11-tag-refused-zh").await;
    pages.check_accessible("detail with a refused tag").await;

    pages.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_task_shows_the_log_of_the_attempt_its_picker_shows() {
    let server = start_server().await;
    let driver = start_driver();
    let pages = Pages::open(browser(&driver, "en-US").await, &server, "/").await;
    // Each replica's first attempt leaves its own mark on the shared volume and fails;
    // the retry finds it. One mark for all replicas raced: a replica that started after
    // another's mark printed "second-attempt" in the first attempt (CI, under load).
    let command = "if [ -f /volume/ckpt/tried-$RANK ]; then echo second-attempt; \
                   else touch /volume/ckpt/tried-$RANK; echo first-attempt; sleep 4; exit 1; fi";
    let mut spec = pytorch(command);
    spec["environment"]["storage"] = json!([{ "id": "vol-ckpt", "path": "/volume/ckpt" }]);
    assert_eq!(spec["advanced"]["fault_tolerance"]["enabled"], true);
    let id = pages.submit(&spec).await;
    pages.goto(&format!("/tasks/{id}")).await;
    pages.check_phase("Running").await;
    // The first attempt's log, read while it runs.
    let deadline = Instant::now() + WAIT;
    loop {
        pages.click("log-reload").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let log = pages.text_of("[data-testid='log']").await;
        if log.contains("first-attempt") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the first attempt's log: {log:?}"
        );
    }
    // Retried and done: the picker shows attempt 2, and so does the log, unasked.
    pages.check_phase("Succeeded").await;
    pages
        .text_until("[data-testid='log-attempt']", "Attempt 2", |t| {
            t.contains("Attempt 2")
        })
        .await;
    pages
        .text_until("[data-testid='log']", "attempt 2's log", |t| {
            t.contains("second-attempt") && !t.contains("first-attempt")
        })
        .await;
    pages.screenshot("pages-11-retried-attempt-2").await;
    pages.close().await;
}
