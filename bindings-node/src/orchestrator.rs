//! The orchestrator session (SPEC section 1) for JavaScript: the class `OrchestratorStore`
//! and the free functions `resumeSummary`, `renderResume`, `salvage` and `jsonSchema`.
//!
//! Documents go in and out as plain objects of the file's shape (`schema_version`,
//! `session_id`, ... in snake_case, as in `.claude/orchestrator-session.json`). A document
//! passed in is read with the core's own parser, so a wrong shape is an `invalid_input` error
//! naming the field (`agents[1].progress`), an unsafe `session_id` is `invalid_key` and another
//! schema version `incompatible_schema`. Nothing the caller passes is mutated: `save` returns
//! the saved document (with the new `updated`) instead.

use napi::bindgen_prelude::{Either, Env, FromNapiValue, Unknown};
use napi_derive::napi;
use serde_json::Value;
use session_state::orchestrator::{
    self as core, AgentDone, AgentFail, AgentProgress, AgentStart, ArchiveOptions, ContextInput,
    DecisionInput, DoctorOptions, DoctorReport, HistoryOptions, HistoryPage, NewSession,
    OrchestratorSession, ParseOptions, Project, Repair, ResumeOptions, ResumeSummary, Salvaged,
    SessionStatus, StoreOptions, TaskAdd, TaskDone, current_key, parse_object_argument,
};
use session_state::{Clock, Key};
use session_state_fs::SystemClock;

use crate::any_store::AnyStore;
use crate::args::{Any, Arg, Doc, Instant, Json, Options, napi_failed};
use crate::errors::{JsonText, Out, out};
use crate::json_text::session_argument;

type Core = core::OrchestratorStore<AnyStore, SystemClock>;
type Replace = Options<ArchiveOptions>;
type Saved = Out<OrchestratorSession>;

/// The orchestrator session operations over a store (`.claude/orchestrator-session.json` and
/// `.claude/orchestrator-history/`), stamping times with the system clock.
#[napi]
#[derive(Debug)]
pub struct OrchestratorStore {
    pub(crate) inner: Core,
}

