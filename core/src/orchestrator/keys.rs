//! The keys of the orchestrator session (SPEC section 1, "Keys").

use crate::error::{Error, ErrorKind, Result};
use crate::key::{Key, MAX_SEGMENT_BYTES};

/// Key of the current session.
pub const CURRENT_KEY: &str = ".claude/orchestrator-session.json";
/// Folder key of the archived sessions.
pub(crate) const HISTORY_DIR: &str = ".claude/orchestrator-history";
/// Key of the history listing index (outside the history folder; rebuilt from the files).
pub const INDEX_KEY: &str = ".claude/orchestrator-history.index.json";
/// Key of the index's journal: the records of archives made since the index was last
/// written, one JSON line each (folded into the index by the next listing).
pub const INDEX_JOURNAL_KEY: &str = ".claude/orchestrator-history.index.journal";
/// Key of the listing's head: the newest entries and the counts, with the marks of the
/// history folder, the index and its journal they were taken from.
pub const INDEX_HEAD_KEY: &str = ".claude/orchestrator-history.head.json";

fn constant(key: &str) -> Key {
    // The constants above are valid keys; a test checks it.
    Key::new(key).unwrap_or_else(|_| unreachable!("constant key {key} is valid"))
}

/// [`CURRENT_KEY`] as a [`Key`].
pub fn current_key() -> Key {
    constant(CURRENT_KEY)
}

/// The history folder, `.claude/orchestrator-history`, as a [`Key`].
pub fn history_dir() -> Key {
    constant(HISTORY_DIR)
}

/// [`INDEX_KEY`] as a [`Key`].
pub fn index_key() -> Key {
    constant(INDEX_KEY)
}

/// [`INDEX_JOURNAL_KEY`] as a [`Key`].
pub fn index_journal_key() -> Key {
    constant(INDEX_JOURNAL_KEY)
}

/// [`INDEX_HEAD_KEY`] as a [`Key`].
pub fn index_head_key() -> Key {
    constant(INDEX_HEAD_KEY)
}

/// The archive key of `session_id`: `.claude/orchestrator-history/{session_id}.json`.
///
/// # Errors
/// [`ErrorKind::InvalidKey`] naming the id when it is not a safe segment, or when it is too
/// long for a file name once `.json` is added (ids of at most 250 bytes fit).
pub fn history_key(session_id: &str) -> Result<Key> {
    Key::segment("session id", session_id)?;
    let name = format!("{session_id}.json");
    if name.len() > MAX_SEGMENT_BYTES {
        return Err(Error::new(
            ErrorKind::InvalidKey,
            format!(
                "session id `{}` is too long for a file name: `{{id}}.json` would be {} bytes, \
                 at most {MAX_SEGMENT_BYTES}",
                session_id.escape_debug(),
                name.len()
            ),
        )
        .with_context("session_id", session_id));
    }
    history_dir().join(&name)
}

/// The session id of a history key: its file name without `.json`, when it is a direct child
/// of the history folder.
pub fn history_id(key: &Key) -> Option<&str> {
    history_file_stem(key).filter(|id| !id.is_empty())
}

/// Whether `key` is a history file: a `*.json` directly in the history folder, as the seed's
/// `glob("*.json")` finds them (also `.json`, whose name holds no id; its document has one).
pub(crate) fn is_history_file(key: &Key) -> bool {
    history_file_stem(key).is_some()
}

fn history_file_stem(key: &Key) -> Option<&str> {
    let rest = key.as_str().strip_prefix(HISTORY_DIR)?.strip_prefix('/')?;
    if rest.contains('/') {
        return None;
    }
    rest.strip_suffix(".json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_keys_and_ids_round_trip() {
        assert_eq!(current_key().as_str(), CURRENT_KEY);
        assert_eq!(index_key().as_str(), INDEX_KEY);
        assert_eq!(index_journal_key().as_str(), INDEX_JOURNAL_KEY);
        assert_eq!(index_head_key().as_str(), INDEX_HEAD_KEY);
        let key = history_key("2025-12-27-abc123").unwrap();
        assert_eq!(history_id(&key), Some("2025-12-27-abc123"));
        assert_eq!(
            history_id(&Key::new(".claude/orchestrator-history/a/b.json").unwrap()),
            None
        );
        assert_eq!(
            history_id(&Key::new(".claude/orchestrator-history/x.json.corrupt-1").unwrap()),
            None
        );
        for bad in ["../x", "a/b", "..", "a\0b", &"x".repeat(300)] {
            assert_eq!(
                history_key(bad).unwrap_err().code(),
                "invalid_key",
                "{bad:?}"
            );
        }
    }
}
