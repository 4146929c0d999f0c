//! Regressions from user testing of the orchestrator: writes over the read limit, final moves
//! that half-happen, ids too long to archive, doctor inventing sessions or writing to a
//! healthy project.

mod orchestrator_common;

use orchestrator_common::{GOLDEN_NOW, clock, memory, vector};
use serde_json::Value;
use session_state::orchestrator::{
    AgentProgress, DecisionInput, HistoryQuery, NewSession, OrchestratorStore, ParseOptions,
    Project, RepairAction, SessionStatus, current_key, history_dir, history_key, parse_document,
    salvage,
};
use session_state::{
    Clock, Error, ErrorKind, FixedClock, Key, MemoryStore, Result, Store, UpdateFn,
};

type Sessions = OrchestratorStore<MemoryStore, FixedClock>;

/// The seed example written compact as the current file, under a limit it fits compact but
/// not pretty-printed.
fn compact_seed_under_tight_limit() -> (Sessions, Vec<u8>) {
    let v: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    let compact = serde_json::to_vec(&v).unwrap();
    let s = OrchestratorStore::new(MemoryStore::new(), clock(GOLDEN_NOW))
        .with_max_document_bytes(compact.len() + 10);
    s.store().write(&current_key(), &compact).unwrap();
    assert!(s.load().unwrap().is_some(), "fits the limit compact");
    (s, compact)
}

#[test]
fn no_write_path_writes_a_document_over_the_read_limit() {
    let (s, compact) = compact_seed_under_tight_limit();
    let unchanged = |s: &Sessions| {
        assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), compact);
    };
    let e = s.pause().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
    assert!(e.message().contains("limit"), "{e}");
    unchanged(&s);
    let e = s
        .record_decision(&DecisionInput {
            decision: "d".into(),
            why: Some("r".into()),
        })
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
    unchanged(&s);
    let mut doc = s.load().unwrap().unwrap();
    assert_eq!(
        s.save(&mut doc).unwrap_err().kind(),
        ErrorKind::InvalidInput
    );
    unchanged(&s);
    let key = history_key(&doc.session_id).unwrap();
    assert_eq!(
        s.archive(&doc, false).unwrap_err().kind(),
        ErrorKind::InvalidInput
    );
    assert!(
        s.store().read(&key).unwrap().is_none(),
        "no archive written"
    );
    assert_eq!(s.complete().unwrap_err().kind(), ErrorKind::InvalidInput);
    unchanged(&s);
    assert!(
        s.store().read(&key).unwrap().is_none(),
        "no archive written"
    );
    // Whatever was written can be read back.
    let big = OrchestratorStore::new(MemoryStore::new(), clock(GOLDEN_NOW));
    let mut doc = parse_document(
        &current_key(),
        &vector("seed-example.json"),
        &ParseOptions::default(),
    )
    .unwrap();
    big.save(&mut doc).unwrap();
    assert!(big.load().unwrap().is_some());
}

#[test]
fn no_write_path_writes_a_progress_that_would_not_read_back() {
    let s = memory();
    let seed = vector("seed-example.json");
    s.store().write(&current_key(), &seed).unwrap();
    let id = s.load().unwrap().unwrap().agents[0].id.clone();
    let e = s
        .record_agent_progress(&AgentProgress {
            id,
            percent: 101.into(),
        })
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
    assert!(
        e.message()
            .contains("progress `101` is not between 0 and 100"),
        "{e}"
    );
    assert_eq!(e.context_value("field"), Some("percent"));
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), seed);
    let mut doc = s.load().unwrap().unwrap();
    doc.agents[0].progress = Some(200u8.into());
    let read = doc.updated;
    assert_eq!(
        s.save(&mut doc).unwrap_err().kind(),
        ErrorKind::InvalidInput
    );
    assert_eq!(doc.updated, read, "not saved: `updated` as read");
    assert_eq!(
        s.archive(&doc, false).unwrap_err().kind(),
        ErrorKind::InvalidInput
    );
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), seed);
}

