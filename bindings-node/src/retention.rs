//! Fork, the history tree and retention for JavaScript (issue #21): `OrchestratorStore`'s
//! `fork`, `historyTree` and `pruneHistory`, `AgentRegistry.prune` and `TeamStore.prune`
//! (options in snake_case or camelCase: `olderThanDays`). A prune is a dry run unless
//! `apply: true`, and returns the same plan either way.

use napi_derive::napi;
use session_state::orchestrator::{
    ForkOptions, HistoryTree, OrchestratorSession, PruneHistoryOptions,
};
use session_state::registry::PruneRegistryOptions;
use session_state::retention::PrunePlan;
use session_state::team::PruneTeamOptions;

use crate::args::{Json, Options};
use crate::orchestrator::OrchestratorStore;
use crate::registry::AgentRegistry;
use crate::team::TeamStore;

core_methods!(OrchestratorStore:
    #[doc = " Forks a session (default: the current one; `session_id`: an archived one, left as it is)"]
    #[doc = " into a new current session recording `forked_from`. Throws `already_exists` (hint"]
    #[doc = " `archive_current`) when another session is current, `not_found` for no such session."]
    fork(options: Options<ForkOptions>) -> OrchestratorSession
        = "options?: ForkOptions", "OrchestratorSession";
    #[doc = " Every session, each under the one it was forked from: `{ entries, skipped }`."]
    history_tree() -> HistoryTree = "", "HistoryTree";
    #[doc = " Archived sessions matching every criterion given (`keep`, `older_than_days`,"]
    #[doc = " `status`; one at least), removed with their index records when `apply: true`."]
    prune_history(options: Options<PruneHistoryOptions>) -> PrunePlan
        = "options: PruneHistoryOptions", "PrunePlan";
);

core_methods!(AgentRegistry:
    #[doc = " Agents last active more than `older_than_days` days ago (but `keep_agent_ids`), with"]
    #[doc = " every registry entry naming them, and the chains this leaves empty."]
    prune(options: Json<PruneRegistryOptions>) -> PrunePlan
        = "options: PruneRegistryOptions", "PrunePlan";
);

core_methods!(TeamStore:
    #[doc = " The member files of `team` created more than `older_than_days` days ago."]
    prune(team: String, options: Json<PruneTeamOptions>) -> PrunePlan
        = "team: string, options: PruneTeamOptions", "PrunePlan";
);
