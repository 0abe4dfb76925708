//! One field of the form: its label and help from the message catalog, the control
//! named by its field path, and the findings at that path.
//!
//! Every control's `name` is its field path (`environment.env[2].value`), the path the
//! findings carry; its `id` is [`FormCx::control_id`](super::FormCx::control_id) of it, which the summary focuses.

use super::context::{FormCx, bare, field_key};
use super::pointer;
use crate::components::field_place;
use leptos::prelude::*;
use shared::Issue;
use shared::messages::text;
use wasm_bindgen::JsCast;

/// Reads and writes one value of the draft as text.
#[derive(Clone, Copy)]
pub struct Lens {
    /// The value, tracked; from [`FormCx::watch`](super::FormCx::watch), so that it
    /// changes only with the value, not with every keystroke in the draft.
    pub get: Signal<String>,
    /// Stores a new value.
    pub set: Callback<String>,
}

/// A [`Lens`] on a `String` field of the draft: `text_lens!(cx, basic.name_prefix)`.
macro_rules! text_lens {
    ($cx:expr, $($field:tt)+) => {{
        let cx: $crate::form::FormCx = $cx;
        $crate::form::field::Lens {
            get: cx.watch(move |s| s.$($field)+.clone()),
            set: Callback::new(move |v: String| cx.spec.update(|s| s.$($field)+ = v)),
        }
    }};
}
pub(crate) use text_lens;

/// A [`Lens`] on a whole-number field of the draft (`u32`); text that is not one is
/// held and reported at the field (see [`FormCx::set_number`](super::FormCx::set_number)).
macro_rules! number_lens {
    ($cx:expr, $($field:tt)+) => {{
        let cx: $crate::form::FormCx = $cx;
        let get = cx.watch(move |s| s.$($field)+.to_string());
        $crate::form::field::Lens {
            get,
            set: Callback::new(move |v: String| {
                let path = stringify!($($field)+).replace(' ', "");
                let unread = cx.unread_u32(&path, &v, |s, n| s.$($field)+ = n);
                cx.set_number(
                    &path,
                    v,
                    $crate::form::field::whole_u32,
                    unread,
                    get,
                    |s, n| s.$($field)+ = n,
                )
            }),
        }
    }};
}
pub(crate) use number_lens;

/// The whole number 0 or more that `text` says, as a number control's box shows it: `2`,
/// also `2.0` and `1e1` (whole, written as a browser may). `None` for anything else
/// (`2.5`, `-1`, `abc`, nothing), and for a number past the largest the field holds
/// (4294967295): the box holds it and says it is too large ([`too_large`]), as the API
/// says of it, rather than taking another number than the one typed.
pub fn whole_u32(text: &str) -> Option<u32> {
    whole(text)
        .filter(|n| !n.negative)
        .and_then(|n| u32::try_from(n.size).ok())
}

