//! The prunes of the three handles (`OrchestratorStore.pruneHistory`, `AgentRegistry.prune`,
//! `TeamStore.prune`): the criteria object read as the core's options, the core's
//! `PrunePlan` back. A dry run unless `apply: true`.

use session_state::orchestrator::PruneHistoryOptions;
use session_state::registry::PruneRegistryOptions;
use session_state::team::PruneTeamOptions;

use crate::convert::{Json, Options, js_methods};
use crate::orchestrator::OrchestratorStore;
use crate::registry::AgentRegistry;
use crate::team::TeamStore;

js_methods!(OrchestratorStore {
    #[doc = " Removes (`apply: true`; else lists) archives by `keep`, `older_than_days`, `status`."]
    fn pruneHistory as prune_history(&self, options: Options<PruneHistoryOptions> =
        "PruneHistoryOptions") -> "PrunePlan" => self.inner.prune_history(&options.0);
});

js_methods!(AgentRegistry {
    #[doc = " Removes (`apply: true`; else lists) agents inactive over `older_than_days` days."]
    fn prune as prune(&self, options: Json<PruneRegistryOptions> = "PruneRegistryOptions")
        -> "PrunePlan" => self.inner.prune(&options.0);
});

js_methods!(TeamStore {
    #[doc = " Removes (`apply: true`; else lists) members created over `older_than_days` days ago."]
    fn prune as prune(&self, team: String = "string", options: Json<PruneTeamOptions> =
        "PruneTeamOptions") -> "PrunePlan" => self.inner.prune(&team, &options.0);
});
