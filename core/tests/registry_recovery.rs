//! Registry recovery: corrupt copies that do not pile up, journals whose dropped content is
//! always kept aside, and `AgentRegistry::doctor`.

use serde_json::json;
use session_state::registry::{AgentRegistry, CHAINS_KEY, JOURNAL_KEY, JournalMode, SESSIONS_KEY};
use session_state::{Error, ErrorKind, FixedClock, Key, MemoryStore, Result, Store, UpdateFn};

fn key(k: &str) -> Key {
    Key::new(k).unwrap()
}

fn at(text: &str) -> FixedClock {
    FixedClock::at(text).unwrap()
}

/// Every `.corrupt-*` copy under `.moai/memory`, with its bytes.
fn copies(store: &MemoryStore) -> Vec<(String, Vec<u8>)> {
    store
        .list(&key(".moai/memory"))
        .unwrap()
        .into_iter()
        .filter(|k| k.as_str().contains(".corrupt-"))
        .map(|k| {
            let bytes = store.read(&k).unwrap().unwrap();
            (k.to_string(), bytes)
        })
        .collect()
}

#[test]
fn failed_registrations_on_a_corrupt_registry_keep_one_copy() {
    let store = MemoryStore::new();
    store.write(&key(SESSIONS_KEY), b"garbage").unwrap();
    for (i, now) in [
        "2026-11-29T17:56:00Z",
        "2026-11-29T17:57:00Z",
        "2026-11-29T18:00:00Z",
    ]
    .into_iter()
    .enumerate()
    {
        let reg = AgentRegistry::new(store.clone(), at(now));
        let err = reg
            .register("a", &format!("a{i}"), json!(1), None)
            .unwrap_err();
        assert_eq!(err.code(), "corrupt_state");
        assert_eq!(
            err.context_value("kept_aside"),
            Some(format!("{SESSIONS_KEY}.corrupt-20261129T175600Z").as_str())
        );
    }
    assert_eq!(
        copies(&store),
        [(
            format!("{SESSIONS_KEY}.corrupt-20261129T175600Z"),
            b"garbage".to_vec()
        )]
    );
}

#[test]
fn a_different_corruption_in_the_same_second_gets_its_own_copy() {
    let store = MemoryStore::new();
    let reg = AgentRegistry::new(store.clone(), at("2026-11-29T17:56:00Z"));
    store.write(&key(CHAINS_KEY), b"one").unwrap();
    reg.create_chain("c", &[], None).unwrap_err();
    store.write(&key(CHAINS_KEY), b"two").unwrap();
    reg.create_chain("c", &[], None).unwrap_err();
    let names: Vec<String> = copies(&store).into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        names,
        [
            format!("{CHAINS_KEY}.corrupt-20261129T175600Z"),
            format!("{CHAINS_KEY}.corrupt-20261129T175600Z-1"),
        ]
    );
}

#[test]
fn an_all_garbage_journal_is_copied_before_it_is_reset() {
    for garbage in [&b"garbage"[..], b"garbage\n", b"{\"op\": \"register\""] {
        let store = MemoryStore::new();
        store.write(&key(JOURNAL_KEY), garbage).unwrap();
        let reg = AgentRegistry::new(store.clone(), at("2026-11-29T17:56:00Z"))
            .with_journal(JournalMode::DEFAULT_ON);
        reg.register("z", "zid", json!(null), None).unwrap();
        let kept = copies(&store);
        assert_eq!(
            kept,
            [(
                format!("{JOURNAL_KEY}.corrupt-20261129T175600Z"),
                garbage.to_vec()
            )],
            "journal {:?}",
            String::from_utf8_lossy(garbage)
        );
        reg.close().unwrap();
        assert_eq!(reg_sessions(&store), ["z"]);
    }
}

#[test]
fn a_plain_writer_also_copies_a_garbage_journal_it_drops() {
    let store = MemoryStore::new();
    store.write(&key(JOURNAL_KEY), b"garbage").unwrap();
    let reg = AgentRegistry::new(store.clone(), at("2026-11-29T17:56:00Z"));
    reg.register("z", "zid", json!(null), None).unwrap();
    assert_eq!(copies(&store).len(), 1);
}

fn reg_sessions(store: &MemoryStore) -> Vec<String> {
    AgentRegistry::new(store.clone(), at("2026-11-29T17:56:00Z"))
        .load()
        .unwrap()
        .sessions
        .keys()
        .cloned()
        .collect()
}

