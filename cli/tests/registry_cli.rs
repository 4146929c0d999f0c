//! The registry commands of the `session-state` binary, including 4 processes registering into
//! one folder at the same time.

use std::path::Path;

use serde_json::Value;

mod common;
use common::{bin, run};

fn ok_json(root: &Path, args: &[&str]) -> Value {
    let out = run(root, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn register_then_list_agents_and_chains() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let out = run(
        root,
        &[
            "register",
            "spec-builder",
            "spec-1",
            "--chain",
            "C",
            "--result",
            "{\"ok\": true}",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = root.join("result.json");
    // With a BOM, as some Windows editors save it: not part of the JSON.
    std::fs::write(&file, "\u{feff}[1, \"두\"]").unwrap();
    let out = run(
        root,
        &[
            "register",
            "planner",
            "plan-1",
            "--chain",
            "C",
            "--result-file",
            file.to_str().unwrap(),
        ],
    );
    assert!(out.status.success());
    assert!(run(root, &["register", "loner", "l-1"]).status.success());

    let agents = ok_json(root, &["agents", "--json"]);
    let agents = agents.as_array().unwrap();
    assert_eq!(agents.len(), 3);
    assert_eq!(agents[0]["agent_name"], "spec-builder");
    assert_eq!(agents[0]["agent_id"], "spec-1");
    assert_eq!(agents[0]["chain_id"], "C");
    assert_eq!(agents[0]["resume_count"], 0);
    assert_eq!(agents[2]["chain_id"], Value::Null);
    let in_chain = ok_json(root, &["agents", "--chain", "C", "--json"]);
    assert_eq!(in_chain.as_array().unwrap().len(), 2);

    let text = run(root, &["agents"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.starts_with("AGENT"), "{text}");
    assert!(text.contains("plan-1"));

    let chains = ok_json(root, &["chains", "--json"]);
    assert_eq!(chains[0]["summary"]["agent_count"], 2);
    assert_eq!(chains[0]["summary"]["agents"][1], "planner");
    let chain = ok_json(root, &["chain", "C", "--json"]);
    assert_eq!(chain["summary"]["status"], "completed");
    assert_eq!(chain["status"]["defined"], false);

    let missing = run(root, &["chain", "nope"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).starts_with("error[not_found]"));

    // The file is the seed's format with our `results`.
    let text = std::fs::read_to_string(root.join(".moai/memory/agent-sessions.json")).unwrap();
    assert!(text.contains("\"두\""));
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["results"]["plan-1"]["result"][1], "두");
}

#[test]
fn should_resume_prints_the_decision_and_exits_0_either_way() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    assert!(run(root, &["register", "tdd", "t-1"]).status.success());
    let yes = ok_json(
        root,
        &[
            "should-resume",
            "tdd",
            "--task",
            "Implement user login endpoint",
            "--previous",
            "Implement user registration endpoint",
            "--json",
        ],
    );
    assert_eq!(yes, serde_json::json!({"resume": true}));
    let seed = ok_json(
        root,
        &[
            "should-resume",
            "tdd",
            "--task",
            "update profiles",
            "--previous",
            "rename files",
            "--json",
        ],
    );
    assert_eq!(
        seed["resume"], true,
        "the seed matches `files` inside `profiles`"
    );
    let explained = ok_json(
        root,
        &[
            "should-resume",
            "tdd",
            "--task",
            "update profiles",
            "--previous",
            "rename files",
            "--policy",
            "explained",
            "--json",
        ],
    );
    assert_eq!(explained["resume"], false);
    assert_eq!(explained["reason"], "unrelated");
    assert!(explained["score"].is_number());
    assert!(explained["matched"].is_array());
    let unknown = run(
        root,
        &[
            "should-resume",
            "ghost",
            "--task",
            "x",
            "--policy",
            "explained",
        ],
    );
    assert_eq!(unknown.status.code(), Some(0));
    let text = String::from_utf8(unknown.stdout).unwrap();
    assert!(text.starts_with("new (unknown_agent"), "{text}");
}

#[test]
fn cap_and_threshold_are_the_policy_options_of_every_front_end() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    assert!(run(root, &["register", "tdd", "t-1"]).status.success());
    let args = [
        "should-resume",
        "tdd",
        "--task",
        "Implement user login endpoint",
    ];
    let previous = [
        "--previous",
        "Implement user registration endpoint",
        "--json",
    ];
    let capped = ok_json(root, &[&args[..], &previous[..], &["--cap", "0"]].concat());
    assert_eq!(capped, serde_json::json!({"resume": false}));
    let strict = [&args[..], &previous[..], &["--policy", "explained"]].concat();
    let high = ok_json(root, &[&strict[..], &["--threshold", "1"]].concat());
    assert_eq!(
        (&high["resume"], &high["reason"]),
        (&false.into(), &"unrelated".into())
    );
    for (extra, said) in [
        (
            &["--threshold", "2"][..],
            "`threshold` must be in [0, 1], got 2",
        ),
        (
            &["--threshold", "NaN"][..],
            "`threshold` must be in [0, 1], got NaN",
        ),
    ] {
        let out = run(root, &[&strict[..], extra].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.starts_with("error[invalid_input]"), "{stderr}");
        assert!(stderr.contains(said), "{stderr}");
    }
    let compat = run(
        root,
        &[&args[..], &previous[..], &["--threshold", "0.5"]].concat(),
    );
    let stderr = String::from_utf8_lossy(&compat.stderr);
    assert_eq!(compat.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("applies only to the `explained` policy"),
        "{stderr}"
    );
}

#[test]
fn bad_input_gives_typed_errors_and_keeps_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let out = run(root, &["register", "a", "x/../../secret"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error[invalid_key]"));
    assert!(!root.join("secret").exists());
    let out = run(root, &["register", "a", "a1", "--result", "{nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error[invalid_input]"));

    let file = root.join(".moai/memory/agent-sessions.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "[\"not\", \"an object\"]").unwrap();
    // As Python's SessionManager: the file is kept aside and what is whole (nothing here)
    // written back, with a warning, and the registration goes through.
    let out = run(root, &["register", "a", "a1"]);
    assert_eq!(out.status.code(), Some(0));
    let warning = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        warning.starts_with("warning: `.moai/memory/agent-sessions.json` is not a valid sessions file: kept aside as `.moai/memory/agent-sessions.json.corrupt-"),
        "{warning}"
    );
    let kept: Vec<_> = std::fs::read_dir(file.parent().unwrap())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(".corrupt-"))
        .collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(
        std::fs::read_to_string(kept[0].path()).unwrap(),
        "[\"not\", \"an object\"]"
    );
    let agents = run(root, &["agents", "--json"]);
    assert_eq!(agents.status.code(), Some(0));
    assert!(agents.stderr.is_empty(), "repaired once");
    let agents: Value = serde_json::from_slice(&agents.stdout).unwrap();
    assert_eq!(agents[0]["agent_id"], "a1");
}

#[test]
fn four_cli_workers_registering_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    std::thread::scope(|scope| {
        for p in 0..4 {
            let root = root.clone();
            scope.spawn(move || {
                // One `session-state register` process per registration, four at a time.
                // (core/tests/registry_multiprocess.rs runs 4 processes x 250 registrations.)
                for i in 0..50 {
                    let out = run(
                        &root,
                        &[
                            "register",
                            &format!("agent-{p}-{i}"),
                            &format!("id-{p}-{i}"),
                            "--chain",
                            "shared",
                            "--result",
                            &i.to_string(),
                        ],
                    );
                    assert!(
                        out.status.success(),
                        "{}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                }
            });
        }
    });
    let text = std::fs::read_to_string(root.join(".moai/memory/agent-sessions.json")).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["sessions"].as_object().unwrap().len(), 200);
    assert_eq!(doc["metadata"].as_object().unwrap().len(), 200);
    assert_eq!(doc["results"].as_object().unwrap().len(), 200);
    assert_eq!(doc["chains"]["shared"].as_array().unwrap().len(), 200);
}

#[test]
fn result_column_says_no_when_no_result_was_given() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    assert!(run(root, &["register", "a", "b"]).status.success());
    assert!(
        run(root, &["register", "c", "d", "--result", "{\"ok\": 1}"])
            .status
            .success()
    );
    // The entry is still stored, as JSON null (the seed stores whatever result is given).
    let text = std::fs::read_to_string(root.join(".moai/memory/agent-sessions.json")).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["results"]["b"]["result"], Value::Null);
    assert!(doc["results"]["b"].is_object());

    let agents = ok_json(root, &["agents", "--json"]);
    let fields: Vec<(&str, bool)> = agents
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["agent_id"].as_str().unwrap(),
                a["has_result"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(fields, [("b", false), ("d", true)]);
    let text = String::from_utf8(run(root, &["agents"]).stdout).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0].last(), Some(&"no"), "{text}");
    assert_eq!(rows[1].last(), Some(&"yes"), "{text}");
    let help =
        String::from_utf8(bin().args(["agents", "--help"]).output().unwrap().stdout).unwrap();
    assert!(help.contains("non-null result"), "{help}");
}

