//! Readers for the wire shapes whose derived `Deserialize` is large in the console's
//! wasm: serde's derive buffers an internally or adjacently tagged enum in its `Content`
//! and instantiates each variant's reader for it (BENCHMARKS.md, the console's bytes).
//! Here the object is read once as a JSON map and each field taken out by name, so
//! there is one reader per field type instead of one per variant. The JSON written is
//! still the derived `Serialize`; what is read back is the same values.
//!
//! Two differences from the derive, for input no Berth side writes: only the object
//! form is read (the derive also took a JSON array, the tag first and then the fields
//! by position), and anything else is refused as "expected a map".

use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Deserializer, Unexpected};
use serde_json::{Map, Value};

/// An object's fields while they are taken out one by one.
pub(crate) struct Fields(Map<String, Value>);

impl Fields {
    pub(crate) fn new(fields: Map<String, Value>) -> Self {
        Fields(fields)
    }

    /// The field `name`, as serde's derive reads it: when absent, `None` for an option
    /// and a missing field otherwise. Other fields are ignored, as the derive does
    /// without `deny_unknown_fields`.
    pub(crate) fn take<T: DeserializeOwned>(
        &mut self,
        name: &'static str,
    ) -> Result<T, serde_json::Error> {
        match self.0.remove(name) {
            Some(value) => serde_json::from_value(value),
            None => serde_json::from_value(Value::Null)
                .map_err(|_: serde_json::Error| de::Error::missing_field(name)),
        }
    }
}

/// An internally tagged enum's object: the variant named by its `tag` field, and the
/// other fields.
pub(crate) fn tagged<'de, D: Deserializer<'de>>(
    deserializer: D,
    tag: &'static str,
) -> Result<(String, Fields), D::Error> {
    let mut fields = Map::deserialize(deserializer)?;
    match fields.remove(tag) {
        Some(Value::String(variant)) => Ok((variant, Fields(fields))),
        Some(other) => Err(de::Error::invalid_type(
            unexpected(&other),
            &"variant identifier",
        )),
        None => Err(de::Error::missing_field(tag)),
    }
}

/// `value` in serde's words for an error.
pub(crate) fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Unexpected::Unsigned(u),
            (None, Some(i), _) => Unexpected::Signed(i),
            (None, None, Some(f)) => Unexpected::Float(f),
            (None, None, None) => Unexpected::Other("number"),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    enum Shape {
        Dot,
        Box { side: u32, label: Option<String> },
    }

    impl<'de> Deserialize<'de> for Shape {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let (kind, mut fields) = tagged(deserializer, "kind")?;
            let mut read = || -> Result<Self, serde_json::Error> {
                Ok(match kind.as_str() {
                    "dot" => Shape::Dot,
                    "box" => Shape::Box {
                        side: fields.take("side")?,
                        label: fields.take("label")?,
                    },
                    other => return Err(de::Error::unknown_variant(other, &["dot", "box"])),
                })
            };
            read().map_err(de::Error::custom)
        }
    }

    #[test]
    fn a_tagged_object_reads_as_the_derive_reads_it() {
        let read = |json: &str| serde_json::from_str::<Shape>(json).map_err(|e| e.to_string());
        assert_eq!(read(r#"{"kind": "dot", "extra": 1}"#), Ok(Shape::Dot));
        assert_eq!(
            read(r#"{"side": 2, "kind": "box"}"#),
            Ok(Shape::Box {
                side: 2,
                label: None
            }),
            "the tag anywhere; an absent option is none"
        );
        for (json, expected) in [
            (r#"{"kind": "box"}"#, "missing field `side`"),
            (r#"{"side": 2}"#, "missing field `kind`"),
            (
                r#"{"kind": "ring"}"#,
                "unknown variant `ring`, expected `dot` or `box`",
            ),
            (
                r#"{"kind": 3}"#,
                "invalid type: integer `3`, expected variant identifier",
            ),
            (r#"{"kind": "box", "side": -1}"#, "expected u32"),
            (r#"["box", 2]"#, "invalid type: sequence, expected a map"),
        ] {
            let err = read(json).unwrap_err();
            assert!(err.contains(expected), "{json}: {err}");
        }
    }
}
