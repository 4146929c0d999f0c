//! A salvaged document shows what it lost as unknown: no 1970 start date ("20788 days ago"),
//! no empty goal, no `project:   ()`; so does a document without the keys the seed never reads.

use serde_json::Value;

mod common;
use common::{CURRENT, ok, repo, run, stdout};

/// A project whose current file is the seed example cut at byte `at`, repaired by `doctor
/// --fix`.
fn salvaged_at(at: usize) -> tempfile::TempDir {
    let seed = std::fs::read(repo().join("tests/vectors/orchestrator/seed-example.json")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".claude")).unwrap();
    std::fs::write(dir.path().join(CURRENT), &seed[..at]).unwrap();
    ok(dir.path(), &["doctor", "--fix"]);
    dir
}

#[test]
fn the_resume_block_of_a_salvage_says_unknown_for_what_was_lost() {
    let dir = salvaged_at(100);
    let text = ok(dir.path(), &["resume"]);
    assert!(
        text.contains("**Session ID**: 2025-12-27-abc123\n"),
        "{text}"
    );
    assert!(text.contains("**Goal**: unknown\n"), "{text}");
    assert!(text.contains("**Started**: unknown\n"), "{text}");
    assert!(!text.contains("days ago"), "{text}");
    let summary: Value = serde_json::from_str(&ok(dir.path(), &["resume", "--json"])).unwrap();
    assert_eq!(summary["goal"], Value::Null);
    assert_eq!(summary["started"], Value::Null);
    assert_eq!(summary["started_relative"], Value::Null);
}

#[test]
fn show_of_a_salvage_says_unknown_for_what_was_lost() {
    let dir = salvaged_at(100);
    let text = ok(dir.path(), &["show"]);
    assert!(text.contains("goal:     unknown\n"), "{text}");
    assert!(text.contains("created:  unknown\n"), "{text}");
    assert!(text.contains("project:  unknown\n"), "{text}");
    assert!(text.contains("mode:     unknown\n"), "{text}");
    assert!(text.contains("updated:  unknown\n"), "{text}");
    assert!(!text.contains("1970"), "{text}");
    assert!(!text.contains("()"), "{text}");
}

#[test]
fn what_survived_is_shown_as_it_was() {
    // Cut after the goal and the project: both are kept, the rest reads as before.
    let seed = std::fs::read(repo().join("tests/vectors/orchestrator/seed-example.json")).unwrap();
    let text = String::from_utf8(seed).unwrap();
    let at = text.find("\"mode\"").unwrap();
    let dir = salvaged_at(at);
    let shown = ok(dir.path(), &["show"]);
    assert!(
        shown.contains("created:  2025-12-27T10:30:00Z\n"),
        "{shown}"
    );
    assert!(!shown.contains("goal:     unknown"), "{shown}");
    assert!(!shown.contains("project:  unknown"), "{shown}");
    let resume = ok(dir.path(), &["resume"]);
    assert!(!resume.contains("**Started**: unknown"), "{resume}");
}

#[test]
fn a_document_without_the_keys_the_seed_never_reads_is_shown_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".claude")).unwrap();
    let doc = r#"{"schema_version": "1.0", "session_id": "2025-12-27-abc123",
        "created": "2025-12-27T10:30:00Z", "goal": "g", "status": "paused"}"#;
    std::fs::write(dir.path().join(CURRENT), doc).unwrap();
    let shown = ok(dir.path(), &["show"]);
    for line in [
        "mode:     unknown\n",
        "updated:  unknown\n",
        "project:  unknown\n",
    ] {
        assert!(shown.contains(line), "{line}: {shown}");
    }
    assert!(
        shown.contains("created:  2025-12-27T10:30:00Z\n"),
        "{shown}"
    );
    let resume = ok(dir.path(), &["resume"]);
    assert!(resume.contains("**Goal**: g\n"), "{resume}");
    assert!(!resume.contains("1970"), "{resume}");
    // `doctor` finds nothing to repair, and a move keeps the absent keys absent.
    let doctor = run(dir.path(), &["doctor"]);
    assert!(doctor.status.success(), "{}", stdout(&doctor));
    ok(dir.path(), &["start"]);
    let after: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join(CURRENT)).unwrap()).unwrap();
    assert_eq!(after["status"], "in_progress");
    assert!(
        after.get("mode").is_none() && after.get("project").is_none(),
        "{after}"
    );
    assert!(after["updated"].is_string(), "{after}");
}
