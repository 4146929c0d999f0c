//! `save` and `archive` of a document read before a later save of the same session are
//! `conflict`, nothing written: writing the old document (or removing the current file) would
//! lose the later save. A document derived from the current one (the seed's load, change,
//! save or archive) goes through.

use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, Utc};
use session_state::orchestrator::{
    DecisionInput, HistoryQuery, NewSession, OrchestratorStore, Project, SessionStatus, current_key,
};
use session_state::{Clock, ErrorKind, FixedClock, MemoryStore, Store, Timestamp};

/// A clock one second later at every reading.
struct Ticking(AtomicI64);

impl Clock for Ticking {
    fn now(&self) -> DateTime<Utc> {
        DateTime::from_timestamp(1_767_225_600 + self.0.fetch_add(1, Ordering::SeqCst), 0).unwrap()
    }
}

fn sessions() -> OrchestratorStore<MemoryStore, Ticking> {
    sessions_at(Ticking(AtomicI64::new(0)))
}

/// A started session in a new memory store, its times from `clock`.
fn sessions_at<C: Clock>(clock: C) -> OrchestratorStore<MemoryStore, C> {
    let s = OrchestratorStore::new(MemoryStore::new(), clock);
    s.record_new(
        &NewSession {
            goal: "goal".into(),
            ..NewSession::default()
        },
        Project::new("p", "/p", None),
        Some("abc"),
    )
    .unwrap();
    s.start().unwrap();
    s
}

/// Records the decision `decision` through `s` (a later save of the current session).
fn decide<C: Clock>(s: &OrchestratorStore<MemoryStore, C>, decision: &str) {
    let input = DecisionInput {
        decision: decision.into(),
        why: None,
    };
    s.record_decision(&input).unwrap();
}

#[test]
fn an_archive_of_a_stale_snapshot_is_a_conflict_and_loses_nothing() {
    let s = sessions();
    let snapshot = s.load().unwrap().unwrap();
    decide(&s, "use postgres");
    let current = s.store().read(&current_key()).unwrap().unwrap();
    let err = s.archive(&snapshot, false).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
    assert!(err.message().contains("later save"), "{err}");
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), current);
    assert!(
        s.list_history(&HistoryQuery::default())
            .unwrap()
            .entries
            .is_empty()
    );
    // Loaded again, it archives with the decision.
    let fresh = s.load().unwrap().unwrap();
    let key = s.archive(&fresh, false).unwrap();
    assert_eq!(s.load().unwrap(), None);
    let archived = s.read_document(&key).unwrap().unwrap();
    assert_eq!(archived.decisions_made.len(), 1);
}

#[test]
fn a_document_derived_from_the_current_one_is_archived() {
    // The seed's flow: load, change, archive.
    let s = sessions();
    let mut doc = s.load().unwrap().unwrap();
    doc.status = SessionStatus::Complete;
    let key = s.archive(&doc, false).unwrap();
    assert_eq!(s.load().unwrap(), None);
    assert_eq!(
        s.read_document(&key).unwrap().unwrap().status,
        SessionStatus::Complete
    );
}

#[test]
fn a_document_saved_again_unchanged_is_archived() {
    // `save(doc)` writes a later `updated` into the file, not into `doc`: same content.
    let s = sessions();
    let mut doc = s.load().unwrap().unwrap();
    let read = doc.clone();
    s.save(&mut doc).unwrap();
    s.archive(&read, false).unwrap();
    assert_eq!(s.load().unwrap(), None);
}

#[test]
fn a_save_of_a_stale_snapshot_is_a_conflict_and_loses_nothing() {
    let s = sessions();
    let other = OrchestratorStore::new(s.store().clone(), Ticking(AtomicI64::new(100)));
    let mut snapshot = s.load().unwrap().unwrap();
    decide(&other, "use postgres");
    let current = s.store().read(&current_key()).unwrap().unwrap();
    snapshot.goal = "new goal".into();
    let err = s.save(&mut snapshot).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
    assert!(err.message().contains("load it again"), "{err}");
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), current);
    // Loaded again and changed, it saves with the decision.
    let mut fresh = s.load().unwrap().unwrap();
    fresh.goal = "new goal".into();
    s.save(&mut fresh).unwrap();
    let saved = s.load().unwrap().unwrap();
    assert_eq!(
        (saved.goal.as_str(), saved.decisions_made.len()),
        ("new goal", 1)
    );
}

