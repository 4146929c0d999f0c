//! # session-state-node
//!
//! The Node.js package `session-state`: napi-rs bindings of the session-state core. A binding
//! converts types and maps errors, nothing more:
//!
//! - [`errors`]: core errors onto JS `Error`s with `code` (host store exceptions re-thrown
//!   unchanged), `ERROR_CODES`, and [`Out`], the return type of every method;
//! - [`args`]: argument checks that give `invalid_input` instead of napi's conversion errors;
//! - [`documents`]: documents in and out as plain objects (through JSON text);
//! - [`stores`]: the `FileStore` and `MemoryStore` classes;
//! - [`host_store`]: a [`session_state::Store`] over any JS object with `read`, `write`,
//!   `delete` and `list` methods;
//! - [`any_store`]: [`AnyStore`], the store argument of every class constructor;
//! - [`orchestrator`], [`registry`], [`team`]: the classes `OrchestratorStore`,
//!   `AgentRegistry`, `TeamStore` and their free functions, one file per core module;
//! - [`conformance`]: `runStoreConformance`, the core's store suite on any store.
//!
//! Build the addon with `npm run build` (see README.md); `cargo test` runs the Rust unit
//! tests without Node (napi's `dyn-symbols`).

// Helpers take `&Env` like napi-rs's own API (`Object::new(&env)`).
#![allow(clippy::trivially_copy_pass_by_ref)]

pub mod any_store;
pub mod args;
pub mod conformance;
pub mod documents;
pub mod errors;
pub mod host_store;
pub mod orchestrator;
pub mod registry;
pub mod stores;
pub mod team;

pub use any_store::{AnyStore, StoreArg};
pub use errors::{Out, ToJs, out, to_js_error};
