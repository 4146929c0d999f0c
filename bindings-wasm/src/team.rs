//! `TeamStore` and the free functions `sessionFromConfig`, `toSpawnConfig`,
//! `parseBackendType`: the core's [`session_state::team`] (the `agent-teams` crate's per-agent
//! `SessionState` files, SPEC section 3) as JS. Parameter names are the JS names.
#![allow(non_snake_case)]

use session_state::team::{self as core, BackendType, SessionState, SpawnConfig};
use wasm_bindgen::prelude::*;

use crate::clock::JsClock;
use crate::convert::{
    Arg, ConfigArg, Doc, StateArg, StoreArg, Text, document_bytes, document_from_js, instant_arg,
    js_methods, options_arg, string_arg, string_methods, to_js,
};
use crate::errors::JsResult;
use crate::stores::{AnyStore, store_arg};

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
        store: &StoreArg,
        #[wasm_bindgen(unchecked_optional_param_type = "TeamStoreOptions")] options: &JsValue,
    ) -> JsResult<TeamStore> {
        let options: core::TeamStoreOptions = options_arg(options, "options")?;
        let inner = core::TeamStore::new(store_arg(store)?, JsClock);
        Ok(TeamStore {
            inner: options.apply(inner),
        })
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
    #[doc = " Changes a saved member in one read-modify-write, `changes` merged as `Object.assign`"]
    #[doc = " (the core's `SessionState::merge_argument`); returns the state written."]
    fn update as update(&self, team: String = "string", agent: String = "string", changes: Doc =
        "Partial<SessionState>") -> "SessionState" =>
        self.inner.update(&team, &agent, |state| state.merge_argument(&changes, "changes"));
    #[doc = " Replaces a saved member with `state` in one read-modify-write (the core's"]
    #[doc = " `TeamStore::replace`); returns the state written."]
    fn replace as replace(&self, team: String = "string", agent: String = "string", state:
        SessionState = "SessionState") -> "SessionState" =>
        self.inner.replace(&team, &agent, &state).map_err(|e| e.below("state"));
});

string_methods!(TeamStore:
    #[doc = " Loads one member. Throws `not_found`, `corrupt_state`, `invalid_key`."]
    load(team, agent) -> "SessionState" = load;
    #[doc = " Deletes one member's file; `true` if it existed."]
    delete(team, agent) -> "boolean" = delete;
    #[doc = " Every member of `team`, sorted by agent name, with the files skipped."]
    list(team) -> "TeamListing" = list;
    #[doc = " Every team under `teams/`."]
    listTeams() -> "TeamSummary[]" = list_teams;
    #[doc = " What re-spawning `team` would do, member by member; reads only."]
    resumePlan(team) -> "ResumePlan" = resume_plan;
);

/// The state of a freshly spawned agent at `now` (default `Date.now()`).
#[wasm_bindgen(js_name = sessionFromConfig, unchecked_return_type = "SessionState")]
pub fn session_from_config(
    config: &ConfigArg,
    #[wasm_bindgen(unchecked_param_type = "BackendType")] backend: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string | Date")] now: &JsValue,
) -> JsResult<JsValue> {
    let (config, backend) = (
        SpawnConfig::arg(config, "config")?,
        BackendType::arg(backend, "backend")?,
    );
    to_js(&SessionState::from_config(
        &config,
        backend,
        instant_arg(now, "now")?,
    ))
}

/// The config to re-spawn a saved agent with (no delegations).
#[wasm_bindgen(js_name = toSpawnConfig, unchecked_return_type = "SpawnConfig")]
pub fn to_spawn_config(state: &StateArg) -> JsResult<JsValue> {
    to_js(&SessionState::arg(state, "state")?.to_spawn_config())
}

/// The backend named by a `backendType` string; throws `invalid_input` for an unknown one.
#[wasm_bindgen(js_name = parseBackendType, unchecked_return_type = "BackendType")]
pub fn parse_backend_type(backendType: &Text) -> JsResult<String> {
    Ok(BackendType::arg(backendType, "backendType")?
        .as_str()
        .to_owned())
}

/// A session state argument, read by the core's `SessionState::from_json`.
impl Arg for SessionState {
    fn arg(value: &JsValue, _: &str) -> JsResult<Self> {
        Ok(SessionState::from_json(&document_bytes(value, "state")?)?)
    }
}

/// A backend argument: `claude-code`, `codex` or `gemini-cli`.
impl Arg for BackendType {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        Ok(string_arg(value, what)?.parse()?)
    }
}

/// A spawn config argument, by the core's `SpawnConfig::from_argument`.
impl Arg for SpawnConfig {
    fn arg(value: &JsValue, _: &str) -> JsResult<Self> {
        let config = document_from_js(value, "config")?;
        Ok(SpawnConfig::from_argument(config, "config")?)
    }
}
