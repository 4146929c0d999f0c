//! The one mapping of session-state errors onto JavaScript (STYLE.md habit 3).
//!
//! - A core [`Error`] becomes a JS `Error` whose `message` is the core message, whose `code` is
//!   the stable kind code ([`ErrorKind::code`], e.g. `"corrupt_state"`), with a `context` object
//!   (`{ key: "...", path: "..." }`) when the core attached context pairs, `hint` (the core's
//!   hint code, e.g. `"replace"`, its advice in the Node API's terms appended to `message`),
//!   and `salvaged` (a plain object) when a corrupt document could be partly read.
//! - A value thrown by a host store's method (see [`crate::host_store`]) travels inside the core
//!   error as its source and is re-thrown unchanged: the caller's `catch` receives the very
//!   object the host threw (`===`), whatever it is (an `Error` subclass, a string, an object).
//!
//! Wrappers call [`ToJs::js`] on every core result: `self.inner.load(..).js(env)`.

use napi::bindgen_prelude::{Env, JsObjectValue, JsValue, Object, Status, Unknown};
use napi_derive::napi;
use session_state::{Error, ErrorKind, Hint};

/// Number of error kinds of the core.
const KIND_COUNT: usize = ErrorKind::ALL.len();

/// The core's kind codes, in declaration order, built at compile time from `ErrorKind::ALL`
/// (a kind without an [`ErrorCode`] variant stops the build, see [`ErrorCode::of`]).
const fn kind_codes() -> [ErrorCode; KIND_COUNT] {
    let mut codes = [ErrorCode::Storage; KIND_COUNT];
    let mut i = 0;
    while i < KIND_COUNT {
        codes[i] = ErrorCode::of(ErrorKind::ALL[i]);
        i += 1;
    }
    codes
}

/// Every error `code` the package can throw, in the core's order (built from the core's
/// list of error kinds; `test/errors.test.mjs` checks it against the `ErrorCode` union).
//
// Typed (not `skip_typescript`): the napi CLI lists only typed items among the explicit
// `module.exports.NAME =` lines of `index.js`, and only those are named exports for ES
// modules (`import { ERROR_CODES } from 'session-state'`, `test/esm.test.mjs`).
#[napi]
pub const ERROR_CODES: [ErrorCode; KIND_COUNT] = kind_codes();

/// The `code` of an error thrown by this package: the stable kind code of the core.
///
/// Hand-written to get a TypeScript union in `index.d.ts`; `every_kind_has_an_error_code`
/// (Rust) and `test/errors.test.mjs` (the union in `index.d.ts` against `ERROR_CODES`) fail
/// when it and the core's `ErrorKind::ALL` differ.
#[napi(string_enum)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// A key, session, agent, chain or team that was asked for does not exist.
    #[napi(value = "not_found")]
    NotFound,
    /// An id or key would not be a safe key segment.
    #[napi(value = "invalid_key")]
    InvalidKey,
    /// Stored bytes do not parse as the expected document.
    #[napi(value = "corrupt_state")]
    CorruptState,
    /// A document declares a `schema_version` this library does not read.
    #[napi(value = "incompatible_schema")]
    IncompatibleSchema,
    /// A lifecycle move the state machine does not allow.
    #[napi(value = "invalid_transition")]
    InvalidTransition,
    /// A concurrent writer changed the value first.
    #[napi(value = "conflict")]
    Conflict,
    /// The target exists and the caller did not ask to replace it.
    #[napi(value = "already_exists")]
    AlreadyExists,
    /// An argument is malformed (wrong type, out of range, too large).
    #[napi(value = "invalid_input")]
    InvalidInput,
    /// The store itself failed (I/O error, host store exception).
    #[napi(value = "storage")]
    Storage,
}

