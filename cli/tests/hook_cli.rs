//! `session-state hook` through the real binary, fed the payloads Claude Code documents for
//! each event and malformed ones: it always exits 0, says what went wrong in one stderr line,
//! and changes nothing when it fails.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

mod common;
use common::{CURRENT, current, hook, hook_with, ok, ok_as, payload, tree};

/// A project with `.claude/` and a subfolder the payloads' `cwd` names.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("proj");
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    std::fs::create_dir_all(root.join("src/deep")).unwrap();
    (dir, root)
}

fn quiet(out: &Output) {
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
}

fn context_of(out: &Output) -> String {
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["hookSpecificOutput"]["hookEventName"], "SessionStart");
    value["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn session_start_hands_over_the_resume_block_of_an_unfinished_session() {
    let (_dir, root) = project();
    let cwd = root.join("src/deep");
    let start = |source: &str| hook(&payload("SessionStart", &cwd, &json!({"source": source})));
    quiet(&start("startup"));

    ok(&root, &["new", "--goal", "Ship it", "--id", "s1"]);
    quiet(&start("startup")); // created: nothing to resume yet; claimed by the payload's id
    let owner = "abc123-claude";
    ok_as(
        &root,
        owner,
        &[
            "agent", "start", "code-1", "--type", "code", "--task", "Write",
        ],
    );
    ok_as(&root, owner, &["agent", "progress", "code-1", "40"]);
    let text = context_of(&start("resume"));
    assert!(text.starts_with("## 🔄 RESUMING SESSION"), "{text}");
    assert!(text.contains("**Session ID**: s1"), "{text}");
    assert!(text.contains("- 🔄 code-1: Write (40%)"), "{text}");

    ok_as(&root, owner, &["pause"]);
    let text = context_of(&start("startup"));
    assert!(text.contains("`session-state continue`"), "{text}");

    // A corrupt file: the recovery block with its three choices; the file is left alone.
    std::fs::write(root.join(CURRENT), b"{\"schema_version\": \"1.0\", \"sess").unwrap();
    let before = tree(&root);
    let text = context_of(&start("startup"));
    assert!(text.contains("SESSION RECOVERY"), "{text}");
    for choice in ["Start fresh", "View history", "Manual recovery"] {
        assert!(text.contains(choice), "{text}");
    }
    assert_eq!(tree(&root), before);
}

#[test]
fn each_event_records_what_claude_code_saw() {
    let (_dir, root) = project();
    let cwd = root.join("src");
    // No session: every event changes nothing and says nothing.
    for event in [
        "PreCompact",
        "SubagentStart",
        "SubagentStop",
        "Stop",
        "SessionEnd",
    ] {
        let extra = json!({"agent_id": "x", "agent_type": "Explore", "trigger": "auto"});
        quiet(&hook(&payload(event, &cwd, &extra)));
    }
    assert!(!root.join(CURRENT).exists());

    ok(&root, &["new", "--goal", "g", "--id", "s1"]);
    let out = hook(&payload(
        "SubagentStart",
        &cwd,
        &json!({"agent_id": "agent-7f3", "agent_type": "Explore"}),
    ));
    quiet(&out);
    let d = current(&root);
    assert_eq!(d["status"], "in_progress");
    assert_eq!(d["agents"][0]["id"], "agent-7f3");
    assert_eq!(d["agents"][0]["type"], "Explore");
    assert_eq!(d["agents"][0]["task"], "Explore sub-agent");

    let stop = json!({
        "agent_id": "agent-7f3",
        "agent_type": "Explore",
        "agent_transcript_path": "/home/u/.claude/projects/p/abc/subagents/agent-7f3.jsonl",
        "stop_hook_active": false,
        "last_assistant_message": "\nFound 3 call sites.\nDetails follow...",
    });
    quiet(&hook(&payload("SubagentStop", &cwd, &stop)));
    quiet(&hook(&payload("SubagentStop", &cwd, &stop))); // twice: still one work item
    let d = current(&root);
    assert_eq!(d["agents"][0]["status"], "complete");
    assert_eq!(d["agents"][0]["result_summary"], "Found 3 call sites.");
    assert_eq!(d["completed_work"].as_array().unwrap().len(), 1);
    assert_eq!(d["completed_work"][0]["outcome"], "Found 3 call sites.");

    // A stop whose start was not seen adds the agent, complete.
    let unseen = json!({"agent_id": "agent-9", "agent_type": "Plan"});
    quiet(&hook(&payload("SubagentStop", &cwd, &unseen)));
    assert_eq!(current(&root)["agents"][1]["status"], "complete");

    quiet(&hook(&payload(
        "PreCompact",
        &cwd,
        &json!({"trigger": "auto", "custom_instructions": ""}),
    )));
    assert!(current(&root)["context_usage"]["last_compression"].is_string());

    let before = current(&root)["updated"].clone();
    std::thread::sleep(std::time::Duration::from_millis(20));
    quiet(&hook(&payload(
        "Stop",
        &cwd,
        &json!({"stop_hook_active": false}),
    )));
    assert_ne!(current(&root)["updated"], before);

    quiet(&hook(&payload(
        "SessionEnd",
        &cwd,
        &json!({"reason": "logout"}),
    )));
    assert_eq!(current(&root)["status"], "paused");
    quiet(&hook(&payload(
        "SessionEnd",
        &cwd,
        &json!({"reason": "other"}),
    )));
    assert_eq!(current(&root)["status"], "paused");
    assert!(root.join(CURRENT).exists(), "a disconnect does not archive");

    // Events this command does not handle are ignored.
    let before = tree(&root);
    quiet(&hook(&payload(
        "UserPromptSubmit",
        &cwd,
        &json!({"prompt": "hi"}),
    )));
    assert_eq!(tree(&root), before);
}

