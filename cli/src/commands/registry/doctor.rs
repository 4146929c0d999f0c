//! The registry's part of `doctor`: `.moai/memory/agent-sessions.json`,
//! `workflow-chains.json` and the journal under `--root`, checked (and with `--fix`
//! repaired) by [`AgentRegistry::doctor`](session_state::registry::AgentRegistry::doctor).
//! Team files are not checked: they live under another root (`~/.claude/teams`).

use session_state::Result;
use session_state::registry::RegistryDoctorReport;

use crate::context::Context;

/// Runs the registry's doctor over `--root`.
pub fn check(ctx: &Context, fix: bool) -> Result<RegistryDoctorReport> {
    super::open(ctx)?.doctor(fix)
}

/// The report's lines in the orchestrator doctor's format (none when all is well).
pub fn lines(report: &RegistryDoctorReport) -> Vec<String> {
    let mut lines = Vec::new();
    for r in &report.repaired {
        lines.push(format!(
            "repaired {} ({}; corrupt copy kept at {})",
            r.key, r.action, r.kept_copy
        ));
    }
    for p in &report.problems {
        let hint = if p.fixable {
            " (fixable with --fix)"
        } else {
            ""
        };
        lines.push(format!("{}: error[{}]: {}{hint}", p.key, p.code, p.message));
    }
    lines
}
