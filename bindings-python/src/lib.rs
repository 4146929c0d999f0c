//! Python bindings of session-state: the private native module `session_state._native`.
//!
//! Thin by design: each file converts types and maps errors for one core module; the logic is
//! in the `session-state` crate.

mod args;
mod conformance;
mod convert;
mod errors;
mod orchestrator;
mod redis_store;
mod registry;
mod stores;
mod team;

use pyo3::prelude::*;

/// The native half of the `session_state` package.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let codes: Vec<&str> = session_state::ErrorKind::ALL
        .iter()
        .map(|k| k.code())
        .collect();
    m.add("ERROR_CODES", codes)?;
    m.add_class::<stores::PyFileStore>()?;
    m.add_class::<stores::PyMemoryStore>()?;
    m.add_class::<redis_store::PyRedisStore>()?;
    m.add_function(wrap_pyfunction!(conformance::run_store_conformance, m)?)?;
    m.add_function(wrap_pyfunction!(conformance::counter_increment, m)?)?;
    team::register(m)?;
    registry::register(m)?;
    orchestrator::register(m)?;
    Ok(())
}
