//! From JSON to a [`TaskSpec`], or to the finding that says where its shape is wrong;
//! and [`check_json`], from JSON text to findings and plan in one call.
//!
//! The text is parsed once into a JSON value (`crate::read::Tape`), which the spec's
//! reader (`crate::read`'s spec module) takes apart, one small reader per type. Its
//! findings are the ones serde's derived reader gave (the tests' oracle, `derived`),
//! for every input: the first thing wrong in the text's order, at the failing field's
//! path. That reader also refused a list wherever a struct belongs (serde's derive
//! fills a struct from a JSON array by position: `[]` would be an empty spec and
//! `"basic": [...]` would pass); so does this one, as `value.invalid` (expected an
//! object, found a list).

use super::shape::{finding_report, shape_report};
use super::{Check, FieldPath, Report, check};
use crate::catalog::{Catalog, User};
use crate::read::{self, Broken, Read};
use crate::task::TaskSpec;
use crate::usage::Usage;

/// Reads a spec from JSON text.
///
/// # Errors
///
/// A [`Report`] with one `value.invalid` finding at the first field of the wrong shape,
/// or where parsing stopped when the text is not JSON.
///
/// A byte order mark at the start is read past, as the server reads every JSON body:
/// editors on Windows write one, and RFC 8259 (section 8.1) lets a reader ignore it.
pub fn parse_spec(text: &str) -> Result<TaskSpec, Report> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut de = serde_json::Deserializer::from_str(text);
    // Where the text stops being JSON, and why; `None` while it is JSON.
    let (mut value, broken) = match read::parse_partial(text, &mut de) {
        // Text after the spec: the spec itself was whole, so the finding is about all
        // of it, unless the spec has a wrong shape, which comes first in the text.
        Ok(value) => (value, de.end().err().map(|error| (error, Vec::new()))),
        Err(Broken { value, error, path }) => (value, Some((error, path))),
    };
    match (TaskSpec::read(value.json()), broken) {
        (Ok(spec), None) => Ok(spec),
        (Err(err), _) if !err.is_cut() => {
            let (path, expected, found) = err.finding();
            Err(finding_report(path, expected, found))
        }
        (_, Some((error, path))) => Err(shape_report(FieldPath::from_segments(path), &error)),
        // A cut only ever comes with its error.
        (Err(err), None) => {
            let (path, expected, found) = err.finding();
            Err(finding_report(path, expected, found))
        }
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
/// and `POST /validate` show. A spec of the wrong shape gives its shape finding and no
/// plan.
pub fn check_json(text: &str, catalog: &Catalog, usage: &Usage, user: &User) -> Check {
    match parse_spec(text) {
        Ok(spec) => check(&spec, catalog, usage, user),
        Err(issues) => Check { issues, plan: None },
    }
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
/// derived reader it replaced (`derived`, today's findings): the two must agree on
/// every input, good or bad.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod generated {
    use super::parse_spec;
    use crate::read::tests::arbitrary::{kind, stability};
    use crate::task::*;
    use crate::validate::derived;
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
            let text = edited(text, &edit);
            prop_assert_eq!(parse_spec(&text), derived::parse_spec(&text), "{}", text);
        }
    }
}
