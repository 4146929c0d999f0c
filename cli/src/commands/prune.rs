//! `prune`: archived sessions (by `--keep`, `--older-than`, `--status`), the registry's old
//! agents (`--registry --older-than`), a team's old members (`--team NAME --older-than`) or
//! the stale live-session entries (`--live`).
//! A dry run that prints exactly what would go, unless `--apply`.

use std::process::ExitCode;

use session_state::orchestrator::{PruneHistoryOptions, SessionStatus};
use session_state::registry::{AgentRegistry, PruneRegistryOptions};
use session_state::retention::{PruneKind, PrunePlan};
use session_state::team::PruneTeamOptions;
use session_state::{Error, Result};

use super::orchestrator::{recovery_hint, sessions};
use crate::context::Context;
use crate::terminal::{cell, out};

/// The arguments of `prune`.
#[derive(Debug, clap::Args)]
#[allow(clippy::struct_excessive_bools)] // each is a command-line flag
pub struct Args {
    /// Archived sessions: keep the newest N (of those with `--status`, when given).
    #[arg(long, value_name = "N", conflicts_with_all = ["registry", "team"], value_parser = crate::numbers::whole::<u64>, allow_negative_numbers = true)]
    pub keep: Option<u64>,
    /// Only what is older than this many days: archived sessions by `updated`, registry agents
    /// by their last activity, team members by `createdAt` (required with `--registry` and
    /// `--team`).
    #[arg(long, value_name = "DAYS", value_parser = crate::numbers::whole::<u64>, allow_negative_numbers = true)]
    pub older_than: Option<u64>,
    /// Archived sessions: only those with this status.
    #[arg(long, value_parser = parse_status, conflicts_with_all = ["registry", "team"])]
    pub status: Option<SessionStatus>,
    /// Prune the sub-agent registry: agents with their metadata, result and chain entries
    /// (the current session's agents stay); chains left empty go too.
    #[arg(long, requires = "older_than", conflicts_with = "team")]
    pub registry: bool,
    /// Prune a team's member files under the root (`--root`, default `~/.claude`).
    #[arg(long, value_name = "NAME", requires = "older_than")]
    pub team: Option<String>,
    /// Prune the live-session entries that went stale (no heartbeat for longer than their
    /// TTL), with the scopes they claimed; live entries stay.
    #[arg(long, conflicts_with_all = ["keep", "older_than", "status", "registry", "team"])]
    pub live: bool,
    /// Remove what the dry run lists.
    #[arg(long)]
    pub apply: bool,
    /// Print the plan as JSON: `{applied, removed: [{kind, id, removes, reason}], kept: [{kind,
    /// id, reason}]}`.
    #[arg(long)]
    pub json: bool,
}

fn parse_status(text: &str) -> std::result::Result<SessionStatus, String> {
    SessionStatus::parse(text).map_err(|e| e.to_string())
}

/// What to prune, as the MCP tool takes it: the flags of the command, `--older-than` as
/// `older_than_days`.
#[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Request {
    /// Archived sessions: keep the newest N (of those with `status`, when given).
    pub keep: Option<u64>,
    /// Only what is older than this many days (required with `registry` and `team`).
    pub older_than_days: Option<u64>,
    /// Archived sessions: only those with this status.
    pub status: Option<SessionStatus>,
    /// Prune the sub-agent registry instead of the history.
    pub registry: bool,
    /// Prune this team's member files instead of the history.
    pub team: Option<String>,
    /// Prune the stale live-session entries instead of the history.
    pub live: bool,
    /// Remove what the plan lists (default false: a dry run that changes nothing).
    pub apply: bool,
}

