//! Every input of the binary is bounded (`--max-bytes`, `SESSION_STATE_MAX_BYTES`): an endless
//! source is refused with `invalid_input` naming it and the way to raise the limit.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

mod common;
use common::{repo, stderr};

/// `session-state --root ROOT`, arguments to follow.
fn bin(root: &Path) -> Command {
    let mut cmd = common::bin();
    cmd.arg("--root").arg(root);
    cmd
}

fn assert_too_large(out: &Output, name: &str) {
    let text = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.starts_with("error[invalid_input]: "), "{text}");
    assert!(text.contains(name), "{text}");
    assert!(text.contains("`--max-bytes`"), "{text}");
    assert!(text.contains("`SESSION_STATE_MAX_BYTES`"), "{text}");
}

#[test]
fn a_result_file_that_never_ends_is_refused_at_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin(dir.path())
        .args(["register", "a", "id", "--result-file", "/dev/zero"])
        .output()
        .unwrap();
    assert_too_large(&out, "`/dev/zero`");
    assert!(stderr(&out).contains("16777216 bytes"), "{}", stderr(&out));
    let out = bin(dir.path())
        .args(["--max-bytes", "1K", "register", "a", "id", "--result-file"])
        .arg("/dev/zero")
        .output()
        .unwrap();
    assert_too_large(&out, "1024 bytes");
}

#[test]
fn an_endless_pipe_on_stdin_is_refused_at_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = bin(dir.path())
        .args(["register", "a", "id", "--result-file", "-"])
        .env("SESSION_STATE_MAX_BYTES", "64KiB")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = [b' '; 4096];
        // Stops when the binary closes the pipe.
        while stdin.write_all(&chunk).is_ok() {}
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_too_large(&out, "stdin");
    assert!(stderr(&out).contains("65536 bytes"), "{}", stderr(&out));
}

#[test]
fn a_result_within_a_raised_limit_is_registered() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("result.json");
    std::fs::write(&file, format!("\"{}\"", "x".repeat(3000))).unwrap();
    let register = |limit: &str| {
        bin(dir.path())
            .args(["register", "a", "id", "--result-file"])
            .arg(&file)
            .env("SESSION_STATE_MAX_BYTES", limit)
            .output()
            .unwrap()
    };
    assert_too_large(&register("2K"), "result.json");
    let out = register("4K");
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_bad_limit_names_the_flag_or_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin(dir.path())
        .args(["--max-bytes", "lots", "agents"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`--max-bytes`"), "{}", stderr(&out));
    let out = bin(dir.path())
        .arg("agents")
        .env("SESSION_STATE_MAX_BYTES", "-1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`SESSION_STATE_MAX_BYTES`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_session_file_over_the_limit_reads_with_a_raised_limit() {
    let dir = tempfile::tempdir().unwrap();
    let seed = std::fs::read(repo().join("tests/vectors/orchestrator/seed-example.json")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_slice(&seed).unwrap();
    // An unknown field makes the file just over the default 16 MiB.
    doc["notes"] = "n".repeat(16 * 1024 * 1024).into();
    let claude = dir.path().join(".claude");
    std::fs::create_dir(&claude).unwrap();
    std::fs::write(
        claude.join("orchestrator-session.json"),
        serde_json::to_vec(&doc).unwrap(),
    )
    .unwrap();
    let out = bin(dir.path()).arg("show").output().unwrap();
    assert_too_large(&out, "orchestrator-session.json");
    let out = bin(dir.path())
        .args(["--max-bytes", "32MiB", "show"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = bin(dir.path())
        .args(["--max-bytes", "32MiB", "pause"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_registry_file_over_the_limit_is_refused_and_doctor_fix_sets_it_aside() {
    let dir = tempfile::tempdir().unwrap();
    let memory = dir.path().join(".moai/memory");
    std::fs::create_dir_all(&memory).unwrap();
    let file = memory.join("agent-sessions.json");
    let doc = serde_json::json!({"sessions": {"a": "id-1"}, "chains": {}, "metadata": {},
                                 "x-pad": "p".repeat(4096)});
    let bytes = serde_json::to_vec(&doc).unwrap();
    std::fs::write(&file, &bytes).unwrap();
    let out = bin(dir.path())
        .args(["--max-bytes", "1K", "register", "b", "id-2"])
        .output()
        .unwrap();
    assert_too_large(&out, "agent-sessions.json");
    let out = bin(dir.path())
        .arg("agents")
        .env("SESSION_STATE_MAX_BYTES", "1K")
        .output()
        .unwrap();
    assert_too_large(&out, "agent-sessions.json");
    assert_eq!(std::fs::read(&file).unwrap(), bytes, "untouched");
    // A raised limit reads it.
    let out = bin(dir.path())
        .args(["--max-bytes", "8K", "agents"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // The way out: `doctor --fix` keeps the bytes aside and starts the file empty.
    let out = bin(dir.path())
        .args(["--max-bytes", "1K", "doctor", "--fix"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let kept: Vec<_> = std::fs::read_dir(&memory)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("agent-sessions.json.corrupt-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(
        std::fs::read(&kept[0]).unwrap(),
        bytes,
        "the bytes are kept aside"
    );
    let out = bin(dir.path())
        .args(["--max-bytes", "1K", "register", "b", "id-2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_team_file_over_the_limit_is_reported_with_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = dir.path().join("teams/t/sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let doc = serde_json::json!({"name": "a", "backendType": "codex", "prompt": "p".repeat(4096),
                                 "createdAt": "2026-03-01T12:34:56Z"});
    std::fs::write(sessions.join("a.json"), serde_json::to_vec(&doc).unwrap()).unwrap();
    let out = bin(dir.path())
        .args(["--max-bytes", "1K", "team", "t", "--json"])
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert!(text.contains("invalid_input"), "{text}");
    assert!(text.contains("limit of 1024 bytes"), "{text}");
    let out = bin(dir.path())
        .args(["--max-bytes", "8K", "team", "t", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("invalid_input"));
}
