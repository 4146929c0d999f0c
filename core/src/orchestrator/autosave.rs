//! The auto-save points of the seed ("Auto-Save Triggers") and session creation.
//!
//! Each is one read-modify-write of the current file through
//! [`OrchestratorStore::modify`] (hence [`Store::update`](crate::Store::update)): concurrent
//! callers never lose each other's changes. Each returns the saved document.
//!
//! The `record_*` methods take the argument types of the `record` module (one per verb
//! of the command line) and apply their rules.

use super::document::{OrchestratorSession, Project};
use super::keys::{current_key, history_key};
use super::parse::parse_document;
use super::record::{
    AgentDone, AgentFail, AgentProgress, AgentStart, ContextInput, DecisionInput, NewSession,
    TaskAdd, TaskDone, apply_disconnect, ensure_open,
};
use super::store::OrchestratorStore;
use crate::error::{Error, ErrorKind, Hint, Result};
use crate::json::check_rewrite;
use crate::key::Key;
use crate::store::{Store, update_with};
use crate::time::{Clock, Timestamp};

/// [`ErrorKind::AlreadyExists`] for an unfinished current session in the way of `new`.
fn unfinished(current: &OrchestratorSession) -> Error {
    Error::new(
        ErrorKind::AlreadyExists,
        format!(
            "session `{}` is unfinished ({}): complete, abort or archive it first",
            current.session_id.escape_debug(),
            current.status
        ),
    )
    .with_context("key", current_key().as_str())
    .with_context("session_id", current.session_id.as_str())
    .with_hint(Hint::ArchiveCurrent)
}

/// [`ErrorKind::AlreadyExists`] for a new session id that is, or would be, archived already.
fn archived_id(id: &str, key: &Key) -> Error {
    Error::new(
        ErrorKind::AlreadyExists,
        format!(
            "session id `{}` is taken: an archive of it exists or is about to (`{key}`); \
             choose another id",
            id.escape_debug()
        ),
    )
    .with_context("key", key.as_str())
}

/// A session id `YYYY-MM-DD-{suffix}` from the UTC date of `now`.
///
/// # Errors
/// [`ErrorKind::InvalidKey`] when the result is not a safe key segment or too long to be
/// archived (see [`history_key`](super::history_key)).
pub(crate) fn session_id_for(now: Timestamp, suffix: &str) -> Result<String> {
    let id = format!("{}-{suffix}", crate::time::format_date(now.utc()));
    super::keys::history_key(&id)?;
    Ok(id)
}

/// Six lowercase hex digits derived from the clock's seconds and nanoseconds (a hash, not
/// randomness: the core has no random source). Pass your own suffix when two sessions may be
/// created within the same clock tick.
pub(crate) fn clock_suffix(now: Timestamp) -> String {
    let utc = now.utc();
    let mut x = utc.timestamp().cast_unsigned() ^ (u64::from(utc.timestamp_subsec_nanos()) << 21);
    // splitmix64 finaliser
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    format!("{:06x}", x & 0xff_ffff)
}

impl<S: Store, C: Clock> OrchestratorStore<S, C> {
    /// Before context compression: sets `context_usage.last_compression` to now and saves.
    pub fn before_compression(&self) -> Result<OrchestratorSession> {
        let now = self.now();
        self.modify(|doc| {
            doc.context_usage.last_compression = Some(now);
            Ok(())
        })
    }

