//! Differential checks against the seed's own code (`shared/reference/session_state_skill.py`,
//! run with `python3`): files the seed writes load here, and files written here load, archive
//! and list with the seed's functions. Skips (passes with a note) when `../shared` or `python3`
//! is absent.

mod orchestrator_common;

use std::path::{Path, PathBuf};
use std::process::Command;

use orchestrator_common::{GOLDEN_NOW, clock, vector};
use serde_json::Value;
use session_state::orchestrator::{
    HistoryQuery, OrchestratorStore, ParseOptions, current_key, parse_document,
};
use session_state_fs::FsStore;

fn oracle() -> Option<PathBuf> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference/session_state_skill.py");
    let python = Command::new("python3").arg("--version").output().is_ok();
    if path.exists() && python {
        Some(path)
    } else {
        eprintln!("skipped: no ../shared/reference oracle or no python3");
        None
    }
}

/// Runs `code` with the oracle's functions imported, in `dir`; returns stdout as JSON.
fn seed(oracle: &Path, dir: &Path, code: &str) -> Value {
    let script = format!(
        "import json, sys\nsys.path.insert(0, {:?})\nfrom session_state_skill import *\n{code}",
        oracle.parent().unwrap().display().to_string()
    );
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
}

#[test]
fn files_the_seed_writes_load_here() {
    let Some(oracle) = oracle() else { return };
    let dir = tempfile::tempdir().unwrap();
    let doc = String::from_utf8(vector("seed-example.json")).unwrap();
    seed(
        &oracle,
        dir.path(),
        &format!("s = json.loads({doc:?})\nsave_session(s)\nprint(json.dumps(None))"),
    );
    let sessions = OrchestratorStore::new(FsStore::new(dir.path()).unwrap(), clock(GOLDEN_NOW));
    let loaded = sessions.load().unwrap().unwrap();
    assert!(
        loaded.updated.unwrap().is_naive(),
        "the seed writes naive local time"
    );
    assert_eq!(loaded.session_id, "2025-12-27-abc123");
    // The seed archives it; we list it.
    seed(
        &oracle,
        dir.path(),
        "archive_session(load_session())\nprint(json.dumps(None))",
    );
    assert!(sessions.load().unwrap().is_none());
    let page = sessions.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!(page.entries.len(), 1);
    assert_eq!(page.entries[0].goal, loaded.goal);
}

#[test]
fn files_written_here_load_and_list_with_the_seed() {
    let Some(oracle) = oracle() else { return };
    let dir = tempfile::tempdir().unwrap();
    let sessions = OrchestratorStore::new(FsStore::new(dir.path()).unwrap(), clock(GOLDEN_NOW));
    let mut doc = parse_document(
        &current_key(),
        &vector("seed-example.json"),
        &ParseOptions::default(),
    )
    .unwrap();
    doc.extra.insert("x_kept".into(), Value::from("yes"));
    sessions.save(&mut doc).unwrap();
    let ours: Value = serde_json::from_slice(&doc.to_pretty_json()).unwrap();
    let theirs = seed(&oracle, dir.path(), "print(json.dumps(load_session()))");
    assert_eq!(theirs, ours);
    sessions.archive(&doc, false).unwrap();
    let listed = seed(&oracle, dir.path(), "print(json.dumps(list_history()))");
    let ours = sessions.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!(listed, serde_json::to_value(&ours.entries).unwrap());
}
