//! [`SpawnConfig`]: what an agent is spawned with, and its builder (SPEC section 3).
//!
//! The same fields as the crate's `SpawnConfig`. It is not stored on its own: a
//! [`SessionState`](super::SessionState) is made from it with
//! [`SessionState::from_config`](super::SessionState::from_config) and gives it back with
//! [`SessionState::to_spawn_config`](super::SessionState::to_spawn_config). Delegations are
//! never persisted: their instructions are already part of `prompt` when the state is saved.
//!
//! It serialises (for bindings and resume plans) with the document's camelCase keys and
//! omission rules, plus `delegations` when there are any.

use serde::{Deserialize, Serialize};

use super::memory_config::{MemoryConfig, StringMap};

/// Configuration used to spawn one agent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpawnConfig {
    /// Agent name (also the session file name `{name}.json`).
    pub name: String,
    /// Initial prompt / system instruction.
    pub prompt: String,
    /// Model override; `None` uses the backend's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Working directory of the agent process, as a path string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Maximum conversation turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_turns: Option<i32>,
    /// Tools the agent may use without asking.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_tools: Vec<String>,
    /// Permission mode (`default`, `plan`, `bypassPermissions`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_mode: Option<String>,
    /// Reasoning effort (`low`, `medium`, `high`, `xhigh`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_effort: Option<String>,
    /// Extra environment variables, in insertion order.
    #[serde(default, skip_serializing_if = "StringMap::is_empty")]
    pub env: StringMap,
    /// Memory limits for cross-turn context injection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_config: Option<MemoryConfig>,
    /// CLI tools the agent delegates to (not persisted in a session state).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub delegations: Vec<CliDelegation>,
}

/// The members of a [`SpawnConfig`] document (camelCase), in field order.
pub(crate) const SPAWN_CONFIG_KEYS: &[&str] = &[
    "name",
    "prompt",
    "model",
    "cwd",
    "maxTurns",
    "allowedTools",
    "permissionMode",
    "reasoningEffort",
    "env",
    "memoryConfig",
    "delegations",
];

impl SpawnConfig {
    /// The config a binding was given as the JSON object `value` of its argument `name`
    /// (camelCase keys, as in the document). A member the type does not have (a misspelt
    /// `modl`) is refused instead of dropped without a word.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming the member below
    /// `name`: `` `config.modl` is invalid: unknown field `modl`, expected one of `name`, ...
    /// `` (context `field` = `config.modl`), or serde's reason for a wrong shape.
    pub fn from_argument(
        value: serde_json::Map<String, serde_json::Value>,
        name: &str,
    ) -> crate::Result<SpawnConfig> {
        if let Some(unknown) = value
            .keys()
            .find(|k| !SPAWN_CONFIG_KEYS.contains(&k.as_str()))
        {
            let expected = SPAWN_CONFIG_KEYS
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(crate::Error::invalid_field(
                format!("{name}.{unknown}"),
                format!("unknown field `{unknown}`, expected one of {expected}"),
            ));
        }
        crate::json::from_value(serde_json::Value::Object(value), name)
    }

    /// A config with only a name and a prompt.
    pub fn new(name: impl Into<String>, prompt: impl Into<String>) -> SpawnConfig {
        SpawnConfig {
            name: name.into(),
            prompt: prompt.into(),
            ..SpawnConfig::default()
        }
    }

    /// Starts a builder with the required name and prompt.
    ///
    /// ```
    /// use session_state::team::SpawnConfig;
    ///
    /// let config = SpawnConfig::builder("reviewer", "You review code.")
    ///     .model("gemini-2.5-flash")
    ///     .max_turns(5)
    ///     .env_var("RUST_LOG", "debug")
    ///     .build();
    /// assert_eq!(config.max_turns, Some(5));
    /// ```
    pub fn builder(name: impl Into<String>, prompt: impl Into<String>) -> SpawnConfigBuilder {
        SpawnConfigBuilder {
            config: SpawnConfig::new(name, prompt),
        }
    }
}

/// Builder of a [`SpawnConfig`]; each setter fills one optional field.
#[derive(Clone, Debug)]
#[must_use]
pub struct SpawnConfigBuilder {
    config: SpawnConfig,
}

impl SpawnConfigBuilder {
    /// Sets the model override.
    pub fn model(mut self, model: impl Into<String>) -> Self {
        self.config.model = Some(model.into());
        self
    }

    /// Sets the working directory (a path string).
    pub fn cwd(mut self, cwd: impl Into<String>) -> Self {
        self.config.cwd = Some(cwd.into());
        self
    }

    /// Sets the maximum conversation turns.
    pub fn max_turns(mut self, turns: i32) -> Self {
        self.config.max_turns = Some(turns);
        self
    }

    /// Sets the allowed tools.
    pub fn allowed_tools(mut self, tools: Vec<String>) -> Self {
        self.config.allowed_tools = tools;
        self
    }

    /// Sets the permission mode.
    pub fn permission_mode(mut self, mode: impl Into<String>) -> Self {
        self.config.permission_mode = Some(mode.into());
        self
    }

    /// Sets the reasoning effort.
    pub fn reasoning_effort(mut self, effort: impl Into<String>) -> Self {
        self.config.reasoning_effort = Some(effort.into());
        self
    }

    /// Adds one environment variable (replacing its value if already set).
    pub fn env_var(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.config.env.insert(key.into(), value.into());
        self
    }

