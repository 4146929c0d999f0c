//! Checks a JSON text before serde_json reads it, so that nothing the user gave is silently
//! changed or refused with an obscure message:
//!
//! - an integer outside the 64-bit range (below `-2**63` or above `2**64 - 1`) would become a
//!   float in serde_json (`18446744073709551617` read back as `1.8446744073709552e19`):
//!   refused, naming where it is;
//! - a value nested deeper than [`MAX_DEPTH`] levels is refused with a message that says so.
//!   serde_json stops at 128 levels to protect the stack, and a value is stored inside a
//!   document (a registry result three levels down), so a lower limit keeps every file this
//!   library writes readable again;
//! - a `\uXXXX` escape of a lone UTF-16 surrogate (a Python `str` can hold one, UTF-8
//!   cannot) is refused, naming where it is.
//!
//! The text must be valid JSON (check it after serde_json parsed it, or use it on what a JSON
//! writer such as Python's `json.dumps` wrote): an integer is a token of digits only, a float
//! has a `.` or an exponent. One pass over the bytes, no allocation unless something is
//! refused. Used by the CLI (`register --result`) and the Python package, and by the core before
//! it rewrites a stored file ([`check_rewrite`]).

use std::fmt::Write as _;

use serde_json::Value;

use super::MAX_VALUE_NESTING as MAX_DEPTH;

/// Why a JSON text is refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// An integer serde_json cannot keep exactly: its text and where it is (`["a"][0]`).
    BigInteger {
        /// The integer as written.
        text: String,
        /// Its location below the value, as subscripts (empty for the value itself).
        path: String,
    },
    /// Arrays and objects nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// A `\uXXXX` escape of a UTF-16 surrogate that is not half of a pair (a Python `str` or
    /// a JS string can hold one, UTF-8 cannot): the escape and where it is (its string's path; for a
    /// dict key, the path ends with that key).
    LoneSurrogate {
        /// The escape as written (`\udc00`).
        escape: String,
        /// Its location below the value, as subscripts (empty for the value itself).
        path: String,
    },
}

/// One open list or dict: where its current key is in the text, or its current index.
#[derive(Clone, Copy)]
enum Frame {
    Object { key: (usize, usize) },
    Array { index: usize },
}

