//! Ownership harness (RELIABILITY.md, harness 3): 8 worker processes (this binary,
//! re-executed) contend for one orchestrator session through `FsStore` with random claims,
//! takeovers (leases of 1 s, no skew tolerance, so takeovers happen), forced claims, renewals,
//! writes and stalls longer than a lease, while the parent kills a random worker with SIGKILL every 100 to 600 ms and
//! starts a new incarnation of it under a new owner id.
//!
//! Each write appends `{m, owner, epoch}` to the document's `harness_writes` list inside one
//! fenced `modify`. Every worker logs each claim it got (`owner`, `epoch`), each write that
//! returned success (acknowledged) and each write refused with `conflict`, one line per event
//! flushed at once. Afterwards:
//! - every epoch was claimed by exactly one owner, and the lease's epoch is the highest claimed
//!   (the owners' epochs form one increasing sequence);
//! - the writes in the document carry non-decreasing epochs, each an epoch its owner claimed
//!   (no write of a superseded owner landed after the next owner's);
//! - every acknowledged write is in the document, and no refused write is;
//! - the document parses.
//!
//! ```text
//! cargo run -p session-state-harness --bin ownership-harness -- [--seconds N] [--seed S]
//! ```
//! `OWNERSHIP_SECONDS` / `OWNERSHIP_SEED` set the defaults (30 s, seed 1). Last line:
//! `ownership: W workers, S s, K kills, C claims (T takeovers of expired leases, F forced), A acknowledged
//! writes, R refused, E epochs, 0 lost, 0 superseded, 0 refused landed`; exit status 1 on any
//! failure.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use session_state::orchestrator::{NewSession, OrchestratorStore, Project};
use session_state::ownership::{Claim, Writer};
use session_state::{Error, ErrorKind, Result};
use session_state_fs::{Durability, FsStore, SystemClock};
use session_state_harness::Rng;

const WORKERS: usize = 8;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("worker") => worker(&args[1..]).map(|()| true),
        _ => parent(&args).map_err(Error::invalid_input),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("ownership-harness: error[{}]: {e}", e.code());
            ExitCode::from(2)
        }
    }
}

type Sessions = OrchestratorStore<FsStore, SystemClock>;

fn sessions(root: &Path) -> Result<Sessions> {
    let store = FsStore::new(root)?.with_durability(Durability::Atomic);
    Ok(OrchestratorStore::new(store, SystemClock))
}

/// One line of a worker's log, flushed at once (it survives the worker's SIGKILL).
fn log(file: &mut std::fs::File, line: &Value) -> Result<()> {
    writeln!(file, "{line}").map_err(|e| Error::storage("log", "append", e))
}

/// `worker ROOT LOG OWNER SEED STOP`: random claims, renewals and writes until `STOP` exists.
fn worker(args: &[String]) -> Result<()> {
    let [root, log_path, owner, seed, stop] = args else {
        return Err(Error::invalid_input("worker ROOT LOG OWNER SEED STOP"));
    };
    let sessions = sessions(Path::new(root))?;
    let mut rng = Rng::new(seed.parse().map_err(|_| Error::invalid_input("seed"))?);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log_path)
        .map_err(|e| Error::storage(log_path, "open", e))?;
    let mut writes = 0u64;
    while !Path::new(stop).exists() {
        let roll = rng.between(0, 99);
        if roll == 99 {
            // A stall longer than the lease (a slow disk, a paused process): the lease may be
            // taken over meanwhile, and this worker's next writes must then be refused.
            std::thread::sleep(Duration::from_millis(rng.between(1100, 1600)));
        } else if roll < 40 || sessions.writer().is_none() {
            let claim = Claim {
                owner: owner.clone(),
                lease_seconds: Some(1),
                skew_seconds: Some(0),
                takeover: roll < 30,
                // Rare: a forced claim ends the owner's lease at once.
                force: roll == 0 && rng.between(0, 3) == 0,
                ..Claim::default()
            };
            match sessions.claim(&claim) {
                Ok(outcome) => {
                    let lease = outcome
                        .lease
                        .unwrap_or_else(|| unreachable!("a session claim"));
                    log(
                        &mut file,
                        &json!({"claim": owner, "epoch": lease.epoch, "forced": lease.forced,
                                "took_over": lease.took_over_from.is_some()}),
                    )?;
                }
                Err(e) if e.kind() == ErrorKind::Conflict => {}
                Err(e) => return Err(e),
            }
        } else if roll < 50 {
            match sessions.renew(owner, None) {
                Ok(_) => {}
                Err(e) if matches!(e.kind(), ErrorKind::Conflict | ErrorKind::NotFound) => {}
                Err(e) => return Err(e),
            }
        } else {
            let Some(Writer {
                epoch: Some(epoch), ..
            }) = sessions.writer()
            else {
                continue;
            };
            writes += 1;
            let mark = format!("{owner}:{writes}");
            let entry = json!({"m": mark, "owner": owner, "epoch": epoch});
            match sessions.modify(|doc| {
                let list = doc
                    .extra
                    .entry("harness_writes".to_owned())
                    .or_insert_with(|| json!([]));
                if let Value::Array(list) = list {
                    list.push(entry.clone());
                }
                Ok(())
            }) {
                Ok(_) => log(&mut file, &json!({"ack": mark, "epoch": epoch}))?,
                Err(e) if e.kind() == ErrorKind::Conflict => {
                    log(&mut file, &json!({"refused": mark, "epoch": epoch}))?;
                }
                Err(e) => return Err(e),
            }
        }
        std::thread::sleep(Duration::from_millis(rng.between(1, 15)));
    }
    Ok(())
}

