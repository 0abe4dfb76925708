//! The reader of everything Berth reads from JSON: the spec ([`crate::TaskSpec`], in
//! the `spec` module), and what the validator is given besides it: the catalog, the user
//! and the live usage, and the server's catalog file that holds the first and last.
//!
//! serde's derives gave each of these types its own reader, with serde_json's parser
//! inlined into every one: 110 KB of the validator package's wasm for the catalog's, and
//! more for the spec's (BENCHMARKS.md, the validator package's size). Here the text is
//! parsed once into a JSON value ([`Tape`]) and each type takes its fields out of it,
//! so there is one small reader per type and one parser. The types' `Deserialize` is
//! implemented on top of it, so `serde_json::from_str::<Catalog>` and every caller keep
//! working, natively and in wasm; the JSON written is still the derived `Serialize`.
//!
//! It reads every form a Berth side writes exactly as the derives did: `#[serde(default)]`
//! (a missing field takes the type's `Default`), `deny_unknown_fields`, the renamed
//! variants, `null` for an absent option. A catalog's errors are worded its own way, each
//! naming the place (`regions[0].clusters[1].pools[2].nodes[0].gpu_model`) and what was
//! expected; it refuses what no Berth side writes and the derives took: a struct
//! written as a JSON array of its fields by position, and an enum written as
//! `{"variant": null}`. Structs read their entries in the text's order, as the
//! derives did, and refuse a key written twice as they did; the few read by hand
//! (`Admission`, `IdleOffer`, `IdleFragment`, `QuotaUse`: a tag or required fields)
//! read such a key once.
//!
//! The spec's reader must give the findings serde's derived reader gave, word for word,
//! for every input (its module says how), past each unknown field as well as up to it.
//! The types the spec and the catalog both hold (`Tag`, the vocabulary enums) have one
//! reader, the spec's, and one description of what went wrong ([`ReadError`]), which
//! gives the catalog's error text and the spec's finding.

use crate::catalog::{
    AccessMode, Admission, Catalog, Cluster, DataItem, IdleFragment, IdleOffer, Image,
    InstanceSpec, KubeSettings, Node, PersistentEnvVar, Pool, PriorityClasses, ProjectGroup, Quota,
    Region, Scrape, Sharing, TagPolicy, User, Volume,
};
use crate::catalog_file::CatalogFile;
use crate::path::{FieldPath, Segment};
use crate::resources::Resources;
use crate::task::ImageSource;
use crate::usage::{QuotaUse, Usage};
use crate::validate::YamlFault;
use crate::vocab::{IdleStability, InstanceType, ResourceKind};
pub(crate) use json::{Broken, Token, parse_partial};
pub use json::{Entries, Items, Json, Tape, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

mod json;
#[cfg(test)]
pub(crate) mod tests;

/// Why a value could not be read, and where: a catalog's, user's or usage's error
/// text ([`fmt::Display`]), or a spec's shape finding ([`ReadError::finding`]), both
/// made here from one description of what went wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadError(Box<Failure>);

#[derive(Clone, Debug, PartialEq)]
struct Failure {
    /// From the failing value out to the root: steps are added as the error passes out,
    /// so a read that succeeds builds no path.
    path: Vec<Segment>,
    problem: Problem,
}

#[derive(Clone, Debug, PartialEq)]
enum Problem {
    /// A value of the wrong JSON type, or a number out of range.
    Type {
        want: Want,
        seen: Seen,
        /// The value could also have been `null` (an option): the catalog's text says so.
        or_null: bool,
    },
    /// A string that names no variant.
    Variant {
        found: String,
        expected: &'static [&'static str],
    },
    /// A field the type does not have.
    Unknown {
        field: String,
        expected: &'static [&'static str],
    },
    /// A field that has no default is absent.
    Missing { field: &'static str },
    /// A field written twice in one object.
    Duplicate { field: &'static str },
    /// The text stopped being JSON here ([`Value::Cut`]): the caller has the parser's
    /// error and its place.
    Cut,
    /// A value read another way refused, in that reader's words (a finding's code and
    /// its `params`).
    Other(String),
}

/// What a reader takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    Text,
    Bool,
    /// A whole number of the Rust type serde names (`u32`), from `range`.
    Number {
        ty: &'static str,
        range: &'static str,
    },
    List,
    /// A struct (serde says `struct Basic`), or a map when `None`.
    Object(Option<&'static str>),
    /// One of these names.
    OneOf(&'static [&'static str]),
}

