//! The cases of the conformance suite about session ownership (`crate::ownership`): the lease
//! is read and written inside the session key's exclusive update, so these hold on a store
//! exactly when its update is exclusive and its closure may use other keys.
//!
//! The suite spawns no threads: "at once" is two handles' claims at the same instant, in
//! turn. The stores' own tests race real threads and processes on the same functions.

use super::Case;
use super::describe;
use crate::error::{ErrorKind, Result};
use crate::key::Key;
use crate::ownership::{Claim, Writer, check_writer, claim_lease, claim_scopes, read_lease};
use crate::store::{Store, update_with};
use crate::time::Timestamp;

type CaseResult = std::result::Result<(), String>;

pub(super) const CASES: [Case; 4] = [
    Case {
        name: "claim_has_one_winner",
        description: "two handles claiming one session at the same instant: exactly one wins, \
                      the other gets a conflict naming the winner",
        run: claim_has_one_winner,
    },
    Case {
        name: "taken_over_writer_cannot_write",
        description: "a writer whose lease was taken over, or naming no owner, cannot write the \
                      session; the new owner can, and the epoch grew",
        run: taken_over_writer_cannot_write,
    },
    Case {
        name: "crashed_owner_lease_expires",
        description: "a lease nobody renews can be taken over once past its expiry and the \
                      skew tolerance, not before",
        run: crashed_owner_lease_expires,
    },
    Case {
        name: "scope_held_by_live_session_is_refused",
        description: "a scope held by a live session cannot be claimed by another; once that \
                      session is stale it can",
        run: scope_held_by_live_session_is_refused,
    },
];

fn key(dir: &Key, name: &str) -> std::result::Result<Key, String> {
    dir.join(name).map_err(|e| describe(&e))
}

fn t(seconds: i64) -> Timestamp {
    let base = Timestamp::parse("2026-01-01T00:00:00Z").unwrap_or_else(|_| unreachable!());
    Timestamp::from_utc(base.utc() + chrono::Duration::seconds(seconds))
}

fn claim(owner: &str, lease: u64, takeover: bool, force: bool) -> Claim {
    Claim {
        owner: owner.to_owned(),
        lease_seconds: Some(lease),
        takeover,
        force,
        ..Claim::default()
    }
}

/// A write of `bytes` to `session` by `writer`, fenced as the orchestrator's writes are.
fn fenced_write(
    store: &dyn Store,
    session: &Key,
    writer: Option<&Writer>,
    bytes: &[u8],
) -> Result<()> {
    update_with(store, session, |_| {
        check_writer(store, session, writer)?;
        Ok((Some(bytes.to_vec()), ()))
    })
}

/// Checks `result` is a conflict naming `owner`.
fn conflict_naming<T: std::fmt::Debug>(what: &str, result: Result<T>, owner: &str) -> CaseResult {
    match result {
        Err(e) if e.kind() == ErrorKind::Conflict && e.context_value("owner") == Some(owner) => {
            Ok(())
        }
        Err(e) => Err(format!(
            "{what}: expected a conflict naming `{owner}`, got {}",
            describe(&e)
        )),
        Ok(v) => Err(format!(
            "{what}: expected a conflict naming `{owner}`, got {v:?}"
        )),
    }
}

fn ok<T>(what: &str, result: Result<T>) -> std::result::Result<T, String> {
    result.map_err(|e| format!("{what} failed: {}", describe(&e)))
}

fn claim_has_one_winner(store: &dyn Store, dir: &Key) -> CaseResult {
    let session = key(dir, "session.json")?;
    let first = ok(
        "first claim",
        claim_lease(store, &session, &claim("a", 60, false, false), t(0)),
    )?;
    if first.epoch != 1 || first.owner.as_deref() != Some("a") {
        return Err(format!(
            "first claim gave {first:?}, expected owner `a` at epoch 1"
        ));
    }
    conflict_naming(
        "second claim at the same instant",
        claim_lease(store, &session, &claim("b", 60, false, false), t(0)),
        "a",
    )?;
    conflict_naming(
        "takeover of a live lease",
        claim_lease(store, &session, &claim("b", 60, true, false), t(1)),
        "a",
    )?;
    let again = ok(
        "the owner claiming again",
        claim_lease(store, &session, &claim("a", 60, false, false), t(2)),
    )?;
    if again.epoch != 1 {
        return Err(format!(
            "the same owner claiming again changed the epoch to {}",
            again.epoch
        ));
    }
    let stored = ok(
        "read lease",
        read_lease(
            store,
            &crate::ownership::owner_key_for(&session).map_err(|e| describe(&e))?,
        ),
    )?;
    match stored {
        Some(l) if l.owner.as_deref() == Some("a") && l.epoch == 1 => Ok(()),
        other => Err(format!(
            "stored lease is {other:?}, expected `a` at epoch 1"
        )),
    }
}

