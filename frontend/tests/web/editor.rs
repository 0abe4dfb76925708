//! The JSON editor: mount it, act, assert on the DOM.

use frontend::pages::task_new::TaskEditor;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlTextAreaElement};

fn document() -> web_sys::Document {
    web_sys::window()
        .expect("a window")
        .document()
        .expect("a document")
}

/// Mounts the editor into a fresh element and returns that element.
fn mount_editor(initial: Option<String>) -> HtmlElement {
    let host: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let catalog = shared::demo::catalog();
    let usage = shared::demo::usage();
    let user = shared::demo::user();
    let examples = shared::api::Examples {
        pytorch: shared::parse_spec(shared::demo::PYTORCH_EXAMPLE).unwrap(),
        ray: shared::parse_spec(shared::demo::RAY_EXAMPLE).unwrap(),
    };
    let handle = leptos::mount::mount_to(host.clone(), move || {
        let (catalog, usage, user, examples, initial) = (
            catalog.clone(),
            usage.clone(),
            user.clone(),
            examples.clone(),
            initial.clone(),
        );
        view! {
            // The language choice persists in local storage across tests: start in English.
            {frontend::i18n::UiLang::provide().set(shared::Lang::En);}
            <frontend::i18n::LangSwitch />
            <TaskEditor catalog usage user examples initial />
        }
    });
    handle.forget();
    host
}

fn find(host: &HtmlElement, test_id: &str) -> HtmlElement {
    host.query_selector(&format!("[data-testid='{test_id}']"))
        .unwrap()
        .unwrap_or_else(|| panic!("no {test_id}"))
        .unchecked_into()
}

fn codes(host: &HtmlElement) -> Vec<String> {
    let items = host.query_selector_all("li.issue").unwrap();
    (0..items.length())
        .map(|i| {
            items
                .item(i)
                .unwrap()
                .unchecked_into::<HtmlElement>()
                .dataset()
                .get("code")
                .unwrap_or_default()
        })
        .collect()
}

async fn type_spec(host: &HtmlElement, text: &str) {
    let area: HtmlTextAreaElement = find(host, "spec").unchecked_into();
    area.set_value(text);
    area.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    leptos::task::tick().await;
}

#[wasm_bindgen_test]
async fn the_example_is_ready_to_submit_and_starts_now() {
    let host = mount_editor(None);
    leptos::task::tick().await;
    assert!(
        find(&host, "summary")
            .text_content()
            .unwrap()
            .contains("0 errors")
    );
    assert!(
        find(&host, "outcome")
            .text_content()
            .unwrap()
            .starts_with("Starts now with a100-1g")
    );
}

#[wasm_bindgen_test]
async fn findings_follow_the_text_as_it_is_typed() {
    let host = mount_editor(None);
    let mut spec: serde_json::Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    spec["environment"]["env"][0]["name"] = "KUBERNETES_X".into();
    type_spec(&host, &spec.to_string()).await;
    assert_eq!(codes(&host), ["env.name.reserved_prefix"]);
    let item: HtmlElement = host
        .query_selector("li.issue")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(
        item.dataset().get("path").as_deref(),
        Some("environment.env[0].name")
    );
    assert!(
        find(&host, "summary")
            .text_content()
            .unwrap()
            .contains("fix the errors")
    );
}

#[wasm_bindgen_test]
async fn a_queued_task_says_why() {
    let host = mount_editor(None);
    let mut spec: serde_json::Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    spec["basic"]["cluster"] = "sh-b".into();
    spec["compute"]["specs"] = serde_json::json!(["l40s-1g"]);
    spec["compute"]["units_per_node"] = 2.into();
    spec["compute"]["workers"] = 3.into();
    type_spec(&host, &spec.to_string()).await;
    let outcome = find(&host, "outcome").text_content().unwrap();
    assert!(
        outcome.contains("free nodes can host 3 of 4 replicas at once"),
        "{outcome}"
    );
}

#[wasm_bindgen_test]
async fn the_language_switch_changes_messages_not_findings() {
    let host = mount_editor(Some(r#"{"compute": {"workers": "two"}}"#.to_owned()));
    leptos::task::tick().await;
    let english = host
        .query_selector("li.issue .message")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    assert!(english.contains("expected a whole number"), "{english}");
    find(&host, "lang-zh").click();
    leptos::task::tick().await;
    let chinese = host
        .query_selector("li.issue .message")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    assert!(chinese.contains("应为整数"), "{chinese}");
    assert_eq!(codes(&host), ["value.invalid"]);
}

#[wasm_bindgen_test]
fn the_javascript_api_answers_like_the_crate() {
    // Portals pass plain objects, as JSON.parse makes them.
    let to_js = |v: &serde_json::Value| {
        use serde::Serialize;
        v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
            .unwrap()
    };
    let mut spec: serde_json::Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).unwrap();
    spec["ray"]["runtime_env"] = "- not a mapping".into();
    let catalog = serde_json::to_value(shared::demo::catalog()).unwrap();
    let user = serde_json::to_value(shared::demo::user()).unwrap();
    let usage = serde_json::to_value(shared::demo::usage()).unwrap();
    let js = frontend::js_api::validate_task(
        to_js(&spec),
        to_js(&catalog),
        to_js(&user),
        to_js(&usage),
        None,
    )
    .unwrap();
    let answer: serde_json::Value = serde_wasm_bindgen::from_value(js).unwrap();
    let spec: shared::TaskSpec = serde_json::from_value(spec).unwrap();
    let expected = serde_json::to_value(
        shared::check(
            &spec,
            &shared::demo::catalog(),
            &shared::demo::usage(),
            &shared::demo::user(),
        )
        .localized(shared::Lang::En),
    )
    .unwrap();
    assert_eq!(answer, expected);
    assert_eq!(answer["issues"][0]["code"], "ray.runtime_env.not_mapping");
    let plan = frontend::js_api::plan_task(
        to_js(&serde_json::to_value(&spec).unwrap()),
        to_js(&catalog),
        to_js(&user),
        to_js(&usage),
    )
    .unwrap();
    let plan: serde_json::Value = serde_wasm_bindgen::from_value(plan).unwrap();
    assert_eq!(plan["outcome"]["outcome"], "now");
}

#[wasm_bindgen_test]
fn the_javascript_api_refuses_a_catalog_it_cannot_read() {
    let spec = serde_wasm_bindgen::to_value(&serde_json::json!({})).unwrap();
    let user = serde_wasm_bindgen::to_value(&serde_json::json!({ "name": "alice" })).unwrap();
    // A JS Map is not a plain object: refusing beats checking against an empty catalog.
    let map = js_sys::Map::new();
    map.set(&"regions".into(), &js_sys::Array::new());
    let err = frontend::js_api::validate_task(
        spec,
        map.into(),
        user,
        wasm_bindgen::JsValue::UNDEFINED,
        None,
    )
    .unwrap_err();
    assert!(err.as_string().unwrap().contains("catalog"), "{err:?}");
}
