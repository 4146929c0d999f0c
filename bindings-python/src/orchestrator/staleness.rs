//! How stale a resumed session is: the resume summary with its options, and the project's git
//! HEAD a handle over a `FileStore` records at each save.

use chrono::{DateTime, Utc};
use pyo3::prelude::*;
use session_state::Clock;
use session_state::orchestrator::{self, GitHead, ParseOptions, ResumeOptions, ResumeSummary};
use session_state_fs::SystemClock;

use super::{PyOrchestrator, doc_from_py};
use crate::args::{self, Json, py_methods};
use crate::convert::{Obj, Out, to_py};
use crate::stores::PyFileStore;

/// The git HEAD of the project a `FileStore` holds (its root), as the CLI records it; empty
/// for other stores.
#[allow(clippy::unnecessary_wraps)] // the constructor's `?` takes a `PyResult`
pub fn head_of(store: &Obj<'_>) -> PyResult<GitHead> {
    let file = store.cast::<PyFileStore>().ok();
    Ok(file.map_or_else(GitHead::default, |f| {
        session_state_fs::git_head(f.get().inner.root())
    }))
}

py_methods!(PyOrchestrator {
    /// `resume_summary(options=None, now=None) -> dict | None`: the current session's resume
    /// summary with `stale` under `options`; `git_head` defaults to the HEAD this handle
    /// records at each save.
    fn resume_summary(&self; options: Json<ResumeOptions>, now: DateTime<Utc>) => {
        let mut options = options.map(|o| o.0).unwrap_or_default();
        options.git_head = options.git_head.or_else(|| self.inner.git_head().cloned());
        let now = now.unwrap_or_else(|| SystemClock.now());
        let doc = self.inner.load();
        doc.map(|doc| doc.map(|doc| orchestrator::resume_summary_with(&doc, now, &options)))
    };
});

/// The summary of the document `doc` under `options` (`{stale_after_hours?, git_head?}`,
/// `None` for the defaults) at `now`.
fn summary_with(
    doc: &Obj<'_>,
    options: Option<&Obj<'_>>,
    now: Option<&Obj<'_>>,
) -> PyResult<ResumeSummary> {
    let doc = doc_from_py(doc, &ParseOptions::default())?;
    let options = args::opt::<Json<ResumeOptions>>(options, "options")?;
    let options = options.map(|o| o.0).unwrap_or_default();
    Ok(orchestrator::resume_summary_with(
        &doc,
        args::now(now)?,
        &options,
    ))
}

/// `resume_summary_with(doc, options=None, now=None) -> dict`: the resume summary of `doc`
/// with `stale` under `options` (`{stale_after_hours?, git_head?}`).
#[pyfunction]
#[pyo3(signature = (doc, options = None, now = None))]
pub fn resume_summary_with<'py>(
    py: Python<'py>,
    doc: &Obj<'py>,
    options: Option<&Obj<'py>>,
    now: Option<&Obj<'py>>,
) -> Out<'py> {
    to_py(py, &summary_with(doc, options, now)?)
}

/// `render_resume_with(doc, options=None, now=None) -> str`: the "RESUMING SESSION" block of
/// `doc` with a line for each note of `stale` under `options`.
#[pyfunction]
#[pyo3(signature = (doc, options = None, now = None))]
pub fn render_resume_with(
    doc: &Obj<'_>,
    options: Option<&Obj<'_>>,
    now: Option<&Obj<'_>>,
) -> PyResult<String> {
    Ok(orchestrator::render_resume(&summary_with(
        doc, options, now,
    )?))
}
