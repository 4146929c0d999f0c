//! Conversions between JS values and the core's plain data types, shared by every wrapper.
//!
//! Values cross as JSON text through the engine's own `JSON.parse` / `JSON.stringify` (as
//! the Node package does), so a document reaches JavaScript exactly as `JSON.parse(file)`
//! would give it (maps as plain objects, `None` as `null`, integers of any size as numbers),
//! and a JS value reaches the core as `JSON.stringify(value)` would write it (`undefined`
//! members dropped, a `Date` as its ISO string), except that what JSON cannot hold is an
//! `invalid_input` error naming the argument and the member instead of being changed silently
//! (the Node package's rules and messages): `NaN` and `±Infinity` (which `JSON.stringify`
//! writes as `null`), numbers beyond `Number.MAX_SAFE_INTEGER` (2^53 - 1) and below 1e21 (whose JSON
//! text names another integer; from 1e21 on it is the exponent form, read as the float it
//! is), functions, symbols and `BigInt`, `Map` and `Set` (written as `{}`),
//! cycles, `undefined` itself, and objects and arrays nested deeper than the core's
//! [`MAX_VALUE_NESTING`] (100) levels (context `max_depth`; checked before descending, so even
//! 100,000 levels never overflow the stack). This covers every document, value and options
//! argument. The check is JavaScript (`strictJson`); its refusals are worded by the core.

use js_sys::{JSON, Uint8Array};
use serde::Serialize;
use serde::de::DeserializeOwned;
use session_state::{Key, MAX_VALUE_NESTING, json};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::errors::{IntoJsResult, JsResult, describe, invalid_input, type_name};

/// `value` as a plain JS value (objects, arrays, strings, numbers, booleans, `null`).
///
/// # Errors
/// `invalid_input` when `value` has no JSON form (it never happens for the core's types).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsResult<JsValue> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| invalid_input(format!("cannot convert a value to JS: {e}")))?;
    JSON::parse(&text)
        .map_err(|e| invalid_input(format!("cannot convert a value to JS: {}", describe(&e))))
}

// `strictJson(value, maxDepth)`: `JSON.stringify` with a replacer that stops at what JSON
// cannot hold exactly and at a value nested deeper than `maxDepth` levels (a scalar is depth 0,
// `[]` depth 1, as the core's `MAX_VALUE_NESTING` counts) before descending further. The depth
// is counted in the replacer, which `JSON.stringify` calls with the holder as `this` on the
// value it is about to write (after `toJSON`), so the check sees exactly what is written. It
// returns the text (`undefined` for a value without one) or `[key, kind, shown]`, worded by the
// core's `json::refuse_js_value`; the same rules as the Node package's `STRICT_STRINGIFY`.
#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = strictJson)]
    fn strict_json(value: &JsValue, max_depth: u32) -> JsResult<JsValue>;
}

/// Any JSON value from the JS argument `what` (`JSON.stringify` semantics, strict: see the
/// module docs).
///
/// # Errors
/// `invalid_input` naming `what` (and the member) when the value has no exact JSON form;
/// nested deeper than [`MAX_VALUE_NESTING`] levels, with context `max_depth` = `"100"`.
pub fn value_from_js(value: &JsValue, what: &str) -> JsResult<serde_json::Value> {
    #[allow(clippy::cast_possible_truncation)] // 100
    let outcome = strict_json(value, MAX_VALUE_NESTING as u32)
        .map_err(|e| invalid_input(format!("`{what}` is not JSON: {}", describe(&e))))?;
    if let Some(text) = outcome.as_string() {
        // `from_slice` inside (not `from_str`): the same reader instance as the core's
        // parsers, so the wasm holds one JSON reader for `Value` instead of two.
        return json::parse_input(what, text.as_bytes()).js();
    }
    if js_sys::Array::is_array(&outcome) {
        let refused = js_sys::Array::from(&outcome);
        let part = |i| refused.get(i).as_string().unwrap_or_default();
        let err = json::refuse_js_value(what, &part(0), &part(1), &part(2));
        return Err(crate::errors::to_js_error(err));
    }
    Err(invalid_input(format!(
        "`{what}` is not JSON: got {}",
        type_name(value)
    )))
}

