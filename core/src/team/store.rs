//! [`TeamStore`]: team session files over any [`Store`] (SPEC section 3).
//!
//! Layout: `teams/{team}/sessions/{agent}.json`. Saves write the crate's bytes (pretty JSON,
//! no trailing newline) in one exclusive [`Store::update`]; a file there that does not parse
//! is first copied aside to `{key}.corrupt-{YYYYMMDDTHHMMSSZ}`. Listing a team reads every
//! `*.json` directly in its `sessions` folder, sorted by agent name; a file that cannot be
//! read or parsed is reported in [`TeamListing::skipped`] and never aborts the listing.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::backend::BackendType;
use super::document::SessionState;
use super::names::{
    SESSION_EXTENSION, SESSIONS_FOLDER, session_key, sessions_folder, teams_folder, validate_name,
};
use super::spawn::SpawnConfig;
use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Result};
use crate::key::Key;
use crate::limit::ReadLimit;
use crate::store::Store;
use crate::time::Clock;

/// Team session files over a store, stamped by a clock.
#[derive(Debug, Clone)]
pub struct TeamStore<S, C> {
    store: S,
    pub(super) clock: C,
    limit: ReadLimit,
}

/// One member read from a team's `sessions` folder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(rename = "TeamMember")]
pub struct Member {
    /// The agent name taken from the file name (`{agent}.json`).
    pub agent: String,
    /// The store key of the file.
    pub key: String,
    /// The parsed document.
    pub state: SessionState,
}

/// A file of a team's `sessions` folder that was skipped, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(rename = "SkippedTeamFile")]
pub struct SkippedFile {
    /// The store key of the file (or folder).
    pub key: String,
    /// The error code: `corrupt_state` (does not parse), `storage` (cannot be read, or is a
    /// folder), `invalid_key` (the file name is not a valid agent name).
    #[schemars(with = "crate::ErrorKind")]
    pub code: String,
    /// A lowercase message naming the key.
    pub message: String,
}

/// The members of one team, and the files that were skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TeamListing {
    /// The team name.
    pub team: String,
    /// Members whose file parsed, sorted by agent name.
    pub members: Vec<Member>,
    /// Files that were skipped, sorted by key.
    pub skipped: Vec<SkippedFile>,
}

/// Changes of a member's `metadata` ([`TeamStore::merge_metadata`]): each key set to its
/// value, or removed when `None` (`null` in JSON).
pub type MetadataEntries = indexmap::IndexMap<String, Option<String>>;

/// One team found under `teams/`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TeamSummary {
    /// The team (folder) name.
    pub name: String,
    /// How many `*.json` files its `sessions` folder holds (parsed or not).
    pub sessions: usize,
}

impl<S: Store, C: Clock> TeamStore<S, C> {
    /// Team session files in `store`, stamped by `clock`.
    pub fn new(store: S, clock: C) -> Self {
        TeamStore {
            store,
            clock,
            limit: ReadLimit::default(),
        }
    }

    /// The same store reading session files of at most `bytes` bytes (default
    /// [`DEFAULT_MAX_DOCUMENT_BYTES`](crate::DEFAULT_MAX_DOCUMENT_BYTES), 16 MiB). A larger
    /// file is refused with [`ErrorKind::InvalidInput`] naming the limit (context `limit`) and
    /// skipped by [`list`](Self::list); [`save`](Self::save) copies it aside before replacing
    /// it.
    #[must_use]
    pub fn with_max_document_bytes(mut self, bytes: usize) -> Self {
        self.limit = ReadLimit(bytes);
        self
    }

    /// The read limit, in bytes.
    pub fn max_document_bytes(&self) -> usize {
        self.limit.0
    }

    /// The document of `key`, refused when over the read limit (see [`parse_stored`]).
    fn parse(&self, key: &Key, bytes: &[u8]) -> Result<SessionState> {
        self.limit.check(key, bytes)?;
        parse_stored(key, bytes)
    }

