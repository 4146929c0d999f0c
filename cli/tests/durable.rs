//! Saved means saved: by default every write of the CLI is fsynced (file and folder), and
//! `SESSION_STATE_DURABLE=0` turns that off. The fsyncs are counted by a small shared library
//! preloaded into the real binary (built here with the C compiler that links Rust programs),
//! which wraps `fsync` and `fdatasync`.
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const COUNTER: &str = r#"
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static int syncs;

int fsync(int fd) {
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    __atomic_add_fetch(&syncs, 1, __ATOMIC_SEQ_CST);
    return real(fd);
}

int fdatasync(int fd) {
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    __atomic_add_fetch(&syncs, 1, __ATOMIC_SEQ_CST);
    return real(fd);
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("SYNC_COUNT_FILE");
    FILE *out = path ? fopen(path, "w") : NULL;
    if (out) {
        fprintf(out, "%d", syncs);
        fclose(out);
    }
}
"#;

/// Builds the counting library in `dir` and returns its path.
fn counter_library(dir: &Path) -> PathBuf {
    let source = dir.join("count_syncs.c");
    let library = dir.join("count_syncs.so");
    std::fs::write(&source, COUNTER).unwrap();
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_owned());
    let status = Command::new(&compiler)
        .args(["-shared", "-fPIC", "-o"])
        .arg(&library)
        .arg(&source)
        .arg("-ldl")
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{compiler}`: {e}"));
    assert!(status.success(), "building the fsync counter failed");
    library
}

/// Runs the binary with the counter preloaded; returns its output and the fsyncs it made.
fn run_counting(
    library: &Path,
    root: &Path,
    durable: Option<&str>,
    args: &[&str],
) -> (Output, u64) {
    let count_file = root.with_extension("syncs");
    let mut command = Command::new(env!("CARGO_BIN_EXE_session-state"));
    command
        .args(args)
        .arg("--root")
        .arg(root)
        .env("LD_PRELOAD", library)
        .env("SYNC_COUNT_FILE", &count_file)
        .env_remove("SESSION_STATE_DURABLE");
    if let Some(value) = durable {
        command.env("SESSION_STATE_DURABLE", value);
    }
    let out = command.output().unwrap();
    let syncs = std::fs::read_to_string(&count_file)
        .expect("the counter reported nothing: was it preloaded?")
        .parse()
        .unwrap();
    (out, syncs)
}

#[test]
fn every_write_is_fsynced_by_default_and_the_opt_out_turns_it_off() {
    let dir = tempfile::tempdir().unwrap();
    let library = counter_library(dir.path());
    let root = dir.path().join("project");
    std::fs::create_dir(&root).unwrap();

    let (out, syncs) = run_counting(&library, &root, None, &["register", "a", "a-1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The file before its rename and its folder after it, at least.
    assert!(syncs >= 2, "the default register made {syncs} fsyncs");

    for off in ["0", "false"] {
        let (out, syncs) = run_counting(&library, &root, Some(off), &["register", "b", "b-1"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(syncs, 0, "SESSION_STATE_DURABLE={off} still fsynced");
    }
    let (out, syncs) = run_counting(&library, &root, Some("1"), &["register", "c", "c-1"]);
    assert!(out.status.success());
    assert!(syncs >= 2, "SESSION_STATE_DURABLE=1 made {syncs} fsyncs");
    // A read fsyncs nothing.
    let (out, syncs) = run_counting(&library, &root, None, &["agents"]);
    assert!(out.status.success());
    assert_eq!(syncs, 0);
}

#[test]
fn a_value_of_session_state_durable_that_is_not_a_boolean_is_invalid_input() {
    let root = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_session-state"))
        .args(["register", "a", "a-1", "--root"])
        .arg(root.path())
        .env("SESSION_STATE_DURABLE", "maybe")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("error[invalid_input]"), "{stderr}");
    assert!(
        stderr.contains("SESSION_STATE_DURABLE is `maybe`"),
        "{stderr}"
    );
    assert!(std::fs::read_dir(root.path()).unwrap().next().is_none());
}
