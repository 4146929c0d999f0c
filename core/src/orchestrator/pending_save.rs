//! [`PendingSave`]: a save of the current session made ready by
//! [`OrchestratorStore::prepare_save`](super::OrchestratorStore::prepare_save) (the document
//! stamped, its text written, nothing stored yet), so that a front end can commit it on
//! another thread while it builds the saved document's values from the text.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use chrono::{DateTime, Utc};

use super::document::OrchestratorSession;
use super::keys::CURRENT_KEY;
use super::parse::{ParseOptions, parse_document};
use crate::corrupt_copy::keep_corrupt_copy;
use crate::error::{Error, ErrorKind, Result};
use crate::key::Key;
use crate::ownership::{Writer, check_writer};
use crate::store::Store;
use crate::time::Timestamp;

/// A save of the current session, ready to be committed with [`commit`](Self::commit) into
/// the store of the handle that prepared it, then handed back to that handle with
/// [`OrchestratorStore::saved`](super::OrchestratorStore::saved). Everything the commit needs
/// is owned here, so it runs on any thread when the store is `Sync`.
#[derive(Debug)]
pub struct PendingSave {
    pub(super) key: Key,
    /// The JSON text to write (serde_json's: UTF-8).
    pub(super) bytes: Vec<u8>,
    pub(super) session_id: String,
    /// The document's `updated` before the stamp: when it was read.
    pub(super) read_at: Option<Timestamp>,
    pub(super) updated: Option<Timestamp>,
    /// What the handle saved last when the save was prepared.
    pub(super) last_saved: Arc<LastSave>,
    /// The handle's commits since its last save that failed with a storage error, which may
    /// have written: this one's is added when it fails so.
    pub(super) failed: Arc<Mutex<FailedCommits>>,
    pub(super) writer: Option<Writer>,
    pub(super) options: ParseOptions,
    /// When the save was prepared: the stamp of a corrupt file's copy.
    pub(super) now: DateTime<Utc>,
}

impl PendingSave {
    /// The `updated` the commit writes (the save's stamp).
    pub fn updated(&self) -> Option<Timestamp> {
        self.updated
    }

    /// The JSON text the commit writes (the saved document, `updated` set), as bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// [`bytes`](Self::bytes) as text.
    pub fn text(&self) -> Cow<'_, str> {
        crate::json::utf8_text(&self.bytes)
    }

    /// Writes the text as the current session in `store`, which must be the store of the
    /// handle that prepared the save, under its [`Store::update`]. A current file that does
    /// not parse is copied aside first; a later save of this session with other content is
    /// refused.
    ///
    /// # Errors
    /// [`ErrorKind::Conflict`](crate::ErrorKind::Conflict) for a document read before a later
    /// save, or a writer the session's lease shuts out (nothing written);
    /// [`ErrorKind::Storage`](crate::ErrorKind::Storage).
    pub fn commit<S: Store + ?Sized>(&self, store: &S) -> Result<()> {
        let committed = self.write(store);
        if committed
            .as_ref()
            .is_err_and(|e| e.kind() == ErrorKind::Storage)
        {
            // Written or not (a reply lost with the connection, a folder's fsync): a save of
            // the same document finds its own attempt and writes over it.
            lock(&self.failed).add(self.read_at, self.updated);
        }
        committed
    }

    /// [`commit`](Self::commit) but for what it records of a failure.
    fn write<S: Store + ?Sized>(&self, store: &S) -> Result<()> {
        // One `update`, nothing written before its lock is held: a front end whose store
        // gives up waiting for the lock (Python's helper store) commits again from scratch.
        let bytes = self.bytes.as_slice();
        store.update(&self.key, &mut |old| {
            check_writer(store, &self.key, self.writer.as_ref())?;
            // The file the handle saved last was readable, and is the one the document was
            // read from when their `updated` agree; anything else is checked: kept aside when
            // unreadable, refused when it is a save of this session made since the document
            // was read (another `updated`), with other content (writing would drop that save).
            let last = &self.last_saved;
            let known = |old: &&[u8]| last.holds(old) && last.updated == self.read_at;
            if old.is_none() {
                self.check_not_archived(store, false)?;
            }
            if let Some(old) = old.filter(|old| !known(old)) {
                match parse_document(&self.key, old, &self.options) {
                    Ok(now) if now.session_id != self.session_id => {
                        self.check_not_archived(store, true)?;
                    }
                    Ok(mut now) if now.updated != self.read_at && !self.own_attempt(&now) => {
                        let later = now.updated;
                        now.updated = self.updated;
                        // Compared as written (the writer is the one the text came from).
                        if now.to_pretty_json() != bytes {
                            let id = &self.session_id;
                            return Err(stale_document(id, later, self.read_at, "save"));
                        }
                    }
                    Ok(_) => {}
                    Err(_) => {
                        keep_corrupt_copy(store, &self.key, old, self.now)?;
                    }
                }
            }
            Ok(Some(bytes.to_vec()))
        })
    }

    /// Whether `now` (the current file, of this session) is one of the handle's failed
    /// commits of a document read when this one was.
    fn own_attempt(&self, now: &OrchestratorSession) -> bool {
        lock(&self.failed).holds(self.read_at, now.updated)
    }

    /// Refuses to make the session current again when it was archived since the document was
    /// read (its archive's `updated` is another), or at all when `replacing` another session
    /// (saving would drop that one): a save of a document read before `complete`, say.
    fn check_not_archived<S: Store + ?Sized>(&self, store: &S, replacing: bool) -> Result<()> {
        let key = super::keys::history_key(&self.session_id)?;
        let Some(archived) = store.read(&key)? else {
            return Ok(());
        };
        let at = parse_document(&key, &archived, &self.options).map(|doc| doc.updated);
        if replacing || at.is_ok_and(|at| at != self.read_at) {
            let id = self.session_id.escape_debug();
            let why = if replacing {
                "is archived and another session is current: saving it would replace that one; \
                 load the current session instead"
            } else {
                "was archived after the document to save was read: to make it current again, \
                 save it as read from its archive"
            };
            let message = format!("session `{id}` {why}");
            return Err(Error::new(ErrorKind::Conflict, message).with_context("key", key.as_str()));
        }
        Ok(())
    }
}

