//! The store classes of the package: `FileStore` (a folder, over `session_state_fs::FsStore`)
//! and `MemoryStore` (in memory, over `session_state::MemoryStore`), what the other classes'
//! constructors take (`new AgentRegistry(new FileStore(root))`), with the raw key/bytes methods
//! `read`, `write`, `delete` and `list`.

use napi::bindgen_prelude::{Buffer, Env, Unknown};
use napi_derive::napi;
use serde::Deserialize;
use session_state::{Key, Store};
use session_state_fs::{Durability, FsStore};

use crate::args::{Any, Arg, Options};
use crate::errors::{Out, js};

/// Options of `new FileStore(root, options)` (declared as `FileStoreOptions` in
/// `types-header.d.ts`). Unknown members are refused, so a misspelt option is an error.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileStoreOptions {
    /// Fsync each written file and its folder before returning (default `true`).
    durable: Option<bool>,
}

/// A store over a folder: key `a/b.json` is the file `<root>/a/b.json`. Writes are atomic
/// (temporary file + rename), read-modify-writes hold a cross-process lock, files are private
/// (0600/0700), and no key reaches outside the root.
#[napi]
#[derive(Debug, Clone)]
pub struct FileStore {
    pub(crate) inner: FsStore,
}

#[napi]
#[allow(non_snake_case)]
impl FileStore {
    /// A store over the folder `root`; nothing is created until the first write, which creates
    /// it (0700) and the folders a key needs. Reads of a missing root find nothing.
    ///
    /// Throws `invalid_input` for a non-string, empty or NUL-holding `root`, or for options that
    /// are not an object, hold an unknown member (`{ durabilty: true }`) or a value of the
    /// wrong type (the message and `context.field` name it); `storage` when the folder cannot
    /// be created or is not a folder.
    #[napi(constructor, ts_args_type = "root: string, options?: FileStoreOptions")]
    pub fn new(env: Env, root: Any<'_>, options: Any<'_>) -> napi::Result<Self> {
        construct!(env; root: String, options: Options<FileStoreOptions> => {
            let durability = match options.0.durable {
                Some(false) => Durability::Atomic,
                _ => Durability::Sync,
            };
            Ok(FileStore { inner: FsStore::new(root)?.with_durability(durability) })
        })
    }

    /// The root folder, as given.
    #[napi(getter)]
    pub fn root(&self) -> String {
        self.inner.root().display().to_string()
    }

    /// Whether writes are fsynced (the `durable` option).
    #[napi(getter)]
    pub fn durable(&self) -> bool {
        self.inner.durability() == Durability::Sync
    }
}

/// A store in memory, for tests and for hosts that keep state themselves. Every class built
/// over the same `MemoryStore` sees the same data.
#[napi]
#[derive(Debug, Clone, Default)]
pub struct MemoryStore {
    pub(crate) inner: session_state::MemoryStore,
}

#[napi]
impl MemoryStore {
    /// An empty store.
    #[napi(constructor)]
    pub fn new() -> Self {
        MemoryStore::default()
    }

    /// Number of keys held.
    #[napi(getter)]
    pub fn size(&self) -> u32 {
        u32::try_from(self.inner.len()).unwrap_or(u32::MAX)
    }
}

/// The raw key/bytes methods, the same on every store class (`RedisStore` too, in
/// `redis_store.rs`, which imports the names the methods use).
macro_rules! raw_methods {
    ($($class:ident),*) => {$(
        #[napi]
        impl $class {
            /// The bytes under `key`, or `null`. Throws `invalid_key` for an unsafe key.
            #[napi(ts_args_type = "key: string")]
            pub fn read(&self, env: Env, key: Unknown<'_>) -> napi::Result<Option<Buffer>> {
                let bytes = Key::arg(key, "key").and_then(|key| self.inner.read(&key));
                Ok(js(&env, bytes)?.map(Buffer::from))
            }

            /// Replaces the bytes under `key` atomically.
            #[napi(ts_args_type = "key: string, data: Uint8Array", ts_return_type = "void")]
            pub fn write(&self, key: Any<'_>, data: Any<'_>) -> Out<()> {
                crate::run!(key: Key, data: Vec<u8> => self.inner.write(&key, &data))
            }

            /// Removes `key`; `true` if it existed.
            #[napi(ts_args_type = "key: string", ts_return_type = "boolean")]
            pub fn delete(&self, key: Any<'_>) -> Out<bool> {
                crate::run!(key: Key => self.inner.delete(&key))
            }

            /// Every key strictly below the folder `prefix`, at any depth, sorted.
            #[napi(ts_args_type = "prefix: string", ts_return_type = "Array<string>")]
            pub fn list(&self, prefix: Any<'_>) -> Out<Vec<String>> {
                crate::run!(prefix: Key => {
                    Ok(self.inner.list(&prefix)?.iter().map(Key::to_string).collect())
                })
            }
        }
    )*};
}
raw_methods!(FileStore, MemoryStore);
pub(crate) use raw_methods;
