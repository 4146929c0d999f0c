//! Cost of one registration at N = 500, 2,000 and 8,000 registered agents, through the
//! filesystem store, in both persistence modes (see BENCHMARKS.md, "Registry").
//!
//! - `plain/N`: the default mode; the folder holds N registrations, then `iters` more are
//!   timed, each rewriting `agent-sessions.json`.
//! - `journal/N`: `JournalMode::DEFAULT_ON` in steady state; the folder holds N registrations,
//!   then registrations are timed through whole compaction cycles: appends until the size
//!   trigger fires, *including* the compaction it runs. Time per iteration = time per
//!   registration, compaction amortised over its cycle.
//! - `journal_close/N`: a batch of N registrations into a folder holding N, *then `close()`*
//!   (so the seed's file has them all); time per iteration = one batch (divide by N).

use std::time::{Duration, Instant};

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use serde_json::json;
use session_state::registry::{AgentRegistry, JournalMode, SESSIONS_KEY, to_python_json};
use session_state::{FixedClock, Key, MemoryStore, Store};
use session_state_fs::{Durability, FsStore};

const SIZES: [usize; 3] = [500, 2_000, 8_000];

fn result(i: usize) -> serde_json::Value {
    json!({"spec_id": format!("SPEC-{i}"), "files_created": [format!(".moai/specs/{i}/spec.md")], "status": "success"})
}

/// A folder whose `agent-sessions.json` already holds `n` registrations.
fn folder_with(n: usize) -> (tempfile::TempDir, FsStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path())
        .unwrap()
        .with_durability(Durability::Atomic);
    // Built in memory (journal mode: O(1) a registration), then written as the seed's file.
    let clock = FixedClock::at("2026-11-29T17:46:13.206964Z").unwrap();
    let memory =
        AgentRegistry::new(MemoryStore::new(), clock).with_journal(JournalMode::DEFAULT_ON);
    for i in 0..n {
        let chain = format!("chain-{}", i % 50);
        memory
            .register(
                &format!("agent-{i}"),
                &format!("id-{i}"),
                result(i),
                Some(&chain),
            )
            .unwrap();
    }
    let mut doc = memory.load().unwrap();
    doc.journal_folded = None;
    store
        .write(
            &Key::new(SESSIONS_KEY).unwrap(),
            &to_python_json(&doc).unwrap(),
        )
        .unwrap();
    (dir, store)
}

/// Whole compaction cycles from a folder holding `n`, scaled to `iters` registrations.
fn journal_cycles(n: usize, iters: u64) -> Duration {
    let clock = FixedClock::at("2026-11-29T18:00:00.123456Z").unwrap();
    let mut done: u64 = 0;
    let mut total = Duration::ZERO;
    while done < iters {
        let (_dir, store) = folder_with(n);
        let reg = AgentRegistry::new(store, clock).with_journal(JournalMode::DEFAULT_ON);
        // Opening: a handle folds the journal once before its first append (not a
        // registration's cost).
        reg.compact().unwrap();
        let start = Instant::now();
        loop {
            let i = usize::try_from(done).unwrap();
            reg.register("bench-agent", &format!("new-{i}"), result(i), Some("bench"))
                .unwrap();
            done += 1;
            if reg.journal_pending_bytes() == 0 {
                break;
            }
        }
        total += start.elapsed();
    }
    #[allow(clippy::cast_precision_loss)]
    total.mul_f64(iters as f64 / done as f64)
}

/// `count` registrations into a folder already holding `n`, then `close()`.
fn run(n: usize, count: u64, mode: JournalMode) -> Duration {
    let (_dir, store) = folder_with(n);
    let clock = FixedClock::at("2026-11-29T18:00:00.123456Z").unwrap();
    let reg = AgentRegistry::new(store, clock).with_journal(mode);
    reg.compact().unwrap();
    let start = Instant::now();
    for i in 0..count {
        let i = usize::try_from(i).unwrap();
        reg.register("bench-agent", &format!("new-{i}"), result(i), Some("bench"))
            .unwrap();
    }
    reg.close().unwrap();
    start.elapsed()
}

fn registration(c: &mut Criterion) {
    let mut group = c.benchmark_group("registry_register");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    for n in SIZES {
        group.bench_with_input(BenchmarkId::new("plain", n), &n, |b, &n| {
            b.iter_custom(|iters| run(n, iters, JournalMode::Off));
        });
        group.bench_with_input(BenchmarkId::new("journal", n), &n, |b, &n| {
            b.iter_custom(|iters| journal_cycles(n, iters));
        });
    }
    group.finish();
    let mut group = c.benchmark_group("registry_register_batch");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    for n in SIZES {
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("journal_close", n), &n, |b, &n| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| run(n, n as u64, JournalMode::DEFAULT_ON))
                    .sum()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, registration);
criterion_main!(benches);
