//! Admission at scale: one pass of the embedded scheduler over 10,000 queued gangs on a
//! 5,000-node pool (goal: at most 1 s on these 2 cores). The baseline, measured in the
//! same run, is one `shared::quota::plan` of one such gang on the same pool, so the
//! figure to compare across runs is the pass as a multiple of that plan.
//! Run: `cargo bench -p berth-server --bench admission`.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use server::scheduler::{Decision, Scheduler, Waiting};
use shared::catalog::Node;
use shared::task::{InstanceType, Priority, ResourceKind};
use shared::usage::Usage;
use shared::{Catalog, Resources, TaskId, TaskSpec, demo};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

const NODES: usize = 5_000;
const GANGS: u64 = 10_000;

/// The demo catalog with the Beijing shared pool grown to 5,000 empty eight-GPU A100
/// nodes, and alice's reserved A100 quota there large enough for all of them.
fn catalog() -> Arc<Catalog> {
    let mut catalog = demo::catalog();
    let pool = catalog
        .regions
        .iter_mut()
        .flat_map(|r| &mut r.clusters)
        .flat_map(|c| &mut c.pools)
        .find(|p| p.id == "bj-a-shared")
        .expect("the demo has the Beijing pool");
    let labels = pool.nodes[0].labels.clone();
    pool.nodes = (0..NODES)
        .map(|i| Node {
            name: format!("bj-a-a100-{i:04}"),
            gpu_model: Some("A100".into()),
            total: Resources::new(8, 96, 960),
            labels: labels.clone(),
        })
        .collect();
    for q in &mut catalog.quotas {
        if q.pool == "bj-a-shared" && q.spec == "a100-1g" && q.kind == Some(ResourceKind::Reserved)
        {
            q.limit = Resources::new(1 << 20, 12 << 20, 120 << 20);
        }
    }
    Arc::new(catalog)
}

/// A gang of two replicas of two A100s each (4 GPUs): 10,000 of them fill the pool.
fn gang() -> TaskSpec {
    demo::pytorch().with(|s| {
        s.basic.region = "cn-north".into();
        s.basic.cluster = "bj-a".into();
        s.compute.kind = Some(ResourceKind::Reserved);
        s.compute.pool = Some("bj-a-shared".into());
        s.compute.priority = Some(Priority::Normal);
        s.compute.guarantee = None;
        s.compute.instance_type = InstanceType::Gpu;
        s.compute.specs = vec!["a100-1g".into()];
        s.compute.units_per_node = 2;
        s.compute.workers = 1;
        s.environment.storage.clear();
        s.environment.datasets.clear();
        s.environment.models.clear();
    })
}

/// The queue after 10,000 submits (each checked and holding its quota).
fn queue(catalog: &Arc<Catalog>) -> Vec<Waiting> {
    let mut scheduler = Scheduler::new(Arc::clone(catalog), Usage::new());
    let spec = gang();
    for n in 0..GANGS {
        scheduler
            .submit(TaskId(format!("t-{n:05}")), spec.clone(), demo::user(), n)
            .expect("the gang is valid and within quota");
    }
    scheduler.queue().to_vec()
}

fn scheduler(catalog: &Arc<Catalog>, queue: &[Waiting]) -> Scheduler {
    let mut scheduler = Scheduler::new(Arc::clone(catalog), Usage::new());
    for w in queue {
        scheduler.restore_waiting(w.clone());
    }
    scheduler
}

fn admitted(decisions: &[Decision]) -> usize {
    decisions
        .iter()
        .filter(|d| matches!(d, Decision::Admit { .. }))
        .count()
}

fn admission(c: &mut Criterion) {
    let catalog = catalog();
    let queue = queue(&catalog);
    let user = demo::user();
    let spec = gang();
    // Every gang starts: the pass places all 10,000 on the 5,000 nodes.
    let decisions = scheduler(&catalog, &queue).admit();
    assert_eq!(admitted(&decisions), GANGS as usize, "every gang fits");

    let mut group = c.benchmark_group("admission, 10000 gangs on 5000 nodes");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    let empty = Usage::new();
    group.bench_function("baseline: plan one gang on the pool", |b| {
        b.iter(|| {
            shared::quota::plan(
                black_box(&spec),
                black_box(&catalog),
                black_box(&empty),
                black_box(&user),
            )
        })
    });
    group.bench_function("one admission pass over the whole queue", |b| {
        b.iter_batched(
            || scheduler(&catalog, &queue),
            |mut s| black_box(s.admit()),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, admission);
criterion_main!(benches);
