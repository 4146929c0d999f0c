//! Small JSON helpers shared by the document modules.

use serde_json::Value;

/// "an array", "a string", ... for error messages about a value of the wrong type.
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
