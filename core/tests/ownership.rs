//! Session ownership through `OrchestratorStore`: every write of a claimed session is fenced,
//! the lease lives beside the session, heartbeats renew it and refresh the live entry.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};
use session_state::orchestrator::{
    AgentStart, NewSession, OrchestratorStore, Project, current_key,
};
use session_state::ownership::{
    Claim, Heartbeat, LIVE_DIR, OWNER_KEY, ProcessInfo, Release, Writer, live_key, owner_key,
};
use session_state::{Clock, ErrorKind, Hint, Key, MemoryStore, Store, Timestamp};

/// A clock the test moves.
#[derive(Clone, Debug)]
struct Moving(Arc<Mutex<DateTime<Utc>>>);

impl Moving {
    fn new() -> Moving {
        Moving(Arc::new(Mutex::new(
            Timestamp::parse("2026-01-01T00:00:00Z").unwrap().utc(),
        )))
    }
    fn advance(&self, seconds: i64) {
        *self.0.lock().unwrap() += Duration::seconds(seconds);
    }
}

impl Clock for Moving {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap()
    }
}

type Handle = OrchestratorStore<MemoryStore, Moving>;

fn two_handles() -> (Handle, Handle, Moving) {
    let clock = Moving::new();
    let store = MemoryStore::new();
    (
        OrchestratorStore::new(store.clone(), clock.clone()),
        OrchestratorStore::new(store, clock.clone()),
        clock,
    )
}

fn project() -> Project {
    Project::new("p", "/p", None)
}

fn claim(owner: &str) -> Claim {
    Claim {
        owner: owner.into(),
        lease_seconds: Some(60),
        process: ProcessInfo {
            pid: Some(4242),
            pid_start: Some(777),
            host: Some("box".into()),
            ..ProcessInfo::default()
        },
        ..Claim::default()
    }
}

fn conflict_owner<T: std::fmt::Debug>(result: session_state::Result<T>) -> String {
    let err = result.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
    err.context_value("owner").unwrap().to_owned()
}

#[test]
fn a_claimed_session_takes_writes_from_its_owner_only() {
    let (a, b, _) = two_handles();
    a.record_new(
        &NewSession {
            goal: "goal".into(),
            ..NewSession::default()
        },
        project(),
        Some("x"),
    )
    .unwrap();
    let outcome = a.claim(&claim("alice")).unwrap();
    let lease = outcome.lease.unwrap();
    assert_eq!((lease.owner.as_deref(), lease.epoch), (Some("alice"), 1));
    assert_eq!(lease.process.pid, Some(4242));
    assert_eq!(outcome.live.unwrap().goal.as_deref(), Some("goal"));
    let before = a.store().read(&current_key()).unwrap();
    // A handle naming no owner, or another owner: every kind of write is refused.
    assert_eq!(conflict_owner(b.start()), "alice");
    assert_eq!(conflict_owner(b.record_save()), "alice");
    assert_eq!(conflict_owner(b.modify(|_| Ok(()))), "alice");
    let mut doc = b.load().unwrap().unwrap();
    assert_eq!(conflict_owner(b.save(&mut doc)), "alice");
    assert_eq!(conflict_owner(b.complete()), "alice");
    b.set_writer(Some(Writer::owner("bob")));
    assert_eq!(
        conflict_owner(b.record_agent_start(&AgentStart {
            id: "a1".into(),
            agent_type: "t".into(),
            task: "x".into(),
        })),
        "alice"
    );
    assert_eq!(
        a.store().read(&current_key()).unwrap(),
        before,
        "nothing landed"
    );
    // The owner writes; another handle naming the owner (no epoch) too.
    a.start().unwrap();
    b.set_writer(Some(Writer::owner("alice")));
    b.record_save().unwrap();
}

