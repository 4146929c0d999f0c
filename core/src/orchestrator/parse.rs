//! Bytes to [`OrchestratorSession`], with a typed error for every way the bytes can be wrong.

use chrono::FixedOffset;
use serde_json::Value;

use super::document::{OrchestratorSession, SCHEMA_VERSION};
use super::keys::history_key;
use crate::error::{Error, ErrorKind, Result};
use crate::key::Key;

pub use crate::limit::{DEFAULT_MAX_DOCUMENT_BYTES, is_over_limit};

/// How documents are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseOptions {
    /// Offset of naive timestamps (no `Z`, no offset); `None` reads them as UTC.
    pub naive_offset: Option<FixedOffset>,
    /// Largest accepted document, in bytes.
    pub max_document_bytes: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            naive_offset: None,
            max_document_bytes: DEFAULT_MAX_DOCUMENT_BYTES,
        }
    }
}

/// Parses the bytes stored under `key` (named in error messages) as a schema "1.0" document.
///
/// Checks, in order: size (over `max_document_bytes`: [`ErrorKind::InvalidInput`]); a leading
/// UTF-8 BOM is skipped; empty or blank bytes, invalid JSON (message gives line and column),
/// nesting deeper than serde_json's limit of 128, or a top level that is not an object:
/// [`ErrorKind::CorruptState`]; a `schema_version` that is not `"1.0"`:
/// [`ErrorKind::IncompatibleSchema`] (checked before the typed fields, so another version's
/// shapes never look corrupt); a missing field or a wrong type: [`ErrorKind::CorruptState`]
/// naming the field path (e.g. `agents[1].progress`); an unsafe `session_id`, or one too long
/// to make the archive file name `{session_id}.json` (over 250 bytes):
/// [`ErrorKind::InvalidKey`]. Naive timestamps are resolved with `naive_offset`.
pub fn parse_document(
    key: &Key,
    bytes: &[u8],
    options: &ParseOptions,
) -> Result<OrchestratorSession> {
    let doc = parse_any_id(key, bytes, options)?;
    check_session_id(key, &doc)?;
    Ok(doc)
}

/// [`parse_document`] without the check of `session_id`: a document whose id could not name
/// an archive file, to be shown or repaired.
pub(crate) fn parse_any_id(
    key: &Key,
    bytes: &[u8],
    options: &ParseOptions,
) -> Result<OrchestratorSession> {
    crate::limit::check_size(key, bytes, options.max_document_bytes)?;
    let mut doc = match parse_typed_fast(bytes) {
        Some(doc) if doc.schema_version == SCHEMA_VERSION => doc,
        _ => parse_typed_explained(key, bytes)?,
    };
    if let Some((field, detail)) = unreadable_field(&doc) {
        return Err(
            Error::corrupt(key, format!("field `{field}` {detail}")).with_context("field", field)
        );
    }
    if let Some(offset) = options.naive_offset {
        resolve_naive(&mut doc, offset);
    }
    Ok(doc)
}

/// The id must also make an archive file name, or the session could never be archived:
/// [`ErrorKind::InvalidKey`] with the contexts `key` and `field` = `session_id` otherwise.
fn check_session_id(key: &Key, doc: &OrchestratorSession) -> Result<()> {
    history_key(&doc.session_id).map(drop).map_err(|e| {
        e.with_context("key", key.as_str())
            .with_context("field", "session_id")
    })
}

/// Whether `err` is the error of a document whose `session_id` cannot name an archive file
/// (see [`parse_document`]): `doctor --fix` assigns such a document a safe id.
pub fn is_unsafe_session_id(err: &Error) -> bool {
    err.kind() == ErrorKind::InvalidKey && err.context_value("field") == Some("session_id")
}

