//! The console's two languages: the current one in context, and the switch.

use leptos::prelude::*;
use shared::Lang;

/// The console language, shared through context.
#[derive(Clone, Copy)]
pub struct UiLang(RwSignal<Lang>);

impl UiLang {
    /// Provides the language to the tree below, starting from the browser's preference.
    pub fn provide() -> Self {
        let lang = UiLang(RwSignal::new(browser_lang()));
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

    /// Switches the language.
    pub fn set(&self, lang: Lang) {
        self.0.set(lang);
    }
}

fn browser_lang() -> Lang {
    let language = web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_default();
    if language.starts_with("zh") {
        Lang::Zh
    } else {
        Lang::En
    }
}

/// Picks the text for a language.
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
        <div class="lang-switch" role="group" aria-label="Language">
            <button class:active=move || lang.get() == Lang::En on:click=move |_| lang.set(Lang::En) data-testid="lang-en">"English"</button>
            <button class:active=move || lang.get() == Lang::Zh on:click=move |_| lang.set(Lang::Zh) data-testid="lang-zh">"中文"</button>
        </div>
    }
}
