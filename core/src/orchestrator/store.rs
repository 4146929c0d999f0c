//! [`OrchestratorStore`]: save, load, archive and lifecycle moves of the current session
//! (SPEC section 1, "Operations").

use std::sync::{Arc, Mutex, MutexGuard};

use chrono::FixedOffset;

use super::document::OrchestratorSession;
use super::document_text::{document_text, parse_salvaging};
use super::keys::{current_key, history_key};
use super::parse::{
    ParseOptions, is_unsafe_session_id, parse_any_id, parse_document, unreadable_field,
};
use super::pending_save::{FailedCommits, LastSave, PendingSave, lock, stale_document};
use super::status::SessionStatus;
use crate::corrupt_copy::keep_corrupt_copy;
use crate::error::{Error, ErrorKind, Hint, Result};
use crate::json::check_rewrite;
use crate::key::Key;
use crate::limit::check_size;
use crate::store::{Store, update_with};
use crate::time::{Clock, Timestamp};

/// The orchestrator session operations over a [`Store`] and a [`Clock`].
///
/// Keys: `.claude/orchestrator-session.json` (current) and
/// `.claude/orchestrator-history/{session_id}.json` (archive), plus the rebuildable listing
/// index `.claude/orchestrator-history.index.json`.
///
/// Every read-modify-write of the current session goes through [`Store::update`], so two
/// processes moving the same session cannot both win: the second sees the first's result
/// (and then typically gets [`ErrorKind::InvalidTransition`]).
#[derive(Debug)]
pub struct OrchestratorStore<S: Store, C: Clock> {
    pub(crate) store: S,
    pub(crate) clock: C,
    pub(crate) options: ParseOptions,
    /// The project's HEAD, recorded at each save (see `with_git_head`).
    pub(crate) git_head: Option<super::git_head::GitHead>,
    /// What this handle last saved as the current session: a file still holding exactly
    /// those bytes needs no parse to know it is readable (see [`save`](Self::save)). Held
    /// only to compare or swap, never across a store call: a host store's callback may load.
    last_saved: Mutex<Arc<LastSave>>,
    /// Commits since the last save that failed with a storage error (they may have written).
    failed: Arc<Mutex<FailedCommits>>,
    /// Who this handle writes as, checked against the session's lease (`ownership`).
    pub(crate) writer: Mutex<Option<crate::ownership::Writer>>,
}

impl<S: Store, C: Clock> OrchestratorStore<S, C> {
    /// Operations over `store`, stamping times from `clock`; naive timestamps read as UTC,
    /// documents up to [`DEFAULT_MAX_DOCUMENT_BYTES`](crate::DEFAULT_MAX_DOCUMENT_BYTES).
    pub fn new(store: S, clock: C) -> Self {
        OrchestratorStore {
            store,
            clock,
            options: ParseOptions::default(),
            git_head: None,
            last_saved: Mutex::default(),
            failed: Arc::default(),
            writer: Mutex::default(),
        }
    }

    /// The same operations reading naive timestamps as local time at `offset`.
    #[must_use]
    pub fn with_naive_offset(mut self, offset: FixedOffset) -> Self {
        self.options.naive_offset = Some(offset);
        self
    }

    /// The same operations refusing documents larger than `bytes`.
    #[must_use]
    pub fn with_max_document_bytes(mut self, bytes: usize) -> Self {
        self.options.max_document_bytes = bytes;
        self
    }

    /// The underlying store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The clock.
    pub fn clock(&self) -> &C {
        &self.clock
    }

    /// The parse options in use.
    pub fn options(&self) -> &ParseOptions {
        &self.options
    }

    /// The current instant of the clock.
    pub fn now(&self) -> Timestamp {
        Timestamp::from_utc(self.clock.now())
    }

    /// Parses the bytes stored under `key`. A [`ErrorKind::CorruptState`] error carries the
    /// salvaged document ([`Error::salvaged`]).
    pub fn parse(&self, key: &Key, bytes: &[u8]) -> Result<OrchestratorSession> {
        parse_salvaging(key, bytes, &self.options)
    }