/// Python writes `3 / 4 * 100` as `75.0` and `len(text) / 4` as a float; the seed reads and
/// shows them. Read, counted by their whole part, and written back as they were.
#[test]
fn counts_python_wrote_as_floats_read_and_are_kept_as_written() {
    let s = memory();
    let mut v: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    v["agents"][1]["progress"] = serde_json::json!(75.0);
    v["agents"][1]["context_tokens"] = serde_json::json!(3200.5);
    v["context_usage"]["estimated_tokens"] = serde_json::json!(6250.25);
    v["context_usage"]["percentage"] = serde_json::json!(-0.5);
    s.store()
        .write(&current_key(), &serde_json::to_vec(&v).unwrap())
        .unwrap();
    let mut doc = s.load().unwrap().unwrap();
    let summary = session_state::orchestrator::resume_summary(&doc, clock(GOLDEN_NOW).now());
    assert_eq!(summary.in_progress[0].progress, 75);
    assert_eq!(summary.context.estimated_tokens, 6250);
    assert!(
        session_state::orchestrator::render_resume(&summary).contains("(75%)"),
        "the agent line"
    );
    s.save(&mut doc).unwrap();
    let written: Value =
        serde_json::from_slice(&s.store().read(&current_key()).unwrap().unwrap()).unwrap();
    assert_eq!(written["agents"][1]["progress"], serde_json::json!(75.0));
    assert!(written["agents"][1]["progress"].is_f64(), "kept a float");
    assert_eq!(
        written["agents"][1]["context_tokens"],
        serde_json::json!(3200.5)
    );
    assert_eq!(
        written["context_usage"]["estimated_tokens"],
        serde_json::json!(6250.25)
    );
    // Outside 0 to 100, a progress is still refused.
    for bad in [serde_json::json!(100.5), serde_json::json!(-1)] {
        v["agents"][1]["progress"] = bad.clone();
        let err = parse_document(
            &current_key(),
            &serde_json::to_vec(&v).unwrap(),
            &ParseOptions::default(),
        )
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::CorruptState, "{bad}: {err}");
        assert_eq!(
            err.context_value("field"),
            Some("agents[1].progress"),
            "{bad}"
        );
    }
}

#[test]
fn doctor_fix_does_not_write_a_repair_over_the_read_limit() {
    // A torn file just under the limit whose pretty repair would be over it.
    let v: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    let compact = serde_json::to_vec(&v).unwrap();
    let torn = &compact[..compact.len() - 40];
    let salvaged = serde_json::to_vec(&salvage(torn).document).unwrap();
    let s = OrchestratorStore::new(MemoryStore::new(), clock(GOLDEN_NOW))
        .with_max_document_bytes(torn.len().max(salvaged.len()) + 10);
    s.store().write(&current_key(), torn).unwrap();
    let e = s.recover(&current_key()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), torn);
}

/// The seed example with its session id replaced by `id`.
fn seed_with_id(id: &str) -> Vec<u8> {
    let mut v: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    v["session_id"] = Value::String(id.to_owned());
    serde_json::to_vec_pretty(&v).unwrap()
}

#[test]
fn ids_too_long_to_archive_are_refused_when_parsed() {
    for len in [251, 255] {
        let id = "x".repeat(len);
        let e = parse_document(&current_key(), &seed_with_id(&id), &ParseOptions::default())
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidKey, "{len}: {e}");
        assert!(e.message().contains(&id), "{e}");
        assert!(e.message().contains("too long for a file name"), "{e}");
        // `doctor` reports it, and `--fix` cuts it to fit, the old id kept aside.
        let s = memory();
        s.store().write(&current_key(), &seed_with_id(&id)).unwrap();
        let report = s.doctor(false).unwrap();
        assert_eq!(report.problems.len(), 1, "{report:?}");
        assert_eq!(report.problems[0].code, "invalid_key");
        assert!(report.problems[0].fixable);
        let report = s.doctor(true).unwrap();
        assert!(report.problems.is_empty(), "{report:?}");
        assert_eq!(report.repaired[0].replaced, ["session_id"]);
        let fixed = s.load().unwrap().unwrap();
        assert_eq!(fixed.session_id, "x".repeat(250));
        assert_eq!(fixed.extra["original_session_id"], Value::String(id));
    }
    // The longest id that fits is read, saved and archived.
    let id = "x".repeat(250);
    let s = memory();
    let mut doc =
        parse_document(&current_key(), &seed_with_id(&id), &ParseOptions::default()).unwrap();
    s.save(&mut doc).unwrap();
    s.complete().unwrap();
    assert!(
        s.store()
            .read(&history_key(&id).unwrap())
            .unwrap()
            .is_some()
    );
    // Nothing creates or saves a session with an id too long to archive.
    let mut doc = parse_document(
        &current_key(),
        &seed_with_id("ok"),
        &ParseOptions::default(),
    )
    .unwrap();
    doc.session_id = "y".repeat(251);
    assert_eq!(
        memory().save(&mut doc).unwrap_err().kind(),
        ErrorKind::InvalidKey
    );
    let project = Project::new("p", "/p", None);
    let e = memory()
        .record_new(
            &NewSession {
                goal: "g".into(),
                ..NewSession::default()
            },
            project,
            Some(&"z".repeat(245)),
        )
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidKey, "{e}");
}

