//! Recovery (SPEC section 1, "Recovery"): corrupt copies, salvage-and-rewrite, `doctor`.
//!
//! A corrupt file is never replaced or deleted before a copy of its bytes is kept beside it as
//! `<key>.corrupt-<UTC stamp like 20261129T175600Z>` (`-1`, `-2`, ... appended when that name is
//! taken). Copies do not end in `.json`, so they never show in the history listing.

use serde::Serialize;
use serde_json::Value;

use chrono::{DateTime, Utc};
use serde_json::Map;

use super::keys::{current_key, history_dir, history_id, history_key, index_key, is_history_file};
use super::parse::{is_over_limit, is_unsafe_session_id, parse_document};
use super::salvage::{Salvaged, salvage};
use super::store::OrchestratorStore;
use crate::error::{Error, ErrorKind, Result};
use crate::json::check_rewrite;
use crate::key::Key;
use crate::key::MAX_SEGMENT_BYTES;
use crate::store::{Leftover, Store, update_with};
use crate::time::Clock;
use crate::time::format_compact_stamp;

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
    /// The read limit, when the file was moved aside for being larger (it read with a higher
    /// limit; absent from JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
}

/// What `doctor` found and did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DoctorReport {
    /// How many files were checked (current, history and the session's lease).
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
            Some(bytes) => {
                crate::corrupt_copy::keep_corrupt_copy(&self.store, key, &bytes, self.clock.now())
                    .map(Some)
            }
        }
    }

    /// Repairs the corrupt document under `key`: keeps a copy, then writes the salvaged document
    /// (pretty, schema "1.0"), all inside one [`Store::update`]. A history file whose `session_id`
    /// was lost gets the id of its file name. A `session_id` that cannot name an archive file
    /// (empty, holding `/`: the error of [`parse_document`] with the hint `repair`) is replaced by
    /// a safe one (the history file's name, else the old id with its unsafe characters replaced by
    /// `-`, else `recovered-<UTC stamp>`), the old one kept as `original_session_id` and
    /// `session_id` named in [`Repair::replaced`]. A value nested too deep to read back is dropped
    /// (named in `replaced` too). When the salvage recovered nothing of the original
    /// ([`Salvaged::recovered_anything`](super::Salvaged::recovered_anything) is false: empty,
    /// binary, not an object, no content field), or the file is larger than the read limit
    /// ([`Repair::limit`]), the copy is kept and the file removed instead
    /// ([`RepairAction::MovedAside`]). `None` when the file is absent or already readable (nothing
    /// written).
    ///
    /// # Errors
    /// When the file is unreadable for another reason ([`ErrorKind::IncompatibleSchema`]), or
    /// the salvage still does not parse or would exceed the size limit: that error, nothing
    /// written.
    pub fn recover(&self, key: &Key) -> Result<Option<Repair>> {
        let (repair, remove) = update_with(&self.store, key, |old| {
            if *key == super::keys::current_key() {
                self.fence()?;
            }
            let Some(old) = old else {
                return Ok((None, (None, None)));
            };
            // A file that reads but holds an integer no rewrite can keep exactly is repaired
            // too: rewritten with the nearest float, the exact bytes kept aside.
            let limit = match parse_document(key, old, &self.options)
                .and_then(|_| check_rewrite(key, old))
            {
                Ok(()) => return Ok((None, (None, None))),
                Err(e) if is_over_limit(&e) => Some(self.options.max_document_bytes),
                Err(e) if e.kind() == ErrorKind::CorruptState || is_unsafe_session_id(&e) => None,
                Err(e) => return Err(e),
            };
            let mut salvaged = if limit.is_none() {
                salvage(old)
            } else {
                Salvaged::default()
            };
            let worth_saving = salvaged.recovered_anything;
            let bytes = if worth_saving {
                self.salvage_bytes(key, &mut salvaged)?
            } else {
                None
            };
            let kept =
                crate::corrupt_copy::keep_corrupt_copy(&self.store, key, old, self.clock.now())?;
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
                limit,
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

    /// The bytes of `salvaged` to write to `key`, with the ids fixed (see
    /// [`recover`](Self::recover)).
    fn salvage_bytes(&self, key: &Key, salvaged: &mut Salvaged) -> Result<Option<Vec<u8>>> {
        if let Value::Object(doc) = &mut salvaged.document {
            if let Some(id) = history_id(key)
                && salvaged.missing.iter().any(|m| m == "session_id")
            {
                doc.insert("session_id".into(), Value::String(id.to_owned()));
            }
            if give_safe_id(key, doc, self.clock.now()) {
                salvaged.replaced.push("session_id".to_owned());
            }
        }
        let text = serde_json::to_vec(&salvaged.document).unwrap_or_default();
        let doc = parse_document(key, &text, &self.options).map_err(|e| {
            Error::new(
                e.kind(),
                format!("cannot repair `{key}`: the salvage is not usable: {e}"),
            )
            .with_context("key", key.as_str())
        })?;
        Ok(Some(self.encode(key, &doc)?))
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
            let fixable = err.kind() == ErrorKind::CorruptState
                || is_unsafe_session_id(&err)
                || is_over_limit(&err);
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
        self.check_lease(fix, &mut report)?;
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

impl<S: Store, C: Clock> OrchestratorStore<S, C> {
    /// Checks the session's lease file; with `fix`, one that does not read is set aside (kept
    /// as a corrupt copy, then replaced by a released lease whose epoch is above the old ones,
    /// under the session's lock as every lease change): the session is then owned by nobody.
    fn check_lease(&self, fix: bool, report: &mut DoctorReport) -> Result<()> {
        let key = crate::ownership::owner_key();
        let Some(bytes) = self.store.read(&key)? else {
            return Ok(());
        };
        report.checked += 1;
        let Err(err) = crate::ownership::parse_lease(&key, &bytes) else {
            return Ok(());
        };
        if !fix {
            report.problems.push(problem(&key, &err, true));
            return Ok(());
        }
        let copy = update_with(&self.store, &current_key(), |_| {
            // Read again under the lock: a claim may have set it aside meanwhile.
            let Some(bytes) = self.store.read(&key)? else {
                return Ok((None, None));
            };
            if crate::ownership::parse_lease(&key, &bytes).is_ok() {
                return Ok((None, None));
            }
            let copy = crate::ownership::set_aside_lease(&self.store, &key, &bytes, self.now())?;
            Ok((None, Some(copy)))
        })?;
        if let Some(copy) = copy {
            report.repaired.push(Repair {
                key: key.to_string(),
                action: RepairAction::Rewritten,
                kept_copy: copy.to_string(),
                missing: Vec::new(),
                replaced: Vec::new(),
                partial: Vec::new(),
                limit: None,
            });
        }
        Ok(())
    }
}

/// Gives `doc` a `session_id` that names an archive file when its own cannot (see
/// [`OrchestratorStore::recover`]), keeping the old one as `original_session_id`; whether it
/// did.
fn give_safe_id(key: &Key, doc: &mut Map<String, Value>, now: DateTime<Utc>) -> bool {
    let Some(Value::String(old)) = doc.get("session_id") else {
        return false;
    };
    if history_key(old).is_ok() {
        return false;
    }
    let old = old.clone();
    let safe = |id: String| history_key(&id).is_ok().then_some(id);
    let id = history_id(key)
        .and_then(|id| safe(id.to_owned()))
        .or_else(|| safe(replace_unsafe(&old)))
        .unwrap_or_else(|| format!("recovered-{}", format_compact_stamp(now)));
    doc.entry("original_session_id")
        .or_insert(Value::String(old));
    doc.insert("session_id".into(), Value::String(id));
    true
}

/// `id` with each path separator and control character replaced by `-`, cut to the 250
/// bytes an archive file name leaves for it.
fn replace_unsafe(id: &str) -> String {
    let mut out: String = id
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_control() {
                '-'
            } else {
                c
            }
        })
        .collect();
    while out.len() > MAX_SEGMENT_BYTES - ".json".len() {
        out.pop();
    }
    out
}

fn problem(key: &Key, err: &Error, fixable: bool) -> Problem {
    Problem {
        key: key.to_string(),
        code: err.code().to_owned(),
        message: err.message().to_owned(),
        fixable,
    }
}
