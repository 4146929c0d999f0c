//! [`BackendType`]: which agent backend a member runs on (SPEC section 3).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};

/// The backends the `agent-teams` crate knows. Displays and parses exactly `claude-code`,
/// `codex` and `gemini-cli` (case-sensitive); any other string is an unknown backend, which a
/// [`SessionState`](super::SessionState) keeps as text in `backendType`.
///
/// Serialises as that string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BackendType {
    /// Claude Code (`claude-code`).
    ClaudeCode,
    /// OpenAI Codex (`codex`).
    Codex,
    /// Google Gemini CLI (`gemini-cli`).
    GeminiCli,
}

impl BackendType {
    /// Every backend, in declaration order.
    pub const ALL: &'static [BackendType] = &[
        BackendType::ClaudeCode,
        BackendType::Codex,
        BackendType::GeminiCli,
    ];

    /// The backend's string: `claude-code`, `codex` or `gemini-cli`.
    pub const fn as_str(self) -> &'static str {
        match self {
            BackendType::ClaudeCode => "claude-code",
            BackendType::Codex => "codex",
            BackendType::GeminiCli => "gemini-cli",
        }
    }
}

impl fmt::Display for BackendType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for BackendType {
    type Err = Error;

    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming the string, with
    /// the context pair `backend_type`.
    fn from_str(text: &str) -> Result<BackendType> {
        BackendType::ALL
            .iter()
            .copied()
            .find(|b| b.as_str() == text)
            .ok_or_else(|| {
                Error::invalid_input(format!("unknown backend type `{}`", text.escape_debug()))
                    .with_context("backend_type", text)
            })
    }
}

impl schemars::JsonSchema for BackendType {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "BackendType".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "enum": ["claude-code", "codex", "gemini-cli"],
            "description": "An agent backend of the agent-teams crate"
        })
    }
}

impl Serialize for BackendType {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for BackendType {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn display_and_parse_round_trip_exactly() {
        for backend in BackendType::ALL {
            assert_eq!(
                backend.to_string().parse::<BackendType>().unwrap(),
                *backend
            );
        }
        assert_eq!(BackendType::ClaudeCode.to_string(), "claude-code");
        assert_eq!(BackendType::Codex.to_string(), "codex");
        assert_eq!(BackendType::GeminiCli.to_string(), "gemini-cli");
    }

    #[test]
    fn unknown_and_wrong_case_are_rejected() {
        for bad in ["Codex", "claude_code", "gemini", "", " codex"] {
            let err = bad.parse::<BackendType>().unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidInput);
            assert_eq!(err.context_value("backend_type"), Some(bad));
        }
    }

    #[test]
    fn serde_uses_the_string() {
        assert_eq!(
            serde_json::to_string(&BackendType::GeminiCli).unwrap(),
            "\"gemini-cli\""
        );
        assert!(serde_json::from_str::<BackendType>("\"cursor\"").is_err());
    }
}
