//! The recording verbs through the real binary: the skill's whole flow with the CLI alone,
//! the lifecycle rules, errors and their exit codes, and two processes recording at once.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod common;
use common::{current, ok, run};

/// Runs `args`, expects exit `code` and returns stderr.
fn fails(root: &Path, args: &[&str], code: i32) -> String {
    let out = run(root, args);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed {:?}", out.stdout);
    stderr
}

#[test]
#[allow(clippy::too_many_lines)] // one flow, start to history, is the point of the test
fn the_skills_whole_flow_with_the_cli_alone() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("my-project");
    std::fs::create_dir(&root).unwrap();

    // Nothing recorded before `new`: not_found, exit 1, nothing created.
    let err = fails(
        &root,
        &["agent", "start", "a", "--type", "x", "--task", "t"],
        1,
    );
    assert!(err.starts_with("error[not_found]: "), "{err}");
    assert!(!root.join(".claude").exists());

    let line = ok(&root, &["new", "--goal", "Add sensitivity analysis"]);
    let doc = current(&root);
    let id = doc["session_id"].as_str().unwrap().to_owned();
    assert_eq!(line, format!("session `{id}` (created): created\n"));
    // The skill's shape: YYYY-MM-DD-xxxxxx.
    let (date, suffix) = id.rsplit_once('-').unwrap();
    assert_eq!((date.len(), suffix.len()), (10, 6), "{id}");
    assert_eq!(doc["status"], "created");
    assert_eq!(doc["mode"], "default");
    assert_eq!(doc["project"]["name"], "my-project");
    let path = std::fs::canonicalize(&root).unwrap();
    assert_eq!(doc["project"]["path"], path.to_str().unwrap());
    assert_eq!(doc["project"]["git_branch"], Value::Null);

    let line = ok(
        &root,
        &[
            "agent",
            "start",
            "arch-1",
            "--type",
            "arch",
            "--task",
            "Design sensitivity API",
        ],
    );
    assert_eq!(
        line,
        format!("session `{id}` (in_progress): agent `arch-1` started\n")
    );
    ok(
        &root,
        &[
            "agent",
            "start",
            "code-1",
            "--type",
            "code",
            "--task",
            "Implement",
        ],
    );
    ok(&root, &["agent", "progress", "code-1", "60"]);
    ok(
        &root,
        &[
            "agent",
            "done",
            "arch-1",
            "--summary",
            "3 methods proposed",
            "--tokens",
            "1500",
            "--file",
            "R/sensitivity.R",
        ],
    );
    let line = ok(
        &root,
        &["decision", "Use bootstrap", "--why", "Best balance"],
    );
    assert!(line.ends_with(": decision 1 logged\n"), "{line}");
    ok(&root, &["task", "add", "Add unit tests"]);
    let line = ok(&root, &["task", "add", "Update documentation"]);
    assert!(
        line.ends_with(": task 2 added: Update documentation\n"),
        "{line}"
    );
    let line = ok(
        &root,
        &[
            "task",
            "done",
            "1",
            "--outcome",
            "12 tests",
            "--file",
            "tests/a.R",
        ],
    );
    assert!(line.ends_with(": task done: Add unit tests\n"), "{line}");
    let line = ok(
        &root,
        &[
            "context",
            "--tokens",
            "25000",
            "--percent",
            "20",
            "--compressed",
        ],
    );
    assert!(
        line.ends_with(": context ~25,000 tokens (20%), compression recorded\n"),
        "{line}"
    );
    ok(&root, &["save"]);

    let doc = current(&root);
    assert_eq!(doc["agents"][0]["status"], "complete");
    assert_eq!(doc["agents"][0]["result_summary"], "3 methods proposed");
    assert_eq!(doc["agents"][0]["context_tokens"], 1500);
    assert_eq!(doc["agents"][1]["progress"], 60);
    assert_eq!(doc["completed_work"][0]["task"], "Design sensitivity API");
    assert_eq!(doc["completed_work"][0]["outcome"], "3 methods proposed");
    assert_eq!(doc["completed_work"][1]["task"], "Add unit tests");
    assert_eq!(
        doc["pending_tasks"],
        serde_json::json!(["Update documentation"])
    );
    assert_eq!(doc["decisions_made"][0]["rationale"], "Best balance");
    assert_eq!(doc["context_usage"]["percentage"], 20);
    assert!(doc["context_usage"]["last_compression"].is_string());

    let block = ok(&root, &["resume"]);
    assert!(
        block.contains("- ✅ Design sensitivity API (3 methods proposed)"),
        "{block}"
    );
    assert!(block.contains("- 🔄 code-1: Implement (60%)"), "{block}");
    assert!(block.contains("1. Update documentation"), "{block}");

    // Disconnect, then a late agent: recorded, the session stays paused.
    ok(&root, &["pause"]);
    let line = ok(
        &root,
        &["agent", "done", "code-1", "--summary", "done late"],
    );
    assert!(line.contains("(paused): agent `code-1` complete"), "{line}");
    ok(&root, &["continue"]);
    ok(&root, &["complete"]);
    assert!(!root.join(".claude/orchestrator-session.json").exists());
    let history = ok(&root, &["history", "--json"]);
    let history: Value = serde_json::from_str(&history).unwrap();
    assert_eq!(history["entries"][0]["id"], id.as_str());
    assert_eq!(history["entries"][0]["status"], "complete");
    fails(&root, &["save"], 1);
}

