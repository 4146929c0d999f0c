//! [`AgentRegistry`]: the seed's `SessionManager` over a [`Store`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Result};
use crate::json::check_rewrite;
use crate::key::Key;
use crate::limit::ReadLimit;
use crate::store::{Store, update_with};
use crate::time::Clock;

use super::cache::DocumentCache;
use super::document::JournalMark;
use super::document::{
    ChainDefinition, ChainsDocument, SessionsDocument, parse_chain_entries, parse_chains,
    parse_sessions, python_isoformat, to_python_json, to_python_json_sized,
};
use super::document_changes;
use super::journal::{JournalEntry, JournalHeader, JournalMode, has_entries, replay};
use super::writer::{Previous, Registered, write_sessions};

/// `agent-sessions.json`, relative to the project root.
pub const SESSIONS_KEY: &str = ".moai/memory/agent-sessions.json";
/// `workflow-chains.json`, relative to the project root.
pub const CHAINS_KEY: &str = ".moai/memory/workflow-chains.json";
/// The registration journal ([`JournalMode::On`]), relative to the project root.
pub const JOURNAL_KEY: &str = ".moai/memory/agent-sessions.journal.jsonl";

const UNKNOWN_LEN: u64 = u64::MAX;

/// The seed's `get_all_sessions` dict: `{sessions, chains: [chain ids], total_results}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AgentEntry {
    /// Agent name.
    pub agent_name: String,
    /// Its latest agent id.
    pub agent_id: String,
    /// The chain of that id, if any.
    pub chain_id: Option<String>,
    /// How many times that id was resumed.
    pub resume_count: u64,
    /// Whether a non-null result is stored for that id. A registration without a result
    /// stores JSON `null` (like the seed, whose `get_agent_result` then returns `None`): that
    /// entry exists in `results` but counts as no result here.
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
    pub(super) store: S,
    pub(super) clock: C,
    mode: JournalMode,
    pub(super) sessions_key: Key,
    pub(super) chains_key: Key,
    pub(super) journal_key: Key,
    limit: ReadLimit,
    pending: AtomicU64,
    base_len: AtomicU64,
    journal_ready: AtomicBool,
    cache: DocumentCache,
}

