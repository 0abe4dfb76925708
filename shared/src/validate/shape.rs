//! Findings for JSON of the wrong shape, in plain words in both languages.
//!
//! serde's errors read "invalid type: string \"two\", expected u32"; users should read
//! "expected a whole number, found the text \"two\"" under the field it is about.

use super::{FieldPath, IssueCode, Lang, Report};
use crate::wire;
use serde::de;
use serde::{Deserialize, Deserializer, Serialize};

/// What a field of the wrong shape should hold.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
// Read by hand (`crate::wire`): same JSON, a fraction of the derive's code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Expected {
    /// A whole number, 0 or more.
    WholeNumber,
    /// A whole number that may be negative.
    Integer,
    /// Any number.
    Number,
    /// A string.
    Text,
    /// `true` or `false`.
    Boolean,
    /// A JSON array.
    List,
    /// A JSON object.
    Object,
    /// One of a fixed set of strings.
    OneOf {
        /// The allowed values.
        options: Vec<String>,
    },
    /// The key is not a field here.
    KnownField {
        /// The fields that exist here.
        options: Vec<String>,
    },
    /// The key once: it is given twice in one object.
    Once,
    /// The text is not JSON at all.
    Json {
        /// The parser's words.
        detail: String,
    },
    /// Anything else serde can expect, in its own words.
    Other {
        /// serde's description.
        detail: String,
    },
}

impl<'de> Deserialize<'de> for Expected {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (kind, mut f) = wire::tagged(deserializer, "kind")?;
        let mut read = || -> Result<Self, serde_json::Error> {
            Ok(match kind.as_str() {
                "whole_number" => Expected::WholeNumber,
                "integer" => Expected::Integer,
                "number" => Expected::Number,
                "text" => Expected::Text,
                "boolean" => Expected::Boolean,
                "list" => Expected::List,
                "object" => Expected::Object,
                "one_of" => Expected::OneOf {
                    options: f.take("options")?,
                },
                "known_field" => Expected::KnownField {
                    options: f.take("options")?,
                },
                "once" => Expected::Once,
                "json" => Expected::Json {
                    detail: f.take("detail")?,
                },
                "other" => Expected::Other {
                    detail: f.take("detail")?,
                },
                other => return Err(de::Error::unknown_variant(other, EXPECTED_KINDS)),
            })
        };
        read().map_err(de::Error::custom)
    }
}

pub(crate) const EXPECTED_KINDS: &[&str] = &[
    "whole_number",
    "integer",
    "number",
    "text",
    "boolean",
    "list",
    "object",
    "one_of",
    "known_field",
    "once",
    "json",
    "other",
];

/// What the field held instead.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Found {
    /// A string.
    Text(String),
    /// A number.
    Number(String),
    /// A boolean.
    Boolean(String),
    /// An array.
    List,
    /// An object.
    Object,
    /// `null`.
    Null,
}

impl Found {
    /// A text quoted to its first 64 bytes (less, to end a character), then "…": a 900 KB value came back
    /// twice in its answer, and a portal put 5 MB of it in its page (portal explorer).
    pub(crate) fn shortened(self) -> Found {
        match self {
            Found::Text(mut text) if text.len() > 64 => {
                text.truncate(text.floor_char_boundary(64));
                text.push('…');
                Found::Text(text)
            }
            found => found,
        }
    }
}

/// A report for a spec whose JSON has the wrong shape at `path`.
pub(super) fn shape_report(path: FieldPath, err: &serde_json::Error) -> Report {
    let (expected, found) = describe(err);
    // serde refuses a key twice at its struct; the key is the place, as `crate::read`
    // says it.
    if let Expected::Other { detail } = &expected
        && let Some(key) = detail
            .strip_prefix("duplicate field `")
            .and_then(|k| k.strip_suffix('`'))
    {
        return finding_report(path.name(key), Expected::Once, None);
    }
    finding_report(path, expected, found)
}

