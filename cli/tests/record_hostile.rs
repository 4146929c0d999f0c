//! The recording verbs fed bad input through the real binary: each refusal has its exit code
//! and leaves the session file as it was.

use std::path::Path;

mod common;
use common::{CURRENT, ok, run};

/// Runs `args`, expects exit `code`, nothing on stdout and the session file unchanged;
/// returns stderr.
fn refused(root: &Path, args: &[&str], code: i32) -> String {
    let before = std::fs::read(root.join(CURRENT)).ok();
    let out = run(root, args);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed {:?}", out.stdout);
    assert_eq!(
        std::fs::read(root.join(CURRENT)).ok(),
        before,
        "{args:?} changed the file"
    );
    stderr
}

fn project() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("p");
    std::fs::create_dir(&root).unwrap();
    ok(&root, &["new", "--goal", "g"]);
    (dir, root)
}

#[test]
fn a_usage_error_is_exit_2_even_when_an_argument_is_the_word_hook() {
    let (_dir, root) = project();
    for args in [
        &["agent", "start", "hook", "--type", "t"][..],
        &["task", "add", "hook", "--bogus"],
        &["decision", "hook", "--why"],
    ] {
        let err = refused(&root, args, 2);
        assert!(err.starts_with("error[invalid_input]: "), "{args:?}: {err}");
    }
}

#[test]
fn unsafe_agent_ids_are_refused_where_agents_are_started() {
    let (_dir, root) = project();
    let long = "a".repeat(300);
    for id in ["a\nb", "a\u{1b}[2J", "../x", "a/b", long.as_str()] {
        let err = refused(
            &root,
            &["agent", "start", id, "--type", "t", "--task", "x"],
            2,
        );
        assert!(
            err.starts_with("error[invalid_key]: agent id "),
            "{id:?}: {err}"
        );
    }
    ok(
        &root,
        &["agent", "start", "code-1", "--type", "t", "--task", "x"],
    );
}

#[test]
fn an_empty_task_or_mode_is_refused() {
    let (_dir, root) = project();
    for task in ["", "  "] {
        let err = refused(
            &root,
            &["agent", "start", "a", "--type", "t", "--task", task],
            2,
        );
        assert!(err.contains("task is empty"), "{err}");
    }
    let err = refused(
        &root,
        &["new", "--goal", "g", "--mode", " ", "--archive-current"],
        2,
    );
    assert!(err.contains("mode is empty"), "{err}");
}

#[test]
fn a_finished_current_session_takes_no_more_events() {
    let (_dir, root) = project();
    ok(
        &root,
        &["agent", "start", "a", "--type", "t", "--task", "x"],
    );
    ok(&root, &["task", "add", "later"]);
    // Another program left a completed session current.
    let path = root.join(CURRENT);
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    doc["status"] = "complete".into();
    std::fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    for args in [
        &["agent", "start", "b", "--type", "t", "--task", "y"][..],
        &["agent", "progress", "a", "5"],
        &["agent", "done", "a"],
        &["agent", "fail", "a", "--error", "e"],
        &["decision", "d"],
        &["task", "add", "t"],
        &["task", "done", "1", "--outcome", "o"],
        &["context", "--tokens", "5"],
        &["save"],
    ] {
        let err = refused(&root, args, 3);
        assert!(
            err.starts_with("error[invalid_transition]: ") && err.contains("is complete"),
            "{args:?}: {err}"
        );
    }
    // `new` archives it and starts the next one.
    ok(&root, &["new", "--goal", "next"]);
}

#[test]
fn a_pending_task_made_of_digits_is_found_by_its_text() {
    let (_dir, root) = project();
    ok(&root, &["task", "add", "2024"]);
    let line = ok(&root, &["task", "done", "2024", "--outcome", "ok"]);
    assert!(line.ends_with("task done: 2024\n"), "{line}");
    // A number in range is still the number.
    ok(&root, &["task", "add", "first"]);
    ok(&root, &["task", "add", "1"]);
    let line = ok(&root, &["task", "done", "1", "--outcome", "ok"]);
    assert!(line.ends_with("task done: first\n"), "{line}");
}

#[test]
fn a_negative_number_is_named_as_such_not_taken_for_a_flag() {
    let (_dir, root) = project();
    ok(
        &root,
        &["agent", "start", "a", "--type", "code", "--task", "t"],
    );
    for args in [
        &["context", "--tokens", "-5"][..],
        &["agent", "done", "a", "--tokens", "-1"],
        &["resume", "--stale-after", "-1"],
        &["prune", "--keep", "-1"],
        &["history", "--limit", "-1"],
    ] {
        let err = refused(&root, args, 2);
        assert!(err.contains("cannot be negative"), "{args:?}: {err}");
    }
    // A percentage is any number from 0 to 100, as in the document.
    for (percent, shown) in [("-5", "-5"), ("300", "300"), ("100.5", "100.5")] {
        let err = refused(&root, &["agent", "progress", "a", percent], 2);
        let said = format!("progress `{shown}` is not between 0 and 100");
        assert!(err.contains(&said), "{percent}: {err}");
    }
    let err = refused(&root, &["agent", "progress", "a", "many"], 2);
    assert!(err.contains("`many` is not a number"), "{err}");
    ok(&root, &["agent", "progress", "a", "62.5"]);
    let said = ok(&root, &["agent", "progress", "a", "--", "-0"]);
    assert!(said.contains("at 0.0%"), "the stored progress: {said}");
    ok(&root, &["agent", "progress", "a", "62.5"]);
    let doc = ok(&root, &["show", "--json"]);
    assert!(doc.contains("\"progress\": 62.5"), "{doc}");
}
