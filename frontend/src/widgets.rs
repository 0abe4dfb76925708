//! The console's pieces for other pages: `mountTaskForm` puts the create form into any
//! element of a portal, submitting to a Berth server.
//!
//! ```js
//! import init, { mountTaskForm } from "https://berth.example.com/berth-frontend.js";
//! await init();
//! const form = await mountTaskForm(document.getElementById("task-form"), {
//!   apiBase: "https://berth.example.com", // default: this page's origin
//!   locale: "zh-CN",                      // or "en" (any tag of either; another's is English); default: the browser's
//!   catalog: undefined,                   // a GET /api/v1/catalog answer; default: fetched
//!   onSubmit: (task) => console.log(task.id), // the created task (a TaskView)
//! });
//! form.unmount();
//! ```

use crate::api;
use crate::form::TaskForm;
use crate::i18n::UiLang;
use leptos::prelude::*;
use shared::Lang;
use shared::api::{CatalogResponse, TaskView};
use wasm_bindgen::prelude::*;

// `mountTaskForm`'s options for TypeScript (`berth-frontend.d.ts`): without them a portal
// had `any` and learnt a misspelt option only from the refusal at run time.
#[wasm_bindgen(typescript_custom_section)]
const MOUNT_OPTIONS: &str = r#"
/** `mountTaskForm`'s options; each may be left out. */
export interface MountOptions {
  /** Berth's address (`https://berth.example.com`, or a path of this site); default: this page's origin. */
  apiBase?: string;
  /** `"en"` or `"zh-CN"` (any tag of either, as `navigator.language` gives it); default: the browser's. */
  locale?: string;
  /** A `GET /api/v1/catalog` answer, whole; default: fetched from `apiBase`. */
  catalog?: object;
  /** Called once for each task the form creates, with the task as the server answered (`id`, `phase`, …). */
  onSubmit?: (task: any) => void;
}
"#;

/// `mountTaskForm`'s options, as JavaScript passes them.
#[derive(Default)]
struct Options {
    api_base: Option<String>,
    locale: Option<Lang>,
    catalog: Option<CatalogResponse>,
}

impl Options {
    /// The options from their JSON text: each known one optional (absent or `null`),
    /// any other name refused, so a misspelt option is not silently ignored. The
    /// catalog is read by `shared::read`, as the console reads it from the server,
    /// rather than by a second, derived reader.
    fn read(text: &str) -> Result<Options, String> {
        use serde_json::Value;
        let Value::Object(given) = shared::read::from_json(text).map_err(|e| e.to_string())? else {
            return Err("must be an object".to_owned());
        };
        let mut options = Options::default();
        for (name, value) in given {
            if value.is_null() {
                continue;
            }
            match (name.as_str(), value) {
                // An address the browser would take as a path of the page's own site
                // (`127.0.0.1:8080`, no scheme) was fetched there, and the refusal
                // named an address never tried (console exploration). Empty is the
                // page's own site, as when it is left out.
                ("apiBase", Value::String(base)) if base.is_empty() => {}
                ("apiBase", Value::String(base)) => {
                    let lower = base.to_ascii_lowercase();
                    if !(lower.starts_with("http://")
                        || lower.starts_with("https://")
                        || base.starts_with('/'))
                    {
                        return Err(format!(
                            "apiBase must start with http:// or https:// (or be a path of this site, starting with /), not \"{base}\""
                        ));
                    }
                    options.api_base = Some(base);
                }
                // Another language's tag is English, as the API reads it: a portal passing
                // `navigator.language` was refused for a `de-DE` browser (portal explorer).
                ("locale", Value::String(locale)) => {
                    options.locale = Some(Lang::from_tag(&locale).unwrap_or(Lang::En));
                }
                ("apiBase" | "locale", _) => return Err(format!("{name} must be a string")),
                // JSON drops functions: an `onSubmit` that came through is not one.
                ("onSubmit", _) => return Err("onSubmit must be a function".to_owned()),
                ("catalog", catalog) => {
                    // The validator package's `catalog` is this answer's field of that
                    // name: passed here, it was refused with no word of the mix-up.
                    let hint = if catalog.get("regions").is_some() && catalog.get("user").is_none()
                    {
                        "; it is the whole answer of GET /api/v1/catalog (user, catalog, usage, …), not its `catalog`"
                    } else {
                        ""
                    };
                    let catalog = shared::read::from_json(&catalog.to_string())
                        .map_err(|e| format!("catalog: {e}{hint}"))?;
                    options.catalog = Some(catalog);
                }
                _ => return Err(unknown_option(&name)),
            }
        }
        Ok(options)
    }
}

