//! `OrchestratorStore` and the free functions `resumeSummary`, `renderResume` and `salvage`:
//! the core's [`session_state::orchestrator`] as JS (SPEC section 1). Documents
//! cross in their file format (snake_case keys); method names are camelCase, parameter names
//! the JS names.
#![allow(non_snake_case)]

use chrono::{DateTime, Utc};
use js_sys::Reflect;
use session_state::Key;
use session_state::orchestrator::{
    self as core, AgentDone, AgentFail, AgentProgress, AgentStart, ArchiveOptions, ContextInput,
    DecisionInput, DoctorOptions, HistoryOptions, NewSession, ParseOptions, SessionStatus,
    StoreOptions, TaskAdd, TaskDone, current_key,
};
use wasm_bindgen::prelude::*;

use crate::clock::JsClock;
use crate::convert::{Arg, Doc, Json, Options, from_json, js_methods};
use crate::errors::{JsResult, Thrown};
use crate::stores::AnyStore;

/// Save, load, archive, list and move an orchestrator session in a store (time from
/// `Date.now()`).
#[wasm_bindgen]
#[derive(Debug)]
pub struct OrchestratorStore {
    pub(crate) inner: core::OrchestratorStore<AnyStore, JsClock>,
}

#[wasm_bindgen]
impl OrchestratorStore {
    /// Operations over `store`; throws `invalid_input` for a non-store or bad options.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Store")] store: &JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "OrchestratorStoreOptions")]
        options: &JsValue,
    ) -> JsResult<OrchestratorStore> {
        let options = Options::<StoreOptions>::arg(options, "options")?.0;
        let inner = core::OrchestratorStore::new(AnyStore::arg(store, "store")?, JsClock);
        let inner = options.apply(inner, "options")?;
        Ok(OrchestratorStore { inner })
    }

    /// Saves `doc` as the current session (`updated`: now, set on `doc` too; a corrupt one is
    /// kept aside) and returns the saved document.
    #[wasm_bindgen(unchecked_return_type = "OrchestratorSession")]
    pub fn save(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OrchestratorSession")] doc: &JsValue,
    ) -> JsResult<JsValue> {
        let options = self.inner.options();
        let pending = self.inner.prepare_save(&mut core::parse_object_argument(
            "doc",
            &Doc::arg(doc, "doc")?,
            options,
        )?)?;
        pending.commit(self.inner.store())?;
        let saved = from_json(&pending.text());
        // Committed: the handle's own file, whatever the build gave.
        self.inner.saved(pending);
        let saved = saved?;
        // As an assignment sets it: a frozen `doc` keeps its own; a setter's exception reaches
        // the caller.
        let updated = JsValue::from_str("updated");
        let value = Reflect::get(&saved, &updated).map_err(Thrown)?;
        Reflect::set(doc, &updated, &value).map_err(Thrown)?;
        Ok(saved)
    }

    /// The key of the current session file: `.claude/orchestrator-session.json`.
    #[wasm_bindgen(getter, js_name = currentKey)]
    pub fn current_key(&self) -> String {
        current_key().to_string()
    }
}

