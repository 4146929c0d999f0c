//! A string read and used in place, without the `String` a `Cow<str>` or `String` read
//! allocates for every value.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserializer;
use serde::de::{Error, Unexpected, Visitor};

/// Reads a string as `String` does (a string, or bytes that are UTF-8; any other value is a
/// wrong type, "expected a string") and gives `parse` the text; an `Err` of `parse` becomes a
/// custom error with its message.
pub(crate) fn read_str_with<'de, D, T, E>(
    deserializer: D,
    parse: fn(&str) -> Result<T, E>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    E: fmt::Display,
{
    deserializer.deserialize_string(StrVisitor {
        parse,
        value: PhantomData,
    })
}

struct StrVisitor<T, E> {
    parse: fn(&str) -> Result<T, E>,
    value: PhantomData<T>,
}

impl<T, E: fmt::Display> Visitor<'_> for StrVisitor<T, E> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a string")
    }

    fn visit_str<F: Error>(self, text: &str) -> Result<T, F> {
        (self.parse)(text).map_err(F::custom)
    }

    fn visit_bytes<F: Error>(self, bytes: &[u8]) -> Result<T, F> {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.visit_str(text),
            Err(_) => Err(F::invalid_value(Unexpected::Bytes(bytes), &self)),
        }
    }
}
