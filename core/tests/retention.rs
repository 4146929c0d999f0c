//! The registry and team prunes: whole units by age, protected ids kept, a dry run that
//! changes nothing, in both journal modes.

use serde_json::json;
use session_state::registry::{AgentRegistry, JournalMode, PruneRegistryOptions, SESSIONS_KEY};
use session_state::retention::{PruneKind, PrunePlan};
use session_state::team::{BackendType, PruneTeamOptions, SpawnConfig, TeamStore};
use session_state::{FixedClock, Key, MemoryStore, Store};

fn reg<'a>(store: &'a MemoryStore, now: &str) -> AgentRegistry<&'a MemoryStore, FixedClock> {
    AgentRegistry::new(store, FixedClock::at(now).unwrap())
}

fn snapshot(store: &MemoryStore, under: &str) -> Vec<(String, Vec<u8>)> {
    store
        .list(&Key::new(under).unwrap())
        .unwrap()
        .into_iter()
        .map(|k| {
            let bytes = store.read(&k).unwrap().unwrap();
            (k.to_string(), bytes)
        })
        .collect()
}

fn removed(plan: &PrunePlan) -> Vec<(PruneKind, &str)> {
    plan.removed
        .iter()
        .map(|r| (r.kind, r.id.as_str()))
        .collect()
}

/// Old agents `o1` (chain `old`), `o2` (chains `old` and `mixed`), `keep-me` (no chain),
/// resumed agent `r1` (created old, resumed recently), new agent `n1` (chain `mixed`).
fn filled(store: &MemoryStore) {
    let old = reg(store, "2026-01-01T00:00:00Z");
    old.register("a", "o1", json!("r1"), Some("old")).unwrap();
    old.register("b", "o2", json!("r2"), Some("old")).unwrap();
    old.register("b2", "o2", json!("r2"), Some("mixed"))
        .unwrap();
    old.register("k", "keep-me", json!(null), None).unwrap();
    old.register("r", "r1", json!(1), None).unwrap();
    let recent = reg(store, "2026-03-01T00:00:00Z");
    recent.increment_resume_count("r1").unwrap();
    recent
        .register("n", "n1", json!("new"), Some("mixed"))
        .unwrap();
}

#[test]
fn registry_prune_removes_old_agents_with_every_entry() {
    for mode in [JournalMode::Off, JournalMode::DEFAULT_ON] {
        let store = MemoryStore::new();
        filled(&store);
        let now = reg(&store, "2026-03-02T00:00:00Z").with_journal(mode);
        let options = PruneRegistryOptions {
            older_than_days: 30,
            keep_agent_ids: vec!["keep-me".into()],
            apply: false,
        };
        let before = snapshot(&store, ".moai");
        let plan = now.prune(&options).unwrap();
        assert!(!plan.applied);
        assert_eq!(
            removed(&plan),
            [
                (PruneKind::Agent, "o1"),
                (PruneKind::Agent, "o2"),
                (PruneKind::Chain, "old")
            ]
        );
        assert_eq!(
            plan.removed[1].removes,
            [
                "metadata",
                "results",
                "chains/old",
                "chains/mixed",
                "sessions/b",
                "sessions/b2"
            ]
        );
        assert_eq!(plan.removed[0].reason, "last active 60 days ago");
        assert_eq!(plan.kept.len(), 1);
        assert_eq!(plan.kept[0].id, "keep-me");
        assert_eq!(
            snapshot(&store, ".moai"),
            before,
            "a dry run changes nothing"
        );

        let applied = now
            .prune(&PruneRegistryOptions {
                apply: true,
                ..options.clone()
            })
            .unwrap();
        assert!(applied.applied);
        assert_eq!(applied.removed, plan.removed);
        let doc = now.load().unwrap();
        let ids: Vec<&str> = doc.metadata.keys().map(String::as_str).collect();
        assert_eq!(ids, ["keep-me", "r1", "n1"]);
        assert!(!doc.results.contains_key("o1") && !doc.results.contains_key("o2"));
        assert!(!doc.chains.contains_key("old"));
        assert_eq!(doc.chains["mixed"], ["n1"]);
        assert!(!doc.sessions.contains_key("a") && !doc.sessions.contains_key("b2"));
        assert_eq!(now.resume_id("n", None).unwrap().as_deref(), Some("n1"));
        // The seed's reader still reads the file (plain JSON, same keys).
        now.compact().unwrap();
        let bytes = store
            .read(&Key::new(SESSIONS_KEY).unwrap())
            .unwrap()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert!(v["metadata"].get("o1").is_none(), "{mode:?}");
        // Nothing left to prune.
        assert!(now.prune(&options).unwrap().removed.is_empty());
    }
}