/// Checks `text` (valid JSON, or JSON with lone surrogate escapes); see the module docs.
///
/// # Errors
/// The first [`Refusal`] found.
pub(crate) fn check(text: &[u8]) -> Result<(), Refusal> {
    let mut stack: Vec<Frame> = Vec::new();
    // In a dict, whether the next string is a key.
    let mut expect_key = false;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'"' => {
                let start = i + 1;
                i = start;
                let mut lone = None;
                while i < text.len() && text[i] != b'"' {
                    if text[i] != b'\\' {
                        // Plain characters up to the next quote or backslash, in one search.
                        i = memchr::memchr2(b'"', b'\\', &text[i..])
                            .map_or(text.len(), |at| i + at);
                        continue;
                    }
                    if text.get(i + 1) == Some(&b'u') {
                        match surrogate_escape(text, i) {
                            Escape::Pair => i += 12,
                            Escape::Lone => {
                                lone.get_or_insert(i);
                                i += 6;
                            }
                            Escape::Other => i += 6,
                        }
                        continue;
                    }
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
                if expect_key {
                    if let Some(Frame::Object { key }) = stack.last_mut() {
                        *key = (start, i.min(text.len()));
                    }
                    expect_key = false;
                }
                if let Some(at) = lone {
                    return Err(Refusal::LoneSurrogate {
                        escape: String::from_utf8_lossy(&text[at..(at + 6).min(text.len())])
                            .into_owned(),
                        path: path(text, &stack),
                    });
                }
            }
            open @ (b'[' | b'{') => {
                if stack.len() == MAX_DEPTH {
                    return Err(Refusal::TooDeep);
                }
                stack.push(if open == b'{' {
                    Frame::Object { key: (0, 0) }
                } else {
                    Frame::Array { index: 0 }
                });
                expect_key = open == b'{';
            }
            b']' | b'}' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array { index }) => *index += 1,
                Some(Frame::Object { .. }) => expect_key = true,
                None => {}
            },
            b'-' | b'0'..=b'9' => {
                let start = i;
                let mut integer = true;
                while i < text.len()
                    && matches!(text[i], b'-' | b'+' | b'0'..=b'9' | b'.' | b'e' | b'E')
                {
                    integer &= matches!(text[i], b'-' | b'0'..=b'9');
                    i += 1;
                }
                let token = &text[start..i];
                if integer && !fits_64_bits(token) {
                    return Err(Refusal::BigInteger {
                        text: String::from_utf8_lossy(token).into_owned(),
                        path: path(text, &stack),
                    });
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// What a `\uXXXX` escape at `at` is, as UTF-16.
enum Escape {
    /// A high surrogate followed by a low one: 12 bytes.
    Pair,
    /// A surrogate that is not half of a pair: 6 bytes.
    Lone,
    /// Any other code point (or a malformed escape, left for the parser): 6 bytes.
    Other,
}

fn surrogate_escape(text: &[u8], at: usize) -> Escape {
    let unit = |at: usize| -> Option<u16> {
        if text.get(at) != Some(&b'\\') || text.get(at + 1) != Some(&b'u') {
            return None;
        }
        let hex = std::str::from_utf8(text.get(at + 2..at + 6)?).ok()?;
        u16::from_str_radix(hex, 16).ok()
    };
    match unit(at) {
        Some(0xD800..=0xDBFF) if matches!(unit(at + 6), Some(0xDC00..=0xDFFF)) => Escape::Pair,
        Some(0xD800..=0xDFFF) => Escape::Lone,
        _ => Escape::Other,
    }
}

/// `check` as a core [`Error`](crate::Error): [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput)
/// naming `what` (e.g. "the result in --result", "`result`") and where the refused integer or
/// lone surrogate is (context `field`), or the nesting limit ([`too_deep`]). The one wording
/// of these refusals, for the CLI and the Python package alike.
///
/// # Errors
/// As described.
pub fn check_input(what: &str, text: &[u8]) -> crate::Result<()> {
    let refused = |found: String, why: &str, path: String| {
        if path.is_empty() {
            return crate::Error::invalid_input(format!("{what} {found}, {why}"));
        }
        crate::Error::invalid_input(format!("{what} {found} at `{path}`, {why}"))
            .with_context("field", path)
    };
    match check(text) {
        Ok(()) => Ok(()),
        Err(Refusal::BigInteger { text, path }) => {
            let found = if path.is_empty() {
                format!("is the integer `{text}`")
            } else {
                format!("holds the integer `{text}`")
            };
            Err(refused(found, RANGE, path))
        }
        Err(Refusal::LoneSurrogate { escape, path }) => Err(refused(
            format!("holds the lone surrogate `{escape}`"),
            "half of a UTF-16 pair, which UTF-8 (and a JSON file) cannot hold",
            path,
        )),
        Err(Refusal::TooDeep) => Err(too_deep(what)),
    }
}

/// Refuses to rewrite the stored file `key` when its current bytes `old` hold an integer
/// outside the 64-bit range: serde_json reads it as the nearest float, so writing the document
/// back would silently change it (`123456789012345678901234567890` in an unknown field would
/// come back as `1.2345678901234568e29` after a `pause`). Reads are not refused:
/// only a change that would write the file again.
///
/// # Errors
/// [`ErrorKind::CorruptState`](crate::ErrorKind::CorruptState) naming the integer and where it
/// is (context `field`); the caller writes nothing.
pub(crate) fn check_rewrite(key: &crate::Key, old: &[u8]) -> crate::Result<()> {
    let Err(Refusal::BigInteger { text, path }) = check(old) else {
        return Ok(());
    };
    let at = if path.is_empty() {
        String::new()
    } else {
        format!(" at `{path}`")
    };
    Err(crate::Error::corrupt(
        key,
        format!(
            "it holds the integer `{text}`{at}, {RANGE}: a change would rewrite it as a float, \
             so the file was left as it is; write that value as a float or a string"
        ),
    )
    .with_context("field", path))
}

/// Why an integer is refused: the range kept exactly (an `i64` or a `u64` in serde_json).
const RANGE: &str = "outside the 64-bit range (-2**63 to 2**64 - 1) that is kept exactly";

/// The refusal of a JavaScript value that JSON text cannot hold exactly, in the argument
/// `what`: the one rule and wording of the JS packages' strict stringify, which stops at such a
/// value (`JSON.stringify` would change it silently) and reports `[key, kind, shown]`.
///
/// - `key`: the member holding it (`""` for the value itself; an array index as text);
/// - `kind`: its `typeof` (`number`, `function`, `symbol`, `bigint`), `Map` or `Set`, or
///   `deep` for an object or array nested deeper than [`MAX_DEPTH`] levels;
/// - `shown`: for a number, `String(value)` (`NaN`, `-Infinity`, `9007199254740992`): a
///   non-finite number has no JSON form, a finite one is refused beyond 2^53 - 1 and below
///   1e21, where its JSON text names another integer than the one meant.
///
/// # Errors
/// Always an [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) error: `` `result` is
/// not JSON: member `n` is NaN, which JSON cannot hold ``, or [`too_deep`] for `deep`.
pub fn refuse_js_value(what: &str, key: &str, kind: &str, shown: &str) -> crate::Error {
    if kind == "deep" {
        return too_deep(&format!("`{what}`"));
    }
    let at = if key.is_empty() {
        "the value".to_owned()
    } else {
        format!("member `{key}`")
    };
    let detail = match kind {
        "number" if shown.parse::<f64>().is_ok_and(f64::is_finite) => format!(
            "{at} is {shown}, beyond 2^53 - 1 (Number.MAX_SAFE_INTEGER), where a JS number no \
             longer holds the integer meant exactly"
        ),
        "number" => format!("{at} is {shown}, which JSON cannot hold"),
        "Map" | "Set" => {
            format!("{at} is a {kind}, which JSON cannot hold (use a plain object or array)")
        }
        other => format!("{at} is a {other}, which JSON cannot hold"),
    };
    crate::Error::invalid_input(format!("`{what}` is not JSON: {detail}"))
}

/// The error for a value nested deeper than [`MAX_DEPTH`] levels: `invalid_input` naming
/// `what` and the limit, with the context pair `max_depth`.
pub fn too_deep(what: &str) -> crate::Error {
    crate::Error::invalid_input(format!(
        "{what} is nested deeper than the limit of {MAX_DEPTH} levels of lists and dicts \
         (arrays and objects)"
    ))
    .with_context("max_depth", MAX_DEPTH.to_string())
}

/// How deeply `value` nests, without recursion (a value built in code may be deeper than the
/// stack would allow).
fn nesting_depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(value, 0_usize)];
    while let Some((value, above)) = pending.pop() {
        let depth = above + 1;
        match value {
            Value::Array(items) => pending.extend(items.iter().map(|child| (child, depth))),
            Value::Object(map) => pending.extend(map.values().map(|child| (child, depth))),
            _ => continue,
        }
        deepest = deepest.max(depth);
    }
    deepest
}

