//! `AgentRegistry.prune`: the registry's retention, one conversion.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use session_state::registry::PruneRegistryOptions;

use super::PyAgentRegistry;
use crate::convert::{Out, ToPyData, from_py};

#[pymethods]
impl PyAgentRegistry {
    /// `prune(*, older_than_days, keep_agent_ids=None, apply=False) -> dict`: the keywords
    /// are the core's options; returns the plan `{applied, removed, kept}`.
    #[pyo3(signature = (**options))]
    fn prune<'py>(&self, py: Python<'py>, options: Option<&Bound<'py, PyDict>>) -> Out<'py> {
        let options = options.map_or_else(|| PyDict::new(py), Bound::clone);
        let options: PruneRegistryOptions = from_py("options", options.as_any())?;
        self.inner.prune(&options).out(py)
    }
}
