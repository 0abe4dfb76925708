//! The spec's reader before `crate::read`'s, kept for the tests as their oracle: serde's
//! derived `Deserialize` of [`TaskSpec`] (compiled for tests only), wrapped to name the
//! failing field, with findings made from serde's error text. `parse_spec` must give
//! exactly its findings, for every input.
//!
//! The text is read once. On the way, [`Shape`] notes each map key and list index
//! without copying it (serde_json lends the key from the text), and when a value fails,
//! the error passing out of each enclosing value adds its key or index to the path: the
//! path `serde_path_to_error` gives, without its copy of every key on every read, and
//! without a second read (and a second copy of the spec's deserialisation code in the
//! wasm bundles) to find it.
//!
//! [`Shape`] exists because serde's derive also fills a struct from a JSON array, by
//! position: `[]` would be an empty spec and `"basic": [...]` would pass. It refuses a
//! list wherever a struct belongs, at every depth, as `value.invalid` (expected an
//! object, found a list).

use super::shape::shape_report;
use super::{FieldPath, Report};
use crate::path::Segment;
use crate::task::TaskSpec;
use serde::Deserialize;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt;

/// Reads a spec from JSON text, as `parse_spec` did before `crate::read` read specs.
pub(crate) fn parse_spec(text: &str) -> Result<TaskSpec, Report> {
    let mut de = serde_json::Deserializer::from_str(text);
    let track = Track::default();
    let spec = TaskSpec::deserialize(Shape::new(&mut de, &track))
        .map_err(|err| shape_report(track.path(), &err))?;
    // Text after the spec: the spec itself was whole, so the finding is about all of it.
    de.end()
        .map_err(|err| shape_report(FieldPath::root(), &err))?;
    Ok(spec)
}

/// The path of the value a read failed at, innermost segment first: each value the
/// error passes out of adds its own. Empty while the read goes well.
#[derive(Default)]
struct Track {
    path: RefCell<Vec<Segment>>,
    /// The error came out of a value's own read ([`ShapeSeed`]), not from between values
    /// (a missing comma): only then is the value's place on the path. Set and taken back
    /// at once, so the read of a good value carries no place around.
    inside: Cell<bool>,
}

impl Track {
    /// A read failed at `at` in its parent (nowhere new when `None`).
    fn failed_at(&self, at: Option<Step<'_>>) {
        if let Some(at) = at {
            self.path.borrow_mut().push(at.segment());
        }
    }

    /// A read of a value at `at` in its parent failed: its place counts if the error came
    /// from inside the value.
    fn failed_in<'de>(&self, at: impl FnOnce() -> Option<Step<'de>>) {
        if self.inside.take() {
            self.failed_at(at());
        }
    }

    fn path(&self) -> FieldPath {
        self.path
            .take()
            .into_iter()
            .rev()
            .fold(FieldPath::root(), |path, segment| path.with(segment))
    }
}

/// Where a value sits in its parent: a map key (as read, borrowed from the text when it
/// has no escapes) or a list index.
enum Step<'de> {
    Key(Cow<'de, str>),
    Index(usize),
}

impl Step<'_> {
    fn segment(self) -> Segment {
        match self {
            Step::Key(key) => Segment::Key(Cow::Owned(key.into_owned())),
            Step::Index(index) => Segment::Index(index),
        }
    }
}

/// A deserializer that reads through `D` but refuses a sequence where a struct belongs.
///
/// It wraps every visitor it hands on, and every element, map value, `Some` content,
/// newtype and enum variant those visitors are given, so nested structs are covered
/// too, and each records its place in `track` when it fails. Map keys and variant
/// names are only noted, never wrapped: they name fields and are never structs.
struct Shape<'t, D> {
    de: D,
    track: &'t Track,
}

impl<'t, D> Shape<'t, D> {
    fn new(de: D, track: &'t Track) -> Self {
        Self { de, track }
    }

    fn wrap<V, const STRUCT: bool>(self, visitor: V) -> (D, Wrap<'t, V, STRUCT>) {
        let track = self.track;
        (self.de, Wrap { visitor, track })
    }
}

