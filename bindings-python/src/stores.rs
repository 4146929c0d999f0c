//! The stores Python code can hand to session_state: `FileStore`, `MemoryStore`, and any
//! object with `read`/`write`/`delete`/`list` methods (a host store).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, TryLockError, Weak};
use std::thread::ThreadId;
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyList, PyMemoryView, PyString, PyTuple};
use session_state::{
    Error, ErrorKind, Key, Leftover, MemoryStore as CoreMemoryStore, Result, Store, UpdateFn,
    read_apply_write,
};
use session_state_fs::{Durability, FsStore};

use crate::args;
use crate::errors::IntoPyResult;

/// Files below a folder: atomic writes, cross-process locks, files 0600 and folders 0700.
#[pyclass(module = "session_state._native", name = "FileStore", frozen)]
#[derive(Debug)]
pub struct PyFileStore {
    pub(crate) inner: FsStore,
}

/// The `#[pymethods]` of a store class: `read`, `write`, `delete` and `list` over its
/// `inner` store, then the class's own methods.
macro_rules! store_methods {
    ($class:ident { $($own:tt)* }) => {
        #[pymethods]
        impl $class {
            fn read<'py>(
                &self,
                py: Python<'py>,
                key: &Bound<'py, PyAny>,
            ) -> PyResult<Option<Bound<'py, PyBytes>>> {
                let bytes = self.inner.read(&key_arg(key, "key")?).py()?;
                Ok(bytes.map(|b| PyBytes::new(py, &b)))
            }

            fn write(&self, key: &Bound<'_, PyAny>, data: &Bound<'_, PyAny>) -> PyResult<()> {
                let key = key_arg(key, "key")?;
                self.inner.write(&key, args::bytes(data, "data")?).py()
            }

            fn delete(&self, key: &Bound<'_, PyAny>) -> PyResult<bool> {
                self.inner.delete(&key_arg(key, "key")?).py()
            }

            fn list(&self, prefix: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
                let keys = self.inner.list(&key_arg(prefix, "prefix")?).py()?;
                Ok(keys.into_iter().map(|k| k.as_str().to_owned()).collect())
            }

            $($own)*
        }
    };
}

store_methods!(PyFileStore {
    /// `FileStore(root, *, durable=True)`: `durable` fsyncs each write and its folder; `False`
    /// skips that (faster, but a power loss may lose the last writes).
    #[new]
    /// `root` is a `str` or `os.PathLike`; a leading `~` is expanded as `os.path.expanduser`
    /// does (as `OrchestratorStore` and `TeamStore` do).
    #[pyo3(signature = (root, *, durable = None))]
    fn new(root: &Bound<'_, PyAny>, durable: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let root = args::folder(root, "root")?;
        let durability = if args::flag(durable, "durable", true)? {
            Durability::Sync
        } else {
            Durability::Atomic
        };
        Ok(PyFileStore {
            inner: FsStore::new(root)
                .py()?
                .with_durability(durability)
                .with_lock_wait(wait_for_lock),
        })
    }

    /// The root folder.
    #[getter]
    fn root(&self) -> PathBuf {
        self.inner.root().to_path_buf()
    }

    /// Whether each write is fsynced with its folder (the `durable` option).
    #[getter]
    fn durable(&self) -> bool {
        self.inner.durability() == Durability::Sync
    }

    /// Creates the root folder now (0700, missing parents too), as the first write would.
    fn create_root(&self) -> PyResult<()> {
        self.inner.create_root().py()
    }


    fn __repr__(&self) -> String {
        format!("FileStore({:?})", self.inner.root().display().to_string())
    }
});

/// Bytes in memory; shared by every object that was handed the same `MemoryStore`.
#[pyclass(module = "session_state._native", name = "MemoryStore", frozen)]
#[derive(Debug, Default)]
pub struct PyMemoryStore {
    pub(crate) inner: CoreMemoryStore,
}

