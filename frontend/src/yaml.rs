//! The YAML reader the console fetches when it first needs one: a build of the validator
//! package's YAML module (`/yaml/berth_validator_yaml.js`, built with the console by
//! `scripts/yaml-module.sh`, Trunk.toml's hook), which reads RayJob runtime envs and specs imported as YAML.
//! The console's own wasm carries no YAML reader (BENCHMARKS.md, Console bundle), so a
//! researcher who writes only PyTorchJobs never fetches one.
//!
//! The form asks for it as soon as its spec is a RayJob ([`want`]), and an import of
//! YAML waits for it ([`ready`]). While it is on its way a runtime env's finding
//! `ray.runtime_env.unread` is held back (the form re-checks once it is here, and the
//! server checks every submit); if it fails to load, that finding shows and says so.

use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(inline_js = "export function import_module(url) { return import(url); }")]
extern "C" {
    #[wasm_bindgen(catch)]
    fn import_module(url: &str) -> Result<js_sys::Promise, JsValue>;
}

/// Where the YAML reader is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// Not asked for yet.
    Absent,
    /// On its way.
    Loading,
    /// Here: runtime envs and YAML imports are read.
    Ready,
    /// It did not load; runtime envs stay unread.
    Failed,
}

thread_local! {
    static STATE: ArcRwSignal<Reader> = ArcRwSignal::new(Reader::Absent);
    /// The module's load, started once.
    static LOAD: RefCell<Option<js_sys::Promise>> = const { RefCell::new(None) };
    /// The module's `readYamlSpec`.
    static SPEC_READER: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

/// Where the reader is now (tracked: a memo that reads it runs again when it arrives).
pub fn state() -> Reader {
    STATE.with(ArcRwSignal::get)
}

/// Whether the reader is here, not tracked.
pub fn is_ready() -> bool {
    shared::yaml_spec::can_read()
}

/// Starts fetching the reader, unless it is here or on its way. Safe inside a memo: the
/// state changes in the task it starts.
/// `base`: the Berth whose packages the form came from (its reader is the same for
/// every form of the page).
pub fn want(base: &crate::api::Base) {
    let _ = load(base);
}

/// Settles once the reader has loaded or failed; starts it first if need be.
pub fn ready(base: &crate::api::Base) -> JsFuture {
    JsFuture::from(load(base))
}

fn load(base: &crate::api::Base) -> js_sys::Promise {
    LOAD.with(|load| {
        load.borrow_mut()
            .get_or_insert_with(|| {
                let url = base.url("/yaml/berth_validator_yaml.js");
                wasm_bindgen_futures::future_to_promise(async move {
                    let set = |state| STATE.with(|s| s.set(state));
                    if shared::yaml_spec::can_read() {
                        // A build that reads YAML itself (the component tests'): no fetch.
                        set(Reader::Ready);
                        return Ok(JsValue::UNDEFINED);
                    }
                    set(Reader::Loading);
                    match load_module(&url).await {
                        Ok(()) => set(Reader::Ready),
                        Err(err) => {
                            web_sys::console::warn_2(
                                &JsValue::from_str("Berth: the YAML reader did not load:"),
                                &err,
                            );
                            set(Reader::Failed);
                        }
                    }
                    Ok(JsValue::UNDEFINED)
                })
            })
            .clone()
    })
}

async fn load_module(url: &str) -> Result<(), JsValue> {
    let module = JsFuture::from(import_module(url)?).await?;
    let get = |name: &str| js_sys::Reflect::get(&module, &JsValue::from_str(name));
    let init: js_sys::Function = get("default")?.dyn_into()?;
    JsFuture::from(init.call0(&JsValue::NULL)?.dyn_into::<js_sys::Promise>()?).await?;
    berth_validator::use_runtime_env_reader(get("readRuntimeEnv")?.dyn_into()?);
    let read_spec: js_sys::Function = get("readYamlSpec")?.dyn_into()?;
    SPEC_READER.with(|reader| *reader.borrow_mut() = Some(read_spec));
    shared::yaml_spec::set_yaml_spec_reader(|text| {
        berth_validator::call_reader(SPEC_READER.with(|reader| reader.borrow().clone())?, text)
    });
    Ok(())
}
