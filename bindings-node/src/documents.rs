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

pub use session_state::json::from_value;
use session_state::{Error, MAX_VALUE_NESTING, Result, json};

use crate::args::{napi_failed, type_name};

/// `JSON.stringify` that stops at what JSON cannot hold exactly (a non-finite number, an
/// integer beyond 2^53 - 1 below 1e21, a function, symbol, `BigInt`, `Map` or `Set`) and at an
/// object or array nested deeper than `maxDepth` levels (a scalar is depth 0, `[]` depth 1, as
/// the core's `MAX_VALUE_NESTING` counts) before descending further, so even a value nested
/// 100,000 levels deep never overflows the stack. Returns `{ text }` (`text` is `undefined`
/// for a value without JSON text) or `{ refused: [key, kind, shown] }`, which the core's
/// `json::refuse_js_value` words (the wasm package's `strictJson` has the same rules).
///
/// The depth is counted in the replacer, which `JSON.stringify` calls with the holder as
/// `this` on the value it is about to descend into (after `toJSON`), so the check sees exactly
/// what is written; an object met again at another place is recounted there.
const STRICT_STRINGIFY: &str = r"(function (value, maxDepth) {
  const depths = new WeakMap();
  try {
    return { text: JSON.stringify(value, function (key, v) {
      const t = typeof v;
      const kind = v instanceof Map || v instanceof Set ? v.constructor.name : t;
      if (t === 'number' ? !Number.isFinite(v) || (Math.abs(v) > Number.MAX_SAFE_INTEGER && Math.abs(v) < 1e21)
        : t === 'function' || t === 'symbol' || t === 'bigint' || kind !== t) throw { refused: [key, kind, t === 'number' ? String(v) : ''] };
      if (t === 'object' && v !== null) {
        const depth = (depths.get(this) ?? 0) + 1;
        if (depth > maxDepth) throw { refused: [key, 'deep', ''] };
        depths.set(v, depth);
      }
      return v;
    }) };
  } catch (e) {
    if (e !== null && typeof e === 'object' && Array.isArray(e.refused)) return e;
    throw e;
  }
})";

/// Any JSON value from JS (`JSON.stringify` semantics, strict: see the module docs);
/// `invalid_input` naming `name` when the value has no exact JSON form (the core's
/// `json::refuse_js_value`), and when it nests objects and arrays deeper than
/// [`MAX_VALUE_NESTING`] levels (context `max_depth` = `"100"`, as the Python package), at any
/// depth without overflowing the stack.
pub fn value_from_js(value: Unknown<'_>, name: &str) -> Result<serde_json::Value> {
    let kind = type_name(&value);
    let env = Env::from_raw(value.value().env);
    let failed = |e: napi::Error| napi_failed(name, &e);
    let stringify: Function<'_, FnArgs<(Unknown<'_>, u32)>, Object<'_>> =
        env.run_script(STRICT_STRINGIFY).map_err(failed)?;
    let max_depth = u32::try_from(MAX_VALUE_NESTING).unwrap_or(u32::MAX);
    let outcome = stringify
        .call(FnArgs::from((value, max_depth)))
        .map_err(|e| Error::invalid_input(format!("`{name}` is not JSON: {}", e.reason)))?;
    if let Some(refused) = outcome
        .get_named_property::<Option<Vec<String>>>("refused")
        .map_err(failed)?
    {
        let part = |i: usize| refused.get(i).map_or("", String::as_str);
        return Err(json::refuse_js_value(name, part(0), part(1), part(2)));
    }
    let text = outcome
        .get_named_property::<Option<String>>("text")
        .map_err(failed)?
        .ok_or_else(|| Error::invalid_input(format!("`{name}` is not JSON: got {kind}")))?;
    json::parse_input(name, text.as_bytes())
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
