//! `session_state.orchestrator`, native half: the orchestrator session operations
//! (`OrchestratorStore`) and the resume summary, documents as plain dicts.

mod ownership;

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use pyo3::prelude::*;
use session_state::orchestrator::{
    self, AgentDone, AgentFail, AgentProgress, AgentStart, ContextInput, DecisionInput,
    ForkOptions, GitHead, HistoryQuery, NewSession, OrchestratorSession, OrchestratorStore,
    ParseOptions, Project, PruneHistoryOptions, ResumeOptions, SessionStatus, StoreOptions,
    TaskAdd, TaskDone, current_key, parse_argument, valid_argument,
};
use session_state::{Clock, Key, Store};
use session_state_fs::{SystemClock, beside};

use crate::args::{self, Arg, Bounded, Fields, Json, py_functions, py_methods, py_new};
use crate::convert::{Native, Obj, fast_typed, json_bytes, json_to_py};
use crate::errors::IntoPyResult;
use crate::stores::{AnyStore, PyFileStore, helper_store, is_handed_back};

/// A Python document read as the core reads a file (same checks), except that what would make
/// a file corrupt is an `InvalidInputError` about `state` (the core's `parse_argument`).
fn doc_from_py(value: &Obj<'_>, options: &ParseOptions) -> PyResult<OrchestratorSession> {
    let fast = fast_typed(value, options.max_document_bytes);
    if let Some(doc) = fast.and_then(|doc| valid_argument(doc, options)) {
        return Ok(doc);
    }
    parse_argument("state", &json_bytes("`state`", value)?, options).py()
}

/// A document argument of the free functions: [`doc_from_py`] with the default options.
impl Arg<'_> for OrchestratorSession {
    fn arg(value: &Obj<'_>, _: &str) -> PyResult<Self> {
        doc_from_py(value, &ParseOptions::default())
    }
}

/// A store, with the git HEAD of the project a `FileStore` holds (its root) as the CLI
/// records it at each save (empty for other stores), and the store for the helper thread
/// ([`helper_store`]).
struct HeadedStore(AnyStore, GitHead, Option<AnyStore>);

impl Arg<'_> for HeadedStore {
    fn arg(value: &Obj<'_>, _: &str) -> PyResult<Self> {
        let head = |f: &Bound<'_, PyFileStore>| session_state_fs::git_head(f.get().inner.root());
        let (store, file) = (
            AnyStore::arg(value, "store")?,
            value.cast::<PyFileStore>().ok(),
        );
        let helper = helper_store(value);
        Ok(HeadedStore(
            store,
            file.map_or_else(GitHead::default, head),
            helper,
        ))
    }
}

/// The orchestrator session operations over a store.
#[pyclass(module = "session_state._native", name = "Orchestrator", frozen)]
#[derive(Debug)]
pub struct PyOrchestrator {
    inner: OrchestratorStore<AnyStore, SystemClock>,
    /// The store, for a commit on the helper thread ([`helper_store`]).
    helper: Option<AnyStore>,
}

