//! The console page object, split into find, act and check.

use fantoccini::{Client, Locator, elements::Element};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// The create-task console in one browser tab.
pub struct Page {
    client: Client,
}

// find
impl Page {
    async fn find(&self, test_id: &str) -> Element {
        self.client
            .wait()
            .at_most(WAIT)
            .for_element(Locator::Css(&format!("[data-testid='{test_id}']")))
            .await
            .unwrap_or_else(|e| panic!("no element {test_id}: {e}"))
    }

    async fn text(&self, test_id: &str) -> String {
        self.find(test_id).await.text().await.unwrap_or_default()
    }

    /// Polls until `pred` holds for the element's text, then returns it.
    async fn text_until(&self, test_id: &str, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let text = self.text(test_id).await;
            if pred(&text) {
                return text;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{test_id} never showed {what:?}; it shows {text:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

// act
impl Page {
    /// Opens the console and waits for the catalog to load.
    pub async fn open(client: Client, base: &str) -> Page {
        client
            .goto(&format!("{base}/new"))
            .await
            .expect("the console loads");
        let page = Page { client };
        page.find("spec").await;
        page
    }

    /// Replaces the editor's text as a user would: select all, then type.
    pub async fn replace_spec(&self, text: &str) {
        let area = self.find("spec").await;
        area.clear().await.expect("the editor clears");
        area.send_keys(text).await.expect("the editor takes keys");
    }

    /// Clicks "Check on the server".
    pub async fn check_on_server(&self) {
        self.find("check-server")
            .await
            .click()
            .await
            .expect("the button clicks");
    }

    /// Clicks 中文.
    pub async fn switch_to_chinese(&self) {
        self.find("lang-zh")
            .await
            .click()
            .await
            .expect("the switch clicks");
    }

    /// Calls `window.wasmBindings.validateTask` in the page, as an embedding portal would,
    /// and returns the codes it reports.
    pub async fn validate_in_page(
        &self,
        spec: &str,
        catalog: &str,
        user: &str,
        usage: &str,
    ) -> Vec<String> {
        let script = "const [spec, catalog, user, usage] = Array.from(arguments, (a) => JSON.parse(a));
                      return window.wasmBindings.validateTask(spec, catalog, user, usage).issues.map(i => i.code);";
        let args = vec![spec.into(), catalog.into(), user.into(), usage.into()];
        let value = self
            .client
            .execute(script, args)
            .await
            .expect("the exported validator runs");
        serde_json::from_value(value).expect("a list of codes")
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
    pub async fn check_outcome_starts_with(&self, text: &str) {
        self.text_until("outcome", text, |t| t.starts_with(text))
            .await;
    }

    /// The plan's outcome mentions `text`.
    pub async fn check_outcome_contains(&self, text: &str) {
        self.text_until("outcome", text, |t| t.contains(text)).await;
    }

    /// The note under the editor mentions `text`.
    pub async fn check_server_note(&self, text: &str) {
        self.text_until("server-note", text, |t| t.contains(text))
            .await;
    }

    /// A finding with this code is shown at this path.
    pub async fn check_issue(&self, path: &str, code: &str) {
        let selector = format!("li.issue[data-path='{path}'][data-code='{code}']");
        self.client
            .wait()
            .at_most(WAIT)
            .for_element(Locator::Css(&selector))
            .await
            .unwrap_or_else(|e| panic!("no finding {code} at {path}: {e}"));
    }
}
