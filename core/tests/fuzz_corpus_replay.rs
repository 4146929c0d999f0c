//! Replays the committed fuzz corpus on stable, without the fuzzer: every file of the shared
//! `fuzz/corpus/` goes through every target's checks (`fuzz/checks.rs`, what the fuzz targets
//! run), and every file of `fuzz/artifacts/<target>/` (crashers kept as regression inputs)
//! through its target's. A panic is a failure naming the file and the target.

#[path = "../../fuzz/checks.rs"]
mod checks;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

fn inputs(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz")
        .join(folder);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

#[test]
fn every_corpus_and_artifact_input_passes_its_target_checks() {
    let corpus = inputs("corpus");
    assert!(!corpus.is_empty(), "no fuzz corpus");
    let mut failures = Vec::new();
    let mut artifacts = 0;
    for target in checks::TARGETS {
        let mut files = corpus.clone();
        let own = inputs(&format!("artifacts/{target}"));
        artifacts += own.len();
        files.extend(own);
        for path in &files {
            let data = std::fs::read(path).unwrap();
            if catch_unwind(AssertUnwindSafe(|| checks::run(target, &data))).is_err() {
                failures.push(format!("{target}: {}", path.display()));
            }
        }
    }
    println!(
        "fuzz corpus replay: {} inputs through {} targets, {artifacts} artifacts",
        corpus.len(),
        checks::TARGETS.len()
    );
    assert!(
        failures.is_empty(),
        "inputs that fail their checks:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_checks_can_fail() {
    // A target that does not exist, and a check that sees a non-object salvage, must panic.
    assert!(catch_unwind(|| checks::run("no_such_target", b"{}")).is_err());
}
