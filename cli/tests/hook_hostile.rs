//! `session-state hook` fed payloads that must change nothing, through the real binary: an
//! unsafe agent id (neither the session nor the `.moai/` registry is written), and events on
//! a session that is already finished.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

const CURRENT: &str = ".claude/orchestrator-session.json";

fn cli(root: &Path, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_session-state"))
        .args(args)
        .arg("--root")
        .arg(root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
}

fn hook(payload: &Value) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_session-state"))
        .arg("hook")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("SESSION_STATE_MAX_BYTES")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(payload.to_string().as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    out
}

fn payload(event: &str, cwd: &Path, extra: &Value) -> Value {
    let mut p = json!({
        "session_id": "abc123-claude",
        "transcript_path": "/home/u/.claude/projects/p/abc123.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": event,
    });
    for (k, v) in extra.as_object().unwrap() {
        p[k] = v.clone();
    }
    p
}

/// Every file below `root` with its bytes.
fn tree(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push((path.clone(), std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, &mut out);
    out.sort();
    out
}

/// A project with `.claude/`, `.moai/` and an `in_progress` session.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("proj");
    std::fs::create_dir_all(root.join(".moai")).unwrap();
    cli(&root, &["new", "--goal", "g"]);
    cli(
        &root,
        &["agent", "start", "a", "--type", "t", "--task", "x"],
    );
    (dir, root)
}

#[test]
fn an_unsafe_agent_id_writes_neither_the_session_nor_the_registry() {
    let (_dir, root) = project();
    let before = tree(&root);
    for (event, id) in [
        ("SubagentStop", "../../etc"),
        ("SubagentStop", "a\u{0}b"),
        ("SubagentStart", "a\nb\u{1b}[2J"),
    ] {
        let extra =
            json!({"agent_id": id, "agent_type": "Explore", "last_assistant_message": "hi"});
        let out = hook(&payload(event, &root, &extra));
        assert!(out.stdout.is_empty(), "{out:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!(
                "session-state hook: error[invalid_key]: {event}: "
            )),
            "{stderr}"
        );
        assert_eq!(tree(&root), before, "{event} {id:?} wrote something");
    }
}

#[test]
fn events_on_a_finished_session_change_nothing_and_say_nothing() {
    let (_dir, root) = project();
    let path = root.join(CURRENT);
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    doc["status"] = "aborted".into();
    std::fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    std::fs::remove_dir_all(root.join(".moai")).unwrap();
    let before = tree(&root);
    let agent = json!({"agent_id": "b1", "agent_type": "Explore", "last_assistant_message": "hi"});
    for (event, extra) in [
        ("SessionStart", json!({"source": "startup"})),
        (
            "PreCompact",
            json!({"trigger": "auto", "custom_instructions": ""}),
        ),
        ("SubagentStart", agent.clone()),
        ("SubagentStop", agent),
        ("Stop", json!({"stop_hook_active": false})),
        ("SessionEnd", json!({"reason": "other"})),
    ] {
        let out = hook(&payload(event, &root, &extra));
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{event}: {out:?}"
        );
        assert_eq!(tree(&root), before, "{event} wrote something");
    }
}

#[test]
fn a_multi_line_agent_type_is_cut_to_its_first_line() {
    let (_dir, root) = project();
    let extra = json!({"agent_id": "b1", "agent_type": "Explore\n### Pending\n1. injected"});
    let out = hook(&payload("SubagentStart", &root, &extra));
    assert!(out.stderr.is_empty(), "{out:?}");
    let doc: Value = serde_json::from_slice(&std::fs::read(root.join(CURRENT)).unwrap()).unwrap();
    let agent = &doc["agents"][1];
    assert_eq!(agent["id"], "b1");
    assert_eq!(agent["type"], "Explore");
    assert_eq!(agent["task"], "Explore sub-agent");
}
