//! Fork with lineage, the history prune, and the git HEAD recorded at each save with the
//! staleness notes of the resume summary.

use serde_json::{Value, json};
use session_state::orchestrator::{
    CURRENT_KEY, DecisionInput, ForkOptions, ForkedFrom, GitHead, HistoryQuery, NewSession,
    OrchestratorSession, OrchestratorStore, Project, PruneHistoryOptions, ResumeOptions,
    SessionStatus, current_key, history_key, index_key, render_resume, resume_summary,
    resume_summary_with,
};
use session_state::retention::PruneKind;
use session_state::{ErrorKind, FixedClock, Hint, Key, MemoryStore, Store};

fn at<'a>(store: &'a MemoryStore, now: &str) -> OrchestratorStore<&'a MemoryStore, FixedClock> {
    OrchestratorStore::new(store, FixedClock::at(now).unwrap())
}

fn project() -> Project {
    Project::new("p", "/p", Some("main"))
}

fn new_session(
    s: &OrchestratorStore<&MemoryStore, FixedClock>,
    suffix: &str,
) -> OrchestratorSession {
    let doc = s
        .record_new(
            &NewSession {
                goal: "ship it".into(),
                ..NewSession::default()
            },
            project(),
            Some(suffix),
        )
        .unwrap();
    s.start().unwrap();
    s.record_decision(&DecisionInput {
        decision: "use serde".into(),
        why: Some("less code".into()),
    })
    .unwrap();
    doc
}

fn snapshot(store: &MemoryStore) -> Vec<(String, Vec<u8>)> {
    let mut all = Vec::new();
    for key in store.list(&Key::new(".claude").unwrap()).unwrap() {
        let bytes = store.read(&key).unwrap().unwrap();
        all.push((key.to_string(), bytes));
    }
    all
}

fn fork(id: Option<&str>, new_id: &str, archive_current: bool) -> ForkOptions {
    ForkOptions {
        session_id: id.map(str::to_owned),
        new_id: Some(new_id.to_owned()),
        suffix: None,
        archive_current,
    }
}

