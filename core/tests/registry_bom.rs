//! Registry files starting with a UTF-8 BOM (some Windows editors add one) read as without it,
//! as orchestrator files do, neither `corrupt_state` nor empty to the salvage; the next write
//! drops it.

use serde_json::json;
use session_state::registry::{AgentRegistry, CHAINS_KEY, SESSIONS_KEY};
use session_state::{FixedClock, Key, MemoryStore, Store};

const BOM: &[u8] = b"\xEF\xBB\xBF";

fn key(k: &str) -> Key {
    Key::new(k).unwrap()
}

fn registry(store: &MemoryStore) -> AgentRegistry<MemoryStore, FixedClock> {
    AgentRegistry::new(
        store.clone(),
        FixedClock::at("2026-11-30T02:00:00Z").unwrap(),
    )
}

fn with_bom(bytes: &[u8]) -> Vec<u8> {
    [BOM, bytes].concat()
}

#[test]
fn sessions_and_chains_files_with_a_bom_read_and_are_rewritten_without() {
    let store = MemoryStore::new();
    let reg = registry(&store);
    reg.register("a", "a1", json!({"v": 1}), Some("C")).unwrap();
    reg.register("b", "b1", json!({"v": 2}), Some("C")).unwrap();
    reg.create_chain("C", &["a".into(), "b".into()], None)
        .unwrap();
    for k in [SESSIONS_KEY, CHAINS_KEY] {
        let bytes = store.read(&key(k)).unwrap().unwrap();
        store.write(&key(k), &with_bom(&bytes)).unwrap();
    }
    let reg = registry(&store);
    let doc = reg.load().unwrap();
    assert_eq!(doc.sessions.len(), 2);
    assert_eq!(reg.chain_ids().unwrap(), ["C"]);
    reg.register("c", "c1", json!(3), None).unwrap();
    let bytes = store.read(&key(SESSIONS_KEY)).unwrap().unwrap();
    assert!(bytes.starts_with(b"{"), "{:?}", &bytes[..4]);
    assert_eq!(registry(&store).load().unwrap().sessions.len(), 3);
}

#[test]
fn a_damaged_file_with_a_bom_is_salvaged() {
    let store = MemoryStore::new();
    let reg = registry(&store);
    for i in 1..=3 {
        reg.register(
            &format!("agent{i}"),
            &format!("id{i}"),
            json!({"v": i}),
            None,
        )
        .unwrap();
    }
    let bytes = store.read(&key(SESSIONS_KEY)).unwrap().unwrap();
    let text = String::from_utf8(bytes)
        .unwrap()
        .replace("\"v\": 3", "\"v\": NaN");
    store
        .write(&key(SESSIONS_KEY), &with_bom(text.as_bytes()))
        .unwrap();
    let (_, what) = registry(&store).recover_salvaging().unwrap().unwrap();
    assert!(what.contains("3 sessions"), "{what}");
    assert_eq!(registry(&store).load().unwrap().sessions.len(), 3);
}
