//! Orchestrator session commands (SPEC section 1): `resume`, `show`, `history`, `archive`,
//! the lifecycle moves, `doctor` and `schema`, over `<root>/.claude/`.

use std::process::ExitCode;

use session_state::orchestrator::{
    DEFAULT_STALE_AFTER_HOURS, DoctorReport, HistoryQuery, OrchestratorSession, OrchestratorStore,
    RepairAction, ResumeOptions, SessionStatus, json_schema, render_resume, render_show,
    resume_summary_with,
};
use session_state::registry::RegistryDoctorReport;
use session_state::{Clock, Error, ErrorKind, Result};
use session_state_fs::SystemClock;

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
        /// Say the session is stale when it was last saved more than this many hours ago.
        #[arg(long, value_name = "HOURS", default_value_t = DEFAULT_STALE_AFTER_HOURS, value_parser = crate::numbers::whole::<u64>, allow_negative_numbers = true)]
        stale_after: u64,
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
        #[arg(long, default_value_t = 10, value_parser = crate::numbers::whole::<usize>, allow_negative_numbers = true)]
        limit: usize,
        /// Sessions skipped first.
        #[arg(long, default_value_t = 0, value_parser = crate::numbers::whole::<usize>, allow_negative_numbers = true)]
        offset: usize,
        /// Only sessions with this status (created, in_progress, paused, complete, aborted).
        #[arg(long, value_parser = parse_status)]
        status: Option<SessionStatus>,
        /// Print the page as JSON: `{entries: [{id, goal, status, created}], skipped: [{key,
        /// code, message}], total}`, as the Python and Node packages return it.
        #[arg(long)]
        json: bool,
        /// Print every session (the current one too) under the one it was forked from,
        /// indented; with `--json`, `{entries: [{depth, id, goal, status, created, forked_from,
        /// current}], skipped}`.
        #[arg(long, conflicts_with_all = ["limit", "offset", "status"])]
        tree: bool,
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

pub type Sessions = OrchestratorStore<crate::store_choice::CliStore, SystemClock>;

