//! The one place where a core [`Error`] becomes a JS exception.
//!
//! Every method of the package throws a JS `Error` whose `code` is the core's stable
//! [`ErrorKind::code`] (the TS union `ErrorCode`), whose `context` is a plain object of the
//! error's context pairs (`{ key: ".claude/orchestrator-session.json" }`), and, for a
//! `corrupt_state` error that salvaged something, whose `salvaged` is that document.
//!
//! One exception to that: an exception thrown by a host store (a JS object with
//! `read`/`write`/`delete`/`list`) reaches the caller unchanged, the very same object. The core
//! only sees a [`ErrorKind::Storage`] error whose source is a [`JsException`]; the `JsValue`
//! itself is not `Send`, so it waits in a thread-local table under the exception's id until
//! [`to_js_error`] rethrows it (or the [`JsException`] is dropped, which removes it).
//! Browser storage failures (quota, access denied) instead become typed `storage` errors whose
//! `cause` is the browser's `DOMException`.
//!
//! Two argument checks written in JavaScript to keep the `.wasm` small (`strictJson` in
//! [`crate::convert`], `checkSpawnConfig` in [`crate::team`]) throw their `invalid_input`
//! errors themselves, in the same shape (`message`, `code`, `context`).

use std::cell::{Cell, RefCell};
use std::fmt;

use js_sys::{Object, Reflect};
use session_state::{Error, ErrorKind, Key};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// Results of exported functions: the error is the JS value to throw.
pub type JsResult<T> = Result<T, JsValue>;

/// Declares the error codes once: the Rust list [`ERROR_CODES`], checked against
/// [`ErrorKind::ALL`] by a test (the TS union `ErrorCode` is generated from the core, see
/// `bindings-shared/types.d.ts`).
macro_rules! error_codes {
    ($($code:literal),+ $(,)?) => {
        /// Every error code, in the core's [`ErrorKind::ALL`] order.
        pub const ERROR_CODES: &[&str] = &[$($code),+];
    };
}

/// The TS declaration of `SessionStateError`.
#[wasm_bindgen(typescript_custom_section)]
const TS_ERROR: &'static str = r#"
/**
 * What every method throws: a JS `Error` with a stable `code`, the error's context pairs
 * (e.g. `{ key: ".claude/orchestrator-session.json" }`) and, for `corrupt_state`, what could be
 * salvaged from the document. An exception thrown by a host store is not wrapped: it reaches
 * the caller unchanged.
 */
export interface SessionStateError extends Error {
  code: ErrorCode;
  context: Record<string, string>;
  salvaged?: unknown;
  cause?: unknown;
}
"#;

error_codes!(
    "not_found",
    "invalid_key",
    "corrupt_state",
    "incompatible_schema",
    "invalid_transition",
    "conflict",
    "already_exists",
    "invalid_input",
    "storage",
);

/// Every error code (the values of the TS union `ErrorCode`), in the core's order. The built
/// package also exports the same list as the frozen constant `ERROR_CODES`.
#[wasm_bindgen(js_name = errorCodes, unchecked_return_type = "ErrorCode[]")]
pub fn error_codes() -> js_sys::Array {
    ERROR_CODES.iter().map(|c| JsValue::from_str(c)).collect()
}

thread_local! {
    // Exceptions waiting by id. A list, not a map: it holds one or two at a time, and a
    // `BTreeMap` would add its node code to the wasm.
    static PENDING: RefCell<Vec<(u64, JsValue)>> = const { RefCell::new(Vec::new()) };
    static NEXT_ID: Cell<u64> = const { Cell::new(0) };
}

/// A JS exception carried through the core as an error source.
///
/// It holds only an id and a description (so it is `Send + Sync` like every error source);
/// the exception itself waits in a thread-local table until [`to_js_error`] takes it out.
/// Dropping it removes the exception from the table, so nothing leaks when the core handles a
/// storage error itself.
pub struct JsException {
    id: u64,
    description: String,
    /// `true`: throw the exception itself (host stores); `false`: throw a typed error with the
    /// exception as `cause` (browser storage).
    rethrow: bool,
}

impl JsException {
    fn stash(exception: JsValue, rethrow: bool) -> JsException {
        let description = describe(&exception);
        let id = NEXT_ID.with(|next| {
            let id = next.get();
            next.set(id.wrapping_add(1));
            id
        });
        PENDING.with(|p| p.borrow_mut().push((id, exception)));
        JsException {
            id,
            description,
            rethrow,
        }
    }

    fn take(&self) -> Option<JsValue> {
        PENDING.with(|p| take_pending(&mut p.borrow_mut(), self.id))
    }
}

/// Removes and returns the exception stashed under `id`.
fn take_pending(pending: &mut Vec<(u64, JsValue)>, id: u64) -> Option<JsValue> {
    let at = pending.iter().position(|(i, _)| *i == id)?;
    Some(pending.swap_remove(at).1)
}

