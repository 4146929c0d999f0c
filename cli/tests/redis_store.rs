//! `--store URL` and `SESSION_STATE_STORE` through the real binary, on the Redis server of
//! `SESSION_STATE_TEST_REDIS` (scripts/ci/35-redis.sh sets it; the tests say they were skipped
//! without it).

use std::path::Path;
use std::process::{Command, Output};

fn server(test: &str) -> Option<String> {
    match std::env::var("SESSION_STATE_TEST_REDIS") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            eprintln!("skipped {test}: SESSION_STATE_TEST_REDIS is not set");
            None
        }
    }
}

fn store_url(server: &str, test: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let sep = if server.contains('?') { '&' } else { '?' };
    format!(
        "{server}{sep}prefix=cli-{test}-{}-{nanos}",
        std::process::id()
    )
}

fn run(root: &Path, env_store: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_session-state"));
    cmd.arg("--root").arg(root).args(args);
    cmd.env_remove("SESSION_STATE_STORE");
    if let Some(url) = env_store {
        cmd.env("SESSION_STATE_STORE", url);
    }
    cmd.output().unwrap()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn sessions_and_the_registry_live_on_the_server_not_in_the_folder() {
    let Some(server) = server("sessions_and_the_registry") else {
        return;
    };
    let url = store_url(&server, "sessions");
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let store = ["--store", url.as_str()];
    ok(&run(
        root,
        None,
        &[&store[..], &["new", "--goal", "ship it", "--id", "s-redis"]].concat(),
    ));
    ok(&run(
        root,
        None,
        &[
            &store[..],
            &["register", "builder", "b-1", "--result", "{\"ok\": 1}"],
        ]
        .concat(),
    ));
    // Nothing was written to the folder.
    assert_eq!(std::fs::read_dir(root).unwrap().count(), 0);
    // The environment variable names the same store.
    let shown = ok(&run(root, Some(&url), &["show", "--json"]));
    assert!(shown.contains("\"s-redis\""), "{shown}");
    assert!(shown.contains("ship it"), "{shown}");
    let agents = ok(&run(root, Some(&url), &["agents"]));
    assert!(agents.contains("b-1"), "{agents}");
    // The folder itself has no session.
    assert!(!run(root, None, &["show", "--json"]).status.success());
    // Complete archives on the server; history lists it from there.
    ok(&run(root, Some(&url), &["start"]));
    ok(&run(root, Some(&url), &["complete"]));
    let history = ok(&run(root, Some(&url), &["history"]));
    assert!(history.contains("s-redis"), "{history}");
    assert_eq!(std::fs::read_dir(root).unwrap().count(), 0);
}

#[test]
fn a_store_that_is_not_a_redis_url_is_invalid_input_and_a_down_server_is_storage() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), None, &["--store", "/tmp/elsewhere", "show"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("redis://"), "{err}");
    assert!(err.contains("invalid_input"), "{err}");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("redis://:hidden-pw@127.0.0.1:{port}/0?connect_timeout_ms=200");
    let out = run(dir.path(), Some(&url), &["show"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("storage"), "{err}");
    assert!(err.contains(&format!("127.0.0.1:{port}")), "{err}");
    assert!(!err.contains("hidden-pw"), "{err}");
}

/// `session-state [args] hook` with `payload` on stdin, the store from `env_store` if any.
fn hook(
    root: &Path,
    env_store: Option<&str>,
    args: &[&str],
    payload: &serde_json::Value,
) -> Output {
    use std::io::Write;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_session-state"));
    cmd.args(args)
        .arg("hook")
        .env("CLAUDE_PROJECT_DIR", root)
        .env_remove("SESSION_STATE_STORE")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    if let Some(url) = env_store {
        cmd.env("SESSION_STATE_STORE", url);
    }
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A hook whose store is refused exits before it reads the payload: the pipe may be closed.
    if let Err(e) = stdin.write_all(payload.to_string().as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "a hook always exits 0: {out:?}");
    out
}

