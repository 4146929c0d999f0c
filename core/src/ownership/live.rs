//! The registry of live orchestrators: one entry per orchestrator, its heartbeat, and its
//! claims on named scopes of work.
//!
//! A heartbeat is one exclusive update of the orchestrator's own entry, so no single key is a
//! point of contention. Claims and releases of scopes run inside the exclusive update of one
//! key beside the folder ([`SCOPES_KEY`](super::SCOPES_KEY), which holds a counter of them), so
//! two orchestrators claiming one scope at once cannot both get it, on any store.

// Entry names are written by this module, exact and lowercase.
#![allow(clippy::case_sensitive_file_extension_comparisons)]

use indexmap::{IndexMap, IndexSet};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::DEFAULT_TTL_SECONDS;
use super::arguments::{Claim, Heartbeat, ProcessInfo, Release, check_name};
use super::keys::{caller_live_key, scopes_key_for};
use super::lease::check_seconds;
use crate::corrupt_copy::keep_corrupt_copy;
use crate::error::{Error, ErrorKind, Result};
use crate::key::Key;
use crate::retention::{PruneKind, PrunePlan, Removal};
use crate::store::{Store, update_with};
use crate::time::Timestamp;

/// One running orchestrator, stored as `.claude/live/{session_id}.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LiveSession {
    /// The orchestrator's session id (the name of its entry).
    pub session_id: String,
    /// The goal of the session it works on, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// Its owner id.
    pub owner: String,
    /// Its process and host.
    #[serde(default)]
    pub process: ProcessInfo,
    /// Its first heartbeat or claim.
    pub started: Timestamp,
    /// Its last heartbeat or claim.
    pub heartbeat: Timestamp,
    /// How long it stays live without a heartbeat, in seconds.
    pub ttl_seconds: u64,
    /// The scopes of work it claims, in the order claimed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// Fields this version does not know, kept as they are.
    #[serde(flatten)]
    #[schemars(skip)]
    pub extra: IndexMap<String, Value>,
}

impl LiveSession {
    /// Why the entry is stale at `now` (no heartbeat for longer than its TTL), or `None`.
    pub fn stale_reason(&self, now: Timestamp) -> Option<String> {
        let silent = seconds_between(self.heartbeat, now);
        (silent > self.ttl_seconds).then(|| {
            format!(
                "no heartbeat for {silent} s, more than its TTL of {} s",
                self.ttl_seconds
            )
        })
    }
}

/// A live entry as listed: its key, the entry (`None` when it does not parse), its age and
/// whether it is stale, with the reason.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LiveStatus {
    /// The key of the entry.
    pub key: String,
    /// The entry, or `None` when it cannot be read (then `stale` with the reason).
    pub entry: Option<LiveSession>,
    /// Seconds since it started.
    pub age_seconds: u64,
    /// Seconds since its last heartbeat.
    pub heartbeat_age_seconds: u64,
    /// Whether it is stale.
    pub stale: bool,
    /// Why it is stale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

fn seconds_between(from: Timestamp, to: Timestamp) -> u64 {
    u64::try_from((to.utc() - from.utc()).num_seconds()).unwrap_or(0)
}

fn parse_entry(key: &Key, bytes: &[u8]) -> Result<LiveSession> {
    serde_json::from_slice(bytes).map_err(|e| Error::corrupt(key, e))
}

fn read_entry<S: Store + ?Sized>(store: &S, key: &Key) -> Result<Option<LiveSession>> {
    store
        .read(key)?
        .map(|bytes| parse_entry(key, &bytes))
        .transpose()
}

fn encode(key: &Key, entry: &LiveSession) -> Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec_pretty(entry).map_err(|e| Error::corrupt(key, e))?;
    bytes.push(b'\n');
    Ok(bytes)
}

fn ttl(value: Option<u64>, old: Option<&LiveSession>) -> Result<u64> {
    let ttl = value
        .or(old.map(|e| e.ttl_seconds))
        .unwrap_or(DEFAULT_TTL_SECONDS);
    check_seconds("ttl_seconds", ttl)
}

/// Refuses a `ttl_seconds` given out of range before anything is written.
pub(crate) fn check_ttl(value: Option<u64>) -> Result<()> {
    value.map_or(Ok(()), |t| check_seconds("ttl_seconds", t).map(drop))
}

