//! Whether a press is under way, and what waits for it to end: a field's held finding
//! lines ([`Findings`](super::field::Findings)) are given back only once the click that
//! moved the focus away has landed, or the form would move up under the pointer between
//! the press and its release and the click on the control below would be lost.
//!
//! Followed by the mouse events, not the pointer events: a touch tap sends its pointer
//! events first and then the mouse events the click comes with (mousedown, where the
//! focus moves, mouseup, click), so only those bracket the focus change for a mouse and a
//! finger alike.

use leptos::prelude::*;
use std::cell::{Cell, RefCell};

thread_local! {
    static WATCHED: Cell<bool> = const { Cell::new(false) };
    static PRESSED: Cell<bool> = const { Cell::new(false) };
    static WAITING: RefCell<Vec<Box<dyn FnOnce()>>> = const { RefCell::new(Vec::new()) };
}

/// Starts following presses, once for the page: the listeners stay as long as it.
pub fn watch() {
    if WATCHED.replace(true) {
        return;
    }
    let _ = window_event_listener(leptos::ev::mousedown, |_| PRESSED.set(true));
    fn release() {
        PRESSED.set(false);
        // The press's click is dispatched after mouseup in the same task.
        set_timeout(
            || WAITING.take().into_iter().for_each(|f| f()),
            std::time::Duration::ZERO,
        );
    }
    let _ = window_event_listener(leptos::ev::mouseup, |_| release());
    // A press whose release the page may never see: a right click's menu, a drag, the
    // window left with the button down.
    let _ = window_event_listener(leptos::ev::contextmenu, |_| release());
    let _ = window_event_listener(leptos::ev::dragstart, |_| release());
    let _ = window_event_listener(leptos::ev::blur, |_| release());
}

/// Whether a press is under way.
pub fn pressed() -> bool {
    PRESSED.get()
}

/// Runs `f` once the press under way has ended and its click been dispatched.
pub fn after_press(f: impl FnOnce() + 'static) {
    WAITING.with_borrow_mut(|w| w.push(Box::new(f)));
}
