//! From JSON to a [`TaskSpec`], or to the findings that say where its shape is wrong;
//! and [`check_json`], from JSON text to findings and plan in one call.
//!
//! The text is parsed into a JSON value (`crate::read::Tape`), which the spec's reader
//! (`crate::read`'s spec module) takes apart, one small reader per type. Its findings
//! are the ones serde's derived reader gave (the tests' oracle, `derived`), for every
//! input: the first thing wrong in the text's order, at the failing field's path;
//! except that an unknown field does not end the read: each is named, as the derived
//! reader named it when it was the first, and the read goes on past it, so that a user
//! sees every one at once (an import written for another tool has several) and the
//! rest of the spec is still checked. That reader also refused a list wherever a
//! struct belongs (serde's derive fills a struct from a JSON array by position: `[]`
//! would be an empty spec and `"basic": [...]` would pass); so does this one, as
//! `value.invalid` (expected an object, found a list).

use super::shape::shape_report;
use super::{Check, FieldPath, IssueCode, Report, check};
use crate::catalog::{Catalog, User};
use crate::read::{self, Broken, Read};
use crate::task::TaskSpec;
use crate::usage::Usage;

/// Reads a spec from JSON text.
///
/// # Errors
///
/// A [`Report`] of `value.invalid` findings: one at each unknown field (a key that is no
/// field of its object; up to 20, the 21st stops the read, and fewer in a text so large
/// that reading it again past each would parse over 4 MiB), then one at the first field of
/// another wrong shape, or where parsing stopped when the text is not JSON, if any, in
/// the text's order.
///
/// A byte order mark at the start is read past, as the server reads every JSON body:
/// editors on Windows write one, and RFC 8259 (section 8.1) lets a reader ignore it.
pub fn parse_spec(text: &str) -> Result<TaskSpec, Report> {
    match read_spec(text) {
        (Some(spec), shape) if shape.is_empty() => Ok(spec),
        (_, shape) => Err(shape),
    }
}

/// The most unknown fields a read passes: the next stops it, as any other wrong shape
/// does. The findings stay bounded whatever the size of the text, as `cap_findings`
/// bounds the rules' (a key that is no field is a new field each time).
const PASS_AT_MOST: usize = crate::api::MAX_FINDINGS_PER_CODE;

/// The most text all the reads past unknown fields parse again, in bytes: a spec of a
/// few kilobytes has all 20 named; one of a megabyte its first few.
const REREAD_AT_MOST: usize = 4 << 20;

/// The spec in JSON text as far as its shape lets it be read, and the findings of its
/// shape ([`parse_spec`]'s). An unknown field is read past, its value unread: a spec
/// whose only wrong shapes are unknown fields is read whole without them, for the rules
/// to check the rest.
///
/// The text is parsed and read again past each unknown field found (21 times at most,
/// and only for a spec of the wrong shape): a finding's place is built as the error
/// passes out of each value, so a read names the field it stops at. A read that noted
/// each one and went on would have to carry its place in, a cost to every read, and
/// more of the validator package's bytes than it has to spare.
fn read_spec(text: &str) -> (Option<TaskSpec>, Report) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut shape = Report::new();
    let mut passed = 0;
    loop {
        let mut de = serde_json::Deserializer::from_str(text);
        // Where the text stops being JSON, and why; `None` while it is JSON.
        let (mut value, broken) = match read::parse_partial(text, &mut de) {
            // Text after the spec: the spec itself was whole, so the finding is about all
            // of it, unless the spec has a wrong shape, which comes first in the text.
            Ok(value) => (value, de.end().err().map(|error| (error, Vec::new()))),
            Err(Broken { value, error, path }) => (value, Some((error, path))),
        };
        match read::past_unknown(passed, || TaskSpec::read(value.json())) {
            Ok(spec) if broken.is_none() => return (Some(spec), shape),
            // A cut only ever comes with its error.
            Err(err) if !err.is_cut() || broken.is_none() => {
                let (path, expected, found) = err.finding();
                let found = found.map(super::Found::shortened);
                shape.push(path, IssueCode::ValueInvalid { expected, found });
                // Bounded by the text read again too: a large spec (a megabyte of
                // commands) names fewer, each read costing milliseconds on the server.
                let reread = text.len().saturating_mul(passed + 1);
                if err.is_unknown() && passed < PASS_AT_MOST && reread <= REREAD_AT_MOST {
                    passed += 1;
                    continue;
                }
            }
            _ => {
                if let Some((error, path)) = broken {
                    shape.extend(shape_report(FieldPath::from_segments(path), &error));
                }
            }
        }
        return (None, shape);
    }
}

/// Reads a spec from a JSON value (a YAML import's, a task's in an answer) as its JSON
/// text, through [`parse_spec`]: one reader for both, so their findings are worded
/// alike, and the browser's wasm carries the spec's reader once rather than a second
/// copy for `Value`.
///
/// # Errors
///
/// As [`parse_spec`].
pub fn parse_value(value: serde_json::Value) -> Result<TaskSpec, Report> {
    parse_spec(&value.to_string())
}