/// The entry `old` (of another owner: refused) refreshed at `now`, or a new one.
fn refreshed(
    key: &Key,
    old: Option<LiveSession>,
    session_id: &str,
    owner: &str,
    process: &ProcessInfo,
    ttl_seconds: u64,
    now: Timestamp,
) -> Result<LiveSession> {
    let mut entry = match old {
        Some(old) if old.owner != owner => {
            return Err(Error::new(
                ErrorKind::Conflict,
                format!(
                    "live session `{}` belongs to owner `{}`, not `{}`",
                    session_id.escape_debug(),
                    old.owner.escape_debug(),
                    owner.escape_debug()
                ),
            )
            .with_context("key", key.as_str())
            .with_context("owner", old.owner)
            .with_context("session_id", session_id));
        }
        Some(old) => old,
        None => LiveSession {
            session_id: session_id.to_owned(),
            goal: None,
            owner: owner.to_owned(),
            process: ProcessInfo::default(),
            started: now,
            heartbeat: now,
            ttl_seconds,
            scopes: Vec::new(),
            extra: IndexMap::new(),
        },
    };
    entry.heartbeat = now;
    entry.ttl_seconds = ttl_seconds;
    if *process != ProcessInfo::default() {
        entry.process = process.clone();
    }
    Ok(entry)
}

/// Records a heartbeat of `heartbeat.owner` in the live folder `dir` at `now`: its entry
/// (`{dir}/{session_id}.json`) is created or refreshed, with `goal` when given.
///
/// # Errors
/// [`ErrorKind::Conflict`] when the entry belongs to another owner;
/// [`ErrorKind::InvalidInput`] / [`ErrorKind::InvalidKey`] for a bad owner or id;
/// [`ErrorKind::CorruptState`] when the entry does not parse; [`ErrorKind::Storage`].
pub fn heartbeat_live<S: Store + ?Sized>(
    store: &S,
    dir: &Key,
    heartbeat: &Heartbeat,
    goal: Option<&str>,
    now: Timestamp,
) -> Result<LiveSession> {
    check_name("owner", &heartbeat.owner)?;
    check_ttl(heartbeat.ttl_seconds)?;
    let (key, id) = caller_live_key(dir, heartbeat.session_id.as_deref(), &heartbeat.owner)?;
    update_with(store, &key, |old| {
        let old = old.map(|bytes| parse_entry(&key, bytes)).transpose()?;
        let ttl = ttl(heartbeat.ttl_seconds, old.as_ref())?;
        let mut entry = refreshed(
            &key,
            old,
            id,
            &heartbeat.owner,
            &heartbeat.process,
            ttl,
            now,
        )?;
        if let Some(goal) = goal {
            entry.goal = Some(goal.to_owned());
        }
        Ok((Some(encode(&key, &entry)?), entry))
    })
}

/// The next value of the scopes' counter (the bytes under [`SCOPES_KEY`](super::SCOPES_KEY)).
fn next_count(old: Option<&[u8]>) -> Vec<u8> {
    let count: u64 = old
        .and_then(|b| std::str::from_utf8(b).ok())
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(0);
    format!("{}\n", count.wrapping_add(1)).into_bytes()
}

