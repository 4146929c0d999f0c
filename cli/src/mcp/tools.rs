//! The tool table: each tool's name, description, input schema (from a core type) and the
//! function that runs it, and how a result or an error becomes a tool result.

use std::sync::Arc;

use rmcp::handler::server::tool::schema_for_input;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use session_state::{Error, ErrorKind, Result};

use super::Roots;

/// What a tool answers: structured content (a JSON object) and a short text rendering.
#[derive(Debug)]
pub struct Reply {
    value: Value,
    text: String,
}

impl Reply {
    /// `value` as structured content (it must serialise to a JSON object) and `text`.
    pub fn new(value: &impl Serialize, text: impl Into<String>) -> Self {
        let value = serde_json::to_value(value).unwrap_or_default();
        debug_assert!(value.is_object(), "structured content must be an object");
        Reply {
            value,
            text: text.into(),
        }
    }

    fn into_result(self) -> CallToolResult {
        let mut result = CallToolResult::structured(self.value);
        result.content = vec![ContentBlock::text(self.text)];
        result
    }
}

/// The tool error of `err`: text `error[<code>]: <message>`, structured content
/// `{"code", "message", "context": {name: value}}`.
pub fn failure(err: &Error) -> CallToolResult {
    let context: Map<String, Value> = err
        .context()
        .iter()
        .map(|(name, value)| ((*name).to_owned(), Value::from(value.as_str())))
        .collect();
    let mut result = CallToolResult::structured_error(serde_json::json!({
        "code": err.code(),
        "message": err.message(),
        "context": context,
    }));
    result.content = vec![ContentBlock::text(format!(
        "error[{}]: {}",
        err.code(),
        err.message()
    ))];
    result
}

type Run = Box<dyn Fn(&Roots, JsonObject) -> Result<Reply> + Send + Sync>;

struct Entry {
    tool: Tool,
    run: Run,
}

/// Every tool of the server, in the order they are listed.
#[derive(Default)]
pub struct Tools {
    entries: Vec<Entry>,
}

impl std::fmt::Debug for Tools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|e| &e.tool.name))
            .finish()
    }
}

/// Whether a tool changes files (for the client's confirmation prompts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Only reads.
    Reads,
    /// Writes the session or registry files.
    Writes,
    /// May remove files or entries (`prune` when applied).
    Removes,
}

impl Tools {
    /// Adds tool `name` taking arguments of type `T` (its JSON Schema is the input schema).
    ///
    /// # Panics
    /// When `T`'s schema is not an object schema (a programming error, caught by the tests).
    pub fn add<T, F>(
        &mut self,
        name: &'static str,
        description: &'static str,
        effect: Effect,
        run: F,
    ) where
        T: JsonSchema + DeserializeOwned + 'static,
        F: Fn(&Roots, T) -> Result<Reply> + Send + Sync + 'static,
    {
        let schema = schema_for_input::<T>().expect("tool arguments are an object schema");
        let annotations = ToolAnnotations::new()
            .read_only(effect == Effect::Reads)
            .destructive(effect == Effect::Removes)
            .open_world(false);
        let tool = Tool::new(name, description, schema).with_annotations(annotations);
        self.entries.push(Entry {
            tool,
            run: Box::new(move |roots, args| run(roots, parse::<T>(name, args)?)),
        });
    }

    /// The tools' definitions.
    pub fn list(&self) -> Vec<Tool> {
        self.entries.iter().map(|e| e.tool.clone()).collect()
    }

    /// Runs tool `name` with `args`: its reply or its error as a tool result.
    pub fn call(&self, roots: &Roots, name: &str, args: JsonObject) -> CallToolResult {
        let outcome = match self.entries.iter().find(|e| e.tool.name == name) {
            None => Err(unknown_tool(name)),
            Some(entry) => super::limits::check(name, &args, roots.project.max_bytes)
                .and_then(|()| (entry.run)(roots, args)),
        };
        match outcome {
            Ok(reply) => reply.into_result(),
            Err(err) => failure(&err),
        }
    }
}

