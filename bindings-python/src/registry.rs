//! `session_state.moai`, native half: the sub-agent registry (`AgentRegistry`) with plain-data
//! results.

use pyo3::prelude::*;
use pyo3::types::PyString;
use serde_json::Value;
use session_state::Key;
use session_state::registry::{
    AgentRegistry, JournalMode, PolicyName, RegistryOptions, TaskArg, TranscriptLines,
    find_transcript,
};
use session_state_fs::SystemClock;

use crate::args::{self, opt_text, text};
use crate::convert::{from_py, to_py};
use crate::errors::IntoPyResult;
use crate::stores::{AnyStore, key_arg};

/// The registry over a store, at the keys the Python side chose.
#[pyclass(module = "session_state._native", name = "Registry", frozen)]
#[derive(Debug)]
pub struct PyRegistry {
    inner: AgentRegistry<AnyStore, SystemClock>,
}

#[pymethods]
impl PyRegistry {
    /// `Registry(store, sessions_key, chains_key, journal_key, *, journal=False,
    /// max_document_bytes=None)`: files read up to `max_document_bytes` (default 16 MiB).
    #[new]
    #[pyo3(signature = (
        store, sessions_key, chains_key, journal_key, *, journal = None, max_document_bytes = None
    ))]
    fn new(
        store: &Bound<'_, PyAny>,
        sessions_key: &Bound<'_, PyAny>,
        chains_key: &Bound<'_, PyAny>,
        journal_key: &Bound<'_, PyAny>,
        journal: Option<&Bound<'_, PyAny>>,
        max_document_bytes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let options = RegistryOptions {
            journal: Some(Value::Bool(args::flag(journal, "journal", false)?)),
            max_document_bytes: args::byte_limit(max_document_bytes, "max_document_bytes")?,
        };
        let inner = AgentRegistry::new(AnyStore::from_py(store)?, SystemClock).with_keys(
            key_arg(sessions_key, "sessions_key")?,
            key_arg(chains_key, "chains_key")?,
            key_arg(journal_key, "journal_key")?,
        );
        let inner = options.apply(inner, "options").py()?;
        Ok(PyRegistry { inner })
    }

    /// Whether registrations go to the journal.
    #[getter]
    fn journal(&self) -> bool {
        self.inner.mode() != JournalMode::Off
    }

    #[pyo3(signature = (agent_name, agent_id, result, chain_id = None))]
    fn register(
        &self,
        py: Python<'_>,
        agent_name: &Bound<'_, PyAny>,
        agent_id: &Bound<'_, PyAny>,
        result: &Bound<'_, PyAny>,
        chain_id: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let agent_name = text(agent_name, "agent_name")?;
        let agent_id = text(agent_id, "agent_id")?;
        let chain_id = opt_text(chain_id, "chain_id")?;
        let result: Value = from_py("result", result)?;
        py.detach(|| {
            self.inner
                .register(&agent_name, &agent_id, result, chain_id.as_deref())
        })
        .py()
    }

    #[pyo3(signature = (agent_name, chain_id = None))]
    fn resume_id(
        &self,
        agent_name: &Bound<'_, PyAny>,
        chain_id: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<String>> {
        let chain_id = opt_text(chain_id, "chain_id")?;
        self.inner
            .resume_id(&text(agent_name, "agent_name")?, chain_id.as_deref())
            .py()
    }

    /// `decide_resume(agent_name, current_task, previous_task=None, policy="compat") -> dict`,
    /// in the seed's order of checks (a task that is not a str is read only where the seed
    /// reads it).
    #[pyo3(signature = (agent_name, current_task, previous_task = None, policy = None))]
    fn decide_resume<'py>(
        &self,
        py: Python<'py>,
        agent_name: &Bound<'py, PyAny>,
        current_task: &Bound<'py, PyAny>,
        previous_task: Option<&Bound<'py, PyAny>>,
        policy: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let name = opt_text(policy, "policy")?.unwrap_or("compat".into());
        let name = name.parse::<PolicyName>().py()?;
        let previous = previous_task
            .filter(|p| !p.is_none())
            .map(task)
            .transpose()?;
        let current = task(current_task)?;
        let decision = self
            .inner
            .decide_resume_in_seed_order(
                &text(agent_name, "agent_name")?,
                task_arg(&current),
                previous.as_ref().map_or(TaskArg::Absent, task_arg),
                name,
            )
            .py()?;
        to_py(py, &decision)
    }

    fn increment_resume_count(&self, agent_id: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.inner
            .increment_resume_count(&text(agent_id, "agent_id")?)
            .py()
    }

    fn agent_result<'py>(
        &self,
        py: Python<'py>,
        agent_id: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        to_py(
            py,
            &self.inner.agent_result(&text(agent_id, "agent_id")?).py()?,
        )
    }

    fn chain_results<'py>(
        &self,
        py: Python<'py>,
        chain_id: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        to_py(
            py,
            &self
                .inner
                .chain_results(&text(chain_id, "chain_id")?)
                .py()?,
        )
    }

    fn chain_summary<'py>(
        &self,
        py: Python<'py>,
        chain_id: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        to_py(
            py,
            &self
                .inner
                .chain_summary(&text(chain_id, "chain_id")?)
                .py()?,
        )
    }

    fn chain_status<'py>(
        &self,
        py: Python<'py>,
        chain_id: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        to_py(
            py,
            &self.inner.chain_status(&text(chain_id, "chain_id")?).py()?,
        )
    }

    fn chain_ids(&self) -> PyResult<Vec<String>> {
        self.inner.chain_ids().py()
    }

    fn clear_agent(&self, agent_name: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.inner
            .clear_agent(&text(agent_name, "agent_name")?)
            .py()
    }

    fn clear_chain(&self, chain_id: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.inner.clear_chain(&text(chain_id, "chain_id")?).py()
    }

    fn all_sessions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.all_sessions().py()?)
    }

    /// `agents(chain_id=None) -> list[dict]`: one row per agent name.
    #[pyo3(signature = (chain_id = None))]
    fn agents<'py>(
        &self,
        py: Python<'py>,
        chain_id: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let chain_id = opt_text(chain_id, "chain_id")?;
        to_py(py, &self.inner.agents(chain_id.as_deref()).py()?)
    }

    /// `agent(agent_name) -> dict | None`: the row of one agent name.
    fn agent<'py>(
        &self,
        py: Python<'py>,
        agent_name: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let agent_name = text(agent_name, "agent_name")?;
        let row = self
            .inner
            .agents(None)
            .py()?
            .into_iter()
            .find(|e| e.agent_name == agent_name);
        to_py(py, &row)
    }

    #[pyo3(signature = (chain_id, agent_sequence, metadata = None))]
    fn create_chain(
        &self,
        chain_id: &Bound<'_, PyAny>,
        agent_sequence: &Bound<'_, PyAny>,
        metadata: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let chain_id = text(chain_id, "chain_id")?;
        let agent_sequence = args::texts(agent_sequence, "agent_sequence")?;
        let metadata: Option<Value> = metadata.map(|m| from_py("metadata", m)).transpose()?;
        self.inner
            .create_chain(&chain_id, &agent_sequence, metadata)
            .py()
    }

    /// `repair() -> list[dict]`: repairs a corrupt sessions file (what it still holds written
    /// back) and a corrupt chains file (started as `{}`), keeping copies; one
    /// `{key, kept_copy, action}` per file repaired, the sessions file's first (the core's
    /// `AgentRegistry::repair`, the Node package's `recover`).
    fn repair<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.repair().py()?)
    }

    /// The sessions document (base + journal) as a dict.
    fn load<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.load().py()?)
    }

    /// `save_edits(before, after) -> bool`: writes the entries of the four maps (`sessions`,
    /// `chains`, `metadata`, `results`) that differ between `before` (as read) and `after` (as
    /// the caller changed them) into the file as it is now, under the registry's lock (the
    /// core's `save_edits`). Whether the file changed.
    fn save_edits(
        &self,
        py: Python<'_>,
        before: &Bound<'_, PyAny>,
        after: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let before: Value = from_py("before", before)?;
        let after: Value = from_py("after", after)?;
        py.detach(|| self.inner.save_edits(&before, &after)).py()
    }

    /// The chains document as a dict.
    fn load_chains<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.load_chains().py()?)
    }

    /// Folds the journal into the sessions file.
    fn compact(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| self.inner.compact()).py()
    }
}