/// The options [`mount_task_form`] takes.
const OPTIONS: [&str; 4] = ["apiBase", "locale", "catalog", "onSubmit"];

fn unknown_option(name: &str) -> String {
    format!("unknown option `{name}`, expected apiBase, locale, catalog or onSubmit")
}

/// Marks an element that holds a mounted form.
const MOUNTED: &str = "data-berth-form";

/// A form in the page, until it is unmounted.
struct Mounted {
    number: u64,
    element: web_sys::HtmlElement,
    /// The element's `lang` before the form set its own, given back when it goes.
    lang_before: Option<String>,
    /// `None` until the form is shown: an unmount meanwhile (React's StrictMode
    /// mounts, unmounts and mounts again at once) cancels the mount.
    view: Option<leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>>,
}

thread_local! {
    /// The forms mounted and not yet unmounted. Held here, not by their handles: a portal
    /// that kept no handle (`await mountTaskForm(…)` in a click handler) saw its form
    /// vanish seconds later, while the user filled it in, when the browser collected the
    /// handle (embedding test).
    static MOUNTED_FORMS: std::cell::RefCell<Vec<Mounted>> =
        const { std::cell::RefCell::new(Vec::new()) };
    static HANDLES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Takes out of the page the mounted form `which` picks, if any: its element is then as
/// it was before the mount.
fn unmount_where(which: impl Fn(&Mounted) -> bool) {
    let mounted =
        MOUNTED_FORMS.with_borrow_mut(|all| all.iter().position(&which).map(|at| all.remove(at)));
    // Dropped out of the borrow: a form's cleanup may run code that mounts.
    let Some(mounted) = mounted else {
        return;
    };
    let element = mounted.element.clone();
    let lang_before = mounted.lang_before.clone();
    drop(mounted);
    let _ = element.remove_attribute(MOUNTED);
    let _ = match lang_before {
        Some(lang) => element.set_attribute("lang", &lang),
        None => element.remove_attribute("lang"),
    };
}

/// A mounted form; `unmount()` takes it out of the page. The form stays until then (or
/// `unmountTaskForm(element)`), whether the handle is kept or not: freeing it (`free()`,
/// or the browser collecting it) leaves the form as it is.
#[wasm_bindgen]
pub struct FormHandle {
    number: u64,
}

#[wasm_bindgen]
impl FormHandle {
    /// Takes the form out of its element.
    pub fn unmount(&mut self) {
        unmount_where(|m| m.number == self.number);
    }
}

/// Takes the form mounted in `element` out of it, for a portal that kept no handle.
/// Nothing when the element holds none.
///
/// # Errors
///
/// `element` is not an element.
#[wasm_bindgen(js_name = unmountTaskForm)]
pub fn unmount_task_form(
    #[wasm_bindgen(unchecked_param_type = "HTMLElement")] element: JsValue,
) -> Result<(), JsError> {
    let element = element_given(element, "unmountTaskForm")?;
    unmount_where(|m| m.element == element);
    Ok(())
}

/// The element `call` was given. Checked, not taken on trust: `null` (a `getElementById`
/// that found nothing) mounted nothing and said nothing, and a string was refused as if
/// the options were wrong.
fn element_given(element: JsValue, call: &str) -> Result<web_sys::HtmlElement, JsError> {
    element.dyn_into().map_err(|given| {
        JsError::new(&format!(
            "{call}: element: must be an element of the page, not {}",
            kind(&given)
        ))
    })
}

/// What a value that is not an element is, with its article: "a object" was said of
/// `[element]`, which is better named an array.
fn kind(given: &JsValue) -> &'static str {
    if given.is_null() || given.is_undefined() {
        return "nothing";
    }
    if js_sys::Array::is_array(given) {
        return "an array";
    }
    // `querySelectorAll` and `getElementsByClassName` answer these. Read by `Reflect`: an
    // object without a prototype has no `constructor`.
    let class = js_sys::Reflect::get(given, &JsValue::from_str("constructor"))
        .and_then(|class| js_sys::Reflect::get(&class, &JsValue::from_str("name")))
        .ok()
        .and_then(|name| name.as_string());
    if given.is_object() && matches!(class.as_deref(), Some("NodeList" | "HTMLCollection")) {
        return "a list of elements";
    }
    match given.js_typeof().as_string().as_deref() {
        Some("string") => "a string",
        Some("number") => "a number",
        Some("boolean") => "a boolean",
        Some("function") => "a function",
        Some("symbol") => "a symbol",
        Some("bigint") => "a bigint",
        _ => "an object",
    }
}