/// The value a reader was given instead, as much of it as an error tells.
#[derive(Clone, Debug, PartialEq)]
enum Seen {
    Null,
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Str(String),
    List,
    Object,
}

impl ReadError {
    fn new(problem: Problem) -> Self {
        ReadError(Box::new(Failure {
            path: Vec::new(),
            problem,
        }))
    }

    /// A name that is none of `expected`.
    pub(crate) fn unknown_variant(found: &str, expected: &'static [&'static str]) -> Self {
        ReadError::new(Problem::Variant {
            found: found.to_owned(),
            expected,
        })
    }

    /// A value read another way refused, in that reader's words.
    pub(crate) fn other(words: String) -> Self {
        ReadError::new(Problem::Other(words))
    }

    /// `value` is not what a reader of `want` takes (or is where the text stopped being
    /// JSON).
    pub(crate) fn invalid(want: Want, value: &Value<'_, '_>) -> Self {
        let seen = match value {
            Value::Null => Seen::Null,
            Value::Bool(b) => Seen::Bool(*b),
            Value::Unsigned(n) => Seen::Unsigned(*n),
            Value::Signed(n) => Seen::Signed(*n),
            Value::Float(n) => Seen::Float(*n),
            Value::Str(s) => Seen::Str(s.clone().into_owned()),
            Value::List(_) => Seen::List,
            Value::Object(_) => Seen::Object,
            Value::Cut => return ReadError::new(Problem::Cut),
        };
        ReadError::new(Problem::Type {
            want,
            seen,
            or_null: false,
        })
    }

    fn at(mut self, step: Segment) -> Self {
        self.0.path.push(step);
        self
    }

    fn at_key(self, key: &str) -> Self {
        self.at(Segment::Key(Cow::Owned(key.to_owned())))
    }

    pub(crate) fn at_field(self, key: &'static str) -> Self {
        self.at(Segment::Key(Cow::Borrowed(key)))
    }

    /// Whether the read stopped at an unknown field.
    pub(crate) fn is_unknown(&self) -> bool {
        matches!(self.0.problem, Problem::Unknown { .. })
    }

    /// Whether the read stopped where the text stopped being JSON: the parser's error
    /// (and its place) is the one to report.
    pub(crate) fn is_cut(&self) -> bool {
        self.0.problem == Problem::Cut
    }

    /// The field's place, as the spec's findings print theirs (`env[2].name`); empty
    /// for the value read as a whole.
    pub fn path(&self) -> String {
        self.field_path().to_string()
    }

    fn field_path(&self) -> FieldPath {
        FieldPath::from_segments(self.0.path.iter().rev().cloned().collect())
    }
}

