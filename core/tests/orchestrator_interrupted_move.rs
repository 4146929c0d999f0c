//! A move of the current session into its archive (`complete`, `abort`, `new` or `fork` with
//! `archive_current`) stopped after the archive was written and before the current file
//! changed (a process killed in between) is completed by running the move again, while an
//! archive the current file does not supersede still stops it.

mod orchestrator_common;

use orchestrator_common::memory;
use serde_json::{Value, json};
use session_state::orchestrator::{
    NewSession, OrchestratorStore, Project, SessionStatus, TaskAdd, current_key, history_key,
};
use session_state::{ErrorKind, FixedClock, MemoryStore, Store};

type Sessions = OrchestratorStore<MemoryStore, FixedClock>;

const ID: &str = "2026-12-07-moved";

/// A session `ID` in progress with one pending task.
fn in_progress() -> Sessions {
    let s = memory();
    let new = NewSession {
        goal: "ship it".into(),
        mode: None,
        id: Some(ID.into()),
        archive_current: false,
    };
    s.record_new(&new, Project::default(), None).unwrap();
    s.start().unwrap();
    add_task(&s, "write the tests");
    s
}

fn add_task(s: &Sessions, task: &str) {
    let input = TaskAdd { task: task.into() };
    s.record_task_add(&input).unwrap();
}

fn read(s: &Sessions, key: &session_state::Key) -> Option<Value> {
    let bytes = s.store().read(key).unwrap()?;
    Some(serde_json::from_slice(&bytes).unwrap())
}

#[test]
fn a_complete_stopped_before_the_current_file_went_is_completed_by_running_it_again() {
    let s = in_progress();
    let before = s.store().read(&current_key()).unwrap().unwrap();
    s.complete().unwrap();
    // The state a kill after the archive's write leaves: both files.
    s.store().write(&current_key(), &before).unwrap();
    let archive = history_key(ID).unwrap();
    assert_eq!(s.complete().unwrap().status, SessionStatus::Complete);
    assert!(read(&s, &current_key()).is_none());
    assert_eq!(read(&s, &archive).unwrap()["status"], "complete");

    // Work recorded into the current file after the kill makes it another archive: replacing
    // it is the caller's call, and the current file holds it all.
    let s = in_progress();
    let before = s.store().read(&current_key()).unwrap().unwrap();
    s.abort().unwrap();
    s.store().write(&current_key(), &before).unwrap();
    add_task(&s, "recorded after the kill");
    let err = s.complete().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AlreadyExists, "{err}");
    s.move_to_with(SessionStatus::Complete, true).unwrap();
    let archived = read(&s, &archive).unwrap();
    assert_eq!(archived["status"], "complete");
    assert_eq!(
        archived["pending_tasks"],
        json!(["write the tests", "recorded after the kill"])
    );
}

#[test]
fn an_archive_holding_more_than_a_restored_current_file_stays_in_the_way() {
    let s = in_progress();
    let backup = s.store().read(&current_key()).unwrap().unwrap();
    add_task(&s, "only in the archive");
    s.complete().unwrap();
    let archive = history_key(ID).unwrap();
    let archived = s.store().read(&archive).unwrap().unwrap();
    // The current file put back from a copy taken before the last task.
    s.store().write(&current_key(), &backup).unwrap();
    for move_to in [SessionStatus::Complete, SessionStatus::Aborted] {
        let err = s.move_to_with(move_to, false).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::AlreadyExists, "{err}");
    }
    assert_eq!(s.store().read(&archive).unwrap().unwrap(), archived);
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), backup);
}

#[test]
fn a_new_session_stopped_before_the_current_file_changed_is_made_by_running_it_again() {
    let s = in_progress();
    let current = s.store().read(&current_key()).unwrap().unwrap();
    // `new` with `archive_current` writes the current file as it is into the archive first.
    let archive = history_key(ID).unwrap();
    s.store().write(&archive, &current).unwrap();
    let new = NewSession {
        goal: "next".into(),
        mode: None,
        id: Some("2026-12-07-next".into()),
        archive_current: true,
    };
    let made = s.record_new(&new, Project::default(), None).unwrap();
    assert_eq!(
        read(&s, &current_key()).unwrap()["session_id"],
        made.session_id
    );
    assert_eq!(s.store().read(&archive).unwrap().unwrap(), current);
}

#[test]
fn an_archive_the_current_file_does_not_supersede_still_stops_a_move() {
    let s = in_progress();
    let current = s.store().read(&current_key()).unwrap().unwrap();
    let archive = history_key(ID).unwrap();
    // The same session, saved later than the current file with other content.
    let mut other: Value = serde_json::from_slice(&current).unwrap();
    other["goal"] = "another goal".into();
    other["updated"] = "2099-01-01T00:00:00Z".into();
    let other = serde_json::to_vec_pretty(&other).unwrap();
    s.store().write(&archive, &other).unwrap();
    let err = s.complete().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AlreadyExists, "{err}");
    let new = NewSession {
        goal: "next".into(),
        mode: None,
        id: None,
        archive_current: true,
    };
    let err = s.record_new(&new, Project::default(), None).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AlreadyExists, "{err}");
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), current);
    assert_eq!(s.store().read(&archive).unwrap().unwrap(), other);
    // Another session's archive under this id's name is not superseded either.
    let mut foreign: Value = serde_json::from_slice(&current).unwrap();
    foreign["session_id"] = "2026-12-07-other".into();
    foreign["updated"] = "2000-01-01T00:00:00Z".into();
    let foreign = serde_json::to_vec_pretty(&foreign).unwrap();
    s.store().write(&archive, &foreign).unwrap();
    assert_eq!(s.complete().unwrap_err().kind(), ErrorKind::AlreadyExists);
    assert_eq!(s.store().read(&archive).unwrap().unwrap(), foreign);
}
