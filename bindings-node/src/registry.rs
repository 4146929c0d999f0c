//! The sub-agent registry (SPEC section 2, MoAI-ADK's `SessionManager`) for JavaScript: the
//! class `AgentRegistry`, the core's operations in camelCase, over the same files
//! (`.moai/memory/agent-sessions.json`, `workflow-chains.json`) as the CLI and Python.

use napi_derive::napi;
use serde_json::Value;
use session_state::registry::{
    self as core, AgentEntry, AgentResult, AllSessions, ChainStatus, ChainSummary, ChainsDocument,
    PolicyOptions, RegistryOptions, RegistryRepair, ResumeDecision, SessionsDocument,
    TranscriptLine,
};
use session_state_fs::SystemClock;

use crate::any_store::AnyStore;
use crate::args::Options;

type Core = core::AgentRegistry<AnyStore, SystemClock>;

js_class!(
    #[doc = " The sub-agent registry over a store, stamping times with the system clock. Every method"]
    #[doc = " reads the files afresh and every change is one exclusive read-modify-write, so several"]
    #[doc = " handles and processes can share a folder without losing an update."]
    AgentRegistry(Core);
    #[doc = " A registry over `store`. Option `journal` (default `false`): `true` appends registrations"]
    #[doc = " to `agent-sessions.journal.jsonl` (O(1); folded by `compact`, `close` and other changes),"]
    #[doc = " `{ minCompactBytes }` sets its compaction trigger. `maxDocumentBytes`: default 16 MiB."]
    new(store: AnyStore, options: Options<RegistryOptions>) = "store: Store, options?: AgentRegistryOptions"
        => Ok(AgentRegistry { inner: options.0.apply(Core::new(store, SystemClock), "options")? });
);

js_methods!(AgentRegistry {
    #[doc = " Registers a result (the seed's `register_agent_result`): maps the name to the id, keeps"]
    #[doc = " `result` (any JSON value), appends the id to `chainId`. Throws `invalid_key` for an unsafe"]
    #[doc = " `agentId`, `corrupt_state` when the file is corrupt (kept aside, unchanged)."]
    fn register(&self, agentName: String, agentId: String, result: Option<Value>, chainId: Option<String>) -> ()
        = "agentName: string, agentId: string, result: unknown, chainId?: string | null", "void"
        => self.inner.register(&agentName, &agentId, result.unwrap_or_default(), chainId.as_deref());
    #[doc = " Whether to resume, with the reason: `{resume, score, matched, reason}`. Options: `policy`"]
    #[doc = " (`'compat'`, the seed's rule, default; or `'explained'`, whole words with a Dice score),"]
    #[doc = " `cap` (resumes before starting new, default 5), `threshold` (minimum `explained` score, 0.3)."]
    fn decide_resume(&self, agentName: String, currentTask: String, previousTask: Option<String>, options: Options<PolicyOptions>) -> ResumeDecision
        = "agentName: string, currentTask: string, previousTask?: string | null, options?: ResumePolicyOptions", "ResumeDecision"
        => self.inner.decide_resume(&agentName, &currentTask, previousTask.as_deref(), &options.0.policy()?);
    #[doc = " The seed's `export_transcript`: the store key of `agent-{agentId}.jsonl`, or `null`"]
    #[doc = " when there is none. Throws `invalid_key` for an unsafe id."]
    fn export_transcript(&self, agentId: String) -> Option<String> = "agentId: string", "string | null"
        => Ok(self.inner.export_transcript(&agentId)?.map(|key| key.to_string()));
    #[doc = " The seed's `create_chain`: records the expected agent sequence (and free `metadata`)"]
    #[doc = " in `workflow-chains.json` and adds the chain to `agent-sessions.json`."]
    fn create_chain(&self, chainId: String, agentSequence: Vec<String>, metadata: Option<Value>) -> ()
        = "chainId: string, agentSequence: string[], metadata?: unknown", "void"
        => self.inner.create_chain(&chainId, &agentSequence, metadata);
    #[doc = " The name's latest id, or `null` (unknown name, or an id of another chain than `chainId`)."]
    fn resume_id(&self, agentName: String, chainId: Option<String>) -> Option<String>
        = "agentName: string, chainId?: string | null", "string | null"
        => self.inner.resume_id(&agentName, chainId.as_deref());
    #[doc = " The seed's `should_resume`, bit for bit: `false` for an unknown agent, no previous task"]
    #[doc = " or 5 resumes, else whether a word of the previous task over 4 characters is in the current."]
    fn should_resume(&self, agentName: String, currentTask: String, previousTask: Option<String>) -> bool
        = "agentName: string, currentTask: string, previousTask?: string | null", "boolean"
        => self.inner.should_resume(&agentName, &currentTask, previousTask.as_deref());
    #[doc = " One row per agent name, in registration order (only those of `chainId` when given)."]
    fn agents(&self, chainId: Option<String>) -> Vec<AgentEntry> = "chainId?: string | null", "AgentEntry[]"
        => self.inner.agents(chainId.as_deref());
    #[doc = " Compacts the journal. The handle stays usable (unlike Rust's `close`, which drops it)."]
    fn close(&self) -> () = "", "void" => self.inner.compact();
});

