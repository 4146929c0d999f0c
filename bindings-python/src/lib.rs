//! Python bindings of session-state: the private native module `session_state._native`. Thin
//! by design: each file converts types and maps errors for one core module.

mod args;
mod conformance;
mod convert;
mod errors;
mod host_store;
mod orchestrator;
mod redis_store;
mod registry;
mod stores;
mod team;

use pyo3::prelude::*;

/// mimalloc for the extension's own allocations, as pydantic-core does: a save allocates and
/// frees a document's strings and its 70 KB buffers of JSON on every call (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The native half of the `session_state` package.
#[pymodule]
#[pyo3(name = "_native")]
mod native {
    use pyo3::prelude::*;

    #[pymodule_export]
    use crate::{
        conformance::{counter_increment, run_store_conformance},
        orchestrator::{
            PyOrchestrator, json_schema, orchestrator_document, render_resume, render_resume_with,
            resume_summary, resume_summary_with, salvage,
        },
        redis_store::PyRedisStore,
        registry::{PyAgentRegistry, export_transcript, parse_transcript, read_transcript},
        stores::{PyFileStore, PyMemoryStore},
        team::{
            PyTeamStore, team_document, team_from_config, team_from_json, team_to_json,
            team_to_spawn_config,
        },
    };

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        m.add("ERROR_CODES", session_state::ErrorKind::CODES.to_vec())
    }
}
