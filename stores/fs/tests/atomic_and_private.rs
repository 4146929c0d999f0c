//! Atomic replace, private modes and durability of `FsStore`.
#![cfg(unix)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use common::{assert_os_storage, assert_storage, k, temp_files};
use session_state::{Key, Store};
use session_state_fs::{Durability, FsStore};

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn readers_see_the_old_or_the_new_value_never_a_mix() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path()).unwrap();
    let key = k("state/doc.json");
    let big = vec![b'a'; 1 << 20];
    let small = vec![b'b'; 300 << 10];
    store.write(&key, &big).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let reader = {
        let (store, key, done) = (FsStore::new(dir.path()).unwrap(), key.clone(), done.clone());
        let (big, small) = (big.clone(), small.clone());
        std::thread::spawn(move || {
            let mut reads = 0u32;
            while !done.load(Ordering::Relaxed) || reads == 0 {
                let got = store.read(&key).unwrap().expect("the key never disappears");
                assert!(
                    got == big || got == small,
                    "torn read: {} bytes, first {:?}, last {:?}",
                    got.len(),
                    got.first(),
                    got.last()
                );
                reads += 1;
            }
            reads
        })
    };
    for i in 0..200 {
        store
            .write(&key, if i % 2 == 0 { &small } else { &big })
            .unwrap();
    }
    done.store(true, Ordering::Relaxed);
    let reads = reader.join().unwrap();
    assert!(reads > 0);
    assert_eq!(temp_files(dir.path()), Vec::<std::path::PathBuf>::new());
}

#[test]
fn no_temp_file_is_left_or_listed_after_writes_updates_and_appends() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path()).unwrap();
    for i in 0..20 {
        let key = k(&format!("a/b/k{i}"));
        store.write(&key, b"1").unwrap();
        store
            .update(&key, &mut |old| Ok(old.map(|b| [b, b"2"].concat())))
            .unwrap();
        store.append(&key, b"3").unwrap();
        assert_eq!(store.read(&key).unwrap().as_deref(), Some(&b"123"[..]));
    }
    assert!(temp_files(dir.path()).is_empty());
    let names: Vec<String> = std::fs::read_dir(dir.path().join("a/b"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.starts_with('.'))
        .collect();
    assert_eq!(names.len(), 20, "{names:?}");
    assert_eq!(store.list(&k("a")).unwrap().len(), 20);
}

#[test]
fn a_failed_write_keeps_the_old_value_and_removes_its_temp_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path()).unwrap();
    // The rename cannot replace a non-empty folder: the write fails after the temp file exists.
    std::fs::create_dir_all(dir.path().join("d/blocked/inner")).unwrap();
    let err = store.write(&k("d/blocked"), b"new").unwrap_err();
    assert_os_storage(&err, "d/blocked");
    assert!(
        temp_files(dir.path()).is_empty(),
        "{:?}",
        temp_files(dir.path())
    );
    assert!(dir.path().join("d/blocked/inner").is_dir());
}

#[test]
fn files_are_0600_and_folders_0700() {
    let parent = tempfile::tempdir().unwrap();
    let root = parent.path().join("new-root");
    let store = FsStore::new(&root).unwrap();
    store.write(&k("a/b/c/written.json"), b"{}").unwrap();
    assert_eq!(mode(&root), 0o700, "root created by the first write");
    store.append(&k("a/appended.log"), b"x\n").unwrap();
    // The lock and queue files exist while the update runs.
    let mut lock_modes = Vec::new();
    store
        .update(&k("u/updated"), &mut |_| {
            lock_modes.push(mode(&root.join("u/.updated.lock")));
            lock_modes.push(mode(&root.join("u/.updated.lock-queue")));
            Ok(Some(b"1".to_vec()))
        })
        .unwrap();
    assert_eq!(lock_modes, [0o600, 0o600], "lock and queue files");
    for folder in ["a", "a/b", "a/b/c", "u"] {
        assert_eq!(mode(&root.join(folder)), 0o700, "folder {folder}");
    }
    for file in ["a/b/c/written.json", "a/appended.log", "u/updated"] {
        assert_eq!(mode(&root.join(file)), 0o600, "file {file}");
    }
    // A rewrite keeps the file private even if someone widened it meanwhile.
    let written = root.join("a/b/c/written.json");
    std::fs::set_permissions(&written, std::fs::Permissions::from_mode(0o644)).unwrap();
    store.write(&k("a/b/c/written.json"), b"{\"v\":2}").unwrap();
    assert_eq!(mode(&written), 0o600);
}

