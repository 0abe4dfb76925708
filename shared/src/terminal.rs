//! Terminal codes in a log: where each ends, so the console can leave them out of the
//! text it shows and the server can tell a line that has printed nothing yet from one
//! that has (a progress bar's `\r` after a colour code).

/// The longest code a reader of a log cut into chunks holds for the next chunk to end;
/// an escape unended so long is read as an escape alone.
pub const HELD_MAX: usize = 256;

/// How many bytes after an `ESC` its code takes, or `None` when `after` ends first.
pub fn escape_len(after: &str) -> Option<usize> {
    let bytes = after.as_bytes();
    match bytes.first()? {
        // CSI: parameters and intermediates, then one final byte.
        b'[' => {
            let body = &bytes[1..];
            let params = body
                .iter()
                .take_while(|b| (0x20..=0x3f).contains(*b))
                .count();
            match body.get(params) {
                None => None,
                Some(b) if (0x40..=0x7e).contains(b) => Some(params + 2),
                // Broken off (a line's end): what it had is left out, the rest is text.
                Some(_) => Some(params + 1),
            }
        }
        // OSC (a window title, a link): to BEL or ESC \.
        b']' => {
            let body = &bytes[1..];
            (0..body.len()).find_map(|i| match body[i] {
                0x07 => Some(i + 2),
                0x1b if body.get(i + 1) == Some(&b'\\') => Some(i + 3),
                _ => None,
            })
        }
        // Intermediates (`ESC ( B`, a character set), then one final byte; another
        // byte (a line's end, a letter of another script) is text, and the code ends
        // before it: the slices stay on character boundaries.
        b' '..=b'/' => {
            let at = bytes.iter().position(|b| !(b' '..=b'/').contains(b))?;
            Some(at + usize::from((0x30..=0x7e).contains(&bytes[at])))
        }
        // One byte (`ESC =`, `ESC 7`); any other is text, the escape alone left out.
        b => Some(usize::from((0x30..=0x7e).contains(b))),
    }
}

#[cfg(test)]
mod tests {
    use super::escape_len;

    #[test]
    fn each_kind_of_code_ends_where_a_terminal_ends_it() {
        // After the ESC: a colour, a cursor move, a title to BEL and to ESC \, a
        // character set, a one-byte code.
        for (after, len) in [
            ("[31mred", 4),
            ("[2Kx", 3),
            ("[1;32m", 6),
            ("]0;title\u{7}x", 9),
            ("]8;;https://a\u{1b}\\x", 15),
            ("(Bx", 2),
            ("=x", 1),
            // Broken off at a line's end: the code ends before it.
            ("[12\nx", 3),
            // Not a code: the escape alone.
            ("\u{7f}", 0),
        ] {
            assert_eq!(escape_len(after), Some(len), "{after:?}");
        }
        // Not ended yet: the next chunk says how.
        for after in ["", "[", "[31", "]0;title", "("] {
            assert_eq!(escape_len(after), None, "{after:?}");
        }
    }
}
