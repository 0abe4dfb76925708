//! Terminal codes in a log: where each ends, so the console can leave them out of the
//! text it shows and the server can tell a line that has printed nothing yet from one
//! that has (a progress bar's `\r` after a colour code).

/// The longest code a reader of a log cut into chunks holds for the next chunk to end;
/// an escape unended so long is read as an escape alone.
pub const HELD_MAX: usize = 256;

/// One piece of a log's text as a terminal reads it ([`pieces`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// A code, `ESC` and what follows it, whole; or an `ESC` alone, unended after
    /// [`HELD_MAX`] bytes or followed by text.
    Code(&'a str),
    /// A `\r` that a `\n` follows: with it, one line's end.
    CrBeforeLf,
    /// A `\r` that something else follows: a redraw of the line.
    Cr,
    /// Any other character, `\n` too.
    Char(char),
    /// The text's end, a code begun or a `\r`, which the next chunk says how to read:
    /// always the last piece.
    Unended(&'a str),
}

/// The pieces of `text`, a chunk of a log cut anywhere.
pub fn pieces(text: &str) -> impl Iterator<Item = Piece<'_>> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let at = rest;
        let c = rest.chars().next()?;
        rest = &rest[c.len_utf8()..];
        Some(match c {
            '\u{1b}' => match escape_len(rest) {
                Some(len) => {
                    rest = &rest[len..];
                    Piece::Code(&at[..=len])
                }
                None if rest.len() > HELD_MAX => Piece::Code(&at[..1]),
                None => {
                    rest = "";
                    Piece::Unended(at)
                }
            },
            '\r' if rest.is_empty() => Piece::Unended(at),
            '\r' if rest.starts_with('\n') => Piece::CrBeforeLf,
            '\r' => Piece::Cr,
            c => Piece::Char(c),
        })
    })
}

/// Whether `c` shows as nothing where text is read, yet can turn or split the text
/// around it: zero-width characters, direction marks, embeddings, overrides and
/// isolates, the invisible operators, the byte order mark and the soft hyphen. A
/// reader of a log sees them named (the console), a reader of a spec escaped (its YAML
/// and JSON), and a log's masks see through them (the server).
pub fn is_invisible_mark(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// How many bytes after an `ESC` its code takes, or `None` when `after` ends first.
pub fn escape_len(after: &str) -> Option<usize> {
    escape_len_of(after.as_bytes())
}

/// [`escape_len`] of bytes, which may end within a character: a code is ASCII.
pub fn escape_len_of(bytes: &[u8]) -> Option<usize> {
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
        // OSC (a window title, a link): to BEL or ESC \; another ESC cuts it short
        // and begins a code of its own, as a terminal reads it. Not past it: a log of
        // `ESC ]` repeated was read in time that grew with the square of its length,
        // each looking to the end of the chunk (review: 7.5 s for 256 KiB).
        b']' => {
            let body = &bytes[1..];
            (0..body.len()).find_map(|i| match body[i] {
                0x07 => Some(i + 2),
                0x1b if body.get(i + 1) == Some(&b'\\') => Some(i + 3),
                0x1b if i + 1 < body.len() => Some(i + 1),
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
    use super::{Piece, escape_len, pieces};

    #[test]
    fn a_chunk_reads_as_codes_line_ends_characters_and_what_waits() {
        use Piece::*;
        let read = |text| pieces(text).collect::<Vec<_>>();
        assert_eq!(
            read("a\u{1b}[0m\rb\r\nc"),
            [
                Char('a'),
                Code("\u{1b}[0m"),
                Cr,
                Char('b'),
                CrBeforeLf,
                Char('\n'),
                Char('c')
            ]
        );
        // What the next chunk says how to read waits, and ends the pieces.
        assert_eq!(read("a\r"), [Char('a'), Unended("\r")]);
        assert_eq!(read("a\u{1b}[3"), [Char('a'), Unended("\u{1b}[3")]);
        // Each `ESC ]` of a run of them is a code of its own, cut by the next: read in
        // one pass, not to the chunk's end from each (review).
        let run = "\u{1b}]".repeat(100_000);
        let run = pieces(&run).collect::<Vec<_>>();
        assert_eq!(run.len(), 100_000);
        assert!(run[..99_999].iter().all(|p| *p == Code("\u{1b}]")));
        assert_eq!(run[99_999], Unended("\u{1b}]"));
        // An escape unended for longer than a code is read alone.
        let long = format!("\u{1b}]{}", "x".repeat(super::HELD_MAX));
        assert_eq!(read(&long)[0], Code("\u{1b}"));
        assert_eq!(read(&long).len(), 2 + super::HELD_MAX);
    }

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
            // Cut short by the next code, which begins there.
            ("]0;t\u{1b}[31m", 4),
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
        for after in ["", "[", "[31", "]0;title", "]0;t\u{1b}", "("] {
            assert_eq!(escape_len(after), None, "{after:?}");
        }
    }
}
