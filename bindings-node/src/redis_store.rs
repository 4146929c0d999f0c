//! `new RedisStore(url)`: the Redis store of `session-state-redis` for JavaScript, usable
//! wherever a store goes (see [`crate::any_store`]), with the raw key/bytes methods of the
//! other store classes and `server`, `prefix` and `ping()`.

use std::sync::Arc;

use napi::bindgen_prelude::{Buffer, Env, Unknown};
use napi_derive::napi;
use session_state::{Key, Store};

use crate::args::{Any, Arg};
use crate::errors::{Out, js};

/// Keys on a Redis server: `redis://[user][:password@]host[:port][/db][?prefix=P]` (query
/// parameters `prefix`, `connect_timeout_ms`, `command_timeout_ms`), or `rediss://` for TLS.
/// Every class built over it shares the server's data with every machine using that URL.
#[napi]
#[derive(Debug, Clone)]
pub struct RedisStore {
    pub(crate) inner: Arc<session_state_redis::RedisStore>,
}

#[napi]
#[allow(non_snake_case)]
impl RedisStore {
    /// A store on the server of `url`; no connection is made until the first call.
    ///
    /// Throws `invalid_input` for a non-string or invalid URL. Calls on a server that does not
    /// answer, refuses the password or replies with the wrong type throw `storage`, naming
    /// the server without its password.
    #[napi(constructor, ts_args_type = "url: string")]
    pub fn new(env: Env, url: Any<'_>) -> napi::Result<Self> {
        construct!(env; url: String => Ok(RedisStore { inner: Arc::new(session_state_redis::RedisStore::open(&url)?) }))
    }

    /// The server, without its password (`redis://user@host:port/db`).
    #[napi(getter)]
    pub fn server(&self) -> String {
        self.inner.options().server().to_owned()
    }

    /// The key prefix (the URL's `prefix`, default `session-state`).
    #[napi(getter)]
    pub fn prefix(&self) -> String {
        self.inner.options().prefix().to_owned()
    }

    /// Checks the server answers and accepts the credentials; throws `storage` naming the
    /// server when it does not.
    #[napi(ts_return_type = "void")]
    pub fn ping(&self) -> Out<()> {
        Out(self.inner.ping())
    }
}

crate::stores::raw_methods!(RedisStore);
