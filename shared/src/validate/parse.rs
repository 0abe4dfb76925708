//! From JSON to a [`TaskSpec`], or to the finding that says where its shape is wrong;
//! and [`check_json`], from JSON text to findings and plan in one call.
//!
//! Most specs are well formed, so the text is read once without tracking where the
//! reader is (tracking copies every key it passes, and cost more than half of a parse).
//! Only when that fails is it read again through `serde_path_to_error`, to name the
//! field. Both reads go through [`Shape`], so they accept and refuse the same inputs.
//!
//! [`Shape`] exists because serde's derive also fills a struct from a JSON array, by
//! position: `[]` would be an empty spec and `"basic": [...]` would pass. It refuses a
//! list wherever a struct belongs, at every depth, as `value.invalid` (expected an
//! object, found a list).

use super::shape::{field_path, shape_report};
use super::{Check, FieldPath, Report, check};
use crate::catalog::{Catalog, User};
use crate::task::TaskSpec;
use crate::usage::Usage;
use serde::Deserialize;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use std::fmt;

/// Reads a spec from JSON text.
///
/// # Errors
///
/// A [`Report`] with one `value.invalid` finding at the first field of the wrong shape,
/// or where parsing stopped when the text is not JSON.
pub fn parse_spec(text: &str) -> Result<TaskSpec, Report> {
    quick_text(text).or_else(|_| explain_text(text))
}

/// Reads a spec from a JSON value (see [`parse_spec`]).
///
/// # Errors
///
/// As [`parse_spec`].
pub fn parse_value(value: serde_json::Value) -> Result<TaskSpec, Report> {
    quick_value(&value).or_else(|_| explain_value(&value))
}

/// The findings and the plan for a spec given as JSON text: what the form, the JS API
/// and `POST /validate` show. A spec of the wrong shape gives its shape finding and no
/// plan.
pub fn check_json(text: &str, catalog: &Catalog, usage: &Usage, user: &User) -> Check {
    match parse_spec(text) {
        Ok(spec) => check(&spec, catalog, usage, user),
        Err(issues) => Check { issues, plan: None },
    }
}

/// The fast read: no path tracking, and an error that only says that it failed.
fn quick_text(text: &str) -> Result<TaskSpec, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let spec = TaskSpec::deserialize(Shape(&mut de))?;
    de.end()?;
    Ok(spec)
}

fn quick_value(value: &serde_json::Value) -> Result<TaskSpec, serde_json::Error> {
    TaskSpec::deserialize(Shape(value))
}

/// The slow read, with the path of the failing field.
fn explain_text(text: &str) -> Result<TaskSpec, Report> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut track = serde_path_to_error::Track::new();
    let spec = TaskSpec::deserialize(Shape(serde_path_to_error::Deserializer::new(
        &mut de, &mut track,
    )))
    .map_err(|err| shape_report(field_path(&track.path()), &err))?;
    // Text after the spec: the spec itself was whole, so the finding is about all of it.
    de.end()
        .map_err(|err| shape_report(FieldPath::root(), &err))?;
    Ok(spec)
}

fn explain_value(value: &serde_json::Value) -> Result<TaskSpec, Report> {
    let mut track = serde_path_to_error::Track::new();
    TaskSpec::deserialize(Shape(serde_path_to_error::Deserializer::new(
        value, &mut track,
    )))
    .map_err(|err| shape_report(field_path(&track.path()), &err))
}

/// A deserializer that reads through `D` but refuses a sequence where a struct belongs.
///
/// It wraps every visitor it hands on, and every element, map value, `Some` content,
/// newtype and enum variant those visitors are given, so nested structs are covered
/// too. Map keys are passed through: they name fields and are never structs.
struct Shape<D>(D);

/// `visitor` as [`Shape`] hands it on; `STRUCT` when it builds a struct.
struct Wrap<V, const STRUCT: bool>(V);

/// A seed whose deserializer is wrapped in [`Shape`].
struct ShapeSeed<T>(T);

/// The elements of a sequence, each read through [`Shape`].
struct ShapeSeq<A>(A);

/// The entries of a map, each value read through [`Shape`].
struct ShapeMap<A>(A);

/// An enum whose variant's content is read through [`Shape`].
struct ShapeEnum<A>(A);

/// A variant's content, read through [`Shape`].
struct ShapeVariant<A>(A);

