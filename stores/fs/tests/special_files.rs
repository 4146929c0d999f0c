//! A FIFO at a key is refused as not a regular file, never opened: opening it would block
//! forever (a `load` that hangs until killed).
#![cfg(unix)]

use session_state::{ErrorKind, Key, Store};
use session_state_fs::FsStore;

#[test]
fn a_fifo_at_a_key_is_a_storage_error_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path()).unwrap();
    store
        .write(&Key::new(".claude/x.json").unwrap(), b"{}")
        .unwrap();
    let fifo = dir.path().join(".claude/orchestrator-session.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let key = Key::new(".claude/orchestrator-session.json").unwrap();
    let err = store.read(&key).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Storage, "{err}");
    assert!(err.message().contains("not a regular file"), "{err}");
    assert_eq!(err.context_value("key"), Some(key.as_str()));
}
