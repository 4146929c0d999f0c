//! `LocalStorageStore`: keys kept in `window.localStorage` (or any Web Storage) under a prefix.
//!
//! Each key is one item named `prefix + key`, its bytes kept as text when they are UTF-8 (see
//! [`text`](super::text)). A write is one `setItem`, so it replaces the value whole or not at
//! all: when the browser throws (`QuotaExceededError`), the old value is intact and the caller
//! gets a `storage` error whose `cause` is the browser's exception. `update` is read, apply,
//! write in one synchronous call: exclusive within a page, but two tabs of the same origin
//! writing the same key at the same moment can still lose an update (Web Storage has no lock).

use js_sys::{Array, Function, Reflect};
use session_state::{Error, ErrorKind, Key, Result, Store, UpdateFn};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use super::text;
use super::{AnyStore, hand_off, js_delete, js_list, js_read, js_read_text, js_write};
use crate::convert::string_arg;
use crate::errors::{JsResult, browser_exception, invalid_input, to_js_error, type_name};

#[wasm_bindgen]
extern "C" {
    /// A Web Storage object (`localStorage`, `sessionStorage` or a look-alike).
    #[wasm_bindgen(typescript_type = "WebStorage")]
    #[derive(Clone, Debug)]
    pub type WebStorage;

    #[wasm_bindgen(method, catch, js_name = getItem)]
    fn get_item(this: &WebStorage, key: &str) -> std::result::Result<JsValue, JsValue>;

    #[wasm_bindgen(method, catch, js_name = setItem)]
    fn set_item(this: &WebStorage, key: &str, value: &str) -> std::result::Result<(), JsValue>;

    #[wasm_bindgen(method, catch, js_name = removeItem)]
    fn remove_item(this: &WebStorage, key: &str) -> std::result::Result<(), JsValue>;

    #[wasm_bindgen(method, catch, js_name = key)]
    fn key_at(this: &WebStorage, index: u32) -> std::result::Result<JsValue, JsValue>;
}

/// The Rust side of a [`LocalStorageStore`]: a prefix and a Web Storage object.
#[derive(Clone, Debug)]
pub struct LocalStorage {
    prefix: String,
    storage: WebStorage,
}

impl LocalStorage {
    fn item(&self, key: &Key) -> String {
        format!("{}{}", self.prefix, key.as_str())
    }

    fn len(&self, prefix: &Key) -> Result<u32> {
        let length = Reflect::get(&self.storage, &JsValue::from_str("length"))
            .map_err(|e| browser_exception(prefix, "list", e))?;
        // A Web Storage length is a small non-negative integer.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Ok(length.as_f64().map_or(0, |n| n as u32))
    }
}

impl Store for LocalStorage {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        let value = self
            .storage
            .get_item(&self.item(key))
            .map_err(|e| browser_exception(key, "read", e))?;
        if value.is_null() || value.is_undefined() {
            return Ok(None);
        }
        let stored = value.as_string().ok_or_else(|| {
            Error::new(
                ErrorKind::Storage,
                format!(
                    "cannot read `{key}`: the storage returned {}",
                    type_name(&value)
                ),
            )
            .with_context("key", key.as_str())
        })?;
        Ok(Some(text::decode(stored)))
    }

    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.storage
            .set_item(&self.item(key), &text::encode(data))
            .map_err(|e| browser_exception(key, "write", e))
    }

    fn delete(&self, key: &Key) -> Result<bool> {
        let item = self.item(key);
        let existed = !self
            .storage
            .get_item(&item)
            .map_err(|e| browser_exception(key, "delete", e))?
            .is_null();
        self.storage
            .remove_item(&item)
            .map_err(|e| browser_exception(key, "delete", e))?;
        Ok(existed)
    }

    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        let mut keys = Vec::new();
        for index in 0..self.len(prefix)? {
            let name = self
                .storage
                .key_at(index)
                .map_err(|e| browser_exception(prefix, "list", e))?;
            let Some(rest) = name.as_string().and_then(|n| {
                n.strip_prefix(self.prefix.as_str())
                    .map(std::borrow::ToOwned::to_owned)
            }) else {
                continue;
            };
            if let Ok(key) = Key::new(rest)
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
        let current = self.read(key)?;
        if let Some(bytes) = apply(current.as_deref())? {
            self.write(key, &bytes)?;
        }
        Ok(())
    }
}

