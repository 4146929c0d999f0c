//! `tests/vectors/partial/cases.json`: documents lacking keys their readers treat as optional
//! load, and a rewrite keeps every entry as it was (see the file's description).

use std::path::PathBuf;

use serde_json::{Value, json};
use session_state::orchestrator::OrchestratorStore;
use session_state::registry::AgentRegistry;
use session_state::team::TeamStore;
use session_state::{FixedClock, Key, MemoryStore, Store};

fn cases() -> Value {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/partial/cases.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn clock() -> FixedClock {
    FixedClock::at("2026-12-01T12:00:00Z").unwrap()
}

/// Writes the case's document, loads it and rewrites it through its target; the file after.
fn rewritten(target: &str, key: &Key, document: &Value) -> Value {
    let store = MemoryStore::new();
    store
        .write(key, &serde_json::to_vec_pretty(document).unwrap())
        .unwrap();
    match target {
        "registry" => {
            let reg = AgentRegistry::new(store.clone(), clock());
            reg.load().unwrap();
            reg.register("probe", "probe-1", json!({"ok": true}), None)
                .unwrap();
        }
        "chains" => {
            let reg = AgentRegistry::new(store.clone(), clock());
            reg.load_chains().unwrap();
            reg.create_chain("probe", &["a".to_owned()], None).unwrap();
        }
        "orchestrator" => {
            let sessions = OrchestratorStore::new(store.clone(), clock());
            let mut doc = sessions.load().unwrap().unwrap();
            sessions.save(&mut doc).unwrap();
        }
        "team" => {
            let teams = TeamStore::new(store.clone(), clock());
            let state = teams.load("t", "a").unwrap();
            teams.save("t", &state).unwrap();
        }
        other => panic!("unknown target {other}"),
    }
    serde_json::from_slice(&store.read(key).unwrap().unwrap()).unwrap()
}

#[test]
fn documents_missing_optional_keys_load_and_keep_every_entry() {
    let all = cases();
    let cases = all["cases"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let target = case["target"].as_str().unwrap();
        let key = Key::new(all["targets"][target]["key"].as_str().unwrap()).unwrap();
        let document = &case["document"];
        let after = rewritten(target, &key, document);
        for pointer in case["kept"].as_array().unwrap() {
            let pointer = pointer.as_str().unwrap();
            assert_eq!(
                after.pointer(pointer),
                document.pointer(pointer),
                "{name}: {pointer}"
            );
        }
        for pointer in case["absent"].as_array().unwrap() {
            let pointer = pointer.as_str().unwrap();
            assert_eq!(after.pointer(pointer), None, "{name}: {pointer} was added");
        }
    }
}

#[test]
fn the_seed_reads_of_a_partial_metadata_entry_give_the_seed_answers() {
    let store = MemoryStore::new();
    let key = Key::new(".moai/memory/agent-sessions.json").unwrap();
    let doc = json!({"sessions": {"a": "id-1"}, "metadata": {"id-1": {"note": "x"}}});
    store.write(&key, doc.to_string().as_bytes()).unwrap();
    let reg = AgentRegistry::new(store, clock());
    // No chain recorded: a chain asked for does not match (the seed's `.get("chain_id")`).
    assert_eq!(reg.resume_id("a", None).unwrap().as_deref(), Some("id-1"));
    assert_eq!(reg.resume_id("a", Some("c")).unwrap(), None);
    // No resume count: 0, so the tasks decide (the seed's `.get("resume_count", 0)`).
    assert!(
        reg.should_resume("a", "fix the parser", Some("parser work"))
            .unwrap()
    );
    // Incrementing counts from 0 (the seed's `+= 1` raised KeyError) and keeps the other key.
    assert!(reg.increment_resume_count("id-1").unwrap());
    let meta = &reg.load().unwrap().metadata["id-1"];
    assert_eq!(meta.resume_count, Some(1u64.into()));
    assert_eq!(meta.extra["note"], "x");
    assert_eq!(meta.agent_name, None);
}
