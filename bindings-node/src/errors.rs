//! The one mapping of session-state errors onto JavaScript (STYLE.md habit 3).
//!
//! - A core [`Error`] becomes a JS `Error` whose `message` is the core message (its hint in the
//!   JS API's terms appended, see [`js_message`]), whose `code` is the stable kind code
//!   ([`ErrorKind::code`], e.g. `"corrupt_state"`), with `hint` (the core's hint code),
//!   `context` (`{ key: "...", path: "..." }`) and `salvaged` (a plain object) when present.
//! - A value thrown by a host store's method (see [`crate::host_store`]) travels inside the core
//!   error as its source and is re-thrown unchanged: the caller's `catch` receives the very
//!   object the host threw (`===`), whatever it is (an `Error` subclass, a string, an object).
//!
//! Methods return [`Out`] (`out(|| core_call())`): the core result, converted on the way out.

use std::any::TypeId;

use napi::bindgen_prelude::{Env, JsObjectValue, JsValue, Object, Status, ToNapiValue, Unknown};
use napi::sys;
use napi_derive::napi;
use serde::Serialize;
use session_state::js_message::js_message;
use session_state::{Error, ErrorKind, Result};

/// The code of an error thrown by this package; in `index.d.ts`, the `ErrorCode` union of the
/// shared declarations (generated from the core's `ErrorKind`).
type ErrorCode = &'static str;

/// The core's kind codes, in declaration order, at compile time.
const fn kind_codes() -> [ErrorCode; ErrorKind::ALL.len()] {
    let mut codes = [""; ErrorKind::ALL.len()];
    let mut i = 0;
    while i < codes.len() {
        codes[i] = ErrorKind::ALL[i].code();
        i += 1;
    }
    codes
}

/// Every error `code` the package can throw, in the core's order (`test/errors.test.mjs`
/// checks it against the `ErrorCode` union).
//
// Typed (not `skip_typescript`): the napi CLI lists only typed items among the explicit
// `module.exports.NAME =` lines of `index.js`, and only those are named exports for ES
// modules (`import { ERROR_CODES } from 'session-state'`, `test/esm.test.mjs`).
#[napi]
pub const ERROR_CODES: [ErrorCode; ErrorKind::ALL.len()] = kind_codes();

/// A host store's thrown value, carried as the source of a core [`Error`] until the error
/// reaches JavaScript again. Holds a reference to the `{ ok: false, error }` object the host
/// call returned (see [`crate::host_store`]), which keeps the thrown value alive.
#[derive(Debug)]
pub struct HostException(pub napi::Error);

impl std::fmt::Display for HostException {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.reason.is_empty() {
            "the host store threw"
        } else {
            &self.0.reason
        })
    }
}

impl std::error::Error for HostException {}

/// Takes the first [`HostException`] out of the source chain of `err` (a host exception may
/// be wrapped in further core errors), leaving `err` otherwise intact.
pub fn take_host_exception(err: &mut Error) -> Option<HostException> {
    match err.take_source()?.downcast::<HostException>() {
        Ok(host) => Some(*host),
        Err(source) => take_host_exception(&mut *source.downcast::<Error>().ok()?),
    }
}

/// Converts a core error into the `napi::Error` a `#[napi]` function returns: the exact value
/// a host store threw when `err` carries one (already thrown on `env` when this returns, so
/// return it at once), else a new `Error` (see the module docs).
pub fn to_js_error(env: &Env, mut err: Error) -> napi::Error {
    if let Some(HostException(outcome)) = take_host_exception(&mut err) {
        // The returned `PendingException` status tells napi-rs to leave the thrown value as it is.
        return match rethrow(env, outcome) {
            Ok(()) => napi::Error::new(Status::PendingException, err.message().to_owned()),
            Err(e) => e,
        };
    }
    match build_error(env, &err) {
        Ok(object) => napi::Error::from(object.to_unknown()),
        // The environment is shutting down: a plain error still carries message and code.
        Err(_) => napi::Error::new(
            Status::GenericFailure,
            format!("[{}] {}", err.code(), js_message(&err)),
        ),
    }
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

/// A JS `Error` object for a core error: `message` (see [`js_message`]), `code`, `hint`
/// (its code, when the core gave one), `context`, `salvaged`.
fn build_error<'env>(env: &'env Env, err: &Error) -> napi::Result<Object<'env>> {
    let mut object = env.create_error(napi::Error::new(Status::GenericFailure, js_message(err)))?;
    object.set_named_property("code", err.code())?;
    if let Some(hint) = err.hint() {
        object.set_named_property("hint", hint.code())?;
    }
    if !err.context().is_empty() {
        let mut context = Object::new(env)?;
        for (name, value) in err.context() {
            context.set_named_property(name, value.as_str())?;
        }
        object.set_named_property("context", context)?;
    }
    if let Some(salvaged) = err.salvaged() {
        object.set_named_property("salvaged", env.to_js_value(salvaged)?)?;
    }
    Ok(object)
}

/// Maps the error of a core result onto JavaScript with [`to_js_error`].
pub trait ToJs<T> {
    /// The same result, with a core error converted by [`to_js_error`].
    fn js(self, env: &Env) -> napi::Result<T>;
}

impl<T> ToJs<T> for Result<T> {
    fn js(self, env: &Env) -> napi::Result<T> {
        self.map_err(|e| to_js_error(env, e))
    }
}

/// A core result on its way to JavaScript, the return type of the wrappers' methods: the value
/// as `JSON.parse` of its JSON text (see [`crate::documents::to_js`]; `()` is `undefined`), or
/// the error thrown (see [`to_js_error`]).
#[derive(Debug)]
pub struct Out<T>(pub Result<T>);

/// Runs `call` (argument conversions and the core call) into an [`Out`].
pub fn out<T>(call: impl FnOnce() -> Result<T>) -> Out<T> {
    Out(call())
}

// `unsafe` only because napi's trait declares the method so; the body is safe code.
#[allow(unsafe_code)]
impl<T: Serialize + 'static> ToNapiValue for Out<T> {
    unsafe fn to_napi_value(raw: sys::napi_env, value: Self) -> napi::Result<sys::napi_value> {
        let env = Env::from_raw(raw);
        match value.0 {
            // A callback's null result is `undefined` in JavaScript.
            Ok(_) if TypeId::of::<T>() == TypeId::of::<()>() => Ok(std::ptr::null_mut()),
            Ok(value) => Ok(crate::documents::to_js(&env, &value)?.raw()),
            Err(err) => Err(to_js_error(&env, err)),
        }
    }
}
