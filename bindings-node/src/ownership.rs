//! The ownership of the current session for JavaScript (issue #20): `OrchestratorStore`'s
//! `claim`, `renew`, `release`, `heartbeat`, `lease`, `liveSessions`, `setWriter` (`writer` is
//! in `orchestrator.rs`); a claim or heartbeat naming no process records this one's.

use napi_derive::napi;
use session_state::ownership::{
    Claim, ClaimOutcome, Heartbeat, HeartbeatOutcome, Lease, LiveStatus, Release, ReleaseOutcome,
    Writer,
};
use session_state_fs::process::or_this_process;

use crate::args::Json;
use crate::orchestrator::OrchestratorStore;

js_methods!(OrchestratorStore {
    #[doc = " Claims the current session (no `scopes`; this handle then writes as the owner) or the"]
    #[doc = " scopes named, and records the caller's live entry. Throws `conflict` naming the owner"]
    #[doc = " (`context.owner`, `epoch`, `expires`; `hint: 'takeover'` once the lease expired)."]
    fn claim(&self, claim: Json<Claim>) -> ClaimOutcome = "claim: Claim", "ClaimOutcome"
        => or_this_process(claim.0).and_then(|claim| self.inner.claim(&claim));
    #[doc = " Renews the lease `owner` holds for `leaseSeconds` (default: the length it was claimed"]
    #[doc = " with). Throws `conflict` when `owner` does not hold it, `not_found` when nobody does."]
    fn renew(&self, owner: String, leaseSeconds: Option<Json<u64>>) -> Lease
        = "owner: string, leaseSeconds?: number | null", "Lease"
        => self.inner.renew(&owner, leaseSeconds.map(|seconds| seconds.0));
    #[doc = " Refreshes the caller's live entry (creating it) and renews the lease when the caller"]
    #[doc = " owns the session (`renewed`)."]
    fn heartbeat(&self, heartbeat: Json<Heartbeat>) -> HeartbeatOutcome
        = "heartbeat: Heartbeat", "HeartbeatOutcome"
        => or_this_process(heartbeat.0).and_then(|heartbeat| self.inner.heartbeat(&heartbeat));
    #[doc = " Writes from now on as `writer` (`{ owner, epoch? }`; `null`: as nobody). A claimed"]
    #[doc = " session takes writes from its owner only; others throw `conflict` naming the owner."]
    fn set_writer(&self, writer: Option<Json<Writer>>) -> () = "writer: Writer | null", "void" => {
        self.inner.set_writer(writer.map(|w| w.0));
        Ok(())
    };
});

core_methods!(OrchestratorStore:
    #[doc = " Releases the current session (no `scopes`; the epoch is kept) or the scopes named."]
    release(release: Json<Release>) -> ReleaseOutcome = "release: Release", "ReleaseOutcome";
    #[doc = " The lease of the current session, or `null` when nobody ever claimed it."]
    lease() -> Option<Lease> = "", "Lease | null";
    #[doc = " Every live orchestrator entry, sorted by key; stale and unreadable ones are listed with"]
    #[doc = " `stale: true` and the `reason`."]
    live_sessions() -> Vec<LiveStatus> = "", "LiveStatus[]";
);
