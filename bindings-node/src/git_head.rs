//! The project's git HEAD that an `OrchestratorStore` over a `FileStore` records at each save
//! (`project.git_head`), read from the store's root when the handle is made, as the CLI does.

use napi::bindgen_prelude::{ClassInstance, FromNapiValue, Unknown};
use session_state::orchestrator::GitHead;

use crate::stores::FileStore;

/// The HEAD of the repository holding the root of `store` when it is a `FileStore`; empty
/// (nothing recorded) for another store or a folder in no repository.
pub fn of_store(store: Unknown<'_>) -> GitHead {
    ClassInstance::<FileStore>::from_unknown(store).map_or_else(
        |_| GitHead::default(),
        |file| session_state_fs::git_head(file.inner.root()),
    )
}
