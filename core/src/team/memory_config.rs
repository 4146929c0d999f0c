//! The `memoryConfig` object of a team session document and the string maps (`env`,
//! `metadata`) shared by the document and the spawn configuration (SPEC section 3).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A string-to-string map that keeps insertion (file) order: `env` and `metadata`.
pub type StringMap = IndexMap<String, String>;

/// The keys of a `memoryConfig` object.
pub const MEMORY_CONFIG_KEYS: &[&str] = &["max_turns", "budget_chars"];

/// Memory limits for cross-turn context injection; snake_case keys inside `memoryConfig`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MemoryConfig {
    /// Most turns kept (oldest evicted first). Default 5.
    pub max_turns: u64,
    /// Most characters in the formatted context. Default 4000.
    pub budget_chars: u64,
    /// Unknown keys, kept as read.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Default for MemoryConfig {
    fn default() -> Self {
        MemoryConfig {
            max_turns: 5,
            budget_chars: 4000,
            extra: Map::new(),
        }
    }
}
