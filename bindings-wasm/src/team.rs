//! `TeamStore` and the free functions `sessionFromConfig`, `toSpawnConfig`,
//! `parseBackendType`: the core's [`session_state::team`] (the `agent-teams` crate's per-agent
//! `SessionState` files, SPEC section 3) as JS. Parameter names are the JS names.
#![allow(non_snake_case)]

use chrono::{DateTime, Utc};
use session_state::team::{self as core, BackendType, SessionState, SpawnConfig};
use wasm_bindgen::prelude::*;

use crate::clock::JsClock;
use crate::convert::{Arg, Doc, Options, js_methods};
use crate::errors::{JsResult, invalid_input};
use crate::stores::AnyStore;

/// Team agent spawn state under `teams/{team}/sessions/` of a store. Time from `Date.now()`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct TeamStore {
    pub(crate) inner: core::TeamStore<AnyStore, JsClock>,
}

#[wasm_bindgen]
impl TeamStore {
    /// Team session files in `store`. Option `maxDocumentBytes`: the largest session file
    /// read (default 16 MiB).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Store")] store: &JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TeamStoreOptions")] options: &JsValue,
    ) -> JsResult<TeamStore> {
        let options = Options::<core::TeamStoreOptions>::arg(options, "options")?;
        let inner = core::TeamStore::new(AnyStore::arg(store, "store")?, JsClock);
        let inner = options.apply(inner);
        Ok(TeamStore { inner })
    }
}

js_methods!(TeamStore {
    #[doc = " Saves `state` as `teams/{team}/sessions/{state.name}.json` and returns the key."]
    fn save as save(&self, team: String = "string", state: SessionState = "SessionState")
        -> "string" => self.inner.save(&team, &state).map(|key| key.to_string());
    #[doc = " Records that `config` was spawned on `backend` now; returns the state written."]
    fn recordSpawn as record_spawn(&self, team: String = "string", config: SpawnConfig =
        "SpawnConfig", backend: BackendType = "BackendType") -> "SessionState" =>
        self.inner.record_spawn(&team, &config, backend);
    #[doc = " Merges `changes` into a saved member as `Object.assign`; returns the state written."]
    fn update as update(&self, team: String = "string", agent: String = "string", changes: Doc =
        "Partial<SessionState>") -> "SessionState" =>
        self.inner.update(&team, &agent, |state| state.merge_argument(&changes, "changes"));
    #[doc = " Sets the `metadata` entries given (`null` removes one), keeping the others, in one"]
    #[doc = " exclusive read-modify-write; returns the state written."]
    fn mergeMetadata as merge_metadata(&self, team: String = "string", agent: String = "string",
        entries: Doc = "Record<string, string | null>") -> "SessionState" =>
        self.inner.merge_metadata_argument(&team, &agent, &entries, "entries");
    #[doc = " Replaces a saved member with `state`; returns the state written."]
    fn replace as replace(&self, team: String = "string", agent: String = "string", state:
        SessionState = "SessionState") -> "SessionState" =>
        self.inner.replace(&team, &agent, &state).map_err(|e| e.below("state"));
    #[doc = " Loads one member. Throws `not_found`, `corrupt_state`, `invalid_key`."]
    fn load as load(&self, team: String = "string", agent: String = "string") -> "SessionState";
    #[doc = " Deletes one member's file; `true` if it existed."]
    fn delete as delete(&self, team: String = "string", agent: String = "string") -> "boolean";
    #[doc = " Every member of `team`, sorted by agent name, with the files skipped."]
    fn list as list(&self, team: String = "string") -> "TeamListing";
    #[doc = " Every team under `teams/`."]
    fn listTeams as list_teams(&self) -> "TeamSummary[]";
    #[doc = " What re-spawning `team` would do, member by member; reads only."]
    fn resumePlan as resume_plan(&self, team: String = "string") -> "ResumePlan";
});

js_methods!(fn {
    #[doc = " The state of a freshly spawned agent at `now` (default `Date.now()`)."]
    fn sessionFromConfig as session_from_config(config: SpawnConfig = "SpawnConfig", backend:
        BackendType = "BackendType"; now: DateTime<Utc> = "string | Date") -> "SessionState" =>
        Ok(SessionState::from_config(&config, backend, now));
    #[doc = " The config to re-spawn a saved agent with (no delegations)."]
    fn toSpawnConfig as to_spawn_config(state: SessionState = "SessionState") -> "SpawnConfig" =>
        Ok(state.to_spawn_config());
    #[doc = " The backend named by a `backendType` string; throws `invalid_input` for an unknown one."]
    fn parseBackendType as parse_backend_type(backendType: BackendType = "string")
        -> "BackendType" => Ok(backendType.as_str());
});

/// A session state argument, read by the core's `SessionState::from_json`.
impl Arg for SessionState {
    fn arg(value: &JsValue, _: &str) -> JsResult<Self> {
        let bytes = serde_json::to_vec(&Doc::arg(value, "state")?);
        let bytes = bytes.map_err(|e| invalid_input(e.to_string()))?;
        Ok(SessionState::from_json(&bytes)?)
    }
}

/// A backend argument: `claude-code`, `codex` or `gemini-cli`.
impl Arg for BackendType {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        Ok(String::arg(value, what)?.parse()?)
    }
}

/// A spawn config argument, by the core's `SpawnConfig::from_argument`.
impl Arg for SpawnConfig {
    fn arg(value: &JsValue, _: &str) -> JsResult<Self> {
        let config = Doc::arg(value, "config")?;
        Ok(SpawnConfig::from_argument(config, "config")?)
    }
}
