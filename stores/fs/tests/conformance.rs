//! The core conformance suite on `FsStore`, with both durabilities and at depth.

use session_state::Key;
use session_state::conformance;
use session_state_fs::{Durability, FsStore};

fn run(durability: Durability, scratch: &str) {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path())
        .unwrap()
        .with_durability(durability);
    let report = conformance::run_all(&store, &Key::new(scratch).unwrap());
    assert!(report.all_passed(), "{report}");
    assert_eq!(report.passed, conformance::CASES.len());
    // A rerun over what the first run left (empty folders, lock files) passes too.
    let again = conformance::run_all(&store, &Key::new(scratch).unwrap());
    assert!(again.all_passed(), "{again}");
}

#[test]
fn fs_store_passes_every_case() {
    run(Durability::Atomic, "conformance");
}

#[test]
fn fs_store_with_sync_durability_passes_every_case() {
    run(Durability::Sync, "conformance");
}

#[test]
fn fs_store_passes_below_a_deep_unicode_scratch_folder() {
    run(Durability::Atomic, ".claude/한국어/scratch");
}
