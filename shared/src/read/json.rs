//! The JSON value the reader reads from, as one list of tokens for the whole text (a
//! [`Tape`]): a list or an object is a token followed by its items (an object's as key,
//! value, key, value), so a value and everything in it lie next to each other, and a
//! reader takes a value as a view of its tokens ([`Json`]). Objects keep their entries
//! in the text's order, and keys and strings are borrowed from the text where they have
//! no escapes.
//!
//! serde_json's `Value` allocated every key and a tree node per object, which made
//! reading the catalog half again as slow as the derives; a tree of vectors, one per
//! list and object, made reading the spec 1.4 times as slow as serde's derived reader
//! natively (BENCHMARKS.md, the validator package's size). The tape is one allocation.

use crate::path::Segment;
use serde::de::{Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt;

/// One token of a [`Tape`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Token<'a> {
    Null,
    Bool(bool),
    /// A whole number from 0 to `u64::MAX`.
    Unsigned(u64),
    /// A negative whole number from `i64::MIN`.
    Signed(i64),
    /// Any other number (a fraction, an exponent, or too large).
    Float(f64),
    /// A string, or an object's key.
    Str(Cow<'a, str>),
    /// A list, followed by this many tokens of its items.
    List(usize),
    /// An object, followed by this many tokens of its keys and values.
    Object(usize),
    /// Where text that is not JSON stopped parsing ([`parse_partial`]): the last item of
    /// a list, or the last entry of an object, whose key was read (`key`) or not (then
    /// it stands where the key would be). Never in a value parsed whole.
    Cut {
        key: bool,
    },
}

impl Token<'_> {
    /// How many tokens the value starting with this one takes.
    fn size(&self) -> usize {
        match self {
            Token::List(n) | Token::Object(n) => 1 + n,
            _ => 1,
        }
    }
}

/// A JSON value, parsed: see the module's documentation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tape<'a>(Vec<Token<'a>>);

impl<'a> Tape<'a> {
    /// The value, for a reader to take apart.
    pub fn json(&mut self) -> Json<'_, 'a> {
        Json(&mut self.0)
    }
}

/// A view of one value's tokens, which a reader takes apart ([`Json::node`]).
#[derive(Debug)]
pub struct Json<'t, 'a>(&'t mut [Token<'a>]);

/// What a value is, with its string taken out and its items to read.
#[derive(Debug)]
pub enum Value<'t, 'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A whole number from 0 to `u64::MAX`.
    Unsigned(u64),
    /// A negative whole number from `i64::MIN`.
    Signed(i64),
    /// Any other number (a fraction, an exponent, or too large).
    Float(f64),
    /// A string.
    Str(Cow<'a, str>),
    /// A list's items.
    List(Items<'t, 'a>),
    /// An object's entries, in order.
    Object(Entries<'t, 'a>),
    /// Where text that is not JSON stopped parsing (only in [`parse_partial`]'s value).
    Cut,
}

impl<'t, 'a> Json<'t, 'a> {
    /// What the value is: its string moved out, its items or entries to read in order.
    pub fn node(self) -> Value<'t, 'a> {
        let Some((first, rest)) = self.0.split_first_mut() else {
            return Value::Cut;
        };
        match first {
            Token::Null => Value::Null,
            Token::Bool(b) => Value::Bool(*b),
            Token::Unsigned(n) => Value::Unsigned(*n),
            Token::Signed(n) => Value::Signed(*n),
            Token::Float(n) => Value::Float(*n),
            Token::Str(s) => Value::Str(std::mem::take(s)),
            Token::List(_) => Value::List(Items { rest }),
            Token::Object(_) => Value::Object(Entries { rest }),
            Token::Cut { .. } => Value::Cut,
        }
    }

    /// Whether this is where an object's key did not parse: the entry has no key.
    pub(crate) fn is_keyless_cut(&self) -> bool {
        matches!(self.0.first(), Some(Token::Cut { key: false }))
    }

    /// What `read` makes of `null`: how an absent field reads where the type allows it
    /// (an option), as serde's derive reads one.
    pub(crate) fn read_null<T>(read: impl FnOnce(Json<'_, '_>) -> T) -> T {
        read(Json(&mut [Token::Null]))
    }

    /// Whether this is `null`.
    pub(crate) fn is_null(&self) -> bool {
        matches!(self.0.first(), Some(Token::Null))
    }

    /// The value's first token, to be read another way (a whole float as a number).
    pub(crate) fn first_token(&mut self) -> Option<&mut Token<'a>> {
        self.0.first_mut()
    }
}

