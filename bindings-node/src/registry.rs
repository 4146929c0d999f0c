//! The sub-agent registry (SPEC section 2, MoAI-ADK's `SessionManager`) for JavaScript: the
//! class `AgentRegistry`, with the core's operation names in camelCase (`register`,
//! `resumeId`, `shouldResume`, ...). It reads and writes `.moai/memory/agent-sessions.json`
//! and `workflow-chains.json` like the CLI and Python.

use napi::bindgen_prelude::Env;
use napi_derive::napi;
use serde_json::Value;
use session_state::registry::{
    self as core, AgentEntry, AgentResult, AllSessions, ChainStatus, ChainSummary, ChainsDocument,
    PolicyOptions, RegistryOptions, RegistryRepair, ResumeDecision, SessionsDocument,
    TranscriptLine,
};
use session_state_fs::SystemClock;

use crate::any_store::AnyStore;
use crate::args::{Any, Options};
use crate::errors::Out;

type Core = core::AgentRegistry<AnyStore, SystemClock>;

/// The sub-agent registry over a store, stamping times with the system clock. Every method
/// reads the files afresh and every change is one exclusive read-modify-write, so several
/// handles and processes can share a folder without losing an update.
#[napi]
#[derive(Debug)]
pub struct AgentRegistry {
    pub(crate) inner: Core,
}

