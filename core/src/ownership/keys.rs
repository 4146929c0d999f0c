//! The keys of ownership: the lease beside the session and the live-session folder.

use crate::error::Result;
use crate::key::Key;

/// Key of the lease of the current session (beside `.claude/orchestrator-session.json`).
pub const OWNER_KEY: &str = ".claude/orchestrator-session.owner.json";
/// Folder key of the live-session entries, one `{session_id}.json` each.
pub const LIVE_DIR: &str = ".claude/live";
/// Key whose exclusive update orders every claim and release of scopes (beside the folder).
pub const SCOPES_KEY: &str = ".claude/live.scopes.json";

fn constant(key: &str) -> Key {
    // The constants above are valid keys; a test checks it.
    Key::new(key).unwrap_or_else(|_| unreachable!("constant key {key} is valid"))
}

/// [`OWNER_KEY`] as a [`Key`].
pub fn owner_key() -> Key {
    constant(OWNER_KEY)
}

/// [`LIVE_DIR`] as a [`Key`].
pub fn live_dir() -> Key {
    constant(LIVE_DIR)
}

/// The lease key of the session stored under `session`: its name with `.json` replaced by
/// `.owner.json` (any other name gets `.owner.json` added).
///
/// # Errors
/// [`ErrorKind::InvalidKey`](crate::ErrorKind::InvalidKey) when the name would be too long.
pub fn owner_key_for(session: &Key) -> Result<Key> {
    let name = session.file_name();
    let stem = name.strip_suffix(".json").unwrap_or(name);
    let owner = format!("{stem}.owner.json");
    match session.parent() {
        Some(parent) => parent.join(&owner),
        None => Key::new(owner),
    }
}

/// The key of the scopes' order beside the live folder `dir` (`{dir}.scopes.json`).
pub(crate) fn scopes_key_for(dir: &Key) -> Result<Key> {
    let name = format!("{}.scopes.json", dir.file_name());
    match dir.parent() {
        Some(parent) => parent.join(&name),
        None => Key::new(name),
    }
}

/// The live entry of `session_id` in the folder `dir`: `{dir}/{session_id}.json`.
///
/// # Errors
/// [`ErrorKind::InvalidKey`](crate::ErrorKind::InvalidKey) naming the id when it is not a safe segment or is too long.
pub fn live_key_in(dir: &Key, session_id: &str) -> Result<Key> {
    named_live_key(dir, ("session id", "session_id"), session_id)
}

/// The live entry of a caller in the folder `dir`, and the id naming it: `session_id` when
/// given, else `owner` (so an error names the owner when the owner is what names the file).
///
/// # Errors
/// As [`live_key_in`], naming `owner` when it names the entry.
pub(crate) fn caller_live_key<'a>(
    dir: &Key,
    session_id: Option<&'a str>,
    owner: &'a str,
) -> Result<(Key, &'a str)> {
    let (names, id) = match session_id {
        Some(id) => (("session id", "session_id"), id),
        None => (("owner", "owner"), owner),
    };
    Ok((named_live_key(dir, names, id)?, id))
}

/// `{dir}/{id}.json`, with errors calling `id` a `what` (context `field`: `field`).
fn named_live_key(dir: &Key, (what, field): (&str, &'static str), id: &str) -> Result<Key> {
    dir.join_file(what, id, ".json")
        .map_err(|e| e.with_context("field", field).with_context(field, id))
}

/// The live entry of `session_id`: `.claude/live/{session_id}.json`.
///
/// # Errors
/// As [`live_key_in`].
pub fn live_key(session_id: &str) -> Result<Key> {
    live_key_in(&live_dir(), session_id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orchestrator::current_key;

    #[test]
    fn keys_sit_beside_what_they_belong_to() {
        assert_eq!(owner_key().as_str(), OWNER_KEY);
        assert_eq!(owner_key_for(&current_key()).unwrap(), owner_key());
        assert_eq!(
            owner_key_for(&Key::new("s/case/x.json").unwrap())
                .unwrap()
                .as_str(),
            "s/case/x.owner.json"
        );
        assert_eq!(scopes_key_for(&live_dir()).unwrap().as_str(), SCOPES_KEY);
        assert_eq!(live_key("abc").unwrap().as_str(), ".claude/live/abc.json");
        for bad in ["../x", "a/b", "", &"x".repeat(252)] {
            assert_eq!(live_key(bad).unwrap_err().code(), "invalid_key", "{bad:?}");
        }
    }
}
