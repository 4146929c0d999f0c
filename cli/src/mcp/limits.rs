//! How large a tool call may be: its arguments, as JSON, are bounded by the CLI's input limit
//! (`--max-bytes` / `SESSION_STATE_MAX_BYTES`, default 16 MiB), the limit of every other input.
//!
//! The SDK's transport reads one message per line and drops a line longer than its own bound
//! without an answer; that bound is set to [`line_limit`], above the arguments' limit, so that
//! arguments over the limit reach the server and are answered with a tool error.

use serde_json::{Map, Value};
use session_state::{Error, Result};

/// The longest message line read: twice the arguments' limit plus 1 MiB for the envelope (a
/// string's JSON escapes may make its line longer than its value).
pub fn line_limit(max_bytes: usize) -> usize {
    max_bytes.saturating_mul(2).saturating_add(1 << 20)
}

/// `invalid_input` when `args` of tool `tool` are over `limit` bytes as JSON.
pub fn check(tool: &str, args: &Map<String, Value>, limit: usize) -> Result<()> {
    let mut counter = Counter(0);
    // Counting never fails: the writer only adds up lengths.
    let _ = serde_json::to_writer(&mut counter, args);
    if counter.0 > limit {
        return Err(Error::invalid_input(format!(
            "the arguments of `{tool}` are {} bytes, more than the limit of {limit}; {}",
            counter.0,
            crate::input::RAISE
        ))
        .with_context("tool", tool)
        .with_context("limit", limit.to_string()));
    }
    Ok(())
}

struct Counter(usize);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    fn object(value: Value) -> serde_json::Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => unreachable!("an object"),
        }
    }

    #[test]
    fn arguments_over_the_limit_are_invalid_input() {
        super::check("new", &object(json!({"goal": "x"})), 100).unwrap();
        let err = super::check("new", &object(json!({"goal": "x".repeat(100)})), 100).unwrap_err();
        assert_eq!(err.code(), "invalid_input");
        assert!(
            err.message().starts_with(
                "the arguments of `new` are 111 bytes, more than the limit of 100; raise"
            ),
            "{err}"
        );
        assert!(super::line_limit(100) > 200);
        assert_eq!(super::line_limit(usize::MAX), usize::MAX);
    }
}
