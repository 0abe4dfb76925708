//! Rendering a 1,024-worker PyTorchJob, as a ratio to serialising the same object with
//! serde_json in the same run (these machines are shared and noisy, so only ratios
//! measured side by side mean anything).
//! Run: `cargo bench -p berth-shared --features demo --bench render`.

use criterion::{Criterion, criterion_group, criterion_main};
use shared::manifest::{SshKeyPair, render};
use std::hint::black_box;

fn rendering(c: &mut Criterion) {
    let spec = shared::demo::pytorch().with(|s| s.compute.workers = 1024);
    let catalog = shared::demo::catalog();
    let user = shared::demo::user();
    let key = SshKeyPair::placeholder();
    let name = "llama-finetune-bcdfg";
    let uuid = "5f0c8a3e-2b1d-4c6e-9f7a-1d2e3f4a5b6c";
    let objects = render(&spec, name, uuid, &catalog, &user, Some(&key)).expect("renders");
    let job = objects.last().expect("the job").clone();

    let mut group = c.benchmark_group("render");
    group.bench_function(
        "baseline: serde_json::to_vec of the rendered PyTorchJob",
        |b| b.iter(|| serde_json::to_vec(black_box(&job)).expect("serialises")),
    );
    group.bench_function(
        "baseline 2: serde_json::to_vec of every rendered object",
        |b| {
            b.iter(|| {
                black_box(&objects)
                    .iter()
                    .map(|o| serde_json::to_vec(o).expect("serialises").len())
                    .sum::<usize>()
            })
        },
    );
    group.bench_function("render: spec to objects (1,024 workers)", |b| {
        b.iter(|| {
            render(
                black_box(&spec),
                name,
                uuid,
                black_box(&catalog),
                &user,
                Some(&key),
            )
            .expect("renders")
        })
    });
    group.bench_function("render + serde_json::to_vec of every object", |b| {
        b.iter(|| {
            let objects = render(
                black_box(&spec),
                name,
                uuid,
                black_box(&catalog),
                &user,
                Some(&key),
            )
            .expect("renders");
            objects
                .iter()
                .map(|o| serde_json::to_vec(o).expect("serialises").len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, rendering);
criterion_main!(benches);
