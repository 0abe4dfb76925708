//! Berth's console: a Leptos app rendered in the browser, and the validator exported to
//! JavaScript for other portals.
//!
//! Every domain rule comes from `shared`; this crate only wires signals to views. It must
//! not depend on the server crate: their contract is `shared::api`.

pub mod api;
pub mod components;
pub mod form;
pub mod i18n;
pub mod js_api;
pub mod nav;
pub mod pages;

use i18n::{UiLang, t};
use leptos::prelude::*;

/// The whole console: loads the catalog, then shows the task editor.
#[component]
pub fn App() -> impl IntoView {
    let lang = UiLang::provide();
    let session = LocalResource::new(|| async {
        let session = api::fetch_catalog().await?;
        let examples = api::fetch_examples().await?;
        Ok::<_, api::ClientError>((session, examples))
    });
    view! {
        <header class="topbar">
            <span class="brand">"Berth"</span>
            <span class="subtitle">{move || t(lang.get(), "Create training task", "创建训练任务")}</span>
            <i18n::LangSwitch />
        </header>
        <main>
            <Suspense fallback=move || view! { <p class="loading">{move || t(lang.get(), "Loading the catalog…", "正在加载资源目录…")}</p> }>
                {move || session.get().map(|result| match result {
                    Ok((session, _examples)) => view! {
                        <pages::task_new::NewTaskPage session=session />
                    }.into_any(),
                    Err(err) => view! {
                        <p class="banner error" role="alert">
                            {move || t(lang.get(), "Could not load the catalog: ", "无法加载资源目录：")}
                            {err.to_string()}
                        </p>
                    }.into_any(),
                })}
            </Suspense>
        </main>
    }
}

/// Mounts the console when the wasm module starts (trunk builds with feature `app`).
#[cfg(feature = "app")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    leptos::mount::mount_to_body(App);
}
