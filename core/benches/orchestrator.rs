//! Orchestrator benches: save and load of a 200-agent session (memory and filesystem stores),
//! and `list_history(limit 10)` over 10,000 archived sessions with and without the index.
//!
//! Run: `cargo bench -p session-state --bench orchestrator -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use session_state::orchestrator::{
    Agent, HistoryQuery, OrchestratorSession, OrchestratorStore, Project, history_dir,
};
use session_state::{FixedClock, MemoryStore, Store, Timestamp};
use session_state_fs::{Durability, FsStore};

fn clock() -> FixedClock {
    FixedClock::at("2025-12-27T12:30:00Z").unwrap()
}

fn session(agents: usize) -> OrchestratorSession {
    let now = Timestamp::parse("2025-12-27T10:30:00Z").unwrap();
    let project = Project::new("bench", "/path/to/bench", Some("main"));
    let mut doc = OrchestratorSession::new(
        "2025-12-27-bench0",
        "Benchmark goal",
        "default",
        project,
        now,
    );
    for i in 0..agents {
        let mut agent = Agent::new(
            format!("agent-{i}"),
            "code",
            format!("Task number {i} of the benchmark"),
            now,
        );
        agent.progress = u8::try_from(i % 101).ok();
        agent.context_tokens = Some(1000 + i as u64);
        doc.agents.push(agent);
    }
    doc.pending_tasks = (0..50).map(|i| format!("pending task {i}")).collect();
    doc
}

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
    let base = Timestamp::parse("2020-01-01T00:00:00Z").unwrap().utc();
    let mut doc = session(2);
    for i in 0..10_000u32 {
        doc.session_id = format!("2020-01-01-{i:06x}");
        doc.created =
            Timestamp::from_utc(base + chrono::Duration::minutes(i64::from(i) * 37 % 500_000));
        doc.goal = format!("Goal of archived session {i}");
        std::fs::write(
            folder.join(format!("{}.json", doc.session_id)),
            doc.to_pretty_json(),
        )
        .unwrap();
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
