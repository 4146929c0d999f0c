//! JSON across a JavaScript boundary: the strict `JSON.stringify` both JS packages (Node and
//! wasm) run on every document, value and options argument, and the reading of its outcome.

use serde_json::Value;

use crate::{Result, json};

/// The JavaScript source of `(value, maxDepth) => outcome`: `JSON.stringify` with a replacer
/// that stops at what JSON cannot hold exactly (a non-finite number, an integer beyond 2^53 - 1
/// below 1e21, a function, symbol, `BigInt`, `Map` or `Set`) and at an object or array nested
/// deeper than `maxDepth` levels (a scalar is depth 0, `[]` depth 1, as
/// [`MAX_VALUE_NESTING`](crate::MAX_VALUE_NESTING) counts) before descending further, so even
/// 100,000 levels never overflow the stack. It returns `{ text }` (`text` is `undefined` for a
/// value without JSON text) or `{ refused: [key, kind, shown] }`; [`read_strict_json`] reads
/// either. The replacer sees the value about to be written (after `toJSON`), with its holder as
/// `this`, so the check covers exactly what is written.
pub const STRICT_JSON_JS: &str = r"(function (value, maxDepth) {
  const depths = new WeakMap();
  try {
    return { text: JSON.stringify(value, function (key, v) {
      const t = typeof v;
      const kind = v instanceof Map || v instanceof Set ? v.constructor.name : t;
      if (t === 'number' ? !Number.isFinite(v) || (Math.abs(v) > Number.MAX_SAFE_INTEGER && Math.abs(v) < 1e21)
        : t === 'function' || t === 'symbol' || t === 'bigint' || kind !== t) throw { refused: [key, kind, t === 'number' ? String(v) : ''] };
      if (t === 'object' && v !== null) {
        const depth = (depths.get(this) ?? 0) + 1;
        if (depth > maxDepth) throw { refused: [key, 'deep', ''] };
        depths.set(v, depth);
      }
      return v;
    }) };
  } catch (e) {
    if (e !== null && typeof e === 'object' && Array.isArray(e.refused)) return e;
    throw e;
  }
})";

/// The JavaScript source of `(value, maxDepth) => text | undefined`: the `JSON.stringify` text
/// of `value` when it holds nothing but `null`, booleans, strings, numbers JSON holds exactly,
/// arrays and plain objects (prototype `Object.prototype` or `null`) without `toJSON`, nested at
/// most `maxDepth` levels (counted as [`STRICT_JSON_JS`] counts), else `undefined`. For such a
/// value the text is the one [`STRICT_JSON_JS`] writes, made by `JSON.stringify` without a
/// replacer, which engines run several times faster; anything else goes to [`STRICT_JSON_JS`]
/// for its reading or refusal. A getter runs once for the check and once for the text. The
/// expression gives a new function: evaluate it once and call that function (a function made
/// anew for each call runs unoptimised).
pub const PLAIN_JSON_JS: &str = r"(function () {
  const isArray = Array.isArray, protoOf = Object.getPrototypeOf, keys = Object.keys
  const MAX = Number.MAX_SAFE_INTEGER
  function plain(v, depth, maxDepth) {
    const t = typeof v
    if (t === 'string' || t === 'boolean') return true
    if (t === 'number') return (v <= MAX && v >= -MAX) || ((v >= 1e21 || v <= -1e21) && v - v === 0)
    if (t !== 'object') return t === 'undefined'
    if (v === null) return true
    if (depth > maxDepth || typeof v.toJSON === 'function') return false
    if (isArray(v)) {
      for (let i = 0; i < v.length; i++) if (!plain(v[i], depth + 1, maxDepth)) return false
      return true
    }
    const proto = protoOf(v)
    if (proto !== Object.prototype && proto !== null) return false
    const names = keys(v)
    for (let i = 0; i < names.length; i++) if (!plain(v[names[i]], depth + 1, maxDepth)) return false
    return true
  }
  return (value, maxDepth) => (plain(value, 1, maxDepth) ? JSON.stringify(value) : undefined)
})()";

