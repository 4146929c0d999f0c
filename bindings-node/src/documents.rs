//! Documents in and out as plain JS objects, with exactly the shape of the JSON files, through
//! JSON text and the engine's own `JSON.stringify` / `JSON.parse` (napi's serde bridge turns
//! integers above `u32::MAX` into `BigInt` and saturates large numbers). What JSON cannot hold
//! exactly is `invalid_input`, never changed silently: `NaN`, `±Infinity`, `Map`, `Set`,
//! functions, symbols, `BigInt`, cycles, integers beyond 2^53 - 1 (below 1e21), and nesting
//! deeper than the core's [`MAX_VALUE_NESTING`] (context `max_depth`).

use napi::bindgen_prelude::{
    Env, FnArgs, Function, JsObjectValue, JsValue, Object, Unknown, ValueType,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

use session_state::js_json::{STRICT_JSON_JS, StrictJson, read_strict_json};
pub use session_state::json::from_value;
use session_state::{Error, MAX_VALUE_NESTING, Result};

use crate::args::{napi_failed, type_name};

/// Any JSON value from JS (the core's strict `JSON.stringify`, [`STRICT_JSON_JS`]);
/// `invalid_input` naming `name` when the value has no exact JSON form (the core's
/// [`read_strict_json`]), and when it nests objects and arrays deeper than
/// [`MAX_VALUE_NESTING`] levels (context `max_depth` = `"100"`, as the Python package), at any
/// depth without overflowing the stack.
pub fn value_from_js(value: Unknown<'_>, name: &str) -> Result<serde_json::Value> {
    let js_type = type_name(&value);
    let env = Env::from_raw(value.value().env);
    let failed = |e: napi::Error| napi_failed(name, &e);
    let stringify: Function<'_, FnArgs<(Unknown<'_>, u32)>, Object<'_>> =
        env.run_script(STRICT_JSON_JS).map_err(failed)?;
    let max_depth = u32::try_from(MAX_VALUE_NESTING).unwrap_or(u32::MAX);
    let outcome = stringify
        .call(FnArgs::from((value, max_depth)))
        .map_err(|e| Error::invalid_input(format!("`{name}` is not JSON: {}", e.reason)))?;
    let refused = outcome
        .get_named_property::<Option<Vec<String>>>("refused")
        .map_err(failed)?
        .unwrap_or_default();
    let text = outcome
        .get_named_property::<Option<String>>("text")
        .map_err(failed)?;
    let outcome = StrictJson::from_members(text.as_deref(), &refused, js_type);
    read_strict_json(name, outcome)
}

/// A document (a JSON object) from JS; `invalid_input` naming `name` for anything that is
/// not a plain object (arrays, `null`, primitives, `undefined`) or has no JSON form.
pub fn document_from_js(
    value: Unknown<'_>,
    name: &str,
) -> Result<serde_json::Map<String, serde_json::Value>> {
    let is_array = value.is_array().unwrap_or(false);
    if value.get_type().ok() != Some(ValueType::Object) || is_array {
        let kind = if is_array { "array" } else { type_name(&value) };
        return Err(Error::invalid_input(format!(
            "`{name}` must be an object, got {kind}"
        )));
    }
    match value_from_js(value, name)? {
        serde_json::Value::Object(map) => Ok(map),
        // An object whose `toJSON` gives a non-object.
        other => Err(Error::invalid_input(format!(
            "`{name}` must be an object, its JSON is {}",
            json_type(&other)
        ))),
    }
}

/// A typed value from JS through its JSON form: `invalid_input` naming `name` (with serde's
/// reason, e.g. the missing field) when the value has no JSON form or not the shape of `T`.
pub fn from_js<T: DeserializeOwned>(value: Unknown<'_>, name: &str) -> Result<T> {
    from_value(value_from_js(value, name)?, name)
}

/// An optional options object: `undefined`, `null` or absent give `T::default()`; anything
/// else must be an object of the shape of `T` (declare `T` with `deny_unknown_fields` so a
/// misspelt option is an error), else `invalid_input` naming `name`.
pub fn options_from_js<T: DeserializeOwned + Default>(
    value: Option<Unknown<'_>>,
    name: &str,
) -> Result<T> {
    match value {
        Some(value) if !crate::args::is_nullish(&value) => {
            if value.get_type().ok() == Some(ValueType::Object) && !value.is_array().unwrap_or(true)
            {
                return from_js(value, name);
            }
            Err(Error::invalid_input(format!(
                "`{name}` must be an object, got {}",
                type_name(&value)
            ))
            .with_context("field", name))
        }
        _ => Ok(T::default()),
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
    let json: Object<'env> = env.get_global()?.get_named_property("JSON")?;
    let parse: Function<'env, String, Unknown<'env>> = json.get_named_property("parse")?;
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
