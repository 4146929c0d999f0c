//! Time: the host-supplied [`Clock`] and the [`Timestamp`] reading and writing rules.
//!
//! The core never reads the system clock (it must run in wasm and in tests at a fixed
//! instant): every operation that stamps a time takes a [`Clock`]. `session-state-fs` provides
//! a system clock; tests use [`FixedClock`].
//!
//! Reading (SPEC section 1, "Timestamps"): RFC 3339 with `Z` or an offset, and naive ISO 8601
//! (`2026-11-29T17:23:05.694161`, with or without fraction) as the skill's own `save_session`
//! writes. A naive value is taken as UTC unless the caller resolves it with another offset
//! ([`Timestamp::assume_offset`]). Writing: RFC 3339 UTC with `Z` and 0, 3, 6 or 9 fraction
//! digits. Comparisons are between instants, never strings.

use std::fmt;

use chrono::format::{Fixed, Item, Numeric, Pad, Parsed};
use chrono::{
    DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, SecondsFormat, TimeDelta, Utc,
};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};

/// A source of the current instant, supplied by the host.
pub trait Clock {
    /// The current instant in UTC.
    fn now(&self) -> DateTime<Utc>;
}

impl<C: Clock + ?Sized> Clock for &C {
    fn now(&self) -> DateTime<Utc> {
        (**self).now()
    }
}

impl<C: Clock + ?Sized> Clock for Box<C> {
    fn now(&self) -> DateTime<Utc> {
        (**self).now()
    }
}

impl<C: Clock + ?Sized> Clock for std::sync::Arc<C> {
    fn now(&self) -> DateTime<Utc> {
        (**self).now()
    }
}

/// A clock that always answers the same instant (tests, goldens, replay).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedClock(pub DateTime<Utc>);

impl FixedClock {
    /// A clock fixed at the RFC 3339 instant `rfc3339`.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) when it does not parse.
    pub fn at(rfc3339: &str) -> Result<FixedClock> {
        Ok(FixedClock(Timestamp::parse(rfc3339)?.utc()))
    }
}

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        self.0
    }
}

/// An instant read from a document: RFC 3339 (`Z` or offset) or naive ISO 8601.
///
/// Naive values are held as UTC with [`is_naive`](Timestamp::is_naive) set until a parse
/// resolves them with its
/// [`naive_offset`](crate::orchestrator::ParseOptions::naive_offset). Serialises as RFC 3339
/// UTC with `Z`.
/// Equality and order compare instants only.
#[derive(Clone, Copy, Debug)]
pub struct Timestamp {
    utc: DateTime<Utc>,
    naive: bool,
}

/// How far ahead of the clock a document's `updated` may be for a save of it to be stamped
/// just after it rather than at the clock's now (see [`Timestamp::saved_at`]).
pub(crate) const STAMP_AHEAD_WITHIN: TimeDelta = TimeDelta::seconds(1);

impl Timestamp {
    /// Parses `text` by the reading rules above.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming the text when it is
    /// neither RFC 3339 nor naive ISO 8601.
    pub fn parse(text: &str) -> Result<Timestamp> {
        if let Some(utc) = parse_utc_z(text) {
            return Ok(Timestamp { utc, naive: false });
        }
        if let Ok(dt) = DateTime::parse_from_rfc3339(text) {
            return Ok(Timestamp {
                utc: dt.with_timezone(&Utc),
                naive: false,
            });
        }
        for separator in ["T", " "] {
            if let Some(naive) = parse_naive(text, separator) {
                return Ok(Timestamp {
                    utc: naive.and_utc(),
                    naive: true,
                });
            }
        }
        Err(Error::invalid_input(format!(
            "`{}` is not an RFC 3339 or ISO 8601 timestamp",
            text.escape_debug()
        )))
    }

    /// A timestamp at the UTC instant `utc`.
    pub fn from_utc(utc: DateTime<Utc>) -> Timestamp {
        Timestamp { utc, naive: false }
    }

    /// The instant in UTC (a naive value counts as UTC until resolved).
    pub fn utc(&self) -> DateTime<Utc> {
        self.utc
    }

