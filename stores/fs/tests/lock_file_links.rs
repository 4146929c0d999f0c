//! `FsStore`'s lock and queue files (`.NAME.lock`, `.NAME.lock-queue`) are never symlinks:
//! a link there, leading outside the root or inside it, is a `storage` error naming the lock
//! file, and nothing is created or opened through it.
#![cfg(unix)]

mod common;

use std::os::unix::fs::symlink;
use std::path::Path;

use common::{assert_storage, k};
use session_state::{Error, Store};
use session_state_fs::FsStore;

const KEY: &str = ".moai/memory/journal.jsonl";

/// A store with `KEY` holding `before`.
fn store_with_data(root: &Path) -> FsStore {
    let store = FsStore::new(root).unwrap();
    store.append(&k(KEY), b"before\n").unwrap();
    store
}

/// Runs `update` and `append` on `KEY` and returns their two errors.
fn both_writes_fail(store: &FsStore) -> [Error; 2] {
    let update = store
        .update(&k(KEY), &mut |_| Ok(Some(b"replaced\n".to_vec())))
        .unwrap_err();
    let append = store.append(&k(KEY), b"appended\n").unwrap_err();
    [update, append]
}

fn assert_symlink_error(err: &Error, lock_name: &str) {
    assert_storage(err, lock_name);
    assert!(err.message().contains(lock_name), "{err}");
    assert!(err.message().contains("is a symlink"), "{err}");
    assert_eq!(err.context_value("key"), Some(KEY), "{err}");
}

#[test]
fn a_lock_or_queue_file_linked_outside_is_refused_and_nothing_is_created_there() {
    for name in [".journal.jsonl.lock", ".journal.jsonl.lock-queue"] {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let store = store_with_data(root.path());
        let lock = root.path().join(".moai/memory").join(name);
        let target = outside.path().join("created-through-the-link");
        let _ = std::fs::remove_file(&lock);
        symlink(&target, &lock).unwrap();

        for err in both_writes_fail(&store) {
            assert_symlink_error(&err, name);
        }
        assert!(!target.exists(), "{name}: the outside target was created");
        assert_eq!(
            store.read(&k(KEY)).unwrap().as_deref(),
            Some(&b"before\n"[..]),
            "{name}: the data changed"
        );
    }
}

#[test]
fn an_existing_outside_target_is_not_opened_or_changed() {
    for name in [".journal.jsonl.lock", ".journal.jsonl.lock-queue"] {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let store = store_with_data(root.path());
        let target = outside.path().join("precious");
        std::fs::write(&target, b"precious bytes").unwrap();
        let lock = root.path().join(".moai/memory").join(name);
        let _ = std::fs::remove_file(&lock);
        symlink(&target, &lock).unwrap();

        for err in both_writes_fail(&store) {
            assert_symlink_error(&err, name);
        }
        assert_eq!(std::fs::read(&target).unwrap(), b"precious bytes");
        assert_eq!(
            store.read(&k(KEY)).unwrap().as_deref(),
            Some(&b"before\n"[..])
        );
    }
}

#[test]
fn a_lock_file_linked_inside_the_root_is_refused_too() {
    let root = tempfile::tempdir().unwrap();
    let store = store_with_data(root.path());
    let inside = root.path().join("elsewhere.lock");
    std::fs::write(&inside, b"").unwrap();
    let lock = root.path().join(".moai/memory/.journal.jsonl.lock");
    let _ = std::fs::remove_file(&lock);
    symlink(&inside, &lock).unwrap();

    for err in both_writes_fail(&store) {
        assert_symlink_error(&err, ".journal.jsonl.lock");
    }
    assert_eq!(
        store.read(&k(KEY)).unwrap().as_deref(),
        Some(&b"before\n"[..])
    );
    // Once the link is gone the store makes its own lock file again (a plain file it keeps).
    std::fs::remove_file(&lock).unwrap();
    store.append(&k(KEY), b"after\n").unwrap();
    assert!(std::fs::symlink_metadata(&lock).unwrap().is_file());
    assert!(std::fs::symlink_metadata(&inside).unwrap().is_file());
    assert_eq!(
        store.read(&k(KEY)).unwrap().as_deref(),
        Some(&b"before\nafter\n"[..])
    );
}

#[test]
fn a_lock_path_that_is_not_a_plain_file_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let store = store_with_data(root.path());
    let queue = root.path().join(".moai/memory/.journal.jsonl.lock-queue");
    let _ = std::fs::remove_file(&queue);
    std::fs::create_dir(&queue).unwrap();
    for err in both_writes_fail(&store) {
        assert_storage(&err, ".journal.jsonl.lock-queue");
        assert!(err.message().contains("is not a plain file"), "{err}");
    }
}

#[test]
fn the_folders_of_a_lock_file_get_the_data_files_checks() {
    // The lock sits beside the key, so a linked parent folder leading outside is refused
    // before any lock file is made in it (`.moai/data` is none of the layout's own folders,
    // whose links are followed).
    let root = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.path().join(".moai")).unwrap();
    symlink(outside.path(), root.path().join(".moai/data")).unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let key = k(".moai/data/journal.jsonl");
    let update = store
        .update(&key, &mut |_| Ok(Some(b"replaced\n".to_vec())))
        .unwrap_err();
    let append = store.append(&key, b"appended\n").unwrap_err();
    for err in [update, append] {
        assert_storage(&err, "journal.jsonl");
        assert!(err.message().contains("outside the store root"), "{err}");
    }
    assert!(
        std::fs::read_dir(outside.path()).unwrap().next().is_none(),
        "a file was made outside the root"
    );
}

#[test]
fn a_fifo_at_a_lock_path_is_refused_not_waited_on() {
    // Opening a FIFO for writing blocks until a reader comes: the lock file is opened without
    // blocking, then found not to be a plain file.
    for name in [".journal.jsonl.lock", ".journal.jsonl.lock-queue"] {
        let root = tempfile::tempdir().unwrap();
        let store = store_with_data(root.path());
        let fifo = root.path().join(".moai/memory").join(name);
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        for err in both_writes_fail(&store) {
            assert_storage(&err, name);
            assert!(err.message().contains("is not a plain file"), "{err}");
        }
        assert_eq!(
            store.read(&k(KEY)).unwrap().as_deref(),
            Some(&b"before\n"[..])
        );
    }
}
