//! Ownership under real contention: 8 threads, each with its own `FsStore` handle on one
//! folder, claim one session at the same instant (then take over its expired lease at once),
//! round after round: exactly one wins each time, the others get a conflict naming it.

use std::sync::{Arc, Barrier};

use session_state::ownership::{Claim, claim_lease, owner_key_for, read_lease};
use session_state::{ErrorKind, Key, Timestamp};
use session_state_fs::{Durability, FsStore};

const THREADS: usize = 8;
const ROUNDS: usize = 20;

fn at(seconds: i64) -> Timestamp {
    let base = Timestamp::parse("2026-01-01T00:00:00Z").unwrap();
    Timestamp::from_utc(base.utc() + chrono::Duration::seconds(seconds))
}

/// Every thread claims `session` at `now` (with `takeover`); returns the winners' owner ids
/// and, for each refused thread, the owner its conflict named.
fn race(
    root: &std::path::Path,
    session: &Key,
    now: Timestamp,
    takeover: bool,
) -> (Vec<String>, Vec<String>) {
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|i| {
            let barrier = Arc::clone(&barrier);
            let store = FsStore::new(root)
                .unwrap()
                .with_durability(Durability::Atomic);
            let session = session.clone();
            std::thread::spawn(move || {
                let claim = Claim {
                    owner: format!("owner-{i}-{takeover}"),
                    lease_seconds: Some(10),
                    takeover,
                    ..Claim::default()
                };
                barrier.wait();
                claim_lease(&store, &session, &claim, now)
            })
        })
        .collect();
    let mut winners = Vec::new();
    let mut named = Vec::new();
    for handle in handles {
        match handle.join().unwrap() {
            Ok(lease) => winners.push(lease.owner.unwrap()),
            Err(e) => {
                assert_eq!(e.kind(), ErrorKind::Conflict, "{e}");
                named.push(e.context_value("owner").unwrap().to_owned());
            }
        }
    }
    (winners, named)
}

#[test]
fn eight_handles_claiming_at_once_have_exactly_one_winner() {
    let dir = tempfile::tempdir().unwrap();
    for round in 0..ROUNDS {
        let session = Key::new(format!(".claude/round-{round}.json")).unwrap();
        let (winners, named) = race(dir.path(), &session, at(0), false);
        assert_eq!(winners.len(), 1, "round {round}: winners {winners:?}");
        assert!(named.iter().all(|n| *n == winners[0]), "{named:?}");
        // After the lease expired (10 s + 5 s skew), eight takeovers at once: one wins.
        let (taken, named) = race(dir.path(), &session, at(16), true);
        assert_eq!(taken.len(), 1, "round {round}: takeovers {taken:?}");
        assert!(named.iter().all(|n| *n == taken[0]), "{named:?}");
        let store = FsStore::new(dir.path()).unwrap();
        let lease = read_lease(&store, &owner_key_for(&session).unwrap())
            .unwrap()
            .unwrap();
        assert_eq!((lease.owner.as_ref(), lease.epoch), (Some(&taken[0]), 2));
        assert_eq!(lease.took_over_from.as_ref(), Some(&winners[0]));
    }
}