#[test]
fn doctor_reports_each_corrupt_file_then_fixes_them_keeping_copies() {
    let store = MemoryStore::new();
    store.write(&key(SESSIONS_KEY), b"garbage").unwrap();
    store.write(&key(CHAINS_KEY), b"[1]").unwrap();
    // A valid journal line: the entry a journal-mode registration appends.
    let scratch = MemoryStore::new();
    AgentRegistry::new(scratch.clone(), at("2026-11-29T17:00:00Z"))
        .with_journal(JournalMode::DEFAULT_ON)
        .register("a", "a1", json!(1), None)
        .unwrap();
    let written = scratch.read(&key(JOURNAL_KEY)).unwrap().unwrap();
    let entry = written
        .trim_ascii_end()
        .rsplit(|&b| b == b'\n')
        .next()
        .unwrap();
    let good = [entry, b"\n"].concat();
    let journal = [&b"{\"generation\": 1}\n"[..], &good, b"not json\n"].concat();
    store.write(&key(JOURNAL_KEY), &journal).unwrap();
    let reg = AgentRegistry::new(store.clone(), at("2026-11-29T17:56:00Z"));

    let report = reg.doctor(false).unwrap();
    assert_eq!(report.checked, 3);
    let found: Vec<(&str, &str, bool)> = report
        .problems
        .iter()
        .map(|p| (p.key.as_str(), p.code.as_str(), p.fixable))
        .collect();
    assert_eq!(
        found,
        [
            (SESSIONS_KEY, "corrupt_state", true),
            (CHAINS_KEY, "corrupt_state", true),
            (JOURNAL_KEY, "corrupt_state", true),
        ]
    );
    assert!(
        report.problems[2]
            .message
            .contains("1 line(s) that do not parse")
    );
    assert!(copies(&store).is_empty(), "doctor alone changes nothing");
    assert_eq!(store.read(&key(SESSIONS_KEY)).unwrap().unwrap(), b"garbage");

    let report = reg.doctor(true).unwrap();
    assert!(report.problems.is_empty(), "{report:?}");
    let repaired: Vec<&str> = report.repaired.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(repaired, [SESSIONS_KEY, CHAINS_KEY, JOURNAL_KEY]);
    let kept = copies(&store);
    assert_eq!(kept.len(), 3, "one copy per file: {kept:?}");
    for r in &report.repaired {
        let held = store.read(&key(&r.kept_copy)).unwrap().unwrap();
        assert!(kept.contains(&(r.kept_copy.clone(), held)));
    }
    assert_eq!(
        store
            .read(&key(&report.repaired[2].kept_copy))
            .unwrap()
            .unwrap(),
        journal
    );
    // The good journal line was folded into the fresh registry.
    assert_eq!(reg_sessions(&store), ["a"]);
    assert!(reg.load_chains().unwrap().is_empty());
    let again = reg.doctor(false).unwrap();
    assert!(
        again.problems.is_empty() && again.repaired.is_empty(),
        "{again:?}"
    );
}

#[test]
fn doctor_on_a_missing_registry_checks_nothing() {
    let reg = AgentRegistry::new(MemoryStore::new(), at("2026-11-29T17:56:00Z"));
    assert_eq!(
        reg.doctor(true).unwrap(),
        session_state::registry::RegistryDoctorReport::default()
    );
}

#[test]
fn recover_chains_keeps_a_corrupt_chains_file_aside_and_lets_create_chain_work() {
    let store = MemoryStore::new();
    store.write(&key(CHAINS_KEY), b"{not json").unwrap();
    let reg = AgentRegistry::new(&store, at("2026-11-29T17:56:00Z"));
    let err = reg.create_chain("SPEC-1", &["a".into()], None).unwrap_err();
    assert_eq!(err.code(), "corrupt_state");
    let aside = reg.recover_chains().unwrap().expect("a copy");
    assert!(
        aside
            .as_str()
            .starts_with(&format!("{CHAINS_KEY}.corrupt-")),
        "{aside}"
    );
    assert_eq!(store.read(&aside).unwrap().unwrap(), b"{not json");
    assert_eq!(
        copies(&store).len(),
        1,
        "the copy create_chain kept is reused"
    );
    assert_eq!(
        reg.recover_chains().unwrap(),
        None,
        "nothing left to recover"
    );
    reg.create_chain("SPEC-1", &["a".into()], None).unwrap();
    assert!(reg.load_chains().unwrap().contains_key("SPEC-1"));
}