fn event(name: &str, root: &Path, extra: serde_json::Value) -> serde_json::Value {
    let mut p = serde_json::json!({"session_id": "c-1", "cwd": root, "hook_event_name": name});
    let serde_json::Value::Object(extra) = extra else {
        panic!("extra fields are an object")
    };
    for (k, v) in extra {
        p[k.as_str()] = v;
    }
    p
}

fn quiet(out: &Output) {
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
}

#[test]
fn the_hook_records_on_the_server_named_by_the_flag_or_the_variable() {
    let Some(server) = server("the_hook_records_on_the_server") else {
        return;
    };
    let url = store_url(&server, "hook");
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join(".moai")).unwrap();
    let flag = ["--store", url.as_str()];
    ok(&run(
        root,
        Some(&url),
        &["new", "--goal", "hooked", "--id", "s-hook"],
    ));
    let agent = serde_json::json!({"agent_id": "agent-9", "agent_type": "Explore"});
    quiet(&hook(
        root,
        None,
        &flag,
        &event("SubagentStart", root, agent.clone()),
    ));
    let mut stop = agent;
    stop["last_assistant_message"] = "found it".into();
    quiet(&hook(
        root,
        Some(&url),
        &[],
        &event("SubagentStop", root, stop),
    ));
    quiet(&hook(
        root,
        Some(&url),
        &[],
        &event("Stop", root, serde_json::json!({})),
    ));
    // SessionStart hands over the resume block of the session on the server.
    let out = hook(
        root,
        None,
        &flag,
        &event(
            "SessionStart",
            root,
            serde_json::json!({"source": "resume"}),
        ),
    );
    let context: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = context["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(text.contains("hooked"), "{text}");
    // What the events recorded is on the server, read back by other commands.
    let shown: serde_json::Value =
        serde_json::from_str(&ok(&run(root, Some(&url), &["show", "--json"]))).unwrap();
    assert_eq!(shown["status"], "in_progress");
    assert_eq!(shown["agents"][0]["id"], "agent-9");
    assert_eq!(shown["agents"][0]["status"], "complete");
    let agents: serde_json::Value =
        serde_json::from_str(&ok(&run(root, Some(&url), &["agents", "--json"]))).unwrap();
    assert_eq!(agents[0]["agent_name"], "Explore");
    assert_eq!(agents[0]["agent_id"], "agent-9");
    quiet(&hook(
        root,
        None,
        &flag,
        &event("SessionEnd", root, serde_json::json!({})),
    ));
    let shown = ok(&run(root, Some(&url), &["show", "--json"]));
    assert!(shown.contains("\"paused\""), "{shown}");
    // Nothing in the folder but the `.moai/` the test made, empty.
    let names: Vec<_> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, [".moai"]);
    assert_eq!(std::fs::read_dir(root.join(".moai")).unwrap().count(), 0);
}

#[test]
fn a_hook_with_a_bad_store_exits_0_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let stop = event("Stop", root, serde_json::json!({}));
    let out = hook(root, None, &["--store", "/tmp/elsewhere"], &stop);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("invalid_input") && err.contains("redis://"),
        "{err}"
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("redis://:hidden-pw@127.0.0.1:{port}/0?connect_timeout_ms=200");
    let out = hook(root, Some(&url), &[], &stop);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("storage") && err.contains(&format!("127.0.0.1:{port}")),
        "{err}"
    );
    assert!(!err.contains("hidden-pw"), "{err}");
    assert_eq!(std::fs::read_dir(root).unwrap().count(), 0);
}

/// A server that accepts connections and never answers: each hook event ends, with one line
/// on stderr, within the host's 10 s (`hooks.json`), whatever timeouts the URL asks for.
#[test]
fn a_hook_on_a_server_that_never_answers_ends_within_the_hosts_timeout() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let url =
        format!("redis://127.0.0.1:{port}/0?connect_timeout_ms=30000&command_timeout_ms=30000");
    for name in ["SessionStart", "Stop"] {
        let start = std::time::Instant::now();
        let out = hook(
            root,
            Some(&url),
            &[],
            &event(name, root, serde_json::json!({})),
        );
        let took = start.elapsed();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("storage") && err.contains("timed out"),
            "{err}"
        );
        assert!(
            took < std::time::Duration::from_secs(10),
            "{name} took {took:?}"
        );
    }
}
