//! Every operation of `OrchestratorStore`: save/load/archive, lifecycle (all 25 moves),
//! auto-save points, history listing and its index.

mod orchestrator_common;

use orchestrator_common::{GOLDEN_NOW, clock, memory, vector};
use serde_json::{Value, json};
use session_state::orchestrator::{
    AgentDone, AgentFail, AgentProgress, AgentStart, AgentStatus, DecisionInput, HistoryQuery,
    INDEX_KEY, NewSession, OrchestratorSession, OrchestratorStore, ParseOptions, Project,
    SessionStatus, current_key, history_key, index_key, parse_document,
};
use session_state::{ErrorKind, FixedClock, Key, MemoryStore, Store, Timestamp};

fn seed() -> OrchestratorSession {
    parse_document(
        &current_key(),
        &vector("seed-example.json"),
        &ParseOptions::default(),
    )
    .unwrap()
}

fn with_status(status: SessionStatus) -> OrchestratorSession {
    let mut doc = seed();
    doc.status = status;
    doc
}

#[test]
fn save_sets_updated_writes_pretty_json_and_load_reads_it_back() {
    let s = memory();
    assert!(s.load().unwrap().is_none());
    let mut doc = seed();
    doc.extra
        .insert("x_custom".into(), json!({"deep": [1, {"kept": true}]}));
    doc.agents[0].extra.insert("x_agent".into(), json!("kept"));
    let key = s.save(&mut doc).unwrap();
    assert_eq!(key, current_key());
    assert_eq!(doc.updated.unwrap().to_rfc3339(), GOLDEN_NOW);
    let bytes = s.store().read(&key).unwrap().unwrap();
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.starts_with("{\n  \"schema_version\": \"1.0\",\n  \"session_id\""));
    assert!(text.contains("\"updated\": \"2025-12-27T12:30:00Z\""));
    let loaded = s.load().unwrap().unwrap();
    assert_eq!(loaded, doc);
    assert_eq!(
        loaded.extra["x_custom"],
        json!({"deep": [1, {"kept": true}]})
    );
    // Unknown top-level fields are written after the known ones.
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v.as_object().unwrap().keys().next_back().unwrap(),
        "x_custom"
    );
}

#[test]
fn git_branch_absent_and_null_stay_apart() {
    for (input, expect) in [
        (json!("dev"), Some(json!("dev"))),
        (Value::Null, Some(Value::Null)),
    ] {
        let mut v: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
        v["project"]["git_branch"] = input;
        let doc = parse_document(
            &current_key(),
            &serde_json::to_vec(&v).unwrap(),
            &ParseOptions::default(),
        )
        .unwrap();
        let back: Value = serde_json::from_slice(&doc.to_pretty_json()).unwrap();
        assert_eq!(back["project"].get("git_branch").cloned(), expect);
    }
    let mut v: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    v["project"].as_object_mut().unwrap().remove("git_branch");
    let doc = parse_document(
        &current_key(),
        &serde_json::to_vec(&v).unwrap(),
        &ParseOptions::default(),
    )
    .unwrap();
    let back: Value = serde_json::from_slice(&doc.to_pretty_json()).unwrap();
    assert!(back["project"].get("git_branch").is_none());
}

#[test]
fn abandoned_reads_as_aborted_and_unknown_agent_status_and_mode_are_kept() {
    let mut v: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    v["status"] = json!("abandoned");
    v["mode"] = json!("turbo");
    v["agents"][1]["status"] = json!("waiting_on_review");
    let doc = parse_document(
        &current_key(),
        &serde_json::to_vec(&v).unwrap(),
        &ParseOptions::default(),
    )
    .unwrap();
    assert_eq!(doc.status, SessionStatus::Aborted);
    assert_eq!(doc.mode.as_deref(), Some("turbo"));
    assert_eq!(
        doc.agents[1].status,
        AgentStatus::Other("waiting_on_review".into())
    );
    let back: Value = serde_json::from_slice(&doc.to_pretty_json()).unwrap();
    assert_eq!(back["status"], "aborted");
    assert_eq!(back["agents"][1]["status"], "waiting_on_review");
}

