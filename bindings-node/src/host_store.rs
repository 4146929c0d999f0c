//! [`HostStore`]: a [`Store`] over any JS object with synchronous `read`, `write`, `delete`
//! and `list` methods (`HostStore` in `index.d.ts`), used only on the JavaScript thread it
//! came from (neither `Send` nor `Sync`).
//!
//! - A value thrown by a method becomes a `storage` error whose source is a
//!   [`HostException`]; [`crate::errors::to_js_error`] re-throws that very value to the caller.
//! - A method returning the wrong type, or a thenable (a Promise: "host store methods must be
//!   synchronous"), is a `storage` error naming the method, never a success landing later.
//! - `update` is `read`, the closure, `write`. The host's methods can re-enter the package over
//!   the same JS object, so the object (whichever wrapper holds it, see [`OBJECT_ID`]) is busy
//!   for the whole `update`, and a second `update` on it meanwhile is a `conflict`.
//! - `list` results are checked as the [`Store`] contract requires ([`keys_under`]).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Mutex, PoisonError};

use napi::bindgen_prelude::{
    Buffer, Either, Env, FnArgs, FromNapiValue, Function, FunctionRef, JsObjectValue, JsValue,
    Null, Object, ObjectRef, TypeName, Uint8Array, Unknown, ValidateNapiValue, ValueType,
};
use session_state::{Error, Key, Result, Store, UpdateFn, keys_under, read_apply_write};

use crate::args::{napi_failed, type_name};
use crate::errors::HostException;

/// A [`Store`] calling the methods of a JS object. See the module docs.
pub struct HostStore {
    env: Env,
    object: Option<ObjectRef<false>>,
    trampoline: FunctionRef<TrampolineArgs<'static>, Object<'static>>,
    id: i64,
}

/// The next host object id; ids are never reused, in any thread of the process.
static NEXT_ID: AtomicI64 = AtomicI64::new(1);

/// The ids of the host objects inside an `update` right now, process-wide.
static BUSY: Mutex<BTreeSet<i64>> = Mutex::new(BTreeSet::new());

/// Gives each JS object one id for its lifetime, whichever wrapper asks: a `WeakMap` from
/// object to id on `globalThis` under a registered symbol, non-enumerable and non-writable
/// (the host object itself is not touched, so frozen objects and proxies work too). `fresh`
/// is the id given to an object seen for the first time.
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

/// Calls `o[m](k)` or `o[m](k, d)` and catches what it throws, so that any thrown value (also
/// a primitive, which napi-rs cannot hold a reference to) is kept in the returned object. A
/// method that is no longer a function is `{ ok: true, lacking: typeof o[m] }`. A result with
/// a callable `then` is `{ ok: true, thenable: true }`; a native Promise (also of another
/// realm) first gets a no-op rejection handler, so a rejecting `async` method does not also
/// end the process with an unhandled rejection. A throwing getter is a throw.
const TRAMPOLINE: &str = "(function (o, m, k, d) {
  try {
    const f = o[m]
    if (typeof f !== 'function') return { ok: true, lacking: typeof f }
    const value = d == null ? f.call(o, k) : f.call(o, k, d)
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

impl std::fmt::Debug for HostStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HostStore {{ id: {}, .. }}", self.id)
    }
}

impl HostStore {
    /// Wraps `object`; `invalid_input` naming the first of the four methods it lacks.
    pub fn new(object: &Object<'_>) -> Result<HostStore> {
        let failed = |e: napi::Error| napi_failed("store", &e);
        for method in ["read", "write", "delete", "list"] {
            let value: Unknown<'_> = object.get_named_property(method).map_err(failed)?;
            if value.get_type().ok() != Some(ValueType::Function) {
                return Err(Error::host_store_lacks("store", method));
            }
        }
        let env = Env::from_raw(object.value().env);
        let trampoline: Function<'_, TrampolineArgs<'static>, Object<'static>> =
            env.run_script(TRAMPOLINE).map_err(failed)?;
        let object_id: Function<'_, FnArgs<(Object<'_>, i64)>, i64> =
            env.run_script(OBJECT_ID).map_err(failed)?;
        let fresh = NEXT_ID.fetch_add(1, Ordering::Relaxed); // far below 2^53
        let id = object_id.call((*object, fresh).into()).map_err(failed)?;
        Ok(HostStore {
            env,
            object: Some(object.create_ref::<false>().map_err(failed)?),
            trampoline: trampoline.create_ref().map_err(failed)?,
            id,
        })
    }

    /// Calls `object[method](key[, data])` through [`TRAMPOLINE`]; a result that is not an `R`
    /// is a `storage` error saying it is not what was `expected`.
    fn call<R>(&self, key: &Key, method: &str, data: Option<Buffer>, expected: &str) -> Result<R>
    where
        R: FromNapiValue + ValidateNapiValue + TypeName,
    {
        let broken = |e: napi::Error| Error::host_unreachable(key, method, &e.reason);
        let object = self
            .object
            .as_ref()
            .ok_or_else(|| Error::host_unreachable(key, method, "host store already released"))?;
        let outcome: Object<'_> = self
            .trampoline
            .borrow_back(&self.env)
            .and_then(|f| {
                let object = object.get_value(&self.env)?;
                f.call((object, method.to_owned(), key.to_string(), data).into())
            })
            .map_err(broken)?;
        if !outcome.get_named_property::<bool>("ok").map_err(broken)? {
            // A reference to the outcome object keeps the thrown value (even a primitive) alive.
            let thrown = HostException(napi::Error::from(outcome.to_unknown()));
            return Err(Error::host_threw(key, method).with_source(thrown));
        }
        if let Some(got) = outcome
            .get_named_property::<Option<String>>("lacking")
            .map_err(broken)?
        {
            let reason = format!("`{method}` is now of type {got}, not a function");
            return Err(Error::host_unreachable(key, method, &reason));
        }
        if outcome.has_named_property("thenable").map_err(broken)? {
            return Err(Error::host_async(key, method));
        }
        let value = outcome.get_named_property::<Either<R, Unknown<'_>>>("value");
        match value.map_err(broken)? {
            Either::A(value) => Ok(value),
            Either::B(got) => Err(Error::host_returned(key, method, type_name(&got), expected)),
        }
    }
}

impl Store for HostStore {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        let read: Option<Either<Uint8Array, String>> =
            self.call(key, "read", None, "a Uint8Array, string or null")?;
        Ok(read.map(|bytes| match bytes {
            Either::A(bytes) => bytes.to_vec(),
            Either::B(text) => text.into_bytes(),
        }))
    }

    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        let data = Some(Buffer::from(data.to_vec()));
        self.call::<Option<Null>>(key, "write", data, "undefined (nothing)")
            .map(drop)
    }

    fn delete(&self, key: &Key) -> Result<bool> {
        self.call(key, "delete", None, "a boolean")
    }

    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        let names: Vec<String> = self.call(prefix, "list", None, "an array of strings")?;
        Ok(keys_under(prefix, names))
    }

    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        let busy = || BUSY.lock().unwrap_or_else(PoisonError::into_inner);
        if !busy().insert(self.id) {
            return Err(Error::host_reentered(key));
        }
        let updated = read_apply_write(self, key, apply);
        busy().remove(&self.id);
        updated
    }
}

impl Drop for HostStore {
    fn drop(&mut self) {
        if let Some(object) = self.object.take() {
            // Fails only while the environment is shutting down, which frees references anyway.
            let _ = object.unref(&self.env);
        }
    }
}
