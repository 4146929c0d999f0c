//! The sub-agent registry (SPEC section 2, MoAI-ADK's `SessionManager`) for JavaScript: the
//! class `AgentRegistry`, whose methods are the camelCase forms of the seed's
//! (`registerAgentResult`, `getResumeId`, `shouldResume`, ...). It reads and writes
//! `.moai/memory/agent-sessions.json` and `workflow-chains.json` like the CLI and Python.
//!
//! `shouldResume` answers with a boolean, exactly as the seed (the compat policy);
//! `decideResume` takes a policy (`compat` or `explained`) and answers with the whole decision
//! `{resume, score, matched, reason}`.

use napi::bindgen_prelude::{Env, JsValue, Unknown};
use napi_derive::napi;
use session_state::registry::{self as core, PolicyOptions, RegistryOptions};
use session_state_fs::SystemClock;

use crate::any_store::{AnyStore, StoreArg};
use crate::args::{self, StrArg};
use crate::documents::{from_js, options_from_js, to_js, value_from_js};
use crate::errors::{ToJs, invalid_input};

type Core = core::AgentRegistry<AnyStore, SystemClock>;

/// The sub-agent registry over a store, stamping times with the system clock. Every method
/// reads the files afresh and every change is one exclusive read-modify-write, so several
/// handles and processes can share a folder without losing an update.
#[napi]
#[derive(Debug)]
pub struct AgentRegistry {
    inner: Core,
}

