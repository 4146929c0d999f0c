//! Crash harness (RELIABILITY.md, harness 1).
//!
//! A child process (this binary, re-executed with `child`) loops: save the orchestrator
//! session with an increasing counter (`crash_counter`), register a registry result with an
//! increasing id (`agent-000001`, ...), then record the last completed step in
//! `harness/progress.json`, all through `FsStore`. The parent kills it with SIGKILL after a
//! random delay (seeded), then checks the folder: every file parses (orchestrator documents,
//! registry files, the progress file, journal lines), no `.corrupt-` copy appeared, no
//! temporary file is listed by the store, the counter is the last completed step or the next
//! one, and every registration up to the last completed step is present (at most the next one
//! beyond). The children rotate through four modes: the registry's plain file or its journal
//! (`JournalMode::On`, 4 KiB compaction trigger), each with `Durability::Atomic` and with
//! `Durability::Sync` (whose fsyncs make writes last long enough to be cut more often). After the last kill one more child runs a few
//! steps to completion over the leftovers (temporary files included) and the checks run again.
//!
//! ```text
//! cargo run -p session-state-harness --bin crash-harness -- [--kills N] [--seed S] [--max-delay-ms M] [--keep]
//! ```
//! `CRASH_FAULT=direct` plants a fault to show the harness can fail: the child then writes the
//! session with a plain truncate-and-write (1 KiB chunks, each synced) instead of the store's
//! atomic replace, and kills that land inside it are counted as torn.
//! `CRASH_KILLS` / `CRASH_SEED` set the defaults (200 kills, seed 1, delays of 1 to 30 ms).
//! Last line: `crash: N kills, N consistent, 0 torn, 0 lost`; exit status 1 unless all are
//! consistent.

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use session_state::orchestrator::{NewSession, OrchestratorStore, Project};
use session_state::registry::{AgentRegistry, JournalMode};
use session_state::{Error, Key, Result, Store};
use session_state_fs::{Durability, FsStore, SystemClock};
use session_state_harness::{FileKind, Rng, file_kind, files_under, key_of, parse_file};

const PROGRESS: &str = "harness/progress.json";
const CHAIN: &str = "crash-chain";
const FOLDERS: [&str; 3] = [".claude", ".moai/memory", "harness"];
/// Registry mode and store durability of the child, by kill number modulo 4.
const MODES: [&str; 4] = ["plain", "journal", "plain+sync", "journal+sync"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("child") {
        let root = PathBuf::from(&args[1]);
        let journal = args[2].starts_with("journal");
        let sync = args[2].ends_with("+sync");
        let steps = args.get(3).map(|s| s.parse::<u64>().expect("a step count"));
        return match child(&root, journal, sync, steps) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("child: error[{}]: {e}", e.code());
                ExitCode::from(2)
            }
        };
    }
    match parent(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("crash-harness: {e}");
            ExitCode::from(2)
        }
    }
}

fn registry(store: FsStore, journal: bool) -> AgentRegistry<FsStore, SystemClock> {
    let reg = AgentRegistry::new(store, SystemClock);
    if journal {
        reg.with_journal(JournalMode::On {
            min_compact_bytes: 4096,
        })
    } else {
        reg
    }
}

fn progress_key() -> Key {
    Key::new(PROGRESS).expect("valid key")
}

fn read_progress(store: &FsStore) -> Result<u64> {
    let bytes = store
        .read(&progress_key())?
        .unwrap_or_else(|| b"{\"last\":0}".to_vec());
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|e| Error::corrupt(progress_key(), e.to_string()))?;
    Ok(value["last"].as_u64().unwrap_or(0))
}

