//! # session-state-wasm
//!
//! The browser (and Node) package of session-state, built with wasm-bindgen (`npm run build`
//! in `bindings-wasm/`): the Node package's classes and method names, plain JS objects in and
//! out, every failure a JS `Error` with a stable `code` ([`errors`]). Each class is a handle
//! over a core type, one file per core module; [`convert`] reads arguments and writes results,
//! [`stores::AnyStore`] is the `store` argument, [`clock::JsClock`] reads `Date.now()`.
//! On a native target the crate compiles (clippy, unit tests) without JS calls.

pub mod clock;
pub mod conformance;
pub mod convert;
pub mod errors;
pub mod fork;
pub mod orchestrator;
pub mod ownership;
pub mod registry;
pub mod retention;
pub mod schema;
pub mod stores;
pub mod team;

use wasm_bindgen::prelude::wasm_bindgen;

/// The documents and results the package takes and returns, and the `ErrorCode` union:
/// generated from the core's serde types by `scripts/gen-types`, the same declarations as the
/// Node package's.
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = include_str!("../../bindings-shared/types.d.ts");

/// The package's own argument types, store interfaces and `SessionStateError`.
#[wasm_bindgen(typescript_custom_section)]
const TS_BINDING: &'static str = include_str!("types.d.ts");

pub use clock::JsClock;
pub use errors::{JsResult, Thrown, to_js_error};
pub use stores::{AnyStore, HostStore, LocalStorageStore, MemoryStore};
