//! How stale a resumed session is: the resume summary with its options, and the project's git
//! HEAD a handle over a `FileStore` records at each save.

use pyo3::prelude::*;
use session_state::orchestrator::{self, GitHead, ParseOptions, ResumeOptions};

use super::{PyOrchestrator, doc_from_py};
use crate::args;
use crate::convert::{Obj, Out, from_py, to_py};
use crate::errors::IntoPyResult;
use crate::stores::PyFileStore;

/// The git HEAD of the project a `FileStore` holds (its root), as the CLI records it; empty
/// for other stores.
pub fn head_of(store: &Obj<'_>) -> PyResult<GitHead> {
    if store.cast::<PyFileStore>().is_err() {
        return Ok(GitHead::default());
    }
    let root: std::path::PathBuf = store.getattr("root")?.extract()?;
    Ok(session_state_fs::git_head(&root))
}

/// The argument `options` (`{stale_after_hours?, git_head?}`), `None` for the defaults.
fn resume_options(options: Option<&Obj<'_>>) -> PyResult<ResumeOptions> {
    match options.filter(|o| !o.is_none()) {
        Some(options) => from_py("options", options),
        None => Ok(ResumeOptions::default()),
    }
}

#[pymethods]
impl PyOrchestrator {
    /// `resume_summary(options=None, now=None) -> dict | None`: the current session's resume
    /// summary with `stale` under `options`; `git_head` defaults to the HEAD this handle
    /// records at each save.
    #[pyo3(signature = (options = None, now = None))]
    fn resume_summary<'py>(
        &self,
        py: Python<'py>,
        options: Option<&Obj<'py>>,
        now: Option<&Obj<'py>>,
    ) -> Out<'py> {
        let mut options = resume_options(options)?;
        if options.git_head.is_none() {
            options.git_head = self.inner.git_head().cloned();
        }
        let now = args::now(now)?;
        let summary = self.inner.load().py()?;
        let summary = summary.map(|doc| orchestrator::resume_summary_with(&doc, now, &options));
        to_py(py, &summary)
    }
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
    let doc = doc_from_py(doc, &ParseOptions::default())?;
    let options = resume_options(options)?;
    to_py(
        py,
        &orchestrator::resume_summary_with(&doc, args::now(now)?, &options),
    )
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
    let doc = doc_from_py(doc, &ParseOptions::default())?;
    let options = resume_options(options)?;
    let summary = orchestrator::resume_summary_with(&doc, args::now(now)?, &options);
    Ok(orchestrator::render_resume(&summary))
}
