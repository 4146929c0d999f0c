//! # session-state-node
//!
//! The Node.js package `session-state`: napi-rs bindings of the session-state core. A binding
//! converts types and maps errors, nothing more: each module says what it holds. `cargo test`
//! runs the Rust tests without Node (napi's `dyn-symbols`); `npm run build` builds the addon.

// Helpers take `&Env` like napi-rs's own API (`Object::new(&env)`).
#![allow(clippy::trivially_copy_pass_by_ref)]

pub mod any_store;
pub mod args;
pub mod conformance;
pub mod documents;
pub mod errors;
pub mod host_store;
pub mod orchestrator;
pub mod redis_store;
pub mod registry;
pub mod stores;
pub mod team;

pub use any_store::{AnyStore, StoreArg};
pub use errors::{Out, ToJs, out, to_js_error};
