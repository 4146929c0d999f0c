//! The read-only questions of [`AgentRegistry`]: resume id and decision, results, chain views,
//! agent rows, transcripts.

use serde_json::Value;

use crate::error::{Error, ErrorKind, Result};
use crate::key::Key;
use crate::store::Store;
use crate::time::Clock;

use super::agent_registry::{AgentEntry, AgentRegistry, AllSessions};
use super::chain::{self, ChainStatus, ChainSummary, ChainView};
use super::document::{AgentMetadata, AgentResult};
use super::policy::{CompatPolicy, ResumeDecision, ResumePolicy, ResumeQuery};
use super::transcript::{TranscriptLine, TranscriptLines, find_transcript};

impl<S: Store, C: Clock> AgentRegistry<S, C> {
    /// The seed's `get_resume_id`: the name's latest id, or `None` if the name is unknown or,
    /// when a non-empty `chain_id` is given, the id's metadata names another chain.
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub fn resume_id(&self, agent_name: &str, chain_id: Option<&str>) -> Result<Option<String>> {
        let doc = self.load()?;
        let Some(id) = doc.sessions.get(agent_name) else {
            return Ok(None);
        };
        if let Some(chain) = chain_id.filter(|c| !c.is_empty()) {
            let recorded = doc.metadata.get(id).and_then(|m| m.chain());
            if recorded != Some(chain) {
                return Ok(None);
            }
        }
        Ok(Some(id.clone()))
    }

    /// The seed's `should_resume`, decided by [`CompatPolicy`].
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub fn should_resume(
        &self,
        agent_name: &str,
        current_task: &str,
        previous_task: Option<&str>,
    ) -> Result<bool> {
        self.decide_resume(
            agent_name,
            current_task,
            previous_task,
            &CompatPolicy::default(),
        )
        .map(|d| d.resume)
    }

    /// Whether to resume `agent_name`, decided by `policy` with the agent's resume count.
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub fn decide_resume(
        &self,
        agent_name: &str,
        current_task: &str,
        previous_task: Option<&str>,
        policy: &dyn ResumePolicy,
    ) -> Result<ResumeDecision> {
        let doc = self.load()?;
        let id = doc.sessions.get(agent_name);
        let resume_count = id
            .and_then(|id| doc.metadata.get(id))
            .map_or(0, AgentMetadata::resumes);
        Ok(policy.decide(&ResumeQuery {
            known_agent: id.is_some(),
            resume_count,
            current_task,
            previous_task,
        }))
    }

    /// The seed's `get_agent_result`: the stored result of `agent_id`, if any.
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub fn agent_result(&self, agent_id: &str) -> Result<Option<Value>> {
        Ok(self
            .load()?
            .results
            .shift_remove(agent_id)
            .map(|r| r.result))
    }

    /// The seed's `get_chain_results`.
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub fn chain_results(&self, chain_id: &str) -> Result<Vec<AgentResult>> {
        Ok(chain::chain_results(&self.load()?, chain_id))
    }

    /// The seed's `get_chain_summary`.
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub fn chain_summary(&self, chain_id: &str) -> Result<ChainSummary> {
        Ok(chain::chain_summary(&self.load()?, chain_id))
    }

    /// Expected-vs-done status of `chain_id` (beyond the seed).
    ///
    /// # Errors
    /// As [`load`](Self::load), for either file.
    pub fn chain_status(&self, chain_id: &str) -> Result<ChainStatus> {
        Ok(chain::chain_status(
            &self.load()?,
            &self.load_chains()?,
            chain_id,
        ))
    }

