//! `AgentRegistry`: the core's [`session_state::registry`] (MoAI-ADK's sub-agent
//! `SessionManager` files, SPEC section 2) as JS. Parameter names are the JS names.
#![allow(non_snake_case)]

use session_state::registry::{self as core, PolicyOptions, RegistryOptions};
use wasm_bindgen::prelude::*;

use crate::clock::JsClock;
use crate::convert::{
    Options, StoreArg, Text, from_js, js_methods, opt_text, opt_value, options_arg, string_methods,
};
use crate::errors::JsResult;
use crate::stores::{AnyStore, store_arg};

/// The sub-agent registry: `.moai/memory/agent-sessions.json` and `workflow-chains.json` in a
/// store, in the seed's format. Time from `Date.now()`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct AgentRegistry {
    pub(crate) inner: core::AgentRegistry<AnyStore, JsClock>,
}

#[wasm_bindgen]
impl AgentRegistry {
    /// A registry over `store`; option `journal` appends registrations to a journal.
    #[wasm_bindgen(constructor)]
    pub fn new(
        store: &StoreArg,
        #[wasm_bindgen(unchecked_optional_param_type = "AgentRegistryOptions")] options: &JsValue,
    ) -> JsResult<AgentRegistry> {
        let inner = core::AgentRegistry::new(store_arg(store)?, JsClock);
        let options: RegistryOptions = options_arg(options, "options")?;
        Ok(AgentRegistry {
            inner: options.apply(inner, "options")?,
        })
    }

    /// Records `result` as agent `agentName`'s run `agentId` (the seed's
    /// `register_agent_result`; `result` `undefined` is `null`).
    pub fn register(
        &self,
        agentName: &Text,
        agentId: &Text,
        #[wasm_bindgen(unchecked_param_type = "JsonValue")] result: &JsValue,
        chainId: Option<Text>,
    ) -> JsResult<()> {
        let (name, id) = (agentName.get("agentName")?, agentId.get("agentId")?);
        let result = opt_value(result, "result")?.unwrap_or_default();
        let chain = opt_text(chainId, "chainId")?;
        Ok(self.inner.register(&name, &id, result, chain.as_deref())?)
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
        let metadata = opt_value(metadata, "metadata")?;
        Ok(self
            .inner
            .create_chain(&chainId.get("chainId")?, &sequence, metadata)?)
    }

    /// Folds the journal, if any, into `agent-sessions.json`.
    pub fn compact(&self) -> JsResult<()> {
        Ok(self.inner.compact()?)
    }

    /// Compacts the journal. The handle stays usable (unlike Rust's `close`, which drops it).
    pub fn close(&self) -> JsResult<()> {
        Ok(self.inner.compact()?)
    }
}

js_methods!(AgentRegistry {
    #[doc = " The name's latest id, or `null` (the seed's `get_resume_id`)."]
    fn resumeId as resume_id(&self, agentName: String = "string"; chainId: String =
        "string | null") -> "string | null" => self.inner.resume_id(&agentName, chainId.as_deref());
    #[doc = " The seed's `should_resume` (its exact rule)."]
    fn shouldResume as should_resume(&self, agentName: String = "string", currentTask: String =
        "string"; previousTask: String = "string | null") -> "boolean" =>
        self.inner.should_resume(&agentName, &currentTask, previousTask.as_deref());
    #[doc = " Whether to resume, with the score, matched terms and reason, by the chosen policy."]
    fn decideResume as decide_resume(&self, agentName: String = "string", currentTask: String =
        "string"; previousTask: String = "string | null", options: Options<PolicyOptions> =
        "ResumePolicyOptions") -> "ResumeDecision" => self.inner.decide_resume(
            &agentName, &currentTask, previousTask.as_deref(), &options.map(|o| o.0).unwrap_or_default().policy()?);
    #[doc = " One row per agent name, in registration order (only `chainId`'s when given)."]
    fn agents as agents(&self; chainId: String = "string | null") -> "AgentEntry[]" =>
        self.inner.agents(chainId.as_deref());
    #[doc = " The seed's `export_transcript`: the key of `agent-{agentId}.jsonl`, or `null`."]
    fn exportTranscript as export_transcript(&self, agentId: String = "string")
        -> "string | null" => self.inner.export_transcript(&agentId).map(|key| key.map(|k| k.to_string()));
});

string_methods!(AgentRegistry:
    #[doc = " The seed's `increment_resume_count`; `false` for an unknown id."]
    incrementResumeCount(agentId) -> "boolean" = increment_resume_count;
    #[doc = " The stored result of run `agentId`, or `null` (the seed's `get_agent_result`)."]
    agentResult(agentId) -> "JsonValue" = agent_result;
    #[doc = " The results registered in a chain (the seed's `get_chain_results`)."]
    chainResults(chainId) -> "AgentResult[]" = chain_results;
    #[doc = " A chain's counts and agents (the seed's `get_chain_summary`)."]
    chainSummary(chainId) -> "ChainSummary" = chain_summary;
    #[doc = " Expected-vs-done status of a chain."]
    chainStatus(chainId) -> "ChainStatus" = chain_status;
    #[doc = " Forgets agent `agentName`; `false` for an unknown name (the seed's"]
    #[doc = " `clear_agent_session`)."]
    clearAgent(agentName) -> "boolean" = clear_agent;
    #[doc = " The seed's `clear_chain`; `false` for an unknown chain."]
    clearChain(chainId) -> "boolean" = clear_chain;
    #[doc = " Every session, result and chain (the seed's `get_all_sessions`)."]
    allSessions() -> "AllSessions" = all_sessions;
    #[doc = " Every chain id (with registrations first, then those only defined)."]
    chainIds() -> "string[]" = chain_ids;
    #[doc = " The lines of `agentId`'s transcript, or `null` when there is none."]
    readTranscript(agentId) -> "TranscriptLine[] | null" = read_transcript;
    #[doc = " The registry state: `agent-sessions.json` with any journal replayed, as a plain object."]
    load() -> "SessionsDocument" = load;
    #[doc = " `workflow-chains.json` as a plain object (chain id to definition)."]
    loadChains() -> "Record<string, ChainDefinition>" = load_chains;
    #[doc = " Repairs corrupt registry files, keeping copies (the core's `AgentRegistry::repair`):"]
    #[doc = " one `{key, kept_copy, action}` per file repaired, the sessions file's first; empty"]
    #[doc = " when both files were fine or absent. After it, `register` and `createChain` work again."]
    repair() -> "RegistryRepair[]" = repair;
);
