//! Image references, as the container runtime parses them.
//!
//! Follows the grammar of distribution/reference (the parser Docker and containerd use):
//!
//! ```text
//! reference        := name [ ":" tag ] [ "@" digest ]
//! name             := [ domain "/" ] path-component { "/" path-component }
//! domain           := host [ ":" port ]          (first component with "." or ":", or "localhost")
//! path-component   := [a-z0-9]+ { ( "." | "_" | "__" | "-"+ ) [a-z0-9]+ }
//! tag              := [A-Za-z0-9_] [A-Za-z0-9_.-]{0,127}
//! digest           := algorithm ":" hex{32,}
//! ```
//!
//! # Design
//!
//! The crates that parse references (`docker-image`, `oci-spec`) compile the upstream
//! regular expressions with `regex`, which adds several hundred KB to the console's
//! wasm. The grammar is small and fixed, so it is written out here and tested against
//! upstream's own examples.

/// Longest name (domain and path), as upstream limits it.
const NAME_TOTAL_MAX: usize = 255;

/// Whether `text` is a valid image reference.
pub fn is_image_reference(text: &str) -> bool {
    let (rest, digest) = match text.split_once('@') {
        Some((rest, digest)) => (rest, Some(digest)),
        None => (text, None),
    };
    if digest.is_some_and(|d| !is_digest(d)) {
        return false;
    }
    // A tag follows the last ':' only if no '/' comes after it (else it is a port).
    let (name, tag) = match rest.rfind(':') {
        Some(i) if !rest[i..].contains('/') => (&rest[..i], Some(&rest[i + 1..])),
        _ => (rest, None),
    };
    if tag.is_some_and(|t| !is_tag(t)) {
        return false;
    }
    is_name(name)
}

fn is_name(name: &str) -> bool {
    if name.is_empty() || name.len() > NAME_TOTAL_MAX {
        return false;
    }
    let mut components = name.split('/').peekable();
    let first = components.next().unwrap_or_default();
    let has_domain =
        name.contains('/') && (first.contains('.') || first.contains(':') || first == "localhost");
    if has_domain {
        if !is_domain(first) {
            return false;
        }
        if components.peek().is_none() {
            return false;
        }
        components.all(is_path_component)
    } else {
        name.split('/').all(is_path_component)
    }
}

fn is_domain(domain: &str) -> bool {
    let (host, port) = match domain.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((addr, rest)) => {
                if addr.is_empty()
                    || !addr
                        .chars()
                        .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
                {
                    return false;
                }
                match rest {
                    "" => return true,
                    r => match r.strip_prefix(':') {
                        Some(port) => ("", Some(port)),
                        None => return false,
                    },
                }
            }
            None => return false,
        },
        None => match domain.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (domain, None),
        },
    };
    if port.is_some_and(|p| p.is_empty() || !p.chars().all(|c| c.is_ascii_digit())) {
        return false;
    }
    host.is_empty() && domain.starts_with('[')
        || host.split('.').all(|c| {
            !c.is_empty()
                && c.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-')
                && !c.starts_with('-')
                && !c.ends_with('-')
        })
}

fn is_path_component(component: &str) -> bool {
    let bytes = component.as_bytes();
    let alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    if bytes.is_empty() || !alnum(bytes[0]) || !alnum(bytes[bytes.len() - 1]) {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        if alnum(bytes[i]) {
            i += 1;
            continue;
        }
        // A separator: ".", "_", "__" or a run of "-".
        let start = i;
        match bytes[i] {
            b'.' => i += 1,
            b'_' => {
                i += if bytes.get(i + 1) == Some(&b'_') {
                    2
                } else {
                    1
                }
            }
            b'-' => {
                while bytes.get(i) == Some(&b'-') {
                    i += 1;
                }
            }
            _ => return false,
        }
        if i == start || !bytes.get(i).copied().is_some_and(alnum) {
            return false;
        }
    }
    true
}

fn is_tag(tag: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    (1..=128).contains(&tag.len())
        && tag.starts_with(word)
        && tag.chars().all(|c| word(c) || c == '.' || c == '-')
}

fn is_digest(digest: &str) -> bool {
    let Some((algorithm, hex)) = digest.split_once(':') else {
        return false;
    };
    let components_ok = algorithm.split(['+', '.', '-', '_']).all(|c| {
        c.starts_with(|ch: char| ch.is_ascii_alphabetic())
            && c.chars().all(|ch| ch.is_ascii_alphanumeric())
    });
    // The reference grammar takes 32+ hex digits; the digest package then fixes the
    // length of the algorithms it knows.
    let length_ok = match algorithm {
        "sha256" => hex.len() == 64,
        "sha384" => hex.len() == 96,
        "sha512" => hex.len() == 128,
        // Only the algorithms the digest package registers are accepted.
        _ => false,
    };
    components_ok && length_ok && hex.chars().all(|c| c.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::is_image_reference;

    const DIGEST: &str = "sha256:86e0e091d0da6bde2456dbb48306f3956bbeb2eae1b5b9a43045843f69fe4aaa";

    #[test]
    fn accepts_upstream_examples() {
        for ok in [
            "test_com",
            "test.com:tag",
            "test.com:5000",
            "test.com/repo:tag",
            "test:5000/repo",
            "test:5000/repo:tag",
            "lowercase:Uppercase",
            "sub-dom1.foo.com/bar/baz/quux",
            "sub-dom1.foo.com/bar/baz/quux:some-long-tag",
            "b.gcr.io/test.example.com/my-app:test.example.com",
            "xn--n3h.com/myimage:xn--n3h.com",
            "foo_bar.com:8080",
            "foo/foo_bar.com:8080",
            "localhost/foo",
            "localhost:5000/foo:bar",
            "[2001:db8::1]:5000/repo",
            "a__b/c--d",
            "nvcr.io/nvidia/pytorch:24.05-py3",
        ] {
            assert!(is_image_reference(ok), "{ok} should parse");
        }
        assert!(is_image_reference(&format!("test:5000/repo@{DIGEST}")));
        assert!(is_image_reference(&format!("test:5000/repo:tag@{DIGEST}")));
    }

    #[test]
    fn rejects_upstream_counterexamples() {
        for bad in [
            "",
            ":justtag",
            "@sha256:ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
            "repo@sha256:ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
            "validname@invaliddigest:ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
            "Uppercase:tag",
            "test:5000/Uppercase/lowercase:tag",
            "aa/asdf$$^/aa",
            "a___b/c",
            "a-/b",
            "repo:",
            "repo:-tag",
            &format!("repo:{}", "a".repeat(129)),
            &format!("{}/a", "a".repeat(256)),
        ] {
            assert!(!is_image_reference(bad), "{bad} should not parse");
        }
    }
}
