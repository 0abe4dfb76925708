//! A finding's code and `params` as the API writes them, and the values inside: the
//! console reads the server's findings (a 422's body) here, with the rest of its answers.
//!
//! serde's readers of these (`IssueCode::from_wire` and the tagged enums' in
//! `crate::wire`) go through serde_json's `Value` and its deserializer, which the
//! console would carry for findings alone (BENCHMARKS.md, the console's bundle). They
//! stay for the server; these read the same JSON to the same values, and the tests hold
//! the two equal on every code's sample.

use super::api::read_loose;
use super::{Json, Object, Problem, Read, ReadError, variant};
use crate::quota::{NEVER_KINDS, NeverReason, QUEUE_KINDS, QueueReason, Shortfall};
use crate::validate::{EXPECTED_KINDS, Expected, Found};
use crate::vocab::Dimension;

read_enum!(Dimension {
    "gpu" => Dimension::Gpu,
    "vcpu" => Dimension::Vcpu,
    "memory_gib" => Dimension::MemoryGib,
});

read_loose!(Shortfall {
    dimension,
    requested,
    remaining,
});

/// An internally tagged enum's object: the position of the variant its `kind` names
/// among `kinds`, and its other fields. The kinds are the serde readers' lists, so both
/// readers take the same names; each reader's arms follow its list's order.
fn tagged<'t, 'a>(
    value: Json<'t, 'a>,
    kinds: &'static [&'static str],
) -> Result<(usize, Object<'t, 'a>), ReadError> {
    const TAG: &str = "kind";
    let mut object = Object::loose(value)?;
    let tag = object
        .take(TAG)
        .ok_or_else(|| ReadError::new(Problem::Missing { field: TAG }))?;
    let which = variant(tag, kinds).map_err(|e| e.at_field(TAG))?;
    Ok((which, object))
}

impl Read for QueueReason {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let (which, mut f) = tagged(value, QUEUE_KINDS)?;
        Ok(match which {
            0 => QueueReason::NoNodeHostsOne {
                dimension: f.field("dimension")?,
                largest_free: f.field("largest_free")?,
                need: f.field("need")?,
            },
            1 => QueueReason::NotEnoughAtOnce {
                placeable: f.field("placeable")?,
                replicas: f.field("replicas")?,
            },
            2 => QueueReason::HeadHasNoRoom {
                dimension: f.field("dimension")?,
                largest_free: f.field("largest_free")?,
                need: f.field("need")?,
            },
            #[cfg(feature = "queue")]
            4 => QueueReason::PassedOver,
            _ => QueueReason::NoIdleOffer {
                spec: f.field("spec")?,
            },
        })
    }
}

impl Read for NeverReason {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let (which, mut f) = tagged(value, NEVER_KINDS)?;
        Ok(match which {
            0 => NeverReason::NoMatchingNode {
                gpu_model: f.or("gpu_model", None)?,
            },
            1 => NeverReason::ReplicaTooLarge {
                dimension: f.field("dimension")?,
                largest_total: f.field("largest_total")?,
                need: f.field("need")?,
            },
            2 => NeverReason::HeadTooLarge {
                dimension: f.field("dimension")?,
                largest_total: f.field("largest_total")?,
                need: f.field("need")?,
            },
            _ => NeverReason::PoolTooSmall {
                capacity: f.field("capacity")?,
                replicas: f.field("replicas")?,
            },
        })
    }
}

impl Read for Expected {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let (which, mut f) = tagged(value, EXPECTED_KINDS)?;
        Ok(match which {
            0 => Expected::WholeNumber,
            1 => Expected::Integer,
            2 => Expected::Number,
            3 => Expected::Text,
            4 => Expected::Boolean,
            5 => Expected::List,
            6 => Expected::Object,
            7 => Expected::OneOf {
                options: f.field("options")?,
            },
            8 => Expected::KnownField {
                options: f.field("options")?,
            },
            9 => Expected::Once,
            10 => Expected::Json {
                detail: f.field("detail")?,
            },
            _ => Expected::Other {
                detail: f.field("detail")?,
            },
        })
    }
}

/// Adjacently tagged: `{"kind": "text", "value": "two"}`, `{"kind": "null"}`.
impl Read for Found {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let (which, mut f) = tagged(
            value,
            &["text", "number", "boolean", "list", "object", "null"],
        )?;
        Ok(match which {
            0 => Found::Text(f.field("value")?),
            1 => Found::Number(f.field("value")?),
            2 => Found::Boolean(f.field("value")?),
            3 => Found::List,
            4 => Found::Object,
            _ => Found::Null,
        })
    }
}

/// A finding's `params` while its code's fields are taken out one by one
/// (`IssueCode::read_wire`): absent or `null` for a code without values, an object of
/// the fields otherwise. Other fields are ignored, as serde's reader ignores them.
pub(crate) struct Params<'t, 'a> {
    given: Option<Json<'t, 'a>>,
    fields: Option<Object<'t, 'a>>,
}

