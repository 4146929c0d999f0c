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
use serde_json::Value;
use session_state::orchestrator::{
    self as core, ArchiveOptions, CreateSession, DoctorOptions, DoctorReport, HistoryOptions,
    HistoryPage, OrchestratorSession, ParseOptions, Repair, ResumeSummary, Salvaged, SessionStatus,
    StoreOptions, agent_from_start, current_key, parse_object_argument,
};
use session_state::{Clock, Key, Result};
use session_state_fs::SystemClock;

use crate::any_store::{AnyStore, StoreArg, store_from_js};
use crate::args::{self, BytesArg, StrArg, string};
use crate::documents::{document_from_js, from_js, options_from_js};
use crate::errors::{Out, ToJs, out};

type Core = core::OrchestratorStore<AnyStore, SystemClock>;
type Session = Out<OrchestratorSession>;

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
        let inner = || {
            let store = store_from_js(store)?;
            let options: StoreOptions = options_from_js(options, "options")?;
            options.apply(Core::new(store, SystemClock), "options")
        };
        Ok(OrchestratorStore {
            inner: inner().js(&env)?,
        })
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
    pub fn load(&self) -> Out<Option<OrchestratorSession>> {
        out(|| self.inner.load())
    }

    /// Saves `doc` as the current session with `updated` set to now, and returns the saved
    /// document (`doc` itself is not changed). A current file that does not parse is copied
    /// aside first.
    #[napi(
        ts_args_type = "doc: OrchestratorSession",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn save(&self, doc: Unknown<'_>) -> Session {
        out(|| {
            let mut doc = session_from_js(doc, "doc", self.inner.options())?;
            self.inner.save(&mut doc)?;
            Ok(doc)
        })
    }

    /// Writes `doc` to `.claude/orchestrator-history/{session_id}.json` and removes the current
    /// file when it holds the same session; returns the archive key. Throws `already_exists`
    /// unless `{ replace: true }`.
    #[napi(
        ts_args_type = "doc: OrchestratorSession, options?: { replace?: boolean }",
        ts_return_type = "string"
    )]
    pub fn archive(&self, doc: Unknown<'_>, options: Option<Unknown<'_>>) -> Out<String> {
        out(|| {
            let doc = session_from_js(doc, "doc", self.inner.options())?;
            let options: ArchiveOptions = options_from_js(options, "options")?;
            Ok(self.inner.archive(&doc, options.replace)?.to_string())
        })
    }

    /// One page of archived sessions, newest first: `{ entries, skipped, total }`. Options:
    /// `limit` (default 10), `offset` (default 0), `status` (only that status).
    #[napi(ts_args_type = "query?: HistoryQuery", ts_return_type = "HistoryPage")]
    pub fn list_history(&self, query: Option<Unknown<'_>>) -> Out<HistoryPage> {
        out(|| {
            let query: HistoryOptions = options_from_js(query, "query")?;
            self.inner.list_history(&query.query())
        })
    }

    /// Rebuilds the history listing index from the history files.
    #[napi(ts_return_type = "void")]
    pub fn rebuild_index(&self) -> Out<()> {
        out(|| self.inner.rebuild_index())
    }

    /// `created → in_progress`; returns the saved document. Throws `invalid_transition`,
    /// `not_found` (no current session).
    #[napi(ts_return_type = "OrchestratorSession")]
    pub fn start(&self) -> Session {
        out(|| self.inner.start())
    }

    /// `in_progress → paused`.
    #[napi(ts_return_type = "OrchestratorSession")]
    pub fn pause(&self) -> Session {
        out(|| self.inner.pause())
    }

    /// `paused → in_progress` (the seed's `continue`).
    #[napi(ts_return_type = "OrchestratorSession")]
    pub fn resume(&self) -> Session {
        out(|| self.inner.resume())
    }

    /// `in_progress → complete`, then archive; all or nothing. Throws `already_exists` (and
    /// changes nothing) when the archive exists, unless `{ replace: true }`.
    #[napi(
        ts_args_type = "options?: { replace?: boolean }",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn complete(&self, options: Option<Unknown<'_>>) -> Session {
        self.final_move(SessionStatus::Complete, options)
    }

    /// `created | paused | in_progress → aborted`, then archive; all or nothing, as `complete`.
    #[napi(
        ts_args_type = "options?: { replace?: boolean }",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn abort(&self, options: Option<Unknown<'_>>) -> Session {
        self.final_move(SessionStatus::Aborted, options)
    }

    /// Creates and saves a new current session (status `created`, id `YYYY-MM-DD-{suffix}`,
    /// suffix derived from the clock when not given, mode `default` when not given). Throws
    /// `already_exists` when a current session exists.
    #[napi(
        ts_args_type = "session: CreateSession",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn create_session(&self, session: Unknown<'_>) -> Session {
        out(|| {
            self.inner
                .create(from_js::<CreateSession>(session, "session")?)
        })
    }

    /// Auto-save "agent started": adds `agent` (an agent with the same id is replaced). `status`
    /// defaults to `in_progress` and `started` to now.
    #[napi(
        ts_args_type = "agent: AgentStart",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn agent_started(&self, agent: Unknown<'_>) -> Session {
        out(|| {
            let agent = agent_from_start(document_from_js(agent, "agent")?, self.inner.now())?;
            self.inner.agent_started(&agent)
        })
    }

    /// Auto-save "agent progress": sets the agent's `progress`, an integer from 0 to 100.
    #[napi(
        ts_args_type = "agentId: string, percent: number",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn agent_progress(&self, agent_id: StrArg<'_>, percent: Unknown<'_>) -> Session {
        out(|| {
            let id = string(agent_id, "agentId")?;
            self.inner.agent_progress(&id, from_js(percent, "percent")?)
        })
    }

    /// Auto-save "agent completed": status `complete`, `completed` = now, `result_summary`.
    #[napi(
        ts_args_type = "agentId: string, resultSummary: string",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn agent_completed(&self, agent_id: StrArg<'_>, result_summary: StrArg<'_>) -> Session {
        out(|| {
            let id = string(agent_id, "agentId")?;
            self.inner
                .agent_completed(&id, &string(result_summary, "resultSummary")?)
        })
    }

    /// Auto-save "agent failed": status `failed`, and the error logged in `errors`.
    #[napi(
        ts_args_type = "agentId: string, error: string",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn agent_failed(&self, agent_id: StrArg<'_>, error: StrArg<'_>) -> Session {
        out(|| {
            let id = string(agent_id, "agentId")?;
            self.inner.agent_failed(&id, &string(error, "error")?)
        })
    }

    /// Auto-save "decision made": appends `{decision, rationale, timestamp}`.
    #[napi(
        ts_args_type = "decision: string, rationale: string",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn decision_made(&self, decision: StrArg<'_>, rationale: StrArg<'_>) -> Session {
        out(|| {
            let decision = string(decision, "decision")?;
            self.inner
                .decision_made(&decision, &string(rationale, "rationale")?)
        })
    }

    /// Auto-save "before compression": sets `context_usage.last_compression` to now.
    #[napi(ts_return_type = "OrchestratorSession")]
    pub fn before_compression(&self) -> Session {
        out(|| self.inner.before_compression())
    }

    /// Auto-save "session end": archives the current session as it is and returns it.
    #[napi(ts_return_type = "OrchestratorSession")]
    pub fn session_end(&self) -> Session {
        out(|| self.inner.session_end())
    }

    /// Checks the current and history files; with `{ fix: true }` repairs the corrupt ones
    /// (keeping copies) and rebuilds the index.
    #[napi(
        ts_args_type = "options?: { fix?: boolean }",
        ts_return_type = "DoctorReport"
    )]
    pub fn doctor(&self, options: Option<Unknown<'_>>) -> Out<DoctorReport> {
        out(|| {
            self.inner
                .doctor(options_from_js::<DoctorOptions>(options, "options")?.fix)
        })
    }

    /// Repairs the corrupt document under `key` (default: the current session file): keeps a
    /// copy, writes the salvage. `null` when the file is absent or readable.
    #[napi(ts_args_type = "key?: string", ts_return_type = "Repair | null")]
    pub fn recover(&self, key: Option<StrArg<'_>>) -> Out<Option<Repair>> {
        out(|| {
            let key = args::opt_string(key, "key")?.map_or_else(|| Ok(current_key()), Key::new)?;
            self.inner.recover(&key)
        })
    }
}

