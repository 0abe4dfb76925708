//! A spec written as YAML, read into the JSON value the spec's reader takes: the form's
//! import. yaml-rust2 reads it (`yaml` feature); the console leaves that feature out and
//! has it read by the YAML module it fetches when it needs one
//! ([`set_yaml_spec_reader`]), as the validator package reads runtime envs.

#[cfg(feature = "yaml")]
use crate::flat::Writer;
use crate::flat::{self, Item};
use serde_json::Value;

/// Why YAML text is not one spec document.
#[derive(Clone, Debug, PartialEq)]
pub enum YamlSpecError {
    /// Not YAML; the parser's message.
    Syntax(String),
    /// Not exactly one document.
    Documents(usize),
    /// A key given twice in one mapping: the finding at its path, as JSON text's is.
    Duplicate(crate::Report),
    /// A key that is not text, or an alias.
    NotPlain,
    /// Nothing here reads YAML: a build without the `yaml` feature whose reader is not
    /// set, or gave no answer.
    Unread,
}

/// The one document of `text` as a JSON value: read by the reader set, if any, else here
/// with the `yaml` feature.
///
/// # Errors
///
/// [`YamlSpecError`] when the text is not one plain YAML document.
pub fn yaml_spec_value(text: &str) -> Result<Value, YamlSpecError> {
    let answer = match READER.get() {
        Some(read) => read(text),
        #[cfg(feature = "yaml")]
        None => Some(read_yaml_spec(text)),
        #[cfg(not(feature = "yaml"))]
        None => None,
    };
    answer.map_or(Err(YamlSpecError::Unread), |answer| from_wire(&answer))
}

/// Whether YAML specs can be read now: here, or by a reader set.
#[must_use]
pub fn can_read() -> bool {
    cfg!(feature = "yaml") || READER.get().is_some()
}

/// Reads a spec's YAML text elsewhere (another wasm module) and answers with what
/// [`read_yaml_spec`] gives for it, or `None` when it cannot.
pub type YamlSpecReader = fn(&str) -> Option<String>;

static READER: std::sync::OnceLock<YamlSpecReader> = std::sync::OnceLock::new();

/// Has YAML specs read by `read` from now on, instead of here. The first reader set stays.
pub fn set_yaml_spec_reader(read: YamlSpecReader) {
    let _ = READER.set(read);
}

// The answer (`crate::flat`): `["doc", value...]` with the document's nodes in prefix
// order (a string is a YAML string; a marker below says what else comes),
// `["syntax", detail]`, `["documents", count]`, `["duplicate", path]`.
const NULL: u64 = 0;
const FALSE: u64 = 1;
const TRUE: u64 = 2;
/// Followed by the integer as written in decimal.
const INTEGER: u64 = 3;
/// Followed by the number's bits (`f64::to_bits`): a finite real, read here by the YAML
/// module, so the console runs no float parser of core's (15 KB raw of its wasm with
/// its tables; serde_json's own still reads JSON's floats).
/// A real that is not finite (`.inf`) comes as its text.
const REAL: u64 = 4;
/// Followed by the count of items, then the items.
const ARRAY: u64 = 5;
/// Followed by the count of entries, then each key and value.
const HASH: u64 = 6;
/// An alias, or a value yaml-rust2 could not read.
const NOT_PLAIN: u64 = 7;

