//! The core's store conformance suite for JavaScript: `runStoreConformance(store)` runs every
//! case of `session_state::conformance` on a store (a host object of your own, typically) and
//! returns the report as a plain object.

use napi_derive::napi;
use session_state::Key;
use session_state::conformance::{self, ConformanceReport};

use crate::any_store::AnyStore;

js_functions! {
    #[doc = " Runs the store conformance suite on `store` below the folder key `scratch` (default"]
    #[doc = " `\"conformance\"`, each case in a sub-folder it clears). Returns `{cases: [{name, passed,"]
    #[doc = " message}], passed, failed}`: a store breaking the contract gives failed cases, no throw."]
    fn run_store_conformance(store: AnyStore, scratch: Option<Key>) -> ConformanceReport
        = "store: Store, scratch?: string", "ConformanceReport"
        => Ok(conformance::run_all(&store, &scratch.map_or_else(|| Key::new("conformance"), Ok)?));
    #[doc = " Every case name of the suite, in the order `runStoreConformance` runs them."]
    fn store_conformance_cases() -> Vec<&'static str> = "", "Array<string>"
        => Ok(conformance::CASES.iter().map(|c| c.name).collect());
}
