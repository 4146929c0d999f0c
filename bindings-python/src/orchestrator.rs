//! `session_state.orchestrator`, native half: the orchestrator session operations
//! (`OrchestratorStore`) and the resume summary, documents as plain dicts.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::{Map, Value};
use session_state::argument_fields::{MemberNames, from_argument};
use session_state::orchestrator::{
    self, Agent, AgentStatus, CreateSession, HistoryQuery, OrchestratorSession, OrchestratorStore,
    ParseOptions, SessionStatus, StoreOptions, current_key, parse_argument,
};
use session_state::{Clock, Store, Timestamp};
use session_state_fs::SystemClock;

use crate::args;
use crate::convert::{from_py, json_bytes, to_py};
use crate::errors::IntoPyResult;
use crate::stores::{AnyStore, key_arg};

/// The argument `name`, a Python document, as the core reads a file (same checks). What would
/// make a file corrupt is an `InvalidInputError` here, `` `state` is not an orchestrator
/// session: field `goal`: ... `` with `context["field"]` when the parser names one: the
/// argument is wrong, no file is. An unsafe `session_id` stays `InvalidKeyError`, another
/// `schema_version` `IncompatibleSchemaError`.
fn doc_from_py(
    name: &str,
    value: &Bound<'_, PyAny>,
    options: &ParseOptions,
) -> PyResult<OrchestratorSession> {
    let bytes = json_bytes(&format!("`{name}`"), value)?;
    parse_argument(name, &bytes, options).py()
}

fn now_or(now: Option<&Bound<'_, PyAny>>) -> PyResult<Timestamp> {
    match args::opt_text(now, "now")? {
        Some(text) => Timestamp::parse(&text).py(),
        None => Ok(Timestamp::from_utc(SystemClock.now())),
    }
}

/// The orchestrator session operations over a store.
#[pyclass(module = "session_state._native", name = "Orchestrator", frozen)]
#[derive(Debug)]
pub struct PyOrchestrator {
    inner: OrchestratorStore<AnyStore, SystemClock>,
}

impl PyOrchestrator {
    fn doc(&self, value: &Bound<'_, PyAny>) -> PyResult<OrchestratorSession> {
        doc_from_py("state", value, self.inner.options())
    }
}

/// Wraps the methods that return the saved document.
macro_rules! doc_result {
    ($py:expr, $call:expr) => {
        to_py($py, &$call.py()?)
    };
}

#[pymethods]
impl PyOrchestrator {
    /// `Orchestrator(store, *, naive_offset_minutes=None, max_document_bytes=None)`: naive
    /// timestamps read at that offset from UTC (default UTC); documents read or written up to
    /// `max_document_bytes` (default 16 MiB; above it `InvalidInputError`, nothing written).
    #[new]
    #[pyo3(signature = (store, *, naive_offset_minutes = None, max_document_bytes = None))]
    fn new(
        store: &Bound<'_, PyAny>,
        naive_offset_minutes: Option<&Bound<'_, PyAny>>,
        max_document_bytes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let naive_offset_minutes = match naive_offset_minutes.filter(|m| !m.is_none()) {
            // FixedOffset takes less than a day either way.
            Some(minutes) => {
                let minutes = args::bounded(minutes, "naive_offset_minutes", -1439, 1439)?;
                Some(i32::try_from(minutes).unwrap_or(i32::MAX))
            }
            None => None,
        };
        let max_document_bytes = match max_document_bytes.filter(|b| !b.is_none()) {
            Some(bytes) => {
                Some(u64::try_from(args::count(bytes, "max_document_bytes")?).unwrap_or(u64::MAX))
            }
            None => None,
        };
        let options = StoreOptions {
            naive_offset_minutes,
            max_document_bytes,
        };
        let inner = OrchestratorStore::new(AnyStore::from_py(store)?, SystemClock);
        let inner = options.apply(inner, "options").py()?;
        Ok(PyOrchestrator { inner })
    }

