//! The ownership operations of `Orchestrator`: claim, renew, release and heartbeat of the
//! current session, its lease, the live sessions and the writer every write is fenced with.
//! Each converts its argument dict into the core's struct and the result back.

use pyo3::prelude::*;
use session_state::ownership::{Claim, Heartbeat, Release, Writer};

use super::PyOrchestrator;
use crate::args::{Here, Json, py_methods};

py_methods!(PyOrchestrator {
    /// `claim(claim) -> dict`: `claim` is `{owner, lease_seconds?, scopes?, takeover?, force?,
    /// skew_seconds?, session_id?, ttl_seconds?, process?}` (default `process`: this
    /// process's orchestrator); returns `{lease, live}`.
    fn claim(&self, claim: Here<Claim>) => self.inner.claim(&claim.0);

    /// `renew(owner, lease_seconds=None) -> dict`: the lease renewed.
    fn renew(&self, owner: String; lease_seconds: Json<u64>) =>
        self.inner.renew(&owner, lease_seconds.map(|s| s.0));

    /// `release(release) -> dict`: `release` is `{owner, scopes?, session_id?}`; returns
    /// `{lease, live}`.
    fn release(&self, release: Json<Release>) => self.inner.release(&release.0);

    /// `heartbeat(heartbeat) -> dict`: `heartbeat` is `{owner, session_id?, lease_seconds?,
    /// ttl_seconds?, process?}` (`process` as in `claim`); returns `{lease, renewed, live}`.
    fn heartbeat(&self, heartbeat: Here<Heartbeat>) => self.inner.heartbeat(&heartbeat.0);

    /// `lease() -> dict | None`: the current session's lease.
    fn lease(&self) => self.inner.lease();

    /// `live_sessions() -> list`: every live entry with its age, stale ones with the reason.
    fn live_sessions(&self) => self.inner.live_sessions();

    /// `set_writer(writer)`: `{owner, epoch?}` or `None`; every write is fenced with it.
    fn set_writer(&self, writer: Option<Json<Writer>>) => {
        self.inner.set_writer(writer.map(|w| w.0));
        Ok(())
    };

    /// `writer() -> dict | None`: who this handle writes as.
    fn writer(&self) => Ok(self.inner.writer());
});
