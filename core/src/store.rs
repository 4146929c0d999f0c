//! The storage trait every kind of state goes through, and the in-memory store.
//!
//! The core never touches a file: it reads and writes bytes under validated [`Key`]s through a
//! [`Store`]. `session-state-fs` maps keys onto a directory; the bindings add stores over host
//! objects (Python, JS) and browser storage.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};
use crate::key::Key;

/// The closure given to [`Store::update`]: it receives the current bytes (`None` when the key
/// is absent) and returns the bytes to write (`None` to leave the key as it is). An error
/// aborts the update and nothing is written.
pub type UpdateFn<'a> = dyn FnMut(Option<&[u8]>) -> Result<Option<Vec<u8>>> + 'a;

/// Keys to bytes, with an atomic replace and one read-modify-write primitive that never loses a
/// concurrent update.
///
/// Implementations must guarantee:
/// - [`write`](Store::write) replaces the value atomically: a reader sees the old bytes or the
///   new bytes, never a mix or a prefix, even if the process dies mid-write;
/// - [`update`](Store::update) is exclusive per key against every other `update` on the same
///   key through any handle of the same store (other threads, other processes for a shared
///   store): no update is lost. File stores lock, network stores can retry a compare-and-swap;
/// - no operation touches anything outside the store's own namespace, whatever the key.
///
/// The trait is object safe; `&S`, `Box<S>` and `Arc<S>` are stores when `S` is.
pub trait Store {
    /// The bytes under `key`, or `None` when there are none.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when the store fails.
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>>;

    /// Replaces the bytes under `key` atomically, creating it (and any folder) if needed.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when the store fails; the old value is then left intact.
    fn write(&self, key: &Key, data: &[u8]) -> Result<()>;

    /// Removes `key`; `true` if it existed.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when the store fails.
    fn delete(&self, key: &Key) -> Result<bool>;

    /// Every key strictly below the folder key `prefix` (at any depth), sorted by key.
    /// A missing folder lists as empty. Entries whose names are not valid keys are skipped.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when the store fails.
    fn list(&self, prefix: &Key) -> Result<Vec<Key>>;

    /// Exclusive read-modify-write of `key`: `apply` receives the current bytes and returns the
    /// bytes to write, or `None` to write nothing. `apply` may read and write *other* keys of the
    /// same store (for example to compact a journal into a base file), and may delete `key`
    /// itself when it then returns `None` (a final move archives and removes the current
    /// session under its lock); it must not call `update` or `append`.
    ///
    /// # Errors
    /// Whatever `apply` returns (then nothing is written), [`ErrorKind::Storage`] when the
    /// store fails, [`ErrorKind::Conflict`] when a store that retries gives up.
    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()>;

    /// Appends `data` to the bytes under `key` (creating it). The default does it through
    /// [`update`](Store::update); stores with a native append (files) override it.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when the store fails.
    fn append(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.update(key, &mut |old| {
            let mut bytes = old.map(<[u8]>::to_vec).unwrap_or_default();
            bytes.extend_from_slice(data);
            Ok(Some(bytes))
        })
    }

    /// What writers that died mid-write left below the folder key `prefix` (at any depth):
    /// for a file store, the temporary files of atomic replaces cut short by a kill, sorted by
    /// path. Never a key (they do not show in [`list`](Store::list)), and never what a live
    /// writer is still using. `doctor` reports them. The default, for a store whose writes
    /// leave nothing behind, finds none.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when the store fails.
    fn leftovers(&self, prefix: &Key) -> Result<Vec<Leftover>> {
        let _ = prefix;
        Ok(Vec::new())
    }

    /// Removes what [`leftovers`](Store::leftovers) finds below `prefix` (checking again that
    /// each is still stale) and returns what it removed. `doctor --fix` runs it.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when the store fails.
    fn remove_leftovers(&self, prefix: &Key) -> Result<Vec<Leftover>> {
        let _ = prefix;
        Ok(Vec::new())
    }

    /// The files below the folder key `prefix` (in folders a key names, at any depth) that
    /// [`list`](Store::list) leaves out because no key can name them (a name holding a control
    /// character or a backslash, or one that is not UTF-8, as another program may write); a
    /// folder no key names is neither walked nor reported. Sorted, each as
    /// its path below `prefix` with `/` between folders, not a key (text that is not UTF-8
    /// shown lossily). A listing that reports what it skips (a team's members) reports these.
    /// The default, for a store holding only what was written through keys, finds none.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when the store fails.
    fn unlisted(&self, prefix: &Key) -> Result<Vec<String>> {
        let _ = prefix;
        Ok(Vec::new())
    }

    /// A cheap change mark of `key`: while it reads the same, the bytes under `key` did not
    /// change, and, for a folder key, no key directly in the folder was added, removed or
    /// replaced, by this library or by hand. `None` when the store cannot vouch for that (it
    /// has no cheap mark, or the key changed too recently for its timestamps to tell): the
    /// caller then reads or lists. A mark may change more often than needed (after a write of
    /// the same bytes, or a change deeper down); a missing key or folder has a mark too.
    /// Callers read the mark *before* reading or listing, so a change made meanwhile shows as
    /// a new mark. The default has no mark.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when the store fails.
    fn mark(&self, key: &Key) -> Result<Option<String>> {
        let _ = key;
        Ok(None)
    }
}

