//! The registry's deliberate differences from the seed, bad input, journal mode and
//! concurrency, over the memory and filesystem stores.

use serde_json::{Value, json};
use session_state::registry::{
    AgentRegistry, CHAINS_KEY, ExplainedPolicy, JOURNAL_KEY, JournalMode, ResumeReason,
    SESSIONS_KEY, TranscriptLine, transcript_key,
};
use session_state::{FixedClock, Key, MemoryStore, Store};
use session_state_fs::FsStore;

fn clock() -> FixedClock {
    FixedClock::at("2026-11-29T17:56:00.5Z").unwrap()
}

fn mem() -> AgentRegistry<MemoryStore, FixedClock> {
    AgentRegistry::new(MemoryStore::new(), clock())
}

fn key(k: &str) -> Key {
    Key::new(k).unwrap()
}

fn seq(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn re_registration_keeps_the_resume_count() {
    let reg = mem();
    reg.register("tdd", "t1", json!(1), Some("c")).unwrap();
    for _ in 0..5 {
        reg.increment_resume_count("t1").unwrap();
    }
    reg.register("tdd", "t1", json!(2), Some("c")).unwrap();
    let doc = reg.load().unwrap();
    assert_eq!(doc.metadata["t1"].resume_count, Some(5u64.into()));
    assert!(doc.metadata["t1"].last_resumed_at.is_some());
    assert!(
        !reg.should_resume("tdd", "same task here", Some("same task here"))
            .unwrap()
    );
    assert_eq!(doc.chains["c"], ["t1", "t1"]);
    assert_eq!(reg.agent_result("t1").unwrap(), Some(json!(2)));
}

#[test]
fn create_chain_keeps_members_and_saves_both_files() {
    let reg = mem();
    reg.register("a", "a1", json!(null), Some("c")).unwrap();
    reg.create_chain("c", &seq(&["a", "b"]), Some(json!({"k": 1})))
        .unwrap();
    reg.create_chain("new", &seq(&[]), Some(json!([]))).unwrap();
    let doc = reg.load().unwrap();
    assert_eq!(doc.chains["c"], ["a1"]);
    assert_eq!(doc.chains["new"], Vec::<String>::new());
    let chains = reg.load_chains().unwrap();
    assert_eq!(chains["c"].metadata, Some(json!({"k": 1})));
    assert_eq!(chains["new"].metadata, Some(json!({})));
    assert!(chains["c"].created_at.is_some());
}

#[test]
fn clear_chain_also_clears_names_of_cleared_ids() {
    let reg = mem();
    reg.register("a", "a1", json!(1), Some("c")).unwrap();
    reg.register("b", "b1", json!(2), Some("d")).unwrap();
    assert!(reg.clear_chain("c").unwrap());
    assert!(!reg.clear_chain("c").unwrap());
    assert_eq!(reg.resume_id("a", None).unwrap(), None);
    assert_eq!(reg.resume_id("b", None).unwrap().as_deref(), Some("b1"));
    let all = reg.all_sessions().unwrap();
    assert_eq!(all.total_results, 1);
    assert_eq!(all.chains, ["d"]);
}

#[test]
fn resume_id_checks_the_chain() {
    let reg = mem();
    reg.register("a", "a1", json!(1), Some("c")).unwrap();
    assert_eq!(
        reg.resume_id("a", Some("c")).unwrap().as_deref(),
        Some("a1")
    );
    assert_eq!(reg.resume_id("a", Some("d")).unwrap(), None);
    assert_eq!(reg.resume_id("a", Some("")).unwrap().as_deref(), Some("a1"));
    assert_eq!(reg.resume_id("zz", None).unwrap(), None);
}

#[test]
fn unsafe_agent_ids_are_refused_and_nothing_is_written() {
    let reg = mem();
    let err = reg
        .register("a", "x/../../secret", json!(1), None)
        .unwrap_err();
    assert_eq!(err.code(), "invalid_key");
    assert!(err.to_string().contains("`x/../../secret`"));
    assert!(reg.store().is_empty());
    assert_eq!(
        reg.export_transcript("x/../../secret").unwrap_err().code(),
        "invalid_key"
    );
    assert_eq!(
        reg.read_transcript("../x").unwrap_err().code(),
        "invalid_key"
    );
}

fn assert_kept_aside(store: &MemoryStore, bad: &[u8]) {
    let aside = key(&format!("{SESSIONS_KEY}.corrupt-20261129T175600Z"));
    assert_eq!(store.read(&aside).unwrap().as_deref(), Some(bad));
    assert_eq!(
        store.read(&key(SESSIONS_KEY)).unwrap().as_deref(),
        Some(bad)
    );
}

#[test]
fn corrupt_files_give_a_typed_error_and_are_kept_aside_never_emptied() {
    let bad_files: [&[u8]; 4] = [
        b"[1, 2]",
        b"{\"sessions\": {\"a\": \"a1\"}, \"metadata\": {\"a1\": {\"agent_name\": \"a\", \"resume_count\": \"7\"}}}",
        b"{\"sessions\": {\"a\": \"a1\"}, \"chai",
        b"",
    ];
    for bad in bad_files {
        let store = MemoryStore::new();
        store.write(&key(SESSIONS_KEY), bad).unwrap();
        let reg = AgentRegistry::new(store.clone(), clock());
        let err = reg.load().unwrap_err();
        assert_eq!(err.code(), "corrupt_state");
        let err = reg.register("b", "b1", json!(1), None).unwrap_err();
        assert_eq!(err.code(), "corrupt_state");
        assert!(err.context_value("kept_aside").is_some());
        assert_kept_aside(&store, bad);
        for result in [
            reg.clear_agent("a").map(|_| ()),
            reg.increment_resume_count("a1").map(|_| ()),
            reg.clear_chain("c").map(|_| ()),
            reg.create_chain("c", &[], None),
        ] {
            assert_eq!(result.unwrap_err().code(), "corrupt_state");
            assert_kept_aside(&store, bad);
        }
        // Starting fresh is explicit, and keeps the copy.
        let aside = reg.recover().unwrap().unwrap();
        assert_eq!(store.read(&aside).unwrap().as_deref(), Some(bad));
        assert!(reg.load().unwrap().sessions.is_empty());
        assert_eq!(reg.recover().unwrap(), None);
        reg.register("b", "b1", json!(1), None).unwrap();
    }
}

#[test]
fn a_corrupt_chains_file_is_kept_aside_and_left_alone() {
    let store = MemoryStore::new();
    store.write(&key(CHAINS_KEY), b"[\"x\"]").unwrap();
    let reg = AgentRegistry::new(store.clone(), clock());
    let err = reg.create_chain("c", &seq(&["a"]), None).unwrap_err();
    assert_eq!(err.code(), "corrupt_state");
    assert_eq!(
        store.read(&key(CHAINS_KEY)).unwrap().as_deref(),
        Some(&b"[\"x\"]"[..])
    );
    assert_eq!(reg.chain_status("c").unwrap_err().code(), "corrupt_state");
}

#[test]
fn unknown_keys_survive_every_operation() {
    let store = MemoryStore::new();
    store
        .write(
            &key(SESSIONS_KEY),
            br#"{"sessions": {}, "chains": {}, "metadata": {}, "last_updated": "x", "future": {"v": 2}}"#,
        )
        .unwrap();
    let reg = AgentRegistry::new(store.clone(), clock());
    reg.register("a", "a1", json!({"é": "ü"}), None).unwrap();
    let text = String::from_utf8(store.read(&key(SESSIONS_KEY)).unwrap().unwrap()).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["future"], json!({"v": 2}));
    assert!(text.contains("\"é\": \"ü\""), "non-ASCII unescaped: {text}");
    assert_eq!(value["last_updated"], "2026-11-29T17:56:00.500000");
    let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "sessions",
            "chains",
            "metadata",
            "last_updated",
            "results",
            "future"
        ]
    );
}

