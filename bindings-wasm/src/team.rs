//! `TeamStore` and the free functions `sessionFromConfig`, `toSpawnConfig`,
//! `parseBackendType`: the core's [`session_state::team`] (the `agent-teams` crate's per-agent
//! `SessionState` files, SPEC section 3) as JS. Parameter names are the JS names.
#![allow(non_snake_case)]

use session_state::team::{self as core, BackendType, SessionState, SpawnConfig};
use wasm_bindgen::prelude::*;

use crate::clock::JsClock;
use crate::convert::{
    ConfigArg, StateArg, StoreArg, Text, document_bytes, document_from_js, instant_arg,
    options_arg, string_arg, string_methods, to_js,
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

    /// Saves `state` as `teams/{team}/sessions/{state.name}.json` and returns the key.
    pub fn save(&self, team: &Text, state: &StateArg) -> JsResult<String> {
        let team = team.get("team")?;
        Ok(self.inner.save(&team, &state_arg(state)?)?.to_string())
    }

    /// Records that `config` was spawned on `backend` now; returns the state written.
    #[wasm_bindgen(js_name = recordSpawn, unchecked_return_type = "SessionState")]
    pub fn record_spawn(
        &self,
        team: &Text,
        config: &ConfigArg,
        #[wasm_bindgen(unchecked_param_type = "BackendType")] backend: &JsValue,
    ) -> JsResult<JsValue> {
        let (team, config) = (team.get("team")?, config_arg(config)?);
        to_js(
            &self
                .inner
                .record_spawn(&team, &config, backend_arg(backend, "backend")?)?,
        )
    }

    /// Changes a saved member in one read-modify-write, `changes` merged as `Object.assign`
    /// (the core's `SessionState::merge_argument`); returns the state written.
    #[wasm_bindgen(unchecked_return_type = "SessionState")]
    pub fn update(
        &self,
        team: &Text,
        agent: &Text,
        #[wasm_bindgen(unchecked_param_type = "Partial<SessionState>")] changes: &JsValue,
    ) -> JsResult<JsValue> {
        let (team, agent) = (team.get("team")?, agent.get("agent")?);
        let changes = document_from_js(changes, "changes")?;
        let merge = |state: &mut SessionState| state.merge_argument(&changes, "changes");
        to_js(&self.inner.update(&team, &agent, merge)?)
    }

    /// Replaces a saved member with `state` in one read-modify-write (the core's
    /// `TeamStore::replace`); returns the state written.
    #[wasm_bindgen(unchecked_return_type = "SessionState")]
    pub fn replace(&self, team: &Text, agent: &Text, state: &StateArg) -> JsResult<JsValue> {
        let (team, agent) = (team.get("team")?, agent.get("agent")?);
        let written = self.inner.replace(&team, &agent, &state_arg(state)?);
        to_js(&written.map_err(|e| e.below("state"))?)
    }
}

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
    let (config, backend) = (config_arg(config)?, backend_arg(backend, "backend")?);
    to_js(&SessionState::from_config(
        &config,
        backend,
        instant_arg(now, "now")?,
    ))
}

/// The config to re-spawn a saved agent with (no delegations).
#[wasm_bindgen(js_name = toSpawnConfig, unchecked_return_type = "SpawnConfig")]
pub fn to_spawn_config(state: &StateArg) -> JsResult<JsValue> {
    to_js(&state_arg(state)?.to_spawn_config())
}

/// The backend named by a `backendType` string; throws `invalid_input` for an unknown one.
#[wasm_bindgen(js_name = parseBackendType, unchecked_return_type = "BackendType")]
pub fn parse_backend_type(backendType: &Text) -> JsResult<String> {
    Ok(backend_arg(backendType, "backendType")?.as_str().to_owned())
}

/// A session state argument, read by the core's `SessionState::from_json`.
fn state_arg(value: &JsValue) -> JsResult<SessionState> {
    Ok(SessionState::from_json(&document_bytes(value, "state")?)?)
}

/// A backend argument `what`: `claude-code`, `codex` or `gemini-cli`.
fn backend_arg(value: &JsValue, what: &str) -> JsResult<BackendType> {
    Ok(string_arg(value, what)?.parse()?)
}

/// A spawn config argument, by the core's `SpawnConfig::from_argument`.
fn config_arg(value: &JsValue) -> JsResult<SpawnConfig> {
    Ok(SpawnConfig::from_argument(
        document_from_js(value, "config")?,
        "config",
    )?)
}