/// `` `a`, `b` `` for an error.
fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    format!("one of {}", quoted.join(", "))
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Type {
                want,
                seen,
                or_null,
            } => {
                f.write_str("invalid type: ")?;
                match seen {
                    Seen::Null => f.write_str("null"),
                    Seen::Bool(_) => f.write_str("a boolean"),
                    Seen::Unsigned(n) => write!(f, "the number {n}"),
                    Seen::Signed(n) => write!(f, "the number {n}"),
                    // Not the number itself: that would keep float formatting in the
                    // package for one error text.
                    Seen::Float(_) => f.write_str("a decimal number"),
                    Seen::Str(_) => f.write_str("a string"),
                    Seen::List => f.write_str("a list"),
                    Seen::Object => f.write_str("an object"),
                }?;
                f.write_str(", expected ")?;
                match want {
                    Want::Text => f.write_str("a string"),
                    Want::Bool => f.write_str("true or false"),
                    Want::Number { range, .. } => write!(f, "a whole number from {range}"),
                    Want::List => f.write_str("a list"),
                    Want::Object(_) => f.write_str("an object"),
                    Want::OneOf(names) => f.write_str(&one_of(names)),
                }?;
                if *or_null {
                    f.write_str(" or null")?;
                }
                Ok(())
            }
            Problem::Variant { found, expected } => {
                write!(
                    f,
                    "unknown variant `{found}`, expected {}",
                    one_of(expected)
                )
            }
            Problem::Unknown { field, expected } => {
                write!(f, "unknown field `{field}`, expected {}", one_of(expected))
            }
            Problem::Missing { field } => write!(f, "missing field `{field}`"),
            Problem::Duplicate { field } => write!(f, "duplicate field `{field}`"),
            Problem::Cut => f.write_str("not JSON"),
            Problem::Other(words) => f.write_str(words),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path();
        if !path.is_empty() {
            write!(f, "{path}: ")?;
        }
        self.0.problem.fmt(f)
    }
}

impl std::error::Error for ReadError {}

/// A type this module reads from a JSON value.
pub trait Read: Sized {
    /// Reads `value`, taking its owned strings rather than copying them.
    ///
    /// # Errors
    ///
    /// [`ReadError`], naming where in `value` and what was expected there.
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError>;
}

/// Reads `T` from JSON text: the text's syntax errors as serde_json words them (with
/// line and column), then this module's.
///
/// # Errors
///
/// The text is not JSON, or not of `T`'s shape.
pub fn from_json<T: Read>(text: &str) -> Result<T, serde_json::Error> {
    T::read(serde_json::from_str::<Tape<'_>>(text)?.json()).map_err(serde::de::Error::custom)
}

impl Read for String {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        match value.node() {
            Value::Str(s) => Ok(s.into_owned()),
            other => Err(ReadError::invalid(Want::Text, &other)),
        }
    }
}

impl Read for bool {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        match value.node() {
            Value::Bool(b) => Ok(b),
            other => Err(ReadError::invalid(Want::Bool, &other)),
        }
    }
}

/// A JSON integer that fits `T`, as serde reads one: no fraction, no exponent.
fn whole<T: TryFrom<u64> + TryFrom<i64>>(
    value: Json<'_, '_>,
    ty: &'static str,
    range: &'static str,
) -> Result<T, ReadError> {
    let value = value.node();
    let read = match value {
        Value::Unsigned(u) => T::try_from(u).ok(),
        Value::Signed(i) => T::try_from(i).ok(),
        _ => None,
    };
    read.ok_or_else(|| ReadError::invalid(Want::Number { ty, range }, &value))
}

impl Read for u64 {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        whole(value, "u64", "0 to 18446744073709551615")
    }
}

impl Read for u32 {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        whole(value, "u32", "0 to 4294967295")
    }
}

impl Read for i64 {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        whole(value, "i64", "-9223372036854775808 to 9223372036854775807")
    }
}

impl Read for u16 {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        whole(value, "u16", "0 to 65535")
    }
}

impl Read for usize {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        #[cfg(target_pointer_width = "32")]
        const RANGE: &str = "0 to 4294967295";
        #[cfg(not(target_pointer_width = "32"))]
        const RANGE: &str = "0 to 18446744073709551615";
        whole(value, "usize", RANGE)
    }
}

