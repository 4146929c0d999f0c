//! The registry's files and the team session files are held to the read limit, as the
//! orchestrator document is: over it, `invalid_input` naming the limit, never `corrupt_state`;
//! `doctor` with `fix` sets an over-limit registry file aside and starts it empty.

use serde_json::json;
use session_state::registry::{AgentRegistry, JournalMode, RegistryOptions};
use session_state::team::{TeamStore, TeamStoreOptions};
use session_state::{ErrorKind, FixedClock, Hint, Key, MemoryStore, Store};

const SESSIONS: &str = ".moai/memory/agent-sessions.json";
const CHAINS: &str = ".moai/memory/workflow-chains.json";
const JOURNAL: &str = ".moai/memory/agent-sessions.journal.jsonl";

fn clock() -> FixedClock {
    FixedClock::at("2026-12-01T12:00:00Z").unwrap()
}

fn key(text: &str) -> Key {
    Key::new(text).unwrap()
}

/// A valid file of more than 1 KiB (an unknown top-level key pads it).
fn padded(mut doc: serde_json::Value) -> Vec<u8> {
    doc["x-pad"] = json!("p".repeat(2048));
    serde_json::to_vec(&doc).unwrap()
}

fn assert_over_limit(err: &session_state::Error, name: &str) {
    assert_eq!(err.kind(), ErrorKind::InvalidInput, "{err}");
    assert_eq!(err.context_value("limit"), Some("1024"), "{err}");
    assert_eq!(err.context_value("key"), Some(name), "{err}");
    assert!(err.message().contains("limit of 1024 bytes"), "{err}");
    assert_eq!(
        err.hint(),
        Some(Hint::RaiseLimit {
            option: "max_document_bytes"
        })
    );
}

#[test]
fn every_registry_file_over_the_limit_is_refused_untouched() {
    let sessions = padded(json!({"sessions": {"a": "id-1"}, "chains": {}, "metadata": {}}));
    let store = MemoryStore::new();
    store.write(&key(SESSIONS), &sessions).unwrap();
    let reg = AgentRegistry::new(store.clone(), clock()).with_max_document_bytes(1024);
    assert_eq!(reg.max_document_bytes(), 1024);
    assert_over_limit(&reg.load().unwrap_err(), SESSIONS);
    let err = reg.register("b", "id-2", json!(1), None).unwrap_err();
    assert_over_limit(&err, SESSIONS);
    assert_over_limit(&reg.create_chain("c", &[], None).unwrap_err(), SESSIONS);
    // Untouched, nothing kept aside (it is not corrupt).
    assert_eq!(store.read(&key(SESSIONS)).unwrap().unwrap(), sessions);
    assert_eq!(store.len(), 1);
    // The default limit reads it.
    let reg = AgentRegistry::new(store.clone(), clock());
    assert_eq!(reg.resume_id("a", None).unwrap().as_deref(), Some("id-1"));

    let store = MemoryStore::new();
    store.write(&key(CHAINS), &padded(json!({}))).unwrap();
    let reg = AgentRegistry::new(store.clone(), clock()).with_max_document_bytes(1024);
    assert_over_limit(&reg.load_chains().unwrap_err(), CHAINS);
    assert_over_limit(&reg.create_chain("c", &[], None).unwrap_err(), CHAINS);

    let store = MemoryStore::new();
    let line = json!({"op": "register", "x-pad": "p".repeat(2048)}).to_string() + "\n";
    store.write(&key(JOURNAL), line.as_bytes()).unwrap();
    let reg = AgentRegistry::new(store.clone(), clock())
        .with_journal(JournalMode::DEFAULT_ON)
        .with_max_document_bytes(1024);
    assert_over_limit(&reg.load().unwrap_err(), JOURNAL);
    assert_over_limit(&reg.compact().unwrap_err(), JOURNAL);
}

#[test]
fn a_registration_that_would_put_a_file_over_the_limit_is_refused_unwritten() {
    let big = json!("r".repeat(450));
    // Plain mode: the file would be over the limit.
    let store = MemoryStore::new();
    let reg = AgentRegistry::new(store.clone(), clock()).with_max_document_bytes(1024);
    reg.register("a", "id-1", big.clone(), None).unwrap();
    let before = store.read(&key(SESSIONS)).unwrap().unwrap();
    let err = reg.register("b", "id-2", big.clone(), None).unwrap_err();
    assert_over_limit(&err, SESSIONS);
    assert_eq!(store.read(&key(SESSIONS)).unwrap().unwrap(), before);
    assert_eq!(reg.resume_id("a", None).unwrap().as_deref(), Some("id-1"));
    // Journal mode: a line the fold could not write is not appended, one at a time or added up.
    let store = MemoryStore::new();
    let reg = AgentRegistry::new(store.clone(), clock())
        .with_journal(JournalMode::DEFAULT_ON)
        .with_max_document_bytes(1024);
    let err = reg
        .register("a", "id-1", json!("r".repeat(2048)), None)
        .unwrap_err();
    assert_over_limit(&err, SESSIONS);
    reg.register("b", "id-2", json!(1), None).unwrap();
    let mut refused = 0;
    for i in 0..6 {
        if let Err(err) = reg.register(&format!("n{i}"), &format!("id-n{i}"), big.clone(), None) {
            assert_over_limit(&err, SESSIONS);
            refused += 1;
        }
        // Every file stays readable.
        assert_eq!(reg.resume_id("b", None).unwrap().as_deref(), Some("id-2"));
    }
    assert!(refused > 0);
    assert_eq!(reg.resume_id("a", None).unwrap(), None);
    // A fold over the limit is refused; both files stay as they are, readable.
    if let Err(err) = reg.compact() {
        assert_over_limit(&err, SESSIONS);
    }
    let reopened = AgentRegistry::new(store.clone(), clock()).with_max_document_bytes(1024);
    assert_eq!(
        reopened.resume_id("b", None).unwrap().as_deref(),
        Some("id-2")
    );
}