py_new!(PyOrchestrator {
    /// `Orchestrator(store, *, naive_offset_minutes=None, max_document_bytes=None)`: naive
    /// timestamps read at that offset from UTC (default UTC; FixedOffset takes less than a day
    /// either way); documents read or written up to `max_document_bytes` (default 16 MiB; above
    /// it `InvalidInputError`, nothing written).
    fn new(store: HeadedStore; *, naive_offset_minutes: Bounded<-1439, 1439>,
        max_document_bytes: u64) => {
        let options = StoreOptions {
            naive_offset_minutes: naive_offset_minutes.map(|m| m.0),
            max_document_bytes,
        };
        let inner = OrchestratorStore::new(store.0, SystemClock).with_git_head(store.1);
        let inner = options.apply(inner, "options").py()?;
        Ok(PyOrchestrator { inner, helper: store.2 })
    };

    /// `save(doc) -> (key, saved_doc)`.
    fn save<'py>(&self, py: Python<'py>, doc: &Obj<'py>) -> PyResult<(String, Obj<'py>)> {
        let mut doc = doc_from_py(doc, self.inner.options())?;
        let pending = self.inner.prepare_save(&mut doc).py()?;
        let build = || json_to_py(py, pending.bytes());
        // A store doing its own I/O commits on a second thread while this one builds the
        // saved document's values from its text; handed back when it would wait for a lock.
        let built = if let Some(helper) = &self.helper {
            let (committed, built) = beside(|| pending.commit(helper), build);
            match committed {
                // Nothing written yet: a build that failed (Ctrl-C) ends the save here.
                Err(e) if is_handed_back(&e) => {
                    let built = built?;
                    pending.commit(self.inner.store()).py()?;
                    Ok(built)
                }
                committed => {
                    committed.py()?;
                    built
                }
            }
        } else {
            pending.commit(self.inner.store()).py()?;
            build()
        };
        // Committed: the handle's own file, whatever the build gave.
        self.inner.saved(pending);
        Ok((current_key().to_string(), built?))
    }

    /// `save_stamp(doc) -> (path, updated)`: `save` returning only the new `updated` (the
    /// compatibility `save_session`, which sets it on the caller's dict).
    fn save_stamp(&self, doc: &Obj<'_>) -> PyResult<(PathBuf, String)> {
        let mut doc = doc_from_py(doc, self.inner.options())?;
        let key = self.inner.save(&mut doc).py()?;
        let updated = doc.updated.map(|t| t.to_string());
        Ok((PathBuf::from(key.as_str()), updated.unwrap_or_default()))
    }

    /// `load_raw() -> dict | None`: the current file's values as written (as `json.loads` gives
    /// them) once they parse as a document (errors as `load`), for the compatibility layer.
    fn load_raw<'py>(&self, py: Python<'py>) -> PyResult<Option<Obj<'py>>> {
        let key = current_key();
        let Some(bytes) = self.inner.store().read(&key).py()? else {
            return Ok(None);
        };
        if !self.inner.needs_check(&key, &bytes).py()? {
            return json_to_py(py, &bytes).map(Some);
        }
        // Another writer's file: the core's parse (no Python in it, no lock a saving thread
        // holds) runs on a helper thread while this one builds the dict; its error, if any,
        // is the one raised.
        let (checked, built) = beside(
            || self.inner.parse(&key, &bytes).map(drop),
            || json_to_py(py, &bytes),
        );
        checked.py()?;
        built.map(Some)
    }

    #[pyo3(signature = (doc, replace = None))]
    fn archive(&self, doc: &Obj<'_>, replace: Option<&Obj<'_>>) -> PyResult<PathBuf> {
        let replace = args::opt(replace, "replace")?.unwrap_or(false);
        let doc = doc_from_py(doc, self.inner.options())?;
        Ok(PathBuf::from(self.inner.archive(&doc, replace).py()?.as_str()))
    }
});