#[test]
fn registry_prune_leaves_agents_without_a_readable_time() {
    let store = MemoryStore::new();
    store
        .write(
            &Key::new(SESSIONS_KEY).unwrap(),
            br#"{"sessions": {"x": "x1"}, "chains": {}, "metadata": {"x1": {"agent_name": "x", "created_at": "yesterday"}, "x2": {}}}"#,
        )
        .unwrap();
    let plan = reg(&store, "2026-03-02T00:00:00Z")
        .prune(&PruneRegistryOptions {
            older_than_days: 0,
            keep_agent_ids: vec![],
            apply: true,
        })
        .unwrap();
    assert!(plan.removed.is_empty());
}

#[test]
fn team_prune_removes_old_member_files_only() {
    let store = MemoryStore::new();
    let old = TeamStore::new(&store, FixedClock::at("2026-01-01T00:00:00Z").unwrap());
    old.record_spawn("t", &SpawnConfig::new("old", "p"), BackendType::ClaudeCode)
        .unwrap();
    let new = TeamStore::new(&store, FixedClock::at("2026-03-01T00:00:00Z").unwrap());
    new.record_spawn("t", &SpawnConfig::new("new", "p"), BackendType::Codex)
        .unwrap();
    store
        .write(&Key::new("teams/t/sessions/torn.json").unwrap(), b"{")
        .unwrap();
    let before = snapshot(&store, "teams");
    let dry = new
        .prune(
            "t",
            &PruneTeamOptions {
                older_than_days: 30,
                apply: false,
            },
        )
        .unwrap();
    assert_eq!(removed(&dry), [(PruneKind::TeamMember, "old")]);
    assert_eq!(dry.removed[0].removes, ["teams/t/sessions/old.json"]);
    assert_eq!(dry.removed[0].reason, "created 59 days ago");
    assert_eq!(snapshot(&store, "teams"), before);
    let applied = new
        .prune(
            "t",
            &PruneTeamOptions {
                older_than_days: 30,
                apply: true,
            },
        )
        .unwrap();
    assert_eq!(applied.removed, dry.removed);
    let left: Vec<String> = snapshot(&store, "teams")
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        left,
        ["teams/t/sessions/new.json", "teams/t/sessions/torn.json"]
    );
}

/// A store where another writer saves `old.json` afresh (`fresh`) just before the first
/// removal or locked update of it: a prune that listed it as old must not remove the new save.
struct SavedAgainBeforeRemoval<'a> {
    inner: &'a MemoryStore,
    fresh: Vec<u8>,
    done: std::cell::Cell<bool>,
}

impl SavedAgainBeforeRemoval<'_> {
    fn save_again(&self, key: &Key) -> session_state::Result<()> {
        if key.as_str() == "teams/t/sessions/old.json" && !self.done.replace(true) {
            self.inner.write(key, &self.fresh)?;
        }
        Ok(())
    }
}

