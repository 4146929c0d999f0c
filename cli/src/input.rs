//! Every input the command reads (a result file, stdin, a session document) is bounded: at
//! most [`max_bytes`] bytes are read, so `/dev/zero` or an endless pipe is refused with
//! `invalid_input` instead of filling memory.
//!
//! The limit is `--max-bytes` (global), else the environment variable
//! `SESSION_STATE_MAX_BYTES`, else [`DEFAULT_MAX_BYTES`] (16 MiB, the core's document limit).
//! A value is a number of bytes, optionally with a binary suffix: `64MiB`, `512K`, `2G`.

use std::io::Read;
use std::path::Path;

use session_state::{Error, Hint, Result};

use crate::context::Context;

/// The limit when neither the flag nor the environment variable sets one: 16 MiB.
pub const DEFAULT_MAX_BYTES: usize = session_state::DEFAULT_MAX_DOCUMENT_BYTES;

/// The environment variable that sets the limit when `--max-bytes` is not given.
pub const ENV: &str = "SESSION_STATE_MAX_BYTES";

/// How a user raises the limit, for error messages.
pub const RAISE: &str = "raise the limit with `--max-bytes` or `SESSION_STATE_MAX_BYTES`";

/// Where an input comes from.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// The standard input.
    Stdin,
    /// A file (or a device, or a named pipe).
    File(&'a Path),
}

impl<'a> Source<'a> {
    /// `-` is stdin, anything else a file.
    pub fn from_arg(path: &'a Path) -> Self {
        if path.as_os_str() == "-" {
            Source::Stdin
        } else {
            Source::File(path)
        }
    }

    /// How the source is named in messages: `stdin` or `` `path` ``.
    pub fn name(&self) -> String {
        match self {
            Source::Stdin => "stdin".to_owned(),
            Source::File(path) => format!("`{}`", path.display()),
        }
    }
}

/// The limit in force for this run.
pub fn max_bytes(ctx: &Context) -> usize {
    ctx.max_bytes
}

/// Reads all of `source`, refusing more than `limit` bytes.
///
/// # Errors
/// `invalid_input` naming the source when it cannot be opened or read, or when it holds more
/// than `limit` bytes (the message says how to raise the limit).
pub fn read_bounded(source: Source<'_>, limit: usize) -> Result<Vec<u8>> {
    let name = source.name();
    match source {
        Source::Stdin => read_limited(std::io::stdin().lock(), &name, limit),
        Source::File(path) => {
            let file = std::fs::File::open(path)
                .map_err(|e| Error::invalid_input(format!("cannot read {name}: {e}")))?;
            read_limited(file, &name, limit)
        }
    }
}

/// Reads all of `reader` (named `name` in messages, e.g. `` `result.json` `` or `stdin`),
/// refusing more than `limit` bytes; never reads more than `limit + 1`.
///
/// # Errors
/// `invalid_input` when reading fails or there are more than `limit` bytes.
pub fn read_limited(reader: impl Read, name: &str, limit: usize) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    reader
        .take(cap)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::invalid_input(format!("cannot read {name}: {e}")))?;
    if bytes.len() > limit {
        return Err(too_large(name, limit));
    }
    Ok(bytes)
}

/// The `invalid_input` error of an input over `limit` bytes, with the hint to raise the limit
/// (worded by `exit::report` as [`RAISE`]).
pub fn too_large(name: &str, limit: usize) -> Error {
    Error::invalid_input(format!("{name} is more than the limit of {limit} bytes"))
        .with_context("limit", limit.to_string())
        .with_hint(Hint::RaiseLimit {
            option: "max_document_bytes",
        })
}

/// The limit from the flag's value, else from [`ENV`], else [`DEFAULT_MAX_BYTES`].
///
/// # Errors
/// `invalid_input` naming the flag or the variable when its value is not a size.
pub fn resolve(flag: Option<&str>) -> Result<usize> {
    if let Some(text) = flag {
        return parse_size(text).map_err(|why| {
            Error::invalid_input(format!("invalid value `{text}` for `--max-bytes`: {why}"))
        });
    }
    match std::env::var(ENV) {
        Ok(text) if !text.trim().is_empty() => parse_size(&text).map_err(|why| {
            Error::invalid_input(format!("invalid value `{text}` in `{ENV}`: {why}"))
        }),
        Ok(_) | Err(std::env::VarError::NotPresent) => Ok(DEFAULT_MAX_BYTES),
        Err(std::env::VarError::NotUnicode(_)) => Err(Error::invalid_input(format!(
            "invalid value in `{ENV}`: it is not UTF-8"
        ))),
    }
}

/// `1048576`, `1024K`, `1KiB`, `16M`, `16MiB`, `2G`, `2GiB` (binary units, case-insensitive).
fn parse_size(text: &str) -> std::result::Result<usize, String> {
    const EXPECTED: &str = "expected a number of bytes such as `67108864` or `64MiB`";
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(EXPECTED.to_owned()),
    };
    let number: usize = number.parse().map_err(|_| EXPECTED.to_owned())?;
    if number == 0 {
        return Err("the limit must be at least 1 byte".to_owned());
    }
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| "the number is too large".to_owned())
}

#[cfg(test)]
mod tests {
    use super::{Hint, RAISE, parse_size, read_limited};

    #[test]
    fn sizes_take_binary_suffixes() {
        assert_eq!(parse_size("1048576"), Ok(1_048_576));
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("512k"), Ok(512 << 10));
        assert_eq!(parse_size(" 2 G "), Ok(2 << 30));
        assert!(parse_size("0").is_err());
        assert!(parse_size("-1").is_err());
        assert!(parse_size("12 parsecs").is_err());
        assert!(parse_size("").is_err());
    }

    #[test]
    fn reading_stops_one_byte_past_the_limit() {
        let endless = std::io::repeat(b'0');
        let err = read_limited(endless, "stdin", 10).unwrap_err();
        assert_eq!(err.code(), "invalid_input");
        // `exit::report` words the hint as RAISE, which names the flag.
        assert!(matches!(err.hint(), Some(Hint::RaiseLimit { .. })), "{err}");
        assert!(RAISE.contains("`--max-bytes`"));
        assert_eq!(err.context_value("limit"), Some("10"));
        assert_eq!(read_limited(&b"0123456789"[..], "x", 10).unwrap().len(), 10);
    }
}
