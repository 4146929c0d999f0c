//! `AgentRegistry`: the core's [`session_state::registry`] (MoAI-ADK's sub-agent
//! `SessionManager` files, SPEC section 2) as JS. Conversions only.

use session_state::registry::{self as core, PolicyOptions, RegistryOptions};
use wasm_bindgen::prelude::*;

use crate::clock::JsClock;
use crate::convert::{from_js, opt_string_arg, options_arg, string_arg, to_js, value_from_js};
use crate::errors::{IntoJsResult, JsResult};
use crate::stores::AnyStore;

#[wasm_bindgen(typescript_custom_section)]
const TS_REGISTRY: &'static str = r#"
/** `new AgentRegistry(store, options)`. */
export interface AgentRegistryOptions {
  /** Append registrations to a journal (`true`, or the compaction trigger); default `false`. */
  journal?: boolean | { minCompactBytes: number };
  /** Largest file read, in bytes (default 16 MiB). */
  maxDocumentBytes?: number;
}

/** `decideResume` options: the seed's rule (`compat`, default) or the word-based `explained` one. */
export interface ResumePolicyOptions {
  policy?: "compat" | "explained";
  /** Resume cap (default 5). */
  cap?: number;
  /** Minimum score to resume, `explained` only (default 0.3). */
  threshold?: number;
}
"#;

/// The sub-agent registry: `.moai/memory/agent-sessions.json` and `workflow-chains.json` in a
/// store, in the seed's format. Time from `Date.now()`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct AgentRegistry {
    inner: core::AgentRegistry<AnyStore, JsClock>,
}

