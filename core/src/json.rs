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

/// How deep a value given by a caller may nest (objects and arrays inside each other; a
/// scalar is depth 0, `[]` depth 1). The documents that hold such a value add a few levels,
/// and the files must stay under the 128 levels the JSON parser reads back.
pub const MAX_VALUE_NESTING: usize = 100;

/// How deeply `value` nests, without recursion (a value built in code may be deeper than the
/// stack would allow).
pub(crate) fn nesting_depth(value: &Value) -> usize {
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

/// `Ok` when `value` nests at most [`MAX_VALUE_NESTING`] levels.
///
/// # Errors
/// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming `what` and the limit.
pub(crate) fn check_nesting(what: &str, value: &Value) -> crate::Result<()> {
    let depth = nesting_depth(value);
    if depth > MAX_VALUE_NESTING {
        return Err(crate::Error::invalid_input(format!(
            "{what} is nested {depth} levels deep, deeper than the limit of {MAX_VALUE_NESTING} levels"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

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
        assert!(check_nesting("result", &nested(MAX_VALUE_NESTING)).is_ok());
        let e = check_nesting("result", &nested(MAX_VALUE_NESTING + 1)).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::InvalidInput);
        assert!(e.message().contains("limit of 100 levels"), "{e}");
    }
}
