//! A host store: any Python object with `read`, `write`, `delete` and `list` methods. Its
//! exceptions travel inside the core error as the source and are re-raised unchanged.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError, TryLockError, Weak};
use std::thread::ThreadId;
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyList, PyMemoryView, PyString, PyTuple};
use session_state::{Error, ErrorKind, Key, Result, Store, UpdateFn, keys_under, read_apply_write};

use crate::args::type_name;
use crate::convert::Obj;

/// A Python object used as a store.
#[derive(Debug)]
pub struct HostStore {
    object: Py<PyAny>,
    /// Shared by every `HostStore` over the same Python object ([`HostStore::new`]).
    lock: Arc<HostLock>,
}

/// The update lock of one host object, shared by every wrapper over it (two handles over one
/// store), so that their read-modify-writes are serialised against each other.
#[derive(Debug, Default)]
struct HostLock {
    updates: Mutex<()>,
    /// The thread inside `update`, to refuse a re-entrant update instead of deadlocking.
    owner: Mutex<Option<ThreadId>>,
}

/// The lock of each live host object, by address: a `HostStore` keeps its object (and so its
/// address) alive; once the last one is dropped the `Weak` is dead and the entry goes at the
/// next lookup (a new object at a reused address gets a new lock).
static HOST_LOCKS: Mutex<BTreeMap<usize, Weak<HostLock>>> = Mutex::new(BTreeMap::new());

impl HostStore {
    /// The store over `object`, with the lock of that object (created on first use).
    pub fn new(object: &Obj<'_>) -> HostStore {
        let address = object.as_ptr() as usize;
        // A poisoned map is still a valid map: each step below leaves it consistent.
        let mut locks = HOST_LOCKS.lock().unwrap_or_else(PoisonError::into_inner);
        let lock = locks
            .get(&address)
            .and_then(Weak::upgrade)
            .unwrap_or_else(|| {
                locks.retain(|_, lock| lock.strong_count() > 0);
                let lock = Arc::new(HostLock::default());
                locks.insert(address, Arc::downgrade(&lock));
                lock
            });
        HostStore {
            object: object.clone().unbind(),
            lock,
        }
    }

    /// `method(key)`, or `method(key, data)`, on the object; `check` reads what it returned,
    /// `Err((what it was, expected))` for a wrong type. An exception is the error's source.
    fn call<T, F>(&self, key: &Key, method: &str, data: Option<&[u8]>, check: F) -> Result<T>
    where
        F: FnOnce(&Obj<'_>) -> PyResult<std::result::Result<T, (String, &'static str)>>,
    {
        Python::attach(|py| {
            let object = self.object.bind(py);
            let returned = match data {
                Some(data) => object.call_method1(method, (key.as_str(), PyBytes::new(py, data))),
                None => object.call_method1(method, (key.as_str(),)),
            };
            returned.and_then(|value| check(&value))
        })
        .map_err(|e| Error::storage(key, method, e))?
        .map_err(|(got, expected)| Error::host_returned(key, method, got, expected))
    }
}

impl Store for HostStore {
    /// `read` may return `bytes` (`bytearray`, `memoryview`), a `str` (UTF-8) or `None`.
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        self.call(key, "read", None, |value| {
            let wrong = |expected| Ok(Err((type_name(value), expected)));
            if value.is_none() {
                return Ok(Ok(None));
            }
            if let Ok(text) = value.cast::<PyString>() {
                // A lone surrogate has no UTF-8 form.
                return match text.to_cow() {
                    Ok(text) => Ok(Ok(Some(text.into_owned().into_bytes()))),
                    Err(_) => wrong("bytes, str (valid Unicode) or None"),
                };
            }
            let bytes = match value.cast::<PyMemoryView>() {
                Ok(view) => view.call_method0("tobytes")?,
                Err(_) => value.clone(),
            };
            if let Ok(bytes) = bytes.cast::<PyBytes>() {
                return Ok(Ok(Some(bytes.as_bytes().to_vec())));
            }
            match bytes.cast::<PyByteArray>() {
                Ok(array) => Ok(Ok(Some(array.to_vec()))),
                Err(_) => wrong("bytes, str or None"),
            }
        })
    }

    /// What `write` returns is ignored.
    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.call(key, "write", Some(data), |_| Ok(Ok(())))
    }

    /// `delete` must return a `bool`.
    fn delete(&self, key: &Key) -> Result<bool> {
        self.call(key, "delete", None, |value| match value.cast::<PyBool>() {
            Ok(existed) => Ok(Ok(existed.is_true())),
            Err(_) => Ok(Err((type_name(value), "bool"))),
        })
    }

    /// `list` must return a `list` (or `tuple`) of `str`.
    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        let expected = "a list of str";
        let names: Vec<String> = self.call(prefix, "list", None, |listed| {
            if !listed.is_instance_of::<PyList>() && !listed.is_instance_of::<PyTuple>() {
                return Ok(Err((type_name(listed), expected)));
            }
            // Stops at the first item that is not a `str` (the rest may never end).
            let mut names = Vec::new();
            for item in listed.try_iter()? {
                let item = item?;
                match item.cast::<PyString>().ok().and_then(|s| s.extract().ok()) {
                    Some(name) => names.push(name),
                    None => {
                        return Ok(Err((
                            format!("a list holding {}", type_name(&item)),
                            expected,
                        )));
                    }
                }
            }
            Ok(Ok(names))
        })?;
        Ok(keys_under(prefix, names))
    }

    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        fn poisoned<T>(_: T) -> Error {
            let message = "host store lock poisoned by an earlier panic";
            Error::new(ErrorKind::Storage, message)
        }
        let (me, lock) = (std::thread::current().id(), &*self.lock);
        let _exclusive = loop {
            match lock.updates.try_lock() {
                Ok(guard) => break guard,
                Err(TryLockError::WouldBlock)
                    if *lock.owner.lock().map_err(poisoned)? == Some(me) =>
                {
                    return Err(Error::host_reentered(key));
                }
                // Another thread holds it, maybe waiting for the GIL: wait without it.
                Err(TryLockError::WouldBlock) => {
                    Python::attach(|py| py.detach(|| std::thread::sleep(Duration::from_millis(1))));
                }
                Err(TryLockError::Poisoned(e)) => return Err(poisoned(e)),
            }
        };
        *lock.owner.lock().map_err(poisoned)? = Some(me);
        let result = read_apply_write(self, key, apply);
        *lock.owner.lock().map_err(poisoned)? = None;
        result
    }
}