/// A document (a JSON object) from the JS argument `what`, with every member kept in order.
///
/// # Errors
/// `invalid_input` naming `what` for anything but a plain object with a JSON form.
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
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(not_object());
    }
    match value_from_js(value, what)? {
        serde_json::Value::Object(map) => Ok(map),
        _ => Err(not_object()),
    }
}

/// The JS argument `what` read as `T` (through its JSON form).
///
/// # Errors
/// `invalid_input` naming `what` when the value has no JSON form or not `T`'s shape (the
/// core's `json::from_value`).
pub fn from_js<T: DeserializeOwned>(value: &JsValue, what: &str) -> JsResult<T> {
    session_state::json::from_value(value_from_js(value, what)?, what).js()
}

/// The `string` argument `what` (wasm-bindgen would silently stringify a number).
///
/// # Errors
/// `invalid_input` naming `what` and the type it got, or when the string holds a lone
/// surrogate (the conversion to UTF-8 would replace it with U+FFFD, so two different ids would
/// name one key), as in the Node package.
pub fn string_arg(value: &JsValue, what: &str) -> JsResult<String> {
    let Some(text) = value.dyn_ref::<js_sys::JsString>() else {
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

/// The store key argument `key` (a string such as `.claude/orchestrator-session.json`).
///
/// # Errors
/// `invalid_input` when it is not a string, `invalid_key` naming it when it is not a safe
/// relative key.
pub fn key_arg(key: &JsValue) -> JsResult<Key> {
    Key::new(string_arg(key, "key")?).js()
}

/// The bytes of a `string | Uint8Array` argument `what` (strings as UTF-8).
///
/// # Errors
/// `invalid_input` naming `what` and the type it got for anything else.
pub fn bytes_arg(value: &JsValue, what: &str) -> JsResult<Vec<u8>> {
    if value.is_string() {
        Ok(string_arg(value, what)?.into_bytes())
    } else if let Some(array) = value.dyn_ref::<Uint8Array>() {
        Ok(array.to_vec())
    } else {
        Err(invalid_input(format!(
            "`{what}` must be a string or a Uint8Array, not {}",
            type_name(value)
        )))
    }
}

/// An optional `string` argument `what`: `undefined` and `null` are `None`.
///
/// # Errors
/// `invalid_input` naming `what` for anything but a string, `undefined` or `null`.
pub fn opt_string_arg(value: &JsValue, what: &str) -> JsResult<Option<String>> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else {
        string_arg(value, what).map(Some)
    }
}

/// An optional options object `what` read as `T`: `undefined` and `null` give `T::default()`.
///
/// # Errors
/// `invalid_input` naming `what` when it is not an object of `T`'s shape.
pub fn options_arg<T: DeserializeOwned + Default>(value: &JsValue, what: &str) -> JsResult<T> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(invalid_input(format!(
            "`{what}` must be an object, got {}",
            type_name(value)
        )));
    }
    from_js(value, what)
}

/// An instant argument `what`: `undefined` and `null` are now (`Date.now()`), an RFC 3339
/// string or a `Date` (through its JSON form, the ISO text) is that instant.
///
/// # Errors
/// `invalid_input` naming `what` for anything else or a string that is not a timestamp.
pub fn instant_arg(value: &JsValue, what: &str) -> JsResult<chrono::DateTime<chrono::Utc>> {
    if value.is_undefined() || value.is_null() {
        Ok(session_state::Clock::now(&crate::clock::JsClock))
    } else {
        Ok(from_js::<session_state::Timestamp>(value, what)?.utc())
    }
}

/// The JSON bytes of the document argument `what` (a plain object), for the core's parsers.
///
/// # Errors
/// As [`document_from_js`].
pub fn document_bytes(value: &JsValue, what: &str) -> JsResult<Vec<u8>> {
    let map = document_from_js(value, what)?;
    serde_json::to_vec(&map).map_err(|e| invalid_input(format!("`{what}` is not JSON: {e}")))
}
