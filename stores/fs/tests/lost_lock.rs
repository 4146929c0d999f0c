//! An update whose lock file is removed while it holds the lock (by hand, `git clean -X`) lets
//! the next writer lock a new file at the path and go ahead: the first one then finds, before
//! it renames over the file, that its lock and the file it read are no longer the ones at
//! their paths, and runs again from the read, so neither update is lost.
#![cfg(unix)]

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use common::k;
use session_state::Store;
use session_state_fs::FsStore;

/// Adds one to the number held at `key` (absent: 0).
fn add_one(old: Option<&[u8]>) -> Vec<u8> {
    let n: u64 = old.map_or(0, |b| std::str::from_utf8(b).unwrap().parse().unwrap());
    (n + 1).to_string().into_bytes()
}

#[test]
fn an_update_whose_lock_file_was_removed_runs_again_and_loses_no_update() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let key = k(".claude/count.json");
    store.write(&key, b"0").unwrap();
    let claude = root.path().join(".claude");
    let runs = AtomicUsize::new(0);
    store
        .update(&key, &mut |old| {
            if runs.fetch_add(1, Ordering::SeqCst) == 0 {
                // The lock files go while this update holds the lock; another writer locks
                // new ones at the paths and writes.
                std::fs::remove_file(claude.join(".count.json.lock")).unwrap();
                std::fs::remove_file(claude.join(".count.json.lock-queue")).unwrap();
                std::thread::scope(|scope| {
                    scope.spawn(|| {
                        let other = FsStore::new(root.path()).unwrap();
                        other
                            .update(&key, &mut |old| Ok(Some(add_one(old))))
                            .unwrap();
                    });
                });
            }
            Ok(Some(add_one(old)))
        })
        .unwrap();
    assert_eq!(
        runs.load(Ordering::SeqCst),
        2,
        "ran again from the other writer's file"
    );
    assert_eq!(store.read(&key).unwrap().unwrap(), b"2");
    let names: Vec<String> = std::fs::read_dir(&claude)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains(".tmp-")), "{names:?}");
}

#[test]
fn an_update_whose_file_was_written_in_place_meanwhile_reads_it_again() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let key = k(".moai/memory/count.json");
    store.write(&key, b"10").unwrap();
    let file = root.path().join(".moai/memory/count.json");
    let runs = AtomicUsize::new(0);
    store
        .update(&key, &mut |old| {
            if runs.fetch_add(1, Ordering::SeqCst) == 0 {
                // A writer that takes no lock (the seed's own code) writes in place.
                std::thread::sleep(std::time::Duration::from_millis(20));
                std::fs::write(&file, b"20").unwrap();
            }
            Ok(Some(add_one(old)))
        })
        .unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    assert_eq!(store.read(&key).unwrap().unwrap(), b"21");
}

#[test]
fn an_update_that_keeps_losing_its_lock_gives_up_with_conflict_writing_nothing() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let key = k(".claude/count.json");
    store.write(&key, b"0").unwrap();
    let lock = root.path().join(".claude/.count.json.lock");
    let err = store
        .update(&key, &mut |old| {
            std::fs::remove_file(&lock).unwrap();
            Ok(Some(add_one(old)))
        })
        .unwrap_err();
    assert_eq!(err.code(), "conflict", "{err}");
    assert!(err.message().contains("lock file removed"), "{err}");
    assert_eq!(store.read(&key).unwrap().unwrap(), b"0");
}

#[test]
fn a_write_of_another_key_under_a_lock_that_was_removed_runs_the_update_again() {
    // The registry's way: the journal key's lock guards a write of the sessions file.
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let (guard, data) = (k(".moai/memory/j.jsonl"), k(".moai/memory/s.json"));
    store.write(&data, b"0").unwrap();
    let memory = root.path().join(".moai/memory");
    let bump = |store: &FsStore| -> session_state::Result<Option<Vec<u8>>> {
        let old = store.read(&data)?;
        store.write(&data, &add_one(old.as_deref()))?;
        Ok(None)
    };
    let runs = AtomicUsize::new(0);
    store
        .update(&guard, &mut |_| {
            if runs.fetch_add(1, Ordering::SeqCst) == 0 {
                let old = store.read(&data)?;
                std::fs::remove_file(memory.join(".j.jsonl.lock")).unwrap();
                std::fs::remove_file(memory.join(".j.jsonl.lock-queue")).unwrap();
                std::thread::scope(|scope| {
                    scope.spawn(|| {
                        let other = FsStore::new(root.path()).unwrap();
                        other.update(&guard, &mut |_| bump(&other)).unwrap();
                    });
                });
                // Computed from the file as it was before the other writer's.
                store.write(&data, &add_one(old.as_deref()))?;
                return Ok(None);
            }
            bump(&store)
        })
        .unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    assert_eq!(store.read(&data).unwrap().unwrap(), b"2");
    // A plain write outside any update is not held back.
    store.write(&data, b"9").unwrap();
    assert_eq!(store.read(&data).unwrap().unwrap(), b"9");
}

#[test]
fn an_update_that_panicked_leaves_no_lock_behind_for_the_thread_s_later_writes() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let key = k(".claude/count.json");
    store.write(&key, b"0").unwrap();
    let lock = root.path().join(".claude/.count.json.lock");
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = store.update(&key, &mut |_| {
            std::fs::remove_file(&lock).unwrap();
            panic!("a caller's bug");
        });
    }));
    assert!(panicked.is_err());
    // The removed lock file is no longer this thread's: writes go through.
    store.write(&k(".claude/other.json"), b"1").unwrap();
    store
        .update(&key, &mut |old| Ok(Some(add_one(old))))
        .unwrap();
    assert_eq!(store.read(&key).unwrap().unwrap(), b"1");
}

#[test]
fn an_update_that_changed_another_key_is_not_run_again_when_its_lock_goes() {
    // The registry's fold: the sessions file is written, then the journal key's own bytes.
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let (journal, data) = (k(".moai/memory/j.jsonl"), k(".moai/memory/s.json"));
    store.write(&data, b"0").unwrap();
    let lock = root.path().join(".moai/memory/.j.jsonl.lock");
    let runs = AtomicUsize::new(0);
    store
        .update(&journal, &mut |_| {
            runs.fetch_add(1, Ordering::SeqCst);
            let old = store.read(&data)?;
            store.write(&data, &add_one(old.as_deref()))?;
            // Gone after the other key's write: running again would add one more.
            std::fs::remove_file(&lock).unwrap();
            store.write(&k(".moai/memory/t.json"), b"after")?;
            Ok(Some(b"folded".to_vec()))
        })
        .unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert_eq!(store.read(&data).unwrap().unwrap(), b"1");
    assert_eq!(store.read(&journal).unwrap().unwrap(), b"folded");
    assert_eq!(
        store.read(&k(".moai/memory/t.json")).unwrap().unwrap(),
        b"after"
    );
}
