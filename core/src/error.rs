//! The one error type of session-state, with stable kind codes.
//!
//! Every fallible operation of the core, the stores and the bindings returns [`Error`]. Its
//! [`ErrorKind`] is `Copy`, `#[non_exhaustive]` and has a stable snake_case code
//! ([`ErrorKind::code`]); bindings map each code once (Python exception subclasses, JS `Error`
//! with `code`), and [`ErrorKind::ALL`] lets each binding test that it maps them all.

use std::fmt;

/// What went wrong, as a stable code that bindings and the CLI expose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A key, session, agent, chain or team that was asked for does not exist.
    NotFound,
    /// An id or key would not be a safe key segment (SPEC section 4).
    InvalidKey,
    /// Stored bytes do not parse as the expected document (torn, truncated, wrong types).
    CorruptState,
    /// A document declares a `schema_version` this library does not read.
    IncompatibleSchema,
    /// A lifecycle move that the state machine does not allow (e.g. `complete → in_progress`).
    InvalidTransition,
    /// A concurrent writer changed the value first (compare-and-swap lost, lock not taken).
    Conflict,
    /// The target exists and the caller did not ask to replace it (e.g. an archive id).
    AlreadyExists,
    /// An argument is malformed (wrong type, out of range, too large).
    InvalidInput,
    /// The store itself failed (I/O error, permission, quota, host store exception).
    Storage,
}

impl ErrorKind {
    /// Every kind, in declaration order. Bindings test that they map each of these.
    pub const ALL: &'static [ErrorKind] = &[
        ErrorKind::NotFound,
        ErrorKind::InvalidKey,
        ErrorKind::CorruptState,
        ErrorKind::IncompatibleSchema,
        ErrorKind::InvalidTransition,
        ErrorKind::Conflict,
        ErrorKind::AlreadyExists,
        ErrorKind::InvalidInput,
        ErrorKind::Storage,
    ];

    /// The stable snake_case code of this kind, e.g. `"corrupt_state"`. Part of the public API.
    pub const fn code(self) -> &'static str {
        match self {
            ErrorKind::NotFound => "not_found",
            ErrorKind::InvalidKey => "invalid_key",
            ErrorKind::CorruptState => "corrupt_state",
            ErrorKind::IncompatibleSchema => "incompatible_schema",
            ErrorKind::InvalidTransition => "invalid_transition",
            ErrorKind::Conflict => "conflict",
            ErrorKind::AlreadyExists => "already_exists",
            ErrorKind::InvalidInput => "invalid_input",
            ErrorKind::Storage => "storage",
        }
    }

    /// The kind whose [`code`](Self::code) is `code`, if any.
    pub fn from_code(code: &str) -> Option<ErrorKind> {
        Self::ALL.iter().copied().find(|k| k.code() == code)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The schema of an error `code` field: one of the codes of [`ErrorKind::ALL`], named
/// `ErrorCode` (the name the bindings' declarations give it).
impl schemars::JsonSchema for ErrorKind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ErrorCode".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let codes: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
        schemars::json_schema!({
            "type": "string",
            "enum": codes,
            "description": "The stable code of a session-state error (`err.code`)."
        })
    }
}

/// The source of an error: any error that can cross threads (an I/O error, a host exception).
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// An error of session-state: a [`ErrorKind`], a lowercase message that names the key or
/// field involved, optional context pairs, an optional source, and, for
/// [`ErrorKind::CorruptState`], optionally the document that could be salvaged.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    context: Vec<(&'static str, String)>,
    source: Option<BoxError>,
    salvaged: Option<Box<serde_json::Value>>,
}

