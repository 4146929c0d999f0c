//! # session-state-node
//!
//! The Node.js package `session-state`: napi-rs bindings of the session-state core. This
//! crate holds the pieces every class shares:
//!
//! - [`errors`]: the one mapping of core errors onto JS `Error`s with `code` (and re-throwing
//!   host store exceptions unchanged), `ERROR_CODES` and the `ErrorCode` union;
//! - [`args`]: argument checks that give `invalid_input` instead of napi's conversion errors;
//! - [`documents`]: documents in and out as plain objects (through JSON text);
//! - [`stores`]: the `FileStore` and `MemoryStore` classes;
//! - [`host_store`]: a [`session_state::Store`] over any JS object with `read`, `write`,
//!   `delete` and `list` methods;
//! - [`any_store`]: [`AnyStore`], the store argument of every class constructor;
//! - [`testing`]: `testingStoreCall` and `testingDocumentRoundTrip`, test helpers.
//!
//! Build the addon with `npm run build` (see README.md); `cargo test` runs the Rust unit
//! tests without Node (napi's `dyn-symbols`).

// Helpers take `&Env` like napi-rs's own API (`Object::new(&env)`, `get_value(&env)`).
#![allow(clippy::trivially_copy_pass_by_ref)]

pub mod any_store;
pub mod args;
pub mod documents;
pub mod errors;
pub mod host_store;
pub mod stores;
pub mod testing;

pub use any_store::{AnyStore, StoreArg};
pub use errors::{ToJs, to_js_error};