/// What a box of a `u32` field says of `text`, a whole number past the largest it holds:
/// what the API says of that number in a spec's JSON, read by the API's own reader (a
/// `u32` field of the spec stands for every one), so the two never differ in a digit.
/// `None` for any other text, or one JSON would not take as a number (`+5000000000`).
pub fn too_large(text: &str) -> Option<shared::IssueCode> {
    whole(text).filter(|n| !n.negative && n.size > u64::from(u32::MAX))?;
    api_says(&format!(r#"{{"compute": {{"workers": {}}}}}"#, text.trim()))
}

/// As [`too_large`], for the box of an `i64` field (image pull retries): a whole number
/// past either of its bounds.
pub fn too_large_i64(text: &str) -> Option<shared::IssueCode> {
    whole(text).filter(|_| whole_i64(text).is_none())?;
    api_says(&format!(
        r#"{{"advanced": {{"image_pull_retries": {}}}}}"#,
        text.trim()
    ))
}

/// The API's shape finding for a number in `json`, the one field it sets.
fn api_says(json: &str) -> Option<shared::IssueCode> {
    let code = shared::parse_spec(json)
        .err()?
        .issues()
        .first()?
        .code
        .clone();
    use shared::validate::Expected;
    matches!(
        code,
        shared::IssueCode::ValueInvalid {
            expected: Expected::WholeNumber | Expected::Integer,
            ..
        }
    )
    .then_some(code)
}

/// As [`whole_u32`], for a field that may be negative. `None` past the type's bounds:
/// the box holds the number and says it is too large ([`too_large_i64`]), rather than
/// taking the bound.
pub fn whole_i64(text: &str) -> Option<i64> {
    let n = whole(text)?;
    if n.negative {
        0_i64.checked_sub_unsigned(n.size)
    } else {
        i64::try_from(n.size).ok()
    }
}

/// Whether a number box's `text` reads as `value`, the draft's number as the box writes
/// it, by the reading of a field that may be negative or of one that may not.
fn reads_as(text: &str, value: &str) -> bool {
    whole_u32(text).is_some_and(|n| n.to_string() == value)
        || whole_i64(text).is_some_and(|n| n.to_string() == value)
}

/// A whole number as a box's text says it: its sign and its size, which saturates at
/// `u64::MAX` (no field holds as much).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Whole {
    /// Never for zero, however written (`-0`).
    negative: bool,
    size: u64,
}

/// The whole number decimal `text` says (`-12`, `2.0`, `1.5e1`, a sign, spaces around),
/// exactly: by its digits rather than as a float, whose parser (with its tables) was
/// 15 KB raw of the console's wasm, and which read `4294967295.00000000001` as whole.
/// Stricter than the API's JSON reader in one place: a fraction past a float's 17
/// digits (`2.00000000000000001`), which that reader takes as whole, is a fraction in
/// the box, and a too-large number written so (`4294967296.000000000001`) is no whole
/// number here rather than too large. The browser's number box never rounds what it
/// holds, so the box says what was typed.
fn whole(text: &str) -> Option<Whole> {
    let text = text.trim();
    let (negative, text) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let (int, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = || int.bytes().chain(fraction.bytes());
    if int.len() + fraction.len() == 0 || !digits().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // The exponent saturates far past any digit count a box could hold.
    let exponent = match exponent {
        None => 0,
        Some(e) => {
            let (minus, e) = match e.as_bytes().first()? {
                b'-' => (true, &e[1..]),
                b'+' => (false, &e[1..]),
                _ => (false, e),
            };
            if e.is_empty() || !e.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let size = e
                .bytes()
                .fold(0_i64, |n, b| (n * 10 + i64::from(b - b'0')).min(1 << 40));
            if minus { -size } else { size }
        }
    };
    // The digits without leading zeros, and the power of ten they are times once their
    // trailing zeros are taken into it.
    let significant: Vec<u8> = digits().skip_while(|&b| b == b'0').collect();
    let kept = significant.len() - significant.iter().rev().take_while(|&&b| b == b'0').count();
    let fraction_len = i64::try_from(fraction.len()).ok()?;
    let trailing = i64::try_from(significant.len() - kept).ok()?;
    let power = exponent - fraction_len + trailing;
    if kept == 0 {
        return Some(Whole {
            negative: false,
            size: 0,
        });
    }
    if power < 0 {
        return None;
    }
    let size = significant[..kept]
        .iter()
        .map(|&b| u64::from(b - b'0'))
        .chain((0..power).map(|_| 0))
        .try_fold(0_u64, |n, d| n.checked_mul(10)?.checked_add(d))
        .unwrap_or(u64::MAX);
    Some(Whole { negative, size })
}

/// A value made of what a field holds by its rules, offered beside it and taken with one
/// press, which puts the keyboard back in the field (the name prefix's, the image
/// address's). Built once and shown or hidden: made and dropped at each keystroke that
/// broke or mended the name, it cost the bench's name keystrokes a fifth more.
#[component]
pub fn FixOffer(
    /// The field's path.
    path: &'static str,
    /// The offer's test id; its button's is `<test_id>-use`.
    test_id: &'static str,
    /// The value offered, while there is one.
    made: Signal<Option<String>>,
    /// The message that offers it, with the value as its argument `arg`.
    key: Signal<&'static str>,
    arg: &'static str,
    /// Writes the value taken into the draft.
    set: fn(&mut shared::TaskSpec, String),
) -> impl IntoView {
    let cx = FormCx::use_context();
    view! {
        <span class="name-fix" data-testid=test_id hidden=move || made.with(Option::is_none)>
            <button type="button" data-testid=format!("{test_id}-use") on:click=move |_| {
                if let Some(take) = made.get_untracked() {
                    cx.edit(path, move |s| set(s, take));
                    cx.focus_control(path);
                }
            }>{move || made.with(|m| m.as_ref().map(|value| text(cx.lang(), key.get(), &[(arg, value.clone())])))}</button>
        </span>
    }
}

/// The text a paste brings.
pub(super) fn pasted(ev: &leptos::ev::ClipboardEvent) -> Option<String> {
    ev.clipboard_data()?.get_data("text").ok()
}

/// A number as pasted text may write it, in the characters a number box takes: dashes
/// and minus signs as `-`, full-width digits, signs and points as ASCII, blanks left
/// out (`— 1`, `1 000`).
fn plain_number(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{fe63}' | '\u{ff0d}' => '-',
            '\u{ff0b}' => '+',
            '\u{ff0e}' => '.',
            '\u{ff10}'..='\u{ff19}' => char::from(b'0' + (u32::from(c) - 0xff10) as u8),
            c => c,
        })
        .collect()
}

/// What kind of control a field is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// One line of text.
    Text,
    /// A whole number.
    Number,
    /// Several lines (command, runtime env).
    Area,
    /// Text that stays masked (a hidden env value).
    Secret,
}

