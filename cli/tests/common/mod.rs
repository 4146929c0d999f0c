//! Helpers shared by the CLI's integration tests: the real binary run in a project folder,
//! its output, the repository's vectors, Claude Code hook payloads and a snapshot of a tree.
#![allow(dead_code)] // each test file uses some of them

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

/// The current orchestrator session file, relative to the project root.
pub const CURRENT: &str = ".claude/orchestrator-session.json";

/// The repository's root (for `tests/vectors/` and `examples/`).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `session-state` binary, without an input limit from the environment.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_session-state"));
    cmd.env_remove("SESSION_STATE_MAX_BYTES");
    cmd
}

/// Runs `session-state --root ROOT ARGS...`; whatever its exit code, it must not panic.
pub fn run(root: &Path, args: &[&str]) -> Output {
    let out = bin().arg("--root").arg(root).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    out
}

/// Runs `args` in `root`, expects exit 0 and returns stdout.
pub fn ok(root: &Path, args: &[&str]) -> String {
    let out = run(root, args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// Runs `args` in `root` as the owner `owner` (`SESSION_STATE_OWNER`), expects exit 0 and
/// returns stdout.
pub fn ok_as(root: &Path, owner: &str, args: &[&str]) -> String {
    let out = bin()
        .env("SESSION_STATE_OWNER", owner)
        .arg("--root")
        .arg(root)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// The stdout of `out`, which must be UTF-8.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The stderr of `out`, which must be UTF-8.
pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// The exit code of `out` (a signal is a failure of the test).
pub fn code(out: &Output) -> i32 {
    out.status.code().unwrap()
}

/// Copies the folder `from` into `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// The seed's example session, `tests/vectors/orchestrator/seed-example.json`.
pub fn seed() -> Value {
    let bytes = std::fs::read(repo().join("tests/vectors/orchestrator/seed-example.json")).unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

/// The current session document of the project at `root`.
pub fn current(root: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(root.join(CURRENT)).unwrap()).unwrap()
}

/// Every file below `root` with its bytes, sorted by path.
pub fn tree(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
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

/// Runs `session-state hook ARGS...` with `stdin` (no `--root`, no `$CLAUDE_PROJECT_DIR`
/// unless `project_dir`); expects exit 0 and no panic. The hook stops reading past its input
/// limit, so an unfinished write of `stdin` is no failure here.
pub fn hook_with(stdin: &[u8], project_dir: Option<&Path>, args: &[&str]) -> Output {
    hook_run(stdin, project_dir, args, None).0
}

/// Runs `session-state hook` with `payload` on stdin, which it must read whole; expects exit 0
/// and no panic.
pub fn hook(payload: &Value) -> Output {
    let (out, written) = hook_run(payload.to_string().as_bytes(), None, &[], None);
    written.expect("the hook read its whole payload");
    out
}

/// [`hook`] with `CLAUDE_ENV_FILE` set to `env_file`, as Claude Code runs a `SessionStart` hook.
pub fn hook_with_env_file(payload: &Value, env_file: &Path) -> Output {
    let (out, written) = hook_run(payload.to_string().as_bytes(), None, &[], Some(env_file));
    written.expect("the hook read its whole payload");
    out
}

fn hook_run(
    stdin: &[u8],
    project_dir: Option<&Path>,
    args: &[&str],
    env_file: Option<&Path>,
) -> (Output, std::io::Result<()>) {
    let mut cmd = bin();
    cmd.arg("hook")
        .args(args)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("CLAUDE_ENV_FILE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = project_dir {
        cmd.env("CLAUDE_PROJECT_DIR", dir);
    }
    if let Some(file) = env_file {
        cmd.env("CLAUDE_ENV_FILE", file);
    }
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&bytes));
    let out = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out, written)
}

/// A payload of `event` as Claude Code documents it, from `cwd`, with `extra` members.
pub fn payload(event: &str, cwd: &Path, extra: &Value) -> Value {
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
