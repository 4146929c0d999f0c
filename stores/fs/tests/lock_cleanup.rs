//! Lock and queue files do not stay behind: the last writer removes them (Unix), and a writer
//! that opened them before their removal still waits its turn (no update is lost:
//! `no_lost_update.rs` runs updates in 4 processes and 4 threads through that churn).
#![cfg(unix)]

mod common;

use std::path::Path;

use common::k;
use session_state::Store;
use session_state_fs::FsStore;

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn updates_and_appends_leave_no_lock_file() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    store
        .update(&k("d/doc.json"), &mut |_| Ok(Some(b"1".to_vec())))
        .unwrap();
    store.update(&k("d/none.json"), &mut |_| Ok(None)).unwrap();
    store.append(&k("d/log.jsonl"), b"x\n").unwrap();
    assert_eq!(names(&root.path().join("d")), ["doc.json", "log.jsonl"]);
}

#[test]
fn a_lock_file_held_by_another_writer_is_waited_for_and_kept() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path())
        .unwrap()
        .with_lock_timeout(std::time::Duration::from_millis(200));
    store.write(&k("d/doc.json"), b"1").unwrap();
    // Another process's lock (flock on its own open file).
    let holder = std::fs::File::create(root.path().join("d/.doc.json.lock")).unwrap();
    holder.lock().unwrap();
    let err = store
        .update(&k("d/doc.json"), &mut |_| Ok(Some(b"2".to_vec())))
        .unwrap_err();
    assert_eq!(err.code(), "conflict", "{err}");
    assert!(root.path().join("d/.doc.json.lock").exists());
    holder.unlock().unwrap();
    store
        .update(&k("d/doc.json"), &mut |_| Ok(Some(b"2".to_vec())))
        .unwrap();
    assert_eq!(store.read(&k("d/doc.json")).unwrap().unwrap(), b"2");
}
