//! Bytes to [`OrchestratorSession`], with a typed error for every way the bytes can be wrong.

use chrono::FixedOffset;
use serde_json::Value;

use super::document::{OrchestratorSession, SCHEMA_VERSION};
use super::keys::history_key;
use crate::error::{Error, ErrorKind, Hint, Result};
use crate::key::Key;
use crate::limit::check_named_size;

pub(crate) use crate::limit::{DEFAULT_MAX_DOCUMENT_BYTES, is_over_limit};

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

/// Where the bytes being parsed come from, which the errors name.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source<'a> {
    /// A file stored under this key: bad bytes are [`ErrorKind::CorruptState`], and every
    /// error has the context `key`.
    File(&'a Key),
    /// The argument of this name given to a binding: bad bytes are the caller's input,
    /// [`ErrorKind::InvalidInput`] `` `{name}` is not an orchestrator session: {reason} ``,
    /// and no error has a `key` (nothing is stored).
    Argument(&'a str),
}

impl Source<'_> {
    /// The key or argument name, as error messages quote it.
    fn name(&self) -> &str {
        match self {
            Source::File(key) => key.as_str(),
            Source::Argument(name) => name,
        }
    }

    /// `err` with the context `key` when the bytes are a file.
    fn keyed(&self, err: Error) -> Error {
        match self {
            Source::File(key) => err.with_context("key", key.as_str()),
            Source::Argument(_) => err,
        }
    }

    /// The error of bytes that do not make a document, for `reason`.
    fn corrupt(&self, reason: impl std::fmt::Display) -> Error {
        match self {
            Source::File(key) => Error::corrupt(key, reason),
            Source::Argument(name) => {
                Error::invalid_input(format!("`{name}` is not an orchestrator session: {reason}"))
            }
        }
    }

    /// [`corrupt`](Self::corrupt) naming the member at `field` (context `field`).
    fn corrupt_field(&self, field: &str, reason: impl std::fmt::Display) -> Error {
        self.corrupt(format!("field `{field}` {reason}"))
            .with_context("field", field)
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
/// [`ErrorKind::InvalidKey`] with the context `field` = `session_id` and the hint
/// [`Hint::Repair`] (a repair gives the document a safe id). Naive timestamps are resolved
/// with `naive_offset`.
pub fn parse_document(
    key: &Key,
    bytes: &[u8],
    options: &ParseOptions,
) -> Result<OrchestratorSession> {
    parse_from(Source::File(key), bytes, options)
}

/// [`parse_document`] of the bytes from `source`, with errors naming it.
pub(crate) fn parse_from(
    source: Source<'_>,
    bytes: &[u8],
    options: &ParseOptions,
) -> Result<OrchestratorSession> {
    let doc = parse_any_id_from(source, bytes, options)?;
    check_session_id(source, &doc)?;
    Ok(doc)
}

/// [`parse_document`] without the check of `session_id`: a document whose id could not name
/// an archive file, to be shown or repaired.
pub(crate) fn parse_any_id(
    key: &Key,
    bytes: &[u8],
    options: &ParseOptions,
) -> Result<OrchestratorSession> {
    parse_any_id_from(Source::File(key), bytes, options)
}

fn parse_any_id_from(
    source: Source<'_>,
    bytes: &[u8],
    options: &ParseOptions,
) -> Result<OrchestratorSession> {
    let key = match source {
        Source::File(key) => Some(key),
        Source::Argument(_) => None,
    };
    check_named_size(source.name(), key, bytes, options.max_document_bytes)?;
    let doc = match parse_typed_fast(bytes) {
        Some(doc) if doc.schema_version == SCHEMA_VERSION => doc,
        _ => parse_typed_explained(source, bytes)?,
    };
    finish(source, doc, options)
}

/// The checks after the typed read: a field that reads but must not ([`unreadable_field`]),
/// then naive timestamps resolved.
fn finish(
    source: Source<'_>,
    mut doc: OrchestratorSession,
    options: &ParseOptions,
) -> Result<OrchestratorSession> {
    if let Some((field, detail)) = unreadable_field(&doc) {
        return Err(source.corrupt_field(&field, detail));
    }
    if let Some(offset) = options.naive_offset {
        resolve_naive(&mut doc, offset);
    }
    Ok(doc)
}

/// `doc`, a "1.0" session read by a binding with serde straight from its host's data, when
/// [`parse_from`] of that data's JSON text would accept it (every check but the size); `None`
/// otherwise, and [`parse_from`] of the text gives the error.
pub(crate) fn valid_typed(
    doc: OrchestratorSession,
    options: &ParseOptions,
) -> Option<OrchestratorSession> {
    if doc.schema_version != SCHEMA_VERSION {
        return None;
    }
    let source = Source::Argument("");
    let doc = finish(source, doc, options).ok()?;
    check_session_id(source, &doc).ok()?;
    Some(doc)
}

/// The id must also make an archive file name, or the session could never be archived:
/// [`ErrorKind::InvalidKey`] with the context `field` = `session_id` otherwise (for a file,
/// `key` too, and the hint [`Hint::Repair`]).
fn check_session_id(source: Source<'_>, doc: &OrchestratorSession) -> Result<()> {
    history_key(&doc.session_id).map(drop).map_err(|e| {
        let e = source.keyed(e).with_context("field", "session_id");
        match source {
            Source::File(_) => e.with_hint(Hint::Repair),
            Source::Argument(_) => e,
        }
    })
}

/// Whether `err` is the error of a document whose `session_id` cannot name an archive file
/// (see [`parse_document`]): `doctor --fix` assigns such a document a safe id.
pub(crate) fn is_unsafe_session_id(err: &Error) -> bool {
    err.kind() == ErrorKind::InvalidKey && err.context_value("field") == Some("session_id")
}

/// One pass from the bytes straight into the typed document, for the common case of a
/// well-formed file: `None` on any failure (including a duplicate field, which the careful path
/// accepts, last one winning), and [`parse_typed_explained`] then gives the result and the
/// precise error. Both give the same document when this one succeeds.
fn parse_typed_fast(bytes: &[u8]) -> Option<OrchestratorSession> {
    // Checked as UTF-8 once: serde_json then reads the strings without checking each again.
    let text = std::str::from_utf8(crate::json::strip_bom(bytes)).ok()?;
    serde_json::from_str(text).ok()
}

/// The careful path: a JSON object first (what it is when it is not one), then the schema
/// version, then the typed document with the path of the first field that does not fit.
fn parse_typed_explained(source: Source<'_>, bytes: &[u8]) -> Result<OrchestratorSession> {
    let value = parse_object(source, bytes)?;
    check_schema_version(source, &value)?;
    typed(source, &value)
}

/// The typed document of a "1.0" object; a missing field or a wrong type is
/// [`ErrorKind::CorruptState`] naming the field path. serde names a missing member at the
/// object that should hold it: for an argument, a member missing at the top level is named
/// itself (`` field `goal` is missing ``, context `field` = `goal`).
fn typed(
    source: Source<'_>,
    value: &serde_json::Map<String, Value>,
) -> Result<OrchestratorSession> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let reason = e.inner().to_string();
        let missing = reason
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split_once('`'))
            .map(|(member, _)| member);
        match (source, missing) {
            (Source::Argument(_), Some(member)) if path == "." => {
                source.corrupt_field(member, "is missing")
            }
            _ => source
                .corrupt(format!("field `{path}`: {reason}"))
                .with_context("field", path),
        }
    })
}

