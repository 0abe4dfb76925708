//! Component tests in headless Chromium: mount the real components, act, assert on the DOM.
//!
//! One module per page or editor; each mounts into its own element.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod form;
mod nav;
mod pages;

/// Waits `ms` milliseconds (timers, not microtasks, run meanwhile).
async fn sleep(ms: i32) {
    let wait = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(wait).await.unwrap();
}

/// Waits until the browser has painted a frame and run the task after it, where the
/// findings summary's list follows the report (`components::report`).
async fn after_paint() {
    let wait = js_sys::Promise::new(&mut |resolve, _| {
        let window = web_sys::window().unwrap();
        let later = wasm_bindgen::closure::Closure::once_into_js(move || {
            web_sys::window()
                .unwrap()
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0)
                .unwrap();
        });
        window
            .request_animation_frame(wasm_bindgen::JsCast::unchecked_ref(&later))
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(wait).await.unwrap();
    leptos::task::tick().await;
}

/// No draft saved by an earlier test, in this tab's storage or the browser's.
fn forget_drafts() {
    let window = web_sys::window().unwrap();
    for storage in [window.session_storage(), window.local_storage()] {
        let storage = storage.unwrap().unwrap();
        // The form's draft, and the clones' (`<key>.clone.<id>`).
        let keys: Vec<String> = (0..storage.length().unwrap())
            .filter_map(|i| storage.key(i).unwrap())
            .filter(|k| k.starts_with(frontend::form::draft::DRAFT_KEY))
            .collect();
        for key in keys {
            storage.remove_item(&key).unwrap();
        }
    }
}

/// A new element at the end of the page for a test to mount into.
fn new_host() -> web_sys::HtmlElement {
    use wasm_bindgen::JsCast;
    let document = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    host.set_attribute("data-test-host", "").unwrap();
    document.body().unwrap().append_child(&host).unwrap();
    host
}

/// Undoes what a test that failed midway left on the page, since its ending never ran (a
/// panic in wasm stops the test where it is, destructors and all): its views (out of the
/// page, where their refreshes would move the next test's layout), the real `fetch` and
/// `EventSource`, no press under way, and the runner's own address,
/// which it returns for the test to put back when it ends. A view left so still runs
/// unseen: a page's poll can reach the next test's held requests, so one failure may
/// still fail the test after it.
fn fresh_page() -> String {
    js_sys::eval(
        "document.querySelectorAll('[data-test-host]').forEach((host) => host.remove());
         if (window.__realFetch) window.fetch = window.__realFetch;
         if (window.__RealEventSource) window.EventSource = window.__RealEventSource;
         window.dispatchEvent(new MouseEvent('mouseup'));
         window.__startAddress = window.__startAddress || location.href;
         if (location.href !== window.__startAddress)
             history.replaceState(null, '', window.__startAddress);
         window.__startAddress",
    )
    .unwrap()
    .as_string()
    .unwrap()
}

/// Each node's `attribute` (an option's `value`), in order; empty where it has none.
fn attribute_of_each(nodes: &web_sys::NodeList, attribute: &str) -> Vec<String> {
    use wasm_bindgen::JsCast;
    (0..nodes.length())
        .filter_map(|i| nodes.item(i))
        .map(|node| {
            node.unchecked_into::<web_sys::Element>()
                .get_attribute(attribute)
                .unwrap_or_default()
        })
        .collect()
}