#[test]
fn the_lease_lives_beside_the_session_and_renewing_leaves_it_alone() {
    let (a, _, clock) = two_handles();
    a.record_new(
        &NewSession {
            goal: "goal".into(),
            ..NewSession::default()
        },
        project(),
        Some("x"),
    )
    .unwrap();
    a.claim(&claim("alice")).unwrap();
    let session = a.store().read(&current_key()).unwrap();
    let stored: Value =
        serde_json::from_slice(&a.store().read(&owner_key()).unwrap().unwrap()).unwrap();
    assert_eq!(owner_key().as_str(), OWNER_KEY);
    assert_eq!(stored["owner"], "alice");
    assert_eq!(stored["epoch"], 1);
    assert_eq!(stored["expires"], "2026-01-01T00:01:00Z");
    assert_eq!(
        stored["process"],
        json!({"pid": 4242, "pid_start": 777, "host": "box"})
    );
    clock.advance(50);
    let renewed = a.renew("alice", Some(120)).unwrap();
    assert_eq!(
        renewed.expires.unwrap().to_rfc3339(),
        "2026-01-01T00:02:50Z"
    );
    assert_eq!(renewed.epoch, 1);
    assert_eq!(
        a.store().read(&current_key()).unwrap(),
        session,
        "`updated` untouched"
    );
    // Unknown fields of the lease are kept through a renewal.
    let mut with_extra = stored.clone();
    with_extra["x_future"] = json!({"kept": true});
    a.store()
        .write(&owner_key(), with_extra.to_string().as_bytes())
        .unwrap();
    a.renew("alice", None).unwrap();
    let stored: Value =
        serde_json::from_slice(&a.store().read(&owner_key()).unwrap().unwrap()).unwrap();
    assert_eq!(stored["x_future"], json!({"kept": true}));
}

#[test]
fn takeover_needs_expiry_plus_skew_and_fences_the_old_owner() {
    let (a, b, clock) = two_handles();
    a.record_new(
        &NewSession {
            goal: "goal".into(),
            ..NewSession::default()
        },
        project(),
        Some("x"),
    )
    .unwrap();
    a.claim(&claim("alice")).unwrap();
    let takeover = Claim {
        takeover: true,
        ..claim("bob")
    };
    assert_eq!(conflict_owner(b.claim(&takeover)), "alice");
    clock.advance(65);
    assert_eq!(
        conflict_owner(b.claim(&takeover)),
        "alice",
        "within the 5 s skew"
    );
    clock.advance(1);
    let err = b.claim(&claim("bob")).unwrap_err();
    assert_eq!(err.hint(), Some(Hint::Takeover));
    let lease = b.claim(&takeover).unwrap().lease.unwrap();
    assert_eq!(
        (lease.epoch, lease.took_over_from.as_deref()),
        (2, Some("alice"))
    );
    assert!(!lease.forced);
    // alice's handle still says alice at epoch 1: fenced.
    assert_eq!(conflict_owner(a.start()), "bob");
    assert_eq!(conflict_owner(a.renew("alice", None)), "bob");
    b.start().unwrap();
    // A forced claim of a live lease is recorded.
    let forced = a
        .claim(&Claim {
            force: true,
            ..claim("alice")
        })
        .unwrap()
        .lease
        .unwrap();
    assert_eq!((forced.epoch, forced.forced), (3, true));
    assert_eq!(conflict_owner(b.pause()), "alice");
    a.pause().unwrap();
}

#[test]
fn release_keeps_the_epoch_and_opens_the_session_to_everyone() {
    let (a, b, _) = two_handles();
    a.record_new(
        &NewSession {
            goal: "goal".into(),
            ..NewSession::default()
        },
        project(),
        Some("x"),
    )
    .unwrap();
    a.claim(&claim("alice")).unwrap();
    let err = b
        .release(&Release {
            owner: "bob".into(),
            ..Release::default()
        })
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict);
    let released = a
        .release(&Release {
            owner: "alice".into(),
            ..Release::default()
        })
        .unwrap()
        .lease
        .unwrap();
    assert_eq!((released.owner, released.epoch), (None, 1));
    assert_eq!(released.released_by.as_deref(), Some("alice"));
    b.start().unwrap();
    // A writer holding an epoch older than the released one was superseded before.
    b.set_writer(Some(Writer {
        owner: "carol".into(),
        epoch: Some(0),
    }));
    assert_eq!(b.pause().unwrap_err().kind(), ErrorKind::Conflict);
    b.set_writer(None);
    let next = b.claim(&claim("bob")).unwrap().lease.unwrap();
    assert_eq!(next.epoch, 2);
    let err = a.renew("alice", None).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict);
}

