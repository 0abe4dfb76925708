//! Reads a RayJob runtime env as Ray does: with PyYAML's safe loader.
//!
//! yaml-rust2 parses YAML 1.2; Ray reads the text with PyYAML's `safe_load`, which
//! differs where it matters to a runtime env: plain scalars follow YAML 1.1 (`yes` and
//! `on` are booleans, `2024-01-01` a date, `1e3` a string), duplicate keys are allowed
//! (the last wins), an implicit empty key (`: a`, `: : :`) is refused, a list or mapping
//! as a key is refused (unhashable), and only the standard tags are read. This module
//! builds the document from yaml-rust2's events with those rules, so the validator
//! refuses what Ray refuses and reads values as Ray gets them.

use super::runtime_env::{Refusal, Syntax, Value, YamlFault};
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::{Marker, ScanError, Scanner, TScalarStyle, Token, TokenType};

/// The documents of `text`, or the first reason PyYAML would refuse it.
pub(super) fn load(text: &str) -> Result<Vec<Value>, Refusal> {
    // PyYAML's reader takes a leading byte-order mark as the encoding's, not as text,
    // and refuses the characters it calls special before it parses; yaml-rust2 does
    // neither.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some((at, c)) = text.chars().enumerate().find(|(_, c)| !printable(*c)) {
        let detail = format!(
            "unacceptable character #x{:04x}: special characters are not allowed",
            u32::from(c)
        );
        return Err(refusal(place(text, at), YamlFault::Other, detail));
    }
    let mut builder = Builder::default();
    let parsed = Parser::new_from_str(text).load(&mut builder, true);
    // A tab PyYAML's scanner refuses and yaml-rust2's takes comes before what is wrong
    // further on, and before anything the loader would refuse once the text is read.
    let tab = stray_tab(text).map(|at| place(text, at));
    // Ray reads the text with `safe_load`, which takes one document: said before
    // anything wrong in the second, as PyYAML stops there.
    if let Some(second) = builder.second_document
        && tab.is_none_or(|tab| (line(&second), column(&second)) < tab)
    {
        let detail = "expected a single document in the stream, but found another document";
        return Err(refusal(
            (line(&second), column(&second)),
            YamlFault::Other,
            detail.to_owned(),
        ));
    }
    let parse_error = parsed.err().map(|e| {
        // An alias whose anchor is missing is an alias all the same: refused as one.
        if e.info().contains("unknown anchor") {
            Refusal::Alias
        } else {
            Refusal::Syntax(syntax(text, &builder.opened, &e))
        }
    });
    if let Some(tab) = tab {
        let before = match &parse_error {
            Some(Refusal::Syntax(e)) => (e.line, e.column) < tab,
            _ => false,
        };
        if !before {
            let detail = "found character '\\t' that cannot start any token".to_owned();
            return Err(refusal(tab, YamlFault::Tab, detail));
        }
    }
    if let Some(refusal) = builder.refusal.take() {
        return Err(refusal);
    }
    match parse_error {
        Some(refusal) => Err(refusal),
        None => Ok(builder.docs),
    }
}

