//! Ownership under real contention on the CI server: 8 threads, each with its own
//! `RedisStore` connection, claim one session at the same instant, round after round: exactly
//! one wins each time (the lease is read inside the session's update, so its WATCH makes the
//! second writer retry and see the first's lease).

mod common;

use std::sync::{Arc, Barrier};

use session_state::ownership::{Claim, claim_lease};
use session_state::{ErrorKind, Key, Timestamp};
use session_state_redis::RedisStore;

const THREADS: usize = 8;
const ROUNDS: usize = 10;

#[test]
fn eight_connections_claiming_at_once_have_exactly_one_winner() {
    let Some(url) = common::url("ownership_race") else {
        return;
    };
    let url = common::with_prefix(&url, &common::unique_prefix("ownership_race"));
    let now = Timestamp::parse("2026-01-01T00:00:00Z").unwrap();
    for round in 0..ROUNDS {
        let session = Key::new(format!(".claude/round-{round}.json")).unwrap();
        let barrier = Arc::new(Barrier::new(THREADS));
        let handles: Vec<_> = (0..THREADS)
            .map(|i| {
                let barrier = Arc::clone(&barrier);
                let store = RedisStore::open(&url).unwrap();
                let session = session.clone();
                std::thread::spawn(move || {
                    barrier.wait();
                    claim_lease(&store, &session, &Claim::owner(format!("owner-{i}")), now)
                })
            })
            .collect();
        let outcomes: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let winners: Vec<String> = outcomes
            .iter()
            .filter_map(|o| o.as_ref().ok().and_then(|l| l.owner.clone()))
            .collect();
        assert_eq!(winners.len(), 1, "round {round}: winners {winners:?}");
        for outcome in outcomes.iter().filter_map(|o| o.as_ref().err()) {
            assert_eq!(outcome.kind(), ErrorKind::Conflict, "{outcome}");
            assert_eq!(outcome.context_value("owner"), Some(winners[0].as_str()));
        }
    }
}
