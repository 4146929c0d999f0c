//! The sub-agent registry: MoAI-ADK's `SessionManager` files (SPEC section 2).
//!
//! [`AgentRegistry`] reads and writes `.moai/memory/agent-sessions.json` and
//! `.moai/memory/workflow-chains.json` in the seed's format (`document`), offers every
//! operation of the seed with the deliberate differences of SPEC section 2, two resume
//! policies ([`CompatPolicy`], [`ExplainedPolicy`]), chain status and transcript reading.
//!
//! ```
//! use serde_json::json;
//! use session_state::registry::{AgentRegistry, ExplainedPolicy};
//! use session_state::{FixedClock, MemoryStore};
//!
//! let reg = AgentRegistry::new(MemoryStore::new(), FixedClock::at("2026-11-29T17:56:00Z")?);
//! reg.create_chain("SPEC-1", &["spec-builder".into(), "planner".into()], None)?;
//! reg.register("spec-builder", "spec-abc123", json!({"status": "success"}), Some("SPEC-1"))?;
//! assert_eq!(reg.resume_id("spec-builder", Some("SPEC-1"))?.as_deref(), Some("spec-abc123"));
//! assert_eq!(reg.chain_status("SPEC-1")?.missing, ["planner"]);
//! // The seed's rule matches `files` inside `profiles`; the explained policy does not.
//! assert!(reg.should_resume("spec-builder", "update profiles", Some("rename files"))?);
//! let d = reg.decide_resume("spec-builder", "update profiles", Some("rename files"),
//!                           &ExplainedPolicy::default())?;
//! assert!(!d.resume);
//! # Ok::<(), session_state::Error>(())
//! ```
//!
//! ## Persistence modes and durability
//! - [`JournalMode::Off`] (default): every change rewrites `agent-sessions.json` atomically
//!   (temporary file + rename, through [`Store::update`](crate::Store::update) under the key's
//!   registry's lock, below). A change that returned is in the seed's file; a crash leaves the
//!   old or the new file, never a torn one. With the filesystem store's `Durability::Sync` it
//!   also survives a power loss. A registration costs a read and a rewrite of the whole file:
//!   O(N) bytes. The parse is skipped when the file is still the one the handle last wrote
//!   (compared byte for byte), and a registration copies the unchanged entries of that file
//!   instead of serialising them again.
//! - [`JournalMode::On`]: a registration appends one line to
//!   `.moai/memory/agent-sessions.journal.jsonl` (under the journal's lock) and returns: O(1)
//!   amortised. Other changes, [`AgentRegistry::compact`], [`AgentRegistry::close`], and the
//!   size trigger fold the journal into `agent-sessions.json` under the journal's lock: the base
//!   file is rewritten atomically with a mark of what it folded (`journal_folded`, generation
//!   and byte count), then the journal is reset to the next generation's header. A crash
//!   between the two writes applies nothing twice (the folded prefix is skipped). A returned
//!   registration survives a process crash (it is in the journal; a line cut short by a crash
//!   mid-append is skipped, and its call never returned); with `Durability::Sync` the append
//!   is fsynced and survives a power loss. Readers of this library (either mode) see base +
//!   journal; a reader that only knows the seed's file sees the registrations once the journal
//!   was compacted or the handle closed. A handle's first registration folds the journal once
//!   (O(N), so that the journal has a header).
//!
//! Every write of `agent-sessions.json`, in either mode, is made under the journal key's lock
//! (the registry's lock), so handles and processes in different modes can share a folder
//! without losing an update; a plain-mode writer that finds journal entries folds them first.

mod agent_registry;
mod cache;
mod chain;
mod doctor;
mod document;
mod document_changes;
mod edits;
mod journal;
mod options;
mod policy;
mod prune;
mod queries;
mod salvage;
mod seed_order;
mod transcript;
mod writer;

pub use agent_registry::{
    AgentEntry, AgentRegistry, AllSessions, CHAINS_KEY, JOURNAL_KEY, SESSIONS_KEY,
};
pub use chain::{ChainStatus, ChainSummary, ChainView};
pub use doctor::{RegistryDoctorReport, RegistryProblem, RegistryRepair};
pub use document::{
    AgentMetadata, AgentResult, ChainDefinition, ChainsDocument, JournalMark, SessionsDocument,
    parse_chains, parse_sessions, to_python_json,
};
pub use edits::StateEdits;
pub use journal::JournalMode;
pub use options::{ChosenPolicy, PolicyOptions, RegistryOptions};
pub use policy::{
    CompatPolicy, ExplainedPolicy, PolicyName, ResumeDecision, ResumePolicy, ResumeQuery,
    ResumeReason,
};
pub use prune::PruneRegistryOptions;
pub use seed_order::TaskArg;
pub use transcript::{TranscriptLine, TranscriptLines, find_transcript, transcript_key};