    /// `new`: creates the current session from `input`, status `created`, id `input.id` or
    /// `YYYY-MM-DD-{suffix}` (`suffix`, or six hex digits derived from the clock when `None`),
    /// in one exclusive update of the current file. A current session in a final status is
    /// archived first; an unfinished one too when `input.archive_current`, else nothing is
    /// written.
    ///
    /// # Errors
    /// [`ErrorKind::AlreadyExists`] naming the unfinished current session (without
    /// `archive_current`), or when an archive of the new id or of the current session's id
    /// exists; [`ErrorKind::InvalidKey`] for an unsafe id or suffix; [`ErrorKind::InvalidInput`]
    /// for an empty goal; the parse errors of [`load`](Self::load) for the current file.
    pub fn record_new(
        &self,
        input: &NewSession,
        project: Project,
        suffix: Option<&str>,
    ) -> Result<OrchestratorSession> {
        input.validate()?;
        let now = self.now();
        let id = match (&input.id, suffix) {
            (Some(id), _) => {
                history_key(id)?;
                id.clone()
            }
            (None, Some(suffix)) => session_id_for(now, suffix)?,
            (None, None) => session_id_for(now, &clock_suffix(now))?,
        };
        let mut doc = OrchestratorSession::new(&id, &input.goal, input.mode(), project, now);
        self.record_head(&mut doc);
        let key = current_key();
        let bytes = self.encode(&key, &doc)?;
        let new_slot = history_key(&id)?;
        // The archive written for the session replaced (its slot was empty before).
        let mut written: Option<(Key, String)> = None;
        let outcome = update_with(&self.store, &key, |old| {
            self.fence()?;
            if self.store.read(&new_slot)?.is_some() {
                return Err(archived_id(&id, &new_slot));
            }
            let Some(old) = old else {
                return Ok((Some(bytes.clone()), None));
            };
            let current = self.parse(&key, old)?;
            if !current.status.is_final() && !input.archive_current {
                return Err(unfinished(&current));
            }
            check_rewrite(&key, old)?;
            if current.session_id == id {
                return Err(archived_id(&id, &new_slot));
            }
            let archive = history_key(&current.session_id)?;
            let previous = self.store.read(&archive)?;
            self.check_move_slot(&archive, &current, previous.as_deref(), false)?;
            self.store
                .write(&archive, &self.encode(&archive, &current)?)?;
            written = Some((archive.clone(), current.session_id.clone()));
            Ok((Some(bytes.clone()), Some((archive, current))))
        });
        match outcome {
            Ok(Some((archive, current))) => self.index_archived(&archive, &current)?,
            Ok(None) => {}
            Err(err) => {
                // The new current file was not written: put the archive slot back, unless
                // the old session is gone from the current file all the same.
                if let Some((archive, old_id)) = written {
                    let still_there = self
                        .store
                        .read(&key)
                        .ok()
                        .flatten()
                        .and_then(|b| parse_document(&key, &b, &self.options).ok())
                        .is_some_and(|d| d.session_id == old_id);
                    if still_there {
                        let _ = self.store.delete(&archive);
                    }
                }
                return Err(err);
            }
        }
        Ok(doc)
    }

    /// `agent start`: see [`AgentStart::apply`].
    pub fn record_agent_start(&self, input: &AgentStart) -> Result<OrchestratorSession> {
        input.validate()?;
        let now = self.now();
        self.modify(|doc| input.apply(doc, now))
    }

    /// `agent progress`: see [`AgentProgress::apply`].
    pub fn record_agent_progress(&self, input: &AgentProgress) -> Result<OrchestratorSession> {
        input.validate()?;
        self.modify(|doc| input.apply(doc))
    }

    /// `agent done`: see [`AgentDone::apply`].
    pub fn record_agent_done(&self, input: &AgentDone) -> Result<OrchestratorSession> {
        input.validate()?;
        let now = self.now();
        self.modify(|doc| input.apply(doc, now))
    }

    /// `agent fail`: see [`AgentFail::apply`].
    pub fn record_agent_fail(&self, input: &AgentFail) -> Result<OrchestratorSession> {
        input.validate()?;
        let now = self.now();
        self.modify(|doc| input.apply(doc, now))
    }

    /// `decision`: see [`DecisionInput::apply`].
    pub fn record_decision(&self, input: &DecisionInput) -> Result<OrchestratorSession> {
        input.validate()?;
        let now = self.now();
        self.modify(|doc| input.apply(doc, now))
    }

    /// `task add`: see [`TaskAdd::apply`].
    pub fn record_task_add(&self, input: &TaskAdd) -> Result<OrchestratorSession> {
        input.validate()?;
        self.modify(|doc| input.apply(doc))
    }

    /// `task done`: see [`TaskDone::apply`]. Returns the saved document and the task's text.
    pub fn record_task_done(&self, input: &TaskDone) -> Result<(OrchestratorSession, String)> {
        input.validate()?;
        let mut task = String::new();
        let doc = self.modify(|doc| {
            task = input.apply(doc)?;
            Ok(())
        })?;
        Ok((doc, task))
    }

    /// `context`: see [`ContextInput::apply`].
    pub fn record_context(&self, input: &ContextInput) -> Result<OrchestratorSession> {
        input.validate()?;
        let now = self.now();
        self.modify(|doc| input.apply(doc, now))
    }

    /// `save`: writes the current session again with `updated` set to now.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidTransition`] for a session in a final status (see
    /// `ensure_open`).
    pub fn record_save(&self) -> Result<OrchestratorSession> {
        self.modify(|doc| ensure_open(doc))
    }

    /// A disconnect (Claude Code's session ending): see `apply_disconnect`.
    ///
    /// # Errors
    /// As [`record_save`](Self::record_save).
    pub fn record_disconnect(&self) -> Result<OrchestratorSession> {
        self.modify(|doc| {
            ensure_open(doc)?;
            apply_disconnect(doc);
            Ok(())
        })
    }

    /// Session end: archives the current session as it is (see
    /// [`archive`](Self::archive), no replace) and returns it.
    ///
    /// # Errors
    /// [`ErrorKind::NotFound`] when there is no current session; the errors of `archive`.
    pub fn session_end(&self) -> Result<OrchestratorSession> {
        let doc = self
            .load_to_rewrite()?
            .ok_or_else(super::store::no_session)?;
        self.archive(&doc, false)?;
        Ok(doc)
    }
}
