//! The lock wait is fair: a writer that releases the lock and comes straight back for it does
//! not keep another process's writer waiting until its lock timeout.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use session_state::{Key, Store};
use session_state_fs::{Durability, FsStore};

/// How long the steady writer holds the lock on each update.
const HOLD: Duration = Duration::from_millis(5);

#[test]
fn a_waiting_writer_gets_its_turn_against_a_steady_writer() {
    let dir = tempfile::tempdir().unwrap();
    let key = Key::new("state/counter.txt").unwrap();
    let steady_updates = Arc::new(AtomicUsize::new(0));
    let waiter_done = Arc::new(AtomicBool::new(false));

    // The steady writer: update after update, each holding the lock for HOLD, with no pause
    // between them (separate `File`s, so flock treats it as another process).
    let steady = {
        let (root, key) = (dir.path().to_path_buf(), key.clone());
        let (count, done) = (Arc::clone(&steady_updates), Arc::clone(&waiter_done));
        std::thread::spawn(move || {
            // Without fsyncs: the hold is the test's own `HOLD`, not the disk's.
            let store = FsStore::new(&root)
                .unwrap()
                .with_durability(Durability::Atomic);
            // Bounded, so a broken wait fails the assertion below instead of hanging.
            for _ in 0..2_000 {
                if done.load(Ordering::SeqCst) {
                    break;
                }
                store
                    .update(&key, &mut |old| {
                        std::thread::sleep(HOLD);
                        let mut bytes = old.unwrap_or_default().to_vec();
                        bytes.push(b's');
                        Ok(Some(bytes))
                    })
                    .unwrap();
                count.fetch_add(1, Ordering::SeqCst);
            }
        })
    };
    while steady_updates.load(Ordering::SeqCst) < 3 {
        std::thread::sleep(Duration::from_millis(1));
    }

    let store = FsStore::new(dir.path())
        .unwrap()
        .with_lock_timeout(Duration::from_secs(5));
    let before = steady_updates.load(Ordering::SeqCst);
    let outcome = store.update(&key, &mut |old| {
        let mut bytes = old.unwrap_or_default().to_vec();
        bytes.push(b'w');
        Ok(Some(bytes))
    });
    let overtaken = steady_updates.load(Ordering::SeqCst) - before;
    waiter_done.store(true, Ordering::SeqCst);
    steady.join().unwrap();

    println!("the steady writer made {overtaken} updates while the other waited");
    outcome.expect("the waiting writer gets the lock before its timeout");
    // Fair: once waiting, it goes next; the steady writer may finish the update it holds and
    // at most a few more while this thread is descheduled, not hundreds.
    assert!(
        overtaken <= 10,
        "the steady writer made {overtaken} updates while the other waited"
    );
    let value = String::from_utf8(store.read(&key).unwrap().unwrap()).unwrap();
    assert_eq!(value.matches('w').count(), 1);
    assert_eq!(
        value.matches('s').count(),
        steady_updates.load(Ordering::SeqCst),
        "no update lost"
    );
}