/// Any JSON value, as serde_json holds one (a Kubernetes object, a finding's `params`).
impl Read for serde_json::Value {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        use serde_json::Value as V;
        Ok(match value.node() {
            Value::Null => V::Null,
            Value::Bool(b) => V::Bool(b),
            Value::Unsigned(n) => V::from(n),
            Value::Signed(n) => V::from(n),
            Value::Float(n) => V::from(n),
            Value::Str(s) => V::String(s.into_owned()),
            Value::List(items) => V::Array(items.map(V::read).collect::<Result<_, _>>()?),
            Value::Object(entries) => {
                let mut map = serde_json::Map::new();
                for (key, item) in entries {
                    let item = V::read(item).map_err(|e| e.at_key(&key))?;
                    map.insert(key.into_owned(), item);
                }
                V::Object(map)
            }
            Value::Cut => return Err(ReadError::new(Problem::Cut)),
        })
    }
}

impl<T: Read> Read for Option<T> {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        if value.is_null() {
            return Ok(None);
        }
        T::read(value).map(Some).map_err(|mut e| {
            // A wrong value right here (not deeper inside it) could also have been null.
            if let (true, Problem::Type { or_null, .. }) = (e.0.path.is_empty(), &mut e.0.problem) {
                *or_null = true;
            }
            e
        })
    }
}

impl<T: Read> Read for Vec<T> {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let mut out = Vec::new();
        each_item(value, &mut |item| {
            out.push(T::read(item)?);
            Ok(())
        })?;
        Ok(out)
    }
}

/// Calls `read` on each item of a list, naming the item a failure is at. Not generic, so
/// the walk is built once rather than once per item type: the wasm carries a dozen
/// kinds of list.
fn each_item(
    value: Json<'_, '_>,
    read: &mut dyn FnMut(Json<'_, '_>) -> Result<(), ReadError>,
) -> Result<(), ReadError> {
    let items = match value.node() {
        Value::List(items) => items,
        other => return Err(ReadError::invalid(Want::List, &other)),
    };
    for (i, item) in items.enumerate() {
        read(item).map_err(|e| e.at(Segment::Index(i)))?;
    }
    Ok(())
}

/// How many more unknown fields the struct readers pass, unread, before one stops the
/// read ([`past_unknown`]): each thread's, as a server reads specs on several.
#[cfg(not(all(target_arch = "wasm32", not(target_feature = "atomics"))))]
mod pass {
    use std::cell::Cell;

    thread_local! {
        static PASS: Cell<usize> = const { Cell::new(0) };
    }

    pub(super) fn get() -> usize {
        PASS.with(Cell::get)
    }

    pub(super) fn set(left: usize) {
        PASS.with(|pass| pass.set(left));
    }
}

/// The count in wasm without threads (the console's, the validator package's), where a
/// static is the one thread's: a thread local's accessors took 80 more bytes of the
/// package, whose budget is tight (BENCHMARKS.md, the validator package's size).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod pass {
    use std::sync::atomic::{AtomicUsize, Ordering};

    static PASS: AtomicUsize = AtomicUsize::new(0);

    pub(super) fn get() -> usize {
        PASS.load(Ordering::Relaxed)
    }

    pub(super) fn set(left: usize) {
        PASS.store(left, Ordering::Relaxed);
    }
}

/// Runs `read`, whose struct readers pass the first `unknown` unknown fields they meet
/// (a key that is none of the struct's fields), unread, and stop at the next, as they
/// stop at each outside this (`deny_unknown_fields`: a catalog's, a stored task's spec).
/// A read that stops at the next unknown field, or reads the whole text, has passed
/// them all: none is left for a later read.
pub(crate) fn past_unknown<T>(unknown: usize, read: impl FnOnce() -> T) -> T {
    /// Leaves none to pass however the read ends: where a panic unwinds (natively), the
    /// thread may read again.
    #[cfg(panic = "unwind")]
    struct Stop;
    #[cfg(panic = "unwind")]
    impl Drop for Stop {
        fn drop(&mut self) {
            pass::set(0);
        }
    }
    #[cfg(panic = "unwind")]
    let _stop = Stop;
    pass::set(unknown);
    read()
}

