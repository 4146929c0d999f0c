//! Byte-level compatibility of team session files with the `agent-teams` 0.1.0 crate, through
//! the shared vectors in `tests/vectors/teams/`:
//! - `fixtures/` (written by the crate, from /work/shared) and `crate-written/` (written by the
//!   crate through `tests/compat-agent-teams`) load and re-save to identical bytes;
//! - `read/` holds inputs the crate accepts: we read the same values;
//! - `bad/` holds inputs the crate rejects: we reject them too, as `corrupt_state`;
//! - `ours/` is what we write; this test regenerates it and fails when it drifts
//!   (`SESSION_STATE_UPDATE_VECTORS=1` rewrites it). `tests/compat-agent-teams/run.sh` checks the
//!   crate parses those files with the same values.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde_json::json;
use session_state::team::{
    BackendType, CliDelegation, CliTool, MemoryConfig, SessionState, SpawnConfig, TeamStore,
};
use session_state::{ErrorKind, FixedClock, Key, MemoryStore, Store};

fn vectors(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/vectors/teams")
        .join(folder)
}

fn json_files(folder: &str) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(vectors(folder))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            (stem, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no vectors in {folder}");
    files
}

fn read_vector(folder: &str, stem: &str) -> Vec<u8> {
    std::fs::read(vectors(folder).join(format!("{stem}.json"))).unwrap()
}

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text).unwrap().to_utc()
}

fn teams() -> TeamStore<MemoryStore, FixedClock> {
    TeamStore::new(
        MemoryStore::new(),
        FixedClock::at("2026-11-29T18:00:00Z").unwrap(),
    )
}

/// Puts `bytes` at `teams/t/sessions/{name}.json`, loads it and saves it back through the
/// store; returns the bytes then stored.
fn load_and_resave(bytes: &[u8]) -> Vec<u8> {
    let teams = teams();
    let doc: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    let name = doc["name"].as_str().unwrap();
    let key = Key::new(format!("teams/t/sessions/{name}.json")).unwrap();
    teams.store().write(&key, bytes).unwrap();
    let state = teams.load("t", name).unwrap();
    teams.save("t", &state).unwrap();
    teams.store().read(&key).unwrap().unwrap()
}

#[test]
fn crate_written_files_resave_to_identical_bytes() {
    for folder in ["fixtures", "crate-written"] {
        for (stem, bytes) in json_files(folder) {
            assert!(
                !bytes.ends_with(b"\n"),
                "{folder}/{stem} has a trailing newline"
            );
            let resaved = load_and_resave(&bytes);
            assert_eq!(
                String::from_utf8(resaved).unwrap(),
                String::from_utf8(bytes).unwrap(),
                "{folder}/{stem}"
            );
        }
    }
}

#[test]
fn fixture_values_are_read_exactly() {
    let coder = SessionState::from_json(&read_vector("fixtures", "coder")).unwrap();
    assert_eq!(coder.parse_backend_type().unwrap(), BackendType::Codex);
    assert_eq!(coder.cwd.as_deref(), Some("/home/u/proj"));
    assert_eq!(coder.max_turns, Some(10));
    assert_eq!(coder.allowed_tools, ["Bash", "Read"]);
    assert_eq!(coder.env["RUST_LOG"], "debug");
    assert_eq!(coder.memory_config, Some(MemoryConfig::default()));
    assert_eq!(coder.metadata["thread_id"], "abc-123");
    let reviewer = SessionState::from_json(&read_vector("fixtures", "reviewer")).unwrap();
    assert_eq!(reviewer.created_at, at("2026-03-01T12:34:56.789012345Z"));
    assert_eq!(reviewer.model, None);
    assert!(reviewer.env.is_empty() && reviewer.metadata.is_empty() && reviewer.extra.is_empty());
}

