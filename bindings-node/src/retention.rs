//! Fork, the history tree and retention for JavaScript (issue #21): the `OrchestratorStore`
//! methods `fork`, `historyTree` and `pruneHistory`, `AgentRegistry.prune` and
//! `TeamStore.prune`. Each options object is read into the core's serde type (snake_case
//! members, or JavaScript's camelCase: `olderThanDays`); a prune is a dry run unless
//! `apply: true`, and the plan it returns is the same either way.

use napi_derive::napi;
use session_state::orchestrator::{
    ForkOptions, HistoryTree, OrchestratorSession, PruneHistoryOptions,
};
use session_state::registry::PruneRegistryOptions;
use session_state::retention::PrunePlan;
use session_state::team::PruneTeamOptions;

use crate::args::{Any, Json, Options};
use crate::errors::Out;
use crate::orchestrator::OrchestratorStore;
use crate::registry::AgentRegistry;
use crate::team::TeamStore;

#[napi]
impl OrchestratorStore {
    /// Forks a session (default: the current one; `session_id`: an archived one) into a new
    /// current session recording `forked_from`; the original is archived as it is, never
    /// changed. Throws `already_exists` (hint `archive_current`) when another session is
    /// current, `not_found` when there is no such session.
    #[napi(
        ts_args_type = "options?: ForkOptions",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn fork(&self, options: Any<'_>) -> Out<OrchestratorSession> {
        run!(options: Options<ForkOptions> => self.inner.fork(&options.0))
    }

    /// Every session, each under the one it was forked from: `{ entries, skipped }`.
    #[napi(ts_return_type = "HistoryTree")]
    pub fn history_tree(&self) -> Out<HistoryTree> {
        Out(self.inner.history_tree())
    }

    /// Archived sessions matching every criterion given (`keep`, `older_than_days`,
    /// `status`; one at least), removed with their index records when `apply: true`.
    #[napi(
        ts_args_type = "options: PruneHistoryOptions",
        ts_return_type = "PrunePlan"
    )]
    pub fn prune_history(&self, options: Any<'_>) -> Out<PrunePlan> {
        run!(options: Options<PruneHistoryOptions> => self.inner.prune_history(&options.0))
    }
}

#[napi]
impl AgentRegistry {
    /// Agents last active more than `older_than_days` days ago (but `keep_agent_ids`), with
    /// every registry entry naming them, and the chains this leaves empty.
    #[napi(
        ts_args_type = "options: PruneRegistryOptions",
        ts_return_type = "PrunePlan"
    )]
    pub fn prune(&self, options: Any<'_>) -> Out<PrunePlan> {
        run!(options: Json<PruneRegistryOptions> => self.inner.prune(&options.0))
    }
}

#[napi]
impl TeamStore {
    /// The member files of `team` created more than `older_than_days` days ago.
    #[napi(
        ts_args_type = "team: string, options: PruneTeamOptions",
        ts_return_type = "PrunePlan"
    )]
    pub fn prune(&self, team: Any<'_>, options: Any<'_>) -> Out<PrunePlan> {
        run!(team: String, options: Json<PruneTeamOptions> => self.inner.prune(&team, &options.0))
    }
}