/// The first tab (its index in chars) that PyYAML's scanner meets between tokens or in a
/// plain value, where it takes spaces only and refuses a tab as a token's start. Tabs in
/// a quoted value, a block scalar's text or a comment are text. yaml-rust2 refuses
/// tabs only where they indent, so a tab after a `:`, a `,` or a value, which Ray
/// refuses, would otherwise pass.
fn stray_tab(text: &str) -> Option<usize> {
    if !text.contains('\t') {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    // Stretches of text where a tab is text: [from, to) in chars, and for a block
    // scalar its indentation, within which a tab on a later line ends the block.
    let mut text_at: Vec<(usize, usize, usize)> = Vec::new();
    let mut block_text_from = None;
    let mut scanner = Scanner::new(text.chars());
    // Past a scan error nothing is known, nor past a quote opened after the last token
    // read (a tab there may be inside the quote the scanner could not close): the
    // parser's refusal says what is there.
    let (mut known, mut last) = (chars.len(), 0);
    loop {
        match scanner.next_token() {
            Ok(Some(Token(mark, kind))) => {
                let at = char_index(text, &mark).min(chars.len());
                last = last.max(at + 1);
                if let Some((from, indent)) = block_text_from.take() {
                    text_at.push((from, at.max(from), indent));
                }
                match kind {
                    TokenType::Scalar(
                        style @ (TScalarStyle::SingleQuoted | TScalarStyle::DoubleQuoted),
                        _,
                    ) => {
                        let end = closing_quote(&chars, at, style == TScalarStyle::DoubleQuoted);
                        text_at.push((at, end, 0));
                        last = last.max(end);
                    }
                    // Marked where its text starts, past the header's line (`|-  # note`),
                    // which is not text.
                    TokenType::Scalar(TScalarStyle::Literal | TScalarStyle::Folded, _) => {
                        block_text_from = Some((at, mark.col()));
                    }
                    TokenType::StreamEnd => break,
                    _ => {}
                }
            }
            Ok(None) => break,
            Err(e) => {
                known = char_index(text, e.marker()).min(chars.len());
                let from = last.min(known);
                if let Some(quote) = chars[from..known]
                    .iter()
                    .position(|c| matches!(c, '"' | '\''))
                {
                    known = from + quote;
                }
                break;
            }
        }
    }
    if let Some((from, indent)) = block_text_from {
        text_at.push((from, chars.len(), indent));
    }
    let mut stretches = text_at.iter().peekable();
    let mut i = 0;
    while i < known.min(chars.len()) {
        while stretches.next_if(|(_, to, _)| *to <= i).is_some() {}
        if let Some(&&(from, to, indent)) = stretches.peek()
            && from <= i
        {
            let (mut j, mut column) = (i, indent);
            while j < to {
                match chars[j] {
                    '\n' | '\r' => {
                        column = 0;
                        j += 1;
                        // A line indented less than the text has ended the block: a
                        // comment there is a comment, whatever it holds.
                        let first = chars[j..to].iter().position(|c| *c != ' ');
                        if let Some(at) = first.filter(|at| *at < indent)
                            && chars[j + at] == '#'
                        {
                            j += at;
                            while j < to && !matches!(chars[j], '\n' | '\r') {
                                j += 1;
                            }
                        }
                        continue;
                    }
                    '\t' if column < indent => return Some(j),
                    _ => column += 1,
                }
                j += 1;
            }
            i = to;
            continue;
        }
        match chars[i] {
            '\t' => return Some(i),
            // A comment: `#` at a line's start or after a space (a tab before it has
            // been refused already).
            '#' if i == 0 || matches!(chars[i - 1], ' ' | '\n' | '\r') => {
                while i < chars.len() && !matches!(chars[i], '\n' | '\r') {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// Past the quote that closes the one at `open` (`''` is a quote inside single quotes,
/// `\\"` inside double ones), or the text's end.
fn closing_quote(chars: &[char], open: usize, double: bool) -> usize {
    let mut i = open + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' if double => i += 2,
            '\'' if !double && chars.get(i + 1) == Some(&'\'') => i += 2,
            '"' if double => return i + 1,
            '\'' if !double => return i + 1,
            _ => i += 1,
        }
    }
    chars.len()
}

/// The parser's error in the words the messages have for it. Inside a `[` or `{` the
/// parser stops where the bracket's content goes wrong, often a line or more after the
/// bracket that was never closed, so the bracket's line is kept beside it.
fn syntax(text: &str, opened: &[Marker], error: &ScanError) -> Syntax {
    let info = error.info();
    let flow =
        opened
            .iter()
            .rev()
            .find_map(|mark| match text.chars().nth(char_index(text, mark)) {
                Some('[') => Some((YamlFault::FlowList, mark)),
                Some('{') => Some((YamlFault::FlowMapping, mark)),
                _ => None,
            });
    let mut open_line = None;
    // Only these say the quote runs on to the end of the text or of the document;
    // other quote errors are of a closed quote. A quoted line that runs into a line
    // less indented is an open quote only if no closing mark follows: yaml-rust2 also
    // refuses a closed quote whose next line is not indented, which PyYAML reads.
    let unclosed = ["unexpected end of stream", "document indicator"];
    let never_closed = || {
        let mut rest = text.chars().skip(char_index(text, error.marker()));
        rest.next().is_some_and(|quote| !rest.any(|c| c == quote))
    };
    let runs_on = info.contains("indentation in quoted") && never_closed();
    let fault = if info.contains("quoted scalar")
        && (unclosed.iter().any(|u| info.contains(u)) || runs_on)
    {
        YamlFault::Quote
    } else if info.contains("tab") {
        YamlFault::Tab
    } else if info.contains("quoted scalar") || info.starts_with("unexpected character") {
        YamlFault::Other
    } else if let (Some((fault, mark)), false) = (flow, info.contains("recursion limit")) {
        open_line = Some(line(mark));
        fault
    } else if info == "mapping values are not allowed in this context" {
        YamlFault::Colon
    } else if info.contains("indentation")
        || info.contains("expected <document start>")
        || info.ends_with("did not find expected key")
        || info.ends_with("did not find expected '-' indicator")
    {
        YamlFault::Indent
    } else {
        YamlFault::Other
    };
    let mark = error.marker();
    let tab = (fault == YamlFault::Tab)
        .then(|| tab_place(text, error))
        .flatten();
    let (line, column) = if let Some(at) = tab {
        at
    } else if info.contains("<document start>") {
        // The parser marks inside the line where the next document would start;
        // PyYAML marks the line's start.
        (line(mark), 1)
    } else if char_index(text, mark) >= text.chars().count() {
        // At the end of a text with no last line break the parser, which reads one
        // there, names the line after the last; PyYAML names the end of the last.
        place(text, char_index(text, mark))
    } else {
        (line(mark), column(mark))
    };
    Syntax {
        line,
        column,
        fault,
        open_line,
        detail: info.to_owned(),
    }
}

/// A syntax refusal at `(line, column)` with no bracket open there.
fn refusal((line, column): (usize, usize), fault: YamlFault, detail: String) -> Refusal {
    Refusal::Syntax(Syntax {
        line,
        column,
        fault,
        open_line: None,
        detail,
    })
}

/// Whether PyYAML's reader accepts `c` (its `NON_PRINTABLE`, inverted).
fn printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}'
        | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
}

/// Where the tab that `error` (a tab where YAML allows none) is about lies in `text`, as
/// PyYAML marks it (line and column from 1): the parser marks the tab's line past the
/// tab, or the end of the line before it, or, for a tab in a plain value, the value's
/// start. `None` when no tab follows the mark.
pub(crate) fn tab_place(text: &str, error: &ScanError) -> Option<(usize, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let at = char_index(text, error.marker()).min(chars.len());
    // A tab in a plain value: the tab follows the mark. A tab that indents: the search
    // starts at the marked line's start.
    let from = if error.info().contains("plain scalar") {
        at
    } else {
        chars[..at]
            .iter()
            .rposition(|c| matches!(c, '\n' | '\r'))
            .map_or(0, |i| i + 1)
    };
    let tab = chars[from..].iter().position(|c| *c == '\t')? + from;
    Some(place(text, tab))
}

/// The line and column (from 1) of the character at `at`, lines broken as YAML breaks
/// them (`\n`, `\r\n` or a lone `\r`).
fn place(text: &str, at: usize) -> (usize, usize) {
    let (mut line, mut column) = (1, 1);
    let mut chars = text.chars().take(at).peekable();
    while let Some(c) = chars.next() {
        if c == '\n' || (c == '\r' && chars.peek() != Some(&'\n')) {
            (line, column) = (line + 1, 1);
        } else if c != '\r' {
            column += 1;
        }
    }
    (line, column)
}

/// Where the parser's mark is, in chars from the text's start. Not `Marker::index`:
/// yaml-rust2 0.13 adds a block scalar's line to it in bytes, so after a line of Chinese
/// text in a `|` block every later index is too large; its line and column are right.
fn char_index(text: &str, mark: &Marker) -> usize {
    let mut line = 1;
    let mut chars = text.chars().enumerate().peekable();
    let mut start = 0;
    while line < mark.line() {
        let Some((i, c)) = chars.next() else {
            return text.chars().count();
        };
        if c == '\n' || (c == '\r' && chars.peek().map(|(_, c)| *c) != Some('\n')) {
            line += 1;
            start = i + 1;
        }
    }
    start + mark.col()
}

fn line(mark: &Marker) -> usize {
    mark.line()
}

fn column(mark: &Marker) -> usize {
    mark.col() + 1
}

enum Frame {
    Seq(Vec<Value>),
    /// Entries, the key waiting for its value, and entries from merge keys (`<<`).
    Map(Vec<(Value, Value)>, Option<Value>, Vec<(Value, Value)>),
}

/// A key that merges (`<<`); never stored as an entry.
const MERGE: &str = "\u{0}<<";

#[derive(Default)]
struct Builder {
    docs: Vec<Value>,
    stack: Vec<Frame>,
    /// Where each frame of `stack` began (at its `[` or `{` when it has one).
    opened: Vec<Marker>,
    /// The event being built; none before the first.
    at: Option<Marker>,
    /// Documents begun so far, and where the second began.
    documents: usize,
    second_document: Option<Marker>,
    refusal: Option<Refusal>,
}

impl Builder {
    fn refuse(&mut self, refusal: Refusal) {
        self.refusal.get_or_insert(refusal);
    }

    /// A refusal of the builder's own (not the parser's), at the event being built.
    fn refuse_here(&mut self, fault: YamlFault, detail: String) {
        let at = self.at.as_ref().map_or((1, 1), |at| (line(at), column(at)));
        self.refuse(refusal(at, fault, detail));
    }

    fn key_pending(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Map(_, None, _)))
    }

    fn insert(&mut self, value: Value) {
        match self.stack.last_mut() {
            None => self.docs.push(value),
            Some(Frame::Seq(items)) => items.push(value),
            Some(Frame::Map(_, key @ None, _)) => {
                if matches!(value, Value::Seq(_) | Value::Map(_)) {
                    self.refusal.get_or_insert(Refusal::UnhashableKey);
                }
                *key = Some(value);
            }
            Some(Frame::Map(entries, key @ Some(_), merged)) => {
                let key = key.take().unwrap_or(Value::Null);
                if key == Value::Str(MERGE.to_owned()) {
                    // Merged entries come first, so the mapping's own keys win.
                    let ok = match value {
                        Value::Map(more) => {
                            merged.extend(more);
                            true
                        }
                        // Of a list of mappings the first wins, as in PyYAML.
                        Value::Seq(maps) => maps.into_iter().rev().all(|m| match m {
                            Value::Map(more) => {
                                merged.extend(more);
                                true
                            }
                            _ => false,
                        }),
                        _ => false,
                    };
                    if !ok {
                        self.refuse_here(
                            YamlFault::Other,
                            "'<<' merges a mapping or a list of mappings; quote it to use it as a key"
                                .to_owned(),
                        );
                    }
                } else {
                    entries.push((key, value));
                }
            }
        }
    }

    /// The standard tag's name (`str` for `!!str`), `Some("")` for the non-specific
    /// `!`, or the refusal for any other tag.
    fn standard(tag: &Option<Tag>) -> Result<Option<String>, Refusal> {
        let Some(tag) = tag else { return Ok(None) };
        if tag.handle.is_empty() && tag.suffix == "!" {
            return Ok(Some(String::new()));
        }
        let full = format!("{}{}", tag.handle, tag.suffix);
        match full.strip_prefix("tag:yaml.org,2002:") {
            Some(
                name @ ("null" | "bool" | "int" | "float" | "binary" | "timestamp" | "omap"
                | "pairs" | "set" | "str" | "seq" | "map"),
            ) => Ok(Some(name.to_owned())),
            _ => Err(Refusal::Tag(written(tag))),
        }
    }

    fn scalar(&mut self, text: String, style: TScalarStyle, tag: &Option<Tag>) {
        let name = match Self::standard(tag) {
            Ok(name) => name,
            Err(refusal) => return self.refuse(refusal),
        };
        let plain = style == TScalarStyle::Plain;
        if plain && name.is_none() && text.is_empty() && self.key_pending() {
            return self.refuse_here(YamlFault::MissingKey, "a mapping key is missing".to_owned());
        }
        let bad = |what: &str| format!("'{text}' is not {what}");
        let value = match name.as_deref() {
            None if plain => match resolve(&text) {
                Resolved::Null => Value::Null,
                Resolved::Bool => Value::Bool(is_true(&text)),
                Resolved::Number => Value::Number(text),
                Resolved::Timestamp => Value::Other,
                Resolved::Merge if self.key_pending() => Value::Str(MERGE.to_owned()),
                Resolved::Str => Value::Str(text),
                // PyYAML resolves these to tags it has no constructor for.
                Resolved::Merge | Resolved::Value => {
                    return self.refuse_here(
                        YamlFault::Other,
                        format!("PyYAML cannot read a bare '{text}' here; quote it"),
                    );
                }
            },
            None | Some("" | "str") => Value::Str(text),
            Some("null") => Value::Null,
            // ASCII lowering is Unicode lowering here: no other letter lowers to the
            // letters of these words (a test checks every char), and it spares the
            // bundles Unicode's case tables.
            Some("bool") => match text.to_ascii_lowercase().as_str() {
                "yes" | "true" | "on" => Value::Bool(true),
                "no" | "false" | "off" => Value::Bool(false),
                _ => return self.refuse_here(YamlFault::Other, bad("a boolean")),
            },
            Some("int") if is_int(&text) => Value::Number(text),
            Some("float")
                if is_int(&text) || is_float(&text) || parses_as_f64(&text.replace('_', "")) =>
            {
                Value::Number(text)
            }
            Some("timestamp") if is_timestamp(&text) => Value::Other,
            Some("binary") => Value::Other,
            Some("int") => return self.refuse_here(YamlFault::Other, bad("an integer")),
            Some("float") => return self.refuse_here(YamlFault::Other, bad("a number")),
            Some("timestamp") => return self.refuse_here(YamlFault::Other, bad("a timestamp")),
            Some(collection) => {
                return self.refuse_here(
                    YamlFault::Other,
                    format!("!!{collection} needs a collection, not a scalar"),
                );
            }
        };
        self.insert(value);
    }

    fn start(&mut self, tag: &Option<Tag>, map: bool) {
        let fits = match Self::standard(tag) {
            Err(refusal) => return self.refuse(refusal),
            Ok(None) => true,
            Ok(Some(name)) => match name.as_str() {
                "" => true,
                "map" | "set" => map,
                "seq" | "omap" | "pairs" => !map,
                _ => false,
            },
        };
        if !fits {
            self.refuse_here(
                YamlFault::Other,
                format!(
                    "the tag {} does not fit a {}",
                    tag.as_ref().map(written).unwrap_or_default(),
                    if map { "mapping" } else { "list" }
                ),
            );
        }
        if let Some(at) = self.at {
            self.opened.push(at);
        }
        self.stack.push(if map {
            Frame::Map(Vec::new(), None, Vec::new())
        } else {
            Frame::Seq(Vec::new())
        });
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, event: Event, mark: Marker) {
        if self.refusal.is_some() {
            return;
        }
        self.at = Some(mark);
        if matches!(event, Event::SequenceEnd | Event::MappingEnd) {
            self.opened.pop();
        }
        match event {
            Event::Alias(_) => self.refuse(Refusal::Alias),
            Event::Scalar(text, style, _, tag) => self.scalar(text, style, &tag),
            Event::SequenceStart(_, tag) => self.start(&tag, false),
            Event::MappingStart(_, tag) => self.start(&tag, true),
            Event::SequenceEnd => {
                if let Some(Frame::Seq(items)) = self.stack.pop() {
                    self.insert(Value::Seq(items));
                }
            }
            Event::MappingEnd => {
                if let Some(Frame::Map(entries, _, merged)) = self.stack.pop() {
                    // A merged entry that a later one overrides is dropped: the mapping
                    // reads the same (the last wins), and a key the text gives twice
                    // (`ray::runtime_env` warns of it) is not confused with an override.
                    let kept: Vec<bool> = (0..merged.len())
                        .map(|i| {
                            let mut later = merged[i + 1..].iter().chain(&entries);
                            !later.any(|(k, _)| *k == merged[i].0)
                        })
                        .collect();
                    let mut all: Vec<_> = merged
                        .into_iter()
                        .zip(kept)
                        .filter_map(|(entry, kept)| kept.then_some(entry))
                        .collect();
                    all.extend(entries);
                    self.insert(Value::Map(all));
                }
            }
            Event::DocumentStart => {
                self.documents += 1;
                if self.documents == 2 {
                    self.second_document = Some(mark);
                }
            }
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => {}
        }
    }
}

