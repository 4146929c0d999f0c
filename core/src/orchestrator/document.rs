//! The typed orchestrator session document, schema "1.0" (SPEC section 1, "Document").
//!
//! Known fields are written in the order of the SPEC table; every field a reader does not know,
//! at every depth, is kept in an `extra` map and written back after the known ones. `errors`
//! items are kept as raw JSON values.
//!
//! Optional agent fields (`completed`, `result_summary`, `progress`, `context_tokens`) are
//! written only when set: an explicit `null` there is read as absent and written as absent.
//! `project.git_branch` keeps the difference between absent and `null`.
//!
//! `updated`, `project` (and its `name` and `path`) and `mode` may be absent: the seed never
//! reads them. An absent one stays absent on write (but every save sets `updated`); `null`
//! there is a wrong type, as any other.
//!
//! The `serde` attributes here drive writing and the JSON Schema; reading is
//! `document_read.rs`, which follows them.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Number, Value};

use super::status::{AgentStatus, SessionStatus};
use crate::time::Timestamp;

/// The only `schema_version` this library reads and writes.
pub const SCHEMA_VERSION: &str = "1.0";

/// An orchestrator session, as stored in `.claude/orchestrator-session.json` and
/// `.claude/orchestrator-history/{session_id}.json` (schema "1.0").
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct OrchestratorSession {
    /// Always `"1.0"`; another value makes the document incompatible.
    pub schema_version: String,
    /// The session id, e.g. `2025-12-27-abc123`; also a key segment (SPEC section 4).
    pub session_id: String,
    /// When the session was created.
    pub created: Timestamp,
    /// When the session was last saved (set by every save; may be absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Timestamp")]
    pub updated: Option<Timestamp>,
    /// The project the session works on (may be absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Project")]
    pub project: Option<Project>,
    /// What the session is for.
    pub goal: String,
    /// Orchestration mode; seen: `default`, `debug`, `optimize`, `release` (others kept; may
    /// be absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub mode: Option<String>,
    /// Lifecycle status (`abandoned` is read as `aborted`).
    pub status: SessionStatus,
    /// The sub-agents launched by the orchestrator (absent reads as empty).
    #[serde(default)]
    pub agents: Vec<Agent>,
    /// Finished pieces of work (absent reads as empty).
    #[serde(default)]
    pub completed_work: Vec<CompletedWork>,
    /// Tasks not started yet, in order (absent reads as empty).
    #[serde(default)]
    pub pending_tasks: Vec<String>,
    /// Decisions taken during the session (absent reads as empty).
    #[serde(default)]
    pub decisions_made: Vec<Decision>,
    /// How much of the context window is used (absent reads as zeros and `null`).
    #[serde(default)]
    pub context_usage: ContextUsage,
    /// Errors met, kept exactly as written (strings or objects; absent reads as empty).
    #[serde(default)]
    pub errors: Vec<Value>,
    /// Fields this library does not know, kept in their order.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The `project` object: `{name, path, git_branch}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub struct Project {
    /// Project name (may be absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub name: Option<String>,
    /// Project folder path, as the orchestrator saw it (may be absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub path: Option<String>,
    /// Git branch, a string or `null`, may be absent; the two are kept apart on write (in
    /// Rust: `None` when absent, `Some(None)` when `null`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>", extend("nullable" = true))]
    #[allow(clippy::option_option)]
    pub git_branch: Option<Option<String>>,
    /// Fields this library does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One sub-agent of the session.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Agent {
    /// Agent id, e.g. `code-1`.
    pub id: String,
    /// Agent type, e.g. `arch`, `code` (JSON key `type`).
    #[serde(rename = "type")]
    pub agent_type: String,
    /// What the agent was asked to do.
    pub task: String,
    /// Agent status (unknown strings kept).
    pub status: AgentStatus,
    /// When the agent started.
    pub started: Timestamp,
    /// When the agent finished, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completed: Option<Timestamp>,
    /// One-line result, when complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_summary: Option<String>,
    /// Progress in percent, 0 to 100: any JSON number in that range, kept as written (Python
    /// writes `75.0` for `3 / 4 * 100`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 100))]
    pub progress: Option<Number>,
    /// Tokens of context the agent used: any JSON number, kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_tokens: Option<Number>,
    /// Fields this library does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One `completed_work` item: `{task, outcome, files}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub struct CompletedWork {
    /// The finished task.
    pub task: String,
    /// Its outcome (may be empty).
    #[serde(default)]
    pub outcome: String,
    /// Files touched (absent reads as empty).
    #[serde(default)]
    pub files: Vec<String>,
    /// Fields this library does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One `decisions_made` item: `{decision, rationale, timestamp}`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Decision {
    /// What was decided.
    pub decision: String,
    /// Why.
    pub rationale: String,
    /// When.
    pub timestamp: Timestamp,
    /// Fields this library does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The `context_usage` object.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ContextUsage {
    /// Estimated tokens used so far: any JSON number, kept as written (Python writes
    /// `len(text) / 4` as a float).
    pub estimated_tokens: Number,
    /// Percentage of the context window used (a JSON number, kept as written).
    pub percentage: Number,
    /// When the context was last compressed, or `None` (`null`) for never.
    pub last_compression: Option<Timestamp>,
    /// Fields this library does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Default for ContextUsage {
    fn default() -> Self {
        ContextUsage {
            estimated_tokens: Number::from(0u8),
            percentage: Number::from(0u8),
            last_compression: None,
            extra: Map::new(),
        }
    }
}

