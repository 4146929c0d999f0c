//! The core's store conformance suite, runnable on any Python store (tests of host stores).

use pyo3::prelude::*;
use session_state::Key;
use session_state::conformance;

use crate::args::py_functions;
use crate::errors::IntoPyResult;
use crate::stores::AnyStore;

py_functions! {
    /// `run_store_conformance(store, scratch=".conformance") -> dict`: runs every case of the
    /// core suite on `store` below the folder key `scratch`; returns
    /// `{"cases": [{"name", "passed", "message"}], "passed": int, "failed": int}`.
    fn run_store_conformance(store: AnyStore; scratch: Key = Key::new(".conformance").py()?) =>
        Ok(conformance::run_all(&store, &scratch));

    /// `counter_increment(store, key) -> int`: one exclusive read-modify-write adding 1 to the
    /// decimal counter under `key`; returns the new value (for no-lost-update tests).
    fn counter_increment(store: AnyStore, key: Key) => conformance::counter_increment(&store, &key);
}