#[test]
fn naive_timestamps_read_as_utc_or_at_the_configured_offset() {
    let mut v: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    v["created"] = json!("2025-12-27T10:30:00.500000");
    let store = MemoryStore::new();
    store
        .write(&current_key(), &serde_json::to_vec(&v).unwrap())
        .unwrap();
    let utc = OrchestratorStore::new(store.clone(), clock(GOLDEN_NOW));
    assert_eq!(
        utc.load().unwrap().unwrap().created.to_rfc3339(),
        "2025-12-27T10:30:00.500Z"
    );
    let plus2 = chrono::FixedOffset::east_opt(2 * 3600).unwrap();
    let local = OrchestratorStore::new(store, clock(GOLDEN_NOW)).with_naive_offset(plus2);
    let doc = local.load().unwrap().unwrap();
    assert_eq!(doc.created.to_rfc3339(), "2025-12-27T08:30:00.500Z");
    assert!(!doc.created.is_naive());
}

#[test]
fn lifecycle_table_covers_all_25_moves() {
    use SessionStatus::{Aborted, Complete, Created, InProgress, Paused};
    let allowed = [
        (Created, InProgress),
        (Paused, InProgress),
        (InProgress, Paused),
        (InProgress, Complete),
        (InProgress, Aborted),
        (Created, Aborted),
        (Paused, Aborted),
    ];
    let mut count = 0;
    for from in SessionStatus::ALL {
        for to in SessionStatus::ALL {
            count += 1;
            let moves = allowed.contains(&(from, to));
            assert_eq!(from.can_move_to(to), moves, "{from} -> {to}");
            // Staying put succeeds and changes nothing, but not in a final status (SPEC 1).
            let stays = from == to && !from.is_final();
            let ok = moves || stays;
            // Pure transition.
            let mut doc = with_status(from);
            let r = doc.transition(to);
            assert_eq!(r.is_ok(), ok, "{from} -> {to}");
            if let Err(e) = r {
                assert_eq!(e.kind(), ErrorKind::InvalidTransition);
                assert!(
                    e.message().contains(&format!("`{from}`"))
                        && e.message().contains(&format!("`{to}`"))
                );
                assert_eq!(doc.status, from, "unchanged on refusal");
            }
            // Through the store: saved, archived when final, untouched when refused.
            let s = memory();
            let mut doc = with_status(from);
            s.save(&mut doc).unwrap();
            let before = s.store().read(&current_key()).unwrap();
            let r = s.move_to(to);
            assert_eq!(r.is_ok(), ok, "store {from} -> {to}");
            let archived = s
                .store()
                .read(&history_key(&doc.session_id).unwrap())
                .unwrap();
            let current = s.store().read(&current_key()).unwrap();
            if ok && to.is_final() {
                assert!(current.is_none(), "{from} -> {to} removes current");
                let a =
                    parse_document(&current_key(), &archived.unwrap(), &ParseOptions::default())
                        .unwrap();
                assert_eq!(a.status, to);
            } else if stays {
                assert_eq!(current, before, "{from} -> {to} writes nothing");
                assert!(archived.is_none());
            } else if ok {
                let c = parse_document(&current_key(), &current.unwrap(), &ParseOptions::default())
                    .unwrap();
                assert_eq!(c.status, to);
                assert!(archived.is_none());
            } else {
                assert_eq!(r.unwrap_err().kind(), ErrorKind::InvalidTransition);
                assert_eq!(current, before, "nothing written on refusal");
                assert!(archived.is_none());
            }
        }
    }
    assert_eq!(count, 25);
}

#[test]
fn convenience_moves_follow_the_seed_flow() {
    let s = memory();
    let project = Project::new("p", "/p", None);
    let doc = s
        .record_new(
            &NewSession {
                goal: "goal".into(),
                ..NewSession::default()
            },
            project,
            Some("abc123"),
        )
        .unwrap();
    assert_eq!(doc.session_id, "2025-12-27-abc123");
    assert_eq!(doc.status, SessionStatus::Created);
    let again = s
        .record_new(
            &NewSession {
                goal: "goal".into(),
                ..NewSession::default()
            },
            Project::default(),
            Some("zzz"),
        )
        .unwrap_err();
    assert_eq!(again.kind(), ErrorKind::AlreadyExists);
    assert_eq!(s.start().unwrap().status, SessionStatus::InProgress);
    assert_eq!(s.pause().unwrap().status, SessionStatus::Paused);
    let paused = s.store().read(&current_key()).unwrap();
    assert_eq!(s.pause().unwrap().status, SessionStatus::Paused, "again");
    assert_eq!(s.store().read(&current_key()).unwrap(), paused, "unchanged");
    assert_eq!(s.resume().unwrap().status, SessionStatus::InProgress);
    assert_eq!(s.pause().unwrap().status, SessionStatus::Paused);
    assert_eq!(
        s.continue_session().unwrap().status,
        SessionStatus::InProgress
    );
    assert_eq!(s.complete().unwrap().status, SessionStatus::Complete);
    assert!(s.load().unwrap().is_none());
    assert_eq!(s.complete().unwrap_err().kind(), ErrorKind::NotFound);
    let page = s.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!(page.entries.len(), 1);
    assert_eq!(page.entries[0].status, SessionStatus::Complete);
}

