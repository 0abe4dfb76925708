//! The console's pages as routes: parsed from the address bar, pushed to history.
//!
//! Four pages do not earn a router crate's weight in the bundle; this is the whole of it.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// A page of the console.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `/` and `/tasks`: the task list.
    List,
    /// `/new`, or `/new?clone=ID` to start from a copy of a task's spec.
    New {
        /// The task whose spec prefills the form.
        clone: Option<String>,
    },
    /// `/new?shared=TOKEN`: the form from a copy of a shared task's spec, its hidden
    /// values masked, for a reader of its link who may not read the task itself.
    CloneShared(String),
    /// `/tasks/ID`: one task.
    Detail(String),
    /// `/shared/TOKEN`: the read-only view of a shared task.
    Shared(String),
    /// Anything else.
    NotFound(String),
}

impl Route {
    /// The route for a path and its query string (with or without the leading `?`).
    pub fn parse(path: &str, query: &str) -> Route {
        let path = path.trim_end_matches('/');
        let query = query.trim_start_matches('?');
        let param = |name: &str| {
            query.split('&').find_map(|pair| {
                let (key, value) = pair.split_once('=')?;
                (key == name && !value.is_empty()).then(|| decode(value))
            })
        };
        match path {
            "" | "/tasks" => Route::List,
            // No task is named `new` (a name ends in `-` and five letters): the address
            // a reader guesses from `/tasks/ID` is the create form, not "no such task"
            // (failure explorer).
            "/new" | "/tasks/new" => match param("shared") {
                Some(token) => Route::CloneShared(token),
                None => Route::New {
                    clone: param("clone"),
                },
            },
            _ => {
                if let Some(id) = path.strip_prefix("/tasks/").filter(|s| !s.contains('/')) {
                    Route::Detail(decode(id))
                } else if let Some(token) =
                    path.strip_prefix("/shared/").filter(|s| !s.contains('/'))
                {
                    Route::Shared(decode(token))
                } else {
                    Route::NotFound(path.to_owned())
                }
            }
        }
    }

    /// The address of this route, for links and history.
    pub fn href(&self) -> String {
        match self {
            Route::List => "/".to_owned(),
            Route::New { clone: None } => "/new".to_owned(),
            Route::New { clone: Some(id) } => format!("/new?clone={}", encode(id)),
            Route::CloneShared(token) => format!("/new?shared={}", encode(token)),
            Route::Detail(id) => format!("/tasks/{}", encode(id)),
            Route::Shared(token) => format!("/shared/{}", encode(token)),
            Route::NotFound(path) => path.clone(),
        }
    }
}

fn encode(text: &str) -> String {
    js_sys::encode_uri_component(text).into()
}

fn decode(text: &str) -> String {
    js_sys::decode_uri_component(text)
        .map(String::from)
        .unwrap_or_else(|_| text.to_owned())
}

/// The current route, shared through context.
#[derive(Clone, Copy)]
pub struct Nav(RwSignal<Route>);

impl Nav {
    /// Provides the route read from the address bar, and follows the back and forward
    /// buttons.
    pub fn provide() -> Nav {
        let nav = Nav(RwSignal::new(current()));
        provide_context(nav);
        if let Some(window) = web_sys::window() {
            let on_pop = Closure::<dyn FnMut()>::new(move || {
                let next = current();
                // A console unmounted (an embedding's) follows nothing.
                let Some(here) = nav.0.try_get_untracked() else {
                    return;
                };
                // Back cannot be undone before it happens: kept on the page, its address
                // comes back as a new entry.
                if next != here && !may_leave() {
                    if let Ok(history) = web_sys::window().expect("a window").history() {
                        let href = here.href();
                        let _ = history.push_state_with_url(
                            &wasm_bindgen::JsValue::NULL,
                            "",
                            Some(&href),
                        );
                    }
                    return;
                }
                nav.0.set(next);
            });
            let _ = window
                .add_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref());
            // The console lives as long as the page.
            on_pop.forget();
        }
        nav
    }

    /// The route in context; the task list when none was provided (isolated widgets).
    pub fn use_context() -> Nav {
        use_context::<Nav>().unwrap_or_else(|| Nav(RwSignal::new(Route::List)))
    }

    /// The current route, tracked.
    pub fn route(&self) -> Route {
        self.0.get()
    }

    /// Goes to a route, adding it to the history.
    pub fn go(&self, route: Route) {
        let href = route.href();
        self.go_at(route, &href);
    }

    /// Goes to a route at `href`, its address with a query (the list's filters), once
    /// the page may be left ([`may_leave`]).
    pub fn go_at(&self, route: Route, href: &str) {
        if route != self.0.get_untracked() && !may_leave() {
            return;
        }
        self.go_unasked(route, href);
    }

    /// Goes to a route at `href` without asking whether the page may be left: for an
    /// action that asked before it began.
    pub fn go_unasked(&self, route: Route, href: &str) {
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(href));
        }
        self.0.set(route);
    }
}

