//! The spec's reader: a [`TaskSpec`] and its parts from the JSON value, and the shape
//! finding when the value is not a spec.
//!
//! serde's derived reader, wrapped to name the failing field and to refuse a list where
//! a struct belongs, used to be the largest part of both bundles: a copy of it and of
//! serde_json's parser for every spec type (BENCHMARKS.md, the validator package's size).
//! Here one small reader per type takes its fields out of the JSON value, and the
//! findings are what that reader found, word for word: the tests hold them equal to the
//! derived reader's for every input.
//!
//! What it must read as the derive did, and how:
//! - An object's entries in the text's order, so that the first wrong entry in the text
//!   is the one reported (the derive read as it parsed): an unknown key at the key,
//!   before its value; a key written twice at the second (serde: "duplicate field"); a
//!   wrong value at the value. The spec's findings pass unknown keys, unread, and go on
//!   (`super::past_unknown`): each is found where the derive would have stopped at it.
//! - Every field optional, the struct's own `Default` filling the absent ones
//!   (`#[serde(default)]` on the struct: `workers` 0, `units_per_node` 1).
//! - An integer field takes a whole number written as a float below 2^53 (`3.0`), as
//!   the wrapper did and as JSON Schema reads numbers; the catalog's integers do not.
//! - Text that stops being JSON ([`Value::Cut`]) after a value of the wrong shape gives
//!   the shape's finding; otherwise the parser's.

use super::{Json, Problem, Read, ReadError, Seen, Token, Value, Want, passes_unknown};
use crate::path::FieldPath;
use crate::task::{
    Advanced, Alert, AlertChannel, AlertEvent, Autoscaling, Basic, Compute, DebugMode, EnvVar,
    Environment, FaultTolerance, ImageChoice, Monitoring, Mount, RaySettings, SharedStorage, Tag,
    TaskSpec, UpscalingMode,
};
use crate::validate::{Expected, Found};
use crate::vocab::{Priority, TaskType};

/// Reads a struct's fields from `value` in the text's order, as serde's derive did:
/// `set(i, value)` stores field `i` (of `fields`). Not generic, so one copy serves
/// every struct.
pub(crate) fn in_order<'t, 'a>(
    value: Json<'t, 'a>,
    name: &'static str,
    fields: &'static [&'static str],
    set: &mut dyn FnMut(usize, Json<'t, 'a>) -> Result<(), ReadError>,
) -> Result<(), ReadError> {
    let entries = match value.node() {
        Value::Object(entries) => entries,
        other => return Err(ReadError::invalid(Want::Object(Some(name)), &other)),
    };
    let mut seen = 0u32;
    // Where the next key is looked for first: Berth writes a struct's fields in order.
    let mut next = 0;
    for (key, value) in entries {
        if value.is_keyless_cut() {
            return Err(ReadError::new(Problem::Cut));
        }
        let found = match fields.get(next) {
            Some(field) if *field == key => Some(next),
            _ => fields.iter().position(|f| *f == key),
        };
        let Some(i) = found else {
            // Passed unread while the read passes unknown fields (the spec's findings):
            // whatever it holds, it is not the struct's.
            if passes_unknown() {
                continue;
            }
            return Err(ReadError::new(Problem::Unknown {
                field: key.into_owned(),
                expected: fields,
            }));
        };
        if seen & (1 << i) != 0 {
            return Err(ReadError::new(Problem::Duplicate { field: fields[i] }));
        }
        seen |= 1 << i;
        next = i + 1;
        set(i, value).map_err(|e| e.at_field(fields[i]))?;
    }
    Ok(())
}

/// `3.0` as the whole number 3 for an integer field: JSON has one number type, and
/// JSON Schema (and so the API's OpenAPI document) reads it so. Only below 2^53, where
/// a float holds every whole number exactly: a larger one may be a rounded integer out
/// of range (serde_json reads `-9223372036854775809` as a float).
pub(crate) fn number<T: Read>(mut value: Json<'_, '_>) -> Result<T, ReadError> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if let Some(token) = value.first_token()
        && let Token::Float(v) = *token
        && v.fract() == 0.0
        && v.abs() < EXACT
    {
        // Whole and within ±2^53, so the casts are exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let whole = if v >= 0.0 {
            Token::Unsigned(v as u64)
        } else {
            Token::Signed(v as i64)
        };
        *token = whole;
    }
    T::read(value)
}

