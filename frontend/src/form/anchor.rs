//! The control a user types in or changes stays where it stands on screen while what
//! the change brings above it comes and goes: units per node typed brought three quota
//! findings to the spec rows above the box, and the box moved down under the caret
//! (explorer). The browser's own scroll anchoring keeps in place only what is at the top
//! of the window, not the control in the middle of it.
//!
//! The control's place is read as a change comes, before any of the form's handlers (a
//! listener of the capture phase on the window), and what scrolls it is scrolled by what
//! it moved in the next frame, after the form has redrawn and before that is painted, so
//! no frame shows it moved. Read at `beforeinput` where there is one (typing): the page is
//! still as last laid out, where at `input` the box's new text made the read lay it out
//! first (the keystroke bench's work per keystroke grew by a third). Else at `input`
//! (selects, boxes); never at `change`: a number box stepped by the keyboard sends it
//! after the form has redrawn, and a place read then undid the first (review).

use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// A control's place as a frame's first change found it. Its place on screen: a scroll
/// the browser made meanwhile (its own anchoring) is in what it moved.
struct Before {
    control: web_sys::Element,
    top: f64,
}

thread_local! {
    static WATCHED: Cell<bool> = const { Cell::new(false) };
    /// The place read for the frame to come: several changes in one frame are made good
    /// once, from the first one's place (each from its own undid the one before).
    static PENDING: RefCell<Option<Before>> = const { RefCell::new(None) };
}

/// Starts keeping changed controls in place, once for the page: the listener stays as
/// long as it, and acts on the controls of a create form only.
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
        let first = PENDING.with_borrow_mut(|pending| {
            if pending.as_ref().is_some_and(|p| p.control == control) {
                return false;
            }
            let first = pending.is_none();
            *pending = Some(Before {
                top: control.get_bounding_client_rect().top(),
                control,
            });
            first
        });
        if first {
            request_animation_frame(keep_in_place);
        }
    });
    for kind in ["beforeinput", "input"] {
        let _ = window().add_event_listener_with_callback_and_bool(
            kind,
            keep.as_ref().unchecked_ref(),
            true,
        );
    }
    keep.forget();
}

/// Scrolls what holds the pending control by what it moved since its place was read.
fn keep_in_place() {
    let Some(before) = PENDING.take() else {
        return;
    };
    // The change moved the focus (a row added, a summary link): the page follows that.
    if document().active_element().as_ref() != Some(&before.control) {
        return;
    }
    let moved = before.control.get_bounding_client_rect().top() - before.top;
    // The window scrolls by whole pixels, so each correction leaves up to half of one,
    // and the browser's own anchoring may leave more: skipped below a whole pixel, they
    // added up, keystroke after keystroke (1.08 px in two).
    if moved.abs() < 0.5 {
        return;
    }
    let options = web_sys::ScrollToOptions::new();
    options.set_top(moved);
    // Instant whatever the page's `scroll-behavior`: a smooth one would still be moving
    // at the next keystroke, which would read it as the form's.
    options.set_behavior(web_sys::ScrollBehavior::Instant);
    match scroller_of(&before.control) {
        // A portal's own scrolling box: the form moved in it, not in the window.
        Some(scroller) => scroller.scroll_by_with_scroll_to_options(&options),
        None => window().scroll_by_with_scroll_to_options(&options),
    }
}

/// The nearest box above `control` that scrolls up and down, when one does below the
/// window.
fn scroller_of(control: &web_sys::Element) -> Option<web_sys::Element> {
    let mut at = control.parent_element();
    while let Some(element) = at {
        if element.scroll_height() > element.client_height()
            && window()
                .get_computed_style(&element)
                .ok()
                .flatten()
                .and_then(|style| style.get_property_value("overflow-y").ok())
                .is_some_and(|overflow| matches!(overflow.as_str(), "auto" | "scroll"))
        {
            return Some(element);
        }
        at = element.parent_element();
    }
    None
}