#[test]
fn chain_status_reports_done_missing_and_out_of_order() {
    let reg = mem();
    reg.create_chain("c", &seq(&["spec", "plan", "impl", "review"]), None)
        .unwrap();
    reg.register("plan", "p1", json!(1), Some("c")).unwrap();
    reg.register("spec", "s1", json!(1), Some("c")).unwrap();
    reg.register("docs", "d1", json!(1), Some("c")).unwrap();
    reg.register("impl", "i1", json!(1), Some("c")).unwrap();
    let status = reg.chain_status("c").unwrap();
    assert!(status.defined);
    assert_eq!(status.done, ["spec", "plan", "impl"]);
    assert_eq!(status.missing, ["review"]);
    assert_eq!(status.out_of_order, ["spec"]);
    assert_eq!(status.unexpected, ["docs"]);
    assert!(!status.complete);
    let status = reg.chain_status("nope").unwrap();
    assert!(!status.defined && !status.complete && status.expected.is_empty());
    assert_eq!(reg.chain_ids().unwrap(), ["c"]);
}

#[test]
fn explained_policy_through_the_registry() {
    let reg = mem();
    reg.register("a", "a1", json!(1), None).unwrap();
    let p = ExplainedPolicy::default();
    let d = reg
        .decide_resume("a", "update profiles", Some("rename files"), &p)
        .unwrap();
    assert!(!d.resume);
    assert_eq!(d.reason, ResumeReason::Unrelated);
    let d = reg.decide_resume("b", "x", Some("x"), &p).unwrap();
    assert_eq!(d.reason, ResumeReason::UnknownAgent);
    let d = reg
        .decide_resume("a", "fix it", Some("fix it"), &p)
        .unwrap();
    assert!(d.resume);
    let v = serde_json::to_value(&d).unwrap();
    assert_eq!(v["reason"], "related");
    assert_eq!(v["resume"], true);
}

