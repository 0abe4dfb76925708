//! A task's hidden env values, masked in its logs for anyone but its owner.
//!
//! Hidden values are masked in every answer but the owner's own (SPEC.md section 3), and a
//! log is an answer: a program that prints its token would otherwise show it to every
//! member of the project group. The log arrives in chunks (a file read as it grows, or a
//! pod's log stream), so a value split across two chunks must still be caught: the tail
//! that could begin a hidden value waits for the next chunk.
//!
//! A follower gets the chunks as text ([`LogText`]), and a character can be split
//! across chunks as a value can: its first bytes wait for the rest. A read of a log
//! still being written ends with [`LogMask::cut`], which leaves the held tail out: shown,
//! it was the first part of a value the program had not finished printing.
//!
//! A value of several lines (a key in PEM) is masked whole, and each of its lines on its
//! own too: a program that prints it escaped (`printf %q`, a JSON or Python repr of its
//! settings) writes the lines joined by `\n`, never the value as it is. Each value and
//! line is masked too as the common printers escape it ([`escaped`]: JSON, with and
//! without `\uXXXX` for what is not ASCII, Python's `repr` and `ascii()` of the text and
//! `repr` of its bytes, bash's `printf %q` in a UTF-8 locale and in the C locale,
//! `shlex.quote`, HTML-escaped, percent-encoded and JavaScript's `escape()`): a JSON
//! credential or a key's `private_key` line holds quotes and backslashes, which a program
//! that logs its settings prints escaped (security exploration: shown to the group).
//! Where two values overlap in the text, all of both is masked.
//!
//! # Design: values too short to mask
//!
//! A hidden value shorter than [`SHORTEST_MASKABLE`] characters cannot be masked in
//! place without giving it away. One or two characters occur by chance all over a log
//! (`7` in every number with a 7, `ok` in every "ok"), so masking every occurrence
//! turns the log into a puzzle whose answer is the value: the masks stand where it is
//! and the text shown never holds it, and there are only a few thousand such values to
//! try. Masking only whole tokens is no better: a program that prints the value glued to
//! other text (`pw$TOKEN`, `--key=$TOKEN,x`) shows it as is, and a token masked in a
//! counter or a list is told by the ones beside it. So when a value is that short, the
//! log is withheld from the reader it must be masked for: each line shows as the mask
//! alone, keeping only what says nothing of any value (that the replica prints, and how
//! many lines). The owner, for whom a task's own values are not masked, reads the log
//! whole; a value long enough to be told from chance text is masked where it appears.

use shared::task::HIDDEN_VALUE_MASK;

/// The fewest characters a hidden value needs to be masked where it appears in a log;
/// with a shorter one the log shows only a mask per line (see the module docs).
pub const SHORTEST_MASKABLE: usize = 3;

/// The fewest characters, spaces around it left out, a line of a hidden value of several
/// lines needs to be masked on its own.
const SHORTEST_LINE_MASKED: usize = 8;

/// Replaces every occurrence of the hidden values in a log with [`HIDDEN_VALUE_MASK`],
/// or, when one of them is too short to mask safely, every line.
#[derive(Debug, Default)]
pub struct LogMask {
    /// The values to hide, longest first, so a value that contains another is masked whole.
    values: Vec<Vec<u8>>,
    /// The places in `values` in the values' byte order: the values that begin with the
    /// same bytes are neighbours, which [`LogMask::find`] walks as a trie of them.
    sorted: Vec<u32>,
    /// The range of `sorted` that begins with each byte: most places of a log begin no
    /// value, which this says at once.
    first: Vec<(usize, usize)>,
    /// [`LogMask::find`]'s walks under way, kept from place to place.
    walks: std::cell::RefCell<Vec<Walk>>,
    /// Bytes held back: the end of the last chunk, which could begin a hidden value
    /// (withholding, only the chunk being read).
    held: Vec<u8>,
    /// A value is shorter than [`SHORTEST_MASKABLE`]: no text of the log is shown.
    withheld: bool,
    /// Withholding: a line has begun and not ended yet.
    line_open: bool,
}

