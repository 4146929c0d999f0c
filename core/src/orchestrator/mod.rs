//! The orchestrator session (SPEC section 1; seed `seeds/session-state-skill.md`).
//!
//! - [`OrchestratorSession`]: the typed schema "1.0" document; unknown fields kept at every
//!   depth; [`parse_document`] turns bytes into it with a typed error for every bad input.
//! - [`OrchestratorStore`]: `save`, `load`, `archive`, `list_history`, lifecycle moves
//!   (`start`, `pause`, `resume` = `continue_session`, `complete`, `abort`), the recording
//!   verbs (`record_new`, `record_agent_start`, ... over the argument types of the `record`
//!   module: [`NewSession`], [`AgentStart`], ...), the hook points `before_compression` and
//!   `session_end`, and recovery (`recover`, `doctor`).
//! - [`resume_summary`] and [`render_resume`]: the "RESUMING SESSION" block;
//!   [`resume_summary_with`] adds what moved since the last save (age, git HEAD recorded by
//!   [`OrchestratorStore::with_git_head`] as `project.git_head`); [`render_show`]: the session
//!   as `name: value` lines.
//! - `fork` ([`ForkOptions`], `forked_from`), `history_tree` (`history --tree`) and
//!   `prune_history` ([`PruneHistoryOptions`], see [`crate::retention`]).
//! - [`salvage`]: every complete field of a torn document.
//! - [`json_schema`]: the JSON Schema of the document.
//! - [`parse_argument`]: a document given to a binding as an argument.
//!
//! ```
//! use session_state::{FixedClock, MemoryStore};
//! use session_state::orchestrator::{
//!     NewSession, OrchestratorStore, Project, render_resume, resume_summary,
//! };
//!
//! let clock = FixedClock::at("2025-12-27T10:30:00Z")?;
//! let sessions = OrchestratorStore::new(MemoryStore::new(), clock);
//! let project = Project::new("my-project", "/path/to/my-project", Some("dev"));
//! let new = NewSession { goal: "Add sensitivity analysis".into(), ..NewSession::default() };
//! let doc = sessions.record_new(&new, project, Some("abc123"))?;
//! assert_eq!(doc.session_id, "2025-12-27-abc123");
//! sessions.start()?;
//! let doc = sessions.load()?.expect("saved");
//! let md = render_resume(&resume_summary(&doc, clock.0));
//! assert!(md.starts_with("## 🔄 RESUMING SESSION"));
//! # Ok::<(), session_state::Error>(())
//! ```

mod arguments;
mod autosave;
mod document;
mod document_read;
mod document_text;
mod fork;
mod forked_from;
mod git_head;
mod history;
mod history_head;
mod history_index;
mod history_page;
mod keys;
mod options;
mod parse;
mod pending_save;
mod prune;
mod record;
mod recovery;
mod relative_time;
mod salvage;
mod schema;
mod show;
mod staleness;
mod status;
mod store;
mod summary;

pub use arguments::{
    parse_argument, parse_object_argument, parse_text_argument, render_resume_argument,
    valid_argument,
};
pub use document::{
    Agent, CompletedWork, ContextUsage, Decision, OrchestratorSession, Project, SCHEMA_VERSION,
};
pub use document_text::document_text;
pub use fork::{ForkOptions, HistoryTree, HistoryTreeEntry, forked_copy};
pub use forked_from::{FORKED_FROM, ForkedFrom};
pub use git_head::{GIT_HEAD, GitHead};
pub use history_page::{HistoryEntry, HistoryPage, HistoryQuery, SkippedFile};
pub use keys::{
    CURRENT_KEY, INDEX_HEAD_KEY, INDEX_JOURNAL_KEY, INDEX_KEY, current_key, history_dir,
    history_key, index_head_key, index_journal_key, index_key,
};
pub use options::{ArchiveOptions, DoctorOptions, HistoryOptions, StoreOptions};
pub use parse::{ParseOptions, parse_document};
pub use pending_save::PendingSave;
pub use prune::PruneHistoryOptions;
pub use record::{
    AgentDone, AgentFail, AgentProgress, AgentStart, ContextInput, DecisionInput, NewSession,
    TaskAdd, TaskDone, TaskRef,
};
pub use recovery::{DoctorReport, Problem, Repair, RepairAction};
pub use salvage::{Salvaged, salvage};
pub use schema::json_schema;
pub use show::render_show;
pub use staleness::{
    DEFAULT_STALE_AFTER_HOURS, HeadMove, Idle, ResumeOptions, Staleness, short_commit, stale_lines,
    staleness,
};
pub use status::{AgentStatus, SessionStatus};
pub use store::OrchestratorStore;
pub use summary::{
    AgentLine, ContextBudget, ResumeSummary, WorkLine, render_resume, resume_summary,
    resume_summary_with,
};
