//! User journeys in a real headless Chromium against the real server. One scenario per
//! journey; the page object is split into find, act and check.

mod console;
mod embed;
mod pages;
mod validator;

use berth_e2e::{browser, browser_log, screenshot, start_driver, start_server};
use console::{Page, key};

/// What each replica runs: its place in the job from the injected environment, and a
/// mark on the volume the form mounted (the local backend runs it; no torchrun here).
const TRAIN: &str = "echo \"rank $RANK of $WORLD_SIZE, master $MASTER_ADDR:$MASTER_PORT\"; \
                     touch /volume/ckpt/rank-$RANK && echo \"$NCCL_DEBUG checkpoint written\"";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_researcher_creates_a_two_worker_pytorchjob_through_the_form() {
    let server = start_server().await;
    let driver = start_driver();
    let page = Page::open(browser(&driver, "en-US").await, &server).await;
    // Opening the form leaves nothing in the browser's console: no note of Chromium's
    // about how the page loads, no error of the console's.
    assert_eq!(browser_log(&page.client).await, Vec::<String>::new());

    page.fill("basic.name_prefix", "llama-ft").await;
    page.choose("environment.image.value", "pytorch-2.5").await;

    // A bad env var name is an error at its field, and clears once fixed.
    page.click("add-environment.env").await;
    page.fill("environment.env[0].name", "1BAD").await;
    page.check_finding_at("environment.env[0].name", "env.name.invalid")
        .await;
    page.check_invalid("environment.env[0].name").await;
    screenshot(&page.client, "form-pytorch-env-error").await;
    page.fill("environment.env[0].name", "NCCL_DEBUG").await;
    page.check_field_clean("environment.env[0].name").await;
    page.fill("environment.env[0].value", "WARN").await;

    page.click("add-environment.storage").await;
    page.choose("environment.storage[0].id", "vol-ckpt").await;
    page.fill("environment.storage[0].path", "/volume/ckpt")
        .await;
    page.fill("environment.command", TRAIN).await;

    page.choose("compute.kind", "on_demand").await;
    page.fill("compute.workers", "2").await;
    page.click("add-compute.specs").await;
    page.choose("compute.specs[0]", "a100-1g").await;
    page.check_outcome_starts_with("Starts now with A100 single card 单卡")
        .await;
    page.check_verdicts_contain("fits now on A100 single card 单卡")
        .await;
    screenshot(&page.client, "form-pytorch-fits-now").await;

    // Beyond the quota (32 GPUs on demand) and within what the empty pool holds (64 of
    // these replicas; more would be "can never fit"): the list's one spec is refused and
    // nothing starts; back to two workers.
    page.fill("compute.workers", "40").await;
    page.check_verdicts_contain("over quota by").await;
    page.check_verdicts_lack("skipped").await;
    page.check_outcome_starts_with("Cannot start").await;
    page.check_summary_contains("fix the errors").await;
    screenshot(&page.client, "form-pytorch-over-quota").await;
    page.fill("compute.workers", "2").await;
    page.check_outcome_starts_with("Starts now with A100 single card 单卡")
        .await;

    page.check_summary_contains("0 errors").await;
    page.open_preview().await;
    page.check_preview_contains("name_prefix: \"llama-ft\"")
        .await;
    // The objects the server will apply: a PyTorchJob with one master and one worker
    // entry for the second machine.
    page.render_manifests().await;
    page.check_manifests_contain("kind: \"PyTorchJob\"").await;
    page.check_manifests_contain("Worker:").await;
    screenshot(&page.client, "form-pytorch-manifests").await;
    berth_e2e::assert_accessible(&page.client, "form").await;
    page.check_submit_enabled().await;
    page.click("submit").await;
    let id = page.check_on_task_page().await;
    assert!(id.starts_with("llama-ft-"), "{id}");
    screenshot(&page.client, "form-pytorch-submitted").await;
    // The console reads no YAML itself: a PyTorchJob's journey never fetched the reader.
    assert!(!berth_e2e::fetched(&page.client, "berth_validator_yaml").await);

    // What the form built runs: the master and both workers, with the env var and the
    // volume it set.
    let pages = pages::Pages::of(page.client, &server);
    pages.check_phase("Succeeded").await;
    pages.click("log-reload").await;
    pages.check_log_contains("rank 0 of 3, master ").await;
    pages.check_log_contains("WARN checkpoint written").await;
    pages.pick_replica("2").await;
    pages.check_log_contains("rank 2 of 3, master ").await;
    pages.screenshot("form-pytorch-succeeded").await;
    pages.click("nav-list").await;
    pages.check_row(&id, "succeeded").await;

    // Cloned: the form again, with what was typed, and checked.
    pages.goto(&format!("/tasks/{id}")).await;
    let typed = [
        ("basic.name_prefix", "llama-ft"),
        ("environment.env[0].name", "NCCL_DEBUG"),
        ("compute.workers", "2"),
    ];
    pages.clone_it(&id, &typed, "form-pytorch-clone").await;
    // Submitted, the clone is a task whose page names the one it copies, after a
    // reload too.
    pages.click("submit").await;
    let clone = pages.next_task_page(&id).await;
    pages.goto(&format!("/tasks/{clone}")).await;
    pages.check_text("made-from", &id).await;
    // Nor anything since, the journey through: the form, the task's page and its logs,
    // the list and the clone.
    pages.check_console_quiet().await;
    pages.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_researcher_creates_a_rayjob_with_a_runtime_env_and_autoscaling() {
    let server = start_server().await;
    let driver = start_driver();
    let page = Page::open(browser(&driver, "en-US").await, &server).await;

    page.choose("basic.task_type", "ray_job").await;
    page.fill("basic.name_prefix", "ray-etl").await;
    page.choose("environment.image.value", "ray-2.40").await;
    page.fill(
        "environment.command",
        "echo \"entrypoint ran\" && ls /volume/out",
    )
    .await;
    page.click("add-environment.storage").await;
    page.choose("environment.storage[0].id", "vol-ckpt").await;
    page.fill("environment.storage[0].path", "/volume/out")
        .await;
    page.choose("compute.kind", "on_demand").await;
    page.fill("compute.workers", "1").await;
    page.click("add-compute.specs").await;
    page.choose("compute.specs[0]", "a100-1g").await;

    // A runtime env that is not YAML names the field; valid YAML clears it.
    // It says where, and names the bracket left open (read through the YAML module).
    page.fill("ray.runtime_env", "pip: [numpy").await;
    let said = page
        .check_finding_at("ray.runtime_env", "ray.runtime_env.invalid_yaml")
        .await;
    assert!(
        said.contains("(line 1, column 12)")
            && said.contains("inside the '[' of line 1, a ',' or ']' is expected here"),
        "{said}"
    );
    page.fill("ray.runtime_env", "pip:\n  - numpy\n").await;
    page.check_field_clean("ray.runtime_env").await;
    // Read by the YAML module the form fetched once the task became a RayJob.
    assert!(berth_e2e::fetched(&page.client, "/yaml/berth_validator_yaml").await);

    // Autoscaling counts its maximum: the plan follows.
    page.toggle("ray.autoscaling.enabled").await;
    page.fill("ray.autoscaling.max_workers", "3").await;
    page.check_outcome_contains("A100 single card 单卡").await;
    screenshot(&page.client, "form-ray-autoscaling").await;

    page.check_summary_contains("0 errors").await;
    page.check_submit_enabled().await;
    page.click("submit").await;
    let id = page.check_on_task_page().await;
    assert!(id.starts_with("ray-etl-"), "{id}");
    screenshot(&page.client, "form-ray-submitted").await;

    // Run to its end, its entrypoint's log read; then cloned with what was typed.
    let pages = pages::Pages::of(page.client, &server);
    pages.check_phase("Succeeded").await;
    pages.click("log-reload").await;
    pages.check_log_contains("entrypoint ran").await;
    pages.screenshot("form-ray-succeeded").await;
    let typed = [
        ("basic.name_prefix", "ray-etl"),
        ("ray.autoscaling.max_workers", "3"),
    ];
    pages.clone_it(&id, &typed, "form-ray-clone").await;
    pages.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_form_switches_language_and_keeps_the_draft_across_a_reload() {
    let server = start_server().await;
    let driver = start_driver();
    let page = Page::open(browser(&driver, "en-US").await, &server).await;

    page.check_label("basic.name_prefix", "Name prefix").await;
    page.fill("basic.name_prefix", "keep-me").await;
    page.fill("environment.command", "python keep.py").await;
    page.switch_language(true).await;
    page.check_label("basic.name_prefix", "名称前缀").await;
    page.check_summary_contains("个错误").await;
    screenshot(&page.client, "form-zh").await;

    page.reload().await;
    page.check_draft_restored().await;
    page.check_value("basic.name_prefix", "keep-me").await;
    page.check_value("environment.command", "python keep.py")
        .await;
    screenshot(&page.client, "form-draft-restored").await;
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keyboard_user_fills_reorders_and_submits_the_form() {
    let server = start_server().await;
    let driver = start_driver();
    let page = Page::open(browser(&driver, "en-US").await, &server).await;

    page.tab_to("basic.name_prefix").await;
    page.keys("kb-task").await;
    page.tab_to("environment.image.value").await;
    page.arrow_to("pytorch-2.5").await;
    page.tab_to("environment.command").await;
    page.keys("python train.py").await;
    page.tab_to("compute.kind").await;
    page.arrow_to("reserved").await;
    page.tab_to("compute.pool").await;
    page.arrow_to("sh-a-h100").await;

    // Two specs, added with Enter; the focus lands on each new row.
    page.tab_to_test_id("add-compute.specs").await;
    page.keys(key::ENTER).await;
    page.check_focus("compute.specs[0]").await;
    page.arrow_to("h100-1g").await;
    page.tab_to_test_id("add-compute.specs").await;
    page.keys(key::ENTER).await;
    page.check_focus("compute.specs[1]").await;
    page.arrow_to("h100-8g").await;

    // Alt+↑ moves the second spec first, and the focus follows it.
    page.keys(&format!("{}{}{}", key::ALT, key::UP, key::RELEASE))
        .await;
    page.check_focus("compute.specs[0]").await;
    page.check_value("compute.specs[0]", "h100-8g").await;
    page.check_value("compute.specs[1]", "h100-1g").await;
    // The plan names a spec as the spec list does, by its catalog name.
    page.check_outcome_contains("H100 whole node 整机").await;
    screenshot(&page.client, "form-keyboard").await;

    // At 200% zoom (640 × 400 CSS px) the plan stands below the fields: the Tab after the
    // last compute field brings it into view (keyboard explorer: nothing did).
    page.client
        .set_window_size(640, 400)
        .await
        .expect("the window resizes");
    page.tab_to("compute.units_per_node").await;
    page.keys(key::TAB).await;
    page.check_focus_on("plan").await;
    page.check_in_view("[data-testid='plan'] h2").await;
    screenshot(&page.client, "form-keyboard-zoomed-plan").await;
    page.client
        .set_window_size(1400, 1000)
        .await
        .expect("the window resizes");

    page.check_submit_enabled().await;
    page.tab_to_test_id("submit").await;
    page.keys(key::ENTER).await;
    let id = page.check_on_task_page().await;
    assert!(id.starts_with("kb-task-"), "{id}");
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_portal_checks_a_spec_with_the_exported_validator() {
    let server = start_server().await;
    let driver = start_driver();
    let page = Page::open(browser(&driver, "en-US").await, &server).await;
    let mut spec: serde_json::Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    spec["basic"]["cluster"] = "sh-b".into();
    spec["compute"]["specs"] = serde_json::json!(["l40s-1g"]);
    spec["compute"]["units_per_node"] = 2.into();
    spec["compute"]["workers"] = 3.into();
    let catalog = serde_json::to_string(&shared::demo::catalog()).unwrap();
    let user = serde_json::to_string(&shared::demo::user()).unwrap();
    let usage = serde_json::to_string(&shared::demo::usage()).unwrap();
    let mut codes = page
        .validate_in_page(&spec.to_string(), &catalog, &user, &usage)
        .await;
    codes.sort();
    assert_eq!(codes, shared::demo::codes_for(&spec));
    assert!(codes.contains(&"compute.gang.will_queue".to_owned()));
    // The console's own package carries the form, not the validator's JavaScript API:
    // portals load the package above.
    assert!(page.console_exports("mountTaskForm").await);
    assert!(!page.console_exports("validateTask").await);
    assert!(!page.console_exports("createValidator").await);
    assert!(!page.console_exports("useRuntimeEnvReader").await);
    page.close().await;
}

/// A spec imported as YAML is read by the YAML module the form fetches for it, and its
/// numbers reach the form as they were written: `1.5` refuses the import as no whole
/// number, as it does in JSON, and a whole `2.0e0` is 2.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_yaml_import_is_read_by_the_yaml_module_with_its_numbers_as_written() {
    let server = start_server().await;
    let driver = start_driver();
    let page = Page::open(browser(&driver, "en-US").await, &server).await;
    let yaml = |workers: &str| {
        format!(
            "version: 1\nbasic:\n  name_prefix: yaml-real\ncompute:\n  workers: {workers}\n  \
             units_per_node: 2.0e0\n"
        )
    };
    page.import(&yaml("1.5")).await;
    let said = page.check_import_note_contains("1.5").await;
    assert!(said.contains("whole number"), "{said}");
    assert!(berth_e2e::fetched(&page.client, "/yaml/berth_validator_yaml").await);
    page.import_again(&yaml("3")).await;
    page.check_import_note_contains("Imported").await;
    page.check_value("basic.name_prefix", "yaml-real").await;
    page.check_value("compute.workers", "3").await;
    page.check_value("compute.units_per_node", "2").await;
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_refusal_shows_at_the_fields_like_the_forms_own_findings() {
    let server = start_server().await;
    let driver = start_driver();
    let page = Page::open(browser(&driver, "en-US").await, &server).await;
    // Eight replicas of two A100s: half the demo user's on-demand A100 quota each.
    let mut spec: serde_json::Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    spec["compute"]["workers"] = 7.into();
    spec["environment"]["command"] = "sleep 60".into();
    let spec = spec.to_string();
    page.import(&spec).await;
    page.check_summary_contains("0 errors").await;

    // The same user spends the whole quota elsewhere; the form's usage is now stale.
    assert_eq!(
        page.submit_behind_the_form(&spec, "e2e-elsewhere-1").await,
        201
    );
    assert_eq!(
        page.submit_behind_the_form(&spec, "e2e-elsewhere-2").await,
        201
    );

    page.click("submit").await;
    page.check_submit_refused().await;
    page.check_finding_at("compute.specs[0]", "compute.quota.exceeded")
        .await;
    // Submit is disabled now: the focus is at the findings, each a way to its field,
    // not fallen to the page's body.
    page.check_focus_on("findings-summary").await;
    page.check_summary_contains("fix the errors").await;
    screenshot(&page.client, "form-server-refused").await;

    // Back in the window, the form asks again how much is in use: its own plan then
    // says what the server said.
    page.client
        .execute("window.dispatchEvent(new Event('focus'))", vec![])
        .await
        .expect("the script runs");
    page.check_verdicts_contain("over quota").await;
    page.check_outcome_starts_with("Cannot start").await;
    page.close().await;
}