/// Whether the struct reader that met an unknown field passes it.
pub(crate) fn passes_unknown() -> bool {
    let left = pass::get();
    if left > 0 {
        pass::set(left - 1);
    }
    left > 0
}

impl<T: Read> Read for BTreeMap<String, T> {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let entries = match value.node() {
            Value::Object(entries) => entries,
            other => return Err(ReadError::invalid(Want::Object(None), &other)),
        };
        let mut out = BTreeMap::new();
        for (key, item) in entries {
            let item = T::read(item).map_err(|e| e.at_key(&key))?;
            out.insert(key.into_owned(), item);
        }
        Ok(out)
    }
}

/// An object's fields while a struct's reader takes them out one by one.
pub(crate) struct Object<'t, 'a>(Vec<(Cow<'a, str>, Json<'t, 'a>)>);

impl<'t, 'a> Object<'t, 'a> {
    /// `value` as an object with no field but `fields` (`deny_unknown_fields`).
    fn new(value: Json<'t, 'a>, fields: &'static [&'static str]) -> Result<Self, ReadError> {
        match value.node() {
            Value::Object(entries) => Object::of(entries.collect(), fields),
            other => Err(ReadError::invalid(Want::Object(None), &other)),
        }
    }

    /// `value` as an object whose other fields are ignored, as serde's derive does
    /// without `deny_unknown_fields`: the server's answers, which may grow.
    pub(crate) fn loose(value: Json<'t, 'a>) -> Result<Self, ReadError> {
        match value.node() {
            Value::Object(entries) => Ok(Object(entries.collect())),
            other => Err(ReadError::invalid(Want::Object(None), &other)),
        }
    }

    fn of(
        entries: Vec<(Cow<'a, str>, Json<'t, 'a>)>,
        fields: &'static [&'static str],
    ) -> Result<Self, ReadError> {
        if let Some((field, _)) = entries.iter().find(|(k, _)| !fields.contains(&k.as_ref())) {
            return Err(ReadError::new(Problem::Unknown {
                field: field.clone().into_owned(),
                expected: fields,
            }));
        }
        Ok(Object(entries))
    }

    /// The field's value, taken out of the object. A key written twice is read once,
    /// the first time (serde's derive refused it; no Berth side writes it).
    pub(crate) fn take(&mut self, name: &str) -> Option<Json<'t, 'a>> {
        let at = self.0.iter().position(|(k, _)| k == name)?;
        Some(self.0.swap_remove(at).1)
    }

    /// The field `name`, or `default` when it is absent (`#[serde(default)]`).
    fn or<T: Read>(&mut self, name: &'static str, default: T) -> Result<T, ReadError> {
        match self.take(name) {
            Some(value) => T::read(value).map_err(|e| e.at_field(name)),
            None => Ok(default),
        }
    }

    /// The field `name`, which must be there.
    pub(crate) fn field<T: Read>(&mut self, name: &'static str) -> Result<T, ReadError> {
        match self.take(name) {
            Some(value) => T::read(value).map_err(|e| e.at_field(name)),
            None => Err(ReadError::new(Problem::Missing { field: name })),
        }
    }

    /// The field `name`, which must be there unless `T` reads `null` (an option), as
    /// serde's derive reads a field it is not told the default of: for fields of any
    /// type, read by one generic reader (a finding's `params`).
    pub(crate) fn field_or_null<T: Read>(&mut self, name: &'static str) -> Result<T, ReadError> {
        match self.take(name) {
            Some(value) => T::read(value).map_err(|e| e.at_field(name)),
            None => Json::read_null(T::read)
                .map_err(|_| ReadError::new(Problem::Missing { field: name })),
        }
    }
}

/// The position of the variant a string names.
pub(crate) fn variant(
    value: Json<'_, '_>,
    names: &'static [&'static str],
) -> Result<usize, ReadError> {
    match value.node() {
        Value::Str(s) => names.iter().position(|n| *n == s).ok_or_else(|| {
            ReadError::new(Problem::Variant {
                found: s.into_owned(),
                expected: names,
            })
        }),
        other => Err(ReadError::invalid(Want::OneOf(names), &other)),
    }
}

