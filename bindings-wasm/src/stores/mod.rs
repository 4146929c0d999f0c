//! The stores a JS caller can hand to every class: [`MemoryStore`], [`LocalStorageStore`] and
//! any JS object with `read`/`write`/`delete`/`list` ([`HostStore`]), resolved as an
//! [`AnyStore`] by [`store_arg`]. Our own classes resolve to their Rust store (no JS round
//! trip, data shared with the JS object); anything else is adapted as a host store.

mod host;
mod local_storage;
mod memory;

use std::cell::RefCell;
use std::fmt::Debug;

use js_sys::{Function, Reflect};
use session_state::{Error, Store};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

pub use host::HostStore;
pub use local_storage::{LocalStorage, LocalStorageStore, WebStorage};
pub use memory::MemoryStore;

use crate::convert::{StoreArg, Text, key_arg};
use crate::errors::{JsResult, Thrown, describe, invalid_input};

/// A [`Store`] the classes can print.
pub trait JsStore: Store + Debug {}
impl<S: Store + Debug> JsStore for S {}

/// A store given from JavaScript: a [`MemoryStore`]'s map or a [`LocalStorageStore`]'s
/// storage (shared with the JS object), or a [`HostStore`].
pub type AnyStore = Box<dyn JsStore>;

thread_local! {
    static HANDED_OFF: RefCell<Option<AnyStore>> = const { RefCell::new(None) };
}

/// Our store classes' shared JS methods (`read`, `readText`, `write`, `delete`, `list`) over
/// their `inner` core store, and the hidden `__sessionStateStore` by which they hand a clone
/// of that store to [`store_arg`].
macro_rules! store_class_methods {
    ($class:ident) => {
        #[wasm_bindgen]
        impl $class {
            /// The bytes under `key`, or `null`. Throws `invalid_key` for an unsafe key.
            #[wasm_bindgen(unchecked_return_type = "Uint8Array | null")]
            pub fn read(&self, key: &crate::convert::Text) -> JsResult<JsValue> {
                crate::stores::read(&self.inner, key, false)
            }

            /// The UTF-8 text under `key`, or `null` (`corrupt_state` when it is not UTF-8).
            #[wasm_bindgen(js_name = readText, unchecked_return_type = "string | null")]
            pub fn read_text(&self, key: &crate::convert::Text) -> JsResult<JsValue> {
                crate::stores::read(&self.inner, key, true)
            }

            /// Replaces the value under `key` (a string is stored as UTF-8); all or nothing.
            /// Throws `invalid_input` when `data` is not a string or a `Uint8Array`.
            pub fn write(
                &self,
                key: &crate::convert::Text,
                #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] data: &JsValue,
            ) -> JsResult<()> {
                let key = key_arg(key, "key")?;
                Ok(self
                    .inner
                    .write(&key, &crate::convert::bytes_arg(data, "data")?)?)
            }

            /// Removes `key`; `true` if it existed.
            pub fn delete(&self, key: &crate::convert::Text) -> JsResult<bool> {
                Ok(self.inner.delete(&key_arg(key, "key")?)?)
            }

            /// Every key strictly below the folder `prefix`, sorted.
            #[wasm_bindgen(unchecked_return_type = "string[]")]
            pub fn list(&self, prefix: &crate::convert::Text) -> JsResult<js_sys::Array> {
                let keys = self.inner.list(&key_arg(prefix, "key")?)?;
                Ok(keys.iter().map(|k| JsValue::from_str(k.as_str())).collect())
            }

            /// Hands the Rust store to [`store_arg`] (not part of the TS API).
            #[wasm_bindgen(js_name = __sessionStateStore, skip_typescript)]
            pub fn hand_off(&self) {
                let store: AnyStore = Box::new(self.inner.clone());
                crate::stores::HANDED_OFF.with(|slot| *slot.borrow_mut() = Some(store));
            }
        }
    };
}
use store_class_methods;

/// `read` and `readText` of our store classes: the bytes (or text) under `key`, or `null`.
fn read(store: &dyn Store, key: &Text, text: bool) -> JsResult<JsValue> {
    let key = key_arg(key, "key")?;
    let Some(bytes) = store.read(&key)? else {
        return Ok(JsValue::NULL);
    };
    if !text {
        return Ok(js_sys::Uint8Array::from(bytes.as_slice()).into());
    }
    let text = String::from_utf8(bytes).map_err(|_| Error::corrupt(&key, "it is not UTF-8"))?;
    Ok(text.into())
}

/// The method `name` of the JS object `value`, or the error `missing(name)`.
fn method(value: &JsValue, name: &str, missing: impl Fn(&str) -> Error) -> JsResult<Function> {
    Reflect::get(value, &JsValue::from_str(name))
        .map_err(Thrown)?
        .dyn_into::<Function>()
        .map_err(|_| missing(name).into())
}

/// Resolves the `store` argument of a JS call.
pub fn store_arg(value: &JsValue) -> JsResult<AnyStore> {
    if value.is_object() {
        let hand_off = Reflect::get(value, &JsValue::from_str("__sessionStateStore"));
        if let Some(method) = hand_off.map_err(Thrown)?.dyn_ref::<Function>() {
            HANDED_OFF.with(|slot| slot.borrow_mut().take());
            method
                .call0(value)
                .map_err(|e| invalid_input(format!("`store` cannot be used: {}", describe(&e))))?;
            if let Some(store) = HANDED_OFF.with(|slot| slot.borrow_mut().take()) {
                return Ok(store);
            }
        }
    }
    Ok(Box::new(HostStore::from_js(value)?))
}

/// Copies every key below the folder `prefix` from one store to another (overwriting what the
/// target holds under the same keys) and returns how many keys it copied. Handy to move state
/// between a `MemoryStore`, `localStorage` and a host store, e.g. to export or import it.
///
/// Throws `invalid_key` for a bad prefix, `invalid_input` for a value that is not a store, and
/// whatever the stores throw; keys copied before a failure stay copied.
#[wasm_bindgen(js_name = copyStore)]
pub fn copy_store(
    from: &StoreArg,
    to: &StoreArg,
    #[wasm_bindgen(unchecked_param_type = "string")] prefix: &JsValue,
) -> JsResult<u32> {
    let (from, to) = (store_arg(from)?, store_arg(to)?);
    let mut copied = 0u32;
    for key in from.list(&key_arg(prefix, "key")?)? {
        if let Some(bytes) = from.read(&key)? {
            to.write(&key, &bytes)?;
            copied += 1;
        }
    }
    Ok(copied)
}
