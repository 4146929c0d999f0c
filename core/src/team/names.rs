//! Team and agent name rules, and the keys built from them (SPEC section 3, "Key").
//!
//! A name is valid when the `agent-teams` crate's `validate_name` accepts it: non-empty, at
//! most [`MAX_NAME_BYTES`] bytes, not `.` or `..`, and free of `/`, `\` and NUL. Names are
//! checked here before any key is built; [`Key`] then adds its own rules (no control
//! character, and the file name `{agent}.json` must fit in 255 bytes), which the crate leaves
//! to the filesystem.

use crate::error::{Error, ErrorKind, Result};
use crate::key::Key;

/// Longest team or agent name, in bytes (as the crate).
pub(crate) const MAX_NAME_BYTES: usize = 255;

/// The folder key that holds every team: `teams`.
pub(crate) const TEAMS_FOLDER: &str = "teams";

/// The folder below a team that holds its session files: `sessions`.
pub(crate) const SESSIONS_FOLDER: &str = "sessions";

/// The extension of a session file: `.json`.
pub(crate) const SESSION_EXTENSION: &str = ".json";

/// Checks a team or agent name by the crate's rules; `what` names it in the error
/// (`"team name"`, `"agent name"`).
///
/// # Errors
/// [`ErrorKind::InvalidKey`] naming the value (long values are cut to 32 characters in the
/// message; the context pair `value` holds the whole name).
pub fn validate_name(what: &str, name: &str) -> Result<()> {
    let problem = if name.is_empty() {
        "is empty".to_owned()
    } else if name.len() > MAX_NAME_BYTES {
        format!("is too long ({} bytes, max {MAX_NAME_BYTES})", name.len())
    } else if name.contains(['/', '\\']) {
        "contains a path separator".to_owned()
    } else if name.contains('\0') {
        "contains a NUL byte".to_owned()
    } else if name == "." || name == ".." {
        "is a relative path component".to_owned()
    } else {
        return Ok(());
    };
    let shown: String = name.chars().take(32).collect();
    let ellipsis = if shown.len() < name.len() { "..." } else { "" };
    Err(Error::new(
        ErrorKind::InvalidKey,
        format!("{what} `{}{ellipsis}` {problem}", shown.escape_debug()),
    )
    .with_context("value", name))
}

/// The folder key `teams`.
pub(crate) fn teams_folder() -> Key {
    Key::new(TEAMS_FOLDER).expect("`teams` is a valid key")
}

/// The folder key `teams/{team}/sessions`.
///
/// # Errors
/// [`ErrorKind::InvalidKey`] when `team` is not a valid name.
pub(crate) fn sessions_folder(team: &str) -> Result<Key> {
    validate_name("team name", team)?;
    Key::segment("team name", team)?;
    teams_folder().join(team)?.join(SESSIONS_FOLDER)
}

/// The key `teams/{team}/sessions/{agent}.json` of one agent's session state.
///
/// # Errors
/// [`ErrorKind::InvalidKey`] when `team` or `agent` is not a valid name, or when the file name
/// would not be a valid key segment (control character, more than 255 bytes).
pub fn session_key(team: &str, agent: &str) -> Result<Key> {
    let folder = sessions_folder(team)?;
    validate_name("agent name", agent)?;
    folder.join_file("agent name", agent, SESSION_EXTENSION)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_crate_valid_names() {
        for ok in ["my-team", "a b", "한국어", "..a", "a.", &"x".repeat(255)] {
            assert!(validate_name("team name", ok).is_ok(), "{ok:?}");
        }
    }

    #[test]
    fn rejects_crate_invalid_names() {
        for bad in ["", ".", "..", "a/b", "a\\b", "a\0b", &"x".repeat(256)] {
            let err = validate_name("agent name", bad).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidKey, "{bad:?}");
            assert_eq!(err.context_value("value"), Some(bad));
            assert!(
                err.message().starts_with("agent name `"),
                "{}",
                err.message()
            );
        }
        let long = validate_name("agent name", &"é".repeat(200)).unwrap_err();
        assert!(long.message().contains("400 bytes"), "{}", long.message());
    }

    #[test]
    fn keys_follow_the_layout() {
        assert_eq!(
            session_key("my-team", "coder").unwrap().as_str(),
            "teams/my-team/sessions/coder.json"
        );
        assert_eq!(sessions_folder("t").unwrap().as_str(), "teams/t/sessions");
        assert_eq!(
            session_key("..", "a").unwrap_err().kind(),
            ErrorKind::InvalidKey
        );
        // Valid for the crate, but `{agent}.json` is longer than a file name may be.
        let err = session_key("t", &"x".repeat(251)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidKey);
    }
}