/// One pass from the bytes straight into the typed document, for the common case of a
/// well-formed file: `None` on any failure (including a duplicate field, which the careful path
/// accepts, last one winning), and [`parse_typed_explained`] then gives the result and the
/// precise error. Both give the same document when this one succeeds.
fn parse_typed_fast(bytes: &[u8]) -> Option<OrchestratorSession> {
    let bytes = crate::json::strip_bom(bytes);
    serde_json::from_slice(bytes).ok()
}

/// The careful path: a JSON object first (what it is when it is not one), then the schema
/// version, then the typed document with the path of the first field that does not fit.
fn parse_typed_explained(key: &Key, bytes: &[u8]) -> Result<OrchestratorSession> {
    let value = parse_object(key, bytes)?;
    check_schema_version(key, &value)?;
    typed(key, &value)
}

/// The typed document of a "1.0" object; a missing field or a wrong type is
/// [`ErrorKind::CorruptState`] naming the field path.
fn typed(key: &Key, value: &serde_json::Map<String, Value>) -> Result<OrchestratorSession> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        Error::corrupt(key, format!("field `{path}`: {}", e.inner())).with_context("field", path)
    })
}

/// The bytes as a JSON object (BOM skipped), or a [`ErrorKind::CorruptState`] error.
pub(crate) fn parse_object(key: &Key, bytes: &[u8]) -> Result<serde_json::Map<String, Value>> {
    let bytes = crate::json::strip_bom(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::corrupt(key, "the file is empty"));
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(Error::corrupt(
            key,
            format!(
                "the top level is {}, not an object",
                crate::json::kind_of(&other)
            ),
        )),
        Err(e) => Err(Error::corrupt(key, format!("invalid JSON: {e}"))
            .with_context("line", e.line().to_string())
            .with_context("column", e.column().to_string())),
    }
}

fn check_schema_version(key: &Key, value: &serde_json::Map<String, Value>) -> Result<()> {
    match value.get("schema_version") {
        Some(Value::String(v)) if v == SCHEMA_VERSION => Ok(()),
        Some(Value::String(v)) => Err(Error::new(
            ErrorKind::IncompatibleSchema,
            format!(
                "`{key}` has schema_version `{}`, this library reads `{SCHEMA_VERSION}`",
                v.escape_debug()
            ),
        )
        .with_context("key", key.as_str())
        .with_context("schema_version", v.as_str())),
        Some(other) => Err(Error::corrupt(
            key,
            format!(
                "field `schema_version` is {}, not a string",
                crate::json::kind_of(other)
            ),
        )
        .with_context("field", "schema_version")),
        None => Err(Error::corrupt(key, "field `schema_version` is missing")
            .with_context("field", "schema_version")),
    }
}

/// The first field of `doc` that the typed reader accepts but [`parse_document`] refuses
/// (an agent's `progress` above 100), as (field path, what is wrong), for writers that must
/// not write what would not read back.
pub(crate) fn unreadable_field(doc: &OrchestratorSession) -> Option<(String, String)> {
    doc.agents.iter().enumerate().find_map(|(i, agent)| {
        agent.progress.filter(|p| *p > 100).map(|p| {
            (
                format!("agents[{i}].progress"),
                format!("is {p}, above 100"),
            )
        })
    })
}