/// A memory store whose writes into the history folder fail.
struct FailingHistory(MemoryStore);

impl Store for FailingHistory {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        self.0.read(key)
    }
    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        if key.is_under(&history_dir()) {
            return Err(Error::new(ErrorKind::Storage, "disk full"));
        }
        self.0.write(key, data)
    }
    fn delete(&self, key: &Key) -> Result<bool> {
        self.0.delete(key)
    }
    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        self.0.list(prefix)
    }
    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        self.0.update(key, apply)
    }
}

fn status_of(bytes: &[u8]) -> String {
    let v: Value = serde_json::from_slice(bytes).unwrap();
    v["status"].as_str().unwrap().to_owned()
}

#[test]
fn a_final_move_whose_archive_exists_changes_nothing_until_replace() {
    let s = memory();
    let seed = vector("seed-example.json");
    s.store().write(&current_key(), &seed).unwrap();
    let doc = s.load().unwrap().unwrap();
    let archive = history_key(&doc.session_id).unwrap();
    s.store().write(&archive, b"{\"old\": true}").unwrap();
    for _ in 0..2 {
        let e = s.complete().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::AlreadyExists, "{e}");
        assert_eq!(e.hint(), Some(session_state::Hint::Replace), "{e}");
        assert!(!e.message().contains("--"), "no front end's flag: {e}");
        assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), seed);
        assert_eq!(s.abort().unwrap_err().kind(), ErrorKind::AlreadyExists);
        assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), seed);
    }
    let done = s.move_to_with(SessionStatus::Complete, true).unwrap();
    assert_eq!(done.status, SessionStatus::Complete);
    assert!(s.load().unwrap().is_none(), "current file removed");
    assert_eq!(
        status_of(&s.store().read(&archive).unwrap().unwrap()),
        "complete"
    );
    let page = s.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!(page.entries[0].status, SessionStatus::Complete);
    assert_eq!(page.entries[0].id, doc.session_id);
}

#[test]
fn a_failed_archive_write_leaves_the_current_status() {
    let s = OrchestratorStore::new(FailingHistory(MemoryStore::new()), clock(GOLDEN_NOW));
    let seed = vector("seed-example.json");
    s.store().write(&current_key(), &seed).unwrap();
    assert_eq!(s.complete().unwrap_err().kind(), ErrorKind::Storage);
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), seed);
    assert_eq!(s.abort().unwrap_err().kind(), ErrorKind::Storage);
    assert_eq!(
        status_of(&s.store().read(&current_key()).unwrap().unwrap()),
        "in_progress"
    );
}

#[test]
fn a_current_session_left_in_a_final_status_can_be_archived() {
    let s = memory();
    let mut v: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    v["status"] = Value::String("complete".into());
    s.store()
        .write(&current_key(), &serde_json::to_vec_pretty(&v).unwrap())
        .unwrap();
    let doc = s.load().unwrap().unwrap();
    let archive = history_key(&doc.session_id).unwrap();
    s.store()
        .write(&archive, &vector("seed-example.json"))
        .unwrap();
    assert_eq!(
        s.archive(&doc, false).unwrap_err().kind(),
        ErrorKind::AlreadyExists
    );
    s.archive(&doc, true).unwrap();
    assert!(s.load().unwrap().is_none());
    assert_eq!(
        status_of(&s.store().read(&archive).unwrap().unwrap()),
        "complete"
    );
}

