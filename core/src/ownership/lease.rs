//! The lease of a session: claim, renew, release, and the check every write makes.
//!
//! Each function runs inside the exclusive [`Store::update`] of the session key, so a claim,
//! a renewal, a release and a fenced write of one session never interleave. The session's
//! bytes are never changed by them (renewing a lease does not change `updated`).

use chrono::Duration;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::arguments::{Claim, ProcessInfo, Writer, check_name};
use super::keys::owner_key_for;
use super::{DEFAULT_LEASE_SECONDS, DEFAULT_SKEW_SECONDS};
use crate::corrupt_copy::keep_corrupt_copy;
use crate::error::{Error, ErrorKind, Hint, Result};
use crate::key::Key;
use crate::store::{Store, update_with};
use crate::time::Timestamp;

/// The longest lease or TTL, in seconds (ten years).
pub(crate) const MAX_SECONDS: u64 = 315_360_000;

/// The lease of a session, stored beside it (`*.owner.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Lease {
    /// The owner id; `None` once released (the epoch is kept, so the next claim goes on
    /// counting).
    pub owner: Option<String>,
    /// Grows by one at every change of owner (the fencing token); 0 before any claim.
    pub epoch: u64,
    /// When the current owner claimed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed: Option<Timestamp>,
    /// When it was last claimed or renewed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renewed: Option<Timestamp>,
    /// When it ends unless renewed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<Timestamp>,
    /// Its length in seconds.
    pub lease_seconds: u64,
    /// The process that claimed or last renewed it.
    #[serde(default)]
    pub process: ProcessInfo,
    /// Whether the current owner took it by force before it expired.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forced: bool,
    /// The owner it was taken from, when it was taken over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub took_over_from: Option<String>,
    /// When it was released (no owner since).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub released: Option<Timestamp>,
    /// The owner that released it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub released_by: Option<String>,
    /// Fields this version does not know, kept as they are.
    #[serde(flatten)]
    #[schemars(skip)]
    pub extra: IndexMap<String, Value>,
}

impl Lease {
    /// Whether the lease is past its expiry at `now` by more than `skew_seconds`.
    pub fn expired_at(&self, now: Timestamp, skew_seconds: u64) -> bool {
        self.expires.is_none_or(|expires| {
            now.utc() > expires.utc() + seconds(skew_seconds.min(MAX_SECONDS))
        })
    }
}

fn seconds(n: u64) -> Duration {
    Duration::seconds(i64::try_from(n).unwrap_or(i64::MAX / 1000))
}

pub(crate) fn check_seconds(field: &'static str, value: u64) -> Result<u64> {
    if (1..=MAX_SECONDS).contains(&value) {
        Ok(value)
    } else {
        Err(Error::invalid_input(format!(
            "{field} is {value}: give 1 to {MAX_SECONDS} seconds"
        ))
        .with_context("field", field))
    }
}

/// The lease stored under `owner_key`, or `None` when there is none.
///
/// # Errors
/// [`ErrorKind::CorruptState`] when it does not parse; [`ErrorKind::Storage`].
pub fn read_lease<S: Store + ?Sized>(store: &S, owner_key: &Key) -> Result<Option<Lease>> {
    match store.read(owner_key)? {
        None => Ok(None),
        Some(bytes) => parse_lease(owner_key, &bytes).map(Some),
    }
}

/// What a corrupt lease file's error adds: how to get past it.
const SET_ASIDE: &str = "a claim with force keeps a copy aside and starts the lease again";

pub(crate) fn parse_lease(owner_key: &Key, bytes: &[u8]) -> Result<Lease> {
    serde_json::from_slice(bytes)
        .map_err(|e| Error::corrupt(owner_key, format!("{e}; {SET_ASIDE}")))
}

/// The epoch after `old`'s: one more, or, past the largest, [`restart_epoch`].
fn next_epoch(old: &Lease, now: Timestamp) -> u64 {
    old.epoch
        .checked_add(1)
        .unwrap_or_else(|| restart_epoch(now))
}

/// The epoch of a lease started again (its file set aside, or its count at the largest):
/// `now` in milliseconds since 1970, above any count of owners reached one by one, so that no
/// holder of an earlier epoch passes the fence.
pub(crate) fn restart_epoch(now: Timestamp) -> u64 {
    u64::try_from(now.utc().timestamp_millis())
        .unwrap_or(1)
        .max(1)
}