store_methods!(PyMemoryStore {
    #[new]
    fn new() -> Self {
        Self::default()
    }


    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        format!("MemoryStore(<{} keys>)", self.inner.len())
    }
});

/// The key argument `name`: a `str` (`InvalidInputError` otherwise) that is a safe key
/// (`InvalidKeyError` otherwise).
pub fn key_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Key> {
    Key::new(args::text(value, name)?).py()
}

pub(crate) fn read_py<'py>(
    py: Python<'py>,
    store: &dyn Store,
    key: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let bytes = store.read(&key_arg(key, "key")?).py()?;
    Ok(bytes.map(|b| PyBytes::new(py, &b)))
}

pub(crate) fn write_py(
    store: &dyn Store,
    key: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let key = key_arg(key, "key")?;
    store.write(&key, args::bytes(data, "data")?).py()
}

pub(crate) fn list_py(store: &dyn Store, prefix: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let keys = store.list(&key_arg(prefix, "prefix")?).py()?;
    Ok(keys.into_iter().map(|k| k.as_str().to_owned()).collect())
}

/// A Python object with `read`, `write`, `delete` and `list` methods. Its exceptions travel
/// inside the core error as the source and are re-raised unchanged.
#[derive(Debug)]
pub struct HostStore {
    object: Py<PyAny>,
    /// Shared by every `HostStore` over the same Python object ([`HostLock::of`]).
    lock: Arc<HostLock>,
}

/// The update lock of one host object, shared by every wrapper over it (two
/// `OrchestratorStore`s, an `OrchestratorStore` and a `TeamStore`, ...), so that their
/// read-modify-writes are serialised against each other.
#[derive(Debug, Default)]
struct HostLock {
    updates: Mutex<()>,
    /// The thread inside `update`, to refuse a re-entrant update instead of deadlocking.
    owner: Mutex<Option<ThreadId>>,
}

/// The lock of each live host object, by the object's address. Every `HostStore` holds a
/// strong reference to its object, so while an entry's lock is alive its object is alive and
/// the address names it alone; once the last wrapper is dropped the `Weak` is dead, and the
/// entry is dropped at the next lookup (a new object at a reused address gets a new lock).
static HOST_LOCKS: Mutex<BTreeMap<usize, Weak<HostLock>>> = Mutex::new(BTreeMap::new());

impl HostLock {
    /// The lock of `object`, created on first use.
    fn of(object: &Bound<'_, PyAny>) -> Arc<HostLock> {
        let address = object.as_ptr() as usize;
        // A poisoned map is still a valid map: each step below leaves it consistent.
        let mut locks = HOST_LOCKS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(lock) = locks.get(&address).and_then(Weak::upgrade) {
            return lock;
        }
        locks.retain(|_, lock| lock.strong_count() > 0);
        let lock = Arc::new(HostLock::default());
        locks.insert(address, Arc::downgrade(&lock));
        lock
    }
}

impl HostStore {
    fn call<T>(
        &self,
        key: &Key,
        action: &str,
        f: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>,
    ) -> Result<T> {
        Python::attach(|py| f(self.object.bind(py))).map_err(|e| Error::storage(key, action, e))
    }
}

/// The `StorageError` for a host method that returned the wrong type (as the Node package):
/// `` host store `read` of `key` returned int, expected bytes, str or None ``; `holding` says
/// what a returned list held instead (`a list holding int`).
fn returned(
    key: &Key,
    method: &str,
    expected: &str,
    got: &Bound<'_, PyAny>,
    holding: bool,
) -> Error {
    let type_name = got
        .get_type()
        .name()
        .map_or_else(|_| "an object".to_owned(), |n| n.to_string());
    let got = if holding {
        format!("a list holding {type_name}")
    } else {
        type_name
    };
    Error::new(
        ErrorKind::Storage,
        format!("host store `{method}` of `{key}` returned {got}, expected {expected}"),
    )
    .with_context("key", key.as_str())
    .with_context("method", method)
}