#[test]
fn a_history_file_named_dot_json_is_listed_and_checked() {
    // The seed's `glob("*.json")` finds `.json` too: it is listed, and checked like any other.
    let s = memory();
    let name = history_dir().join(".json").unwrap();
    s.store()
        .write(&name, &vector("seed-example.json"))
        .unwrap();
    let page = s.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!(page.total, 1, "{page:?}");
    assert_eq!(page.entries[0].id, "2025-12-27-abc123");
    let s = memory();
    s.store().write(&name, b"{torn").unwrap();
    let page = s.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!((page.total, page.skipped.len()), (0, 1), "{page:?}");
    assert_eq!(page.skipped[0].key, name.as_str());
    let report = s.doctor(false).unwrap();
    assert!(
        report.problems.iter().any(|p| p.key == name.as_str()),
        "{report:?}"
    );
}

#[test]
fn a_salvage_says_whether_it_recovered_anything() {
    assert!(!salvage(b"\xff\x00\x13").recovered_anything);
    assert!(!salvage(b"{\"goal\": 7}").recovered_anything);
    assert!(salvage(b"{\"goal\": \"g\"").recovered_anything);
    let value = serde_json::to_value(salvage(b"[]")).unwrap();
    assert_eq!(value["recovered_anything"], false);
}

#[test]
fn doctor_fix_moves_aside_files_with_nothing_to_salvage() {
    let history = history_key("2025-12-01-junk").unwrap();
    for junk in [
        &b""[..],
        b"\x00\xff\x01binary",
        b"[1,2,3]",
        b"{}",
        b"{\"schema_version\": \"1.",
    ] {
        let s = memory();
        s.store().write(&current_key(), junk).unwrap();
        s.store().write(&history, junk).unwrap();
        let report = s.doctor(true).unwrap();
        assert!(report.problems.is_empty(), "{report:?}");
        assert_eq!(report.repaired.len(), 2, "{report:?}");
        for repair in &report.repaired {
            assert_eq!(repair.action, RepairAction::MovedAside, "{junk:?}");
            let kept = Key::new(repair.kept_copy.as_str()).unwrap();
            assert_eq!(s.store().read(&kept).unwrap().unwrap(), junk);
        }
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["repaired"][0]["action"], "moved_aside");
        assert!(s.load().unwrap().is_none(), "no invented current session");
        assert!(s.store().read(&history).unwrap().is_none());
        let page = s.list_history(&HistoryQuery::default()).unwrap();
        assert_eq!((page.total, page.skipped.len()), (0, 0), "{page:?}");
    }
}

#[test]
fn doctor_fix_still_rewrites_files_with_real_fields() {
    let s = memory();
    let seed = vector("seed-example.json");
    s.store()
        .write(&current_key(), &seed[..seed.len() / 2])
        .unwrap();
    let history = history_key("2025-12-01-goal-only").unwrap();
    s.store()
        .write(&history, b"{\"goal\": \"kept goal\", \"agents\": [")
        .unwrap();
    let report = s.doctor(true).unwrap();
    assert_eq!(report.repaired.len(), 2, "{report:?}");
    assert!(
        report
            .repaired
            .iter()
            .all(|r| r.action == RepairAction::Rewritten)
    );
    assert_eq!(s.load().unwrap().unwrap().session_id, "2025-12-27-abc123");
    let doc = s.read_document(&history).unwrap().unwrap();
    assert_eq!(
        (doc.session_id.as_str(), doc.goal.as_str()),
        ("2025-12-01-goal-only", "kept goal")
    );
}

/// Records the status of every document written to the current key.
struct RecordingCurrent(MemoryStore, std::sync::Mutex<Vec<String>>);

impl RecordingCurrent {
    fn record(&self, key: &Key, data: &[u8]) {
        if *key == current_key() {
            self.1.lock().unwrap().push(status_of(data));
        }
    }
}

