//! `session-state doctor` also checks and repairs the registry's files under `--root`.

use std::path::Path;

use serde_json::Value;

mod common;
use common::{run, stdout};

fn copies(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root.join(".moai/memory"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".corrupt-"))
        .collect();
    names.sort();
    names
}

#[test]
fn doctor_sees_a_corrupt_registry_and_fix_gets_it_working_again() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let memory = root.join(".moai/memory");
    std::fs::create_dir_all(&memory).unwrap();
    std::fs::write(memory.join("agent-sessions.json"), "garbage\n").unwrap();
    std::fs::write(memory.join("workflow-chains.json"), "garbage\n").unwrap();
    std::fs::write(memory.join("agent-sessions.journal.jsonl"), "garbage").unwrap();

    let out = run(root, &["doctor"]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let text = stdout(&out);
    for file in [
        "agent-sessions.json",
        "workflow-chains.json",
        "agent-sessions.journal.jsonl",
    ] {
        assert!(
            text.contains(&format!(".moai/memory/{file}: error[corrupt_state]: ")),
            "{text}"
        );
    }
    assert!(!text.contains("ok:"), "{text}");

    let out = run(root, &["doctor", "--fix", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["registry"]["repaired"].as_array().unwrap().len(), 3);
    assert_eq!(copies(root).len(), 3, "{:?}", copies(root));

    let out = run(root, &["doctor"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "ok: 3 file(s) checked\n");
    assert!(run(root, &["register", "a", "b"]).status.success());
}

/// A torn `agent-sessions.json` (cut at 300 bytes, complete `sessions` and `chains` inside): `doctor --fix` keeps the copy and writes back what is complete,
/// instead of an empty registry.
#[test]
fn fix_salvages_the_complete_entries_of_a_torn_sessions_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..5 {
        let (name, id) = (format!("agent-{i}"), format!("id-{i}"));
        let out = run(
            root,
            &[
                "register",
                &name,
                &id,
                "--chain",
                "C",
                "--result",
                "{\"ok\": 1}",
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let file = root.join(".moai/memory/agent-sessions.json");
    let whole = std::fs::read(&file).unwrap();
    let text = String::from_utf8(whole.clone()).unwrap();
    // Cut inside the metadata of `id-3`.
    let cut = text.find("\"id-3\": {").unwrap() + 20;
    std::fs::write(&file, &whole[..cut]).unwrap();

    let out = run(root, &["doctor", "--fix"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("salvaged 5 sessions, 1 chains, 3 metadata entries, 0 results"),
        "{}",
        stdout(&out)
    );
    assert_eq!(copies(root).len(), 1);
    let agents: Value = serde_json::from_slice(&run(root, &["agents", "--json"]).stdout).unwrap();
    let names: Vec<&str> = agents
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["agent_name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["agent-0", "agent-1", "agent-2", "agent-3", "agent-4"]
    );
    let doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(doc["chains"]["C"].as_array().unwrap().len(), 5);
    assert_eq!(doc["metadata"].as_object().unwrap().len(), 3);
    // The chain still has its members, without results: `chain` shows it, as `chains` does.
    let out = run(root, &["chain", "C"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Read-only commands, and moves that find no session, write nothing on an empty project: no
/// `.claude/` or `.moai/` folder, no index, no lock file.
#[test]
fn read_only_commands_on_an_empty_project_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for args in [
        &["history"][..],
        &["resume"],
        &["show"],
        &["agents"],
        &["chains"],
        &["doctor"],
        &["history", "--json"],
        &["pause"],
        &["complete"],
    ] {
        let out = run(root, args);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {out:?}"
        );
        // (`pause`/`complete` fail with not_found: nothing to move.)
        let left: Vec<_> = std::fs::read_dir(root)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert!(left.is_empty(), "{args:?} wrote {left:?}");
    }
}
