//! `TeamStore` over the filesystem store: files written where and as the crate writes them
//! (pretty JSON without trailing newline, mode 0600), crate files read back unchanged.

use std::os::unix::fs::PermissionsExt;

use session_state::FixedClock;
use session_state::team::{SessionState, TeamStore};
use session_state_fs::FsStore;

const CODER: &str = include_str!("../../tests/vectors/teams/fixtures/coder.json");
const REVIEWER: &str = include_str!("../../tests/vectors/teams/fixtures/reviewer.json");

#[test]
fn files_land_where_and_as_the_crate_writes_them() {
    let root = tempfile::tempdir().unwrap();
    let teams = TeamStore::new(
        FsStore::new(root.path()).unwrap(),
        FixedClock::at("2026-11-29T18:00:00Z").unwrap(),
    );
    for text in [CODER, REVIEWER] {
        let state = SessionState::from_json(text.as_bytes()).unwrap();
        teams.save("my-team", &state).unwrap();
        let path = root
            .path()
            .join(format!("teams/my-team/sessions/{}.json", state.name));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", path.display());
    }
    let listing = teams.list("my-team").unwrap();
    let agents: Vec<&str> = listing.members.iter().map(|m| m.agent.as_str()).collect();
    assert_eq!(agents, ["coder", "reviewer"]);
    assert!(teams.delete("my-team", "coder").unwrap());
    assert!(
        !root
            .path()
            .join("teams/my-team/sessions/coder.json")
            .exists()
    );
}
