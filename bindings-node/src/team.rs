//! Team agent spawn state (SPEC section 3, the `agent-teams` crate's `SessionState` files) for
//! JavaScript: the class `TeamStore` and the free functions `sessionFromConfig`,
//! `toSpawnConfig` and `parseBackendType`. Documents are plain objects with the file's
//! camelCase keys (`backendType`, `createdAt`), read by the core's own parser.

use napi_derive::napi;
use session_state::json::from_value;
use session_state::team::{
    self as core, BackendType, ResumePlan, SessionState, SpawnConfig, TeamListing,
    TeamStoreOptions, TeamSummary,
};
use session_state::{Clock, Result};
use session_state_fs::SystemClock;

use crate::any_store::AnyStore;
use crate::args::{Any, Arg, Doc, Instant, Options};

type Core = core::TeamStore<AnyStore, SystemClock>;
/// A session state: a plain object, read by the core's rules (errors name the member).
impl<'a> Arg<'a> for SessionState {
    fn arg(value: Any<'a>, name: &str) -> Result<Self> {
        from_value(Doc::arg(value, name)?.into(), name)
    }
}

js_class!(
    #[doc = " Team session files `teams/{team}/sessions/{agent}.json` over a store, stamped with the"]
    #[doc = " system clock. Listings never fail on one bad file: it is reported in `skipped`."]
    TeamStore(Core);
    #[doc = " Team files in `store` (for the crate's layout, a `FileStore` over `~/.claude`)."]
    #[doc = " Option `maxDocumentBytes`: the largest session file read (default 16 MiB)."]
    new(store: AnyStore, options: Options<TeamStoreOptions>) = "store: Store, options?: TeamStoreOptions"
        => Ok(TeamStore { inner: options.0.apply(Core::new(store, SystemClock)) });
);

js_methods!(TeamStore {
    #[doc = " Saves `state` as `teams/{team}/sessions/{state.name}.json` (copying aside a file there that"]
    #[doc = " does not parse); returns the key written. Throws `invalid_key`, `invalid_input` (shape)."]
    fn save(&self, team: String, state: SessionState) -> String
        = "team: string, state: SessionState", "string"
        => Ok(self.inner.save(&team, &state)?.to_string());
    #[doc = " Records that `config` was spawned on `backend` now; an existing readable file keeps"]
    #[doc = " its `createdAt`, `metadata` and unknown keys. Returns the state written."]
    fn record_spawn(&self, team: String, config: Doc, backend: String) -> SessionState
        = "team: string, config: SpawnConfig, backend: BackendType", "SessionState"
        => self.inner.record_spawn(&team, &SpawnConfig::from_argument(config, "config")?, backend.parse()?);
    #[doc = " Changes a saved member in one exclusive read-modify-write: the keys of `changes` replace"]
    #[doc = " those of the stored document (as `Object.assign`; `null` clears an optional field)."]
    #[doc = " Returns the state written. Throws `not_found` (no file), `corrupt_state` (it does not"]
    #[doc = " parse), `invalid_input` when the result breaks the core's `SessionState` rules (naming"]
    #[doc = " the member, e.g. `changes.memoryConfig.max_turns`), changes `backendType` to an unknown"]
    #[doc = " backend (an unknown one already stored is kept) or renames the agent; nothing is written."]
    fn update(&self, team: String, agent: String, changes: Doc) -> SessionState
        = "team: string, agent: string, changes: Partial<SessionState>", "SessionState"
        => self.inner.update(&team, &agent, |state| state.merge_argument(&changes, "changes"));
    #[doc = " Sets the `metadata` entries given (`null` removes one) and keeps the others, in one"]
    #[doc = " exclusive read-modify-write: writers of other entries at once all keep theirs, where"]
    #[doc = " `load` then `update` of the whole map drops what was written between the two. Returns"]
    #[doc = " the state written. Throws as `update`."]
    fn merge_metadata(&self, team: String, agent: String, entries: Doc) -> SessionState
        = "team: string, agent: string, entries: Record<string, string | null>", "SessionState"
        => self.inner.merge_metadata_argument(&team, &agent, &entries, "entries");
    #[doc = " Replaces a saved member with `state` in one exclusive read-modify-write (unlike `save`,"]
    #[doc = " the file must exist and `state.name` must be `agent`). Returns the state written. Throws"]
    #[doc = " as `update`: `not_found`, `corrupt_state`, `invalid_input` (naming the member)."]
    fn replace(&self, team: String, agent: String, state: SessionState) -> SessionState
        = "team: string, agent: string, state: SessionState", "SessionState"
        => self.inner.replace(&team, &agent, &state).map_err(|e| e.below("state"));
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

js_functions! {
    #[doc = " The state of a freshly spawned agent (the crate's `SessionState::from_config`): `createdAt`"]
    #[doc = " = `now` (an RFC 3339 string or `Date`; default: the system clock), empty `metadata`."]
    fn session_from_config(config: Doc, backend: String, now: Option<Instant>) -> SessionState
        = "config: SpawnConfig, backend: BackendType, now?: string | Date", "SessionState" => {
        let config = SpawnConfig::from_argument(config, "config")?;
        Ok(SessionState::from_config(&config, backend.parse()?, now.unwrap_or_else(|| SystemClock.now())))
    };
    #[doc = " The config to re-spawn a saved agent with (no delegations)."]
    fn to_spawn_config(state: SessionState) -> SpawnConfig = "state: SessionState", "SpawnConfig"
        => Ok(state.to_spawn_config());
    #[doc = " The backend named by a `backendType` string; throws `invalid_input` for an unknown one."]
    fn parse_backend_type(backendType: String) -> String = "backendType: string", "BackendType"
        => Ok(backendType.parse::<BackendType>()?.as_str().to_owned());
}