/// A file a writer left behind when it died mid-write (see [`Store::leftovers`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Leftover {
    /// Where it is, relative to the store root with `/` between folders (e.g.
    /// `.claude/.orchestrator-session.json.tmp-4242-0`); not a key of the store.
    pub path: String,
    /// Its size in bytes.
    pub bytes: u64,
}

macro_rules! forward_store {
    ($($ty:ty),*) => {$(
        impl<S: Store + ?Sized> Store for $ty {
            fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> { (**self).read(key) }
            fn write(&self, key: &Key, data: &[u8]) -> Result<()> { (**self).write(key, data) }
            fn delete(&self, key: &Key) -> Result<bool> { (**self).delete(key) }
            fn list(&self, prefix: &Key) -> Result<Vec<Key>> { (**self).list(prefix) }
            fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
                (**self).update(key, apply)
            }
            fn append(&self, key: &Key, data: &[u8]) -> Result<()> { (**self).append(key, data) }
            fn leftovers(&self, prefix: &Key) -> Result<Vec<Leftover>> {
                (**self).leftovers(prefix)
            }
            fn remove_leftovers(&self, prefix: &Key) -> Result<Vec<Leftover>> {
                (**self).remove_leftovers(prefix)
            }
            fn unlisted(&self, prefix: &Key) -> Result<Vec<String>> {
                (**self).unlisted(prefix)
            }
            fn mark(&self, key: &Key) -> Result<Option<String>> { (**self).mark(key) }
        }
    )*};
}
forward_store!(&S, Box<S>, Arc<S>);

/// Runs `apply` inside [`Store::update`] and returns the value it produced alongside the bytes
/// to write. A convenience for callers that need a result out of the update.
///
/// `apply` returns `(bytes to write or None, value)`.
///
/// # Errors
/// As [`Store::update`].
pub fn update_with<S, T, F>(store: &S, key: &Key, mut apply: F) -> Result<T>
where
    S: Store + ?Sized,
    F: FnMut(Option<&[u8]>) -> Result<(Option<Vec<u8>>, T)>,
{
    let mut out = None;
    store.update(key, &mut |old| {
        let (bytes, value) = apply(old)?;
        out = Some(value);
        Ok(bytes)
    })?;
    out.ok_or_else(|| {
        Error::new(
            ErrorKind::Storage,
            format!("store did not run the update of `{key}`"),
        )
    })
}

/// The read-modify-write of `key` through `store`'s own `read` and `write`, without a lock:
/// for a store whose caller serialises updates itself (the bindings' host store objects,
/// guarded by a lock or busy mark of the binding's language). `apply` gets the current
/// bytes; a `None` from it writes nothing.
///
/// # Errors
/// What `read`, `apply` or `write` return.
pub fn read_apply_write<S: Store + ?Sized>(
    store: &S,
    key: &Key,
    apply: &mut UpdateFn<'_>,
) -> Result<()> {
    if let Some(bytes) = apply(store.read(key)?.as_deref())? {
        store.write(key, &bytes)?;
    }
    Ok(())
}

/// A store in memory, for tests and for hosts that keep state themselves. Cheap to clone:
/// clones share the same map. `update` holds one update lock (for every key) for the whole
/// read-modify-write; an `update` started by its own `apply` (on the same thread) is
/// [`ErrorKind::Conflict`] at once instead of waiting for itself forever. Its
/// [`mark`](Store::mark) of a key is the number of the last change of it, or directly in it.
#[derive(Clone, Debug, Default)]
pub struct MemoryStore {
    map: Arc<Mutex<BTreeMap<Key, Vec<u8>>>>,
    /// Key to the number of the last change of it or directly in it (a folder), and the
    /// count of every change so far (under the same lock).
    changes: Arc<Mutex<(BTreeMap<String, u64>, u64)>>,
    updates: Arc<Mutex<()>>,
    /// The thread running an update, if any: re-entry from it is refused, not deadlocked.
    updating: Arc<Mutex<Option<std::thread::ThreadId>>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn map(&self) -> Result<MutexGuard<'_, BTreeMap<Key, Vec<u8>>>> {
        self.map.lock().map_err(poisoned)
    }

    /// Number of keys held.
    pub fn len(&self) -> usize {
        self.map().map_or(0, |m| m.len())
    }

    /// Whether the store holds no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Notes a change of `key` in its mark and its folder's.
    fn changed(&self, key: &Key) -> Result<()> {
        let folder = key
            .parent()
            .map(|p| p.as_str().to_owned())
            .unwrap_or_default();
        let mut changes = self.changes.lock().map_err(poisoned)?;
        changes.1 += 1;
        let count = changes.1;
        changes.0.insert(folder, count);
        changes.0.insert(key.as_str().to_owned(), count);
        Ok(())
    }
}

