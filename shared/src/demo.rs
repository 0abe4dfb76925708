//! The demo catalog and example specs the server uses by default (feature `demo`).
//!
//! Two regions, three clusters, pools of H100, A100, L40S and CPU nodes with some of
//! them busy, and quotas that some demo tasks exceed, so every outcome of the plan can
//! be seen in the console.

use crate::catalog::{Catalog, User};
use crate::catalog_file::CatalogFile;
use crate::usage::Usage;

/// A complete PyTorchJob that passes every rule on the demo catalog.
pub const PYTORCH_EXAMPLE: &str = include_str!("../examples/pytorch.json");
/// A complete RayJob that passes every rule on the demo catalog.
pub const RAY_EXAMPLE: &str = include_str!("../examples/ray.json");

/// One example of the shared corpus (`tests/corpus/`): a spec and the exact findings
/// the demo user gets for it on the demo catalog.
#[derive(Clone, Debug)]
pub struct Case {
    /// The corpus file it comes from.
    pub file: &'static str,
    /// What it shows.
    pub name: String,
    /// The spec as JSON (it may have the wrong shape on purpose).
    pub spec: serde_json::Value,
    /// The findings it must produce, as `(path, code)`, sorted.
    pub findings: Vec<(String, String)>,
}

const CORPUS: [(&str, &str); 6] = [
    ("basic", include_str!("../../tests/corpus/basic.json")),
    (
        "environment",
        include_str!("../../tests/corpus/environment.json"),
    ),
    ("mounts", include_str!("../../tests/corpus/mounts.json")),
    ("compute", include_str!("../../tests/corpus/compute.json")),
    ("advanced", include_str!("../../tests/corpus/advanced.json")),
    ("ray", include_str!("../../tests/corpus/ray.json")),
];

/// Every corpus case, with its patch applied.
///
/// # Panics
///
/// When a corpus file is not valid JSON of the documented shape: the corpus ships
/// with the crate, so that is a bug in the corpus.
pub fn corpus() -> Vec<Case> {
    #[derive(serde::Deserialize)]
    struct Raw {
        name: String,
        base: String,
        patch: serde_json::Value,
        findings: Vec<(String, String)>,
    }
    let mut cases = Vec::new();
    for (file, text) in CORPUS {
        let raws: Vec<Raw> = serde_json::from_str(text)
            .unwrap_or_else(|e| panic!("corpus file {file} is invalid: {e}"));
        for raw in raws {
            let mut spec: serde_json::Value = match raw.base.as_str() {
                "pytorch" => serde_json::from_str(PYTORCH_EXAMPLE).expect("the example is JSON"),
                "ray" => serde_json::from_str(RAY_EXAMPLE).expect("the example is JSON"),
                _ => serde_json::json!({}),
            };
            json_patch::merge(&mut spec, &expand_lengths(raw.patch));
            let mut findings = raw.findings;
            findings.sort();
            cases.push(Case {
                file,
                name: raw.name,
                spec,
                findings,
            });
        }
    }
    cases
}

/// `"@N"` in a patch stands for N characters `x`, so length limits fit in the corpus.
fn expand_lengths(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(s) => match s.strip_prefix('@').and_then(|n| n.parse::<usize>().ok()) {
            Some(n) => Value::String("x".repeat(n)),
            None => Value::String(s),
        },
        Value::Array(items) => Value::Array(items.into_iter().map(expand_lengths).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, expand_lengths(v)))
                .collect(),
        ),
        other => other,
    }
}

/// The findings [`crate::check_json`] gives for a corpus case's spec sent as JSON text,
/// as `(path, code)`, sorted; a spec of the wrong shape gives its shape findings.
pub fn findings_for(spec: &serde_json::Value) -> Vec<(String, String)> {
    let report = crate::check_json(&spec.to_string(), &catalog(), &usage(), &user()).issues;
    let mut findings: Vec<(String, String)> = report
        .issues()
        .iter()
        .map(|i| (i.path.to_string(), i.code.code().to_owned()))
        .collect();
    findings.sort();
    findings
}

/// The codes [`crate::check_json`] gives for a corpus case's spec sent as JSON text,
/// sorted; a spec of the wrong shape gives its shape findings.
pub fn codes_for(spec: &serde_json::Value) -> Vec<String> {
    let report = crate::check_json(&spec.to_string(), &catalog(), &usage(), &user()).issues;
    let mut codes: Vec<String> = report.codes().into_iter().map(str::to_owned).collect();
    codes.sort();
    codes
}

/// The demo user: `alice`, member of `nlp` and `vision`.
pub fn user() -> User {
    User {
        name: "alice".into(),
        org: "Acme AI".into(),
        tenant_id: "t-acme".into(),
    }
}

/// The PyTorchJob example: passes every rule on the demo catalog and starts now.
pub fn pytorch() -> crate::TaskSpec {
    crate::parse_spec(PYTORCH_EXAMPLE).expect("the example parses")
}

/// The RayJob example: passes every rule on the demo catalog and starts now.
pub fn ray() -> crate::TaskSpec {
    crate::parse_spec(RAY_EXAMPLE).expect("the example parses")
}

/// The RayJob example moved to sh-a's reserved `pool`: one worker of one A100 and a head
/// of its own spec, `cpu-8c`, which the demo user has no reserved quota for there.
pub fn ray_with_cpu_head_on_sh_a(pool: &str) -> crate::TaskSpec {
    ray().with(|s| {
        s.basic.region = "cn-east".into();
        s.basic.cluster = "sh-a".into();
        s.compute.pool = Some(pool.into());
        s.compute.specs = vec!["a100-1g".into()];
        s.compute.units_per_node = 1;
        s.compute.workers = 1;
        s.compute.head_spec = Some("cpu-8c".into());
        s.ray.autoscaling.enabled = false;
    })
}

/// The demo catalog file: what the server loads when `BERTH_CATALOG` names none, through
/// the same loader ([`CatalogFile::from_json`]).
pub const CATALOG_FILE: &str = include_str!("../demo/catalog.json");

fn file() -> CatalogFile {
    CatalogFile::from_json(CATALOG_FILE).expect("the demo catalog file is valid")
}

/// The demo catalog: two regions, three clusters, H100, A100, L40S and CPU pools.
pub fn catalog() -> Catalog {
    file().catalog
}

/// What is in use in the demo at start: some nodes busy, quotas some demo tasks exceed.
pub fn usage() -> Usage {
    file().usage
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check;

    #[test]
    fn both_examples_pass_every_rule_and_start_now() {
        for text in [PYTORCH_EXAMPLE, RAY_EXAMPLE] {
            let spec = crate::parse_spec(text).expect("examples parse");
            let result = check(&spec, &catalog(), &usage(), &user());
            assert!(!result.issues.has_errors(), "{}", result.issues);
            assert!(
                result
                    .plan
                    .expect("examples are complete")
                    .chosen()
                    .is_some()
            );
        }
    }

    #[test]
    fn the_demo_catalog_round_trips_through_json() {
        let json = serde_json::to_string(&file()).expect("serialises");
        assert_eq!(CatalogFile::from_json(&json).expect("parses"), file());
    }

    #[test]
    fn the_demo_has_busy_nodes_and_used_quota() {
        let usage = usage();
        assert_eq!(usage.allocated("sh-a-h100-00").gpu, 8);
        assert_eq!(usage.allocated("sh-a-h100-05").gpu, 0);
        assert_eq!(
            usage
                .quota_used(
                    "alice",
                    crate::vocab::ResourceKind::Reserved,
                    "sh-a-h100",
                    "h100-1g"
                )
                .gpu,
            16
        );
    }
}
