//! Orchestrator benches: save and load of a 200-agent session (memory and filesystem stores),
//! and `list_history(limit 10)` over 10,000 archived sessions with and without the index.
//!
//! Run: `cargo bench -p session-state --bench orchestrator -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use session_state::orchestrator::{HistoryQuery, OrchestratorStore, history_dir};
use session_state::{MemoryStore, Store};
use session_state_fs::{Durability, FsStore};

mod common;
use common::{archived, clock, session};

fn save_load(c: &mut Criterion) {
    let doc = session(200);
    let mut group = c.benchmark_group("orchestrator_200_agents");
    let memory = OrchestratorStore::new(MemoryStore::new(), clock());
    let dir = tempfile::tempdir().unwrap();
    let fs = OrchestratorStore::new(
        FsStore::new(dir.path())
            .unwrap()
            .with_durability(Durability::Atomic),
        clock(),
    );
    group.bench_function("save/memory", |b| {
        b.iter(|| memory.save(&mut black_box(doc.clone())).unwrap());
    });
    group.bench_function("save/fs", |b| {
        b.iter(|| fs.save(&mut black_box(doc.clone())).unwrap());
    });
    group.bench_function("load/memory", |b| {
        b.iter(|| black_box(memory.load().unwrap()));
    });
    group.bench_function("load/fs", |b| b.iter(|| black_box(fs.load().unwrap())));
    group.finish();
}

fn history(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let fs_store = FsStore::new(dir.path())
        .unwrap()
        .with_durability(Durability::Atomic);
    let folder = fs_store.path(&history_dir());
    std::fs::create_dir_all(&folder).unwrap();
    for (name, bytes) in archived(10_000) {
        std::fs::write(folder.join(name), bytes).unwrap();
    }
    let sessions = OrchestratorStore::new(fs_store, clock());
    let query = HistoryQuery::default();
    // Build the index once, and check both ways agree.
    let indexed = sessions.list_history(&query).unwrap();
    assert_eq!(indexed, sessions.list_history_full_scan(&query).unwrap());
    assert_eq!(indexed.total, 10_000);
    let mut group = c.benchmark_group("orchestrator_history_10000");
    group.sample_size(10);
    group.bench_function("list_history_limit10/indexed", |b| {
        b.iter(|| black_box(sessions.list_history(&query).unwrap()));
    });
    group.bench_function("list_history_limit10/full_scan", |b| {
        b.iter(|| black_box(sessions.list_history_full_scan(&query).unwrap()));
    });
    // For reference: the part of every listing spent listing the folder itself.
    group.bench_function("store_list_only", |b| {
        b.iter(|| black_box(sessions.store().list(&history_dir()).unwrap()));
    });
    group.finish();
}

criterion_group!(benches, save_load, history);
criterion_main!(benches);