impl Control {
    fn input_type(self) -> &'static str {
        match self {
            Control::Number => "number",
            Control::Secret => "password",
            Control::Text | Control::Area => "text",
        }
    }
}

/// The name of a control in a row of a list, for assistive technology: its label
/// repeats in every row ("Name", "Name"), so it is named as the summary places it
/// ("Environment variables #2 › Name"), which holds the label (keyboard explorer).
fn row_name(cx: FormCx, path: &str) -> Option<Signal<String>> {
    path.contains('[').then(|| {
        let path = path.to_owned();
        Signal::derive(move || crate::components::field_place(cx.lang(), &path))
    })
}

/// Wires the shared parts of a field: whether it has findings and the ids that
/// describe it.
struct Described {
    id: String,
    help_id: String,
    msgs_id: String,
    findings: Signal<Vec<Issue>>,
    /// The group this is a control of: its findings' list id and its findings.
    group: Option<(String, Signal<Vec<Issue>>)>,
}

impl Described {
    fn new(cx: FormCx, path: &str, under: bool) -> Self {
        let id = cx.control_id(path);
        Described {
            help_id: format!("{id}-help"),
            msgs_id: format!("{id}-msgs"),
            id,
            findings: cx.findings_at(path, under),
            group: None,
        }
    }

    /// A control of `group` (a tag row, the autoscaling range), whose findings describe
    /// it too; the summary sends the focus for them to the group's first control.
    fn first_of(mut self, cx: FormCx, group: Option<&str>) -> Self {
        self.group = group.map(|g| {
            (
                format!("{}-msgs", cx.control_id(g)),
                cx.findings_at(g, false),
            )
        });
        self
    }

    /// `aria-required` while the rules say `value.required` of the field blank
    /// ([`shared::validate::required`]); no attribute for a field that may be left so.
    fn required(cx: FormCx, path: &str) -> Signal<Option<&'static str>> {
        use shared::validate::Required;
        match shared::validate::required(&bare(path)) {
            None => Signal::stored(None),
            Some(Required::Always) => Signal::stored(Some("true")),
            Some(when) => cx.watch(move |s| when.of(s).then_some("true")),
        }
    }

    fn invalid(&self) -> Signal<&'static str> {
        let findings = self.findings;
        let group = self.group.as_ref().map(|(_, f)| *f);
        let error = |f: &Vec<Issue>| f.iter().any(|i| i.severity == shared::Severity::Error);
        Signal::derive(move || {
            if findings.with(error) || group.is_some_and(|g| g.with(error)) {
                "true"
            } else {
                "false"
            }
        })
    }

    // The findings (the field's, then its group's) before the help: what is wrong is what
    // a reader came back to hear, and it came after a long help text (screen-reader
    // explorer).
    fn described_by(&self, help: bool) -> String {
        let mut said = self.msgs_id.clone();
        if let Some((group, _)) = &self.group {
            said = format!("{said} {group}");
        }
        if help {
            said = format!("{said} {}", self.help_id);
        }
        said
    }
}

