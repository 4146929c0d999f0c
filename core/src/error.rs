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

    /// The [`code`](Self::code) of every kind, in the order of [`ALL`](Self::ALL): the error
    /// codes a binding exports (`ERROR_CODES`).
    pub const CODES: [&'static str; ErrorKind::ALL.len()] = {
        let mut codes = [""; ErrorKind::ALL.len()];
        let mut i = 0;
        while i < codes.len() {
            codes[i] = ErrorKind::ALL[i].code();
            i += 1;
        }
        codes
    };

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

/// What the caller may do about an error, as data: each front end renders it in its own terms
/// (the CLI `--replace`, Python `replace=True`, JS `{ replace: true }`), so a core message
/// never names one front end's flag or option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Hint {
    /// The same call with replacing allowed overwrites the target (an archive that exists).
    Replace,
    /// The same call with archiving allowed moves the unfinished current session to the
    /// history as it is first (a new session while one is unfinished).
    ArchiveCurrent,
    /// The stored state can be repaired (a doctor with fixing, or the registry's recover).
    Repair,
    /// A limit stopped the call; raising the option `option` (its snake_case name, e.g.
    /// `max_document_bytes`) lets it through.
    RaiseLimit {
        /// The option that sets the limit, in snake_case.
        option: &'static str,
    },
    /// A lease held by another owner has expired: the same claim with taking over allowed
    /// gets it.
    Takeover,
}

impl Hint {
    /// The stable snake_case code of this hint, e.g. `"replace"`. Part of the public API.
    pub const fn code(self) -> &'static str {
        match self {
            Hint::Replace => "replace",
            Hint::ArchiveCurrent => "archive_current",
            Hint::Repair => "repair",
            Hint::RaiseLimit { .. } => "raise_limit",
            Hint::Takeover => "takeover",
        }
    }
}

