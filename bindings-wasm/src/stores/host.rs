//! The adapter over a JS object with `read`/`write`/`delete`/`list` (the TS `HostStore`).
//!
//! The methods must be synchronous. An exception they throw reaches the caller unchanged (see
//! [`crate::errors`]); a value of the wrong type (a `Promise`, a number, from `write` anything
//! but `undefined` or `null`) is a `storage` error naming the method and the key.
//!
//! `update` is read, apply, write: exclusive as far as this page goes (JS runs one call at a
//! time), not across processes sharing the host's data. The host's own methods can re-enter
//! the package (a `write` that calls another wrapper over the same host object), so the host
//! object is marked busy for the whole `update`, and an `update` of it meanwhile is a
//! `conflict` error instead of an update the outer write then overwrites. The mark belongs to
//! the JS object (a `WeakSet` in JavaScript), so every wrapper over it shares it, as in the
//! Node package; it is released on every path (errors, exceptions thrown by the host).

use js_sys::{Array, Function, Reflect, Uint8Array};
use session_state::{Error, ErrorKind, Key, Result, Store, UpdateFn, read_apply_write};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::errors::{JsResult, host_exception, invalid_input, type_name};

// `hostBusy(object, enter)`: with `enter`, marks `object` busy and returns `false` when it
// already was; without, clears the mark. JavaScript, so it costs no wasm code.
#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    #[wasm_bindgen(js_name = hostBusy)]
    fn host_busy(object: &JsValue, enter: bool) -> bool;
}

/// A JS object used as a store through its four methods.
#[derive(Clone, Debug)]
pub struct HostStore {
    object: JsValue,
    read: Function,
    write: Function,
    delete: Function,
    list: Function,
}

impl HostStore {
    /// Adapts `value`, which must have `read`, `write`, `delete` and `list` methods.
    ///
    /// # Errors
    /// `invalid_input` naming the first missing method; an exception thrown by a getter
    /// passes through unchanged.
    pub fn from_js(value: &JsValue) -> JsResult<HostStore> {
        if !value.is_object() {
            return Err(invalid_input(format!(
                "`store` must be a MemoryStore, a LocalStorageStore or an object with read, \
                 write, delete and list methods, not {}",
                type_name(value)
            )));
        }
        let method = |name: &str| -> JsResult<Function> {
            Reflect::get(value, &JsValue::from_str(name))?
                .dyn_into::<Function>()
                .map_err(|_| invalid_input(format!("`store` has no `{name}` method")))
        };
        Ok(HostStore {
            read: method("read")?,
            write: method("write")?,
            delete: method("delete")?,
            list: method("list")?,
            object: value.clone(),
        })
    }
}

/// A `storage` error for a host method that returned something it must not.
fn bad_return(key: &Key, method: &str, got: &JsValue, expected: &str) -> Error {
    let got = if is_thenable(got) {
        "a Promise (host stores must be synchronous)".to_owned()
    } else {
        type_name(got)
    };
    Error::new(
        ErrorKind::Storage,
        format!("host store `{method}` returned {got} for `{key}`; expected {expected}"),
    )
    .with_context("key", key.as_str())
}

fn is_thenable(value: &JsValue) -> bool {
    value.is_object()
        && Reflect::get(value, &JsValue::from_str("then")).is_ok_and(|t| t.is_function())
}

impl Store for HostStore {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        let value = self
            .read
            .call1(&self.object, &JsValue::from_str(key.as_str()))
            .map_err(|e| host_exception(key, "read", e))?;
        if value.is_null() || value.is_undefined() {
            Ok(None)
        } else if let Some(text) = value.as_string() {
            Ok(Some(text.into_bytes()))
        } else if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
            Ok(Some(bytes.to_vec()))
        } else {
            Err(bad_return(
                key,
                "read",
                &value,
                "a Uint8Array, a string, null or undefined",
            ))
        }
    }

    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        let result = self
            .write
            .call2(
                &self.object,
                &JsValue::from_str(key.as_str()),
                &Uint8Array::from(data),
            )
            .map_err(|e| host_exception(key, "write", e))?;
        if result.is_undefined() || result.is_null() {
            Ok(())
        } else {
            Err(bad_return(key, "write", &result, "undefined or null"))
        }
    }

    fn delete(&self, key: &Key) -> Result<bool> {
        let result = self
            .delete
            .call1(&self.object, &JsValue::from_str(key.as_str()))
            .map_err(|e| host_exception(key, "delete", e))?;
        result
            .as_bool()
            .ok_or_else(|| bad_return(key, "delete", &result, "a boolean"))
    }

    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        let result = self
            .list
            .call1(&self.object, &JsValue::from_str(prefix.as_str()))
            .map_err(|e| host_exception(prefix, "list", e))?;
        let Some(array) = result.dyn_ref::<Array>() else {
            return Err(bad_return(prefix, "list", &result, "an array of strings"));
        };
        let mut keys = Vec::with_capacity(array.length() as usize);
        for entry in array.iter() {
            let Some(name) = entry.as_string() else {
                return Err(bad_return(prefix, "list", &entry, "an array of strings"));
            };
            // Names that are not valid keys, or not below the prefix, are skipped (Store::list).
            if let Ok(key) = Key::new(name)
                && key.is_under(prefix)
            {
                keys.push(key);
            }
        }
        // Equal keys are identical, so unstable gives the same result with less code.
        keys.sort_unstable();
        keys.dedup();
        Ok(keys)
    }

    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        if !host_busy(&self.object, true) {
            return Err(Error::host_reentered(key));
        }
        // Released on every path (errors, exceptions thrown by the host).
        let result = read_apply_write(self, key, apply);
        host_busy(&self.object, false);
        result
    }
}
