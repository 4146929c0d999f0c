//! `session_state.teams`, native half: the team spawn state as plain dicts.

use pyo3::prelude::*;
use serde_json::{Map, Value};
use session_state::argument_fields::MemberNames;
use session_state::team::{self, BackendType, SessionState, SpawnConfig};
use session_state::{Error, ErrorKind};
use session_state_fs::SystemClock;

use crate::args;
use crate::convert::{check_text, from_py, from_py_as, to_py};
use crate::errors::IntoPyResult;
use crate::stores::AnyStore;

fn backend(name: &Bound<'_, PyAny>) -> PyResult<BackendType> {
    args::text(name, "backend_type")?
        .parse::<BackendType>()
        .py()
}

/// `team_document(doc) -> dict`: checks a session document (camelCase keys) and returns it as
/// the crate would write it (timestamps in UTC with `Z`, unknown keys kept).
#[pyfunction]
pub fn team_document<'py>(py: Python<'py>, doc: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let state: SessionState = from_py("data", doc)?;
    to_py(py, &state)
}

/// `team_from_config(config, backend, now=None) -> dict`: a new session document from a spawn
/// config (snake_case dict of `SpawnConfig`), stamped `now` (RFC 3339) or the system clock.
#[pyfunction]
#[pyo3(signature = (config, backend_type, now = None))]
pub fn team_from_config<'py>(
    py: Python<'py>,
    config: &Bound<'py, PyAny>,
    backend_type: &Bound<'py, PyAny>,
    now: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let config: SpawnConfig = from_py_as("config", config, MemberNames::SnakeCase)?;
    let now = match args::opt_text(now, "now")? {
        Some(text) => session_state::Timestamp::parse(&text).py()?.utc(),
        None => session_state::Clock::now(&SystemClock),
    };
    to_py(
        py,
        &SessionState::from_config(&config, backend(backend_type)?, now),
    )
}

/// `team_to_spawn_config(doc) -> dict`: the spawn config of a session document.
#[pyfunction]
pub fn team_to_spawn_config<'py>(
    py: Python<'py>,
    doc: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state: SessionState = from_py_as("state", doc, MemberNames::SnakeCase)?;
    to_py(py, &state.to_spawn_config())
}

/// `team_to_json(doc) -> bytes`: the crate's bytes (pretty JSON, no trailing newline).
#[pyfunction]
pub fn team_to_json(doc: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let state: SessionState = from_py_as("state", doc, MemberNames::SnakeCase)?;
    state.to_json().py()
}

/// `team_from_json(data) -> dict`: parses the bytes of a session file (checked as documents
/// from Python are: no integer outside 64 bits, no nesting over the limit).
#[pyfunction]
pub fn team_from_json<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let data = args::bytes(data, "data")?;
    check_text("session state", data)?;
    to_py(py, &SessionState::from_json(data).py()?)
}

/// Team session files over a store (`teams/{team}/sessions/{agent}.json`).
#[pyclass(module = "session_state._native", name = "TeamStore", frozen)]
#[derive(Debug)]
pub struct PyTeamStore {
    inner: team::TeamStore<AnyStore, SystemClock>,
}

#[pymethods]
impl PyTeamStore {
    /// `TeamStore(store, *, max_document_bytes=None)`: session files read up to
    /// `max_document_bytes` (default 16 MiB).
    #[new]
    #[pyo3(signature = (store, *, max_document_bytes = None))]
    fn new(
        store: &Bound<'_, PyAny>,
        max_document_bytes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let options = team::TeamStoreOptions {
            max_document_bytes: args::byte_limit(max_document_bytes, "max_document_bytes")?,
        };
        Ok(PyTeamStore {
            inner: options.apply(team::TeamStore::new(AnyStore::from_py(store)?, SystemClock)),
        })
    }

