//! `AgentRegistry`: the core's [`session_state::registry`] (MoAI-ADK's sub-agent
//! `SessionManager` files, SPEC section 2) as JS. Parameter names are the JS names.
#![allow(non_snake_case)]

use session_state::registry::{self as core, PolicyOptions, RegistryOptions};
use wasm_bindgen::prelude::*;

use crate::clock::JsClock;
use crate::convert::{Text, from_js, is_absent, opt_text, options_arg, to_js, value_from_js};
use crate::errors::{IntoJsResult, JsResult};
use crate::stores::AnyStore;

/// The sub-agent registry: `.moai/memory/agent-sessions.json` and `workflow-chains.json` in a
/// store, in the seed's format. Time from `Date.now()`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct AgentRegistry {
    inner: core::AgentRegistry<AnyStore, JsClock>,
}

#[wasm_bindgen]
impl AgentRegistry {
    /// A registry over `store`; option `journal` appends registrations to a journal.
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

    /// The seed's `register_agent_result` (`result` `undefined` is `null`).
    #[wasm_bindgen(js_name = registerAgentResult)]
    pub fn register_agent_result(
        &self,
        agentName: &Text,
        agentId: &Text,
        #[wasm_bindgen(unchecked_param_type = "JsonValue")] result: &JsValue,
        chainId: Option<Text>,
    ) -> JsResult<()> {
        let (name, id) = (agentName.get("agentName")?, agentId.get("agentId")?);
        let result = if result.is_undefined() {
            serde_json::Value::Null
        } else {
            value_from_js(result, "result")?
        };
        let chain = opt_text(chainId, "chainId")?;
        self.inner
            .register(&name, &id, result, chain.as_deref())
            .js()
    }

    /// The seed's `get_resume_id`: the name's latest id, or `null`.
    #[wasm_bindgen(js_name = getResumeId, unchecked_return_type = "string | null")]
    pub fn get_resume_id(&self, agentName: &Text, chainId: Option<Text>) -> JsResult<JsValue> {
        let chain = opt_text(chainId, "chainId")?;
        to_js(
            &self
                .inner
                .resume_id(&agentName.get("agentName")?, chain.as_deref())
                .js()?,
        )
    }

    /// The seed's `should_resume` (its exact rule).
    #[wasm_bindgen(js_name = shouldResume)]
    pub fn should_resume(
        &self,
        agentName: &Text,
        currentTask: &Text,
        previousTask: Option<Text>,
    ) -> JsResult<bool> {
        let (name, current) = (agentName.get("agentName")?, currentTask.get("currentTask")?);
        let previous = opt_text(previousTask, "previousTask")?;
        self.inner
            .should_resume(&name, &current, previous.as_deref())
            .js()
    }

    /// Whether to resume, with the score, matched terms and reason, by the chosen policy.
    #[wasm_bindgen(js_name = decideResume, unchecked_return_type = "ResumeDecision")]
    pub fn decide_resume(
        &self,
        agentName: &Text,
        currentTask: &Text,
        previousTask: Option<Text>,
        #[wasm_bindgen(unchecked_optional_param_type = "ResumePolicyOptions")] options: &JsValue,
    ) -> JsResult<JsValue> {
        let (name, current) = (agentName.get("agentName")?, currentTask.get("currentTask")?);
        let previous = opt_text(previousTask, "previousTask")?;
        let policy = options_arg::<PolicyOptions>(options, "options")?
            .policy()
            .js()?;
        let decision = self
            .inner
            .decide_resume(&name, &current, previous.as_deref(), &policy);
        to_js(&decision.js()?)
    }

    /// The seed's `increment_resume_count`; `false` for an unknown id.
    #[wasm_bindgen(js_name = incrementResumeCount)]
    pub fn increment_resume_count(&self, agentId: &Text) -> JsResult<bool> {
        self.inner
            .increment_resume_count(&agentId.get("agentId")?)
            .js()
    }

