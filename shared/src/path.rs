//! Field paths: where in the spec a finding points, printed as `env[2].name`.
//!
//! A leaf module: the spec names its own fields with `field_key!` (so renaming a field
//! breaks the build), and validation builds finding paths with `field_path!`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

/// A [`FieldPath`] of struct fields, checked against the types at compile time.
///
/// `field_path!(TaskSpec: compute.workers)` is `FieldPath::of(&["compute", "workers"])`,
/// and also holds a closure that is never called, `|x: &TaskSpec| { let _ = &x.compute.workers; }`,
/// so the path compiles only while `TaskSpec` has a field `compute` with a field
/// `workers`: renaming a field breaks the build instead of silently breaking the form's
/// lookups. Wire names equal the Rust field names (no serde renames on spec fields).
/// The closure costs nothing at run time.
///
/// A path through a list or an `Option` stops at it; continue with
/// [`FieldPath::index`] and [`field_key!`].
macro_rules! field_path {
    ($ty:ty : $($field:ident).+) => {{
        let _ = |x: &$ty| {
            let _ = &x.$($field).+;
        };
        $crate::path::FieldPath::of(&[$(stringify!($field)),+])
    }};
}
pub(crate) use field_path;

/// One field name, checked against its type like [`field_path!`]: a key appended after
/// an index, `list.index(i).key(field_key!(EnvVar: name))`.
macro_rules! field_key {
    ($ty:ty : $field:ident) => {{
        let _ = |x: &$ty| {
            let _ = &x.$field;
        };
        stringify!($field)
    }};
}
pub(crate) use field_key;

/// One step of a [`FieldPath`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A struct field (a static name, or one read from the wire).
    Key(Cow<'static, str>),
    /// A list index.
    Index(usize),
}

/// An ordered path into the spec; empty means the whole spec.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FieldPath(Vec<Segment>);

impl FieldPath {
    /// The whole spec.
    pub fn root() -> Self {
        FieldPath(Vec::new())
    }

    /// Its steps, from the spec's top.
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    /// The path of these segments, outermost first.
    pub(crate) fn from_segments(segments: Vec<Segment>) -> Self {
        FieldPath(segments)
    }

    /// A path made of keys, such as `["compute", "workers"]`.
    pub fn of(keys: &[&'static str]) -> Self {
        FieldPath(
            keys.iter()
                .map(|k| Segment::Key(Cow::Borrowed(k)))
                .collect(),
        )
    }

    /// This path with a key appended.
    pub fn key(&self, key: &'static str) -> Self {
        self.with(Segment::Key(Cow::Borrowed(key)))
    }

    /// This path with a list index appended.
    pub fn index(&self, index: usize) -> Self {
        self.with(Segment::Index(index))
    }

    /// This path with a key known only at run time appended.
    pub fn name(&self, name: &str) -> Self {
        self.with(Segment::Key(Cow::Owned(name.to_owned())))
    }

    /// This path with any segment appended.
    pub fn with(&self, segment: Segment) -> Self {
        let mut segments = Vec::with_capacity(self.0.len() + 1);
        segments.extend_from_slice(&self.0);
        segments.push(segment);
        FieldPath(segments)
    }

    /// Whether `self` is `prefix` or lies beneath it.
    pub fn starts_with(&self, prefix: &FieldPath) -> bool {
        self.0.starts_with(&prefix.0)
    }

    /// Whether this is the whole spec.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// Parses the printed form back (`env[2].name`).
    pub fn parse(text: &str) -> Self {
        let mut segments = Vec::new();
        for part in text.split('.').filter(|p| !p.is_empty()) {
            let (name, rest) = part.split_once('[').map_or((part, ""), |(n, r)| (n, r));
            if !name.is_empty() {
                segments.push(Segment::Key(Cow::Owned(name.to_owned())));
            }
            for index in rest.split('[').filter(|s| !s.is_empty()) {
                if let Ok(i) = index.trim_end_matches(']').parse() {
                    segments.push(Segment::Index(i));
                }
            }
        }
        FieldPath(segments)
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Key(k) if i == 0 => f.write_str(k)?,
                Segment::Key(k) => write!(f, ".{k}")?,
                Segment::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

impl Serialize for FieldPath {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for FieldPath {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(FieldPath::parse(&text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_parses_indexes() {
        let path = FieldPath::of(&["environment", "env"]).index(2).key("name");
        assert_eq!(path.to_string(), "environment.env[2].name");
        assert_eq!(FieldPath::parse("environment.env[2].name"), path);
        assert_eq!(FieldPath::root().to_string(), "");
    }

    #[test]
    fn typed_paths_print_as_their_field_names() {
        use crate::task::{Alert, EnvVar, RaySettings, TaskSpec};
        assert_eq!(
            field_path!(TaskSpec: compute.workers),
            FieldPath::of(&["compute", "workers"])
        );
        assert_eq!(field_path!(TaskSpec: version).to_string(), "version");
        assert_eq!(
            field_path!(TaskSpec: environment.image.value).to_string(),
            "environment.image.value"
        );
        assert_eq!(
            field_path!(TaskSpec: environment.env)
                .index(2)
                .key(field_key!(EnvVar: name))
                .to_string(),
            "environment.env[2].name"
        );
        assert_eq!(
            field_path!(TaskSpec: advanced.alerts)
                .index(0)
                .key(field_key!(Alert: threshold))
                .to_string(),
            "advanced.alerts[0].threshold"
        );
        assert_eq!(field_key!(RaySettings: runtime_env), "runtime_env");
    }

    #[test]
    fn prefixes_are_whole_segments() {
        let env = FieldPath::of(&["environment", "env"]);
        assert!(env.index(0).key("name").starts_with(&env));
        assert!(!FieldPath::of(&["environment"]).starts_with(&env));
    }
}
