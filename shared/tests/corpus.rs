//! Runs the shared corpus (`tests/corpus/`): natively with `cargo test`, and in headless
//! Chromium with `cargo test --target wasm32-unknown-unknown`, where it must give the
//! same answers.

use shared::IssueCode;
use shared::demo::{codes_for, corpus};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_case_gives_exactly_its_codes() {
    let mut failures = Vec::new();
    for case in corpus() {
        let got = codes_for(&case.spec);
        if got != case.codes {
            failures.push(format!(
                "{}: {}\n  expected {:?}\n  got      {:?}",
                case.file, case.name, case.codes, got
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

/// Codes the demo catalog cannot trigger; each has a unit test in the crate instead.
const TRIGGERED_ELSEWHERE: [&str; 1] = ["compute.demand.overflow"];

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_code_is_triggered_by_some_case() {
    let cases = corpus();
    let missing: Vec<&str> = IssueCode::ALL
        .iter()
        .copied()
        .filter(|code| !TRIGGERED_ELSEWHERE.contains(code))
        .filter(|code| !cases.iter().any(|c| c.codes.iter().any(|k| k == code)))
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
            cases.iter().any(|c| c.file == file && c.codes.is_empty()),
            "{file} has no passing case"
        );
    }
}