#[napi]
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
    pub fn new(env: Env, store: StoreArg<'_>, options: Option<Unknown<'_>>) -> napi::Result<Self> {
        let store = AnyStore::from_js(&env, store)?;
        let options: RegistryOptions = options_from_js(&env, options, "options")?;
        Ok(AgentRegistry {
            inner: options
                .apply(Core::new(store, SystemClock), "options")
                .js(&env)?,
        })
    }

    /// The seed's `register_agent_result`: maps the name to the id, keeps `result` (any JSON
    /// value), appends the id to `chainId` (created if needed). Throws `invalid_key` for an
    /// unsafe `agentId`, `corrupt_state` when the file is corrupt (kept aside, unchanged).
    #[napi(
        ts_args_type = "agentName: string, agentId: string, result: unknown, chainId?: string | null"
    )]
    pub fn register_agent_result(
        &self,
        env: &Env,
        agent_name: StrArg<'_>,
        agent_id: StrArg<'_>,
        result: Unknown<'_>,
        chain_id: Option<StrArg<'_>>,
    ) -> napi::Result<()> {
        let name = args::string(env, agent_name, "agentName")?;
        let id = args::string(env, agent_id, "agentId")?;
        let result = if args::is_nullish(&result) {
            serde_json::Value::Null
        } else {
            value_from_js(env, result, "result")?
        };
        let chain = args::opt_string(env, chain_id, "chainId")?;
        self.inner
            .register(&name, &id, result, chain.as_deref())
            .js(env)
    }

    /// The seed's `get_resume_id`: the name's latest id, or `null` (unknown name, or the id
    /// belongs to another chain than a given `chainId`).
    #[napi(ts_args_type = "agentName: string, chainId?: string | null")]
    pub fn get_resume_id(
        &self,
        env: &Env,
        agent_name: StrArg<'_>,
        chain_id: Option<StrArg<'_>>,
    ) -> napi::Result<Option<String>> {
        let name = args::string(env, agent_name, "agentName")?;
        let chain = args::opt_string(env, chain_id, "chainId")?;
        self.inner.resume_id(&name, chain.as_deref()).js(env)
    }

    /// The seed's `should_resume`, bit for bit (the compat policy): unknown agent, no
    /// previous task or 5 resumes give `false`, else whether a word of the previous task
    /// longer than 4 characters is in the current one.
    #[napi(ts_args_type = "agentName: string, currentTask: string, previousTask?: string | null")]
    pub fn should_resume(
        &self,
        env: &Env,
        agent_name: StrArg<'_>,
        current_task: StrArg<'_>,
        previous_task: Option<StrArg<'_>>,
    ) -> napi::Result<bool> {
        let name = args::string(env, agent_name, "agentName")?;
        let current = args::string(env, current_task, "currentTask")?;
        let previous = args::opt_string(env, previous_task, "previousTask")?;
        self.inner
            .should_resume(&name, &current, previous.as_deref())
            .js(env)
    }

    /// Whether to resume, with the reason: `{resume, score, matched, reason}`. Options:
    /// `policy` (`'compat'`, the seed's rule, default; or `'explained'`, whole words with a
    /// Dice score), `cap` (resumes before starting new, default 5), `threshold` (minimum score
    /// for `explained`, default 0.3).
    #[napi(
        ts_args_type = "agentName: string, currentTask: string, previousTask?: string | null, options?: ResumePolicyOptions",
        ts_return_type = "ResumeDecision"
    )]
    pub fn decide_resume<'env>(
        &self,
        env: &'env Env,
        agent_name: StrArg<'_>,
        current_task: StrArg<'_>,
        previous_task: Option<StrArg<'_>>,
        options: Option<Unknown<'_>>,
    ) -> napi::Result<Unknown<'env>> {
        let name = args::string(env, agent_name, "agentName")?;
        let current = args::string(env, current_task, "currentTask")?;
        let previous = args::opt_string(env, previous_task, "previousTask")?;
        let options: PolicyOptions = options_from_js(env, options, "options")?;
        let policy = options.policy().js(env)?;
        let decision = self
            .inner
            .decide_resume(&name, &current, previous.as_deref(), &policy)
            .js(env)?;
        to_js(env, &decision)
    }

    /// The seed's `increment_resume_count`: +1 and `last_resumed_at`; `false` for an unknown
    /// id.
    #[napi(ts_args_type = "agentId: string")]
    pub fn increment_resume_count(&self, env: &Env, agent_id: StrArg<'_>) -> napi::Result<bool> {
        let id = args::string(env, agent_id, "agentId")?;
        self.inner.increment_resume_count(&id).js(env)
    }

    /// The seed's `get_agent_result`: the stored result of `agentId`, or `null`.
    #[napi(ts_args_type = "agentId: string", ts_return_type = "unknown")]
    pub fn get_agent_result<'env>(
        &self,
        env: &'env Env,
        agent_id: StrArg<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let id = args::string(env, agent_id, "agentId")?;
        to_js(env, &self.inner.agent_result(&id).js(env)?)
    }

    /// The seed's `get_chain_results`: `{agent_name, result, timestamp, chain_id}` of each id
    /// of the chain that has a result, in chain order.
    #[napi(ts_args_type = "chainId: string", ts_return_type = "AgentResult[]")]
    pub fn get_chain_results<'env>(
        &self,
        env: &'env Env,
        chain_id: StrArg<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let chain = args::string(env, chain_id, "chainId")?;
        to_js(env, &self.inner.chain_results(&chain).js(env)?)
    }

    /// The seed's `get_chain_summary`.
    #[napi(ts_args_type = "chainId: string", ts_return_type = "ChainSummary")]
    pub fn get_chain_summary<'env>(
        &self,
        env: &'env Env,
        chain_id: StrArg<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let chain = args::string(env, chain_id, "chainId")?;
        to_js(env, &self.inner.chain_summary(&chain).js(env)?)
    }

    /// Expected-vs-done status of a chain (`done`, `missing`, `out_of_order`, ...).
    #[napi(ts_args_type = "chainId: string", ts_return_type = "ChainStatus")]
    pub fn chain_status<'env>(
        &self,
        env: &'env Env,
        chain_id: StrArg<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let chain = args::string(env, chain_id, "chainId")?;
        to_js(env, &self.inner.chain_status(&chain).js(env)?)
    }

    /// Every chain id (those with registrations, then those only defined by `createChain`).
    #[napi]
    pub fn chain_ids(&self, env: &Env) -> napi::Result<Vec<String>> {
        self.inner.chain_ids().js(env)
    }

    /// The seed's `clear_agent_session`; `false` for an unknown name.
    #[napi(ts_args_type = "agentName: string")]
    pub fn clear_agent_session(&self, env: &Env, agent_name: StrArg<'_>) -> napi::Result<bool> {
        let name = args::string(env, agent_name, "agentName")?;
        self.inner.clear_agent(&name).js(env)
    }

    /// The seed's `clear_chain` (also dropping the names of cleared ids); `false` for an
    /// unknown chain.
    #[napi(ts_args_type = "chainId: string")]
    pub fn clear_chain(&self, env: &Env, chain_id: StrArg<'_>) -> napi::Result<bool> {
        let chain = args::string(env, chain_id, "chainId")?;
        self.inner.clear_chain(&chain).js(env)
    }

    /// The seed's `get_all_sessions`: `{sessions, chains, total_results}`.
    #[napi(ts_return_type = "AllSessions")]
    pub fn get_all_sessions<'env>(&self, env: &'env Env) -> napi::Result<Unknown<'env>> {
        to_js(env, &self.inner.all_sessions().js(env)?)
    }

    /// One row per agent name, in registration order (only those of `chainId` when given).
    #[napi(
        ts_args_type = "chainId?: string | null",
        ts_return_type = "AgentEntry[]"
    )]
    pub fn agents<'env>(
        &self,
        env: &'env Env,
        chain_id: Option<StrArg<'_>>,
    ) -> napi::Result<Unknown<'env>> {
        let chain = args::opt_string(env, chain_id, "chainId")?;
        to_js(env, &self.inner.agents(chain.as_deref()).js(env)?)
    }

    /// The seed's `export_transcript`: the store key of `agent-{agentId}.jsonl`, or `null`
    /// when there is none. Throws `invalid_key` for an unsafe id.
    #[napi(ts_args_type = "agentId: string")]
    pub fn export_transcript(
        &self,
        env: &Env,
        agent_id: StrArg<'_>,
    ) -> napi::Result<Option<String>> {
        let id = args::string(env, agent_id, "agentId")?;
        let key = self.inner.export_transcript(&id).js(env)?;
        Ok(key.map(|k| k.to_string()))
    }

    /// The lines of `agentId`'s transcript (`{kind: 'record', line, value}`, or `invalid` /
    /// `torn` with `error`), or `null` when there is none.
    #[napi(
        ts_args_type = "agentId: string",
        ts_return_type = "TranscriptLine[] | null"
    )]
    pub fn read_transcript<'env>(
        &self,
        env: &'env Env,
        agent_id: StrArg<'_>,
    ) -> napi::Result<Unknown<'env>> {
        let id = args::string(env, agent_id, "agentId")?;
        to_js(env, &self.inner.read_transcript(&id).js(env)?)
    }

    /// The seed's `create_chain`: records the expected agent sequence (and free `metadata`)
    /// in `workflow-chains.json` and adds the chain to `agent-sessions.json`.
    #[napi(ts_args_type = "chainId: string, agentSequence: string[], metadata?: unknown")]
    pub fn create_chain(
        &self,
        env: &Env,
        chain_id: StrArg<'_>,
        agent_sequence: Unknown<'_>,
        metadata: Option<Unknown<'_>>,
    ) -> napi::Result<()> {
        let chain = args::string(env, chain_id, "chainId")?;
        if !agent_sequence.is_array()? {
            return Err(invalid_input(
                env,
                format!(
                    "`agentSequence` must be an array of strings, got {}",
                    args::type_name(&agent_sequence)
                ),
            ));
        }
        let sequence: Vec<String> = from_js(env, agent_sequence, "agentSequence")?;
        let metadata = match metadata.filter(|m| !args::is_nullish(m)) {
            Some(m) => Some(value_from_js(env, m, "metadata")?),
            None => None,
        };
        self.inner.create_chain(&chain, &sequence, metadata).js(env)
    }

    /// The registry state: `agent-sessions.json` with any journal replayed, as a plain object.
    #[napi(ts_return_type = "SessionsDocument")]
    pub fn load<'env>(&self, env: &'env Env) -> napi::Result<Unknown<'env>> {
        to_js(env, &self.inner.load().js(env)?)
    }

    /// `workflow-chains.json` as a plain object (chain id to definition).
    #[napi(ts_return_type = "Record<string, ChainDefinition>")]
    pub fn load_chains<'env>(&self, env: &'env Env) -> napi::Result<Unknown<'env>> {
        to_js(env, &self.inner.load_chains().js(env)?)
    }

    /// Folds the journal, if any, into `agent-sessions.json`.
    #[napi]
    pub fn compact(&self, env: &Env) -> napi::Result<()> {
        self.inner.compact().js(env)
    }

    /// Compacts the journal. The handle stays usable (unlike Rust's `close`, which drops it).
    #[napi]
    pub fn close(&self, env: &Env) -> napi::Result<()> {
        self.inner.compact().js(env)
    }

    /// Repairs a corrupt `agent-sessions.json` and a corrupt `workflow-chains.json` (the
    /// core's `AgentRegistry::repair`): for each, keeps a copy aside
    /// (`<key>.corrupt-<UTC stamp>`), then writes back the complete entries of the sessions
    /// file (as `session-state doctor --fix`) and an empty chains file. Returns the keys of
    /// the copies (the sessions file's first); empty when both files were fine or absent.
    /// After it, `registerAgentResult` and `createChain` work again.
    #[napi]
    pub fn recover(&self, env: &Env) -> napi::Result<Vec<String>> {
        let repaired = self.inner.repair().js(env)?;
        Ok(repaired.into_iter().map(|r| r.kept_copy).collect())
    }
}
