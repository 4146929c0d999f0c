//! The core conformance suite on `RedisStore`, on the CI server.

mod common;

use session_state::Key;
use session_state::conformance;

fn run(scratch: &str) {
    let Some(url) = common::url("conformance") else {
        return;
    };
    let store = common::store(&url, "conformance");
    for _ in 0..2 {
        let report = conformance::run_all(&store, &Key::new(scratch).unwrap());
        assert!(report.all_passed(), "{report}");
        assert_eq!(report.passed, conformance::CASES.len());
    }
}

#[test]
fn redis_store_passes_every_case() {
    run("conformance");
}

#[test]
fn redis_store_passes_below_a_deep_unicode_scratch_folder() {
    run(".claude/한국어/scratch");
}
