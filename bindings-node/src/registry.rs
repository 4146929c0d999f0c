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
use serde_json::Value;
use session_state::registry::{
    self as core, AgentEntry, AgentResult, AllSessions, ChainStatus, ChainSummary, ChainsDocument,
    PolicyOptions, RegistryOptions, ResumeDecision, SessionsDocument, TranscriptLine,
};
use session_state::{Error, Result};
use session_state_fs::SystemClock;

use crate::any_store::{AnyStore, StoreArg, store_from_js};
use crate::args::{StrArg, is_nullish, opt_string, string, type_name};
use crate::documents::{from_js, options_from_js, value_from_js};
use crate::errors::{Out, ToJs, out};

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
        let inner = || {
            let store = store_from_js(store)?;
            let options: RegistryOptions = options_from_js(options, "options")?;
            options.apply(Core::new(store, SystemClock), "options")
        };
        Ok(AgentRegistry {
            inner: inner().js(&env)?,
        })
    }

    /// The seed's `register_agent_result`: maps the name to the id, keeps `result` (any JSON
    /// value), appends the id to `chainId` (created if needed). Throws `invalid_key` for an
    /// unsafe `agentId`, `corrupt_state` when the file is corrupt (kept aside, unchanged).
    #[napi(
        ts_args_type = "agentName: string, agentId: string, result: unknown, chainId?: string | null",
        ts_return_type = "void"
    )]
    pub fn register_agent_result(
        &self,
        agent_name: StrArg<'_>,
        agent_id: StrArg<'_>,
        result: Unknown<'_>,
        chain_id: Option<StrArg<'_>>,
    ) -> Out<()> {
        out(|| {
            let name = string(agent_name, "agentName")?;
            let id = string(agent_id, "agentId")?;
            let result = optional_value(Some(result), "result")?.unwrap_or(Value::Null);
            let chain = opt_string(chain_id, "chainId")?;
            self.inner.register(&name, &id, result, chain.as_deref())
        })
    }

    /// The seed's `get_resume_id`: the name's latest id, or `null` (unknown name, or the id
    /// belongs to another chain than a given `chainId`).
    #[napi(
        ts_args_type = "agentName: string, chainId?: string | null",
        ts_return_type = "string | null"
    )]
    pub fn get_resume_id(
        &self,
        agent_name: StrArg<'_>,
        chain_id: Option<StrArg<'_>>,
    ) -> Out<Option<String>> {
        out(|| {
            let name = string(agent_name, "agentName")?;
            self.inner
                .resume_id(&name, opt_string(chain_id, "chainId")?.as_deref())
        })
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
        agent_name: StrArg<'_>,
        current_task: StrArg<'_>,
        previous_task: Option<StrArg<'_>>,
    ) -> Out<bool> {
        out(|| {
            let name = string(agent_name, "agentName")?;
            let current = string(current_task, "currentTask")?;
            let previous = opt_string(previous_task, "previousTask")?;
            self.inner
                .should_resume(&name, &current, previous.as_deref())
        })
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
        agent_name: StrArg<'_>,
        current_task: StrArg<'_>,
        previous_task: Option<StrArg<'_>>,
        options: Option<Unknown<'_>>,
    ) -> Out<ResumeDecision> {
        out(|| {
            let name = string(agent_name, "agentName")?;
            let current = string(current_task, "currentTask")?;
            let previous = opt_string(previous_task, "previousTask")?;
            let policy = options_from_js::<PolicyOptions>(options, "options")?.policy()?;
            self.inner
                .decide_resume(&name, &current, previous.as_deref(), &policy)
        })
    }

    /// The seed's `increment_resume_count`: +1 and `last_resumed_at`; `false` for an unknown
    /// id.
    #[napi(ts_args_type = "agentId: string", ts_return_type = "boolean")]
    pub fn increment_resume_count(&self, agent_id: StrArg<'_>) -> Out<bool> {
        out(|| {
            self.inner
                .increment_resume_count(&string(agent_id, "agentId")?)
        })
    }

    /// The seed's `get_agent_result`: the stored result of `agentId`, or `null`.
    #[napi(ts_args_type = "agentId: string", ts_return_type = "unknown")]
    pub fn get_agent_result(&self, agent_id: StrArg<'_>) -> Out<Option<Value>> {
        out(|| self.inner.agent_result(&string(agent_id, "agentId")?))
    }

    /// The seed's `get_chain_results`: `{agent_name, result, timestamp, chain_id}` of each id
    /// of the chain that has a result, in chain order.
    #[napi(ts_args_type = "chainId: string", ts_return_type = "AgentResult[]")]
    pub fn get_chain_results(&self, chain_id: StrArg<'_>) -> Out<Vec<AgentResult>> {
        out(|| self.inner.chain_results(&string(chain_id, "chainId")?))
    }

    /// The seed's `get_chain_summary`.
    #[napi(ts_args_type = "chainId: string", ts_return_type = "ChainSummary")]
    pub fn get_chain_summary(&self, chain_id: StrArg<'_>) -> Out<ChainSummary> {
        out(|| self.inner.chain_summary(&string(chain_id, "chainId")?))
    }

    /// Expected-vs-done status of a chain (`done`, `missing`, `out_of_order`, ...).
    #[napi(ts_args_type = "chainId: string", ts_return_type = "ChainStatus")]
    pub fn chain_status(&self, chain_id: StrArg<'_>) -> Out<ChainStatus> {
        out(|| self.inner.chain_status(&string(chain_id, "chainId")?))
    }

    /// Every chain id (those with registrations, then those only defined by `createChain`).
    #[napi(ts_return_type = "Array<string>")]
    pub fn chain_ids(&self) -> Out<Vec<String>> {
        out(|| self.inner.chain_ids())
    }

    /// The seed's `clear_agent_session`; `false` for an unknown name.
    #[napi(ts_args_type = "agentName: string", ts_return_type = "boolean")]
    pub fn clear_agent_session(&self, agent_name: StrArg<'_>) -> Out<bool> {
        out(|| self.inner.clear_agent(&string(agent_name, "agentName")?))
    }

    /// The seed's `clear_chain` (also dropping the names of cleared ids); `false` for an
    /// unknown chain.
    #[napi(ts_args_type = "chainId: string", ts_return_type = "boolean")]
    pub fn clear_chain(&self, chain_id: StrArg<'_>) -> Out<bool> {
        out(|| self.inner.clear_chain(&string(chain_id, "chainId")?))
    }

    /// The seed's `get_all_sessions`: `{sessions, chains, total_results}`.
    #[napi(ts_return_type = "AllSessions")]
    pub fn get_all_sessions(&self) -> Out<AllSessions> {
        out(|| self.inner.all_sessions())
    }

    /// One row per agent name, in registration order (only those of `chainId` when given).
    #[napi(
        ts_args_type = "chainId?: string | null",
        ts_return_type = "AgentEntry[]"
    )]
    pub fn agents(&self, chain_id: Option<StrArg<'_>>) -> Out<Vec<AgentEntry>> {
        out(|| {
            self.inner
                .agents(opt_string(chain_id, "chainId")?.as_deref())
        })
    }

    /// The seed's `export_transcript`: the store key of `agent-{agentId}.jsonl`, or `null`
    /// when there is none. Throws `invalid_key` for an unsafe id.
    #[napi(ts_args_type = "agentId: string", ts_return_type = "string | null")]
    pub fn export_transcript(&self, agent_id: StrArg<'_>) -> Out<Option<String>> {
        out(|| {
            let key = self
                .inner
                .export_transcript(&string(agent_id, "agentId")?)?;
            Ok(key.map(|k| k.to_string()))
        })
    }

    /// The lines of `agentId`'s transcript (`{kind: 'record', line, value}`, or `invalid` /
    /// `torn` with `error`), or `null` when there is none.
    #[napi(
        ts_args_type = "agentId: string",
        ts_return_type = "TranscriptLine[] | null"
    )]
    pub fn read_transcript(&self, agent_id: StrArg<'_>) -> Out<Option<Vec<TranscriptLine>>> {
        out(|| self.inner.read_transcript(&string(agent_id, "agentId")?))
    }

    /// The seed's `create_chain`: records the expected agent sequence (and free `metadata`)
    /// in `workflow-chains.json` and adds the chain to `agent-sessions.json`.
    #[napi(
        ts_args_type = "chainId: string, agentSequence: string[], metadata?: unknown",
        ts_return_type = "void"
    )]
    pub fn create_chain(
        &self,
        chain_id: StrArg<'_>,
        agent_sequence: Unknown<'_>,
        metadata: Option<Unknown<'_>>,
    ) -> Out<()> {
        out(|| {
            let chain = string(chain_id, "chainId")?;
            if !agent_sequence.is_array().unwrap_or(false) {
                let got = type_name(&agent_sequence);
                return Err(Error::invalid_input(format!(
                    "`agentSequence` must be an array of strings, got {got}"
                )));
            }
            let sequence: Vec<String> = from_js(agent_sequence, "agentSequence")?;
            let metadata = optional_value(metadata, "metadata")?;
            self.inner.create_chain(&chain, &sequence, metadata)
        })
    }

    /// The registry state: `agent-sessions.json` with any journal replayed, as a plain object.
    #[napi(ts_return_type = "SessionsDocument")]
    pub fn load(&self) -> Out<SessionsDocument> {
        out(|| self.inner.load())
    }

    /// `workflow-chains.json` as a plain object (chain id to definition).
    #[napi(ts_return_type = "Record<string, ChainDefinition>")]
    pub fn load_chains(&self) -> Out<ChainsDocument> {
        out(|| self.inner.load_chains())
    }

    /// Folds the journal, if any, into `agent-sessions.json`.
    #[napi(ts_return_type = "void")]
    pub fn compact(&self) -> Out<()> {
        out(|| self.inner.compact())
    }

    /// Compacts the journal. The handle stays usable (unlike Rust's `close`, which drops it).
    #[napi(ts_return_type = "void")]
    pub fn close(&self) -> Out<()> {
        out(|| self.inner.compact())
    }

    /// Repairs a corrupt `agent-sessions.json` and a corrupt `workflow-chains.json` (the
    /// core's `AgentRegistry::repair`): for each, keeps a copy aside
    /// (`<key>.corrupt-<UTC stamp>`), then writes back the complete entries of the sessions
    /// file (as `session-state doctor --fix`) and an empty chains file. Returns the keys of
    /// the copies (the sessions file's first); empty when both files were fine or absent.
    /// After it, `registerAgentResult` and `createChain` work again.
    #[napi(ts_return_type = "Array<string>")]
    pub fn recover(&self) -> Out<Vec<String>> {
        out(|| {
            Ok(self
                .inner
                .repair()?
                .into_iter()
                .map(|r| r.kept_copy)
                .collect())
        })
    }
}

/// An optional JSON value argument: absent, `undefined` or `null` give `None`.
fn optional_value(value: Option<Unknown<'_>>, name: &str) -> Result<Option<Value>> {
    value
        .filter(|v| !is_nullish(v))
        .map(|v| value_from_js(v, name))
        .transpose()
}
