//! The JSON Schema of the "1.0" document, generated from the typed document.

use serde_json::Value;

use super::document::OrchestratorSession;

/// The JSON Schema (draft 2020-12) of an orchestrator session document, schema "1.0".
/// Unknown fields are allowed at every depth. Committed as
/// `tests/vectors/orchestrator/schema.json`; a test fails when the two drift apart.
pub fn json_schema() -> Value {
    serde_json::to_value(schemars::schema_for!(OrchestratorSession)).unwrap_or(Value::Null)
}
