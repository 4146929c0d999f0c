//! Files this library writes load in the seed's oracle (run at test time; skipped cleanly when
//! `../shared/reference` or `python3` is absent).

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};
use session_state::FixedClock;
use session_state::registry::AgentRegistry;
use session_state_fs::FsStore;

fn oracle_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference");
    dir.join("moai_session_manager.py").is_file().then_some(dir)
}

const SCRIPT: &str = r#"
import json, sys, logging
from pathlib import Path
logging.disable(logging.CRITICAL)
sys.path.insert(0, sys.argv[1])
from moai_session_manager import SessionManager
root = Path(sys.argv[2])
m = SessionManager(session_file=root / ".moai/memory/agent-sessions.json",
                   transcript_dir=root / ".moai/logs/agent-transcripts")
out = {
    "all": m.get_all_sessions(),
    "resume_a": m.get_resume_id("a", "c"),
    "resume_b": m.get_resume_id("b"),
    "should": m.should_resume("a", "Implement user login", "Implement user registration"),
    "metadata": m._metadata,
}
out = json.loads(json.dumps(out))  # the seed returns its own dicts: copy before changing them
m.register_agent_result("z", "z1", {"ok": True}, "c")
print(json.dumps(out, ensure_ascii=False))
"#;

#[test]
fn files_we_write_load_in_the_oracle() {
    let Some(reference) = oracle_dir() else {
        eprintln!("skipped: ../shared/reference is absent");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let reg = AgentRegistry::new(
        FsStore::new(dir.path()).unwrap(),
        FixedClock::at("2026-11-29T17:56:00Z").unwrap(),
    );
    reg.create_chain("c", &["a".to_owned(), "b".to_owned()], None)
        .unwrap();
    reg.register("a", "a1", json!({"é": [1, 2.5, null]}), Some("c"))
        .unwrap();
    reg.register("b", "b1", json!("done"), None).unwrap();
    reg.increment_resume_count("a1").unwrap();
    let output = match Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(&reference)
        .arg(dir.path())
        .output()
    {
        Ok(output) => output,
        Err(e) => {
            eprintln!("skipped: python3 not runnable: {e}");
            return;
        }
    };
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let got: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(got["all"]["sessions"], json!({"a": "a1", "b": "b1"}));
    assert_eq!(got["all"]["chains"], json!(["c"]));
    assert_eq!(got["resume_a"], "a1");
    assert_eq!(got["resume_b"], "b1");
    assert_eq!(got["should"], true);
    assert_eq!(got["metadata"]["a1"]["resume_count"], 1);
    assert_eq!(got["metadata"]["a1"]["created_at"], "2026-11-29T17:56:00");
    // The oracle's own save drops our `results` (it keeps them in memory only): we still load
    // what it wrote, and the new registration is there.
    let doc = reg.load().unwrap();
    assert_eq!(doc.sessions["z"], "z1");
    assert_eq!(doc.chains["c"], ["a1", "z1"]);
    assert!(doc.results.is_empty());
}
