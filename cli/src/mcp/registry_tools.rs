//! The sub-agent registry's tools: register, should_resume (both policies) and chain.

use serde_json::json;
use session_state::registry::ChosenPolicy;
use session_state::requests::{ChainQuery, Registration, ResumeQuestion};

use super::Roots;
use super::tools::{Effect, Reply, Tools};
use crate::commands::registry::output::{decision_text, decision_value};
use crate::commands::registry::registry;

pub fn add(tools: &mut Tools) {
    tools.add(
        "register",
        "Register a sub-agent's result in `.moai/memory/agent-sessions.json`: its name, the id \
         returned by the Task tool (a safe file-name segment), optionally the workflow chain to \
         append it to, and the result (any JSON, default null).",
        Effect::Writes,
        |roots: &Roots, r: Registration| {
            registry(&roots.project)?.register(
                &r.agent_name,
                &r.agent_id,
                r.result,
                r.chain.as_deref(),
            )?;
            let text = format!("registered `{}` as `{}`", r.agent_name, r.agent_id);
            Ok(Reply::new(
                &json!({"agent_name": r.agent_name, "agent_id": r.agent_id, "chain": r.chain}),
                text,
            ))
        },
    );
    tools.add(
        "should_resume",
        "Whether to resume an agent's last session for a task: {resume} with the compat policy \
         (the seed's keyword rule), {resume, score, matched, reason} with the explained one.",
        Effect::Reads,
        |roots: &Roots, q: ResumeQuestion| {
            let rule = q.policy_options().policy()?;
            let decision = registry(&roots.project)?.decide_resume(
                &q.agent_name,
                &q.task,
                q.previous.as_deref(),
                &rule,
            )?;
            let explained = matches!(rule, ChosenPolicy::Explained(_));
            Ok(Reply::new(
                &decision_value(&decision, explained),
                decision_text(&decision, explained),
            ))
        },
    );
    tools.add(
        "chain",
        "One workflow chain: the seed's summary and the expected-vs-done status (expected, done, \
         missing, out_of_order, unexpected, complete). not_found for an unknown chain.",
        Effect::Reads,
        |roots: &Roots, ChainQuery { chain_id }| {
            let view = registry(&roots.project)?.chain_view(&chain_id)?;
            let status = &view.status;
            let text = if !status.defined {
                format!(
                    "chain `{chain_id}`: {} result(s); expected agents not defined",
                    view.summary.agent_count.unwrap_or(0)
                )
            } else if status.complete {
                format!("chain `{chain_id}`: complete, every expected agent is done")
            } else {
                format!("chain `{chain_id}`: missing {}", status.missing.join(", "))
            };
            Ok(Reply::new(&view, text))
        },
    );
}
