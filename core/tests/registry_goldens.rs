//! The registry against the oracle's goldens (tests/vectors/registry, made by generate.py).

use serde_json::{Value, json};
use session_state::registry::{
    AgentRegistry, CHAINS_KEY, CompatPolicy, ResumePolicy, ResumeQuery, SESSIONS_KEY,
    to_python_json,
};
use session_state::{FixedClock, Key, MemoryStore, Store};

fn vectors(name: &str) -> Value {
    let path = format!(
        "{}/../tests/vectors/registry/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

const TS_KEYS: &[&str] = &[
    "created_at",
    "last_updated",
    "last_resumed_at",
    "timestamp",
    "started_at",
    "completed_at",
];

/// Replaces every timestamp value by `"<ts>"` (timestamps differ between runs).
fn mask(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = if TS_KEYS.contains(&k.as_str()) && v.is_string() {
                        json!("<ts>")
                    } else {
                        mask(v)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(mask).collect()),
        other => other.clone(),
    }
}

fn registry() -> AgentRegistry<MemoryStore, FixedClock> {
    AgentRegistry::new(
        MemoryStore::new(),
        FixedClock::at("2026-11-29T17:46:13.206964Z").unwrap(),
    )
}

fn opt_str(v: &Value) -> Option<&str> {
    v.as_str()
}

#[test]
fn compat_policy_matches_every_oracle_case() {
    let cases = vectors("should_resume.json");
    let cases = cases.as_array().unwrap();
    assert!(cases.len() >= 2000, "{} cases", cases.len());
    let policy = CompatPolicy::default();
    let mut failures = Vec::new();
    for case in cases {
        let query = ResumeQuery {
            known_agent: case["known"].as_bool().unwrap(),
            resume_count: case["resume_count"].as_u64().unwrap(),
            current_task: case["current_task"].as_str().unwrap(),
            previous_task: opt_str(&case["previous_task"]),
        };
        let expected = case["resume"].as_bool().unwrap();
        if policy.decide(&query).resume != expected {
            failures.push(case.clone());
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ, first: {}",
        failures.len(),
        cases.len(),
        failures[0]
    );
}

#[test]
fn compat_policy_through_the_registry_matches_the_oracle() {
    let reg = registry();
    for count in 0..7u64 {
        let id = format!("id-{count}");
        reg.register(&format!("agent-{count}"), &id, json!({"n": count}), None)
            .unwrap();
        for _ in 0..count {
            assert!(reg.increment_resume_count(&id).unwrap());
        }
    }
    let cases = vectors("should_resume.json");
    for case in cases.as_array().unwrap().iter().step_by(7) {
        let got = reg
            .should_resume(
                case["agent_name"].as_str().unwrap(),
                case["current_task"].as_str().unwrap(),
                opt_str(&case["previous_task"]),
            )
            .unwrap();
        assert_eq!(got, case["resume"].as_bool().unwrap(), "{case}");
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

#[test]
#[allow(clippy::too_many_lines)]
fn seed_demo_gives_the_oracle_outputs_and_files() {
    let demo = vectors("demo.json");
    let out = &demo["outputs"];
    let reg = registry();
    reg.create_chain(
        "SPEC-AUTH-001-planning",
        &strings(&json!(["spec-builder", "implementation-planner"])),
        Some(json!({"spec_id": "SPEC-AUTH-001", "feature": "User Authentication"})),
    )
    .unwrap();
    reg.register(
        "spec-builder",
        "spec-abc123",
        json!({"spec_id": "SPEC-AUTH-001", "files_created": [".moai/specs/SPEC-AUTH-001/spec.md"], "status": "success"}),
        Some("SPEC-AUTH-001-planning"),
    )
    .unwrap();
    reg.register(
        "implementation-planner",
        "plan-def456",
        json!({"dependencies": {"fastapi": ">=0.118.3"}, "status": "success"}),
        Some("SPEC-AUTH-001-planning"),
    )
    .unwrap();
    let summary =
        serde_json::to_value(reg.chain_summary("SPEC-AUTH-001-planning").unwrap()).unwrap();
    assert_eq!(mask(&summary), mask(&out["planning_summary"]));
    reg.create_chain(
        "SPEC-AUTH-001-implementation",
        &strings(&json!(["tdd-implementer"])),
        None,
    )
    .unwrap();
    reg.register(
        "tdd-implementer",
        "tdd-ghi789",
        json!({"phase": "phase_1", "tests_created": ["tests/test_registration.py"], "code_created": ["src/auth/registration.py"], "status": "success"}),
        Some("SPEC-AUTH-001-implementation"),
    )
    .unwrap();
    let resume_id = reg
        .resume_id("tdd-implementer", Some("SPEC-AUTH-001-implementation"))
        .unwrap();
    assert_eq!(json!(resume_id), out["resume_id"]);
    let decision = reg
        .should_resume(
            "tdd-implementer",
            "Implement user login endpoint",
            Some("Implement user registration endpoint"),
        )
        .unwrap();
    assert_eq!(json!(decision), out["should_resume"]);
    if let (true, Some(id)) = (decision, &resume_id) {
        assert!(reg.increment_resume_count(id).unwrap());
    }
    reg.create_chain(
        "SPEC-AUTH-001-review",
        &strings(&json!([
            "backend-expert",
            "security-expert",
            "frontend-expert"
        ])),
        Some(json!({"review_type": "expert_consultation"})),
    )
    .unwrap();
    for (name, id, result) in [
        (
            "backend-expert",
            "backend-jkl012",
            json!({"recommendations": ["Use JWT for auth"]}),
        ),
        (
            "security-expert",
            "security-mno345",
            json!({"vulnerabilities": ["Rate limiting needed"]}),
        ),
        (
            "frontend-expert",
            "frontend-pqr678",
            json!({"ui_concerns": ["Token refresh flow"]}),
        ),
    ] {
        reg.register(name, id, result, Some("SPEC-AUTH-001-review"))
            .unwrap();
    }
    let review = serde_json::to_value(reg.chain_results("SPEC-AUTH-001-review").unwrap()).unwrap();
    assert_eq!(mask(&review), mask(&out["review_results"]));
    let all = serde_json::to_value(reg.all_sessions().unwrap()).unwrap();
    assert_eq!(all, out["all_sessions"]);

    // The files, byte for byte once the oracle's timestamps are put in ours.
    let mut doc = reg.load().unwrap();
    assert_eq!(
        mask(&serde_json::to_value(&doc.results).unwrap()),
        mask(&out["results"])
    );
    let oracle: Value = serde_json::from_str(demo["sessions_text"].as_str().unwrap()).unwrap();
    doc.results.clear();
    doc.last_updated = oracle["last_updated"].as_str().map(str::to_owned);
    for (id, meta) in &mut doc.metadata {
        meta.created_at = oracle["metadata"][id]["created_at"]
            .as_str()
            .map(str::to_owned);
        if meta.last_resumed_at.is_some() {
            meta.last_resumed_at = oracle["metadata"][id]["last_resumed_at"]
                .as_str()
                .map(str::to_owned);
        }
    }
    let ours = String::from_utf8(to_python_json(&doc).unwrap()).unwrap();
    assert_eq!(ours, demo["sessions_text"].as_str().unwrap());

    let mut chains = reg.load_chains().unwrap();
    let oracle_chains: Value = serde_json::from_str(demo["chains_text"].as_str().unwrap()).unwrap();
    for (id, def) in &mut chains {
        def.created_at = oracle_chains[id]["created_at"].as_str().map(str::to_owned);
    }
    let ours = String::from_utf8(to_python_json(&chains).unwrap()).unwrap();
    assert_eq!(ours, demo["chains_text"].as_str().unwrap());
}

#[test]
fn files_written_by_the_oracle_load_unchanged() {
    let demo = vectors("demo.json");
    let store = MemoryStore::new();
    let sessions = demo["sessions_text"].as_str().unwrap();
    let chains = demo["chains_text"].as_str().unwrap();
    store
        .write(&Key::new(SESSIONS_KEY).unwrap(), sessions.as_bytes())
        .unwrap();
    store
        .write(&Key::new(CHAINS_KEY).unwrap(), chains.as_bytes())
        .unwrap();
    let reg = AgentRegistry::new(
        store,
        FixedClock::at("2026-11-29T17:46:13.206964Z").unwrap(),
    );
    let doc = reg.load().unwrap();
    assert_eq!(to_python_json(&doc).unwrap(), sessions.as_bytes());
    assert_eq!(
        to_python_json(&reg.load_chains().unwrap()).unwrap(),
        chains.as_bytes()
    );
    assert_eq!(
        reg.resume_id("tdd-implementer", Some("SPEC-AUTH-001-implementation"))
            .unwrap()
            .as_deref(),
        Some("tdd-ghi789")
    );
    // The seed loses results on restart: the summary of a reloaded oracle file is not_found.
    assert_eq!(
        reg.chain_summary("SPEC-AUTH-001-review").unwrap().status,
        "not_found"
    );
}

fn apply(reg: &AgentRegistry<MemoryStore, FixedClock>, op: &Value) -> Option<Value> {
    let s = |k: &str| op[k].as_str().unwrap();
    match s("op") {
        "register" => {
            reg.register(
                s("agent_name"),
                s("agent_id"),
                op["result"].clone(),
                opt_str(&op["chain_id"]),
            )
            .unwrap();
            None
        }
        "increment" => {
            reg.increment_resume_count(s("agent_id")).unwrap();
            None
        }
        "clear_agent" => {
            reg.clear_agent(s("agent_name")).unwrap();
            None
        }
        "clear_chain" => {
            reg.clear_chain(s("chain_id")).unwrap();
            None
        }
        "create_chain" => {
            let meta = (!op["metadata"].is_null()).then(|| op["metadata"].clone());
            reg.create_chain(s("chain_id"), &strings(&op["agent_sequence"]), meta)
                .unwrap();
            None
        }
        "resume_id" => Some(json!(
            reg.resume_id(s("agent_name"), opt_str(&op["chain_id"]))
                .unwrap()
        )),
        "should_resume" => Some(json!(
            reg.should_resume(
                s("agent_name"),
                s("current_task"),
                opt_str(&op["previous_task"])
            )
            .unwrap()
        )),
        "summary" => Some(serde_json::to_value(reg.chain_summary(s("chain_id")).unwrap()).unwrap()),
        "results" => Some(serde_json::to_value(reg.chain_results(s("chain_id")).unwrap()).unwrap()),
        "all" => Some(serde_json::to_value(reg.all_sessions().unwrap()).unwrap()),
        "agent_result" => Some(
            reg.agent_result(s("agent_id"))
                .unwrap()
                .unwrap_or(Value::Null),
        ),
        other => panic!("unknown op {other}"),
    }
}

#[test]
fn random_operation_sequences_end_in_the_oracle_state() {
    let sequences = vectors("random_ops.json");
    let sequences = sequences.as_array().unwrap();
    assert!(sequences.len() >= 100);
    for (n, seq) in sequences.iter().enumerate() {
        let reg = registry();
        for (i, op) in seq["ops"].as_array().unwrap().iter().enumerate() {
            if let Some(answer) = apply(&reg, op) {
                assert_eq!(
                    mask(&answer),
                    mask(&op["answer"]),
                    "sequence {n}, op {i}: {op}"
                );
            }
        }
        let state = &seq["state"];
        let doc = serde_json::to_value(reg.load().unwrap()).unwrap();
        for key in ["sessions", "chains", "metadata"] {
            assert_eq!(mask(&doc[key]), mask(&state[key]), "sequence {n}: {key}");
        }
        let results = doc.get("results").cloned().unwrap_or_else(|| json!({}));
        assert_eq!(
            mask(&results),
            mask(&state["results"]),
            "sequence {n}: results"
        );
        let chains = serde_json::to_value(reg.load_chains().unwrap()).unwrap();
        assert_eq!(
            mask(&chains),
            mask(&state["workflow_chains"]),
            "sequence {n}: workflow chains"
        );
    }
}
