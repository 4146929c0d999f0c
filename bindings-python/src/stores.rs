//! The stores Python code can hand to session_state: `FileStore`, `MemoryStore`, `RedisStore`
//! (`redis_store.rs`) and any object with the four store methods (`host_store.rs`).

use std::fmt::Debug;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use pyo3::prelude::*;
use session_state::{Error, ErrorKind, Key, MemoryStore as CoreMemoryStore, Store};
use session_state_fs::{Durability, FsStore};
use session_state_redis::RedisStore;

use crate::args::{Arg, py_new};
use crate::convert::Obj;
use crate::errors::IntoPyResult;
use crate::host_store::HostStore;
use crate::redis_store::PyRedisStore;

/// A [`Store`] a handle can hold (and print).
pub trait PyStore: Store + Debug + Send + Sync {
    /// The store, when its calls need no Python and do their own I/O, so that they may run on
    /// another thread while this one holds the GIL (a file or Redis store; not a host object,
    /// whose methods need the GIL, and not a memory store, whose calls are too short to hand
    /// over).
    fn beside(&self) -> Option<&(dyn Store + Sync)> {
        None
    }
}

impl PyStore for FsStore {
    fn beside(&self) -> Option<&(dyn Store + Sync)> {
        Some(self)
    }
}

impl PyStore for Arc<RedisStore> {
    fn beside(&self) -> Option<&(dyn Store + Sync)> {
        Some(self)
    }
}

impl PyStore for CoreMemoryStore {}

impl PyStore for HostStore {}

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
