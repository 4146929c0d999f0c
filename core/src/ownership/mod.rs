//! Ownership of the current session, with fencing, and the registry of live orchestrators.
//!
//! - **Lease** ([`Lease`]): `claim` makes an owner (an id the caller chooses) the owner of the
//!   session under a lease with an expiry and an epoch that grows at every change of owner (a
//!   fencing token). It lives in its own key beside the session
//!   (`.claude/orchestrator-session.owner.json`, see [`owner_key`]), never in the session
//!   document, and is read and written only inside the session's exclusive
//!   [`Store::update`](crate::Store::update): a claim and a write of the session never
//!   interleave. Every write of a claimed session checks the writer ([`Writer`]) there: a
//!   writer naming another owner, an older epoch of its own, or no owner at all is
//!   [`ErrorKind::Conflict`](crate::ErrorKind::Conflict) naming the current owner, and nothing
//!   lands. A session nobody claimed (or whose owner released it) takes every write.
//! - **Expiry**: a lease ends `lease_seconds` after its last claim or renewal. Another owner
//!   may take it over ([`Claim::takeover`]) once the caller's clock is past the expiry by more
//!   than the skew tolerance ([`Claim::skew_seconds`], default [`DEFAULT_SKEW_SECONDS`]), so
//!   that clocks a few seconds apart never hand one lease to two owners. [`Claim::force`]
//!   takes a live lease and is recorded in it. An owner whose lease expired keeps writing
//!   until someone takes it over: nobody else holds a higher epoch.
//! - **Live sessions** ([`LiveSession`]): one key per running orchestrator,
//!   `.claude/live/{session_id}.json` (see [`live_key`]), refreshed by `heartbeat`; an entry
//!   whose last heartbeat is older than its TTL (default [`DEFAULT_TTL_SECONDS`]) is listed as
//!   stale with the reason, never dropped. Entries also hold claims on named scopes of work
//!   (a chain id, a spec, free text): a scope held by a live entry cannot be claimed by
//!   another.
//!
//! The core records the claiming process ([`ProcessInfo`]) as the caller gives it; it never
//! reads it itself (the CLI reads its own from `/proc`).
//!
//! ```
//! use session_state::{ErrorKind, FixedClock, MemoryStore};
//! use session_state::orchestrator::{NewSession, OrchestratorStore, Project};
//! use session_state::ownership::Claim;
//!
//! let clock = FixedClock::at("2025-12-27T10:30:00Z")?;
//! let a = OrchestratorStore::new(MemoryStore::new(), clock);
//! let b = OrchestratorStore::new(a.store().clone(), clock);
//! let claimed = a.claim(&Claim::owner("orchestrator-a"))?;
//! assert_eq!(claimed.lease.expect("a session claim").epoch, 1);
//! let new = NewSession { goal: "Add sensitivity analysis".into(), ..NewSession::default() };
//! a.record_new(&new, Project::new("p", "/p", None), Some("x"))?;
//! // `b` names no owner: refused, nothing written.
//! let err = b.start().unwrap_err();
//! assert_eq!(err.kind(), ErrorKind::Conflict);
//! assert_eq!(err.context_value("owner"), Some("orchestrator-a"));
//! # Ok::<(), session_state::Error>(())
//! ```

mod arguments;
mod fence;
mod keys;
mod lease;
mod live;
mod outcomes;

pub use arguments::{Claim, Heartbeat, MAX_NAME_BYTES, ProcessInfo, Release, Writer, check_name};
pub use keys::{
    LIVE_DIR, OWNER_KEY, SCOPES_KEY, live_dir, live_key, live_key_in, owner_key, owner_key_for,
};
pub use lease::{Lease, check_writer, claim_lease, read_lease, release_lease, renew_lease};
pub(crate) use lease::{parse_lease, set_aside_lease};
pub(crate) use live::claimed_by_live_sessions;
pub use live::{
    LiveSession, LiveStatus, claim_scopes, heartbeat_live, list_live, prune_live, release_scopes,
};
pub use outcomes::{ClaimOutcome, HeartbeatOutcome, ReleaseOutcome};

/// How long a lease lasts without a renewal, in seconds, when the caller names none.
pub const DEFAULT_LEASE_SECONDS: u64 = 300;
/// How far past its expiry a lease must be, in seconds, before another owner may take it over
/// (the clocks of two hosts may differ by this much).
pub const DEFAULT_SKEW_SECONDS: u64 = 5;
/// How long a live entry stays live without a heartbeat, in seconds (30 minutes).
pub const DEFAULT_TTL_SECONDS: u64 = 1800;