/// A task argument: its text, or the name of its type when it is not a `str`.
fn task(value: &Bound<'_, PyAny>) -> PyResult<Result<String, String>> {
    if value.is_instance_of::<PyString>() {
        return Ok(Ok(text(value, "task")?.into_owned()));
    }
    Ok(Err(value.get_type().name()?.to_string()))
}

fn task_arg(task: &Result<String, String>) -> TaskArg<'_> {
    match task {
        Ok(text) => TaskArg::Text(text),
        Err(type_name) => TaskArg::Other(type_name),
    }
}

/// The transcript of `agent_id` in `store`, a store rooted at the transcript folder: its key
/// (`agent-{agent_id}.jsonl`) and bytes, or `None` when there is none (also for an id too long
/// for that file name, as the core's `export_transcript`). Read through the store as the Node
/// package reads it: a folder there, or a symlink leading outside the store's root, is a
/// `StorageError`; an unsafe id an `InvalidKeyError`.
fn transcript_in(
    py: Python<'_>,
    store: &Bound<'_, PyAny>,
    agent_id: &Bound<'_, PyAny>,
) -> PyResult<Option<(Key, Vec<u8>)>> {
    let store = AnyStore::from_py(store)?;
    let agent_id = text(agent_id, "agent_id")?;
    py.detach(|| find_transcript(&store, &agent_id, true)).py()
}