    /// The text of `state` to write under `key`, refused when over the read limit (a file
    /// that could not be read back).
    fn encode(&self, key: &Key, state: &SessionState) -> Result<Vec<u8>> {
        let bytes = state.to_json()?;
        self.limit.check(key, &bytes)?;
        Ok(bytes)
    }

    /// The underlying store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Saves `state` as `teams/{team}/sessions/{state.name}.json`, replacing what is there,
    /// as the crate does (a file there that does not parse is copied aside first). Returns
    /// the key written.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] for an invalid team or agent name, [`ErrorKind::InvalidInput`]
    /// when the state cannot be serialised or its text is over the read limit (nothing
    /// written), [`ErrorKind::Storage`] when the store fails.
    pub fn save(&self, team: &str, state: &SessionState) -> Result<Key> {
        let key = session_key(team, &state.name)?;
        let bytes = self.encode(&key, state)?;
        self.store.update(&key, &mut |old| {
            if let Some(old) = old
                && (self.limit.check(&key, old).is_err() || SessionState::from_json(old).is_err())
            {
                self.copy_aside(&key, old)?;
            }
            Ok(Some(bytes.clone()))
        })?;
        Ok(key)
    }

    /// Records that `config` was spawned on `backend` now. Unlike the crate (which starts the
    /// file afresh on every spawn), an existing readable file keeps its `createdAt`, its
    /// `metadata` and its unknown keys; everything else comes from `config`. A file that does
    /// not parse is copied aside and replaced. To replace `createdAt` or `metadata`, use
    /// [`update`](Self::update) or [`save`](Self::save).
    ///
    /// # Errors
    /// As [`save`](Self::save).
    pub fn record_spawn(
        &self,
        team: &str,
        config: &SpawnConfig,
        backend: BackendType,
    ) -> Result<SessionState> {
        let key = session_key(team, &config.name)?;
        let spawned = SessionState::from_config(config, backend, self.clock.now());
        crate::store::update_with(&self.store, &key, |old| {
            // A store that retries may call this again: start from the spawn each time.
            let mut fresh = spawned.clone();
            if let Some(old) = old {
                self.limit.check(&key, old)?;
                match SessionState::from_json(old) {
                    Ok(previous) => {
                        // Its metadata and unknown keys are written again.
                        crate::json::check_rewrite(&key, old)?;
                        fresh.created_at = previous.created_at;
                        fresh.metadata = previous.metadata;
                        fresh.extra = previous.extra;
                    }
                    Err(_) => self.copy_aside(&key, old)?,
                }
            }
            Ok((Some(self.encode(&key, &fresh)?), fresh))
        })
    }

    /// Changes a saved member in one exclusive read-modify-write: `apply` gets the current
    /// state and edits it (including `createdAt` and `metadata` if it wants). Returns the
    /// state written. `apply` runs under the store's update lock: it must not write through
    /// this store (`record_spawn`, `save`, `update`, ... of any member), which would wait for
    /// that lock (a `conflict` at once on [`MemoryStore`](crate::MemoryStore), a lock timeout
    /// on a file store).
    ///
    /// # Errors
    /// [`ErrorKind::NotFound`] when there is no file, [`ErrorKind::CorruptState`] when it does
    /// not parse (nothing is written), [`ErrorKind::InvalidInput`] when `apply` renames the
    /// agent, whatever `apply` returns, and the errors of [`save`](Self::save).
    pub fn update(
        &self,
        team: &str,
        agent: &str,
        mut apply: impl FnMut(&mut SessionState) -> Result<()>,
    ) -> Result<SessionState> {
        self.update_dyn(team, agent, &mut apply)
    }

