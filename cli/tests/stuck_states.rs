//! Every file the library refuses has a way out: `doctor --fix` makes the project usable again
//! and keeps the bytes aside; a torn registry file is salvaged by the next command, as the
//! Python package's `SessionManager` does.

use std::path::{Path, PathBuf};

use serde_json::Value;

mod common;
use common::{CURRENT, current, ok, run, seed, stderr, stdout};

const SESSIONS: &str = ".moai/memory/agent-sessions.json";

/// A project whose current session file holds `text`.
fn project(text: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".claude")).unwrap();
    std::fs::write(dir.path().join(CURRENT), text).unwrap();
    dir
}

fn corrupt_copies(root: &Path, of: &str) -> Vec<PathBuf> {
    let path = root.join(of);
    let name = format!("{}.corrupt-", path.file_name().unwrap().to_str().unwrap());
    std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with(&name))
        .collect()
}

#[test]
fn an_unknown_field_nested_127_levels_is_repaired_and_the_session_goes_on() {
    // As Python's `json` writes it: 127 levels inside the top-level object.
    let mut text = serde_json::to_string_pretty(&seed()).unwrap();
    text.truncate(text.rfind('}').unwrap());
    let deep = "[".repeat(127) + &"]".repeat(127);
    text = format!("{text},\n  \"x_deep\": {deep},\n  \"x_after\": 1\n}}\n");
    let dir = project(text.as_bytes());
    let root = dir.path();
    let out = run(root, &["resume"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("doctor --fix"), "{}", stderr(&out));

    let report = ok(root, &["doctor", "--fix"]);
    assert!(
        report.contains("repaired .claude/orchestrator-session.json"),
        "{report}"
    );
    assert_eq!(
        std::fs::read(&corrupt_copies(root, CURRENT)[0]).unwrap(),
        text.as_bytes(),
        "the bytes are kept aside"
    );
    let doc = current(root);
    assert_eq!(doc["session_id"], "2025-12-27-abc123");
    assert_eq!(doc["agents"], seed()["agents"], "the rest is whole");
    assert_eq!(doc["x_after"], 1);
    assert!(
        doc["x_deep"].is_array(),
        "the levels that read back are kept"
    );
    ok(root, &["resume"]);
    ok(root, &["pause"]);
    ok(root, &["archive"]);
}

#[test]
fn a_session_id_with_a_slash_is_shown_and_repaired_with_a_safe_id() {
    let mut doc = seed();
    doc["session_id"] = "2025/12/27".into();
    let dir = project(&serde_json::to_vec_pretty(&doc).unwrap());
    let root = dir.path();
    for cmd in ["show", "resume"] {
        let out = run(root, &[cmd]);
        assert!(
            stdout(&out).contains("2025/12/27"),
            "{cmd}: {}",
            stdout(&out)
        );
        assert_eq!(out.status.code(), Some(0), "{cmd}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("doctor --fix"),
            "{cmd}: {}",
            stderr(&out)
        );
    }
    let out = run(root, &["pause"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("doctor --fix"), "{}", stderr(&out));
    let out = run(root, &["doctor"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stdout(&out).contains("(fixable with --fix)"),
        "{}",
        stdout(&out)
    );

    ok(root, &["doctor", "--fix"]);
    let fixed = current(root);
    assert_eq!(fixed["session_id"], "2025-12-27");
    assert_eq!(fixed["original_session_id"], "2025/12/27");
    assert_eq!(
        corrupt_copies(root, CURRENT).len(),
        1,
        "the bytes are kept aside"
    );
    ok(root, &["pause"]);
    ok(root, &["archive"]);
    assert!(
        root.join(".claude/orchestrator-history/2025-12-27.json")
            .exists()
    );
}

#[test]
fn an_empty_session_id_is_repaired_with_a_made_up_safe_one() {
    let mut doc = seed();
    doc["session_id"] = "".into();
    let dir = project(&serde_json::to_vec_pretty(&doc).unwrap());
    let root = dir.path();
    ok(root, &["show"]);
    ok(root, &["doctor", "--fix"]);
    let fixed = current(root);
    assert!(
        fixed["session_id"]
            .as_str()
            .unwrap()
            .starts_with("recovered-"),
        "{fixed}"
    );
    assert_eq!(fixed["original_session_id"], "");
    ok(root, &["complete"]);
}

#[test]
fn a_session_over_the_read_limit_has_a_way_out_with_doctor_fix() {
    let mut doc = seed();
    doc["notes"] = "n".repeat(4096).into();
    let text = serde_json::to_vec(&doc).unwrap();
    let dir = project(&text);
    let root = dir.path();
    let out = run(root, &["--max-bytes", "1K", "doctor"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stdout(&out).contains("`--max-bytes`"), "{}", stdout(&out));
    let report = ok(root, &["--max-bytes", "1K", "doctor", "--fix"]);
    assert!(
        report.contains("larger than the read limit of 1024 bytes"),
        "{report}"
    );
    assert!(!root.join(CURRENT).exists());
    let kept = corrupt_copies(root, CURRENT);
    assert_eq!(
        std::fs::read(&kept[0]).unwrap(),
        text,
        "the bytes are kept aside"
    );
    // The project is usable again.
    let out = run(root, &["--max-bytes", "1K", "resume"]);
    assert_eq!(out.status.code(), Some(1), "no session: {}", stderr(&out));
}

#[test]
fn a_torn_sessions_file_is_salvaged_by_the_next_register() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    ok(root, &["register", "planner", "plan-1"]);
    ok(root, &["register", "builder", "build-1"]);
    let file = root.join(SESSIONS);
    let bytes = std::fs::read(&file).unwrap();
    let torn = &bytes[..bytes.len() / 2];
    std::fs::write(&file, torn).unwrap();

    let out = run(root, &["register", "tester", "test-1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is not a valid sessions file: kept aside as"),
        "{}",
        stderr(&out)
    );
    let kept = corrupt_copies(root, SESSIONS);
    assert_eq!(kept.len(), 1);
    assert_eq!(std::fs::read(&kept[0]).unwrap(), torn);
    let agents: Value = serde_json::from_str(&ok(root, &["agents", "--json"])).unwrap();
    let ids: Vec<&str> = agents
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["agent_id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"test-1"), "{ids:?}");
    assert!(ids.contains(&"plan-1"), "what was whole is kept: {ids:?}");
}
