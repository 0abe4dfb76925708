//! The JSON value the reader reads from: objects as their entries in the text's order
//! (a list, not a map: a type's reader looks its few fields up once), and keys and
//! strings borrowed from the text where they have no escapes. serde_json's `Value`
//! allocated every key and a tree node per object, which made reading the catalog
//! half again as slow as the derives (BENCHMARKS.md, the validator package's size).

use crate::path::Segment;
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt;

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number that is a whole number from 0 to `u64::MAX`.
    Unsigned(u64),
    /// A negative whole number from `i64::MIN`.
    Signed(i64),
    /// Any other number (a fraction, an exponent, or too large).
    Float(f64),
    /// A string.
    Str(Cow<'a, str>),
    /// A list.
    List(Vec<Json<'a>>),
    /// An object's entries, in order.
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
    /// Where text that is not JSON stopped parsing, in what [`parse_partial`] read
    /// before it stopped: the last item of a list, or the last entry of an object, whose
    /// key was read (`key`) or not. Never in a value parsed whole.
    Cut {
        /// The entry's key was read: a reader checks it before the value.
        key: bool,
    },
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Self::Value, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Self::Value, E> {
        Ok(u64::try_from(n).map_or(Json::Signed(n), Json::Unsigned))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Self::Value, E> {
        Ok(Json::Unsigned(n))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Self::Value, E> {
        Ok(Json::Float(n))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Json::Str(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Json::Str(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
        Ok(Json::Str(Cow::Owned(s)))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        Json::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        // Most objects of a spec or catalog have at most 8 fields: one allocation, not
        // two or three as the entries grow (4 % of reading the typical spec natively).
        let mut entries = Vec::with_capacity(8);
        while let Some(Key(key)) = map.next_key()? {
            entries.push((key, map.next_value()?));
        }
        Ok(Json::Object(entries))
    }
}

/// An object's key, borrowed from the text when it can be.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match deserializer.deserialize_str(JsonVisitor)? {
            Json::Str(key) => Ok(Key(key)),
            _ => Err(de::Error::custom("expected a string key")),
        }
    }
}

/// JSON text that is not JSON: what was read of it, and where and why it stopped.
pub(crate) struct Broken<'a> {
    /// The value read up to where it stopped, [`Json::Cut`] there.
    pub(crate) value: Json<'a>,
    /// serde_json's error.
    pub(crate) error: serde_json::Error,
    /// Where it stopped, outermost first.
    pub(crate) path: Vec<Segment>,
}

/// Reads one JSON value from `de` (not what follows it) as [`Json::deserialize`] does,
/// or, when the text is not JSON, what was read before it stopped.
///
/// The spec's findings report the first thing wrong in the text's order, as serde's
/// derived reader met them while it parsed: a value of the wrong shape before the place
/// where the text stops being JSON wins. So a reader must see what came before that
/// place. The place's path is the one serde's derived reader of the spec gave (the
/// key or index of a value only once its own read has begun: not for a missing colon
/// or comma), so findings for broken text keep their paths.
pub(crate) fn parse_partial<'a>(
    de: &mut serde_json::Deserializer<serde_json::de::StrRead<'a>>,
) -> Result<Json<'a>, Broken<'a>> {
    let state = State::default();
    match de.deserialize_any(Partial { state: &state }) {
        Ok(value) => Ok(value),
        Err(error) => {
            let mut path = state.path.take();
            path.reverse();
            Err(Broken {
                value: state.wreck.take().unwrap_or(Json::Cut { key: true }),
                error,
                path,
            })
        }
    }
}

#[derive(Default)]
struct State<'a> {
    /// Where the parse stopped, innermost first: each value the error passes out of
    /// adds its own place.
    path: RefCell<Vec<Segment>>,
    /// The error came out of a value's own read, not from between values.
    inside: Cell<bool>,
    /// The innermost list or object the error passed out of, as far as it was read.
    wreck: RefCell<Option<Json<'a>>>,
}

impl<'a> State<'a> {
    /// A read of an item failed with `items` read before it: they and where it stopped
    /// are the wreck, which the enclosing list or object then takes in.
    fn stopped(&self, at: impl FnOnce() -> Segment) -> Json<'a> {
        if self.inside.take() {
            self.path.borrow_mut().push(at());
        }
        self.wreck.take().unwrap_or(Json::Cut { key: true })
    }
}

/// A value's read, which notes that an error came from inside it.
#[derive(Clone, Copy)]
struct Partial<'s, 'a> {
    state: &'s State<'a>,
}

impl<'a> DeserializeSeed<'a> for Partial<'_, 'a> {
    type Value = Json<'a>;

    fn deserialize<D: Deserializer<'a>>(self, deserializer: D) -> Result<Json<'a>, D::Error> {
        let state = self.state;
        deserializer
            .deserialize_any(self)
            .inspect_err(|_| state.inside.set(true))
    }
}

impl<'a> Visitor<'a> for Partial<'_, 'a> {
    type Value = Json<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Self::Value, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Self::Value, E> {
        Ok(u64::try_from(n).map_or(Json::Signed(n), Json::Unsigned))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Self::Value, E> {
        Ok(Json::Unsigned(n))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Self::Value, E> {
        Ok(Json::Float(n))
    }

    fn visit_borrowed_str<E>(self, s: &'a str) -> Result<Self::Value, E> {
        Ok(Json::Str(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Json::Str(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
        Ok(Json::Str(Cow::Owned(s)))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Json::Null)
    }

    fn visit_seq<A: SeqAccess<'a>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let state = self.state;
        let mut items = Vec::new();
        loop {
            match seq.next_element_seed(self) {
                Ok(Some(item)) => items.push(item),
                Ok(None) => return Ok(Json::List(items)),
                Err(error) => {
                    let index = items.len();
                    items.push(state.stopped(|| Segment::Index(index)));
                    state.wreck.replace(Some(Json::List(items)));
                    return Err(error);
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'a>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let state = self.state;
        let mut entries = Vec::new();
        loop {
            let key = match map.next_key::<Key<'a>>() {
                Ok(Some(Key(key))) => key,
                Ok(None) => return Ok(Json::Object(entries)),
                Err(error) => {
                    entries.push((Cow::Borrowed(""), Json::Cut { key: false }));
                    state.wreck.replace(Some(Json::Object(entries)));
                    return Err(error);
                }
            };
            match map.next_value_seed(self) {
                Ok(value) => entries.push((key, value)),
                Err(error) => {
                    let value = state.stopped(|| Segment::Key(Cow::Owned(key.to_string())));
                    entries.push((key, value));
                    state.wreck.replace(Some(Json::Object(entries)));
                    return Err(error);
                }
            }
        }
    }
}