#[test]
fn load_change_save_change_save_works_on_one_handle_and_across_handles() {
    let s = sessions();
    let mut doc = s.load().unwrap().unwrap();
    doc.goal = "one".into();
    s.save(&mut doc).unwrap();
    doc.pending_tasks.push("two".into());
    s.save(&mut doc).unwrap();
    // A new handle each time (the save sets `doc.updated`, so the next save is not stale).
    let again = OrchestratorStore::new(s.store().clone(), Ticking(AtomicI64::new(50)));
    doc.pending_tasks.push("three".into());
    again.save(&mut doc).unwrap();
    assert_eq!(s.load().unwrap().unwrap().pending_tasks, ["two", "three"]);
}

#[test]
fn two_documents_loaded_from_one_handle_do_not_overwrite_each_other() {
    let s = sessions();
    let mut first = s.load().unwrap().unwrap();
    let mut second = s.load().unwrap().unwrap();
    let unchanged = second.clone();
    first.goal = "first".into();
    s.save(&mut first).unwrap();
    let current = s.store().read(&current_key()).unwrap().unwrap();
    second.goal = "second".into();
    let err = s.save(&mut second).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), current);
    // A copy holding what the file holds loses nothing: it is written.
    let mut same = first.clone();
    same.updated = unchanged.updated;
    s.save(&mut same).unwrap();
    assert_eq!(s.load().unwrap().unwrap().goal, "first");
}

#[test]
fn threads_sharing_one_handle_lose_no_save() {
    const THREADS: usize = 4;
    const SAVES: usize = 25;
    let s = sessions();
    std::thread::scope(|scope| {
        for t in 0..THREADS {
            let s = &s;
            scope.spawn(move || {
                for i in 0..SAVES {
                    // Load, change, save; load again after a conflict.
                    loop {
                        let mut doc = s.load().unwrap().unwrap();
                        doc.pending_tasks.push(format!("{t}-{i}"));
                        match s.save(&mut doc) {
                            Ok(_) => break,
                            Err(e) => assert_eq!(e.kind(), ErrorKind::Conflict, "{e}"),
                        }
                    }
                }
            });
        }
    });
    let kept = s.load().unwrap().unwrap().pending_tasks;
    assert_eq!(kept.len(), THREADS * SAVES, "{kept:?}");
}

#[test]
fn a_refused_save_leaves_the_document_as_read_so_a_retry_is_refused_too() {
    let s = sessions();
    // This handle's clock is ahead of the other writer's: its refused stamp is the later one.
    let ahead = OrchestratorStore::new(s.store().clone(), Ticking(AtomicI64::new(1_000)));
    let other = OrchestratorStore::new(s.store().clone(), Ticking(AtomicI64::new(100)));
    let mut snapshot = ahead.load().unwrap().unwrap();
    let read = snapshot.updated;
    decide(&other, "use postgres");
    snapshot.goal = "new goal".into();
    for _ in 0..2 {
        let err = ahead.save(&mut snapshot).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
        assert_eq!(snapshot.updated, read);
    }
    assert_eq!(s.load().unwrap().unwrap().decisions_made.len(), 1);
}

#[test]
fn saves_within_one_tick_of_the_clock_still_find_each_other() {
    // A clock that never moves: every save is stamped after the `updated` it read.
    let s = OrchestratorStore::new(
        MemoryStore::new(),
        FixedClock::at("2026-01-01T00:00:00Z").unwrap(),
    );
    let goal = NewSession {
        goal: "goal".into(),
        ..NewSession::default()
    };
    s.record_new(&goal, Project::new("p", "/p", None), Some("abc"))
        .unwrap();
    let (mut first, mut second) = (s.load().unwrap().unwrap(), s.load().unwrap().unwrap());
    first.goal = "first".into();
    s.save(&mut first).unwrap();
    second.goal = "second".into();
    assert_eq!(s.save(&mut second).unwrap_err().kind(), ErrorKind::Conflict);
    // A recording verb within the tick too: the document read before it is refused.
    let mut read = s.load().unwrap().unwrap();
    decide(&s, "d");
    read.goal = "later".into();
    assert_eq!(s.save(&mut read).unwrap_err().kind(), ErrorKind::Conflict);
    assert_eq!(s.load().unwrap().unwrap().decisions_made.len(), 1);
}