impl Store for RecordingCurrent {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        self.0.read(key)
    }
    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.record(key, data);
        self.0.write(key, data)
    }
    fn delete(&self, key: &Key) -> Result<bool> {
        self.0.delete(key)
    }
    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        self.0.list(prefix)
    }
    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        self.0.update(key, &mut |old| {
            let out = apply(old)?;
            if let Some(bytes) = &out {
                self.record(key, bytes);
            }
            Ok(out)
        })
    }
}

/// A final move archives and removes the current file inside one exclusive update: the
/// current file never holds a final status that another process could read (so parallel
/// `complete` runs never fail with "cannot move from `complete` to `complete`"), and a
/// current file written after the move is never the one removed.
#[test]
fn a_final_move_never_writes_a_final_status_into_the_current_file() {
    for to in [SessionStatus::Complete, SessionStatus::Aborted] {
        let store = RecordingCurrent(MemoryStore::new(), std::sync::Mutex::default());
        store
            .write(&current_key(), &vector("seed-example.json"))
            .unwrap();
        let s = OrchestratorStore::new(store, clock(GOLDEN_NOW));
        assert_eq!(s.move_to(to).unwrap().status, to);
        assert_eq!(s.store().read(&current_key()).unwrap(), None);
        let written = s.store().1.lock().unwrap().clone();
        assert_eq!(
            written,
            ["in_progress"],
            "{to:?}: only the seed's own write"
        );
    }
}

/// Refuses every change: a project on a read-only disk or folder.
struct ReadOnly(MemoryStore);

impl ReadOnly {
    fn refuse<T>(key: &Key) -> Result<T> {
        Err(Error::new(
            ErrorKind::Storage,
            format!("`{key}` is read-only"),
        ))
    }
}

impl Store for ReadOnly {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        self.0.read(key)
    }
    fn write(&self, key: &Key, _: &[u8]) -> Result<()> {
        Self::refuse(key)
    }
    fn delete(&self, key: &Key) -> Result<bool> {
        Self::refuse(key)
    }
    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        self.0.list(prefix)
    }
    fn update(&self, key: &Key, _: &mut UpdateFn<'_>) -> Result<()> {
        Self::refuse(key)
    }
}

/// `doctor --fix` on a healthy project changes nothing, so it also works where nothing may be
/// written: a healthy index is not rewritten, and a project without history gets none.
#[test]
fn doctor_fix_on_a_healthy_project_writes_nothing() {
    // Without history: no index is made.
    let s = memory();
    s.store()
        .write(&current_key(), &vector("seed-example.json"))
        .unwrap();
    let files = s.store().list(&Key::new(".claude").unwrap()).unwrap();
    let s = OrchestratorStore::new(ReadOnly(s.store().clone()), clock(GOLDEN_NOW));
    let report = s.doctor(true).unwrap();
    assert_eq!((report.checked, report.problems.len()), (1, 0));
    assert_eq!(
        s.store().0.list(&Key::new(".claude").unwrap()).unwrap(),
        files
    );

    // With history and an up-to-date index: nothing is rewritten.
    let s = memory();
    let mut doc = s
        .record_new(
            &NewSession {
                goal: "goal".into(),
                ..NewSession::default()
            },
            Project::new("p", "/p", None),
            Some("one"),
        )
        .unwrap();
    doc.status = SessionStatus::Complete;
    s.archive(&doc, false).unwrap();
    s.store()
        .write(&current_key(), &vector("seed-example.json"))
        .unwrap();
    s.rebuild_index().unwrap();
    let s = OrchestratorStore::new(ReadOnly(s.store().clone()), clock(GOLDEN_NOW));
    let report = s.doctor(true).unwrap();
    assert_eq!(
        (report.checked, report.problems.len()),
        (2, 0),
        "{report:?}"
    );

    // A missing index is not made by doctor (the next listing makes it).
    let index = session_state::orchestrator::index_key();
    s.store().0.delete(&index).unwrap();
    assert_eq!(s.doctor(true).unwrap().problems.len(), 0);
    // A stale index is still rebuilt (here: refused, since the store is read-only).
    s.store().0.write(&index, b"{}").unwrap();
    assert_eq!(s.doctor(true).unwrap_err().kind(), ErrorKind::Storage);
}