impl OrchestratorSession {
    /// Moves the session to status `to` if the lifecycle allows it (see
    /// [`SessionStatus::can_move_to`]). A move to the status it already has, when it is not
    /// final (`paused → paused`, `in_progress → in_progress`), succeeds and changes nothing.
    /// Does not save and does not touch `updated`.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidTransition`](crate::ErrorKind::InvalidTransition) naming both
    /// statuses, with context `from` and `to`.
    pub fn transition(&mut self, to: SessionStatus) -> crate::Result<()> {
        let from = self.status;
        if from == to && !to.is_final() {
            return Ok(());
        }
        if !from.can_move_to(to) {
            return Err(crate::Error::new(
                crate::ErrorKind::InvalidTransition,
                format!(
                    "session `{}` cannot move from `{from}` to `{to}`",
                    self.session_id.escape_debug()
                ),
            )
            .with_context("from", from.as_str())
            .with_context("to", to.as_str()));
        }
        self.status = to;
        Ok(())
    }

    /// A new session in status `created` with no agents, stamped `created = updated = now`.
    /// The id is not validated here; [`OrchestratorStore`](super::OrchestratorStore) validates
    /// it where it becomes a key.
    pub fn new(
        session_id: impl Into<String>,
        goal: impl Into<String>,
        mode: impl Into<String>,
        project: Project,
        now: Timestamp,
    ) -> Self {
        OrchestratorSession {
            schema_version: SCHEMA_VERSION.to_owned(),
            session_id: session_id.into(),
            created: now,
            updated: Some(now),
            project: Some(project),
            goal: goal.into(),
            mode: Some(mode.into()),
            status: SessionStatus::Created,
            agents: Vec::new(),
            completed_work: Vec::new(),
            pending_tasks: Vec::new(),
            decisions_made: Vec::new(),
            context_usage: ContextUsage::default(),
            errors: Vec::new(),
            extra: Map::new(),
        }
    }

    /// The agent with id `id`, if any.
    pub fn agent(&self, id: &str) -> Option<&Agent> {
        self.agents.iter().find(|a| a.id == id)
    }

    /// The document as pretty JSON with a 2-space indent (what every save writes), ending
    /// with a newline.
    pub fn to_pretty_json(&self) -> Vec<u8> {
        // Serialising these types cannot fail: every map key is a string.
        let mut out = serde_json::to_vec_pretty(self).unwrap_or_default();
        out.push(b'\n');
        out
    }

    /// Whether `bytes` are [`to_pretty_json`](Self::to_pretty_json) of the document, found by
    /// comparing as the text is made: no text is kept, and a difference stops the writing.
    pub fn is_written_as(&self, bytes: &[u8]) -> bool {
        let mut rest = bytes;
        serde_json::to_writer_pretty(SameAs(&mut rest), self).is_ok() && rest == b"\n"
    }
}

/// A writer that takes only the bytes that come next in its slice, and then moves past them.
struct SameAs<'a, 'b>(&'a mut &'b [u8]);

impl std::io::Write for SameAs<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.0.strip_prefix(buf) {
            Some(rest) => {
                *self.0 = rest;
                Ok(buf.len())
            }
            None => Err(std::io::ErrorKind::InvalidData.into()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Project {
    /// A project with a name, a path and an optional branch.
    pub fn new(name: impl Into<String>, path: impl Into<String>, git_branch: Option<&str>) -> Self {
        Project {
            name: Some(name.into()),
            path: Some(path.into()),
            git_branch: Some(git_branch.map(str::to_owned)),
            extra: Map::new(),
        }
    }
}

impl Agent {
    /// The progress as a whole percent: its whole part, at most 100; 0 when absent.
    pub fn percent(&self) -> u8 {
        let whole = self.progress.as_ref().map_or(0, crate::json::whole_count);
        u8::try_from(whole.min(100)).unwrap_or(100)
    }

    /// A new agent in status `in_progress`, started at `started`.
    pub fn new(
        id: impl Into<String>,
        agent_type: impl Into<String>,
        task: impl Into<String>,
        started: Timestamp,
    ) -> Self {
        Agent {
            id: id.into(),
            agent_type: agent_type.into(),
            task: task.into(),
            status: AgentStatus::InProgress,
            started,
            completed: None,
            result_summary: None,
            progress: None,
            context_tokens: None,
            extra: Map::new(),
        }
    }
}
