use super::*;
use crate::quota::QueueReason;
use crate::task::TaskSpec;
use crate::vocab::Dimension;
use std::collections::BTreeSet;

fn keys(messages: Catalog) -> BTreeSet<&'static str> {
    messages.iter().map(|(k, _)| *k).collect()
}

#[test]
fn every_catalog_is_sorted_by_key_without_duplicates() {
    for (lang, messages) in LANGUAGES {
        for pair in messages.windows(2) {
            assert!(
                pair[0].0 < pair[1].0,
                "{lang:?}: {:?} must come before {:?}",
                pair[0].0,
                pair[1].0
            );
        }
    }
}

/// A key that is another key's singular form ("1 node" beside "{nodes} nodes").
fn is_singular(key: &str) -> bool {
    key.strip_suffix("_one")
        .is_some_and(|plural| en::MESSAGES.iter().any(|(k, _)| *k == plural))
}

#[test]
fn every_key_is_in_every_language() {
    // A singular (`{key}_one` beside `key`) is only in the languages that have one.
    let english = keys(en::MESSAGES);
    let english_without_singulars: BTreeSet<_> = english
        .iter()
        .copied()
        .filter(|k| !is_singular(k))
        .collect();
    for (lang, messages) in LANGUAGES {
        let theirs = keys(messages);
        let english = if *lang == Lang::En || theirs.iter().any(|k| is_singular(k)) {
            english.clone()
        } else {
            english_without_singulars.clone()
        };
        let missing: Vec<_> = english.difference(&theirs).collect();
        let extra: Vec<_> = theirs.difference(&english).collect();
        assert!(missing.is_empty(), "{lang:?} lacks {missing:?}");
        assert!(
            extra.is_empty(),
            "{lang:?} has keys English lacks: {extra:?}"
        );
    }
}

#[test]
fn every_language_uses_the_same_placeholders_for_a_key() {
    for (key, english) in en::MESSAGES {
        let wanted = placeholders(english);
        for (lang, messages) in LANGUAGES {
            let Ok(i) = messages.binary_search_by(|(k, _)| k.cmp(key)) else {
                continue; // every_key_is_in_every_language reports it
            };
            assert_eq!(
                placeholders(messages[i].1),
                wanted,
                "{lang:?} {key}: placeholders differ from English"
            );
        }
    }
}

#[test]
fn text_fills_placeholders_and_falls_back_to_the_key() {
    assert_eq!(
        text(
            Lang::En,
            "compute.workers.out_of_range",
            &[("max", "8".into())]
        ),
        "must be between 0 and 8"
    );
    assert_eq!(
        text(
            Lang::Zh,
            "quantity",
            &[("amount", "8".into()), ("unit", "张 GPU".into())]
        ),
        "8 张 GPU"
    );
    // A missing argument stays visible.
    assert_eq!(
        text(Lang::En, "compute.workers.out_of_range", &[]),
        "must be between 0 and {max}"
    );
    assert_eq!(text(Lang::Zh, "no.such.key", &[]), "no.such.key");
    let items = ["a".to_owned(), "b".to_owned(), "c".to_owned()];
    assert_eq!(list(Lang::En, &items), "a, b and c");
    assert_eq!(list(Lang::Zh, &items), "a、b、c");
    assert_eq!(list(Lang::En, &items[..1]), "a");
}

/// Every field path of the spec: the JSON keys of a default spec with one element in
/// each list, joined by `.`, list indices left out. Objects are marked `true`.
fn field_paths() -> Vec<(String, bool)> {
    fn walk(prefix: &str, value: &serde_json::Value, out: &mut Vec<(String, bool)>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, child) in map {
                    let path = if prefix.is_empty() {
                        key.clone()
                    } else {
                        format!("{prefix}.{key}")
                    };
                    out.push((path.clone(), child.is_object()));
                    walk(&path, child, out);
                }
            }
            serde_json::Value::Array(items) => {
                for item in items {
                    walk(prefix, item, out);
                }
            }
            _ => {}
        }
    }
    let mut spec = TaskSpec::default();
    spec.basic.tags.push(Default::default());
    spec.environment.env.push(Default::default());
    spec.environment.storage.push(Default::default());
    spec.environment.datasets.push(Default::default());
    spec.environment.models.push(Default::default());
    spec.compute.specs.push(String::new());
    spec.advanced.alerts.push(Default::default());
    let value = serde_json::to_value(&spec).expect("a spec serializes");
    let mut out = Vec::new();
    walk("", &value, &mut out);
    out.sort();
    out.dedup();
    out
}