impl OrchestratorStore {
    /// `complete` and `abort`.
    fn final_move(&self, to: SessionStatus, options: Option<Unknown<'_>>) -> Session {
        out(|| {
            let options: ArchiveOptions = options_from_js(options, "options")?;
            self.inner.move_to_with(to, options.replace)
        })
    }
}

/// A document argument read by the core's parser (see the module docs).
fn session_from_js(
    value: Unknown<'_>,
    name: &str,
    options: &ParseOptions,
) -> Result<OrchestratorSession> {
    parse_object_argument(name, &document_from_js(value, name)?, options)
}

/// The "RESUMING SESSION" data of `doc` at `now` (default: the system clock): `{session_id,
/// goal, status, started, started_relative, progress_percent, completed_work, in_progress,
/// pending, context, resume_from}`. `now` is an RFC 3339 string or a `Date`.
#[napi(
    ts_args_type = "doc: OrchestratorSession, now?: string | Date",
    ts_return_type = "ResumeSummary"
)]
pub fn resume_summary(doc: Unknown<'_>, now: Option<Unknown<'_>>) -> Out<ResumeSummary> {
    out(|| {
        let doc = session_from_js(doc, "doc", &ParseOptions::default())?;
        Ok(core::resume_summary(&doc, args::instant(now, "now")?))
    })
}

/// The "RESUMING SESSION" markdown block, from a summary (`resumeSummary`) or a document (then
/// summarised at the system clock's now).
#[napi(
    ts_args_type = "summaryOrDoc: ResumeSummary | OrchestratorSession",
    ts_return_type = "string"
)]
pub fn render_resume(summary_or_doc: Unknown<'_>) -> Out<String> {
    out(|| {
        let map = document_from_js(summary_or_doc, "summaryOrDoc")?;
        core::render_resume_argument("summaryOrDoc", map, SystemClock.now())
    })
}

/// Every complete field of torn or damaged bytes, made into a valid "1.0" document:
/// `{document, missing, replaced, partial, top_level_object, recovered_anything}`. Never
/// throws for any bytes.
#[napi(
    ts_args_type = "bytes: Uint8Array | string",
    ts_return_type = "Salvaged"
)]
pub fn salvage(bytes: Either<String, BytesArg<'_>>) -> Out<Salvaged> {
    out(|| {
        let bytes = match bytes {
            Either::A(text) => text.into_bytes(),
            Either::B(bytes) => args::bytes(bytes, "bytes")?,
        };
        Ok(core::salvage(&bytes))
    })
}

/// The JSON Schema of the schema "1.0" document.
#[napi(ts_return_type = "Record<string, unknown>")]
pub fn json_schema() -> Out<Value> {
    out(|| Ok(core::json_schema()))
}