/// A spec's YAML text read here (yaml-rust2's loader, YAML 1.2's core schema), written
/// for [`YamlSpecReader`]: the answer of the YAML module's `readYamlSpec`.
#[cfg(feature = "yaml")]
#[must_use]
pub fn read_yaml_spec(text: &str) -> String {
    use yaml_rust2::{Yaml, YamlLoader};
    fn write(wire: &mut Writer, yaml: &Yaml) {
        match yaml {
            Yaml::Null => wire.mark(NULL),
            Yaml::Boolean(false) => wire.mark(FALSE),
            Yaml::Boolean(true) => wire.mark(TRUE),
            Yaml::Integer(n) => {
                wire.mark(INTEGER);
                wire.text(&n.to_string());
            }
            Yaml::Real(text) => match text.parse::<f64>().ok().filter(|r| r.is_finite()) {
                Some(real) => {
                    wire.mark(REAL);
                    wire.mark(real.to_bits());
                }
                None => wire.text(text),
            },
            Yaml::String(s) => wire.text(s),
            Yaml::Array(items) => {
                wire.mark(ARRAY);
                wire.mark(items.len() as u64);
                items.iter().for_each(|item| write(wire, item));
            }
            Yaml::Hash(map) => {
                wire.mark(HASH);
                wire.mark(map.len() as u64);
                for (key, value) in map {
                    write(wire, key);
                    write(wire, value);
                }
            }
            Yaml::Alias(_) | Yaml::BadValue => wire.mark(NOT_PLAIN),
        }
    }
    let mut wire = Writer::new();
    // The loader copies an alias's node at each use, so a few hundred bytes of aliases
    // of aliases grew into billions of nodes and hung the page: an alias is refused as
    // the import says, before anything is built.
    if has_alias(text) {
        wire.text("doc");
        wire.mark(NOT_PLAIN);
        return wire.finish();
    }
    match YamlLoader::load_from_str(text) {
        Err(e) => match e
            .info()
            .ends_with(": duplicated key in mapping")
            .then(|| duplicated_path(text))
            .flatten()
        {
            Some(path) => {
                wire.text("duplicate");
                wire.text(&path.to_string());
            }
            None => {
                wire.text("syntax");
                // A tab: where the tab is, as PyYAML and `berth validate` say it, not
                // where the value it broke began.
                let tab = e
                    .info()
                    .contains("tab")
                    .then(|| crate::validate::tab_place(text, &e))
                    .flatten();
                match tab {
                    Some((line, column)) => {
                        wire.text(&format!("{} at line {line} column {column}", e.info()))
                    }
                    None => wire.text(&e.to_string()),
                }
            }
        },
        Ok(docs) => match docs.as_slice() {
            [doc] => {
                wire.text("doc");
                write(&mut wire, doc);
            }
            _ => {
                wire.text("documents");
                wire.mark(docs.len() as u64);
            }
        },
    }
    wire.finish()
}

/// Whether the parser meets an alias (`*name`) in `text`, up to its first syntax error.
#[cfg(feature = "yaml")]
fn has_alias(text: &str) -> bool {
    use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
    use yaml_rust2::scanner::Marker;
    struct Seen(bool);
    impl MarkedEventReceiver for Seen {
        fn on_event(&mut self, ev: Event, _: Marker) {
            self.0 |= matches!(ev, Event::Alias(..));
        }
    }
    let mut seen = Seen(false);
    let _ = Parser::new_from_str(text).load(&mut seen, true);
    seen.0
}

/// Where the first key given twice in a mapping is: yaml-rust2's loader says which key
/// but not where (its position is the end of the mapping's value), and in a list of env
/// vars or mounts a key's name alone does not say which row. Found by a second read, of
/// the parser's events, only once the loader has refused the text.
#[cfg(feature = "yaml")]
fn duplicated_path(text: &str) -> Option<crate::FieldPath> {
    use crate::FieldPath;
    use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
    use yaml_rust2::scanner::Marker;

    enum Frame {
        /// The keys so far; the last key read, until its value starts; whether the next
        /// node is a key.
        Map {
            keys: Vec<String>,
            key: Option<String>,
            at_key: bool,
        },
        Seq {
            next: usize,
        },
    }
    #[derive(Default)]
    struct Finder {
        frames: Vec<(Frame, FieldPath)>,
        found: Option<FieldPath>,
    }
    impl MarkedEventReceiver for Finder {
        fn on_event(&mut self, ev: Event, _: Marker) {
            if self.found.is_some() {
                return;
            }
            let container = matches!(ev, Event::MappingStart(..) | Event::SequenceStart(..));
            if matches!(ev, Event::MappingEnd | Event::SequenceEnd) {
                self.frames.pop();
                return;
            }
            if !container && !matches!(ev, Event::Scalar(..) | Event::Alias(..)) {
                return;
            }
            // Where the node starting now sits. A key that is not text (which the spec
            // never has) places what is inside it at its mapping.
            let at = match self.frames.last_mut() {
                None => FieldPath::root(),
                Some((Frame::Map { keys, key, at_key }, path)) if *at_key => {
                    *at_key = false;
                    *key = None;
                    if let Event::Scalar(name, ..) = &ev {
                        if keys.contains(name) {
                            self.found = Some(path.name(name));
                            return;
                        }
                        keys.push(name.clone());
                        *key = Some(name.clone());
                    }
                    path.clone()
                }
                Some((Frame::Map { key, at_key, .. }, path)) => {
                    *at_key = true;
                    key.take().map_or_else(|| path.clone(), |k| path.name(&k))
                }
                Some((Frame::Seq { next }, path)) => {
                    *next += 1;
                    path.index(*next - 1)
                }
            };
            if container {
                let frame = if matches!(ev, Event::MappingStart(..)) {
                    Frame::Map {
                        keys: Vec::new(),
                        key: None,
                        at_key: true,
                    }
                } else {
                    Frame::Seq { next: 0 }
                };
                self.frames.push((frame, at));
            }
        }
    }
    let mut finder = Finder::default();
    // The text loaded up to the key twice: a later syntax error cannot hide it.
    let _ = Parser::new_from_str(text).load(&mut finder, true);
    finder.found
}

