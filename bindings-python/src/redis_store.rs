//! `RedisStore(url)`: the Redis store of `session-state-redis` for Python, usable wherever a
//! store goes (it becomes `AnyStore::Redis`).

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use session_state::Store;
use session_state_redis::RedisStore;

use crate::args;
use crate::errors::IntoPyResult;
use crate::stores::{key_arg, list_py, read_py, write_py};

/// Keys on a Redis server: `redis://[user][:password@]host[:port][/db][?prefix=P]` or
/// `rediss://` for TLS.
#[pyclass(module = "session_state._native", name = "RedisStore", frozen)]
#[derive(Debug)]
pub struct PyRedisStore {
    pub(crate) inner: Arc<RedisStore>,
}

#[pymethods]
impl PyRedisStore {
    /// `RedisStore(url)`; connects on first use. `InvalidInputError` for a bad URL.
    #[new]
    fn new(url: &Bound<'_, PyAny>) -> PyResult<Self> {
        let url = args::text(url, "url")?;
        Ok(PyRedisStore {
            inner: Arc::new(RedisStore::open(&url).py()?),
        })
    }

    /// The server, without its password.
    #[getter]
    fn server(&self) -> String {
        self.inner.options().server().to_owned()
    }

    /// The key prefix.
    #[getter]
    fn prefix(&self) -> String {
        self.inner.options().prefix().to_owned()
    }

    /// Checks the server answers; `StorageError` naming it when it does not.
    fn ping(&self) -> PyResult<()> {
        self.inner.ping().py()
    }

    fn read<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyBytes>>> {
        read_py(py, self.inner.as_ref(), key)
    }

    fn write(&self, key: &Bound<'_, PyAny>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        write_py(self.inner.as_ref(), key, data)
    }

    fn delete(&self, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.inner.delete(&key_arg(key, "key")?).py()
    }

    fn list(&self, prefix: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        list_py(self.inner.as_ref(), prefix)
    }

    fn __repr__(&self) -> String {
        format!("RedisStore({:?})", self.inner.options().server())
    }
}
