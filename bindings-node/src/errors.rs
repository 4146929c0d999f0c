//! The one mapping of session-state errors onto JavaScript (STYLE.md habit 3), and [`Out`],
//! a core result on its way out. A host store's thrown value travels inside the core error as
//! its source ([`HostException`]) and is re-thrown unchanged: the caller's `catch` receives the
//! very value the host threw (`===`), whatever it is.

use std::any::TypeId;

use napi::bindgen_prelude::{
    Env, Function, JsObjectValue, JsValue, Object, Status, ToNapiValue, Unknown,
};
use napi::sys;
use napi_derive::napi;
use serde::Serialize;
use session_state::js_message::{js_error_members, js_message};
use session_state::{Error, ErrorKind, Result};

/// An error's `code`; in `index.d.ts`, the `ErrorCode` union generated from the core's `ErrorKind`.
type ErrorCode = &'static str;

/// Every error `code` the package can throw, in the core's order (`test/errors.test.mjs`
/// checks it against the `ErrorCode` union).
// Typed, not `skip_typescript`: only typed items are named ES module exports (`index.js`).
#[napi]
pub const ERROR_CODES: [ErrorCode; ErrorKind::ALL.len()] = ErrorKind::CODES;

/// A host store's thrown value, carried as the source of a core [`Error`] until the error
/// reaches JavaScript again. Holds a reference to the `{ ok: false, error }` object the host
/// call returned (see [`crate::host_store`]), which keeps the thrown value alive.
#[derive(Debug)]
pub struct HostException(pub napi::Error);

impl std::fmt::Display for HostException {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.reason.as_str() {
            "" => f.write_str("the host store threw"),
            reason => f.write_str(reason),
        }
    }
}

impl std::error::Error for HostException {}

/// The `napi::Error` a `#[napi]` function returns for a core error: the value a host store
/// threw when `err` carries one (already thrown on `env` when this returns, so return it at
/// once), else a JS `Error` (see [`build_error`]).
pub fn to_js_error(env: &Env, mut err: Error) -> napi::Error {
    let thrown = match err.take_source_of::<HostException>() {
        // `PendingException` tells napi-rs to leave the thrown value as it is.
        Some(HostException(outcome)) => rethrow(env, outcome)
            .map(|()| napi::Error::new(Status::PendingException, err.message().to_owned())),
        None => build_error(env, &err).map(|object| napi::Error::from(object.to_unknown())),
    };
    // The environment is shutting down: a plain error still carries message and code.
    thrown.unwrap_or_else(|_| {
        napi::Error::from_reason(format!("[{}] {}", err.code(), js_message(&err)))
    })
}

/// Throws the `error` of the outcome object a host call returned (see `host_store`).
fn rethrow(env: &Env, outcome: napi::Error) -> napi::Result<()> {
    // The `napi::Error` holds a reference to the outcome object; converting it back to a JS
    // value gives that object.
    let mut holder = Object::new(env)?;
    holder.set_named_property("outcome", outcome)?;
    let outcome: Object<'_> = holder.get_named_property("outcome")?;
    env.throw(outcome.get_named_property::<Unknown<'_>>("error")?)
}

/// A JS `Error` for a core error: `message` (the core message with its hint in the JS API's
/// terms, [`js_message`]) and the core's [`js_error_members`] (`code`, `hint`, `context`,
/// `salvaged`).
fn build_error<'env>(env: &'env Env, err: &Error) -> napi::Result<Object<'env>> {
    let mut object = env.create_error(napi::Error::from_reason(js_message(err)))?;
    for (name, value) in js_error_members(err) {
        object.set_named_property(&name, env.to_js_value(&value)?)?;
    }
    Ok(object)
}

/// Runs `call` (argument conversions and the core call) into an [`Out`].
pub fn out<T>(call: impl FnOnce() -> Result<T>) -> Out<T> {
    Out(call())
}

/// A core result on its way to JavaScript ([`run!`](crate::run)): the value as `JSON.parse` of
/// its JSON text (`()` is `undefined`), or the error thrown ([`to_js_error`]).
#[derive(Debug)]
pub struct Out<T>(pub Result<T>);

// `unsafe` only because napi's trait declares the method so; the body is safe code.
#[allow(unsafe_code)]
impl<T: Serialize + 'static> ToNapiValue for Out<T> {
    unsafe fn to_napi_value(raw: sys::napi_env, value: Self) -> napi::Result<sys::napi_value> {
        let env = Env::from_raw(raw);
        let value = value.0.map_err(|err| to_js_error(&env, err))?;
        if TypeId::of::<T>() == TypeId::of::<()>() {
            return Ok(std::ptr::null_mut()); // `undefined`
        }
        let text = serde_json::to_string(&value)
            .map_err(|e| napi::Error::from_reason(format!("cannot serialise the result: {e}")))?;
        json_parse(&env, &text)
    }
}

/// The engine's `JSON.parse` of `text` (what it throws comes back as the error, cleared).
pub fn json_parse(env: &Env, text: &str) -> napi::Result<sys::napi_value> {
    let json: Object<'_> = env.get_global()?.get_named_property("JSON")?;
    let parse: Function<'_, &str, Unknown<'_>> = json.get_named_property("parse")?;
    Ok(parse.call(text)?.raw())
}

/// A value already made in JavaScript, returned as it is.
#[derive(Debug)]
pub struct Made(pub sys::napi_value);

#[allow(unsafe_code)]
impl ToNapiValue for Made {
    unsafe fn to_napi_value(_: sys::napi_env, value: Self) -> napi::Result<sys::napi_value> {
        Ok(value.0)
    }
}