/// `Ok` when `value` (built in code, not read from a text) nests at most [`MAX_DEPTH`] levels.
///
/// # Errors
/// [`too_deep`] naming `what`.
pub(crate) fn check_nesting(what: &str, value: &Value) -> crate::Result<()> {
    if nesting_depth(value) > MAX_DEPTH {
        return Err(too_deep(what));
    }
    Ok(())
}

/// Whether an integer token is one serde_json keeps exactly (an `i64` or a `u64`).
fn fits_64_bits(token: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(token) else {
        return false;
    };
    text.parse::<i64>().is_ok() || text.parse::<u64>().is_ok()
}

/// The subscripts leading to the current position: `["key"][3]` (keys as JSON writes them).
fn path(text: &[u8], stack: &[Frame]) -> String {
    let mut out = String::new();
    for frame in stack {
        match *frame {
            Frame::Object { key: (start, end) } => {
                let _ = write!(out, "[\"{}\"]", String::from_utf8_lossy(&text[start..end]));
            }
            Frame::Array { index } => {
                let _ = write!(out, "[{index}]");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::json::parse_input;

    fn big(text: &str, path: &str) -> Result<(), Refusal> {
        Err(Refusal::BigInteger {
            text: text.to_owned(),
            path: path.to_owned(),
        })
    }

    #[test]
    fn integers_in_range_pass_and_others_are_located() {
        assert_eq!(
            check(b"[18446744073709551615, -9223372036854775808, 1.5e300]"),
            Ok(())
        );
        assert_eq!(
            check(b"18446744073709551616"),
            big("18446744073709551616", "")
        );
        assert_eq!(
            check(br#"{"a": 1, "b\"c": [0, {"d": -9223372036854775809}]}"#),
            big("-9223372036854775809", r#"["b\"c"][1]["d"]"#)
        );
        assert_eq!(
            check(br#"{"x": "18446744073709551616", "y": [1, 2, 18446744073709551617]}"#),
            big("18446744073709551617", r#"["y"][2]"#)
        );
    }

    #[test]
    fn floats_and_numbers_in_strings_are_not_integers() {
        assert_eq!(
            check(br#"[1e+30, 1.8446744073709552e+19, "99999999999999999999999"]"#),
            Ok(())
        );
        assert_eq!(check(br#"{"99999999999999999999999": 1}"#), Ok(()));
    }

    #[test]
    fn input_with_a_lone_surrogate_is_refused_naming_the_member() {
        let err = parse_input("session", br#"{"goal": "\ud800x"}"#).unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::InvalidInput);
        assert!(
            err.message()
                .starts_with(r#"`session` holds the lone surrogate `\ud800` at `["goal"]`"#),
            "{err}"
        );
        assert_eq!(err.context_value("field"), Some(r#"["goal"]"#));
        let err = parse_input("session", b"{").unwrap_err();
        assert!(
            err.message().starts_with("`session` is not JSON: "),
            "{err}"
        );
        assert_eq!(
            parse_input("v", br#"{"a": "\ud83d\ude00"}"#).unwrap()["a"],
            "\u{1f600}"
        );
    }

    #[test]
    fn lone_surrogate_escapes_are_located_and_pairs_pass() {
        assert_eq!(check(br#"["\ud83d\ude00", "\u00e9\n\\u0041"]"#), Ok(()));
        let lone = |escape: &str, path: &str| {
            Err(Refusal::LoneSurrogate {
                escape: escape.to_owned(),
                path: path.to_owned(),
            })
        };
        assert_eq!(check(br#""\udc00""#), lone(r"\udc00", ""));
        assert_eq!(
            check(br#"{"a": [1, {"k": "x\ud800y"}]}"#),
            lone(r"\ud800", r#"["a"][1]["k"]"#)
        );
        assert_eq!(
            check(br#"{"ok": 1, "\udfff": 2}"#),
            lone(r"\udfff", r#"["\udfff"]"#)
        );
    }

    #[test]
    fn nesting_is_limited() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert_eq!(check(ok.as_bytes()), Ok(()));
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(check(deep.as_bytes()), Err(Refusal::TooDeep));
        let brackets_in_strings = format!("[\"{}\"]", "[".repeat(500));
        assert_eq!(check(brackets_in_strings.as_bytes()), Ok(()));
    }

    #[test]
    fn js_refusals_name_the_member_and_why() {
        let message = |key, kind, shown| refuse_js_value("result", key, kind, shown).to_string();
        assert_eq!(
            message("n", "number", "NaN"),
            "`result` is not JSON: member `n` is NaN, which JSON cannot hold"
        );
        assert!(
            message("n", "number", "-Infinity").ends_with("is -Infinity, which JSON cannot hold")
        );
        assert!(
            message("1", "number", "18446744073709552000")
                .contains("member `1` is 18446744073709552000, beyond 2^53 - 1")
        );
        assert!(message("", "Map", "").contains("the value is a Map, which JSON cannot hold (use"));
        assert!(message("f", "function", "").contains("member `f` is a function, which JSON"));
        let deep = refuse_js_value("result", "x", "deep", "");
        assert!(
            deep.message()
                .starts_with("`result` is nested deeper than the limit of 100 levels")
        );
        assert_eq!(deep.context_value("max_depth"), Some("100"));
        assert_eq!(deep.kind(), crate::ErrorKind::InvalidInput);
    }

    fn nested(levels: usize) -> Value {
        (0..levels).fold(json!(1), |inner, _| json!([inner]))
    }

    #[test]
    fn depth_counts_containers() {
        assert_eq!(nesting_depth(&json!(1)), 0);
        assert_eq!(nesting_depth(&json!([])), 1);
        assert_eq!(nesting_depth(&json!({"a": [1, {"b": {}}], "c": 2})), 4);
        assert_eq!(nesting_depth(&nested(1000)), 1000);
    }

    #[test]
    fn the_limit_is_inclusive() {
        assert!(check_nesting("result", &nested(MAX_DEPTH)).is_ok());
        let e = check_nesting("result", &nested(MAX_DEPTH + 1)).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::InvalidInput);
        assert!(e.message().contains("limit of 100 levels"), "{e}");
    }
}