#[wasm_bindgen]
impl AgentRegistry {
    /// A registry over `store`. Option `journal`: `true` appends registrations to
    /// `agent-sessions.journal.jsonl` (folded into `agent-sessions.json` by `compact`, `close`
    /// and other changes), `{ minCompactBytes }` sets its compaction trigger; default `false`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Store")] store: &JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AgentRegistryOptions")] options: &JsValue,
    ) -> JsResult<AgentRegistry> {
        let store = AnyStore::from_js(store)?;
        let options: RegistryOptions = options_arg(options, "options")?;
        Ok(AgentRegistry {
            inner: options
                .apply(core::AgentRegistry::new(store, JsClock), "options")
                .js()?,
        })
    }

    /// The seed's `register_agent_result`. Throws `invalid_key` for an unsafe `agentId`,
    /// `corrupt_state` for a corrupt file (kept aside).
    #[wasm_bindgen(js_name = registerAgentResult)]
    pub fn register_agent_result(
        &self,
        #[wasm_bindgen(js_name = "agentName", unchecked_param_type = "string")]
        agent_name: &JsValue,
        #[wasm_bindgen(js_name = "agentId", unchecked_param_type = "string")] agent_id: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "JsonValue")] result: &JsValue,
        #[wasm_bindgen(js_name = "chainId", unchecked_optional_param_type = "string | null")]
        chain_id: &JsValue,
    ) -> JsResult<()> {
        let name = string_arg(agent_name, "agentName")?;
        let id = string_arg(agent_id, "agentId")?;
        // `undefined` is `null`, as in the Node package.
        let result = if result.is_undefined() {
            serde_json::Value::Null
        } else {
            value_from_js(result, "result")?
        };
        let chain = opt_string_arg(chain_id, "chainId")?;
        self.inner
            .register(&name, &id, result, chain.as_deref())
            .js()
    }

    /// The seed's `get_resume_id`: the name's latest id, or `null`.
    #[wasm_bindgen(js_name = getResumeId, unchecked_return_type = "string | null")]
    pub fn get_resume_id(
        &self,
        #[wasm_bindgen(js_name = "agentName", unchecked_param_type = "string")]
        agent_name: &JsValue,
        #[wasm_bindgen(js_name = "chainId", unchecked_optional_param_type = "string | null")]
        chain_id: &JsValue,
    ) -> JsResult<JsValue> {
        let name = string_arg(agent_name, "agentName")?;
        let chain = opt_string_arg(chain_id, "chainId")?;
        Ok(self
            .inner
            .resume_id(&name, chain.as_deref())
            .js()?
            .map_or(JsValue::NULL, |id| JsValue::from_str(&id)))
    }

    /// The seed's `should_resume` (its exact rule).
    #[wasm_bindgen(js_name = shouldResume)]
    pub fn should_resume(
        &self,
        #[wasm_bindgen(js_name = "agentName", unchecked_param_type = "string")]
        agent_name: &JsValue,
        #[wasm_bindgen(js_name = "currentTask", unchecked_param_type = "string")]
        current_task: &JsValue,
        #[wasm_bindgen(
            js_name = "previousTask",
            unchecked_optional_param_type = "string | null"
        )]
        previous_task: &JsValue,
    ) -> JsResult<bool> {
        let name = string_arg(agent_name, "agentName")?;
        let current = string_arg(current_task, "currentTask")?;
        let previous = opt_string_arg(previous_task, "previousTask")?;
        self.inner
            .should_resume(&name, &current, previous.as_deref())
            .js()
    }

    /// Whether to resume, with the score, matched terms and reason, by the chosen policy.
    #[wasm_bindgen(js_name = decideResume, unchecked_return_type = "ResumeDecision")]
    pub fn decide_resume(
        &self,
        #[wasm_bindgen(js_name = "agentName", unchecked_param_type = "string")]
        agent_name: &JsValue,
        #[wasm_bindgen(js_name = "currentTask", unchecked_param_type = "string")]
        current_task: &JsValue,
        #[wasm_bindgen(
            js_name = "previousTask",
            unchecked_optional_param_type = "string | null"
        )]
        previous_task: &JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ResumePolicyOptions")] options: &JsValue,
    ) -> JsResult<JsValue> {
        let name = string_arg(agent_name, "agentName")?;
        let current = string_arg(current_task, "currentTask")?;
        let previous = opt_string_arg(previous_task, "previousTask")?;
        let policy = options_arg::<PolicyOptions>(options, "options")?
            .policy()
            .js()?;
        to_js(
            &self
                .inner
                .decide_resume(&name, &current, previous.as_deref(), &policy)
                .js()?,
        )
    }

    /// The seed's `increment_resume_count`; `false` for an unknown id.
    #[wasm_bindgen(js_name = incrementResumeCount)]
    pub fn increment_resume_count(
        &self,
        #[wasm_bindgen(js_name = "agentId", unchecked_param_type = "string")] agent_id: &JsValue,
    ) -> JsResult<bool> {
        let id = string_arg(agent_id, "agentId")?;
        self.inner.increment_resume_count(&id).js()
    }

    /// The seed's `get_agent_result`: the stored result, or `null`.
    #[wasm_bindgen(js_name = getAgentResult, unchecked_return_type = "JsonValue")]
    pub fn get_agent_result(
        &self,
        #[wasm_bindgen(js_name = "agentId", unchecked_param_type = "string")] agent_id: &JsValue,
    ) -> JsResult<JsValue> {
        let id = string_arg(agent_id, "agentId")?;
        to_js(&self.inner.agent_result(&id).js()?)
    }

    /// The seed's `get_chain_results`.
    #[wasm_bindgen(js_name = getChainResults, unchecked_return_type = "AgentResult[]")]
    pub fn get_chain_results(
        &self,
        #[wasm_bindgen(js_name = "chainId", unchecked_param_type = "string")] chain_id: &JsValue,
    ) -> JsResult<JsValue> {
        let chain = string_arg(chain_id, "chainId")?;
        to_js(&self.inner.chain_results(&chain).js()?)
    }

    /// The seed's `get_chain_summary`.
    #[wasm_bindgen(js_name = getChainSummary, unchecked_return_type = "ChainSummary")]
    pub fn get_chain_summary(
        &self,
        #[wasm_bindgen(js_name = "chainId", unchecked_param_type = "string")] chain_id: &JsValue,
    ) -> JsResult<JsValue> {
        let chain = string_arg(chain_id, "chainId")?;
        to_js(&self.inner.chain_summary(&chain).js()?)
    }

    /// Expected-vs-done status of a chain.
    #[wasm_bindgen(js_name = chainStatus, unchecked_return_type = "ChainStatus")]
    pub fn chain_status(
        &self,
        #[wasm_bindgen(js_name = "chainId", unchecked_param_type = "string")] chain_id: &JsValue,
    ) -> JsResult<JsValue> {
        let chain = string_arg(chain_id, "chainId")?;
        to_js(&self.inner.chain_status(&chain).js()?)
    }

    /// The seed's `clear_agent_session`; `false` for an unknown name.
    #[wasm_bindgen(js_name = clearAgentSession)]
    pub fn clear_agent_session(
        &self,
        #[wasm_bindgen(js_name = "agentName", unchecked_param_type = "string")]
        agent_name: &JsValue,
    ) -> JsResult<bool> {
        let name = string_arg(agent_name, "agentName")?;
        self.inner.clear_agent(&name).js()
    }

    /// The seed's `clear_chain`; `false` for an unknown chain.
    #[wasm_bindgen(js_name = clearChain)]
    pub fn clear_chain(
        &self,
        #[wasm_bindgen(js_name = "chainId", unchecked_param_type = "string")] chain_id: &JsValue,
    ) -> JsResult<bool> {
        let chain = string_arg(chain_id, "chainId")?;
        self.inner.clear_chain(&chain).js()
    }

    /// The seed's `get_all_sessions`.
    #[wasm_bindgen(js_name = getAllSessions, unchecked_return_type = "AllSessions")]
    pub fn get_all_sessions(&self) -> JsResult<JsValue> {
        to_js(&self.inner.all_sessions().js()?)
    }

    /// The seed's `create_chain`.
    #[wasm_bindgen(js_name = createChain)]
    pub fn create_chain(
        &self,
        #[wasm_bindgen(js_name = "chainId", unchecked_param_type = "string")] chain_id: &JsValue,
        #[wasm_bindgen(js_name = "agentSequence", unchecked_param_type = "string[]")]
        agent_sequence: &JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "JsonValue")] metadata: &JsValue,
    ) -> JsResult<()> {
        let chain = string_arg(chain_id, "chainId")?;
        let sequence: Vec<String> = from_js(agent_sequence, "agentSequence")?;
        let metadata = if metadata.is_undefined() || metadata.is_null() {
            None
        } else {
            Some(value_from_js(metadata, "metadata")?)
        };
        self.inner.create_chain(&chain, &sequence, metadata).js()
    }

    /// One row per agent name, in registration order (only `chainId`'s when given).
    #[wasm_bindgen(unchecked_return_type = "AgentEntry[]")]
    pub fn agents(
        &self,
        #[wasm_bindgen(js_name = "chainId", unchecked_optional_param_type = "string | null")]
        chain_id: &JsValue,
    ) -> JsResult<JsValue> {
        let chain = opt_string_arg(chain_id, "chainId")?;
        to_js(&self.inner.agents(chain.as_deref()).js()?)
    }

    /// Every chain id (those with registrations, then those only defined by `createChain`).
    #[wasm_bindgen(js_name = chainIds)]
    pub fn chain_ids(&self) -> JsResult<Vec<String>> {
        self.inner.chain_ids().js()
    }

    /// The seed's `export_transcript`: the store key of `agent-{agentId}.jsonl`, or `null`
    /// when there is none. Throws `invalid_key` for an unsafe id.
    #[wasm_bindgen(js_name = exportTranscript, unchecked_return_type = "string | null")]
    pub fn export_transcript(
        &self,
        #[wasm_bindgen(js_name = "agentId", unchecked_param_type = "string")] agent_id: &JsValue,
    ) -> JsResult<JsValue> {
        let id = string_arg(agent_id, "agentId")?;
        Ok(self
            .inner
            .export_transcript(&id)
            .js()?
            .map_or(JsValue::NULL, |k| JsValue::from_str(k.as_str())))
    }

    /// The lines of `agentId`'s transcript (`{kind: "record", line, value}`, or `invalid` /
    /// `torn` with `error`), or `null` when there is none.
    #[wasm_bindgen(js_name = readTranscript, unchecked_return_type = "TranscriptLine[] | null")]
    pub fn read_transcript(
        &self,
        #[wasm_bindgen(js_name = "agentId", unchecked_param_type = "string")] agent_id: &JsValue,
    ) -> JsResult<JsValue> {
        let id = string_arg(agent_id, "agentId")?;
        to_js(&self.inner.read_transcript(&id).js()?)
    }

    /// The registry state: `agent-sessions.json` with any journal replayed, as a plain object.
    #[wasm_bindgen(unchecked_return_type = "SessionsDocument")]
    pub fn load(&self) -> JsResult<JsValue> {
        to_js(&self.inner.load().js()?)
    }

    /// `workflow-chains.json` as a plain object (chain id to definition).
    #[wasm_bindgen(js_name = loadChains, unchecked_return_type = "Record<string, ChainDefinition>")]
    pub fn load_chains(&self) -> JsResult<JsValue> {
        to_js(&self.inner.load_chains().js()?)
    }

    /// Folds the journal, if any, into `agent-sessions.json`.
    pub fn compact(&self) -> JsResult<()> {
        self.inner.compact().js()
    }

    /// Compacts the journal. The handle stays usable (unlike Rust's `close`, which drops it).
    pub fn close(&self) -> JsResult<()> {
        self.inner.compact().js()
    }

    /// Repairs a corrupt `agent-sessions.json` (the complete entries written back) and a
    /// corrupt `workflow-chains.json` (started as `{}`), each after keeping a copy aside
    /// (`<key>.corrupt-<UTC stamp>`): the core's `AgentRegistry::repair`. Returns the keys of
    /// the copies (the sessions file's first); empty when both were fine or absent.
    pub fn recover(&self) -> JsResult<Vec<String>> {
        let repaired = self.inner.repair().js()?;
        Ok(repaired.into_iter().map(|r| r.kept_copy).collect())
    }
}
