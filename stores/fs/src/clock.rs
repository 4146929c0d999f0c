//! The system clock for native hosts.

use chrono::{DateTime, Utc};
use session_state::Clock;

/// The operating system's clock (`Utc::now()`), for native programs.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}