    /// The stamp of a save at `now` of a document read with `updated` = `read`: `now`, or the
    /// nanosecond after `read` when `read` is not before `now` and at most
    /// [`STAMP_AHEAD_WITHIN`] after it (a coarse clock within its tick, or a clock a little
    /// behind another's). So the stamps of
    /// one session's saves never go back to one a document may have been read with (a stale
    /// document's save is then still told from the file). A document read further in the
    /// future (the seed's naive local time east of UTC) is saved at `now`.
    #[must_use]
    pub(crate) fn saved_at(read: Option<Timestamp>, now: DateTime<Utc>) -> Timestamp {
        let utc = match read {
            Some(read) if read.utc >= now && read.utc - now <= STAMP_AHEAD_WITHIN => {
                let next = read.utc.checked_add_signed(TimeDelta::nanoseconds(1));
                next.unwrap_or(read.utc - TimeDelta::nanoseconds(1))
            }
            _ => now,
        };
        Timestamp::from_utc(utc)
    }

    /// Whether the text had no offset and has not been resolved yet.
    pub fn is_naive(&self) -> bool {
        self.naive
    }

    /// Resolves a naive value as local time at `offset`; offset-aware values are unchanged.
    #[must_use]
    pub(crate) fn assume_offset(self, offset: FixedOffset) -> Timestamp {
        if !self.naive {
            return self;
        }
        let local = self.utc.naive_utc();
        Timestamp {
            utc: (local - offset).and_utc(),
            naive: false,
        }
    }

    /// RFC 3339 in UTC with `Z` and 0, 3, 6 or 9 fraction digits.
    pub fn to_rfc3339(&self) -> String {
        format_rfc3339(self.utc)
    }
}

// chrono's strftime specifiers as pre-parsed items (chrono's formatter and parser without its
// run-time pattern parser): `%Y`, `%m`, `%d`, `%H`, `%M`, `%S`, `%.f`.
const YEAR: Item<'static> = Item::Numeric(Numeric::Year, Pad::Zero);
const MONTH: Item<'static> = Item::Numeric(Numeric::Month, Pad::Zero);
const DAY: Item<'static> = Item::Numeric(Numeric::Day, Pad::Zero);
const HOUR: Item<'static> = Item::Numeric(Numeric::Hour, Pad::Zero);
const MINUTE: Item<'static> = Item::Numeric(Numeric::Minute, Pad::Zero);
const SECOND: Item<'static> = Item::Numeric(Numeric::Second, Pad::Zero);
const FRACTION: Item<'static> = Item::Fixed(Fixed::Nanosecond);
const fn lit(text: &'static str) -> Item<'static> {
    Item::Literal(text)
}

/// `text` in the form every save writes, `YYYY-MM-DDTHH:MM:SS[.f]Z` with 1 to 9 fraction
/// digits, read as chrono's RFC 3339 parser reads it, without that parser's generality: `None`
/// for any other text (that parser then reads it), a leap second included.
fn parse_utc_z(text: &str) -> Option<DateTime<Utc>> {
    let bytes = text.as_bytes();
    let (stamp, fraction) = bytes.strip_suffix(b"Z")?.split_at_checked(19)?;
    let number = |digits: &[u8]| {
        digits.iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    let separators = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if separators.iter().any(|&(at, c)| stamp[at] != c) {
        return None;
    }
    let nanosecond = match fraction {
        [] => 0,
        [b'.', digits @ ..] if (1..=9).contains(&digits.len()) => {
            // At most 9 digits: at most 999,999,999, and the power at most 10^8.
            number(digits)? * 10u32.pow(9 - u32::try_from(digits.len()).ok()?)
        }
        _ => return None,
    };
    let second = number(&stamp[17..19])?;
    if second > 59 {
        return None;
    }
    let date = NaiveDate::from_ymd_opt(
        i32::try_from(number(&stamp[0..4])?).ok()?,
        number(&stamp[5..7])?,
        number(&stamp[8..10])?,
    )?;
    let time = NaiveTime::from_hms_nano_opt(
        number(&stamp[11..13])?,
        number(&stamp[14..16])?,
        second,
        nanosecond,
    )?;
    Some(date.and_time(time).and_utc())
}

/// `text` read as `%Y-%m-%d{separator}%H:%M:%S%.f` (`separator` is `T` or a space).
fn parse_naive(text: &str, separator: &'static str) -> Option<NaiveDateTime> {
    let items = [
        YEAR,
        lit("-"),
        MONTH,
        lit("-"),
        DAY,
        lit(separator),
        HOUR,
        lit(":"),
        MINUTE,
        lit(":"),
        SECOND,
        FRACTION,
    ];
    let mut parsed = Parsed::new();
    chrono::format::parse(&mut parsed, text, items.iter()).ok()?;
    parsed.to_naive_datetime_with_offset(0).ok()
}

fn format(utc: DateTime<Utc>, items: &[Item<'static>]) -> String {
    utc.format_with_items(items.iter()).to_string()
}

/// The UTC instant `millis` milliseconds after the Unix epoch, as a JS `Date.now()` gives it
/// (fractions of a millisecond dropped; a value outside chrono's range, or NaN, is the epoch).
pub fn from_epoch_millis(millis: f64) -> DateTime<Utc> {
    // An integral number of ms well inside i64 range; `as` saturates and maps NaN to 0.
    #[allow(clippy::cast_possible_truncation)]
    let whole = millis.trunc() as i64;
    DateTime::from_timestamp_millis(whole).unwrap_or_default()
}

/// `utc` as `%Y%m%dT%H%M%SZ`, the stamp of corrupt copies.
pub fn format_compact_stamp(utc: DateTime<Utc>) -> String {
    let items = [YEAR, MONTH, DAY, lit("T"), HOUR, MINUTE, SECOND, lit("Z")];
    format(utc, &items)
}

/// `utc`'s date as `%Y-%m-%d`.
pub fn format_date(utc: DateTime<Utc>) -> String {
    format(utc, &[YEAR, lit("-"), MONTH, lit("-"), DAY])
}

/// `utc` as `%Y-%m-%dT%H:%M:%S` (no offset, no fraction).
pub fn format_naive_seconds(utc: DateTime<Utc>) -> String {
    let items = [
        YEAR,
        lit("-"),
        MONTH,
        lit("-"),
        DAY,
        lit("T"),
        HOUR,
        lit(":"),
        MINUTE,
        lit(":"),
        SECOND,
    ];
    format(utc, &items)
}

/// Writes `utc` as RFC 3339 UTC with `Z` and 0, 3, 6 or 9 fraction digits.
pub fn format_rfc3339(utc: DateTime<Utc>) -> String {
    utc.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

impl From<DateTime<Utc>> for Timestamp {
    fn from(utc: DateTime<Utc>) -> Self {
        Timestamp::from_utc(utc)
    }
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Self) -> bool {
        self.utc == other.utc
    }
}

impl Eq for Timestamp {}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timestamp {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.utc.cmp(&other.utc)
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_rfc3339())
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_rfc3339())
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::json::read_str_with(deserializer, Timestamp::parse)
    }
}

