//! 4 processes x 250 registrations into one folder: all 1,000 are present afterwards, with
//! every process in plain mode, in journal mode, or two in each.
//!
//! The test binary runs itself as the child processes: `child_registers` does the work only
//! when `REGISTRY_CHILD_DIR` is set (by the parent), and returns at once otherwise.

use std::process::Command;

use serde_json::{Value, json};
use session_state::registry::{AgentRegistry, JournalMode, SESSIONS_KEY};
use session_state_fs::{FsStore, SystemClock};

const PROCESSES: usize = 4;
const PER_PROCESS: usize = 250;

#[test]
fn child_registers() {
    let Ok(dir) = std::env::var("REGISTRY_CHILD_DIR") else {
        return;
    };
    let worker = std::env::var("REGISTRY_CHILD_WORKER").unwrap();
    let journal = std::env::var("REGISTRY_CHILD_JOURNAL").is_ok();
    let store = FsStore::new(&dir).unwrap();
    let mode = if journal {
        JournalMode::On {
            min_compact_bytes: 16 * 1024,
        }
    } else {
        JournalMode::Off
    };
    let reg = AgentRegistry::new(store, SystemClock).with_journal(mode);
    for i in 0..PER_PROCESS {
        reg.register(
            &format!("agent-{worker}-{i}"),
            &format!("id-{worker}-{i}"),
            json!({"worker": worker, "i": i}),
            Some("shared"),
        )
        .unwrap();
    }
    reg.close().unwrap();
}

/// Runs the children, worker `w` in journal mode when `journal(w)`.
fn run_processes(journal: fn(usize) -> bool) {
    let dir = tempfile::tempdir().unwrap();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..PROCESSES)
        .map(|worker| {
            let mut cmd = Command::new(&exe);
            cmd.args(["child_registers", "--exact", "--test-threads=1", "--quiet"])
                .env("REGISTRY_CHILD_DIR", dir.path())
                .env("REGISTRY_CHILD_WORKER", worker.to_string());
            if journal(worker) {
                cmd.env("REGISTRY_CHILD_JOURNAL", "1");
            }
            cmd.stdout(std::process::Stdio::null()).spawn().unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    // Read as the seed would: the plain file only.
    let text = std::fs::read_to_string(dir.path().join(SESSIONS_KEY)).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let total = PROCESSES * PER_PROCESS;
    assert_eq!(doc["sessions"].as_object().unwrap().len(), total);
    assert_eq!(doc["metadata"].as_object().unwrap().len(), total);
    assert_eq!(doc["results"].as_object().unwrap().len(), total);
    assert_eq!(doc["chains"]["shared"].as_array().unwrap().len(), total);
    for worker in 0..PROCESSES {
        for i in 0..PER_PROCESS {
            assert_eq!(
                doc["results"][format!("id-{worker}-{i}")]["result"],
                json!({"worker": worker.to_string(), "i": i})
            );
        }
    }
}

#[test]
fn four_processes_plain_mode() {
    if std::env::var("REGISTRY_CHILD_DIR").is_ok() {
        return;
    }
    run_processes(|_| false);
}

#[test]
fn four_processes_journal_mode() {
    if std::env::var("REGISTRY_CHILD_DIR").is_ok() {
        return;
    }
    run_processes(|_| true);
}

/// Handles in different modes share the registry's lock: none loses another's update.
#[test]
fn four_processes_in_mixed_modes() {
    if std::env::var("REGISTRY_CHILD_DIR").is_ok() {
        return;
    }
    run_processes(|worker| worker % 2 == 1);
}