/// The items of a list, in order.
#[derive(Debug)]
pub struct Items<'t, 'a> {
    rest: &'t mut [Token<'a>],
}

impl<'t, 'a> Iterator for Items<'t, 'a> {
    type Item = Json<'t, 'a>;

    fn next(&mut self) -> Option<Json<'t, 'a>> {
        let rest = std::mem::take(&mut self.rest);
        let size = rest.first()?.size().min(rest.len());
        let (item, rest) = rest.split_at_mut(size);
        self.rest = rest;
        Some(Json(item))
    }
}

/// The entries of an object, in order: each key (moved out) and its value. Where a key
/// did not parse ([`Token::Cut`]), the entry's key is empty and its value is the cut.
#[derive(Debug)]
pub struct Entries<'t, 'a> {
    rest: &'t mut [Token<'a>],
}

impl<'t, 'a> Iterator for Entries<'t, 'a> {
    type Item = (Cow<'a, str>, Json<'t, 'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = std::mem::take(&mut self.rest);
        let (first, rest) = rest.split_first_mut()?;
        let Token::Str(key) = first else {
            // A cut where the key would be: it is the entry's value.
            self.rest = &mut [];
            return Some((Cow::Borrowed(""), Json(std::slice::from_mut(first))));
        };
        let key = std::mem::take(key);
        let size = rest.first().map_or(0, Token::size).min(rest.len());
        let (value, rest) = rest.split_at_mut(size);
        self.rest = rest;
        Some((key, Json(value)))
    }
}

impl<'de> Deserialize<'de> for Tape<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let track = Track::default();
        let mut tape = Vec::with_capacity(32);
        deserializer.deserialize_any(Build {
            tape: &mut tape,
            track: &track,
        })?;
        Ok(Tape(tape))
    }
}

/// JSON text that is not JSON: what was read of it, and where and why it stopped.
pub(crate) struct Broken<'a> {
    /// The value read up to where it stopped, [`Token::Cut`] there.
    pub(crate) value: Tape<'a>,
    /// serde_json's error.
    pub(crate) error: serde_json::Error,
    /// Where it stopped, outermost first.
    pub(crate) path: Vec<Segment>,
}

/// Reads one JSON value of `text` from `de` (not what follows it) as
/// [`Tape::deserialize`] does, or, when the text is not JSON, what was read before it
/// stopped.
///
/// The spec's findings report the first thing wrong in the text's order, as serde's
/// derived reader met them while it parsed: a value of the wrong shape before the place
/// where the text stops being JSON wins. So a reader must see what came before that
/// place. The place's path is the one serde's derived reader of the spec gave (the
/// key or index of a value only once its own read has begun: not for a missing colon
/// or comma), so findings for broken text keep their paths.
pub(crate) fn parse_partial<'a>(
    text: &'a str,
    de: &mut serde_json::Deserializer<serde_json::de::StrRead<'a>>,
) -> Result<Tape<'a>, Broken<'a>> {
    let track = Track::default();
    // A token takes at least two bytes of text (`1,`), most take more.
    let mut tape = Vec::with_capacity(text.len() / 6);
    let mut build = Build {
        tape: &mut tape,
        track: &track,
    };
    match de.deserialize_any(Build {
        tape: &mut *build.tape,
        track: &track,
    }) {
        Ok(()) => Ok(Tape(tape)),
        Err(error) => {
            build.cut(true);
            let mut path = track.path.take();
            path.reverse();
            Err(Broken {
                value: Tape(tape),
                error,
                path,
            })
        }
    }
}

/// Where a parse stopped, as the error passes out.
#[derive(Default)]
struct Track {
    /// Innermost first: each value the error passes out of adds its own place.
    path: RefCell<Vec<Segment>>,
    /// The error came out of a value's own read, not from between values.
    inside: Cell<bool>,
    /// The cut is on the tape.
    cut: Cell<bool>,
}

impl Track {
    /// A read of an item failed: its place counts if the error came from inside it.
    fn failed_in(&self, at: impl FnOnce() -> Segment) {
        if self.inside.take() {
            self.path.borrow_mut().push(at());
        }
    }
}

/// Reads a value onto the tape; as a seed, notes that an error came from inside it.
struct Build<'s, 'a> {
    tape: &'s mut Vec<Token<'a>>,
    track: &'s Track,
}

