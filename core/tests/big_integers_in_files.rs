//! A stored file holding an integer beyond 64 bits (written by another program: ours refuse
//! such values) is read, but never rewritten: serde_json reads the integer as the nearest
//! float, so a change would silently write that float back
//! (`123456789012345678901234567890` as `1.2345678901234568e29` after a `pause`). The change
//! is refused with `corrupt_state` naming the integer and nothing is written; the
//! orchestrator's `doctor --fix` rewrites it as a float and keeps the exact bytes aside. A
//! float written as such (`1e30`) is no reason to refuse.

use serde_json::{Value, json};
use session_state::orchestrator::{
    DecisionInput, OrchestratorStore, SessionStatus, current_key, history_dir,
};
use session_state::registry::{AgentRegistry, CHAINS_KEY, JOURNAL_KEY, JournalMode, SESSIONS_KEY};
use session_state::team::{BackendType, SessionState, SpawnConfig, TeamStore};
use session_state::{Clock, ErrorKind, FixedClock, Key, MemoryStore, Store};

const BIG: &str = "123456789012345678901234567890";

fn clock() -> FixedClock {
    FixedClock::at("2025-12-27T12:30:00Z").unwrap()
}

fn seed_example() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/orchestrator/seed-example.json"
    );
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// `value` as pretty JSON with the member `"x": <raw>` added at its top level.
fn with_raw_member(value: &Value, raw: &str) -> Vec<u8> {
    let text = serde_json::to_string_pretty(value).unwrap();
    let body = text.strip_suffix('}').unwrap().trim_end();
    format!("{body},\n  \"x\": {raw}\n}}").into_bytes()
}

fn assert_refused(err: &session_state::Error) {
    assert_eq!(err.kind(), ErrorKind::CorruptState, "{err}");
    assert!(err.message().contains(BIG), "{err}");
    assert_eq!(err.context_value("field"), Some("[\"x\"]"), "{err}");
}

#[test]
fn orchestrator_changes_are_refused_and_doctor_fix_keeps_the_exact_bytes() {
    let s = OrchestratorStore::new(MemoryStore::new(), clock());
    let bytes = with_raw_member(&seed_example(), BIG);
    s.store().write(&current_key(), &bytes).unwrap();

    assert!(s.load().unwrap().is_some(), "reads are not refused");
    assert_refused(&s.pause().unwrap_err());
    assert_refused(
        &s.record_decision(&DecisionInput {
            decision: "d".into(),
            why: Some("r".into()),
        })
        .unwrap_err(),
    );
    assert_refused(&s.move_to(SessionStatus::Complete).unwrap_err());
    // Archiving it as it is would write the float too, and `session_end` would then remove
    // the current file.
    assert_refused(&s.session_end().unwrap_err());
    assert_refused(&s.load_to_rewrite().unwrap_err());
    assert!(s.store().list(&history_dir()).unwrap().is_empty());
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), bytes);

    let report = s.doctor(false).unwrap();
    assert_eq!(report.problems.len(), 1, "{report:?}");
    assert!(report.problems[0].fixable);
    let report = s.doctor(true).unwrap();
    assert_eq!(
        (report.repaired.len(), report.problems.len()),
        (1, 0),
        "{report:?}"
    );
    let copy = Key::new(&report.repaired[0].kept_copy).unwrap();
    assert_eq!(
        s.store().read(&copy).unwrap().unwrap(),
        bytes,
        "the exact bytes are kept"
    );
    // Rewritten with the nearest float, and changes work again.
    let doc: Value =
        serde_json::from_slice(&s.store().read(&current_key()).unwrap().unwrap()).unwrap();
    assert!(doc["x"].is_f64(), "{}", doc["x"]);
    s.pause().unwrap();
}

#[test]
fn floats_are_no_reason_to_refuse() {
    let s = OrchestratorStore::new(MemoryStore::new(), clock());
    for raw in [
        "1e30",
        "-1.5e300",
        "18446744073709551615",
        "-9223372036854775808",
    ] {
        let bytes = with_raw_member(&seed_example(), raw);
        s.store().write(&current_key(), &bytes).unwrap();
        s.record_decision(&DecisionInput {
            decision: "d".into(),
            why: Some("r".into()),
        })
        .unwrap();
        assert!(s.doctor(false).unwrap().problems.is_empty(), "{raw}");
    }
}