/// The findings under a control, styled by severity.
#[component]
pub fn Findings(
    /// The list's id, which the control's `aria-describedby` names.
    id: String,
    /// The findings.
    #[prop(into)]
    findings: Signal<Vec<Issue>>,
    /// Each line names its field first: for findings about fields that have no control
    /// of their own on screen.
    #[prop(optional)]
    named: bool,
    /// The field's path, when it shows findings beneath it too (the runtime env's): each
    /// of those names where it is beneath it first (`env_vars.A`), or three findings
    /// about three keys would read the same.
    #[prop(default = None)]
    base: Option<String>,
    /// Unspoken while the focus is in the field (a box of several lines), even once
    /// typing pauses, as a one-line field's are said: a runtime env's YAML error names
    /// the column typed at, so each keystroke spoke a new one (screen-reader explorer:
    /// 14 announcements in 23 keystrokes). The control's description still reads them,
    /// and the form's summary counts them.
    #[prop(optional)]
    quiet_while_in: bool,
) -> impl IntoView {
    let cx = FormCx::use_context();
    let list = NodeRef::<leptos::html::Ul>::new();
    let quiet = RwSignal::new(false);
    // While the user is in the field, its findings keep the lines the most of them took:
    // a name that breaks two rules at one keystroke and one at the next would otherwise
    // move the rest of the form by a line at every keystroke. The lines are given back
    // when the focus leaves the field (its `.field` or list, the findings' parent).
    let held = StoredValue::new(1_usize);
    // And the height they took, in pixels: in a narrow form a finding's text wraps onto
    // more lines than one, and a shorter one replacing it moved the form up while the
    // user was still typing.
    let tallest = StoredValue::new(0.0_f64);
    // Counts the times the room was given back: a height measured after one (the focus
    // left for another field of the section meanwhile) is not held again.
    let given_back = StoredValue::new(0_u32);
    let owned = StoredValue::new(false);
    pointer::watch();
    let hold = move |ul: &web_sys::HtmlElement, count: usize, inside: bool| {
        // A view built again in place (a spec row's, when a spec moves) hands this list
        // the element of the one before it, with the room that one held: kept, an empty
        // band of three lines stayed under the spec moved up (narrow-screen explorer).
        if !owned.get_value() {
            owned.set_value(true);
            let _ = ul.style().remove_property("--held");
            let _ = ul.style().remove_property("min-height");
            let _ = ul.class_list().remove_1("held");
        }
        let lines = if inside {
            held.get_value().max(count)
        } else {
            count
        }
        .max(1);
        if lines != held.get_value() {
            held.set_value(lines);
            let _ = ul.style().set_property("--held", &lines.to_string());
        }
        if !inside && tallest.get_value() > 0.0 {
            tallest.set_value(0.0);
            let _ = ul.style().remove_property("min-height");
            let _ = ul.class_list().remove_1("held");
        }
        if !inside {
            given_back.update_value(|n| *n = n.wrapping_add(1));
        }
    };
    let within = |ul: &web_sys::HtmlElement, node: Option<web_sys::Node>| {
        node.is_some_and(|node| ul.parent_node().is_some_and(|p| p.contains(Some(&node))))
    };
    // Held too while the user types in another field of its section: the workers typed
    // one digit at a time (2, 20, 200, 2000) made the specs' quota findings come and go
    // just below, moving the rest of the form at each keystroke. Given back when the
    // focus moves, as the field's own.
    let near = |ul: &web_sys::HtmlElement, node: Option<web_sys::Node>| {
        node.is_some_and(|node| {
            ul.closest("fieldset.section")
                .ok()
                .flatten()
                .is_some_and(|section| section.contains(Some(&node)))
        })
    };
    // Measured two frames after a change, when the form has been laid out and painted:
    // read on the keystroke, the height would force a layout of its own.
    let measure = move || {
        let asked = given_back.get_value();
        request_animation_frame(move || {
            request_animation_frame(move || {
                let Some(ul) = list.try_get_untracked().flatten() else {
                    return;
                };
                if given_back.try_get_value() != Some(asked)
                    || !near(&ul, document().active_element().map(web_sys::Node::from))
                {
                    return;
                }
                // Not `offsetHeight`, rounded: a fraction of a pixel less moves the form.
                let height = ul.get_bounding_client_rect().height();
                if height > tallest.get_value() {
                    tallest.set_value(height);
                    // The browser writes the number: Rust's float formatting is not in
                    // the console's wasm, and would add kilobytes for this one use.
                    let px = js_sys::Number::from(height)
                        .to_string_with_radix(10)
                        .map(String::from)
                        .unwrap_or_default();
                    let style = web_sys::HtmlElement::style(&ul);
                    let _ = style.set_property("min-height", &format!("{px}px"));
                    // Said by a class, not read off the style attribute by CSS: a
                    // selector on `style` cost every keystroke's restyle (bench, 4 ×).
                    let _ = ul.class_list().add_1("held");
                }
            });
        });
    };
    // The room the findings take as the focus comes: the first keystroke's change is
    // measured after it, and a finding shown before any edit (a clone's, a restored
    // draft's) that the keystroke shortened moved the form up (reflow explorer).
    let enter = window_event_listener(leptos::ev::focusin, move |_| {
        if tallest.get_value() > 0.0 || findings.with_untracked(Vec::is_empty) {
            return;
        }
        if let Some(ul) = list.get_untracked()
            && near(&ul, document().active_element().map(web_sys::Node::from))
        {
            measure();
        }
    });
    on_cleanup(move || enter.remove());
    let leave = window_event_listener(leptos::ev::focusout, move |ev| {
        let Some(ul) = list.get_untracked() else {
            return;
        };
        let to = ev
            .related_target()
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok());
        if (held.get_value() <= 1 && tallest.get_value() == 0.0) || within(&ul, to) {
            return;
        }
        if !pointer::pressed() {
            hold(&ul, findings.with_untracked(Vec::len), false);
            return;
        }
        // A press moved the focus: the lines stay until its click has landed, or the
        // form would move up under the pointer between mousedown and mouseup and the
        // click on the control just below would be lost.
        pointer::after_press(move || {
            let Some(ul) = list.try_get_untracked().flatten() else {
                return;
            };
            let active = document().active_element().map(web_sys::Node::from);
            if !within(&ul, active)
                && let Some(count) = findings.try_with_untracked(Vec::len)
            {
                hold(&ul, count, false);
            }
        });
    });
    on_cleanup(move || leave.remove());
    // Unspoken too while the focus is in another field of the form: a spec's three quota
    // findings were spoken again at each arrow step in the workers box (screen-reader
    // explorer: 40 words a press, falling behind the value). The plan's verdict says
    // what the change did; the control's description reads them when it is reached.
    let within_list =
        move |node: Option<web_sys::Node>| list.get_untracked().is_some_and(|ul| within(&ul, node));
    let quieten = window_event_listener(leptos::ev::focusin, move |_| {
        let active = document().active_element();
        let inside = within_list(active.clone().map(web_sys::Node::from));
        quiet.set(if inside {
            true
        } else {
            active.is_some_and(|a| is_control_of(&a, list.get_untracked()))
        });
    });
    on_cleanup(move || quieten.remove());
    let speak = window_event_listener(leptos::ev::focusout, move |ev| {
        // Out of the page, or to no control: said again.
        if ev.related_target().is_none() {
            quiet.set(false);
        }
    });
    on_cleanup(move || speak.remove());
    // A one-line field's findings are said once typing pauses, while the focus is in it,
    // and only when they say something new: spoken at each key, a finding true only
    // halfway through a word ("not '-'" at each hyphen) came and went, and one counting
    // the characters was said again at each ("is 49 characters", "is 50…": keyboard
    // explorer). A box of several lines says nothing while typed in.
    let speaker = NodeRef::<leptos::html::P>::new();
    let spoken = StoredValue::new(String::new());
    let pause = crate::components::Pause::new();
    let speak_soon = move || {
        pause.then(move || {
            let (Some(Some(ul)), Some(Some(says))) =
                (list.try_get_untracked(), speaker.try_get_untracked())
            else {
                return;
            };
            // One sentence each: their texts ran together ("…312 shorterror needs…",
            // keyboard recheck).
            let items = ul.children();
            let stop = if untrack(|| cx.lang()) == shared::Lang::Zh {
                "。"
            } else {
                ". "
            };
            let said = (0..items.length())
                .filter_map(|i| items.item(i)?.text_content())
                .collect::<Vec<_>>()
                .join(stop);
            if spoken.try_with_value(|was| *was != said) == Some(true) {
                says.set_text_content(Some(&said));
                spoken.try_set_value(said.clone());
                // Heard, then gone: left in the page, a finding mended since was read
                // by a reader browsing past it (keyboard recheck).
                set_timeout(
                    move || {
                        if let Some(Some(speaker)) = speaker.try_get_untracked()
                            && speaker.text_content().as_ref() == Some(&said)
                        {
                            speaker.set_text_content(None);
                        }
                    },
                    std::time::Duration::from_secs(5),
                );
            }
        });
    };
    view! {
        <ul class="findings" id=id aria-live=move || if quiet.get() { "off" } else { "polite" } node_ref=list>
            {move || {
                let shown = findings.get();
                if let Some(ul) = list.get_untracked() {
                    let active = document().active_element().map(web_sys::Node::from);
                    if !quiet_while_in && within(&ul, active.clone()) {
                        speak_soon();
                    }
                    let inside = near(&ul, active);
                    hold(&ul, shown.len(), inside);
                    if inside {
                        measure();
                    }
                }
                shown
            }.into_iter().map(|issue| {
                let class = format!("finding {}", issue.severity.as_str());
                let code = issue.code.code();
                let path = issue.path.to_string();
                let field = named.then(|| {
                    let path = path.clone();
                    move || {
                        let lang = cx.lang();
                        field_place(lang, &path) + &text(lang, "ui.form.summary.after_place", &[])
                    }
                });
                let beneath = base
                    .as_deref()
                    .and_then(|w| path.strip_prefix(w))
                    .filter(|rest| rest.starts_with(['.', '[']))
                    .map(|rest| rest.trim_start_matches('.').to_owned())
                    .filter(|rest| !rest.is_empty())
                    .map(|rest| view! {
                        <code class="beneath">{rest}</code>
                        {move || text(cx.lang(), "ui.form.summary.after_place", &[])}
                    });
                view! {
                    <li class=class data-code=code data-path=path>
                        {crate::components::severity_badge(move || cx.lang(), issue.severity)}
                        {field}
                        {beneath}
                        {move || crate::components::issue_text(&issue, cx.lang())}
                    </li>
                }
            }).collect_view()}
        </ul>
        <p class="visually-hidden" aria-live="polite" data-testid="findings-said" node_ref=speaker></p>
    }
}