#[test]
fn transcripts_are_found_and_read_line_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path()).unwrap();
    let reg = AgentRegistry::new(store, clock());
    assert_eq!(reg.export_transcript("abc").unwrap(), None);
    assert_eq!(reg.read_transcript("abc").unwrap(), None);
    let path = dir.path().join(".moai/logs/agent-transcripts");
    std::fs::create_dir_all(&path).unwrap();
    std::fs::write(
        path.join("agent-abc.jsonl"),
        "{\"a\":1}\n{oops\n{\"b\":2}\n{\"c\"",
    )
    .unwrap();
    assert!(reg.export_transcript("abc").unwrap().is_some());
    let lines = reg.read_transcript("abc").unwrap().unwrap();
    let kinds: Vec<&str> = lines
        .iter()
        .map(|l| match l {
            TranscriptLine::Record { .. } => "record",
            TranscriptLine::Invalid { .. } => "invalid",
            TranscriptLine::Torn { .. } => "torn",
        })
        .collect();
    assert_eq!(kinds, ["record", "invalid", "record", "torn"]);
}

/// An id the registry accepts but whose transcript file name (`agent-{id}.jsonl`) would be
/// over 255 bytes (a 250-byte id) has no transcript, as in the seed, instead of an
/// `invalid_key` error when asked for it.
#[test]
fn ids_too_long_for_a_transcript_file_have_none() {
    let reg = mem();
    for len in [243, 244, 250, 255] {
        let id = "a".repeat(len);
        reg.register("long", &id, json!(1), None).unwrap();
        let fits = len + "agent-.jsonl".len() <= 255;
        assert!(reg.export_transcript(&id).unwrap().is_none(), "{len}");
        assert_eq!(reg.read_transcript(&id).unwrap(), None, "{len}");
        if fits {
            reg.store()
                .write(&transcript_key(&id).unwrap(), b"{\"a\":1}\n")
                .unwrap();
            assert!(reg.export_transcript(&id).unwrap().is_some(), "{len}");
        } else {
            assert!(transcript_key(&id).is_err(), "{len}");
        }
    }
    // Ids that are not valid segments stay errors.
    assert_eq!(
        reg.export_transcript(&format!("{}/x", "a".repeat(250)))
            .unwrap_err()
            .code(),
        "invalid_key"
    );
}

