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