/// A store in the browser's `localStorage` (or another Web Storage), every key kept as the
/// item `prefix + key`. UTF-8 documents are stored as their text; other bytes as a NUL,
/// `base64:` and base64. A write that exceeds the quota throws a `storage` error (with the
/// browser's `QuotaExceededError` as `cause`) and leaves the old value intact.
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct LocalStorageStore {
    inner: LocalStorage,
}

#[wasm_bindgen]
impl LocalStorageStore {
    /// A store over `storage` (default: `globalThis.localStorage`) under `prefix`, e.g.
    /// `"session-state/"`. An empty prefix lists every item whose name is a valid key.
    ///
    /// Throws `invalid_input` when `prefix` is not a string or `storage` lacks a Web Storage
    /// method, `storage` when there is no `localStorage` (Node) or the browser refuses access.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string")] prefix: &JsValue,
        storage: Option<WebStorage>,
    ) -> JsResult<LocalStorageStore> {
        let prefix = string_arg(prefix, "prefix")?;
        let storage = match storage {
            Some(object) => JsValue::from(object),
            None => default_storage()?,
        };
        if !storage.is_object() {
            return Err(invalid_input(format!(
                "`storage` must be a Web Storage object, not {}",
                type_name(&storage)
            )));
        }
        for method in ["getItem", "setItem", "removeItem", "key"] {
            let found = Reflect::get(&storage, &JsValue::from_str(method))?;
            if !found.is_instance_of::<Function>() {
                return Err(invalid_input(format!(
                    "`storage` must be a Web Storage object; it has no `{method}` method"
                )));
            }
        }
        Ok(LocalStorageStore {
            inner: LocalStorage {
                prefix,
                storage: storage.unchecked_into(),
            },
        })
    }

    /// The prefix every item name starts with.
    #[wasm_bindgen(getter)]
    pub fn prefix(&self) -> String {
        self.inner.prefix.clone()
    }

    /// The bytes under `key`, or `null`.
    #[wasm_bindgen(unchecked_return_type = "Uint8Array | null")]
    pub fn read(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: &JsValue,
    ) -> JsResult<JsValue> {
        js_read(&self.inner, key)
    }

    /// The UTF-8 text under `key`, or `null` (`corrupt_state` when it is not UTF-8).
    #[wasm_bindgen(js_name = readText, unchecked_return_type = "string | null")]
    pub fn read_text(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: &JsValue,
    ) -> JsResult<JsValue> {
        js_read_text(&self.inner, key)
    }

    /// Replaces the value under `key` (a string is stored as UTF-8); all or nothing.
    pub fn write(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] data: &JsValue,
    ) -> JsResult<()> {
        js_write(&self.inner, key, data)
    }

    /// Removes `key`; `true` if it existed.
    pub fn delete(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: &JsValue,
    ) -> JsResult<bool> {
        js_delete(&self.inner, key)
    }

    /// Every key strictly below the folder `prefix`, sorted.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn list(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] prefix: &JsValue,
    ) -> JsResult<Array> {
        js_list(&self.inner, prefix)
    }

    /// Hands the Rust store to [`AnyStore::from_js`] (not part of the TS API).
    #[wasm_bindgen(js_name = __sessionStateStore, skip_typescript)]
    pub fn hand_off(&self) {
        hand_off(AnyStore::Local(self.inner.clone()));
    }
}

/// `globalThis.localStorage`, or a `storage` error when there is none or access is refused.
fn default_storage() -> JsResult<JsValue> {
    let unavailable = |detail: String| {
        to_js_error(Error::new(
            ErrorKind::Storage,
            format!("localStorage is not available: {detail}"),
        ))
    };
    match Reflect::get(&js_sys::global(), &JsValue::from_str("localStorage")) {
        Ok(storage) if storage.is_object() => Ok(storage),
        Ok(other) => Err(unavailable(format!("it is {}", type_name(&other)))),
        Err(exception) => Err(unavailable(crate::errors::describe(&exception))),
    }
}
