//! Benchmarks for the domain crate. Figures are read as ratios to a baseline measured in
//! the same run (parsing the same spec; schema-checking the PyTorchJob it renders to;
//! scanning the same nodes), because these machines are shared and noisy.
//! Run: `cargo bench -p berth-shared --features demo`.
//!
//! The schema baseline reads the upstream PyTorchJob CRD from the folder in
//! `BERTH_K8S_CRDS` (default `../shared/k8s/crds`; a relative path is taken from the
//! workspace root). Without it, that one benchmark is skipped.

use criterion::{Criterion, criterion_group, criterion_main};
use shared::catalog::Node;
use shared::quota::{Fit, Slot, gang_fit, gang_place};
use shared::{Resources, TaskSpec};
use std::hint::black_box;
use std::path::{Path, PathBuf};

/// A full typical spec: 10 env vars, 3 mounts, 2 specs in priority order.
fn typical_spec() -> String {
    let mut spec: serde_json::Value =
        serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).expect("example is JSON");
    spec["environment"]["env"] = (0..10)
        .map(|i| serde_json::json!({ "name": format!("VAR_{i}"), "value": format!("value-{i}") }))
        .collect();
    spec["environment"]["command"] =
        "torchrun --nnodes \"$WORLD_SIZE\" --nproc_per_node 1 --node_rank \"$RANK\" train.py"
            .into();
    spec["compute"] = serde_json::json!({
        "kind": "reserved", "pool": "sh-a-h100", "workers": 1, "instance_type": "gpu",
        "specs": ["h100-1g", "h100-8g"], "units_per_node": 1
    });
    spec.to_string()
}

/// The PyTorchJob the typical spec becomes, written out by hand: what the Kubernetes API
/// server would check against the CRD's schema.
fn rendered_pytorch_job() -> serde_json::Value {
    let env: Vec<serde_json::Value> = (0..10)
        .map(|i| serde_json::json!({ "name": format!("VAR_{i}"), "value": format!("value-{i}") }))
        .chain(
            [
                ("TZ", "Asia/Shanghai"),
                ("X_USER_NAME", "alice"),
                ("X_REGION", "cn-east"),
            ]
            .map(|(name, value)| serde_json::json!({ "name": name, "value": value })),
        )
        .collect();
    let resources = serde_json::json!({ "nvidia.com/gpu": "1", "cpu": "24", "memory": "225Gi" });
    let template = serde_json::json!({
        "metadata": { "labels": { "berth.dev/task": "llama-finetune-x7k2p", "team": "nlp", "stage": "finetune" } },
        "spec": {
            "nodeSelector": { "berth.dev/gpu-model": "h100" },
            "containers": [{
                "name": "pytorch",
                "image": "registry.berth.dev/library/pytorch:2.5.1-cuda12.4",
                "imagePullPolicy": "IfNotPresent",
                "command": ["bash", "-c",
                    "torchrun --nnodes \"$WORLD_SIZE\" --nproc_per_node 1 --node_rank \"$RANK\" train.py"],
                "env": env,
                "ports": [
                    { "name": "pytorchjob-port", "containerPort": 23456, "protocol": "TCP" },
                    { "name": "metrics", "containerPort": 9090, "protocol": "TCP" }
                ],
                "resources": { "limits": resources, "requests": resources },
                "volumeMounts": [
                    { "name": "vol-ckpt", "mountPath": "/volume/ckpt" },
                    { "name": "ds-c4", "mountPath": "/mnt/data/c4", "readOnly": true },
                    { "name": "m-llama-8b", "mountPath": "/mnt/models/llama", "readOnly": true }
                ]
            }],
            "volumes": [
                { "name": "vol-ckpt", "persistentVolumeClaim": { "claimName": "vol-ckpt" } },
                { "name": "ds-c4", "persistentVolumeClaim": { "claimName": "ds-c4", "readOnly": true } },
                { "name": "m-llama-8b", "persistentVolumeClaim": { "claimName": "m-llama-8b", "readOnly": true } }
            ]
        }
    });
    let replica = |replicas: u32| serde_json::json!({ "replicas": replicas, "restartPolicy": "OnFailure", "template": template });
    serde_json::json!({
        "apiVersion": "kubeflow.org/v1",
        "kind": "PyTorchJob",
        "metadata": {
            "name": "llama-finetune-x7k2p",
            "namespace": "t-acme-nlp",
            "labels": { "team": "nlp", "stage": "finetune", "berth.dev/user": "alice" }
        },
        "spec": {
            "runPolicy": { "backoffLimit": 3, "cleanPodPolicy": "None" },
            "pytorchReplicaSpecs": { "Master": replica(1), "Worker": replica(1) }
        }
    })
}