/// The error of a [`MemoryStore`] lock poisoned by a panic.
fn poisoned<T>(_: std::sync::PoisonError<T>) -> Error {
    Error::new(
        ErrorKind::Storage,
        "memory store lock poisoned by a panic in another thread",
    )
}

impl Store for MemoryStore {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        Ok(self.map()?.get(key).cloned())
    }

    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.map()?.insert(key.clone(), data.to_vec());
        self.changed(key)
    }

    fn delete(&self, key: &Key) -> Result<bool> {
        let existed = self.map()?.remove(key).is_some();
        if existed {
            self.changed(key)?;
        }
        Ok(existed)
    }

    fn mark(&self, key: &Key) -> Result<Option<String>> {
        let changes = self.changes.lock().map_err(poisoned)?;
        let last = changes.0.get(key.as_str()).copied().unwrap_or(0);
        Ok(Some(last.to_string()))
    }

    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        Ok(self
            .map()?
            .keys()
            .filter(|k| k.is_under(prefix))
            .cloned()
            .collect())
    }

    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        let me = std::thread::current().id();
        if *self.updating.lock().map_err(poisoned)? == Some(me) {
            return Err(Error::new(
                ErrorKind::Conflict,
                format!(
                    "memory store re-entered: an update of `{key}` was started from inside                      another update of the same store (an update's closure must not update the                      store again)"
                ),
            )
            .with_context("key", key.as_str()));
        }
        let _exclusive = self.updates.lock().map_err(poisoned)?;
        *self.updating.lock().map_err(poisoned)? = Some(me);
        let result = self.read(key).and_then(|current| {
            if let Some(bytes) = apply(current.as_deref())? {
                self.write(key, &bytes)?;
            }
            Ok(())
        });
        *self.updating.lock().map_err(poisoned)? = None;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(s: &str) -> Key {
        Key::new(s).unwrap()
    }

    #[test]
    fn an_update_started_inside_an_update_is_a_conflict_not_a_hang() {
        let s = MemoryStore::new();
        let mut inner = None;
        s.update(&k("a"), &mut |_| {
            inner = Some(s.update(&k("b"), &mut |_| Ok(Some(b"2".to_vec()))));
            Ok(Some(b"1".to_vec()))
        })
        .unwrap();
        let err = inner.unwrap().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Conflict, "{err}");
        assert_eq!(err.context_value("key"), Some("b"));
        assert_eq!(s.read(&k("b")).unwrap(), None);
        // The store works afterwards, also from another thread.
        let clone = s.clone();
        std::thread::spawn(move || clone.update(&k("b"), &mut |_| Ok(Some(b"3".to_vec()))))
            .join()
            .unwrap()
            .unwrap();
        assert_eq!(s.read(&k("b")).unwrap().unwrap(), b"3");
    }

    #[test]
    fn read_write_delete_list() {
        let s = MemoryStore::new();
        assert_eq!(s.read(&k("a/b")).unwrap(), None);
        s.write(&k("a/b"), b"1").unwrap();
        s.write(&k("a/c/d"), b"2").unwrap();
        s.write(&k("ab"), b"3").unwrap();
        assert_eq!(s.read(&k("a/b")).unwrap().as_deref(), Some(&b"1"[..]));
        assert_eq!(s.list(&k("a")).unwrap(), vec![k("a/b"), k("a/c/d")]);
        assert!(s.delete(&k("a/b")).unwrap());
        assert!(!s.delete(&k("a/b")).unwrap());
        assert_eq!(s.list(&k("a")).unwrap(), vec![k("a/c/d")]);
    }

    #[test]
    fn update_writes_only_when_asked_and_aborts_on_error() {
        let s = MemoryStore::new();
        let key = k("n");
        let seen = update_with(&s, &key, |old| Ok((Some(b"x".to_vec()), old.is_none()))).unwrap();
        assert!(seen);
        s.update(&key, &mut |_| Ok(None)).unwrap();
        assert_eq!(s.read(&key).unwrap().as_deref(), Some(&b"x"[..]));
        let err = s
            .update(&key, &mut |_| Err(Error::invalid_input("no")))
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        assert_eq!(s.read(&key).unwrap().as_deref(), Some(&b"x"[..]));
        s.append(&key, b"yz").unwrap();
        assert_eq!(s.read(&key).unwrap().as_deref(), Some(&b"xyz"[..]));
    }

    #[test]
    fn clones_share_state_and_dyn_forwarding_works() {
        let s = MemoryStore::new();
        let boxed: Box<dyn Store> = Box::new(s.clone());
        boxed.write(&k("x"), b"1").unwrap();
        assert_eq!(s.len(), 1);
        let arc = Arc::new(s.clone());
        assert_eq!(
            Store::read(&&arc, &k("x")).unwrap().as_deref(),
            Some(&b"1"[..])
        );
    }
}
