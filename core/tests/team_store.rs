//! `TeamStore` over a memory store: names, save/load/delete, listing that reports and skips
//! bad files, spawn records that keep `createdAt`/`metadata`, and resume plans (SPEC section 3).

use std::cell::Cell;

use chrono::{DateTime, Utc};
use serde_json::json;
use session_state::team::{
    BackendType, CliDelegation, CliTool, MemoryConfig, ResumeAction, SessionState, SkipReason,
    SpawnConfig, TeamStore, TeamSummary,
};
use session_state::{Error, ErrorKind, FixedClock, Key, MemoryStore, Store, UpdateFn};

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text).unwrap().to_utc()
}

fn teams_at(now: &str) -> TeamStore<MemoryStore, FixedClock> {
    TeamStore::new(MemoryStore::new(), FixedClock::at(now).unwrap())
}

fn key(text: &str) -> Key {
    Key::new(text).unwrap()
}

fn state(name: &str, backend: BackendType) -> SessionState {
    SessionState::from_config(
        &SpawnConfig::new(name, "p"),
        backend,
        at("2026-01-01T00:00:00Z"),
    )
}

const BAD_NAMES: &[&str] = &["", ".", "..", "a/b", "a\\b", "a\0b"];

fn long_name() -> String {
    "x".repeat(256)
}

#[test]
fn bad_names_are_refused_before_any_key_is_built() {
    let teams = teams_at("2026-01-01T00:00:00Z");
    let long = long_name();
    let bad: Vec<&str> = BAD_NAMES.iter().copied().chain([long.as_str()]).collect();
    for name in bad {
        let code = |r: Result<(), Error>| r.unwrap_err().kind();
        assert_eq!(
            code(teams.list(name).map(drop)),
            ErrorKind::InvalidKey,
            "{name:?}"
        );
        assert_eq!(
            code(teams.resume_plan(name).map(drop)),
            ErrorKind::InvalidKey
        );
        assert_eq!(code(teams.load(name, "a").map(drop)), ErrorKind::InvalidKey);
        assert_eq!(code(teams.load("t", name).map(drop)), ErrorKind::InvalidKey);
        assert_eq!(
            code(teams.delete("t", name).map(drop)),
            ErrorKind::InvalidKey
        );
        assert_eq!(
            code(teams.save(name, &state("a", BackendType::Codex)).map(drop)),
            ErrorKind::InvalidKey
        );
        assert_eq!(
            code(teams.save("t", &state(name, BackendType::Codex)).map(drop)),
            ErrorKind::InvalidKey
        );
        let config = SpawnConfig::new(name, "p");
        assert_eq!(
            code(
                teams
                    .record_spawn("t", &config, BackendType::Codex)
                    .map(drop)
            ),
            ErrorKind::InvalidKey
        );
        assert_eq!(
            code(teams.update("t", name, |_| Ok(())).map(drop)),
            ErrorKind::InvalidKey
        );
        let err = teams.load("t", name).unwrap_err();
        assert_eq!(err.context_value("value"), Some(name));
    }
    assert!(teams.store().is_empty(), "a bad name wrote something");
}

#[test]
fn names_the_key_rules_refuse_are_called_team_or_agent_names() {
    let teams = teams_at("2026-01-01T00:00:00Z");
    let err = teams.list("a\u{1}b").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidKey);
    assert!(err.message().starts_with("team name `a"), "{err}");
    assert!(
        err.message().ends_with("contains a control character"),
        "{err}"
    );
    let err = teams.load("t", "a\u{1}b").unwrap_err();
    assert!(err.message().starts_with("agent name `a"), "{err}");
    // The crate takes 251 to 255 bytes; `{agent}.json` would not fit in a file name.
    let long = "x".repeat(251);
    let err = teams.load("t", &long).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidKey);
    assert!(
        err.message().starts_with("agent name `xxx")
            && err
                .message()
                .ends_with("is too long for a file name: at most 250 bytes"),
        "{err}"
    );
    assert!(!err.message().contains(".json"), "{err}");
    assert!(teams.load("t", &"x".repeat(250)).unwrap_err().kind() == ErrorKind::NotFound);
}

