//! `session_state.orchestrator`, native half: the orchestrator session operations
//! (`OrchestratorStore`) and the resume summary, documents as plain dicts.

mod history;
mod ownership;
mod staleness;

pub use staleness::{render_resume_with, resume_summary_with};

use std::path::PathBuf;

use pyo3::prelude::*;
use session_state::Store;
use session_state::orchestrator::{
    self, AgentDone, AgentFail, AgentProgress, AgentStart, CURRENT_KEY, ContextInput,
    DecisionInput, HistoryQuery, NewSession, OrchestratorSession, OrchestratorStore, ParseOptions,
    SessionStatus, StoreOptions, TaskAdd, TaskDone, current_key, parse_argument, valid_argument,
};
use session_state_fs::SystemClock;

use crate::args::{self, flag, text};
use crate::convert::{
    Obj, Out, ToPyData, fast_typed, from_py, handle_methods, json_bytes, json_to_py, to_py,
};
use crate::errors::IntoPyResult;
use crate::stores::{AnyStore, key_or, store_arg};

/// The argument `name`, a Python document, as the core reads a file (same checks). What would
/// make a file corrupt is an `InvalidInputError` here, `` `state` is not an orchestrator
/// session: field `goal`: ... `` with `context["field"]` when the parser names one: the
/// argument is wrong, no file is. An unsafe `session_id` stays `InvalidKeyError`, another
/// `schema_version` `IncompatibleSchemaError`.
fn doc_from_py(value: &Obj<'_>, options: &ParseOptions) -> PyResult<OrchestratorSession> {
    let fast = fast_typed(value, options.max_document_bytes);
    if let Some(doc) = fast.and_then(|doc| valid_argument(doc, options)) {
        return Ok(doc);
    }
    parse_argument("state", &json_bytes("`state`", value)?, options).py()
}

/// The orchestrator session operations over a store.
#[pyclass(module = "session_state._native", name = "Orchestrator", frozen)]
#[derive(Debug)]
pub struct PyOrchestrator {
    inner: OrchestratorStore<AnyStore, SystemClock>,
}

