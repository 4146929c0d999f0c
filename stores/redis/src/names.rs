//! How store keys map onto Redis keys.
//!
//! Under the prefix `P`, the bytes of key `a/b/c` live in the string `P:v:a/b/c`, and each
//! folder above it (`a`, `a/b`) has an index set `P:i:a`, `P:i:a/b` holding every key below
//! it at any depth, so `list` is one `SMEMBERS`. A write adds the key to its folders' sets and
//! a delete removes it, in the same change script (see `change.rs`). Each change of `a/b/c`
//! also increments the counters `P:m:a/b/c` and `P:m:a/b` (its folder): the key's and the
//! folder's marks. A write stages the new bytes in `P:s:a/b/c` and the script renames them onto
//! `P:v:a/b/c`.

use session_state::Key;

/// The Redis key holding the bytes of `key`.
pub(crate) fn value(prefix: &str, key: &Key) -> String {
    format!("{prefix}:v:{key}")
}

/// The Redis key holding the new bytes of `key` during a write, until the change script
/// renames it onto [`value`].
pub(crate) fn staged(prefix: &str, key: &Key) -> String {
    format!("{prefix}:s:{key}")
}

/// The Redis key of the index set of the folder key `folder`.
pub(crate) fn index(prefix: &str, folder: &Key) -> String {
    format!("{prefix}:i:{folder}")
}

/// The Redis key of the change counter of `key` (a value's or a folder's).
pub(crate) fn mark(prefix: &str, key: &Key) -> String {
    format!("{prefix}:m:{key}")
}

/// The change counters a change of `key` increments: its own and its folder's (`P:m:` alone
/// for a key at the top).
pub(crate) fn marks(prefix: &str, key: &Key) -> [String; 2] {
    let folder = key
        .parent()
        .map(|f| f.as_str().to_owned())
        .unwrap_or_default();
    [mark(prefix, key), format!("{prefix}:m:{folder}")]
}

/// The index sets `key` belongs to: one per folder above it.
pub(crate) fn indexes(prefix: &str, key: &Key) -> Vec<String> {
    let text = key.as_str();
    text.match_indices('/')
        .map(|(at, _)| format!("{prefix}:i:{}", &text[..at]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_belongs_to_each_folder_above_it() {
        let key = Key::new("a/b/c").unwrap();
        assert_eq!(value("p", &key), "p:v:a/b/c");
        assert_eq!(staged("p", &key), "p:s:a/b/c");
        assert_eq!(indexes("p", &key), ["p:i:a", "p:i:a/b"]);
        assert!(indexes("p", &Key::new("top").unwrap()).is_empty());
        assert_eq!(index("p", &Key::new("a/b").unwrap()), "p:i:a/b");
        assert_eq!(marks("p", &key), ["p:m:a/b/c", "p:m:a/b"]);
        assert_eq!(marks("p", &Key::new("top").unwrap()), ["p:m:top", "p:m:"]);
    }
}