/// The folder of upstream CRDs (see the crate docs above).
fn crds_dir() -> PathBuf {
    let dir = std::env::var_os("BERTH_K8S_CRDS")
        .map_or_else(|| PathBuf::from("../shared/k8s/crds"), PathBuf::from);
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir)
}

/// The served `v1` openAPIV3Schema of the PyTorchJob CRD, or why it could not be read.
fn pytorch_job_schema() -> Result<serde_json::Value, String> {
    let path = crds_dir().join("kubeflow.org_pytorchjobs.yaml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let docs = yaml_rust2::YamlLoader::load_from_str(&text).map_err(|e| e.to_string())?;
    let crd = docs.first().map(yaml_to_json).ok_or("no YAML document")?;
    let versions = crd["spec"]["versions"].as_array().ok_or("no versions")?;
    versions
        .iter()
        .find(|v| v["name"] == "v1")
        .map(|v| v["schema"]["openAPIV3Schema"].clone())
        .ok_or_else(|| "no v1 schema".to_owned())
}

fn yaml_to_json(yaml: &yaml_rust2::Yaml) -> serde_json::Value {
    use serde_json::Value;
    use yaml_rust2::Yaml;
    match yaml {
        Yaml::Real(r) => r.parse::<f64>().map_or(Value::Null, Value::from),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::String(s) => Value::from(s.as_str()),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(items) => items.iter().map(yaml_to_json).collect(),
        Yaml::Hash(map) => map
            .iter()
            .map(|(k, v)| {
                let key = match k {
                    Yaml::String(s) => s.clone(),
                    other => yaml_to_json(other).to_string(),
                };
                (key, yaml_to_json(v))
            })
            .collect::<serde_json::Map<_, _>>()
            .into(),
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

fn validation(c: &mut Criterion) {
    let text = typical_spec();
    let catalog = shared::demo::catalog();
    let user = shared::demo::user();
    let usage = shared::demo::usage();
    let spec = shared::parse_spec(&text).expect("the typical spec parses");
    let check = shared::check(&spec, &catalog, &usage, &user);
    assert!(!check.issues.has_errors(), "{}", check.issues);
    assert_eq!(check.plan.as_ref().map(|p| p.candidates.len()), Some(2));

    let mut group = c.benchmark_group("validation");
    // The Kubernetes API server's way: decode the rendered PyTorchJob and check it
    // against the CRD's openAPIV3Schema (OpenAPI 3.0 schemas are draft 4 at heart).
    match pytorch_job_schema() {
        Ok(schema) => {
            let validator = jsonschema::options()
                .with_draft(jsonschema::Draft::Draft4)
                .build(&schema)
                .expect("the CRD schema compiles");
            let job = rendered_pytorch_job();
            assert!(validator.is_valid(&job), "the rendered PyTorchJob is valid");
            let mut broken = job.clone();
            broken["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] = "two".into();
            assert!(!validator.is_valid(&broken), "the schema checks replicas");
            let manifest = job.to_string();
            group.bench_function(
                "baseline: schema-check the rendered PyTorchJob (JSON text to errors)",
                |b| {
                    b.iter(|| {
                        let job: serde_json::Value =
                            serde_json::from_str(black_box(&manifest)).expect("JSON");
                        validator.iter_errors(&job).count()
                    })
                },
            );
        }
        Err(why) => eprintln!("skipping the schema baseline: {why}"),
    }
    group.bench_function("baseline: parse the spec JSON", |b| {
        b.iter(|| shared::parse_spec(black_box(&text)))
    });
    // How every spec was read before: tracking the path on every read, good or bad.
    group.bench_function(
        "before: parse tracking paths (serde_path_to_error), then check",
        |b| {
            b.iter(|| {
                let mut de = serde_json::Deserializer::from_str(black_box(&text));
                let spec: TaskSpec = serde_path_to_error::deserialize(&mut de).expect("parses");
                shared::check(&spec, &catalog, &usage, &user)
            })
        },
    );
    group.bench_function("parse + check: JSON text to findings and plan", |b| {
        b.iter(|| {
            shared::check_json(
                black_box(&text),
                black_box(&catalog),
                black_box(&usage),
                black_box(&user),
            )
        })
    });
    // A spec of the wrong shape near its end: the quick read fails, the second read
    // names the field.
    let wrong = text.replace("\"units_per_node\":1", "\"units_per_node\":\"one\"");
    assert_eq!(
        shared::parse_spec(&wrong).unwrap_err().issues()[0]
            .path
            .to_string(),
        "compute.units_per_node"
    );
    group.bench_function("parse: a spec of the wrong shape (one read)", |b| {
        b.iter(|| shared::parse_spec(black_box(&wrong)))
    });
    group.bench_function("check: every rule and the plan", |b| {
        b.iter(|| {
            shared::check(
                black_box(&spec),
                black_box(&catalog),
                black_box(&usage),
                black_box(&user),
            )
        })
    });
    // A hostile body: 10,000 mounts (about what fits in the 1 MiB body limit), half of
    // them at one path. The rules must stay linear in it.
    let mut many = spec.clone();
    many.environment.storage = (0..10_000)
        .map(|i| shared::task::Mount {
            id: "vol-ckpt".into(),
            path: if i % 2 == 0 {
                "/volume/same".into()
            } else {
                format!("/volume/same/{i}")
            },
        })
        .collect();
    group.sample_size(20);
    group.bench_function("check: 10,000 mounts, 5,000 at one path", |b| {
        b.iter(|| {
            shared::check(
                black_box(&many),
                black_box(&catalog),
                black_box(&usage),
                black_box(&user),
            )
        })
    });
    group.finish();
}

/// 5,000 eight-GPU nodes, a third of them busy, and 256 replicas of 4 GPUs.
fn cluster() -> Vec<Slot> {
    let total = Resources::new(8, 96, 960);
    (0..5_000u64)
        .map(|i| {
            let free = match i % 3 {
                0 => Resources::ZERO,
                1 => Resources::new(4, 48, 480),
                _ => total,
            };
            Slot {
                free,
                total,
                worker: true,
                head: i % 2 == 0,
            }
        })
        .collect()
}

fn placement(c: &mut Criterion) {
    let slots = cluster();
    let need = Resources::new(4, 48, 480);
    let head = Resources::new(0, 8, 32);
    // 128 empty nodes host 2 replicas each; the head shares one of them with a worker.
    assert_eq!(gang_fit(&slots, need, 256, None), Fit::Now { nodes: 128 });
    assert_eq!(
        gang_fit(&slots, need, 255, Some(head)),
        Fit::Now { nodes: 128 }
    );

    let mut group = c.benchmark_group("gang fit, 5000 nodes x 256 replicas");
    group.bench_function("baseline: sum free GPUs over the nodes", |b| {
        b.iter(|| black_box(&slots).iter().map(|s| s.free.gpu).sum::<u64>())
    });
    group.bench_function("identical replicas", |b| {
        b.iter(|| gang_fit(black_box(&slots), need, 256, None))
    });
    group.bench_function("with a distinct Ray head", |b| {
        b.iter(|| gang_fit(black_box(&slots), need, 255, Some(head)))
    });
    group.bench_function("placement (gang_place) with a distinct Ray head", |b| {
        b.iter(|| gang_place(black_box(&slots), need, 255, Some(head)))
    });
    group.finish();

    // The whole plan on a catalog with such a pool: slot building, quota and fit per spec.
    let mut catalog = shared::demo::catalog();
    let pool = &mut catalog.regions[0].clusters[0].pools[0];
    pool.nodes = (0..5_000)
        .map(|i| Node {
            name: format!("n{i}"),
            gpu_model: Some("H100".into()),
            total: Resources::new(8, 192, 1800),
            labels: Default::default(),
        })
        .collect();
    let mut spec = shared::parse_spec(&typical_spec()).expect("parses");
    spec.compute.workers = 255;
    let user = shared::demo::user();
    let usage = shared::demo::usage();
    c.bench_function("plan: 5000-node pool, 256 replicas, 2 specs", |b| {
        b.iter(|| {
            shared::quota::plan(
                black_box(&spec),
                black_box(&catalog),
                black_box(&usage),
                black_box(&user),
            )
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_secs(1)).measurement_time(std::time::Duration::from_secs(3));
    targets = validation, placement
}
criterion_main!(benches);