thread_local! {
    /// What each page part that would lose work asks before the page is left, by the
    /// number [`ask_before_leaving`] gave it.
    static UNSAVED: std::cell::RefCell<Vec<(u64, Signal<Option<String>>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
    static NEXT_UNSAVED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// The window's `beforeunload` listener, there only while a page part that may lose
    /// work is mounted (an owner's task page): a page with one is kept out of some
    /// browsers' back-forward cache.
    static BEFORE_UNLOAD: std::cell::RefCell<Option<Listener>> =
        const { std::cell::RefCell::new(None) };
}

/// An event listener the console adds and removes.
type Listener = Closure<dyn FnMut(web_sys::Event)>;

/// Asks before the console leaves the page (a link, Back, a reload, closing the tab)
/// while `question` holds one: what leaving would lose. For as long as the calling
/// component lives. A reload or a closed tab gets the browser's own question, which
/// cannot carry ours.
pub fn ask_before_leaving(question: Signal<Option<String>>) {
    let id = NEXT_UNSAVED.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    });
    UNSAVED.with(|u| u.borrow_mut().push((id, question)));
    let window = web_sys::window().expect("a window");
    BEFORE_UNLOAD.with(|listener| {
        let mut listener = listener.borrow_mut();
        if listener.is_none() {
            let on_unload = Listener::new(|ev: web_sys::Event| {
                if let Some(question) = unsaved() {
                    ev.prevent_default();
                    // Older browsers ask only when it is set.
                    let _ = js_sys::Reflect::set(&ev, &"returnValue".into(), &question.into());
                }
            });
            let _ = window.add_event_listener_with_callback(
                "beforeunload",
                on_unload.as_ref().unchecked_ref(),
            );
            *listener = Some(on_unload);
        }
    });
    on_cleanup(move || {
        let none_left = UNSAVED.with(|u| {
            let mut u = u.borrow_mut();
            u.retain(|(other, _)| *other != id);
            u.is_empty()
        });
        if none_left && let Some(on_unload) = BEFORE_UNLOAD.with(|l| l.borrow_mut().take()) {
            let _ = window.remove_event_listener_with_callback(
                "beforeunload",
                on_unload.as_ref().unchecked_ref(),
            );
        }
    });
}

/// The question of the first page part that would lose work now.
fn unsaved() -> Option<String> {
    UNSAVED.with(|u| {
        u.borrow()
            .iter()
            .find_map(|(_, question)| question.try_get_untracked().flatten())
    })
}

/// Whether the page may be left: nothing on it would be lost, or the user, asked, chose
/// to leave.
pub fn may_leave() -> bool {
    let Some(question) = unsaved() else {
        return true;
    };
    web_sys::window()
        .and_then(|w| w.confirm_with_message(&question).ok())
        .unwrap_or(true)
}

thread_local! {
    /// The task list's filters as it last showed them (its query string).
    static LIST_QUERY: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Remembers the list's filters, which a detail page's way back to the list returns to.
pub fn remember_list_query(query: &str) {
    LIST_QUERY.with(|q| query.clone_into(&mut q.borrow_mut()));
}

/// The list's address with the filters it last showed.
pub fn list_href() -> String {
    LIST_QUERY.with(|q| {
        let q = q.borrow();
        if q.is_empty() {
            Route::List.href()
        } else {
            format!("{}?{q}", Route::List.href())
        }
    })
}

fn current() -> Route {
    let location = web_sys::window().map(|w| w.location());
    let path = location
        .as_ref()
        .and_then(|l| l.pathname().ok())
        .unwrap_or_default();
    let query = location
        .as_ref()
        .and_then(|l| l.search().ok())
        .unwrap_or_default();
    Route::parse(&path, &query)
}

/// A real link (it opens in a new tab, copies, and works without script) that moves
/// within the console without a reload on a plain click.
#[component]
pub fn Link(
    /// Where it goes.
    to: Route,
    /// `data-testid`, for tests.
    #[prop(optional, into)]
    test_id: Option<&'static str>,
    /// Extra classes.
    #[prop(optional, into)]
    class: Option<&'static str>,
    /// The address when it is more than the route's own (the list with its filters).
    #[prop(optional, into)]
    href: Option<String>,
    /// The link's content.
    children: Children,
) -> impl IntoView {
    let nav = Nav::use_context();
    let href = href.unwrap_or_else(|| to.href());
    let target = href.clone();
    view! {
        <a
            href=href
            class=class
            data-testid=test_id
            on:click=move |ev: leptos::ev::MouseEvent| {
                // A modified click keeps its browser meaning (new tab, new window).
                if ev.button() == 0 && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key()) {
                    ev.prevent_default();
                    nav.go_at(to.clone(), &target);
                }
            }
        >
            {children()}
        </a>
    }
}

/// The query string of the address bar, without `?`.
pub fn current_query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
        .trim_start_matches('?')
        .to_owned()
}

/// Whether the address bar shows the task list (it may have moved on before the list's
/// page is gone).
pub fn at_list() -> bool {
    current() == Route::List
}

/// Writes `query` into the address bar's query string, so a reload keeps the page's
/// filters: as a new history entry (Back returns to the filters before), or in place.
pub fn set_query(query: &str, new_entry: bool) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let path = window.location().pathname().unwrap_or_default();
    let address = if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    };
    if let Ok(history) = window.history() {
        let _ = if new_entry {
            history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&address))
        } else {
            history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&address))
        };
    }
}