struct Running {
    child: Child,
    started: Instant,
}

fn spawn(
    exe: &Path,
    root: &Path,
    logs: &Path,
    owner: &str,
    seed: u64,
    stop: &Path,
) -> std::result::Result<Child, String> {
    let text = |p: &Path| p.to_str().map(str::to_owned).ok_or("path not UTF-8");
    Command::new(exe)
        .args([
            "worker".to_owned(),
            text(root)?,
            text(&logs.join(format!("{owner}.log")))?,
            owner.to_owned(),
            seed.to_string(),
            text(stop)?,
        ])
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start worker: {e}"))
}

fn number(
    args: &[String],
    flag: &str,
    env: &str,
    default: u64,
) -> std::result::Result<u64, String> {
    let value = args
        .iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1).cloned())
        .or_else(|| std::env::var(env).ok());
    value.map_or(Ok(default), |v| {
        v.parse().map_err(|_| format!("{flag}: not a number: {v}"))
    })
}

fn parent(args: &[String]) -> std::result::Result<bool, String> {
    let seconds = number(args, "--seconds", "OWNERSHIP_SECONDS", 30)?;
    let mut rng = Rng::new(number(args, "--seed", "OWNERSHIP_SEED", 1)?);
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let root = dir.path().join("project");
    let logs = dir.path().join("logs");
    std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(&logs).map_err(|e| e.to_string())?;
    let stop = dir.path().join("stop");
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let setup = sessions(&root).map_err(|e| e.to_string())?;
    setup
        .record_new(
            &NewSession {
                goal: "ownership race".into(),
                ..NewSession::default()
            },
            Project::new("p", "/p", None),
            Some("race"),
        )
        .map_err(|e| e.to_string())?;
    let mut incarnation = [0u64; WORKERS];
    let owner = |w: usize, n: u64| format!("w{w}-{n}");
    let mut running: Vec<Running> = Vec::new();
    for w in 0..WORKERS {
        let child = spawn(&exe, &root, &logs, &owner(w, 0), rng.next_u64(), &stop)?;
        running.push(Running {
            child,
            started: Instant::now(),
        });
    }
    let start = Instant::now();
    let mut kills = 0u64;
    while start.elapsed() < Duration::from_secs(seconds) {
        std::thread::sleep(Duration::from_millis(rng.between(100, 600)));
        let w = usize::try_from(rng.between(0, WORKERS as u64 - 1)).unwrap_or(0);
        let victim = &mut running[w];
        if victim.started.elapsed() < Duration::from_millis(50) {
            continue;
        }
        if let Ok(Some(status)) = victim.child.try_wait() {
            return Err(format!(
                "worker {} exited early ({status})",
                owner(w, incarnation[w])
            ));
        }
        victim.child.kill().map_err(|e| e.to_string())?;
        let _ = victim.child.wait();
        kills += 1;
        incarnation[w] += 1;
        let child = spawn(
            &exe,
            &root,
            &logs,
            &owner(w, incarnation[w]),
            rng.next_u64(),
            &stop,
        )?;
        running[w] = Running {
            child,
            started: Instant::now(),
        };
    }
    std::fs::write(&stop, b"stop").map_err(|e| e.to_string())?;
    for (w, r) in running.iter_mut().enumerate() {
        let status = r.child.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!(
                "worker {} failed ({status})",
                owner(w, incarnation[w])
            ));
        }
    }
    check(&root, &logs, seconds, kills)
}