#[test]
fn chain_text_shows_the_verdict_first_and_labels_the_seed_status() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let reg = session_state::registry::AgentRegistry::new(
        session_state_fs::FsStore::new(root).unwrap(),
        session_state::FixedClock::at("2026-11-29T17:56:00Z").unwrap(),
    );
    reg.create_chain(
        "ID",
        &["backend-expert".into(), "frontend-expert".into()],
        None,
    )
    .unwrap();
    assert!(
        run(
            root,
            &["register", "backend-expert", "be-1", "--chain", "ID"]
        )
        .status
        .success()
    );
    let out = run(root, &["chain", "ID"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("chain:"), "{text}");
    assert!(
        lines[1].starts_with("complete:") && lines[1].contains("no, missing: frontend-expert"),
        "{text}"
    );
    assert!(text.contains("summary status (seed): completed"), "{text}");
    assert!(!text.lines().any(|l| l.starts_with("status:")), "{text}");

    let out = run(root, &["agents", "--chain", "NOPE"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "no agents in chain `NOPE`\n"
    );
}

/// Long names (a `format!` width over 65,535 would panic) make no panic, integers beyond 64 bits
/// stay integers, and control characters never reach the terminal raw.
#[test]
fn long_names_big_integers_and_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let long = "n".repeat(70_000);
    for args in [
        vec!["register", long.as_str(), "id-1"],
        vec!["register", "a", "id-2", "--chain", long.as_str()],
    ] {
        let out = run(root, &args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for cmd in ["agents", "chains"] {
        let out = run(root, &[cmd]);
        assert!(
            out.status.success(),
            "{cmd}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(&long),
            "{cmd}"
        );
    }

    let out = run(
        root,
        &[
            "register",
            "b",
            "id-3",
            "--result",
            r#"{"v": [1, 18446744073709551616]}"#,
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error[invalid_input]"), "{err}");
    assert!(
        err.contains("18446744073709551616") && err.contains(r#"["v"][1]"#),
        "{err}"
    );
    let deep = format!("{}1{}", "[".repeat(101), "]".repeat(101));
    let out = run(root, &["register", "b", "id-3", "--result", &deep]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("limit of 100 levels"));
    let listed = ok_json(root, &["agents", "--json"]);
    assert!(
        !listed.to_string().contains("id-3"),
        "nothing registered: {listed}"
    );

    let out = run(root, &["register", "evil\u{1b}[2J", "id-4"]);
    assert!(out.status.success());
    let out = run(root, &["agents"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\u{1b}'), "{text:?}");
    assert!(text.contains("evil\\u{1b}[2J"), "{text:?}");
    // A line break in a name cannot make a table row of its own.
    assert!(
        run(root, &["register", "x\nfake-row  id9", "id-5"])
            .status
            .success()
    );
    let text = String::from_utf8(run(root, &["agents"]).stdout).unwrap();
    assert!(text.contains("x\\nfake-row  id9"), "{text:?}");
    assert!(!text.lines().any(|l| l.starts_with("fake-row")), "{text:?}");
}

#[test]
fn resume_counts_the_seed_reads_as_numbers_are_not_corrupt_and_keep_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let memory = root.join(".moai/memory");
    std::fs::create_dir_all(&memory).unwrap();
    let file = memory.join("agent-sessions.json");
    // Written by another tool: a float count, a negative one, a float at the cap, keys the
    // seed never reads holding other types.
    let text = r#"{"sessions": {"a": "id1", "b": "id2", "c": "id3"}, "chains": {"c1": ["id1"]}, "metadata": {"id1": {"agent_name": "a", "created_at": "2024-01-01T00:00:00", "chain_id": "c1", "resume_count": 2.0}, "id2": {"agent_name": 7, "created_at": null, "resume_count": -1}, "id3": {"agent_name": "c", "resume_count": 5.0}}}"#;
    std::fs::write(&file, text).unwrap();
    let out = run(root, &["doctor"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let out = run(root, &["agents"]);
    assert!(out.status.success(), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        text,
        "left as it was"
    );
    let decide = |agent: &str| {
        ok_json(
            root,
            &[
                "should-resume",
                agent,
                "--task",
                "Implement user login endpoint",
                "--previous",
                "Implement user registration endpoint",
                "--json",
            ],
        )["resume"]
            .clone()
    };
    assert_eq!(decide("a"), true, "2.0 resumes is under the cap of 5");
    assert_eq!(decide("b"), true, "-1 resumes is under the cap");
    assert_eq!(decide("c"), false, "5.0 resumes is the cap");
    let names: Vec<String> = std::fs::read_dir(&memory)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains(".corrupt-")), "{names:?}");
}