/// The seed's `create_chain` only adds to `workflow-chains.json` (it writes
/// `["spec-builder", 2]` as given), so any entry is read: none makes the file corrupt, each is
/// written back as it was, and an object's known keys of another type are kept among `extra`.
#[test]
fn any_entry_of_the_chains_file_is_read_and_kept() {
    let store = MemoryStore::new();
    let text = r#"{
  "spec-1": {"created_at": "t", "expected_sequence": ["a", "b"], "metadata": {"p": 1}},
  "legacy": {"created_at": 5, "expected_sequence": ["spec-builder", 2], "metadata": null},
  "odd": "spec-7",
  "listed": [1, 2],
  "none": null
}"#;
    store.write(&key(CHAINS_KEY), text.as_bytes()).unwrap();
    let reg = AgentRegistry::new(&store, at("2026-11-29T17:56:00Z"));
    let chains = reg.load_chains().unwrap();
    assert_eq!(
        chains.keys().collect::<Vec<_>>(),
        ["spec-1", "legacy"],
        "entries that are not objects are left out of the definitions"
    );
    assert_eq!(chains["spec-1"].expected(), ["a", "b"]);
    let legacy = &chains["legacy"];
    assert_eq!(
        (legacy.created_at.as_ref(), legacy.expected()),
        (None, &[][..])
    );
    assert_eq!(legacy.extra["created_at"], json!(5));
    assert_eq!(
        legacy.extra["expected_sequence"],
        json!(["spec-builder", 2])
    );
    assert_eq!(legacy.metadata, Some(serde_json::Value::Null));
    let report = reg.doctor(false).unwrap();
    assert!(report.problems.is_empty(), "{report:?}");

    // A sequence holding a number: its names are expected, and it is never complete.
    let status = reg.chain_status("legacy").unwrap();
    assert_eq!(status.expected, ["spec-builder"]);
    assert!(status.defined && !status.complete, "{status:?}");
    reg.create_chain("spec-2", &["c".into()], None).unwrap();
    let written: serde_json::Value =
        serde_json::from_slice(&store.read(&key(CHAINS_KEY)).unwrap().unwrap()).unwrap();
    let mut expected: serde_json::Value = serde_json::from_str(text).unwrap();
    expected["spec-2"] = written["spec-2"].clone();
    assert_eq!(written, expected, "every entry written back as it was");
    assert_eq!(written["spec-2"]["expected_sequence"], json!(["c"]));
    assert!(copies(&store).is_empty(), "nothing called corrupt");
}

/// `doctor --fix` keeps what follows a `NaN` (which Python's `json` writes): the salvage does
/// not stop at the first `NaN`, so every valid entry after it is kept.
#[test]
fn salvage_reads_past_nan_and_infinities() {
    let store = MemoryStore::new();
    let text = r#"{
  "sessions": {"a": "id1", "b": "id2"},
  "chains": {},
  "metadata": {
    "id1": {"agent_name": "a", "created_at": "2026-11-29T17:00:00", "chain_id": null, "resume_count": 0},
    "id2": {"agent_name": "b", "created_at": "2026-11-29T17:00:01", "chain_id": null, "resume_count": 0}
  },
  "results": {
    "id1": {"agent_name": "a", "result": {"score": NaN, "low": -Infinity, "high": Infinity}, "timestamp": "2026-11-29T17:00:00", "chain_id": null},
    "id2": {"agent_name": "b", "result": {"ok": 1}, "timestamp": "2026-11-29T17:00:01", "chain_id": null}
  },
  "zz_after": [1, 2]
}"#;
    store.write(&key(SESSIONS_KEY), text.as_bytes()).unwrap();
    let reg = AgentRegistry::new(store.clone(), at("2026-11-29T17:56:00Z"));
    let report = reg.doctor(true).unwrap();
    assert!(report.problems.is_empty(), "{report:?}");
    assert_eq!(copies(&store).len(), 1);
    assert_eq!(
        reg.agent_result("id1").unwrap(),
        Some(json!({"score": null, "low": null, "high": null}))
    );
    assert_eq!(reg.agent_result("id2").unwrap(), Some(json!({"ok": 1})));
    let doc: serde_json::Value =
        serde_json::from_slice(&store.read(&key(SESSIONS_KEY)).unwrap().unwrap()).unwrap();
    assert_eq!(doc["zz_after"], json!([1, 2]));
    assert_eq!(reg_sessions(&store), ["a", "b"]);
}

