//! Benchmarks for the domain crate. Figures are read as ratios to a baseline measured in
//! the same run (parsing the same spec; scanning the same nodes), because these machines
//! are shared and noisy. Run: `cargo bench -p berth-shared --features demo`.

use criterion::{Criterion, criterion_group, criterion_main};
use shared::catalog::Node;
use shared::quota::{Fit, Slot, gang_fit, gang_place};
use shared::{Resources, TaskSpec};
use std::hint::black_box;

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

fn validation(c: &mut Criterion) {
    let text = typical_spec();
    let catalog = shared::demo::catalog();
    let user = shared::demo::user();
    let spec = TaskSpec::from_json(&text).expect("the typical spec parses");
    let check = shared::check(&spec, &catalog, &user);
    assert!(!check.issues.has_errors(), "{}", check.issues);
    assert_eq!(check.plan.as_ref().map(|p| p.candidates.len()), Some(2));

    let mut group = c.benchmark_group("validation");
    group.bench_function("baseline: parse the spec JSON", |b| {
        b.iter(|| TaskSpec::from_json(black_box(&text)))
    });
    group.bench_function("check: every rule and the plan", |b| {
        b.iter(|| shared::check(black_box(&spec), black_box(&catalog), black_box(&user)))
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
        b.iter(|| shared::check(black_box(&many), black_box(&catalog), black_box(&user)))
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
            free: Resources::new(8, 192, 1800),
            labels: Default::default(),
        })
        .collect();
    let mut spec = TaskSpec::from_json(&typical_spec()).expect("parses");
    spec.compute.workers = 255;
    let user = shared::demo::user();
    c.bench_function("plan: 5000-node pool, 256 replicas, 2 specs", |b| {
        b.iter(|| shared::quota::plan(black_box(&spec), black_box(&catalog), black_box(&user)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_secs(1)).measurement_time(std::time::Duration::from_secs(3));
    targets = validation, placement
}
criterion_main!(benches);
