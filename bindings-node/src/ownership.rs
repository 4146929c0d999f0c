//! The ownership of the current session for JavaScript (issue #20): the `OrchestratorStore`
//! methods `claim`, `renew`, `release`, `heartbeat`, `lease`, `liveSessions`, `setWriter` and
//! the `writer` getter. Each argument object is read into the core's serde type (members in
//! snake_case, as in the shared declarations), and a claim or heartbeat that names no process
//! records this one's.

use napi_derive::napi;
use session_state::ownership::{
    Claim, ClaimOutcome, Heartbeat, HeartbeatOutcome, Lease, LiveStatus, ProcessInfo, Release,
    ReleaseOutcome, Writer,
};
use session_state_fs::process::owning_process;

use crate::args::{Any, Json};
use crate::errors::Out;
use crate::orchestrator::OrchestratorStore;

/// `process`, or this process when the caller gave none.
fn or_this_process(process: ProcessInfo) -> ProcessInfo {
    if process == ProcessInfo::default() {
        owning_process()
    } else {
        process
    }
}

#[napi]
#[allow(non_snake_case)]
impl OrchestratorStore {
    /// Claims the current session (no `scopes`) or the scopes named, and records the caller's
    /// live entry; a claim of the session makes this handle write as the owner with the epoch
    /// claimed. Throws `conflict` naming the owner (`context.owner`, `epoch`, `expires`;
    /// `hint: 'takeover'` once the lease expired) and writes nothing.
    #[napi(ts_args_type = "claim: Claim", ts_return_type = "ClaimOutcome")]
    pub fn claim(&self, claim: Any<'_>) -> Out<ClaimOutcome> {
        run!(claim: Json<Claim> => {
            let process = or_this_process(claim.0.process);
            self.inner.claim(&Claim { process, ..claim.0 })
        })
    }

    /// Renews the lease `owner` holds for `leaseSeconds` (default: the length it was claimed
    /// with). Throws `conflict` when `owner` does not hold it, `not_found` when nobody does.
    #[napi(
        ts_args_type = "owner: string, leaseSeconds?: number | null",
        ts_return_type = "Lease"
    )]
    pub fn renew(&self, owner: Any<'_>, leaseSeconds: Any<'_>) -> Out<Lease> {
        run!(owner: String, leaseSeconds: Option<Json<u64>> => {
            self.inner.renew(&owner, leaseSeconds.map(|s| s.0))
        })
    }

    /// Releases the current session (no `scopes`; the epoch is kept) or the scopes named.
    #[napi(ts_args_type = "release: Release", ts_return_type = "ReleaseOutcome")]
    pub fn release(&self, release: Any<'_>) -> Out<ReleaseOutcome> {
        run!(release: Json<Release> => self.inner.release(&release.0))
    }

    /// Refreshes the caller's live entry (creating it) and renews the lease when the caller
    /// owns the session (`renewed`).
    #[napi(
        ts_args_type = "heartbeat: Heartbeat",
        ts_return_type = "HeartbeatOutcome"
    )]
    pub fn heartbeat(&self, heartbeat: Any<'_>) -> Out<HeartbeatOutcome> {
        run!(heartbeat: Json<Heartbeat> => {
            let process = or_this_process(heartbeat.0.process);
            self.inner.heartbeat(&Heartbeat { process, ..heartbeat.0 })
        })
    }

    /// The lease of the current session, or `null` when nobody ever claimed it.
    #[napi(ts_return_type = "Lease | null")]
    pub fn lease(&self) -> Out<Option<Lease>> {
        Out(self.inner.lease())
    }

    /// Every live orchestrator entry, sorted by key; stale and unreadable ones are listed with
    /// `stale: true` and the `reason`.
    #[napi(ts_return_type = "LiveStatus[]")]
    pub fn live_sessions(&self) -> Out<Vec<LiveStatus>> {
        Out(self.inner.live_sessions())
    }

    /// Writes from now on as `writer` (`{ owner, epoch? }`; `null`: as nobody). A claimed
    /// session takes writes from its owner only; others throw `conflict` naming the owner.
    #[napi(ts_args_type = "writer: Writer | null", ts_return_type = "void")]
    pub fn set_writer(&self, writer: Any<'_>) -> Out<()> {
        run!(writer: Option<Json<Writer>> => {
            self.inner.set_writer(writer.map(|w| w.0));
            Ok(())
        })
    }

    /// Who this handle writes as, or `null`.
    #[napi(getter, ts_return_type = "Writer | null")]
    pub fn writer(&self) -> Out<Option<Writer>> {
        Out(Ok(self.inner.writer()))
    }
}
