//! Recovery (SPEC section 1, "Recovery"): corrupt copies, salvage-and-rewrite, `doctor`.
//!
//! A corrupt file is never replaced or deleted before a copy of its bytes is kept beside it as
//! `<key>.corrupt-<UTC stamp like 20261129T175600Z>` (`-1`, `-2`, ... appended when that name is
//! taken). Copies do not end in `.json`, so they never show in the history listing.

use serde::Serialize;
use serde_json::Value;

use super::keys::{current_key, history_dir, history_id, index_key, is_history_file};
use super::parse::parse_document;
use super::salvage::salvage;
use super::store::OrchestratorStore;
use crate::error::{Error, ErrorKind, Result};
use crate::json_text::check_rewrite;
use crate::key::Key;
use crate::store::{Leftover, Store, update_with};
use crate::time::Clock;

pub use crate::corrupt::corrupt_copy_key;

/// Copies `bytes` (the content of `key`) aside with [`crate::corrupt::keep_corrupt_copy`] at
/// `clock.now()` and returns the copy's key (an existing identical copy is reused). Safe to
/// call inside a [`Store::update`] closure of `key` (it only reads and writes other keys).
///
/// # Errors
/// As [`crate::corrupt::keep_corrupt_copy`].
pub fn keep_corrupt_copy<S: Store + ?Sized, C: Clock>(
    store: &S,
    clock: &C,
    key: &Key,
    bytes: &[u8],
) -> Result<Key> {
    crate::corrupt::keep_corrupt_copy(store, key, bytes, clock.now())
}

/// One problem `doctor` found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Problem {
    /// The key of the file.
    pub key: String,
    /// The error kind code (`corrupt_state`, `incompatible_schema`, `invalid_key`, ...).
    #[schemars(with = "crate::ErrorKind")]
    pub code: String,
    /// The error message.
    pub message: String,
    /// Whether `doctor --fix` can repair it (corrupt files only).
    pub fixable: bool,
}

/// What `doctor --fix` did with a corrupt file (serialised `rewritten` / `moved_aside`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RepairAction {
    /// The salvaged document replaced the file.
    Rewritten,
    /// Nothing of the original could be salvaged (see
    /// [`Salvaged::recovered_anything`](super::Salvaged::recovered_anything)): the file was
    /// removed after its copy was kept, so no invented session takes its place.
    MovedAside,
}

/// One file `doctor --fix` repaired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Repair {
    /// The key of the repaired file.
    pub key: String,
    /// What was done with it.
    pub action: RepairAction,
    /// Where the corrupt bytes were kept.
    pub kept_copy: String,
    /// Required fields that were absent and got defaults.
    pub missing: Vec<String>,
    /// Values of the wrong type replaced or dropped.
    pub replaced: Vec<String>,
    /// Containers that were cut short.
    pub partial: Vec<String>,
}

/// What `doctor` found and did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DoctorReport {
    /// How many files were checked (current plus history).
    pub checked: usize,
    /// Problems left (after fixing, when asked).
    pub problems: Vec<Problem>,
    /// Files repaired.
    pub repaired: Vec<Repair>,
    /// Temporary files below `.claude/` left by writers killed mid-write
    /// ([`Store::leftovers`]): those found, or with `fix` those removed.
    pub leftovers: Vec<Leftover>,
}

impl<S: Store, C: Clock> OrchestratorStore<S, C> {
    /// Copies the bytes of `key` to `<key>.corrupt-<stamp>`; `None` when `key` is absent.
    pub fn keep_corrupt_copy(&self, key: &Key) -> Result<Option<Key>> {
        match self.store.read(key)? {
            None => Ok(None),
            Some(bytes) => keep_corrupt_copy(&self.store, &self.clock, key, &bytes).map(Some),
        }
    }

