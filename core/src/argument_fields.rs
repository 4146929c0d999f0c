//! Arguments a binding was given as JSON values, read into typed values with the member at
//! fault named in the binding's spelling: as the JSON keys are written (`changes.maxTurns`),
//! or in snake_case, the attribute names of a Python dataclass (`config.max_turns`).

use std::fmt::Write as _;

use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_path_to_error::Segment;

use crate::error::{Error, Result};

/// How the members of an argument are named in an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberNames {
    /// The keys as written.
    Keys,
    /// The keys in snake_case (`maxTurns` is `max_turns`).
    SnakeCase,
}

impl MemberNames {
    /// The JSON key `key` as these names spell it.
    pub fn spell(self, key: &str) -> String {
        match self {
            MemberNames::Keys => key.to_owned(),
            MemberNames::SnakeCase => {
                let mut out = String::with_capacity(key.len() + 4);
                for c in key.chars() {
                    if c.is_ascii_uppercase() {
                        out.push('_');
                        out.push(c.to_ascii_lowercase());
                    } else {
                        out.push(c);
                    }
                }
                out
            }
        }
    }
}

/// The argument `name`, a JSON value, read as `T` with serde's rules.
///
/// # Errors
/// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) from
/// [`Error::invalid_field`] naming the member at fault below `name` in `names`' spelling,
/// a missing or unknown member included (`` `project.name` is invalid: missing field `name` ``,
/// context `field` = `project.name`).
pub fn from_argument<T: DeserializeOwned>(
    value: Value,
    name: &str,
    names: MemberNames,
) -> Result<T> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let reason = e.inner().to_string();
        let mut field = name.to_owned();
        for segment in e.path() {
            match segment {
                Segment::Seq { index } => {
                    let _ = write!(field, "[{index}]");
                }
                Segment::Map { key } | Segment::Enum { variant: key } => {
                    field.push('.');
                    field.push_str(&names.spell(key));
                }
                Segment::Unknown => {}
            }
        }
        // serde reports a missing or unknown member at the object that should hold it.
        for prefix in ["missing field `", "unknown field `"] {
            if let Some((key, _)) = reason
                .strip_prefix(prefix)
                .and_then(|rest| rest.split_once('`'))
            {
                field.push('.');
                field.push_str(&names.spell(key));
            }
        }
        Error::invalid_field(field, reason)
    })
}
