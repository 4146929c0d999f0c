//! The results of the ownership operations, as serde types.

use serde::{Deserialize, Serialize};

use super::lease::Lease;
use super::live::LiveSession;

/// What `claim` did: the lease (a session claim) or the live entry (a scope claim).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClaimOutcome {
    /// The lease now held, for a claim of the session.
    pub lease: Option<Lease>,
    /// The caller's live entry, for a claim of scopes.
    pub live: Option<LiveSession>,
}

/// What `heartbeat` did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HeartbeatOutcome {
    /// The session's lease as it stands (`None` when nobody ever claimed it).
    pub lease: Option<Lease>,
    /// Whether the caller owns the session and its lease was renewed.
    pub renewed: bool,
    /// The caller's live entry.
    pub live: LiveSession,
}

/// What `release` did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReleaseOutcome {
    /// The lease after a release of the session (no owner, epoch kept).
    pub lease: Option<Lease>,
    /// The caller's live entry after a release of scopes.
    pub live: Option<LiveSession>,
}