/// A tag as the user wrote it (`!!python/object`, `!foo`).
fn written(tag: &Tag) -> String {
    match tag.handle.as_str() {
        "tag:yaml.org,2002:" => format!("!!{}", tag.suffix),
        "!" => format!("!{}", tag.suffix),
        handle => format!("!<{handle}{}>", tag.suffix),
    }
}

enum Resolved {
    Null,
    Bool,
    Number,
    Timestamp,
    Merge,
    Value,
    Str,
}

/// PyYAML's implicit resolvers (YAML 1.1) for a plain scalar.
fn resolve(text: &str) -> Resolved {
    if matches!(text, "" | "~" | "null" | "Null" | "NULL") {
        Resolved::Null
    } else if is_true(text) || is_false(text) {
        Resolved::Bool
    } else if is_float(text) || is_int(text) {
        Resolved::Number
    } else if is_timestamp(text) {
        Resolved::Timestamp
    } else if text == "<<" {
        Resolved::Merge
    } else if text == "=" {
        Resolved::Value
    } else {
        Resolved::Str
    }
}

fn is_true(text: &str) -> bool {
    matches!(
        text,
        "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON"
    )
}

fn is_false(text: &str) -> bool {
    matches!(
        text,
        "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF"
    )
}

/// `text` without one leading `-` or `+`.
fn unsigned(text: &str) -> &str {
    text.strip_prefix(['-', '+']).unwrap_or(text)
}

