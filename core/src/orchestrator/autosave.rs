//! The auto-save points of the seed ("Auto-Save Triggers") and session creation.
//!
//! Each is one read-modify-write of the current file through
//! [`OrchestratorStore::modify`] (hence [`Store::update`](crate::Store::update)): concurrent
//! callers never lose each other's changes. Each returns the saved document.

use serde_json::{Map, json};

use super::document::{Agent, Decision, OrchestratorSession, Project};
use super::keys::current_key;
use super::status::AgentStatus;
use super::store::OrchestratorStore;
use crate::error::{Error, ErrorKind, Result};
use crate::store::Store;
use crate::time::{Clock, Timestamp, format_rfc3339};

fn agent_mut<'a>(doc: &'a mut OrchestratorSession, id: &str) -> Result<&'a mut Agent> {
    let session = doc.session_id.clone();
    doc.agents.iter_mut().find(|a| a.id == id).ok_or_else(|| {
        Error::new(
            ErrorKind::NotFound,
            format!(
                "session `{}` has no agent `{}`",
                session.escape_debug(),
                id.escape_debug()
            ),
        )
        .with_context("agent_id", id)
    })
}

/// A session id `YYYY-MM-DD-{suffix}` from the UTC date of `now`.
///
/// # Errors
/// [`ErrorKind::InvalidKey`] when the result is not a safe key segment or too long to be
/// archived (see [`history_key`](super::history_key)).
pub fn session_id_for(now: Timestamp, suffix: &str) -> Result<String> {
    let id = format!("{}-{suffix}", crate::time::format_date(now.utc()));
    super::keys::history_key(&id)?;
    Ok(id)
}

/// Six lowercase hex digits derived from the clock's seconds and nanoseconds (a hash, not
/// randomness: the core has no random source). Pass your own suffix when two sessions may be
/// created within the same clock tick.
pub fn clock_suffix(now: Timestamp) -> String {
    let utc = now.utc();
    let mut x = utc.timestamp().cast_unsigned() ^ (u64::from(utc.timestamp_subsec_nanos()) << 21);
    // splitmix64 finaliser
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    format!("{:06x}", x & 0xff_ffff)
}

impl<S: Store, C: Clock> OrchestratorStore<S, C> {
    /// Creates and saves a new current session in status `created`, id
    /// `YYYY-MM-DD-{suffix}` (suffix: `suffix`, or [`clock_suffix`] when `None`).
    ///
    /// # Errors
    /// [`ErrorKind::AlreadyExists`] when a current session file exists (archive it first;
    /// nothing is written); [`ErrorKind::InvalidKey`] for an unsafe suffix.
    pub fn create_session(
        &self,
        goal: &str,
        mode: &str,
        project: Project,
        suffix: Option<&str>,
    ) -> Result<OrchestratorSession> {
        let now = self.now();
        let suffix = suffix.map_or_else(|| clock_suffix(now), str::to_owned);
        let id = session_id_for(now, &suffix)?;
        let doc = OrchestratorSession::new(id, goal, mode, project, now);
        let key = current_key();
        let bytes = self.encode(&key, &doc)?;
        self.store.update(&key, &mut |old| {
            if old.is_some() {
                return Err(Error::new(
                    ErrorKind::AlreadyExists,
                    format!("a current session exists at `{key}`: archive it first"),
                )
                .with_context("key", key.as_str()));
            }
            Ok(Some(bytes.clone()))
        })?;
        Ok(doc)
    }

    /// Agent started: adds `agent` (an agent with the same id is replaced in place: a
    /// restart) and saves.
    pub fn agent_started(&self, agent: &Agent) -> Result<OrchestratorSession> {
        self.modify(|doc| {
            match doc.agents.iter_mut().find(|a| a.id == agent.id) {
                Some(slot) => *slot = agent.clone(),
                None => doc.agents.push(agent.clone()),
            }
            Ok(())
        })
    }

    /// Agent progress: sets the agent's `progress` (0 to 100) and saves.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`] above 100; [`ErrorKind::NotFound`] for an unknown agent.
    pub fn agent_progress(&self, id: &str, percent: u8) -> Result<OrchestratorSession> {
        if percent > 100 {
            return Err(Error::invalid_input(format!(
                "progress {percent} is above 100"
            )));
        }
        self.modify(|doc| {
            agent_mut(doc, id)?.progress = Some(percent);
            Ok(())
        })
    }

    /// Agent completed: status `complete`, `completed` = now, `result_summary`, and saves.
    ///
    /// # Errors
    /// [`ErrorKind::NotFound`] for an unknown agent.
    pub fn agent_completed(&self, id: &str, result_summary: &str) -> Result<OrchestratorSession> {
        let now = self.now();
        self.modify(|doc| {
            let agent = agent_mut(doc, id)?;
            agent.status = AgentStatus::Complete;
            agent.completed = Some(now);
            agent.result_summary = Some(result_summary.to_owned());
            Ok(())
        })
    }

    /// Agent failed: status `failed`, `completed` = now, and logs
    /// `{"agent": id, "error": error, "timestamp": now}` in `errors`, then saves.
    ///
    /// # Errors
    /// [`ErrorKind::NotFound`] for an unknown agent.
    pub fn agent_failed(&self, id: &str, error: &str) -> Result<OrchestratorSession> {
        let now = self.now();
        self.modify(|doc| {
            let agent = agent_mut(doc, id)?;
            agent.status = AgentStatus::Failed;
            agent.completed = Some(now);
            doc.errors.push(json!({
                "agent": id,
                "error": error,
                "timestamp": format_rfc3339(now.utc()),
            }));
            Ok(())
        })
    }

    /// Decision made: appends `{decision, rationale, timestamp: now}` and saves.
    pub fn decision_made(&self, decision: &str, rationale: &str) -> Result<OrchestratorSession> {
        let now = self.now();
        self.modify(|doc| {
            doc.decisions_made.push(Decision {
                decision: decision.to_owned(),
                rationale: rationale.to_owned(),
                timestamp: now,
                extra: Map::new(),
            });
            Ok(())
        })
    }

    /// Before context compression: sets `context_usage.last_compression` to now and saves.
    pub fn before_compression(&self) -> Result<OrchestratorSession> {
        let now = self.now();
        self.modify(|doc| {
            doc.context_usage.last_compression = Some(now);
            Ok(())
        })
    }

    /// Session end: archives the current session as it is (see
    /// [`archive`](Self::archive), no replace) and returns it.
    ///
    /// # Errors
    /// [`ErrorKind::NotFound`] when there is no current session; the errors of `archive`.
    pub fn session_end(&self) -> Result<OrchestratorSession> {
        let doc = self
            .load_to_rewrite()?
            .ok_or_else(super::store::no_session)?;
        self.archive(&doc, false)?;
        Ok(doc)
    }
}
