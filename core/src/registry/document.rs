//! The two files of the registry, typed, in the seed's format (SPEC section 2).
//!
//! - [`SessionsDocument`]: `.moai/memory/agent-sessions.json`, keys in the seed's order
//!   (`sessions`, `chains`, `metadata`, `last_updated`) plus our `results` (SPEC section 2,
//!   "Where the seed loses data", 1). Unknown top-level keys and unknown keys of a metadata or
//!   result entry are kept and written back after the known ones.
//! - [`ChainsDocument`]: `.moai/memory/workflow-chains.json`, chain id to [`ChainDefinition`].
//!
//! Both are written as Python's `json.dump(data, f, indent=2, ensure_ascii=False)` writes them:
//! 2-space indentation, `": "` between key and value, non-ASCII characters unescaped, no final
//! newline. Floats may be spelled differently from Python (`1e20` for `1e+20`); they read back
//! as the same number in both languages.

use chrono::{DateTime, Utc};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

use crate::error::{Error, Result};
use crate::key::Key;

/// `.moai/memory/agent-sessions.json`: the registry state.
///
/// An absent file is [`SessionsDocument::default`]: every map empty, no `last_updated`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SessionsDocument {
    /// Agent name to the latest agent id registered under it.
    #[serde(default)]
    pub sessions: IndexMap<String, String>,
    /// Chain id to agent ids in registration order (duplicates kept, as the seed does).
    #[serde(default)]
    pub chains: IndexMap<String, Vec<String>>,
    /// Agent id to its metadata.
    #[serde(default)]
    pub metadata: IndexMap<String, AgentMetadata>,
    /// When the file was last written: naive ISO 8601 (`2026-11-29T17:46:13.209060`).
    /// The seed writes local time; this library writes the [`Clock`](crate::Clock)'s UTC time
    /// without an offset, see `python_isoformat`. A value of another type reads as absent:
    /// every write sets it, as the seed's does.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "text_or_absent"
    )]
    pub last_updated: Option<String>,
    /// Agent id to its registered result (added by this library; the seed keeps results in
    /// memory only and ignores this key when it loads the file).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub results: IndexMap<String, AgentResult>,
    /// How much of which journal is already folded into this file
    /// (`{"generation": G, "bytes": L}`, [`JournalMode::On`] only; see
    /// [`JournalMark`]).
    ///
    /// [`JournalMode::On`]: super::JournalMode::On
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journal_folded: Option<JournalMark>,
    /// Top-level keys this library does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One entry of `metadata`: what the seed records about an agent id.
///
/// Every key is optional, as the seed reads each with `.get()` (an entry written by hand or by
/// another tool may hold only some of them, or none): a key that is absent stays absent when
/// the file is written back; the accessors give the seed's default for it. The seed never
/// reads `agent_name`, `created_at` or `last_resumed_at`: a value of another type there is
/// kept as written (in Rust among `extra`, the field `None`), so that a file the seed reads
/// is never corrupt for them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct AgentMetadata {
    /// The agent name the id was registered under.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_name: Option<String>,
    /// When the id was first registered (naive ISO 8601).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// The chain the id was registered in, or `null`; absent when the file lacks the key
    /// (see [`chain`](Self::chain)). A value of another type (another tool wrote `7`) is kept
    /// among `extra` and matches no chain, as in the seed's `!=` with the chain asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>", extend("nullable" = true))]
    #[allow(clippy::option_option)]
    pub chain_id: Option<Option<String>>,
    /// How many times the id was resumed (the seed caps resuming at 5); `None` when absent
    /// (see `resumes`). Any JSON number, kept as written: the seed compares it with 5 and adds
    /// 1, which a float (`2.0`) or a negative count also allow. `true` and `false` read as 1
    /// and 0, as Python's `bool` counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<f64>")]
    pub resume_count: Option<Number>,
    /// When the id was last resumed (naive ISO 8601), absent until the first resume.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_resumed_at: Option<String>,
    /// Keys this library does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// [`AgentMetadata`] as read: the keys the seed only prints or compares with `!=` hold any
