//! # session-state-wasm
//!
//! The browser (and Node) package of session-state, built with wasm-bindgen: the same classes
//! and method names as the Node package, plain JS objects in and out, and every failure a JS
//! `Error` with a stable `code` (see [`errors`]).
//!
//! This crate holds no logic of its own: each exported class is a thin handle over a core type:
//! [`orchestrator::OrchestratorStore`] (with the free functions `resumeSummary`, `renderResume`,
//! `salvage` and `jsonSchema`), [`registry::AgentRegistry`], [`team::TeamStore`] (with
//! `sessionFromConfig`, `toSpawnConfig`, `parseBackendType`) and [`conformance`]
//! (`runStoreConformance`), one file per core module.
//! The pieces every wrapper uses:
//! - [`stores::AnyStore::from_js`] resolves the `store` argument (a [`stores::MemoryStore`], a
//!   [`stores::LocalStorageStore`] or any JS object with `read`/`write`/`delete`/`list`) into a
//!   core [`session_state::Store`];
//! - [`clock::JsClock`] is the core's clock over `Date.now()`;
//! - [`errors::IntoJsResult::js`] turns a core result into a JS result (`.js()?`);
//! - [`convert`] turns core data into plain JS objects and JS arguments into core types.
//!
//! The package is built by `npm run build` in `bindings-wasm/` (see its README); on a native
//! target the crate compiles (for clippy and host unit tests) but its JS calls are unavailable.

pub mod clock;
pub mod conformance;
pub mod convert;
pub mod errors;
pub mod orchestrator;
pub mod registry;
pub mod stores;
pub mod team;

use wasm_bindgen::prelude::wasm_bindgen;

/// The documents and results the package takes and returns, and the `ErrorCode` union:
/// generated from the core's serde types by `scripts/gen-types`, the same declarations as the
/// Node package's.
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = include_str!("../../bindings-shared/types.d.ts");

pub use clock::JsClock;
pub use errors::{IntoJsResult, JsResult, to_js_error};
pub use stores::{AnyStore, HostStore, LocalStorageStore, MemoryStore};
