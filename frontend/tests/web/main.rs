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