/// Mounts the create form into `element`. Options: `apiBase`, `locale` (`en` or
/// `zh-CN`, or any tag of either, as `navigator.language` gives it; another language's is English), `catalog` (a `GET /api/v1/catalog` answer; fetched when absent) and
/// `onSubmit`, called with the created task.
///
/// The element is checked and held when this is called, not on a later microtask as an
/// `async` export would: React's StrictMode mounts, unmounts and mounts again in one
/// synchronous run, and the unmount found nothing to cancel, the second mount was
/// refused and the first form was shown (embedding test).
///
/// # Errors
///
/// The promise is refused for options of the wrong shape, a catalog that cannot be
/// fetched, or an unmount before the form was shown, with the reason.
#[wasm_bindgen(js_name = mountTaskForm, unchecked_return_type = "Promise<FormHandle>")]
pub fn mount_task_form_js(
    #[wasm_bindgen(unchecked_param_type = "HTMLElement")] element: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "MountOptions")] options: JsValue,
) -> js_sys::Promise {
    let mounting = mount_task_form(element, options);
    wasm_bindgen_futures::future_to_promise(async move {
        mounting.await.map(JsValue::from).map_err(JsValue::from)
    })
}

/// [`mount_task_form_js`] for Rust: the element is checked and held when this is called;
/// the form is shown when the future is awaited, unless the element was unmounted
/// meanwhile. A future dropped before then lets the element go.
///
/// # Errors
///
/// As [`mount_task_form_js`].
pub fn mount_task_form(
    element: JsValue,
    options: JsValue,
) -> impl std::future::Future<Output = Result<FormHandle, JsError>> {
    let begun = begin_mount(element, options);
    async move {
        let Begun {
            mut pending,
            element,
            options,
            on_submit,
            base,
        } = begun?;
        let number = pending.number;
        let held = || MOUNTED_FORMS.with_borrow(|all| all.iter().any(|m| m.number == number));
        // Unmounted in the same run of script (StrictMode's cleanup): no catalog is asked
        // for a form that will not be shown.
        if !held() {
            return Err(JsError::new(
                "mountTaskForm: unmounted at once, before the form was shown",
            ));
        }
        // A catalog fetched here was read just now: the form does not ask again as it
        // opens. A portal's may be of any age.
        let mut read_at = None;
        let session = match options.catalog {
            Some(session) => session,
            // The address tried is named, and without `apiBase` that it was this page's
            // site: "cannot reach the server" alone left a portal's developer guessing
            // which.
            None => api::fetch_catalog(&base).await.map_err(|e| {
                if !held() {
                    return cancelled();
                }
                // In English, as every refusal of the mount's: they are for the portal's
                // developer, and the hints beside this one are (embedding test: half
                // Chinese under `locale: "zh-CN"`).
                let said = e.localized(Lang::En);
                let mut tried = base.url("/api/v1/catalog");
                if tried.starts_with('/') {
                    let origin = web_sys::window().and_then(|w| w.location().origin().ok());
                    tried = format!("{}{tried}", origin.unwrap_or_default());
                }
                let hint = if options.api_base.is_none() {
                    "; without apiBase the form asks this page's site: set apiBase to Berth's address"
                } else {
                    ""
                };
                JsError::new(&format!(
                    "mountTaskForm: catalog: {said} (GET {tried}{hint})"
                ))
            })
            .inspect(|_| read_at = Some(js_sys::Date::now()))?,
        };
        if !held() {
            return Err(cancelled());
        }
        let handle = show(element, options.locale, base, on_submit, session, read_at);
        MOUNTED_FORMS.with_borrow_mut(|all| {
            if let Some(mounted) = all.iter_mut().find(|m| m.number == number) {
                mounted.view = Some(handle);
            }
        });
        pending.shown = true;
        Ok(FormHandle { number })
    }
}

fn cancelled() -> JsError {
    JsError::new(
        "mountTaskForm: unmounted while the catalog was fetched, before the form was shown",
    )
}

/// A mount whose element is held. Dropped before its form is shown (a refused catalog,
/// a future never awaited), it lets the element go.
struct Pending {
    number: u64,
    shown: bool,
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.shown {
            let number = self.number;
            unmount_where(|m| m.number == number);
        }
    }
}

/// What a mount checked and holds, before its catalog is at hand.
struct Begun {
    pending: Pending,
    element: web_sys::HtmlElement,
    options: Options,
    on_submit: Option<js_sys::Function>,
    base: api::Base,
}