/// The findings and the plan for a spec given as JSON text: what the form, the JS API
/// and `POST /validate` show. A spec of the wrong shape gives its shape findings and no
/// plan; the rules' findings too when its only wrong shapes are unknown fields.
pub fn check_json(text: &str, catalog: &Catalog, usage: &Usage, user: &User) -> Check {
    let (spec, mut issues) = read_spec(text);
    if let Some(spec) = spec {
        let check = check(&spec, catalog, usage, user);
        if issues.is_empty() {
            return check;
        }
        // Unknown fields are only read past: the rest is checked, and the spec is still
        // of the wrong shape, with no plan.
        issues.extend(check.issues);
    }
    Check { issues, plan: None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::derived::{self, reference, reference_value};
    use crate::validate::{Expected, Found, IssueCode};

    /// A spec saved by a Windows editor starts with a byte order mark: read as the same
    /// spec, by the validator package as by the server (explorer, round 4); one anywhere
    /// else is no JSON.
    #[test]
    fn a_byte_order_mark_at_the_start_is_read_past() {
        let json = r#"{"basic": {"name_prefix": "bom"}}"#;
        assert_eq!(
            parse_spec(&format!("\u{feff}{json}")).expect("read"),
            parse_spec(json).expect("read")
        );
        assert!(parse_spec(&format!(" \u{feff}{json}")).is_err());
    }

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

    /// A long text of the wrong shape is quoted to its start: a 900 KB one came back
    /// twice in its 422, and a portal put 5 MB of it in its page (portal explorer). Cut
    /// where a character ends, never inside one.
    #[test]
    fn a_long_text_of_the_wrong_shape_is_quoted_to_its_start() {
        let long = format!("{}{}", "x".repeat(63), "两".repeat(300_000));
        let (path, code) = finding(&serde_json::json!({"compute": {"workers": long}}).to_string());
        assert_eq!(path, "compute.workers");
        let cut = format!("{}…", "x".repeat(63));
        assert_eq!(
            code,
            IssueCode::ValueInvalid {
                expected: Expected::WholeNumber,
                found: Some(Found::Text(cut.clone())),
            }
        );
        let said = code.message(crate::Lang::En);
        assert_eq!(
            said,
            format!("is not valid: expected a whole number, 0 or more, found the text \"{cut}\"")
        );
        // A short one is quoted whole.
        let (_, code) = finding(r#"{"compute": {"workers": "two"}}"#);
        assert!(
            code.message(crate::Lang::En)
                .ends_with("found the text \"two\"")
        );
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

    /// Wrong shapes the path rules differ on: a key with an escape, a key that does not
    /// parse, an object where a unit variant belongs, nesting through lists and options.
    const TRICKY: [&str; 11] = [
        r#"{"b\u0061sic": {"region": 1}}"#,
        r#"{"basic": {"t\u0061gs": [{"key": "a"}, {"k\u0065y": 2}]}}"#,
        r#"{"basic": {"region" 1}}"#,
        r#"{"basic": {"region": "x",}}"#,
        r#"{"basic": {"region": "x" "name": "y"}}"#,
        r#"{"basic": {"task_type": {"pytorch_job": 1}}}"#,
        r#"{"basic": {"task_type": {"tf_job": null}}}"#,
        r#"{"environment": {"env": [{"name": "A"}, {"name": 2}]}}"#,
        r#"{"environment": {"env": [{"name": "A"} {"name": "B"}]}}"#,
        r#"{"advanced": {"alerts": [{"event": "failed", "channel": "pager"}]}}"#,
        r#"{"advanced": {"image_pull_retries": null, "monitoring": {"port": -1}}}"#,
    ];

    #[test]
    fn every_bad_input_is_found_where_serde_path_to_error_finds_it() {
        for json in BAD.iter().chain(&TRICKY) {
            let found = parse_spec(json).expect_err(json);
            assert_eq!(found, reference(json), "{json}");
            assert_eq!(Err(found.clone()), derived::parse_spec(json), "{json}");
            assert_eq!(found.issues().len(), 1, "{json}");
            // A JSON value (when the text is one) gets the same finding; serde's own
            // reading of the value, the reference, agrees on its path and code.
            if let Ok(value) = serde_json::from_str::<serde_json::Value>(json) {
                let from_value = parse_value(value.clone()).expect_err(json);
                assert_eq!(from_value, found, "{json}");
                assert_eq!(from_value, reference_value(&value), "{json}");
            }
        }
    }

    #[test]
    fn a_number_where_a_choice_belongs_is_the_wrong_type_in_text_and_in_a_value() {
        use crate::validate::shape::{Expected, Found};
        let json = r#"{"compute": {"kind": 3}}"#;
        let from_text = parse_spec(json).expect_err(json);
        let value = serde_json::from_str(json).expect("JSON");
        assert_eq!(parse_value(value).expect_err(json), from_text);
        let issue = &from_text.issues()[0];
        assert_eq!(issue.path.to_string(), "compute.kind");
        let IssueCode::ValueInvalid { expected, found } = &issue.code else {
            panic!("a shape finding: {issue:?}")
        };
        let Expected::OneOf { options } = expected else {
            panic!("the choices: {expected:?}")
        };
        assert_eq!(options, &["reserved", "on_demand", "spot", "idle"]);
        assert!(
            matches!(found, Some(Found::Number(n)) if n == "3"),
            "{found:?}"
        );
        // A value that is missing is still broken JSON, not a wrong type.
        let broken = r#"{"compute": {"kind": }}"#;
        let report = parse_spec(broken).expect_err(broken);
        let issue = &report.issues()[0];
        assert!(
            matches!(
                &issue.code,
                IssueCode::ValueInvalid {
                    expected: Expected::Json { .. },
                    ..
                }
            ),
            "{issue:?}"
        );
    }

    #[test]
    fn the_path_names_the_key_as_written_and_skips_what_did_not_parse() {
        let path = |json| {
            parse_spec(json).expect_err(json).issues()[0]
                .path
                .to_string()
        };
        assert_eq!(path(TRICKY[0]), "basic.region", "the escape is read");
        assert_eq!(path(TRICKY[1]), "basic.tags[1].key");
        assert_eq!(
            path(TRICKY[2]),
            "basic",
            "no colon: the key is not a place yet"
        );
        assert_eq!(
            path(TRICKY[5]),
            "basic.task_type",
            "an object where a choice belongs is the choice's wrong type"
        );
        assert_eq!(path(TRICKY[8]), "environment.env", "between elements");
        // A key twice is named, though serde refuses it at the struct. (A JSON value
        // keeps one of the two, so this is for text only.)
        let twice = r#"{"basic": {"region": "x", "region": "y"}}"#;
        assert_eq!(path(twice), "basic.region");
        assert_eq!(parse_spec(twice).expect_err(twice), reference(twice));
    }

    #[test]
    fn a_good_input_reads_as_serde_json_reads_it() {
        for text in [crate::demo::PYTORCH_EXAMPLE, crate::demo::RAY_EXAMPLE, "{}"] {
            let plain: TaskSpec = serde_json::from_str(text).expect("parses");
            assert_eq!(parse_spec(text).expect("parses"), plain);
            let value = serde_json::from_str(text).expect("JSON");
            assert_eq!(parse_value(value).expect("parses"), plain);
        }
    }

    /// The brief's reproduction, and an unknown field in a list's item: the example
    /// with `foo` and `bar` at the top, `baz` in `basic` and `colour` in an env var.
    fn with_unknown_fields() -> String {
        let example = crate::demo::PYTORCH_EXAMPLE.trim();
        let example = example.strip_suffix('}').expect("an object");
        let example = example
            .replacen("\"basic\": {", "\"basic\": {\"baz\": 3, ", 1)
            .replacen(
                "{ \"name\": \"NCCL_DEBUG\"",
                "{\"colour\": \"red\", \"name\": \"NCCL_DEBUG\"",
                1,
            );
        format!("{{\"foo\": 1, {}, \"bar\": 2}}", &example.trim_start()[1..])
    }

    /// `text` with every unknown field but `keep` taken out.
    fn only(text: &str, keep: &str) -> String {
        let mut text = text.to_owned();
        for (unknown, value) in [
            ("foo", "1"),
            ("baz", "3"),
            ("colour", "\"red\""),
            ("bar", "2"),
        ] {
            if unknown != keep {
                for written in [
                    format!("\"{unknown}\": {value}, "),
                    format!(", \"{unknown}\": {value}"),
                ] {
                    text = text.replacen(&written, "", 1);
                }
            }
        }
        text
    }

    /// Each unknown field is its own finding, at its place, in the text's order: the one
    /// the reader gave when it was the only one (serde's derived reader's), so a user
    /// who imports a spec written for another tool sees them all at once.
    #[test]
    fn every_unknown_field_is_named_at_its_place() {
        let text = with_unknown_fields();
        let report = parse_spec(&text).expect_err(&text);
        let paths: Vec<String> = report.issues().iter().map(|i| i.path.to_string()).collect();
        assert_eq!(
            paths,
            ["foo", "basic.baz", "environment.env[0].colour", "bar"],
            "{report}"
        );
        for (issue, unknown) in report.issues().iter().zip(["foo", "baz", "colour", "bar"]) {
            let alone = only(&text, unknown);
            let before = derived::parse_spec(&alone).expect_err(&alone);
            assert_eq!(before.issues(), std::slice::from_ref(issue), "{alone}");
            assert_eq!(parse_spec(&alone), Err(before), "{alone}");
            // An error, as every wrong shape is (SPEC.md: it blocks submission).
            assert_eq!(issue.severity, crate::Severity::Error);
            assert!(
                matches!(
                    &issue.code,
                    IssueCode::ValueInvalid {
                        expected: Expected::KnownField { .. },
                        found: None
                    }
                ),
                "{issue:?}"
            );
        }
        assert_eq!(
            report.issues()[0].message(crate::Lang::En),
            "is not a known field; fields here: version, basic, environment, compute, advanced, ray"
        );
        // The same from a JSON value (a YAML import's), in its object's order.
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let from_value = parse_value(value).expect_err("unknown fields");
        assert_eq!(from_value.issues().len(), 4, "{from_value}");
    }

    /// The rest of a spec whose only wrong shapes are unknown fields is checked as
    /// usual: the rules' findings follow the unknown fields', and there is no plan, as
    /// for any spec of the wrong shape.
    #[test]
    fn the_rest_of_a_spec_with_unknown_fields_is_checked() {
        let catalog = crate::demo::catalog();
        let user = crate::demo::user();
        let usage = crate::demo::usage();
        let text =
            with_unknown_fields().replacen("\"name_prefix\": \"", "\"name_prefix\": \"Bad_", 1);
        let without = parse_spec(&only(&text, "none")).expect("the rest reads");
        let rules = check(&without, &catalog, &usage, &user);
        assert!(
            rules
                .issues
                .codes()
                .contains(&"basic.name_prefix.invalid_chars"),
            "{}",
            rules.issues
        );
        let checked = check_json(&text, &catalog, &usage, &user);
        let shape = parse_spec(&text).expect_err(&text);
        let mut expected = shape.clone();
        expected.extend(rules.issues);
        assert_eq!(checked.issues, expected);
        assert_eq!(checked.plan, None);
        // Another wrong shape stops the read there as before: the unknown fields before
        // it are named, with it, and nothing is checked.
        let text = text.replacen("\"workers\": ", "\"workers\": \"two\", \"x\": ", 1);
        let checked = check_json(&text, &catalog, &usage, &user);
        let paths: Vec<String> = checked
            .issues
            .issues()
            .iter()
            .map(|i| i.path.to_string())
            .collect();
        assert_eq!(
            paths,
            [
                "foo",
                "basic.baz",
                "environment.env[0].colour",
                "compute.workers"
            ],
            "{}",
            checked.issues
        );
    }

    #[test]
    fn unknown_fields_before_text_that_is_not_json_are_named_with_where_it_stops() {
        let text = r#"{"foo": 1, "basic": {"bar": 2, "region" "x"}}"#;
        let report = parse_spec(text).expect_err(text);
        let paths: Vec<String> = report.issues().iter().map(|i| i.path.to_string()).collect();
        assert_eq!(paths, ["foo", "basic.bar", "basic"], "{report}");
        assert!(
            matches!(
                &report.issues()[2].code,
                IssueCode::ValueInvalid {
                    expected: Expected::Json { .. },
                    ..
                }
            ),
            "{report}"
        );
    }

    /// However many unknown fields a text has, its findings stay few: past 20, the next
    /// stops the read, as any other wrong shape does.
    #[test]
    fn at_most_twenty_unknown_fields_are_read_past() {
        let catalog = crate::demo::catalog();
        let user = crate::demo::user();
        let usage = crate::demo::usage();
        let keys: Vec<String> = (0..25).map(|i| format!("\"x{i}\": {i}")).collect();
        let text = format!("{{{}}}", keys.join(", "));
        let report = parse_spec(&text).expect_err(&text);
        let paths: Vec<String> = report.issues().iter().map(|i| i.path.to_string()).collect();
        let expected: Vec<String> = (0..21).map(|i| format!("x{i}")).collect();
        assert_eq!(paths, expected);
        let checked = check_json(&text, &catalog, &usage, &user);
        assert_eq!(checked.issues, report, "nothing else is checked");
        // Twenty are read past: the rest is checked.
        let text = format!("{{{}}}", keys[..20].join(", "));
        let checked = check_json(&text, &catalog, &usage, &user);
        assert_eq!(
            checked.issues.issues()[..20],
            parse_spec(&text).expect_err(&text).issues()[..]
        );
        assert!(
            checked.issues.codes().contains(&"value.required"),
            "{}",
            checked.issues
        );
    }

    /// A large text is read again fewer times: its reads past unknown fields stop at
    /// 4 MiB of text parsed, so a request of a megabyte costs a few reads, not 21.
    #[test]
    fn a_large_text_is_read_past_fewer_unknown_fields() {
        let keys: Vec<String> = (0..10).map(|i| format!("\"x{i}\": {i}")).collect();
        let filler = "a".repeat(1 << 20);
        let text = format!("{{{}, \"z\": \"{filler}\"}}", keys.join(", "));
        let report = parse_spec(&text).expect_err("unknown fields");
        let paths: Vec<String> = report.issues().iter().map(|i| i.path.to_string()).collect();
        // Reads 1 to 4 parse at most 4 MiB of a text just over 1 MiB; the fourth
        // finding stops the read.
        assert_eq!(paths, ["x0", "x1", "x2", "x3"]);
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

/// Generated specs, and JSON-ish mutations of them, read by `parse_spec` and by the
/// derived reader it replaced (`derived`, the findings before): the two must agree on
/// every input, good or bad. The derived reader stopped at the first unknown field,
/// where `parse_spec` reads past it: past each, they must agree on the text without it.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod generated {
    use super::{PASS_AT_MOST, parse_spec, read_spec};
    use crate::read::tests::arbitrary::{kind, stability};
    use crate::task::*;
    use crate::validate::derived;
    use crate::validate::{Expected, FieldPath, IssueCode, Report};
    use proptest::collection::vec;
    use proptest::option;
    use proptest::prelude::*;

    /// Text, with what serde's error texts were sensitive to now and then: quotes,
    /// backticks, escapes, "expected " and " at line ".
    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => "[a-z0-9_-]{0,8}",
            2 => "\\PC{0,6}",
            1 => "[a-z`\"\\\\\n\t\u{7f}\u{e9} ]{0,6}",
            1 => Just("a at line 3".to_owned()),
            1 => Just("x, expected y".to_owned()),
            1 => Just("expected `z`".to_owned()),
            1 => Just("`tick`".to_owned()),
            1 => Just("\"q\"".to_owned()),
            1 => Just("pytorch_job".to_owned()),
        ]
    }

    fn task_type() -> impl Strategy<Value = TaskType> {
        prop_oneof![Just(TaskType::PyTorchJob), Just(TaskType::RayJob)]
    }

    fn priority() -> impl Strategy<Value = Priority> {
        prop_oneof![
            Just(Priority::Low),
            Just(Priority::Normal),
            Just(Priority::High),
        ]
    }

    fn mount() -> impl Strategy<Value = Mount> {
        (text(), text()).prop_map(|(id, path)| Mount { id, path })
    }

    fn basic() -> impl Strategy<Value = Basic> {
        (
            (text(), text(), text(), text()),
            option::of(task_type()),
            any::<bool>(),
            text(),
            vec(
                (text(), text()).prop_map(|(key, value)| Tag { key, value }),
                0..3,
            ),
        )
            .prop_map(
                |(
                    (region, cluster, project_group, name_prefix),
                    task_type,
                    visible_in_group,
                    time_zone,
                    tags,
                )| Basic {
                    region,
                    cluster,
                    project_group,
                    name_prefix,
                    task_type,
                    visible_in_group,
                    time_zone,
                    tags,
                },
            )
    }

    fn environment() -> impl Strategy<Value = Environment> {
        let source = prop_oneof![
            Just(ImageSource::BuiltIn),
            Just(ImageSource::Custom),
            Just(ImageSource::Address),
        ];
        let env = (text(), text(), any::<bool>()).prop_map(|(name, value, hidden)| EnvVar {
            name,
            value,
            hidden,
        });
        (
            (source, text()).prop_map(|(source, value)| ImageChoice { source, value }),
            vec(env, 0..3),
            vec(mount(), 0..2),
            vec(mount(), 0..2),
            vec(mount(), 0..2),
            text(),
        )
            .prop_map(
                |(image, env, storage, datasets, models, command)| Environment {
                    image,
                    env,
                    storage,
                    datasets,
                    models,
                    command,
                },
            )
    }

    fn compute() -> impl Strategy<Value = Compute> {
        (
            option::of(kind()),
            option::of(text()),
            any::<bool>(),
            any::<bool>(),
            option::of(stability()),
            option::of(priority()),
            option::of(any::<bool>()),
            any::<u32>(),
            prop_oneof![Just(InstanceType::Gpu), Just(InstanceType::Cpu)],
            vec(text(), 0..3),
            any::<u32>(),
            option::of(text()),
        )
            .prop_map(
                |(
                    kind,
                    pool,
                    accept_idle,
                    prefer_idle,
                    idle_stability,
                    priority,
                    guarantee,
                    workers,
                    instance_type,
                    specs,
                    units_per_node,
                    head_spec,
                )| Compute {
                    kind,
                    pool,
                    accept_idle,
                    prefer_idle,
                    idle_stability,
                    priority,
                    guarantee,
                    workers,
                    instance_type,
                    specs,
                    units_per_node,
                    head_spec,
                },
            )
    }

    fn advanced() -> impl Strategy<Value = Advanced> {
        let event = prop_oneof![
            Just(AlertEvent::Failed),
            Just(AlertEvent::Succeeded),
            Just(AlertEvent::Stopped),
            Just(AlertEvent::Retried),
            Just(AlertEvent::QueuedLongerThan),
            Just(AlertEvent::RunningLongerThan),
        ];
        let channel = prop_oneof![Just(AlertChannel::Email), Just(AlertChannel::Webhook)];
        let alert = (event, option::of(any::<u32>()), channel, text()).prop_map(
            |(event, threshold, channel, target)| Alert {
                event,
                threshold,
                channel,
                target,
            },
        );
        (
            (any::<bool>(), any::<u32>()).prop_map(|(enabled, max_retries)| FaultTolerance {
                enabled,
                max_retries,
            }),
            (any::<bool>(), any::<u32>(), text()).prop_map(|(enabled, port, path)| Monitoring {
                enabled,
                port,
                path,
            }),
            option::of(any::<i64>()),
            any::<bool>(),
            vec(alert, 0..3),
        )
            .prop_map(
                |(fault_tolerance, monitoring, image_pull_retries, ssh, alerts)| Advanced {
                    fault_tolerance,
                    monitoring,
                    image_pull_retries,
                    ssh,
                    alerts,
                },
            )
    }

    fn ray() -> impl Strategy<Value = RaySettings> {
        let mode = prop_oneof![
            Just(UpscalingMode::Default),
            Just(UpscalingMode::Aggressive),
            Just(UpscalingMode::Conservative),
        ];
        (
            text(),
            (any::<bool>(), text(), any::<bool>()).prop_map(|(enabled, volume, clean_on_exit)| {
                SharedStorage {
                    enabled,
                    volume,
                    clean_on_exit,
                }
            }),
            (any::<bool>(), any::<u32>())
                .prop_map(|(enabled, keep_secs)| DebugMode { enabled, keep_secs }),
            (
                any::<bool>(),
                any::<u32>(),
                any::<u32>(),
                any::<u32>(),
                mode,
            )
                .prop_map(
                    |(enabled, min_workers, max_workers, idle_timeout_secs, upscaling_mode)| {
                        Autoscaling {
                            enabled,
                            min_workers,
                            max_workers,
                            idle_timeout_secs,
                            upscaling_mode,
                        }
                    },
                ),
        )
            .prop_map(
                |(runtime_env, shared_storage, debug, autoscaling)| RaySettings {
                    runtime_env,
                    shared_storage,
                    debug,
                    autoscaling,
                },
            )
    }

    pub(super) fn spec() -> impl Strategy<Value = TaskSpec> {
        (
            any::<u32>(),
            basic(),
            environment(),
            compute(),
            advanced(),
            ray(),
        )
            .prop_map(
                |(version, basic, environment, compute, advanced, ray)| TaskSpec {
                    version,
                    basic,
                    environment,
                    compute,
                    advanced,
                    ray,
                },
            )
    }

    /// JSON as a tree that can hold what `serde_json::Value` cannot: a key twice, and
    /// any text at all as a value.
    #[derive(Clone, Debug)]
    enum Tree {
        /// JSON text (or not) written as it is.
        Raw(String),
        List(Vec<Tree>),
        Object(Vec<(String, Tree)>),
    }

    impl Tree {
        fn of(value: &serde_json::Value) -> Tree {
            match value {
                serde_json::Value::Array(items) => Tree::List(items.iter().map(Tree::of).collect()),
                serde_json::Value::Object(map) => Tree::Object(
                    map.iter()
                        .map(|(k, v)| (serde_json::to_string(k).unwrap(), Tree::of(v)))
                        .collect(),
                ),
                other => Tree::Raw(other.to_string()),
            }
        }

        fn write(&self, out: &mut String) {
            match self {
                Tree::Raw(text) => out.push_str(text),
                Tree::List(items) => {
                    out.push('[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        item.write(out);
                    }
                    out.push(']');
                }
                Tree::Object(entries) => {
                    out.push('{');
                    for (i, (key, value)) in entries.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        out.push_str(key);
                        out.push_str(": ");
                        value.write(out);
                    }
                    out.push('}');
                }
            }
        }

        /// Every node, outermost first, as the child indexes that lead to it.
        /// Takes out the first entry in the text's order at `path` (a finding's), this
        /// tree being at `at`; `false` when there is none (it is in a value written as
        /// text).
        fn take_out(&mut self, at: &FieldPath, path: &FieldPath) -> bool {
            match self {
                Tree::Raw(_) => false,
                Tree::List(items) => items.iter_mut().enumerate().any(|(i, item)| {
                    let here = at.index(i);
                    path.starts_with(&here) && item.take_out(&here, path)
                }),
                Tree::Object(entries) => {
                    for i in 0..entries.len() {
                        let key: String = serde_json::from_str(&entries[i].0).expect("a key");
                        let here = at.name(&key);
                        if here == *path {
                            entries.remove(i);
                            return true;
                        }
                        if path.starts_with(&here) && entries[i].1.take_out(&here, path) {
                            return true;
                        }
                    }
                    false
                }
            }
        }

        fn places(&self, at: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            out.push(at.clone());
            let children: Vec<&Tree> = match self {
                Tree::Raw(_) => Vec::new(),
                Tree::List(items) => items.iter().collect(),
                Tree::Object(entries) => entries.iter().map(|(_, v)| v).collect(),
            };
            for (i, child) in children.into_iter().enumerate() {
                at.push(i);
                child.places(at, out);
                at.pop();
            }
        }

        fn at(&mut self, place: &[usize]) -> &mut Tree {
            match (place.split_first(), self) {
                (None, node) => node,
                (Some((i, rest)), Tree::List(items)) => items[*i].at(rest),
                (Some((i, rest)), Tree::Object(entries)) => entries[*i].1.at(rest),
                (Some(_), node) => node,
            }
        }
    }

    /// Values of every JSON type, numbers at and past the edges, nesting past serde_json's
    /// depth limit, and text that is not JSON.
    fn junk() -> impl Strategy<Value = Tree> {
        let deep_list = format!("{}{}", "[".repeat(130), "]".repeat(130));
        let deep_object = format!("{}1{}", r#"{"a":"#.repeat(130), "}".repeat(130));
        prop_oneof![
            prop_oneof![
                Just("null"),
                Just("true"),
                Just("false"),
                Just("0"),
                Just("-1"),
                Just("-0"),
                Just("-0.0"),
                Just("2.5"),
                Just("3.0"),
                Just("-3.0"),
                Just("1e2"),
                Just("1e20"),
                Just("5e9"),
                Just("4294967295"),
                Just("4294967296"),
                Just("9223372036854775808"),
                Just("18446744073709551616"),
                Just("-9223372036854775809"),
                Just("1e400"),
                Just("[]"),
                Just("[1, {}]"),
                Just("{}"),
                Just(r#"{"a": 1}"#),
                Just(r#"{"pytorch_job": null}"#),
                Just("nul"),
                Just("tru"),
                Just("-"),
                Just("01"),
                Just(r#""\x""#),
                Just(r#""\ud800""#),
            ]
            .prop_map(|s| Tree::Raw(s.to_owned())),
            text().prop_map(|s| Tree::Raw(serde_json::to_string(&s).unwrap())),
            Just(Tree::Raw(deep_list)),
            Just(Tree::Raw(deep_object)),
        ]
    }

    /// [`junk`] that is JSON.
    fn json() -> impl Strategy<Value = Tree> {
        junk().prop_filter("JSON", |tree| {
            let mut text = String::new();
            tree.write(&mut text);
            serde_json::from_str::<serde_json::Value>(&format!("[{text}]")).is_ok()
        })
    }

    #[derive(Clone, Debug)]
    enum Mutation {
        /// The node at the place becomes this value.
        Replace(Tree),
        /// The node, wrapped in a list.
        Wrap,
        /// An entry added to the object at the place (or its nearest object).
        Add(String, Tree),
        /// The object's entry written again, with this value or (`None`) its own.
        Twice(usize, Option<Tree>),
    }

    fn mutation() -> impl Strategy<Value = Mutation> {
        prop_oneof![
            3 => junk().prop_map(Mutation::Replace),
            1 => Just(Mutation::Wrap),
            2 => (text(), junk()).prop_map(|(k, v)| Mutation::Add(k, v)),
            1 => (any::<usize>(), option::of(junk())).prop_map(|(i, v)| Mutation::Twice(i, v)),
        ]
    }

    /// The text cut short, or a character put in or taken out: text that is not JSON,
    /// or JSON of another shape.
    #[derive(Clone, Debug)]
    enum Edit {
        None,
        Cut(usize),
        Insert(usize, char),
        Remove(usize),
        Append(String),
    }

    fn edit() -> impl Strategy<Value = Edit> {
        let char = prop_oneof![
            Just(','),
            Just(':'),
            Just('"'),
            Just('{'),
            Just('}'),
            Just('['),
            Just(']'),
            Just('x'),
            Just(' '),
            Just('\\'),
        ];
        prop_oneof![
            6 => Just(Edit::None),
            2 => any::<usize>().prop_map(Edit::Cut),
            2 => (any::<usize>(), char).prop_map(|(i, c)| Edit::Insert(i, c)),
            1 => any::<usize>().prop_map(Edit::Remove),
            1 => prop_oneof![Just(" {}"), Just(" x"), Just(","), Just("  ")]
                .prop_map(|s| Edit::Append(s.to_owned())),
        ]
    }

    fn apply(tree: &mut Tree, choice: usize, mutation: Mutation) {
        let mut places = Vec::new();
        tree.places(&mut Vec::new(), &mut places);
        let place = &places[choice % places.len()];
        let node = tree.at(place);
        match mutation {
            Mutation::Replace(value) => *node = value,
            Mutation::Wrap => *node = Tree::List(vec![node.clone()]),
            Mutation::Add(key, value) => {
                if let Tree::Object(entries) = node {
                    let at = choice % (entries.len() + 1);
                    entries.insert(at, (serde_json::to_string(&key).unwrap(), value));
                }
            }
            Mutation::Twice(i, value) => {
                if let Tree::Object(entries) = node
                    && !entries.is_empty()
                {
                    let (key, own) = entries[i % entries.len()].clone();
                    let at = (i / 7) % (entries.len() + 1);
                    entries.insert(at, (key, value.unwrap_or(own)));
                }
            }
        }
    }

    fn edited(text: String, edit: &Edit) -> String {
        let boundary = |i: usize| {
            let mut i = i % (text.len() + 1);
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        match edit {
            Edit::None => text,
            Edit::Cut(i) => text[..boundary(*i)].to_owned(),
            Edit::Insert(i, c) => {
                let mut text = text.clone();
                text.insert(boundary(*i), *c);
                text
            }
            Edit::Remove(i) => {
                let at = boundary(*i);
                let mut text = text.clone();
                if at < text.len() {
                    text.remove(at);
                }
                text
            }
            Edit::Append(tail) => text + tail,
        }
    }

    /// What `read_spec` must give for the tree's text followed by `tail`: the derived
    /// reader's finding, and while that is an unknown field (up to the most read past),
    /// its finding for the text with that field taken out, as `read_spec` reads past it;
    /// the spec it reads once only unknown fields were wrong. `None` when an unknown
    /// field is not in the tree to take out (it is in a value written as text).
    fn derived_past_unknown(mut tree: Tree, tail: &str) -> Option<(Option<TaskSpec>, Report)> {
        let mut found = Report::new();
        loop {
            let mut text = String::new();
            tree.write(&mut text);
            text.push_str(tail);
            let issue = match derived::parse_spec(&text) {
                Ok(spec) => return Some((Some(spec), found)),
                Err(report) => report.issues()[0].clone(),
            };
            found.push_issue(issue.clone());
            let unknown = matches!(
                issue.code,
                IssueCode::ValueInvalid {
                    expected: Expected::KnownField { .. },
                    ..
                }
            );
            if !unknown || found.issues().len() > PASS_AT_MOST {
                return Some((None, found));
            }
            if !tree.take_out(&FieldPath::root(), &issue.path) {
                return None;
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn every_generated_spec_reads_back_equal(spec in spec()) {
            for text in [
                serde_json::to_string(&spec).unwrap(),
                serde_json::to_string_pretty(&spec).unwrap(),
            ] {
                prop_assert_eq!(parse_spec(&text), Ok(spec.clone()), "{}", text);
            }
        }

        /// A spec whose only wrong shapes are unknown fields, anywhere, holding any
        /// JSON: each is named as the derived reader named it alone, and the rest reads
        /// as the derived reader reads the text without them.
        #[test]
        fn a_spec_with_unknown_fields_reads_as_the_derived_reader_reads_it_without_them(
            spec in spec(),
            unknown in vec((any::<usize>(), text(), json()), 1..8),
        ) {
            let mut tree = Tree::of(&serde_json::to_value(&spec).unwrap());
            for (choice, key, value) in unknown {
                // In an object: every object of a spec is a struct's.
                let mut objects = Vec::new();
                tree.places(&mut Vec::new(), &mut objects);
                objects.retain(|place| matches!(tree.at(place), Tree::Object(_)));
                if let Tree::Object(entries) = tree.at(&objects[choice % objects.len()]) {
                    let at = choice / 7 % (entries.len() + 1);
                    entries.insert(at, (serde_json::to_string(&key).unwrap(), value));
                }
            }
            let mut text = String::new();
            tree.write(&mut text);
            let tail = serde_json::from_str::<serde_json::Value>(&text).is_ok().then_some("");
            if let Some(expected) = tail.and_then(|tail| derived_past_unknown(tree, tail)) {
                prop_assert_eq!(read_spec(&text), expected, "{}", text);
            }
        }

        #[test]
        fn every_mutated_spec_reads_as_the_derived_reader_read_it(
            spec in spec(),
            mutations in vec((any::<usize>(), mutation()), 1..4),
            edit in edit(),
        ) {
            let mut tree = Tree::of(&serde_json::to_value(&spec).unwrap());
            for (choice, mutation) in mutations {
                apply(&mut tree, choice, mutation);
            }
            let mut text = String::new();
            tree.write(&mut text);
            // Taking a field out of the tree moves what follows it in the text: only an
            // edit at the end is made again the same after it, and only JSON text is
            // compared whole, as the place where text stops being JSON moves too. (A
            // field's value is read past, not taken out: where it is not JSON, such as
            // past serde_json's depth limit, the text stops being JSON in it.)
            let tail = match &edit {
                Edit::None => Some(""),
                Edit::Append(tail) => Some(tail.as_str()),
                _ => None,
            };
            let whole = edited(text.clone(), &edit);
            let json = serde_json::from_str::<serde_json::Value>(&whole).is_ok();
            let tail = tail.filter(|_| json);
            let expected = tail.and_then(|tail| derived_past_unknown(tree.clone(), tail));
            let text = whole;
            let read = read_spec(&text);
            if let Some(expected) = expected {
                prop_assert_eq!(&read, &expected, "{}", text);
            } else {
                // Else the first finding is the derived reader's, and every finding before
                // the last is an unknown field's, read past.
                match (&read, derived::parse_spec(&text)) {
                    ((Some(spec), shape), Ok(derived)) if shape.is_empty() => {
                        prop_assert_eq!(spec, &derived, "{}", text);
                    }
                    ((_, shape), Err(derived)) => {
                        prop_assert_eq!(&shape.issues()[0], &derived.issues()[0], "{}", text);
                        let past = &shape.issues()[..shape.issues().len() - 1];
                        prop_assert!(past.len() <= PASS_AT_MOST, "{}", text);
                        for issue in past {
                            prop_assert!(
                                matches!(
                                    issue.code,
                                    IssueCode::ValueInvalid {
                                        expected: Expected::KnownField { .. },
                                        ..
                                    }
                                ),
                                "{issue:?} in {text}"
                            );
                        }
                    }
                    (read, derived) => prop_assert!(false, "{read:?} {derived:?}: {text}"),
                }
            }
            let parsed = match read {
                (Some(spec), shape) if shape.is_empty() => Ok(spec),
                (_, shape) => Err(shape),
            };
            prop_assert_eq!(parse_spec(&text), parsed, "{}", text);
        }
    }
}
