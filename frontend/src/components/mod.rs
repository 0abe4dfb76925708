//! Reusable widgets, embeddable in other portals.

mod load;
mod plan;
mod report;

pub use load::load;
pub use plan::{PlanView, amount};
pub use report::{ReportView, field_place, issue_text};

/// Focuses the first element one of `selectors` finds (within `within`, else the page),
/// tried in order, in the next frame (once what the change that calls this renders is in
/// the page), when the focus has fallen to the page's body: a button disabled while its
/// request was out, a control that went away. Focus a user put elsewhere meanwhile stays
/// there.
pub fn refocus_if_lost(within: Option<web_sys::Element>, selectors: &'static [&'static str]) {
    leptos::prelude::request_animation_frame(move || {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let lost = document
            .active_element()
            .is_none_or(|active| active.tag_name() == "BODY");
        if !lost {
            return;
        }
        let find = |selector: &str| match &within {
            Some(root) => root.query_selector(selector),
            None => document.query_selector(selector),
        };
        if let Some(target) = selectors
            .iter()
            .find_map(|selector| find(selector).ok().flatten())
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
        {
            let _ = target.focus();
        }
    });
}