handle_methods!(PyOrchestrator {
    [
        load(), start(), pause(), resume(), before_compression(), session_end(), rebuild_index(),
        record_save(),
    ],

    /// `Orchestrator(store, *, naive_offset_minutes=None, max_document_bytes=None)`: naive
    /// timestamps read at that offset from UTC (default UTC); documents read or written up to
    /// `max_document_bytes` (default 16 MiB; above it `InvalidInputError`, nothing written).
    #[new]
    #[pyo3(signature = (store, *, naive_offset_minutes = None, max_document_bytes = None))]
    fn new(
        store: &Obj<'_>,
        naive_offset_minutes: Option<&Obj<'_>>,
        max_document_bytes: Option<&Obj<'_>>,
    ) -> PyResult<Self> {
        // FixedOffset takes less than a day either way.
        let minutes = naive_offset_minutes.filter(|m| !m.is_none());
        let minutes = minutes.map(|m| args::bounded(m, "naive_offset_minutes", -1439, 1439));
        let options = StoreOptions {
            naive_offset_minutes: minutes.transpose()?.map(|m| i32::try_from(m).unwrap_or(0)),
            max_document_bytes: args::byte_limit(max_document_bytes, "max_document_bytes")?,
        };
        let inner = OrchestratorStore::new(store_arg(store)?, SystemClock)
            .with_git_head(staleness::head_of(store)?);
        let inner = options.apply(inner, "options").py()?;
        Ok(PyOrchestrator { inner })
    }

    /// `save(doc) -> (key, saved_doc)`.
    fn save<'py>(&self, py: Python<'py>, doc: &Obj<'py>) -> PyResult<(String, Obj<'py>)> {
        let mut doc = doc_from_py(doc, self.inner.options())?;
        let key = self.inner.save(&mut doc).py()?;
        Ok((key.as_str().to_owned(), to_py(py, &doc)?))
    }

    /// `save_stamp(doc) -> (path, updated)`: `save` returning only the new `updated` (the
    /// compatibility `save_session`, which sets it on the caller's dict).
    fn save_stamp(&self, doc: &Obj<'_>) -> PyResult<(PathBuf, String)> {
        let mut doc = doc_from_py(doc, self.inner.options())?;
        let key = self.inner.save(&mut doc).py()?;
        let updated = doc.updated.map(|t| t.to_string()).unwrap_or_default();
        Ok((key.as_str().into(), updated))
    }

    /// `load_raw() -> dict | None`: the current file's values as written (what `json.loads`
    /// gives) once they parse as a "1.0" document (same errors as `load`; the file this handle
    /// saved last was checked before it was written), for the compatibility `load_session`.
    fn load_raw<'py>(&self, py: Python<'py>) -> PyResult<Option<Obj<'py>>> {
        let key = current_key();
        let Some(bytes) = self.inner.store().read(&key).py()? else {
            return Ok(None);
        };
        self.inner.check(&key, &bytes).py()?;
        json_to_py(py, &bytes).map(Some)
    }

    #[pyo3(signature = (doc, replace = None))]
    fn archive(&self, doc: &Obj<'_>, replace: Option<&Obj<'_>>) -> PyResult<PathBuf> {
        let replace = flag(replace, "replace", false)?;
        let doc = doc_from_py(doc, self.inner.options())?;
        Ok(self.inner.archive(&doc, replace).py()?.as_str().into())
    }

    /// `list_history(limit=10, offset=0, status=None, full_scan=False) -> dict` (a page).
    /// `limit` and `offset` are ints from 0 up (`InvalidInputError` otherwise).
    #[pyo3(signature = (limit = None, offset = None, status = None, full_scan = None))]
    fn list_history<'py>(
        &self,
        py: Python<'py>,
        limit: Option<&Obj<'py>>,
        offset: Option<&Obj<'py>>,
        status: Option<&Obj<'py>>,
        full_scan: Option<&Obj<'py>>,
    ) -> Out<'py> {
        let full_scan = flag(full_scan, "full_scan", false)?;
        let status = args::opt_text(status, "status")?.map(|s| SessionStatus::parse(&s));
        let query = HistoryQuery {
            limit: limit.map_or(Ok(10), |l| args::count(l, "limit"))?,
            offset: offset.map_or(Ok(0), |o| args::count(o, "offset"))?,
            status: status.transpose().py()?,
        };
        if full_scan {
            self.inner.list_history_full_scan(&query).out(py)
        } else {
            self.inner.list_history(&query).out(py)
        }
    }

    fn move_to<'py>(&self, py: Python<'py>, status: &Obj<'py>) -> Out<'py> {
        let to = SessionStatus::parse(&text(status, "status")?).py()?;
        self.inner.move_to(to).out(py)
    }

    /// `complete(*, replace=False)`: all or nothing; `replace` overwrites an existing archive.
    #[pyo3(signature = (*, replace = None))]
    fn complete<'py>(&self, py: Python<'py>, replace: Option<&Obj<'py>>) -> Out<'py> {
        let (to, replace) = (SessionStatus::Complete, flag(replace, "replace", false)?);
        self.inner.move_to_with(to, replace).out(py)
    }

    /// `abort(*, replace=False)`: all or nothing; `replace` overwrites an existing archive.
    #[pyo3(signature = (*, replace = None))]
    fn abort<'py>(&self, py: Python<'py>, replace: Option<&Obj<'py>>) -> Out<'py> {
        let (to, replace) = (SessionStatus::Aborted, flag(replace, "replace", false)?);
        self.inner.move_to_with(to, replace).out(py)
    }

    /// `record_new(input, project, suffix=None) -> dict`: `input` is the core's `NewSession`.
    #[pyo3(signature = (input, project, suffix = None))]
    fn record_new<'py>(
        &self, input: &Obj<'py>, project: &Obj<'py>, suffix: Option<&Obj<'py>>,
    ) -> Out<'py> {
        let (py, input) = (input.py(), from_py::<NewSession>("", input)?);
        let suffix = args::opt_text(suffix, "suffix")?;
        self.inner.record_new(&input, from_py("project", project)?, suffix.as_deref()).out(py)
    }

    /// `recover(key=None) -> dict | None`: repairs a corrupt file (default: the current one).
    #[pyo3(signature = (key = None))]
    fn recover<'py>(&self, py: Python<'py>, key: Option<&Obj<'py>>) -> Out<'py> {
        self.inner
            .recover(&key_or(key, "key", CURRENT_KEY)?)
            .out(py)
    }

    #[pyo3(signature = (fix = None))]
    fn doctor<'py>(&self, py: Python<'py>, fix: Option<&Obj<'py>>) -> Out<'py> {
        self.inner.doctor(flag(fix, "fix", false)?).out(py)
    }

    /// `keep_corrupt_copy(key=None)`: the copy's key, or `None` when there is no file.
    #[pyo3(signature = (key = None))]
    fn keep_corrupt_copy(&self, key: Option<&Obj<'_>>) -> PyResult<Option<PathBuf>> {
        let copy = self
            .inner
            .keep_corrupt_copy(&key_or(key, "key", CURRENT_KEY)?)
            .py()?;
        Ok(copy.map(|k| k.as_str().into()))
    }
});

