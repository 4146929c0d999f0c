//! The arguments of the recording verbs: one type per auto-save point of the seed ("Auto-Save
//! Triggers"), each applied to the current session as one exclusive read-modify-write by the
//! `record_*` methods of [`OrchestratorStore`](super::OrchestratorStore).
//!
//! The types are plain serde values with a JSON Schema (their doc comments are the
//! descriptions), so a command line, a hook or a tool server reads the same arguments. Each
//! `apply` function holds the rules of its verb:
//!
//! - the first agent started on a `created` session moves it to `in_progress`;
//! - an event on a `paused` session is recorded and leaves it paused (a sub-agent may finish
//!   after a disconnect); a session in a final status takes none ([`ensure_open`]);
//! - agent ids are safe key segments, as in the sub-agent registry;
//! - a completed agent's work is appended to `completed_work` once per agent id (the item
//!   carries the added member `agent`, the agent id), so the resume block shows it under
//!   "Completed Work".

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value, json};

use super::document::{Agent, CompletedWork, Decision, OrchestratorSession};
use super::status::{AgentStatus, SessionStatus};
use crate::error::{Error, ErrorKind, Result};
use crate::key::Key;
use crate::time::{Timestamp, format_rfc3339};

/// The member of a `completed_work` item naming the agent whose work it records (an added,
/// optional member: readers of the seed ignore it).
pub const COMPLETED_WORK_AGENT: &str = "agent";

/// Start a new orchestrator session for a goal (status `created`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSession {
    /// What the session is for.
    pub goal: String,
    /// Orchestration mode (`default` when absent); seen: `default`, `debug`, `optimize`,
    /// `release`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The whole session id, a safe file name such as `2025-12-27-abc123`; when absent, the
    /// UTC date and a short random suffix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Archive an unfinished current session (as it is) first; without it an unfinished
    /// current session is an `already_exists` error naming it.
    #[serde(default, alias = "archiveCurrent")]
    pub archive_current: bool,
}

/// An agent started: adds it to the current session (an agent with the same id is replaced:
/// a restart). The first agent started on a `created` session moves it to `in_progress`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentStart {
    /// Agent id, e.g. `code-1`.
    pub id: String,
    /// Agent type, e.g. `arch`, `code`, `test`.
    #[serde(rename = "type")]
    pub agent_type: String,
    /// What the agent was asked to do.
    pub task: String,
}

/// An agent's progress, in percent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentProgress {
    /// Agent id.
    pub id: String,
    /// Progress in percent, any number from 0 to 100, kept as written (`75.0`, `62.5`).
    #[schemars(range(min = 0, max = 100))]
    pub percent: Number,
}

/// An agent completed: status `complete`, its summary kept, and its work appended to
/// `completed_work` once per agent id (`{task, outcome, files}`: the agent's task, the
/// summary, the files).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentDone {
    /// Agent id.
    pub id: String,
    /// One-line result (`result_summary`, and the outcome under completed work).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Tokens of context the agent used (`context_tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<u64>,
    /// Files the agent touched.
    #[serde(default)]
    pub files: Vec<String>,
}

/// An agent failed: status `failed`, and the error logged in the session's `errors`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentFail {
    /// Agent id.
    pub id: String,
    /// What went wrong.
    pub error: String,
}

/// A decision made: appended to `decisions_made` with the time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DecisionInput {
    /// What was decided.
    pub decision: String,
    /// Why (the decision's `rationale`; empty when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// A task to do later: appended to `pending_tasks`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskAdd {
    /// The task.
    pub task: String,
}

/// A pending task done: it leaves `pending_tasks` and is appended to `completed_work`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskDone {
    /// The task: its 1-based number in the resume block's "Pending" list, or its exact text.
    pub task: TaskRef,
    /// Its outcome.
    pub outcome: String,
    /// Files touched.
    #[serde(default)]
    pub files: Vec<String>,
}

/// A pending task, by number or by text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TaskRef {
    /// The 1-based number the resume block shows.
    Number(usize),
    /// The exact text of a pending task.
    Text(String),
}

