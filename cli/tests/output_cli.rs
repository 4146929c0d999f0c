//! What the binary prints: one line for unreadable archives, the page shape of `history
//! --json`, values it refuses said plainly, moves to the status a session has, and tables that
//! neither reorder text nor pad every row for one long value.

use std::path::Path;

use serde_json::Value;

mod common;
use common::{CURRENT, run, seed, stderr, stdout};

fn project_with_current(doc: &Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude/orchestrator-history")).unwrap();
    std::fs::write(
        dir.path().join(CURRENT),
        serde_json::to_vec_pretty(doc).unwrap(),
    )
    .unwrap();
    dir
}

/// Writes the seed, with the id `id`, into `history` as `{id}.json`.
fn archive_seed_as(history: &Path, id: &str) {
    let mut archived = seed();
    archived["session_id"] = id.into();
    std::fs::write(
        history.join(format!("{id}.json")),
        serde_json::to_vec(&archived).unwrap(),
    )
    .unwrap();
}

#[test]
fn history_says_in_one_line_how_many_archives_could_not_be_read() {
    let dir = project_with_current(&seed());
    let history = dir.path().join(".claude/orchestrator-history");
    for i in 0..10 {
        std::fs::write(history.join(format!("broken-{i}.json")), b"{\"schema_").unwrap();
    }
    archive_seed_as(&history, "2025-12-01-good");
    for args in [&["history"][..], &["history", "--limit", "5"]] {
        let out = run(dir.path(), args);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(
            stderr(&out),
            "warning: 10 archives could not be read: run `session-state doctor`\n",
            "{args:?}"
        );
        assert!(stdout(&out).contains("2025-12-01-good"), "{}", stdout(&out));
    }
    // `doctor` has the details.
    let out = run(dir.path(), &["doctor"]);
    assert!(stdout(&out).contains("broken-3.json: error[corrupt_state]"));
}

#[test]
fn history_json_is_the_page_of_the_python_and_node_packages() {
    let dir = project_with_current(&seed());
    let history = dir.path().join(".claude/orchestrator-history");
    std::fs::write(history.join("torn.json"), b"{").unwrap();
    archive_seed_as(&history, "2025-12-01-good");
    let out = run(dir.path(), &["history", "--json", "--limit", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let page: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let keys: Vec<&String> = page.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["entries", "skipped", "total"]);
    assert_eq!(page["entries"], serde_json::json!([]));
    assert_eq!(page["total"], 1);
    assert_eq!(
        page["skipped"][0]["key"],
        ".claude/orchestrator-history/torn.json"
    );
    assert_eq!(page["skipped"][0]["code"], "corrupt_state");
}

#[test]
fn a_negative_limit_or_offset_says_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    for flag in ["--limit", "--offset"] {
        let out = run(dir.path(), &["history", flag, "-1"]);
        assert_eq!(out.status.code(), Some(2));
        let text = stderr(&out);
        assert!(text.starts_with("error[invalid_input]: "), "{text}");
        assert!(text.contains(flag), "{text}");
        assert!(text.contains("cannot be negative"), "{text}");
    }
    let out = run(dir.path(), &["history", "--limit", "ten"]);
    assert!(stderr(&out).contains("whole number"), "{}", stderr(&out));
}

#[test]
fn a_move_to_the_status_the_session_has_succeeds_and_changes_nothing() {
    let mut doc = seed();
    doc["status"] = "paused".into();
    let dir = project_with_current(&doc);
    let before = std::fs::read(dir.path().join(CURRENT)).unwrap();
    let out = run(dir.path(), &["pause"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "session `2025-12-27-abc123` is already paused\n"
    );
    assert_eq!(std::fs::read(dir.path().join(CURRENT)).unwrap(), before);

    doc["status"] = "in_progress".into();
    let dir = project_with_current(&doc);
    let before = std::fs::read(dir.path().join(CURRENT)).unwrap();
    for cmd in ["start", "continue"] {
        let out = run(dir.path(), &[cmd]);
        assert!(out.status.success(), "{cmd}: {}", stderr(&out));
        assert!(stdout(&out).contains("is already in_progress"), "{cmd}");
        assert_eq!(std::fs::read(dir.path().join(CURRENT)).unwrap(), before);
    }
    // Other moves are as before.
    doc["status"] = "created".into();
    let dir = project_with_current(&doc);
    let out = run(dir.path(), &["pause"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).contains("error[invalid_transition]"));
}

#[test]
fn tables_escape_bidi_controls_and_cap_column_widths() {
    let dir = tempfile::tempdir().unwrap();
    let long = "n".repeat(300);
    for (name, id) in [
        ("short", "evil\u{202e}gpj.exe"),
        (long.as_str(), "id-2"),
        ("other", "id-3"),
    ] {
        let out = run(dir.path(), &["register", name, id]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let out = run(dir.path(), &["agents"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains('\u{202e}'), "{text}");
    assert!(text.contains("evil\\u{202e}gpj.exe"), "{text}");
    for line in text.lines().filter(|l| !l.contains(&long)) {
        assert!(
            line.chars().count() < 120,
            "padded for the long name: {line}"
        );
    }
}