/// The recording verbs `name(input) -> dict`: `input` is the core's argument struct `Type`.
macro_rules! record_methods {
    ($($name:ident($input:ty)),* $(,)?) => {
        #[pymethods]
        impl PyOrchestrator {$(
            fn $name<'py>(&self, py: Python<'py>, input: &Obj<'py>) -> Out<'py> {
                self.inner.$name(&from_py::<$input>("", input)?).out(py)
            }
        )*}
    };
}

record_methods!(
    record_agent_start(AgentStart),
    record_agent_progress(AgentProgress),
    record_agent_done(AgentDone),
    record_agent_fail(AgentFail),
    record_decision(DecisionInput),
    record_task_add(TaskAdd),
    record_task_done(TaskDone),
    record_context(ContextInput),
);

/// `orchestrator_document(doc) -> dict`: the document checked and normalised as a save
/// writes it (timestamps RFC 3339 UTC, unknown fields kept).
#[pyfunction]
pub fn orchestrator_document<'py>(py: Python<'py>, doc: &Obj<'py>) -> Out<'py> {
    to_py(py, &doc_from_py(doc, &ParseOptions::default())?)
}

/// `resume_summary(doc, now=None) -> dict`: the "RESUMING SESSION" content as data.
#[pyfunction]
#[pyo3(signature = (doc, now = None))]
pub fn resume_summary<'py>(py: Python<'py>, doc: &Obj<'py>, now: Option<&Obj<'py>>) -> Out<'py> {
    let doc = doc_from_py(doc, &ParseOptions::default())?;
    to_py(py, &orchestrator::resume_summary(&doc, args::now(now)?))
}

/// `render_resume(doc, now=None) -> str`: the "RESUMING SESSION" markdown block.
#[pyfunction]
#[pyo3(signature = (doc, now = None))]
pub fn render_resume(doc: &Obj<'_>, now: Option<&Obj<'_>>) -> PyResult<String> {
    let doc = doc_from_py(doc, &ParseOptions::default())?;
    let summary = orchestrator::resume_summary(&doc, args::now(now)?);
    Ok(orchestrator::render_resume(&summary))
}

/// `salvage(data) -> dict`: every complete field of damaged bytes
/// (`{document, missing, replaced, partial, top_level_object, recovered_anything}`).
#[pyfunction]
pub fn salvage<'py>(py: Python<'py>, data: &Obj<'py>) -> Out<'py> {
    to_py(py, &orchestrator::salvage(args::bytes(data, "data")?))
}

/// `json_schema() -> dict`: the JSON Schema of the document.
#[pyfunction]
pub fn json_schema(py: Python<'_>) -> Out<'_> {
    to_py(py, &orchestrator::json_schema())
}
