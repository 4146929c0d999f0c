//! The store classes of the package: `FileStore` (a folder, over `session_state_fs::FsStore`)
//! and `MemoryStore` (in memory, over `session_state::MemoryStore`). Both are what the other
//! classes' constructors take (`new AgentRegistry(new FileStore(root))`), and both expose the
//! raw key/bytes methods: `read(key)` gives a `Buffer` or `null`, `write(key, data)` takes a
//! `Uint8Array`/`Buffer`, `delete(key)` says whether the key existed, `list(prefix)` gives the
//! sorted keys below the folder `prefix`.

use napi::bindgen_prelude::{Buffer, Env, Unknown};
use napi_derive::napi;
use serde::Deserialize;
use session_state::Store;
use session_state_fs::{Durability, FsStore};

use crate::args::{self, BytesArg, StrArg};
use crate::documents::options_from_js;
use crate::errors::{ToJs, invalid_input};

/// Options of `new FileStore(root, options)` (declared as `FileStoreOptions` in
/// `types-header.d.ts`). Unknown members are refused, so a misspelt option is an error.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileStoreOptions {
    /// Fsync each written file and its folder before returning, so a write survives a power
    /// loss or an OS crash (default `true`; `false`: atomic rename only, faster, survives a
    /// process crash).
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
impl FileStore {
    /// A store over the folder `root`; nothing is created until the first write, which creates
    /// it (0700) and the folders a key needs. Reads of a missing root find nothing.
    ///
    /// Throws `invalid_input` for a non-string, empty or NUL-holding `root`, or for options that
    /// are not an object, hold an unknown member (`{ durabilty: true }`) or a value of the
    /// wrong type (the message and `context.field` name it); `storage` when the folder cannot
    /// be created or is not a folder.
    #[napi(constructor, ts_args_type = "root: string, options?: FileStoreOptions")]
    pub fn new(env: Env, root: StrArg<'_>, options: Option<Unknown<'_>>) -> napi::Result<Self> {
        let root = args::string(&env, root, "root")?;
        if root.is_empty() || root.contains('\0') {
            return Err(invalid_input(
                &env,
                format!(
                    "`root` must be a folder path, got `{}`",
                    root.escape_debug()
                ),
            ));
        }
        let options: FileStoreOptions = options_from_js(&env, options, "options")?;
        let durability = if options.durable.unwrap_or(true) {
            Durability::Sync
        } else {
            Durability::Atomic
        };
        let inner = FsStore::new(root).js(&env)?.with_durability(durability);
        Ok(FileStore { inner })
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

    /// The bytes under `key`, or `null`. Throws `invalid_key` for an unsafe key.
    #[napi(ts_args_type = "key: string")]
    pub fn read(&self, env: Env, key: StrArg<'_>) -> napi::Result<Option<Buffer>> {
        read(&env, &self.inner, key)
    }

    /// Replaces the bytes under `key` atomically.
    #[napi(ts_args_type = "key: string, data: Uint8Array")]
    pub fn write(&self, env: Env, key: StrArg<'_>, data: BytesArg<'_>) -> napi::Result<()> {
        write(&env, &self.inner, key, data)
    }

    /// Removes `key`; `true` if it existed.
    #[napi(ts_args_type = "key: string")]
    pub fn delete(&self, env: Env, key: StrArg<'_>) -> napi::Result<bool> {
        delete(&env, &self.inner, key)
    }

    /// Every key strictly below the folder `prefix`, at any depth, sorted.
    #[napi(ts_args_type = "prefix: string")]
    pub fn list(&self, env: Env, prefix: StrArg<'_>) -> napi::Result<Vec<String>> {
        list(&env, &self.inner, prefix)
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

    /// The bytes under `key`, or `null`. Throws `invalid_key` for an unsafe key.
    #[napi(ts_args_type = "key: string")]
    pub fn read(&self, env: Env, key: StrArg<'_>) -> napi::Result<Option<Buffer>> {
        read(&env, &self.inner, key)
    }

    /// Replaces the bytes under `key`.
    #[napi(ts_args_type = "key: string, data: Uint8Array")]
    pub fn write(&self, env: Env, key: StrArg<'_>, data: BytesArg<'_>) -> napi::Result<()> {
        write(&env, &self.inner, key, data)
    }

    /// Removes `key`; `true` if it existed.
    #[napi(ts_args_type = "key: string")]
    pub fn delete(&self, env: Env, key: StrArg<'_>) -> napi::Result<bool> {
        delete(&env, &self.inner, key)
    }

    /// Every key strictly below the folder `prefix`, at any depth, sorted.
    #[napi(ts_args_type = "prefix: string")]
    pub fn list(&self, env: Env, prefix: StrArg<'_>) -> napi::Result<Vec<String>> {
        list(&env, &self.inner, prefix)
    }
}

/// `store.read(key)` for any store, as the JS methods give it.
pub(crate) fn read(env: &Env, store: &dyn Store, key: StrArg<'_>) -> napi::Result<Option<Buffer>> {
    let key = args::key(env, key, "key")?;
    Ok(store.read(&key).js(env)?.map(Buffer::from))
}

/// `store.write(key, data)` for any store.
pub(crate) fn write(
    env: &Env,
    store: &dyn Store,
    key: StrArg<'_>,
    data: BytesArg<'_>,
) -> napi::Result<()> {
    let key = args::key(env, key, "key")?;
    let data = args::bytes(env, data, "data")?;
    store.write(&key, &data).js(env)
}

/// `store.delete(key)` for any store.
pub(crate) fn delete(env: &Env, store: &dyn Store, key: StrArg<'_>) -> napi::Result<bool> {
    let key = args::key(env, key, "key")?;
    store.delete(&key).js(env)
}

/// `store.list(prefix)` for any store.
pub(crate) fn list(env: &Env, store: &dyn Store, prefix: StrArg<'_>) -> napi::Result<Vec<String>> {
    let prefix = args::key(env, prefix, "prefix")?;
    let keys = store.list(&prefix).js(env)?;
    Ok(keys.into_iter().map(|k| k.as_str().to_owned()).collect())
}
