//! The orchestrator session (SPEC section 1) for JavaScript: the class `OrchestratorStore`
//! and the free functions `resumeSummary`, `renderResume`, `salvage` and `jsonSchema`.
//!
//! Documents go in and out as plain objects of the file's shape (`schema_version`,
//! `session_id`, ... in snake_case, as in `.claude/orchestrator-session.json`). A document
//! passed in is read with the core's own parser, so a wrong shape is an `invalid_input` error
//! naming the field (`agents[1].progress`), an unsafe `session_id` is `invalid_key` and another
//! schema version `incompatible_schema`. Nothing the caller passes is mutated: `save` returns
//! the saved document (with the new `updated`) instead.

use napi::bindgen_prelude::{Either, Env, Unknown};
use napi_derive::napi;
use session_state::orchestrator::{
    self as core, ArchiveOptions, CreateSession, DoctorOptions, HistoryOptions,
    OrchestratorSession, ResumeSummary, SessionStatus, StoreOptions, agent_from_start, current_key,
    parse_argument,
};
use session_state::{Clock, Key};
use session_state_fs::SystemClock;

use crate::any_store::{AnyStore, StoreArg};
use crate::args::{self, BytesArg, StrArg};
use crate::documents::{self, from_js, options_from_js, to_js};
use crate::errors::{ToJs, invalid_input};

type Core = core::OrchestratorStore<AnyStore, SystemClock>;

/// The orchestrator session operations over a store (`.claude/orchestrator-session.json` and
/// `.claude/orchestrator-history/`), stamping times with the system clock.
#[napi]
#[derive(Debug)]
pub struct OrchestratorStore {
    inner: Core,
}

