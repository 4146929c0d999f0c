//! `session_state.teams`, native half: the team spawn state as plain dicts.

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use pyo3::prelude::*;
use serde_json::{Map, Value};
use session_state::Clock;
use session_state::argument_fields::{MemberNames, member_below};
use session_state::team::{self, BackendType, PruneTeamOptions, SessionState, SpawnConfig};
use session_state_fs::SystemClock;

use crate::args::{Arg, Json, py_functions, py_methods, py_new};
use crate::convert::{Native, Obj, Out, from_py, from_py_as, to_py};
use crate::stores::AnyStore;

/// A spawn config: a snake_case dict of `SpawnConfig`.
impl Arg<'_> for SpawnConfig {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        from_py_as(name, value, MemberNames::SnakeCase)
    }
}

/// A session document (camelCase keys), named `state` in errors whatever the parameter.
impl Arg<'_> for SessionState {
    fn arg(value: &Obj<'_>, _: &str) -> PyResult<Self> {
        from_py_as("state", value, MemberNames::SnakeCase)
    }
}

/// `team_document(doc) -> dict`: a session document checked, as the crate would write it.
#[pyfunction]
pub fn team_document<'py>(py: Python<'py>, doc: &Obj<'py>) -> Out<'py> {
    to_py(py, &from_py::<SessionState>("data", doc)?)
}

py_functions! {
    /// `team_from_config(config, backend, now=None) -> dict`: a new session document.
    fn team_from_config(config: SpawnConfig, backend_type: BackendType;
        now: DateTime<Utc> = SystemClock.now()) =>
        Ok(SessionState::from_config(&config, backend_type, now));

    /// `team_to_spawn_config(doc) -> dict`: the spawn config of a session document.
    fn team_to_spawn_config(doc: SessionState) => Ok(doc.to_spawn_config());

    /// `team_to_json(doc) -> bytes`: the crate's bytes (pretty JSON, no trailing newline).
    fn team_to_json(doc: SessionState) => doc.to_json().map(Native);

    /// `team_from_json(data) -> dict`: the bytes of a session file, checked as Python's.
    fn team_from_json(data: &[u8]) => session_state::json::check_input("session state", data)
        .and_then(|()| SessionState::from_json(data));
}

/// Team session files over a store (`teams/{team}/sessions/{agent}.json`).
#[pyclass(module = "session_state._native", name = "TeamStore", frozen)]
#[derive(Debug)]
pub struct PyTeamStore {
    inner: team::TeamStore<AnyStore, SystemClock>,
}

py_new!(PyTeamStore {
    /// `TeamStore(store, *, max_document_bytes=None)`: session files read up to
    /// `max_document_bytes` (default 16 MiB).
    fn new(store: AnyStore; *, max_document_bytes: u64) => {
        let inner = team::TeamStore::new(store, SystemClock);
        let inner = team::TeamStoreOptions { max_document_bytes }.apply(inner);
        Ok(PyTeamStore { inner })
    };
});

py_methods!(PyTeamStore {
    [
        load(team, agent), list(team), list_teams(), resume_plan(team), delete(team, agent),
        prune(team, options: Json<PruneTeamOptions>),
    ],

    fn save(&self, team: String, doc: SessionState) =>
        self.inner.save(&team, &doc).map(|key| Native(PathBuf::from(key.as_str())));

    /// `record_spawn(team, config, backend_type) -> dict`: the document written.
    fn record_spawn(&self, team: String, config: SpawnConfig, backend_type: BackendType) =>
        self.inner.record_spawn(&team, &config, backend_type);

    /// Replaces the whole saved document of `agent` (`createdAt` and `metadata` included).
    fn replace(&self, team: String, agent: String, doc: SessionState) => self
        .inner
        .replace(&team, &agent, &doc)
        .map_err(|e| member_below(e, "state", MemberNames::SnakeCase));

    /// `update(team, agent, changes) -> dict`: the keys of `changes` replace the saved ones
    /// ([`SessionState::merge`]); the document written.
    fn update(&self, team: String, agent: String, changes: Json<Map<String, Value>>) =>
        self.inner.update(&team, &agent, |state| state.merge_argument(&changes.0, "changes"));

    /// `merge_metadata(team, agent, entries) -> dict`: the `metadata` entries set (`None`
    /// removes one), the others kept; the document written.
    fn merge_metadata(&self, team: String, agent: String, entries: Json<Map<String, Value>>) =>
        self.inner.merge_metadata_argument(&team, &agent, &entries.0, "entries");
});
