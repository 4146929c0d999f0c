//! `OrchestratorStore` and the free functions `resumeSummary`, `renderResume`, `salvage`,
//! `jsonSchema`: the core's [`session_state::orchestrator`] as JS (SPEC section 1). Documents
//! cross in their file format (snake_case keys); method names are camelCase, parameter names
//! the JS names.
#![allow(non_snake_case)]

use session_state::orchestrator::{
    self as core, AgentDone, AgentFail, AgentProgress, AgentStart, ArchiveOptions, ContextInput,
    DecisionInput, DoctorOptions, HistoryOptions, NewSession, OrchestratorSession, ParseOptions,
    SessionStatus, StoreOptions, TaskAdd, TaskDone, current_key,
};
use wasm_bindgen::prelude::*;

use crate::clock::JsClock;
use crate::convert::{
    ReplaceArg, SessionArg, StoreArg, Text, bytes_arg, document_from_js, from_js, instant_arg,
    key_arg, opt_text, options_arg, string_methods, to_js,
};
use crate::errors::{JsResult, describe, invalid_input};
use crate::stores::{AnyStore, store_arg};

/// Save, load, archive, list and move an orchestrator session in a store (time from
/// `Date.now()`).
#[wasm_bindgen]
#[derive(Debug)]
pub struct OrchestratorStore {
    pub(crate) inner: core::OrchestratorStore<AnyStore, JsClock>,
}

/// The document argument `doc`, read by the core's `parse_object_argument`.
fn document_arg(doc: &JsValue, options: &ParseOptions) -> JsResult<OrchestratorSession> {
    Ok(core::parse_object_argument(
        "doc",
        &document_from_js(doc, "doc")?,
        options,
    )?)
}

#[wasm_bindgen]
impl OrchestratorStore {
    /// Operations over `store`; throws `invalid_input` for a non-store or bad options.
    #[wasm_bindgen(constructor)]
    pub fn new(
        store: &StoreArg,
        #[wasm_bindgen(unchecked_optional_param_type = "OrchestratorStoreOptions")]
        options: &JsValue,
    ) -> JsResult<OrchestratorStore> {
        let options: StoreOptions = options_arg(options, "options")?;
        let inner = core::OrchestratorStore::new(store_arg(store)?, JsClock);
        let inner = options.apply(inner, "options")?;
        Ok(OrchestratorStore { inner })
    }

    /// The key of the current session file: `.claude/orchestrator-session.json`.
    #[wasm_bindgen(getter, js_name = currentKey)]
    pub fn current_key(&self) -> String {
        current_key().to_string()
    }

    /// Saves `doc` as the current session with `updated` set to now and returns the saved
    /// document; a current file that does not parse is kept aside first.
    #[wasm_bindgen(unchecked_return_type = "OrchestratorSession")]
    pub fn save(&self, doc: &SessionArg) -> JsResult<JsValue> {
        let mut doc = document_arg(doc, self.inner.options())?;
        self.inner.save(&mut doc)?;
        to_js(&doc)
    }

    /// Archives `doc` (removing the current file when it holds the same session) and returns
    /// the archive key; `already_exists` when it exists, unless `{ replace: true }`.
    pub fn archive(&self, doc: &SessionArg, options: Option<ReplaceArg>) -> JsResult<String> {
        let doc = document_arg(doc, self.inner.options())?;
        let flags: ArchiveOptions = options_arg(&JsValue::from(options), "options")?;
        Ok(self.inner.archive(&doc, flags.replace)?.to_string())
    }

