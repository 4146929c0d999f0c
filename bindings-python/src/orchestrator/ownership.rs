//! The ownership operations of `Orchestrator` (the core's `ownership` module): claim, renew,
//! release, heartbeat, the lease, the live sessions and the writer every write is fenced with.

use pyo3::prelude::*;
use session_state::ownership::{Claim, Heartbeat, Release, Writer};

use super::PyOrchestrator;
use crate::args::{Here, Json, py_methods};

py_methods!(PyOrchestrator {
    // `lease() -> dict | None`: the current session's; `live_sessions() -> list`: every live
    // entry with its age, stale ones with the reason.
    [release(release: Json<Release>), lease(), live_sessions()],

    /// `claim(claim) -> dict`: `{lease, live}`; `process` defaults to this process's.
    fn claim(&self, claim: Here<Claim>) => self.inner.claim(&claim.0);

    /// `renew(owner, lease_seconds=None) -> dict`: the lease renewed.
    fn renew(&self, owner: String; lease_seconds: Json<u64>) =>
        self.inner.renew(&owner, lease_seconds.map(|s| s.0));

    /// `heartbeat(heartbeat) -> dict`: `{lease, renewed, live}`; `process` as in `claim`.
    fn heartbeat(&self, heartbeat: Here<Heartbeat>) => self.inner.heartbeat(&heartbeat.0);

    /// `set_writer(writer)`: `{owner, epoch?}` or `None`; every write is fenced with it.
    fn set_writer(&self, writer: Option<Json<Writer>>) => {
        self.inner.set_writer(writer.map(|w| w.0));
        Ok(())
    };

    /// `writer() -> dict | None`: who this handle writes as.
    fn writer(&self) => Ok(self.inner.writer());
});