#[test]
fn save_load_delete_round_trip_with_crate_bytes() {
    let teams = teams_at("2026-01-01T00:00:00Z");
    let saved = state("coder", BackendType::Codex);
    let written = teams.save("my-team", &saved).unwrap();
    assert_eq!(written.as_str(), "teams/my-team/sessions/coder.json");
    let bytes = teams.store().read(&written).unwrap().unwrap();
    assert_eq!(
        String::from_utf8(bytes).unwrap(),
        "{\n  \"name\": \"coder\",\n  \"backendType\": \"codex\",\n  \"prompt\": \"p\",\n  \"createdAt\": \"2026-01-01T00:00:00Z\"\n}"
    );
    assert_eq!(teams.load("my-team", "coder").unwrap(), saved);
    assert!(teams.delete("my-team", "coder").unwrap());
    assert!(!teams.delete("my-team", "coder").unwrap());
    let err = teams.load("my-team", "coder").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    assert_eq!(
        err.message(),
        "no session state for agent `coder` in team `my-team`"
    );
}

#[test]
fn from_config_and_back_drop_delegations_only() {
    let config = SpawnConfig::builder("coder", "p")
        .model("m")
        .cwd("/w")
        .max_turns(3)
        .allowed_tools(vec!["Bash".into()])
        .permission_mode("plan")
        .reasoning_effort("low")
        .env_var("K", "V")
        .memory(MemoryConfig::default())
        .delegate(CliDelegation::new(CliTool::Codex, "tests"))
        .build();
    let now = at("2026-05-05T05:05:05.000001Z");
    let state = SessionState::from_config(&config, BackendType::ClaudeCode, now);
    assert_eq!(state.backend_type, "claude-code");
    assert_eq!(state.created_at, now);
    assert!(state.metadata.is_empty() && state.extra.is_empty());
    assert_eq!(state.parse_backend_type().unwrap(), BackendType::ClaudeCode);
    let back = state.to_spawn_config();
    assert!(back.delegations.is_empty());
    let mut expected = config.clone();
    expected.delegations.clear();
    assert_eq!(back, expected);
    let json = String::from_utf8(state.to_json().unwrap()).unwrap();
    assert!(!json.contains("delegations") && !json.contains("tests"));
    assert!(json.contains("\"createdAt\": \"2026-05-05T05:05:05.000001Z\""));
}

#[test]
fn extra_keys_that_shadow_known_keys_are_refused() {
    let mut s = state("a", BackendType::Codex);
    s.extra.insert("createdAt".into(), json!("x"));
    assert_eq!(s.to_json().unwrap_err().kind(), ErrorKind::InvalidInput);
    let mut s = state("a", BackendType::Codex);
    let mut memory = MemoryConfig::default();
    memory.extra.insert("budget_chars".into(), json!(1));
    s.memory_config = Some(memory);
    assert_eq!(s.to_json().unwrap_err().kind(), ErrorKind::InvalidInput);
}

