//! Chain views: the seed's results and summary, and the expected-vs-done status.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::document::{AgentResult, ChainsDocument, SessionsDocument};

/// The seed's `get_chain_summary` dict: `{chain_id, status: "not_found"}` when the chain has no
/// result, else `{chain_id, agent_count, agents, started_at, completed_at, status: "completed"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChainSummary {
    /// The chain asked for.
    pub chain_id: String,
    /// Number of results in the chain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_count: Option<usize>,
    /// Agent names of the results, in chain order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<String>>,
    /// Timestamp of the first result (`null` when it has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("nullable" = true))]
    pub started_at: Option<Option<String>>,
    /// Timestamp of the last result (`null` when it has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("nullable" = true))]
    pub completed_at: Option<Option<String>>,
    /// `"not_found"` or `"completed"`.
    #[schemars(extend("enum" = ["not_found", "completed"]))]
    pub status: String,
}

/// The seed's `get_chain_results`: the results of the chain's ids in chain order, skipping ids
/// without a result.
pub fn chain_results(doc: &SessionsDocument, chain_id: &str) -> Vec<AgentResult> {
    doc.chains.get(chain_id).map_or_else(Vec::new, |ids| {
        ids.iter()
            .filter_map(|id| doc.results.get(id).cloned())
            .collect()
    })
}

/// The seed's `get_chain_summary`.
pub fn chain_summary(doc: &SessionsDocument, chain_id: &str) -> ChainSummary {
    let results = chain_results(doc, chain_id);
    let (Some(first), Some(last)) = (results.first(), results.last()) else {
        return ChainSummary {
            chain_id: chain_id.to_owned(),
            agent_count: None,
            agents: None,
            started_at: None,
            completed_at: None,
            status: "not_found".to_owned(),
        };
    };
    ChainSummary {
        chain_id: chain_id.to_owned(),
        agent_count: Some(results.len()),
        agents: Some(results.iter().map(|r| r.name().to_owned()).collect()),
        started_at: Some(first.timestamp.clone().flatten()),
        completed_at: Some(last.timestamp.clone().flatten()),
        status: "completed".to_owned(),
    }
}

/// Which expected agents of a chain have run (beyond the seed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChainStatus {
    /// The chain.
    pub chain_id: String,
    /// Whether `workflow-chains.json` defines it (`create_chain` was called).
    pub defined: bool,
    /// The expected agent names, in order (empty when not defined).
    pub expected: Vec<String>,
    /// Expected agents that have a result in the chain, in expected order.
    pub done: Vec<String>,
    /// Expected agents without a result in the chain, in expected order.
    pub missing: Vec<String>,
    /// Expected agents whose first result came after that of an agent expected later.
    pub out_of_order: Vec<String>,
    /// Agent names with a result in the chain that are not expected, in chain order.
    pub unexpected: Vec<String>,
    /// Whether every expected agent is done (false for an undefined chain, and for one whose
    /// `expected_sequence` holds items that are not names).
    pub complete: bool,
}

/// One chain as the CLI's `chain` command and the MCP `chain` tool show it: the seed's summary
/// and the expected-vs-done status, `{"summary": ..., "status": ...}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainView {
    /// The seed's `get_chain_summary`.
    pub summary: ChainSummary,
    /// Which expected agents have run.
    pub status: ChainStatus,
}

/// The status of `chain_id` from the two documents.
pub fn chain_status(
    sessions: &SessionsDocument,
    chains: &ChainsDocument,
    chain_id: &str,
) -> ChainStatus {
    // A sequence another tool wrote with items that are not names (kept among `extra`): its
    // names are expected, and the chain is never complete, as its other items can never run.
    let (expected, whole) = match chains.get(chain_id) {
        None => (Vec::new(), true),
        Some(d) => match d.extra.get("expected_sequence") {
            None => (d.expected().to_vec(), true),
            Some(raw) => {
                let names = raw
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str);
                (names.map(str::to_owned).collect(), false)
            }
        },
    };
    let ran: Vec<String> = chain_results(sessions, chain_id)
        .into_iter()
        .map(|r| r.name().to_owned())
        .collect();
    let done: Vec<String> = expected
        .iter()
        .filter(|a| ran.contains(a))
        .cloned()
        .collect();
    let missing: Vec<String> = expected
        .iter()
        .filter(|a| !ran.contains(a))
        .cloned()
        .collect();
    let mut out_of_order = Vec::new();
    let mut unexpected = Vec::new();
    let mut highest: Option<usize> = None;
    let mut seen: Vec<&str> = Vec::new();
    for name in &ran {
        if seen.contains(&name.as_str()) {
            continue;
        }
        seen.push(name);
        match expected.iter().position(|e| e == name) {
            Some(pos) => {
                if highest.is_some_and(|h| pos < h) {
                    out_of_order.push(name.clone());
                }
                highest = Some(highest.map_or(pos, |h| h.max(pos)));
            }
            None => unexpected.push(name.clone()),
        }
    }
    ChainStatus {
        chain_id: chain_id.to_owned(),
        defined: chains.contains_key(chain_id),
        complete: chains.contains_key(chain_id) && missing.is_empty() && whole,
        expected,
        done,
        missing,
        out_of_order,
        unexpected,
    }
}