    /// Repairs the corrupt document under `key`: keeps a copy, then writes the salvaged
    /// document (pretty, schema "1.0"), all inside one [`Store::update`]. A history file whose
    /// `session_id` was lost gets the id of its file name. When the salvage recovered nothing
    /// of the original ([`Salvaged::recovered_anything`](super::Salvaged::recovered_anything)
    /// is false: empty, binary, not an object, no content field), the copy is kept and the
    /// file removed instead ([`RepairAction::MovedAside`]). `None` when the file is absent or
    /// already readable (nothing written).
    ///
    /// # Errors
    /// When the file is unreadable for another reason than corruption
    /// ([`ErrorKind::IncompatibleSchema`], [`ErrorKind::InvalidKey`], too large), or the
    /// salvage still does not parse or would exceed the size limit: that error, nothing
    /// written.
    pub fn recover(&self, key: &Key) -> Result<Option<Repair>> {
        let (repair, remove) = update_with(&self.store, key, |old| {
            let Some(old) = old else {
                return Ok((None, (None, None)));
            };
            // A file that reads but holds an integer no rewrite can keep exactly is repaired
            // too: rewritten with the nearest float, the exact bytes kept aside.
            match parse_document(key, old, &self.options).and_then(|_| check_rewrite(key, old)) {
                Ok(()) => return Ok((None, (None, None))),
                Err(e) if e.kind() != ErrorKind::CorruptState => return Err(e),
                Err(_) => {}
            }
            let mut salvaged = salvage(old);
            let worth_saving = salvaged.recovered_anything;
            let bytes = if worth_saving {
                if let (Some(id), Value::Object(doc)) = (history_id(key), &mut salvaged.document)
                    && salvaged.missing.iter().any(|m| m == "session_id")
                {
                    doc.insert("session_id".into(), Value::String(id.to_owned()));
                }
                let text = serde_json::to_vec(&salvaged.document).unwrap_or_default();
                let doc = parse_document(key, &text, &self.options).map_err(|e| {
                    Error::new(
                        e.kind(),
                        format!("cannot repair `{key}`: the salvage is not usable: {e}"),
                    )
                    .with_context("key", key.as_str())
                })?;
                Some(self.encode(key, &doc)?)
            } else {
                None
            };
            let kept = keep_corrupt_copy(&self.store, &self.clock, key, old)?;
            let repair = Repair {
                key: key.to_string(),
                action: if worth_saving {
                    RepairAction::Rewritten
                } else {
                    RepairAction::MovedAside
                },
                kept_copy: kept.to_string(),
                missing: salvaged.missing,
                replaced: salvaged.replaced,
                partial: salvaged.partial,
            };
            let remove = (!worth_saving).then(|| old.to_vec());
            Ok((bytes, (Some(repair), remove)))
        })?;
        // Moved aside: remove the file unless another writer replaced it meanwhile.
        if let Some(old) = remove
            && self.store.read(key)?.as_deref() == Some(old.as_slice())
        {
            self.store.delete(key)?;
        }
        Ok(repair)
    }

    /// Checks the current file and every history file; with `fix`, repairs the corrupt ones
    /// ([`recover`](Self::recover)), removes the temporary files writers killed mid-write left
    /// below `.claude/` ([`DoctorReport::leftovers`]) and rebuilds the history index when
    /// there is one (a missing index is made by the next listing). Problems that remain are in [`DoctorReport::problems`].
    pub fn doctor(&self, fix: bool) -> Result<DoctorReport> {
        let mut keys = vec![current_key()];
        keys.extend(
            self.store
                .list(&history_dir())?
                .into_iter()
                .filter(is_history_file),
        );
        let mut report = DoctorReport::default();
        for key in keys {
            let Some(bytes) = self.store.read(&key)? else {
                continue;
            };
            report.checked += 1;
            let Err(err) = parse_document(&key, &bytes, &self.options)
                .and_then(|_| check_rewrite(&key, &bytes))
            else {
                continue;
            };
            let fixable = err.kind() == ErrorKind::CorruptState;
            if fix && fixable {
                match self.recover(&key) {
                    Ok(Some(repair)) => report.repaired.push(repair),
                    Ok(None) => {}
                    Err(e) => report.problems.push(problem(&key, &e, false)),
                }
            } else {
                report.problems.push(problem(&key, &err, fixable));
            }
        }
        if let Some(folder) = current_key().parent() {
            report.leftovers = if fix {
                self.store.remove_leftovers(&folder)?
            } else {
                self.store.leftovers(&folder)?
            };
        }
        // A stale index is rebuilt; a missing one is not made here (the next listing makes
        // it), so that a healthy project, even a read-only one, is left untouched.
        if fix && self.store.read(&index_key())?.is_some() {
            self.rebuild_index()?;
        }
        Ok(report)
    }
}

fn problem(key: &Key, err: &Error, fixable: bool) -> Problem {
    Problem {
        key: key.to_string(),
        code: err.code().to_owned(),
        message: err.message().to_owned(),
        fixable,
    }
}
