//! [`HostStore`]: a [`Store`] over any JS object with synchronous `read`, `write`, `delete`
//! and `list` methods (issue 6):
//!
//! ```ts
//! interface HostStore {
//!   read(key: string): Uint8Array | string | null | undefined  // Buffer is a Uint8Array
//!   write(key: string, data: Buffer): undefined | null  // a method with no `return`
//!   delete(key: string): boolean
//!   list(prefix: string): string[]  // keys strictly below the folder `prefix`
//! }
//! ```
//!
//! - A value thrown by a method becomes a `storage` error whose source is a
//!   [`HostException`]; [`crate::errors::to_js_error`] re-throws that very value to the caller.
//! - A method returning the wrong type is a `storage` error naming the method.
//! - The methods are synchronous: one returning a thenable (an object or function with a
//!   callable `then`: a Promise, an `async` method's result) is a `storage` error naming the
//!   method ("host store methods must be synchronous", context `key` and `method`), never a
//!   success whose write lands later or not at all. A native Promise gets a no-op rejection
//!   handler first, so a rejecting `async` method does not also end the process with an
//!   unhandled rejection (see [`TRAMPOLINE`]).
//! - `update` is `read`, then the closure, then `write`: JavaScript is single-threaded, so
//!   nothing runs between them except the host's own methods, which are synchronous. They
//!   can still re-enter the package (a `write` that calls another class over the same host
//!   object), so the host object is marked busy for the whole `update` and a second `update`
//!   on it meanwhile is a `conflict` error instead of a lost update. The mark belongs to the
//!   JS object, not to this adapter: every wrapper (`OrchestratorStore`, `AgentRegistry`,
//!   `TeamStore`, ...) over the same object shares it (see [`HostStore::id`]). Two processes
//!   sharing one host store get no lock from this adapter.
//! - `list` results are checked: keys that are not valid or not below the prefix are
//!   dropped, and the rest sorted and deduplicated, as the [`Store`] contract requires.
//!
//! The adapter holds a reference to the object and the `Env` it came from; it is only used on
//! that JavaScript thread (it is neither `Send` nor `Sync`).

use napi::bindgen_prelude::{
    Buffer, Either, Env, FnArgs, FromNapiValue, Function, FunctionRef, JsObjectValue, JsValue,
    Null, Object, ObjectRef, TypeName, Uint8Array, Unknown, ValidateNapiValue, ValueType,
};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use session_state::{Error, ErrorKind, Key, Result, Store, UpdateFn, read_apply_write};

use crate::args::type_name;
use crate::errors::HostException;

/// The methods a host store must have.
pub const METHODS: [&str; 4] = ["read", "write", "delete", "list"];

/// A [`Store`] calling the methods of a JS object. See the module docs.
pub struct HostStore {
    env: Env,
    object: Option<ObjectRef<false>>,
    trampoline: Option<FunctionRef<TrampolineArgs<'static>, Object<'static>>>,
    id: u64,
}

/// The next host object id; ids are never reused, in any thread of the process.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The ids of the host objects inside an `update` right now, process-wide.
static BUSY: Mutex<BTreeSet<u64>> = Mutex::new(BTreeSet::new());

/// Gives each JS object one id for its lifetime, whichever wrapper asks: a `WeakMap` from
/// object to id, kept on `globalThis` under a registered symbol as a non-enumerable,
/// non-writable property (so every wrapper of this realm finds the same map; the host object
/// itself is not touched, so frozen objects and proxies work too). `fresh` is the id given
/// to an object seen for the first time.
const OBJECT_ID: &str = "(function (object, fresh) {
  const slot = Symbol.for('session-state.host-store-ids')
  let ids = globalThis[slot]
  if (!(ids instanceof WeakMap)) {
    ids = new WeakMap()
    Object.defineProperty(globalThis, slot, { value: ids })
  }
  if (!ids.has(object)) ids.set(object, fresh)
  return ids.get(object)
})";

/// The mark that a host object is inside an `update`; removed when dropped.
struct Busy(u64);

