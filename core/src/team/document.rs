//! The team session document: [`SessionState`] (SPEC section 3,
//! "Document"), read and written byte-compatibly with the `agent-teams` 0.1.0 crate.
//!
//! - Keys are camelCase; inside `memoryConfig` they are snake_case (`max_turns`,
//!   `budget_chars`, both required).
//! - Omitted on write as the crate does: `model`, `cwd`, `maxTurns`, `permissionMode`,
//!   `reasoningEffort`, `memoryConfig` when none; `allowedTools`, `env`, `metadata` when empty.
//!   On read, a missing list or map is empty, but `null` is rejected for `allowedTools`, `env`
//!   and `metadata` (the crate rejects it too); `null` reads as none for the optional fields.
//! - `createdAt` reads what chrono's serde reads (RFC 3339 with `Z` or an offset, converted to
//!   UTC; chrono also takes a space or `t` for `T` and a `UTC` suffix); a value without an
//!   offset is rejected. It is written RFC 3339 UTC with `Z` and 0, 3, 6 or 9 fraction digits.
//! - Keys the crate does not know are kept (in `extra`) and written after the known keys.
//! - Written pretty-printed with two spaces and no trailing newline ([`SessionState::to_json`]).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::backend::BackendType;
use super::memory_config::{MEMORY_CONFIG_KEYS, MemoryConfig, StringMap};
use super::names::validate_name;
use super::spawn::SpawnConfig;
use crate::error::{Error, Result};

/// The keys of a session document, in the order they are written.
pub const DOCUMENT_KEYS: &[&str] = &[
    "name",
    "backendType",
    "prompt",
    "model",
    "cwd",
    "maxTurns",
    "allowedTools",
    "permissionMode",
    "reasoningEffort",
    "env",
    "memoryConfig",
    "metadata",
    "createdAt",
];

