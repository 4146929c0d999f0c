//! Concurrency harness (RELIABILITY.md, harness 2).
//!
//! 1. Registration: worker processes in Rust (this binary, re-executed), Python
//!    (`session_state.moai.SessionManager.register_agent_result`) and Node
//!    (`AgentRegistry.register` of the Node package) register distinct agent ids
//!    into one `.moai/memory/agent-sessions.json` at once (all start on one signal). Then every
//!    id must be there once (mapping, metadata, result, one entry in the shared chain), the
//!    file must parse, and no temporary file may be listed.
//! 2. Lifecycle: two Rust processes race `pause` / `continue` moves (chosen at random) on one
//!    orchestrator session, then both try `complete`. Every refused move must be a typed
//!    `invalid_transition` or `conflict` error (or `not_found` for a `complete` that comes
//!    after the other process archived the session); the accepted pauses and continues must
//!    alternate (no move lost: `paused = continued` or `continued + 1`, matching the final
//!    status), exactly one `complete` wins, and the archive parses.
//!
//! Python and Node workers run when their package is importable: the interpreter is
//! `HARNESS_PYTHON` (default `<repo>/.venv/bin/python`), the Node package folder
//! `HARNESS_NODE_PACKAGE` (default `<repo>/bindings-node`); otherwise the language is
//! reported as skipped.
//!
//! ```text
//! cargo run -p session-state-harness --bin concurrency-harness -- [--per-worker N] [--moves N]
//! ```
//! Last line: `concurrency: N registrations (rust R, python P, node N), 0 lost, 0 torn; M moves,
//! A accepted, B refused (typed), C after completion (not_found), 0 untyped`; exit status 1 on any failure.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use session_state::orchestrator::{
    NewSession, OrchestratorStore, Project, SessionStatus, history_key,
};
use session_state::registry::AgentRegistry;
use session_state::{Error, Key, Result, Store, Timestamp};
use session_state_fs::{Durability, FsStore, SystemClock};
use session_state_harness::{FileKind, Rng, file_kind, files_under, key_of, parse_file};

const CHAIN: &str = "race";

const PYTHON_WORKER: &str = r#"
import json, os, sys, time
from session_state.moai import SessionManager
root, prefix, count, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
m = SessionManager(os.path.join(root, ".moai", "memory", "agent-sessions.json"),
                   os.path.join(root, ".moai", "logs", "agent-transcripts"), durable=False)
while not os.path.exists(go):
    time.sleep(0.001)
for i in range(count):
    m.register_agent_result("python-agent", "%s-%04d" % (prefix, i), {"n": i}, "race")
print(json.dumps({"registered": count}))
"#;

const NODE_WORKER: &str = r"
const [pkg, root, prefix, count, go] = process.argv.slice(1);
const fs = require('fs');
const { AgentRegistry, FileStore } = require(pkg);
const reg = new AgentRegistry(new FileStore(root, { durable: false }));
const pause = new Int32Array(new SharedArrayBuffer(4));
while (!fs.existsSync(go)) Atomics.wait(pause, 0, 0, 1);
for (let i = 0; i < Number(count); i++) {
  reg.register('node-agent', `${prefix}-${String(i).padStart(4, '0')}`, { n: i }, 'race');
}
console.log(JSON.stringify({ registered: Number(count) }));
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("register-worker") => register_worker(&args[1..]).map(|()| true),
        Some("move-worker") => move_worker(&args[1..]).map(|()| true),
        _ => parent(&args).map_err(Error::invalid_input),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("concurrency-harness: error[{}]: {e}", e.code());
            ExitCode::from(2)
        }
    }
}

