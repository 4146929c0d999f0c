//! `RedisStore(url)`: the Redis store of `session-state-redis` for Python, usable wherever a
//! store goes.

use std::sync::Arc;

use pyo3::prelude::*;
use session_state::{Key, Store};
use session_state_redis::RedisStore;

use crate::args::py_new;
use crate::errors::IntoPyResult;
use crate::stores::store_methods;

/// Keys on a Redis server: `redis://[user][:password@]host[:port][/db][?prefix=P]` or
/// `rediss://` for TLS.
#[pyclass(module = "session_state._native", name = "RedisStore", frozen)]
#[derive(Debug)]
pub struct PyRedisStore {
    pub(crate) inner: Arc<RedisStore>,
}

store_methods!(PyRedisStore {
    /// Checks the server answers; `StorageError` naming it when it does not.
    fn ping(&self) => self.inner.ping();
});

py_new!(PyRedisStore {
    /// `RedisStore(url)`; connects on first use. `InvalidInputError` for a bad URL.
    fn new(url: String) => {
        let inner = Arc::new(RedisStore::open(&url).py()?);
        Ok(PyRedisStore { inner })
    };

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

    fn __repr__(&self) -> String {
        format!("RedisStore({:?})", self.inner.options().server())
    }
});
