//! One flat JSON list of strings and markers (whole numbers): how a value read by the
//! YAML module (the validator package's second wasm module) crosses back to the module
//! that asked. Flat, so no nesting of the YAML meets serde_json's depth limit; each
//! reader says what its markers mean.

use crate::read::{Tape, Value};

/// An answer being written: `[` and the items so far.
#[cfg(any(test, feature = "yaml"))]
pub(crate) struct Writer(String);

#[cfg(any(test, feature = "yaml"))]
impl Writer {
    pub(crate) fn new() -> Self {
        Writer(String::from("["))
    }

    fn next(&mut self) {
        if self.0.len() > 1 {
            self.0.push(',');
        }
    }

    pub(crate) fn mark(&mut self, mark: u64) {
        self.next();
        self.0.push_str(&mark.to_string());
    }

    pub(crate) fn text(&mut self, text: &str) {
        self.next();
        self.0.push('"');
        for c in text.chars() {
            match c {
                '"' => self.0.push_str("\\\""),
                '\\' => self.0.push_str("\\\\"),
                c if c < ' ' => self.0.push_str(&format!("\\u{:04x}", u32::from(c))),
                c => self.0.push(c),
            }
        }
        self.0.push('"');
    }

    pub(crate) fn finish(mut self) -> String {
        self.0.push(']');
        self.0
    }
}

/// One item of an answer.
pub(crate) enum Item {
    Text(String),
    Mark(u64),
}

/// The items of an answer, or `None` when it is not one flat list of strings and whole
/// numbers.
pub(crate) fn items(answer: &str) -> Option<Vec<Item>> {
    let mut tape: Tape<'_> = serde_json::from_str(answer).ok()?;
    let Value::List(list) = tape.json().node() else {
        return None;
    };
    list.map(|item| match item.node() {
        Value::Str(s) => Some(Item::Text(s.into_owned())),
        Value::Unsigned(n) => Some(Item::Mark(n)),
        _ => None,
    })
    .collect()
}

/// The next item as a count, for a list's or mapping's length.
pub(crate) fn count(items: &mut impl Iterator<Item = Item>) -> Option<usize> {
    match items.next()? {
        Item::Mark(n) => usize::try_from(n).ok(),
        Item::Text(_) => None,
    }
}
