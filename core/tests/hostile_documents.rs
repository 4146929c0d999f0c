//! Hostile input (RELIABILITY.md, harness 3): every case of `tests/vectors/hostile/cases.json` is
//! placed, byte for byte, in a filesystem store's root inside a temporary folder and loaded
//! through the load API of its target. Each must give its expected error code (or load, for a
//! control), without a panic or a stack overflow, change nothing (inside or outside the root),
//! and, when a later save replaces or refuses the file, the original bytes must still be in
//! the root (in place or in a `.corrupt-` copy) while nothing outside the root changes.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use session_state::orchestrator::{OrchestratorSession, OrchestratorStore, history_key};
use session_state::registry::{AgentRegistry, transcript_key};
use session_state::team::{SessionState, TeamStore};
use session_state::{FixedClock, Result};
use session_state_fs::FsStore;

fn hostile_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/hostile")
}

fn clock() -> FixedClock {
    FixedClock::at("2026-11-29T18:00:00Z").unwrap()
}

/// Where a target's document lives, and its base document.
fn target_file(target: &str) -> (&'static str, PathBuf) {
    let v = hostile_dir();
    match target {
        "orchestrator" => (
            ".claude/orchestrator-session.json",
            v.join("../orchestrator/seed-example.json"),
        ),
        "registry" => (
            ".moai/memory/agent-sessions.json",
            v.join("files/base-agent-sessions.json"),
        ),
        "chains" => (
            ".moai/memory/workflow-chains.json",
            v.join("files/base-workflow-chains.json"),
        ),
        "team" => (
            "teams/t/sessions/a.json",
            v.join("../teams/fixtures/coder.json"),
        ),
        other => panic!("unknown target `{other}`"),
    }
}

/// Sets `pointer` in `doc` to `value`, adding the last member when it is missing.
fn set(doc: &mut Value, pointer: &str, value: Value) {
    let (parent, last) = pointer.rsplit_once('/').unwrap();
    match doc
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no `{parent}`"))
    {
        Value::Object(map) => {
            map.insert(last.to_owned(), value);
        }
        Value::Array(items) => items[last.parse::<usize>().unwrap()] = value,
        _ => panic!("`{parent}` is not a container"),
    }
}

/// The bytes of a case's input (see `inputs` in cases.json).
fn input_bytes(target: &str, input: &Value) -> Vec<u8> {
    if let Some(text) = input.get("text") {
        return text.as_str().unwrap().as_bytes().to_vec();
    }
    if let Some(file) = input.get("file") {
        return std::fs::read(hostile_dir().join(file.as_str().unwrap())).unwrap();
    }
    if let Some(g) = input.get("generate") {
        let s = |k: &str| g[k].as_str().unwrap();
        let times = usize::try_from(g["times"].as_u64().unwrap()).unwrap();
        let mut out =
            String::with_capacity(s("prefix").len() + (s("unit").len() + s("close").len()) * times);
        out.push_str(s("prefix"));
        out.push_str(&s("unit").repeat(times));
        out.push_str(s("middle"));
        out.push_str(&s("close").repeat(times));
        out.push_str(s("suffix"));
        return out.into_bytes();
    }
    let base = input["base"].as_str().expect("an input kind");
    assert_eq!(base, target);
    let mut doc: Value =
        serde_json::from_slice(&std::fs::read(target_file(target).1).unwrap()).unwrap();
    for (pointer, value) in input
        .get("set")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        set(&mut doc, pointer, value.clone());
    }
    for pointer in input
        .get("remove")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (parent, last) = pointer.as_str().unwrap().rsplit_once('/').unwrap();
        doc.pointer_mut(parent)
            .unwrap()
            .as_object_mut()
            .unwrap()
            .shift_remove(last);
    }
    let raw: Vec<(String, String)> = input
        .get("set_raw")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, (pointer, text))| {
            let mark = format!("@@raw-{i}@@");
            set(&mut doc, pointer, json!(mark));
            (format!("\"{mark}\""), text.as_str().unwrap().to_owned())
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&doc).unwrap();
    for (mark, replacement) in raw {
        assert!(text.contains(&mark));
        text = text.replace(&mark, &replacement);
    }
    let mut bytes = text.into_bytes();
    if let Some(cut) = input.get("cut").and_then(Value::as_f64) {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        bytes.truncate((bytes.len() as f64 * cut) as usize);
    }
    bytes
}

