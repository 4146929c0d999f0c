//! Agent transcripts: `.moai/logs/agent-transcripts/agent-{agent_id}.jsonl`, one JSON record a
//! line, read record by record.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Result;
use crate::key::Key;
use crate::store::Store;

/// The folder of the transcripts, relative to the project root.
pub const TRANSCRIPT_DIR: &str = ".moai/logs/agent-transcripts";

/// The transcript key of `agent_id`, or `None` when the id is a valid segment but its file
/// name (`agent-{id}.jsonl`) would be longer than a file name may be: no such transcript can
/// exist, so a lookup finds none (as the seed's `Path.exists()` does), while ids that are not
/// valid segments stay errors.
///
/// # Errors
/// As [`transcript_key`], for ids that are not valid key segments.
pub(crate) fn existing_transcript_key(agent_id: &str) -> Result<Option<Key>> {
    let id = Key::segment("agent id", agent_id)?;
    if "agent-.jsonl".len() + id.len() > crate::key::MAX_SEGMENT_BYTES {
        return Ok(None);
    }
    transcript_key(id).map(Some)
}

/// The key and bytes of `agent_id`'s transcript in `store`: below `TRANSCRIPT_DIR`, or at
/// the store's root when `at_store_root` (a store rooted at the transcript folder itself, as
/// the Python drop-in's configurable `transcript_dir`); `None` when there is none (also for an
/// id too long for the file name).
///
/// # Errors
/// [`ErrorKind::InvalidKey`](crate::ErrorKind::InvalidKey) for an unsafe id; the store's errors.
pub fn find_transcript<S: Store + ?Sized>(
    store: &S,
    agent_id: &str,
    at_store_root: bool,
) -> Result<Option<(Key, Vec<u8>)>> {
    let Some(mut key) = existing_transcript_key(agent_id)? else {
        return Ok(None);
    };
    if at_store_root {
        key = Key::new(key.file_name())?;
    }
    Ok(store.read(&key)?.map(|bytes| (key, bytes)))
}

/// The key of `agent_id`'s transcript. The id is validated as a key segment first (SPEC section
/// 2, difference 6): `x/../../secret` is refused instead of escaping the folder.
///
/// # Errors
/// [`ErrorKind::InvalidKey`](crate::ErrorKind::InvalidKey) naming the id.
pub fn transcript_key(agent_id: &str) -> Result<Key> {
    let id = Key::segment("agent id", agent_id)?;
    Key::new(TRANSCRIPT_DIR)?.join(&format!("agent-{id}.jsonl"))
}

/// One line of a transcript, as [`TranscriptLines`] yields it. Serialises as
/// `{"kind": "record", "line": 3, "value": ...}` (or `"invalid"` / `"torn"` with `error`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TranscriptLine {
    /// A line holding one JSON value.
    Record {
        /// 1-based line number.
        line: usize,
        /// The parsed record.
        value: Value,
    },
    /// A complete line (ending in a newline) that is not JSON: skipped, reading goes on.
    Invalid {
        /// 1-based line number.
        line: usize,
        /// Why it does not parse.
        error: String,
    },
    /// The last line, without a final newline and not JSON: a write cut short.
    Torn {
        /// 1-based line number.
        line: usize,
        /// Why it does not parse.
        error: String,
    },
}

/// An iterator over the lines of a transcript's bytes. Blank lines are skipped; a bad line is
/// reported as [`TranscriptLine::Invalid`] (or [`TranscriptLine::Torn`] for an unterminated last
/// line) and reading continues with the next one.
#[derive(Clone, Debug)]
pub struct TranscriptLines<'a> {
    rest: &'a [u8],
    line: usize,
}

impl<'a> TranscriptLines<'a> {
    /// Reads the lines of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        TranscriptLines {
            rest: bytes,
            line: 0,
        }
    }
}

impl Iterator for TranscriptLines<'_> {
    type Item = TranscriptLine;

    fn next(&mut self) -> Option<TranscriptLine> {
        loop {
            if self.rest.is_empty() {
                return None;
            }
            self.line += 1;
            let (text, terminated) = if let Some(end) = self.rest.iter().position(|&b| b == b'\n') {
                let text = &self.rest[..end];
                self.rest = &self.rest[end + 1..];
                (text, true)
            } else {
                (std::mem::take(&mut self.rest), false)
            };
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let line = self.line;
            return Some(match serde_json::from_slice::<Value>(text) {
                Ok(value) => TranscriptLine::Record { line, value },
                Err(e) if terminated => TranscriptLine::Invalid {
                    line,
                    error: e.to_string(),
                },
                Err(e) => TranscriptLine::Torn {
                    line,
                    error: e.to_string(),
                },
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_are_found_below_a_folder_or_at_a_store_root() {
        use crate::store::MemoryStore;
        let store = MemoryStore::new();
        store
            .write(&transcript_key("a1").unwrap(), b"{}\n")
            .unwrap();
        store
            .write(&Key::new("agent-b1.jsonl").unwrap(), b"[]\n")
            .unwrap();
        let (key, bytes) = find_transcript(&store, "a1", false).unwrap().unwrap();
        assert_eq!(
            (key, bytes),
            (transcript_key("a1").unwrap(), b"{}\n".to_vec())
        );
        let (key, _) = find_transcript(&store, "b1", true).unwrap().unwrap();
        assert_eq!(key.as_str(), "agent-b1.jsonl");
        assert_eq!(find_transcript(&store, "a1", true).unwrap(), None);
        assert_eq!(
            find_transcript(&store, &"x".repeat(250), true).unwrap(),
            None
        );
        assert!(find_transcript(&store, "../x", true).is_err());
    }

    #[test]
    fn keys_are_validated() {
        assert_eq!(
            transcript_key("abc").unwrap().as_str(),
            ".moai/logs/agent-transcripts/agent-abc.jsonl"
        );
        assert_eq!(
            transcript_key("x/../../secret").unwrap_err().code(),
            "invalid_key"
        );
        assert_eq!(transcript_key("..").unwrap_err().code(), "invalid_key");
    }

    #[test]
    fn bad_and_torn_lines_are_reported_and_skipped() {
        let bytes = b"{\"a\":1}\nnot json\n\n[2]\n{\"torn\":";
        let lines: Vec<_> = TranscriptLines::new(bytes).collect();
        assert_eq!(lines.len(), 4);
        assert!(matches!(lines[0], TranscriptLine::Record { line: 1, .. }));
        assert!(matches!(lines[1], TranscriptLine::Invalid { line: 2, .. }));
        assert!(matches!(lines[2], TranscriptLine::Record { line: 4, .. }));
        assert!(matches!(lines[3], TranscriptLine::Torn { line: 5, .. }));
    }
}