    /// [`update`](Self::update) with `apply` behind a reference: one copy of its code for
    /// every caller.
    fn update_dyn(
        &self,
        team: &str,
        agent: &str,
        apply: &mut dyn FnMut(&mut SessionState) -> Result<()>,
    ) -> Result<SessionState> {
        let key = session_key(team, agent)?;
        crate::store::update_with(&self.store, &key, |old| {
            let Some(old) = old else {
                return Err(not_found(team, agent, &key));
            };
            let mut state = self.parse(&key, old)?;
            crate::json::check_rewrite(&key, old)?;
            apply(&mut state)?;
            if state.name != agent {
                return Err(Error::invalid_input(format!(
                    "update of agent `{agent}` cannot rename it to `{}`",
                    state.name
                ))
                .with_context("key", key.as_str()));
            }
            Ok((Some(self.encode(&key, &state)?), state))
        })
    }

    /// Sets the `metadata` entries of `entries` on a saved member (an entry of `None` removes
    /// that key) and keeps the others, in one exclusive read-modify-write: writers of other
    /// entries at the same time all keep theirs, where a `load` then [`update`](Self::update)
    /// of the whole map drops what was written between the two. Returns the state written.
    ///
    /// # Errors
    /// As [`update`](Self::update).
    pub fn merge_metadata(
        &self,
        team: &str,
        agent: &str,
        entries: &MetadataEntries,
    ) -> Result<SessionState> {
        self.update(team, agent, |state| {
            for (key, value) in entries {
                match value {
                    Some(value) => state.metadata.insert(key.clone(), value.clone()),
                    None => state.metadata.shift_remove(key),
                };
            }
            Ok(())
        })
    }

    /// [`merge_metadata`](Self::merge_metadata) of a binding's argument `name`: an object
    /// whose values are strings, or `null` to remove that entry.
    ///
    /// # Errors
    /// As [`merge_metadata`](Self::merge_metadata); [`ErrorKind::InvalidInput`] naming the
    /// entry (`` `entries.run` is invalid: expected a string or null, got a number ``, context
    /// `field`)
    /// whose value is neither, before anything is read.
    pub fn merge_metadata_argument(
        &self,
        team: &str,
        agent: &str,
        entries: &Map<String, Value>,
        name: &str,
    ) -> Result<SessionState> {
        let entries = entries
            .iter()
            .map(|(key, value)| match value {
                Value::String(text) => Ok((key.clone(), Some(text.clone()))),
                Value::Null => Ok((key.clone(), None)),
                other => {
                    let kind = match other {
                        Value::Bool(_) => "a boolean",
                        Value::Number(_) => "a number",
                        Value::Array(_) => "an array",
                        _ => "an object",
                    };
                    Err(Error::invalid_field(
                        format!("{name}.{key}"),
                        format!("expected a string or null, got {kind}"),
                    ))
                }
            })
            .collect::<Result<MetadataEntries>>()?;
        self.merge_metadata(team, agent, &entries)
    }

    /// Replaces a saved member with `state` in one exclusive read-modify-write: unlike
    /// [`save`](Self::save), the file must exist (and parse) and `state.name` must be
    /// `agent`; a `backendType` other than the stored one must name a known backend
    /// ([`SessionState::check_backend_change`], as [`SessionState::merge`]). Returns the state
    /// written. The bindings' `TeamStore.replace`.
    ///
    /// # Errors
    /// As [`update`](Self::update); [`ErrorKind::InvalidInput`] from
    /// [`SessionState::check_backend_change`] (nothing written).
    pub fn replace(&self, team: &str, agent: &str, state: &SessionState) -> Result<SessionState> {
        self.update(team, agent, |stored| {
            stored.check_backend_change(&state.backend_type)?;
            stored.clone_from(state);
            Ok(())
        })
    }