    /// One page of archived sessions, newest first (`limit` 10 and `offset` 0 by default).
    #[wasm_bindgen(js_name = listHistory, unchecked_return_type = "HistoryPage")]
    pub fn list_history(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "HistoryQuery")] query: &JsValue,
    ) -> JsResult<JsValue> {
        let query: HistoryOptions = options_arg(query, "query")?;
        to_js(&self.inner.list_history(&query.query())?)
    }

    /// `in_progress → complete`, then archive, all or nothing (`replace` as `archive`).
    #[wasm_bindgen(unchecked_return_type = "OrchestratorSession")]
    pub fn complete(&self, options: Option<ReplaceArg>) -> JsResult<JsValue> {
        self.final_move(SessionStatus::Complete, options)
    }

    /// `created | paused | in_progress → aborted`, then archive; all or nothing, as `complete`.
    #[wasm_bindgen(unchecked_return_type = "OrchestratorSession")]
    pub fn abort(&self, options: Option<ReplaceArg>) -> JsResult<JsValue> {
        self.final_move(SessionStatus::Aborted, options)
    }

    /// The verb `new`: a new current session, id `input.id` or `YYYY-MM-DD-{suffix}` (default
    /// suffix from the clock); see `NewSession.archive_current` for a current one.
    #[wasm_bindgen(js_name = recordNew, unchecked_return_type = "OrchestratorSession")]
    pub fn record_new(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NewSession")] input: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "Project")] project: &JsValue,
        suffix: Option<Text>,
    ) -> JsResult<JsValue> {
        let (input, suffix) = (
            from_js::<NewSession>(input, "input")?,
            opt_text(suffix, "suffix")?,
        );
        to_js(
            &self
                .inner
                .record_new(&input, from_js(project, "project")?, suffix.as_deref())?,
        )
    }

    /// Checks the current file and every archive; `fix: true` repairs them, keeping copies.
    #[wasm_bindgen(unchecked_return_type = "DoctorReport")]
    pub fn doctor(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "{ fix?: boolean }")] options: &JsValue,
    ) -> JsResult<JsValue> {
        let flags: DoctorOptions = options_arg(options, "options")?;
        to_js(&self.inner.doctor(flags.fix)?)
    }

    /// Repairs the corrupt document under `key` (default: the current one), keeping a copy;
    /// `null` when it is absent or readable.
    #[wasm_bindgen(unchecked_return_type = "Repair | null")]
    pub fn recover(&self, key: Option<Text>) -> JsResult<JsValue> {
        let key = key.map_or(Ok(current_key()), |key| key_arg(&key, "key"))?;
        to_js(&self.inner.recover(&key)?)
    }

    /// Rebuilds the history listing index from the archive files.
    #[wasm_bindgen(js_name = rebuildIndex)]
    pub fn rebuild_index(&self) -> JsResult<()> {
        Ok(self.inner.rebuild_index()?)
    }
}

string_methods!(OrchestratorStore:
    #[doc = " The current session, or `null`; throws `corrupt_state` (with `salvaged`),"]
    #[doc = " `incompatible_schema`, `invalid_input` (too large), `storage`."]
    load() -> "OrchestratorSession | null" = load;
    #[doc = " `created → in_progress`; returns the saved document."]
    start() -> "OrchestratorSession" = start;
    #[doc = " `in_progress → paused`; returns the saved document."]
    pause() -> "OrchestratorSession" = pause;
    #[doc = " `paused → in_progress` (the seed's `continue`); returns the saved document."]
    resume() -> "OrchestratorSession" = resume;
    #[doc = " The verb `save`: writes the current session again with `updated` set to now."]
    recordSave() -> "OrchestratorSession" = record_save;
    #[doc = " The save before a context compression."]
    beforeCompression() -> "OrchestratorSession" = before_compression;
    #[doc = " The save at the end of a session."]
    sessionEnd() -> "OrchestratorSession" = session_end;
);