/// `visitor` as [`Shape`] hands it on; `STRUCT` when it builds a struct.
struct Wrap<'t, V, const STRUCT: bool> {
    visitor: V,
    track: &'t Track,
}

/// A seed whose deserializer is wrapped in [`Shape`]; when reading it fails, the caller
/// puts the value's place on the path.
struct ShapeSeed<'t, T> {
    seed: T,
    track: &'t Track,
}

/// The elements of a sequence, each read through [`Shape`].
struct ShapeSeq<'t, A> {
    seq: A,
    track: &'t Track,
    index: usize,
}

/// The entries of a map, each value read through [`Shape`] under the key read before it.
struct ShapeMap<'t, 'de, A> {
    map: A,
    track: &'t Track,
    key: Option<Cow<'de, str>>,
}

/// An enum whose variant's content is read through [`Shape`].
struct ShapeEnum<'t, A> {
    data: A,
    track: &'t Track,
}

/// A variant's content, read through [`Shape`]; a failure in it is at the variant's name.
struct ShapeVariant<'t, 'de, A> {
    variant: A,
    track: &'t Track,
    name: Option<Cow<'de, str>>,
}

/// A map key or variant name, read by `seed` and noted in `key`.
struct KeySeed<'k, 'de, T> {
    seed: T,
    key: &'k mut Option<Cow<'de, str>>,
}

/// The deserializer of a map key or variant name, noting the text it hands on.
struct KeyDe<'k, 'de, D> {
    de: D,
    key: &'k mut Option<Cow<'de, str>>,
}

impl<'k, 'de, D> KeyDe<'k, 'de, D> {
    fn wrap<V>(self, visitor: V) -> (D, KeyVisitor<'k, 'de, V>) {
        let key = self.key;
        (self.de, KeyVisitor { visitor, key })
    }
}

/// The visitor of a map key or variant name: notes the text it is given.
struct KeyVisitor<'k, 'de, V> {
    visitor: V,
    key: &'k mut Option<Cow<'de, str>>,
}

macro_rules! forward_deserialize {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
                let (de, visitor) = self.wrap::<V, false>(visitor);
                de.$method($($arg,)* visitor)
            }
        )*
    };
}

