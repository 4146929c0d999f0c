//! Ownership of the current session and the live orchestrators: `claim`, `renew`, `release`,
//! `heartbeat` and `sessions --live`.
//!
//! The owner id is the caller's: `--owner ID`, or `SESSION_STATE_OWNER`, which also names the
//! owner of every other write (`record`, `pause`, ...): once a session is claimed, a write
//! naming another owner or none is refused with `conflict` (exit 3) naming the owner. The
//! claiming process recorded is the orchestrator that ran this command (see
//! `session_state_fs::process::owning_process`).

use std::process::ExitCode;

use serde::Serialize;
use session_state::ownership::{
    Claim, Heartbeat, HeartbeatOutcome, Lease, LiveStatus, ProcessInfo, Release, Writer,
};
use session_state::{Error, Result};
use session_state_fs::process::{is_running, owning_process};

use super::orchestrator::sessions;
use crate::context::Context;
use crate::terminal::{out, table};

/// The environment variable naming the owner when `--owner` is not given, for every write.
pub const OWNER_ENV: &str = "SESSION_STATE_OWNER";

/// The ownership commands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Make the caller the owner of the current session, or claim named scopes of work (exit 3
    /// with `conflict` naming the owner when someone else holds it).
    Claim {
        #[command(flatten)]
        owner: OwnerArg,
        /// Seconds the lease lasts without a renewal (`renew`, `heartbeat`); default 300.
        #[arg(long = "lease", value_name = "SECONDS", value_parser = crate::numbers::whole::<u64>, allow_negative_numbers = true)]
        lease_seconds: Option<u64>,
        /// Claim this scope of work (a chain id, a spec, free text) instead of the session;
        /// repeat for more.
        #[arg(long = "scope", value_name = "NAME")]
        scopes: Vec<String>,
        /// Take over another owner's lease once it has expired (and 5 s of clock skew passed).
        #[arg(long)]
        takeover: bool,
        /// Take over another owner's lease even before it expires (recorded in the lease).
        #[arg(long)]
        force: bool,
        /// Print the outcome as JSON: `{lease, live}`.
        #[arg(long)]
        json: bool,
    },
    /// Renew the caller's lease on the current session.
    Renew {
        #[command(flatten)]
        owner: OwnerArg,
        /// Seconds from now the lease lasts; default: the length it was claimed with.
        #[arg(long = "lease", value_name = "SECONDS", value_parser = crate::numbers::whole::<u64>, allow_negative_numbers = true)]
        lease_seconds: Option<u64>,
        /// Print the lease as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Release the caller's lease on the current session, or the scopes named.
    Release {
        #[command(flatten)]
        owner: OwnerArg,
        /// Release this scope instead of the session; repeat for more.
        #[arg(long = "scope", value_name = "NAME")]
        scopes: Vec<String>,
        /// Print the outcome as JSON: `{lease, live}`.
        #[arg(long)]
        json: bool,
    },
    /// Record that the caller is alive (its entry in `.claude/live/`), and renew its lease
    /// when it owns the current session.
    Heartbeat {
        #[command(flatten)]
        owner: OwnerArg,
        /// Seconds the entry stays live without another heartbeat; default 1800.
        #[arg(long = "ttl", value_name = "SECONDS", value_parser = crate::numbers::whole::<u64>, allow_negative_numbers = true)]
        ttl_seconds: Option<u64>,
        /// Print the outcome as JSON: `{lease, renewed, live}`.
        #[arg(long)]
        json: bool,
    },
    /// List the live orchestrators with their age; stale ones are shown as stale with the
    /// reason.
    Sessions {
        /// The live orchestrators (`.claude/live/`).
        #[arg(long, required = true)]
        live: bool,
        /// Print them as JSON: `[{key, entry, age_seconds, heartbeat_age_seconds, stale,
        /// reason, process_running}]`.
        #[arg(long)]
        json: bool,
    },
}

/// `--owner ID`.
#[derive(Debug, clap::Args)]
pub struct OwnerArg {
    /// The owner id (default: `SESSION_STATE_OWNER`).
    #[arg(long, value_name = "ID")]
    owner: Option<String>,
}

impl OwnerArg {
    fn resolve(&self) -> Result<String> {
        self.owner.clone().or_else(owner_from_env).ok_or_else(|| {
            Error::invalid_input(format!("no owner: give `--owner ID` or set {OWNER_ENV}"))
                .with_context("field", "owner")
        })
    }
}

/// `SESSION_STATE_OWNER`, when set and not blank.
pub fn owner_from_env() -> Option<String> {
    std::env::var(OWNER_ENV)
        .ok()
        .filter(|owner| !owner.trim().is_empty())
}

/// The writer every session command writes as: the owner in `SESSION_STATE_OWNER`, if any.
pub fn writer_from_env() -> Option<Writer> {
    owner_from_env().map(Writer::owner)
}

