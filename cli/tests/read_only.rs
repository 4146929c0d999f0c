//! The reads of a project the user may only read (`.claude/` and its history folder mode 555,
//! files 444) work through the real binary and create nothing there: `resume`, `show`,
//! `history` (whose index cannot be made: it is built in memory) and `doctor`.
//!
//! Permissions are not enforced for root: run as root, the binary runs as `nobody`
//! (`setpriv`); without `setpriv` the test says so and checks nothing.
#![cfg(target_os = "linux")]

use std::os::unix::fs::{PermissionsExt, chown};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{copy_dir, repo};

const NOBODY: u32 = 65534;

fn is_root() -> bool {
    // The owner of a file this process just made is its effective user.
    let probe = tempfile::NamedTempFile::new().unwrap();
    std::os::unix::fs::MetadataExt::uid(&probe.as_file().metadata().unwrap()) == 0
}

fn setpriv() -> Option<PathBuf> {
    ["/usr/bin/setpriv", "/bin/setpriv"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

fn run_as_user(root: &Path, args: &[&str], setpriv: Option<&Path>) -> Output {
    let binary = env!("CARGO_BIN_EXE_session-state");
    let mut command = match setpriv {
        Some(setpriv) => {
            let mut c = Command::new(setpriv);
            c.args([
                format!("--reuid={NOBODY}"),
                format!("--regid={NOBODY}"),
                "--clear-groups".to_owned(),
                binary.to_owned(),
            ]);
            c
        }
        None => Command::new(binary),
    };
    command.args(args).arg("--root").arg(root).output().unwrap()
}

fn tree(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            out.push(path.strip_prefix(root).unwrap().display().to_string());
            if path.is_dir() {
                pending.push(path);
            }
        }
    }
    out.sort();
    out
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn reads_of_a_read_only_project_work_and_create_nothing() {
    let setpriv = if is_root() {
        let Some(setpriv) = setpriv() else {
            eprintln!("skipped: run as root and `setpriv` is missing (root ignores permissions)");
            return;
        };
        Some(setpriv)
    } else {
        None
    };
    // Below a folder `nobody` can enter (a temporary folder is 0700).
    let dir = tempfile::tempdir().unwrap();
    set_mode(dir.path(), 0o755);
    let root = dir.path().join("project");
    let claude = root.join(".claude");
    let history = claude.join("orchestrator-history");
    copy_dir(&repo().join("examples/project/.claude"), &claude);
    for path in tree(&root).iter().map(|p| root.join(p)) {
        set_mode(&path, if path.is_dir() { 0o555 } else { 0o444 });
    }
    set_mode(&claude, 0o555);
    set_mode(&root, 0o555);
    if setpriv.is_some() {
        for path in [root.clone()]
            .into_iter()
            .chain(tree(&root).iter().map(|p| root.join(p)))
        {
            chown(&path, Some(NOBODY), Some(NOBODY)).unwrap();
        }
    }
    let before = tree(&root);
    let archived = std::fs::read_dir(&history).unwrap().count();
    assert!(archived > 0);

    for args in [
        &["resume"][..],
        &["show"],
        &["history"],
        &["history", "--json"],
        &["doctor"],
    ] {
        let out = run_as_user(&root, args, setpriv.as_deref());
        assert!(
            out.status.success(),
            "{args:?} failed on a read-only project: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "{args:?} printed nothing");
    }
    let out = run_as_user(&root, &["history", "--json"], setpriv.as_deref());
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let entries = listed
        .as_array()
        .or_else(|| listed["entries"].as_array())
        .unwrap();
    assert_eq!(entries.len(), archived.min(10));
    // A write is refused with `storage`, and changes nothing either.
    let out = run_as_user(&root, &["pause"], setpriv.as_deref());
    assert_eq!(
        out.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(tree(&root), before, "a read changed the read-only project");

    for path in tree(&root)
        .iter()
        .map(|p| root.join(p))
        .chain([root.clone()])
    {
        if path.is_dir() {
            set_mode(&path, 0o755);
        }
    }
}