#[test]
fn crate_goldens_hold_what_the_generator_built() {
    let full = SessionState::from_json(&read_vector("crate-written", "full")).unwrap();
    assert_eq!(full.created_at, at("2026-03-01T12:34:56.789012345Z"));
    assert_eq!(full.memory_config, Some(MemoryConfig::default()));
    // The crate folds delegations into the prompt before saving; from_config itself drops them.
    assert!(full.prompt.starts_with("You write Rust code."));
    let offset = SessionState::from_json(&read_vector("crate-written", "from-offset")).unwrap();
    assert_eq!(offset.created_at, at("2026-03-01T12:34:56.5Z"));
    assert_eq!(offset.memory_config.unwrap().budget_chars, u64::MAX);
    let unknown =
        SessionState::from_json(&read_vector("crate-written", "unknown-backend")).unwrap();
    assert_eq!(unknown.backend_type, "cursor");
    assert_eq!(
        unknown.parse_backend_type().unwrap_err().kind(),
        ErrorKind::InvalidInput
    );
}

#[test]
fn accepted_inputs_read_as_the_crate_reads_them() {
    let files: BTreeMap<String, SessionState> = json_files("read")
        .into_iter()
        .map(|(stem, bytes)| (stem, SessionState::from_json(&bytes).unwrap()))
        .collect();
    assert_eq!(
        files["created-at-offset"].created_at,
        at("2026-03-01T12:34:56.25Z")
    );
    assert_eq!(
        files["created-at-space-and-utc"].created_at,
        at("2026-03-01T12:34:56Z")
    );
    assert_eq!(
        files["created-at-lowercase-t-z"].created_at,
        at("2026-03-01T12:34:56Z")
    );
    let nulls = &files["nulls"];
    assert!(nulls.model.is_none() && nulls.memory_config.is_none() && nulls.max_turns.is_none());
    let unknown = &files["unknown-keys"];
    assert_eq!(unknown.extra["futureField"], json!({"x": [1, 2]}));
    assert_eq!(unknown.extra["zz"], json!(null));
    assert_eq!(
        unknown.memory_config.as_ref().unwrap().extra["strategy"],
        "lru"
    );
    let maps = &files["multi-entry-maps"];
    assert_eq!(maps.env.keys().collect::<Vec<_>>(), ["Z", "A", "M"]);

    // Re-saved: offsets become UTC `Z`, nulls and empty collections are omitted, unknown keys
    // follow the known ones, map order is the file's.
    let resaved =
        |stem: &str| String::from_utf8(load_and_resave(&read_vector("read", stem))).unwrap();
    assert!(
        resaved("created-at-offset").ends_with("\"createdAt\": \"2026-03-01T12:34:56.250Z\"\n}")
    );
    let minimal = "{\n  \"name\": \"a\",\n  \"backendType\": \"codex\",\n  \"prompt\": \"p\",\n  \"createdAt\": \"2026-03-01T12:34:56Z\"\n}";
    assert_eq!(resaved("nulls"), minimal);
    assert_eq!(resaved("empty-collections"), minimal);
    let unknown = resaved("unknown-keys");
    let keys: Vec<String> =
        serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&unknown)
            .unwrap()
            .keys()
            .cloned()
            .collect();
    assert_eq!(
        keys,
        [
            "name",
            "backendType",
            "prompt",
            "memoryConfig",
            "createdAt",
            "futureField",
            "zz"
        ]
    );
    assert!(unknown.contains("\"budget_chars\": 4000,\n    \"strategy\": \"lru\""));
    let original = String::from_utf8(read_vector("read", "multi-entry-maps")).unwrap();
    assert_eq!(resaved("multi-entry-maps"), original);
}

