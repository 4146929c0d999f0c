//! `TeamStore` and the free functions `sessionFromConfig`, `toSpawnConfig`,
//! `parseBackendType`: the core's [`session_state::team`] (the `agent-teams` crate's per-agent
//! `SessionState` files, SPEC section 3) as JS. Conversions only.

use session_state::team::{self as core, BackendType, SessionState, SpawnConfig};
use wasm_bindgen::prelude::*;

use crate::clock::JsClock;
use crate::convert::{
    document_bytes, document_from_js, instant_arg, options_arg, string_arg, to_js,
};
use crate::errors::{IntoJsResult, JsResult};
use crate::stores::AnyStore;

#[wasm_bindgen(typescript_custom_section)]
const TS_TEAM: &'static str = r#"
/** `new TeamStore(store, options)`. */
export interface TeamStoreOptions {
  /** Largest session file read, in bytes (default 16 MiB). */
  maxDocumentBytes?: number;
}
"#;

/// Team agent spawn state under `teams/{team}/sessions/` of a store. Time from `Date.now()`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct TeamStore {
    inner: core::TeamStore<AnyStore, JsClock>,
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
        let options: core::TeamStoreOptions = options_arg(options, "options")?;
        Ok(TeamStore {
            inner: options.apply(core::TeamStore::new(AnyStore::from_js(store)?, JsClock)),
        })
    }

    /// Saves `state` as `teams/{team}/sessions/{state.name}.json` and returns the key.
    ///
    /// Throws `invalid_key` for a bad team or agent name, `invalid_input` for a state that is
    /// not a team session document.
    pub fn save(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] team: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "TeamSessionState")] state: &JsValue,
    ) -> JsResult<String> {
        let team = string_arg(team, "team")?;
        let state = state_arg(state)?;
        Ok(self.inner.save(&team, &state).js()?.to_string())
    }

    /// Loads one member. Throws `not_found`, `corrupt_state`, `invalid_key`.
    #[wasm_bindgen(unchecked_return_type = "TeamSessionState")]
    pub fn load(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] team: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] agent: &JsValue,
    ) -> JsResult<JsValue> {
        let team = string_arg(team, "team")?;
        let agent = string_arg(agent, "agent")?;
        to_js(&self.inner.load(&team, &agent).js()?)
    }

    /// Deletes one member's file; `true` if it existed.
    pub fn delete(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] team: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] agent: &JsValue,
    ) -> JsResult<bool> {
        let team = string_arg(team, "team")?;
        let agent = string_arg(agent, "agent")?;
        self.inner.delete(&team, &agent).js()
    }

    /// Every member of `team`, sorted by agent name, with the files skipped.
    #[wasm_bindgen(unchecked_return_type = "TeamListing")]
    pub fn list(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] team: &JsValue,
    ) -> JsResult<JsValue> {
        let team = string_arg(team, "team")?;
        to_js(&self.inner.list(&team).js()?)
    }

    /// Every team under `teams/`.
    #[wasm_bindgen(js_name = listTeams, unchecked_return_type = "TeamSummary[]")]
    pub fn list_teams(&self) -> JsResult<JsValue> {
        to_js(&self.inner.list_teams().js()?)
    }

    /// Records that `config` was spawned on `backend` now; returns the state written.
    #[wasm_bindgen(js_name = recordSpawn, unchecked_return_type = "TeamSessionState")]
    pub fn record_spawn(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] team: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "SpawnConfig")] config: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "BackendType")] backend: &JsValue,
    ) -> JsResult<JsValue> {
        let team = string_arg(team, "team")?;
        let config = config_arg(config)?;
        let backend = backend_arg(backend, "backend")?;
        to_js(&self.inner.record_spawn(&team, &config, backend).js()?)
    }

    /// Changes a saved member in one exclusive read-modify-write: the keys of `changes`
    /// replace those of the stored document (as `Object.assign` would; `null` clears an
    /// optional field; the core's `SessionState::merge`). Returns the state written. Throws
    /// `not_found` when there is no file, `corrupt_state` when it does not parse,
    /// `invalid_input` when the result is not a valid state, when `backendType` is changed to
    /// a backend the core does not know (an unknown one already stored is kept) or when the
    /// agent is renamed; nothing is written then.
    #[wasm_bindgen(unchecked_return_type = "TeamSessionState")]
    pub fn update(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] team: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] agent: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "Partial<TeamSessionState>")] changes: &JsValue,
    ) -> JsResult<JsValue> {
        let team = string_arg(team, "team")?;
        let agent = string_arg(agent, "agent")?;
        let changes = document_from_js(changes, "changes")?;
        let state = self
            .inner
            .update(&team, &agent, |state| {
                state.merge_argument(&changes, "changes")
            })
            .js()?;
        to_js(&state)
    }

    /// Replaces a saved member with `state` in one exclusive read-modify-write (unlike
    /// `save`, the file must exist and `state.name` must be `agent`; the core's
    /// `TeamStore::replace`). Returns the state written. Throws `not_found`, `corrupt_state`
    /// (nothing written), `invalid_input` (wrong shape, a rename, a `backendType` changed to an
    /// unknown backend).
    #[wasm_bindgen(unchecked_return_type = "TeamSessionState")]
    pub fn replace(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] team: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] agent: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "TeamSessionState")] state: &JsValue,
    ) -> JsResult<JsValue> {
        let team = string_arg(team, "team")?;
        let agent = string_arg(agent, "agent")?;
        let state = state_arg(state)?;
        let written = self.inner.replace(&team, &agent, &state);
        to_js(&written.map_err(|e| e.below("state")).js()?)
    }

    /// What re-spawning `team` would do, member by member; reads only.
    #[wasm_bindgen(js_name = resumePlan, unchecked_return_type = "ResumePlan")]
    pub fn resume_plan(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] team: &JsValue,
    ) -> JsResult<JsValue> {
        let team = string_arg(team, "team")?;
        to_js(&self.inner.resume_plan(&team).js()?)
    }
}