#[napi]
impl OrchestratorStore {
    /// Operations over `store`. Options: `naiveOffsetMinutes` (offset of timestamps written
    /// without `Z` or offset; default UTC), `maxDocumentBytes` (largest document read or
    /// written, default 16 MiB; above it `invalid_input`, nothing written).
    ///
    /// Throws `invalid_input` for a value that is not a store or bad options.
    #[napi(
        constructor,
        ts_args_type = "store: Store, options?: OrchestratorStoreOptions"
    )]
    pub fn new(env: Env, store: StoreArg<'_>, options: Option<Unknown<'_>>) -> napi::Result<Self> {
        let store = AnyStore::from_js(&env, store)?;
        let options: StoreOptions = options_from_js(&env, options, "options")?;
        let inner = options
            .apply(Core::new(store, SystemClock), "options")
            .js(&env)?;
        Ok(OrchestratorStore { inner })
    }

    /// The key of the current session file: `.claude/orchestrator-session.json`.
    #[napi(getter)]
    pub fn current_key(&self) -> String {
        current_key().to_string()
    }

    /// The current session, or `null` when there is none.
    ///
    /// Throws `corrupt_state` (with `salvaged`), `incompatible_schema`, `invalid_key`,
    /// `invalid_input` (too large), `storage`.
    #[napi(ts_return_type = "OrchestratorSession | null")]
    pub fn load<'env>(&self, env: &'env Env) -> napi::Result<Unknown<'env>> {
        to_js(env, &self.inner.load().js(env)?)
    }

    /// Saves `doc` as the current session with `updated` set to now, and returns the saved
    /// document (`doc` itself is not changed). A current file that does not parse is copied
    /// aside first.
    #[napi(
        ts_args_type = "doc: OrchestratorSession",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn save<'env>(&self, env: &'env Env, doc: Unknown<'_>) -> napi::Result<Unknown<'env>> {
        let mut doc = self.session_arg(env, doc, "doc")?;
        self.inner.save(&mut doc).js(env)?;
        to_js(env, &doc)
    }

    /// Writes `doc` to `.claude/orchestrator-history/{session_id}.json` and removes the current
    /// file when it holds the same session; returns the archive key. Throws `already_exists`
    /// unless `{ replace: true }`.
    #[napi(ts_args_type = "doc: OrchestratorSession, options?: { replace?: boolean }")]
    pub fn archive(
        &self,
        env: &Env,
        doc: Unknown<'_>,
        options: Option<Unknown<'_>>,
    ) -> napi::Result<String> {
        let doc = self.session_arg(env, doc, "doc")?;
        let options: ArchiveOptions = options_from_js(env, options, "options")?;
        let key = self.inner.archive(&doc, options.replace).js(env)?;
        Ok(key.to_string())
    }

    /// One page of archived sessions, newest first: `{ entries, skipped, total }`. Options:
    /// `limit` (default 10), `offset` (default 0), `status` (only that status).
    #[napi(ts_args_type = "query?: HistoryQuery", ts_return_type = "HistoryPage")]
    pub fn list_history<'env>(
        &self,
        env: &'env Env,
        query: Option<Unknown<'_>>,
    ) -> napi::Result<Unknown<'env>> {
        let query: HistoryOptions = options_from_js(env, query, "query")?;
        to_js(env, &self.inner.list_history(&query.query()).js(env)?)
    }

    /// Rebuilds the history listing index from the history files.
    #[napi]
    pub fn rebuild_index(&self, env: &Env) -> napi::Result<()> {
        self.inner.rebuild_index().js(env)
    }

    /// `created → in_progress`; returns the saved document. Throws `invalid_transition`,
    /// `not_found` (no current session).
    #[napi(ts_return_type = "OrchestratorSession")]
    pub fn start<'env>(&self, env: &'env Env) -> napi::Result<Unknown<'env>> {
        to_js(env, &self.inner.start().js(env)?)
    }

    /// `in_progress → paused`.
    #[napi(ts_return_type = "OrchestratorSession")]
    pub fn pause<'env>(&self, env: &'env Env) -> napi::Result<Unknown<'env>> {
        to_js(env, &self.inner.pause().js(env)?)
    }

    /// `paused → in_progress` (the seed's `continue`).
    #[napi(ts_return_type = "OrchestratorSession")]
    pub fn resume<'env>(&self, env: &'env Env) -> napi::Result<Unknown<'env>> {
        to_js(env, &self.inner.resume().js(env)?)
    }

    /// `in_progress → complete`, then archive; all or nothing. Throws `already_exists` (and
    /// changes nothing) when the archive exists, unless `{ replace: true }`.
    #[napi(
        ts_args_type = "options?: { replace?: boolean }",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn complete<'env>(
        &self,
        env: &'env Env,
        options: Option<Unknown<'_>>,
    ) -> napi::Result<Unknown<'env>> {
        self.final_move(env, SessionStatus::Complete, options)
    }

    /// `created | paused | in_progress → aborted`, then archive; all or nothing, as `complete`.
    #[napi(
        ts_args_type = "options?: { replace?: boolean }",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn abort<'env>(
        &self,
        env: &'env Env,
        options: Option<Unknown<'_>>,
    ) -> napi::Result<Unknown<'env>> {
        self.final_move(env, SessionStatus::Aborted, options)
    }

    /// Creates and saves a new current session (status `created`, id `YYYY-MM-DD-{suffix}`,
    /// suffix derived from the clock when not given, mode `default` when not given). Throws
    /// `already_exists` when a current session exists.
    #[napi(
        ts_args_type = "session: CreateSession",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn create_session<'env>(
        &self,
        env: &'env Env,
        session: Unknown<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let session: CreateSession = from_js(env, session, "session")?;
        let doc = self.inner.create(session).js(env)?;
        to_js(env, &doc)
    }

    /// Auto-save "agent started": adds `agent` (an agent with the same id is replaced). `status`
    /// defaults to `in_progress` and `started` to now.
    #[napi(
        ts_args_type = "agent: AgentStart",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn agent_started<'env>(
        &self,
        env: &'env Env,
        agent: Unknown<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let map = documents::document_from_js(env, agent, "agent")?;
        let agent = agent_from_start(map, self.inner.now()).js(env)?;
        to_js(env, &self.inner.agent_started(&agent).js(env)?)
    }

    /// Auto-save "agent progress": sets the agent's `progress`, an integer from 0 to 100.
    #[napi(
        ts_args_type = "agentId: string, percent: number",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn agent_progress<'env>(
        &self,
        env: &'env Env,
        agent_id: StrArg<'_>,
        percent: Either<f64, Unknown<'_>>,
    ) -> napi::Result<Unknown<'env>> {
        let id = args::string(env, agent_id, "agentId")?;
        let percent = match percent {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Either::A(p) if p.fract() == 0.0 && (0.0..=100.0).contains(&p) => p as u8,
            Either::A(p) => {
                return Err(invalid_input(
                    env,
                    format!("`percent` must be an integer from 0 to 100, got {p}"),
                ));
            }
            Either::B(other) => {
                return Err(invalid_input(
                    env,
                    format!(
                        "`percent` must be a number, got {}",
                        args::type_name(&other)
                    ),
                ));
            }
        };
        to_js(env, &self.inner.agent_progress(&id, percent).js(env)?)
    }

    /// Auto-save "agent completed": status `complete`, `completed` = now, `result_summary`.
    #[napi(
        ts_args_type = "agentId: string, resultSummary: string",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn agent_completed<'env>(
        &self,
        env: &'env Env,
        agent_id: StrArg<'_>,
        result_summary: StrArg<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let id = args::string(env, agent_id, "agentId")?;
        let summary = args::string(env, result_summary, "resultSummary")?;
        to_js(env, &self.inner.agent_completed(&id, &summary).js(env)?)
    }

    /// Auto-save "agent failed": status `failed`, and the error logged in `errors`.
    #[napi(
        ts_args_type = "agentId: string, error: string",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn agent_failed<'env>(
        &self,
        env: &'env Env,
        agent_id: StrArg<'_>,
        error: StrArg<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let id = args::string(env, agent_id, "agentId")?;
        let error = args::string(env, error, "error")?;
        to_js(env, &self.inner.agent_failed(&id, &error).js(env)?)
    }

    /// Auto-save "decision made": appends `{decision, rationale, timestamp}`.
    #[napi(
        ts_args_type = "decision: string, rationale: string",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn decision_made<'env>(
        &self,
        env: &'env Env,
        decision: StrArg<'_>,
        rationale: StrArg<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let decision = args::string(env, decision, "decision")?;
        let rationale = args::string(env, rationale, "rationale")?;
        to_js(
            env,
            &self.inner.decision_made(&decision, &rationale).js(env)?,
        )
    }

    /// Auto-save "before compression": sets `context_usage.last_compression` to now.
    #[napi(ts_return_type = "OrchestratorSession")]
    pub fn before_compression<'env>(&self, env: &'env Env) -> napi::Result<Unknown<'env>> {
        to_js(env, &self.inner.before_compression().js(env)?)
    }

    /// Auto-save "session end": archives the current session as it is and returns it.
    #[napi(ts_return_type = "OrchestratorSession")]
    pub fn session_end<'env>(&self, env: &'env Env) -> napi::Result<Unknown<'env>> {
        to_js(env, &self.inner.session_end().js(env)?)
    }

    /// Checks the current and history files; with `{ fix: true }` repairs the corrupt ones
    /// (keeping copies) and rebuilds the index.
    #[napi(
        ts_args_type = "options?: { fix?: boolean }",
        ts_return_type = "DoctorReport"
    )]
    pub fn doctor<'env>(
        &self,
        env: &'env Env,
        options: Option<Unknown<'_>>,
    ) -> napi::Result<Unknown<'env>> {
        let options: DoctorOptions = options_from_js(env, options, "options")?;
        to_js(env, &self.inner.doctor(options.fix).js(env)?)
    }

    /// Repairs the corrupt document under `key` (default: the current session file): keeps a
    /// copy, writes the salvage. `null` when the file is absent or readable.
    #[napi(ts_args_type = "key?: string", ts_return_type = "Repair | null")]
    pub fn recover<'env>(
        &self,
        env: &'env Env,
        key: Option<StrArg<'_>>,
    ) -> napi::Result<Unknown<'env>> {
        let key = match args::opt_string(env, key, "key")? {
            Some(text) => Key::new(text).js(env)?,
            None => current_key(),
        };
        to_js(env, &self.inner.recover(&key).js(env)?)
    }

    /// A session argument, through the core's parser.
    fn session_arg(
        &self,
        env: &Env,
        value: Unknown<'_>,
        name: &str,
    ) -> napi::Result<OrchestratorSession> {
        session_from_js(env, value, name, self.inner.options())
    }
}