fn print_json(value: &impl Serialize) {
    out!(
        "{}",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

fn lease_line(lease: &Lease) -> String {
    let until = lease
        .expires
        .map_or_else(|| "no expiry".to_owned(), |t| format!("until {t}"));
    format!("epoch {}, lease {until}", lease.epoch)
}

/// Runs one ownership command.
pub fn run(cmd: Command, ctx: &Context) -> Result<ExitCode> {
    let sessions = sessions(ctx)?;
    match cmd {
        Command::Claim {
            owner,
            lease_seconds,
            scopes,
            takeover,
            force,
            json,
        } => {
            let claim = Claim {
                owner: owner.resolve()?,
                lease_seconds,
                scopes,
                takeover,
                force,
                process: owning_process()?,
                ..Claim::default()
            };
            let outcome = sessions.claim(&claim)?;
            if json {
                print_json(&outcome);
            } else if let Some(lease) = &outcome.lease {
                let how = if lease.forced {
                    ", by force"
                } else if lease.took_over_from.is_some() {
                    ", taken over"
                } else {
                    ""
                };
                // A claim may come before the session: the lease then covers the next one saved.
                let none_yet = if matches!(sessions.load(), Ok(None)) {
                    ", none saved yet: the lease covers the next one"
                } else {
                    ""
                };
                out!(
                    "`{}` owns the current session{none_yet} ({}{how})",
                    claim.owner,
                    lease_line(lease)
                );
            } else {
                out!("`{}` holds scope(s) {}", claim.owner, quoted(&claim.scopes));
            }
        }
        Command::Renew {
            owner,
            lease_seconds,
            json,
        } => {
            let owner = owner.resolve()?;
            let lease = sessions.renew(&owner, lease_seconds)?;
            if json {
                print_json(&lease);
            } else {
                out!("`{owner}` renewed its lease ({})", lease_line(&lease));
            }
        }
        Command::Release {
            owner,
            scopes,
            json,
        } => {
            let owner = owner.resolve()?;
            let outcome = sessions.release(&Release {
                owner: owner.clone(),
                scopes: scopes.clone(),
                session_id: None,
            })?;
            if json {
                print_json(&outcome);
            } else if let Some(lease) = &outcome.lease {
                out!(
                    "`{owner}` released the current session (epoch {} kept)",
                    lease.epoch
                );
            } else {
                out!("`{owner}` released scope(s) {}", quoted(&scopes));
            }
        }
        Command::Heartbeat {
            owner,
            ttl_seconds,
            json,
        } => {
            let owner = owner.resolve()?;
            let outcome = sessions.heartbeat(&Heartbeat {
                owner: owner.clone(),
                ttl_seconds,
                process: owning_process()?,
                ..Heartbeat::default()
            })?;
            print_heartbeat(&owner, &outcome, json);
        }
        Command::Sessions { live: _, json } => list(&sessions.live_sessions()?, json),
    }
    Ok(ExitCode::SUCCESS)
}

fn print_heartbeat(owner: &str, outcome: &HeartbeatOutcome, json: bool) {
    if json {
        print_json(outcome);
        return;
    }
    let lease = match &outcome.lease {
        Some(lease) if outcome.renewed => format!("lease renewed ({})", lease_line(lease)),
        Some(Lease {
            owner: Some(other), ..
        }) => format!("the current session is owned by `{other}`"),
        _ => "the current session has no owner".to_owned(),
    };
    out!("`{owner}` is live; {lease}");
}

fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A live entry as `sessions --live --json` prints it: with whether its process still runs
/// (`null` when this host cannot tell).
#[derive(Serialize)]
struct Listed<'a> {
    #[serde(flatten)]
    status: &'a LiveStatus,
    process_running: Option<bool>,
}

fn list(live: &[LiveStatus], json: bool) {
    let running = |s: &LiveStatus| s.entry.as_ref().and_then(|e| is_running(&e.process));
    if json {
        let listed: Vec<Listed<'_>> = live
            .iter()
            .map(|status| Listed {
                status,
                process_running: running(status),
            })
            .collect();
        print_json(&listed);
        return;
    }
    if live.is_empty() {
        out!("No live sessions");
        return;
    }
    let rows: Vec<Vec<String>> = live
        .iter()
        .map(|s| {
            let state = match (&s.reason, running(s)) {
                (Some(reason), _) => format!("stale: {reason}"),
                (None, Some(false)) => "live (its process is not running)".to_owned(),
                (None, _) => "live".to_owned(),
            };
            let Some(e) = &s.entry else {
                return vec![
                    s.key.clone(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    state,
                ];
            };
            vec![
                e.session_id.clone(),
                e.owner.clone(),
                process(&e.process),
                age(s.age_seconds),
                age(s.heartbeat_age_seconds),
                e.scopes.join(", "),
                e.goal.clone().unwrap_or_default(),
                state,
            ]
        })
        .collect();
    table(
        &[
            "SESSION",
            "OWNER",
            "PROCESS",
            "AGE",
            "HEARTBEAT",
            "SCOPES",
            "GOAL",
            "STATE",
        ],
        &rows,
    );
}

fn process(p: &ProcessInfo) -> String {
    match (p.pid, &p.host) {
        (Some(pid), Some(host)) => format!("{pid}@{host}"),
        (Some(pid), None) => pid.to_string(),
        (None, Some(host)) => host.clone(),
        (None, None) => String::new(),
    }
}

/// `45s`, `12m`, `3h`, `2d`.
fn age(seconds: u64) -> String {
    match seconds {
        s if s < 120 => format!("{s}s"),
        s if s < 7200 => format!("{}m", s / 60),
        s if s < 172_800 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86_400),
    }
}
