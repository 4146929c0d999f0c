//! `fork [SESSION_ID]`: a copy of a session as the new current session, with its origin
//! (`forked_from`); and the tree of `history --tree`.

use std::process::ExitCode;

use session_state::Result;
use session_state::orchestrator::{ForkOptions, ForkedFrom, HistoryTree, OrchestratorSession};

use super::orchestrator::{recovery_hint, sessions};
use super::record::random_suffix;
use crate::context::Context;
use crate::terminal::{cell, out};

/// The arguments of `fork`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The session to fork: an archived session's id, or the current one's (default: the
    /// current session, archived first as it is).
    pub session_id: Option<String>,
    /// The new session's id (default `YYYY-MM-DD-` and six random hex digits).
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
    /// When forking an archived session while another is current: archive the current one
    /// as it is first.
    #[arg(long)]
    pub archive_current: bool,
    /// Print the new session document as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `fork`.
pub fn run(args: &Args, ctx: &Context) -> Result<ExitCode> {
    let options = ForkOptions {
        session_id: args.session_id.clone(),
        new_id: args.id.clone(),
        suffix: Some(random_suffix()),
        archive_current: args.archive_current,
    };
    let doc = sessions(ctx)?.fork(&options).inspect_err(recovery_hint)?;
    if args.json {
        print!("{}", String::from_utf8_lossy(&doc.to_pretty_json()));
    } else {
        out!("{}", forked_line(&doc));
    }
    Ok(ExitCode::SUCCESS)
}

/// `` session `NEW` (created): forked from `OLD` ``.
pub fn forked_line(doc: &OrchestratorSession) -> String {
    let from = ForkedFrom::of(doc).map_or_else(String::new, |f| f.session_id);
    format!(
        "session `{}` ({}): forked from `{}`",
        cell(&doc.session_id),
        doc.status,
        cell(&from)
    )
}

/// Prints `tree`: one line per session, indented two spaces per fork, the current session
/// marked; or the JSON of it.
pub fn print_tree(tree: &HistoryTree, json: bool) {
    if !tree.skipped.is_empty() {
        crate::terminal::err!(
            "warning: {} archive(s) could not be read: run `session-state doctor`",
            tree.skipped.len()
        );
    }
    if json {
        out!("{}", serde_json::to_string_pretty(tree).unwrap_or_default());
        return;
    }
    if tree.entries.is_empty() {
        out!("No sessions");
        return;
    }
    let ids: std::collections::HashSet<&str> = tree.entries.iter().map(|e| e.id.as_str()).collect();
    for e in &tree.entries {
        let indent = "  ".repeat(e.depth);
        let current = if e.current { " (current)" } else { "" };
        let gone = match e.forked_from.as_deref() {
            Some(from) if !ids.contains(from) => format!(" (forked from `{}`, gone)", cell(from)),
            _ => String::new(),
        };
        out!(
            "{indent}{}  {:<11}  {}  {}{current}{gone}",
            e.created,
            e.status.as_str(),
            cell(&e.id),
            cell(&e.goal)
        );
    }
}
