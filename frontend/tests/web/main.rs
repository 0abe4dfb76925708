//! Component tests in headless Chromium: mount the real components, act, assert on the DOM.
//!
//! One module per page or editor; each mounts into its own element.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod form;
mod nav;
mod pages;
