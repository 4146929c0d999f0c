//! Session and agent statuses and the session lifecycle (SPEC section 1, "Lifecycle").

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};

/// The lifecycle status of a session.
///
/// Read from `created`, `in_progress`, `paused`, `complete`, `aborted`, and `abandoned` (which
/// the skill's docs also show, read as [`Aborted`](SessionStatus::Aborted) and written back as
/// `aborted`). Any other string is a corrupt document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SessionStatus {
    /// Created, no agent started yet.
    Created,
    /// Running.
    InProgress,
    /// Stopped for later (disconnect); stays the current session.
    Paused,
    /// Finished; archived.
    Complete,
    /// Given up; archived.
    Aborted,
}

impl SessionStatus {
    /// Every status, in lifecycle order.
    pub const ALL: [SessionStatus; 5] = [
        SessionStatus::Created,
        SessionStatus::InProgress,
        SessionStatus::Paused,
        SessionStatus::Complete,
        SessionStatus::Aborted,
    ];

    /// The string written to JSON, e.g. `"in_progress"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SessionStatus::Created => "created",
            SessionStatus::InProgress => "in_progress",
            SessionStatus::Paused => "paused",
            SessionStatus::Complete => "complete",
            SessionStatus::Aborted => "aborted",
        }
    }

    /// Parses a status string (`abandoned` gives `Aborted`).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming the text when it is not
    /// a status.
    pub fn parse(text: &str) -> Result<SessionStatus> {
        match text {
            "created" => Ok(SessionStatus::Created),
            "in_progress" => Ok(SessionStatus::InProgress),
            "paused" => Ok(SessionStatus::Paused),
            "complete" => Ok(SessionStatus::Complete),
            "aborted" | "abandoned" => Ok(SessionStatus::Aborted),
            other => Err(Error::invalid_input(format!(
                "`{}` is not a session status (created, in_progress, paused, complete, aborted)",
                other.escape_debug()
            ))),
        }
    }

    /// Whether a session in this status is archived (`complete`, `aborted`).
    pub const fn is_final(self) -> bool {
        matches!(self, SessionStatus::Complete | SessionStatus::Aborted)
    }

    /// Whether the lifecycle allows moving from `self` to `to`: `created → in_progress`,
    /// `paused → in_progress`, `in_progress → paused | complete | aborted`,
    /// `created | paused → aborted`. Nothing else (not even staying put).
    pub const fn can_move_to(self, to: SessionStatus) -> bool {
        use SessionStatus::{Aborted, Complete, Created, InProgress, Paused};
        matches!(
            (self, to),
            (Created | Paused, InProgress | Aborted) | (InProgress, Paused | Complete | Aborted)
        )
    }
}

impl fmt::Display for SessionStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for SessionStatus {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SessionStatus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::json::read_str_with(deserializer, SessionStatus::parse)
    }
}

impl schemars::JsonSchema for SessionStatus {
    fn schema_name() -> Cow<'static, str> {
        "SessionStatus".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        // `abandoned` is only read: what the library writes never holds it.
        if generator.contract().is_serialize() {
            return schemars::json_schema!({
                "type": "string",
                "enum": ["created", "in_progress", "paused", "complete", "aborted"],
                "description": "Session lifecycle status."
            });
        }
        schemars::json_schema!({
            "type": "string",
            "enum": ["created", "in_progress", "paused", "complete", "aborted", "abandoned"],
            "description": "session lifecycle status; `abandoned` is read as `aborted`"
        })
    }
}

/// The status of one agent: `pending`, `in_progress`, `complete`, `failed`, or any other
/// string, kept as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AgentStatus {
    /// Not started.
    Pending,
    /// Running.
    InProgress,
    /// Done.
    Complete,
    /// Failed (the error is logged in the session's `errors`).
    Failed,
    /// A status this library does not know, kept as written.
    Other(String),
}

impl AgentStatus {
    /// The string written to JSON.
    pub fn as_str(&self) -> &str {
        match self {
            AgentStatus::Pending => "pending",
            AgentStatus::InProgress => "in_progress",
            AgentStatus::Complete => "complete",
            AgentStatus::Failed => "failed",
            AgentStatus::Other(s) => s,
        }
    }

    /// The status for `text` (unknown strings become [`AgentStatus::Other`]).
    pub fn parse(text: &str) -> AgentStatus {
        match text {
            "pending" => AgentStatus::Pending,
            "in_progress" => AgentStatus::InProgress,
            "complete" => AgentStatus::Complete,
            "failed" => AgentStatus::Failed,
            other => AgentStatus::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for AgentStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for AgentStatus {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for AgentStatus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::json::read_str_with(deserializer, |text| {
            Ok::<_, std::convert::Infallible>(AgentStatus::parse(text))
        })
    }
}

impl schemars::JsonSchema for AgentStatus {
    fn schema_name() -> Cow<'static, str> {
        "AgentStatus".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "agent status; seen: pending, in_progress, complete, failed (others kept)",
            "examples": ["pending", "in_progress", "complete", "failed"]
        })
    }
}