#[test]
fn registry_changes_are_refused_and_reads_still_work() {
    let reg = AgentRegistry::new(MemoryStore::new(), clock());
    reg.register("a", "id1", json!({"ok": 1}), Some("c"))
        .unwrap();
    let sessions = Key::new(SESSIONS_KEY).unwrap();
    let doc: Value =
        serde_json::from_slice(&reg.store().read(&sessions).unwrap().unwrap()).unwrap();
    let bytes = with_raw_member(&doc, BIG);
    reg.store().write(&sessions, &bytes).unwrap();

    assert!(
        reg.agent_result("id1").unwrap().is_some(),
        "reads are not refused"
    );
    assert_refused(&reg.register("b", "id2", json!(1), None).unwrap_err());
    assert_eq!(reg.store().read(&sessions).unwrap().unwrap(), bytes);
    // `create_chain` writes both files: neither is written, not even the chains file before
    // the error.
    let chains = Key::new(CHAINS_KEY).unwrap();
    let chains_before = reg.store().read(&chains).unwrap();
    assert_refused(&reg.create_chain("c9", &["a".to_owned()], None).unwrap_err());
    assert_eq!(reg.store().read(&chains).unwrap(), chains_before);
    // `doctor` names it, for a person to fix (a salvage would write the float).
    let report = reg.doctor(true).unwrap();
    assert_eq!(report.problems.len(), 1, "{report:?}");
    assert!(!report.problems[0].fixable && report.problems[0].message.contains(BIG));
    assert_eq!(reg.store().read(&sessions).unwrap().unwrap(), bytes);

    reg.store().write(&sessions, b"{}").unwrap();
    let chain_bytes = format!(
        "{{\"c1\": {{\"created_at\": \"2025-12-27T10:00:00\", \"expected_sequence\": [], \
         \"metadata\": {{\"n\": {BIG}}}}}}}"
    )
    .into_bytes();
    reg.store().write(&chains, &chain_bytes).unwrap();
    let err = reg.create_chain("c2", &["a".to_owned()], None).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::CorruptState, "{err}");
    assert_eq!(
        err.context_value("field"),
        Some("[\"c1\"][\"metadata\"][\"n\"]"),
        "{err}"
    );
    assert_eq!(reg.store().read(&chains).unwrap().unwrap(), chain_bytes);
}

#[test]
fn team_changes_that_keep_the_file_are_refused() {
    let teams = TeamStore::new(MemoryStore::new(), clock());
    let config = SpawnConfig::new("dev", "p");
    let state = SessionState::from_config(&config, BackendType::Codex, clock().now());
    let key = teams.save("t", &state).unwrap();
    let value: Value = serde_json::from_slice(&teams.store().read(&key).unwrap().unwrap()).unwrap();
    let bytes = with_raw_member(&value, BIG);
    teams.store().write(&key, &bytes).unwrap();

    teams.load("t", "dev").unwrap(); // reads are not refused
    assert_refused(
        &teams
            .record_spawn("t", &config, BackendType::Codex)
            .unwrap_err(),
    );
    assert_refused(&teams.update("t", "dev", |_| Ok(())).unwrap_err());
    assert_eq!(teams.store().read(&key).unwrap().unwrap(), bytes);
    // Replacing the whole state writes nothing of the old file: allowed.
    teams.save("t", &state).unwrap();
}

/// A journal line holding such an integer is not folded into the sessions file as a float,
/// neither by the next registration nor by `compact`.
#[test]
fn a_journal_line_with_one_is_not_folded() {
    let store = MemoryStore::new();
    let journaled = AgentRegistry::new(store.clone(), clock()).with_journal(JournalMode::On {
        min_compact_bytes: 1 << 30,
    });
    journaled
        .register("a", "id-a", json!({"n": 1}), None)
        .unwrap();
    let journal = Key::new(JOURNAL_KEY).unwrap();
    let text = String::from_utf8(store.read(&journal).unwrap().unwrap()).unwrap();
    let edited = text.replace("\"n\":1", &format!("\"n\":{BIG}"));
    assert_ne!(edited, text, "the journal line holds the result");
    store.write(&journal, edited.as_bytes()).unwrap();
    let sessions = Key::new(SESSIONS_KEY).unwrap();
    let before = store.read(&sessions).unwrap();

    let err = journaled.compact().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::CorruptState, "{err}");
    assert!(err.message().contains(BIG), "{err}");
    let plain = AgentRegistry::new(store.clone(), clock());
    let err = plain.register("b", "id-b", json!(1), None).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::CorruptState, "{err}");
    assert_eq!(store.read(&sessions).unwrap(), before);
    assert_eq!(store.read(&journal).unwrap().unwrap(), edited.as_bytes());
}
