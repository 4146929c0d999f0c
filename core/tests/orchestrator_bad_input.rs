//! Bad input: each gives its typed error, nothing is deleted, nothing is written outside the
//! store root.

mod orchestrator_common;

use orchestrator_common::{GOLDEN_NOW, clock, memory, tree, vector};
use serde_json::{Value, json};
use session_state::orchestrator::{
    DecisionInput, HistoryQuery, OrchestratorStore, ParseOptions, current_key, history_key,
    parse_document,
};
use session_state::{ErrorKind, Store};
use session_state_fs::FsStore;

/// The UTF-8 byte order mark.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

fn seed_value() -> Value {
    serde_json::from_slice(&vector("seed-example.json")).unwrap()
}

fn parse(bytes: &[u8]) -> session_state::Result<session_state::orchestrator::OrchestratorSession> {
    parse_document(&current_key(), bytes, &ParseOptions::default())
}

fn with(field: &str, value: Value) -> Vec<u8> {
    let mut v = seed_value();
    v[field] = value;
    serde_json::to_vec(&v).unwrap()
}

#[test]
#[allow(clippy::too_many_lines)]
fn each_bad_document_gives_its_typed_error() {
    let mut deep_agent = seed_value();
    deep_agent["agents"][1]["progress"] = json!("sixty");
    let mut big_progress = seed_value();
    big_progress["agents"][1]["progress"] = json!(150);
    let mut no_goal = seed_value();
    no_goal.as_object_mut().unwrap().remove("goal");
    let cases: Vec<(&str, Vec<u8>, ErrorKind, &str)> = vec![
        ("empty", Vec::new(), ErrorKind::CorruptState, "empty"),
        ("blank", b" \n\t".to_vec(), ErrorKind::CorruptState, "empty"),
        (
            "top-level array",
            b"[1, 2]".to_vec(),
            ErrorKind::CorruptState,
            "an array",
        ),
        (
            "top-level string",
            b"\"x\"".to_vec(),
            ErrorKind::CorruptState,
            "a string",
        ),
        (
            "torn",
            vector("seed-example.torn.json"),
            ErrorKind::CorruptState,
            "line",
        ),
        (
            "garbage",
            b"\x00\xff\xfe".to_vec(),
            ErrorKind::CorruptState,
            "invalid JSON",
        ),
        (
            "schema 2.0",
            br#"{"schema_version": "2.0", "agents": "other shape"}"#.to_vec(),
            ErrorKind::IncompatibleSchema,
            "`2.0`",
        ),
        (
            "schema number",
            with("schema_version", json!(1.0)),
            ErrorKind::CorruptState,
            "schema_version",
        ),
        (
            "no schema",
            br#"{"session_id": "x"}"#.to_vec(),
            ErrorKind::CorruptState,
            "schema_version",
        ),
        (
            "goal number",
            with("goal", json!(42)),
            ErrorKind::CorruptState,
            "`goal`",
        ),
        (
            "agents object",
            with("agents", json!({})),
            ErrorKind::CorruptState,
            "`agents`",
        ),
        (
            "bad status",
            with("status", json!("running")),
            ErrorKind::CorruptState,
            "`status`",
        ),
        (
            "bad created",
            with("created", json!("yesterday")),
            ErrorKind::CorruptState,
            "`created`",
        ),
        (
            "deep wrong type",
            serde_json::to_vec(&deep_agent).unwrap(),
            ErrorKind::CorruptState,
            "`agents[1].progress`",
        ),
        (
            "progress 150",
            serde_json::to_vec(&big_progress).unwrap(),
            ErrorKind::CorruptState,
            "agents[1].progress",
        ),
        (
            "missing goal",
            serde_json::to_vec(&no_goal).unwrap(),
            ErrorKind::CorruptState,
            "goal",
        ),
        (
            "id ../x",
            with("session_id", json!("../x")),
            ErrorKind::InvalidKey,
            "../x",
        ),
        (
            "id a/b",
            with("session_id", json!("a/b")),
            ErrorKind::InvalidKey,
            "a/b",
        ),
        (
            "id ..",
            with("session_id", json!("..")),
            ErrorKind::InvalidKey,
            "..",
        ),
        (
            "id NUL",
            with("session_id", json!("a\u{0}b")),
            ErrorKind::InvalidKey,
            "NUL",
        ),
        (
            "id 300 bytes",
            with("session_id", json!("x".repeat(300))),
            ErrorKind::InvalidKey,
            "255",
        ),
        (
            "id empty",
            with("session_id", json!("")),
            ErrorKind::InvalidKey,
            "empty",
        ),
    ];
    for (name, bytes, kind, needle) in cases {
        let err = parse(&bytes).unwrap_err();
        assert_eq!(err.kind(), kind, "{name}: {err}");
        assert!(
            err.message().contains(needle),
            "{name}: {:?} lacks {needle:?}",
            err.message()
        );
        assert!(
            err.message().contains(".claude/orchestrator-session.json")
                || kind == ErrorKind::InvalidKey,
            "{name} names the key"
        );
    }
}