/// The state of a freshly spawned agent, as the crate's `SessionState::from_config`:
/// `createdAt` = `now` (an RFC 3339 string or `Date`; default `Date.now()`), empty `metadata`.
#[wasm_bindgen(js_name = sessionFromConfig, unchecked_return_type = "TeamSessionState")]
pub fn session_from_config(
    #[wasm_bindgen(unchecked_param_type = "SpawnConfig")] config: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "BackendType")] backend: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string | Date")] now: &JsValue,
) -> JsResult<JsValue> {
    let config = config_arg(config)?;
    let backend = backend_arg(backend, "backend")?;
    let now = instant_arg(now, "now")?;
    to_js(&SessionState::from_config(&config, backend, now))
}

/// The config to re-spawn a saved agent with (no delegations).
#[wasm_bindgen(js_name = toSpawnConfig, unchecked_return_type = "SpawnConfig")]
pub fn to_spawn_config(
    #[wasm_bindgen(unchecked_param_type = "TeamSessionState")] state: &JsValue,
) -> JsResult<JsValue> {
    to_js(&state_arg(state)?.to_spawn_config())
}

/// The backend named by a `backendType` string; throws `invalid_input` for an unknown one.
#[wasm_bindgen(js_name = parseBackendType, unchecked_return_type = "BackendType")]
pub fn parse_backend_type(
    #[wasm_bindgen(js_name = "backendType", unchecked_param_type = "string")]
    backend_type: &JsValue,
) -> JsResult<String> {
    Ok(backend_arg(backend_type, "backendType")?
        .as_str()
        .to_owned())
}

/// A session state argument, read by the core's `SessionState::from_json` (a wrong shape is
/// `invalid_input` with serde's reason).
fn state_arg(value: &JsValue) -> JsResult<SessionState> {
    SessionState::from_json(&document_bytes(value, "state")?).js()
}

/// A backend argument `what`: `claude-code`, `codex` or `gemini-cli`.
fn backend_arg(value: &JsValue, what: &str) -> JsResult<BackendType> {
    string_arg(value, what)?.parse().js()
}

/// A spawn config argument; the core's `SpawnConfig::from_argument` refuses a member the
/// type does not have (a misspelt `modl`, context `field` = `config.modl`) instead of dropping
/// it.
fn config_arg(value: &JsValue) -> JsResult<SpawnConfig> {
    SpawnConfig::from_argument(document_from_js(value, "config")?, "config").js()
}
