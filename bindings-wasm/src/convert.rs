//! JS arguments to core types and core data to plain JS values.
//!
//! Values cross as JSON text through the engine's own `JSON.parse` / `JSON.stringify`, as in
//! the Node package: a document reaches JavaScript as `JSON.parse(file)` gives it, and a JS
//! argument reaches the core as the core's strict `JSON.stringify` writes it
//! ([`session_state::js_json`]: what JSON cannot hold exactly is `invalid_input` naming the
//! argument and the member, never changed silently).

use js_sys::{Array, JsString, Reflect, Uint8Array};
use serde::Serialize;
use serde::de::DeserializeOwned;
use session_state::js_json::{StrictJson, read_strict_json};
use session_state::{Key, MAX_VALUE_NESTING, json};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::errors::{IntoJsResult, JsResult, describe, invalid_input, type_name};

#[wasm_bindgen]
extern "C" {
    /// A `string` argument, checked when read ([`Text::get`]): wasm-bindgen would silently
    /// stringify a number given for a `String` parameter.
    #[wasm_bindgen(typescript_type = "string")]
    #[derive(Clone, Debug)]
    pub type Text;
}

impl Text {
    /// The string, named `what` in errors (as [`string_arg`]).
    pub fn get(&self, what: &str) -> JsResult<String> {
        string_arg(self, what)
    }
}

/// An optional `string` argument `what` (`undefined` and `null` are `None`).
pub fn opt_text(value: Option<Text>, what: &str) -> JsResult<Option<String>> {
    value.map(|text| text.get(what)).transpose()
}

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = strictJson)]
    fn strict_json(value: &JsValue, max_depth: u32) -> JsResult<JsValue>;
}

/// `value` as a plain JS value (objects, arrays, strings, numbers, booleans, `null`).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsResult<JsValue> {
    let text = serde_json::to_string_pretty(value).map_err(|e| invalid_input(e.to_string()))?;
    js_sys::JSON::parse(&text).map_err(|e| invalid_input(describe(&e)))
}

/// Any JSON value from the JS argument `what` (the core's strict `JSON.stringify`).
pub fn value_from_js(value: &JsValue, what: &str) -> JsResult<serde_json::Value> {
    #[allow(clippy::cast_possible_truncation)] // 100
    let outcome = strict_json(value, MAX_VALUE_NESTING as u32)
        .map_err(|e| invalid_input(format!("`{what}` is not JSON: {}", describe(&e))))?;
    let get = |name: &str| Reflect::get(&outcome, &JsValue::from_str(name)).unwrap_or_default();
    let (text, refused) = (get("text").as_string(), get("refused"));
    let parts: Vec<String> = refused
        .dyn_ref::<Array>()
        .map(|a| {
            a.iter()
                .map(|p| p.as_string().unwrap_or_default())
                .collect()
        })
        .unwrap_or_default();
    let type_name = type_name(value);
    let outcome = StrictJson::from_members(text.as_deref(), &parts, &type_name);
    read_strict_json(what, outcome).js()
}

/// A document (a plain JS object) from the argument `what`, members kept in order.
pub fn document_from_js(
    value: &JsValue,
    what: &str,
) -> JsResult<serde_json::Map<String, serde_json::Value>> {
    let not_object = || {
        invalid_input(format!(
            "`{what}` must be an object, got {}",
            type_name(value)
        ))
    };
    if !value.is_object() || Array::is_array(value) {
        return Err(not_object());
    }
    match value_from_js(value, what)? {
        serde_json::Value::Object(map) => Ok(map),
        _ => Err(not_object()),
    }
}

/// The JSON bytes of the document argument `what`, for the core's parsers.
pub fn document_bytes(value: &JsValue, what: &str) -> JsResult<Vec<u8>> {
    serde_json::to_vec(&document_from_js(value, what)?).map_err(|e| invalid_input(e.to_string()))
}

/// The JS argument `what` read as `T` (the core's `json::from_value`).
pub fn from_js<T: DeserializeOwned>(value: &JsValue, what: &str) -> JsResult<T> {
    json::from_value(value_from_js(value, what)?, what).js()
}

/// An optional options object `what` read as `T`: `undefined` and `null` give `T::default()`.
pub fn options_arg<T: DeserializeOwned + Default>(value: &JsValue, what: &str) -> JsResult<T> {
    if is_absent(value) {
        return Ok(T::default());
    }
    json::from_value(document_from_js(value, what)?.into(), what).js()
}

/// The `string` argument `what` (wasm-bindgen would silently stringify a number).
pub fn string_arg(value: &JsValue, what: &str) -> JsResult<String> {
    let Some(text) = value.dyn_ref::<JsString>() else {
        return Err(invalid_input(format!(
            "`{what}` must be a string, not {}",
            type_name(value)
        )));
    };
    if !text.is_valid_utf16() {
        return Err(invalid_input(format!(
            "`{what}` holds a lone surrogate, half of a UTF-16 pair, which UTF-8 (and a file \
             name or JSON file) cannot hold"
        )));
    }
    Ok(String::from(text))
}

/// `undefined` or `null`.
pub fn is_absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

/// The store key argument `what`: `invalid_key` when it is not a safe relative key.
pub fn key_arg(key: &JsValue, what: &str) -> JsResult<Key> {
    Key::new(string_arg(key, what)?).js()
}

/// The bytes of a `string | Uint8Array` argument `what` (strings as UTF-8).
pub fn bytes_arg(value: &JsValue, what: &str) -> JsResult<Vec<u8>> {
    if let Some(array) = value.dyn_ref::<Uint8Array>() {
        return Ok(array.to_vec());
    }
    if !value.is_string() {
        return Err(invalid_input(format!(
            "`{what}` must be a string or a Uint8Array, not {}",
            type_name(value)
        )));
    }
    Ok(string_arg(value, what)?.into_bytes())
}

/// An instant argument `what`: `undefined` and `null` are now (`Date.now()`), an RFC 3339
/// string or a `Date` (its ISO text) is that instant.
pub fn instant_arg(value: &JsValue, what: &str) -> JsResult<chrono::DateTime<chrono::Utc>> {
    if is_absent(value) {
        return Ok(session_state::Clock::now(&crate::clock::JsClock));
    }
    Ok(from_js::<session_state::Timestamp>(value, what)?.utc())
}