/// What the workers' logs say.
#[derive(Default)]
struct Logs {
    /// Epoch → the owners that logged a claim of it.
    claims: BTreeMap<u64, BTreeSet<String>>,
    /// Every (owner, epoch) claimed (an owner taking the lease back gets a new epoch).
    claimed: BTreeSet<(String, u64)>,
    claim_count: u64,
    takeovers: u64,
    forced: u64,
    acked: Vec<String>,
    refused: Vec<String>,
}

fn read_logs(logs: &Path) -> std::result::Result<Logs, String> {
    let mut out = Logs::default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(logs)
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
        // A SIGKILL can cut the last line short: only whole lines count.
        for line in text.split_inclusive('\n').filter(|l| l.ends_with('\n')) {
            let v: Value =
                serde_json::from_str(line).map_err(|e| format!("{}: {e}", file.display()))?;
            let epoch = v["epoch"].as_u64().unwrap_or_default();
            if let Some(owner) = v["claim"].as_str() {
                out.claim_count += 1;
                // How an epoch began is counted once (its owner's later claims renew it).
                if out.claimed.insert((owner.to_owned(), epoch)) {
                    out.takeovers += u64::from(v["took_over"] == true && v["forced"] != true);
                    out.forced += u64::from(v["forced"] == true);
                }
                out.claims
                    .entry(epoch)
                    .or_default()
                    .insert(owner.to_owned());
            } else if let Some(mark) = v["ack"].as_str() {
                out.acked.push(mark.to_owned());
            } else if let Some(mark) = v["refused"].as_str() {
                out.refused.push(mark.to_owned());
            }
        }
    }
    Ok(out)
}

fn check(root: &Path, logs: &Path, seconds: u64, kills: u64) -> std::result::Result<bool, String> {
    let logs = read_logs(logs)?;
    let sessions = sessions(root).map_err(|e| e.to_string())?;
    let doc = sessions
        .load()
        .map_err(|e| format!("the session does not load: {e}"))?
        .ok_or("the session is gone")?;
    let lease = sessions
        .lease()
        .map_err(|e| e.to_string())?
        .ok_or("no lease")?;
    let mut failures = Vec::new();
    for (epoch, owners) in &logs.claims {
        if owners.len() != 1 {
            failures.push(format!("epoch {epoch} claimed by {owners:?}"));
        }
    }
    let highest = logs.claims.keys().last().copied().unwrap_or_default();
    if lease.epoch < highest {
        failures.push(format!(
            "lease epoch {} below the highest claimed {highest}",
            lease.epoch
        ));
    }
    let written = doc
        .extra
        .get("harness_writes")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut in_doc = BTreeSet::new();
    let mut last_epoch = 0;
    let mut superseded = 0u64;
    for w in &written {
        let (mark, owner, epoch) = (
            w["m"].as_str().unwrap_or_default(),
            w["owner"].as_str().unwrap_or_default(),
            w["epoch"].as_u64().unwrap_or_default(),
        );
        if epoch < last_epoch {
            superseded += 1;
            failures.push(format!(
                "write `{mark}` of epoch {epoch} landed after one of epoch {last_epoch}"
            ));
        }
        if logs
            .claims
            .get(&epoch)
            .is_some_and(|owners| !owners.contains(owner))
        {
            superseded += 1;
            failures.push(format!(
                "write `{mark}` of `{owner}` at epoch {epoch}, which another owner claimed"
            ));
        }
        last_epoch = last_epoch.max(epoch);
        in_doc.insert(mark.to_owned());
    }
    let lost: Vec<&String> = logs.acked.iter().filter(|m| !in_doc.contains(*m)).collect();
    let refused_landed: Vec<&String> = logs
        .refused
        .iter()
        .filter(|m| in_doc.contains(*m))
        .collect();
    for m in &lost {
        failures.push(format!("acknowledged write `{m}` is not in the document"));
    }
    for m in &refused_landed {
        failures.push(format!("refused write `{m}` landed"));
    }
    if logs.acked.is_empty() || logs.claims.len() < 2 || kills == 0 {
        failures.push(format!(
            "the race did not happen: {} acknowledged writes, {} epochs, {kills} kills",
            logs.acked.len(),
            logs.claims.len()
        ));
    }
    for f in failures.iter().take(20) {
        eprintln!("failure: {f}");
    }
    println!(
        "ownership: {WORKERS} workers, {seconds} s, {kills} kills, {} claims ({} takeovers of expired leases, {} forced), {} acknowledged writes, {} refused, {} epochs, {} lost, {superseded} superseded, {} refused landed",
        logs.claim_count,
        logs.takeovers,
        logs.forced,
        logs.acked.len(),
        logs.refused.len(),
        lease.epoch,
        lost.len(),
        refused_landed.len()
    );
    Ok(failures.is_empty())
}