    /// The seed's `get_agent_result`: the stored result, or `null`.
    #[wasm_bindgen(js_name = getAgentResult, unchecked_return_type = "JsonValue")]
    pub fn get_agent_result(&self, agentId: &Text) -> JsResult<JsValue> {
        to_js(&self.inner.agent_result(&agentId.get("agentId")?).js()?)
    }

    /// The seed's `get_chain_results`.
    #[wasm_bindgen(js_name = getChainResults, unchecked_return_type = "AgentResult[]")]
    pub fn get_chain_results(&self, chainId: &Text) -> JsResult<JsValue> {
        to_js(&self.inner.chain_results(&chainId.get("chainId")?).js()?)
    }

    /// The seed's `get_chain_summary`.
    #[wasm_bindgen(js_name = getChainSummary, unchecked_return_type = "ChainSummary")]
    pub fn get_chain_summary(&self, chainId: &Text) -> JsResult<JsValue> {
        to_js(&self.inner.chain_summary(&chainId.get("chainId")?).js()?)
    }

    /// Expected-vs-done status of a chain.
    #[wasm_bindgen(js_name = chainStatus, unchecked_return_type = "ChainStatus")]
    pub fn chain_status(&self, chainId: &Text) -> JsResult<JsValue> {
        to_js(&self.inner.chain_status(&chainId.get("chainId")?).js()?)
    }

    /// The seed's `clear_agent_session`; `false` for an unknown name.
    #[wasm_bindgen(js_name = clearAgentSession)]
    pub fn clear_agent_session(&self, agentName: &Text) -> JsResult<bool> {
        self.inner.clear_agent(&agentName.get("agentName")?).js()
    }

    /// The seed's `clear_chain`; `false` for an unknown chain.
    #[wasm_bindgen(js_name = clearChain)]
    pub fn clear_chain(&self, chainId: &Text) -> JsResult<bool> {
        self.inner.clear_chain(&chainId.get("chainId")?).js()
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
        chainId: &Text,
        #[wasm_bindgen(unchecked_param_type = "string[]")] agentSequence: &JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "JsonValue")] metadata: &JsValue,
    ) -> JsResult<()> {
        let sequence: Vec<String> = from_js(agentSequence, "agentSequence")?;
        let metadata = if is_absent(metadata) {
            None
        } else {
            Some(value_from_js(metadata, "metadata")?)
        };
        self.inner
            .create_chain(&chainId.get("chainId")?, &sequence, metadata)
            .js()
    }

    /// One row per agent name, in registration order (only `chainId`'s when given).
    #[wasm_bindgen(unchecked_return_type = "AgentEntry[]")]
    pub fn agents(&self, chainId: Option<Text>) -> JsResult<JsValue> {
        let chain = opt_text(chainId, "chainId")?;
        to_js(&self.inner.agents(chain.as_deref()).js()?)
    }

    /// Every chain id (with registrations first, then those only defined).
    #[wasm_bindgen(js_name = chainIds)]
    pub fn chain_ids(&self) -> JsResult<Vec<String>> {
        self.inner.chain_ids().js()
    }

    /// The seed's `export_transcript`: the key of `agent-{agentId}.jsonl`, or `null`.
    #[wasm_bindgen(js_name = exportTranscript, unchecked_return_type = "string | null")]
    pub fn export_transcript(&self, agentId: &Text) -> JsResult<JsValue> {
        let key = self
            .inner
            .export_transcript(&agentId.get("agentId")?)
            .js()?;
        to_js(&key.as_ref().map(session_state::Key::as_str))
    }

    /// The lines of `agentId`'s transcript, or `null` when there is none.
    #[wasm_bindgen(js_name = readTranscript, unchecked_return_type = "TranscriptLine[] | null")]
    pub fn read_transcript(&self, agentId: &Text) -> JsResult<JsValue> {
        to_js(&self.inner.read_transcript(&agentId.get("agentId")?).js()?)
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

    /// Repairs corrupt registry files, keeping copies (the core's `AgentRegistry::repair`);
    /// returns the keys of the copies.
    pub fn recover(&self) -> JsResult<Vec<String>> {
        let repaired = self.inner.repair().js()?;
        Ok(repaired.into_iter().map(|r| r.kept_copy).collect())
    }
}