/// The bytes as a JSON object (BOM skipped), or the error of bytes that are not one.
fn parse_object(source: Source<'_>, bytes: &[u8]) -> Result<serde_json::Map<String, Value>> {
    let bytes = crate::json::strip_bom(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(source.corrupt("the file is empty"));
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(source.corrupt(format!(
            "the top level is {}, not an object",
            crate::json::kind_of(&other)
        ))),
        Err(e) => Err(source
            .corrupt(format!("invalid JSON: {e}"))
            .with_context("line", e.line().to_string())
            .with_context("column", e.column().to_string())),
    }
}

fn check_schema_version(source: Source<'_>, value: &serde_json::Map<String, Value>) -> Result<()> {
    match value.get("schema_version") {
        Some(Value::String(v)) if v == SCHEMA_VERSION => Ok(()),
        Some(Value::String(v)) => Err(source
            .keyed(Error::new(
                ErrorKind::IncompatibleSchema,
                format!(
                    "`{}` has schema_version `{}`, this library reads `{SCHEMA_VERSION}`",
                    source.name(),
                    v.escape_debug()
                ),
            ))
            .with_context("schema_version", v.as_str())),
        Some(other) => Err(source.corrupt_field(
            "schema_version",
            format!("is {}, not a string", crate::json::kind_of(other)),
        )),
        None => Err(source.corrupt_field("schema_version", "is missing")),
    }
}

/// The first field of `doc` that the typed reader accepts but [`parse_document`] refuses
/// (an agent's `progress` outside 0 to 100), as (field path, what is wrong), for writers that
/// must not write what would not read back.
pub(crate) fn unreadable_field(doc: &OrchestratorSession) -> Option<(String, String)> {
    doc.agents.iter().enumerate().find_map(|(i, agent)| {
        let progress = agent.progress.as_ref()?;
        let percent = progress
            .as_f64()
            .is_some_and(|p| (0.0..=100.0).contains(&p));
        (!percent).then(|| {
            (
                format!("agents[{i}].progress"),
                format!("is {progress}, outside 0 to 100"),
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
                d["agents"][0]["progress"] = json!("half");
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
        assert!(typed(Source::File(&key), valid().as_object().unwrap()).is_ok());
        // The keys the seed never reads may be absent.
        let mut unread = valid();
        for name in ["updated", "project", "mode"] {
            del(&mut unread, name);
        }
        assert!(typed(Source::File(&key), unread.as_object().unwrap()).is_ok());
        for (expected, spoil) in spoilers {
            let mut doc = valid();
            spoil(&mut doc);
            let err = typed(Source::File(&key), doc.as_object().unwrap()).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::CorruptState, "{err}");
            assert_eq!(err.context_value("field"), Some(expected), "{err}");
            assert!(err.message().contains(&format!("`{expected}`")), "{err}");
        }
    }
}
