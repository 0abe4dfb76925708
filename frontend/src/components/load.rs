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