    /// Loads one member.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] for an invalid name, [`ErrorKind::NotFound`] when there is no
    /// file, [`ErrorKind::CorruptState`] when it does not parse (with the salvaged JSON value
    /// when it is JSON at all), [`ErrorKind::Storage`] when the store fails.
    pub fn load(&self, team: &str, agent: &str) -> Result<SessionState> {
        let key = session_key(team, agent)?;
        match self.store.read(&key)? {
            Some(bytes) => self.parse(&key, &bytes),
            None => Err(not_found(team, agent, &key)),
        }
    }

    /// Deletes the member file `key` under its update lock when it still reads with a
    /// `createdAt` before `before`: one saved since it was listed with a later `createdAt`
    /// stays. `true` when removed.
    pub(super) fn delete_if_created_before(
        &self,
        key: &Key,
        before: DateTime<Utc>,
    ) -> Result<bool> {
        let mut removed = false;
        self.store.update(key, &mut |old| {
            removed = old
                .and_then(|old| self.parse(key, old).ok())
                .is_some_and(|state| state.created_at < before);
            if removed {
                self.store.delete(key)?;
            }
            Ok(None)
        })?;
        Ok(removed)
    }

    /// Deletes one member's file; `true` if it existed (the crate does this on shutdown).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] for an invalid name, [`ErrorKind::Storage`].
    pub fn delete(&self, team: &str, agent: &str) -> Result<bool> {
        let key = session_key(team, agent)?;
        self.store.delete(&key)
    }

    /// Every member of `team`, sorted by agent name, with the files that were skipped. A team
    /// without a `sessions` folder lists as empty, and so does a team whose `teams/{team}` or
    /// `sessions` is a regular file (a file is not a team).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] for an invalid team name, [`ErrorKind::Storage`] when the
    /// folder itself cannot be listed. A single bad file never fails the listing.
    pub fn list(&self, team: &str) -> Result<TeamListing> {
        let folder = sessions_folder(team)?;
        let mut listing = TeamListing {
            team: team.to_owned(),
            ..TeamListing::default()
        };
        let mut folders_reported: Vec<String> = Vec::new();
        let keys = match self.store.list(&folder) {
            Ok(keys) => keys,
            // `teams/{team}` or its `sessions` being a file: not a team, lists as empty.
            Err(e) => match folder.parent() {
                Some(team_key)
                    if [&team_key, &folder]
                        .iter()
                        .any(|k| matches!(self.store.read(k), Ok(Some(_)))) =>
                {
                    return Ok(listing);
                }
                _ => return Err(e),
            },
        };
        for key in keys {
            // `Store::list` gives keys strictly below the folder; skip any other a store returns.
            let Some(rest) = key
                .as_str()
                .strip_prefix(folder.as_str())
                .and_then(|r| r.strip_prefix('/'))
            else {
                continue;
            };
            match rest.split_once('/') {
                None => {
                    if let Some(agent) = rest.strip_suffix(SESSION_EXTENSION) {
                        self.list_one(&key, agent, &mut listing);
                    }
                }
                Some((first, _)) if first.ends_with(SESSION_EXTENSION) => {
                    if !folders_reported.iter().any(|f| f == first) {
                        folders_reported.push(first.to_owned());
                        let folder_key = folder.join(first)?;
                        listing.skipped.push(skipped(
                            &folder_key,
                            ErrorKind::Storage,
                            format!("`{folder_key}` is a folder, not a session file"),
                        ));
                    }
                }
                Some(_) => {}
            }
        }
        // Session files no key can name (an agent name the crate takes with a control
        // character): reported, not left out unsaid.
        for name in self.store.unlisted(&folder)? {
            if let Some(agent) = name.strip_suffix(SESSION_EXTENSION)
                && !agent.is_empty()
                && !name.contains('/')
            {
                let why = Key::segment("agent name", agent).err().map_or_else(
                    || "it is not a valid key".to_owned(),
                    |e| e.message().to_owned(),
                );
                listing.skipped.push(SkippedFile {
                    key: format!("{folder}/{name}"),
                    code: ErrorKind::InvalidKey.code().to_owned(),
                    message: format!("this library cannot read or write it: {why}"),
                });
            }
        }
        // Agents and keys are unique (one per listed key), so unstable sorts give the same
        // order with less code in wasm.
        listing
            .members
            .sort_unstable_by(|a, b| a.agent.cmp(&b.agent));
        listing.skipped.sort_unstable_by(|a, b| a.key.cmp(&b.key));
        Ok(listing)
    }

