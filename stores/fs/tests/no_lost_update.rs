//! No update is lost when several processes or threads run `counter_increment` on one key.
//!
//! The process test re-executes this test binary: with `SESSION_STATE_FS_CHILD_ROOT` set, the
//! test `no_lost_update_across_processes` plays one worker instead of the parent and writes
//! the values its increments returned to `results/<pid>`.
#![cfg(unix)]

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{k, temp_files};
use session_state::conformance::{counter_increment, counter_value};
use session_state_fs::{Durability, FsStore};

const WORKERS: u64 = 4;
const INCREMENTS: u64 = 250;
const CHILD_ROOT: &str = "SESSION_STATE_FS_CHILD_ROOT";
const COUNTER_KEY: &str = "shared/counter";
/// Generous bound so a deadlock fails the test instead of hanging it.
const DEADLINE: Duration = Duration::from_secs(120);

/// Waits until `go` exists (all workers start together), then increments and returns the
/// values this worker's increments produced.
fn work(root: &Path, go: &Path) -> Vec<u64> {
    let start = Instant::now();
    while !go.exists() {
        assert!(start.elapsed() < DEADLINE, "start signal never came");
        std::thread::sleep(Duration::from_millis(1));
    }
    // Without fsyncs: a thousand updates in a row, and lost updates do not depend on them.
    let store = FsStore::new(root)
        .unwrap()
        .with_durability(Durability::Atomic);
    let key = k(COUNTER_KEY);
    (0..INCREMENTS)
        .map(|_| counter_increment(&store, &key).unwrap())
        .collect()
}

/// Checks the final count and that the values returned across workers are exactly
/// `1..=WORKERS * INCREMENTS` (each increment saw a distinct predecessor).
fn check(root: &Path, per_worker: &[Vec<u64>]) {
    let store = FsStore::new(root).unwrap();
    let total = WORKERS * INCREMENTS;
    assert_eq!(counter_value(&store, &k(COUNTER_KEY)).unwrap(), total);
    let seen: BTreeSet<u64> = per_worker.iter().flatten().copied().collect();
    let count: usize = per_worker.iter().map(Vec::len).sum();
    assert_eq!(count as u64, total);
    assert_eq!(seen, (1..=total).collect::<BTreeSet<u64>>());
    for values in per_worker {
        assert!(values.windows(2).all(|w| w[0] < w[1]), "not increasing");
    }
    let interleaved = per_worker
        .iter()
        .filter(|v| v.last().unwrap() - v.first().unwrap() + 1 > INCREMENTS)
        .count();
    println!("{interleaved} of {WORKERS} workers were interleaved with another");
    assert!(temp_files(root).is_empty());
}

fn wait_with_deadline(child: &mut Child) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("worker process {} did not finish in time", child.id());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn no_lost_update_across_processes() {
    if let Some(root) = std::env::var_os(CHILD_ROOT) {
        // Worker role: increment, then report the values in `results/<pid>` beside the store.
        let root = PathBuf::from(root);
        let values = work(&root, &root.with_file_name("go"));
        let text = values
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join("\n");
        let results = root.with_file_name("results");
        std::fs::write(results.join(std::process::id().to_string()), text).unwrap();
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("store");
    let results = dir.path().join("results");
    std::fs::create_dir(&results).unwrap();
    FsStore::new(&root).unwrap();
    let exe = std::env::current_exe().unwrap();
    let mut children: Vec<Child> = (0..WORKERS)
        .map(|_| {
            Command::new(&exe)
                .args([
                    "--exact",
                    "no_lost_update_across_processes",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env(CHILD_ROOT, &root)
                .stdout(Stdio::null())
                .stderr(Stdio::inherit())
                .spawn()
                .unwrap()
        })
        .collect();
    std::fs::write(dir.path().join("go"), b"").unwrap();
    for child in &mut children {
        let status = wait_with_deadline(child);
        assert!(status.success(), "a worker process failed: {status}");
    }
    let per_worker: Vec<Vec<u64>> = children
        .iter()
        .map(|c| {
            std::fs::read_to_string(results.join(c.id().to_string()))
                .unwrap()
                .lines()
                .map(|v| v.parse().unwrap())
                .collect()
        })
        .collect();
    for values in &per_worker {
        assert_eq!(values.len() as u64, INCREMENTS, "a worker reported too few");
    }
    check(&root, &per_worker);
}

#[test]
fn no_lost_update_across_threads_with_separate_handles() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let go = root.join("go");
    let handles: Vec<_> = (0..WORKERS)
        .map(|_| {
            let (root, go) = (root.clone(), go.clone());
            std::thread::spawn(move || work(&root, &go))
        })
        .collect();
    std::fs::write(&go, b"").unwrap();
    let per_worker: Vec<Vec<u64>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    check(&root, &per_worker);
}
