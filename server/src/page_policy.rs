//! The console page's script policy: a `Content-Security-Policy` that lets the page run
//! its own site's scripts, its WebAssembly and the inline scripts of its `index.html`
//! (by their hashes), and nothing else. The task pages show what users wrote (names,
//! tags, commands, logs, events): were any of it ever put into the page as markup, the
//! browser would still refuse to run it (security review: the pages carried
//! `frame-ancestors` only).
//!
//! The example pages beside it (`embed.html`, `validator.html`) get none: they load the
//! packages from whichever site `?api=` names, as a portal does, and a portal that copies
//! them keeps its own policy.
//!
//! The page itself goes as it is on disk, never a compressed copy written beside it: a
//! copy left from before a change of its inline script would be refused by the hashes of
//! the new one, and the console would never start (policy explorer).

use axum::http::HeaderValue;
use base64::Engine;
use html5gum::{Token, Tokenizer};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

/// What every policy says besides the hashes: no plugins, and no `<base>` that would move
/// the page's own scripts to another site.
const FIXED: &str = "script-src 'self' 'wasm-unsafe-eval'";
const TAIL: &str = "; object-src 'none'; base-uri 'none'";

/// The policy of `index.html` as it is on disk, read again when the file changes (a
/// console rebuilt under a running server keeps working).
pub struct PagePolicy {
    dist: PathBuf,
    page: PathBuf,
    read: Mutex<Option<(SystemTime, HeaderValue)>>,
}

impl PagePolicy {
    pub fn new(dist: &Path) -> Self {
        Self {
            dist: dist.to_owned(),
            page: dist.join("index.html"),
            read: Mutex::new(None),
        }
    }

    /// The policy for an answer that is the console's page. A page that cannot be read
    /// (no build yet) gets the policy without hashes: its answer is an error anyway.
    pub fn current(&self) -> HeaderValue {
        let modified = std::fs::metadata(&self.page)
            .and_then(|m| m.modified())
            .ok();
        let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        if let (Some(modified), Some((at, policy))) = (modified, read.as_ref())
            && *at == modified
        {
            return policy.clone();
        }
        let html = std::fs::read_to_string(&self.page).unwrap_or_default();
        // Base64 and the fixed words: nothing a header refuses.
        let policy = HeaderValue::from_str(&policy_for(&html)).unwrap_or(HeaderValue::from_static(
            "script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'",
        ));
        if let Some(modified) = modified {
            *read = Some((modified, policy.clone()));
        }
        policy
    }

    /// Whether the server answers a request for `path` with the console's page:
    /// `index.html` itself, and any path that names no file of the build (the console's
    /// routes, `/tasks/x.html` too), which the server answers with it. Not by the path's
    /// ending: `/foo.html` ran the console with no policy (policy explorer).
    pub fn answers_with_page(&self, path: &str) -> bool {
        let path = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
        let name = path.trim_start_matches('/');
        // A path that would climb out of the build is no file of it.
        name.is_empty()
            || name == "index.html"
            || name.split('/').any(|part| part == ".." || part == ".")
            || !self.dist.join(name).is_file()
    }
}

/// The policy that lets exactly `html`'s inline scripts run.
fn policy_for(html: &str) -> String {
    let mut policy = String::from(FIXED);
    for script in inline_scripts(html) {
        let digest = ring::digest::digest(&ring::digest::SHA256, script.as_bytes());
        policy.push_str(" 'sha256-");
        policy.push_str(&base64::engine::general_purpose::STANDARD.encode(digest));
        policy.push('\'');
    }
    policy.push_str(TAIL);
    policy
}

/// The text of each `<script>` without `src`, as the browser hashes it.
fn inline_scripts(html: &str) -> Vec<String> {
    let mut emitter = html5gum::DefaultEmitter::default();
    // Script data, as a browser reads it: a `<` inside the script is no tag.
    emitter.naively_switch_states(true);
    let mut scripts = Vec::new();
    let mut open: Option<String> = None;
    for token in Tokenizer::new_with_emitter(html, emitter).flatten() {
        match token {
            Token::StartTag(tag) if &*tag.name == b"script" => {
                open = (!tag.attributes.contains_key(b"src".as_slice())).then(String::new);
            }
            Token::String(text) => {
                if let Some(script) = open.as_mut() {
                    script.push_str(&String::from_utf8_lossy(&text.value));
                }
            }
            Token::EndTag(tag) if &*tag.name == b"script" => scripts.extend(open.take()),
            _ => {}
        }
    }
    scripts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// MDN's example of a hash source: `alert('Hello, world.');` is
    /// `'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='`.
    #[test]
    fn an_inline_script_is_allowed_by_its_hash_as_browsers_compute_it() {
        let policy = policy_for("<p>hi</p><script>alert('Hello, world.');</script>");
        assert_eq!(
            policy,
            "script-src 'self' 'wasm-unsafe-eval' \
             'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='; \
             object-src 'none'; base-uri 'none'"
        );
    }

    #[test]
    fn scripts_with_a_source_are_allowed_by_the_site_not_a_hash() {
        let policy = policy_for(r#"<script type=module src="/a.js"></script>"#);
        assert!(!policy.contains("sha256"), "{policy}");
    }

    #[test]
    fn a_script_holding_markup_is_hashed_whole() {
        let script = "if (a < b) { x.innerHTML = '<p>' + \"</p>\"; }";
        let scripts = inline_scripts(&format!(
            "<html><head><script type=module>{script}</script></head><body><script>b()</script>"
        ));
        assert_eq!(scripts, [script, "b()"]);
    }

    #[test]
    fn the_page_answers_every_path_that_names_no_file_of_the_build() {
        let dist = tempfile::tempdir().expect("a temporary directory");
        for name in ["index.html", "embed.html", "app.js"] {
            std::fs::write(dist.path().join(name), "x").expect("a file written");
        }
        let policy = PagePolicy::new(dist.path());
        for path in [
            "/",
            "/index.html",
            "/tasks/abc",
            "/tasks/x.html",
            "/foo.html",
            "/shared/tok/x.html",
            "/../embed.html",
            "/./embed.html",
        ] {
            assert!(policy.answers_with_page(path), "{path}");
        }
        for path in ["/embed.html", "/embed%2Ehtml", "/app.js"] {
            assert!(!policy.answers_with_page(path), "{path}");
        }
    }

    #[test]
    fn the_policy_follows_the_page_when_it_changes() {
        let dist = tempfile::tempdir().expect("a temporary directory");
        let page = dist.path().join("index.html");
        std::fs::write(&page, "<script>one()</script>").expect("the page written");
        let policy = PagePolicy::new(dist.path());
        let first = policy.current();
        assert_eq!(first, policy.current());
        // A later time than the first write's, whatever the file system's resolution.
        std::fs::write(&page, "<script>two()</script>").expect("the page written");
        let later = SystemTime::now() + std::time::Duration::from_secs(5);
        std::fs::File::options()
            .write(true)
            .open(&page)
            .and_then(|f| f.set_modified(later))
            .expect("the time set");
        let second = policy.current();
        assert_ne!(first, second);
        assert_eq!(
            second.to_str().expect("ASCII"),
            policy_for("<script>two()</script>")
        );
    }
}
