//! The strict read of a JSON body: well formed, and no object with a key twice.
//!
//! serde_json keeps the last of two equal keys, so `{"workers": 1, "workers": 9}` would
//! pass with 9 while a reader of the text sees 1. Like the Kubernetes API server's
//! strict decoding, Berth refuses such a body and names the key and where it is. The
//! check is one streaming pass over the text (no value is built), linear in its length.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::{self, Write as _};

/// Why a body is not strict JSON.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JsonError {
    /// The text is not JSON, or holds a number too large to read.
    #[error("the request body {message}")]
    Syntax {
        /// What is wrong, after "the request body": "is not valid JSON: " and serde_json's
        /// message, with the line and column, or where a number too large to read is.
        message: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// An object has the same key twice.
    #[error("the key `{key}` appears twice in {object} (line {line}, column {column})")]
    DuplicateKey {
        /// The repeated key.
        key: String,
        /// The object holding it, as a field path (`environment.env[2]`), or
        /// `the top-level object`.
        object: String,
        /// 1-based line of the second occurrence's end.
        line: usize,
        /// 1-based column of the second occurrence's end.
        column: usize,
    },
}

impl JsonError {
    /// Where in the text: line and column, 1-based.
    pub fn position(&self) -> (usize, usize) {
        match self {
            JsonError::Syntax { line, column, .. }
            | JsonError::DuplicateKey { line, column, .. } => (*line, *column),
        }
    }
}

/// Checks that `text` is one JSON value with no duplicate key in any object.
///
/// # Errors
///
/// [`JsonError`] naming the position, and for a duplicate the key and its object.
pub fn check_strict(text: &str) -> Result<(), JsonError> {
    // Most bodies are plain: the quick pass clears them; anything it is unsure of
    // (and every error, whose message and position serde_json gives) takes the full read.
    if quick::is_plain_strict(text.as_bytes()) {
        return Ok(());
    }
    check_strict_fully(text)
}

/// [`check_strict`] without the quick pass.
fn check_strict_fully(text: &str) -> Result<(), JsonError> {
    // serde_json places the end of nothing at column 0, which the 1-based position
    // contradicted, and said "EOF while parsing a value" (README exploration).
    if text.trim().is_empty() {
        return Err(JsonError::Syntax {
            message: "is not valid JSON: there is nothing in it; send a JSON object".to_owned(),
            line: 1,
            column: 1,
        });
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let mut path = Vec::new();
    let result = scan_at(&mut de, &mut path).and_then(|()| de.end().map_err(|err| (err, None)));
    result.map_err(|(err, duplicate)| match duplicate {
        Some((key, object)) if err.classify() == serde_json::error::Category::Data => {
            JsonError::DuplicateKey {
                key,
                object,
                line: err.line(),
                column: err.column(),
            }
        }
        // JSON sets numbers no bound, but serde_json reads one only into an f64, and
        // the spec's reader reads through it: `1e400` or an integer of thousands of
        // digits stops the read. serde_json says only "number out of range" (its one
        // error of that words, with no category of its own), which named no field and
        // called valid JSON invalid (exploratory test).
        _ if err.to_string().starts_with("number out of range") => JsonError::Syntax {
            message: format!(
                "holds a number too large to read{} (line {}, column {}): no field \
                 takes a number that large",
                if path.is_empty() {
                    String::new()
                } else {
                    format!(" at `{}`", render(&path))
                },
                err.line(),
                err.column()
            ),
            line: err.line(),
            column: err.column(),
        },
        _ => JsonError::Syntax {
            message: format!("is not valid JSON: {err}"),
            line: err.line(),
            column: err.column(),
        },
    })
}

/// A key found twice: `(key, path of its object)`.
pub type Duplicate = (String, String);

/// Reads one value from any self-describing deserializer (JSON, YAML) without keeping
/// it, refusing an object with a key twice.
///
/// # Errors
///
/// The deserializer's error and, when it is a duplicate key, `(key, object path)`.
pub fn scan<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(), (D::Error, Option<Duplicate>)> {
    scan_at(deserializer, &mut Vec::new())
}

/// [`scan`], leaving in `path`, on an error, where in the value the read stopped.
fn scan_at<'de, D: Deserializer<'de>>(
    deserializer: D,
    path: &mut Vec<Segment<'de>>,
) -> Result<(), (D::Error, Option<Duplicate>)> {
    let mut duplicate = None;
    Node {
        path,
        duplicate: &mut duplicate,
    }
    .deserialize(deserializer)
    .map_err(|err| (err, duplicate))
}

/// Keys are borrowed from the text when they have no escape: a key copied into a
/// `String`, and hashed, for every object of every body was most of this read.
enum Segment<'de> {
    Key(Cow<'de, str>),
    Index(usize),
}

/// Keys an object holds before its duplicate check goes from a scan of the keys seen
/// to a hash set: objects of a spec have a handful of keys.
const SCAN_KEYS: usize = 16;

/// One JSON value, visited without being kept; `path` is where it is.
struct Node<'a, 'de> {
    path: &'a mut Vec<Segment<'de>>,
    /// Set to (key, object path) when a duplicate is found.
    duplicate: &'a mut Option<(String, String)>,
}

impl<'de> Node<'_, 'de> {
    fn child(&mut self) -> Node<'_, 'de> {
        Node {
            path: self.path,
            duplicate: self.duplicate,
        }
    }
}