impl ErrorCode {
    /// Every variant, in declaration order.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::NotFound,
        ErrorCode::InvalidKey,
        ErrorCode::CorruptState,
        ErrorCode::IncompatibleSchema,
        ErrorCode::InvalidTransition,
        ErrorCode::Conflict,
        ErrorCode::AlreadyExists,
        ErrorCode::InvalidInput,
        ErrorCode::Storage,
    ];

    /// The variant of a core kind, usable in constants. A core kind without a variant here
    /// panics, which in the constant [`ERROR_CODES`] is a compile error.
    pub const fn of(kind: ErrorKind) -> ErrorCode {
        match kind {
            ErrorKind::NotFound => ErrorCode::NotFound,
            ErrorKind::InvalidKey => ErrorCode::InvalidKey,
            ErrorKind::CorruptState => ErrorCode::CorruptState,
            ErrorKind::IncompatibleSchema => ErrorCode::IncompatibleSchema,
            ErrorKind::InvalidTransition => ErrorCode::InvalidTransition,
            ErrorKind::Conflict => ErrorCode::Conflict,
            ErrorKind::AlreadyExists => ErrorCode::AlreadyExists,
            ErrorKind::InvalidInput => ErrorCode::InvalidInput,
            ErrorKind::Storage => ErrorCode::Storage,
            _ => panic!("a core error kind has no ErrorCode variant: add it"),
        }
    }

    /// The code string, as in the TypeScript union.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotFound => "not_found",
            ErrorCode::InvalidKey => "invalid_key",
            ErrorCode::CorruptState => "corrupt_state",
            ErrorCode::IncompatibleSchema => "incompatible_schema",
            ErrorCode::InvalidTransition => "invalid_transition",
            ErrorCode::Conflict => "conflict",
            ErrorCode::AlreadyExists => "already_exists",
            ErrorCode::InvalidInput => "invalid_input",
            ErrorCode::Storage => "storage",
        }
    }
}

/// A host store's thrown value, carried as the source of a core [`Error`] until the error
/// reaches JavaScript again. Holds a reference to the `{ ok: false, error }` object the host
/// call returned (see [`crate::host_store`]), which keeps the thrown value alive.
#[derive(Debug)]
pub struct HostException(pub napi::Error);

impl std::fmt::Display for HostException {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.reason.is_empty() {
            f.write_str("the host store threw")
        } else {
            f.write_str(&self.0.reason)
        }
    }
}

impl std::error::Error for HostException {}

/// Takes the first [`HostException`] out of the source chain of `err` (a host exception may
/// be wrapped in further core errors), leaving `err` otherwise intact.
fn take_host_exception(err: &mut Error) -> Option<HostException> {
    let source = err.take_source()?;
    match source.downcast::<HostException>() {
        Ok(host) => Some(*host),
        Err(source) => match source.downcast::<Error>() {
            Ok(mut inner) => take_host_exception(&mut inner),
            Err(_) => None,
        },
    }
}

/// Converts a core error into the `napi::Error` a `#[napi]` function returns, so that
/// JavaScript receives:
/// - the exact value a host store threw, when `err` carries one (see the module docs);
/// - otherwise a new `Error` with `message`, `code`, and `context` / `salvaged` when present.
///
/// Call it only on the way out of a `#[napi]` function (return the result at once): for a
/// host exception the value is already thrown on `env` when this returns.
pub fn to_js_error(env: &Env, mut err: Error) -> napi::Error {
    if let Some(HostException(outcome)) = take_host_exception(&mut err) {
        // Throw the caught value itself (an `Error` or not); the returned `PendingException`
        // status tells napi-rs to leave that exception as it is.
        return match rethrow(env, outcome) {
            Ok(()) => napi::Error::new(Status::PendingException, err.message().to_owned()),
            Err(e) => e,
        };
    }
    match build_error(env, &err) {
        Ok(object) => napi::Error::from(object.to_unknown()),
        // Building the object failed (the environment is shutting down): a plain error still
        // carries the message, with the kind code as napi's `code`.
        Err(_) => napi::Error::new(
            Status::GenericFailure,
            format!("[{}] {}", err.code(), node_message(&err)),
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
    let thrown: Unknown<'_> = outcome.get_named_property("error")?;
    env.throw(thrown)
}

/// What a Node user may do, for a core [`Hint`]: the option of the Node API to pass,
/// appended to the core message.
pub fn advice(hint: Hint) -> &'static str {
    match hint {
        Hint::Replace => {
            ": pass the option `{ replace: true }` to overwrite it: `archive(doc, { replace: \
             true })` (also for a session already in a final status), `complete({ replace: \
             true })` or `abort({ replace: true })`"
        }
        Hint::Repair => ": `doctor({ fix: true })` or `recover()` repairs it, keeping a copy",
        _ => "",
    }
}

/// The message a Node user sees: the core message and its hint in the Node API's terms.
pub fn node_message(err: &Error) -> String {
    format!(
        "{}{}",
        err.message(),
        err.hint().map(advice).unwrap_or_default()
    )
}

/// A JS `Error` object for a core error: `message` (see [`node_message`]), `code`, `hint`
/// (its code, when the core gave one), `context`, `salvaged`.
fn build_error<'env>(env: &'env Env, err: &Error) -> napi::Result<Object<'env>> {
    let message = node_message(err);
    let mut object = env.create_error(napi::Error::new(Status::GenericFailure, message))?;
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

