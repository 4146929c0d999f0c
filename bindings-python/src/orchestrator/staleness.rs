//! How stale a resumed session is: the resume summary with its options, and the project's git
//! HEAD a handle over a `FileStore` records at each save.

use chrono::{DateTime, Utc};
use pyo3::prelude::*;
use session_state::Clock;
use session_state::orchestrator::{self, GitHead, OrchestratorSession, ResumeOptions};
use session_state_fs::SystemClock;

use super::PyOrchestrator;
use crate::args::{Json, py_functions, py_methods};
use crate::convert::Obj;
use crate::stores::PyFileStore;

/// The git HEAD of the project a `FileStore` holds (its root), as the CLI records it; empty
/// for other stores.
pub fn head_of(store: &Obj<'_>) -> GitHead {
    let file = store.cast::<PyFileStore>().ok();
    file.map_or_else(GitHead::default, |f| {
        session_state_fs::git_head(f.get().inner.root())
    })
}

py_methods!(PyOrchestrator {
    /// `resume_summary(options=None, now=None) -> dict | None`: the current session's resume
    /// summary with `stale` under `options`; `git_head` defaults to the HEAD this handle
    /// records at each save.
    fn resume_summary(&self; options: Json<ResumeOptions> = Json::default(),
        now: DateTime<Utc> = SystemClock.now()) => {
        let mut options = options.0;
        options.git_head = options.git_head.or_else(|| self.inner.git_head().cloned());
        let doc = self.inner.load();
        doc.map(|doc| doc.map(|doc| orchestrator::resume_summary_with(&doc, now, &options)))
    };
});

py_functions! {
    /// `resume_summary_with(doc, options=None, now=None) -> dict`: the resume summary of `doc`
    /// with `stale` under `options` (`{stale_after_hours?, git_head?}`).
    fn resume_summary_with(doc: OrchestratorSession; options: Json<ResumeOptions> =
        Json::default(), now: DateTime<Utc> = SystemClock.now()) =>
        Ok(orchestrator::resume_summary_with(&doc, now, &options.0));

    /// `render_resume_with(doc, options=None, now=None) -> str`: the "RESUMING SESSION" block of
    /// `doc` with a line for each note of `stale` under `options`.
    fn render_resume_with(doc: OrchestratorSession; options: Json<ResumeOptions> =
        Json::default(), now: DateTime<Utc> = SystemClock.now()) =>
        Ok(orchestrator::render_resume(&orchestrator::resume_summary_with(&doc, now, &options.0)));
}