#[test]
fn journal_mode_is_seen_by_readers_and_folded_in_on_close() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path()).unwrap();
    let reg = AgentRegistry::new(store.clone(), clock()).with_journal(JournalMode::On {
        min_compact_bytes: 1 << 30,
    });
    for i in 0..50 {
        reg.register(
            &format!("agent-{i}"),
            &format!("id-{i}"),
            json!(i),
            Some("c"),
        )
        .unwrap();
    }
    // Not compacted yet: the seed's file does not have them, every reader of ours does.
    assert!(store.read(&key(SESSIONS_KEY)).unwrap().is_none());
    assert_eq!(reg.load().unwrap().sessions.len(), 50);
    let plain = AgentRegistry::new(store.clone(), clock());
    assert_eq!(plain.chain_summary("c").unwrap().agent_count, Some(50));
    // A torn last line (a crash mid-append) is skipped.
    let journal = dir.path().join(JOURNAL_KEY);
    let mut bytes = std::fs::read(&journal).unwrap();
    bytes.extend_from_slice(b"{\"op\":\"register\",\"agent_na");
    std::fs::write(&journal, &bytes).unwrap();
    assert_eq!(reg.load().unwrap().sessions.len(), 50);
    reg.close().unwrap();
    // What a reader of the seed's file alone sees.
    let text = std::fs::read_to_string(dir.path().join(SESSIONS_KEY)).unwrap();
    let seed_view: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(seed_view["sessions"].as_object().unwrap().len(), 50);
    assert_eq!(seed_view["chains"]["c"].as_array().unwrap().len(), 50);
    assert_eq!(std::fs::read(&journal).unwrap(), b"{\"generation\": 2}\n");
}

#[test]
fn a_crash_between_the_base_write_and_the_journal_reset_applies_nothing_twice() {
    let store = MemoryStore::new();
    let reg = AgentRegistry::new(store.clone(), clock()).with_journal(JournalMode::DEFAULT_ON);
    reg.register("a", "a1", json!(1), Some("c")).unwrap();
    reg.register("b", "b1", json!(2), Some("c")).unwrap();
    let journal_before = store.read(&key(JOURNAL_KEY)).unwrap().unwrap();
    assert!(journal_before.starts_with(b"{\"generation\": 1}\n"));
    // The fold writes the base, then the journal; put the old journal back as if the process
    // had died between the two writes.
    assert!(reg.clear_agent("a").unwrap());
    store.write(&key(JOURNAL_KEY), &journal_before).unwrap();
    let doc = reg.load().unwrap();
    assert_eq!(doc.journal_folded.map(|m| m.generation), Some(1));
    assert_eq!(doc.chains["c"], ["a1", "b1"], "no id twice");
    assert!(!doc.sessions.contains_key("a"), "the clear is not undone");
    reg.register("c", "c1", json!(3), None).unwrap();
    reg.close().unwrap();
    let plain = AgentRegistry::new(store.clone(), clock());
    let doc = plain.load().unwrap();
    assert_eq!(doc.sessions.keys().collect::<Vec<_>>(), ["b", "c"]);
    assert_eq!(doc.chains["c"], ["a1", "b1"]);
    assert_eq!(
        store.read(&key(JOURNAL_KEY)).unwrap().unwrap(),
        b"{\"generation\": 2}\n"
    );
}