#[test]
fn record_new_derives_a_suffix_from_the_clock_and_rejects_unsafe_ones() {
    let s = memory();
    let doc = s
        .record_new(
            &NewSession {
                goal: "g".into(),
                ..NewSession::default()
            },
            Project::default(),
            None,
        )
        .unwrap();
    let suffix = doc.session_id.strip_prefix("2025-12-27-").unwrap();
    assert_eq!(suffix.len(), 6);
    assert!(suffix.chars().all(|c| c.is_ascii_hexdigit()));
    let other = OrchestratorStore::new(MemoryStore::new(), clock("2025-12-27T12:30:00.000000001Z"));
    let doc2 = other
        .record_new(
            &NewSession {
                goal: "g".into(),
                ..NewSession::default()
            },
            Project::default(),
            None,
        )
        .unwrap();
    assert_ne!(doc.session_id, doc2.session_id);
    let bad = memory()
        .record_new(
            &NewSession {
                goal: "g".into(),
                ..NewSession::default()
            },
            Project::default(),
            Some("../x"),
        )
        .unwrap_err();
    assert_eq!(bad.kind(), ErrorKind::InvalidKey);
}

#[test]
fn auto_save_points_each_save() {
    let s = memory();
    let mut doc = with_status(SessionStatus::InProgress);
    doc.updated = Some(Timestamp::parse("2000-01-01T00:00:00Z").unwrap());
    s.save(&mut doc).unwrap();
    let now = s.now();
    let start = |task: &str| AgentStart {
        id: "test-1".into(),
        agent_type: "test".into(),
        task: task.into(),
    };
    let saved = s.record_agent_start(&start("Add unit tests")).unwrap();
    assert_eq!(saved.agents.len(), 3);
    assert_eq!(
        saved.agent("test-1").unwrap().status,
        AgentStatus::InProgress
    );
    assert_eq!(saved.agent("test-1").unwrap().started, now);
    assert_eq!(s.load().unwrap().unwrap(), saved);
    let progress = |percent: u8| AgentProgress {
        id: "test-1".into(),
        percent: percent.into(),
    };
    let saved = s.record_agent_progress(&progress(40)).unwrap();
    assert_eq!(saved.agent("test-1").unwrap().progress, Some(40u8.into()));
    assert_eq!(
        s.record_agent_progress(&progress(101)).unwrap_err().kind(),
        ErrorKind::InvalidInput
    );
    let done = |id: &str| AgentDone {
        id: id.into(),
        summary: Some("primary method done".into()),
        ..AgentDone::default()
    };
    let saved = s.record_agent_done(&done("code-1")).unwrap();
    let a = saved.agent("code-1").unwrap();
    assert_eq!(a.status, AgentStatus::Complete);
    assert_eq!(a.result_summary.as_deref(), Some("primary method done"));
    assert_eq!(a.completed, Some(now));
    let fail = |id: &str, error: &str| AgentFail {
        id: id.into(),
        error: error.into(),
    };
    let saved = s
        .record_agent_fail(&fail("test-1", "tests timed out"))
        .unwrap();
    assert_eq!(saved.agent("test-1").unwrap().status, AgentStatus::Failed);
    assert_eq!(
        saved.errors,
        vec![json!({"agent": "test-1", "error": "tests timed out", "timestamp": GOLDEN_NOW})]
    );
    assert_eq!(
        s.record_agent_fail(&fail("nope", "x")).unwrap_err().kind(),
        ErrorKind::NotFound
    );
    assert_eq!(
        s.record_agent_done(&done("nope")).unwrap_err().kind(),
        ErrorKind::NotFound
    );
    let decision = DecisionInput {
        decision: "Use delta".into(),
        why: Some("faster".into()),
    };
    let saved = s.record_decision(&decision).unwrap();
    assert_eq!(saved.decisions_made.last().unwrap().decision, "Use delta");
    assert_eq!(saved.decisions_made.last().unwrap().rationale, "faster");
    assert_eq!(saved.decisions_made.last().unwrap().timestamp, now);
    let saved = s.before_compression().unwrap();
    assert_eq!(saved.context_usage.last_compression, Some(now));
    assert_eq!(s.load().unwrap().unwrap(), saved);
    // Restarting an agent replaces it in place.
    let saved = s.record_agent_start(&start("retry")).unwrap();
    assert_eq!(saved.agents.len(), 3);
    assert_eq!(saved.agent("test-1").unwrap().task, "retry");
    assert_eq!(
        saved.agent("test-1").unwrap().status,
        AgentStatus::InProgress
    );
    let ended = s.session_end().unwrap();
    assert!(s.load().unwrap().is_none());
    let archived = s
        .store()
        .read(&history_key(&ended.session_id).unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(
        parse_document(&current_key(), &archived, &ParseOptions::default()).unwrap(),
        ended
    );
    assert_eq!(s.session_end().unwrap_err().kind(), ErrorKind::NotFound);
    assert_eq!(
        s.before_compression().unwrap_err().kind(),
        ErrorKind::NotFound
    );
}

#[test]
fn archive_never_overwrites_silently() {
    let s = memory();
    let mut doc = seed();
    s.save(&mut doc).unwrap();
    let key = s.archive(&doc, false).unwrap();
    assert_eq!(
        key.as_str(),
        ".claude/orchestrator-history/2025-12-27-abc123.json"
    );
    assert!(s.load().unwrap().is_none());
    let first = s.store().read(&key).unwrap();
    let mut changed = doc.clone();
    changed.goal = "other".into();
    let err = s.archive(&changed, false).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AlreadyExists);
    assert_eq!(s.store().read(&key).unwrap(), first, "unchanged");
    s.archive(&changed, true).unwrap();
    let page = s.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!(page.entries[0].goal, "other", "the index follows a replace");
}

