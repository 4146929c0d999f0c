//! Corrupt copies (SPEC section 1, "Recovery"; used by all three kinds of state).
//!
//! Before a corrupt file is replaced or dropped, its bytes are kept beside it as
//! `<key>.corrupt-<UTC stamp like 20261129T175600Z>`. The copy never overwrites another file
//! (`-1`, `-2`, ... is appended when the name is taken), and copies do not pile up: when a
//! `<key>.corrupt-*` sibling already holds exactly these bytes, its key is returned and
//! nothing is written. Copies do not end in `.json`, so no listing takes them for documents.
//! A file name too long for that suffix (over 226 bytes) is cut in the copy's name.

use chrono::{DateTime, Utc};

use crate::error::{Error, ErrorKind, Result};
use crate::key::{Key, MAX_SEGMENT_BYTES};
use crate::store::Store;

/// How many `-N` suffixes are tried for one stamp before giving up.
const MAX_SUFFIX: u32 = 1000;

/// The key of the corrupt copy of `key` taken at `now`: `<key>.corrupt-YYYYMMDDTHHMMSSZ`.
///
/// # Errors
/// [`ErrorKind::InvalidKey`] when the file name would get too long.
pub fn corrupt_copy_key(key: &Key, now: DateTime<Utc>) -> Result<Key> {
    let name = format!(
        "{}.corrupt-{}",
        copy_stem(key),
        crate::time::format_compact_stamp(now)
    );
    match key.parent() {
        Some(parent) => parent.join(&name),
        None => Key::new(name),
    }
}