/// The methods every [`Deserializer`] forwards alike.
macro_rules! deserialize_methods {
    ($forward:ident) => {
        $forward! {
            deserialize_any();
            deserialize_bool();
            deserialize_i8();
            deserialize_i16();
            deserialize_i32();
            deserialize_i64();
            deserialize_i128();
            deserialize_u8();
            deserialize_u16();
            deserialize_u32();
            deserialize_u64();
            deserialize_u128();
            deserialize_f32();
            deserialize_f64();
            deserialize_char();
            deserialize_str();
            deserialize_string();
            deserialize_bytes();
            deserialize_byte_buf();
            deserialize_option();
            deserialize_unit();
            deserialize_unit_struct(name: &'static str);
            deserialize_newtype_struct(name: &'static str);
            deserialize_seq();
            deserialize_tuple(len: usize);
            deserialize_tuple_struct(name: &'static str, len: usize);
            deserialize_map();
            deserialize_identifier();
            deserialize_ignored_any();
        }
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Shape<'_, D> {
    type Error = D::Error;

    deserialize_methods!(forward_deserialize);

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let (de, visitor) = self.wrap::<V, true>(visitor);
        de.deserialize_struct(name, fields, visitor)
    }

    /// Every enum of the spec is a choice: a string naming its variant. It is read as
    /// whatever the input holds, so a number (or an object) where a choice belongs is the
    /// wrong type, not serde_json's "expected value", which reads as if the JSON itself
    /// were broken. The name is read by one visitor for every enum (not one per enum:
    /// serde_json's whole `deserialize_any` is compiled into each visitor).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let (de, visitor) = self.wrap::<V, false>(visitor);
        let name = de.deserialize_any(Choice { variants })?;
        visitor.visit_enum(de::value::CowStrDeserializer::new(name))
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// Reads the name of an enum's variant, refusing anything else in serde's words for a
/// choice ("expected one of `gpu`, `cpu`"), which the shape finding turns into its list
/// of options.
struct Choice {
    variants: &'static [&'static str],
}

impl<'de> Visitor<'de> for Choice {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("one of ")?;
        for (i, variant) in self.variants.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{variant}`")?;
        }
        Ok(())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty);)*) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.visitor.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>, const STRUCT: bool> Visitor<'de> for Wrap<'_, V, STRUCT> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    forward_visit! {
        visit_bool(bool);
        visit_i8(i8);
        visit_i16(i16);
        visit_i32(i32);
        visit_i64(i64);
        visit_i128(i128);
        visit_u8(u8);
        visit_u16(u16);
        visit_u32(u32);
        visit_u64(u64);
        visit_u128(u128);
        visit_f32(f32);
        visit_char(char);
        visit_str(&str);
        visit_borrowed_str(&'de str);
        visit_string(String);
        visit_bytes(&[u8]);
        visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
    }

    /// JSON has one number type: `3.0` is the whole number 3, as JSON Schema (and so the
    /// API's OpenAPI document) reads it. A whole number is handed on as one, so integer
    /// fields take it; anything else stays a float. Only below 2^53, where a float holds
    /// every whole number exactly: a larger one may be a rounded integer out of range
    /// (serde_json reads `-9223372036854775809` as a float).
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        const EXACT: f64 = 9_007_199_254_740_992.0;
        if v.fract() == 0.0 && v.abs() < EXACT {
            // Whole and within ±2^53, so the casts are exact.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            return if v >= 0.0 {
                self.visitor.visit_u64(v as u64)
            } else {
                self.visitor.visit_i64(v as i64)
            };
        }
        self.visitor.visit_f64(v)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.visitor
            .visit_some(Shape::new(deserializer, self.track))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<V::Value, D::Error> {
        self.visitor
            .visit_newtype_struct(Shape::new(deserializer, self.track))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if STRUCT {
            // "invalid type: sequence, expected struct Basic": an object, found a list.
            return Err(de::Error::invalid_type(Unexpected::Seq, &self));
        }
        let track = self.track;
        self.visitor.visit_seq(ShapeSeq {
            seq,
            track,
            index: 0,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let track = self.track;
        self.visitor.visit_map(ShapeMap {
            map,
            track,
            key: None,
        })
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        let track = self.track;
        self.visitor.visit_enum(ShapeEnum { data, track })
    }
}

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for ShapeSeed<'_, T> {
    type Value = T::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T::Value, D::Error> {
        let track = self.track;
        self.seed
            .deserialize(Shape::new(deserializer, track))
            .inspect_err(|_| track.inside.set(true))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for ShapeSeq<'_, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        let (index, track) = (self.index, self.track);
        self.index += 1;
        let read = self.seq.next_element_seed(ShapeSeed { seed, track });
        read.inspect_err(|_| track.failed_in(|| Some(Step::Index(index))))
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for ShapeMap<'_, 'de, A> {
    type Error = A::Error;

    /// A key that fails (an unknown field) is the place of the failure, as its value
    /// would be; a key that could not be read at all is not.
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let key = &mut self.key;
        *key = None;
        let read = self.map.next_key_seed(KeySeed { seed, key });
        read.inspect_err(|_| self.track.failed_at(self.key.take().map(Step::Key)))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        let track = self.track;
        let read = self.map.next_value_seed(ShapeSeed { seed, track });
        read.inspect_err(|_| track.failed_in(|| self.key.take().map(Step::Key)))
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

impl<'t, 'de, A: EnumAccess<'de>> EnumAccess<'de> for ShapeEnum<'t, A> {
    type Error = A::Error;
    type Variant = ShapeVariant<'t, 'de, A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let mut name = None;
        let (value, variant) = self.data.variant_seed(KeySeed {
            seed,
            key: &mut name,
        })?;
        let track = self.track;
        Ok((
            value,
            ShapeVariant {
                variant,
                track,
                name,
            },
        ))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for ShapeVariant<'_, 'de, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        let read = self.variant.unit_variant();
        read.inspect_err(|_| self.track.failed_at(self.name.map(Step::Key)))
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        let track = self.track;
        let read = self.variant.newtype_variant_seed(ShapeSeed { seed, track });
        read.inspect_err(|_| {
            track.inside.set(false);
            track.failed_at(self.name.map(Step::Key));
        })
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        let track = self.track;
        let read = self
            .variant
            .tuple_variant(len, Wrap::<V, false> { visitor, track });
        read.inspect_err(|_| track.failed_at(self.name.map(Step::Key)))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let track = self.track;
        let read = self
            .variant
            .struct_variant(fields, Wrap::<V, true> { visitor, track });
        read.inspect_err(|_| track.failed_at(self.name.map(Step::Key)))
    }
}

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for KeySeed<'_, 'de, T> {
    type Value = T::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T::Value, D::Error> {
        self.seed.deserialize(KeyDe {
            de: deserializer,
            key: self.key,
        })
    }
}

macro_rules! forward_key_deserialize {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
                let (de, visitor) = self.wrap(visitor);
                de.$method($($arg,)* visitor)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for KeyDe<'_, 'de, D> {
    type Error = D::Error;

    deserialize_methods!(forward_key_deserialize);

    forward_key_deserialize! {
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// Keys are text in JSON: the `visit_*` methods for text note it, the others (which
/// JSON keys never reach) only forward.
impl<'de, V: Visitor<'de>> Visitor<'de> for KeyVisitor<'_, 'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    forward_visit! {
        visit_bool(bool);
        visit_i8(i8);
        visit_i16(i16);
        visit_i32(i32);
        visit_i64(i64);
        visit_i128(i128);
        visit_u8(u8);
        visit_u16(u16);
        visit_u32(u32);
        visit_u64(u64);
        visit_u128(u128);
        visit_f32(f32);
        visit_f64(f64);
        visit_char(char);
        visit_bytes(&[u8]);
        visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        *self.key = Some(Cow::Owned(v.to_owned()));
        self.visitor.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        *self.key = Some(Cow::Borrowed(v));
        self.visitor.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        *self.key = Some(Cow::Owned(v.clone()));
        self.visitor.visit_string(v)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.visitor.visit_some(deserializer)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<V::Value, D::Error> {
        self.visitor.visit_newtype_struct(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(map)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_enum(data)
    }
}

/// What the second read through `serde_path_to_error` found before there was one
/// read: the finding the path tracking in [`Shape`] must reproduce.
pub(crate) fn reference(json: &str) -> Report {
    let mut de = serde_json::Deserializer::from_str(json);
    let mut track = serde_path_to_error::Track::new();
    let unused = Track::default();
    let read = TaskSpec::deserialize(Shape::new(
        serde_path_to_error::Deserializer::new(&mut de, &mut track),
        &unused,
    ));
    match read {
        Ok(_) => {
            let err = de.end().expect_err(json);
            shape_report(FieldPath::root(), &err)
        }
        Err(err) => shape_report(field_path(&track.path()), &err),
    }
}

pub(crate) fn reference_value(value: &serde_json::Value) -> Report {
    let mut track = serde_path_to_error::Track::new();
    let unused = Track::default();
    let err = TaskSpec::deserialize(Shape::new(
        serde_path_to_error::Deserializer::new(value, &mut track),
        &unused,
    ))
    .expect_err("a wrong shape");
    shape_report(field_path(&track.path()), &err)
}

fn field_path(from: &serde_path_to_error::Path) -> FieldPath {
    let mut path = FieldPath::root();
    for segment in from.iter() {
        path = match segment {
            serde_path_to_error::Segment::Seq { index } => path.index(*index),
            serde_path_to_error::Segment::Map { key } => path.name(key),
            serde_path_to_error::Segment::Enum { variant } => path.name(variant),
            serde_path_to_error::Segment::Unknown => path,
        };
    }
    path
}