#[napi]
#[allow(non_snake_case)]
impl OrchestratorStore {
    /// Operations over `store`, with the `OrchestratorStoreOptions` (`naiveOffsetMinutes`,
    /// `maxDocumentBytes`). Throws `invalid_input` for a value that is not a store or bad options.
    #[napi(
        constructor,
        ts_args_type = "store: Store, options?: OrchestratorStoreOptions"
    )]
    pub fn new(env: Env, store: Any<'_>, options: Any<'_>) -> napi::Result<Self> {
        let head = crate::git_head::of_store(store);
        construct!(env; store: AnyStore, options: Options<StoreOptions> => {
            let inner = options.0.apply(Core::new(store, SystemClock), "options")?;
            let inner = inner.with_git_head(head);
            Ok(OrchestratorStore { inner })
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
    pub fn load(&self) -> JsonText {
        JsonText(self.inner.load_json())
    }

    /// Saves `doc` as the current session with `updated` set to now, and returns the saved
    /// document (`doc` itself is not changed). A current file that does not parse is copied
    /// aside first.
    #[napi(
        ts_args_type = "doc: OrchestratorSession",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn save(&self, doc: Any<'_>) -> Out<OrchestratorSession> {
        out(|| {
            let mut doc = session_argument(doc, "doc", self.inner.options())?;
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
    pub fn archive(&self, doc: Any<'_>, options: Any<'_>) -> Out<String> {
        run!(doc: Doc, options: Replace => {
            let doc = parse_object_argument("doc", &doc, self.inner.options())?;
            Ok(self.inner.archive(&doc, options.0.replace)?.to_string())
        })
    }

    /// One page of archived sessions, newest first: `{ entries, skipped, total }`. Options:
    /// `limit` (default 10), `offset` (default 0), `status` (only that status).
    #[napi(ts_args_type = "query?: HistoryQuery", ts_return_type = "HistoryPage")]
    pub fn list_history(&self, query: Any<'_>) -> Out<HistoryPage> {
        run!(query: Options<HistoryOptions> => self.inner.list_history(&query.0.query()))
    }

    /// `in_progress → complete`, then archive; all or nothing. Throws `already_exists` (and
    /// changes nothing) when the archive exists, unless `{ replace: true }`.
    #[napi(
        ts_args_type = "options?: { replace?: boolean }",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn complete(&self, options: Any<'_>) -> Out<OrchestratorSession> {
        run!(options: Replace => self.inner.move_to_with(SessionStatus::Complete, options.0.replace))
    }

    /// `created | paused | in_progress → aborted`, then archive; all or nothing, as `complete`.
    #[napi(
        ts_args_type = "options?: { replace?: boolean }",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn abort(&self, options: Any<'_>) -> Out<OrchestratorSession> {
        run!(options: Replace => self.inner.move_to_with(SessionStatus::Aborted, options.0.replace))
    }

    /// The verb `new`: a new current session, id `input.id` or `YYYY-MM-DD-{suffix}` (default
    /// suffix from the clock); see `NewSession.archive_current` for a current one.
    #[napi(
        ts_args_type = "input: NewSession, project: Project, suffix?: string",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn record_new(&self, input: Any<'_>, project: Any<'_>, suffix: Any<'_>) -> Saved {
        run!(input: Json<NewSession>, project: Json<Project>, suffix: Option<String>
            => self.inner.record_new(&input.0, project.0, suffix.as_deref()))
    }

    /// Checks the current and history files; with `{ fix: true }` repairs the corrupt ones
    /// (keeping copies) and rebuilds the index.
    #[napi(
        ts_args_type = "options?: { fix?: boolean }",
        ts_return_type = "DoctorReport"
    )]
    pub fn doctor(&self, options: Any<'_>) -> Out<DoctorReport> {
        run!(options: Options<DoctorOptions> => self.inner.doctor(options.0.fix))
    }

    /// Repairs the corrupt document under `key` (default: the current session file): keeps a
    /// copy, writes the salvage. `null` when the file is absent or readable.
    #[napi(ts_args_type = "key?: string", ts_return_type = "Repair | null")]
    pub fn recover(&self, key: Any<'_>) -> Out<Option<Repair>> {
        run!(key: Option<Key> => self.inner.recover(&key.unwrap_or_else(current_key)))
    }
}

core_methods!(OrchestratorStore:
    #[doc = " Rebuilds the history listing index from the history files."]
    rebuild_index() -> () = "", "void";
    #[doc = " `created → in_progress`; returns the saved document. Throws `invalid_transition`,"]
    #[doc = " `not_found` (no current session)."]
    start() -> OrchestratorSession = "", "OrchestratorSession";
    #[doc = " `in_progress → paused`."]
    pause() -> OrchestratorSession = "", "OrchestratorSession";
    #[doc = " `paused → in_progress` (the seed's `continue`)."]
    resume() -> OrchestratorSession = "", "OrchestratorSession";
    #[doc = " The verb `agent start`: adds the agent (an agent with the same id is replaced)."]
    record_agent_start(input: Json<AgentStart>) -> OrchestratorSession = "input: AgentStart", "OrchestratorSession";
    #[doc = " The verb `agent progress`: the agent's `progress`, an integer from 0 to 100."]
    record_agent_progress(input: Json<AgentProgress>) -> OrchestratorSession = "input: AgentProgress", "OrchestratorSession";
    #[doc = " The verb `agent done`: status `complete`, its work appended to `completed_work`."]
    record_agent_done(input: Json<AgentDone>) -> OrchestratorSession = "input: AgentDone", "OrchestratorSession";
    #[doc = " The verb `agent fail`: status `failed`, the error logged in `errors`."]
    record_agent_fail(input: Json<AgentFail>) -> OrchestratorSession = "input: AgentFail", "OrchestratorSession";
    #[doc = " The verb `decision`: appends `{decision, rationale, timestamp}` to `decisions_made`."]
    record_decision(input: Json<DecisionInput>) -> OrchestratorSession = "input: DecisionInput", "OrchestratorSession";
    #[doc = " The verb `task add`: appends the task to `pending_tasks`."]
    record_task_add(input: Json<TaskAdd>) -> OrchestratorSession = "input: TaskAdd", "OrchestratorSession";
    #[doc = " The verb `task done`: the saved document and the text of the task done."]
    record_task_done(input: Json<TaskDone>) -> (OrchestratorSession, String) = "input: TaskDone", "[OrchestratorSession, string]";
    #[doc = " The verb `context`: the context figures; `compressed` sets `last_compression`."]
    record_context(input: Json<ContextInput>) -> OrchestratorSession = "input: ContextInput", "OrchestratorSession";
    #[doc = " The verb `save`: writes the current session again with `updated` set to now."]
    record_save() -> OrchestratorSession = "", "OrchestratorSession";
    #[doc = " Auto-save \"before compression\": sets `context_usage.last_compression` to now."]
    before_compression() -> OrchestratorSession = "", "OrchestratorSession";
    #[doc = " Auto-save \"session end\": archives the current session as it is and returns it."]
    session_end() -> OrchestratorSession = "", "OrchestratorSession";
);

/// The "RESUMING SESSION" data of `doc` at `now` (default: the system clock): `{session_id,
/// goal, status, started, started_relative, progress_percent, completed_work, in_progress,
/// pending, context, resume_from, stale}`. `now` is an RFC 3339 string or a `Date`; `options`
/// (`ResumeOptions`: `stale_after_hours`, `git_head`) say when `stale` notes an old save or a
/// moved HEAD.
#[napi(
    ts_args_type = "doc: OrchestratorSession, now?: string | Date | null, options?: ResumeOptions",
    ts_return_type = "ResumeSummary"
)]
pub fn resume_summary(doc: Any<'_>, now: Any<'_>, options: Any<'_>) -> Out<ResumeSummary> {
    run!(doc: Doc, now: Option<Instant>, options: Options<ResumeOptions> => {
        let doc = parse_object_argument("doc", &doc, &ParseOptions::default())?;
        let now = now.unwrap_or_else(|| SystemClock.now());
        Ok(core::resume_summary_with(&doc, now, &options.0))
    })
}

/// The "RESUMING SESSION" markdown block, from a summary (`resumeSummary`) or a document (then
/// summarised at the system clock's now).
#[napi(
    ts_args_type = "summaryOrDoc: ResumeSummary | OrchestratorSession",
    ts_return_type = "string"
)]
#[allow(non_snake_case)]
pub fn render_resume(summaryOrDoc: Any<'_>) -> Out<String> {
    run!(summaryOrDoc: Doc => core::render_resume_argument("summaryOrDoc", summaryOrDoc, SystemClock.now()))
}

/// Every complete field of torn or damaged bytes, made into a valid "1.0" document:
/// `{document, missing, replaced, partial, top_level_object, recovered_anything}`. Never
/// throws for any bytes.
#[napi(
    ts_args_type = "bytes: Uint8Array | string",
    ts_return_type = "Salvaged"
)]
pub fn salvage(bytes: Any<'_>) -> Out<Salvaged> {
    out(
        || match Either::<String, Unknown<'_>>::from_unknown(bytes) {
            Ok(Either::A(text)) => Ok(core::salvage(text.as_bytes())),
            Ok(Either::B(other)) => Ok(core::salvage(&Vec::<u8>::arg(other, "bytes")?)),
            Err(e) => Err(napi_failed("bytes", &e)),
        },
    )
}

/// The JSON Schema of the schema "1.0" document.
#[napi(ts_return_type = "Record<string, unknown>")]
pub fn json_schema() -> Out<Value> {
    Out(Ok(core::json_schema()))
}
