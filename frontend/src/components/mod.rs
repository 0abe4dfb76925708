//! Reusable widgets, embeddable in other portals.

mod load;
mod plan;
mod report;

pub use load::{Again, TryAgain, load, load_again};
pub use plan::{PlanEcho, PlanFreshness, PlanView, amount};
pub use report::{
    MaintainedTags, ReportView, caret_offset, errors_first, field_place, focus_field, issue_text,
    key_place,
};

/// A finding's severity, said before its words in the reader's language (`lang`): parted
/// from them by a no-break space, which Chrome keeps in a description made of the
/// finding (a plain one was left out, and a control read "ERRORmust be…": keyboard
/// explorer, by CDP's accessibility tree).
pub fn severity_badge(
    lang: impl Fn() -> shared::Lang + Send + Sync + Copy + 'static,
    severity: shared::Severity,
) -> impl leptos::prelude::IntoView {
    use leptos::prelude::*;
    let key = format!("ui.form.severity.{}", severity.as_str());
    view! {
        <span class="badge">{move || shared::messages::text(lang(), &key, &[])}</span>
        "\u{a0}"
    }
}

/// A call put off until typing pauses: each [`Pause::then`] drops the call put off
/// before it. What a screen reader hears of a field's findings, the plan's verdict and
/// the log filter's count waits for it: said at each key, a finding true only halfway
/// through a word came and went (keyboard explorer).
#[derive(Clone, Copy)]
pub struct Pause(leptos::prelude::StoredValue<Option<leptos::prelude::TimeoutHandle>>);

impl Pause {
    /// How long typing must pause.
    pub const AFTER: std::time::Duration = std::time::Duration::from_millis(700);

    /// A pause with nothing put off; what is put off is dropped with the view that made
    /// it, so nothing runs on a view that is gone.
    pub fn new() -> Self {
        let pause = Pause(leptos::prelude::StoredValue::new(None));
        leptos::prelude::on_cleanup(move || pause.cancel());
        pause
    }

    /// Puts `call` off until [`Pause::AFTER`] has passed with no other call put off.
    pub fn then(&self, call: impl FnOnce() + 'static) {
        use leptos::prelude::*;
        self.cancel();
        let timer = set_timeout_with_handle(call, Self::AFTER);
        self.0.try_set_value(timer.ok());
    }

    /// Drops the call put off, if any.
    pub fn cancel(&self) {
        use leptos::prelude::*;
        if let Some(Some(timer)) = self.0.try_get_value() {
            timer.clear();
            self.0.try_set_value(None);
        }
    }
}

impl Default for Pause {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether `ev` is an `input` of a composition an input method (pinyin) has under way:
/// its text is not the words yet. The words come with `compositionend`.
pub fn composing(ev: &web_sys::Event) -> bool {
    js_sys::Reflect::get(ev, &"isComposing".into())
        .ok()
        .and_then(|c| c.as_bool())
        == Some(true)
}

/// Calls `close` when the focus lands on an element of the page outside `dialog`, for
/// as long as the calling view lives: a question asked there goes when the reader moves
/// on past it (keyboard explorer: it stayed open, asking, while the reader was
/// elsewhere). Where it lands, not where it leaves: Tab from a page's last control
/// leaves it for the browser's own, then comes back at the page's top (recheck: Start
/// over's question stayed open); and the window losing the focus, and getting it back
/// on the same control, closes nothing.
pub fn close_when_focus_elsewhere(
    dialog: leptos::prelude::NodeRef<leptos::html::Div>,
    close: impl Fn() + 'static,
) {
    use leptos::prelude::*;
    use wasm_bindgen::JsCast;
    let handle = window_event_listener(leptos::ev::focusin, move |ev| {
        let Some(dialog) = dialog.try_get_untracked().flatten() else {
            return;
        };
        let to = ev.target().and_then(|t| t.dyn_into::<web_sys::Node>().ok());
        if to.is_some_and(|to| !dialog.contains(Some(&to))) {
            close();
        }
    });
    on_cleanup(move || handle.remove());
}

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

/// After row `index` of a list was removed by a click, moves the focus to the row's
/// remove button now in its place (the next row, `remove_at(index)`), else the one
/// before, else the list's add button (`add`), looking only within the clicked button's
/// `within` ancestor: the removed button took the focus with it, down to the page's body,
/// and a keyboard user would start again at the top.
pub fn refocus_after_removal(
    click: &leptos::ev::MouseEvent,
    within: &'static str,
    index: usize,
    remove_at: impl Fn(usize) -> String + 'static,
    add: String,
) {
    let Some(scope) = click
        .current_target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        .and_then(|e| e.closest(within).ok().flatten())
    else {
        return;
    };
    // The rows are built again after the change: look once they are, and only while the
    // list is on the page (a form replaced meanwhile keeps its own focus).
    leptos::prelude::request_animation_frame(move || {
        if !scope.is_connected() {
            return;
        }
        let find = |selector: &str| scope.query_selector(selector).ok().flatten();
        let target = find(&remove_at(index))
            .or_else(|| index.checked_sub(1).and_then(|i| find(&remove_at(i))))
            .or_else(|| find(&add));
        if let Some(el) =
            target.and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
        {
            let _ = el.focus();
        }
    });
}