impl Busy {
    /// Marks host object `id` busy for an update of `key`.
    ///
    /// # Errors
    /// [`ErrorKind::Conflict`] when it already is (an update re-entered from a host method).
    fn enter(id: u64, key: &Key) -> Result<Busy> {
        let mut busy = BUSY.lock().unwrap_or_else(PoisonError::into_inner);
        if !busy.insert(id) {
            return Err(Error::host_reentered(key));
        }
        Ok(Busy(id))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        BUSY.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.0);
    }
}

impl std::fmt::Debug for HostStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostStore").finish_non_exhaustive()
    }
}

impl HostStore {
    /// Wraps `object` after checking it has the four methods.
    ///
    /// # Errors
    /// `invalid_input` naming the first missing method (a JS error, ready to return).
    pub fn new(env: &Env, object: &Object<'_>) -> napi::Result<HostStore> {
        for method in METHODS {
            let value: Unknown<'_> = object.get_named_property(method)?;
            if value.get_type()? != ValueType::Function {
                return Err(crate::errors::invalid_input(
                    env,
                    format!(
                        "a host store needs a `{method}` method, got {}",
                        type_name(&value)
                    ),
                ));
            }
        }
        let trampoline: Function<'_, TrampolineArgs<'static>, Object<'static>> =
            env.run_script(TRAMPOLINE)?;
        let object_id: Function<'_, FnArgs<(Object<'_>, f64)>, f64> = env.run_script(OBJECT_ID)?;
        #[allow(clippy::cast_precision_loss)] // ids stay far below 2^53
        let fresh = NEXT_ID.fetch_add(1, Ordering::Relaxed) as f64;
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let id = object_id.call(FnArgs::from((*object, fresh)))? as u64;
        Ok(HostStore {
            env: *env,
            object: Some(object.create_ref::<false>()?),
            trampoline: Some(trampoline.create_ref()?),
            id,
        })
    }

    /// The id of the host object: the same for every `HostStore` over the same JS object (so
    /// for every wrapper class over it), different for different objects. `update` marks it
    /// busy process-wide while it runs.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Calls `object[method](key)` or `object[method](key, data)` through [`TRAMPOLINE`].
    /// Returns `Either::B` with the value when it is not a `Ret` (napi converts into the first
    /// type that fits).
    fn call<'env, Ret>(
        &'env self,
        key: &Key,
        method: &str,
        data: Option<Buffer>,
    ) -> Result<Either<Ret, Unknown<'env>>>
    where
        Ret: FromNapiValue + ValidateNapiValue + TypeName,
    {
        let broken = |e: napi::Error| {
            Error::new(
                ErrorKind::Storage,
                format!("cannot call host store `{method}` of `{key}`: {}", e.reason),
            )
            .with_context("key", key.as_str())
        };
        let (Some(object), Some(trampoline)) = (&self.object, &self.trampoline) else {
            return Err(Error::new(
                ErrorKind::Storage,
                "host store already released",
            ));
        };
        let object = object.get_value(&self.env).map_err(broken)?;
        let outcome: Object<'_> = trampoline
            .borrow_back(&self.env)
            .and_then(|f| {
                f.call(FnArgs::from((
                    object,
                    method.to_owned(),
                    key.to_string(),
                    data,
                )))
            })
            .map_err(broken)?;
        if outcome.get_named_property::<bool>("ok").map_err(broken)? {
            if outcome.has_named_property("thenable").map_err(broken)? {
                return Err(Error::new(
                    ErrorKind::Storage,
                    format!(
                        "host store `{method}` of `{key}` returned a promise (or another \
                         thenable): host store methods must be synchronous"
                    ),
                )
                .with_context("key", key.as_str())
                .with_context("method", method));
            }
            return outcome.get_named_property("value").map_err(broken);
        }
        // A reference to the outcome object keeps the thrown value (even a primitive) alive.
        Err(Error::new(
            ErrorKind::Storage,
            format!("host store `{method}` of `{key}` threw"),
        )
        .with_context("key", key.as_str())
        .with_source(HostException(napi::Error::from(outcome.to_unknown()))))
    }
}