/// Claims `claim.scopes` for `claim.owner`'s live entry in `dir` at `now` (creating the entry,
/// with `goal` when given). A scope held by another entry that is live is refused; one held by
/// a stale entry is taken from it (and removed from that entry).
///
/// # Errors
/// [`ErrorKind::Conflict`] naming the live session and owner that hold a scope (context
/// `session_id`, `owner`, `scope`; nothing written); as [`heartbeat_live`] otherwise.
pub fn claim_scopes<S: Store + ?Sized>(
    store: &S,
    dir: &Key,
    claim: &Claim,
    goal: Option<&str>,
    now: Timestamp,
) -> Result<LiveSession> {
    check_name("owner", &claim.owner)?;
    for scope in &claim.scopes {
        check_name("scope", scope)?;
    }
    if let Some(flag) = [(claim.force, "force"), (claim.takeover, "takeover")]
        .into_iter()
        .find_map(|(set, flag)| set.then_some(flag))
    {
        let message = format!(
            "`{flag}` takes over the session's lease, not scopes: a scope is taken from a holder \
             once it is stale"
        );
        return Err(Error::invalid_input(message).with_context("field", flag));
    }
    check_ttl(claim.ttl_seconds)?;
    let (key, id) = caller_live_key(dir, claim.session_id.as_deref(), &claim.owner)?;
    update_with(store, &scopes_key_for(dir)?, |counter| {
        let mut taken_from_stale = Vec::new();
        for other_key in store.list(dir)? {
            if other_key == key || !other_key.file_name().ends_with(".json") {
                continue;
            }
            // An unreadable entry holds nothing.
            let Ok(Some(mut other)) = read_entry(store, &other_key) else {
                continue;
            };
            let held: Vec<&String> = claim
                .scopes
                .iter()
                .filter(|s| other.scopes.contains(s))
                .collect();
            let Some(scope) = held.first() else {
                continue;
            };
            if other.stale_reason(now).is_none() {
                return Err(Error::new(
                    ErrorKind::Conflict,
                    format!(
                        "scope `{}` is held by live session `{}` (owner `{}`, last heartbeat {})",
                        scope.escape_debug(),
                        other.session_id.escape_debug(),
                        other.owner.escape_debug(),
                        other.heartbeat
                    ),
                )
                .with_context("key", other_key.as_str())
                .with_context("scope", scope.as_str())
                .with_context("session_id", other.session_id.clone())
                .with_context("owner", other.owner.clone()));
            }
            other.scopes.retain(|s| !claim.scopes.contains(s));
            taken_from_stale.push((other_key, other));
        }
        for (other_key, other) in &taken_from_stale {
            store.write(other_key, &encode(other_key, other)?)?;
        }
        let old = read_entry(store, &key)?;
        let ttl = ttl(claim.ttl_seconds, old.as_ref())?;
        let mut entry = refreshed(&key, old, id, &claim.owner, &claim.process, ttl, now)?;
        for scope in &claim.scopes {
            if !entry.scopes.contains(scope) {
                entry.scopes.push(scope.clone());
            }
        }
        if let Some(goal) = goal {
            entry.goal = Some(goal.to_owned());
        }
        store.write(&key, &encode(&key, &entry)?)?;
        Ok((Some(next_count(counter)), entry))
    })
}

/// Releases `release.scopes` from `release.owner`'s live entry in `dir`.
///
/// # Errors
/// [`ErrorKind::NotFound`] when the owner has no live entry, or its entry does not hold one of
/// the scopes (context `scope`; nothing released, as a session nobody holds); [`ErrorKind::Conflict`] when the
/// entry belongs to another owner; as [`heartbeat_live`] otherwise.
pub fn release_scopes<S: Store + ?Sized>(
    store: &S,
    dir: &Key,
    release: &Release,
) -> Result<LiveSession> {
    check_name("owner", &release.owner)?;
    let (key, id) = caller_live_key(dir, release.session_id.as_deref(), &release.owner)?;
    update_with(store, &scopes_key_for(dir)?, |counter| {
        let Some(mut entry) = read_entry(store, &key)? else {
            return Err(Error::new(
                ErrorKind::NotFound,
                format!("there is no live session `{}`", id.escape_debug()),
            )
            .with_context("key", key.as_str()));
        };
        if entry.owner != release.owner {
            return Err(Error::new(
                ErrorKind::Conflict,
                format!(
                    "live session `{}` belongs to owner `{}`, not `{}`",
                    id.escape_debug(),
                    entry.owner.escape_debug(),
                    release.owner.escape_debug()
                ),
            )
            .with_context("key", key.as_str())
            .with_context("owner", entry.owner.clone()));
        }
        if let Some(scope) = release.scopes.iter().find(|s| !entry.scopes.contains(s)) {
            return Err(Error::new(
                ErrorKind::NotFound,
                format!(
                    "live session `{}` of `{}` does not hold scope `{}`",
                    id.escape_debug(),
                    entry.owner.escape_debug(),
                    scope.escape_debug()
                ),
            )
            .with_context("key", key.as_str())
            .with_context("scope", scope.clone()));
        }
        entry.scopes.retain(|s| !release.scopes.contains(s));
        store.write(&key, &encode(&key, &entry)?)?;
        Ok((Some(next_count(counter)), entry))
    })
}

