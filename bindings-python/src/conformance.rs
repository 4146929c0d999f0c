//! The core's store conformance suite, runnable on any Python store (tests of host stores).

use pyo3::prelude::*;
use session_state::Key;
use session_state::conformance;

use crate::args::py_functions;
use crate::errors::IntoPyResult;
use crate::stores::AnyStore;

py_functions! {
    /// `run_store_conformance(store, scratch=".conformance") -> dict`: the core suite's report
    /// on `store`, below the folder key `scratch`.
    fn run_store_conformance(store: AnyStore; scratch: Key = Key::new(".conformance").py()?) =>
        Ok(conformance::run_all(&store, &scratch));

    /// `counter_increment(store, key) -> int`: the counter under `key` plus 1, in one update.
    fn counter_increment(store: AnyStore, key: Key) => conformance::counter_increment(&store, &key);
}
