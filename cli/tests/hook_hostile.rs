//! `session-state hook` fed payloads that must change nothing, through the real binary: an
//! unsafe agent id (neither the session nor the `.moai/` registry is written), and events on
//! a session that is already finished; and a payload that never ends, given up at the deadline.

use std::path::PathBuf;

use serde_json::{Value, json};

mod common;
use common::{CURRENT, hook, ok, payload, tree};

/// A project with `.claude/`, `.moai/` and an `in_progress` session.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("proj");
    std::fs::create_dir_all(root.join(".moai")).unwrap();
    ok(&root, &["new", "--goal", "g"]);
    ok(
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

#[test]
fn a_payload_that_never_ends_gives_up_at_the_deadline_with_one_line_and_exit_0() {
    // The host keeps stdin open; the hook ends by itself before the host would kill it.
    let (_dir, root) = project();
    let mut child = common::bin()
        .arg("hook")
        .env("CLAUDE_PROJECT_DIR", &root)
        .env("SESSION_STATE_HOOK_TIMEOUT_MS", "300")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"{\"hook_event_name\": \"Stop\", ").unwrap();
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("gave up after 300 ms"), "{err}");
    assert!(out.stdout.is_empty());
}