/// value.
#[derive(Deserialize)]
struct ReadMetadata {
    #[serde(default, deserialize_with = "present")]
    agent_name: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    created_at: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    chain_id: Option<Value>,
    #[serde(default, deserialize_with = "count")]
    resume_count: Option<Number>,
    #[serde(default, deserialize_with = "present")]
    last_resumed_at: Option<Value>,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

impl<'de> Deserialize<'de> for AgentMetadata {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        let read = ReadMetadata::deserialize(deserializer)?;
        let mut extra = read.extra;
        let mut text = |key: &str, value: Option<Value>| match value {
            Some(Value::String(text)) => Some(text),
            Some(other) => {
                extra.insert(key.to_owned(), other);
                None
            }
            None => None,
        };
        let chain_id = match read.chain_id {
            Some(Value::Null) => Some(None),
            other => text("chain_id", other).map(Some),
        };
        let agent_name = text("agent_name", read.agent_name);
        let created_at = text("created_at", read.created_at);
        let last_resumed_at = text("last_resumed_at", read.last_resumed_at);
        Ok(AgentMetadata {
            agent_name,
            created_at,
            chain_id,
            resume_count: read.resume_count,
            last_resumed_at,
            extra,
        })
    }
}

impl AgentMetadata {
    /// The chain of the id (`None` for `null` or an absent key, as the seed's
    /// `metadata.get("chain_id")`).
    pub fn chain(&self) -> Option<&str> {
        self.chain_id.as_ref().and_then(Option::as_deref)
    }

    /// The resume count (0 when absent, as the seed's `metadata.get("resume_count", 0)`), as a
    /// whole count: a float is rounded down and a negative count is 0, which compare with the
    /// seed's cap as the number written does.
    pub(crate) fn resumes(&self) -> u64 {
        // -1.5 is 0, 1e300 u64::MAX, 4.5 4 (below the cap of 5, as 4.5 is).
        self.resume_count
            .as_ref()
            .map_or(0, crate::json::whole_count)
    }

    /// The resume count plus one, as the seed's `+= 1` makes it: an integer stays an integer
    /// (saturating), a float a float; absent counts from 0.
    pub(crate) fn resumed_once_more(&self) -> Number {
        let Some(count) = &self.resume_count else {
            return Number::from(1u64);
        };
        if let Some(n) = count.as_u64() {
            Number::from(n.saturating_add(1))
        } else if let Some(n) = count.as_i64() {
            Number::from(n + 1)
        } else {
            count
                .as_f64()
                .and_then(|f| Number::from_f64(f + 1.0))
                .unwrap_or_else(|| count.clone())
        }
    }
}

/// For a field whose absence is kept apart from its value: a present key is `Some` of what it
/// holds (`Some(None)` for `null` when the field's type is itself an `Option`; `null` is a
/// wrong type otherwise). An absent key is the field's `default`, `None`.
fn present<'de, D, T>(deserializer: D) -> std::result::Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// A string as itself; any other value (one the seed only ever overwrites) as absent.
fn text_or_absent<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> std::result::Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::String(text) => Some(text),
        _ => None,
    })
}

/// A present `resume_count`: a number as written, or a `bool` as the integer Python's `bool` is
/// (the seed's `True >= 5` and `True + 1` count it so). Anything else makes the seed's
/// comparison with its cap raise, and is a wrong type here.
fn count<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> std::result::Result<Option<Number>, D::Error> {
    use serde::de::{Error as _, Unexpected};
    match Value::deserialize(deserializer)? {
        Value::Number(number) => Ok(Some(number)),
        Value::Bool(flag) => Ok(Some(Number::from(u8::from(flag)))),
        other => {
            let unexpected = match &other {
                Value::String(text) => Unexpected::Str(text),
                Value::Array(_) => Unexpected::Seq,
                Value::Object(_) => Unexpected::Map,
                _ => Unexpected::Unit,
            };
            Err(D::Error::invalid_type(unexpected, &"a number"))
        }
    }
}