#[test]
fn listing_sorts_by_agent_and_reports_bad_files_without_aborting() {
    let teams = teams_at("2026-01-01T00:00:00Z");
    for name in ["zed", "Alpha", "mike"] {
        teams.save("t", &state(name, BackendType::Codex)).unwrap();
    }
    let store = teams.store();
    store
        .write(&key("teams/t/sessions/broken.json"), b"{\"name\": ")
        .unwrap();
    store.write(&key("teams/t/sessions/env-null.json"), br#"{"name":"env-null","backendType":"codex","prompt":"p","env":null,"createdAt":"2026-01-01T00:00:00Z"}"#).unwrap();
    store
        .write(&key("teams/t/sessions/x.json/inside"), b"{}")
        .unwrap();
    store
        .write(&key("teams/t/sessions/x.json/other"), b"{}")
        .unwrap();
    store
        .write(&key("teams/t/sessions/notes.txt"), b"hello")
        .unwrap();
    store.write(&key("teams/t/sessions/.json"), b"{}").unwrap();
    store
        .write(&key("teams/t/sessions/deep/y.json"), b"{}")
        .unwrap();
    store
        .write(&key("teams/t/sessions/...json"), b"{}")
        .unwrap();
    store.write(&key("teams/t/config.json"), b"{}").unwrap();
    store
        .write(&key("teams/other/sessions/a.json"), b"{}")
        .unwrap();

    let listing = teams.list("t").unwrap();
    let agents: Vec<&str> = listing.members.iter().map(|m| m.agent.as_str()).collect();
    assert_eq!(agents, ["Alpha", "mike", "zed"]);
    assert_eq!(listing.members[0].key, "teams/t/sessions/Alpha.json");
    let skipped: Vec<(&str, &str)> = listing
        .skipped
        .iter()
        .map(|s| (s.key.as_str(), s.code.as_str()))
        .collect();
    assert_eq!(
        skipped,
        [
            ("teams/t/sessions/...json", "invalid_key"),
            ("teams/t/sessions/broken.json", "corrupt_state"),
            ("teams/t/sessions/env-null.json", "corrupt_state"),
            ("teams/t/sessions/x.json", "storage"),
        ]
    );
    assert!(listing.skipped[3].message.contains("is a folder"));
    assert!(teams.list("empty").unwrap().members.is_empty());

    assert_eq!(
        teams.list_teams().unwrap(),
        [
            TeamSummary {
                name: "other".into(),
                sessions: 1
            },
            TeamSummary {
                name: "t".into(),
                sessions: 6
            },
        ]
    );
}

/// A memory store whose reads of one key fail, as an unreadable file does.
struct FailingReads {
    inner: MemoryStore,
    fail: Key,
    reads: Cell<usize>,
}

impl Store for FailingReads {
    fn read(&self, key: &Key) -> session_state::Result<Option<Vec<u8>>> {
        self.reads.set(self.reads.get() + 1);
        if *key == self.fail {
            return Err(Error::storage(key, "read", "permission denied"));
        }
        self.inner.read(key)
    }
    fn write(&self, key: &Key, data: &[u8]) -> session_state::Result<()> {
        self.inner.write(key, data)
    }
    fn delete(&self, key: &Key) -> session_state::Result<bool> {
        self.inner.delete(key)
    }
    fn list(&self, prefix: &Key) -> session_state::Result<Vec<Key>> {
        self.inner.list(prefix)
    }
    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> session_state::Result<()> {
        self.inner.update(key, apply)
    }
}

#[test]
fn an_unreadable_file_is_reported_and_the_rest_listed() {
    let inner = MemoryStore::new();
    let teams = TeamStore::new(
        inner.clone(),
        FixedClock::at("2026-01-01T00:00:00Z").unwrap(),
    );
    teams.save("t", &state("a", BackendType::Codex)).unwrap();
    teams.save("t", &state("b", BackendType::Codex)).unwrap();
    teams.save("t", &state("c", BackendType::Codex)).unwrap();
    let failing = FailingReads {
        inner,
        fail: key("teams/t/sessions/b.json"),
        reads: Cell::new(0),
    };
    let teams = TeamStore::new(failing, FixedClock::at("2026-01-01T00:00:00Z").unwrap());
    let listing = teams.list("t").unwrap();
    let agents: Vec<&str> = listing.members.iter().map(|m| m.agent.as_str()).collect();
    assert_eq!(agents, ["a", "c"]);
    assert_eq!(listing.skipped.len(), 1);
    assert_eq!(listing.skipped[0].code, "storage");
    assert!(listing.skipped[0].message.contains("permission denied"));
    assert_eq!(teams.store().reads.get(), 3);
    let plan = teams.resume_plan("t").unwrap();
    assert!(matches!(
        plan.members[2].action,
        ResumeAction::Skip {
            reason: SkipReason::Unreadable,
            ..
        }
    ));
}

#[test]
fn record_spawn_keeps_created_at_metadata_and_unknown_keys() {
    let first = teams_at("2026-01-01T00:00:00Z");
    let config = SpawnConfig::builder("coder", "v1").model("m1").build();
    let created = first
        .record_spawn("t", &config, BackendType::Codex)
        .unwrap();
    assert_eq!(created.created_at, at("2026-01-01T00:00:00Z"));
    first
        .update("t", "coder", |s| {
            s.metadata.insert("thread_id".into(), "abc".into());
            s.extra.insert("future".into(), json!(1));
            Ok(())
        })
        .unwrap();

    let later = TeamStore::new(
        first.store().clone(),
        FixedClock::at("2026-02-02T00:00:00Z").unwrap(),
    );
    let config = SpawnConfig::builder("coder", "v2").model("m2").build();
    let respawned = later
        .record_spawn("t", &config, BackendType::GeminiCli)
        .unwrap();
    assert_eq!(respawned.created_at, at("2026-01-01T00:00:00Z"));
    assert_eq!(respawned.metadata["thread_id"], "abc");
    assert_eq!(respawned.extra["future"], json!(1));
    assert_eq!(respawned.prompt, "v2");
    assert_eq!(respawned.model.as_deref(), Some("m2"));
    assert_eq!(respawned.backend_type, "gemini-cli");
    assert_eq!(later.load("t", "coder").unwrap(), respawned);

    // The caller replaces them explicitly through update.
    let replaced = later
        .update("t", "coder", |s| {
            s.created_at = at("2026-02-02T00:00:00Z");
            s.metadata.clear();
            Ok(())
        })
        .unwrap();
    assert_eq!(later.load("t", "coder").unwrap(), replaced);
    assert!(replaced.metadata.is_empty());
}

#[test]
fn corrupt_files_are_copied_aside_before_being_replaced() {
    let teams = teams_at("2026-11-29T17:56:00Z");
    let k = key("teams/t/sessions/coder.json");
    teams.store().write(&k, b"{torn").unwrap();
    let err = teams.update("t", "coder", |_| Ok(())).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::CorruptState);
    assert_eq!(teams.store().read(&k).unwrap().unwrap(), b"{torn");

    teams
        .record_spawn("t", &SpawnConfig::new("coder", "p"), BackendType::Codex)
        .unwrap();
    let aside = key("teams/t/sessions/coder.json.corrupt-20261129T175600Z");
    assert_eq!(teams.store().read(&aside).unwrap().unwrap(), b"{torn");
    assert_eq!(
        teams.load("t", "coder").unwrap().created_at,
        at("2026-11-29T17:56:00Z")
    );

    teams.store().write(&k, b"[]").unwrap();
    teams
        .save("t", &state("coder", BackendType::Codex))
        .unwrap();
    let second = key("teams/t/sessions/coder.json.corrupt-20261129T175600Z-1");
    assert_eq!(teams.store().read(&second).unwrap().unwrap(), b"[]");
    // Copies are not members and are not reported.
    let listing = teams.list("t").unwrap();
    assert_eq!(listing.members.len(), 1);
    assert!(listing.skipped.is_empty());
}

