//! # session-state
//!
//! The pure core of session-state: it saves, loads, resumes, archives and lists the state an
//! AI-agent orchestrator needs to come back exactly as it was after a crash or a restart.
//! It does no I/O of its own: every byte goes through a [`Store`], every instant comes from a
//! [`Clock`]. It covers three kinds of state:
//!
//! 1. [`orchestrator`]: the orchestrator session (schema "1.0" of the Session State skill);
//! 2. [`registry`]: the sub-agent registry (MoAI-ADK's `SessionManager` files);
//! 3. [`team`]: the team agent spawn state (the `agent-teams` crate's `SessionState`).
//!
//! Errors are one [`Error`] type whose [`ErrorKind`] has a stable snake_case code.
//!
//! ## Quick start
//! ```
//! use session_state::{Key, MemoryStore, Store};
//!
//! let store = MemoryStore::new();
//! let key = Key::new(".claude/orchestrator-session.json")?;
//! store.write(&key, b"{}")?;
//! assert_eq!(store.read(&key)?.as_deref(), Some(&b"{}"[..]));
//! // An unsafe id never becomes a path:
//! assert_eq!(Key::segment("session id", "../x").unwrap_err().code(), "invalid_key");
//! # Ok::<(), session_state::Error>(())
//! ```
#![deny(missing_docs)]

pub mod argument_fields;
pub mod conformance;
mod corrupt_copy;
mod error;
pub mod json;
mod key;
mod key_listing;
mod limit;
pub use key_listing::keys_under;
pub mod js_json;
pub mod js_message;
pub mod orchestrator;
pub mod ownership;
pub mod py_message;
pub mod registry;
pub mod requests;
pub mod retention;
mod store;
pub mod team;
pub mod text_item_store;
mod time;

pub use error::{Error, ErrorKind, Hint, Result};
pub use json::MAX_VALUE_NESTING;
pub use key::Key;
pub use limit::DEFAULT_MAX_DOCUMENT_BYTES;
pub use store::{Leftover, MemoryStore, Store, UpdateFn, read_apply_write};
pub use time::{Clock, FixedClock, Timestamp, format_rfc3339, from_epoch_millis};