/// One entry of `results`, shaped as the seed's in-memory `_results` entry (and as each item of
/// `get_chain_results`): `{agent_name, result, timestamp, chain_id}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AgentResult {
    /// The agent name the result was registered under (absent in an entry written by another
    /// tool: kept absent, see [`name`](Self::name)).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub agent_name: Option<String>,
    /// The result: any JSON value.
    #[serde(default)]
    pub result: Value,
    /// When it was registered (naive ISO 8601), or `null`; absent when the file lacks the
    /// key (kept absent).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    #[schemars(with = "Option<String>", extend("nullable" = true))]
    #[allow(clippy::option_option)]
    pub timestamp: Option<Option<String>>,
    /// The chain it was registered in, or `null`; absent when the file lacks the key (kept
    /// absent).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    #[schemars(with = "Option<String>", extend("nullable" = true))]
    #[allow(clippy::option_option)]
    pub chain_id: Option<Option<String>>,
    /// Keys this library does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl AgentResult {
    /// The agent name of the result (`""` when the entry has none).
    pub fn name(&self) -> &str {
        self.agent_name.as_deref().unwrap_or_default()
    }
}

/// `.moai/memory/workflow-chains.json`: chain id to its definition, in insertion order.
pub type ChainsDocument = IndexMap<String, ChainDefinition>;

/// One chain of `workflow-chains.json`, as `create_chain` writes it. The seed never reads an
/// entry back, so any value is read ([`parse_chains`]): a known key of another type is kept
/// among `extra`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChainDefinition {
    /// When the chain was (last) created (naive ISO 8601).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// The agent names expected to run, in order (`None` when the key is absent: kept absent;
    /// see [`expected`](Self::expected)).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub expected_sequence: Option<Vec<String>>,
    /// Free metadata given to `create_chain` (`{}` when none; `None` when the key is absent,
    /// kept absent).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub metadata: Option<Value>,
    /// Keys this library does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ChainDefinition {
    /// The expected agent names (none when the key is absent).
    pub fn expected(&self) -> &[String] {
        self.expected_sequence.as_deref().unwrap_or_default()
    }

    /// The definition an object of `workflow-chains.json` holds: `created_at` that is not a
    /// string and `expected_sequence` that is not a list of strings are kept among `extra`.
    fn from_entry(mut extra: Map<String, Value>) -> ChainDefinition {
        let created_at = match extra.shift_remove("created_at") {
            Some(Value::String(text)) => Some(text),
            Some(other) => {
                extra.insert("created_at".to_owned(), other);
                None
            }
            None => None,
        };
        let expected_sequence = match extra.shift_remove("expected_sequence") {
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => Some(
                items
                    .into_iter()
                    .filter_map(|item| match item {
                        Value::String(name) => Some(name),
                        _ => None,
                    })
                    .collect(),
            ),
            Some(other) => {
                extra.insert("expected_sequence".to_owned(), other);
                None
            }
            None => None,
        };
        let metadata = extra.shift_remove("metadata");
        ChainDefinition {
            created_at,
            expected_sequence,
            metadata,
            extra,
        }
    }
}

/// What the base file has already folded: the first `bytes` bytes of the journal of
/// `generation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct JournalMark {
    /// The journal's generation.
    pub generation: u64,
    /// How many of its bytes (header included) were folded.
    pub bytes: u64,
}

/// The instant `now` as Python's `datetime.isoformat()` writes a naive datetime:
/// `YYYY-MM-DDTHH:MM:SS.ffffff`, the fraction left out when the microseconds are 0.
///
/// The seed writes local time; we write UTC and leave the offset out so that the seed reads it
/// (naive = UTC in files this library writes).
pub fn python_isoformat(now: DateTime<Utc>) -> String {
    let micros = now.timestamp_subsec_micros() % 1_000_000;
    if micros == 0 {
        crate::time::format_naive_seconds(now)
    } else {
        format!("{}.{micros:06}", crate::time::format_naive_seconds(now))
    }
}