impl Store for SavedAgainBeforeRemoval<'_> {
    fn read(&self, key: &Key) -> session_state::Result<Option<Vec<u8>>> {
        self.inner.read(key)
    }
    fn write(&self, key: &Key, data: &[u8]) -> session_state::Result<()> {
        self.inner.write(key, data)
    }
    fn delete(&self, key: &Key) -> session_state::Result<bool> {
        self.save_again(key)?;
        self.inner.delete(key)
    }
    fn list(&self, prefix: &Key) -> session_state::Result<Vec<Key>> {
        self.inner.list(prefix)
    }
    fn update(
        &self,
        key: &Key,
        apply: &mut session_state::UpdateFn<'_>,
    ) -> session_state::Result<()> {
        self.save_again(key)?;
        self.inner.update(key, apply)
    }
}

#[test]
fn team_prune_keeps_a_member_saved_again_after_it_was_listed() {
    let store = MemoryStore::new();
    let old = TeamStore::new(&store, FixedClock::at("2026-01-01T00:00:00Z").unwrap());
    old.record_spawn("t", &SpawnConfig::new("old", "p"), BackendType::ClaudeCode)
        .unwrap();
    old.record_spawn(
        "t",
        &SpawnConfig::new("older", "p"),
        BackendType::ClaudeCode,
    )
    .unwrap();
    let fresh_store = MemoryStore::new();
    let later = TeamStore::new(
        &fresh_store,
        FixedClock::at("2026-03-01T00:00:00Z").unwrap(),
    );
    let mut state = later
        .record_spawn("t", &SpawnConfig::new("old", "fresh"), BackendType::Codex)
        .unwrap();
    state.created_at = "2026-03-01T00:00:00Z".parse().unwrap();
    let racing = SavedAgainBeforeRemoval {
        inner: &store,
        fresh: state.to_json().unwrap(),
        done: std::cell::Cell::new(false),
    };
    let pruner = TeamStore::new(&racing, FixedClock::at("2026-03-01T00:00:00Z").unwrap());
    let options = PruneTeamOptions {
        older_than_days: 30,
        apply: true,
    };
    let plan = pruner.prune("t", &options).unwrap();
    assert_eq!(removed(&plan), [(PruneKind::TeamMember, "older")]);
    let kept = old.load("t", "old").unwrap();
    assert_eq!(
        kept.prompt, "fresh",
        "the save made after the listing stays"
    );
    assert!(old.load("t", "older").is_err());
}

#[test]
fn options_read_snake_case_and_javascript_spellings() {
    use session_state::json::from_value;
    use session_state::orchestrator::{ForkOptions, PruneHistoryOptions, ResumeOptions};
    let fork: ForkOptions = from_value(
        json!({"sessionId": "a", "newId": "b", "archiveCurrent": true}),
        "options",
    )
    .unwrap();
    assert_eq!(
        fork,
        from_value(
            json!({"session_id": "a", "new_id": "b", "archive_current": true}),
            "options"
        )
        .unwrap()
    );
    let history: PruneHistoryOptions =
        from_value(json!({"olderThanDays": 3, "keep": 1}), "options").unwrap();
    assert_eq!(
        (history.older_than_days, history.keep, history.apply),
        (Some(3), Some(1), false)
    );
    let registry: PruneRegistryOptions = from_value(
        json!({"olderThanDays": 3, "keepAgentIds": ["x"]}),
        "options",
    )
    .unwrap();
    assert_eq!(registry.keep_agent_ids, ["x"]);
    let team: PruneTeamOptions =
        from_value(json!({"older_than_days": 3, "apply": true}), "options").unwrap();
    assert!(team.apply);
    let resume: ResumeOptions = from_value(
        json!({"staleAfterHours": 2, "gitHead": {"commit": "c"}}),
        "options",
    )
    .unwrap();
    assert_eq!(resume.stale_after_hours, Some(2));
    let err = from_value::<PruneTeamOptions>(json!({"olderThan": 3}), "options").unwrap_err();
    assert_eq!(err.code(), "invalid_input");
    assert!(from_value::<PruneRegistryOptions>(json!({}), "options").is_err());
}
