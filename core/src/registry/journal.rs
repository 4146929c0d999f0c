//! The registration journal: `.moai/memory/agent-sessions.journal.jsonl`, one registration a
//! line, appended in O(1) and compacted into `agent-sessions.json` (see the module docs of
//! [`registry`](super) for the modes and their durability).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Result};

use super::document::SessionsDocument;
use super::document_changes;

/// How the registry persists registrations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JournalMode {
    /// Every operation rewrites `agent-sessions.json` (atomically, under the key's lock): the
    /// seed's file is always current. Cost of a registration grows with the file. The default.
    #[default]
    Off,
    /// Registrations are appended to the journal; every other operation, [`close`] and
    /// [`compact`] fold the journal into `agent-sessions.json`. The journal is also compacted
    /// when what this handle appended since the last compaction reaches the size of the base
    /// file (at least `min_compact_bytes`), so a registration costs O(1) amortised.
    ///
    /// [`close`]: super::AgentRegistry::close
    /// [`compact`]: super::AgentRegistry::compact
    On {
        /// Lower bound of the compaction trigger, in bytes appended.
        min_compact_bytes: u64,
    },
}

impl JournalMode {
    /// The journal with a 64 KiB minimum compaction trigger.
    pub const DEFAULT_ON: JournalMode = JournalMode::On {
        min_compact_bytes: 64 * 1024,
    };
}

/// One journal line: `{"op": "register", "agent_name", "agent_id", "result", "chain_id", "at"}`.
/// `op` is always `"register"` (the only operation journaled); a line with another `op` is
/// treated as a bad line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// The operation: `"register"`.
    pub op: String,
    /// Agent name.
    pub agent_name: String,
    /// Agent id.
    pub agent_id: String,
    /// The result.
    pub result: Value,
    /// The chain, or null.
    pub chain_id: Option<String>,
    /// When it was registered (naive ISO text).
    pub at: String,
}

impl JournalEntry {
    /// A `register_agent_result` call.
    pub fn register(
        agent_name: &str,
        agent_id: &str,
        result: Value,
        chain_id: Option<&str>,
        at: String,
    ) -> Self {
        JournalEntry {
            op: "register".to_owned(),
            agent_name: agent_name.to_owned(),
            agent_id: agent_id.to_owned(),
            result,
            chain_id: chain_id.map(str::to_owned),
            at,
        }
    }

    /// The entry as one line, newline included.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) if it cannot be serialised.
    pub fn to_line(&self) -> Result<Vec<u8>> {
        let mut line = serde_json::to_vec(self)
            .map_err(|e| Error::invalid_input(format!("cannot serialise a journal entry: {e}")))?;
        line.push(b'\n');
        Ok(line)
    }

    /// Applies the entry to `doc`; `false` (nothing done) for an unknown `op`.
    pub fn apply(self, doc: &mut SessionsDocument) -> bool {
        if self.op != "register" {
            return false;
        }
        document_changes::register(
            doc,
            &self.agent_name,
            &self.agent_id,
            self.result,
            self.chain_id.as_deref(),
            &self.at,
        );
        true
    }
}

/// The first line of a journal: `{"generation": G}`. After folding the first L bytes of a
/// journal of generation G, the base file records the [`JournalMark`] `{G, L}`, then the journal
/// is rewritten as the header of generation G + 1 alone. If a crash comes between the two
/// writes, the journal still has generation G: its first L bytes are not applied again, only
/// what was appended after them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalHeader {
    /// The generation of this journal.
    pub generation: u64,
}

impl JournalHeader {
    /// The header as one line, newline included.
    pub fn to_line(self) -> Vec<u8> {
        format!("{{\"generation\": {}}}\n", self.generation).into_bytes()
    }
}

/// Splits `journal` into its header (if its first line is one) and the entry lines after it.
pub fn split_header(journal: &[u8]) -> (Option<JournalHeader>, &[u8]) {
    let Some(end) = journal.iter().position(|&b| b == b'\n') else {
        return (None, journal);
    };
    match serde_json::from_slice::<JournalHeader>(&journal[..end]) {
        Ok(header) => (Some(header), &journal[end + 1..]),
        Err(_) => (None, journal),
    }
}

/// Whether `journal` holds at least one non-blank line after its header.
pub fn has_entries(journal: &[u8]) -> bool {
    !split_header(journal).1.iter().all(u8::is_ascii_whitespace)
}

/// What replaying a journal did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// Entries applied.
    pub applied: usize,
    /// Complete lines that did not parse (skipped; the caller keeps a copy of the journal).
    pub invalid: usize,
    /// Whether the last line was cut short (skipped: its append never returned).
    pub torn: bool,
    /// The journal's header, if it has one.
    pub header: Option<JournalHeader>,
    /// Whether a prefix of the journal was already folded into `doc` (and skipped).
    pub prefix_folded: bool,
    /// Whether entries were found after the skipped prefix (applied or not).
    pub pending: bool,
}

/// Applies the entries of `journal` that `doc` has not folded yet, skipping a torn last line
/// and bad lines.
pub fn replay(doc: &mut SessionsDocument, journal: &[u8]) -> Replay {
    let (header, mut rest) = split_header(journal);
    let mut out = Replay {
        header,
        ..Replay::default()
    };
    if let (Some(h), Some(mark)) = (header, doc.journal_folded)
        && h.generation == mark.generation
    {
        let start = usize::try_from(mark.bytes).map_or(journal.len(), |b| b.min(journal.len()));
        rest = &journal[start..];
        out.prefix_folded = true;
    }
    out.pending = !rest.iter().all(u8::is_ascii_whitespace);
    while !rest.is_empty() {
        let (line, terminated) = match rest.iter().position(|&b| b == b'\n') {
            Some(end) => {
                let line = &rest[..end];
                rest = &rest[end + 1..];
                (line, true)
            }
            None => (std::mem::take(&mut rest), false),
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<JournalEntry>(line) {
            Ok(entry) => {
                if entry.apply(doc) {
                    out.applied += 1;
                } else {
                    out.invalid += 1;
                }
            }
            Err(_) if terminated => out.invalid += 1,
            Err(_) => out.torn = true,
        }
    }
    out
}
