//! `OrchestratorStore.fork` and `historyTree`: the core's fork of a session into a new current
//! one that records where it came from, and the tree of sessions by origin.

use session_state::orchestrator::ForkOptions;
use wasm_bindgen::prelude::*;

use crate::convert::{options_arg, to_js};
use crate::errors::JsResult;
use crate::orchestrator::OrchestratorStore;

#[wasm_bindgen]
impl OrchestratorStore {
    /// Forks the current session (or the archived one `sessionId`) into a new current
    /// session with `forked_from` set; the original is archived as it is, never changed.
    /// Returns the new session.
    #[wasm_bindgen(unchecked_return_type = "OrchestratorSession")]
    pub fn fork(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ForkOptions")] options: &JsValue,
    ) -> JsResult<JsValue> {
        let options: ForkOptions = options_arg(options, "options")?;
        to_js(&self.inner.fork(&options)?)
    }

    /// Every session with the one it was forked from, in tree order.
    #[wasm_bindgen(js_name = historyTree, unchecked_return_type = "HistoryTree")]
    pub fn history_tree(&self) -> JsResult<JsValue> {
        to_js(&self.inner.history_tree()?)
    }
}