/// A document argument read by the core's parser (see the module docs).
fn session_from_js(
    env: &Env,
    value: Unknown<'_>,
    name: &str,
    options: &core::ParseOptions,
) -> napi::Result<OrchestratorSession> {
    let map = documents::document_from_js(env, value, name)?;
    session_from_map(env, &map, name, options)
}

/// A document given as a JSON object, read by the core's parser (`parse_argument`: a bad one
/// is `invalid_input` naming the argument and, in `context.field`, the member at fault).
fn session_from_map(
    env: &Env,
    map: &serde_json::Map<String, serde_json::Value>,
    name: &str,
    options: &core::ParseOptions,
) -> napi::Result<OrchestratorSession> {
    let bytes = serde_json::to_vec(map).unwrap_or_default();
    parse_argument(name, &bytes, options).js(env)
}

/// The "RESUMING SESSION" data of `doc` at `now` (default: the system clock): `{session_id,
/// goal, status, started, started_relative, progress_percent, completed_work, in_progress,
/// pending, context, resume_from}`. `now` is an RFC 3339 string or a `Date`.
#[napi(
    ts_args_type = "doc: OrchestratorSession, now?: string | Date",
    ts_return_type = "ResumeSummary"
)]
pub fn resume_summary<'env>(
    env: &'env Env,
    doc: Unknown<'_>,
    now: Option<Unknown<'_>>,
) -> napi::Result<Unknown<'env>> {
    let doc = session_from_js(env, doc, "doc", &core::ParseOptions::default())?;
    let now = args::instant(env, now, "now")?;
    to_js(env, &core::resume_summary(&doc, now))
}

