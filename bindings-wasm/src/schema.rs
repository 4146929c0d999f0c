//! `jsonSchema`: the JSON Schema (draft 2020-12) of the schema "1.0" document, the core's
//! `json_schema()` as the committed text without its layout (schemars is not linked into the
//! wasm; tests check the text).

use wasm_bindgen::prelude::*;

use crate::convert::from_json;
use crate::errors::JsResult;

/// The JSON Schema of the schema "1.0" document (a fresh object each call).
#[wasm_bindgen(js_name = jsonSchema, unchecked_return_type = "Record<string, unknown>")]
pub fn json_schema() -> JsResult<JsValue> {
    from_json(SCHEMA_JSON)
}

const PRETTY: &[u8] = include_bytes!("../../tests/vectors/orchestrator/schema.json");
const COMPACT: ([u8; PRETTY.len()], usize) = without_layout(PRETTY);

/// The committed schema text without the whitespace between its tokens: the text
/// `serde_json::to_string` gives of the schema.
pub const SCHEMA_JSON: &str = match std::str::from_utf8(COMPACT.0.split_at(COMPACT.1).0) {
    Ok(text) => text,
    Err(_) => panic!("the committed schema is UTF-8"),
};

/// `json` (N bytes) without the whitespace outside its strings, and the length of that.
const fn without_layout<const N: usize>(json: &[u8]) -> ([u8; N], usize) {
    let (mut out, mut len, mut i) = ([0; N], 0, 0);
    let (mut in_string, mut escaped) = (false, false);
    while i < json.len() {
        let byte = json[i];
        let layout = !in_string && matches!(byte, b' ' | b'\n' | b'\r' | b'\t');
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
            }
        } else if byte == b'"' {
            in_string = true;
        }
        if !layout {
            out[len] = byte;
            len += 1;
        }
        i += 1;
    }
    (out, len)
}