/// Every entry under `dir`: files with their bytes, links with their target, folders as `/`.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            let rel = p.strip_prefix(dir).unwrap().to_path_buf();
            let t = e.file_type().unwrap();
            if t.is_symlink() {
                let target = std::fs::read_link(&p).unwrap();
                out.insert(rel, format!("-> {}", target.display()).into_bytes());
            } else if t.is_dir() {
                out.insert(rel, b"/".to_vec());
                stack.push(p);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// The folder of one case: `root/` (the store) and `outside/` (must never change).
struct Setup {
    _dir: tempfile::TempDir,
    top: PathBuf,
    root: PathBuf,
    store: FsStore,
}

fn place(target: &str, input: &Value) -> (Setup, Option<Vec<u8>>) {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().to_path_buf();
    let root = top.join("root");
    let outside = top.join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), b"outside the root").unwrap();
    let mut original = None;
    if target != "id" {
        let (key, base) = target_file(target);
        let path = root.join(key);
        match input.get("symlink").and_then(Value::as_str) {
            Some("file") => {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::copy(&base, outside.join("doc.json")).unwrap();
                std::os::unix::fs::symlink(outside.join("doc.json"), &path).unwrap();
            }
            Some("folder") => {
                let (first, rest) = key.split_once('/').unwrap();
                let linked = outside.join("linked");
                let inner = linked.join(rest);
                std::fs::create_dir_all(inner.parent().unwrap()).unwrap();
                std::fs::copy(&base, &inner).unwrap();
                std::os::unix::fs::symlink(&linked, root.join(first)).unwrap();
            }
            Some(other) => panic!("symlink `{other}`"),
            None => {
                let bytes = input_bytes(target, input);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &bytes).unwrap();
                original = Some(bytes);
            }
        }
    }
    let store = FsStore::new(&root).unwrap();
    (
        Setup {
            _dir: dir,
            top,
            root,
            store,
        },
        original,
    )
}

fn code<T>(r: &Result<T>) -> String {
    match r {
        Ok(_) => "ok".to_owned(),
        Err(e) => e.code().to_owned(),
    }
}

/// Loads the target's document; the outcome's code.
fn load(s: &Setup, target: &str, max: Option<usize>) -> String {
    let store = s.store.clone();
    match target {
        "orchestrator" => {
            let mut o = OrchestratorStore::new(store, clock());
            if let Some(max) = max {
                o = o.with_max_document_bytes(max);
            }
            code(&o.load())
        }
        "registry" => code(&AgentRegistry::new(store, clock()).load()),
        "chains" => code(&AgentRegistry::new(store, clock()).load_chains()),
        "team" => code(&TeamStore::new(store, clock()).load("t", "a")),
        other => panic!("target `{other}`"),
    }
}

