//! The origin a forked session records: `forked_from: {session_id, at}`, an added top-level
//! field that schema "1.0" readers keep as an unknown one.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::document::OrchestratorSession;
use crate::time::Timestamp;

/// The top-level member of a forked session that names its origin.
pub const FORKED_FROM: &str = "forked_from";

/// Where a session was forked from: `{session_id, at}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ForkedFrom {
    /// The id of the session it was copied from.
    pub session_id: String,
    /// When it was forked (`None` when the member is missing or not a timestamp).
    pub at: Option<Timestamp>,
}

impl ForkedFrom {
    /// The origin recorded in `doc`, when `forked_from.session_id` is a string; any other
    /// shape reads as absent (and is kept as it is).
    pub fn of(doc: &OrchestratorSession) -> Option<ForkedFrom> {
        let object = doc.extra.get(FORKED_FROM)?.as_object()?;
        let session_id = object.get("session_id")?.as_str()?.to_owned();
        let at = object
            .get("at")
            .and_then(Value::as_str)
            .and_then(|t| Timestamp::parse(t).ok());
        Some(ForkedFrom { session_id, at })
    }
}
