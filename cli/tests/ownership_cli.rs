//! `claim`, `renew`, `release`, `heartbeat`, `sessions --live` and the fenced writes through
//! the real binary, and the hook's claim as Claude Code runs it.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

mod common;
use common::{CURRENT, bin, code, hook, ok, ok_as, payload, stderr, stdout};

fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("proj");
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    (dir, root)
}

/// Runs `args` in `root` with `SESSION_STATE_OWNER` set to `owner` (or unset).
fn run_as(root: &Path, owner: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = bin();
    cmd.env_remove("SESSION_STATE_OWNER");
    if let Some(owner) = owner {
        cmd.env("SESSION_STATE_OWNER", owner);
    }
    cmd.arg("--root").arg(root).args(args).output().unwrap()
}

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// Expects exit 3 with `error[conflict]` naming `owner`.
fn refused(out: &Output, owner: &str) {
    assert_eq!(code(out), 3, "{out:?}");
    let err = stderr(out);
    assert!(err.starts_with("error[conflict]: "), "{err}");
    assert!(err.contains(&format!("`{owner}`")), "{err}");
}

#[test]
fn a_claimed_session_refuses_other_writers_with_exit_3_naming_the_owner() {
    let (_dir, root) = project();
    ok(&root, &["new", "--goal", "g", "--id", "s1"]);
    let claimed = json_of(&ok(
        &root,
        &["claim", "--owner", "alice", "--lease", "60", "--json"],
    ));
    assert_eq!(claimed["lease"]["owner"], "alice");
    assert_eq!(claimed["lease"]["epoch"], 1);
    assert_eq!(claimed["lease"]["lease_seconds"], 60);
    let process = &claimed["lease"]["process"];
    assert!(process["pid"].as_u64().unwrap() > 0, "{process}");
    assert!(process["pid_start"].as_u64().is_some(), "{process}");
    assert_eq!(claimed["live"]["goal"], "g");
    let owner_file: Value = serde_json::from_slice(
        &std::fs::read(root.join(".claude/orchestrator-session.owner.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(owner_file["owner"], "alice");
    let before = std::fs::read(root.join(CURRENT)).unwrap();
    refused(&run_as(&root, None, &["start"]), "alice");
    refused(&run_as(&root, Some("bob"), &["decision", "use x"]), "alice");
    refused(&run_as(&root, Some("bob"), &["claim"]), "alice");
    refused(
        &run_as(&root, Some("bob"), &["claim", "--takeover"]),
        "alice",
    );
    assert_eq!(
        std::fs::read(root.join(CURRENT)).unwrap(),
        before,
        "nothing landed"
    );
    ok_as(&root, "alice", &["start"]);
    // The lease: renewed by its owner only; `updated` untouched.
    let updated = common::current(&root)["updated"].clone();
    let renewed = json_of(&ok_as(
        &root,
        "alice",
        &["renew", "--lease", "120", "--json"],
    ));
    assert_eq!(renewed["lease_seconds"], 120);
    assert_eq!(common::current(&root)["updated"], updated);
    refused(&run_as(&root, Some("bob"), &["renew"]), "alice");
    // By force: recorded, and alice is fenced out.
    let forced = json_of(&ok_as(&root, "bob", &["claim", "--force", "--json"]));
    assert_eq!(forced["lease"]["epoch"], 2);
    assert_eq!(forced["lease"]["forced"], true);
    assert_eq!(forced["lease"]["took_over_from"], "alice");
    refused(&run_as(&root, Some("alice"), &["pause"]), "bob");
    ok_as(&root, "bob", &["pause"]);
    // Released: anyone writes again; the epoch is kept for the next claim.
    let text = ok_as(&root, "bob", &["release"]);
    assert!(text.contains("epoch 2 kept"), "{text}");
    let out = run_as(&root, None, &["continue"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let again = json_of(&ok_as(&root, "carol", &["claim", "--json"]));
    assert_eq!(again["lease"]["epoch"], 3);
}

#[test]
fn claim_without_an_owner_is_a_usage_error() {
    let (_dir, root) = project();
    let out = run_as(&root, None, &["claim"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("SESSION_STATE_OWNER"),
        "{}",
        stderr(&out)
    );
    let out = run_as(&root, None, &["claim", "--owner", "a", "--lease", "0"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = run_as(&root, None, &["sessions"]);
    assert_eq!(code(&out), 2, "`sessions` needs `--live`");
}

#[test]
fn an_owner_that_cannot_name_a_live_entry_is_called_the_owner() {
    let (_dir, root) = project();
    let out = run_as(&root, None, &["claim", "--owner", "team/alice"]);
    assert_eq!(code(&out), 2, "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("owner `team/alice`"), "{err}");
    assert!(!err.contains("session id"), "{err}");
    assert!(
        !root
            .join(".claude/orchestrator-session.owner.json")
            .exists()
    );
}

#[test]
fn a_pid_variable_that_names_no_process_is_refused_before_anything_is_written() {
    let (_dir, root) = project();
    for pid in ["abc", "0", "-1", "4294967296", "12 34"] {
        for args in [
            &["claim", "--owner", "alice"][..],
            &["heartbeat", "--owner", "alice"],
        ] {
            let out = bin()
                .env("SESSION_STATE_PID", pid)
                .arg("--root")
                .arg(&root)
                .args(args)
                .output()
                .unwrap();
            assert_eq!(code(&out), 2, "{pid} {args:?}: {out:?}");
            let err = stderr(&out);
            assert!(err.starts_with("error[invalid_input]: "), "{err}");
            assert!(
                err.contains(&format!("SESSION_STATE_PID `{pid}` is not a process id")),
                "{err}"
            );
        }
    }
    assert!(!root.join(".claude/live").exists());
    assert!(
        !root
            .join(".claude/orchestrator-session.owner.json")
            .exists()
    );
    // Blank is unset; a pid is recorded as given.
    for (pid, recorded) in [(" ", None), ("4242", Some(4242))] {
        let out = bin()
            .env("SESSION_STATE_PID", pid)
            .arg("--root")
            .arg(&root)
            .args(["heartbeat", "--owner", "alice", "--json"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{out:?}");
        let pid_seen = json_of(&stdout(&out))["live"]["process"]["pid"].as_u64();
        match recorded {
            Some(recorded) => assert_eq!(pid_seen, Some(recorded)),
            None => assert!(pid_seen.is_some_and(|p| p > 0)),
        }
    }
}

#[test]
fn a_heartbeat_with_a_ttl_out_of_range_is_refused_before_anything_is_written() {
    let (_dir, root) = project();
    for ttl in ["0", "315360001"] {
        let out = run_as(&root, Some("alice"), &["heartbeat", "--ttl", ttl]);
        assert_eq!(code(&out), 2, "{out:?}");
        assert!(stderr(&out).contains("ttl_seconds"), "{out:?}");
    }
    assert!(
        !root.join(".claude/live").exists(),
        "no live folder, no lock files"
    );
}

#[test]
fn a_corrupt_lease_file_is_named_and_a_forced_claim_sets_it_aside() {
    let (_dir, root) = project();
    ok(&root, &["new", "--goal", "g", "--id", "s1"]);
    ok_as(&root, "alice", &["claim"]);
    ok_as(&root, "alice", &["start"]);
    let lease = root.join(".claude/orchestrator-session.owner.json");
    std::fs::write(&lease, "garbage").unwrap();
    let out = run_as(&root, Some("alice"), &["decision", "use x"]);
    assert_eq!(code(&out), 3, "{out:?}");
    let err = stderr(&out);
    assert!(
        !err.contains("SESSION RECOVERY"),
        "the session file is fine: {err}"
    );
    assert!(
        err.contains("orchestrator-session.owner.json` is corrupt"),
        "{err}"
    );
    assert!(err.contains("a claim with force"), "{err}");
    // A Claude Code session starting is told, with the resume block, how to get past it.
    let start = hook(&hook_payload(
        "SessionStart",
        &root,
        "claude-1",
        &json!({"source": "startup"}),
    ));
    let told: Value = serde_json::from_str(&stdout(&start)).unwrap();
    let told = told["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        told.contains("Not yours to write") && told.contains("doctor --fix"),
        "{told}"
    );
    ok_as(&root, "alice", &["claim", "--force"]);
    ok_as(&root, "alice", &["decision", "use x"]);
    let kept: Vec<_> = std::fs::read_dir(root.join(".claude"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("orchestrator-session.owner.json.corrupt-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
}

#[test]
fn a_claim_before_any_session_says_the_lease_covers_the_next_one() {
    let (_dir, root) = project();
    let first = stdout(&run_as(&root, Some("alice"), &["claim"]));
    assert!(first.contains("none saved yet"), "{first}");
    ok_as(&root, "alice", &["new", "--goal", "g", "--id", "s1"]);
    let again = stdout(&run_as(&root, Some("alice"), &["claim"]));
    assert!(
        again.starts_with("`alice` owns the current session ("),
        "{again}"
    );
}

#[test]
fn heartbeats_and_scopes_show_in_sessions_live() {
    let (_dir, root) = project();
    assert_eq!(
        ok(&root, &["sessions", "--live"]).trim(),
        "No live sessions"
    );
    ok_as(
        &root,
        "alice",
        &["claim", "--scope", "spec-7", "--scope", "chain-a"],
    );
    let out = run_as(&root, Some("bob"), &["claim", "--scope", "spec-7"]);
    assert_eq!(code(&out), 3);
    assert!(
        stderr(&out).contains("live session `alice`"),
        "{}",
        stderr(&out)
    );
    let hb = json_of(&ok_as(
        &root,
        "bob",
        &["heartbeat", "--ttl", "60", "--json"],
    ));
    assert_eq!(hb["renewed"], false);
    assert_eq!(hb["live"]["ttl_seconds"], 60);
    // bob's entry goes stale: its heartbeat is moved back two minutes.
    let bob_key = root.join(".claude/live/bob.json");
    let mut bob: Value = serde_json::from_slice(&std::fs::read(&bob_key).unwrap()).unwrap();
    bob["heartbeat"] = json!("2020-01-01T00:00:00Z");
    std::fs::write(&bob_key, bob.to_string()).unwrap();
    let listed = json_of(&ok(&root, &["sessions", "--live", "--json"]));
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0]["entry"]["session_id"], "alice");
    assert_eq!(listed[0]["entry"]["scopes"], json!(["spec-7", "chain-a"]));
    assert_eq!(listed[0]["stale"], false);
    assert_eq!(
        listed[0]["process_running"], true,
        "the test process ran it"
    );
    assert_eq!(listed[1]["stale"], true);
    assert!(
        listed[1]["reason"]
            .as_str()
            .unwrap()
            .contains("TTL of 60 s")
    );
    let text = ok(&root, &["sessions", "--live"]);
    assert!(text.starts_with("SESSION"), "{text}");
    assert!(text.contains("stale: no heartbeat for"), "{text}");
    // A stale holder's scope can be taken; a released one too.
    ok_as(&root, "alice", &["release", "--scope", "spec-7"]);
    ok_as(&root, "bob", &["claim", "--scope", "spec-7"]);
    let out = run_as(&root, Some("carol"), &["claim", "--scope", "chain-a"]);
    assert_eq!(code(&out), 3, "alice still holds chain-a");
}

fn hook_payload(event: &str, root: &Path, session: &str, extra: &Value) -> Value {
    let mut p = payload(event, root, extra);
    p["session_id"] = json!(session);
    p
}

#[test]
fn the_hook_claims_on_session_start_and_a_second_claude_session_is_refused_with_exit_0() {
    let (_dir, root) = project();
    ok(&root, &["new", "--goal", "g", "--id", "s1"]);
    let first = hook(&hook_payload(
        "SessionStart",
        &root,
        "claude-1",
        &json!({"source": "startup"}),
    ));
    assert!(first.stderr.is_empty(), "{first:?}");
    let lease: Value = serde_json::from_slice(
        &std::fs::read(root.join(".claude/orchestrator-session.owner.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(lease["owner"], "claude-1");
    // The hook's claim records the process that ran it (this test), not its own short life.
    assert_eq!(lease["process"]["pid"], std::process::id());
    let start = hook(&hook_payload(
        "SubagentStart",
        &root,
        "claude-1",
        &json!({"agent_id": "a1", "agent_type": "Explore"}),
    ));
    assert!(start.stderr.is_empty(), "{start:?}");
    assert_eq!(common::current(&root)["agents"][0]["id"], "a1");
    // A second Claude Code session: its claim and its writes are refused, on stderr, exit 0.
    let second = hook(&hook_payload(
        "SessionStart",
        &root,
        "claude-2",
        &json!({"source": "startup"}),
    ));
    assert_eq!(code(&second), 0);
    let err = stderr(&second);
    assert!(
        err.contains("error[conflict]") && err.contains("`claude-1`"),
        "{err}"
    );
    // Its model is told, with the resume block, that the session is not its to write.
    let told: Value = serde_json::from_str(&stdout(&second)).unwrap();
    let told = told["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(told.contains("RESUMING SESSION"), "{told}");
    assert!(
        told.contains("Not yours to write") && told.contains("`claude-1`"),
        "{told}"
    );
    let again = hook(&hook_payload(
        "SessionStart",
        &root,
        "claude-1",
        &json!({"source": "resume"}),
    ));
    assert!(!stdout(&again).contains("Not yours"), "{again:?}");
    let before = std::fs::read(root.join(CURRENT)).unwrap();
    let stop = hook(&hook_payload("Stop", &root, "claude-2", &json!({})));
    assert_eq!(code(&stop), 0);
    let err = stderr(&stop);
    assert!(
        err.starts_with("session-state hook: error[conflict]: Stop: ")
            && err.contains("`claude-1`"),
        "{err}"
    );
    assert_eq!(std::fs::read(root.join(CURRENT)).unwrap(), before);
    // The owner's SessionEnd pauses the session and releases it; the second session claims.
    let end = hook(&hook_payload("SessionEnd", &root, "claude-1", &json!({})));
    assert!(end.stderr.is_empty(), "{end:?}");
    assert_eq!(common::current(&root)["status"], "paused");
    let again = hook(&hook_payload(
        "SessionStart",
        &root,
        "claude-2",
        &json!({"source": "resume"}),
    ));
    assert!(again.stderr.is_empty(), "{again:?}");
    let lease: Value = serde_json::from_slice(
        &std::fs::read(root.join(".claude/orchestrator-session.owner.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        (lease["owner"].as_str(), lease["epoch"].as_u64()),
        (Some("claude-2"), Some(2))
    );
    let _ = stdout(&again);
}

/// Runs `session-state --root ROOT ARGS` in `sh` after sourcing `env_file`, as Claude Code runs
/// the model's shell commands after a `SessionStart` hook wrote `CLAUDE_ENV_FILE`.
fn run_sourced(env_file: &Path, root: &Path, args: &[&str]) -> Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(r#". "$1" && shift && exec "$@""#)
        .arg("sh")
        .arg(env_file)
        .arg(env!("CARGO_BIN_EXE_session-state"))
        .arg("--root")
        .arg(root)
        .args(args)
        .env_remove("SESSION_STATE_OWNER")
        .output()
        .unwrap()
}

#[test]
fn the_session_start_hook_hands_its_owner_to_the_models_shell_commands() {
    let (dir, root) = project();
    ok(&root, &["new", "--goal", "g", "--id", "s1"]);
    ok(&root, &["start"]);
    let env_file = dir.path().join("claude-env.sh");
    for owner in ["claude-1", "it's \"odd\" $HOME"] {
        std::fs::write(&env_file, "export OTHER=1\n").unwrap();
        let start = common::hook_with_env_file(
            &hook_payload("SessionStart", &root, owner, &json!({"source": "startup"})),
            &env_file,
        );
        assert!(start.stderr.is_empty(), "{start:?}");
        let written = std::fs::read_to_string(&env_file).unwrap();
        assert!(
            written.starts_with("export OTHER=1\n"),
            "appended: {written}"
        );
        // The model's commands write as the hook's owner; without it they are refused.
        let unnamed = run_as(&root, None, &["decision", "d", "--why", "w"]);
        assert_eq!(code(&unnamed), 3, "{unnamed:?}");
        let advice = ": a writer names itself in `SESSION_STATE_OWNER` (in Claude Code the hooks \
                      set it to the session's id)\n";
        assert!(stderr(&unnamed).ends_with(advice), "{unnamed:?}");
        // A command that named an owner is not told to name one.
        let named = run_as(&root, None, &["claim", "--owner", "someone-else"]);
        assert_eq!(code(&named), 3, "{named:?}");
        assert!(!stderr(&named).contains("SESSION_STATE_OWNER"), "{named:?}");
        let out = run_sourced(&env_file, &root, &["decision", owner, "--why", "w"]);
        assert_eq!(code(&out), 0, "{out:?}");
        let decisions = common::current(&root)["decisions_made"].clone();
        assert_eq!(
            decisions.as_array().unwrap().last().unwrap()["decision"],
            owner
        );
        // The owner's SessionEnd releases it for the next owner.
        let end = hook(&hook_payload("SessionEnd", &root, owner, &json!({})));
        assert!(end.stderr.is_empty(), "{end:?}");
        ok(&root, &["continue"]);
    }
}

#[test]
fn a_restarted_claude_session_takes_over_the_lease_once_it_expires() {
    let (_dir, root) = project();
    ok(&root, &["new", "--goal", "g", "--id", "s1"]);
    ok(&root, &["start"]);
    let start = |owner: &str| hook(&hook_payload("SessionStart", &root, owner, &json!({})));
    let agent = |owner: &str, id: &str| {
        let extra = json!({"agent_id": id, "agent_type": "Explore"});
        hook(&hook_payload("SubagentStart", &root, owner, &extra))
    };
    assert!(start("claude-A").stderr.is_empty());
    // Claude Code restarted: the old session's lease still runs, the new one is refused.
    let refused_start = start("claude-B");
    assert!(
        stderr(&refused_start).contains("`claude-A`"),
        "{refused_start:?}"
    );
    let live = agent("claude-B", "b1");
    let err = stderr(&live);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        err.contains("error[conflict]: SubagentStart: ") && err.contains("`claude-A`"),
        "{err}"
    );
    assert_eq!(common::current(&root)["agents"], json!([]));
    // Once the old lease has expired, the new session's next event takes it over.
    let owner_file = root.join(".claude/orchestrator-session.owner.json");
    let mut lease: Value = serde_json::from_slice(&std::fs::read(&owner_file).unwrap()).unwrap();
    lease["expires"] = json!("2020-01-01T00:00:00Z");
    std::fs::write(&owner_file, lease.to_string()).unwrap();
    let after = agent("claude-B", "b2");
    assert!(after.stderr.is_empty(), "{after:?}");
    assert_eq!(common::current(&root)["agents"][0]["id"], "b2");
    let lease: Value = serde_json::from_slice(&std::fs::read(&owner_file).unwrap()).unwrap();
    assert_eq!(lease["owner"], "claude-B");
    // The old session's events are refused now.
    let old = agent("claude-A", "a1");
    assert!(stderr(&old).contains("`claude-B`"), "{old:?}");
    // An event that writes nothing takes nothing over, nor does a foreign SessionEnd: it would
    // only pause and release the session under its owner.
    let mut lease: Value = serde_json::from_slice(&std::fs::read(&owner_file).unwrap()).unwrap();
    lease["expires"] = json!("2020-01-01T00:00:00Z");
    std::fs::write(&owner_file, lease.to_string()).unwrap();
    for event in ["UserPromptSubmit", "SessionEnd"] {
        let out = hook(&hook_payload(event, &root, "claude-C", &json!({})));
        assert!(stderr(&out).lines().count() <= 1, "{out:?}");
        let lease: Value = serde_json::from_slice(&std::fs::read(&owner_file).unwrap()).unwrap();
        assert_eq!(lease["owner"], "claude-B", "{event}");
        assert_eq!(common::current(&root)["status"], "in_progress", "{event}");
    }
}

#[test]
fn an_owner_no_claim_would_take_is_not_exported() {
    let (dir, root) = project();
    ok(&root, &["new", "--goal", "g", "--id", "s1"]);
    let env_file = dir.path().join("claude-env.sh");
    for owner in ["x".repeat(300), "a\nb".to_owned(), "a/b".to_owned()] {
        std::fs::write(&env_file, "export OTHER=1\n").unwrap();
        let start = common::hook_with_env_file(
            &hook_payload("SessionStart", &root, &owner, &json!({})),
            &env_file,
        );
        assert!(stderr(&start).lines().count() <= 1, "{start:?}");
        assert_eq!(
            std::fs::read_to_string(&env_file).unwrap(),
            "export OTHER=1\n"
        );
    }
    // A valid owner is exported once, however often its session starts.
    for _ in 0..3 {
        let start = common::hook_with_env_file(
            &hook_payload(
                "SessionStart",
                &root,
                "claude-1",
                &json!({"source": "compact"}),
            ),
            &env_file,
        );
        assert!(start.stderr.is_empty(), "{start:?}");
    }
    assert_eq!(
        std::fs::read_to_string(&env_file).unwrap(),
        "export OTHER=1\nexport SESSION_STATE_OWNER='claude-1'\n"
    );
}

#[test]
fn prune_live_keeps_a_copy_of_an_unreadable_entry_before_removing_it() {
    let (_dir, root) = project();
    ok_as(&root, "alice", &["heartbeat"]);
    let torn = root.join(".claude/live/carol.json");
    std::fs::write(&torn, "garbage").unwrap();
    let plan = json_of(&ok(&root, &["prune", "--live", "--apply", "--json"]));
    assert_eq!(plan["removed"][0]["id"], "carol", "{plan}");
    assert!(!torn.exists());
    let copies: Vec<_> = std::fs::read_dir(root.join(".claude/live"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("carol.json.corrupt-"))
        .collect();
    assert_eq!(copies.len(), 1, "{copies:?}");
    assert_eq!(std::fs::read(&copies[0]).unwrap(), b"garbage");
    assert!(root.join(".claude/live/alice.json").exists());
    let live = ok(&root, &["sessions", "--live"]);
    assert!(!live.contains("carol"), "the copy is no live entry: {live}");
}

#[test]
fn prune_live_lists_stale_entries_and_removes_them_only_with_apply() {
    let (_dir, root) = project();
    ok_as(&root, "alice", &["claim", "--scope", "spec-7"]);
    ok_as(&root, "bob", &["heartbeat", "--ttl", "60"]);
    ok_as(&root, "bob", &["claim", "--scope", "chain-b"]);
    let bob_key = root.join(".claude/live/bob.json");
    let mut bob: Value = serde_json::from_slice(&std::fs::read(&bob_key).unwrap()).unwrap();
    bob["heartbeat"] = json!("2020-01-01T00:00:00Z");
    std::fs::write(&bob_key, bob.to_string()).unwrap();
    let bob_bytes = std::fs::read(&bob_key).unwrap();
    let alice_bytes = std::fs::read(root.join(".claude/live/alice.json")).unwrap();

    // The dry run names bob's entry and its scope, and changes nothing.
    let plan = json_of(&ok(&root, &["prune", "--live", "--json"]));
    assert_eq!(plan["applied"], false);
    let removed = plan["removed"].as_array().unwrap();
    assert_eq!(removed.len(), 1, "{plan}");
    assert_eq!(removed[0]["kind"], "live_session");
    assert_eq!(removed[0]["id"], "bob");
    assert_eq!(
        removed[0]["removes"],
        json!([".claude/live/bob.json", "scope chain-b"])
    );
    assert!(
        removed[0]["reason"]
            .as_str()
            .unwrap()
            .contains("TTL of 60 s")
    );
    assert_eq!(std::fs::read(&bob_key).unwrap(), bob_bytes);
    let text = ok(&root, &["prune", "--live"]);
    assert!(text.contains("would remove live session `bob`"), "{text}");

    // Applied: bob's entry goes, alice's live entry stays byte for byte, and bob's scope is
    // free for another orchestrator.
    let plan = json_of(&ok(&root, &["prune", "--live", "--apply", "--json"]));
    assert_eq!(plan["applied"], true);
    assert_eq!(plan["removed"].as_array().unwrap().len(), 1);
    assert!(!bob_key.exists());
    assert_eq!(
        std::fs::read(root.join(".claude/live/alice.json")).unwrap(),
        alice_bytes
    );
    ok_as(&root, "carol", &["claim", "--scope", "chain-b"]);
    let out = run_as(&root, Some("carol"), &["claim", "--scope", "spec-7"]);
    assert_eq!(code(&out), 3, "alice is live and keeps spec-7");
    assert!(ok(&root, &["prune", "--live"]).contains("nothing to remove"));

    // `--live` takes no other criterion.
    let out = run_as(&root, None, &["prune", "--live", "--keep", "3"]);
    assert_eq!(code(&out), 2, "{out:?}");
}