/// The recording verbs: `#[doc = " ..."]` lines, `jsName(CoreType: "TS") -> "TS" = method;`.
macro_rules! record_methods {
    ($($(#[doc = $doc:literal])+ $js:ident($input:ident: $arg:literal) -> $ts:literal = $name:ident;)+) => {
        #[wasm_bindgen]
        impl OrchestratorStore {$(
            $(#[doc = $doc])+
            #[wasm_bindgen(js_name = $js, unchecked_return_type = $ts)]
            pub fn $name(&self, #[wasm_bindgen(unchecked_param_type = $arg)] input: &JsValue)
                -> JsResult<JsValue> { to_js(&self.inner.$name(&from_js::<$input>(input, "input")?)?) }
        )+}
    };
}

record_methods!(
    #[doc = " The verb `agent start`: adds the agent (an agent with the same id is replaced)."]
    recordAgentStart(AgentStart: "AgentStart") -> "OrchestratorSession" = record_agent_start;
    #[doc = " The verb `agent progress`: the agent's `progress`, an integer from 0 to 100."]
    recordAgentProgress(AgentProgress: "AgentProgress") -> "OrchestratorSession" = record_agent_progress;
    #[doc = " The verb `agent done`: status `complete`, its work appended to `completed_work`."]
    recordAgentDone(AgentDone: "AgentDone") -> "OrchestratorSession" = record_agent_done;
    #[doc = " The verb `agent fail`: status `failed`, the error logged in `errors`."]
    recordAgentFail(AgentFail: "AgentFail") -> "OrchestratorSession" = record_agent_fail;
    #[doc = " The verb `decision`: appends `{decision, rationale, timestamp}` to `decisions_made`."]
    recordDecision(DecisionInput: "DecisionInput") -> "OrchestratorSession" = record_decision;
    #[doc = " The verb `task add`: appends the task to `pending_tasks`."]
    recordTaskAdd(TaskAdd: "TaskAdd") -> "OrchestratorSession" = record_task_add;
    #[doc = " The verb `task done`: the saved document and the text of the task done."]
    recordTaskDone(TaskDone: "TaskDone") -> "[OrchestratorSession, string]" = record_task_done;
    #[doc = " The verb `context`: the context figures; `compressed` sets `last_compression`."]
    recordContext(ContextInput: "ContextInput") -> "OrchestratorSession" = record_context;
);

impl OrchestratorStore {
    /// `complete`/`abort`: the final move and the archive, with the `replace` option.
    fn final_move(&self, to: SessionStatus, options: Option<ReplaceArg>) -> JsResult<JsValue> {
        let flags: ArchiveOptions = options_arg(&JsValue::from(options), "options")?;
        to_js(&self.inner.move_to_with(to, flags.replace)?)
    }
}

/// The "RESUMING SESSION" summary of `doc` at `now` (RFC 3339 or `Date`; default now), with
/// `stale` saying what moved since the last save under `options` (`stale_after_hours`,
/// `git_head`).
#[wasm_bindgen(js_name = resumeSummary, unchecked_return_type = "ResumeSummary")]
pub fn resume_summary(
    doc: &SessionArg,
    #[wasm_bindgen(unchecked_optional_param_type = "string | Date")] now: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ResumeOptions")] options: &JsValue,
) -> JsResult<JsValue> {
    let doc = document_arg(doc, &ParseOptions::default())?;
    let options: core::ResumeOptions = options_arg(options, "options")?;
    to_js(&core::resume_summary_with(
        &doc,
        instant_arg(now, "now")?,
        &options,
    ))
}

/// The markdown "RESUMING SESSION" block of a summary or a document (the core's
/// `render_resume_argument`, at `Date.now()`).
#[wasm_bindgen(js_name = renderResume)]
pub fn render_resume(
    #[wasm_bindgen(
        js_name = "summaryOrDoc",
        unchecked_param_type = "ResumeSummary | OrchestratorSession"
    )]
    summary_or_doc: &JsValue,
) -> JsResult<String> {
    let map = document_from_js(summary_or_doc, "summaryOrDoc")?;
    Ok(core::render_resume_argument(
        "summaryOrDoc",
        map,
        session_state::Clock::now(&JsClock),
    )?)
}

/// The JSON Schema (draft 2020-12) of the schema "1.0" document: the core's `json_schema()`
/// as committed text (schemars is not linked into the wasm; tests check the text).
#[wasm_bindgen(js_name = jsonSchema, unchecked_return_type = "Record<string, unknown>")]
pub fn json_schema() -> JsResult<JsValue> {
    let parsed = js_sys::JSON::parse(SCHEMA_JSON);
    parsed.map_err(|e| invalid_input(describe(&e)))
}

/// The committed JSON Schema text (see [`json_schema`]).
pub const SCHEMA_JSON: &str = include_str!("../../tests/vectors/orchestrator/schema.json");

/// Every complete field of torn or damaged bytes, made into a valid "1.0" document.
#[wasm_bindgen(unchecked_return_type = "Salvaged")]
pub fn salvage(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] bytes: &JsValue,
) -> JsResult<JsValue> {
    to_js(&core::salvage(&bytes_arg(bytes, "bytes")?))
}
