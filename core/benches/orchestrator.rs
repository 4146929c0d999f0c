//! Orchestrator benches: save, load and parse of a 200-agent session (memory and filesystem stores),
//! `list_history(limit 10)` over 10,000 archived sessions with and without the index, and the
//! scaling of `list_history(limit 10)` (1,000 to 100,000 archives) and of `archive` (100 and
//! 10,000 archives).
//!
//! Run: `cargo bench -p session-state --bench orchestrator -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use session_state::orchestrator::{
    HistoryQuery, OrchestratorStore, ParseOptions, SessionStatus, current_key, document_text,
    history_dir, index_head_key, index_key, parse_document,
};
use session_state::{FixedClock, MemoryStore, Store};
use session_state_fs::{Durability, FsStore, MARK_SETTLE};

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
    // A current session for the load rows to read, also when the save rows are filtered out.
    memory.save(&mut doc.clone()).unwrap();
    fs.save(&mut doc.clone()).unwrap();
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
    // The file store's part of a save (lock and queue files, the read of the file replaced,
    // temporary file and rename), and the floor of a replaced file: the same bytes written to
    // a temporary file and renamed over, in the same folder.
    let bytes = doc.to_pretty_json();
    let key = current_key();
    group.bench_function("store/update_fs", |b| {
        b.iter(|| {
            fs.store()
                .update(&key, &mut |_| Ok(Some(bytes.clone())))
                .unwrap();
        });
    });
    let (floor, floor_tmp) = (
        dir.path().join("floor.json"),
        dir.path().join(".floor.json.tmp"),
    );
    group.bench_function("store/floor", |b| {
        b.iter(|| {
            std::fs::write(&floor_tmp, black_box(&bytes)).unwrap();
            std::fs::rename(&floor_tmp, &floor).unwrap();
        });
    });
    // The parse alone (what every load of a file another writer wrote costs), and for
    // reference serde_json's untyped read of the same bytes.
    let options = ParseOptions::default();
    group.bench_function("parse/typed", |b| {
        b.iter(|| black_box(parse_document(&current_key(), black_box(&bytes), &options).unwrap()));
    });
    group.bench_function("serialize/pretty", |b| {
        b.iter(|| black_box(black_box(&doc).to_pretty_json()));
    });
    // A load of another writer's file, for a front end that builds from text (Node).
    group.bench_function("document_text", |b| {
        b.iter(|| black_box(document_text(&current_key(), black_box(&bytes), &options).unwrap()));
    });
    group.bench_function("is_written_as", |b| {
        b.iter(|| black_box(black_box(&doc).is_written_as(black_box(&bytes))));
    });
    group.bench_function("parse/value", |b| {
        b.iter(|| {
            black_box(serde_json::from_slice::<serde_json::Value>(black_box(&bytes)).unwrap())
        });
    });
    group.finish();
}

fn history(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    // Marks never settle here: every listing checks the index against the folder's names.
    let fs_store = FsStore::new(dir.path())
        .unwrap()
        .with_durability(Durability::Atomic)
        .with_mark_settle(Duration::MAX);
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

/// A store over a temp dir holding `count` archived sessions, with the index and its head
/// written (the marks settled in between, as they are a few seconds after the last change).
/// In `/dev/shm` (tmpfs) when there is one: what is timed is the library's own work, not the
/// waits of a disk journal shared with other processes.
fn settled_history(count: u32) -> (tempfile::TempDir, OrchestratorStore<FsStore, FixedClock>) {
    let shm = std::path::Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        tempfile::tempdir_in(shm).unwrap()
    } else {
        tempfile::tempdir().unwrap()
    };
    let fs_store = FsStore::new(dir.path())
        .unwrap()
        .with_durability(Durability::Atomic);
    let folder = fs_store.path(&history_dir());
    std::fs::create_dir_all(&folder).unwrap();
    for (name, bytes) in archived(count) {
        std::fs::write(folder.join(name), bytes).unwrap();
    }
    let sessions = OrchestratorStore::new(fs_store, clock());
    let query = HistoryQuery::default();
    sessions.list_history(&query).unwrap();
    std::thread::sleep(MARK_SETTLE + Duration::from_millis(200));
    assert_eq!(
        sessions.list_history(&query).unwrap(),
        sessions.list_history_full_scan(&query).unwrap()
    );
    let head = sessions.store().read(&index_head_key()).unwrap().unwrap();
    let index = sessions.store().read(&index_key()).unwrap().unwrap();
    eprintln!(
        "{count} archives: index {} bytes, head {} bytes (what a listing reads)",
        index.len(),
        head.len()
    );
    (dir, sessions)
}

fn history_scaling(c: &mut Criterion) {
    let query = HistoryQuery::default();
    let mut group = c.benchmark_group("orchestrator_history_scaling");
    for count in [100, 10_000] {
        let (_dir, sessions) = settled_history(count);
        let mut doc = session(2);
        doc.status = SessionStatus::Complete;
        let mut n = 0u32;
        group.bench_function(format!("archive/{count}"), |b| {
            b.iter(|| {
                n += 1;
                doc.session_id = format!("2030-01-01-{n:06x}");
                black_box(sessions.archive(&doc, false).unwrap())
            });
        });
    }
    for count in [1_000, 10_000, 100_000] {
        let (_dir, sessions) = settled_history(count);
        group.bench_function(format!("list_history_limit10/{count}"), |b| {
            b.iter(|| black_box(sessions.list_history(&query).unwrap()));
        });
    }
    group.finish();
}

criterion_group!(benches, save_load, history, history_scaling);
criterion_main!(benches);
