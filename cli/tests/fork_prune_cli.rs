//! `fork`, `history --tree`, `prune` (history, registry, team) and the staleness lines of
//! `resume`, through the real binary, with the files checked before and after.

mod common;

use std::path::Path;

use common::{CURRENT, code, current, ok, ok_as, run, stderr, stdout, tree};
use serde_json::{Value, json};

const HISTORY: &str = ".claude/orchestrator-history";

fn write(root: &Path, rel: &str, value: &Value) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(value).unwrap()).unwrap();
}

/// A schema "1.0" session `id` created and last updated at `when`.
fn session(id: &str, status: &str, when: &str) -> Value {
    json!({
        "schema_version": "1.0",
        "session_id": id,
        "created": when,
        "updated": when,
        "project": {"name": "p", "path": "/p", "git_branch": "main"},
        "goal": format!("goal of {id}"),
        "mode": "default",
        "status": status,
        "agents": [],
        "completed_work": [],
        "pending_tasks": [],
        "decisions_made": [],
        "context_usage": {"estimated_tokens": 0, "percentage": 0, "last_compression": null},
        "errors": []
    })
}

fn archive(root: &Path, id: &str, status: &str, when: &str) {
    write(
        root,
        &format!("{HISTORY}/{id}.json"),
        &session(id, status, when),
    );
}