#[test]
fn every_spec_field_has_a_label_and_every_value_field_a_help() {
    let paths = field_paths();
    assert!(paths.iter().any(|(p, _)| p == "environment.env.name"));
    assert!(
        paths
            .iter()
            .any(|(p, _)| p == "ray.autoscaling.max_workers")
    );
    for (lang, _) in LANGUAGES {
        for (path, is_section) in &paths {
            let label = format!("field.{path}.label");
            assert!(has_key(*lang, &label), "{lang:?} lacks {label}");
            let help = format!("field.{path}.help");
            assert!(
                *is_section || has_key(*lang, &help),
                "{lang:?} lacks {help}"
            );
        }
    }
    // And no label or help for a field the spec no longer has.
    let known: BTreeSet<&str> = paths.iter().map(|(p, _)| p.as_str()).collect();
    for key in keys(en::MESSAGES) {
        if let Some(rest) = key.strip_prefix("field.") {
            let path = rest
                .strip_suffix(".label")
                .or_else(|| rest.strip_suffix(".help"))
                .unwrap_or(rest);
            assert!(known.contains(path), "{key} names no field of the spec");
        }
    }
}

#[test]
fn the_units_help_states_the_per_replica_rule() {
    for key in [
        "field.compute.units_per_node.help",
        "field.compute.head_spec.help",
    ] {
        let english = text(Lang::En, key, &[]);
        assert!(english.contains("unit × units per node"), "{english}");
        assert!(english.contains("head"), "{english}");
        assert!(english.contains("else the workers'"), "{english}");
        let chinese = text(Lang::Zh, key, &[]);
        assert!(chinese.contains("单节点实例规格数"), "{chinese}");
        assert!(chinese.contains("Head"), "{chinese}");
    }
}

#[test]
fn a_message_renders_in_each_language_with_nested_messages() {
    let reason = crate::quota::QueueReason::NoNodeHostsOne {
        dimension: crate::Dimension::Gpu,
        largest_free: 4,
        need: 8,
    }
    .to_message();
    let event = Message::new("event.failed#after_retries")
        .with("attempts", 2)
        .with_message("reason", reason.clone());
    assert_eq!(
        event.render(Lang::En),
        "after 2 attempts; the last: the largest free node has 4 GPUs; one replica needs 8"
    );
    assert_eq!(
        event.render(Lang::Zh),
        "共运行 2 次，最后一次：空闲最多的节点只有 4 张 GPU，单个副本需要 8"
    );
    // The same wording as the reason rendered directly.
    assert_eq!(
        reason.render(Lang::Zh),
        crate::quota::QueueReason::NoNodeHostsOne {
            dimension: crate::Dimension::Gpu,
            largest_free: 4,
            need: 8,
        }
        .message(Lang::Zh)
    );
    // Stored as JSON and read back unchanged; text from outside Berth stays as it came.
    let outside = Message::new("event.note")
        .with("attempt", 2)
        .with("note", "pod x: Pulling image \"a:1\"");
    for message in [event, outside] {
        let json = serde_json::to_string(&message).expect("serializes");
        let back: Message = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, message, "{json}");
    }
}