fn wait_for(go: &Path) {
    while !go.exists() {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A store without the fsync of each write: this harness checks lost updates and torn files
/// between processes, which the fsyncs do not change, and makes thousands of writes.
fn fast_store(root: &Path) -> Result<FsStore> {
    Ok(FsStore::new(root)?.with_durability(Durability::Atomic))
}

/// `register-worker ROOT PREFIX COUNT GO`
fn register_worker(args: &[String]) -> Result<()> {
    let root = Path::new(&args[0]);
    let count: u64 = args[2].parse().map_err(|_| Error::invalid_input("count"))?;
    let reg = AgentRegistry::new(fast_store(root)?, SystemClock);
    wait_for(Path::new(&args[3]));
    for i in 0..count {
        let id = format!("{}-{i:04}", args[1]);
        reg.register("rust-agent", &id, json!({"n": i}), Some(CHAIN))?;
    }
    println!("{}", json!({"registered": count}));
    Ok(())
}

/// `move-worker ROOT SEED MOVES GO`: random pause/continue moves, then one complete. Prints
/// the tally as JSON.
fn move_worker(args: &[String]) -> Result<()> {
    let root = Path::new(&args[0]);
    let mut rng = Rng::new(args[1].parse().map_err(|_| Error::invalid_input("seed"))?);
    let moves: u64 = args[2].parse().map_err(|_| Error::invalid_input("moves"))?;
    let sessions = OrchestratorStore::new(fast_store(root)?, SystemClock);
    wait_for(Path::new(&args[3]));
    let mut tally: BTreeMap<String, u64> = BTreeMap::new();
    // Every accepted move's resulting (updated, status): a move that changed the session
    // wrote a new `updated`; one to the status it already had returns it as it was.
    let mut writes: Vec<serde_json::Value> = Vec::new();
    for _ in 0..moves {
        let (name, outcome) = if rng.next_u64().is_multiple_of(2) {
            ("pause", sessions.pause())
        } else {
            ("continue", sessions.continue_session())
        };
        let label = match outcome {
            Ok(doc) => {
                writes.push(serde_json::json!([doc.updated, doc.status]));
                format!("{name}:ok")
            }
            Err(e) => format!("{name}:{}", e.code()),
        };
        *tally.entry(label).or_default() += 1;
    }
    // Leave it running so that `complete` can apply, then race the completion.
    let label = match sessions.continue_session() {
        Ok(doc) => {
            writes.push(serde_json::json!([doc.updated, doc.status]));
            "final-continue:ok".to_owned()
        }
        Err(e) => format!("final-continue:{}", e.code()),
    };
    *tally.entry(label).or_default() += 1;
    let label = match sessions.complete() {
        Ok(_) => "complete:ok".to_owned(),
        Err(e) => format!("complete:{}", e.code()),
    };
    *tally.entry(label).or_default() += 1;
    let out = serde_json::json!({ "tally": tally, "writes": writes });
    println!("{out}");
    Ok(())
}

/// The repository root (this crate is `tests/harness`).
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn python() -> Option<PathBuf> {
    let exe = std::env::var_os("HARNESS_PYTHON")
        .map_or_else(|| repo().join(".venv/bin/python"), PathBuf::from);
    let ok = Command::new(&exe)
        .args(["-c", "import session_state.moai"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(exe)
}

fn node_package() -> Option<PathBuf> {
    let pkg = std::env::var_os("HARNESS_NODE_PACKAGE")
        .map_or_else(|| repo().join("bindings-node"), PathBuf::from);
    let pkg = pkg.canonicalize().ok()?;
    let ok = Command::new("node")
        .arg("-e")
        .arg("const p = require(process.argv[1]); if (!p.AgentRegistry || !p.FileStore) process.exit(1)")
        .arg(&pkg)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(pkg)
}

struct Worker {
    lang: &'static str,
    prefix: String,
    count: u64,
    child: Child,
}

fn spawn(cmd: &mut Command) -> std::result::Result<Child, String> {
    cmd.stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))
}

/// Starts the registration workers of every available language (they wait for `go`).
fn spawn_workers(
    root: &Path,
    go: &Path,
    per_worker: u64,
) -> std::result::Result<Vec<Worker>, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut workers = Vec::new();
    let root_s = root.to_str().ok_or("root path not UTF-8")?.to_owned();
    let go_s = go.to_str().ok_or("path not UTF-8")?.to_owned();
    for w in 0..4 {
        let prefix = format!("rust{w}");
        let child = spawn(Command::new(&exe).args([
            "register-worker",
            &root_s,
            &prefix,
            &per_worker.to_string(),
            &go_s,
        ]))?;
        workers.push(Worker {
            lang: "rust",
            prefix,
            count: per_worker,
            child,
        });
    }
    match python() {
        Some(py) => {
            for w in 0..2 {
                let prefix = format!("python{w}");
                let child = spawn(Command::new(&py).args([
                    "-c",
                    PYTHON_WORKER,
                    &root_s,
                    &prefix,
                    &per_worker.to_string(),
                    &go_s,
                ]))?;
                workers.push(Worker {
                    lang: "python",
                    prefix,
                    count: per_worker,
                    child,
                });
            }
        }
        None => println!("python: skipped (session_state.moai is not importable)"),
    }
    match node_package() {
        Some(pkg) => {
            for w in 0..2 {
                let prefix = format!("node{w}");
                let child = spawn(Command::new("node").arg("-e").arg(NODE_WORKER).args([
                    pkg.to_str().ok_or("path not UTF-8")?,
                    &root_s,
                    &prefix,
                    &per_worker.to_string(),
                    &go_s,
                ]))?;
                workers.push(Worker {
                    lang: "node",
                    prefix,
                    count: per_worker,
                    child,
                });
            }
        }
        None => println!("node: skipped (the Node package is not built)"),
    }
    Ok(workers)
}

/// Registration race; returns (per-language counts, lost, torn, messages).
fn registration_race(
    root: &Path,
    go: &Path,
    per_worker: u64,
) -> std::result::Result<(BTreeMap<&'static str, u64>, u64, u64), String> {
    let workers = spawn_workers(root, go, per_worker)?;
    // Give the interpreters time to import before the start signal.
    std::thread::sleep(Duration::from_millis(1500));
    std::fs::write(go, b"go").map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut counts: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut expected = Vec::new();
    for w in workers {
        let out = w.child.wait_with_output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "{} worker `{}` failed ({})",
                w.lang, w.prefix, out.status
            ));
        }
        *counts.entry(w.lang).or_default() += w.count;
        expected.extend((0..w.count).map(|i| format!("{}-{i:04}", w.prefix)));
    }
    println!(
        "registration: {} languages done in {:.2} s",
        counts.len(),
        started.elapsed().as_secs_f64()
    );
    let (torn, torn_msgs) = check_files(root);
    for m in &torn_msgs {
        eprintln!("torn: {m}");
    }
    let store = FsStore::new(root).map_err(|e| e.to_string())?;
    let doc = AgentRegistry::new(store, SystemClock)
        .load()
        .map_err(|e| e.to_string())?;
    let chain = doc.chains.get(CHAIN).cloned().unwrap_or_default();
    let mut lost = 0;
    for id in &expected {
        let once = chain.iter().filter(|c| *c == id).count() == 1;
        if !(doc.metadata.contains_key(id) && doc.results.contains_key(id) && once) {
            lost += 1;
            eprintln!("lost: `{id}`");
        }
    }
    if chain.len() != expected.len() {
        eprintln!(
            "chain `{CHAIN}` has {} entries for {} ids",
            chain.len(),
            expected.len()
        );
        lost += 1;
    }
    Ok((counts, lost, torn))
}

