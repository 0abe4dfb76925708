//! Runs the shared corpus (`tests/corpus/`): natively with `cargo test`, and in headless
//! Chromium with `cargo test --target wasm32-unknown-unknown`, where it must give the
//! same answers.

use shared::IssueCode;
use shared::demo::{corpus, findings_for};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_case_gives_exactly_its_findings() {
    let mut failures = Vec::new();
    for case in corpus() {
        let got = findings_for(&case.spec);
        if got != case.findings {
            failures.push(format!(
                "{}: {}\n  expected {:?}\n  got      {:?}",
                case.file, case.name, case.findings, got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} corpus case(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Codes the demo catalog cannot trigger, or a build with the YAML reader cannot; each
/// has a test of its own instead (`ray.runtime_env.unread`: tests/runtime_env_reader.rs).
const TRIGGERED_ELSEWHERE: [&str; 2] = ["compute.demand.overflow", "ray.runtime_env.unread"];

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_code_is_triggered_by_some_case() {
    let cases = corpus();
    let missing: Vec<&str> = IssueCode::ALL
        .iter()
        .copied()
        .filter(|code| !TRIGGERED_ELSEWHERE.contains(code))
        .filter(|code| {
            !cases
                .iter()
                .any(|c| c.findings.iter().any(|(_, k)| k == code))
        })
        .collect();
    assert!(missing.is_empty(), "no corpus case triggers {missing:?}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn passing_cases_exist_for_every_section() {
    let cases = corpus();
    for file in [
        "basic",
        "environment",
        "mounts",
        "compute",
        "advanced",
        "ray",
    ] {
        assert!(
            cases
                .iter()
                .any(|c| c.file == file && c.findings.is_empty()),
            "{file} has no passing case"
        );
    }
}

/// Every finding (path, code, severity) and the plan, per case: what both builds must give.
fn outcomes() -> serde_json::Value {
    let catalog = shared::demo::catalog();
    let user = shared::demo::user();
    let usage = shared::demo::usage();
    let rows: Vec<serde_json::Value> = corpus()
        .into_iter()
        .map(|case| {
            let check = shared::check_json(&case.spec.to_string(), &catalog, &usage, &user);
            let issues: Vec<String> = check
                .issues
                .issues()
                .iter()
                .map(|i| format!("{} {} {}", i.path, i.code.code(), i.severity.as_str()))
                .collect();
            serde_json::json!({ "case": format!("{}: {}", case.file, case.name), "issues": issues, "plan": check.plan })
        })
        .collect();
    serde_json::Value::Array(rows)
}

const GOLDEN: &str = include_str!("../../tests/corpus/outcomes.golden.json");

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn findings_and_plans_match_the_golden_file() {
    let got = outcomes();
    #[cfg(not(target_arch = "wasm32"))]
    if std::env::var_os("BERTH_BLESS").is_some() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/corpus/outcomes.golden.json"
        );
        std::fs::write(
            path,
            serde_json::to_string_pretty(&got).expect("serialises") + "\n",
        )
        .expect("golden file is writable");
        return;
    }
    let golden: serde_json::Value = serde_json::from_str(GOLDEN).expect("the golden file is JSON");
    let (got, golden) = (
        got.as_array().expect("rows"),
        golden.as_array().expect("rows"),
    );
    assert_eq!(
        got.len(),
        golden.len(),
        "case count differs; rerun natively with BERTH_BLESS=1 after reviewing the change"
    );
    for (g, want) in got.iter().zip(golden) {
        assert_eq!(
            g, want,
            "rerun natively with BERTH_BLESS=1 once the difference is intended"
        );
    }
}
