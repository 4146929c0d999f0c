//! A save of the current session whose commit waits for the store's lock on the helper thread
//! ([`beside`]) while the calling thread prepares it, then writes while that thread builds the
//! host's value of the saved document.

use std::sync::OnceLock;

use session_state::orchestrator::{PendingSave, commit_when_prepared};
use session_state::{Error, Result, Store};

use crate::beside;

/// Prepares a save with `prepare` on this thread while the helper takes `store`'s lock and
/// reads the current file, then builds with `build` while the helper writes the save. Returns
/// the save (once committed, for `OrchestratorStore::saved`), what `build` made of it, and
/// the commit's outcome (as `PendingSave::commit`'s). Neither closure may wait for `store`'s
/// lock (or run the host's code, which could): the helper holds it.
///
/// # Errors
/// `prepare`'s: nothing written.
pub fn save_beside<S: Store + Sync + ?Sized, B>(
    store: &S,
    prepare: impl FnOnce() -> Result<PendingSave>,
    build: impl FnOnce(&PendingSave) -> B,
) -> Result<(PendingSave, B, Result<()>)> {
    let prepared = OnceLock::<Result<PendingSave>>::new();
    let (committed, built) = beside(
        || commit_when_prepared(store, &|| prepared.wait().as_ref().ok()),
        || {
            // Set even when `prepare` panics: the helper waits for it.
            let _set = SetOnDrop(&prepared);
            let save = prepared.get_or_init(prepare).as_ref().ok();
            save.map(build)
        },
    );
    match (prepared.into_inner(), built) {
        (Some(Ok(save)), Some(built)) => Ok((save, built, committed)),
        (Some(Err(error)), _) => Err(error),
        _ => unreachable!("a prepared save is built"),
    }
}

/// Fills the slot, when still empty, as a preparation that failed.
struct SetOnDrop<'a>(&'a OnceLock<Result<PendingSave>>);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        let _ = self
            .0
            .set(Err(Error::invalid_input("the save was not prepared")));
    }
}
