//! The history operations of `Orchestrator` beyond listing: fork, the history tree and the
//! history prune. Each converts its argument dict into the core's struct and the result back.

use pyo3::prelude::*;
use session_state::orchestrator::{ForkOptions, PruneHistoryOptions};

use super::PyOrchestrator;
use crate::args::{Json, py_methods};

py_methods!(PyOrchestrator {
    /// `fork(options=None) -> dict`: `options` is `{session_id?, new_id?, suffix?,
    /// archive_current?}`; returns the new current session.
    fn fork(&self; options: Json<ForkOptions> = Json::default()) => self.inner.fork(&options.0);

    /// `history_tree() -> dict`: `{entries: [{depth, id, goal, status, created, forked_from,
    /// current}], skipped}`.
    fn history_tree(&self) => self.inner.history_tree();

    /// `prune_history(options) -> dict`: `options` is `{keep?, older_than_days?, status?,
    /// apply?}`; returns the plan `{applied, removed, kept}`.
    fn prune_history(&self, options: Json<PruneHistoryOptions>) =>
        self.inner.prune_history(&options.0);
});