/// Sets aside the lease file `bytes` that does not read: a copy kept (`<key>.corrupt-<stamp>`),
/// then a released lease in its place whose epoch is [`restart_epoch`], so that the next claim
/// fences out every holder of the old one. Runs under the session's lock (the caller's
/// update). Returns the copy's key.
pub(crate) fn set_aside_lease<S: Store + ?Sized>(
    store: &S,
    owner_key: &Key,
    bytes: &[u8],
    now: Timestamp,
) -> Result<Key> {
    let copy = keep_corrupt_copy(store, owner_key, bytes, now.utc())?;
    let released = Lease {
        owner: None,
        epoch: restart_epoch(now),
        claimed: None,
        renewed: None,
        expires: None,
        lease_seconds: 0,
        process: ProcessInfo::default(),
        forced: false,
        took_over_from: None,
        released: Some(now),
        released_by: None,
        extra: IndexMap::new(),
    };
    write_lease(store, owner_key, &released)?;
    Ok(copy)
}

fn write_lease<S: Store + ?Sized>(store: &S, owner_key: &Key, lease: &Lease) -> Result<()> {
    let mut bytes = serde_json::to_vec_pretty(lease).map_err(|e| Error::corrupt(owner_key, e))?;
    bytes.push(b'\n');
    store.write(owner_key, &bytes)
}

/// The [`ErrorKind::Conflict`] of a caller refused because `lease` is held by its owner.
fn held_by(lease: &Lease, session: &Key, why: &str) -> Error {
    let owner = lease.owner.as_deref().unwrap_or_default();
    let expires = lease
        .expires
        .map_or_else(|| "no expiry".to_owned(), |t| format!("expires {t}"));
    let mut err = Error::new(
        ErrorKind::Conflict,
        format!(
            "session `{session}` is owned by `{}` (epoch {}, lease {expires}): {why}",
            owner.escape_debug(),
            lease.epoch
        ),
    )
    .with_context("key", session.as_str())
    .with_context("owner", owner)
    .with_context("epoch", lease.epoch.to_string());
    if let Some(expires) = lease.expires {
        err = err.with_context("expires", expires.to_string());
    }
    err
}

/// Checks, inside the session's exclusive update, that `writer` may write the session stored
/// under `session`: always when nobody holds its lease (but for a writer naming an epoch older
/// than the lease's); otherwise only the owner, and only with the lease's epoch when the
/// writer names one.
///
/// # Errors
/// [`ErrorKind::Conflict`] naming the owner (context `owner`, `epoch`, `expires`);
/// [`ErrorKind::CorruptState`] when the lease does not parse.
pub fn check_writer<S: Store + ?Sized>(
    store: &S,
    session: &Key,
    writer: Option<&Writer>,
) -> Result<()> {
    let Some(lease) = read_lease(store, &owner_key_for(session)?)? else {
        return Ok(());
    };
    let Some(owner) = lease.owner.as_deref() else {
        // Released: anyone writes, but not a writer holding an epoch from before the last
        // owner's (it was superseded before the release).
        return match writer.and_then(|w| w.epoch) {
            Some(epoch) if epoch < lease.epoch => Err(Error::new(
                ErrorKind::Conflict,
                format!(
                    "session `{session}` was released at epoch {}: the writer holds epoch \
                     {epoch}, superseded",
                    lease.epoch
                ),
            )
            .with_context("key", session.as_str())
            .with_context("owner", "")
            .with_context("epoch", lease.epoch.to_string())),
            _ => Ok(()),
        };
    };
    match writer {
        None => Err(held_by(
            &lease,
            session,
            "a write must name its owner; this one names none",
        )),
        Some(w) if w.owner != owner => Err(held_by(
            &lease,
            session,
            &format!("`{}` cannot write it", w.owner.escape_debug()),
        )),
        Some(Writer {
            epoch: Some(epoch), ..
        }) if *epoch != lease.epoch => Err(held_by(
            &lease,
            session,
            &format!("the writer holds epoch {epoch}, superseded"),
        )),
        Some(_) => Ok(()),
    }
}