/// Resolves every naive timestamp of `doc` as local time at `offset`.
pub fn resolve_naive(doc: &mut OrchestratorSession, offset: FixedOffset) {
    doc.created = doc.created.assume_offset(offset);
    doc.updated = doc.updated.map(|t| t.assume_offset(offset));
    for agent in &mut doc.agents {
        agent.started = agent.started.assume_offset(offset);
        agent.completed = agent.completed.map(|t| t.assume_offset(offset));
    }
    for decision in &mut doc.decisions_made {
        decision.timestamp = decision.timestamp.assume_offset(offset);
    }
    let usage = &mut doc.context_usage;
    usage.last_compression = usage.last_compression.map(|t| t.assume_offset(offset));
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn valid() -> Value {
        json!({
            "schema_version": "1.0", "session_id": "2025-12-27-abc",
            "created": "2025-12-27T10:00:00Z", "updated": "2025-12-27T11:00:00Z",
            "project": {"name": "p", "path": "/p"}, "goal": "g", "mode": "default",
            "status": "in_progress",
            "agents": [
                {"id": "a", "type": "code", "task": "t", "status": "complete",
                 "started": "2025-12-27T10:00:00Z"},
                {"id": "b", "type": "code", "task": "t", "status": "in_progress",
                 "started": "2025-12-27T10:00:00Z", "progress": 10}
            ],
            "completed_work": [{"task": "w"}], "pending_tasks": ["p"],
            "decisions_made": [{"decision": "d", "rationale": "r",
                                "timestamp": "2025-12-27T10:00:00Z"}],
            "errors": [],
            "context_usage": {"estimated_tokens": 0, "percentage": 0, "last_compression": null}
        })
    }

    fn del(value: &mut Value, name: &str) {
        value.as_object_mut().unwrap().remove(name);
    }

    /// A document with one bad field names that field's path (`.` is the top level).
    #[test]
    fn a_bad_field_is_named_by_its_path() {
        // (the path named, how the valid document is spoilt)
        type Spoiler = (&'static str, fn(&mut Value));
        let key = Key::new(".claude/orchestrator-session.json").unwrap();
        let spoilers: [Spoiler; 23] = [
            (".", |d| del(d, "goal")),
            ("goal", |d| d["goal"] = json!(5)),
            ("status", |d| d["status"] = json!("sleeping")),
            ("created", |d| d["created"] = json!("yesterday")),
            ("project.name", |d| d["project"]["name"] = json!([1])),
            ("project.path", |d| d["project"]["path"] = json!(null)),
            ("project", |d| d["project"] = json!("p")),
            ("agents[1]", |d| del(&mut d["agents"][1], "started")),
            ("agents[0].task", |d| d["agents"][0]["task"] = json!(null)),
            ("agents[1].status", |d| d["agents"][1]["status"] = json!(3)),
            ("agents", |d| d["agents"] = json!({})),
            ("pending_tasks[0]", |d| d["pending_tasks"][0] = json!(1)),
            ("decisions_made[0]", |d| {
                del(&mut d["decisions_made"][0], "rationale");
            }),
            ("context_usage.estimated_tokens", |d| {
                d["context_usage"]["estimated_tokens"] = json!("many");
            }),
            ("context_usage", |d| {
                del(&mut d["context_usage"], "percentage");
            }),
            ("completed_work[0].outcome", |d| {
                d["completed_work"][0]["outcome"] = json!(null);
            }),
            ("completed_work[0].files[1]", |d| {
                d["completed_work"][0]["files"] = json!(["a", 1]);
            }),
            ("completed_work[0].files", |d| {
                d["completed_work"][0]["files"] = json!("a");
            }),
            ("agents[0].progress", |d| {
                d["agents"][0]["progress"] = json!(300);
            }),
            ("agents[0].completed", |d| {
                d["agents"][0]["completed"] = json!("soon");
            }),
            ("agents[1]", |d| d["agents"][1] = json!("b")),
            ("project.git_branch", |d| {
                d["project"]["git_branch"] = json!(1);
            }),
            ("errors", |d| d["errors"] = json!(1)),
        ];
        assert!(typed(&key, valid().as_object().unwrap()).is_ok());
        // The keys the seed never reads may be absent.
        let mut unread = valid();
        for name in ["updated", "project", "mode"] {
            del(&mut unread, name);
        }
        assert!(typed(&key, unread.as_object().unwrap()).is_ok());
        for (expected, spoil) in spoilers {
            let mut doc = valid();
            spoil(&mut doc);
            let err = typed(&key, doc.as_object().unwrap()).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::CorruptState, "{err}");
            assert_eq!(err.context_value("field"), Some(expected), "{err}");
            assert!(err.message().contains(&format!("`{expected}`")), "{err}");
        }
    }
}
