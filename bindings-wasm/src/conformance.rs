//! The core's store conformance suite as JS: `runStoreConformance(store, scratch?)` runs every
//! case of [`session_state::conformance`] on a store (a host object of your own, typically)
//! and returns the report as a plain object; `storeConformanceCases()` names the cases.

use session_state::conformance;
use wasm_bindgen::prelude::*;

use crate::convert::{StoreArg, Text, opt_text, to_js};
use crate::errors::JsResult;
use crate::stores::store_arg;

/// Runs the store conformance suite on `store` below the folder key `scratch` (default
/// `"conformance"`; each case clears the keys of its own sub-folder). Returns
/// `{cases: [{name, passed, message}], passed, failed}`; a store that breaks the contract
/// gives failed cases, not an exception. Throws `invalid_input` for a value that is not a
/// store, `invalid_key` for an unsafe `scratch`.
#[wasm_bindgen(js_name = runStoreConformance, unchecked_return_type = "ConformanceReport")]
pub fn run_store_conformance(store: &StoreArg, scratch: Option<Text>) -> JsResult<JsValue> {
    let store = store_arg(store)?;
    let scratch = opt_text(scratch, "scratch")?.unwrap_or_else(|| "conformance".into());
    to_js(&conformance::run_all(
        &store,
        &session_state::Key::new(scratch)?,
    ))
}

/// Every case name of the suite, in the order `runStoreConformance` runs them.
#[wasm_bindgen(js_name = storeConformanceCases)]
pub fn store_conformance_cases() -> Vec<String> {
    conformance::CASES
        .iter()
        .map(|c| c.name.to_owned())
        .collect()
}
