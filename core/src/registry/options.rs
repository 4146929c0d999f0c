//! The options of the registry as the bindings take them, parsed and checked here once:
//! [`RegistryOptions`] (`{ journal, maxDocumentBytes }` of a registry handle) and [`PolicyOptions`]
//! (`{ policy, cap, threshold }` of a resume decision). Members are spelt as JavaScript
//! spells them (`minCompactBytes`); Python builds the same structs from keyword arguments.

use serde::Deserialize;
use serde_json::Value;

use super::agent_registry::AgentRegistry;
use super::journal::JournalMode;
use super::policy::{
    CompatPolicy, ExplainedPolicy, PolicyName, ResumeDecision, ResumePolicy, ResumeQuery,
};
use crate::error::{Error, Result};
use crate::json::from_value;
use crate::store::Store;
use crate::time::Clock;

/// The options of a registry handle: `{ journal }`, where `journal` is `true` (journal with
/// the default trigger), `false` or `null` (no journal, the default), or
/// `{ minCompactBytes }` (journal with that compaction trigger).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegistryOptions {
    /// The `journal` member as given; read by [`apply`](Self::apply), so that a bad value is
    /// named.
    #[serde(default)]
    pub journal: Option<Value>,
    /// Largest file read, in bytes (default 16 MiB); a value beyond the address space means no
    /// limit. See [`AgentRegistry::with_max_document_bytes`].
    #[serde(default, rename = "maxDocumentBytes")]
    pub max_document_bytes: Option<u64>,
}

/// The object form of the `journal` option.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct JournalSettings {
    min_compact_bytes: u64,
}

impl RegistryOptions {
    /// `registry` with these options set; `name` is the options argument, named in errors.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming `{name}.journal` (or
    /// the member inside it, `options.journal.minCompactBytes`) for anything but a boolean,
    /// `null` or `{ minCompactBytes }`.
    pub fn apply<S: Store, C: Clock>(
        &self,
        registry: AgentRegistry<S, C>,
        name: &str,
    ) -> Result<AgentRegistry<S, C>> {
        let mut registry = registry.with_journal(self.journal_mode(name)?);
        if let Some(bytes) = self.max_document_bytes {
            registry =
                registry.with_max_document_bytes(usize::try_from(bytes).unwrap_or(usize::MAX));
        }
        Ok(registry)
    }

    /// The journal mode of the `journal` member of the options argument `name`.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming `{name}.journal` (or
    /// the member inside it, `options.journal.minCompactBytes`) for anything but a boolean,
    /// `null` or `{ minCompactBytes }`.
    pub(crate) fn journal_mode(&self, name: &str) -> Result<JournalMode> {
        let field = format!("{name}.journal");
        match &self.journal {
            None | Some(Value::Null | Value::Bool(false)) => Ok(JournalMode::Off),
            Some(Value::Bool(true)) => Ok(JournalMode::DEFAULT_ON),
            Some(settings @ Value::Object(_)) => {
                let settings: JournalSettings = from_value(settings.clone(), &field)?;
                Ok(JournalMode::On {
                    min_compact_bytes: settings.min_compact_bytes,
                })
            }
            Some(other) => Err(Error::invalid_field(
                field,
                format!("expected a boolean or {{ minCompactBytes }}, got `{other}`"),
            )),
        }
    }
}

/// The options of a resume decision: `{ policy, cap, threshold }` (each optional).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyOptions {
    /// The policy (default `compat`).
    #[serde(default)]
    pub policy: Option<PolicyName>,
    /// Resumes before starting new (default 5).
    #[serde(default)]
    pub cap: Option<u64>,
    /// Minimum score to resume, in [0, 1], for `explained` only (default 0.3).
    #[serde(default)]
    pub threshold: Option<f64>,
}

/// A policy chosen by [`PolicyOptions`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ChosenPolicy {
    /// The seed's rule.
    Compat(CompatPolicy),
    /// Whole words with a Dice score.
    Explained(ExplainedPolicy),
}

impl ResumePolicy for ChosenPolicy {
    fn decide(&self, query: &ResumeQuery<'_>) -> ResumeDecision {
        match self {
            ChosenPolicy::Compat(policy) => policy.decide(query),
            ChosenPolicy::Explained(policy) => policy.decide(query),
        }
    }
}

