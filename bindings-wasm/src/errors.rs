//! The one place where a core [`Error`] becomes a JS exception: a JS `Error` with the core's
//! `message`, its stable `code` (the TS union `ErrorCode`), its `hint` code, its `context`
//! pairs as a plain object and, for `corrupt_state`, what was `salvaged`. Exported functions
//! return a [`JsResult`], whose [`Thrown`] comes from any core [`Error`] by `?`.
//!
//! A JS exception crosses the core as the source of an [`Error`] ([`host_exception`],
//! [`browser_exception`]): the `JsValue` (not `Send`) waits in a thread-local table until
//! [`to_js_error`] takes it (or the [`JsException`] is dropped). An exception thrown by a host
//! store reaches the caller unchanged; a browser storage failure (quota, access denied) is a
//! `storage` error whose `cause` is the browser's `DOMException`.

use std::cell::RefCell;

use js_sys::Reflect;
use session_state::js_message::{js_error_members, js_message};
use session_state::{Error, ErrorKind, Key};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// Results of exported functions.
pub type JsResult<T> = std::result::Result<T, Thrown>;

/// What an exported function throws: the JS value [`to_js_error`] makes of a core error.
#[derive(Clone, Debug)]
pub struct Thrown(pub JsValue);

impl From<Error> for Thrown {
    fn from(err: Error) -> Thrown {
        Thrown(to_js_error(err))
    }
}

impl From<Thrown> for JsValue {
    fn from(thrown: Thrown) -> JsValue {
        thrown.0
    }
}

impl std::ops::Deref for Thrown {
    type Target = JsValue;
    fn deref(&self) -> &JsValue {
        &self.0
    }
}

crate::convert::js_methods!(fn {
    #[doc = " Every error code (the TS union `ErrorCode`), in order; also the constant `ERROR_CODES`."]
    fn errorCodes as error_codes() -> "ErrorCode[]" => Ok(ErrorKind::CODES);
});

thread_local! {
    // Exceptions waiting, by id (one or two at a time), and the next id.
    static PENDING: RefCell<(u64, Vec<(u64, JsValue)>)> = const { RefCell::new((0, Vec::new())) };
}

/// A JS exception carried through the core as an error source: an id into the table and a
/// description; `rethrow` throws the exception itself, else it is the `cause`.
#[derive(Debug, thiserror::Error)]
#[error("{description}")]
pub struct JsException {
    id: u64,
    description: String,
    rethrow: bool,
}

impl JsException {
    fn stash(exception: JsValue, rethrow: bool) -> JsException {
        let description = describe(&exception);
        let id = PENDING.with(|p| {
            let (next, list) = &mut *p.borrow_mut();
            *next = next.wrapping_add(1);
            list.push((*next, exception));
            *next
        });
        JsException {
            id,
            description,
            rethrow,
        }
    }

    fn take(&self) -> Option<JsValue> {
        // `try_with`: the table may already be gone at thread exit.
        let take = |p: &RefCell<(u64, Vec<(u64, JsValue)>)>| {
            let list = &mut p.borrow_mut().1;
            let at = list.iter().position(|(i, _)| *i == self.id)?;
            Some(list.swap_remove(at).1)
        };
        PENDING.try_with(take).ok().flatten()
    }
}

impl Drop for JsException {
    fn drop(&mut self) {
        self.take();
    }
}

/// The `invalid_input` error thrown for a malformed argument (wrong type, bad value).
pub fn invalid_input(message: String) -> Thrown {
    Error::invalid_input(message).into()
}

/// A `storage` error for an exception a host store threw doing `action` on `key`;
/// [`to_js_error`] throws the exception itself.
pub fn host_exception(key: &Key, action: &str, exception: JsValue) -> Error {
    Error::storage(key, action, JsException::stash(exception, true))
}

/// A `storage` error for an exception the browser threw doing `action` on `key` (a
/// `QuotaExceededError`); [`to_js_error`] gives it as the typed error's `cause`.
pub fn browser_exception(key: &Key, action: &str, exception: JsValue) -> Error {
    Error::storage(key, action, JsException::stash(exception, false))
}

/// A thrown JS value in words: `Name: message` for an `Error`, a string as is, else its type.
pub fn describe(value: &JsValue) -> String {
    if let Some(err) = value.dyn_ref::<js_sys::Error>() {
        format!(
            "{}: {}",
            String::from(err.name()),
            String::from(err.message())
        )
    } else {
        value
            .as_string()
            .unwrap_or_else(|| format!("a thrown {}", type_name(value)))
    }
}

/// The JS type of `value` in words, for error messages (`"null"`, `"array"`, `"number"`, ...).
pub fn type_name(value: &JsValue) -> String {
    if value.is_null() {
        "null".to_owned()
    } else if js_sys::Array::is_array(value) {
        "array".to_owned()
    } else if value.is_instance_of::<js_sys::Promise>() {
        "Promise".to_owned()
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

/// The JS exception for `err`: a JS exception that caused it and is to be rethrown, else a
/// JS `Error` with `message` and the core's [`js_error_members`] (`code`, `hint`, `context`,
/// `salvaged`), and `cause` when present.
#[allow(clippy::needless_pass_by_value)] // `.map_err(to_js_error)`; the error ends here.
pub fn to_js_error(err: Error) -> JsValue {
    let carried = err.find_source::<JsException>();
    if let Some(exception) = carried.filter(|e| e.rethrow).and_then(JsException::take) {
        return exception;
    }
    let js = js_sys::Error::new(&js_message(&err));
    for (name, value) in js_error_members(&err) {
        let value = crate::convert::to_js(&value).unwrap_or(JsValue::NULL);
        set(&js, &name, &value);
    }
    if let Some(cause) = carried.and_then(JsException::take) {
        set(&js, "cause", &cause);
    }
    js.into()
}

fn set(target: &JsValue, name: &str, value: &JsValue) {
    // Setting a data property on a fresh plain object or Error cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(name), value);
}
