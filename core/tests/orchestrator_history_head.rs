//! The history listing's head and the index journal: the head answers what it holds and
//! gives the same pages as a full scan; archives append to the journal, which the next
//! listing folds into the index; a torn journal line or a head of another offset is not used.

mod orchestrator_common;

use chrono::FixedOffset;
use orchestrator_common::{GOLDEN_NOW, clock, memory};
use session_state::orchestrator::{
    HistoryQuery, OrchestratorSession, OrchestratorStore, Project, SessionStatus, index_head_key,
    index_journal_key, index_key,
};
use session_state::{FixedClock, MemoryStore, Store, Timestamp};

fn session(i: u32, status: SessionStatus) -> OrchestratorSession {
    // Minutes apart, some with the same instant (ties by id).
    let created = Timestamp::parse(&format!(
        "2025-12-{:02}T{:02}:{:02}:00Z",
        1 + i / 600,
        (i / 60) % 10,
        (i / 2) % 60
    ))
    .unwrap();
    let project = Project::new("p", "/p", None);
    let mut doc = OrchestratorSession::new(
        format!("s{i:04}"),
        format!("goal {i}"),
        "default",
        project,
        created,
    );
    doc.status = status;
    doc
}

fn status_of(i: u32) -> SessionStatus {
    if i.is_multiple_of(7) {
        SessionStatus::Aborted
    } else {
        SessionStatus::Complete
    }
}

/// Every query below gives the same page through the index as by a full scan.
fn same_as_full_scan(s: &OrchestratorStore<MemoryStore, FixedClock>) {
    let statuses = [
        None,
        Some(SessionStatus::Complete),
        Some(SessionStatus::Aborted),
    ];
    for status in statuses {
        for (offset, limit) in [
            (0, 10),
            (0, 0),
            (5, 20),
            (90, 10),
            (95, 10),
            (150, 30),
            (0, 1000),
        ] {
            let q = HistoryQuery {
                limit,
                offset,
                status,
            };
            assert_eq!(
                s.list_history(&q).unwrap(),
                s.list_history_full_scan(&q).unwrap(),
                "{q:?}"
            );
        }
    }
}

#[test]
fn the_head_gives_the_pages_of_a_full_scan_and_archives_go_through_the_journal() {
    let s = memory();
    for i in 0..250 {
        s.archive(&session(i, status_of(i)), false).unwrap();
    }
    // No index yet: the archives wrote none.
    assert!(s.store().read(&index_key()).unwrap().is_none());
    same_as_full_scan(&s);
    let head = s.store().read(&index_head_key()).unwrap();
    assert!(
        head.is_some(),
        "written by a listing that found the index in step"
    );

    // With the head there, an archive appends one line to the journal.
    s.archive(&session(250, SessionStatus::Aborted), false)
        .unwrap();
    let journal = s.store().read(&index_journal_key()).unwrap().unwrap();
    assert_eq!(
        journal
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .count(),
        1
    );
    same_as_full_scan(&s);
    assert!(
        s.store().read(&index_journal_key()).unwrap().is_none(),
        "folded"
    );

    // A replaced archive: its journal line replaces its record.
    let mut again = session(3, SessionStatus::Aborted);
    again.goal = "replaced".into();
    s.archive(&again, true).unwrap();
    s.archive(&session(251, SessionStatus::Complete), false)
        .unwrap();
    let page = s
        .list_history(&HistoryQuery {
            limit: 1000,
            ..Default::default()
        })
        .unwrap();
    let three = page.entries.iter().find(|e| e.id == "s0003").unwrap();
    assert_eq!(
        (three.goal.as_str(), three.status),
        ("replaced", SessionStatus::Aborted)
    );
    assert_eq!(page.total, 252);
    same_as_full_scan(&s);
}

#[test]
fn a_torn_journal_line_is_skipped_and_the_file_still_listed() {
    let s = memory();
    for i in 0..3 {
        s.archive(&session(i, SessionStatus::Complete), false)
            .unwrap();
    }
    s.list_history(&HistoryQuery::default()).unwrap();
    s.list_history(&HistoryQuery::default()).unwrap();
    s.archive(&session(3, SessionStatus::Complete), false)
        .unwrap();
    // A crash cut the last line short.
    let mut journal = s.store().read(&index_journal_key()).unwrap().unwrap();
    journal.truncate(journal.len() / 2);
    s.store().write(&index_journal_key(), &journal).unwrap();
    let page = s.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!(page.total, 4);
    assert_eq!(page.entries[0].id, "s0003");
    assert_eq!(
        page,
        s.list_history_full_scan(&HistoryQuery::default()).unwrap()
    );
}

#[test]
fn a_head_taken_with_another_naive_offset_is_not_used() {
    let store = MemoryStore::new();
    let utc = OrchestratorStore::new(store.clone(), clock(GOLDEN_NOW));
    // Naive `created` values: their order depends on the offset they are read with.
    for (id, created) in [
        ("east", "2025-12-01T10:00:00"),
        ("west", "2025-12-01T10:00:00+05:00"),
    ] {
        let key = session_state::orchestrator::history_key(id).unwrap();
        let mut doc = session(0, SessionStatus::Complete);
        doc.session_id = id.into();
        let mut v: serde_json::Value = serde_json::from_slice(&doc.to_pretty_json()).unwrap();
        v["created"] = created.into();
        store.write(&key, &serde_json::to_vec(&v).unwrap()).unwrap();
    }
    let q = HistoryQuery::default();
    utc.list_history(&q).unwrap();
    let ids = |page: session_state::orchestrator::HistoryPage| -> Vec<String> {
        page.entries.into_iter().map(|e| e.id).collect()
    };
    assert_eq!(ids(utc.list_history(&q).unwrap()), ["east", "west"]);
    assert!(store.read(&index_head_key()).unwrap().is_some());
    let local = OrchestratorStore::new(store.clone(), clock(GOLDEN_NOW))
        .with_naive_offset(FixedOffset::west_opt(8 * 3600).unwrap());
    // Read as UTC-8, `east` is 18:00Z: after `west` (05:00Z).
    assert_eq!(ids(local.list_history(&q).unwrap()), ["east", "west"]);
    let local = OrchestratorStore::new(store.clone(), clock(GOLDEN_NOW))
        .with_naive_offset(FixedOffset::east_opt(8 * 3600).unwrap());
    // Read as UTC+8, `east` is 02:00Z: before `west`.
    assert_eq!(ids(local.list_history(&q).unwrap()), ["west", "east"]);
    assert_eq!(
        local.list_history(&q).unwrap(),
        local.list_history_full_scan(&q).unwrap()
    );
}
