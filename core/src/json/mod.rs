//! Reading JSON, for all three kinds of state (orchestrator, registry, team):
//!
//! - the strict read of what a caller gives: [`from_value`] (a value read as a type), and the
//!   text checks of [`check_input`]: an integer serde_json would turn into a float, a lone
//!   surrogate escape, nesting deeper than [`MAX_VALUE_NESTING`], each refused naming where it
//!   is (the JS packages' text: [`read_strict_json`](crate::js_json::read_strict_json));
//! - the strict read of a stored file (serde_json, a leading UTF-8 BOM skipped), and the check
//!   before a change writes a file again that no integer in it would become a float;
//! - the lenient read of a damaged file, for salvage: the longest usable prefix.
//!
//! Nesting is limited in one place, with one error ([`too_deep`]): on a text by
//! [`check_input`], on a value built in code by the same limit.

mod lenient;
mod string_member;
mod text_checks;

pub(crate) use lenient::read as read_lenient;
pub(crate) use string_member::read_str_with;
pub(crate) use text_checks::refuse_js_value;
pub use text_checks::{check_input, too_deep};
pub(crate) use text_checks::{check_nesting, check_rewrite};

use std::borrow::Cow;

use serde_json::{Number, Value};

/// The whole part of a count written as any JSON number (Python writes `75.0` for
/// `3 / 4 * 100`), as Python code comparing or adding it sees it: a fraction is dropped, a
/// negative number is 0, one past the largest `u64` is `u64::MAX`.
pub(crate) fn whole_count(number: &Number) -> u64 {
    // Truncation toward zero and saturation are the point of `as` here.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let whole = |f: f64| f as u64;
    number
        .as_u64()
        .unwrap_or_else(|| number.as_f64().map_or(0, whole))
}

/// How deep a value given by a caller may nest (objects and arrays inside each other; a
/// scalar is depth 0, `[]` depth 1). The documents that hold such a value add a few levels,
/// and the files must stay under the 128 levels the JSON parser reads back.
pub const MAX_VALUE_NESTING: usize = 100;

/// The UTF-8 byte order mark. A stored document starting with it is read without it (some
/// Windows editors add it); it is never written.
pub(crate) const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// `bytes` without a leading [`UTF8_BOM`].
pub(crate) fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes)
}

/// `bytes` as text for a front end's own JSON parser: borrowed when they are UTF-8 (the text
/// a save writes always is; `str::from_utf8`, far faster than `String::from_utf8_lossy` on
/// valid text), else with each bad sequence replaced.
///
/// ```
/// use std::borrow::Cow;
/// use session_state::json::utf8_text;
/// assert!(matches!(utf8_text(b"{\"a\": \"\xC3\xA9\"}"), Cow::Borrowed("{\"a\": \"\u{e9}\"}")));
/// assert_eq!(utf8_text(b"[\"\xFF\"]"), "[\"\u{FFFD}\"]");
/// ```
pub fn utf8_text(bytes: &[u8]) -> Cow<'_, str> {
    std::str::from_utf8(bytes).map_or_else(|_| String::from_utf8_lossy(bytes), Cow::Borrowed)
}

/// "an array", "a string", ... for error messages about a value of the wrong type.
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Parses `text`, the JSON a host's writer made of the argument `what` (JS `JSON.stringify`),
/// into a value. `JSON.stringify` writes a lone surrogate as the escape `\ud800`, which
/// serde_json refuses with a message about hex escapes: that refusal is worded by
/// [`check_input`] instead, naming the member. Shared by the Node and wasm packages.
///
/// # Errors
/// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput): `` `{what}` holds the lone
/// surrogate `\ud800` at `["goal"]`, ... `` (context `field`), or
/// `` `{what}` is not JSON: {serde_json's reason} ``.
pub(crate) fn parse_input(what: &str, text: &[u8]) -> crate::Result<serde_json::Value> {
    serde_json::from_slice(text).map_err(|e| match check_input(&format!("`{what}`"), text) {
        Err(err) => err,
        Ok(()) => crate::Error::invalid_input(format!("`{what}` is not JSON: {e}")),
    })
}

/// The argument `name` (a JSON value a binding was given) read as `T` with serde's rules.
///
/// # Errors
/// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) from
/// [`Error::invalid_field`](crate::Error::invalid_field) naming the member at fault below
/// `name` (`` `options.limit` is invalid: invalid type: floating point `1.5`, expected a whole
/// number from 0 up ``, context `field` = `options.limit`; a member `T` refuses is named by
/// serde's reason: `` unknown field `durabilty` ``).
pub fn from_value<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
    name: &str,
) -> crate::Result<T> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let field = crate::error::field_path(name, &e.path().to_string());
        crate::Error::invalid_field(field, e.inner().to_string())
    })
}