impl HostStore {
    /// [`call`](Self::call) for a method whose result is checked: `f` gives the value, or the
    /// [`returned`] error for a wrong type.
    fn call_checked<T>(
        &self,
        key: &Key,
        action: &str,
        f: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<Result<T>>,
    ) -> Result<T> {
        self.call(key, action, f)?
    }
}

impl Store for HostStore {
    /// `read` may return `bytes` (or `bytearray`, `memoryview`),
    /// a `str` (taken as its UTF-8 encoding, as the Node package takes a string) or `None`.
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        self.call_checked(key, "read", |o| {
            let value = o.call_method1("read", (key.as_str(),))?;
            if value.is_none() {
                return Ok(Ok(None));
            }
            if let Ok(text) = value.cast::<PyString>() {
                // A lone surrogate has no UTF-8 form.
                return Ok(match text.extract::<String>() {
                    Ok(text) => Ok(Some(text.into_bytes())),
                    Err(_) => Err(returned(
                        key,
                        "read",
                        "bytes, str (valid Unicode) or None",
                        &value,
                        false,
                    )),
                });
            }
            if let Ok(bytes) = value.cast::<PyBytes>() {
                return Ok(Ok(Some(bytes.as_bytes().to_vec())));
            }
            if let Ok(array) = value.cast::<PyByteArray>() {
                return Ok(Ok(Some(array.to_vec())));
            }
            if let Ok(view) = value.cast::<PyMemoryView>() {
                let bytes = view.call_method0("tobytes")?;
                if let Ok(bytes) = bytes.cast::<PyBytes>() {
                    return Ok(Ok(Some(bytes.as_bytes().to_vec())));
                }
            }
            Ok(Err(returned(
                key,
                "read",
                "bytes, str or None",
                &value,
                false,
            )))
        })
    }

    /// What `write` returns is ignored.
    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.call(key, "write", |o| {
            o.call_method1("write", (key.as_str(), PyBytes::new(o.py(), data)))?;
            Ok(())
        })
    }

    /// `delete` must return a `bool`.
    fn delete(&self, key: &Key) -> Result<bool> {
        self.call_checked(key, "delete", |o| {
            let value = o.call_method1("delete", (key.as_str(),))?;
            Ok(match value.cast::<PyBool>() {
                Ok(existed) => Ok(existed.is_true()),
                Err(_) => Err(returned(key, "delete", "bool", &value, false)),
            })
        })
    }

    /// `list` must return a `list` (or `tuple`) of `str`.
    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        let names: Vec<String> = self.call_checked(prefix, "list", |o| {
            let listed = o.call_method1("list", (prefix.as_str(),))?;
            let expected = "a list of str";
            if listed.cast::<PyList>().is_err() && listed.cast::<PyTuple>().is_err() {
                return Ok(Err(returned(prefix, "list", expected, &listed, false)));
            }
            let mut names = Vec::new();
            for item in listed.try_iter()? {
                let item = item?;
                match item
                    .cast::<PyString>()
                    .ok()
                    .and_then(|s| s.extract::<String>().ok())
                {
                    Some(name) => names.push(name),
                    None => {
                        return Ok(Err(returned(prefix, "list", expected, &item, true)));
                    }
                }
            }
            Ok(Ok(names))
        })?;
        Ok(names
            .into_iter()
            .filter_map(|n| Key::new(n).ok())
            .filter(|k| k.is_under(prefix))
            .collect())
    }

    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        let me = std::thread::current().id();
        let poisoned = || {
            Error::new(
                ErrorKind::Storage,
                "host store lock poisoned by an earlier panic",
            )
        };
        let lock = &*self.lock;
        let _exclusive = loop {
            match lock.updates.try_lock() {
                Ok(guard) => break guard,
                Err(TryLockError::WouldBlock) => {
                    if *lock.owner.lock().map_err(|_| poisoned())? == Some(me) {
                        return Err(Error::host_reentered(key));
                    }
                    // Another thread holds it, maybe waiting for the GIL: wait without it.
                    Python::attach(|py| py.detach(|| std::thread::sleep(Duration::from_millis(1))));
                }
                Err(TryLockError::Poisoned(_)) => return Err(poisoned()),
            }
        };
        *lock.owner.lock().map_err(|_| poisoned())? = Some(me);
        let result = read_apply_write(self, key, apply);
        *lock.owner.lock().map_err(|_| poisoned())? = None;
        result
    }
}

