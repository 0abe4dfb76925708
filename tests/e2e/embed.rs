//! The example portal `public/embed.html`: the create form mounted by `mountTaskForm`
//! from the console's package, and the validator package, without the console.

use berth_e2e::{
    browser, dist, screenshot, start_driver, start_portal_and_berth, start_server, start_server_of,
};
use fantoccini::elements::Element;
use fantoccini::{Client, Locator};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// The element `css` matches, once the page has it.
async fn find(client: &Client, css: &str) -> Element {
    client
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no element {css}: {e}"))
}

/// Presses the portal's form's Submit, once it is on.
async fn submit(client: &Client) {
    find(
        client,
        "#task-form [data-testid='submit']:not([disabled]):not([aria-disabled='true'])",
    )
    .await
    .click()
    .await
    .expect("the form submits");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_portal_mounts_the_form_and_the_validator_without_the_console() {
    let server = start_server().await;
    let driver = start_driver();
    let client = browser(&driver, "en-US").await;
    client
        .goto(&format!("{server}/embed.html?lang=zh-CN"))
        .await
        .expect("the portal page loads");
    find(&client, "body[data-ready='true']").await;

    // The form is inside the portal's element, addressed by field path; none of the
    // console's own page (top bar, routes) came with it.
    let prefix = find(&client, "#task-form [name='basic.name_prefix']").await;
    assert!(
        client
            .find_all(Locator::Css("header.topbar"))
            .await
            .expect("a query")
            .is_empty(),
        "the console's top bar is not part of the widget"
    );

    // The form's stylesheet styles the form only: the portal's own label and textarea
    // beside it keep the portal's look (berth.css made every label a bold block and
    // every textarea 70vh tall, and gave the page Berth's background). Asked once the
    // form's sheet has loaded: the form is a flex column by it.
    let deadline = std::time::Instant::now() + WAIT;
    while client
        .execute(
            "return getComputedStyle(document.querySelector('#task-form form')).display;",
            vec![],
        )
        .await
        .expect("the script runs")
        != "flex"
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the form's stylesheet did not load"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let outside = client
        .execute(
            "const look = (css) => getComputedStyle(document.querySelector(css)); \
             return [look('label[for=spec]').display, look('label[for=spec]').fontWeight, \
             look('#spec').minHeight, look('html').backgroundColor];",
            vec![],
        )
        .await
        .expect("the script runs");
    assert_eq!(
        outside,
        serde_json::json!(["inline", "400", "0px", "rgba(0, 0, 0, 0)"]),
        "the portal's label, textarea and page as the portal styles them"
    );

    // The widget speaks the locale it was given: the same label text as the catalog.
    let label = find(&client, "#task-form label[for]")
        .await
        .text()
        .await
        .unwrap_or_default();
    assert!(
        label
            .chars()
            .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
        "zh-CN labels, not {label:?}"
    );

    // The locale is the widget's own: the portal's storage and `<html lang>` stay as
    // the portal had them, and the widget's element says its language.
    let langs = client
        .execute(
            "return [localStorage.getItem('berth.lang'), document.documentElement.lang, \
             document.getElementById('task-form').lang]",
            vec![],
        )
        .await
        .expect("the script runs");
    assert_eq!(langs, serde_json::json!([null, "en", "zh-CN"]));

    // A bad value is flagged at its control, as in the console.
    prefix.clear().await.expect("the prefix clears");
    prefix
        .send_keys("Bad Name!")
        .await
        .expect("the prefix takes keys");
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let invalid = prefix.attr("aria-invalid").await.ok().flatten();
        if invalid.as_deref() == Some("true") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the bad prefix is not flagged (aria-invalid {invalid:?})"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // The validator package checks the portal's own spec (the RayJob example) with the
    // same rules: the count the crate gives.
    let spec: serde_json::Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).unwrap();
    let expected = shared::check_json(
        &spec.to_string(),
        &shared::demo::catalog(),
        &shared::demo::usage(),
        &shared::demo::user(),
    )
    .issues
    .issues()
    .len();
    let count = find(&client, "[data-testid='verdict']")
        .await
        .attr("data-count")
        .await
        .ok()
        .flatten();
    assert_eq!(count, Some(expected.to_string()));
    screenshot(&client, "embed-form-and-validator").await;
    client.close().await.expect("the session closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_portal_on_another_site_loads_the_form_from_berth_and_submits_through_it() {
    // Two origins: the portal's page, and Berth, which lists the portal in `[cors] origins`.
    let (portal, berth) = start_portal_and_berth().await;
    let driver = start_driver();
    let client = browser(&driver, "en-US").await;
    // The packages, the catalog and the submit all come from Berth's site, its address
    // given with the trailing slash it is often copied with.
    client
        .goto(&format!("{portal}/embed.html?api={berth}/"))
        .await
        .expect("the portal page loads");
    find(&client, "body[data-ready='true']").await;
    find(&client, "#task-form [name='basic.name_prefix']").await;

    // A spec pasted into the form's import box, then the form's own submit button.
    let mut spec: serde_json::Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    spec["basic"]["name_prefix"] = "from-the-portal".into();
    spec["environment"]["command"] = "echo embedded".into();
    find(&client, "#task-form .transfer details:last-of-type summary")
        .await
        .click()
        .await
        .expect("the import box opens");
    find(&client, "#task-form [data-testid='import-text']")
        .await
        .send_keys(&spec.to_string())
        .await
        .expect("the box takes the spec");
    find(&client, "#task-form [data-testid='import']")
        .await
        .click()
        .await
        .expect("the import runs");
    submit(&client).await;

    // onSubmit got Berth's answer: the created task, named after the prefix.
    let deadline = std::time::Instant::now() + WAIT;
    let id = loop {
        let id = find(&client, "[data-testid='submitted']")
            .await
            .text()
            .await
            .unwrap_or_default();
        if !id.is_empty() {
            break id;
        }
        if let Ok(error) = client
            .find(Locator::Css("#task-form [data-testid='submit-error']"))
            .await
        {
            panic!(
                "the submit failed: {}",
                error.text().await.unwrap_or_default()
            );
        }
        assert!(
            std::time::Instant::now() < deadline,
            "onSubmit was not called"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(id.starts_with("from-the-portal-"), "{id}");
    // The form itself says so: it stays where it is, with the spec it sent.
    let said = find(&client, "#task-form [data-testid='form-submitted']")
        .await
        .text()
        .await
        .unwrap_or_default();
    assert!(said.contains(&id), "{said}");
    // The task named is a link to its page on Berth's site, not the portal's.
    let href = find(&client, "#task-form [data-testid='form-submitted'] a")
        .await
        .attr("href")
        .await
        .ok()
        .flatten();
    assert_eq!(href, Some(format!("{berth}/tasks/{id}")));
    // Submit was disabled while it was out: the focus is on the line, not the page.
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let focused = client
            .execute(
                "return document.activeElement && document.activeElement.dataset.testid;",
                vec![],
            )
            .await
            .expect("the script runs");
        if focused.as_str() == Some("form-submitted") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the focus is on {focused}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    screenshot(&client, "embed-other-site-submitted").await;

    // Submitted again unchanged, the spec carries the same key and the server answers
    // with the same task: the form says it was made before, and onSubmit, called once a
    // task, is not called again (a portal counting submissions counted it at each press).
    client
        .execute(
            "document.getElementById('submitted').textContent = '';",
            vec![],
        )
        .await
        .expect("the script runs");
    submit(&client).await;
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let said = find(&client, "#task-form [data-testid='form-submitted']")
            .await
            .text()
            .await
            .unwrap_or_default();
        if said.starts_with("Already submitted") {
            assert!(said.contains(&id), "{said}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the form says {said}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let called = find(&client, "[data-testid='submitted']")
        .await
        .text()
        .await
        .unwrap_or_default();
    assert_eq!(called, "", "onSubmit called again");
    client.close().await.expect("the session closes");
}

/// The packages' TypeScript declarations, as a portal's editor reads them: the form's
/// element and options typed (they were `any`, a misspelt option found only when the
/// promise was refused), and each validator build saying how it reads runtime envs.
#[test]
fn the_packages_declarations_type_the_form_and_say_how_runtime_envs_are_read() {
    let read = |path: &str| {
        std::fs::read_to_string(dist().join(path))
            .unwrap_or_else(|e| panic!("{path}: {e} (scripts/test.sh builds dist/)"))
    };
    let console = read("berth-frontend.d.ts");
    for declared in [
        "export function mountTaskForm(element: HTMLElement, options?: MountOptions): Promise<FormHandle>;",
        "export function unmountTaskForm(element: HTMLElement): void;",
        "export interface MountOptions {",
        "apiBase?: string;",
        "locale?: string;",
        "catalog?: object;",
        "onSubmit?: (task: any) => void;",
    ] {
        assert!(console.contains(declared), "{declared} in:\n{console}");
    }
    let unread = "Without it a runtime env is the error `ray.runtime_env.unread`.";
    let inside = "Not needed in this build (`full/`), which reads runtime envs itself";
    let two_modules = read("validator/berth_validator.d.ts");
    for declared in [
        "export interface Issue {",
        "severity: \"error\" | \"warning\" | \"info\";",
        "export interface CheckResult {",
        "): CheckResult;",
        "): Plan | null;",
    ] {
        assert!(
            two_modules.contains(declared),
            "{declared} in:\n{two_modules}"
        );
    }
    assert!(two_modules.contains(unread), "{two_modules}");
    assert!(!two_modules.contains(inside), "{two_modules}");
    let full = read("validator/full/berth_validator.d.ts");
    assert!(full.contains(inside), "{full}");
    assert!(!full.contains(unread), "{full}");
}

/// A copy of `from` in a fresh folder, every file and folder.
fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("the temp folder is writable");
    for entry in std::fs::read_dir(from).expect("the console's folder reads") {
        let entry = entry.expect("an entry");
        let path = entry.path();
        if path.is_dir() {
            copy_tree(&path, &to.join(entry.file_name()));
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).expect("a file copies");
        }
    }
}

/// The page says "Loading Berth…" until the console starts, and, when the console's wasm
/// cannot load (a download broken off), that it could not load and what to do, in the
/// reader's language; a console that starts takes the line away (slow-link explorer: a
/// blank page, for good, the reason only in the browser's console).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_console_that_cannot_load_says_so() {
    let broken = std::env::temp_dir().join(format!("berth-e2e-broken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&broken);
    copy_tree(&dist(), &broken);
    let wasm = broken.join("berth-frontend_bg.wasm");
    let bytes = std::fs::read(&wasm).expect("the console's wasm reads");
    std::fs::write(&wasm, &bytes[..200_000]).expect("the copy is writable");
    for compressed in ["berth-frontend_bg.wasm.br", "berth-frontend_bg.wasm.gz"] {
        let _ = std::fs::remove_file(broken.join(compressed));
    }
    let server = start_server_of(broken.clone()).await;
    let driver = start_driver();
    let client = browser(&driver, "zh-CN").await;
    client
        .goto(&format!("{server}/new"))
        .await
        .expect("the page loads");
    let said = find(&client, "#berth-loading[role='alert']")
        .await
        .text()
        .await
        .expect("its text");
    assert_eq!(
        said,
        "Berth 未能加载：下载中断或服务器不可用。请检查网络，然后重新加载页面。"
    );
    screenshot(&client, "console-cannot-load").await;
    client.close().await.expect("the browser closes");
    let _ = std::fs::remove_dir_all(&broken);

    let server = start_server().await;
    let client = browser(&driver, "en-US").await;
    client
        .goto(&format!("{server}/new"))
        .await
        .expect("the page loads");
    find(&client, "[name='basic.name_prefix']").await;
    assert!(
        client
            .find_all(Locator::Css("#berth-loading"))
            .await
            .expect("a query")
            .is_empty(),
        "the loading line is gone once the console runs"
    );
    client.close().await.expect("the browser closes");
}