/// Refuses every change: a folder the process may only read.
struct ReadOnly(MemoryStore);

impl Store for ReadOnly {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        self.0.read(key)
    }
    fn write(&self, key: &Key, _: &[u8]) -> Result<()> {
        Err(Error::new(
            ErrorKind::Storage,
            format!("`{key}` is read-only"),
        ))
    }
    fn delete(&self, key: &Key) -> Result<bool> {
        Err(Error::new(
            ErrorKind::Storage,
            format!("`{key}` is read-only"),
        ))
    }
    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        self.0.list(prefix)
    }
    fn update(&self, key: &Key, _: &mut UpdateFn<'_>) -> Result<()> {
        Err(Error::new(
            ErrorKind::Storage,
            format!("cannot lock `{key}`: read-only"),
        ))
    }
}

/// `doctor` checks a healthy journal with registrations waiting without locking it, so a
/// read-only folder can be checked (no "cannot lock" failure).
#[test]
fn doctor_checks_a_healthy_pending_journal_without_the_lock() {
    let store = MemoryStore::new();
    let writer = AgentRegistry::new(store.clone(), at("2026-11-29T17:56:00Z")).with_journal(
        JournalMode::On {
            min_compact_bytes: 1 << 30,
        },
    );
    writer.register("a", "id-a", json!(1), None).unwrap();
    let reg = AgentRegistry::new(ReadOnly(store.clone()), at("2026-11-29T17:56:00Z"));
    for fix in [false, true] {
        let report = reg.doctor(fix).unwrap();
        assert!(
            report.problems.is_empty() && report.repaired.is_empty(),
            "{report:?}"
        );
        let present = [SESSIONS_KEY, CHAINS_KEY, JOURNAL_KEY]
            .iter()
            .filter(|k| store.read(&key(k)).unwrap().is_some())
            .count();
        assert_eq!(report.checked, present, "{report:?}");
    }
    // A damaged journal is still looked at under the lock (refused here: read-only).
    let mut journal = store.read(&key(JOURNAL_KEY)).unwrap().unwrap();
    journal.extend_from_slice(b"not json\n");
    store.write(&key(JOURNAL_KEY), &journal).unwrap();
    assert_eq!(reg.doctor(false).unwrap_err().kind(), ErrorKind::Storage);
}

#[test]
fn repair_salvages_the_sessions_file_and_restarts_the_chains_file_in_one_call() {
    let store = MemoryStore::new();
    let reg = AgentRegistry::new(&store, at("2026-11-29T17:56:00Z"));
    assert_eq!(
        reg.repair().unwrap(),
        vec![],
        "nothing to repair in an empty store"
    );
    reg.register("coder", "a1", json!({"ok": true}), Some("SPEC-1"))
        .unwrap();
    let whole = store.read(&key(SESSIONS_KEY)).unwrap().unwrap();
    let mut torn = whole[..whole.len() - 3].to_vec();
    torn.extend_from_slice(b"\"x");
    store.write(&key(SESSIONS_KEY), &torn).unwrap();
    store.write(&key(CHAINS_KEY), b"{not json").unwrap();
    let repaired = reg.repair().unwrap();
    let keys: Vec<&str> = repaired.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, [SESSIONS_KEY, CHAINS_KEY], "sessions first");
    assert!(
        repaired[0].action.starts_with("salvaged"),
        "{:?}",
        repaired[0]
    );
    assert_eq!(repaired[1].action, "started empty");
    for repair in &repaired {
        assert!(
            repair
                .kept_copy
                .starts_with(&format!("{}.corrupt-", repair.key)),
            "{repair:?}"
        );
    }
    assert_eq!(
        store.read(&key(&repaired[0].kept_copy)).unwrap().unwrap(),
        torn
    );
    assert_eq!(reg.resume_id("coder", None).unwrap().as_deref(), Some("a1"));
    reg.create_chain("SPEC-2", &["a".into()], None).unwrap();
    assert_eq!(reg.repair().unwrap(), vec![], "nothing left to repair");
}
