//! The orchestrator session (SPEC section 1) for JavaScript: the class `OrchestratorStore` and
//! the free functions `resumeSummary`, `renderResume`, `salvage` and `jsonSchema`. Documents are
//! plain objects of the file's shape, read with the core's own parser; none passed is mutated
//! but by `save`, which sets the saved `updated` on its argument as the core's `save` does.

use napi::JsValue;
use napi::bindgen_prelude::Env;
use napi_derive::napi;
use serde_json::Value;
use session_state::json::utf8_text;
use session_state::orchestrator::{
    self as core, AgentDone, AgentFail, AgentProgress, AgentStart, ArchiveOptions, ContextInput,
    DecisionInput, DoctorOptions, DoctorReport, HistoryOptions, HistoryPage, NewSession,
    OrchestratorSession, ParseOptions, Project, Repair, ResumeOptions, ResumeSummary, Salvaged,
    SessionStatus, StoreOptions, TaskAdd, TaskDone, current_key, parse_object_argument,
};
use session_state::ownership::Writer;
use session_state::{Clock, Key};
use session_state_fs::{SystemClock, beside};

use crate::any_store::WithHead;
use crate::args::{Any, Bytes, Doc, Instant, Json, Options};
use crate::errors::{Made, Out, json_parse, to_js_error};
use crate::json_text::session_argument;

type Core = core::OrchestratorStore<crate::AnyStore, SystemClock>;
type Replace = Options<ArchiveOptions>;

js_class!(
    #[doc = " The orchestrator session operations over a store (`.claude/orchestrator-session.json` and"]
    #[doc = " `.claude/orchestrator-history/`), stamping times with the system clock."]
    OrchestratorStore(Core);
    #[doc = " Operations over `store`, with the `OrchestratorStoreOptions` (`naiveOffsetMinutes`,"]
    #[doc = " `maxDocumentBytes`). Throws `invalid_input` for a value that is not a store or bad options."]
    new(store: WithHead, options: Options<StoreOptions>) = "store: Store, options?: OrchestratorStoreOptions" => {
        let inner = options.0.apply(Core::new(store.0, SystemClock), "options")?;
        Ok(OrchestratorStore { inner: inner.with_git_head(store.1) })
    };
    #[doc = " The key of the current session file: `.claude/orchestrator-session.json`."]
    get current_key(&self) -> String = "string" => current_key().to_string();
    #[doc = " Who this handle writes as, or `null`."]
    get writer(&self) -> Out<Option<Writer>> = "Writer | null" => Out(Ok(self.inner.writer()));
);

#[napi]
impl OrchestratorStore {
    /// The current session, or `null` when there is none. Throws `corrupt_state` (with
    /// `salvaged`), `incompatible_schema`, `invalid_key`, `invalid_input` (too large), `storage`.
    #[napi(ts_return_type = "OrchestratorSession | null")]
    pub fn load(&self, env: Env) -> napi::Result<Made> {
        let throw = |err| to_js_error(&env, err);
        let key = current_key();
        let Some(bytes) = self.inner.store().read(&key).map_err(throw)? else {
            return json_parse(&env, "null").map(Made);
        };
        if !self.inner.needs_check(&key, &bytes).map_err(throw)? {
            return json_parse(&env, &utf8_text(&bytes)).map(Made);
        }
        // Another writer's file: the core's check runs on a second thread while this one
        // builds the values from the bytes, kept when the check finds them the document's text.
        let options = self.inner.options();
        let (checked, built) = beside(
            || core::document_text(&key, &bytes, options),
            || std::str::from_utf8(&bytes).map(|text| json_parse(&env, text)),
        );
        match (checked.map_err(throw)?, built) {
            (None, Ok(built)) => built.map(Made),
            (None, Err(_)) => json_parse(&env, &utf8_text(&bytes)).map(Made),
            (Some(text), _) => json_parse(&env, &text).map(Made),
        }
    }

    /// Saves `doc` as the current session with `updated` set to now, on `doc` too (its one
    /// change: saved again after a change, it is not stale), and returns the saved document. A
    /// current file that does not parse is copied aside first.
    #[napi(
        ts_args_type = "doc: OrchestratorSession",
        ts_return_type = "OrchestratorSession"
    )]
    pub fn save(&self, env: Env, doc: Any<'_>) -> napi::Result<Made> {
        let throw = |err| to_js_error(&env, err);
        let argument = doc;
        let mut doc = session_argument(argument, "doc", self.inner.options()).map_err(throw)?;
        let pending = self.inner.prepare_save(&mut doc).map_err(throw)?;
        // A store doing its own I/O commits on a second thread while this one builds the
        // saved document's values from its text.
        let built = if let Some(store) = self.inner.store().beside() {
            let (committed, built) = beside(
                || pending.commit(store),
                || json_parse(&env, &pending.text()),
            );
            committed.map_err(throw)?;
            built
        } else {
            pending.commit(self.inner.store()).map_err(throw)?;
            json_parse(&env, &pending.text())
        };
        // Committed: the handle's own file, and the argument's `updated` (as an assignment
        // sets it: a frozen object keeps its own; a setter's exception reaches the caller),
        // whatever the build gave.
        let updated = pending.updated().map(|updated| updated.to_string());
        self.inner.saved(pending);
        if let Some(updated) = updated {
            argument.coerce_to_object()?.set("updated", updated)?;
        }
        built.map(Made)
    }
}