/// Parses every data file under `root` and checks that no temporary file is listed.
fn check_files(root: &Path) -> (u64, Vec<String>) {
    let mut msgs = Vec::new();
    for path in files_under(root) {
        if file_kind(&path) != FileKind::Data {
            if file_kind(&path) == FileKind::Temp {
                msgs.push(format!("temporary file left: {}", path.display()));
            }
            continue;
        }
        match key_of(root, &path) {
            Ok(key) => {
                let bytes = std::fs::read(&path).unwrap_or_default();
                if let Err(e) = parse_file(&key, &bytes) {
                    msgs.push(format!("`{key}`: {e}"));
                }
            }
            Err(e) => msgs.push(format!("{}: {e}", path.display())),
        }
    }
    if let Ok(store) = FsStore::new(root) {
        for folder in [".claude", ".moai"] {
            let listed = Key::new(folder)
                .and_then(|k| store.list(&k))
                .unwrap_or_default();
            msgs.extend(
                listed
                    .iter()
                    .filter(|k| k.as_str().contains(".tmp-"))
                    .map(|k| format!("listed temporary file `{k}`")),
            );
        }
    }
    (msgs.len() as u64, msgs)
}

type Moved = Vec<(Timestamp, SessionStatus)>;

/// How many writes, in time order, have the status of the write before them.
fn repeated_statuses(writes: &BTreeMap<Timestamp, SessionStatus>) -> usize {
    writes
        .values()
        .zip(writes.values().skip(1))
        .filter(|(a, b)| a == b)
        .count()
}

/// A move worker's output, `{tally: {label: count}, writes: [[updated, status], ...]}`.
fn worker_output(stdout: &[u8]) -> std::result::Result<(BTreeMap<String, u64>, Moved), String> {
    serde_json::from_slice::<serde_json::Value>(stdout)
        .and_then(|v| {
            Ok((
                serde_json::from_value(v["tally"].clone())?,
                serde_json::from_value(v["writes"].clone())?,
            ))
        })
        .map_err(|e| format!("move worker output: {e}"))
}

struct MoveTally {
    attempts: u64,
    accepted: u64,
    refused_typed: u64,
    after_complete: u64,
    untyped: u64,
    ok: bool,
}

/// A new session for `goal`, the rest of `NewSession` by default.
fn new_session(goal: &str) -> NewSession {
    NewSession {
        goal: goal.into(),
        ..NewSession::default()
    }
}

