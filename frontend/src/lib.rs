//! Berth's console: a Leptos app rendered in the browser, and its create form for other
//! pages (`mountTaskForm`). Portals that check specs in their own UI load the validator
//! package (`frontend/validator`) instead.
//!
//! Every domain rule comes from `shared`; this crate only wires signals to views. It must
//! not depend on the server crate: their contract is `shared::api`.

pub mod api;
pub mod components;
pub mod form;
pub mod i18n;
pub mod nav;
pub mod pages;
pub mod widgets;
pub mod yaml;

use i18n::UiLang;
use leptos::prelude::*;
use nav::{Link, Nav, Route};

/// The whole console: the top bar, then the page of the address bar's route, once the
/// catalog (who the user is, what they may choose) has loaded.
#[component]
pub fn App() -> impl IntoView {
    let lang = UiLang::provide();
    i18n::set_document_lang(lang.get_untracked());
    let nav = Nav::provide();
    pages::task_list::ListMemory::provide();
    pages::task_detail::Resubmitted::provide();
    // With Try again: a failed load (the server restarting) is asked again without
    // reloading the page.
    let read_at = form::UsageReadAt::provide();
    let (session, again) = components::load_again(move || async move {
        let answer = api::fetch_catalog(&api::Base::default()).await;
        if answer.is_ok() {
            read_at.set(js_sys::Date::now());
        }
        answer
    });
    let current = move || nav.route();
    // A move to another page (a link, a submit, Back) puts the focus at the page's start,
    // as a page load does: left on a control of the page that went, it fell to the body,
    // and the next Tab started from the top bar again.
    let main = NodeRef::<leptos::html::Main>::new();
    Effect::new(move |before: Option<Route>| {
        let now = nav.route();
        if before.is_some_and(|before| before != now)
            && let Some(main) = main.get_untracked()
        {
            let _ = main.focus();
        }
        now
    });
    view! {
        <a class="skip-link" href="#content">{crate::i18n::tr("ui.app.skip")}</a>
        <header class="topbar">
            <Link to=Route::List class="brand" test_id="brand">{crate::i18n::tr("ui.app.brand")}</Link>
            <nav aria-label=crate::i18n::tr("ui.app.nav")>
                <ul class="nav-links">
                    <li>
                        <a
                            href="/"
                            data-testid="nav-list"
                            aria-current=move || matches!(current(), Route::List | Route::Detail(_)).then_some("page")
                            on:click=move |ev| follow(ev, Route::List)
                        >
                            {crate::i18n::tr("ui.app.nav_list")}
                        </a>
                    </li>
                    <li>
                        <a
                            href="/new"
                            data-testid="nav-new"
                            aria-current=move || matches!(current(), Route::New { .. } | Route::CloneShared(_)).then_some("page")
                            on:click=move |ev| follow(ev, Route::New { clone: None })
                        >
                            {crate::i18n::tr("ui.app.nav_new")}
                        </a>
                    </li>
                </ul>
            </nav>
            <i18n::LangSwitch />
        </header>
        // Named for the page: the focus lands here at each move, and a screen reader
        // said only "main" (screen-reader explorer). A shared view's task is named by
        // its page's heading, once read.
        <main id="content" tabindex="-1" node_ref=main aria-label=move || match current() {
            Route::List => lang.text("ui.list.title"),
            Route::New { .. } | Route::CloneShared(_) => lang.text("ui.form.title"),
            Route::Detail(id) => lang.text_with("ui.detail.title", &[("name", id)]),
            Route::Shared(_) | Route::NotFound(_) => String::new(),
        }>
            {move || match session.get() {
                None => view! { <p class="loading">{crate::i18n::tr("ui.app.loading")}</p> }.into_any(),
                Some(Ok(session)) => view! { <Page session /> }.into_any(),
                Some(Err(err)) => view! {
                    <div class="banner error" role="alert" data-testid="load-failed">
                        <span class="message">
                            // Every page needs the session first, a shared task's too: a
                            // reader not signed in is asked to sign in, not told of a
                            // catalog.
                            {move || if matches!(&err, api::ClientError::Api(body) if body.code == "auth.required") {
                                lang.text("ui.app.sign_in")
                            } else {
                                lang.text_with("ui.app.load_failed", &[("detail", err.localized(lang.get()))])
                            }}
                        </span>
                        <components::TryAgain again loading="ui.app.loading" test_id="load-again" />
                    </div>
                }.into_any(),
            }}
        </main>
    }
}

/// A plain click on a nav link moves without a reload; a modified one keeps its
/// browser meaning.
fn follow(ev: leptos::ev::MouseEvent, route: Route) {
    if ev.button() == 0 && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key()) {
        ev.prevent_default();
        Nav::use_context().go(route);
    }
}

/// The page for the current route ([`Nav`] in context).
#[component]
pub fn Page(
    /// The user, the catalog and the use, as the console loaded them.
    session: shared::api::CatalogResponse,
) -> impl IntoView {
    let nav = Nav::use_context();
    let lang = UiLang::use_context();
    // Only a change of page re-renders: the page keeps its own state otherwise.
    let route = Memo::new(move |_| nav.route());
    move || match route.get() {
        Route::List => {
            pages::title_page(|lang| Some(lang.text("ui.list.title")));
            view! { <pages::task_list::TaskListPage session=session.clone() /> }.into_any()
        }
        Route::New { clone } => {
            pages::title_page(|lang| Some(lang.text("ui.form.title")));
            view! { <pages::task_new::NewTaskPage session=session.clone() clone /> }.into_any()
        }
        Route::CloneShared(token) => {
            pages::title_page(|lang| Some(lang.text("ui.form.title")));
            view! { <pages::task_new::NewTaskPage session=session.clone() shared=Some(token) /> }
                .into_any()
        }
        // Titled by the page, with the task's phase once read.
        Route::Detail(id) => {
            view! { <pages::task_detail::TaskDetailPage id session=session.clone() /> }.into_any()
        }
        // Titled by the page once the task is read: its name is not in the address.
        Route::Shared(token) => {
            let groups = session.catalog.project_groups.clone();
            let catalog = session.catalog.clone();
            view! { <pages::shared_view::SharedTaskPage token groups catalog /> }.into_any()
        }
        Route::NotFound(path) => {
            pages::title_page(|_| None);
            view! {
                <p class="banner error" role="alert" data-testid="not-found">
                    {move || lang.text_with("ui.app.not_found", &[("path", path.clone())])}
                </p>
            }
            .into_any()
        }
    }
}

/// Mounts the console when the wasm module starts (trunk builds with feature `app`).
#[cfg(feature = "app")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    // A portal that loads this package for `mountTaskForm` marks its body
    // `data-berth-embed`; only the console's own page gets the whole console.
    let embedded = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
        .is_some_and(|b| b.has_attribute("data-berth-embed"));
    if !embedded {
        // The page's own "Loading Berth…" line (index.html), which says so if the module
        // fails to load; once here, it has.
        if let Some(line) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("berth-loading"))
        {
            line.remove();
        }
        leptos::mount::mount_to_body(App);
    }
}
