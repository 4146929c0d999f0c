//! Compatibility check between session-state's `team` module and `agent-teams` 0.1.0.
//!
//! `cargo run -- generate`: writes goldens with the real crate (its `SessionState::from_config`
//! and its own save path `util::atomic_write::atomic_write_json`) into
//! `tests/vectors/teams/crate-written/`.
//! `cargo run -- check`: the crate parses every file of `tests/vectors/teams/ours/` (written by
//! session-state's core tests) and `read/` with the same field values as session-state, re-writes
//! them to the same bytes (keys the crate does not know aside), and rejects every file of `bad/`
//! as session-state does. `cargo run` does both. Exits 1 on any mismatch.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use agent_teams::util::atomic_write::atomic_write_json;
use agent_teams::{BackendType, CliDelegation, MemoryConfig, SessionState, SpawnConfig};
use chrono::{DateTime, Utc};
use session_state::team as ours;

fn vectors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors/teams")
}

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

/// The goldens: (file stem, state). Maps hold at most one entry so the crate's `HashMap`
/// order cannot make the bytes vary between runs.
fn golden_cases() -> Vec<(&'static str, SessionState)> {
    let mut cases = Vec::new();

    let minimal = SpawnConfig::new("reviewer", "You review code.");
    let mut state = SessionState::from_config(&minimal, &BackendType::GeminiCli);
    state.created_at = at("2026-03-01T12:34:56Z");
    cases.push(("minimal", state));

    let full = SpawnConfig::builder(
        "coder",
        "You write Rust code.\n\"Quote\" and \\ and \u{e9}\u{1F980}.",
    )
    .model("gpt-5-codex")
    .cwd("/home/u/proj")
    .max_turns(10)
    .allowed_tools(vec!["Bash".into(), "Read".into()])
    .permission_mode("bypassPermissions")
    .reasoning_effort("high")
    .env_var("RUST_LOG", "debug")
    .memory(MemoryConfig::default())
    .delegate(CliDelegation::codex())
    .build();
    let mut state = SessionState::from_config(&full, &BackendType::Codex);
    state.metadata.insert("thread_id".into(), "abc-123".into());
    state.created_at = at("2026-03-01T12:34:56.789012345Z");
    cases.push(("full", state));

    for (stem, stamp) in [
        ("millis", "2026-03-01T12:34:56.789Z"),
        ("micros", "2026-03-01T12:34:56.789012Z"),
        ("from-offset", "2026-03-01T14:34:56.5+02:00"),
    ] {
        let config = SpawnConfig::builder("lead", "You lead.")
            .max_turns(-1)
            .memory(MemoryConfig {
                max_turns: 0,
                budget_chars: 18_446_744_073_709_551_615,
            })
            .build();
        let mut state = SessionState::from_config(&config, &BackendType::ClaudeCode);
        state.created_at = at(stamp);
        cases.push((stem, state));
    }

    let mut unknown = SessionState::from_config(
        &SpawnConfig::builder("cursor-agent", "")
            .permission_mode("plan")
            .build(),
        &BackendType::Codex,
    );
    unknown.backend_type = "cursor".into();
    unknown.created_at = at("1999-12-31T23:59:59Z");
    cases.push(("unknown-backend", unknown));
    cases
}

fn generate() -> Result<(), String> {
    let dir = vectors().join("crate-written");
    for (stem, state) in golden_cases() {
        let path = dir.join(format!("{stem}.json"));
        atomic_write_json(&path, &state).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    println!(
        "generate: wrote {} goldens to {}",
        golden_cases().len(),
        dir.display()
    );
    Ok(())
}

fn sorted(map: impl IntoIterator<Item = (String, String)>) -> BTreeMap<String, String> {
    map.into_iter().collect()
}

/// Every field of the crate's parse equals session-state's parse.
fn same_fields(mine: &ours::SessionState, theirs: &SessionState) -> Result<(), String> {
    let mut diffs = Vec::new();
    let mut check = |field: &str, a: String, b: String| {
        if a != b {
            diffs.push(format!("{field}: ours {a} / crate {b}"));
        }
    };
    check("name", mine.name.clone(), theirs.name.clone());
    check(
        "backendType",
        mine.backend_type.clone(),
        theirs.backend_type.clone(),
    );
    check("prompt", mine.prompt.clone(), theirs.prompt.clone());
    check(
        "model",
        format!("{:?}", mine.model),
        format!("{:?}", theirs.model),
    );
    check(
        "cwd",
        format!("{:?}", mine.cwd),
        format!(
            "{:?}",
            theirs
                .cwd
                .as_ref()
                .map(|p| p.to_string_lossy().into_owned())
        ),
    );
    check(
        "maxTurns",
        format!("{:?}", mine.max_turns),
        format!("{:?}", theirs.max_turns),
    );
    check(
        "allowedTools",
        format!("{:?}", mine.allowed_tools),
        format!("{:?}", theirs.allowed_tools),
    );
    check(
        "permissionMode",
        format!("{:?}", mine.permission_mode),
        format!("{:?}", theirs.permission_mode),
    );
    check(
        "reasoningEffort",
        format!("{:?}", mine.reasoning_effort),
        format!("{:?}", theirs.reasoning_effort),
    );
    check(
        "env",
        format!("{:?}", sorted(mine.env.clone())),
        format!("{:?}", sorted(theirs.env.clone())),
    );
    check(
        "memoryConfig",
        format!(
            "{:?}",
            mine.memory_config
                .as_ref()
                .map(|m| (m.max_turns, m.budget_chars))
        ),
        format!(
            "{:?}",
            theirs
                .memory_config
                .as_ref()
                .map(|m| (m.max_turns as u64, m.budget_chars as u64))
        ),
    );
    check(
        "metadata",
        format!("{:?}", sorted(mine.metadata.clone())),
        format!("{:?}", sorted(theirs.metadata.clone())),
    );
    check(
        "createdAt",
        mine.created_at.to_string(),
        theirs.created_at.to_string(),
    );
    check(
        "parse_backend_type",
        format!(
            "{:?}",
            mine.parse_backend_type().ok().map(|b| b.to_string())
        ),
        format!("{:?}", theirs.parse_backend_type().map(|b| b.to_string())),
    );
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs.join("; "))
    }
}

