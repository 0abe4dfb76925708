//! The example portal page (`public/validator.html`): only the validator package, no
//! console. Its page object, split into find, act and check, and its journey.

use berth_e2e::{assert_accessible, browser, screenshot, start_driver, start_server};
use fantoccini::{Client, Locator};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// The example page in one browser tab.
struct Page {
    client: Client,
}

// find
impl Page {
    async fn find(&self, css: &str) -> fantoccini::elements::Element {
        self.client
            .wait()
            .at_most(WAIT)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
    }

    /// `(path, code, message)` of every finding the page lists now.
    async fn findings(&self) -> Vec<(String, String, String)> {
        let mut found = Vec::new();
        for li in self
            .client
            .find_all(Locator::Css("[data-testid='finding']"))
            .await
            .expect("the findings list")
        {
            let attr = |name: &'static str| {
                let li = li.clone();
                async move { li.attr(name).await.ok().flatten().unwrap_or_default() }
            };
            let path = attr("data-path").await;
            let code = attr("data-code").await;
            let text = li.text().await.unwrap_or_default();
            // The text is the path, a space, then the message.
            let message = text
                .strip_prefix(path.as_str())
                .unwrap_or(&text)
                .trim()
                .to_owned();
            found.push((path, code, message));
        }
        found
    }
}

// act
impl Page {
    /// Opens the page and waits until the package has loaded and checked the example.
    async fn open(client: Client, base: &str) -> Page {
        client
            .goto(&format!("{base}/validator.html"))
            .await
            .expect("the example page loads");
        let page = Page { client };
        page.find("body[data-ready='true']").await;
        page
    }

    /// Replaces the spec's text as a user would: clear, then type.
    async fn replace_spec(&self, text: &str) {
        let area = self.find("[data-testid='spec']").await;
        area.clear().await.expect("the spec clears");
        area.send_keys(text).await.expect("the spec takes keys");
    }

    async fn choose_language(&self, tag: &str) {
        self.find("[data-testid='lang']")
            .await
            .select_by_value(tag)
            .await
            .expect("the language is chosen");
    }

    async fn close(self) {
        self.client.close().await.expect("the session closes");
    }
}

// check
impl Page {
    /// Waits until the page lists exactly `expected` as `(path, code, message)`, in any order.
    async fn check_findings(&self, expected: &[(String, String, String)]) {
        let mut expected = expected.to_vec();
        expected.sort();
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let mut found = self.findings().await;
            found.sort();
            if found == expected {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the page lists {found:?}, not {expected:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn check_plan_contains(&self, what: &str) {
        let text = self
            .find("[data-testid='plan']")
            .await
            .text()
            .await
            .unwrap_or_default();
        assert!(text.contains(what), "the plan shows {text:?}, not {what:?}");
    }
}

/// What the crate finds for `spec` on the demo catalog, as `(path, code, message)`.
fn crate_findings(spec: &serde_json::Value, lang: shared::Lang) -> Vec<(String, String, String)> {
    shared::check_json(
        &spec.to_string(),
        &shared::demo::catalog(),
        &shared::demo::usage(),
        &shared::demo::user(),
    )
    .localized(lang)
    .issues
    .into_iter()
    .map(|i| (i.path.to_string(), i.code.code().to_owned(), i.message))
    .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_portal_embeds_the_validator_alone_and_sees_a_finding_for_a_bad_field() {
    let server = start_server().await;
    let driver = start_driver();
    let client = browser(&driver, "en-US").await;
    let page = Page::open(client, &server).await;

    // The server's example, checked against the catalog the page fetched: it passes
    // and starts now.
    let mut spec: serde_json::Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    page.check_findings(&crate_findings(&spec, shared::Lang::En))
        .await;
    page.check_plan_contains("\"now\"").await;
    // Its two controls are named for a screen reader (exploratory test, round 11: axe
    // found both unnamed, critical).
    assert_accessible(&page.client, "example portal").await;

    // A bad field: the finding names it, with the crate's message.
    spec["compute"]["workers"] = "three".into();
    page.replace_spec(&spec.to_string()).await;
    let expected = crate_findings(&spec, shared::Lang::En);
    assert_eq!(expected.len(), 1, "{expected:?}");
    assert_eq!(expected[0].0, "compute.workers");
    assert_eq!(expected[0].1, "value.invalid");
    page.check_findings(&expected).await;
    screenshot(&page.client, "validator-bad-field").await;

    // 中文: the same finding in the seeds' wording.
    page.choose_language("zh-CN").await;
    page.check_findings(&crate_findings(&spec, shared::Lang::Zh))
        .await;

    // A rule rather than a shape: the plan is back, and the finding moves.
    spec["compute"]["workers"] = 1.into();
    spec["environment"]["env"][0]["name"] = "KUBERNETES_PORT_X".into();
    page.replace_spec(&spec.to_string()).await;
    let expected = crate_findings(&spec, shared::Lang::Zh);
    assert!(
        expected
            .iter()
            .any(|(p, c, _)| p == "environment.env[0].name" && c == "env.name.reserved_prefix"),
        "{expected:?}"
    );
    page.check_findings(&expected).await;
    page.check_plan_contains("\"now\"").await;
    // No spec so far had a runtime env: the YAML module was not fetched.
    assert!(!berth_e2e::fetched(&page.client, "berth_validator_yaml").await);

    // A RayJob whose runtime env breaks Ray's rules: the page fetches the package's
    // YAML module when the check asks for it, and then lists what the crate finds,
    // runtime env and all.
    let mut spec: serde_json::Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).unwrap();
    spec["ray"]["runtime_env"] =
        "pip: [torch]\nconda: {dependencies: [numpy]}\nenv_vars:\n  1BAD: x\n  FLAG: yes\ncolour: red\n"
            .into();
    page.replace_spec(&spec.to_string()).await;
    let expected = crate_findings(&spec, shared::Lang::Zh);
    let codes: Vec<&str> = expected.iter().map(|(_, c, _)| c.as_str()).collect();
    for code in [
        "ray.runtime_env.pip_and_conda",
        "ray.runtime_env.env_vars",
        "ray.runtime_env.unknown_key",
        "env.name.invalid",
    ] {
        assert!(codes.contains(&code), "{code} not in {expected:?}");
    }
    page.check_findings(&expected).await;
    assert!(berth_e2e::fetched(&page.client, "berth_validator_yaml").await);
    screenshot(&page.client, "validator-ray-runtime-env").await;

    page.close().await;
}
