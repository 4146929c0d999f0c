//! [`AnyStore`]: the store argument of every class constructor (`new TeamStore(store)`): a
//! [`FsStore`](session_state_fs::FsStore), a core `MemoryStore`, a Redis store or a
//! [`HostStore`]; and [`WithHead`], with the git HEAD an `OrchestratorStore` over a `FileStore`
//! records at each save (`project.git_head`), read when the handle is made, as the CLI does.

use std::fmt::Debug;
use std::sync::Arc;

use napi::bindgen_prelude::{ClassInstance, Either4, FromNapiValue, JsValue, Unknown, ValueType};
use session_state::orchestrator::GitHead;
use session_state::{Result, Store};
use session_state_fs::FsStore;

use crate::args::{Arg, expected, napi_failed};
use crate::host_store::HostStore;
use crate::stores::{FileStore, MemoryStore, RedisStore};

/// The store classes, or anything else.
type Classes<'a> = Either4<
    ClassInstance<'a, FileStore>,
    ClassInstance<'a, MemoryStore>,
    ClassInstance<'a, RedisStore>,
    Unknown<'a>,
>;

/// A [`Store`] the wrappers can print.
pub trait JsStore: Store + Debug {
    /// The store, when it does its own I/O and may be used from another thread while the
    /// JavaScript thread goes on (a file or Redis store; not a host object's methods, and not
    /// a memory store, whose calls are too short to hand over).
    fn beside(&self) -> Option<&(dyn Store + Sync)> {
        None
    }
}

impl JsStore for FsStore {
    fn beside(&self) -> Option<&(dyn Store + Sync)> {
        Some(self)
    }
}

impl JsStore for Arc<session_state_redis::RedisStore> {
    fn beside(&self) -> Option<&(dyn Store + Sync)> {
        Some(self)
    }
}

impl JsStore for session_state::MemoryStore {}

impl JsStore for HostStore {}

/// A [`Store`] given from JavaScript: a file store (a path), a memory store (sharing the JS
/// object's map), a Redis store (sharing the JS object's connections) or a host object.
pub type AnyStore = Box<dyn JsStore>;

/// A `FileStore`, a `MemoryStore`, a `RedisStore` or an object with the four methods;
/// `invalid_input` for anything else (`undefined`, a number, an object missing `list`, ...).
impl<'a> Arg<'a> for AnyStore {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        let failed = |e: napi::Error| napi_failed(name, &e);
        match Classes::from_unknown(value).map_err(failed)? {
            Either4::A(file) => Ok(Box::new(file.inner.clone())),
            Either4::B(memory) => Ok(Box::new(memory.inner.clone())),
            Either4::C(redis) => Ok(Box::new(redis.inner.clone())),
            Either4::D(value) if value.get_type().ok() == Some(ValueType::Object) => {
                let object = value.coerce_to_object().map_err(failed)?;
                Ok(Box::new(HostStore::new(&object)?))
            }
            Either4::D(value) => Err(expected(
                name,
                "a FileStore, a MemoryStore, a RedisStore or an object with read, write, delete \
                 and list methods",
                &value,
            )),
        }
    }
}

/// A store argument with the HEAD of the repository holding its root when it is a
/// `FileStore`; empty (nothing recorded) for another store or a folder in no repository.
#[derive(Debug)]
pub struct WithHead(pub AnyStore, pub GitHead);

impl<'a> Arg<'a> for WithHead {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        let head = ClassInstance::<FileStore>::from_unknown(value).map_or_else(
            |_| GitHead::default(),
            |file| session_state_fs::git_head(file.inner.root()),
        );
        Ok(WithHead(AnyStore::arg(value, name)?, head))
    }
}
