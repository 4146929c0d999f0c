//! Arguments checked by the bindings themselves, so a wrong JS type is an `invalid_input`
//! error with the package's `code`, never napi-rs's own conversion error.
//!
//! A `#[napi]` method takes `Either<Expected, Unknown>` (napi converts the expected type
//! and hands anything else over as `Unknown`) and calls the matching function here. Give the
//! method a `ts_args_type` so the `.d.ts` shows the expected type, not the `Either`.

use napi::JsString;
use napi::bindgen_prelude::{Either, Uint8Array, Unknown, ValueType};
use session_state::{Error, Key, Result};

/// A string argument (read as UTF-16, so a lone surrogate is seen, not replaced), or whatever
/// was passed instead.
pub type StrArg<'a> = Either<JsString<'a>, Unknown<'a>>;

/// A bytes argument (`Uint8Array`, so also a Node `Buffer`), or whatever was passed instead.
pub type BytesArg<'a> = Either<Uint8Array, Unknown<'a>>;

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

/// The string in `arg`; `invalid_input` naming `name` when it is not a string, or when it
/// holds a lone surrogate: UTF-8 cannot hold one, and napi's own conversion would replace it
/// with U+FFFD, so two different ids (`x\uD800`, `x\uDBFF`) would name one key.
pub fn string(arg: StrArg<'_>, name: &str) -> Result<String> {
    match arg {
        Either::A(s) => s
            .into_utf16()
            .map_err(|e| napi_failed(name, &e))?
            .as_str()
            .map_err(|_| {
                Error::invalid_input(format!(
                    "`{name}` holds a lone surrogate, half of a UTF-16 pair, which UTF-8 (and a \
                 file name or JSON file) cannot hold"
                ))
            }),
        Either::B(other) => Err(Error::invalid_input(format!(
            "`{name}` must be a string, got {}",
            type_name(&other)
        ))),
    }
}

/// The bytes in `arg`; `invalid_input` naming `name` when it is not a `Uint8Array`/`Buffer`.
pub fn bytes(arg: BytesArg<'_>, name: &str) -> Result<Vec<u8>> {
    match arg {
        Either::A(array) => Ok(array.to_vec()),
        Either::B(other) => Err(Error::invalid_input(format!(
            "`{name}` must be a Uint8Array or Buffer, got {}",
            type_name(&other)
        ))),
    }
}

/// A store key from a string argument: `invalid_input` for a non-string, `invalid_key` for
/// an unsafe key.
pub fn key(arg: StrArg<'_>, name: &str) -> Result<Key> {
    Key::new(string(arg, name)?)
}

/// An optional string argument: `undefined`, `null` or absent give `None`; another non-string
/// is `invalid_input` naming `name`.
pub fn opt_string(arg: Option<StrArg<'_>>, name: &str) -> Result<Option<String>> {
    match arg {
        Some(Either::B(other)) if is_nullish(&other) => Ok(None),
        None => Ok(None),
        Some(other) => string(other, name).map(Some),
    }
}

/// Whether `value` is `undefined` or `null`.
pub fn is_nullish(value: &Unknown<'_>) -> bool {
    matches!(value.get_type(), Ok(ValueType::Undefined | ValueType::Null))
}

/// An instant argument: absent, `undefined` or `null` is now (the system clock); an RFC 3339
/// string or a `Date` is parsed (a `Date` through its JSON form, the ISO text); anything else
/// is `invalid_input` naming `name`.
pub fn instant(value: Option<Unknown<'_>>, name: &str) -> Result<chrono::DateTime<chrono::Utc>> {
    let Some(value) = value.filter(|v| !is_nullish(v)) else {
        return Ok(session_state::Clock::now(&session_state_fs::SystemClock));
    };
    let kind = type_name(&value);
    let text = match value.get_type() {
        Ok(ValueType::String | ValueType::Object) => {
            match crate::documents::value_from_js(value, name)? {
                serde_json::Value::String(text) => Some(text),
                _ => None,
            }
        }
        _ => None,
    };
    let text = text.ok_or_else(|| {
        Error::invalid_input(format!(
            "`{name}` must be an RFC 3339 string or a Date, got {kind}"
        ))
    })?;
    session_state::Timestamp::parse(&text).map(|t| t.utc())
}
