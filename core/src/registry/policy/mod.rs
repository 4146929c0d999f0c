//! Resume policies: given what the registry knows about an agent and two task descriptions,
//! decide whether to resume the agent's last session or start a new one.
//!
//! - [`CompatPolicy`]: the seed's rule, exactly (SPEC section 2, `should_resume`).
//! - [`ExplainedPolicy`]: a word-based rule that also says why (score, matched terms, reason).

mod compat;
mod explained;

use serde::{Deserialize, Serialize};

pub use compat::CompatPolicy;
pub use explained::ExplainedPolicy;

/// What a policy is told about the agent and the tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResumeQuery<'a> {
    /// Whether the registry has a session for the agent name.
    pub known_agent: bool,
    /// The `resume_count` of the agent's current id (0 when unknown or absent).
    pub resume_count: u64,
    /// The task about to be run.
    pub current_task: &'a str,
    /// The task the agent ran last, if the caller knows it.
    pub previous_task: Option<&'a str>,
}

/// Why a policy decided as it did. Serialises as snake_case (`"resume_cap_reached"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResumeReason {
    /// The registry has no session for the agent name: start new.
    UnknownAgent,
    /// No (or an empty) previous task was given: start new.
    NoPreviousTask,
    /// The agent's id was already resumed `cap` times: start new.
    ResumeCapReached,
    /// The tasks are related: resume.
    Related,
    /// The tasks are unrelated: start new.
    Unrelated,
}

/// A policy's answer: `{"resume": bool, "score": 0..=1, "matched": [terms], "reason": ...}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ResumeDecision {
    /// Whether to resume the agent's last session.
    pub resume: bool,
    /// How related the tasks are, in [0, 1] (0 when no comparison was made).
    pub score: f64,
    /// The terms of the previous task found in the current one (lowercased; for
    /// [`ExplainedPolicy`] normalised stems), in the previous task's order, without repeats.
    pub matched: Vec<String>,
    /// Why.
    pub reason: ResumeReason,
}

impl ResumeDecision {
    /// A decision to start new for `reason`, with score 0 and nothing matched.
    pub(crate) fn start_new(reason: ResumeReason) -> Self {
        ResumeDecision {
            resume: false,
            score: 0.0,
            matched: Vec::new(),
            reason,
        }
    }
}

/// A rule deciding whether to resume an agent's last session.
pub trait ResumePolicy {
    /// The decision for `query`.
    fn decide(&self, query: &ResumeQuery<'_>) -> ResumeDecision;
}

/// Runs the checks every policy shares (unknown agent, no previous task, cap reached) and
/// returns the early decision, or `None` when the tasks must be compared.
pub(crate) fn gate(query: &ResumeQuery<'_>, cap: u64) -> Option<ResumeDecision> {
    if !query.known_agent {
        return Some(ResumeDecision::start_new(ResumeReason::UnknownAgent));
    }
    if query.previous_task.is_none_or(str::is_empty) {
        return Some(ResumeDecision::start_new(ResumeReason::NoPreviousTask));
    }
    if query.resume_count >= cap {
        return Some(ResumeDecision::start_new(ResumeReason::ResumeCapReached));
    }
    None
}

/// The name of a resume policy, as the CLI's `--policy` and the MCP `should_resume` tool take
/// it: `"compat"` (the default) or `"explained"`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum PolicyName {
    /// [`CompatPolicy`]: the seed's keyword rule, exactly.
    #[default]
    Compat,
    /// [`ExplainedPolicy`]: whole words, stems and stop words, with a score and a reason.
    Explained,
}

impl std::str::FromStr for PolicyName {
    type Err = crate::Error;

    /// `compat` or `explained`.
    fn from_str(text: &str) -> crate::Result<Self> {
        match text {
            "compat" => Ok(PolicyName::Compat),
            "explained" => Ok(PolicyName::Explained),
            other => Err(crate::Error::invalid_input(format!(
                "`policy` must be `compat` or `explained`, not `{other}`"
            ))
            .with_context("argument", "policy")),
        }
    }
}