/// The sessions of the project folder, which must exist (see `Context::project_root`).
pub fn sessions(ctx: &Context) -> Result<Sessions> {
    let root = ctx.project_root()?;
    let sessions = OrchestratorStore::new(Context::store(root)?, ctx.clock)
        .with_max_document_bytes(crate::input::max_bytes(ctx))
        .with_git_head(session_state_fs::git_head(root));
    sessions.set_writer(super::ownership::writer_from_env());
    Ok(sessions)
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
1. **Start fresh**: move `.claude/orchestrator-session.json` aside, then `session-state new`
2. **View history**: `session-state history`
3. **Manual recovery**: `session-state doctor --fix` keeps a copy and extracts what it can
";

/// The current session to show: also one whose id cannot name an archive file, with a
/// warning saying how to repair it.
fn current(sessions: &Sessions) -> Result<Option<OrchestratorSession>> {
    let Some((doc, unsafe_id)) = sessions.load_to_show().inspect_err(recovery_hint)? else {
        return Ok(None);
    };
    if let Some(e) = unsafe_id {
        crate::terminal::err!(
            "warning: {}: it cannot be saved or archived as it is; `session-state doctor --fix` \
             gives it a safe id (the old one kept as `original_session_id`)",
            safe(e.message())
        );
    }
    Ok(Some(doc))
}

/// Prints how to recover after a corrupt session file (another file's error says its own way).
pub(crate) fn recovery_hint(e: &Error) {
    let key = e.context_value("key");
    if e.kind() == ErrorKind::CorruptState
        && key.is_none_or(|k| k == session_state::orchestrator::current_key().as_str())
    {
        crate::terminal::err!("{RECOVERY}");
    }
}

/// Runs one orchestrator command.
#[allow(clippy::needless_pass_by_value)] // the signature every command module shares
pub fn run(cmd: Command, ctx: &Context) -> Result<ExitCode> {
    match cmd {
        Command::Resume { json, stale_after } => {
            let sessions = sessions(ctx)?;
            let Some(doc) = current(&sessions)? else {
                out!("{}", if json { "null" } else { "No session to resume" });
                return Ok(ExitCode::from(1));
            };
            let options = ResumeOptions {
                stale_after_hours: Some(stale_after),
                git_head: sessions.git_head().cloned(),
            };
            let summary = resume_summary_with(&doc, ctx.clock.now(), &options);
            if json {
                print_json(&summary);
            } else {
                print!("{}", safe(&render_resume(&summary)));
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
                print!("{}", safe(&render_show(&doc)));
            }
        }
        Command::History {
            limit,
            offset,
            status,
            json,
            tree,
        } => {
            let sessions = sessions(ctx)?;
            if tree {
                super::fork::print_tree(&sessions.history_tree()?, json);
                return Ok(ExitCode::SUCCESS);
            }
            let page = sessions.list_history(&HistoryQuery {
                limit,
                offset,
                status,
            })?;
            unreadable_archives(page.skipped.len());
            if json {
                print_json(&page);
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
                let shown = offset.saturating_add(page.entries.len());
                if shown < page.total {
                    crate::terminal::err!(
                        "{} of {} archived sessions shown: `--offset {shown}` for the next",
                        page.entries.len(),
                        page.total
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
        Command::Start | Command::Continue => {
            stay_or_move(&sessions(ctx)?, SessionStatus::InProgress)?;
        }
        Command::Pause => stay_or_move(&sessions(ctx)?, SessionStatus::Paused)?,
        Command::Complete { replace } => {
            moved(&sessions(ctx)?.move_to_with(SessionStatus::Complete, replace)?);
        }
        Command::Abort { replace } => {
            moved(&sessions(ctx)?.move_to_with(SessionStatus::Aborted, replace)?);
        }
        Command::Doctor { fix, json } => return doctor(ctx, fix, json),
        Command::Schema => print_json(&json_schema()),
    }
    Ok(ExitCode::SUCCESS)
}

/// One line on stderr for the history files that could not be read (their errors are in
/// `doctor`), whatever the page.
fn unreadable_archives(count: usize) {
    match count {
        0 => {}
        1 => crate::terminal::err!(
            "warning: 1 archive could not be read: run `session-state doctor`"
        ),
        n => crate::terminal::err!(
            "warning: {n} archives could not be read: run `session-state doctor`"
        ),
    }
}

pub fn no_current() -> Error {
    Error::new(
        ErrorKind::NotFound,
        "there is no current orchestrator session",
    )
}

/// Moves the current session to `to` (not final); a session already there is left as it is
/// and said to be.
fn stay_or_move(sessions: &Sessions, to: SessionStatus) -> Result<()> {
    // Errors are left to the move, which reports them.
    let before = sessions.load().ok().flatten().map(|doc| doc.status);
    let doc = sessions.move_to(to)?;
    if before == Some(to) && doc.status == to {
        out!("session `{}` is already {to}", doc.session_id);
    } else {
        moved(&doc);
    }
    Ok(())
}

fn moved(doc: &OrchestratorSession) {
    out!("{}", moved_line(doc));
}

/// `` session `ID` is now STATUS ``, with ` (archived)` after a final move.
pub fn moved_line(doc: &OrchestratorSession) -> String {
    let archived = if doc.status.is_final() {
        " (archived)"
    } else {
        ""
    };
    format!(
        "session `{}` is now {}{archived}",
        doc.session_id, doc.status
    )
}

/// What `doctor` found (and with `fix` repaired) under the project folder.
#[derive(Debug)]
pub struct Checked {
    /// The session files.
    pub sessions: DoctorReport,
    /// The registry's files.
    pub registry: RegistryDoctorReport,
    /// Whether leftovers were removed (`fix`) rather than only found.
    pub fix: bool,
}

impl Checked {
    /// Problems left in either part.
    pub fn problems(&self) -> usize {
        // Leftovers found are a problem (`fix` removes them); removed ones are not.
        let leftovers = if self.fix {
            0
        } else {
            self.leftovers().count()
        };
        self.sessions.problems.len() + self.registry.problems.len() + leftovers
    }

    /// Temporary files of writers killed mid-write, in both parts.
    pub fn leftovers(&self) -> impl Iterator<Item = &session_state::Leftover> {
        self.sessions
            .leftovers
            .iter()
            .chain(&self.registry.leftovers)
    }

    /// The `--json` form: the session files' report, with the registry's under `registry`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(&self.sessions).unwrap_or_default();
        value["registry"] = serde_json::to_value(&self.registry).unwrap_or_default();
        value
    }

    /// The text form, one line each: repairs, problems, then `ok: N file(s) checked` when none
    /// is left.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for r in &self.sessions.repaired {
            if let (RepairAction::MovedAside, Some(limit)) = (r.action, r.limit) {
                lines.push(format!(
                    "moved {} aside: it is larger than the read limit of {limit} bytes (copy \
                     kept at {}; to use it, move it back and raise `--max-bytes`)",
                    r.key, r.kept_copy
                ));
                continue;
            }
            if r.action == RepairAction::MovedAside {
                lines.push(format!(
                    "moved {} aside: nothing could be salvaged (corrupt copy kept at {})",
                    r.key, r.kept_copy
                ));
                continue;
            }
            lines.push(format!(
                "repaired {} (corrupt copy kept at {})",
                r.key, r.kept_copy
            ));
            if !r.missing.is_empty() {
                lines.push(format!("  filled with defaults: {}", r.missing.join(", ")));
            }
            if !r.replaced.is_empty() {
                lines.push(format!("  replaced or dropped: {}", r.replaced.join(", ")));
            }
        }
        for p in &self.sessions.problems {
            let hint = match (p.fixable, p.code.as_str()) {
                (true, "invalid_input") => {
                    " (read it with a larger `--max-bytes`, or `--fix` moves it aside)"
                }
                (true, _) => " (fixable with --fix)",
                (false, _) => "",
            };
            lines.push(format!("{}: error[{}]: {}{hint}", p.key, p.code, p.message));
        }
        lines.extend(super::registry::doctor::lines(&self.registry));
        for l in self.leftovers() {
            lines.push(if self.fix {
                format!(
                    "removed {} ({} bytes left by a writer killed mid-write)",
                    l.path, l.bytes
                )
            } else {
                format!(
                    "{}: a temporary file of {} bytes left by a writer killed mid-write \
                     (removable with --fix)",
                    l.path, l.bytes
                )
            });
        }
        if self.problems() == 0 {
            lines.push(format!(
                "ok: {} file(s) checked",
                self.sessions.checked + self.registry.checked
            ));
        }
        lines
    }
}

/// Runs `doctor` over the project folder: a report only unless `fix`.
pub fn check(ctx: &Context, fix: bool) -> Result<Checked> {
    Ok(Checked {
        sessions: sessions(ctx)?.doctor(fix)?,
        registry: super::registry::doctor::check(ctx, fix)?,
        fix,
    })
}

fn doctor(ctx: &Context, fix: bool, json: bool) -> Result<ExitCode> {
    let checked = check(ctx, fix)?;
    if json {
        print_json(&checked.to_json());
    } else {
        for line in checked.lines() {
            out!("{line}");
        }
    }
    Ok(doctor_exit(checked.problems()))
}

fn doctor_exit(problems: usize) -> ExitCode {
    if problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    }
}
