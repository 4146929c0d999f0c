//! The store classes of the package: `FileStore` (a folder, over `session_state_fs::FsStore`),
//! `MemoryStore` (in memory, over `session_state::MemoryStore`) and `RedisStore` (over
//! `session_state_redis::RedisStore`), what the other classes' constructors take (`new
//! AgentRegistry(new FileStore(root))`), with the raw key/bytes methods `read`, `write`,
//! `delete` and `list`.

use std::sync::Arc;

use napi::bindgen_prelude::{Buffer, Env, Unknown};
use napi_derive::napi;
use serde::Deserialize;
use session_state::{Key, Store};
use session_state_fs::{Durability, FsStore};

use crate::args::{Arg, Options};
use crate::errors::to_js_error;

/// Options of `new FileStore(root, options)` (declared as `FileStoreOptions` in
/// `types-header.d.ts`). Unknown members are refused, so a misspelt option is an error.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileStoreOptions {
    /// Fsync each written file and its folder before returning (default `true`).
    durable: Option<bool>,
}

js_class!(
    #[doc = " A store over a folder: key `a/b.json` is the file `<root>/a/b.json`. Writes are atomic"]
    #[doc = " (temporary file + rename), read-modify-writes hold a cross-process lock, files are private"]
    #[doc = " (0600/0700), and no key reaches outside the root."]
    FileStore(FsStore);
    #[doc = " A store over the folder `root` (`~` alone or before `/` is `HOME`), created (0700) at the"]
    #[doc = " first write. Throws `invalid_input`"]
    #[doc = " for an empty or NUL-holding `root` or bad options (a misspelt member: `durabilty`, named"]
    #[doc = " in `context.field`); `storage` when the folder cannot be created."]
    new(root: String, options: Options<FileStoreOptions>) = "root: string, options?: FileStoreOptions" => {
        let atomic = options.0.durable == Some(false);
        let durability = if atomic { Durability::Atomic } else { Durability::Sync };
        let root = session_state_fs::expand_home(&root)?;
        Ok(FileStore { inner: FsStore::new(root)?.with_durability(durability) })
    };
    #[doc = " The root folder, as given (a leading `~` expanded)."]
    get root(&self) -> String = "string" => self.inner.root().display().to_string();
    #[doc = " Whether writes are fsynced (the `durable` option)."]
    get durable(&self) -> bool = "boolean" => self.inner.durability() == Durability::Sync;
);

js_class!(
    #[doc = " A store in memory, for tests and for hosts that keep state themselves. Every class built"]
    #[doc = " over the same `MemoryStore` sees the same data."]
    MemoryStore(session_state::MemoryStore);
    #[doc = " An empty store."]
    new() = "" => Ok(MemoryStore { inner: session_state::MemoryStore::default() });
    #[doc = " Number of keys held."]
    get size(&self) -> u32 = "number" => u32::try_from(self.inner.len()).unwrap_or(u32::MAX);
);

js_class!(
    #[doc = " Keys on a Redis server: `redis://[user][:password@]host[:port][/db][?prefix=P]` (query"]
    #[doc = " parameters `prefix`, `connect_timeout_ms`, `command_timeout_ms`), or `rediss://` for TLS."]
    #[doc = " Every class built over it shares the server's data with every machine using that URL."]
    RedisStore(Arc<session_state_redis::RedisStore>);
    #[doc = " A store on the server of `url`, connecting at the first call. Throws `invalid_input` for"]
    #[doc = " an invalid URL; calls throw `storage` (naming the server without its password) when it"]
    #[doc = " does not answer, refuses the password or replies with the wrong type."]
    new(url: String) = "url: string"
        => Ok(RedisStore { inner: Arc::new(session_state_redis::RedisStore::open(&url)?) });
    #[doc = " The server, without its password (`redis://user@host:port/db`)."]
    get server(&self) -> String = "string" => self.inner.options().server().to_owned();
    #[doc = " The key prefix (the URL's `prefix`, default `session-state`)."]
    get prefix(&self) -> String = "string" => self.inner.options().prefix().to_owned();
);

js_methods!(RedisStore {
    #[doc = " Checks the server answers and accepts the credentials; throws `storage` naming the"]
    #[doc = " server when it does not."]
    fn ping(&self) -> () = "", "void" => self.inner.ping();
});

/// The raw key/bytes methods, the same on every store class.
macro_rules! raw_methods {
    ($($class:ident),*) => {$(
        #[napi]
        impl $class {
            /// The bytes under `key`, or `null`. Throws `invalid_key` for an unsafe key.
            #[napi(ts_args_type = "key: string")]
            pub fn read(&self, env: Env, key: Unknown<'_>) -> napi::Result<Option<Buffer>> {
                let bytes = Key::arg(key, "key").and_then(|key| self.inner.read(&key));
                Ok(bytes.map_err(|e| to_js_error(&env, e))?.map(Buffer::from))
            }
        }

        js_methods!($class {
            #[doc = " Replaces the bytes under `key` atomically."]
            fn write(&self, key: Key, data: Vec<u8>) -> () = "key: string, data: Uint8Array", "void"
                => self.inner.write(&key, &data);
            #[doc = " Removes `key`; `true` if it existed."]
            fn delete(&self, key: Key) -> bool = "key: string", "boolean" => self.inner.delete(&key);
            #[doc = " Every key strictly below the folder `prefix`, at any depth, sorted."]
            fn list(&self, prefix: Key) -> Vec<String> = "prefix: string", "Array<string>"
                => Ok(self.inner.list(&prefix)?.iter().map(Key::to_string).collect());
        });
    )*};
}
raw_methods!(FileStore, MemoryStore, RedisStore);
