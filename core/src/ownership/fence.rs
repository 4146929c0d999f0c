//! The ownership operations of [`OrchestratorStore`]: claim, renew, release and heartbeat of
//! the current session, the live sessions, and the fence every write of the session passes.

use super::arguments::check_name;
use super::arguments::{Claim, Heartbeat, Release, Writer};
use super::keys::{caller_live_key, live_dir, owner_key};
use super::lease::{Lease, check_writer, claim_lease, read_lease, release_lease, renew_lease};
use super::live::{
    LiveStatus, claim_scopes, heartbeat_live, list_live, prune_live, release_scopes,
};
use super::outcomes::{ClaimOutcome, HeartbeatOutcome, ReleaseOutcome};
use crate::error::{ErrorKind, Result};
use crate::orchestrator::{OrchestratorStore, current_key};
use crate::retention::PrunePlan;
use crate::store::Store;
use crate::time::Clock;

impl<S: Store, C: Clock> OrchestratorStore<S, C> {
    /// The same operations writing as `writer` (see [`set_writer`](Self::set_writer)).
    #[must_use]
    pub fn with_writer(self, writer: Writer) -> Self {
        self.set_writer(Some(writer));
        self
    }

    /// Writes from now on as `writer` (`None`: as nobody). A session whose lease someone holds
    /// takes writes from its owner only (with the lease's epoch when `writer` names one);
    /// others are [`ErrorKind::Conflict`] naming the owner. A successful
    /// [`claim`](Self::claim) of the session sets it to the owner and the epoch claimed.
    pub fn set_writer(&self, writer: Option<Writer>) {
        *self
            .writer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = writer;
    }