    fn list_one(&self, key: &Key, agent: &str, listing: &mut TeamListing) {
        // A bare `.json` is a hidden file, not a session (the crate's extension test agrees).
        if agent.is_empty() {
            return;
        }
        if let Err(e) = validate_name("agent name", agent) {
            listing
                .skipped
                .push(skipped(key, e.kind(), e.message().to_owned()));
            return;
        }
        let parsed = self.store.read(key).and_then(|bytes| match bytes {
            Some(bytes) => self.parse(key, &bytes).map(Some),
            None => Ok(None), // deleted since it was listed
        });
        match parsed {
            Ok(Some(state)) => listing.members.push(Member {
                agent: agent.to_owned(),
                key: key.to_string(),
                state,
            }),
            Ok(None) => {}
            Err(e) => listing
                .skipped
                .push(skipped(key, e.kind(), e.message().to_owned())),
        }
    }

    /// Every team under `teams/`, sorted by name, with its number of session files. A team
    /// is a folder holding at least one `sessions/{agent}.json`: names come only from keys
    /// `teams/{team}/sessions/{agent}.json`, so a stray file under `teams/` (or a folder with
    /// no session file) is not a team. An empty team folder cannot be seen at all, since
    /// [`Store::list`] lists files.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when the store cannot list `teams/`.
    pub fn list_teams(&self) -> Result<Vec<TeamSummary>> {
        let root = teams_folder();
        let mut teams: BTreeMap<String, usize> = BTreeMap::new();
        let keys = self.store.list(&root)?;
        let named = keys
            .iter()
            .map(|key| key.as_str().split_once('/').map_or("", |(_, below)| below));
        // A session file no key can name counts too: `list` reports it in `skipped`.
        for path in named.map(str::to_owned).chain(self.store.unlisted(&root)?) {
            if let [team, folder, file] = path.split('/').collect::<Vec<_>>().as_slice()
                && *folder == SESSIONS_FOLDER
                && file.len() > SESSION_EXTENSION.len()
                && file.ends_with(SESSION_EXTENSION)
            {
                *teams.entry((*team).to_owned()).or_default() += 1;
            }
        }
        Ok(teams
            .into_iter()
            .filter(|(name, _)| validate_name("team name", name).is_ok())
            .map(|(name, sessions)| TeamSummary { name, sessions })
            .collect())
    }

    /// Copies corrupt bytes aside with [`crate::corrupt_copy::keep_corrupt_copy`].
    fn copy_aside(&self, key: &Key, bytes: &[u8]) -> Result<()> {
        crate::corrupt_copy::keep_corrupt_copy(&self.store, key, bytes, self.clock.now())
            .map(|_| ())
    }
}

fn parse_stored(key: &Key, bytes: &[u8]) -> Result<SessionState> {
    serde_json::from_slice::<SessionState>(bytes).map_err(|e| {
        let err = Error::corrupt(key, e);
        match serde_json::from_slice::<serde_json::Value>(bytes) {
            Ok(value) => err.with_salvaged(value),
            Err(_) => err,
        }
    })
}

fn not_found(team: &str, agent: &str, key: &Key) -> Error {
    Error::new(
        ErrorKind::NotFound,
        format!("no session state for agent `{agent}` in team `{team}`"),
    )
    .with_context("key", key.as_str())
}

fn skipped(key: &Key, kind: ErrorKind, message: String) -> SkippedFile {
    SkippedFile {
        key: key.to_string(),
        code: kind.code().to_owned(),
        message,
    }
}