/// A labelled text, number or multi-line control at `path`.
#[component]
pub fn TextField(
    /// The field path, which is also the control's `name`.
    #[prop(into)]
    path: String,
    /// The value.
    lens: Lens,
    /// Text, number, area or secret.
    #[prop(default = Control::Text)]
    control: Control,
    /// Also show the findings beneath the path (the runtime env's keys).
    #[prop(optional)]
    under: bool,
    /// Leave out the help line (list rows, whose list has the help).
    #[prop(optional)]
    no_help: bool,
    /// Masks a text control while this holds (a hidden env value): the same control
    /// changes its type rather than being rebuilt, so it keeps its value and focus.
    #[prop(optional, into)]
    masked: Option<Signal<bool>>,
    /// The id of a `<datalist>` of suggested values (the maintained tags).
    #[prop(default = None)]
    suggest: Option<String>,
    /// The group this control is one of (a tag row, the autoscaling range): the group's
    /// findings describe it too, and make it invalid while one is an error.
    #[prop(optional, into)]
    group: Option<String>,
    /// Extra text after the control (the final name pattern).
    #[prop(optional)]
    children: Option<Children>,
    /// The id of another element about this field (the final name pattern), as in the
    /// page's first form: read out with the control's own.
    #[prop(optional_no_strip, into)]
    also_described_by: Option<&'static str>,
    /// A number box left empty takes a default (image pull retries): it is not marked
    /// required, as every other number box is, whose empty text is refused.
    #[prop(optional)]
    may_be_empty: bool,
    /// A number box's least value for its arrow keys, when not 0 (image pull retries'
    /// −1, "never trip the breaker").
    #[prop(optional)]
    min: Option<&'static str>,
) -> impl IntoView {
    let cx = FormCx::use_context();
    let d = Described::new(cx, &path, under).first_of(cx, group.as_deref());
    let (label, help) = (field_key(&path, "label"), field_key(&path, "help"));
    let describedby = match also_described_by {
        Some(more) => format!("{} {}", d.described_by(!no_help), cx.id(more)),
        None => d.described_by(!no_help),
    };
    // Its group's list named only while it says something: a group a section away (the
    // autoscaling range, for the workers box) may not be in the page at all.
    let describedby = match &d.group {
        None => Signal::stored(describedby),
        Some((list, found)) => {
            let found = *found;
            let without = describedby.replacen(&format!(" {list}"), "", 1);
            Signal::derive(move || {
                if found.with(Vec::is_empty) {
                    without.clone()
                } else {
                    describedby.clone()
                }
            })
        }
    };
    let named = row_name(cx, &path);
    let named = move || named.map(|n| n.get());
    let invalid = d.invalid();
    // A number box holds a number: empty, it "is required" (recheck explorer: Workers
    // and Units per node said so, unmarked).
    let required = if control == Control::Number && !may_be_empty {
        Signal::stored(Some("true"))
    } else {
        Described::required(cx, &path)
    };
    let touch = path.clone();
    let touch_pasted = path.clone();
    // Not while an input method composes (pinyin): its text is not the words yet, and
    // checked, `exp-shi'yan` was refused and spoken mid-word (IME explorer). The words
    // come with `compositionend`, after the last `input` of the composition.
    let on_input = move |ev: leptos::ev::Event| {
        if crate::components::composing(&ev) {
            return;
        }
        cx.touch(&touch);
        lens.set.run(event_target_value(&ev));
    };
    let on_composed = {
        let on_input = on_input.clone();
        move |ev: leptos::ev::CompositionEvent| on_input(ev.into())
    };
    // Written only when its own value changes: the lens's value is watched
    // (`FormCx::watch`), not derived from the whole draft.
    let value = lens.get;
    let node = NodeRef::<leptos::html::Input>::new();
    // A number box the user is typing in keeps their text when it reads as the value it
    // set: `2.0` as 2, and a number past the field's largest as that largest (the
    // range rule then says what is wrong), which was written over the text mid-number
    // (explorer, round 11: `50000000000` became `4294967295` after its tenth digit).
    // Written here, not by `prop:value`, which writes a value later in a queue of its
    // own, over what was typed meanwhile.
    if control == Control::Number {
        Effect::new(move |_| {
            let v = value.get();
            let Some(el) = node.get() else {
                return;
            };
            let text = el.value();
            let typing = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element())
                .is_some_and(|active| {
                    let el: &web_sys::Element = &el;
                    active == *el
                });
            if text != v && !(typing && reads_as(&text, &v)) {
                el.set_value(&v);
            }
        });
    }
    let input = if control == Control::Area {
        view! {
            <textarea id=d.id.clone() name=path.clone() aria-invalid=invalid aria-required=required aria-describedby=describedby aria-label=named
                spellcheck="false" prop:value=move || value.get() on:input=on_input on:compositionend=on_composed></textarea>
        }
        .into_any()
    } else if control == Control::Number {
        // Left (`change`), a box shows the number the form holds when its text read as
        // that number only by being past the field's largest: a field with no rule of
        // its own above would otherwise send another number than the one shown (review,
        // round 18). `2.0` stays as typed.
        let settle = move |_: leptos::ev::Event| {
            let Some(el) = node.get_untracked() else {
                return;
            };
            let (text, v) = (el.value(), value.get_untracked());
            let same = whole(&text).zip(whole(&v)).is_some_and(|(a, b)| a == b);
            if text != v && reads_as(&text, &v) && !same {
                el.set_value(&v);
            }
        };
        // A number pasted with a long dash or a minus sign for its `-` (from a chat, a
        // document) or in full-width characters is taken as the number it says: the
        // browser's box keeps only the characters it takes, and `–1` for the image pull
        // retries became 1, near the opposite of -1, without a word (pasting researcher).
        let on_paste = move |ev: leptos::ev::ClipboardEvent| {
            let Some(text) = pasted(&ev) else {
                return;
            };
            let said = plain_number(&text);
            if said == text || whole(&said).is_none() {
                return;
            }
            ev.prevent_default();
            if let Some(el) = node.get_untracked() {
                el.set_value(&said);
            }
            cx.touch(&touch_pasted);
            lens.set.run(said);
        };
        view! {
            // A number of a spec is a count, never below 0 but where said: the arrow keys
            // stopped at no end (reshaping explorer: Workers went to -1, -2…). The rules'
            // own bounds are the findings'. Digits an input method composes (full-width)
            // come with its end, as a text box's do.
            <input id=d.id.clone() name=path.clone() aria-invalid=invalid aria-required=required type=control.input_type()
                aria-describedby=describedby aria-label=named autocomplete="off" node_ref=node on:input=on_input
                on:compositionend=on_composed on:change=settle on:wheel=leave_on_wheel on:paste=on_paste min=min.unwrap_or("0") />
        }
        .into_any()
    } else {
        view! {
            <input id=d.id.clone() name=path.clone() aria-invalid=invalid aria-required=required
                type=move || if masked.is_some_and(|m| m.get()) { Control::Secret.input_type() } else { control.input_type() }
                aria-describedby=describedby aria-label=named autocomplete="off" list=suggest
                prop:value=move || value.get() on:input=on_input on:compositionend=on_composed />
        }
        .into_any()
    };
    let help_view = (!no_help).then(|| {
        view! { <p class="help" id=d.help_id.clone()>{move || cx.text(&help)}</p> }
    });
    view! {
        <div class="field" data-field=path.clone()>
            <label for=d.id.clone()>{move || cx.text(&label)}</label>
            {input}
            {children.map(|c| c())}
            {help_view}
            <Findings id=d.msgs_id.clone() findings=d.findings base=under.then(|| path.clone())
                quiet_while_in=control == Control::Area />
        </div>
    }
}