/// Parses `bytes` as the registry state stored under `key` (a leading UTF-8 BOM is skipped).
///
/// # Errors
/// [`ErrorKind::CorruptState`](crate::ErrorKind::CorruptState) naming `key` when the bytes are
/// not JSON, not an object (a top-level array), or a key the seed computes with has the wrong
/// type (a non-list chain, a `resume_count` that is not a number).
pub fn parse_sessions(key: &Key, bytes: &[u8]) -> Result<SessionsDocument> {
    parse_typed(key, bytes)
}

/// Parses `bytes` as `workflow-chains.json` stored under `key`. The seed only ever adds to this
/// file, so any entry is read: an object as a [`ChainDefinition`] (see its docs), an entry that
/// is not an object is left out (and kept in the file by `create_chain`, which reads every
/// entry as it is).
///
/// # Errors
/// [`ErrorKind::CorruptState`](crate::ErrorKind::CorruptState) naming `key` when the bytes are
/// not JSON or not an object.
pub fn parse_chains(key: &Key, bytes: &[u8]) -> Result<ChainsDocument> {
    let entries = parse_chain_entries(key, bytes)?;
    Ok(entries
        .into_iter()
        .filter_map(|(id, entry)| match entry {
            Value::Object(fields) => Some((id, ChainDefinition::from_entry(fields))),
            _ => None,
        })
        .collect())
}

/// `workflow-chains.json` as the seed's `create_chain` reads it: chain id to any value.
///
/// # Errors
/// As [`parse_chains`].
pub(crate) fn parse_chain_entries(key: &Key, bytes: &[u8]) -> Result<Map<String, Value>> {
    parse_typed(key, bytes)
}

/// Parses straight into `T` (one pass); on failure, parses again as a plain value only to
/// give a clearer message for a top level that is not an object.
fn parse_typed<T: serde::de::DeserializeOwned>(key: &Key, bytes: &[u8]) -> Result<T> {
    // A leading BOM (some Windows editors add one) is skipped, as in orchestrator files.
    let bytes = crate::json::strip_bom(bytes);
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') {
        return serde_json::from_slice(bytes).map_err(|e| Error::corrupt(key, e));
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(value) => Err(Error::corrupt(
            key,
            format!(
                "the top level is {}, not an object",
                crate::json::kind_of(&value)
            ),
        )),
        Err(e) => Err(Error::corrupt(key, e)),
    }
}

/// Serialises `value` as Python's `json.dump(value, indent=2, ensure_ascii=False)` does.
///
/// # Errors
/// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) if `value` cannot be serialised
/// (it always can for the types of this module).
pub fn to_python_json<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    to_python_json_sized(value, 128)
}