impl LogMask {
    /// A mask for these values; empty values are skipped (they would match everywhere).
    pub fn new<I, S>(values: I) -> LogMask
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let values: Vec<String> = values
            .into_iter()
            .map(Into::into)
            .filter(|v| !v.is_empty())
            .collect();
        let withheld = values.iter().any(|v| v.chars().count() < SHORTEST_MASKABLE);
        // Only lines that can be told from a log's own text: masked, a blank line, an
        // indent or a `},` of a hidden YAML or JSON value would mask every one in the log,
        // and the masks would show which lines the value holds. Shorter ones say little of
        // the value, and do not withhold the log as a short value does.
        let lines: Vec<String> = values
            .iter()
            .filter(|v| v.contains('\n'))
            .flat_map(|v| v.split('\n'))
            .map(str::trim)
            .filter(|line| line.chars().count() >= SHORTEST_LINE_MASKED)
            .map(str::to_owned)
            .collect();
        let mut values: Vec<Vec<u8>> = values
            .into_iter()
            .chain(lines)
            .flat_map(|v| {
                let mut forms = escaped(&v);
                forms.push(v);
                forms
            })
            .map(String::into_bytes)
            .collect();
        values.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        values.dedup();
        let mut sorted: Vec<u32> = (0..values.len())
            .map(|i| u32::try_from(i).unwrap_or(u32::MAX))
            .collect();
        sorted.sort_by(|a, b| values[*a as usize].cmp(&values[*b as usize]));
        let first = (0..=u8::MAX)
            .map(|byte| {
                let byte_of = |i: &u32| values[*i as usize][0];
                (
                    sorted.partition_point(|i| byte_of(i) < byte),
                    sorted.partition_point(|i| byte_of(i) <= byte),
                )
            })
            .collect();
        LogMask {
            values,
            sorted,
            first,
            walks: std::cell::RefCell::default(),
            held: Vec::new(),
            withheld,
            line_open: false,
        }
    }

    /// Whether the mask changes nothing (the owner's view, or no hidden values).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The next chunk, masked; what could begin a hidden value is held for the next.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<u8> {
        if self.is_empty() {
            return chunk.to_vec();
        }
        self.held.extend_from_slice(chunk);
        self.scan(false)
    }

    /// The rest, at the end of the log. What was held began a hidden value and the log
    /// ended before the value did: a program that died printing it. Shown as it is when
    /// shorter than [`SHORTEST_MASKABLE`] characters (chance text, most often), masked
    /// otherwise.
    pub fn finish(&mut self) -> Vec<u8> {
        // Characters a reader would see: a colour code after the log's last letters is
        // no part of a value (review: `Finish\x1b[0m` ended as `Finis******`).
        if !self.withheld && seen_chars(&self.held) >= SHORTEST_MASKABLE {
            self.held.clear();
            return HIDDEN_VALUE_MASK.as_bytes().to_vec();
        }
        self.scan(true)
    }

    /// The end of a read of a log still being written: what was held (the start of a
    /// value, or of a line being withheld) is left out; a later read shows it once what
    /// follows decides it.
    pub fn cut(&mut self) {
        self.held.clear();
        self.line_open = false;
    }

    /// The whole of a log read at once.
    #[cfg(test)]
    pub fn all(mut self, log: &[u8]) -> Vec<u8> {
        let mut out = self.push(log);
        out.extend(self.finish());
        out
    }

    fn scan(&mut self, last: bool) -> Vec<u8> {
        if self.withheld {
            return self.withhold(last);
        }
        let text = std::mem::take(&mut self.held);
        let mut out = Vec::with_capacity(text.len());
        let mut at = 0;
        while at < text.len() {
            let rest = &text[at..];
            let found = self.find(rest);
            // The chunk ends inside what may be a hidden value (or a longer one than a
            // value that already matches here): wait for more before deciding.
            if !last && found.begun {
                self.held = rest.to_vec();
                break;
            }
            if let Some((_, len)) = found.whole {
                // A value that begins within this one and runs past it is masked with it:
                // skipped, its end was shown (`abcdefgh12` and `fgh12XYZW9` printed as
                // `abcdefgh12XYZW9` showed `XYZW9`).
                let mut end = at + len;
                let mut from = at + 1;
                let mut undecided = false;
                while from < end {
                    let found = self.find(&text[from..]);
                    if !last && found.begun {
                        undecided = true;
                        break;
                    }
                    if let Some((_, len)) = found.whole {
                        end = end.max(from + len);
                    }
                    from += 1;
                }
                if undecided {
                    self.held = rest.to_vec();
                    break;
                }
                out.extend_from_slice(HIDDEN_VALUE_MASK.as_bytes());
                at = end;
            } else {
                out.push(text[at]);
                at += 1;
            }
        }
        out
    }

    /// How the values fit the start of `text`, as [`fit`] says of each: the first of
    /// `values` there whole, and whether the text ends while one may still be there
    /// (the end of the text so far may begin a hidden value longer than it).
    ///
    /// The values are walked as a trie, the range of `sorted` that shares the bytes
    /// matched so far standing for its node, so the work at a place is the length of
    /// what matches there, not the number of values: trying each value at each byte, a
    /// task's thousand hidden values made every masked read of its 2 MiB log take a
    /// core for 53 s, and slowed every other reader of the server (security explorer).
    /// Where `fit` passes over a code between two of a value's characters, the walk
    /// goes on at the same node past it, for the values whose next byte is not the one
    /// there (those took it); each walk the same as `fit`'s for each value, which a
    /// property test holds.
    fn find(&self, text: &[u8]) -> Found {
        let mut found = Found::default();
        if self.sorted.is_empty() {
            return found;
        }
        // Nothing is passed over before a value's first character: its first byte is
        // the text's.
        let Some(&byte) = text.first() else {
            found.begun = true;
            return found;
        };
        let (lo, hi) = self.first[usize::from(byte)];
        if lo == hi {
            return found;
        }
        let mut walks = self.walks.borrow_mut();
        walks.clear();
        walks.push(Walk {
            lo,
            hi,
            depth: 1,
            at: 1,
            passed: 0,
            taken: Bytes::default(),
        });
        while let Some(walk) = walks.pop() {
            #[cfg(test)]
            tests::STEPS.with(|steps| steps.set(steps.get() + 1));
            let mut lo = walk.lo;
            // The value that ends here is first in its range (it sorts before the
            // values it begins): whole, unless this walk passed over a code here, as
            // `fit` ends a value's walk where it is whole.
            if self.value(lo).len() == walk.depth {
                if walk.taken.is_empty() {
                    let place = self.sorted[lo];
                    if found.whole.is_none_or(|(first, _)| place < first) {
                        found.whole = Some((place, walk.at));
                    }
                }
                lo += 1;
            }
            if !self.goes_on(lo, walk.hi, walk.depth, &walk.taken) {
                continue;
            }
            let Some(&byte) = text.get(walk.at) else {
                found.begun = true;
                continue;
            };
            if !walk.taken.has(byte) {
                let (from, to) = self.next_range(lo, walk.hi, walk.depth, byte);
                if from < to {
                    walks.push(Walk {
                        lo: from,
                        hi: to,
                        depth: walk.depth + 1,
                        at: walk.at + 1,
                        passed: 0,
                        taken: Bytes::default(),
                    });
                }
            }
            let mut taken = walk.taken;
            taken.add(byte);
            if !self.goes_on(lo, walk.hi, walk.depth, &taken) {
                continue;
            }
            match unseen(&text[walk.at..]) {
                Some(len) if len > 0 && walk.passed + len <= UNSEEN_MOST => walks.push(Walk {
                    lo,
                    at: walk.at + len,
                    passed: walk.passed + len,
                    taken,
                    ..walk
                }),
                // A code or mark the text's end cuts short may still be passed over.
                None if walk.passed < UNSEEN_MOST => found.begun = true,
                _ => {}
            }
        }
        found
    }

    /// The value at `i` of `sorted`.
    fn value(&self, i: usize) -> &[u8] {
        &self.values[self.sorted[i] as usize]
    }

    /// Whether a value of `lo..hi` of `sorted` (all longer than `depth`) goes on with a
    /// byte that is not `taken`.
    fn goes_on(&self, lo: usize, hi: usize, depth: usize, taken: &Bytes) -> bool {
        let mut i = lo;
        while i < hi {
            let byte = self.value(i)[depth];
            if !taken.has(byte) {
                return true;
            }
            i = self.next_range(i, hi, depth, byte).1;
        }
        false
    }

    /// The range of `lo..hi` of `sorted` (all longer than `depth`, sorted) whose byte at
    /// `depth` is `byte`.
    fn next_range(&self, lo: usize, hi: usize, depth: usize, byte: u8) -> (usize, usize) {
        let range = &self.sorted[lo..hi];
        let byte_of = |i: &u32| self.values[*i as usize][depth];
        let from = range.partition_point(|i| byte_of(i) < byte);
        let to = range.partition_point(|i| byte_of(i) <= byte);
        (lo + from, lo + to)
    }

    /// A mask for each line ended so far (and, at the end, for a last line without its
    /// newline); the line being written waits for its end.
    ///
    /// None of a line's bytes is ever shown, so none is kept past this call, only
    /// whether a line is open. Kept, a progress bar that redraws with `\r` and never
    /// ends its line held the whole log in memory for each reader.
    fn withhold(&mut self, last: bool) -> Vec<u8> {
        let chunk = &self.held;
        let ended = chunk.iter().filter(|b| **b == b'\n').count();
        let open = match chunk.iter().rposition(|b| *b == b'\n') {
            Some(at) => at + 1 < chunk.len(),
            None => self.line_open || !chunk.is_empty(),
        };
        let mut out = Vec::with_capacity((ended + 1) * (HIDDEN_VALUE_MASK.len() + 1));
        for _ in 0..ended {
            out.extend_from_slice(HIDDEN_VALUE_MASK.as_bytes());
            out.push(b'\n');
        }
        self.held.clear();
        self.line_open = open && !last;
        if open && last {
            out.extend_from_slice(HIDDEN_VALUE_MASK.as_bytes());
        }
        out
    }
}

/// How the values fit the text at a place ([`LogMask::find`]).
#[derive(Debug, Default, PartialEq, Eq)]
struct Found {
    /// The first value whole there (its place in the values, longest first) and how many
    /// bytes of the text it takes.
    whole: Option<(u32, usize)>,
    /// The text ends while a value may still be there.
    begun: bool,
}

/// A walk of [`LogMask::find`]: the values of `lo..hi` of `sorted` share their first
/// `depth` bytes, which the text's first `at` bytes hold; `passed` bytes passed over
/// since the last byte matched, and the next bytes `taken` at this node by the walks
/// that did not pass over them.
#[derive(Clone, Copy, Debug)]
struct Walk {
    lo: usize,
    hi: usize,
    depth: usize,
    at: usize,
    passed: usize,
    taken: Bytes,
}

/// A set of bytes.
#[derive(Clone, Copy, Debug, Default)]
struct Bytes([u64; 4]);

impl Bytes {
    fn has(&self, byte: u8) -> bool {
        self.0[usize::from(byte >> 6)] & (1 << (byte & 63)) != 0
    }

    fn add(&mut self, byte: u8) {
        self.0[usize::from(byte >> 6)] |= 1 << (byte & 63);
    }

    fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }
}

