//! A server killed and restarted under a loop of saves, a server that requires a password,
//! and a server that speaks TLS with a certificate the test makes: each on a server of its own.

mod common;

use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::Server;
use session_state::orchestrator::{OrchestratorSession, OrchestratorStore, Project};
use session_state::{Clock, ErrorKind, Key, Store};
use session_state_fs::SystemClock;
use session_state_redis::{RedisOptions, RedisStore};

fn plain_url(port: u16) -> String {
    format!("redis://127.0.0.1:{port}/0?connect_timeout_ms=300&command_timeout_ms=1000")
}

#[test]
fn saves_across_a_kill_9_and_restart_either_return_or_fail_as_storage_and_none_is_lost() {
    if common::url("kill_and_restart").is_none() {
        return;
    }
    let mut server = Server::start(&[], |p| common::answers(&plain_url(p)));
    let url = plain_url(server.port);
    let stop = Arc::new(AtomicBool::new(false));
    let saver = {
        let stop = Arc::clone(&stop);
        let url = url.clone();
        std::thread::spawn(move || {
            let sessions = OrchestratorStore::new(RedisStore::open(&url).unwrap(), SystemClock);
            let mut doc = OrchestratorSession::new(
                "redis-fault",
                "survive a restart",
                "auto",
                Project::new("p", "/p", None),
                SystemClock.now().into(),
            );
            let (mut saved, mut failed) = (Vec::new(), 0u32);
            let mut i = 0u32;
            while !stop.load(Ordering::SeqCst) || saved.len() < 20 {
                doc.pending_tasks.push(format!("task-{i}"));
                match sessions.save(&mut doc) {
                    Ok(_) => saved.push(i),
                    Err(e) => {
                        assert_eq!(e.kind(), ErrorKind::Storage, "{e}");
                        assert!(e.message().contains("127.0.0.1"), "{e}");
                        failed += 1;
                        std::thread::sleep(Duration::from_millis(10));
                    }
                }
                i += 1;
            }
            (saved, failed)
        })
    };
    std::thread::sleep(Duration::from_millis(400));
    server.kill();
    std::thread::sleep(Duration::from_millis(400));
    server.restart(|p| common::answers(&plain_url(p)));
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::SeqCst);
    let (saved, failed) = saver.join().expect("no panic while saving");
    println!(
        "{} saves returned, {failed} failed while the server was down",
        saved.len()
    );
    assert!(failed > 0, "the kill did not reach a save");
    let sessions = OrchestratorStore::new(RedisStore::open(&url).unwrap(), SystemClock);
    let doc = sessions.load().unwrap().expect("the session is there");
    for i in &saved {
        assert!(
            doc.pending_tasks.contains(&format!("task-{i}")),
            "save {i} returned but is lost"
        );
    }
}

#[test]
fn a_password_server_accepts_the_right_password_and_names_a_wrong_one() {
    if common::url("requirepass").is_none() {
        return;
    }
    let with = |port: u16, pw: &str| format!("redis://:{pw}@127.0.0.1:{port}/0?prefix=auth");
    let server = Server::start(&["--requirepass", "right-pw"], |p| {
        common::answers(&with(p, "right-pw"))
    });
    let key = Key::new("k").unwrap();
    let good = RedisStore::open(&with(server.port, "right-pw")).unwrap();
    good.write(&key, b"v").unwrap();
    assert_eq!(good.read(&key).unwrap().as_deref(), Some(&b"v"[..]));
    for url in [
        with(server.port, "wrong-pw"),
        format!("redis://127.0.0.1:{}/0", server.port),
    ] {
        let err = RedisStore::open(&url).unwrap().read(&key).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Storage, "{err}");
        assert!(err.message().contains("authentication"), "{err}");
        assert!(
            err.message()
                .contains(&format!("redis://127.0.0.1:{}/0", server.port)),
            "{err}"
        );
        assert!(!err.message().contains("wrong-pw"), "{err}");
    }
}

#[test]
fn refused_connections_and_timeouts_are_storage_errors_naming_the_server() {
    let port = common::free_port();
    let store = RedisStore::open(&format!(
        "redis://:secret-pw@127.0.0.1:{port}/3?connect_timeout_ms=200"
    ))
    .unwrap();
    let err = store.read(&Key::new("a/b").unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Storage);
    assert!(err.message().contains("connection refused"), "{err}");
    assert_eq!(
        err.context_value("server"),
        Some(format!("redis://127.0.0.1:{port}/3").as_str())
    );
    assert!(!err.to_string().contains("secret-pw"));
    // A listener that never answers: the command timeout ends the wait.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let store = RedisStore::open(&format!(
        "redis://127.0.0.1:{port}?command_timeout_ms=200&connect_timeout_ms=200"
    ))
    .unwrap();
    let start = Instant::now();
    let err = store.read(&Key::new("a").unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Storage, "{err}");
    assert!(start.elapsed() < Duration::from_secs(5), "{err}");
}

