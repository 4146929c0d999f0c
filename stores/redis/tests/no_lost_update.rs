//! No update is lost when 4 processes share one key on the server: 4 x 250
//! `counter_increment`s end at exactly 1,000, and 4 x 250 registrations into one registry are
//! all present.
//!
//! The parent re-executes this test binary: with `CHILD_ROLE` set, the test plays one worker
//! and writes what it did to the file named by `CHILD_OUT`.

mod common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use session_state::Key;
use session_state::conformance::{counter_increment, counter_value};
use session_state::registry::AgentRegistry;
use session_state_fs::SystemClock;
use session_state_redis::RedisStore;

const WORKERS: u64 = 4;
const PER_WORKER: u64 = 250;
const ROLE: &str = "CHILD_ROLE";
const OUT: &str = "CHILD_OUT";
const STORE_URL: &str = "CHILD_STORE_URL";
const WORKER: &str = "CHILD_WORKER";

/// Runs `WORKERS` children of `test`, each with its worker number, and returns their outputs.
fn run_workers(test: &str, url: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let mut children: Vec<_> = (0..WORKERS)
        .map(|w| {
            let out = dir.path().join(format!("worker-{w}"));
            (
                out.clone(),
                common::child(
                    test,
                    &[
                        (ROLE, "worker".to_owned()),
                        (OUT, out.display().to_string()),
                        (STORE_URL, url.to_owned()),
                        (WORKER, w.to_string()),
                    ],
                ),
            )
        })
        .collect();
    let start = Instant::now();
    for (_, child) in &mut children {
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                assert!(status.success(), "worker failed: {status}");
                break;
            }
            if start.elapsed() > Duration::from_secs(300) {
                let _ = child.kill();
                panic!("worker {} did not finish in time", child.id());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    children
        .iter()
        .map(|(out, _)| std::fs::read_to_string(out).unwrap())
        .collect()
}

fn is_worker() -> Option<(RedisStore, String, u64)> {
    if std::env::var(ROLE).ok()? != "worker" {
        return None;
    }
    let store = RedisStore::open(&std::env::var(STORE_URL).unwrap()).unwrap();
    let worker = std::env::var(WORKER).unwrap().parse().unwrap();
    Some((store, std::env::var(OUT).unwrap(), worker))
}

#[test]
fn counter_increments_from_4_processes_are_all_counted() {
    let key = Key::new("shared/counter").unwrap();
    if let Some((store, out, _)) = is_worker() {
        let values: Vec<String> = (0..PER_WORKER)
            .map(|_| counter_increment(&store, &key).unwrap().to_string())
            .collect();
        std::fs::write(out, values.join("\n")).unwrap();
        return;
    }
    let Some(url) = common::url("counter_increments_from_4_processes_are_all_counted") else {
        return;
    };
    let url = common::with_prefix(&url, &common::unique_prefix("counter"));
    let outputs = run_workers("counter_increments_from_4_processes_are_all_counted", &url);
    let total = WORKERS * PER_WORKER;
    let store = RedisStore::open(&url).unwrap();
    assert_eq!(counter_value(&store, &key).unwrap(), total);
    let seen: Vec<u64> = outputs
        .iter()
        .flat_map(|o| o.lines().map(|l| l.parse::<u64>().unwrap()))
        .collect();
    assert_eq!(seen.len() as u64, total);
    let distinct: BTreeSet<u64> = seen.into_iter().collect();
    assert_eq!(distinct, (1..=total).collect::<BTreeSet<u64>>());
}

#[test]
fn registrations_from_4_processes_are_all_present() {
    if let Some((store, out, worker)) = is_worker() {
        let registry = AgentRegistry::new(store, SystemClock);
        for i in 0..PER_WORKER {
            registry
                .register(
                    &format!("name-{worker}-{i}"),
                    &format!("agent-{worker}-{i}"),
                    serde_json::json!({ "worker": worker, "i": i }),
                    None,
                )
                .unwrap();
        }
        std::fs::write(out, "done").unwrap();
        return;
    }
    let Some(url) = common::url("registrations_from_4_processes_are_all_present") else {
        return;
    };
    let url = common::with_prefix(&url, &common::unique_prefix("registry"));
    let outputs = run_workers("registrations_from_4_processes_are_all_present", &url);
    assert!(outputs.iter().all(|o| o == "done"));
    let registry = AgentRegistry::new(RedisStore::open(&url).unwrap(), SystemClock);
    let ids: BTreeSet<String> = registry
        .agents(None)
        .unwrap()
        .into_iter()
        .map(|a| a.agent_id)
        .collect();
    let expected: BTreeSet<String> = (0..WORKERS)
        .flat_map(|w| (0..PER_WORKER).map(move |i| format!("agent-{w}-{i}")))
        .collect();
    assert_eq!(ids.len(), 1000);
    assert_eq!(ids, expected);
    for id in &expected {
        assert!(
            registry.agent_result(id).unwrap().is_some(),
            "no result for {id}"
        );
    }
}
