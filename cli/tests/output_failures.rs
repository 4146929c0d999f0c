//! The CLI never panics when its output cannot be written, and usage errors follow the
//! documented `error[<code>]: <message>` format.

use std::io::Read;
use std::process::Stdio;

mod common;
use common::bin;

#[test]
fn output_into_a_closed_pipe_exits_141_without_a_panic() {
    // A registry of 3,000 agents lists as far more than the 64 KiB a Linux pipe buffers.
    let dir = tempfile::tempdir().unwrap();
    let memory = dir.path().join(".moai/memory");
    std::fs::create_dir_all(&memory).unwrap();
    let mut sessions = serde_json::Map::new();
    let mut metadata = serde_json::Map::new();
    for i in 0..3000 {
        sessions.insert(format!("agent-{i}"), format!("id-{i}").into());
        metadata.insert(
            format!("id-{i}"),
            serde_json::json!({"agent_name": format!("agent-{i}"), "created_at": "2026-01-01T00:00:00",
                               "chain_id": null, "resume_count": 0}),
        );
    }
    let doc = serde_json::json!({"sessions": sessions, "chains": {}, "metadata": metadata,
                                 "last_updated": "2026-01-01T00:00:00"});
    std::fs::write(memory.join("agent-sessions.json"), doc.to_string()).unwrap();

    let mut child = bin()
        .args(["agents", "--root"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // read one byte, then close
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn full_disk_on_stdout_is_a_storage_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full on this system");
        return;
    };
    let out = bin().arg("schema").stdout(full).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.starts_with("error[storage]: cannot write to stdout"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A stderr that cannot be written (`2>/dev/full`) loses the message, never the exit code: a
/// command ends with its documented code, the hook with 0.
#[cfg(target_os = "linux")]
#[test]
fn a_full_stderr_keeps_the_documented_exit_codes() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let out = bin()
        .arg("resume")
        .arg("--root")
        .arg(&missing)
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let out = bin()
        .args(["agent", "progress", "x", "nope"])
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let mut hook = bin()
        .arg("hook")
        .stdin(Stdio::piped())
        .stderr(full())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut hook.stdin.take().unwrap(), b"not json").unwrap();
    assert_eq!(hook.wait().unwrap().code(), Some(0));
}

#[test]
fn usage_errors_use_the_documented_format_and_exit_2() {
    for args in [
        &["team", "-x"][..],
        &["should-resume", "a", "--task", "t", "--policy", "bogus"],
    ] {
        let out = bin().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error[invalid_input]: "),
            "{args:?}: {stderr}"
        );
    }
    let help = bin().arg("--help").output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("Exit codes:"));
}