#[test]
fn a_server_that_does_not_speak_redis_is_a_storage_error_on_one_line() {
    // An HTTP-like server: it answers every connection with a status line and closes.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            use std::io::{Read, Write};
            let mut stream = stream;
            let mut request = [0u8; 512];
            let _ = stream.read(&mut request);
            let _ = stream.write_all(b"HTTP/1.0 400 Bad Request\r\n\r\n<html></html>\n");
        }
    });
    let store = RedisStore::open(&format!(
        "redis://127.0.0.1:{port}?command_timeout_ms=2000&connect_timeout_ms=2000"
    ))
    .unwrap();
    let err = store.read(&Key::new("a").unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Storage, "{err}");
    assert!(err.message().contains("not in the Redis protocol"), "{err}");
    assert!(!err.message().contains('\n'), "{err}");
}

#[test]
fn a_reply_of_the_wrong_type_is_a_storage_error() {
    let Some(url) = common::url("wrong_type") else {
        return;
    };
    let prefix = common::unique_prefix("wrongtype");
    let store = RedisStore::open(&common::with_prefix(&url, &prefix)).unwrap();
    let key = Key::new("dir/k").unwrap();
    store.write(&key, b"v").unwrap();
    // Someone else turns our value into a set.
    let raw = redis::Client::open(url.as_str()).unwrap();
    let mut conn = raw.get_connection().unwrap();
    let name = format!("{prefix}:v:dir/k");
    redis::cmd("DEL").arg(&name).exec(&mut conn).unwrap();
    redis::cmd("SADD")
        .arg(&name)
        .arg("x")
        .exec(&mut conn)
        .unwrap();
    let err = store.read(&key).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Storage, "{err}");
    assert_eq!(err.context_value("key"), Some("dir/k"));
}

/// Makes a self-signed certificate for 127.0.0.1 in `dir`: (cert, key) paths. It is marked
/// `CA:FALSE`: rustls refuses a CA certificate as the server's own.
fn self_signed(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    let status = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        ])
        .args(["-subj", "/CN=127.0.0.1"])
        .args(["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
        .args(["-addext", "basicConstraints=critical,CA:FALSE"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("openssl runs");
    assert!(status.success());
    (cert, key)
}

#[test]
fn tls_with_a_self_signed_certificate_works_when_trusted_and_fails_as_storage_when_not() {
    if common::url("tls").is_none() {
        return;
    }
    let certs = tempfile::tempdir().unwrap();
    let (cert, key) = self_signed(certs.path());
    let pem = std::fs::read(&cert).unwrap();
    let trusted = |port: u16| {
        RedisStore::with_options(
            RedisOptions::parse(&format!("rediss://127.0.0.1:{port}/0?prefix=tls"))
                .unwrap()
                .with_ca_certificate(pem.clone()),
        )
        .unwrap()
    };
    let (cert_arg, key_arg) = (cert.display().to_string(), key.display().to_string());
    let server = Server::start(
        &[
            "--tls-port",
            "PORT",
            "--tls-cert-file",
            &cert_arg,
            "--tls-key-file",
            &key_arg,
            "--tls-ca-cert-file",
            &cert_arg,
            "--tls-auth-clients",
            "no",
        ],
        |p| trusted(p).ping().is_ok(),
    );
    let store = trusted(server.port);
    let k = Key::new("secure/doc").unwrap();
    store.write(&k, b"over tls").unwrap();
    assert_eq!(store.read(&k).unwrap().as_deref(), Some(&b"over tls"[..]));
    assert_eq!(
        store.list(&Key::new("secure").unwrap()).unwrap(),
        std::slice::from_ref(&k)
    );
    // Without trusting the certificate, the handshake fails as a storage error.
    let untrusted = RedisStore::open(&format!("rediss://127.0.0.1:{}/0", server.port)).unwrap();
    let err = untrusted.read(&k).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Storage, "{err}");
    // A plain connection to the TLS port does not get a value either.
    let plain = RedisStore::open(&format!(
        "redis://127.0.0.1:{}/0?command_timeout_ms=500",
        server.port
    ))
    .unwrap();
    assert_eq!(plain.read(&k).unwrap_err().kind(), ErrorKind::Storage);
}