#[test]
fn archive_keeps_a_current_file_of_another_session() {
    let s = memory();
    let mut current = seed();
    current.session_id = "2025-12-28-other1".into();
    s.save(&mut current).unwrap();
    s.archive(&seed(), false).unwrap();
    assert_eq!(s.load().unwrap().unwrap().session_id, "2025-12-28-other1");
}

fn archived(s: &OrchestratorStore<MemoryStore, FixedClock>, id: &str, created: &str, status: &str) {
    let mut v: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    v["session_id"] = json!(id);
    v["created"] = json!(created);
    v["status"] = json!(status);
    v["goal"] = json!(format!("goal of {id}"));
    let key = history_key(id).unwrap();
    s.store()
        .write(&key, &serde_json::to_vec(&v).unwrap())
        .unwrap();
}

#[test]
fn history_orders_by_instant_then_id_pages_and_filters() {
    let s = memory();
    archived(&s, "b", "2025-12-24T08:15:00+01:00", "complete"); // 07:15Z
    archived(&s, "a", "2025-12-24T07:15:00Z", "aborted"); // same instant as b
    archived(&s, "z-old", "2025-12-01T00:00:00Z", "complete");
    archived(&s, "c", "2025-12-24T07:16:00", "complete"); // naive = UTC
    s.store()
        .write(
            &history_key("junk").unwrap(),
            b"{\"schema_version\": \"1.0\", \"sess",
        )
        .unwrap();
    s.store()
        .write(&history_key("foreign").unwrap(), b"[1, 2, 3]")
        .unwrap();
    s.store()
        .write(
            &history_key("future").unwrap(),
            br#"{"schema_version": "2.0"}"#,
        )
        .unwrap();
    s.store()
        .write(
            &Key::new(".claude/orchestrator-history/notes.txt").unwrap(),
            b"hi",
        )
        .unwrap();
    let page = s.list_history(&HistoryQuery::default()).unwrap();
    let ids: Vec<&str> = page.entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["c", "b", "a", "z-old"]);
    assert_eq!(page.total, 4);
    let skipped: Vec<(&str, &str)> = page
        .skipped
        .iter()
        .map(|k| (k.key.as_str(), k.code.as_str()))
        .collect();
    assert_eq!(
        skipped,
        [
            (".claude/orchestrator-history/foreign.json", "corrupt_state"),
            (
                ".claude/orchestrator-history/future.json",
                "incompatible_schema"
            ),
            (".claude/orchestrator-history/junk.json", "corrupt_state"),
        ]
    );
    let q = HistoryQuery {
        limit: 2,
        offset: 1,
        status: None,
    };
    let ids: Vec<String> = s
        .list_history(&q)
        .unwrap()
        .entries
        .into_iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, ["b", "a"]);
    let q = HistoryQuery {
        status: Some(SessionStatus::Aborted),
        ..Default::default()
    };
    let page = s.list_history(&q).unwrap();
    assert_eq!(page.total, 1);
    assert_eq!(page.entries[0].id, "a");
    // Same answer without the index.
    let full = s.list_history_full_scan(&HistoryQuery::default()).unwrap();
    assert_eq!(full, s.list_history(&HistoryQuery::default()).unwrap());
}

