//! Recovery (SPEC section 1, "Recovery"): corrupt copies, salvage-and-rewrite, `doctor`.
//!
//! A corrupt file is never replaced or deleted before a copy of its bytes is kept beside it as
//! `<key>.corrupt-<UTC stamp like 20261129T175600Z>` (`-1`, `-2`, ... appended when that name is
//! taken). Copies do not end in `.json`, so they never show in the history listing.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;

use super::keys::{current_key, history_dir, history_id};
use super::parse::parse_document;
use super::salvage::salvage;
use super::store::OrchestratorStore;
use crate::error::{Error, ErrorKind, Result};
use crate::key::Key;
use crate::store::{Store, update_with};
use crate::time::Clock;

/// The key of the corrupt copy of `key` taken at `now`: `<key>.corrupt-YYYYMMDDTHHMMSSZ`.
///
/// # Errors
/// [`ErrorKind::InvalidKey`] when the file name would get too long.
pub fn corrupt_copy_key(key: &Key, now: DateTime<Utc>) -> Result<Key> {
    let name = format!(
        "{}.corrupt-{}",
        key.file_name(),
        crate::time::format_compact_stamp(now)
    );
    match key.parent() {
        Some(parent) => parent.join(&name),
        None => Key::new(name),
    }
}

/// Copies `bytes` (the content of `key`) to a free corrupt-copy key and returns it. Safe to
/// call inside a [`Store::update`] closure of `key` (it only reads and writes other keys).
pub fn keep_corrupt_copy<S: Store + ?Sized, C: Clock>(
    store: &S,
    clock: &C,
    key: &Key,
    bytes: &[u8],
) -> Result<Key> {
    let base = corrupt_copy_key(key, clock.now())?;
    let mut copy = base.clone();
    let mut n = 0u32;
    while store.read(&copy)?.is_some() {
        n += 1;
        copy = Key::new(format!("{base}-{n}"))?;
    }
    store.write(&copy, bytes)?;
    Ok(copy)
}

/// One problem `doctor` found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The key of the file.
    pub key: String,
    /// The error kind code (`corrupt_state`, `incompatible_schema`, `invalid_key`, ...).
    pub code: String,
    /// The error message.
    pub message: String,
    /// Whether `doctor --fix` can repair it (corrupt files only).
    pub fixable: bool,
}

/// One file `doctor --fix` repaired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Repair {
    /// The key of the repaired file.
    pub key: String,
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DoctorReport {
    /// How many files were checked (current plus history).
    pub checked: usize,
    /// Problems left (after fixing, when asked).
    pub problems: Vec<Problem>,
    /// Files repaired.
    pub repaired: Vec<Repair>,
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
    /// `session_id` was lost gets the id of its file name. `None` when the file is absent or
    /// already readable (nothing written).
    ///
    /// # Errors
    /// When the file is unreadable for another reason than corruption
    /// ([`ErrorKind::IncompatibleSchema`], [`ErrorKind::InvalidKey`], too large), or the
    /// salvage still does not parse: that error, nothing written.
    pub fn recover(&self, key: &Key) -> Result<Option<Repair>> {
        update_with(&self.store, key, |old| {
            let Some(old) = old else {
                return Ok((None, None));
            };
            match parse_document(key, old, &self.options) {
                Ok(_) => return Ok((None, None)),
                Err(e) if e.kind() != ErrorKind::CorruptState => return Err(e),
                Err(_) => {}
            }
            let mut salvaged = salvage(old);
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
            let kept = keep_corrupt_copy(&self.store, &self.clock, key, old)?;
            let repair = Repair {
                key: key.to_string(),
                kept_copy: kept.to_string(),
                missing: salvaged.missing,
                replaced: salvaged.replaced,
                partial: salvaged.partial,
            };
            Ok((Some(doc.to_pretty_json()), Some(repair)))
        })
    }

    /// Checks the current file and every history file; with `fix`, repairs the corrupt ones
    /// ([`recover`](Self::recover)) and rebuilds the history index. Problems that remain are
    /// in [`DoctorReport::problems`].
    pub fn doctor(&self, fix: bool) -> Result<DoctorReport> {
        let mut keys = vec![current_key()];
        keys.extend(
            self.store
                .list(&history_dir())?
                .into_iter()
                .filter(|k| history_id(k).is_some()),
        );
        let mut report = DoctorReport::default();
        for key in keys {
            let Some(bytes) = self.store.read(&key)? else {
                continue;
            };
            report.checked += 1;
            let Err(err) = parse_document(&key, &bytes, &self.options) else {
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
        if fix {
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