/// What `read_yaml_spec` wrote, read back into JSON: integers as numbers, reals as
/// numbers when they are finite `f64`s (else as their text), mappings with text keys.
fn from_wire(answer: &str) -> Result<Value, YamlSpecError> {
    fn value(items: &mut impl Iterator<Item = Item>) -> Result<Value, YamlSpecError> {
        let garbled = YamlSpecError::Unread;
        let text = |items: &mut dyn Iterator<Item = Item>| match items.next() {
            Some(Item::Text(s)) => Ok(s),
            _ => Err(YamlSpecError::Unread),
        };
        Ok(match items.next().ok_or(garbled.clone())? {
            Item::Text(s) => Value::String(s),
            Item::Mark(NULL) => Value::Null,
            Item::Mark(FALSE) => Value::Bool(false),
            Item::Mark(TRUE) => Value::Bool(true),
            Item::Mark(INTEGER) => Value::from(text(items)?.parse::<i64>().map_err(|_| garbled)?),
            Item::Mark(REAL) => match items.next() {
                Some(Item::Mark(bits)) => serde_json::Number::from_f64(f64::from_bits(bits))
                    .map(Value::Number)
                    .ok_or(garbled)?,
                _ => return Err(garbled),
            },
            Item::Mark(ARRAY) => {
                let n = flat::count(items).ok_or(garbled)?;
                Value::Array((0..n).map(|_| value(items)).collect::<Result<_, _>>()?)
            }
            Item::Mark(HASH) => {
                let n = flat::count(items).ok_or(garbled)?;
                let mut object = serde_json::Map::new();
                for _ in 0..n {
                    let Value::String(key) = value(items)? else {
                        return Err(YamlSpecError::NotPlain);
                    };
                    object.insert(key, value(items)?);
                }
                Value::Object(object)
            }
            Item::Mark(NOT_PLAIN) => return Err(YamlSpecError::NotPlain),
            Item::Mark(_) => return Err(garbled),
        })
    }

    let mut items = flat::items(answer)
        .ok_or(YamlSpecError::Unread)?
        .into_iter();
    let Some(Item::Text(kind)) = items.next() else {
        return Err(YamlSpecError::Unread);
    };
    match (kind.as_str(), items.next()) {
        ("syntax", Some(Item::Text(detail))) => Err(YamlSpecError::Syntax(detail)),
        ("duplicate", Some(Item::Text(path))) => {
            let mut report = crate::Report::new();
            report.push(
                crate::FieldPath::parse(&path),
                crate::IssueCode::ValueInvalid {
                    expected: crate::validate::Expected::Once,
                    found: None,
                },
            );
            Err(YamlSpecError::Duplicate(report))
        }
        ("documents", Some(Item::Mark(n))) => {
            Err(usize::try_from(n).map_or(YamlSpecError::Unread, YamlSpecError::Documents))
        }
        ("doc", Some(first)) => {
            let mut items = std::iter::once(first).chain(items);
            let doc = value(&mut items)?;
            match items.next() {
                None => Ok(doc),
                Some(_) => Err(YamlSpecError::Unread),
            }
        }
        _ => Err(YamlSpecError::Unread),
    }
}

#[cfg(all(test, feature = "yaml"))]
mod tests {
    use super::*;