py_methods!(PyOrchestrator {
    [
        load(), start(), pause(), resume(), before_compression(), session_end(), rebuild_index(),
        record_save(), history_tree(), prune_history(options: Json<PruneHistoryOptions>),
        // The recording verbs `name(input) -> dict`: `input` is the core's argument struct.
        record_agent_start(input: Fields<AgentStart>),
        record_agent_progress(input: Fields<AgentProgress>),
        record_agent_done(input: Fields<AgentDone>), record_agent_fail(input: Fields<AgentFail>),
        record_decision(input: Fields<DecisionInput>), record_task_add(input: Fields<TaskAdd>),
        record_task_done(input: Fields<TaskDone>), record_context(input: Fields<ContextInput>),
    ],

    /// `list_history(limit=10, offset=0, status=None, full_scan=False) -> dict` (a page).
    fn list_history(&self; limit: usize = 10, offset: usize = 0, status: SessionStatus,
        full_scan: bool = false) => {
        let query = HistoryQuery {
            limit,
            offset,
            status,
        };
        if full_scan {
            self.inner.list_history_full_scan(&query)
        } else {
            self.inner.list_history(&query)
        }
    };

    /// `fork(options=None) -> dict`: the new current session.
    fn fork(&self; options: Json<ForkOptions> = Json::default()) => self.inner.fork(&options.0);

    /// `resume_summary(options=None, now=None) -> dict | None`: the current session's, `git_head`
    /// by default the HEAD this handle records at each save.
    fn resume_summary(&self; options: Json<ResumeOptions> = Json::default(),
        now: DateTime<Utc> = SystemClock.now()) => {
        let mut options = options.0;
        options.git_head = options.git_head.or_else(|| self.inner.git_head().cloned());
        let doc = self.inner.load();
        doc.map(|doc| doc.map(|doc| orchestrator::resume_summary_with(&doc, now, &options)))
    };

    fn move_to(&self, status: SessionStatus) => self.inner.move_to(status);

    /// `complete(*, replace=False)`: all or nothing; `replace` overwrites an existing archive.
    fn complete(&self; *, replace: bool = false) =>
        self.inner.move_to_with(SessionStatus::Complete, replace);

    /// `abort(*, replace=False)`: all or nothing; `replace` overwrites an existing archive.
    fn abort(&self; *, replace: bool = false) =>
        self.inner.move_to_with(SessionStatus::Aborted, replace);

    /// `record_new(input, project, suffix=None) -> dict`: `input` is the core's `NewSession`.
    fn record_new(&self, input: Fields<NewSession>, project: Json<Project>; suffix: String) =>
        self.inner.record_new(&input.0, project.0, suffix.as_deref());

    /// `recover(key=None) -> dict | None`: repairs a corrupt file (default: the current one).
    fn recover(&self; key: Key = current_key()) => self.inner.recover(&key);

    fn doctor(&self; fix: bool = false) => self.inner.doctor(fix);

    /// `keep_corrupt_copy(key=None)`: the copy's key, or `None` when there is no file.
    fn keep_corrupt_copy(&self; key: Key = current_key()) => self.inner.keep_corrupt_copy(&key)
        .map(|copy| Native(copy.map(|k| PathBuf::from(k.as_str()))));
});

py_functions! {
    /// `orchestrator_document(doc) -> dict`: the document checked and normalised as a save
    /// writes it (timestamps RFC 3339 UTC, unknown fields kept).
    fn orchestrator_document(doc: OrchestratorSession) => Ok(doc);

    /// `resume_summary(doc, now=None) -> dict`: the "RESUMING SESSION" content as data.
    fn resume_summary(doc: OrchestratorSession; now: DateTime<Utc> = SystemClock.now()) =>
        Ok(orchestrator::resume_summary(&doc, now));

    /// `render_resume(doc, now=None) -> str`: the "RESUMING SESSION" markdown block.
    fn render_resume(doc: OrchestratorSession; now: DateTime<Utc> = SystemClock.now()) =>
        Ok(orchestrator::render_resume(&orchestrator::resume_summary(&doc, now)));

    /// `resume_summary_with(doc, options=None, now=None) -> dict`: with `stale` under `options`.
    fn resume_summary_with(doc: OrchestratorSession; options: Json<ResumeOptions> =
        Json::default(), now: DateTime<Utc> = SystemClock.now()) =>
        Ok(orchestrator::resume_summary_with(&doc, now, &options.0));

    /// `render_resume_with(doc, options=None, now=None) -> str`: with `stale` under `options`.
    fn render_resume_with(doc: OrchestratorSession; options: Json<ResumeOptions> =
        Json::default(), now: DateTime<Utc> = SystemClock.now()) =>
        Ok(orchestrator::render_resume(&orchestrator::resume_summary_with(&doc, now, &options.0)));

    /// `salvage(data) -> dict`: every complete field of damaged bytes.
    fn salvage(data: &[u8]) => Ok(orchestrator::salvage(data));

    /// `json_schema() -> dict`: the JSON Schema of the document.
    fn json_schema() => Ok(orchestrator::json_schema());
}