/// How a value fits the text at a place ([`fit`]).
#[cfg(test)]
#[derive(Debug, PartialEq, Eq)]
enum Fit {
    /// The value is there, in this many bytes of the text.
    Whole(usize),
    /// The text ends while it still reads as the value's start.
    Begun,
    /// Not here.
    No,
}

#[cfg(test)]
impl Fit {
    fn whole(self) -> Option<usize> {
        match self {
            Fit::Whole(len) => Some(len),
            _ => None,
        }
    }
}

/// The most bytes [`fit`] passes over between two of a value's characters: bounds what a
/// value's first characters followed by a long run of codes hold back (review: a log of
/// codes after `hf` was held, and read again at every chunk, to its end). Between each
/// two, not in all: a token coloured letter by letter (`lolcat`, 24-bit colour) has a
/// code of up to 20 bytes before every letter (second review).
const UNSEEN_MOST: usize = shared::terminal::HELD_MAX;

/// Whether `text` begins with `value` as a reader of the console sees it: the console
/// leaves terminal codes and control bytes out, and names zero-width and direction
/// marks rather than showing them ([`shared::terminal::is_invisible_mark`]), so a
/// program that printed a colour code or a zero-width space inside its token
/// (`hf_Q8\x1b[1mxWm…`) showed it whole to the group, the code masking nothing
/// (security exploration). Such bytes are passed over between the value's own, never
/// before its first; a value that holds them itself matches them as they are.
///
/// One value at a time: the oracle of [`LogMask::find`], which walks them all at once.
#[cfg(test)]
fn fit(text: &[u8], value: &[u8]) -> Fit {
    let (mut t, mut v, mut passed) = (0, 0, 0);
    while v < value.len() {
        let Some(&byte) = text.get(t) else {
            return Fit::Begun;
        };
        if byte == value[v] {
            t += 1;
            v += 1;
            passed = 0;
            continue;
        }
        // Most places begin no value: nothing more to read there (review: reading for
        // codes at every byte made every masked read 15 to 30 times slower).
        if v == 0 {
            return Fit::No;
        }
        match unseen(&text[t..]) {
            Some(len) if len > 0 && passed + len <= UNSEEN_MOST => {
                t += len;
                passed += len;
            }
            // A code or mark the text's end cuts short may still be passed over.
            None if passed < UNSEEN_MOST => return Fit::Begun,
            _ => return Fit::No,
        }
    }
    Fit::Whole(t)
}

/// How many bytes at the start of `text` the console does not show as text: a terminal
/// code, a control byte but a line's end or a tab, a C1 control, or an invisible mark;
/// 0 when none, and `None` when the text ends inside what may be one.
fn unseen(text: &[u8]) -> Option<usize> {
    let &first = text.first()?;
    match first {
        0x1b => match shared::terminal::escape_len_of(&text[1..]) {
            Some(len) => Some(1 + len),
            None if text.len() > shared::terminal::HELD_MAX => Some(1),
            None => None,
        },
        b'\n' | b'\t' => Some(0),
        // A carriage return too: the console breaks the line there, and the value's two
        // halves read one above the other (recheck explorer).
        0x00..=0x1f | 0x7f => Some(1),
        0x00..=0x7f => Some(0),
        _ => {
            let width = match first {
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf7 => 4,
                _ => return Some(0),
            };
            let Some(bytes) = text.get(..width) else {
                // The marks and C1 controls begin with these bytes only.
                return if matches!(first, 0xc2 | 0xe2 | 0xef) {
                    None
                } else {
                    Some(0)
                };
            };
            match std::str::from_utf8(bytes)
                .ok()
                .and_then(|c| c.chars().next())
            {
                Some(c) if c.is_control() || shared::terminal::is_invisible_mark(c) => Some(width),
                _ => Some(0),
            }
        }
    }
}

/// How many characters of `bytes` a reader sees: those [`unseen`] passes over left out.
fn seen_chars(bytes: &[u8]) -> usize {
    let (mut at, mut seen) = (0, 0);
    while at < bytes.len() {
        match unseen(&bytes[at..]) {
            Some(len) if len > 0 => at += len,
            None => break,
            _ => {
                seen += 1;
                at += 1;
                while at < bytes.len() && bytes[at] & 0xc0 == 0x80 {
                    at += 1;
                }
            }
        }
    }
    seen
}

/// `value` as the common printers escape it, where that differs from the value: a JSON
/// string's inside (serde's, Go's with `<`, `>` and `&` as `\u003c`…, and Python's
/// `json.dumps` with what is not ASCII as `\uXXXX`, and both at once as Jinja's
/// `tojson` writes it), Python's `repr` and `ascii()` inside their quotes, and its bytes
/// repr (`\xc3\xa4`), bash's `printf %q` (backslashes, or `$'…'` for a value with
/// control characters, and with what is not ASCII in octal in the C locale), Python's
/// `shlex.quote`, HTML-escaped ([`html_escaped`]), JavaScript's `escape()`, and
/// percent-encoded as URLs carry it (Python's `quote` with and without `/` kept and
/// `quote_plus`, Go's `url.QueryEscape`, JavaScript's `encodeURIComponent`): an HTTP
/// client's debug log prints a token so (API explorer).
fn escaped(value: &str) -> Vec<String> {
    let json = serde_json::to_string(value).unwrap_or_default();
    let json = json
        .strip_prefix('"')
        .and_then(|j| j.strip_suffix('"'))
        .unwrap_or_default()
        .to_owned();
    let go = json
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    let mut ascii = String::new();
    for c in json.chars() {
        if c.is_ascii() {
            ascii.push(c);
        } else {
            for unit in c.encode_utf16(&mut [0; 2]) {
                ascii.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    let both_quotes = value.contains('\'') && value.contains('"');
    let repr = python_repr(value, false);
    let shell = if value.chars().any(char::is_control) {
        ansi_c(value, false)
    } else {
        let mut shell = String::new();
        for (i, c) in value.chars().enumerate() {
            if " '\"\\|&;()<>!{}*[?]^$`,".contains(c) || (i == 0 && "~#".contains(c)) {
                shell.push('\\');
            }
            shell.push(c);
        }
        shell
    };
    // bash quotes a value with a character its locale cannot print as `$'…'`. A replica
    // of the local backend runs without LANG, in the C locale, where every byte that is
    // not ASCII is one: `printf %q` writes it in octal (`\303\244` for `ä`).
    let c_locale = if value.is_ascii() {
        String::new()
    } else {
        ansi_c(value, true)
    };
    // Python's bytes repr (`os.environb`, a subprocess's output): what is not ASCII, a
    // byte at a time in hex.
    let mut bytes_repr = String::new();
    for b in value.bytes() {
        match b {
            b'\\' => bytes_repr.push_str("\\\\"),
            b'\n' => bytes_repr.push_str("\\n"),
            b'\r' => bytes_repr.push_str("\\r"),
            b'\t' => bytes_repr.push_str("\\t"),
            b'\'' if both_quotes => bytes_repr.push_str("\\'"),
            b if !(0x20..0x7f).contains(&b) => bytes_repr.push_str(&format!("\\x{b:02x}")),
            b => bytes_repr.push(char::from(b)),
        }
    }
    // Python's `shlex.quote` writes a value in single quotes, each `'` in it as `'"'"'`.
    let shlex = if value.contains('\'') {
        value.replace('\'', "'\"'\"'")
    } else {
        String::new()
    };
    // Both escapes at once: what is not ASCII as `\uXXXX` and `<`, `>`, `&` (and `'`) as
    // `\u003c`… is what Jinja's and Flask's `tojson` print (team explorer: shown whole).
    let go_ascii = ascii
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    let jinja = go_ascii.replace('\'', "\\u0027");
    let mut forms = vec![
        json,
        go,
        ascii,
        repr,
        bytes_repr,
        shell,
        c_locale,
        shlex,
        go_ascii,
        jinja,
        python_repr(value, true),
        js_escape(value),
    ];
    forms.extend(html_escaped(value));
    forms.extend(percent_encoded(value));
    forms.retain(|f| !f.is_empty() && f != value);
    forms.sort();
    forms.dedup();
    forms
}

/// Python's `repr(value)` inside its quotes; with `ascii`, `ascii(value)`'s (and
/// `value.encode('unicode_escape')`'s text), what is not ASCII as `\xNN`, `\uNNNN` or
/// `\UNNNNNNNN`.
fn python_repr(value: &str, ascii: bool) -> String {
    let both_quotes = value.contains('\'') && value.contains('"');
    let mut out = String::new();
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\'' if both_quotes => out.push_str("\\'"),
            c if c.is_control() || (ascii && !c.is_ascii()) => {
                let n = u32::from(c);
                out.push_str(&match n {
                    0..0x100 => format!("\\x{n:02x}"),
                    0x100..0x1_0000 => format!("\\u{n:04x}"),
                    _ => format!("\\U{n:08x}"),
                });
            }
            c => out.push(c),
        }
    }
    out
}

/// `value` as HTML escapes it for a page: Python's `html.escape` (`&quot;`, `&#x27;`),
/// and markupsafe's (Jinja's autoescape) and Go's `html.EscapeString` (`&#34;`, `&#39;`).
fn html_escaped(value: &str) -> [String; 2] {
    let escape = |quote: &str, apostrophe: &str| {
        let mut out = String::new();
        for c in value.chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str(quote),
                '\'' => out.push_str(apostrophe),
                c => out.push(c),
            }
        }
        out
    };
    [escape("&quot;", "&#x27;"), escape("&#34;", "&#39;")]
}

