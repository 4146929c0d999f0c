//! The registry operations as pure functions on a [`SessionsDocument`] (no store, no clock):
//! shared by the plain mode, the journal replay and the tests.

use serde_json::{Map, Value};

use super::document::{AgentMetadata, AgentResult, SessionsDocument};

/// Registers `result` for `agent_id` under `agent_name` at `now` (naive ISO text), as the seed's
/// `register_agent_result` does, except that an id already known keeps its `resume_count`,
/// `created_at`, `last_resumed_at` and unknown metadata keys (SPEC section 2, difference 3).
/// An empty `chain_id` is recorded but not tracked as a chain (the seed's `if chain_id:`).
pub fn register(
    doc: &mut SessionsDocument,
    agent_name: &str,
    agent_id: &str,
    result: Value,
    chain_id: Option<&str>,
    now: &str,
) {
    doc.sessions
        .insert(agent_name.to_owned(), agent_id.to_owned());
    doc.results.insert(
        agent_id.to_owned(),
        AgentResult {
            agent_name: Some(agent_name.to_owned()),
            result,
            timestamp: Some(Some(now.to_owned())),
            chain_id: Some(chain_id.map(str::to_owned)),
            extra: Map::new(),
        },
    );
    if let Some(chain) = chain_id.filter(|c| !c.is_empty()) {
        doc.chains
            .entry(chain.to_owned())
            .or_default()
            .push(agent_id.to_owned());
    }
    let old = doc.metadata.get(agent_id);
    let mut entry = AgentMetadata {
        agent_name: Some(agent_name.to_owned()),
        // Kept, also when of another type (among the extras): the seed never reads it.
        created_at: match old {
            Some(m) if m.created_at.is_some() || m.extra.contains_key("created_at") => {
                m.created_at.clone()
            }
            _ => Some(now.to_owned()),
        },
        chain_id: Some(chain_id.map(str::to_owned)),
        resume_count: Some(
            old.and_then(|m| m.resume_count.clone())
                .unwrap_or_else(|| 0u64.into()),
        ),
        last_resumed_at: old.and_then(|m| m.last_resumed_at.clone()),
        extra: old.map(|m| m.extra.clone()).unwrap_or_default(),
    };
    // An `agent_name` or `chain_id` kept among the extras for holding a value of another type
    // (see `AgentMetadata`) gives way to the one registered.
    entry.extra.shift_remove("agent_name");
    entry.extra.shift_remove("chain_id");
    doc.metadata.insert(agent_id.to_owned(), entry);
}

/// The seed's `increment_resume_count`: +1 and `last_resumed_at = now`; `false` (nothing
/// changed) for an unknown id.
pub fn increment_resume_count(doc: &mut SessionsDocument, agent_id: &str, now: &str) -> bool {
    match doc.metadata.get_mut(agent_id) {
        Some(meta) => {
            // An entry without the key counts from 0 (the seed's `+= 1` raised `KeyError`).
            meta.resume_count = Some(meta.resumed_once_more());
            meta.last_resumed_at = Some(now.to_owned());
            meta.extra.shift_remove("last_resumed_at");
            true
        }
        None => false,
    }
}

/// The seed's `clear_agent_session`: drops the name, and the result and metadata of its id;
/// `false` for an unknown name. The id stays in its chains, as in the seed.
pub fn clear_agent(doc: &mut SessionsDocument, agent_name: &str) -> bool {
    let Some(agent_id) = doc.sessions.shift_remove(agent_name) else {
        return false;
    };
    doc.results.shift_remove(&agent_id);
    doc.metadata.shift_remove(&agent_id);
    true
}

/// The seed's `clear_chain`: drops the chain and the results and metadata of its ids, and also
/// the names pointing at those ids (SPEC section 2, difference 5); `false` for an unknown chain.
pub fn clear_chain(doc: &mut SessionsDocument, chain_id: &str) -> bool {
    let Some(ids) = doc.chains.shift_remove(chain_id) else {
        return false;
    };
    for id in &ids {
        doc.results.shift_remove(id);
        doc.metadata.shift_remove(id);
    }
    doc.sessions.retain(|_, id| !ids.contains(id));
    true
}

/// Adds `chain_id` with no members when absent (`create_chain`; members are kept, SPEC section
/// 2, difference 4). `true` if it was added.
pub fn ensure_chain(doc: &mut SessionsDocument, chain_id: &str) -> bool {
    if doc.chains.contains_key(chain_id) {
        return false;
    }
    doc.chains.insert(chain_id.to_owned(), Vec::new());
    true
}