    fn load<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        doc_result!(py, self.inner.load())
    }

    /// `save(doc) -> (key, saved_doc)`.
    fn save<'py>(
        &self,
        py: Python<'py>,
        doc: &Bound<'py, PyAny>,
    ) -> PyResult<(String, Bound<'py, PyAny>)> {
        let mut doc = self.doc(doc)?;
        let key = self.inner.save(&mut doc).py()?;
        Ok((key.as_str().to_owned(), to_py(py, &doc)?))
    }

    /// `save_stamp(doc) -> (path, updated)`: `save` returning only the new `updated` (the
    /// compatibility `save_session`, which sets it on the caller's dict).
    fn save_stamp(&self, doc: &Bound<'_, PyAny>) -> PyResult<(PathBuf, String)> {
        let mut doc = self.doc(doc)?;
        let key = self.inner.save(&mut doc).py()?;
        let updated = doc.updated.map(|t| t.to_string()).unwrap_or_default();
        Ok((key.as_str().into(), updated))
    }

    /// `load_bytes() -> bytes | None`: the current file's bytes once they parse as a "1.0"
    /// document (same errors as `load`), for the compatibility `load_session`, which returns
    /// the file's values as written.
    fn load_bytes<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let key = current_key();
        let Some(bytes) = self.inner.store().read(&key).py()? else {
            return Ok(None);
        };
        self.inner.parse(&key, &bytes).py()?;
        Ok(Some(PyBytes::new(py, &bytes)))
    }

    #[pyo3(signature = (doc, replace = None))]
    fn archive(
        &self,
        doc: &Bound<'_, PyAny>,
        replace: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PathBuf> {
        let replace = args::flag(replace, "replace", false)?;
        let doc = self.doc(doc)?;
        Ok(self.inner.archive(&doc, replace).py()?.as_str().into())
    }

    /// `list_history(limit=10, offset=0, status=None, full_scan=False) -> dict` (a page).
    /// `limit` and `offset` are ints from 0 up (`InvalidInputError` otherwise).
    #[pyo3(signature = (limit = None, offset = None, status = None, full_scan = None))]
    fn list_history<'py>(
        &self,
        py: Python<'py>,
        limit: Option<&Bound<'py, PyAny>>,
        offset: Option<&Bound<'py, PyAny>>,
        status: Option<&Bound<'py, PyAny>>,
        full_scan: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let full_scan = args::flag(full_scan, "full_scan", false)?;
        let limit = limit.map_or(Ok(10), |l| args::count(l, "limit"))?;
        let offset = offset.map_or(Ok(0), |o| args::count(o, "offset"))?;
        let status = args::opt_text(status, "status")?
            .map(|s| SessionStatus::parse(&s))
            .transpose()
            .py()?;
        let query = HistoryQuery {
            limit,
            offset,
            status,
        };
        if full_scan {
            doc_result!(py, self.inner.list_history_full_scan(&query))
        } else {
            doc_result!(py, self.inner.list_history(&query))
        }
    }

    fn rebuild_index(&self) -> PyResult<()> {
        self.inner.rebuild_index().py()
    }

    fn move_to<'py>(
        &self,
        py: Python<'py>,
        status: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let to = SessionStatus::parse(&args::text(status, "status")?).py()?;
        doc_result!(py, self.inner.move_to(to))
    }

    fn start<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        doc_result!(py, self.inner.start())
    }

    fn pause<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        doc_result!(py, self.inner.pause())
    }

    fn resume<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        doc_result!(py, self.inner.resume())
    }

    /// `complete(*, replace=False)`: all or nothing; `replace` overwrites an existing archive.
    #[pyo3(signature = (*, replace = None))]
    fn complete<'py>(
        &self,
        py: Python<'py>,
        replace: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let replace = args::flag(replace, "replace", false)?;
        doc_result!(
            py,
            self.inner.move_to_with(SessionStatus::Complete, replace)
        )
    }

    /// `abort(*, replace=False)`: all or nothing; `replace` overwrites an existing archive.
    #[pyo3(signature = (*, replace = None))]
    fn abort<'py>(
        &self,
        py: Python<'py>,
        replace: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let replace = args::flag(replace, "replace", false)?;
        doc_result!(py, self.inner.move_to_with(SessionStatus::Aborted, replace))
    }

    /// `create_session(goal, mode, project, suffix=None) -> dict`; `project` is
    /// `{name, path, git_branch?}`.
    #[pyo3(signature = (goal, mode, project, suffix = None))]
    fn create_session<'py>(
        &self,
        py: Python<'py>,
        goal: &Bound<'py, PyAny>,
        mode: &Bound<'py, PyAny>,
        project: &Bound<'py, PyAny>,
        suffix: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let session = CreateSession {
            goal: args::text(goal, "goal")?.into_owned(),
            mode: Some(args::text(mode, "mode")?.into_owned()),
            project: from_py("project", project)?,
            suffix: args::opt_text(suffix, "suffix")?.map(std::borrow::Cow::into_owned),
        };
        doc_result!(py, self.inner.create(session))
    }

    /// `agent_started(agent) -> dict`: adds `agent` (one with the same id is replaced);
    /// `status` defaults to `in_progress` and `started` to now, as in the Node package.
    fn agent_started<'py>(
        &self,
        py: Python<'py>,
        agent: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut map: Map<String, Value> = from_py("agent", agent)?;
        map.entry("status")
            .or_insert_with(|| AgentStatus::InProgress.as_str().into());
        map.entry("started")
            .or_insert_with(|| self.inner.now().to_rfc3339().into());
        let agent: Agent = from_argument(map.into(), "agent", MemberNames::Keys).py()?;
        doc_result!(py, self.inner.agent_started(&agent))
    }

    fn agent_progress<'py>(
        &self,
        py: Python<'py>,
        agent_id: &Bound<'py, PyAny>,
        percent: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let agent_id = args::text(agent_id, "agent_id")?;
        let percent = args::bounded(percent, "percent", 0, 100)?;
        let percent = u8::try_from(percent).unwrap_or(u8::MAX);
        doc_result!(py, self.inner.agent_progress(&agent_id, percent))
    }

    fn agent_completed<'py>(
        &self,
        py: Python<'py>,
        agent_id: &Bound<'py, PyAny>,
        result_summary: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let agent_id = args::text(agent_id, "agent_id")?;
        let result_summary = args::text(result_summary, "result_summary")?;
        doc_result!(py, self.inner.agent_completed(&agent_id, &result_summary))
    }

    fn agent_failed<'py>(
        &self,
        py: Python<'py>,
        agent_id: &Bound<'py, PyAny>,
        error: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let agent_id = args::text(agent_id, "agent_id")?;
        let error = args::text(error, "error")?;
        doc_result!(py, self.inner.agent_failed(&agent_id, &error))
    }

    fn decision_made<'py>(
        &self,
        py: Python<'py>,
        decision: &Bound<'py, PyAny>,
        rationale: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let decision = args::text(decision, "decision")?;
        let rationale = args::text(rationale, "rationale")?;
        doc_result!(py, self.inner.decision_made(&decision, &rationale))
    }

    fn before_compression<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        doc_result!(py, self.inner.before_compression())
    }

    fn session_end<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        doc_result!(py, self.inner.session_end())
    }

    /// `recover(key=None) -> dict | None`: repairs a corrupt file (default: the current one).
    #[pyo3(signature = (key = None))]
    fn recover<'py>(
        &self,
        py: Python<'py>,
        key: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let key = match key.filter(|k| !k.is_none()) {
            Some(k) => key_arg(k, "key")?,
            None => current_key(),
        };
        doc_result!(py, self.inner.recover(&key))
    }

    #[pyo3(signature = (fix = None))]
    fn doctor<'py>(
        &self,
        py: Python<'py>,
        fix: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let fix = args::flag(fix, "fix", false)?;
        doc_result!(py, self.inner.doctor(fix))
    }

    /// `keep_corrupt_copy(key=None) -> Path | None`.
    #[pyo3(signature = (key = None))]
    fn keep_corrupt_copy(&self, key: Option<&Bound<'_, PyAny>>) -> PyResult<Option<PathBuf>> {
        let key = match key.filter(|k| !k.is_none()) {
            Some(k) => key_arg(k, "key")?,
            None => current_key(),
        };
        Ok(self
            .inner
            .keep_corrupt_copy(&key)
            .py()?
            .map(|k| k.as_str().into()))
    }
}

