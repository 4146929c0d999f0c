//! Team agent spawn state (SPEC section 3): `teams`, `team TEAM`, `team TEAM --resume-plan`.
//!
//! The root is `--root` or `~/.claude`; files are `teams/{team}/sessions/{agent}.json`. These
//! commands only read: a missing root is never created. A `--root` that does not exist is a
//! `not_found` error (exit 1), as for every command; a missing default `~/.claude` means no
//! teams. Files that cannot be read or parsed are reported on stderr as `warning: skipped ...`
//! and never stop the listing.

use std::path::Path;
use std::process::ExitCode;

use session_state::team::{ResumeAction, ResumePlan, TeamListing, TeamStore, TeamSummary};
use session_state::{Error, ErrorKind, Result};
use session_state_fs::SystemClock;

use crate::context::Context;

use crate::terminal::out;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// List the teams under `<root>/teams` with their number of session files.
    Teams {
        /// Print a JSON array of `{"name", "sessions"}`.
        #[arg(long)]
        json: bool,
    },
    /// Show a team's members (backend, model, created), or its resume plan.
    Team {
        /// The team name.
        team: String,
        /// Show what re-spawning the team would do, member by member.
        #[arg(long)]
        resume_plan: bool,
        /// Print JSON: the members' documents, or the resume plan.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cmd: Command, ctx: &Context) -> Result<ExitCode> {
    match cmd {
        Command::Teams { json } => print_teams(&teams(ctx)?, json)?,
        Command::Team {
            team,
            resume_plan,
            json,
        } => {
            let (store, listing) = members(ctx, &team)?;
            if resume_plan {
                print_plan(&store.resume_plan(&team)?, json)?;
            } else {
                warn_skipped(&listing);
                print_members(&listing, json)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The teams under the root (none when the default `~/.claude` does not exist).
pub fn teams(ctx: &Context) -> Result<Vec<TeamSummary>> {
    match ctx.claude_root()? {
        Some(root) => open(&root, ctx)?.list_teams(),
        None => Ok(Vec::new()),
    }
}

/// The store and the listing of `team`, which must have session state under the root.
///
/// # Errors
/// `invalid_key` for a name the crate refuses; `not_found` when the team has no file.
pub fn members(ctx: &Context, team: &str) -> Result<(Teams, TeamListing)> {
    session_state::team::validate_name("team name", team)?;
    let root = ctx
        .claude_root()?
        .unwrap_or_else(Context::default_claude_root);
    let store = open(&root, ctx)?;
    let listing = store.list(team)?;
    if listing.members.is_empty() && listing.skipped.is_empty() {
        return Err(missing_team(team, &root));
    }
    Ok((store, listing))
}

/// The team files of a root.
pub type Teams = TeamStore<crate::store_choice::CliStore, SystemClock>;

/// A store over `root` (nothing is created: the team commands only read), reading files of
/// at most `--max-bytes`.
fn open(root: &Path, ctx: &Context) -> Result<Teams> {
    Ok(TeamStore::new(Context::store(root)?, SystemClock)
        .with_max_document_bytes(crate::input::max_bytes(ctx)))
}

fn missing_team(team: &str, root: &Path) -> Error {
    Error::new(
        ErrorKind::NotFound,
        format!(
            "team `{team}` has no session state under `{}`",
            root.join("teams").display()
        ),
    )
    .with_context("team", team)
}

fn to_json(value: &impl serde::Serialize) -> Result<String> {
    serde_json::to_string_pretty(value)
        .map_err(|e| Error::invalid_input(format!("cannot print json: {e}")))
}

fn print_teams(teams: &[TeamSummary], json: bool) -> Result<()> {
    if json {
        out!("{}", to_json(&teams)?);
        return Ok(());
    }
    if teams.is_empty() {
        out!("no teams");
        return Ok(());
    }
    let rows: Vec<Vec<String>> = teams
        .iter()
        .map(|t| vec![t.name.clone(), t.sessions.to_string()])
        .collect();
    crate::terminal::table(&["TEAM", "SESSIONS"], &rows);
    Ok(())
}

fn warn_skipped(listing: &TeamListing) {
    for file in &listing.skipped {
        // A file name may hold a line break (a name no key can hold): one line per file.
        crate::terminal::err!(
            "warning: skipped `{}` ({}): {}",
            crate::terminal::cell(&file.key),
            file.code,
            file.message
        );
    }
}

fn print_members(listing: &TeamListing, json: bool) -> Result<()> {
    if json {
        out!("{}", to_json(listing)?);
        return Ok(());
    }
    let rows: Vec<Vec<String>> = listing
        .members
        .iter()
        .map(|m| {
            vec![
                m.agent.clone(),
                m.state.backend_type.clone(),
                m.state.model.clone().unwrap_or_else(|| "-".into()),
                session_state::format_rfc3339(m.state.created_at),
            ]
        })
        .collect();
    crate::terminal::table(&["AGENT", "BACKEND", "MODEL", "CREATED"], &rows);
    Ok(())
}

fn print_plan(plan: &ResumePlan, json: bool) -> Result<()> {
    if json {
        out!("{}", to_json(&plan)?);
        return Ok(());
    }
    let rows: Vec<Vec<String>> = plan
        .members
        .iter()
        .map(|m| match &m.action {
            ResumeAction::Respawn {
                backend,
                config,
                warning,
            } => vec![
                m.agent.clone(),
                "respawn".into(),
                backend.to_string(),
                config.model.clone().unwrap_or_else(|| "-".into()),
                warning.clone().unwrap_or_default(),
            ],
            ResumeAction::Skip { reason, message } => vec![
                m.agent.clone(),
                "skip".into(),
                "-".into(),
                "-".into(),
                format!(
                    "{}: {message}",
                    serde_json::to_value(reason)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default()
                ),
            ],
        })
        .collect();
    crate::terminal::table(&["AGENT", "ACTION", "BACKEND", "MODEL", "NOTE"], &rows);
    Ok(())
}