impl schemars::JsonSchema for Timestamp {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Timestamp".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "RFC 3339 (Z or offset) or naive ISO 8601 on read (naive = UTC unless configured); written as RFC 3339 UTC with Z",
            "examples": ["2025-12-27T10:30:00Z"]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_millis_map_to_utc_instants() {
        let t = from_epoch_millis(1_764_438_960_123.0);
        assert_eq!(format_rfc3339(t), "2025-11-29T17:56:00.123Z");
        assert_eq!(from_epoch_millis(f64::NAN), DateTime::<Utc>::default());
    }

    #[test]
    fn reads_z_offset_and_naive() {
        let z = Timestamp::parse("2025-12-24T07:15:00Z").unwrap();
        let off = Timestamp::parse("2025-12-24T08:15:00+01:00").unwrap();
        assert_eq!(z, off);
        assert!(!off.is_naive());
        let naive = Timestamp::parse("2025-12-22T16:45:10.250000").unwrap();
        assert!(naive.is_naive());
        assert_eq!(naive.to_rfc3339(), "2025-12-22T16:45:10.250Z");
        let plain = Timestamp::parse("2025-12-22T16:45:10").unwrap();
        assert_eq!(plain.to_rfc3339(), "2025-12-22T16:45:10Z");
        assert_eq!(
            Timestamp::parse("2026-03-01T12:34:56.789012345Z")
                .unwrap()
                .to_rfc3339(),
            "2026-03-01T12:34:56.789012345Z"
        );
    }

    #[test]
    fn naive_resolves_with_offset() {
        let naive = Timestamp::parse("2025-12-22T16:45:10").unwrap();
        let resolved = naive.assume_offset(FixedOffset::east_opt(2 * 3600).unwrap());
        assert_eq!(resolved.to_rfc3339(), "2025-12-22T14:45:10Z");
        assert!(!resolved.is_naive());
        assert_eq!(
            resolved.assume_offset(FixedOffset::east_opt(3600).unwrap()),
            resolved
        );
    }