/// Context window figures: tokens used, the percentage, and whether the context is about to
/// be compressed (sets `context_usage.last_compression` to now).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextInput {
    /// Estimated tokens used so far.
    pub tokens: u64,
    /// Percentage of the context window used, 0 to 100 (kept when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percent: Option<Number>,
    /// The context is being compressed now.
    #[serde(default)]
    pub compressed: bool,
}

impl TaskRef {
    /// A command-line argument: digits only are a number, anything else the task's text.
    pub fn from_arg(text: &str) -> TaskRef {
        if !text.is_empty()
            && text.bytes().all(|b| b.is_ascii_digit())
            && let Ok(n) = text.parse()
        {
            return TaskRef::Number(n);
        }
        TaskRef::Text(text.to_owned())
    }
}

fn required(what: &str, text: &str) -> Result<()> {
    if text.trim().is_empty() {
        return Err(Error::invalid_input(format!("{what} is empty")).with_context("field", what));
    }
    Ok(())
}

/// A session in a final status (`complete`, `aborted`) takes no more events: recording on it
/// is [`ErrorKind::InvalidTransition`] (`new` archives it and starts the next one).
///
/// # Errors
/// [`ErrorKind::InvalidTransition`] for a final status.
pub fn ensure_open(doc: &OrchestratorSession) -> Result<()> {
    if doc.status.is_final() {
        return Err(Error::new(
            ErrorKind::InvalidTransition,
            format!(
                "session `{}` is {}: it takes no more events; start the next one with `new`",
                doc.session_id.escape_debug(),
                doc.status
            ),
        )
        .with_context("session_id", doc.session_id.as_str())
        .with_context("status", doc.status.to_string()));
    }
    Ok(())
}

fn no_agent(doc: &OrchestratorSession, id: &str) -> Error {
    Error::new(
        ErrorKind::NotFound,
        format!(
            "session `{}` has no agent `{}`",
            doc.session_id.escape_debug(),
            id.escape_debug()
        ),
    )
    .with_context("agent_id", id)
}

fn agent_index(doc: &OrchestratorSession, id: &str) -> Result<usize> {
    doc.agents
        .iter()
        .position(|a| a.id == id)
        .ok_or_else(|| no_agent(doc, id))
}

impl NewSession {
    /// Checks the goal and a given mode are not empty (the id is checked where it becomes a
    /// key).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`].
    pub fn validate(&self) -> Result<()> {
        required("goal", &self.goal)?;
        match &self.mode {
            Some(mode) => required("mode", mode),
            None => Ok(()),
        }
    }

    /// The mode, `default` when absent.
    pub fn mode(&self) -> &str {
        self.mode.as_deref().unwrap_or("default")
    }
}

impl AgentStart {
    /// The id must be a safe key segment, as in the sub-agent registry (no control
    /// characters or path separators, at most 255 bytes).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`] for an empty id, type or task; [`ErrorKind::InvalidKey`]
    /// for an unsafe id.
    pub fn validate(&self) -> Result<()> {
        required("id", &self.id)?;
        Key::segment("agent id", &self.id)?;
        required("type", &self.agent_type)?;
        required("task", &self.task)
    }

    /// Adds the agent (status `in_progress`, started now; one with the same id is replaced in
    /// place, keeping its unknown members) and moves a `created` session to `in_progress`.
    ///
    /// # Errors
    /// As [`validate`](Self::validate).
    pub fn apply(&self, doc: &mut OrchestratorSession, now: Timestamp) -> Result<()> {
        self.validate()?;
        ensure_open(doc)?;
        let mut agent = Agent::new(&self.id, &self.agent_type, &self.task, now);
        match doc.agents.iter_mut().find(|a| a.id == self.id) {
            Some(slot) => {
                agent.extra = std::mem::take(&mut slot.extra);
                *slot = agent;
            }
            None => doc.agents.push(agent),
        }
        if doc.status == SessionStatus::Created {
            doc.status = SessionStatus::InProgress;
        }
        Ok(())
    }
}

impl AgentProgress {
    /// # Errors
    /// [`ErrorKind::InvalidInput`] outside 0 to 100.
    pub fn validate(&self) -> Result<()> {
        percentage("progress", &self.percent).map(drop)
    }