#[test]
fn heartbeat_renews_the_owners_lease_and_lists_live_sessions_with_staleness() {
    let (a, b, clock) = two_handles();
    a.record_new(
        &NewSession {
            goal: "goal".into(),
            ..NewSession::default()
        },
        project(),
        Some("x"),
    )
    .unwrap();
    a.claim(&claim("alice")).unwrap();
    clock.advance(40);
    let hb = a
        .heartbeat(&Heartbeat {
            owner: "alice".into(),
            ..Heartbeat::default()
        })
        .unwrap();
    assert!(hb.renewed);
    assert_eq!(
        hb.lease.unwrap().expires.unwrap().to_rfc3339(),
        "2026-01-01T00:01:40Z"
    );
    let other = b
        .heartbeat(&Heartbeat {
            owner: "bob".into(),
            ttl_seconds: Some(60),
            ..Heartbeat::default()
        })
        .unwrap();
    assert!(!other.renewed);
    assert_eq!(other.lease.unwrap().owner.as_deref(), Some("alice"));
    assert_eq!(other.live.session_id, "bob");
    clock.advance(61);
    let live = a.live_sessions().unwrap();
    let keys: Vec<&str> = live.iter().map(|l| l.key.as_str()).collect();
    assert_eq!(keys, [".claude/live/alice.json", ".claude/live/bob.json"]);
    assert!(!live[0].stale);
    assert_eq!(live[0].age_seconds, 101);
    assert!(live[1].stale);
    assert_eq!(
        live[1].reason.as_deref(),
        Some("no heartbeat for 61 s, more than its TTL of 60 s")
    );
    // An unreadable entry is listed as stale, not dropped.
    a.store()
        .write(&Key::new(format!("{LIVE_DIR}/torn.json")).unwrap(), b"{")
        .unwrap();
    let live = a.live_sessions().unwrap();
    assert_eq!(live.len(), 3);
    assert!(live[2].stale && live[2].entry.is_none());
    // Another owner cannot heartbeat alice's entry.
    let err = b
        .heartbeat(&Heartbeat {
            owner: "bob".into(),
            session_id: Some("alice".into()),
            ..Heartbeat::default()
        })
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict);
    assert!(
        a.store()
            .read(&live_key("alice").unwrap())
            .unwrap()
            .is_some()
    );
}

#[test]
fn scopes_are_claimed_and_released_without_touching_the_session() {
    let (a, b, _) = two_handles();
    let scoped = |owner: &str, scope: &str| Claim {
        scopes: vec![scope.into()],
        ..claim(owner)
    };
    let live = a.claim(&scoped("alice", "spec-1")).unwrap();
    assert!(live.lease.is_none());
    assert_eq!(live.live.unwrap().scopes, ["spec-1"]);
    assert!(a.lease().unwrap().is_none(), "the session is not claimed");
    let err = b.claim(&scoped("bob", "spec-1")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict);
    assert_eq!(err.context_value("session_id"), Some("alice"));
    assert_eq!(err.context_value("scope"), Some("spec-1"));
    b.claim(&scoped("bob", "spec-2")).unwrap();
    let released = a
        .release(&Release {
            owner: "alice".into(),
            scopes: vec!["spec-1".into()],
            ..Release::default()
        })
        .unwrap();
    assert!(released.live.unwrap().scopes.is_empty());
    let bob = b.claim(&scoped("bob", "spec-1")).unwrap().live.unwrap();
    assert_eq!(bob.scopes, ["spec-2", "spec-1"]);
    // A scope the caller does not hold (again, or held by another) is not_found, nothing
    // released: bob keeps both.
    for scopes in [vec!["spec-1"], vec!["spec-3", "spec-1"]] {
        let err = a
            .release(&Release {
                owner: "alice".into(),
                scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
                ..Release::default()
            })
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound, "{err}");
        assert_eq!(err.context_value("scope"), Some(scopes[0]), "{err}");
    }
    let err = b
        .release(&Release {
            owner: "bob".into(),
            scopes: vec!["spec-1".into(), "spec-9".into()],
            ..Release::default()
        })
        .unwrap_err();
    assert_eq!(err.context_value("scope"), Some("spec-9"), "{err}");
    let bob = b.claim(&scoped("bob", "spec-2")).unwrap().live.unwrap();
    assert_eq!(bob.scopes, ["spec-2", "spec-1"], "nothing released");
}

