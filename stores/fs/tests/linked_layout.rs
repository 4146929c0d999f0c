//! `FsStore` on a dotfiles setup: the layout's own folders (`.claude`, `.moai`, `.moai/memory`,
//! `teams`) are symlinks to folders elsewhere. Those links are followed; a link planted below
//! them that leads out is still refused.
#![cfg(unix)]

mod common;

use std::os::unix::fs::symlink;
use std::path::Path;

use common::{assert_storage, k};
use session_state::Store;
use session_state_fs::FsStore;

/// Every operation on `key` works and lands in `target` (the file `name` there).
fn every_operation_works(store: &FsStore, key: &str, target: &Path, name: &str) {
    let key = k(key);
    store.write(&key, b"1").unwrap();
    assert_eq!(std::fs::read(target.join(name)).unwrap(), b"1");
    store
        .update(&key, &mut |old| {
            assert_eq!(old, Some(&b"1"[..]));
            Ok(Some(b"2".to_vec()))
        })
        .unwrap();
    store.append(&key, b"3").unwrap();
    assert_eq!(store.read(&key).unwrap().as_deref(), Some(&b"23"[..]));
    assert_eq!(std::fs::read(target.join(name)).unwrap(), b"23");
    let folder = k(key.as_str().rsplit_once('/').unwrap().0);
    assert_eq!(store.list(&folder).unwrap(), vec![key.clone()]);
    assert!(store.delete(&key).unwrap());
    assert!(!target.join(name).exists());
}

#[test]
fn a_linked_claude_folder_is_followed() {
    let root = tempfile::tempdir().unwrap();
    let dotfiles = tempfile::tempdir().unwrap();
    symlink(dotfiles.path(), root.path().join(".claude")).unwrap();
    let store = FsStore::new(root.path()).unwrap();
    every_operation_works(
        &store,
        ".claude/orchestrator-session.json",
        dotfiles.path(),
        "orchestrator-session.json",
    );
    // Folders below the link are made in its target.
    every_operation_works(
        &store,
        ".claude/orchestrator-history/s-1.json",
        &dotfiles.path().join("orchestrator-history"),
        "s-1.json",
    );
}

#[test]
fn linked_moai_and_memory_folders_are_followed() {
    let root = tempfile::tempdir().unwrap();
    let moai = tempfile::tempdir().unwrap();
    symlink(moai.path(), root.path().join(".moai")).unwrap();
    let store = FsStore::new(root.path()).unwrap();
    every_operation_works(
        &store,
        ".moai/memory/agent-sessions.json",
        &moai.path().join("memory"),
        "agent-sessions.json",
    );

    // `.moai` a plain folder, `.moai/memory` the link.
    let root = tempfile::tempdir().unwrap();
    let memory = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.path().join(".moai")).unwrap();
    symlink(memory.path(), root.path().join(".moai/memory")).unwrap();
    let store = FsStore::new(root.path()).unwrap();
    every_operation_works(
        &store,
        ".moai/memory/agent-sessions.json",
        memory.path(),
        "agent-sessions.json",
    );
}

#[test]
fn a_linked_teams_folder_is_followed() {
    let root = tempfile::tempdir().unwrap();
    let teams = tempfile::tempdir().unwrap();
    symlink(teams.path(), root.path().join("teams")).unwrap();
    let store = FsStore::new(root.path()).unwrap();
    every_operation_works(
        &store,
        "teams/t/sessions/a.json",
        &teams.path().join("t/sessions"),
        "a.json",
    );
}

#[test]
fn a_link_planted_below_a_linked_layout_folder_that_leads_out_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dotfiles = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    symlink(dotfiles.path(), root.path().join(".claude")).unwrap();
    symlink(
        elsewhere.path(),
        dotfiles.path().join("orchestrator-history"),
    )
    .unwrap();
    let secret = elsewhere.path().join("secret.json");
    std::fs::write(&secret, b"top secret").unwrap();
    symlink(&secret, dotfiles.path().join("orchestrator-session.json")).unwrap();
    let store = FsStore::new(root.path()).unwrap();

    let archived = k(".claude/orchestrator-history/x.json");
    assert_storage(&store.write(&archived, b"leak").unwrap_err(), "x.json");
    assert_storage(&store.append(&archived, b"leak").unwrap_err(), "x.json");
    assert_storage(
        &store.list(&k(".claude/orchestrator-history")).unwrap_err(),
        "orchestrator-history",
    );
    let current = k(".claude/orchestrator-session.json");
    let err = store.write(&current, b"leak").unwrap_err();
    assert_storage(&err, "orchestrator-session.json");
    assert!(err.message().contains("outside"), "{err}");
    assert_storage(
        &store.read(&current).unwrap_err(),
        "orchestrator-session.json",
    );
    assert_eq!(std::fs::read(&secret).unwrap(), b"top secret");
    assert!(!elsewhere.path().join("x.json").exists());

    // A link below the linked folder that stays inside its target is fine.
    std::fs::write(dotfiles.path().join("real.json"), b"{}").unwrap();
    symlink(
        dotfiles.path().join("real.json"),
        dotfiles.path().join("alias.json"),
    )
    .unwrap();
    assert_eq!(
        store.read(&k(".claude/alias.json")).unwrap().as_deref(),
        Some(&b"{}"[..])
    );
}

#[test]
fn only_the_layout_folders_are_followed() {
    let root = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    // Not layout folders: `notes`, `.claude/teams` (teams sit at the root of a team store),
    // `.moai/logs`.
    symlink(outside.path(), root.path().join("notes")).unwrap();
    std::fs::create_dir_all(root.path().join(".claude")).unwrap();
    symlink(outside.path(), root.path().join(".claude/teams")).unwrap();
    std::fs::create_dir_all(root.path().join(".moai")).unwrap();
    symlink(outside.path(), root.path().join(".moai/logs")).unwrap();
    let store = FsStore::new(root.path()).unwrap();
    for key in ["notes/a", ".claude/teams/a", ".moai/logs/a"] {
        let err = store.write(&k(key), b"leak").unwrap_err();
        assert_storage(&err, key);
        assert!(err.message().contains("outside the store root"), "{err}");
    }
    assert!(std::fs::read_dir(outside.path()).unwrap().next().is_none());
}

#[test]
fn a_dangling_linked_layout_folder_is_a_storage_error() {
    let root = tempfile::tempdir().unwrap();
    symlink("/nonexistent/dotfiles/claude", root.path().join(".claude")).unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let err = store
        .write(&k(".claude/orchestrator-session.json"), b"{}")
        .unwrap_err();
    assert_storage(&err, "orchestrator-session.json");
    assert!(err.message().contains("cannot be followed"), "{err}");
}
