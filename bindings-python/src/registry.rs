//! `session_state.registry`, native half: the sub-agent registry (`AgentRegistry`) with
//! plain-data results, and the transcripts.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use serde_json::Value;
use session_state::Key;
use session_state::registry::{
    self, AgentRegistry, JournalMode, PolicyName, PolicyOptions, PruneRegistryOptions,
    RegistryOptions, TaskArg, TranscriptLines, find_transcript,
};
use session_state_fs::SystemClock;

use crate::args::{self, Json, opt, py_functions, py_methods, py_new, text};
use crate::convert::{Obj, Out, ToPyData, from_py};
use crate::errors::IntoPyResult;
use crate::stores::AnyStore;

/// The registry over a store.
#[pyclass(module = "session_state._native", name = "AgentRegistry", frozen)]
#[derive(Debug)]
pub struct PyAgentRegistry {
    inner: AgentRegistry<AnyStore, SystemClock>,
}

py_new!(PyAgentRegistry {
    /// `AgentRegistry(store, ...)`: the keys default to the core's; files read up to
    /// `max_document_bytes` (default 16 MiB).
    fn new(store: AnyStore; sessions_key: Key = Key::new(registry::SESSIONS_KEY).py()?,
        chains_key: Key = Key::new(registry::CHAINS_KEY).py()?,
        journal_key: Key = Key::new(registry::JOURNAL_KEY).py()?,
        *, journal: bool = false, max_document_bytes: u64) => {
        let options = RegistryOptions {
            journal: Some(Value::Bool(journal)),
            max_document_bytes,
        };
        let inner = AgentRegistry::new(store, SystemClock);
        let inner = inner.with_keys(sessions_key, chains_key, journal_key);
        let inner = options.apply(inner, "options").py()?;
        Ok(PyAgentRegistry { inner })
    };

    /// Whether registrations go to the journal.
    #[getter]
    fn journal(&self) -> bool {
        self.inner.mode() != JournalMode::Off
    }

    /// `decide_resume(agent_name, current_task, previous_task=None, policy="compat", cap=None,
    /// threshold=None) -> dict`, in the seed's order of checks (a task that is not a str is read
    /// where the seed reads it).
    #[pyo3(signature = (agent_name, current_task, previous_task = None, policy = None, cap = None, threshold = None))]
    #[allow(clippy::too_many_arguments)] // the Python signature
    fn decide_resume<'py>(
        &self,
        py: Python<'py>,
        agent_name: &Obj<'py>,
        current_task: &Obj<'py>,
        previous_task: Option<&Obj<'py>>,
        policy: Option<&Obj<'py>>,
        cap: Option<&Obj<'py>>,
        threshold: Option<&Obj<'py>>,
    ) -> Out<'py> {
        let policy = opt::<String>(policy, "policy")?;
        let policy = PolicyOptions {
            policy: policy.map(|p| p.parse::<PolicyName>()).transpose().py()?,
            cap: opt(cap, "cap")?,
            threshold: threshold
                .filter(|t| !t.is_none())
                .map(|t| from_py::<f64>("threshold", t))
                .transpose()?,
        };
        let previous = previous_task.filter(|p| !p.is_none()).map(task);
        let previous = previous.transpose()?;
        let (current, name) = (task(current_task)?, text(agent_name, "agent_name")?);
        let previous = previous.as_ref().map_or(TaskArg::Absent, task_arg);
        let (registry, current) = (&self.inner, task_arg(&current));
        let decision = registry.decide_resume_in_seed_order(&name, current, previous, &policy);
        decision.out(py)
    }

    /// `prune(**options) -> dict`: the core's options; the plan `{applied, removed, kept}`.
    #[pyo3(signature = (**options))]
    fn prune<'py>(&self, py: Python<'py>, options: Option<&Bound<'py, PyDict>>) -> Out<'py> {
        let options = options.map_or_else(|| PyDict::new(py), Bound::clone);
        let options: PruneRegistryOptions = from_py("options", options.as_any())?;
        self.inner.prune(&options).out(py)
    }
});

py_methods!(PyAgentRegistry {
    // `should_resume(agent_name, current_task, previous_task=None) -> bool` is the seed's rule
    // (the compat policy); `repair() -> list[dict]` repairs a corrupt sessions file (what it
    // still holds written back) and a corrupt chains file (started as `{}`), keeping copies:
    // one `{key, kept_copy, action}` per file repaired, the sessions file's first; `compact()`
    // folds the journal into the sessions file.
    [
        agent_result(agent_id), chain_results(chain_id), chain_summary(chain_id),
        chain_status(chain_id), all_sessions(), repair(), load(), load_chains(), agents(; chain_id),
        chain_ids(), clear_agent(agent_name), clear_chain(chain_id),
        increment_resume_count(agent_id), resume_id(agent_name; chain_id),
        should_resume(agent_name, current_task; previous_task), compact(),
        save_edits(before: Json<Value>, after: Json<Value>),
    ],

    fn create_chain(&self, chain_id: String, agent_sequence: Vec<String>; metadata: Json<Value>) =>
        self.inner.create_chain(&chain_id, &agent_sequence, metadata.map(|m| m.0));

    /// `register(agent_name, agent_id, result, chain_id=None)`: records a run's `result`.
    fn register(&self, agent_name: String, agent_id: String, result: Json<Value>;
        chain_id: String) =>
        self.inner.register(&agent_name, &agent_id, result.0, chain_id.as_deref());

    /// `agent(agent_name) -> dict | None`: the row of one agent name.
    fn agent(&self, agent_name: String) =>
        self.inner.agents(None).map(|rows| rows.into_iter().find(|e| e.agent_name == agent_name));
});

/// A task argument: its text, or the name of its type when it is not a `str`.
fn task(value: &Obj<'_>) -> PyResult<Result<String, String>> {
    if value.is_instance_of::<PyString>() {
        return Ok(Ok(text(value, "task")?.into_owned()));
    }
    Ok(Err(args::type_name(value)))
}

fn task_arg(task: &Result<String, String>) -> TaskArg<'_> {
    task.as_ref()
        .map_or_else(|name| TaskArg::Other(name), |text| TaskArg::Text(text))
}

py_functions! {
    /// `export_transcript(store, agent_id) -> str | None`: the file name of `agent_id`'s
    /// transcript in `store` (rooted at the transcript folder), found by `find_transcript`.
    fn export_transcript(store: AnyStore, agent_id: String) =>
        find_transcript(&store, &agent_id, true).map(|t| t.map(|(key, _)| key.as_str().to_owned()));

    /// `read_transcript(store, agent_id) -> list[dict] | None`: that transcript's lines.
    fn read_transcript(store: AnyStore, agent_id: String) =>
        find_transcript(&store, &agent_id, true)
            .map(|t| t.map(|(_, bytes)| TranscriptLines::new(&bytes).collect::<Vec<_>>()));

    /// `parse_transcript(data) -> list[dict]`: the lines of a transcript.
    fn parse_transcript(data: &[u8]) => Ok(TranscriptLines::new(data).collect::<Vec<_>>());
}