    fn save(
        &self,
        team: &Bound<'_, PyAny>,
        doc: &Bound<'_, PyAny>,
    ) -> PyResult<std::path::PathBuf> {
        let team = args::text(team, "team")?;
        let state: SessionState = from_py_as("state", doc, MemberNames::SnakeCase)?;
        Ok(self.inner.save(&team, &state).py()?.as_str().into())
    }

    fn load<'py>(
        &self,
        py: Python<'py>,
        team: &Bound<'py, PyAny>,
        agent: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (team, agent) = (args::text(team, "team")?, args::text(agent, "agent")?);
        to_py(py, &self.inner.load(&team, &agent).py()?)
    }

    fn delete(&self, team: &Bound<'_, PyAny>, agent: &Bound<'_, PyAny>) -> PyResult<bool> {
        let (team, agent) = (args::text(team, "team")?, args::text(agent, "agent")?);
        self.inner.delete(&team, &agent).py()
    }

    fn list<'py>(&self, py: Python<'py>, team: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.list(&args::text(team, "team")?).py()?)
    }

    fn list_teams<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.list_teams().py()?)
    }

    fn record_spawn<'py>(
        &self,
        py: Python<'py>,
        team: &Bound<'py, PyAny>,
        config: &Bound<'py, PyAny>,
        backend_type: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let team = args::text(team, "team")?;
        let config: SpawnConfig = from_py_as("config", config, MemberNames::SnakeCase)?;
        to_py(
            py,
            &self
                .inner
                .record_spawn(&team, &config, backend(backend_type)?)
                .py()?,
        )
    }

    /// Replaces the whole saved document of `agent` in one exclusive read-modify-write
    /// (`createdAt` and `metadata` included, as the caller gives them).
    fn replace<'py>(
        &self,
        py: Python<'py>,
        team: &Bound<'py, PyAny>,
        agent: &Bound<'py, PyAny>,
        doc: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (team, agent) = (args::text(team, "team")?, args::text(agent, "agent")?);
        let new: SessionState = from_py_as("state", doc, MemberNames::SnakeCase)?;
        let written = self.inner.replace(&team, &agent, &new);
        to_py(py, &written.map_err(below_state).py()?)
    }

    /// `update(team, agent, changes) -> dict`: the keys of `changes` (document keys,
    /// camelCase) replace those of the saved document ([`SessionState::merge`], as the Node
    /// package's `TeamStore.update`; `None` clears an optional field), written in one
    /// exclusive read-modify-write. Returns the document written.
    fn update<'py>(
        &self,
        py: Python<'py>,
        team: &Bound<'py, PyAny>,
        agent: &Bound<'py, PyAny>,
        changes: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (team, agent) = (args::text(team, "team")?, args::text(agent, "agent")?);
        let changes: Map<String, Value> = from_py("changes", changes)?;
        let written = self
            .inner
            .update(&team, &agent, |state| {
                state.merge_argument(&changes, "changes")
            })
            .py()?;
        to_py(py, &written)
    }

    fn resume_plan<'py>(
        &self,
        py: Python<'py>,
        team: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        to_py(
            py,
            &self.inner.resume_plan(&args::text(team, "team")?).py()?,
        )
    }
}

/// A refused argument naming a document member (`backendType`) named as the attribute of
/// the argument `state` (`state.backend_type`); the message follows the field.
fn below_state(err: Error) -> Error {
    if err.kind() != ErrorKind::InvalidInput {
        return err;
    }
    match err.field().map(|field| MemberNames::SnakeCase.spell(field)) {
        Some(member) => err.with_field(format!("state.{member}")),
        None => err,
    }
}

/// Registers the team functions and class on the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTeamStore>()?;
    m.add_function(wrap_pyfunction!(team_document, m)?)?;
    m.add_function(wrap_pyfunction!(team_from_config, m)?)?;
    m.add_function(wrap_pyfunction!(team_to_spawn_config, m)?)?;
    m.add_function(wrap_pyfunction!(team_to_json, m)?)?;
    m.add_function(wrap_pyfunction!(team_from_json, m)?)?;
    Ok(())
}