#[test]
fn bad_arguments_are_typed_errors() {
    let (a, _, clock) = two_handles();
    for owner in ["", "  ", "a\nb"] {
        let err = a.claim(&claim(owner)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{owner:?}");
    }
    let err = a
        .claim(&Claim {
            lease_seconds: Some(0),
            ..claim("alice")
        })
        .unwrap_err();
    assert_eq!(err.context_value("field"), Some("lease_seconds"));
    let err = a
        .claim(&Claim {
            session_id: Some("../x".into()),
            ..claim("alice")
        })
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidKey);
    assert!(a.lease().unwrap().is_none(), "nothing was claimed");
    let parsed: Result<Claim, _> = serde_json::from_value(json!({"owner": "a", "bogus": 1}));
    assert!(parsed.is_err(), "unknown argument fields are refused");
    let err = a.renew("nobody", None).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    // Forcing and taking over are for the session's lease; with scopes they are refused, not
    // quietly ignored.
    for (force, takeover, flag) in [(true, false, "force"), (false, true, "takeover")] {
        let err = a
            .claim(&Claim {
                scopes: vec!["spec-1".into()],
                force,
                takeover,
                ..claim("alice")
            })
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{err}");
        assert_eq!(err.context_value("field"), Some(flag), "{err}");
    }
    assert!(a.live_sessions().unwrap().is_empty(), "nothing claimed");
    // A ttl or lease length out of range is refused before the lease or the live entry changes.
    a.claim(&claim("alice")).unwrap();
    let before = a.lease().unwrap();
    let err = a
        .claim(&Claim {
            force: true,
            ttl_seconds: Some(0),
            ..claim("bob")
        })
        .unwrap_err();
    assert_eq!(err.context_value("field"), Some("ttl_seconds"), "{err}");
    assert_eq!(a.lease().unwrap(), before, "the lease did not change hands");
    let entries = |a: &Handle| -> Vec<_> {
        a.live_sessions()
            .unwrap()
            .into_iter()
            .map(|s| s.entry)
            .collect()
    };
    let live = entries(&a);
    clock.advance(10); // a refresh would move the heartbeat
    let err = a
        .heartbeat(&Heartbeat {
            owner: "alice".into(),
            session_id: None,
            lease_seconds: Some(0),
            ttl_seconds: None,
            process: ProcessInfo::default(),
        })
        .unwrap_err();
    assert_eq!(err.context_value("field"), Some("lease_seconds"), "{err}");
    assert_eq!(entries(&a), live, "the live entry was not refreshed");
}

/// Every `.corrupt-*` copy of the lease file.
fn lease_copies(handle: &Handle) -> usize {
    let store = handle.store();
    store
        .list(&Key::new(".claude").unwrap())
        .unwrap()
        .iter()
        .filter(|k| k.as_str().starts_with(&format!("{OWNER_KEY}.corrupt-")))
        .count()
}

/// The epoch a lease started again gets at the `Moving` clock's start: its time in ms.
const RESTART_EPOCH: u64 = 1_767_225_600_000;