    #[test]
    fn rejects_garbage_with_invalid_input() {
        for bad in ["", "yesterday", "2025-13-01T00:00:00Z", "2025-12-22"] {
            let err = Timestamp::parse(bad).unwrap_err();
            assert_eq!(err.kind(), crate::ErrorKind::InvalidInput, "{bad}");
        }
    }

    #[test]
    fn serde_round_trip_writes_utc_z() {
        let ts: Timestamp = serde_json::from_str("\"2025-12-24T08:15:00+01:00\"").unwrap();
        assert_eq!(
            serde_json::to_string(&ts).unwrap(),
            "\"2025-12-24T07:15:00Z\""
        );
        assert!(serde_json::from_str::<Timestamp>("3").is_err());
    }

    #[test]
    fn stamps_and_dates() {
        let cases = [
            (
                "2026-11-29T17:56:00.123456789Z",
                "20261129T175600Z",
                "2026-11-29",
                "2026-11-29T17:56:00",
            ),
            (
                "0001-01-01T00:00:00Z",
                "00010101T000000Z",
                "0001-01-01",
                "0001-01-01T00:00:00",
            ),
            (
                "2026-02-03T04:05:06Z",
                "20260203T040506Z",
                "2026-02-03",
                "2026-02-03T04:05:06",
            ),
        ];
        for (text, stamp, date, naive) in cases {
            let utc = DateTime::parse_from_rfc3339(text).unwrap().to_utc();
            assert_eq!(format_compact_stamp(utc), stamp);
            assert_eq!(format_date(utc), date);
            assert_eq!(format_naive_seconds(utc), naive);
            assert_eq!(utc.format("%Y%m%dT%H%M%SZ").to_string(), stamp);
            assert_eq!(utc.format("%Y-%m-%dT%H:%M:%S").to_string(), naive);
        }
        for (year, stamp, date) in [
            (12345, "+123450102T030405Z", "+12345-01-02"),
            (-1, "-00010102T030405Z", "-0001-01-02"),
            (-12345, "-123450102T030405Z", "-12345-01-02"),
        ] {
            let far = chrono::NaiveDate::from_ymd_opt(year, 1, 2)
                .unwrap()
                .and_hms_opt(3, 4, 5)
                .unwrap()
                .and_utc();
            assert_eq!(format_compact_stamp(far), stamp);
            assert_eq!(format_date(far), date);
        }
    }

    #[test]
    fn naive_forms_read_and_refused() {
        // (text, RFC 3339 of what it reads as, or None when refused).
        let cases: [(&str, Option<&str>); 12] = [
            (
                "2025-12-22T16:45:10.250000",
                Some("2025-12-22T16:45:10.250Z"),
            ),
            ("2025-12-22 16:45:10", Some("2025-12-22T16:45:10Z")),
            ("2025-1-2T3:4:5", Some("2025-01-02T03:04:05Z")),
            (
                "2025-12-22T16:45:10.1234567891",
                Some("2025-12-22T16:45:10.123456789Z"),
            ),
            ("+12345-01-02T03:04:05", Some("+12345-01-02T03:04:05Z")),
            ("2025-12-22t16:45:10", None),
            ("2025-12-22T16:45:60", Some("2025-12-22T16:45:60Z")),
            ("2025-12-22T16:45", None),
            ("2025-12-22T16:45:10.", None),
            ("2025-12-22T16:45:10Z", Some("2025-12-22T16:45:10Z")),
            (" 2025-12-22T16:45:10", Some("2025-12-22T16:45:10Z")),
            ("2025-02-30T00:00:00", None),
        ];
        for (text, want) in cases {
            let got = Timestamp::parse(text).ok().map(|t| t.to_rfc3339());
            assert_eq!(got.as_deref(), want, "{text}");
            for (sep, pattern) in [("T", "%Y-%m-%dT%H:%M:%S%.f"), (" ", "%Y-%m-%d %H:%M:%S%.f")] {
                let strftime = NaiveDateTime::parse_from_str(text, pattern).ok();
                assert_eq!(parse_naive(text, sep), strftime, "{text} with {pattern}");
            }
        }
    }

