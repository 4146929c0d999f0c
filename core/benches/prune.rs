//! What pruning the registry buys in plain mode (see BENCHMARKS.md, "Registry retention"):
//! the cost of one registration in a folder holding 8,000 agents, and in the same folder
//! after `prune` (older than 30 days) left the 500 recent ones; and the prune itself.
//!
//! - `register/before/8000`: plain mode, the folder holds 7,500 old and 500 recent agents;
//!   `iters` registrations are timed, each rewriting `agent-sessions.json`.
//! - `register/after/500`: the same folder once pruned, then timed the same way.
//! - `prune/8000`: one applied prune of that folder (7,500 agents and their chains removed).

use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use serde_json::json;
use session_state::registry::{
    AgentRegistry, JournalMode, PruneRegistryOptions, SESSIONS_KEY, to_python_json,
};
use session_state::{FixedClock, Key, MemoryStore, Store};
use session_state_fs::{Durability, FsStore};

const OLD: usize = 7_500;
const RECENT: usize = 500;
const NOW: &str = "2026-11-29T18:00:00.123456Z";

fn result(i: usize) -> serde_json::Value {
    json!({"spec_id": format!("SPEC-{i}"), "files_created": [format!(".moai/specs/{i}/spec.md")], "status": "success"})
}

/// A folder whose `agent-sessions.json` holds `OLD` agents registered in January (chains
/// `old-0..49`) and `RECENT` registered the day before `NOW` (chains `new-0..9`).
fn folder() -> (tempfile::TempDir, FsStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path())
        .unwrap()
        .with_durability(Durability::Atomic);
    let memory = MemoryStore::new();
    let register = |at: &str, range: std::ops::Range<usize>, chains: &str, every: usize| {
        let reg = AgentRegistry::new(&memory, FixedClock::at(at).unwrap())
            .with_journal(JournalMode::DEFAULT_ON);
        for i in range {
            let chain = format!("{chains}-{}", i % every);
            reg.register(
                &format!("agent-{i}"),
                &format!("id-{i}"),
                result(i),
                Some(&chain),
            )
            .unwrap();
        }
    };
    register("2026-01-01T10:00:00Z", 0..OLD, "old", 50);
    register("2026-11-28T10:00:00Z", OLD..OLD + RECENT, "new", 10);
    let mut doc = AgentRegistry::new(&memory, FixedClock::at(NOW).unwrap())
        .load()
        .unwrap();
    doc.journal_folded = None;
    store
        .write(
            &Key::new(SESSIONS_KEY).unwrap(),
            &to_python_json(&doc).unwrap(),
        )
        .unwrap();
    (dir, store)
}

fn registry(store: FsStore) -> AgentRegistry<FsStore, FixedClock> {
    AgentRegistry::new(store, FixedClock::at(NOW).unwrap())
}

fn prune(reg: &AgentRegistry<FsStore, FixedClock>) -> usize {
    let options = PruneRegistryOptions {
        older_than_days: 30,
        keep_agent_ids: Vec::new(),
        apply: true,
    };
    reg.prune(&options).unwrap().removed.len()
}

/// `count` plain-mode registrations into a fresh folder, pruned first when `pruned`.
fn run(count: u64, pruned: bool) -> Duration {
    let (_dir, store) = folder();
    let reg = registry(store);
    if pruned {
        assert_eq!(prune(&reg), OLD + 50, "7,500 agents and their 50 chains");
        assert_eq!(reg.load().unwrap().metadata.len(), RECENT);
    }
    let start = Instant::now();
    for i in 0..count {
        let i = usize::try_from(i).unwrap();
        reg.register("bench-agent", &format!("new-{i}"), result(i), Some("bench"))
            .unwrap();
    }
    start.elapsed()
}

fn retention(c: &mut Criterion) {
    let mut group = c.benchmark_group("registry_prune");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    group.bench_function(BenchmarkId::new("register/before", OLD + RECENT), |b| {
        b.iter_custom(|iters| run(iters, false));
    });
    group.bench_function(BenchmarkId::new("register/after", RECENT), |b| {
        b.iter_custom(|iters| run(iters, true));
    });
    group.bench_function(BenchmarkId::new("prune", OLD + RECENT), |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    let (_dir, store) = folder();
                    let reg = registry(store);
                    let start = Instant::now();
                    prune(&reg);
                    start.elapsed()
                })
                .sum()
        });
    });
    group.finish();
}

criterion_group!(benches, retention);
criterion_main!(benches);
