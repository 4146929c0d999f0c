//! Retention of the sub-agent registry: agents whose last activity (`created_at`,
//! `last_resumed_at`) is older than a cutoff go with every entry that names them (metadata,
//! result, places in chains, names pointing at them), and chains this leaves empty go too (see
//! [`crate::retention`]). `workflow-chains.json` (the chain definitions) is left as it is.

use indexmap::{IndexMap, IndexSet};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::agent_registry::AgentRegistry;
use super::document::SessionsDocument;
use crate::error::Result;
use crate::ownership::claimed_by_live_sessions;
use crate::retention::{Kept, PruneKind, PrunePlan, Removal, cutoff, days_ago};
use crate::store::Store;
use crate::time::{Clock, Timestamp};

/// The criteria of a registry prune: `{older_than_days, keep_agent_ids, apply}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PruneRegistryOptions {
    /// Agents whose last activity is more than this many days ago go.
    #[serde(alias = "olderThanDays")]
    pub older_than_days: u64,
    /// Agent ids that stay whatever their age (the current session's agents).
    #[serde(default, alias = "keepAgentIds")]
    pub keep_agent_ids: Vec<String>,
    /// Remove them (default false: a dry run that changes nothing).
    #[serde(default)]
    pub apply: bool,
}

/// The last activity of an agent's metadata: the later of `created_at` and
/// `last_resumed_at` that read as timestamps (naive ones as UTC).
fn last_activity(doc: &SessionsDocument, id: &str) -> Option<DateTime<Utc>> {
    let meta = doc.metadata.get(id)?;
    [meta.created_at.as_deref(), meta.last_resumed_at.as_deref()]
        .into_iter()
        .flatten()
        .filter_map(|t| Timestamp::parse(t).ok())
        .map(|t| t.utc())
        .max()
}

/// The plan of `options` over `doc` at `now`, and the agent ids it removes.
pub(crate) fn plan(
    doc: &SessionsDocument,
    options: &PruneRegistryOptions,
    claimed: &IndexSet<String>,
    now: DateTime<Utc>,
) -> PrunePlan {
    let before = cutoff(now, options.older_than_days);
    let keep: IndexSet<&str> = options.keep_agent_ids.iter().map(String::as_str).collect();
    let mut plan = PrunePlan::default();
    let mut gone: IndexSet<&str> = IndexSet::new();
    // Where each id appears, in one pass over chains and names (in their order).
    let mut chains_of: IndexMap<&str, Vec<&str>> = IndexMap::new();
    for (chain, ids) in &doc.chains {
        for id in ids {
            let chains = chains_of.entry(id.as_str()).or_default();
            if chains.last() != Some(&chain.as_str()) {
                chains.push(chain.as_str());
            }
        }
    }
    let mut names_of: IndexMap<&str, Vec<&str>> = IndexMap::new();
    for (name, id) in &doc.sessions {
        names_of.entry(id.as_str()).or_default().push(name.as_str());
    }
    for id in doc.metadata.keys() {
        let Some(last) = last_activity(doc, id) else {
            continue;
        };
        if last >= before {
            continue;
        }
        if keep.contains(id.as_str()) {
            plan.kept.push(Kept {
                kind: PruneKind::Agent,
                id: id.clone(),
                reason: "an agent of the current session".to_owned(),
            });
            continue;
        }
        let chains = chains_of.get(id.as_str()).into_iter().flatten();
        if claimed.contains(id) || chains.clone().any(|chain| claimed.contains(*chain)) {
            plan.kept.push(Kept {
                kind: PruneKind::Agent,
                id: id.clone(),
                reason: "a live session claims it or its chain".to_owned(),
            });
            continue;
        }
        let mut removes = vec!["metadata".to_owned()];
        if doc.results.contains_key(id) {
            removes.push("results".to_owned());
        }
        removes.extend(chains.map(|chain| format!("chains/{chain}")));
        let names = names_of.get(id.as_str()).into_iter().flatten();
        removes.extend(names.map(|name| format!("sessions/{name}")));
        gone.insert(id);
        plan.removed.push(Removal {
            kind: PruneKind::Agent,
            id: id.clone(),
            removes,
            reason: format!("last active {}", days_ago(last, now)),
        });
    }
    for (chain, ids) in &doc.chains {
        if !ids.is_empty() && ids.iter().all(|i| gone.contains(i.as_str())) {
            plan.removed.push(Removal {
                kind: PruneKind::Chain,
                id: chain.clone(),
                removes: vec![format!("chains/{chain}")],
                reason: "every agent of it goes".to_owned(),
            });
        }
    }
    plan
}

/// Makes the removals of `plan` in `doc`; whether anything changed.
pub(crate) fn apply(doc: &mut SessionsDocument, plan: &PrunePlan) -> bool {
    let agents: IndexSet<&str> = plan
        .removed
        .iter()
        .filter(|r| r.kind == PruneKind::Agent)
        .map(|r| r.id.as_str())
        .collect();
    if plan.removed.is_empty() {
        return false;
    }
    doc.metadata.retain(|id, _| !agents.contains(id.as_str()));
    doc.results.retain(|id, _| !agents.contains(id.as_str()));
    doc.sessions.retain(|_, id| !agents.contains(id.as_str()));
    for r in plan.removed.iter().filter(|r| r.kind == PruneKind::Chain) {
        doc.chains.shift_remove(&r.id);
    }
    for ids in doc.chains.values_mut() {
        ids.retain(|id| !agents.contains(id.as_str()));
    }
    true
}

impl<S: Store, C: Clock> AgentRegistry<S, C> {
    /// Prunes the registry by `options` (see [`PruneRegistryOptions`]): a dry
    /// run over [`load`](Self::load) unless `options.apply`, then one exclusive change of
    /// `agent-sessions.json` (in either journal mode). An agent whose times do not read as
    /// timestamps stays, and so does one that a live session claims (its id, or the id of a
    /// chain it is in, held as a scope by a live session that is not stale).
    ///
    /// # Errors
    /// As [`load`](Self::load) and [`register`](Self::register).
    pub fn prune(&self, options: &PruneRegistryOptions) -> Result<PrunePlan> {
        let now = self.clock.now();
        let claimed = claimed_by_live_sessions(&self.store, Timestamp::from_utc(now))?;
        if !options.apply {
            return Ok(plan(&self.load()?, options, &claimed, now));
        }
        self.mutate(None, |doc, _| {
            let mut plan = plan(doc, options, &claimed, now);
            plan.applied = true;
            (apply(doc, &plan), plan)
        })
    }
}