/// Runs `prune`.
pub fn run(args: &Args, ctx: &Context) -> Result<ExitCode> {
    let request = Request {
        keep: args.keep,
        older_than_days: args.older_than,
        status: args.status,
        registry: args.registry,
        team: args.team.clone(),
        live: args.live,
        apply: args.apply,
    };
    let plan = prune(ctx, ctx, &request)?;
    if args.json {
        out!(
            "{}",
            serde_json::to_string_pretty(&plan).unwrap_or_default()
        );
    } else {
        for line in lines(&plan) {
            out!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The plan of `request` (applied when it says so) over the project folder of `project` or
/// the teams root of `teams`.
///
/// # Errors
/// `invalid_input` for criteria that do not go together or are missing; the errors of the
/// prunes.
pub fn prune(project: &Context, teams: &Context, request: &Request) -> Result<PrunePlan> {
    let history = request.keep.is_some() || request.status.is_some();
    let others = usize::from(request.registry)
        + usize::from(request.team.is_some())
        + usize::from(request.live);
    let live_with_days = request.live && request.older_than_days.is_some();
    if others > 1 || (others == 1 && history) || live_with_days {
        return Err(no_criterion());
    }
    if request.live {
        return sessions(project)?.prune_live(request.apply);
    }
    if let Some(team) = &request.team {
        let options = PruneTeamOptions {
            older_than_days: request.older_than_days.ok_or_else(no_criterion)?,
            apply: request.apply,
        };
        let (store, _) = super::team::members(teams, team)?;
        return store.prune(team, &options);
    }
    if request.registry {
        let days = request.older_than_days.ok_or_else(no_criterion)?;
        return registry(project, days, request.apply);
    }
    let options = PruneHistoryOptions {
        keep: request.keep,
        older_than_days: request.older_than_days,
        status: request.status,
        apply: request.apply,
    };
    options.validate().map_err(|_| no_criterion())?;
    sessions(project)?
        .prune_history(&options)
        .inspect_err(recovery_hint)
}

/// The registry prune, keeping the agents of the current session.
fn registry(ctx: &Context, older_than_days: u64, apply: bool) -> Result<PrunePlan> {
    let current = sessions(ctx)?.load().inspect_err(recovery_hint)?;
    let keep_agent_ids = current
        .map(|doc| doc.agents.into_iter().map(|a| a.id).collect())
        .unwrap_or_default();
    let options = PruneRegistryOptions {
        older_than_days,
        keep_agent_ids,
        apply,
    };
    AgentRegistry::new(Context::store(ctx.project_root()?)?, ctx.clock)
        .with_max_document_bytes(crate::input::max_bytes(ctx))
        .prune(&options)
}

fn no_criterion() -> Error {
    Error::invalid_input(
        "prune needs one kind of criterion: `--keep N`, `--older-than DAYS` or `--status S` \
         for archived sessions, `--registry --older-than DAYS`, `--team NAME --older-than \
         DAYS`, or `--live`",
    )
}

fn kind(kind: PruneKind) -> &'static str {
    match kind {
        PruneKind::Session => "session",
        PruneKind::Agent => "agent",
        PruneKind::Chain => "chain",
        PruneKind::TeamMember => "team member",
        PruneKind::LiveSession => "live session",
    }
}

/// One line per unit removed (or that would be), one per unit kept, then the count.
pub fn lines(plan: &PrunePlan) -> Vec<String> {
    let verb = if plan.applied {
        "removed"
    } else {
        "would remove"
    };
    let mut lines = Vec::new();
    for r in &plan.removed {
        lines.push(format!(
            "{verb} {} `{}` ({}): {}",
            kind(r.kind),
            cell(&r.id),
            r.removes.join(", "),
            r.reason
        ));
    }
    for k in &plan.kept {
        lines.push(format!(
            "keeping {} `{}`: {}",
            kind(k.kind),
            cell(&k.id),
            k.reason
        ));
    }
    let n = plan.removed.len();
    lines.push(match (plan.applied, n) {
        (_, 0) => "nothing to remove".to_owned(),
        (true, n) => format!("{n} removed"),
        (false, n) => format!("{n} to remove (dry run: nothing changed; `--apply` removes them)"),
    });
    lines
}
