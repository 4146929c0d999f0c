//! Lock and queue files: one pair per key ever updated or appended to, made once and kept
//! (not made and removed at every write); `delete` removes the key's pair unless a writer
//! holds or waits for it, and a writer that opened a pair before its removal still waits its
//! turn (no update is lost: `no_lost_update.rs` runs updates in 4 processes and 4 threads).
#![cfg(unix)]

mod common;

use std::os::unix::fs::MetadataExt;
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

fn inode(path: &Path) -> u64 {
    std::fs::symlink_metadata(path).unwrap().ino()
}

#[test]
fn a_key_keeps_one_lock_and_queue_file_made_at_its_first_update() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let d = root.path().join("d");
    store
        .update(&k("d/doc.json"), &mut |_| Ok(Some(b"1".to_vec())))
        .unwrap();
    store.update(&k("d/none.json"), &mut |_| Ok(None)).unwrap();
    store.append(&k("d/log.jsonl"), b"x\n").unwrap();
    assert_eq!(
        names(&d),
        [
            ".doc.json.lock",
            ".doc.json.lock-queue",
            ".log.jsonl.lock",
            ".log.jsonl.lock-queue",
            ".none.json.lock",
            ".none.json.lock-queue",
            "doc.json",
            "log.jsonl",
        ]
    );
    let made = [
        inode(&d.join(".doc.json.lock")),
        inode(&d.join(".doc.json.lock-queue")),
    ];
    for i in 2..5 {
        store
            .update(&k("d/doc.json"), &mut |_| {
                Ok(Some(i.to_string().into_bytes()))
            })
            .unwrap();
    }
    assert_eq!(
        [
            inode(&d.join(".doc.json.lock")),
            inode(&d.join(".doc.json.lock-queue")),
        ],
        made,
        "the same files, not new ones per write"
    );
    for name in [".doc.json.lock", ".doc.json.lock-queue"] {
        assert_eq!(std::fs::metadata(d.join(name)).unwrap().len(), 0, "{name}");
    }
}

#[test]
fn delete_removes_the_pair_of_its_key_unless_a_writer_holds_it() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let d = root.path().join("d");
    for key in ["d/a.json", "d/b.json"] {
        store
            .update(&k(key), &mut |_| Ok(Some(b"1".to_vec())))
            .unwrap();
    }
    assert!(store.delete(&k("d/a.json")).unwrap());
    assert_eq!(names(&d), [".b.json.lock", ".b.json.lock-queue", "b.json"]);
    // A key updated without being written: its pair goes with a delete that finds no file.
    store.update(&k("d/c.json"), &mut |_| Ok(None)).unwrap();
    assert!(!store.delete(&k("d/c.json")).unwrap());
    assert_eq!(names(&d), [".b.json.lock", ".b.json.lock-queue", "b.json"]);

    // Another process's lock on the pair (flock on its own open file): kept, and used again.
    let holder = std::fs::File::open(d.join(".b.json.lock")).unwrap();
    holder.lock().unwrap();
    assert!(store.delete(&k("d/b.json")).unwrap());
    assert_eq!(names(&d), [".b.json.lock", ".b.json.lock-queue"]);
    holder.unlock().unwrap();
    store
        .update(&k("d/b.json"), &mut |_| Ok(Some(b"2".to_vec())))
        .unwrap();
    assert_eq!(
        store.read(&k("d/b.json")).unwrap().as_deref(),
        Some(&b"2"[..])
    );
    assert!(store.delete(&k("d/b.json")).unwrap());
    assert_eq!(names(&d), Vec::<String>::new());
}

#[test]
fn an_update_that_deletes_its_key_removes_the_pair_as_delete_does() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let d = root.path().join("d");
    for key in ["d/a.json", "d/b.json"] {
        store
            .update(&k(key), &mut |_| Ok(Some(b"1".to_vec())))
            .unwrap();
    }
    // A prune's removal under the key's lock: the pair goes once the lock is let go.
    store
        .update(&k("d/a.json"), &mut |old| {
            assert!(old.is_some());
            store.delete(&k("d/a.json"))?;
            Ok(None)
        })
        .unwrap();
    assert_eq!(names(&d), [".b.json.lock", ".b.json.lock-queue", "b.json"]);
    // An update that leaves its file as it is keeps the pair.
    store.update(&k("d/b.json"), &mut |_| Ok(None)).unwrap();
    assert_eq!(names(&d), [".b.json.lock", ".b.json.lock-queue", "b.json"]);
}

#[test]
fn a_writer_holding_a_removed_lock_file_opens_the_path_again() {
    // A pair removed (by `delete`, or by hand) while a writer waits on its queue: the writer,
    // once it holds the queue, sees it is no longer the file at the path and makes a new one.
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path())
        .unwrap()
        .with_lock_timeout(std::time::Duration::from_secs(10));
    let d = root.path().join("d");
    store.write(&k("d/doc.json"), b"1").unwrap();
    store
        .update(&k("d/doc.json"), &mut |_| Ok(Some(b"2".to_vec())))
        .unwrap();
    let old_queue = inode(&d.join(".doc.json.lock-queue"));
    let holder = std::fs::File::open(d.join(".doc.json.lock-queue")).unwrap();
    holder.lock().unwrap();
    std::thread::scope(|scope| {
        let writer = scope.spawn(|| {
            store.update(&k("d/doc.json"), &mut |old| {
                assert_eq!(old, Some(&b"2"[..]));
                Ok(Some(b"3".to_vec()))
            })
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        std::fs::remove_file(d.join(".doc.json.lock-queue")).unwrap();
        holder.unlock().unwrap();
        writer.join().unwrap().unwrap();
    });
    assert_ne!(inode(&d.join(".doc.json.lock-queue")), old_queue);
    assert_eq!(
        store.read(&k("d/doc.json")).unwrap().as_deref(),
        Some(&b"3"[..])
    );
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
