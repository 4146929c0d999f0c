//! The shell blocks an agent copies from the docs run as written, line by line, in a fresh
//! project: the README's "From an agent" block and the "While working" block of
//! integrations/claude-code/SKILL.md.

use std::path::Path;
use std::process::Command;

/// The lines of the first ```sh block after the line `heading`.
fn sh_block(doc: &str, heading: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(doc)).unwrap();
    let after = text.split_once(&format!("\n{heading}\n")).unwrap().1;
    let block = after.split_once("```sh\n").unwrap().1;
    let block = block.split_once("```").unwrap().0;
    block.lines().map(str::to_owned).collect()
}

/// Runs each line with `sh -c` in `root`, `session-state` on the `PATH`; each must exit 0.
fn run_lines(root: &Path, lines: &[String]) {
    let bin = Path::new(env!("CARGO_BIN_EXE_session-state"))
        .parent()
        .unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    for line in lines {
        let out = Command::new("sh")
            .arg("-c")
            .arg(line)
            .current_dir(root)
            .env("PATH", &path)
            .env_remove("SESSION_STATE_MAX_BYTES")
            .output()
            .unwrap();
        assert!(out.status.success(), "`{line}`: {out:?}");
    }
}

#[test]
fn the_readme_block_runs_as_written() {
    let dir = tempfile::tempdir().unwrap();
    run_lines(dir.path(), &sh_block("../README.md", "## From an agent"));
}

#[test]
fn the_skill_block_runs_as_written_after_new() {
    let dir = tempfile::tempdir().unwrap();
    let new = "session-state new --goal \"Add sensitivity analysis\"".to_owned();
    run_lines(dir.path(), &[new]);
    run_lines(
        dir.path(),
        &sh_block(
            "../integrations/claude-code/SKILL.md",
            "## While working (each is an auto-save point)",
        ),
    );
}