#[test]
fn journal_compacts_by_itself_and_keeps_bad_lines_aside() {
    let store = MemoryStore::new();
    let reg = AgentRegistry::new(store.clone(), clock()).with_journal(JournalMode::On {
        min_compact_bytes: 1000,
    });
    for i in 0..40 {
        reg.register("a", &format!("id-{i}"), json!("x".repeat(50)), None)
            .unwrap();
    }
    let base = store.read(&key(SESSIONS_KEY)).unwrap().unwrap();
    let seen: Value = serde_json::from_slice(&base).unwrap();
    assert!(seen["metadata"].as_object().unwrap().len() >= 10);
    assert_eq!(reg.load().unwrap().metadata.len(), 40);
    store.append(&key(JOURNAL_KEY), b"garbage\n").unwrap();
    reg.register("b", "b1", json!(1), None).unwrap();
    reg.increment_resume_count("b1").unwrap();
    let aside = store
        .list(&key(".moai/memory"))
        .unwrap()
        .into_iter()
        .find(|k| k.as_str().contains("journal.jsonl.corrupt-"));
    assert!(aside.is_some());
    let doc = reg.load().unwrap();
    assert_eq!(doc.metadata.len(), 41);
    assert_eq!(doc.metadata["b1"].resume_count, Some(1u64.into()));
}

#[test]
fn a_plain_writer_folds_a_pending_journal_first() {
    let store = MemoryStore::new();
    let journaled =
        AgentRegistry::new(store.clone(), clock()).with_journal(JournalMode::DEFAULT_ON);
    journaled.register("a", "a1", json!(1), None).unwrap();
    drop(journaled);
    let plain = AgentRegistry::new(store.clone(), clock());
    plain.register("b", "b1", json!(2), None).unwrap();
    let doc = plain.load().unwrap();
    assert_eq!(doc.sessions.len(), 2);
    assert_eq!(
        store.read(&key(JOURNAL_KEY)).unwrap().unwrap(),
        b"{\"generation\": 2}\n"
    );
}

#[test]
fn concurrent_threads_lose_no_registration() {
    for mode in [
        JournalMode::Off,
        JournalMode::On {
            min_compact_bytes: 2000,
        },
    ] {
        let dir = tempfile::tempdir().unwrap();
        let store = FsStore::new(dir.path()).unwrap();
        std::thread::scope(|scope| {
            for t in 0..4 {
                let store = store.clone();
                scope.spawn(move || {
                    let reg = AgentRegistry::new(store, clock()).with_journal(mode);
                    for i in 0..40 {
                        reg.register(
                            &format!("t{t}-{i}"),
                            &format!("id-{t}-{i}"),
                            json!(i),
                            Some("c"),
                        )
                        .unwrap();
                    }
                    reg.close().unwrap();
                });
            }
        });
        let text = std::fs::read_to_string(dir.path().join(SESSIONS_KEY)).unwrap();
        let seed_view: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            seed_view["metadata"].as_object().unwrap().len(),
            160,
            "{mode:?}"
        );
        assert_eq!(
            seed_view["chains"]["c"].as_array().unwrap().len(),
            160,
            "{mode:?}"
        );
    }
}

mod properties {
    use proptest::prelude::*;
    use session_state::registry::{
        CompatPolicy, ExplainedPolicy, ResumePolicy, ResumeQuery, ResumeReason,
    };

    proptest! {
        #[test]
        fn policies_never_panic_and_scores_stay_in_range(
            current in "\\PC{0,40}",
            previous in proptest::option::of("\\PC{0,40}"),
            count in 0u64..8,
            known in any::<bool>(),
        ) {
            let query = ResumeQuery {
                known_agent: known,
                resume_count: count,
                current_task: &current,
                previous_task: previous.as_deref(),
            };
            for decision in [CompatPolicy::default().decide(&query), ExplainedPolicy::default().decide(&query)] {
                prop_assert!((0.0..=1.0).contains(&decision.score));
                prop_assert_eq!(decision.resume, decision.reason == ResumeReason::Related);
                if !known || count >= 5 || previous.as_deref().is_none_or(str::is_empty) {
                    prop_assert!(!decision.resume);
                }
            }
        }

        #[test]
        fn identical_tasks_are_related_for_the_explained_policy(task in "\\PC{1,40}") {
            let query = ResumeQuery {
                known_agent: true,
                resume_count: 0,
                current_task: &task,
                previous_task: Some(&task),
            };
            prop_assert!(ExplainedPolicy::default().decide(&query).resume);
        }
    }
}

