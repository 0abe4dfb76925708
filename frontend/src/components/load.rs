//! An answer the page waits for, without Leptos' resources and `<Suspense>`.

use leptos::prelude::*;
use std::cell::Cell;
use std::future::Future;
use std::rc::Rc;

/// What `load` answers, `None` until it has: a page's "loading…" is its `None`.
///
/// `load` runs again when a signal it reads (before its future starts) changes, as a
/// resource's would; the last answer stays on screen until the new one arrives, and an
/// answer overtaken by a newer request is dropped. Why not `LocalResource` and
/// `<Suspense>`: they carry Leptos' async-derived signals and transitions, and with them
/// std's channels, for four loads the pages make (BENCHMARKS.md, console
/// bundle).
pub fn load<T, F>(load: impl Fn() -> F + 'static) -> ReadSignal<Option<T>, LocalStorage>
where
    T: 'static,
    F: Future<Output = T> + 'static,
{
    let (answer, set_answer) = signal_local(None);
    let latest = Rc::new(Cell::new(0u32));
    Effect::new(move |_| {
        let request = latest.get().wrapping_add(1);
        latest.set(request);
        let future = load();
        let latest = Rc::clone(&latest);
        leptos::task::spawn_local(async move {
            let value = future.await;
            if latest.get() == request {
                set_answer.set(Some(value));
            }
        });
    });
    answer
}

/// A [`load`] the reader can ask again after a failure (the server restarting), without
/// reloading the page: its answer, and [`Again`] for a [`TryAgain`] button.
pub fn load_again<T, F>(
    load: impl Fn() -> F + 'static,
) -> (ReadSignal<Option<T>, LocalStorage>, Again)
where
    T: 'static,
    F: Future<Output = T> + 'static,
{
    let again = Again {
        attempt: RwSignal::new(0),
        trying: RwSignal::new(false),
    };
    let answer = self::load(move || {
        again.attempt.track();
        load()
    });
    // The failure stays on screen while it is asked again: the button says so meanwhile.
    Effect::new(move |_| {
        answer.track();
        again.trying.set(false);
    });
    (answer, again)
}

/// Asks a [`load_again`] again.
#[derive(Clone, Copy)]
pub struct Again {
    attempt: RwSignal<u32>,
    trying: RwSignal<bool>,
}

impl Again {
    /// Asks again: the failure stays on screen until the answer replaces it.
    pub fn ask(self) {
        self.trying.set(true);
        self.attempt.update(|a| *a = a.wrapping_add(1));
    }

    /// Whether an ask is out, not yet answered.
    pub fn asking(self) -> bool {
        self.trying.get_untracked()
    }
}

/// "Try again" for a failed [`load_again`]; while it is asked, off and saying `loading`.
#[component]
pub fn TryAgain(
    again: Again,
    /// The message key said while it is asked.
    loading: &'static str,
    test_id: &'static str,
) -> impl IntoView {
    let lang = crate::i18n::UiLang::use_context();
    view! {
        <button type="button" data-testid=test_id disabled=move || again.trying.get()
            on:click=move |_| again.ask()>
            {move || lang.text(if again.trying.get() { loading } else { "ui.app.try_again" })}
        </button>
    }
}