fn lifecycle_race(root: &Path, go: &Path, moves: u64) -> std::result::Result<MoveTally, String> {
    let store = fast_store(root).map_err(|e| e.to_string())?;
    let sessions = OrchestratorStore::new(store.clone(), SystemClock);
    let project = Project::new("race", "/tmp/race", None);
    let doc = sessions
        .record_new(&new_session("race lifecycle moves"), project, Some("race"))
        .map_err(|e| e.to_string())?;
    let started = sessions.start().map_err(|e| e.to_string())?;
    let mut writes: BTreeMap<Timestamp, SessionStatus> = BTreeMap::new();
    let updated = started.updated.ok_or("a started session has `updated`")?;
    writes.insert(updated, started.status);
    let mut clash = 0u64;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let root_s = root.to_str().ok_or("path not UTF-8")?;
    let go_s = go.to_str().ok_or("path not UTF-8")?;
    let children: Vec<Child> = (1..=2)
        .map(|seed: u64| {
            spawn(Command::new(&exe).args([
                "move-worker",
                root_s,
                &seed.to_string(),
                &moves.to_string(),
                go_s,
            ]))
        })
        .collect::<std::result::Result<_, _>>()?;
    std::thread::sleep(Duration::from_millis(200));
    std::fs::write(go, b"go").map_err(|e| e.to_string())?;
    let mut all: BTreeMap<String, u64> = BTreeMap::new();
    for child in children {
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!("a move worker failed ({})", out.status));
        }
        let (tally, moved) = worker_output(&out.stdout)?;
        for (at, status) in moved {
            if writes.insert(at, status).is_some_and(|s| s != status) {
                clash += 1;
            }
        }
        for (k, v) in tally {
            *all.entry(k).or_default() += v;
        }
    }
    println!("lifecycle outcomes: {all:?}");
    let get = |k: &str| all.get(k).copied().unwrap_or(0);
    let mut t = MoveTally {
        attempts: 0,
        accepted: 0,
        refused_typed: 0,
        after_complete: 0,
        untyped: 0,
        ok: true,
    };
    for (label, n) in &all {
        let outcome = label.split_once(':').map_or("", |(_, o)| o);
        t.attempts += n;
        match outcome {
            "ok" => t.accepted += n,
            "invalid_transition" | "conflict" => t.refused_typed += n,
            // The other worker completed (and archived) the session first.
            "not_found" => t.after_complete += n,
            _ => {
                eprintln!("untyped refusal: {label} x{n}");
                t.untyped += n;
            }
        }
    }
    // The writes, in time order, alternate from in_progress: paused, in_progress, paused, ...
    // Two writes of one status in a row would be two moves made from the same state (a lost
    // move); a move to the status the session had writes nothing and adds no entry.
    let repeats = repeated_statuses(&writes);
    if repeats > 0 || clash > 0 {
        eprintln!(
            "lost move: {repeats} writes repeat the status before them, {clash} instants with two statuses"
        );
        t.ok = false;
    }
    if get("complete:ok") != 1 {
        eprintln!(
            "{} completes accepted, expected exactly 1",
            get("complete:ok")
        );
        t.ok = false;
    }
    let archive = history_key(&doc.session_id).map_err(|e| e.to_string())?;
    let archived = sessions
        .read_document(&archive)
        .map_err(|e| e.to_string())?;
    if archived.map(|d| d.status) != Some(SessionStatus::Complete) {
        eprintln!("the archive is not a complete session");
        t.ok = false;
    }
    if sessions.load().map_err(|e| e.to_string())?.is_some() {
        eprintln!("the completed session is still current");
        t.ok = false;
    }
    let (torn, msgs) = check_files(root);
    for m in msgs {
        eprintln!("torn: {m}");
    }
    t.ok &= torn == 0;
    Ok(t)
}

fn parent(args: &[String]) -> std::result::Result<bool, String> {
    let mut per_worker = 100;
    let mut moves = 300;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it
            .next()
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("`{flag}` needs a number"))?;
        match flag.as_str() {
            "--per-worker" => per_worker = value,
            "--moves" => moves = value,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let reg_root = dir.path().join("registry");
    let (counts, lost, torn) =
        registration_race(&reg_root, &dir.path().join("go-registry"), per_worker)?;
    let life_root = dir.path().join("lifecycle");
    let t = lifecycle_race(&life_root, &dir.path().join("go-lifecycle"), moves)?;
    let total: u64 = counts.values().sum();
    let by_lang = ["rust", "python", "node"]
        .iter()
        .map(|l| format!("{l} {}", counts.get(l).copied().unwrap_or(0)))
        .collect::<Vec<_>>()
        .join(", ");
    println!(
        "concurrency: {total} registrations ({by_lang}), {lost} lost, {torn} torn; {} moves, {} accepted, {} refused (typed), {} after completion (not_found), {} untyped",
        t.attempts, t.accepted, t.refused_typed, t.after_complete, t.untyped
    );
    Ok(lost == 0 && torn == 0 && t.untyped == 0 && t.ok)
}
