//! The ownership of the current session for JavaScript (issue #20): the `OrchestratorStore`
//! methods `claim`, `renew`, `release`, `heartbeat`, `lease`, `liveSessions`, `setWriter` and
//! the `writer` getter. Each argument object is read into the core's serde type (members in
//! snake_case, as in the shared declarations), and a claim or heartbeat that names no process
//! records this one's.

use napi_derive::napi;
use session_state::ownership::{
    Claim, ClaimOutcome, Heartbeat, HeartbeatOutcome, Lease, LiveStatus, Release, ReleaseOutcome,
    Writer,
};

use crate::args::{Here, Json};
use crate::errors::Out;
use crate::orchestrator::OrchestratorStore;

core_methods!(OrchestratorStore:
    #[doc = " Claims the current session (no `scopes`) or the scopes named, and records the caller's"]
    #[doc = " live entry; a claim of the session makes this handle write as the owner with the epoch"]
    #[doc = " claimed. Throws `conflict` naming the owner (`context.owner`, `epoch`, `expires`;"]
    #[doc = " `hint: 'takeover'` once the lease expired) and writes nothing."]
    claim(claim: Here<Claim>) -> ClaimOutcome = "claim: Claim", "ClaimOutcome";
    #[doc = " Renews the lease `owner` holds for `leaseSeconds` (default: the length it was claimed"]
    #[doc = " with). Throws `conflict` when `owner` does not hold it, `not_found` when nobody does."]
    renew(owner: String, leaseSeconds: Option<Json<u64>>) -> Lease
        = "owner: string, leaseSeconds?: number | null", "Lease";
    #[doc = " Releases the current session (no `scopes`; the epoch is kept) or the scopes named."]
    release(release: Json<Release>) -> ReleaseOutcome = "release: Release", "ReleaseOutcome";
    #[doc = " Refreshes the caller's live entry (creating it) and renews the lease when the caller"]
    #[doc = " owns the session (`renewed`)."]
    heartbeat(heartbeat: Here<Heartbeat>) -> HeartbeatOutcome
        = "heartbeat: Heartbeat", "HeartbeatOutcome";
    #[doc = " The lease of the current session, or `null` when nobody ever claimed it."]
    lease() -> Option<Lease> = "", "Lease | null";
    #[doc = " Every live orchestrator entry, sorted by key; stale and unreadable ones are listed with"]
    #[doc = " `stale: true` and the `reason`."]
    live_sessions() -> Vec<LiveStatus> = "", "LiveStatus[]";
);

#[napi]
impl OrchestratorStore {
    /// Writes from now on as `writer` (`{ owner, epoch? }`; `null`: as nobody). A claimed
    /// session takes writes from its owner only; others throw `conflict` naming the owner.
    #[napi(ts_args_type = "writer: Writer | null", ts_return_type = "void")]
    pub fn set_writer(&self, writer: crate::args::Any<'_>) -> Out<()> {
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