#[test]
fn a_utf8_bom_is_accepted() {
    let mut bytes = UTF8_BOM.to_vec();
    bytes.extend(vector("seed-example.json"));
    let doc = parse(&bytes).unwrap();
    assert!(!doc.to_pretty_json().starts_with(UTF8_BOM), "never written");
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let mut bytes = br#"{"schema_version": "1.0", "x": "#.to_vec();
    bytes.extend(std::iter::repeat_n(b'[', 100_000));
    bytes.extend(std::iter::repeat_n(b']', 100_000));
    bytes.push(b'}');
    let err = parse(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::CorruptState);
    assert!(err.message().contains("recursion limit"), "{err}");
    // Salvage of the same bytes must not overflow either.
    let s = memory();
    s.store().write(&current_key(), &bytes).unwrap();
    let err = s.load().unwrap_err();
    assert!(err.salvaged().is_some());
}

#[test]
fn oversized_documents_are_invalid_input() {
    let s = memory().with_max_document_bytes(100);
    s.store()
        .write(&current_key(), &vector("seed-example.json"))
        .unwrap();
    let err = s.load().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
    assert!(err.message().contains("limit of 100 bytes"));
}

#[test]
fn load_of_a_corrupt_file_carries_the_salvage_and_deletes_nothing() {
    let s = memory();
    let torn = vector("seed-example.torn.json");
    s.store().write(&current_key(), &torn).unwrap();
    let err = s.load().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::CorruptState);
    let salvaged = err.salvaged().unwrap();
    assert_eq!(salvaged["session_id"], "2025-12-27-abc123");
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), torn);
    // Moves refuse to touch it.
    assert_eq!(s.pause().unwrap_err().kind(), ErrorKind::CorruptState);
    assert_eq!(
        s.record_decision(&DecisionInput {
            decision: "d".into(),
            why: Some("r".into())
        })
        .unwrap_err()
        .kind(),
        ErrorKind::CorruptState
    );
    assert_eq!(s.store().read(&current_key()).unwrap().unwrap(), torn);
}