/// A report of the one shape finding at `path`.
pub(super) fn finding_report(path: FieldPath, expected: Expected, found: Option<Found>) -> Report {
    let mut report = Report::new();
    report.push(path, IssueCode::ValueInvalid { expected, found });
    report
}

fn describe(err: &serde_json::Error) -> (Expected, Option<Found>) {
    describe_text(&err.to_string(), err.is_syntax() || err.is_eof())
}

/// The finding's words for a serde error's text (`syntax` when the text was not JSON).
/// The spec's reader builds its findings itself; it comes here only for what a user's
/// text would have changed in serde's (`crate::read`'s spec module says when).
pub(crate) fn describe_text(text: &str, syntax: bool) -> (Expected, Option<Found>) {
    // Text that is not JSON has no field to name: where it breaks is the place.
    if syntax {
        return (
            Expected::Json {
                detail: text.to_owned(),
            },
            None,
        );
    }
    // Of a value of the wrong shape the path names the field.
    let text = text.split(" at line ").next().unwrap_or(text).to_owned();
    if let Some(rest) = text.strip_prefix("unknown field ") {
        return (
            Expected::KnownField {
                options: backticked(after_expected(rest)),
            },
            None,
        );
    }
    if let Some(rest) = text.strip_prefix("unknown variant ") {
        let value = backticked(rest).into_iter().next().unwrap_or_default();
        return (
            Expected::OneOf {
                options: backticked(after_expected(rest)),
            },
            Some(Found::Text(value)),
        );
    }
    let rest = text
        .strip_prefix("invalid type: ")
        .or_else(|| text.strip_prefix("invalid value: "));
    let Some((unexpected, expected)) = rest.and_then(|r| r.split_once(", expected ")) else {
        return (Expected::Other { detail: text }, None);
    };
    let found = found(unexpected);
    let expected = match expected {
        "u8" | "u16" | "u32" | "u64" | "usize" => Expected::WholeNumber,
        "i8" | "i16" | "i32" | "i64" | "isize" => Expected::Integer,
        "f32" | "f64" => Expected::Number,
        "a string" => Expected::Text,
        "a boolean" => Expected::Boolean,
        "a sequence" => Expected::List,
        e if e.starts_with("struct ") || e == "a map" => Expected::Object,
        e if e.starts_with("one of ") => Expected::OneOf {
            options: backticked(e),
        },
        e => Expected::Other {
            detail: e.to_owned(),
        },
    };
    (expected, found)
}

fn after_expected(text: &str) -> &str {
    text.split_once("expected ").map_or("", |(_, r)| r)
}

