//! The history operations of `Orchestrator` beyond listing: fork, the history tree and the
//! history prune. Each converts its argument dict into the core's struct and the result back.

use pyo3::prelude::*;
use session_state::orchestrator::{ForkOptions, PruneHistoryOptions};

use super::PyOrchestrator;
use crate::convert::{Obj, Out, ToPyData, from_py};

/// The argument `name`, a dict, or the struct's defaults for `None`.
fn options_or_default<T: serde::de::DeserializeOwned + Default>(
    name: &str,
    value: Option<&Obj<'_>>,
) -> PyResult<T> {
    match value.filter(|v| !v.is_none()) {
        Some(value) => from_py(name, value),
        None => Ok(T::default()),
    }
}

#[pymethods]
impl PyOrchestrator {
    /// `fork(options=None) -> dict`: `options` is `{session_id?, new_id?, suffix?,
    /// archive_current?}`; returns the new current session.
    #[pyo3(signature = (options = None))]
    fn fork<'py>(&self, py: Python<'py>, options: Option<&Obj<'py>>) -> Out<'py> {
        let options: ForkOptions = options_or_default("options", options)?;
        self.inner.fork(&options).out(py)
    }

    /// `history_tree() -> dict`: `{entries: [{depth, id, goal, status, created, forked_from,
    /// current}], skipped}`.
    fn history_tree<'py>(&self, py: Python<'py>) -> Out<'py> {
        self.inner.history_tree().out(py)
    }

    /// `prune_history(options) -> dict`: `options` is `{keep?, older_than_days?, status?,
    /// apply?}`; returns the plan `{applied, removed, kept}`.
    fn prune_history<'py>(&self, py: Python<'py>, options: &Obj<'py>) -> Out<'py> {
        let options: PruneHistoryOptions = from_py("options", options)?;
        self.inner.prune_history(&options).out(py)
    }
}