/// A unit-variant enum read from its (renamed) name.
macro_rules! read_enum {
    ($ty:ty { $($name:literal => $variant:expr),+ $(,)? }) => {
        impl Read for $ty {
            fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
                Ok([$($variant),+][$crate::read::variant(value, &[$($name),+])?])
            }
        }
    };
}

/// A `#[serde(default, deny_unknown_fields)]` struct of the catalog, read as the spec's
/// are (`spec::in_order`: the entries in the text's order, a key written twice refused
/// as the derive refused it): the struct's `Default` (`KubeSettings`' own) fills the
/// absent fields.
macro_rules! read_struct {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl Read for $ty {
            fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
                type Set = for<'t, 'a> fn(&mut $ty, Json<'t, 'a>) -> Result<(), ReadError>;
                const SET: &[Set] = &[$(|out, value| {
                    out.$field = Read::read(value)?;
                    Ok(())
                }),*];
                let mut out = $ty::default();
                // Names every field (no `..`), so a field added to the type and not
                // here breaks the build.
                let $ty { $($field: _),* } = &out;
                spec::in_order(
                    value,
                    stringify!($ty),
                    &[$(stringify!($field)),*],
                    &mut |i, value| SET[i](&mut out, value),
                )?;
                Ok(out)
            }
        }
    };
}

read_enum!(ResourceKind {
    "reserved" => ResourceKind::Reserved,
    "on_demand" => ResourceKind::OnDemand,
    "spot" => ResourceKind::Spot,
    "idle" => ResourceKind::Idle,
});
read_enum!(YamlFault {
    "flow_list" => YamlFault::FlowList,
    "flow_mapping" => YamlFault::FlowMapping,
    "quote" => YamlFault::Quote,
    "tab" => YamlFault::Tab,
    "colon" => YamlFault::Colon,
    "indent" => YamlFault::Indent,
    "missing_key" => YamlFault::MissingKey,
    "other" => YamlFault::Other,
});
read_enum!(InstanceType {
    "gpu" => InstanceType::Gpu,
    "cpu" => InstanceType::Cpu,
});
read_enum!(IdleStability {
    "low" => IdleStability::Low,
    "medium" => IdleStability::Medium,
    "high" => IdleStability::High,
});
read_enum!(ImageSource {
    "built_in" => ImageSource::BuiltIn,
    "custom" => ImageSource::Custom,
    "address" => ImageSource::Address,
});
read_enum!(Scrape {
    "annotations" => Scrape::Annotations,
    "pod_monitor" => Scrape::PodMonitor,
});
read_enum!(Sharing {
    "shared" => Sharing::Shared,
    "dedicated" => Sharing::Dedicated,
});
read_enum!(AccessMode {
    "rwo" => AccessMode::ReadWriteOnce,
    "rwx" => AccessMode::ReadWriteMany,
});

read_struct!(User {
    name,
    org,
    tenant_id
});
read_struct!(Catalog {
    regions,
    project_groups,
    tags,
    persistent_env,
    time_zones,
    image_pull_retries_default,
    quotas,
});
read_struct!(Region { id, name, clusters });
read_struct!(Cluster {
    id,
    name,
    pools,
    specs,
    images,
    volumes,
    datasets,
    models,
    idle,
    kubernetes,
});
read_struct!(PriorityClasses { low, normal, high });
read_struct!(Pool {
    id,
    name,
    sharing,
    kinds,
    nodes,
});
read_struct!(Node {
    name,
    gpu_model,
    total,
    labels,
});
read_struct!(Resources {
    gpu,
    vcpu,
    memory_gib,
});
read_struct!(InstanceSpec {
    id,
    name,
    instance_type,
    gpu_model,
    per_unit,
    max_units_per_node,
});
read_struct!(Image {
    id,
    name,
    source,
    address,
    capabilities,
});
read_struct!(Volume {
    id,
    name,
    access_mode,
    capacity_gib,
});
read_struct!(DataItem { id, name, version });
read_struct!(ProjectGroup { id, name, members });
read_struct!(TagPolicy {
    validation,
    maintained,
});
read_struct!(PersistentEnvVar {
    user,
    name,
    value,
    hidden,
});
read_struct!(Quota {
    user,
    kind,
    pool,
    spec,
    limit,
});
read_struct!(Usage { nodes, quota });
read_struct!(CatalogFile { catalog, usage });

