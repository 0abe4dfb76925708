//! The demo catalog and example specs the server uses by default (feature `demo`).
//!
//! Two regions, three clusters, pools of H100, A100, L40S and CPU nodes with some of
//! them busy, and quotas that some demo tasks exceed, so every outcome of the plan can
//! be seen in the console.

use crate::catalog::{
    AccessMode, Catalog, Cluster, DataItem, IdleFragment, IdleOffer, Image, InstanceSpec, Node,
    PersistentEnvVar, Pool, ProjectGroup, Quota, Region, Sharing, TagPolicy, User, Volume,
};
use crate::resources::Resources;
use crate::task::{IdleStability, ImageSource, InstanceType, ResourceKind, Tag};

/// A complete PyTorchJob that passes every rule on the demo catalog.
pub const PYTORCH_EXAMPLE: &str = include_str!("../examples/pytorch.json");
/// A complete RayJob that passes every rule on the demo catalog.
pub const RAY_EXAMPLE: &str = include_str!("../examples/ray.json");

/// One example of the shared corpus (`tests/corpus/`): a spec and the exact codes
/// the demo user gets for it on the demo catalog.
#[derive(Clone, Debug)]
pub struct Case {
    /// The corpus file it comes from.
    pub file: &'static str,
    /// What it shows.
    pub name: String,
    /// The spec as JSON (it may have the wrong shape on purpose).
    pub spec: serde_json::Value,
    /// The codes it must produce, sorted.
    pub codes: Vec<String>,
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
        codes: Vec<String>,
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
            let mut codes = raw.codes;
            codes.sort();
            cases.push(Case {
                file,
                name: raw.name,
                spec,
                codes,
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

/// The codes [`crate::check_json`] gives for a corpus case's spec sent as JSON text,
/// sorted; a spec of the wrong shape gives its shape findings.
pub fn codes_for(spec: &serde_json::Value) -> Vec<String> {
    let report = crate::check_json(&spec.to_string(), &catalog(), &user()).issues;
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

fn node(name: String, model: Option<&str>, total: Resources, free: Resources) -> Node {
    let mut labels = std::collections::BTreeMap::new();
    labels.insert(
        "berth.dev/gpu-model".to_owned(),
        model.unwrap_or("cpu").to_lowercase(),
    );
    Node {
        name,
        gpu_model: model.map(str::to_owned),
        total,
        free,
        labels,
    }
}

/// `count` nodes named `prefix-<i>`, each with `total`, the i-th with `free(i)`.
fn nodes(
    prefix: &str,
    count: usize,
    model: Option<&str>,
    total: Resources,
    free: impl Fn(usize) -> Resources,
) -> Vec<Node> {
    (0..count)
        .map(|i| node(format!("{prefix}-{i:02}"), model, total, free(i)))
        .collect()
}

fn spec(
    id: &str,
    name: &str,
    model: Option<&str>,
    per_unit: Resources,
    max_units: u32,
) -> InstanceSpec {
    InstanceSpec {
        id: id.into(),
        name: name.into(),
        instance_type: if model.is_some() {
            InstanceType::Gpu
        } else {
            InstanceType::Cpu
        },
        gpu_model: model.map(str::to_owned),
        per_unit,
        max_units_per_node: max_units,
    }
}

fn image(id: &str, source: ImageSource, address: &str, capabilities: &[&str]) -> Image {
    Image {
        id: id.into(),
        name: address.rsplit('/').next().unwrap_or(address).into(),
        source,
        address: address.into(),
        capabilities: capabilities.iter().map(|c| (*c).to_owned()).collect(),
    }
}

fn images() -> Vec<Image> {
    vec![
        image(
            "pytorch-2.5",
            ImageSource::BuiltIn,
            "registry.berth.dev/library/pytorch:2.5.1-cuda12.4",
            &["pytorch"],
        ),
        image(
            "ray-2.40",
            ImageSource::BuiltIn,
            "registry.berth.dev/library/ray:2.40.0-py311-gpu",
            &["ray", "ray-dashboard", "pytorch"],
        ),
        image(
            "ray-2.40-slim",
            ImageSource::BuiltIn,
            "registry.berth.dev/library/ray:2.40.0-slim",
            &["ray"],
        ),
        image(
            "acme-llm",
            ImageSource::Custom,
            "registry.berth.dev/acme/llm-train:v7",
            &["pytorch", "deepspeed"],
        ),
    ]
}

fn volumes() -> Vec<Volume> {
    vec![
        Volume {
            id: "vol-shared".into(),
            name: "team-shared (RWX)".into(),
            access_mode: AccessMode::ReadWriteMany,
            capacity_gib: 10_240,
        },
        Volume {
            id: "vol-ckpt".into(),
            name: "checkpoints (RWX)".into(),
            access_mode: AccessMode::ReadWriteMany,
            capacity_gib: 20_480,
        },
        Volume {
            id: "vol-scratch".into(),
            name: "scratch (RWO)".into(),
            access_mode: AccessMode::ReadWriteOnce,
            capacity_gib: 500,
        },
    ]
}

fn datasets() -> Vec<DataItem> {
    vec![
        DataItem {
            id: "ds-c4".into(),
            name: "c4-en".into(),
            version: "2024-06".into(),
        },
        DataItem {
            id: "ds-imagenet".into(),
            name: "imagenet-1k".into(),
            version: "v2".into(),
        },
    ]
}

fn models() -> Vec<DataItem> {
    vec![
        DataItem {
            id: "m-llama-8b".into(),
            name: "llama-3.1-8b".into(),
            version: "base".into(),
        },
        DataItem {
            id: "m-qwen-7b".into(),
            name: "qwen2.5-7b".into(),
            version: "instruct".into(),
        },
    ]
}

/// A cluster with the images, volumes, datasets and models every demo cluster offers.
fn with_catalog_items() -> Cluster {
    Cluster {
        images: images(),
        volumes: volumes(),
        datasets: datasets(),
        models: models(),
        ..Cluster::default()
    }
}

const H100: Option<&str> = Some("H100");
const A100: Option<&str> = Some("A100");
const L40S: Option<&str> = Some("L40S");

/// The demo catalog.
pub fn catalog() -> Catalog {
    let h100_node = Resources::new(8, 192, 1800);
    let a100_node = Resources::new(8, 96, 960);
    let l40s_node = Resources::new(4, 64, 480);
    let cpu_node = Resources::new(0, 96, 384);
    let specs_east_a = vec![
        spec(
            "h100-1g",
            "H100 ×1 · 24 vCPU · 225 GiB",
            H100,
            Resources::new(1, 24, 225),
            8,
        ),
        spec(
            "h100-8g",
            "H100 ×8 · 192 vCPU · 1800 GiB",
            H100,
            Resources::new(8, 192, 1800),
            1,
        ),
        spec(
            "a100-1g",
            "A100 ×1 · 12 vCPU · 120 GiB",
            A100,
            Resources::new(1, 12, 120),
            8,
        ),
        spec(
            "cpu-8c",
            "8 vCPU · 32 GiB",
            None,
            Resources::new(0, 8, 32),
            12,
        ),
    ];
    let east_a = Cluster {
        id: "sh-a".into(),
        name: "Shanghai A 上海 A".into(),
        pools: vec![
            Pool {
                id: "sh-a-h100".into(),
                name: "H100 dedicated 专属".into(),
                sharing: Sharing::Dedicated,
                kinds: vec![ResourceKind::Reserved],
                // Busy: two nodes full, the rest partly used.
                nodes: nodes("sh-a-h100", 6, H100, h100_node, |i| match i {
                    0 | 1 => Resources::ZERO,
                    2 => Resources::new(4, 96, 900),
                    _ => h100_node,
                }),
            },
            Pool {
                id: "sh-a-shared".into(),
                name: "A100 + CPU shared 共享".into(),
                sharing: Sharing::Shared,
                kinds: vec![
                    ResourceKind::Reserved,
                    ResourceKind::OnDemand,
                    ResourceKind::Spot,
                    ResourceKind::Idle,
                ],
                nodes: nodes("sh-a-a100", 8, A100, a100_node, |i| match i {
                    0..=4 => Resources::new(2, 24, 240),
                    _ => a100_node,
                })
                .into_iter()
                .chain(nodes("sh-a-cpu", 4, None, cpu_node, |i| {
                    if i == 0 {
                        Resources::new(0, 16, 64)
                    } else {
                        cpu_node
                    }
                }))
                .collect(),
            },
        ],
        specs: specs_east_a.clone(),
        idle: vec![
            IdleOffer {
                spec: "a100-1g".into(),
                stability: IdleStability::Medium,
                quantity: 12,
                fragments: vec![
                    IdleFragment { nodes: 1, units: 8 },
                    IdleFragment { nodes: 2, units: 2 },
                ],
            },
            IdleOffer {
                spec: "h100-1g".into(),
                stability: IdleStability::Low,
                quantity: 4,
                fragments: vec![IdleFragment { nodes: 1, units: 4 }],
            },
        ],
        ..with_catalog_items()
    };
    let east_b = Cluster {
        id: "sh-b".into(),
        name: "Shanghai B 上海 B".into(),
        pools: vec![Pool {
            id: "sh-b-l40s".into(),
            name: "L40S shared 共享".into(),
            sharing: Sharing::Shared,
            kinds: vec![ResourceKind::OnDemand, ResourceKind::Spot],
            nodes: nodes("sh-b-l40s", 10, L40S, l40s_node, |i| {
                if i < 7 {
                    Resources::ZERO
                } else {
                    Resources::new(2, 32, 240)
                }
            }),
        }],
        // The 8-card spec is sold here, but this pool has 4-card nodes only.
        specs: vec![
            spec(
                "l40s-1g",
                "L40S ×1 · 16 vCPU · 120 GiB",
                L40S,
                Resources::new(1, 16, 120),
                4,
            ),
            spec(
                "l40s-8g",
                "L40S ×8 · 128 vCPU · 960 GiB",
                L40S,
                Resources::new(8, 128, 960),
                1,
            ),
        ],
        idle: Vec::new(),
        ..with_catalog_items()
    };
    let north_a = Cluster {
        id: "bj-a".into(),
        name: "Beijing A 北京 A".into(),
        pools: vec![Pool {
            id: "bj-a-shared".into(),
            name: "A100 + CPU shared 共享".into(),
            sharing: Sharing::Shared,
            kinds: vec![
                ResourceKind::Reserved,
                ResourceKind::OnDemand,
                ResourceKind::Idle,
            ],
            nodes: nodes("bj-a-a100", 16, A100, a100_node, |_| a100_node)
                .into_iter()
                .chain(nodes("bj-a-cpu", 8, None, cpu_node, |_| cpu_node))
                .collect(),
        }],
        specs: specs_east_a
            .into_iter()
            .filter(|s| !s.id.starts_with("h100"))
            .collect(),
        idle: vec![IdleOffer {
            spec: "a100-1g".into(),
            stability: IdleStability::High,
            quantity: 64,
            fragments: vec![IdleFragment { nodes: 8, units: 8 }],
        }],
        ..with_catalog_items()
    };
    let quota = |kind, pool: &str, spec: &str, limit: Resources, used: Resources| Quota {
        user: "alice".into(),
        kind: Some(kind),
        pool: pool.into(),
        spec: spec.into(),
        limit,
        used,
    };
    Catalog {
        regions: vec![
            Region {
                id: "cn-east".into(),
                name: "East China 华东".into(),
                clusters: vec![east_a, east_b],
            },
            Region {
                id: "cn-north".into(),
                name: "North China 华北".into(),
                clusters: vec![north_a],
            },
        ],
        project_groups: vec![
            ProjectGroup {
                id: "nlp".into(),
                name: "NLP".into(),
                members: vec!["alice".into(), "bob".into()],
            },
            ProjectGroup {
                id: "vision".into(),
                name: "Vision 视觉".into(),
                members: vec!["alice".into()],
            },
            ProjectGroup {
                id: "speech".into(),
                name: "Speech 语音".into(),
                members: vec!["bob".into()],
            },
        ],
        tags: TagPolicy {
            validation: true,
            maintained: [
                "team:nlp",
                "team:vision",
                "stage:pretrain",
                "stage:finetune",
                "stage:eval",
                "priority:p0",
            ]
            .iter()
            .map(|t| {
                let (key, value) = t.split_once(':').expect("demo tags are key:value");
                Tag {
                    key: key.into(),
                    value: value.into(),
                }
            })
            .collect(),
        },
        persistent_env: vec![
            PersistentEnvVar {
                user: "alice".into(),
                name: "HF_HOME".into(),
                value: "/volume/hf".into(),
                hidden: false,
            },
            PersistentEnvVar {
                user: "alice".into(),
                name: "WANDB_API_KEY".into(),
                value: "wandb-demo-secret".into(),
                hidden: true,
            },
        ],
        time_zones: [
            "Asia/Shanghai",
            "Asia/Singapore",
            "Asia/Tokyo",
            "Europe/Berlin",
            "Europe/London",
            "America/Los_Angeles",
            "America/New_York",
            "UTC",
        ]
        .iter()
        .map(|z| (*z).to_owned())
        .collect(),
        image_pull_retries_default: 3,
        quotas: vec![
            // 16 of 32 H100s in use: a 4 × 8-GPU job exceeds it.
            quota(
                ResourceKind::Reserved,
                "sh-a-h100",
                "h100-1g",
                Resources::new(32, 768, 7200),
                Resources::new(16, 384, 3600),
            ),
            quota(
                ResourceKind::Reserved,
                "sh-a-h100",
                "h100-8g",
                Resources::new(32, 768, 7200),
                Resources::new(16, 384, 3600),
            ),
            quota(
                ResourceKind::Reserved,
                "sh-a-shared",
                "a100-1g",
                Resources::new(16, 192, 1920),
                Resources::new(4, 48, 480),
            ),
            quota(
                ResourceKind::OnDemand,
                "sh-a-shared",
                "a100-1g",
                Resources::new(32, 384, 3840),
                Resources::new(0, 0, 0),
            ),
            quota(
                ResourceKind::OnDemand,
                "sh-a-shared",
                "cpu-8c",
                Resources::new(0, 256, 1024),
                Resources::new(0, 32, 128),
            ),
            quota(
                ResourceKind::OnDemand,
                "sh-b-l40s",
                "l40s-1g",
                Resources::new(16, 256, 1920),
                Resources::new(8, 128, 960),
            ),
            quota(
                ResourceKind::OnDemand,
                "bj-a-shared",
                "a100-1g",
                Resources::new(64, 768, 7680),
                Resources::new(0, 0, 0),
            ),
            quota(
                ResourceKind::Reserved,
                "bj-a-shared",
                "a100-1g",
                Resources::new(64, 768, 7680),
                Resources::new(0, 0, 0),
            ),
            quota(
                ResourceKind::Reserved,
                "bj-a-shared",
                "cpu-8c",
                Resources::new(0, 128, 512),
                Resources::new(0, 0, 0),
            ),
            quota(
                ResourceKind::OnDemand,
                "bj-a-shared",
                "cpu-8c",
                Resources::new(0, 512, 2048),
                Resources::new(0, 0, 0),
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{TaskSpec, check};

    #[test]
    fn both_examples_pass_every_rule_and_start_now() {
        for text in [PYTORCH_EXAMPLE, RAY_EXAMPLE] {
            let spec = TaskSpec::from_json(text).expect("examples parse");
            let result = check(&spec, &catalog(), &user());
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
        let json = serde_json::to_string(&catalog()).expect("serialises");
        assert_eq!(Catalog::from_json(&json).expect("parses"), catalog());
    }
}
