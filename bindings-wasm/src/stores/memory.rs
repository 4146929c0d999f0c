//! `MemoryStore`: the core's in-memory store as a JS class.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::{AnyStore, hand_off, js_delete, js_list, js_read, js_read_text, js_write};
use crate::errors::JsResult;

/// A store in memory (lost when the page closes). Every class that takes a store shares this
/// one's data, so what a class saved can be read back here (and the other way round).
#[wasm_bindgen]
#[derive(Clone, Debug, Default)]
pub struct MemoryStore {
    inner: session_state::MemoryStore,
}

#[wasm_bindgen]
impl MemoryStore {
    /// An empty store.
    #[wasm_bindgen(constructor)]
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// The bytes under `key`, or `null`.
    ///
    /// Throws `invalid_key` for an unsafe key.
    #[wasm_bindgen(unchecked_return_type = "Uint8Array | null")]
    pub fn read(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: &JsValue,
    ) -> JsResult<JsValue> {
        js_read(&self.inner, key)
    }

    /// The UTF-8 text under `key`, or `null`.
    ///
    /// Throws `invalid_key` for an unsafe key, `corrupt_state` when the bytes are not UTF-8.
    #[wasm_bindgen(js_name = readText, unchecked_return_type = "string | null")]
    pub fn read_text(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: &JsValue,
    ) -> JsResult<JsValue> {
        js_read_text(&self.inner, key)
    }

    /// Replaces the value under `key` (a string is stored as UTF-8).
    ///
    /// Throws `invalid_key` for an unsafe key, `invalid_input` when `data` is not a string or
    /// a `Uint8Array`.
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

    /// Number of keys held.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.inner.len()
    }

    /// Hands the Rust store to [`AnyStore::from_js`] (not part of the TS API).
    #[wasm_bindgen(js_name = __sessionStateStore, skip_typescript)]
    pub fn hand_off(&self) {
        hand_off(AnyStore::Memory(self.inner.clone()));
    }
}
