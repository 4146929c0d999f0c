//! The adapter over a JS object with `read`/`write`/`delete`/`list` (the TS `HostStore`).
//!
//! The methods must be synchronous. An exception they throw reaches the caller unchanged (see
//! [`crate::errors`]); a value of the wrong type (a `Promise`, a number, from `write` anything
//! but `undefined` or `null`) is the core's `storage` error naming the method and the key
//! ([`Error::host_returned`], [`Error::host_async`]), as in the Node package.
//!
//! `update` is read, apply, write. The host's own methods can re-enter the package (a `write`
//! that calls another wrapper over the same host object), so the object is marked busy for the
//! whole `update` (a `WeakSet` in JavaScript, shared by every wrapper over it, as in the Node
//! package), and an `update` of it meanwhile is a `conflict` error instead of a lost update.

use js_sys::{Array, Function, Reflect, Uint8Array};
use session_state::keys_under;
use session_state::{Error, Key, Result, Store, UpdateFn, read_apply_write};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::method;
use crate::convert::is_absent;
use crate::errors::{JsResult, host_exception, invalid_input, type_name};

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    /// With `enter`, marks `object` busy (`false` when it already was); without, clears it.
    #[wasm_bindgen(js_name = hostBusy)]
    fn host_busy(object: &JsValue, enter: bool) -> bool;
}

/// A JS object used as a store through its four methods.
#[derive(Clone, Debug)]
pub struct HostStore {
    object: JsValue,
    methods: Vec<Function>,
}

/// The methods of a host store, in the order of [`HostStore::call`]'s index.
const NAMES: [&str; 4] = ["read", "write", "delete", "list"];

impl HostStore {
    /// Adapts `value`, which must have `read`, `write`, `delete` and `list` methods.
    pub fn from_js(value: &JsValue) -> JsResult<HostStore> {
        if !value.is_object() {
            return Err(invalid_input(format!(
                "`store` must be a MemoryStore, a LocalStorageStore or an object with read, \
                 write, delete and list methods, not {}",
                type_name(value)
            )));
        }
        let missing = |name: &str| Error::host_store_lacks("store", name);
        let methods = NAMES.iter().map(|name| method(value, name, missing));
        let methods = methods.collect::<JsResult<_>>()?;
        let object = value.clone();
        Ok(HostStore { object, methods })
    }

    /// Calls method `index` (`read`, `write`, `delete`, `list`) with the key and `data`.
    fn call(&self, index: usize, key: &Key, data: Option<&[u8]>) -> Result<JsValue> {
        let key_arg = JsValue::from_str(key.as_str());
        let method = &self.methods[index];
        let result = match data {
            Some(data) => method.call2(&self.object, &key_arg, &Uint8Array::from(data)),
            None => method.call1(&self.object, &key_arg),
        };
        result.map_err(|e| host_exception(key, NAMES[index], e))
    }
}

/// A `storage` error for a host method that returned something it must not: the core's
/// [`Error::host_async`] for a thenable, else [`Error::host_returned`].
fn bad_return(key: &Key, method: &str, got: &JsValue, expected: &str) -> Error {
    let then = Reflect::get(got, &JsValue::from_str("then"));
    if got.is_object() && then.is_ok_and(|t| t.is_function()) {
        return Error::host_async(key, method);
    }
    Error::host_returned(key, method, type_name(got), expected)
}

impl Store for HostStore {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        let value = self.call(0, key, None)?;
        if is_absent(&value) {
            Ok(None)
        } else if let Some(text) = value.as_string() {
            Ok(Some(text.into_bytes()))
        } else if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
            Ok(Some(bytes.to_vec()))
        } else {
            let expected = "a Uint8Array, a string, null or undefined";
            Err(bad_return(key, "read", &value, expected))
        }
    }

    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        let result = self.call(1, key, Some(data))?;
        if is_absent(&result) {
            Ok(())
        } else {
            Err(bad_return(key, "write", &result, "undefined or null"))
        }
    }

    fn delete(&self, key: &Key) -> Result<bool> {
        let result = self.call(2, key, None)?;
        result
            .as_bool()
            .ok_or_else(|| bad_return(key, "delete", &result, "a boolean"))
    }

    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        let result = self.call(3, prefix, None)?;
        let not_strings = |got: &JsValue| bad_return(prefix, "list", got, "an array of strings");
        let array = result
            .dyn_ref::<Array>()
            .ok_or_else(|| not_strings(&result))?;
        let names: Result<Vec<String>> = array
            .iter()
            .map(|e| e.as_string().ok_or_else(|| not_strings(&e)))
            .collect();
        Ok(keys_under(prefix, names?))
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
