//! The read limit every stored document is held to: a file over it is refused with
//! [`ErrorKind::InvalidInput`] naming the limit and the option
//! that raises it, before it is parsed.

use crate::error::{Error, ErrorKind, Hint, Result};
use crate::key::Key;
use crate::store::Store;

/// Default largest document read: 16 MiB.
pub const DEFAULT_MAX_DOCUMENT_BYTES: usize = 16 * 1024 * 1024;

/// `Ok` when `bytes` (stored under `key`) are at most `limit` bytes long; otherwise
/// [`ErrorKind::InvalidInput`] with the contexts `key` and `limit` and the hint
/// [`Hint::RaiseLimit`] (`max_document_bytes`).
pub(crate) fn check_size(key: &Key, bytes: &[u8], limit: usize) -> Result<()> {
    check_named_size(key.as_str(), Some(key), bytes, limit)
}

/// [`check_size`] of the bytes `name` stands for (a stored file's key, or an argument's name),
/// with the context `key` only when they are stored under `key`.
pub(crate) fn check_named_size(
    name: &str,
    key: Option<&Key>,
    bytes: &[u8],
    limit: usize,
) -> Result<()> {
    if bytes.len() <= limit {
        return Ok(());
    }
    let message = format!(
        "`{name}` is {} bytes, more than the limit of {limit} bytes",
        bytes.len(),
    );
    Err(over_limit(message, key, limit))
}

/// The error of a document over the read `limit` (`message` says which and by how much):
/// [`ErrorKind::InvalidInput`] with the contexts `key` (when stored) and `limit` and the hint
/// [`Hint::RaiseLimit`] (`max_document_bytes`).
pub(crate) fn over_limit(message: String, key: Option<&Key>, limit: usize) -> Error {
    let mut err = Error::invalid_input(message);
    if let Some(key) = key {
        err = err.with_context("key", key.as_str());
    }
    err.with_context("limit", limit.to_string())
        .with_hint(Hint::RaiseLimit {
            option: "max_document_bytes",
        })
}

/// Whether `err` is the error of [`check_size`]: a document larger than the read limit.
pub(crate) fn is_over_limit(err: &Error) -> bool {
    err.kind() == ErrorKind::InvalidInput && err.context_value("limit").is_some()
}

/// The read limit of a store's documents, in bytes (the `max_document_bytes` option of the
/// registry and the team store).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReadLimit(pub(crate) usize);

impl Default for ReadLimit {
    fn default() -> Self {
        ReadLimit(DEFAULT_MAX_DOCUMENT_BYTES)
    }
}

impl ReadLimit {
    /// [`check_size`] of `bytes` stored under `key` against this limit.
    pub(crate) fn check(self, key: &Key, bytes: &[u8]) -> Result<()> {
        check_size(key, bytes, self.0)
    }

    /// [`check`](Self::check) of the bytes of `key`, when there are some.
    pub(crate) fn check_some(self, key: &Key, bytes: Option<&[u8]>) -> Result<()> {
        bytes.map_or(Ok(()), |b| self.check(key, b))
    }

    /// Writes `bytes` under `key` in `store` when they are within this limit (a file over it
    /// could not be read back): else the error of [`check`](Self::check), nothing written.
    pub(crate) fn write<S: Store + ?Sized>(self, store: &S, key: &Key, bytes: &[u8]) -> Result<()> {
        self.check(key, bytes)?;
        store.write(key, bytes)
    }

    /// The bytes of `key` in `store`, refused when over this limit.
    pub(crate) fn read<S: Store + ?Sized>(self, store: &S, key: &Key) -> Result<Option<Vec<u8>>> {
        let bytes = store.read(key)?;
        self.check_some(key, bytes.as_deref())?;
        Ok(bytes)
    }
}