fn taken_over_writer_cannot_write(store: &dyn Store, dir: &Key) -> CaseResult {
    let session = key(dir, "session.json")?;
    ok("unclaimed write", fenced_write(store, &session, None, b"0"))?;
    let a = ok(
        "claim by a",
        claim_lease(store, &session, &claim("a", 10, false, false), t(0)),
    )?;
    let writer_a = Writer {
        owner: "a".into(),
        epoch: Some(a.epoch),
    };
    ok(
        "write by a",
        fenced_write(store, &session, Some(&writer_a), b"1"),
    )?;
    conflict_naming(
        "write naming no owner",
        fenced_write(store, &session, None, b"x"),
        "a",
    )?;
    let b = ok(
        "takeover by b after expiry",
        claim_lease(store, &session, &claim("b", 10, true, false), t(16)),
    )?;
    if b.epoch != a.epoch + 1 || b.took_over_from.as_deref() != Some("a") || b.forced {
        return Err(format!(
            "takeover gave {b:?}, expected epoch {} taken from `a`",
            a.epoch + 1
        ));
    }
    conflict_naming(
        "write by a after the takeover",
        fenced_write(store, &session, Some(&writer_a), b"x"),
        "b",
    )?;
    conflict_naming(
        "write by a naming no epoch",
        fenced_write(store, &session, Some(&Writer::owner("a")), b"x"),
        "b",
    )?;
    let stale_b = Writer {
        owner: "b".into(),
        epoch: Some(a.epoch),
    };
    conflict_naming(
        "write by b with a's epoch",
        fenced_write(store, &session, Some(&stale_b), b"x"),
        "b",
    )?;
    let got = ok("read session", store.read(&session))?;
    if got.as_deref() != Some(b"1") {
        return Err(format!("a refused write landed: session holds {got:?}"));
    }
    let writer_b = Writer {
        owner: "b".into(),
        epoch: Some(b.epoch),
    };
    ok(
        "write by b",
        fenced_write(store, &session, Some(&writer_b), b"2"),
    )?;
    let got = ok("read session", store.read(&session))?;
    if got.as_deref() == Some(b"2") {
        Ok(())
    } else {
        Err(format!(
            "the owner's write did not land: session holds {got:?}"
        ))
    }
}

fn crashed_owner_lease_expires(store: &dyn Store, dir: &Key) -> CaseResult {
    let session = key(dir, "session.json")?;
    ok(
        "claim by a",
        claim_lease(store, &session, &claim("a", 30, false, false), t(0)),
    )?;
    // a crashes: no renewal. Expiry at 30 s, skew tolerance 5 s.
    conflict_naming(
        "takeover within the skew tolerance",
        claim_lease(store, &session, &claim("b", 30, true, false), t(35)),
        "a",
    )?;
    match claim_lease(store, &session, &claim("b", 30, false, false), t(36)) {
        Err(e)
            if e.kind() == ErrorKind::Conflict
                && e.hint() == Some(crate::error::Hint::Takeover) => {}
        other => {
            return Err(format!(
                "a claim without takeover of an expired lease gave {other:?}, expected a conflict with hint `takeover`"
            ));
        }
    }
    let b = ok(
        "takeover after expiry",
        claim_lease(store, &session, &claim("b", 30, true, false), t(36)),
    )?;
    if b.epoch != 2 {
        return Err(format!("takeover gave epoch {}, expected 2", b.epoch));
    }
    let c = ok(
        "forced claim of a live lease",
        claim_lease(store, &session, &claim("c", 30, false, true), t(37)),
    )?;
    if c.epoch == 3 && c.forced && c.took_over_from.as_deref() == Some("b") {
        Ok(())
    } else {
        Err(format!(
            "forced claim gave {c:?}, expected epoch 3, forced, taken from `b`"
        ))
    }
}

fn scope_held_by_live_session_is_refused(store: &dyn Store, dir: &Key) -> CaseResult {
    let live = key(dir, "live")?;
    let scoped = |owner: &str, ttl: u64| Claim {
        owner: owner.to_owned(),
        scopes: vec!["spec-7".to_owned()],
        ttl_seconds: Some(ttl),
        ..Claim::default()
    };
    ok(
        "scope claim by a",
        claim_scopes(store, &live, &scoped("a", 60), None, t(0)),
    )?;
    match claim_scopes(store, &live, &scoped("b", 60), None, t(30)) {
        Err(e) if e.kind() == ErrorKind::Conflict && e.context_value("session_id") == Some("a") => {
        }
        other => {
            return Err(format!(
                "a claim of a held scope gave {other:?}, expected a conflict naming `a`"
            ));
        }
    }
    let b = ok(
        "scope claim once a is stale",
        claim_scopes(store, &live, &scoped("b", 60), None, t(61)),
    )?;
    let a_entry = ok("read a", store.read(&key(&live, "a.json")?))?.unwrap_or_default();
    let a_entry: serde_json::Value = serde_json::from_slice(&a_entry).map_err(|e| e.to_string())?;
    if b.scopes == ["spec-7"] && a_entry["scopes"].as_array().is_none_or(Vec::is_empty) {
        Ok(())
    } else {
        Err(format!(
            "after the claim from a stale session: b holds {:?}, a's entry {a_entry}",
            b.scopes
        ))
    }
}
