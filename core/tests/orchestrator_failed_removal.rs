//! A final move or an archive whose removal of the current file fails leaves the archive slot
//! as it was, so nothing is half done and a retry is not `already_exists`.

mod orchestrator_common;

use std::sync::atomic::{AtomicBool, Ordering};

use orchestrator_common::{GOLDEN_NOW, clock, vector};
use session_state::orchestrator::{
    OrchestratorStore, ParseOptions, current_key, history_key, parse_document,
};
use session_state::{Error, ErrorKind, Key, MemoryStore, Result, Store, UpdateFn};

/// A memory store whose deletes of the current file fail while `failing` is set (after
/// deleting it, when `deletes_anyway` is set, as a host store whose acknowledgement is lost).
struct FailingRemoval {
    inner: MemoryStore,
    failing: AtomicBool,
    deletes_anyway: bool,
}

impl Store for FailingRemoval {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        self.inner.read(key)
    }
    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.inner.write(key, data)
    }
    fn delete(&self, key: &Key) -> Result<bool> {
        if *key == current_key() && self.failing.load(Ordering::SeqCst) {
            if self.deletes_anyway {
                self.inner.delete(key)?;
            }
            return Err(Error::new(ErrorKind::Storage, "permission denied"));
        }
        self.inner.delete(key)
    }
    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        self.inner.list(prefix)
    }
    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        self.inner.update(key, apply)
    }
}

type Sessions = OrchestratorStore<FailingRemoval, session_state::FixedClock>;

fn with_seed() -> (Sessions, Key, Vec<u8>) {
    with_seed_deleting(false)
}

fn with_seed_deleting(deletes_anyway: bool) -> (Sessions, Key, Vec<u8>) {
    let store = FailingRemoval {
        inner: MemoryStore::new(),
        failing: AtomicBool::new(true),
        deletes_anyway,
    };
    let s = OrchestratorStore::new(store, clock(GOLDEN_NOW));
    let seed = vector("seed-example.json");
    s.store().write(&current_key(), &seed).unwrap();
    let id = parse_document(&current_key(), &seed, &ParseOptions::default())
        .unwrap()
        .session_id;
    (s, history_key(&id).unwrap(), seed)
}

#[test]
fn a_final_move_whose_removal_fails_leaves_no_archive() {
    let (s, archive, seed) = with_seed();
    assert_eq!(s.complete().unwrap_err().kind(), ErrorKind::Storage);
    assert_eq!(s.store().read(&archive).unwrap(), None);
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), seed);
    s.store().failing.store(false, Ordering::SeqCst);
    let done = s.complete().unwrap();
    assert_eq!(done.status.as_str(), "complete");
    assert_eq!(s.store().read(&current_key()).unwrap(), None);
}

#[test]
fn a_replacing_final_move_whose_removal_fails_keeps_the_old_archive() {
    let (s, archive, seed) = with_seed();
    s.store().write(&archive, b"{\"old\": true}").unwrap();
    assert_eq!(
        s.move_to_with(session_state::orchestrator::SessionStatus::Aborted, true)
            .unwrap_err()
            .kind(),
        ErrorKind::Storage
    );
    assert_eq!(
        s.store().read(&archive).unwrap().unwrap(),
        b"{\"old\": true}"
    );
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), seed);
}

#[test]
fn an_archive_whose_removal_fails_leaves_no_archive() {
    let (s, archive, seed) = with_seed();
    let doc = s.load().unwrap().unwrap();
    assert_eq!(
        s.archive(&doc, false).unwrap_err().kind(),
        ErrorKind::Storage
    );
    assert_eq!(s.store().read(&archive).unwrap(), None);
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), seed);
    s.store().failing.store(false, Ordering::SeqCst);
    assert_eq!(s.archive(&doc, false).unwrap(), archive);
    assert_eq!(s.store().read(&current_key()).unwrap(), None);
}

#[test]
fn a_removal_that_fails_after_removing_keeps_the_archive() {
    // Putting the archive back then would lose the session from both places.
    let (s, archive, _) = with_seed_deleting(true);
    let done = s.complete().unwrap();
    assert_eq!(done.status.as_str(), "complete");
    assert_eq!(s.store().read(&current_key()).unwrap(), None);
    assert!(s.store().read(&archive).unwrap().is_some());
    let (s, archive, _) = with_seed_deleting(true);
    let doc = s.load().unwrap().unwrap();
    assert_eq!(s.archive(&doc, false).unwrap(), archive);
    assert!(s.store().read(&archive).unwrap().is_some());
}
