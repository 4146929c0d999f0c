//! Orchestrator session commands (SPEC section 1): `resume`, `show`, `history`, `archive`,
//! the lifecycle moves, `doctor` and `schema`, over `<root>/.claude/`.

use std::process::ExitCode;

use session_state::orchestrator::{
    HistoryQuery, OrchestratorSession, OrchestratorStore, RepairAction, SessionStatus, json_schema,
    render_markdown, resume_summary,
};
use session_state::{Clock, Error, ErrorKind, Result};
use session_state_fs::{FsStore, SystemClock};

use crate::context::Context;

use crate::terminal::{cell, out, safe};

/// The orchestrator commands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Show the "RESUMING SESSION" summary of the current session (exit 1 when there is none).
    Resume {
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show the current session.
    Show {
        /// Print the whole document as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List archived sessions, newest first.
    History {
        /// Most sessions listed.
        #[arg(long, default_value_t = 10)]
        limit: usize,
        /// Sessions skipped first.
        #[arg(long, default_value_t = 0)]
        offset: usize,
        /// Only sessions with this status (created, in_progress, paused, complete, aborted).
        #[arg(long, value_parser = parse_status)]
        status: Option<SessionStatus>,
        /// Print a JSON array of {id, goal, status, created}.
        #[arg(long)]
        json: bool,
    },
    /// Move the current session to the history folder.
    Archive {
        /// Replace an existing archive with the same session id.
        #[arg(long)]
        replace: bool,
    },
    /// Move the current session to `in_progress` (from `created`, or from `paused` as `continue`).
    Start,
    /// Move the current session from `in_progress` to `paused` (it stays current).
    Pause,
    /// Move the current session to `in_progress` (from `paused`, or from `created` as `start`).
    Continue,
    /// Move the current session to `complete` and archive it (all or nothing).
    Complete {
        /// Replace an existing archive with the same session id.
        #[arg(long)]
        replace: bool,
    },
    /// Move the current session to `aborted` and archive it (all or nothing).
    Abort {
        /// Replace an existing archive with the same session id.
        #[arg(long)]
        replace: bool,
    },
    /// Check the current and archived session files and the registry's files, and look for
    /// temporary files left by writers killed mid-write; exit 3 when problems remain.
    Doctor {
        /// Repair corrupt files from what can be salvaged (a copy of each is kept first), and
        /// remove the temporary files of killed writers.
        #[arg(long)]
        fix: bool,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the JSON Schema of the session document (schema "1.0").
    Schema,
}

fn parse_status(text: &str) -> std::result::Result<SessionStatus, String> {
    SessionStatus::parse(text).map_err(|e| e.to_string())
}

pub(crate) type Sessions = OrchestratorStore<FsStore, SystemClock>;

/// The sessions of the project folder, which must exist (see `Context::project_root`).
pub(crate) fn sessions(ctx: &Context) -> Result<Sessions> {
    Ok(
        OrchestratorStore::new(Context::store(ctx.project_root()?)?, ctx.clock)
            .with_max_document_bytes(crate::input::max_bytes(ctx)),
    )
}

fn print_json(value: &impl serde::Serialize) {
    out!(
        "{}",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

pub(crate) const RECOVERY: &str = "\
## ⚠️ SESSION RECOVERY

The previous session file appears corrupted.

**Options**:
1. **Start fresh**: archive or move the file aside, then begin a new session
2. **View history**: `session-state history`
3. **Manual recovery**: `session-state doctor --fix` keeps a copy and extracts what it can
";

fn current(sessions: &Sessions) -> Result<Option<OrchestratorSession>> {
    sessions.load().inspect_err(recovery_hint)
}

/// Prints how to recover after a corrupt file.
pub(crate) fn recovery_hint(e: &Error) {
    if e.kind() == ErrorKind::CorruptState {
        eprintln!("{RECOVERY}");
    }
}

/// Runs one orchestrator command.
#[allow(clippy::needless_pass_by_value)] // the signature every command module shares
pub fn run(cmd: Command, ctx: &Context) -> Result<ExitCode> {
    match cmd {
        Command::Resume { json } => {
            let sessions = sessions(ctx)?;
            let Some(doc) = current(&sessions)? else {
                out!("{}", if json { "null" } else { "No session to resume" });
                return Ok(ExitCode::from(1));
            };
            let summary = resume_summary(&doc, ctx.clock.now());
            if json {
                print_json(&summary);
            } else {
                print!("{}", safe(&render_markdown(&summary)));
            }
        }
        Command::Show { json } => {
            let sessions = sessions(ctx)?;
            let Some(doc) = current(&sessions)? else {
                out!("{}", if json { "null" } else { "No current session" });
                return Ok(ExitCode::from(1));
            };
            if json {
                print!("{}", String::from_utf8_lossy(&doc.to_pretty_json()));
            } else {
                show(&doc);
            }
        }
        Command::History {
            limit,
            offset,
            status,
            json,
        } => {
            let sessions = sessions(ctx)?;
            let page = sessions.list_history(&HistoryQuery {
                limit,
                offset,
                status,
            })?;
            for skipped in &page.skipped {
                eprintln!(
                    "warning: skipped `{}`: error[{}]: {}",
                    skipped.key, skipped.code, skipped.message
                );
            }
            if json {
                print_json(&page.entries);
            } else if page.entries.is_empty() && page.total == 0 {
                out!("No archived sessions");
            } else if page.entries.is_empty() {
                let filter = status.map_or(String::new(), |s| format!(" with status {s}"));
                out!("no sessions in this page ({} archived{filter})", page.total);
            } else {
                for e in &page.entries {
                    let created = e.created.to_string();
                    out!(
                        "{created:<24}  {:<11}  {}  {}",
                        e.status.as_str(),
                        cell(&e.id),
                        cell(&e.goal)
                    );
                }
            }
        }
        Command::Archive { replace } => {
            let sessions = sessions(ctx)?;
            let doc = sessions
                .load_to_rewrite()
                .inspect_err(recovery_hint)?
                .ok_or_else(no_current)?;
            let key = sessions.archive(&doc, replace)?;
            out!("archived session `{}` to {key}", doc.session_id);
        }
        Command::Start => moved(&sessions(ctx)?.start()?),
        Command::Pause => moved(&sessions(ctx)?.pause()?),
        Command::Continue => moved(&sessions(ctx)?.resume()?),
        Command::Complete { replace } => {
            moved(&sessions(ctx)?.move_to_with(SessionStatus::Complete, replace)?);
        }
        Command::Abort { replace } => {
            moved(&sessions(ctx)?.move_to_with(SessionStatus::Aborted, replace)?);
        }
        Command::Doctor { fix, json } => return doctor(&sessions(ctx)?, ctx, fix, json),
        Command::Schema => print_json(&json_schema()),
    }
    Ok(ExitCode::SUCCESS)
}

fn no_current() -> Error {
    Error::new(
        ErrorKind::NotFound,
        "there is no current orchestrator session",
    )
}

fn moved(doc: &OrchestratorSession) {
    let archived = if doc.status.is_final() {
        " (archived)"
    } else {
        ""
    };
    out!(
        "session `{}` is now {}{archived}",
        doc.session_id,
        doc.status
    );
}

fn show(doc: &OrchestratorSession) {
    out!("session:  {}", cell(&doc.session_id));
    out!("goal:     {}", cell(&doc.goal));
    out!("status:   {}", doc.status);
    out!("mode:     {}", doc.mode);
    out!("created:  {}", doc.created);
    out!("updated:  {}", doc.updated);
    out!(
        "project:  {} ({})",
        cell(&doc.project.name),
        cell(&doc.project.path)
    );
    out!("agents:");
    for a in &doc.agents {
        let progress = a.progress.map(|p| format!(" {p}%")).unwrap_or_default();
        out!(
            "  {:<12} {:<12} {}{progress}",
            cell(&a.id),
            a.status.as_str(),
            cell(&a.task)
        );
    }
    out!("pending:  {}", doc.pending_tasks.len());
    out!("errors:   {}", doc.errors.len());
}

fn doctor(sessions: &Sessions, ctx: &Context, fix: bool, json: bool) -> Result<ExitCode> {
    let report = sessions.doctor(fix)?;
    let registry = super::registry::doctor::check(ctx, fix)?;
    let leftovers: Vec<_> = report.leftovers.iter().chain(&registry.leftovers).collect();
    // Leftovers found are a problem (`--fix` removes them); removed ones are not.
    let problems =
        report.problems.len() + registry.problems.len() + if fix { 0 } else { leftovers.len() };
    if json {
        let mut value = serde_json::to_value(&report).unwrap_or_default();
        value["registry"] = serde_json::to_value(&registry).unwrap_or_default();
        print_json(&value);
    } else {
        for r in &report.repaired {
            if r.action == RepairAction::MovedAside {
                out!(
                    "moved {} aside: nothing could be salvaged (corrupt copy kept at {})",
                    r.key,
                    r.kept_copy
                );
                continue;
            }
            out!("repaired {} (corrupt copy kept at {})", r.key, r.kept_copy);
            if !r.missing.is_empty() {
                out!("  filled with defaults: {}", r.missing.join(", "));
            }
        }
        for p in &report.problems {
            let hint = if p.fixable {
                " (fixable with --fix)"
            } else {
                ""
            };
            out!("{}: error[{}]: {}{hint}", p.key, p.code, p.message);
        }
        super::registry::doctor::print(&registry);
        for l in &leftovers {
            if fix {
                out!(
                    "removed {} ({} bytes left by a writer killed mid-write)",
                    l.path,
                    l.bytes
                );
            } else {
                out!(
                    "{}: a temporary file of {} bytes left by a writer killed mid-write \
                     (removable with --fix)",
                    l.path,
                    l.bytes
                );
            }
        }
        if problems == 0 {
            out!("ok: {} file(s) checked", report.checked + registry.checked);
        }
    }
    Ok(if problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    })
}
