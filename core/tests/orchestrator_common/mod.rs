//! Helpers shared by the orchestrator integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use session_state::orchestrator::OrchestratorStore;
use session_state::{FixedClock, MemoryStore};

/// `tests/vectors/orchestrator` of the repository.
pub fn vectors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/orchestrator")
}

/// The bytes of a vector file.
pub fn vector(name: &str) -> Vec<u8> {
    std::fs::read(vectors().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Compares `actual` with the golden `name`, or rewrites it when `UPDATE_VECTORS=1`.
pub fn golden(name: &str, actual: &str) {
    let path = vectors().join(name);
    if std::env::var_os("UPDATE_VECTORS").is_some_and(|v| v == "1") {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{name}: {e} (run with UPDATE_VECTORS=1 to create it)"));
    assert_eq!(
        actual, expected,
        "golden `{name}` drifted (UPDATE_VECTORS=1 rewrites it)"
    );
}

/// The fixed instant of the goldens.
pub const GOLDEN_NOW: &str = "2025-12-27T12:30:00Z";

pub fn clock(at: &str) -> FixedClock {
    FixedClock::at(at).unwrap()
}

/// A store over a fresh memory store at `GOLDEN_NOW`.
pub fn memory() -> OrchestratorStore<MemoryStore, FixedClock> {
    OrchestratorStore::new(MemoryStore::new(), clock(GOLDEN_NOW))
}

/// Every file below `root` (relative paths, sorted), to check nothing is written elsewhere.
pub fn tree(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                out.push(format!("{rel}/"));
                walk(&path, root, out);
            } else {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

/// Copies the folder `from` into `to` (recursively).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}