fn backticked(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

fn found(unexpected: &str) -> Option<Found> {
    let quoted = |s: &str| s.trim_matches(|c| c == '`' || c == '"').to_owned();
    if let Some(s) = unexpected.strip_prefix("string ") {
        Some(Found::Text(quoted(s)))
    } else if let Some(s) = unexpected
        .strip_prefix("integer ")
        .or_else(|| unexpected.strip_prefix("floating point "))
    {
        Some(Found::Number(quoted(s)))
    } else if let Some(s) = unexpected.strip_prefix("boolean ") {
        Some(Found::Boolean(quoted(s)))
    } else {
        match unexpected {
            "sequence" => Some(Found::List),
            "map" => Some(Found::Object),
            "null" | "unit value" => Some(Found::Null),
            _ => None,
        }
    }
}

/// The message key and its arguments for a shape finding, in `lang`.
pub(super) fn key_and_args(
    expected: &Expected,
    found: &Option<Found>,
    lang: Lang,
) -> (&'static str, Vec<(&'static str, String)>) {
    let word = |key: &str| crate::messages::text(lang, key, &[]);
    let list = |o: &[String]| o.join(", ");
    // A whole number where one is expected is refused only for being out of the
    // field's range (a `u32` past 4294967295): "expected a whole number, found the
    // number 5000000000" would not say what is wrong with it. Past 2^64 the number is
    // read as a float, written with an exponent (`1e+29`): whole, and as large.
    if let (Expected::WholeNumber | Expected::Integer, Some(Found::Number(n))) = (expected, found)
        && !n.is_empty()
        && (n.bytes().all(|b| b.is_ascii_digit())
            || (n.bytes().any(|b| b == b'e') && !n.bytes().any(|b| b == b'-')))
    {
        return ("value.invalid#too_large", vec![("found", n.clone())]);
    }
    let expected = match expected {
        Expected::KnownField { options } => {
            return (
                "value.invalid#known_field",
                vec![("options", list(options))],
            );
        }
        Expected::Json { detail } => {
            return ("value.invalid#json", vec![("detail", detail.clone())]);
        }
        Expected::Once => return ("value.invalid#once", Vec::new()),
        Expected::WholeNumber => word("shape.expected.whole_number"),
        Expected::Integer => word("shape.expected.integer"),
        Expected::Number => word("shape.expected.number"),
        Expected::Text => word("shape.expected.text"),
        Expected::Boolean => word("shape.expected.boolean"),
        Expected::List => word("shape.expected.list"),
        Expected::Object => word("shape.expected.object"),
        Expected::OneOf { options } => {
            crate::messages::text(lang, "shape.expected.one_of", &[("options", list(options))])
        }
        // serde's own words, for shapes we have no name for.
        Expected::Other { detail } => detail.clone(),
    };
    let found = found.as_ref().map(|f| match f {
        Found::Text(v) => crate::messages::text(lang, "shape.found.text", &[("value", v.clone())]),
        Found::Number(v) => {
            crate::messages::text(lang, "shape.found.number", &[("value", v.clone())])
        }
        Found::Boolean(v) => v.clone(),
        Found::List => word("shape.found.list"),
        Found::Object => word("shape.found.object"),
        Found::Null => "null".to_owned(),
    });
    match found {
        Some(found) => (
            "value.invalid#found",
            vec![("expected", expected), ("found", found)],
        ),
        None => ("value.invalid", vec![("expected", expected)]),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn every_expectation_reads_back_from_its_wire_json() {
        use super::Expected;
        let options = vec!["a".to_owned(), "b".to_owned()];
        let all = [
            (Expected::WholeNumber, r#"{"kind":"whole_number"}"#),
            (Expected::Integer, r#"{"kind":"integer"}"#),
            (Expected::Number, r#"{"kind":"number"}"#),
            (Expected::Text, r#"{"kind":"text"}"#),
            (Expected::Boolean, r#"{"kind":"boolean"}"#),
            (Expected::List, r#"{"kind":"list"}"#),
            (Expected::Object, r#"{"kind":"object"}"#),
            (
                Expected::OneOf {
                    options: options.clone(),
                },
                r#"{"kind":"one_of","options":["a","b"]}"#,
            ),
            (
                Expected::KnownField { options },
                r#"{"kind":"known_field","options":["a","b"]}"#,
            ),
            (Expected::Once, r#"{"kind":"once"}"#),
            (
                Expected::Json {
                    detail: "EOF".to_owned(),
                },
                r#"{"kind":"json","detail":"EOF"}"#,
            ),
            (
                Expected::Other {
                    detail: "x".to_owned(),
                },
                r#"{"kind":"other","detail":"x"}"#,
            ),
        ];
        for (expected, json) in all {
            assert_eq!(serde_json::to_string(&expected).unwrap(), json);
            assert_eq!(serde_json::from_str::<Expected>(json).unwrap(), expected);
        }
        let err = serde_json::from_str::<Expected>(r#"{"kind":"one_of"}"#).unwrap_err();
        assert!(err.to_string().contains("missing field `options`"), "{err}");
    }

    fn first(json: &str) -> crate::Issue {
        crate::parse_spec(json).unwrap_err().issues()[0].clone()
    }

    #[test]
    fn wrong_types_read_plainly_in_both_languages() {
        let issue = first(r#"{"compute": {"workers": "two"}}"#);
        assert_eq!(issue.path.to_string(), "compute.workers");
        assert_eq!(
            issue.message(crate::Lang::En),
            "is not valid: expected a whole number, 0 or more, found the text \"two\""
        );
        assert_eq!(
            issue.message(crate::Lang::Zh),
            "格式不正确：应为非负整数，实际为文本 \"two\""
        );
    }

    /// A whole number past what the field holds is refused for its size, not as if it
    /// were no whole number (an alert threshold has no rule of its own above).
    #[test]
    fn a_whole_number_out_of_range_is_too_large() {
        let json = r#"{"advanced": {"alerts": [{"event": "running_longer_than",
            "threshold": 5000000000, "channel": "email", "target": "a@b.c"}]}}"#;
        let issue = first(json);
        assert_eq!(issue.path.to_string(), "advanced.alerts[0].threshold");
        assert_eq!(
            issue.message(crate::Lang::En),
            "is too large for this field: 5000000000; enter a smaller number"
        );
        assert_eq!(
            issue.message(crate::Lang::Zh),
            "超出该字段的取值范围：5000000000，请填写更小的数"
        );
        // Past 2^64 too, though read as a float.
        for (typed, found) in [
            ("100000000000000000000000000000", "1e+29"),
            ("18446744073709551616", "1.8446744073709552e+19"),
        ] {
            let json = format!(r#"{{"compute": {{"workers": {typed}}}}}"#);
            assert_eq!(
                first(&json).message(crate::Lang::En),
                format!("is too large for this field: {found}; enter a smaller number")
            );
        }
        // Not a whole number, or below zero: what was expected, as before.
        for (json, found) in [
            (r#"{"compute": {"workers": 2.5}}"#, "the number 2.5"),
            (r#"{"compute": {"workers": -1}}"#, "the number -1"),
            (r#"{"compute": {"workers": 1e-7}}"#, "the number 1e-7"),
            (r#"{"compute": {"workers": -1e30}}"#, "the number -1e+30"),
        ] {
            let said = first(json).message(crate::Lang::En);
            assert_eq!(
                said,
                format!("is not valid: expected a whole number, 0 or more, found {found}")
            );
        }
    }

    #[test]
    fn a_key_given_twice_is_named_where_it_is() {
        for (json, path) in [
            (
                r#"{"basic": {"name_prefix": "a", "name_prefix": "b"}}"#,
                "basic.name_prefix",
            ),
            (r#"{"basic": {}, "compute": {}, "basic": {}}"#, "basic"),
        ] {
            let issue = first(json);
            assert_eq!(issue.path.to_string(), path, "{json}");
            assert_eq!(
                issue.message(crate::Lang::En),
                "appears more than once; keep one"
            );
            assert_eq!(issue.message(crate::Lang::Zh), "重复出现，请只保留一个");
        }
    }

    #[test]
    fn unknown_choices_list_the_options() {
        let issue = first(r#"{"compute": {"kind": "cheap"}}"#);
        assert_eq!(issue.path.to_string(), "compute.kind");
        assert!(
            issue
                .message(crate::Lang::En)
                .contains("one of: reserved, on_demand, spot, idle"),
            "{}",
            issue.message(crate::Lang::En)
        );
    }

    #[test]
    fn unknown_fields_are_named_with_the_fields_that_exist() {
        let issue = first(r#"{"basic": {"nmae_prefix": "x"}}"#);
        assert_eq!(issue.path.to_string(), "basic.nmae_prefix");
        assert!(
            issue.message(crate::Lang::En).contains("name_prefix"),
            "{}",
            issue.message(crate::Lang::En)
        );
    }

    #[test]
    fn broken_json_is_reported_where_parsing_stopped() {
        let issue = first("{\"basic\": ");
        assert_eq!(issue.path.to_string(), "basic");
        assert!(
            issue
                .message(crate::Lang::En)
                .starts_with("is not valid JSON"),
            "{}",
            issue.message(crate::Lang::En)
        );
    }
}