/// Every entry of the live folder `dir`, sorted by key, with its age at `now`; stale and
/// unreadable entries are listed as stale with the reason, never left out.
///
/// # Errors
/// [`ErrorKind::Storage`] when the store fails.
pub fn list_live<S: Store + ?Sized>(
    store: &S,
    dir: &Key,
    now: Timestamp,
) -> Result<Vec<LiveStatus>> {
    let mut out = Vec::new();
    for key in store.list(dir)? {
        if !key.file_name().ends_with(".json") || key.parent().as_ref() != Some(dir) {
            continue;
        }
        let Some(bytes) = store.read(&key)? else {
            continue;
        };
        out.push(match parse_entry(&key, &bytes) {
            Ok(entry) => {
                let reason = entry.stale_reason(now);
                LiveStatus {
                    key: key.as_str().to_owned(),
                    age_seconds: seconds_between(entry.started, now),
                    heartbeat_age_seconds: seconds_between(entry.heartbeat, now),
                    stale: reason.is_some(),
                    reason,
                    entry: Some(entry),
                }
            }
            Err(e) => LiveStatus {
                key: key.as_str().to_owned(),
                entry: None,
                age_seconds: 0,
                heartbeat_age_seconds: 0,
                stale: true,
                reason: Some(format!("unreadable: {}", e.message())),
            },
        });
    }
    Ok(out)
}

/// The stale entries of the live folder `dir` at `now` (no heartbeat for longer than their
/// TTL, or unreadable), removed with the scopes they claimed when `apply`, an unreadable one
/// after a copy of it is kept (`<key>.corrupt-<UTC stamp>`); live entries stay.
/// Runs inside the exclusive update of the scopes key, as claims and releases of scopes do, and
/// checks each entry again right before removing it.
///
/// # Errors
/// [`ErrorKind::Storage`] when the store fails.
pub fn prune_live<S: Store + ?Sized>(
    store: &S,
    dir: &Key,
    now: Timestamp,
    apply: bool,
) -> Result<PrunePlan> {
    let stale: Vec<LiveStatus> = list_live(store, dir, now)?
        .into_iter()
        .filter(|s| s.stale)
        .collect();
    if stale.is_empty() || !apply {
        return Ok(plan_of(&stale, false));
    }
    update_with(store, &scopes_key_for(dir)?, |counter| {
        let mut removed = Vec::new();
        for status in &stale {
            let key = Key::new(status.key.clone())?;
            let still_stale = match store.read(&key)? {
                None => false,
                Some(bytes) => {
                    if let Ok(entry) = parse_entry(&key, &bytes) {
                        entry.stale_reason(now).is_some()
                    } else {
                        // Unreadable: its bytes are kept beside it before it goes.
                        keep_corrupt_copy(store, &key, &bytes, now.utc())?;
                        true
                    }
                }
            };
            if still_stale && store.delete(&key)? {
                removed.push(status.clone());
            }
        }
        Ok((Some(next_count(counter)), plan_of(&removed, true)))
    })
}

/// The plan that lists `stale` entries as removed (or to remove).
fn plan_of(stale: &[LiveStatus], applied: bool) -> PrunePlan {
    let removed = stale
        .iter()
        .map(|s| Removal {
            kind: PruneKind::LiveSession,
            id: s.entry.as_ref().map_or_else(
                || {
                    s.key
                        .rsplit('/')
                        .next()
                        .unwrap_or(&s.key)
                        .trim_end_matches(".json")
                        .to_owned()
                },
                |e| e.session_id.clone(),
            ),
            removes: std::iter::once(s.key.clone())
                .chain(
                    s.entry
                        .iter()
                        .flat_map(|e| e.scopes.iter().map(|x| format!("scope {x}"))),
                )
                .collect(),
            reason: s.reason.clone().unwrap_or_default(),
        })
        .collect();
    PrunePlan {
        applied,
        removed,
        kept: Vec::new(),
    }
}

/// What live (not stale) sessions of the live folder of the store claim at `now`: their own
/// session ids and the scopes they hold. Prunes keep what this names.
///
/// # Errors
/// [`ErrorKind::Storage`] when the store fails.
pub(crate) fn claimed_by_live_sessions<S: Store + ?Sized>(
    store: &S,
    now: Timestamp,
) -> Result<IndexSet<String>> {
    Ok(list_live(store, &super::keys::live_dir(), now)?
        .into_iter()
        .filter(|s| !s.stale)
        .filter_map(|s| s.entry)
        .flat_map(|e| std::iter::once(e.session_id).chain(e.scopes))
        .collect())
}
