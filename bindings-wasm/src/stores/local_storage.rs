//! `LocalStorageStore`: keys kept in `window.localStorage` (or any Web Storage) under a prefix,
//! by the core's [`TextItemStore`] (item `prefix + key`, UTF-8 as text, other bytes as
//! base64). When the browser throws (`QuotaExceededError`), the old value is intact and the
//! caller gets a `storage` error whose `cause` is the browser's exception. Two tabs of one
//! origin writing the same key at the same moment can still lose an update (no lock).

use js_sys::Reflect;
use session_state::text_item_store::{TextItemStore, TextItems};
use session_state::{Error, ErrorKind, Key, Result, Store};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use super::{method, store_class_methods};
use crate::convert::{Arg, is_absent};
use crate::errors::{JsResult, browser_exception, describe, invalid_input, type_name};

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

/// The Rust side of a [`LocalStorageStore`]: the core's text item store over Web Storage.
pub type LocalStorage = TextItemStore<WebStorage>;

impl TextItems for WebStorage {
    fn get(&self, name: &str, key: &Key, action: &str) -> Result<Option<String>> {
        let value = self
            .get_item(name)
            .map_err(|e| browser_exception(key, action, e))?;
        if is_absent(&value) || value.is_string() {
            return Ok(value.as_string());
        }
        let got = type_name(&value);
        let message = format!("cannot {action} `{key}`: the storage returned {got}");
        Err(Error::new(ErrorKind::Storage, message).with_context("key", key.as_str()))
    }

    fn set(&self, name: &str, text: &str, key: &Key) -> Result<()> {
        self.set_item(name, text)
            .map_err(|e| browser_exception(key, "write", e))
    }

    fn remove(&self, name: &str, key: &Key) -> Result<()> {
        self.remove_item(name)
            .map_err(|e| browser_exception(key, "delete", e))
    }

    fn names(&self, prefix: &Key) -> Result<Vec<String>> {
        let failed = |e| browser_exception(prefix, "list", e);
        let length = Reflect::get(self, &JsValue::from_str("length")).map_err(failed)?;
        // A Web Storage length is a small non-negative integer.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let length = length.as_f64().map_or(0, |n| n as u32);
        let names = (0..length).map(|i| self.key_at(i).map(|n| n.as_string()).map_err(failed));
        names.filter_map(Result::transpose).collect()
    }
}

/// A store in `localStorage` (or another Web Storage), key `k` as the item `prefix + k`; a write
/// over the quota throws `storage` (`cause`: the `QuotaExceededError`) and changes nothing.
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct LocalStorageStore {
    inner: LocalStorage,
}

#[wasm_bindgen]
impl LocalStorageStore {
    /// A store over `storage` (default: `globalThis.localStorage`; none in Node) under `prefix`,
    /// e.g. `"session-state/"`. An empty prefix lists every item whose name is a valid key.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string")] prefix: &JsValue,
        storage: Option<WebStorage>,
    ) -> JsResult<LocalStorageStore> {
        let prefix = String::arg(prefix, "prefix")?;
        let storage = match storage {
            Some(object) => JsValue::from(object),
            None => default_storage()?,
        };
        let not_storage = "`storage` must be a Web Storage object";
        if !storage.is_object() {
            let got = type_name(&storage);
            return Err(invalid_input(format!("{not_storage}, not {got}")));
        }
        let missing =
            |name: &str| Error::invalid_input(format!("{not_storage}; it has no `{name}` method"));
        for name in ["getItem", "setItem", "removeItem", "key"] {
            method(&storage, name, missing)?;
        }
        let inner = TextItemStore::new(prefix, storage.unchecked_into());
        Ok(LocalStorageStore { inner })
    }

    /// The prefix every item name starts with.
    #[wasm_bindgen(getter)]
    pub fn prefix(&self) -> String {
        self.inner.prefix().to_owned()
    }
}

store_class_methods!(LocalStorageStore);

/// `globalThis.localStorage`, or a `storage` error when there is none or access is refused.
fn default_storage() -> Result<JsValue> {
    let unavailable = |detail: String| {
        let message = format!("localStorage is not available: {detail}");
        Error::new(ErrorKind::Storage, message)
    };
    match Reflect::get(&js_sys::global(), &JsValue::from_str("localStorage")) {
        Ok(storage) if storage.is_object() => Ok(storage),
        Ok(other) => Err(unavailable(format!("it is {}", type_name(&other)))),
        Err(exception) => Err(unavailable(describe(&exception))),
    }
}