/// A capacity for the next version of a file of `previous_len` bytes: that and some room.
fn size_hint(previous_len: usize) -> usize {
    previous_len + previous_len / 8 + 4096
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
            limit: ReadLimit::default(),
            pending: AtomicU64::new(0),
            base_len: AtomicU64::new(UNKNOWN_LEN),
            journal_ready: AtomicBool::new(false),
            cache: DocumentCache::default(),
        }
    }

    /// The same registry persisting registrations in `mode`. Handles in different modes may
    /// share a folder (see the [module docs](super#persistence-modes-and-durability)).
    #[must_use]
    pub fn with_journal(mut self, mode: JournalMode) -> Self {
        self.mode = mode;
        self
    }

    /// The same registry reading files of at most `bytes` bytes (default
    /// [`DEFAULT_MAX_DOCUMENT_BYTES`](crate::DEFAULT_MAX_DOCUMENT_BYTES), 16 MiB):
    /// `agent-sessions.json`, `workflow-chains.json` and the journal. A larger one is refused with
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming the limit
    /// (context `limit`), never read as corrupt; [`doctor`](Self::doctor) with `fix` moves it
    /// aside.
    #[must_use]
    pub fn with_max_document_bytes(mut self, bytes: usize) -> Self {
        self.limit = ReadLimit(bytes);
        self
    }

    /// The read limit, in bytes (see [`with_max_document_bytes`](Self::with_max_document_bytes)).
    pub fn max_document_bytes(&self) -> usize {
        self.limit.0
    }

    /// [`ReadLimit::check_some`] of the bytes of `key` against the read limit.
    pub(super) fn limit(&self, key: &Key, bytes: Option<&[u8]>) -> Result<()> {
        self.limit.check_some(key, bytes)
    }

    /// The bytes of `key`, refused when over the read limit.
    pub(super) fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        self.limit.read(&self.store, key)
    }

    /// The same registry over other keys: `sessions` for `agent-sessions.json`, `chains` for
    /// `workflow-chains.json`, `journal` for the registration journal (the Python drop-in's
    /// `session_file` argument, which may name any file).
    #[must_use]
    pub fn with_keys(mut self, sessions: Key, chains: Key, journal: Key) -> Self {
        self.sessions_key = sessions;
        self.chains_key = chains;
        self.journal_key = journal;
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
    /// replayed on top. In either mode, when the journal holds no registration the base file
    /// is read alone, without the registry's lock (so a folder the process may only read is
    /// readable): the journal is read first, and a compaction writes the base before it
    /// empties the journal, so an empty journal means the base holds everything appended to
    /// it. When the journal holds registrations the two are read under the journal's lock;
    /// where that lock cannot be taken for a `storage` reason (a folder the process may only
    /// read, where the lock file cannot be made) they are read without it, journal first:
    /// the base's fold mark then skips what a compaction meanwhile folded.
    ///
    /// # Errors
    /// [`ErrorKind::CorruptState`](crate::ErrorKind::CorruptState) when the file does not parse (nothing is changed),
    /// [`ErrorKind::Storage`](crate::ErrorKind::Storage) when the store fails.
    pub fn load(&self) -> Result<SessionsDocument> {
        let journal_pending = self
            .read(&self.journal_key)?
            .is_some_and(|j| has_entries(&j));
        if !journal_pending {
            return self.read_base();
        }
        let locked = update_with(&self.store, &self.journal_key, |journal| {
            self.limit(&self.journal_key, journal)?;
            let mut doc = self.read_base()?;
            replay(&mut doc, journal.unwrap_or_default());
            Ok((None, doc))
        });
        match locked {
            Err(e) if e.kind() == ErrorKind::Storage => {
                let journal = self.read(&self.journal_key)?;
                let mut doc = self.read_base()?;
                replay(&mut doc, journal.as_deref().unwrap_or_default());
                Ok(doc)
            }
            other => other,
        }
    }

    fn read_base(&self) -> Result<SessionsDocument> {
        match self.read(&self.sessions_key)? {
            Some(bytes) => {
                if let Some(doc) = self.cache.clone_if_same(&bytes) {
                    return Ok(doc);
                }
                let doc = parse_sessions(&self.sessions_key, &bytes)?;
                // A change takes a cached document without reading the file again: only one
                // it may rewrite is cached (see `parse_or_keep_aside`).
                if check_rewrite(&self.sessions_key, &bytes).is_ok() {
                    self.cache.put(bytes, doc.clone());
                }
                Ok(doc)
            }
            None => Ok(SessionsDocument::default()),
        }
    }

    /// `workflow-chains.json` (empty when absent).
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub fn load_chains(&self) -> Result<ChainsDocument> {
        match self.read(&self.chains_key)? {
            Some(bytes) => parse_chains(&self.chains_key, &bytes),
            None => Ok(ChainsDocument::default()),
        }
    }

    // ---------------------------------------------------------------------------- mutating

    /// Copies corrupt `bytes` of `key` aside ([`crate::corrupt_copy::keep_corrupt_copy`]) and
    /// returns the error to fail with, naming the copy in its `kept_aside` context.
    fn keep_aside(&self, key: &Key, bytes: &[u8], err: Error) -> Error {
        match crate::corrupt_copy::keep_corrupt_copy(&self.store, key, bytes, self.clock.now()) {
            Ok(aside) => err.with_context("kept_aside", aside.to_string()),
            Err(e) => e,
        }
    }

    /// The sessions file read for a change that writes it back: a corrupt one is kept aside
    /// (the error names the copy); one holding an integer no rewrite keeps exactly is refused
    /// as it is ([`check_rewrite`]).
    fn parse_or_keep_aside(&self, bytes: Option<&[u8]>) -> Result<SessionsDocument> {
        match bytes {
            None => Ok(SessionsDocument::default()),
            Some(b) => {
                let doc = parse_sessions(&self.sessions_key, b)
                    .map_err(|e| self.keep_aside(&self.sessions_key, b, e))?;
                check_rewrite(&self.sessions_key, b)?;
                Ok(doc)
            }
        }
    }

    fn serialise(&self, doc: &mut SessionsDocument, previous_len: usize) -> Result<Vec<u8>> {
        doc.last_updated = Some(self.now());
        to_python_json_sized(doc, size_hint(previous_len))
    }

    /// One exclusive read-modify-write of the state. `apply` returns whether it changed the
    /// document, and a value. `registered`: the only entries `apply` may change, when it
    /// updates or appends those and changes no other entry of the four maps (a registration):
    /// the other entries are then copied from the file as it was (see [`super::writer`]).
    ///
    /// Every write of `agent-sessions.json`, in either mode, happens under the journal key's
    /// lock (the registry's lock), so handles in different modes never lose each other's
    /// updates; a plain-mode change folds the entries a journal-mode handle left first.
    pub(super) fn mutate<T>(
        &self,
        registered: Option<Registered<'_>>,
        mut apply: impl FnMut(&mut SessionsDocument, &str) -> (bool, T),
    ) -> Result<T> {
        match self.mode {
            JournalMode::Off => update_with(&self.store, &self.journal_key, |journal| {
                self.limit(&self.journal_key, journal)?;
                let header = if journal.is_some_and(has_entries) {
                    self.fold_locked(journal, &mut |_, _| (false, ()))?.0
                } else {
                    None
                };
                let out = self.rewrite_base(registered, &mut apply)?;
                Ok((header, out))
            }),
            JournalMode::On { .. } => self.fold_journal(&mut apply),
        }
    }

    /// Plain mode, under the registry's lock: `agent-sessions.json` read (or taken from the
    /// cache when it is the file this handle last wrote), changed by `apply` and written back.
    fn rewrite_base<T>(
        &self,
        registered: Option<Registered<'_>>,
        apply: &mut impl FnMut(&mut SessionsDocument, &str) -> (bool, T),
    ) -> Result<T> {
        let current = self.read(&self.sessions_key)?;
        let current = current.as_deref();
        let cached = current.and_then(|bytes| self.cache.take_if_same(bytes));
        let (mut doc, layout) = match cached {
            Some(found) => found,
            None => (self.parse_or_keep_aside(current)?, None),
        };
        let now = self.now();
        let (changed, out) = apply(&mut doc, &now);
        if !changed {
            // Not put back: the file is unchanged, but `apply` may have touched `doc` before
            // deciding so.
            return Ok(out);
        }
        let previous_len = current.map_or(0, <[u8]>::len);
        let (bytes, layout) = match registered {
            Some(changed) => {
                doc.last_updated = Some(self.now());
                let previous = current
                    .zip(layout.as_ref())
                    .map(|(bytes, layout)| Previous {
                        bytes,
                        layout,
                        changed,
                    });
                let buffer = self.cache.spare_buffer(size_hint(previous_len));
                let (bytes, layout) = write_sessions(&doc, previous, buffer)?;
                (bytes, Some(layout))
            }
            None => (self.serialise(&mut doc, previous_len)?, None),
        };
        self.limit.write(&self.store, &self.sessions_key, &bytes)?;
        self.cache.put_written(bytes, doc, layout);
        Ok(out)
    }

    /// Under the journal's lock: base + journal replay + `apply`, written to the base file
    /// (with the folded generation), then the journal rewritten as the next generation's header
    /// alone. A journal with bad or cut-short lines is copied aside first.
    fn fold_journal<T>(
        &self,
        apply: &mut dyn FnMut(&mut SessionsDocument, &str) -> (bool, T),
    ) -> Result<T> {
        // `emptied`: the journal holds no entry any more; `len`: the new size of the base file.
        let (out, emptied, len) = update_with(&self.store, &self.journal_key, |journal| {
            self.fold_locked(journal, apply)
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

    /// The body of [`fold_journal`](Self::fold_journal), run under the journal's lock with the
    /// journal's bytes: returns the journal's new bytes (if it is to be rewritten) and
    /// `(apply's value, emptied, new size of the base file if written)`.
    #[allow(clippy::type_complexity)]
    fn fold_locked<T>(
        &self,
        journal: Option<&[u8]>,
        apply: &mut dyn FnMut(&mut SessionsDocument, &str) -> (bool, T),
    ) -> Result<(Option<Vec<u8>>, (T, bool, Option<u64>))> {
        self.limit(&self.journal_key, journal)?;
        let base = self.read(&self.sessions_key)?;
        let mut doc = self.parse_or_keep_aside(base.as_deref())?;
        let journal = journal.unwrap_or_default();
        // A journal line holding an integer beyond 64 bits (written by another program) would
        // be folded in as the nearest float: refused, as for the base file.
        for line in journal.split(|&b| b == b'\n') {
            check_rewrite(&self.journal_key, line)?;
        }
        let folded_before = doc.journal_folded.map(|m| m.generation);
        let replayed = replay(&mut doc, journal);
        // Whatever is dropped (bad lines, a cut-short or all-garbage last line) is kept.
        if replayed.invalid > 0 || replayed.torn {
            let err = Error::corrupt(&self.journal_key, "lines that do not parse");
            let kept = self.keep_aside(&self.journal_key, journal, err);
            if kept.context_value("kept_aside").is_none() {
                return Err(kept);
            }
        }
        let now = self.now();
        let (changed, out) = apply(&mut doc, &now);
        // The journal is rewritten as the next generation's header when it has no header or
        // holds entries (folded now, or before a crash that came after the base write).
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
            let bytes = self.serialise(&mut doc, base.as_ref().map_or(0, Vec::len))?;
            self.limit.write(&self.store, &self.sessions_key, &bytes)?;
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
    }

    /// Registers `result` for `agent_id` under `agent_name` (the seed's
    /// `register_agent_result`): maps the name to the id, keeps the result, appends the id to
    /// `chain_id` (creating it) and writes `{agent_name, created_at, chain_id, resume_count}`
    /// metadata. An id already known keeps its resume count and times (SPEC section 2,
    /// difference 3).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`](crate::ErrorKind::InvalidKey) when `agent_id` is not a safe key segment (it names transcript
    /// files), [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) when `result` nests
    /// deeper than [`MAX_VALUE_NESTING`](crate::MAX_VALUE_NESTING) levels (its file would not
    /// read back), [`ErrorKind::CorruptState`](crate::ErrorKind::CorruptState) (file kept aside,
    /// unchanged), [`ErrorKind::Storage`](crate::ErrorKind::Storage).
    pub fn register(
        &self,
        agent_name: &str,
        agent_id: &str,
        result: Value,
        chain_id: Option<&str>,
    ) -> Result<()> {
        Key::segment("agent id", agent_id)?;
        // The file holds the result 3 levels down; deeper would not read back.
        crate::json::check_nesting("the result", &result)?;
        match self.mode {
            JournalMode::Off => self.mutate(
                Some(Registered {
                    name: agent_name,
                    id: agent_id,
                    chain: chain_id,
                }),
                |doc, now| {
                    document_changes::register(
                        doc,
                        agent_name,
                        agent_id,
                        result.clone(),
                        chain_id,
                        now,
                    );
                    (true, ())
                },
            ),
            JournalMode::On { min_compact_bytes } => {
                if !self.journal_ready.swap(true, Ordering::Relaxed) {
                    // The first append of a handle goes into a journal that has a header.
                    self.compact()?;
                }
                let line =
                    JournalEntry::register(agent_name, agent_id, result, chain_id, self.now())
                        .to_line()?;
                let mut base_len = self.base_len.load(Ordering::Relaxed);
                if base_len == UNKNOWN_LEN {
                    base_len = self.read(&self.sessions_key)?.map_or(0, |b| b.len() as u64);
                    self.base_len.store(base_len, Ordering::Relaxed);
                }
                // What the read limit would refuse, the journal (or the file it folds into,
                // as far as this handle knows them) grown by this line: nothing appended.
                let pending = self.pending.load(Ordering::Relaxed) + line.len() as u64;
                let folded = usize::try_from(base_len + pending).unwrap_or(usize::MAX);
                if folded > self.limit.0 {
                    let (key, limit) = (&self.sessions_key, self.limit.0);
                    let message = format!(
                        "`{key}` would be about {folded} bytes with this registration, more \
                         than the limit of {limit} bytes: nothing written"
                    );
                    return Err(crate::limit::over_limit(message, Some(key), limit));
                }
                self.store.append(&self.journal_key, &line)?;
                self.pending.fetch_add(line.len() as u64, Ordering::Relaxed);
                if pending >= base_len.max(min_compact_bytes) {
                    // Registered: a fold the read limit refuses leaves the journal as it is.
                    match self.compact() {
                        Err(e) if !crate::limit::is_over_limit(&e) => return Err(e),
                        _ => {}
                    }
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
    /// changed then). For the Python drop-in, which must log a warning and start empty like the
    /// seed; [`recover_salvaging`](Self::recover_salvaging) keeps what can still be read.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`](crate::ErrorKind::Storage).
    pub fn recover(&self) -> Result<Option<Key>> {
        Ok(self.replace_corrupt(false)?.map(|(aside, _)| aside))
    }

    /// As [`recover`](Self::recover), but writes back the complete entries of the corrupt file
    /// (`salvage_sessions`) instead of an empty registry.
    /// Returns the key of the copy and what was salvaged ("salvaged 5 sessions, ..."). What
    /// `doctor --fix` runs.
    ///
    /// # Errors
    /// As [`recover`](Self::recover).
    pub fn recover_salvaging(&self) -> Result<Option<(Key, String)>> {
        self.replace_corrupt(true)
    }

    fn replace_corrupt(&self, salvage: bool) -> Result<Option<(Key, String)>> {
        // Under the registry's lock, as every write of the sessions file (see `mutate`).
        update_with(&self.store, &self.journal_key, |_journal| {
            let Some(bytes) = self.store.read(&self.sessions_key)? else {
                return Ok((None, None));
            };
            let over_limit = self.limit(&self.sessions_key, Some(&bytes)).is_err();
            if !over_limit && parse_sessions(&self.sessions_key, &bytes).is_ok() {
                return Ok((None, None));
            }
            let err = self.keep_aside(
                &self.sessions_key,
                &bytes,
                Error::corrupt(&self.sessions_key, "replaced"),
            );
            let Some(aside) = err.context_value("kept_aside") else {
                return Err(err);
            };
            let aside = Key::new(aside)?;
            let (mut doc, action) = if over_limit {
                let action = format!("over the limit of {} bytes: started empty", self.limit.0);
                (SessionsDocument::default(), action)
            } else if salvage {
                let salvaged = super::salvage::salvage_sessions(&bytes);
                let action = salvaged.summary();
                (salvaged.doc, action)
            } else {
                (SessionsDocument::default(), "started empty".to_owned())
            };
            let fresh = self.serialise(&mut doc, bytes.len())?;
            self.store.write(&self.sessions_key, &fresh)?;
            Ok((None, Some((aside, action))))
        })
    }

    /// The seed's `increment_resume_count`: +1 and `last_resumed_at`; `false` (nothing written)
    /// for an unknown id.
    ///
    /// # Errors
    /// As [`register`](Self::register).
    pub fn increment_resume_count(&self, agent_id: &str) -> Result<bool> {
        self.mutate(None, |doc, now| {
            let changed = document_changes::increment_resume_count(doc, agent_id, now);
            (changed, changed)
        })
    }

    /// The seed's `clear_agent_session`; `false` for an unknown name.
    ///
    /// # Errors
    /// As [`register`](Self::register).
    pub fn clear_agent(&self, agent_name: &str) -> Result<bool> {
        self.mutate(None, |doc, _| {
            let changed = document_changes::clear_agent(doc, agent_name);
            (changed, changed)
        })
    }

    /// The seed's `clear_chain`, also dropping the names that pointed at cleared ids (SPEC
    /// section 2, difference 5); `false` for an unknown chain.
    ///
    /// # Errors
    /// As [`register`](Self::register).
    pub fn clear_chain(&self, chain_id: &str) -> Result<bool> {
        self.mutate(None, |doc, _| {
            let changed = document_changes::clear_chain(doc, chain_id);
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
        crate::json::check_nesting("the chain metadata", &metadata)?;
        // The sessions file is checked before the chains file is written: one that is corrupt
        // or cannot be written again must not leave only the chains file changed.
        let sessions = self.read(&self.sessions_key)?;
        self.parse_or_keep_aside(sessions.as_deref())?;
        self.store.update(&self.chains_key, &mut |current| {
            self.limit(&self.chains_key, current)?;
            // Read as the seed reads it (any entry), so that every other entry is written back
            // as it was.
            let mut chains = match current {
                None => Map::new(),
                Some(b) => {
                    let chains = parse_chain_entries(&self.chains_key, b)
                        .map_err(|e| self.keep_aside(&self.chains_key, b, e))?;
                    check_rewrite(&self.chains_key, b)?;
                    chains
                }
            };
            let definition = ChainDefinition {
                created_at: Some(self.now()),
                expected_sequence: Some(agent_sequence.to_vec()),
                metadata: Some(metadata.clone()),
                extra: Map::new(),
            };
            let definition = serde_json::to_value(definition)
                .map_err(|e| Error::invalid_input(format!("cannot serialise the chain: {e}")))?;
            chains.insert(chain_id.to_owned(), definition);
            to_python_json(&chains).map(Some)
        })?;
        self.mutate(None, |doc, _| {
            (document_changes::ensure_chain(doc, chain_id), ())
        })
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
