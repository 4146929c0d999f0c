//! Documents in and out as plain JS objects, with exactly the shape of the JSON files.
//!
//! Conversion goes through JSON text and the engine's own `JSON.stringify` / `JSON.parse`,
//! not napi's serde bridge, because that bridge turns integers above `u32::MAX` into
//! `BigInt` (e.g. epoch milliseconds) and saturates large JS numbers into `i64`. With JSON
//! text, a document reaches JavaScript as `JSON.parse(file)` would give it, and a JS value
//! reaches the core as `JSON.stringify(value)` would write it (`undefined` members dropped,
//! `Date` as its ISO string, `NaN` as `null`). Values JSON cannot hold (`BigInt`, cycles,
//! functions) are `invalid_input`.

use napi::bindgen_prelude::{Env, Function, JsObjectValue, JsValue, Object, Unknown, ValueType};
use serde::Serialize;

use crate::args::type_name;
use crate::errors::invalid_input;

/// The global `JSON` object's `method`.
fn json_function<'env, Args, Ret>(
    env: &'env Env,
    method: &str,
) -> napi::Result<Function<'env, Args, Ret>>
where
    Args: napi::bindgen_prelude::JsValuesTupleIntoVec,
{
    let json: Object<'env> = env.get_global()?.get_named_property("JSON")?;
    json.get_named_property(method)
}

/// Any JSON value from JS (`JSON.stringify` semantics); `invalid_input` naming `name` when
/// the value has no JSON form.
pub fn value_from_js(env: &Env, value: Unknown<'_>, name: &str) -> napi::Result<serde_json::Value> {
    let kind = type_name(&value);
    let stringify: Function<'_, Unknown<'_>, Option<String>> = json_function(env, "stringify")?;
    let text = stringify
        .call(value)
        .map_err(|e| invalid_input(env, format!("`{name}` is not JSON: {}", e.reason)))?
        .ok_or_else(|| invalid_input(env, format!("`{name}` is not JSON: got {kind}")))?;
    serde_json::from_str(&text)
        .map_err(|e| invalid_input(env, format!("`{name}` is not JSON: {e}")))
}

/// A document (a JSON object) from JS; `invalid_input` naming `name` for anything that is
/// not a plain object (arrays, `null`, primitives, `undefined`) or has no JSON form.
pub fn document_from_js(
    env: &Env,
    value: Unknown<'_>,
    name: &str,
) -> napi::Result<serde_json::Map<String, serde_json::Value>> {
    if value.get_type()? != ValueType::Object || value.is_array()? {
        let kind = if value.is_array().unwrap_or(false) {
            "array"
        } else {
            type_name(&value)
        };
        return Err(invalid_input(
            env,
            format!("`{name}` must be an object, got {kind}"),
        ));
    }
    match value_from_js(env, value, name)? {
        serde_json::Value::Object(map) => Ok(map),
        // An object whose `toJSON` gives a non-object.
        other => Err(invalid_input(
            env,
            format!(
                "`{name}` must be an object, its JSON is {}",
                json_type(&other)
            ),
        )),
    }
}

/// Any serialisable value as a plain JS value (`JSON.parse` of its JSON text).
pub fn to_js<'env, T: Serialize + ?Sized>(
    env: &'env Env,
    value: &T,
) -> napi::Result<Unknown<'env>> {
    let text = serde_json::to_string(value).map_err(|e| {
        napi::Error::new(
            napi::Status::GenericFailure,
            format!("cannot serialise the result: {e}"),
        )
    })?;
    let parse: Function<'env, String, Unknown<'env>> = json_function(env, "parse")?;
    parse.call(text)
}

/// The JSON type name of `value`, for error messages.
fn json_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}