/// A wheel over a focused number box scrolls the page, not the number: Chromium turns a
/// focused box's number by a step at each notch, and a reader scrolling past Workers set
/// it from 2 to 5 unknowing (Ray recheck). The box lets go of the focus first, and the
/// wheel then scrolls, as over any other box.
fn leave_on_wheel(ev: leptos::ev::WheelEvent) {
    let Some(target) = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    let focused = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .is_some_and(|active| {
            let active: &web_sys::Element = &active;
            let target: &web_sys::Element = &target;
            active == target
        });
    if focused {
        let _ = target.blur();
    }
}

/// The findings of a group of fields as a whole, which no one control owns (a tag row
/// that is not a maintained tag, the autoscaling range); they show once a field in the
/// group was edited, and the summary sends the focus to the group's first control.
#[component]
pub fn GroupFindings(
    /// The group's path.
    #[prop(into)]
    path: String,
    /// While the focus is in the group, its findings are held back, unless they were
    /// shown as the focus came: a pair half typed is no finding yet. Shown once the focus
    /// has left (after a press's click has landed, so nothing moves under it).
    #[prop(optional, into)]
    held_while_in: Option<Signal<bool>>,
) -> impl IntoView {
    let cx = FormCx::use_context();
    let id = format!("{}-msgs", cx.control_id(&path));
    let findings = cx.findings_at(&path, false);
    let findings = match held_while_in {
        Some(inside) => {
            // Whether they were shown as the focus came into the group.
            let shown_on_entry = StoredValue::new(false);
            Signal::derive(move || {
                if !inside.get() {
                    shown_on_entry.set_value(findings.with(|f| !f.is_empty()));
                    return findings.get();
                }
                if shown_on_entry.get_value() {
                    findings.get()
                } else {
                    Vec::new()
                }
            })
        }
        None => findings,
    };
    view! { <Findings id findings /> }
}