    /// Who this handle writes as.
    pub fn writer(&self) -> Option<Writer> {
        self.writer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// The writer for `owner`: this handle's writer (with its epoch) when it names `owner`.
    fn writer_for(&self, owner: &str) -> Writer {
        self.writer()
            .filter(|w| w.owner == owner)
            .unwrap_or_else(|| Writer::owner(owner))
    }

    /// Checks, inside the current session's exclusive update, that this handle may write it.
    pub(crate) fn fence(&self) -> Result<()> {
        check_writer(&self.store, &current_key(), self.writer().as_ref())
    }

    /// The goal of the current session, when one reads.
    fn current_goal(&self) -> Option<String> {
        self.load().ok().flatten().map(|doc| doc.goal)
    }

    /// The lease of the current session (`None` when nobody ever claimed it).
    ///
    /// # Errors
    /// [`ErrorKind::CorruptState`] when it does not parse; [`ErrorKind::Storage`].
    pub fn lease(&self) -> Result<Option<Lease>> {
        read_lease(&self.store, &owner_key())
    }

    /// Claims the current session (no `claim.scopes`) or the scopes named (the session left
    /// alone), and records the caller's live entry (`.claude/live/{session_id}.json`). A claim
    /// of the session may come before the session exists; this handle then writes as the
    /// owner with the epoch claimed.
    ///
    /// # Errors
    /// [`ErrorKind::Conflict`] naming the owner of the session, or the live session holding a
    /// scope (nothing written); [`ErrorKind::InvalidInput`], [`ErrorKind::InvalidKey`] for bad
    /// arguments; [`ErrorKind::CorruptState`]; [`ErrorKind::Storage`].
    pub fn claim(&self, claim: &Claim) -> Result<ClaimOutcome> {
        let now = self.now();
        // The owner and the live entry's id are checked before anything is claimed.
        check_name("owner", &claim.owner)?;
        caller_live_key(&live_dir(), claim.session_id.as_deref(), &claim.owner)?;
        // Refused before the lease changes hands (the live entry is written after it).
        super::live::check_ttl(claim.ttl_seconds)?;
        let goal = self.current_goal();
        if !claim.scopes.is_empty() {
            let live = claim_scopes(&self.store, &live_dir(), claim, goal.as_deref(), now)?;
            return Ok(ClaimOutcome {
                lease: None,
                live: Some(live),
            });
        }
        let lease = claim_lease(&self.store, &current_key(), claim, now)?;
        self.set_writer(Some(Writer {
            owner: claim.owner.clone(),
            epoch: Some(lease.epoch),
        }));
        let heartbeat = Heartbeat {
            owner: claim.owner.clone(),
            session_id: claim.session_id.clone(),
            lease_seconds: None,
            ttl_seconds: claim.ttl_seconds,
            process: claim.process.clone(),
        };
        let live = heartbeat_live(&self.store, &live_dir(), &heartbeat, goal.as_deref(), now)?;
        Ok(ClaimOutcome {
            lease: Some(lease),
            live: Some(live),
        })
    }

    /// Renews the lease `owner` holds on the current session for `lease_seconds` (default:
    /// the length it was claimed with).
    ///
    /// # Errors
    /// [`ErrorKind::Conflict`] naming the owner when `owner` does not hold it (or holds an
    /// older epoch than this handle's); [`ErrorKind::NotFound`] when nobody holds it.
    pub fn renew(&self, owner: &str, lease_seconds: Option<u64>) -> Result<Lease> {
        let writer = self.writer_for(owner);
        renew_lease(
            &self.store,
            &current_key(),
            &writer,
            lease_seconds,
            None,
            self.now(),
        )
    }

    /// Releases the current session (no `release.scopes`; the epoch is kept) or the scopes
    /// named, from the caller's live entry.
    ///
    /// # Errors
    /// As [`renew`](Self::renew) for the session; [`ErrorKind::NotFound`] when the caller has
    /// no live entry, for scopes.
    pub fn release(&self, release: &Release) -> Result<ReleaseOutcome> {
        if !release.scopes.is_empty() {
            let live = release_scopes(&self.store, &live_dir(), release)?;
            return Ok(ReleaseOutcome {
                lease: None,
                live: Some(live),
            });
        }
        let writer = self.writer_for(&release.owner);
        let lease = release_lease(&self.store, &current_key(), &writer, self.now())?;
        Ok(ReleaseOutcome {
            lease: Some(lease),
            live: None,
        })
    }

    /// Records a heartbeat: the caller's live entry is created or refreshed (with the current
    /// session's goal), and the session's lease renewed when the caller owns it.
    ///
    /// # Errors
    /// [`ErrorKind::Conflict`] when the live entry belongs to another owner; as
    /// [`claim`](Self::claim) otherwise. A lease held by someone else is not an error: the
    /// outcome says `renewed: false` and shows that lease.
    pub fn heartbeat(&self, heartbeat: &Heartbeat) -> Result<HeartbeatOutcome> {
        // Refused before the live entry is refreshed (the lease is renewed after it).
        if let Some(seconds) = heartbeat.lease_seconds {
            super::lease::check_seconds("lease_seconds", seconds)?;
        }
        let now = self.now();
        let live = heartbeat_live(
            &self.store,
            &live_dir(),
            heartbeat,
            self.current_goal().as_deref(),
            now,
        )?;
        let held = self
            .lease()?
            .is_some_and(|l| l.owner.as_deref() == Some(heartbeat.owner.as_str()));
        let renewal = if held {
            renew_lease(
                &self.store,
                &current_key(),
                &self.writer_for(&heartbeat.owner),
                heartbeat.lease_seconds,
                Some(&heartbeat.process),
                now,
            )
        } else {
            Err(crate::Error::new(ErrorKind::NotFound, "not held"))
        };
        let (lease, renewed) = match renewal {
            Ok(lease) => (Some(lease), true),
            Err(e) if matches!(e.kind(), ErrorKind::Conflict | ErrorKind::NotFound) => {
                (self.lease()?, false)
            }
            Err(e) => return Err(e),
        };
        Ok(HeartbeatOutcome {
            lease,
            renewed,
            live,
        })
    }

    /// Every live-session entry, sorted by key, with its age; stale ones (no heartbeat for
    /// longer than their TTL) and unreadable ones are listed as stale with the reason.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`].
    pub fn live_sessions(&self) -> Result<Vec<LiveStatus>> {
        list_live(&self.store, &live_dir(), self.now())
    }

    /// Removes the stale live-session entries (no heartbeat for longer than their TTL, or
    /// unreadable) with the scopes they claimed, when `apply`; a dry run otherwise. Live
    /// entries stay.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when the store fails.
    pub fn prune_live(&self, apply: bool) -> Result<PrunePlan> {
        prune_live(&self.store, &live_dir(), self.now(), apply)
    }
}
