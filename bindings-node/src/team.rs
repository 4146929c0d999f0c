//! Team agent spawn state (SPEC section 3, the `agent-teams` crate's `SessionState` files) for
//! JavaScript: the class `TeamStore` and the free functions `sessionFromConfig`,
//! `toSpawnConfig` and `parseBackendType`.
//!
//! Documents are plain objects with the file's camelCase keys (`backendType`, `createdAt`,
//! `memoryConfig: { max_turns, budget_chars }`), read by the core's own parser, so a wrong
//! shape is an `invalid_input` error with serde's reason.

use napi::bindgen_prelude::{Env, Unknown};
use napi_derive::napi;
use session_state::Result;
use session_state::team::{
    self as core, BackendType, ResumePlan, SessionState, SpawnConfig, TeamListing,
    TeamStoreOptions, TeamSummary,
};
use session_state_fs::SystemClock;

use crate::any_store::{AnyStore, StoreArg, store_from_js};
use crate::args::{self, StrArg, string};
use crate::documents::{document_from_js, from_value, options_from_js};
use crate::errors::{Out, ToJs, out};

type Core = core::TeamStore<AnyStore, SystemClock>;
type State = Out<SessionState>;

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
        let store = store_from_js(store).js(&env)?;
        let options: TeamStoreOptions = options_from_js(options, "options").js(&env)?;
        Ok(TeamStore {
            inner: options.apply(Core::new(store, SystemClock)),
        })
    }

    /// Saves `state` as `teams/{team}/sessions/{state.name}.json` (a file there that does not
    /// parse is copied aside first); returns the key written. Throws `invalid_key` for an
    /// invalid team or agent name, `invalid_input` for a state of the wrong shape.
    #[napi(
        ts_args_type = "team: string, state: TeamSessionState",
        ts_return_type = "string"
    )]
    pub fn save(&self, team: StrArg<'_>, state: Unknown<'_>) -> Out<String> {
        out(|| {
            let team = string(team, "team")?;
            Ok(self
                .inner
                .save(&team, &state_from_js(state, "state")?)?
                .to_string())
        })
    }

    /// Loads one member. Throws `not_found` when there is no file, `corrupt_state` (with
    /// `salvaged` when the file is JSON) when it does not parse.
    #[napi(
        ts_args_type = "team: string, agent: string",
        ts_return_type = "TeamSessionState"
    )]
    pub fn load(&self, team: StrArg<'_>, agent: StrArg<'_>) -> State {
        out(|| {
            self.inner
                .load(&string(team, "team")?, &string(agent, "agent")?)
        })
    }

    /// Deletes one member's file; `true` if it existed.
    #[napi(
        ts_args_type = "team: string, agent: string",
        ts_return_type = "boolean"
    )]
    pub fn delete(&self, team: StrArg<'_>, agent: StrArg<'_>) -> Out<bool> {
        out(|| {
            self.inner
                .delete(&string(team, "team")?, &string(agent, "agent")?)
        })
    }

    /// Every member of `team` sorted by agent name, and the files skipped:
    /// `{team, members: [{agent, key, state}], skipped: [{key, code, message}]}`.
    #[napi(ts_args_type = "team: string", ts_return_type = "TeamListing")]
    pub fn list(&self, team: StrArg<'_>) -> Out<TeamListing> {
        out(|| self.inner.list(&string(team, "team")?))
    }

    /// Every team folder under `teams/`: `[{name, sessions}]`, sorted by name.
    #[napi(ts_return_type = "TeamSummary[]")]
    pub fn list_teams(&self) -> Out<Vec<TeamSummary>> {
        out(|| self.inner.list_teams())
    }

    /// Records that `config` was spawned on `backend` now; an existing readable file keeps
    /// its `createdAt`, `metadata` and unknown keys. Returns the state written.
    #[napi(
        ts_args_type = "team: string, config: SpawnConfig, backend: BackendType",
        ts_return_type = "TeamSessionState"
    )]
    pub fn record_spawn(
        &self,
        team: StrArg<'_>,
        config: Unknown<'_>,
        backend: StrArg<'_>,
    ) -> State {
        out(|| {
            let team = string(team, "team")?;
            let config = config_from_js(config)?;
            self.inner
                .record_spawn(&team, &config, backend_arg(backend)?)
        })
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
    pub fn update(&self, team: StrArg<'_>, agent: StrArg<'_>, changes: Unknown<'_>) -> State {
        out(|| {
            let (team, agent) = (string(team, "team")?, string(agent, "agent")?);
            let changes = document_from_js(changes, "changes")?;
            self.inner.update(&team, &agent, |state| {
                state.merge_argument(&changes, "changes")
            })
        })
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
    pub fn replace(&self, team: StrArg<'_>, agent: StrArg<'_>, state: Unknown<'_>) -> State {
        out(|| {
            let (team, agent) = (string(team, "team")?, string(agent, "agent")?);
            let new = state_from_js(state, "state")?;
            self.inner.update(&team, &agent, |state| {
                state
                    .check_backend_change(&new.backend_type)
                    .map_err(|e| e.below("state"))?;
                state.clone_from(&new);
                Ok(())
            })
        })
    }

    /// What re-spawning `team` would do, member by member, without spawning anything:
    /// `{team, members: [{agent, key, action: 'respawn', backend, config} | {agent, key,
    /// action: 'skip', reason, message}]}`.
    #[napi(ts_args_type = "team: string", ts_return_type = "ResumePlan")]
    pub fn resume_plan(&self, team: StrArg<'_>) -> Out<ResumePlan> {
        out(|| self.inner.resume_plan(&string(team, "team")?))
    }
}

/// The state of a freshly spawned agent, as the crate's `SessionState::from_config`:
/// `createdAt` = `now` (an RFC 3339 string or `Date`; default the system clock), empty
/// `metadata`.
#[napi(
    ts_args_type = "config: SpawnConfig, backend: BackendType, now?: string | Date",
    ts_return_type = "TeamSessionState"
)]
pub fn session_from_config(
    config: Unknown<'_>,
    backend: StrArg<'_>,
    now: Option<Unknown<'_>>,
) -> State {
    out(|| {
        let config = config_from_js(config)?;
        let backend = backend_arg(backend)?;
        Ok(SessionState::from_config(
            &config,
            backend,
            args::instant(now, "now")?,
        ))
    })
}