    /// The reader of the form every save writes agrees with chrono's RFC 3339 parser.
    #[test]
    fn utc_z_form_reads_as_chrono_reads_it() {
        use proptest::prelude::*;
        let chrono_utc = |text: &str| {
            DateTime::parse_from_rfc3339(text)
                .ok()
                .map(|t| t.with_timezone(&Utc))
        };
        for text in [
            "2025-12-27T10:30:00Z",
            "2025-12-27T10:30:00.5Z",
            "2025-12-27T10:30:00.123456789Z",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999999999Z",
            "2024-02-29T00:00:00Z",
        ] {
            assert!(parse_utc_z(text).is_some(), "{text}");
            assert_eq!(parse_utc_z(text), chrono_utc(text), "{text}");
        }
        for text in [
            "2025-02-29T00:00:00Z",
            "2025-12-27T24:00:00Z",
            "2025-12-27T10:60:00Z",
            "2025-12-27T10:30:60Z",
            "2025-12-27T10:30:00.Z",
            "2025-12-27T10:30:00.1234567891Z",
            "2025-12-27t10:30:00Z",
            "2025-12-27T10:30:00z",
            "2025-12-27 10:30:00Z",
            "2025-12-27T10:30:00+00:00",
            "+2025-12-27T10:30:00Z",
            "2025-12-2710:30:00Z",
            "2025-1-27T10:30:00Z",
            "2025-12-27T10:30:0\u{e9}Z",
            "Z",
            "",
        ] {
            assert_eq!(parse_utc_z(text), None, "{text}");
        }
        let near =
            "[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,11})?[Zz]?";
        let plausible = "(19|20)[0-9]{2}-(0[0-9]|1[0-3])-([0-2][0-9]|3[0-2])T([01][0-9]|2[0-4]):[0-6][0-9]:[0-6][0-9](\\.[0-9]{1,10})?Z";
        let strategy = prop_oneof![near, plausible, "\\PC{0,24}"];
        // The form exactly: what the fast reader must read itself (but a leap second).
        let in_form = |text: &str| {
            let b = text.as_bytes();
            let digits = |at: std::ops::Range<usize>| b[at].iter().all(u8::is_ascii_digit);
            (b.len() == 20 || (22..=30).contains(&b.len()))
                && b.ends_with(b"Z")
                && [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')]
                    .iter()
                    .all(|&(at, c)| b[at] == c)
                && [0..4, 5..7, 8..10, 11..13, 14..16, 17..19]
                    .into_iter()
                    .all(digits)
                && (b.len() == 20 || (b[19] == b'.' && digits(20..b.len() - 1)))
        };
        proptest!(ProptestConfig::with_cases(4096), |(text in strategy)| {
            let fast = parse_utc_z(&text);
            if fast.is_some() {
                prop_assert_eq!(fast, chrono_utc(&text));
            } else if chrono_utc(&text).is_some() && in_form(&text) {
                prop_assert_eq!(&text[17..19], "60", "{} left to chrono", text);
            }
        });
    }

    #[test]
    fn a_save_is_stamped_other_than_the_updated_it_read() {
        let at = |text: &str| Timestamp::parse(text).unwrap();
        let now = at("2026-01-01T00:00:00.5Z").utc();
        let saved = |read: Option<&str>| Timestamp::saved_at(read.map(at), now).to_string();
        assert_eq!(saved(None), "2026-01-01T00:00:00.500Z");
        assert_eq!(
            saved(Some("2025-01-01T00:00:00Z")),
            "2026-01-01T00:00:00.500Z"
        );
        // Within the clock's tick: the next nanosecond, also after a save stamped so (the
        // stamps never go back to one read before). Read far in the future: now.
        assert_eq!(
            saved(Some("2026-01-01T00:00:00.5Z")),
            "2026-01-01T00:00:00.500000001Z"
        );
        assert_eq!(
            saved(Some("2026-01-01T00:00:00.500000001Z")),
            "2026-01-01T00:00:00.500000002Z"
        );
        assert_eq!(
            saved(Some("2026-01-01T00:00:01.5Z")),
            "2026-01-01T00:00:01.500000001Z"
        );
        assert_eq!(
            saved(Some("2026-01-01T00:00:01.500000001Z")),
            "2026-01-01T00:00:00.500Z"
        );
        assert_eq!(
            saved(Some("2030-01-01T00:00:00Z")),
            "2026-01-01T00:00:00.500Z"
        );
        // At the last instant there is: the one before, no panic.
        let last = DateTime::<Utc>::MAX_UTC;
        let stamp = Timestamp::saved_at(Some(Timestamp::from_utc(last)), last);
        assert_eq!(stamp.utc(), last - TimeDelta::nanoseconds(1));
    }

    #[test]
    fn fixed_clock() {
        let c = FixedClock::at("2025-12-27T12:30:00Z").unwrap();
        assert_eq!(format_rfc3339(c.now()), "2025-12-27T12:30:00Z");
    }
}