#[test]
fn forking_the_current_session_archives_it_unchanged_and_copies_it() {
    let store = MemoryStore::new();
    let s = at(&store, "2026-01-01T10:00:00Z");
    new_session(&s, "aaa111");
    let before = store.read(&current_key()).unwrap().unwrap();
    let s2 = at(&store, "2026-01-02T10:00:00Z");
    let doc = s2.fork(&fork(None, "2026-01-02-bbb222", false)).unwrap();
    // The original, byte for byte, is the archive; its status is kept.
    let archived = store
        .read(&history_key("2026-01-01-aaa111").unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(archived, before);
    // The copy: new id, status created, same goal/agents/work/decisions/tasks, its origin.
    assert_eq!(doc.session_id, "2026-01-02-bbb222");
    assert_eq!(doc.status, SessionStatus::Created);
    assert_eq!(doc.goal, "ship it");
    assert_eq!(doc.decisions_made.len(), 1);
    assert_eq!(doc.created.to_rfc3339(), "2026-01-02T10:00:00Z");
    let from = ForkedFrom::of(&doc).unwrap();
    assert_eq!(from.session_id, "2026-01-01-aaa111");
    assert_eq!(from.at.unwrap().to_rfc3339(), "2026-01-02T10:00:00Z");
    let text: Value =
        serde_json::from_slice(&store.read(&current_key()).unwrap().unwrap()).unwrap();
    assert_eq!(text["schema_version"], "1.0");
    assert_eq!(
        text["forked_from"],
        json!({"session_id": "2026-01-01-aaa111", "at": "2026-01-02T10:00:00Z"})
    );
    assert_eq!(s2.load().unwrap().unwrap(), doc);
    // The archive is listed, with its status kept.
    let page = s2.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!(page.entries[0].id, "2026-01-01-aaa111");
    assert_eq!(page.entries[0].status, SessionStatus::InProgress);
}

#[test]
fn forking_an_archived_session_while_another_is_current() {
    let store = MemoryStore::new();
    let s = at(&store, "2026-01-01T10:00:00Z");
    new_session(&s, "aaa111");
    s.complete().unwrap();
    new_session(&s, "ccc333");
    let before = snapshot(&store);
    let err = s
        .fork(&fork(Some("2026-01-01-aaa111"), "2026-01-01-ddd444", false))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AlreadyExists);
    assert_eq!(err.hint(), Some(Hint::ArchiveCurrent));
    assert_eq!(snapshot(&store), before, "a refused fork writes nothing");
    let doc = s
        .fork(&fork(Some("2026-01-01-aaa111"), "2026-01-01-ddd444", true))
        .unwrap();
    assert_eq!(
        ForkedFrom::of(&doc).unwrap().session_id,
        "2026-01-01-aaa111"
    );
    // The current one was archived as it is; the forked archive is untouched.
    let ccc = s
        .read_document(&history_key("2026-01-01-ccc333").unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(ccc.status, SessionStatus::InProgress);
    let aaa = s
        .read_document(&history_key("2026-01-01-aaa111").unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(aaa.status, SessionStatus::Complete);
    assert!(ForkedFrom::of(&aaa).is_none());
}

#[test]
fn fork_refusals_write_nothing() {
    let store = MemoryStore::new();
    let s = at(&store, "2026-01-01T10:00:00Z");
    assert_eq!(
        s.fork(&ForkOptions::default()).unwrap_err().kind(),
        ErrorKind::NotFound
    );
    new_session(&s, "aaa111");
    let before = snapshot(&store);
    for (options, kind) in [
        (
            fork(Some("2026-01-01-nope"), "x1", true),
            ErrorKind::NotFound,
        ),
        (
            fork(None, "2026-01-01-aaa111", false),
            ErrorKind::AlreadyExists,
        ),
        (fork(None, "../x", false), ErrorKind::InvalidKey),
        (fork(Some("a/b"), "x2", false), ErrorKind::InvalidKey),
    ] {
        assert_eq!(s.fork(&options).unwrap_err().kind(), kind, "{options:?}");
        assert_eq!(snapshot(&store), before, "{options:?}");
    }
    // An archive of the current session's id is in the way: nothing moves.
    store
        .write(&history_key("2026-01-01-aaa111").unwrap(), b"{}")
        .unwrap();
    let before = snapshot(&store);
    let err = s.fork(&fork(None, "2026-01-01-new", false)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AlreadyExists);
    assert_eq!(snapshot(&store), before);
}

#[test]
fn lineage_puts_each_session_under_its_origin() {
    let store = MemoryStore::new();
    let s = at(&store, "2026-01-01T10:00:00Z");
    new_session(&s, "root01");
    at(&store, "2026-01-02T10:00:00Z")
        .fork(&fork(None, "2026-01-02-kid001", false))
        .unwrap();
    at(&store, "2026-01-03T10:00:00Z")
        .fork(&fork(Some("2026-01-01-root01"), "2026-01-03-kid002", true))
        .unwrap();
    at(&store, "2026-01-04T10:00:00Z")
        .fork(&fork(None, "2026-01-04-grand1", false))
        .unwrap();
    // Another root, unrelated, newest of all.
    let other = at(&store, "2026-01-05T10:00:00Z");
    other
        .fork(&fork(Some("2026-01-02-kid001"), "2026-01-05-kid003", true))
        .unwrap();
    let lineage = other.history_tree().unwrap();
    let rows: Vec<(usize, &str, bool)> = lineage
        .entries
        .iter()
        .map(|e| (e.depth, e.id.as_str(), e.current))
        .collect();
    assert_eq!(
        rows,
        [
            (0, "2026-01-01-root01", false),
            (1, "2026-01-03-kid002", false),
            (2, "2026-01-04-grand1", false),
            (1, "2026-01-02-kid001", false),
            (2, "2026-01-05-kid003", true),
        ]
    );
    // The index holds the origins; without it the files give the same tree.
    store.delete(&index_key()).unwrap();
    store.write(&index_key(), b"not json").unwrap();
    assert_eq!(other.history_tree().unwrap().entries, lineage.entries);
}

#[test]
fn lineage_survives_a_cycle_and_a_missing_origin() {
    let store = MemoryStore::new();
    let s = at(&store, "2026-01-01T10:00:00Z");
    for (id, from) in [("a", "b"), ("b", "a"), ("c", "gone")] {
        let mut doc = OrchestratorSession::new(
            format!("2026-01-01-{id}"),
            "g",
            "default",
            project(),
            s.now(),
        );
        doc.extra.insert(
            "forked_from".into(),
            json!({"session_id": format!("2026-01-01-{from}"), "at": "bad"}),
        );
        s.archive(&doc, false).unwrap();
    }
    let lineage = s.history_tree().unwrap();
    assert_eq!(lineage.entries.len(), 3);
    let c = lineage
        .entries
        .iter()
        .find(|e| e.id == "2026-01-01-c")
        .unwrap();
    assert_eq!(
        (c.depth, c.forked_from.as_deref()),
        (0, Some("2026-01-01-gone"))
    );
}

/// Archives sessions `2026-01-0{day}-s{day}` created and updated on that day, with `status`.
fn archive_days(store: &MemoryStore, days: &[(u32, SessionStatus)]) {
    for &(day, status) in days {
        let s = at(store, &format!("2026-01-0{day}T10:00:00Z"));
        let mut doc = OrchestratorSession::new(
            format!("2026-01-0{day}-s{day}"),
            "g",
            "default",
            project(),
            s.now(),
        );
        doc.status = status;
        s.archive(&doc, false).unwrap();
    }
}

fn ids(plan: &session_state::retention::PrunePlan) -> Vec<&str> {
    plan.removed.iter().map(|r| r.id.as_str()).collect()
}

#[test]
fn history_prune_is_a_dry_run_until_applied() {
    use SessionStatus::{Aborted, Complete};
    let store = MemoryStore::new();
    archive_days(
        &store,
        &[
            (1, Complete),
            (2, Aborted),
            (3, Complete),
            (4, Aborted),
            (5, Complete),
        ],
    );
    let s = at(&store, "2026-01-09T10:00:00Z");
    s.list_history(&HistoryQuery::default()).unwrap();
    let before = snapshot(&store);
    let keep2 = PruneHistoryOptions {
        keep: Some(2),
        ..PruneHistoryOptions::default()
    };
    let plan = s.prune_history(&keep2).unwrap();
    assert!(!plan.applied);
    assert_eq!(
        ids(&plan),
        ["2026-01-03-s3", "2026-01-02-s2", "2026-01-01-s1"]
    );
    assert_eq!(
        plan.removed[0].removes,
        [".claude/orchestrator-history/2026-01-03-s3.json"]
    );
    assert_eq!(snapshot(&store), before, "a dry run changes nothing");
    // Age by `updated`, and status, combined.
    let old_aborted = PruneHistoryOptions {
        older_than_days: Some(6),
        status: Some(Aborted),
        ..PruneHistoryOptions::default()
    };
    let plan = s.prune_history(&old_aborted).unwrap();
    assert_eq!(ids(&plan), ["2026-01-02-s2"]);
    assert_eq!(plan.removed[0].reason, "status aborted, updated 7 days ago");
    // Applied: files and index records go together.
    let plan = s
        .prune_history(&PruneHistoryOptions {
            apply: true,
            ..keep2
        })
        .unwrap();
    assert!(plan.applied);
    assert_eq!(plan.removed.len(), 3);
    let page = s.list_history(&HistoryQuery::default()).unwrap();
    let left: Vec<&str> = page.entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(left, ["2026-01-05-s5", "2026-01-04-s4"]);
    let index = String::from_utf8(store.read(&index_key()).unwrap().unwrap()).unwrap();
    assert!(!index.contains("s3"), "{index}");
    assert_eq!(
        s.list_history_full_scan(&HistoryQuery::default()).unwrap(),
        page
    );
    let err = s
        .prune_history(&PruneHistoryOptions::default())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
}

#[test]
fn history_prune_keeps_the_origin_of_the_current_session_and_unreadable_files() {
    use SessionStatus::Complete;
    let store = MemoryStore::new();
    archive_days(&store, &[(1, Complete), (2, Complete)]);
    store
        .write(
            &Key::new(".claude/orchestrator-history/torn.json").unwrap(),
            b"{\"schema_version\": \"1.0\", \"sess",
        )
        .unwrap();
    let s = at(&store, "2026-01-09T10:00:00Z");
    s.fork(&fork(Some("2026-01-01-s1"), "2026-01-09-kid", false))
        .unwrap();
    let plan = s
        .prune_history(&PruneHistoryOptions {
            keep: Some(0),
            apply: true,
            ..PruneHistoryOptions::default()
        })
        .unwrap();
    assert_eq!(ids(&plan), ["2026-01-02-s2"]);
    assert_eq!(plan.kept.len(), 1);
    assert_eq!(plan.kept[0].id, "2026-01-01-s1");
    assert_eq!(plan.kept[0].kind, PruneKind::Session);
    assert!(
        store
            .read(&Key::new(".claude/orchestrator-history/torn.json").unwrap())
            .unwrap()
            .is_some()
    );
    assert!(
        store
            .read(&Key::new(CURRENT_KEY).unwrap())
            .unwrap()
            .is_some()
    );
}

fn head(commit: &str, branch: &str) -> GitHead {
    GitHead {
        commit: Some(commit.into()),
        branch: Some(branch.into()),
    }
}

#[test]
fn each_save_records_the_head_and_resume_says_what_moved() {
    let store = MemoryStore::new();
    let s = at(&store, "2026-01-01T10:00:00Z").with_git_head(head("abc1234aaaa", "main"));
    s.record_new(
        &NewSession {
            goal: "g".into(),
            ..NewSession::default()
        },
        project(),
        Some("abc123"),
    )
    .unwrap();
    let doc = s.start().unwrap();
    assert_eq!(GitHead::of(&doc), Some(head("abc1234aaaa", "main")));
    let text: Value =
        serde_json::from_slice(&store.read(&current_key()).unwrap().unwrap()).unwrap();
    assert_eq!(
        text["project"]["git_head"],
        json!({"commit": "abc1234aaaa", "branch": "main"})
    );
    // A later save records the later HEAD.
    let s2 = at(&store, "2026-01-01T11:00:00Z").with_git_head(head("def5678bbbb", "main"));
    let doc = s2
        .record_decision(&DecisionInput {
            decision: "d".into(),
            why: Some("r".into()),
        })
        .unwrap();
    assert_eq!(GitHead::of(&doc), Some(head("def5678bbbb", "main")));
    // A handle that knows no HEAD leaves the recorded one.
    let plain = at(&store, "2026-01-01T12:00:00Z");
    let doc = plain.record_save().unwrap();
    assert_eq!(GitHead::of(&doc), Some(head("def5678bbbb", "main")));
    // Resumed two days later on another commit.
    let now = FixedClock::at("2026-01-03T12:00:01Z").unwrap().0;
    let options = ResumeOptions {
        stale_after_hours: None,
        git_head: Some(head("0123456cccc", "main")),
    };
    let summary = resume_summary_with(&doc, now, &options);
    assert_eq!(summary.stale.idle.as_ref().unwrap().limit_hours, 24);
    let md = render_resume(&summary);
    assert!(
        md.contains("⚠️ Last saved 2 days ago (more than 24 hours ago)\n"),
        "{md}"
    );
    assert!(
        md.contains("⚠️ HEAD moved from `def5678` to `0123456` since the last save\n"),
        "{md}"
    );
    let json = serde_json::to_value(&summary).unwrap();
    assert_eq!(
        json["stale"]["head_moved"]["saved"]["commit"],
        "def5678bbbb"
    );
    assert_eq!(json["stale"]["head_moved"]["commit_changed"], true);
    // Fresh and on the same HEAD: no line, and the plain summary has none either.
    let fresh = FixedClock::at("2026-01-01T13:00:00Z").unwrap().0;
    let same = ResumeOptions {
        stale_after_hours: Some(24),
        git_head: Some(head("def5678bbbb", "main")),
    };
    assert!(resume_summary_with(&doc, fresh, &same).stale.is_empty());
    assert_eq!(
        render_resume(&resume_summary(&doc, now)),
        render_resume(&resume_summary_with(
            &doc,
            now,
            &ResumeOptions {
                stale_after_hours: Some(u64::MAX),
                git_head: None,
            }
        ))
    );
}

/// A clock one second further on at every reading.
#[derive(Clone, Debug)]
struct Ticking(std::sync::Arc<std::sync::atomic::AtomicI64>);

impl session_state::Clock for Ticking {
    fn now(&self) -> chrono::DateTime<chrono::Utc> {
        let n = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        chrono::DateTime::from_timestamp(1_800_000_000 + n, 0).unwrap()
    }
}

/// A store that, at its first `update`, lets `first` run before the caller's update goes on,
/// as a process that took the lock first.
struct Overtaken<'a> {
    store: &'a MemoryStore,
    first: std::cell::RefCell<Option<Box<dyn FnOnce() + 'a>>>,
}

impl Store for Overtaken<'_> {
    fn read(&self, key: &Key) -> session_state::Result<Option<Vec<u8>>> {
        self.store.read(key)
    }
    fn write(&self, key: &Key, data: &[u8]) -> session_state::Result<()> {
        self.store.write(key, data)
    }
    fn delete(&self, key: &Key) -> session_state::Result<bool> {
        self.store.delete(key)
    }
    fn list(&self, prefix: &Key) -> session_state::Result<Vec<Key>> {
        self.store.list(prefix)
    }
    fn update(
        &self,
        key: &Key,
        apply: &mut session_state::UpdateFn<'_>,
    ) -> session_state::Result<()> {
        let first = self.first.borrow_mut().take();
        if let Some(first) = first {
            first();
        }
        self.store.update(key, apply)
    }
}