/// The crate re-writes `bytes` identically, apart from keys it does not know and map order.
fn same_bytes(
    bytes: &[u8],
    mine: &ours::SessionState,
    theirs: &SessionState,
) -> Result<(), String> {
    let rewritten = serde_json::to_vec_pretty(theirs).map_err(|e| e.to_string())?;
    let simple = mine.extra.is_empty()
        && mine
            .memory_config
            .as_ref()
            .is_none_or(|m| m.extra.is_empty())
        && mine.env.len() <= 1
        && mine.metadata.len() <= 1;
    if simple {
        return if rewritten == bytes {
            Ok(())
        } else {
            Err(format!(
                "crate re-writes:\n{}",
                String::from_utf8_lossy(&rewritten)
            ))
        };
    }
    let mut expected = mine.clone();
    expected.extra.clear();
    if let Some(m) = expected.memory_config.as_mut() {
        m.extra.clear();
    }
    let a: serde_json::Value =
        serde_json::from_slice(&expected.to_json().map_err(|e| e.to_string())?).unwrap();
    let b: serde_json::Value = serde_json::from_slice(&rewritten).unwrap();
    if a == b {
        Ok(())
    } else {
        Err(format!("crate re-writes different values: {b}"))
    }
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
}

fn check() -> Result<(), String> {
    let mut failures = Vec::new();
    let mut count = 0;
    for folder in ["ours", "read", "crate-written", "fixtures"] {
        let files = json_files(&vectors().join(folder));
        if folder == "ours" && files.is_empty() {
            failures.push(
                "no files in ours/: run `cargo test -p session-state --test team_vectors`".into(),
            );
        }
        for path in files {
            count += 1;
            let bytes = std::fs::read(&path).unwrap();
            let name = format!("{folder}/{}", path.file_name().unwrap().to_string_lossy());
            let mine = match ours::SessionState::from_json(&bytes) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{name}: session-state rejects it: {e}"));
                    continue;
                }
            };
            let theirs = match serde_json::from_slice::<SessionState>(&bytes) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{name}: agent-teams rejects it: {e}"));
                    continue;
                }
            };
            if let Err(e) = same_fields(&mine, &theirs) {
                failures.push(format!("{name}: {e}"));
            }
            if folder != "read"
                && let Err(e) = same_bytes(&bytes, &mine, &theirs)
            {
                failures.push(format!("{name}: {e}"));
            }
            // Their re-spawn config equals ours (delegations are not persisted either way).
            let (a, b) = (mine.to_spawn_config(), theirs.to_spawn_config());
            if a.name != b.name
                || a.prompt != b.prompt
                || a.max_turns != b.max_turns
                || !b.delegations.is_empty()
            {
                failures.push(format!("{name}: to_spawn_config differs"));
            }
        }
    }
    for path in json_files(&vectors().join("bad")) {
        count += 1;
        let bytes = std::fs::read(&path).unwrap();
        let name = format!("bad/{}", path.file_name().unwrap().to_string_lossy());
        let mine = ours::SessionState::from_json(&bytes).is_ok();
        let theirs = serde_json::from_slice::<SessionState>(&bytes).is_ok();
        if mine || theirs {
            failures.push(format!(
                "{name}: accepted (session-state {mine}, agent-teams {theirs})"
            ));
        }
    }
    // Names: the crate's validate_name and ours agree.
    let long = "x".repeat(256);
    for name in [
        "ok",
        "..",
        ".",
        "",
        "a/b",
        "a\\b",
        "a\0b",
        long.as_str(),
        &long[..255],
        "a\tb",
        "..a",
    ] {
        let mine = ours::validate_name("agent name", name).is_ok();
        let theirs = agent_teams::util::validate_name(name).is_ok();
        if mine != theirs {
            failures.push(format!(
                "name {name:?}: session-state {mine}, agent-teams {theirs}"
            ));
        }
    }
    // BackendType strings agree.
    for text in ["claude-code", "codex", "gemini-cli", "Codex", "cursor", ""] {
        let mine = text
            .parse::<ours::BackendType>()
            .ok()
            .map(|b| b.to_string());
        let theirs = text.parse::<BackendType>().ok().map(|b| b.to_string());
        if mine != theirs {
            failures.push(format!(
                "backend {text:?}: session-state {mine:?}, agent-teams {theirs:?}"
            ));
        }
    }
    if failures.is_empty() {
        println!("check: {count} files agree");
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

fn main() -> ExitCode {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "all".into());
    let result = match mode.as_str() {
        "generate" => generate(),
        "check" => check(),
        "all" => generate().and_then(|()| check()),
        other => Err(format!("unknown mode `{other}` (generate, check, all)")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("compat-agent-teams: {e}");
            ExitCode::FAILURE
        }
    }
}
