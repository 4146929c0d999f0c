//! The options of a team store as the bindings take them: [`TeamStoreOptions`]
//! (`{ maxDocumentBytes }`), parsed here once. Python builds the same struct from keyword
//! arguments.

use serde::Deserialize;

use super::store::TeamStore;
use crate::store::Store;
use crate::time::Clock;

/// The options of a team store handle: `{ maxDocumentBytes }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TeamStoreOptions {
    /// Largest session file read, in bytes (default 16 MiB); a value beyond the address space
    /// means no limit. See [`TeamStore::with_max_document_bytes`].
    #[serde(default)]
    pub max_document_bytes: Option<u64>,
}

impl TeamStoreOptions {
    /// `teams` with these options set.
    pub fn apply<S: Store, C: Clock>(&self, teams: TeamStore<S, C>) -> TeamStore<S, C> {
        match self.max_document_bytes {
            Some(bytes) => {
                teams.with_max_document_bytes(usize::try_from(bytes).unwrap_or(usize::MAX))
            }
            None => teams,
        }
    }
}
