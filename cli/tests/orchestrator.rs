//! The orchestrator commands, run as the real binary on temporary copies.

use std::path::Path;

use serde_json::Value;

mod common;
use common::{CURRENT, code, copy_dir, repo, run, stderr, stdout};

fn files(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
            } else {
                out.push(
                    path.strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

/// A temp copy of a folder of the repository.
fn project(from: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join(from), dir.path());
    dir
}

fn vector(name: &str) -> Vec<u8> {
    std::fs::read(repo().join("tests/vectors/orchestrator").join(name)).unwrap()
}

const FIXTURE: &str = "tests/vectors/orchestrator/project";

#[test]
fn resume_of_the_example_project_shows_the_summary_and_writes_nothing() {
    let root = repo().join("examples/project");
    let before = files(&root);
    let out = run(&root, &["resume"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("## 🔄 RESUMING SESSION\n"), "{text}");
    assert!(text.contains("**Session ID**: 2026-11-28-5f3a9c"));
    assert!(text.contains("- 🔄 code-1: Implement bootstrap sensitivity in R/sensitivity.R (60%)"));
    assert!(
        text.contains("**Progress**: 46% complete"),
        "(100 + 60 + 25 + 0) / 4"
    );
    assert!(text.trim_end().ends_with("**Resuming from code-1...**"));
    assert_eq!(files(&root), before);
}

#[test]
fn resume_json_gives_the_structured_summary() {
    let dir = project(FIXTURE);
    let out = run(dir.path(), &["resume", "--json"]);
    assert_eq!(code(&out), 0);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["session_id"], "2025-12-27-abc123");
    assert_eq!(v["progress_percent"], 80);
    assert_eq!(v["resume_from"], "code-1");
    assert_eq!(v["in_progress"][0]["progress"], 60);
    assert_eq!(v["context"]["estimated_tokens"], 25000);
}

#[test]
fn resume_without_a_session_says_so_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &["resume"]);
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "No session to resume\n");
    let missing = dir.path().join("nope");
    let out = run(&missing, &["resume"]);
    assert_eq!(code(&out), 1);
    assert!(!missing.exists(), "a read command creates no folder");
}

#[test]
fn bad_current_files_give_typed_errors_and_are_left_alone() {
    let seed = vector("seed-example.json");
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend(&seed);
    let mut unsafe_id: Value = serde_json::from_slice(&seed).unwrap();
    unsafe_id["session_id"] = Value::from("../x");
    let cases: Vec<(&str, Vec<u8>, i32, &str)> = vec![
        ("empty", Vec::new(), 3, "error[corrupt_state]"),
        ("array", b"[]".to_vec(), 3, "error[corrupt_state]"),
        (
            "torn",
            vector("seed-example.torn.json"),
            3,
            "error[corrupt_state]",
        ),
        (
            "schema 2.0",
            br#"{"schema_version": "2.0"}"#.to_vec(),
            3,
            "error[incompatible_schema]",
        ),
        (
            "wrong type",
            br#"{"schema_version": "1.0", "session_id": 5}"#.to_vec(),
            3,
            "`session_id`",
        ),
        ("bom", bom, 0, ""),
    ];
    for (name, bytes, want, needle) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
        std::fs::write(dir.path().join(CURRENT), &bytes).unwrap();
        let commands: &[&[&str]] = if want == 0 {
            &[&["resume"], &["show", "--json"]]
        } else {
            &[&["resume"], &["show", "--json"], &["pause"], &["archive"]]
        };
        for args in commands {
            let out = run(dir.path(), args);
            assert_eq!(code(&out), want, "{name} {args:?}: {}", stderr(&out));
            assert!(
                stderr(&out).contains(needle),
                "{name} {args:?}: {}",
                stderr(&out)
            );
            assert_eq!(
                std::fs::read(dir.path().join(CURRENT)).unwrap(),
                bytes,
                "{name}: untouched"
            );
        }
    }
    // An unsafe id is shown with a warning, and refused by the commands that write.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    let bytes = serde_json::to_vec(&unsafe_id).unwrap();
    std::fs::write(dir.path().join(CURRENT), &bytes).unwrap();
    for (args, want, needle) in [
        (&["resume"][..], 0, "warning: session id `../x`"),
        (&["show", "--json"], 0, "warning: session id `../x`"),
        (&["pause"], 2, "error[invalid_key]"),
        (&["archive"], 2, "error[invalid_key]"),
    ] {
        let out = run(dir.path(), args);
        assert_eq!(code(&out), want, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("doctor --fix"), "{args:?}");
        assert_eq!(std::fs::read(dir.path().join(CURRENT)).unwrap(), bytes);
    }
}