#[test]
fn has_result_is_false_for_a_stored_null_result() {
    let reg = mem();
    reg.register("a", "a1", Value::Null, None).unwrap();
    reg.register("b", "b1", json!({"ok": true}), None).unwrap();
    // The seed stores the null entry and `get_agent_result` gives it back.
    assert_eq!(reg.agent_result("a1").unwrap(), Some(Value::Null));
    assert!(reg.load().unwrap().results.contains_key("a1"));
    let flags: Vec<(String, bool)> = reg
        .agents(None)
        .unwrap()
        .into_iter()
        .map(|e| (e.agent_id, e.has_result))
        .collect();
    assert_eq!(flags, [("a1".into(), false), ("b1".into(), true)]);
}

/// A result nested deeper than the limit is refused before anything is written: stored 3
/// levels down, a result of 126 levels made a file the parser's 128-level limit refuses.
#[test]
fn a_result_too_deep_to_read_back_is_refused_and_nothing_is_written() {
    let nested = |levels: usize| (0..levels).fold(json!(1), |inner, _| json!([inner]));
    for mode in [JournalMode::Off, JournalMode::DEFAULT_ON] {
        let reg = mem().with_journal(mode);
        reg.register("a", "a1", json!(1), None).unwrap();
        let before = reg.load().unwrap();
        let e = reg.register("a", "a2", nested(126), None).unwrap_err();
        assert_eq!(e.kind(), session_state::ErrorKind::InvalidInput, "{e}");
        assert!(e.message().contains("limit of 100 levels"), "{e}");
        assert_eq!(reg.load().unwrap(), before);
        let e = reg
            .create_chain("c", &seq(&["a"]), Some(json!({"m": nested(126)})))
            .unwrap_err();
        assert_eq!(e.kind(), session_state::ErrorKind::InvalidInput, "{e}");
        // At the limit, the result is stored and reads back.
        let deepest = nested(session_state::MAX_VALUE_NESTING);
        reg.register("a", "a3", deepest.clone(), None).unwrap();
        reg.compact().unwrap();
        assert_eq!(reg.load().unwrap().results["a3"].result, deepest);
    }
}

/// A writer killed mid-write leaves `.agent-sessions.json.tmp-PID-N`; the next registration
/// of a handle (which writes under the journal's lock) removes it in either mode (the
/// filesystem store sweeps a folder at a handle's first locked write there, see
/// `session_state_fs::STALE_SWEEP_INTERVAL`).
#[test]
fn a_registration_removes_a_dead_writers_temporary_file() {
    if !std::path::Path::new("/proc/self").exists() {
        return; // the filesystem store only removes them where it can check PIDs
    }
    for mode in [JournalMode::Off, JournalMode::DEFAULT_ON] {
        let dir = tempfile::tempdir().unwrap();
        let store = FsStore::new(dir.path()).unwrap();
        AgentRegistry::new(store, clock())
            .with_journal(mode)
            .register("a", "a1", json!(1), None)
            .unwrap();
        // PID 4194304 is above Linux's pid_max: no process has it.
        let dead = dir
            .path()
            .join(".moai/memory/.agent-sessions.json.tmp-4194304-0");
        std::fs::write(&dead, b"{\"sessions\": {").unwrap();
        let store = FsStore::new(dir.path()).unwrap();
        let reg = AgentRegistry::new(store, clock()).with_journal(mode);
        reg.register("a", "a2", json!(2), None).unwrap();
        reg.compact().unwrap();
        assert!(!dead.exists(), "{mode:?}");
    }
}