#[test]
fn a_lease_that_does_not_read_is_corrupt_until_a_forced_claim_sets_it_aside() {
    for text in ["garbage", "[]", r#"{"owner": 5}"#] {
        let (a, _, _) = two_handles();
        a.store().write(&owner_key(), text.as_bytes()).unwrap();
        let err = a
            .claim(&Claim {
                takeover: true,
                ..claim("o2")
            })
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::CorruptState, "{text}: {err}");
        assert!(
            err.message().contains("a claim with force"),
            "{text}: {err}"
        );
        assert_eq!(lease_copies(&a), 0, "{text}");
        let lease = a
            .claim(&Claim {
                force: true,
                ..claim("o2")
            })
            .unwrap()
            .lease
            .unwrap();
        assert_eq!(lease.owner.as_deref(), Some("o2"), "{text}");
        assert_eq!(
            lease.epoch,
            RESTART_EPOCH + 1,
            "{text}: above any epoch counted before"
        );
        assert_eq!(lease_copies(&a), 1, "{text}: the old lease kept aside");
    }
}

/// An epoch at the largest `u64` starts again above any count instead of overflowing (a panic
/// in debug builds, a wrap to 0 in release ones), and the claim is recorded as any other.
#[test]
fn a_lease_at_the_largest_epoch_starts_again_above_any_count() {
    let max = u64::MAX;
    let (a, _, _) = two_handles();
    let held = format!(
        r#"{{"owner": "o1", "epoch": {max}, "expires": "2020-01-01T00:00:00Z", "lease_seconds": 300, "note": "x"}}"#
    );
    a.store().write(&owner_key(), held.as_bytes()).unwrap();
    let lease = a
        .claim(&Claim {
            takeover: true,
            ..claim("o2")
        })
        .unwrap()
        .lease
        .unwrap();
    assert_eq!(lease.epoch, RESTART_EPOCH);
    assert_eq!(lease.took_over_from.as_deref(), Some("o1"));
    assert_eq!(lease.extra.get("note"), Some(&json!("x")), "kept");
    assert_eq!(lease_copies(&a), 0, "a lease that reads is no corrupt file");
    let released = format!(r#"{{"owner": null, "epoch": {max}, "lease_seconds": 300}}"#);
    a.store().write(&owner_key(), released.as_bytes()).unwrap();
    assert_eq!(
        a.claim(&claim("o3")).unwrap().lease.unwrap().epoch,
        RESTART_EPOCH
    );
    assert!(a.doctor(false).unwrap().problems.is_empty());
}

#[test]
fn doctor_reports_a_lease_that_does_not_read_and_fix_moves_it_aside() {
    let (a, _, _) = two_handles();
    a.record_new(
        &NewSession {
            goal: "goal".into(),
            ..NewSession::default()
        },
        project(),
        Some("abc"),
    )
    .unwrap();
    a.claim(&claim("alice")).unwrap();
    let healthy = a.doctor(false).unwrap();
    assert!(healthy.problems.is_empty(), "{healthy:?}");
    assert_eq!(healthy.checked, 2, "the session and its lease");
    a.store().write(&owner_key(), b"garbage").unwrap();
    let found = a.doctor(false).unwrap();
    assert_eq!(found.problems.len(), 1, "{found:?}");
    assert_eq!(found.problems[0].key, OWNER_KEY);
    assert!(found.problems[0].fixable);
    let fixed = a.doctor(true).unwrap();
    assert!(fixed.problems.is_empty(), "{fixed:?}");
    assert_eq!(fixed.repaired[0].key, OWNER_KEY);
    assert_eq!(lease_copies(&a), 1);
    let released = a.lease().unwrap().unwrap();
    assert_eq!(released.owner, None, "owned by nobody");
    assert!(a.doctor(false).unwrap().problems.is_empty(), "fixed");
    // alice's handle still writes as epoch 1: the next owner's epoch is above it, so alice is
    // fenced out even when the next owner is alice again.
    let lease = a.claim(&claim("alice")).unwrap().lease.unwrap();
    assert_eq!(lease.epoch, RESTART_EPOCH + 1);
    let stale = OrchestratorStore::new(a.store().clone(), Moving::new()).with_writer(Writer {
        owner: "alice".into(),
        epoch: Some(1),
    });
    let err = stale
        .record_decision(&session_state::orchestrator::DecisionInput {
            decision: "d".into(),
            why: None,
        })
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
}
