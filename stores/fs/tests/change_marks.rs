//! `FsStore::mark`: vouched for only once settled, changed by any change made since, by this
//! store or by hand; and the history listing that relies on it (head read alone while the
//! marks hold, archives added or removed by hand noticed, no lock file per archive).

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use session_state::orchestrator::{
    HistoryQuery, OrchestratorSession, OrchestratorStore, Project, SessionStatus, history_dir,
};
use session_state::{FixedClock, Key, Leftover, Result, Store, Timestamp, UpdateFn};
use session_state_fs::FsStore;

const SETTLE: Duration = Duration::from_millis(100);

fn k(s: &str) -> Key {
    Key::new(s).unwrap()
}

/// Waits past the settle time, so what changed before gets a mark.
fn settle() {
    std::thread::sleep(SETTLE * 3);
}

#[test]
fn a_mark_is_given_once_settled_and_changes_with_any_change() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path()).unwrap().with_mark_settle(SETTLE);
    let (folder, a, b) = (k("f"), k("f/a"), k("f/b"));
    assert_eq!(store.mark(&folder).unwrap().as_deref(), Some("absent"));
    store.write(&a, b"1").unwrap();
    // Just changed: the file system's timestamps cannot tell a change made in the same tick.
    assert_eq!(store.mark(&folder).unwrap(), None);
    assert_eq!(store.mark(&a).unwrap(), None);
    settle();
    let folder_1 = store.mark(&folder).unwrap().expect("settled");
    let a_1 = store.mark(&a).unwrap().expect("settled");
    assert_eq!(store.mark(&folder).unwrap().as_ref(), Some(&folder_1));
    assert_eq!(store.mark(&a).unwrap().as_ref(), Some(&a_1));

    store.write(&b, b"2").unwrap();
    settle();
    let folder_2 = store.mark(&folder).unwrap().unwrap();
    assert_ne!(folder_2, folder_1, "a key added");
    assert_eq!(store.mark(&a).unwrap().as_ref(), Some(&a_1), "a unchanged");

    std::fs::remove_file(store.path(&b)).unwrap();
    settle();
    let folder_3 = store.mark(&folder).unwrap().unwrap();
    assert_ne!(folder_3, folder_2, "a key removed by hand");

    std::fs::write(store.path(&k("f/c")), b"by hand").unwrap();
    settle();
    assert_ne!(
        store.mark(&folder).unwrap().unwrap(),
        folder_3,
        "added by hand"
    );

    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(store.path(&a))
        .unwrap();
    file.write_all(b"more").unwrap();
    drop(file);
    settle();
    assert_ne!(store.mark(&a).unwrap().unwrap(), a_1, "appended to by hand");
}

/// `FsStore` counting its `list` calls: a listing answered from the head lists nothing.
struct Counted {
    inner: FsStore,
    lists: AtomicUsize,
}

impl Store for Counted {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        self.inner.read(key)
    }
    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.inner.write(key, data)
    }
    fn delete(&self, key: &Key) -> Result<bool> {
        self.inner.delete(key)
    }
    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        self.lists.fetch_add(1, Ordering::SeqCst);
        self.inner.list(prefix)
    }
    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        self.inner.update(key, apply)
    }
    fn append(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.inner.append(key, data)
    }
    fn leftovers(&self, prefix: &Key) -> Result<Vec<Leftover>> {
        self.inner.leftovers(prefix)
    }
    fn mark(&self, key: &Key) -> Result<Option<String>> {
        self.inner.mark(key)
    }
}

fn session(id: &str, minute: u32) -> OrchestratorSession {
    let created = Timestamp::parse(&format!("2025-12-27T10:{minute:02}:00Z")).unwrap();
    let project = Project::new("p", "/p", None);
    let mut doc = OrchestratorSession::new(id, format!("goal {id}"), "default", project, created);
    doc.status = SessionStatus::Complete;
    doc
}

#[test]
fn the_listing_reads_the_head_alone_while_the_marks_hold_and_sees_changes_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let store = Counted {
        inner: FsStore::new(dir.path()).unwrap().with_mark_settle(SETTLE),
        lists: AtomicUsize::new(0),
    };
    let s = OrchestratorStore::new(store, FixedClock::at("2025-12-28T00:00:00Z").unwrap());
    for i in 0..5 {
        s.archive(&session(&format!("s{i}"), i), false).unwrap();
    }
    let q = HistoryQuery::default();
    let lists = || s.store().lists.load(Ordering::SeqCst);
    let ids = |page: &session_state::orchestrator::HistoryPage| -> Vec<String> {
        page.entries.iter().map(|e| e.id.clone()).collect()
    };
    // Builds the index; then, once settled, the head; then the head alone answers.
    s.list_history(&q).unwrap();
    settle();
    s.list_history(&q).unwrap();
    let before = lists();
    let page = s.list_history(&q).unwrap();
    assert_eq!(lists(), before, "answered from the head");
    assert_eq!(ids(&page), ["s4", "s3", "s2", "s1", "s0"]);
    assert_eq!(page, s.list_history_full_scan(&q).unwrap());

    // Added by hand: noticed at once (the folder's mark changed).
    let folder = s.store().inner.path(&history_dir());
    let mut doc = session("hand", 30);
    doc.status = SessionStatus::Aborted;
    std::fs::write(folder.join("hand.json"), doc.to_pretty_json()).unwrap();
    let page = s.list_history(&q).unwrap();
    assert_eq!(ids(&page)[0], "hand");
    // Removed by hand, after the head is back in use.
    settle();
    s.list_history(&q).unwrap();
    settle();
    s.list_history(&q).unwrap();
    let before = lists();
    assert_eq!(s.list_history(&q).unwrap().total, 6);
    assert_eq!(lists(), before, "answered from the head");
    std::fs::remove_file(folder.join("s4.json")).unwrap();
    let page = s.list_history(&q).unwrap();
    assert_eq!(ids(&page), ["hand", "s3", "s2", "s1", "s0"]);

    // Archived through the store: one journal line, folded in by the next listing.
    settle();
    s.list_history(&q).unwrap();
    settle();
    s.list_history(&q).unwrap();
    s.archive(&session("late", 40), false).unwrap();
    let journal = dir
        .path()
        .join(".claude/orchestrator-history.index.journal");
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap().lines().count(),
        1
    );
    let page = s.list_history(&q).unwrap();
    assert_eq!(ids(&page), ["late", "hand", "s3", "s2", "s1", "s0"]);
    assert!(!journal.exists(), "folded into the index");
    let status = HistoryQuery {
        status: Some(SessionStatus::Aborted),
        ..q
    };
    assert_eq!(ids(&s.list_history(&status).unwrap()), ["hand"]);
    assert_eq!(s.list_history(&status).unwrap().total, 1);

    // The archives and listings leave no lock or queue file per archive: none in the history
    // folder, and in `.claude` the one pair of the current file, under which archives are
    // written (the index journal's went with the journal when the listing folded it).
    let locks = |folder: &std::path::Path| {
        let mut names: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.contains(".lock"))
            .collect();
        names.sort();
        names
    };
    assert_eq!(locks(&folder), Vec::<String>::new());
    assert_eq!(
        locks(&dir.path().join(".claude")),
        [
            ".orchestrator-session.json.lock",
            ".orchestrator-session.json.lock-queue",
        ]
    );
}
