//! The resume summary: the seed's "RESUMING SESSION" block as data and as markdown
//! (SPEC section 1, "Resume summary").

use std::fmt::Write as _;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Number;

use super::document::{ContextUsage, OrchestratorSession};
use super::relative_time::relative_time;
use super::staleness::{ResumeOptions, Staleness, stale_lines, staleness};
use super::status::{AgentStatus, SessionStatus};
use crate::time::Timestamp;

/// One completed-work line: `- ✅ {task} ({outcome})`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct WorkLine {
    /// The task.
    pub task: String,
    /// Its outcome (the parentheses are left out when empty).
    pub outcome: String,
}

/// One in-progress agent line: `- 🔄 {id}: {task} ({progress}%)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AgentLine {
    /// Agent id.
    pub id: String,
    /// Agent task.
    pub task: String,
    /// Progress in percent (0 when the agent has none).
    pub progress: u8,
}

/// The context budget lines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ContextBudget {
    /// `context_usage.estimated_tokens`.
    pub estimated_tokens: u64,
    /// `context_usage.percentage`, as written.
    pub percentage: Number,
    /// `context_usage.last_compression` (`None`: never).
    pub last_compression: Option<Timestamp>,
    /// `last_compression` relative to now ("3 hours ago"), or `None`.
    pub last_compression_relative: Option<String>,
}

/// Everything the "RESUMING SESSION" block shows, as plain data (for `--json` and bindings).
///
/// A value the document does not really hold is `None` (JSON `null`, "unknown" in the
/// markdown), never a stand-in: a salvaged document's empty goal, or its `created` filled with
/// the Unix epoch (see `known_time`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ResumeSummary {
    /// Session id.
    pub session_id: String,
    /// Session goal; `None` when empty.
    #[serde(default)]
    pub goal: Option<String>,
    /// Session status.
    pub status: SessionStatus,
    /// When the session was created; `None` when unknown (`known_time`).
    #[serde(default)]
    pub started: Option<Timestamp>,
    /// `started` relative to now, see `relative_time`; `None` when `started` is.
    #[serde(default)]
    pub started_relative: Option<String>,
    /// Mean progress over agents, see `progress_percent`.
    pub progress_percent: u8,
    /// One line per `completed_work` item.
    pub completed_work: Vec<WorkLine>,
    /// Each agent with status `in_progress`, in document order.
    pub in_progress: Vec<AgentLine>,
    /// `pending_tasks`, in order.
    pub pending: Vec<String>,
    /// Context budget.
    pub context: ContextBudget,
    /// The agent to resume from: the first in-progress agent.
    pub resume_from: Option<String>,
    /// What moved since the last save (empty from [`resume_summary`]; see
    /// [`resume_summary_with`](super::resume_summary_with)); left out of the JSON when empty.
    #[serde(default, skip_serializing_if = "Staleness::is_empty")]
    pub stale: Staleness,
}

/// Progress of a session in percent: the mean over its agents of their progress, where a
/// `complete` agent counts 100 and an agent without `progress` counts 0; no agents gives 0.
/// The mean is rounded to the nearest integer, halves up. (The seed's example shows 60% for
/// one complete agent and one at 60%; by this rule, the SPEC's, it is 80%.)
pub fn progress_percent(doc: &OrchestratorSession) -> u8 {
    let n = doc.agents.len() as u64;
    if n == 0 {
        return 0;
    }
    let sum: u64 = doc
        .agents
        .iter()
        .map(|a| match a.status {
            AgentStatus::Complete => 100,
            _ => u64::from(a.percent()),
        })
        .sum();
    u8::try_from((sum * 2 + n) / (2 * n)).unwrap_or(100)
}

/// What a document's timestamp says: `None` for the Unix epoch (`1970-01-01T00:00:00Z`),
/// which stands for a time that was missing (salvage fills `created` with it when neither
/// `created` nor `updated` survived), so that it is shown as unknown, never as "20788 days
/// ago".
pub(crate) fn known_time(t: Timestamp) -> Option<Timestamp> {
    (t.utc().timestamp() != 0).then_some(t)
}

/// What a document's text field says: `None` when it is empty (salvage fills a missing goal or
/// project name with `""`).
pub(crate) fn known_text(text: &str) -> Option<&str> {
    (!text.is_empty()).then_some(text)
}

