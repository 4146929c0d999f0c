//! A writer never waits forever on a lock held by a stuck process: past the lock timeout it
//! gets a `conflict` error naming the lock file, and nothing is written.

use std::time::{Duration, Instant};

use session_state::{ErrorKind, Key, Store};
use session_state_fs::{DEFAULT_LOCK_TIMEOUT, FsStore};

#[test]
fn a_held_lock_gives_conflict_after_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path())
        .unwrap()
        .with_lock_timeout(Duration::from_millis(200));
    let key = Key::new(".moai/memory/agent-sessions.json").unwrap();
    store.write(&key, b"old").unwrap();
    // Another holder of the same lock file (flock locks per open file, so this conflicts).
    let lock_path = dir.path().join(".moai/memory/.agent-sessions.json.lock");
    let holder = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .unwrap();
    holder.lock().unwrap();

    let started = Instant::now();
    let err = store
        .update(&key, &mut |_| Ok(Some(b"new".to_vec())))
        .unwrap_err();
    let waited = started.elapsed();
    assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
    assert!(err.message().contains(".agent-sessions.json.lock"), "{err}");
    assert!(waited >= Duration::from_millis(200), "{waited:?}");
    assert!(waited < Duration::from_secs(10), "{waited:?}");
    let err = store.append(&key, b"x").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict);
    assert_eq!(store.read(&key).unwrap().as_deref(), Some(&b"old"[..]));

    holder.unlock().unwrap();
    store
        .update(&key, &mut |_| Ok(Some(b"new".to_vec())))
        .unwrap();
    assert_eq!(store.read(&key).unwrap().as_deref(), Some(&b"new"[..]));
}

#[test]
fn default_timeout_is_thirty_seconds() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(DEFAULT_LOCK_TIMEOUT, Duration::from_secs(30));
    assert_eq!(
        FsStore::new(dir.path()).unwrap().lock_timeout(),
        DEFAULT_LOCK_TIMEOUT
    );
}

/// A lock wait hook replaces the sleep between polls, and its error ends the wait at once
/// with nothing written (for Python: Ctrl-C raises `KeyboardInterrupt` during the wait, and
/// the change is not written once the lock frees).
#[test]
fn a_lock_wait_hook_error_ends_the_wait_and_nothing_is_written() {
    use std::sync::{Arc, Mutex};

    let dir = tempfile::tempdir().unwrap();
    let pauses = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&pauses);
    let store = FsStore::new(dir.path())
        .unwrap()
        .with_lock_timeout(Duration::from_secs(30))
        .with_lock_wait(move |pause| {
            let mut seen = seen.lock().unwrap();
            seen.push(pause);
            // Interrupted on the third poll.
            if seen.len() == 3 {
                return Err(session_state::Error::new(ErrorKind::Storage, "interrupted"));
            }
            std::thread::sleep(pause);
            Ok(())
        });
    let key = Key::new("k.json").unwrap();
    store.write(&key, b"old").unwrap();
    let holder = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.path().join(".k.json.lock"))
        .unwrap();
    holder.lock().unwrap();

    let started = Instant::now();
    let err = store
        .update(&key, &mut |_| Ok(Some(b"new".to_vec())))
        .unwrap_err();
    assert_eq!(err.message(), "interrupted");
    assert_eq!(
        *pauses.lock().unwrap(),
        [
            Duration::from_micros(100),
            Duration::from_micros(200),
            Duration::from_micros(400)
        ]
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "did not wait for the timeout"
    );
    assert_eq!(store.read(&key).unwrap().as_deref(), Some(&b"old"[..]));
    // Uncontended, the hook is not called.
    holder.unlock().unwrap();
    store
        .update(&key, &mut |_| Ok(Some(b"new".to_vec())))
        .unwrap();
    assert_eq!(pauses.lock().unwrap().len(), 3);
}