fn seed_session() -> OrchestratorSession {
    let bytes = std::fs::read(target_file("orchestrator").1).unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

/// Every API that makes a path of an id, with `id`: the codes seen.
fn id_codes(s: &Setup, id: &str) -> Vec<(&'static str, String)> {
    let reg = AgentRegistry::new(s.store.clone(), clock());
    let teams = TeamStore::new(s.store.clone(), clock());
    let sessions = OrchestratorStore::new(s.store.clone(), clock());
    let mut doc = seed_session();
    id.clone_into(&mut doc.session_id);
    vec![
        (
            "registry register",
            code(&reg.register("a", id, json!({}), None)),
        ),
        ("transcript key", code(&transcript_key(id))),
        ("team load (team)", code(&teams.load(id, "a"))),
        ("team load (agent)", code(&teams.load("t", id))),
        ("history key", code(&history_key(id))),
        ("orchestrator save", code(&sessions.save(&mut doc))),
        ("orchestrator archive", code(&sessions.archive(&doc, false))),
    ]
}

/// A save over the target's file: the code.
fn save_over(s: &Setup, target: &str, max: Option<usize>) -> String {
    let store = s.store.clone();
    match target {
        "orchestrator" => {
            let mut o = OrchestratorStore::new(store, clock());
            if let Some(max) = max {
                o = o.with_max_document_bytes(max);
            }
            code(&o.save(&mut seed_session()))
        }
        "registry" => {
            code(&AgentRegistry::new(store, clock()).register("a", "agent-1", json!({}), None))
        }
        "chains" => {
            code(&AgentRegistry::new(store, clock()).create_chain("c", &["a".into()], None))
        }
        "team" => {
            let bytes = std::fs::read(target_file("team").1).unwrap();
            let mut state = SessionState::from_json(&bytes).unwrap();
            state.name = "a".into();
            code(&TeamStore::new(store, clock()).save("t", &state))
        }
        other => panic!("target `{other}`"),
    }
}

/// Whether `original` is still in the root: at `key`, or in a `.corrupt-` copy beside it.
fn original_kept(root: &Path, key: &str, original: &[u8]) -> bool {
    let path = root.join(key);
    if std::fs::read(&path).is_ok_and(|b| b == original) {
        return true;
    }
    let name = path.file_name().unwrap().to_str().unwrap().to_owned();
    std::fs::read_dir(path.parent().unwrap()).unwrap().any(|e| {
        let e = e.unwrap();
        let n = e.file_name().to_string_lossy().into_owned();
        n.starts_with(&format!("{name}.corrupt-"))
            && std::fs::read(e.path()).is_ok_and(|b| b == original)
    })
}

/// Runs one case; `Err` describes what went wrong.
fn run_case(case: &Value) -> std::result::Result<(), String> {
    let target = case["target"].as_str().unwrap();
    let expected = case["expected"].as_str().unwrap();
    let max = case
        .get("max_document_bytes")
        .and_then(Value::as_u64)
        .map(|m| usize::try_from(m).unwrap());
    let (s, original) = place(target, &case["input"]);
    let outside_before = tree(&s.top.join("outside"));
    let before = tree(&s.top);
    if target == "id" {
        let id = case["input"]["id"].as_str().unwrap();
        let codes = id_codes(&s, id);
        let wrong: Vec<_> = codes.iter().filter(|(_, c)| c != expected).collect();
        if !wrong.is_empty() {
            return Err(format!(
                "expected `{expected}` from every API, got {wrong:?}"
            ));
        }
        if tree(&s.top) != before {
            return Err("an invalid id wrote something".into());
        }
        return Ok(());
    }
    let got = load(&s, target, max);
    if got != expected {
        return Err(format!("load gave `{got}`, expected `{expected}`"));
    }
    if tree(&s.top) != before {
        return Err("load changed the folder".into());
    }
    if expected == "ok" {
        return Ok(());
    }
    let saved = save_over(&s, target, max);
    if tree(&s.top.join("outside")) != outside_before {
        return Err(format!(
            "a save (`{saved}`) changed the folder outside the root"
        ));
    }
    if let Some(original) = original {
        let key = target_file(target).0;
        if !original_kept(&s.root, key, &original) {
            return Err(format!(
                "after a save (`{saved}`) the original bytes are gone"
            ));
        }
    } else if saved != "storage" {
        return Err(format!(
            "a save through a link out of the root gave `{saved}`"
        ));
    }
    Ok(())
}

#[test]
fn every_hostile_case_gives_its_typed_error_and_keeps_the_original() {
    let table: Value =
        serde_json::from_slice(&std::fs::read(hostile_dir().join("cases.json")).unwrap()).unwrap();
    let cases = table["cases"].as_array().unwrap();
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    let mut failures = Vec::new();
    let mut by_target: BTreeMap<String, usize> = BTreeMap::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        match catch_unwind(AssertUnwindSafe(|| run_case(case))) {
            Ok(Ok(())) => {
                *by_target
                    .entry(case["target"].as_str().unwrap().to_owned())
                    .or_default() += 1;
            }
            Ok(Err(why)) => failures.push(format!("{name}: {why}")),
            Err(_) => failures.push(format!("{name}: panicked")),
        }
    }
    println!(
        "hostile: {} cases, {} passed ({by_target:?}), {} failed",
        cases.len(),
        cases.len() - failures.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_runner_can_fail() {
    // A case whose expectation is wrong must be reported, not passed.
    let case =
        json!({"name": "x", "target": "orchestrator", "input": {"text": ""}, "expected": "ok"});
    assert!(run_case(&case).unwrap_err().contains("corrupt_state"));
    let case =
        json!({"name": "y", "target": "id", "input": {"id": "fine-id"}, "expected": "invalid_key"});
    assert!(run_case(&case).is_err());
}