macro_rules! forward_deserialize {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
                self.0.$method($($arg,)* Wrap::<V, false>(visitor))
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Shape<D> {
    type Error = D::Error;

    forward_deserialize! {
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
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_struct(name, fields, Wrap::<V, true>(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty);)*) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.0.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>, const STRUCT: bool> Visitor<'de> for Wrap<V, STRUCT> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
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
                self.0.visit_u64(v as u64)
            } else {
                self.0.visit_i64(v as i64)
            };
        }
        self.0.visit_f64(v)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Shape(deserializer))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Shape(deserializer))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if STRUCT {
            // "invalid type: sequence, expected struct Basic": an object, found a list.
            return Err(de::Error::invalid_type(Unexpected::Seq, &self));
        }
        self.0.visit_seq(ShapeSeq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(ShapeMap(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(ShapeEnum(data))
    }
}

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for ShapeSeed<T> {
    type Value = T::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T::Value, D::Error> {
        self.0.deserialize(Shape(deserializer))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for ShapeSeq<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(ShapeSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for ShapeMap<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(seed)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(ShapeSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for ShapeEnum<A> {
    type Error = A::Error;
    type Variant = ShapeVariant<A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let (value, variant) = self.0.variant_seed(seed)?;
        Ok((value, ShapeVariant(variant)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for ShapeVariant<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(ShapeSeed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap::<V, false>(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Wrap::<V, true>(visitor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{Expected, Found, IssueCode};

    /// The one finding for `json`, as path and code.
    fn finding(json: &str) -> (String, IssueCode) {
        let report = parse_spec(json).expect_err("the shape is wrong");
        assert_eq!(report.issues().len(), 1, "{report}");
        let issue = &report.issues()[0];
        (issue.path.to_string(), issue.code.clone())
    }

    fn object_found(found: Found) -> IssueCode {
        IssueCode::ValueInvalid {
            expected: Expected::Object,
            found: Some(found),
        }
    }

    #[test]
    fn a_whole_number_written_with_a_fraction_is_a_whole_number() {
        let spec = parse_spec(r#"{"version": 1.0, "compute": {"workers": 3.0}}"#)
            .expect("3.0 is the number 3");
        assert_eq!(spec.compute.workers, 3);
        let value = serde_json::json!({"advanced": {"image_pull_retries": -2.0}});
        let spec = parse_value(value).expect("-2.0 is the number -2");
        assert_eq!(spec.advanced.image_pull_retries, Some(-2));
        let (path, _) = finding(r#"{"advanced": {"image_pull_retries": -9223372036854775809}}"#);
        assert_eq!(
            path, "advanced.image_pull_retries",
            "out of range, not rounded"
        );
        let (path, code) = finding(r#"{"compute": {"workers": 2.5}}"#);
        assert_eq!(path, "compute.workers");
        assert_eq!(
            code,
            IssueCode::ValueInvalid {
                expected: Expected::WholeNumber,
                found: Some(Found::Number("2.5".into())),
            }
        );
    }

    #[test]
    fn a_list_as_the_spec_is_not_an_empty_spec() {
        assert_eq!(finding("[]"), (String::new(), object_found(Found::List)));
        assert_eq!(
            finding("[1, {}]"),
            (String::new(), object_found(Found::List))
        );
    }

    #[test]
    fn a_list_as_basic_is_refused_even_when_it_has_every_value() {
        let json = r#"{"basic": ["cn-east", "sh-a", "nlp", "x", "pytorch_job", true, "UTC", []]}"#;
        assert_eq!(finding(json), ("basic".into(), object_found(Found::List)));
    }

    #[test]
    fn a_list_as_an_env_var_names_its_index() {
        let json = r#"{"environment": {"env": [
            {"name": "A", "value": "1"}, {"name": "B"}, ["C", "3", false]
        ]}}"#;
        assert_eq!(
            finding(json),
            ("environment.env[2]".into(), object_found(Found::List))
        );
    }

    #[test]
    fn lists_are_refused_at_every_depth() {
        for (json, path) in [
            (
                r#"{"environment": {"image": ["address", "x"]}}"#,
                "environment.image",
            ),
            (
                r#"{"advanced": {"monitoring": [true, 9090, "/m"]}}"#,
                "advanced.monitoring",
            ),
            (
                r#"{"advanced": {"alerts": [["failed", null, "email", "a@b.c"]]}}"#,
                "advanced.alerts[0]",
            ),
            (r#"{"ray": {"autoscaling": []}}"#, "ray.autoscaling"),
            (
                r#"{"basic": {"tags": [{"key": "a"}, ["b", "c"]]}}"#,
                "basic.tags[1]",
            ),
        ] {
            assert_eq!(
                finding(json),
                (path.into(), object_found(Found::List)),
                "{json}"
            );
        }
    }

    #[test]
    fn null_where_an_object_belongs_is_refused() {
        assert_eq!(finding("null"), (String::new(), object_found(Found::Null)));
        assert_eq!(
            finding(r#"{"compute": null}"#),
            ("compute".into(), object_found(Found::Null))
        );
        assert_eq!(
            finding(r#"{"environment": {"storage": [null]}}"#),
            ("environment.storage[0]".into(), object_found(Found::Null))
        );
    }

    #[test]
    fn other_values_where_an_object_belongs_are_refused() {
        assert_eq!(
            finding(r#"{"basic": "cn-east"}"#),
            ("basic".into(), object_found(Found::Text("cn-east".into())))
        );
        assert_eq!(
            finding("1"),
            (String::new(), object_found(Found::Number("1".into())))
        );
    }

    #[test]
    fn lists_where_lists_belong_still_parse() {
        let spec = parse_spec(crate::demo::PYTORCH_EXAMPLE).expect("the example parses");
        assert_eq!(spec.environment.env.len(), 2);
        assert_eq!(spec.compute.specs, ["a100-1g"]);
        let value = serde_json::from_str(crate::demo::PYTORCH_EXAMPLE).expect("JSON");
        assert_eq!(parse_value(value).expect("the example parses"), spec);
    }

    #[test]
    fn text_after_the_spec_is_not_json() {
        let (path, code) = finding("{} {}");
        assert_eq!(path, "");
        assert!(
            matches!(
                code,
                IssueCode::ValueInvalid {
                    expected: Expected::Json { .. },
                    found: None
                }
            ),
            "{code:?}"
        );
    }

    /// Inputs of every kind of wrong shape.
    const BAD: [&str; 22] = [
        "[]",
        "null",
        "\"spec\"",
        "{\"basic\": ",
        "{} x",
        "{\"version\": -1}",
        "{\"version\": 1.5}",
        "{\"verison\": 1}",
        r#"{"basic": []}"#,
        r#"{"basic": null}"#,
        r#"{"basic": {"task_type": "tf_job"}}"#,
        r#"{"basic": {"tags": {}}}"#,
        r#"{"basic": {"tags": [{"key": 1}]}}"#,
        r#"{"environment": {"env": [{}, {}, ["A", "1", false]]}}"#,
        r#"{"environment": {"image": {"source": "hub"}}}"#,
        r#"{"environment": {"models": [{"id": "m", "paht": "/m"}]}}"#,
        r#"{"compute": {"workers": "two"}}"#,
        r#"{"compute": {"specs": "h100-1g"}}"#,
        r#"{"compute": {"guarantee": "yes"}}"#,
        r#"{"advanced": {"alerts": [{"event": "failed", "threshold": -1}]}}"#,
        r#"{"ray": {"autoscaling": {"upscaling_mode": 1}}}"#,
        r#"{"ray": {"debug": [true, 600]}}"#,
    ];

    #[test]
    fn every_bad_input_gets_the_same_finding_on_both_reads() {
        for json in BAD {
            let quick = quick_text(json).expect_err(json);
            let slow = explain_text(json).expect_err(json);
            let fast_way = parse_spec(json).expect_err(json);
            assert_eq!(fast_way, slow, "{json}");
            assert_eq!(slow.issues().len(), 1, "{json}");
            // The quick read's own error says the same thing, only without the path.
            let quick = shape_report(FieldPath::root(), &quick);
            assert_eq!(quick.issues()[0].code, slow.issues()[0].code, "{json}");
            // A JSON value (when the text is one) fails the quick read too, and gets the
            // same path and code. (serde_json words a few errors differently for a value:
            // a number for an enum is "expected value" in text, an invalid type in a value.)
            if let Ok(value) = serde_json::from_str::<serde_json::Value>(json) {
                assert!(quick_value(&value).is_err(), "{json}");
                let from_value = parse_value(value.clone()).expect_err(json);
                assert_eq!(explain_value(&value).expect_err(json), from_value, "{json}");
                let (got, want) = (&from_value.issues()[0], &slow.issues()[0]);
                assert_eq!(got.path, want.path, "{json}");
                assert_eq!(got.code.code(), want.code.code(), "{json}");
            }
        }
    }

    #[test]
    fn a_good_input_reads_the_same_both_ways() {
        for text in [crate::demo::PYTORCH_EXAMPLE, crate::demo::RAY_EXAMPLE, "{}"] {
            let quick = quick_text(text).expect("parses");
            assert_eq!(explain_text(text).expect("parses"), quick);
        }
    }

    #[test]
    fn check_json_gives_shape_findings_without_a_plan() {
        let catalog = crate::demo::catalog();
        let user = crate::demo::user();
        let usage = crate::demo::usage();
        let bad = check_json("[]", &catalog, &usage, &user);
        assert_eq!(bad.issues.codes(), ["value.invalid"]);
        assert_eq!(bad.plan, None);
        let good = check_json(crate::demo::PYTORCH_EXAMPLE, &catalog, &usage, &user);
        assert!(!good.issues.has_errors(), "{}", good.issues);
        assert!(good.plan.is_some());
    }
}
