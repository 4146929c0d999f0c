//! [`AgentRegistry`]: the seed's `SessionManager` over a [`Store`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::key::Key;
use crate::store::{Store, update_with};
use crate::time::Clock;

use super::document::{
    ChainDefinition, ChainsDocument, SessionsDocument, parse_chains, parse_sessions,
    python_isoformat, to_python_json,
};
use super::journal::{JournalEntry, JournalHeader, JournalMark, JournalMode, has_entries, replay};
use super::ops;

/// `agent-sessions.json`, relative to the project root.
pub const SESSIONS_KEY: &str = ".moai/memory/agent-sessions.json";
/// `workflow-chains.json`, relative to the project root.
pub const CHAINS_KEY: &str = ".moai/memory/workflow-chains.json";
/// The registration journal ([`JournalMode::On`]), relative to the project root.
pub const JOURNAL_KEY: &str = ".moai/memory/agent-sessions.journal.jsonl";

const UNKNOWN_LEN: u64 = u64::MAX;

/// The seed's `get_all_sessions` dict: `{sessions, chains: [chain ids], total_results}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllSessions {
    /// Agent name to its latest id, in registration order.
    pub sessions: indexmap::IndexMap<String, String>,
    /// Chain ids, in creation order.
    pub chains: Vec<String>,
    /// Number of stored results.
    pub total_results: usize,
}

/// One row of [`AgentRegistry::agents`]: `{agent_name, agent_id, chain_id, resume_count,
/// has_result}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentEntry {
    /// Agent name.
    pub agent_name: String,
    /// Its latest agent id.
    pub agent_id: String,
    /// The chain of that id, if any.
    pub chain_id: Option<String>,
    /// How many times that id was resumed.
    pub resume_count: u64,
    /// Whether a result is stored for that id.
    pub has_result: bool,
}

/// The sub-agent registry (SPEC section 2) over a [`Store`], stamping times with a [`Clock`].
///
/// Every method reads the files afresh, and every change is one exclusive read-modify-write
/// ([`Store::update`]), so several handles and processes can share a project folder without
/// losing an update. A corrupt file is copied aside to `<key>.corrupt-<UTC stamp>` and the
/// operation fails with [`ErrorKind::CorruptState`](crate::ErrorKind::CorruptState) (context `kept_aside`); the file itself is
/// left as it was until [`recover`](Self::recover) is called.
///
/// Time stamps are written as naive ISO 8601 like the seed's `datetime.now().isoformat()`, but
/// in UTC (the seed writes local time).
#[derive(Debug)]
pub struct AgentRegistry<S, C> {
    store: S,
    clock: C,
    mode: JournalMode,
    sessions_key: Key,
    chains_key: Key,
    journal_key: Key,
    pending: AtomicU64,
    base_len: AtomicU64,
    journal_ready: AtomicBool,
}

fn fixed_key(text: &str) -> Key {
    Key::new(text).unwrap_or_else(|_| unreachable!("the registry keys are valid"))
}

impl<S: Store, C: Clock> AgentRegistry<S, C> {
    /// A registry over `store` in [`JournalMode::Off`].
    pub fn new(store: S, clock: C) -> Self {
        AgentRegistry {
            store,
            clock,
            mode: JournalMode::Off,
            sessions_key: fixed_key(SESSIONS_KEY),
            chains_key: fixed_key(CHAINS_KEY),
            journal_key: fixed_key(JOURNAL_KEY),
            pending: AtomicU64::new(0),
            base_len: AtomicU64::new(UNKNOWN_LEN),
            journal_ready: AtomicBool::new(false),
        }
    }