/// What [`STRICT_JSON_JS`] returned for the argument.
#[derive(Clone, Copy, Debug)]
pub enum StrictJson<'a> {
    /// `{ text }`: the JSON text.
    Text(&'a str),
    /// `{ refused: [key, kind, shown] }`: the member `key` (empty for the value itself) is a
    /// `kind` JSON cannot hold (`shown` is a number's text), or `deep`.
    Refused {
        /// The member's key.
        key: &'a str,
        /// `number`, `function`, `Map`, ..., or `deep`.
        kind: &'a str,
        /// A number's text, else empty.
        shown: &'a str,
    },
    /// `{ text: undefined }`: the value has no JSON text; `type_name` says what it is.
    NoText {
        /// The JS type of the value, in words (`undefined`, `function`, ...).
        type_name: &'a str,
    },
}

impl<'a> StrictJson<'a> {
    /// The outcome from the members of the object [`STRICT_JSON_JS`] returned: its `text` (when
    /// a string) and its `refused` array (empty when absent), for a value of the JS type
    /// `type_name`.
    pub fn from_members(text: Option<&'a str>, refused: &'a [String], type_name: &'a str) -> Self {
        match (text, refused) {
            (Some(text), _) => StrictJson::Text(text),
            (None, [key, kind, shown]) => StrictJson::Refused { key, kind, shown },
            _ => StrictJson::NoText { type_name },
        }
    }
}

/// The JSON value of the argument `what` from the outcome of [`STRICT_JSON_JS`].
///
/// # Errors
/// `invalid_input` naming `what` (and the member) for a refusal (a member JSON cannot hold,
/// such as NaN or a `Map`; an integer beyond 2^53 - 1; nesting deeper than
/// [`MAX_VALUE_NESTING`](crate::MAX_VALUE_NESTING)) or a value without JSON text; for the
/// text, `` `{what}` holds the lone surrogate `\ud800` at `["goal"]` `` (context `field`) or
/// `` `{what}` is not JSON: {serde_json's reason} ``.
pub fn read_strict_json(what: &str, outcome: StrictJson<'_>) -> Result<Value> {
    match outcome {
        StrictJson::Text(text) => json::parse_input(what, text.as_bytes()),
        StrictJson::Refused { key, kind, shown } => {
            Err(json::refuse_js_value(what, key, kind, shown))
        }
        StrictJson::NoText { type_name } => Err(crate::Error::invalid_input(format!(
            "`{what}` is not JSON: got {type_name}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn outcomes_read_as_values_or_invalid_input_naming_the_argument() {
        let value = read_strict_json("doc", StrictJson::Text(r#"{"a":[1]}"#)).unwrap();
        assert_eq!(value, serde_json::json!({"a": [1]}));
        let refused = StrictJson::Refused {
            key: "n",
            kind: "number",
            shown: "NaN",
        };
        let err = read_strict_json("doc", refused).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        assert_eq!(
            err.message(),
            "`doc` is not JSON: member `n` is NaN, which JSON cannot hold"
        );
        let deep = StrictJson::Refused {
            key: "x",
            kind: "deep",
            shown: "",
        };
        assert_eq!(
            read_strict_json("doc", deep)
                .unwrap_err()
                .context_value("max_depth"),
            Some("100")
        );
        let err = read_strict_json(
            "doc",
            StrictJson::NoText {
                type_name: "function",
            },
        )
        .unwrap_err();
        assert_eq!(err.message(), "`doc` is not JSON: got function");
        let parts = ["n".to_owned(), "number".to_owned(), "NaN".to_owned()];
        assert!(matches!(
            StrictJson::from_members(None, &parts, "object"),
            StrictJson::Refused {
                key: "n",
                kind: "number",
                shown: "NaN"
            }
        ));
        assert!(matches!(
            StrictJson::from_members(Some("1"), &[], "number"),
            StrictJson::Text("1")
        ));
        assert!(matches!(
            StrictJson::from_members(None, &[], "undefined"),
            StrictJson::NoText {
                type_name: "undefined"
            }
        ));
    }
}
