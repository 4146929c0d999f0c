//! Team agent spawn state (SPEC section 3, the `agent-teams` crate's `SessionState` files) for
//! JavaScript: the class `TeamStore` and the free functions `sessionFromConfig`,
//! `toSpawnConfig` and `parseBackendType`.
//!
//! Documents are plain objects with the file's camelCase keys (`backendType`, `createdAt`,
//! `memoryConfig: { max_turns, budget_chars }`), read by the core's own parser, so a wrong
//! shape is an `invalid_input` error with serde's reason.

use napi::bindgen_prelude::{Env, Unknown};
use napi_derive::napi;
use session_state::team::{self as core, BackendType, SessionState, SpawnConfig, TeamStoreOptions};
use session_state_fs::SystemClock;

use crate::any_store::{AnyStore, StoreArg};
use crate::args::{self, StrArg};
use crate::documents::{self, from_value, options_from_js, to_js};
use crate::errors::ToJs;

type Core = core::TeamStore<AnyStore, SystemClock>;

/// Team session files `teams/{team}/sessions/{agent}.json` over a store, stamped with the
/// system clock. Listings never fail on one bad file: it is reported in `skipped`.
#[napi]
#[derive(Debug)]
pub struct TeamStore {
    inner: Core,
}

#[napi]
impl TeamStore {
    /// Team files in `store` (for the crate's layout, a `FileStore` over `~/.claude`).
    /// Option `maxDocumentBytes`: the largest session file read (default 16 MiB).
    #[napi(constructor, ts_args_type = "store: Store, options?: TeamStoreOptions")]
    pub fn new(env: Env, store: StoreArg<'_>, options: Option<Unknown<'_>>) -> napi::Result<Self> {
        let store = AnyStore::from_js(&env, store)?;
        let options: TeamStoreOptions = options_from_js(&env, options, "options")?;
        Ok(TeamStore {
            inner: options.apply(Core::new(store, SystemClock)),
        })
    }

    /// Saves `state` as `teams/{team}/sessions/{state.name}.json` (a file there that does not
    /// parse is copied aside first); returns the key written. Throws `invalid_key` for an
    /// invalid team or agent name, `invalid_input` for a state of the wrong shape.
    #[napi(ts_args_type = "team: string, state: TeamSessionState")]
    pub fn save(&self, env: &Env, team: StrArg<'_>, state: Unknown<'_>) -> napi::Result<String> {
        let team = args::string(env, team, "team")?;
        let state = state_from_js(env, state, "state")?;
        Ok(self.inner.save(&team, &state).js(env)?.to_string())
    }

