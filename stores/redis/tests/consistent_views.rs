//! An update whose closure reads other keys sees one moment of the server: 4 threads x 10
//! `record_new` with `archive_current` (each archives the current session, which another
//! thread may just have replaced) all succeed, none refused over an archive another thread
//! made between two reads, and every session ends archived or current.

mod common;

use session_state::orchestrator::{HistoryQuery, NewSession, OrchestratorStore, Project};
use session_state_fs::SystemClock;
use session_state_redis::RedisStore;

#[test]
fn new_sessions_archiving_the_current_one_from_four_threads_all_succeed() {
    let Some(url) = common::url("new_sessions_archiving") else {
        return;
    };
    let url = common::with_prefix(&url, &common::unique_prefix("new-sessions"));
    std::thread::scope(|scope| {
        for t in 0..4 {
            let url = &url;
            scope.spawn(move || {
                let sessions = OrchestratorStore::new(RedisStore::open(url).unwrap(), SystemClock);
                for i in 0..10 {
                    let input = NewSession {
                        goal: format!("goal {t}-{i}"),
                        archive_current: true,
                        ..NewSession::default()
                    };
                    let suffix = format!("t{t}x{i}");
                    let project = Project::new("p", "/p", None);
                    if let Err(e) = sessions.record_new(&input, project, Some(&suffix)) {
                        panic!("record_new {t}-{i}: {e}");
                    }
                }
            });
        }
    });
    let sessions = OrchestratorStore::new(RedisStore::open(&url).unwrap(), SystemClock);
    let query = HistoryQuery {
        limit: 100,
        ..HistoryQuery::default()
    };
    let archived = sessions.list_history(&query).unwrap().total;
    assert!(sessions.load().unwrap().is_some());
    assert_eq!(archived, 39, "every session but the current one archived");
}