#[test]
fn new_with_an_unfinished_session_names_it_and_json_prints_the_document() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let out = ok(
        root,
        &[
            "new", "--goal", "g", "--id", "first", "--mode", "debug", "--json",
        ],
    );
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (doc["session_id"].as_str(), doc["mode"].as_str()),
        (Some("first"), Some("debug"))
    );
    let err = fails(root, &["new", "--goal", "h"], 3);
    assert!(
        err.starts_with("error[already_exists]: session `first` is unfinished (created)"),
        "{err}"
    );
    assert!(err.contains("--archive-current"), "{err}");
    ok(
        root,
        &["new", "--goal", "h", "--id", "second", "--archive-current"],
    );
    assert_eq!(current(root)["session_id"], "second");
    assert!(
        root.join(".claude/orchestrator-history/first.json")
            .exists()
    );

    for (args, code, kind) in [
        (
            &["new", "--goal", "g", "--id", "../x", "--archive-current"][..],
            2,
            "invalid_key",
        ),
        (&["agent", "progress", "nobody", "5"][..], 1, "not_found"),
        (&["agent", "progress", "a", "101"][..], 2, "invalid_input"),
        (&["task", "done", "3", "--outcome", "x"][..], 1, "not_found"),
        (
            &["task", "done", "0", "--outcome", "x"][..],
            2,
            "invalid_input",
        ),
        (
            &["context", "--tokens", "1", "--percent", "250"][..],
            2,
            "invalid_input",
        ),
        (
            &["context", "--tokens", "1", "--percent", "lots"][..],
            2,
            "invalid_input",
        ),
        (&["decision", ""][..], 2, "invalid_input"),
    ] {
        let err = fails(root, args, code);
        assert!(
            err.starts_with(&format!("error[{kind}]: ")),
            "{args:?}: {err}"
        );
    }
    assert_eq!(current(root)["session_id"], "second");
}

#[test]
fn the_project_branch_comes_from_git() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let git = |args: &[&str]| {
        let status = Command::new("git")
            .args(["-c", "init.defaultBranch=trunk"])
            .args(args)
            .current_dir(root)
            .env("HOME", root)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(status.status.success(), "{status:?}");
    };
    git(&["init", "-q"]);
    ok(root, &["new", "--goal", "g"]);
    assert_eq!(current(root)["project"]["git_branch"], "trunk");
}

#[test]
fn two_processes_recording_fifteen_agents_each_all_land() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    ok(&root, &["new", "--goal", "parallel"]);
    let script = |who: &str| {
        let bin = env!("CARGO_BIN_EXE_session-state");
        let root = root.display();
        (0..15)
            .map(|i| {
                format!(
                    "'{bin}' agent start {who}-{i} --type code --task 'task {i}' --root '{root}' \
                     || exit 1; '{bin}' agent done {who}-{i} --summary 'ok {i}' --root '{root}' \
                     || exit 1"
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let children: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|who| {
            Command::new("sh")
                .arg("-c")
                .arg(script(who))
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let doc = current(&root);
    let agents = doc["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 30);
    assert!(agents.iter().all(|a| a["status"] == "complete"));
    assert_eq!(doc["completed_work"].as_array().unwrap().len(), 30);
    assert_eq!(doc["status"], "in_progress");
}
