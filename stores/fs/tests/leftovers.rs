//! `FsStore::leftovers` / `remove_leftovers`: the temporary files of writers killed mid-write
//! are found (at any depth) and removed; a live writer's are left alone.
#![cfg(target_os = "linux")]

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime};

use common::k;
use session_state::{Leftover, Store};
use session_state_fs::{FsStore, STALE_SWEEP_INTERVAL};

/// The PID of a process that has exited (so no running process has it, barring reuse).
fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

fn write(path: &Path, bytes: usize) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, vec![b'x'; bytes]).unwrap();
}

#[test]
fn temporary_files_of_dead_writers_are_found_and_removed() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    store
        .write(&k(".claude/orchestrator-session.json"), b"{}")
        .unwrap();
    let dead = dead_pid();
    let current = format!(".claude/.orchestrator-session.json.tmp-{dead}-0");
    let archived = format!(".claude/orchestrator-history/.s-1.json.tmp-{dead}-7");
    write(&root.path().join(&current), 1_000_000);
    write(&root.path().join(&archived), 10);
    // A live writer's (this process's), and one of PID 1 (running): not stale.
    let own = format!(".claude/.x.json.tmp-{}-3", std::process::id());
    write(&root.path().join(&own), 5);
    write(&root.path().join(".claude/.y.json.tmp-1-0"), 5);
    // Not temporary files: a user's file and a lock file.
    write(&root.path().join(".claude/notes.tmp-1"), 5);
    write(
        &root.path().join(".claude/.orchestrator-session.json.lock"),
        0,
    );

    let expected = vec![
        Leftover {
            path: current.clone(),
            bytes: 1_000_000,
        },
        Leftover {
            path: archived.clone(),
            bytes: 10,
        },
    ];
    assert_eq!(store.leftovers(&k(".claude")).unwrap(), expected);
    // Finding them changes nothing.
    assert!(root.path().join(&current).exists());
    assert_eq!(store.remove_leftovers(&k(".claude")).unwrap(), expected);
    assert!(!root.path().join(&current).exists());
    assert!(!root.path().join(&archived).exists());
    for kept in [
        own.as_str(),
        ".claude/.y.json.tmp-1-0",
        ".claude/notes.tmp-1",
    ] {
        assert!(root.path().join(kept).exists(), "{kept} was removed");
    }
    assert_eq!(
        store.read(&k(".claude/orchestrator-session.json")).unwrap(),
        Some(b"{}".to_vec())
    );
    assert_eq!(store.leftovers(&k(".claude")).unwrap(), Vec::new());
    // Only below the prefix.
    write(&root.path().join(format!(".moai/.a.tmp-{dead}-0")), 1);
    assert_eq!(store.leftovers(&k(".claude")).unwrap(), Vec::new());
    assert_eq!(store.leftovers(&k(".moai")).unwrap().len(), 1);
}

#[test]
fn a_temporary_file_older_than_an_hour_is_stale_whatever_its_pid() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    // PID 1 runs, but no write keeps a temporary file for hours: its writer's PID was reused.
    let path = root.path().join(".claude/.a.json.tmp-1-0");
    write(&path, 3);
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(2 * 60 * 60))
        .unwrap();
    drop(file);
    assert_eq!(store.leftovers(&k(".claude")).unwrap().len(), 1);
    assert_eq!(store.remove_leftovers(&k(".claude")).unwrap().len(), 1);
    assert!(!path.exists());
}

#[test]
fn a_missing_folder_has_no_leftovers() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path().join("none")).unwrap();
    assert_eq!(store.leftovers(&k(".claude")).unwrap(), Vec::new());
    assert_eq!(store.remove_leftovers(&k(".claude")).unwrap(), Vec::new());
    assert!(!root.path().join("none").exists());
}

#[test]
fn a_handle_sweeps_a_folder_at_its_first_update_there_then_once_an_interval() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let key = k(".claude/doc.json");
    let dead = dead_pid();
    let before = root.path().join(format!(".claude/.doc.json.tmp-{dead}-0"));
    write(&before, 3);
    store
        .update(&key, &mut |_| Ok(Some(b"1".to_vec())))
        .unwrap();
    assert!(
        !before.exists(),
        "the handle's first update in the folder sweeps it"
    );

    // A writer that dies after that sweep: its file (of any key of the folder) is ignored,
    // and this handle and its clones leave it until the interval has passed.
    let after = root
        .path()
        .join(format!(".claude/.other.json.tmp-{dead}-1"));
    write(&after, 3);
    let clone = store.clone();
    clone
        .update(&key, &mut |_| Ok(Some(b"2".to_vec())))
        .unwrap();
    store.append(&k(".claude/other.json"), b"x").unwrap();
    assert!(
        after.exists(),
        "swept again only {STALE_SWEEP_INTERVAL:?} after the last sweep"
    );
    assert_eq!(store.read(&key).unwrap().as_deref(), Some(&b"2"[..]));
    assert_eq!(
        store.list(&k(".claude")).unwrap(),
        [k(".claude/doc.json"), k(".claude/other.json")]
    );
    assert_eq!(store.leftovers(&k(".claude")).unwrap().len(), 1);

    // Another handle sweeps at its first update there.
    let other = FsStore::new(root.path()).unwrap();
    other
        .update(&key, &mut |_| Ok(Some(b"3".to_vec())))
        .unwrap();
    assert!(!after.exists(), "a new handle's first update sweeps it");
}
