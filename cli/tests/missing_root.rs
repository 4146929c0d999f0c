//! One rule for a `--root` that does not exist: every command that uses the project folder,
//! reads and writes alike, fails with `not_found` (exit 1) naming it and creates nothing.

use std::path::Path;
use std::process::Output;

mod common;
use common::{bin, stderr};

/// Every command that uses the project folder, with the arguments it needs.
const PROJECT_COMMANDS: &[&[&str]] = &[
    &["resume"],
    &["resume", "--json"],
    &["show"],
    &["history"],
    &["archive"],
    &["start"],
    &["pause"],
    &["continue"],
    &["complete"],
    &["abort"],
    &["doctor"],
    &["doctor", "--fix", "--json"],
    &["register", "a", "id1"],
    &["register", "a", "id1", "--chain", "c", "--result", "1"],
    &["agents"],
    &["chains", "--json"],
    &["chain", "c"],
    &["should-resume", "a", "--task", "t"],
];

fn run(root: &Path, args: &[&str], home: &Path) -> Output {
    bin()
        .arg("--root")
        .arg(root)
        .args(args)
        .env("HOME", home)
        .output()
        .unwrap()
}

#[test]
fn every_project_command_refuses_a_missing_root_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("mistyped/project");
    for args in PROJECT_COMMANDS {
        let out = run(&root, args, dir.path());
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let expected = format!(
            "error[not_found]: project folder `{}` does not exist\n",
            root.display()
        );
        assert_eq!(stderr(&out), expected, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?} printed an answer");
        assert!(
            !dir.path().join("mistyped").exists(),
            "{args:?} created the missing root"
        );
    }
}

#[test]
fn a_root_that_is_a_file_is_refused_the_same_way() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    for args in PROJECT_COMMANDS {
        let out = run(&file, args, dir.path());
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).ends_with("` is not a folder\n"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert_eq!(std::fs::read(&file).unwrap(), b"x");
    }
}

#[test]
fn an_existing_root_still_works_and_schema_needs_no_root() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &["register", "a", "id1"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.path().join(".moai/memory").is_dir());
    let out = run(dir.path(), &["agents", "--json"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"id1\""));

    let missing = dir.path().join("nope");
    let out = run(&missing, &["schema"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!missing.exists());
}