fn all(text: &str, f: impl Fn(u8) -> bool) -> bool {
    text.bytes().all(f)
}

fn digit_or_underscore(b: u8) -> bool {
    b.is_ascii_digit() || b == b'_'
}

/// `(?::[0-5]?[0-9])+`: the sexagesimal tail of `1:30:00`.
fn is_sexagesimal_tail(text: &str) -> bool {
    let Some(rest) = text.strip_prefix(':') else {
        return false;
    };
    rest.split(':').all(|part| {
        let b = part.as_bytes();
        match b {
            [d] => d.is_ascii_digit(),
            [h, d] => (b'0'..=b'5').contains(h) && d.is_ascii_digit(),
            _ => false,
        }
    })
}

/// `[1-9][0-9_]*` followed by what `tail` accepts.
fn decimal_then(text: &str, tail: impl Fn(&str) -> bool) -> bool {
    let end = text
        .bytes()
        .position(|b| !digit_or_underscore(b))
        .unwrap_or(text.len());
    end > 0 && tail(&text[end..])
}

/// PyYAML's int resolver.
fn is_int(text: &str) -> bool {
    let r = unsigned(text);
    if let Some(bits) = r.strip_prefix("0b") {
        return !bits.is_empty() && all(bits, |b| matches!(b, b'0' | b'1' | b'_'));
    }
    if let Some(hex) = r.strip_prefix("0x") {
        return !hex.is_empty() && all(hex, |b| b.is_ascii_hexdigit() || b == b'_');
    }
    if r == "0" {
        return true;
    }
    if let Some(octal) = r.strip_prefix('0') {
        return all(octal, |b| matches!(b, b'0'..=b'7' | b'_'));
    }
    r.starts_with(|c: char| ('1'..='9').contains(&c))
        && decimal_then(r, |tail| tail.is_empty() || is_sexagesimal_tail(tail))
}

