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
    /// The camelCase keys in snake_case (`maxTurns` is `max_turns`); any other key, such as a
    /// map's (`MY_VAR` in `env`), as written.
    SnakeCase,
}

impl MemberNames {
    /// The JSON key `key` as these names spell it.
    pub fn spell(self, key: &str) -> String {
        match self {
            MemberNames::SnakeCase if !is_camel_case(key) => key.to_owned(),
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

/// Whether `key` is a camelCase name: ASCII letters and digits, starting with a lowercase
/// letter.
fn is_camel_case(key: &str) -> bool {
    key.starts_with(|c: char| c.is_ascii_lowercase())
        && key.chars().all(|c| c.is_ascii_alphanumeric())
}

/// The argument `name`, a JSON value, read as `T` with serde's rules.
///
/// # Errors
/// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) from
/// [`Error::invalid_field`] naming the member at fault below `name` in `names`' spelling
/// (alone when `name` is empty: members given as keyword arguments),
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
                    if !field.is_empty() {
                        field.push('.');
                    }
                    field.push_str(&names.spell(key));
                }
                Segment::Unknown => {}
            }
        }
        // serde reports a missing member at the object that should hold it (an unknown one
        // is in the path already).
        if let Some((key, _)) = reason
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split_once('`'))
        {
            if !field.is_empty() {
                field.push('.');
            }
            field.push_str(&names.spell(key));
        }
        Error::invalid_field(field, reason)
    })
}

/// An [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) error naming a document
/// member (`backendType`) named again below the argument `parent` in `names`' spelling
/// (`state.backend_type`), its message following; any other error unchanged.
pub fn member_below(err: Error, parent: &str, names: MemberNames) -> Error {
    match err.field().map(|field| names.spell(field)) {
        Some(member) if err.kind() == crate::ErrorKind::InvalidInput => {
            err.with_field(format!("{parent}.{member}"))
        }
        _ => err,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{MemberNames, from_argument, member_below};
    use crate::Error;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Config {
        max_turns: u32,
        name: String,
    }

    #[test]
    fn the_member_at_fault_is_named_in_the_bindings_spelling() {
        let err = from_argument::<Config>(
            json!({"maxTurns": "x", "name": "a"}),
            "config",
            MemberNames::SnakeCase,
        )
        .unwrap_err();
        assert_eq!(err.field(), Some("config.max_turns"));
        let err = from_argument::<Config>(json!({"maxTurns": 1}), "config", MemberNames::Keys)
            .unwrap_err();
        assert_eq!(
            err.message(),
            "`config.name` is invalid: missing field `name`"
        );
        let err = from_argument::<Config>(
            json!({"maxTurns": 1, "name": "a", "oops": 1}),
            "c",
            MemberNames::Keys,
        )
        .unwrap_err();
        assert_eq!(err.field(), Some("c.oops"));
        assert_eq!(MemberNames::SnakeCase.spell("backendType"), "backend_type");
        // A map's keys (environment variables, metadata) are not names to respell.
        for kept in ["MY_VAR", "Path", "a-b", "x_y", "eVAR_1", ""] {
            assert_eq!(MemberNames::SnakeCase.spell(kept), kept);
        }
        let err = member_below(
            Error::invalid_field("backendType", "unknown"),
            "state",
            MemberNames::SnakeCase,
        );
        assert_eq!(err.field(), Some("state.backend_type"));
        assert_eq!(err.message(), "`state.backend_type` is invalid: unknown");
        let other = member_below(Error::corrupt("k", "x"), "state", MemberNames::SnakeCase);
        assert_eq!(other.field(), None);
    }

    #[test]
    fn keyword_arguments_are_named_alone() {
        let err = from_argument::<Config>(json!({"maxTurns": "x"}), "", MemberNames::SnakeCase)
            .unwrap_err();
        assert_eq!(err.field(), Some("max_turns"));
        let err =
            from_argument::<Config>(json!({"maxTurns": 1}), "", MemberNames::Keys).unwrap_err();
        assert_eq!(err.message(), "`name` is invalid: missing field `name`");
    }
}