impl<'a> Build<'_, 'a> {
    fn again(&mut self) -> Build<'_, 'a> {
        Build {
            tape: &mut *self.tape,
            track: self.track,
        }
    }

    fn push(self, token: Token<'a>) {
        self.tape.push(token);
    }

    /// The parse stopped here, unless a value inside already said where.
    fn cut(&mut self, key: bool) {
        if !self.track.cut.replace(true) {
            self.tape.push(Token::Cut { key });
        }
    }

    /// The list or object whose token is at `at` ends here.
    fn close(&mut self, at: usize, token: fn(usize) -> Token<'a>) {
        let after = self.tape.len() - at - 1;
        self.tape[at] = token(after);
    }
}

impl<'a> DeserializeSeed<'a> for Build<'_, 'a> {
    type Value = ();

    fn deserialize<D: Deserializer<'a>>(self, deserializer: D) -> Result<(), D::Error> {
        let track = self.track;
        deserializer
            .deserialize_any(self)
            .inspect_err(|_| track.inside.set(true))
    }
}

impl<'a> Visitor<'a> for Build<'_, 'a> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<(), E> {
        self.push(Token::Bool(b));
        Ok(())
    }

    fn visit_i64<E>(self, n: i64) -> Result<(), E> {
        self.push(u64::try_from(n).map_or(Token::Signed(n), Token::Unsigned));
        Ok(())
    }

    fn visit_u64<E>(self, n: u64) -> Result<(), E> {
        self.push(Token::Unsigned(n));
        Ok(())
    }

    fn visit_f64<E>(self, n: f64) -> Result<(), E> {
        self.push(Token::Float(n));
        Ok(())
    }

    fn visit_borrowed_str<E>(self, s: &'a str) -> Result<(), E> {
        self.push(Token::Str(Cow::Borrowed(s)));
        Ok(())
    }

    fn visit_str<E>(self, s: &str) -> Result<(), E> {
        self.push(Token::Str(Cow::Owned(s.to_owned())));
        Ok(())
    }

    fn visit_string<E>(self, s: String) -> Result<(), E> {
        self.push(Token::Str(Cow::Owned(s)));
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        self.push(Token::Null);
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        self.push(Token::Null);
        Ok(())
    }

    fn visit_some<D: Deserializer<'a>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'a>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let at = self.tape.len();
        self.tape.push(Token::List(0));
        let mut index = 0;
        loop {
            match seq.next_element_seed(self.again()) {
                Ok(Some(())) => index += 1,
                Ok(None) => break,
                Err(error) => {
                    self.track.failed_in(|| Segment::Index(index));
                    self.cut(true);
                    self.close(at, Token::List);
                    return Err(error);
                }
            }
        }
        self.close(at, Token::List);
        Ok(())
    }

    fn visit_map<A: MapAccess<'a>>(mut self, mut map: A) -> Result<(), A::Error> {
        let at = self.tape.len();
        self.tape.push(Token::Object(0));
        loop {
            let key_at = self.tape.len();
            match map.next_key_seed(KeySeed {
                tape: &mut *self.tape,
            }) {
                Ok(Some(())) => {}
                Ok(None) => break,
                Err(error) => {
                    self.cut(false);
                    self.close(at, Token::Object);
                    return Err(error);
                }
            }
            if let Err(error) = map.next_value_seed(self.again()) {
                let tape = &*self.tape;
                self.track.failed_in(|| match &tape[key_at] {
                    Token::Str(key) => Segment::Key(Cow::Owned(key.to_string())),
                    _ => Segment::Key(Cow::Borrowed("")),
                });
                self.cut(true);
                self.close(at, Token::Object);
                return Err(error);
            }
        }
        self.close(at, Token::Object);
        Ok(())
    }
}

/// An object's key, onto the tape, borrowed from the text when it can be.
struct KeySeed<'s, 'a> {
    tape: &'s mut Vec<Token<'a>>,
}

impl<'a> DeserializeSeed<'a> for KeySeed<'_, 'a> {
    type Value = ();

    fn deserialize<D: Deserializer<'a>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'a> Visitor<'a> for KeySeed<'_, 'a> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E>(self, s: &'a str) -> Result<(), E> {
        self.tape.push(Token::Str(Cow::Borrowed(s)));
        Ok(())
    }

    fn visit_str<E>(self, s: &str) -> Result<(), E> {
        self.tape.push(Token::Str(Cow::Owned(s.to_owned())));
        Ok(())
    }

    fn visit_string<E>(self, s: String) -> Result<(), E> {
        self.tape.push(Token::Str(Cow::Owned(s)));
        Ok(())
    }
}
