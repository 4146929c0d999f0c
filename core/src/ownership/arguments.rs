//! The arguments and results of the ownership operations, as serde types: each front end
//! converts its own arguments into these and their results back, nothing more.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Result};

/// The longest owner id, session id of a live entry, host or scope name, in bytes.
pub const MAX_NAME_BYTES: usize = 256;

/// The process that claims or heartbeats, as its host reports it (the core never reads it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProcessInfo {
    /// Its process id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    /// Its start time as the host counts it (Linux: clock ticks after boot, field 22 of
    /// `/proc/PID/stat`), so that a reused pid is not taken for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid_start: Option<u64>,
    /// The host it runs on, for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// Fields this version does not know, kept as they are.
    #[serde(flatten)]
    #[schemars(skip)]
    pub extra: IndexMap<String, Value>,
}

/// Who writes a session: an owner id and, when the writer holds one, the epoch of its claim.
/// A writer with an epoch is refused once the lease has a later epoch, even under the same
/// owner id (an older incarnation of that owner).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Writer {
    /// The owner id.
    pub owner: String,
    /// The epoch of the writer's claim, when it knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epoch: Option<u64>,
}

impl Writer {
    /// A writer naming `owner`, without an epoch.
    pub fn owner(owner: impl Into<String>) -> Writer {
        Writer {
            owner: owner.into(),
            epoch: None,
        }
    }
}

/// The arguments of `claim`: with no scopes, a claim of the current session's lease; with
/// scopes, a claim of those scopes in the caller's live entry (the session is left alone).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The owner id, chosen by the caller (for Claude Code, the hook payload's `session_id`).
    pub owner: String,
    /// How long the lease lasts without a renewal (default
    /// [`DEFAULT_LEASE_SECONDS`](super::DEFAULT_LEASE_SECONDS)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease_seconds: Option<u64>,
    /// Named scopes of work to claim (a chain id, a spec, free text).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// Take over another owner's lease once it has expired.
    #[serde(default)]
    pub takeover: bool,
    /// Take over another owner's lease even before it expires (recorded in the lease).
    #[serde(default)]
    pub force: bool,
    /// The skew tolerance in seconds (default
    /// [`DEFAULT_SKEW_SECONDS`](super::DEFAULT_SKEW_SECONDS)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skew_seconds: Option<u64>,
    /// The live entry's id (default: the owner id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The live entry's TTL in seconds (default
    /// [`DEFAULT_TTL_SECONDS`](super::DEFAULT_TTL_SECONDS)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_seconds: Option<u64>,
    /// The claiming process.
    #[serde(default)]
    pub process: ProcessInfo,
}

impl Claim {
    /// A plain claim of the session by `owner`, with every default.
    pub fn owner(owner: impl Into<String>) -> Claim {
        Claim {
            owner: owner.into(),
            ..Claim::default()
        }
    }
}

/// The arguments of `heartbeat`: refreshes the caller's live entry (creating it) and renews
/// the lease when the caller owns the session.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Heartbeat {
    /// The owner id.
    pub owner: String,
    /// The live entry's id (default: the owner id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The renewed lease's length (default: the length it was claimed with).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease_seconds: Option<u64>,
    /// The live entry's TTL in seconds (default: what it holds, or
    /// [`DEFAULT_TTL_SECONDS`](super::DEFAULT_TTL_SECONDS) for a new entry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_seconds: Option<u64>,
    /// The process sending it.
    #[serde(default)]
    pub process: ProcessInfo,
}

/// The arguments of `release`: with no scopes, releases the session's lease; with scopes,
/// those scopes of the caller's live entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Release {
    /// The owner id.
    pub owner: String,
    /// Scopes to release.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// The live entry's id (default: the owner id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
}

/// `invalid_input` unless `value` (the `field`) is a usable name: not blank, at most
/// [`MAX_NAME_BYTES`], no control character.
pub fn check_name(field: &'static str, value: &str) -> Result<()> {
    let problem = if value.trim().is_empty() {
        Some("is empty")
    } else if value.len() > MAX_NAME_BYTES {
        Some("is too long")
    } else if value.chars().any(char::is_control) {
        Some("holds a control character")
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(problem) => Err(Error::invalid_input(format!(
            "{field} `{}` {problem}: give 1 to {MAX_NAME_BYTES} bytes of text on one line",
            crate::error::shown(value)
        ))
        .with_context("field", field)),
    }
}
