//! `FsStore` over a root that does not exist: making the store and reading, listing or
//! deleting create nothing and find nothing; the first write creates the root.
#![cfg(unix)]

mod common;

use std::os::unix::fs::PermissionsExt;

use common::k;
use session_state::Store;
use session_state_fs::FsStore;

#[test]
fn reads_lists_and_deletes_of_a_missing_root_create_nothing() {
    let parent = tempfile::tempdir().unwrap();
    let root = parent.path().join("not/there/yet");
    let store = FsStore::new(&root).unwrap();
    assert_eq!(store.root(), root);
    let key = k(".claude/orchestrator-session.json");
    assert_eq!(store.read(&key).unwrap(), None);
    assert!(store.list(&k(".claude")).unwrap().is_empty());
    assert!(!store.delete(&key).unwrap());
    // A second handle, as a binding makes one per call.
    assert_eq!(FsStore::new(&root).unwrap().read(&key).unwrap(), None);
    assert!(
        !parent.path().join("not").exists(),
        "a read created the root or one of its parents"
    );
}

#[test]
fn the_first_write_creates_the_root_private_and_later_reads_see_it() {
    for how in ["write", "append", "update"] {
        let parent = tempfile::tempdir().unwrap();
        let root = parent.path().join("new-root");
        let store = FsStore::new(&root).unwrap();
        let key = k("a/b.json");
        assert_eq!(store.read(&key).unwrap(), None);
        match how {
            "write" => store.write(&key, b"{}").unwrap(),
            "append" => store.append(&key, b"{}").unwrap(),
            _ => store
                .update(&key, &mut |_| Ok(Some(b"{}".to_vec())))
                .unwrap(),
        }
        let mode = std::fs::metadata(&root).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{how}: root mode");
        assert_eq!(
            store.read(&key).unwrap().as_deref(),
            Some(&b"{}"[..]),
            "{how}"
        );
        assert_eq!(store.list(&k("a")).unwrap(), vec![key.clone()], "{how}");
    }
}

#[test]
fn a_root_made_later_as_a_link_is_resolved_when_first_used() {
    // The root is resolved the first time it exists: a key below a root that is itself a
    // link is inside it, as for a root that was a link from the start.
    let parent = tempfile::tempdir().unwrap();
    let real = parent.path().join("real");
    let root = parent.path().join("root");
    let store = FsStore::new(&root).unwrap();
    assert_eq!(store.read(&k("x")).unwrap(), None);
    std::fs::create_dir(&real).unwrap();
    std::os::unix::fs::symlink(&real, &root).unwrap();
    std::fs::write(real.join("target"), b"t").unwrap();
    std::os::unix::fs::symlink(real.join("target"), real.join("link")).unwrap();
    assert_eq!(store.read(&k("link")).unwrap().as_deref(), Some(&b"t"[..]));
    store.write(&k("x"), b"1").unwrap();
    assert_eq!(std::fs::read(real.join("x")).unwrap(), b"1");
}