impl<'t, 'a> Params<'t, 'a> {
    pub(crate) fn new(given: Option<Json<'t, 'a>>) -> Self {
        Params {
            given: given.filter(|params| !params.is_null()),
            fields: None,
        }
    }

    /// The field `name` of a code with values.
    pub(crate) fn field<T: Read>(&mut self, name: &'static str) -> Result<T, ReadError> {
        let fields = match (&mut self.fields, self.given.take()) {
            (Some(fields), _) => fields,
            (None, Some(given)) => self.fields.insert(Object::loose(given)?),
            (None, None) => return Err(ReadError::new(Problem::Missing { field: "params" })),
        };
        fields.field_or_null(name)
    }

    /// A code without values takes no params.
    pub(crate) fn done(self) -> Result<(), ReadError> {
        match self.given {
            Some(_) => Err(ReadError::other(
                "this code takes no params, absent or null".to_owned(),
            )
            .at_field("params")),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::from_json;

    #[test]
    fn reasons_and_shapes_read_as_their_serde_readers_read_them() {
        let same = |json: &str| {
            fn both<T: Read + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(
                json: &str,
            ) {
                let serde = serde_json::from_str::<T>(json).map_err(|_| ());
                let read = from_json::<T>(json).map_err(|_| ());
                assert_eq!(read, serde, "{json}");
            }
            both::<QueueReason>(json);
            both::<NeverReason>(json);
            both::<Expected>(json);
            both::<Found>(json);
            both::<Shortfall>(json);
        };
        for json in [
            r#"{"kind": "no_node_hosts_one", "dimension": "gpu", "largest_free": 2, "need": 4}"#,
            r#"{"kind": "not_enough_at_once", "placeable": 3, "replicas": 8, "extra": 1}"#,
            r#"{"need": 4, "largest_free": 0, "dimension": "memory_gib", "kind": "head_has_no_room"}"#,
            r#"{"kind": "no_matching_node"}"#,
            r#"{"kind": "no_matching_node", "gpu_model": "A100"}"#,
            r#"{"kind": "no_matching_node", "gpu_model": null}"#,
            r#"{"kind": "pool_too_small", "capacity": 6, "replicas": 8}"#,
            r#"{"kind": "replica_too_large", "dimension": "vcpu", "largest_total": 64}"#,
            r#"{"kind": "one_of", "options": ["a", "b"]}"#,
            r#"{"kind": "whole_number"}"#,
            r#"{"kind": "json", "detail": "EOF while parsing"}"#,
            r#"{"kind": "text", "value": "two"}"#,
            r#"{"kind": "null"}"#,
            r#"{"kind": "number"}"#,
            r#"{"kind": "paused"}"#,
            r#"{"dimension": "gpu", "requested": 8, "remaining": 6}"#,
            r#"{"dimension": "disk", "requested": 8, "remaining": 6}"#,
            r#"{"kind": 5}"#,
            r#"["no_matching_node"]"#,
            "null",
        ] {
            same(json);
        }
    }

    /// Every variant written by its derived `Serialize` reads back as itself: the
    /// readers' arms follow their kinds' order (`EXPECTED_KINDS`, ...).
    #[test]
    fn every_shape_reads_back_as_written() {
        let text = || "two".to_owned();
        let expected = [
            Expected::WholeNumber,
            Expected::Integer,
            Expected::Number,
            Expected::Text,
            Expected::Boolean,
            Expected::List,
            Expected::Object,
            Expected::OneOf {
                options: vec!["a".into(), "b".into()],
            },
            Expected::KnownField {
                options: vec!["name".into()],
            },
            Expected::Once,
            Expected::Json { detail: text() },
            Expected::Other { detail: text() },
        ];
        assert_eq!(expected.len(), EXPECTED_KINDS.len());
        for value in expected {
            let json = serde_json::to_string(&value).unwrap();
            assert_eq!(from_json::<Expected>(&json).unwrap(), value, "{json}");
        }
        let found = [
            Found::Text(text()),
            Found::Number("2.5".into()),
            Found::Boolean("true".into()),
            Found::List,
            Found::Object,
            Found::Null,
        ];
        for value in found {
            let json = serde_json::to_string(&value).unwrap();
            assert_eq!(from_json::<Found>(&json).unwrap(), value, "{json}");
        }
    }

    #[test]
    fn a_wrong_reason_says_where_and_what() {
        let error = |json: &str| from_json::<NeverReason>(json).unwrap_err().to_string();
        assert_eq!(error("{}"), "missing field `kind`");
        assert!(
            error(r#"{"kind": "paused"}"#).starts_with("kind: unknown variant `paused`"),
            "{}",
            error(r#"{"kind": "paused"}"#)
        );
        assert_eq!(
            error(r#"{"kind": "pool_too_small", "capacity": "six", "replicas": 8}"#),
            "capacity: invalid type: a string, expected a whole number from 0 to 18446744073709551615"
        );
    }
}