/// `(?:[eE][-+][0-9]+)?` after the fraction.
fn is_exponent_or_empty(text: &str) -> bool {
    let Some(rest) = text.strip_prefix(['e', 'E']) else {
        return text.is_empty();
    };
    let Some(digits) = rest.strip_prefix(['-', '+']) else {
        return false;
    };
    !digits.is_empty() && all(digits, |b| b.is_ascii_digit())
}

/// `\.[0-9_]*` then an optional exponent.
fn is_fraction(text: &str, exponent: bool) -> bool {
    let Some(rest) = text.strip_prefix('.') else {
        return false;
    };
    let end = rest
        .bytes()
        .position(|b| !digit_or_underscore(b))
        .unwrap_or(rest.len());
    if exponent {
        is_exponent_or_empty(&rest[end..])
    } else {
        end == rest.len()
    }
}

/// PyYAML's float resolver.
fn is_float(text: &str) -> bool {
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    if let Some(rest) = text.strip_prefix('.') {
        // `\.[0-9][0-9_]*` and an exponent: no sign before a leading dot.
        if rest.starts_with(|c: char| c.is_ascii_digit()) && is_fraction(text, true) {
            return true;
        }
    }
    let r = unsigned(text);
    if matches!(r, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    r.starts_with(|c: char| c.is_ascii_digit())
        && decimal_then(r, |tail| {
            is_fraction(tail, true) || {
                // `(?::[0-5]?[0-9])+\.[0-9_]*`
                tail.find('.').is_some_and(|dot| {
                    is_sexagesimal_tail(&tail[..dot]) && is_fraction(&tail[dot..], false)
                })
            }
        })
}

/// Whether `text.parse::<f64>()` succeeds, by its documented grammar (`inf`,
/// `infinity`, `nan` or a decimal with an optional exponent, after an optional sign;
/// letters in any case): the parse's tables cost the bundles 10 KB for a yes or no.
fn parses_as_f64(text: &str) -> bool {
    let r = unsigned(text);
    if ["inf", "infinity", "nan"]
        .iter()
        .any(|word| r.eq_ignore_ascii_case(word))
    {
        return true;
    }
    let (number, exponent) = r.split_once(['e', 'E']).unwrap_or((r, "0"));
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let exponent = unsigned(exponent);
    all(whole, |b| b.is_ascii_digit())
        && all(fraction, |b| b.is_ascii_digit())
        && whole.len() + fraction.len() > 0
        && !exponent.is_empty()
        && all(exponent, |b| b.is_ascii_digit())
}

/// `n` ASCII digits at the start of `text`, and the rest.
fn digits(text: &str, min: usize, max: usize) -> Option<&str> {
    let n = text
        .bytes()
        .take(max)
        .take_while(u8::is_ascii_digit)
        .count();
    (n >= min).then(|| &text[n..])
}

/// `YYYY-MM-DD` (or `YYYY-M-D` when `short`) at the start of `text`, and the rest.
fn date(text: &str, short: bool) -> Option<&str> {
    let min = if short { 1 } else { 2 };
    let t = digits(text, 4, 4)?.strip_prefix('-')?;
    let t = digits(t, min, 2)?.strip_prefix('-')?;
    digits(t, min, 2)
}

/// PyYAML's timestamp resolver: a date, or a date and time with an optional zone.
fn is_timestamp(text: &str) -> bool {
    if date(text, false) == Some("") {
        return true;
    }
    let time = || -> Option<()> {
        let t = date(text, true)?;
        let t = match t.strip_prefix(['T', 't']) {
            Some(t) => t,
            None => {
                let trimmed = t.trim_start_matches([' ', '\t']);
                (trimmed.len() < t.len()).then_some(trimmed)?
            }
        };
        let t = digits(t, 1, 2)?.strip_prefix(':')?;
        let t = digits(t, 2, 2)?.strip_prefix(':')?;
        let mut t = digits(t, 2, 2)?;
        if let Some(frac) = t.strip_prefix('.') {
            t = digits(frac, 0, usize::MAX)?;
        }
        let t = t.trim_start_matches([' ', '\t']);
        if t.is_empty() || t == "Z" {
            return Some(());
        }
        let t = digits(t.strip_prefix(['-', '+'])?, 1, 2)?;
        match t.strip_prefix(':') {
            None if t.is_empty() => Some(()),
            Some(m) if digits(m, 2, 2)?.is_empty() => Some(()),
            _ => None,
        }
    };
    time().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Value {
        load(text).expect("loads").remove(0)
    }

    fn scalar(text: &str) -> Value {
        one(&format!("a: {text}")).get("a").expect("has a").clone()
    }

    #[test]
    fn plain_scalars_resolve_as_in_pyyaml() {
        let s = |t: &str| Value::Str(t.to_owned());
        let n = |t: &str| Value::Number(t.to_owned());
        // Verified with PyYAML 6.0.3 safe_load.
        assert_eq!(scalar("yes"), Value::Bool(true));
        assert_eq!(scalar("Off"), Value::Bool(false));
        assert_eq!(scalar("y"), s("y"));
        assert_eq!(scalar("1e3"), s("1e3"));
        assert_eq!(scalar("1.0e+3"), n("1.0e+3"));
        assert_eq!(scalar("09"), s("09"));
        assert_eq!(scalar("012"), n("012"));
        assert_eq!(scalar("1:30"), n("1:30"));
        assert_eq!(scalar("1_000"), n("1_000"));
        assert_eq!(scalar("0b11"), n("0b11"));
        assert_eq!(scalar("0x_1"), n("0x_1"));
        assert_eq!(scalar("+12"), n("+12"));
        assert_eq!(scalar("-.5"), s("-.5"));
        assert_eq!(scalar(".5"), n(".5"));
        assert_eq!(scalar("1."), n("1."));
        assert_eq!(scalar("-.inf"), n("-.inf"));
        assert_eq!(scalar("1:30.5"), n("1:30.5"));
        assert_eq!(scalar("~"), Value::Null);
        assert_eq!(scalar(""), Value::Null);
        assert_eq!(scalar("2024-01-01"), Value::Other);
        assert_eq!(scalar("2024-1-1 10:00:00.5 +08:00"), Value::Other);
        assert_eq!(scalar("2024-1-1"), s("2024-1-1"));
        assert_eq!(scalar("'yes'"), s("yes"));
        assert_eq!(scalar("! 1"), s("1"));
        assert_eq!(scalar("!!str 1"), s("1"));
        assert_eq!(scalar("!!int '3'"), n("3"));
        assert_eq!(scalar("\"x\\0y\""), s("x\0y"));
    }

    #[test]
    fn what_pyyaml_refuses_is_refused() {
        for text in [
            ": : :",
            ": a",
            "- : a",
            "a: b: c",
            "a: =",
            "a: !!bool maybe",
            "a: !!int 1e3",
            "a: !!map x",
        ] {
            assert!(matches!(load(text), Err(Refusal::Syntax(_))), "{text}");
        }
        assert_eq!(
            load("a: !!python/object:os.system x"),
            Err(Refusal::Tag("!!python/object:os.system".to_owned()))
        );
        assert_eq!(load("a: !foo x"), Err(Refusal::Tag("!foo".to_owned())));
        assert_eq!(load("? [a]\n: x"), Err(Refusal::UnhashableKey));
        assert_eq!(load("a: &x 1\nb: *x"), Err(Refusal::Alias));
        assert_eq!(load("pip: *x"), Err(Refusal::Alias));
        assert!(matches!(load("a: <<"), Err(Refusal::Syntax(_))));
    }

    #[test]
    fn a_leading_byte_order_mark_is_not_part_of_the_first_key() {
        // PyYAML: {'pip': ['a']}.
        assert_eq!(
            one("\u{feff}pip: [a]").get("pip"),
            Some(&Value::Seq(vec![Value::Str("a".to_owned())]))
        );
    }

    #[test]
    fn duplicates_and_merges_read_as_in_pyyaml() {
        assert_eq!(
            one("a: 1\na: x").get("a"),
            Some(&Value::Str("x".to_owned()))
        );
        let merged = one("a:\n  <<: {b: x, c: y}\n  c: z\n");
        let a = merged.get("a").expect("a");
        assert_eq!(a.get("b"), Some(&Value::Str("x".to_owned())));
        assert_eq!(a.get("c"), Some(&Value::Str("z".to_owned())));
        assert_eq!(
            one("~: x"),
            Value::Map(vec![(Value::Null, Value::Str("x".to_owned()))])
        );
        // Verified with PyYAML 6: of a list of merged mappings the first wins, of two
        // merge keys the second; a key the mapping gives overrides them all.
        let first = one("a:\n  <<: [{b: 1}, {b: 2}]\n");
        let a = first.get("a").expect("a");
        assert_eq!(a.get("b"), Some(&Value::Number("1".to_owned())));
        let second = one("<<: {b: 1}\n<<: {b: 2}\n");
        assert_eq!(second.get("b"), Some(&Value::Number("2".to_owned())));
        // An override is not a key given twice: the mapping holds `pip` once.
        let s = |t: &str| Value::Str(t.to_owned());
        assert_eq!(
            one("<<: {pip: [a], conda: x}\npip: [b]\n"),
            Value::Map(vec![
                (s("conda"), s("x")),
                (s("pip"), Value::Seq(vec![s("b")])),
            ])
        );
    }

    #[test]
    fn tabs_in_quotes_block_text_and_comments_are_read_as_pyyaml_reads_them() {
        // Each read by PyYAML 6.0.3's `safe_load` to the value here.
        let s = |t: &str| Value::Str(t.to_owned());
        let cases = [
            ("a: '\t'", s("\t")),
            ("a: \"x\ty\"", s("x\ty")),
            ("a: 'it''s\tok'", s("it's\tok")),
            ("a: \"q\\\"\t\"", s("q\"\t")),
            ("a: |\n  x\ty\n", s("x\ty\n")),
            ("a: |  # a\tnote\n  x\n", s("x\n")),
        ];
        for (text, value) in cases {
            assert_eq!(one(text).get("a"), Some(&value), "{text:?}");
        }
        assert_eq!(
            one("a: 1 # c\twith tab\n# \t\n"),
            Value::Map(vec![(s("a"), Value::Number("1".to_owned()))])
        );
        // A comment less indented than a block's text has ended the block; one as
        // indented is the block's text.
        assert_eq!(one("a: |\n  x\n#\tnote\nb: 1\n").get("a"), Some(&s("x\n")));
        assert_eq!(
            one("a: |\n  x\n  #\tnot a note\nb: 1\n").get("a"),
            Some(&s("x\n#\tnot a note\n"))
        );
    }

    #[test]
    fn a_syntax_error_is_placed_and_named_as_a_reader_would_look_for_it() {
        use YamlFault::*;
        // (text, line, column, fault, line of the open bracket). The places were checked
        // against PyYAML 6: most are the same; yaml-rust2 puts some a column or so away
        // (`[a, b: c: d]`, an escape), and the builder's own (`!!int x`) PyYAML does not
        // place.
        let cases: &[(&str, usize, usize, YamlFault, Option<usize>)] = &[
            // The reported case: the parser stops at line 2, and the `[` of line 1
            // is what was left open.
            ("pip: [a\nenv_vars:", 2, 9, FlowList, Some(1)),
            ("pip: [a, b", 1, 11, FlowList, Some(1)),
            ("pip: [a, b\n", 2, 1, FlowList, Some(1)),
            ("pip: [numpy", 1, 12, FlowList, Some(1)),
            ("pip: [a, b: c: d]", 1, 15, FlowList, Some(1)),
            ("pip: {a: 1\nx: 2", 2, 2, FlowMapping, Some(1)),
            ("pip: \"abc\nx: 1", 1, 6, Quote, None),
            ("pip: 'abc", 1, 6, Quote, None),
            // Closed on its third line (PyYAML reads it; yaml-rust2 does not): the
            // reader's words, not a quote left open.
            ("a:\n  b: \"x\ny\"", 2, 6, Other, None),
            // Closed quotes with something wrong after or inside them: the reader's words.
            ("pip: \"numpy\" extra", 1, 14, Other, None),
            ("a: \"\\x4\"", 1, 4, Other, None),
            // PyYAML's special characters, refused where they stand (a BOM is not one).
            ("pip: [a\u{1}]", 1, 8, Other, None),
            ("\u{feff}pip: [a\n\u{7f}", 2, 1, Other, None),
            // One document only, as `safe_load` takes (PyYAML names the second's start).
            ("a: 1\n---\nb: 2", 2, 1, Other, None),
            ("a: 1\n---\n", 2, 1, Other, None),
            // The second document's own faults come after: PyYAML stops at its start.
            ("a: 1\n---\nb: [c", 2, 1, Other, None),
            ("a: 1\n---\nb: *x", 2, 1, Other, None),
            // A lone carriage return breaks a line, as in PyYAML.
            ("pip: [a\rx", 2, 2, FlowList, Some(1)),
            ("a: \"\\q\"", 1, 4, Other, None),
            ("pip:\n\t- a", 2, 1, Tab, None),
            ("a:\n  b: 1\n\t\tc: 2", 3, 1, Tab, None),
            ("pip:\n  - a\n\t- b", 3, 1, Tab, None),
            // A tab inside a quoted key is harmless; the one that indents is not.
            ("\"k\tk\": one\n\ttwo", 2, 1, Tab, None),
            ("a:\n  \"k\tk\": 1\n\t\tc: 2", 3, 1, Tab, None),
            // PyYAML takes spaces only between tokens and in a plain value: a tab after
            // a ':', a ',' or a '-', or after a value, is refused at the tab.
            ("pip:\t[a]", 1, 5, Tab, None),
            ("pip: [a,\tb]", 1, 9, Tab, None),
            ("{a: 1,\tb: 2}", 1, 7, Tab, None),
            ("a: 1\t\n", 1, 5, Tab, None),
            ("a: x\ty", 1, 5, Tab, None),
            ("a: \"x\"\t# c", 1, 7, Tab, None),
            ("- a\n-\tb", 2, 2, Tab, None),
            ("a: |\t\n  x\n", 1, 5, Tab, None),
            // Before what is wrong further on, and before what the loader refuses.
            ("a:\tb\nc: [d", 1, 3, Tab, None),
            ("a: b\t\n---\nc", 1, 5, Tab, None),
            ("a:\t*x", 1, 3, Tab, None),
            ("a:\t!!foo x", 1, 3, Tab, None),
            // Placed in chars after Chinese text, in a block (where yaml-rust2's own index
            // counts bytes) and in quotes.
            (
                "a: |\n  这是一段很长的中文文本，超过十六个字符的缓冲区\nc: 1\nb:\t1\n",
                4,
                3,
                Tab,
                None,
            ),
            (
                "a: \"中文中文中文中文中文中文中文中文\"\nb:\t1\n",
                2,
                3,
                Tab,
                None,
            ),
            ("a: b: c", 1, 5, Colon, None),
            ("pip:\n  - a\n - b", 3, 2, Indent, None),
            ("pip:\n  - a\n  b: 1", 3, 3, Indent, None),
            // The first line indented, the next not: where PyYAML says.
            ("  pip: [a]\nenv_vars: {}", 2, 1, Indent, None),
            ("a: @x", 1, 4, Other, None),
            (": a", 1, 1, MissingKey, None),
            // At the value the tag does not fit.
            ("a: !!int x", 1, 10, Other, None),
            // Columns count characters, not bytes.
            ("华东: [上海\n北京:", 2, 3, FlowList, Some(1)),
        ];
        for &(text, line, column, fault, open_line) in cases {
            let Err(Refusal::Syntax(syntax)) = load(text) else {
                panic!("{text:?} is refused as syntax: {:?}", load(text));
            };
            assert_eq!(
                (syntax.line, syntax.column, syntax.fault, syntax.open_line),
                (line, column, fault, open_line),
                "{text:?}: {}",
                syntax.detail
            );
        }
        // Nested past the parser's limit, brackets balanced: not a bracket left open,
        // but the parser's own words. yaml-rust2 stops at 255 levels, PyYAML at about
        // 500 (Python's recursion limit); both refuse 600.
        let deep = format!("a: {}1{}", "[".repeat(600), "]".repeat(600));
        let Err(Refusal::Syntax(syntax)) = load(&deep) else {
            panic!("refused as syntax: {:?}", load(&deep));
        };
        assert_eq!(syntax.fault, Other, "{}", syntax.detail);
    }

    #[test]
    fn the_f64_grammar_accepts_what_the_parse_accepts() {
        // Every string of up to 5 of these characters, and the words in any case.
        const ALPHABET: &[char] = &['0', '7', '.', 'e', 'E', '+', '-', 'i', 'n', 'f', 'a', 'x'];
        let mut texts = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|t| ALPHABET.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(last.iter().cloned());
        }
        for word in [
            "inf",
            "Infinity",
            "NAN",
            "-INFINITY",
            "+nan",
            "infinite",
            "1e1000",
            "1.5 ",
        ] {
            texts.push(word.to_owned());
        }
        for text in &texts {
            assert_eq!(parses_as_f64(text), text.parse::<f64>().is_ok(), "{text:?}");
        }
        // The generated strings hold 840 numbers by the grammar (a regex count), plus the words.
        assert!(texts.iter().filter(|t| parses_as_f64(t)).count() > 840);
    }

    #[test]
    fn no_other_letter_lowers_to_the_letters_of_the_boolean_words() {
        let letters = "yestrunofalYESTRUNOFAL";
        for c in (char::MIN..=char::MAX).filter(|c| !c.is_ascii()) {
            assert!(
                !c.to_lowercase().all(|l| letters.contains(l)),
                "{c:?} lowers to {}",
                c.to_lowercase()
            );
        }
        assert_eq!(one("!!bool TrUe"), Value::Bool(true));
        assert_eq!(one("!!bool oFF"), Value::Bool(false));
    }
}