#[test]
fn history_lists_newest_first_filters_and_reports_skipped_files() {
    let dir = project(FIXTURE);
    let hist = dir.path().join(".claude/orchestrator-history");
    std::fs::write(hist.join("package.json"), b"{\"name\": \"x\"}").unwrap();
    let out = run(dir.path(), &["history", "--json"]);
    assert_eq!(code(&out), 0);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let golden: Value = serde_json::from_slice(&vector("project.history.json")).unwrap();
    assert_eq!(v["entries"], golden);
    assert_eq!(v["total"], 3);
    assert_eq!(
        v["skipped"][0]["key"],
        ".claude/orchestrator-history/package.json"
    );
    assert_eq!(v["skipped"][0]["code"], "corrupt_state");
    assert_eq!(
        stderr(&out),
        "warning: 1 archive could not be read: run `session-state doctor`\n"
    );
    let out = run(dir.path(), &["history", "--json", "--status", "aborted"]);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["entries"].as_array().unwrap().len(), 1);
    assert_eq!(v["entries"][0]["id"], "2025-12-22-0be7c2");
    let out = run(
        dir.path(),
        &["history", "--json", "--limit", "1", "--offset", "1"],
    );
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["entries"].as_array().unwrap().len(), 1);
    assert_eq!(v["entries"][0]["id"], "2025-12-22-0be7c2");
    let out = run(dir.path(), &["history", "--status", "finished"]);
    assert_eq!(code(&out), 2);
    assert!(hist.join("package.json").exists(), "never deleted");
}

#[test]
fn lifecycle_and_archive_commands() {
    let dir = project(FIXTURE);
    let root = dir.path();
    let out = run(root, &["start"]);
    assert_eq!(
        code(&out),
        0,
        "in_progress -> in_progress: {}",
        stderr(&out)
    );
    assert_eq!(code(&run(root, &["pause"])), 0);
    let v: Value = serde_json::from_slice(&std::fs::read(root.join(CURRENT)).unwrap()).unwrap();
    assert_eq!(v["status"], "paused");
    assert_eq!(code(&run(root, &["continue"])), 0);
    let out = run(root, &["complete"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("(archived)"));
    assert!(!root.join(CURRENT).exists());
    let archived = root.join(".claude/orchestrator-history/2025-12-27-abc123.json");
    let v: Value = serde_json::from_slice(&std::fs::read(&archived).unwrap()).unwrap();
    assert_eq!(v["status"], "complete");
    assert_eq!(code(&run(root, &["abort"])), 1, "no current session");
    // archive: no silent overwrite.
    std::fs::write(root.join(CURRENT), vector("seed-example.json")).unwrap();
    let out = run(root, &["archive"]);
    assert_eq!(code(&out), 3);
    assert!(stderr(&out).contains("error[already_exists]"));
    assert!(root.join(CURRENT).exists());
    let out = run(root, &["archive", "--replace"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!root.join(CURRENT).exists());
    let v: Value = serde_json::from_slice(&std::fs::read(&archived).unwrap()).unwrap();
    assert_eq!(v["status"], "in_progress");
}

#[test]
fn doctor_reports_then_fixes_keeping_corrupt_copies() {
    let dir = project(FIXTURE);
    let root = dir.path();
    let torn = vector("seed-example.torn.json");
    std::fs::write(root.join(CURRENT), &torn).unwrap();
    let hist = root.join(".claude/orchestrator-history");
    let bytes = std::fs::read(hist.join("2025-12-20-aa11f0.json")).unwrap();
    std::fs::write(hist.join("2025-12-20-aa11f0.json"), &bytes[..200]).unwrap();
    std::fs::write(
        hist.join("2025-12-29-future.json"),
        br#"{"schema_version": "2.0"}"#,
    )
    .unwrap();
    let out = run(root, &["doctor"]);
    assert_eq!(code(&out), 3);
    let text = stdout(&out);
    assert!(
        text.contains(".claude/orchestrator-session.json: error[corrupt_state]"),
        "{text}"
    );
    assert!(
        text.contains("2025-12-20-aa11f0.json: error[corrupt_state]"),
        "{text}"
    );
    assert!(
        text.contains("2025-12-29-future.json: error[incompatible_schema]"),
        "{text}"
    );
    assert_eq!(
        std::fs::read(root.join(CURRENT)).unwrap(),
        torn,
        "doctor alone changes nothing"
    );

    let out = run(root, &["doctor", "--fix", "--json"]);
    assert_eq!(code(&out), 3, "the 2.0 file is not fixable");
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["repaired"].as_array().unwrap().len(), 2);
    assert_eq!(report["problems"].as_array().unwrap().len(), 1);
    let copies: Vec<String> = files(root)
        .into_iter()
        .filter(|f| f.contains(".corrupt-"))
        .collect();
    assert_eq!(copies.len(), 2, "{copies:?}");
    let kept = copies
        .iter()
        .find(|c| c.starts_with(".claude/orchestrator-session.json.corrupt-"))
        .unwrap();
    assert_eq!(std::fs::read(root.join(kept)).unwrap(), torn);
    let out = run(root, &["resume", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["session_id"], "2025-12-27-abc123");
    let out = run(root, &["history", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let ids: Vec<&str> = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"2025-12-20-aa11f0"), "{ids:?}");
}

#[test]
fn schema_command_prints_the_committed_schema() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &["schema"]);
    assert_eq!(code(&out), 0);
    let printed: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let committed: Value = serde_json::from_slice(&vector("schema.json")).unwrap();
    assert_eq!(printed, committed);
}