impl Drop for JsException {
    fn drop(&mut self) {
        // `try_with`: the table may already be gone at thread exit.
        let _ = PENDING.try_with(|p| take_pending(&mut p.borrow_mut(), self.id));
    }
}

impl fmt::Debug for JsException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsException")
            .field("id", &self.id)
            .field("description", &self.description)
            .field("rethrow", &self.rethrow)
            .finish()
    }
}

impl fmt::Display for JsException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description)
    }
}

impl std::error::Error for JsException {}

/// A `storage` error for an exception a host store threw while doing `action` (`"read"`,
/// `"write"`, ...) on `key`; [`to_js_error`] throws the exception itself, unchanged.
pub fn host_exception(key: &Key, action: &str, exception: JsValue) -> Error {
    Error::storage(key, action, JsException::stash(exception, true))
}

/// A `storage` error for an exception the browser threw while doing `action` on `key` (e.g. a
/// `QuotaExceededError`); [`to_js_error`] throws a typed error with the exception as `cause`.
pub fn browser_exception(key: &Key, action: &str, exception: JsValue) -> Error {
    Error::storage(key, action, JsException::stash(exception, false))
}

/// A short description of a thrown JS value: `Name: message` for an `Error`, the string for a
/// string, otherwise its type.
pub fn describe(value: &JsValue) -> String {
    if let Some(err) = value.dyn_ref::<js_sys::Error>() {
        format!(
            "{}: {}",
            String::from(err.name()),
            String::from(err.message())
        )
    } else if let Some(text) = value.as_string() {
        text
    } else {
        format!("a thrown {}", type_name(value))
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

// `webError(message)`: a JS `Error` with the core's message, its advice written for the CLI
// user (a command-line flag) swapped for this package's option, as the Node package does:
// `already_exists` of `archive` (also `complete`, `abort`) names `{ replace: true }`, not
// `--replace`. JavaScript, so the texts cost no wasm; `test/errors.test.mjs` fails when the
// core wording changes and the swap stops matching.
#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    #[wasm_bindgen(js_name = webError)]
    fn web_error(message: &str) -> js_sys::Error;
}

/// The JS exception for `err`: the host store's own exception when one caused it, otherwise
/// a JS `Error` with `message` (CLI advice swapped for the package's options, see `webError`),
/// `code`, `context`, and `salvaged` / `cause` when present.
// By value so that `.map_err(to_js_error)` reads naturally; the error ends here.
#[allow(clippy::needless_pass_by_value)]
pub fn to_js_error(err: Error) -> JsValue {
    let carried = find_js_exception(&err);
    if let Some(exception) = carried.filter(|e| e.rethrow).and_then(JsException::take) {
        return exception;
    }
    let js = web_error(err.message());
    let context = Object::new();
    for (name, value) in err.context() {
        set(&context, name, &JsValue::from_str(value));
    }
    set(&js, "code", &JsValue::from_str(err.code()));
    set(&js, "context", &context);
    if let Some(salvaged) = err.salvaged() {
        let value = crate::convert::to_js(salvaged).unwrap_or(JsValue::NULL);
        set(&js, "salvaged", &value);
    }
    if let Some(cause) = carried.and_then(JsException::take) {
        set(&js, "cause", &cause);
    }
    js.into()
}

/// The [`JsException`] in `err`'s source chain, if any.
fn find_js_exception(err: &Error) -> Option<&JsException> {
    let mut source = std::error::Error::source(err);
    while let Some(current) = source {
        if let Some(found) = current.downcast_ref::<JsException>() {
            return Some(found);
        }
        source = current.source();
    }
    None
}

fn set(target: &JsValue, name: &str, value: &JsValue) {
    // Setting a data property on a fresh plain object or Error cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(name), value);
}

/// Maps a core result to a JS result: `core_call().js()?` in exported functions.
pub trait IntoJsResult<T> {
    /// `Err(e)` becomes `Err(to_js_error(e))`.
    fn js(self) -> JsResult<T>;
}

impl<T> IntoJsResult<T> for session_state::Result<T> {
    fn js(self) -> JsResult<T> {
        self.map_err(to_js_error)
    }
}

/// The JS `invalid_input` error for a malformed argument (wrong type, bad value).
pub fn invalid_input(message: impl Into<String>) -> JsValue {
    to_js_error(Error::new(ErrorKind::InvalidInput, message))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn codes_equal_the_core_kinds_in_order() {
        let core: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
        assert_eq!(ERROR_CODES, core.as_slice());
    }

    #[test]
    fn ts_union_names_exactly_the_codes() {
        let types = include_str!("../../bindings-shared/types.d.ts");
        let start = types
            .find("export type ErrorCode =")
            .expect("ErrorCode union");
        let union = &types[start + "export type ErrorCode =".len()..];
        let members: Vec<&str> = union[..union.find(';').expect("end of the union")]
            .split('|')
            .map(|m| m.trim().trim_matches('"'))
            .filter(|m| !m.is_empty())
            .collect();
        let core: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
        assert_eq!(members, core);
    }
}
