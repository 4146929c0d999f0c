//! [`DocumentCache`]: the last `agent-sessions.json` a registry handle read or wrote, kept
//! parsed, so that a change does not parse the whole file again when nobody else wrote it.
//!
//! The cache is keyed by the file's exact bytes: an entry is used only when the bytes the store
//! returns now are byte-for-byte the bytes it was made from, so a write by another handle or
//! process (or an edit by hand) is always seen. Comparing the bytes is a `memcmp`; parsing is
//! what it saves (`cargo bench -p session-state --bench registry -- plain` measures a
//! registration).

use std::sync::{Mutex, MutexGuard, PoisonError};

use super::document::SessionsDocument;
use super::writer::Layout;

/// One handle's cache of the sessions document: the bytes and the document they parse to.
#[derive(Debug, Default)]
pub(super) struct DocumentCache {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The file the document was read from or written as. The buffer is kept while `parsed`
    /// is taken.
    bytes: Vec<u8>,
    /// The buffer of the version written before `bytes`, for the next write to reuse: a file of
    /// a megabyte would otherwise cost a fresh allocation, and its page faults, on every write.
    spare: Vec<u8>,
    /// What `bytes` parse to, with their layout when this handle wrote them.
    parsed: Option<(SessionsDocument, Option<Layout>)>,
}

impl DocumentCache {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes the cached document, with the layout of `bytes` when known, out of the cache if
    /// it was made from exactly `bytes` (the cache is then empty until the next put).
    pub(super) fn take_if_same(&self, bytes: &[u8]) -> Option<(SessionsDocument, Option<Layout>)> {
        let mut state = self.state();
        // Taken either way: a stale document (another writer changed the file) is dropped.
        let parsed = state.parsed.take()?;
        (state.bytes == bytes).then_some(parsed)
    }

    /// A copy of the cached document if it was made from exactly `bytes`.
    pub(super) fn clone_if_same(&self, bytes: &[u8]) -> Option<SessionsDocument> {
        let state = self.state();
        match &state.parsed {
            Some((doc, _)) if state.bytes == bytes => Some(doc.clone()),
            _ => None,
        }
    }

    /// Remembers that `bytes` parse to `doc` (what parsing `bytes` gives).
    pub(super) fn put(&self, bytes: Vec<u8>, doc: SessionsDocument) {
        let mut state = self.state();
        state.bytes = bytes;
        state.parsed = Some((doc, None));
    }

    /// Remembers that `doc` was written as `bytes`, laid out as `layout`; the buffer it
    /// replaces becomes the spare one.
    pub(super) fn put_written(
        &self,
        bytes: Vec<u8>,
        doc: SessionsDocument,
        layout: Option<Layout>,
    ) {
        let mut state = self.state();
        state.spare = std::mem::replace(&mut state.bytes, bytes);
        state.parsed = Some((doc, layout));
    }

    /// An empty buffer of at least `capacity` bytes: the spare one when there is one.
    pub(super) fn spare_buffer(&self, capacity: usize) -> Vec<u8> {
        let mut buffer = std::mem::take(&mut self.state().spare);
        buffer.clear();
        buffer.reserve(capacity);
        buffer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str) -> SessionsDocument {
        let mut doc = SessionsDocument::default();
        doc.sessions.insert(name.into(), "id-1".into());
        doc
    }

    #[test]
    fn an_entry_is_used_only_for_the_same_bytes() {
        let cache = DocumentCache::default();
        assert_eq!(cache.take_if_same(b"{}"), None);
        cache.put(b"{\"a\":1}".to_vec(), doc("a"));
        assert_eq!(cache.clone_if_same(b"{\"a\":2}"), None);
        assert_eq!(cache.clone_if_same(b"{\"a\":1}"), Some(doc("a")));
        // A look with other bytes drops the stale entry.
        assert_eq!(cache.take_if_same(b"{\"a\":2}"), None);
        assert_eq!(cache.clone_if_same(b"{\"a\":1}"), None);
        cache.put_written(b"x".to_vec(), doc("b"), Some(Layout::default()));
        assert_eq!(
            cache.take_if_same(b"x"),
            Some((doc("b"), Some(Layout::default())))
        );
        // Taken: empty until the next put.
        assert_eq!(cache.take_if_same(b"x"), None);
        // The buffer `x` replaced is the spare one, then taken.
        let spare = cache.spare_buffer(8);
        assert!(spare.is_empty() && spare.capacity() >= 8);
        cache.put_written(b"y".to_vec(), doc("c"), None);
        assert_eq!(cache.spare_buffer(0).capacity(), 1);
    }
}
