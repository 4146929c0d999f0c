//! `session-state teams` / `team TEAM [--resume-plan] [--json]` over real folders (SPEC
//! section 3), including the bad entries a team folder can hold.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

mod common;
use common::{bin, stderr, stdout};

const CODER: &str = include_str!("../../tests/vectors/teams/fixtures/coder.json");
const REVIEWER: &str = include_str!("../../tests/vectors/teams/fixtures/reviewer.json");

fn run(args: &[&str], home: &Path) -> Output {
    bin().args(args).env("HOME", home).output().unwrap()
}

/// `<home>/.claude/teams/my-team/sessions/{coder,reviewer}.json` from the crate fixtures.
fn home_with_fixtures() -> (tempfile::TempDir, PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let sessions = home.path().join(".claude/teams/my-team/sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    std::fs::write(sessions.join("coder.json"), CODER).unwrap();
    std::fs::write(sessions.join("reviewer.json"), REVIEWER).unwrap();
    (home, sessions)
}

#[test]
fn no_teams_says_so() {
    let home = tempfile::tempdir().unwrap();
    let out = run(&["teams"], home.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "no teams\n");
}

#[test]
fn teams_and_members_from_the_default_root() {
    let (home, _) = home_with_fixtures();
    let out = run(&["teams"], home.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "TEAM     SESSIONS\nmy-team  2\n");
    let out = run(&["teams", "--json"], home.path());
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        json,
        serde_json::json!([{"name": "my-team", "sessions": 2}])
    );

    let out = run(&["team", "my-team"], home.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["AGENT", "BACKEND", "MODEL", "CREATED"]
    );
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["coder", "codex", "gpt-5-codex", "2026-03-01T12:34:56Z"]
    );
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        [
            "reviewer",
            "gemini-cli",
            "-",
            "2026-03-01T12:34:56.789012345Z"
        ]
    );
    assert!(stderr(&out).is_empty());
}

