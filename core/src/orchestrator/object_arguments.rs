//! Orchestrator arguments a binding received as a JSON object (a JS object, a Python dict):
//! a document, and the "summary or document" of `renderResume`.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::arguments::parse_argument;
use super::document::OrchestratorSession;
use super::parse::ParseOptions;
use super::summary::{ResumeSummary, resume_summary};
use crate::error::{Error, Result};

/// The document in the object argument `name`, read by [`parse_argument`] (a bad one is
/// `invalid_input` naming the argument and, in `context.field`, the member at fault).
///
/// # Errors
/// As [`parse_argument`].
pub fn parse_object_argument(
    name: &str,
    object: &Map<String, Value>,
    options: &ParseOptions,
) -> Result<OrchestratorSession> {
    let bytes = serde_json::to_vec(object)
        .map_err(|e| Error::invalid_input(format!("`{name}` is not JSON: {e}")))?;
    parse_argument(name, &bytes, options)
}

/// The resume summary in the object argument `name`: a summary as `resume_summary` gives it,
/// or a document (an object with `schema_version`) summarised at `now`.
///
/// # Errors
/// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming `name` when it is
/// neither; a document's errors as [`parse_object_argument`].
pub fn summary_argument(
    name: &str,
    object: Map<String, Value>,
    now: DateTime<Utc>,
) -> Result<ResumeSummary> {
    if object.contains_key("schema_version") {
        let doc = parse_object_argument(name, &object, &ParseOptions::default())?;
        return Ok(resume_summary(&doc, now));
    }
    ResumeSummary::deserialize(&Value::Object(object))
        .map_err(|e| Error::invalid_input(format!("`{name}` is not a summary: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn a_summary_or_a_document_and_nothing_else() {
        let now = "2026-01-02T03:04:05Z".parse().expect("instant");
        let seed = include_str!("../../../tests/vectors/orchestrator/seed-example.json");
        let doc = serde_json::from_str(seed).expect("seed vector");
        let Value::Object(doc) = doc else {
            unreachable!()
        };
        let summary = summary_argument("x", doc, now).expect("a document is summarised");
        assert_eq!(summary.session_id, "2025-12-27-abc123");
        let again = serde_json::to_value(&summary).expect("json");
        let Value::Object(again) = again else {
            unreachable!()
        };
        assert_eq!(
            summary_argument("x", again, now).expect("a summary"),
            summary
        );
        let err = summary_argument("x", Map::new(), now).expect_err("neither");
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        assert!(err.message().starts_with("`x` is not a summary"), "{err}");
    }
}