/// A labelled checkbox at `path`.
#[component]
pub fn CheckField(
    /// The field path, which is also the control's `name`.
    #[prop(into)]
    path: String,
    /// Whether it is on, tracked.
    #[prop(into)]
    get: Signal<bool>,
    /// Stores a new value.
    set: Callback<bool>,
    /// Leave out the help line.
    #[prop(optional)]
    no_help: bool,
) -> impl IntoView {
    let cx = FormCx::use_context();
    let d = Described::new(cx, &path, false);
    let (label, help) = (field_key(&path, "label"), field_key(&path, "help"));
    let touch = path.clone();
    let named = row_name(cx, &path);
    let help_view = (!no_help).then(|| {
        view! { <p class="help" id=d.help_id.clone()>{move || cx.text(&help)}</p> }
    });
    let checked = Memo::new(move |_| get.get());
    view! {
        <div class="field check" data-field=path.clone()>
            <input type="checkbox" id=d.id.clone() name=path.clone() aria-invalid=d.invalid()
                aria-describedby=d.described_by(!no_help) aria-label=move || named.map(|n| n.get())
                prop:checked=move || checked.get()
                on:change=move |ev| {
                    cx.touch(&touch);
                    set.run(event_target_checked(&ev));
                } />
            <label for=d.id.clone()>{move || cx.text(&label)}</label>
            {help_view}
            <Findings id=d.msgs_id.clone() findings=d.findings />
        </div>
    }
}

