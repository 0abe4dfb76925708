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
    /// The text is not JSON.
    #[error("the request body is not valid JSON: {message}")]
    Syntax {
        /// serde_json's message, with the line and column.
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
    let mut de = serde_json::Deserializer::from_str(text);
    let result = scan(&mut de).and_then(|()| de.end().map_err(|err| (err, None)));
    result.map_err(|(err, duplicate)| match duplicate {
        Some((key, object)) if err.classify() == serde_json::error::Category::Data => {
            JsonError::DuplicateKey {
                key,
                object,
                line: err.line(),
                column: err.column(),
            }
        }
        _ => JsonError::Syntax {
            message: err.to_string(),
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
    let mut path = Vec::new();
    let mut duplicate = None;
    Node {
        path: &mut path,
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

/// An object key, borrowed from the text when it can be.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(key))
    }

    fn visit_str<E>(self, key: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key.to_owned()))
    }

    fn visit_string<E>(self, key: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key))
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
        while let Some(key) = map.next_key_seed(Key)? {
            if seen.contains(&key) {
                let object = render(self.path);
                let message = format!("duplicate key `{key}` in {object}");
                *self.duplicate = Some((key.into_owned(), object));
                return Err(de::Error::custom(message));
            }
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
}
