//! Team agent spawn state: the `agent-teams` crate's per-agent `SessionState` files
//! (SPEC section 3, seed `agent-teams-session-state.md`).
//!
//! - [`SessionState`] / [`MemoryConfig`]: the document, byte-compatible with the crate both ways;
//! - [`BackendType`]: `claude-code`, `codex`, `gemini-cli`;
//! - [`SpawnConfig`] and its builder: what a member is spawned with;
//! - [`TeamStore`]: save, load, delete and list members under `teams/{team}/sessions/` of any
//!   [`Store`](crate::Store), never aborting a listing on one bad file;
//! - [`ResumePlan`]: for each saved member, what to re-spawn it with, or why it cannot be.
//!
//! ```
//! use session_state::team::{BackendType, SpawnConfig, TeamStore};
//! use session_state::{FixedClock, MemoryStore};
//!
//! let teams = TeamStore::new(MemoryStore::new(), FixedClock::at("2026-03-01T12:34:56Z")?);
//! let config = SpawnConfig::builder("coder", "You write Rust code.").model("gpt-5-codex").build();
//! teams.record_spawn("my-team", &config, BackendType::Codex)?;
//! let plan = teams.resume_plan("my-team")?;
//! assert_eq!(plan.members.len(), 1);
//! # Ok::<(), session_state::Error>(())
//! ```

mod backend;
mod document;
mod memory_config;
mod names;
mod options;
mod plan;
mod prune;
mod spawn;
mod store;

pub use backend::BackendType;
pub use document::{DOCUMENT_KEYS, SessionState};
pub use memory_config::{MEMORY_CONFIG_KEYS, MemoryConfig, StringMap};
pub use names::{session_key, validate_name};
pub use options::TeamStoreOptions;
pub use plan::{PlannedMember, ResumeAction, ResumePlan, SkipReason};
pub use prune::PruneTeamOptions;
pub use spawn::{CliDelegation, CliTool, SpawnConfig, SpawnConfigBuilder};
pub use store::{Member, MetadataEntries, SkippedFile, TeamListing, TeamStore, TeamSummary};
