//! Time from the JS clock.

use chrono::{DateTime, Utc};
use session_state::Clock;

/// The core's [`Clock`] over the host's `Date.now()` (`Utc::now()` would trap in
/// `wasm32-unknown-unknown`). Only meaningful in a JS host.
#[derive(Clone, Copy, Debug, Default)]
pub struct JsClock;

impl Clock for JsClock {
    fn now(&self) -> DateTime<Utc> {
        session_state::from_epoch_millis(js_sys::Date::now())
    }
}