#[test]
fn doctor_fix_sets_an_over_limit_registry_file_aside() {
    let sessions = padded(json!({"sessions": {"a": "id-1"}, "chains": {}, "metadata": {}}));
    let chains = padded(json!({"c": {}}));
    let journal = json!({"x-pad": "p".repeat(2048)}).to_string() + "\n";
    let store = MemoryStore::new();
    store.write(&key(SESSIONS), &sessions).unwrap();
    store.write(&key(CHAINS), &chains).unwrap();
    store.write(&key(JOURNAL), journal.as_bytes()).unwrap();
    let reg = AgentRegistry::new(store.clone(), clock()).with_max_document_bytes(1024);
    let report = reg.doctor(false).unwrap();
    assert_eq!(report.problems.len(), 3, "{report:?}");
    for problem in &report.problems {
        assert_eq!(problem.code, "invalid_input", "{problem:?}");
        assert!(problem.fixable, "{problem:?}");
        assert!(
            problem.message.contains("limit of 1024 bytes"),
            "{problem:?}"
        );
    }
    let report = reg.doctor(true).unwrap();
    assert!(report.problems.is_empty(), "{report:?}");
    assert_eq!(report.repaired.len(), 3, "{report:?}");
    for (repair, bytes) in
        report
            .repaired
            .iter()
            .zip([sessions.as_slice(), chains.as_slice(), journal.as_bytes()])
    {
        assert!(repair.action.contains("limit of 1024 bytes"), "{repair:?}");
        let kept = store.read(&key(&repair.kept_copy)).unwrap().unwrap();
        assert_eq!(kept, bytes, "{repair:?}: the bytes are kept aside");
    }
    // Usable again under the same limit.
    reg.register("b", "id-2", json!(1), None).unwrap();
    reg.create_chain("c", &["b".to_owned()], None).unwrap();
    assert_eq!(reg.resume_id("b", None).unwrap().as_deref(), Some("id-2"));
}

#[test]
fn registry_options_carry_the_limit() {
    let options: RegistryOptions =
        serde_json::from_value(json!({"maxDocumentBytes": 1024, "journal": true})).unwrap();
    let reg = options
        .apply(AgentRegistry::new(MemoryStore::new(), clock()), "options")
        .unwrap();
    assert_eq!(reg.max_document_bytes(), 1024);
    assert_eq!(reg.mode(), JournalMode::DEFAULT_ON);
}

#[test]
fn a_team_file_over_the_limit_is_refused_and_skipped_in_listings() {
    let doc = json!({"name": "a", "backendType": "codex", "prompt": "p",
                     "createdAt": "2026-03-01T12:34:56Z"});
    let store = MemoryStore::new();
    let a = key("teams/t/sessions/a.json");
    store.write(&a, &padded(doc.clone())).unwrap();
    store
        .write(
            &key("teams/t/sessions/b.json"),
            &serde_json::to_vec(&doc).unwrap(),
        )
        .unwrap();
    let options: TeamStoreOptions =
        serde_json::from_value(json!({"maxDocumentBytes": 1024})).unwrap();
    let teams = options.apply(TeamStore::new(store.clone(), clock()));
    assert_eq!(teams.max_document_bytes(), 1024);
    assert_over_limit(&teams.load("t", "a").unwrap_err(), a.as_str());
    let err = teams.update("t", "a", |_| Ok(())).unwrap_err();
    assert_over_limit(&err, a.as_str());
    let listing = teams.list("t").unwrap();
    assert_eq!(listing.members.len(), 1);
    assert_eq!(listing.skipped[0].code, "invalid_input");
    // The default limit reads it.
    assert!(TeamStore::new(store, clock()).load("t", "a").is_ok());
}

#[test]
fn a_team_save_over_the_limit_is_refused_and_nothing_written() {
    use session_state::team::{BackendType, SpawnConfig};
    let store = MemoryStore::new();
    let teams = TeamStore::new(store.clone(), clock()).with_max_document_bytes(1024);
    let b = key("teams/t/sessions/b.json");
    let small = teams
        .record_spawn("t", &SpawnConfig::new("b", "p"), BackendType::Codex)
        .unwrap();
    let before = store.read(&b).unwrap();
    let big = SpawnConfig::new("b", "p".repeat(2048));
    let err = teams
        .record_spawn("t", &big, BackendType::Codex)
        .unwrap_err();
    assert_over_limit(&err, b.as_str());
    let mut large = small.clone();
    large.prompt = "p".repeat(2048);
    assert_over_limit(&teams.save("t", &large).unwrap_err(), b.as_str());
    let err = teams
        .update("t", "b", |state| {
            state.prompt = "p".repeat(2048);
            Ok(())
        })
        .unwrap_err();
    assert_over_limit(&err, b.as_str());
    assert_over_limit(&teams.replace("t", "b", &large).unwrap_err(), b.as_str());
    assert_eq!(store.read(&b).unwrap(), before, "nothing written");
    let c = key("teams/t/sessions/c.json");
    large.name = "c".into();
    assert_over_limit(&teams.save("t", &large).unwrap_err(), c.as_str());
    assert_eq!(store.read(&c).unwrap(), None);
}
