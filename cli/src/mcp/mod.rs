//! `session-state mcp`: the commands as tools of a Model Context Protocol server over stdio,
//! built on the official Rust SDK (`rmcp`).
//!
//! Every tool acts on one project folder (`--root`, default the current folder) and one teams
//! root (`--teams-root`, default `~/.claude`), fixed when the server starts: no argument of any
//! tool names a path, so nothing outside those two is reachable. A tool is named as its CLI
//! verb in snake_case (`should-resume` is `should_resume`, `agent start` is `agent_start`) and
//! does what the verb does, through the same functions. Arguments are checked against the
//! tool's input schema (published from the core's types) before anything runs, and their size
//! against the CLI's input limit (`--max-bytes`, see [`limits`]); a failure is a
//! tool error whose structured content is `{code, message, context}` with the error kind's
//! code. Each call runs on a blocking thread, one read-modify-write under the file's lock as
//! for the CLI: a client that disconnects mid-call leaves the file as before or after the
//! call, never torn.

mod fork_tools;
mod limits;
mod record_tools;
mod registry_tools;
mod server;
mod session_tools;
mod team_tools;
mod tools;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use session_state::{Error, ErrorKind, Result};

use crate::context::Context;

/// Options of `session-state mcp` (the project folder is the global `--root`).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The folder holding `teams/` for the team tools (default `~/.claude`).
    #[arg(long, value_name = "DIR")]
    teams_root: Option<PathBuf>,
}

/// The two folders every tool is confined to.
#[derive(Debug)]
pub struct Roots {
    /// The project folder: orchestrator session and sub-agent registry.
    pub project: Context,
    /// The teams root, as the team commands' `--root`.
    pub teams: Context,
}

/// Serves the tools on stdin/stdout until the client closes stdin.
///
/// # Errors
/// `not_found` when `--root` or `--teams-root` is not an existing folder; `storage` when the
/// runtime cannot start or the transport fails.
pub fn run(root: Option<&Path>, max_bytes: usize, args: Args) -> Result<ExitCode> {
    let project = absolute(root.unwrap_or(Path::new(".")))?;
    let project = Context::new(Some(project), max_bytes);
    project.project_root()?;
    let teams = match args.teams_root {
        Some(dir) => Some(absolute(&dir)?),
        None => None,
    };
    let teams = Context::new(teams, max_bytes);
    teams.claude_root()?;
    server::serve(Roots { project, teams })?;
    Ok(ExitCode::SUCCESS)
}

fn absolute(path: &Path) -> Result<PathBuf> {
    std::path::absolute(path).map_err(|e| {
        Error::new(
            ErrorKind::NotFound,
            format!("folder `{}` cannot be resolved: {e}", path.display()),
        )
    })
}