impl fmt::Display for Hint {
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
/// field involved, optional context pairs (`field` among them: the member at fault), an
/// optional [`Hint`], an optional source, and, for [`ErrorKind::CorruptState`], optionally the
/// document that could be salvaged.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    context: Vec<(&'static str, String)>,
    /// For an error made by [`Error::invalid_field`]: the reason, from which the message is
    /// made again when the field is named anew ([`Error::with_field`]).
    reason: Option<Box<str>>,
    hint: Option<Hint>,
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
            reason: None,
            hint: None,
            source: None,
            salvaged: None,
        }
    }

    /// The [`ErrorKind::InvalidInput`] error of the member `field` (a path such as
    /// `options.limit` or `agents[1].progress`): `` `{field}` is invalid: {reason} ``, with
    /// the context pair `field`. Its message follows the field when a caller names the member
    /// anew ([`with_field`](Self::with_field), [`below`](Self::below)).
    pub fn invalid_field(field: impl Into<String>, reason: impl Into<String>) -> Self {
        let field = field.into();
        let reason = in_words(reason.into());
        let mut err =
            Error::invalid_input(field_message(&field, &reason)).with_context("field", field);
        err.reason = Some(reason.into_boxed_str());
        err
    }

    /// This error naming its member as `field` (context pair `field`; for an error made by
    /// [`invalid_field`](Self::invalid_field) the message is made again from it). A binding
    /// uses it to name a member in its own language (`state.backend_type` in Python).
    #[must_use]
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        let field = field.into();
        if let Some(reason) = &self.reason {
            self.message = field_message(&field, reason);
        }
        match self.context.iter_mut().find(|(name, _)| *name == "field") {
            Some(pair) => pair.1 = field,
            None => self.context.push(("field", field)),
        }
        self
    }

    /// This error with its member named below the argument `parent` (`name` becomes
    /// `changes.name`, `[0]` becomes `agents[0]`); unchanged when it names no member.
    #[must_use]
    pub fn below(self, parent: &str) -> Self {
        match self.field() {
            Some(field) => {
                let field = field_path(parent, field);
                self.with_field(field)
            }
            None => self,
        }
    }

    /// The member at fault (the context pair `field`), if any.
    pub fn field(&self) -> Option<&str> {
        self.context_value("field")
    }

    /// For an error made by [`invalid_field`](Self::invalid_field): why the member was
    /// refused, without its name (`` missing field `goal` ``), for a front end that names the
    /// member its own way.
    pub fn reason(&self) -> Option<&str> {
        self.reason.as_deref()
    }

    /// Adds what the caller may do about this error.
    #[must_use]
    pub fn with_hint(mut self, hint: Hint) -> Self {
        self.hint = Some(hint);
        self
    }

    /// What the caller may do about this error, if the core knows.
    pub fn hint(&self) -> Option<Hint> {
        self.hint
    }

    /// Adds a context pair such as `("key", ".claude/orchestrator-session.json")`.
    #[must_use]
    pub fn with_context(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.context.push((name, value.into()));
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
    pub(crate) fn with_salvaged(mut self, salvaged: serde_json::Value) -> Self {
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

    /// Takes the underlying cause out of the error (bindings re-raise host exceptions with it).
    pub fn take_source(&mut self) -> Option<BoxError> {
        self.source.take()
    }

    /// The first cause of type `T` in this error's source chain (a binding's own exception,
    /// carried through core errors), if any.
    pub fn find_source<T: std::error::Error + 'static>(&self) -> Option<&T> {
        let mut source = std::error::Error::source(self);
        while let Some(current) = source {
            if let Some(found) = current.downcast_ref::<T>() {
                return Some(found);
            }
            source = current.source();
        }
        None
    }

    /// Takes the first cause of type `T` out of this error's source chain (a host store's
    /// exception, possibly wrapped in further core errors, for the binding to re-raise); the
    /// chain is dropped whether or not it held one.
    pub fn take_source_of<T: std::error::Error + Send + Sync + 'static>(&mut self) -> Option<T> {
        match self.take_source()?.downcast::<T>() {
            Ok(found) => Some(*found),
            Err(source) => source.downcast::<Error>().ok()?.take_source_of(),
        }
    }

    /// Shorthand for an [`ErrorKind::InvalidInput`] error.
    pub fn invalid_input(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::InvalidInput, message)
    }

    /// The [`ErrorKind::InvalidInput`] error of the argument `name` given a value of the type
    /// `got`: `` `{name}` must be {expected}, not {got} ``, context `argument`.
    pub fn wrong_type(name: &str, expected: &str, got: impl fmt::Display) -> Self {
        Error::invalid_input(format!("`{name}` must be {expected}, not {got}"))
            .with_context("argument", name)
    }

    /// The [`ErrorKind::InvalidInput`] error of the string argument `name` holding a lone
    /// surrogate, which UTF-8 cannot hold; context `argument`.
    pub fn lone_surrogate(name: &str) -> Self {
        Error::invalid_input(format!(
            "`{name}` holds a lone surrogate, half of a UTF-16 pair, which UTF-8 (and a file \
             name or JSON file) cannot hold"
        ))
        .with_context("argument", name)
    }

    /// The [`ErrorKind::InvalidInput`] error of the argument `name`, an object taken as a host
    /// store, lacking its `method` method; context `argument`.
    pub fn host_store_lacks(name: &str, method: &str) -> Self {
        Error::invalid_input(format!(
            "`{name}` has no `{method}` method, which a host store needs (read, write, delete \
             and list)"
        ))
        .with_context("argument", name)
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

    /// The [`ErrorKind::Storage`] error of a host store whose `method` threw on `key` (the
    /// binding attaches the host's exception as the source).
    pub fn host_threw(key: impl fmt::Display, method: &str) -> Self {
        let message = format!("host store `{method}` of `{key}` threw");
        Error::new(ErrorKind::Storage, message).with_context("key", key.to_string())
    }

    /// The [`ErrorKind::Storage`] error of a host store whose `method` returned a value of the
    /// type `got` for `key` where it must return `expected`; context `key` and `method`.
    pub fn host_returned(
        key: impl fmt::Display,
        method: &str,
        got: impl fmt::Display,
        expected: &str,
    ) -> Self {
        let message =
            format!("host store `{method}` of `{key}` returned {got}, expected {expected}");
        Error::new(ErrorKind::Storage, message)
            .with_context("key", key.to_string())
            .with_context("method", method)
    }

    /// The [`ErrorKind::Storage`] error of a host store whose `method` returned a promise (or
    /// another thenable) for `key`: host store methods must be synchronous.
    pub fn host_async(key: impl fmt::Display, method: &str) -> Self {
        let message = format!(
            "host store `{method}` of `{key}` returned a promise (or another thenable): host \
             store methods must be synchronous"
        );
        Error::new(ErrorKind::Storage, message)
            .with_context("key", key.to_string())
            .with_context("method", method)
    }

    /// The [`ErrorKind::Storage`] error of a host store whose `method` could not be called for
    /// `key` (the runtime failed, `reason`).
    pub fn host_unreachable(key: impl fmt::Display, method: &str, reason: &str) -> Self {
        let message = format!("cannot call host store `{method}` of `{key}`: {reason}");
        Error::new(ErrorKind::Storage, message).with_context("key", key.to_string())
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

/// `value` as a message shows it: escaped (`\n`, `\u{0}`), and when over 64 characters its
/// first 64 followed by `...` and its size (a message never echoes a 100 KB argument).
pub(crate) fn shown(value: &str) -> String {
    const SHOWN_CHARS: usize = 64;
    match value.char_indices().nth(SHOWN_CHARS) {
        None => value.escape_debug().to_string(),
        Some((end, _)) => format!("{}... ({} bytes)", value[..end].escape_debug(), value.len()),
    }
}

/// `reason` with the Rust number type serde names at its end (`..., expected u8`) in words.
fn in_words(reason: String) -> String {
    const TYPES: [(&str, &str); 7] = [
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number from 0 to 65535"),
        (
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        ),
        (
            "expected u64",
            "expected a whole number from 0 to 18446744073709551615",
        ),
        ("expected usize", "expected a whole number from 0 up"),
        ("expected i64", "expected a whole number"),
        ("expected f64", "expected a number"),
    ];
    for (rust, words) in TYPES {
        if let Some(head) = reason.strip_suffix(rust) {
            return format!("{head}{words}");
        }
    }
    reason
}

/// The message of [`Error::invalid_field`].
fn field_message(field: &str, reason: &str) -> String {
    format!("`{field}` is invalid: {reason}")
}

/// `parent` and a member path below it: `options` + `limit` gives `options.limit`, `agents` +
/// `[1].progress` gives `agents[1].progress`, and `.` or an empty path is `parent` itself.
pub fn field_path(parent: &str, path: &str) -> String {
    match path {
        "" | "." => parent.to_owned(),
        path if path.starts_with('[') => format!("{parent}{path}"),
        path => format!("{parent}.{path}"),
    }
}

/// The result type of session-state.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_value_is_shown_clipped_with_its_size() {
        assert_eq!(shown("a\nb"), "a\\nb");
        let long = "é".repeat(100);
        assert_eq!(shown(&long), format!("{}... (200 bytes)", "é".repeat(64)));
        assert_eq!(shown(&"x".repeat(64)), "x".repeat(64));
    }

    #[test]
    fn rust_number_types_in_a_reason_are_said_in_words() {
        let err = Error::invalid_field("percent", "invalid type: floating point `50`, expected u8");
        assert_eq!(
            err.message(),
            "`percent` is invalid: invalid type: floating point `50`, expected a whole number \
             from 0 to 255"
        );
        assert_eq!(
            err.reason(),
            Some("invalid type: floating point `50`, expected a whole number from 0 to 255")
        );
        assert_eq!(Error::invalid_input("x").reason(), None);
        let text = Error::invalid_field(
            "name",
            "invalid type: string \"expected u8\", expected a string",
        );
        assert!(text.message().ends_with("expected a string"), "{text}");
        let tokens = Error::invalid_field("tokens", "invalid value: integer `-1`, expected u64");
        assert!(
            tokens.message().ends_with("from 0 to 18446744073709551615"),
            "{tokens}"
        );
    }

    #[test]
    fn a_member_named_anew_makes_the_message_again() {
        let err = Error::invalid_field("name", "`name` is empty").with_context("value", "");
        assert_eq!(err.message(), "`name` is invalid: `name` is empty");
        let err = err.below("changes");
        assert_eq!(err.message(), "`changes.name` is invalid: `name` is empty");
        assert_eq!(err.field(), Some("changes.name"));
        assert_eq!(err.context_value("value"), Some(""));
        let err = err.with_field("state.backend_type");
        assert_eq!(
            err.message(),
            "`state.backend_type` is invalid: `name` is empty"
        );
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        let plain = Error::invalid_input("no field").below("x");
        assert_eq!(plain.message(), "no field");
        assert_eq!(plain.field(), None);
        let at = Error::invalid_field("[1].progress", "too big").below("agents");
        assert_eq!(at.field(), Some("agents[1].progress"));
        assert_eq!(field_path("options", "."), "options");
    }

    #[test]
    fn hints_have_stable_codes() {
        let err = Error::new(ErrorKind::AlreadyExists, "exists").with_hint(Hint::Replace);
        assert_eq!(err.hint(), Some(Hint::Replace));
        assert_eq!(Hint::Replace.code(), "replace");
        assert_eq!(Hint::Repair.code(), "repair");
        assert_eq!(Hint::ArchiveCurrent.code(), "archive_current");
        assert_eq!(
            Hint::RaiseLimit {
                option: "max_document_bytes"
            }
            .code(),
            "raise_limit"
        );
        assert_eq!(Error::invalid_input("x").hint(), None);
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
        let codes: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
        assert_eq!(ErrorKind::CODES.to_vec(), codes);
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

    #[test]
    fn a_cause_is_found_below_wrapping_errors() {
        let io = std::io::Error::other("disk");
        let inner = Error::storage("a", "read", io);
        let mut outer = Error::corrupt("a", "x").with_source(inner);
        assert_eq!(
            outer.find_source::<std::io::Error>().unwrap().to_string(),
            "disk"
        );
        assert!(outer.find_source::<std::fmt::Error>().is_none());
        assert_eq!(
            outer
                .take_source_of::<std::io::Error>()
                .unwrap()
                .to_string(),
            "disk"
        );
        assert!(std::error::Error::source(&outer).is_none());
        let mut plain = Error::storage("a", "read", std::io::Error::other("disk"));
        assert!(plain.take_source_of::<std::fmt::Error>().is_none());
    }
}