#[test]
fn update_refuses_missing_and_renamed_members() {
    let teams = teams_at("2026-01-01T00:00:00Z");
    assert_eq!(
        teams.update("t", "ghost", |_| Ok(())).unwrap_err().kind(),
        ErrorKind::NotFound
    );
    teams.save("t", &state("a", BackendType::Codex)).unwrap();
    let err = teams
        .update("t", "a", |s| {
            s.name = "b".into();
            Ok(())
        })
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
    let err = teams
        .update("t", "a", |_| Err(Error::invalid_input("caller says no")))
        .unwrap_err();
    assert_eq!(err.message(), "caller says no");
    assert_eq!(
        teams.load("t", "a").unwrap(),
        state("a", BackendType::Codex)
    );
}

#[test]
fn resume_plan_explains_every_file() {
    let teams = teams_at("2026-01-01T00:00:00Z");
    let config = SpawnConfig::builder("coder", "p").model("m").build();
    teams
        .record_spawn("t", &config, BackendType::Codex)
        .unwrap();
    let mut unknown = state("cursor", BackendType::Codex);
    unknown.backend_type = "cursor-cli".into();
    teams.save("t", &unknown).unwrap();
    let store = teams.store();
    store
        .write(&key("teams/t/sessions/bad.json"), b"not json")
        .unwrap();
    let mut moved = state("elsewhere", BackendType::GeminiCli);
    store
        .write(
            &key("teams/t/sessions/moved.json"),
            &moved.to_json().unwrap(),
        )
        .unwrap();
    moved.name = "../evil".into();
    store
        .write(
            &key("teams/t/sessions/evil.json"),
            &serde_json::to_vec(&moved).unwrap(),
        )
        .unwrap();

    let plan = teams.resume_plan("t").unwrap();
    let summary: Vec<(String, String)> = plan
        .members
        .iter()
        .map(|m| {
            let what = match &m.action {
                ResumeAction::Respawn {
                    backend, warning, ..
                } => {
                    format!("respawn {backend} {}", warning.is_some())
                }
                ResumeAction::Skip { reason, .. } => format!("skip {reason:?}"),
            };
            (m.agent.clone(), what)
        })
        .collect();
    let expected: Vec<(String, String)> = [
        ("coder", "respawn codex false"),
        ("cursor", "skip UnknownBackend"),
        ("evil", "skip InvalidName"),
        ("moved", "respawn gemini-cli true"),
        ("bad", "skip Unparsable"),
    ]
    .iter()
    .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
    .collect();
    assert_eq!(summary, expected);
    let ResumeAction::Respawn {
        config: planned, ..
    } = &plan.members[0].action
    else {
        panic!("coder should be re-spawned");
    };
    assert_eq!(planned, &config);

    let value = serde_json::to_value(&plan).unwrap();
    assert_eq!(value["team"], "t");
    assert_eq!(value["members"][0]["action"], "respawn");
    assert_eq!(value["members"][0]["backend"], "codex");
    assert_eq!(value["members"][0]["config"]["model"], "m");
    assert_eq!(value["members"][1]["reason"], "unknown_backend");
    assert!(
        value["members"][1]["message"]
            .as_str()
            .unwrap()
            .contains("unknown backend type `cursor-cli`")
    );
    let back: session_state::team::ResumePlan = serde_json::from_value(value).unwrap();
    assert_eq!(back, plan);
}

