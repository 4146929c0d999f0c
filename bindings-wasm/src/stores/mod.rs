//! The stores a JS caller can hand to every class: [`MemoryStore`], [`LocalStorageStore`] and
//! any JS object with `read`/`write`/`delete`/`list` ([`HostStore`]), unified as [`AnyStore`].
//! Our own classes resolve to their Rust store (no JS round trip, data shared with the JS
//! object); anything else is adapted as a host store.

mod host;
mod local_storage;
mod memory;

use std::cell::RefCell;

use js_sys::{Function, Reflect};
use session_state::{Key, Leftover, Result, Store, UpdateFn};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

pub use host::HostStore;
pub use local_storage::{LocalStorage, LocalStorageStore, WebStorage};
pub use memory::MemoryStore;

use crate::convert::key_arg;
use crate::errors::{IntoJsResult, JsResult, describe, invalid_input};

thread_local! {
    static HANDED_OFF: RefCell<Option<AnyStore>> = const { RefCell::new(None) };
}

/// Our store classes' shared JS methods (`read`, `readText`, `write`, `delete`, `list`) over
/// their `inner` core store, and the hidden `__sessionStateStore` by which they hand that store
/// to [`AnyStore::from_js`] as `AnyStore::$variant`.
macro_rules! store_class_methods {
    ($class:ident, $variant:ident) => {
        #[wasm_bindgen]
        impl $class {
            /// The bytes under `key`, or `null`. Throws `invalid_key` for an unsafe key.
            #[wasm_bindgen(unchecked_return_type = "Uint8Array | null")]
            pub fn read(&self, key: &crate::convert::Text) -> JsResult<JsValue> {
                let bytes = self.inner.read(&key_arg(key, "key")?).js()?;
                Ok(bytes.map_or(JsValue::NULL, |b| {
                    js_sys::Uint8Array::from(b.as_slice()).into()
                }))
            }

            /// The UTF-8 text under `key`, or `null` (`corrupt_state` when it is not UTF-8).
            #[wasm_bindgen(js_name = readText, unchecked_return_type = "string | null")]
            pub fn read_text(&self, key: &crate::convert::Text) -> JsResult<JsValue> {
                let key = key_arg(key, "key")?;
                let Some(bytes) = self.inner.read(&key).js()? else {
                    return Ok(JsValue::NULL);
                };
                let text = String::from_utf8(bytes)
                    .map_err(|_| session_state::Error::corrupt(&key, "it is not UTF-8"));
                text.map(JsValue::from).js()
            }

            /// Replaces the value under `key` (a string is stored as UTF-8); all or nothing.
            /// Throws `invalid_input` when `data` is not a string or a `Uint8Array`.
            pub fn write(
                &self,
                key: &crate::convert::Text,
                #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] data: &JsValue,
            ) -> JsResult<()> {
                let key = key_arg(key, "key")?;
                self.inner
                    .write(&key, &crate::convert::bytes_arg(data, "data")?)
                    .js()
            }

            /// Removes `key`; `true` if it existed.
            pub fn delete(&self, key: &crate::convert::Text) -> JsResult<bool> {
                self.inner.delete(&key_arg(key, "key")?).js()
            }

            /// Every key strictly below the folder `prefix`, sorted.
            #[wasm_bindgen(unchecked_return_type = "string[]")]
            pub fn list(&self, prefix: &crate::convert::Text) -> JsResult<js_sys::Array> {
                let keys = self.inner.list(&key_arg(prefix, "key")?).js()?;
                Ok(keys.iter().map(|k| JsValue::from_str(k.as_str())).collect())
            }

            /// Hands the Rust store to [`AnyStore::from_js`] (not part of the TS API).
            #[wasm_bindgen(js_name = __sessionStateStore, skip_typescript)]
            pub fn hand_off(&self) {
                let store = AnyStore::$variant(self.inner.clone());
                crate::stores::HANDED_OFF.with(|slot| *slot.borrow_mut() = Some(store));
            }
        }
    };
}
use store_class_methods;

/// The method `name` of the JS object `value`, or the `invalid_input` error `missing(name)`.
fn method(value: &JsValue, name: &str, missing: impl Fn(&str) -> String) -> JsResult<Function> {
    Reflect::get(value, &JsValue::from_str(name))?
        .dyn_into::<Function>()
        .map_err(|_| invalid_input(missing(name)))
}

/// One of the three kinds of store, behind the core's [`Store`] trait. Cheap to clone; clones
/// share the same data.
#[derive(Clone, Debug)]
pub enum AnyStore {
    /// A [`MemoryStore`]'s map.
    Memory(session_state::MemoryStore),
    /// A [`LocalStorageStore`]'s prefix and storage.
    Local(LocalStorage),
    /// Any other JS object with `read`/`write`/`delete`/`list`.
    Host(HostStore),
}

impl AnyStore {
    /// Resolves the `store` argument of a JS call.
    pub fn from_js(value: &JsValue) -> JsResult<AnyStore> {
        if value.is_object() {
            let hand_off = Reflect::get(value, &JsValue::from_str("__sessionStateStore"))?;
            if let Some(method) = hand_off.dyn_ref::<Function>() {
                HANDED_OFF.with(|slot| slot.borrow_mut().take());
                method.call0(value).map_err(|e| {
                    invalid_input(format!("`store` cannot be used: {}", describe(&e)))
                })?;
                if let Some(store) = HANDED_OFF.with(|slot| slot.borrow_mut().take()) {
                    return Ok(store);
                }
            }
        }
        HostStore::from_js(value).map(AnyStore::Host)
    }

    fn inner(&self) -> &dyn Store {
        match self {
            AnyStore::Memory(s) => s,
            AnyStore::Local(s) => s,
            AnyStore::Host(s) => s,
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

/// Copies every key below the folder `prefix` from one store to another (overwriting what the
/// target holds under the same keys) and returns how many keys it copied. Handy to move state
/// between a `MemoryStore`, `localStorage` and a host store, e.g. to export or import it.
///
/// Throws `invalid_key` for a bad prefix, `invalid_input` for a value that is not a store, and
/// whatever the stores throw; keys copied before a failure stay copied.
#[wasm_bindgen(js_name = copyStore)]
pub fn copy_store(
    #[wasm_bindgen(unchecked_param_type = "Store")] from: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "Store")] to: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] prefix: &JsValue,
) -> JsResult<u32> {
    let (from, to) = (AnyStore::from_js(from)?, AnyStore::from_js(to)?);
    let mut copied = 0u32;
    for key in from.list(&key_arg(prefix, "key")?).js()? {
        if let Some(bytes) = from.read(&key).js()? {
            to.write(&key, &bytes).js()?;
            copied += 1;
        }
    }
    Ok(copied)
}
