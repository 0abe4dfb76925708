//! The package as a portal calls it, in headless Chromium: plain JS values in and out,
//! checked against the shared corpus (`tests/corpus/`) so it cannot drift from the
//! server, which answers the same corpus in its own tests.
#![cfg(target_arch = "wasm32")]

use berth_validator::{Validator, create_validator, plan_task, validate_task};
use shared::demo::corpus;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// A JS value as `JSON.parse` makes it, which is what portals hold.
fn js(value: &impl serde::Serialize) -> JsValue {
    js_sys::JSON::parse(&serde_json::to_string(value).unwrap()).unwrap()
}

fn rust(value: &JsValue) -> serde_json::Value {
    let text: String = js_sys::JSON::stringify(value).unwrap().into();
    serde_json::from_str(&text).unwrap()
}

fn demo_validator() -> Validator {
    create_validator(
        &js(&shared::demo::catalog()),
        &js(&shared::demo::user()),
        &js(&shared::demo::usage()),
    )
    .unwrap()
}

/// `(path, code)` of every finding of a `check` answer, sorted as the corpus keeps them.
fn findings(answer: &serde_json::Value) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = answer["issues"]
        .as_array()
        .expect("issues is a list")
        .iter()
        .map(|i| {
            (
                i["path"].as_str().unwrap().to_owned(),
                i["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    found.sort();
    found
}

#[wasm_bindgen_test]
fn every_corpus_case_gives_exactly_its_findings_from_text_and_from_an_object() {
    let validator = demo_validator();
    let mut failures = Vec::new();
    for case in corpus() {
        let text = case.spec.to_string();
        for (route, spec) in [
            ("text", JsValue::from_str(&text)),
            ("object", js(&case.spec)),
        ] {
            let answer = rust(&validator.check(&spec, JsValue::UNDEFINED).unwrap());
            let got = findings(&answer);
            if got != case.findings {
                failures.push(format!(
                    "{} ({route}): {}\n  expected {:?}\n  got      {:?}",
                    case.file, case.name, case.findings, got
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} corpus check(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[wasm_bindgen_test]
fn an_answer_is_the_crates_localized_check_in_either_language() {
    let validator = demo_validator();
    for case in corpus().into_iter().step_by(7) {
        let text = case.spec.to_string();
        let check = shared::check_json(
            &text,
            &shared::demo::catalog(),
            &shared::demo::usage(),
            &shared::demo::user(),
        );
        for (tag, lang) in [("en", shared::Lang::En), ("zh-CN", shared::Lang::Zh)] {
            let answer = validator
                .check(&JsValue::from_str(&text), JsValue::from_str(tag))
                .unwrap();
            let expected = serde_json::to_value(check.clone().localized(lang)).unwrap();
            assert_eq!(rust(&answer), expected, "{} in {tag}", case.name);
        }
    }
}

#[wasm_bindgen_test]
fn messages_follow_the_language_asked_for() {
    let validator = demo_validator();
    let spec = JsValue::from_str(r#"{"compute": {"workers": "two"}}"#);
    let zh = rust(&validator.check(&spec, JsValue::from_str("zh-CN")).unwrap());
    assert_eq!(
        zh["issues"][0]["message"],
        "格式不正确：应为非负整数，实际为文本 \"two\""
    );
    assert_eq!(zh["plan"], serde_json::Value::Null);
    // Another language's tag reads English, as the API answers it (portal explorer: a
    // portal passing `navigator.language` broke for a `de-DE` browser).
    for other in ["de-DE", "fr", ""] {
        let answer = rust(&validator.check(&spec, JsValue::from_str(other)).unwrap());
        assert!(
            answer["issues"][0]["message"]
                .as_str()
                .unwrap()
                .starts_with("is not valid"),
            "{other}: {answer}"
        );
    }
    // A lang that is no string is refused, not named: a spec passed for the lang put
    // its hidden values in the error.
    let secret = js(&shared::demo::pytorch());
    for given in [JsValue::from_f64(5.0), JsValue::TRUE, secret] {
        let err = validator.check(&spec, given).unwrap_err();
        assert_eq!(
            err.as_string().unwrap(),
            "lang must be a string, such as \"en\" or \"zh-CN\""
        );
    }
    // `null` is no lang asked, as `undefined` is: English.
    let en = rust(&validator.check(&spec, JsValue::NULL).unwrap());
    assert!(
        en["issues"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("is not valid")
    );
}

#[wasm_bindgen_test]
fn set_usage_moves_the_plan_and_nothing_else() {
    let mut validator = create_validator(
        &js(&shared::demo::catalog()),
        &js(&shared::demo::user()),
        &JsValue::UNDEFINED,
    )
    .unwrap();
    let spec = JsValue::from_str(shared::demo::PYTORCH_EXAMPLE);
    let expected = |usage: &shared::Usage| {
        serde_json::to_value(
            shared::check_json(
                shared::demo::PYTORCH_EXAMPLE,
                &shared::demo::catalog(),
                usage,
                &shared::demo::user(),
            )
            .localized(shared::Lang::En),
        )
        .unwrap()
    };
    let idle = rust(&validator.check(&spec, JsValue::UNDEFINED).unwrap());
    assert_eq!(idle, expected(&shared::Usage::new()));
    validator.set_usage(&js(&shared::demo::usage())).unwrap();
    let busy = rust(&validator.check(&spec, JsValue::UNDEFINED).unwrap());
    assert_eq!(busy, expected(&shared::demo::usage()));
    assert_ne!(idle["plan"], busy["plan"]);

    // A usage it cannot read is refused and the one before stays.
    let err = validator.set_usage(&JsValue::from_str("busy")).unwrap_err();
    assert!(err.as_string().unwrap().contains("usage"), "{err:?}");
    assert_eq!(
        rust(&validator.check(&spec, JsValue::UNDEFINED).unwrap()),
        busy
    );
}

#[wasm_bindgen_test]
fn the_one_shot_calls_answer_as_a_validator_does() {
    let validator = demo_validator();
    let mut spec: serde_json::Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).unwrap();
    spec["ray"]["runtime_env"] = "- not a mapping".into();
    let once = validate_task(
        js(&spec),
        js(&shared::demo::catalog()),
        js(&shared::demo::user()),
        js(&shared::demo::usage()),
        JsValue::from_str("zh-CN"),
    )
    .unwrap();
    let kept = validator
        .check(&js(&spec), JsValue::from_str("zh-CN"))
        .unwrap();
    assert_eq!(rust(&once), rust(&kept));
    assert_eq!(
        rust(&once)["issues"][0]["code"],
        "ray.runtime_env.not_mapping"
    );

    let plan = plan_task(
        JsValue::from_str(shared::demo::PYTORCH_EXAMPLE),
        js(&shared::demo::catalog()),
        js(&shared::demo::user()),
        js(&shared::demo::usage()),
    )
    .unwrap();
    assert_eq!(rust(&plan)["outcome"]["outcome"], "now");
    assert_eq!(
        rust(&plan),
        rust(
            &validator
                .plan(&JsValue::from_str(shared::demo::PYTORCH_EXAMPLE))
                .unwrap()
        )
    );
}

#[wasm_bindgen_test]
fn what_is_not_a_plain_object_is_refused_with_its_name() {
    let user = js(&shared::demo::user());
    // A JS Map is not a plain object: refusing beats checking against an empty catalog.
    let map = js_sys::Map::new();
    map.set(&"regions".into(), &js_sys::Array::new());
    let err = create_validator(&map.into(), &user, &JsValue::UNDEFINED)
        .err()
        .unwrap();
    assert!(err.as_string().unwrap().contains("catalog"), "{err:?}");

    // An empty object reads as a catalog or a user (every field has a default), and
    // would have every spec refused for its region or its group: refused here instead.
    let empty = js_sys::Object::new();
    let catalog = js(&shared::demo::catalog());
    let err = create_validator(&empty, &user, &JsValue::UNDEFINED)
        .err()
        .unwrap();
    assert!(
        err.as_string()
            .unwrap()
            .starts_with("catalog has no regions"),
        "{err:?}"
    );
    let err = create_validator(&catalog, &empty, &JsValue::UNDEFINED)
        .err()
        .unwrap();
    assert!(
        err.as_string().unwrap().starts_with("user has no name"),
        "{err:?}"
    );
    // The whole catalog answer, which the form's mountTaskForm takes, is named as the
    // mix-up it is (portal explorer: "unknown field `user`", and no more).
    let answer = js(&serde_json::json!({
        "user": shared::demo::user(),
        "catalog": shared::demo::catalog(),
    }));
    let err = create_validator(&answer, &user, &JsValue::UNDEFINED)
        .err()
        .unwrap()
        .as_string()
        .unwrap();
    assert!(
        err.starts_with("catalog is not valid: unknown field `")
            && err.ends_with("; is it the `catalog` of GET /api/v1/catalog, not the whole answer?"),
        "{err}"
    );
    // The catalog answer whole, where its `catalog` belongs: its fields are not a
    // catalog's, and the refusal names the first.
    let whole = js(&serde_json::json!({ "catalog": shared::demo::catalog() }));
    let err = create_validator(&whole, &user, &JsValue::UNDEFINED)
        .err()
        .unwrap();
    assert!(
        err.as_string().unwrap().contains("unknown field `catalog`"),
        "{err:?}"
    );
    // A reader that is no function is refused when it is handed over, not found out as
    // every runtime env said to be unread.
    let err = berth_validator::use_runtime_env_reader_js("readRuntimeEnv".into()).unwrap_err();
    assert!(
        err.as_string()
            .unwrap()
            .starts_with("useRuntimeEnvReader takes a function"),
        "{err:?}"
    );

    let validator = demo_validator();
    let err = validator
        .check(&js_sys::Array::new().into(), JsValue::UNDEFINED)
        .unwrap_err();
    assert!(err.as_string().unwrap().contains("spec"), "{err:?}");
    let err = validator
        .check(&JsValue::from_f64(3.0), JsValue::UNDEFINED)
        .unwrap_err();
    assert!(err.as_string().unwrap().contains("spec"), "{err:?}");
}

/// The YAML module's `readRuntimeEnv`, as a JS function: this test build reads YAML
/// itself (`shared` with `demo`), so the module's one export is at hand here.
fn yaml_module_reader() -> js_sys::Function {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;
    Closure::<dyn Fn(String) -> String>::new(|text: String| {
        shared::validate::read_runtime_env(&text)
    })
    .into_js_value()
    .unchecked_into()
}

#[wasm_bindgen_test]
fn runtime_envs_read_through_the_reader_a_portal_hands_over() {
    let validator = demo_validator();
    // A reader that throws: the runtime env is an error, never passed unread.
    berth_validator::use_runtime_env_reader(js_sys::Function::new_with_args(
        "text",
        "throw new Error('the YAML module failed to load')",
    ));
    let mut spec: serde_json::Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).unwrap();
    let answer = rust(&validator.check(&js(&spec), JsValue::UNDEFINED).unwrap());
    assert_eq!(
        findings(&answer),
        [(
            "ray.runtime_env".to_owned(),
            "ray.runtime_env.unread".to_owned()
        )]
    );
    // The YAML module's reader: every runtime-env case of the corpus as the crate finds
    // it, across the boundary both ways. (Left set: the other tests' answers through it
    // are the same, which the corpus test above also holds.)
    berth_validator::use_runtime_env_reader(yaml_module_reader());
    let mut cases = 0;
    for case in corpus() {
        if case.spec["ray"]["runtime_env"].is_string() {
            cases += 1;
            let answer = rust(
                &validator
                    .check(&js(&case.spec), JsValue::UNDEFINED)
                    .unwrap(),
            );
            assert_eq!(findings(&answer), case.findings, "{}", case.name);
        }
    }
    assert!(cases >= 10, "only {cases} corpus cases have a runtime env");
    spec["ray"]["runtime_env"] = "env_vars:\n  1BAD: x\n".into();
    let answer = rust(&validator.check(&js(&spec), JsValue::UNDEFINED).unwrap());
    assert_eq!(
        findings(&answer),
        [(
            "ray.runtime_env.env_vars.1BAD".to_owned(),
            "env.name.invalid".to_owned()
        )]
    );
}