#[test]
fn subagent_stop_registers_in_the_moai_registry() {
    let (_dir, root) = project();
    std::fs::create_dir(root.join(".moai")).unwrap();
    let stop = json!({"agent_id": "agent-1", "agent_type": "tdd-implementer",
        "last_assistant_message": "green"});
    quiet(&hook(&payload("SubagentStop", &root, &stop)));
    let agents = ok(&root, &["agents", "--json"]);
    let agents: Value = serde_json::from_str(&agents).unwrap();
    assert_eq!(agents[0]["agent_name"], "tdd-implementer");
    assert_eq!(agents[0]["agent_id"], "agent-1");
    assert_eq!(agents[0]["has_result"], true);
    assert!(!root.join(CURRENT).exists());
}

#[test]
fn the_project_is_claude_project_dir_then_the_nearest_marked_folder() {
    let (dir, root) = project();
    ok(&root, &["new", "--goal", "g", "--id", "s1"]);
    // From elsewhere, $CLAUDE_PROJECT_DIR names the project.
    let elsewhere = dir.path();
    let p = payload("SessionEnd", elsewhere, &json!({}));
    ok(&root, &["start"]);
    quiet(&hook_with(p.to_string().as_bytes(), Some(&root), &[]));
    assert_eq!(current(&root)["status"], "paused");
    // A folder without `.claude/` or `.git` above it is the project itself: nothing there.
    let plain = tempfile::tempdir().unwrap();
    let p = payload("Stop", plain.path(), &json!({}));
    quiet(&hook_with(p.to_string().as_bytes(), None, &[]));
    assert!(!plain.path().join(".claude").exists());
}

#[test]
fn malformed_payloads_exit_0_with_one_line_and_change_nothing() {
    let (dir, root) = project();
    ok(&root, &["new", "--goal", "g", "--id", "s1"]);
    ok(
        &root,
        &["agent", "start", "a", "--type", "t", "--task", "x"],
    );
    let before = tree(&root);
    let cwd = root.to_str().unwrap();
    let mut huge = payload("Stop", &root, &json!({})).to_string();
    huge.insert_str(1, &format!("\"pad\": \"{}\", ", "x".repeat(2 << 20)));
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"not json".to_vec(), "not usable"),
        (Vec::new(), "not usable"),
        (
            json!({"hook_event_name": "Stop", "cwd": 5})
                .to_string()
                .into_bytes(),
            "invalid type",
        ),
        (
            json!({"hook_event_name": ["Stop"], "cwd": cwd})
                .to_string()
                .into_bytes(),
            "invalid type",
        ),
        (
            json!({"hook_event_name": "SessionEnd", "session_id": "x"})
                .to_string()
                .into_bytes(),
            "missing field `cwd`",
        ),
        (
            json!({"hook_event_name": "SubagentStart", "cwd": cwd, "agent_id": 7})
                .to_string()
                .into_bytes(),
            "invalid type",
        ),
        (
            json!({"hook_event_name": "SubagentStart", "cwd": cwd})
                .to_string()
                .into_bytes(),
            "no `agent_id`",
        ),
        (
            json!({"hook_event_name": "Stop", "cwd": dir.path().join("gone/deeper")})
                .to_string()
                .into_bytes(),
            "does not exist",
        ),
        (huge.into_bytes(), "more than the limit of 1048576 bytes"),
    ];
    for (stdin, says) in cases {
        let out = hook_with(&stdin, None, &[]);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(out.stdout.is_empty());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("session-state hook: error["), "{stderr}");
        assert!(stderr.contains(says), "{says}: {stderr}");
        assert_eq!(tree(&root), before, "{says}");
    }

    // A corrupt file: a stop is one line and no write (the file and nothing beside it).
    std::fs::write(root.join(CURRENT), b"{\"schema_version\": \"1.0\", \"sess").unwrap();
    let before = tree(&root);
    let out = hook(&payload("Stop", &root, &json!({})));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("session-state hook: error[corrupt_state]: Stop: "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(tree(&root), before);

    // Misuse of the command itself is not exit 2 either.
    for args in [&["--bogus"][..], &["--max-bytes", "lots"][..]] {
        let out = hook_with(b"{}", None, args);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("session-state hook: "), "{stderr}");
    }
}

#[test]
fn the_hooks_configuration_to_paste_runs_this_command_for_the_six_events() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../integrations/claude-code/hooks.json");
    let config: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let hooks = config["hooks"].as_object().unwrap();
    let events: Vec<&str> = hooks.keys().map(String::as_str).collect();
    assert_eq!(
        events,
        [
            "SessionStart",
            "PreCompact",
            "SubagentStart",
            "SubagentStop",
            "Stop",
            "SessionEnd"
        ]
    );
    for groups in hooks.values() {
        for group in groups.as_array().unwrap() {
            for h in group["hooks"].as_array().unwrap() {
                assert_eq!(h["type"], "command");
                assert_eq!(h["command"], "session-state hook");
            }
        }
    }
}