#[test]
fn save_over_a_corrupt_file_keeps_a_copy_first() {
    let s = memory();
    let torn = vector("seed-example.torn.json");
    s.store().write(&current_key(), &torn).unwrap();
    let mut doc = parse(&vector("seed-example.json")).unwrap();
    s.save(&mut doc).unwrap();
    let copy =
        session_state::Key::new(".claude/orchestrator-session.json.corrupt-20251227T123000Z")
            .unwrap();
    assert_eq!(s.store().read(&copy).unwrap().unwrap(), torn);
    // A second corrupt save in the same second gets a distinct copy.
    s.store().write(&current_key(), b"{").unwrap();
    s.save(&mut doc).unwrap();
    let copy2 =
        session_state::Key::new(".claude/orchestrator-session.json.corrupt-20251227T123000Z-1")
            .unwrap();
    assert_eq!(s.store().read(&copy2).unwrap().unwrap(), b"{");
    // A valid file is replaced without a copy.
    s.save(&mut doc).unwrap();
    assert_eq!(
        s.store()
            .list(&session_state::Key::new(".claude").unwrap())
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn unsafe_ids_never_become_paths_on_the_fs_store() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let store = FsStore::new(&root).unwrap();
    let s = OrchestratorStore::new(store, clock(GOLDEN_NOW));
    for id in ["../x", "a/b", "..", "a\u{0}b", &"y".repeat(300), "a\\b", ""] {
        let mut v = seed_value();
        v["session_id"] = json!(id);
        let mut doc: session_state::orchestrator::OrchestratorSession =
            serde_json::from_value(v).unwrap();
        assert_eq!(
            s.save(&mut doc).unwrap_err().kind(),
            ErrorKind::InvalidKey,
            "{id:?}"
        );
        assert_eq!(
            s.archive(&doc, true).unwrap_err().kind(),
            ErrorKind::InvalidKey,
            "{id:?}"
        );
        assert_eq!(history_key(id).unwrap_err().kind(), ErrorKind::InvalidKey);
    }
    // Not even the root: the store creates it on its first write, and none succeeded.
    let written = tree(dir.path());
    assert!(written.is_empty(), "written: {written:?}");
}

#[test]
fn a_foreign_history_file_is_skipped_not_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let s = OrchestratorStore::new(FsStore::new(dir.path()).unwrap(), clock(GOLDEN_NOW));
    let mut doc = parse(&vector("seed-example.json")).unwrap();
    s.save(&mut doc).unwrap();
    s.archive(&doc, false).unwrap();
    let hist = dir.path().join(".claude/orchestrator-history");
    std::fs::write(hist.join("package.json"), br#"{"name": "left-pad"}"#).unwrap();
    std::fs::write(hist.join("empty.json"), b"").unwrap();
    let before = tree(dir.path());
    let page = s.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!(page.entries.len(), 1);
    let codes: Vec<&str> = page.skipped.iter().map(|k| k.code.as_str()).collect();
    assert_eq!(codes, ["corrupt_state", "corrupt_state"]);
    assert!(page.skipped[1].message.contains("schema_version"));
    let after = tree(dir.path());
    let added: Vec<&String> = after.iter().filter(|p| !before.contains(p)).collect();
    assert!(added.iter().all(|p| p.starts_with(".claude/")), "{added:?}");
    assert!(hist.join("package.json").exists() && hist.join("empty.json").exists());
}

/// Every operation on every bad current/history file: typed errors, the bad files left byte
/// for byte, and nothing written outside `<root>/.claude` (only the index and lock files).
#[test]
fn every_operation_on_bad_files_changes_nothing_outside_the_root() {
    let mut unsafe_id = seed_value();
    unsafe_id["session_id"] = json!("../../escape");
    let bad: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("array", b"[1]".to_vec()),
        ("torn", vector("seed-example.torn.json")),
        ("schema 2.0", br#"{"schema_version": "2.0"}"#.to_vec()),
        ("wrong type", with("agents", json!("none"))),
        ("unsafe id", serde_json::to_vec(&unsafe_id).unwrap()),
    ];
    for (name, bytes) in bad {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("outside.txt"), b"x").unwrap();
        let root = dir.path().join("root");
        let hist = root.join(".claude/orchestrator-history");
        std::fs::create_dir_all(&hist).unwrap();
        std::fs::write(root.join(".claude/orchestrator-session.json"), &bytes).unwrap();
        std::fs::write(hist.join("bad.json"), &bytes).unwrap();
        let before = tree(dir.path());
        let s = OrchestratorStore::new(FsStore::new(&root).unwrap(), clock(GOLDEN_NOW));
        let codes: Vec<&str> = [
            s.load().map(|_| ()),
            s.start().map(|_| ()),
            s.pause().map(|_| ()),
            s.complete().map(|_| ()),
            s.abort().map(|_| ()),
            s.record_decision(&DecisionInput {
                decision: "d".into(),
                why: Some("r".into()),
            })
            .map(|_| ()),
            s.before_compression().map(|_| ()),
            s.session_end().map(|_| ()),
        ]
        .iter()
        .map(|r| r.as_ref().unwrap_err().code())
        .collect();
        let want = match name {
            "schema 2.0" => "incompatible_schema",
            "unsafe id" => "invalid_key",
            _ => "corrupt_state",
        };
        assert!(codes.iter().all(|c| *c == want), "{name}: {codes:?}");
        let page = s.list_history(&HistoryQuery::default()).unwrap();
        assert_eq!(page.skipped.len(), 1, "{name}");
        assert_eq!(page.skipped[0].code, want, "{name}");
        let report = s.doctor(false).unwrap();
        assert_eq!(report.problems.len(), 2, "{name}");
        assert_eq!(
            std::fs::read(root.join(".claude/orchestrator-session.json")).unwrap(),
            bytes,
            "{name}"
        );
        assert_eq!(
            std::fs::read(hist.join("bad.json")).unwrap(),
            bytes,
            "{name}"
        );
        let after = tree(dir.path());
        for added in after.iter().filter(|p| !before.contains(p)) {
            assert!(
                added == "root/.claude/orchestrator-history.index.json"
                    || (added.starts_with("root/.claude/.")
                        && ["lock", "lock-queue"]
                            .iter()
                            .any(|suffix| added.rsplit('.').next() == Some(suffix))),
                "{name}: unexpected {added}"
            );
        }
        assert!(
            before.iter().all(|p| after.contains(p)),
            "{name}: something was deleted"
        );
    }
}

mod never_panics {
    use proptest::prelude::*;
    use session_state::orchestrator::{ParseOptions, current_key, parse_document, salvage};

    proptest! {
        #[test]
        fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let _ = parse_document(&current_key(), &bytes, &ParseOptions::default());
            prop_assert!(salvage(&bytes).document.is_object());
        }

        #[test]
        fn mutated_seed_example(at in 0usize..1509, byte in any::<u8>(), cut in 0usize..1509) {
            let mut bytes = super::vector("seed-example.json");
            let at = at % bytes.len();
            bytes[at] = byte;
            bytes.truncate(cut.max(at));
            let _ = parse_document(&current_key(), &bytes, &ParseOptions::default());
            let s = salvage(&bytes);
            prop_assert!(s.document["schema_version"].is_string());
            // Salvage does not convert versions or invent ids; otherwise the result is valid.
            let id_ok = s.document["session_id"]
                .as_str()
                .is_some_and(|id| session_state::Key::segment("session id", id).is_ok());
            if s.document["schema_version"] == "1.0" && id_ok {
                let text = serde_json::to_vec(&s.document).unwrap();
                let parsed = parse_document(&current_key(), &text, &ParseOptions::default());
                prop_assert!(parsed.is_ok(), "{:?}", parsed.err());
            }
        }
    }
}
