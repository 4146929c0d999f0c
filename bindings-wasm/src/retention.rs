//! The prunes of the three handles (`OrchestratorStore.pruneHistory`, `AgentRegistry.prune`,
//! `TeamStore.prune`): the criteria object read as the core's options, the core's
//! `PrunePlan` back. A dry run unless `apply: true`.

use session_state::orchestrator::PruneHistoryOptions;
use session_state::registry::PruneRegistryOptions;
use session_state::team::PruneTeamOptions;
use wasm_bindgen::prelude::*;

use crate::convert::{Text, from_js, options_arg, to_js};
use crate::errors::JsResult;
use crate::orchestrator::OrchestratorStore;
use crate::registry::AgentRegistry;
use crate::team::TeamStore;

#[wasm_bindgen]
impl OrchestratorStore {
    /// Removes (with `apply: true`; else lists) the archived sessions matching the criteria
    /// `keep`, `older_than_days`, `status`.
    #[wasm_bindgen(js_name = pruneHistory, unchecked_return_type = "PrunePlan")]
    pub fn prune_history(
        &self,
        #[wasm_bindgen(unchecked_param_type = "PruneHistoryOptions")] options: &JsValue,
    ) -> JsResult<JsValue> {
        let options: PruneHistoryOptions = options_arg(options, "options")?;
        to_js(&self.inner.prune_history(&options)?)
    }
}

#[wasm_bindgen]
impl AgentRegistry {
    /// Removes (with `apply: true`; else lists) the agents inactive for more than
    /// `older_than_days` days, with their entries, and the chains left empty.
    #[wasm_bindgen(unchecked_return_type = "PrunePlan")]
    pub fn prune(
        &self,
        #[wasm_bindgen(unchecked_param_type = "PruneRegistryOptions")] options: &JsValue,
    ) -> JsResult<JsValue> {
        let options: PruneRegistryOptions = from_js(options, "options")?;
        to_js(&self.inner.prune(&options)?)
    }
}

#[wasm_bindgen]
impl TeamStore {
    /// Removes (with `apply: true`; else lists) the members of `team` created more than
    /// `older_than_days` days ago.
    #[wasm_bindgen(unchecked_return_type = "PrunePlan")]
    pub fn prune(
        &self,
        team: &Text,
        #[wasm_bindgen(unchecked_param_type = "PruneTeamOptions")] options: &JsValue,
    ) -> JsResult<JsValue> {
        let team = team.get("team")?;
        let options: PruneTeamOptions = from_js(options, "options")?;
        to_js(&self.inner.prune(&team, &options)?)
    }
}
