//! `save_beside`: the helper takes the file store's lock while the calling thread prepares the
//! save, then writes what `save` writes; a preparation that fails or panics writes nothing,
//! leaves the lock free and never hangs; a lock held elsewhere does not hold up the preparation.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use session_state::orchestrator::{NewSession, OrchestratorStore, Project, current_key};
use session_state::{Error, ErrorKind, FixedClock, Store};
use session_state_fs::{FsStore, save_beside};

type Orchestrator = OrchestratorStore<FsStore, FixedClock>;

fn clock(minutes: i64) -> FixedClock {
    let start = chrono::DateTime::from_timestamp(1_767_225_600, 0).unwrap();
    FixedClock(start + chrono::Duration::minutes(minutes))
}

/// A handle over `dir` whose lock wait gives up after a second, and its current session.
fn handle(dir: &tempfile::TempDir, minutes: i64) -> Orchestrator {
    let store = FsStore::new(dir.path())
        .unwrap()
        .with_lock_timeout(Duration::from_secs(1));
    OrchestratorStore::new(store, clock(minutes))
}

fn record_new(s: &Orchestrator) {
    let new = NewSession {
        goal: "goal".into(),
        ..NewSession::default()
    };
    s.record_new(&new, Project::new("p", "/p", None), Some("abc"))
        .unwrap();
}

fn current(s: &Orchestrator) -> Option<Vec<u8>> {
    s.store().read(&current_key()).unwrap()
}

#[test]
fn it_writes_what_save_writes_and_builds_from_the_prepared_save() {
    let dir = tempfile::tempdir().unwrap();
    let s = handle(&dir, 0);
    record_new(&s);
    let mut doc = s.load().unwrap().unwrap();
    doc.goal = "changed".into();
    let mut same = doc.clone();
    let (save, built, committed) = save_beside(
        s.store(),
        || s.prepare_save(&mut doc),
        |save| save.bytes().to_vec(),
    )
    .unwrap();
    committed.unwrap();
    assert_eq!(built, save.bytes());
    assert_eq!(current(&s).unwrap(), save.bytes());
    s.saved(save);
    // `save` on a second folder writes the same bytes.
    let other_dir = tempfile::tempdir().unwrap();
    let other = handle(&other_dir, 0);
    other.save(&mut same).unwrap();
    assert_eq!(current(&other), current(&s));
}

#[test]
fn a_preparation_that_fails_or_panics_writes_nothing_and_frees_the_lock() {
    let dir = tempfile::tempdir().unwrap();
    let s = handle(&dir, 0);
    record_new(&s);
    let before = current(&s);
    let refused = save_beside(
        s.store(),
        || Err(Error::invalid_input("refused")),
        |_| unreachable!("nothing to build"),
    );
    assert_eq!(refused.unwrap_err().kind(), ErrorKind::InvalidInput);
    assert_eq!(current(&s), before);
    // On its own thread, so that a helper left waiting fails the test instead of hanging it.
    let (done_tx, done) = mpsc::channel();
    let store = s.store().clone();
    thread::spawn(move || {
        let panicked = catch_unwind(AssertUnwindSafe(|| {
            save_beside(&store, || panic!("prepare"), |_| ())
        }));
        done_tx.send(panicked.is_err()).unwrap();
    });
    let panicked = done.recv_timeout(Duration::from_secs(20));
    assert_eq!(panicked, Ok(true), "the panic reaches the caller, no hang");
    assert_eq!(current(&s), before);
    // The lock is free: another handle saves at once (its lock wait would give up after 1 s).
    let other = handle(&dir, 1);
    let mut doc = other.load().unwrap().unwrap();
    other.save(&mut doc).unwrap();
    assert_ne!(current(&s), before);
}

#[test]
fn a_lock_held_elsewhere_holds_up_the_commit_but_not_the_preparation() {
    let dir = tempfile::tempdir().unwrap();
    let s = handle(&dir, 0);
    record_new(&s);
    let mut doc = s.load().unwrap().unwrap();
    let (locked_tx, locked) = mpsc::channel();
    let (prepared_tx, prepared) = mpsc::channel();
    let holder = FsStore::new(dir.path()).unwrap();
    thread::scope(|scope| {
        let held = scope.spawn(move || {
            holder.update(&current_key(), &mut |_| {
                locked_tx.send(()).unwrap();
                // Let go once the save is prepared; a preparation that waited for this lock
                // would never come, and the wait ends in failure.
                match prepared.recv_timeout(Duration::from_secs(10)) {
                    Ok(()) => Ok(None),
                    Err(_) => Err(Error::invalid_input("the save was never prepared")),
                }
            })
        });
        locked.recv().unwrap();
        let s = OrchestratorStore::new(
            FsStore::new(dir.path())
                .unwrap()
                .with_lock_timeout(Duration::from_secs(20)),
            clock(1),
        );
        let (save, (), committed) = save_beside(
            s.store(),
            || {
                let save = s.prepare_save(&mut doc);
                prepared_tx.send(()).unwrap();
                save
            },
            |_| (),
        )
        .unwrap();
        held.join().unwrap().unwrap();
        committed.unwrap();
        assert_eq!(current(&s).unwrap(), save.bytes());
    });
}

#[test]
fn a_commit_that_fails_still_gives_the_save_and_what_was_built() {
    let dir = tempfile::tempdir().unwrap();
    let s = handle(&dir, 0);
    record_new(&s);
    let mut snapshot = s.load().unwrap().unwrap();
    // Another handle saves later, with other content.
    let other = handle(&dir, 1);
    let mut changed = snapshot.clone();
    changed.goal = "other".into();
    other.save(&mut changed).unwrap();
    let before = current(&s);
    let (_, built, committed) =
        save_beside(s.store(), || s.prepare_save(&mut snapshot), |_| "built").unwrap();
    assert_eq!(built, "built");
    assert_eq!(committed.unwrap_err().kind(), ErrorKind::Conflict);
    assert_eq!(current(&s), before);
}
