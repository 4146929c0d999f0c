//! Arguments checked by the bindings themselves, so a wrong JS type is an `invalid_input`
//! error with the package's `code`, never napi-rs's own conversion error.
//!
//! A `#[napi]` method takes `Either<Expected, Unknown>` (napi converts the expected type
//! and hands anything else over as `Unknown`) and calls the matching function here. Give the
//! method a `ts_args_type` so the `.d.ts` shows the expected type, not the `Either`.

use napi::bindgen_prelude::{Either, Env, Uint8Array, Unknown, ValueType};

use crate::errors::invalid_input;

/// A string argument, or whatever was passed instead.
pub type StrArg<'a> = Either<String, Unknown<'a>>;

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

/// The string in `arg`; `invalid_input` naming `name` when it is not a string.
pub fn string(env: &Env, arg: StrArg<'_>, name: &str) -> napi::Result<String> {
    match arg {
        Either::A(s) => Ok(s),
        Either::B(other) => Err(invalid_input(
            env,
            format!("`{name}` must be a string, got {}", type_name(&other)),
        )),
    }
}

/// The bytes in `arg`; `invalid_input` naming `name` when it is not a `Uint8Array`/`Buffer`.
pub fn bytes(env: &Env, arg: BytesArg<'_>, name: &str) -> napi::Result<Vec<u8>> {
    match arg {
        Either::A(array) => Ok(array.to_vec()),
        Either::B(other) => Err(invalid_input(
            env,
            format!(
                "`{name}` must be a Uint8Array or Buffer, got {}",
                type_name(&other)
            ),
        )),
    }
}

/// A store key from a string argument: `invalid_input` for a non-string, `invalid_key` for
/// an unsafe key.
pub fn key(env: &Env, arg: StrArg<'_>, name: &str) -> napi::Result<session_state::Key> {
    let text = string(env, arg, name)?;
    crate::errors::ToJs::js(session_state::Key::new(text), env)
}