    /// Replaces all environment variables.
    pub fn env(mut self, env: StringMap) -> Self {
        self.config.env = env;
        self
    }

    /// Sets the memory configuration.
    pub fn memory(mut self, config: MemoryConfig) -> Self {
        self.config.memory_config = Some(config);
        self
    }

    /// Adds a CLI delegation.
    pub fn delegate(mut self, delegation: CliDelegation) -> Self {
        self.config.delegations.push(delegation);
        self
    }

    /// The finished config.
    pub fn build(self) -> SpawnConfig {
        self.config
    }
}

/// The CLI tool a delegation targets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CliTool {
    /// OpenAI Codex CLI (`codex`).
    Codex,
    /// Google Gemini CLI (`gemini`).
    Gemini,
    /// Another CLI tool.
    Custom {
        /// Name shown to the agent.
        name: String,
        /// Binary name or path run through Bash.
        binary: String,
    },
}

/// One external CLI tool an agent may call through Bash. Only carried by a [`SpawnConfig`];
/// the orchestrator folds its instructions into the prompt before the state is saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CliDelegation {
    /// The tool.
    pub tool: CliTool,
    /// Model override for the tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// When to use the tool.
    pub description: String,
    /// Custom usage template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage_hint: Option<String>,
}

impl CliDelegation {
    /// A delegation to `tool`, described by `description`.
    pub fn new(tool: CliTool, description: impl Into<String>) -> CliDelegation {
        CliDelegation {
            tool,
            model: None,
            description: description.into(),
            usage_hint: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spawn_config_keys_are_the_fields() {
        // Exhaustive: a field added to the type fails to compile here.
        let SpawnConfig {
            name,
            prompt,
            model: _,
            cwd: _,
            max_turns: _,
            allowed_tools: _,
            permission_mode: _,
            reasoning_effort: _,
            env: _,
            memory_config: _,
            delegations: _,
        } = SpawnConfig::default();
        let full = SpawnConfig::builder(name, prompt)
            .model("m")
            .cwd("/")
            .max_turns(1)
            .allowed_tools(vec!["Bash".into()])
            .permission_mode("plan")
            .reasoning_effort("low")
            .env_var("K", "v")
            .memory(MemoryConfig::default())
            .delegate(CliDelegation::new(CliTool::Codex, "d"))
            .build();
        let json = serde_json::to_value(&full).expect("serialises");
        let keys: Vec<&str> = json
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, SPAWN_CONFIG_KEYS);
    }

    #[test]
    fn an_unknown_config_member_is_named_below_the_argument() {
        let value = serde_json::json!({"name": "c", "prompt": "p", "modl": "y"});
        let serde_json::Value::Object(map) = value else {
            unreachable!()
        };
        let err = SpawnConfig::from_argument(map, "config").unwrap_err();
        assert_eq!(err.field(), Some("config.modl"));
        assert!(
            err.message()
                .starts_with("`config.modl` is invalid: unknown field `modl`, expected one of `name`, `prompt`, `model`"),
            "{err}"
        );
        let serde_json::Value::Object(ok) = serde_json::json!({"name": "c", "prompt": "p"}) else {
            unreachable!()
        };
        assert_eq!(SpawnConfig::from_argument(ok, "config").unwrap().name, "c");
    }

    #[test]
    fn builder_sets_every_field() {
        let config = SpawnConfig::builder("coder", "You write Rust code.")
            .model("gpt-5-codex")
            .cwd("/home/u/proj")
            .max_turns(10)
            .allowed_tools(vec!["Bash".into(), "Read".into()])
            .permission_mode("bypassPermissions")
            .reasoning_effort("high")
            .env_var("A", "1")
            .env_var("B", "2")
            .memory(MemoryConfig::default())
            .delegate(CliDelegation::new(CliTool::Gemini, "design review"))
            .build();
        assert_eq!(config.name, "coder");
        assert_eq!(config.model.as_deref(), Some("gpt-5-codex"));
        assert_eq!(config.cwd.as_deref(), Some("/home/u/proj"));
        assert_eq!(config.max_turns, Some(10));
        assert_eq!(config.allowed_tools, ["Bash", "Read"]);
        assert_eq!(config.permission_mode.as_deref(), Some("bypassPermissions"));
        assert_eq!(config.reasoning_effort.as_deref(), Some("high"));
        assert_eq!(config.env.keys().collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(config.memory_config, Some(MemoryConfig::default()));
        assert_eq!(config.delegations.len(), 1);
        let mut env = StringMap::new();
        env.insert("C".into(), "3".into());
        let replaced = SpawnConfig::builder("a", "b")
            .env_var("A", "1")
            .env(env)
            .build();
        assert_eq!(replaced.env.keys().collect::<Vec<_>>(), ["C"]);
    }

    #[test]
    fn serialises_with_document_keys() {
        let minimal = serde_json::to_value(SpawnConfig::new("a", "b")).unwrap();
        assert_eq!(minimal, serde_json::json!({"name": "a", "prompt": "b"}));
        let full = SpawnConfig::builder("a", "b")
            .max_turns(3)
            .delegate(CliDelegation::new(CliTool::Codex, "tests"))
            .build();
        let value = serde_json::to_value(&full).unwrap();
        assert_eq!(value["maxTurns"], 3);
        assert_eq!(value["delegations"][0]["tool"], "codex");
        let back: SpawnConfig = serde_json::from_value(value).unwrap();
        assert_eq!(back, full);
    }
}
