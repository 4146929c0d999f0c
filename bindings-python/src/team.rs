//! `session_state.teams`, native half: the team spawn state as plain dicts.

use pyo3::prelude::*;
use serde_json::{Map, Value};
use session_state::argument_fields::{MemberNames, member_below};
use session_state::team::{self, BackendType, PruneTeamOptions, SessionState, SpawnConfig};
use session_state_fs::SystemClock;

use crate::args::{self, Arg, Json, py_methods};
use crate::convert::{Obj, Out, ToPyData, from_py, from_py_as, handle_methods, to_py};
use crate::errors::IntoPyResult;
use crate::stores::{AnyStore, store_arg};

/// A backend name (`claude-code`, `codex`, `gemini-cli`).
impl Arg for BackendType {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        args::text(value, name)?.parse().py()
    }
}

/// A spawn config: a snake_case dict of `SpawnConfig`.
impl Arg for SpawnConfig {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        from_py_as(name, value, MemberNames::SnakeCase)
    }
}

/// A session document (camelCase keys), named `state` in errors whatever the parameter.
impl Arg for SessionState {
    fn arg(value: &Obj<'_>, _: &str) -> PyResult<Self> {
        from_py_as("state", value, MemberNames::SnakeCase)
    }
}

/// `team_document(doc) -> dict`: checks a session document (camelCase keys) and returns it as
/// the crate would write it (timestamps in UTC with `Z`, unknown keys kept).
#[pyfunction]
pub fn team_document<'py>(py: Python<'py>, doc: &Obj<'py>) -> Out<'py> {
    to_py(py, &from_py::<SessionState>("data", doc)?)
}

/// `team_from_config(config, backend, now=None) -> dict`: a new session document from a spawn
/// config (snake_case dict of `SpawnConfig`), stamped `now` (RFC 3339) or the system clock.
#[pyfunction]
#[pyo3(signature = (config, backend_type, now = None))]
pub fn team_from_config<'py>(
    py: Python<'py>,
    config: &Obj<'py>,
    backend_type: &Obj<'py>,
    now: Option<&Obj<'py>>,
) -> Out<'py> {
    let (config, now) = (SpawnConfig::arg(config, "config")?, args::now(now)?);
    let backend = BackendType::arg(backend_type, "backend_type")?;
    to_py(py, &SessionState::from_config(&config, backend, now))
}

/// `team_to_spawn_config(doc) -> dict`: the spawn config of a session document.
#[pyfunction]
pub fn team_to_spawn_config<'py>(py: Python<'py>, doc: &Obj<'py>) -> Out<'py> {
    let state = SessionState::arg(doc, "state")?;
    to_py(py, &state.to_spawn_config())
}

/// `team_to_json(doc) -> bytes`: the crate's bytes (pretty JSON, no trailing newline).
#[pyfunction]
pub fn team_to_json(doc: &Obj<'_>) -> PyResult<Vec<u8>> {
    let state = SessionState::arg(doc, "state")?;
    state.to_json().py()
}

/// `team_from_json(data) -> dict`: parses the bytes of a session file (checked as documents
/// from Python are: no integer outside 64 bits, no nesting over the limit).
#[pyfunction]
pub fn team_from_json<'py>(py: Python<'py>, data: &Obj<'py>) -> Out<'py> {
    let data = args::bytes(data, "data")?;
    session_state::json::check_input("session state", data).py()?;
    SessionState::from_json(data).out(py)
}

/// Team session files over a store (`teams/{team}/sessions/{agent}.json`).
#[pyclass(module = "session_state._native", name = "TeamStore", frozen)]
#[derive(Debug)]
pub struct PyTeamStore {
    inner: team::TeamStore<AnyStore, SystemClock>,
}

handle_methods!(PyTeamStore {
    [load(team, agent), list(team), list_teams(), resume_plan(team), delete(team, agent)],

    /// `TeamStore(store, *, max_document_bytes=None)`: session files read up to
    /// `max_document_bytes` (default 16 MiB).
    #[new]
    #[pyo3(signature = (store, *, max_document_bytes = None))]
    fn new(store: &Obj<'_>, max_document_bytes: Option<&Obj<'_>>) -> PyResult<Self> {
        let options = team::TeamStoreOptions {
            max_document_bytes: args::byte_limit(max_document_bytes, "max_document_bytes")?,
        };
        Ok(PyTeamStore {
            inner: options.apply(team::TeamStore::new(store_arg(store)?, SystemClock)),
        })
    }

    fn save(&self, team: &Obj<'_>, doc: &Obj<'_>) -> PyResult<std::path::PathBuf> {
        let team = args::text(team, "team")?;
        let state = SessionState::arg(doc, "state")?;
        Ok(self.inner.save(&team, &state).py()?.as_str().into())
    }
});

py_methods!(PyTeamStore {
    /// `record_spawn(team, config, backend_type) -> dict`: records that `config` was spawned on
    /// `backend_type` now; returns the document written.
    fn record_spawn(&self, team: String, config: SpawnConfig, backend_type: BackendType) =>
        self.inner.record_spawn(&team, &config, backend_type);

    /// Replaces the whole saved document of `agent` in one exclusive read-modify-write
    /// (`createdAt` and `metadata` included, as the caller gives them).
    fn replace(&self, team: String, agent: String, doc: SessionState) => self
        .inner
        .replace(&team, &agent, &doc)
        .map_err(|e| member_below(e, "state", MemberNames::SnakeCase));

    /// `update(team, agent, changes) -> dict`: the keys of `changes` (document keys,
    /// camelCase) replace those of the saved document ([`SessionState::merge`], as the Node
    /// package's `TeamStore.update`; `None` clears an optional field), written in one
    /// exclusive read-modify-write. Returns the document written.
    fn update(&self, team: String, agent: String, changes: Json<Map<String, Value>>) =>
        self.inner.update(&team, &agent, |state| state.merge_argument(&changes.0, "changes"));

    /// `prune(team, options) -> dict`: `options` is `{older_than_days, apply?}`; returns the
    /// plan `{applied, removed, kept}`.
    fn prune(&self, team: String, options: Json<PruneTeamOptions>) =>
        self.inner.prune(&team, &options.0);
});
