//! The ownership operations of `OrchestratorStore` (the core's [`session_state::ownership`]):
//! claim, renew, release and heartbeat of the current session's lease, the lease, the live
//! sessions, and the writer every write of a claimed session is fenced by. The browser has
//! no process to report: `process` is what the caller gives, empty by default.
#![allow(non_snake_case)]

use session_state::ownership::{Claim, Heartbeat, Release, Writer};
use wasm_bindgen::prelude::*;

use crate::convert::{Json, js_methods, to_js};
use crate::errors::JsResult;
use crate::orchestrator::OrchestratorStore;

js_methods!(OrchestratorStore {
    #[doc = " Claims the session's lease (or `scopes`) for `owner`, else `conflict` naming the owner."]
    fn claim as claim(&self, claim: Json<Claim> = "Claim") -> "ClaimOutcome";
    #[doc = " Renews the lease `owner` holds for `leaseSeconds` (default: its length)."]
    fn renew as renew(&self, owner: String = "string"; leaseSeconds: Option<Json<u64>> =
        "number") -> "Lease" => self.inner.renew(&owner, leaseSeconds.map(|s| s.0));
    #[doc = " Releases the current session's lease (or, with `scopes`, those scopes)."]
    fn release as release(&self, release: Json<Release> = "Release") -> "ReleaseOutcome";
    #[doc = " Refreshes the caller's live entry and renews the lease when the caller owns it."]
    fn heartbeat as heartbeat(&self, heartbeat: Json<Heartbeat> = "Heartbeat")
        -> "HeartbeatOutcome";
    #[doc = " The current session's lease, or `null` when nobody ever claimed it."]
    fn lease as lease(&self) -> "Lease | null";
    #[doc = " Every live-session entry with its age; stale and unreadable ones say why."]
    fn liveSessions as live_sessions(&self) -> "LiveStatus[]";
    #[doc = " Writes from now on as `writer` (`null`: nobody); a claimed session takes its owner's."]
    fn setWriter as set_writer(&self, writer: Option<Json<Writer>> = "Writer | null") => {
        self.inner.set_writer(writer.map(|w| w.0));
        Ok(())
    };
});

#[wasm_bindgen]
impl OrchestratorStore {
    /// Whom this handle writes as (`null`: nobody).
    #[wasm_bindgen(getter, unchecked_return_type = "Writer | null")]
    pub fn writer(&self) -> JsResult<JsValue> {
        to_js(&self.inner.writer())
    }
}
