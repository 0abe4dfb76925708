//! Small syntax rules from Kubernetes (k8s/RULES.md sections 1–3), as plain functions.

pub use crate::names::{DNS_LABEL_MAX, max_name_prefix_len};

fn is_label_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
}

fn label_like(s: &str, max: usize) -> bool {
    s.len() <= max
        && s.chars().all(is_label_char)
        && s.starts_with(|c: char| c.is_ascii_alphanumeric())
        && s.ends_with(|c: char| c.is_ascii_alphanumeric())
}

/// A DNS-1123 subdomain: lowercase labels joined by dots, at most 253 characters.
pub fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= 253
        && s.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= DNS_LABEL_MAX
                && label
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// A Kubernetes label key: `[prefix/]name` (k8s/RULES.md 2.1).
pub fn is_label_key(key: &str) -> bool {
    match key.split_once('/') {
        Some((prefix, name)) => {
            is_dns_subdomain(prefix) && !name.is_empty() && label_like(name, DNS_LABEL_MAX)
        }
        None => !key.is_empty() && label_like(key, DNS_LABEL_MAX),
    }
}

/// A Kubernetes label value: empty, or label-like up to 63 characters (k8s/RULES.md 2.2).
pub fn is_label_value(value: &str) -> bool {
    value.is_empty() || label_like(value, DNS_LABEL_MAX)
}

/// `^[A-Za-z_][A-Za-z0-9_]*$`: a name a POSIX shell can export (k8s/RULES.md 3.2).
pub fn is_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `path` is `dir` or lies beneath it.
/// Characters that take no room: zero-width spaces and joiners, the byte order mark.
pub const ZERO_WIDTH: [char; 5] = ['\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}'];

/// Whether `text` begins or ends with a blank (a space, a non-breaking or full-width
/// one) or holds a zero-width character: what a paste from a chat brings, unseen.
pub fn stray_blank(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(char::is_whitespace)
        || chars.next_back().is_some_and(char::is_whitespace)
        || text.contains(ZERO_WIDTH)
}

pub fn is_within(path: &str, dir: &str) -> bool {
    path == dir || (path.starts_with(dir) && path.as_bytes().get(dir.len()) == Some(&b'/'))
}

/// Whether an absolute path is normalised: no `//`, no `.` or `..` segment, no trailing `/`.
pub fn is_normalized(path: &str) -> bool {
    !path.ends_with('/')
        && path[1..]
            .split('/')
            .all(|seg| !seg.is_empty() && seg != "." && seg != "..")
}

/// Whether `text` mentions `name` as a whole word (not as part of `LOCAL_RANK`).
pub fn mentions(text: &str, name: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    text.match_indices(name).any(|(i, _)| {
        !word(text[..i].chars().next_back()) && !word(text[i + name.len()..].chars().next())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_syntax() {
        assert!(is_label_key("team"));
        assert!(is_label_key("example.com/team"));
        assert!(!is_label_key("-team"));
        assert!(!is_label_key("/team"));
        assert!(!is_label_key(&"k".repeat(64)));
        assert!(is_label_value(""));
        assert!(!is_label_value("团队"));
    }

    #[test]
    fn env_names_are_shell_identifiers() {
        assert!(is_env_name("_A1"));
        assert!(!is_env_name("1A"));
        assert!(!is_env_name("A-B"));
        assert!(!is_env_name(""));
    }

    #[test]
    fn paths() {
        assert!(is_within("/opt/x", "/opt"));
        assert!(!is_within("/optx", "/opt"));
        assert!(is_normalized("/volume/a"));
        assert!(!is_normalized("/volume//a"));
        assert!(!is_normalized("/volume/../a"));
        assert!(!is_normalized("/volume/"));
    }

    #[test]
    fn mentions_whole_words_only() {
        assert!(mentions("--node_rank \"$RANK\"", "RANK"));
        assert!(!mentions("echo $LOCAL_RANK", "RANK"));
    }
}
