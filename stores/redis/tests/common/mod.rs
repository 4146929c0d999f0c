//! Test helpers: the server CI started (`SESSION_STATE_TEST_REDIS`), and throwaway servers
//! for the tests that restart one, require a password or speak TLS.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use session_state_redis::RedisStore;

/// The variable holding the URL of the server the tests use.
pub const URL_VAR: &str = "SESSION_STATE_TEST_REDIS";

/// The server's URL, or `None` (after saying the test is skipped) when the variable is unset.
/// `scripts/ci/35-redis.sh` always sets it, so CI always runs these tests.
pub fn url(test: &str) -> Option<String> {
    match std::env::var(URL_VAR) {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            eprintln!("skipped {test}: {URL_VAR} is not set (scripts/ci/35-redis.sh sets it)");
            None
        }
    }
}

/// A prefix no other test run uses.
pub fn unique_prefix(test: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("test-{test}-{}-{nanos}", std::process::id())
}

/// `url` with the query parameter `prefix` (and any other `extra` parameters).
pub fn with_prefix(url: &str, prefix: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}prefix={prefix}")
}

/// A store on the CI server under a fresh prefix.
pub fn store(url: &str, test: &str) -> RedisStore {
    RedisStore::open(&with_prefix(url, &unique_prefix(test))).unwrap()
}

/// A port nothing listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A `redis-server` of our own on 127.0.0.1, with AOF `appendfsync always` in a temp dir;
/// killed when dropped.
pub struct Server {
    pub port: u16,
    pub dir: tempfile::TempDir,
    extra: Vec<String>,
    child: Option<Child>,
}

impl Server {
    /// Starts a server with `extra` arguments (e.g. `--requirepass x`); `ready` checks it
    /// answers.
    pub fn start(extra: &[&str], ready: impl Fn(u16) -> bool) -> Server {
        let mut server = Server {
            port: free_port(),
            dir: tempfile::tempdir().unwrap(),
            extra: extra.iter().map(|s| (*s).to_owned()).collect(),
            child: None,
        };
        server.spawn(&ready);
        server
    }

    /// The arguments that put the listening port where `extra` wants it (TLS servers listen
    /// with `--tls-port` and `--port 0`).
    fn spawn(&mut self, ready: &impl Fn(u16) -> bool) {
        let tls = self.extra.iter().any(|a| a == "--tls-port");
        let mut cmd = Command::new("redis-server");
        if tls {
            cmd.args(["--port", "0"]);
        } else {
            cmd.args(["--port", &self.port.to_string()]);
        }
        cmd.args(["--bind", "127.0.0.1", "--save", "", "--appendonly", "yes"])
            .args(["--appendfsync", "always", "--daemonize", "no"])
            .arg("--dir")
            .arg(self.dir.path())
            .args(self.extra.iter().map(|a| {
                if a == "PORT" {
                    self.port.to_string()
                } else {
                    a.clone()
                }
            }))
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        self.child = Some(cmd.spawn().expect("redis-server runs"));
        let start = Instant::now();
        while !ready(self.port) {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "redis-server did not come up on port {}",
                self.port
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills the server with SIGKILL and waits for it.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().unwrap();
            child.wait().unwrap();
        }
    }

    /// Starts it again on the same port and folder.
    pub fn restart(&mut self, ready: impl Fn(u16) -> bool) {
        self.spawn(&ready);
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Whether a plain server answers PING on `url`.
pub fn answers(url: &str) -> bool {
    RedisStore::open(url).is_ok_and(|s| s.ping().is_ok())
}

/// Runs this test binary's test `test` as a child process with `vars` set. Its stdout (the
/// harness's own summary) is dropped so CI counts each test once; panics still show on stderr.
pub fn child(test: &str, vars: &[(&str, String)]) -> Child {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([test, "--exact", "--nocapture", "--test-threads", "1"])
        .stdout(Stdio::null());
    for (name, value) in vars {
        cmd.env(name, value);
    }
    cmd.spawn().unwrap()
}