/// The checks a mount makes at once, and its hold on the element: a second mount
/// meanwhile is refused, and an unmount meanwhile cancels this one.
fn begin_mount(element: JsValue, options: JsValue) -> Result<Begun, JsError> {
    let element = element_given(element, "mountTaskForm")?;
    // HTML has no form in a form: the browser would drop the inner `<form>` and this
    // form's submit would send the outer one (embedding test: in another form's fieldset).
    if element.closest("form").ok().flatten().is_some() {
        return Err(JsError::new(
            "mountTaskForm: element: it is inside a <form>, which cannot hold another; mount the form outside it",
        ));
    }
    // A second form in one element would stand below the first, both live.
    if element.has_attribute(MOUNTED) {
        return Err(JsError::new(
            "mountTaskForm: element: it holds a form already; unmount that one first",
        ));
    }
    let on_submit = (!options.is_undefined() && !options.is_null())
        .then(|| js_sys::Reflect::get(&options, &JsValue::from_str("onSubmit")).ok())
        .flatten()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    // A misspelt `onSubmit` (`onsubmit`) holds a function, which JSON drops before
    // `Options::read` could name it: it was accepted and never called (embedding test).
    if let Some(object) = options
        .dyn_ref::<js_sys::Object>()
        .filter(|_| !js_sys::Array::is_array(&options))
    {
        for name in js_sys::Object::keys(object)
            .iter()
            .filter_map(|k| k.as_string())
        {
            if !OPTIONS.contains(&name.as_str()) {
                return Err(JsError::new(&format!(
                    "mountTaskForm: options: {}",
                    unknown_option(&name)
                )));
            }
        }
    }
    let options: Options = if options.is_undefined() || options.is_null() {
        Options::default()
    } else {
        // Functions do not travel through JSON; `onSubmit` was read above.
        let text = js_sys::JSON::stringify(&options)
            .map_err(|_| JsError::new("mountTaskForm: options must be an object"))?;
        Options::read(&String::from(text))
            .map_err(|e| JsError::new(&format!("mountTaskForm: options: {e}")))?
    };
    // This form's own: a mount for another Berth, or one refused, changes no other.
    let base = options
        .api_base
        .as_deref()
        .map(api::Base::new)
        .unwrap_or_default();
    let number = HANDLES.get() + 1;
    HANDLES.set(number);
    MOUNTED_FORMS.with_borrow_mut(|all| {
        all.push(Mounted {
            number,
            element: element.clone(),
            lang_before: element.get_attribute("lang"),
            view: None,
        });
    });
    let _ = element.set_attribute(MOUNTED, "");
    Ok(Begun {
        pending: Pending {
            number,
            shown: false,
        },
        element,
        options,
        on_submit,
        base,
    })
}

/// Said to a form mounted into a portal's page: the console's own moves between its
/// pages (`nav::Link`) mean nothing there, where its links are plain addresses.
#[derive(Clone, Copy, Debug)]
pub struct Embedded;

/// Shows the form in its element.
fn show(
    element: web_sys::HtmlElement,
    locale: Option<Lang>,
    base: api::Base,
    on_submit: Option<js_sys::Function>,
    session: CatalogResponse,
    usage_read_at: Option<f64>,
) -> leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState> {
    // Each form on the page keeps its own draft, by its element's id.
    let slot = Some(element.id())
        .filter(|id| !id.is_empty())
        .map(|id| crate::form::draft::Slot(format!("{}#{id}", crate::form::draft::DRAFT_KEY)));
    // The form takes the element's place in full: what the portal showed there while it
    // loaded ("Loading…") stayed above it (embedding explorer).
    element.set_inner_html("");
    let speaks = element.clone();
    leptos::mount::mount_to(element, move || {
        provide_context(base.clone());
        provide_context(Embedded);
        if let Some(slot) = slot.clone() {
            provide_context(slot);
        }
        let lang = UiLang::provide();
        if let Some(locale) = locale {
            lang.set_here(locale);
        }
        // Screen readers take the form's language from its element: the one it speaks,
        // asked for or the browser's, which may not be the portal page's.
        let _ = speaks.set_attribute("lang", lang.get_untracked().tag());
        let on_submit = on_submit.clone();
        let on_submitted = Callback::new(move |task: TaskView| {
            if let Some(f) = &on_submit {
                let value = serde_json::to_string(&task)
                    .ok()
                    .and_then(|text| js_sys::JSON::parse(&text).ok())
                    .unwrap_or(JsValue::NULL);
                // The portal's own code: its failure is its to see, in its console,
                // not a reason to drop the created task from the form.
                if let Err(err) = f.call1(&JsValue::NULL, &value) {
                    web_sys::console::error_2(&"mountTaskForm: onSubmit threw".into(), &err);
                }
            }
        });
        let CatalogResponse {
            catalog,
            usage,
            outside,
            held,
            user,
            ray_clusters,
            email_alerts,
        } = session.clone();
        view! { <TaskForm catalog usage outside held_rooms=held user on_submitted ray_clusters email_alerts usage_read_at /> }.into_any()
    })
}
