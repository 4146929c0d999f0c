//! The arguments of operations as data, for front ends that receive them as JSON (the CLI's MCP
//! server takes each tool's arguments as one of these, and publishes its JSON Schema).
//!
//! Members are named as the CLI names the command's arguments (`--chain` is `chain`); an
//! optional member has the CLI's default; an unknown member is refused, so that a misspelt
//! option is an error instead of a silent default. Types that already describe a request are
//! used as they are: [`HistoryQuery`](crate::orchestrator::HistoryQuery) for a history page.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::registry::{PolicyName, PolicyOptions};

/// An operation that takes no arguments (`{}`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArguments {}

/// A move that archives the session (`archive`, `complete`, `abort`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ArchiveOptions {
    /// Replace an existing archive with the same session id (default false: `already_exists`).
    pub replace: bool,
}

/// A sub-agent result to register (the registry's `register`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Registration {
    /// The agent name, e.g. `tdd-implementer`.
    pub agent_name: String,
    /// The agent id returned by the Task tool (a safe key segment).
    pub agent_id: String,
    /// The workflow chain to append the id to.
    #[serde(default)]
    pub chain: Option<String>,
    /// The result, any JSON value (default null).
    #[serde(default)]
    pub result: Value,
}

/// Whether to resume an agent's last session (the registry's `should-resume`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResumeQuestion {
    /// The agent name.
    pub agent_name: String,
    /// The task about to run.
    pub task: String,
    /// The task the agent ran last.
    #[serde(default)]
    pub previous: Option<String>,
    /// The rule to apply (default `compat`).
    #[serde(default)]
    pub policy: Option<PolicyName>,
    /// Start new once an id was resumed this many times (default 5).
    #[serde(default)]
    pub cap: Option<u64>,
    /// Minimum score to resume, in [0, 1], for the `explained` policy only (default 0.3).
    #[serde(default)]
    pub threshold: Option<f64>,
}

impl ResumeQuestion {
    /// The policy options of the question, for [`PolicyOptions::policy`].
    pub fn policy_options(&self) -> PolicyOptions {
        PolicyOptions {
            policy: self.policy,
            cap: self.cap,
            threshold: self.threshold,
        }
    }
}

/// One workflow chain (the registry's `chain`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChainQuery {
    /// The chain id.
    pub chain_id: String,
}

/// One team (the team commands' `team`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamQuery {
    /// The team name.
    pub team: String,
    /// Answer with what re-spawning the team would do, member by member, instead of its
    /// members' documents (default false).
    #[serde(default)]
    pub resume_plan: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn optional_members_take_the_cli_defaults_and_unknown_ones_are_refused() {
        let q: ResumeQuestion =
            serde_json::from_value(json!({"agent_name": "a", "task": "t"})).unwrap();
        assert_eq!(q.policy_options(), PolicyOptions::default());
        let compat = q.policy_options().policy().unwrap();
        assert_eq!(
            compat,
            crate::registry::ChosenPolicy::Compat(crate::registry::CompatPolicy::default())
        );
        let err = serde_json::from_value::<ArchiveOptions>(json!({"replce": true})).unwrap_err();
        assert!(err.to_string().contains("unknown field `replce`"), "{err}");
        let r: Registration =
            serde_json::from_value(json!({"agent_name": "a", "agent_id": "b"})).unwrap();
        assert_eq!(r.result, Value::Null);
        assert!(serde_json::from_value::<NoArguments>(json!({"x": 1})).is_err());
    }
}
