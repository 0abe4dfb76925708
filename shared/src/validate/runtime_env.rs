//! A RayJob runtime env as PyYAML's safe loader reads it, for the rules in `ray.rs`,
//! and the way it crosses from one wasm module to another.
//!
//! With the `yaml` feature the text is read here (`pyyaml`, over yaml-rust2). The
//! validator package and the console leave that feature out: the YAML reader is a fifth
//! of the package's bytes, and only a RayJob with a runtime env needs it. There a second
//! module, fetched when needed, reads
//! the text with `read_runtime_env` (this crate with the feature) and hands its answer
//! back as JSON text to the reader set with `set_runtime_env_reader`; until one is set,
//! a runtime env is an error (`ray.runtime_env.unread`), never passed unread.

#[cfg(any(test, feature = "yaml"))]
use crate::flat::Writer;
use crate::flat::{self, Item};

/// A node as PyYAML's safe loader builds it, reduced to what the rules need.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Value {
    /// `None`.
    Null,
    /// `True` or `False`.
    Bool(bool),
    /// A number (int or float), as written.
    Number(String),
    /// A string.
    Str(String),
    /// A date, timestamp, bytes, set or ordered map.
    Other,
    /// A list.
    Seq(Vec<Value>),
    /// A mapping, in order; a later entry with an equal key wins.
    Map(Vec<(Value, Value)>),
}

impl Value {
    /// The value Python's `dict.get` returns for a string key: the last entry wins.
    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(entries) => entries
                .iter()
                .rev()
                .find(|(k, _)| matches!(k, Value::Str(s) if s == key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// Python truthiness, for the checks Ray writes as `if a and b`.
    pub(super) fn is_truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Str(s) => !s.is_empty(),
            Value::Seq(items) => !items.is_empty(),
            Value::Map(entries) => !entries.is_empty(),
            Value::Number(_) | Value::Other => true,
        }
    }
}

/// What is wrong where a runtime env stops being YAML, in the words the messages have
/// for it (`ray.runtime_env.invalid_yaml.<fault>`): the parser's own words are English
/// and name the place it stopped, which for a bracket left open is lines after the
/// mistake.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum YamlFault {
    /// Inside a `[` not yet closed: a `,` or `]` was expected.
    FlowList,
    /// Inside a `{` not yet closed: a `,` or `}` was expected.
    FlowMapping,
    /// Quoted text with no closing quote (or a next line not indented).
    Quote,
    /// A tab where YAML wants spaces.
    Tab,
    /// `: ` inside a plain value, or a line indented deeper than its mapping allows.
    Colon,
    /// A line whose indentation matches none above it.
    Indent,
    /// A `:` with no key before it.
    MissingKey,
    /// Anything else (an unknown escape, a reserved character, a value its tag does
    /// not fit), rare enough to say in the reader's own words, the finding's `detail`.
    Other,
}

impl YamlFault {
    /// Every fault, in the order of their numbers in the module's answer.
    pub(crate) const ALL: [YamlFault; 8] = [
        YamlFault::FlowList,
        YamlFault::FlowMapping,
        YamlFault::Quote,
        YamlFault::Tab,
        YamlFault::Colon,
        YamlFault::Indent,
        YamlFault::MissingKey,
        YamlFault::Other,
    ];
}

/// Where and why a text is not YAML as PyYAML reads it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Syntax {
    /// Line and column, from 1, where the reader stopped.
    pub(super) line: usize,
    pub(super) column: usize,
    pub(super) fault: YamlFault,
    /// The line of the `[` or `{` still open there, for a flow fault.
    pub(super) open_line: Option<usize>,
    /// The reader's own words (English), for the API and for [`YamlFault::Other`].
    pub(super) detail: String,
}

/// Why PyYAML's safe loader (or the validator's limit on it) refuses the text.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Refusal {
    /// Not YAML as PyYAML reads it.
    Syntax(Syntax),
    /// An alias (`*name`): refused, since aliases can expand without bound.
    Alias,
    /// A tag the safe loader has no constructor for, as written.
    Tag(String),
    /// A list or mapping as a mapping key.
    UnhashableKey,
    /// Nothing here reads YAML: a build without the `yaml` feature that was given no
    /// reader (`set_runtime_env_reader`), or one that gave no answer.
    Unread,
}

