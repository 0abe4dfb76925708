//! The console's two languages: the current one in context, kept in local storage, and
//! the switch. Every text comes from the shared crate's keyed catalog.

use leptos::prelude::*;
use shared::Lang;

/// Where the language choice is kept between visits.
const STORAGE_KEY: &str = "berth.lang";

/// The console language, shared through context.
#[derive(Clone, Copy)]
pub struct UiLang(RwSignal<Lang>);

impl UiLang {
    /// Provides the language to the tree below: the one chosen on an earlier visit, else
    /// the browser's preference.
    pub fn provide() -> Self {
        let lang = UiLang(RwSignal::new(stored_lang().unwrap_or_else(browser_lang)));
        provide_context(lang);
        lang
    }

    /// The language in context; English when none was provided (isolated widgets).
    pub fn use_context() -> Self {
        use_context::<UiLang>().unwrap_or_else(|| UiLang(RwSignal::new(Lang::En)))
    }

    /// The current language, tracked.
    pub fn get(&self) -> Lang {
        self.0.get()
    }

    /// The current language, untracked.
    pub fn get_untracked(&self) -> Lang {
        self.0.get_untracked()
    }

    /// Switches the language and remembers the choice.
    pub fn set(&self, lang: Lang) {
        if let Some(storage) = local_storage() {
            let _ = storage.set_item(STORAGE_KEY, lang.tag());
        }
        set_document_lang(lang);
        self.0.set(lang);
    }

    /// Switches the language of this tree only: an embedded form's `locale` is the
    /// portal's to choose, and neither its storage nor its `<html lang>` are ours.
    pub fn set_here(&self, lang: Lang) {
        self.0.set(lang);
    }

    /// The catalog text for `key` in the current language, tracked.
    pub fn text(&self, key: &str) -> String {
        shared::messages::text(self.get(), key, &[])
    }

    /// The catalog text for `key` with its placeholders filled, tracked.
    pub fn text_with(&self, key: &str, args: &[(&str, String)]) -> String {
        shared::messages::text(self.get(), key, args)
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn stored_lang() -> Option<Lang> {
    Lang::from_tag(&local_storage()?.get_item(STORAGE_KEY).ok()??)
}

/// Screen readers pick their voice from `<html lang>`.
pub fn set_document_lang(lang: Lang) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", lang.tag());
    }
}

fn browser_lang() -> Lang {
    let language = web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_default();
    Lang::from_tag(&language).unwrap_or(Lang::En)
}

/// Picks the text for a language (the form's pages still use it until they move to
/// catalog keys).
pub fn t(lang: Lang, en: &'static str, zh: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

/// English / 中文 toggle.
#[component]
pub fn LangSwitch() -> impl IntoView {
    let lang = UiLang::use_context();
    view! {
        <div class="lang-switch" role="group" aria-label=tr("ui.app.language")>
            <button
                type="button"
                lang="en"
                aria-pressed=move || (lang.get() == Lang::En).to_string()
                class:active=move || lang.get() == Lang::En
                on:click=move |_| lang.set(Lang::En)
                data-testid="lang-en"
            >
                {tr("ui.app.lang_en")}
            </button>
            <button
                type="button"
                lang="zh-CN"
                aria-pressed=move || (lang.get() == Lang::Zh).to_string()
                class:active=move || lang.get() == Lang::Zh
                on:click=move |_| lang.set(Lang::Zh)
                data-testid="lang-zh"
            >
                {tr("ui.app.lang_zh")}
            </button>
        </div>
    }
}

/// The catalog text for `key`, following the language in context. One concrete type
/// for every label keeps the bundle small: each distinct closure in a view would be
/// compiled into its own rendering code.
pub fn tr(key: &'static str) -> Signal<String> {
    let lang = UiLang::use_context();
    Signal::derive(move || lang.text(key))
}

/// `words` with a capital first letter: a catalog's words written to sit inside a
/// sentence ("over the quota of on-demand instances") where they start a line of their
/// own (an option, a row's value).
pub fn line_start(words: &str) -> String {
    let mut chars = words.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
