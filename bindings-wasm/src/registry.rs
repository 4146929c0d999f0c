//! `AgentRegistry`: the core's [`session_state::registry`] (MoAI-ADK's sub-agent
//! `SessionManager` files, SPEC section 2) as JS. Parameter names are the JS names.
#![allow(non_snake_case)]

use serde_json::Value;
use session_state::registry::{self as core, PolicyOptions, RegistryOptions};
use wasm_bindgen::prelude::*;

use crate::clock::JsClock;
use crate::convert::{Arg, Json, Options, js_methods};
use crate::errors::JsResult;
use crate::stores::AnyStore;

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
        #[wasm_bindgen(unchecked_param_type = "Store")] store: &JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AgentRegistryOptions")] options: &JsValue,
    ) -> JsResult<AgentRegistry> {
        let inner = core::AgentRegistry::new(AnyStore::arg(store, "store")?, JsClock);
        let options = Options::<RegistryOptions>::arg(options, "options")?;
        let inner = options.apply(inner, "options")?;
        Ok(AgentRegistry { inner })
    }
}

js_methods!(AgentRegistry {
    #[doc = " Records `result` as agent `agentName`'s run `agentId` (`register_agent_result`)."]
    fn register as register(&self, agentName: String = "string", agentId: String = "string",
        result: Option<Value> = "JsonValue"; chainId: Option<String> = "string | null") => self
        .inner.register(&agentName, &agentId, result.unwrap_or_default(), chainId.as_deref());
    #[doc = " The seed's `create_chain`."]
    fn createChain as create_chain(&self, chainId: JsValue = "string", agentSequence:
        Json<Vec<String>> = "string[]"; metadata: Option<Value> = "JsonValue") =>
        self.inner.create_chain(&String::arg(&chainId, "chainId")?, &agentSequence, metadata);
    #[doc = " Folds the journal, if any, into `agent-sessions.json`."]
    fn compact as compact(&self);
    #[doc = " Compacts the journal. The handle stays usable (unlike Rust's `close`, which drops it)."]
    fn close as close(&self) => self.inner.compact();
    #[doc = " The name's latest id, or `null` (the seed's `get_resume_id`)."]
    fn resumeId as resume_id(&self, agentName: String = "string"; chainId: Option<String> =
        "string | null") -> "string | null" => self.inner.resume_id(&agentName, chainId.as_deref());
    #[doc = " The seed's `should_resume` (its exact rule)."]
    fn shouldResume as should_resume(&self, agentName: String = "string", currentTask: String =
        "string"; previousTask: Option<String> = "string | null") -> "boolean" =>
        self.inner.should_resume(&agentName, &currentTask, previousTask.as_deref());
    #[doc = " Whether to resume, with the score, matched terms and reason, by the chosen policy."]
    fn decideResume as decide_resume(&self, agentName: String = "string", currentTask: String =
        "string"; previousTask: Option<String> = "string | null", options: Options<PolicyOptions>
        = "ResumePolicyOptions") -> "ResumeDecision" => self.inner.decide_resume(
            &agentName, &currentTask, previousTask.as_deref(), &options.policy()?);
    #[doc = " One row per agent name, in registration order (only `chainId`'s when given)."]
    fn agents as agents(&self; chainId: Option<String> = "string | null") -> "AgentEntry[]" =>
        self.inner.agents(chainId.as_deref());
    #[doc = " The seed's `export_transcript`: the key of `agent-{agentId}.jsonl`, or `null`."]
    fn exportTranscript as export_transcript(&self, agentId: String = "string") -> "string | null"
        => self.inner.export_transcript(&agentId).map(|key| key.map(|k| k.to_string()));
    #[doc = " The seed's `increment_resume_count`; `false` for an unknown id."]
    fn incrementResumeCount as increment_resume_count(&self, agentId: String = "string")
        -> "boolean";
    #[doc = " The stored result of run `agentId`, or `null` (the seed's `get_agent_result`)."]
    fn agentResult as agent_result(&self, agentId: String = "string") -> "JsonValue";
    #[doc = " The results registered in a chain (the seed's `get_chain_results`)."]
    fn chainResults as chain_results(&self, chainId: String = "string") -> "AgentResult[]";
    #[doc = " A chain's counts and agents (the seed's `get_chain_summary`)."]
    fn chainSummary as chain_summary(&self, chainId: String = "string") -> "ChainSummary";
    #[doc = " Expected-vs-done status of a chain."]
    fn chainStatus as chain_status(&self, chainId: String = "string") -> "ChainStatus";
    #[doc = " Forgets agent `agentName`; `false` for an unknown name (`clear_agent_session`)."]
    fn clearAgent as clear_agent(&self, agentName: String = "string") -> "boolean";
    #[doc = " The seed's `clear_chain`; `false` for an unknown chain."]
    fn clearChain as clear_chain(&self, chainId: String = "string") -> "boolean";
    #[doc = " Every session, result and chain (the seed's `get_all_sessions`)."]
    fn allSessions as all_sessions(&self) -> "AllSessions";
    #[doc = " Every chain id (with registrations first, then those only defined)."]
    fn chainIds as chain_ids(&self) -> "string[]";
    #[doc = " The lines of `agentId`'s transcript, or `null` when there is none."]
    fn readTranscript as read_transcript(&self, agentId: String = "string")
        -> "TranscriptLine[] | null";
    #[doc = " The registry state: `agent-sessions.json` with any journal replayed, as a plain object."]
    fn load as load(&self) -> "SessionsDocument";
    #[doc = " `workflow-chains.json` as a plain object (chain id to definition)."]
    fn loadChains as load_chains(&self) -> "Record<string, ChainDefinition>";
    #[doc = " Repairs corrupt registry files, keeping copies: one `{key, kept_copy, action}` each."]
    fn repair as repair(&self) -> "RegistryRepair[]";
});