/// The documents of `text`, or the first reason PyYAML would refuse it: read by the
/// reader set, if any, else here with the `yaml` feature.
pub(super) fn load(text: &str) -> Result<Vec<Value>, Refusal> {
    if let Some(read) = READER.get() {
        return read(text).map_or(Err(Refusal::Unread), |answer| from_wire(&answer));
    }
    #[cfg(feature = "yaml")]
    return super::pyyaml::load(text);
    #[cfg(not(feature = "yaml"))]
    return Err(Refusal::Unread);
}

/// Reads a runtime env's text elsewhere (another wasm module) and answers with what
/// `read_runtime_env` gives for it, or `None` when it cannot.
pub type RuntimeEnvReader = fn(&str) -> Option<String>;

static READER: std::sync::OnceLock<RuntimeEnvReader> = std::sync::OnceLock::new();

/// Has runtime envs read by `read` from now on, instead of here: the validator package's
/// way to its YAML module, in a build without the `yaml` feature; a build with it uses
/// a reader set too, which is how the tests run the corpus through one. The first reader
/// set stays.
pub fn set_runtime_env_reader(read: RuntimeEnvReader) {
    // A second call sets nothing: the package's reader is one function either way.
    let _ = READER.set(read);
}

/// The top-level keys of a runtime env other than `env_vars`, in the order written
/// (`working_dir`, `pip`, …): what a backend that runs the entrypoint itself, without Ray's
/// runtime env agent, does not apply; none when the text does not read.
#[cfg(feature = "yaml")]
pub fn runtime_env_other_keys(text: &str) -> Vec<String> {
    let Ok(docs) = super::pyyaml::load(text) else {
        return Vec::new();
    };
    match docs.first() {
        Some(Value::Map(entries)) => entries
            .iter()
            .filter_map(|(key, _)| match key {
                Value::Str(key) if key != "env_vars" => Some(key.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The `env_vars` of a runtime env as Ray reads them (strings to strings, in the order of
/// a Python dict: a name given twice keeps its first place and its last value), for a
/// backend that runs the entrypoint itself; none when the text does not read (the
/// validator refuses it).
#[cfg(feature = "yaml")]
pub fn runtime_env_vars(text: &str) -> Vec<(String, String)> {
    let Ok(docs) = super::pyyaml::load(text) else {
        return Vec::new();
    };
    let mut vars: Vec<(String, String)> = Vec::new();
    if let Some(Value::Map(entries)) = docs.first().and_then(|doc| doc.get("env_vars")) {
        for (name, value) in entries {
            if let (Value::Str(name), Value::Str(value)) = (name, value) {
                // As a Python dict: the first place, the last value.
                match vars.iter_mut().find(|(n, _)| n == name) {
                    Some(var) => var.1.clone_from(value),
                    None => vars.push((name.clone(), value.clone())),
                }
            }
        }
    }
    vars
}

/// A runtime env's text read as PyYAML's safe loader reads it, written for
/// [`RuntimeEnvReader`]: the answer of the validator package's YAML module.
#[cfg(feature = "yaml")]
pub fn read_runtime_env(text: &str) -> String {
    to_wire(&super::pyyaml::load(text))
}

// The answer is one flat JSON list, so no nesting of the YAML meets serde_json's depth
// limit: its kind, then for `docs` every document's values in prefix order. A string is a
// YAML string; anything else is a number saying what comes: the markers below.
const NULL: u64 = 0;
const FALSE: u64 = 1;
const TRUE: u64 = 2;
const OTHER: u64 = 3;
/// Followed by the number as written.
const NUMBER: u64 = 4;
/// Followed by the count of items, then the items.
const SEQ: u64 = 5;
/// Followed by the count of entries, then each key and value.
const MAP: u64 = 6;

#[cfg(any(test, feature = "yaml"))]
fn to_wire(loaded: &Result<Vec<Value>, Refusal>) -> String {
    let mut wire = Writer::new();
    match loaded {
        Ok(docs) => {
            wire.text("docs");
            docs.iter().for_each(|doc| write(&mut wire, doc));
        }
        Err(Refusal::Syntax(syntax)) => {
            wire.text("syntax");
            wire.text(&syntax.detail);
            wire.mark(syntax.fault as u64);
            wire.mark(syntax.line as u64);
            wire.mark(syntax.column as u64);
            // 0 for none: lines count from 1.
            wire.mark(syntax.open_line.unwrap_or(0) as u64);
        }
        Err(Refusal::Alias) => wire.text("alias"),
        Err(Refusal::Tag(tag)) => {
            wire.text("tag");
            wire.text(tag);
        }
        Err(Refusal::UnhashableKey) => wire.text("unhashable"),
        Err(Refusal::Unread) => wire.text("unread"),
    }
    wire.finish()
}

#[cfg(any(test, feature = "yaml"))]
fn write(wire: &mut Writer, value: &Value) {
    match value {
        Value::Null => wire.mark(NULL),
        Value::Bool(false) => wire.mark(FALSE),
        Value::Bool(true) => wire.mark(TRUE),
        Value::Other => wire.mark(OTHER),
        Value::Str(s) => wire.text(s),
        Value::Number(n) => {
            wire.mark(NUMBER);
            wire.text(n);
        }
        Value::Seq(items) => {
            wire.mark(SEQ);
            wire.mark(items.len() as u64);
            items.iter().for_each(|v| write(wire, v));
        }
        Value::Map(entries) => {
            wire.mark(MAP);
            wire.mark(entries.len() as u64);
            for (k, v) in entries {
                write(wire, k);
                write(wire, v);
            }
        }
    }
}

/// What `to_wire` wrote, read back; an answer that is not one is [`Refusal::Unread`].
fn from_wire(answer: &str) -> Result<Vec<Value>, Refusal> {
    fn value(items: &mut impl Iterator<Item = Item>) -> Option<Value> {
        Some(match items.next()? {
            Item::Text(s) => Value::Str(s),
            Item::Mark(NULL) => Value::Null,
            Item::Mark(FALSE) => Value::Bool(false),
            Item::Mark(TRUE) => Value::Bool(true),
            Item::Mark(OTHER) => Value::Other,
            Item::Mark(NUMBER) => match items.next()? {
                Item::Text(n) => Value::Number(n),
                Item::Mark(_) => return None,
            },
            Item::Mark(SEQ) => {
                let n = flat::count(items)?;
                Value::Seq((0..n).map(|_| value(items)).collect::<Option<_>>()?)
            }
            Item::Mark(MAP) => {
                let n = flat::count(items)?;
                let mut entries = Vec::new();
                for _ in 0..n {
                    entries.push((value(items)?, value(items)?));
                }
                Value::Map(entries)
            }
            Item::Mark(_) => return None,
        })
    }

    let mut items = flat::items(answer)
        .ok_or(Refusal::Unread)?
        .into_iter()
        .peekable();
    let Some(Item::Text(kind)) = items.next() else {
        return Err(Refusal::Unread);
    };
    let mut text = || match items.next() {
        Some(Item::Text(s)) => Ok(s),
        _ => Err(Refusal::Unread),
    };
    match kind.as_str() {
        "syntax" => {
            let detail = text()?;
            let mut number = || match items.next() {
                Some(Item::Mark(n)) => usize::try_from(n).map_err(|_| Refusal::Unread),
                _ => Err(Refusal::Unread),
            };
            let fault = *YamlFault::ALL.get(number()?).ok_or(Refusal::Unread)?;
            let (line, column, open_line) = (number()?, number()?, number()?);
            Err(Refusal::Syntax(Syntax {
                line,
                column,
                fault,
                open_line: (open_line > 0).then_some(open_line),
                detail,
            }))
        }
        "tag" => Err(Refusal::Tag(text()?)),
        "alias" => Err(Refusal::Alias),
        "unhashable" => Err(Refusal::UnhashableKey),
        "docs" => {
            let mut docs = Vec::new();
            while items.peek().is_some() {
                docs.push(value(&mut items).ok_or(Refusal::Unread)?);
            }
            Ok(docs)
        }
        _ => Err(Refusal::Unread),
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[cfg(feature = "yaml")]
    #[test]
    fn the_answer_reads_back_as_pyyaml_read_the_text() {
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        let texts = [
            "",
            "# only a comment",
            "working_dir: .\npip: [torch==2.4, 'numpy<2']\nenv_vars:\n  A: x\n  B: yes\n  C: '8'\n",
            "---\na: 1\n---\nb: [1, 2.5, ~, 2024-01-01, 1e3, 0x1F, .inf]\n",
            "\"q\\\"uote\": \"tab\\t nul\\0 bell\\x07 back\\\\slash\"\n华东: 上海\n",
            "a: {b: {c: {d: [[[[]]]]}}}\n? [a]\n: x",
            "<<: {a: 1}\nb: 2\nb: 3\n",
            "? !!null ''\n: x\n1: one\ntrue: t\n",
            "a: &x 1\nb: *x",
            "a: !foo x",
            "a: !!python/object:os.system x",
            "a: [",
            "a: <<",
            "- a\n- b: c\n",
            &deep,
        ];
        for text in texts {
            let read = super::super::pyyaml::load(text);
            assert_eq!(from_wire(&read_runtime_env(text)), read, "{text}");
        }
    }

    fn value() -> impl Strategy<Value = Value> {
        let text = "[a-z0-9\"\\\\/ 华\u{0}\u{1f}\t-]{0,6}";
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            text.prop_map(Value::Number),
            text.prop_map(Value::Str),
            Just(Value::Other),
        ];
        leaf.prop_recursive(6, 48, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Seq),
                prop::collection::vec((inner.clone(), inner), 0..5).prop_map(Value::Map),
            ]
        })
    }

    fn refusal() -> impl Strategy<Value = Refusal> {
        prop_oneof![
            (
                ".{0,12}",
                prop::sample::select(YamlFault::ALL.to_vec()),
                1..9usize,
                1..9usize,
                prop::option::of(1..9usize),
            )
                .prop_map(|(detail, fault, line, column, open_line)| {
                    Refusal::Syntax(Syntax {
                        line,
                        column,
                        fault,
                        open_line,
                        detail,
                    })
                }),
            ".{0,12}".prop_map(Refusal::Tag),
            Just(Refusal::Alias),
            Just(Refusal::UnhashableKey),
        ]
    }

    proptest! {
        #[test]
        fn every_answer_reads_back_as_it_was_written(
            read in prop_oneof![
                prop::collection::vec(value(), 0..4).prop_map(Ok),
                refusal().prop_map(Err),
            ]
        ) {
            let wire = to_wire(&read);
            // Flat: one list, however deep the YAML.
            let items: Vec<serde_json::Value> = serde_json::from_str(&wire).unwrap();
            prop_assert!(items.iter().all(|i| i.is_string() || i.is_u64()), "{}", wire);
            prop_assert_eq!(from_wire(&wire), read);
        }
    }

    #[cfg(feature = "yaml")]
    #[test]
    fn the_other_keys_are_every_top_level_key_but_env_vars() {
        assert_eq!(
            runtime_env_other_keys("working_dir: .\nenv_vars: {A: x}\npip: [torch]\n"),
            ["working_dir", "pip"]
        );
        assert!(runtime_env_other_keys("env_vars: {A: x}\n").is_empty());
        assert!(runtime_env_other_keys("").is_empty());
        assert!(runtime_env_other_keys("[a").is_empty());
    }

    #[test]
    fn the_env_vars_are_what_ray_gives_the_entrypoint() {
        let pairs = |text| runtime_env_vars(text);
        let owned = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect()
        };
        assert_eq!(
            pairs("pip: [a]\nenv_vars:\n  A: x\n  B: '8'\n  A: y\n"),
            owned(&[("A", "y"), ("B", "8")])
        );
        // What Ray would refuse gives nothing (the validator says why).
        assert_eq!(pairs("env_vars: {A: 8}"), owned(&[]));
        assert_eq!(pairs("env_vars: [a"), owned(&[]));
        assert_eq!(pairs(""), owned(&[]));
    }

    #[test]
    fn a_fault_crosses_as_its_place_in_the_list_of_all() {
        for (i, fault) in YamlFault::ALL.into_iter().enumerate() {
            assert_eq!(fault as usize, i, "{fault:?}");
        }
    }

    #[test]
    fn an_answer_that_is_not_one_leaves_the_runtime_env_unread() {
        for answer in [
            "",
            "{}",
            "[]",
            "[\"docs\", 5]",
            "[\"docs\", 5, 2, 0]",
            "[\"docs\", 4, 1]",
            "[\"docs\", 9]",
            "[\"docs\", -1]",
            "[\"docs\", [0]]",
            "[\"syntax\"]",
            "[\"syntax\", \"d\", 2, 1, 1]",
            "[\"syntax\", \"d\", 10, 1, 1, 0]",
            "[\"what\"]",
        ] {
            assert_eq!(from_wire(answer), Err(Refusal::Unread), "{answer}");
        }
        assert_eq!(from_wire("[\"docs\"]"), Ok(vec![]));
        assert_eq!(from_wire("[\"docs\", 5, 0]"), Ok(vec![Value::Seq(vec![])]));
    }
}
