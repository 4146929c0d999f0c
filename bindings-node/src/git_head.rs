//! The project's git HEAD that an `OrchestratorStore` over a `FileStore` records at each save
//! (`project.git_head`), read from the store's root when the handle is made, as the CLI does.

use napi::bindgen_prelude::{ClassInstance, Either, FromNapiValue, Unknown};
use session_state::orchestrator::GitHead;

use crate::stores::FileStore;

/// The HEAD of the repository holding the root of `store` when it is a `FileStore`; empty
/// (nothing recorded) for another store or a folder in no repository.
pub fn of_store(store: Unknown<'_>) -> GitHead {
    match Either::<ClassInstance<'_, FileStore>, Unknown<'_>>::from_unknown(store) {
        Ok(Either::A(file)) => session_state_fs::git_head(file.inner.root()),
        _ => GitHead::default(),
    }
}