#[test]
fn json_prints_the_listing_as_the_packages_return_it() {
    let (home, sessions) = home_with_fixtures();
    std::fs::write(sessions.join("torn.json"), "{").unwrap();
    let out = run(&["team", "my-team", "--json"], home.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let printed: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let members: Vec<Value> = [("coder", CODER), ("reviewer", REVIEWER)]
        .iter()
        .map(|(agent, text)| {
            serde_json::json!({
                "agent": agent,
                "key": format!("teams/my-team/sessions/{agent}.json"),
                "state": serde_json::from_str::<Value>(text).unwrap(),
            })
        })
        .collect();
    assert_eq!(printed["team"], "my-team");
    assert_eq!(printed["members"], Value::Array(members));
    let skipped = printed["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{printed}");
    assert_eq!(skipped[0]["key"], "teams/my-team/sessions/torn.json");
    assert_eq!(skipped[0]["code"], "corrupt_state");
    assert!(
        stderr(&out).contains("warning: skipped"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn resume_plan_text_and_json() {
    let (home, sessions) = home_with_fixtures();
    std::fs::write(
        sessions.join("cursor.json"),
        r#"{"name":"cursor","backendType":"cursor","prompt":"p","createdAt":"2026-03-01T12:34:56Z"}"#,
    )
    .unwrap();
    let out = run(&["team", "my-team", "--resume-plan"], home.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.starts_with("coder ") && l.contains("respawn") && l.contains("codex")),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.starts_with("cursor ")
            && l.contains("skip")
            && l.contains("unknown_backend")),
        "{text}"
    );

    let out = run(&["team", "my-team", "--resume-plan", "--json"], home.path());
    let plan: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(plan["team"], "my-team");
    let actions: Vec<(&str, &str)> = plan["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["agent"].as_str().unwrap(), m["action"].as_str().unwrap()))
        .collect();
    assert_eq!(
        actions,
        [
            ("coder", "respawn"),
            ("cursor", "skip"),
            ("reviewer", "respawn")
        ]
    );
    assert_eq!(plan["members"][0]["config"]["maxTurns"], 10);
    assert_eq!(plan["members"][2]["backend"], "gemini-cli");
}

#[test]
fn bad_entries_are_reported_and_skipped() {
    let (home, sessions) = home_with_fixtures();
    // A folder named like a session file, with something in it, and an empty one.
    std::fs::create_dir(sessions.join("x.json")).unwrap();
    std::fs::write(sessions.join("x.json/inner.json"), "{}").unwrap();
    std::fs::create_dir(sessions.join("empty.json")).unwrap();
    // A link inside the root that leads to a folder: FsStore does not list links to folders
    // (they could loop), so it is neither a member nor reported.
    std::os::unix::fs::symlink(
        home.path().join(".claude/teams"),
        sessions.join("link.json"),
    )
    .unwrap();
    // Documents the crate rejects.
    std::fs::write(
        sessions.join("env-null.json"),
        r#"{"name":"env-null","backendType":"codex","prompt":"p","env":null,"createdAt":"2026-03-01T12:34:56Z"}"#,
    )
    .unwrap();
    std::fs::write(
        sessions.join("naive.json"),
        r#"{"name":"naive","backendType":"codex","prompt":"p","createdAt":"2026-03-01T12:34:56"}"#,
    )
    .unwrap();
    std::fs::write(
        sessions.join("memory.json"),
        r#"{"name":"memory","backendType":"codex","prompt":"p","memoryConfig":{"max_turns":5},"createdAt":"2026-03-01T12:34:56Z"}"#,
    )
    .unwrap();
    // A file this user cannot read (only meaningful when not running as root).
    let locked = sessions.join("locked.json");
    std::fs::write(&locked, REVIEWER.replace("reviewer", "locked")).unwrap();
    std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
    let can_read_locked = std::fs::read(&locked).is_ok();

    let out = run(&["team", "my-team"], home.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let agents: Vec<String> = stdout(&out)
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect();
    let mut expected = vec!["coder", "reviewer"];
    if can_read_locked {
        expected.insert(1, "locked");
    }
    assert_eq!(agents, expected);
    let warnings = stderr(&out);
    for (file, code) in [
        ("env-null.json", "corrupt_state"),
        ("naive.json", "corrupt_state"),
        ("memory.json", "corrupt_state"),
        ("x.json", "storage"),
    ] {
        assert!(
            warnings.contains(&format!("skipped `teams/my-team/sessions/{file}` ({code})")),
            "{file}: {warnings}"
        );
    }
    assert!(
        warnings.contains("missing field `budget_chars`"),
        "{warnings}"
    );
    if !can_read_locked {
        assert!(
            warnings.contains("skipped `teams/my-team/sessions/locked.json` (storage)"),
            "{warnings}"
        );
    }
    assert!(
        !warnings.contains("empty.json") && !warnings.contains("inner.json"),
        "{warnings}"
    );
    // Nothing was changed or created.
    assert_eq!(
        std::fs::read_to_string(sessions.join("coder.json")).unwrap(),
        CODER
    );
    let plan = run(&["team", "my-team", "--resume-plan", "--json"], home.path());
    let plan: Value = serde_json::from_str(&stdout(&plan)).unwrap();
    let reasons: Vec<(&str, &str)> = plan["members"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["action"] == "skip")
        .map(|m| (m["agent"].as_str().unwrap(), m["reason"].as_str().unwrap()))
        .collect();
    assert!(reasons.contains(&("env-null", "unparsable")), "{reasons:?}");
    assert!(
        !reasons.iter().any(|(agent, _)| *agent == "link"),
        "{reasons:?}"
    );
    assert!(!warnings.contains("link.json"), "{warnings}");
    assert!(reasons.contains(&("x", "unreadable")), "{reasons:?}");
}

#[test]
fn bad_team_names_and_missing_teams() {
    let (home, _) = home_with_fixtures();
    let long = "x".repeat(256);
    for bad in ["..", ".", "a/b", "a\\b", long.as_str()] {
        let out = run(&["team", bad], home.path());
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).starts_with("error[invalid_key]: team name `"),
            "{}",
            stderr(&out)
        );
    }
    let out = run(&["team", "ghost"], home.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("error[not_found]: team `ghost`"));

    // A `--root` that does not exist is an error (a mistyped path), and is not created.
    let empty = tempfile::tempdir().unwrap();
    let root = empty.path().join("nowhere");
    for args in [&["teams", "--json"][..], &["team", "t"]] {
        let out = run(
            &[&["--root", root.to_str().unwrap()][..], args].concat(),
            empty.path(),
        );
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&out).starts_with("error[not_found]: root folder `"),
            "{}",
            stderr(&out)
        );
        assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
    }
    assert!(!root.exists());

    // A missing default `~/.claude` just means no teams: nothing listed, nothing created.
    let out = run(&["teams", "--json"], empty.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "[]");
    let out = run(&["team", "t"], empty.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("error[not_found]: team `t`"));
    assert!(!empty.path().join(".claude").exists());
}

#[test]
fn a_stray_file_under_teams_is_not_a_team() {
    let (home, _) = home_with_fixtures();
    std::fs::write(home.path().join(".claude/teams/afile"), "x").unwrap();
    let out = run(&["teams"], home.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "TEAM     SESSIONS\nmy-team  2\n");
    let out = run(&["team", "afile"], home.path());
    assert!(
        stderr(&out).starts_with("error[not_found]"),
        "{}",
        stderr(&out)
    );
    assert!(
        !stderr(&out).contains("Not a directory"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_member_file_no_key_can_name_is_one_escaped_warning_line() {
    let (home, sessions) = home_with_fixtures();
    // A name the agent-teams crate takes, written by another program: a screen clear and a
    // line break that would fake a warning of its own.
    let name = "qa\u{1b}[2J\nwarning: all fine.json";
    std::fs::write(sessions.join(name), CODER).unwrap();
    let out = run(&["team", "my-team"], home.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("warning: skipped `"), "{err}");
    assert!(
        err.contains("qa\\u{1b}[2J\\nwarning: all fine.json"),
        "{err}"
    );
    assert!(err.contains("(invalid_key)"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err}");
    let out = run(&["teams"], home.path());
    assert_eq!(stdout(&out), "TEAM     SESSIONS\nmy-team  3\n");
}