    /// The same registry persisting registrations in `mode`. All handles writing one folder
    /// at the same time must use the same mode.
    #[must_use]
    pub fn with_journal(mut self, mode: JournalMode) -> Self {
        self.mode = mode;
        self
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The persistence mode.
    pub fn mode(&self) -> JournalMode {
        self.mode
    }

    fn now(&self) -> String {
        python_isoformat(self.clock.now())
    }

    // ----------------------------------------------------------------------------- reading

    /// The registry state: `agent-sessions.json` (empty when absent) with the journal, if any,
    /// replayed on top.
    ///
    /// # Errors
    /// [`ErrorKind::CorruptState`](crate::ErrorKind::CorruptState) when the file does not parse (nothing is changed),
    /// [`ErrorKind::Storage`](crate::ErrorKind::Storage) when the store fails.
    pub fn load(&self) -> Result<SessionsDocument> {
        let journal_pending = match self.mode {
            JournalMode::On { .. } => true,
            JournalMode::Off => self
                .store
                .read(&self.journal_key)?
                .is_some_and(|j| has_entries(&j)),
        };
        if !journal_pending {
            return self.read_base();
        }
        update_with(&self.store, &self.journal_key, |journal| {
            let mut doc = self.read_base()?;
            replay(&mut doc, journal.unwrap_or_default());
            Ok((None, doc))
        })
    }

    fn read_base(&self) -> Result<SessionsDocument> {
        match self.store.read(&self.sessions_key)? {
            Some(bytes) => parse_sessions(&self.sessions_key, &bytes),
            None => Ok(SessionsDocument::default()),
        }
    }

    /// `workflow-chains.json` (empty when absent).
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub fn load_chains(&self) -> Result<ChainsDocument> {
        match self.store.read(&self.chains_key)? {
            Some(bytes) => parse_chains(&self.chains_key, &bytes),
            None => Ok(ChainsDocument::default()),
        }
    }

    // ---------------------------------------------------------------------------- mutating

    /// Copies corrupt `bytes` of `key` aside and returns the error to fail with.
    fn keep_aside(&self, key: &Key, bytes: &[u8], err: Error) -> Error {
        let stamp = crate::time::format_compact_stamp(self.clock.now());
        let aside = match Key::new(format!("{key}.corrupt-{stamp}")) {
            Ok(k) => k,
            Err(e) => return e,
        };
        match self.store.write(&aside, bytes) {
            Ok(()) => err.with_context("kept_aside", aside.to_string()),
            Err(e) => e,
        }
    }

    fn parse_or_keep_aside(&self, bytes: Option<&[u8]>) -> Result<SessionsDocument> {
        match bytes {
            None => Ok(SessionsDocument::default()),
            Some(b) => parse_sessions(&self.sessions_key, b)
                .map_err(|e| self.keep_aside(&self.sessions_key, b, e)),
        }
    }

    fn serialise(&self, doc: &mut SessionsDocument) -> Result<Vec<u8>> {
        doc.last_updated = Some(self.now());
        to_python_json(doc)
    }

    /// One exclusive read-modify-write of the state. `apply` returns whether it changed the
    /// document, and a value.
    fn mutate<T>(
        &self,
        mut apply: impl FnMut(&mut SessionsDocument, &str) -> (bool, T),
    ) -> Result<T> {
        match self.mode {
            JournalMode::Off => {
                if self
                    .store
                    .read(&self.journal_key)?
                    .is_some_and(|j| has_entries(&j))
                {
                    self.fold_journal(&mut |_, _| (false, ()))?;
                }
                update_with(&self.store, &self.sessions_key, |current| {
                    let mut doc = self.parse_or_keep_aside(current)?;
                    let now = self.now();
                    let (changed, out) = apply(&mut doc, &now);
                    let bytes = if changed {
                        Some(self.serialise(&mut doc)?)
                    } else {
                        None
                    };
                    Ok((bytes, out))
                })
            }
            JournalMode::On { .. } => self.fold_journal(&mut apply),
        }
    }

    /// Under the journal's lock: base + journal replay + `apply`, written to the base file
    /// (with the folded generation), then the journal rewritten as the next generation's header
    /// alone. A journal with bad lines is copied aside first.
    fn fold_journal<T>(
        &self,
        apply: &mut dyn FnMut(&mut SessionsDocument, &str) -> (bool, T),
    ) -> Result<T> {
        // `emptied`: the journal holds no entry any more; `len`: the new size of the base file.
        let (out, emptied, len) = update_with(&self.store, &self.journal_key, |journal| {
            let base = self.store.read(&self.sessions_key)?;
            let mut doc = self.parse_or_keep_aside(base.as_deref())?;
            let journal = journal.unwrap_or_default();
            let folded_before = doc.journal_folded.map(|m| m.generation);
            let replayed = replay(&mut doc, journal);
            if replayed.invalid > 0 {
                let err = Error::corrupt(&self.journal_key, "lines that do not parse");
                let kept = self.keep_aside(&self.journal_key, journal, err);
                if kept.context_value("kept_aside").is_none() {
                    return Err(kept);
                }
            }
            let now = self.now();
            let (changed, out) = apply(&mut doc, &now);
            // The journal is rewritten as the next generation's header when it has no header
            // or holds entries (folded now, or before a crash that came after the base write).
            let reset = replayed.header.is_none() || has_entries(journal);
            if !changed && !reset {
                return Ok((None, (out, true, None)));
            }
            let mut len = None;
            if changed || replayed.pending {
                if reset {
                    doc.journal_folded = replayed.header.map(|h| JournalMark {
                        generation: h.generation,
                        bytes: journal.len() as u64,
                    });
                }
                let bytes = self.serialise(&mut doc)?;
                self.store.write(&self.sessions_key, &bytes)?;
                len = Some(bytes.len() as u64);
            }
            if !reset {
                return Ok((None, (out, true, len)));
            }
            let next = replayed
                .header
                .map_or(0, |h| h.generation)
                .max(folded_before.unwrap_or(0))
                + 1;
            let header = JournalHeader { generation: next }.to_line();
            Ok((Some(header), (out, true, len)))
        })?;
        if let Some(len) = len {
            self.base_len.store(len, Ordering::Relaxed);
        }
        if emptied {
            self.pending.store(0, Ordering::Relaxed);
        }
        // The journal has a header now.
        self.journal_ready.store(true, Ordering::Relaxed);
        Ok(out)
    }

    /// Registers `result` for `agent_id` under `agent_name` (the seed's
    /// `register_agent_result`): maps the name to the id, keeps the result, appends the id to
    /// `chain_id` (creating it) and writes `{agent_name, created_at, chain_id, resume_count}`
    /// metadata. An id already known keeps its resume count and times (SPEC section 2,
    /// difference 3).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`](crate::ErrorKind::InvalidKey) when `agent_id` is not a safe key segment (it names transcript
    /// files), [`ErrorKind::CorruptState`](crate::ErrorKind::CorruptState) (file kept aside, unchanged), [`ErrorKind::Storage`](crate::ErrorKind::Storage).
    pub fn register(
        &self,
        agent_name: &str,
        agent_id: &str,
        result: Value,
        chain_id: Option<&str>,
    ) -> Result<()> {
        Key::segment("agent id", agent_id)?;
        match self.mode {
            JournalMode::Off => self.mutate(|doc, now| {
                ops::register(doc, agent_name, agent_id, result.clone(), chain_id, now);
                (true, ())
            }),
            JournalMode::On { min_compact_bytes } => {
                if !self.journal_ready.swap(true, Ordering::Relaxed) {
                    // The first append of a handle goes into a journal that has a header.
                    self.compact()?;
                }
                let line =
                    JournalEntry::register(agent_name, agent_id, result, chain_id, self.now())
                        .to_line()?;
                self.store.append(&self.journal_key, &line)?;
                let pending = self.pending.fetch_add(line.len() as u64, Ordering::Relaxed)
                    + line.len() as u64;
                let mut base_len = self.base_len.load(Ordering::Relaxed);
                if base_len == UNKNOWN_LEN {
                    base_len = self
                        .store
                        .read(&self.sessions_key)?
                        .map_or(0, |b| b.len() as u64);
                    self.base_len.store(base_len, Ordering::Relaxed);
                }
                if pending >= base_len.max(min_compact_bytes) {
                    self.compact()?;
                }
                Ok(())
            }
        }
    }

    /// Bytes this handle appended to the journal since its last compaction (0 in
    /// [`JournalMode::Off`] and right after a compaction).
    pub fn journal_pending_bytes(&self) -> u64 {
        self.pending.load(Ordering::Relaxed)
    }

    /// Folds the journal, if any, into `agent-sessions.json` and empties it (leaving only the
    /// next generation's header). After this a reader of the seed's file alone sees every
    /// registration. In [`JournalMode::Off`] it does nothing unless a journal holds entries.
    ///
    /// # Errors
    /// As [`register`](Self::register).
    pub fn compact(&self) -> Result<()> {
        if self.mode == JournalMode::Off
            && !self
                .store
                .read(&self.journal_key)?
                .is_some_and(|j| has_entries(&j))
        {
            return Ok(());
        }
        self.fold_journal(&mut |_, _| (false, ()))
    }

    /// Compacts ([`compact`](Self::compact)) and drops the handle. Dropping a handle without
    /// `close` leaves registrations in the journal, where every reader of this library still
    /// sees them and the next compaction folds them in.
    ///
    /// # Errors
    /// As [`compact`](Self::compact); the journal is then kept.
    pub fn close(self) -> Result<()> {
        self.compact()
    }

    /// Starts fresh after a corrupt `agent-sessions.json`: keeps a copy aside, then writes an
    /// empty registry. Returns the key of the copy, or `None` when the file was fine (nothing is
    /// changed then). For the Python drop-in, which must log a warning and go on like the seed.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`](crate::ErrorKind::Storage).
    pub fn recover(&self) -> Result<Option<Key>> {
        update_with(&self.store, &self.sessions_key, |current| {
            let Some(bytes) = current else {
                return Ok((None, None));
            };
            if parse_sessions(&self.sessions_key, bytes).is_ok() {
                return Ok((None, None));
            }
            let err = self.keep_aside(
                &self.sessions_key,
                bytes,
                Error::corrupt(&self.sessions_key, "replaced"),
            );
            let Some(aside) = err.context_value("kept_aside") else {
                return Err(err);
            };
            let aside = Key::new(aside)?;
            let fresh = self.serialise(&mut SessionsDocument::default())?;
            Ok((Some(fresh), Some(aside)))
        })
    }

    /// The seed's `increment_resume_count`: +1 and `last_resumed_at`; `false` (nothing written)
    /// for an unknown id.
    ///
    /// # Errors
    /// As [`register`](Self::register).
    pub fn increment_resume_count(&self, agent_id: &str) -> Result<bool> {
        self.mutate(|doc, now| {
            let changed = ops::increment_resume_count(doc, agent_id, now);
            (changed, changed)
        })
    }

    /// The seed's `clear_agent_session`; `false` for an unknown name.
    ///
    /// # Errors
    /// As [`register`](Self::register).
    pub fn clear_agent(&self, agent_name: &str) -> Result<bool> {
        self.mutate(|doc, _| {
            let changed = ops::clear_agent(doc, agent_name);
            (changed, changed)
        })
    }

    /// The seed's `clear_chain`, also dropping the names that pointed at cleared ids (SPEC
    /// section 2, difference 5); `false` for an unknown chain.
    ///
    /// # Errors
    /// As [`register`](Self::register).
    pub fn clear_chain(&self, chain_id: &str) -> Result<bool> {
        self.mutate(|doc, _| {
            let changed = ops::clear_chain(doc, chain_id);
            (changed, changed)
        })
    }

    /// The seed's `create_chain`: records `{created_at, expected_sequence, metadata}` in
    /// `workflow-chains.json` (`metadata` that Python counts as false, such as `null` or `{}`,
    /// is written as `{}`) and adds the chain to `agent-sessions.json` when absent, keeping any
    /// members (SPEC section 2, difference 4).
    ///
    /// # Errors
    /// [`ErrorKind::CorruptState`](crate::ErrorKind::CorruptState) when either file is corrupt (kept aside, unchanged),
    /// [`ErrorKind::Storage`](crate::ErrorKind::Storage).
    pub fn create_chain(
        &self,
        chain_id: &str,
        agent_sequence: &[String],
        metadata: Option<Value>,
    ) -> Result<()> {
        let metadata = metadata
            .filter(is_truthy)
            .unwrap_or_else(|| Value::Object(Map::new()));
        self.store.update(&self.chains_key, &mut |current| {
            let mut chains = match current {
                None => ChainsDocument::default(),
                Some(b) => parse_chains(&self.chains_key, b)
                    .map_err(|e| self.keep_aside(&self.chains_key, b, e))?,
            };
            chains.insert(
                chain_id.to_owned(),
                ChainDefinition {
                    created_at: Some(self.now()),
                    expected_sequence: agent_sequence.to_vec(),
                    metadata: metadata.clone(),
                    extra: Map::new(),
                },
            );
            to_python_json(&chains).map(Some)
        })?;
        self.mutate(|doc, _| (ops::ensure_chain(doc, chain_id), ()))
    }
}

/// Python truthiness of a JSON value (`metadata or {}`).
fn is_truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}
