//! A saved member rewritten: `TeamStore::replace` (the whole document, in one
//! read-modify-write; the bindings' `TeamStore.replace`) and the messages of
//! `SessionState::merge` (the bindings' `TeamStore.update`).

use chrono::{DateTime, Utc};
use session_state::team::{BackendType, SessionState, SpawnConfig, TeamStore};
use session_state::{ErrorKind, FixedClock, MemoryStore};

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text).unwrap().to_utc()
}

fn state(name: &str, backend: BackendType) -> SessionState {
    SessionState::from_config(
        &SpawnConfig::new(name, "p"),
        backend,
        at("2026-01-01T00:00:00Z"),
    )
}

fn teams() -> TeamStore<MemoryStore, FixedClock> {
    TeamStore::new(
        MemoryStore::new(),
        FixedClock::at("2026-02-01T00:00:00Z").unwrap(),
    )
}

#[test]
fn replace_writes_the_given_state_whole() {
    let teams = teams();
    teams
        .save("t", &state("coder", BackendType::Codex))
        .unwrap();
    let mut new = state("coder", BackendType::GeminiCli);
    new.prompt = "new prompt".into();
    new.metadata.insert("k".into(), "v".into());
    new.created_at = at("2025-05-05T05:05:05Z");
    let written = teams.replace("t", "coder", &new).unwrap();
    assert_eq!(written, new);
    assert_eq!(teams.load("t", "coder").unwrap(), new);
}

#[test]
fn replace_refuses_what_update_refuses_and_writes_nothing() {
    let teams = teams();
    let err = teams
        .replace("t", "ghost", &state("ghost", BackendType::Codex))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);

    teams
        .save("t", &state("coder", BackendType::Codex))
        .unwrap();
    let before = teams.load("t", "coder").unwrap();
    let err = teams
        .replace("t", "coder", &state("other", BackendType::Codex))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput, "{err}");
    let mut unknown = state("coder", BackendType::Codex);
    unknown.backend_type = "no-such-backend".into();
    let err = teams.replace("t", "coder", &unknown).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput, "{err}");
    assert_eq!(err.context_value("field"), Some("backendType"));
    assert_eq!(teams.load("t", "coder").unwrap(), before);
}

#[test]
fn replace_keeps_an_unknown_backend_already_stored() {
    let teams = teams();
    let mut odd = state("coder", BackendType::Codex);
    odd.backend_type = "future-backend".into();
    teams.save("t", &odd).unwrap();
    odd.prompt = "changed".into();
    assert_eq!(teams.replace("t", "coder", &odd).unwrap().prompt, "changed");
}

#[test]
fn a_refused_merge_names_the_change_and_serde_reason_without_a_position_in_text_made_here() {
    let mut held = state("coder", BackendType::Codex);
    let changes = serde_json::json!({"maxTurns": "ten", "extraKey": [1, 2]});
    let err = held.merge(changes.as_object().unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
    assert_eq!(
        err.message(),
        "`maxTurns` is invalid: invalid type: string \"ten\", expected i32"
    );
    assert_eq!(err.context_value("field"), Some("maxTurns"));
    // A timestamp without offset names its field (serde says only "premature end of input").
    let changes = serde_json::json!({"model": "m", "createdAt": "2026-03-01T12:34:56"});
    let err = held.merge(changes.as_object().unwrap()).unwrap_err();
    assert!(
        err.message().starts_with("`createdAt` is invalid: "),
        "{err}"
    );
    // A name the crate refuses is refused here, not only by a later save.
    for name in ["../x", ""] {
        let changes = serde_json::json!({ "name": name });
        let err = held.merge(changes.as_object().unwrap()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{err}");
        assert_eq!(err.context_value("field"), Some("name"));
    }
    assert_eq!(held.name, "coder");
    // Unknown keys are kept, in order, after the known ones.
    let changes = serde_json::json!({"zeta": 1, "alpha": {"b": 2}, "model": "m"});
    held.merge(changes.as_object().unwrap()).unwrap();
    let keys: Vec<&str> = held.extra.keys().map(String::as_str).collect();
    assert_eq!(keys, ["zeta", "alpha"]);
    assert_eq!(held.model.as_deref(), Some("m"));
}

#[test]
fn a_merge_refuses_a_document_key_written_in_snake_case() {
    let mut held = state("coder", BackendType::Codex);
    let before = held.clone();
    for (key, camel) in [
        ("max_turns", "maxTurns"),
        ("memory_config", "memoryConfig"),
        ("backend_type", "backendType"),
        ("created_at", "createdAt"),
    ] {
        let changes = serde_json::json!({ "model": "m", key: 7 });
        let err = held.merge(changes.as_object().unwrap()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        assert_eq!(err.context_value("field"), Some(key), "{err}");
        assert_eq!(
            err.message(),
            format!(
                "`{key}` is invalid: the key is `{camel}` (a session state's keys are camelCase)"
            )
        );
    }
    assert_eq!(held, before);
    // Other unknown keys, snake_case or not, are kept; snake_case inside `memoryConfig` is its own.
    let memory = serde_json::json!({"max_turns": 3, "budget_chars": 100});
    let changes = serde_json::json!({"my_key": 1, "memoryConfig": memory});
    held.merge(changes.as_object().unwrap()).unwrap();
    assert_eq!(held.extra["my_key"], 1);
    assert_eq!(held.memory_config.unwrap().max_turns, 3);
}

#[test]
fn a_merge_names_a_backend_type_that_is_not_a_string() {
    let mut held = state("coder", BackendType::Codex);
    let before = held.clone();
    for bad in [
        serde_json::json!(5),
        serde_json::Value::Null,
        serde_json::json!(["codex"]),
    ] {
        let changes = serde_json::json!({ "backendType": bad });
        let err = held.merge(changes.as_object().unwrap()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        assert_eq!(err.context_value("field"), Some("backendType"), "{err}");
        assert_eq!(
            err.message(),
            format!("`backendType` is invalid: expected a backend name, got `{bad}`")
        );
        assert_eq!(held, before);
    }
}