/// A `#[serde(default, deny_unknown_fields)]` struct of the spec, read by [`in_order`]
/// into the struct's `Default`. A field's reader is `Read::read` unless given
/// (`workers: number`).
macro_rules! read_spec_struct {
    ($ty:ident { $($field:ident $(: $reader:path)?),+ $(,)? }) => {
        impl Read for $ty {
            fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
                type Set = for<'t, 'a> fn(&mut $ty, Json<'t, 'a>) -> Result<(), ReadError>;
                const SET: &[Set] = &[$(|out, value| {
                    out.$field = read_spec_struct!(@reader $($reader)?)(value)?;
                    Ok(())
                }),+];
                let mut out = $ty::default();
                // Names every field (no `..`), so a field added to the type and not
                // here breaks the build.
                let $ty { $($field: _),* } = &out;
                in_order(
                    value,
                    stringify!($ty),
                    &[$(stringify!($field)),+],
                    &mut |i, value| SET[i](&mut out, value),
                )?;
                Ok(out)
            }
        }
    };
    (@reader) => { Read::read };
    (@reader $reader:path) => { $reader };
}

read_spec_struct!(TaskSpec {
    version: number,
    basic,
    environment,
    compute,
    advanced,
    ray,
});
read_spec_struct!(Basic {
    region,
    cluster,
    project_group,
    name_prefix,
    task_type,
    visible_in_group,
    time_zone,
    tags,
});
read_spec_struct!(Tag { key, value });
read_spec_struct!(Environment {
    image,
    env,
    storage,
    datasets,
    models,
    command,
});
read_spec_struct!(ImageChoice { source, value });
read_spec_struct!(EnvVar {
    name,
    value,
    hidden
});
read_spec_struct!(Mount { id, path });
read_spec_struct!(Compute {
    kind,
    pool,
    accept_idle,
    prefer_idle,
    idle_stability,
    priority,
    guarantee,
    workers: number,
    instance_type,
    specs,
    units_per_node: number,
    head_spec,
});
read_spec_struct!(Advanced {
    fault_tolerance,
    monitoring,
    image_pull_retries: number,
    ssh,
    alerts,
});
read_spec_struct!(FaultTolerance {
    enabled,
    max_retries: number,
});
read_spec_struct!(Monitoring {
    enabled,
    port: number,
    path,
});
read_spec_struct!(Alert {
    event,
    threshold: number,
    channel,
    target,
});
read_spec_struct!(RaySettings {
    runtime_env,
    shared_storage,
    debug,
    autoscaling,
});
read_spec_struct!(SharedStorage {
    enabled,
    volume,
    clean_on_exit,
});
read_spec_struct!(DebugMode {
    enabled,
    keep_secs: number,
});
read_spec_struct!(Autoscaling {
    enabled,
    min_workers: number,
    max_workers: number,
    idle_timeout_secs: number,
    upscaling_mode,
});

read_enum!(TaskType {
    "pytorch_job" => TaskType::PyTorchJob,
    "ray_job" => TaskType::RayJob,
});
read_enum!(Priority {
    "low" => Priority::Low,
    "normal" => Priority::Normal,
    "high" => Priority::High,
});
read_enum!(AlertEvent {
    "failed" => AlertEvent::Failed,
    "succeeded" => AlertEvent::Succeeded,
    "stopped" => AlertEvent::Stopped,
    "retried" => AlertEvent::Retried,
    "queued_longer_than" => AlertEvent::QueuedLongerThan,
    "running_longer_than" => AlertEvent::RunningLongerThan,
});
read_enum!(AlertChannel {
    "email" => AlertChannel::Email,
    "webhook" => AlertChannel::Webhook,
});
read_enum!(UpscalingMode {
    "default" => UpscalingMode::Default,
    "aggressive" => UpscalingMode::Aggressive,
    "conservative" => UpscalingMode::Conservative,
});

