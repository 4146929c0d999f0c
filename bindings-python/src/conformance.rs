//! The core's store conformance suite, runnable on any Python store (tests of host stores).

use pyo3::prelude::*;
use session_state::conformance;

use crate::convert::{Obj, Out};
use crate::errors::IntoPyResult;
use crate::stores::{key_arg, key_or, store_arg};

/// `run_store_conformance(store, scratch=".conformance") -> dict`: runs every case of the core
/// suite on `store` below the folder key `scratch`; returns
/// `{"cases": [{"name", "passed", "message"}], "passed": int, "failed": int}`.
#[pyfunction]
#[pyo3(signature = (store, scratch = None))]
pub fn run_store_conformance<'py>(
    py: Python<'py>,
    store: &Obj<'py>,
    scratch: Option<&Obj<'py>>,
) -> Out<'py> {
    let store = store_arg(store)?;
    let scratch = key_or(scratch, "scratch", ".conformance")?;
    let report = conformance::run_all(&store, &scratch);
    Ok(pythonize::pythonize(py, &report)?)
}

/// `counter_increment(store, key) -> int`: one exclusive read-modify-write adding 1 to the
/// decimal counter under `key`; returns the new value (for no-lost-update tests).
#[pyfunction]
pub fn counter_increment(store: &Obj<'_>, key: &Obj<'_>) -> PyResult<u64> {
    let store = store_arg(store)?;
    conformance::counter_increment(&store, &key_arg(key, "key")?).py()
}