#[test]
fn sync_durability_is_the_default_and_writes_updates_appends_and_deletes() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path()).unwrap();
    assert_eq!(store.durability(), Durability::Sync);
    let key = k("s/doc");
    store.write(&key, b"1").unwrap();
    store
        .update(&key, &mut |old| Ok(old.map(|b| [b, b"2"].concat())))
        .unwrap();
    store.append(&key, b"3").unwrap();
    store.append(&k("s/new.log"), b"x").unwrap();
    // Another handle without the fsyncs sees the same bytes.
    let plain = FsStore::new(dir.path())
        .unwrap()
        .with_durability(Durability::Atomic);
    assert_eq!(plain.durability(), Durability::Atomic);
    assert_eq!(plain.read(&key).unwrap().as_deref(), Some(&b"123"[..]));
    assert_eq!(std::fs::read(dir.path().join("s/new.log")).unwrap(), b"x");
    assert!(store.delete(&key).unwrap());
    assert!(!dir.path().join("s/doc").exists());
    assert!(temp_files(dir.path()).is_empty());
}

#[test]
fn root_and_path_map_keys_below_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path()).unwrap();
    assert_eq!(store.root(), dir.path());
    assert_eq!(
        store.path(&k(".claude/orchestrator-session.json")),
        dir.path().join(".claude").join("orchestrator-session.json")
    );
    store.write(&k("x/y"), b"z").unwrap();
    assert_eq!(std::fs::read(dir.path().join("x/y")).unwrap(), b"z");
}

#[test]
fn a_root_that_is_a_file_is_a_storage_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, b"x").unwrap();
    let err = FsStore::new(&file).unwrap_err();
    assert_storage(&err, "plain-file");
    assert!(err.message().contains("not a folder"), "{err}");
    // Below a file: the OS error.
    let err = FsStore::new(file.join("below")).unwrap_err();
    assert_os_storage(&err, "below");
}

#[test]
fn an_empty_root_or_one_with_nul_is_invalid_input() {
    let err = FsStore::new("").unwrap_err();
    assert_eq!(err.kind(), session_state::ErrorKind::InvalidInput, "{err}");
    assert!(err.message().contains("empty"), "{err}");
    let err = FsStore::new("a\0b").unwrap_err();
    assert_eq!(err.kind(), session_state::ErrorKind::InvalidInput, "{err}");
    assert!(err.message().contains("NUL"), "{err}");
}

#[test]
fn update_removes_temp_files_of_dead_writers_only_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path()).unwrap();
    let key = Key::new(".moai/memory/agent-sessions.json").unwrap();
    store.write(&key, b"1").unwrap();
    let folder = dir.path().join(".moai/memory");
    // PID 4194304 is above Linux's pid_max limit, so no process has it; PID 1 always runs.
    let dead = folder.join(".agent-sessions.json.tmp-4194304-0");
    let alive = folder.join(".agent-sessions.json.tmp-1-0");
    let other_key = folder.join(".workflow-chains.json.tmp-4194304-0");
    for path in [&dead, &alive, &other_key] {
        std::fs::write(path, b"half a wri").unwrap();
    }
    store
        .update(&key, &mut |_| Ok(Some(b"2".to_vec())))
        .unwrap();
    if std::path::Path::new("/proc/self").exists() {
        assert!(!dead.exists(), "a dead writer's temp file is removed");
    }
    assert!(alive.exists(), "a running process's temp file is kept");
    if std::path::Path::new("/proc/self").exists() {
        // The registry writes its sessions file under its journal's lock: leftovers of any key
        // in the folder go, so none survives every registration.
        assert!(
            !other_key.exists(),
            "another key's dead temp file is removed too"
        );
    }
    assert_eq!(store.read(&key).unwrap().as_deref(), Some(&b"2"[..]));
}
