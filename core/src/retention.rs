//! Retention, defined once: what a prune removes is a list of whole units (an archived
//! session, an agent with its registry entries, a chain left empty, a team member's file), each
//! with the reason it goes; what it leaves on purpose is listed with the reason it stays. A
//! prune is a dry run unless asked to apply, and the plan is the same either way.
//!
//! The operations: [`OrchestratorStore::prune_history`](crate::orchestrator::OrchestratorStore::prune_history),
//! [`AgentRegistry::prune`](crate::registry::AgentRegistry::prune),
//! [`TeamStore::prune`](crate::team::TeamStore::prune) and
//! [`OrchestratorStore::prune_live`](crate::orchestrator::OrchestratorStore::prune_live).

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

/// What kind of unit a prune removes or keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PruneKind {
    /// An archived orchestrator session (its history file and its index record).
    Session,
    /// A sub-agent id: its metadata, its result, its places in chains and the names pointing
    /// at it.
    Agent,
    /// A registry chain left with no agent.
    Chain,
    /// A team member's spawn state file.
    TeamMember,
    /// A live-session entry that went stale (no heartbeat for longer than its TTL), with the
    /// scopes it claimed.
    LiveSession,
}

/// One unit a prune removes (or, in a dry run, would remove).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Removal {
    /// What it is.
    pub kind: PruneKind,
    /// Its id (session id, agent id, chain id, member name).
    pub id: String,
    /// What goes with it: the keys removed, or the registry entries (`metadata`, `results`,
    /// `chains/<chain>`, `sessions/<name>`).
    pub removes: Vec<String>,
    /// Why it goes, e.g. `updated 40 days ago`.
    pub reason: String,
}

/// One unit a prune would have removed by its criteria, left because something points at it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Kept {
    /// What it is.
    pub kind: PruneKind,
    /// Its id.
    pub id: String,
    /// Why it stays, e.g. `the current session was forked from it`.
    pub reason: String,
}

/// What a prune removes, or would remove in a dry run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PrunePlan {
    /// Whether the removals were made (`false`: a dry run, nothing changed).
    pub applied: bool,
    /// The units removed, in the order listed (newest first for sessions).
    pub removed: Vec<Removal>,
    /// The units the criteria matched that stay, and why.
    pub kept: Vec<Kept>,
}

/// The instant `days` days before `now` (the earliest instant when that is out of range).
pub fn cutoff(now: DateTime<Utc>, days: u64) -> DateTime<Utc> {
    i64::try_from(days)
        .ok()
        .and_then(Duration::try_days)
        .and_then(|d| now.checked_sub_signed(d))
        .unwrap_or(DateTime::<Utc>::MIN_UTC)
}

/// `N days ago` (whole days, rounded down) of `then` at `now`.
pub fn days_ago(then: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let days = (now - then).num_days();
    if days == 1 {
        "1 day ago".to_owned()
    } else {
        format!("{days} days ago")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Timestamp;

    #[test]
    fn cutoff_and_days() {
        let now = Timestamp::parse("2026-03-10T00:00:00Z").unwrap().utc();
        let c = cutoff(now, 9);
        assert_eq!(c, Timestamp::parse("2026-03-01T00:00:00Z").unwrap().utc());
        assert_eq!(cutoff(now, u64::MAX), DateTime::<Utc>::MIN_UTC);
        assert_eq!(days_ago(c, now), "9 days ago");
        assert_eq!(days_ago(cutoff(now, 1), now), "1 day ago");
    }
}