fn index_files(s: &OrchestratorStore<MemoryStore, FixedClock>) -> Vec<Value> {
    let index: Value =
        serde_json::from_slice(&s.store().read(&index_key()).unwrap().unwrap()).unwrap();
    index["files"].as_array().unwrap().clone()
}

#[test]
fn index_is_built_updated_incrementally_and_rebuilt_when_damaged() {
    let s = memory();
    archived(&s, "one", "2025-12-01T00:00:00Z", "complete");
    archived(&s, "two", "2025-12-02T00:00:00Z", "complete");
    assert!(s.store().read(&index_key()).unwrap().is_none());
    s.list_history(&HistoryQuery::default()).unwrap();
    let files = index_files(&s);
    let names: Vec<&str> = files.iter().map(|r| r[0].as_str().unwrap()).collect();
    assert_eq!(names, ["one.json", "two.json"]);

    // The index is what the listing uses: a stale record (same name) shows until rebuilt.
    let mut index: Value =
        serde_json::from_slice(&s.store().read(&index_key()).unwrap().unwrap()).unwrap();
    index["files"][0][2] = json!("from the index");
    s.store()
        .write(&index_key(), &serde_json::to_vec(&index).unwrap())
        .unwrap();
    let page = s.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!(
        page.entries[1].goal, "from the index",
        "listing reads the index, not the file"
    );

    // New file: parsed and added; vanished file: dropped; kept records are not re-parsed.
    archived(&s, "three", "2025-12-03T00:00:00Z", "complete");
    s.store().delete(&history_key("two").unwrap()).unwrap();
    let page = s.list_history(&HistoryQuery::default()).unwrap();
    let ids: Vec<&str> = page.entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["three", "one"]);
    let files = index_files(&s);
    let names: Vec<&str> = files.iter().map(|r| r[0].as_str().unwrap()).collect();
    assert_eq!(names, ["one.json", "three.json"]);
    assert_eq!(files[0][2], "from the index", "kept: not re-parsed");
    assert_eq!(files[0][1], "", "id left out when it is the file stem");

    // Damaged or unsorted index: rebuilt from the files.
    for damaged in [
        &b"{\"version\": 2, \"fi"[..],
        br#"{"version": 1, "files": []}"#,
        br#"{"version": 3, "files": [["one.json", "", "y", "complete", 0, 0, false, null], ["three.json", "", "x", "complete", 0, 0, false, null]]}"#,
        br#"{"version": 4, "files": [["three.json", "", "x", "complete", 0, 0, false, null, null, null], ["one.json", "", "y", "complete", 0, 0, false, null, null, null]]}"#,
    ] {
        s.store().write(&index_key(), damaged).unwrap();
        let page = s.list_history(&HistoryQuery::default()).unwrap();
        assert_eq!(page.entries[1].goal, "goal of one");
        assert_eq!(index_files(&s).len(), 2);
    }
    // rebuild_index re-reads files edited in place.
    archived(&s, "one", "2025-12-01T00:00:00Z", "aborted");
    assert_eq!(
        s.list_history(&HistoryQuery::default()).unwrap().entries[1].status,
        SessionStatus::Complete
    );
    s.rebuild_index().unwrap();
    assert_eq!(
        s.list_history(&HistoryQuery::default()).unwrap().entries[1].status,
        SessionStatus::Aborted
    );
    assert_eq!(INDEX_KEY, ".claude/orchestrator-history.index.json");
}

