//! The stores a JS caller can hand to every class: [`MemoryStore`], [`LocalStorageStore`] and
//! any JS object with `read`/`write`/`delete`/`list` ([`HostStore`]), resolved as an
//! [`AnyStore`] (its [`Arg`] impl). Our own classes resolve to their Rust store (no JS round
//! trip, data shared with the JS object); anything else is adapted as a host store.

mod host;
mod local_storage;
mod memory;

use std::cell::RefCell;
use std::fmt::Debug;

use js_sys::{Function, Reflect};
use session_state::{Error, Key, Store};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

pub use host::HostStore;
pub use local_storage::{LocalStorage, LocalStorageStore, WebStorage};
pub use memory::MemoryStore;

use crate::convert::{Arg, js_methods};
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
/// of that store to the `store` argument that holds them.
macro_rules! store_class_methods {
    ($class:ident) => {
        #[wasm_bindgen]
        impl $class {
            /// The bytes under `key`, or `null`. Throws `invalid_key` for an unsafe key.
            #[wasm_bindgen(unchecked_return_type = "Uint8Array | null")]
            pub fn read(
                &self,
                #[wasm_bindgen(unchecked_param_type = "string")] key: &JsValue,
            ) -> crate::errors::JsResult<JsValue> {
                crate::stores::read(&self.inner, key, false)
            }

            /// The UTF-8 text under `key`, or `null` (`corrupt_state` when it is not UTF-8).
            #[wasm_bindgen(js_name = readText, unchecked_return_type = "string | null")]
            pub fn read_text(
                &self,
                #[wasm_bindgen(unchecked_param_type = "string")] key: &JsValue,
            ) -> crate::errors::JsResult<JsValue> {
                crate::stores::read(&self.inner, key, true)
            }

            /// Hands the Rust store to a `store` argument (not part of the TS API).
            #[wasm_bindgen(js_name = __sessionStateStore, skip_typescript)]
            pub fn hand_off(&self) {
                let store: crate::stores::AnyStore = Box::new(self.inner.clone());
                crate::stores::HANDED_OFF.with(|slot| *slot.borrow_mut() = Some(store));
            }
        }

        crate::convert::js_methods!($class {
            #[doc = " Replaces the value under `key` (a string as UTF-8); all or nothing."]
            fn write as write(&self, key: session_state::Key = "string", data: Vec<u8> =
                "Uint8Array | string");
            #[doc = " Removes `key`; `true` if it existed."]
            fn delete as delete(&self, key: session_state::Key = "string") -> "boolean";
            #[doc = " Every key strictly below the folder `prefix`, sorted."]
            fn list as list(&self, prefix: JsValue = "string") -> "string[]" => {
                let keys = self.inner.list(&crate::convert::Arg::arg(&prefix, "key")?)?;
                Ok(keys.iter().map(ToString::to_string).collect::<Vec<_>>())
            };
        });
    };
}
use store_class_methods;

/// `read` and `readText` of our store classes: the bytes (or text) under `key`, or `null`.
fn read(store: &dyn Store, key: &JsValue, text: bool) -> JsResult<JsValue> {
    let key = Key::arg(key, "key")?;
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

/// The `store` argument of a JS call: our store classes hand over their Rust store, anything
/// else is adapted as a host store.
impl Arg for AnyStore {
    fn arg(value: &JsValue, _: &str) -> JsResult<Self> {
        let hand_off = if value.is_object() {
            Reflect::get(value, &JsValue::from_str("__sessionStateStore")).map_err(Thrown)?
        } else {
            JsValue::UNDEFINED
        };
        if let Some(method) = hand_off.dyn_ref::<Function>() {
            HANDED_OFF.with(|slot| slot.borrow_mut().take());
            let cannot = |e| invalid_input(format!("`store` cannot be used: {}", describe(&e)));
            method.call0(value).map_err(cannot)?;
            if let Some(store) = HANDED_OFF.with(|slot| slot.borrow_mut().take()) {
                return Ok(store);
            }
        }
        Ok(Box::new(HostStore::from_js(value)?))
    }
}

js_methods!(fn {
    #[doc = " Copies every key below the folder `prefix` from one store to another; returns how many."]
    fn copyStore as copy_store(from: AnyStore = "Store", to: AnyStore = "Store", prefix: JsValue =
        "string") -> "number" => {
        let mut copied = 0u32;
        for key in from.list(&Key::arg(&prefix, "key")?)? {
            if let Some(bytes) = from.read(&key)? {
                to.write(&key, &bytes)?;
                copied += 1;
            }
        }
        Ok(copied)
    };
});