/// Claims the lease of the session stored under `session` for `claim.owner` at `now` (the
/// scopes and live-entry fields of `claim` are not used here). The same owner claiming again
/// renews it (same epoch); a lease held by nobody is taken with the next epoch; another
/// owner's lease is taken with the next epoch when `force`, or when `takeover` and it expired
/// more than the skew tolerance ago.
///
/// # Errors
/// [`ErrorKind::Conflict`] naming the owner when another owner holds it (hint
/// [`Hint::Takeover`] once it has expired); [`ErrorKind::InvalidInput`] for a blank owner or a
/// lease of 0 seconds; [`ErrorKind::CorruptState`]; [`ErrorKind::Storage`].
pub fn claim_lease<S: Store + ?Sized>(
    store: &S,
    session: &Key,
    claim: &Claim,
    now: Timestamp,
) -> Result<Lease> {
    check_name("owner", &claim.owner)?;
    let length = check_seconds(
        "lease_seconds",
        claim.lease_seconds.unwrap_or(DEFAULT_LEASE_SECONDS),
    )?;
    let skew = claim.skew_seconds.unwrap_or(DEFAULT_SKEW_SECONDS);
    let owner_key = owner_key_for(session)?;
    update_with(store, session, |_| {
        let old = match store.read(&owner_key)? {
            None => None,
            Some(bytes) => match parse_lease(&owner_key, &bytes) {
                Ok(old) => Some(old),
                // Forced past a lease that cannot be read: set aside first.
                Err(_) if claim.force => {
                    set_aside_lease(store, &owner_key, &bytes, now)?;
                    read_lease(store, &owner_key)?
                }
                Err(e) => return Err(e),
            },
        };
        let mut lease = match old {
            Some(old) if old.owner.as_deref() == Some(claim.owner.as_str()) => old,
            Some(old) if old.owner.is_none() => Lease {
                epoch: next_epoch(&old, now),
                extra: old.extra,
                ..fresh(claim, now)
            },
            None => Lease {
                epoch: 1,
                ..fresh(claim, now)
            },
            Some(old) => {
                let expired = old.expired_at(now, skew);
                if !(claim.force || claim.takeover && expired) {
                    let why = if expired {
                        format!(
                            "its lease expired; `{}` may take it over",
                            claim.owner.escape_debug()
                        )
                    } else {
                        "its lease has not expired".to_owned()
                    };
                    let err = held_by(&old, session, &why);
                    return Err(if expired {
                        err.with_hint(Hint::Takeover)
                    } else {
                        err
                    });
                }
                Lease {
                    epoch: next_epoch(&old, now),
                    forced: !expired,
                    took_over_from: old.owner.clone(),
                    extra: old.extra,
                    ..fresh(claim, now)
                }
            }
        };
        lease.renewed = Some(now);
        lease.expires = Some(Timestamp::from_utc(now.utc() + seconds(length)));
        lease.lease_seconds = length;
        lease.process = claim.process.clone();
        write_lease(store, &owner_key, &lease)?;
        Ok((None, lease))
    })
}

fn fresh(claim: &Claim, now: Timestamp) -> Lease {
    Lease {
        owner: Some(claim.owner.clone()),
        epoch: 0,
        claimed: Some(now),
        renewed: Some(now),
        expires: None,
        lease_seconds: 0,
        process: ProcessInfo::default(),
        forced: false,
        took_over_from: None,
        released: None,
        released_by: None,
        extra: IndexMap::new(),
    }
}

/// Renews the lease of `writer` (its owner, and its epoch when it names one) for
/// `lease_seconds` (default: the length it has) from `now`. The process is replaced when
/// `process` is given.
///
/// # Errors
/// [`ErrorKind::Conflict`] naming the owner when the writer does not hold the lease;
/// [`ErrorKind::NotFound`] when nobody holds it; as [`claim_lease`] otherwise.
pub fn renew_lease<S: Store + ?Sized>(
    store: &S,
    session: &Key,
    writer: &Writer,
    lease_seconds: Option<u64>,
    process: Option<&ProcessInfo>,
    now: Timestamp,
) -> Result<Lease> {
    let owner_key = owner_key_for(session)?;
    update_with(store, session, |_| {
        let Some(mut lease) = read_lease(store, &owner_key)?.filter(|l| l.owner.is_some()) else {
            return Err(unclaimed(session, &writer.owner));
        };
        check_writer(store, session, Some(writer))?;
        let length = check_seconds(
            "lease_seconds",
            lease_seconds.unwrap_or(lease.lease_seconds),
        )?;
        lease.renewed = Some(now);
        lease.expires = Some(Timestamp::from_utc(now.utc() + seconds(length)));
        lease.lease_seconds = length;
        if let Some(process) = process {
            lease.process = process.clone();
        }
        write_lease(store, &owner_key, &lease)?;
        Ok((None, lease))
    })
}

/// Releases the lease `writer` holds: no owner from `now` on, the epoch kept.
///
/// # Errors
/// As [`renew_lease`].
pub fn release_lease<S: Store + ?Sized>(
    store: &S,
    session: &Key,
    writer: &Writer,
    now: Timestamp,
) -> Result<Lease> {
    let owner_key = owner_key_for(session)?;
    update_with(store, session, |_| {
        let Some(mut lease) = read_lease(store, &owner_key)?.filter(|l| l.owner.is_some()) else {
            return Err(unclaimed(session, &writer.owner));
        };
        check_writer(store, session, Some(writer))?;
        lease.released_by = lease.owner.take();
        lease.took_over_from = None;
        lease.released = Some(now);
        lease.expires = None;
        lease.forced = false;
        write_lease(store, &owner_key, &lease)?;
        Ok((None, lease))
    })
}

fn unclaimed(session: &Key, owner: &str) -> Error {
    Error::new(
        ErrorKind::NotFound,
        format!(
            "session `{session}` has no owner: `{}` holds no lease on it",
            owner.escape_debug()
        ),
    )
    .with_context("key", session.as_str())
}
