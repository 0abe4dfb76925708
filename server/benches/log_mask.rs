//! A log read by someone other than its owner: its hidden values masked. A 2.5 MB log of
//! 20,000 lines, each printing one of 1,000 values of 24 characters, masked for all
//! 1,000 values hidden, against the same log masked for one of them (the baseline, in
//! the same run): the figure to compare across runs is their ratio. Before the values
//! were walked as a trie, a read of such a log took a core for most of a minute
//! (BENCHMARKS.md). Run: `cargo bench -p berth-server --bench log_mask`.

use criterion::{Criterion, criterion_group, criterion_main};
use server::LogMask;
use std::hint::black_box;

/// `n` values of 24 letters and digits, each unlike the others (a fixed sequence).
fn values(n: usize) -> Vec<String> {
    const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..n)
        .map(|_| {
            (0..24)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    char::from(CHARS[usize::try_from(seed >> 58).unwrap_or(0) % CHARS.len()])
                })
                .collect()
        })
        .collect()
}

fn masked(values: &[String], log: &[u8]) -> Vec<u8> {
    let mut mask = LogMask::new(values.iter().cloned());
    let mut out = mask.push(log);
    out.extend(mask.finish());
    out
}

fn bench(c: &mut Criterion) {
    let all = values(1_000);
    let log: Vec<u8> = (0..20_000)
        .map(|i| format!("{i} {} {}\n", all[i % all.len()], "x".repeat(80)))
        .collect::<String>()
        .into_bytes();
    let mut group = c.benchmark_group("mask a 2.5 MB log");
    group.sample_size(10);
    for hidden in [1, 1_000] {
        group.bench_function(format!("{hidden} hidden values"), |b| {
            b.iter(|| black_box(masked(&all[..hidden], black_box(&log))));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
