//! [`AnyStore`]: the store argument of every class constructor (`new TeamStore(store)`),
//! resolved from a JS value into a [`FileStore`], a [`MemoryStore`] or a [`HostStore`].
//!
//! A wrapper takes the argument as [`StoreArg`] with `ts_args_type = "store: Store"` and calls
//! [`AnyStore::from_js`]:
//!
//! ```text
//! #[napi(constructor, ts_args_type = "store: Store")]
//! pub fn new(env: Env, store: StoreArg<'_>) -> napi::Result<Self> {
//!     let store = AnyStore::from_js(&env, store)?;
//!     Ok(Self { inner: CoreThing::new(store) })
//! }
//! ```

use std::rc::Rc;

use napi::bindgen_prelude::{ClassInstance, Either3, Env, JsValue, Unknown, ValueType};
use session_state::{Key, Leftover, Result, Store, UpdateFn};
use session_state_fs::FsStore;

use crate::args::type_name;
use crate::errors::invalid_input;
use crate::host_store::HostStore;
use crate::stores::{FileStore, MemoryStore};

/// The store argument as napi converts it: one of the two store classes, or anything else
/// (checked by [`AnyStore::from_js`]).
pub type StoreArg<'a> =
    Either3<ClassInstance<'a, FileStore>, ClassInstance<'a, MemoryStore>, Unknown<'a>>;

/// A [`Store`] given from JavaScript. Cheap to clone: the file store is a path, the memory
/// store and the host object are shared.
#[derive(Debug, Clone)]
pub enum AnyStore {
    /// A `FileStore`.
    File(FsStore),
    /// A `MemoryStore`: the clone shares the JS object's map.
    Memory(session_state::MemoryStore),
    /// Any JS object with `read`, `write`, `delete` and `list` methods.
    Host(Rc<HostStore>),
}

impl AnyStore {
    /// Resolves a store argument.
    ///
    /// # Errors
    /// `invalid_input` (a JS error, ready to return) when `arg` is not a `FileStore`, a
    /// `MemoryStore` or an object with the four methods (`undefined`, a number, a string, an
    /// object missing `list`, ...).
    pub fn from_js(env: &Env, arg: StoreArg<'_>) -> napi::Result<AnyStore> {
        match arg {
            Either3::A(file) => Ok(AnyStore::File(file.inner.clone())),
            Either3::B(memory) => Ok(AnyStore::Memory(memory.inner.clone())),
            Either3::C(value) => {
                if value.get_type()? != ValueType::Object {
                    return Err(invalid_input(
                        env,
                        format!(
                            "`store` must be a FileStore, a MemoryStore or an object with \
                             read, write, delete and list methods, got {}",
                            type_name(&value)
                        ),
                    ));
                }
                let object = value.coerce_to_object()?;
                Ok(AnyStore::Host(Rc::new(HostStore::new(env, &object)?)))
            }
        }
    }

    fn inner(&self) -> &dyn Store {
        match self {
            AnyStore::File(store) => store,
            AnyStore::Memory(store) => store,
            AnyStore::Host(store) => &**store,
        }
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
