//! Time from the JS clock.

use chrono::{DateTime, Utc};
use session_state::Clock;

/// The core's [`Clock`] over the host's `Date.now()` (milliseconds since the Unix epoch).
///
/// `Utc::now()` would trap in `wasm32-unknown-unknown`; this is the clock every wrapper hands
/// the core. Only meaningful in a JS host (on a native target `Date.now()` is not available).
#[derive(Clone, Copy, Debug, Default)]
pub struct JsClock;

impl Clock for JsClock {
    fn now(&self) -> DateTime<Utc> {
        millis_to_utc(js_sys::Date::now())
    }
}

/// The UTC instant `millis` milliseconds after the Unix epoch (fractions of a millisecond are
/// dropped; a value outside chrono's range gives the epoch, which `Date.now()` never returns).
pub fn millis_to_utc(millis: f64) -> DateTime<Utc> {
    // `Date.now()` is an integral number of ms well inside i64 (and chrono's) range.
    #[allow(clippy::cast_possible_truncation)]
    let whole = millis.trunc() as i64;
    DateTime::from_timestamp_millis(whole).unwrap_or_default()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn millis_map_to_utc_instants() {
        let t = millis_to_utc(1_764_438_960_123.0);
        assert_eq!(session_state::format_rfc3339(t), "2025-11-29T17:56:00.123Z");
        assert_eq!(millis_to_utc(f64::NAN), DateTime::<Utc>::default());
    }
}