impl PolicyOptions {
    /// The policy these options choose.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) for a `threshold` with the
    /// `compat` policy, or a `threshold` outside [0, 1].
    pub fn policy(&self) -> Result<ChosenPolicy> {
        match self.policy.unwrap_or_default() {
            PolicyName::Compat => {
                if self.threshold.is_some() {
                    return Err(Error::invalid_input(
                        "`threshold` applies only to the `explained` policy",
                    )
                    .with_context("field", "threshold"));
                }
                let defaults = CompatPolicy::default();
                Ok(ChosenPolicy::Compat(CompatPolicy {
                    cap: self.cap.unwrap_or(defaults.cap),
                }))
            }
            PolicyName::Explained => {
                let defaults = ExplainedPolicy::default();
                let threshold = self.threshold.unwrap_or(defaults.threshold);
                if !(0.0..=1.0).contains(&threshold) {
                    return Err(Error::invalid_input(format!(
                        "`threshold` must be in [0, 1], got {threshold}"
                    ))
                    .with_context("field", "threshold"));
                }
                Ok(ChosenPolicy::Explained(ExplainedPolicy {
                    cap: self.cap.unwrap_or(defaults.cap),
                    threshold,
                }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn options(value: Value) -> Result<RegistryOptions> {
        from_value(value, "options")
    }

    #[test]
    fn the_journal_option_takes_booleans_null_and_settings() {
        let mode = |v: Value| {
            options(json!({ "journal": v }))
                .unwrap()
                .journal_mode("options")
        };
        assert_eq!(mode(json!(true)).unwrap(), JournalMode::DEFAULT_ON);
        assert_eq!(mode(json!(false)).unwrap(), JournalMode::Off);
        assert_eq!(mode(json!(null)).unwrap(), JournalMode::Off);
        assert_eq!(
            mode(json!({ "minCompactBytes": 10 })).unwrap(),
            JournalMode::On {
                min_compact_bytes: 10
            }
        );
        assert_eq!(
            RegistryOptions::default().journal_mode("options").unwrap(),
            JournalMode::Off
        );
        let err = mode(json!("yes")).unwrap_err();
        assert_eq!(err.field(), Some("options.journal"));
        assert!(
            err.message()
                .starts_with("`options.journal` is invalid: expected a boolean")
        );
        let err = mode(json!({ "minCompact": 1 })).unwrap_err();
        assert!(
            err.message().contains("unknown field `minCompact`"),
            "{err}"
        );
        let err = options(json!({ "jurnal": true })).unwrap_err();
        assert!(err.message().contains("unknown field `jurnal`"), "{err}");
    }

    #[test]
    fn policy_options_choose_and_check_the_policy() {
        let parse = |v: Value| from_value::<PolicyOptions>(v, "options");
        assert_eq!(
            parse(json!({})).unwrap().policy().unwrap(),
            ChosenPolicy::Compat(CompatPolicy::default())
        );
        assert_eq!(
            parse(json!({ "policy": "explained", "cap": 2, "threshold": 0.5 }))
                .unwrap()
                .policy()
                .unwrap(),
            ChosenPolicy::Explained(ExplainedPolicy {
                cap: 2,
                threshold: 0.5
            })
        );
        assert!(parse(json!({ "policy": "strict" })).is_err());
        let compat_threshold = parse(json!({ "threshold": 0.5 })).unwrap().policy();
        assert!(
            compat_threshold
                .unwrap_err()
                .message()
                .contains("only to the `explained`")
        );
        for bad in [-0.1, 1.5, f64::NAN] {
            let options = PolicyOptions {
                policy: Some(PolicyName::Explained),
                cap: None,
                threshold: Some(bad),
            };
            let err = options.policy().unwrap_err();
            assert_eq!(err.code(), "invalid_input", "{bad}");
            assert_eq!(err.context_value("field"), Some("threshold"));
        }
        assert_eq!(
            "explained".parse::<PolicyName>().unwrap(),
            PolicyName::Explained
        );
        assert!(
            "magic"
                .parse::<PolicyName>()
                .unwrap_err()
                .message()
                .contains("`magic`")
        );
    }
}