    /// Loads one member. Throws `not_found` when there is no file, `corrupt_state` (with
    /// `salvaged` when the file is JSON) when it does not parse.
    #[napi(
        ts_args_type = "team: string, agent: string",
        ts_return_type = "TeamSessionState"
    )]
    pub fn load<'env>(
        &self,
        env: &'env Env,
        team: StrArg<'_>,
        agent: StrArg<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let team = args::string(env, team, "team")?;
        let agent = args::string(env, agent, "agent")?;
        to_js(env, &self.inner.load(&team, &agent).js(env)?)
    }

    /// Deletes one member's file; `true` if it existed.
    #[napi(ts_args_type = "team: string, agent: string")]
    pub fn delete(&self, env: &Env, team: StrArg<'_>, agent: StrArg<'_>) -> napi::Result<bool> {
        let team = args::string(env, team, "team")?;
        let agent = args::string(env, agent, "agent")?;
        self.inner.delete(&team, &agent).js(env)
    }

    /// Every member of `team` sorted by agent name, and the files skipped:
    /// `{team, members: [{agent, key, state}], skipped: [{key, code, message}]}`.
    #[napi(ts_args_type = "team: string", ts_return_type = "TeamListing")]
    pub fn list<'env>(&self, env: &'env Env, team: StrArg<'_>) -> napi::Result<Unknown<'env>> {
        let team = args::string(env, team, "team")?;
        to_js(env, &self.inner.list(&team).js(env)?)
    }

    /// Every team folder under `teams/`: `[{name, sessions}]`, sorted by name.
    #[napi(ts_return_type = "TeamSummary[]")]
    pub fn list_teams<'env>(&self, env: &'env Env) -> napi::Result<Unknown<'env>> {
        to_js(env, &self.inner.list_teams().js(env)?)
    }

    /// Records that `config` was spawned on `backend` now; an existing readable file keeps
    /// its `createdAt`, `metadata` and unknown keys. Returns the state written.
    #[napi(
        ts_args_type = "team: string, config: SpawnConfig, backend: BackendType",
        ts_return_type = "TeamSessionState"
    )]
    pub fn record_spawn<'env>(
        &self,
        env: &'env Env,
        team: StrArg<'_>,
        config: Unknown<'_>,
        backend: StrArg<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let team = args::string(env, team, "team")?;
        let config: SpawnConfig = config_from_js(env, config)?;
        let backend = backend_arg(env, backend)?;
        to_js(
            env,
            &self.inner.record_spawn(&team, &config, backend).js(env)?,
        )
    }

    /// Changes a saved member in one exclusive read-modify-write: the keys of `changes`
    /// replace those of the stored document (as `Object.assign` would; `null` clears an
    /// optional field), and the result is written. Returns the state written. Throws
    /// `not_found` when there is no file, `corrupt_state` when it does not parse,
    /// `invalid_input` when the result is not a valid state (the core's `SessionState` rules:
    /// a member of the wrong type, `createdAt` without an offset, ...; the message and
    /// `context.field` name the member, e.g. `changes.memoryConfig.max_turns`), when
    /// `backendType` is changed to a backend the core does not know (`recordSpawn`'s rule;
    /// an unknown one already stored is kept) or when the agent is renamed. Nothing is
    /// written then.
    #[napi(
        ts_args_type = "team: string, agent: string, changes: Partial<TeamSessionState>",
        ts_return_type = "TeamSessionState"
    )]
    pub fn update<'env>(
        &self,
        env: &'env Env,
        team: StrArg<'_>,
        agent: StrArg<'_>,
        changes: Unknown<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let team = args::string(env, team, "team")?;
        let agent = args::string(env, agent, "agent")?;
        let changes = documents::document_from_js(env, changes, "changes")?;
        let state = self
            .inner
            .update(&team, &agent, |state| {
                state.merge_argument(&changes, "changes")
            })
            .js(env)?;
        to_js(env, &state)
    }

    /// Replaces a saved member with `state` in one exclusive read-modify-write (unlike
    /// `save`, the file must exist and `state.name` must be `agent`). Returns the state
    /// written. Throws `not_found`, `corrupt_state` (the file does not parse; nothing
    /// written), `invalid_input` (wrong shape, naming the member; a rename; a `backendType`
    /// changed to an unknown backend, as `update`).
    #[napi(
        ts_args_type = "team: string, agent: string, state: TeamSessionState",
        ts_return_type = "TeamSessionState"
    )]
    pub fn replace<'env>(
        &self,
        env: &'env Env,
        team: StrArg<'_>,
        agent: StrArg<'_>,
        state: Unknown<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let team = args::string(env, team, "team")?;
        let agent = args::string(env, agent, "agent")?;
        let new = state_from_js(env, state, "state")?;
        let state = self
            .inner
            .update(&team, &agent, |state| {
                state
                    .check_backend_change(&new.backend_type)
                    .map_err(|e| e.below("state"))?;
                state.clone_from(&new);
                Ok(())
            })
            .js(env)?;
        to_js(env, &state)
    }

    /// What re-spawning `team` would do, member by member, without spawning anything:
    /// `{team, members: [{agent, key, action: 'respawn', backend, config} | {agent, key,
    /// action: 'skip', reason, message}]}`.
    #[napi(ts_args_type = "team: string", ts_return_type = "ResumePlan")]
    pub fn resume_plan<'env>(
        &self,
        env: &'env Env,
        team: StrArg<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let team = args::string(env, team, "team")?;
        to_js(env, &self.inner.resume_plan(&team).js(env)?)
    }
}

/// The state of a freshly spawned agent, as the crate's `SessionState::from_config`:
/// `createdAt` = `now` (an RFC 3339 string or `Date`; default the system clock), empty
/// `metadata`.
#[napi(
    ts_args_type = "config: SpawnConfig, backend: BackendType, now?: string | Date",
    ts_return_type = "TeamSessionState"
)]
pub fn session_from_config<'env>(
    env: &'env Env,
    config: Unknown<'_>,
    backend: StrArg<'_>,
    now: Option<Unknown<'_>>,
) -> napi::Result<Unknown<'env>> {
    let config = config_from_js(env, config)?;
    let backend = backend_arg(env, backend)?;
    let now = args::instant(env, now, "now")?;
    to_js(env, &SessionState::from_config(&config, backend, now))
}

/// The config to re-spawn a saved agent with (no delegations).
#[napi(
    ts_args_type = "state: TeamSessionState",
    ts_return_type = "SpawnConfig"
)]
pub fn to_spawn_config<'env>(env: &'env Env, state: Unknown<'_>) -> napi::Result<Unknown<'env>> {
    let state = state_from_js(env, state, "state")?;
    to_js(env, &state.to_spawn_config())
}

/// The backend named by a `backendType` string; throws `invalid_input` for an unknown one.
#[napi(ts_args_type = "backendType: string", ts_return_type = "BackendType")]
pub fn parse_backend_type(env: &Env, backend_type: StrArg<'_>) -> napi::Result<String> {
    Ok(backend_arg(env, backend_type)?.as_str().to_owned())
}

/// A session state argument, through the core's `SessionState` rules; a mismatch is
/// `invalid_input` naming the member (`state.maxTurns`).
fn state_from_js(env: &Env, value: Unknown<'_>, name: &str) -> napi::Result<SessionState> {
    let map = documents::document_from_js(env, value, name)?;
    from_value(serde_json::Value::Object(map), name).js(env)
}

/// A spawn config argument (camelCase keys, as in the document; the core's
/// [`SpawnConfig::from_argument`] refuses a member the type does not have).
fn config_from_js(env: &Env, value: Unknown<'_>) -> napi::Result<SpawnConfig> {
    let map = documents::document_from_js(env, value, "config")?;
    SpawnConfig::from_argument(map, "config").js(env)
}

/// A backend argument: `claude-code`, `codex` or `gemini-cli`.
fn backend_arg(env: &Env, value: StrArg<'_>) -> napi::Result<BackendType> {
    args::string(env, value, "backend")?.parse().js(env)
}
