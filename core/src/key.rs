//! Validated store keys (SPEC section 4).
//!
//! A [`Key`] is a relative path of segments joined by `/`. A segment is non-empty, at most
//! [`MAX_SEGMENT_BYTES`] bytes, is not `.` or `..`, and holds no `/`, `\`, NUL or control
//! character. Ids and names that become segments (session id, agent id, team and agent names)
//! go through [`Key::segment`] where they enter, so an unsafe id is an
//! [`ErrorKind::InvalidKey`] error naming it, never a path.

use std::fmt;

use crate::error::{Error, ErrorKind, Result};

/// Longest allowed segment, in bytes (the usual file-name limit).
pub const MAX_SEGMENT_BYTES: usize = 255;

/// A validated, relative, `/`-separated store key such as `.claude/orchestrator-session.json`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(String);

/// Checks one segment; `what` names the value in the error (e.g. "session id").
fn check_segment(segment: &str, what: &str) -> Result<()> {
    let problem = if segment.is_empty() {
        Some("is empty")
    } else if segment.len() > MAX_SEGMENT_BYTES {
        Some("is longer than 255 bytes")
    } else if segment == "." || segment == ".." {
        Some("is a relative path component")
    } else if segment.contains('/') || segment.contains('\\') {
        Some("contains a path separator")
    } else if segment.contains('\0') {
        Some("contains a NUL byte")
    } else if segment.chars().any(char::is_control) {
        Some("contains a control character")
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(problem) => Err(Error::new(
            ErrorKind::InvalidKey,
            format!("{what} `{}` {problem}", crate::error::shown(segment)),
        )
        .with_context("value", segment)),
    }
}

impl Key {
    /// Parses a whole key: every `/`-separated segment must be valid.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] naming the key when any segment is unsafe, or the key is empty
    /// or absolute.
    pub fn new(key: impl Into<String>) -> Result<Key> {
        let key = key.into();
        for segment in key.split('/') {
            check_segment(segment, "key segment").map_err(|e| {
                Error::new(
                    ErrorKind::InvalidKey,
                    format!(
                        "key `{}` is not safe: {}",
                        crate::error::shown(&key),
                        e.message()
                    ),
                )
                .with_context("value", key.clone())
            })?;
        }
        Ok(Key(key))
    }

    /// Validates an id or name that will become one key segment.
    ///
    /// `what` names it in the error message, e.g. `Key::segment("session id", id)`.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] naming the value.
    pub fn segment<'a>(what: &str, value: &'a str) -> Result<&'a str> {
        check_segment(value, what).map(|()| value)
    }

    /// This key with one more validated segment appended.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] when `segment` is not a safe segment.
    pub fn join(&self, segment: &str) -> Result<Key> {
        check_segment(segment, "key segment")?;
        Ok(Key(format!("{}/{segment}", self.0)))
    }

    /// This key with the file `{name}{extension}` appended, `name` called `what` in errors:
    /// `dir.join_file("agent name", agent, ".json")`.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] naming `what` and `name` when `name` is not a safe segment or
    /// the file name is longer than 255 bytes.
    pub fn join_file(&self, what: &str, name: &str, extension: &str) -> Result<Key> {
        check_segment(name, what)?;
        if name.len() + extension.len() > MAX_SEGMENT_BYTES {
            return Err(Error::new(
                ErrorKind::InvalidKey,
                format!(
                    "{what} `{}` is too long for a file name: at most {} bytes",
                    crate::error::shown(name),
                    MAX_SEGMENT_BYTES - extension.len()
                ),
            ));
        }
        self.join(&format!("{name}{extension}"))
    }

    /// The key as a string.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The segments of the key.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.0.split('/')
    }

    /// The last segment (the "file name").
    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }

    /// The key without its last segment, or `None` for a one-segment key.
    pub fn parent(&self) -> Option<Key> {
        self.0.rsplit_once('/').map(|(p, _)| Key(p.to_owned()))
    }

    /// Whether this key lies below the folder key `dir` (strictly).
    pub fn is_under(&self, dir: &Key) -> bool {
        self.0.len() > dir.0.len() + 1
            && self.0.starts_with(dir.0.as_str())
            && self.0.as_bytes()[dir.0.len()] == b'/'
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl TryFrom<&str> for Key {
    type Error = Error;
    fn try_from(value: &str) -> Result<Key> {
        Key::new(value)
    }
}

impl TryFrom<String> for Key {
    type Error = Error;
    fn try_from(value: String) -> Result<Key> {
        Key::new(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_keys() {
        for k in [
            ".claude/orchestrator-session.json",
            ".moai/memory/agent-sessions.json",
            "teams/my-team/sessions/coder.json",
            "a",
            "한국어/세션.json",
        ] {
            assert_eq!(Key::new(k).unwrap().as_str(), k);
        }
    }

    #[test]
    fn rejects_unsafe_keys_and_names_them() {
        let long = "x".repeat(256);
        for bad in [
            "", "/abs", "a//b", "a/", "..", "a/../b", ".", "a\\b", "a\0b", "a\nb", "a\u{7f}b",
            &long,
        ] {
            let err = Key::new(bad).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidKey, "{bad:?}");
            assert_eq!(err.context_value("value"), Some(bad));
        }
    }

    #[test]
    fn segment_rules() {
        assert!(Key::segment("session id", "2025-12-27-abc123").is_ok());
        assert!(Key::segment("session id", &"x".repeat(255)).is_ok());
        for bad in [
            "",
            ".",
            "..",
            "../x",
            "a/b",
            "a\\b",
            "a\0",
            &"x".repeat(256),
        ] {
            let err = Key::segment("session id", bad).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidKey);
            assert!(
                err.message().starts_with("session id `"),
                "{}",
                err.message()
            );
        }
    }

    #[test]
    fn join_parent_and_under() {
        let dir = Key::new(".claude/orchestrator-history").unwrap();
        let k = dir.join("a.json").unwrap();
        assert_eq!(k.as_str(), ".claude/orchestrator-history/a.json");
        assert_eq!(k.file_name(), "a.json");
        assert_eq!(k.parent(), Some(dir.clone()));
        assert!(k.is_under(&dir));
        assert!(!dir.is_under(&dir));
        assert!(
            !Key::new(".claude/orchestrator-historyx/a")
                .unwrap()
                .is_under(&dir)
        );
        assert!(dir.join("..").is_err());
    }
}
