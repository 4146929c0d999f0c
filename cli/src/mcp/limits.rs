//! How large a tool call's arguments may be.

use serde_json::Value;
use session_state::{Error, Result};

/// The most bytes a call's arguments may take as JSON.
pub const MAX_ARGUMENT_BYTES: usize = 1024 * 1024;

/// `invalid_input` when `args` of tool `tool` are over [`MAX_ARGUMENT_BYTES`] as JSON.
pub fn check(tool: &str, args: &serde_json::Map<String, Value>) -> Result<()> {
    let mut counter = Counter(0);
    // Counting never fails: the writer only adds up lengths.
    let _ = serde_json::to_writer(&mut counter, args);
    if counter.0 > MAX_ARGUMENT_BYTES {
        return Err(Error::invalid_input(format!(
            "the arguments of `{tool}` are {} bytes, more than the limit of {MAX_ARGUMENT_BYTES}",
            counter.0
        ))
        .with_context("limit", MAX_ARGUMENT_BYTES.to_string()));
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
    use serde_json::json;

    #[test]
    fn arguments_over_the_limit_are_invalid_input() {
        let Value::Object(small) = json!({"goal": "x"}) else {
            unreachable!()
        };
        super::check("new", &small).unwrap();
        let Value::Object(big) = json!({"goal": "x".repeat(super::MAX_ARGUMENT_BYTES)}) else {
            unreachable!()
        };
        let err = super::check("new", &big).unwrap_err();
        assert_eq!(err.code(), "invalid_input");
        assert!(
            err.message().starts_with("the arguments of `new` are "),
            "{err}"
        );
    }

    use serde_json::Value;
}
