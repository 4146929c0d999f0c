//! Conversions between JS values and the core's plain data types, shared by every wrapper.
//!
//! Outgoing values go through serde with JSON-compatible settings: maps become plain objects,
//! `None` becomes `null`, timestamps become RFC 3339 strings (the core serialises them so).
//! Incoming values that do not fit become `invalid_input` errors naming the argument.

use js_sys::Uint8Array;
use serde::Serialize;
use serde::de::DeserializeOwned;
use session_state::Key;
use wasm_bindgen::{JsCast, JsValue};

use crate::errors::{IntoJsResult, JsResult, invalid_input, type_name};

/// `value` as a plain JS value (objects, arrays, strings, numbers, `null`).
///
/// # Errors
/// `invalid_input` when `value` cannot be represented (it never happens for the core's types).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsResult<JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| invalid_input(format!("cannot convert a value to JS: {e}")))
}

/// The JS value `value` (argument `what`, e.g. `"options"`) read as `T`.
///
/// # Errors
/// `invalid_input` naming `what` when the value does not have `T`'s shape.
pub fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> JsResult<T> {
    serde_wasm_bindgen::from_value(value).map_err(|e| invalid_input(format!("`{what}` {e}")))
}

/// The `string` argument `what` (wasm-bindgen would silently stringify a number).
///
/// # Errors
/// `invalid_input` naming `what` and the type it got.
pub fn string_arg(value: &JsValue, what: &str) -> JsResult<String> {
    value.as_string().ok_or_else(|| {
        invalid_input(format!(
            "`{what}` must be a string, not {}",
            type_name(value)
        ))
    })
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
    if let Some(text) = value.as_string() {
        Ok(text.into_bytes())
    } else if let Some(array) = value.dyn_ref::<Uint8Array>() {
        Ok(array.to_vec())
    } else {
        Err(invalid_input(format!(
            "`{what}` must be a string or a Uint8Array, not {}",
            type_name(value)
        )))
    }
}