    /// Checks the bytes stored under `key` as [`parse`](Self::parse) does (same errors),
    /// without building the document when they are the current file this handle saved last:
    /// those were checked before they were written.
    pub fn check(&self, key: &Key, bytes: &[u8]) -> Result<()> {
        if self.needs_check(key, bytes)? {
            self.parse(key, bytes)?;
        }
        Ok(())
    }

    /// Whether [`check`](Self::check) of these bytes under `key` has a document to parse:
    /// `false` for the current file this handle saved last, the size error `check` would give
    /// for bytes over [`ParseOptions::max_document_bytes`]. A front end that builds its own
    /// values from the bytes knows from it when the check costs time, before building any.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`] for bytes over the limit.
    pub fn needs_check(&self, key: &Key, bytes: &[u8]) -> Result<bool> {
        if *key == current_key() && self.saved_last(bytes) {
            return Ok(false);
        }
        check_size(key, bytes, self.options.max_document_bytes)?;
        Ok(true)
    }

    /// Whether `bytes` are the current file this handle saved last.
    fn saved_last(&self, bytes: &[u8]) -> bool {
        self.last_saved().holds(bytes)
    }

    /// What this handle saved last, locked (a poisoned lock still holds a whole value: it is
    /// only ever swapped).
    fn last_saved(&self) -> MutexGuard<'_, Arc<LastSave>> {
        lock(&self.last_saved)
    }

    /// The current session as JSON text of the document [`load`](Self::load) gives, for a
    /// front end that builds its values from text (`JSON.parse`): the file as it is when it
    /// holds the text a save writes for that document (see
    /// [`document_text`](Self::document_text)), else the document written again. `None` when
    /// there is no current session.
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub fn load_json(&self) -> Result<Option<String>> {
        let key = current_key();
        let Some(bytes) = self.store.read(&key)? else {
            return Ok(None);
        };
        if let Some(text) = self.document_text(&key, &bytes)? {
            return Ok(Some(text));
        }
        // Text a save wrote is UTF-8: nothing is replaced.
        let text = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Ok(Some(text))
    }

    /// [`document_text`](super::document_text) of the bytes stored under `key` with this
    /// handle's options, `None` at once for the file this handle saved last (as
    /// [`check`](Self::check) skips it).
    ///
    /// # Errors
    /// As [`parse`](Self::parse).
    pub fn document_text(&self, key: &Key, bytes: &[u8]) -> Result<Option<String>> {
        if !self.needs_check(key, bytes)? {
            return Ok(None);
        }
        document_text(key, bytes, &self.options)
    }

    /// Reads and parses the document under `key`; `None` when there is none.
    pub fn read_document(&self, key: &Key) -> Result<Option<OrchestratorSession>> {
        match self.store.read(key)? {
            None => Ok(None),
            Some(bytes) => self.parse(key, &bytes).map(Some),
        }
    }

    /// The current session, or `None` when there is none.
    ///
    /// # Errors
    /// As [`parse_document`]: [`ErrorKind::CorruptState`] (with the salvage attached),
    /// [`ErrorKind::IncompatibleSchema`], [`ErrorKind::InvalidKey`], [`ErrorKind::InvalidInput`]
    /// (too large); [`ErrorKind::Storage`].
    pub fn load(&self) -> Result<Option<OrchestratorSession>> {
        self.read_document(&current_key())
    }

    /// The current session to show, also when its `session_id` cannot name an archive file
    /// (another program wrote it: empty, or holding `/`): the document, and then the
    /// [`ErrorKind::InvalidKey`] error that keeps it from being saved or archived until
    /// [`recover`](Self::recover) (`doctor --fix`) gives it a safe id. `None` when there is no
    /// current session.
    ///
    /// # Errors
    /// As [`load`](Self::load), but for that one.
    pub fn load_to_show(&self) -> Result<Option<(OrchestratorSession, Option<Error>)>> {
        let key = current_key();
        let Some(bytes) = self.store.read(&key)? else {
            return Ok(None);
        };
        match self.parse(&key, &bytes) {
            Ok(doc) => Ok(Some((doc, None))),
            Err(e) if is_unsafe_session_id(&e) => {
                Ok(Some((parse_any_id(&key, &bytes, &self.options)?, Some(e))))
            }
            Err(e) => Err(e),
        }
    }

    /// The current session, to be written again as it is (archived by
    /// [`session_end`](Self::session_end) or a caller's [`archive`](Self::archive)): as
    /// [`load`](Self::load), but a file holding an integer beyond 64 bits is refused, since
    /// writing the parsed document would change that integer (`check_rewrite`).
    ///
    /// # Errors
    /// As [`load`](Self::load), and [`ErrorKind::CorruptState`] from `check_rewrite`.
    pub fn load_to_rewrite(&self) -> Result<Option<OrchestratorSession>> {
        let key = current_key();
        let Some(bytes) = self.store.read(&key)? else {
            return Ok(None);
        };
        let doc = self.parse(&key, &bytes)?;
        check_rewrite(&key, &bytes)?;
        Ok(Some(doc))
    }

    /// Saves `doc` as the current session: sets `doc.updated` to now, writes pretty JSON
    /// atomically, returns the key. When the file it replaces does not parse as a "1.0"
    /// document, a copy of it is kept first (`<key>.corrupt-<stamp>`).
    ///
    /// A `doc` read before a later save of the same session (the file's `updated` is another
    /// than `doc.updated`, and its content differs) is refused: writing it would drop that
    /// save (another process's auto-save, or another thread's save through this handle).
    /// Since `doc.updated` is set to the save's stamp once it is written (left as read when
    /// nothing is), load, change, save, change, save of one document works.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] for an unsafe `session_id` or one too long to be archived
    /// (see [`history_key`]); [`ErrorKind::InvalidInput`] when
    /// the JSON would exceed [`ParseOptions::max_document_bytes`] (nothing written);
    /// [`ErrorKind::Conflict`] for a `doc` read before a later save (see above; nothing
    /// written); [`ErrorKind::Storage`].
    pub fn save(&self, doc: &mut OrchestratorSession) -> Result<Key> {
        let pending = self.prepare_save(doc)?;
        pending.commit(&self.store)?;
        doc.updated = pending.updated;
        self.saved(pending);
        Ok(current_key())
    }

    /// The first half of [`save`](Self::save), for a front end that commits on another
    /// thread: writes the text of `doc` stamped now ([`PendingSave::updated`]; `doc.updated`
    /// stays as read, `project.git_head` is recorded); nothing is stored until
    /// [`PendingSave::commit`] into this handle's store, which is followed by
    /// [`saved`](Self::saved).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] and [`ErrorKind::InvalidInput`] as [`save`](Self::save).
    pub fn prepare_save(&self, doc: &mut OrchestratorSession) -> Result<PendingSave> {
        history_key(&doc.session_id)?;
        let read_at = doc.updated;
        self.stamp(doc);
        let key = current_key();
        let bytes = self.encode(&key, doc);
        // Left as read until the commit: a refused save retried is refused again.
        let updated = std::mem::replace(&mut doc.updated, read_at);
        Ok(PendingSave {
            key,
            bytes: bytes?,
            session_id: doc.session_id.clone(),
            read_at,
            updated,
            last_saved: Arc::clone(&self.last_saved()),
            failed: Arc::clone(&self.failed),
            writer: self.writer(),
            options: self.options,
            now: self.clock.now(),
        })
    }

    /// Records `pending`, committed, as the file this handle saved last: a later save finds it
    /// its own past, and a load needs no check of it.
    pub fn saved(&self, pending: PendingSave) {
        *self.last_saved() = Arc::new(LastSave {
            bytes: pending.bytes,
            updated: pending.updated,
        });
        lock(&self.failed).clear();
    }

    /// The pretty JSON of `doc`, to be written under `key`: the one place every write of a
    /// document goes through, so nothing is written that [`load`](Self::load) would refuse.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`] when the bytes exceed
    /// [`ParseOptions::max_document_bytes`] or a field would not read back (an agent's
    /// `progress` above 100); nothing must be written then.
    pub(crate) fn encode(&self, key: &Key, doc: &OrchestratorSession) -> Result<Vec<u8>> {
        if let Some((field, detail)) = unreadable_field(doc) {
            return Err(Error::invalid_input(format!(
                "session `{}` cannot be written to `{key}`: field `{field}` {detail}",
                doc.session_id.escape_debug()
            ))
            .with_context("key", key.as_str())
            .with_context("field", field));
        }
        let bytes = doc.to_pretty_json();
        let limit = self.options.max_document_bytes;
        if bytes.len() > limit {
            return Err(Error::invalid_input(format!(
                "session `{}` would be {} bytes in `{key}`, more than the limit of {limit} bytes",
                doc.session_id.escape_debug(),
                bytes.len()
            ))
            .with_context("key", key.as_str())
            .with_context("limit", limit.to_string())
            .with_hint(Hint::RaiseLimit {
                option: "max_document_bytes",
            }));
        }
        Ok(bytes)
    }

    /// Keeps a copy of `old` (the bytes of `key`) when they are not a readable document.
    fn keep_if_unreadable(&self, key: &Key, old: &[u8]) -> Result<()> {
        if parse_document(key, old, &self.options).is_err() {
            keep_corrupt_copy(&self.store, key, old, self.clock.now())?;
        }
        Ok(())
    }

    /// Writes `doc` (unchanged) to `.claude/orchestrator-history/{session_id}.json`, then
    /// removes the current file if it holds the same session id, then records the entry in
    /// the history index. Returns the archive key. A current session left in a final status
    /// (`complete`/`aborted`) is archived like any other. The check, the archive write and the
    /// removal happen under the current file's lock (also when there is no current file to
    /// remove); when the removal fails the archive slot
    /// is put back as it was, so a retry finds nothing in the way.
    ///
    /// # Errors
    /// [`ErrorKind::AlreadyExists`] when an archive with that id exists and `replace` is false
    /// (nothing is written; hint [`Hint::Replace`]); [`ErrorKind::InvalidKey`];
    /// [`ErrorKind::InvalidInput`] when the JSON would exceed
    /// [`ParseOptions::max_document_bytes`]; [`ErrorKind::Conflict`] when the current file
    /// holds the same session saved later than `doc` (its `updated` is later) with other
    /// content: removing it would lose that save, so nothing is written or removed (load it
    /// again and archive that);
    /// [`ErrorKind::Storage`].
    pub fn archive(&self, doc: &OrchestratorSession, replace: bool) -> Result<Key> {
        let key = history_key(&doc.session_id)?;
        let bytes = self.encode(&key, doc)?;
        let current = current_key();
        if self.store.read(&current)?.is_some() {
            // Under the current file's lock, as a final move: nobody changes or removes it
            // between the check and the removal.
            let archived = update_with(&self.store, &current, |old| {
                self.fence()?;
                let same = old
                    .and_then(|old| parse_document(&current, old, &self.options).ok())
                    .filter(|now| now.session_id == doc.session_id);
                let Some(mut now) = same else {
                    return Ok((None, false));
                };
                let previous = self.store.read(&key)?;
                self.check_archive_slot(&key, doc, previous.as_deref(), replace)?;
                // Saved since `doc` was read, with other content: removing it would lose that
                // save. (Saved with the same content, as after `save(doc)`, loses nothing.)
                if now.updated != doc.updated {
                    let later = now.updated;
                    now.updated = doc.updated;
                    // Compared as written (the writer is the one `bytes` came from).
                    if now.to_pretty_json() != bytes {
                        let id = &doc.session_id;
                        return Err(stale_document(id, later, doc.updated, "archive"));
                    }
                }
                self.store.write(&key, &bytes)?;
                self.remove_current(&current, &key, previous.as_deref())?;
                Ok((None, true))
            })?;
            if archived {
                self.index_archived(&key, doc)?;
                return Ok(key);
            }
        }
        // Under the current file's lock too (whatever it holds: it is left as it is), as every
        // archive write: no lock of its own in the history folder, whose size it never meets.
        self.store.update(&current, &mut |_| {
            let old = self.store.read(&key)?;
            self.check_archive_slot(&key, doc, old.as_deref(), replace)?;
            self.store.write(&key, &bytes)?;
            Ok(None)
        })?;
        self.index_archived(&key, doc)?;
        Ok(key)
    }

    /// Checks that the archive `key` of `doc`, holding `old`, may be written: absent, or
    /// `replace` (then a copy of unreadable old bytes is kept first).
    pub(super) fn check_archive_slot(
        &self,
        key: &Key,
        doc: &OrchestratorSession,
        old: Option<&[u8]>,
        replace: bool,
    ) -> Result<()> {
        match old {
            None => Ok(()),
            Some(_) if !replace => Err(Error::new(
                ErrorKind::AlreadyExists,
                format!(
                    "an archive of session `{}` already exists at `{key}`",
                    doc.session_id.escape_debug()
                ),
            )
            .with_context("key", key.as_str())
            .with_hint(Hint::Replace)),
            Some(old) => self.keep_if_unreadable(key, old),
        }
    }

    /// [`check_archive_slot`](Self::check_archive_slot) for a move of the current session
    /// (`current`, its status the one the move gives it, `updated` as read) into its archive
    /// `key`, holding `old`: an archive that is what this move writes, but for `updated`, is
    /// written over as with `replace`. That is the archive a move left when it was stopped
    /// before the current file changed, so running the move again completes it; any other
    /// archive (one holding more, or less) stays in the way.
    pub(super) fn check_move_slot(
        &self,
        key: &Key,
        current: &OrchestratorSession,
        old: Option<&[u8]>,
        replace: bool,
    ) -> Result<()> {
        let left = old.is_some_and(|old| {
            parse_document(key, old, &self.options).is_ok_and(|mut archived| {
                let same = archived.session_id == current.session_id;
                archived.status = current.status;
                archived.updated = current.updated;
                same && archived.to_pretty_json() == current.to_pretty_json()
            })
        });
        self.check_archive_slot(key, current, old, replace || left)
    }

    /// Read-modify-write of the current session through [`Store::update`]: `change` edits the
    /// document, then `updated` is set to now and the result written. Returns the saved
    /// document. `change` runs under the current file's lock: it must not write through this
    /// store (a `conflict` on [`MemoryStore`](crate::MemoryStore), a lock timeout on a file
    /// store).
    ///
    /// # Errors
    /// [`ErrorKind::NotFound`] when there is no current session; the parse errors of
    /// [`load`](Self::load); whatever `change` returns, or [`ErrorKind::InvalidInput`] when the
    /// changed document would exceed [`ParseOptions::max_document_bytes`] (nothing is written
    /// then).
    pub fn modify(
        &self,
        mut change: impl FnMut(&mut OrchestratorSession) -> Result<()>,
    ) -> Result<OrchestratorSession> {
        self.modify_with(&mut change)
    }

    /// [`modify`](Self::modify) through one instance for every `change` (a smaller wasm).
    fn modify_with(
        &self,
        change: &mut dyn FnMut(&mut OrchestratorSession) -> Result<()>,
    ) -> Result<OrchestratorSession> {
        let key = current_key();
        self.require_current(&key)?;
        update_with(&self.store, &key, |old| {
            self.fence()?;
            let Some(old) = old else {
                return Err(no_session());
            };
            let mut doc = self.parse(&key, old)?;
            check_rewrite(&key, old)?;
            change(&mut doc)?;
            self.stamp(&mut doc);
            Ok((Some(self.encode(&key, &doc)?), doc))
        })
    }

    /// [`move_to_with`](Self::move_to_with) for a status that is not final: a session already
    /// in `to` is returned as it is, nothing written (hooks may ask twice).
    fn move_within(&self, to: SessionStatus) -> Result<OrchestratorSession> {
        let key = current_key();
        self.require_current(&key)?;
        update_with(&self.store, &key, |old| {
            let Some(old) = old else {
                return Err(no_session());
            };
            let mut doc = self.parse(&key, old)?;
            if doc.status == to {
                return Ok((None, doc));
            }
            self.fence()?;
            check_rewrite(&key, old)?;
            doc.transition(to)?;
            self.stamp(&mut doc);
            Ok((Some(self.encode(&key, &doc)?), doc))
        })
    }

    /// Moves the current session to `to` (lifecycle of SPEC section 1) and saves it; a move to
    /// `complete` or `aborted` also archives it, all or nothing (see
    /// [`move_to_with`](Self::move_to_with), without replace).
    ///
    /// # Errors
    /// As [`move_to_with`](Self::move_to_with).
    pub fn move_to(&self, to: SessionStatus) -> Result<OrchestratorSession> {
        self.move_to_with(to, false)
    }

    /// Moves the current session to `to` (lifecycle of SPEC section 1) and saves it; a session
    /// already `paused` or `in_progress` asked to stay so is left as it is. A move to
    /// `complete` or `aborted` archives it: inside the same exclusive update of the current
    /// file, the archive key is built and checked (no archive of that id unless `replace`),
    /// the archive written, and then the current file removed, so no other process ever sees
    /// a current file in a final status nor has a newer current file removed; then the index
    /// is updated. When any of that fails the current file keeps its old
    /// status and the archive slot is put back as it was (absent, or its old bytes).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidTransition`] naming `from` and `to`; [`ErrorKind::NotFound`]; the
    /// parse errors of [`load`](Self::load); for final moves the errors of
    /// [`archive`](Self::archive) ([`ErrorKind::AlreadyExists`] without `replace`).
    pub fn move_to_with(&self, to: SessionStatus, replace: bool) -> Result<OrchestratorSession> {
        if !to.is_final() {
            return self.move_within(to);
        }
        let current = current_key();
        self.require_current(&current)?;
        let (doc, archive) = update_with(&self.store, &current, |old| {
            self.fence()?;
            let Some(old) = old else {
                return Err(no_session());
            };
            let mut doc = self.parse(&current, old)?;
            check_rewrite(&current, old)?;
            doc.transition(to)?;
            let archive = history_key(&doc.session_id)?;
            let previous = self.store.read(&archive)?;
            self.check_move_slot(&archive, &doc, previous.as_deref(), replace)?;
            self.stamp(&mut doc);
            let bytes = self.encode(&current, &doc)?;
            self.store.write(&archive, &bytes)?;
            // Still under the current file's lock: nobody can have changed it since `old`.
            self.remove_current(&current, &archive, previous.as_deref())?;
            Ok((None, (doc, archive)))
        })?;
        self.index_archived(&archive, &doc)?;
        Ok(doc)
    }

    /// Removes the current file `current` after its archive `archive` (which held `previous`)
    /// was written. All or nothing: when the removal fails and the current file is still there,
    /// the archive slot is put back as it was (best effort; the removal's error is the one
    /// reported). A removal that failed but did remove the file (a host store throwing after
    /// deleting) counts as done; when the current file cannot even be read, the archive is
    /// kept and the error reported, so nothing is lost either way.
    fn remove_current(&self, current: &Key, archive: &Key, previous: Option<&[u8]>) -> Result<()> {
        let Err(err) = self.store.delete(current) else {
            return Ok(());
        };
        match self.store.read(current) {
            Ok(None) => Ok(()),
            Ok(Some(_)) => {
                let _ = match previous {
                    Some(bytes) => self.store.write(archive, bytes),
                    None => self.store.delete(archive).map(drop),
                };
                Err(err)
            }
            Err(_) => Err(err),
        }
    }

    /// [`ErrorKind::NotFound`] before any lock is taken when there is no current file, so a
    /// move on an empty project leaves no lock file behind (the update checks again).
    fn require_current(&self, key: &Key) -> Result<()> {
        match self.store.read(key)? {
            Some(_) => Ok(()),
            None => Err(no_session()),
        }
    }

    /// `created → in_progress`.
    pub fn start(&self) -> Result<OrchestratorSession> {
        self.move_to(SessionStatus::InProgress)
    }

    /// `in_progress → paused` (the session stays current).
    pub fn pause(&self) -> Result<OrchestratorSession> {
        self.move_to(SessionStatus::Paused)
    }

    /// `paused → in_progress` (the seed's `continue`).
    pub fn resume(&self) -> Result<OrchestratorSession> {
        self.move_to(SessionStatus::InProgress)
    }

    /// The seed's `continue`: same as [`resume`](Self::resume).
    pub fn continue_session(&self) -> Result<OrchestratorSession> {
        self.resume()
    }

    /// `in_progress → complete`, then archive.
    pub fn complete(&self) -> Result<OrchestratorSession> {
        self.move_to(SessionStatus::Complete)
    }

    /// `created | paused | in_progress → aborted`, then archive.
    pub fn abort(&self) -> Result<OrchestratorSession> {
        self.move_to(SessionStatus::Aborted)
    }
}

/// The error for "no current session".
pub(crate) fn no_session() -> Error {
    Error::new(
        ErrorKind::NotFound,
        "there is no current orchestrator session",
    )
    .with_context("key", current_key().as_str())
}
