//! The read limit every stored document is held to: a file over it is refused with
//! [`ErrorKind::InvalidInput`] naming the limit and the option
//! that raises it, before it is parsed.

use crate::error::{Error, ErrorKind, Hint, Result};
use crate::key::Key;

/// Default largest document read: 16 MiB.
pub const DEFAULT_MAX_DOCUMENT_BYTES: usize = 16 * 1024 * 1024;

/// `Ok` when `bytes` (stored under `key`) are at most `limit` bytes long; otherwise
/// [`ErrorKind::InvalidInput`] with the contexts `key` and
/// `limit` and the hint [`Hint::RaiseLimit`] (`max_document_bytes`).
///
/// # Errors
/// As above.
pub fn check_size(key: &Key, bytes: &[u8], limit: usize) -> Result<()> {
    if bytes.len() <= limit {
        return Ok(());
    }
    Err(Error::invalid_input(format!(
        "`{key}` is {} bytes, more than the limit of {limit} bytes",
        bytes.len(),
    ))
    .with_context("key", key.as_str())
    .with_context("limit", limit.to_string())
    .with_hint(Hint::RaiseLimit {
        option: "max_document_bytes",
    }))
}

/// Whether `err` is the error of [`check_size`]: a document larger than the read limit.
pub fn is_over_limit(err: &Error) -> bool {
    err.kind() == ErrorKind::InvalidInput && err.context_value("limit").is_some()
}