/// `export_transcript(store, agent_id) -> str | None`: the file name of `agent_id`'s
/// transcript in `store` (rooted at the transcript folder) if it exists; see `transcript_in`.
#[pyfunction]
pub fn export_transcript(
    py: Python<'_>,
    store: &Bound<'_, PyAny>,
    agent_id: &Bound<'_, PyAny>,
) -> PyResult<Option<String>> {
    Ok(transcript_in(py, store, agent_id)?.map(|(key, _)| key.as_str().to_owned()))
}

/// `read_transcript(store, agent_id) -> list[dict] | None`: the lines of `agent_id`'s
/// transcript in `store` (`{"kind": "record" | "invalid" | "torn", "line": n, ...}`), or
/// `None` when there is none; see `transcript_in`.
#[pyfunction]
pub fn read_transcript<'py>(
    py: Python<'py>,
    store: &Bound<'py, PyAny>,
    agent_id: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let lines = transcript_in(py, store, agent_id)?
        .map(|(_, bytes)| TranscriptLines::new(&bytes).collect::<Vec<_>>());
    to_py(py, &lines)
}

/// `parse_transcript(data) -> list[dict]`: the lines of a transcript
/// (`{"kind": "record" | "invalid" | "torn", "line": n, ...}`).
#[pyfunction]
pub fn parse_transcript<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let lines: Vec<_> = TranscriptLines::new(args::bytes(data, "data")?).collect();
    to_py(py, &lines)
}

/// Registers the registry class and functions on the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRegistry>()?;
    m.add_function(wrap_pyfunction!(export_transcript, m)?)?;
    m.add_function(wrap_pyfunction!(read_transcript, m)?)?;
    m.add_function(wrap_pyfunction!(parse_transcript, m)?)?;
    Ok(())
}