/// An [`ErrorKind::InvalidInput`] error as a JS error: for arguments the bindings check
/// themselves (wrong JS type, missing method).
pub fn invalid_input(env: &Env, message: impl Into<String>) -> napi::Error {
    to_js_error(env, Error::new(ErrorKind::InvalidInput, message))
}

/// Maps the error of a core result onto JavaScript with [`to_js_error`].
pub trait ToJs<T> {
    /// The same result, with a core error converted by [`to_js_error`].
    fn js(self, env: &Env) -> napi::Result<T>;
}

impl<T> ToJs<T> for session_state::Result<T> {
    fn js(self, env: &Env) -> napi::Result<T> {
        self.map_err(|e| to_js_error(env, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_an_error_code() {
        let core: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
        let exported: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(
            core, exported,
            "ErrorCode (index.d.ts union) differs from the core"
        );
        let constant: Vec<&str> = ERROR_CODES.iter().map(|c| c.as_str()).collect();
        assert_eq!(constant, core);
    }

    #[test]
    fn node_message_names_the_node_option() {
        use session_state::orchestrator::{OrchestratorStore, Project};
        use session_state::{FixedClock, MemoryStore};
        let clock = FixedClock::at("2026-01-02T03:04:05Z").expect("instant");
        let sessions = OrchestratorStore::new(MemoryStore::new(), clock);
        let project = Project::new("p", "/p", None);
        let doc = sessions
            .create_session("goal", "default", project, Some("abc123"))
            .expect("created");
        sessions.archive(&doc, false).expect("archived");
        let err = sessions.archive(&doc, false).expect_err("archived twice");
        assert_eq!(err.kind(), ErrorKind::AlreadyExists);
        assert!(!err.message().contains("--replace"), "core message: {err}");
        assert_eq!(err.hint(), Some(Hint::Replace));
        let node = node_message(&err);
        assert!(!node.contains("--replace"), "{node}");
        assert!(node.contains("`{ replace: true }`"), "{node}");
        assert!(
            node.starts_with("an archive of session `2026-01-02-abc123` already exists at"),
            "{node}"
        );
        assert_eq!(
            node_message(&Error::invalid_input("no hint")),
            "no hint",
            "no hint, nothing added"
        );
    }

    #[test]
    fn host_exception_is_found_below_wrapping_errors() {
        let host = HostException(napi::Error::new(Status::GenericFailure, "boom"));
        let inner = Error::new(ErrorKind::Storage, "cannot read `a`").with_source(host);
        let mut outer = Error::new(ErrorKind::CorruptState, "`a` is corrupt").with_source(inner);
        let found = take_host_exception(&mut outer).expect("host exception in the chain");
        assert_eq!(found.to_string(), "boom");
        let mut plain = Error::storage("a", "read", std::io::Error::other("disk"));
        assert!(take_host_exception(&mut plain).is_none());
    }
}