/// The child: steps from the last completed one on, forever (or `steps` of them).
fn child(root: &Path, journal: bool, sync: bool, steps: Option<u64>) -> Result<()> {
    let durability = if sync {
        Durability::Sync
    } else {
        Durability::Atomic
    };
    let store = FsStore::new(root)?.with_durability(durability);
    let sessions = OrchestratorStore::new(store.clone(), SystemClock);
    let reg = registry(store.clone(), journal);
    let fault = std::env::var("CRASH_FAULT").is_ok_and(|v| v == "direct");
    let mut doc = match sessions.load() {
        // With the planted fault, a torn session is expected: go on from its salvage.
        Err(e) if fault && e.salvaged().is_some() => {
            serde_json::from_value(e.salvaged().cloned().unwrap_or_default())
                .map_err(|e| Error::invalid_input(e.to_string()))?
        }
        other => other?.ok_or_else(|| Error::invalid_input("no session: run the parent"))?,
    };
    let first = read_progress(&store)? + 1;
    let last = steps.map_or(u64::MAX, |n| first + n - 1);
    for n in first..=last {
        doc.extra.insert("crash_counter".into(), json!(n));
        doc.context_usage.estimated_tokens = n.into();
        if fault {
            // Planted fault (`CRASH_FAULT=direct`): a plain truncate-and-write, not atomic.
            doc.updated = Some(sessions.now());
            let path = root.join(".claude/orchestrator-session.json");
            let bytes = doc.to_pretty_json();
            let mut file =
                std::fs::File::create(&path).map_err(|e| Error::invalid_input(e.to_string()))?;
            for chunk in bytes.chunks(1024) {
                file.write_all(chunk)
                    .map_err(|e| Error::invalid_input(e.to_string()))?;
                file.sync_data()
                    .map_err(|e| Error::invalid_input(e.to_string()))?;
            }
        } else {
            sessions.save(&mut doc)?;
        }
        reg.register(
            "crash-agent",
            &format!("agent-{n:06}"),
            json!({"status": "success", "n": n}),
            Some(CHAIN),
        )?;
        store.write(&progress_key(), format!("{{\"last\":{n}}}").as_bytes())?;
    }
    if journal {
        reg.close()?;
    }
    Ok(())
}

fn setup(root: &Path) -> Result<()> {
    let store = FsStore::new(root)?;
    let sessions = OrchestratorStore::new(store.clone(), SystemClock);
    let project = Project::new("crash", "/tmp/crash", None);
    let mut doc = sessions.record_new(
        &NewSession {
            goal: "survive SIGKILL".into(),
            ..NewSession::default()
        },
        project,
        Some("crash"),
    )?;
    // About 8 KiB, so that a write takes long enough to be interrupted mid-way.
    doc.extra.insert("padding".into(), json!("x".repeat(8192)));
    sessions.save(&mut doc)?;
    sessions.start()?;
    registry(store.clone(), false).create_chain(CHAIN, &["crash-agent".into()], None)?;
    store.write(&progress_key(), b"{\"last\":0}")
}

#[derive(Default)]
struct Tally {
    kills: u64,
    consistent: u64,
    torn: u64,
    lost: u64,
    /// Kills that left: no part of the next step, its save only, its save and registration.
    landed: [u64; 3],
    /// Temporary files on disk after the last check.
    temps_now: u64,
    /// Kills that left a new temporary file: a write interrupted before its rename.
    interrupted_writes: u64,
    torn_journal_lines: u64,
}

/// What the folder holds after a kill: `Err(("torn" | "lost", why))` when it is not the state
/// before or after the interrupted step.
fn verify(root: &Path, tally: &mut Tally) -> std::result::Result<(), (&'static str, String)> {
    let torn = |m: String| ("torn", m);
    let store = FsStore::new(root).map_err(|e| torn(e.to_string()))?;
    let mut temps = 0;
    for path in files_under(root) {
        match file_kind(&path) {
            FileKind::Lock => {}
            FileKind::Temp => temps += 1,
            FileKind::Data => {
                let key =
                    key_of(root, &path).map_err(|e| torn(format!("{}: {e}", path.display())))?;
                let bytes =
                    std::fs::read(&path).map_err(|e| torn(format!("{}: {e}", path.display())))?;
                match parse_file(&key, &bytes) {
                    Ok(cut) => tally.torn_journal_lines += u64::from(cut),
                    Err(e) => return Err(torn(format!("`{key}` does not parse: {e}"))),
                }
            }
        }
    }
    if temps > tally.temps_now {
        tally.interrupted_writes += 1;
    }
    tally.temps_now = temps;
    for folder in FOLDERS {
        let listed = store
            .list(&Key::new(folder).expect("valid"))
            .map_err(|e| torn(e.to_string()))?;
        if let Some(k) = listed.iter().find(|k| k.as_str().contains(".tmp-")) {
            return Err(torn(format!("list shows the temporary file `{k}`")));
        }
    }
    let lost = |m: String| ("lost", m);
    let last = read_progress(&store).map_err(|e| torn(e.to_string()))?;
    let doc = OrchestratorStore::new(store.clone(), SystemClock)
        .load()
        .map_err(|e| torn(e.to_string()))?
        .ok_or_else(|| lost("the session is gone".into()))?;
    let counter = doc
        .extra
        .get("crash_counter")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    // Either mode reads base + journal.
    let reg = registry(store, false)
        .load()
        .map_err(|e| torn(e.to_string()))?;
    let mut ids: Vec<u64> = reg
        .metadata
        .keys()
        .filter_map(|id| id.strip_prefix("agent-")?.parse().ok())
        .collect();
    ids.sort_unstable();
    let registered = ids.last().copied().unwrap_or(0);
    if ids != (1..=registered).collect::<Vec<_>>() {
        return Err(lost(format!(
            "registrations are not 1..={registered}: {ids:?}"
        )));
    }
    let results_ok = (1..=registered).all(|n| reg.results.contains_key(&format!("agent-{n:06}")));
    if !results_ok {
        return Err(lost("a registered id has no result".into()));
    }
    // Steps are: save counter n, register n, progress n. Allowed after progress `last`:
    // (last, last) before step last+1, (last+1, last) or (last+1, last+1) inside it.
    let allowed = [(last, last), (last + 1, last), (last + 1, last + 1)];
    if !allowed.contains(&(counter, registered)) {
        return Err(lost(format!(
            "progress {last} but counter {counter} and {registered} registrations"
        )));
    }
    let landed = usize::try_from(counter + registered - 2 * last).unwrap_or(0);
    tally.landed[landed] += 1;
    Ok(())
}

