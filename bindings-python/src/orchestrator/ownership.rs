//! The ownership operations of `Orchestrator`: claim, renew, release and heartbeat of the
//! current session, its lease, the live sessions and the writer every write is fenced with.
//! Each converts its argument dict into the core's struct and the result back.

use pyo3::prelude::*;
use session_state::ownership::{Claim, Heartbeat, ProcessInfo, Release, Writer};
use session_state_fs::process::owning_process;

use super::PyOrchestrator;
use crate::args;
use crate::convert::{Obj, Out, ToPyData, from_py, to_py};

/// `process` as given, or this process's orchestrator when the caller gave none.
fn or_owning(process: ProcessInfo) -> ProcessInfo {
    if process == ProcessInfo::default() {
        owning_process()
    } else {
        process
    }
}

#[pymethods]
impl PyOrchestrator {
    /// `claim(claim) -> dict`: `claim` is `{owner, lease_seconds?, scopes?, takeover?, force?,
    /// skew_seconds?, session_id?, ttl_seconds?, process?}`; returns `{lease, live}`.
    fn claim<'py>(&self, py: Python<'py>, claim: &Obj<'py>) -> Out<'py> {
        let mut claim: Claim = from_py("claim", claim)?;
        claim.process = or_owning(claim.process);
        self.inner.claim(&claim).out(py)
    }

    /// `renew(owner, lease_seconds=None) -> dict`: the lease renewed.
    #[pyo3(signature = (owner, lease_seconds = None))]
    fn renew<'py>(
        &self,
        py: Python<'py>,
        owner: &Obj<'py>,
        lease_seconds: Option<&Obj<'py>>,
    ) -> Out<'py> {
        let seconds = lease_seconds.filter(|s| !s.is_none());
        let seconds = seconds
            .map(|s| from_py::<u64>("lease_seconds", s))
            .transpose()?;
        self.inner
            .renew(&args::text(owner, "owner")?, seconds)
            .out(py)
    }

    /// `release(release) -> dict`: `release` is `{owner, scopes?, session_id?}`; returns
    /// `{lease, live}`.
    fn release<'py>(&self, py: Python<'py>, release: &Obj<'py>) -> Out<'py> {
        let release: Release = from_py("release", release)?;
        self.inner.release(&release).out(py)
    }

    /// `heartbeat(heartbeat) -> dict`: `heartbeat` is `{owner, session_id?, lease_seconds?,
    /// ttl_seconds?, process?}`; returns `{lease, renewed, live}`.
    fn heartbeat<'py>(&self, py: Python<'py>, heartbeat: &Obj<'py>) -> Out<'py> {
        let mut heartbeat: Heartbeat = from_py("heartbeat", heartbeat)?;
        heartbeat.process = or_owning(heartbeat.process);
        self.inner.heartbeat(&heartbeat).out(py)
    }

    /// `lease() -> dict | None`: the current session's lease.
    fn lease<'py>(&self, py: Python<'py>) -> Out<'py> {
        self.inner.lease().out(py)
    }

    /// `live_sessions() -> list`: every live entry with its age, stale ones with the reason.
    fn live_sessions<'py>(&self, py: Python<'py>) -> Out<'py> {
        self.inner.live_sessions().out(py)
    }

    /// `set_writer(writer)`: `{owner, epoch?}` or `None`; every write is fenced with it.
    fn set_writer(&self, writer: &Obj<'_>) -> PyResult<()> {
        let writer = if writer.is_none() {
            None
        } else {
            Some(from_py::<Writer>("writer", writer)?)
        };
        self.inner.set_writer(writer);
        Ok(())
    }

    /// `writer() -> dict | None`: who this handle writes as.
    fn writer<'py>(&self, py: Python<'py>) -> Out<'py> {
        to_py(py, &self.inner.writer())
    }
}
