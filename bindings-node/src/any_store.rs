//! [`AnyStore`]: the store argument of every class constructor (`new TeamStore(store)`),
//! resolved from a JS value into a [`FsStore`], a core `MemoryStore`, a Redis store or a
//! [`HostStore`].

use std::fmt::Debug;

use napi::bindgen_prelude::{ClassInstance, Either4, JsValue, Unknown, ValueType};
use session_state::{Error, Result, Store};

use crate::args::type_name;
use crate::host_store::HostStore;
use crate::redis_store::RedisStore;
use crate::stores::{FileStore, MemoryStore};

/// The store argument as napi converts it: one of the three store classes, or anything else
/// (checked by [`store_from_js`]).
pub type StoreArg<'a> = Either4<
    ClassInstance<'a, FileStore>,
    ClassInstance<'a, MemoryStore>,
    ClassInstance<'a, RedisStore>,
    Unknown<'a>,
>;

/// A [`Store`] the wrappers can print.
pub trait JsStore: Store + Debug {}
impl<S: Store + Debug> JsStore for S {}

/// A [`Store`] given from JavaScript: a file store (a path), a memory store (sharing the JS
/// object's map), a Redis store (sharing the JS object's connections) or a host object.
pub type AnyStore = Box<dyn JsStore>;

/// Resolves a store argument; `invalid_input` when `arg` is not a `FileStore`, a
/// `MemoryStore`, a `RedisStore` or an object with the four methods (`undefined`, a number, an object missing
/// `list`, ...).
pub fn store_from_js(arg: StoreArg<'_>) -> Result<AnyStore> {
    match arg {
        Either4::A(file) => Ok(Box::new(file.inner.clone())),
        Either4::B(memory) => Ok(Box::new(memory.inner.clone())),
        Either4::C(redis) => Ok(Box::new(redis.inner.clone())),
        Either4::D(value) if value.get_type().ok() == Some(ValueType::Object) => {
            let object = value
                .coerce_to_object()
                .map_err(|e| crate::args::napi_failed("store", &e))?;
            Ok(Box::new(HostStore::new(&object)?))
        }
        Either4::D(value) => Err(Error::invalid_input(format!(
            "`store` must be a FileStore, a MemoryStore, a RedisStore or an object with read, \
             write, delete and list methods, got {}",
            type_name(&value)
        ))),
    }
}
