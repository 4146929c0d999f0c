//! The ownership operations of `OrchestratorStore` (the core's [`session_state::ownership`]):
//! claim, renew, release and heartbeat of the current session's lease, the lease, the live
//! sessions, and the writer every write of a claimed session is fenced by. The browser has
//! no process to report: `process` is what the caller gives, empty by default.
#![allow(non_snake_case)]

use session_state::json;
use session_state::ownership::{Claim, Heartbeat, Release, Writer};
use wasm_bindgen::prelude::*;

use crate::convert::{Text, from_js, is_absent, opt_value, to_js};
use crate::errors::JsResult;
use crate::orchestrator::OrchestratorStore;

#[wasm_bindgen]
impl OrchestratorStore {
    /// Claims the current session's lease (or, with `scopes`, those scopes) for `owner`; this
    /// handle then writes as the owner. Throws `conflict` naming the owner (hint `takeover`
    /// once that lease has expired).
    #[wasm_bindgen(unchecked_return_type = "ClaimOutcome")]
    pub fn claim(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Claim")] claim: &JsValue,
    ) -> JsResult<JsValue> {
        to_js(&self.inner.claim(&from_js::<Claim>(claim, "claim")?)?)
    }

    /// Renews the lease `owner` holds for `leaseSeconds` (default: its length).
    #[wasm_bindgen(unchecked_return_type = "Lease")]
    pub fn renew(
        &self,
        owner: &Text,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] leaseSeconds: &JsValue,
    ) -> JsResult<JsValue> {
        let seconds = opt_value(leaseSeconds, "leaseSeconds")?
            .map(|v| json::from_value(v, "leaseSeconds"))
            .transpose()?;
        to_js(&self.inner.renew(&owner.get("owner")?, seconds)?)
    }

    /// Releases the current session's lease (or, with `scopes`, those scopes).
    #[wasm_bindgen(unchecked_return_type = "ReleaseOutcome")]
    pub fn release(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Release")] release: &JsValue,
    ) -> JsResult<JsValue> {
        to_js(
            &self
                .inner
                .release(&from_js::<Release>(release, "release")?)?,
        )
    }

    /// Refreshes the caller's live entry and renews the lease when the caller owns it.
    #[wasm_bindgen(unchecked_return_type = "HeartbeatOutcome")]
    pub fn heartbeat(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Heartbeat")] heartbeat: &JsValue,
    ) -> JsResult<JsValue> {
        to_js(
            &self
                .inner
                .heartbeat(&from_js::<Heartbeat>(heartbeat, "heartbeat")?)?,
        )
    }

    /// The current session's lease, or `null` when nobody ever claimed it.
    #[wasm_bindgen(unchecked_return_type = "Lease | null")]
    pub fn lease(&self) -> JsResult<JsValue> {
        to_js(&self.inner.lease()?)
    }

    /// Every live-session entry with its age; stale and unreadable ones say why.
    #[wasm_bindgen(js_name = liveSessions, unchecked_return_type = "LiveStatus[]")]
    pub fn live_sessions(&self) -> JsResult<JsValue> {
        to_js(&self.inner.live_sessions()?)
    }

    /// Writes from now on as `writer` (`null`: as nobody); a claimed session takes writes
    /// from its owner only, others are `conflict`.
    #[wasm_bindgen(js_name = setWriter)]
    pub fn set_writer(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Writer | null")] writer: &JsValue,
    ) -> JsResult<()> {
        let writer = if is_absent(writer) {
            None
        } else {
            Some(from_js::<Writer>(writer, "writer")?)
        };
        self.inner.set_writer(writer);
        Ok(())
    }

    /// Whom this handle writes as (`null`: nobody).
    #[wasm_bindgen(getter, unchecked_return_type = "Writer | null")]
    pub fn writer(&self) -> JsResult<JsValue> {
        to_js(&self.inner.writer())
    }
}
