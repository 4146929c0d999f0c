//! A project whose `.claude`, `.moai` or `.moai/memory` is a symlink (a dotfiles setup) works
//! for every command, through the real binary; a link planted below them that leads out is
//! still refused.
#![cfg(unix)]

use std::os::unix::fs::symlink;

mod common;
use common::{ok, repo, run};

fn example_session() -> Vec<u8> {
    let example = repo().join("examples/project/.claude/orchestrator-session.json");
    std::fs::read(example).unwrap()
}

#[test]
fn a_linked_claude_folder_works_for_every_orchestrator_command() {
    let project = tempfile::tempdir().unwrap();
    let dotfiles = tempfile::tempdir().unwrap();
    std::fs::write(
        dotfiles.path().join("orchestrator-session.json"),
        example_session(),
    )
    .unwrap();
    symlink(dotfiles.path(), project.path().join(".claude")).unwrap();
    let root = project.path();

    assert!(ok(root, &["resume"]).contains("RESUMING SESSION"));
    assert!(ok(root, &["show"]).contains("session:"));
    ok(root, &["pause"]);
    ok(root, &["continue"]);
    ok(root, &["complete"]);
    assert!(ok(root, &["history"]).contains("complete"));
    assert!(ok(root, &["doctor"]).starts_with("ok:"));
    // The archive is in the linked folder, and the link is still a link.
    assert!(
        std::fs::read_dir(dotfiles.path().join("orchestrator-history"))
            .unwrap()
            .next()
            .is_some()
    );
    assert!(
        std::fs::symlink_metadata(root.join(".claude"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn linked_moai_and_memory_folders_work_for_the_registry() {
    for linked in [".moai", ".moai/memory"] {
        let project = tempfile::tempdir().unwrap();
        let dotfiles = tempfile::tempdir().unwrap();
        if linked == ".moai/memory" {
            std::fs::create_dir(project.path().join(".moai")).unwrap();
        }
        symlink(dotfiles.path(), project.path().join(linked)).unwrap();
        let root = project.path();
        ok(root, &["register", "planner", "p-1", "--chain", "c"]);
        assert!(ok(root, &["agents"]).contains("p-1"));
        assert!(ok(root, &["doctor"]).starts_with("ok:"));
        let sessions = if linked == ".moai" {
            dotfiles.path().join("memory/agent-sessions.json")
        } else {
            dotfiles.path().join("agent-sessions.json")
        };
        assert!(
            std::fs::read_to_string(&sessions).unwrap().contains("p-1"),
            "{linked}"
        );
    }
}

#[test]
fn a_link_planted_below_a_linked_folder_that_leads_out_is_refused() {
    let project = tempfile::tempdir().unwrap();
    let dotfiles = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::write(
        dotfiles.path().join("orchestrator-session.json"),
        example_session(),
    )
    .unwrap();
    symlink(dotfiles.path(), project.path().join(".claude")).unwrap();
    symlink(
        elsewhere.path(),
        dotfiles.path().join("orchestrator-history"),
    )
    .unwrap();
    let out = run(project.path(), &["complete"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("leads outside the store root"), "{stderr}");
    assert!(
        std::fs::read_dir(elsewhere.path())
            .unwrap()
            .next()
            .is_none()
    );
}
