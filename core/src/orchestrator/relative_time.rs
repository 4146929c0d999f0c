//! Instants relative to now, in English, as the resume summary shows them.

use chrono::{DateTime, Utc};

/// How long ago `then` was at `now`, in English: `just now` (under a minute, or in the
/// future), `1 minute ago` / `N minutes ago` (under an hour), `1 hour ago` / `N hours ago`
/// (under a day), `1 day ago` / `N days ago`. Units are whole, rounded down.
pub fn relative_time(then: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let seconds = (now - then).num_seconds();
    let (n, unit) = match seconds {
        s if s < 60 => return "just now".to_owned(),
        s if s < 3600 => (s / 60, "minute"),
        s if s < 86_400 => (s / 3600, "hour"),
        s => (s / 86_400, "day"),
    };
    let plural = if n == 1 { "" } else { "s" };
    format!("{n} {unit}{plural} ago")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Timestamp;

    fn at(s: &str) -> DateTime<Utc> {
        Timestamp::parse(s).unwrap().utc()
    }

    #[test]
    fn relative_time_units_and_singulars() {
        let now = at("2025-12-27T12:30:00Z");
        let cases = [
            ("2025-12-27T12:30:30Z", "just now"),
            ("2025-12-27T12:29:30Z", "just now"),
            ("2025-12-27T12:29:00Z", "1 minute ago"),
            ("2025-12-27T11:31:00Z", "59 minutes ago"),
            ("2025-12-27T11:30:00Z", "1 hour ago"),
            ("2025-12-27T10:30:00Z", "2 hours ago"),
            ("2025-12-26T12:30:00Z", "1 day ago"),
            ("2025-12-17T12:30:00Z", "10 days ago"),
        ];
        for (then, want) in cases {
            assert_eq!(relative_time(at(then), now), want, "{then}");
        }
    }
}