/// Persisted state of one team agent, stored at `teams/{team}/sessions/{agent}.json`, used to
/// re-spawn the agent with the same configuration after an orchestrator restart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionState {
    /// Agent name (the file is `{name}.json`).
    pub name: String,
    /// Backend string; `claude-code`, `codex`, `gemini-cli` are known, others are kept as
    /// they are (see [`SessionState::parse_backend_type`]).
    pub backend_type: String,
    /// The prompt / system instruction (with any delegation instructions folded in).
    pub prompt: String,
    /// Model override.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Working directory, as a path string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Maximum conversation turns (a 32-bit signed integer, as the crate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_turns: Option<i32>,
    /// Allowed tools.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_tools: Vec<String>,
    /// Permission mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_mode: Option<String>,
    /// Reasoning effort.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_effort: Option<String>,
    /// Extra environment variables (file order kept).
    #[serde(default, skip_serializing_if = "StringMap::is_empty")]
    pub env: StringMap,
    /// Memory configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_config: Option<MemoryConfig>,
    /// Backend-specific metadata such as a Codex thread id (file order kept).
    #[serde(default, skip_serializing_if = "StringMap::is_empty")]
    pub metadata: StringMap,
    /// When the session was created (UTC).
    pub created_at: DateTime<Utc>,
    /// Keys the crate does not know, kept as read and written after the known keys. A key
    /// here that names a known key is refused on write.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl SessionState {
    /// The state of a freshly spawned agent, as the crate's `from_config`: the config's
    /// fields, `backendType` from `backend`, `createdAt` = `now`, empty `metadata`, no extra
    /// keys. Delegations are dropped (their text is already in the prompt).
    pub fn from_config(config: &SpawnConfig, backend: BackendType, now: DateTime<Utc>) -> Self {
        SessionState {
            name: config.name.clone(),
            backend_type: backend.to_string(),
            prompt: config.prompt.clone(),
            model: config.model.clone(),
            cwd: config.cwd.clone(),
            max_turns: config.max_turns,
            allowed_tools: config.allowed_tools.clone(),
            permission_mode: config.permission_mode.clone(),
            reasoning_effort: config.reasoning_effort.clone(),
            env: config.env.clone(),
            memory_config: config.memory_config.clone(),
            metadata: StringMap::new(),
            created_at: now,
            extra: Map::new(),
        }
    }

    /// The config to re-spawn this agent with; no delegations.
    pub fn to_spawn_config(&self) -> SpawnConfig {
        SpawnConfig {
            name: self.name.clone(),
            prompt: self.prompt.clone(),
            model: self.model.clone(),
            cwd: self.cwd.clone(),
            max_turns: self.max_turns,
            allowed_tools: self.allowed_tools.clone(),
            permission_mode: self.permission_mode.clone(),
            reasoning_effort: self.reasoning_effort.clone(),
            env: self.env.clone(),
            memory_config: self.memory_config.clone(),
            delegations: Vec::new(),
        }
    }

    /// The backend named by `backendType`.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) `unknown backend type
    /// `...`` when the string is not one of the three known backends.
    pub fn parse_backend_type(&self) -> Result<BackendType> {
        self.backend_type.parse()
    }

    /// Parses a document.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) with serde_json's reason
    /// (line and column) when the bytes are not a session document.
    pub fn from_json(bytes: &[u8]) -> Result<SessionState> {
        serde_json::from_slice(bytes).map_err(|e| {
            Error::invalid_input(format!("not a team session state: {e}")).with_source(e)
        })
    }

    /// Sets the members of `changes` (document keys, camelCase, as in the file) over this
    /// state, like `Object.assign` on the document: keys not in `changes` stay as they are.
    ///
    /// A `backendType` in `changes` that differs from the current one must name a backend the
    /// crate knows (as a spawn's [`BackendType`](super::BackendType)); an unknown backend
    /// already held is kept (it may be given again unchanged), as [`SessionState::from_json`]
    /// and `TeamStore::save` keep it.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming the change at fault
    /// and the reason (`` `createdAt` is invalid: ... ``, context `field`; without a change to
    /// name, `` the changes make an invalid session state: ... ``) when the result is not a valid
    /// session state (a wrong type, a timestamp without offset, a `name` the crate refuses, ...),
    /// or with `` `backendType` is invalid: unknown backend type `...` `` (`` expected a backend
    /// name, got `5` `` for a value that is not a string) and the context pair `field` =
    /// `backendType` for a change to an unknown backend, or naming a key written in snake_case
    /// for a document key (`` `max_turns` is invalid: the key is `maxTurns` ... ``), which would
    /// be kept as an unknown member; `self` is then unchanged.
    pub fn merge(&mut self, changes: &Map<String, Value>) -> Result<()> {
        check_change_keys(changes)?;
        match changes.get("backendType") {
            Some(Value::String(backend)) => self.check_backend_change(backend)?,
            Some(other) => {
                return Err(Error::invalid_field(
                    "backendType",
                    format!("expected a backend name, got `{other}`"),
                ));
            }
            None => {}
        }
        // Through the document's JSON text, with the writer and reader that saving and loading
        // use (not `to_value`/`from_value`: a second serialiser and deserialiser of the type
        // cost the wasm package about 6 KB gzip for the same result).
        let Ok(Value::Object(doc)) = serde_json::from_slice::<Value>(&self.to_json()?) else {
            return Err(Error::invalid_input(
                "a session state serialises as an object",
            ));
        };
        let merged = Self::with_changes(&doc, changes.iter()).map_err(|reason| {
            // Name the change at fault: the first that fails on its own.
            let field = changes
                .iter()
                .find(|change| Self::with_changes(&doc, std::iter::once(*change)).is_err())
                .map(|(key, _)| key.as_str());
            match field {
                Some(field) => Error::invalid_field(field, reason),
                None => Error::invalid_input(format!(
                    "the changes make an invalid session state: {reason}"
                )),
            }
        })?;
        if changes.contains_key("name") {
            // What `save` would refuse: refused here, where the change is made.
            validate_name("agent name", &merged.name)
                .map_err(|e| Error::invalid_field("name", e.message()))?;
        }
        *self = merged;
        Ok(())
    }

    /// [`merge`](Self::merge) of the argument `name` of a binding (`changes`): the member at
    /// fault is named below `name`, with the whole path of a type error where serde finds one
    /// (`changes.memoryConfig.max_turns`, found by reading the merged document with the same
    /// rules), else the change the core names (`changes.name`,
    /// `changes.backendType`).
    ///
    /// # Errors
    /// As [`merge`](Self::merge); `self` is then unchanged.
    pub fn merge_argument(&mut self, changes: &Map<String, Value>, name: &str) -> Result<()> {
        self.merge(changes).map_err(|err| {
            if let Ok(Value::Object(mut merged)) = serde_json::to_value(&*self) {
                merged.extend(changes.clone());
                if let Err(named) =
                    crate::json::from_value::<SessionState>(Value::Object(merged), name)
                {
                    return named;
                }
            }
            err.below(name)
        })
    }

    /// `doc` (a state's JSON object) with `changes` set over it, read back as a state; the
    /// error is serde's reason without a position (the text is made here, not by the caller).
    fn with_changes<'a>(
        doc: &Map<String, Value>,
        changes: impl Iterator<Item = (&'a String, &'a Value)>,
    ) -> std::result::Result<SessionState, String> {
        let mut doc = doc.clone();
        for (key, value) in changes {
            doc.insert(key.clone(), value.clone());
        }
        let text = serde_json::to_vec(&doc).map_err(|e| e.to_string())?;
        serde_json::from_slice(&text).map_err(|e| {
            let reason = e.to_string();
            let position = format!(" at line {} column {}", e.line(), e.column());
            reason.strip_suffix(&position).unwrap_or(&reason).to_owned()
        })
    }

    /// Checks that `backend` may replace this state's `backendType`: it is the same string, or
    /// a backend the crate knows.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput)
    /// `` `backendType` is invalid: unknown backend type `...` `` with the context pairs
    /// `field` = `backendType` and `backend_type`.
    pub fn check_backend_change(&self, backend: &str) -> Result<()> {
        if backend == self.backend_type {
            return Ok(());
        }
        backend
            .parse::<super::BackendType>()
            .map(drop)
            .map_err(|e| {
                Error::invalid_field("backendType", e.message())
                    .with_context("backend_type", backend)
            })
    }

    /// The document as the crate writes it: pretty JSON, two-space indent, no trailing newline.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) when an `extra` key (here or
    /// in `memoryConfig`) names a known key, which would write it twice.
    pub fn to_json(&self) -> Result<Vec<u8>> {
        check_extra(&self.extra, DOCUMENT_KEYS, "session state")?;
        if let Some(memory) = &self.memory_config {
            check_extra(&memory.extra, MEMORY_CONFIG_KEYS, "memoryConfig")?;
        }
        serde_json::to_vec_pretty(self).map_err(|e| {
            Error::invalid_input(format!("cannot serialise session state: {e}")).with_source(e)
        })
    }
}

/// Refuses a change key written in snake_case for a document key (`max_turns` for `maxTurns`):
/// kept, it would be an unknown member and the field would stay as it was.
fn check_change_keys(changes: &Map<String, Value>) -> Result<()> {
    // The same letters, ignoring ASCII case and underscores.
    fn letters(text: &str) -> impl Iterator<Item = u8> + '_ {
        text.bytes()
            .filter(|b| *b != b'_')
            .map(|b| b.to_ascii_lowercase())
    }
    for key in changes.keys().filter(|key| key.contains('_')) {
        if let Some(known) = DOCUMENT_KEYS
            .iter()
            .find(|known| letters(known).eq(letters(key)))
        {
            let reason = format!("the key is `{known}` (a session state's keys are camelCase)");
            return Err(Error::invalid_field(key.as_str(), reason));
        }
    }
    Ok(())
}

fn check_extra(extra: &Map<String, Value>, known: &[&str], what: &str) -> Result<()> {
    match extra.keys().find(|k| known.contains(&k.as_str())) {
        Some(key) => Err(Error::invalid_input(format!(
            "{what} extra key `{key}` names a known key"
        ))
        .with_context("field", key.clone())),
        None => Ok(()),
    }
}