struct Options {
    kills: u64,
    seed: u64,
    max_delay_ms: u64,
    keep: bool,
}

fn options(args: &[String]) -> std::result::Result<Options, String> {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let mut o = Options {
        kills: env("CRASH_KILLS", 200),
        seed: env("CRASH_SEED", 1),
        max_delay_ms: 30,
        keep: false,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || -> std::result::Result<u64, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("`{flag}` needs a number"))
        };
        match flag.as_str() {
            "--kills" => o.kills = value()?,
            "--seed" => o.seed = value()?,
            "--max-delay-ms" => o.max_delay_ms = value()?.max(1),
            "--keep" => o.keep = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(o)
}

fn parent(args: &[String]) -> std::result::Result<bool, String> {
    let o = options(args)?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let root = dir.path().join("project");
    setup(&root).map_err(|e| e.to_string())?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut rng = Rng::new(o.seed);
    let mut t = Tally::default();
    let started = Instant::now();
    for k in 0..o.kills {
        let mode = MODES[usize::try_from(k % 4).unwrap_or(0)];
        let mut child = Command::new(&exe)
            .arg("child")
            .arg(&root)
            .arg(mode)
            .spawn()
            .map_err(|e| e.to_string())?;
        std::thread::sleep(Duration::from_millis(rng.between(1, o.max_delay_ms)));
        child.kill().map_err(|e| e.to_string())?;
        let status = child.wait().map_err(|e| e.to_string())?;
        if status.signal() != Some(9) {
            return Err(format!(
                "child {k} ended by itself ({status}) before the kill"
            ));
        }
        t.kills += 1;
        match verify(&root, &mut t) {
            Ok(()) => t.consistent += 1,
            Err((what, why)) => {
                eprintln!("kill {k} ({mode}): {what}: {why}");
                if what == "torn" {
                    t.torn += 1;
                } else {
                    t.lost += 1;
                }
            }
        }
    }
    let store = FsStore::new(&root).map_err(|e| e.to_string())?;
    let before_final = read_progress(&store).map_err(|e| e.to_string())?;
    let leftover_temps = files_under(&root)
        .iter()
        .filter(|p| file_kind(p) == FileKind::Temp)
        .count();
    // A normal run over the leftovers: 5 plain steps, then 5 journal steps and a close.
    for mode in ["plain", "journal"] {
        let status = Command::new(&exe)
            .arg("child")
            .arg(&root)
            .arg(mode)
            .arg("5")
            .status()
            .map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("the run after the kills failed ({status})"));
        }
    }
    let mut final_tally = Tally::default();
    let final_ok = verify(&root, &mut final_tally).map_err(|(w, m)| format!("{w}: {m}"));
    let after = read_progress(&store).map_err(|e| e.to_string())?;
    let final_ok = final_ok.is_ok() && after == before_final + 10;
    println!(
        "steps completed: {before_final} in {:.1} s; state found after a kill: before the next step {}, after its save {}, after its registration {}",
        started.elapsed().as_secs_f64(),
        t.landed[0],
        t.landed[1],
        t.landed[2]
    );
    println!(
        "kills that interrupted a write (left a new temporary file): {}; temporary files on disk at the end: {leftover_temps} (never listed, never read); journal lines cut short (skipped by design): {}",
        t.interrupted_writes, t.torn_journal_lines
    );
    println!(
        "run over the leftovers: {} (progress {before_final} -> {after})",
        if final_ok { "ok" } else { "FAILED" }
    );
    if o.keep {
        let kept = dir.keep();
        println!("folder kept: {}", kept.display());
    }
    println!(
        "crash: {} kills, {} consistent, {} torn, {} lost",
        t.kills, t.consistent, t.torn, t.lost
    );
    Ok(t.consistent == t.kills && final_ok)
}
