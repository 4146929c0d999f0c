//! The shapes of a history listing: what to list ([`HistoryQuery`]) and what comes back
//! ([`HistoryPage`] of [`HistoryEntry`], with the [`SkippedFile`]s).

use serde::{Deserialize, Serialize};

use super::status::SessionStatus;
use crate::time::Timestamp;

/// What to list: `limit` entries (default 10) after skipping `offset`, optionally only one
/// status. As JSON every member is optional and an unknown one is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct HistoryQuery {
    /// Most entries returned (default 10).
    pub limit: usize,
    /// Entries skipped first, for paging (default 0).
    pub offset: usize,
    /// Only sessions with this status (default: all).
    pub status: Option<SessionStatus>,
}

impl Default for HistoryQuery {
    fn default() -> Self {
        HistoryQuery {
            limit: 10,
            offset: 0,
            status: None,
        }
    }
}

/// One archived session in a listing: the seed's `{id, goal, status, created}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HistoryEntry {
    /// The session id.
    pub id: String,
    /// The session goal.
    pub goal: String,
    /// The status it was archived in.
    pub status: SessionStatus,
    /// When it was created (written RFC 3339 UTC).
    pub created: Timestamp,
}

/// A history file that was skipped, with the error that made it unreadable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(rename = "SkippedHistoryFile")]
pub struct SkippedFile {
    /// Its key.
    pub key: String,
    /// The error kind code, e.g. `corrupt_state`.
    #[schemars(with = "crate::ErrorKind")]
    pub code: String,
    /// The error message.
    pub message: String,
}

/// One page of history: newest first by the instant of `created`, ties by id descending.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HistoryPage {
    /// The entries of the page.
    pub entries: Vec<HistoryEntry>,
    /// Every unreadable history file (whatever the page).
    pub skipped: Vec<SkippedFile>,
    /// How many readable sessions match the status filter (all pages).
    pub total: usize,
}
