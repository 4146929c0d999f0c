//! The core's store conformance suite for JavaScript: `runStoreConformance(store)` runs every
//! case of `session_state::conformance` on a store (a host object of your own, typically) and
//! returns the report as a plain object.

use napi_derive::napi;
use session_state::Key;
use session_state::conformance::{self, ConformanceReport};

use crate::any_store::AnyStore;
use crate::args::Any;
use crate::errors::Out;

/// Runs the store conformance suite on `store` below the folder key `scratch` (default
/// `"conformance"`; each case clears the keys of its own sub-folder, whose emptied folders
/// and lock files stay on a file store). Returns `{cases: [{name, passed, message}],
/// passed, failed}`; a store that breaks the contract gives failed cases, not an exception.
/// Throws `invalid_input` for a value that is not a store, `invalid_key` for an unsafe
/// `scratch`.
#[napi(
    ts_args_type = "store: Store, scratch?: string",
    ts_return_type = "ConformanceReport"
)]
pub fn run_store_conformance(store: Any<'_>, scratch: Any<'_>) -> Out<ConformanceReport> {
    run!(store: AnyStore, scratch: Option<Key> => {
        let scratch = scratch.map_or_else(|| Key::new("conformance"), Ok)?;
        Ok(conformance::run_all(&store, &scratch))
    })
}

/// Every case name of the suite, in the order `runStoreConformance` runs them.
#[napi]
pub fn store_conformance_cases() -> Vec<&'static str> {
    conformance::CASES.iter().map(|c| c.name).collect()
}
