//! A commit that fails with a storage error may still have written (a reply lost with the
//! connection, a folder's fsync failed after the rename): saving the same document again
//! writes over its own attempt, and a document read before the attempt is still refused.

use std::sync::atomic::{AtomicI64, AtomicU8, Ordering};

use chrono::{DateTime, Utc};
use session_state::orchestrator::{DecisionInput, NewSession, OrchestratorStore, Project};
use session_state::{Clock, Error, ErrorKind, Key, MemoryStore, Result, Store, UpdateFn};

/// A memory store whose next update writes and then reports a storage error (`WRITES`), or
/// reports one without writing (`FAILS`).
struct Unsure {
    inner: MemoryStore,
    next: AtomicU8,
}

const WRITES: u8 = 1;
const FAILS: u8 = 2;

impl Store for Unsure {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        self.inner.read(key)
    }
    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.inner.write(key, data)
    }
    fn delete(&self, key: &Key) -> Result<bool> {
        self.inner.delete(key)
    }
    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        self.inner.list(prefix)
    }
    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        let lost = || Error::storage(key, "write", "connection reset");
        match self.next.swap(0, Ordering::SeqCst) {
            WRITES => {
                self.inner.update(key, apply)?;
                Err(lost())
            }
            FAILS => Err(lost()),
            _ => self.inner.update(key, apply),
        }
    }
}

/// A clock one second later at every reading.
struct Ticking(AtomicI64);

impl Clock for Ticking {
    fn now(&self) -> DateTime<Utc> {
        DateTime::from_timestamp(1_767_225_600 + self.0.fetch_add(1, Ordering::SeqCst), 0).unwrap()
    }
}

fn sessions() -> OrchestratorStore<Unsure, Ticking> {
    let store = Unsure {
        inner: MemoryStore::new(),
        next: AtomicU8::new(0),
    };
    let s = OrchestratorStore::new(store, Ticking(AtomicI64::new(0)));
    let goal = NewSession {
        goal: "goal".into(),
        ..NewSession::default()
    };
    s.record_new(&goal, Project::new("p", "/p", None), Some("abc"))
        .unwrap();
    s
}

#[test]
fn a_document_saved_again_after_a_failed_commit_that_wrote_or_not_is_written() {
    for outcome in [WRITES, FAILS] {
        let s = sessions();
        let mut doc = s.load().unwrap().unwrap();
        let read = doc.updated;
        doc.pending_tasks.push("one".into());
        s.store().next.store(outcome, Ordering::SeqCst);
        let err = s.save(&mut doc).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Storage, "{err}");
        assert_eq!(
            doc.updated, read,
            "not known to be saved: `updated` as read"
        );
        doc.pending_tasks.push("two".into());
        s.save(&mut doc).unwrap();
        assert_eq!(s.load().unwrap().unwrap().pending_tasks, ["one", "two"]);
    }
}

#[test]
fn a_failed_commit_that_wrote_then_many_that_could_not_are_written_over() {
    // The server goes away during a commit that writes; the saves tried while it is gone fail.
    let s = sessions();
    let mut doc = s.load().unwrap().unwrap();
    s.store().next.store(WRITES, Ordering::SeqCst);
    doc.pending_tasks.push("0".into());
    s.save(&mut doc).unwrap_err();
    for i in 1..40 {
        s.store().next.store(FAILS, Ordering::SeqCst);
        doc.pending_tasks.push(i.to_string());
        s.save(&mut doc).unwrap_err();
    }
    doc.pending_tasks.push("last".into());
    s.save(&mut doc).unwrap();
    assert_eq!(s.load().unwrap().unwrap().pending_tasks.len(), 41);
}

#[test]
fn a_failed_commit_that_wrote_still_refuses_a_document_read_before_it() {
    let s = sessions();
    let mut early = s.load().unwrap().unwrap();
    s.record_decision(&DecisionInput {
        decision: "kept".into(),
        why: None,
    })
    .unwrap();
    let mut doc = s.load().unwrap().unwrap();
    doc.pending_tasks.push("one".into());
    s.store().next.store(WRITES, Ordering::SeqCst);
    s.save(&mut doc).unwrap_err();
    early.goal = "changed".into();
    let err = s.save(&mut early).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
    let now = s.load().unwrap().unwrap();
    assert_eq!((now.decisions_made.len(), now.pending_tasks.len()), (1, 1));
}
