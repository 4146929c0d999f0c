//! The core's store conformance suite as JS: `runStoreConformance(store, scratch?)` runs every
//! case of [`session_state::conformance`] on a store (a host object of your own, typically)
//! and returns the report as a plain object; `storeConformanceCases()` names the cases.
#![allow(non_snake_case)]

use session_state::{Key, conformance};
use wasm_bindgen::prelude::*;

use crate::convert::js_methods;
use crate::stores::AnyStore;

js_methods!(fn {
    #[doc = " Runs the store conformance suite on `store` below `scratch` (default `conformance`)."]
    fn runStoreConformance as run_store_conformance(store: AnyStore = "Store"; scratch:
        Option<String> = "string | null") -> "ConformanceReport" => Ok(conformance::run_all(
            &store, &Key::new(scratch.unwrap_or_else(|| "conformance".into()))?));
    #[doc = " Every case name of the suite, in the order `runStoreConformance` runs them."]
    fn storeConformanceCases as store_conformance_cases() -> "string[]" =>
        Ok(conformance::CASES.iter().map(|c| c.name).collect::<Vec<_>>());
});