/// [`to_python_json`] into a buffer of `capacity` bytes reserved up front (the size of the
/// previous version of the file saves the buffer's regrowth copies).
///
/// # Errors
/// As [`to_python_json`].
pub fn to_python_json_sized<T: Serialize + ?Sized>(value: &T, capacity: usize) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(capacity);
    serde_json::to_writer_pretty(&mut out, value)
        .map_err(|e| Error::invalid_input(format!("cannot serialise the registry: {e}")))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_isoformat_leaves_out_zero_microseconds() {
        let now = crate::FixedClock::at("2026-11-29T17:46:13Z").unwrap().0;
        assert_eq!(python_isoformat(now), "2026-11-29T17:46:13");
    }

    #[test]
    fn isoformat_matches_python() {
        let t = DateTime::parse_from_rfc3339("2026-11-29T17:46:13.206964Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(python_isoformat(t), "2026-11-29T17:46:13.206964");
        let t = DateTime::parse_from_rfc3339("2026-11-29T17:46:13Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(python_isoformat(t), "2026-11-29T17:46:13");
        let t = DateTime::parse_from_rfc3339("2026-11-29T17:46:13.000001999Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(python_isoformat(t), "2026-11-29T17:46:13.000001");
    }

    #[test]
    fn unknown_keys_round_trip_in_order() {
        let key = Key::new("a.json").unwrap();
        let text = r#"{"sessions":{"a":"1"},"zz":1,"metadata":{"1":{"agent_name":"a","created_at":"t","chain_id":null,"resume_count":2,"x":[1]}}}"#;
        let doc = parse_sessions(&key, text.as_bytes()).unwrap();
        assert_eq!(doc.extra.get("zz"), Some(&Value::from(1)));
        assert_eq!(
            doc.metadata["1"].extra.get("x"),
            Some(&serde_json::json!([1]))
        );
        let out = String::from_utf8(to_python_json(&doc).unwrap()).unwrap();
        assert!(out.find("\"x\"").unwrap() > out.find("\"resume_count\"").unwrap());
        assert!(out.ends_with("\"zz\": 1\n}"), "{out}");
    }

    #[test]
    fn a_resume_count_the_seed_computes_with_reads_compares_and_counts_as_the_seed_does() {
        let key = Key::new("a.json").unwrap();
        // (as written, whole count against the cap, after the seed's `+= 1`)
        for (written, resumes, after) in [
            ("2.0", 2, "3.0"),
            ("4.5", 4, "5.5"),
            ("5.0", 5, "6.0"),
            ("-1", 0, "0"),
            ("-2.5", 0, "-1.5"),
            ("7", 7, "8"),
            ("18446744073709551615", u64::MAX, "18446744073709551615"),
            ("1e300", u64::MAX, "1e300"),
        ] {
            let text = format!(r#"{{"metadata": {{"1": {{"resume_count": {written}}}}}}}"#);
            let mut doc = parse_sessions(&key, text.as_bytes()).unwrap();
            let meta = &doc.metadata["1"];
            assert_eq!(meta.resumes(), resumes, "{written}");
            let out = String::from_utf8(to_python_json(&doc).unwrap()).unwrap();
            let read_back: Value = serde_json::from_str(&out).unwrap();
            let original: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(
                read_back["metadata"], original["metadata"],
                "{written} is written back as it was: {out}"
            );
            assert!(crate::registry::document_changes::increment_resume_count(
                &mut doc, "1", "t"
            ));
            let after_value: Value = serde_json::from_str(after).unwrap();
            assert_eq!(
                serde_json::to_value(&doc.metadata["1"].resume_count).unwrap(),
                after_value,
                "{written} + 1"
            );
        }
        for (written, resumes, after) in [("true", 1, 2), ("false", 0, 1)] {
            let text = format!(r#"{{"metadata": {{"1": {{"resume_count": {written}}}}}}}"#);
            let mut doc = parse_sessions(&key, text.as_bytes()).unwrap();
            assert_eq!(doc.metadata["1"].resumes(), resumes, "{written}");
            assert!(crate::registry::document_changes::increment_resume_count(
                &mut doc, "1", "t"
            ));
            assert_eq!(
                doc.metadata["1"].resume_count,
                Some(Number::from(after)),
                "{written} + 1"
            );
        }
        let absent = parse_sessions(&key, br#"{"metadata": {"1": {}}}"#).unwrap();
        assert_eq!(absent.metadata["1"].resumes(), 0);
        assert_eq!(absent.metadata["1"].resumed_once_more(), Number::from(1u64));
    }

    #[test]
    fn text_keys_the_seed_never_reads_hold_any_value_and_give_way_when_set() {
        let key = Key::new("a.json").unwrap();
        let text = r#"{"metadata": {"1": {"agent_name": 7, "created_at": null, "chain_id": "c", "resume_count": 1, "last_resumed_at": [1], "x": true}}}"#;
        let mut doc = parse_sessions(&key, text.as_bytes()).unwrap();
        let meta = &doc.metadata["1"];
        assert_eq!(
            (meta.agent_name.as_ref(), meta.created_at.as_ref()),
            (None, None)
        );
        assert_eq!(meta.chain(), Some("c"));
        let read_back: Value = serde_json::from_slice(&to_python_json(&doc).unwrap()).unwrap();
        let original: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            read_back["metadata"], original["metadata"],
            "kept as written"
        );

        crate::registry::document_changes::increment_resume_count(&mut doc, "1", "t2");
        crate::registry::document_changes::register(
            &mut doc,
            "a",
            "1",
            Value::Null,
            Some("c"),
            "t3",
        );
        let out = serde_json::to_string(&doc.metadata["1"]).unwrap();
        for name in ["agent_name", "created_at", "last_resumed_at"] {
            assert_eq!(
                out.matches(&format!("\"{name}\"")).count(),
                1,
                "{name}: {out}"
            );
        }
        let meta = &doc.metadata["1"];
        assert_eq!(meta.agent_name.as_deref(), Some("a"));
        assert_eq!(meta.created_at, None, "kept as it was: {out}");
        assert_eq!(meta.extra.get("created_at"), Some(&Value::Null));
        assert_eq!(meta.last_resumed_at.as_deref(), Some("t2"));
        assert_eq!(meta.extra.get("x"), Some(&Value::Bool(true)));
    }

    #[test]
    fn a_last_updated_of_another_type_reads_as_absent_and_is_set_by_the_next_write() {
        let key = Key::new("a.json").unwrap();
        for written in ["5", "null", "[1]"] {
            let text = format!(r#"{{"sessions": {{"a": "1"}}, "last_updated": {written}}}"#);
            let doc = parse_sessions(&key, text.as_bytes()).unwrap();
            assert_eq!(
                (doc.last_updated, doc.sessions.len()),
                (None, 1),
                "{written}"
            );
        }
    }

    #[test]
    fn a_chain_id_of_another_type_matches_no_chain_and_is_kept_until_registered_again() {
        let key = Key::new("a.json").unwrap();
        let text = r#"{"metadata": {"1": {"agent_name": "a", "chain_id": 7, "resume_count": 5}}}"#;
        let mut doc = parse_sessions(&key, text.as_bytes()).unwrap();
        let meta = &doc.metadata["1"];
        assert_eq!((meta.chain(), meta.resumes()), (None, 5));
        let read_back: Value = serde_json::from_slice(&to_python_json(&doc).unwrap()).unwrap();
        let original: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            read_back["metadata"], original["metadata"],
            "kept as written"
        );
        crate::registry::document_changes::register(
            &mut doc,
            "a",
            "1",
            Value::Null,
            Some("c"),
            "t",
        );
        let out = serde_json::to_string(&doc.metadata["1"]).unwrap();
        assert_eq!(out.matches("\"chain_id\"").count(), 1, "{out}");
        assert_eq!(doc.metadata["1"].chain(), Some("c"));
        assert_eq!(doc.metadata["1"].resumes(), 5, "the count kept");
    }

    #[test]
    fn wrong_shapes_are_corrupt_state() {
        let key = Key::new("a.json").unwrap();
        for bad in [
            "[]",
            "{\"sessions\": {\"a\": \"1\"",
            "{\"chains\": {\"c\": \"x\"}}",
            "{\"metadata\": {\"1\": {\"resume_count\": \"2\"}}}",
            "{\"metadata\": {\"1\": {\"resume_count\": null}}}",
            "{\"metadata\": {\"1\": {\"resume_count\": [1]}}}",
        ] {
            let err = parse_sessions(&key, bad.as_bytes()).unwrap_err();
            assert_eq!(err.code(), "corrupt_state", "{bad}");
        }
    }
}
