//! Arguments from JavaScript: every function takes any JS values and reads each with [`Arg`]
//! under its JS name ([`run!`](crate::run)), so a wrong type is `invalid_input` naming the
//! argument, never napi-rs's own error. Documents come through the engine's `JSON.stringify`;
//! what JSON cannot hold exactly is `invalid_input`, never changed silently: `NaN`,
//! `±Infinity`, `Map`, `Set`, functions, symbols, `BigInt`, cycles, integers beyond 2^53 - 1
//! (below 1e21), and nesting deeper than the core's [`MAX_VALUE_NESTING`] (context `max_depth`).

use chrono::{DateTime, Utc};
use napi::JsString;
use napi::bindgen_prelude::{
    Either, Env, FnArgs, FromNapiValue, Function, JsObjectValue, JsValue, Object, TypeName,
    Uint8Array, Unknown, ValidateNapiValue, ValueType,
};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use session_state::js_json::{STRICT_JSON_JS, StrictJson, read_strict_json};
use session_state::json::{from_value, kind_of};
use session_state::{Error, Key, MAX_VALUE_NESTING, Result};

/// An argument as napi hands it over: any JS value.
pub type Any<'a> = Unknown<'a>;

/// A document argument: a plain JS object.
pub type Doc = Map<String, Value>;

/// An instant argument: an RFC 3339 string or a `Date`.
pub type Instant = DateTime<Utc>;

/// A Rust value read from one JS argument.
pub trait Arg<'a>: Sized {
    /// `value` read as `Self`; `invalid_input` (or the core's error for the value) naming `name`.
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self>;
}

/// The value itself, for a method that reads it its own way.
impl<'a> Arg<'a> for Unknown<'a> {
    fn arg(value: Unknown<'a>, _: &str) -> Result<Self> {
        Ok(value)
    }
}

/// `undefined` and `null` give `None`; another value is read as `T`.
impl<'a, T: Arg<'a>> Arg<'a> for Option<T> {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        let nullish = matches!(value.get_type(), Ok(ValueType::Undefined | ValueType::Null));
        (!nullish).then(|| T::arg(value, name)).transpose()
    }
}

/// A string, read as UTF-16, so that a lone surrogate is refused, not replaced: UTF-8 cannot
/// hold one, and napi's own conversion would make it U+FFFD, so two different ids (`x\uD800`,
/// `x\uDBFF`) would name one key.
impl<'a> Arg<'a> for String {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        let text = napi_type::<JsString<'a>>(value, name, "a string")?;
        let text = text.into_utf16().map_err(|e| napi_failed(name, &e))?;
        text.as_str().map_err(|_| Error::lone_surrogate(name))
    }
}

/// A store key: a string (`invalid_input` else), and a safe key (`invalid_key` else).
impl<'a> Arg<'a> for Key {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        Key::new(String::arg(value, name)?)
    }
}

/// Bytes: a `Uint8Array`, so also a Node `Buffer`.
impl<'a> Arg<'a> for Vec<u8> {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        napi_type::<Uint8Array>(value, name, "a Uint8Array or Buffer").map(|a| a.to_vec())
    }
}

/// Bytes ([`Vec<u8>`]), or a string as its UTF-8 (as napi reads it: a lone surrogate is U+FFFD).
#[derive(Debug)]
pub struct Bytes(pub Vec<u8>);

impl<'a> Arg<'a> for Bytes {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        let failed = |e: napi::Error| napi_failed(name, &e);
        match Either::<String, Unknown<'a>>::from_unknown(value).map_err(failed)? {
            Either::A(text) => Ok(Bytes(text.into_bytes())),
            Either::B(other) => Vec::arg(other, name).map(Bytes),
        }
    }
}

/// An array of strings.
impl<'a> Arg<'a> for Vec<String> {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        if !value.is_array().unwrap_or(false) {
            return Err(expected(name, "an array of strings", &value));
        }
        from_value(Value::arg(value, name)?, name)
    }
}

/// Any JSON value (see the module docs), at any depth without overflowing the stack.
impl<'a> Arg<'a> for Value {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        let js_type = type_name(&value);
        let env = Env::from_raw(value.value().env);
        let failed = |e: napi::Error| napi_failed(name, &e);
        let stringify: Function<'_, FnArgs<(Unknown<'_>, u32)>, Object<'_>> =
            env.run_script(STRICT_JSON_JS).map_err(failed)?;
        let max_depth = u32::try_from(MAX_VALUE_NESTING).unwrap_or(u32::MAX);
        let outcome = stringify
            .call(FnArgs::from((value, max_depth)))
            .map_err(|e| Error::invalid_input(format!("`{name}` is not JSON: {}", e.reason)))?;
        let refused: Option<Vec<String>> = outcome.get_named_property("refused").map_err(failed)?;
        let text: Option<String> = outcome.get_named_property("text").map_err(failed)?;
        let refused = refused.unwrap_or_default();
        let strict = StrictJson::from_members(text.as_deref(), &refused, js_type);
        read_strict_json(name, strict)
    }
}

