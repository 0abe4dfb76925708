//! The create form as a page object, split into find, act and check. Controls are
//! found by their field path (`[name='environment.env[0].name']`), as the form names
//! them.

use fantoccini::{Client, Locator, elements::Element};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// WebDriver key codes.
pub mod key {
    /// Tab.
    pub const TAB: &str = "\u{E004}";
    /// Enter.
    pub const ENTER: &str = "\u{E007}";
    /// Alt, held until [`RELEASE`].
    pub const ALT: &str = "\u{E00A}";
    /// ↑.
    pub const UP: &str = "\u{E013}";
    /// ↓.
    pub const DOWN: &str = "\u{E015}";
    /// Releases held modifiers.
    pub const RELEASE: &str = "\u{E000}";
}

/// The create form in one browser tab.
pub struct Page {
    /// The browser session, for screenshots.
    pub client: Client,
}

fn control(path: &str) -> String {
    format!("[name='{path}']")
}

// find
impl Page {
    async fn wait_for(&self, css: &str) -> Element {
        self.client
            .wait()
            .at_most(WAIT)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("nothing matches {css}: {e}"))
    }

    async fn test_id(&self, id: &str) -> Element {
        self.wait_for(&format!("[data-testid='{id}']")).await
    }

    async fn text(&self, id: &str) -> String {
        self.test_id(id).await.text().await.unwrap_or_default()
    }

    /// Polls until `pred` holds for the element's text, then returns it.
    async fn text_until(&self, id: &str, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let text = self.text(id).await;
            if pred(&text) {
                return text;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{id} never showed {what:?}; it shows {text:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn count(&self, css: &str) -> usize {
        self.client
            .find_all(Locator::Css(css))
            .await
            .map(|all| all.len())
            .unwrap_or(0)
    }

    /// Polls a script's answer until `pred` holds.
    async fn script_until(
        &self,
        script: &str,
        what: &str,
        pred: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let value = self
                .client
                .execute(script, vec![])
                .await
                .expect("the script runs");
            if pred(&value) {
                return value;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "never {what}; the page answers {value}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The `name` of the focused control.
    async fn focused_name(&self) -> String {
        self.focused("name").await
    }

    /// The `data-testid` of the focused element.
    async fn focused_test_id(&self) -> String {
        self.focused("data-testid").await
    }

    /// An attribute of the focused element ("" for none).
    async fn focused(&self, attribute: &str) -> String {
        let value = self
            .client
            .execute(
                "return document.activeElement && document.activeElement.getAttribute(arguments[0]);",
                vec![attribute.into()],
            )
            .await
            .expect("the script runs");
        value.as_str().unwrap_or_default().to_owned()
    }

    /// Waits until the focused element's `attribute` is `value`.
    async fn wait_for_focus(&self, attribute: &str, value: &str) {
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let now = self.focused(attribute).await;
            if now == value {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the focus is on {now:?}, not {value}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

// act
impl Page {
    /// Opens the create page and waits for the form.
    pub async fn open(client: Client, base: &str) -> Page {
        client
            .goto(&format!("{base}/new"))
            .await
            .expect("the console loads");
        let page = Page { client };
        page.wait_for(&control("basic.name_prefix")).await;
        page
    }

    /// Reloads the page and waits for the form.
    pub async fn reload(&self) {
        self.client.refresh().await.expect("the page reloads");
        self.wait_for(&control("basic.name_prefix")).await;
    }

    /// Replaces a text, number or multi-line control's value, typing it.
    pub async fn fill(&self, path: &str, text: &str) {
        let el = self.wait_for(&control(path)).await;
        el.clear().await.expect("the control clears");
        el.send_keys(text).await.expect("the control takes keys");
    }

    /// Picks an option of a choice by its value.
    pub async fn choose(&self, path: &str, value: &str) {
        let el = self.wait_for(&control(path)).await;
        el.select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("{path} offers no {value}: {e}"));
    }

    /// Clicks a checkbox.
    pub async fn toggle(&self, path: &str) {
        self.wait_for(&control(path))
            .await
            .click()
            .await
            .expect("the box clicks");
    }

    /// Clicks the element with this test id.
    pub async fn click(&self, id: &str) {
        self.test_id(id)
            .await
            .click()
            .await
            .expect("the element clicks");
    }

    /// Opens the preview (a closed `<details>`).
    pub async fn open_preview(&self) {
        self.wait_for(".transfer details summary")
            .await
            .click()
            .await
            .expect("the preview opens");
    }

    /// Opens the Kubernetes objects' preview and asks the server to render them.
    pub async fn render_manifests(&self) {
        self.test_id("render")
            .await
            .find(Locator::XPath("ancestor::details/summary"))
            .await
            .expect("the render button sits in a details")
            .click()
            .await
            .expect("the objects' preview opens");
        self.click("render").await;
    }

    /// Sends keys to whatever has the focus, as a keyboard does.
    pub async fn keys(&self, keys: &str) {
        let el = self
            .client
            .active_element()
            .await
            .expect("something has the focus");
        el.send_keys(keys)
            .await
            .expect("the focused element takes keys");
    }

    /// Presses Tab until the control named `path` has the focus; returns the presses.
    pub async fn tab_to(&self, path: &str) -> usize {
        for presses in 0..400 {
            if self.focused_name().await == path {
                return presses;
            }
            self.keys(key::TAB).await;
        }
        panic!("Tab never reached {path}");
    }

    /// Presses Tab until the element with this test id has the focus.
    pub async fn tab_to_test_id(&self, id: &str) {
        for _ in 0..400 {
            if self.focused_test_id().await == id {
                return;
            }
            self.keys(key::TAB).await;
        }
        panic!("Tab never reached {id}");
    }

    /// Presses ↓ on the focused choice until its value is `value`.
    pub async fn arrow_to(&self, value: &str) {
        for _ in 0..30 {
            let now = self
                .client
                .execute("return document.activeElement.value;", vec![])
                .await
                .expect("the script runs");
            if now.as_str() == Some(value) {
                return;
            }
            self.keys(key::DOWN).await;
        }
        panic!("↓ never reached {value}");
    }

    /// Clicks 中文 or English.
    pub async fn switch_language(&self, zh: bool) {
        self.click(if zh { "lang-zh" } else { "lang-en" }).await;
    }

    /// Loads the validator package into the page, as an embedding portal would, checks
    /// the spec with its `validateTask` and returns the codes it reports.
    pub async fn validate_in_page(
        &self,
        spec: &str,
        catalog: &str,
        user: &str,
        usage: &str,
    ) -> Vec<String> {
        let script = "const [spec, catalog, user, usage, done] = arguments;
                      import('/validator/berth_validator.js')
                        .then(async (validator) => {
                          await validator.default();
                          const [s, c, u, g] = [spec, catalog, user, usage].map((a) => JSON.parse(a));
                          done(validator.validateTask(s, c, u, g).issues.map((i) => i.code));
                        }, (err) => done(String(err)));";
        let args = vec![spec.into(), catalog.into(), user.into(), usage.into()];
        let value = self
            .client
            .execute_async(script, args)
            .await
            .expect("the validator package runs");
        serde_json::from_value(value.clone())
            .unwrap_or_else(|_| panic!("a list of codes, not {value}"))
    }

    /// Whether the console's own package exports `name` (trunk exposes it as
    /// `window.wasmBindings`).
    pub async fn console_exports(&self, name: &str) -> bool {
        let script = "return typeof window.wasmBindings[arguments[0]] !== 'undefined';";
        let value = self
            .client
            .execute(script, vec![name.into()])
            .await
            .expect("the console's package has loaded");
        value.as_bool().expect("a boolean")
    }

    /// Posts a spec to the API from the page, as another tab of the same user would;
    /// returns the HTTP status.
    pub async fn submit_behind_the_form(&self, spec: &str, key: &str) -> u64 {
        let script = "const [spec, key, done] = arguments;
                      fetch('/api/v1/tasks', {method: 'POST', body: spec,
                          headers: {'content-type': 'application/json', 'idempotency-key': key}})
                        .then((r) => done(r.status), () => done(0));";
        let value = self
            .client
            .execute_async(script, vec![spec.into(), key.into()])
            .await
            .expect("the request runs");
        value.as_u64().unwrap_or_default()
    }

    /// Imports a spec through the import box.
    pub async fn import(&self, text: &str) {
        self.wait_for(".transfer details:last-of-type summary")
            .await
            .click()
            .await
            .expect("the import box opens");
        self.fill_test_id("import-text", text).await;
        self.click("import").await;
    }

    /// Imports another spec through the import box, already open.
    pub async fn import_again(&self, text: &str) {
        self.fill_test_id("import-text", text).await;
        self.click("import").await;
    }

    /// The import's note says `what`; returns all it says.
    pub async fn check_import_note_contains(&self, what: &str) -> String {
        self.text_until("import-note", what, |t| t.contains(what))
            .await
    }

    async fn fill_test_id(&self, id: &str, text: &str) {
        let el = self.test_id(id).await;
        el.clear().await.expect("the box clears");
        el.send_keys(text).await.expect("the box takes keys");
    }

    /// Ends the session.
    pub async fn close(self) {
        self.client.close().await.expect("the session closes");
    }
}

// check
impl Page {
    /// The findings summary mentions `text`.
    pub async fn check_summary_contains(&self, text: &str) {
        self.text_until("summary", text, |t| t.contains(text)).await;
    }

    /// The plan's outcome starts with `text`.
    pub async fn check_outcome_starts_with(&self, text: &str) -> String {
        self.text_until("outcome", text, |t| t.starts_with(text))
            .await
    }

    /// The plan's outcome mentions `text`.
    pub async fn check_outcome_contains(&self, text: &str) {
        self.text_until("outcome", text, |t| t.contains(text)).await;
    }

    /// The verdict list mentions `text`.
    pub async fn check_verdicts_contain(&self, text: &str) {
        self.text_until("verdicts", text, |t| t.contains(text))
            .await;
    }

    /// The verdicts, as they read now, do not say `text`.
    pub async fn check_verdicts_lack(&self, text: &str) {
        let now = self.text("verdicts").await;
        assert!(!now.contains(text), "the verdicts say {text:?}: {now:?}");
    }

    /// A finding with this code shows at the field, which is marked invalid when it is an
    /// error; returns what it says.
    pub async fn check_finding_at(&self, path: &str, code: &str) -> String {
        self.wait_for(&format!(
            ".field[data-field='{path}'] li.finding[data-code='{code}']"
        ))
        .await
        .text()
        .await
        .expect("the finding's text reads")
    }

    /// No finding shows at the field any more, and it is not marked invalid.
    pub async fn check_field_clean(&self, path: &str) {
        let css = format!(".field[data-field='{path}'] li.finding");
        let deadline = std::time::Instant::now() + WAIT;
        while self.count(&css).await > 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "{path} keeps its findings"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let invalid = self
            .wait_for(&control(path))
            .await
            .attr("aria-invalid")
            .await
            .expect("the attribute reads");
        assert_eq!(
            invalid.as_deref(),
            Some("false"),
            "{path} is still marked invalid"
        );
    }

    /// The control is marked invalid.
    pub async fn check_invalid(&self, path: &str) {
        let css = format!("{}[aria-invalid='true']", control(path));
        self.wait_for(&css).await;
    }

    /// The control holds `value`.
    pub async fn check_value(&self, path: &str, value: &str) {
        let el = self.wait_for(&control(path)).await;
        let now = el.prop("value").await.expect("the value reads");
        assert_eq!(now.as_deref(), Some(value), "{path}");
    }

    /// The element `css` stands wholly inside the window, give or take a pixel's part
    /// (waits for it: the browser scrolls to a focused element).
    pub async fn check_in_view(&self, css: &str) {
        let script = format!(
            "const r = document.querySelector({css:?}).getBoundingClientRect(); \
             return [r.top, r.bottom, window.innerHeight];"
        );
        self.script_until(&script, &format!("{css} in view"), |v| {
            let at: Vec<f64> = v
                .as_array()
                .map(|a| a.iter().filter_map(serde_json::Value::as_f64).collect())
                .unwrap_or_default();
            matches!(at[..], [top, bottom, height] if top > -1.0 && bottom < height + 1.0)
        })
        .await;
    }

    /// The element with this `data-testid` has the focus.
    pub async fn check_focus_on(&self, test_id: &str) {
        self.wait_for_focus("data-testid", test_id).await;
    }

    /// The control named `path` has the focus.
    pub async fn check_focus(&self, path: &str) {
        self.wait_for_focus("name", path).await;
    }

    /// A label reads `text`.
    pub async fn check_label(&self, path: &str, text: &str) {
        let css = format!(".field[data-field='{path}'] > label");
        let label = self.wait_for(&css).await;
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let now = label.text().await.unwrap_or_default();
            if now == text {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{path}'s label reads {now:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The submit button is enabled (no error remains).
    pub async fn check_submit_enabled(&self) {
        self.script_until(
            "const b = document.querySelector(\"[data-testid='submit']\"); return !b.disabled && b.getAttribute('aria-disabled') !== 'true';",
            "enabled submit",
            |v| v.as_bool() == Some(true),
        )
        .await;
    }

    /// The preview (what will be submitted) mentions `text`.
    pub async fn check_preview_contains(&self, text: &str) {
        let script = "return document.querySelector(\"[data-testid='preview']\").textContent;";
        self.script_until(script, text, |v| {
            v.as_str().is_some_and(|t| t.contains(text))
        })
        .await;
    }

    pub async fn check_manifests_contain(&self, text: &str) {
        self.text_until("manifests", text, |t| t.contains(text))
            .await;
    }

    /// The address bar is the new task's page; returns its id.
    pub async fn check_on_task_page(&self) -> String {
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let url = self.client.current_url().await.expect("a current URL");
            if let Some(id) = url.path().strip_prefix("/tasks/") {
                return id.to_owned();
            }
            if std::time::Instant::now() >= deadline {
                let banner = match self
                    .client
                    .find(Locator::Css("[data-testid='submit-error']"))
                    .await
                {
                    Ok(el) => el.text().await.unwrap_or_default(),
                    Err(_) => String::new(),
                };
                let summary = self.text("summary").await;
                panic!("still on {url} after submit; error {banner:?}; summary {summary:?}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The submit was refused with a message.
    pub async fn check_submit_refused(&self) {
        self.test_id("submit-error").await;
    }

    /// The draft-restored note shows.
    pub async fn check_draft_restored(&self) {
        self.test_id("draft-restored").await;
    }
}