/// The file name part of `key`'s copies: its file name, cut (at a character boundary) so that
/// `{stem}.corrupt-{stamp}-{n}` fits one key segment ([`MAX_SEGMENT_BYTES`]): a file whose
/// name is almost that long still gets a copy, so it can be replaced.
fn copy_stem(key: &Key) -> &str {
    // `.corrupt-` (9), the stamp `20261129T175600Z` (16), `-999` (4).
    const ROOM: usize = MAX_SEGMENT_BYTES - 9 - 16 - 4;
    let name = key.file_name();
    let mut end = name.len().min(ROOM);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Keeps `bytes` (the content of `key`) as a corrupt copy taken at `now` and returns the key
/// of the copy. When a sibling `<key>.corrupt-*` already holds identical bytes, that key is
/// returned and nothing is written; otherwise the bytes go to the first free name of
/// `<key>.corrupt-<stamp>`, `<stamp>-1`, `<stamp>-2`, ... (written with [`Store::write`]).
///
/// Safe to call inside a [`Store::update`] closure of `key`: it only lists, reads and writes
/// other keys.
///
/// # Errors
/// [`ErrorKind::Conflict`]
/// when 1000 copies of `key` already carry this second's stamp, [`ErrorKind::Storage`].
pub fn keep_corrupt_copy<S: Store + ?Sized>(
    store: &S,
    key: &Key,
    bytes: &[u8],
    now: DateTime<Utc>,
) -> Result<Key> {
    if let Some(existing) = identical_copy(store, key, bytes)? {
        return Ok(existing);
    }
    let base = corrupt_copy_key(key, now)?;
    for n in 0..MAX_SUFFIX {
        let copy = if n == 0 {
            base.clone()
        } else {
            Key::new(format!("{base}-{n}"))?
        };
        match store.read(&copy)? {
            None => {
                store.write(&copy, bytes)?;
                return Ok(copy);
            }
            Some(held) if held == bytes => return Ok(copy),
            Some(_) => {}
        }
    }
    Err(Error::new(
        ErrorKind::Conflict,
        format!("too many corrupt copies of `{key}` in one second"),
    )
    .with_context("key", key.as_str()))
}

/// A sibling `<key>.corrupt-*` holding exactly `bytes`, if any. Keys without a folder cannot
/// be listed: for them only the names probed by [`keep_corrupt_copy`] are compared.
fn identical_copy<S: Store + ?Sized>(store: &S, key: &Key, bytes: &[u8]) -> Result<Option<Key>> {
    let Some(parent) = key.parent() else {
        return Ok(None);
    };
    let prefix = format!("{}.corrupt-", copy_stem(key));
    for sibling in store.list(&parent)? {
        if sibling.parent().as_ref() != Some(&parent) || !sibling.file_name().starts_with(&prefix) {
            continue;
        }
        if store.read(&sibling)?.as_deref() == Some(bytes) {
            return Ok(Some(sibling));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;
    use crate::time::{Clock, FixedClock};

    fn now() -> DateTime<Utc> {
        FixedClock::at("2026-11-29T17:56:00Z").unwrap().now()
    }

    #[test]
    fn copy_key_has_the_utc_stamp() {
        let key = Key::new("a/b.json").unwrap();
        assert_eq!(
            corrupt_copy_key(&key, now()).unwrap().as_str(),
            "a/b.json.corrupt-20261129T175600Z"
        );
    }

    #[test]
    fn a_name_too_long_for_the_suffix_is_cut_in_the_copy() {
        let store = MemoryStore::new();
        let name = format!("{}.json", "é".repeat(124));
        let key = Key::new(format!("t/{name}")).unwrap();
        let copy = keep_corrupt_copy(&store, &key, b"{", now()).unwrap();
        let file = copy.file_name();
        assert!(file.len() <= 255 - 4, "{}", file.len());
        assert!(file.ends_with(".corrupt-20261129T175600Z"), "{file}");
        assert!(name.starts_with(file.split(".corrupt-").next().unwrap()));
        // Identical bytes find that copy again; other bytes get the next suffix.
        assert_eq!(keep_corrupt_copy(&store, &key, b"{", now()).unwrap(), copy);
        let next = keep_corrupt_copy(&store, &key, b"[", now()).unwrap();
        assert_eq!(next.as_str(), format!("{copy}-1"));
    }

    #[test]
    fn identical_bytes_reuse_the_existing_copy() {
        let store = MemoryStore::new();
        let key = Key::new("m/reg.json").unwrap();
        let first = keep_corrupt_copy(&store, &key, b"garbage", now()).unwrap();
        let later = now() + chrono::Duration::seconds(90);
        let second = keep_corrupt_copy(&store, &key, b"garbage", later).unwrap();
        assert_eq!(first, second);
        assert_eq!(store.list(&Key::new("m").unwrap()).unwrap(), vec![first]);
    }

    #[test]
    fn different_bytes_never_overwrite_a_copy() {
        let store = MemoryStore::new();
        let key = Key::new("m/reg.json").unwrap();
        let a = keep_corrupt_copy(&store, &key, b"one", now()).unwrap();
        let b = keep_corrupt_copy(&store, &key, b"two", now()).unwrap();
        assert_eq!(b.as_str(), format!("{a}-1"));
        assert_eq!(store.read(&a).unwrap().as_deref(), Some(&b"one"[..]));
        assert_eq!(store.read(&b).unwrap().as_deref(), Some(&b"two"[..]));
    }

    #[test]
    fn root_level_keys_dedupe_on_the_probed_names() {
        let store = MemoryStore::new();
        let key = Key::new("reg.json").unwrap();
        let a = keep_corrupt_copy(&store, &key, b"x", now()).unwrap();
        let b = keep_corrupt_copy(&store, &key, b"x", now()).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn other_files_of_the_folder_are_not_taken_for_copies() {
        let store = MemoryStore::new();
        let key = Key::new("m/reg.json").unwrap();
        store
            .write(&Key::new("m/other.json.corrupt-1").unwrap(), b"x")
            .unwrap();
        store
            .write(&Key::new("m/sub/reg.json.corrupt-1").unwrap(), b"x")
            .unwrap();
        let copy = keep_corrupt_copy(&store, &key, b"x", now()).unwrap();
        assert_eq!(copy.as_str(), "m/reg.json.corrupt-20261129T175600Z");
    }
}