    /// Sets the agent's `progress`.
    ///
    /// # Errors
    /// As [`validate`](Self::validate); [`ErrorKind::NotFound`] for an unknown agent.
    pub fn apply(&self, doc: &mut OrchestratorSession) -> Result<()> {
        self.validate()?;
        ensure_open(doc)?;
        let i = agent_index(doc, &self.id)?;
        doc.agents[i].progress = Some(percentage("progress", &self.percent)?);
        Ok(())
    }
}

impl AgentDone {
    /// # Errors
    /// [`ErrorKind::InvalidInput`] for an empty id.
    pub fn validate(&self) -> Result<()> {
        required("id", &self.id)
    }

    /// Marks the agent `complete` (the first completion time is kept when it is done again),
    /// keeps the summary and tokens given (absent ones leave what is there), and records its
    /// work in `completed_work`: a new item the first time, the same item updated after that.
    ///
    /// # Errors
    /// As [`validate`](Self::validate); [`ErrorKind::NotFound`] for an unknown agent.
    pub fn apply(&self, doc: &mut OrchestratorSession, now: Timestamp) -> Result<()> {
        self.validate()?;
        ensure_open(doc)?;
        let i = agent_index(doc, &self.id)?;
        let agent = &mut doc.agents[i];
        if agent.status != AgentStatus::Complete || agent.completed.is_none() {
            agent.completed = Some(now);
        }
        agent.status = AgentStatus::Complete;
        if let Some(summary) = &self.summary {
            agent.result_summary = Some(summary.clone());
        }
        if let Some(tokens) = self.tokens {
            agent.context_tokens = Some(tokens.into());
        }
        let task = agent.task.clone();
        let outcome = agent.result_summary.clone().unwrap_or_default();
        let id = Value::String(self.id.clone());
        let item = doc
            .completed_work
            .iter_mut()
            .find(|w| w.extra.get(COMPLETED_WORK_AGENT) == Some(&id));
        if let Some(item) = item {
            item.task = task;
            item.outcome = outcome;
            add_files(&mut item.files, &self.files);
        } else {
            let mut extra = Map::new();
            extra.insert(COMPLETED_WORK_AGENT.to_owned(), id);
            let mut files = Vec::new();
            add_files(&mut files, &self.files);
            doc.completed_work.push(CompletedWork {
                task,
                outcome,
                files,
                extra,
            });
        }
        Ok(())
    }
}

/// Appends each of `new` not already in `files`.
fn add_files(files: &mut Vec<String>, new: &[String]) {
    for file in new {
        if !files.contains(file) {
            files.push(file.clone());
        }
    }
}

impl AgentFail {
    /// # Errors
    /// [`ErrorKind::InvalidInput`] for an empty id or error.
    pub fn validate(&self) -> Result<()> {
        required("id", &self.id)?;
        required("error", &self.error)
    }

    /// Marks the agent `failed` (finished now) and logs
    /// `{"agent": id, "error": error, "timestamp": now}` in `errors`.
    ///
    /// # Errors
    /// As [`validate`](Self::validate); [`ErrorKind::NotFound`] for an unknown agent.
    pub fn apply(&self, doc: &mut OrchestratorSession, now: Timestamp) -> Result<()> {
        self.validate()?;
        ensure_open(doc)?;
        let i = agent_index(doc, &self.id)?;
        doc.agents[i].status = AgentStatus::Failed;
        doc.agents[i].completed = Some(now);
        doc.errors.push(json!({
            "agent": self.id,
            "error": self.error,
            "timestamp": format_rfc3339(now.utc()),
        }));
        Ok(())
    }
}

impl DecisionInput {
    /// # Errors
    /// [`ErrorKind::InvalidInput`] for an empty decision.
    pub fn validate(&self) -> Result<()> {
        required("decision", &self.decision)
    }

    /// Appends `{decision, rationale, timestamp: now}` to `decisions_made`.
    ///
    /// # Errors
    /// As [`validate`](Self::validate).
    pub fn apply(&self, doc: &mut OrchestratorSession, now: Timestamp) -> Result<()> {
        self.validate()?;
        ensure_open(doc)?;
        doc.decisions_made.push(Decision {
            decision: self.decision.clone(),
            rationale: self.why.clone().unwrap_or_default(),
            timestamp: now,
            extra: Map::new(),
        });
        Ok(())
    }
}