/// The config to re-spawn a saved agent with (no delegations).
#[napi(
    ts_args_type = "state: TeamSessionState",
    ts_return_type = "SpawnConfig"
)]
pub fn to_spawn_config(state: Unknown<'_>) -> Out<SpawnConfig> {
    out(|| Ok(state_from_js(state, "state")?.to_spawn_config()))
}

/// The backend named by a `backendType` string; throws `invalid_input` for an unknown one.
#[napi(ts_args_type = "backendType: string", ts_return_type = "BackendType")]
pub fn parse_backend_type(backend_type: StrArg<'_>) -> Out<String> {
    out(|| Ok(backend_arg(backend_type)?.as_str().to_owned()))
}

/// A session state argument, through the core's `SessionState` rules; a mismatch is
/// `invalid_input` naming the member (`state.maxTurns`).
fn state_from_js(value: Unknown<'_>, name: &str) -> Result<SessionState> {
    from_value(
        serde_json::Value::Object(document_from_js(value, name)?),
        name,
    )
}

/// A spawn config argument (camelCase keys, as in the document; the core's
/// [`SpawnConfig::from_argument`] refuses a member the type does not have).
fn config_from_js(value: Unknown<'_>) -> Result<SpawnConfig> {
    SpawnConfig::from_argument(document_from_js(value, "config")?, "config")
}

/// A backend argument: `claude-code`, `codex` or `gemini-cli`.
fn backend_arg(value: StrArg<'_>) -> Result<BackendType> {
    string(value, "backend")?.parse()
}