    /// A stray tab is placed where it is, as PyYAML (and `berth validate`) place it:
    /// exploratory test, an export with a tab before `workers` was said to fail at the
    /// line above, where the value the tab broke began.
    #[test]
    fn a_stray_tab_is_placed_at_the_tab() {
        let text = "compute:\n  guarantee: null\n\tworkers: 2\n";
        match from_wire(&read_yaml_spec(text)) {
            Err(YamlSpecError::Syntax(detail)) => {
                assert!(detail.contains("tab"), "{detail}");
                assert!(detail.ends_with("at line 3 column 1"), "{detail}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn yaml_reads_as_the_loader_reads_it() {
        let read = |text: &str| from_wire(&read_yaml_spec(text));
        assert_eq!(
            read("version: 1\nbasic:\n  name_prefix: a\n  tags: [{key: k, value: '1'}]\n"),
            Ok(serde_json::json!({
                "version": 1,
                "basic": { "name_prefix": "a", "tags": [{ "key": "k", "value": "1" }] }
            }))
        );
        assert_eq!(
            read(
                "a: 1.5\nb: .inf\nc: ~\nd: yes\ne: \"q\\\"\\t\\u0001\"\nf: -7\n\
                 g: 0.30000000000000004\nh: -1.0e-300\ni: -.nan\n"
            ),
            Ok(serde_json::json!({
                "a": 1.5, "b": ".inf", "c": null, "d": "yes", "e": "q\"\t\u{1}", "f": -7,
                "g": 0.300_000_000_000_000_04, "h": -1.0e-300, "i": "-.nan"
            }))
        );
        assert!(matches!(read("a: ["), Err(YamlSpecError::Syntax(_))));
        assert_eq!(read("--- a\n--- b\n"), Err(YamlSpecError::Documents(2)));
        assert_eq!(read(""), Err(YamlSpecError::Documents(0)));
        assert_eq!(read("? [a]\n: b\n"), Err(YamlSpecError::NotPlain));
        assert_eq!(read("1: b\n"), Err(YamlSpecError::NotPlain));
        // An alias, in a field or as a bomb of aliases of aliases (9^6 nodes once
        // expanded), is refused before it is expanded; an anchor alone is plain.
        assert_eq!(
            read("basic: {name_prefix: &n a}\nenvironment: {command: *n}\n"),
            Err(YamlSpecError::NotPlain)
        );
        let mut bomb = String::from("l0: &l0 [x, x, x, x, x, x, x, x, x]\n");
        for level in 1..=6 {
            let below = level - 1;
            bomb += &format!(
                "l{level}: &l{level} [{}]\n",
                vec![format!("*l{below}"); 9].join(", ")
            );
        }
        assert_eq!(read(&bomb), Err(YamlSpecError::NotPlain));
        assert!(read("basic: {name_prefix: &n a}\n").is_ok());
        // A key twice is named by its path, as in JSON, not by the loader's words.
        let twice = |text: &str| match read(text) {
            Err(YamlSpecError::Duplicate(report)) => {
                let issue = &report.issues()[0];
                assert_eq!(
                    issue.message(crate::Lang::En),
                    "appears more than once; keep one"
                );
                issue.path.to_string()
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(twice("basic:\n  name_prefix: a\nbasic: {}\n"), "basic");
        assert_eq!(
            twice(
                "environment:\n  env:\n    - {name: A, value: '1'}\n    - name: B\n      \
                 value: '2'\n      name: C\n"
            ),
            "environment.env[1].name"
        );
        // Nested lists and mappings, a key written as a quoted string, and the same key
        // in sibling mappings, which is no repeat.
        assert_eq!(
            twice("a:\n  - [x, {k: 1}]\n  - {k: 1, \"k\": 2}\n"),
            "a[1].k"
        );
        assert!(read("a:\n  - {k: 1}\n  - {k: 2}\n").is_ok());
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        assert!(read(&deep).is_ok());
    }

    /// A real written as Rust writes it, read back through the wire.
    fn cross(real: f64) -> Option<f64> {
        match from_wire(&read_yaml_spec(&format!("a: {real:?}\n"))) {
            Ok(Value::Object(doc)) => doc["a"].as_f64(),
            other => panic!("{real:?}: {other:?}"),
        }
    }

    /// A finite real crosses as its bits: the value read is the one written, whatever
    /// its sign, size or subnormality, as the loader's own float reads it.
    #[test]
    fn a_real_crosses_the_wire_exactly() {
        for real in [
            -0.0,
            f64::MIN,
            f64::MAX,
            f64::MIN_POSITIVE / 2.0,
            5e-324,
            0.1,
        ] {
            assert_eq!(
                cross(real).map(f64::to_bits),
                Some(real.to_bits()),
                "{real:?}"
            );
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn any_finite_real_crosses_the_wire_exactly(bits in proptest::prelude::any::<u64>()) {
            let real = f64::from_bits(bits);
            if real.is_finite() {
                proptest::prop_assert_eq!(cross(real).map(f64::to_bits), Some(bits));
            }
        }
    }

    #[test]
    fn an_answer_that_is_not_one_is_unread() {
        for answer in [
            "",
            "{}",
            "[]",
            "[\"doc\"]",
            "[\"doc\", 5, 2, 0]",
            "[\"doc\", 0, 0]",
            "[\"doc\", 9]",
            // A real's bits that are no finite number (infinity), or its text.
            "[\"doc\", 4, 9218868437227405312]",
            "[\"doc\", 4, \"1.5\"]",
            "[\"what\"]",
        ] {
            assert_eq!(from_wire(answer), Err(YamlSpecError::Unread), "{answer}");
        }
    }
}
