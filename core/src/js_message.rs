//! The message a JavaScript caller sees for a core error, the same in both JS packages (Node
//! and wasm): the core message and its hint in the JS API's terms.

use serde_json::{Map, Value};

use crate::{Error, Hint};

/// The message of `err` for a JS caller: [`Error::message`], then what the hint asks of the
/// caller in the JS API's terms (`{ replace: true }`, `doctor({ fix: true })`,
/// `{ takeover: true }`), if anything.
pub fn js_message(err: &Error) -> String {
    let advice = match err.hint() {
        Some(Hint::RaiseLimit { option }) => format!(
            ": pass a larger `{{ {}: ... }}` option where the store that read it is made",
            camel_case(option)
        ),
        Some(hint) => advice(hint).to_owned(),
        None => String::new(),
    };
    format!("{}{advice}", err.message())
}

/// `max_document_bytes` as the JS options spell it: `maxDocumentBytes` (the one option a limit
/// names; another is shown as the core names it).
fn camel_case(snake: &'static str) -> &'static str {
    match snake {
        "max_document_bytes" => "maxDocumentBytes",
        other => other,
    }
}

/// The members, besides `message` ([`js_message`]), of the JS `Error` both JS packages throw
/// for `err`: `code` (the kind code), `hint` (the hint's code) when there is one, `context`
/// (the context pairs as an object, empty when there are none) and `salvaged` when present.
pub fn js_error_members(err: &Error) -> Map<String, Value> {
    let mut members = Map::new();
    members.insert("code".into(), err.code().into());
    if let Some(hint) = err.hint() {
        members.insert("hint".into(), hint.code().into());
    }
    let context = err.context().iter();
    let context = context.map(|(name, value)| ((*name).to_owned(), value.as_str().into()));
    members.insert("context".into(), Value::Object(context.collect()));
    if let Some(salvaged) = err.salvaged() {
        members.insert("salvaged".into(), salvaged.clone());
    }
    members
}

/// What a JS caller may do for `hint`, appended to the core message.
fn advice(hint: Hint) -> &'static str {
    match hint {
        Hint::Replace => {
            ": pass the option `{ replace: true }` to overwrite it: `archive(doc, { replace: \
             true })` (also for a session already in a final status), `complete({ replace: \
             true })` or `abort({ replace: true })`"
        }
        Hint::Repair => ": `doctor({ fix: true })` or `recover()` repairs it, keeping a copy",
        Hint::Takeover => {
            ": pass the option `{ takeover: true }` to take it over: `claim({ owner, takeover: \
             true })`"
        }
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn the_hint_in_the_js_api_terms() {
        let err = Error::new(ErrorKind::AlreadyExists, "it exists").with_hint(Hint::Replace);
        let message = js_message(&err);
        assert!(message.starts_with("it exists: pass the option `{ replace: true }`"));
        let repair = Error::new(ErrorKind::CorruptState, "bad").with_hint(Hint::Repair);
        assert!(js_message(&repair).contains("`doctor({ fix: true })`"));
        let limit = Error::new(ErrorKind::InvalidInput, "too big").with_hint(Hint::RaiseLimit {
            option: "max_document_bytes",
        });
        assert!(
            js_message(&limit).starts_with("too big: pass a larger `{ maxDocumentBytes: ... }`"),
            "{}",
            js_message(&limit)
        );
        let takeover = Error::new(ErrorKind::Conflict, "owned").with_hint(Hint::Takeover);
        assert!(js_message(&takeover).contains("`{ takeover: true }`"));
        assert_eq!(js_message(&Error::invalid_input("no hint")), "no hint");
        let members = js_error_members(&repair.with_context("key", "a.json"));
        assert_eq!(
            Value::Object(members),
            serde_json::json!({"code": "corrupt_state", "hint": "repair", "context": {"key": "a.json"}})
        );
        let plain = js_error_members(&Error::invalid_input("x"));
        assert_eq!(
            Value::Object(plain),
            serde_json::json!({"code": "invalid_input", "context": {}})
        );
    }
}
