//! `MemoryStore`: the core's in-memory store as a JS class.

use session_state::Store;
use wasm_bindgen::prelude::*;

use super::store_class_methods;

/// A store in memory (lost when the page closes). Every class that takes a store shares this
/// one's data, so what a class saved can be read back here (and the other way round).
#[wasm_bindgen]
#[derive(Clone, Debug, Default)]
pub struct MemoryStore {
    inner: session_state::MemoryStore,
}

#[wasm_bindgen]
impl MemoryStore {
    /// An empty store.
    #[wasm_bindgen(constructor)]
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// Number of keys held.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.inner.len()
    }
}

store_class_methods!(MemoryStore);