#[test]
fn list_teams_counts_only_folders_with_session_files() {
    let teams = teams_at("2026-11-29T17:56:00Z");
    let store = teams.store();
    store.write(&key("teams/afile"), b"not a team").unwrap();
    store.write(&key("teams/notes/readme.md"), b"x").unwrap();
    store
        .write(&key("teams/half/sessions/x.txt"), b"x")
        .unwrap();
    store
        .write(&key("teams/real/sessions/coder.json"), b"{}")
        .unwrap();
    assert_eq!(
        teams.list_teams().unwrap(),
        [TeamSummary {
            name: "real".into(),
            sessions: 1
        }]
    );
}

#[test]
fn merge_sets_the_given_members_and_refuses_an_invalid_result() {
    use session_state::team::{BackendType, SessionState, SpawnConfig};
    let now = chrono::DateTime::parse_from_rfc3339("2026-03-01T12:34:56Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    let mut state =
        SessionState::from_config(&SpawnConfig::new("coder", "p"), BackendType::Codex, now);
    let changes = serde_json::json!({"model": "gpt-5-codex", "metadata": {"thread_id": "abc"}});
    state.merge(changes.as_object().unwrap()).unwrap();
    assert_eq!(state.model.as_deref(), Some("gpt-5-codex"));
    assert_eq!(
        state.metadata.get("thread_id").map(String::as_str),
        Some("abc")
    );
    assert_eq!(state.prompt, "p");
    assert_eq!(state.created_at, now);

    let before = state.clone();
    for bad in [
        serde_json::json!({"maxTurns": "ten"}),
        serde_json::json!({"createdAt": "2026-03-01T12:34:56"}),
        serde_json::json!({"env": null}),
    ] {
        let err = state.merge(bad.as_object().unwrap()).unwrap_err();
        assert_eq!(err.kind(), session_state::ErrorKind::InvalidInput, "{bad}");
        assert_eq!(state, before, "unchanged after a refused merge");
    }
}

#[test]
fn merge_refuses_a_change_to_an_unknown_backend_but_keeps_one_already_held() {
    use session_state::team::{BackendType, SessionState, SpawnConfig};
    let now = chrono::DateTime::parse_from_rfc3339("2026-03-01T12:34:56Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    let mut state =
        SessionState::from_config(&SpawnConfig::new("coder", "p"), BackendType::Codex, now);
    let before = state.clone();
    let bogus = serde_json::json!({"backendType": "bogus"});
    let err = state.merge(bogus.as_object().unwrap()).unwrap_err();
    assert_eq!(err.kind(), session_state::ErrorKind::InvalidInput);
    assert_eq!(err.context_value("field"), Some("backendType"));
    assert!(err.message().contains("`bogus`"), "{}", err.message());
    assert_eq!(state, before, "unchanged after a refused merge");

    let gemini = serde_json::json!({"backendType": "gemini-cli"});
    state.merge(gemini.as_object().unwrap()).unwrap();
    assert_eq!(state.backend_type, "gemini-cli");

    // A file written by a newer crate with a backend this one does not know: kept, re-saved
    // byte for byte, and other members still change.
    let file = br#"{"name":"coder","backendType":"future-backend","prompt":"p","createdAt":"2026-03-01T12:34:56Z"}"#;
    let mut held = SessionState::from_json(file).unwrap();
    let bytes = held.to_json().unwrap();
    assert_eq!(
        SessionState::from_json(&bytes).unwrap().to_json().unwrap(),
        bytes
    );
    let same = serde_json::json!({"backendType": "future-backend", "model": "m"});
    held.merge(same.as_object().unwrap()).unwrap();
    assert_eq!(held.backend_type, "future-backend");
    assert_eq!(held.model.as_deref(), Some("m"));
}

#[test]
fn merge_metadata_sets_and_removes_the_entries_given_and_keeps_the_others() {
    use session_state::team::{BackendType, MetadataEntries, SpawnConfig};
    let teams = teams_at("2026-03-01T12:34:56Z");
    teams
        .record_spawn("t", &SpawnConfig::new("coder", "p"), BackendType::Codex)
        .unwrap();
    let entries = |pairs: &[(&str, Option<&str>)]| -> MetadataEntries {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.map(str::to_owned)))
            .collect()
    };
    teams
        .merge_metadata(
            "t",
            "coder",
            &entries(&[("thread", Some("a")), ("run", Some("1"))]),
        )
        .unwrap();
    let saved = teams
        .merge_metadata("t", "coder", &entries(&[("run", None), ("pr", Some("7"))]))
        .unwrap();
    let kept: Vec<(&str, &str)> = saved
        .metadata
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(kept, [("thread", "a"), ("pr", "7")]);
    assert_eq!(teams.load("t", "coder").unwrap(), saved);
    let missing = teams
        .merge_metadata("t", "nobody", &entries(&[("x", Some("1"))]))
        .unwrap_err();
    assert_eq!(missing.kind(), ErrorKind::NotFound);
    // Writers of different entries through one store at once all keep theirs.
    let teams = std::sync::Arc::new(teams);
    let writers: Vec<_> = (0..4)
        .map(|w| {
            let teams = std::sync::Arc::clone(&teams);
            std::thread::spawn(move || {
                for i in 0..25 {
                    let key = format!("w{w}-{i}");
                    teams
                        .merge_metadata("t", "coder", &entries(&[(&key, Some("1"))]))
                        .unwrap();
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    assert_eq!(teams.load("t", "coder").unwrap().metadata.len(), 2 + 100);
}