#[test]
fn rejected_inputs_are_corrupt_and_leave_other_files_alone() {
    for (stem, bytes) in json_files("bad") {
        let err = SessionState::from_json(&bytes).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{stem}");
        let teams = teams();
        let key = Key::new("teams/t/sessions/a.json").unwrap();
        teams.store().write(&key, &bytes).unwrap();
        let good = SessionState::from_config(
            &SpawnConfig::new("b", "p"),
            BackendType::Codex,
            at("2026-01-01T00:00:00Z"),
        );
        teams.save("t", &good).unwrap();
        let err = teams.load("t", "a").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::CorruptState, "{stem}");
        assert_eq!(err.context_value("key"), Some("teams/t/sessions/a.json"));
        let listing = teams.list("t").unwrap();
        assert_eq!(listing.members.len(), 1, "{stem}");
        assert_eq!(listing.members[0].state, good);
        assert_eq!(listing.skipped.len(), 1, "{stem}");
        assert_eq!(listing.skipped[0].code, "corrupt_state");
        assert_eq!(teams.store().read(&key).unwrap().unwrap(), bytes, "{stem}");
    }
}

/// What we write, case by case (see `tests/vectors/teams/ours/`).
fn our_cases() -> Vec<(&'static str, SessionState)> {
    let mut cases = Vec::new();
    cases.push((
        "minimal",
        SessionState::from_config(
            &SpawnConfig::new("reviewer", "You review code."),
            BackendType::GeminiCli,
            at("2026-03-01T12:34:56Z"),
        ),
    ));
    let full = SpawnConfig::builder(
        "coder",
        "Line one.\nTab\there, \"quotes\", back\\slash, é, 🦀, \u{1}.",
    )
    .model("gpt-5-codex")
    .cwd("/home/u/proj with space")
    .max_turns(i32::MAX)
    .allowed_tools(vec!["Bash".into(), "Read".into(), "Edit".into()])
    .permission_mode("bypassPermissions")
    .reasoning_effort("xhigh")
    .env_var("RUST_LOG", "debug")
    .memory(MemoryConfig {
        max_turns: 12,
        budget_chars: 8000,
        ..MemoryConfig::default()
    })
    .delegate(CliDelegation::new(CliTool::Gemini, "design review"))
    .build();
    let mut state = SessionState::from_config(
        &full,
        BackendType::Codex,
        at("2026-11-29T18:00:00.123456789Z"),
    );
    state.metadata.insert("thread_id".into(), "abc-123".into());
    cases.push(("full", state));
    let mut maps = SessionState::from_config(
        &SpawnConfig::builder("mapper", "p")
            .env_var("Z", "1")
            .env_var("A", "2")
            .env_var("M", "3")
            .build(),
        BackendType::ClaudeCode,
        at("2026-11-29T18:00:00.5Z"),
    );
    maps.metadata.insert("b".into(), "2".into());
    maps.metadata.insert("a".into(), "1".into());
    cases.push(("multi-entry-maps", maps));
    let mut unknown = SessionState::from_config(
        &SpawnConfig::builder("x", "p").max_turns(-5).build(),
        BackendType::Codex,
        at("2026-11-29T18:00:00.123Z"),
    );
    unknown.backend_type = "cursor".into();
    unknown
        .extra
        .insert("futureField".into(), json!({"nested": [1, "two", null]}));
    unknown.memory_config = Some(MemoryConfig {
        max_turns: 0,
        budget_chars: u64::MAX,
        ..MemoryConfig::default()
    });
    cases.push(("unknown-backend-and-keys", unknown));
    cases
}

#[test]
fn our_written_files_match_the_committed_vectors() {
    let update = std::env::var_os("SESSION_STATE_UPDATE_VECTORS").is_some();
    for (stem, state) in our_cases() {
        let teams = teams();
        let key = teams.save("t", &state).unwrap();
        let bytes = teams.store().read(&key).unwrap().unwrap();
        assert_eq!(
            SessionState::from_json(&bytes).unwrap(),
            state,
            "{stem} round trip"
        );
        let path = vectors("ours").join(format!("{stem}.json"));
        if update {
            std::fs::write(&path, &bytes).unwrap();
        }
        let committed = std::fs::read(&path).unwrap_or_default();
        assert_eq!(
            String::from_utf8_lossy(&committed),
            String::from_utf8_lossy(&bytes),
            "{} drifted; rerun with SESSION_STATE_UPDATE_VECTORS=1, then tests/compat-agent-teams/run.sh",
            path.display()
        );
    }
}