/// README, known gaps: a full pool's wait read "the largest free node has 0 GPUs". With
/// none free on any node, the reason says so, for a replica and for a Ray head alike.
#[test]
fn a_wait_with_nothing_free_on_any_node_says_so_plainly() {
    use crate::quota::QueueReason::{HeadHasNoRoom, NoNodeHostsOne};
    let cases = [
        (
            NoNodeHostsOne {
                dimension: Dimension::Gpu,
                largest_free: 0,
                need: 8,
            },
            "no node has a free GPU",
            "所有节点的空闲资源均不足 1 张 GPU",
        ),
        (
            HeadHasNoRoom {
                dimension: Dimension::Vcpu,
                largest_free: 0,
                need: 16,
            },
            "no node has a free vCPU",
            "所有节点的空闲资源均不足 1 个 vCPU",
        ),
        (
            NoNodeHostsOne {
                dimension: Dimension::MemoryGib,
                largest_free: 0,
                need: 64,
            },
            "no node has a free GiB of memory",
            "所有节点的空闲资源均不足 1 GiB 内存",
        ),
    ];
    for (reason, en, zh) in cases {
        assert_eq!(reason.message(Lang::En), en);
        assert_eq!(reason.message(Lang::Zh), zh);
        // What the validator package says of a plan is in its catalog.
        for lang in languages() {
            assert!(findings_only_has_key(lang, &reason.to_message().key));
        }
    }
    // Some free, not enough: the largest free node is named as before.
    let some = NoNodeHostsOne {
        dimension: Dimension::Gpu,
        largest_free: 2,
        need: 8,
    };
    assert_eq!(
        some.message(Lang::En),
        "the largest free node has 2 GPUs; one replica needs 8"
    );
}

#[test]
#[cfg(feature = "console-texts")]
fn a_count_of_one_is_said_in_the_singular_where_the_language_has_one() {
    assert_eq!(count(Lang::En, "ui.form.count.errors", 1), "1 error");
    assert_eq!(count(Lang::En, "ui.form.count.errors", 0), "0 errors");
    assert_eq!(count(Lang::En, "ui.form.count.hints", 2), "2 hints");
    assert_eq!(count(Lang::Zh, "ui.form.count.warnings", 1), "1 个警告");
    assert_eq!(count(Lang::Zh, "ui.form.count.warnings", 3), "3 个警告");
    let verdict = |lang, nodes: &str| {
        text(
            lang,
            "ui.form.plan.verdict.now",
            &[("spec", "8×A100".to_owned()), ("nodes", nodes.to_owned())],
        )
    };
    assert_eq!(verdict(Lang::En, "1"), "fits now on 8×A100, 1 node");
    assert_eq!(verdict(Lang::En, "2"), "fits now on 8×A100, 2 nodes");
    assert_eq!(verdict(Lang::Zh, "1"), "可立即启动：8×A100，1 个节点");
    // Only the count the singular writes out decides: attempt 1 on 2 nodes is plural.
    let admitted = |attempt: u32, nodes: u32| {
        Message::new("event.admitted")
            .with("attempt", attempt)
            .with("nodes", nodes)
            .with("spec", "s")
            .render(Lang::En)
    };
    assert_eq!(admitted(1, 2), "attempt 1 on 2 nodes with s");
    assert_eq!(admitted(3, 1), "attempt 3 on 1 node with s");
    // Two counts, one singular: it is used only when the count it leaves out is 1.
    let fragment = |nodes: &str, units: &str| {
        text(
            Lang::En,
            "ui.form.plan.fragment",
            &[("nodes", nodes.to_owned()), ("units", units.to_owned())],
        )
    };
    assert_eq!(fragment("1", "1"), "1 node with 1 free");
    assert_eq!(fragment("2", "1"), "2 nodes with 1 free each");
    // The head and one worker are two replicas (reshaping explorer: "up to 1 workers").
    let autoscaling = |max: &str| {
        let replicas = max.parse::<u32>().unwrap() + 1;
        let args = [
            ("replicas", replicas.to_string()),
            ("max", max.to_owned()),
            ("pool", "p".to_owned()),
        ];
        text(Lang::En, "ui.form.plan.replicas#autoscaling", &args)
    };
    assert_eq!(
        autoscaling("1"),
        "2 replicas: the head and up to 1 worker, the autoscaling maximum · pool p"
    );
    assert_eq!(
        autoscaling("3"),
        "4 replicas: the head and up to 3 workers, the autoscaling maximum · pool p"
    );
    // A unit after its count.
    let largest = |free: u64| {
        QueueReason::NoNodeHostsOne {
            dimension: Dimension::Gpu,
            largest_free: free,
            need: 8,
        }
        .message(Lang::En)
    };
    assert_eq!(
        largest(1),
        "the largest free node has 1 GPU; one replica needs 8"
    );
    assert_eq!(
        largest(4),
        "the largest free node has 4 GPUs; one replica needs 8"
    );
    assert_eq!(Dimension::Vcpu.unit_for(Lang::En, 1), "vCPU");
    assert_eq!(Dimension::Gpu.unit_for(Lang::Zh, 1), "张 GPU");
}