/// Any store a Python caller can pass.
#[derive(Debug, Clone)]
pub enum AnyStore {
    /// A `FileStore`.
    Fs(FsStore),
    /// A `MemoryStore` (shared).
    Memory(CoreMemoryStore),
    /// A `RedisStore`.
    Redis(Arc<session_state_redis::RedisStore>),
    /// Any other object, used through its methods.
    Host(Arc<HostStore>),
}

impl AnyStore {
    /// Resolves a Python object into a store: our own classes directly, anything else as a
    /// host store (checked to have the four methods).
    pub fn from_py(object: &Bound<'_, PyAny>) -> PyResult<AnyStore> {
        if let Ok(fs) = object.cast::<PyFileStore>() {
            return Ok(AnyStore::Fs(fs.get().inner.clone()));
        }
        if let Ok(mem) = object.cast::<PyMemoryStore>() {
            return Ok(AnyStore::Memory(mem.get().inner.clone()));
        }
        if let Ok(redis) = object.cast::<crate::redis_store::PyRedisStore>() {
            return Ok(AnyStore::Redis(Arc::clone(&redis.get().inner)));
        }
        for method in ["read", "write", "delete", "list"] {
            if !object.hasattr(method)? {
                return Err(crate::errors::to_py_err(
                    Error::invalid_input(format!(
                        "`store` must be a FileStore, a MemoryStore, a RedisStore or an object with read/write/delete/list methods; {} has no `{method}`",
                        object.get_type().name()?
                    ))
                    .with_context("argument", "store"),
                ));
            }
        }
        Ok(AnyStore::Host(Arc::new(HostStore {
            object: object.clone().unbind(),
            lock: HostLock::of(object),
        })))
    }
}

impl Store for AnyStore {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        self.inner().read(key)
    }
    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.inner().write(key, data)
    }
    fn delete(&self, key: &Key) -> Result<bool> {
        self.inner().delete(key)
    }
    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        self.inner().list(prefix)
    }
    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        self.inner().update(key, apply)
    }
    fn append(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.inner().append(key, data)
    }
    fn leftovers(&self, prefix: &Key) -> Result<Vec<Leftover>> {
        self.inner().leftovers(prefix)
    }
    fn remove_leftovers(&self, prefix: &Key) -> Result<Vec<Leftover>> {
        self.inner().remove_leftovers(prefix)
    }
}

impl AnyStore {
    fn inner(&self) -> &dyn Store {
        match self {
            AnyStore::Fs(s) => s,
            AnyStore::Memory(s) => s,
            AnyStore::Redis(s) => s.as_ref(),
            AnyStore::Host(s) => s.as_ref(),
        }
    }
}

/// How a `FileStore` waits between polls for another process's lock: Python's signal
/// handlers run first, so Ctrl-C (`KeyboardInterrupt`) ends the wait and nothing is written
/// (the exception reaches the caller unchanged: it is the error's source, see
/// `errors::to_py_err`); then it sleeps without holding the interpreter lock, so other Python
/// threads run meanwhile.
fn wait_for_lock(pause: std::time::Duration) -> session_state::Result<()> {
    Python::attach(|py| {
        py.check_signals().map_err(|e| {
            session_state::Error::new(
                session_state::ErrorKind::Storage,
                "interrupted while waiting for the store's lock",
            )
            .with_source(e)
        })?;
        py.detach(|| std::thread::sleep(pause));
        Ok(())
    })
}