#[test]
fn naive_created_in_history_follows_the_configured_offset() {
    let store = MemoryStore::new();
    let s = OrchestratorStore::new(store.clone(), clock(GOLDEN_NOW));
    archived(&s, "naive", "2025-12-24T08:00:00", "complete");
    archived(&s, "zulu", "2025-12-24T07:30:00Z", "complete");
    let ids = |s: &OrchestratorStore<MemoryStore, FixedClock>| -> Vec<String> {
        s.list_history(&HistoryQuery::default())
            .unwrap()
            .entries
            .into_iter()
            .map(|e| e.id)
            .collect()
    };
    assert_eq!(ids(&s), ["naive", "zulu"], "naive read as UTC: 08:00Z");
    let plus1 = chrono::FixedOffset::east_opt(3600).unwrap();
    let local = OrchestratorStore::new(store, clock(GOLDEN_NOW)).with_naive_offset(plus1);
    assert_eq!(ids(&local), ["zulu", "naive"], "naive at +01:00 is 07:00Z");
    let page = local.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!(page.entries[1].created.to_rfc3339(), "2025-12-24T07:00:00Z");
}

#[test]
fn concurrent_auto_saves_lose_no_update() {
    let store = MemoryStore::new();
    let s = OrchestratorStore::new(store.clone(), clock(GOLDEN_NOW));
    let mut doc = with_status(SessionStatus::InProgress);
    s.save(&mut doc).unwrap();
    std::thread::scope(|scope| {
        for t in 0..4 {
            let store = store.clone();
            scope.spawn(move || {
                let s = OrchestratorStore::new(store, clock(GOLDEN_NOW));
                for i in 0..25 {
                    s.record_decision(&DecisionInput {
                        decision: format!("d{t}-{i}"),
                        why: Some("r".into()),
                    })
                    .unwrap();
                }
            });
        }
    });
    assert_eq!(s.load().unwrap().unwrap().decisions_made.len(), 1 + 100);
}

#[test]
fn racing_final_moves_have_one_winner() {
    let store = MemoryStore::new();
    let s = OrchestratorStore::new(store.clone(), clock(GOLDEN_NOW));
    let mut doc = with_status(SessionStatus::InProgress);
    s.save(&mut doc).unwrap();
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|i| {
                let store = store.clone();
                scope.spawn(move || {
                    let s = OrchestratorStore::new(store, clock(GOLDEN_NOW));
                    if i % 2 == 0 { s.complete() } else { s.abort() }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let wins = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(wins, 1, "{results:?}");
    for r in results.iter().filter_map(|r| r.as_ref().err()) {
        assert!(
            matches!(
                r.kind(),
                ErrorKind::InvalidTransition | ErrorKind::NotFound | ErrorKind::Conflict
            ),
            "{r}"
        );
    }
}

#[test]
fn concurrent_auto_saves_on_the_fs_store_lose_no_update() {
    let dir = tempfile::tempdir().unwrap();
    let s = OrchestratorStore::new(
        session_state_fs::FsStore::new(dir.path()).unwrap(),
        clock(GOLDEN_NOW),
    );
    let mut doc = with_status(SessionStatus::InProgress);
    s.save(&mut doc).unwrap();
    std::thread::scope(|scope| {
        for t in 0..4 {
            let root = dir.path().to_path_buf();
            scope.spawn(move || {
                // A separate store handle per thread, as separate processes would have.
                let store = session_state_fs::FsStore::new(root).unwrap();
                let s = OrchestratorStore::new(store, clock(GOLDEN_NOW));
                for i in 0..10 {
                    s.record_decision(&DecisionInput {
                        decision: format!("d{t}-{i}"),
                        why: Some("r".into()),
                    })
                    .unwrap();
                }
            });
        }
    });
    assert_eq!(s.load().unwrap().unwrap().decisions_made.len(), 1 + 40);
}
