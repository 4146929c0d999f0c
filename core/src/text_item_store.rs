//! A [`Store`] over a storage of text items (Web Storage such as the browser's `localStorage`):
//! each key is the item named `prefix + key`.
//!
//! Documents are UTF-8 JSON, so the common case is stored as the text itself, readable in the
//! browser's devtools. Bytes that are not valid UTF-8, or text that starts with a NUL character
//! (which no JSON document does), are stored as the marker `"\0base64:"` followed by standard
//! padded base64. A string starting with NUL that is not that form (someone else wrote the value)
//! reads as its own UTF-8 bytes, like any other foreign text: a document reader then finds it
//! corrupt and keeps it aside, as it would a torn file. A write is one `set`, so it replaces the
//! value whole or not at all; `update` is read, apply, write (exclusive only as far as the
//! storage's caller runs one call at a time).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use crate::key_listing::keys_under;
use crate::{Key, Result, Store, UpdateFn, read_apply_write};

/// Prefix of the base64 form: a NUL character, then `base64:`.
pub(crate) const BASE64_MARKER: &str = "\0base64:";

/// The storage under a [`TextItemStore`]: items named by strings, each holding a string. `key`
/// and `action` (`"read"`, `"write"`, `"delete"`, `"list"`) are for the errors to name.
pub trait TextItems {
    /// The text of the item `name`, or `None` when there is none.
    ///
    /// # Errors
    /// A `storage` error when the storage fails.
    fn get(&self, name: &str, key: &Key, action: &str) -> Result<Option<String>>;
    /// Sets the item `name` to `text`, all or nothing.
    ///
    /// # Errors
    /// A `storage` error when the storage fails (a full quota).
    fn set(&self, name: &str, text: &str, key: &Key) -> Result<()>;
    /// Removes the item `name` (nothing when there is none).
    ///
    /// # Errors
    /// A `storage` error when the storage fails.
    fn remove(&self, name: &str, key: &Key) -> Result<()>;
    /// Every item name in the storage.
    ///
    /// # Errors
    /// A `storage` error when the storage fails.
    fn names(&self, prefix: &Key) -> Result<Vec<String>>;
}

/// A store of text items named `prefix + key`. An empty prefix lists every item whose name is
/// a valid key.
#[derive(Clone, Debug)]
pub struct TextItemStore<T> {
    prefix: String,
    items: T,
}

impl<T: TextItems> TextItemStore<T> {
    /// The store over `items` under the name prefix `prefix`.
    pub fn new(prefix: impl Into<String>, items: T) -> Self {
        TextItemStore {
            prefix: prefix.into(),
            items,
        }
    }

    /// The prefix every item name starts with.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    fn item(&self, key: &Key) -> String {
        format!("{}{}", self.prefix, key.as_str())
    }
}

impl<T: TextItems> Store for TextItemStore<T> {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        Ok(self.items.get(&self.item(key), key, "read")?.map(decode))
    }

    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.items.set(&self.item(key), &encode(data), key)
    }

    fn delete(&self, key: &Key) -> Result<bool> {
        let item = self.item(key);
        let existed = self.items.get(&item, key, "delete")?.is_some();
        self.items.remove(&item, key)?;
        Ok(existed)
    }

    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        let names = self.items.names(prefix)?.into_iter();
        let own = names.filter_map(|n| n.strip_prefix(self.prefix.as_str()).map(str::to_owned));
        Ok(keys_under(prefix, own))
    }

    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        read_apply_write(self, key, apply)
    }
}

/// The string that stores `bytes`: their text when they are UTF-8 not starting with NUL, else
/// [`BASE64_MARKER`] and their base64.
pub(crate) fn encode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.starts_with('\0') => text.to_owned(),
        _ => {
            let mut out = String::from(BASE64_MARKER);
            STANDARD.encode_string(bytes, &mut out);
            out
        }
    }
}

/// The bytes a stored string holds: the base64 form decoded, any other string's UTF-8 bytes
/// (also a string that starts with the marker but whose base64 is broken).
pub(crate) fn decode(stored: String) -> Vec<u8> {
    stored
        .strip_prefix(BASE64_MARKER)
        .and_then(|b64| STANDARD.decode(b64).ok())
        .unwrap_or_else(|| stored.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_json_is_stored_as_text() {
        let doc = "{\"session_id\":\"é-1\",\"n\":[1,2]}";
        assert_eq!(encode(doc.as_bytes()), doc);
        assert_eq!(decode(doc.to_owned()), doc.as_bytes());
        assert_eq!(encode(b""), "");
        assert_eq!(decode(String::new()), b"");
    }

    #[test]
    fn invalid_utf8_and_leading_nul_use_base64() {
        let cases: [&[u8]; 4] = [b"\xff\xfe{", b"\0base64:AAAA", b"\0", b"ok\xc3"];
        for bytes in cases {
            let stored = encode(bytes);
            assert!(stored.starts_with(BASE64_MARKER), "{stored:?}");
            assert_eq!(decode(stored), bytes);
        }
        assert_eq!(encode(b"\xff"), "\0base64:/w==");
    }

    #[test]
    fn foreign_nul_values_that_are_not_base64_read_as_their_text() {
        assert_eq!(decode("\0base64:***".to_owned()), b"\0base64:***");
        assert_eq!(decode("\0other".to_owned()), b"\0other");
    }

    /// Items in a map, the way a Web Storage holds them.
    #[derive(Default)]
    struct Items(std::sync::Mutex<std::collections::BTreeMap<String, String>>);

    impl TextItems for Items {
        fn get(&self, name: &str, _: &Key, _: &str) -> Result<Option<String>> {
            Ok(self.0.lock().unwrap().get(name).cloned())
        }
        fn set(&self, name: &str, text: &str, _: &Key) -> Result<()> {
            self.0
                .lock()
                .unwrap()
                .insert(name.to_owned(), text.to_owned());
            Ok(())
        }
        fn remove(&self, name: &str, _: &Key) -> Result<()> {
            self.0.lock().unwrap().remove(name);
            Ok(())
        }
        fn names(&self, _: &Key) -> Result<Vec<String>> {
            Ok(self.0.lock().unwrap().keys().cloned().collect())
        }
    }

    #[test]
    fn items_are_named_prefix_plus_key_and_list_only_their_own() {
        let store = TextItemStore::new("app/", Items::default());
        let key = Key::new("a/b.json").unwrap();
        store.write(&key, b"{}").unwrap();
        store.write(&Key::new("a/c").unwrap(), b"\xff").unwrap();
        store.items.set("other/a/d", "x", &key).unwrap();
        assert_eq!(
            store
                .items
                .get("app/a/b.json", &key, "read")
                .unwrap()
                .as_deref(),
            Some("{}")
        );
        assert_eq!(
            store.read(&Key::new("a/c").unwrap()).unwrap().unwrap(),
            b"\xff"
        );
        let listed = store.list(&Key::new("a").unwrap()).unwrap();
        assert_eq!(listed, [key.clone(), Key::new("a/c").unwrap()]);
        assert!(store.delete(&key).unwrap());
        assert!(!store.delete(&key).unwrap());
        assert_eq!(store.read(&key).unwrap(), None);
    }
}
