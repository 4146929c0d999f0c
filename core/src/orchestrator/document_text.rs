//! The JSON text a front end that builds its values from text (`JSON.parse`) makes a stored
//! document from: the stored bytes themselves when a save wrote them so.

use super::parse::{ParseOptions, parse_document};
use super::salvage::salvage;
use crate::Key;
use crate::error::{ErrorKind, Result};

/// The bytes stored under `key`, parsed as [`parse_document`] parses them, and the JSON text of
/// the document when it is not the bytes themselves. `None`: the bytes are exactly the text a
/// save writes for the document they hold, so their values are the document's. `Some(text)`:
/// build from `text` (a file written otherwise: defaults filled in, naive times read, fields in
/// their order). A front end may build from the bytes while this runs on another thread, and
/// keep what it built when this gives `None`.
///
/// # Errors
/// As [`parse_document`]; a [`ErrorKind::CorruptState`] error carries what [`salvage`] recovers
/// of the bytes.
pub fn document_text(key: &Key, bytes: &[u8], options: &ParseOptions) -> Result<Option<String>> {
    let doc = parse_salvaging(key, bytes, options)?;
    if doc.is_written_as(bytes) {
        return Ok(None);
    }
    // Serialising these types cannot fail: every map key is a string.
    Ok(Some(serde_json::to_string(&doc).unwrap_or_default()))
}

/// [`parse_document`], a [`ErrorKind::CorruptState`] error carrying what [`salvage`] recovers.
pub(crate) fn parse_salvaging(
    key: &Key,
    bytes: &[u8],
    options: &ParseOptions,
) -> Result<super::OrchestratorSession> {
    parse_document(key, bytes, options).map_err(|e| {
        if e.kind() == ErrorKind::CorruptState {
            e.with_salvaged(salvage(bytes).document)
        } else {
            e
        }
    })
}