/// A document: a plain object (not an array, `null` or a primitive) with a JSON form.
impl<'a> Arg<'a> for Map<String, Value> {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        if value.is_array().unwrap_or(false) {
            return Err(Error::wrong_type(name, "an object", "array"));
        }
        if value.get_type().ok() != Some(ValueType::Object) {
            return Err(expected(name, "an object", &value));
        }
        match Value::arg(value, name)? {
            Value::Object(map) => Ok(map),
            // An object whose `toJSON` gives a non-object.
            other => Err(Error::invalid_input(format!(
                "`{name}` must be an object, its JSON is {}",
                kind_of(&other)
            ))),
        }
    }
}

/// An instant: an RFC 3339 string or a `Date` (through its JSON form, the ISO text).
impl<'a> Arg<'a> for DateTime<Utc> {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        let json = matches!(value.get_type(), Ok(ValueType::String | ValueType::Object));
        match json.then(|| Value::arg(value, name)).transpose()? {
            Some(Value::String(text)) => session_state::Timestamp::parse(&text).map(|t| t.utc()),
            _ => Err(expected(name, "an RFC 3339 string or a Date", &value)),
        }
    }
}

/// A value of the shape of `T`, through its JSON form: a mismatch is `invalid_input` with
/// serde's reason (e.g. the missing field), naming the member.
#[derive(Debug)]
pub struct Json<T>(pub T);

impl<'a, T: DeserializeOwned> Arg<'a> for Json<T> {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        from_value(Value::arg(value, name)?, name).map(Json)
    }
}

/// Each wrapper of a value of the shape of `T` gives `&T`, as the core takes it.
macro_rules! deref_to_value {
    ($($wrapper:ident),*) => {$(
        impl<T> std::ops::Deref for $wrapper<T> {
            type Target = T;
            fn deref(&self) -> &T {
                &self.0
            }
        }
    )*};
}
deref_to_value!(Json, Options);

/// An options object: `undefined` or `null` give `T::default()`; anything else must be an
/// object of the shape of `T` (declared with `deny_unknown_fields`, so that a misspelt option
/// is an error), else `invalid_input` with `context.field` naming the argument.
#[derive(Debug)]
pub struct Options<T>(pub T);

impl<'a, T: DeserializeOwned + Default> Arg<'a> for Options<T> {
    fn arg(value: Unknown<'a>, name: &str) -> Result<Self> {
        match value.get_type() {
            Ok(ValueType::Undefined | ValueType::Null) => Ok(Options(T::default())),
            Ok(ValueType::Object) if !value.is_array().unwrap_or(true) => {
                Json::arg(value, name).map(|Json(options)| Options(options))
            }
            _ => Err(expected(name, "an object", &value).with_context("field", name)),
        }
    }
}

/// `value` as the napi type `T`, or `invalid_input` ([`expected`]).
fn napi_type<'a, T>(value: Unknown<'a>, name: &str, what: &str) -> Result<T>
where
    T: FromNapiValue + ValidateNapiValue + TypeName,
{
    match Either::<T, Unknown<'a>>::from_unknown(value).map_err(|e| napi_failed(name, &e))? {
        Either::A(value) => Ok(value),
        Either::B(other) => Err(expected(name, what, &other)),
    }
}

/// The core's [`Error::wrong_type`] for `value`, of the JS type [`type_name`].
pub fn expected(name: &str, what: &str, value: &Unknown<'_>) -> Error {
    Error::wrong_type(name, what, type_name(value))
}

/// The JS type of `value` as `typeof` would name it (`null` for null), for error messages.
pub fn type_name(value: &Unknown<'_>) -> &'static str {
    match value.get_type() {
        Ok(ValueType::Undefined) => "undefined",
        Ok(ValueType::Null) => "null",
        Ok(ValueType::Boolean) => "boolean",
        Ok(ValueType::Number) => "number",
        Ok(ValueType::String) => "string",
        Ok(ValueType::Symbol) => "symbol",
        Ok(ValueType::Function) => "function",
        Ok(ValueType::BigInt) => "bigint",
        Ok(ValueType::Object | ValueType::External) => "object",
        _ => "unknown value",
    }
}

/// The core error for a failed napi call while reading an argument.
pub fn napi_failed(name: &str, err: &napi::Error) -> Error {
    Error::invalid_input(format!("cannot read `{name}`: {}", err.reason))
}