    /// The summary and status of `chain_id`, which must exist: be defined (`create_chain`),
    /// have results, or have members (a chain whose results were lost, e.g. after a repair
    /// salvaged a torn file).
    ///
    /// # Errors
    /// [`ErrorKind::NotFound`] `` no chain `{chain_id}` `` for any other id; as
    /// [`chain_status`](Self::chain_status).
    pub fn chain_view(&self, chain_id: &str) -> Result<ChainView> {
        let doc = self.load()?;
        let summary = chain::chain_summary(&doc, chain_id);
        let status = chain::chain_status(&doc, &self.load_chains()?, chain_id);
        if !status.defined && summary.status == "not_found" && !doc.chains.contains_key(chain_id) {
            return Err(
                Error::new(ErrorKind::NotFound, format!("no chain `{chain_id}`"))
                    .with_context("chain_id", chain_id),
            );
        }
        Ok(ChainView { summary, status })
    }

    /// Every chain id: those of `agent-sessions.json` in order, then those only defined in
    /// `workflow-chains.json`.
    ///
    /// # Errors
    /// As [`chain_status`](Self::chain_status).
    pub fn chain_ids(&self) -> Result<Vec<String>> {
        let mut ids: Vec<String> = self.load()?.chains.keys().cloned().collect();
        for id in self.load_chains()?.keys() {
            if !ids.contains(id) {
                ids.push(id.clone());
            }
        }
        Ok(ids)
    }

    /// The seed's `get_all_sessions`.
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub fn all_sessions(&self) -> Result<AllSessions> {
        let doc = self.load()?;
        Ok(AllSessions {
            chains: doc.chains.keys().cloned().collect(),
            total_results: doc.results.len(),
            sessions: doc.sessions,
        })
    }

    /// One row per agent name, in registration order; only those whose id is in `chain_id`'s
    /// metadata when given.
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub fn agents(&self, chain_id: Option<&str>) -> Result<Vec<AgentEntry>> {
        let doc = self.load()?;
        Ok(doc
            .sessions
            .iter()
            .map(|(name, id)| {
                let meta = doc.metadata.get(id);
                AgentEntry {
                    agent_name: name.clone(),
                    agent_id: id.clone(),
                    chain_id: meta.and_then(|m| m.chain().map(str::to_owned)),
                    resume_count: meta.map_or(0, AgentMetadata::resumes),
                    has_result: doc.results.get(id).is_some_and(|r| !r.result.is_null()),
                }
            })
            .filter(|e| chain_id.is_none() || e.chain_id.as_deref() == chain_id)
            .collect())
    }

    /// The seed's `export_transcript`: the key of `agent-{agent_id}.jsonl` if it exists (`None`
    /// also for an id too long for that file name: no such file can exist).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`](crate::ErrorKind::InvalidKey) for an unsafe id (SPEC section 2, difference 6),
    /// [`ErrorKind::Storage`](crate::ErrorKind::Storage).
    pub fn export_transcript(&self, agent_id: &str) -> Result<Option<Key>> {
        Ok(find_transcript(self.store(), agent_id, false)?.map(|(key, _)| key))
    }

    /// The lines of `agent_id`'s transcript (records, and bad or torn lines reported in place),
    /// or `None` when there is none.
    ///
    /// # Errors
    /// As [`export_transcript`](Self::export_transcript).
    pub fn read_transcript(&self, agent_id: &str) -> Result<Option<Vec<TranscriptLine>>> {
        Ok(find_transcript(self.store(), agent_id, false)?
            .map(|(_, bytes)| TranscriptLines::new(&bytes).collect()))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::registry::AgentRegistry;
    use crate::{FixedClock, MemoryStore};

    #[test]
    fn a_chain_view_needs_a_chain_that_exists() {
        let reg = AgentRegistry::new(
            MemoryStore::new(),
            FixedClock::at("2026-11-29T17:56:00Z").unwrap(),
        );
        assert_eq!(reg.chain_view("c").unwrap_err().code(), "not_found");
        reg.create_chain("c", &["a".into(), "b".into()], None)
            .unwrap();
        assert_eq!(reg.chain_view("c").unwrap().status.missing, ["a", "b"]);
        reg.register("a", "id-1", json!(1), Some("d")).unwrap();
        let view = reg.chain_view("d").unwrap();
        assert_eq!(view.summary.agents.as_deref(), Some(&["a".to_owned()][..]));
        assert!(!view.status.defined);
    }
}