/// `value` as JavaScript's old `escape()` writes it: all but `A-Z a-z 0-9 @ * _ + - . /`
/// as `%XX` below U+0100, and as `%uXXXX` above, a UTF-16 unit at a time.
fn js_escape(value: &str) -> String {
    let mut out = String::new();
    for c in value.chars() {
        if c.is_ascii_alphanumeric() || "@*_+-./".contains(c) {
            out.push(c);
        } else if u32::from(c) < 0x100 {
            out.push_str(&format!("%{:02X}", u32::from(c)));
        } else {
            for unit in c.encode_utf16(&mut [0; 2]) {
                out.push_str(&format!("%u{unit:04X}"));
            }
        }
    }
    out
}

/// `value` percent-encoded as URL encoders write it: every byte but RFC 3986's unreserved
/// `A-Z a-z 0-9 - . _ ~` (Python's `quote(v, safe='')`); that with `/` kept (its
/// default); with a space as `+` (`quote_plus`, Go's `url.QueryEscape`); and with
/// `! * ' ( )` kept as well (JavaScript's `encodeURIComponent`).
fn percent_encoded(value: &str) -> [String; 4] {
    use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
    const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~');
    const PATH: &AsciiSet = &UNRESERVED.remove(b'/');
    const COMPONENT: &AsciiSet = &UNRESERVED
        .remove(b'!')
        .remove(b'*')
        .remove(b'\'')
        .remove(b'(')
        .remove(b')');
    let quoted = utf8_percent_encode(value, UNRESERVED).to_string();
    let plus = quoted.replace("%20", "+");
    [
        quoted,
        utf8_percent_encode(value, PATH).to_string(),
        plus,
        utf8_percent_encode(value, COMPONENT).to_string(),
    ]
}

