//! The control a user types in or changes stays where it stands on screen while what
//! the change brings above it comes and goes: units per node typed brought three quota
//! findings to the spec rows above the box, and the box moved down under the caret
//! (explorer). The browser's own scroll anchoring keeps in place only what is at the top
//! of the window, not the control in the middle of it.
//!
//! The control's place is read as the event comes, before any of the form's handlers
//! (a listener of the capture phase on the window), and the page scrolled by what it
//! moved in the next frame, after the form has redrawn and before that is painted, so
//! no frame shows it moved.

use leptos::prelude::*;
use std::cell::Cell;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

thread_local! {
    static WATCHED: Cell<bool> = const { Cell::new(false) };
}

/// Starts keeping changed controls in place, once for the page: the listeners stay as
/// long as it, and act on the controls of a create form only.
pub fn watch() {
    if WATCHED.replace(true) {
        return;
    }
    let keep = Closure::<dyn Fn(web_sys::Event)>::new(|ev: web_sys::Event| {
        let Some(control) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .filter(|c| c.closest(".task-form").ok().flatten().is_some())
        else {
            return;
        };
        let before = control.get_bounding_client_rect().top();
        request_animation_frame(move || {
            // The change moved the focus (a row added, a summary link): the page follows
            // that instead.
            if document().active_element().as_ref() != Some(&control) {
                return;
            }
            let moved = control.get_bounding_client_rect().top() - before;
            if moved.abs() >= 1.0 {
                window().scroll_by_with_x_and_y(0.0, moved);
            }
        });
    });
    for kind in ["input", "change"] {
        let _ = window().add_event_listener_with_callback_and_bool(
            kind,
            keep.as_ref().unchecked_ref(),
            true,
        );
    }
    keep.forget();
}