/// The "RESUMING SESSION" markdown block, from a summary (`resumeSummary`) or a document (then
/// summarised at the system clock's now).
#[napi(ts_args_type = "summaryOrDoc: ResumeSummary | OrchestratorSession")]
pub fn render_resume(env: &Env, summary_or_doc: Unknown<'_>) -> napi::Result<String> {
    let map = documents::document_from_js(env, summary_or_doc, "summaryOrDoc")?;
    let summary: ResumeSummary = if map.contains_key("schema_version") {
        let doc = session_from_map(env, &map, "summaryOrDoc", &core::ParseOptions::default())?;
        core::resume_summary(&doc, SystemClock.now())
    } else {
        serde_json::from_value(map.into())
            .map_err(|e| invalid_input(env, format!("`summaryOrDoc` is not a summary: {e}")))?
    };
    Ok(core::render_markdown(&summary))
}

/// Every complete field of torn or damaged bytes, made into a valid "1.0" document:
/// `{document, missing, replaced, partial, top_level_object, recovered_anything}`. Never throws for any bytes.
#[napi(
    ts_args_type = "bytes: Uint8Array | string",
    ts_return_type = "Salvaged"
)]
pub fn salvage<'env>(
    env: &'env Env,
    bytes: Either<String, BytesArg<'_>>,
) -> napi::Result<Unknown<'env>> {
    let bytes = match bytes {
        Either::A(text) => text.into_bytes(),
        Either::B(bytes) => args::bytes(env, bytes, "bytes")?,
    };
    to_js(env, &core::salvage(&bytes))
}

/// The JSON Schema of the schema "1.0" document.
#[napi(ts_return_type = "Record<string, unknown>")]
pub fn json_schema(env: &Env) -> napi::Result<Unknown<'_>> {
    to_js(env, &core::json_schema())
}

impl OrchestratorStore {
    fn final_move<'env>(
        &self,
        env: &'env Env,
        to: SessionStatus,
        options: Option<Unknown<'_>>,
    ) -> napi::Result<Unknown<'env>> {
        let options: ArchiveOptions = options_from_js(env, options, "options")?;
        let doc = self.inner.move_to_with(to, options.replace).js(env)?;
        to_js(env, &doc)
    }
}