impl ReadError {
    /// The spec's shape finding for this error: the failing field's path, what it should
    /// hold and what it held, as the derived reader's serde errors gave them.
    pub(crate) fn finding(&self) -> (FieldPath, Expected, Option<Found>) {
        let path = self.field_path();
        match &self.0.problem {
            Problem::Type { want, seen, .. } => {
                let (expected, found) = type_finding(*want, seen);
                (path, expected, found)
            }
            Problem::Variant { found, expected } => {
                let words = if quirky(found) {
                    serde_words(&format!(
                        "unknown variant `{found}`, expected {}",
                        serde_one_of(expected)
                    ))
                } else {
                    // serde's text quoted the name in backticks: a finding reads it up
                    // to the first backtick in it.
                    let value = found.split('`').next().unwrap_or_default();
                    (
                        Expected::OneOf {
                            options: owned(expected),
                        },
                        Some(Found::Text(value.to_owned())),
                    )
                };
                (path, words.0, words.1)
            }
            Problem::Unknown { field, expected } => {
                // The key is the place: the field that should not be there.
                let path = path.name(field);
                if quirky(field) {
                    let words = serde_words(&format!(
                        "unknown field `{field}`, expected {}",
                        serde_one_of(expected)
                    ));
                    (path, words.0, words.1)
                } else {
                    let options = owned(expected);
                    (path, Expected::KnownField { options }, None)
                }
            }
            // The key is the place, as for an unknown one.
            Problem::Duplicate { field } => (path.name(field), Expected::Once, None),
            other => (
                path,
                Expected::Other {
                    detail: other.to_string(),
                },
                None,
            ),
        }
    }
}

fn owned(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

/// Whether text the user wrote would have broken serde's error text as the shape
/// finding read it (which cut it at " at line " and split it at "expected "): such a
/// finding is made from serde's text, exactly as before.
fn quirky(text: &str) -> bool {
    text.contains(" at line ") || text.contains("expected ")
}

/// serde's finding words for a text of serde's own.
fn serde_words(text: &str) -> (Expected, Option<Found>) {
    crate::validate::describe_text(&format!("{text} at line 1 column 1"), false)
}

/// serde's list of names: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``.
fn serde_one_of(names: &[&str]) -> String {
    match names {
        [one] => format!("`{one}`"),
        [a, b] => format!("`{a}` or `{b}`"),
        _ => super::one_of(names),
    }
}

fn type_finding(want: Want, seen: &Seen) -> (Expected, Option<Found>) {
    let found = match seen {
        Seen::Null => Found::Null,
        Seen::Bool(b) => Found::Boolean(b.to_string()),
        Seen::Unsigned(n) => Found::Number(n.to_string()),
        Seen::Signed(n) => Found::Number(n.to_string()),
        Seen::Float(n) => Found::Number(float_text(*n)),
        Seen::Str(s) => {
            // serde wrote the string as Rust's debug form, and the finding took it back
            // without the quotes (and without backticks at either end).
            let debug = format!("{s:?}");
            if debug.contains(" at line ") || debug.contains(", expected ") {
                return serde_words(&format!(
                    "invalid type: string {debug}, expected {}",
                    serde_want(want)
                ));
            }
            Found::Text(debug.trim_matches(|c| c == '`' || c == '"').to_owned())
        }
        Seen::List => Found::List,
        Seen::Object => Found::Object,
    };
    let expected = match want {
        Want::Text => Expected::Text,
        Want::Bool => Expected::Boolean,
        Want::Number { ty, .. } if ty.starts_with('u') => Expected::WholeNumber,
        Want::Number { .. } => Expected::Integer,
        Want::List => Expected::List,
        Want::Object(_) => Expected::Object,
        Want::OneOf(names) => Expected::OneOf {
            options: owned(names),
        },
    };
    (expected, Some(found))
}

/// What serde's readers said they expected.
fn serde_want(want: Want) -> String {
    match want {
        Want::Text => "a string".to_owned(),
        Want::Bool => "a boolean".to_owned(),
        Want::Number { ty, .. } => ty.to_owned(),
        Want::List => "a sequence".to_owned(),
        Want::Object(Some(name)) => format!("struct {name}"),
        Want::Object(None) => "a map".to_owned(),
        Want::OneOf(names) => super::one_of(names),
    }
}

/// A float as serde_json writes one in an error, and in JSON (`3.0`, `1e20`).
fn float_text(n: f64) -> String {
    serde_json::to_string(&n).unwrap_or_default()
}

// `Deserialize` through this reader for every spec type, outside the tests, whose
// oracle is the derived reader.
#[cfg(not(test))]
deserialize_by_reading!(
    TaskSpec,
    Basic,
    Tag,
    Environment,
    ImageChoice,
    EnvVar,
    Mount,
    Compute,
    Advanced,
    FaultTolerance,
    Monitoring,
    Alert,
    RaySettings,
    SharedStorage,
    DebugMode,
    Autoscaling,
    TaskType,
    Priority,
    AlertEvent,
    AlertChannel,
    UpscalingMode,
);
