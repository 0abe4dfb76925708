//! Text that must reach a process unchanged through the layers in between: the
//! kubelet's `$(VAR)` expansion (k8s/RULES.md 3.1), a POSIX shell's word splitting,
//! and Secret `data`'s base64.

/// `text` with every `$` doubled, so the kubelet's `$(VAR)` expansion in `command`,
/// `args` and env `value`s hands it to the process verbatim (`$$` becomes `$`).
pub fn kubelet_literal(text: &str) -> String {
    text.replace('$', "$$")
}

/// `text` as one single-quoted shell word: the shell passes it through untouched.
pub fn single_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Standard base64 with padding, as Secret `data` values must be.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_4648_test_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain}");
        }
    }

    #[test]
    fn every_dollar_is_doubled() {
        assert_eq!(
            kubelet_literal("echo $$ $(RANK) ${X}"),
            "echo $$$$ $$(RANK) $${X}"
        );
    }

    #[test]
    fn single_quotes_survive_quoting() {
        assert_eq!(single_quoted("it's"), r"'it'\''s'");
    }
}
