//! Component tests in headless Chromium: mount the real components, act, assert on the DOM.
//!
//! One module per page or editor; each mounts into its own element.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod form;
mod nav;
mod pages;

/// Waits `ms` milliseconds (timers, not microtasks, run meanwhile).
async fn sleep(ms: i32) {
    let wait = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(wait).await.unwrap();
}

/// Waits until the browser has painted a frame and run the task after it, where the
/// findings summary's list follows the report (`components::report`).
async fn after_paint() {
    let wait = js_sys::Promise::new(&mut |resolve, _| {
        let window = web_sys::window().unwrap();
        let later = wasm_bindgen::closure::Closure::once_into_js(move || {
            web_sys::window()
                .unwrap()
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0)
                .unwrap();
        });
        window
            .request_animation_frame(wasm_bindgen::JsCast::unchecked_ref(&later))
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(wait).await.unwrap();
    leptos::task::tick().await;
}

/// No draft saved by an earlier test, in this tab's storage or the browser's.
fn forget_drafts() {
    let window = web_sys::window().unwrap();
    for storage in [window.session_storage(), window.local_storage()] {
        let storage = storage.unwrap().unwrap();
        // The form's draft, and the clones' (`<key>.clone.<id>`).
        let keys: Vec<String> = (0..storage.length().unwrap())
            .filter_map(|i| storage.key(i).unwrap())
            .filter(|k| k.starts_with(frontend::form::draft::DRAFT_KEY))
            .collect();
        for key in keys {
            storage.remove_item(&key).unwrap();
        }
    }
}

/// A new element at the end of the page for a test to mount into.
fn new_host() -> web_sys::HtmlElement {
    use wasm_bindgen::JsCast;
    let document = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    host.set_attribute("data-test-host", "").unwrap();
    document.body().unwrap().append_child(&host).unwrap();
    host
}

/// Undoes what a test that failed midway left on the page, since its ending never ran (a
/// panic in wasm stops the test where it is, destructors and all): its views (out of the
/// page, where their refreshes would move the next test's layout), the real `fetch` and
/// `EventSource`, no press under way, and the runner's own address,
/// which it returns for the test to put back when it ends. A view left so still runs
/// unseen: a page's poll can reach the next test's held requests, so one failure may
/// still fail the test after it.
fn fresh_page() -> String {
    js_sys::eval(
        "document.querySelectorAll('[data-test-host]').forEach((host) => host.remove());
         if (window.__realFetch) window.fetch = window.__realFetch;
         if (window.__RealEventSource) window.EventSource = window.__RealEventSource;
         window.dispatchEvent(new MouseEvent('mouseup'));
         window.__startAddress = window.__startAddress || location.href;
         if (location.href !== window.__startAddress)
             history.replaceState(null, '', window.__startAddress);
         window.__startAddress",
    )
    .unwrap()
    .as_string()
    .unwrap()
}

/// Each node's `attribute` (an option's `value`), in order; empty where it has none.
fn attribute_of_each(nodes: &web_sys::NodeList, attribute: &str) -> Vec<String> {
    use wasm_bindgen::JsCast;
    (0..nodes.length())
        .filter_map(|i| nodes.item(i))
        .map(|node| {
            node.unchecked_into::<web_sys::Element>()
                .get_attribute(attribute)
                .unwrap_or_default()
        })
        .collect()
}

/// The console's sheets as a reader whose system asks for a dark scheme gets them: the
/// test browser's scheme is light, so the scheme's query is made to hold. Remove it when
/// done.
fn dark_style() -> web_sys::Element {
    let sheets = concat!(
        include_str!("../../../public/berth.css"),
        include_str!("../../../public/form.css"),
        include_str!("../../../public/pages.css")
    );
    let dark = "@media (prefers-color-scheme: dark)";
    assert!(sheets.contains(dark), "the console has a dark scheme");
    let document = web_sys::window().unwrap().document().unwrap();
    let style = document.create_element("style").unwrap();
    style.set_text_content(Some(&sheets.replace(dark, "@media all")));
    document.head().unwrap().append_child(&style).unwrap();
    style
}

/// The texts drawn under `host` (an element's own text, a control's value) whose colour
/// is less than `ratio`:1 against what they are drawn on (WCAG 1.4.3, the backgrounds
/// behind them composed up to the page's, the text faded by its opacity), each as
/// `tag.class "text" ratio`. Disabled (or `aria-disabled`)
/// controls, which WCAG exempts, and visually hidden text are left out.
fn low_contrast(host: &web_sys::Element, ratio: f64) -> Vec<String> {
    let check = js_sys::Function::new_with_args(
        "host, ratio",
        r#"
        const parse = (c) => {
            const m = /rgba?\(([^)]+)\)/.exec(c);
            if (!m) return null;
            const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
            return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
        };
        const lum = (c) => {
            const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
            return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
        };
        const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
        const behind = (el) => {
            const layers = [];
            for (let e = el; e; e = e.parentElement) {
                const c = parse(getComputedStyle(e).backgroundColor);
                if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
            }
            return layers.reduceRight((under, top) => over(top, under), [255, 255, 255, 1]);
        };
        const out = [];
        for (const el of host.querySelectorAll('*')) {
            if (el.closest('.visually-hidden, [hidden], option, datalist, [aria-disabled=true]') || el.matches(':disabled')) continue;
            const control = el.matches('input:not([type=checkbox]):not([type=radio]):not([type=file]), select, textarea');
            const text = control ? (el.value || '') :
                [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
            const rect = el.getBoundingClientRect();
            if (!text || rect.width === 0 || rect.height === 0) continue;
            const style = getComputedStyle(el);
            if (style.visibility === 'hidden') continue;
            const bg = behind(el);
            // Faded by its own opacity and its ancestors' (a count kept while new ones come).
            const color = parse(style.color);
            for (let e = el; e; e = e.parentElement) color[3] *= Number(getComputedStyle(e).opacity);
            const ink = over(color, bg);
            const [a, b] = [lum(ink), lum(bg)].sort((x, y) => y - x);
            const r = (a + 0.05) / (b + 0.05);
            if (r < ratio) out.push(`${el.tagName.toLowerCase()}.${el.className} "${text.slice(0, 40)}" ${r.toFixed(2)}`);
        }
        return out;
        "#,
    );
    let found = check
        .call2(
            &wasm_bindgen::JsValue::NULL,
            host,
            &wasm_bindgen::JsValue::from_f64(ratio),
        )
        .unwrap();
    js_sys::Array::from(&found)
        .iter()
        .filter_map(|v| v.as_string())
        .collect()
}