/// The quick pass of [`check_strict`]: one loop over the bytes that says yes only for
/// JSON serde_json reads (with no object holding a key twice) whose keys have no
/// escape and whose numbers no exponent; no for anything else, valid or not, which
/// then gets the full read. Nothing is allocated but the list of the open objects'
/// keys, which are compared as bytes (equal without escapes exactly when equal as
/// strings).
mod quick {
    /// Deeper than this, the full read decides (serde_json refuses past 128).
    const MAX_DEPTH: usize = 64;
    /// Keys in one object past which the full read decides: the check here compares
    /// each key with the object's earlier ones.
    const MAX_KEYS: usize = 32;
    /// Characters of a number past which the full read decides (a long integer is read
    /// as a float, which may overflow).
    const MAX_NUMBER: usize = 18;

    pub(super) fn is_plain_strict(text: &[u8]) -> bool {
        let mut reader = Reader {
            text,
            at: 0,
            keys: Vec::new(),
        };
        reader.value(0).is_some() && {
            reader.space();
            reader.at == text.len()
        }
    }

    struct Reader<'a> {
        text: &'a [u8],
        at: usize,
        /// The keys of every object open now, outermost first.
        keys: Vec<&'a [u8]>,
    }

    impl<'a> Reader<'a> {
        fn space(&mut self) {
            while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.text.get(self.at) {
                self.at += 1;
            }
        }

        fn eat(&mut self, byte: u8) -> Option<()> {
            (self.text.get(self.at) == Some(&byte)).then(|| self.at += 1)
        }

        fn value(&mut self, depth: usize) -> Option<()> {
            self.space();
            match *self.text.get(self.at)? {
                b'{' if depth < MAX_DEPTH => self.object(depth + 1),
                b'[' if depth < MAX_DEPTH => self.array(depth + 1),
                b'"' => self.string().map(|_| ()),
                b't' => self.word(b"true"),
                b'f' => self.word(b"false"),
                b'n' => self.word(b"null"),
                b'-' | b'0'..=b'9' => self.number(),
                _ => None,
            }
        }

        fn word(&mut self, word: &[u8]) -> Option<()> {
            let end = self.at + word.len();
            (self.text.get(self.at..end)? == word).then(|| self.at = end)
        }

        /// A string: its bytes between the quotes, and whether it has an escape.
        /// Escapes of a surrogate (serde_json refuses one unpaired) are left to the
        /// full read.
        fn string(&mut self) -> Option<(&'a [u8], bool)> {
            self.eat(b'"')?;
            let start = self.at;
            let mut escaped = false;
            self.skip_plain();
            loop {
                match *self.text.get(self.at)? {
                    b'"' => break,
                    b'\\' => {
                        escaped = true;
                        match *self.text.get(self.at + 1)? {
                            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                                self.at += 2;
                            }
                            b'u' => {
                                let hex = self.text.get(self.at + 2..self.at + 6)?;
                                let hex = std::str::from_utf8(hex).ok()?;
                                let code = u16::from_str_radix(hex, 16).ok()?;
                                if hex.starts_with('+') || (0xD800..=0xDFFF).contains(&code) {
                                    return None;
                                }
                                self.at += 6;
                            }
                            _ => return None,
                        }
                        self.skip_plain();
                    }
                    0..0x20 => return None,
                    _ => self.at += 1,
                }
            }
            let string = &self.text[start..self.at];
            self.at += 1;
            Some((string, escaped))
        }

        /// Moves past the bytes of a string that need no look (all but `"`, `\\` and
        /// control characters), eight at a time: most of a body is strings.
        fn skip_plain(&mut self) {
            const ONES: u64 = u64::from_le_bytes([1; 8]);
            const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
            // Whether a byte of `v` is below `n` (for n <= 128; exact as to whether any is).
            let below = |v: u64, n: u8| v.wrapping_sub(ONES * u64::from(n)) & !v & HIGH;
            while let Some(chunk) = self.text.get(self.at..self.at + 8) {
                let v = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
                if below(v ^ (ONES * u64::from(b'"')), 1)
                    | below(v ^ (ONES * u64::from(b'\\')), 1)
                    | below(v, 0x20)
                    != 0
                {
                    break;
                }
                self.at += 8;
            }
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)?`, and no exponent.
        fn number(&mut self) -> Option<()> {
            let start = self.at;
            let _ = self.eat(b'-');
            if self.eat(b'0').is_none() {
                if !matches!(self.text.get(self.at)?, b'1'..=b'9') {
                    return None;
                }
                self.digits();
            }
            if self.eat(b'.').is_some() && self.digits() == 0 {
                return None;
            }
            if matches!(self.text.get(self.at), Some(b'e' | b'E' | b'0'..=b'9')) {
                return None;
            }
            (self.at - start <= MAX_NUMBER).then_some(())
        }

        fn digits(&mut self) -> usize {
            let start = self.at;
            while let Some(b'0'..=b'9') = self.text.get(self.at) {
                self.at += 1;
            }
            self.at - start
        }

        fn array(&mut self, depth: usize) -> Option<()> {
            self.eat(b'[')?;
            self.space();
            if self.eat(b']').is_some() {
                return Some(());
            }
            loop {
                self.value(depth)?;
                self.space();
                if self.eat(b']').is_some() {
                    return Some(());
                }
                self.eat(b',')?;
            }
        }

        fn object(&mut self, depth: usize) -> Option<()> {
            self.eat(b'{')?;
            self.space();
            if self.eat(b'}').is_some() {
                return Some(());
            }
            let first = self.keys.len();
            loop {
                self.space();
                // A key with an escape may equal one written otherwise: left to the full
                // read, which compares them unescaped.
                let (key, escaped) = self.string()?;
                if escaped
                    || self.keys.len() - first >= MAX_KEYS
                    || self.keys[first..].contains(&key)
                {
                    return None;
                }
                self.keys.push(key);
                self.space();
                self.eat(b':')?;
                self.value(depth)?;
                self.space();
                if self.eat(b'}').is_some() {
                    self.keys.truncate(first);
                    return Some(());
                }
                self.eat(b',')?;
            }
        }
    }
}

fn render(path: &[Segment<'_>]) -> String {
    if path.is_empty() {
        return "the top-level object".to_owned();
    }
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Index(i) => {
                let _ = write!(out, "[{i}]");
            }
        }
    }
    out
}

impl<'de> DeserializeSeed<'de> for Node<'_, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// An object key, borrowed from the text when it can be, refused when its object has
/// it already (`seen`), the key then left in `repeated`. Refused as it is read, not
/// after: a deserializer places an error where the value it was reading starts, and
/// YAML's pointed a repeated key at its mapping's first line (operator exploration);
/// JSON's is past the key either way.
struct Key<'a, 'de> {
    seen: &'a Seen<'de>,
    repeated: &'a mut Option<String>,
}

impl<'de> Key<'_, 'de> {
    fn take<E: de::Error>(self, key: Cow<'de, str>) -> Result<Cow<'de, str>, E> {
        if self.seen.contains(&key) {
            let message = format!("duplicate key `{key}`");
            *self.repeated = Some(key.into_owned());
            return Err(E::custom(message));
        }
        Ok(key)
    }
}

impl<'de> DeserializeSeed<'de> for Key<'_, 'de> {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key<'_, 'de> {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Self::Value, E> {
        self.take(Cow::Borrowed(key))
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        self.take(Cow::Owned(key.to_owned()))
    }

    fn visit_string<E: de::Error>(self, key: String) -> Result<Self::Value, E> {
        self.take(Cow::Owned(key))
    }
}

/// The keys of one object so far.
enum Seen<'de> {
    Few(Vec<Cow<'de, str>>),
    Many(HashSet<Cow<'de, str>>),
}

impl<'de> Seen<'de> {
    fn contains(&self, key: &str) -> bool {
        match self {
            Seen::Few(keys) => keys.iter().any(|k| k == key),
            Seen::Many(keys) => keys.contains(key),
        }
    }

    fn insert(&mut self, key: Cow<'de, str>) {
        match self {
            Seen::Few(keys) if keys.len() < SCAN_KEYS => keys.push(key),
            Seen::Few(keys) => {
                let mut set: HashSet<Cow<'de, str>> = keys.drain(..).collect();
                set.insert(key);
                *self = Seen::Many(set);
            }
            Seen::Many(keys) => {
                keys.insert(key);
            }
        }
    }
}

impl<'de> Visitor<'de> for Node<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0;
        loop {
            self.path.push(Segment::Index(index));
            let more = seq.next_element_seed(self.child())?.is_some();
            self.path.pop();
            if !more {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let mut seen = Seen::Few(Vec::new());
        let mut repeated = None;
        loop {
            let key = map.next_key_seed(Key {
                seen: &seen,
                repeated: &mut repeated,
            });
            let key = match key {
                Ok(Some(key)) => key,
                Ok(None) => break,
                Err(err) => {
                    if let Some(key) = repeated {
                        *self.duplicate = Some((key, render(self.path)));
                    }
                    return Err(err);
                }
            };
            self.path.push(Segment::Key(key));
            map.next_value_seed(self.child())?;
            if let Some(Segment::Key(key)) = self.path.pop() {
                seen.insert(key);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick pass may leave a valid body to the full read, never clear one the
    /// full read refuses.
    fn agrees(text: &str) -> bool {
        let quick = quick::is_plain_strict(text.as_bytes());
        assert!(
            !quick || check_strict_fully(text).is_ok(),
            "the quick pass cleared what the full read refuses: {text:?}"
        );
        quick
    }

    #[test]
    fn the_quick_pass_clears_the_examples_and_leaves_what_it_cannot_judge() {
        for example in [shared::demo::PYTORCH_EXAMPLE, shared::demo::RAY_EXAMPLE] {
            assert!(agrees(example));
            assert!(agrees(
                &serde_json::to_string(
                    &serde_json::from_str::<serde_json::Value>(example).unwrap()
                )
                .unwrap()
            ));
        }
        for plain in [
            "[]",
            "{}",
            " 0 ",
            "-0.5",
            "[1, -20, 3.25, true, false, null]",
            r#"{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}"#,
            "\"é ✓\"",
            "\"\u{7f}\"",
        ] {
            assert!(agrees(plain), "{plain}");
        }
        // Valid, but left to the full read: escapes, exponents, long numbers, deep
        // nesting, many keys.
        let many = format!(
            "{{{}}}",
            (0..40)
                .map(|i| format!("\"k{i}\": {i}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        assert!(agrees(r#"["a\"b\\c\/\n\u00e9\uFFFF", {"k": "\t"}]"#));
        for unsure in [
            r#"{"a\nb": 1}"#,
            r#"{"a": 1, "\u0061": 2}"#,
            r#""\ud83d\ude00""#,
            r#""\udc00""#,
            "1e5",
            "1.5E-3",
            "12345678901234567890123",
            &"[".repeat(70),
            &many,
        ] {
            assert!(!agrees(unsure), "{unsure}");
        }
        for refused in [
            "",
            " ",
            "{",
            "[1,]",
            "[1 2]",
            "{\"a\" 1}",
            "{\"a\": 1,}",
            "{a: 1}",
            "01",
            "-",
            "1.",
            ".5",
            "+1",
            r#""\x""#,
            r#""\u12""#,
            r#""\u+123""#,
            r#""\u12g4""#,
            "tru",
            "nul",
            "\"a",
            "\"\t\"",
            "[]]",
            "{} {}",
            "\u{feff}{}",
            r#"{"a": 1, "a": 2}"#,
            r#"{"x": {"a": 1, "b": {"a": 2}, "a": 3}}"#,
            "NaN",
        ] {
            assert!(!agrees(refused), "{refused:?}");
            assert!(check_strict(refused).is_err(), "{refused:?}");
        }
        for case in shared::demo::corpus() {
            agrees(&case.spec.to_string());
        }
    }

    #[test]
    fn the_quick_pass_finds_every_quote_escape_and_control_in_a_long_string() {
        for at in 0..40 {
            for (with, plain) in [
                ("\\\"", true),
                ("\\u0041", true),
                ("\"", false),
                ("\\", false),
                ("\n", false),
                ("\u{1f}", false),
                ("é", true),
            ] {
                let text = format!("[\"{}{with}{}\"]", "a".repeat(at), "c".repeat(40 - at));
                assert_eq!(agrees(&text), plain, "{text:?}");
            }
        }
    }

    #[test]
    fn the_quick_pass_never_clears_a_damaged_example() {
        // Every byte of the example dropped, doubled, or replaced by a character that
        // matters to the grammar: the quick pass may clear only what the full read does.
        let text = shared::demo::PYTORCH_EXAMPLE;
        for (at, _) in text.char_indices() {
            let mut cut = text.to_owned();
            let c = cut.remove(at);
            agrees(&cut);
            let mut doubled = text.to_owned();
            doubled.insert(at, c);
            agrees(&doubled);
            for with in ['"', ',', ':', '{', '}', '[', ']', '\\', '0', 'e', '-', '.'] {
                let mut replaced = text.to_owned();
                replaced.replace_range(at..at + c.len_utf8(), &with.to_string());
                agrees(&replaced);
            }
        }
    }

    /// `POST /validate` makes the strict read only when the spec does not read: a text
    /// that reads as a spec must be one the strict read clears.
    fn reads_only_if_strict(text: &str) -> bool {
        let reads = shared::parse_spec(text).is_ok();
        assert!(
            !reads || check_strict_fully(text).is_ok(),
            "a spec read from text the strict read refuses: {text:?}"
        );
        reads
    }

    /// `value` as JSON text, the first key of its `target`-th object (in document
    /// order) written twice; `seen` counts the objects written so far.
    fn with_a_key_twice(value: &serde_json::Value, target: usize, seen: &mut usize) -> String {
        match value {
            serde_json::Value::Object(map) => {
                let this = *seen;
                *seen += 1;
                let mut entries: Vec<String> = map
                    .iter()
                    .map(|(key, value)| {
                        format!("{key:?}: {}", with_a_key_twice(value, target, seen))
                    })
                    .collect();
                if this == target {
                    let first = entries[0].clone();
                    entries.push(first);
                }
                format!("{{{}}}", entries.join(", "))
            }
            serde_json::Value::Array(items) => format!(
                "[{}]",
                items
                    .iter()
                    .map(|item| with_a_key_twice(item, target, seen))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            other => other.to_string(),
        }
    }

    #[test]
    fn a_spec_reads_only_from_strict_json() {
        for example in [shared::demo::PYTORCH_EXAMPLE, shared::demo::RAY_EXAMPLE] {
            assert!(reads_only_if_strict(example));
            // A key twice in any object of the spec, however deep: the spec does not
            // read, and the strict read names the key.
            let value: serde_json::Value = serde_json::from_str(example).unwrap();
            let objects = {
                let mut seen = 0;
                with_a_key_twice(&value, usize::MAX, &mut seen);
                seen
            };
            assert!(objects > 10, "{objects}");
            for target in 0..objects {
                let text = with_a_key_twice(&value, target, &mut 0);
                assert!(!reads_only_if_strict(&text), "{text}");
                assert!(
                    matches!(check_strict(&text), Err(JsonError::DuplicateKey { .. })),
                    "{text}"
                );
            }
        }
        // Enums, numbers and strings the spec reads in ways of their own.
        for text in [
            r#"{"compute": {"kind": {"on_demand": null, "on_demand": null}}}"#,
            r#"{"compute": {"kind": {"on_demand": null}}}"#,
            r#"{"compute": {"workers": 1e400}}"#,
            r#"{"compute": {"workers": 2.0}}"#,
            r#"{"basic": {"name_prefix": "a\u0062"}}"#,
            r#"{"basic": {"name_prefix": "\ud800"}}"#,
            r#"{"basic": {"name_prefix": "a"}} {}"#,
            r#"{"version": 1, "\u0076ersion": 1}"#,
        ] {
            reads_only_if_strict(text);
        }
        for case in shared::demo::corpus() {
            reads_only_if_strict(&case.spec.to_string());
        }
        // Every byte of the example dropped, doubled or replaced by a grammar character.
        let text = shared::demo::PYTORCH_EXAMPLE;
        for (at, _) in text.char_indices() {
            let mut cut = text.to_owned();
            let c = cut.remove(at);
            reads_only_if_strict(&cut);
            let mut doubled = text.to_owned();
            doubled.insert(at, c);
            reads_only_if_strict(&doubled);
            for with in ['"', ',', ':', '{', '}', '[', ']', '\\', '0', 'e', '-', '.'] {
                let mut replaced = text.to_owned();
                replaced.replace_range(at..at + c.len_utf8(), &with.to_string());
                reads_only_if_strict(&replaced);
            }
        }
    }

    #[test]
    fn well_formed_json_passes() {
        check_strict(r#"{"a": [1, {"b": null, "c": "x"}, {"b": 2}], "d": true}"#).unwrap();
        check_strict("[]").unwrap();
    }

    #[test]
    fn a_duplicate_key_is_named_with_its_object_and_position() {
        let err =
            check_strict("{\"environment\": {\"env\": [\n {\"name\": \"A\", \"name\": \"B\"}]}}")
                .expect_err("refused");
        assert_eq!(
            err,
            JsonError::DuplicateKey {
                key: "name".into(),
                object: "environment.env[0]".into(),
                line: 2,
                column: 21,
            }
        );
    }

    #[test]
    fn a_duplicate_at_the_top_is_named_so() {
        let err = check_strict(r#"{"version": 1, "version": 2}"#).expect_err("refused");
        assert!(
            err.to_string()
                .contains("`version` appears twice in the top-level object"),
            "{err}"
        );
    }

    #[test]
    fn a_duplicate_is_found_in_a_large_object_and_through_escapes() {
        // Past the keys scanned one by one, the check goes on in a hash set.
        let keys: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        let text = format!("{{{}, \"k3\": 0}}", keys.join(", "));
        let err = check_strict(&text).expect_err("refused");
        assert!(
            matches!(err, JsonError::DuplicateKey { ref key, .. } if key == "k3"),
            "{err:?}"
        );
        check_strict(&format!("{{{}}}", keys.join(", "))).unwrap();
        // `\u0061` is `a`: the same key written two ways.
        let err = check_strict(r#"{"a": 1, "\u0061": 2}"#).expect_err("refused");
        assert!(
            matches!(err, JsonError::DuplicateKey { ref key, .. } if key == "a"),
            "{err:?}"
        );
    }

    #[test]
    fn equal_keys_in_different_objects_are_fine() {
        check_strict(r#"{"a": {"x": 1}, "b": {"x": 1}, "x": [{"x": 1}, {"x": 2}]}"#).unwrap();
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        // Nothing sent: said so, at 1:1 (serde_json places it at column 0).
        for empty in ["", " \n "] {
            let err = check_strict(empty).expect_err("refused");
            assert_eq!(err.position(), (1, 1), "{err:?}");
            assert_eq!(
                err.to_string(),
                "the request body is not valid JSON: there is nothing in it; send a JSON object"
            );
        }
        let err = check_strict("{\n  \"a\": 1,\n  oops\n}").expect_err("refused");
        assert!(
            matches!(
                err,
                JsonError::Syntax {
                    line: 3,
                    column: 3,
                    ..
                }
            ),
            "{err:?}"
        );
        let err = check_strict("{} trailing").expect_err("refused");
        assert!(matches!(err, JsonError::Syntax { line: 1, .. }), "{err:?}");
    }

    /// A number JSON allows and an f64 cannot hold is refused naming where it stands,
    /// not as JSON that is not valid (exploratory test: "number out of range at line 1
    /// column 39").
    #[test]
    fn a_number_too_large_to_read_is_named_by_its_place() {
        let digits = "9".repeat(5000);
        for (text, at) in [
            (
                r#"{"version":1,"compute":{"workers":1e400}}"#.to_owned(),
                " at `compute.workers` (line 1, column 39)",
            ),
            (
                format!(r#"{{"environment": {{"env": [1, -{digits}]}}}}"#),
                " at `environment.env[1]` (line 1, column 5029)",
            ),
            ("1e400".to_owned(), " (line 1, column 5)"),
        ] {
            let err = check_strict(&text).expect_err("refused");
            assert_eq!(
                err.to_string(),
                format!(
                    "the request body holds a number too large to read{at}: no field takes a \
                     number that large"
                ),
                "{text:.60}"
            );
        }
    }
}