/// Calls a host method and catches what it throws, so that any thrown value (also a
/// primitive, which napi-rs cannot hold a reference to) is kept in the returned object.
///
/// A result with a callable `then` (a Promise, an `async` method's result, any thenable) is
/// reported as `{ ok: true, thenable: true }` instead of its value: host methods are
/// synchronous, and what such a result resolves to would arrive after the operation has
/// finished. A native Promise (also one of another realm, e.g. from `vm`) gets a no-op
/// rejection handler, so an `async` method that rejects does not also end the process with an
/// unhandled rejection; other thenables are not called. A `then` getter that throws counts as the method throwing.
const TRAMPOLINE: &str = "(function (o, m, k, d) {
  try {
    const value = d == null ? o[m](k) : o[m](k, d)
    if (value !== null && (typeof value === 'object' || typeof value === 'function')
        && typeof value.then === 'function') {
      if (value instanceof Promise || Object.prototype.toString.call(value) === '[object Promise]') {
        try { Promise.prototype.then.call(value, undefined, () => {}) } catch (_) {}
      }
      return { ok: true, thenable: true }
    }
    return { ok: true, value }
  }
  catch (error) { return { ok: false, error } }
})";

/// Arguments of [`TRAMPOLINE`]: object, method, key, data.
type TrampolineArgs<'a> = FnArgs<(Object<'a>, String, String, Option<Buffer>)>;

/// The `storage` error for a host method that returned the wrong type.
fn returned(key: &Key, method: &str, expected: &str, got: &Unknown<'_>) -> Error {
    Error::new(
        ErrorKind::Storage,
        format!(
            "host store `{method}` of `{key}` returned {}, expected {expected}",
            type_name(got)
        ),
    )
    .with_context("key", key.as_str())
}

impl Store for HostStore {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        let value = self.call::<Either<Uint8Array, String>>(key, "read", None)?;
        match value {
            Either::A(Either::A(bytes)) => Ok(Some(bytes.to_vec())),
            Either::A(Either::B(text)) => Ok(Some(text.into_bytes())),
            Either::B(other) => match other.get_type() {
                Ok(ValueType::Null | ValueType::Undefined) => Ok(None),
                _ => Err(returned(
                    key,
                    "read",
                    "a Uint8Array, string or null",
                    &other,
                )),
            },
        }
    }

    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        let value = self.call::<Null>(key, "write", Some(Buffer::from(data.to_vec())))?;
        match value {
            Either::A(Null) => Ok(()),
            Either::B(other) => match other.get_type() {
                Ok(ValueType::Undefined) => Ok(()),
                _ => Err(returned(key, "write", "undefined (nothing)", &other)),
            },
        }
    }

    fn delete(&self, key: &Key) -> Result<bool> {
        match self.call::<bool>(key, "delete", None)? {
            Either::A(existed) => Ok(existed),
            Either::B(other) => Err(returned(key, "delete", "a boolean", &other)),
        }
    }

    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        match self.call::<Vec<String>>(prefix, "list", None)? {
            Either::A(names) => {
                let mut keys: Vec<Key> = names
                    .into_iter()
                    .filter_map(|name| Key::new(name).ok())
                    .filter(|key| key.is_under(prefix))
                    .collect();
                keys.sort();
                keys.dedup();
                Ok(keys)
            }
            Either::B(other) => Err(returned(prefix, "list", "an array of strings", &other)),
        }
    }

    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        let _busy = Busy::enter(self.id, key)?;
        read_apply_write(self, key, apply)
    }
}

impl Drop for HostStore {
    fn drop(&mut self) {
        if let Some(object) = self.object.take() {
            // Fails only while the environment is shutting down, when references are freed
            // with it anyway.
            let _ = object.unref(&self.env);
        }
        self.trampoline.take();
    }
}