/// What an [`OrchestratorStore`](super::OrchestratorStore) saved last as the current session.
#[derive(Debug, Default)]
pub(super) struct LastSave {
    pub(super) bytes: Vec<u8>,
    /// Their `updated`: a document read with another one is checked against them.
    pub(super) updated: Option<Timestamp>,
}

impl LastSave {
    /// Whether `bytes` are the bytes saved (none before a first save).
    pub(super) fn holds(&self, bytes: &[u8]) -> bool {
        !self.bytes.is_empty() && self.bytes == bytes
    }
}

/// A handle's commits that failed with a storage error since its last save: the `updated`
/// each document was read with and the stamp it would have written; the first few and the
/// latest.
#[derive(Debug, Default)]
pub(super) struct FailedCommits(Vec<(Option<Timestamp>, Option<Timestamp>)>);

impl FailedCommits {
    /// As many as are kept. The commit under way when the server or disk went away may have
    /// written, the many tried while it was gone could not: the first are kept.
    const KEPT: usize = 16;

    fn add(&mut self, read_at: Option<Timestamp>, stamp: Option<Timestamp>) {
        if self.0.len() == Self::KEPT {
            self.0.pop();
        }
        self.0.push((read_at, stamp));
    }

    fn holds(&self, read_at: Option<Timestamp>, stamp: Option<Timestamp>) -> bool {
        self.0.contains(&(read_at, stamp))
    }

    /// Forgets them all: a save wrote over any of them that did.
    pub(super) fn clear(&mut self) {
        self.0.clear();
    }
}

/// `cell`, locked (a poisoned lock still holds a whole value: it is only ever swapped).
pub(super) fn lock<T>(cell: &Mutex<T>) -> MutexGuard<'_, T> {
    cell.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The [`ErrorKind::Conflict`] of `action` (`save`, `archive`) of the session `session_id`, read when the
/// session was updated at `read_at`, while the current file holds a later save of that session
/// (updated at `later`) with other content: writing or removing would lose that save.
pub(super) fn stale_document(
    session_id: &str,
    later: Option<Timestamp>,
    read_at: Option<Timestamp>,
    action: &str,
) -> Error {
    let time =
        |t: Option<Timestamp>| t.map_or_else(|| "an unknown time".to_owned(), |t| t.to_string());
    let (later, read_at) = (time(later), time(read_at));
    Error::new(
        ErrorKind::Conflict,
        format!(
            "the current file holds a later save of session `{}` (updated {later}, the document \
             to {action} was read at {read_at}): load it again, apply the change and {action} \
             that, so the later changes are not lost",
            session_id.escape_debug(),
        ),
    )
    .with_context("key", CURRENT_KEY)
}