core_methods!(AgentRegistry:
    #[doc = " The seed's `increment_resume_count`: +1 and `last_resumed_at`; `false` for an unknown id."]
    increment_resume_count(agentId: String) -> bool = "agentId: string", "boolean";
    #[doc = " The stored result of `agentId`, or `null`."]
    agent_result(agentId: String) -> Option<Value> = "agentId: string", "unknown";
    #[doc = " `{agent_name, result, timestamp, chain_id}` of each id of the chain that has a result,"]
    #[doc = " in chain order."]
    chain_results(chainId: String) -> Vec<AgentResult> = "chainId: string", "AgentResult[]";
    #[doc = " The agents, results and order of a chain (the seed's `get_chain_summary`)."]
    chain_summary(chainId: String) -> ChainSummary = "chainId: string", "ChainSummary";
    #[doc = " Expected-vs-done status of a chain (`done`, `missing`, `out_of_order`, ...)."]
    chain_status(chainId: String) -> ChainStatus = "chainId: string", "ChainStatus";
    #[doc = " Every chain id (those with registrations, then those only defined by `createChain`)."]
    chain_ids() -> Vec<String> = "", "Array<string>";
    #[doc = " Forgets an agent name (the seed's `clear_agent_session`); `false` for an unknown name."]
    clear_agent(agentName: String) -> bool = "agentName: string", "boolean";
    #[doc = " The seed's `clear_chain` (also forgetting the names of its ids); `false` if unknown."]
    clear_chain(chainId: String) -> bool = "chainId: string", "boolean";
    #[doc = " Every session, chain and result count: `{sessions, chains, total_results}`."]
    all_sessions() -> AllSessions = "", "AllSessions";
    #[doc = " The lines of `agentId`'s transcript (`{kind: 'record', line, value}`, or `invalid` /"]
    #[doc = " `torn` with `error`), or `null` when there is none."]
    read_transcript(agentId: String) -> Option<Vec<TranscriptLine>>
        = "agentId: string", "TranscriptLine[] | null";
    #[doc = " The registry state: `agent-sessions.json` with any journal replayed, as a plain object."]
    load() -> SessionsDocument = "", "SessionsDocument";
    #[doc = " `workflow-chains.json` as a plain object (chain id to definition)."]
    load_chains() -> ChainsDocument = "", "Record<string, ChainDefinition>";
    #[doc = " Folds the journal, if any, into `agent-sessions.json`."]
    compact() -> () = "", "void";
    #[doc = " Repairs a corrupt `agent-sessions.json` (its complete entries, as `doctor --fix`) and a"]
    #[doc = " corrupt `workflow-chains.json` (emptied), keeping a copy of each aside first. Returns one"]
    #[doc = " `{key, kept_copy, action}` per file repaired; empty when both were fine or absent."]
    repair() -> Vec<RegistryRepair> = "", "RegistryRepair[]";
);
