//! What a kill -9 leaves behind, through the real binary: `doctor` reports the temporary files
//! of killed writers (exit 3) and `doctor --fix` removes them, never a live writer's; a read
//! (`history` on a project with no index) leaves only the lock pair of the index it writes.
#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod common;
use common::{copy_dir, repo, run, stdout};

/// The PID of a process that has exited.
fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

fn example_project(root: &Path) {
    copy_dir(
        &repo().join("examples/project/.claude"),
        &root.join(".claude"),
    );
}

#[test]
fn doctor_reports_the_temporary_files_of_killed_writers_and_fix_removes_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    example_project(root);
    assert!(run(root, &["register", "a", "a-1"]).status.success());
    let dead = dead_pid();
    let current = format!(".claude/.orchestrator-session.json.tmp-{dead}-0");
    let registry = format!(".moai/memory/.agent-sessions.json.tmp-{dead}-2");
    std::fs::write(root.join(&current), vec![b'{'; 1_048_576]).unwrap();
    std::fs::write(root.join(&registry), b"{").unwrap();
    // A writer still running (this test's own process): its temporary file is left alone.
    let live = format!(
        ".claude/.orchestrator-session.json.tmp-{}-9",
        std::process::id()
    );
    std::fs::write(root.join(&live), b"{").unwrap();

    let out = run(root, &["doctor"]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("{current}: a temporary file of 1048576 bytes")),
        "{text}"
    );
    assert!(text.contains(&registry), "{text}");
    assert!(!text.contains(&live), "{text}");
    assert!(text.contains("--fix"), "{text}");
    assert!(
        root.join(&current).exists(),
        "doctor without --fix removed it"
    );

    let out = run(root, &["doctor", "--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["leftovers"][0]["path"], current.as_str());
    assert_eq!(report["leftovers"][0]["bytes"], 1_048_576);
    assert_eq!(
        report["registry"]["leftovers"][0]["path"],
        registry.as_str()
    );

    let out = run(root, &["doctor", "--fix"]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains(&format!("removed {current}")));
    assert!(!root.join(&current).exists());
    assert!(!root.join(&registry).exists());
    assert!(
        root.join(&live).exists(),
        "a live writer's file was removed"
    );
    let out = run(root, &["doctor"]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).starts_with("ok:"));
}

#[test]
fn history_on_a_project_without_an_index_leaves_only_the_index_journal_lock() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    example_project(root);
    let out = run(root, &["history"]);
    assert!(out.status.success());
    let mut names: Vec<String> = std::fs::read_dir(root.join(".claude"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // The index is written under its journal's lock, whose pair of files stays (one per
    // locked key, see `FsStore`); the history folder gets none.
    let locks: Vec<&String> = names.iter().filter(|n| n.contains(".lock")).collect();
    assert_eq!(
        locks,
        [
            ".orchestrator-history.index.journal.lock",
            ".orchestrator-history.index.journal.lock-queue"
        ],
        "history left {locks:?}"
    );
    let history = root.join(".claude/orchestrator-history");
    for entry in std::fs::read_dir(&history).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            !name.contains(".lock"),
            "history left {name} in {history:?}"
        );
    }
    // The listing is the same on the next call, through the index it made.
    assert_eq!(stdout(&run(root, &["history"])), stdout(&out));
}