#[test]
fn fork_the_current_session_then_an_archived_one() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    ok(root, &["new", "--goal", "ship", "--id", "2026-01-01-aaa"]);
    ok(
        root,
        &["agent", "start", "code-1", "--type", "code", "--task", "x"],
    );
    ok(root, &["decision", "use serde", "--why", "less code"]);
    let original = std::fs::read(root.join(CURRENT)).unwrap();

    let out = ok(root, &["fork", "--id", "2026-01-02-bbb"]);
    assert_eq!(
        out,
        "session `2026-01-02-bbb` (created): forked from `2026-01-01-aaa`\n"
    );
    // The original is archived byte for byte, status kept.
    let archived = std::fs::read(root.join(HISTORY).join("2026-01-01-aaa.json")).unwrap();
    assert_eq!(archived, original);
    let doc = current(root);
    assert_eq!(doc["session_id"], "2026-01-02-bbb");
    assert_eq!(doc["status"], "created");
    assert_eq!(doc["goal"], "ship");
    assert_eq!(doc["agents"][0]["id"], "code-1");
    assert_eq!(doc["decisions_made"][0]["decision"], "use serde");
    assert_eq!(doc["forked_from"]["session_id"], "2026-01-01-aaa");
    assert!(doc["forked_from"]["at"].is_string());

    // An archived one while another is current: refused, nothing changes.
    let before = tree(root);
    let out = run(root, &["fork", "2026-01-01-aaa", "--id", "2026-01-03-ccc"]);
    assert_eq!(code(&out), 3);
    assert!(
        stderr(&out).contains("error[already_exists]"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("--archive-current"),
        "{}",
        stderr(&out)
    );
    assert_eq!(tree(root), before);
    let out = run(root, &["fork", "2026-01-01-nope"]);
    assert_eq!(code(&out), 1);
    assert_eq!(tree(root), before);

    ok(
        root,
        &[
            "fork",
            "2026-01-01-aaa",
            "--id",
            "2026-01-03-ccc",
            "--archive-current",
        ],
    );
    let bbb: Value = serde_json::from_slice(
        &std::fs::read(root.join(HISTORY).join("2026-01-02-bbb.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(bbb["status"], "created");
    assert_eq!(current(root)["forked_from"]["session_id"], "2026-01-01-aaa");
    assert_eq!(
        std::fs::read(root.join(HISTORY).join("2026-01-01-aaa.json")).unwrap(),
        original,
        "the forked archive is never modified"
    );

    // The tree: both forks under the original, the current one marked.
    let text = ok(root, &["history", "--tree"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].contains("2026-01-01-aaa") && !lines[0].starts_with(' '),
        "{text}"
    );
    assert!(
        lines[1].starts_with("  ") && lines[1].contains("2026-01-03-ccc"),
        "{text}"
    );
    assert!(lines[1].ends_with("(current)"), "{text}");
    assert!(
        lines[2].starts_with("  ") && lines[2].contains("2026-01-02-bbb"),
        "{text}"
    );
    let json: Value = serde_json::from_str(&ok(root, &["history", "--tree", "--json"])).unwrap();
    let rows: Vec<(u64, &str)> = json["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["depth"].as_u64().unwrap(), e["id"].as_str().unwrap()))
        .collect();
    assert_eq!(
        rows,
        [
            (0, "2026-01-01-aaa"),
            (1, "2026-01-03-ccc"),
            (1, "2026-01-02-bbb")
        ]
    );
    let out = run(root, &["history", "--tree", "--limit", "2"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn history_prune_dry_run_changes_nothing_and_apply_updates_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    archive(root, "2020-01-01-old1", "complete", "2020-01-01T00:00:00Z");
    archive(root, "2020-01-02-old2", "aborted", "2020-01-02T00:00:00Z");
    archive(root, "2020-01-03-old3", "complete", "2020-01-03T00:00:00Z");
    archive(root, "2099-01-01-new1", "complete", "2099-01-01T00:00:00Z");
    ok(root, &["history"]); // builds the index
    let before = tree(root);

    let out = ok(root, &["prune", "--older-than", "30"]);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "would remove session `2020-01-03-old3` (.claude/orchestrator-history/2020-01-03-old3.json): updated 2020 days ago",
            "would remove session `2020-01-02-old2` (.claude/orchestrator-history/2020-01-02-old2.json): updated 2021 days ago",
            "would remove session `2020-01-01-old1` (.claude/orchestrator-history/2020-01-01-old1.json): updated 2022 days ago",
            "3 to remove (dry run: nothing changed; `--apply` removes them)",
        ]
        .map(|l| l.replace("2020 days", &days("2020-01-03")).replace("2021 days", &days("2020-01-02")).replace("2022 days", &days("2020-01-01"))),
    );
    assert_eq!(tree(root), before, "a dry run changes nothing");

    let plan: Value = serde_json::from_str(&ok(
        root,
        &[
            "prune", "--status", "aborted", "--keep", "0", "--apply", "--json",
        ],
    ))
    .unwrap();
    assert_eq!(plan["applied"], true);
    assert_eq!(plan["removed"][0]["id"], "2020-01-02-old2");
    assert_eq!(plan["removed"].as_array().unwrap().len(), 1);
    assert!(!root.join(HISTORY).join("2020-01-02-old2.json").exists());
    let index =
        std::fs::read_to_string(root.join(".claude/orchestrator-history.index.json")).unwrap();
    assert!(!index.contains("old2") && index.contains("old1"), "{index}");

    let out = ok(root, &["prune", "--keep", "1", "--apply"]);
    assert!(out.ends_with("2 removed\n"), "{out}");
    let page: Value = serde_json::from_str(&ok(root, &["history", "--json"])).unwrap();
    assert_eq!(page["total"], 1);
    assert_eq!(page["entries"][0]["id"], "2099-01-01-new1");

    // No criterion, or two kinds at once: usage errors, nothing changed.
    let before = tree(root);
    for args in [
        &["prune"][..],
        &["prune", "--registry"],
        &["prune", "--registry", "--keep", "1", "--older-than", "1"],
    ] {
        let out = run(root, args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
    }
    assert_eq!(tree(root), before);
}

/// `N days` from `date` (YYYY-MM-DD) to today, as the prune counts them.
fn days(date: &str) -> String {
    let then = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap();
    let now = chrono::Utc::now().date_naive();
    format!("{} days", (now - then).num_days())
}

#[test]
fn history_prune_keeps_what_the_current_session_was_forked_from() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    archive(root, "2020-01-01-root", "complete", "2020-01-01T00:00:00Z");
    archive(root, "2020-01-02-other", "complete", "2020-01-02T00:00:00Z");
    ok(root, &["fork", "2020-01-01-root", "--id", "2026-01-01-kid"]);
    let out = ok(root, &["prune", "--keep", "0", "--apply"]);
    assert!(
        out.contains("keeping session `2020-01-01-root`: the current session was forked from it"),
        "{out}"
    );
    assert!(root.join(HISTORY).join("2020-01-01-root.json").exists());
    assert!(!root.join(HISTORY).join("2020-01-02-other.json").exists());
}

#[test]
fn history_prune_keeps_what_a_live_session_claims_and_frees_it_once_stale() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    archive(
        root,
        "2020-01-01-claimed",
        "complete",
        "2020-01-01T00:00:00Z",
    );
    archive(root, "2020-01-02-other", "complete", "2020-01-02T00:00:00Z");
    ok_as(root, "orch-1", &["claim", "--scope", "2020-01-01-claimed"]);
    let out = ok(root, &["prune", "--keep", "0", "--apply"]);
    assert!(
        out.contains("keeping session `2020-01-01-claimed`: a live session claims it"),
        "{out}"
    );
    assert!(root.join(HISTORY).join("2020-01-01-claimed.json").exists());
    assert!(!root.join(HISTORY).join("2020-01-02-other.json").exists());
    // Once its holder is stale, the claim no longer protects it.
    let live = root.join(".claude/live/orch-1.json");
    let mut entry: Value = serde_json::from_slice(&std::fs::read(&live).unwrap()).unwrap();
    entry["heartbeat"] = json!("2020-01-01T00:00:00Z");
    std::fs::write(&live, entry.to_string()).unwrap();
    let out = ok(root, &["prune", "--keep", "0", "--apply"]);
    assert!(
        out.contains("removed session `2020-01-01-claimed`"),
        "{out}"
    );
    assert!(!root.join(HISTORY).join("2020-01-01-claimed.json").exists());
}

#[test]
fn registry_prune_removes_whole_agents_and_keeps_the_current_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let registry = json!({
        "sessions": {"old": "o1", "mine": "code-1", "new": "n1"},
        "chains": {"c-old": ["o1"], "c-mix": ["o1", "n1"]},
        "metadata": {
            "o1": {"agent_name": "old", "created_at": "2020-01-01T00:00:00", "chain_id": "c-old", "resume_count": 0},
            "code-1": {"agent_name": "mine", "created_at": "2020-01-01T00:00:00", "chain_id": null, "resume_count": 0},
            "n1": {"agent_name": "new", "created_at": "2099-01-01T00:00:00", "chain_id": "c-mix", "resume_count": 0}
        },
        "last_updated": "2099-01-01T00:00:00",
        "results": {"o1": {"agent_name": "old", "result": "done", "timestamp": "2020-01-01T00:00:00", "chain_id": "c-old"}}
    });
    write(root, ".moai/memory/agent-sessions.json", &registry);
    ok(root, &["new", "--goal", "g", "--id", "2026-01-01-cur"]);
    ok(
        root,
        &["agent", "start", "code-1", "--type", "code", "--task", "x"],
    );
    let before = tree(root);
    let out = ok(root, &["prune", "--registry", "--older-than", "30"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with(
            "would remove agent `o1` (metadata, results, chains/c-old, chains/c-mix, sessions/old): last active"
        ),
        "{out}"
    );
    assert_eq!(
        lines[1],
        "would remove chain `c-old` (chains/c-old): every agent of it goes"
    );
    assert_eq!(
        lines[2],
        "keeping agent `code-1`: an agent of the current session"
    );
    assert_eq!(tree(root), before, "a dry run changes nothing");

    ok(
        root,
        &["prune", "--registry", "--older-than", "30", "--apply"],
    );
    let after: Value = serde_json::from_slice(
        &std::fs::read(root.join(".moai/memory/agent-sessions.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(after["sessions"], json!({"mine": "code-1", "new": "n1"}));
    assert_eq!(after["chains"], json!({"c-mix": ["n1"]}));
    assert!(after["metadata"].get("o1").is_none());
    assert!(after["metadata"].get("code-1").is_some());
    assert!(after.get("results").is_none_or(|r| r.get("o1").is_none()));
}

#[test]
fn registry_prune_keeps_the_agents_of_a_chain_a_live_session_claims() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    let registry = json!({
        "sessions": {"a": "a1", "b": "b1"},
        "chains": {"c-claimed": ["a1"], "c-free": ["b1"]},
        "metadata": {
            "a1": {"agent_name": "a", "created_at": "2020-01-01T00:00:00", "chain_id": "c-claimed", "resume_count": 0},
            "b1": {"agent_name": "b", "created_at": "2020-01-01T00:00:00", "chain_id": "c-free", "resume_count": 0}
        },
        "last_updated": "2020-01-01T00:00:00",
        "results": {}
    });
    write(root, ".moai/memory/agent-sessions.json", &registry);
    ok_as(root, "orch-1", &["claim", "--scope", "c-claimed"]);
    let out = ok(
        root,
        &["prune", "--registry", "--older-than", "30", "--apply"],
    );
    assert!(
        out.contains("keeping agent `a1`: a live session claims it or its chain"),
        "{out}"
    );
    let after: Value = serde_json::from_slice(
        &std::fs::read(root.join(".moai/memory/agent-sessions.json")).unwrap(),
    )
    .unwrap();
    assert!(after["metadata"].get("a1").is_some());
    assert!(after["metadata"].get("b1").is_none());
    assert_eq!(after["chains"], json!({"c-claimed": ["a1"]}));
}

#[test]
fn team_prune_removes_old_member_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let member = |name: &str, at: &str| json!({"name": name, "backendType": "claude-code", "prompt": "p", "createdAt": at});
    write(
        root,
        "teams/t/sessions/old.json",
        &member("old", "2020-01-01T00:00:00Z"),
    );
    write(
        root,
        "teams/t/sessions/new.json",
        &member("new", "2099-01-01T00:00:00Z"),
    );
    let before = tree(root);
    let out = ok(root, &["prune", "--team", "t", "--older-than", "30"]);
    assert!(
        out.starts_with("would remove team member `old` (teams/t/sessions/old.json): created "),
        "{out}"
    );
    assert_eq!(tree(root), before);
    ok(
        root,
        &["prune", "--team", "t", "--older-than", "30", "--apply"],
    );
    assert!(!root.join("teams/t/sessions/old.json").exists());
    assert!(root.join("teams/t/sessions/new.json").exists());
    let out = run(root, &["prune", "--team", "nope", "--older-than", "1"]);
    assert_eq!(code(&out), 1);
}

fn set_head(root: &Path, commit: &str) {
    std::fs::create_dir_all(root.join(".git/refs/heads")).unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(root.join(".git/refs/heads/main"), format!("{commit}\n")).unwrap();
}

#[test]
fn saves_record_the_head_and_resume_says_what_moved() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let first = "a".repeat(40);
    let second = "b".repeat(40);
    set_head(root, &first);
    ok(root, &["new", "--goal", "g", "--id", "2026-01-01-aaa"]);
    ok(
        root,
        &["agent", "start", "code-1", "--type", "code", "--task", "x"],
    );
    assert_eq!(
        current(root)["project"]["git_head"],
        json!({"commit": first, "branch": "main"})
    );
    let fresh = ok(root, &["resume"]);
    assert!(!fresh.contains("⚠️"), "{fresh}");
    let json: Value = serde_json::from_str(&ok(root, &["resume", "--json"])).unwrap();
    assert!(json.get("stale").is_none(), "{json}");

    set_head(root, &second);
    let before = tree(root);
    let moved = ok(root, &["resume"]);
    assert!(
        moved.contains("⚠️ HEAD moved from `aaaaaaa` to `bbbbbbb` since the last save\n"),
        "{moved}"
    );
    assert_eq!(tree(root), before, "resume writes nothing");
    let json: Value = serde_json::from_str(&ok(root, &["resume", "--json"])).unwrap();
    assert_eq!(
        json["stale"]["head_moved"]["saved"]["commit"],
        first.as_str()
    );
    assert_eq!(
        json["stale"]["head_moved"]["now"]["commit"],
        second.as_str()
    );

    // A save records the new HEAD: nothing moved any more.
    ok(root, &["save"]);
    assert_eq!(
        current(root)["project"]["git_head"]["commit"],
        second.as_str()
    );
    assert!(!ok(root, &["resume"]).contains("⚠️"));

    // Last saved long ago: a line, unless the limit is higher.
    let mut doc = current(root);
    doc["updated"] = json!("2020-01-01T00:00:00Z");
    write(root, CURRENT, &doc);
    let old = ok(root, &["resume"]);
    assert!(
        old.contains("⚠️ Last saved ") && old.contains("(more than 24 hours ago)"),
        "{old}"
    );
    let json: Value = serde_json::from_str(&ok(root, &["resume", "--json"])).unwrap();
    assert_eq!(json["stale"]["idle"]["limit_hours"], 24);
    let out = run(root, &["resume", "--stale-after", "10000000"]);
    assert!(!stdout(&out).contains("⚠️"));
}