impl TaskAdd {
    /// # Errors
    /// [`ErrorKind::InvalidInput`] for an empty task.
    pub fn validate(&self) -> Result<()> {
        required("task", &self.task)
    }

    /// Appends the task to `pending_tasks`.
    ///
    /// # Errors
    /// As [`validate`](Self::validate).
    pub fn apply(&self, doc: &mut OrchestratorSession) -> Result<()> {
        self.validate()?;
        ensure_open(doc)?;
        doc.pending_tasks.push(self.task.clone());
        Ok(())
    }
}

impl TaskDone {
    /// # Errors
    /// [`ErrorKind::InvalidInput`] for the number 0 or an empty text.
    pub fn validate(&self) -> Result<()> {
        match &self.task {
            TaskRef::Number(0) => Err(Error::invalid_input(
                "task number 0: pending tasks are numbered from 1",
            )
            .with_context("field", "task")),
            TaskRef::Number(_) => Ok(()),
            TaskRef::Text(text) => required("task", text),
        }
    }

    /// Removes the task from `pending_tasks` and appends `{task, outcome, files}` to
    /// `completed_work`; returns the task's text. A text names the first pending task equal
    /// to it; a number past the end of the list names a pending task written as that number.
    ///
    /// # Errors
    /// As [`validate`](Self::validate); [`ErrorKind::NotFound`] when no pending task has that
    /// number or text.
    pub fn apply(&self, doc: &mut OrchestratorSession) -> Result<String> {
        self.validate()?;
        ensure_open(doc)?;
        let by_text = |text: &str| doc.pending_tasks.iter().position(|t| t == text);
        let found = match &self.task {
            TaskRef::Number(n) => n
                .checked_sub(1)
                .filter(|i| *i < doc.pending_tasks.len())
                .or_else(|| by_text(&n.to_string())),
            TaskRef::Text(text) => by_text(text),
        };
        let Some(i) = found else {
            let what = match &self.task {
                TaskRef::Number(n) => format!("number {n}"),
                TaskRef::Text(text) => format!("`{}`", text.escape_debug()),
            };
            return Err(Error::new(
                ErrorKind::NotFound,
                format!(
                    "session `{}` has no pending task {what} ({} pending)",
                    doc.session_id.escape_debug(),
                    doc.pending_tasks.len()
                ),
            )
            .with_context("field", "task"));
        };
        let task = doc.pending_tasks.remove(i);
        let mut files = Vec::new();
        add_files(&mut files, &self.files);
        doc.completed_work.push(CompletedWork {
            task: task.clone(),
            outcome: self.outcome.clone(),
            files,
            extra: Map::new(),
        });
        Ok(task)
    }
}

/// `p` (the member `percent`) when it is from 0 to 100, `-0.0` as `0.0` (not shown as
/// "-0.0%"); else `invalid_input` calling it `what`.
fn percentage(what: &str, p: &Number) -> Result<Number> {
    let value = p.as_f64().filter(|v| (0.0..=100.0).contains(v));
    match (value, Number::from_f64(0.0)) {
        (None, _) => Err(
            Error::invalid_input(format!("{what} `{p}` is not between 0 and 100"))
                .with_context("field", "percent"),
        ),
        (Some(v), Some(zero)) if v == 0.0 && v.is_sign_negative() => Ok(zero),
        _ => Ok(p.clone()),
    }
}

impl ContextInput {
    /// # Errors
    /// [`ErrorKind::InvalidInput`] for a percentage outside 0 to 100.
    pub fn validate(&self) -> Result<()> {
        match &self.percent {
            Some(p) => percentage("percentage", p).map(drop),
            None => Ok(()),
        }
    }

    /// Sets `context_usage.estimated_tokens`, `percentage` when given, and
    /// `last_compression` to now when `compressed`.
    ///
    /// # Errors
    /// As [`validate`](Self::validate).
    pub fn apply(&self, doc: &mut OrchestratorSession, now: Timestamp) -> Result<()> {
        self.validate()?;
        ensure_open(doc)?;
        let usage = &mut doc.context_usage;
        usage.estimated_tokens = self.tokens.into();
        if let Some(p) = &self.percent {
            usage.percentage = percentage("percentage", p)?;
        }
        if self.compressed {
            usage.last_compression = Some(now);
        }
        Ok(())
    }
}