/// `not_found` naming the tool (the list is `tools/list`).
fn unknown_tool(name: &str) -> Error {
    let shown: String = name.chars().take(100).collect();
    Error::new(
        ErrorKind::NotFound,
        format!("no tool `{}` (tools/list names them)", shown.escape_debug()),
    )
    .with_context("tool", shown)
}

/// The arguments of tool `tool` as a `T`: `invalid_input` as the core words it for any
/// front end's argument, naming the member at fault as `field` (`goal`, `files[1]`, an
/// unknown member), or the arguments as a whole (a member missing).
fn parse<T: DeserializeOwned>(tool: &str, args: JsonObject) -> Result<T> {
    const WHOLE: &str = "arguments";
    session_state::json::from_value(Value::Object(args), WHOLE).map_err(|e| {
        let member = e
            .field()
            .and_then(|f| f.strip_prefix(WHOLE)?.strip_prefix('.'));
        let named = if let Some(member) = member.map(str::to_owned) {
            e.with_field(member)
        } else {
            let reason = e.reason().unwrap_or(e.message());
            Error::invalid_input(format!("the arguments are invalid: {reason}"))
        };
        named.with_context("tool", tool)
    })
}

/// The shared table, built once.
pub fn all() -> Arc<Tools> {
    let mut tools = Tools::default();
    super::session_tools::add(&mut tools);
    super::record_tools::add(&mut tools);
    super::registry_tools::add(&mut tools);
    super::team_tools::add(&mut tools);
    super::fork_tools::add(&mut tools);
    Arc::new(tools)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{Roots, all};
    use crate::context::Context;

    fn roots(dir: &std::path::Path, max_bytes: usize) -> Roots {
        Roots {
            project: Context::new(Some(dir.to_path_buf()), max_bytes),
            teams: Context::new(Some(dir.to_path_buf()), max_bytes),
        }
    }

    fn object(value: Value) -> super::JsonObject {
        match value {
            Value::Object(map) => map,
            _ => unreachable!("an object"),
        }
    }

    /// The code of the tool error, or `None` on success.
    fn code(result: &rmcp::model::CallToolResult) -> Option<String> {
        if result.is_error != Some(true) {
            return None;
        }
        let content = result.structured_content.as_ref()?;
        Some(content["code"].as_str()?.to_owned())
    }

    #[test]
    fn every_tool_has_a_unique_snake_case_name_and_a_closed_object_schema() {
        let tools = all().list();
        let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), tools.len());
        for tool in &tools {
            assert!(
                tool.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{}",
                tool.name
            );
            assert_eq!(tool.input_schema["type"], "object", "{}", tool.name);
            assert_eq!(
                tool.input_schema["additionalProperties"], false,
                "{}",
                tool.name
            );
        }
    }

    #[test]
    fn bad_calls_are_tool_errors_with_the_kind_code_and_write_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let roots = roots(dir.path(), 1000);
        let tools = all();
        let calls = [
            ("no_such_tool", json!({}), "not_found"),
            ("history", json!({"limit": "x"}), "invalid_input"),
            ("new", json!({"goal": "x".repeat(1000)}), "invalid_input"),
            ("new", json!({"goal": "g", "id": "../up"}), "invalid_key"),
            ("register", json!({"agent_name": "a"}), "invalid_input"),
            ("resume", json!({}), "not_found"),
        ];
        for (name, args, expected) in calls {
            let result = tools.call(&roots, name, object(args));
            assert_eq!(
                code(&result).as_deref(),
                Some(expected),
                "{name}: {result:?}"
            );
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let result = tools.call(&roots, "history", object(json!({})));
        assert_eq!(code(&result), None, "{result:?}");
        assert_eq!(result.structured_content.unwrap()["total"], 0);
    }
}
