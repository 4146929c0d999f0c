//! [`HostStore`]: a [`Store`] over any JS object with synchronous `read`, `write`, `delete`
//! and `list` methods (issue 6):
//!
//! ```ts
//! interface HostStore {
//!   read(key: string): Uint8Array | string | null | undefined  // Buffer is a Uint8Array
//!   write(key: string, data: Buffer): void
//!   delete(key: string): boolean
//!   list(prefix: string): string[]  // keys strictly below the folder `prefix`
//! }
//! ```
//!
//! - A value thrown by a method becomes a `storage` error whose source is a
//!   [`HostException`]; [`crate::errors::to_js_error`] re-throws that very value to the caller.
//! - A method returning the wrong type is a `storage` error naming the method.
//! - `update` is `read`, then the closure, then `write`: JavaScript is single-threaded, so
//!   nothing runs between them unless the host methods themselves yield (they cannot: they
//!   are synchronous). Two processes sharing one host store get no lock from this adapter.
//! - `list` results are checked: keys that are not valid or not below the prefix are
//!   dropped, and the rest sorted and deduplicated, as the [`Store`] contract requires.
//!
//! The adapter holds a reference to the object and the `Env` it came from; it is only used on
//! that JavaScript thread (it is neither `Send` nor `Sync`).

use napi::bindgen_prelude::{
    Buffer, Either, Env, FnArgs, FromNapiValue, Function, FunctionRef, JsObjectValue, JsValue,
    Object, ObjectRef, TypeName, Uint8Array, Unknown, ValidateNapiValue, ValueType,
};
use session_state::{Error, ErrorKind, Key, Result, Store, UpdateFn};

use crate::args::type_name;
use crate::errors::HostException;

/// The methods a host store must have.
pub const METHODS: [&str; 4] = ["read", "write", "delete", "list"];

/// A [`Store`] calling the methods of a JS object. See the module docs.
pub struct HostStore {
    env: Env,
    object: Option<ObjectRef<false>>,
    trampoline: Option<FunctionRef<TrampolineArgs<'static>, Object<'static>>>,
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
        Ok(HostStore {
            env: *env,
            object: Some(object.create_ref::<false>()?),
            trampoline: Some(trampoline.create_ref()?),
        })
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
const TRAMPOLINE: &str = "(function (o, m, k, d) {
  try { return { ok: true, value: d == null ? o[m](k) : o[m](k, d) } }
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
        self.call::<Unknown<'_>>(key, "write", Some(Buffer::from(data.to_vec())))?;
        Ok(())
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
        let current = self.read(key)?;
        if let Some(bytes) = apply(current.as_deref())? {
            self.write(key, &bytes)?;
        }
        Ok(())
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