/// Claude Code's session ending, a disconnect: an `in_progress` session becomes `paused`;
/// any other status is left as it is.
pub fn apply_disconnect(doc: &mut OrchestratorSession) {
    if doc.status == SessionStatus::InProgress {
        doc.status = SessionStatus::Paused;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orchestrator::Project;

    fn at(text: &str) -> Timestamp {
        Timestamp::parse(text).unwrap()
    }

    fn doc() -> OrchestratorSession {
        OrchestratorSession::new(
            "2025-12-27-abc123",
            "goal",
            "default",
            Project::new("p", "/p", None),
            at("2025-12-27T10:00:00Z"),
        )
    }

    fn start(id: &str) -> AgentStart {
        AgentStart {
            id: id.into(),
            agent_type: "code".into(),
            task: format!("task of {id}"),
        }
    }

    #[test]
    fn the_first_agent_moves_a_created_session_and_paused_stays_paused() {
        let mut d = doc();
        start("a")
            .apply(&mut d, at("2025-12-27T10:01:00Z"))
            .unwrap();
        assert_eq!(d.status, SessionStatus::InProgress);
        d.status = SessionStatus::Paused;
        start("b")
            .apply(&mut d, at("2025-12-27T10:02:00Z"))
            .unwrap();
        assert_eq!(d.status, SessionStatus::Paused);
        assert_eq!(d.agents.len(), 2);
        assert_eq!(d.agents[1].status, AgentStatus::InProgress);
    }

    #[test]
    fn agent_done_records_completed_work_once_per_agent() {
        let mut d = doc();
        let now = at("2025-12-27T10:05:00Z");
        start("a").apply(&mut d, now).unwrap();
        let done = AgentDone {
            id: "a".into(),
            summary: Some("3 methods".into()),
            tokens: Some(1500),
            files: vec!["R/x.R".into()],
        };
        done.apply(&mut d, now).unwrap();
        let later = at("2025-12-27T10:09:00Z");
        AgentDone {
            id: "a".into(),
            files: vec!["R/x.R".into(), "R/y.R".into()],
            ..AgentDone::default()
        }
        .apply(&mut d, later)
        .unwrap();
        assert_eq!(d.completed_work.len(), 1);
        let w = &d.completed_work[0];
        assert_eq!(
            (w.task.as_str(), w.outcome.as_str()),
            ("task of a", "3 methods")
        );
        assert_eq!(w.files, ["R/x.R", "R/y.R"]);
        assert_eq!(w.extra.get(COMPLETED_WORK_AGENT), Some(&json!("a")));
        let a = &d.agents[0];
        assert_eq!(a.status, AgentStatus::Complete);
        assert_eq!(a.completed, Some(now));
        assert_eq!(a.context_tokens, Some(1500u64.into()));
        let err = AgentDone {
            id: "zz".into(),
            ..AgentDone::default()
        }
        .apply(&mut d, now)
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
    }

    #[test]
    fn task_done_by_number_or_text() {
        let mut d = doc();
        for t in ["one", "two", "three"] {
            TaskAdd { task: t.into() }.apply(&mut d).unwrap();
        }
        let by = |task, d: &mut OrchestratorSession| {
            TaskDone {
                task,
                outcome: "ok".into(),
                files: vec![],
            }
            .apply(d)
        };
        assert_eq!(by(TaskRef::Number(2), &mut d).unwrap(), "two");
        assert_eq!(by(TaskRef::Text("three".into()), &mut d).unwrap(), "three");
        assert_eq!(d.pending_tasks, ["one"]);
        assert_eq!(d.completed_work.len(), 2);
        for missing in [TaskRef::Number(2), TaskRef::Text("thre".into())] {
            assert_eq!(by(missing, &mut d).unwrap_err().kind(), ErrorKind::NotFound);
        }
        let zero = by(TaskRef::Number(0), &mut d).unwrap_err();
        assert_eq!(zero.kind(), ErrorKind::InvalidInput);
        assert_eq!(TaskRef::from_arg("12"), TaskRef::Number(12));
        assert_eq!(TaskRef::from_arg("1a"), TaskRef::Text("1a".into()));
        let json: TaskDone = serde_json::from_value(json!({"task": 1, "outcome": "x"})).unwrap();
        assert_eq!(json.task, TaskRef::Number(1));
    }

    #[test]
    fn context_figures_and_bad_input() {
        let mut d = doc();
        let now = at("2025-12-27T11:00:00Z");
        ContextInput {
            tokens: 25_000,
            percent: Some(20.into()),
            compressed: true,
        }
        .apply(&mut d, now)
        .unwrap();
        assert_eq!(d.context_usage.estimated_tokens, 25_000u64.into());
        assert_eq!(d.context_usage.percentage, Number::from(20));
        assert_eq!(d.context_usage.last_compression, Some(now));
        for (given, stored) in [(-0.0, "0.0"), (0.0, "0.0"), (12.5, "12.5")] {
            ContextInput {
                tokens: 1,
                percent: Number::from_f64(given),
                compressed: false,
            }
            .apply(&mut d, now)
            .unwrap();
            assert_eq!(d.context_usage.percentage.to_string(), stored, "{given}");
        }
        let bad = ContextInput {
            tokens: 1,
            percent: Some(Number::from_f64(100.5).unwrap()),
            compressed: false,
        };
        assert_eq!(bad.validate().unwrap_err().kind(), ErrorKind::InvalidInput);
        start("a").apply(&mut d, now).unwrap();
        let progress = |percent: f64| AgentProgress {
            id: "a".into(),
            percent: Number::from_f64(percent).unwrap(),
        };
        for (given, stored) in [
            (75.0, "75.0"),
            (62.5, "62.5"),
            (-0.0, "0.0"),
            (100.0, "100.0"),
        ] {
            progress(given).apply(&mut d).unwrap();
            let kept = d.agents[0].progress.as_ref().map(Number::to_string);
            assert_eq!(kept.as_deref(), Some(stored), "{given}");
        }
        for outside in [-0.5, 100.5, 101.0, 1e300] {
            let err = progress(outside).validate().unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidInput, "{outside}");
            assert!(err.message().ends_with("is not between 0 and 100"), "{err}");
            assert_eq!(err.context_value("field"), Some("percent"));
        }
        assert!(
            DecisionInput {
                decision: " ".into(),
                why: None
            }
            .validate()
            .is_err()
        );
        let unknown = serde_json::from_value::<AgentStart>(
            json!({"id": "a", "type": "t", "task": "x", "sumary": 1}),
        );
        assert!(unknown.is_err());
    }

    #[test]
    fn finished_sessions_unsafe_agent_ids_and_digit_tasks() {
        let now = at("2025-12-27T11:00:00Z");
        let mut d = doc();
        for id in ["a/b", "a\nb", "..", &"x".repeat(256)] {
            let err = start(id).apply(&mut d, now).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidKey, "{id:?}");
        }
        let mut empty = start("a");
        empty.task = " ".into();
        assert_eq!(
            empty.validate().unwrap_err().kind(),
            ErrorKind::InvalidInput
        );
        TaskAdd {
            task: "2024".into(),
        }
        .apply(&mut d)
        .unwrap();
        let done = TaskDone {
            task: TaskRef::from_arg("2024"),
            outcome: "ok".into(),
            files: vec![],
        };
        assert_eq!(done.apply(&mut d).unwrap(), "2024");
        d.status = SessionStatus::Complete;
        let err = start("b").apply(&mut d, now).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidTransition);
        assert!(d.agents.is_empty());
        let err = TaskAdd { task: "t".into() }.apply(&mut d).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidTransition);
        assert!(ensure_open(&d).is_err());
    }

    #[test]
    fn failure_is_logged_and_disconnect_pauses() {
        let mut d = doc();
        let now = at("2025-12-27T11:00:00Z");
        start("a").apply(&mut d, now).unwrap();
        AgentFail {
            id: "a".into(),
            error: "boom".into(),
        }
        .apply(&mut d, now)
        .unwrap();
        assert_eq!(d.agents[0].status, AgentStatus::Failed);
        assert_eq!(d.errors[0]["error"], "boom");
        apply_disconnect(&mut d);
        assert_eq!(d.status, SessionStatus::Paused);
        apply_disconnect(&mut d);
        assert_eq!(d.status, SessionStatus::Paused);
    }
}