/// `orchestrator_document(doc) -> dict`: the document checked and normalised as a save
/// writes it (timestamps RFC 3339 UTC, unknown fields kept).
#[pyfunction]
pub fn orchestrator_document<'py>(
    py: Python<'py>,
    doc: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, &doc_from_py("state", doc, &ParseOptions::default())?)
}

/// `resume_summary(doc, now=None) -> dict`: the "RESUMING SESSION" content as data.
#[pyfunction]
#[pyo3(signature = (doc, now = None))]
pub fn resume_summary<'py>(
    py: Python<'py>,
    doc: &Bound<'py, PyAny>,
    now: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let doc = doc_from_py("state", doc, &ParseOptions::default())?;
    to_py(py, &orchestrator::resume_summary(&doc, now_or(now)?.utc()))
}

/// `render_resume(doc, now=None) -> str`: the "RESUMING SESSION" markdown block.
#[pyfunction]
#[pyo3(signature = (doc, now = None))]
pub fn render_resume(doc: &Bound<'_, PyAny>, now: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    let doc = doc_from_py("state", doc, &ParseOptions::default())?;
    Ok(orchestrator::render_resume(&orchestrator::resume_summary(
        &doc,
        now_or(now)?.utc(),
    )))
}

/// `salvage(data) -> dict`: every complete field of damaged bytes
/// (`{document, missing, replaced, partial, top_level_object,
/// recovered_anything}`).
#[pyfunction]
pub fn salvage<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, &orchestrator::salvage(args::bytes(data, "data")?))
}

/// `json_schema() -> dict`: the JSON Schema of the document.
#[pyfunction]
pub fn json_schema(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    to_py(py, &orchestrator::json_schema())
}

/// Registers the orchestrator class and functions on the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyOrchestrator>()?;
    m.add_function(wrap_pyfunction!(orchestrator_document, m)?)?;
    m.add_function(wrap_pyfunction!(resume_summary, m)?)?;
    m.add_function(wrap_pyfunction!(render_resume, m)?)?;
    m.add_function(wrap_pyfunction!(salvage, m)?)?;
    m.add_function(wrap_pyfunction!(json_schema, m)?)?;
    Ok(())
}