/// A labelled choice at `path`; the empty value is "choose…".
#[component]
pub fn SelectField(
    /// The field path, which is also the control's `name`.
    #[prop(into)]
    path: String,
    /// The value.
    lens: Lens,
    /// `(value, shown text)` pairs, tracked.
    #[prop(into)]
    options: Signal<Vec<(String, String)>>,
    /// Offer no "choose…" entry (a choice that always has a value).
    #[prop(optional)]
    required: bool,
    /// What the empty choice means, when it is not "choose…" (a default Berth picks).
    #[prop(optional, into)]
    empty_text: Option<Signal<String>>,
    /// Leave out the help line.
    #[prop(optional)]
    no_help: bool,
    /// The id of another element about this choice (the findings about the fields the
    /// chosen kind does not use, a note), as in the page's first form: read out with the
    /// control's own.
    #[prop(optional)]
    also_described_by: Option<&'static str>,
    /// The control's name for assistive technology when its label alone is not enough
    /// (a row of a list whose labels repeat: which row it is).
    #[prop(optional, into)]
    aria_label: Option<Signal<String>>,
    /// How a value the options no longer hold is named (a spec a pool's switch left in
    /// the list, by its catalog name); as written otherwise.
    #[prop(optional)]
    kept_name: Option<fn(FormCx, &str) -> String>,
) -> impl IntoView {
    let cx = FormCx::use_context();
    let d = Described::new(cx, &path, false);
    let (label, help) = (field_key(&path, "label"), field_key(&path, "help"));
    let touch = path.clone();
    let help_view = (!no_help).then(|| {
        view! { <p class="help" id=d.help_id.clone()>{move || cx.text(&help)}</p> }
    });
    let described_by = match also_described_by {
        Some(more) => format!("{} {}", d.described_by(!no_help), cx.id(more)),
        None => d.described_by(!no_help),
    };
    let aria_label = aria_label.or_else(|| row_name(cx, &path));
    // The options may derive from the draft: memoized, they are rebuilt only when they
    // or the choice really change, not per keystroke.
    let value = lens.get;
    let options = Memo::new(move |_| options.get());
    view! {
        <div class="field" data-field=path.clone()>
            <label for=d.id.clone()>{move || cx.text(&label)}</label>
            <select id=d.id.clone() name=path.clone() aria-invalid=d.invalid()
                aria-required=Described::required(cx, &path)
                aria-describedby=described_by aria-label=move || aria_label.map(|l| l.get())
                on:change=move |ev| {
                    cx.touch(&touch);
                    lens.set.run(event_target_value(&ev));
                }>
                {(!required).then(|| view! {
                    <option value="" prop:selected=move || value.with(String::is_empty)>{move || empty_text.map_or_else(|| cx.text("ui.form.choose"), |t| t.get())}</option>
                })}
                {move || {
                    let current = value.get();
                    let mut options = options.get();
                    // A value the catalog does not offer (an import, a clone) stays
                    // visible, so the finding about it has something to point at.
                    if !current.is_empty() && !options.iter().any(|(v, _)| *v == current) {
                        let shown = kept_name.map_or_else(|| current.clone(), |name| name(cx, &current));
                        options.push((current.clone(), shown));
                    }
                    options.into_iter().map(|(value, shown)| {
                        let selected = value == current;
                        // The property, not the attribute: once the user has picked,
                        // the attribute no longer moves the selection.
                        view! { <option value=value prop:selected=selected>{shown}</option> }
                    }).collect_view()
                }}
            </select>
            {help_view}
            <Findings id=d.msgs_id.clone() findings=d.findings />
        </div>
    }
}

/// Whether `element` is a control of the spec ([`names_a_field`]) in the form `list` is
/// in.
fn is_control_of(element: &web_sys::Element, list: Option<web_sys::HtmlUListElement>) -> bool {
    let named = names_a_field(element);
    let form = |e: &web_sys::Element| e.closest(".task-form").ok().flatten();
    named
        && matches!(element.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA")
        && list.is_some_and(|ul| form(&ul).is_some_and(|f| form(element).as_ref() == Some(&f)))
}

/// Whether `element` is named by a field path of the spec: the import box is named too,
/// but its refusal is said under it, and the spec it brings is new throughout.
pub(super) fn names_a_field(element: &web_sys::Element) -> bool {
    element
        .get_attribute("name")
        .is_some_and(|name| !name.is_empty() && name != "import")
}
