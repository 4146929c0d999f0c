//! What each fuzz target checks for one input. Shared, through `#[path]`, by the targets in
//! `fuzz/fuzz_targets/` (run by `cargo +nightly fuzz`) and by
//! `core/tests/fuzz_corpus_replay.rs` (which replays the committed corpus on stable): a panic
//! here is a finding.
#![allow(dead_code)] // each target uses one function

use serde_json::Value;
use session_state::orchestrator::{ParseOptions, history_key, parse_document, salvage};
use session_state::registry::{parse_chains, parse_sessions, to_python_json};
use session_state::team::SessionState;
use session_state::{ErrorKind, Key};

/// The fuzz targets, by name (the folder names under `fuzz/artifacts/`); each reads every
/// input of the shared corpus `fuzz/corpus/`.
pub const TARGETS: [&str; 4] = [
    "orchestrator_parse",
    "orchestrator_salvage",
    "registry_parse",
    "team_parse",
];

/// Runs target `name` on `data`.
pub fn run(name: &str, data: &[u8]) {
    match name {
        "orchestrator_parse" => orchestrator_parse(data),
        "orchestrator_salvage" => orchestrator_salvage(data),
        "registry_parse" => registry_parse(data),
        "team_parse" => team_parse(data),
        other => panic!("no fuzz target `{other}`"),
    }
}

fn key(text: &str) -> Key {
    Key::new(text).expect("a valid key")
}

/// `parse_document`: never panics; an error has a code of the documented set; a document it
/// accepts is written back and read again without error.
pub fn orchestrator_parse(data: &[u8]) {
    let key = key(".claude/orchestrator-session.json");
    let small = ParseOptions {
        max_document_bytes: 4096,
        ..ParseOptions::default()
    };
    for options in [ParseOptions::default(), small] {
        match parse_document(&key, data, &options) {
            Ok(doc) => {
                let again = parse_document(&key, &doc.to_pretty_json(), &ParseOptions::default());
                assert!(
                    again.is_ok(),
                    "a parsed document does not parse again: {again:?}"
                );
            }
            Err(e) => assert!(
                matches!(
                    e.kind(),
                    ErrorKind::CorruptState
                        | ErrorKind::IncompatibleSchema
                        | ErrorKind::InvalidKey
                        | ErrorKind::InvalidInput
                ),
                "unexpected error kind: {e}"
            ),
        }
    }
}

/// `salvage`: never panics; the document is an object; when its `schema_version` is "1.0"
/// and its `session_id` is a valid id (a safe segment whose `{id}.json` archive name fits in
/// 255 bytes; salvage leaves those as read), it parses.
pub fn orchestrator_salvage(data: &[u8]) {
    let out = salvage(data);
    let Value::Object(doc) = &out.document else {
        panic!("salvage returned a non-object: {}", out.document);
    };
    let version_ok = doc.get("schema_version").and_then(Value::as_str) == Some("1.0");
    let id_ok = doc
        .get("session_id")
        .and_then(Value::as_str)
        .is_some_and(|id| history_key(id).is_ok());
    if version_ok && id_ok {
        let bytes = serde_json::to_vec(&out.document).expect("a value serialises");
        let key = key(".claude/orchestrator-session.json");
        if let Err(e) = parse_document(&key, &bytes, &ParseOptions::default()) {
            panic!("salvaged document does not parse: {e}\n{}", out.document);
        }
    }
}

/// `parse_sessions` / `parse_chains`: never panic; errors are `corrupt_state`; an accepted
/// document is written back (Python's format) and read again.
pub fn registry_parse(data: &[u8]) {
    let sessions = key(".moai/memory/agent-sessions.json");
    match parse_sessions(&sessions, data) {
        Ok(doc) => {
            let bytes = to_python_json(&doc).expect("serialises");
            assert!(
                parse_sessions(&sessions, &bytes).is_ok(),
                "sessions round trip"
            );
        }
        Err(e) => assert_eq!(e.kind(), ErrorKind::CorruptState, "{e}"),
    }
    let chains = key(".moai/memory/workflow-chains.json");
    match parse_chains(&chains, data) {
        Ok(doc) => {
            let bytes = to_python_json(&doc).expect("serialises");
            assert!(parse_chains(&chains, &bytes).is_ok(), "chains round trip");
        }
        Err(e) => assert_eq!(e.kind(), ErrorKind::CorruptState, "{e}"),
    }
}

/// `SessionState::from_json`: never panics; errors are `invalid_input`; an accepted document
/// that `to_json` writes is read again.
pub fn team_parse(data: &[u8]) {
    match SessionState::from_json(data) {
        Ok(state) => {
            if let Ok(bytes) = state.to_json() {
                let again = SessionState::from_json(&bytes);
                assert!(again.is_ok(), "team round trip: {again:?}");
            }
        }
        Err(e) => assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}"),
    }
}