/// The resume summary of `doc` at the instant `now`.
pub fn resume_summary(doc: &OrchestratorSession, now: DateTime<Utc>) -> ResumeSummary {
    let in_progress: Vec<AgentLine> = doc
        .agents
        .iter()
        .filter(|a| a.status == AgentStatus::InProgress)
        .map(|a| AgentLine {
            id: a.id.clone(),
            task: a.task.clone(),
            progress: a.percent(),
        })
        .collect();
    let usage = &doc.context_usage;
    ResumeSummary {
        session_id: doc.session_id.clone(),
        goal: known_text(&doc.goal).map(str::to_owned),
        status: doc.status,
        started: known_time(doc.created),
        started_relative: known_time(doc.created).map(|t| relative_time(t.utc(), now)),
        progress_percent: progress_percent(doc),
        completed_work: doc
            .completed_work
            .iter()
            .map(|w| WorkLine {
                task: w.task.clone(),
                outcome: w.outcome.clone(),
            })
            .collect(),
        resume_from: in_progress.first().map(|a| a.id.clone()),
        in_progress,
        stale: Staleness::default(),
        pending: doc.pending_tasks.clone(),
        context: ContextBudget {
            estimated_tokens: crate::json::whole_count(&usage.estimated_tokens),
            percentage: usage.percentage.clone(),
            last_compression: usage.last_compression,
            last_compression_relative: usage.last_compression.map(|t| relative_time(t.utc(), now)),
        },
    }
}

/// [`resume_summary`] with the notes of [`staleness`](super::staleness) under `options`.
pub fn resume_summary_with(
    doc: &OrchestratorSession,
    now: DateTime<Utc>,
    options: &ResumeOptions,
) -> ResumeSummary {
    let mut summary = resume_summary(doc, now);
    summary.stale = staleness(doc, now, options);
    summary
}

/// How a value that is not known reads in the markdown.
pub(crate) const UNKNOWN: &str = "unknown";

/// The context usage as a report names it: `~25,000 tokens (20%)`.
impl std::fmt::Display for ContextUsage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tokens = group_thousands(crate::json::whole_count(&self.estimated_tokens));
        write!(f, "~{tokens} tokens ({}%)", self.percentage)
    }
}

/// `25000` as `25,000`.
pub(crate) fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The seed's "## 🔄 RESUMING SESSION" block for `summary`, line for line. An empty section
/// shows `- (none)`, a goal or start time that is not known `unknown`; the last line is left
/// out when no agent is in progress. What moved since the last save ([`ResumeSummary::stale`])
/// adds one `⚠️` line each after the progress line. Ends with a newline.
pub fn render_resume(summary: &ResumeSummary) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "## 🔄 RESUMING SESSION\n");
    let _ = writeln!(md, "**Session ID**: {}", summary.session_id);
    let unknown = |value: &Option<String>| value.clone().unwrap_or_else(|| UNKNOWN.to_owned());
    let _ = writeln!(md, "**Goal**: {}", unknown(&summary.goal));
    let _ = writeln!(md, "**Started**: {}", unknown(&summary.started_relative));
    let _ = writeln!(md, "**Progress**: {}% complete\n", summary.progress_percent);
    let stale = stale_lines(&summary.stale);
    for line in &stale {
        let _ = writeln!(md, "⚠️ {line}");
    }
    if !stale.is_empty() {
        md.push('\n');
    }
    md.push_str("### Completed Work\n");
    for work in &summary.completed_work {
        if work.outcome.is_empty() {
            let _ = writeln!(md, "- ✅ {}", work.task);
        } else {
            let _ = writeln!(md, "- ✅ {} ({})", work.task, work.outcome);
        }
    }
    if summary.completed_work.is_empty() {
        md.push_str("- (none)\n");
    }
    md.push_str("\n### In Progress\n");
    for agent in &summary.in_progress {
        let _ = writeln!(
            md,
            "- 🔄 {}: {} ({}%)",
            agent.id, agent.task, agent.progress
        );
    }
    if summary.in_progress.is_empty() {
        md.push_str("- (none)\n");
    }
    md.push_str("\n### Pending\n");
    for (i, task) in summary.pending.iter().enumerate() {
        let _ = writeln!(md, "{}. {task}", i + 1);
    }
    if summary.pending.is_empty() {
        md.push_str("- (none)\n");
    }
    md.push_str("\n### Context Budget\n");
    let _ = writeln!(
        md,
        "- Tokens used: ~{} ({}%)",
        group_thousands(summary.context.estimated_tokens),
        summary.context.percentage
    );
    let _ = writeln!(
        md,
        "- Last compression: {}",
        summary
            .context
            .last_compression_relative
            .as_deref()
            .unwrap_or("Never")
    );
    if let Some(id) = &summary.resume_from {
        let _ = writeln!(md, "\n**Resuming from {id}...**");
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands() {
        assert_eq!(group_thousands(0), "0");
        assert_eq!(group_thousands(999), "999");
        assert_eq!(group_thousands(25_000), "25,000");
        assert_eq!(group_thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn context_usage_reads_with_grouped_tokens() {
        let usage = ContextUsage {
            estimated_tokens: 25_000u64.into(),
            percentage: Number::from(20u8),
            ..ContextUsage::default()
        };
        assert_eq!(usage.to_string(), "~25,000 tokens (20%)");
    }
}