#[test]
fn pause_refuses_to_write_a_session_it_could_not_read_back() {
    let dir = project(FIXTURE);
    let root = dir.path();
    // Compact under the 16 MiB read limit, pretty-printed over it.
    let mut v: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    let agent = v["agents"][0].clone();
    let agents = v["agents"].as_array_mut().unwrap();
    let per_agent = serde_json::to_vec(&agent).unwrap().len() + 1;
    let limit = 16 * 1024 * 1024;
    agents.extend(std::iter::repeat_n(agent, (limit - 4096) / per_agent));
    let compact = serde_json::to_vec(&v).unwrap();
    assert!(compact.len() < limit);
    assert!(serde_json::to_vec_pretty(&v).unwrap().len() > limit);
    std::fs::write(root.join(CURRENT), &compact).unwrap();
    let out = run(root, &["pause"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("error[invalid_input]"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(root.join(CURRENT)).unwrap(), compact);
    assert_eq!(code(&run(root, &["resume", "--json"])), 0);
}

#[test]
fn an_id_too_long_to_archive_is_reported_on_read_and_by_doctor() {
    let dir = project(FIXTURE);
    let root = dir.path();
    let id = "x".repeat(251);
    let mut v: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    v["session_id"] = Value::String(id.clone());
    std::fs::write(root.join(CURRENT), serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let out = run(root, &["resume"]);
    assert_eq!(code(&out), 0, "shown: {}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("warning: ") && err.contains(&id), "{err}");
    assert!(err.contains("too long for a file name"), "{err}");
    let out = run(root, &["archive"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("error[invalid_key]"));
    let out = run(root, &["doctor"]);
    assert_eq!(code(&out), 3);
    assert!(
        stdout(&out).contains("error[invalid_key]"),
        "{}",
        stdout(&out)
    );
    assert_eq!(code(&run(root, &["doctor", "--fix"])), 0);
    let v: Value = serde_json::from_slice(&std::fs::read(root.join(CURRENT)).unwrap()).unwrap();
    assert_eq!(v["session_id"], "x".repeat(250), "cut to fit a file name");
    assert_eq!(v["original_session_id"], id);
    assert_eq!(code(&run(root, &["archive"])), 0);
}

#[test]
fn complete_onto_an_existing_archive_changes_nothing_until_replace() {
    let dir = project(FIXTURE);
    let root = dir.path();
    let archived = root.join(".claude/orchestrator-history/2025-12-27-abc123.json");
    // A later save of the session, with another goal: not what a move of the current file left.
    let mut later: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    later["updated"] = "2099-01-01T00:00:00Z".into();
    later["goal"] = "a later goal".into();
    std::fs::write(&archived, serde_json::to_vec_pretty(&later).unwrap()).unwrap();
    let before = std::fs::read(root.join(CURRENT)).unwrap();
    for args in [["complete"], ["complete"], ["abort"]] {
        let out = run(root, &args);
        assert_eq!(code(&out), 3, "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("error[already_exists]"), "{err}");
        assert!(err.contains("--replace"), "{err}");
        assert_eq!(std::fs::read(root.join(CURRENT)).unwrap(), before);
    }
    let out = run(root, &["complete", "--replace"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!root.join(CURRENT).exists());
    let v: Value = serde_json::from_slice(&std::fs::read(&archived).unwrap()).unwrap();
    assert_eq!(v["status"], "complete");
}

#[test]
fn doctor_fix_moves_unsalvageable_files_aside_instead_of_inventing_sessions() {
    let dir = project(FIXTURE);
    let root = dir.path();
    std::fs::write(root.join(CURRENT), b"").unwrap();
    let junk = root.join(".claude/orchestrator-history/2025-12-25-junk.json");
    std::fs::write(&junk, b"[1,2,3]").unwrap();
    let out = run(root, &["doctor", "--fix"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("moved .claude/orchestrator-session.json aside: nothing could be salvaged"),
        "{text}"
    );
    assert!(
        text.contains("moved .claude/orchestrator-history/2025-12-25-junk.json aside"),
        "{text}"
    );
    assert!(!root.join(CURRENT).exists() && !junk.exists());
    assert_eq!(code(&run(root, &["resume"])), 1, "no invented session");
    let out = run(root, &["history", "--json"]);
    assert!(!stderr(&out).contains("skipped"), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        v["entries"].as_array().unwrap().len(),
        3,
        "only the real archives"
    );
}

#[test]
fn resume_and_show_json_without_a_session_print_null() {
    let dir = tempfile::tempdir().unwrap();
    for cmd in ["resume", "show"] {
        let out = run(dir.path(), &[cmd, "--json"]);
        assert_eq!(code(&out), 1, "{cmd}");
        let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert!(v.is_null(), "{cmd}: {v}");
    }
    assert_eq!(stdout(&run(dir.path(), &["show"])), "No current session\n");
}

#[test]
fn a_history_page_short_of_the_total_says_how_to_see_the_next() {
    let dir = project(FIXTURE);
    let root = dir.path();
    let out = run(root, &["history", "--limit", "2"]);
    assert_eq!(code(&out), 0, "{out:?}");
    assert_eq!(stdout(&out).lines().count(), 2, "{out:?}");
    assert_eq!(
        stderr(&out),
        "2 of 3 archived sessions shown: `--offset 2` for the next\n"
    );
    let last = run(root, &["history", "--offset", "2"]);
    assert_eq!(stdout(&last).lines().count(), 1, "{last:?}");
    assert_eq!(stderr(&last), "", "the last page says nothing more");
}

#[test]
fn history_pages_past_the_end_say_how_many_are_archived() {
    let dir = project(FIXTURE);
    let root = dir.path();
    for args in [
        &["history", "--limit", "0"][..],
        &["history", "--offset", "100"],
    ] {
        let out = run(root, args);
        assert_eq!(code(&out), 0, "{args:?}");
        assert_eq!(
            stdout(&out),
            "no sessions in this page (3 archived)\n",
            "{args:?}"
        );
    }
    let out = run(
        root,
        &["history", "--offset", "100", "--status", "complete"],
    );
    assert!(
        stdout(&out).starts_with("no sessions in this page ("),
        "{}",
        stdout(&out)
    );
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(
        stdout(&run(empty.path(), &["history"])),
        "No archived sessions\n"
    );
}

/// A current file holding an integer beyond 64 bits (another program wrote it) is shown, but no
/// command writes it again, `archive` included (it neither writes the nearest float nor removes
/// the current file); `doctor --fix` rewrites it after keeping the exact bytes.
#[test]
fn a_file_with_an_integer_beyond_64_bits_is_never_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    let seed = String::from_utf8(vector("seed-example.json")).unwrap();
    let big = seed.replacen('{', "{\n  \"x\": 99999999999999999999999,", 1);
    std::fs::write(root.join(CURRENT), &big).unwrap();
    assert_eq!(code(&run(root, &["show", "--json"])), 0);
    for args in [
        &["archive"][..],
        &["archive", "--replace"],
        &["pause"],
        &["complete"],
    ] {
        let out = run(root, args);
        assert_eq!(code(&out), 3, "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("99999999999999999999999"),
            "{}",
            stderr(&out)
        );
        assert_eq!(std::fs::read_to_string(root.join(CURRENT)).unwrap(), big);
    }
    assert!(!root.join(".claude/orchestrator-history").exists());
    assert_eq!(code(&run(root, &["doctor", "--fix"])), 0);
    assert_eq!(code(&run(root, &["archive"])), 0);
}

#[test]
fn resume_and_show_print_control_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    let mut doc: Value = serde_json::from_slice(&vector("seed-example.json")).unwrap();
    doc["goal"] = Value::String("evil\u{1b}]0;pwned\u{7}\u{1b}[31mRED\nline2".into());
    doc["agents"][0]["task"] = Value::String("t\nfake-agent-row".into());
    std::fs::write(root.join(CURRENT), serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    for command in ["resume", "show"] {
        let out = run(root, &[command]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let text = stdout(&out);
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{command}: {text:?}"
        );
        assert!(text.contains("evil\\u{1b}]0;pwned"), "{command}: {text:?}");
    }
    let text = stdout(&run(root, &["show"]));
    assert!(
        !text.lines().any(|l| l.starts_with("fake-agent-row")),
        "{text:?}"
    );
}
