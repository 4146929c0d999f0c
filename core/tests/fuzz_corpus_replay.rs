//! Replays the committed fuzz corpus on stable, without the fuzzer: every file of
//! `fuzz/corpus/<target>/` and `fuzz/artifacts/<target>/` (crashers kept as regression
//! inputs) goes through the same checks the fuzz targets run (`fuzz/checks.rs`). A panic is a
//! failure naming the file.

#[path = "../../fuzz/checks.rs"]
mod checks;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

fn inputs(folder: &str, target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz")
        .join(folder)
        .join(target);
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
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    for target in checks::TARGETS {
        let mut files = inputs("corpus", target);
        let corpus = files.len();
        files.extend(inputs("artifacts", target));
        assert!(corpus > 0, "no corpus for `{target}`");
        for path in &files {
            let data = std::fs::read(path).unwrap();
            if catch_unwind(AssertUnwindSafe(|| checks::run(target, &data))).is_err() {
                failures.push(path.display().to_string());
            }
        }
        counts.push(format!("{target} {}", files.len()));
    }
    println!("fuzz corpus replay: {}", counts.join(", "));
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
