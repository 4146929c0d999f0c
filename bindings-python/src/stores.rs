//! The stores Python code can hand to session_state: `FileStore`, `MemoryStore`, `RedisStore`
//! (`redis_store.rs`) and any object with the four store methods (`host_store.rs`).

use std::fmt::Debug;
use std::path::PathBuf;
use std::time::Duration;

use pyo3::prelude::*;
use session_state::{Error, ErrorKind, Key, MemoryStore as CoreMemoryStore, Store};
use session_state_fs::{Durability, FsStore};

use crate::args::{Arg, py_new};
use crate::convert::Obj;
use crate::errors::IntoPyResult;
use crate::host_store::HostStore;
use crate::redis_store::PyRedisStore;

/// A [`Store`] a handle can hold (and print).
pub trait PyStore: Store + Debug + Send + Sync {}
impl<S: Store + Debug + Send + Sync> PyStore for S {}

/// Any store a Python caller can pass.
pub type AnyStore = Box<dyn PyStore>;

/// The argument `store`: our own classes sharing their state, another object as a host store.
impl Arg<'_> for AnyStore {
    fn arg(object: &Obj<'_>, _: &str) -> PyResult<Self> {
        if let Ok(fs) = object.cast::<PyFileStore>() {
            return Ok(Box::new(fs.get().inner.clone()));
        }
        if let Ok(memory) = object.cast::<PyMemoryStore>() {
            return Ok(Box::new(memory.get().inner.clone()));
        }
        if let Ok(redis) = object.cast::<PyRedisStore>() {
            return Ok(Box::new(redis.get().inner.clone()));
        }
        for method in ["read", "write", "delete", "list"] {
            if !object.hasattr(method)? {
                return Err(Error::host_store_lacks("store", method)).py();
            }
        }
        Ok(Box::new(HostStore::new(object)))
    }
}

/// `read`, `write`, `delete` and `list` of a store class over its `inner` store, then its own
/// [`py_methods!`](crate::args::py_methods).
macro_rules! store_methods {
    ($class:ident { $($own:tt)* }) => {
        $crate::args::py_methods!($class {
            fn read(&self, key: Key) => self.inner.read(&key).map($crate::convert::Native);
            fn write(&self, key: Key, data: &[u8]) => self.inner.write(&key, data);
            fn delete(&self, key: Key) => self.inner.delete(&key);
            fn list(&self, prefix: Key) => self.inner.list(&prefix).map(|keys| {
                keys.iter().map(|k| k.as_str().to_owned()).collect::<Vec<_>>()
            });
            $($own)*
        });
    };
}
pub(crate) use store_methods;

/// Files below a folder: atomic writes, cross-process locks, files 0600 and folders 0700.
#[pyclass(module = "session_state._native", name = "FileStore", frozen)]
#[derive(Debug)]
pub struct PyFileStore {
    pub(crate) inner: FsStore,
}

store_methods!(PyFileStore {
    /// Creates the root folder now (0700, missing parents too), as the first write would.
    fn create_root(&self) => self.inner.create_root();
});

py_new!(PyFileStore {
    /// `FileStore(root, *, durable=True)`: `durable` fsyncs each write and its folder (`False`
    /// is faster, but a power loss may lose the last writes).
    fn new(root: PathBuf; *, durable: bool = true) => {
        let durability = if durable {
            Durability::Sync
        } else {
            Durability::Atomic
        };
        let inner = FsStore::new(root).py()?.with_durability(durability);
        Ok(PyFileStore {
            inner: inner.with_lock_wait(wait_for_lock),
        })
    };

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

    fn __repr__(&self) -> String {
        format!("FileStore({:?})", self.inner.root().display().to_string())
    }
});

/// Bytes in memory; shared by every object that was handed the same `MemoryStore`.
#[pyclass(module = "session_state._native", name = "MemoryStore", frozen)]
#[derive(Debug, Default)]
pub struct PyMemoryStore {
    inner: CoreMemoryStore,
}

store_methods!(PyMemoryStore {});

py_new!(PyMemoryStore {
    fn new() => Ok(Self::default());

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        format!("MemoryStore(<{} keys>)", self.inner.len())
    }
});

/// The store `value` as the helper thread uses it to commit a save while the caller's thread
/// holds the GIL and builds the saved dict (`OrchestratorStore.save`): a `FileStore` whose lock
/// wait hands the commit back at once ([`is_handed_back`]) rather than wait with Python from
/// a thread that cannot take the GIL, or a `RedisStore`. `None` for a memory store (its calls
/// are too short to hand over) and a host object (its methods need the GIL).
pub fn helper_store(value: &Obj<'_>) -> Option<AnyStore> {
    if let Ok(fs) = value.cast::<PyFileStore>() {
        let hand_back =
            |_| Err(Error::new(ErrorKind::Conflict, HANDED_BACK).with_context("lock", HANDED_BACK));
        return Some(Box::new(fs.get().inner.clone().with_lock_wait(hand_back)));
    }
    let redis = value.cast::<PyRedisStore>().ok()?;
    Some(Box::new(redis.get().inner.clone()))
}

/// The error of a [`helper_store`]'s lock wait.
const HANDED_BACK: &str = "the lock is taken: the commit is handed back to the caller's thread";

/// Whether `err` is a [`helper_store`]'s refusal to wait for a lock: the update never ran
/// (nothing written), so the caller's thread runs the commit again, waiting as it does.
pub fn is_handed_back(err: &Error) -> bool {
    err.context_value("lock") == Some(HANDED_BACK)
}

/// How a `FileStore` waits for another process's lock: Python's signal handlers run first (so
/// Ctrl-C ends the wait, the exception reaching the caller as the error's source), then it
/// sleeps without the interpreter lock.
fn wait_for_lock(pause: Duration) -> session_state::Result<()> {
    Python::attach(|py| {
        py.check_signals().map_err(|e| {
            let message = "interrupted while waiting for the store's lock";
            Error::new(ErrorKind::Storage, message).with_source(e)
        })?;
        py.detach(|| std::thread::sleep(pause));
        Ok(())
    })
}