/// Two forks racing: the one that got the lock second forks the first one's copy, and is
/// created after it (the instant is taken under the lock).
#[test]
fn a_fork_that_waited_for_the_lock_is_created_after_the_fork_it_copies() {
    let store = MemoryStore::new();
    let clock = Ticking(std::sync::Arc::new(std::sync::atomic::AtomicI64::new(0)));
    let base = OrchestratorStore::new(&store, clock.clone());
    base.record_new(
        &NewSession {
            goal: "g".into(),
            ..NewSession::default()
        },
        project(),
        Some("base"),
    )
    .unwrap();
    let fork = |id: &str| ForkOptions {
        new_id: Some(id.into()),
        ..ForkOptions::default()
    };
    let other = OrchestratorStore::new(&store, clock.clone());
    let overtaken = Overtaken {
        store: &store,
        first: std::cell::RefCell::new(Some(Box::new(|| {
            other.fork(&fork("fk-first")).unwrap();
        }))),
    };
    let late = OrchestratorStore::new(&overtaken, clock)
        .fork(&fork("fk-second"))
        .unwrap();
    let first: OrchestratorSession = serde_json::from_slice(
        &store
            .read(&history_key("fk-first").unwrap())
            .unwrap()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(ForkedFrom::of(&late).unwrap().session_id, "fk-first");
    assert!(
        late.created.utc() > first.created.utc(),
        "{} after {}",
        late.created,
        first.created
    );
}
