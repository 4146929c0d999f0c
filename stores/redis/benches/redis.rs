//! The Redis store against a bare `GET`/`SET` of the same bytes and against the filesystem
//! store, on the server named by `SESSION_STATE_BENCH_REDIS` (`benches/redis.sh` starts one and
//! runs this; without the variable every bench says it was skipped):
//!
//! - `redis_bytes_200_agents`: `RedisStore::read`/`write` of the 200-agent session's bytes, and
//!   a bare `GET`/`SET` of the same bytes on one connection of the `redis` crate;
//! - `store_200_agents`: `OrchestratorStore::save`/`load` of that session and one registration
//!   into a registry of 200 (the same agent registered again: the document keeps its size),
//!   through `RedisStore` and `FsStore` (`Durability::Atomic`, no fsync);
//! - `store_history_10000`: `list_history` (limit 10, index warm) over 10,000 archived
//!   sessions, through both stores.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use session_state::orchestrator::{HistoryQuery, OrchestratorStore, history_dir};
use session_state::registry::AgentRegistry;
use session_state::{Key, Store};
use session_state_fs::{Durability, FsStore};
use session_state_redis::RedisStore;

#[path = "../../../core/benches/common/mod.rs"]
mod common;
use common::{archived, clock, session};

/// The variable naming the server (`redis://host:port/db`, no query).
const URL_VAR: &str = "SESSION_STATE_BENCH_REDIS";

fn server(bench: &str) -> Option<String> {
    let url = std::env::var(URL_VAR).ok().filter(|u| !u.is_empty());
    if url.is_none() {
        eprintln!("skipped {bench}: {URL_VAR} is not set (benches/redis.sh sets it)");
    }
    url
}

/// A store on `url` under a prefix of its own.
fn redis_store(url: &str, name: &str) -> RedisStore {
    RedisStore::open(&format!("{url}?prefix=bench-{name}-{}", std::process::id())).unwrap()
}

fn fs_store(dir: &tempfile::TempDir) -> FsStore {
    FsStore::new(dir.path())
        .unwrap()
        .with_durability(Durability::Atomic)
}

fn bytes(c: &mut Criterion) {
    let Some(url) = server("redis_bytes_200_agents") else {
        return;
    };
    let data = session(200).to_pretty_json();
    let store = redis_store(&url, "bytes");
    let key = Key::new("bench/doc").unwrap();
    let mut bare = redis::Client::open(url.as_str())
        .unwrap()
        .get_connection()
        .unwrap();
    let bare_key = format!("bench-bare-{}", std::process::id());
    let mut group = c.benchmark_group("redis_bytes_200_agents");
    group.bench_function("write/store", |b| {
        b.iter(|| store.write(&key, black_box(&data)).unwrap());
    });
    group.bench_function("write/bare_set", |b| {
        b.iter(|| {
            redis::cmd("SET")
                .arg(&bare_key)
                .arg(black_box(&data))
                .exec(&mut bare)
                .unwrap();
        });
    });
    group.bench_function("read/store", |b| {
        b.iter(|| black_box(store.read(&key).unwrap().unwrap()));
    });
    group.bench_function("read/bare_get", |b| {
        b.iter(|| {
            let got: Vec<u8> = redis::cmd("GET").arg(&bare_key).query(&mut bare).unwrap();
            black_box(got)
        });
    });
    group.finish();
    assert_eq!(store.read(&key).unwrap().unwrap(), data);
}

/// A registry holding 200 registrations.
fn registry<S: Store>(store: S) -> AgentRegistry<S, session_state::FixedClock> {
    let registry = AgentRegistry::new(store, clock());
    for i in 0..200 {
        let result = json!({"spec_id": format!("SPEC-{i}"), "status": "success"});
        let chain = format!("chain-{}", i % 20);
        registry
            .register(
                &format!("agent-{i}"),
                &format!("id-{i}"),
                result,
                Some(&chain),
            )
            .unwrap();
    }
    registry
}

fn save_load(c: &mut Criterion) {
    let Some(url) = server("store_200_agents") else {
        return;
    };
    let doc = session(200);
    let dir = tempfile::tempdir().unwrap();
    let fs = OrchestratorStore::new(fs_store(&dir), clock());
    let redis = OrchestratorStore::new(redis_store(&url, "save"), clock());
    let reg_dir = tempfile::tempdir().unwrap();
    let fs_reg = registry(fs_store(&reg_dir));
    let redis_reg = registry(redis_store(&url, "registry"));
    let result = json!({"spec_id": "SPEC-bench", "files_created": ["a.md"], "status": "success"});
    let mut group = c.benchmark_group("store_200_agents");
    group.bench_function("save/redis", |b| {
        b.iter(|| redis.save(&mut black_box(doc.clone())).unwrap());
    });
    group.bench_function("save/fs", |b| {
        b.iter(|| fs.save(&mut black_box(doc.clone())).unwrap());
    });
    group.bench_function("load/redis", |b| {
        b.iter(|| black_box(redis.load().unwrap()));
    });
    group.bench_function("load/fs", |b| b.iter(|| black_box(fs.load().unwrap())));
    for (name, reg) in [("redis", &redis_reg as &dyn Register), ("fs", &fs_reg)] {
        group.bench_function(format!("register/{name}"), |b| {
            b.iter(|| reg.register_one(black_box(&result)));
        });
    }
    group.finish();
    // What each side holds (whichever benches the filter ran).
    redis.save(&mut doc.clone()).unwrap();
    assert_eq!(redis.load().unwrap().unwrap().agents.len(), 200);
    redis_reg.register_one(&result);
    assert_eq!(redis_reg.load().unwrap().results.len(), 201);
}

/// One registration, the same agent every time (the document keeps its size).
trait Register {
    fn register_one(&self, result: &serde_json::Value);
}

impl<S: Store> Register for AgentRegistry<S, session_state::FixedClock> {
    fn register_one(&self, result: &serde_json::Value) {
        self.register("bench-agent", "bench-id", result.clone(), None)
            .unwrap();
    }
}

fn history(c: &mut Criterion) {
    let Some(url) = server("store_history_10000") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let fs = OrchestratorStore::new(fs_store(&dir), clock());
    let redis = OrchestratorStore::new(redis_store(&url, "history"), clock());
    for (name, bytes) in archived(10_000) {
        let key = history_dir().join(&name).unwrap();
        fs.store().write(&key, &bytes).unwrap();
        redis.store().write(&key, &bytes).unwrap();
    }
    let query = HistoryQuery::default();
    // Build each index once, and check both stores list the same page.
    let listed = fs.list_history(&query).unwrap();
    assert_eq!(listed.total, 10_000);
    assert_eq!(redis.list_history(&query).unwrap(), listed);
    let mut group = c.benchmark_group("store_history_10000");
    group.sample_size(10);
    group.bench_function("list_history_limit10/redis", |b| {
        b.iter(|| black_box(redis.list_history(&query).unwrap()));
    });
    group.bench_function("list_history_limit10/fs", |b| {
        b.iter(|| black_box(fs.list_history(&query).unwrap()));
    });
    group.bench_function("store_list_only/redis", |b| {
        b.iter(|| black_box(redis.store().list(&history_dir()).unwrap()));
    });
    group.bench_function("store_list_only/fs", |b| {
        b.iter(|| black_box(fs.store().list(&history_dir()).unwrap()));
    });
    group.finish();
}

criterion_group!(benches, bytes, save_load, history);
criterion_main!(benches);
