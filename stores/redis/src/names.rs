//! How store keys map onto Redis keys.
//!
//! Under the prefix `P`, the bytes of key `a/b/c` live in the string `P:v:a/b/c`, and each
//! folder above it (`a`, `a/b`) has an index set `P:i:a`, `P:i:a/b` holding every key below
//! it at any depth, so `list` is one `SMEMBERS`. A write adds the key to its folders' sets and
//! a delete removes it, in the same `MULTI`/`EXEC`.

use session_state::Key;

/// The Redis key holding the bytes of `key`.
pub(crate) fn value(prefix: &str, key: &Key) -> String {
    format!("{prefix}:v:{key}")
}

/// The Redis key of the index set of the folder key `folder`.
pub(crate) fn index(prefix: &str, folder: &Key) -> String {
    format!("{prefix}:i:{folder}")
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
        assert_eq!(indexes("p", &key), ["p:i:a", "p:i:a/b"]);
        assert!(indexes("p", &Key::new("top").unwrap()).is_empty());
        assert_eq!(index("p", &Key::new("a/b").unwrap()), "p:i:a/b");
    }
}
