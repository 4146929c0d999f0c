//! Documents and agents given to a binding as arguments (a JS object, a Python dict), not read
//! from a file: the same parser as for files, with errors worded for an argument. The Node,
//! Python and wasm packages share these rules (SPEC section 1, the auto-save points).

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::document::OrchestratorSession;
use super::parse::{ParseOptions, Source, parse_from, valid_typed};
use super::summary::{ResumeSummary, render_resume, resume_summary};
use crate::error::{Error, Result};

/// Parses `bytes`, the JSON of the argument `name` (e.g. `doc`), as a schema "1.0" document.
///
/// As [`parse_document`](super::parse_document), except that what would be
/// [`CorruptState`](crate::ErrorKind::CorruptState) for a file is
/// [`InvalidInput`](crate::ErrorKind::InvalidInput)
/// `` `{name}` is not an orchestrator session: {reason} `` (a bad argument is the caller's
/// input, there is no file to keep aside), with the context pair `field` naming the member at
/// fault when the parser found it. Other kinds (`incompatible_schema`, `invalid_key`,
/// `invalid_input` for a size over `max_document_bytes`) keep their kind and context, with the
/// argument named where a file's key would be (`` `doc` has schema_version `2.0` ... ``). No
/// error has a `key`: the bytes are not stored.
///
/// # Errors
/// As above.
pub fn parse_argument(
    name: &str,
    bytes: &[u8],
    options: &ParseOptions,
) -> Result<OrchestratorSession> {
    parse_from(Source::Argument(name), bytes, options)
}

/// [`parse_argument`] of `text`, the JSON text of the argument `name` as a JS engine's
/// `JSON.stringify` wrote it: a failure is worded as for that text read into a value first
/// ([`parse_object_argument`] of it), so a lone surrogate (`JSON.stringify` writes it as an
/// escape) is named where it is.
///
/// # Errors
/// As [`parse_argument`], or `invalid_input` for a lone surrogate.
pub fn parse_text_argument(
    name: &str,
    text: &str,
    options: &ParseOptions,
) -> Result<OrchestratorSession> {
    parse_argument(name, text.as_bytes(), options).map_err(|e| {
        crate::json::parse_input(name, text.as_bytes())
            .err()
            .unwrap_or(e)
    })
}

/// `doc`, the argument as a binding read it with serde straight from its host's data (no JSON
/// text in between), when [`parse_argument`] of that data's JSON text would accept it: the
/// same checks, leaving out the size against [`ParseOptions::max_document_bytes`], which the
/// caller has made sure of. `None` when it would not: [`parse_argument`] of the text then
/// gives the error.
#[must_use]
pub fn valid_argument(
    doc: OrchestratorSession,
    options: &ParseOptions,
) -> Option<OrchestratorSession> {
    valid_typed(doc, options)
}

/// The document in the object argument `name` (a JS object, a Python dict), read by
/// [`parse_argument`] from its JSON.
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

/// The markdown "RESUMING SESSION" block of the argument `name`, a summary or a document
/// (an object with `schema_version`, then parsed as [`parse_argument`] and summarised at
/// `now`): the `renderResume(summaryOrDoc)` of the JS packages.
///
/// # Errors
/// As [`parse_argument`] for a document; `invalid_input` `` `{name}` is not a summary: ... ``
/// for an object that is neither.
pub fn render_resume_argument(
    name: &str,
    object: Map<String, Value>,
    now: DateTime<Utc>,
) -> Result<String> {
    Ok(render_resume(&summary_argument(name, object, now)?))
}

/// The resume summary in the object argument `name`: a summary as `resume_summary` gives it,
/// or a document (an object with `schema_version`) summarised at `now`.
fn summary_argument(
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
    use crate::time::Timestamp;
    use serde_json::json;

    fn map(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => unreachable!("an object"),
        }
    }

    #[test]
    fn a_bad_argument_is_invalid_input_naming_it() {
        let err = parse_argument("doc", br#"{"a": 1}"#, &ParseOptions::default()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{err}");
        assert!(
            err.message()
                .starts_with("`doc` is not an orchestrator session: "),
            "{err}"
        );
        assert_eq!(err.context_value("key"), None);
        let err = parse_argument("doc", b"[]", &ParseOptions::default()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{err}");
    }

    #[test]
    fn other_kinds_keep_their_kind_and_name_the_argument() {
        let err = parse_argument(
            "doc",
            br#"{"schema_version": "2.0"}"#,
            &ParseOptions::default(),
        )
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::IncompatibleSchema, "{err}");
        assert!(
            err.message().starts_with("`doc` has schema_version `2.0`"),
            "{err}"
        );
        assert_eq!(err.context_value("key"), None);
        assert_eq!(err.context_value("schema_version"), Some("2.0"));
        let options = ParseOptions {
            max_document_bytes: 10,
            ..ParseOptions::default()
        };
        let err = parse_argument("doc", br#"{"schema_version": "1.0"}"#, &options).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{err}");
        assert!(
            err.message().starts_with("`doc` is 25 bytes, more than"),
            "{err}"
        );
        assert_eq!(err.context_value("key"), None);
    }

    #[test]
    fn a_text_argument_parses_as_its_value_would() {
        let doc = crate::orchestrator::OrchestratorSession::new(
            "2025-12-27-a",
            "goal",
            "default",
            crate::orchestrator::Project::new("p", "/p", None),
            Timestamp::parse("2025-12-27T10:30:00Z").unwrap(),
        );
        let text = serde_json::to_string(&doc).unwrap();
        let options = ParseOptions::default();
        assert_eq!(parse_text_argument("doc", &text, &options).unwrap(), doc);
        let lone = text.replacen(r#""goal":"goal""#, r#""goal":"\ud800""#, 1);
        let err = parse_text_argument("doc", &lone, &options).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{err}");
        assert!(err.message().contains("lone surrogate"), "{err}");
        assert_eq!(err.context_value("field"), Some("[\"goal\"]"), "{err}");
        let err = parse_text_argument("doc", r#"{"a": 1}"#, &options).unwrap_err();
        let via_value = parse_object_argument("doc", &map(json!({"a": 1})), &options);
        assert_eq!(err.message(), via_value.unwrap_err().message());
    }

    #[test]
    fn a_summary_or_a_document_and_nothing_else() {
        let now = "2026-01-02T03:04:05Z".parse().expect("instant");
        let seed = include_str!("../../../tests/vectors/orchestrator/seed-example.json");
        let doc = map(serde_json::from_str(seed).expect("seed vector"));
        let summary = summary_argument("x", doc.clone(), now).expect("a document is summarised");
        assert_eq!(summary.session_id, "2025-12-27-abc123");
        let again = map(serde_json::to_value(&summary).expect("json"));
        assert_eq!(
            summary_argument("x", again.clone(), now).expect("a summary"),
            summary
        );
        assert_eq!(
            render_resume_argument("x", doc, now).expect("a document"),
            render_resume_argument("x", again, now).expect("a summary")
        );
        let err = summary_argument("x", Map::new(), now).expect_err("neither");
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        assert!(err.message().starts_with("`x` is not a summary"), "{err}");
        let err = render_resume_argument("x", Map::new(), now).expect_err("neither");
        assert!(err.message().starts_with("`x` is not a summary"), "{err}");
    }
}
