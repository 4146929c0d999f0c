//! Shared vectors: the fixtures load and round-trip, and the goldens of
//! `tests/vectors/orchestrator` match what the code produces (`UPDATE_VECTORS=1` rewrites them).

mod orchestrator_common;

use orchestrator_common::{GOLDEN_NOW, clock, copy_dir, golden, vector, vectors};
use serde_json::Value;
use session_state::orchestrator::{
    HistoryQuery, OrchestratorStore, ParseOptions, json_schema, parse_document, render_resume,
    resume_summary, salvage,
};
use session_state::{Key, Store};
use session_state_fs::FsStore;

fn key() -> Key {
    Key::new(".claude/orchestrator-session.json").unwrap()
}

#[test]
fn seed_example_round_trips_byte_for_byte() {
    let bytes = vector("seed-example.json");
    let doc = parse_document(&key(), &bytes, &ParseOptions::default()).unwrap();
    let written = doc.to_pretty_json();
    assert_eq!(
        String::from_utf8(written).unwrap().trim_end(),
        String::from_utf8(bytes).unwrap().trim_end()
    );
}

#[test]
fn project_fixture_files_all_parse_and_keep_every_field() {
    let root = vectors().join("project/.claude");
    let mut files = vec![root.join("orchestrator-session.json")];
    for entry in std::fs::read_dir(root.join("orchestrator-history")).unwrap() {
        files.push(entry.unwrap().path());
    }
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let doc = parse_document(&key(), &bytes, &ParseOptions::default()).unwrap();
        let original: Value = serde_json::from_slice(&bytes).unwrap();
        let written: Value = serde_json::from_slice(&doc.to_pretty_json()).unwrap();
        // Same fields everywhere; only timestamps are normalised to RFC 3339 UTC.
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&original), keys(&written), "{}", path.display());
        for field in [
            "agents",
            "completed_work",
            "pending_tasks",
            "context_usage",
            "project",
        ] {
            assert_eq!(
                original[field],
                written[field],
                "{field} of {}",
                path.display()
            );
        }
    }
}

#[test]
fn resume_summary_golden_of_the_seed_example() {
    let doc = parse_document(
        &key(),
        &vector("seed-example.json"),
        &ParseOptions::default(),
    )
    .unwrap();
    let summary = resume_summary(&doc, clock(GOLDEN_NOW).0);
    assert_eq!(summary.started_relative.as_deref(), Some("2 hours ago"));
    assert_eq!(
        summary.progress_percent, 80,
        "mean of 100 (complete) and 60"
    );
    assert_eq!(summary.resume_from.as_deref(), Some("code-1"));
    golden("seed-example.resume.md", &render_resume(&summary));
    golden(
        "seed-example.resume.json",
        &(serde_json::to_string_pretty(&summary).unwrap() + "\n"),
    );
    let md = render_resume(&summary);
    for line in [
        "## 🔄 RESUMING SESSION",
        "**Session ID**: 2025-12-27-abc123",
        "**Started**: 2 hours ago",
        "- ✅ Architecture design (3 methods proposed)",
        "- 🔄 code-1: Implement primary method (60%)",
        "1. Complete code-1 implementation",
        "- Tokens used: ~25,000 (20%)",
        "- Last compression: Never",
        "**Resuming from code-1...**",
    ] {
        assert!(
            md.lines().any(|l| l == line),
            "missing line {line:?} in\n{md}"
        );
    }
}

#[test]
fn history_order_golden_of_the_fixture_project() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&vectors().join("project"), dir.path());
    let sessions = OrchestratorStore::new(FsStore::new(dir.path()).unwrap(), clock(GOLDEN_NOW));
    let page = sessions.list_history(&HistoryQuery::default()).unwrap();
    let ids: Vec<&str> = page.entries.iter().map(|e| e.id.as_str()).collect();
    // 24th 07:15Z (from +01:00) > 22nd 16:45 (naive, UTC) > 20th.
    assert_eq!(
        ids,
        [
            "2025-12-24-ff0913",
            "2025-12-22-0be7c2",
            "2025-12-20-aa11f0"
        ]
    );
    assert!(page.skipped.is_empty());
    golden(
        "project.history.json",
        &(serde_json::to_string_pretty(&page.entries).unwrap() + "\n"),
    );
}

#[test]
fn salvage_golden_of_a_torn_copy() {
    let torn = vector("seed-example.torn.json");
    let full = vector("seed-example.json");
    assert!(
        full.starts_with(&torn) && torn.len() < full.len(),
        "torn copy is a prefix"
    );
    let err = parse_document(&key(), &torn, &ParseOptions::default()).unwrap_err();
    assert_eq!(err.code(), "corrupt_state");
    let salvaged = salvage(&torn);
    let text = serde_json::to_vec(&salvaged.document).unwrap();
    parse_document(&key(), &text, &ParseOptions::default()).unwrap();
    golden(
        "seed-example.torn.salvaged.json",
        &(serde_json::to_string_pretty(&salvaged).unwrap() + "\n"),
    );
}

#[test]
fn committed_schema_matches_the_code() {
    let schema = serde_json::to_string_pretty(&json_schema()).unwrap() + "\n";
    golden("schema.json", &schema);
    // The seed example satisfies the obvious parts of the schema.
    let schema = json_schema();
    let required = schema["required"].as_array().unwrap();
    for field in ["schema_version", "session_id", "created", "goal", "status"] {
        assert!(required.iter().any(|r| r == field), "{field} required");
    }
    // The seed never reads these.
    for field in ["updated", "project", "mode"] {
        assert!(!required.iter().any(|r| r == field), "{field} optional");
    }
}

#[test]
fn store_reads_the_vectors_through_the_fs_store() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&vectors().join("project"), dir.path());
    let store = FsStore::new(dir.path()).unwrap();
    assert!(store.read(&key()).unwrap().is_some());
    let sessions = OrchestratorStore::new(store, clock(GOLDEN_NOW));
    let doc = sessions.load().unwrap().unwrap();
    assert!(
        doc.updated.unwrap().is_naive(),
        "the fixture's updated is naive local time"
    );
}