impl Error {
    /// A new error of `kind` with `message` (lowercase, no final period, user values in
    /// backticks).
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            context: Vec::new(),
            source: None,
            salvaged: None,
        }
    }

    /// Adds a context pair such as `("key", ".claude/orchestrator-session.json")`.
    #[must_use]
    pub fn with_context(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.context.push((name, value.into()));
        self
    }

    /// This error with its `field` context, and the first `` `field` `` in its message, renamed
    /// by `rename`: a binding names a document member below its argument (`name` becomes
    /// `changes.name`). Unchanged when there is no `field`.
    #[must_use]
    pub fn rename_field(mut self, rename: impl FnOnce(&str) -> String) -> Self {
        let Some(pair) = self.context.iter_mut().find(|(name, _)| *name == "field") else {
            return self;
        };
        let renamed = rename(&pair.1);
        self.message = self
            .message
            .replacen(&format!("`{}`", pair.1), &format!("`{renamed}`"), 1);
        pair.1 = renamed;
        self
    }

    /// Sets the underlying cause.
    #[must_use]
    pub fn with_source(mut self, source: impl Into<BoxError>) -> Self {
        self.source = Some(source.into());
        self
    }

    /// Attaches what could be salvaged from a corrupt document.
    #[must_use]
    pub fn with_salvaged(mut self, salvaged: serde_json::Value) -> Self {
        self.salvaged = Some(Box::new(salvaged));
        self
    }

    /// The kind of this error.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The stable code of this error's kind (same as `self.kind().code()`).
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// The message, without context or source.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The context pairs, in the order they were added.
    pub fn context(&self) -> &[(&'static str, String)] {
        &self.context
    }

    /// The value of the first context pair named `name`.
    pub fn context_value(&self, name: &str) -> Option<&str> {
        self.context
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// What could be salvaged from a corrupt document, when the operation attempted it.
    pub fn salvaged(&self) -> Option<&serde_json::Value> {
        self.salvaged.as_deref()
    }

    /// The underlying cause, if any (for host stores: the host's own exception).
    pub fn source_ref(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.source.as_deref()
    }

    /// Takes the underlying cause out of the error (bindings re-raise host exceptions with it).
    pub fn take_source(&mut self) -> Option<BoxError> {
        self.source.take()
    }

    /// Shorthand for an [`ErrorKind::InvalidInput`] error.
    pub fn invalid_input(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::InvalidInput, message)
    }

    /// The [`ErrorKind::Conflict`] error of a host store object (a Python or JS object used as
    /// a store) whose update of `key` was started from inside another update of the same
    /// object, from one of its own methods: the bindings refuse it instead of deadlocking.
    pub fn host_reentered(key: impl fmt::Display) -> Self {
        Error::new(
            ErrorKind::Conflict,
            format!(
                "host store re-entered: an update of `{key}` was started while another update \
                 of the same host store object was running (from inside one of its methods)"
            ),
        )
        .with_context("key", key.to_string())
    }

    /// Shorthand for an [`ErrorKind::CorruptState`] error about `key`.
    pub fn corrupt(key: impl fmt::Display, detail: impl fmt::Display) -> Self {
        Error::new(
            ErrorKind::CorruptState,
            format!("`{key}` is corrupt: {detail}"),
        )
        .with_context("key", key.to_string())
    }

    /// Shorthand for an [`ErrorKind::Storage`] error about `key` caused by `source`.
    pub fn storage(key: impl fmt::Display, action: &str, source: impl Into<BoxError>) -> Self {
        let source = source.into();
        Error::new(
            ErrorKind::Storage,
            format!("cannot {action} `{key}`: {source}"),
        )
        .with_context("key", key.to_string())
        .with_source(source)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// The result type of session-state.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_field_renames_the_context_and_the_message_once() {
        let err = Error::invalid_input("`name` is invalid: `name` is empty")
            .with_context("field", "name")
            .with_context("value", "");
        let err = err.rename_field(|f| format!("changes.{f}"));
        assert_eq!(err.message(), "`changes.name` is invalid: `name` is empty");
        assert_eq!(err.context_value("field"), Some("changes.name"));
        assert_eq!(err.context_value("value"), Some(""));
        let plain = Error::invalid_input("no field").rename_field(|f| format!("x.{f}"));
        assert_eq!(plain.message(), "no field");
    }

    #[test]
    fn codes_are_unique_snake_case_and_round_trip() {
        let mut seen = std::collections::BTreeSet::new();
        for kind in ErrorKind::ALL {
            let code = kind.code();
            assert!(
                code.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{code}"
            );
            assert!(seen.insert(code), "duplicate code {code}");
            assert_eq!(ErrorKind::from_code(code), Some(*kind));
        }
        assert_eq!(ErrorKind::from_code("nope"), None);
        assert_eq!(seen.len(), 9);
    }

    #[test]
    fn context_and_source_are_kept() {
        let io = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "denied");
        let err = Error::storage("a/b.json", "write", io).with_context("path", "/x/a/b.json");
        assert_eq!(err.kind(), ErrorKind::Storage);
        assert_eq!(err.code(), "storage");
        assert_eq!(err.context_value("key"), Some("a/b.json"));
        assert_eq!(err.context_value("path"), Some("/x/a/b.json"));
        assert!(err.to_string().contains("`a/b.json`"));
        assert!(std::error::Error::source(&err).is_some());
    }
}
