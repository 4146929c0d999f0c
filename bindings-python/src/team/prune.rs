//! `TeamStore.prune`: a team's retention, one conversion.

use pyo3::prelude::*;
use session_state::team::PruneTeamOptions;

use super::PyTeamStore;
use crate::args;
use crate::convert::{Obj, Out, ToPyData, from_py};

#[pymethods]
impl PyTeamStore {
    /// `prune(team, options) -> dict`: `options` is `{older_than_days, apply?}`; returns the
    /// plan `{applied, removed, kept}`.
    fn prune<'py>(&self, py: Python<'py>, team: &Obj<'py>, options: &Obj<'py>) -> Out<'py> {
        let options: PruneTeamOptions = from_py("options", options)?;
        self.inner
            .prune(&args::text(team, "team")?, &options)
            .out(py)
    }
}
