//! The reader's language: `?lang=` first, then `Accept-Language`, else English.

use axum::extract::FromRequestParts;
use axum::http::header::ACCEPT_LANGUAGE;
use axum::http::request::Parts;
use shared::Lang;
use std::convert::Infallible;

/// The language finding messages are rendered in for this request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReaderLang(pub Lang);

impl<S: Send + Sync> FromRequestParts<S> for ReaderLang {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or_default();
        let asked = query
            .split('&')
            .filter_map(|pair| pair.strip_prefix("lang="))
            .find_map(language);
        let accepted = || {
            parts
                .headers
                .get(ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .and_then(accept_language)
        };
        Ok(ReaderLang(asked.or_else(accepted).unwrap_or(Lang::En)))
    }
}

/// A language tag Berth speaks: `zh`, `zh-CN`, `zh-Hans`… or `en`, `en-US`….
fn language(tag: &str) -> Option<Lang> {
    Lang::from_tag(tag.trim())
}

/// The most preferred language of an `Accept-Language` header that Berth speaks.
fn accept_language(header: &str) -> Option<Lang> {
    let mut best: Option<(f32, Lang)> = None;
    for item in header.split(',') {
        let mut parts = item.split(';');
        let tag = parts.next().unwrap_or_default();
        let q = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .and_then(|q| q.parse::<f32>().ok())
            .unwrap_or(1.0);
        if let Some(lang) = language(tag).filter(|_| q > 0.0)
            && best.is_none_or(|(b, _)| q > b)
        {
            best = Some((q, lang));
        }
    }
    best.map(|(_, lang)| lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_preferred_spoken_language_wins() {
        assert_eq!(accept_language("zh-CN,zh;q=0.9,en;q=0.8"), Some(Lang::Zh));
        assert_eq!(accept_language("fr-FR, en;q=0.5, zh;q=0.4"), Some(Lang::En));
        assert_eq!(accept_language("fr, de"), None);
        assert_eq!(accept_language("zh;q=0, en;q=0.1"), Some(Lang::En));
    }
}