#[napi]
#[allow(non_snake_case)]
impl AgentRegistry {
    /// A registry over `store`. Option `journal`: `true` appends registrations to
    /// `agent-sessions.journal.jsonl` (O(1); folded into `agent-sessions.json` by `compact`,
    /// `close` and other changes), `{ minCompactBytes }` sets its compaction trigger; default
    /// `false` (every change rewrites `agent-sessions.json`). Option `maxDocumentBytes`: the
    /// largest file read (default 16 MiB).
    #[napi(
        constructor,
        ts_args_type = "store: Store, options?: AgentRegistryOptions"
    )]
    pub fn new(env: Env, store: Any<'_>, options: Any<'_>) -> napi::Result<Self> {
        construct!(env; store: AnyStore, options: Options<RegistryOptions> => {
            let inner = options.0.apply(Core::new(store, SystemClock), "options")?;
            Ok(AgentRegistry { inner })
        })
    }

    /// Registers a result (the seed's `register_agent_result`): maps the name to the id, keeps
    /// `result` (any JSON value), appends the id to `chainId` (created if needed). Throws
    /// `invalid_key` for an unsafe `agentId`, `corrupt_state` when the file is corrupt (kept
    /// aside, unchanged).
    #[napi(
        ts_args_type = "agentName: string, agentId: string, result: unknown, chainId?: string | null",
        ts_return_type = "void"
    )]
    pub fn register(
        &self,
        agentName: Any<'_>,
        agentId: Any<'_>,
        result: Any<'_>,
        chainId: Any<'_>,
    ) -> Out<()> {
        run!(agentName: String, agentId: String, result: Option<Value>, chainId: Option<String> => {
            let result = result.unwrap_or_default();
            self.inner.register(&agentName, &agentId, result, chainId.as_deref())
        })
    }

    /// The name's latest id, or `null` (unknown name, or the id belongs to another chain than a
    /// given `chainId`).
    #[napi(
        ts_args_type = "agentName: string, chainId?: string | null",
        ts_return_type = "string | null"
    )]
    pub fn resume_id(&self, agentName: Any<'_>, chainId: Any<'_>) -> Out<Option<String>> {
        run!(agentName: String, chainId: Option<String> => self.inner.resume_id(&agentName, chainId.as_deref()))
    }

    /// The seed's `should_resume`, bit for bit (the compat policy): unknown agent, no
    /// previous task or 5 resumes give `false`, else whether a word of the previous task
    /// longer than 4 characters is in the current one.
    #[napi(
        ts_args_type = "agentName: string, currentTask: string, previousTask?: string | null",
        ts_return_type = "boolean"
    )]
    pub fn should_resume(
        &self,
        agentName: Any<'_>,
        currentTask: Any<'_>,
        previousTask: Any<'_>,
    ) -> Out<bool> {
        run!(agentName: String, currentTask: String, previousTask: Option<String> => self.inner.should_resume(&agentName, &currentTask, previousTask.as_deref()))
    }

    /// Whether to resume, with the reason: `{resume, score, matched, reason}`. Options:
    /// `policy` (`'compat'`, the seed's rule, default; or `'explained'`, whole words with a
    /// Dice score), `cap` (resumes before starting new, default 5), `threshold` (minimum score
    /// for `explained`, default 0.3).
    #[napi(
        ts_args_type = "agentName: string, currentTask: string, previousTask?: string | null, options?: ResumePolicyOptions",
        ts_return_type = "ResumeDecision"
    )]
    pub fn decide_resume(
        &self,
        agentName: Any<'_>,
        currentTask: Any<'_>,
        previousTask: Any<'_>,
        options: Any<'_>,
    ) -> Out<ResumeDecision> {
        run!(agentName: String, currentTask: String, previousTask: Option<String>, options: Options<PolicyOptions> => {
            let policy = options.0.policy()?;
            self.inner.decide_resume(&agentName, &currentTask, previousTask.as_deref(), &policy)
        })
    }

    /// The seed's `increment_resume_count`: +1 and `last_resumed_at`; `false` for an unknown
    /// id.
    #[napi(ts_args_type = "agentId: string", ts_return_type = "boolean")]
    pub fn increment_resume_count(&self, agentId: Any<'_>) -> Out<bool> {
        run!(agentId: String => self.inner.increment_resume_count(&agentId))
    }

    /// The stored result of `agentId`, or `null`.
    #[napi(ts_args_type = "agentId: string", ts_return_type = "unknown")]
    pub fn agent_result(&self, agentId: Any<'_>) -> Out<Option<Value>> {
        run!(agentId: String => self.inner.agent_result(&agentId))
    }

    /// `{agent_name, result, timestamp, chain_id}` of each id of the chain that has a result,
    /// in chain order.
    #[napi(ts_args_type = "chainId: string", ts_return_type = "AgentResult[]")]
    pub fn chain_results(&self, chainId: Any<'_>) -> Out<Vec<AgentResult>> {
        run!(chainId: String => self.inner.chain_results(&chainId))
    }

    /// The agents, results and order of a chain (the seed's `get_chain_summary`).
    #[napi(ts_args_type = "chainId: string", ts_return_type = "ChainSummary")]
    pub fn chain_summary(&self, chainId: Any<'_>) -> Out<ChainSummary> {
        run!(chainId: String => self.inner.chain_summary(&chainId))
    }

    /// Expected-vs-done status of a chain (`done`, `missing`, `out_of_order`, ...).
    #[napi(ts_args_type = "chainId: string", ts_return_type = "ChainStatus")]
    pub fn chain_status(&self, chainId: Any<'_>) -> Out<ChainStatus> {
        run!(chainId: String => self.inner.chain_status(&chainId))
    }

    /// Every chain id (those with registrations, then those only defined by `createChain`).
    #[napi(ts_return_type = "Array<string>")]
    pub fn chain_ids(&self) -> Out<Vec<String>> {
        Out(self.inner.chain_ids())
    }

    /// Forgets an agent name (the seed's `clear_agent_session`); `false` for an unknown name.
    #[napi(ts_args_type = "agentName: string", ts_return_type = "boolean")]
    pub fn clear_agent(&self, agentName: Any<'_>) -> Out<bool> {
        run!(agentName: String => self.inner.clear_agent(&agentName))
    }

    /// The seed's `clear_chain` (also dropping the names of cleared ids); `false` for an
    /// unknown chain.
    #[napi(ts_args_type = "chainId: string", ts_return_type = "boolean")]
    pub fn clear_chain(&self, chainId: Any<'_>) -> Out<bool> {
        run!(chainId: String => self.inner.clear_chain(&chainId))
    }

    /// Every session, chain and result count: `{sessions, chains, total_results}`.
    #[napi(ts_return_type = "AllSessions")]
    pub fn all_sessions(&self) -> Out<AllSessions> {
        Out(self.inner.all_sessions())
    }

    /// One row per agent name, in registration order (only those of `chainId` when given).
    #[napi(
        ts_args_type = "chainId?: string | null",
        ts_return_type = "AgentEntry[]"
    )]
    pub fn agents(&self, chainId: Any<'_>) -> Out<Vec<AgentEntry>> {
        run!(chainId: Option<String> => self.inner.agents(chainId.as_deref()))
    }

    /// The seed's `export_transcript`: the store key of `agent-{agentId}.jsonl`, or `null`
    /// when there is none. Throws `invalid_key` for an unsafe id.
    #[napi(ts_args_type = "agentId: string", ts_return_type = "string | null")]
    pub fn export_transcript(&self, agentId: Any<'_>) -> Out<Option<String>> {
        run!(agentId: String => Ok(self.inner.export_transcript(&agentId)?.map(|key| key.to_string())))
    }

    /// The lines of `agentId`'s transcript (`{kind: 'record', line, value}`, or `invalid` /
    /// `torn` with `error`), or `null` when there is none.
    #[napi(
        ts_args_type = "agentId: string",
        ts_return_type = "TranscriptLine[] | null"
    )]
    pub fn read_transcript(&self, agentId: Any<'_>) -> Out<Option<Vec<TranscriptLine>>> {
        run!(agentId: String => self.inner.read_transcript(&agentId))
    }

    /// The seed's `create_chain`: records the expected agent sequence (and free `metadata`)
    /// in `workflow-chains.json` and adds the chain to `agent-sessions.json`.
    #[napi(
        ts_args_type = "chainId: string, agentSequence: string[], metadata?: unknown",
        ts_return_type = "void"
    )]
    pub fn create_chain(
        &self,
        chainId: Any<'_>,
        agentSequence: Any<'_>,
        metadata: Any<'_>,
    ) -> Out<()> {
        run!(chainId: String, agentSequence: Vec<String>, metadata: Option<Value> => self.inner.create_chain(&chainId, &agentSequence, metadata))
    }

    /// The registry state: `agent-sessions.json` with any journal replayed, as a plain object.
    #[napi(ts_return_type = "SessionsDocument")]
    pub fn load(&self) -> Out<SessionsDocument> {
        Out(self.inner.load())
    }

    /// `workflow-chains.json` as a plain object (chain id to definition).
    #[napi(ts_return_type = "Record<string, ChainDefinition>")]
    pub fn load_chains(&self) -> Out<ChainsDocument> {
        Out(self.inner.load_chains())
    }

    /// Folds the journal, if any, into `agent-sessions.json`.
    #[napi(ts_return_type = "void")]
    pub fn compact(&self) -> Out<()> {
        Out(self.inner.compact())
    }

    /// Compacts the journal. The handle stays usable (unlike Rust's `close`, which drops it).
    #[napi(ts_return_type = "void")]
    pub fn close(&self) -> Out<()> {
        Out(self.inner.compact())
    }

    /// Repairs a corrupt `agent-sessions.json` and a corrupt `workflow-chains.json` (the
    /// core's `AgentRegistry::repair`): for each, keeps a copy aside
    /// (`<key>.corrupt-<UTC stamp>`), then writes back the complete entries of the sessions
    /// file (as `session-state doctor --fix`) and an empty chains file. Returns one
    /// `{key, kept_copy, action}` per file repaired (the sessions file's first); empty when
    /// both files were fine or absent. After it, `register` and `createChain` work again.
    #[napi(ts_return_type = "RegistryRepair[]")]
    pub fn repair(&self) -> Out<Vec<RegistryRepair>> {
        Out(self.inner.repair())
    }
}
