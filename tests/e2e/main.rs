//! User journeys in a real headless Chromium against the real server. One scenario per
//! journey; page objects are split into find, act and check.

mod console;
mod pages;
mod validator;

use berth_e2e::{browser, start_driver, start_server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_researcher_edits_a_spec_and_sees_the_rules_and_the_plan_live() {
    let server = start_server().await;
    let driver = start_driver();
    let client = browser(&driver, "en-US").await;
    let page = console::Page::open(client, &server).await;

    // The example loads valid and would start now.
    page.check_summary_contains("0 errors").await;
    page.check_outcome_starts_with("Starts now with a100-1g")
        .await;

    // Break one rule: the finding names the field, and submission is blocked.
    let mut spec: serde_json::Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    spec["environment"]["env"][0]["name"] = "KUBERNETES_PORT_X".into();
    page.replace_spec(&spec.to_string()).await;
    page.check_issue("environment.env[0].name", "env.name.reserved_prefix")
        .await;
    page.check_summary_contains("fix the errors").await;

    // Ask for more than the quota and capacity allow: the plan says why.
    spec["environment"]["env"][0]["name"] = "NCCL_DEBUG".into();
    spec["basic"]["cluster"] = "sh-b".into();
    spec["compute"]["specs"] = serde_json::json!(["l40s-1g"]);
    spec["compute"]["units_per_node"] = 2.into();
    spec["compute"]["workers"] = 3.into();
    page.replace_spec(&spec.to_string()).await;
    page.check_outcome_contains("free nodes can host 3 of 4 replicas at once")
        .await;

    // The server, re-checking with the same rules, agrees.
    page.check_on_server().await;
    page.check_server_note("The server agrees").await;

    // An edit after the check makes the answer stale, and the page says so.
    let mut broken = spec.clone();
    broken["compute"]["workers"] = "three".into();
    page.replace_spec(&broken.to_string()).await;
    page.check_server_note("Edited since the server check")
        .await;
    page.check_issue("compute.workers", "value.invalid").await;

    // The server answers a wrong shape with 422 and the same finding.
    page.check_on_server().await;
    page.check_server_note("The server agrees").await;
    page.replace_spec(&spec.to_string()).await;

    // 中文: the same findings in the seeds' wording.
    page.switch_to_chinese().await;
    page.check_outcome_contains("空闲节点只能同时容纳 4 个副本中的 3 个")
        .await;

    // Another portal embeds the rules: the exported validator answers like the crate.
    let catalog = serde_json::to_string(&shared::demo::catalog()).unwrap();
    let user = serde_json::to_string(&shared::demo::user()).unwrap();
    let usage = serde_json::to_string(&shared::demo::usage()).unwrap();
    let codes = page
        .validate_in_page(&spec.to_string(), &catalog, &user, &usage)
        .await;
    let expected = shared::demo::codes_for(&spec);
    let mut codes = codes;
    codes.sort();
    assert_eq!(codes, expected);
    assert!(codes.contains(&"compute.gang.will_queue".to_owned()));

    page.close().await;
}
