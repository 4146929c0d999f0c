//! [`ResumePlan`]: what re-spawning a team after a restart would do (SPEC section 3).
//!
//! The crate's `resume_teammates` re-spawns every member whose file parses and whose backend
//! it knows, and silently skips the rest. A plan makes that explicit, member by member,
//! without spawning anything: the backend and [`SpawnConfig`] to re-spawn with, or the reason
//! the member cannot be re-spawned. It serialises with serde for bindings and `--json`.

use serde::{Deserialize, Serialize};

use super::backend::BackendType;
use super::spawn::SpawnConfig;
use super::store::TeamStore;
use crate::error::Result;
use crate::store::Store;
use crate::time::Clock;

/// The plan for one team: every session file, sorted by agent name, then by key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ResumePlan {
    /// The team name.
    pub team: String,
    /// One entry per session file (members that parse first, then skipped files).
    pub members: Vec<PlannedMember>,
}

/// The plan for one session file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PlannedMember {
    /// The agent name from the file name, or the file name when it is not one.
    pub agent: String,
    /// The store key of the file.
    pub key: String,
    /// What to do.
    #[serde(flatten)]
    pub action: ResumeAction,
}

/// Re-spawn or skip; serialised with an `action` tag (`respawn` / `skip`).
// Built once per member and handed to bindings as plain data: boxing the config would not pay.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ResumeAction {
    /// Re-spawn on `backend` with `config` (no delegations; the prompt already has them).
    Respawn {
        /// The parsed backend.
        backend: BackendType,
        /// The config from [`SessionState::to_spawn_config`](super::SessionState::to_spawn_config).
        config: SpawnConfig,
        /// Set when the document's `name` differs from the file name: the crate would
        /// re-spawn under `name` and write a new file `{name}.json`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        warning: Option<String>,
    },
    /// Cannot be re-spawned.
    Skip {
        /// Why, as a stable code.
        reason: SkipReason,
        /// A lowercase message naming the file or value.
        message: String,
    },
}

/// Why a member cannot be re-spawned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// `backendType` is not `claude-code`, `codex` or `gemini-cli`.
    UnknownBackend,
    /// The file does not parse as a session document.
    Unparsable,
    /// The file cannot be read (store error, or it is a folder).
    Unreadable,
    /// The file name or the document's `name` is not a valid agent name.
    InvalidName,
}

impl<S: Store, C: Clock> TeamStore<S, C> {
    /// The resume plan of `team` (see [`ResumePlan`]); reads only.
    ///
    /// # Errors
    /// As [`TeamStore::list`]: an invalid team name or a store that cannot list the folder.
    pub fn resume_plan(&self, team: &str) -> Result<ResumePlan> {
        let listing = self.list(team)?;
        let mut members = Vec::with_capacity(listing.members.len() + listing.skipped.len());
        for member in listing.members {
            let state = &member.state;
            let action = match (
                state.parse_backend_type(),
                super::names::validate_name("agent name", &state.name),
            ) {
                (_, Err(e)) => ResumeAction::Skip {
                    reason: SkipReason::InvalidName,
                    message: format!("`{}`: {}", member.key, e.message()),
                },
                (Err(e), Ok(())) => ResumeAction::Skip {
                    reason: SkipReason::UnknownBackend,
                    message: format!("`{}`: {}", member.key, e.message()),
                },
                (Ok(backend), Ok(())) => ResumeAction::Respawn {
                    backend,
                    config: state.to_spawn_config(),
                    warning: (state.name != member.agent).then(|| {
                        format!(
                            "`{}` holds agent `{}`: it would be re-spawned under that name",
                            member.key, state.name
                        )
                    }),
                },
            };
            members.push(PlannedMember {
                agent: member.agent,
                key: member.key,
                action,
            });
        }
        for file in listing.skipped {
            let reason = match file.code.as_str() {
                "corrupt_state" => SkipReason::Unparsable,
                "invalid_key" => SkipReason::InvalidName,
                _ => SkipReason::Unreadable,
            };
            let name = file.key.rsplit('/').next().unwrap_or(&file.key);
            let agent = name.strip_suffix(".json").unwrap_or(name).to_owned();
            members.push(PlannedMember {
                agent,
                key: file.key,
                action: ResumeAction::Skip {
                    reason,
                    message: file.message,
                },
            });
        }
        Ok(ResumePlan {
            team: listing.team,
            members,
        })
    }
}
