//! Files no key can name (another program wrote a name with a control character, a backslash,
//! or bytes that are not UTF-8): `list` leaves them out, `unlisted` reports them, and a team's
//! listing and resume plan report such a session file instead of leaving the agent out unsaid
//! (the agent-teams crate takes agent names with a control character).
#![cfg(unix)]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use session_state::team::{
    BackendType, ResumeAction, SessionState, SkipReason, SpawnConfig, TeamStore,
};
use session_state::{FixedClock, Key, Store};
use session_state_fs::FsStore;

fn key(text: &str) -> Key {
    Key::new(text).unwrap()
}

#[test]
fn names_no_key_can_hold_are_unlisted_not_listed() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path()).unwrap();
    store
        .update(&key("f/ok.json"), &mut |_| Ok(Some(b"1".to_vec())))
        .unwrap();
    store.write(&key("f/sub/deep.json"), b"2").unwrap();
    let folder = dir.path().join("f");
    std::fs::write(folder.join("tab\there.json"), b"3").unwrap();
    std::fs::write(folder.join("back\\slash.json"), b"4").unwrap();
    std::fs::write(folder.join("sub/esc\u{1b}[31m.json"), b"5").unwrap();
    std::fs::write(folder.join(OsStr::from_bytes(b"latin-\xe9.json")), b"6").unwrap();
    std::fs::create_dir(folder.join("dir\tname")).unwrap();

    assert_eq!(
        store.list(&key("f")).unwrap(),
        [key("f/ok.json"), key("f/sub/deep.json")]
    );
    assert_eq!(
        store.unlisted(&key("f")).unwrap(),
        [
            "back\\slash.json",
            "latin-\u{fffd}.json",
            "sub/esc\u{1b}[31m.json",
            "tab\there.json",
        ]
    );
    // The store's own lock files are neither (the update above made a pair).
    assert!(
        std::fs::read_dir(&folder)
            .unwrap()
            .any(|e| { e.unwrap().file_name().to_string_lossy().ends_with(".lock") })
    );
    assert_eq!(
        store.unlisted(&key("f/sub")).unwrap(),
        ["esc\u{1b}[31m.json"]
    );
    assert!(store.unlisted(&key("missing")).unwrap().is_empty());
}

#[test]
fn a_team_member_named_with_a_control_character_is_reported_not_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let teams = TeamStore::new(
        FsStore::new(dir.path()).unwrap(),
        FixedClock::at("2026-01-01T00:00:00Z").unwrap(),
    );
    let state = SessionState::from_config(
        &SpawnConfig::new("reviewer", "p"),
        BackendType::ClaudeCode,
        chrono::DateTime::from_timestamp(1_767_225_600, 0).unwrap(),
    );
    teams.save("t", &state).unwrap();
    let sessions = dir.path().join("teams/t/sessions");
    let bytes = std::fs::read(sessions.join("reviewer.json")).unwrap();
    std::fs::write(sessions.join("qa\tbot.json"), bytes).unwrap();

    let listing = teams.list("t").unwrap();
    let members: Vec<&str> = listing.members.iter().map(|m| m.agent.as_str()).collect();
    assert_eq!(members, ["reviewer"]);
    assert_eq!(listing.skipped.len(), 1, "{:?}", listing.skipped);
    let skipped = &listing.skipped[0];
    assert_eq!(skipped.key, "teams/t/sessions/qa\tbot.json");
    assert_eq!(skipped.code, "invalid_key");
    assert!(
        skipped.message.contains("control character"),
        "{}",
        skipped.message
    );

    let plan = teams.resume_plan("t").unwrap();
    let actions: Vec<(&str, bool)> = plan
        .members
        .iter()
        .map(|m| {
            let skipped = matches!(
                m.action,
                ResumeAction::Skip {
                    reason: SkipReason::InvalidName,
                    ..
                }
            );
            (m.agent.as_str(), skipped)
        })
        .collect();
    assert_eq!(actions, [("reviewer", false), ("qa\tbot", true)]);

    let summary = teams.list_teams().unwrap();
    assert_eq!(summary.len(), 1);
    assert_eq!((summary[0].name.as_str(), summary[0].sessions), ("t", 2));
}