/// The inside of bash's `$'…'` quoting of `value`, as `printf %q` writes it; `c_locale`:
/// what is not ASCII as the octal of its bytes, as bash writes it where the locale
/// cannot print it.
fn ansi_c(value: &str, c_locale: bool) -> String {
    let mut out = String::new();
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{b}' => out.push_str("\\v"),
            '\u{c}' => out.push_str("\\f"),
            '\u{1b}' => out.push_str("\\E"),
            c if c.is_control() || (c_locale && !c.is_ascii()) => {
                for b in c.encode_utf8(&mut [0; 4]).bytes() {
                    out.push_str(&format!("\\{b:03o}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// A followed log as text: masked chunks, each cut before a character whose bytes have
/// not all arrived (decoding it alone would show the replacement character for a
/// character that is fine).
#[derive(Debug, Default)]
pub struct LogText {
    mask: LogMask,
    /// The beginning of a character, from the end of the last masked chunk.
    held: Vec<u8>,
}

impl LogText {
    /// Text of a log masked by `mask`.
    pub fn new(mask: LogMask) -> LogText {
        LogText {
            mask,
            held: Vec::new(),
        }
    }

    /// The next chunk as text, masked; what could begin a hidden value or a character
    /// is held for the next.
    pub fn push(&mut self, chunk: &[u8]) -> String {
        let masked = self.mask.push(chunk);
        self.held.extend_from_slice(&masked);
        self.decode(false)
    }

    /// The end of a read of a log still being written ([`LogMask::cut`]); a character
    /// whose bytes have not all arrived is left out too.
    pub fn cut(&mut self) {
        self.mask.cut();
        self.held.clear();
    }

    /// The rest, at the end of the log: an unfinished character shows as U+FFFD.
    pub fn finish(&mut self) -> String {
        let masked = self.mask.finish();
        self.held.extend_from_slice(&masked);
        self.decode(true)
    }

    fn decode(&mut self, last: bool) -> String {
        let bytes = std::mem::take(&mut self.held);
        let mut out = String::with_capacity(bytes.len());
        let mut rest = bytes.as_slice();
        while !rest.is_empty() {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    out.push_str(text);
                    break;
                }
                Err(error) => {
                    let (valid, after) = rest.split_at(error.valid_up_to());
                    out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                    match error.error_len() {
                        // Bytes that begin no character: no later chunk mends them.
                        Some(bad) => {
                            out.push(char::REPLACEMENT_CHARACTER);
                            rest = &after[bad..];
                        }
                        None if last => {
                            out.push(char::REPLACEMENT_CHARACTER);
                            break;
                        }
                        None => {
                            self.held = after.to_vec();
                            break;
                        }
                    }
                }
            }
        }
        out
    }
}

/// The end of a log's text as it comes, at most `max` bytes of it from a line's start
/// (a last line longer than `max` from within), and how many bytes before it were left
/// out. It is cut from the text already masked, so a cut anywhere shows nothing of a
/// hidden value that the whole text would not: a value is never read half, from a cut in
/// the file.
///
/// Nor is a mask cut: an end that would begin within one begins at its start (a few
/// bytes more than `max`), and one within a run of over [`RUN_BACK`] asterisks at its
/// run's end, unless the log ends in the run. Cut, its last asterisks read as the log's own
/// text (`***`).
#[derive(Debug)]
pub struct LogTail {
    max: usize,
    /// The text may hold masks ([`LogMask::is_empty`] is false).
    masked: bool,
    text: String,
    left_out: u64,
}

impl LogTail {
    /// At most `max` bytes of the end of a text masked by a mask that is empty or not
    /// (`masked`).
    pub fn new(max: usize, masked: bool) -> LogTail {
        LogTail {
            max,
            masked,
            text: String::new(),
            left_out: 0,
        }
    }

    /// The next piece of the text; what is past keeping is dropped as it comes (never
    /// more than twice `max`, [`RUN_BACK`], a few bytes and a piece are held).
    pub fn push(&mut self, piece: &str) {
        self.text.push_str(piece);
        // Kept: the end, and what the end's cut reads before it (the byte before, the
        // rest of a character, asterisks back to a run's start).
        let keep = self.max.saturating_add(RUN_BACK + 4);
        if self.text.len() > self.max.saturating_mul(2).saturating_add(RUN_BACK + 4) {
            let mut cut = self.text.len() - keep;
            while !self.text.is_char_boundary(cut) {
                cut += 1;
            }
            self.left_out += cut as u64;
            self.text.drain(..cut);
        }
    }

    /// How many bytes were left out before the end, and the end.
    pub fn finish(mut self) -> (u64, String) {
        if self.text.len() <= self.max {
            return (self.left_out, self.text);
        }
        let mut cut = self.text.len() - self.max;
        while !self.text.is_char_boundary(cut) {
            cut += 1;
        }
        // From the next line's start, unless the cut is at one, or no line starts after
        // it (a last line longer than `max` is shown from within, not left out whole).
        // A `\r` alone starts a line too, as the console shows it: a progress bar's
        // redraws may hold no `\n` for megabytes.
        let bytes = self.text.as_bytes();
        let at_start = match bytes[cut - 1] {
            b'\n' => true,
            b'\r' => bytes.get(cut) != Some(&b'\n'),
            _ => false,
        };
        if !at_start && let Some(at) = self.text[cut..].find(['\n', '\r']) {
            let mut start = cut + at + 1;
            if bytes[cut + at] == b'\r' && bytes.get(start) == Some(&b'\n') {
                start += 1;
            }
            if start < self.text.len() {
                cut = start;
            }
        }
        // Within asterisks, the cut may be within a mask (never at a line's start: a mask
        // holds no line end). A mask is told by its text alone, and masks and the log's
        // own asterisks may stand side by side, so the end begins where the run of them
        // does; or, a run longer than [`RUN_BACK`] (a progress bar's), where it ends. No
        // values to mask, no masks: a log's asterisks are then cut as any text.
        if self.masked && bytes[cut - 1] == b'*' && bytes.get(cut) == Some(&b'*') {
            let from = cut.saturating_sub(RUN_BACK);
            match bytes[from..cut].iter().rposition(|b| *b != b'*') {
                Some(at) => cut = from + at + 1,
                None if from == 0 && self.left_out == 0 => cut = 0,
                // A run to the log's end is its end: shown cut, not left out whole.
                None => {
                    let run = bytes[cut..].iter().take_while(|b| **b == b'*').count();
                    if cut + run < bytes.len() {
                        cut += run;
                    }
                }
            }
        }
        self.left_out += cut as u64;
        self.text.drain(..cut);
        (self.left_out, self.text)
    }
}

/// The most asterisks a log's end begins before its cut, to begin at their run's start
/// rather than within a mask (see [`LogTail`]).
const RUN_BACK: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What [`fit`] says of each value at the start of `text`, as `find` says it.
    fn fit_each(mask: &LogMask, text: &[u8]) -> Found {
        Found {
            whole: mask.values.iter().enumerate().find_map(|(i, v)| {
                fit(text, v)
                    .whole()
                    .map(|len| (u32::try_from(i).unwrap(), len))
            }),
            begun: mask.values.iter().any(|v| fit(text, v) == Fit::Begun),
        }
    }

    /// Pieces of logs and values: letters values share, codes and marks a reader does not
    /// see, a code cut short, quotes and backslashes the escaped forms hold.
    const PIECES: &[&str] = &[
        "a", "b", "ab", "\x1b[1m", "\x1b[", "\x1b", "\u{200b}", "\r", "\n", "\"", "\\", "ä",
    ];

    fn text_of(pieces: Vec<usize>) -> String {
        pieces.into_iter().map(|i| PIECES[i]).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// The walk of every value at once finds, at every place of any text, what
        /// trying each value there finds: the first whole, and whether one may begin.
        #[test]
        fn the_walk_of_all_values_finds_what_each_value_tried_alone_finds(
            values in prop::collection::vec(prop::collection::vec(0usize..PIECES.len(), 3..7), 1..5),
            text in prop::collection::vec(0usize..PIECES.len(), 0..24),
        ) {
            let values: Vec<String> = values.into_iter().map(text_of).collect();
            let mask = LogMask::new(values.iter().cloned());
            let text = text_of(text).into_bytes();
            for at in 0..=text.len() {
                prop_assert_eq!(mask.find(&text[at..]), fit_each(&mask, &text[at..]), "at {}", at);
            }
        }
    }

    thread_local! {
        /// The walks [`LogMask::find`] has taken on this thread.
        pub(super) static STEPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// The walks a masked read of `log` takes, and what it shows.
    fn steps_to_mask(values: &[String], log: &str) -> (usize, String) {
        let mask = LogMask::new(values.iter().cloned());
        STEPS.with(|steps| steps.set(0));
        let shown = String::from_utf8(mask.all(log.as_bytes())).unwrap();
        (STEPS.with(std::cell::Cell::get), shown)
    }

    /// A thousand hidden values, all alike, cost a masked read about what one costs: the
    /// values are walked as a trie, not tried one by one at every byte (security
    /// explorer: a task's thousand values took a core for 53 s at every read of its
    /// 2 MiB log). Counted in the walk's steps, not timed.
    #[test]
    fn a_thousand_values_cost_a_read_about_what_one_does() {
        let many: Vec<String> = (0..1000)
            .map(|i| format!("hf_s3cretValue{i:06}xyzw"))
            .collect();
        let line = "step 1 loss 0.25 hf_s3cretValue000042xyzw \"hf_s3cretValue000999xyzw\" done\n";
        let log = line.repeat(20);
        let (steps, shown) = steps_to_mask(&many, &log);
        assert_eq!(
            shown,
            "step 1 loss 0.25 ****** \"******\" done\n".repeat(20)
        );
        let (one, _) = steps_to_mask(&many[..1], &log);
        assert!(
            steps < 2 * one,
            "{steps} steps for 1000 values, {one} for one"
        );
    }

    fn masked(values: &[&str], chunks: &[&str]) -> String {
        let mut mask = LogMask::new(values.iter().copied());
        let mut out = Vec::new();
        for chunk in chunks {
            out.extend(mask.push(chunk.as_bytes()));
        }
        out.extend(mask.finish());
        String::from_utf8(out).unwrap()
    }

    /// A value printed percent-encoded, as an HTTP client's debug log prints a token in
    /// a URL, is masked (API explorer: it reached the group in clear). The printed forms
    /// are what Python 3's `urllib.parse` and JavaScript print, written out by hand.
    #[test]
    fn a_value_printed_percent_encoded_is_masked() {
        let token = "Sup3r-S3cret Tok/en+42!";
        for printed in [
            // quote(v, safe='')
            "GET /x?token=Sup3r-S3cret%20Tok%2Fen%2B42%21 200",
            // quote(v)
            "path /Sup3r-S3cret%20Tok/en%2B42%21/",
            // quote_plus(v), Go's url.QueryEscape
            "token=Sup3r-S3cret+Tok%2Fen%2B42%21&x=1",
            // encodeURIComponent(v)
            "token=Sup3r-S3cret%20Tok%2Fen%2B42!",
        ] {
            let shown = masked(&[token], &[printed, "\n"]);
            assert!(!shown.contains("S3cret"), "{printed} -> {shown}");
        }
    }

    /// A value printed escaped by the common printers is masked (security exploration:
    /// a JSON credential and a key's `private_key` line were shown to the group). The
    /// printed forms below are what Python 3 and bash 5 print, written out by hand.
    #[test]
    fn a_value_printed_escaped_is_masked() {
        let dsn = r#"{"user":"svc","password":"Pa55-word-XYZ"}"#;
        for printed in [
            // json.dumps, serde_json, Go's encoding/json
            r#"{"DB_DSN": "{\"user\":\"svc\",\"password\":\"Pa55-word-XYZ\"}"}"#,
            // printf '%q'
            r#"\{\"user\":\"svc\"\,\"password\":\"Pa55-word-XYZ\"\}"#,
        ] {
            let shown = masked(&[dsn], &[printed, "\n"]);
            assert!(!shown.contains("Pa55"), "{printed} -> {shown}");
        }
        // A key whose lines hold backslashes, printed by repr and by json.dumps.
        let key = "{\n  \"private_key\": \"-----BEGIN-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END-----\\n\"\n}";
        let repr = r#"'{\n  "private_key": "-----BEGIN-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END-----\\n"\n}'"#;
        let json = r#""{\n  \"private_key\": \"-----BEGIN-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END-----\\n\"\n}""#;
        for printed in [repr, json] {
            let shown = masked(&[key], &[printed]);
            assert!(!shown.contains("MIIEvQ"), "{printed} -> {shown}");
        }
        // Not ASCII, as json.dumps writes it by default; a bare `\r`, as repr writes it.
        let shown = masked(
            &["密钥秘密值abcdef"],
            &[r#""\u5bc6\u94a5\u79d8\u5bc6\u503cabcdef""#],
        );
        assert_eq!(shown, r#""******""#);
        let shown = masked(
            &["firstpart-AAAA\rsecondpart-BBBB"],
            &[r"'firstpart-AAAA\rsecondpart-BBBB'"],
        );
        assert_eq!(shown, "'******'");
        // Split across chunks, an escaped form waits for its end as a value does.
        let shown = masked(
            &[dsn],
            &[
                r#"{\"user\":\"svc\",\"pass"#,
                r#"word\":\"Pa55-word-XYZ\"}"#,
            ],
        );
        assert_eq!(shown, "******");
    }

    /// A value printed by Jinja's and Flask's `tojson` (what is not ASCII and `<>&'`
    /// escaped at once), by Python's `ascii()`, HTML-escaped (Python's, markupsafe's and
    /// Go's) and by JavaScript's
    /// `escape()` is masked (team explorer: each was shown whole to the group). The
    /// printed forms are what Python 3, Jinja 3 and Node print.
    #[test]
    fn a_value_printed_by_other_escaping_printers_is_masked() {
        let value = r#"a b/c<d>&"e"üñ'x"#;
        for printed in [
            // Jinja's `{{ v|tojson }}`
            r#""a b/c\u003cd\u003e\u0026\"e\"\u00fc\u00f1\u0027x""#,
            // Go's escapes of `json.dumps(v)` (ensure_ascii)
            r#""a b/c\u003cd\u003e\u0026\"e\"\u00fc\u00f1'x""#,
            // Python's `ascii(v)`
            r#"'a b/c<d>&"e"\xfc\xf1\'x'"#,
            // `html.escape(v)`
            "a b/c&lt;d&gt;&amp;&quot;e&quot;üñ&#x27;x",
            // markupsafe's `escape(v)`, Go's `html.EscapeString(v)`
            "a b/c&lt;d&gt;&amp;&#34;e&#34;üñ&#39;x",
            // JavaScript's `escape(v)`
            "a%20b/c%3Cd%3E%26%22e%22%FC%F1%27x",
        ] {
            let shown = masked(&[value], &[printed, "\n"]);
            assert!(!shown.contains("b/c"), "{printed} -> {shown}");
        }
        // Above U+FFFF: `ascii()` writes `\U`, `escape()` two UTF-16 units.
        let value = "key-😀-secret";
        for printed in [r"key-\U0001f600-secret", "key-%uD83D%uDE00-secret"] {
            let shown = masked(&[value], &[printed, "\n"]);
            assert!(!shown.contains("secret"), "{printed} -> {shown}");
        }
    }

    /// A value printed escaped as bash does in the C locale, where a replica of the local
    /// backend runs, as Python's bytes repr does, and as `shlex.quote` does, is masked
    /// (exploratory test: shown in full to the group). The printed forms are what bash
    /// 5.2 and Python 3 print.
    #[test]
    fn a_value_printed_by_bytes_escaping_printers_is_masked() {
        let value = "pässwörd-秘密-123";
        let quoted = r#"ab c'd"e$f\g!h&i<j"#;
        for (values, printed, shown) in [
            // `printf %q` without LANG or LC_ALL
            (
                [value],
                r"$'p\303\244ssw\303\266rd-\347\247\230\345\257\206-123'",
                "$'******'",
            ),
            // `print(os.environb[b"HF_TOKEN"])`
            (
                [value],
                r"b'p\xc3\xa4ssw\xc3\xb6rd-\xe7\xa7\x98\xe5\xaf\x86-123'",
                "b'******'",
            ),
            // `print(shlex.quote(value))`
            ([quoted], r#"'ab c'"'"'d"e$f\g!h&i<j'"#, "'******'"),
            // `printf %q` of a value with an escape character, in the C locale
            (
                ["tok\u{1b}[0m-ä-end"],
                r"$'tok\E[0m-\303\244-end'",
                "$'******'",
            ),
        ] {
            assert_eq!(masked(&values, &[printed]), shown, "{printed}");
            // Split anywhere, it still waits for its end.
            for at in 1..printed.len() {
                let (a, b) = printed.split_at(at);
                assert_eq!(masked(&values, &[a, b]), shown, "{a}|{b}");
            }
        }
    }

    /// Two values that overlap where they are printed are both masked whole (security
    /// exploration: the end of the second was shown).
    /// A colour code or a zero-width mark inside a value, which the console shows as
    /// nothing, does not keep it from being masked, in one chunk or cut anywhere; codes
    /// around it stay (security exploration: shown whole to the group).
    #[test]
    fn a_value_split_by_what_shows_as_nothing_is_masked() {
        let token = "hf_Q8xWm2PaLrT9vKz";
        for printed in [
            "token is hf_Q8\u{1b}[1mxWm2PaLrT9vKz\u{1b}[0m done",
            "token is hf_Q8\u{200b}xWm2PaLrT9vKz\u{1b}[0m done",
            "token is h\u{1b}]8;;https://a\u{1b}\\f_Q8xWm2P\u{202e}aLrT9vKz\u{1b}[0m done",
        ] {
            assert_eq!(
                masked(&[token], &[printed]),
                "token is ******\u{1b}[0m done"
            );
            // Cut at any byte, within a code or a mark too.
            let bytes = printed.as_bytes();
            for cut in 1..bytes.len() {
                let mut mask = LogMask::new([token]);
                let mut out = mask.push(&bytes[..cut]);
                out.extend(mask.push(&bytes[cut..]));
                out.extend(mask.finish());
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    "token is ******\u{1b}[0m done",
                    "cut at {cut}"
                );
            }
        }
        // Before its first character, a code is the log's own.
        assert_eq!(
            masked(&[token], &["\u{1b}[1mhf_Q8xWm2PaLrT9vKz\u{1b}[0m"]),
            "\u{1b}[1m******\u{1b}[0m"
        );
        // A value that holds a mark itself is matched with it, and the text without it
        // is not the value.
        let marked = "ab\u{200b}cdef";
        assert_eq!(masked(&[marked], &["x ab\u{200b}cdef y"]), "x ****** y");
        assert_eq!(masked(&["abcdef"], &["x ab\u{200b}cdef y"]), "x ****** y");
        assert_eq!(
            masked(&[token], &["hf_Q8 xWm2PaLrT9vKz"]),
            "hf_Q8 xWm2PaLrT9vKz"
        );
        // A token coloured letter by letter, in 24-bit colour, is masked whole (second
        // review: past 256 bytes of codes in all it was shown).
        let long = "hf_Q8xWm2PaLrT9vKzAbCdEfGhIjKlMnOpQrSt";
        let coloured: String = long
            .chars()
            .map(|c| format!("\u{1b}[38;2;255;128;{}m{c}", c as u32 % 256))
            .collect();
        // The code before its first letter is the log's own, and stays.
        assert_eq!(
            masked(&[long], &[&format!("{coloured}\u{1b}[0m.")]),
            "\u{1b}[38;2;255;128;104m******\u{1b}[0m."
        );
        // A control byte the console drops, and an invisible operator, are passed over
        // too (review).
        for inside in [
            "\u{7}", "\u{7f}", "\u{85}", "\u{2061}", "\u{ad}", "\r", "\u{8}",
        ] {
            let printed = format!("hf_Q8{inside}xWm2PaLrT9vKz.");
            assert_eq!(masked(&[token], &[&printed]), "******.", "{inside:?}");
        }
        // A log that ends in a value's first letter and a code shows them: the code is
        // no part of a value (review: `Finis******`).
        assert_eq!(masked(&[token], &["Finish\u{1b}[0m"]), "Finish\u{1b}[0m");
        // A value's first letters before a long run of codes are not held back to the
        // log's end: past a bounded run the text is shown as it comes (review).
        let run = format!("hf{}more", "\u{1b}[1m".repeat(100));
        let mut mask = LogMask::new([token]);
        let shown = mask.push(run.as_bytes());
        assert_eq!(String::from_utf8(shown).unwrap(), run);
    }

    #[test]
    fn values_that_overlap_are_masked_whole() {
        assert_eq!(
            masked(&["abcdefgh12", "fgh12XYZW9"], &["abcdefgh12XYZW9 ok"]),
            "****** ok"
        );
        assert_eq!(
            masked(
                &["alpha-7Q2k-shared", "shared-Zx9-beta-4411"],
                &["alpha-7Q2k-", "shared-Zx9-beta-4411\n"]
            ),
            "******\n"
        );
        // The second begins in the first and its end comes in the next chunk.
        assert_eq!(
            masked(&["abcdefgh12", "fgh12XYZW9"], &["abcdefgh12XY", "ZW9."]),
            "******."
        );
        // Only the first where the second does not follow.
        assert_eq!(
            masked(&["abcdefgh12", "fgh12XYZW9"], &["abcdefgh12XY."]),
            "******XY."
        );
    }

    #[test]
    fn every_occurrence_of_every_value_is_masked() {
        assert_eq!(
            masked(
                &["hf_secret", "pass"],
                &["token=hf_secret pass=pass\nagain hf_secret\n"]
            ),
            "token=****** ******=******\nagain ******\n"
        );
    }

    #[test]
    fn a_value_split_across_chunks_is_still_masked() {
        for split in 1.."hf_secret".len() {
            let (a, b) = "token=hf_secret\n".split_at("token=".len() + split);
            assert_eq!(masked(&["hf_secret"], &[a, b]), "token=******\n", "{a}|{b}");
        }
        assert_eq!(
            masked(&["hf_secret"], &["hf", "_se", "cret"]),
            "******",
            "three chunks"
        );
    }

    #[test]
    fn only_a_possible_beginning_is_held_back() {
        let mut mask = LogMask::new(["hf_secret"]);
        assert_eq!(mask.push(b"step 1 loss 0.5\n"), b"step 1 loss 0.5\n");
        assert_eq!(mask.push(b"ends with hf_"), b"ends with ");
        assert_eq!(mask.push(b"not it\n"), b"hf_not it\n");
        assert_eq!(mask.push(b"hf"), b"");
        assert_eq!(
            mask.finish(),
            b"hf",
            "a short beginning at the end is shown"
        );
    }

    #[test]
    fn a_value_cut_off_by_the_logs_end_is_masked() {
        // The program died printing it: its first part is still the value's.
        assert_eq!(
            masked(&["s3cr3t-value"], &["start\npart1 s3cr3t-v"]),
            "start\npart1 ******"
        );
        assert_eq!(masked(&["s3cr3t-value"], &["loss s3"]), "loss s3");
    }

    #[test]
    fn a_read_of_a_log_still_written_leaves_out_what_may_begin_a_value() {
        let mut text = LogText::new(LogMask::new(["s3cr3t-value"]));
        assert_eq!(text.push(b"start\npart1 s3cr3t-v"), "start\npart1 ");
        text.cut();
        let mut withheld = LogText::new(LogMask::new(["ab"]));
        assert_eq!(withheld.push(b"one\ntwo, unfinis"), "******\n");
        withheld.cut();
        // A character's first bytes wait too, and are dropped with the tail.
        let mut split = LogText::new(LogMask::new(["s3cr3t-value"]));
        assert_eq!(split.push("é".as_bytes().split_at(1).0), "");
        split.cut();
    }

    #[test]
    fn each_line_of_a_value_of_several_lines_is_masked_on_its_own() {
        let key = "-----BEGIN KEY-----\r\nMIIEvQIBADANBg\n  kqhkiG9w0B\nZw==\n    \n},\n-----END KEY-----";
        // Printed escaped, as `printf %q` or a JSON writer does: masked whole as such.
        let escaped = key.replace('\r', "\\r").replace('\n', "\\n");
        assert_eq!(
            masked(&[key], &[&format!("settings: {escaped}\n")]),
            "settings: ******\n"
        );
        // Escaped otherwise (`\r` dropped, say), no line long enough to be told from other
        // text shows.
        let other = key.replace('\r', "").replace('\n', "\\n");
        assert_eq!(
            masked(&[key], &[&format!("settings: {other}\n")]),
            "settings: ******\\n******\\n  ******\\nZw==\\n    \\n},\\n******\n"
        );
        // Its short lines are not masked elsewhere in the log.
        assert_eq!(masked(&[key], &["    },\n"]), "    },\n");
        // Printed as it is, it is one value.
        assert_eq!(masked(&[key], &[&format!("{key}\n")]), "******\n");
    }

    #[test]
    fn the_longest_value_wins_where_values_overlap() {
        assert_eq!(
            masked(&["abc", "abcdef"], &["x abcdef y abc"]),
            "x ****** y ******"
        );
        // Also when a chunk ends where the shorter one is complete.
        assert_eq!(
            masked(&["abc", "abcdef"], &["x abc", "def y"]),
            "x ****** y"
        );
        assert_eq!(masked(&["abc", "abcdef"], &["x abc", "dxf"]), "x ******dxf");
    }

    /// A value of one or two characters: the reader gets a mask per line and nothing of
    /// the text, however the log is cut into chunks, so neither the value nor where it
    /// stands shows.
    #[test]
    fn a_value_too_short_to_mask_withholds_every_line() {
        let log = "step 1 loss 0.7\nepoch 17 pw=ok\n密 done\nno newline at the end";
        let withheld = "******\n******\n******\n******";
        for values in [
            &["7"][..],
            &["ok"],
            &["密"],
            &["hf_secret", "7"],
            &["ab", "ab"],
        ] {
            assert_eq!(masked(values, &[log]), withheld, "{values:?}");
            let bytes = log.as_bytes();
            for at in 0..=bytes.len() {
                let parts = as_text(values, &[&bytes[..at], &bytes[at..]]);
                assert_eq!(parts.concat(), withheld, "{values:?} split at {at}");
                for part in &parts {
                    assert!(
                        part.chars().all(|c| "*\n".contains(c)),
                        "{values:?} split at {at}: {part:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_withheld_line_shows_once_it_ends() {
        let mut mask = LogMask::new(["7"]);
        assert!(!mask.is_empty());
        assert_eq!(mask.push(b"loss 0.7"), b"");
        assert_eq!(mask.push(b"\nstep 2\nstep"), b"******\n******\n");
        assert_eq!(mask.push(b" 3\n"), b"******\n");
        assert_eq!(mask.finish(), b"", "nothing was left open");
        assert_eq!(
            LogMask::new(["7"]).all(b""),
            b"",
            "an empty log stays empty"
        );
        // A progress bar that redraws its line with `\r` and never ends it: nothing of
        // it is kept while it goes on (it is never shown), and at the end it is one line.
        let mut bar = LogMask::new(["7"]);
        for step in 0..1000 {
            assert_eq!(bar.push(format!("\r{step:>4}/1000 [====]").as_bytes()), b"");
            assert!(bar.held.is_empty(), "kept {} bytes", bar.held.len());
        }
        assert_eq!(bar.finish(), HIDDEN_VALUE_MASK.as_bytes());
    }

    #[test]
    fn a_value_of_three_characters_is_masked_where_it_appears() {
        assert_eq!(SHORTEST_MASKABLE, 3);
        assert_eq!(
            masked(&["abc", "密钥🔑"], &["x abc y 密钥🔑\n"]),
            "x ****** y ******\n"
        );
    }

    #[test]
    fn without_values_the_log_passes_unchanged() {
        let mask = LogMask::new(["", ""]);
        assert!(mask.is_empty());
        assert_eq!(mask.all(b"anything \xff at all"), b"anything \xff at all");
    }

    /// The text of `chunks` through a [`LogText`] masking `values`, one string per push
    /// and the finish.
    fn as_text(values: &[&str], chunks: &[&[u8]]) -> Vec<String> {
        let mut text = LogText::new(LogMask::new(values.iter().copied()));
        let mut out: Vec<String> = chunks.iter().map(|c| text.push(c)).collect();
        out.push(text.finish());
        out
    }

    #[test]
    fn a_character_split_at_any_byte_comes_out_whole() {
        // 2-, 3- and 4-byte characters, between and beside ASCII.
        let log = "é中😀x£語🚀\n";
        let bytes = log.as_bytes();
        for values in [&[][..], &["unused"][..]] {
            for a in 0..=bytes.len() {
                for b in a..=bytes.len() {
                    let parts = as_text(values, &[&bytes[..a], &bytes[a..b], &bytes[b..]]);
                    assert_eq!(parts.concat(), log, "split at {a} and {b}");
                    assert!(
                        parts
                            .iter()
                            .all(|p| !p.contains(char::REPLACEMENT_CHARACTER)),
                        "split at {a} and {b}: {parts:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_hidden_value_of_several_byte_characters_split_anywhere_is_masked() {
        let log = "key=密钥🔑x\n";
        let bytes = log.as_bytes();
        for at in 0..=bytes.len() {
            let parts = as_text(&["密钥🔑"], &[&bytes[..at], &bytes[at..]]);
            assert_eq!(parts.concat(), "key=******x\n", "split at {at}");
        }
        // ASCII secrets split across pushes, beside a split character.
        let parts = as_text(
            &["hf_secret"],
            &[b"\xe4\xb8", b"\xad hf_s", b"ecret \xf0\x9f", b"\x98\x80"],
        );
        assert_eq!(parts.concat(), "中 ****** 😀");
    }

    #[test]
    fn what_can_never_be_a_character_is_shown_at_once_and_a_cut_one_at_the_end() {
        assert_eq!(as_text(&[], &[b"a\xffb"]), ["a\u{FFFD}b", ""]);
        assert_eq!(as_text(&[], &[b"a\xe4\xb8"]), ["a", "\u{FFFD}"]);
        // A beginning that the next byte does not continue is replaced then.
        assert_eq!(as_text(&[], &[b"\xe4", b"z"]), ["", "\u{FFFD}z", ""]);
    }

    /// The end of `text` cut as a reader of it whole would cut it.
    fn tail_of(text: &str, max: usize) -> (u64, String) {
        let mut tail = LogTail::new(max, true);
        tail.push(text);
        tail.finish()
    }

    #[test]
    fn a_tail_starts_at_a_line_and_says_what_it_left_out() {
        let log = "one\ntwo\nthree\nfour\n";
        assert_eq!(tail_of(log, 100), (0, log.to_owned()));
        assert_eq!(tail_of(log, 11), (8, "three\nfour\n".to_owned()));
        assert_eq!(tail_of(log, 10), (14, "four\n".to_owned()));
        assert_eq!(tail_of(log, 5), (14, "four\n".to_owned()));
        // A last line longer than the tail, from within, at a character's start.
        assert_eq!(tail_of("a\nééé", 3), (6, "é".to_owned()));
        assert_eq!(tail_of("", 3), (0, String::new()));
        // A carriage return alone starts a line (a progress bar's redraw), a `\r\n`
        // one line's end (review, round 15: the end began within a redraw).
        assert_eq!(tail_of("10%\r20%\r30%", 6), (8, "30%".to_owned()));
        assert_eq!(tail_of("one\r\ntwo\r\n", 6), (5, "two\r\n".to_owned()));
        assert_eq!(tail_of("one\r\ntwo", 4), (5, "two".to_owned()));
    }

    /// A tail never begins within a mask: it begins at the mask's start, though that is
    /// more than it asked for (exploratory test: `tail_bytes=4` of a line ending in a
    /// mask answered `***\n`).
    #[test]
    fn a_tail_begins_at_a_masks_start_rather_than_within_it() {
        let log = "WANDB_API_KEY=******\n";
        assert_eq!(tail_of(log, 1), (20, "\n".to_owned()), "after the mask");
        for max in 2..=6 {
            assert_eq!(tail_of(log, max), (14, "******\n".to_owned()), "{max}");
        }
        assert_eq!(tail_of(log, 7), (14, "******\n".to_owned()));
        assert_eq!(tail_of(log, 8), (13, "=******\n".to_owned()));
        // Masks side by side, and the log's own asterisks beside one: from the run's start.
        assert_eq!(tail_of("a ************", 3), (2, "************".to_owned()));
        assert_eq!(tail_of("a ********", 3), (2, "********".to_owned()));
        // A run longer than a tail's look back (a progress bar's) is left out to its end.
        let bar = format!("[{}] 100%", "*".repeat(200));
        assert_eq!(tail_of(&bar, 100), (201, "] 100%".to_owned()));
        // Unless the log ends in it: its end is the run's, not nothing (review: a
        // progress bar still drawing tailed as an empty log).
        let drawing = format!("done\n[{}", "*".repeat(200));
        assert_eq!(tail_of(&drawing, 100), (106, "*".repeat(100)));
        // A log withheld line by line.
        assert_eq!(
            tail_of("******\n******\n******", 2),
            (14, "******".to_owned())
        );
        // Without values to mask, asterisks are the log's own and cut as any text.
        let mut plain = LogTail::new(4, false);
        plain.push(log);
        assert_eq!(plain.finish(), (17, "***\n".to_owned()));
    }

    #[test]
    fn a_tail_kept_piece_by_piece_is_the_tail_of_the_whole() {
        // Lines of many lengths, some longer than the tail, in pieces of many sizes.
        let mut log = String::new();
        for n in 0..400_usize {
            log.push_str(&"x".repeat((n * 7919) % 53));
            log.push(if n % 11 == 0 { 'é' } else { 'y' });
            // Masks, and asterisks of the log's own beside them.
            log.push_str(&"*".repeat(if n % 97 == 0 { 150 } else { (n * 31) % 15 }));
            log.push_str(match n % 7 {
                3 => "\r",
                5 => "\r\n",
                _ => "\n",
            });
        }
        for (max, masked) in [1, 5, 40, 64, 100, 999]
            .into_iter()
            .flat_map(|max| [(max, true), (max, false)])
        {
            for size in [1, 3, 17, 64, 500] {
                let mut tail = LogTail::new(max, masked);
                let mut rest = log.as_str();
                while !rest.is_empty() {
                    let mut at = size.min(rest.len());
                    while !rest.is_char_boundary(at) {
                        at += 1;
                    }
                    tail.push(&rest[..at]);
                    rest = &rest[at..];
                }
                let mut whole = LogTail::new(max, masked);
                whole.push(&log);
                assert_eq!(
                    tail.finish(),
                    whole.finish(),
                    "max {max}, masked {masked}, pieces of {size}"
                );
            }
        }
    }
}