#[test]
fn a_save_stamped_before_the_file_it_replaces_is_still_found() {
    // Clocks apart (a shared store): the file's `updated` moves back, and a document read
    // before that save is still refused.
    let s = sessions();
    let ahead = OrchestratorStore::new(s.store().clone(), Ticking(AtomicI64::new(10_000)));
    let behind = OrchestratorStore::new(s.store().clone(), Ticking(AtomicI64::new(5)));
    let mut early = behind.load().unwrap().unwrap();
    ahead.record_save().unwrap();
    let mut read_ahead = ahead.load().unwrap().unwrap();
    // Unchanged but for `updated`: written, stamped before the file it replaces.
    behind.save(&mut early).unwrap();
    assert!(early.updated < read_ahead.updated);
    decide(&behind, "kept");
    read_ahead.goal = "changed".into();
    let err = ahead.save(&mut read_ahead).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
    assert_eq!(s.load().unwrap().unwrap().decisions_made.len(), 1);
}

#[test]
fn a_document_read_in_the_future_is_saved_at_the_clocks_now() {
    // The seed writes naive local time, read as UTC: east of UTC it is ahead of the clock.
    let s = sessions();
    let mut doc = s.load().unwrap().unwrap();
    doc.updated = Some(Timestamp::parse("2030-01-01T00:00:00").unwrap());
    s.save(&mut doc).unwrap();
    assert!(doc.updated.unwrap().utc() < Timestamp::parse("2027-01-01T00:00:00Z").unwrap().utc());
}

#[test]
fn a_prepared_save_refused_leaves_the_document_as_read_so_a_retry_is_refused_too() {
    let s = sessions();
    let other = OrchestratorStore::new(s.store().clone(), Ticking(AtomicI64::new(100)));
    let mut doc = s.load().unwrap().unwrap();
    let read = doc.updated;
    decide(&other, "kept");
    doc.goal = "changed".into();
    for _ in 0..2 {
        let pending = s.prepare_save(&mut doc).unwrap();
        let err = pending.commit(s.store()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
        assert_eq!(doc.updated, read);
    }
    assert_eq!(s.load().unwrap().unwrap().decisions_made.len(), 1);
}

#[test]
fn a_document_read_before_its_session_was_archived_does_not_bring_it_back() {
    let s = sessions();
    let other = OrchestratorStore::new(s.store().clone(), Ticking(AtomicI64::new(100)));
    let mut doc = s.load().unwrap().unwrap();
    other.move_to(SessionStatus::Complete).unwrap();
    doc.goal = "changed".into();
    let err = s.save(&mut doc).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
    assert!(err.message().contains("was archived"), "{err}");
    assert_eq!(s.load().unwrap(), None);
    // Read from its archive, it may be made current again.
    let key = session_state::orchestrator::history_key(&doc.session_id).unwrap();
    let mut archived = s.read_document(&key).unwrap().unwrap();
    s.save(&mut archived).unwrap();
    assert_eq!(s.load().unwrap().unwrap().status, SessionStatus::Complete);
}

#[test]
fn a_document_read_before_a_new_session_does_not_replace_it() {
    let s = sessions();
    let other = OrchestratorStore::new(s.store().clone(), Ticking(AtomicI64::new(100)));
    let mut doc = s.load().unwrap().unwrap();
    let next = NewSession {
        goal: "next".into(),
        archive_current: true,
        ..NewSession::default()
    };
    let new = other
        .record_new(&next, Project::new("p", "/p", None), Some("def"))
        .unwrap();
    decide(&other, "kept");
    doc.goal = "changed".into();
    let err = s.save(&mut doc).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
    assert!(
        err.message().contains("another session is current"),
        "{err}"
    );
    let current = s.load().unwrap().unwrap();
    assert_eq!(
        (current.session_id, current.decisions_made.len()),
        (new.session_id, 1)
    );
}

#[test]
fn saves_within_one_clock_tick_never_stamp_an_updated_a_stale_document_holds() {
    // A clock that does not move (the browser's milliseconds, saves within one): two saves
    // after a document was read, then that document's save.
    let s = sessions_at(FixedClock::at("2027-01-15T08:00:00Z").unwrap());
    let mut stale = s.load().unwrap().unwrap();
    decide(&s, "x");
    let mut read = s.load().unwrap().unwrap();
    read.goal = "y".into();
    s.save(&mut read).unwrap();
    assert!(
        read.updated > stale.updated,
        "{:?} after {:?}",
        read.updated,
        stale.updated
    );
    stale.goal = "stale".into();
    let err = s.save(&mut stale).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
    let now = s.load().unwrap().unwrap();
    assert_eq!((now.goal.as_str(), now.decisions_made.len()), ("y", 1));
}