#[test]
fn every_singular_leaves_out_a_count_of_its_plural_and_adds_nothing() {
    for (key, one) in en::MESSAGES.iter().filter(|(k, _)| is_singular(k)) {
        let plural = key.strip_suffix("_one").expect("a singular ends with _one");
        let (ones, plurals) = (placeholders(one), placeholders(en_text(plural)));
        assert!(ones.is_subset(&plurals), "{key} adds a placeholder");
        // A unit word ("GPU" beside "GPUs") has no placeholder: its count is the
        // number before it, which the caller passes as `count`.
        assert!(
            ones != plurals || plurals.is_empty(),
            "{key} leaves no count out, so is never used"
        );
    }
}

fn en_text(key: &str) -> &'static str {
    en::MESSAGES
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, t)| *t)
        .expect("an English key")
}

#[test]
fn every_language_is_named_by_its_tag_as_the_api_writes_it() {
    for lang in languages() {
        assert_eq!(Lang::from_tag(lang.tag()), Some(lang));
        assert_eq!(
            serde_json::to_string(&lang).unwrap(),
            format!("\"{}\"", lang.tag())
        );
    }
    // Any tag of the language, as a browser's `navigator.language` or a header gives it.
    for (tag, lang) in [
        ("zh", Lang::Zh),
        ("zh-cn", Lang::Zh),
        ("ZH-Hans-CN", Lang::Zh),
        ("zh_TW", Lang::Zh),
        ("EN", Lang::En),
        ("en-US", Lang::En),
        ("en_GB", Lang::En),
    ] {
        assert_eq!(Lang::from_tag(tag), Some(lang), "{tag}");
    }
    for other in ["", "fr", "zho", "english", "-zh", "ja-JP"] {
        assert_eq!(Lang::from_tag(other), None, "{other}");
    }
}

#[test]
fn the_metrics_ports_help_names_every_port_the_rules_refuse() {
    use crate::injected::{MASTER_PORT, RAY_PORTS};
    for lang in languages() {
        let help = text(lang, "field.advanced.monitoring.port.help", &[]);
        for port in RAY_PORTS.iter().chain([&MASTER_PORT, &22]) {
            assert!(
                help.contains(&port.to_string()),
                "{lang:?} lacks {port}: {help}"
            );
        }
    }
}

/// A message's arguments travel as a JSON object, the way stored events and findings
/// always had them: read in any order, written in their names' order, a name given twice
/// keeping its last value, as a map would.
#[test]
fn arguments_are_a_map_on_the_wire() {
    let read: Message = serde_json::from_str(
        r#"{"key":"k","args":{"b":"2","a":["x","y"],"c":{"key":"unit"},"b":"3"}}"#,
    )
    .expect("a message reads");
    assert_eq!(
        serde_json::to_string(&read).expect("a message writes"),
        r#"{"key":"k","args":{"a":["x","y"],"b":"3","c":{"key":"unit"}}}"#
    );
    assert_eq!(read.args.get("b"), Some(&Arg::Text("3".to_owned())));
    assert!(read.args.contains_key("c") && !read.args.contains_key("d"));
    let again = Message::new("k").with("b", 1).with("a", 2).with("b", 3);
    let names: Vec<&str> = again.args.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(again.args["b"], Arg::Text("3".to_owned()));
    assert_eq!(
        serde_json::to_string(&Message::new("k")).expect("a message writes"),
        r#"{"key":"k"}"#
    );
}
