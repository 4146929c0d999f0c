//! Team agent spawn state (SPEC section 3, the `agent-teams` crate's `SessionState` files) for
//! JavaScript: the class `TeamStore` and the free functions `sessionFromConfig`,
//! `toSpawnConfig` and `parseBackendType`.
//!
//! Documents are plain objects with the file's camelCase keys (`backendType`, `createdAt`,
//! `memoryConfig: { max_turns, budget_chars }`), read by the core's own parser, so a wrong
//! shape is an `invalid_input` error with serde's reason.

use napi::bindgen_prelude::Env;
use napi_derive::napi;
use session_state::Clock;
use session_state::team::{
    self as core, BackendType, ResumePlan, SessionState, SpawnConfig, TeamListing,
    TeamStoreOptions, TeamSummary,
};
use session_state_fs::SystemClock;

use crate::any_store::AnyStore;
use crate::args::{Any, Doc, Document, Instant, Options};
use crate::errors::Out;

type Core = core::TeamStore<AnyStore, SystemClock>;
/// A session state argument, through the core's `SessionState` rules; a mismatch is
/// `invalid_input` naming the member (`state.maxTurns`).
type State = Document<SessionState>;

/// Team session files `teams/{team}/sessions/{agent}.json` over a store, stamped with the
/// system clock. Listings never fail on one bad file: it is reported in `skipped`.
#[napi]
#[derive(Debug)]
pub struct TeamStore {
    pub(crate) inner: Core,
}

#[napi]
#[allow(non_snake_case)]
impl TeamStore {
    /// Team files in `store` (for the crate's layout, a `FileStore` over `~/.claude`).
    /// Option `maxDocumentBytes`: the largest session file read (default 16 MiB).
    #[napi(constructor, ts_args_type = "store: Store, options?: TeamStoreOptions")]
    pub fn new(env: Env, store: Any<'_>, options: Any<'_>) -> napi::Result<Self> {
        construct!(env; store: AnyStore, options: Options<TeamStoreOptions> => Ok(TeamStore { inner: options.0.apply(Core::new(store, SystemClock)) }))
    }
}

js_methods!(TeamStore {
    #[doc = " Saves `state` as `teams/{team}/sessions/{state.name}.json` (a file there that does not"]
    #[doc = " parse is copied aside first); returns the key written. Throws `invalid_key` for an"]
    #[doc = " invalid team or agent name, `invalid_input` for a state of the wrong shape."]
    fn save(&self, team: String, state: State) -> String = "team: string, state: SessionState", "string"
        => Ok(self.inner.save(&team, &state.0)?.to_string());
    #[doc = " Records that `config` was spawned on `backend` now; an existing readable file keeps"]
    #[doc = " its `createdAt`, `metadata` and unknown keys. Returns the state written."]
    fn record_spawn(&self, team: String, config: Doc, backend: String) -> SessionState
        = "team: string, config: SpawnConfig, backend: BackendType", "SessionState"
        => self.inner.record_spawn(&team, &SpawnConfig::from_argument(config, "config")?, backend.parse()?);
    #[doc = " Changes a saved member in one exclusive read-modify-write: the keys of `changes`"]
    #[doc = " replace those of the stored document (as `Object.assign` would; `null` clears an"]
    #[doc = " optional field), and the result is written. Returns the state written. Throws"]
    #[doc = " `not_found` when there is no file, `corrupt_state` when it does not parse,"]
    #[doc = " `invalid_input` when the result is not a valid state (the core's `SessionState` rules:"]
    #[doc = " a member of the wrong type, `createdAt` without an offset, ...; the message and"]
    #[doc = " `context.field` name the member, e.g. `changes.memoryConfig.max_turns`), when"]
    #[doc = " `backendType` is changed to a backend the core does not know (`recordSpawn`'s rule;"]
    #[doc = " an unknown one already stored is kept) or when the agent is renamed. Nothing is"]
    #[doc = " written then."]
    fn update(&self, team: String, agent: String, changes: Doc) -> SessionState
        = "team: string, agent: string, changes: Partial<SessionState>", "SessionState"
        => self.inner.update(&team, &agent, |state| state.merge_argument(&changes, "changes"));
    #[doc = " Replaces a saved member with `state` in one exclusive read-modify-write (unlike"]
    #[doc = " `save`, the file must exist and `state.name` must be `agent`). Returns the state"]
    #[doc = " written. Throws `not_found`, `corrupt_state` (the file does not parse; nothing"]
    #[doc = " written), `invalid_input` (wrong shape, naming the member; a rename; a `backendType`"]
    #[doc = " changed to an unknown backend, as `update`)."]
    fn replace(&self, team: String, agent: String, state: State) -> SessionState
        = "team: string, agent: string, state: SessionState", "SessionState"
        => self.inner.replace(&team, &agent, &state.0).map_err(|e| e.below("state"));
});

core_methods!(TeamStore:
    #[doc = " Loads one member. Throws `not_found` when there is no file, `corrupt_state` (with"]
    #[doc = " `salvaged` when the file is JSON) when it does not parse."]
    load(team: String, agent: String) -> SessionState
        = "team: string, agent: string", "SessionState";
    #[doc = " Deletes one member's file; `true` if it existed."]
    delete(team: String, agent: String) -> bool = "team: string, agent: string", "boolean";
    #[doc = " Every member of `team` sorted by agent name, and the files skipped:"]
    #[doc = " `{team, members: [{agent, key, state}], skipped: [{key, code, message}]}`."]
    list(team: String) -> TeamListing = "team: string", "TeamListing";
    #[doc = " Every team folder under `teams/`: `[{name, sessions}]`, sorted by name."]
    list_teams() -> Vec<TeamSummary> = "", "TeamSummary[]";
    #[doc = " What re-spawning `team` would do, member by member, without spawning anything:"]
    #[doc = " `{team, members: [{agent, key, action: 'respawn', backend, config} | {agent, key,"]
    #[doc = " action: 'skip', reason, message}]}`."]
    resume_plan(team: String) -> ResumePlan = "team: string", "ResumePlan";
);

/// The state of a freshly spawned agent, as the crate's `SessionState::from_config`:
/// `createdAt` = `now` (an RFC 3339 string or `Date`; default the system clock), empty
/// `metadata`.
#[napi(
    ts_args_type = "config: SpawnConfig, backend: BackendType, now?: string | Date",
    ts_return_type = "SessionState"
)]
pub fn session_from_config(config: Any<'_>, backend: Any<'_>, now: Any<'_>) -> Out<SessionState> {
    run!(config: Doc, backend: String, now: Option<Instant> => {
        let config = SpawnConfig::from_argument(config, "config")?;
        let backend = backend.parse()?;
        Ok(SessionState::from_config(&config, backend, now.unwrap_or_else(|| SystemClock.now())))
    })
}

/// The config to re-spawn a saved agent with (no delegations).
#[napi(ts_args_type = "state: SessionState", ts_return_type = "SpawnConfig")]
pub fn to_spawn_config(state: Any<'_>) -> Out<SpawnConfig> {
    run!(state: State => Ok(state.0.to_spawn_config()))
}

/// The backend named by a `backendType` string; throws `invalid_input` for an unknown one.
#[napi(ts_args_type = "backendType: string", ts_return_type = "BackendType")]
#[allow(non_snake_case)]
pub fn parse_backend_type(backendType: Any<'_>) -> Out<String> {
    run!(backendType: String => Ok(backendType.parse::<BackendType>()?.as_str().to_owned()))
}