/// Internally tagged on `scheduler`, as the derive read it: the tag anywhere in the
/// object, the variant's fields beside it. A unit variant ignores other fields, as the
/// derive did.
impl Read for Admission {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        const TAG: &str = "scheduler";
        let entries = match value.node() {
            Value::Object(entries) => entries,
            other => return Err(ReadError::invalid(Want::Object(None), &other)),
        };
        let mut map = Object(entries.collect());
        let tag = map
            .take(TAG)
            .ok_or_else(|| ReadError::new(Problem::Missing { field: TAG }))?;
        let which = variant(tag, &["none", "kueue", "volcano"]).map_err(|e| e.at_field(TAG))?;
        Ok(match which {
            0 => Admission::None,
            1 => Admission::Kueue {
                local_queue: Object::of(map.0, &["local_queue"])?.field("local_queue")?,
            },
            _ => Admission::Volcano {
                queue: Object::of(map.0, &["queue"])?.field("queue")?,
            },
        })
    }
}

read_struct!(KubeSettings {
    namespace,
    admission,
    priority_classes,
    monitoring,
});

impl Read for IdleOffer {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let mut object = Object::new(value, &["spec", "stability", "quantity", "fragments"])?;
        Ok(IdleOffer {
            spec: object.field("spec")?,
            stability: object.field("stability")?,
            quantity: object.field("quantity")?,
            fragments: object.or("fragments", Vec::new())?,
        })
    }
}

impl Read for IdleFragment {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let mut object = Object::new(value, &["nodes", "units"])?;
        Ok(IdleFragment {
            nodes: object.field("nodes")?,
            units: object.field("units")?,
        })
    }
}

impl Read for QuotaUse {
    fn read(value: Json<'_, '_>) -> Result<Self, ReadError> {
        let mut object = Object::new(value, &["user", "kind", "pool", "spec", "used"])?;
        Ok(QuotaUse {
            user: object.field("user")?,
            kind: object.field("kind")?,
            pool: object.field("pool")?,
            spec: object.field("spec")?,
            used: object.field("used")?,
        })
    }
}

/// `Deserialize` through this module's reader: any deserializer gives a JSON value, which
/// is then read as above.
macro_rules! deserialize_by_reading {
    ($($ty:ty),+ $(,)?) => {$(
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let mut tape = <$crate::read::Tape<'de> as serde::Deserialize>::deserialize(deserializer)?;
                <$ty as Read>::read(tape.json()).map_err(serde::de::Error::custom)
            }
        }
    )+};
}

deserialize_by_reading!(
    User,
    Catalog,
    Region,
    Cluster,
    KubeSettings,
    Admission,
    PriorityClasses,
    Scrape,
    Sharing,
    Pool,
    Node,
    InstanceSpec,
    Image,
    AccessMode,
    Volume,
    DataItem,
    ProjectGroup,
    TagPolicy,
    PersistentEnvVar,
    Quota,
    IdleOffer,
    IdleFragment,
    Usage,
    QuotaUse,
    CatalogFile,
);

// The vocabulary's enums the spec and the catalog both hold; outside the tests, whose
// oracle is the spec's derived reader.
#[cfg(not(test))]
deserialize_by_reading!(ResourceKind, InstanceType, IdleStability, ImageSource);

mod api;
mod finding;
mod spec;

pub(crate) use finding::Params;