js_methods!(OrchestratorStore {
    #[doc = " Writes `doc` to `.claude/orchestrator-history/{session_id}.json`, removes the current file"]
    #[doc = " if it holds that session, returns the archive key. Throws `already_exists` unless `replace`."]
    fn archive(&self, doc: Doc, options: Replace) -> String
        = "doc: OrchestratorSession, options?: { replace?: boolean }", "string" => {
        let doc = parse_object_argument("doc", &doc, self.inner.options())?;
        Ok(self.inner.archive(&doc, options.0.replace)?.to_string())
    };
    #[doc = " One page of archived sessions, newest first: `{ entries, skipped, total }`. Options:"]
    #[doc = " `limit` (default 10), `offset` (default 0), `status` (only that status)."]
    fn list_history(&self, query: Options<HistoryOptions>) -> HistoryPage
        = "query?: HistoryQuery", "HistoryPage"
        => self.inner.list_history(&query.0.query());
    #[doc = " `in_progress → complete`, then archive; all or nothing. Throws `already_exists` (and"]
    #[doc = " changes nothing) when the archive exists, unless `{ replace: true }`."]
    fn complete(&self, options: Replace) -> OrchestratorSession
        = "options?: { replace?: boolean }", "OrchestratorSession"
        => self.inner.move_to_with(SessionStatus::Complete, options.0.replace);
    #[doc = " `created | paused | in_progress → aborted`, then archive; all or nothing, as `complete`."]
    fn abort(&self, options: Replace) -> OrchestratorSession
        = "options?: { replace?: boolean }", "OrchestratorSession"
        => self.inner.move_to_with(SessionStatus::Aborted, options.0.replace);
    #[doc = " The verb `new`: a new current session, id `input.id` or `YYYY-MM-DD-{suffix}` (default"]
    #[doc = " suffix from the clock); see `NewSession.archive_current` for a current one."]
    fn record_new(&self, input: Json<NewSession>, project: Json<Project>, suffix: Option<String>) -> OrchestratorSession
        = "input: NewSession, project: Project, suffix?: string", "OrchestratorSession"
        => self.inner.record_new(&input.0, project.0, suffix.as_deref());
    #[doc = " Checks the current and history files; with `{ fix: true }` repairs the corrupt ones"]
    #[doc = " (keeping copies) and rebuilds the index."]
    fn doctor(&self, options: Options<DoctorOptions>) -> DoctorReport
        = "options?: { fix?: boolean }", "DoctorReport"
        => self.inner.doctor(options.0.fix);
    #[doc = " Repairs the corrupt document under `key` (default: the current session file): keeps a"]
    #[doc = " copy, writes the salvage. `null` when the file is absent or readable."]
    fn recover(&self, key: Option<Key>) -> Option<Repair> = "key?: string", "Repair | null"
        => self.inner.recover(&key.unwrap_or_else(current_key));
});

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
    #[doc = " The verb `agent progress`: the agent's `progress`, any number from 0 to 100."]
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

js_functions! {
    #[doc = " The \"RESUMING SESSION\" data of `doc` at `now` (an RFC 3339 string or a `Date`; default:"]
    #[doc = " the system clock); `options` (`stale_after_hours`, `git_head`) say when `stale` notes an"]
    #[doc = " old save or a moved HEAD."]
    fn resume_summary(doc: Doc, now: Option<Instant>, options: Options<ResumeOptions>) -> ResumeSummary
        = "doc: OrchestratorSession, now?: string | Date | null, options?: ResumeOptions", "ResumeSummary" => {
        let doc = parse_object_argument("doc", &doc, &ParseOptions::default())?;
        Ok(core::resume_summary_with(&doc, now.unwrap_or_else(|| SystemClock.now()), &options.0))
    };
    #[doc = " The \"RESUMING SESSION\" markdown block, from a summary (`resumeSummary`) or a document (then"]
    #[doc = " summarised at the system clock's now)."]
    fn render_resume(summaryOrDoc: Doc) -> String
        = "summaryOrDoc: ResumeSummary | OrchestratorSession", "string"
        => core::render_resume_argument("summaryOrDoc", summaryOrDoc, SystemClock.now());
    #[doc = " Every complete field of torn or damaged bytes, made into a valid \"1.0\" document (never"]
    #[doc = " throws): `{document, missing, replaced, partial, top_level_object, recovered_anything}`."]
    fn salvage(bytes: Bytes) -> Salvaged
        = "bytes: Uint8Array | string", "Salvaged"
        => Ok(core::salvage(&bytes.0));
    #[doc = " The JSON Schema of the schema \"1.0\" document."]
    fn json_schema() -> Value = "", "Record<string, unknown>" => Ok(core::json_schema());
}