js_methods!(OrchestratorStore {
    #[doc = " Archives `doc` and returns its key; `already_exists` unless `{ replace: true }`."]
    fn archive as archive(&self, doc: Doc = "OrchestratorSession"; options: JsValue =
        "{ replace?: boolean } | null") -> "string" => {
        let doc = core::parse_object_argument("doc", &doc, self.inner.options())?;
        let replace = Options::<ArchiveOptions>::arg(&options, "options")?.replace;
        self.inner.archive(&doc, replace).map(|key| key.to_string())
    };
    #[doc = " One page of archived sessions, newest first (`limit` 10 and `offset` 0 by default)."]
    fn listHistory as list_history(&self; query: Options<HistoryOptions> = "HistoryQuery")
        -> "HistoryPage" => self.inner.list_history(&query.query());
    #[doc = " `in_progress → complete`, then archive, all or nothing (`replace` as `archive`)."]
    fn complete as complete(&self; options: Options<ArchiveOptions> =
        "{ replace?: boolean } | null") -> "OrchestratorSession" =>
        self.inner.move_to_with(SessionStatus::Complete, options.replace);
    #[doc = " `created | paused | in_progress → aborted`, then archive, all or nothing."]
    fn abort as abort(&self; options: Options<ArchiveOptions> = "{ replace?: boolean } | null")
        -> "OrchestratorSession" =>
        self.inner.move_to_with(SessionStatus::Aborted, options.replace);
    #[doc = " The verb `new`: a new current session, id `input.id` or `YYYY-MM-DD-{suffix}`."]
    fn recordNew as record_new(&self, input: Json<NewSession> = "NewSession", project: JsValue =
        "Project"; suffix: Option<String> = "string | null") -> "OrchestratorSession" =>
        self.inner.record_new(&input, Json::arg(&project, "project")?.0, suffix.as_deref());
    #[doc = " Checks the current file and every archive; `fix: true` repairs them, keeping copies."]
    fn doctor as doctor(&self; options: Options<DoctorOptions> = "{ fix?: boolean }")
        -> "DoctorReport" => self.inner.doctor(options.fix);
    #[doc = " Repairs the corrupt document `key` (default: current), keeping a copy; else `null`."]
    fn recover as recover(&self; key: Option<Key> = "string | null") -> "Repair | null" =>
        self.inner.recover(&key.unwrap_or_else(current_key));
    #[doc = " Rebuilds the history listing index from the archive files."]
    fn rebuildIndex as rebuild_index(&self);
    #[doc = " The current session, or `null`; `corrupt_state` carries what was `salvaged`."]
    fn load as load(&self) -> "OrchestratorSession | null";
    #[doc = " `created → in_progress`; returns the saved document."]
    fn start as start(&self) -> "OrchestratorSession";
    #[doc = " `in_progress → paused`; returns the saved document."]
    fn pause as pause(&self) -> "OrchestratorSession";
    #[doc = " `paused → in_progress` (the seed's `continue`); returns the saved document."]
    fn resume as resume(&self) -> "OrchestratorSession";
    #[doc = " The verb `save`: writes the current session again with `updated` set to now."]
    fn recordSave as record_save(&self) -> "OrchestratorSession";
    #[doc = " The save before a context compression."]
    fn beforeCompression as before_compression(&self) -> "OrchestratorSession";
    #[doc = " The save at the end of a session."]
    fn sessionEnd as session_end(&self) -> "OrchestratorSession";
    #[doc = " The verb `agent start`: adds the agent (an agent with the same id is replaced)."]
    fn recordAgentStart as record_agent_start(&self, input: Json<AgentStart> = "AgentStart")
        -> "OrchestratorSession";
    #[doc = " The verb `agent progress`: the agent's `progress`, any number from 0 to 100."]
    fn recordAgentProgress as record_agent_progress(&self, input: Json<AgentProgress> =
        "AgentProgress") -> "OrchestratorSession";
    #[doc = " The verb `agent done`: status `complete`, its work appended to `completed_work`."]
    fn recordAgentDone as record_agent_done(&self, input: Json<AgentDone> = "AgentDone")
        -> "OrchestratorSession";
    #[doc = " The verb `agent fail`: status `failed`, the error logged in `errors`."]
    fn recordAgentFail as record_agent_fail(&self, input: Json<AgentFail> = "AgentFail")
        -> "OrchestratorSession";
    #[doc = " The verb `decision`: appends `{decision, rationale, timestamp}` to `decisions_made`."]
    fn recordDecision as record_decision(&self, input: Json<DecisionInput> = "DecisionInput")
        -> "OrchestratorSession";
    #[doc = " The verb `task add`: appends the task to `pending_tasks`."]
    fn recordTaskAdd as record_task_add(&self, input: Json<TaskAdd> = "TaskAdd")
        -> "OrchestratorSession";
    #[doc = " The verb `task done`: the saved document and the text of the task done."]
    fn recordTaskDone as record_task_done(&self, input: Json<TaskDone> = "TaskDone")
        -> "[OrchestratorSession, string]";
    #[doc = " The verb `context`: the context figures; `compressed` sets `last_compression`."]
    fn recordContext as record_context(&self, input: Json<ContextInput> = "ContextInput")
        -> "OrchestratorSession";
});

js_methods!(fn {
    #[doc = " The \"RESUMING SESSION\" summary of `doc` at `now` (default now), with `stale`."]
    fn resumeSummary as resume_summary(doc: Doc = "OrchestratorSession"; now: JsValue =
        "string | Date", options: JsValue = "ResumeOptions") -> "ResumeSummary" => {
        let doc = core::parse_object_argument("doc", &doc, &ParseOptions::default())?;
        let options = Options::<core::ResumeOptions>::arg(&options, "options")?;
        Ok(core::resume_summary_with(&doc, DateTime::<Utc>::arg(&now, "now")?, &options))
    };
    #[doc = " The markdown \"RESUMING SESSION\" block of a summary or a document."]
    fn renderResume as render_resume(summaryOrDoc: Doc = "ResumeSummary | OrchestratorSession")
        -> "string" => core::render_resume_argument("summaryOrDoc", summaryOrDoc,
            session_state::Clock::now(&JsClock));
    #[doc = " Every complete field of torn or damaged bytes, made into a valid \"1.0\" document."]
    fn salvage as salvage(bytes: Vec<u8> = "Uint8Array | string") -> "Salvaged" =>
        Ok(core::salvage(&bytes));
});
